"""What Goes Up's ``Setup`` as the plain data a save holds, and back, every field checked.

The engine offers these as ``setup_to_data`` / ``setup_from_data`` so the shared saves never need to
know what a What Goes Up setup holds. Names are checked as the new-game screen would accept them.
"""
from __future__ import annotations

import dataclasses
from typing import Any

from game.core.plaindata import BadData, expect, expect_text, expect_whole
from game.core.words import noun_for
from game.games.whatgoesup.rules.limits import PROGRAM_NAME_MAX
from game.games.whatgoesup.rules.state import PlayerSetup, Setup

#: More programs than any table seats (the engine allows one to four; it says so with the reason).
_MAX_PLAYERS = 16
_MAX_OPTIONS = 64
_MAX_TURNS = 10_000


def setup_to_data(setup: Setup) -> dict[str, Any]:
    return {
        "players": [dataclasses.asdict(p) for p in setup.players],
        "dice": setup.dice,
        "options": sorted(setup.options),
        "turn_limit": setup.turn_limit,
        "victory": setup.victory,
        "scenario": setup.scenario,
        "difficulty": setup.difficulty,
    }


def setup_from_data(data: Any) -> Setup:
    """A Setup from its plain form, every field's type, size and text checked (BadData says what is wrong)."""
    expect(data, dict, "setup", "a mapping")
    known = {"players", "dice", "options", "turn_limit", "victory", "scenario", "difficulty"}
    unknown = sorted(set(data) - known)
    if unknown:
        raise BadData(f"setup has unknown {noun_for(len(unknown), 'field')}: {', '.join(map(repr, unknown))}")
    players_data = expect(data.get("players"), list, "setup.players", "a list")
    if len(players_data) > _MAX_PLAYERS:
        raise BadData(f"setup.players lists {len(players_data)} programs; a game has one to four")
    players = []
    player_fields = {f.name for f in dataclasses.fields(PlayerSetup)}
    for n, p in enumerate(players_data, 1):
        where = f"setup.players[{n}]"
        expect(p, dict, where, "a mapping")
        extra = sorted(set(p) - player_fields)
        if extra:
            raise BadData(f"{where} has unknown {noun_for(len(extra), 'field')}: {', '.join(map(repr, extra))}")
        for required in ("name", "people"):
            if required not in p:
                raise BadData(f"{where} is missing '{required}'")
        expect_text(p["name"], f"{where}.name", PROGRAM_NAME_MAX)
        for key in ("people", "colour"):
            if key in p:
                expect_text(p[key], f"{where}.{key}")
        if "human" in p:
            expect(p["human"], bool, f"{where}.human", "true or false")
        players.append(PlayerSetup(**p))
    kwargs: dict[str, Any] = {"players": tuple(players)}
    if "dice" in data:
        kwargs["dice"] = expect_text(data["dice"], "setup.dice")
    if "options" in data:
        options = expect(data["options"], list, "setup.options", "a list")
        if len(options) > _MAX_OPTIONS:
            raise BadData(f"setup.options lists {len(options)} options; at most {_MAX_OPTIONS} are allowed")
        kwargs["options"] = frozenset(expect(o, str, "setup.options", "a list of text") for o in options)
        for option in kwargs["options"]:
            expect_text(option, "setup.options")
    if "turn_limit" in data:
        limit = expect(data["turn_limit"], (int, type(None)), "setup.turn_limit", "a whole number or null")
        kwargs["turn_limit"] = None if limit is None else expect_whole(limit, "setup.turn_limit", high=_MAX_TURNS)
    if "victory" in data:
        kwargs["victory"] = expect_text(data["victory"], "setup.victory")
    for key in ("scenario", "difficulty"):  # absent in saves made before scenarios: no scenario
        if key in data:
            value = expect(data[key], (str, type(None)), f"setup.{key}", "text or null")
            kwargs[key] = None if value is None else expect_text(value, f"setup.{key}")
    return Setup(**kwargs)
