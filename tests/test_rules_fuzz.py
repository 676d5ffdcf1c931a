"""Fuzzing the rules loader: whatever a rules folder holds, the answer is a located error or a playable game.

Each case copies the shipped tables, breaks them (a value replaced by NaN, infinity, a huge or negative
number, an empty list, a wrong type; a key deleted; an alias, a self-alias or deep nesting; a list emptied
or an item duplicated) and checks the folder. Either every problem names its file and a line of that file,
or the rules load and then survive a few turns of seeded random play in every people, dice scheme and
scenario (and the client's board layout and rules reference can be built from them). Nothing else (a
traceback, a hang, a crash in play) is allowed. The C and the pure-Python YAML parsers must agree.

The cases are seeded (``random.Random(n)``), so a failure names the case that reproduces it:
``FUZZ_CASE=123 pytest tests/test_rules_fuzz.py -k one_case``.
"""
from __future__ import annotations

import copy
import os
import random
import re
import shutil
from pathlib import Path

import pytest
import yaml

from game.core import yamlnodes
from game.games.whatgoesup.rules.engine import Engine
from game.games.whatgoesup.rules.state import PlayerSetup, Setup
from game.games.whatgoesup.rules.tables import DEFAULT_RULES_DIR, check_rules
from game.games.whatgoesup.sim import default_setup, play_game

SHIPPED = {p.name: p.read_text(encoding="utf-8") for p in sorted(DEFAULT_RULES_DIR.glob("*.yaml"))}
LOCATED = re.compile(r"^rules/(?P<file>[a-z_]+\.yaml):(?P<line>\d+): \S")

# Values a modder (or a fuzzer) might put anywhere.
NASTY = [".nan", ".NaN", ".inf", "-.inf", "1e400", "1.0e+400", "999999999999999999999999", "-999999999", "-1",
         "0", "0.5", "1/0", "[]", "{}", "''", "~", "x", "true", "[.nan, .inf]", "{a: 1}", "2014-13-45",
         "!!int nope", "!!python/object:os.system x", "*nowhere", "&a [*a]", "[" * 60 + "]" * 60,
         "'" + "long " * 200 + "'"]


# ---------------------------------------------------------------- mutations
def _scalar_spans(text: str) -> list[tuple[int, int, int]]:
    """(line, first column, end column) of every single-line scalar (0-based lines)."""
    spans = []
    for event in yaml.parse(text, Loader=yaml.SafeLoader):
        if isinstance(event, yaml.ScalarEvent) and event.start_mark.line == event.end_mark.line:
            spans.append((event.start_mark.line, event.start_mark.column, event.end_mark.column))
    return spans


def _replace_span(text: str, span: tuple[int, int, int], new: str) -> str:
    lines = text.split("\n")
    line, start, end = span
    lines[line] = lines[line][:start] + new + lines[line][end:]
    return "\n".join(lines)


def mutate_text(text: str, rng: random.Random) -> str:
    """One text-level mutation: a value replaced, a line deleted or doubled, an alias or anchor added."""
    spans = _scalar_spans(text)
    kind = rng.choice(["value", "value", "value", "delete", "double", "alias", "laughs"])
    lines = text.split("\n")
    if kind == "value":
        return _replace_span(text, rng.choice(spans), rng.choice(NASTY))
    if kind == "delete":
        del lines[rng.randrange(len(lines))]
        return "\n".join(lines)
    if kind == "double":
        n = rng.randrange(len(lines))
        lines.insert(n, lines[n])
        return "\n".join(lines)
    if kind == "alias":
        # Anchor one value and repeat it in place of another (a legal YAML sharing, maybe a wrong type).
        first, second = sorted(rng.sample(spans, 2))
        anchored = _replace_span(text, second, "*shared")
        line, start, end = first
        return _replace_span(anchored, first, "&shared " + text.split("\n")[line][start:end])
    levels = rng.randint(2, 9)
    bomb = ["a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]"]
    bomb += [f"a{n}: &a{n} [{', '.join([f'*a{n - 1}'] * 9)}]" for n in range(1, levels)]
    return "\n".join(bomb) + "\n" + text


def _paths(data, prefix=()):
    """Every path into plain YAML data: (path, value)."""
    yield prefix, data
    if isinstance(data, dict):
        for key, value in data.items():
            yield from _paths(value, prefix + (key,))
    elif isinstance(data, list):
        for n, value in enumerate(data):
            yield from _paths(value, prefix + (n,))


def _plain(text: str) -> bool:
    """Whether the text holds no alias and no deep nesting (so the fuzzer itself can walk its data)."""
    depth = 0
    for event in yaml.parse(text, Loader=yaml.SafeLoader):
        if isinstance(event, yaml.AliasEvent):
            return False
        depth += isinstance(event, yaml.CollectionStartEvent) - isinstance(event, yaml.CollectionEndEvent)
        if depth > 20:
            return False
    return True


