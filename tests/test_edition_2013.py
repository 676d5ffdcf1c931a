"""The 2013 edition (rules/whatgoesup/2013/): one named scenario per difference from 2014, played through real
actions with forced rolls, each against the same scenario under 2014 where the two differ in play.

docs/editions.md lists every difference and the test that covers it. Parts rate 15/18 on a d20 unless a test
says otherwise: 1-14 OK, 15-17 Fail, 18-20 Boom; under 2013 a program's first attempt at a step rolls against
13/18 (its Fail safety two lower).
"""
from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest

from game.games.whatgoesup.rules.actions import (AnswerTrade, Assemble, Build, EndRnD, Invent, OfferTrade, Research,
                                                 ReverseEngineer, Roll, TradeBundle)
from game.games.whatgoesup.rules.editions import load_edition
from game.games.whatgoesup.rules.engine import CHANCE, TERMINAL, Engine, IllegalAction
from game.games.whatgoesup.rules.flight_actions import (AcceptRoll, Burn, Coast, Dock, EndActivities, Eva, JuryRig,
                                                        Launch, Move, UsePayload, UseSkill, Wait)
from game.games.whatgoesup.rules.reliability import Rating
from game.games.whatgoesup.rules.scenario import give_derp, give_stock, give_thing
from game.games.whatgoesup.rules.state import HOME, PlayerSetup, Setup, UpgoerDesign, update, with_program

R13, R14 = load_edition("2013"), load_edition("2014")
E13, E14 = Engine(R13), Engine(R14)
OK, FAIL, BOOM = 1, 16, 19  # against 15/18 (and 13/18)


# ====================================================================== helpers
def new_game(engine, players=2, options=()):
    ps = (PlayerSetup("Hop", "rabitians"), PlayerSetup("Spud", "merbs"))[:players]
    return engine.new_game(Setup(ps, turn_limit=20, options=frozenset(options), dice="d20"))


def kit(engine, s, p, name, crew=((3, 2, 4),), mods=("capsule", "thruster", "rcs"), rating="15/18", fuel=10,
        rations=6, stages=3, masses=None):
    """Give program ``p`` a researched craft: three lower stages (two clustered for launch, one for insertion)
    or one; returns (state, design, derp ids, item ids by kind). ``masses`` overrides a kind's mass."""
    rules = engine.rules
    s, _, st = give_thing(s, rules, p, "lower_stage", 60, rating, count=stages)
    ids: dict[str, list[str]] = {}
    modules = []
    for k in mods:
        mass = {"capsule": 14, "habitat": 4, "thruster": 4, **(masses or {})}.get(k, 1)
        s, _, it = give_thing(s, rules, p, k, mass, rating, count=1)
        modules.append(it[0])
        ids.setdefault(k, []).append(it[0])
    derps = []
    for i, (pi, en, sta, *left) in enumerate(crew):  # (piloting, engineering, stamina[, stamina left])
        s, d = give_derp(s, p, f"{name}{i}", pi, en, sta, current_stamina=left[0] if left else None, rules=rules)
        derps.append(d)
    s = give_stock(s, p, points=100, fuel=40, rations=40)
    design = UpgoerDesign(name, stages=((st[0], st[1]), (st[2],)) if stages == 3 else ((st[0],),), modules=tuple(modules), crew=tuple(derps),
                          fuel=fuel if "thruster" in mods else 0, rations=rations if derps else 0)
    report = engine.check_design(s, p, design)
    assert report.valid, report.problems
    return s, design, derps, ids


def start(engine, s, *designs):
    """Each program in turn assembles its designs and ends R&D."""
    for ds in designs:
        for d in ds:
            s = engine.apply(s, Assemble(d))
        s = engine.apply(s, EndRnD())
    return s


def up(s, name):
    return next(u for u in s.upgoers if u.name == name)


DEFAULT = (Launch, EndActivities, Move, Coast, AcceptRoll, EndRnD)


def auto(engine, s, until, value=OK, burn_to=None, limit=400):
    """Play the obvious choice (launch, move on, coast or burn to ``burn_to``, accept, end) rolling ``value``."""
    for _ in range(limit):
        if until(s):
            return s
        p = engine.current_player(s)
        assert p != TERMINAL, "the game ended"
        if p == CHANCE:
            s = engine.apply(s, Roll(value))
            continue
        legal = engine.legal_actions(s)
        if burn_to is not None:
            burns = [a for a in legal if isinstance(a, Burn) and a.to == burn_to and not a.rcs]
            if burns:
                s = engine.apply(s, burns[0])
                continue
        for kind in DEFAULT:
            found = [a for a in legal if isinstance(a, kind)]
            if found:
                s = engine.apply(s, found[0])
                break
        else:
            raise AssertionError(f"no default among {legal}")
    raise AssertionError("the condition was never reached")


def rolling(kind, name=None):
    def check(s):
        f = s.flight
        return (s.phase == "flight" and f is not None and f.roll is not None and f.roll.value is None
                and f.roll.kind == kind and (name is None or s.upgoer(f.roll.upgoer).name == name))
    return check


