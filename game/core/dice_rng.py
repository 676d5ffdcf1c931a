"""The app's one source of randomness.

``random.Random`` lives here and nowhere else: the rules engine never rolls. A roll is made by
sampling ``engine.chance_outcomes(state)`` with ``game.core.chance.Bands`` (``sample``'s bands: the same
cumulative Fractions the odds on screen come from) and applying the resulting ``Roll`` like any action.
Bots get their own stream (``Chooser``) so that a bot's choices never shift the dice.

A save records where its dice come from (``describe``: ``"seeded"``, or ``{"scripted": [...]}`` for a
tutorial's loaded dice) so that loading can check every recorded roll against them (``dice_from_data``).
"""
from __future__ import annotations

import random
from operator import is_
from typing import Any, Sequence, TypeVar

from game.core.chance import Bands
from game.core.plaindata import BadData, expect, expect_whole

T = TypeVar("T")


#: The most scripted values a save's dice may list (the tutorial loads six).
MAX_SCRIPTED = 1000


def _stream(seed: int, purpose: str) -> random.Random:
    # A string seed is hashed deterministically (SHA-512), unlike hash(); each purpose gets its own stream.
    # The "whatgoesup:" prefix predates other games: changing it would change every saved game's dice.
    return random.Random(f"whatgoesup:{purpose}:{seed}")


class DiceRoller:
    """Rolls the pending roll of a state: ``DiceRoller(seed).roll(engine, state) -> Roll``."""

    def __init__(self, seed: int):
        self.seed = seed
        self._rng = _stream(seed, "dice")

    @classmethod
    def resume(cls, seed: int, rolls_made: int) -> "DiceRoller":
        """The roller of ``seed`` after ``rolls_made`` rolls (each roll draws exactly one uniform),
        so a loaded game keeps rolling the dice it would have rolled without the save."""
        roller = cls(seed)
        roller.skip(rolls_made)
        return roller

    def skip(self, rolls_made: int) -> None:
        """Move on past ``rolls_made`` rolls already made (a loaded game's)."""
        for _ in range(rolls_made):
            self._rng.random()

    def describe(self) -> Any:
        """Where these dice come from, as a save records it (``dice_from_data`` makes them again)."""
        return "seeded"

    def fresh(self) -> "DiceRoller":
        """The same dice from the first roll of the game."""
        return dice_from_data(self.describe(), self.seed)

    def roll(self, engine, state):
        """The Roll for the pending roll of ``state``; ValueError when no roll is pending."""
        outcomes = engine.chance_outcomes(state)
        if not outcomes:
            raise ValueError("no roll is pending")
        bands, rolls = _bands_of(outcomes)
        return rolls[bands.index(self._rng.random())]


def _bands_of(outcomes: Sequence[tuple[Any, Any]]) -> tuple[Bands, tuple]:
    """The bands of a pending roll's outcomes (``(Roll, probability)`` pairs: the distribution of their values,
    ascending) and the Roll of each value, in the bands' order.

    Engines hand out the same outcome pairs (immutable values) for the same kind of roll, so the answer is kept
    per tuple of pairs (the pairs themselves are kept with it, so their ids stay theirs): worked out once, not
    once per roll. The last answer is tried first, by the very pairs at C speed (a game rolls the same kind of
    roll again and again), before the ids are looked up."""
    last = _LAST_BANDS[0]
    if len(last) == len(outcomes) and all(map(is_, last, outcomes)):
        return _LAST_BANDS[1], _LAST_BANDS[2]
    key = tuple(map(id, outcomes))
    kept = _KEPT_BANDS.get(key)
    if kept is None:
        by_value = {roll.value: roll for roll, _ in outcomes}
        bands = Bands(tuple(sorted((roll.value, p) for roll, p in outcomes)))
        if len(_KEPT_BANDS) >= _KEPT_BANDS_MAX:
            _KEPT_BANDS.clear()
        kept = _KEPT_BANDS[key] = (tuple(outcomes), bands, tuple(by_value[value] for value in bands.values))
    _LAST_BANDS[:] = kept
    return kept[1], kept[2]


#: tuple of the ids of outcome pairs -> (those pairs, their Bands, the Roll of each value)
_KEPT_BANDS: dict[tuple, tuple] = {}
_KEPT_BANDS_MAX = 256
#: the pairs, Bands and Rolls last answered (one of ``_KEPT_BANDS``' values; never empty pairs once asked)
_LAST_BANDS: list = [(), None, ()]


class ScriptedDice(DiceRoller):
    """Dice that roll chosen values first (a tutorial's lesson), then roll like ``DiceRoller(seed)``.

    ``ScriptedDice([1, 1, 3], seed)``: the n-th roll of the game shows ``values[n]`` when that value is
    one of ``engine.chance_outcomes``' values for the pending roll; otherwise (or once the values run
    out) the seeded roll is used. Every roll still draws from the seeded stream, so a scripted game
    resumes like any other: ``skip(n)`` passes both the stream and the script.
    """

    def __init__(self, values: Sequence[int], seed: int):
        super().__init__(seed)
        self.values = list(values)
        self.position = 0

    def skip(self, rolls_made: int) -> None:
        super().skip(rolls_made)
        self.position += rolls_made

    def describe(self) -> Any:
        return {"scripted": list(self.values)}

    def roll(self, engine, state):
        seeded = super().roll(engine, state)  # draws from the stream whether or not the script is used
        index, self.position = self.position, self.position + 1
        if index < len(self.values):
            wanted = self.values[index]
            for roll, _ in engine.chance_outcomes(state):
                if roll.value == wanted:
                    return roll
        return seeded


def dice_from_data(data: Any, seed: int) -> DiceRoller:
    """The dice a save describes (``"seeded"`` or ``{"scripted": [values]}``); BadData when it is neither."""
    if data == "seeded":
        return DiceRoller(seed)
    if isinstance(data, dict) and set(data) == {"scripted"}:
        values = expect(data["scripted"], list, "dice.scripted", "a list")
        if len(values) > MAX_SCRIPTED:
            raise BadData(f"dice.scripted lists {len(values)} values; at most {MAX_SCRIPTED} are allowed")
        return ScriptedDice([expect_whole(v, "dice.scripted", -10 ** 6, 10 ** 6) for v in values], seed)
    raise BadData("dice must be \"seeded\" or {\"scripted\": [values]}")


class Chooser:
    """A bot's seeded choices, separate from the dice."""

    def __init__(self, seed: int):
        self.seed = seed
        self._rng = _stream(seed, "bot")
        self._bits = self._rng.getrandbits

    def choice(self, options: Sequence[T]) -> T:
        if not options:
            raise ValueError("nothing to choose from")
        return options[self.below(len(options))]

    def below(self, n: int) -> int:
        """A whole number from 0 to n - 1 (n > 0): the very draw ``choice(range(n))`` makes, without the range.
        Drawn as ``random.Random.randrange(n)`` draws it (bits of ``n``'s length until a number below ``n``),
        without its checks and calls: a bot draws at nearly every choice. tests/test_bots.py holds the two to
        the same numbers, so that the seeded games stay the same."""
        if n <= 0:
            raise ValueError("nothing to choose from")
        bits = self._bits
        k = n.bit_length()
        r = bits(k)
        while r >= n:
            r = bits(k)
        return r
