"""Saves: round trip, atomic writes, every kind of bad file refused with a clear message,
autosave rotation and undo stopping at a die roll."""
from __future__ import annotations

import errno
import json
from pathlib import Path

import pytest

from game.core import saves
from game.games.whatgoesup.rules.actions import EndRnD, Roll
from game.core.saves import (LoadedGame, SaveError, UndoError, autosave, latest_autosave, load_game, save_game,
                        undo)
from game.games.whatgoesup.sim import default_setup, play_game


@pytest.fixture(scope="module")
def game(rules):
    """A short seeded bot game: (setup, seed, actions, final state)."""
    from game.games.whatgoesup.rules.engine import Engine
    engine = Engine(rules)
    setup = default_setup(engine, players=2, turns=20)
    result = play_game(engine, setup, seed=3, max_turns=2)
    assert len(result.actions) > 20
    return setup, 3, result.actions, result.final


def write_doc(path: Path, doc: dict) -> Path:
    path.write_text(json.dumps(doc, indent=1), encoding="utf-8")
    return path


def saved_doc(tmp_path, engine, game) -> tuple[Path, dict]:
    setup, seed, actions, _ = game
    path = save_game(tmp_path / "game.json", engine, setup, seed, actions)
    return path, json.loads(path.read_text(encoding="utf-8"))


def test_round_trip(tmp_path, rules, engine, game):
    setup, seed, actions, final = game
    path, doc = saved_doc(tmp_path, engine, game)
    assert doc["format"] == "whatgoesup-save" and doc["version"] == 2 and doc["game"] == "whatgoesup"
    assert doc["rules_digest"] == rules.digest and doc["edition"] == rules.edition.id
    assert doc["dice"] == "seeded"
    loaded = load_game(path, engine)
    assert isinstance(loaded, LoadedGame)
    assert loaded.setup == setup and loaded.seed == seed and loaded.game == "whatgoesup"
    assert not loaded.edited
    assert list(loaded.actions) == list(actions)
    assert len(loaded.states) == len(actions) + 1
    assert loaded.final == final


def test_atomic_write_keeps_the_old_file_on_a_full_disk(tmp_path, engine, game, monkeypatch):
    setup, seed, actions, _ = game
    path = save_game(tmp_path / "game.json", engine, setup, seed, actions[:5])
    before = path.read_bytes()

    def disk_full(src, dst):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(saves.os, "replace", disk_full)
    with pytest.raises(SaveError, match=r"could not save to .*game\.json: the disk is full; "
                                        r"the previous save is unchanged"):
        save_game(path, engine, setup, seed, actions)
    assert path.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.json"]  # no temp file left behind


def test_failed_write_of_the_temp_file_keeps_the_old_file(tmp_path, engine, game, monkeypatch):
    setup, seed, actions, _ = game
    path = save_game(tmp_path / "game.json", engine, setup, seed, actions[:5])
    before = path.read_bytes()

    def no_sync(fd):
        raise OSError(errno.EACCES, "Permission denied")

    monkeypatch.setattr(saves.os, "fsync", no_sync)
    with pytest.raises(SaveError, match="permission denied"):
        save_game(path, engine, setup, seed, actions)
    assert path.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.json"]


