"""Where saves live and which files there could be saves, reading no game: light on purpose, since the
title's first frame asks it (is there a save to Continue?) before any engine is loaded. ``game.core.saves``
re-exports all of it; loading and writing saves stay there."""
from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import Any, Optional

from game.core.jsonread import JsonLimits, Unreadable, parse_limited, read_limited

FORMAT = "whatgoesup-save"
HOME_ENV = "WHATGOESUP_HOME"
REPO_ROOT = Path(__file__).resolve().parents[2]
#: The most actions a save may hold (a 40-turn, four-program game of bots makes about 15,000).
MAX_ACTIONS = 200_000
#: What a save file may be: 16 MB (a long game is under 2 MB), nesting a save never needs.
SAVE_LIMITS = JsonLimits(max_bytes=16 * 1024 * 1024, max_depth=16, max_digits=20, max_items=MAX_ACTIONS,
                         max_text=1000)
#: Files in the saves folder that are never saves.
NOT_SAVES = frozenset({"settings.json"})


def saves_folder() -> Path:
    """``$WHATGOESUP_HOME`` if set, else ``saves/`` in the repo (the same folder the client uses)."""
    override = os.environ.get(HOME_ENV)
    return Path(override).expanduser() if override else REPO_ROOT / "saves"


def is_save_document(document: Any) -> bool:
    return isinstance(document, dict) and document.get("format") == FORMAT


def candidates(folder: Path) -> list[tuple[os.stat_result, Path]]:
    """Regular ``*.json`` files in ``folder`` that could be saves (never settings.json), with their stat."""
    found = []
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return found
    for entry in entries:
        if not entry.name.endswith(".json") or entry.name in NOT_SAVES or entry.name.startswith("."):
            continue
        try:
            info = os.stat(entry.path)  # follows a link: a link to a save is a save
        except OSError:
            continue
        if stat.S_ISREG(info.st_mode):
            found.append((info, Path(entry.path)))
    return found


def looks_like_a_save(path: Path) -> bool:
    """False for JSON that is plainly something else (another program's file); true for a save, even
    a broken one, and for a file too damaged to tell."""
    try:
        document = parse_limited(read_limited(path, SAVE_LIMITS.max_bytes).decode("utf-8"), SAVE_LIMITS)
    except (OSError, ValueError, Unreadable):
        return True
    return is_save_document(document)


def newest_save(folder: Path | str) -> Optional[Path]:
    """The most recently written file of those ``list_saves`` offers (by hand or automatic), not replayed:
    Continue loads it, and a broken one shows the Load screen with its reason. None when there is none;
    never settings.json, another program's JSON, a folder or a pipe."""
    for _, path in sorted(candidates(Path(folder)), key=lambda c: -c[0].st_mtime_ns):
        if looks_like_a_save(path):
            return path
    return None
