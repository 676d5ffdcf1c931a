"""Table fixtures: copy the shipped rules, break one thing, and check the exact error lines.

Each test copies ``rules/`` into a temporary folder that is also called ``rules`` (so problems
read ``rules/<file>.yaml:<line>: ...`` just as a modder sees them), makes a small text edit and
compares the full list of problem lines. Line numbers are looked up in the edited copy with
``line_of`` so that the fixtures keep working when comments are added to the shipped tables.
"""
from __future__ import annotations

import ast
import shutil
import sys
from pathlib import Path

import pytest

from game.games.whatgoesup.rules.tables import DEFAULT_RULES_DIR, check_rules, load_rules
from game.core.yamlnodes import RulesError


@pytest.fixture
def rules_dir(tmp_path: Path) -> Path:
    """A fresh copy of the shipped rules in a folder named ``rules``."""
    folder = tmp_path / "rules"
    shutil.copytree(DEFAULT_RULES_DIR, folder)
    return folder


def edit(folder: Path, file: str, old: str, new: str) -> None:
    """Replace the one occurrence of ``old`` in ``folder/file`` by ``new``."""
    path = folder / file
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, f"{old!r} should occur exactly once in {file}"
    path.write_text(text.replace(old, new), encoding="utf-8")


def line_of(folder: Path, file: str, snippet: str, nth: int = 1) -> int:
    """The 1-based line of the ``nth`` line of ``folder/file`` that contains ``snippet``."""
    hits = [i for i, line in enumerate((folder / file).read_text(encoding="utf-8").splitlines(), 1)
            if snippet in line]
    assert len(hits) >= nth, f"{snippet!r} is not in {file} {nth} time(s)"
    return hits[nth - 1]


def problems(folder: Path) -> list[str]:
    rules, lines = check_rules(folder)
    assert (rules is None) == bool(lines)
    return lines


# ---------------------------------------------------------------- the shipped tables
def test_shipped_rules_load_cleanly() -> None:
    rules = load_rules()
    assert check_rules(DEFAULT_RULES_DIR)[1] == []
    assert rules.dice.scheme(rules.dice.default).id == "d20"
    assert rules.components.kind("habitat").transfers_from == ("capsule",)
    assert str(rules.economy.research.new_thing_rating) == "1/5"


def test_a_copy_loads_cleanly_with_the_same_digest(rules_dir: Path) -> None:
    rules, lines = check_rules(rules_dir)
    assert lines == []
    assert rules is not None and rules.digest == load_rules().digest


def test_digest_changes_when_a_table_changes(rules_dir: Path) -> None:
    before = load_rules(rules_dir).digest
    edit(rules_dir, "economy.yaml", "start_dots: 40", "start_dots: 45")
    after = load_rules(rules_dir)
    assert after.economy.budget.start_dots == 45
    assert after.digest != before


# ---------------------------------------------------------------- YAML syntax
def test_syntax_error_unclosed_list(rules_dir: Path) -> None:
    edit(rules_dir, "economy.yaml", "  start_dots: 40", "  start_dots: [40")
    line = line_of(rules_dir, "economy.yaml", "start_dots: [40")
    assert problems(rules_dir) == [
        f"rules/economy.yaml:{line}: YAML syntax error: a list opened with '[' on this line "
        "is not closed with ']' (or a comma is missing)"]


def test_syntax_error_bad_indentation(rules_dir: Path) -> None:
    edit(rules_dir, "economy.yaml", "  min_dots: 30", "   min_dots: 30")
    line = line_of(rules_dir, "economy.yaml", "min_dots: 30")
    assert problems(rules_dir) == [
        f"rules/economy.yaml:{line}: YAML syntax error: this line's indentation does not match the lines above it"]


