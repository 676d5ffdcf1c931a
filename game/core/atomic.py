"""Write a file all at once, so that a crash, a full disk or a planted link never leaves half a file.

``write_atomic`` writes the text to a new temporary file next to the target (a unique name, created
with ``O_EXCL`` and ``O_NOFOLLOW``, so an existing file or symbolic link of that name is never written
through), flushes and syncs it, renames it over the target, then syncs the folder so that the rename
itself survives a power cut. A temporary file orphaned by a crash is named ``.<target>.<random>.tmp``;
``clean_stale_temporaries`` removes those (and the fixed ``settings.json.tmp`` older versions used).
Errors are plain ``OSError``; callers say what they mean in a player's words.
"""
from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Sequence

TEMP_SUFFIX = ".tmp"
#: A temporary file this old is an orphan: a write takes milliseconds, not a minute.
STALE_AFTER_SECONDS = 60.0
_LEGACY_TEMPORARIES = ("settings.json.tmp",)


def random_tag() -> str:
    """Twelve hex digits from the system's randomness: what ``secrets.token_hex(6)`` gives, without importing
    ``secrets`` (hashlib and OpenSSL, ~4 ms of the title's first frame: the settings import this module)."""
    return os.urandom(6).hex()


def temporary_name(target: Path) -> Path:
    return target.with_name(f".{target.name}.{random_tag()}{TEMP_SUFFIX}")


def is_temporary(path: Path) -> bool:
    """A name ``write_atomic`` (or an older version of the game) gives its temporary files."""
    name = path.name
    return (name.startswith(".") and name.endswith(TEMP_SUFFIX) and name.count(".") >= 3) \
        or name in _LEGACY_TEMPORARIES


def write_temporary(target: Path, data: bytes | Sequence) -> Path:
    """Write ``data`` (bytes, or a sequence of bytes-like pieces written one after another) to a new temporary
    file next to ``target`` (synced to disk) and return its path."""
    target.parent.mkdir(parents=True, exist_ok=True)
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_BINARY", 0)
    tmp = temporary_name(target)
    fd = os.open(tmp, flags, 0o666)
    try:
        with os.fdopen(fd, "wb") as f:
            if isinstance(data, bytes):
                f.write(data)
            else:
                f.writelines(data)
            f.flush()
            os.fsync(f.fileno())
    except BaseException:
        discard(tmp)
        raise
    return tmp


def sync_folder(folder: Path) -> None:
    """Make a rename in ``folder`` durable (where the platform can sync a folder at all)."""
    if os.name == "nt":  # Windows cannot open a folder to sync it; its renames are journalled
        return
    fd = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def discard(path: Path) -> None:
    try:
        path.unlink()
    except OSError:
        pass


def write_atomic(path: Path | str, text: str) -> None:
    """Replace ``path`` with ``text`` (UTF-8) all at once; on failure the old file is untouched (OSError)."""
    write_atomic_bytes(path, text.encode("utf-8"))


def write_atomic_bytes(path: Path | str, data: bytes | Sequence) -> None:
    """Replace ``path`` with ``data`` (as ``write_temporary`` takes it) all at once; on failure the old file is
    untouched (OSError)."""
    path = Path(path)
    tmp = write_temporary(path, data)
    try:
        os.replace(tmp, path)
    except BaseException:
        discard(tmp)
        raise
    sync_folder(path.parent)


def clean_stale_temporaries(folder: Path | str, older_than: float = STALE_AFTER_SECONDS) -> list[Path]:
    """Remove temporary files that interrupted writes left in ``folder``; returns what was removed.

    Only files named as ``write_atomic`` names them, and only when ``older_than`` seconds old, so a
    write in progress (another copy of the game) is left alone. Never raises.
    """
    removed = []
    now = time.time()
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return removed
    for entry in entries:
        path = Path(entry.path)
        if not is_temporary(path):
            continue
        try:
            stamp = entry.stat(follow_symlinks=False).st_mtime
            if now - stamp >= older_than:
                path.unlink()
                removed.append(path)
        except OSError:
            continue
    return removed
