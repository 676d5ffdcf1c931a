"""The scripted Stop The Rock win (tests/golden/rock_win.json) replays and saves the world.

Made by tests/golden/make_rock_win.py: one program on normal difficulty playing the careful plan of
game/rock_plan.py, every die (the rock's drift die included) from the seeded stream, no roll forced; a test
plays the generator again and compares, so the numbers checked here are the generator's. Regenerate it
after a deliberate rules change with `python -m tests.golden.regenerate` and read the diff.
"""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from game.core import saves
from game.core.dice_rng import DiceRoller
from game.games.whatgoesup.rules.actions import Roll
from game.games.whatgoesup.rules.engine import CHANCE, Engine
from game.games.whatgoesup.rules.tables import load_rules

ROOT = Path(__file__).resolve().parents[1]
SAVE = ROOT / "tests" / "golden" / "rock_win.json"
RULES = load_rules()
NORMAL = RULES.scenarios.scenario("stop_the_rock").difficulty("normal")


def _replay_cli(*extra: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "main.py", "replay", str(SAVE), *extra], cwd=ROOT, capture_output=True,
                          text=True, timeout=120)


def test_the_command_line_replay_says_the_world_is_saved():
    result = _replay_cli()
    assert result.returncode == 0, result.stderr
    assert "Game over: The world is saved: the rock was pushed aside with 6 turns to spare" in result.stdout
    summary = json.loads(_replay_cli("--json").stdout.strip().splitlines()[-1])
    assert summary["turn"] == 19 and summary["phase"] == "over"
    assert summary["outcome"]["winners"] == [0] and summary["outcome"]["scores"] == [155]


def test_a_solo_normal_game_saved_on_turn_17_with_its_score():
    engine = Engine(RULES)
    loaded = saves.load_game(SAVE, engine)
    final = loaded.final
    assert len(final.programs) == 1 and final.setup.scenario == "stop_the_rock"
    assert final.setup.difficulty == "normal"
    assert loaded.states[0].rock.turns_left == NORMAL.turns_to_impact  # the page's 20 turns, as played
    assert loaded.states[0].programs[0].points == NORMAL.start_dots + NORMAL.start_points
    outcome = engine.outcome(final)
    assert outcome.kind == "saved" and outcome.winners == (0,)
    assert final.rock.saved_turn == 17 and final.rock.saved_turns_left == 6
    assert final.rock.nudge_total >= NORMAL.nudges_needed
    # 100 + 10 per turn to spare - 5 for the pilot who stayed on the rock.
    assert final.score == 155 and outcome.scores == (155,)
    texts = [e.text for s in loaded.states for e in s.events]
    assert any(t.startswith("The world's emergency funding") for t in texts)
    assert any(t.startswith("Shakedown lands safely at home.") for t in texts)
    assert sum("nudges the rock" in t for t in texts) == final.rock.nudges == 4


def test_every_die_comes_from_the_seed():
    """No roll was forced: the save's rolls are exactly what DiceRoller(seed) gives, drift die included."""
    engine = Engine(RULES)
    document = json.loads(SAVE.read_text(encoding="utf-8"))
    loaded = saves.load_game(SAVE, engine)
    dice = DiceRoller(document["seed"])
    rolls = 0
    for state, action in zip(loaded.states, loaded.actions):
        if engine.current_player(state) == CHANCE:
            assert isinstance(action, Roll) and action == dice.roll(engine, state)
            rolls += 1
    assert rolls > 30


def test_the_generator_still_makes_the_same_save():
    """make_rock_win.py plays the same game from the same seed and setup, action for action, to the same end."""
    sys.path.insert(0, str(ROOT / "tests" / "golden"))
    try:
        import make_rock_win
    finally:
        sys.path.pop(0)
    document = saves.read_document(SAVE)
    game = make_rock_win.RockGame(make_rock_win.SEED, "normal", Engine(RULES))
    assert document["seed"] == make_rock_win.SEED
    assert document["setup"] == game.engine.setup_to_data(game.setup)
    game.play()
    assert [a.to_data() for a in game.actions] == document["actions"]
    outcome = game.engine.outcome(game.state)
    assert outcome.kind == "saved" and outcome.scores == (155,) and game.state.rock.saved_turn == 17
