"""Luck, one named scenario per rule, played through real actions with forced rolls.

The rules (2014, "Luck"): "A luck point can be used to reroll any die at any point. Use either result
according to your preference. If you are using 4D6, reroll all four dice." and "a player gains a luck
point per derp coming back in good health from a mission in which they went to a new step, and a luck
point per stranded competing derp that they rescue." docs/rules-decisions.md adds that skills already
spent still apply to whichever roll is kept, and that a roll that worked is not rerolled.

Parts rate 10/15 on a d20 unless a test says otherwise: 1-9 is OK, 10-14 a Fail, 15-20 a Boom.
"""
from __future__ import annotations

import dataclasses
import itertools
from fractions import Fraction

import pytest

from game.games.whatgoesup.rules.actions import Assemble, EndRnD, Roll
from game.games.whatgoesup.rules.engine import CHANCE, Engine, IllegalAction
from game.games.whatgoesup.rules.flight_actions import (AcceptRoll, Burn, Coast, EndActivities, Hold, KeepRoll,
                                                        Launch, Move, UseLuck, UseSkill)
from game.games.whatgoesup.rules.planning import help_plan_for, next_roll_odds
from game.games.whatgoesup.rules.reliability import Outcome, Rating, judge
from game.games.whatgoesup.rules.scenario import give_derp, give_stock, give_thing
from game.games.whatgoesup.rules.state import HOME, PlayerSetup, Setup, UpgoerDesign
from game.games.whatgoesup.rules.tables import load_rules
from game.games.whatgoesup.sim import INVARIANTS, luck_follows_the_rules

RULES = load_rules()
ENGINE = Engine(RULES)
FLIGHT = ENGINE.flight_rules

GOOD = "10/15"
OK, FAIL, BOOM = 1, 12, 18


# ====================================================================== helpers
def new_game(dice: str = "d20"):
    return ENGINE.new_game(Setup((PlayerSetup("Hop", "rabitians"),), dice=dice, turn_limit=None))


def craft(state, name="Hopper", *, crew=((0, 0, 2),), luck=0, orbital=False, habitat=False,
          launch_rating=GOOD):
    """Assemble a researched craft for program 0 (with ``luck`` given to the program); returns (state, upgoer id, derps).

    Suborbital (a launch stage and a capsule: launch, reentry, landing, home) unless ``orbital``, which adds
    an insertion stage and a thruster. Crew members are (piloting, engineering, stamina[, stamina left]).
    """
    state, _, (launch,) = give_thing(state, RULES, 0, "lower_stage", 200, launch_rating, count=1,
                                     name=f"{name} launch stage")
    stages = ((launch,),)
    modules = []
    state, _, (capsule,) = give_thing(state, RULES, 0, "capsule", 14, GOOD, count=1, reusable=True,
                                      name=f"{name} capsule")
    modules.append(capsule)
    if orbital:
        state, _, (insertion,) = give_thing(state, RULES, 0, "lower_stage", 80, GOOD, count=1,
                                            name=f"{name} insertion stage")
        stages += ((insertion,),)
        state, _, (thruster,) = give_thing(state, RULES, 0, "thruster", 9, GOOD, count=1, name=f"{name} thruster")
        modules.append(thruster)
    if habitat:
        state, _, (hab,) = give_thing(state, RULES, 0, "habitat", 5, GOOD, count=1, name=f"{name} habitat")
        modules.append(hab)
    derps = []
    for n, (piloting, engineering, stamina, *left) in enumerate(crew):
        state, d = give_derp(state, 0, f"{name} {n}", piloting, engineering, stamina,
                             current_stamina=left[0] if left else None)
        derps.append(d)
    fuel = 20 if orbital else 0
    state = give_stock(state, 0, fuel=fuel, rations=10, luck=luck)
    design = UpgoerDesign(name, stages=stages, modules=tuple(modules), crew=tuple(derps), fuel=fuel, rations=4)
    assert ENGINE.check_design(state, 0, design).valid
    state = ENGINE.apply(state, Assemble(design))
    return state, state.upgoers[-1].id, derps


def act(state, action):
    return ENGINE.apply(state, action)


def luck(state) -> int:
    return state.programs[0].luck


def pending(state):
    return state.flight.roll if state.phase == "flight" and state.flight is not None else None


def roll(state, value, kind=None):
    assert ENGINE.current_player(state) == CHANCE, "no die is waiting"
    if kind is not None:
        assert pending(state).kind == kind, f"expected a {kind} roll, not {pending(state).kind}"
    return act(state, Roll(value))