def acting(name, mode):
    def check(s):
        f = s.flight
        return (s.phase == "flight" and f is not None and f.roll is None and f.choice is None and not f.timing_tie
                and f.active is not None and s.upgoer(f.active).name == name and f.mode == mode)
    return check


def roll(engine, s, value):
    """Roll ``value`` for the pending roll and accept it."""
    s = engine.apply(s, Roll(value))
    if engine.current_player(s) != CHANCE and any(isinstance(a, AcceptRoll) for a in engine.legal_actions(s)):
        s = engine.apply(s, AcceptRoll())
    return s


def in_rnd(turn):
    return lambda s: s.phase == "rnd" and s.turn == turn


# ====================================================================== the tables
def test_check_rules_passes_on_the_2013_folder():
    from game.games.whatgoesup.rules.tables import check_rules
    from game.games.whatgoesup.rules.editions import edition_folder
    rules, problems = check_rules(edition_folder("2013"))
    assert problems == [] and rules.edition.id == "2013" and rules.edition.name == "What Goes Up (2013 rules)"


def test_2013_takes_every_table_it_does_not_change_from_2014():
    assert R13.board == R14.board and R13.dice == R14.dice and R13.peoples == R14.peoples
    assert R13.scenarios == R14.scenarios
    assert R13.option_ids == tuple(o for o in R14.option_ids if o != "simulationist")  # no caps to lift
    assert R13.economy.costs == R14.economy.costs and R13.components.kinds == R14.components.kinds
    assert R13.digest != R14.digest


def test_2013_prestige_values():
    firsts = {f.id: f.dots for f in R13.prestige.firsts}
    assert firsts == {"first_docking": 2, "first_eva": 2, "first_multiturn": 2, "first_multiderp": 2,
                      "first_rations_delivery": 2, "first_reusable_capsule": 2, "first_reusable_upgoer": 2,
                      "first_gravity_slingshot": 2, "first_rock_landing": 5, "first_moon_landing": 10,
                      "lucky_13": 2}
    assert {f.id: f.dots for f in R14.prestige.firsts}["first_moon_landing"] == 5
    assert next(f for f in R13.prestige.firsts if f.id == "first_gravity_slingshot").name == \
        "Prestige First - escaped probe"
    assert [(b.id, b.kind, b.dots) for b in R13.prestige.standing] == [
        ("no_more_asking_for_directions", "most_mapping", 2), ("space_station", "longest_working_flight", 3)]
    assert [(a.id, a.kind, a.dots) for a in R13.prestige.mission_awards] == [
        ("all_according_to_plan", "flawless_multiturn_return", 1)]
    assert R14.prestige.mission_awards == ()


# ====================================================================== budgets and dots
def test_2013_an_empty_sky_costs_a_dot_and_the_budget_never_drops_below_20():
    s = new_game(E13)
    assert [p.dots for p in s.programs] == [40, 40]
    s = with_program(s, update(s.programs[0], dots=20))  # a program already at the 2013 floor
    s = E13.apply(E13.apply(s, EndRnD()), EndRnD())
    assert s.phase == "rnd" and s.turn == 2
    assert [p.dots for p in s.programs] == [20, 39]
    report = next(e.text for e in s.events if e.text.startswith("End of turn 1, Hop"))
    assert report == "End of turn 1, Hop: no Upgoer in space -1. Budget 20 -> 20 (held at the floor of 20)."


def test_2014_an_empty_sky_costs_nothing_and_its_floor_is_30():
    s = new_game(E14)
    s = with_program(s, update(s.programs[0], dots=20))
    s = E14.apply(E14.apply(s, EndRnD()), EndRnD())
    assert [p.dots for p in s.programs] == [30, 40]


def suborbital_hop(engine, dots=40):
    """Program 0 flies an uncrewed one-stage hop (launch, then it falls back through reentry) on turn 1."""
    s = new_game(engine)
    s, design, _, _ = kit(engine, s, 0, "Hopper", crew=(), mods=(), stages=1)
    s = with_program(s, update(s.programs[0], dots=dots))
    s = start(engine, s, [design], [])
    s = auto(engine, s, rolling("launch"))
    s = engine.apply(s, Roll(OK))
    assert s.phase == "rnd" and s.turn == 2
    return s, next(e.text for e in s.events if e.text.startswith("End of turn 1, Hop"))


def test_2013_a_step_nobody_reached_pays_three_dots_and_the_budget_stops_at_60():
    s, report = suborbital_hop(E13, dots=59)
    assert report == ("End of turn 1, Hop: new step Launch +1; nobody had reached Launch +2; new step Reentry +1; "
                      "nobody had reached Reentry +2; no Upgoer in space -1. Budget 59 -> 60 (held at the ceiling "
                      "of 60).")
    assert s.programs[0].dots == 60


def test_2014_a_step_nobody_reached_pays_the_prestige_first_instead():
    s, report = suborbital_hop(E14)
    assert report == ("End of turn 1, Hop: new step Launch +1; Prestige First - mission step (Launch) +1; new step "
                      "Reentry +1; Prestige First - mission step (Reentry) +1. Budget 40 -> 44.")


