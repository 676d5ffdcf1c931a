"""Flight rules of the 2014 rulebook, one named scenario per rule, driven with forced rolls.

Every test builds researched hardware with game.games.whatgoesup.rules.scenario, assembles Upgoers, ends R&D and flies
them through the Engine, answering every die with a chosen ``Roll``. Parts rate 15/18 on a d20 unless
a test says otherwise: 1-14 is OK, 15-17 a Fail, 18-20 a Boom. A few tests move a craft or set a
counter directly on the state to reach a far position quickly; that is said where it happens.
"""
from __future__ import annotations

import dataclasses
from fractions import Fraction

import pytest

from game.games.whatgoesup.rules.actions import Assemble, EndRnD, Roll
from game.games.whatgoesup.rules.engine import CHANCE, TERMINAL, Engine, IllegalAction
from game.games.whatgoesup.rules.flight_actions import (AcceptRoll, Burn, Coast, Dock, EndActivities, Eva, JuryRig, KeepRoll,
                                       Launch, Move, Track, Transfer, Undock, UseLuck, UsePayload, UseRcsBoost,
                                       UseSkill, Wait, WriteOff)
from game.games.whatgoesup.rules.scenario import give_derp, give_stock, give_thing, place_in_space
from game.games.whatgoesup.rules.reliability import Rating
from game.games.whatgoesup.rules.state import HOME, PlayerSetup, Setup, UpgoerDesign, replace_in, update
from game.games.whatgoesup.rules.tables import load_rules
from game.games.whatgoesup.sim import check_invariants
from tests.test_rules_tables import rules_dir  # noqa: F401  (a fixture)

R = load_rules()
E = Engine(R)
FR = E.flight_rules

OK, FAIL, BOOM = 1, 16, 19  # against 15/18


# ====================================================================== helpers
def new_game(options=(), players=2):
    ps = (PlayerSetup("Hop", "rabitians"), PlayerSetup("Spud", "merbs"), PlayerSetup("Kip", "rabitians"))[:players]
    return E.new_game(Setup(ps, turn_limit=20, options=frozenset(options), dice="d20"))


def kit(s, p, name, crew=((3, 2, 4),), mods=("capsule", "thruster", "rcs"), rating="15/18", fuel=10, rations=6,
        reusable=()):
    """Give program ``p`` a researched three-stage craft; returns (state, design, derp ids, item ids by kind).

    Each crew member is (piloting, engineering, stamina) or (piloting, engineering, stamina, stamina left),
    within the rules' limits (at most 9 points in all).
    """
    s, _, st = give_thing(s, R, p, "lower_stage", 60, rating, count=3)
    ids: dict[str, list[str]] = {}
    modules = []
    for k in mods:
        mass = {"capsule": 14, "habitat": 4, "thruster": 4}.get(k, 1)
        s, _, it = give_thing(s, R, p, k, mass, rating, count=1, reusable=k in reusable)
        modules.append(it[0])
        ids.setdefault(k, []).append(it[0])
    derps = []
    for i, (pi, en, sta, *left) in enumerate(crew):
        s, d = give_derp(s, p, f"{name}{i}", pi, en, sta, current_stamina=left[0] if left else None)
        derps.append(d)
    s = give_stock(s, p, points=100, fuel=40, rations=40, luck=2)
    design = UpgoerDesign(name, stages=((st[0], st[1]), (st[2],)), modules=tuple(modules), crew=tuple(derps),
                          fuel=fuel, rations=rations)
    report = E.check_design(s, p, design)
    assert report.valid, report.problems
    return s, design, derps, ids


def start(s, *designs):
    """Each program in turn assembles its designs (a list per program) and ends R&D."""
    for ds in designs:
        for d in ds:
            s = E.apply(s, Assemble(d))
        s = E.apply(s, EndRnD())
    return s


def uid(s, name):
    return next(u.id for u in s.upgoers if u.name == name)


def up(s, name):
    return s.upgoer(uid(s, name))


DEFAULT = (Launch, EndActivities, Move, Coast, AcceptRoll, EndRnD)


def auto(s, until, value=OK, limit=400):
    """Play the obvious choice (launch, move on, coast, accept, end) and roll ``value`` until ``until(s)``."""
    for _ in range(limit):
        if until(s):
            return s
        p = E.current_player(s)
        assert p != TERMINAL, "the game ended"
        if p == CHANCE:
            s = E.apply(s, Roll(value))
            continue
        legal = E.legal_actions(s)
        for kind in DEFAULT:
            found = [a for a in legal if isinstance(a, kind)]
            if found:
                s = E.apply(s, found[0])
                break
        else:
            raise AssertionError(f"no default among {legal}")
    raise AssertionError("the condition was never reached")


def at(name, mode):
    """The named craft acts in ``mode`` (decide, before, junction, after) with no roll or choice pending."""
    def check(s):
        f = s.flight
        return (s.phase == "flight" and f is not None and f.roll is None and f.choice is None and not f.timing_tie
                and f.active is not None and s.upgoer(f.active).name == name and f.mode == mode)
    return check


def rolling(kind, name=None):
    def check(s):
        f = s.flight
        return (s.phase == "flight" and f is not None and f.roll is not None and f.roll.value is None
                and f.roll.kind == kind and (name is None or s.upgoer(f.roll.upgoer).name == name))
    return check


def in_rnd(turn):
    return lambda s: s.phase == "rnd" and s.turn == turn


def roll(s, value):
    assert E.current_player(s) == CHANCE, "no die is waiting"
    return E.apply(s, Roll(value))


def act(s, action):
    return E.apply(s, action)


def illegal(s, action, match=None):
    with pytest.raises(IllegalAction, match=match):
        E.apply(s, action)
    assert action not in E.legal_actions(s)


def derp(s, d):
    return s.derp(d)


def item(s, i):
    return s.item(i)


def firsts(s):
    return dict(s.firsts)


def entries(s, p):
    return [(e.reason, e.dots) for e in s.programs[p].dot_entries]


def edit_upgoer(s, name, **changes):
    return dataclasses.replace(s, upgoers=replace_in(s.upgoers, [update(up(s, name), **changes)]))


def edit_derp(s, d, **changes):
    return dataclasses.replace(s, derps=replace_in(s.derps, [update(s.derp(d), **changes)]))


def edit_item(s, i, **changes):
    return dataclasses.replace(s, items=replace_in(s.items, [update(s.item(i), **changes)]))


def pair_in_orbit(options=(), a=None, b=None):
    """Turn 1: A (15/18) then B (14/18) reach the first Low Orbit step; stops at B's activities after moving."""
    s = new_game(options)
    s, da, crew_a, ids_a = kit(s, 0, "A", **(a or {}))
    b = dict(b or {})
    b.setdefault("rating", "14/18")
    s, db, crew_b, ids_b = kit(s, 1, "B", **b)
    s = start(s, [da], [db])
    s = auto(s, at("B", "after"))
    assert up(s, "A").location == up(s, "B").location == "low_1"
    return s, (crew_a, ids_a), (crew_b, ids_b)


def written_off_and_taken_across():
    """A (crew_a) written off in orbit, then B docks with it and takes A's derp across: returns the state with
    both still docked, A's and B's ids and crews."""
    s, (crew_a, _), (crew_b, _) = pair_in_orbit()
    a, b = uid(s, "A"), uid(s, "B")
    s = auto(s, at("A", "before"))
    s = act(s, WriteOff(a))
    s = auto(s, at("B", "before"))
    s = roll(act(s, Dock(a, crew_b[0])), OK)
    s = act(s, Transfer(a, b, derps=(crew_a[0],)))
    return s, a, b, crew_a, crew_b


# ====================================================================== docking
def test_docking_needs_two_piloting():
    s, _, (crew_b, _) = pair_in_orbit(b=dict(crew=((1, 3, 4),)))
    illegal(s, Dock(uid(s, "A"), crew_b[0]), "at least 2 Piloting")


def test_docking_needs_a_stamina_point():
    s, _, (crew_b, _) = pair_in_orbit()
    s = edit_derp(s, crew_b[0], current_stamina=0)
    illegal(s, Dock(uid(s, "A"), crew_b[0]), "no stamina")


def test_docking_needs_the_same_step_of_a_stable_orbit():
    s, _, (crew_b, _) = pair_in_orbit()
    # A drifts one step ahead (set directly): no docking across steps.
    moved = edit_upgoer(s, "A", location="low_2")
    illegal(moved, Dock(uid(s, "A"), crew_b[0]), "not at")
    # Both in a transit step (set directly): not a stable orbit.
    transit = edit_upgoer(edit_upgoer(s, "A", location="high_transfer"), "B", location="high_transfer")
    illegal(transit, Dock(uid(s, "A"), crew_b[0]), "stable")


