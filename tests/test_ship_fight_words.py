"""A ship fight's story counts its dice in words: a weapon that rolls one die says '1 die' (a house rule's laser
of one die per part), as the heat and shot lines already do; two or more read as before."""
from __future__ import annotations

import dataclasses

from game.games.whatgoesup.rules.engine import Engine
from game.games.whatgoesup.rules.flight.ship_combat import OpenFire, ShipFire
from tests.test_ship_combat import R, armed_pair, texts, uid


def _with_laser_dice(dice: int) -> Engine:
    table = R.ship_combat
    weapons = tuple(dataclasses.replace(w, dice_per_system=dice) if w.id == "laser" else w for w in table.weapons)
    return Engine(dataclasses.replace(R, ship_combat=dataclasses.replace(table, weapons=weapons)))


def test_a_weapon_of_one_die_says_one_die():
    for dice, words in ((1, "1 die, kept only if it fits within"), (2, "2 dice, kept only if they fit within")):
        engine = _with_laser_dice(dice)
        s, _, _ = armed_pair()
        s = engine.apply(engine.apply(s, OpenFire(uid(s, "A"))), ShipFire("laser", 1))
        assert texts(s)[-1] == f"B fires Waylight T22 at A: {words} its mass of 6. Heat aboard rises to 3."
