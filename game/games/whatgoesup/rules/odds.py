"""Exact odds for mission planning: one roll with the help a player intends to use."""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Optional

from game.games.whatgoesup.rules.dice import Distribution
from game.games.whatgoesup.rules.reliability import Outcome, Rating, odds_table
from game.games.whatgoesup.rules.skills import MOVE_ROLL, Helper, best_help


@dataclass(frozen=True)
class HelpPlan:
    """Help a player is willing to spend on one roll after the dice land, used only where it changes the outcome.

    ``crew`` are the derps who may spend stamina (each point on Engineering or Piloting, never both),
    ``rcs_boosts`` the RCS uses (each worth ``rcs_bonus`` Piloting), ``luck`` the rerolls, and ``skills`` the
    reading of the rules the spends follow (``flight.yaml: skills``).
    """

    crew: tuple[Helper, ...] = ()
    rcs_boosts: int = 0
    rcs_bonus: int = 0
    luck: int = 0
    skills: str = MOVE_ROLL


def outcome_with_help(value: int, rating: Rating, plan: HelpPlan, memo: Optional[dict] = None) -> Outcome:
    """The best outcome reachable for a rolled ``value`` by spending the plan's help (``skills.best_help``)."""
    return best_help(plan.skills, value, rating, plan.crew, plan.rcs_boosts, plan.rcs_bonus, memo=memo)[0]


def odds_with_help(distribution: Distribution, rating: Rating, plan: HelpPlan = HelpPlan()) -> dict[Outcome, Fraction]:
    """Exact chance of ending OK, Fail or Boom, rerolling with luck while the result is not OK.

    A reroll keeps the better of the results, and skills are spent on the kept one, so with
    ``k`` rolls in all: P(OK) = 1 - (1 - p_ok)^k and P(Boom) = p_boom^k.
    """
    single = _single_roll_odds(distribution, rating, plan)
    rolls = 1 + max(0, plan.luck)
    ok = 1 - (1 - single[Outcome.OK]) ** rolls
    boom = single[Outcome.BOOM] ** rolls
    return {Outcome.OK: ok, Outcome.FAIL: 1 - ok - boom, Outcome.BOOM: boom}


def _single_roll_odds(distribution: Distribution, rating: Rating, plan: HelpPlan) -> dict[Outcome, Fraction]:
    """One roll's odds with the plan's help (no luck), worked out once per distribution, rating and plan."""
    table = odds_table(distribution)
    key = ("with help", rating, plan.crew, plan.rcs_boosts, plan.rcs_bonus, plan.skills)
    single = table.memo.get(key)
    if single is None:
        single = {Outcome.OK: Fraction(0), Outcome.FAIL: Fraction(0), Outcome.BOOM: Fraction(0)}
        searched: dict = {}  # one search shared by every value of the roll
        for value, p in distribution:
            single[outcome_with_help(value, rating, plan, searched)] += p
        table.memo[key] = single
    return single


def percent(p: Fraction) -> str:
    """A probability for players: '45%', '2.5%', '<0.1%'."""
    value = float(p) * 100
    if 0 < value < 0.1:
        return "<0.1%"
    if value >= 99.95 and p != 1:
        return ">99.9%"
    return f"{value:.1f}%".replace(".0%", "%")