def test_docking_ok_uses_half_the_rcs_fuel_and_a_stamina_point():
    s, _, (crew_b, ids_b) = pair_in_orbit()
    rcs = ids_b["rcs"][0]
    assert item(s, rcs).uses_left == 2
    s = act(s, Dock(uid(s, "A"), crew_b[0]))
    assert derp(s, crew_b[0]).current_stamina == 3
    assert s.flight.roll.kind == "docking" and s.flight.roll.items == (rcs,)
    s = roll(s, OK)
    assert uid(s, "A") in up(s, "B").docked_with and uid(s, "B") in up(s, "A").docked_with
    assert item(s, rcs).uses_left == 1


def test_docking_fail_uses_half_the_rcs_fuel():
    s, _, (crew_b, ids_b) = pair_in_orbit()
    rcs = ids_b["rcs"][0]
    s = act(s, Dock(uid(s, "A"), crew_b[0]))
    s = act(roll(s, FAIL), AcceptRoll())
    assert up(s, "B").docked_with == ()
    assert item(s, rcs).uses_left == 1 and not item(s, rcs).disabled


def test_docking_boom_uses_all_the_rcs_fuel_and_damages_it():
    s, _, (crew_b, ids_b) = pair_in_orbit()
    rcs = ids_b["rcs"][0]
    s = act(s, Dock(uid(s, "A"), crew_b[0]))
    s = act(roll(s, BOOM), AcceptRoll())
    assert up(s, "B").docked_with == ()
    assert item(s, rcs).uses_left == 0 and item(s, rcs).disabled


def test_stubborn_docking_retries_while_rcs_fuel_and_stamina_last():
    s, _, (crew_b, ids_b) = pair_in_orbit()
    a = uid(s, "A")
    s = act(s, Dock(a, crew_b[0]))
    s = act(roll(s, FAIL), AcceptRoll())
    s = act(s, Dock(a, crew_b[0]))  # again, at once
    s = act(roll(s, FAIL), AcceptRoll())
    assert item(s, ids_b["rcs"][0]).uses_left == 0
    assert derp(s, crew_b[0]).current_stamina == 2
    illegal(s, Dock(a, crew_b[0]), "RCS")


def test_stubborn_docking_stops_when_stamina_runs_out():
    s, _, (crew_b, _) = pair_in_orbit(b=dict(crew=((3, 3, 2, 1),)))  # one stamina point left
    s = act(s, Dock(uid(s, "A"), crew_b[0]))
    s = act(roll(s, FAIL), AcceptRoll())
    illegal(s, Dock(uid(s, "A"), crew_b[0]), "stamina")


def test_assisted_docking_the_other_craft_tries_on_its_own_turn():
    s, (crew_a, _), (crew_b, _) = pair_in_orbit()
    s = auto(s, at("A", "before"))  # turn 2: A's better capsule goes first
    assert s.turn == 2 and up(s, "A").location == up(s, "B").location == "low_1"
    s = act(s, Dock(uid(s, "B"), crew_a[0]))
    s = act(roll(s, FAIL), AcceptRoll())
    s = act(s, Wait(uid(s, "A")))  # A holds back and lets B try from its side
    assert at("B", "before")(s)
    s = act(s, Dock(uid(s, "A"), crew_b[0]))
    s = roll(s, OK)
    assert uid(s, "A") in up(s, "B").docked_with
    assert firsts(s)["first_docking"] == 1
    assert ("Prestige First - docking", 2) in entries(s, 1)


def test_transfers_between_docked_craft_move_crew_payloads_fuel_and_rations():
    s, (crew_a, _), (crew_b, ids_b) = pair_in_orbit(b=dict(crew=((3, 2, 4), (2, 2, 3)), mods=("capsule", "thruster", "rcs", "waylight")))
    a, b = uid(s, "A"), uid(s, "B")
    s = roll(act(s, Dock(a, crew_b[0])), OK)
    stamina = derp(s, crew_b[1]).current_stamina
    s = act(s, Transfer(b, a, derps=(crew_b[1],)))
    assert derp(s, crew_b[1]).location == a and derp(s, crew_b[1]).owner == 1
    s = act(s, Transfer(b, a, items=(ids_b["waylight"][0],)))
    assert item(s, ids_b["waylight"][0]).location == a and ids_b["waylight"][0] in up(s, "A").modules
    s = act(s, Transfer(b, a, fuel=3, rations=2))
    assert up(s, "A").fuel == 13 and up(s, "B").fuel == 7
    assert up(s, "A").rations == 8 and up(s, "B").rations == 4
    assert derp(s, crew_b[1]).current_stamina == stamina  # capsule to capsule: free
    assert firsts(s)["first_rations_delivery"] == 1
    # Without docking, nothing passes through the hatch.
    s = act(s, Undock(a))
    illegal(s, Transfer(b, a, fuel=1), "not docked")


def test_a_rival_crew_that_can_fly_keeps_its_own_goods():
    s, (crew_a, _), (crew_b, _) = pair_in_orbit()
    a, b = uid(s, "A"), uid(s, "B")
    s = roll(act(s, Dock(a, crew_b[0])), OK)
    illegal(s, Transfer(a, b, fuel=1), "not yours")


def test_undocking_is_free():
    s, _, (crew_b, _) = pair_in_orbit()
    a = uid(s, "A")
    s = roll(act(s, Dock(a, crew_b[0])), OK)
    stamina = derp(s, crew_b[0]).current_stamina
    s = act(s, Undock(a))
    assert up(s, "A").docked_with == () and up(s, "B").docked_with == ()
    assert derp(s, crew_b[0]).current_stamina == stamina


def test_docking_stops_the_craft_that_has_not_moved_yet():
    # A has flown a turn; B launches in turn 2 and reaches A's step during insertions, before A moves.
    s = new_game()
    s, da, crew_a, _ = kit(s, 0, "A")
    s, db, crew_b, _ = kit(s, 1, "B", rating="14/18")
    s = start(s, [da], [])
    s = auto(s, in_rnd(2))
    s = start(s, [], [db])
    s = auto(s, at("B", "after"))
    assert s.flight.stage == "insertion" and up(s, "A").location == "low_1" == up(s, "B").location
    assert not up(s, "A").moved_this_turn
    s = roll(act(s, Dock(uid(s, "A"), crew_b[0])), OK)
    s = auto(s, in_rnd(3))
    assert up(s, "A").location == "low_1" and up(s, "B").location == "low_1"


def test_docking_before_moving_with_a_craft_that_has_moved_keeps_the_docker_in_place():
    s = new_game()
    s, da, crew_a, _ = kit(s, 0, "A")
    s, db, crew_b, _ = kit(s, 1, "B", rating="14/18")
    s = start(s, [da], [])
    s = auto(s, in_rnd(2))
    s = start(s, [], [db])
    s = auto(s, at("A", "before"))  # B arrived at low_1 during insertions and has moved this turn
    assert up(s, "B").moved_this_turn and up(s, "B").location == "low_1"
    s = roll(act(s, Dock(uid(s, "B"), crew_a[0])), OK)
    s = auto(s, in_rnd(3))
    assert up(s, "A").location == "low_1" and up(s, "B").location == "low_1"


# ====================================================================== EVA
def test_eva_needs_one_piloting_and_an_eva_pack():
    s, _, (crew_b, _) = pair_in_orbit(b=dict(crew=((0, 3, 4),), mods=("capsule", "thruster", "eva_pack")))
    illegal(s, Eva(crew_b[0], uid(s, "A")), "Piloting")
    s, _, (crew_b, _) = pair_in_orbit()
    illegal(s, Eva(crew_b[0], uid(s, "A")), "EVA pack")


def test_eva_carries_at_most_one_mass():
    s, _, (crew_b, ids_b) = pair_in_orbit(b=dict(mods=("capsule", "thruster", "eva_pack", "waylight")))
    a = uid(s, "A")
    illegal(s, Eva(crew_b[0], a, carry_item=ids_b["waylight"][0], carry_rations=2), "one mass")
    illegal(s, Eva(crew_b[0], a, carry_rations=3), "one ration container")


