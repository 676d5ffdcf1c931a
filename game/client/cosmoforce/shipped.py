"""Cosmoforce's engine for the shipped rules, loaded once for every scene that needs it."""
from __future__ import annotations

from functools import lru_cache

from game.games.cosmoforce.rules.engine import Engine


@lru_cache(maxsize=1)
def shipped_engine() -> Engine:
    """The engine for ``rules/cosmoforce/`` (loaded on first use)."""
    from game.games.cosmoforce.rules.tables import load_rules

    return Engine(load_rules())