# ====================================================================== research
def test_2013_research_has_no_caps_for_things_that_never_flew():
    for engine, expected in ((E13, "11/15"), (E14, None)):
        s = new_game(engine)
        s, thing, _ = give_thing(s, engine.rules, 0, "capsule", 4, "10/15", flown=False)
        s = give_stock(s, 0, points=20)
        action = Research(thing, "fail")
        if expected is None:
            with pytest.raises(IllegalAction):
                engine.apply(s, action)
        else:
            assert str(engine.apply(s, action).thing(thing).rating) == expected


def test_2013_research_still_reaches_a_part_in_flight():
    """'Research makes ALL things of that type get better, regardless of when you bought it' (no 2014 exception)."""
    results = {}
    for engine in (E13, E14):
        s = new_game(engine)
        s, design, _, ids = kit(engine, s, 0, "Lofty")
        s = start(engine, s, [design], [])
        s = auto(engine, s, in_rnd(2))  # launched, in low orbit at the end of turn 1
        capsule = s.item(ids["capsule"][0])
        assert up(s, "Lofty").in_space and capsule.location == up(s, "Lofty").id
        s = engine.apply(s, Research(capsule.thing_id, "fail"))
        results[engine.rules.edition.id] = str(engine.item_rating(s, s.item(capsule.id)))
    assert results == {"2013": "16/18", "2014": "15/18"}


def test_2013_reverse_engineering_repeats_only_towards_heavier_designs():
    """'This can be repeated, but only if the new thing has more mass than the older' (2014: once per pair)."""
    def rival_hardware(engine):
        s = new_game(engine)
        s = give_stock(s, 0, points=200)
        items = []
        for mass in (4, 3, 5):
            s = engine.apply(s, Invent("capsule", mass))
            s = engine.apply(s, Build(s.things[-1].id, 1))
            items.append(s.items[-1].id)
        s = engine.apply(s, OfferTrade(1, give=TradeBundle(items=tuple(items), dots=1)))
        s = engine.apply(s, AnswerTrade(True))
        return engine.apply(s, EndRnD()), items

    s, (four, three, five) = rival_hardware(E13)
    s = E13.apply(s, ReverseEngineer(four))
    assert ReverseEngineer(three) not in E13.legal_actions(s) and ReverseEngineer(five) in E13.legal_actions(s)
    with pytest.raises(IllegalAction, match=r"must mass more than the last one \(4\)"):
        E13.apply(s, ReverseEngineer(three))
    s = E13.apply(s, ReverseEngineer(five))
    copies = sorted(t.mass for t in s.things_of(1) if t.kind == "capsule")
    assert copies == [4, 5] and s.programs[1].bonus_points == 3 * 4 + 3 * 5
    assert s.reverse_engineered_mass == ((0, 1, 5),)

    s, (four, three, five) = rival_hardware(E14)
    s = E14.apply(s, ReverseEngineer(four))
    with pytest.raises(IllegalAction, match=r"once per pair"):
        E14.apply(s, ReverseEngineer(five))


# ====================================================================== trading
def test_2013_programs_trade_dots_but_never_points():
    s = new_game(E13)
    with pytest.raises(IllegalAction, match=r"^under these rules points never change hands: trade dots instead$"):
        E13.apply(s, OfferTrade(1, give=TradeBundle(points=1)))
    assert not any(isinstance(a, OfferTrade) and (a.give.points or a.take.points) for a in E13.legal_actions(s))
    assert OfferTrade(1, give=TradeBundle(dots=1)) in E13.legal_actions(s)
    s = E13.apply(E13.apply(s, OfferTrade(1, give=TradeBundle(dots=2))), AnswerTrade(True))
    assert [p.dots for p in s.programs] == [38, 42]
    s14 = new_game(E14)
    s14 = E14.apply(E14.apply(s14, OfferTrade(1, give=TradeBundle(points=5))), AnswerTrade(True))
    assert [p.points for p in s14.programs] == [35, 45]


# ====================================================================== parts
@pytest.mark.parametrize("engine, capacity", [(E13, 15), (E14, 14)])
def test_a_capsule_of_mass_16_carries_15_under_2013_and_14_under_2014(engine, capacity):
    """2013: 'A capsule can carry up to its own mass ..., minus 1'; 2014: 'a capsule that masses 16 can carry 14'."""
    s = new_game(engine)
    s, _, (capsule,) = give_thing(s, engine.rules, 0, "capsule", 16, "15/18", count=1)
    s, _, (insertion,) = give_thing(s, engine.rules, 0, "lower_stage", 40, "15/18", count=1)
    s, _, (launch,) = give_thing(s, engine.rules, 0, "lower_stage", 80, "15/18", count=1)
    s = give_stock(s, 0, rations=40)
    derps = []
    for n in range(5):
        s, d = give_derp(s, 0, f"Crew{n}", 1, 1, 2, rules=engine.rules)
        derps.append(d)
    # five derps (5) and twenty derp-turns of rations (10): a load of 15
    design = UpgoerDesign("Bus", stages=((launch,), (insertion,)), modules=(capsule,), crew=tuple(derps),
                          rations=20)
    report = engine.check_design(s, 0, design)
    assert report.capacity == capacity
    assert report.problems == (() if capacity == 15 else
                               ("the capsules carry 14 but the load is 15 (crew 5, payloads and RCS 0, rations 10)",))


