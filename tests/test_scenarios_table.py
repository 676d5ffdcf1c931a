"""check-rules fixtures for rules/scenarios.yaml: copy the shipped rules, break one thing, compare the lines."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from game.rules.tables import DEFAULT_RULES_DIR, check_rules
from test_rules_tables import edit, line_of, problems


@pytest.fixture
def rules_dir(tmp_path: Path) -> Path:
    folder = tmp_path / "rules"
    shutil.copytree(DEFAULT_RULES_DIR, folder)
    return folder


def test_unknown_victory_kind_with_did_you_mean(rules_dir):
    edit(rules_dir, "scenarios.yaml", "kind: walk_and_return", "kind: walk_and_retrun")
    line = line_of(rules_dir, "scenarios.yaml", "kind: walk_and_retrun")
    assert problems(rules_dir) == [
        f"rules/scenarios.yaml:{line}: kind in victories item 2 (one_small_step) must be one of most_dots, "
        "walk_and_return, find_temple, hold_locations, map_and_return, not 'walk_and_retrun' "
        "(did you mean 'walk_and_return'?)"]


def test_unknown_body_and_orbit_type(rules_dir):
    edit(rules_dir, "scenarios.yaml", "    body: world\n", "    body: wrold\n")
    edit(rules_dir, "scenarios.yaml", "locations: [polar, synchronous,", "locations: [polra, synchronous,")
    body = line_of(rules_dir, "scenarios.yaml", "body: wrold")
    locs = line_of(rules_dir, "scenarios.yaml", "locations: [polra")
    assert problems(rules_dir) == [
        f"rules/scenarios.yaml:{locs}: victory 'all_your_base' names unknown orbit type 'polra' (did you mean 'polar'?)",
        f"rules/scenarios.yaml:{body}: victory 'all_seeing_eye' names unknown body 'wrold' (did you mean 'world'?)"]


def test_a_parameter_the_kind_does_not_take_and_a_missing_one(rules_dir):
    edit(rules_dir, "scenarios.yaml", "    kind: most_dots\n", "    kind: most_dots\n    percent: 50\n")
    edit(rules_dir, "scenarios.yaml", "    kind: walk_and_return\n    body: moon\n", "    kind: walk_and_return\n")
    pct = line_of(rules_dir, "scenarios.yaml", "percent: 50")
    walk = line_of(rules_dir, "scenarios.yaml", "- id: one_small_step")
    assert problems(rules_dir) == [
        f"rules/scenarios.yaml:{pct}: victory 'most_dots' (most_dots) takes no 'percent'",
        f"rules/scenarios.yaml:{walk}: victory 'one_small_step' (walk_and_return) needs 'body'"]


def test_the_track_must_fit_the_board(rules_dir):
    edit(rules_dir, "scenarios.yaml", "{turns_left: 14, transit_steps: 3}", "{turns_left: 14, transit_steps: 4}")
    edit(rules_dir, "scenarios.yaml", "intercept_step: rock_transit ", "intercept_step: rock_transit ")
    line = line_of(rules_dir, "scenarios.yaml", "transit_steps: 4")
    assert problems(rules_dir) == [
        f"rules/scenarios.yaml:{line}: scenario 'stop_the_rock' track asks for 4 Rock Transit steps but the "
        "board's track from 'rock_transit' has 3"]


def test_intercept_step_and_default_difficulty_are_checked(rules_dir):
    edit(rules_dir, "scenarios.yaml", "intercept_step: rock_transit ", "intercept_step: rock_transt ")
    edit(rules_dir, "scenarios.yaml", "default_difficulty: normal", "default_difficulty: norml")
    step = line_of(rules_dir, "scenarios.yaml", "intercept_step: rock_transt")
    diff = line_of(rules_dir, "scenarios.yaml", "default_difficulty: norml")
    assert problems(rules_dir) == [
        f"rules/scenarios.yaml:{step}: scenario 'stop_the_rock' intercept_step 'rock_transt' is not a board step "
        "(did you mean 'rock_transit'?)",
        f"rules/scenarios.yaml:{diff}: scenario 'stop_the_rock' default_difficulty 'norml' is not one of its "
        "difficulties (did you mean 'normal'?)"]


def test_difficulty_dots_within_the_budget_and_a_track_for_the_last_turns(rules_dir):
    edit(rules_dir, "scenarios.yaml", "start_dots: 50", "start_dots: 90")
    edit(rules_dir, "scenarios.yaml", "{turns_left: 0, transit_steps: 1}", "{turns_left: 2, transit_steps: 1}")
    dots = line_of(rules_dir, "scenarios.yaml", "start_dots: 90")
    track = line_of(rules_dir, "scenarios.yaml", "{turns_left: 14")  # the list's first line
    assert problems(rules_dir) == [
        f"rules/scenarios.yaml:{track}: scenario 'stop_the_rock' track needs a stage with turns_left: 0 "
        "(for the last turns before impact)",
        f"rules/scenarios.yaml:{dots}: difficulty 'gentle' start_dots 90 lies outside the budget's 30..70 "
        "(economy.yaml)"]


def test_unknown_key_in_a_difficulty(rules_dir):
    edit(rules_dir, "scenarios.yaml", "nudges_needed: 16", "nudge_needed: 16")
    line = line_of(rules_dir, "scenarios.yaml", "nudge_needed: 16")
    assert problems(rules_dir) == [
        f"rules/scenarios.yaml:{line}: unknown key 'nudge_needed' in difficulties item 1 (gentle) in scenarios "
        "item 1 (stop_the_rock) (did you mean 'nudges_needed'?)"]
