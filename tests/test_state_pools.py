"""Pools that grow keep their id indexes: ``appended`` hands the longer tuple the index a rebuild would give."""
from __future__ import annotations

import dataclasses

import pytest

from game.games.whatgoesup.rules import state as state_module
from game.games.whatgoesup.rules.state import appended, index_by_id, replace_in, update, updated


@dataclasses.dataclass(frozen=True)
class Piece:
    id: str
    value: int = 0


def rebuilt_index(pool: tuple) -> dict:
    return {piece.id: piece for piece in reversed(pool)}


def kept_places(pool: tuple) -> dict:
    """The places kept for ``pool`` (those below its length: the places are shared with the pools made from it)."""
    entry = state_module._INDEXES[id(pool)]
    assert entry[0] is pool
    return {some_id: n for some_id, n in entry[1][0].items() if n < len(pool)}


def test_appended_pool_answers_look_ups_like_a_fresh_index():
    pool = tuple(Piece(f"P{n}", n) for n in range(20))
    index_by_id(pool)  # the old pool has its index kept
    grown = appended(pool, [Piece("P20", 20), Piece("P3", 99)])  # P3 twice: the first one is the one found
    assert grown == pool + (Piece("P20", 20), Piece("P3", 99))
    assert index_by_id(grown) == rebuilt_index(grown)
    assert index_by_id(grown)["P3"] == Piece("P3", 3)
    # An id twice: replacing goes the plain way and replaces both, as it did before.
    replaced = replace_in(grown, [Piece("P3", 7)])
    assert [p.value for p in replaced if p.id == "P3"] == [7, 7]


def test_appended_then_replaced_keeps_positions_right():
    pool = tuple(Piece(f"P{n}", n) for n in range(15))
    replace_in(pool, [Piece("P0", 100)])  # builds the positions of the old pool
    grown = appended(pool, [Piece("P15", 15)])
    after = replace_in(grown, [Piece("P15", 150), Piece("P7", 70)])
    assert after == tuple(Piece(p.id, {"P15": 150, "P7": 70}.get(p.id, p.value)) for p in grown)
    assert index_by_id(after) == rebuilt_index(after)
    assert kept_places(grown) == kept_places(after) == {p.id: n for n, p in enumerate(grown)}
    assert kept_places(pool) == {p.id: n for n, p in enumerate(pool)}  # the old pool reads its own places only


def test_removed_pool_answers_look_ups_like_a_fresh_index():
    """``removed`` hands the shorter pool its parent's index without the ids taken out (no rebuild), so look-ups,
    replacements and a later growth read as from an index made fresh; a pool holding an id twice gets none."""
    from game.games.whatgoesup.rules.state import removed
    pool = tuple(Piece(f"P{n}", n) for n in range(20))
    replace_in(pool, [Piece("P0", 0)])  # the old pool has its index and positions kept
    shorter = removed(pool, [2, 7, 19])
    assert shorter == tuple(p for p in pool if p.id not in ("P2", "P7", "P19"))
    assert kept_places(shorter) == {p.id: n for n, p in enumerate(shorter)}
    assert index_by_id(shorter) == rebuilt_index(shorter) and "P7" not in index_by_id(shorter)
    after = replace_in(shorter, [Piece("P8", 80)])
    assert after == tuple(Piece(p.id, 80 if p.id == "P8" else p.value) for p in shorter)
    assert index_by_id(after) == rebuilt_index(after)
    assert kept_places(after) == {p.id: n for n, p in enumerate(shorter)}
    doubled = appended(pool, [Piece("P3", 99)])
    index_by_id(doubled)
    fewer = removed(doubled, [0])
    assert id(fewer) not in state_module._INDEXES or state_module._INDEXES[id(fewer)][0] is not fewer
    assert index_by_id(fewer) == rebuilt_index(fewer)