def mutate_data(text: str, rng: random.Random) -> str:
    """One data-level mutation: a key deleted, a list emptied or an item duplicated, a value replaced."""
    if not _plain(text):
        return text  # an earlier mutation added aliases or nesting: the loader's limits, not this, are tested
    data = yaml.safe_load(text)
    paths = [(p, v) for p, v in _paths(data) if p]
    path, value = rng.choice(paths)
    parent = data
    for step in path[:-1]:
        parent = parent[step]
    kind = rng.choice(["delete", "empty", "duplicate", "replace", "replace"])
    lists = [(p, v) for p, v in paths if isinstance(v, list)]
    if kind == "empty" and lists:
        path, value = rng.choice(lists)
        value.clear()
    elif kind == "duplicate" and lists:
        path, value = rng.choice(lists)
        if value:
            value.append(copy.deepcopy(rng.choice(value)))
    elif kind == "delete" or kind in ("empty", "duplicate"):
        del parent[path[-1]]
    else:
        parent[path[-1]] = rng.choice([float("nan"), float("inf"), -float("inf"), 10 ** 30, -(10 ** 9), -1, 0,
                                       1, 2, 1000, 0.5, "", "x", True, None, [], {}, [1, 2], {"a": 1}])
    return yaml.safe_dump(data, sort_keys=False, allow_unicode=True)


def make_case(n: int) -> dict[str, str]:
    """Case ``n``: the shipped files with one to three mutations (always the same for the same n)."""
    rng = random.Random(n)
    files = dict(SHIPPED)
    for _ in range(rng.choice([1, 1, 1, 2, 3])):
        name = rng.choice(sorted(files))
        mutate = mutate_text if rng.random() < 0.5 else mutate_data
        try:
            files[name] = mutate(files[name], rng)
        except yaml.YAMLError:
            pass  # an earlier mutation already broke the YAML: the next one works on another file or not at all
    return files


# ---------------------------------------------------------------- what must hold
def play_a_few_turns(rules, turns: int = 3) -> None:
    """Seeded random play of ``turns`` turns in every people, dice scheme, victory and scenario difficulty."""
    engine = Engine(rules)
    peoples = [p.id for p in rules.peoples.peoples]
    schemes = [s.id for s in rules.dice.schemes]
    setups = []
    for n in range(0, len(peoples), 4):
        players = tuple(PlayerSetup(f"Bot {k + 1}", people, human=False) for k, people in enumerate(peoples[n:n + 4]))
        setups.append(Setup(players=players, dice=schemes[n // 4 % len(schemes)], turn_limit=turns))
    setups += [default_setup(engine, 1, turns, dice=scheme) for scheme in schemes[1:]]
    setups += [default_setup(engine, 1, turns, victory=v.id) for v in rules.scenarios.victories]
    for scenario in rules.scenarios.scenarios:
        setups += [default_setup(engine, 2, None, scenario=scenario.id, difficulty=d.id) for d in scenario.difficulties]
    for n, setup in enumerate(setups):
        result = play_game(engine, setup, seed=n, max_turns=turns, max_actions=1000 * turns)
        assert result.failure is None, f"setup {n}: {result.failure}"
    try:
        from game.client.whatgoesup.board_view import FieldGeometry
        from game.client.whatgoesup.rules_reference import reference_sections
    except ImportError:  # the client is not installed here: the engine's answers are what is checked
        return
    for scenario in [None] + [s.id for s in rules.scenarios.scenarios]:
        FieldGeometry(rules.board, scenario)
    assert reference_sections(rules)


def write_case(folder: Path, files: dict[str, str]) -> Path:
    if folder.exists():
        shutil.rmtree(folder)
    folder.mkdir(parents=True)
    for name, text in files.items():
        (folder / name).write_text(text, encoding="utf-8")
    return folder


def check_case(tmp_path: Path, n: int, monkeypatch: pytest.MonkeyPatch, turns: int = 3) -> str:
    """Case n must give located errors (the same with either parser) or a playable game; returns which."""
    files = make_case(n)
    folder = write_case(tmp_path / f"case{n}" / "rules", files)
    rules, problems = check_rules(folder)
    monkeypatch.setattr(yamlnodes, "FAST_LOADER", yamlnodes.PURE_LOADER)
    assert check_rules(folder)[1] == problems, f"case {n}: the C and pure-Python parsers disagree"
    monkeypatch.undo()
    if problems:
        for line in problems:
            found = LOCATED.match(line)
            assert found, f"case {n}: not located: {line}"
            count = files[found["file"]].count("\n") + 1
            assert 1 <= int(found["line"]) <= count, f"case {n}: line outside the file: {line}"
        return "refused"
    play_a_few_turns(rules, turns)
    return "played"


# ---------------------------------------------------------------- the tests
def test_the_shipped_rules_play_in_every_people_scheme_and_scenario(rules):
    play_a_few_turns(rules)


def test_fuzzed_rules_give_a_located_error_or_a_playable_game(tmp_path, monkeypatch):
    outcomes = [check_case(tmp_path, n, monkeypatch, turns=1) for n in range(16)]
    # Both outcomes occur, so the fuzzer neither only breaks the YAML nor only changes harmless text.
    assert outcomes.count("refused") >= 4 and outcomes.count("played") >= 1, outcomes


@pytest.mark.skipif("FUZZ_CASE" not in os.environ, reason="set FUZZ_CASE=n to rerun one case")
def test_one_case(tmp_path, monkeypatch):
    print(check_case(tmp_path, int(os.environ["FUZZ_CASE"]), monkeypatch))


@pytest.mark.slow
def test_many_fuzzed_rules(tmp_path, monkeypatch):
    outcomes = [check_case(tmp_path, n, monkeypatch, turns=4) for n in range(16, 116)]  # ~1.5 s a case
    assert outcomes.count("played") >= 10, outcomes  # about one in seven fuzzed folders still plays