def settle(state, value, kind=None):
    """Roll ``value`` and accept whatever it is if the owner is asked."""
    state = roll(state, value, kind)
    if pending(state) is not None and pending(state).value is not None:
        state = act(state, AcceptRoll())
    return state


def launched(state, upgoer):
    """End R&D and launch ``upgoer``: its launch die is waiting."""
    while state.phase == "rnd":
        state = act(state, EndRnD())
    for _ in range(10):
        if pending(state) is None and state.flight.active == upgoer:
            break
        state = act(state, Hold(state.flight.active))  # other craft stay on the pad
    state = act(state, Launch(upgoer))
    assert pending(state).kind == "launch"
    return state


def fly_home(state, upgoer, value=OK):
    """Play on, every die ``value`` and accepted, until ``upgoer`` has landed or is lost; orbital craft
    deorbit at the first junction."""
    for _ in range(200):
        u = state.find("upgoer", upgoer)
        if u is None or u.status in ("landed", "destroyed"):
            return state
        if ENGINE.current_player(state) == CHANCE:
            state = settle(state, value)
            continue
        if state.phase == "rnd":
            state = act(state, EndRnD())
            continue
        f = state.flight
        if f.active == upgoer and f.mode == "junction":
            state = act(state, Burn("reentry"))
        elif f.active == upgoer and f.mode == "before":
            state = act(state, Move(upgoer))
        elif f.active is not None and f.mode == "after":
            state = act(state, EndActivities(f.active))
        else:
            state = act(state, Coast())
    raise AssertionError("the craft never came home")


# ====================================================================== a reroll only of a roll that did not work
def test_a_roll_that_works_is_kept_and_no_luck_is_spent():
    s, u, _ = craft(new_game(), luck=2)
    s = launched(s, u)
    s = roll(s, OK, "launch")
    assert pending(s).kind == "reentry" and s.upgoer(u).location == "reentry"  # on its way at once
    assert luck(s) == 2
    assert not any(e.text.endswith("spends a luck point to reroll.") for e in s.events)


def test_the_engine_refuses_to_reroll_a_roll_that_worked():
    """An OK roll settles at once; asked mid-action (as its legality checks see the roll), the engine
    still refuses a reroll of it, and offers none."""
    s, u, _ = craft(new_game(), luck=2)
    s = launched(s, u)
    rolled_ok = FLIGHT.apply(s, Roll(OK), drive=False)
    assert pending(rolled_ok).value == OK and pending(rolled_ok).outcome() is Outcome.OK
    assert ENGINE.refusal(rolled_ok, UseLuck()) == "the roll already worked"
    assert UseLuck() not in ENGINE.legal_actions(rolled_ok)


@pytest.mark.parametrize("value, label", [(FAIL, "Fail"), (BOOM, "Boom")])
def test_a_fail_or_a_boom_may_be_rerolled_for_one_luck_point(value, label):
    s, u, _ = craft(new_game(), luck=2)
    s = roll(launched(s, u), value, "launch")
    assert pending(s).outcome().label == label
    assert UseLuck() in ENGINE.legal_actions(s)
    s = act(s, UseLuck())
    assert luck(s) == 1
    assert ENGINE.current_player(s) == CHANCE and pending(s).previous == value and pending(s).value is None


def test_a_roll_saved_by_a_skill_settles_and_cannot_be_rerolled():
    s, u, (ace,) = craft(new_game(), crew=((2, 2, 2),), luck=2)
    s = roll(launched(s, u), 10, "launch")  # a Fail; Piloting 2 lifts the Fail safety to 12
    s = act(s, UseSkill(ace, "piloting"))
    assert pending(s).kind == "reentry" and luck(s) == 2  # settled as OK at once


def test_keeping_a_rerolled_roll_that_works_ends_the_rerolling():
    s, u, _ = craft(new_game(), luck=2)
    s = act(roll(launched(s, u), FAIL, "launch"), UseLuck())
    s = roll(s, OK)
    assert set(ENGINE.legal_actions(s)) == {KeepRoll(True), KeepRoll(False)}  # keep one first: no reroll on top
    assert ENGINE.refusal(s, UseLuck()) == "first keep the old or the new roll"
    s = act(s, KeepRoll(True))
    assert pending(s).kind == "reentry" and luck(s) == 1


def test_either_result_may_be_kept_and_decides_what_happens():
    s, u, _ = craft(new_game(), luck=1)
    s = act(roll(launched(s, u), FAIL, "launch"), UseLuck())
    s = roll(s, BOOM)
    kept_old = act(s, KeepRoll(False))  # the Fail; no luck or help left, so it settles at once
    assert any(e.text == f"Keeping the old roll: {FAIL} (Fail)." for e in kept_old.events)
    assert kept_old.upgoer(u).status == "pad"  # a launch Fail: the craft stays on the pad
    kept_new = act(s, KeepRoll(True))  # the Boom: the craft is lost
    assert kept_new.find("upgoer", u) is None or kept_new.upgoer(u).status == "destroyed"


