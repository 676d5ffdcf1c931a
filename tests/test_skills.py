"""Skills move the roll (issue 13, defect 1), one named scenario each, played with forced rolls.

The 2014 rules, Spacederps: "For any roll, a derp can spend a point of Stamina to move a Boom roll towards
Fail by how many Engineering points the derp has. This can be done as often as needed, including multiple
times on the same roll." and the same for "a Failed roll towards OK by how many Piloting points"; "Multiderp
crews can work together in unison". That is the default (``flight.yaml: skills: move_roll``); the older
reading, raising the part's safeties, stays an option (``raise_safeties``, played in test_flight_rules).

A's parts rate 15/18 on a d20 (1-14 OK, 15-17 Fail, 18-20 Boom); every crew member is (Piloting,
Engineering, Stamina). The duration roll waits for its owner's choice because the program has luck left.
"""
from __future__ import annotations

import dataclasses
from fractions import Fraction
from pathlib import Path
import shutil

import pytest

from game.games.whatgoesup.rules.engine import Engine
from game.games.whatgoesup.rules.flight_actions import AcceptRoll, UseRcsBoost, UseSkill
from game.games.whatgoesup.rules.planning import help_plan_for, next_roll_odds
from game.games.whatgoesup.rules.reliability import Outcome, Rating
from game.games.whatgoesup.rules.tables import DEFAULT_RULES_DIR, check_rules
from tests.test_flight_rules import E, R, act, auto, derp, illegal, item, pair_in_orbit, roll, rolling


def capsule_roll(crew, value, mods=("capsule", "thruster", "rcs")):
    """A (with ``crew`` and the modules ``mods``) in Low Orbit: the next turn's capsule check rolls ``value``."""
    s, (crew_a, ids_a), _ = pair_in_orbit(a=dict(crew=crew, mods=mods))
    s = auto(s, rolling("duration_capsule", "A"))
    assert s.flight.roll.rating == Rating(15, 18)
    return roll(s, value), crew_a, ids_a


def last_roll_event(s) -> str:
    return [e.text for e in s.events if e.kind == "roll"][-1]


def test_the_shipped_rules_move_the_roll():
    assert R.flight.skills == "move_roll"


def test_engineering_moves_a_boom_to_a_fail():
    s, (engineer,), _ = capsule_roll(((0, 3, 3),), 19)
    assert s.flight.roll.outcome() is Outcome.BOOM
    s = act(s, UseSkill(engineer, "engineering"))
    assert s.flight.roll.value == 19 and s.flight.roll.judged_value() == 16
    assert s.flight.roll.outcome() is Outcome.FAIL and s.flight.roll.effective() == Rating(15, 18)
    assert derp(s, engineer).current_stamina == 2
    assert last_roll_event(s) == ("A0 spends a stamina point of Engineering: the roll moves from 19 to 16, "
                                  "Fail against 15/18.")
    illegal(s, UseSkill(engineer, "engineering"), "not a Boom")
    illegal(s, UseSkill(engineer, "piloting"), "no Piloting")
    s = act(s, AcceptRoll())
    assert s.flight.choice is not None and s.flight.choice.kind == "capsule_fail"  # a Fail's cost, not a Boom's
    assert not s.upgoer(s.flight.choice.upgoer).stranded


def test_piloting_moves_a_fail_to_ok_for_one_stamina_point():
    """A 17 on 15/18 with Piloting 3: moved to 14, OK, for one point (raising the Fail safety instead would
    stop one below the Boom safety, at 17, and the roll would stay a Fail)."""
    s, (pilot,), _ = capsule_roll(((3, 0, 3),), 17)
    s = act(s, UseSkill(pilot, "piloting"))
    assert derp(s, pilot).current_stamina == 2
    assert s.flight.roll is None and s.flight.choice is None  # settled as OK
    assert any(e.text == "A0 spends a stamina point of Piloting: the roll moves from 17 to 14, OK against 15/18."
               for e in s.events)


