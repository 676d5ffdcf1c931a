"""Table fixtures: copy the shipped rules, break one thing, and check the exact error lines.

Each test copies ``rules/`` into a temporary folder that is also called ``rules`` (so problems
read ``rules/<file>.yaml:<line>: ...`` just as a modder sees them), makes a small text edit and
compares the full list of problem lines. Line numbers are looked up in the edited copy with
``line_of`` so that the fixtures keep working when comments are added to the shipped tables.
"""
from __future__ import annotations

import ast
import re
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


def set_key(folder: Path, file: str, after: str, key: str, value: str) -> int:
    """Write ``key: value`` on the first ``key:`` line below the line holding ``after`` (keeping its
    indentation, whatever value it had); returns that line's number."""
    path = folder / file
    lines = path.read_text(encoding="utf-8").split("\n")
    start = next(i for i, line in enumerate(lines) if after in line)
    n = next(i for i in range(start, len(lines)) if lines[i].strip().startswith(f"{key}:"))
    lines[n] = lines[n][:len(lines[n]) - len(lines[n].lstrip())] + f"{key}: {value}"
    path.write_text("\n".join(lines), encoding="utf-8")
    return n + 1


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
        "capsule, habitat, payload, rcs, fuel, rations, underped, not 'Habitat' (did you mean 'habitat'?)"]


def test_limits_between_values(rules_dir: Path) -> None:
    edit(rules_dir, "economy.yaml", "start_dots: 40", "start_dots: 20")
    line = line_of(rules_dir, "economy.yaml", "start_dots: 20")
    assert problems(rules_dir) == [
        f"rules/economy.yaml:{line}: start_dots in budget must lie between min_dots (30) and max_dots (70), not 20"]


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


# ---------------------------------------------------------------- numbers that cannot be played with
FINITE = "must be a finite number, not '{}' (infinity and 'not a number' cannot be played with)"


def test_nan_extra_mass_is_refused(rules_dir: Path) -> None:
    edit(rules_dir, "components.yaml", "reusable_extra_mass: 1/5", "reusable_extra_mass: .nan")
    line = line_of(rules_dir, "components.yaml", "reusable_extra_mass:")
    assert problems(rules_dir) == [f"rules/components.yaml:{line}: reusable_extra_mass " + FINITE.format(".nan")]


def test_infinite_thruster_ratio_is_refused(rules_dir: Path) -> None:
    edit(rules_dir, "components.yaml", "min_ratio: 1/10", "min_ratio: .inf")
    line = line_of(rules_dir, "components.yaml", "min_ratio:")
    assert problems(rules_dir) == [f"rules/components.yaml:{line}: min_ratio in thruster " + FINITE.format(".inf")]


def test_board_size_and_positions_must_be_finite(rules_dir: Path) -> None:
    width = set_key(rules_dir, "board.yaml", "width:", "width", ".nan")
    height = set_key(rules_dir, "board.yaml", "height:", "height", "-.inf")
    home = set_key(rules_dir, "board.yaml", "- id: home", "position", "[.NaN, 510]")
    assert problems(rules_dir) == [
        f"rules/board.yaml:{width}: width " + FINITE.format(".nan"),
        f"rules/board.yaml:{height}: height " + FINITE.format("-.inf"),
        f"rules/board.yaml:{home}: position item 1 in steps item 1 (home) " + FINITE.format(".NaN")]