def test_truncated_file_is_refused_with_line_and_column(tmp_path, rules, engine, game):
    path, _ = saved_doc(tmp_path, engine, game)
    text = path.read_text(encoding="utf-8")
    path.write_text(text[: len(text) // 2], encoding="utf-8")
    with pytest.raises(SaveError, match=r"game\.json:\d+:\d+: the save is damaged or cut short, so it can.t be read \(JSON: "):
        load_game(path, engine)


def test_hand_edited_illegal_action_is_refused(tmp_path, rules, engine, game):
    path, doc = saved_doc(tmp_path, engine, game)
    doc["actions"].insert(0, {"action": "Research", "thing": "T999", "safety": "fail", "steps": 1})
    write_doc(path, doc)
    with pytest.raises(SaveError) as info:
        load_game(path, engine)
    assert str(info.value).endswith("action 1 (research T999 Fail to OK x1): you hold no blueprint called T999")


def refused_half_way(path: Path, doc: dict, engine, game) -> int:
    """Write ``doc`` with a die roll where its game's second turn began with a move (as if a change of the
    engine's code had left no roll pending there); returns that action's number (1-based)."""
    _, _, actions, _ = game
    states = saves.replay(engine, game[0], actions)
    n = next(i for i in range(1, len(actions)) if states.turn(i) == 2 and not isinstance(actions[i], Roll))
    doc["actions"][n] = Roll(7).to_data()
    write_doc(path, doc)
    return n + 1


def test_a_save_refused_half_way_says_where_in_a_players_words_and_is_kept(tmp_path, rules, engine, game):
    """A save whose replay this version refuses part way (an old save replayed under changed code, or one changed
    by hand) names the file and says what happened in words, the turn included; the engine's own words are kept
    apart for whoever mends the file; the file is left as it was, and the Load screen's listing says the same."""
    path, doc = saved_doc(tmp_path, engine, game)
    n = refused_half_way(path, doc, engine, game)
    before = path.read_bytes()
    total = len(doc["actions"])
    with pytest.raises(saves.SaveDiverged) as info:
        load_game(path, engine)
    words = (f"this version plays it another way: the move recorded at action {n} of {total} (turn 2) is not "
             "allowed now. It was made by an earlier version or changed by hand; the file is kept as it is.")
    assert info.value.reason == words
    assert str(info.value) == f"{path}: {words} In detail: action {n} (roll 7): no roll is pending"
    assert info.value.detail == "no roll is pending"
    d = info.value.divergence
    assert (d.action_number, d.actions, d.turn, d.failed) == (n, total, 2, False)
    assert path.read_bytes() == before
    (listing,) = saves.list_saves(tmp_path, engine)
    assert listing.error == words and listing.divergence == d and listing.game is None


def test_roll_when_no_roll_is_pending_is_refused(tmp_path, rules, engine, game):
    path, doc = saved_doc(tmp_path, engine, game)
    doc["actions"].insert(2, Roll(7).to_data())
    write_doc(path, doc)
    with pytest.raises(SaveError, match=r"action 3 \(roll 7\): no roll is pending"):
        load_game(path, engine)


def test_unknown_newer_version_is_refused(tmp_path, rules, engine, game):
    path, doc = saved_doc(tmp_path, engine, game)
    doc["version"] = 3
    write_doc(path, doc)
    with pytest.raises(SaveError, match="this save is format version 3, made by a newer What Goes Up; "
                                        "this version reads up to version 2"):
        load_game(path, engine)


def test_not_a_save(tmp_path, engine):
    path = write_doc(tmp_path / "other.json", {"hello": 1})
    with pytest.raises(SaveError, match='not a What Goes Up save'):
        load_game(path, engine)


def test_digest_mismatch_names_both_digests(tmp_path, rules, engine, game):
    path, doc = saved_doc(tmp_path, engine, game)
    doc["rules_digest"] = "0123456789abcdef"
    write_doc(path, doc)
    with pytest.raises(SaveError) as info:
        load_game(path, engine)
    message = str(info.value)
    assert "0123456789abcdef" in message and rules.digest in message
    assert load_game(path, engine, allow_mismatch=True).final == game[3]


@pytest.mark.parametrize("where, value, message", [
    (("seed",), "seven", "seed must be a whole number, not str ('seven')"),
    (("seed",), True, "seed must be a whole number, not bool (True)"),
    (("setup", "players"), {"name": "x"}, "setup.players must be a list, not dict ({'name': 'x'})"),
    (("setup", "players", 0, "name"), 5, "setup.players[1].name must be text, not int (5)"),
    (("setup", "turn_limit"), "20", "setup.turn_limit must be a whole number or null, not str ('20')"),
    (("setup", "options"), ["simulationist", 3], "setup.options must be a list of text, not int (3)"),
    (("actions",), {}, "actions must be a list, not dict ({})"),
    (("actions", 0, "steps"), "1", None),
    (("actions", 0), {"action": "Teleport"}, "action 1: unknown action 'Teleport'"),
])
def test_wrong_types_are_refused(tmp_path, rules, engine, game, where, value, message):
    path, doc = saved_doc(tmp_path, engine, game)
    if where[:2] == ("actions", 0) and len(where) == 3:
        doc["actions"][0] = {"action": "Research", "thing": "T1", "safety": "fail", "steps": 1}
    target = doc
    for key in where[:-1]:
        target = target[key]
    target[where[-1]] = value
    write_doc(path, doc)
    with pytest.raises(SaveError) as info:
        load_game(path, engine)
    expected = message or "action 1: Research.steps has the wrong type (str)"
    assert str(info.value).endswith(expected), str(info.value)


def test_bad_setup_is_refused(tmp_path, rules, engine, game):
    path, doc = saved_doc(tmp_path, engine, game)
    doc["setup"]["players"][0]["people"] = "martians"
    write_doc(path, doc)
    with pytest.raises(SaveError, match="the setup is not allowed: unknown people 'martians'"):
        load_game(path, engine)


def test_missing_file(tmp_path, engine):
    with pytest.raises(SaveError, match="no such save file"):
        load_game(tmp_path / "nope.json", engine)


def test_autosave_rotation(tmp_path, rules, engine, game):
    setup, seed, actions, _ = game
    folder = tmp_path / "saves"
    assert latest_autosave(folder) is None
    for n in range(1, 8):
        autosave(folder, engine, setup, seed, actions[:n])
    names = sorted(p.name for p in folder.iterdir())
    assert names == [f"autosave-{n}.json" for n in range(1, 6)]
    assert latest_autosave(folder) == folder / "autosave-1.json"
    # autosave-1 is the newest (7 actions), autosave-5 the oldest kept (3 actions)
    for n in range(1, 6):
        assert len(load_game(folder / f"autosave-{n}.json", engine).actions) == 8 - n


def test_autosave_on_a_full_disk_keeps_every_old_autosave(tmp_path, engine, game, monkeypatch):
    setup, seed, actions, _ = game
    for n in range(1, 4):
        autosave(tmp_path, engine, setup, seed, actions[:n])
    before = {p.name: p.read_bytes() for p in tmp_path.iterdir()}
    monkeypatch.setattr(saves.os, "fsync", lambda fd: (_ for _ in ()).throw(OSError(errno.ENOSPC, "full")))
    with pytest.raises(SaveError, match="the disk is full"):
        autosave(tmp_path, engine, setup, seed, actions)
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir()} == before


def test_undo_removes_one_action():
    log = [EndRnD(), Roll(3), EndRnD(), EndRnD()]
    assert undo(log) == log[:3]
    assert undo(undo(log)) == log[:2]


def test_undo_stops_at_a_roll():
    log = [EndRnD(), Roll(3), EndRnD()]
    shorter = undo(log)
    assert shorter == [EndRnD(), Roll(3)]
    with pytest.raises(UndoError, match="undo stops at a die roll"):
        undo(shorter)
    assert not saves.can_undo(shorter)
    with pytest.raises(UndoError, match="nothing to undo"):
        undo([])


def test_undo_then_replay_gives_the_earlier_state(rules, engine, game):
    setup, _, actions, _ = game
    states = saves.replay(engine, setup, actions)
    assert saves.replay(engine, setup, undo(actions))[-1] == states[-2]


def test_saves_folder_follows_the_environment(monkeypatch, tmp_path):
    monkeypatch.setenv("WHATGOESUP_HOME", str(tmp_path))
    assert saves.saves_folder() == tmp_path
    monkeypatch.delenv("WHATGOESUP_HOME")
    assert saves.saves_folder() == Path(saves.__file__).resolve().parents[2] / "saves"


def test_setup_data_covers_every_setup_field(engine):
    """A field added to Setup must be saved too (extend setup_to_data/setup_from_data)."""
    import dataclasses
    from game.games.whatgoesup.rules.state import Setup
    setup = default_setup(engine, 3, 7)
    data = engine.setup_to_data(setup)
    assert set(data) == {f.name for f in dataclasses.fields(Setup)}
    assert engine.setup_from_data(json.loads(json.dumps(data))) == setup


def test_an_engine_crash_during_replay_is_a_save_error(tmp_path, rules, engine, game, monkeypatch):
    path, _ = saved_doc(tmp_path, engine, game)

    def broken(state, action):
        raise KeyError("T1")

    monkeypatch.setattr(engine, "apply", broken)
    with pytest.raises(SaveError, match=r"action 1 \(.*\): the rules engine failed on it \(KeyError: 'T1'\)") as info:
        load_game(path, engine)
    assert info.value.reason.startswith("this version cannot replay it: its rules engine failed at action 1 of ")
    assert info.value.divergence.failed and info.value.detail == "KeyError: 'T1'"


def test_a_stop_the_rock_setup_round_trips(tmp_path, rules, engine):
    """Scenario and difficulty are saved and loaded; a save from before scenarios has neither."""
    import dataclasses
    from game.games.whatgoesup.rules.actions import Roll
    setup = dataclasses.replace(default_setup(engine, 1, 20), scenario="stop_the_rock", difficulty="hard")
    assert engine.setup_from_data(json.loads(json.dumps(engine.setup_to_data(setup)))) == setup
    path = save_game(tmp_path / "rock.json", engine, setup, 5, [Roll(20)])
    loaded = load_game(path, engine)
    hard = engine.rules.scenarios.scenario("stop_the_rock").difficulty("hard")
    assert loaded.setup == setup and loaded.final.rock.turns_left == hard.turns_to_impact - 1  # the drift roll
    old = engine.setup_to_data(default_setup(engine, 2, 20))
    del old["scenario"], old["difficulty"]
    assert engine.setup_from_data(old).scenario is None


def test_a_bad_scenario_in_a_save_is_refused(tmp_path, rules, engine, game):
    path, doc = saved_doc(tmp_path, engine, game)
    doc["setup"]["scenario"] = "stop_the_rok"
    write_doc(path, doc)
    with pytest.raises(SaveError, match="unknown scenario 'stop_the_rok'"):
        load_game(path, engine)
    doc["setup"]["scenario"] = 3
    write_doc(path, doc)
    with pytest.raises(SaveError, match="setup.scenario must be text or null, not int"):
        load_game(path, engine)


def _plain_reading(value):
    """``to_plain`` as first written (dataclasses.fields asked per value), for comparison."""
    import dataclasses
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: _plain_reading(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, (tuple, list)):
        return [_plain_reading(v) for v in value]
    if isinstance(value, (set, frozenset)):
        return sorted(_plain_reading(v) for v in value)
    return value


def test_to_plain_keeps_field_names_per_class_and_answers_as_before():
    """``to_plain`` finds a dataclass's fields once per class; every value still comes out as it did: a
    dataclass without fields as an empty mapping, a dataclass class itself as it is, sets sorted."""
    import dataclasses
    from game.core.plaindata import to_plain
    from game.games.whatgoesup.rules.engine import Engine
    from game.games.whatgoesup.rules.tables import load_rules

    @dataclasses.dataclass(frozen=True)
    class Empty:
        pass

    @dataclasses.dataclass(frozen=True)
    class Holder:
        a: int
        b: tuple = ()
        c: frozenset = frozenset()

    engine = Engine(load_rules())
    state = play_game(engine, default_setup(engine, 2, 2), 3, max_turns=2).final
    for value in (Empty(), Holder(1, (Empty(), Holder(2), [True, None, 1.5]), frozenset({3, 1})), Holder, Empty,
                  (1, [2, "x"]), frozenset({"b", "a"}), state):
        assert to_plain(value) == _plain_reading(value)
        assert type(to_plain(value)) is type(_plain_reading(value))


def _design(**fields):
    return {"action": "Assemble", "design": {"name": "Hop", **fields}}


@pytest.mark.parametrize("entry, problem", [
    (_design(modules=["I1", 3]), "Assemble.design.modules has the wrong type (int)"),
    (_design(modules=["I1", "I\x002"]), "Assemble.design.modules contains a control character (U+0000)"),
    (_design(modules=["I1", "X" * 65]), "Assemble.design.modules is longer than 64 characters (65)"),
    (_design(stages=[["I1"], ["I2", None]]), "Assemble.design.stages has the wrong type (NoneType)"),
    (_design(stages=[["I1"], "I2"]), "Assemble.design.stages must be a list"),
    (_design(crew=[True]), "Assemble.design.crew has the wrong type (bool)"),
    (_design(modules="I1"), "Assemble.design.modules must be a list"),
    (_design(fuel=True), "Assemble.design.fuel has the wrong type (bool)"),
    (_design(fuel=1.0), "Assemble.design.fuel has the wrong type (float)"),
    (_design(fuel=-1), "Assemble.design.fuel must be from 0 to 10000, not -1"),
    (_design(nope=1), "Assemble.design: unknown field 'nope'"),
    ({"action": "Assemble"}, "Assemble: missing field 'design'"),
    ({"action": "Assemble", "design": []}, "Assemble.design must be a mapping"),
    ({"action": "Research", "thing": "T1", "safety": "fail", "steps": True}, "Research.steps has the wrong type (bool)"),
    ({"action": "Research", "thing": "T1", "safety": "fail", "extra": 1, "more": 2},
     "Research: unknown fields 'extra', 'more'"),
    ({"action": "OfferTrade", "partner": 1, "give": {"items": ["I1", ["I2"]]}},
     "OfferTrade.give.items has the wrong type (list)"),
    ({"action": "OfferTrade", "partner": 1, "take": {"derps": ["D1"], "x": 1}}, "OfferTrade.take: unknown field 'x'"),
    ({"action": "OfferTrade", "partner": "1"}, "OfferTrade.partner has the wrong type (str)"),
    ({"action": "EndRnD", "action2": 1}, "EndRnD: unknown field 'action2'"),
])
def test_an_action_read_back_names_its_problem_word_for_word(entry, problem):
    """The reader's quick paths (a list of plain ids taken whole, whole numbers checked inline, the action's
    name left in the mapping) say exactly what the field-by-field checks say."""
    from game.games.whatgoesup.rules.actions import BadActionData, action_from_data
    with pytest.raises(BadActionData) as refused:
        action_from_data(entry)
    assert str(refused.value) == problem


def test_a_list_of_plain_ids_reads_back_as_the_same_tuple():
    from game.games.whatgoesup.rules.actions import action_from_data
    action = action_from_data(_design(stages=[["I1", "I2"], []], modules=["I3", "Ü" * 3], crew=[]))
    assert action.design.stages == (("I1", "I2"), ()) and action.design.modules == ("I3", "ÜÜÜ")
    assert action.design.crew == () and action.to_data()["design"]["modules"] == ["I3", "ÜÜÜ"]


OLDER_SAVE = Path(__file__).parent / "fixtures" / "saves" / "story_before_robot_repairs.json"


def test_a_save_from_before_an_added_option_loads_and_replays_the_same(engine):
    """The golden story as saved before Robot repairs was added (the rules' fingerprint then ee1bc7c4...):
    edition.yaml's ``earlier`` names that fingerprint, so the save loads and replays to the very state the same
    actions reach under today's rules."""
    older = load_game(OLDER_SAVE, engine)
    assert older.rules_digest == "ee1bc7c40637b77e" != engine.rules.digest
    today = load_game(Path(__file__).parent / "golden" / "story.json", engine)
    assert older.actions == today.actions and older.final == today.final


def test_an_older_save_that_turned_on_a_changed_option_is_refused(tmp_path, engine):
    """Robot repairs changed how robots play, so an older save with robots on may not replay the same: it is
    refused with both fingerprints named, as any save of other rules is."""
    doc = json.loads(OLDER_SAVE.read_text(encoding="utf-8"))
    doc["setup"]["options"] = ["underped"]
    path = write_doc(tmp_path / "robots.json", doc)
    with pytest.raises(SaveError) as info:
        load_game(path, engine)
    assert "ee1bc7c40637b77e" in str(info.value) and engine.rules.digest in str(info.value)


def test_a_save_from_before_ship_fights_of_rounds_loads_unless_it_played_space_war(tmp_path, engine):
    """Ship fights of several rounds (session 22) changed how Space War plays and so the fingerprint (a missing
    ``max_rounds`` means the one round rules written before meant): a save recorded under the fingerprint before
    it (3dfb2aa7...) loads and replays the same without Space War, and is refused with it, as is one from before
    Robot repairs that turned Space War on."""
    doc = json.loads(OLDER_SAVE.read_text(encoding="utf-8"))
    doc["rules_digest"] = "3dfb2aa7c971d83c"
    older = load_game(write_doc(tmp_path / "before_rounds.json", doc), engine)
    assert older.final == load_game(OLDER_SAVE, engine).final and engine.rules.digest != "3dfb2aa7c971d83c"
    for digest in ("3dfb2aa7c971d83c", "ee1bc7c40637b77e"):
        doc["rules_digest"], doc["setup"]["options"] = digest, ["space_war"]
        with pytest.raises(SaveError) as info:
            load_game(write_doc(tmp_path / f"war_{digest}.json", doc), engine)
        assert digest in str(info.value) and engine.rules.digest in str(info.value)