def test_engineering_moves_a_boom_no_further_than_the_fail_safety():
    """"Towards Fail": a big Engineering brings an 18 down to 15, the lowest Fail, not into OK; the last step
    is Piloting's ("a lone genius spacederp can use both Engineering and Piloting skills sequentially")."""
    s, (genius,), _ = capsule_roll(((1, 6, 2),), 18)
    s = act(s, UseSkill(genius, "engineering"))
    assert s.flight.roll.judged_value() == 15 and s.flight.roll.outcome() is Outcome.FAIL
    s = act(s, UseSkill(genius, "piloting"))  # 15 -> 14
    assert s.flight.roll is None and s.flight.choice is None and derp(s, genius).current_stamina == 0


def test_two_derps_skills_add_up_on_one_roll():
    """A 20: the engineer moves it twice (20 -> 18, still a Boom, -> 16), then the pilot once (16 -> 14)."""
    s, (pilot, engineer), _ = capsule_roll(((2, 0, 3), (0, 2, 3)), 20)
    illegal(s, UseSkill(pilot, "piloting"), "Engineering first")
    s = act(s, UseSkill(engineer, "engineering"))
    assert s.flight.roll.judged_value() == 18 and s.flight.roll.outcome() is Outcome.BOOM
    s = act(s, UseSkill(engineer, "engineering"))
    assert s.flight.roll.judged_value() == 16 and s.flight.roll.outcome() is Outcome.FAIL
    s = act(s, UseSkill(pilot, "piloting"))
    assert s.flight.roll is None and s.flight.choice is None  # OK
    assert derp(s, engineer).current_stamina == 1 and derp(s, pilot).current_stamina == 2


def test_an_rcs_boost_moves_a_fail_like_piloting():
    s, _, ids = capsule_roll(((0, 0, 2),), 17)
    rcs = ids["rcs"][0]
    s = act(s, UseRcsBoost(rcs))  # 17 -> 14
    assert item(s, rcs).uses_left == 1 and s.flight.roll is None and s.flight.choice is None
    assert any(e.text == "An RCS puff adds 3 Piloting: the roll moves from 17 to 14, OK against 15/18."
               for e in s.events)


def test_not_enough_stamina_leaves_the_roll_a_fail():
    """Piloting 1, one stamina point left and no RCS: the 17 moves to 16 and the derp is spent; the crew's
    best is still a Fail, so no spend saves it (a player may still move it, as here)."""
    s, (pilot,), _ = capsule_roll(((1, 0, 2, 1),), 17, mods=("capsule", "thruster"))
    assert E.flight_rules.best_help(s, s.flight.roll) == (Outcome.FAIL, ())
    assert UseSkill(pilot, "piloting") in E.legal_actions(s)
    s = act(s, UseSkill(pilot, "piloting"))
    assert s.flight.roll.judged_value() == 16 and s.flight.roll.outcome() is Outcome.FAIL
    assert derp(s, pilot).current_stamina == 0
    illegal(s, UseSkill(pilot, "piloting"), "stamina left")
    assert not any(isinstance(a, UseSkill) for a in E.legal_actions(s))
    s = act(s, AcceptRoll())
    assert s.flight.choice is not None and s.flight.choice.kind == "capsule_fail"


def test_the_crews_best_help_is_the_fewest_spends_that_save_the_roll():
    s, (pilot, engineer), _ = capsule_roll(((3, 0, 3), (0, 5, 3)), 20)
    outcome, spends = E.flight_rules.best_help(s, s.flight.roll)
    assert outcome is Outcome.OK
    assert spends == (UseSkill(engineer, "engineering"), UseSkill(pilot, "piloting"))  # 20 -> 15 -> 12