def test_eva_delivers_rations_and_comes_back():
    s, _, (crew_b, ids_b) = pair_in_orbit(b=dict(mods=("capsule", "thruster", "eva_pack")))
    a = uid(s, "A")
    s = act(s, Eva(crew_b[0], a, carry_rations=2, come_back=True))
    assert derp(s, crew_b[0]).current_stamina == 3
    s = roll(s, OK)
    assert derp(s, crew_b[0]).location == uid(s, "B")
    assert up(s, "A").rations == 8 and up(s, "B").rations == 4
    assert firsts(s)["first_eva"] == 1 and firsts(s)["first_rations_delivery"] == 1
    assert ("Prestige First - space walk", 2) in entries(s, 1)


def test_eva_transfers_the_derp_with_its_pack_and_a_payload():
    s, _, (crew_b, ids_b) = pair_in_orbit(b=dict(crew=((3, 2, 4), (2, 2, 2)),
                                                 mods=("capsule", "thruster", "eva_pack", "waylight")))
    a = uid(s, "A")
    s = roll(act(s, Eva(crew_b[1], a, carry_item=ids_b["waylight"][0])), OK)
    assert derp(s, crew_b[1]).location == a
    assert item(s, ids_b["waylight"][0]).location == a and item(s, ids_b["eva_pack"][0]).location == a


def test_eva_boom_injures_the_derp_but_does_not_lose_them():
    s, _, (crew_b, ids_b) = pair_in_orbit(b=dict(crew=((3, 2, 4), (2, 2, 2)), mods=("capsule", "thruster", "eva_pack")))
    s = act(roll(act(s, Eva(crew_b[1], uid(s, "A"))), BOOM), AcceptRoll())
    d = derp(s, crew_b[1])
    assert d.injured and not d.dead and d.location == uid(s, "B")
    assert s.find("item", ids_b["eva_pack"][0]) is None


def test_winch_docking_needs_the_eva_and_the_winch_rolls():
    s, _, (crew_b, _) = pair_in_orbit(b=dict(mods=("capsule", "thruster", "winch")))
    illegal(s, Dock(uid(s, "A"), crew_b[0], method="winch"), "winch")
    s, _, (crew_b, ids_b) = pair_in_orbit(b=dict(mods=("capsule", "thruster", "eva_pack", "winch")))
    a = uid(s, "A")
    s = act(s, Dock(a, crew_b[0], method="winch"))
    assert s.flight.roll.kind == "eva"
    s = roll(s, OK)
    assert s.flight.roll.kind == "winch"
    s = roll(s, OK)
    assert a in up(s, "B").docked_with
    assert firsts(s)["first_eva"] == 1 and firsts(s)["first_docking"] == 1


def test_winch_docking_stops_when_the_eva_fails():
    s, _, (crew_b, _) = pair_in_orbit(b=dict(crew=((3, 0, 4),), mods=("capsule", "thruster", "eva_pack", "winch")))
    s = act(s, Dock(uid(s, "A"), crew_b[0], method="winch"))
    s = act(roll(s, FAIL), AcceptRoll())
    assert s.flight.roll is None and up(s, "B").docked_with == ()


# ====================================================================== jury-rigging and Lucky 13
def stranded_a(options=(), a=None):
    """A's capsule goes Boom on its first duration roll: A is stranded with a disabled capsule."""
    s = new_game(options)
    s, da, crew_a, ids_a = kit(s, 0, "A", **(a or {}))
    s, db, crew_b, ids_b = kit(s, 1, "B", rating="14/18", mods=("capsule", "thruster", "rcs", "eva_pack"))
    s = start(s, [da], [db])
    s = auto(s, rolling("duration_capsule", "A"))
    s = act(roll(s, BOOM), AcceptRoll())
    assert up(s, "A").stranded and item(s, ids_a["capsule"][0]).disabled
    return s, (crew_a, ids_a), (crew_b, ids_b)


def test_jury_rig_works_under_twice_engineering_and_lucky_13():
    s, (crew_a, ids_a), _ = stranded_a(a=dict(crew=((3, 3, 3),)))
    capsule = ids_a["capsule"][0]
    rating_before = E.item_rating(s, item(s, capsule))
    assert at("A", "after")(s)
    s = act(s, JuryRig(crew_a[0], capsule))  # Engineering 3: under 6 works
    assert derp(s, crew_a[0]).current_stamina == 2
    s = act(roll(s, 6), AcceptRoll())  # only luck could help a jury-rig roll
    assert item(s, capsule).disabled  # 6 is not under 6
    s = act(s, JuryRig(crew_a[0], capsule))  # another attempt
    s = roll(s, 5)
    assert not item(s, capsule).disabled and not up(s, "A").stranded
    assert E.item_rating(s, item(s, capsule)) == rating_before  # the Boom's penalty stays
    assert up(s, "A").rations == 5  # the rations lost in the Boom are not back
    assert firsts(s)["lucky_13"] == 0
    assert ("Prestige First - Lucky 13", 2) in entries(s, 0)
    assert any(e.text.startswith("Prestige First - Lucky 13") and "(A's crew save themselves)" in e.text
               for e in s.events)


def test_jury_rig_needs_engineering():
    s, (crew_a, ids_a), _ = stranded_a(a=dict(crew=((3, 0, 4),)))
    illegal(s, JuryRig(crew_a[0], ids_a["capsule"][0]), "Engineering")


def test_jury_rigging_an_outside_part_needs_an_eva():
    s, _, (crew_b, ids_b) = pair_in_orbit()
    s = act(roll(act(s, Dock(uid(s, "A"), crew_b[0])), BOOM), AcceptRoll())
    rcs = ids_b["rcs"][0]
    assert item(s, rcs).disabled
    illegal(s, JuryRig(crew_b[0], rcs), "EVA")
    s, _, (crew_b, ids_b) = pair_in_orbit(b=dict(mods=("capsule", "thruster", "rcs", "eva_pack")))
    rcs = ids_b["rcs"][0]
    s = act(roll(act(s, Dock(uid(s, "A"), crew_b[0])), BOOM), AcceptRoll())
    s = act(s, JuryRig(crew_b[0], rcs))
    assert derp(s, crew_b[0]).current_stamina == 1  # 1 for docking, 2 for the outside repair
    assert s.flight.roll.kind == "eva"
    s = roll(s, OK)
    assert s.flight.roll.kind == "jury_rig"
    s = roll(s, 1)
    assert not item(s, rcs).disabled
    assert "lucky_13" not in firsts(s)  # B was never stranded


# ====================================================================== skills, luck and RCS on a roll
# The default reading (flight.yaml skills: move_roll) is played in tests/test_skills.py; these two play the
# option raise_safeties, which must behave as it always did.
@pytest.fixture
def raise_safeties(monkeypatch):
    """This module's engine with ``flight.yaml: skills: raise_safeties``."""
    engine = Engine(dataclasses.replace(R, flight=dataclasses.replace(R.flight, skills="raise_safeties")))
    monkeypatch.setitem(globals(), "E", engine)
    monkeypatch.setitem(globals(), "FR", engine.flight_rules)
    return engine


def test_raise_safeties_engineering_turns_a_boom_toward_fail_and_piloting_a_fail_toward_ok(raise_safeties):
    """Skills raise the safeties for one roll, but after all modifiers the Fail safety is at best one below
    the Boom safety: a roll near the Boom safety needs Engineering to make room for Piloting."""
    s, _, (crew_b, _) = pair_in_orbit(b=dict(crew=((2, 1, 5),)))
    s = auto(s, rolling("duration_capsule", "A"))  # turn 2, A's capsule
    s = auto(s, rolling("duration_capsule", "B"))
    s = roll(s, 18)  # 14/18: Boom
    illegal(s, UseSkill(crew_b[0], "piloting"), "Engineering first")
    s = act(s, UseSkill(crew_b[0], "engineering"))  # Boom safety 19: the 18 is a Fail
    assert s.flight.roll.outcome().name == "FAIL"
    illegal(s, UseSkill(crew_b[0], "engineering"), "not a Boom")
    for _ in range(2):  # Fail safety 14 -> 16 -> 18 (one below Boom 19): still a Fail
        assert s.flight.roll is not None and s.flight.roll.outcome().name == "FAIL"
        s = act(s, UseSkill(crew_b[0], "piloting"))
    assert s.flight.roll.outcome().name == "FAIL" and s.flight.roll.fail_pinned()
    s = act(s, UseSkill(crew_b[0], "engineering"))  # pinned: Engineering makes room (Boom 20)
    s = act(s, UseSkill(crew_b[0], "piloting"))  # Fail 19: the 18 is OK
    assert derp(s, crew_b[0]).current_stamina == 0
    assert s.flight.roll is None and s.flight.choice is None  # settled as OK
    assert not up(s, "B").stranded


