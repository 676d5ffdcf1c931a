"""Stop The Rock, one rule sentence per test, with forced rolls.

The wiki (shared/wiki-notes.md, "Stop The Rock") and docs/rules-decisions.md ("Stop The Rock") are the
sources; each test quotes the sentence it checks.
"""
from __future__ import annotations

import dataclasses
from fractions import Fraction

import pytest

from game.games.whatgoesup.rules.actions import EndRnD, Hire, Roll
from game.games.whatgoesup.rules.engine import CHANCE, TERMINAL, Engine, IllegalAction, IllegalSetup
from game.games.whatgoesup.rules.flight_actions import (AcceptRoll, Burn, Coast, EndActivities, Launch, Move, Nudge, Transfer,
                                       UsePayload)
from game.games.whatgoesup.rules.scenario import give_derp, give_stock, give_thing, place_in_space
from game.games.whatgoesup.rules.state import PlayerSetup, Setup, UpgoerDesign
from game.games.whatgoesup.rules.tables import load_rules

RULES = load_rules()
ENGINE = Engine(RULES)
OK, FAIL, BOOM = 1, 19, 20  # on 19/20 parts
# The difficulties' numbers come from rules/scenarios.yaml (they are tuned there, not here).
SCENARIO = RULES.scenarios.scenario("stop_the_rock")
GENTLE, NORMAL, HARD = (SCENARIO.difficulty(d) for d in ("gentle", "normal", "hard"))
T = NORMAL.turns_to_impact


def rock_game(players=1, difficulty=None, roll=10):
    names = [("Hop", "rabitians"), ("Spud", "merbs"), ("Gob", "goblins"), ("Kob", "kobolds")][:players]
    setup = Setup(tuple(PlayerSetup(n, p) for n, p in names), scenario="stop_the_rock", difficulty=difficulty)
    state = ENGINE.new_game(setup)
    if roll is not None and state.rock.drift_pending:
        state = ENGINE.apply(state, Roll(roll))
    return state


def with_rock(state, **changes):
    return dataclasses.replace(state, rock=dataclasses.replace(state.rock, **changes))


def craft(state, program, name, step, fuel=10, rations=4, rcs=True, waylight=False, pilot=2, thruster=True):
    state, _, cap = give_thing(state, RULES, program, "capsule", 6, "19/20", count=1, name=f"{name} pod")
    modules = [cap[0]]
    if thruster:
        state, _, th = give_thing(state, RULES, program, "thruster", 2, "19/20", count=1, name=f"{name} engine")
        modules.append(th[0])
    if rcs:
        state, _, r = give_thing(state, RULES, program, "rcs", 1, "19/20", count=1, name=f"{name} puffer")
        modules.append(r[0])
    if waylight:
        state, _, w = give_thing(state, RULES, program, "waylight", 1, "19/20", count=1, name=f"{name} light")
        modules.append(w[0])
    state, derp = give_derp(state, program, f"{name} pilot", piloting=pilot, engineering=1, stamina=4)
    state = give_stock(state, program, fuel=fuel, rations=rations)
    design = UpgoerDesign(name, modules=tuple(modules), crew=(derp,), fuel=fuel, rations=rations)
    return place_in_space(state, ENGINE, program, design, step)


def to_flights(state):
    for _ in state.programs:
        state = ENGINE.apply(state, EndRnD())
    return state


def settle(state, value=OK):
    """Roll ``value`` for every pending roll and accept it."""
    while state.phase == "flight":
        if ENGINE.current_player(state) == CHANCE:
            state = ENGINE.apply(state, Roll(value))
        elif state.flight.roll is not None:
            state = ENGINE.apply(state, AcceptRoll())
        else:
            break
    return state


def drive(state, upgoer_id, mode):
    """Drive the flight phase (coasting, moving on) until ``upgoer_id`` is active in ``mode``."""
    for _ in range(200):
        state = settle(state)
        f = state.flight
        if state.phase != "flight" or f is None:
            raise AssertionError("the flight phase ended first")
        if f.active == upgoer_id and f.mode == mode:
            return state
        active = state.upgoer(f.active)
        if f.mode == "before":
            state = ENGINE.apply(state, Move(active.id))
        elif f.mode == "after":
            state = ENGINE.apply(state, EndActivities(active.id))
        elif f.mode == "junction":
            state = ENGINE.apply(state, Coast())
        elif f.mode == "decide":
            state = ENGINE.apply(state, Launch(active.id))
    raise AssertionError("never got there")