def test_skills_spent_before_a_reroll_still_apply_to_the_roll_kept():
    s, u, (ace,) = craft(new_game(), crew=((0, 2, 2),), luck=1)
    s = roll(launched(s, u), 15, "launch")  # Boom; Engineering 2 moves it to 13, a Fail
    s = act(s, UseSkill(ace, "engineering"))
    assert pending(s).outcome() is Outcome.FAIL and pending(s).judged_value() == 13
    s = roll(act(s, UseLuck()), 16)
    assert pending(s).judged_value() == 14 and pending(s).effective() == Rating(10, 15)
    s = act(s, KeepRoll(True))  # 16 is a Boom against 10/15, but moved 2 it counts as 14: a Fail
    assert any(e.text == "Keeping the new roll: 16, moved to 14 by the help already spent (Fail)."
               for e in s.events)
    assert s.upgoer(u).status == "pad"


def test_with_4d6_a_reroll_rolls_all_four_dice_again():
    s, u, _ = craft(new_game(dice="4d6-4"), luck=1)
    s = launched(s, u)
    whole_roll = ENGINE.chance_outcomes(s)
    s = act(roll(s, 18, "launch"), UseLuck())
    assert ENGINE.chance_outcomes(s) == whole_roll  # the same 4D6-4 bell again, not one die


# ====================================================================== no reroll without luck left
def test_without_luck_or_help_a_bad_roll_settles_at_once():
    s, u, _ = craft(new_game(), luck=0)
    s = roll(launched(s, u), FAIL, "launch")
    assert pending(s) is None  # nobody was asked: nothing could change it
    assert s.upgoer(u).status == "pad" and luck(s) == 0


def test_no_reroll_without_a_luck_point():
    s, u, _ = craft(new_game(), crew=((1, 0, 2),), luck=0)  # Piloting 1 keeps the owner's choice open
    s = roll(launched(s, u), FAIL, "launch")
    assert pending(s).value == FAIL
    assert UseLuck() not in ENGINE.legal_actions(s)
    assert ENGINE.refusal(s, UseLuck()) == "no luck points left"
    with pytest.raises(IllegalAction, match="no luck points left"):
        act(s, UseLuck())


def test_each_reroll_spends_a_point_until_none_is_left():
    s, u, _ = craft(new_game(), crew=((1, 0, 2),), luck=2)
    s = roll(launched(s, u), FAIL, "launch")
    for left in (1, 0):
        s = act(s, UseLuck())
        assert luck(s) == left
        s = act(roll(s, BOOM), KeepRoll(False))  # a worse roll: keep the Fail
    assert pending(s).value == FAIL and UseLuck() not in ENGINE.legal_actions(s)
    assert ENGINE.refusal(s, UseLuck()) == "no luck points left"
    assert luck(s) == 0


# ====================================================================== earning luck
def test_each_healthy_derp_home_from_a_new_step_earns_a_luck_point():
    s, u, _ = craft(new_game(), crew=((0, 0, 2), (0, 0, 2)))
    s = fly_home(launched(s, u), u)
    assert s.upgoer(u).status == "landed"
    assert luck(s) == 2 * RULES.economy.luck.per_healthy_derp_back_from_new_step
    assert any("gains 2 luck" in e.text for e in s.events)


def test_an_injured_crew_earns_no_luck():
    s, u, crew = craft(new_game(), crew=((0, 0, 2), (0, 0, 2)))
    s = settle(launched(s, u), OK, "launch")
    s = settle(s, FAIL, "reentry")  # a reentry Fail injures everyone aboard
    s = fly_home(s, u)
    assert s.upgoer(u).status == "landed" and all(s.derp(d).injured and s.derp(d).location == HOME for d in crew)
    assert luck(s) == 0


def test_only_the_healthy_derps_of_a_crew_earn_luck():
    """Ace, tired, saves the capsule roll with his last stamina point; the habitat then goes Boom and
    everyone loses a point: Ace, at 0, is injured. Both come home from new steps: only Bo earns luck."""
    s, u, (ace, bo) = craft(new_game(), crew=((2, 2, 2, 1), (2, 2, 2)), orbital=True, habitat=True)
    s = settle(launched(s, u), OK, "launch")
    s = settle(s, OK, "orbital_insertion")
    s = act(roll(s, 10, "duration_capsule"), UseSkill(ace, "piloting"))
    s = settle(s, BOOM, "duration_habitat")
    assert s.derp(ace).injured and not s.derp(bo).injured
    s = fly_home(s, u)
    assert s.upgoer(u).status == "landed" and s.derp(ace).location == s.derp(bo).location == HOME
    assert luck(s) == 1