def test_raise_safeties_multiderp_crews_cooperate_and_raises_are_temporary(raise_safeties):
    s, (crew_a, _), _ = pair_in_orbit(a=dict(crew=((2, 0, 3), (0, 2, 3))))
    s = auto(s, rolling("duration_capsule", "A"))
    s = roll(s, 19)  # 15/18: Boom
    s = act(s, UseSkill(crew_a[1], "engineering"))  # the engineer: Boom safety 20, a Fail
    illegal(s, UseSkill(crew_a[1], "piloting"), "no Piloting")
    s = act(s, UseSkill(crew_a[0], "piloting"))  # the pilot: Fail safety 17
    s = act(s, UseSkill(crew_a[0], "piloting"))  # 19, one below Boom 20: still a Fail
    assert s.flight.roll.outcome().name == "FAIL"
    s = act(s, UseSkill(crew_a[1], "engineering"))  # pinned: the engineer makes room (Boom 22)
    assert s.flight.roll.outcome().name == "FAIL"
    s = act(s, UseSkill(crew_a[0], "piloting"))  # Fail safety 21: the 19 is OK
    assert s.flight.roll is None and s.flight.choice is None
    assert derp(s, crew_a[0]).current_stamina == 0 and derp(s, crew_a[1]).current_stamina == 1
    s = auto(s, rolling("duration_capsule", "A"))  # next turn's roll: the raises are gone
    assert s.flight.roll.rating == Rating(15, 18)
    assert s.flight.roll.fail_raise == 0 and s.flight.roll.boom_raise == 0


def test_tired_and_injured_derps_cannot_help():
    s, (crew_a, _), _ = pair_in_orbit(a=dict(crew=((2, 2, 3), (2, 2, 3))))
    s = edit_derp(edit_derp(s, crew_a[0], current_stamina=0), crew_a[1], injured=True)
    s = auto(s, rolling("duration_capsule", "A"))
    s = roll(s, FAIL)
    for d in crew_a:
        illegal(s, UseSkill(d, "piloting"), "healthy derp")


def test_luck_rerolls_and_either_result_may_be_kept():
    s, (crew_a, _), _ = pair_in_orbit()
    s = auto(s, rolling("duration_capsule", "A"))
    s = roll(s, FAIL)
    s = act(s, UseLuck())
    assert s.programs[0].luck == 1 and E.current_player(s) == CHANCE
    s = roll(s, 3)
    assert {KeepRoll(True), KeepRoll(False)} == set(E.legal_actions(s))
    s2 = act(s, KeepRoll(False))  # the old Fail, now to be answered
    assert s2.flight.roll.value == FAIL
    s = act(s, KeepRoll(True))
    assert s.flight.roll is None or s.flight.roll.kind != "duration_capsule"


def test_an_rcs_use_adds_three_piloting_to_a_fail():
    s, (crew_a, ids_a), _ = pair_in_orbit()
    s = auto(s, rolling("duration_capsule", "A"))
    s = roll(s, 16)  # a Fail on 15/18; +3 Piloting lifts the Fail safety to 17 (one below Boom): OK
    rcs = ids_a["rcs"][0]
    s = act(s, UseRcsBoost(rcs))
    assert item(s, rcs).uses_left == 1
    assert s.flight.roll is None and s.flight.choice is None
    assert any(e.text == "An RCS puff adds 3 Piloting: the roll moves from 16 to 13, OK against 15/18."
               for e in s.events)


def test_an_rcs_boost_only_helps_a_fail():
    s, (crew_a, ids_a), _ = pair_in_orbit()
    s = auto(s, rolling("duration_capsule", "A"))
    s = roll(s, BOOM)
    illegal(s, UseRcsBoost(ids_a["rcs"][0]), "not a Fail")


# ====================================================================== rations and stamina
def test_rations_are_eaten_at_the_end_of_the_flight_phase_then_injury_then_death():
    s = new_game()
    s, da, crew_a, _ = kit(s, 0, "A", rations=2)  # one container: "loaded in twos"
    s, db, _, _ = kit(s, 1, "B", rating="14/18")
    s = start(s, [da], [db])
    s = auto(s, at("A", "after"))
    assert up(s, "A").rations == 2
    s = auto(s, in_rnd(2))
    assert up(s, "A").rations == 1
    s = auto(s, in_rnd(3))
    assert up(s, "A").rations == 0 and not derp(s, crew_a[0]).injured
    s = auto(s, in_rnd(4))
    assert derp(s, crew_a[0]).injured and not derp(s, crew_a[0]).dead
    s = auto(s, in_rnd(5))
    assert derp(s, crew_a[0]).dead
    assert any(e.kind == "report" and "A0 lost -5" in e.text for e in s.events)


def test_stamina_recovers_one_a_turn_in_a_working_habitat_and_all_at_home():
    s, (crew_a, _), (crew_b, _) = pair_in_orbit(a=dict(mods=("capsule", "habitat", "thruster", "rcs")))
    s = edit_derp(edit_derp(s, crew_a[0], current_stamina=1), crew_b[0], current_stamina=1)
    s = auto(s, in_rnd(2))
    assert derp(s, crew_a[0]).current_stamina == 2  # habitat
    assert derp(s, crew_b[0]).current_stamina == 1  # capsule only
    s = auto(s, rolling("duration_habitat", "A"))
    s = act(roll(s, FAIL), AcceptRoll())  # a glitchy habitat: nobody rests this turn
    s = auto(s, in_rnd(3))
    assert derp(s, crew_a[0]).current_stamina == 2
    # At home every point comes back.
    s = edit_derp(s, crew_b[0], location=HOME)
    s = auto(s, in_rnd(4))
    assert derp(s, crew_b[0]).current_stamina == 4


def test_an_injured_derp_cannot_fly_and_a_craft_without_healthy_derps_is_stranded():
    s = new_game()
    s, da, crew_a, _ = kit(s, 0, "A")
    s, db, _, _ = kit(s, 1, "B", rating="14/18")
    s = start(s, [da], [db])
    s = edit_derp(s, crew_a[0], injured=True)  # hurt on the pad (set directly)
    assert at("A", "decide")(s)
    illegal(s, Launch(uid(s, "A")), "cannot fly")
    s, (crew_a, _), _ = pair_in_orbit()
    s = edit_derp(s, crew_a[0], injured=True)
    assert not FR.can_steer(s, up(s, "A"))
    s = auto(s, in_rnd(2))
    s = act(act(s, EndRnD()), EndRnD())
    s = auto(s, lambda x: at("A", "junction")(x) or up(x, "A").location == "low_2")
    assert up(s, "A").location == "low_2"  # coasted past the burn junction: no decision to make
    assert up(s, "A").status == "flying"


# ====================================================================== write-off, debris and rescue
def test_write_off_an_empty_craft_makes_debris_that_another_program_may_track():
    s, (crew_a, _), _ = pair_in_orbit()
    s = auto(s, at("A", "before"))
    s = edit_derp(s, crew_a[0], location=HOME)  # the crew left (set directly)
    s = act(s, WriteOff(uid(s, "A")))
    assert up(s, "A").status == "debris" and s.programs[0].dot_entries[-1:] != (("written off", -5),)
    assert not any(d < 0 for _, d in entries(s, 0))
    s = auto(s, in_rnd(3))
    assert up(s, "A").status == "debris"
    with pytest.raises(IllegalAction, match="another program"):
        act(s, Track(uid(s, "A")))
    s = act(s, EndRnD())
    s = act(s, Track(uid(s, "A")))
    assert up(s, "A").tracked_by == 1
    s = act(s, EndRnD())
    assert up(s, "A").status == "debris"


def test_untracked_debris_leaves_at_the_next_flight_phase():
    s, (crew_a, _), _ = pair_in_orbit()
    s = auto(s, at("A", "before"))
    s = edit_derp(s, crew_a[0], location=HOME)
    a = uid(s, "A")
    s = act(s, WriteOff(a))
    s = auto(s, in_rnd(3))
    s = act(act(s, EndRnD()), EndRnD())
    assert s.find("upgoer", a) is None


