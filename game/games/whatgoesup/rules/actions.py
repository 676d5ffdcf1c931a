"""Actions: small frozen values with a readable text form and a plain-data form for saves.

Every action a player, a bot, a test or the UI can take is one of these. ``Roll`` is the
chance action: the app samples it from ``chance_outcomes`` and applies it like any other.
"""
from __future__ import annotations

import dataclasses
import typing
from dataclasses import dataclass
from typing import Any

from game.games.whatgoesup.rules.state import TradeBundle, UpgoerDesign


class Action:
    """Base class of all actions. ``kind`` names the action in saves."""

    def to_data(self) -> dict[str, Any]:
        data: dict[str, Any] = {"action": type(self).__name__}
        for f in dataclasses.fields(self):  # type: ignore[arg-type]
            data[f.name] = _plain(getattr(self, f.name))
        return data


def _plain(value: Any) -> Any:
    if dataclasses.is_dataclass(value):
        return {f.name: _plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, (tuple, list)):
        return [_plain(v) for v in value]
    return value


# ------------------------------------------------------------------ R&D
@dataclass(frozen=True)
class Invent(Action):
    kind: str
    mass: int
    name: str = ""
    reusable: bool = False

    def __str__(self) -> str:
        extra = ", reusable" if self.reusable else ""
        name = f" '{self.name}'" if self.name else ""
        return f"invent a {self.kind}{name} of mass {self.mass}{extra}"


@dataclass(frozen=True)
class Research(Action):
    thing: str
    safety: str  # "fail" (Fail to OK) or "boom" (Boom to Fail)
    steps: int = 1

    def __str__(self) -> str:
        what = {"fail": "Fail to OK", "boom": "Boom to Fail"}.get(self.safety, f"'{self.safety}'")
        return f"research {self.thing} {what} x{self.steps}"


@dataclass(frozen=True)
class Build(Action):
    thing: str
    count: int = 1

    def __str__(self) -> str:
        return f"build {self.count} x {self.thing}"


@dataclass(frozen=True)
class BuyConsumables(Action):
    kind: str  # "fuel" or "rations"
    containers: int = 1

    def __str__(self) -> str:
        return f"buy {self.containers} {self.kind} container(s)"


@dataclass(frozen=True)
class Hire(Action):
    name: str = ""

    def __str__(self) -> str:
        return f"hire a derp{(' ' + repr(self.name)) if self.name else ''}"


@dataclass(frozen=True)
class Train(Action):
    derp: str
    skill: str
    points: int = 1

    def __str__(self) -> str:
        return f"train {self.derp} in {self.skill} +{self.points}"


@dataclass(frozen=True)
class Heal(Action):
    derp: str

    def __str__(self) -> str:
        return f"heal {self.derp}"


@dataclass(frozen=True)
class OfferTrade(Action):
    partner: int
    give: TradeBundle = TradeBundle()
    take: TradeBundle = TradeBundle()

    def __str__(self) -> str:
        return f"offer a trade to program {self.partner + 1}"


@dataclass(frozen=True)
class AnswerTrade(Action):
    accept: bool

    def __str__(self) -> str:
        return "accept the trade" if self.accept else "decline the trade"


@dataclass(frozen=True)
class ReverseEngineer(Action):
    item: str

    def __str__(self) -> str:
        return f"reverse-engineer {self.item}"


@dataclass(frozen=True)
class Assemble(Action):
    design: UpgoerDesign

    def __str__(self) -> str:
        return f"assemble Upgoer '{self.design.name}'"


@dataclass(frozen=True)
class Disassemble(Action):
    upgoer: str

    def __str__(self) -> str:
        return f"take apart {self.upgoer}"


@dataclass(frozen=True)
class EndRnD(Action):
    def __str__(self) -> str:
        return "finish R&D for this turn"


# ------------------------------------------------------------------ chance
@dataclass(frozen=True)
class Roll(Action):
    """The result of the pending roll (the combined value, e.g. a cluster's average)."""

    value: int

    def __str__(self) -> str:
        return f"roll {self.value}"


ACTION_TYPES: dict[str, type] = {}


def register(cls: type) -> type:
    """Make an action type known to saves (flight actions register themselves too)."""
    ACTION_TYPES[cls.__name__] = cls
    return cls


for _cls in (Invent, Research, Build, BuyConsumables, Hire, Train, Heal, OfferTrade, AnswerTrade,
             ReverseEngineer, Assemble, Disassemble, EndRnD, Roll):
    register(_cls)


class BadActionData(ValueError):
    """A save's action entry is not a well-formed action."""


def action_from_data(data: Any) -> Action:
    """Rebuild an action from its plain-data form, checking every field's type."""
    if not isinstance(data, dict) or "action" not in data:
        raise BadActionData("an action must be a mapping with an 'action' name")
    name = data["action"]
    cls = ACTION_TYPES.get(name)
    if cls is None:
        raise BadActionData(f"unknown action '{name}'")
    return _from_plain(cls, {k: v for k, v in data.items() if k != "action"}, name)


def _from_plain(cls: type, data: dict, where: str) -> Any:
    if not isinstance(data, dict):
        raise BadActionData(f"{where} must be a mapping")
    hints = typing.get_type_hints(cls)
    names = {f.name for f in dataclasses.fields(cls)}
    unknown = set(data) - names
    if unknown:
        raise BadActionData(f"{where}: unknown field(s) {', '.join(sorted(unknown))}")
    values = {}
    for f in dataclasses.fields(cls):
        if f.name not in data:
            if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING:
                raise BadActionData(f"{where}: missing field '{f.name}'")
            continue
        values[f.name] = _convert(hints[f.name], data[f.name], f"{where}.{f.name}")
    return cls(**values)


def _convert(tp: Any, value: Any, where: str) -> Any:
    origin = typing.get_origin(tp)
    if origin is typing.Union:
        args = [a for a in typing.get_args(tp) if a is not type(None)]
        return None if value is None else _convert(args[0], value, where)
    if origin is tuple:
        if not isinstance(value, list):
            raise BadActionData(f"{where} must be a list")
        return tuple(_convert(typing.get_args(tp)[0], v, where) for v in value)
    if dataclasses.is_dataclass(tp):
        return _from_plain(tp, value, where)
    if tp is bool:
        if isinstance(value, bool):
            return value
    elif tp is int:
        if isinstance(value, int) and not isinstance(value, bool):
            return value
    elif tp is str:
        if isinstance(value, str):
            return value
    else:
        return value
    raise BadActionData(f"{where} has the wrong type ({type(value).__name__})")

