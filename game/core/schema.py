"""Build typed, frozen table objects from located YAML nodes.

One generic builder serves every table: the dataclass's type hints say what each key
holds, ``field(metadata=...)`` adds ranges and help, and every problem (unknown key with
its nearest valid name, wrong type, out-of-range value, missing key, duplicate id) is
collected rather than raised, so that a modder sees all of them at once.
"""
from __future__ import annotations

import dataclasses
import enum
import functools
import math
import re
import types
import typing
import unicodedata
from fractions import Fraction
from typing import Any, Literal, Union, get_args, get_origin, get_type_hints

from game.core.yamlnodes import Map, Node, Problem, Problems, Scalar, Seq, clip, closest, nearest


# Text limits. Ids and names end up in saves, on buttons and in one-line labels; longer texts
# (descriptions) are wrapped but must still fit on a card. docs/modding.md states them.
ID_PATTERN = re.compile(r"[A-Za-z0-9_-]{1,32}")
NAME_MAX = 60
TEXT_MAX = 2000


def spec(default: Any = dataclasses.MISSING, *, low: float | None = None, high: float | None = None,
         doc: str = "", needs: str = "", max_length: int | None = None) -> Any:
    """A dataclass field with an allowed range and a line of help for modders.

    ``needs`` marks a list the game cannot play with empty and says why, e.g. "at least one name
    (new derps are named from it)"; an empty list is then reported with that reason. ``max_length``
    limits a text (or each text of a list) to one line of at most that many characters."""
    meta = {"low": low, "high": high, "doc": doc, "needs": needs, "max_length": max_length}
    if default is dataclasses.MISSING:
        return dataclasses.field(metadata=meta)
    if isinstance(default, (list, dict, set)):
        raise TypeError("use a tuple or a frozen value as a default")
    return dataclasses.field(default=default, metadata=meta)


def origin_field() -> Any:
    """The node a table object was built from, so cross-checks can name its file and line."""
    return dataclasses.field(default=None, compare=False, repr=False, metadata={"origin": True})


class FromText:
    """Mixin for small values written as one string in YAML (e.g. a rating '5/10').

    Subclasses implement ``parse(text) -> instance`` raising ValueError with a reason.
    """

    @classmethod
    def parse(cls, text: str) -> Any:  # pragma: no cover - interface
        raise NotImplementedError


class KeyProblem(ValueError):
    """Raised by a table's ``__post_init__`` when values disagree: the key to report it at, and what that
    key's value must be (the message completes "<key> in <where> ...", e.g. "must be at least 3, not 2")."""

    def __init__(self, key: str, message: str):
        super().__init__(message)
        self.key = key


_MISSING = object()


# ---------------------------------------------------------------- naming what is wrong
class _Where(str):
    """A place in a file, e.g. ('kinds item 4 (habitat)', 'role'), shown as 'role in kinds item 4 (habitat)'.

    It is a str (the shown form) so that ``build``'s ``where`` stays a plain string for callers.
    """

    parts: tuple[str, ...]


def _where(parts: tuple[str, ...]) -> _Where:
    if not parts:
        shown = ""
    elif len(parts) == 1:
        shown = parts[0]
    else:
        shown = f"{parts[-1]} in {'.'.join(parts[:-1])}"
    w = _Where(shown)
    w.parts = parts
    return w


def _parts(where: str) -> tuple[str, ...]:
    if isinstance(where, _Where):
        return where.parts
    return (where,) if where else ()


def _child(where: str, key: str) -> _Where:
    return _where(_parts(where) + (key,))


def _item(where: str, index: int, node: Node) -> _Where:
    """The n-th item of a list, named by its id when it has one: 'kinds item 4 (habitat)'."""
    parts = _parts(where)
    label = f"item {index}"
    if isinstance(node, Map):
        item_id = node.get("id")
        if isinstance(item_id, Scalar) and item_id.value not in (None, ""):
            label += f" ({item_id.text or item_id.value})"
    if parts:
        return _where(parts[:-1] + (f"{parts[-1]} {label}",))
    return _where((label,))


def _subject(where: str) -> str:
    return str(where) or "this file"