def test_write_off_a_crewed_craft_costs_five_dots_at_once_and_the_crew_defect_to_the_rescuer():
    s, (crew_a, _), (crew_b, _) = pair_in_orbit()
    a, b = uid(s, "A"), uid(s, "B")
    s = auto(s, at("A", "before"))
    s = act(s, WriteOff(a))
    assert up(s, "A").status == "written_off"
    assert ("A0 written off", -5) in entries(s, 0)
    s = auto(s, at("B", "before"))
    s = roll(act(s, Dock(a, crew_b[0])), OK)
    s = act(s, Transfer(a, b, derps=(crew_a[0],)))
    d = derp(s, crew_a[0])
    assert d.owner == 1 and d.defected and d.location == b
    assert not any("Rescue Mission" in r for r, _ in entries(s, 1))  # defection, not a rescue


def test_a_defected_derp_who_dies_costs_the_rescuer_nothing():
    s, a, b, crew_a, crew_b = written_off_and_taken_across()
    s = edit_derp(s, crew_b[0], location=HOME)  # only the defector aboard (set directly)
    s = E.flight_rules._kill(s, up(s, "B"), [derp(s, crew_a[0])], "test")
    assert derp(s, crew_a[0]).dead
    assert not any(d == -5 for _, d in entries(s, 1))
    assert [d for _, d in entries(s, 0)].count(-5) == 1


def test_a_craft_written_off_with_its_crew_drifts_along_its_orbit_like_debris():
    """"Space debris always move last, and just follow their current orbit"; "Upgoers and debris should ALWAYS
    end their turn landed somewhere, or on a duration (transit or stable orbit) step" (2014, Flight steps). A
    wreck written off with its crew ("The crew remain in orbit") is debris nobody steers: at the end of the turn
    it coasts on to the next Low Orbit step, where B, moving on, meets it again. (Before, it stayed put.)"""
    s, (crew_a, _), _ = pair_in_orbit()
    a = uid(s, "A")
    s = auto(s, at("A", "before"))
    s = act(s, WriteOff(a))
    assert up(s, "A").location == "low_1"
    s = auto(s, in_rnd(3))
    assert up(s, "A").status == "written_off" and up(s, "A").location == "low_2" == up(s, "B").location
    assert derp(s, crew_a[0]).location == a and not derp(s, crew_a[0]).dead


def test_two_wrecks_docked_together_drift_along_their_orbit_together():
    """The drift of a wreck written off with its crew (above) holds for two wrecks docked to each other: nobody
    steers either, so at the turn's end both coast on to the next Low Orbit step, still docked with their crews
    aboard. (Before, a written-off craft docked to anything waited for its partner to carry it, and two wrecks
    docked together stayed where the second was written off for the rest of the game.)"""
    s, (crew_a, _), (crew_b, _) = pair_in_orbit()
    a, b = uid(s, "A"), uid(s, "B")
    s = roll(act(s, Dock(a, crew_b[0])), OK)
    s = auto(s, at("A", "before"))
    s = act(s, WriteOff(a))  # turn 2: B, moving on, carries the wreck docked to it
    s = auto(s, at("B", "after"))
    assert up(s, "A").location == up(s, "B").location == "low_2"
    s = auto(s, at("B", "before"))
    assert up(s, "B").location == "low_2"
    s = act(s, WriteOff(b))  # turn 3: now both are wrecks; nobody else flies, so the turn ends at once
    assert in_rnd(4)(s)
    assert up(s, "A").status == up(s, "B").status == "written_off"
    assert up(s, "A").location == up(s, "B").location == "low_3"
    assert up(s, "A").docked_with == (b,) and up(s, "B").docked_with == (a,)
    assert derp(s, crew_a[0]).location == a and derp(s, crew_b[0]).location == b
    assert not derp(s, crew_a[0]).dead and not derp(s, crew_b[0]).dead


def test_a_wreck_that_falls_into_the_atmosphere_burns_up_with_its_crew_paid_for_once():
    """A craft written off in Return Transit coasts on past the capture burn into reentry at the turn's end:
    the wreck burns up with its crew, who were paid for (5 dots each) when it was written off."""
    s = new_game(players=1)
    s, design, crew, _ = kit(s, 0, "Lost")
    s, lost = place_in_space(s, E, 0, design, "return_transit")
    s = act(s, EndRnD())
    s = auto(s, at("Lost", "before"))
    s = act(s, WriteOff(lost))  # nobody else flies: the turn ends at once, and the debris moves last
    assert s.upgoer(lost).status == "destroyed" and derp(s, crew[0]).dead
    assert [e.text for e in s.events][1:4] == [
        "Lost0 is lost (burnt up with the wreck).", "The debris of Lost burns up in the atmosphere.",
        "End of turn 1, Hop: Lost0 written off -5. Budget 40 -> 35."]  # the crew's death costs nothing more


def test_a_crew_written_off_in_orbit_eats_its_rations_and_then_starves_paid_for_once():
    """"Rations are used by derps still in orbit" (2014, The Rules), and a crew written off "remain in orbit"
    (Flight steps): the wreck's crew eats at each turn's end like any crew, "A derp that runs out of rations is
    injured", and "An injured derp who gets injured again dies". A0 flies with two derp-turns of rations: one is
    eaten on turn 1, the craft is written off on turn 2 and A0 eats the last; turn 3 A0 goes hungry and is
    injured; turn 4 A0 dies, costing nothing more than the 5 dots the write-off cost, and the empty wreck is
    debris. The wreck is no longer A's flight: its turns count for no record and win no first."""
    s, (crew_a, _), _ = pair_in_orbit(a=dict(rations=2))
    a = uid(s, "A")
    assert up(s, "A").rations == 2
    s = auto(s, at("A", "before"))
    assert up(s, "A").rations == 1 and s.programs[0].longest_crewed_flight == 1
    s = act(s, WriteOff(a))
    assert ("A0 written off", -5) in entries(s, 0)
    s = auto(s, in_rnd(3))
    assert up(s, "A").rations == 0 and not derp(s, crew_a[0]).injured
    assert s.programs[0].longest_crewed_flight == 1 and up(s, "A").crewed_turns == 1  # no record for a wreck
    s = auto(s, in_rnd(4))
    assert derp(s, crew_a[0]).injured and not derp(s, crew_a[0]).dead
    assert "A has run out of rations." in [e.text for e in s.events]
    assert up(s, "A").status == "written_off"
    s = auto(s, in_rnd(5))
    assert derp(s, crew_a[0]).dead and up(s, "A").status == "debris"
    texts = [e.text for e in s.events]
    assert "A0 is lost (a second injury (no rations left))." in texts
    assert "Nobody is left alive aboard the wreck of A: it is debris now." in texts
    assert "End of turn 4, Hop: no changes. Budget 44 -> 44." in texts  # the death costs nothing more
    assert s.programs[0].derps_lost == 0


def test_rations_delivered_to_a_written_off_crew_keep_it_alive_until_rescue():
    """A rescue is a race against the wreck's rations, and a rival may also win it by handing rations across
    (a transfer between docked craft; "a rations delivery to a spacecraft that requires it", 2014). A is written
    off with one derp-turn left; on turn 3 B docks with the wreck and hands it two: A0 eats instead of going
    hungry, and B wins Rations Delivery."""
    s, (crew_a, _), (crew_b, _) = pair_in_orbit(a=dict(rations=2))
    a, b = uid(s, "A"), uid(s, "B")
    s = auto(s, at("A", "before"))
    s = act(s, WriteOff(a))
    s = auto(s, in_rnd(3))
    assert up(s, "A").rations == 0 and up(s, "A").location == up(s, "B").location
    s = auto(s, at("B", "before"))
    s = roll(act(s, Dock(a, crew_b[0])), OK)
    s = act(s, Transfer(b, a, rations=2))
    assert up(s, "A").rations == 2 and firsts(s)["first_rations_delivery"] == 1
    s = auto(s, in_rnd(4))
    assert up(s, "A").rations == 1 and not derp(s, crew_a[0]).injured and derp(s, crew_a[0]).owner == 0


def test_a_wreck_emptied_by_its_rescuer_is_debris_at_the_turns_end():
    """Once the rescuer has taken the whole crew across, nobody is aboard the wreck: at the turn's end it is
    debris, as a craft written off empty is ("write off an unoccupied Upgoer ... as space debris")."""
    s, a, b, crew_a, crew_b = written_off_and_taken_across()
    s = auto(s, in_rnd(3))
    assert up(s, "A").status == "debris" and up(s, "A").docked_with == () and up(s, "B").docked_with == ()
    assert derp(s, crew_a[0]).location == b and not derp(s, crew_a[0]).dead


