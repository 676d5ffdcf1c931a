"""check-rules fixtures for rules/scenarios.yaml: copy the shipped rules, break one thing, compare the lines."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from game.games.whatgoesup.rules.tables import DEFAULT_RULES_DIR, load_rules
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


def _level(rules_dir, level: str):
    """A difficulty of the copied folder's scenarios.yaml, as loaded (the tests read its numbers, not constants)."""
    return load_rules(rules_dir).scenarios.scenario("stop_the_rock").difficulty(level)


def test_difficulty_dots_within_the_budget_and_a_track_for_the_last_turns(rules_dir):
    gentle = _level(rules_dir, "gentle")
    budget = load_rules(rules_dir).economy.budget
    # The gentle block is the one without drift; its start_dots line follows.
    edit(rules_dir, "scenarios.yaml", f"drift: false\n        start_dots: {gentle.start_dots}\n",
         "drift: false\n        start_dots: 90\n")
    edit(rules_dir, "scenarios.yaml", "{turns_left: 0, transit_steps: 1}", "{turns_left: 2, transit_steps: 1}")
    dots = line_of(rules_dir, "scenarios.yaml", "start_dots: 90")
    track = line_of(rules_dir, "scenarios.yaml", "{turns_left: 14")  # the list's first line
    assert problems(rules_dir) == [
        f"rules/scenarios.yaml:{track}: scenario 'stop_the_rock' track needs a stage with turns_left: 0 "
        "(for the last turns before impact)",
        f"rules/scenarios.yaml:{dots}: difficulty 'gentle' start_dots 90 lies outside the budget's "
        f"{budget.min_dots}..{budget.max_dots} (economy.yaml)"]


def test_the_emergency_funding_is_a_whole_number_of_points_not_below_zero(rules_dir):
    """`start_points`, the one-time grant on turn 1, is checked like every other key, with its line."""
    hard = _level(rules_dir, "hard")
    gentle = _level(rules_dir, "gentle")
    edit(rules_dir, "scenarios.yaml", f"nudges_needed: {hard.nudges_needed}\n        drift: true\n"
         f"        start_dots: {hard.start_dots}\n        start_points: {hard.start_points}\n",
         f"nudges_needed: {hard.nudges_needed}\n        drift: true\n"
         f"        start_dots: {hard.start_dots}\n        start_points: -5\n")
    edit(rules_dir, "scenarios.yaml", f"drift: false\n        start_dots: {gentle.start_dots}\n"
         f"        start_points: {gentle.start_points}\n",
         f"drift: false\n        start_dots: {gentle.start_dots}\n        start_points: lots\n")
    lots = line_of(rules_dir, "scenarios.yaml", "start_points: lots")
    minus = line_of(rules_dir, "scenarios.yaml", "start_points: -5")
    assert problems(rules_dir) == [
        f"rules/scenarios.yaml:{lots}: start_points in scenarios item 1 (stop_the_rock).difficulties item 1 (gentle) "
        "must be a whole number, not 'lots'",
        f"rules/scenarios.yaml:{minus}: start_points in scenarios item 1 (stop_the_rock).difficulties item 3 (hard) "
        "must be between 0 and 10000, not -5 (a one-time grant of resource points to every program on turn 1)"]


def test_the_emergency_funding_may_be_left_out(rules_dir):
    """Without `start_points` a difficulty grants nothing extra (the key is optional, 0 by default)."""
    normal = _level(rules_dir, "normal")
    edit(rules_dir, "scenarios.yaml", f"drift: true\n        start_dots: {normal.start_dots}\n"
         f"        start_points: {normal.start_points}\n",
         f"drift: true\n        start_dots: {normal.start_dots}\n")
    assert problems(rules_dir) == []
    assert _level(rules_dir, "normal").start_points == 0


def test_unknown_key_in_a_difficulty(rules_dir):
    needed = _level(rules_dir, "gentle").nudges_needed
    edit(rules_dir, "scenarios.yaml", f"nudges_needed: {needed}\n", f"nudge_needed: {needed}\n")
    line = line_of(rules_dir, "scenarios.yaml", f"nudge_needed: {needed}")
    assert problems(rules_dir) == [
        f"rules/scenarios.yaml:{line}: unknown key 'nudge_needed' in difficulties item 1 (gentle) in scenarios "
        "item 1 (stop_the_rock) (did you mean 'nudges_needed'?)"]


def test_a_track_stage_given_twice_names_the_first(rules_dir):
    edit(rules_dir, "scenarios.yaml", "{turns_left: 8, transit_steps: 2}", "{turns_left: 14, transit_steps: 2}")
    first = line_of(rules_dir, "scenarios.yaml", "{turns_left: 14, transit_steps: 3}")
    again = line_of(rules_dir, "scenarios.yaml", "{turns_left: 14, transit_steps: 2}")
    assert problems(rules_dir) == [
        f"rules/scenarios.yaml:{again}: scenario 'stop_the_rock' track has turns_left 14 twice (first at line {first})"]


def test_a_choice_without_options_is_reported_at_its_options(rules_dir):
    edit(rules_dir, "flight.yaml", "fail: [{effect: choose, options: [lose_payload, lose_rations, degrade_all_parts], "
         "units: 1, fail: 1, boom: 1}]", "fail:\n      - effect: choose\n        options: []")
    line = line_of(rules_dir, "flight.yaml", "options: []")
    assert problems(rules_dir) == [f"rules/flight.yaml:{line}: effect 'choose' needs at least one option"]
