"""The listing's view (``Engine.legal_view``), which bots draw from, is ``legal_actions`` read without joining
R&D's families: the same length, the very same action at every index, and its ``without`` the list filtered
(issue 12). A seeded bot's draw is therefore the same action as from the list."""
from __future__ import annotations

import pytest

from game.core.dice_rng import Chooser
from game.core.interface import CHANCE, TERMINAL
from game.games.whatgoesup.bots import _THROWS_AWAY
from game.games.whatgoesup.rules.actions import Build, EndRnD, Hire, Research
from game.games.whatgoesup.rules.rnd_listing import RND_FAMILY_KINDS, Listed
from game.games.whatgoesup.sim import default_setup, play_game
from tests.test_fast_engine import ENGINE, OPTIONAL_PLAY, SETUPS


def assert_view_is_the_list(engine, state) -> list:
    """The view of ``state`` equals its legal actions element by element, and the view without the actions a
    random pick avoids equals the list filtered; R&D's families hold only the classes they declare. The list."""
    view = engine.legal_view(state)  # asked first: the view works the families out, the list reads them kept
    legal = engine.legal_actions(state)
    assert len(view) == len(legal)
    assert all(view[n] == action for n, action in enumerate(legal))
    rnd = state.phase == "rnd" and state.pending_trade is None
    if rnd:  # R&D hands out the actions it kept: the very objects (a flight's listing makes new ones each time)
        assert all(view[n] is action for n, action in enumerate(legal))
    assert list(view) == legal and view.joined() == legal
    assert view[-1] == legal[-1] and view[1:4] == legal[1:4]
    with pytest.raises(IndexError):
        view[len(legal)]  # noqa: B018 (the look-up is what is tested)
    safe, filtered = view.without(_THROWS_AWAY), [a for a in legal if type(a) not in _THROWS_AWAY]
    assert len(safe) == len(filtered) and all(safe[n] == action for n, action in enumerate(filtered))
    for seed in (1, 2, 3):
        assert Chooser(seed).choice(view) == Chooser(seed).choice(legal)
    if rnd:
        assert len(view.parts) == len(RND_FAMILY_KINDS)
        for family, kinds in zip(view.parts, RND_FAMILY_KINDS):
            assert {type(a) for a in family} <= kinds
    return legal


def compare_in_play(engine, setup, seeds, bot_kinds, max_turns) -> dict[str, int]:
    """Seeded games whose every state where a program acts is compared; how many of each phase."""
    seen: dict[str, int] = {}

    def check(before, action, after):
        if engine.current_player(after) in (CHANCE, TERMINAL):
            return
        assert_view_is_the_list(engine, after)
        where = "trade" if after.pending_trade is not None else after.phase
        seen[where] = seen.get(where, 0) + 1

    for seed in seeds:
        for bot_kind in bot_kinds:
            result = play_game(engine, setup, seed, max_turns=max_turns, check=False, on_action=check,
                               bot_kind=bot_kind)
            assert result.failure is None, result.failure
    return seen


@pytest.mark.parametrize("name", sorted(SETUPS))
def test_view_equals_the_listing_in_seeded_play(name):
    """R&D, flights and trades of seeded games of the random and space-program bots in every mode."""
    seen = compare_in_play(ENGINE, SETUPS[name], range(2), ("random", "program"), max_turns=8)
    assert seen.get("rnd", 0) > 20, seen


@pytest.mark.parametrize("name", sorted(OPTIONAL_PLAY))
def test_view_equals_the_listing_under_the_optional_rules(name):
    """The same under each optional rule and the 2013 edition (its dots-only trades among them)."""
    engine, setup, bots = OPTIONAL_PLAY[name]
    seen = compare_in_play(engine, setup, range(1), bots, max_turns=12 if setup.turn_limit else None)
    assert seen.get("rnd", 0) > 10, seen


def test_view_equals_the_listing_late_in_a_long_random_game():
    """An 80-turn random game (a hundred blueprints in many blocks, research changing one block at a time):
    the blocks' lists read in place give the joined listing."""
    compared, blocks = 0, 0

    def check(before, action, after):
        nonlocal compared, blocks
        if after.turn >= 50 and after.phase == "rnd" and ENGINE.current_player(after) not in (CHANCE, TERMINAL) \
                and after.pending_trade is None:
            assert_view_is_the_list(ENGINE, after)
            blocks = max(blocks, len(ENGINE.legal_view(after).parts[1].parts))
            compared += 1

    result = play_game(ENGINE, default_setup(ENGINE, 2, 80), 300, max_turns=80, check=False, on_action=check)
    assert result.failure is None
    assert compared > 200 and blocks > 5


def test_listed_reads_its_parts_in_order_across_empty_ones():
    """Empty parts at the start, between and at the end are passed over; each index finds its part."""
    research, build, hire, end = Research("t1", "fail", 1), Build("t1", 1), Hire(), EndRnD()
    view = Listed([[], [research, build], [], (hire,), [], [end], []],
                  (None, frozenset((Research, Build)), None, frozenset((Hire,)), None, frozenset((EndRnD,)), None))
    assert len(view) == 4 and [view[n] for n in range(4)] == [research, build, hire, end]
    assert list(view.without(frozenset((Hire,)))) == [research, build, end]
    assert list(view.without(frozenset((Build,)))) == [research, hire, end]  # a mixed part filtered
    assert not Listed.of([]) and len(Listed.of([end])) == 1
