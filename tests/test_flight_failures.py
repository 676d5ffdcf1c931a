"""Named scenarios for every line of the 2014 failure list, with forced rolls.

Each test builds a researched kit with the scenario helpers, assembles an Upgoer, ends R&D and
flies it, answering every pending die with a chosen ``Roll``. The parts are rated 10/15 on a d20,
so a 1 works, a 12 Fails and an 18 goes Boom. Rule text quoted in the docstrings is from the 2014
rules ("Flights happen in real time" to "Luck").
"""
from __future__ import annotations

import math
import random
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache

import pytest

from game.games.whatgoesup.rules import formulas
from game.games.whatgoesup.rules.actions import Assemble, Disassemble, EndRnD, Roll
from game.games.whatgoesup.rules.dice import sample
from game.games.whatgoesup.rules.engine import CHANCE, Engine
from game.games.whatgoesup.rules.flight_actions import (AcceptRoll, Burn, ChooseConsequence, Coast, Dock, EndActivities, Eva,
                                       Launch, Move, UsePayload, UseSkill, Wait)
from game.games.whatgoesup.rules.reliability import Rating
from game.games.whatgoesup.rules.scenario import give_derp, give_stock, give_thing
from game.games.whatgoesup.rules.state import HOME, PAD, PlayerSetup, Setup, UpgoerDesign
from game.games.whatgoesup.rules.tables import load_rules

RULES = load_rules()
ENGINE = Engine(RULES)

GOOD = "10/15"
OK, FAIL, BOOM = 1, 12, 18  # against 10/15 on a d20
AFTER_BOOM = Rating(7, 12)  # 10/15 lowered by the boom penalty (3/3)


# ====================================================================== helpers
def new_game(dice: str = "d20", players: int = 1, options=()) -> object:
    people = [("Hop", "rabitians"), ("Spud", "merbs")]
    setup = Setup(tuple(PlayerSetup(n, p) for n, p in people[:players]), dice=dice,
                  options=frozenset(options), turn_limit=None)
    return ENGINE.new_game(setup)


@dataclass
class Kit:
    """Item and derp ids of one assembled Upgoer."""

    upgoer: str = ""
    stages: tuple = ()
    capsule: str = ""
    thrusters: tuple = ()
    extras: dict = field(default_factory=dict)  # kind -> item id
    crew: tuple = ()


def build(state, program: int = 0, name: str = "Upgoer", *, crew=(("Ace", 2, 2, 2),), stages: int = 2,
          cluster: int = 1, thrusters: int = 1, extras=(), fuel: int = 20, rations: int = 10,
          reusable=(), capsule_mass: int = 14, parts=()):
    """Give a program a researched kit (10/15 everywhere) and assemble it. Returns (state, Kit).

    ``reusable`` names the kinds made reusable: "capsule", "launch_stage", "insertion_stage". Each crew
    member is (name, piloting, engineering, stamina) with an optional fifth number, the stamina left.
    ``parts`` are ids of parts the program already has, loaded as modules too (underped systems, say).
    """
    kit = Kit()
    stage_ids = []
    for index in range(stages):
        kind_key = "launch_stage" if index == 0 else "insertion_stage"
        mass = 200 if index == 0 else 80
        state, _, items = give_thing(state, RULES, program, "lower_stage", mass, GOOD, count=cluster,
                                     reusable=kind_key in reusable, name=f"{name} {kind_key}")
        stage_ids.append(tuple(items))
    kit.stages = tuple(stage_ids)
    state, _, caps = give_thing(state, RULES, program, "capsule", capsule_mass, GOOD, count=1,
                                reusable="capsule" in reusable, name=f"{name} capsule")
    kit.capsule = caps[0]
    modules = [kit.capsule]
    if thrusters:
        state, _, ths = give_thing(state, RULES, program, "thruster", 9, GOOD, count=thrusters,
                                   name=f"{name} thruster")
        kit.thrusters = tuple(ths)
        modules += ths
    for kind in extras:
        mass = 5 if kind == "habitat" else 1
        state, _, items = give_thing(state, RULES, program, kind, mass, GOOD, count=1, name=f"{name} {kind}")
        kit.extras[kind] = items[0]
        modules.append(items[0])
    modules += parts
    derps = []
    for derp_name, piloting, engineering, stamina, *left in crew:  # optionally the stamina left
        state, derp = give_derp(state, program, derp_name, piloting, engineering, stamina,
                                current_stamina=left[0] if left else None)
        derps.append(derp)
    kit.crew = tuple(derps)
    state = give_stock(state, program, fuel=fuel, rations=rations)
    design = UpgoerDesign(name, stages=kit.stages, modules=tuple(modules), crew=kit.crew, fuel=fuel,
                          rations=rations)
    report = ENGINE.check_design(state, program, design)
    assert report.valid, report.problems
    assert ENGINE.current_player(state) == program
    state = ENGINE.apply(state, Assemble(design))
    kit.upgoer = state.upgoers[-1].id
    return state, kit


def act(state, action):
    return ENGINE.apply(state, action)


def start_flights(state):
    """End R&D for every program: the flight phase begins."""
    while state.phase == "rnd":
        state = act(state, EndRnD())
    assert state.phase == "flight"
    return state


def pending(state):
    return state.flight.roll if state.phase == "flight" else None


def roll(state, value: int, kind: str = None):
    """Answer the pending die with ``value`` (checking the roll's kind); the owner may then decide."""
    assert ENGINE.current_player(state) == CHANCE, "no die is waiting"
    if kind is not None:
        assert pending(state).kind == kind, f"expected a {kind} roll, got {pending(state).kind}"
    return act(state, Roll(value))


def settle(state, value: int, kind: str = None):
    """Roll ``value`` and accept the result if the owner could still act on it."""
    state = roll(state, value, kind)
    r = pending(state)
    if r is not None and r.value is not None:
        state = act(state, AcceptRoll())
    return state


def settle_all(state, value: int, kind: str):
    """Settle every queued roll of this kind (e.g. each capsule and payload coming down)."""
    assert pending(state) is not None and pending(state).kind == kind
    while pending(state) is not None and pending(state).kind == kind:
        state = settle(state, value, kind)
    return state


