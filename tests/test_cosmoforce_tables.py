"""Cosmoforce's tables: the shipped ones load, and every mistake in them is named by file and line."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from game.core.yamlnodes import RulesError
from game.games.cosmoforce.rules.tables import DEFAULT_RULES_DIR, check_rules, load_rules


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    target = tmp_path / "cosmoforce"
    shutil.copytree(DEFAULT_RULES_DIR, target)
    return target


def edit(folder: Path, file: str, old: str, new: str) -> None:
    text = (folder / file).read_text(encoding="utf-8")
    assert old in text, f"{old!r} is not in {file}"
    (folder / file).write_text(text.replace(old, new, 1), encoding="utf-8")


def problems(folder: Path) -> list[str]:
    rules, found = check_rules(folder)
    assert rules is None
    return found


def line_of(folder: Path, file: str, text: str) -> int:
    return next(n for n, line in enumerate((folder / file).read_text().splitlines(), 1) if text in line)


def test_the_shipped_tables_load_with_their_numbers():
    rules = load_rules()
    assert [c.id for c in rules.classes.classes] == ["fighter", "cruiser", "capital"]
    assert [(c.size, c.crew_per_habitat, c.special) for c in rules.classes.classes] == [
        (1, 1, "afterburner"), (2, 2, "railgun"), (3, 3, "hangar")]
    assert rules.classes.max_systems == 10
    assert {s.id for s in rules.systems.systems} == {"armor", "dissipator", "engine", "habitat", "laser", "missile",
                                                     "afterburner", "railgun", "hangar"}
    assert [(w.system, w.dice_per_system) for w in rules.weapons.weapons] == [("laser", 2), ("missile", 4),
                                                                             ("railgun", 2)]
    assert rules.combat.actions_per_turn == 2 and rules.combat.start.afterburner_speed == 5
    assert rules.edition.id == "cosmoforce" and rules.digest.startswith("cf-")


def test_the_digest_follows_what_the_tables_say_not_how_they_are_written(folder):
    shipped = load_rules().digest
    edit(folder, "classes.yaml", "max_systems: 10", "max_systems: 10   # a comment changes nothing")
    assert load_rules(folder).digest == shipped
    edit(folder, "actions.yaml", "afterburner_speed: 5", "afterburner_speed: 4")
    assert load_rules(folder).digest != shipped


def test_an_unknown_key_names_its_file_line_and_the_nearest_key(folder):
    edit(folder, "classes.yaml", "    crew_per_habitat: 2\n", "    crew_per_habitt: 2\n")
    line = line_of(folder, "classes.yaml", "crew_per_habitt")
    assert f"cosmoforce/classes.yaml:{line}: unknown key 'crew_per_habitt' in classes item 2 (cruiser) " \
           f"(did you mean 'crew_per_habitat'?)" in problems(folder)


def test_a_value_out_of_range_and_a_wrong_role(folder):
    edit(folder, "classes.yaml", "    size: 3", "    size: 0")
    edit(folder, "systems.yaml", "    role: dissipator", "    role: radiator")
    found = "\n".join(problems(folder))
    assert f"classes.yaml:{line_of(folder, 'classes.yaml', 'size: 0')}: size in classes item 3 (capital) must be " \
           f"between 1 and 10, not 0" in found
    assert f"systems.yaml:{line_of(folder, 'systems.yaml', 'radiator')}: role in systems item 2 (dissipator) must be " \
           f"one of armor, dissipator, engine, habitat, weapon, afterburner, hangar" in found


def test_references_between_tables_are_checked(folder):
    edit(folder, "classes.yaml", "special: hangar", "special: hanger")
    edit(folder, "weapons.yaml", "  - system: railgun", "  - system: railgunn")
    edit(folder, "ships.yaml", "systems: [engine, hangar, laser", "systems: [engine, railgun, laser")
    found = "\n".join(problems(folder))
    assert "class 'capital' has the special system 'hanger', which systems.yaml does not define (did you mean " \
           "'hangar'?)" in found
    assert "weapon 'railgunn' is not a system of systems.yaml (did you mean 'railgun'?)" in found
    assert "weapon system 'railgun' has no entry in weapons.yaml" in found
    assert "ready-made ship 'ark': only a cruiser can mount the railgun; Ark is a capital ship" in found


def test_every_problem_is_reported_at_once_and_the_files_are_named_from_the_repository():
    with pytest.raises(RulesError) as caught:
        load_rules(Path(__file__).parent / "no-such-rules")
    assert "is not a folder of rules" in str(caught.value)


def test_missing_file_and_bad_option(folder):
    (folder / "weapons.yaml").unlink()
    edit(folder, "actions.yaml", "heat_hurts: ready_then_kill", "heat_hurts: ready_then_kil")
    found = problems(folder)
    assert "cosmoforce/weapons.yaml: the file is missing" in found
    assert any("heat_hurts in aftermath must be one of ready_then_kill, ready_only, kill, not 'ready_then_kil' "
               "(did you mean 'ready_then_kill'?)" in p for p in found)


def test_shipped_problems_are_named_by_their_path_in_the_repository():
    from game.games.cosmoforce.rules.tables import _display_name

    assert _display_name(DEFAULT_RULES_DIR, "systems.yaml") == "rules/cosmoforce/systems.yaml"