def test_one_value_replaced_like_many():
    """A research replaces one blueprint of a long pool: the one-value way gives the same tuple and index as
    the general way, replaces every copy of an id found twice, and leaves the pool alone for an unknown id."""
    pool = tuple(Piece(f"P{n}", n) for n in range(20))
    one = replace_in(pool, (Piece("P13", 130),))
    assert one == replace_in(pool, [Piece("P13", 130)]) == pool[:13] + (Piece("P13", 130),) + pool[14:]
    assert index_by_id(one) == rebuilt_index(one)
    again = replace_in(one, (Piece("P0", -1),))
    assert [p.value for p in again[:2]] + [again[13].value] == [-1, 1, 130]
    assert index_by_id(again) == rebuilt_index(again)
    doubled = appended(pool, [Piece("P3", 99)])
    assert [p.value for p in replace_in(doubled, (Piece("P3", 7),)) if p.id == "P3"] == [7, 7]
    assert replace_in(pool, (Piece("P99", 1),)) == pool


def test_replaced_since_names_the_places_replaced_on_the_way():
    """A pool made from another by ``replace_in`` (one value or many, short pool or long) and ``appended``
    knows which places got new values since: the views of the R&D listing read those, not every value."""
    from game.games.whatgoesup.rules.state import replaced_since
    short = tuple(Piece(f"P{n}", n) for n in range(5))
    pool = tuple(Piece(f"P{n}", n) for n in range(30))
    step1 = replace_in(pool, (Piece("P4", 40),))
    step2 = appended(step1, [Piece("P30", 30)])
    step3 = replace_in(step2, [Piece("P9", 90), Piece("P30", 300)])  # P30 is past the old pool's end
    assert replaced_since(pool, pool) == set()
    assert replaced_since(pool, step1) == {4}
    assert replaced_since(pool, step3) == {4, 9}
    assert replaced_since(step1, step3) == {9}
    assert replaced_since(step3, pool) is None  # not made from it
    assert replaced_since(tuple(pool), tuple(p for p in step3 if p.id != "P2")) is None  # made another way
    short_after = replace_in(replace_in(short, (Piece("P1", 10),)), [Piece("P3", 30), Piece("P4", 40)])
    assert replaced_since(short, short_after) == {1, 3, 4}
    assert [n for n in range(5) if short_after[n] is not short[n]] == [1, 3, 4]


@dataclasses.dataclass(frozen=True)
class Owned:
    id: str
    owner: int
    value: int = 0


def test_selection_carried_over_equals_the_whole_pool_filtered():
    """``_where`` read from the parent pool's kept selection (appended, replaced in place, replaced into or out
    of the selection) answers what filtering the whole pool gives."""
    owner = state_module._OWNER
    pool = tuple(Owned(f"P{n}", n % 3, n) for n in range(20))

    def plain(values: tuple, wanted: int) -> tuple:
        return tuple(v for v in values if v.owner == wanted)

    assert state_module._where(pool, owner, 1) == plain(pool, 1)  # kept for the parent
    steps = [lambda p: appended(p, [Owned("P20", 1), Owned("P21", 2)]),
             lambda p: replace_in(p, (Owned("P4", 1, 44),)),  # a selected value replaced in place
             lambda p: replace_in(p, [Owned("P5", 2, 55), Owned("P7", 1, 77)]),  # one outside, one inside
             lambda p: replace_in(p, (Owned("P1", 0, 11),)),  # leaves the selection: the whole pool is read
             lambda p: appended(p, [Owned("P22", 0)])]
    carries = [True, True, True, False, True]  # only the value leaving the selection needs the whole pool read
    for step, carry in zip(steps, carries):
        grown = step(pool)
        carried = state_module._carried_selection(grown, owner, 1)
        assert (carried is not None) == carry
        if carry:
            assert carried == plain(grown, 1)
            assert all(a is b for a, b in zip(carried, plain(grown, 1)))
        assert state_module._where(grown, owner, 1) == plain(grown, 1)
        pool = grown


