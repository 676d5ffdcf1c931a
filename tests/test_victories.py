"""Victory conditions (shared/wiki-notes.md, "Endgames"), one rule sentence per test, with forced rolls."""
from __future__ import annotations

import dataclasses
from fractions import Fraction

import pytest

from game.games.whatgoesup.rules.actions import Roll
from game.games.whatgoesup.rules.engine import CHANCE, TERMINAL, Engine, IllegalAction, IllegalSetup
from game.games.whatgoesup.rules.flight_actions import AcceptRoll, Burn, Deploy, Retag, UsePayload, VisitTemple, WalkOutside
from game.games.whatgoesup.rules.scenario import give_derp, give_stock, give_thing, place_in_space
from game.games.whatgoesup.rules.state import PlayerSetup, Setup, UpgoerDesign
from game.games.whatgoesup.rules.tables import load_rules
from test_stop_the_rock import BOOM, FAIL, OK, drive, finish_turn, settle, to_flights

RULES = load_rules()
ENGINE = Engine(RULES)


def game(victory, players=2, turns=20):
    names = [("Hop", "rabitians"), ("Spud", "merbs")][:players]
    return ENGINE.new_game(Setup(tuple(PlayerSetup(n, p) for n, p in names), victory=victory, turn_limit=turns))


def craft(state, program, name, step, payloads=(), fuel=10, rations=4, pilot=2, stamina=4):
    state, _, cap = give_thing(state, RULES, program, "capsule", 8, "19/20", count=1, name=f"{name} pod")
    state, _, th = give_thing(state, RULES, program, "thruster", 4, "19/20", count=1, name=f"{name} engine")
    modules = [cap[0], th[0]]
    for kind in payloads:
        state, _, p = give_thing(state, RULES, program, kind, 1, "19/20", count=1, name=f"{name} {kind}")
        modules.append(p[0])
    state, derp = give_derp(state, program, f"{name} pilot", piloting=pilot, engineering=1, stamina=stamina)
    state = give_stock(state, program, fuel=fuel, rations=rations)
    design = UpgoerDesign(name, modules=tuple(modules), crew=(derp,), fuel=fuel, rations=rations)
    return place_in_space(state, ENGINE, program, design, step)


def item_of(state, upgoer, kind):
    return next(i for i in state.items if i.location == upgoer and state.thing(i.thing_id).kind == kind)


def land_home(state, u, reentry=OK, landing=OK):
    """Take a craft from its place to low orbit, deorbit and come down with the given capsule rolls."""
    upgoer = dataclasses.replace(state.upgoer(u), location="low_3")
    state = dataclasses.replace(state, upgoers=tuple(upgoer if x.id == u else x for x in state.upgoers))
    state = drive(to_flights(state), u, "junction")
    assert state.upgoer(u).location == "low_burn_3"
    state = ENGINE.apply(state, Burn("reentry"))
    state = ENGINE.apply(state, Roll(OK))  # the deorbit burn
    for value in (reentry, landing):
        state = ENGINE.apply(state, Roll(value))
        if state.phase == "flight" and state.flight.roll is not None and state.flight.roll.value is not None:
            state = ENGINE.apply(state, AcceptRoll())
    return settle(state)


# ====================================================================== setup
def test_an_unknown_victory_is_refused_with_the_known_ones():
    with pytest.raises(IllegalSetup, match="unknown victory condition 'moon'.*one_small_step"):
        game("moon")


def test_the_status_names_the_goal_and_progress():
    state = game("all_seeing_eye")
    status = ENGINE.status(state)
    assert status["name"] == "All Seeing Eye" and status["lines"][0] == "Hop: 0% mapped, 0% of 100% home"


def test_most_dots_is_still_the_default():
    state = game("most_dots", turns=1)
    state = finish_turn(to_flights(state))
    outcome = ENGINE.outcome(state)
    assert state.phase == "over" and outcome.kind == "turn_limit" and outcome.winners == (0, 1)


# ====================================================================== One Small Step
def _on_the_moon(victory="one_small_step", payloads=("eva_pack",), **kw):
    state = game(victory)
    state, u = craft(state, 0, "Eagle", "lunar_surface", payloads=payloads, **kw)
    state = dataclasses.replace(state, upgoers=tuple(dataclasses.replace(x, bodies_landed=("moon",)) if x.id == u
                                                     else x for x in state.upgoers))
    return drive(to_flights(state), u, "before"), u