def finish_turn(state):
    """Play out the rest of the flight phase with working rolls, moving on and ending activities."""
    for _ in range(500):
        if state.phase != "flight":
            return state
        state = settle(state)
        f = state.flight
        if state.phase != "flight" or f is None:
            return state
        if f.mode == "before":
            state = ENGINE.apply(state, Move(f.active))
        elif f.mode == "after":
            state = ENGINE.apply(state, EndActivities(f.active))
        elif f.mode == "junction":
            state = ENGINE.apply(state, Coast())
    raise AssertionError("the turn never ended")


# ====================================================================== the clock and the drift
def test_the_rock_hits_in_twenty_turns_and_the_state_says_so():
    """"A huge rock will hit the world in 20 turns." The client shows turns left, nudges and drift."""
    assert SCENARIO.default_difficulty == "normal" and (T, NORMAL.nudges_needed) == (20, 20)  # the page's numbers
    state = rock_game(roll=None)
    assert state.rock.turns_left == T and state.rock.nudges_needed == NORMAL.nudges_needed
    assert state.rock.nudge_total == 0
    status = ENGINE.status(state)
    assert status["turns_left"] == T and status["nudges_needed"] == NORMAL.nudges_needed
    assert status["drift"] == "rolling" and status["lines"][0] == f"Impact in {T} turns"


def test_the_drift_die_is_a_chance_outcome_rolled_before_rnd():
    """"At the start of each turn roll a D20 for the rock": the engine publishes it as a chance outcome."""
    state = rock_game(roll=None)
    assert ENGINE.current_player(state) == CHANCE
    outcomes = ENGINE.chance_outcomes(state)
    assert [r.value for r, _ in outcomes] == list(range(1, 21))
    assert all(p == Fraction(1, 20) for _, p in outcomes)
    with pytest.raises(IllegalAction, match="drift die must be rolled first"):
        ENGINE.apply(state, Hire())
    with pytest.raises(IllegalAction, match="cannot come up"):
        ENGINE.apply(state, Roll(21))


@pytest.mark.parametrize("value, change", [(1, +1), (20, -1), (2, 0), (19, 0)])
def test_drift_one_is_later_twenty_is_sooner(value, change):
    """"1 = it arrives one turn later, 20 = one turn sooner."""
    state = ENGINE.apply(rock_game(roll=None), Roll(value))
    assert state.rock.turns_left == T + change and state.rock.last_drift == value
    assert ENGINE.current_player(state) == 0
    assert [(e.text.split(":")[0], e.kind) for e in state.events] == [("The rock's D20", "rock")]  # its story alone


def test_the_drift_rolls_again_every_turn():
    state = rock_game(roll=10)
    state = finish_turn(to_flights(state))
    assert state.turn == 2 and state.rock.turns_left == T - 1
    assert ENGINE.current_player(state) == CHANCE and state.rock.drift_pending


def test_no_drift_once_the_rock_is_five_turns_away():
    """"The uncertainty ends ... once the rock is 5 or fewer turns away."""
    state = with_rock(rock_game(roll=10), turns_left=6)
    state = finish_turn(to_flights(state))
    assert state.rock.turns_left == 5 and state.rock.drift == "close"
    assert not state.rock.drift_pending and ENGINE.current_player(state) == 0
    state = ENGINE.apply(with_rock(rock_game(roll=None), turns_left=6), Roll(20))
    assert state.rock.turns_left == 5 and state.rock.drift == "close"


def test_a_waylight_on_the_rock_ends_the_drift():
    """"The uncertainty ends once a Waylight has been landed on the rock" (an active one, at a turn's end)."""
    state = rock_game()
    state, u = craft(state, 0, "Beacon", "rock_surface", waylight=True)
    light = next(i for i in state.items if i.location == u and state.thing(i.thing_id).kind == "waylight")
    state = to_flights(state)
    state = drive(state, u, "before")
    state = ENGINE.apply(state, UsePayload(state.upgoer(u).crew[0], light.id))
    state = finish_turn(state)
    assert state.rock.drift == "pinned" and not state.rock.drift_pending
    assert ENGINE.current_player(state) == 0