def test_syntax_error_tab(rules_dir: Path) -> None:
    edit(rules_dir, "dice.yaml", "    sides: 20", "\tsides: 20")
    line = line_of(rules_dir, "dice.yaml", "\tsides: 20")
    assert problems(rules_dir) == [
        f"rules/dice.yaml:{line}: YAML syntax error: a tab character; indent with spaces only"]


def test_syntax_error_colon_in_value(rules_dir: Path) -> None:
    edit(rules_dir, "options.yaml", "name: Plan Ahead", "name: Plan Ahead: the sequel")
    line = line_of(rules_dir, "options.yaml", "Plan Ahead: the sequel")
    assert problems(rules_dir) == [
        f"rules/options.yaml:{line}: YAML syntax error: unexpected ':' "
        "(put a value that contains ': ' in quotes, or check the indentation)"]


def test_syntax_error_unclosed_quote_points_at_the_opening_line(rules_dir: Path) -> None:
    edit(rules_dir, "options.yaml", "name: Simulationist", "name: 'Simulationist")
    line = line_of(rules_dir, "options.yaml", "'Simulationist")
    assert problems(rules_dir) == [
        f"rules/options.yaml:{line}: YAML syntax error: a quoted value starts on this line "
        "but its closing quote is missing"]


def test_python_tags_are_refused(rules_dir: Path) -> None:
    edit(rules_dir, "edition.yaml", 'id: "2014"', "id: !!python/object:os.system x")
    line = line_of(rules_dir, "edition.yaml", "!!python")
    assert problems(rules_dir) == [
        f"rules/edition.yaml:{line}: the tag '!!python/object:os.system' is not allowed in rules files; "
        "remove it (put the value in quotes if it starts with '!')"]


def test_text_that_is_not_utf8(rules_dir: Path) -> None:
    line = line_of(rules_dir, "options.yaml", "name: Simplified Stack")
    path = rules_dir / "options.yaml"
    path.write_bytes(path.read_bytes().replace(b"Simplified Stack\n", b"Simplified St\xe4ck\n"))  # Latin-1
    assert problems(rules_dir) == [f"rules/options.yaml:{line}: this line is not UTF-8 text; save the file as UTF-8"]


# ---------------------------------------------------------------- keys
def test_unknown_key_with_did_you_mean(rules_dir: Path) -> None:
    edit(rules_dir, "economy.yaml", "start_dots:", "start_dot:")
    line = line_of(rules_dir, "economy.yaml", "start_dot:")
    # The typo is reported once: not also as a missing 'start_dots'.
    assert problems(rules_dir) == [
        f"rules/economy.yaml:{line}: unknown key 'start_dot' in budget (did you mean 'start_dots'?)"]


def test_unknown_key_in_a_list_item_names_the_item(rules_dir: Path) -> None:
    edit(rules_dir, "dice.yaml", "    sides: 20", "    side: 20")
    line = line_of(rules_dir, "dice.yaml", "side: 20")
    assert problems(rules_dir) == [
        f"rules/dice.yaml:{line}: unknown key 'side' in schemes item 1 (d20) (did you mean 'sides'?)"]


def test_unknown_key_without_a_near_name_lists_the_keys(rules_dir: Path) -> None:
    edit(rules_dir, "dice.yaml", "default: d20", "default: d20\nfavourite: 2d10")
    line = line_of(rules_dir, "dice.yaml", "favourite:")
    assert problems(rules_dir) == [
        f"rules/dice.yaml:{line}: unknown key 'favourite' (the keys here are: default, schemes)"]


def test_missing_key(rules_dir: Path) -> None:
    edit(rules_dir, "economy.yaml", "  min_dots: 30 ", "  # min_dots: 30 ")
    line = line_of(rules_dir, "economy.yaml", "start_dots: 40")  # a mapping is located at its first key
    assert problems(rules_dir) == [f"rules/economy.yaml:{line}: missing key 'min_dots' in budget"]