def test_kept_selections_equal_the_pools_filtered_in_every_state_of_a_game():
    """Over a 30-turn seeded random game (builds, inventions, research, flights), the selections carried over
    from the previous state answer what filtering the whole pool gives."""
    from game.games.whatgoesup.rules.engine import Engine
    from game.games.whatgoesup.rules.state import HOME
    from game.games.whatgoesup.rules.tables import load_rules
    from game.games.whatgoesup.sim import default_setup, play_game

    engine = Engine(load_rules(None))
    seen = {"states": 0, "carried": 0}

    def check(before, action, after) -> None:
        seen["states"] += 1
        seen["carried"] += state_module._carried_selection(after.items, state_module._OWNER, 0) is not None
        for program in (0, 1):
            assert after.things_of(program) == tuple(t for t in after.things if t.owner == program)
            assert after.items_owned(program) == tuple(i for i in after.items if i.owner == program)
            assert after.items_of(program) == tuple(i for i in after.items
                                                    if i.owner == program and i.location == HOME)

    result = play_game(engine, default_setup(engine, 2, 30), 11, max_turns=30, check=False, on_action=check)
    assert result.failure is None and seen["states"] > 300 and seen["carried"] > 50


def test_made_equals_the_class_called_with_the_same_fields():
    """``made`` fills a value as ``update`` copies one: equal to ``cls(**fields)``, its fields in the same order,
    a class that checks itself (Rating) still checked, and a missing or unknown field refused as ``__init__``
    refuses it."""
    import pytest
    from game.games.whatgoesup.rules.reliability import Rating
    from game.games.whatgoesup.rules.state import Derp, Item, Thing, Upgoer, made

    cases = [
        (Thing, dict(id="T3", owner=1, name="Lark capsule Mk1", kind="capsule", base_mass=4, mass=5, reusable=True,
                     rating=Rating(4, 9), inventor=1)),
        (Item, dict(id="I7", thing_id="T3", owner=0, uses_left=2)),
        (Derp, dict(id="D2", owner=0, name="Bob", piloting=1, engineering=1, stamina=3, current_stamina=3,
                    system="I7", powered_down=True)),
        (Upgoer, dict(id="U9", owner=1, name="Lark 1", stages=(("I1",),), modules=("I7",), crew=("D2",), fuel=4,
                      rations=2)),
        (Piece, dict(id="P1")),
        (Rating, dict(fail=3, boom=8)),
    ]
    for cls, fields in cases:
        value = made(cls, **fields)
        expected = cls(**fields)
        assert type(value) is cls and value == expected
        assert list(vars(value).items()) == list(vars(expected).items())
    with pytest.raises(ValueError, match="Fail safety must be below"):
        made(Rating, fail=8, boom=3)
    with pytest.raises(TypeError, match="missing"):
        made(Item, id="I7", owner=0)
    with pytest.raises(TypeError, match="unexpected keyword"):
        made(Item, id="I7", thing_id="T3", owner=0, colour="red")


def test_replaced_since_follows_as_many_steps_as_it_is_given():
    """``steps`` is how many makings ``replaced_since`` follows back: a pool one ``replace_in`` away is found
    within one step, two away within two, and not within fewer (then the caller compares)."""
    from game.games.whatgoesup.rules.state import replaced_since
    pool = tuple(Piece(f"P{n}", n) for n in range(30))
    step1 = replace_in(pool, (Piece("P4", 40),))
    step2 = replace_in(step1, (Piece("P7", 70),))
    assert replaced_since(pool, pool, 0) == set()
    assert replaced_since(pool, step1, 0) is None
    assert replaced_since(pool, step1, 1) == {4}
    assert replaced_since(pool, step2, 1) is None
    assert replaced_since(pool, step2, 2) == {4, 7}


def _pool_steps():
    """Strategies for one making step of a pool: ("replace", picks), ("append", count) or ("remove", picks);
    the picks are fractions of the pool's length, turned into places when the step is played."""
    from hypothesis import strategies as st
    picks = st.lists(st.floats(min_value=0, max_value=0.999), min_size=1, max_size=4)
    return st.one_of(st.tuples(st.just("replace"), picks), st.tuples(st.just("append"), st.integers(1, 3)),
                     st.tuples(st.just("remove"), picks))


