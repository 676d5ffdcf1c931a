"""Loading a save within limits (issue 15): a file that is too big, too deep, holds numbers of thousands
of digits, is not a regular file, or holds a name the client could not have typed (or cannot draw) is
refused with a SaveError naming the file and the reason; nothing else ever escapes."""
from __future__ import annotations

import dataclasses
import json
import os
from pathlib import Path

import pytest

from game.core import saves
from game.core.saves import SaveError, load_game, save_game
from game.games.whatgoesup.rules.actions import Assemble, EndRnD, Hire, Invent
from game.games.whatgoesup.rules.limits import PLANNED_BURNS_MAX, PROGRAM_NAME_MAX
from game.games.whatgoesup.rules.state import PlayerSetup, Setup, UpgoerDesign
from game.games.whatgoesup.sim import default_setup

SETUP = Setup(players=(PlayerSetup("Test Space", "rabitians"), PlayerSetup("Other Space", "merbs")), turn_limit=5)


@pytest.fixture
def save_path(tmp_path, engine) -> Path:
    return save_game(tmp_path / "game.json", engine, SETUP, 7, [Hire("Ada"), EndRnD()])


def document(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def write(path: Path, doc) -> Path:
    path.write_text(json.dumps(doc), encoding="utf-8")
    return path


def refusal(path: Path, engine, **kwargs) -> str:
    """The SaveError's message; it always starts with the file's name."""
    with pytest.raises(SaveError) as info:
        load_game(path, engine, **kwargs)
    message = str(info.value)
    assert message.startswith(str(path)), message
    return message


def test_a_save_nested_a_thousand_levels_deep_is_refused(save_path, engine):
    text = save_path.read_text(encoding="utf-8").replace('"seed": 7', '"seed": ' + "[" * 1000 + "7" + "]" * 1000)
    save_path.write_text(text, encoding="utf-8")
    assert "nested too deeply" in refusal(save_path, engine)


def test_a_file_of_brackets_is_refused(tmp_path, engine):
    path = tmp_path / "brackets.json"
    path.write_text("[" * 200_000, encoding="utf-8")
    assert "nested too deeply" in refusal(path, engine)
    path.write_text("{\"a\": " * 50_000, encoding="utf-8")
    assert "nested too deeply" in refusal(path, engine)


@pytest.mark.parametrize("digits", [21, 5000, 100_000])
def test_numbers_of_thousands_of_digits_are_refused(save_path, engine, digits):
    text = save_path.read_text(encoding="utf-8").replace('"seed": 7', '"seed": ' + "9" * digits)
    save_path.write_text(text, encoding="utf-8")
    assert f"a number of {digits:,} digits; at most 20 are allowed" in refusal(save_path, engine)


@pytest.mark.parametrize("number", ["NaN", "Infinity", "-Infinity", "1e999"])
def test_numbers_json_does_not_allow_are_refused(save_path, engine, number):
    text = save_path.read_text(encoding="utf-8").replace('"seed": 7', f'"seed": {number}')
    save_path.write_text(text, encoding="utf-8")
    message = refusal(save_path, engine)
    assert "not a number" in message or "too large" in message


def test_a_file_larger_than_the_limit_is_refused_without_reading_it(save_path, engine, monkeypatch):
    monkeypatch.setattr(saves, "SAVE_LIMITS", dataclasses.replace(saves.SAVE_LIMITS, max_bytes=100))
    assert "a file this big is not one the game wrote" in refusal(save_path, engine)


def test_more_actions_than_the_limit_are_refused(save_path, engine, monkeypatch):
    monkeypatch.setattr(saves, "MAX_ACTIONS", 1)
    assert "holds 2 actions; at most 1 are allowed" in refusal(save_path, engine)


def test_a_folder_named_like_a_save_is_refused(tmp_path, engine):
    folder = tmp_path / "folder.json"
    folder.mkdir()
    assert "it is a folder, not a file" in refusal(folder, engine)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this platform")
def test_a_fifo_is_refused_without_waiting_for_a_writer(tmp_path, engine):
    fifo = tmp_path / "pipe.json"
    os.mkfifo(fifo)
    assert "a pipe (FIFO), not a file" in refusal(fifo, engine)


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="no /dev/zero here")
def test_a_device_is_refused_without_reading_it():
    from game.games.whatgoesup.rules.engine import Engine
    from game.games.whatgoesup.rules.tables import load_rules
    assert "it is a device, not a file" in refusal(Path("/dev/zero"), Engine(load_rules()))


