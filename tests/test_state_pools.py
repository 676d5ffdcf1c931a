"""Pools that grow keep their id indexes: ``appended`` hands the longer tuple the index a rebuild would give."""
from __future__ import annotations

import dataclasses

from game.games.whatgoesup.rules import state as state_module
from game.games.whatgoesup.rules.state import appended, index_by_id, replace_in


@dataclasses.dataclass(frozen=True)
class Piece:
    id: str
    value: int = 0


def rebuilt_index(pool: tuple) -> dict:
    return {piece.id: piece for piece in reversed(pool)}


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
    assert state_module._INDEXES[id(grown)][2] == {p.id: n for n, p in enumerate(grown)}


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
