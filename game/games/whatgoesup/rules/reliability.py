"""The Reliability Formula: ratings, outcomes and the exact odds of a roll.

A rating is written Fail/Boom, e.g. 5/10: a roll at or above the Boom safety goes Boom,
otherwise a roll at or above the Fail safety Fails, anything lower works.
"""
from __future__ import annotations

import bisect
import enum
import math
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
    """Exact probability of OK, Fail and Boom for one roll of ``distribution`` against ``rating``.

    Worked out once per distribution and rating and kept (route plans and the roll card ask again and
    again); the numbers are the sums of the rolls' probabilities, exactly.
    """
    ok, fail, boom = odds_table(distribution).odds(rating)
    return {Outcome.OK: ok, Outcome.FAIL: fail, Outcome.BOOM: boom}


def outcome_counts(distribution: Distribution, rating: Rating) -> tuple[int, int, int, int]:
    """The same odds as ``outcome_odds`` as whole counts over one common denominator:
    ``(ok, fail, boom, denominator)``, so that P(OK) == Fraction(ok, denominator) exactly.

    Long chains of rolls (route plans) multiply and add these integers and divide once at the end.
    """
    return odds_table(distribution).counts(rating)


class _OddsTable:
    """One distribution's running totals, and the odds already worked out from them per rating."""

    def __init__(self, distribution: Distribution) -> None:
        self.distribution = distribution  # kept, so that its id stays its own while it is cached
        self.values = sorted({value for value, _ in distribution})
        by_value: dict[int, Fraction] = {}
        for value, p in distribution:
            by_value[value] = by_value.get(value, Fraction(0)) + p
        running = Fraction(0)
        self.below: list[Fraction] = []  # below[i]: P(roll < values[i])
        for value in self.values:
            self.below.append(running)
            running += by_value[value]
        self.total = running
        self.denominator = math.lcm(*(p.denominator for p in self.below + [running]))
        self.by_rating: dict[Rating, tuple[Fraction, Fraction, Fraction]] = {}
        self.counts_by_rating: dict[Rating, tuple[int, int, int, int]] = {}
        self.memo: dict = {}  # other exact figures of this distribution, kept by whoever works them out

    def chance_below(self, threshold: int) -> Fraction:
        index = bisect.bisect_left(self.values, threshold)
        return self.total if index == len(self.values) else self.below[index]

    def odds(self, rating: Rating) -> tuple[Fraction, Fraction, Fraction]:
        known = self.by_rating.get(rating)
        if known is None:
            ok, not_boom = self.chance_below(rating.fail), self.chance_below(rating.boom)
            known = self.by_rating[rating] = (ok, not_boom - ok, self.total - not_boom)
        return known

    def counts(self, rating: Rating) -> tuple[int, int, int, int]:
        known = self.counts_by_rating.get(rating)
        if known is None:
            whole = self.denominator
            ok, fail, boom = (int(p * whole) for p in self.odds(rating))  # exact: whole is a common multiple
            known = self.counts_by_rating[rating] = (ok, fail, boom, whole)
        return known


_ODDS_TABLES: dict[int, _OddsTable] = {}
_MOST_TABLES = 512  # distributions are few (one per scheme and cluster); this only bounds the unusual


def odds_table(distribution: Distribution) -> _OddsTable:
    """The kept odds of ``distribution`` (looked up by identity: distributions are built once and kept)."""
    table = _ODDS_TABLES.get(id(distribution))
    if table is None or table.distribution is not distribution:
        if len(_ODDS_TABLES) >= _MOST_TABLES:
            _ODDS_TABLES.clear()
        table = _ODDS_TABLES[id(distribution)] = _OddsTable(distribution)
    return table