def test_duplicate_key_in_a_mapping(rules_dir: Path) -> None:
    edit(rules_dir, "economy.yaml", "  start_luck: 0", "  start_luck: 0\n  start_dots: 50")
    first = line_of(rules_dir, "economy.yaml", "start_dots: 40")
    again = line_of(rules_dir, "economy.yaml", "start_dots: 50")
    assert problems(rules_dir) == [
        f"rules/economy.yaml:{again}: duplicate key 'start_dots' (first given at line {first})"]


def test_duplicate_id_in_a_list(rules_dir: Path) -> None:
    edit(rules_dir, "components.yaml", "  - id: habitat", "  - id: capsule")
    first = line_of(rules_dir, "components.yaml", "- id: capsule")
    again = line_of(rules_dir, "components.yaml", "- id: capsule", nth=2)
    assert problems(rules_dir) == [
        f"rules/components.yaml:{again}: duplicate id 'capsule' in kinds (first used at line {first})"]


def test_duplicate_id_is_found_even_when_an_item_has_another_problem(rules_dir: Path) -> None:
    edit(rules_dir, "dice.yaml", "  - id: 2d10\n    name: 2D10\n    dice: 2",
         "  - id: d20\n    name: 2D10\n    dice: two")
    first = line_of(rules_dir, "dice.yaml", "- id: d20")
    again = line_of(rules_dir, "dice.yaml", "- id: d20", nth=2)
    assert problems(rules_dir) == [
        f"rules/dice.yaml:{again}: duplicate id 'd20' in schemes (first used at line {first})",
        f"rules/dice.yaml:{again + 2}: dice in schemes item 3 (d20) must be a whole number, not 'two'"]


# ---------------------------------------------------------------- values
def test_text_where_a_whole_number_is_needed(rules_dir: Path) -> None:
    edit(rules_dir, "economy.yaml", "start_dots: 40", "start_dots: forty")
    line = line_of(rules_dir, "economy.yaml", "start_dots: forty")
    assert problems(rules_dir) == [
        f"rules/economy.yaml:{line}: start_dots in budget must be a whole number, not 'forty'"]


def test_a_list_where_a_number_is_needed(rules_dir: Path) -> None:
    edit(rules_dir, "economy.yaml", "hire_derp: 1", "hire_derp: [1, 2]")
    line = line_of(rules_dir, "economy.yaml", "hire_derp:")
    assert problems(rules_dir) == [f"rules/economy.yaml:{line}: hire_derp in costs must be a whole number, not a list"]


def test_empty_value(rules_dir: Path) -> None:
    edit(rules_dir, "economy.yaml", "heal_derp: 1", "heal_derp:")
    line = line_of(rules_dir, "economy.yaml", "heal_derp:")
    assert problems(rules_dir) == [f"rules/economy.yaml:{line}: heal_derp in costs is empty; it needs a whole number"]


def test_unquoted_colour_is_explained(rules_dir: Path) -> None:
    edit(rules_dir, "peoples.yaml", 'colour: "#7fc241"', "colour: #7fc241")
    line = line_of(rules_dir, "peoples.yaml", "colour: #7fc241")
    assert problems(rules_dir) == [
        f"rules/peoples.yaml:{line}: colour in peoples item 3 (goblins) is empty; it needs text "
        "(everything after '#' is a comment: write \"#7fc241\" in quotes)"]


def test_plain_words_that_yaml_reads_as_other_types_stay_text(rules_dir: Path) -> None:
    edit(rules_dir, "options.yaml", "name: Plan Ahead", "name: No")
    edit(rules_dir, "edition.yaml", 'id: "2014"', "id: 2014-05-01")
    rules = load_rules(rules_dir)
    assert rules.option("plan_ahead").name == "No"
    assert rules.edition.id == "2014-05-01"


def test_out_of_range_value(rules_dir: Path) -> None:
    edit(rules_dir, "economy.yaml", "max_dots: 70", "max_dots: 7000")
    line = line_of(rules_dir, "economy.yaml", "max_dots: 7000")
    assert problems(rules_dir) == [
        f"rules/economy.yaml:{line}: max_dots in budget must be between 0 and 1000, not 7000"]