def test_a_position_off_the_board_is_refused(rules_dir: Path) -> None:
    set_key(rules_dir, "board.yaml", "width:", "width", "1600")
    set_key(rules_dir, "board.yaml", "height:", "height", "900")
    home = set_key(rules_dir, "board.yaml", "- id: home", "position", "[1e12, 510]")  # YAML 1.1 reads it as text
    assert problems(rules_dir) == [f"rules/board.yaml:{home}: position item 1 in steps item 1 (home) must be a "
                                   "number, not '1e12'"]
    set_key(rules_dir, "board.yaml", "- id: home", "position", "[1000000000000.0, 510]")
    assert problems(rules_dir) == [f"rules/board.yaml:{home}: step 'home' position [1e+12, 510] lies off the "
                                   "board (x from 0 to 1600, y from 0 to 900)"]
    set_key(rules_dir, "board.yaml", "- id: home", "position", "[390, 510]")
    world = line_of(rules_dir, "board.yaml", "id: world")
    path = rules_dir / "board.yaml"
    lines = path.read_text(encoding="utf-8").split("\n")
    lines[world - 1] = re.sub(r"position: \[[^]]*\]", "position: [430, -470]", lines[world - 1])
    path.write_text("\n".join(lines), encoding="utf-8")
    assert problems(rules_dir) == [f"rules/board.yaml:{world}: body 'world' position [430, -470] lies off the "
                                   "board (x from 0 to 1600, y from 0 to 900)"]


def test_a_huge_number_is_shown_shortened(rules_dir: Path) -> None:
    edit(rules_dir, "economy.yaml", "max_dots: 70", "max_dots: " + "9" * 100)
    line = line_of(rules_dir, "economy.yaml", "max_dots:")
    assert problems(rules_dir) == [
        f"rules/economy.yaml:{line}: max_dots in budget must be between 0 and 1000, not {'9' * 37}..."]


def test_every_number_key_has_a_range() -> None:
    """So that no number a modder writes is taken without a check (the exceptions are checked elsewhere)."""
    import dataclasses
    import typing
    from fractions import Fraction
    from game.games.whatgoesup.rules.board import Board
    from game.games.whatgoesup.rules.flighttable import FlightTable
    from game.games.whatgoesup.rules.scenarios import ScenarioTable
    from game.games.whatgoesup.rules.tables import TABLE_FILES
    checked_elsewhere = {("Body", "position"), ("Step", "position"),  # on the board: board.py
                         ("Effect", "uses"),  # 1 to 100 or all: flighttable.py
                         ("Rating", "fail"), ("Rating", "boom")}  # within worst..best, safeties 0 to 100
    seen, unranged = set(), []

    def leaves(tp):
        if typing.get_origin(tp) in (typing.Union, tuple):
            for arg in typing.get_args(tp):
                if arg is not Ellipsis:
                    yield from leaves(arg)
        else:
            yield tp

    def walk(cls) -> None:
        if cls in seen:
            return
        seen.add(cls)
        hints = typing.get_type_hints(cls)
        for f in dataclasses.fields(cls):
            for leaf in leaves(hints[f.name]):
                if leaf in (int, float, Fraction) and (f.metadata.get("low") is None or f.metadata.get("high") is None):
                    unranged.append((cls.__name__, f.name))
                elif dataclasses.is_dataclass(leaf):
                    walk(leaf)

    for cls in [c for _, c in TABLE_FILES.values()] + [Board, FlightTable, ScenarioTable]:
        walk(cls)
    assert set(unranged) == checked_elsewhere


def test_reliability_limits_keep_safeties_within_0_and_100(rules_dir: Path) -> None:
    edit(rules_dir, "economy.yaml", "best: 19/20", "best: 19/2000")
    line = line_of(rules_dir, "economy.yaml", "best: 19/2000")
    assert problems(rules_dir) == [
        f"rules/economy.yaml:{line}: best in reliability must have safeties from 0 to 100, not 19/2000"]


# ---------------------------------------------------------------- aliases, nesting and size
def test_a_self_referencing_alias_is_refused(rules_dir: Path) -> None:
    edit(rules_dir, "economy.yaml", "budget:", "loop: &l [*l]\nbudget:")
    line = line_of(rules_dir, "economy.yaml", "loop:")
    assert problems(rules_dir) == [
        f"rules/economy.yaml:{line}: the alias '*l' is inside the value that '&l' (line {line}) names, "
        "so it would repeat itself forever"]