def test_rescue_mission_pays_a_dot_per_derp_and_luck_for_rescued_rivals():
    s, (crew_a, _), (crew_b, _) = stranded_a()
    a, b = uid(s, "A"), uid(s, "B")
    s = auto(s, at("B", "after"))
    s = roll(act(s, Dock(a, crew_b[0])), OK)
    luck = s.programs[1].luck
    s = act(s, Transfer(a, b, derps=(crew_a[0],)))
    assert ("Rescue Mission (A0)", 1) in entries(s, 1)
    assert ("A0 rescued by a rival", -1) in entries(s, 0)
    assert s.programs[1].luck == luck + 1
    assert derp(s, crew_a[0]).owner == 0  # a rescue, not a defection


# ====================================================================== prestige firsts
def test_mission_step_and_orbit_type_firsts_go_to_the_first_program_once():
    s, _, _ = pair_in_orbit()
    s = auto(s, in_rnd(2))
    f = firsts(s)
    for key in ("first_mission_step:Launch", "first_mission_step:Orbital Insertion", "first_mission_step:Low Orbit",
                "first_orbit_type:low", "first_multiturn"):
        assert f[key] == 0
    assert [c for c, _ in s.firsts].count("first_orbit_type:low") == 1
    # A: three new steps, three step firsts, the orbit type, the multi-turn mission; B: three new steps.
    assert s.programs[0].dots == 40 + 3 + 3 + 1 + 2
    assert s.programs[1].dots == 40 + 3


def test_new_step_dots_count_each_step_name_once():
    s, _, _ = pair_in_orbit()
    s = auto(s, in_rnd(4))  # low_1 -> low_2 -> low_3: all "Low Orbit"
    assert up(s, "B").location == "low_3"
    assert s.programs[1].dots == 40 + 3


def test_first_orbit_type_with_a_mapping_payload_maps_the_nearest_body():
    s, _, _ = pair_in_orbit(a=dict(mods=("capsule", "thruster", "rcs", "mapping")))
    assert s.programs[0].mapped("world") == R.prestige.mapping_percent_per_turn
    assert s.programs[1].mapped("world") == 0


def test_synchronous_orbit_first_maps_the_moon():
    s, _, _ = pair_in_orbit(a=dict(mods=("capsule", "thruster", "rcs", "mapping")))
    s = auto(s, at("A", "junction"))  # turn 2, high transfer burn
    s = act(s, Burn("high_transfer"))
    s = auto(s, at("A", "after"))
    assert up(s, "A").location == "high_transfer"
    s = auto(s, in_rnd(3))
    s = auto(s, at("A", "after"))
    assert R.board.step(up(s, "A").location).orbit_type == "synchronous"
    assert firsts(s)["first_orbit_type:synchronous"] == 0
    assert s.programs[0].mapped("moon") == 5


def test_multiderp_first():
    s, _, _ = pair_in_orbit(b=dict(crew=((3, 2, 4), (1, 1, 2))))
    assert firsts(s)["first_multiderp"] == 1
    assert ("Prestige First - multi-derp mission", 2) in entries(s, 1)


def test_gravity_slingshot_first_via_a_probe():
    s, (crew_a, ids_a), _ = pair_in_orbit(a=dict(mods=("capsule", "thruster", "rcs", "probe")))
    probe = ids_a["probe"][0]
    s = auto(s, in_rnd(2))
    low = auto(act(act(s, EndRnD()), EndRnD()), at("A", "before"))
    illegal(low, UsePayload(crew_a[0], probe), "escape burn")  # Low Orbit offers no escape burn
    s = edit_upgoer(s, "A", location="sync_2")  # moved to synchronous orbit directly
    s = act(act(s, EndRnD()), EndRnD())
    s = auto(s, at("A", "before"))
    s = roll(act(s, UsePayload(crew_a[0], probe)), OK)
    assert s.find("item", probe) is None
    assert firsts(s)["first_gravity_slingshot"] == 0
    assert ("Prestige First - gravity slingshot", 2) in entries(s, 0)


def fly_home(s, name, value=OK):
    """From the third Low Orbit step: deorbit burn, reentry, landing, home."""
    s = auto(s, at(name, "junction"))
    assert up(s, name).location == "low_burn_3"
    s = act(s, Burn("reentry"))
    return auto(s, lambda x: up(x, name).status != "flying", value=value)


def test_reusable_capsule_first_on_the_second_reentry():
    s, (crew_a, ids_a), _ = pair_in_orbit(a=dict(reusable=("capsule",)))
    s = auto(s, in_rnd(2))
    # This capsule and craft have come back once already (set directly); A waits at the third low step.
    s = edit_item(s, ids_a["capsule"][0], reentries=1)
    s = edit_upgoer(s, "A", location="low_3", reentries=1)
    s = act(act(s, EndRnD()), EndRnD())
    s = fly_home(s, "A")
    assert up(s, "A").status == "landed"
    f = firsts(s)
    assert f["first_reusable_capsule"] == 0
    assert ("Prestige First - reusable capsule", 1) in entries(s, 0)
    # Its thruster is too small to land it home, so this craft is not a reusable vessel (see
    # tests/test_fidelity_rules.py for the reusable Upgoer first won in play).
    assert "first_reusable_upgoer" not in f


def test_a_first_reentry_is_not_a_reusable_first():
    s, _, _ = pair_in_orbit(a=dict(reusable=("capsule",)))
    s = auto(s, in_rnd(2))
    s = edit_upgoer(s, "A", location="low_3")
    s = act(act(s, EndRnD()), EndRnD())
    s = fly_home(s, "A")
    assert "first_reusable_capsule" not in firsts(s)


def test_moon_landing_and_return_first():
    s, _, _ = pair_in_orbit()
    s = auto(s, in_rnd(2))
    s = edit_upgoer(s, "A", location="low_3", bodies_landed=("moon",))  # back from the Moon (set directly)
    s = act(act(s, EndRnD()), EndRnD())
    s = fly_home(s, "A")
    assert firsts(s)["first_moon_landing"] == 0
    assert ("Prestige First - Moon landing and return", 5) in entries(s, 0)


def test_prestige_dots_arrive_at_the_end_of_the_turn():
    s, _, (crew_b, _) = pair_in_orbit()
    dots = s.programs[1].dots
    s = roll(act(s, Dock(uid(s, "A"), crew_b[0])), OK)
    assert s.programs[1].dots == dots
    s = auto(s, in_rnd(2))
    assert s.programs[1].dots == dots + 3 + 2


# ====================================================================== standing bonuses
def test_space_party_and_duration_mission_move_between_programs():
    s, _, _ = pair_in_orbit(b=dict(crew=((3, 2, 4), (1, 1, 2))))
    s = auto(s, in_rnd(2))
    standing = dict(s.standing)
    assert standing["space_party"] == 1
    assert "duration_mission" not in standing  # a tie with nobody holding it
    # B comes home (set directly); A is the only crew in space.
    s = edit_upgoer(s, "B", status="landed", location="home")
    for d in up(s, "B").crew:
        s = edit_derp(s, d, location=HOME)
    s = act(act(s, EndRnD()), EndRnD())
    s = auto(s, in_rnd(3))
    standing = dict(s.standing)
    assert standing["space_party"] == 0 and standing["duration_mission"] == 0


def test_standing_bonus_dots_move_with_the_bonus():
    """"This bonus will be moved around": the holder gains its dots once and gives them up when it moves."""
    s, _, _ = pair_in_orbit(b=dict(crew=((3, 2, 4), (1, 1, 2))))
    s = auto(s, in_rnd(2))
    report = [e.text for e in s.events if e.text.startswith("End of turn")]
    assert any("Space Party +2" in t for t in report if "Spud" in t or "B" in t)
    s = act(act(s, EndRnD()), EndRnD())
    s = auto(s, in_rnd(3))  # B still holds it: no new dots for it
    report = [e.text for e in s.events if e.text.startswith("End of turn")]
    assert not any("Space Party" in t for t in report)


def deorbit_at_the_first_burn(s, name):
    """``name`` takes the first deorbit burn it meets and flies on (every roll OK) until it is home."""
    s = auto(s, at(name, "junction"))
    s = act(s, Burn("reentry"))
    return auto(s, lambda x: up(x, name).status != "flying")


def turn_end_story(s):
    """The story of the action that ended the turn, from its first standing bonus on: (kind, program, words)."""
    told = [(e.kind, e.program, e.text) for e in s.events]
    first = next(i for i, (kind, _, _) in enumerate(told) if kind in ("standing", "report"))
    return told[first:]