def test_a_mission_over_known_steps_earns_no_luck():
    s, first, _ = craft(new_game(), name="First")
    s, second, _ = craft(s, name="Second")
    s = fly_home(launched(s, first), first)  # Launch, Reentry and Landing are new: one luck point
    assert luck(s) == 1
    s = fly_home(launched(s, second), second)  # the same steps again
    assert s.upgoer(second).status == "landed" and luck(s) == 1


def test_a_crew_lost_on_the_way_home_earns_no_luck():
    s, u, crew = craft(new_game())
    s = settle(settle(launched(s, u), OK, "launch"), OK, "reentry")
    s = settle(s, BOOM, "landing")
    assert s.derp(crew[0]).dead and luck(s) == 0


# ====================================================================== the odds shown before a roll
def best_of(distribution, rating: Rating, rolls: int) -> dict[Outcome, Fraction]:
    """Every sequence of ``rolls`` dice, keeping the best: counted one by one, not by formula."""
    odds = {o: Fraction(0) for o in Outcome}
    rank = [Outcome.OK, Outcome.FAIL, Outcome.BOOM]
    for combo in itertools.product(distribution, repeat=rolls):
        p = Fraction(1)
        for _, q in combo:
            p *= q
        odds[min((judge(v, rating) for v, _ in combo), key=rank.index)] += p
    return odds


@pytest.mark.parametrize("luck_points", [0, 1, 2])
def test_the_odds_count_every_reroll_luck_allows(luck_points):
    s, u, _ = craft(new_game(), luck=luck_points)
    s = launched(s, u)
    shown = next_roll_odds(ENGINE, s, help_plan_for(ENGINE, s, luck=luck(s)))
    expected = best_of(FLIGHT.distribution(s, pending(s)), Rating(10, 15), 1 + luck_points)
    assert shown == expected
    if luck_points == 2:
        assert shown[Outcome.OK] == 1 - Fraction(11, 20) ** 3 and shown[Outcome.BOOM] == Fraction(6, 20) ** 3


RANK = [Outcome.OK, Outcome.FAIL, Outcome.BOOM]


def _launch_outcome(state, upgoer) -> Outcome:
    """What the settled launch roll did to the craft: lost, on the pad, or on its way."""
    u = state.find("upgoer", upgoer)
    if u is None or u.status == "destroyed":
        return Outcome.BOOM
    return Outcome.FAIL if u.status == "pad" else Outcome.OK


def _launch_pending(state) -> bool:
    return pending(state) is not None and pending(state).kind == "launch"


def _finish_with_help(state, upgoer, memo=None):
    """Try every spend of skill the engine allows on the launch roll as it stands, in every order, then
    accept: returns the best outcome a player can reach (searched through the engine, not the card's maths)."""
    memo = {} if memo is None else memo
    if not _launch_pending(state):
        return _launch_outcome(state, upgoer)
    r = pending(state)
    key = (r.value, r.moved, r.fail_raise, r.boom_raise, tuple(d.current_stamina for d in state.derps))
    if key not in memo:
        spends = [a for a in ENGINE.legal_actions(state) if isinstance(a, UseSkill)]
        results = [_finish_with_help(act(state, AcceptRoll()), upgoer, memo)]
        results += [_finish_with_help(act(state, a), upgoer, memo) for a in spends]
        memo[key] = min(results, key=RANK.index)
    return memo[key]


def play_every_die(state, upgoer) -> dict[Outcome, Fraction]:
    """The exact outcome of the waiting launch die when its owner plays well: reroll (luck) while the roll,
    with every skill the crew could add, is not OK; keep the better of the two; then spend the skills
    on the kept roll. Every die value is played through the engine."""
    memo: dict = {}

    def after_die(s) -> dict[Outcome, Fraction]:
        odds = {o: Fraction(0) for o in Outcome}
        for die, p in ENGINE.chance_outcomes(s):
            for outcome, q in decide(act(s, die)).items():
                odds[outcome] += p * q
        return odds

    def decide(s) -> dict[Outcome, Fraction]:
        if not _launch_pending(s):
            return {_launch_outcome(s, upgoer): Fraction(1)}
        r = pending(s)
        key = (r.value, r.previous, luck(s))
        if key not in memo:
            if r.previous is not None:
                kept = min((act(s, KeepRoll(new)) for new in (True, False)),
                           key=lambda k: RANK.index(_finish_with_help(k, upgoer)))
                memo[key] = decide(kept)
            elif _finish_with_help(s, upgoer) is not Outcome.OK and ENGINE.refusal(s, UseLuck()) is None:
                memo[key] = after_die(act(s, UseLuck()))
            else:
                memo[key] = {_finish_with_help(s, upgoer): Fraction(1)}
        return memo[key]

    return after_die(state)


