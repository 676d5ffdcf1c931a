"""The computer players reach every victory condition by playing (issue 15).

Each game is a real game from turn 1: the SpaceProgramBot plays the goal plan of its victory condition
(game/games/whatgoesup/goal_plan.py, moon_plan.py, orbit_plans.py) through legal actions only, and every
die is a forced roll made through the engine's ``Roll`` action: ``BestDice`` always rolls the lowest face,
which works on any part whose Fail safety is 2 or more (and finds the Temple once 5% of the Moon is
mapped). Nothing is placed or set by hand; every invariant of ``sim.INVARIANTS`` is checked after every
action. A lunar round trip needs more than 40 turns of budget (docs/rules-decisions.md, "Bots and the
goal"), so these games have a 60-turn limit. The seeded games with real dice are the slow broad run at
the end (``simulate --victory NAME --games 20 --seed 1``).
"""
from __future__ import annotations

import pytest

from game.core.dice_rng import DiceRoller
from game.games.whatgoesup.bots import SpaceProgramBot, plan_for_victory
from game.games.whatgoesup.goal_plan import Job, size_mission
from game.games.whatgoesup.routes import can_make, is_home, plan_route
from game.games.whatgoesup.rules.engine import Engine
from game.games.whatgoesup.rules.flight_actions import Burn, Coast
from game.games.whatgoesup.rules.state import HOME
from game.games.whatgoesup.rules.tables import load_rules
from game.games.whatgoesup.sim import default_setup, play_game, simulate

ENGINE = Engine(load_rules())
BOARD = ENGINE.rules.board


class BestDice(DiceRoller):
    """Forced rolls: every die shows its lowest possible face."""

    def __init__(self):
        super().__init__(0)

    def roll(self, engine, state):
        return min((r for r, p in engine.chance_outcomes(state) if p > 0), key=lambda r: r.value)


def goal_game(victory: str, players: int = 1, turns: int = 60):
    result = play_game(ENGINE, default_setup(ENGINE, players, turns, victory=victory), 1, bot_kind="program",
                       dice=BestDice(), max_turns=turns)
    assert result.failure is None, str(result.failure)  # every action legal, every invariant kept
    outcome = ENGINE.outcome(result.final)
    assert result.final.phase == "over" and outcome.kind == "goal", outcome
    return result.final, outcome


# ====================================================================== routes and sizes
def test_routes_are_the_cheapest_way_on_the_board():
    on_moon = lambda s: s.kind == "surface" and s.body == "moon"  # noqa: E731
    out = plan_route(BOARD, None, "low_1", on_moon, can_make("lunar"))
    assert (out.burns, out.turns) == (4, 5) and out.steps[-1] == "lunar_surface"
    assert plan_route(BOARD, None, "low_1", on_moon, can_make("orbital")) is None  # no landing without thrust
    back = plan_route(BOARD, None, "lunar_surface", is_home, can_make("lunar"))
    assert back.first == Burn("low_lunar_3") and (back.burns, back.turns) == (2, 2)
    # after the trans-lunar injection the free return costs nothing; at the surface a craft may stay
    assert plan_route(BOARD, None, "lunar_orbit_insertion", is_home).first == Coast()
    assert plan_route(BOARD, None, "lunar_surface", on_moon).first == Coast()


def test_the_one_small_step_craft_is_sized_from_the_rules():
    """Three 36-mass stages, a mass-7 capsule (a derp, an EVA pack, 8 derp-turns), a mass-4 thruster, 19 fuel."""
    plan = plan_for_victory(ENGINE, "one_small_step", 0)
    assert (plan.sizes.stage, plan.sizes.capsule, plan.sizes.thruster) == (36, 7, 4)
    assert plan.goal.burns == 6 and plan.sizes.fuel_for(plan.goal) == 19 and plan.sizes.rations_for(plan.goal) == 8
    assert plan.shakedown.crew == 3  # as many as the capsule carries for a night in orbit


def test_sizing_follows_the_fuel_formula():
    plan = size_mission(ENGINE.rules, (Job("Hop", crew=1, meals=2, burns=1),))
    # capsule carries a derp and 2 derp-turns (2): mass 3; thruster 1; dry 3+1+1+1 = 6; one burn at 6+1: 1 fuel
    assert (plan.capsule, plan.thruster, plan.fuel_for(Job("Hop", crew=1)), plan.stage) == (3, 1, 1, 7)


