"""Cosmoforce's tables: typed, frozen objects loaded from ``rules/cosmoforce/*.yaml``.

``load_rules(folder)`` reads every table, checks types, ranges, unknown keys, duplicate ids and the
references between tables, and either returns a ``Rules`` value or raises ``RulesError`` listing every
problem as ``rules/cosmoforce/<file>.yaml:<line>: <what is wrong>``.
"""
from __future__ import annotations

import dataclasses
import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, Optional

from game.core.schema import MISSING, build, origin_field, spec
from game.games.cosmoforce.rules.ships import design_problem
from game.games.cosmoforce.rules.state import ShipDesign
from game.core.yamlnodes import Map, Node, Problems, RulesError, load_yaml_file, nearest

DEFAULT_RULES_DIR = Path(__file__).resolve().parents[4] / "rules" / "cosmoforce"

#: The closed set of system roles the engine implements; systems.yaml maps its systems to them.
Role = Literal["armor", "dissipator", "engine", "habitat", "weapon", "afterburner", "hangar"]
#: How an effective heat die hurts crew (docs/rules-decisions.md, "Heat and crew").
HeatHurts = Literal["ready_then_kill", "ready_only", "kill"]


# ---------------------------------------------------------------- edition.yaml
@dataclass(frozen=True)
class Edition:
    id: str
    name: str
    description: str = ""
    origin: object = origin_field()


# ---------------------------------------------------------------- classes.yaml
@dataclass(frozen=True)
class ShipClass:
    id: str
    name: str
    size: int = spec(low=1, high=10, doc="mass added by every system mounted")
    crew_per_habitat: int = spec(low=1, high=10)
    special: str = spec(doc="the system only this class may mount")
    description: str = ""
    origin: object = origin_field()


@dataclass(frozen=True)
class ShipClasses:
    classes: tuple[ShipClass, ...] = spec(needs="at least one class (every ship has one)")
    max_systems: int = spec(10, low=1, high=20)
    origin: object = origin_field()

    def get(self, class_id: str) -> ShipClass:
        for c in self.classes:
            if c.id == class_id:
                return c
        raise KeyError(class_id)


# ---------------------------------------------------------------- systems.yaml
@dataclass(frozen=True)
class DamageEffects:
    """What else happens when a system takes a hit (a closed set of effects, numbers from YAML)."""

    hurt_crew: int = spec(0, low=0, high=10)
    add_heat: int = spec(0, low=0, high=10)
    lose_speed: int = spec(0, low=0, high=10)
    lose_crew_over_capacity: bool = False

    @property
    def any(self) -> bool:
        return bool(self.hurt_crew or self.add_heat or self.lose_speed or self.lose_crew_over_capacity)


@dataclass(frozen=True)
class SystemKind:
    id: str
    name: str
    role: Role
    description: str = ""
    max_damage: int = spec(2, low=1, high=10, doc="the damage marks it can carry")
    destroyed_when_full: bool = True
    on_damage: DamageEffects = DamageEffects()
    on_destroyed: DamageEffects = DamageEffects()
    origin: object = origin_field()


@dataclass(frozen=True)
class Systems:
    systems: tuple[SystemKind, ...] = spec(needs="at least a habitat (a ship without crew cannot fight)")
    origin: object = origin_field()

    def get(self, system_id: str) -> SystemKind:
        for s in self.systems:
            if s.id == system_id:
                return s
        raise KeyError(system_id)

    def with_role(self, role: str) -> tuple[SystemKind, ...]:
        return tuple(s for s in self.systems if s.role == role)

    @property
    def ids(self) -> tuple[str, ...]:
        return tuple(s.id for s in self.systems)


# ---------------------------------------------------------------- weapons.yaml
@dataclass(frozen=True)
class Weapon:
    system: str
    dice_per_system: int = spec(low=1, high=10)
    heat_per_system: int = spec(0, low=0, high=10)
    spent_after_firing: bool = False
    target_must_be_slower: bool = False
    origin: object = origin_field()


@dataclass(frozen=True)
class Weapons:
    weapons: tuple[Weapon, ...] = spec(needs="at least one weapon")
    origin: object = origin_field()

    def get(self, system_id: str) -> Weapon:
        for w in self.weapons:
            if w.system == system_id:
                return w
        raise KeyError(system_id)


# ---------------------------------------------------------------- actions.yaml
@dataclass(frozen=True)
class DiceRules:
    sides: int = spec(6, low=2, high=20, doc="effective dice are the odd faces")


@dataclass(frozen=True)
class StartRules:
    afterburner_speed: int = spec(5, low=0, high=20)