def active(state):
    return state.upgoer(state.flight.active)


def end_activities(state):
    return act(state, EndActivities(state.flight.active))


def to_orbit(state, upgoer_id: str):
    """Launch and insert with every roll OK; stops in low orbit with the Upgoer's activities open."""
    state = act(state, Launch(upgoer_id))
    state = settle(state, OK, "launch")
    state = settle(state, OK, "orbital_insertion")
    while ENGINE.current_player(state) == CHANCE:
        state = settle(state, OK)
    assert state.flight.mode == "after" and active(state).location == "low_1"
    return state


def cruise(state, plan=None):
    """Move the active Upgoer for one turn: burn where ``plan`` says (junction -> target), coast
    elsewhere, every roll OK. Stops with its activities after moving open."""
    plan = plan or {}
    state = act(state, Move(state.flight.active))
    while True:
        if ENGINE.current_player(state) == CHANCE:
            state = settle(state, OK)
            continue
        f = state.flight
        if f.mode == "junction":
            here = active(state).location
            state = act(state, Burn(plan[here]) if here in plan else Coast())
            continue
        assert f.mode == "after", f.mode
        return state


def next_turn(state):
    """From the R&D phase of a new turn to the flight phase."""
    assert state.phase == "rnd"
    return start_flights(state)


def item_rating(state, item_id):
    return ENGINE.item_rating(state, state.item(item_id))


def gone(state, item_id):
    return state.find("item", item_id) is None


def dot_changes(state, program: int = 0):
    return [(e.reason, e.dots) for e in state.programs[program].dot_entries]


def turn_report(state, program: int = 0) -> str:
    """The end-of-turn budget line of a program among the last action's events."""
    lines = [e.text for e in state.events if e.kind == "report" and e.program == program]
    assert lines, "the turn has not ended"
    return lines[-1]


def refusal(state, action):
    return ENGINE.refusal(state, action)


# ====================================================================== ANY boom
def test_any_boom_lowers_every_copy_blueprint_stored_and_on_another_flight():
    """"ANY boom ... all instances of that part loses 6 reliability point (3 each). This includes the
    same part currently on another flight!" One lower-stage design: one copy flying (the insertion
    stage of a craft already launched), one in storage, the blueprint; the copy that booms is gone."""
    s = new_game()
    s, stage_thing, st = give_thing(s, RULES, 0, "lower_stage", 100, GOOD, count=3, name="Big Stick")
    s, _, big = give_thing(s, RULES, 0, "lower_stage", 300, GOOD, count=1, name="Booster")
    s, _, caps = give_thing(s, RULES, 0, "capsule", 14, GOOD, count=2)
    s, a = give_derp(s, 0, "Ace", 2, 2, 2)
    s, b = give_derp(s, 0, "Bo", 2, 2, 2)
    s = give_stock(s, 0, rations=4)
    # First: Booster, then a Big Stick for orbital insertion. Second: one Big Stick (suborbital).
    s = act(s, Assemble(UpgoerDesign("First", stages=((big[0],), (st[0],)), modules=(caps[0],), crew=(a,),
                                     rations=2)))
    first = s.upgoers[-1].id
    s = act(s, Assemble(UpgoerDesign("Second", stages=((st[1],),), modules=(caps[1],), crew=(b,), rations=2)))
    second = s.upgoers[-1].id
    s = start_flights(s)
    if s.flight.active == second:  # timing: both rated alike; let First go first
        s = act(s, Wait(second))
    assert s.flight.active == first
    s = act(s, Launch(first))
    s = settle(s, OK, "launch")
    assert s.flight.active == second
    s = act(s, Launch(second))
    s = settle(s, BOOM, "launch")
    flying, other = first, second
    assert s.upgoer(other).status == "destroyed"
    flying_stage = s.upgoer(flying).stages[0][0]
    assert s.item(flying_stage).fixed_rating is not None  # launched: its own rating from now on
    assert s.thing(stage_thing).rating == AFTER_BOOM  # the blueprint
    assert item_rating(s, st[2]) == AFTER_BOOM  # the copy in storage
    assert item_rating(s, flying_stage) == AFTER_BOOM  # the copy on the other flight
    assert item_rating(s, caps[0]) == Rating.parse(GOOD)  # other parts are untouched
    assert s.thing(s.things[1].id).rating == Rating.parse(GOOD)  # the Booster's blueprint


def test_a_fail_lowers_nothing():
    s = new_game()
    s, kit = build(s, stages=1, crew=())
    s = start_flights(s)
    s = act(s, Launch(kit.upgoer))
    s = settle(s, FAIL, "launch")
    assert s.thing(s.things[0].id).rating == Rating.parse(GOOD)


# ====================================================================== lower stage: launch
def test_launch_fail_no_launch_this_turn_everything_but_the_spent_stage_stays_on_the_pad():
    """"Lower stage fail: You will not go to space today." Launch "Fail: The launch does not happen
    this turn. Every component but the lower stage(s) may be reused.\""""
    s = new_game()
    s, kit = build(s, extras=("waylight",))
    s = start_flights(s)
    s = act(s, Launch(kit.upgoer))
    s = settle(s, FAIL, "launch")
    u = s.upgoer(kit.upgoer)
    assert u.status == "pad" and u.location == PAD
    assert gone(s, kit.stages[0][0])
    assert u.stages == (kit.stages[1],)
    for item in (kit.stages[1][0], kit.capsule, kit.thrusters[0], kit.extras["waylight"]):
        assert s.item(item).location == kit.upgoer
    derp = s.derp(kit.crew[0])
    assert derp.location == kit.upgoer and not derp.injured
    assert (u.fuel, u.rations) == (20, 10)
    assert "Launch" not in s.programs[0].visited
    assert s.phase == "rnd" and s.turn == 2  # the turn is over without a launch
    # Next R&D the remaining parts can be taken apart and reused.
    s = act(s, Disassemble(kit.upgoer))
    for item in (kit.stages[1][0], kit.capsule, kit.thrusters[0], kit.extras["waylight"]):
        assert s.item(item).location == HOME