def test_gentle_has_no_drift_and_more_time():
    """Difficulty levels: drift on/off, starting dots, nudges needed, turns to impact (scenarios.yaml)."""
    assert not GENTLE.drift and NORMAL.drift and HARD.drift
    assert GENTLE.turns_to_impact > NORMAL.turns_to_impact > HARD.turns_to_impact
    assert GENTLE.nudges_needed < NORMAL.nudges_needed < HARD.nudges_needed
    state = rock_game(difficulty="gentle", roll=None)
    assert state.rock.drift == "off" and not state.rock.drift_pending
    assert state.rock.turns_left == GENTLE.turns_to_impact and state.rock.nudges_needed == GENTLE.nudges_needed
    assert state.programs[0].dots == GENTLE.start_dots
    hard = rock_game(difficulty="hard", roll=None)
    assert hard.rock.turns_left == HARD.turns_to_impact and hard.rock.nudges_needed == HARD.nudges_needed
    assert hard.programs[0].dots == HARD.start_dots


@pytest.mark.parametrize("level", [GENTLE, NORMAL, HARD], ids=lambda d: d.id)
def test_the_worlds_emergency_funding_is_a_one_time_grant_on_turn_one(level):
    """The starting budget is ours to design: `start_dots` dots and, once, `start_points` extra points each."""
    state = rock_game(players=2, difficulty=level.id, roll=None)
    per_dot = RULES.economy.budget.points_per_dot
    assert all(p.dots == level.start_dots and p.points == level.start_dots * per_dot + level.start_points
               for p in state.programs)
    assert level.start_dots <= 60  # the 2013 budget cap, the lowest ceiling of any edition
    if level.start_points:
        assert any(e.text.startswith("The world's emergency funding") for e in state.events)
    # Turn 2 brings the budget's points only: the grant does not come again.
    state = ENGINE.apply(state, Roll(10)) if state.rock.drift_pending else state
    spent = ENGINE.apply(state, Hire())
    state = finish_turn(to_flights(spent))
    assert state.turn == 2
    assert state.programs[0].points == spent.programs[0].points + state.programs[0].dots * per_dot
    assert state.programs[1].points == level.start_dots * per_dot + level.start_points + state.programs[1].dots * per_dot


def test_a_game_without_the_scenario_gets_no_grant():
    state = ENGINE.new_game(Setup((PlayerSetup("Hop", "rabitians"),)))
    budget = RULES.economy.budget
    assert state.programs[0].points == budget.start_dots * budget.points_per_dot
    assert not any("emergency" in e.text for e in state.events)


def test_setup_checks_scenario_difficulty_and_victory():
    players = (PlayerSetup("Hop", "rabitians"),)
    with pytest.raises(IllegalSetup, match="unknown scenario 'stop_the_rok'"):
        ENGINE.new_game(Setup(players, scenario="stop_the_rok"))
    with pytest.raises(IllegalSetup, match="unknown difficulty 'nightmare'"):
        ENGINE.new_game(Setup(players, scenario="stop_the_rock", difficulty="nightmare"))
    with pytest.raises(IllegalSetup, match="has its own ending"):
        ENGINE.new_game(Setup(players, scenario="stop_the_rock", victory="one_small_step"))
    with pytest.raises(IllegalSetup, match="belongs to a scenario"):
        ENGINE.new_game(Setup(players, difficulty="hard"))


# ====================================================================== the rock's track
@pytest.mark.parametrize("turns_left, lands_at", [(20, "rock_transit"), (14, "rock_transit"),
                                                  (13, "rock_transit_2"), (8, "rock_transit_2"),
                                                  (7, "rock_transit_3"), (2, "rock_transit_3")])
def test_the_trip_to_the_rock_shortens_as_it_nears(turns_left, lands_at):
    """"The number of Rock Transit steps shrinks as the rock approaches" (scenarios.yaml: track)."""
    state = with_rock(rock_game(), turns_left=turns_left)
    state, u = craft(state, 0, "Chaser", "sync_2")
    state = to_flights(state)
    state = drive(state, u, "junction")
    assert state.upgoer(u).location == "sync_burn_2"
    state = ENGINE.apply(state, Burn("rock_transit"))
    state = settle(state)
    assert state.upgoer(u).location == lands_at


def test_the_rock_intercept_burn_only_exists_in_the_scenario():
    state = ENGINE.new_game(Setup((PlayerSetup("Hop", "rabitians"),)))
    state, u = craft(state, 0, "Chaser", "sync_2")
    state = drive(to_flights(state), u, "junction")
    with pytest.raises(IllegalAction, match="you can burn"):
        ENGINE.apply(state, Burn("rock_transit"))


# ====================================================================== landing on the rock
def _in_libration(**kw):
    state = rock_game()
    state, u = craft(state, 0, "Lander", "rock_libration", **kw)
    state = to_flights(state)
    return drive(state, u, "junction"), u