def test_a_self_referencing_alias_deeper_inside_is_refused(rules_dir: Path) -> None:
    edit(rules_dir, "economy.yaml", "budget:", "loop: &outer\n  inner:\n    - *outer\nbudget:")
    line = line_of(rules_dir, "economy.yaml", "- *outer")
    anchor = line_of(rules_dir, "economy.yaml", "loop: &outer")
    assert problems(rules_dir) == [
        f"rules/economy.yaml:{line}: the alias '*outer' is inside the value that '&outer' (line {anchor}) names, "
        "so it would repeat itself forever"]


@pytest.mark.parametrize("opening, closing", [("[", "]"), ("{a: ", "}")])
def test_nesting_a_thousand_deep_is_refused(rules_dir: Path, opening: str, closing: str) -> None:
    edit(rules_dir, "economy.yaml", "budget:", f"deep: {opening * 1000}1{closing * 1000}\nbudget:")
    line = line_of(rules_dir, "economy.yaml", "deep:")
    assert problems(rules_dir) == [
        f"rules/economy.yaml:{line}: lists and groups of keys are nested more than 50 deep here; "
        "rules never need more than a few levels"]


def test_billion_laughs_stop_at_the_value_limit(rules_dir: Path) -> None:
    bomb = ["lol0: &lol0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]"]
    bomb += [f"lol{n}: &lol{n} [{', '.join([f'*lol{n - 1}'] * 9)}]" for n in range(1, 9)]
    edit(rules_dir, "economy.yaml", "budget:", "\n".join(bomb) + "\nbudget:")
    line = line_of(rules_dir, "economy.yaml", "lol4:")  # nine times lol3's 7,381 values: over 50,000
    assert problems(rules_dir) == [
        f"rules/economy.yaml:{line}: the alias '*lol3' repeats '&lol3' (line {line - 1}) so often that this file "
        "would hold more than 50,000 values; write the values out or use fewer aliases"]


def test_a_few_aliases_are_fine(rules_dir: Path) -> None:
    edit(rules_dir, "peoples.yaml", "upgoer_names: [Carrot, Burrow, Springheel, Moonhop, Whisker, Dewdrop]",
         "upgoer_names: &bunny_craft [Carrot, Burrow, Springheel, Moonhop, Whisker, Dewdrop]")
    edit(rules_dir, "peoples.yaml", "upgoer_names: [Mash, Wedge, Tater, Rosti, Chip, Gnocchi]",
         "upgoer_names: *bunny_craft")
    rules = load_rules(rules_dir)
    assert rules.peoples.peoples[1].upgoer_names == rules.peoples.peoples[0].upgoer_names
    assert rules.digest != load_rules().digest


def test_a_file_too_large_is_refused(rules_dir: Path) -> None:
    path = rules_dir / "options.yaml"
    path.write_text(path.read_text(encoding="utf-8") + "#" * 1_000_000 + "\n", encoding="utf-8")
    size = path.stat().st_size
    assert problems(rules_dir) == [
        f"rules/options.yaml: the file is {size:,} bytes; a rules file may hold at most 1,000,000 bytes"]


def test_tags_on_lists_and_groups_are_refused(rules_dir: Path) -> None:
    edit(rules_dir, "components.yaml", "transfers_from: [capsule]", "transfers_from: !!python/tuple [capsule]")
    line = line_of(rules_dir, "components.yaml", "transfers_from:")
    assert problems(rules_dir) == [
        f"rules/components.yaml:{line}: the tag '!!python/tuple' is not allowed in rules files; "
        "remove it (put the value in quotes if it starts with '!')"]