def test_launch_boom_without_escape_tower_destroys_the_craft_and_kills_the_crew():
    """"Lower stage boom ... Boom: The entire Upgoer is destroyed." Each derp lost costs 5 dots at the
    end of the turn."""
    s = new_game()
    s, kit = build(s, crew=(("Ace", 2, 2, 2), ("Bo", 1, 1, 2)))
    s = start_flights(s)
    s = act(s, Launch(kit.upgoer))
    s = settle(s, BOOM, "launch")
    u = s.upgoer(kit.upgoer)
    assert u.status == "destroyed"
    assert all(gone(s, i) for i in (kit.capsule, kit.thrusters[0], kit.stages[1][0]))
    assert all(s.derp(d).dead for d in kit.crew)
    assert s.phase == "rnd"  # the turn ended: the report shows -5 per derp
    report = turn_report(s)
    assert "Ace lost -5" in report and "Bo lost -5" in report
    assert s.programs[0].dots == 40 - 10


def test_launch_boom_with_escape_tower_that_works_capsule_proceeds_to_landing():
    """"Exception: If the capsule was carrying an escape tower (Probe payload), and it passes a check,
    the capsule may proceed to Landing." No reentry roll: the capsule goes straight to landing."""
    s = new_game()
    s, kit = build(s, extras=("probe",))
    s = start_flights(s)
    s = act(s, Launch(kit.upgoer))
    s = settle(s, BOOM, "launch")
    assert pending(s).kind == "escape_tower"
    s = settle(s, OK, "escape_tower")
    s = settle(s, OK, "landing")
    u = s.upgoer(kit.upgoer)
    assert u.status == "landed" and u.location == "home"
    derp = s.derp(kit.crew[0])
    assert derp.location == HOME and not derp.injured and not derp.dead
    assert "Reentry" not in s.programs[0].visited


def test_launch_boom_with_escape_tower_that_fails_destroys_the_craft():
    s = new_game()
    s, kit = build(s, extras=("probe",))
    s = start_flights(s)
    s = act(s, Launch(kit.upgoer))
    s = settle(s, BOOM, "launch")
    s = settle(s, FAIL, "escape_tower")
    assert s.upgoer(kit.upgoer).status == "destroyed"
    assert s.derp(kit.crew[0]).dead


def test_an_escape_tower_pulls_the_capsule_clear_with_the_payloads_and_rcs_it_carries():
    """"If the capsule was carrying an escape tower (Probe payload), and it passes a check, the capsule may
    proceed to Landing"; a capsule carries "payload, RCS, rations, and crew" (2013, Mass formula), as
    check_design loads them: the Waylight and the RCS in the capsule come clear and home with it, the crew's
    rations too; the tower that fired is spent, and the thruster, the stages and the fuel are lost."""
    s = new_game()
    s, kit = build(s, extras=("probe", "waylight", "rcs"))
    rations = s.upgoer(kit.upgoer).rations
    s = start_flights(s)
    s = act(s, Launch(kit.upgoer))
    s = settle(s, BOOM, "launch")
    s = settle(s, OK, "escape_tower")
    u = s.upgoer(kit.upgoer)
    carried = (kit.extras["waylight"], kit.extras["rcs"])
    assert u.modules == (kit.capsule,) + carried and u.stages == () and u.fuel == 0 and u.rations == rations
    assert gone(s, kit.extras["probe"]) and gone(s, kit.thrusters[0]) and gone(s, kit.stages[1][0])
    assert ("The escape tower pulls the capsule of Upgoer clear, with all it carries; the tower itself is "
            "spent.") in [e.text for e in s.events]
    s = settle(s, OK, "landing")
    assert s.upgoer(kit.upgoer).status == "landed"
    assert all(s.item(i).location == HOME for i in carried)  # the capsule, not reusable, is spent


def test_an_escape_tower_pulls_clear_only_what_the_capsule_itself_has_room_for():
    """"A capsule can carry up to its own mass (payload, RCS, rations, and crew)" (2013, Mass formula): a capsule
    and a habitat share their room at launch, so when the rocket blows up only what the capsule itself can carry
    comes clear with it. The capsule masses 4 and carries 3; a habitat masses 5 and carries 4 more. Aboard: Ace
    and Bo (1 each), the tower, a Waylight and an RCS (1 each), 2 derp-turns of rations (1): 6 of 7. The tower
    fires and is spent; the crew come first (2 of 3), then the Waylight, loaded first; the RCS and the rations
    rode in the habitat and are lost with it and the rocket. (Before, all of it came clear, more than the capsule
    can carry, and the habitat's load with it.)"""
    s = new_game()
    s, kit = build(s, crew=(("Ace", 2, 2, 2), ("Bo", 1, 1, 2)), capsule_mass=4, rations=2,
                   extras=("probe", "waylight", "rcs", "habitat"))
    stock = s.programs[0].rations_stock
    s = start_flights(s)
    s = act(s, Launch(kit.upgoer))
    s = settle(s, BOOM, "launch")
    s = settle(s, OK, "escape_tower")
    u = s.upgoer(kit.upgoer)
    assert u.modules == (kit.capsule, kit.extras["waylight"]) and u.rations == 0 and u.fuel == 0
    assert all(gone(s, kit.extras[k]) for k in ("probe", "rcs", "habitat"))
    assert all(s.derp(d).location == kit.upgoer and not s.derp(d).dead for d in kit.crew)
    assert ("The escape tower pulls the capsule of Upgoer clear, with what it has room for; the tower itself is "
            "spent. The capsule has no room for Upgoer rcs and 2 derp-turns of rations: lost with the rocket."
            ) in [e.text for e in s.events]
    s = settle(s, OK, "landing")
    assert s.upgoer(kit.upgoer).status == "landed" and s.item(kit.extras["waylight"]).location == HOME
    assert s.programs[0].rations_stock == stock and all(s.derp(d).location == HOME for d in kit.crew)