def test_a_walk_on_the_moon_is_an_eva_on_the_surface():
    """"A lunar EVA is required": WalkOutside on the surface rolls the EVA pack and costs a stamina point."""
    state, u = _on_the_moon()
    derp = state.upgoer(u).crew[0]
    state = ENGINE.apply(state, WalkOutside(derp))
    assert state.derp(derp).current_stamina == 3 and ENGINE.current_player(state) == CHANCE
    state = settle(state)
    assert state.derp(derp).walked_on == ("moon",)
    with pytest.raises(IllegalAction, match="already walked"):
        ENGINE.apply(state, WalkOutside(derp))


def test_a_failed_walk_does_not_count_and_a_walk_needs_ground_and_a_pack():
    state, u = _on_the_moon()
    derp = state.upgoer(u).crew[0]
    state = settle(ENGINE.apply(state, WalkOutside(derp)), FAIL)
    assert state.derp(derp).walked_on == ()
    state, u = _on_the_moon(payloads=())
    with pytest.raises(IllegalAction, match="no working EVA pack"):
        ENGINE.apply(state, WalkOutside(state.upgoer(u).crew[0]))
    state = game("one_small_step")
    state, u = craft(state, 0, "Orbiter", "low_lunar_1", payloads=("eva_pack",))
    state = drive(to_flights(state), u, "before")
    with pytest.raises(IllegalAction, match="solid ground"):
        ENGINE.apply(state, WalkOutside(state.upgoer(u).crew[0]))


def test_bringing_a_moonwalker_home_alive_wins_at_once():
    """"First to land a derp on the Moon and bring them home alive wins ... coming back injured counts.\""""
    state, u = _on_the_moon()
    derp = state.upgoer(u).crew[0]
    state = settle(ENGINE.apply(state, WalkOutside(derp)))
    state = finish_turn(state)
    state = land_home(state, u, landing=FAIL)  # a hard landing injures the crew
    assert state.derp(derp).injured and not state.derp(derp).dead
    assert state.phase == "over" and ENGINE.current_player(state) == TERMINAL
    outcome = ENGINE.outcome(state)
    assert outcome.kind == "goal" and outcome.winners == (0,) and "One Small Step" in outcome.reason


def test_a_moonwalker_lost_on_the_way_home_does_not_win():
    state, u = _on_the_moon()
    derp = state.upgoer(u).crew[0]
    state = settle(ENGINE.apply(state, WalkOutside(derp)))
    state = finish_turn(state)
    upgoer = dataclasses.replace(state.upgoer(u), location="low_3")
    state = dataclasses.replace(state, upgoers=tuple(upgoer if x.id == u else x for x in state.upgoers))
    state = drive(to_flights(state), u, "junction")
    state = ENGINE.apply(state, Burn("reentry"))
    state = ENGINE.apply(state, Roll(OK))
    state = settle(state, BOOM)  # the capsule Booms in reentry: the crew is killed
    assert state.derp(derp).dead and state.phase != "over"


def test_one_small_step_status_names_the_milestone_reached_not_a_distance():
    """The race counts milestones only (landed, walked, home): a craft in lunar orbit has reached none, and the
    status says so in words instead of "0% of the way" (rules-decisions.md, "Victory conditions")."""
    state = game("one_small_step")
    state, u = craft(state, 0, "Eagle", "low_lunar_1", payloads=("eva_pack",))
    state = drive(to_flights(state), u, "junction")
    assert ENGINE.status(state)["lines"] == ["Hop: not on the Moon yet", "Spud: not on the Moon yet"]
    state = ENGINE.apply(state, Burn("lunar_landing"))
    state = settle(state)  # the landing burn and the surface's rolls, all OK
    assert "moon" in state.upgoer(u).bodies_landed
    assert ENGINE.victory_rules.progress(state, 0) == 50
    assert ENGINE.status(state)["lines"][0] == "Hop: landed on the Moon"
    state = drive(to_flights(finish_turn(state)), u, "before")  # the next turn, on the surface
    state = settle(ENGINE.apply(state, WalkOutside(state.upgoer(u).crew[0])))
    assert ENGINE.victory_rules.progress(state, 0) == 75
    assert ENGINE.status(state)["lines"] == ["Hop: walked on the Moon", "Spud: not on the Moon yet"]