@dataclass(frozen=True)
class TieBreakRules:
    dice_per_engine: int = spec(1, low=0, high=10)
    afterburner_dice_per_engine: int = spec(2, low=0, high=10)
    minimum_dice: int = spec(1, low=1, high=10, doc="so that every tie ends")


@dataclass(frozen=True)
class ShootingRules:
    fit_in_mass: bool = True


@dataclass(frozen=True)
class BurnRules:
    heat_per_engine: int = spec(1, low=0, high=10)
    afterburner_dice_per_engine: int = spec(1, low=0, high=10)


@dataclass(frozen=True)
class ConserveRules:
    heat_removed: int = spec(1, low=0, high=10)


@dataclass(frozen=True)
class StrafeRules:
    dice_per_hangar: int = spec(1, low=1, high=10)


@dataclass(frozen=True)
class HealRules:
    dice: int = spec(1, low=1, high=10)


@dataclass(frozen=True)
class PrecisionRules:
    heat: int = spec(1, low=0, high=10)
    dice_per_laser: int = spec(1, low=1, high=10)
    weapon: str = "laser"


@dataclass(frozen=True)
class RepairRules:
    dice_per_ready_crew: int = spec(1, low=1, high=10)


@dataclass(frozen=True)
class AftermathRules:
    heat_dice_per_token: int = spec(1, low=0, high=10)
    heat_hurts: HeatHurts = "ready_then_kill"


@dataclass(frozen=True)
class Combat:
    dice: DiceRules = DiceRules()
    actions_per_turn: int = spec(2, low=1, high=5)
    start: StartRules = StartRules()
    tie_break: TieBreakRules = TieBreakRules()
    shooting: ShootingRules = ShootingRules()
    burn: BurnRules = BurnRules()
    conserve_energy: ConserveRules = ConserveRules()
    drone_strafe: StrafeRules = StrafeRules()
    heal_crew: HealRules = HealRules()
    precision_fire: PrecisionRules = PrecisionRules()
    repair_systems: RepairRules = RepairRules()
    aftermath: AftermathRules = AftermathRules()
    origin: object = origin_field()


# ---------------------------------------------------------------- ships.yaml
@dataclass(frozen=True)
class ReadyShip:
    id: str
    name: str
    ship_class: str
    systems: tuple[str, ...] = spec(needs="at least a habitat")
    origin: object = origin_field()

    def design(self, name: Optional[str] = None) -> ShipDesign:
        """This ship as a roster to fight with (under ``name``, or its own)."""
        return ShipDesign(name or self.name, self.ship_class, self.systems)


@dataclass(frozen=True)
class ReadyShips:
    ships: tuple[ReadyShip, ...] = spec(needs="at least one ready-made ship (new games start with one)")
    origin: object = origin_field()

    def get(self, ship_id: str) -> ReadyShip:
        for s in self.ships:
            if s.id == ship_id:
                return s
        raise KeyError(ship_id)


TABLE_FILES: dict[str, tuple[str, type]] = {
    "edition": ("edition.yaml", Edition),
    "classes": ("classes.yaml", ShipClasses),
    "systems": ("systems.yaml", Systems),
    "weapons": ("weapons.yaml", Weapons),
    "combat": ("actions.yaml", Combat),
    "ships": ("ships.yaml", ReadyShips),
}


@dataclass(frozen=True)
class Rules:
    """Every table of one folder, and the fingerprint a save records."""

    edition: Edition
    classes: ShipClasses
    systems: Systems
    weapons: Weapons
    combat: Combat
    ships: ReadyShips
    folder: str
    digest: str

    def system_role(self, system_id: str) -> str:
        return self.systems.get(system_id).role

    def special_of(self, system_id: str) -> Optional[ShipClass]:
        """The class whose special system ``system_id`` is, or None for a system any class may mount."""
        return next((c for c in self.classes.classes if c.special == system_id), None)


def _display_name(folder: Path, filename: str) -> str:
    """How a problem names its file: ``rules/cosmoforce/x.yaml`` for the shipped tree, else ``folder/x.yaml``."""
    repo_root = DEFAULT_RULES_DIR.parents[1]
    try:
        return (folder.resolve() / filename).relative_to(repo_root).as_posix()
    except ValueError:
        return f"{folder.name}/{filename}"


def load_rules(folder: Path | str | None = None) -> Rules:
    """Load and check every table in ``folder`` (default: the shipped rules). Raises RulesError."""
    folder = Path(folder) if folder is not None else DEFAULT_RULES_DIR
    problems = Problems()
    if not folder.is_dir():
        problems.add(None, "is not a folder of rules", file=str(folder))
        problems.raise_if_any()
    built: dict[str, Any] = {}
    for name, (filename, cls) in TABLE_FILES.items():
        node = load_yaml_file(folder / filename, _display_name(folder, filename), problems)
        built[name] = build(cls, node, problems, "") if node is not None else MISSING
    _cross_check(built, problems)
    problems.raise_if_any()
    return Rules(folder=str(folder), digest=tables_digest(built), **built)