def test_2013_two_clustered_stages_round_their_average_down():
    """2013, Flights and interaction: 'use the AVERAGE of the rolls, rounded down'."""
    for engine, (lowest, highest) in ((E13, (Fraction(3, 400), Fraction(1, 400))),
                                      (E14, (Fraction(1, 400), Fraction(3, 400)))):
        s = new_game(engine)
        s, design, _, _ = kit(engine, s, 0, "Twin")
        s = start(engine, s, [design], [])
        s = auto(engine, s, rolling("launch"))
        assert s.flight.roll.dice_sets == 2
        odds = dict((r.value, p) for r, p in engine.chance_outcomes(s))
        assert (odds[1], odds[20]) == (lowest, highest)


# ====================================================================== flights
def test_2013_a_first_attempt_at_a_step_rolls_two_worse_on_the_fail_safety():
    """2013: 'If that player has never attempted this step before, their Fail rating moves up by two'."""
    s = new_game(E13)
    s, first, _, _ = kit(E13, s, 0, "Pathfinder")
    s, second, _, _ = kit(E13, s, 0, "Follower")
    s = start(E13, s, [first, second], [])
    s = auto(E13, s, rolling("launch", "Pathfinder"))
    assert s.flight.roll.rating == Rating(13, 18)
    s = roll(E13, s, OK)
    assert s.programs[0].attempted == frozenset({"Launch"})
    s = auto(E13, s, rolling("launch", "Follower"))
    assert s.flight.roll.rating == Rating(15, 18)  # the program has attempted a launch now
    s = roll(E13, s, OK)
    s = auto(E13, s, rolling("orbital_insertion", "Pathfinder"))
    assert s.flight.roll.rating == Rating(13, 18)
    s14 = new_game(E14)
    s14, design, _, _ = kit(E14, s14, 0, "Pathfinder")
    s14 = auto(E14, start(E14, s14, [design], []), rolling("launch"))
    assert s14.flight.roll.rating == Rating(15, 18) and s14.programs[0].attempted == frozenset()


def test_2013_timing_goes_by_the_highest_fail_safety():
    """2013: 'whichever has the highest Fail safety goes first'; 2014 adds both safeties."""
    for engine, first in ((E13, "Steady"), (E14, "Sturdy")):
        s = new_game(engine)
        s, sturdy, _, _ = kit(engine, s, 0, "Sturdy", crew=(), mods=(), stages=1, rating="12/20")  # 32, Fail 12
        s, steady, _, _ = kit(engine, s, 1, "Steady", crew=(), mods=(), stages=1, rating="14/16")  # 30, Fail 14
        s = start(engine, s, [sturdy], [steady])
        assert acting(first, "decide")(s), engine.rules.edition.id


def launch_and_boom(engine, mods=("capsule", "thruster", "rcs"), **more):
    s = new_game(engine)
    s, design, (derp,), ids = kit(engine, s, 0, "Doomed", mods=mods, **more)
    s = start(engine, s, [design], [])
    s = auto(engine, s, rolling("launch"))
    return roll(engine, s, BOOM), derp, ids


def test_2013_a_launch_boom_hurts_the_crew_and_sends_the_capsule_straight_to_landing():
    """2013: 'Unless you have an escape tower, assume a failed capsule reentry (derps injured) and immediately
    roll for capsule landing'."""
    s, derp, ids = launch_and_boom(E13)
    assert rolling("landing", "Doomed")(s)
    craft = up(s, "Doomed")
    assert craft.modules == tuple(ids["capsule"]) and craft.stages == () and craft.fuel == 0
    assert s.derp(derp).injured and not s.derp(derp).dead
    assert s.item(ids["capsule"][0]).reusable_lost
    assert s.find("item", ids["thruster"][0]) is None
    s = roll(E13, s, OK)
    assert up(s, "Doomed").status == "landed" and s.derp(derp).location == HOME and s.derp(derp).injured
    assert "Landing" in s.programs[0].visited  # a landing that works counts as a successful step


def test_2013_a_launch_boom_then_a_failed_landing_kills_the_hurt_crew():
    s, derp, _ = launch_and_boom(E13)
    s = roll(E13, s, FAIL)
    assert s.derp(derp).dead


def test_2013_an_escape_tower_brings_the_capsule_down_through_reentry_unhurt():
    s, derp, ids = launch_and_boom(E13, mods=("capsule", "thruster", "probe"))
    assert rolling("reentry", "Doomed")(s)
    assert not s.derp(derp).injured and up(s, "Doomed").modules == tuple(ids["capsule"])
    s = roll(E13, s, OK)
    assert rolling("landing", "Doomed")(s)


