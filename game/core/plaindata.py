"""Plain data (what JSON holds) to and from a game's frozen values, with every value checked.

A save is read by strangers' hands as well as ours, so nothing in it is trusted: each value's type,
each number's range and each text's length and characters are checked, and a problem is a
``BadData`` naming where it is (``setup.players[2].name``) and what is wrong, in a sentence.
"""
from __future__ import annotations

import dataclasses
import unicodedata
from typing import Any, Optional

#: The longest text a save may hold anywhere (ids, kinds, names); fields may allow less.
MAX_TEXT = 64

# Control characters (NUL among them) break text drawing; lone surrogates cannot even be encoded;
# line and paragraph separators would break a one-line name.
_FORBIDDEN_CATEGORIES = {"Cc": "a control character", "Cs": "a broken character (a lone surrogate)",
                         "Zl": "a line break", "Zp": "a paragraph break"}


class BadData(ValueError):
    """A plain-data value is not what it must be; the message names where and why."""


def shown(value: Any, limit: int = 40) -> str:
    """A short ``repr`` of ``value`` for an error message (long values are cut, never printed whole)."""
    if isinstance(value, str) and len(value) > limit:
        return repr(value[:limit - 3]) + "..."
    if isinstance(value, (list, dict, tuple)) and len(value) > 8:
        return f"a {type(value).__name__} of {len(value)}"
    text = repr(value)
    return text if len(text) <= limit else text[:limit - 3] + "..."


def expect(value: Any, kind: type | tuple, where: str, what: str) -> Any:
    """``value`` if it is a ``kind`` (a bool is never a whole number), else BadData."""
    kinds = kind if isinstance(kind, tuple) else (kind,)
    ok = isinstance(value, kinds) and not (isinstance(value, bool) and bool not in kinds)
    if not ok:
        raise BadData(f"{where} must be {what}, not {type(value).__name__} ({shown(value)})")
    return value


def text_problem(text: str, max_length: int = MAX_TEXT) -> Optional[str]:
    """What makes ``text`` unfit for a name on screen (too long, or a character that cannot be drawn)."""
    if len(text) > max_length:
        return f"is longer than {max_length} characters ({len(text)})"
    for char in text:
        category = unicodedata.category(char)
        if category in _FORBIDDEN_CATEGORIES:
            return f"contains {_FORBIDDEN_CATEGORIES[category]} (U+{ord(char):04X})"
    return None


def expect_text(value: Any, where: str, max_length: int = MAX_TEXT) -> str:
    """``value`` if it is text a player could have typed in a field of ``max_length``, else BadData."""
    expect(value, str, where, "text")
    problem = text_problem(value, max_length)
    if problem:
        raise BadData(f"{where} {problem}")
    return value


def expect_whole(value: Any, where: str, low: Optional[int] = None, high: Optional[int] = None) -> int:
    """``value`` if it is a whole number within ``low..high`` (either may be open), else BadData."""
    expect(value, int, where, "a whole number")
    if (low is not None and value < low) or (high is not None and value > high):
        span = (f"from {low} to {high}" if low is not None and high is not None
                else f"at least {low}" if low is not None else f"at most {high}")
        raise BadData(f"{where} must be {span}, not {shown(value)}")
    return value


def to_plain(value: Any) -> Any:
    """``value`` as JSON-ready data: dataclasses become mappings, tuples lists, sets sorted lists."""
    cls = type(value)
    if cls in _ATOMS:
        return value
    names = _FIELD_NAMES.get(cls)
    if names is None:
        # A dataclass instance's fields, found once per class (a class itself is never one: its type is type)
        names = _FIELD_NAMES[cls] = tuple(f.name for f in dataclasses.fields(value)) \
            if dataclasses.is_dataclass(value) and not isinstance(value, type) else False
    if names is not False:
        return {name: to_plain(getattr(value, name)) for name in names}
    if isinstance(value, (tuple, list)):
        return [to_plain(v) for v in value]
    if isinstance(value, (set, frozenset)):
        return sorted(to_plain(v) for v in value)
    return value


#: Values that are their own plain form.
_ATOMS = frozenset((int, str, bool, float, type(None)))
#: class -> the names of its fields when its instances are dataclasses, else False
_FIELD_NAMES: dict[type, Any] = {}