def test_an_escape_tower_on_orbital_insertion_brings_the_rcs_down_through_reentry():
    """The insertion's Boom with a tower that works: "the capsule may proceed to Reentry", its cargo with it;
    payloads and RCS ride inside the capsule through reentry and landing and are kept at home."""
    s = new_game()
    s, kit = build(s, extras=("probe", "rcs"))
    s = start_flights(s)
    s = act(s, Launch(kit.upgoer))
    s = settle(s, OK, "launch")
    s = settle(s, BOOM, "orbital_insertion")
    s = settle(s, OK, "escape_tower")
    assert s.upgoer(kit.upgoer).modules == (kit.capsule, kit.extras["rcs"]) and gone(s, kit.extras["probe"])
    s = settle(s, OK, "reentry")
    s = settle(s, OK, "landing")
    assert s.upgoer(kit.upgoer).status == "landed" and s.item(kit.extras["rcs"]).location == HOME


# ====================================================================== lower stage: orbital insertion
def test_insertion_fail_capsule_and_reusable_parts_go_to_reentry_the_rest_is_lost():
    """"Orbital Insertion ... Fail: The orbital insertion does not happen. The capsule and any reusable
    components proceed to Reentry; everything else is destroyed.\""""
    s = new_game()
    s, kit = build(s, extras=("waylight",), reusable=("capsule",))
    s = start_flights(s)
    s = act(s, Launch(kit.upgoer))
    s = settle(s, OK, "launch")
    s = settle(s, FAIL, "orbital_insertion")
    assert gone(s, kit.thrusters[0])  # not reusable, not inside the capsule: lost
    assert gone(s, kit.stages[1][0])
    assert s.item(kit.capsule).location == kit.upgoer
    assert s.item(kit.extras["waylight"]).location == kit.upgoer  # payloads ride inside the capsule
    s = settle_all(s, OK, "reentry")
    s = settle_all(s, OK, "landing")
    u = s.upgoer(kit.upgoer)
    assert u.status == "landed"
    assert s.item(kit.capsule).location == HOME  # a reusable capsule that came through is kept
    assert not s.derp(kit.crew[0]).injured
    assert "Low Orbit" not in s.programs[0].visited


def test_insertion_boom_without_escape_tower_destroys_the_craft():
    s = new_game()
    s, kit = build(s)
    s = start_flights(s)
    s = act(s, Launch(kit.upgoer))
    s = settle(s, OK, "launch")
    s = settle(s, BOOM, "orbital_insertion")
    assert s.upgoer(kit.upgoer).status == "destroyed"
    assert s.derp(kit.crew[0]).dead
    assert "Ace lost -5" in turn_report(s)


def test_insertion_boom_with_escape_tower_capsule_proceeds_to_reentry():
    """"Exception: If the capsule was carrying an escape tower (Probe payload) and the escape tower
    works properly, the capsule may proceed to Reentry.\""""
    s = new_game()
    s, kit = build(s, extras=("probe",))
    s = start_flights(s)
    s = act(s, Launch(kit.upgoer))
    s = settle(s, OK, "launch")
    s = settle(s, BOOM, "orbital_insertion")
    s = settle(s, OK, "escape_tower")
    s = settle(s, OK, "reentry")
    s = settle(s, OK, "landing")
    assert s.upgoer(kit.upgoer).status == "landed"
    assert not s.derp(kit.crew[0]).dead and not s.derp(kit.crew[0]).injured


# ====================================================================== thrusters
def _in_orbit(**kw):
    s = new_game()
    s, kit = build(s, **kw)
    s = start_flights(s)
    s = to_orbit(s, kit.upgoer)
    s = end_activities(s)
    s = next_turn(s)
    return s, kit


def test_thruster_fail_burn_does_not_happen_fuel_is_used_and_may_retry_at_once():
    """"Thruster fail: The burn does not happen, but the fuel for that burn is used up." (A failed
    burn may be tried again at once.)"""
    s, kit = _in_orbit()
    s = act(s, Move(kit.upgoer))
    assert s.flight.mode == "junction" and active(s).location == "low_burn_1"
    fuel = active(s).fuel
    s = act(s, Burn("high_transfer"))
    cost = fuel - active(s).fuel
    assert cost > 0
    s = settle(s, FAIL, "burn")
    u = s.upgoer(kit.upgoer)
    assert u.location == "low_burn_1" and u.fuel == fuel - cost
    assert s.flight.mode == "junction"
    assert refusal(s, Burn("high_transfer")) is None  # retry at once
    s = act(s, Burn("high_transfer"))
    s = settle(s, OK, "burn")
    while ENGINE.current_player(s) == CHANCE:
        s = settle(s, OK)
    assert active(s).location == "high_transfer"


def test_thruster_fail_can_also_coast_on():
    s, kit = _in_orbit()
    s = act(s, Move(kit.upgoer))
    s = act(s, Burn("high_transfer"))
    s = settle(s, FAIL, "burn")
    s = act(s, Coast())
    while ENGINE.current_player(s) == CHANCE:
        s = settle(s, OK)
    assert active(s).location == "low_2"


def test_thruster_boom_disables_it_and_damages_the_nearest_capsule_for_this_flight():
    """"Thruster boom: The burn does not happen and the thruster is disabled. ... the nearest capsule
    is also damaged, and loses 2 reliability (1 each) for this flight." With a second thruster the
    burn may be tried again."""
    s, kit = _in_orbit(thrusters=2)
    s = act(s, Move(kit.upgoer))
    s = act(s, Burn("high_transfer"))
    s = settle(s, BOOM, "burn")
    u = s.upgoer(kit.upgoer)
    assert u.location == "low_burn_1"
    booming = [t for t in kit.thrusters if s.item(t).disabled]
    assert len(booming) == 1
    capsule = s.item(kit.capsule)
    assert (capsule.flight_fail_penalty, capsule.flight_boom_penalty) == (1, 1)
    assert item_rating(s, kit.capsule) == Rating(9, 14)
    assert s.thing(s.item(booming[0]).thing_id).rating == AFTER_BOOM
    # The other thruster can retry the burn at once.
    assert refusal(s, Burn("high_transfer")) is None


def test_thruster_boom_with_no_other_thruster_no_more_burns():
    s, kit = _in_orbit()
    s = act(s, Move(kit.upgoer))
    s = act(s, Burn("high_transfer"))
    s = settle(s, BOOM, "burn")
    assert s.item(kit.thrusters[0]).disabled
    assert "no working thruster" in refusal(s, Burn("high_transfer"))
    s = act(s, Coast())
    while ENGINE.current_player(s) == CHANCE:
        s = settle(s, OK)
    assert active(s).location == "low_2"