def test_the_story_says_who_gets_each_standing_bonus_after_the_flights_and_before_the_budgets():
    """The standing bonuses' words are the story's, between the last flight's words and the budgets they move:
    Spud's two derps win Space Party; when B comes home it passes to Hop, whose A also stays up longest;
    when A lands nobody holds it and Hop gives its dots back."""
    s, _, _ = pair_in_orbit(b=dict(crew=((3, 2, 4), (1, 1, 2))))
    s = auto(s, in_rnd(2))
    story = turn_end_story(s)
    assert story[0] == ("standing", 1, "Space Party goes to Spud: +2 dots to its budget while it holds the bonus.")
    assert [kind for kind, _, _ in story[1:]] == ["report", "report", "turn"]
    assert story[2][2].endswith("Space Party +2. Budget 40 -> 47.")
    s = act(act(s, EndRnD()), EndRnD())
    s = deorbit_at_the_first_burn(s, "B")
    s = auto(s, in_rnd(3))
    assert [e.text for e in s.events[:2]] == [
        "B: landing roll for Capsule T16 - rolled 1 against Fail 14 / Boom 18: OK.",
        "B lands safely at home. Spud gains 2 luck for derps back from new places."]
    assert turn_end_story(s)[:3] == [
        ("standing", 0, "Duration Mission goes to Hop: +2 dots to its budget while it holds the bonus."),
        ("standing", 0, "Space Party passes from Spud to Hop, and its 2 dots with it."),
        ("report", 0, "End of turn 2, Hop: Duration Mission +2; Space Party +2. Budget 49 -> 53.")]
    s = act(act(s, EndRnD()), EndRnD())
    s = deorbit_at_the_first_burn(s, "A")
    s = auto(s, in_rnd(4))
    assert turn_end_story(s) == [
        ("standing", 0, "Space Party is nobody's now, with no crew in space: Hop gives up its 2 dots."),
        ("report", 0, "End of turn 3, Hop: new step Reentry +1; new step Landing +1; Space Party lost -2. "
                      "Budget 53 -> 53."),
        ("report", 1, "End of turn 3, Spud: no changes. Budget 49 -> 49."),
        ("turn", None, "Turn 4 begins: each program gets points equal to its budget dots.")]
    assert dict(s.standing) == {"duration_mission": 0}


def test_space_party_is_unassigned_without_crew_in_space():
    s, _, _ = pair_in_orbit(b=dict(crew=((3, 2, 4), (1, 1, 2))))
    s = auto(s, in_rnd(2))
    for name in ("A", "B"):
        s = edit_upgoer(s, name, status="landed", location="home")
        for d in up(s, name).crew:
            s = edit_derp(s, d, location=HOME)
    s = act(act(s, EndRnD()), EndRnD())
    s = auto(s, in_rnd(3))
    assert "space_party" not in dict(s.standing)


# ====================================================================== Positioning System and mapping
def test_positioning_system_adds_one_piloting_per_orbit_type_up_to_three():
    s, (crew_a, _), _ = pair_in_orbit(a=dict(crew=((1, 3, 4),)))
    assert FR.positioning_bonus(s, 0) == 0
    # Waylights already shining around the world and the Moon (placed directly).
    placed = s
    for n, where in enumerate(("polar_1", "polar_3", "sync_2", "low_lunar_1", "lunar_polar_1")):
        placed, _, it = give_thing(placed, R, 0, "waylight", 1, "15/18", count=1)
        placed = edit_item(placed, it[0], location=f"W{n}", active=True)
        placed = dataclasses.replace(placed, upgoers=placed.upgoers + (update(up(placed, "A"), id=f"W{n}", name=f"W{n}", location=where, modules=(it[0],), crew=(), docked_with=()),))
    assert FR.positioning_bonus(placed, 0) == 3
    assert FR.positioning_bonus(placed, 1) == 0
    one = s
    one, _, it = give_thing(one, R, 0, "waylight", 1, "15/18", count=1)
    one = edit_item(one, it[0], location="W0", active=True)
    one = dataclasses.replace(one, upgoers=one.upgoers + (update(up(one, "A"), id="W0", name="W0", location="polar_1", modules=(it[0],), crew=(), docked_with=()),))
    assert FR.piloting(one, derp(one, crew_a[0])) == 2


def test_waylight_switches_on_in_orbit():
    s, (crew_a, ids_a), _ = pair_in_orbit(a=dict(mods=("capsule", "thruster", "rcs", "waylight")))
    s = auto(s, in_rnd(2))
    s = edit_upgoer(s, "A", location="polar_1")
    s = act(act(s, EndRnD()), EndRnD())
    s = auto(s, at("A", "before"))
    s = roll(act(s, UsePayload(crew_a[0], ids_a["waylight"][0])), OK)
    assert item(s, ids_a["waylight"][0]).active
    assert FR.positioning_bonus(s, 0) == 1


def test_mapping_five_percent_a_turn_in_polar_orbit_and_no_more_asking_for_directions():
    s, _, _ = pair_in_orbit(a=dict(mods=("capsule", "thruster", "rcs", "mapping")))
    s = auto(s, in_rnd(2))
    mapped = s.programs[0].mapped("world")
    s = edit_upgoer(s, "A", location="polar_1")
    s = act(act(s, EndRnD()), EndRnD())
    s = auto(s, in_rnd(3))
    assert up(s, "A").location == "polar_2"
    # First into a polar orbit: one mapping step; then 5% for the turn spent there.
    assert firsts(s)["first_orbit_type:polar"] == 0
    assert s.programs[0].mapped("world") == mapped + 5 + 5
    assert dict(s.standing)["no_more_asking_for_directions"] == 0


# ====================================================================== timing
def test_launches_then_insertions_then_flight_steps():
    # A flies from turn 1; in turn 2 B launches: B's launch and insertion come before A's flight step.
    s = new_game()
    s, da, _, _ = kit(s, 0, "A")
    s, db, _, _ = kit(s, 1, "B", rating="12/16")  # a worse rocket: still earlier than A's move
    s = start(s, [da], [])
    s = auto(s, in_rnd(2))
    s = start(s, [], [db])
    stages = []
    s = auto(s, lambda x: (x.phase == "flight" and x.flight.active is not None
                           and stages.append((x.flight.stage, x.upgoer(x.flight.active).name))) or x.phase == "rnd")
    order = [p for i, p in enumerate(stages) if i == 0 or stages[i - 1] != p]
    assert order == [("launch", "B"), ("insertion", "B"), ("moves", "A")]


def test_the_likelier_part_goes_first():
    s = new_game()
    s, da, _, _ = kit(s, 0, "A", rating="12/18")
    s, db, _, _ = kit(s, 1, "B", rating="15/18")
    s = start(s, [da], [db])
    assert at("B", "decide")(s)
    s = act(s, Launch(uid(s, "B")))
    s = roll(s, OK)
    assert at("A", "decide")(s)
    s = act(s, Launch(uid(s, "A")))
    s = roll(s, OK)
    assert s.flight.stage == "insertion" and s.flight.active == uid(s, "B")


def test_a_tie_goes_to_the_lower_budget():
    s = new_game()
    s, da, _, _ = kit(s, 0, "A")
    s, db, _, _ = kit(s, 1, "B")
    s = dataclasses.replace(s, programs=(update(s.programs[0], dots=38),) + s.programs[1:])
    s = start(s, [da], [db])
    assert at("A", "decide")(s)


def test_a_full_tie_is_a_coin_toss_chance_outcome():
    s = new_game()
    s, da, _, _ = kit(s, 0, "A")
    s, db, _, _ = kit(s, 1, "B")
    s = start(s, [da], [db])
    assert E.current_player(s) == CHANCE
    outcomes = E.chance_outcomes(s)
    assert [p for _, p in outcomes] == [Fraction(1, 2), Fraction(1, 2)]
    tied = s.flight.timing_tie
    s = roll(s, 2)
    assert s.flight.active == tied[1]


def test_wait_lets_the_others_go_first():
    s = new_game()
    s, da, _, _ = kit(s, 0, "A")
    s, db, _, _ = kit(s, 1, "B", rating="14/18")
    s = start(s, [da], [db])
    assert at("A", "decide")(s)
    s = act(s, Wait(uid(s, "A")))
    assert at("B", "decide")(s)
    s = roll(act(s, Launch(uid(s, "B"))), OK)
    assert at("A", "decide")(s)
    illegal(s, Wait(uid(s, "A")))


