"""Read a JSON file that anyone may have written, within limits, never hanging and never crashing.

Only a regular file is read (a folder, a pipe or a device named ``*.json`` is refused before it is
opened for reading, and checked again once open); at most ``max_bytes`` are read. Parsing refuses
numbers with more than ``max_digits`` digits (Python would otherwise raise its own "Exceeds the limit"
error or build huge values), NaN and Infinity, nesting deeper than ``max_depth``, lists and mappings
longer than ``max_items``, and texts longer than ``max_text``. Every refusal is an ``Unreadable`` whose
message is one sentence about the file, for the caller to prefix with its name.
"""
from __future__ import annotations

import json
import math
import os
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import Any


class Unreadable(Exception):
    """The file cannot be read as the JSON it should be; the message says why."""


@dataclass(frozen=True)
class JsonLimits:
    max_bytes: int = 16 * 1024 * 1024
    max_depth: int = 32
    max_digits: int = 20
    max_items: int = 500_000
    max_text: int = 10_000


def _kind_of(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a pipe (FIFO)"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def is_regular_file(path: Path | str) -> bool:
    """True for a regular file (or a link to one); never opens it."""
    try:
        return stat.S_ISREG(os.stat(path).st_mode)
    except (OSError, ValueError):
        return False


def read_limited(path: Path | str, max_bytes: int) -> bytes:
    """The bytes of a regular file of at most ``max_bytes``; FileNotFoundError, OSError or Unreadable."""
    before = os.stat(path)
    if not stat.S_ISREG(before.st_mode):
        raise Unreadable(f"it is {_kind_of(before.st_mode)}, not a file")
    if before.st_size > max_bytes:
        raise Unreadable(f"it is {before.st_size:,} bytes; a file this big is not one the game wrote "
                         f"(the limit is {max_bytes:,})")
    # O_NONBLOCK: should a pipe replace the file between the check and the open, opening does not wait.
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    with os.fdopen(fd, "rb") as f:
        mode = os.fstat(f.fileno()).st_mode
        if not stat.S_ISREG(mode):
            raise Unreadable(f"it is {_kind_of(mode)}, not a file")
        data = f.read(max_bytes + 1)
    if len(data) > max_bytes:
        raise Unreadable(f"it is more than {max_bytes:,} bytes; a file this big is not one the game wrote")
    return data


def parse_limited(text: str, limits: JsonLimits = JsonLimits()) -> Any:
    """The JSON value of ``text`` within ``limits``; Unreadable (or json.JSONDecodeError for bad syntax)."""

    def whole(digits: str) -> int:
        count = len(digits.lstrip("-"))
        if count > limits.max_digits:
            raise Unreadable(f"it holds a number of {count:,} digits; at most {limits.max_digits} are allowed")
        return int(digits)

    def fraction(text: str) -> float:
        value = float(text) if len(text) <= 2 * limits.max_digits else math.inf
        if not math.isfinite(value):
            raise Unreadable(f"it holds a number too large to use ({text[:24]}...)")
        return value

    def constant(name: str) -> Any:
        raise Unreadable(f"it holds {name}, which is not a number")

    try:
        value = json.loads(text, parse_int=whole, parse_float=fraction, parse_constant=constant)
    except RecursionError:
        raise Unreadable(f"it is nested too deeply (at most {limits.max_depth} levels)") from None
    check_shape(value, limits)
    return value


def check_shape(value: Any, limits: JsonLimits) -> None:
    """Unreadable when ``value`` nests deeper, or holds longer lists, mappings or texts, than ``limits`` allow."""
    def check_text(node: str) -> None:
        if len(node) > limits.max_text:
            raise Unreadable(f"it holds a text of {len(node):,} characters; at most "
                             f"{limits.max_text:,} are allowed")

    if isinstance(value, str):
        check_text(value)
    if not isinstance(value, (list, dict)):
        return
    # Only containers go on the stack; texts are checked where they are met (a save is mostly scalars).
    stack = [(value, 1)]
    while stack:
        node, depth = stack.pop()
        if depth > limits.max_depth:
            raise Unreadable(f"it is nested too deeply (at most {limits.max_depth} levels)")
        if len(node) > limits.max_items:
            raise Unreadable(f"it holds a list of {len(node):,} entries; at most {limits.max_items:,} are allowed")
        if isinstance(node, dict):
            for key in node:
                if isinstance(key, str) and len(key) > limits.max_text:
                    check_text(key)
            node = node.values()
        for child in node:
            if isinstance(child, str):
                if len(child) > limits.max_text:
                    check_text(child)
            elif isinstance(child, (list, dict)):
                stack.append((child, depth + 1))
