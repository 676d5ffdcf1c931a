"""When a step counts as reached: its dot for a new step and its prestige first (prestige.yaml:
``steps_need_survival``, off by default; docs/rules-decisions.md, "Session 22: rules leftovers (rulesfix2)").

By default a craft reaches a step by entering it, whatever happens to it there (2014: "If they have visited
mission steps they never visited before, they get one dot per new step"; "Prestige First - Any mission step").
With the house rule a craft destroyed at the step reaches nothing (2013, lower-stage Boom: "If the reentry and/or
landing work OK, they count as successful steps for all purposes"). Each scenario flies real craft with forced
rolls; the craft are rated 10/15 on a d20, so a 1 works and an 18 goes Boom.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from game.games.whatgoesup.rules.actions import Assemble, EndRnD, Roll
from game.games.whatgoesup.rules.engine import CHANCE, Engine
from game.games.whatgoesup.rules.flight_actions import AcceptRoll, Launch
from game.games.whatgoesup.rules.scenario import give_derp, give_stock, give_thing
from game.games.whatgoesup.rules.state import PlayerSetup, Setup, UpgoerDesign
from game.games.whatgoesup.rules.tables import load_rules
from tests.test_rules_tables import edit, rules_dir  # noqa: F401 (the fixture)

OK, BOOM = 1, 18  # against 10/15 on a d20
SHIPPED = Engine(load_rules())


@pytest.fixture
def survival(rules_dir: Path) -> Engine:  # noqa: F811
    """The shipped rules with the house rule written into prestige.yaml."""
    edit(rules_dir, "prestige.yaml", "underped_share: 1/2",
         "steps_need_survival: true\nunderped_share: 1/2")
    engine = Engine(load_rules(rules_dir))
    assert engine.rules.prestige.steps_need_survival
    return engine


def new_game(engine: Engine, players: int = 1):
    people = (PlayerSetup("Hop", "rabitians"), PlayerSetup("Spud", "merbs"))[:players]
    return engine.new_game(Setup(people, dice="d20", turn_limit=None))


def assemble(engine: Engine, s, program: int, name: str, *, capsule: bool, crew: int = 0, stages: int = 1):
    """A craft of ``stages`` lower stages, and a capsule, a thruster and ``crew`` derps (``capsule``) or nothing
    more."""
    stage_ids = []
    for index in range(stages):
        s, _, ids = give_thing(s, engine.rules, program, "lower_stage", 200 if index == 0 else 80, "10/15",
                               count=1, name=f"{name} stage {index + 1}")
        stage_ids.append(tuple(ids))
    modules = ()
    if capsule:
        s, _, (pod,) = give_thing(s, engine.rules, program, "capsule", 14, "10/15", count=1, name=f"{name} capsule")
        s, _, (thruster,) = give_thing(s, engine.rules, program, "thruster", 9, "10/15", count=1,
                                       name=f"{name} thruster")
        modules = (pod, thruster)
    derps = []
    for n in range(crew):
        s, d = give_derp(s, program, f"{name} pilot {n}", 2, 2, 2)
        derps.append(d)
    s = give_stock(s, program, fuel=20, rations=4 * crew)
    design = UpgoerDesign(name, stages=tuple(stage_ids), modules=modules, crew=tuple(derps), fuel=20,
                          rations=2 * crew)
    report = engine.check_design(s, program, design)
    assert report.valid, report.problems
    s = engine.apply(s, Assemble(design))
    return s, s.upgoers[-1].id


def fly(engine: Engine, s, upgoer: str, rolls: dict[str, int]):
    """Launch ``upgoer`` and answer each die by its kind (``rolls``, else OK), accepting what it brings, until the
    craft has landed or is gone and nothing waits for it."""
    s = engine.apply(s, Launch(upgoer))
    for _ in range(40):
        if s.upgoer(upgoer).status in ("landed", "destroyed") and engine.current_player(s) != CHANCE:
            return s
        if engine.current_player(s) == CHANCE:
            s = engine.apply(s, Roll(rolls.get(s.flight.roll.kind, OK)))
            r = s.flight.roll if s.phase == "flight" else None
            if r is not None and r.value is not None:
                s = engine.apply(s, AcceptRoll())
            continue
        raise AssertionError(f"the flight waits for a choice: {engine.legal_actions(s)}")
    raise AssertionError("the flight never came down")


def start_flights(engine: Engine, s):
    while s.phase == "rnd":
        s = engine.apply(s, EndRnD())
    return s


def reentry_first(s):
    return dict(s.firsts).get("first_mission_step:Reentry")


def test_by_default_a_craft_that_burns_up_at_reentry_with_no_capsule_still_reaches_it():
    """A crewless suborbital test of a launch stage alone ("Suborbital launches to test a lower stage can be done
    without crew") has nothing to bring through reentry (no capsule, nothing reusable) and burns up there. As the
    shipped rules read "visited", it entered Reentry: the new step's dot and the first are its program's."""
    s = new_game(SHIPPED)
    s, test = assemble(SHIPPED, s, 0, "Test", capsule=False)
    s = fly(SHIPPED, start_flights(SHIPPED, s), test, {})
    assert s.upgoer(test).status == "destroyed"
    assert "Test burns up." in [e.text for e in s.events]
    assert "Reentry" in s.programs[0].visited and reentry_first(s) == 0


def test_with_the_house_rule_a_craft_that_burns_up_reaches_nothing_and_the_first_waits(survival):
    """With ``steps_need_survival`` the burnt-up test reaches nothing: no dot for Reentry and no first. Next turn a
    rival's crewed suborbital hop with a capsule comes through Reentry and takes the first, and its program the
    step's dot."""
    s = new_game(survival, players=2)
    s, test = assemble(survival, s, 0, "Test", capsule=False)
    s = fly(survival, start_flights(survival, s), test, {})
    assert s.upgoer(test).status == "destroyed"
    assert "Launch" in s.programs[0].visited and "Reentry" not in s.programs[0].visited
    assert reentry_first(s) is None
    while s.phase != "rnd" or survival.current_player(s) != 1:
        s = survival.apply(s, EndRnD() if s.phase == "rnd" else Roll(OK))
    s, hop = assemble(survival, s, 1, "Hop", capsule=True, crew=1)
    s = fly(survival, start_flights(survival, s), hop, {})
    assert s.upgoer(hop).status == "landed"
    assert reentry_first(s) == 1 and "Reentry" in s.programs[1].visited


def test_with_the_house_rule_a_capsule_that_booms_at_reentry_still_comes_through(survival):
    """A reentry Boom kills the crew ("Any crew carried are dead") but the capsule comes through and lands: the
    craft survived the step, so Reentry and Landing count, with the house rule too."""
    s = new_game(survival)
    s, hop = assemble(survival, s, 0, "Hop", capsule=True, crew=1)
    s = fly(survival, start_flights(survival, s), hop, {"reentry": BOOM})
    assert s.upgoer(hop).status == "landed" and all(d.dead for d in s.derps)
    assert {"Reentry", "Landing"} <= s.programs[0].visited and reentry_first(s) == 0