# ====================================================================== every victory reached in play
def test_one_small_step_a_moonwalker_comes_home():
    final, outcome = goal_game("one_small_step")
    assert outcome.winners == (0,) and "One Small Step" in outcome.reason
    walker = next(d for d in final.derps if "moon" in d.walked_on)
    assert walker.location is HOME and not walker.dead
    firsts = dict(final.firsts)
    assert firsts["first_eva"] == 0  # the moonwalk is the first derp outside
    # the shakedown: three derps, a night in orbit; every step and orbit type on the way is a first
    assert firsts["first_multiderp"] == firsts["first_multiturn"] == 0
    assert firsts["first_mission_step:Lunar Surface"] == firsts["first_orbit_type:low_lunar"] == 0


def test_final_destination_the_temple_is_found_and_reached():
    final, outcome = goal_game("moon_temple")
    assert outcome.winners == (0,) and "Temple" in outcome.reason
    assert ("temple:moon", 0) in final.achieved
    pilgrim = next(u for u in final.upgoers if u.temple_found)
    assert pilgrim.location == "lunar_surface" and final.programs[0].mapped("moon") >= 5


def test_final_destination_the_monolith_is_flown_home():
    final, outcome = goal_game("moon_monolith")
    assert outcome.winners == (0,) and "monolith" in outcome.reason
    craft = next(u for u in final.upgoers if u.relic_mass)
    assert craft.status == "landed" and craft.relic_mass == 3
    assert dict(final.firsts)["first_moon_landing"] == 0


def test_all_your_base_every_location_shines():
    final, outcome = goal_game("all_your_base")
    held = ENGINE.victory_rules.held_locations(final)
    assert held == {"polar": {0}, "synchronous": {0}, "low_lunar": {0}, "lunar_polar": {0}}
    assert "4 of 4" in outcome.reason
    beacons = [u for u in final.upgoers if u.name.endswith("beacon")]
    assert len(beacons) == 3 and all(not b.crew for b in beacons)  # set loose; the last light rides aboard


def test_all_seeing_eye_the_maps_come_home():
    final, outcome = goal_game("all_seeing_eye")
    assert outcome.winners == (0,) and final.programs[0].mapped_home("world") == 100
    assert sum(1 for u in final.upgoers if u.name.startswith("Surveyor") and u.status == "landed") >= 2


def test_two_bots_race_to_a_goal_and_one_wins():
    final, outcome = goal_game("all_your_base", players=2, turns=40)
    assert len(outcome.winners) >= 1 and "Every location is taken" in outcome.reason


def test_the_goal_plan_plays_only_legal_actions(monkeypatch):
    """In a solo goal game the bot never falls back to a random action: the plan is always accepted."""
    bot = SpaceProgramBot(5)
    monkeypatch.setattr(bot.chooser, "choice", lambda options: pytest.fail("the plan proposed a refused action"))
    from game.games.whatgoesup.sim import next_action
    state = ENGINE.new_game(default_setup(ENGINE, 1, 40, victory="all_seeing_eye"))
    dice = BestDice()
    for _ in range(20000):
        action = next_action(ENGINE, state, bot, dice)
        if action is None:
            break
        state = ENGINE.apply(state, action)
    assert state.phase == "over" and ENGINE.outcome(state).kind == "goal"


# ====================================================================== real dice (slow)
@pytest.mark.slow
@pytest.mark.parametrize("victory, turns", [("all_seeing_eye", 40), ("all_your_base", 40), ("moon_temple", 40),
                                            ("one_small_step", 60), ("moon_monolith", 60)])
def test_simulate_ends_some_games_by_the_goal(victory, turns):
    summary = simulate(ENGINE, 20, 1, players=2, turns=turns, victory=victory).to_data()
    assert summary["invariant_failures"] == 0, summary["first_failure"]
    assert summary["wins_by_goal"] > 0, summary
    assert summary["wins_by_goal"] + summary["turn_limit_endings"] == 20