# ====================================================================== the odds shown are the odds played
def _best_through_the_engine(s, memo) -> Outcome:
    """Every spend of stamina or RCS the engine allows on the capsule roll, in every order, then accept."""
    r = s.flight.roll if s.phase == "flight" and s.flight is not None else None
    if r is None or r.kind != "duration_capsule" or r.value is None:
        choice = s.flight.choice if s.phase == "flight" and s.flight is not None else None
        if choice is not None:
            return Outcome.FAIL
        a = next(u for u in s.upgoers if u.name == "A")
        return Outcome.BOOM if a.stranded else Outcome.OK
    key = (r.moved, r.fail_raise, r.boom_raise, tuple(d.current_stamina for d in s.derps),
           tuple(i.uses_left for i in s.items))
    if key not in memo:
        spends = [a for a in E.legal_actions(s) if isinstance(a, (UseSkill, UseRcsBoost))]
        results = [_best_through_the_engine(E.apply(s, a), memo) for a in [AcceptRoll()] + spends]
        memo[key] = min(results, key=[Outcome.OK, Outcome.FAIL, Outcome.BOOM].index)
    return memo[key]


@pytest.mark.parametrize("skills", ["move_roll", "raise_safeties"])
def test_the_odds_shown_before_the_roll_are_the_odds_the_crew_can_play(skills, monkeypatch):
    """The roll card's 'with every bit of help' odds (no luck) for a pilot and an engineer with an RCS aboard,
    against every die of the capsule check played through the engine with every spend it allows."""
    import tests.test_flight_rules as flight
    engine = Engine(dataclasses.replace(R, flight=dataclasses.replace(R.flight, skills=skills)))
    monkeypatch.setattr(flight, "E", engine)
    monkeypatch.setitem(globals(), "E", engine)
    s, _, _ = pair_in_orbit(a=dict(crew=((2, 0, 2), (0, 2, 2))))
    s = auto(s, rolling("duration_capsule", "A"))
    shown = next_roll_odds(engine, s, help_plan_for(engine, s))
    played = {o: Fraction(0) for o in Outcome}
    for die, p in engine.chance_outcomes(s):
        played[_best_through_the_engine(engine.apply(s, die), {})] += p
    assert shown == played
    as_rolled = next_roll_odds(engine, s)
    assert shown[Outcome.OK] > as_rolled[Outcome.OK] and shown[Outcome.BOOM] < as_rolled[Outcome.BOOM]


def test_moving_the_roll_saves_more_rolls_than_raising_safeties():
    """The same crew on the same part: moving the roll makes the card's odds better, because Engineering's
    moves carry on towards OK and Piloting is never stopped one below the Boom safety."""
    s, _, _ = pair_in_orbit(a=dict(crew=((2, 2, 2),)))
    s = auto(s, rolling("duration_capsule", "A"))
    raise_engine = Engine(dataclasses.replace(R, flight=dataclasses.replace(R.flight, skills="raise_safeties")))
    moved = next_roll_odds(E, s, help_plan_for(E, s, rcs_boosts=0))
    raised = next_roll_odds(raise_engine, s, help_plan_for(raise_engine, s, rcs_boosts=0))
    # 1-14 OK as rolled; 15, 16 and 17 moved by Piloting; 18 by Engineering then Piloting; 19 and 20 only to a Fail
    assert moved == {Outcome.OK: Fraction(18, 20), Outcome.FAIL: Fraction(2, 20), Outcome.BOOM: Fraction(0)}
    assert raised[Outcome.OK] < moved[Outcome.OK]


# ====================================================================== the option in YAML
def test_the_skills_reading_is_checked_with_its_file_and_line(tmp_path: Path):
    folder = tmp_path / "rules"
    shutil.copytree(DEFAULT_RULES_DIR, folder)
    path = folder / "flight.yaml"
    text = path.read_text(encoding="utf-8")
    assert text.count("skills: move_roll") == 1
    path.write_text(text.replace("skills: move_roll", "skills: sideways"), encoding="utf-8")
    line = next(n for n, t in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if "skills: sideways" in t)
    rules, problems = check_rules(folder)
    assert rules is None and len(problems) == 1
    assert problems[0].startswith(f"rules/flight.yaml:{line}: ") and "move_roll, raise_safeties" in problems[0]
    path.write_text(text.replace("skills: move_roll", "skills: raise_safeties"), encoding="utf-8")
    rules, problems = check_rules(folder)
    assert problems == [] and rules.flight.skills == "raise_safeties"
