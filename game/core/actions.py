"""Actions every game shares: the ``Action`` base, the chance action ``Roll``, and the registry that
turns a save's plain data back into actions with every field checked.

An action is a small frozen dataclass with a readable ``__str__``; ``to_data`` gives its plain form
(``{"action": "Build", "thing": "T3", "count": 2}``). Each game keeps its own ``ActionTypes`` registry
(two games may both have a ``Build``), registers its action classes in it, and may narrow a field's
allowed values with ``limit`` (the UI's 32-character name field, say). Reading refuses anything a
player could not have produced: wrong types, unknown fields, numbers beyond ``MAX_WHOLE``, lists longer
than ``MAX_ITEMS``, texts longer than their limit or holding characters that cannot be drawn.
"""
from __future__ import annotations

import dataclasses
import typing
from dataclasses import dataclass
from typing import Any, Optional

from game.core.plaindata import MAX_TEXT, BadData, expect, expect_text, expect_whole, shown, to_plain

#: The largest number (either sign) any action field may hold unless a limit says otherwise.
MAX_WHOLE = 10 ** 9
#: The longest list any action field may hold.
MAX_ITEMS = 200


class Action:
    """Base class of all actions. ``to_data`` names the class in ``"action"``."""

    def to_data(self) -> dict[str, Any]:
        data: dict[str, Any] = {"action": type(self).__name__}
        for f in dataclasses.fields(self):  # type: ignore[arg-type]
            data[f.name] = to_plain(getattr(self, f.name))
        return data


@dataclass(frozen=True)
class Roll(Action):
    """The result of the pending roll: the app samples it from ``chance_outcomes`` and applies it."""

    value: int

    def __str__(self) -> str:
        return f"roll {self.value}"


class BadActionData(BadData):
    """A save's action entry is not a well-formed action."""


@dataclass(frozen=True)
class FieldLimit:
    """What one field accepts beyond its type: a number's range, a text's length."""

    low: Optional[int] = None
    high: Optional[int] = None
    max_length: Optional[int] = None


class ActionTypes:
    """One game's action classes by name, with the limits their fields' values must keep."""

    def __init__(self, game: str):
        self.game = game
        self.types: dict[str, type] = {}
        self.limits: dict[tuple[type, str], FieldLimit] = {}

    def register(self, cls: type) -> type:
        """Make an action class known to saves (usable as a decorator)."""
        self.types[cls.__name__] = cls
        return cls

    def limit(self, cls: type, field: str, *, low: Optional[int] = None, high: Optional[int] = None,
              max_length: Optional[int] = None) -> None:
        """Narrow what ``cls.field`` accepts (``cls`` may be a value nested in an action, e.g. a design)."""
        if field not in {f.name for f in dataclasses.fields(cls)}:
            raise ValueError(f"{cls.__name__} has no field '{field}'")
        self.limits[(cls, field)] = FieldLimit(low, high, max_length)

    def from_data(self, data: Any) -> Action:
        """Rebuild an action from its plain form; BadActionData says what is wrong and where."""
        if not isinstance(data, dict) or "action" not in data:
            raise BadActionData("an action must be a mapping with an 'action' name")
        name = data["action"]
        cls = self.types.get(name) if isinstance(name, str) else None
        if cls is None:
            raise BadActionData(f"unknown action {shown(name)}")
        try:
            return self._from_plain(cls, {k: v for k, v in data.items() if k != "action"}, name)
        except BadActionData:
            raise
        except BadData as exc:
            raise BadActionData(str(exc)) from None

    def _from_plain(self, cls: type, data: Any, where: str) -> Any:
        if not isinstance(data, dict):
            raise BadActionData(f"{where} must be a mapping")
        hints = typing.get_type_hints(cls)
        fields = dataclasses.fields(cls)
        unknown = set(data) - {f.name for f in fields}
        if unknown:
            raise BadActionData(f"{where}: unknown field(s) {', '.join(sorted(map(shown, unknown)))}")
        values = {}
        for f in fields:
            if f.name not in data:
                if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING:
                    raise BadActionData(f"{where}: missing field '{f.name}'")
                continue
            limit = self.limits.get((cls, f.name), FieldLimit())
            values[f.name] = self._convert(hints[f.name], data[f.name], f"{where}.{f.name}", limit)
        try:
            return cls(**values)
        except (TypeError, ValueError) as exc:  # a value the class's own checks refuse
            raise BadActionData(f"{where}: {exc}") from None

    def _convert(self, tp: Any, value: Any, where: str, limit: FieldLimit) -> Any:
        origin = typing.get_origin(tp)
        if origin is typing.Union:
            args = [a for a in typing.get_args(tp) if a is not type(None)]
            return None if value is None else self._convert(args[0], value, where, limit)
        if origin is tuple:
            if not isinstance(value, list):
                raise BadActionData(f"{where} must be a list")
            if len(value) > MAX_ITEMS:
                raise BadActionData(f"{where} holds {len(value)} entries; at most {MAX_ITEMS} are allowed")
            return tuple(self._convert(typing.get_args(tp)[0], v, where, limit) for v in value)
        if dataclasses.is_dataclass(tp):
            return self._from_plain(tp, value, where)
        if tp is bool:
            if isinstance(value, bool):
                return value
        elif tp is int:
            if isinstance(value, int) and not isinstance(value, bool):
                low = limit.low if limit.low is not None else -MAX_WHOLE
                high = limit.high if limit.high is not None else MAX_WHOLE
                return expect_whole(value, where, low, high)
        elif tp is str:
            if isinstance(value, str):
                return expect_text(value, where, limit.max_length or MAX_TEXT)
        else:
            return expect(value, tp, where, tp.__name__)
        raise BadActionData(f"{where} has the wrong type ({type(value).__name__})")
