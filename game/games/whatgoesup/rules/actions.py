"""What Goes Up's actions: small frozen values with a readable text form and a plain-data form for saves.

Every action a player, a bot, a test or the UI can take is one of these. ``Action``, the chance action
``Roll`` and the registry machinery live in ``game.core.actions`` (every game shares them) and are
re-exported here; ``ACTIONS`` is What Goes Up's registry, with the limits the client's fields keep.
"""
from __future__ import annotations

from dataclasses import dataclass

from game.core.actions import Action, ActionTypes, BadActionData, Roll  # noqa: F401  (re-exported)
from game.games.whatgoesup.rules.limits import (DERP_NAME_MAX, DESIGN_FUEL_MAX, DESIGN_RATIONS_MAX, PART_NAME_MAX,
                                                PLANNED_BURNS_MAX, UPGOER_NAME_MAX)
from game.games.whatgoesup.rules.state import TradeBundle, UpgoerDesign
from game.core.words import counted


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
        return f"buy {counted(self.containers, f'{self.kind} container')}"


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


ACTIONS = ActionTypes("whatgoesup")
#: Make an action class known to saves (the flight actions register themselves too).
register = ACTIONS.register
#: Rebuild an action from its plain form, every field checked (BadActionData says what is wrong).
action_from_data = ACTIONS.from_data
ACTION_TYPES = ACTIONS.types

for _cls in (Invent, Research, Build, BuyConsumables, Hire, Train, Heal, OfferTrade, AnswerTrade,
             ReverseEngineer, Assemble, Disassemble, EndRnD, Roll):
    register(_cls)

ACTIONS.limit(Invent, "name", max_length=PART_NAME_MAX)
ACTIONS.limit(Hire, "name", max_length=DERP_NAME_MAX)
ACTIONS.limit(UpgoerDesign, "name", max_length=UPGOER_NAME_MAX)
ACTIONS.limit(UpgoerDesign, "planned_burns", low=0, high=PLANNED_BURNS_MAX)
ACTIONS.limit(UpgoerDesign, "fuel", low=0, high=DESIGN_FUEL_MAX)
ACTIONS.limit(UpgoerDesign, "rations", low=0, high=DESIGN_RATIONS_MAX)
