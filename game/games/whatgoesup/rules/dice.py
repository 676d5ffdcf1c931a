"""Dice schemes and their exact distributions.

Every probability is a ``Fraction``: the odds a player is shown and the roll the app
samples both come from ``Distribution`` values built here (the type and ``sample`` live in
``game.core.chance``, shared by every game), so they can never disagree.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

from game.core.chance import Distribution, sample  # noqa: F401  (re-exported: rules and tests import them here)
from game.core.schema import origin_field, spec


@dataclass(frozen=True)
class DiceScheme:
    """How one reliability roll is made: ``dice`` dice of ``sides`` sides, plus ``offset``."""

    id: str
    name: str
    dice: int = spec(low=1, high=8)
    sides: int = spec(low=2, high=100)
    offset: int = spec(0, low=-50, high=50)
    description: str = ""
    origin: object = origin_field()

    @property
    def low(self) -> int:
        return self.dice + self.offset

    @property
    def high(self) -> int:
        return self.dice * self.sides + self.offset

    def distribution(self) -> Distribution:
        return _sum_distribution(self.dice, self.sides, self.offset)

    def faces_for(self, value: int) -> tuple[int, ...]:
        """Die faces that show ``value`` (for animating dice that land on a decided result)."""
        total = value - self.offset
        if not self.dice <= total <= self.dice * self.sides:
            raise ValueError(f"{value} cannot be rolled on {self.name}")
        faces = []
        for left in range(self.dice, 0, -1):
            face = min(self.sides, total - (left - 1))
            faces.append(face)
            total -= face
        return tuple(faces)


@lru_cache(maxsize=None)
def _sum_distribution(dice: int, sides: int, offset: int) -> Distribution:
    counts = {0: 1}
    for _ in range(dice):
        nxt: dict[int, int] = {}
        for total, ways in counts.items():
            for face in range(1, sides + 1):
                nxt[total + face] = nxt.get(total + face, 0) + ways
        counts = nxt
    whole = sides ** dice
    return tuple((total + offset, Fraction(ways, whole)) for total, ways in sorted(counts.items()))


_ROUNDINGS = {"up": math.ceil, "down": math.floor}


@lru_cache(maxsize=None)
def cluster_distribution(single: Distribution, count: int, average_up_to: int,
                         rounding: str = "up") -> Distribution:
    """The combined roll of ``count`` clustered lower stages.

    Up to ``average_up_to`` stages: the average of their rolls, rounded ``rounding`` ("up" or "down",
    the components table's ``clustering.average_rounding``). More: the highest roll.
    """
    if rounding not in _ROUNDINGS:
        raise ValueError(f"clustered stages cannot round their average {rounding!r}: only up or down")
    if count <= 1:
        return single
    if count <= average_up_to:
        sums: dict[int, Fraction] = {0: Fraction(1)}
        for _ in range(count):
            nxt: dict[int, Fraction] = {}
            for total, p in sums.items():
                for value, q in single:
                    nxt[total + value] = nxt.get(total + value, Fraction(0)) + p * q
            sums = nxt
        combined: dict[int, Fraction] = {}
        for total, p in sums.items():
            value = _ROUNDINGS[rounding](Fraction(total, count))
            combined[value] = combined.get(value, Fraction(0)) + p
        return tuple(sorted(combined.items()))
    below = Fraction(0)
    out = []
    for value, p in single:
        at_most = below + p
        out.append((value, at_most ** count - below ** count))
        below = at_most
    return tuple((v, p) for v, p in out if p)