def test_2013_an_escape_tower_brings_the_rcs_in_the_capsule_down_with_it():
    """2013: "If an escape tower is present, roll for reentry as normal": the capsule comes down with what it
    carries ("payload, RCS, rations, and crew"), the tower spent; without one "Everything blows up!" but the
    capsule and its crew (test above: the RCS is lost)."""
    s, derp, ids = launch_and_boom(E13, mods=("capsule", "thruster", "probe", "rcs"))
    assert rolling("reentry", "Doomed")(s)
    assert up(s, "Doomed").modules == tuple(ids["capsule"]) + tuple(ids["rcs"])
    assert s.find("item", ids["probe"][0]) is None and s.find("item", ids["thruster"][0]) is None
    s = roll(E13, roll(E13, s, OK), OK)
    assert up(s, "Doomed").status == "landed" and s.item(ids["rcs"][0]).location == HOME


def test_2013_an_escape_tower_brings_down_only_what_the_capsule_itself_has_room_for():
    """2013 (Mass formula): "A capsule can carry up to its own mass (payload, RCS, rations, and crew)", and in
    2013 a capsule of mass 3 carries 2; the habitat beside it (mass 4, carries 3) is lost with the rocket, and
    so is what only it had room for. Aboard: Doomed0 (1), the tower and an RCS (1 each), 2 derp-turns of
    rations (1). The tower is spent; the derp and then the RCS fill the capsule, and the rations are lost."""
    s, derp, ids = launch_and_boom(E13, mods=("capsule", "thruster", "probe", "rcs", "habitat"),
                                   masses={"capsule": 3}, rations=2)
    assert rolling("reentry", "Doomed")(s)
    craft = up(s, "Doomed")
    assert craft.modules == tuple(ids["capsule"]) + tuple(ids["rcs"]) and craft.rations == 0
    assert s.find("item", ids["habitat"][0]) is None and s.derp(derp).location == craft.id
    assert any(e.text.endswith("The capsule has no room for 2 derp-turns of rations: lost with the rocket.")
               for e in s.events)


def test_2014_a_launch_boom_destroys_the_craft_and_its_crew():
    s, derp, _ = launch_and_boom(E14)
    assert up(s, "Doomed").status == "destroyed" and s.derp(derp).dead


def stranded_in_orbit(engine, crew=((3, 2, 4),), mods=("capsule", "thruster", "rcs")):
    """A crewed craft reaches low orbit and its capsule goes Boom on the duration roll: stranded."""
    s = new_game(engine)
    s, design, derps, ids = kit(engine, s, 0, "Castaway", crew=crew, mods=mods)
    s = start(engine, s, [design], [])
    s = auto(engine, s, rolling("duration_capsule", "Castaway"))
    s = roll(engine, s, BOOM)
    assert up(s, "Castaway").stranded and s.item(ids["capsule"][0]).disabled
    return auto(engine, s, acting("Castaway", "after")), derps, ids


@pytest.mark.parametrize("engine, target", [(E13, 2), (E14, 4)])
def test_jury_rigging_works_under_once_engineering_in_2013_and_twice_in_2014(engine, target):
    """2013: 'rolls under their Engineering skill'; 2014: 'rolls under twice their Engineering skill'."""
    s, (derp,), ids = stranded_in_orbit(engine)
    s = engine.apply(s, JuryRig(derp, ids["capsule"][0]))
    assert s.flight.roll.kind == "jury_rig" and s.flight.roll.rating.fail == target
    assert s.derp(derp).current_stamina == 3
    s = engine.apply(s, Roll(target - 1))
    assert not up(s, "Castaway").stranded and not s.item(ids["capsule"][0]).disabled
    assert ("lucky_13", 0) in s.firsts


def test_2013_a_jury_rig_at_exactly_the_engineering_fails():
    s, (derp,), ids = stranded_in_orbit(E13)
    s = E13.apply(E13.apply(s, JuryRig(derp, ids["capsule"][0])), Roll(2))
    assert up(s, "Castaway").stranded and s.item(ids["capsule"][0]).disabled


def orbiting(engine, crews=(((3, 2, 4),),), mods=("capsule", "thruster", "rcs"), rations=6):
    """Program 0 puts one crewed craft per crew into low orbit on turn 1; turn 2's flight phase begins."""
    s = new_game(engine)
    designs, crew_ids, items = [], [], []
    for n, crew in enumerate(crews):
        s, design, derps, ids = kit(engine, s, 0, f"Orbiter{n}", crew=crew, mods=mods, rations=rations)
        designs.append(design)
        crew_ids.append(derps)
        items.append(ids)
    s = start(engine, s, designs, [])
    s = auto(engine, s, in_rnd(2))
    s = engine.apply(engine.apply(s, EndRnD()), EndRnD())
    assert s.phase == "flight" and all(up(s, f"Orbiter{n}").location == "low_1" for n in range(len(crews)))
    return s, crew_ids, items