def test_out_of_range_value_shows_the_keys_help(rules_dir: Path) -> None:
    edit(rules_dir, "economy.yaml", "trainings_per_turn:     #", "trainings_per_turn: 0   #")
    line = line_of(rules_dir, "economy.yaml", "trainings_per_turn: 0")
    assert problems(rules_dir) == [
        f"rules/economy.yaml:{line}: trainings_per_turn in derps must be between 1 and 60, not 0 "
        "(how many points one derp may train in one turn; empty: no limit)"]


def test_value_not_in_a_closed_set_ignoring_case(rules_dir: Path) -> None:
    edit(rules_dir, "components.yaml", "role: habitat", "role: Habitat")
    line = line_of(rules_dir, "components.yaml", "role: Habitat")
    assert problems(rules_dir) == [
        f"rules/components.yaml:{line}: role in kinds item 4 (habitat) must be one of lower_stage, thruster, "
        "capsule, habitat, payload, rcs, fuel, rations, not 'Habitat' (did you mean 'habitat'?)"]


def test_limits_between_values(rules_dir: Path) -> None:
    edit(rules_dir, "economy.yaml", "start_dots: 40", "start_dots: 20")
    line = line_of(rules_dir, "economy.yaml", "start_dots: 20")
    assert problems(rules_dir) == [
        f"rules/economy.yaml:{line}: budget: start_dots (20) must lie between min_dots (30) and max_dots (70)"]


# ---------------------------------------------------------------- ratings
def test_malformed_rating(rules_dir: Path) -> None:
    edit(rules_dir, "economy.yaml", "new_thing_rating: 1/5", "new_thing_rating: 5-10")
    line = line_of(rules_dir, "economy.yaml", "new_thing_rating:")
    assert problems(rules_dir) == [
        f"rules/economy.yaml:{line}: new_thing_rating in research: '5-10' is not a rating; "
        "write it like 5/10 (Fail safety / Boom safety)"]


def test_impossible_rating(rules_dir: Path) -> None:
    edit(rules_dir, "economy.yaml", "new_thing_rating: 1/5", "new_thing_rating: 10/5")
    line = line_of(rules_dir, "economy.yaml", "new_thing_rating:")
    assert problems(rules_dir) == [
        f"rules/economy.yaml:{line}: new_thing_rating in research: "
        "the Fail safety must be below the Boom safety (10/5)"]


def test_rating_written_as_a_number(rules_dir: Path) -> None:
    edit(rules_dir, "economy.yaml", "tech_transfer_cap: 5/10", "tech_transfer_cap: 5")
    line = line_of(rules_dir, "economy.yaml", "tech_transfer_cap:")
    assert problems(rules_dir) == [
        f"rules/economy.yaml:{line}: tech_transfer_cap in research must be written like "
        "'5/10' (Fail safety / Boom safety), not the number 5"]


# ---------------------------------------------------------------- references between tables
def test_default_dice_scheme_must_exist(rules_dir: Path) -> None:
    edit(rules_dir, "dice.yaml", "default: d20", "default: d21")
    line = line_of(rules_dir, "dice.yaml", "default: d21")
    assert problems(rules_dir) == [
        f"rules/dice.yaml:{line}: default dice scheme 'd21' is not defined (did you mean 'd20'?)"]


def test_transfers_from_must_name_a_kind(rules_dir: Path) -> None:
    edit(rules_dir, "components.yaml", "transfers_from: [capsule]", "transfers_from: [capsul]")
    line = line_of(rules_dir, "components.yaml", "transfers_from:")
    assert problems(rules_dir) == [
        f"rules/components.yaml:{line}: component kind 'habitat' transfers from unknown kind 'capsul' "
        "(did you mean 'capsule'?)"]


