"""The editions What Goes Up ships: one folder of tables each under ``rules/whatgoesup/<id>/``.

An edition's id is its folder's name (and the ``id`` its edition.yaml gives, which ``check-rules`` shows);
a save records it, the command line's ``--edition`` and the New game screen choose by it.
"""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from game.core.interface import UnknownEdition
from game.games.whatgoesup.rules.tables import DEFAULT_RULES_DIR, Rules, load_rules

EDITIONS_DIR = DEFAULT_RULES_DIR.parent
DEFAULT_EDITION = DEFAULT_RULES_DIR.name


def edition_ids() -> tuple[str, ...]:
    """The shipped editions, the default first, then newest to oldest."""
    found = sorted((p.name for p in EDITIONS_DIR.iterdir() if (p / "edition.yaml").is_file()), reverse=True)
    return tuple(sorted(found, key=lambda e: e != DEFAULT_EDITION))


def edition_folder(edition_id: str) -> Path:
    """The folder of a shipped edition; ``UnknownEdition`` (a LookupError) names the ones there are."""
    if edition_id not in edition_ids():
        raise UnknownEdition(f"there is no edition '{edition_id}' (the editions are {' and '.join(edition_ids())})")
    return EDITIONS_DIR / edition_id


@lru_cache(maxsize=8)
def load_edition(edition_id: str) -> Rules:
    """The tables of a shipped edition, loaded once (``RulesError`` if they are broken)."""
    return load_rules(edition_folder(edition_id))