# ====================================================================== options
def test_hostile_waters_penalises_unvisited_steps_only():
    s = new_game(("hostile_waters",))
    s, da, _, _ = kit(s, 0, "A")
    s, db, _, _ = kit(s, 1, "B", rating="14/18")
    s = start(s, [da], [db])
    s = act(s, Launch(uid(s, "A")))
    assert s.flight.roll.rating == Rating(13, 16)
    s = auto(s, rolling("duration_capsule", "A"))
    assert s.flight.roll.rating == Rating(13, 16)  # Low Orbit is new
    s = roll(s, OK)
    s = auto(s, rolling("duration_capsule", "A"))  # turn 2, the second Low Orbit step: same name
    assert up(s, "A").location == "low_2" and s.flight.roll.rating == Rating(15, 18)


def test_without_hostile_waters_no_penalty():
    s = new_game()
    s, da, _, _ = kit(s, 0, "A")
    s, db, _, _ = kit(s, 1, "B", rating="14/18")
    s = start(s, [da], [db])
    s = act(s, Launch(uid(s, "A")))
    assert s.flight.roll.rating == Rating(15, 18)


def test_plan_ahead_removes_the_activities_after_moving():
    s = new_game(("plan_ahead",))
    s, da, _, _ = kit(s, 0, "A")
    s, db, crew_b, _ = kit(s, 1, "B", rating="14/18")
    s = start(s, [da], [db])
    s = auto(s, lambda x: x.phase == "rnd" or at("B", "after")(x))
    assert s.phase == "rnd"
    s = act(act(s, EndRnD()), EndRnD())
    s = auto(s, at("A", "before"))
    assert any(isinstance(a, Dock) for a in E.legal_actions(s))


# ====================================================================== dots
def test_dots_are_clamped_between_30_and_70():
    s, _, _ = pair_in_orbit()
    s = dataclasses.replace(s, programs=(update(s.programs[0], dots=69), update(s.programs[1], dots=31)))
    s = E.add_dots(s, 1, -5, "test")
    s = auto(s, in_rnd(2))
    assert s.programs[0].dots == 70 and s.programs[1].dots == 30


def test_a_lost_derp_costs_five_dots():
    s, (crew_a, _), _ = pair_in_orbit()
    s = edit_derp(s, crew_a[0], injured=True)
    s = FR._injure(s, up(s, "A"), [derp(s, crew_a[0])], "test")
    assert derp(s, crew_a[0]).dead
    assert ("A0 lost", -5) in entries(s, 0)


def test_a_craft_written_off_empty_lets_go_of_the_craft_it_was_docked_to_on_both_sides():
    """A craft written off with nobody aboard is debris and undocks, as a wreck emptied at the turn's end does
    ("write off an unoccupied Upgoer ... as space debris", 2014). Hop flies A and B to the first Low Orbit step,
    B docks with A, hands its derp across and is written off empty: neither craft lists the other as docked any
    more. (Before, B let go of A but A still listed B, and carried the debris along as a docked partner.)"""
    s = new_game(players=1)
    s, da, crew_a, _ = kit(s, 0, "A")
    s, db, crew_b, _ = kit(s, 0, "B")
    s = start(s, [da, db])
    s = auto(s, at("B", "after"))
    a, b = uid(s, "A"), uid(s, "B")
    assert up(s, "A").location == up(s, "B").location == "low_1"
    s = roll(act(s, Dock(a, crew_b[0])), OK)
    assert up(s, "A").docked_with == (b,) and up(s, "B").docked_with == (a,)
    s = act(s, Transfer(b, a, derps=(crew_b[0],)))
    assert derp(s, crew_b[0]).location == a
    before = s
    s = act(s, WriteOff(b))
    assert up(s, "B").status == "debris"
    assert up(s, "B").docked_with == () and up(s, "A").docked_with == ()
    assert check_invariants(E, before, WriteOff(b), s) == []  # simulate's docking_agrees_both_ways found the old way
    texts = [e.text for e in s.events]
    told = texts.index("B undocks from A as it is written off.")
    assert texts[told + 1] == "B is written off and becomes debris."
    s = auto(s, in_rnd(2))  # the turn ends (B moved last): A flies on alone
    assert up(s, "A").docked_with == () and up(s, "A").status == "flying"


def test_a_craft_docked_to_debris_nobody_tracks_lets_go_when_it_drifts_out_of_sight():
    """"Debris that no player wants to track are removed from the board" (2014, Flight steps), and docking is
    recorded on both craft. Hop flies A, B and C to the first Low Orbit step; B hands its derp to A and is
    written off empty; C docks with the debris. Hop cannot track its own debris, so at the next flight phase
    it drifts out of sight and C no longer lists it as docked. (Before, C kept the gone debris's id among its
    partners, and undocking from it crashed the engine.)"""
    s = new_game(players=1)
    s, da, _, _ = kit(s, 0, "A")
    s, db, crew_b, _ = kit(s, 0, "B")
    s, dc, crew_c, _ = kit(s, 0, "C")
    s = give_stock(s, 0, points=100, fuel=40, rations=40)
    s = start(s, [da, db, dc])
    s = auto(s, at("B", "after"))
    a, b, c = uid(s, "A"), uid(s, "B"), uid(s, "C")
    s = roll(act(s, Dock(a, crew_b[0])), OK)
    s = act(act(s, Transfer(b, a, derps=(crew_b[0],))), WriteOff(b))
    s = auto(s, at("C", "after"))
    s = roll(act(s, Dock(b, crew_c[0])), OK)
    assert up(s, "B").status == "debris" and up(s, "B").docked_with == (c,) and up(s, "C").docked_with == (b,)
    s = auto(s, in_rnd(2))
    assert up(s, "B").location == up(s, "C").location == "low_1"  # the debris stays with the craft holding it
    before = s
    s = act(s, EndRnD())  # the flights begin: nobody tracked B
    assert s.find("upgoer", b) is None and up(s, "C").docked_with == ()
    assert "Nobody tracks the debris of B; it drifts out of sight." in [e.text for e in s.events]
    assert check_invariants(E, before, EndRnD(), s) == []
    illegal(s, Undock(b), "not docked")


def test_wrecks_docked_together_let_go_of_each_other_as_they_leave_the_worlds_pull(rules_dir):
    """Debris "that leaves the world's pull is gone" with whoever is aboard, and docking is recorded on both
    craft: two wrecks docked together drift out of the world's pull together, and each lets go of the other.
    The shipped board has no rail that coasts into Escape, so a house board does (Low Orbit's burn
    junction before the first Low Orbit step coasts on to Escape instead). A docks with B at the fourth Low
    Orbit step and is written off; next turn B is written off too, and at the turn's end both drift out,
    undocked. (Before, both left play still listing each other as docked.)"""
    from tests.test_rules_tables import edit  # noqa: PLC0415
    edit(rules_dir, "board.yaml", "    rail: low_orbit\n    next: low_1\n", "    rail: low_orbit\n    next: escape\n")
    engine = Engine(load_rules(rules_dir))
    s = engine.new_game(Setup((PlayerSetup("Hop", "rabitians"),), turn_limit=20, dice="d20"))
    s, da, crew_a, _ = kit(s, 0, "A")
    s, db, crew_b, _ = kit(s, 0, "B")
    s, a = place_in_space(s, engine, 0, da, "low_4")
    s, b = place_in_space(s, engine, 0, db, "low_4")
    s = engine.apply(s, EndRnD())
    assert s.flight.active == a and s.flight.roll is None
    s = engine.apply(engine.apply(s, Dock(b, crew_a[0])), Roll(OK))
    s = engine.apply(s, WriteOff(a))  # B, docked before it moved, moves no more this turn: the turn ends
    assert s.turn == 2 and s.upgoer(a).location == s.upgoer(b).location == "low_4"  # the wreck held by B
    s = engine.apply(s, EndRnD())
    assert s.flight.active == b and s.flight.roll is None
    assert s.upgoer(a).docked_with == (b,) and s.upgoer(b).docked_with == (a,)
    before = s
    s = engine.apply(s, WriteOff(b))  # nobody else flies: the turn ends, and the wrecks drift last
    assert s.phase == "rnd" and s.turn == 3
    assert s.upgoer(a).status == s.upgoer(b).status == "escaped"
    assert s.upgoer(a).docked_with == s.upgoer(b).docked_with == ()
    assert all(derp(s, d).dead for d in crew_a + crew_b)
    assert "A undocks from B as it leaves the world's pull." in [e.text for e in s.events]
    assert check_invariants(engine, before, WriteOff(b), s) == []
