"""The saves a folder offers (issue 15): the Load screen's list has every good save and one entry per
broken save with its reason; Continue's newest save is a real save. settings.json, other programs'
JSON, folders and pipes named ``*.json`` are never offered (and a pipe never blocks)."""
from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest

from game.core import saves
from game.core.saves import list_saves, newest_save, save_game
from game.games.whatgoesup.rules.actions import EndRnD, Hire
from game.games.whatgoesup.rules.state import PlayerSetup, Setup

SETUP = Setup(players=(PlayerSetup("Test Space", "rabitians"),), turn_limit=5)


def age(path: Path, seconds_ago: float) -> None:
    stamp = time.time() - seconds_ago
    os.utime(path, (stamp, stamp))


@pytest.fixture
def folder(tmp_path, engine) -> Path:
    """Two good saves, a cut-short one, a deep one, settings.json, someone else's JSON, a folder, a pipe."""
    good = save_game(tmp_path / "good.json", engine, SETUP, 3, [Hire("Ada")])
    save_game(tmp_path / "older.json", engine, SETUP, 3, [Hire("Ada"), EndRnD()])
    cut = tmp_path / "cut.json"
    cut.write_text(good.read_text(encoding="utf-8")[:60], encoding="utf-8")
    (tmp_path / "deep.json").write_text("[" * 5000, encoding="utf-8")
    (tmp_path / "settings.json").write_text(json.dumps({"version": 1, "volume": 0.5}), encoding="utf-8")
    (tmp_path / "notes.json").write_text(json.dumps({"hello": "world"}), encoding="utf-8")
    (tmp_path / "folder.json").mkdir()
    if hasattr(os, "mkfifo"):
        os.mkfifo(tmp_path / "pipe.json")
    for n, name in enumerate(["older.json", "good.json", "cut.json", "deep.json"]):
        age(tmp_path / name, 100 - 10 * n)
    return tmp_path


def test_the_list_has_the_good_saves_and_one_entry_per_broken_one(folder, engine):
    listing = list_saves(folder, engine)
    assert [entry.path.name for entry in listing] == ["deep.json", "cut.json", "good.json", "older.json"]
    by_name = {entry.path.name: entry for entry in listing}
    assert by_name["good.json"].ok and by_name["good.json"].game.actions == (Hire("Ada"),)
    assert by_name["older.json"].ok and len(by_name["older.json"].game.actions) == 2
    assert not by_name["cut.json"].ok and by_name["cut.json"].error.startswith("the save is damaged or cut short")
    assert not by_name["deep.json"].ok and "nested too deeply" in by_name["deep.json"].error
    for entry in listing:  # the reason is a sentence without the file's name (the screen shows the name)
        assert entry.error is None or str(folder) not in entry.error


def test_a_save_made_after_listing_is_seen(folder, engine):
    list_saves(folder, engine)
    save_game(folder / "newer.json", engine, SETUP, 3, [])
    assert list_saves(folder, engine)[0].path.name == "newer.json"


def test_an_empty_or_missing_folder_lists_nothing(tmp_path, engine):
    assert list_saves(tmp_path, engine) == []
    assert list_saves(tmp_path / "nowhere", engine) == []
    assert newest_save(tmp_path / "nowhere") is None


def test_continue_takes_the_newest_save_the_load_screen_lists(folder):
    assert newest_save(folder) == folder / "deep.json"  # broken: Continue then shows the list and the reason
    (folder / "deep.json").unlink()
    (folder / "cut.json").unlink()
    assert newest_save(folder) == folder / "good.json"


def test_changing_the_settings_does_not_change_what_continue_loads(folder):
    (folder / "deep.json").unlink()
    (folder / "cut.json").unlink()
    (folder / "settings.json").write_text(json.dumps({"version": 1, "volume": 0.2}), encoding="utf-8")
    (folder / "notes.json").write_text("{}", encoding="utf-8")
    assert newest_save(folder) == folder / "good.json"


def test_a_fresh_install_has_nothing_to_continue(tmp_path):
    (tmp_path / "settings.json").write_text(json.dumps({"version": 1, "volume": 0.5}), encoding="utf-8")
    if hasattr(os, "mkfifo"):
        os.mkfifo(tmp_path / "pipe.json")
    (tmp_path / "folder.json").mkdir()
    assert newest_save(tmp_path) is None


def test_a_hidden_temporary_file_is_not_a_save(tmp_path, engine):
    good = save_game(tmp_path / "a.json", engine, SETUP, 3, [])
    (tmp_path / ".a.json.0123abcd.json").write_text(good.read_text(encoding="utf-8"), encoding="utf-8")
    assert [e.path.name for e in list_saves(tmp_path, engine)] == ["a.json"]


def test_autosaves_are_listed_too(tmp_path, engine):
    saves.autosave(tmp_path, engine, SETUP, 3, [Hire("Ada")])
    assert [e.path.name for e in list_saves(tmp_path, engine)] == ["autosave-1.json"]
    assert newest_save(tmp_path) == tmp_path / "autosave-1.json"