# ---------------------------------------------------------------- lists the game cannot play with empty
@pytest.mark.parametrize("file, old, new, where, needs", [
    ("peoples.yaml", "peoples:", "peoples: []\nunused:", "peoples",
     "at least one people (every space program belongs to one)"),
    ("peoples.yaml", "derp_names: [Bunbun, Clover, Thistle, Hopsworth, Marigold, Nibbles, Pipkin, Dandelion, Fluffkin, "
     "Sorrel]", "derp_names: []", "derp_names in peoples item 1 (rabitians)",
     "at least one name (new derps are named from it)"),
    ("peoples.yaml", "upgoer_names: [Mash, Wedge, Tater, Rosti, Chip, Gnocchi]", "upgoer_names: []",
     "upgoer_names in peoples item 2 (merbs)", "at least one name (new Upgoers and parts are named from it)"),
    ("dice.yaml", "schemes:", "schemes: []\nunused:", "schemes",
     "at least one dice scheme (every reliability roll uses one)"),
    ("components.yaml", "kinds:", "kinds: []\nunused:", "kinds", "at least one kind (programs invent and build them)"),
])
def test_an_empty_list_the_game_needs_is_refused(rules_dir: Path, file, old, new, where, needs) -> None:
    edit(rules_dir, file, old, new)
    line = line_of(rules_dir, file, new.split("\n")[0])
    found = problems(rules_dir)
    assert f"rules/{file}:{line}: {where} is an empty list; it needs {needs}" in found
    assert all(p.startswith(f"rules/{file}:") for p in found), found


# ---------------------------------------------------------------- problems on the line of the value at fault
def test_min_dots_above_the_start_is_reported_at_start_dots(rules_dir: Path) -> None:
    edit(rules_dir, "economy.yaml", "min_dots: 30", "min_dots: 50")
    line = line_of(rules_dir, "economy.yaml", "start_dots: 40")
    assert problems(rules_dir) == [
        f"rules/economy.yaml:{line}: start_dots in budget must lie between min_dots (50) and max_dots (70), not 40"]


def test_max_dots_below_min_dots_is_reported_at_max_dots(rules_dir: Path) -> None:
    edit(rules_dir, "economy.yaml", "max_dots: 70", "max_dots: 20")
    line = line_of(rules_dir, "economy.yaml", "max_dots: 20")
    assert problems(rules_dir) == [
        f"rules/economy.yaml:{line}: max_dots in budget must be at least min_dots (30), not 20"]


def test_a_best_rating_worse_than_the_worst_is_reported_at_best(rules_dir: Path) -> None:
    edit(rules_dir, "economy.yaml", "best: 19/20", "best: 0/1")
    best = line_of(rules_dir, "economy.yaml", "best: 0/1")
    worst = line_of(rules_dir, "economy.yaml", "worst:")
    assert problems(rules_dir) == [
        f"rules/economy.yaml:{best}: best in reliability (0/1) must not be worse than worst (1/2, line {worst}) "
        "in either number"]


def test_an_orbit_step_without_orbit_type_is_reported_at_the_step(rules_dir: Path) -> None:
    edit(rules_dir, "board.yaml", "    rail: low_orbit\n    orbit_type: low\n    body: world\n    next: low_burn_1",
         "    rail: low_orbit\n    body: world\n    next: low_burn_1")
    line = line_of(rules_dir, "board.yaml", "- id: low_1")
    assert problems(rules_dir) == [
        f"rules/board.yaml:{line}: orbit step 'low_1' needs an orbit_type (prestige counts orbit types)"]


def test_a_burn_junction_without_burns_is_reported_at_its_burns(rules_dir: Path) -> None:
    edit(rules_dir, "board.yaml", "    burns:\n      - {to: high_transfer, name: High transfer burn}\n"
         "      - {to: reentry, name: Deorbit burn, uses_rcs: true}\n", "    burns: []\n")
    line = line_of(rules_dir, "board.yaml", "burns: []")
    assert f"rules/board.yaml:{line}: burn junction 'low_burn_1' offers no burns" in problems(rules_dir)


