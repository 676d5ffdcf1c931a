"""The board's drawing keys (a body's ``look``, a step's ``label_side``), checked like every other key:
copy the shipped rules, break one thing, and compare the exact problem lines (see test_rules_tables.py)."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from game.games.whatgoesup.rules.tables import DEFAULT_RULES_DIR, check_rules, load_rules


@pytest.fixture
def rules_dir(tmp_path: Path) -> Path:
    folder = tmp_path / "rules"
    shutil.copytree(DEFAULT_RULES_DIR, folder)
    return folder


def edit(folder: Path, old: str, new: str) -> None:
    path = folder / "board.yaml"
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, f"{old!r} should occur exactly once in board.yaml"
    path.write_text(text.replace(old, new), encoding="utf-8")


def line_of(folder: Path, snippet: str) -> int:
    hits = [i for i, line in enumerate((folder / "board.yaml").read_text(encoding="utf-8").splitlines(), 1)
            if snippet in line]
    assert hits, f"{snippet!r} is not in board.yaml"
    return hits[0]


def problems(folder: Path) -> list[str]:
    rules, lines = check_rules(folder)
    assert (rules is None) == bool(lines)
    return lines


def test_the_shipped_board_says_how_to_paint_each_body_and_where_some_names_go() -> None:
    board = load_rules().board
    assert {b.id: b.look for b in board.bodies} == {"world": "world", "moon": "moon", "rock": "rock"}
    sides = {s.id: s.label_side for s in board.steps if s.label_side is not None}
    assert sides and set(sides.values()) <= {"above", "below", "left", "right", "above left", "above right",
                                             "below left", "below right"}


def test_a_body_look_the_field_cannot_paint(rules_dir: Path) -> None:
    edit(rules_dir, "look: moon}", "look: cheese}")
    line = line_of(rules_dir, "look: cheese")
    assert problems(rules_dir) == [
        f"rules/board.yaml:{line}: look in bodies item 2 (moon) must be one of world, moon, rock, plain, not 'cheese'"]


def test_a_label_side_that_is_not_a_side(rules_dir: Path) -> None:
    edit(rules_dir, "    label_side: below\n", "    label_side: underneath\n")
    line = line_of(rules_dir, "label_side: underneath")
    assert problems(rules_dir) == [
        f"rules/board.yaml:{line}: label_side in steps item 1 (home) must be one of above, below, left, right, "
        f"above left, above right, below left, below right, not 'underneath'"]


def test_drawing_keys_may_be_left_out(rules_dir: Path) -> None:
    edit(rules_dir, ", look: rock}", "}")
    edit(rules_dir, "    label_side: below\n", "")
    board = load_rules(rules_dir).board
    assert board.body("rock").look == "plain" and board.home.label_side is None
