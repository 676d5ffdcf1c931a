"""In seeded play of every kind, the story after an action is that action's own (issue 12).

R&D handlers set their own events instead of the engine clearing them before each action, so a handler that
forgot would repeat the story of the action before it; the flights, the drift die and the trades' answers
must not either. Every action of these games is looked at, in both editions and under the optional rules."""
from __future__ import annotations

import collections

import pytest

from game.games.whatgoesup.rules.engine import Engine
from game.games.whatgoesup.rules.tables import load_rules
from game.games.whatgoesup.sim import default_setup, play_game

ENGINE = Engine(load_rules())
EDITION_2013 = ENGINE.for_edition("2013")


def _options(engine, *names):
    return tuple(n for n in names if n in set(engine.rules.option_ids))


GAMES = {
    "2014, options": (ENGINE, default_setup(ENGINE, 3, 8, options=_options(ENGINE, "underped", "space_war",
                                                                             "hostile_waters"))),
    "2014, stop the rock": (ENGINE, default_setup(ENGINE, 2, scenario="stop_the_rock")),
    "2013, options": (EDITION_2013, default_setup(EDITION_2013, 3, 8, options=_options(
        EDITION_2013, "underped", "underped_clockwork", "simplified_stack"))),
}


@pytest.mark.parametrize("name", sorted(GAMES))
def test_no_action_repeats_the_story_of_the_action_before(name):
    engine, setup = GAMES[name]
    kinds: collections.Counter = collections.Counter()
    repeated = []

    def look(before, action, after):
        kinds[type(action).__name__] += 1
        earlier = set(map(id, before.events))
        if any(id(event) in earlier for event in after.events):
            repeated.append((after.turn, str(action), [e.text for e in after.events][:2]))

    for bot in ("random", "raider"):
        for seed in (1, 2):
            result = play_game(engine, setup, seed, max_turns=8, check=False, on_action=look, bot_kind=bot)
            assert result.failure is None, result.failure
    assert repeated == []
    assert {"Research", "Build", "Invent", "EndRnD", "Roll", "Assemble"} <= set(kinds), kinds