def test_an_escape_step_that_leads_on_is_reported_at_next(rules_dir: Path) -> None:
    edit(rules_dir, "board.yaml", "    kind: escape\n", "    kind: escape\n    next: home\n")
    line = line_of(rules_dir, "board.yaml", "kind: escape") + 1
    assert problems(rules_dir) == [f"rules/board.yaml:{line}: escape step 'escape' leaves play and cannot lead anywhere"]


def test_rcs_uses_out_of_range_is_reported_at_uses(rules_dir: Path) -> None:
    edit(rules_dir, "flight.yaml", "fail: [{effect: cancel}, {effect: rcs_uses, uses: 1}]\n    boom: [{effect: cancel}, "
         "{effect: rcs_uses, uses: all}]\n  - roll: docking",
         "fail:\n      - effect: rcs_uses\n        uses: 0\n    boom: [{effect: cancel}, "
         "{effect: rcs_uses, uses: all}]\n  - roll: docking")
    line = line_of(rules_dir, "flight.yaml", "uses: 0")
    assert problems(rules_dir) == [f"rules/flight.yaml:{line}: rcs_uses needs uses: a number from 1 to 100, or all"]


# ---------------------------------------------------------------- the C and the pure-Python parser agree
@pytest.mark.parametrize("file, old, new", [
    ("economy.yaml", "  start_dots: 40", "  start_dots: [40"),
    ("economy.yaml", "  min_dots: 30", "   min_dots: 30"),
    ("dice.yaml", "    sides: 20", "\tsides: 20"),
    ("options.yaml", "name: Plan Ahead", "name: Plan Ahead: the sequel"),
    ("options.yaml", "name: Simulationist", "name: 'Simulationist"),
    ("options.yaml", "name: Simulationist", "name: *Simulationist"),
    ("options.yaml", "name: Simulationist", "name: @Simulationist"),
    ("edition.yaml", 'id: "2014"', 'id: "2014"\n---\nid: again'),
    ("peoples.yaml", 'colour: "#7fc241"', "colour: #7fc241"),
])
def test_both_parsers_report_the_same_problems(rules_dir: Path, monkeypatch, file, old, new) -> None:
    from game.core import yamlnodes
    edit(rules_dir, file, old, new)
    fast = problems(rules_dir)
    monkeypatch.setattr(yamlnodes, "FAST_LOADER", yamlnodes.PURE_LOADER)
    assert problems(rules_dir) == fast and fast


# ---------------------------------------------------------------- the digest follows the tables, not the text
def test_comments_quotes_and_layout_do_not_change_the_digest(rules_dir: Path) -> None:
    before = load_rules(rules_dir)
    edit(rules_dir, "economy.yaml", "start_dots: 40", "start_dots: 40   # a new comment")
    edit(rules_dir, "components.yaml", "reusable_extra_mass: 1/5", "reusable_extra_mass: 0.2")
    edit(rules_dir, "options.yaml", "name: Plan Ahead", "name: 'Plan Ahead'")
    edit(rules_dir, "board.yaml", "width: 1600\nheight: 900", "height: 900\nwidth: 1600.0")
    after = load_rules(rules_dir)
    assert after.digest == before.digest
    assert after.earlier_digests != before.earlier_digests  # the raw text's hash, which older saves recorded


def test_an_earlier_fingerprint_naming_an_unknown_option_is_reported(rules_dir):
    line = set_key(rules_dir, "edition.yaml", "earlier:", "changed_options", "[underpeds]")
    assert problems(rules_dir) == [
        f"rules/edition.yaml:{line}: earlier fingerprint 'ee1bc7c40637b77e' names unknown option 'underpeds' "
        f"(did you mean 'underped'?)"]


def test_earlier_fingerprints_leave_the_rules_fingerprint_alone(rules_dir):
    before = load_rules(rules_dir).digest
    edit(rules_dir, "edition.yaml", "    changed_options: [underped, space_war]", "    changed_options: []")
    assert load_rules(rules_dir).digest == before
