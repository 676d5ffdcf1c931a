"""Exact odds for mission planning: one roll with the help a player intends to use."""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from game.games.whatgoesup.rules.dice import Distribution
from game.games.whatgoesup.rules.reliability import Outcome, Rating, judge, odds_table, with_raises


@dataclass(frozen=True)
class HelpPlan:
    """Help a player is willing to spend on one roll, used only where it changes the outcome.

    ``boom_raises`` and ``fail_raises`` list single spends in the order they would be made
    (a derp's Engineering or Piloting per stamina point; an RCS boost for Fail); ``luck`` rerolls.
    """

    boom_raises: tuple[int, ...] = ()
    fail_raises: tuple[int, ...] = ()
    luck: int = 0


def outcome_with_help(value: int, rating: Rating, plan: HelpPlan) -> Outcome:
    """The best outcome reachable for a rolled ``value`` by spending the plan's help in order.

    Engineering raises the Boom safety (while the roll is a Boom, or while the Fail safety is pinned one
    below the Boom safety); Piloting raises the Fail safety while the roll is a Fail.
    """
    boom_left, fail_left = list(plan.boom_raises), list(plan.fail_raises)
    fail_raise = boom_raise = 0
    while True:
        effective = with_raises(rating, fail_raise, boom_raise)
        outcome = judge(value, effective)
        if outcome is Outcome.OK:
            return outcome
        pinned = effective.fail >= effective.boom - 1
        if outcome is Outcome.BOOM or (pinned and fail_left):
            if not boom_left:
                return outcome
            boom_raise += boom_left.pop(0)
        elif fail_left:
            fail_raise += fail_left.pop(0)
        else:
            return outcome


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
    key = ("with help", rating, plan.boom_raises, plan.fail_raises)
    single = table.memo.get(key)
    if single is None:
        single = {Outcome.OK: Fraction(0), Outcome.FAIL: Fraction(0), Outcome.BOOM: Fraction(0)}
        for value, p in distribution:
            single[outcome_with_help(value, rating, plan)] += p
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
