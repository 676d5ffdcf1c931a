"""Cosmoforce's ``Setup`` as the plain data a save holds, and back, every field checked.

Whether the setup can be played (classes, systems, names) is the engine's question (``new_game`` says
why not); this module only makes sure the data has the right shape, types and sizes.
"""
from __future__ import annotations

from typing import Any

from game.core.plaindata import BadData, expect, expect_text, expect_whole
from game.core.words import noun_for
from game.games.cosmoforce.rules.state import (MAX_PLAYERS, MAX_SHIPS_PER_PLAYER, PLAYER_NAME_MAX, SHIP_NAME_MAX,
                                               PlayerSetup, Setup, ShipDesign)

_MAX_SLOTS = 20
_MAX_ROUNDS = 10_000


def setup_to_data(setup: Setup) -> dict[str, Any]:
    return {
        "players": [{"name": p.name, "human": p.human, "colour": p.colour, "team": p.team,
                     "ships": [{"name": s.name, "ship_class": s.ship_class, "systems": list(s.systems)}
                               for s in p.ships]}
                    for p in setup.players],
        "teams": setup.teams,
        "round_limit": setup.round_limit,
    }


def _fields(data: Any, where: str, known: set[str], required: set[str]) -> dict:
    expect(data, dict, where, "a mapping")
    unknown = sorted(set(data) - known)
    if unknown:
        raise BadData(f"{where} has unknown {noun_for(len(unknown), 'field')}: {', '.join(map(repr, unknown))}")
    missing = sorted(required - set(data))
    if missing:
        raise BadData(f"{where} is missing {', '.join(map(repr, missing))}")
    return data


def _ship_from_data(data: Any, where: str) -> ShipDesign:
    _fields(data, where, {"name", "ship_class", "systems"}, {"name", "ship_class", "systems"})
    systems = expect(data["systems"], list, f"{where}.systems", "a list")
    if len(systems) > _MAX_SLOTS:
        raise BadData(f"{where}.systems lists {len(systems)} systems; a roster has far fewer slots")
    return ShipDesign(name=expect_text(data["name"], f"{where}.name", SHIP_NAME_MAX),
                      ship_class=expect_text(data["ship_class"], f"{where}.ship_class"),
                      systems=tuple(expect_text(s, f"{where}.systems") for s in systems))


def setup_from_data(data: Any) -> Setup:
    """A Setup from its plain form (BadData names where and what is wrong)."""
    _fields(data, "setup", {"players", "teams", "round_limit"}, {"players"})
    players_data = expect(data["players"], list, "setup.players", "a list")
    if len(players_data) > MAX_PLAYERS:
        raise BadData(f"setup.players lists {len(players_data)} players; a fight has at most {MAX_PLAYERS}")
    players = []
    for n, p in enumerate(players_data, 1):
        where = f"setup.players[{n}]"
        _fields(p, where, {"name", "human", "colour", "team", "ships"}, {"name", "ships"})
        ships_data = expect(p["ships"], list, f"{where}.ships", "a list")
        if len(ships_data) > MAX_SHIPS_PER_PLAYER:
            raise BadData(f"{where}.ships lists {len(ships_data)} ships; a player has at most {MAX_SHIPS_PER_PLAYER}")
        kwargs: dict[str, Any] = {
            "name": expect_text(p["name"], f"{where}.name", PLAYER_NAME_MAX),
            "ships": tuple(_ship_from_data(s, f"{where}.ships[{i}]") for i, s in enumerate(ships_data, 1)),
        }
        if "human" in p:
            kwargs["human"] = expect(p["human"], bool, f"{where}.human", "true or false")
        if "colour" in p:
            kwargs["colour"] = expect_text(p["colour"], f"{where}.colour", 16)
        if "team" in p:
            kwargs["team"] = expect_whole(p["team"], f"{where}.team", 0, MAX_PLAYERS)
        players.append(PlayerSetup(**kwargs))
    kwargs = {"players": tuple(players)}
    if "teams" in data:
        kwargs["teams"] = expect(data["teams"], bool, "setup.teams", "true or false")
    if "round_limit" in data:
        limit = expect(data["round_limit"], (int, type(None)), "setup.round_limit", "a whole number or null")
        kwargs["round_limit"] = None if limit is None else expect_whole(limit, "setup.round_limit", 1, _MAX_ROUNDS)
    return Setup(**kwargs)