def _played(pool: tuple, steps, counter: list) -> list[tuple]:
    """The pools made from ``pool`` by ``steps`` through ``replace_in``, ``appended`` and ``removed``."""
    from game.games.whatgoesup.rules.state import removed
    made = [pool]
    for kind, what in steps:
        if kind == "append":
            news = []
            for _ in range(what):
                counter[0] += 1
                news.append(Owned(f"P{counter[0]}", counter[0] % 3))
            pool = appended(pool, news)
        elif not pool:
            continue
        else:
            places = sorted({int(f * len(pool)) for f in what})
            if kind == "replace":
                counter[0] += 1
                pool = replace_in(pool, [Owned(pool[n].id, (pool[n].owner + n) % 3, counter[0]) for n in places])
            else:
                pool = removed(pool, places)
        made.append(pool)
    return made


def _brute_force_changes(older: tuple, newer: tuple) -> tuple[list[int], list[int]]:
    """(gone, changed) by comparing values: ids are unique, so a value's id says where it went."""
    at = {v.id: n for n, v in enumerate(newer)}
    gone = [n for n, v in enumerate(older) if v.id not in at]
    changed = [n for n, v in enumerate(older) if v.id in at and newer[at[v.id]] is not v]
    return gone, changed


def test_changes_since_names_exactly_the_places_removed_and_replaced():
    """A pool made by any mix of ``replace_in``, ``appended`` and ``removed`` (short pools and long) reports,
    from any pool on its way, exactly the places removed and those replaced that a brute-force diff finds; the
    kept ones come first in order, then the values added; ``replaced_since`` answers only while nothing was
    removed, and then the same places. Only a way through the empty pool is not followed."""
    from hypothesis import given, settings
    from hypothesis import strategies as st
    from game.games.whatgoesup.rules.state import changes_since, replaced_since

    @settings(max_examples=300, deadline=None)
    @given(size=st.integers(0, 40), steps=st.lists(_pool_steps(), max_size=8))
    def check(size, steps):
        counter = [1000]
        pools = _played(tuple(Owned(f"P{n}", n % 3) for n in range(size)), steps, counter)
        for start, older in enumerate(pools):
            for end, newer in enumerate(pools[start:], start):
                found = changes_since(older, newer)
                if found is None:  # the empty tuple is one value, whatever it was made from: never recorded
                    assert any(not pool for pool in pools[start + 1:end + 1])
                    continue
                gone, changed = found
                assert (gone, changed) == _brute_force_changes(older, newer)
                kept = [v for n, v in enumerate(older) if n not in set(gone)]
                assert [v.id for v in newer[:len(kept)]] == [v.id for v in kept]
                assert all(newer[n - len([g for g in gone if g < n])] is older[n]
                           for n in range(len(older)) if n not in set(gone) and n not in set(changed))
                replaced = replaced_since(older, newer)
                if replaced is not None:
                    assert not gone and sorted(n for n in replaced if newer[n] is not older[n]) == changed
        assert changes_since(pools[-1], pools[0]) is None or pools[-1] is pools[0]

    check()


def test_selection_carried_over_a_removal_equals_the_whole_pool_filtered():
    """``_where`` after any mix of making steps, removals included, read from the selection kept for the pool
    it was made from, answers what filtering the whole pool gives; a removal is always carried over."""
    from hypothesis import given, settings
    from hypothesis import strategies as st
    owner = state_module._OWNER

    @settings(max_examples=200, deadline=None)
    @given(size=st.integers(13, 40), steps=st.lists(_pool_steps(), min_size=1, max_size=8), wanted=st.integers(0, 2))
    def check(size, steps, wanted):
        counter = [1000]
        pools = _played(tuple(Owned(f"P{n}", n % 3) for n in range(size)), steps, counter)
        state_module._where(pools[0], owner, wanted)
        for (kind, _), parent, pool in zip(steps, pools, pools[1:]):
            carried = state_module._carried_selection(pool, owner, wanted)
            plain = tuple(v for v in pool if v.owner == wanted)
            if kind == "remove" and len(parent) > state_module._SHORT_POOL:
                assert carried is not None
            if carried is not None:
                assert carried == plain and all(a is b for a, b in zip(carried, plain))
            assert state_module._where(pool, owner, wanted) == plain

    check()


