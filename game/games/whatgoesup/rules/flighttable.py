"""The flight table (``rules/flight.yaml``): crew limits and the failure-consequence table.

Effects are a closed set implemented by the flight rules; YAML only picks and parameterises them.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, Union

from game.core.schema import MISSING, build, origin_field, spec
from game.core.yamlnodes import Map, Node, Problems

EffectType = Literal[
    "cancel", "retry_allowed", "stages_spent", "to_fallback", "destroy_upgoer", "disable_part", "destroy_part",
    "damage_capsule", "degrade_all_parts", "choose", "lose_payload", "lose_rations", "strand", "injure_crew",
    "kill_crew", "injure_user", "no_reuse", "rcs_uses", "unusable_this_turn", "no_stamina_recovery",
    "stamina_loss", "crash", "stay", "bail_out",
]
ChoiceOption = Literal["lose_payload", "lose_rations", "degrade_all_parts"]
RollKind = Literal[
    "launch", "orbital_insertion", "escape_tower", "burn", "rcs_burn", "docking", "duration_capsule",
    "duration_habitat", "payload", "eva", "winch", "reentry", "landing", "stage_recovery", "lunar_landing",
    "rock_docking_burn", "rock_docking_rcs", "power_up",
]
# Rolls of optional rules: a table may leave them out (nothing more happens than the roll's own outcome).
OPTIONAL_ROLLS = ("power_up",)

# Which parameters each effect takes (anything else is a mistake worth reporting).
EFFECT_PARAMS: dict[str, tuple[str, ...]] = {
    "damage_capsule": ("fail", "boom"),
    "degrade_all_parts": ("fail", "boom"),
    "choose": ("options", "units", "fail", "boom"),
    "lose_rations": ("units",),
    "stamina_loss": ("units",),
    "rcs_uses": ("uses",),
    "destroy_upgoer": ("escape_tower",),
    "bail_out": ("escape_tower",),
}


@dataclass(frozen=True)
class Effect:
    effect: EffectType
    fail: int = spec(0, low=0, high=19)
    boom: int = spec(0, low=0, high=19)
    units: int = spec(1, low=0, high=20)
    uses: Union[int, Literal["all"]] = 1
    escape_tower: bool = False
    options: tuple[ChoiceOption, ...] = ()
    origin: object = origin_field()


@dataclass(frozen=True)
class Consequence:
    roll: RollKind
    fail: tuple[Effect, ...]
    boom: tuple[Effect, ...]
    no_boom_penalty: bool = False
    origin: object = origin_field()


@dataclass(frozen=True)
class FlightTable:
    consequences: tuple[Consequence, ...]
    max_launches_per_turn: int = spec(3, low=1, high=20)
    docking_min_piloting: int = spec(2, low=0, high=20)
    eva_min_piloting: int = spec(1, low=0, high=20)
    jury_rig_engineering_multiplier: int = spec(2, low=0, high=20)
    eva_jury_rig_stamina: int = spec(2, low=1, high=10, doc="stamina an outside repair costs, EVA included")
    timing_by: Literal["both_safeties", "fail_safety"] = "both_safeties"
    first_attempt_fail_penalty: int = spec(0, low=0, high=19)
    first_attempt_boom_penalty: int = spec(0, low=0, high=19)
    winch_docking_stamina: int = spec(1, low=1, high=10, doc="stamina a winch docking costs (2013: the EVA pack's and the winch's)")
    payload_stamina_covers_a_skill: bool = spec(False, doc="the stamina spent on using a payload also pays for "
                                                       "one skill on its roll (2013)")
    eva_carries_payload: bool = spec(True, doc="a derp on EVA may carry a payload (2013: rations only)")
    rock_docking_rcs_uses: int = spec(2, low=1, high=10)
    uncrewed_suborbital_only: bool = True
    skills: Literal["move_roll", "raise_safeties"] = "move_roll"  # how a derp's stamina point helps a roll
    origin: object = origin_field()

    def consequence(self, roll: str) -> Consequence:
        for c in self.consequences:
            if c.roll == roll:
                return c
        if roll in OPTIONAL_ROLLS:
            return Consequence(roll, (), ())  # type: ignore[arg-type]
        raise KeyError(roll)


def _key(node: object, key: str) -> Node | None:
    """The value of ``key`` in a mapping node when it is written there, else the mapping itself."""
    if isinstance(node, Map) and node.get(key) is not None:
        return node.get(key)
    return node if isinstance(node, Node) else None


def load_flight_table(node: Node, problems: Problems, built: dict) -> object:
    before = len(problems.items)
    table = build(FlightTable, node, problems, "")
    if table is MISSING:
        return MISSING
    for consequence in table.consequences:
        for outcome in ("fail", "boom"):
            for effect in getattr(consequence, outcome):
                allowed = EFFECT_PARAMS.get(effect.effect, ())
                node_ = effect.origin
                if isinstance(node_, Map):
                    for key in node_.keys():
                        if key != "effect" and key not in allowed:
                            problems.add(node_.get(key), f"effect '{effect.effect}' takes no '{key}'"
                                         + (f" (it takes: {', '.join(allowed)})" if allowed else ""))
                if effect.effect == "rcs_uses" and not (effect.uses == "all" or
                                                        (isinstance(effect.uses, int) and 1 <= effect.uses <= 100)):
                    problems.add(_key(node_, "uses"), "rcs_uses needs uses: a number from 1 to 100, or all")
                if effect.effect == "choose" and not effect.options:
                    problems.add(_key(node_, "options"), "effect 'choose' needs at least one option")
    present = {c.roll for c in table.consequences}
    for roll in RollKind.__args__:  # type: ignore[attr-defined]
        if roll not in present and roll not in OPTIONAL_ROLLS:
            problems.add(node, f"no consequences given for the '{roll}' roll")
    return table if len(problems.items) == before else MISSING