@pytest.mark.parametrize("name, problem", [
    ("Space\x00Agency", "contains a control character (U+0000)"),
    ("Line\nbreak", "contains a control character (U+000A)"),
    ("Sep\u2028arated", "contains a line break (U+2028)"),
    ("X" * (PROGRAM_NAME_MAX + 1), f"is longer than {PROGRAM_NAME_MAX} characters ({PROGRAM_NAME_MAX + 1})"),
])
def test_a_program_name_the_new_game_screen_could_not_make_is_refused(save_path, engine, name, problem):
    doc = document(save_path)
    doc["setup"]["players"][0]["name"] = name
    write(save_path, doc)
    assert refusal(save_path, engine).endswith(f"setup.players[1].name {problem}")


def test_a_name_as_long_as_the_screen_allows_loads(save_path, engine):
    doc = document(save_path)
    doc["setup"]["players"][0]["name"] = "Ü" * PROGRAM_NAME_MAX
    write(save_path, doc)
    assert load_game(save_path, engine).final.programs[0].name == "Ü" * PROGRAM_NAME_MAX


def test_a_hundred_thousand_character_name_is_refused_at_once(save_path, engine):
    doc = document(save_path)
    doc["setup"]["players"][0]["name"] = "A" * 100_000
    write(save_path, doc)
    assert "a text of 100,000 characters; at most 1,000 are allowed" in refusal(save_path, engine)


@pytest.mark.parametrize("entry, problem", [
    ({"action": "Hire", "name": "Ada\x07"}, "Hire.name contains a control character (U+0007)"),
    ({"action": "Invent", "kind": "capsule", "mass": 3, "name": "P" * 33}, "Invent.name is longer than 32"),
    ({"action": "Invent", "kind": "capsule", "mass": 10 ** 12}, "Invent.mass must be from -1000000000 to"),
    ({"action": "Assemble", "design": {"name": "Hop", "planned_burns": PLANNED_BURNS_MAX + 1}},
     f"Assemble.design.planned_burns must be from 0 to {PLANNED_BURNS_MAX}, not {PLANNED_BURNS_MAX + 1}"),
    ({"action": "Assemble", "design": {"name": "Hop", "modules": ["I1"] * 201}},
     "Assemble.design.modules holds 201 entries; at most 200 are allowed"),
    ({"action": "Hire", "name": "Ada", "\x00": 1}, "Hire: unknown field '\\x00'"),
    ({"action": "\x00"}, "unknown action '\\x00'"),
])
def test_action_texts_and_numbers_the_client_could_not_make_are_refused(save_path, engine, entry, problem):
    doc = document(save_path)
    doc["actions"][0] = entry
    write(save_path, doc)
    message = refusal(save_path, engine)
    assert f"action 1: {problem}" in message, message


def test_refusals_never_carry_a_character_the_screen_cannot_draw(save_path, engine):
    """The Load screen shows the reason: a control character from the file never reaches it."""
    doc = document(save_path)
    doc["actions"][0] = {"action": "Teleport\x00\x1b[2J"}
    write(save_path, doc)
    message = refusal(save_path, engine)
    assert not any(ord(c) < 32 for c in message)


def test_the_limits_allow_a_real_design_and_names(save_path, engine):
    """Every limit leaves room for what the client makes: a design at the burn limit and full-length names."""
    setup = default_setup(engine, 1, 5)
    design = UpgoerDesign("U" * 30, planned_burns=PLANNED_BURNS_MAX)
    data = Assemble(design).to_data()
    assert engine.action_from_data(data) == Assemble(design)
    assert engine.action_from_data(Invent("capsule", 3, "C" * 32).to_data()).name == "C" * 32
    assert engine.setup_from_data(engine.setup_to_data(setup)) == setup