def test_rock_docking_by_burn():
    """"Landing on the rock is a docking manoeuvre": a burn (thruster roll) lands on the rock surface."""
    state, u = _in_libration()
    fuel = state.upgoer(u).fuel
    state = settle(ENGINE.apply(state, Burn("rock_docking")))
    assert state.upgoer(u).location == "rock_surface" and state.upgoer(u).fuel < fuel
    assert "rock" in state.upgoer(u).bodies_landed


def test_rock_docking_fail_stays_in_libration():
    state, u = _in_libration()
    state = ENGINE.apply(state, Burn("rock_docking"))
    state = settle(state, FAIL)
    assert state.upgoer(u).location == "rock_libration" and state.upgoer(u).moved_this_turn


def test_rock_docking_boom_disables_the_thruster_and_damages_the_capsule():
    state, u = _in_libration()
    state = ENGINE.apply(state, Burn("rock_docking"))
    state = settle(state, BOOM)
    items = {state.thing(i.thing_id).kind: i for i in state.items if i.location == u}
    assert state.upgoer(u).location == "rock_libration"
    assert items["thruster"].disabled and items["capsule"].flight_fail_penalty == 1


def test_rock_docking_with_rcs_uses_two_uses():
    """"... or a double-RCS docking": one docking roll that costs two RCS uses."""
    state, u = _in_libration(thruster=False)
    rcs = next(i for i in state.items if i.location == u and state.thing(i.thing_id).kind == "rcs")
    assert rcs.uses_left == 2
    state = ENGINE.apply(state, Burn("rock_docking", rcs=True))
    state = settle(state)
    assert state.upgoer(u).location == "rock_surface"
    assert state.item(rcs.id).uses_left == 0  # a docking that worked spent both uses as well
    state2, u2 = _in_libration(thruster=False)
    state2 = settle(ENGINE.apply(state2, Burn("rock_docking", rcs=True)), FAIL)
    rcs2 = next(i for i in state2.items if i.location == u2 and state2.thing(i.thing_id).kind == "rcs")
    assert rcs2.uses_left == 0 and state2.upgoer(u2).location == "rock_libration"


def test_leaving_the_rock_is_the_pushoff_burn_to_synchronous_orbit():
    """"Leaving is free, but a Rock Pushoff burn to synchronous orbit is still needed."""
    state = rock_game()
    state, u = craft(state, 0, "Leaver", "rock_surface")
    state = drive(to_flights(state), u, "junction")
    state = settle(ENGINE.apply(state, Burn("pushoff_transit")))
    assert state.upgoer(u).location == "pushoff_transit"
    state = finish_turn(state)
    state = ENGINE.apply(state, Roll(10))
    state = drive(to_flights(state), u, "after")
    assert state.upgoer(u).location == "sync_1"


# ====================================================================== nudges
def _on_rock(turns_left=12, fuel=10, **kw):
    state = with_rock(rock_game(), turns_left=turns_left)
    state, u = craft(state, 0, "Pusher", "rock_surface", fuel=fuel, **kw)
    state = drive(to_flights(state), u, "before")
    return state, u


def test_a_nudge_fires_two_fuel_and_is_worth_the_turns_left():
    """"A nudge = ... firing a thruster, 2 fuel per nudge"; a nudge given with T turns left is worth T."""
    state, u = _on_rock(turns_left=12)
    state = ENGINE.apply(state, Nudge(u))
    assert state.upgoer(u).fuel == 8 and ENGINE.current_player(state) == CHANCE
    state = settle(state)
    assert state.rock.nudge_total == 12 and state.rock.nudges == 1
    assert ENGINE.status(state)["nudge_total"] == 12


def test_a_failed_nudge_still_burns_its_fuel():
    state, u = _on_rock()
    state = settle(ENGINE.apply(state, Nudge(u)), FAIL)
    assert state.upgoer(u).fuel == 8 and state.rock.nudge_total == 0


def test_a_nudge_needs_the_rock_a_thruster_and_fuel():
    state, u = _on_rock(fuel=1)
    with pytest.raises(IllegalAction, match="fires 2 fuel"):
        ENGINE.apply(state, Nudge(u))
    state, u = _on_rock(thruster=False)
    with pytest.raises(IllegalAction, match="no working thruster"):
        ENGINE.apply(state, Nudge(u))
    state = rock_game()
    state, u = craft(state, 0, "Far", "rock_libration")
    state = drive(to_flights(state), u, "before")
    with pytest.raises(IllegalAction, match="only an Upgoer landed on the rock"):
        ENGINE.apply(state, Nudge(u))