# ====================================================================== RCS
def _at_deorbit_junction(**kw):
    """A craft with an RCS in low orbit, moved round to the first deorbit junction (turn 4)."""
    s, kit = _in_orbit(extras=("rcs",), **kw)
    s = cruise(s)  # low_1 -> low_2
    s = end_activities(s)
    s = next_turn(s)
    s = cruise(s)  # low_2 -> low_3
    s = end_activities(s)
    s = next_turn(s)
    s = act(s, Move(kit.upgoer))
    assert s.flight.mode == "junction" and active(s).location == "low_burn_3"
    return s, kit


def test_rcs_deorbit_works():
    """"It can be used to deorbit": a deorbit that works uses one of the RCS's two uses."""
    s, kit = _at_deorbit_junction()
    assert s.item(kit.extras["rcs"]).uses_left == 2
    s = act(s, Burn("reentry", rcs=True))
    s = settle(s, OK, "rcs_burn")
    assert s.item(kit.extras["rcs"]).uses_left == 1
    s = settle_all(s, OK, "reentry")
    s = settle_all(s, OK, "landing")
    assert s.upgoer(kit.upgoer).status == "landed"


def test_rcs_fail_deorbit_does_not_happen_and_the_fuel_for_it_is_used():
    """"RCS fail: The burn or docking does not happen but the relevant amount of fuel is used up.\""""
    s, kit = _at_deorbit_junction()
    s = act(s, Burn("reentry", rcs=True))
    s = settle(s, FAIL, "rcs_burn")
    u = s.upgoer(kit.upgoer)
    assert u.location == "low_burn_3" and u.status == "flying"
    assert s.item(kit.extras["rcs"]).uses_left == 1
    assert not s.item(kit.extras["rcs"]).disabled


def test_rcs_boom_deorbit_does_not_happen_and_all_its_fuel_is_used():
    """"RCS boom: The burn does not happen but ALL the fuel for that cluster is used up.\""""
    s, kit = _at_deorbit_junction()
    s = act(s, Burn("reentry", rcs=True))
    s = settle(s, BOOM, "rcs_burn")
    u = s.upgoer(kit.upgoer)
    assert u.location == "low_burn_3" and u.status == "flying"
    rcs = s.item(kit.extras["rcs"])
    assert rcs.uses_left == 0
    assert s.thing(rcs.thing_id).rating == AFTER_BOOM
    assert refusal(s, Burn("reentry", rcs=True)) is not None


def _two_in_low_orbit():
    """Two crewed craft of one program launched together; the second has its activities open at low_1."""
    s = new_game()
    s, a = build(s, name="Alpha", crew=(("Ace", 2, 2, 2),), extras=("rcs", "eva_pack"))
    s, b = build(s, name="Beta", crew=(("Bo", 2, 2, 2),), extras=("rcs", "eva_pack"))
    s = start_flights(s)
    first = s.flight.active
    s = act(s, Launch(first))
    s = settle(s, OK, "launch")
    second = s.flight.active
    s = act(s, Launch(second))
    s = settle(s, OK, "launch")
    kits = {a.upgoer: a, b.upgoer: b}
    for expected in (first, second):
        assert s.flight.active == expected
        s = settle(s, OK, "orbital_insertion")
        while ENGINE.current_player(s) == CHANCE:
            s = settle(s, OK)
        if expected == first:
            s = end_activities(s)
    return s, kits[second], kits[first]


def test_docking_fail_uses_half_the_rcs():
    """Docking "Fail means docking failed, and half of the maneuvering fuel for that cluster has been used.\""""
    s, me, other = _two_in_low_orbit()
    s = act(s, Dock(other.upgoer, me.crew[0]))
    s = settle(s, FAIL, "docking")
    assert other.upgoer not in s.upgoer(me.upgoer).docked_with
    assert s.item(me.extras["rcs"]).uses_left == 1
    # Stubborn docking: another attempt is allowed while there is fuel and stamina.
    assert refusal(s, Dock(other.upgoer, me.crew[0])) is None


def test_docking_boom_damages_the_cluster_and_uses_all_its_fuel():
    """"Boom means docking failed, the cluster has been damaged, and all its maneuvering fuel has been used.\""""
    s, me, other = _two_in_low_orbit()
    s = act(s, Dock(other.upgoer, me.crew[0]))
    s = settle(s, BOOM, "docking")
    rcs = s.item(me.extras["rcs"])
    assert other.upgoer not in s.upgoer(me.upgoer).docked_with
    assert rcs.uses_left == 0 and rcs.disabled
    assert s.thing(rcs.thing_id).rating == AFTER_BOOM


# ====================================================================== capsule
@pytest.mark.parametrize("option", ["lose_payload", "lose_rations", "degrade_all_parts"])
def test_capsule_fail_lets_the_owner_choose_the_loss(option):
    """"Capsule fail: Choose whether to lose a payload, a unit of rations per derp, or 2 reliability
    (1 each) for ALL parts the rest of the mission.\""""
    s = new_game()
    s, kit = build(s, crew=(("Ace", 2, 2, 2), ("Bo", 2, 2, 2)), extras=("waylight",))
    s = start_flights(s)
    s = act(s, Launch(kit.upgoer))
    s = settle(s, OK, "launch")
    s = settle(s, OK, "orbital_insertion")
    s = settle(s, FAIL, "duration_capsule")
    assert s.flight.choice is not None
    assert set(s.flight.choice.options) == {"lose_payload", "lose_rations", "degrade_all_parts"}
    assert set(ENGINE.legal_actions(s)) == {ChooseConsequence(o) for o in s.flight.choice.options}
    s = act(s, ChooseConsequence(option))
    u = s.upgoer(kit.upgoer)
    aboard = [i for i in s.items if i.location == kit.upgoer]
    if option == "lose_payload":
        assert gone(s, kit.extras["waylight"]) and kit.extras["waylight"] not in u.modules
        assert u.rations == 10
    elif option == "lose_rations":
        assert u.rations == 10 - 2  # one derp-turn per derp
        assert not gone(s, kit.extras["waylight"])
    else:
        assert u.rations == 10 and not gone(s, kit.extras["waylight"])
        assert aboard and all((i.flight_fail_penalty, i.flight_boom_penalty) == (1, 1) for i in aboard)
        assert item_rating(s, kit.capsule) == Rating(9, 14)
    if option != "degrade_all_parts":
        assert all(i.flight_fail_penalty == 0 for i in aboard)


