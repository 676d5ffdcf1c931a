"""``Engine.legal_families`` is ``legal_actions`` family by family: joined, the same actions (in R&D the very
objects) in the same order; left without some classes (whole families dropped, the space-program bot's random
pick), the list filtered action by action (issue 12). A seeded bot's draw is therefore the same action."""
from __future__ import annotations

import pytest

from game.core.dice_rng import Chooser
from game.core.interface import CHANCE, TERMINAL
from game.games.whatgoesup.bots import _THROWS_AWAY
from game.games.whatgoesup.rules.actions import Build, Disassemble, EndRnD, Hire, Research
from game.games.whatgoesup.rules.rnd_listing import AFTER_BLOCKS_KINDS, Listed, rnd_family_kinds
from game.games.whatgoesup.sim import default_setup, play_game
from tests.test_fast_engine import ENGINE, OPTIONAL_PLAY, SETUPS, play_seeded


def assert_families_are_the_list(engine, state) -> None:
    """The families of ``state`` joined equal its legal actions, and without the actions a random pick avoids,
    the list filtered; R&D's families hold only the classes they declare."""
    families = engine.legal_families(state)  # asked first: the families are worked out, the list reads them kept
    legal = engine.legal_actions(state)
    joined = families.joined()
    assert joined == legal
    rnd = state.phase == "rnd" and state.pending_trade is None
    if rnd:  # R&D hands out the actions it kept: the very objects (a flight's listing makes new ones each time)
        assert all(map(lambda a, b: a is b, joined, legal))
    safe, filtered = families.without(_THROWS_AWAY).joined(), [a for a in legal if type(a) not in _THROWS_AWAY]
    assert safe == filtered
    for seed in (1, 2, 3):
        assert Chooser(seed).choice(safe or joined) == Chooser(seed).choice(filtered or legal)
    if rnd:  # the inventions, a part per block of research and builds, then the other families
        assert families.kinds == rnd_family_kinds(len(families.parts))
        assert families.kinds[-len(AFTER_BLOCKS_KINDS):] == AFTER_BLOCKS_KINDS
        for part, kinds in zip(families.parts, families.kinds):
            assert {type(a) for a in part} <= kinds


def compare_in_play(engine, setup, seeds, bot_kinds, max_turns) -> dict[str, int]:
    """Seeded games whose every state where a program acts is compared; how many of each phase."""
    seen: dict[str, int] = {}

    def check(before, action, after):
        if engine.current_player(after) in (CHANCE, TERMINAL):
            return
        assert_families_are_the_list(engine, after)
        where = "trade" if after.pending_trade is not None else after.phase
        seen[where] = seen.get(where, 0) + 1

    play_seeded(engine, setup, seeds, bot_kinds, max_turns, check)
    return seen


@pytest.mark.parametrize("name", sorted(SETUPS))
def test_families_equal_the_listing_in_seeded_play(name):
    """R&D, flights and trades of seeded games of the random and space-program bots in every mode."""
    seen = compare_in_play(ENGINE, SETUPS[name], range(2), ("random", "program"), max_turns=8)
    assert seen.get("rnd", 0) > 20, seen


@pytest.mark.parametrize("name", sorted(OPTIONAL_PLAY))
def test_families_equal_the_listing_under_the_optional_rules(name):
    """The same under each optional rule and the 2013 edition (its dots-only trades among them)."""
    engine, setup, bots = OPTIONAL_PLAY[name]
    seen = compare_in_play(engine, setup, range(1), bots, max_turns=12 if setup.turn_limit else None)
    assert seen.get("rnd", 0) > 10, seen


def test_families_equal_the_listing_late_in_a_long_random_game():
    """An 80-turn random game (a hundred blueprints in many blocks, research changing one block at a time, the
    points crossing the blocks' costs): the blocks' lists, carried from one state to the next, joined give the
    listing; some states have Upgoers on the pad to leave out."""
    compared, blocks, pads = 0, 0, 0

    def check(before, action, after):
        nonlocal compared, blocks, pads
        if after.turn >= 50 and after.phase == "rnd" and ENGINE.current_player(after) not in (CHANCE, TERMINAL) \
                and after.pending_trade is None:
            assert_families_are_the_list(ENGINE, after)
            families = ENGINE.legal_families(after)
            blocks = max(blocks, len(families.parts) - 1 - len(AFTER_BLOCKS_KINDS))
            pads += any(type(a) is Disassemble for a in families.joined())
            compared += 1

    result = play_game(ENGINE, default_setup(ENGINE, 2, 80), 300, max_turns=80, check=False, on_action=check)
    assert result.failure is None
    assert compared > 200 and blocks > 5 and pads > 10


def test_listed_joins_its_parts_in_order_and_leaves_classes_out():
    """Empty parts at the start, between and at the end add nothing; a part of one class left out is dropped
    whole, a mixed or unknown part filtered."""
    research, build, hire, end = Research("t1", "fail", 1), Build("t1", 1), Hire(), EndRnD()
    listed = Listed([[], [research, build], [], (hire,), [], [end], []],
                    (None, frozenset((Research, Build)), None, frozenset((Hire,)), None, frozenset((EndRnD,)), None))
    assert listed.joined() == [research, build, hire, end]
    assert listed.without(frozenset((Hire,))).joined() == [research, build, end]
    assert listed.without(frozenset((Build,))).joined() == [research, hire, end]  # a mixed part filtered
    assert Listed.of([end, hire]).without(frozenset((Hire,))).joined() == [end]
    assert Listed.of([]).joined() == []