def check_rules(folder: Path | str | None = None) -> tuple[Optional[Rules], list[str]]:
    """(rules, []) when valid, else (None, every problem as a line of text)."""
    try:
        return load_rules(folder), []
    except RulesError as exc:
        return None, [str(p) for p in exc.problems]


def rules_summary(rules: Rules) -> str:
    """One line for ``check-rules``."""
    return (f"rules OK: {rules.edition.name}, {len(rules.classes.classes)} ship classes, "
            f"{len(rules.systems.systems)} systems, {len(rules.weapons.weapons)} weapons, "
            f"{len(rules.ships.ships)} ready-made ships; digest {rules.digest}")


# ---------------------------------------------------------------- fingerprint
def canonical_data(value: Any) -> Any:
    """Loaded table values as plain JSON data: what the rules say, not where they were written."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: canonical_data(getattr(value, f.name)) for f in dataclasses.fields(value)
                if not f.metadata.get("origin")}
    if isinstance(value, Mapping):
        return {str(k): canonical_data(v) for k, v in value.items()}
    if isinstance(value, (tuple, list)):
        return [canonical_data(v) for v in value]
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    raise TypeError(f"no canonical form for {type(value).__name__}")


def tables_digest(tables: Mapping[str, Any]) -> str:
    dump = json.dumps({name: canonical_data(table) for name, table in tables.items()}, sort_keys=True,
                      separators=(",", ":"), ensure_ascii=False, allow_nan=False)
    return "cf-" + hashlib.sha256(dump.encode("utf-8")).hexdigest()[:16]


# ---------------------------------------------------------------- cross-references
def _at(obj: object) -> Optional[Node]:
    node = getattr(obj, "origin", None)
    return node if isinstance(node, Node) else None


def _key_node(obj: object, key: str) -> Optional[Node]:
    node = _at(obj)
    if isinstance(node, Map):
        child = node.get(key)
        if child is not None:
            return child
    return node


def _cross_check(built: dict[str, Any], problems: Problems) -> None:
    """References between tables; each check runs when the tables it needs were built."""
    classes, systems, weapons = built.get("classes"), built.get("systems"), built.get("weapons")
    combat, ships = built.get("combat"), built.get("ships")
    if systems is not MISSING:
        _check_systems(systems, problems)
    if systems is MISSING:
        return
    ids = systems.ids
    if classes is not MISSING:
        for c in classes.classes:
            if c.special not in ids:
                problems.add(_key_node(c, "special"), f"class '{c.id}' has the special system '{c.special}', "
                             f"which systems.yaml does not define" + nearest(c.special, ids))
    if weapons is not MISSING:
        for w in weapons.weapons:
            if w.system not in ids:
                problems.add(_key_node(w, "system"), f"weapon '{w.system}' is not a system of systems.yaml"
                             + nearest(w.system, ids))
            elif systems.get(w.system).role != "weapon":
                problems.add(_key_node(w, "system"), f"'{w.system}' has the role '{systems.get(w.system).role}'; "
                             f"only systems with the role 'weapon' can be fired")
        armed = {w.system for w in weapons.weapons}
        for s in systems.with_role("weapon"):
            if s.id not in armed:
                problems.add(_at(s), f"weapon system '{s.id}' has no entry in weapons.yaml (how many dice does it roll?)")
        if combat is not MISSING and combat.precision_fire.weapon not in armed:
            problems.add(_key_node(combat, "precision_fire"),
                         f"precision_fire.weapon '{combat.precision_fire.weapon}' is not a weapon of weapons.yaml"
                         + nearest(combat.precision_fire.weapon, armed))
    if ships is not MISSING and classes is not MISSING:
        for ready in ships.ships:
            problem = design_problem(classes, systems, ready.design())
            if problem:
                problems.add(_at(ready), f"ready-made ship '{ready.id}': {problem}")


def _check_systems(systems: Systems, problems: Problems) -> None:
    for role in ("habitat", "engine"):
        if not systems.with_role(role):
            problems.add(_at(systems), f"no system has the role '{role}'")
    for s in systems.systems:
        if s.on_damage.lose_crew_over_capacity:
            problems.add(_key_node(s, "on_damage"), f"system '{s.id}': lose_crew_over_capacity applies when a "
                         f"habitat is destroyed; put it under on_destroyed")
        if not s.destroyed_when_full and s.on_destroyed.any:
            problems.add(_key_node(s, "on_destroyed"), f"system '{s.id}' is never destroyed (destroyed_when_full "
                         f"is false), so on_destroyed would never happen")