def test_capsule_boom_strands_the_craft_no_more_burns_and_costs_a_ration_per_derp():
    """"Capsule boom: The Upgoer is stranded and can no longer be controlled (no more burns). Lose a
    unit of rations per derp.\""""
    s = new_game()
    s, kit = build(s, crew=(("Ace", 2, 2, 2), ("Bo", 2, 2, 2)))
    s = start_flights(s)
    s = act(s, Launch(kit.upgoer))
    s = settle(s, OK, "launch")
    s = settle(s, OK, "orbital_insertion")
    s = settle(s, BOOM, "duration_capsule")
    u = s.upgoer(kit.upgoer)
    assert u.stranded and u.rations == 10 - 2
    assert s.thing(s.item(kit.capsule).thing_id).rating == AFTER_BOOM
    s = end_activities(s)
    s = next_turn(s)
    s = act(s, Move(kit.upgoer))
    # No junction is offered: it drifts past the high transfer burn to the next orbit step.
    while ENGINE.current_player(s) == CHANCE:
        s = settle(s, OK)
    assert s.flight.mode == "after" and active(s).location == "low_2"
    assert not any(isinstance(a, Burn) for a in ENGINE.legal_actions(s))


# ====================================================================== payloads
def _payload_in_orbit(kind):
    s = new_game()
    s, kit = build(s, extras=(kind,))
    s = start_flights(s)
    s = to_orbit(s, kit.upgoer)
    return s, kit


def test_payload_fail_cannot_be_used_this_turn():
    """"Other payload fail: The payload cannot be used this turn.\""""
    s, kit = _payload_in_orbit("waylight")
    light = kit.extras["waylight"]
    s = act(s, UsePayload(kit.crew[0], light))
    s = settle(s, FAIL, "payload")
    assert s.item(light).unusable_this_turn and not s.item(light).active
    assert refusal(s, UsePayload(kit.crew[0], light)) is not None
    s = end_activities(s)
    s = next_turn(s)
    assert not s.item(light).unusable_this_turn  # usable again next turn
    assert refusal(s, UsePayload(kit.crew[0], light)) is None


def test_payload_boom_destroys_it():
    """"Other payload boom: The payload is destroyed.\""""
    s, kit = _payload_in_orbit("waylight")
    light = kit.extras["waylight"]
    thing = s.item(light).thing_id
    s = act(s, UsePayload(kit.crew[0], light))
    s = settle(s, BOOM, "payload")
    assert gone(s, light) and light not in s.upgoer(kit.upgoer).modules
    assert s.thing(thing).rating == AFTER_BOOM


def test_eva_pack_fail_the_derp_stays_inside_and_the_pack_rests_this_turn():
    s, me, other = _two_in_low_orbit()
    derp = me.crew[0]
    s = act(s, Eva(derp, other.upgoer))
    s = settle(s, FAIL, "eva")
    assert s.derp(derp).location == me.upgoer and not s.derp(derp).injured
    assert s.item(me.extras["eva_pack"]).unusable_this_turn


def test_eva_pack_boom_destroys_it_and_injures_the_derp():
    """"Other payload boom: The payload is destroyed. If it is an EVA suit, the derp using it is injured.\""""
    s, me, other = _two_in_low_orbit()
    derp = me.crew[0]
    s = act(s, Eva(derp, other.upgoer))
    s = settle(s, BOOM, "eva")
    assert gone(s, me.extras["eva_pack"])
    d = s.derp(derp)
    assert d.injured and not d.dead and d.location == me.upgoer  # hurt, but not lost in space


# ====================================================================== habitat
def _habitat_flight(habitat_value, stamina_left_a=2):
    """Ace spends a stamina point saving the capsule roll with Piloting, then the habitat rolls."""
    s = new_game()
    s, kit = build(s, crew=(("Ace", 2, 2, 2, stamina_left_a), ("Bo", 2, 2, 2)), extras=("habitat",))
    s = start_flights(s)
    s = act(s, Launch(kit.upgoer))
    s = settle(s, OK, "launch")
    s = settle(s, OK, "orbital_insertion")
    s = roll(s, 10, "duration_capsule")  # a Fail that Ace's Piloting 2 turns into OK
    s = act(s, UseSkill(kit.crew[0], "piloting"))
    assert pending(s).kind == "duration_habitat"
    s = settle(s, habitat_value, "duration_habitat")
    return s, kit


def test_habitat_ok_lets_derps_recover_a_stamina_point():
    s, kit = _habitat_flight(OK)
    assert s.derp(kit.crew[0]).current_stamina == 1
    s = end_activities(s)
    assert s.derp(kit.crew[0]).current_stamina == 2


def test_habitat_fail_no_stamina_recovery_this_turn():
    """"Habitat fail: Stamina cannot be recovered by spacederps in the habitat.\""""
    s, kit = _habitat_flight(FAIL)
    assert s.upgoer(kit.upgoer).habitat_failed
    s = end_activities(s)
    assert s.derp(kit.crew[0]).current_stamina == 1


def test_habitat_boom_everyone_loses_a_stamina_and_a_derp_at_zero_is_injured():
    """"Habitat boom: Derps on board LOSE a point of stamina doing major maintenance. Any derps at 0
    stamina are injured." Ace was already at 0 (spent on the capsule roll)."""
    s, kit = _habitat_flight(BOOM, stamina_left_a=1)
    ace, bo = s.derp(kit.crew[0]), s.derp(kit.crew[1])
    assert ace.injured
    assert bo.current_stamina == 1 and not bo.injured


