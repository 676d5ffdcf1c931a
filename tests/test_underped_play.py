"""Underped craft in seeded bot play: the program bot flies some (half its programs, by a coin, build a system
instead of hiring a derp), every invariant holds after every action, and the summary counts their launches,
their firsts (won at half the dots) and the systems lost. The long runs are marked slow."""
from __future__ import annotations

import dataclasses

import pytest

from game.games.whatgoesup.rules.engine import Engine
from game.games.whatgoesup.rules.state import replace_in, update
from game.games.whatgoesup.rules.tables import load_rules
from game.games.whatgoesup.sim import check_invariants, play_game, default_setup, simulate

E = Engine(load_rules())


def test_the_program_bot_flies_underped_craft_and_every_invariant_holds():
    summary = simulate(E, 6, seed=1, options=("underped",))
    assert summary.invariant_failures == 0, summary.first_failure
    assert summary.underped_launches > 0 and summary.underped_firsts > 0


def test_clockwork_craft_fly_their_orders_in_bot_play():
    summary = simulate(E, 6, seed=100, options=("underped", "underped_clockwork"))
    assert summary.invariant_failures == 0, summary.first_failure
    assert summary.underped_launches > 0


def test_without_the_option_nobody_builds_a_system():
    result = play_game(E, default_setup(E, 2, 12), seed=1)
    assert result.failure is None and not any(d.is_system for d in result.final.derps)


def test_a_system_parted_from_its_part_breaks_an_invariant():
    result = play_game(E, default_setup(E, 2, 20, options=("underped",)), seed=1)
    state = result.final
    system = next(d for d in state.derps if d.is_system and not d.dead)
    item = state.item(system.system)
    moved = dataclasses.replace(state, items=replace_in(state.items, [update(item, location="U999")]))
    problems = check_invariants(E, state, result.actions[-1], moved)
    assert any(p.startswith("systems_match_their_parts:") and "are apart" in p for p in problems)


@pytest.mark.slow
@pytest.mark.parametrize("bot", ["program", "random"])
@pytest.mark.parametrize("options", [("underped",), ("underped", "underped_clockwork")])
def test_many_underped_games_keep_every_invariant(bot, options):
    # The random bot never flies a robot (it invents and programs them, which 30 games cover); the program bot does.
    summary = simulate(E, 100 if bot == "program" else 30, seed=1000, bot=bot, options=options)
    assert summary.invariant_failures == 0, summary.first_failure
