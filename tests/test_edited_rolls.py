"""Rolls bound to the seed (issue 15): loading checks every recorded roll against the dice the save's seed
(or its tutorial script) gives at that point. An edited roll loads with the game marked edited and a line
in the story, or is refused when loading strictly (``replay --strict``). Saves name their game; saves
from before that load as What Goes Up."""
from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from game.core import saves
from game.core.dice_rng import DiceRoller, ScriptedDice
from game.core.saves import SaveError, load_game
from game.core.session import GameSession, Notice
from game.games.whatgoesup.rules.actions import Assemble, Build, EndRnD, Invent, Research, Roll
from game.games.whatgoesup.rules.state import PlayerSetup, Setup, UpgoerDesign

ROOT = Path(__file__).resolve().parents[1]
SETUP = Setup(players=(PlayerSetup("Test Space", "rabitians"),), options=frozenset({"simplified_stack"}),
              turn_limit=4)
SEED = 11


def launched(engine, folder: Path, dice=None) -> GameSession:
    """An uncrewed hop launched and its launch roll made (a one-program game)."""
    session = GameSession.new(engine, SETUP, SEED, saves_dir=folder, dice=dice)
    session.apply(Invent("lower_stage", 4, "Hopper"))
    session.apply(Invent("capsule", 3, "Pod"))
    ids = {t.name: t.id for t in session.state.things}
    for action in (Research(ids["Hopper"], "fail", 1), Research(ids["Pod"], "fail", 2), Build(ids["Hopper"]),
                   Build(ids["Pod"])):
        session.apply(action)
    items = {session.state.thing(i.thing_id).name: i.id for i in session.state.items_of(0)}
    session.apply(Assemble(UpgoerDesign("Hop", stages=((items["Hopper"],),), modules=(items["Pod"],))))
    session.apply(EndRnD())
    session.apply(next(a for a in session.legal_actions() if type(a).__name__ == "Launch"))
    session.roll()
    return session


def another_value(engine, states, index: int, value: int) -> int:
    """A value the roll at ``states[index]`` could have shown other than ``value``."""
    return next(r.value for r, _ in engine.chance_outcomes(states[index]) if r.value != value)


@pytest.fixture
def edited_save(engine, tmp_path):
    """(path, the roll's action number, the value written, the value the seed gives)."""
    session = launched(engine, tmp_path)
    path = session.save(tmp_path / "game.json")
    doc = json.loads(path.read_text(encoding="utf-8"))
    n = len(session.actions)
    rolled = session.actions[-1].value
    doc["actions"][n - 1]["value"] = written = another_value(engine, session.states, n - 1, rolled)
    path.write_text(json.dumps(doc), encoding="utf-8")
    return path, n, written, rolled


def test_an_untouched_save_is_not_edited(engine, tmp_path):
    session = launched(engine, tmp_path)
    loaded = load_game(session.save(tmp_path / "game.json"), engine, strict=True)
    assert not loaded.edited and loaded.edited_rolls == () and loaded.dice == "seeded"
    assert isinstance(loaded.actions[-1], Roll)


def test_an_edited_roll_loads_marked_as_edited(engine, edited_save):
    path, n, written, rolled = edited_save
    loaded = load_game(path, engine)
    assert loaded.edited
    assert loaded.edited_rolls == (saves.EditedRoll(action_number=n, roll_number=1, recorded=written,
                                                    expected=rolled),)
    assert loaded.actions[-1] == Roll(written)  # the game goes on from the save as written


def test_strict_loading_refuses_an_edited_roll(engine, edited_save):
    path, n, written, rolled = edited_save
    with pytest.raises(SaveError) as info:
        load_game(path, engine, strict=True)
    assert str(info.value) == (f"{path}: roll 1 (action {n}) shows {written} where the save's seed gives "
                               f"{rolled}: the save was edited (strict loading refuses it)")


def test_the_loaded_session_shows_the_edit_in_its_story(engine, edited_save, tmp_path):
    path, n, written, rolled = edited_save
    session = GameSession.load(engine, path, saves_dir=tmp_path)
    assert session.edited
    notices = [e for e in session.log if isinstance(e.event, Notice)]
    assert len(notices) == 1 and notices[0].action_index == n
    assert notices[0].event.text.startswith(f"This save was edited: roll 1 (action {n}) shows {written}")
    assert session.log[-1] is notices[0]  # after the events of the roll it is about
    with pytest.raises(SaveError, match="the save was edited"):
        GameSession.load(engine, path, saves_dir=tmp_path, strict=True)


