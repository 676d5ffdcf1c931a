"""The app's one source of randomness.

``random.Random`` lives here and nowhere else: the rules engine never rolls. A roll is made by
sampling ``engine.chance_outcomes(state)`` with ``game.rules.dice.sample`` (the same cumulative
Fractions the odds on screen come from) and applying the resulting ``Roll`` like any action.
Bots get their own stream (``Chooser``) so that a bot's choices never shift the dice.
"""
from __future__ import annotations

import random
from typing import Sequence, TypeVar

from game.rules.dice import sample

T = TypeVar("T")


def _stream(seed: int, purpose: str) -> random.Random:
    # A string seed is hashed deterministically (SHA-512), unlike hash(); each purpose gets its own stream.
    return random.Random(f"whatgoesup:{purpose}:{seed}")


class DiceRoller:
    """Rolls the pending roll of a state: ``DiceRoller(seed).roll(engine, state) -> Roll``."""

    def __init__(self, seed: int):
        self.seed = seed
        self._rng = _stream(seed, "dice")

    @classmethod
    def resume(cls, seed: int, rolls_made: int) -> "DiceRoller":
        """The roller of a game that has already made ``rolls_made`` rolls (each uses one draw)."""
        roller = cls(seed)
        for _ in range(rolls_made):
            roller._rng.random()
        return roller

    @classmethod
    def resume(cls, seed: int, rolls_made: int) -> "DiceRoller":
        """The roller of ``seed`` after ``rolls_made`` rolls (each roll draws exactly one uniform),
        so a loaded game keeps rolling the dice it would have rolled without the save."""
        roller = cls(seed)
        for _ in range(rolls_made):
            roller._rng.random()
        return roller

    def roll(self, engine, state):
        """The Roll for the pending roll of ``state``; ValueError when no roll is pending."""
        outcomes = engine.chance_outcomes(state)
        if not outcomes:
            raise ValueError("no roll is pending")
        by_value = {roll.value: roll for roll, _ in outcomes}
        distribution = tuple(sorted((roll.value, p) for roll, p in outcomes))
        return by_value[sample(distribution, self._rng.random())]


class Chooser:
    """A bot's seeded choices, separate from the dice."""

    def __init__(self, seed: int):
        self.seed = seed
        self._rng = _stream(seed, "bot")

    def choice(self, options: Sequence[T]) -> T:
        if not options:
            raise ValueError("nothing to choose from")
        return options[self._rng.randrange(len(options))]
