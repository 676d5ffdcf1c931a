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
from typing import Any, Callable, Optional

from game.core.plaindata import MAX_TEXT, BadData, expect, expect_text, expect_whole, shown, to_plain
from game.core.words import noun_for

#: The largest number (either sign) any action field may hold unless a limit says otherwise.
MAX_WHOLE = 10 ** 9
#: The longest list any action field may hold.
MAX_ITEMS = 200


class Action:
    """Base class of all actions. ``to_data`` names the class in ``"action"``."""

    def to_data(self) -> dict[str, Any]:
        cls = type(self)
        names = _FIELD_NAMES.get(cls)
        if names is None:
            names = _FIELD_NAMES[cls] = tuple(f.name for f in dataclasses.fields(self))  # type: ignore[arg-type]
        data: dict[str, Any] = {"action": cls.__name__}
        for name in names:
            value = getattr(self, name)
            data[name] = value if type(value) in _PLAIN_ALREADY else to_plain(value)
        return data


_FIELD_NAMES: dict[type, tuple[str, ...]] = {}
_PLAIN_ALREADY = (int, str, bool, type(None))


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
        self._readers: dict[type, Callable[[Any, str], Any]] = {}
        self._named_readers: dict[type, Callable[[Any, str], Any]] = {}

    def register(self, cls: type) -> type:
        """Make an action class known to saves (usable as a decorator)."""
        self.types[cls.__name__] = cls
        self._readers.clear()
        self._named_readers.clear()
        return cls

    def limit(self, cls: type, field: str, *, low: Optional[int] = None, high: Optional[int] = None,
              max_length: Optional[int] = None) -> None:
        """Narrow what ``cls.field`` accepts (``cls`` may be a value nested in an action, e.g. a design)."""
        if field not in {f.name for f in dataclasses.fields(cls)}:
            raise ValueError(f"{cls.__name__} has no field '{field}'")
        self.limits[(cls, field)] = FieldLimit(low, high, max_length)
        self._readers.clear()
        self._named_readers.clear()

    def from_data(self, data: Any) -> Action:
        """Rebuild an action from its plain form; BadActionData says what is wrong and where."""
        if not isinstance(data, dict) or "action" not in data:
            raise BadActionData("an action must be a mapping with an 'action' name")
        name = data["action"]
        cls = self.types.get(name) if isinstance(name, str) else None
        if cls is None:
            raise BadActionData(f"unknown action {shown(name)}")
        try:
            return (self._named_readers.get(cls) or self._named_reader(cls))(data, name)
        except BadActionData:
            raise
        except BadData as exc:
            raise BadActionData(str(exc)) from None

    def _from_plain(self, cls: type, data: Any, where: str) -> Any:
        return self._reader(cls)(data, where)

    def _reader(self, cls: type) -> Callable[[Any, str], Any]:
        """The reader of ``cls``'s plain form, built once per class (type hints resolved once, not per
        action); ``register`` and ``limit`` forget the built readers, so a later limit still holds."""
        reader = self._readers.get(cls)
        if reader is None:
            reader = self._build_reader(cls)
            self._readers[cls] = reader
        return reader

    def _named_reader(self, cls: type) -> Callable[[Any, str], Any]:
        """The reader of an action's whole plain form, its ``"action"`` key (the class's name) left aside
        without copying the mapping (built once per class, forgotten with the other readers)."""
        reader = self._named_readers.get(cls)
        if reader is None:
            reader = self._named_readers[cls] = self._build_reader(cls, named=True)
        return reader

    def _build_reader(self, cls: type, named: bool = False) -> Callable[[Any, str], Any]:
        """``read(data, where)``: the ``cls`` whose plain form is the mapping ``data`` found at ``where``.
        ``named``: ``data`` also holds the action's name under ``"action"``, which is not a field."""
        if named and "action" in {f.name for f in dataclasses.fields(cls)}:
            plain = self._reader(cls)  # a field called "action": read it from a copy without the name

            def read_copy(data: Any, where: str) -> Any:
                fields = dict(data)
                del fields["action"]
                return plain(fields, where)
            return read_copy
        hints = typing.get_type_hints(cls)
        fields = dataclasses.fields(cls)
        names = frozenset(f.name for f in fields)
        allowed = names | {"action"} if named else names
        plan = []
        for f in fields:
            required = f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING
            limit = self.limits.get((cls, f.name), FieldLimit())
            # a whole number's span, checked inline (most fields): its converter is called only for the rest
            span = (-MAX_WHOLE if limit.low is None else limit.low, MAX_WHOLE if limit.high is None else limit.high) \
                if hints[f.name] is int else (1, 0)
            plan.append((f.name, required, self._converter(hints[f.name], limit), *span))

        def read(data: Any, where: str) -> Any:
            if not isinstance(data, dict):
                raise BadActionData(f"{where} must be a mapping")
            if not allowed.issuperset(data):
                unknown = set(data) - allowed
                listed = ', '.join(sorted(map(shown, unknown)))
                raise BadActionData(f"{where}: unknown {noun_for(len(unknown), 'field')} {listed}")
            values = {}
            for name, required, convert, low, high in plan:
                if name in data:
                    value = data[name]
                    values[name] = value if type(value) is int and low <= value <= high else \
                        convert(value, where, name)
                elif required:
                    raise BadActionData(f"{where}: missing field '{name}'")
            try:
                return cls(**values)
            except (TypeError, ValueError) as exc:  # a value the class's own checks refuse
                raise BadActionData(f"{where}: {exc}") from None
        return read

    def _converter(self, tp: Any, limit: FieldLimit) -> Callable[[Any, str, str], Any]:
        """A function checking and converting one field's plain value of type ``tp``: called with the
        value, where the mapping holding it is and the field's name (the place ``where.name`` an error
        names is only put together when there is an error: a save holds thousands of fields)."""
        origin = typing.get_origin(tp)
        if origin is typing.Union:
            args = [a for a in typing.get_args(tp) if a is not type(None)]
            inner = self._converter(args[0], limit)
            return lambda value, where, name: None if value is None else inner(value, where, name)
        if origin is tuple:
            item_type = typing.get_args(tp)[0]
            item = self._converter(item_type, limit)
            longest = limit.max_length or MAX_TEXT

            def read_tuple(value: Any, where: str, name: str) -> Any:
                if not isinstance(value, list):
                    raise BadActionData(f"{where}.{name} must be a list")
                if len(value) > MAX_ITEMS:
                    raise BadActionData(f"{where}.{name} holds {len(value)} entries; at most {MAX_ITEMS} are allowed")
                if item_type is str and _plain_short_texts(value, longest):
                    return tuple(value)  # every entry passes read_str at once (most lists of ids)
                return tuple([item(v, where, name) for v in value])
            return read_tuple
        if dataclasses.is_dataclass(tp):
            readers = self._readers

            def read_nested(value: Any, where: str, name: str) -> Any:
                return (readers.get(tp) or self._reader(tp))(value, f"{where}.{name}")
            return read_nested
        if tp is bool:
            def read_bool(value: Any, where: str, name: str) -> Any:
                if value is True or value is False:
                    return value
                raise BadActionData(f"{where}.{name} has the wrong type ({type(value).__name__})")
            return read_bool
        if tp is int:
            low = limit.low if limit.low is not None else -MAX_WHOLE
            high = limit.high if limit.high is not None else MAX_WHOLE

            def read_int(value: Any, where: str, name: str) -> Any:
                if type(value) is int and low <= value <= high:
                    return value
                if isinstance(value, int) and not isinstance(value, bool):
                    return expect_whole(value, f"{where}.{name}", low, high)
                raise BadActionData(f"{where}.{name} has the wrong type ({type(value).__name__})")
            return read_int
        if tp is str:
            longest = limit.max_length or MAX_TEXT

            def read_str(value: Any, where: str, name: str) -> Any:
                if isinstance(value, str):
                    if len(value) <= longest and value.isascii() and value.isprintable():
                        return value  # plain printable ASCII holds no character expect_text refuses
                    return expect_text(value, f"{where}.{name}", longest)
                raise BadActionData(f"{where}.{name} has the wrong type ({type(value).__name__})")
            return read_str
        return lambda value, where, name: expect(value, tp, f"{where}.{name}", tp.__name__)


def _plain_short_texts(values: list, longest: int) -> bool:
    """True when every entry is a text of printable ASCII of at most ``longest`` characters (checked at C speed:
    such texts hold nothing ``expect_text`` refuses); False sends the entries one by one to their checks."""
    if not values:
        return True
    try:
        joined = "".join(values)
    except TypeError:  # an entry that is no text
        return False
    return joined.isascii() and joined.isprintable() and max(map(len, values)) <= longest
