"""Build typed, frozen table objects from located YAML nodes.

One generic builder serves every table: the dataclass's type hints say what each key
holds, ``field(metadata=...)`` adds ranges and help, and every problem (unknown key with
its nearest valid name, wrong type, out-of-range value, missing key, duplicate id) is
collected rather than raised, so that a modder sees all of them at once.
"""
from __future__ import annotations

import dataclasses
import enum
import types
import typing
from fractions import Fraction
from typing import Any, Literal, Union, get_args, get_origin, get_type_hints

from .yamlnodes import Map, Node, Problem, Problems, Scalar, Seq, nearest


def spec(default: Any = dataclasses.MISSING, *, low: float | None = None, high: float | None = None,
         doc: str = "") -> Any:
    """A dataclass field with an allowed range and a line of help for modders."""
    meta = {"low": low, "high": high, "doc": doc}
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


_MISSING = object()


def _type_name(tp: Any) -> str:
    if tp is int:
        return "a whole number"
    if tp is float or tp is Fraction:
        return "a number"
    if tp is str:
        return "text"
    if tp is bool:
        return "true or false"
    if dataclasses.is_dataclass(tp):
        return "a mapping of keys"
    return getattr(tp, "__name__", str(tp))


def _describe(value: Any) -> str:
    if value is None:
        return "nothing"
    if isinstance(value, bool):
        return f"'{str(value).lower()}'"
    if isinstance(value, (int, float)):
        return f"the number {value}"
    return f"'{value}'"


def build(tp: Any, node: Node | None, problems: Problems, where: str) -> Any:
    """Turn ``node`` into a value of type ``tp``; on a problem, record it and return _MISSING."""
    origin = get_origin(tp)
    if origin in (Union, types.UnionType):
        args = [a for a in get_args(tp) if a is not type(None)]
        if node is None or (isinstance(node, Scalar) and node.value is None):
            return None
        return build(args[0], node, problems, where)
    if node is None:
        return _MISSING
    if origin is Literal:
        choices = get_args(tp)
        if isinstance(node, Scalar) and node.value in choices:
            return node.value
        shown = node.value if isinstance(node, Scalar) else "a list or mapping"
        problems.add(node, f"{where}: {_describe(shown)} is not one of {', '.join(map(str, choices))}"
                     + nearest(str(shown), map(str, choices)))
        return _MISSING
    if origin is tuple:
        args = get_args(tp)
        if not isinstance(node, Seq):
            problems.add(node, f"{where} must be a list")
            return _MISSING
        item_tp = args[0]
        out = [build(item_tp, child, problems, f"{where} item {i + 1}") for i, child in enumerate(node.items)]
        if any(o is _MISSING for o in out):
            return _MISSING
        _check_unique_ids(out, node, problems, where)
        return tuple(out)
    if origin in (dict, typing.Mapping) or tp is dict:
        key_tp, value_tp = get_args(tp) or (str, Any)
        if not isinstance(node, Map):
            problems.add(node, f"{where} must be a mapping")
            return _MISSING
        result = {}
        ok = True
        for key, key_line, child in node.entries:
            value = build(value_tp, child, problems, f"{where}.{key}")
            ok = ok and value is not _MISSING
            result[key] = value
        return types.MappingProxyType(result) if ok else _MISSING
    if isinstance(tp, type) and issubclass(tp, FromText):
        if isinstance(node, Scalar) and isinstance(node.value, str):
            try:
                return tp.parse(node.value)
            except ValueError as exc:
                problems.add(node, f"{where}: {exc}")
                return _MISSING
        problems.add(node, f"{where} must be written like {tp.example}, not "
                     f"{_describe(node.value if isinstance(node, Scalar) else 'a list or mapping')}")
        return _MISSING
    if dataclasses.is_dataclass(tp):
        return _build_dataclass(tp, node, problems, where)
    if isinstance(tp, type) and issubclass(tp, enum.Enum):
        values = [m.value for m in tp]
        if isinstance(node, Scalar) and node.value in values:
            return tp(node.value)
        shown = node.value if isinstance(node, Scalar) else "a list or mapping"
        problems.add(node, f"{where}: {_describe(shown)} is not one of {', '.join(values)}"
                     + nearest(str(shown), values))
        return _MISSING
    if not isinstance(node, Scalar):
        problems.add(node, f"{where} must be {_type_name(tp)}, not a list or mapping")
        return _MISSING
    value = node.value
    if tp is bool:
        if isinstance(value, bool):
            return value
    elif tp is int:
        if isinstance(value, int) and not isinstance(value, bool):
            return value
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
        if isinstance(value, str) and value.strip():
            return value
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            return str(value)
        if isinstance(value, str):
            problems.add(node, f"{where} must not be empty")
            return _MISSING
    elif tp is Any:
        return value
    problems.add(node, f"{where} must be {_type_name(tp)}, not {_describe(value)}")
    return _MISSING


def _check_unique_ids(items: list[Any], node: Seq, problems: Problems, where: str) -> None:
    seen: dict[str, int] = {}
    for item, child in zip(items, node.items):
        item_id = getattr(item, "id", None)
        if not isinstance(item_id, str):
            continue
        if item_id in seen:
            problems.add(child, f"{where}: duplicate id '{item_id}' (first used at line {seen[item_id]})")
        else:
            seen[item_id] = child.line


def _build_dataclass(cls: Any, node: Node, problems: Problems, where: str) -> Any:
    if not isinstance(node, Map):
        problems.add(node, f"{where} must be a mapping of keys")
        return _MISSING
    hints = get_type_hints(cls)
    fields = {f.name: f for f in dataclasses.fields(cls) if not f.metadata.get("origin")}
    values: dict[str, Any] = {}
    ok = True
    for key, key_line, child in node.entries:
        if key not in fields:
            container = f" in {where}" if where else ""
            problems.items.append(Problem(node.file, key_line,
                                          f"unknown key '{key}'{container}" + nearest(key, fields)))
            ok = False
            continue
        value = build(hints[key], child, problems, f"{where}.{key}" if where else key)
        if value is _MISSING:
            ok = False
            continue
        meta = fields[key].metadata
        if isinstance(value, (int, float, Fraction)) and not isinstance(value, bool):
            low, high = meta.get("low"), meta.get("high")
            if (low is not None and value < low) or (high is not None and value > high):
                rng = (f"from {low} to {high}" if low is not None and high is not None
                       else f"at least {low}" if low is not None else f"at most {high}")
                problems.add(child, f"{where}.{key} must be {rng}, not {value}")
                ok = False
                continue
        values[key] = value
    present = set(node.keys())
    for name, f in fields.items():
        if name in values or name in present:
            continue
        if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING:
            problems.add(node, f"{where}: missing key '{name}'" if where else f"missing key '{name}'")
            ok = False
    if not ok:
        return _MISSING
    for f in dataclasses.fields(cls):
        if f.metadata.get("origin"):
            values[f.name] = node
    try:
        return cls(**values)
    except ValueError as exc:
        problems.add(node, f"{where}: {exc}" if where else str(exc))
        return _MISSING


MISSING = _MISSING