# ====================================================================== reentry and landing
def _suborbital(**kw):
    s = new_game()
    s, kit = build(s, stages=1, thrusters=0, reusable=("capsule",), **kw)
    s = start_flights(s)
    s = act(s, Launch(kit.upgoer))
    s = settle(s, OK, "launch")
    return s, kit


def test_suborbital_flight_without_insertion_stage_launch_reentry_landing_home():
    """A craft with only a launch stage arcs over and comes back: launch, reentry, landing, home."""
    s, kit = _suborbital()
    s = settle(s, OK, "reentry")
    s = settle(s, OK, "landing")
    u = s.upgoer(kit.upgoer)
    assert u.status == "landed" and u.location == "home"
    assert s.item(kit.capsule).location == HOME  # reusable capsule kept
    assert s.derp(kit.crew[0]).location == HOME
    assert {"Launch", "Reentry", "Landing"} <= s.programs[0].visited
    assert "Orbital Insertion" not in s.programs[0].visited
    assert "Low Orbit" not in s.programs[0].visited


def test_reentry_fail_parts_not_reusable_and_crew_injured():
    """"Reentry ... Fail: The parts cannot be reused. Any crew carried are injured.\""""
    s, kit = _suborbital()
    s = settle(s, FAIL, "reentry")
    assert s.item(kit.capsule).reusable_lost
    assert s.derp(kit.crew[0]).injured
    s = settle(s, OK, "landing")
    assert s.upgoer(kit.upgoer).status == "landed"
    assert gone(s, kit.capsule)  # not reused
    d = s.derp(kit.crew[0])
    assert d.location == HOME and d.injured and not d.dead


def test_reentry_boom_crew_dead():
    """"Boom: The parts lose reliability as normal. Any crew carried are dead.\""""
    s, kit = _suborbital()
    thing = s.item(kit.capsule).thing_id
    s = settle(s, BOOM, "reentry")
    assert s.derp(kit.crew[0]).dead
    assert s.thing(thing).rating == AFTER_BOOM
    assert ("Ace lost", -5) in dot_changes(s)


def test_landing_fail_parts_not_reusable_and_crew_injured():
    s, kit = _suborbital()
    s = settle(s, OK, "reentry")
    s = settle(s, FAIL, "landing")
    assert s.upgoer(kit.upgoer).status == "landed"
    assert gone(s, kit.capsule)
    assert s.derp(kit.crew[0]).injured and not s.derp(kit.crew[0]).dead


def test_landing_boom_crew_dead():
    s, kit = _suborbital()
    thing = s.item(kit.capsule).thing_id
    s = settle(s, OK, "reentry")
    s = settle(s, BOOM, "landing")
    assert s.derp(kit.crew[0]).dead
    assert gone(s, kit.capsule)
    assert s.thing(thing).rating == AFTER_BOOM


# ====================================================================== lunar landing
@lru_cache(maxsize=None)
def _in_low_lunar_orbit():
    """A lunar-capable craft flown out to low lunar orbit, every roll OK; turn 9 at the landing burn."""
    s = new_game()
    s, kit = build(s, fuel=40, rations=20)
    s = start_flights(s)
    s = to_orbit(s, kit.upgoer)
    plan = {"low_burn_1": "high_transfer", "sync_burn_1": "lunar_transfer",
            "lunar_orbit_insertion": "low_lunar_1"}
    for _ in range(12):
        s = end_activities(s)
        s = next_turn(s)
        if active(s).location == "low_lunar_1":
            break
        s = cruise(s, plan)
    assert active(s).location == "low_lunar_1"
    s = act(s, Move(kit.upgoer))
    assert s.flight.mode == "junction" and active(s).location == "low_lunar_burn_1"
    return s, kit


def test_lunar_landing_works_then_the_capsule_rolls_on_the_surface():
    s, kit = _in_low_lunar_orbit()
    s = act(s, Burn("lunar_landing"))
    s = settle(s, OK, "lunar_landing")
    assert pending(s).kind == "duration_capsule"
    s = settle(s, OK, "duration_capsule")
    assert active(s).location == "lunar_surface"


def test_lunar_landing_fail_may_be_retried_at_once():
    """"Fail: The landing burn does not happen or is insufficient. It may be reattempted immediately.\""""
    s, kit = _in_low_lunar_orbit()
    fuel = active(s).fuel
    s = act(s, Burn("lunar_landing"))
    s = settle(s, FAIL, "lunar_landing")
    u = s.upgoer(kit.upgoer)
    assert u.location == "low_lunar_burn_1" and u.fuel < fuel and s.flight.mode == "junction"
    s = act(s, Burn("lunar_landing"))
    s = settle(s, OK, "lunar_landing")
    s = settle(s, OK, "duration_capsule")
    assert active(s).location == "lunar_surface"


def test_lunar_landing_fail_may_coast_on():
    s, kit = _in_low_lunar_orbit()
    s = act(s, Burn("lunar_landing"))
    s = settle(s, FAIL, "lunar_landing")
    s = act(s, Coast())
    s = settle(s, OK, "duration_capsule")
    assert active(s).location == "low_lunar_2"


def test_lunar_landing_boom_crashes():
    """"Boom: The landing burn does not happen and cannot be repeated. The Upgoer crashes on the
    surface and is destroyed.\""""
    s, kit = _in_low_lunar_orbit()
    s = act(s, Burn("lunar_landing"))
    s = settle(s, BOOM, "lunar_landing")
    assert s.upgoer(kit.upgoer).status == "destroyed"
    assert s.derp(kit.crew[0]).dead


# ====================================================================== rock docking
# Rock Docking exists only in the stop_the_rock scenario: its Fail and Boom (burn and double-RCS) are
# tested in tests/test_stop_the_rock.py.


# ====================================================================== crews, recovery, fuel
def test_an_uncrewed_craft_may_only_fly_suborbital():
    """"A spacederp is required to launch an Upgoer that covers any steps BUT launch, reentry and
    landing. Suborbital launches to test a lower stage can be done without crew.\""""
    s = new_game()
    s, kit = build(s, crew=(), thrusters=0)
    s = start_flights(s)
    why = refusal(s, Launch(kit.upgoer))
    assert why is not None and "suborbital" in why
    # Without the insertion stage it flies: launch, reentry, landing, home.
    s = new_game()
    s, kit = build(s, crew=(), thrusters=0, stages=1, reusable=("capsule",))
    s = start_flights(s)
    s = act(s, Launch(kit.upgoer))
    s = settle(s, OK, "launch")
    s = settle(s, OK, "reentry")
    s = settle(s, OK, "landing")
    assert s.upgoer(kit.upgoer).status == "landed"


