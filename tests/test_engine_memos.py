"""What the engine keeps between questions (issue 12's speed shortcuts: kept figures, modules, timing scores, help
memos, listing rows) never changes an answer: an engine that has played a game applies each action exactly as an
engine made for that one action does, under every optional rule and edition, and again when it is handed an older
state after newer ones (an undo, a replay, a save loaded).

``tests/test_flight_shortcuts.py`` holds each shortcut to its full work in default play; this holds the engine as a
whole to a fresh one wherever the options lead play, so a value kept on fewer inputs than it reads shows here."""
from __future__ import annotations

import pytest

from game.games.whatgoesup.rules.editions import load_edition
from game.games.whatgoesup.rules.engine import Engine
from game.games.whatgoesup.rules.tables import load_rules
from game.games.whatgoesup.sim import default_setup, play_game

RULES_2014 = load_rules()

# name -> (rules, default_setup's arguments, bots, seeds)
PLAY = {
    "every other option": (RULES_2014, dict(players=2, turns=20, options=(
        "hostile_waters", "plan_ahead", "simplified_stack", "simulationist")), ("program", "random"), range(2)),
    "clockwork robots with repairs": (RULES_2014, dict(players=2, turns=20, options=(
        "underped", "underped_clockwork", "underped_repairs")), ("landing", "random"), range(2)),
    "space war": (RULES_2014, dict(players=2, turns=20, options=("space_war",)), ("raider",), range(2)),
    "stop the rock with robots": (RULES_2014, dict(players=1, turns=20, scenario="stop_the_rock", options=(
        "underped", "underped_clockwork", "underped_repairs", "hostile_waters")), ("program", "random"), range(3)),
    "the 2013 edition": (None, dict(players=2, turns=20), ("program", "random"), range(2)),
    "the 2013 edition, stop the rock": (None, dict(players=1, turns=20, scenario="stop_the_rock"),
                                        ("program",), range(3)),
}


@pytest.mark.parametrize("name", sorted(PLAY))
def test_a_warm_engine_applies_every_action_as_a_fresh_one(name):
    rules, arguments, bots, seeds = PLAY[name]
    rules = rules or load_edition("2013")
    engine = Engine(rules)
    arguments = dict(arguments)
    players, turns = arguments.pop("players"), arguments.pop("turns")
    setup = default_setup(engine, players, turns, **arguments)
    steps, older = [], []
    flights = 0

    def check(before, action, after):
        nonlocal flights
        flights += before.phase == "flight"
        fresh = Engine(rules)
        assert fresh.apply(before, action) == after, (before.turn, before.phase, str(action))
        # who acts next, as the warm engine keeps it (a research says so itself) and as worked out afresh
        assert engine.current_player(after) == fresh._who_acts(after), (before.turn, str(action))
        steps.append((before, action, after))
        if len(steps) % 9 == 0:  # an older state handed back to the warm engine, out of order
            old_before, old_action, old_after = steps[len(steps) // 2]
            assert engine.apply(old_before, old_action) == old_after, (old_before.turn, str(old_action))
            older.append(old_action)

    for bot in bots:
        for seed in seeds:
            steps.clear()
            result = play_game(engine, setup, seed, max_turns=turns, check=False, on_action=check, bot_kind=bot)
            assert result.failure is None, result.failure
    assert flights > 50 and len(older) > 20, (flights, len(older))


def test_research_finds_its_blueprint_as_a_fresh_engine_does_whatever_places_it_kept():
    """A research reads its blueprint's place from the places it kept for the things tuple the last research made
    (the same ids in the same places); a tuple made otherwise (an invention, an older state handed back, one
    holding an id twice, which play never makes) is read again, and the state after is a fresh engine's."""
    from game.games.whatgoesup.rules.actions import Invent, Research
    from game.games.whatgoesup.rules.state import update

    engine = Engine(RULES_2014)
    state = engine.new_game(default_setup(engine, 2, 20))
    state = engine.apply(state, Invent("thruster", 1))
    state = engine.apply(state, Invent("capsule", 3))
    lower, capsule = state.things[0].id, state.things[1].id
    streak = [state]
    for thing, safety in ((lower, "boom"), (capsule, "boom"), (lower, "fail"), (capsule, "fail")):
        streak.append(engine.apply(streak[-1], Research(thing, safety, 1)))
        assert streak[-1] == Engine(RULES_2014).apply(streak[-2], Research(thing, safety, 1))
    # an older state handed back after newer ones: its own places are read
    again = engine.apply(streak[1], Research(lower, "fail", 1))
    assert again == Engine(RULES_2014).apply(streak[1], Research(lower, "fail", 1))
    assert again.things[0].rating.fail == streak[1].things[0].rating.fail + 1
    # an id twice: both values researched, as the plain way (replace_in) does
    doubled = update(streak[-1], things=streak[-1].things + (streak[-1].things[0],))
    after = engine.apply(doubled, Research(lower, "boom", 1))
    assert after == Engine(RULES_2014).apply(doubled, Research(lower, "boom", 1))
    assert after.things[0] == after.things[-1] and after.things[0].rating.boom == doubled.things[0].rating.boom + 1
