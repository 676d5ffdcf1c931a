"""The shared core serves any game (issue "A house for several games"): Cosmoforce's engine saves, loads
strictly (its rolls bound to its seed), autosaves and replays through the same saves and session as What
Goes Up, and each game refuses the other's saves with the reason."""
from __future__ import annotations

import json

import pytest

from game.core import saves
from game.core.interface import GameRules
from game.core.saves import SaveError, load_game, save_game
from game.core.session import GameSession
from game.games.cosmoforce.rules.engine import Engine as CosmoforceEngine
from game.games.cosmoforce.rules.tables import load_rules as load_cosmoforce_rules
from game.games.cosmoforce.sim import default_setup, play_game


@pytest.fixture(scope="module")
def cosmoforce():
    engine = CosmoforceEngine(load_cosmoforce_rules())
    setup = default_setup(engine, 3)
    return engine, setup, play_game(engine, setup, 3).actions


def test_both_engines_answer_the_core_interface(engine, cosmoforce):
    assert isinstance(engine, GameRules) and isinstance(cosmoforce[0], GameRules)
    assert {engine.game_id, cosmoforce[0].game_id} == {"whatgoesup", "cosmoforce"}


def test_a_cosmoforce_game_saves_and_loads_strictly(tmp_path, cosmoforce):
    engine, setup, actions = cosmoforce
    path = save_game(tmp_path / "fight.json", engine, setup, 3, actions)
    assert json.loads(path.read_text(encoding="utf-8"))["game"] == "cosmoforce"
    loaded = load_game(path, engine, strict=True)
    assert loaded.game == "cosmoforce" and loaded.setup == setup and list(loaded.actions) == list(actions)
    assert not loaded.edited


def test_a_cosmoforce_session_autosaves_every_action(tmp_path, cosmoforce):
    engine, setup, _ = cosmoforce
    session = GameSession.new(engine, setup, 3, saves_dir=tmp_path)
    for _ in range(20):
        if session.over:
            break
        if session.waiting_for_dice:
            session.roll()
        else:
            session.apply(session.legal_actions()[0])
        assert load_game(saves.autosave_path(tmp_path, 1), engine).final == session.state


def test_each_game_refuses_the_others_saves(tmp_path, engine, cosmoforce):
    cf_engine, setup, actions = cosmoforce
    path = save_game(tmp_path / "fight.json", cf_engine, setup, 3, actions)
    with pytest.raises(SaveError, match=r"a save of another game \('cosmoforce'\), not of What Goes Up"):
        load_game(path, engine)