def test_a_reusable_launch_stage_comes_home_after_a_good_recovery_roll():
    """"Launch: The lowest stage rolls, and is either discarded or proceeds to Landing if it's reusable.\""""
    s = new_game()
    s, kit = build(s, reusable=("launch_stage",))
    s = start_flights(s)
    s = act(s, Launch(kit.upgoer))
    s = settle(s, OK, "launch")
    stage = kit.stages[0][0]
    assert pending(s).kind == "stage_recovery"
    s = settle(s, OK, "stage_recovery")
    assert s.item(stage).location == HOME
    assert not s.item(stage).reusable_lost


def test_a_reusable_launch_stage_with_a_bad_recovery_roll_is_lost():
    s = new_game()
    s, kit = build(s, reusable=("launch_stage",))
    s = start_flights(s)
    s = act(s, Launch(kit.upgoer))
    s = settle(s, OK, "launch")
    s = settle(s, FAIL, "stage_recovery")
    assert gone(s, kit.stages[0][0])


def test_a_reusable_insertion_stage_rolls_reentry_and_landing_to_come_home():
    s = new_game()
    s, kit = build(s, reusable=("insertion_stage",))
    s = start_flights(s)
    s = act(s, Launch(kit.upgoer))
    s = settle(s, OK, "launch")
    s = settle(s, OK, "orbital_insertion")
    stage = kit.stages[1][0]
    kinds = []
    while pending(s) is not None and pending(s).kind == "stage_recovery":
        kinds.append(pending(s).step)
        s = settle(s, OK, "stage_recovery")
    assert kinds == ["reentry", "landing"]
    assert s.item(stage).location == HOME


def _fuel_for_one_burn_kit():
    """A craft whose fuel pays for exactly one burn from low orbit."""
    s = new_game()
    for fuel in range(1, 10):
        probe_state, kit = build(s, fuel=fuel)
        u = probe_state.upgoer(kit.upgoer)
        mass = ENGINE.flight_rules.spacecraft_mass(probe_state, u) - Fraction(1, 2)  # a ration eaten in turn 1
        if formulas.fuel_for_burn(mass, RULES.economy.fuel) == fuel:
            return probe_state, kit, fuel
    raise AssertionError("no fuel load pays for exactly one burn")


def test_a_craft_with_fuel_for_exactly_one_burn_makes_it_and_is_then_dry():
    s, kit, fuel = _fuel_for_one_burn_kit()
    s = start_flights(s)
    s = to_orbit(s, kit.upgoer)
    s = end_activities(s)
    s = next_turn(s)
    s = act(s, Move(kit.upgoer))
    s = act(s, Burn("high_transfer"))
    assert active(s).fuel == 0
    s = settle(s, OK, "burn")
    s = settle(s, OK, "duration_capsule")
    assert active(s).location == "high_transfer"


def test_a_craft_with_fuel_for_exactly_one_burn_cannot_retry_a_failed_burn():
    """"It may be reattempted immediately, but beware: the Upgoer may end up stranded ... due to lack
    of fuel!" A failed burn used the only fuel: no retry, only coasting on."""
    s, kit, fuel = _fuel_for_one_burn_kit()
    s = start_flights(s)
    s = to_orbit(s, kit.upgoer)
    s = end_activities(s)
    s = next_turn(s)
    s = act(s, Move(kit.upgoer))
    s = act(s, Burn("high_transfer"))
    s = settle(s, FAIL, "burn")
    assert active(s).fuel == 0
    why = refusal(s, Burn("high_transfer"))
    assert why is not None and "fuel" in why
    assert set(ENGINE.legal_actions(s)) == {Coast()}


# ====================================================================== exact odds
def _exact(dice: int, sides: int, offset: int, cluster: int):
    """Independent brute force: every combination of faces, averaged (rounded up) over the cluster."""
    import itertools
    single: dict[int, Fraction] = {}
    for faces in itertools.product(range(1, sides + 1), repeat=dice):
        v = sum(faces) + offset
        single[v] = single.get(v, Fraction(0)) + Fraction(1, sides ** dice)
    if cluster == 1:
        return single
    out: dict[int, Fraction] = {}
    for values in itertools.product(single.items(), repeat=cluster):
        v = math.ceil(Fraction(sum(x for x, _ in values), cluster))
        p = math.prod(q for _, q in values)
        out[v] = out.get(v, Fraction(0)) + p
    return out


@pytest.mark.parametrize("dice, cluster, faces", [("d20", 1, (1, 20, 0)), ("4d6-4", 1, (4, 6, -4)),
                                                  ("d20", 2, (1, 20, 0))])
def test_roll_frequencies_match_the_exact_odds(dice, cluster, faces):
    s = new_game(dice=dice)
    s, kit = build(s, stages=1, cluster=cluster, crew=(), thrusters=0)
    s = start_flights(s)
    s = act(s, Launch(kit.upgoer))
    assert ENGINE.current_player(s) == CHANCE and pending(s).dice_sets == cluster
    outcomes = ENGINE.chance_outcomes(s)
    distribution = tuple((r.value, p) for r, p in outcomes)
    assert all(isinstance(p, Fraction) for _, p in distribution)
    assert sum(p for _, p in distribution) == 1
    assert dict(distribution) == _exact(*faces, cluster)
    rng = random.Random(12345)
    n = 100_000
    counts: dict[int, int] = {}
    for _ in range(n):
        v = sample(distribution, rng.random())
        counts[v] = counts.get(v, 0) + 1
    for value, p in distribution:
        expected = n * float(p)
        sd = math.sqrt(n * float(p) * (1 - float(p)))
        assert abs(counts.get(value, 0) - expected) <= 4 * sd, (value, counts.get(value, 0), expected)
    assert set(counts) <= {v for v, _ in distribution}
