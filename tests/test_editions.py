"""Editions are data: a folder may extend another and hold only the tables that differ."""
from __future__ import annotations

import shutil
from pathlib import Path


from game.games.whatgoesup.rules.actions import EndRnD
from game.games.whatgoesup.rules.engine import Engine
from game.games.whatgoesup.rules.state import PlayerSetup, Setup
from game.games.whatgoesup.rules.tables import DEFAULT_RULES_DIR, check_rules, load_rules


def write(folder: Path, name: str, text: str) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / name).write_text(text, encoding="utf-8")


def test_an_edition_takes_missing_tables_from_the_one_it_extends(tmp_path):
    base = tmp_path / "rules"
    shutil.copytree(DEFAULT_RULES_DIR, base)
    older = tmp_path / "rules2013"
    write(older, "edition.yaml", 'id: "2013"\nname: What Goes Up (2013 rules)\nextends: ../rules\n')
    economy = (base / "economy.yaml").read_text().replace("min_dots: 30", "min_dots: 20").replace(
        "max_dots: 70", "max_dots: 60").replace("nothing_in_space: 0", "nothing_in_space: -1")
    write(older, "economy.yaml", economy)
    rules = load_rules(older)
    assert rules.edition.id == "2013"
    assert rules.economy.budget.min_dots == 20 and rules.economy.budget.max_dots == 60
    assert len(rules.board.steps) == len(load_rules(base).board.steps)
    assert rules.digest != load_rules(base).digest


def test_problems_in_an_inherited_table_name_the_file_they_are_in(tmp_path):
    base = tmp_path / "rules"
    shutil.copytree(DEFAULT_RULES_DIR, base)
    (base / "dice.yaml").write_text((base / "dice.yaml").read_text().replace("default: d20", "default: d21"))
    write(tmp_path / "house", "edition.yaml", "id: house\nname: House rules\nextends: ../rules\n")
    rules, problems = check_rules(tmp_path / "house")
    assert rules is None
    assert problems == ["rules/dice.yaml:2: default dice scheme 'd21' is not defined (did you mean 'd20'?)"]


def test_extending_a_missing_folder_is_reported(tmp_path):
    write(tmp_path / "house", "edition.yaml", "id: house\nname: House rules\nextends: ../nowhere\n")
    rules, problems = check_rules(tmp_path / "house")
    assert rules is None
    assert "house/edition.yaml:3: extends '../nowhere', which is not a folder" in problems


def test_nothing_in_space_costs_a_dot_when_the_edition_says_so(tmp_path):
    """2013: 'If there are no Upgoers in space at the end of a turn, they lose one dot.'"""
    folder = tmp_path / "rules"
    shutil.copytree(DEFAULT_RULES_DIR, folder)
    economy = (folder / "economy.yaml").read_text().replace("nothing_in_space: 0", "nothing_in_space: -1")
    (folder / "economy.yaml").write_text(economy)
    engine = Engine(load_rules(folder))
    state = engine.new_game(Setup((PlayerSetup("Hop", "rabitians"), PlayerSetup("Spud", "merbs"))))
    state = engine.apply(engine.apply(state, EndRnD()), EndRnD())
    assert [p.dots for p in state.programs] == [39, 39]
    assert any("no Upgoer in space -1" in e.text for e in state.events)


def test_the_shipped_edition_charges_nothing_for_an_empty_sky():
    engine = Engine(load_rules())
    state = engine.new_game(Setup((PlayerSetup("Hop", "rabitians"),)))
    state = engine.apply(state, EndRnD())
    assert state.programs[0].dots == 40