def _type_name(tp: Any) -> str:
    if tp is int:
        return "a whole number"
    if tp is float:
        return "a number"
    if tp is Fraction:
        return "a number or a fraction (like 3 or 1/2)"
    if tp is str:
        return "text"
    if tp is bool:
        return "true or false"
    if dataclasses.is_dataclass(tp):
        return "a group of keys (indented 'key: value' lines)"
    if get_origin(tp) is tuple:
        return "a list"
    return getattr(tp, "__name__", str(tp))


def _describe(value: Any) -> str:
    if value is None:
        return "nothing"
    if isinstance(value, bool):
        return f"'{str(value).lower()}'"
    if isinstance(value, (int, float)):
        return f"the number {_shown(value)}"
    return f"'{clip(value)}'"


def _shown(number: Any) -> str:
    """A number as a message shows it: shortened, and never failing on one too long to print."""
    try:
        return clip(str(number))
    except ValueError:  # Python refuses to print whole numbers of thousands of digits
        return "a number thousands of digits long"


def _describe_node(node: Node) -> str:
    if isinstance(node, Seq):
        return "a list"
    if isinstance(node, Map):
        return "a group of keys"
    if isinstance(node, Scalar):
        if node.text and not isinstance(node.value, str) and node.value is not None:
            if isinstance(node.value, float) and not math.isfinite(node.value):
                return f"'{node.text}'"
            return _describe(node.value) if isinstance(node.value, (bool, int, float)) else f"'{clip(node.text)}'"
        return _describe(node.value)
    return "this"


def _is_empty(node: Node) -> bool:
    return isinstance(node, Scalar) and (node.value is None or (isinstance(node.value, str)
                                                                and not node.value.strip()))


def _empty_message(node: Scalar, where: str, needed: str) -> str:
    message = f"{_subject(where)} is empty; it needs {needed}"
    if node.comment and not node.comment.startswith("# "):
        message += f" (everything after '#' is a comment: write \"{node.comment}\" in quotes)"
    return message


def _choices(tp: Any) -> list[Any]:
    if get_origin(tp) is Literal:
        return list(get_args(tp))
    return [m.value for m in tp]


