"""How the client names parts, blueprints, derps and Upgoers to players: by their names, never by the
engine's internal ids ("I4", "T9"), which only exist so that actions and saves can point at things.
"""
from __future__ import annotations

import re
from typing import Iterable

from game.games.whatgoesup.rules.state import GameState, Item

#: An engine id as it appears in a sentence: "(I4)" or a bare "I4" (items, things, derps, Upgoers).
_IN_BRACKETS = re.compile(r"\s*\(([ITDU]\d+)\)")
_BARE = re.compile(r"\b([ITDU]\d+)\b")


def name_of(state: GameState, some_id: str) -> str | None:
    """The player-facing name of whatever ``some_id`` is, or None if it names nothing in ``state``."""
    item = state.find("item", some_id)
    if item is not None:
        return state.thing(item.thing_id).name
    for kind in ("thing", "derp", "upgoer"):
        found = state.find(kind, some_id)
        if found is not None:
            return found.name
    return None


def player_words(state: GameState, text: str) -> str:
    """``text`` with the engine's ids taken out: "(I4)" goes, a bare "I4" becomes the part's name."""
    text = _IN_BRACKETS.sub(lambda m: "" if name_of(state, m.group(1)) is not None else m.group(0), text)
    return _BARE.sub(lambda m: name_of(state, m.group(1)) or m.group(0), text)


def copy_labels(state: GameState, items: Iterable[Item]) -> dict[str, str]:
    """A name for each built part in a list: its thing's name, with "copy 2" etc. when the list holds
    several copies of the same thing (so two rows never read the same)."""
    items = list(items)
    count: dict[str, int] = {}
    for item in items:
        count[item.thing_id] = count.get(item.thing_id, 0) + 1
    seen: dict[str, int] = {}
    out = {}
    for item in items:
        name = state.thing(item.thing_id).name
        if count[item.thing_id] > 1:
            seen[item.thing_id] = seen.get(item.thing_id, 0) + 1
            name = f"{name}, copy {seen[item.thing_id]}"
        out[item.id] = name
    return out