def test_final_destination_status_counts_the_map_then_the_temple():
    state, u = _landing(percent=50)
    assert ENGINE.status(state)["lines"][0] == "Hop: 50% of the Moon mapped"
    state = settle(state)
    assert state.upgoer(u).temple_found and ENGINE.status(state)["lines"][0] == "Hop: found the Temple"


# ====================================================================== Final Destination
def _mapped(state, percent):
    p = state.programs[0]
    return dataclasses.replace(state, programs=(dataclasses.replace(p, mapping=(("moon", percent),)),)
                               + state.programs[1:])


def _landing(victory="moon_temple", percent=50, payloads=("cart",)):
    state = _mapped(game(victory), percent)
    state, u = craft(state, 0, "Eagle", "low_lunar_1", payloads=payloads)
    state = drive(to_flights(state), u, "junction")
    assert state.upgoer(u).location == "low_lunar_burn_1"
    return ENGINE.apply(state, Burn("lunar_landing")), u


def test_the_temple_is_searched_for_on_landing_against_the_map():
    """"Finding it on a landing is a D20 roll against the Moon's mapped percentage" (a face is 5%)."""
    state, u = _landing(percent=50)
    state = ENGINE.apply(state, Roll(OK))  # the landing burn
    state = ENGINE.apply(state, Roll(OK))  # the surface's duration roll
    assert state.flight.roll.kind == "temple_search"
    from game.games.whatgoesup.rules.reliability import Outcome
    assert ENGINE.flight_rules.roll_odds(state)[Outcome.OK] == Fraction(1, 2)  # 50% mapped: 1..10 of a D20
    state = settle(state, 10)
    assert state.upgoer(u).temple_found


def test_an_unmapped_moon_hides_the_temple():
    state, u = _landing(percent=10)
    state = ENGINE.apply(state, Roll(OK))
    state = ENGINE.apply(state, Roll(OK))
    state = ENGINE.apply(state, Roll(3))  # 3 x 5% = 15% > 10% mapped
    state = settle(state)
    assert not state.upgoer(u).temple_found


def _found(victory="moon_temple", payloads=("cart",)):
    state, u = _landing(victory=victory, percent=100, payloads=payloads)
    state = settle(state)
    assert state.upgoer(u).temple_found
    return state, u


def test_one_derp_with_full_stamina_a_cart_and_rations_reaches_the_temple_and_wins():
    """"One derp with full stamina makes the trip, needing a Moon Cart payload and a full turn of rations.\""""
    state, u = _found()
    derp = state.upgoer(u).crew[0]
    rations = state.upgoer(u).rations
    state = ENGINE.apply(state, VisitTemple(derp))
    assert state.upgoer(u).rations == rations - 1 and state.derp(derp).current_stamina == 0
    state = settle(state)
    outcome = ENGINE.outcome(state)
    assert state.phase == "over" and outcome.kind == "goal" and outcome.winners == (0,)


def test_the_temple_trip_needs_full_stamina_and_a_cart():
    state, u = _found()
    derp = state.upgoer(u).crew[0]
    tired = dataclasses.replace(state, derps=tuple(dataclasses.replace(d, current_stamina=3) if d.id == derp else d
                                                   for d in state.derps))
    with pytest.raises(IllegalAction, match="full stamina"):
        ENGINE.apply(tired, VisitTemple(derp))
    state, u = _found(payloads=())
    with pytest.raises(IllegalAction, match="no working Cart"):
        ENGINE.apply(state, VisitTemple(state.upgoer(u).crew[0]))


def test_the_monolith_must_be_flown_home():
    """Joke option: "the prize is a mass-3 monolith that must be flown home"; it adds to the craft's mass."""
    state, u = _found(victory="moon_monolith")
    mass = ENGINE.flight_rules.spacecraft_mass(state, state.upgoer(u))
    state = settle(ENGINE.apply(state, VisitTemple(state.upgoer(u).crew[0])))
    assert state.phase == "flight" and state.upgoer(u).relic_mass == 3
    assert ENGINE.flight_rules.spacecraft_mass(state, state.upgoer(u)) == mass - Fraction(1, 2) + 3  # ate a ration
    state = finish_turn(state)
    state = land_home(state, u)
    outcome = ENGINE.outcome(state)
    assert state.phase == "over" and outcome.winners == (0,) and "monolith" in outcome.reason


