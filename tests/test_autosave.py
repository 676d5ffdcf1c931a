"""Autosave loses at most the action being made (issue 15): after every action autosave-1.json holds the
whole log; the autosaves rotate on a session's first autosave and at each change of turn, phase or
flight stage; temporary files that interrupted writes left are removed at start; every write syncs the
folder after its rename; settings go through the same writer and never follow a planted link."""
from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest

from game.core import atomic, saves
from game.core.atomic import clean_stale_temporaries, write_atomic
from game.core.session import GameSession
from game.games.whatgoesup.rules.actions import EndRnD, Hire, Invent
from game.games.whatgoesup.rules.state import PlayerSetup, Setup

SETUP = Setup(players=(PlayerSetup("Test Space", "rabitians"), PlayerSetup("Other Space", "merbs")), turn_limit=5)


def autosaved_actions(folder: Path, n: int = 1) -> list:
    return json.loads(saves.autosave_path(folder, n).read_text(encoding="utf-8"))["actions"]


def names(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir())


def test_every_action_is_in_the_autosave_as_soon_as_it_is_made(engine, tmp_path):
    session = GameSession.new(engine, SETUP, 5, saves_dir=tmp_path)
    steps = [lambda: session.apply(Hire("Ada")), lambda: session.apply(Invent("capsule", 3, "Pod")),
             lambda: session.apply(EndRnD()), lambda: session.apply(Hire("Bob")), lambda: session.apply(EndRnD())]
    for step in steps:
        step()
        assert autosaved_actions(tmp_path) == [a.to_data() for a in session.actions]
        loaded = saves.load_game(saves.autosave_path(tmp_path, 1), engine)
        assert loaded.final == session.state  # a crash now would cost nothing


def test_the_autosaves_rotate_at_phase_changes_only(engine, tmp_path):
    session = GameSession.new(engine, SETUP, 5, saves_dir=tmp_path)
    session.apply(Hire("Ada"))  # the session's first autosave rotates (nothing to rotate yet)
    session.apply(Invent("capsule", 3, "Pod"))  # same phase: autosave-1 is replaced
    assert names(tmp_path) == ["autosave-1.json"]
    session.apply(EndRnD())  # program 2's R&D: no rotation
    session.apply(EndRnD())  # the turn changes: the autosaves rotate
    assert names(tmp_path) == ["autosave-1.json", "autosave-2.json"]
    assert len(autosaved_actions(tmp_path, 2)) == 3 and len(autosaved_actions(tmp_path, 1)) == 4


def test_a_new_session_keeps_the_last_games_autosave(engine, tmp_path):
    first = GameSession.new(engine, SETUP, 5, saves_dir=tmp_path)
    first.apply(Hire("Ada"))
    second = GameSession.new(engine, SETUP, 6, saves_dir=tmp_path)
    second.apply(Hire("Zed"))
    assert autosaved_actions(tmp_path, 2)[0]["name"] == "Ada"
    assert autosaved_actions(tmp_path, 1)[0]["name"] == "Zed"


def test_undo_is_autosaved_too(engine, tmp_path):
    session = GameSession.new(engine, SETUP, 5, saves_dir=tmp_path)
    session.apply(Hire("Ada"))
    session.apply(Hire("Bob"))
    session.undo()
    assert autosaved_actions(tmp_path) == [Hire("Ada").to_data()]


def test_a_full_disk_never_stops_play(engine, tmp_path, monkeypatch):
    session = GameSession.new(engine, SETUP, 5, saves_dir=tmp_path)
    session.apply(Hire("Ada"))
    monkeypatch.setattr(atomic.os, "fsync", lambda fd: (_ for _ in ()).throw(OSError(28, "full")))
    session.apply(Hire("Bob"))
    assert "the disk is full" in session.autosave_error
    assert autosaved_actions(tmp_path) == [Hire("Ada").to_data()]  # the last good autosave is intact
    monkeypatch.undo()
    session.apply(Hire("Cy"))
    assert session.autosave_error is None and len(autosaved_actions(tmp_path)) == 3