def test_a_changed_seed_shows_as_edited_rolls(engine, tmp_path):
    path = launched(engine, tmp_path).save(tmp_path / "game.json")
    doc = json.loads(path.read_text(encoding="utf-8"))
    doc["seed"] = next(s for s in range(1000) if DiceRoller(s).roll(engine, load_game(path, engine).states[-2])
                       != load_game(path, engine).actions[-1])
    path.write_text(json.dumps(doc), encoding="utf-8")
    assert load_game(path, engine).edited


def test_scripted_dice_say_so_and_are_checked_against_their_script(engine, tmp_path):
    session = launched(engine, tmp_path, ScriptedDice([1, 1], SEED))
    assert session.actions[-1] == Roll(1)
    path = session.save(tmp_path / "tutorial.json")
    doc = json.loads(path.read_text(encoding="utf-8"))
    assert doc["dice"] == {"scripted": [1, 1]}
    loaded = load_game(path, engine, strict=True)
    assert not loaded.edited and loaded.dice == {"scripted": [1, 1]}
    resumed = GameSession.load(engine, path, saves_dir=tmp_path)  # the save's own script, no dice given
    assert isinstance(resumed.dice, ScriptedDice) and resumed.dice.position == 1
    doc["actions"][-1]["value"] = 2
    path.write_text(json.dumps(doc), encoding="utf-8")
    assert load_game(path, engine).edited_rolls[0].expected == 1


def test_bad_dice_descriptions_are_refused(engine, tmp_path):
    path = launched(engine, tmp_path).save(tmp_path / "game.json")
    doc = json.loads(path.read_text(encoding="utf-8"))
    for dice, problem in (("loaded", 'dice must be "seeded" or {"scripted": [values]}'),
                          ({"scripted": "1,1"}, "dice.scripted must be a list, not str"),
                          ({"scripted": [1, 10 ** 12]}, "dice.scripted must be from")):
        doc["dice"] = dice
        path.write_text(json.dumps(doc), encoding="utf-8")
        with pytest.raises(SaveError, match=re.escape(problem)):
            load_game(path, engine)


def version_1(doc: dict) -> dict:
    """The same save as version 1 wrote it: no game, no dice."""
    old = {k: v for k, v in doc.items() if k not in ("game", "dice")}
    old["version"] = 1
    return old


def test_a_version_1_save_loads_as_what_goes_up(engine, tmp_path):
    session = launched(engine, tmp_path)
    path = session.save(tmp_path / "old.json")
    path.write_text(json.dumps(version_1(json.loads(path.read_text(encoding="utf-8")))), encoding="utf-8")
    loaded = load_game(path, engine, strict=True)
    assert loaded.game == "whatgoesup" and loaded.final == session.state


def test_a_version_1_tutorial_save_is_checked_against_the_dice_it_is_loaded_with(engine, tmp_path):
    session = launched(engine, tmp_path, ScriptedDice([1, 1], SEED))
    path = session.save(tmp_path / "tutorial.json")
    path.write_text(json.dumps(version_1(json.loads(path.read_text(encoding="utf-8")))), encoding="utf-8")
    resumed = GameSession.load(engine, path, saves_dir=tmp_path, dice=ScriptedDice([1, 1], SEED))
    assert not resumed.edited and resumed.dice.position == 1


def test_a_save_of_another_game_is_refused(engine, tmp_path):
    path = launched(engine, tmp_path).save(tmp_path / "game.json")
    doc = json.loads(path.read_text(encoding="utf-8"))
    doc["game"] = "cosmoforce"
    path.write_text(json.dumps(doc), encoding="utf-8")
    with pytest.raises(SaveError, match=r"this is a save of another game \('cosmoforce'\), not of What Goes Up"):
        load_game(path, engine)


def run_replay(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "main.py", "replay", *args], cwd=ROOT, capture_output=True,
                          text=True, timeout=120)


def test_replay_warns_of_an_edited_save_and_strict_replay_refuses_it(edited_save):
    path, n, written, rolled = edited_save
    proc = run_replay(str(path), "--json")
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout.strip().splitlines()[-1])["edited_rolls"] == 1
    assert f"This save was edited: roll 1 (action {n})" in proc.stderr
    proc = run_replay(str(path), "--strict")
    assert proc.returncode == 1 and "Traceback" not in proc.stderr
    assert proc.stderr.strip().endswith("the save was edited (strict loading refuses it)")


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="no /dev/zero here")
def test_replay_refuses_a_device_at_once():
    proc = run_replay("/dev/zero")
    assert proc.returncode == 1 and "Traceback" not in proc.stderr
    assert proc.stderr.strip() == "cannot replay: /dev/zero: not a save file: it is a device, not a file"


def test_replay_refuses_a_folder(tmp_path):
    proc = run_replay(str(tmp_path))
    assert proc.returncode == 1
    assert proc.stderr.strip().endswith("not a save file: it is a folder, not a file")