@pytest.mark.parametrize("engine, cost", [(E13, 1), (E14, 2)])
def test_an_outside_repair_costs_one_stamina_in_2013_and_two_in_2014(engine, cost):
    """2013: a thruster jury-rigged on EVA 'costs only one point of stamina for the EVA'; 2014: 'an EVA (with a
    check and extra stamina cost) is required'."""
    s, ((derp,),), (ids,) = orbiting(engine, mods=("capsule", "thruster", "rcs", "eva_pack"))
    s = auto(engine, s, acting("Orbiter0", "before"))
    s = engine.apply(s, Move(up(s, "Orbiter0").id))
    s = auto(engine, s, acting("Orbiter0", "junction"))
    s = engine.apply(s, Burn("high_transfer"))
    s = roll(engine, s, BOOM)
    assert s.item(ids["thruster"][0]).disabled
    s = auto(engine, s, acting("Orbiter0", "after"))
    before = s.derp(derp).current_stamina
    s = engine.apply(s, JuryRig(derp, ids["thruster"][0]))
    assert s.derp(derp).current_stamina == before - cost
    assert s.flight.roll.kind == "eva"
    s = roll(engine, s, OK)
    assert s.flight.roll.kind == "jury_rig"


def test_2013_a_derp_on_eva_needs_no_piloting_but_carries_rations_only():
    """2013 asks no Piloting to go outside, and 'They may carry one unit of rations with them'."""
    for engine in (E13, E14):
        s, crews, items = orbiting(engine, crews=(((3, 2, 4),), ((0, 2, 4),)),
                                   mods=("capsule", "thruster", "rcs", "eva_pack", "probe"))
        s = auto(engine, s, acting("Orbiter0", "before"))
        (veteran,), (novice,) = crews
        first, second = up(s, "Orbiter0").id, up(s, "Orbiter1").id
        probe = items[0]["probe"][0]
        if engine is E13:
            with pytest.raises(IllegalAction, match=r"^under these rules a derp on EVA carries rations only, "
                                                    r"never a payload$"):
                engine.apply(s, Eva(veteran, second, carry_item=probe, come_back=True))
        else:
            assert engine.apply(s, Eva(veteran, second, carry_item=probe, come_back=True)).flight.roll.kind == "eva"
        assert engine.apply(s, Eva(veteran, second, carry_rations=2, come_back=True)).flight.roll.kind == "eva"
        s = engine.apply(s, Wait(first))
        assert acting("Orbiter1", "before")(s)
        if engine is E13:
            assert engine.apply(s, Eva(novice, first, come_back=True)).flight.roll.kind == "eva"
        else:
            with pytest.raises(IllegalAction, match=r"^going outside needs 1 Piloting; Orbiter10 has 0$"):
                engine.apply(s, Eva(novice, first, come_back=True))


@pytest.mark.parametrize("engine, cost", [(E13, 2), (E14, 1)])
def test_a_winch_docking_costs_the_eva_packs_and_the_winchs_stamina_in_2013(engine, cost):
    """2013: 'one point of stamina for the EVA pack and one for the winch!'"""
    s, crews, _ = orbiting(engine, crews=(((3, 2, 4),), ((3, 2, 4),)),
                           mods=("capsule", "thruster", "rcs", "eva_pack", "winch"))
    s = auto(engine, s, acting("Orbiter0", "before"))
    (derp,) = crews[0]
    s = engine.apply(s, Dock(up(s, "Orbiter1").id, derp, method="winch"))
    assert s.derp(derp).current_stamina == 4 - cost and s.flight.roll.kind == "eva"


# ====================================================================== prestige in play
def end_of_turn_report(s, turn, program="Hop"):
    return next(e.text for e in s.events if e.text.startswith(f"End of turn {turn}, {program}"))


def test_2013_the_space_station_goes_to_the_longest_working_craft_for_three_dots():
    """2013: 'Space Station: Whoever has had a working Upgoer in space the longest has a 3 dot bonus.'"""
    s = new_game(E13)
    s, design, _, _ = kit(E13, s, 0, "Outpost")
    s = auto(E13, start(E13, s, [design], []), in_rnd(2))
    assert dict(s.standing) == {"space_station": 0}
    assert "Space Station +3" in end_of_turn_report(s, 1)
    s14 = new_game(E14)
    s14, design, _, _ = kit(E14, s14, 0, "Outpost")
    s14 = auto(E14, start(E14, s14, [design], []), in_rnd(2))
    assert dict(s14.standing) == {"duration_mission": 0, "space_party": 0}


def test_2013_a_stranded_craft_holds_no_space_station():
    s, _, _ = stranded_in_orbit(E13)
    s = auto(E13, s, in_rnd(2))
    assert up(s, "Castaway").in_space and dict(s.standing) == {}


def fly_home_on_turn_2(engine, burn_roll=OK):
    """Orbiter0 spends turn 1 in low orbit and deorbits with its thruster on turn 2 (``burn_roll`` first)."""
    s, _, _ = orbiting(engine)
    s = auto(engine, s, acting("Orbiter0", "junction"))
    s = roll(engine, engine.apply(s, Burn("reentry")), burn_roll)
    s = auto(engine, s, in_rnd(3), burn_to="reentry")
    assert up(s, "Orbiter0").status == "landed"
    return s


