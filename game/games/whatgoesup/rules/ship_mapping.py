"""Space war, ship to ship: ``rules/<edition>/ship_combat.yaml`` as typed values, and the pure mapping of an
Upgoer's parts onto Cosmoforce's systems.

The table says which part plays which system (a capsule is a habitat, a thruster an engine, a Waylight a
laser, ...), which class an Upgoer's spacecraft mass makes it (and so its fighting mass), what a weapon's
shot rolls, and what a part's hits do in What Goes Up's own terms: its first hit is a Fail (the flight
table's effects, by default ``disable_part``), its last a Boom (by default ``destroy_part``).
``load_ship_combat`` reports every problem as ``rules/whatgoesup/2014/ship_combat.yaml:LINE: ...``.

Nothing here knows a GameState: ``fight_class``, ``systems_aboard`` and ``fighting_mass`` take plain values
so the flight rules (``flight/ship_combat.py``), the client and tests read one formula each.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Iterable, Literal, Optional

from game.core.schema import MISSING, build, origin_field, spec
from game.core.yamlnodes import Map, Node, Problems, nearest
from game.games.whatgoesup.rules.flighttable import EFFECT_PARAMS, Effect

#: The Cosmoforce systems a part can play (a closed set the fight implements).
Plays = Literal["armor", "dissipator", "engine", "habitat", "weapon"]

#: Flight-table effects a hit may have: those that need no roll, burn or landing in progress.
HIT_EFFECTS = ("disable_part", "destroy_part", "destroy_upgoer", "damage_capsule", "degrade_all_parts",
               "lose_payload", "lose_rations", "strand", "injure_crew", "kill_crew", "rcs_uses",
               "unusable_this_turn", "no_stamina_recovery", "stamina_loss")

_DISABLE = (Effect("disable_part"),)
_DESTROY = (Effect("destroy_part"),)


@dataclass(frozen=True)
class FightClass:
    id: str
    name: str
    size: int = spec(low=1, high=10, doc="fighting mass added by every system carried")
    up_to_mass: Optional[int] = spec(None, low=1, high=100000,
                                     doc="the heaviest spacecraft mass of this class (none for the last class)")
    origin: object = origin_field()


@dataclass(frozen=True)
class FightWeapon:
    id: str
    name: str
    dice_per_system: int = spec(low=1, high=10)
    heat_per_system: int = spec(0, low=0, high=10)
    spent_after_firing: bool = False
    target_must_be_slower: bool = False
    origin: object = origin_field()


@dataclass(frozen=True)
class PartSystem:
    """The system one kind of part plays, and what its hits do."""

    part: str
    plays: Plays
    weapon: str = ""
    max_hits: int = spec(2, low=1, high=10)
    destroyed_when_full: bool = True
    when_damaged: tuple[Effect, ...] = _DISABLE
    when_destroyed: tuple[Effect, ...] = _DESTROY
    origin: object = origin_field()


@dataclass(frozen=True)
class DiceSides:
    sides: int = spec(6, low=2, high=20, doc="effective dice are the odd faces")


@dataclass(frozen=True)
class ShipCombatTable:
    classes: tuple[FightClass, ...] = spec(needs="at least one class (every craft in a fight has one)")
    weapons: tuple[FightWeapon, ...] = spec(needs="at least one weapon (or no craft could open fire)")
    systems: tuple[PartSystem, ...] = spec(needs="at least one part that plays a system")
    dice: DiceSides = DiceSides()
    conserve_energy_heat: int = spec(1, low=0, high=10)
    heat_dice_per_token: int = spec(1, low=0, high=10)
    fights_per_turn: int = spec(1, low=1, high=10)
    max_rounds: int = spec(1, low=1, high=50, doc="rounds a fight lasts at most; 1 (rules that do not say): one round, no ceasefire asked")
    boom_penalty: bool = False
    origin: object = origin_field()

    def system_for(self, kind: str) -> Optional[PartSystem]:
        """The system a part of ``kind`` plays, or None when it takes no part in a fight."""
        for s in self.systems:
            if s.part == kind:
                return s
        return None

    def weapon(self, weapon_id: str) -> FightWeapon:
        for w in self.weapons:
            if w.id == weapon_id:
                return w
        raise KeyError(weapon_id)

    @property
    def sides(self) -> int:
        return self.dice.sides


# ---------------------------------------------------------------- the mapping (pure)
def fight_class(table: ShipCombatTable, spacecraft_mass: Fraction | int) -> FightClass:
    """The lightest class whose ``up_to_mass`` the spacecraft mass does not exceed (else the heaviest)."""
    for c in table.classes:
        if c.up_to_mass is not None and spacecraft_mass <= c.up_to_mass:
            return c
    return table.classes[-1]


def systems_aboard(table: ShipCombatTable, parts: Iterable[tuple[str, str]]) -> tuple[tuple[str, PartSystem], ...]:
    """``(item id, system)`` for every part (``(item id, kind)`` pairs, in the craft's order) that plays one."""
    out = []
    for item_id, kind in parts:
        system = table.system_for(kind)
        if system is not None:
            out.append((item_id, system))
    return tuple(out)


def fighting_mass(fight_class_: FightClass, systems: int) -> int:
    """Cosmoforce's mass: the class's size for every system carried (what a shot's dice must fit within)."""
    return fight_class_.size * systems


# ---------------------------------------------------------------- loading
def _key(node: object, key: str) -> Optional[Node]:
    if isinstance(node, Map) and node.get(key) is not None:
        return node.get(key)
    return node if isinstance(node, Node) else None


def load_ship_combat(node: Node, problems: Problems, built: dict) -> object:
    """The table, checked: part kinds against components.yaml, weapons, classes in order, the hit effects."""
    before = len(problems.items)
    table = build(ShipCombatTable, node, problems, "")
    if table is MISSING:
        return MISSING
    weapons = {w.id for w in table.weapons}
    if len(weapons) < len(table.weapons):
        problems.add(_key(node, "weapons"), "two weapons have the same id")
    seen: set[str] = set()
    components = built.get("components", MISSING)
    # Parts are checked against components.yaml when it loaded cleanly (else its own problems say enough).
    clean = components is not MISSING and not any(str(p.file).endswith("components.yaml") for p in problems.items)
    kinds = tuple(k.id for k in components.kinds) if clean else ()
    for system in table.systems:
        at = system.origin
        if system.part in seen:
            problems.add(_key(at, "part"), f"the part '{system.part}' is listed twice; each part plays one system")
        seen.add(system.part)
        if kinds and system.part not in kinds:
            problems.add(_key(at, "part"), f"there is no part '{system.part}' in components.yaml"
                         + nearest(system.part, kinds))
        if system.plays == "weapon":
            if system.weapon not in weapons:
                problems.add(_key(at, "weapon") if system.weapon else at,
                             f"the part '{system.part}' plays a weapon, so it needs weapon: one of "
                             f"{', '.join(sorted(weapons))}" + (nearest(system.weapon, weapons) if system.weapon else ""))
        elif system.weapon:
            problems.add(_key(at, "weapon"), f"the part '{system.part}' plays {system.plays}, not a weapon; "
                         f"leave weapon out")
        if not system.destroyed_when_full and isinstance(at, Map) and at.get("when_destroyed") is not None:
            problems.add(at.get("when_destroyed"), f"the part '{system.part}' is never destroyed "
                         f"(destroyed_when_full is false), so when_destroyed would never happen")
        for key in ("when_damaged", "when_destroyed"):
            for effect in getattr(system, key):
                _check_effect(effect, key, problems)
    for i, c in enumerate(table.classes):
        last = i == len(table.classes) - 1
        if not last and c.up_to_mass is None:
            problems.add(c.origin, f"class '{c.id}' needs up_to_mass (only the last, heaviest class goes without)")
        if last and c.up_to_mass is not None:
            problems.add(_key(c.origin, "up_to_mass"), f"the last class '{c.id}' takes every heavier craft; "
                         f"leave up_to_mass out")
        if i and c.up_to_mass is not None and table.classes[i - 1].up_to_mass is not None \
                and c.up_to_mass <= table.classes[i - 1].up_to_mass:
            problems.add(_key(c.origin, "up_to_mass"), f"classes go from light to heavy: '{c.id}' must allow "
                         f"more than {table.classes[i - 1].up_to_mass}")
    return table if len(problems.items) == before else MISSING


def _check_effect(effect: Effect, key: str, problems: Problems) -> None:
    at = effect.origin
    if effect.effect not in HIT_EFFECTS:
        problems.add(_key(at, "effect"), f"{key}: the effect '{effect.effect}' needs a roll in progress; a hit "
                     f"can have: {', '.join(HIT_EFFECTS)}")
        return
    allowed = tuple(k for k in EFFECT_PARAMS.get(effect.effect, ()) if k != "escape_tower")  # a tower rolls
    if isinstance(at, Map):
        for name in at.keys():
            if name != "effect" and name not in allowed:
                problems.add(at.get(name), f"effect '{effect.effect}' takes no '{name}'"
                             + (f" (it takes: {', '.join(allowed)})" if allowed else ""))
    if effect.effect == "rcs_uses" and not (effect.uses == "all" or
                                            (isinstance(effect.uses, int) and 1 <= effect.uses <= 100)):
        problems.add(_key(at, "uses"), "rcs_uses needs uses: a number from 1 to 100, or all")