def test_stale_temporary_files_are_removed_when_a_session_starts(engine, tmp_path):
    orphan = tmp_path / ".autosave-1.json.0a1b2c3d4e5f.tmp"
    legacy = tmp_path / "settings.json.tmp"
    young = tmp_path / ".game.json.ffffffffffff.tmp"
    unrelated = [tmp_path / ".notes.tmp", tmp_path / "draft.tmp", tmp_path / "game.json"]
    for path in [orphan, legacy, young, *unrelated]:
        path.write_text("x", encoding="utf-8")
    for path in (orphan, legacy):
        stamp = time.time() - 3600
        os.utime(path, (stamp, stamp))
    GameSession.new(engine, SETUP, 5, saves_dir=tmp_path)
    assert not orphan.exists() and not legacy.exists()
    assert young.exists() and all(p.exists() for p in unrelated)  # a write in progress is left alone


def test_cleaning_a_missing_folder_is_harmless(tmp_path):
    assert clean_stale_temporaries(tmp_path / "nowhere") == []


def test_the_folder_is_synced_after_each_rename(engine, tmp_path, monkeypatch):
    events = []
    real_replace = os.replace
    monkeypatch.setattr(atomic.os, "replace", lambda a, b: (events.append(("rename", Path(b).name)),
                                                           real_replace(a, b)))
    monkeypatch.setattr(saves.os, "replace", lambda a, b: (events.append(("rename", Path(b).name)),
                                                          real_replace(a, b)))
    monkeypatch.setattr(atomic, "sync_folder", lambda folder: events.append(("sync", Path(folder))))
    saves.save_game(tmp_path / "game.json", engine, SETUP, 5, [Hire("Ada")])
    assert events == [("rename", "game.json"), ("sync", tmp_path)]
    events.clear()
    saves.autosave(tmp_path, engine, SETUP, 5, [Hire("Ada")])
    saves.autosave(tmp_path, engine, SETUP, 5, [Hire("Ada")])
    assert events[-3:] == [("rename", "autosave-2.json"), ("rename", "autosave-1.json"), ("sync", tmp_path)]


def test_a_planted_link_at_the_old_settings_temporary_name_is_not_followed(tmp_path):
    from game.core.atomic import write_atomic as writer
    victim = tmp_path / "victim.txt"
    victim.write_text("precious", encoding="utf-8")
    (tmp_path / "settings.json.tmp").symlink_to(victim)
    writer(tmp_path / "settings.json", '{"version": 1}\n')
    assert victim.read_text(encoding="utf-8") == "precious"
    assert (tmp_path / "settings.json").read_text(encoding="utf-8") == '{"version": 1}\n'


def test_a_link_planted_at_the_temporary_name_itself_stops_the_write(tmp_path, monkeypatch):
    victim = tmp_path / "victim.txt"
    victim.write_text("precious", encoding="utf-8")
    monkeypatch.setattr(atomic, "random_tag", lambda: "guessed")
    (tmp_path / ".settings.json.guessed.tmp").symlink_to(victim)
    with pytest.raises(OSError):
        write_atomic(tmp_path / "settings.json", "{}\n")
    assert victim.read_text(encoding="utf-8") == "precious"
    assert not (tmp_path / "settings.json").exists()


def test_settings_are_written_by_the_atomic_writer(tmp_path, monkeypatch):
    pytest.importorskip("pygame")
    from game.client.shell import settings as settings_module
    written = []
    monkeypatch.setattr(settings_module, "write_atomic", lambda path, text: written.append((path, text)))
    settings_module.save_settings(settings_module.Settings(), tmp_path / "settings.json")
    assert written and written[0][0] == tmp_path / "settings.json"
    assert json.loads(written[0][1])["volume"] == settings_module.Settings().volume


def test_a_settings_file_that_is_a_link_is_replaced_not_written_through(tmp_path):
    pytest.importorskip("pygame")
    from game.client.shell.settings import Settings, save_settings
    victim = tmp_path / "victim.txt"
    victim.write_text("precious", encoding="utf-8")
    (tmp_path / "settings.json").symlink_to(victim)
    save_settings(Settings(), tmp_path / "settings.json")
    assert victim.read_text(encoding="utf-8") == "precious"
    assert not (tmp_path / "settings.json").is_symlink()