# ---------------------------------------------------------------- whole files
def test_missing_file(rules_dir: Path) -> None:
    (rules_dir / "dice.yaml").unlink()
    assert problems(rules_dir) == ["rules/dice.yaml: the file is missing"]


@pytest.mark.parametrize("text", ["", "\n\n", "# only a comment\n"])
def test_empty_file(rules_dir: Path, text: str) -> None:
    (rules_dir / "options.yaml").write_text(text, encoding="utf-8")
    assert problems(rules_dir) == [
        "rules/options.yaml:1: the file is empty (it holds no keys, only blank lines or comments)"]


def test_file_holding_a_list(rules_dir: Path) -> None:
    (rules_dir / "edition.yaml").write_text("- 2014\n- rules\n", encoding="utf-8")
    assert problems(rules_dir) == ["rules/edition.yaml:1: this file must hold 'key: value' lines, not a list"]


def test_several_problems_in_several_files_are_reported_together_and_sorted(rules_dir: Path) -> None:
    edit(rules_dir, "options.yaml", "name: Simulationist", "name: 'Simulationist")
    edit(rules_dir, "economy.yaml", "invent_per_mass: 3", "invent_per_mass: lots")
    edit(rules_dir, "economy.yaml", "max_dots: 70", "max_dots: 7000")
    edit(rules_dir, "components.yaml", "  - id: habitat", "  - id: capsule")
    (rules_dir / "dice.yaml").unlink()
    max_line = line_of(rules_dir, "economy.yaml", "max_dots:")
    invent_line = line_of(rules_dir, "economy.yaml", "invent_per_mass:")
    quote_line = line_of(rules_dir, "options.yaml", "'Simulationist")
    assert max_line < 10 <= invent_line  # lines sort as numbers, not as text
    lines = problems(rules_dir)
    assert lines == [
        f"rules/components.yaml:{line_of(rules_dir, 'components.yaml', '- id: capsule', 2)}: duplicate id 'capsule' "
        f"in kinds (first used at line {line_of(rules_dir, 'components.yaml', '- id: capsule')})",
        "rules/dice.yaml: the file is missing",
        f"rules/economy.yaml:{max_line}: max_dots in budget must be between 0 and 1000, not 7000",
        f"rules/economy.yaml:{invent_line}: invent_per_mass in costs must be a whole number, not 'lots'",
        f"rules/options.yaml:{quote_line}: YAML syntax error: "
        "a quoted value starts on this line but its closing quote is missing",
    ]


def test_load_rules_raises_with_every_problem(rules_dir: Path) -> None:
    edit(rules_dir, "economy.yaml", "start_dots:", "start_dot:")
    edit(rules_dir, "prestige.yaml", "trigger: eva", "trigger: space_walk")
    with pytest.raises(RulesError) as caught:
        load_rules(rules_dir)
    assert [str(p) for p in caught.value.problems] == check_rules(rules_dir)[1]
    assert str(caught.value) == "\n".join(check_rules(rules_dir)[1])
    assert len(caught.value.problems) == 2


def test_check_rules_returns_the_lines(rules_dir: Path) -> None:
    edit(rules_dir, "economy.yaml", "start_dots: 40", "start_dots: forty")
    rules, lines = check_rules(rules_dir)
    assert rules is None
    assert lines == [f"rules/economy.yaml:{line_of(rules_dir, 'economy.yaml', 'forty')}: "
                     "start_dots in budget must be a whole number, not 'forty'"]


# ---------------------------------------------------------------- layering
def test_rules_package_imports_only_the_standard_library_and_yaml() -> None:
    package = Path(__file__).resolve().parents[1] / "game" / "games" / "whatgoesup" / "rules"
    allowed = set(sys.stdlib_module_names) | {"yaml", "__future__", "game"}
    for source in package.glob("*.py"):
        for node in ast.walk(ast.parse(source.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            else:
                continue
            for name in names:
                assert name.split(".")[0] in allowed, f"{source.name} imports {name}"
