"""Fuzzing the save loader (issue 15): mangled JSON, wrong types, huge values, deep nesting and edited
rolls. Whatever the file holds, loading gives a valid game or a SaveError that names the file and a
reason; never any other exception, never a hang. Seeded and bounded; the long run is marked slow."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from game.core.saves import LoadedGame, SaveDiverged, SaveError, load_game
from game.core.session import GameSession
from game.games.whatgoesup.rules.actions import Assemble, Build, EndRnD, Invent, Research, Roll
from game.games.whatgoesup.rules.engine import Engine
from game.games.whatgoesup.rules.state import PlayerSetup, Setup, UpgoerDesign
from game.games.whatgoesup.rules.tables import load_rules

SETUP = Setup(players=(PlayerSetup("Test Space", "rabitians"), PlayerSetup("Spud Space", "merbs")),
              options=frozenset({"simplified_stack"}), turn_limit=4)

ENGINE = Engine(load_rules())


def _base_text() -> str:
    """A real save with R&D, a design, a launch and its rolls."""
    import tempfile
    with tempfile.TemporaryDirectory() as folder:
        session = GameSession.new(ENGINE, SETUP, 11, saves_dir=Path(folder))
        session.apply(Invent("lower_stage", 4, "Hopper"))
        session.apply(Invent("capsule", 3, "Pod"))
        ids = {t.name: t.id for t in session.state.things}
        for action in (Research(ids["Hopper"], "fail", 1), Research(ids["Pod"], "fail", 2), Build(ids["Hopper"]),
                       Build(ids["Pod"])):
            session.apply(action)
        items = {session.state.thing(i.thing_id).name: i.id for i in session.state.items_of(0)}
        session.apply(Assemble(UpgoerDesign("Hop", stages=((items["Hopper"],),), modules=(items["Pod"],),
                                            fuel=0, rations=0, planned_burns=1)))
        session.apply(EndRnD())
        session.apply(EndRnD())
        session.apply(next(a for a in session.legal_actions() if type(a).__name__ == "Launch"))
        for _ in range(12):
            if session.over:
                break
            if session.waiting_for_dice:
                session.roll()
            else:
                session.apply(session.legal_actions()[0])
        assert any(isinstance(a, Roll) for a in session.actions)
        return session.save(Path(folder) / "base.json").read_text(encoding="utf-8")


BASE_TEXT = _base_text()
BASE = json.loads(BASE_TEXT)

# JSON values of every kind, with the extremes a hand or a bug could write.
scalars = st.one_of(
    st.none(), st.booleans(),
    st.integers(min_value=-10 ** 30, max_value=10 ** 30),
    st.sampled_from([0, -1, 1, 20, 2 ** 31, 2 ** 63, -(2 ** 63), 10 ** 9, 10 ** 9 + 1]),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=40),
    st.sampled_from(["", "\x00", "T1", "I1", "D1", "rabitians", "d20", "fail", "boom", "A" * 2000, "\ud800"]),
)
values = st.recursive(scalars, lambda inner: st.one_of(st.lists(inner, max_size=4),
                                                       st.dictionaries(st.text(max_size=8), inner, max_size=4)),
                      max_leaves=12)


def paths(document, prefix=()):
    """Every place in the document a value sits (keys of mappings, indexes of lists)."""
    yield prefix
    if isinstance(document, dict):
        for key, value in document.items():
            yield from paths(value, prefix + (key,))
    elif isinstance(document, list):
        for index, value in enumerate(document):
            yield from paths(value, prefix + (index,))


ALL_PATHS = [p for p in paths(BASE) if p]
ROLL_INDEXES = [n for n, a in enumerate(BASE["actions"]) if a["action"] == "Roll"]


def replaced(document, path, value):
    document = json.loads(json.dumps(document))
    target = document
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    return document


def removed(document, path):
    document = json.loads(json.dumps(document))
    target = document
    for key in path[:-1]:
        target = target[key]
    del target[path[-1]]
    return document


@st.composite
def mangled_texts(draw) -> str:
    kind = draw(st.sampled_from(["replace", "remove", "add_key", "roll", "cut", "splice", "deep", "digits"]))
    if kind == "replace":
        return json.dumps(replaced(BASE, draw(st.sampled_from(ALL_PATHS)), draw(values)), ensure_ascii=False)
    if kind == "remove":
        return json.dumps(removed(BASE, draw(st.sampled_from(ALL_PATHS))))
    if kind == "add_key":
        path = draw(st.sampled_from([p for p in paths(BASE) if isinstance(_at(BASE, p), dict)]))
        return json.dumps(replaced(BASE, path + (draw(st.text(max_size=10)),), draw(values)))
    if kind == "roll":
        index = draw(st.sampled_from(ROLL_INDEXES))
        value = draw(st.one_of(st.integers(min_value=-3, max_value=30), st.integers()))
        return json.dumps(replaced(BASE, ("actions", index, "value"), value))
    if kind == "cut":
        return BASE_TEXT[:draw(st.integers(min_value=0, max_value=len(BASE_TEXT)))]
    if kind == "splice":
        start = draw(st.integers(min_value=0, max_value=len(BASE_TEXT)))
        end = draw(st.integers(min_value=start, max_value=min(len(BASE_TEXT), start + 20)))
        return BASE_TEXT[:start] + draw(st.text(max_size=12)) + BASE_TEXT[end:]
    if kind == "deep":
        depth = draw(st.integers(min_value=10, max_value=5000))
        path = draw(st.sampled_from(ALL_PATHS))
        marker = "\"__deep__\""
        return json.dumps(replaced(BASE, path, "__deep__")).replace(marker, "[" * depth + "1" + "]" * depth, 1)
    digits = draw(st.integers(min_value=15, max_value=6000))
    path = draw(st.sampled_from(ALL_PATHS))
    return json.dumps(replaced(BASE, path, "__n__")).replace("\"__n__\"", "7" * digits, 1)


def _at(document, path):
    for key in path:
        document = document[key]
    return document


def check_loads_or_refuses(path: Path, text: str) -> None:
    path.write_text(text, encoding="utf-8", errors="surrogatepass")
    try:
        loaded = load_game(path, ENGINE)
    except SaveError as exc:
        message = str(exc)
        assert message.startswith(f"{path}"), message
        reason = message[len(str(path)):].lstrip(":0123456789 ")
        assert reason and exc.reason, message
        assert not any(ord(c) < 32 for c in message), repr(message)
        return
    assert isinstance(loaded, LoadedGame)
    assert len(loaded.states) == len(loaded.actions) + 1
    ENGINE.current_player(loaded.final)  # the state answers the engine's questions


FUZZ = settings(max_examples=120, deadline=None, derandomize=True, database=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])


@FUZZ
@given(text=mangled_texts())
def test_any_mangled_save_loads_or_is_refused_with_a_reason(tmp_path, text):
    check_loads_or_refuses(tmp_path / "fuzzed.json", text)


@FUZZ
@given(index=st.sampled_from(ROLL_INDEXES), value=st.integers(min_value=1, max_value=20))
def test_an_edited_roll_loads_marked_or_is_refused(tmp_path, index, value):
    path = tmp_path / "edited.json"
    path.write_text(json.dumps(replaced(BASE, ("actions", index, "value"), value)), encoding="utf-8")
    try:
        loaded = load_game(path, ENGINE)
    except SaveDiverged as exc:  # the edit made a later action illegal: refused in words, naming that move
        assert exc.divergence.action_number > index + 1 and not exc.divergence.failed
        assert str(exc).startswith(f"{path}: this version plays it another way: the move recorded at action "
                                   f"{exc.divergence.action_number} of {len(BASE['actions'])}")
        assert "changed by hand" in str(exc)
        return
    assert loaded.edited == (value != BASE["actions"][index]["value"])
    if loaded.edited:
        assert loaded.edited_rolls[0].action_number == index + 1


@pytest.mark.slow
@settings(max_examples=3000, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(text=mangled_texts())
def test_many_mangled_saves_load_or_are_refused_with_a_reason(tmp_path, text):
    check_loads_or_refuses(tmp_path / "fuzzed.json", text)