# ====================================================================== All Your Base
def test_locations_are_held_by_active_waylights_and_all_taken_ends_the_game():
    """"Place Waylights in as many [locations] as you can; when all are taken, most wins.\""""
    state = game("all_your_base")
    spots = {"polar": "polar_1", "synchronous": "sync_1", "low_lunar": "low_lunar_1", "lunar_polar": "lunar_polar_1"}
    ids = []
    for n, (loc, step) in enumerate(spots.items()):
        state, u = craft(state, 0 if n < 3 else 1, f"Light{n}", step, payloads=("waylight",))
        item = item_of(state, u, "waylight")
        state = dataclasses.replace(state, items=tuple(dataclasses.replace(i, active=True) if i.id == item.id else i
                                                       for i in state.items))
        ids.append(u)
    held = ENGINE.victory_rules.held_locations(state)
    assert held == {"polar": {0}, "synchronous": {0}, "low_lunar": {0}, "lunar_polar": {1}}
    state = finish_turn(to_flights(state))
    outcome = ENGINE.outcome(state)
    assert state.phase == "over" and outcome.winners == (0,) and "3 of 4" in outcome.reason


def test_a_waylight_deployed_as_a_beacon_and_re_tagged_by_a_rival():
    """"Unguarded Waylights can be re-tagged (stolen)": a crewless beacon, an EVA from a rival craft."""
    state = game("all_your_base")
    state, a = craft(state, 0, "Layer", "polar_1", payloads=("waylight",))
    state, b = craft(state, 1, "Thief", "polar_1", payloads=("eva_pack",))
    light = item_of(state, a, "waylight")
    state = dataclasses.replace(state, upgoers=tuple(dataclasses.replace(x, rush=5) if x.id == a else x
                                                     for x in state.upgoers))  # the layer goes first
    state = drive(to_flights(state), a, "before")
    state = settle(ENGINE.apply(state, UsePayload(state.upgoer(a).crew[0], light.id)))
    state = ENGINE.apply(state, Deploy(light.id))
    beacon = next(u for u in state.upgoers if u.name.endswith("beacon"))
    assert state.item(light.id).location == beacon.id and beacon.location == "polar_1" and not beacon.crew
    state = drive(state, b, "before")
    with pytest.raises(IllegalAction, match="guards|not at"):
        ENGINE.apply(state, Retag(state.upgoer(b).crew[0], a))
    state = settle(ENGINE.apply(state, Retag(state.upgoer(b).crew[0], beacon.id)))
    assert state.item(light.id).owner == 1
    assert ENGINE.victory_rules.held_locations(state)["polar"] == {1}


def test_the_turn_limit_ends_all_your_base_with_most_locations():
    state = game("all_your_base", turns=1)
    state, u = craft(state, 1, "Lone", "polar_1", payloads=("waylight",))
    item = item_of(state, u, "waylight")
    state = dataclasses.replace(state, items=tuple(dataclasses.replace(i, active=True) if i.id == item.id else i
                                                   for i in state.items))
    state = finish_turn(to_flights(state))
    outcome = ENGINE.outcome(state)
    assert outcome.kind == "turn_limit" and outcome.winners == (1,) and "came closest" in outcome.reason


# ====================================================================== All Seeing Eye
def test_maps_count_only_when_a_crew_brings_them_home():
    """"First to a 100% map of the world wins; the derps must bring the maps home.\""""
    state = game("all_seeing_eye")
    state, u = craft(state, 0, "Spy", "polar_1", payloads=("mapping",))
    state = finish_turn(to_flights(state))
    assert state.programs[0].mapped("world") >= 5 and state.programs[0].mapped_home("world") == 0
    assert dict(state.upgoer(u).mapped)["world"] == state.programs[0].mapped("world")
    upgoer = dataclasses.replace(state.upgoer(u), mapped=(("world", 100),))
    state = dataclasses.replace(state, upgoers=tuple(upgoer if x.id == u else x for x in state.upgoers))
    state = land_home(state, u)
    assert state.programs[0].mapped_home("world") == 100
    outcome = ENGINE.outcome(state)
    assert state.phase == "over" and outcome.kind == "goal" and outcome.winners == (0,)