def test_changes_since_follows_as_many_steps_as_it_is_given():
    """``steps`` is how many makings ``changes_since`` follows back, a removal one of them, as for
    ``replaced_since``: beyond them the caller compares."""
    from game.games.whatgoesup.rules.state import changes_since, removed
    pool = tuple(Piece(f"P{n}", n) for n in range(30))
    step1 = removed(pool, [2, 5])
    step2 = replace_in(step1, (Piece("P7", 70),))  # P7 now at place 5
    assert changes_since(pool, pool, 0) == ([], [])
    assert changes_since(pool, step1, 0) is None
    assert changes_since(pool, step1, 1) == ([2, 5], [])
    assert changes_since(pool, step2, 1) is None
    assert changes_since(pool, step2, 2) == ([2, 5], [7])
    assert changes_since(step1, step2, 1) == ([], [5])


@dataclasses.dataclass(frozen=True)
class Checked:
    """A class ``update`` may not copy by its fields: it checks them in ``__post_init__``."""
    id: str
    value: int = 0

    def __post_init__(self):
        if self.value < 0:
            raise ValueError("no negative values")


def test_updated_makes_the_copy_update_makes():
    class Fresh(Piece):  # a class neither has copied yet: updated hands it to update, which judges it
        pass

    for value, changes in ((Piece("P1", 1), {"value": 2}), (Fresh("F1", 1), {"value": 3}),
                           (Fresh("F2", 1), {"id": "F3"}), (Checked("C1", 1), {"value": 4}), (Piece("P2"), {})):
        copy = updated(value, changes)
        assert copy == update(value, **changes) == dataclasses.replace(value, **changes)
        assert type(copy) is type(value) and copy is not value
        assert vars(copy) == vars(dataclasses.replace(value, **changes))
    with pytest.raises(TypeError):
        updated(Piece("P1"), {"colour": "red"})  # no such field: as dataclasses.replace says
    with pytest.raises(ValueError):
        updated(Checked("C1"), {"value": -1})  # the class's own check runs
    changes = {"value": 5}
    updated(Piece("P1"), changes)
    assert changes == {"value": 5}  # the caller's dict is left as it was


def test_places_shared_along_a_line_of_pools_answer_for_each_pool():
    """The pools ``replace_in``, ``replaced_at`` and ``appended`` make from one another share one dict of places:
    each pool still finds only its own values (an id appended later is not in an older pool), a second pool
    appended to the same older one (another line of play) reads its own, and so does a pool removed from it."""
    from game.games.whatgoesup.rules.state import place_of, removed
    pool = tuple(Piece(f"P{n}", n) for n in range(20))
    index_by_id(pool)
    grown = appended(pool, [Piece("P20", 20)])
    replaced = replace_in(grown, [Piece("P20", 200), Piece("P1", 10)])
    other = appended(pool, [Piece("Q20", 21)])  # another line from the same pool
    for some in (pool, grown, replaced, other):
        assert index_by_id(some) == rebuilt_index(some)
        assert {p.id: place_of(some, p.id) for p in some} == {p.id: n for n, p in enumerate(some)}
    assert "P20" not in index_by_id(pool) and index_by_id(pool).get("P20") is None
    assert place_of(pool, "P20") == -1 and "P20" not in index_by_id(other) and index_by_id(other)["Q20"].value == 21
    assert replace_in(pool, [Piece("P20", 7)]) == pool  # an id only a later pool holds is not this pool's
    with pytest.raises(KeyError):
        index_by_id(pool)["P20"]
    shorter = removed(pool, [0, 5])  # the places went on past ``pool``: the shorter one's are read again
    assert index_by_id(shorter) == rebuilt_index(shorter) and kept_places(shorter) == {
        p.id: n for n, p in enumerate(shorter)}
    fewer = removed(replaced, [3])
    assert index_by_id(fewer) == rebuilt_index(fewer) and kept_places(fewer) == {p.id: n for n, p in enumerate(fewer)}