# ---------------------------------------------------------------- building
def build(tp: Any, node: Node | None, problems: Problems, where: str) -> Any:
    """Turn ``node`` into a value of type ``tp``; on a problem, record it and return MISSING.

    ``where`` names the value in messages ('' for a whole file); nested values are named by key,
    list items by their position and id, e.g. 'role in kinds item 4 (habitat)'.
    """
    if isinstance(node, Scalar) and not node.readable:
        return _MISSING  # already reported by the YAML reader
    origin = get_origin(tp)
    if origin in (Union, types.UnionType):
        args = [a for a in get_args(tp) if a is not type(None)]
        if node is None or _is_empty(node):
            return None
        for alternative in args[:-1]:
            trial = Problems()
            value = build(alternative, node, trial, where)
            if value is not _MISSING and not trial:
                return value
        return build(args[-1], node, problems, where)
    if node is None:
        return _MISSING
    if origin is Literal or (isinstance(tp, type) and issubclass(tp, enum.Enum)):
        choices = _choices(tp)
        if isinstance(node, Scalar) and node.value in choices:
            return tp(node.value) if isinstance(tp, type) else node.value
        shown = str(node.text or node.value) if isinstance(node, Scalar) else ""
        problems.add(node, f"{_subject(where)} must be one of {', '.join(map(str, choices))}, "
                     f"not {_describe_node(node)}" + (nearest(shown, map(str, choices)) if shown else ""))
        return _MISSING
    if origin is tuple:
        if not isinstance(node, Seq):
            problems.add(node, f"{_subject(where)} must be a list (written [a, b] or as '- ' lines), "
                         f"not {_describe_node(node)}")
            return _MISSING
        item_tp = get_args(tp)[0]
        out = [build(item_tp, child, problems, _item(where, i + 1, child)) for i, child in enumerate(node.items)]
        _check_unique_ids(item_tp, node, problems, where)
        if any(o is _MISSING for o in out):
            return _MISSING
        return tuple(out)
    if origin in (dict, typing.Mapping) or tp is dict:
        key_tp, value_tp = get_args(tp) or (str, Any)
        if not isinstance(node, Map):
            problems.add(node, f"{_subject(where)} must be a group of keys (indented 'key: value' lines), "
                         f"not {_describe_node(node)}")
            return _MISSING
        result = {}
        ok = True
        for key, key_line, child in node.entries:
            value = build(value_tp, child, problems, _child(where, key))
            ok = ok and value is not _MISSING
            result[key] = value
        return types.MappingProxyType(result) if ok else _MISSING
    if isinstance(tp, type) and issubclass(tp, FromText):
        if isinstance(node, Scalar) and isinstance(node.value, str) and node.value.strip():
            try:
                return tp.parse(node.value)
            except ValueError as exc:
                problems.add(node, f"{_subject(where)}: {exc}")
                return _MISSING
        if _is_empty(node):
            problems.add(node, _empty_message(node, where, f"a value written like {tp.example}"))
        else:
            problems.add(node, f"{_subject(where)} must be written like {tp.example}, not {_describe_node(node)}")
        return _MISSING
    if dataclasses.is_dataclass(tp):
        return _build_dataclass(tp, node, problems, where)
    if not isinstance(node, Scalar):
        problems.add(node, f"{_subject(where)} must be {_type_name(tp)}, not {_describe_node(node)}")
        return _MISSING
    value = node.value
    if tp is Any:
        return value
    if _is_empty(node):
        problems.add(node, _empty_message(node, where, _type_name(tp)))
        return _MISSING
    if tp is bool:
        if isinstance(value, bool):
            return value
    elif tp is int:
        if isinstance(value, int) and not isinstance(value, bool):
            return value
    elif tp in (float, Fraction) and isinstance(value, float) and not math.isfinite(value):
        problems.add(node, f"{_subject(where)} must be a finite number, not {_describe_node(node)} "
                     "(infinity and 'not a number' cannot be played with)")
        return _MISSING
    elif tp is float:
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            return float(value)
    elif tp is Fraction:
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            return Fraction(value).limit_denominator(1000)
        if isinstance(value, str):
            try:
                return Fraction(value.strip())
            except (ValueError, ZeroDivisionError):
                pass
    elif tp is str:
        if isinstance(value, str):
            text = value
        elif node.text:
            text = node.text  # written plainly but read as a number, yes/no or a date: keep it as written
        else:
            text = str(value)
        problem = _text_problem(text, TEXT_MAX, one_line=False)
        if problem:
            problems.add(node, f"{_subject(where)} {problem}")
            return _MISSING
        return text
    problems.add(node, f"{_subject(where)} must be {_type_name(tp)}, not {_describe_node(node)}")
    return _MISSING


def _text_problem(text: str, max_length: int, one_line: bool) -> str | None:
    """What makes a text unfit to show (too long, a character that cannot be drawn), or None."""
    for char in text:
        if char in "\n\t" and not one_line:
            continue
        category = unicodedata.category(char)
        if one_line and (char in "\n\r" or category in ("Zl", "Zp")):
            return "holds a line break; write it on one line"
        if category in ("Cc", "Cs", "Zl", "Zp"):
            return f"holds a character that cannot be shown (U+{ord(char):04X})"
    if len(text) > max_length:
        return f"is {len(text):,} characters long; at most {max_length} are allowed"
    return None


def _check_text(key: str, value: Any, child: Node, meta: Any, problems: Problems, where: str) -> bool:
    """Ids, names and texts with a ``max_length`` are one line and short; an id is letters, digits, _ or -."""
    if key == "id" and isinstance(value, str) and not ID_PATTERN.fullmatch(value):
        problems.add(child, f"{where} must be 1 to 32 letters, digits, '_' or '-' (no spaces), not '{clip(value)}'")
        return False
    limit = meta.get("max_length") or (NAME_MAX if key == "name" else None)
    if limit is None:
        return True
    texts = [(value, child)] if isinstance(value, str) else []
    if isinstance(value, tuple) and isinstance(child, Seq):
        texts = [(v, n) for v, n in zip(value, child.items) if isinstance(v, str)]
    ok = True
    for text, node in texts:
        problem = _text_problem(text, limit, one_line=True)
        if problem:
            problems.add(node, f"{where} {problem}" if node is child else
                         f"'{clip(text)}' in {where} {problem}")
            ok = False
    return ok