def test_2013_all_according_to_plan_pays_a_dot_for_a_flawless_multi_turn_mission():
    """2013: 'A multi-turn mission that returns having experienced no Fail or Boom results ... gives a 1 dot
    bonus.'"""
    s = fly_home_on_turn_2(E13)
    assert "All According To Plan +1" in end_of_turn_report(s, 2)
    assert ("All According To Plan: Orbiter0 comes home from a long mission without a single Fail or Boom. "
            "+1 dot at the end of the turn.") in [e.text for e in s.events]
    s14 = fly_home_on_turn_2(E14)
    assert "All According To Plan" not in end_of_turn_report(s14, 2)


def test_2013_a_single_failed_roll_spoils_all_according_to_plan():
    s = fly_home_on_turn_2(E13, burn_roll=FAIL)
    assert "All According To Plan" not in end_of_turn_report(s, 2)


# ====================================================================== the same in both
def test_payloads_are_used_only_at_duration_steps_in_2013_play():
    """2013: 'Payloads can only be used in duration steps.' Activities happen only where a move ends, so a
    Waylight can be lit in low orbit but not at the burn junction the craft passes on its way."""
    s, ((derp,),), (ids,) = orbiting(E13, mods=("capsule", "thruster", "rcs", "waylight"))
    s = auto(E13, s, acting("Orbiter0", "before"))
    light = UsePayload(derp, ids["waylight"][0])
    assert light in E13.legal_actions(s) and E13.rules.board.step(up(s, "Orbiter0").location).is_duration
    s = E13.apply(s, Move(up(s, "Orbiter0").id))
    s = auto(E13, s, acting("Orbiter0", "junction"))
    assert not E13.rules.board.step(up(s, "Orbiter0").location).is_duration
    assert light not in E13.legal_actions(s)
    with pytest.raises(IllegalAction, match=r"happens before or after moving"):
        E13.apply(s, light)
    s = auto(E13, s, acting("Orbiter0", "after"))
    assert light in E13.legal_actions(s) and E13.rules.board.step(up(s, "Orbiter0").location).is_duration


# ====================================================================== choosing the edition: command line, saves
FIXTURE = Path(__file__).resolve().parent / "fixtures" / "editions" / "broken_2013_overlay"


def test_an_edition_written_over_2013_reports_each_mistake_where_it_is_written():
    from game.games.whatgoesup.rules.tables import check_rules
    rules, problems = check_rules(FIXTURE)
    assert rules is None
    assert problems == [
        "rules/whatgoesup/2013/economy.yaml:4: max_dots in budget must be at least min_dots (65), not 60",
        "tests/fixtures/editions/broken_2013_overlay/prestige.yaml:3: removes 'first_orbit_type', which the "
        "edition it extends does not have",
        "tests/fixtures/editions/broken_2013_overlay/prestige.yaml:5: remove may only be true (it takes the entry "
        "out)",
    ]


def test_check_rules_by_edition_on_the_command_line():
    ok = run_cli("check-rules", "--edition", "2013")
    assert ok.returncode == 0 and ok.stdout.startswith("rules OK: What Goes Up (2013 rules), ")
    assert ok.stdout.strip().endswith(f"digest {R13.digest}")
    bad = run_cli("check-rules", "--edition", "1999")
    assert bad.returncode == 2 and "Traceback" not in bad.stderr
    assert bad.stderr.strip().splitlines()[-1] == ("whatgoesup check-rules: error: argument --edition: there is no "
                                                    "edition '1999' (the editions are 2014 and 2013)")
    broken = run_cli("check-rules", str(FIXTURE))
    assert broken.returncode == 1 and broken.stdout.splitlines()[0].startswith("rules/whatgoesup/2013/economy.yaml:4:")


def test_a_seeded_simulate_under_2013_keeps_every_invariant():
    proc = run_cli("simulate", "--edition", "2013", "--games", "4", "--seed", "13", "--turns", "8", "--json")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    summary = json.loads(proc.stdout.strip().splitlines()[-1])
    assert summary["games"] == 4 and summary["invariant_failures"] == 0 and summary["launches"] > 0
    assert summary["edition"] == "2013"


@pytest.mark.slow
@pytest.mark.parametrize("bot", ["program", "random", "landing"])
def test_many_seeded_2013_games_keep_every_invariant(bot):
    from game.games.whatgoesup.sim import simulate
    summary = simulate(E13, 100, 1, players=2, turns=20, bot=bot)
    assert summary.invariant_failures == 0, summary.first_failure


def played_2013_game(tmp_path):
    from game.core.saves import save_game
    from game.games.whatgoesup.sim import default_setup, play_game
    setup = default_setup(E13, 2, 20)
    result = play_game(E13, setup, 5, max_turns=3, bot_kind="program")
    assert result.failure is None
    return save_game(tmp_path / "old-rules.json", E13, setup, 5, result.actions), result