@pytest.mark.parametrize("dice", ["d20", "2d10"])
@pytest.mark.parametrize("luck_points", [0, 1, 2])
def test_the_odds_shown_before_a_roll_are_what_happens_with_luck(dice, luck_points):
    """The roll card's odds with all the luck the program has, against every die played through the engine."""
    s, u, _ = craft(new_game(dice=dice), luck=luck_points)
    s = launched(s, u)
    shown = next_roll_odds(ENGINE, s, help_plan_for(ENGINE, s, luck=luck(s)))
    assert shown == play_every_die(s, u)
    if luck_points:
        assert shown != next_roll_odds(ENGINE, s)  # luck changed the odds


@pytest.mark.parametrize("skills", ["move_roll", "raise_safeties"])
@pytest.mark.parametrize("luck_points", [0, 1, 2])
@pytest.mark.parametrize("crew", [
    ((2, 0, 3),),  # a pilot only: each stamina point can only be spent one way
    ((2, 2, 3),),  # an engineer-pilot: each stamina point counts once, on Engineering or on Piloting
    ((1, 3, 2), (3, 1, 2)),  # two derps whose skills add up
], ids=["pilot", "engineer-pilot", "two derps"])
def test_the_odds_shown_before_a_roll_are_what_happens_with_skills_and_luck(crew, luck_points, skills, monkeypatch):
    """The roll card's odds with every bit of help (planning.help_plan_for) against every die and every
    spend the engine allows, played through it. (help_plan_for once counted each stamina point twice,
    once as Engineering and once as Piloting: 75% OK shown for the engineer-pilot, 65% real.)"""
    monkeypatch.setitem(globals(), "ENGINE", Engine(dataclasses.replace(
        RULES, flight=dataclasses.replace(RULES.flight, skills=skills))))
    s, u, _ = craft(new_game(), crew=crew, luck=luck_points)
    s = launched(s, u)
    shown = next_roll_odds(ENGINE, s, help_plan_for(ENGINE, s, luck=luck(s)))
    assert shown == play_every_die(s, u)


# ====================================================================== the invariant checked in random play
def test_the_random_play_invariant_accepts_luck_played_by_the_rules():
    s, u, _ = craft(new_game(), crew=((0, 0, 2), (0, 0, 2)), luck=1)
    s = roll(launched(s, u), FAIL, "launch")
    rerolled = act(s, UseLuck())
    assert luck_follows_the_rules(ENGINE, s, UseLuck(), rerolled) is None
    kept = act(roll(rerolled, OK), KeepRoll(True))
    home = settle(settle(kept, OK, "reentry"), OK, "landing")
    assert luck(home) == 2 and luck_follows_the_rules(ENGINE, kept, Roll(OK), home) is None
    assert luck_follows_the_rules in INVARIANTS


def test_the_random_play_invariant_notices_luck_broken():
    """Each broken step is a real state with the luck changed by hand, as a faulty engine would leave it."""
    s, u, _ = craft(new_game(), crew=((0, 0, 2), (0, 0, 2)), luck=1)
    s = launched(s, u)
    failed = roll(s, FAIL, "launch")
    rerolled = act(failed, UseLuck())

    def with_luck(state, points):
        return dataclasses.replace(state, programs=(dataclasses.replace(state.programs[0], luck=points),))

    free_reroll = with_luck(rerolled, 1)
    assert "luck went from 1 to 1" in luck_follows_the_rules(ENGINE, failed, UseLuck(), free_reroll)
    worked = FLIGHT.apply(s, Roll(OK), drive=False)
    assert "not a rolled Fail or Boom" in luck_follows_the_rules(ENGINE, worked, UseLuck(), with_luck(worked, 0))
    assert "has -1 luck" in luck_follows_the_rules(ENGINE, with_luck(failed, 0), UseLuck(), with_luck(rerolled, -1))
    # Both derps come home hurt (a reentry Fail): a point for them is luck the rules never give.
    hurt = settle(settle(s, OK, "launch"), FAIL, "reentry")
    home = settle(hurt, OK, "landing")
    assert luck(home) == 1
    assert "where the rules give at most 0" in luck_follows_the_rules(ENGINE, hurt, Roll(OK), with_luck(home, 2))