def _check_unique_ids(item_tp: Any, node: Seq, problems: Problems, where: str) -> None:
    """Items of a list of tables with an ``id`` must have different ids (checked on the YAML,
    so that a duplicate is reported even when another item has a problem)."""
    if not (dataclasses.is_dataclass(item_tp) and "id" in {f.name for f in dataclasses.fields(item_tp)}):
        return
    seen: dict[str, int] = {}
    for child in node.items:
        id_node = child.get("id") if isinstance(child, Map) else None
        if not isinstance(id_node, Scalar) or _is_empty(id_node) or not id_node.readable:
            continue
        item_id = str(id_node.text or id_node.value)
        if item_id in seen:
            problems.add(id_node, f"duplicate id '{item_id}' in {_subject(where)} (first used at line {seen[item_id]})")
        else:
            seen[item_id] = id_node.line


@functools.lru_cache(maxsize=None)
def _hints(cls: type) -> dict[str, Any]:
    """A table class's resolved type hints (resolving them is slow, and they never change)."""
    return get_type_hints(cls)


def _range_text(low: Any, high: Any) -> str:
    if low is not None and high is not None:
        return f"between {low} and {high}"
    return f"at least {low}" if low is not None else f"at most {high}"


def _build_dataclass(cls: Any, node: Node, problems: Problems, where: str) -> Any:
    if not isinstance(node, Map):
        if not where:
            problems.add(node, f"this file must hold 'key: value' lines, not {_describe_node(node)}")
        else:
            problems.add(node, f"{where} must be a group of keys (indented 'key: value' lines), "
                         f"not {_describe_node(node)}")
        return _MISSING
    hints = _hints(cls)
    fields = {f.name: f for f in dataclasses.fields(cls) if not f.metadata.get("origin")}
    values: dict[str, Any] = {}
    suggested: set[str] = set()
    ok = True
    for key, key_line, child in node.entries:
        if key not in fields:
            container = f" in {where}" if where else ""
            guess = closest(key, fields)
            if guess is not None and guess not in node.keys():
                suggested.add(guess)
            hint = nearest(key, fields) if guess is not None else f" (the keys here are: {', '.join(fields)})"
            problems.items.append(Problem(node.file, key_line, f"unknown key '{key}'{container}{hint}"))
            ok = False
            continue
        child_where = _child(where, key)
        value = build(hints[key], child, problems, child_where)
        if value is _MISSING:
            ok = False
            continue
        meta = fields[key].metadata
        if isinstance(value, (int, float, Fraction)) and not isinstance(value, bool):
            low, high = meta.get("low"), meta.get("high")
            if (low is not None and value < low) or (high is not None and value > high):
                doc = f" ({meta['doc']})" if meta.get("doc") else ""
                problems.add(child, f"{child_where} must be {_range_text(low, high)}, not {_shown(value)}{doc}")
                ok = False
                continue
        if isinstance(value, tuple) and not value and meta.get("needs"):
            problems.add(child, f"{child_where} is an empty list; it needs {meta['needs']}")
            ok = False
            continue
        if not _check_text(key, value, child, meta, problems, child_where):
            ok = False
            continue
        values[key] = value
    present = set(node.keys())
    for name, f in fields.items():
        if name in values or name in present or name in suggested:
            continue
        if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING:
            problems.add(node, f"missing key '{name}' in {where}" if where else f"missing key '{name}'")
            ok = False
    if not ok:
        return _MISSING
    for f in dataclasses.fields(cls):
        if f.metadata.get("origin"):
            values[f.name] = node
    try:
        return cls(**values)
    except ValueError as exc:
        at = node.get(exc.key) if isinstance(exc, KeyProblem) else None
        if at is not None:
            problems.add(at, f"{_child(where, exc.key)} {exc}")
        else:
            problems.add(node, f"{where}: {exc}" if where else str(exc))
        return _MISSING


MISSING = _MISSING
