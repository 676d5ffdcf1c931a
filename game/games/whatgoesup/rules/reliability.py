"""The Reliability Formula: ratings, outcomes and the exact odds of a roll.

A rating is written Fail/Boom, e.g. 5/10: a roll at or above the Boom safety goes Boom,
otherwise a roll at or above the Fail safety Fails, anything lower works.
"""
from __future__ import annotations

import enum
from dataclasses import dataclass
from fractions import Fraction

from game.games.whatgoesup.rules.dice import Distribution
from game.core.schema import FromText


class Outcome(str, enum.Enum):
    OK = "ok"
    FAIL = "fail"
    BOOM = "boom"

    @property
    def label(self) -> str:
        return {"ok": "OK", "fail": "Fail", "boom": "Boom"}[self.value]


@dataclass(frozen=True, order=True)
class Rating(FromText):
    """A Fail/Boom safety pair. Invariant: fail < boom."""

    fail: int
    boom: int
    example = "'5/10' (Fail safety / Boom safety)"

    def __post_init__(self) -> None:
        if self.fail >= self.boom:
            raise ValueError(f"the Fail safety must be below the Boom safety ({self.fail}/{self.boom})")

    @classmethod
    def parse(cls, text: str) -> "Rating":
        parts = str(text).split("/")
        try:
            fail, boom = (int(p.strip()) for p in parts)
        except ValueError:
            raise ValueError(f"'{text}' is not a rating; write it like 5/10 (Fail safety / Boom safety)") from None
        return cls(fail, boom)

    def __str__(self) -> str:
        return f"{self.fail}/{self.boom}"

    def score(self) -> int:
        """Sum of safeties: the timing rules' measure of how likely a part is to work."""
        return self.fail + self.boom


@dataclass(frozen=True)
class Bounds:
    """The hard limits on a rating: worst (1/2) and best (19/20)."""

    worst: Rating
    best: Rating

    def clamp(self, fail: int, boom: int) -> Rating:
        boom = max(self.worst.boom, min(self.best.boom, boom))
        fail = max(self.worst.fail, min(self.best.fail, fail, boom - 1))
        return Rating(fail, boom)


def penalised(rating: Rating, fail_penalty: int, boom_penalty: int, bounds: Bounds) -> Rating:
    """A rating lowered by penalties (booms, damage, unfamiliar waters), kept within the bounds."""
    return bounds.clamp(rating.fail - fail_penalty, rating.boom - boom_penalty)


def with_raises(rating: Rating, fail_raise: int, boom_raise: int) -> Rating:
    """A rating temporarily raised by derp skills for one roll.

    Raises may pass the best bound (that is how a skilled crew saves a roll on a perfect part),
    but the Fail safety always stays below the Boom safety.
    """
    boom = rating.boom + boom_raise
    return Rating(min(rating.fail + fail_raise, boom - 1), boom)


def judge(value: int, rating: Rating) -> Outcome:
    """The outcome of one rolled value against a rating."""
    if value >= rating.boom:
        return Outcome.BOOM
    if value >= rating.fail:
        return Outcome.FAIL
    return Outcome.OK


def outcome_odds(distribution: Distribution, rating: Rating) -> dict[Outcome, Fraction]:
    """Exact probability of OK, Fail and Boom for one roll of ``distribution`` against ``rating``."""
    odds = {Outcome.OK: Fraction(0), Outcome.FAIL: Fraction(0), Outcome.BOOM: Fraction(0)}
    for value, p in distribution:
        odds[judge(value, rating)] += p
    return odds