def test_a_2013_save_records_its_edition_and_replays_under_it(tmp_path):
    from game.core.saves import load_game, read_document
    from game.core.session import GameSession
    path, result = played_2013_game(tmp_path)
    document = read_document(path)
    assert document["edition"] == "2013" and document["rules_digest"] == R13.digest
    loaded = load_game(path, E14)  # whoever loads it with the default edition's engine...
    assert loaded.edition == "2013" and loaded.engine.rules.edition.id == "2013"  # ...replays it under 2013
    assert loaded.final == result.final and loaded.actions == tuple(result.actions)
    session = GameSession.load(E14, path, saves_dir=tmp_path)
    assert session.engine.rules.edition.id == "2013" and session.state == result.final
    session.save(tmp_path / "again.json")
    assert read_document(tmp_path / "again.json")["edition"] == "2013"


def test_a_2014_save_still_loads_with_the_2014_engine(tmp_path):
    from game.core.saves import load_game, save_game
    from game.games.whatgoesup.sim import default_setup, play_game
    setup = default_setup(E14, 2, 20)
    result = play_game(E14, setup, 5, max_turns=2)
    path = save_game(tmp_path / "new-rules.json", E14, setup, 5, result.actions)
    loaded = load_game(path, E14)
    assert loaded.edition == "2014" and loaded.engine is E14 and loaded.final == result.final


def test_a_save_naming_an_unknown_edition_is_refused_with_a_clear_message(tmp_path):
    from game.core.saves import SaveError, load_game
    path, _ = played_2013_game(tmp_path)
    document = json.loads(path.read_text(encoding="utf-8"))
    document["edition"] = "1999"
    path.write_text(json.dumps(document), encoding="utf-8")
    with pytest.raises(SaveError) as refused:
        load_game(path, E14)
    assert str(refused.value) == (f"{path}: the save was played under rules this game does not have: there is no "
                                  "edition '1999' (the editions are 2014 and 2013)")


def test_replay_follows_the_saves_edition_unless_told_otherwise(tmp_path):
    path, result = played_2013_game(tmp_path)
    proc = run_cli("replay", str(path), "--json")
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout.strip().splitlines()[-1])["turn"] == result.final.turn
    assert run_cli("replay", str(path), "--edition", "2013").returncode == 0
    forced = run_cli("replay", str(path), "--edition", "2014")
    assert forced.returncode == 1 and f"the save was made with rules {R13.digest} (edition 2013)" in forced.stderr


def run_cli(*args):
    import os
    import subprocess
    import sys
    env = dict(os.environ, SDL_VIDEODRIVER="dummy")
    return subprocess.run([sys.executable, str(Path(__file__).resolve().parents[1] / "main.py"), *args],
                          env=env, capture_output=True, text=True, timeout=300)


# ====================================================================== payloads and skills
@pytest.mark.parametrize("engine, left_after_help", [(E13, 3), (E14, 2)])
def test_2013_the_stamina_that_uses_a_payload_also_pays_for_a_skill(engine, left_after_help):
    """2013: 'Using a payload requires 1 point of stamina regardless, but the spacederp can use the same point
    of stamina to add a skill to the safety rating.'"""
    s, ((derp,),), (ids,) = orbiting(engine, mods=("capsule", "thruster", "rcs", "waylight"))
    s = auto(engine, s, acting("Orbiter0", "before"))
    s = engine.apply(s, UsePayload(derp, ids["waylight"][0]))
    assert s.derp(derp).current_stamina == 3 and s.flight.roll.kind == "payload"
    assert s.flight.roll.free_help == (derp if engine is E13 else None)
    s = engine.apply(s, Roll(FAIL))  # 16 against 15/18: a Fail; Piloting 3 moves it to 13, OK
    s = engine.apply(s, UseSkill(derp, "piloting"))
    assert s.derp(derp).current_stamina == left_after_help
    assert s.flight.roll is None and s.item(ids["waylight"][0]).active  # the Waylight shines
    said = [e.text for e in s.events if "Piloting" in e.text and s.derp(derp).name in e.text]
    paid = "adds Piloting with the stamina point that worked the payload" if engine is E13 else \
        "spends a stamina point of Piloting"
    assert said and said[0].startswith(f"{s.derp(derp).name} {paid}: ")


def test_2013_a_derp_with_no_stamina_left_after_the_payload_may_still_add_one_skill():
    for engine in (E13, E14):
        s, ((derp,),), (ids,) = orbiting(engine, crews=(((3, 2, 2, 1),),),
                                         mods=("capsule", "thruster", "rcs", "waylight"))
        s = auto(engine, s, acting("Orbiter0", "before"))
        s = engine.apply(engine.apply(s, UsePayload(derp, ids["waylight"][0])), Roll(FAIL))
        assert s.derp(derp).current_stamina == 0
        helps = UseSkill(derp, "piloting") in engine.legal_actions(s)
        odds_help = engine.flight_rules.help_plan(s, s.flight.roll).crew
        assert helps is (engine is E13)
        assert [h.stamina for h in odds_help] == ([1] if engine is E13 else [])
        if engine is E13:
            s = engine.apply(s, UseSkill(derp, "piloting"))
            assert s.derp(derp).current_stamina == 0 and s.item(ids["waylight"][0]).active
