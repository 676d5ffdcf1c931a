"""Derp skills spent on a rolled value: what one stamina point of Engineering or Piloting does.

Two readings of the Spacederps section, picked by ``flight.yaml: skills``:

``move_roll`` (the default) - "a derp can spend a point of Stamina to move a Boom roll towards Fail by
how many Engineering points the derp has" and "to move a Failed roll towards OK by how many Piloting points".
The rolled value itself moves down: Engineering while it is a Boom (never past the Fail safety: the last
step to OK is Piloting's), Piloting (and an RCS boost) while it is a Fail.

``raise_safeties`` - the older reading of "The Engineering skill increases the boom safety, the Piloting
skill increases the fail safety": the part's safeties rise for this roll, the Fail safety kept one below
the Boom safety, so Engineering may also make room above a pinned Fail.

``best_help`` is the one search for the best a crew can make of a roll; the engine's refusals
(``refusal``) and changes (``spend``) are the very steps it explores, so the odds the roll card shows and
the spends the engine allows cannot disagree.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from game.games.whatgoesup.rules.reliability import Outcome, Rating, judge, with_raises

MOVE_ROLL = "move_roll"
RAISE_SAFETIES = "raise_safeties"
READINGS = (MOVE_ROLL, RAISE_SAFETIES)

ENGINEERING = "engineering"
PILOTING = "piloting"
RANK = {Outcome.OK: 0, Outcome.FAIL: 1, Outcome.BOOM: 2}


@dataclass(frozen=True)
class Help:
    """What has been spent on one rolled value so far."""

    moved: int = 0  # points the roll was moved towards OK (move_roll)
    fail_raise: int = 0  # raise_safeties
    boom_raise: int = 0


def effective_rating(rating: Rating, help: Help) -> Rating:
    """The rating the roll is judged against (raised safeties; unchanged when the roll is moved)."""
    if not help.fail_raise and not help.boom_raise:
        return rating  # with_raises(rating, 0, 0) is the rating itself (a Rating's Fail is below its Boom)
    return with_raises(rating, help.fail_raise, help.boom_raise)


def judged_value(value: int, help: Help) -> int:
    """The value the roll is judged as, once moved by skills."""
    return value - help.moved


def judged(value: int, rating: Rating, help: Help) -> Outcome:
    return judged_by(value, rating, help.moved, help.fail_raise, help.boom_raise)


def judged_by(value: int, rating: Rating, moved: int, fail_raise: int, boom_raise: int) -> Outcome:
    """``judged`` for help given by its three figures (a pending roll's own fields: no Help is made)."""
    if fail_raise or boom_raise:
        rating = with_raises(rating, fail_raise, boom_raise)  # effective_rating
    return judge(value - moved, rating)  # judged_value


def pinned(rating: Rating, help: Help) -> bool:
    """raise_safeties: the Fail safety cannot rise further until the Boom safety does."""
    effective = effective_rating(rating, help)
    return effective.fail >= effective.boom - 1


def refusal(reading: str, value: int, rating: Rating, help: Help, skill: str) -> Optional[str]:
    """Why ``skill`` (Engineering, or Piloting - an RCS boost works as Piloting) cannot help this roll now."""
    return _refusal(reading, judged(value, rating, help), rating, help, skill)


def _refusal(reading: str, outcome: Outcome, rating: Rating, help: Help, skill: str) -> Optional[str]:
    """``refusal`` for a roll already judged ``outcome`` (best_help judges each step of its search once)."""
    if skill == ENGINEERING:
        if outcome is Outcome.BOOM:
            return None
        if reading == RAISE_SAFETIES and outcome is Outcome.FAIL and pinned(rating, help):
            return None
        if reading == MOVE_ROLL:
            return "Engineering moves a Boom towards Fail; this roll is not a Boom"
        return ("Engineering turns a Boom into a Fail (or makes room above a Fail that Piloting cannot lift any "
                "further); this roll is not a Boom")
    if outcome is Outcome.FAIL:
        return None
    if outcome is Outcome.BOOM:
        return ("Piloting moves a Fail towards OK; move the Boom with Engineering first" if reading == MOVE_ROLL
                else "Piloting turns a Fail into OK; save the Boom with Engineering first")
    return "this roll worked"


def spend(reading: str, value: int, rating: Rating, help: Help, skill: str, amount: int) -> Help:
    """The help after one spend of ``amount`` points of ``skill`` (check ``refusal`` first)."""
    # Help is built field by field (not dataclasses.replace): best_help's search spends often.
    if reading == MOVE_ROLL:
        if skill == ENGINEERING:
            # Towards Fail: at most as far as the Fail safety, the lowest roll that still Fails.
            amount = max(0, min(amount, judged_value(value, help) - rating.fail))
        return Help(help.moved + amount, help.fail_raise, help.boom_raise)
    if skill == ENGINEERING:
        return Help(help.moved, help.fail_raise, help.boom_raise + amount)
    return Help(help.moved, help.fail_raise + amount, help.boom_raise)


@dataclass(frozen=True)
class Helper:
    """One derp who may help a roll: their skills and the stamina points they have for it."""

    engineering: int
    piloting: int  # with the Positioning System bonus
    stamina: int


@dataclass(frozen=True)
class Spend:
    """One use of help: ``helper`` (an index into the crew, or None for an RCS boost) and the skill."""

    helper: Optional[int]
    skill: str


def _step(helper: Optional[int], skill: str) -> Spend:
    """``Spend(helper, skill)``, made once (a value: the search offers the same few spends at every step)."""
    step = _STEPS.get((helper, skill))
    if step is None:
        step = _STEPS[(helper, skill)] = Spend(helper, skill)
    return step


#: (helper, skill) -> its Spend (``_step``)
_STEPS: dict[tuple[Optional[int], str], Spend] = {}


def best_help(reading: str, value: int, rating: Rating, crew: tuple[Helper, ...], rcs_boosts: int = 0,
              rcs_bonus: int = 0, help: Help = Help(), memo: Optional[dict] = None) -> tuple[Outcome, tuple[Spend, ...]]:
    """The best outcome the crew can make of a rolled ``value``, and the fewest spends that reach it.

    Each derp's stamina point goes to Engineering or to Piloting, never both; RCS boosts act as Piloting
    and cost no stamina. ``memo`` may be shared between calls with the same reading, rating and crew.
    """
    memo = {} if memo is None else memo

    def search(help: Help, stamina: tuple[int, ...], rcs: int) -> tuple[int, int, tuple[Spend, ...]]:
        # In move_roll only the moved value matters, so rolls of different values share their answers.
        key = ((judged_value(value, help),) if reading == MOVE_ROLL else (value, help)) + (stamina, rcs)
        known = memo.get(key)
        if known is not None:
            return known
        outcome = judged(value, rating, help)
        best = (RANK[outcome], 0, ())
        if best[0] > 0:
            # Whether a skill may help depends on the roll and the help so far, not on who spends it.
            engineering = _refusal(reading, outcome, rating, help, ENGINEERING) is None
            piloting = _refusal(reading, outcome, rating, help, PILOTING) is None
            options: list[tuple[Spend, int, tuple[int, ...], int]] = []
            for index, (helper, left) in enumerate(zip(crew, stamina)):
                if left < 1:
                    continue
                fewer = stamina[:index] + (left - 1,) + stamina[index + 1:]
                if engineering and helper.engineering > 0:
                    options.append((_step(index, ENGINEERING), helper.engineering, fewer, rcs))
                if piloting and helper.piloting > 0:
                    options.append((_step(index, PILOTING), helper.piloting, fewer, rcs))
            if rcs > 0 and rcs_bonus > 0 and piloting:
                options.append((_step(None, PILOTING), rcs_bonus, stamina, rcs - 1))
            for step, amount, stamina_left, rcs_left in options:
                rank, cost, rest = search(spend(reading, value, rating, help, step.skill, amount), stamina_left,
                                          rcs_left)
                if (rank, cost + 1) < best[:2]:
                    best = (rank, cost + 1, (step,) + rest)
        memo[key] = best
        return best

    rank, _, spends = search(help, tuple(h.stamina for h in crew), rcs_boosts)
    del search  # it names itself: without this, every call leaves a cycle only the garbage collector frees
    return next(o for o, r in RANK.items() if r == rank), spends
