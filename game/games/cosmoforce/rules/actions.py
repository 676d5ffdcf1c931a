"""Cosmoforce's actions: small frozen values with a readable text form and a plain form for saves.

A ship's turn actions act for the ship whose turn it is; the answers (``AssignDamage``, ``TrimSpeed``,
``RepairSystem``) act for the ship the pending step names. Ships are named by their index in
``GameState.ships``, systems by their slot on the roster. ``Roll`` (from ``game.core.actions``) is the
chance action: its value is the number of effective dice.
"""
from __future__ import annotations

from dataclasses import dataclass

from game.core.actions import Action, ActionTypes, BadActionData, Roll  # noqa: F401  (re-exported)
from game.core.words import counted
from game.games.cosmoforce.rules.state import MAX_SHIPS_PER_PLAYER, MAX_PLAYERS

_MAX_SHIPS = MAX_PLAYERS * MAX_SHIPS_PER_PLAYER
_MAX_SLOTS = 20


# ---------------------------------------------------------------- a ship's turn
@dataclass(frozen=True)
class BurnEngines(Action):
    """Burn ``faster + slower`` engines: each adds heat and +1 or -1 speed; ``afterburner`` rolls for more."""

    faster: int
    slower: int
    afterburner: bool = False

    def __str__(self) -> str:
        net = self.faster - self.slower
        extra = ", rolling the afterburner" if self.afterburner else ""
        return f"burn {counted(self.faster + self.slower, 'engine')} for {net:+d} speed{extra}"


@dataclass(frozen=True)
class ConserveEnergy(Action):
    def __str__(self) -> str:
        return "conserve energy"


@dataclass(frozen=True)
class DroneStrafe(Action):
    target: int

    def __str__(self) -> str:
        return f"launch drones at ship {self.target}"


@dataclass(frozen=True)
class FireWeapons(Action):
    weapon: str
    count: int
    target: int

    def __str__(self) -> str:
        return f"fire {counted(self.count, self.weapon)} at ship {self.target}"


@dataclass(frozen=True)
class HealCrew(Action):
    def __str__(self) -> str:
        return "heal crew"


@dataclass(frozen=True)
class PrecisionFire(Action):
    lasers: int
    target: int
    system: int

    def __str__(self) -> str:
        return f"precision fire {counted(self.lasers, 'laser')} at slot {self.system + 1} of ship {self.target}"


@dataclass(frozen=True)
class RepairSystems(Action):
    def __str__(self) -> str:
        return "repair systems"


@dataclass(frozen=True)
class OfferCeasefire(Action):
    """A free action: this player will stop fighting if everyone else offers too by the end of the round."""

    def __str__(self) -> str:
        return "offer a ceasefire"


# ---------------------------------------------------------------- answers to a pending step
@dataclass(frozen=True)
class AssignDamage(Action):
    system: int

    def __str__(self) -> str:
        return f"take the hit on slot {self.system + 1}"


@dataclass(frozen=True)
class TrimSpeed(Action):
    faster: int
    slower: int

    def __str__(self) -> str:
        return f"afterburner {self.faster - self.slower:+d} speed"


@dataclass(frozen=True)
class RepairSystem(Action):
    system: int

    def __str__(self) -> str:
        return f"repair slot {self.system + 1}"


ACTIONS = ActionTypes("cosmoforce")
for _cls in (BurnEngines, ConserveEnergy, DroneStrafe, FireWeapons, HealCrew, PrecisionFire, RepairSystems,
             OfferCeasefire, AssignDamage, TrimSpeed, RepairSystem, Roll):
    ACTIONS.register(_cls)
for _cls, _field in ((DroneStrafe, "target"), (FireWeapons, "target"), (PrecisionFire, "target")):
    ACTIONS.limit(_cls, _field, low=0, high=_MAX_SHIPS - 1)
for _cls, _field in ((PrecisionFire, "system"), (AssignDamage, "system"), (RepairSystem, "system")):
    ACTIONS.limit(_cls, _field, low=0, high=_MAX_SLOTS - 1)
for _cls, _fields in ((BurnEngines, ("faster", "slower")), (TrimSpeed, ("faster", "slower")),
                      (FireWeapons, ("count",)), (PrecisionFire, ("lasers",))):
    for _field in _fields:
        ACTIONS.limit(_cls, _field, low=0, high=_MAX_SLOTS)
ACTIONS.limit(FireWeapons, "weapon", max_length=32)
ACTIONS.limit(Roll, "value", low=0, high=10_000)

#: Rebuild an action from its plain form, every field checked (BadActionData says what is wrong).
action_from_data = ACTIONS.from_data

#: The actions that take one of a ship's actions for the turn.
TURN_ACTIONS = (BurnEngines, ConserveEnergy, DroneStrafe, FireWeapons, HealCrew, PrecisionFire, RepairSystems)