def test_derps_may_burn_their_return_fuel_on_nudges():
    """"Derps may spend their return fuel on extra nudges": nudges go on while fuel lasts."""
    state, u = _on_rock(turns_left=3, fuel=6)
    for _ in range(3):
        state = settle(ENGINE.apply(state, Nudge(u)))
    assert state.upgoer(u).fuel == 0 and state.rock.nudge_total == 9


def test_the_world_is_saved_and_the_crew_must_still_come_home():
    """Saved when the nudges reach the goal; the game ends once no crew is left in space (or the rock passes)."""
    state, u = _on_rock(turns_left=10)
    state = settle(ENGINE.apply(state, Nudge(u)))
    state = settle(ENGINE.apply(state, Nudge(u)))
    assert state.rock.saved and state.rock.saved_turns_left == 10
    state = finish_turn(state)
    assert state.phase == "rnd" and state.rock.turns_left == 9 and not state.rock.drift_pending
    # The crew is lost on the way home: no crew in space, the game ends, saved, with a score.
    derp = state.upgoer(u).crew[0]
    state = dataclasses.replace(state, derps=tuple(dataclasses.replace(d, dead=True) if d.id == derp else d
                                                   for d in state.derps))
    state = finish_turn(to_flights(state))
    assert state.phase == "over" and ENGINE.current_player(state) == TERMINAL
    outcome = ENGINE.outcome(state)
    assert outcome.kind == "saved" and outcome.winners == (0,)
    assert state.score == 100 + 10 * 10 - 5 and outcome.scores == (195,)
    assert "The world is saved" in outcome.reason


def test_saved_with_no_crew_in_space_ends_at_the_end_of_the_turn():
    state, u = _on_rock(turns_left=20)
    state = settle(ENGINE.apply(state, Nudge(u)))
    assert state.rock.saved
    state = dataclasses.replace(state, derps=tuple(dataclasses.replace(d, location=None) if d.location == u else d
                                                   for d in state.derps))
    state = finish_turn(state)
    assert state.phase == "over" and ENGINE.outcome(state).kind == "saved" and state.score == 300


def test_impact_ends_the_game_and_everyone_loses():
    """"The rock hits the world" when the turns run out before the nudges reach the goal."""
    state = with_rock(rock_game(players=2), turns_left=1, drift="close")
    state = finish_turn(to_flights(state))
    assert state.phase == "over"
    outcome = ENGINE.outcome(state)
    assert outcome.kind == "impact" and outcome.winners == () and "hits the world" in outcome.reason


def test_the_turn_limit_does_not_end_a_rock_game():
    state = rock_game()
    state = dataclasses.replace(state, setup=dataclasses.replace(state.setup, turn_limit=1))
    state = finish_turn(to_flights(state))
    assert state.phase == "rnd" and state.turn == 2


# ====================================================================== cooperation
def test_cooperating_programs_share_the_win():
    coop = rock_game(players=3)
    coop, u = craft(coop, 1, "Pusher", "rock_surface")
    coop = with_rock(coop, turns_left=20)
    coop = drive(to_flights(coop), u, "before")
    coop = settle(ENGINE.apply(coop, Nudge(u)))
    coop = dataclasses.replace(coop, derps=tuple(dataclasses.replace(d, location=None) if d.location == u else d
                                                 for d in coop.derps))
    coop = finish_turn(coop)
    assert ENGINE.outcome(coop).winners == (0, 1, 2)


def test_cooperating_programs_take_from_each_other_and_rescue_for_free():
    """Co-op: a partner's docked craft shares freely, and a rescue carries no Rescue Mission fee."""
    from game.games.whatgoesup.rules.flight_actions import Dock
    state = rock_game(players=2)
    state, a = craft(state, 0, "Alpha", "sync_1")
    state, b = craft(state, 1, "Bravo", "sync_1")
    state = drive(to_flights(state), a, "after")
    state = settle(ENGINE.apply(state, Dock(b, state.upgoer(a).crew[0])))
    assert b in state.upgoer(a).docked_with
    state = ENGINE.apply(state, Transfer(b, a, fuel=2))
    assert state.upgoer(a).fuel == 12
    bravo_pilot = state.upgoer(b).crew[0]
    state = ENGINE.apply(state, Transfer(b, a, derps=(bravo_pilot,)))
    assert state.derp(bravo_pilot).location == a
    assert not any(e.reason.startswith("Rescue") for p in state.programs for e in p.dot_entries)
