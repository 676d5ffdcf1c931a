"""The rule tables: typed, frozen objects loaded from ``rules/*.yaml``.

``load_rules(folder)`` reads every table of one edition, checks types, ranges, unknown
keys, duplicate ids and cross-references, and either returns a ``Rules`` value or raises
``RulesError`` listing every problem as ``rules/<file>.yaml:<line>: <what is wrong>``.
"""
from __future__ import annotations

import dataclasses
import hashlib
import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, Optional

from game.games.whatgoesup.rules.dice import DiceScheme
from game.games.whatgoesup.rules.reliability import Bounds, Rating
from game.core.schema import MISSING, FromText, KeyProblem, build, origin_field, spec
from game.core.yamlnodes import Map, Node, Problems, RulesError, Seq, load_yaml_file, nearest

if TYPE_CHECKING:
    from game.games.whatgoesup.rules.board import Board
    from game.games.whatgoesup.rules.flighttable import FlightTable
    from game.games.whatgoesup.rules.scenarios import ScenarioTable
    from game.games.whatgoesup.rules.ship_mapping import ShipCombatTable

DEFAULT_RULES_DIR = Path(__file__).resolve().parents[4] / "rules" / "whatgoesup" / "2014"

# The closed set of component roles the engine implements; kinds in components.yaml map to them.
Role = Literal["lower_stage", "thruster", "capsule", "habitat", "payload", "rcs", "fuel", "rations", "underped"]
CONSUMABLE_ROLES = ("fuel", "rations")


# ---------------------------------------------------------------- edition.yaml
@dataclass(frozen=True)
class EarlierRules:
    """A fingerprint these rules had before a change that left their play the same (an added option, say).

    A save recorded under it replays the same unless it turned on one of ``changed_options``: the options
    whose play the change did alter."""
    fingerprint: str = spec(max_length=16, doc="the rules digest an older save recorded")
    changed_options: tuple[str, ...] = spec((), doc="options whose play changed since; such saves are refused")
    origin: object = origin_field()


@dataclass(frozen=True)
class Edition:
    id: str
    name: str
    description: str = ""
    summary: str = spec("", max_length=90, doc="one line: how this edition differs (shown when choosing it)")
    extends: Optional[str] = None  # a folder (relative to this one) whose files this edition leaves unchanged
    earlier: tuple[EarlierRules, ...] = spec((), doc="fingerprints of these rules before changes that kept play")
    origin: object = origin_field()


# ---------------------------------------------------------------- economy.yaml
@dataclass(frozen=True)
class Budget:
    start_dots: int = spec(low=0, high=1000)
    min_dots: int = spec(low=0, high=1000)
    max_dots: int = spec(low=0, high=1000)
    start_luck: int = spec(0, low=0, high=100)
    points_per_dot: int = spec(1, low=0, high=100)

    def __post_init__(self) -> None:
        if self.min_dots > self.max_dots:
            raise KeyProblem("max_dots", f"must be at least min_dots ({self.min_dots}), not {self.max_dots}")
        if not self.min_dots <= self.start_dots <= self.max_dots:
            raise KeyProblem("start_dots", f"must lie between min_dots ({self.min_dots}) and max_dots "
                                           f"({self.max_dots}), not {self.start_dots}")


@dataclass(frozen=True)
class Costs:
    invent_per_mass: int = spec(low=0, high=100)
    research_per_mass: int = spec(low=0, high=100)
    build_per_mass: int = spec(low=0, high=100)
    consumable_per_container: int = spec(low=0, high=100)
    hire_derp: int = spec(low=0, high=100)
    train_per_point: int = spec(low=0, high=100)
    heal_derp: int = spec(low=0, high=100)


@dataclass(frozen=True)
class Research:
    new_thing_rating: Rating
    max_fail_steps_per_turn: int = spec(low=0, high=19)
    max_boom_steps_per_turn: int = spec(low=0, high=19)
    cap_never_flown: Optional[Rating] = None
    cap_never_flown_successfully: Optional[Rating] = None
    caps_exempt_roles: tuple[Role, ...] = ()
    tech_transfer_min_mass_ratio: Fraction = spec(Fraction(1, 2), low=0, high=100)
    tech_transfer_cap: Rating = Rating(5, 10)
    tech_transfer_needs_successful_flight: bool = True
    improves_launched: bool = spec(False, doc="research also reaches parts already launched (2013)")


@dataclass(frozen=True)
class ReliabilityLimits:
    worst: Rating
    best: Rating
    boom_penalty_fail: int = spec(low=0, high=19)
    boom_penalty_boom: int = spec(low=0, high=19)

    @property
    def bounds(self) -> Bounds:
        return Bounds(self.worst, self.best)


@dataclass(frozen=True)
class DerpRules:
    start_piloting: int = spec(low=0, high=20)
    start_engineering: int = spec(low=0, high=20)
    start_stamina: int = spec(low=0, high=20)
    max_total_points: int = spec(low=0, high=60)
    heal_to_stamina: int = spec(low=0, high=20)
    trainings_per_turn: Optional[int] = spec(None, low=1, high=60,
                                            doc="how many points one derp may train in one turn; empty: no limit")
    skills_per_turn: int = spec(1, low=1, high=3)
    mass: int = spec(1, low=0, high=10)


@dataclass(frozen=True)
class Dots:
    per_new_step: int = spec(low=-100, high=100)
    per_derp_lost: int = spec(low=-100, high=100)
    per_new_step_nobody_visited: int = spec(0, low=-100, high=100)
    nothing_in_space: int = spec(0, low=-100, high=100)


@dataclass(frozen=True)
class Fuel:
    mass_per_fuel_point: int = spec(10, low=1, high=1000)
    rounding: Literal["ceil", "drop_digit_plus_one"] = "ceil"


@dataclass(frozen=True)
class ReverseEngineering:
    points_per_mass: int = spec(low=0, high=100)
    bonus_to: Literal["inventor", "plagiarist"] = "plagiarist"
    once_per_pair: bool = True
    only_heavier: bool = spec(False, doc="each further design copied from one inventor must mass more than the last")


@dataclass(frozen=True)
class Trading:
    points: bool = spec(True, doc="resource points may change hands (2013: dots only)")


@dataclass(frozen=True)
class Luck:
    per_healthy_derp_back_from_new_step: int = spec(1, low=0, high=10)
    per_rival_derp_rescued: int = spec(1, low=0, high=10)


@dataclass(frozen=True)
class Economy:
    budget: Budget
    costs: Costs
    research: Research
    reliability: ReliabilityLimits
    derps: DerpRules
    dots: Dots
    fuel: Fuel
    reverse_engineering: ReverseEngineering
    luck: Luck = Luck()
    trading: Trading = Trading()
    origin: object = origin_field()


# ---------------------------------------------------------------- components.yaml
@dataclass(frozen=True)
class ComponentKind:
    """A kind of thing a program can invent or buy (lower stage, capsule, a payload type, ...)."""

    id: str
    name: str = spec(max_length=30, doc="new things are named '<people's name> <kind name> Mk<n>'")
    role: Role
    description: str
    fixed_mass: Optional[int] = spec(None, low=1, high=100)
    invented: bool = True
    can_be_reusable: bool = False
    transfers_from: tuple[str, ...] = ()
    uses: Optional[int] = spec(None, low=1, high=100, doc="uses per flight (RCS: two)")
    option: Optional[str] = spec(None, doc="an optional rule of options.yaml this kind belongs to (off: not offered)")
    origin: object = origin_field()


@dataclass(frozen=True)
class CapsuleRules:
    capacity_rule: Literal["tenth_overhead", "minus_one"]
    min_mass: int = spec(2, low=1, high=100)


@dataclass(frozen=True)
class ThrusterRules:
    min_ratio: Fraction = spec(low=0, high=10)
    lunar_landing_ratio: Fraction = spec(low=0, high=10)
    planetary_landing_ratio: Fraction = spec(low=0, high=10)


@dataclass(frozen=True)
class Clustering:
    average_up_to: int = spec(2, low=1, high=4, doc="their odds are computed exactly, roll by roll")
    average_rounding: Literal["up", "down"] = "up"
    max_stages_per_cluster: Optional[int] = spec(None, low=1, high=20)


#: id(kinds tuple) -> (the tuple, {kind id: kind}); the tuple is held, so its id is not reused meanwhile.
_KINDS_BY_ID: dict[int, tuple[tuple, dict]] = {}


@dataclass(frozen=True)
class UnderpedRules:
    """Underped (robotic) systems: the optional rule's numbers (components.yaml: underped)."""

    program_cost_per_stamina: int = spec(1, low=0, high=100, doc="points per stamina point programmed")
    power_up_stamina: int = spec(1, low=0, high=20, doc="stamina a powering-up system spends (and must have)")
    action_stamina: int = spec(1, low=0, high=20, doc="stamina a system spends on any action, burns included")
    generator_recharge: int = spec(1, low=0, high=20, doc="stamina a generator gives each system aboard a turn")
    given_stamina: int = spec(1, low=1, high=20, doc="stamina a derp hands a system (costs the derp as much)")
    repair_engineering: int = spec(1, low=0, high=20,
                                   doc="Engineering a system jury-rigs with under the underped_repairs option")


@dataclass(frozen=True)
class Components:
    kinds: tuple[ComponentKind, ...] = spec(needs="at least one kind (programs invent and build them)")
    reusable_extra_mass: Fraction = spec(low=0, high=10)
    capsule: CapsuleRules = CapsuleRules("tenth_overhead")
    thruster: ThrusterRules = ThrusterRules(Fraction(1, 10), Fraction(1, 2), Fraction(1))
    clustering: Clustering = Clustering()
    rations_derp_turns_per_container: int = spec(2, low=1, high=20)
    rations_loaded_in_containers: bool = True  # an Upgoer loads whole containers ("loaded in twos")
    fuel_per_container: int = spec(1, low=1, high=100)
    rcs_piloting_bonus: int = spec(3, low=0, high=20)
    max_invent_mass: int = spec(200, low=1, high=10000)
    underped: UnderpedRules = UnderpedRules()
    origin: object = origin_field()

    def kind(self, kind_id: str) -> ComponentKind:
        kinds = self.kinds
        hit = _KINDS_BY_ID.get(id(kinds))
        if hit is None or hit[0] is not kinds:  # the first look-up in these kinds: index them by id once
            index: dict[str, ComponentKind] = {}
            for k in kinds:
                index.setdefault(k.id, k)
            if len(_KINDS_BY_ID) > 64:  # rules loaded again and again (tests, fuzzing): keep a few
                _KINDS_BY_ID.clear()
            hit = _KINDS_BY_ID[id(kinds)] = (kinds, index)
        try:
            return hit[1][kind_id]
        except KeyError:
            raise KeyError(kind_id) from None

    def kinds_with_role(self, role: str) -> tuple[ComponentKind, ...]:
        return tuple(k for k in self.kinds if k.role == role)


# ---------------------------------------------------------------- dice.yaml
@dataclass(frozen=True)
class DiceTable:
    default: str
    schemes: tuple[DiceScheme, ...] = spec(needs="at least one dice scheme (every reliability roll uses one)")
    origin: object = origin_field()

    def scheme(self, scheme_id: str) -> DiceScheme:
        for s in self.schemes:
            if s.id == scheme_id:
                return s
        raise KeyError(scheme_id)


# ---------------------------------------------------------------- options.yaml
@dataclass(frozen=True)
class Option:
    id: str
    name: str
    explanation: str
    default: bool = False
    requires: tuple[str, ...] = ()  # other options this one only makes sense with
    origin: object = origin_field()


@dataclass(frozen=True)
class Options:
    options: tuple[Option, ...]
    origin: object = origin_field()


# ---------------------------------------------------------------- peoples.yaml
@dataclass(frozen=True)
class People:
    id: str
    name: str
    description: str
    colour: str
    derp_names: tuple[str, ...] = spec(needs="at least one name (new derps are named from it)", max_length=20)
    upgoer_names: tuple[str, ...] = spec(needs="at least one name (new Upgoers and parts are named from it)",
                                         max_length=20)
    origin: object = origin_field()


@dataclass(frozen=True)
class Peoples:
    peoples: tuple[People, ...] = spec(needs="at least one people (every space program belongs to one)")
    origin: object = origin_field()


# ---------------------------------------------------------------- prestige.yaml
# Events the engine reports; a first or bonus in prestige.yaml names the event it is won by.
PrestigeTrigger = Literal[
    "mission_step", "orbit_type", "docking", "eva", "multiturn_mission", "multiderp_mission",
    "rations_delivery", "reusable_capsule", "reusable_upgoer", "gravity_slingshot",
    "rock_landing_and_return", "moon_landing_and_return", "jury_rig_rescue",
]


@dataclass(frozen=True)
class First:
    id: str
    name: str
    trigger: PrestigeTrigger
    dots: int = spec(low=-100, high=100)
    description: str = ""
    per_name: bool = spec(False, doc="one first per step name or orbit type rather than one in all")
    mapping_steps: int = spec(0, low=0, high=100)
    origin: object = origin_field()


StandingKind = Literal["longest_crewed_flight", "largest_crew_in_space", "most_mapping", "longest_working_flight"]


@dataclass(frozen=True)
class Standing:
    id: str
    name: str
    kind: StandingKind
    dots: int = spec(low=-100, high=100)
    description: str = ""
    origin: object = origin_field()


# What a finished flight may earn each time (not once in a game, not held).
MissionAwardKind = Literal["flawless_multiturn_return"]


@dataclass(frozen=True)
class MissionAward:
    id: str
    name: str
    kind: MissionAwardKind
    dots: int = spec(low=-100, high=100)
    description: str = ""
    origin: object = origin_field()


@dataclass(frozen=True)
class Prestige:
    firsts: tuple[First, ...]
    standing: tuple[Standing, ...]
    mission_awards: tuple[MissionAward, ...] = ()
    rescue_dots_per_derp: int = spec(1, low=0, high=100)
    waylight_piloting_bonus: int = spec(1, low=0, high=10)
    waylight_orbit_types: tuple[str, ...] = ("polar", "synchronous", "lunar")
    mapping_percent_per_turn: int = spec(5, low=0, high=100)
    underped_share: Fraction = spec(Fraction(1, 2), low=0, high=1,
                                    doc="share of a first's dots when an underped craft wins it (rounded up)")
    steps_need_survival: bool = spec(False, doc="a step counts as reached (its new-step dot, its first) only for a "
                                                "craft not destroyed there")
    origin: object = origin_field()


# ---------------------------------------------------------------- space_war.yaml
@dataclass(frozen=True)
class DerpFightRules:
    beaten_loss: int = spec(2, low=0, high=20, doc="stamina lost by the derp who loses a pair's roll")
    brawl_loss: int = spec(1, low=0, high=20, doc="stamina every derp of a pair loses, whatever the dice")
    waylight_bonus: bool = spec(False, doc="whether the Positioning System's Piloting bonus counts in a brawl")


@dataclass(frozen=True)
class HostileDockingRules:
    repel_stamina: int = spec(0, low=0, high=20, doc="stamina a defending derp spends on each repelling RCS burn")
    repel_min_piloting: int = spec(0, low=0, high=20, doc="Piloting a defending derp needs to fire the RCS")


OpenWarWhen = Literal["derp_killed", "any_hostility"]


@dataclass(frozen=True)
class OpenWarRules:
    starts_when: OpenWarWhen = "derp_killed"


@dataclass(frozen=True)
class SpaceWar:
    """The numbers of the optional hostilities (the ``space_war`` option)."""

    derp_fights: DerpFightRules = DerpFightRules()
    hostile_docking: HostileDockingRules = HostileDockingRules()
    open_war: OpenWarRules = OpenWarRules()
    origin: object = origin_field()


# ---------------------------------------------------------------- the whole edition
@dataclass(frozen=True)
class Rules:
    """Every table of one edition, plus a digest that saves record.

    ``digest`` fingerprints the loaded tables (``tables_digest``), so comments, quoting and layout do not
    change it. ``earlier_digests`` are fingerprints that older saves of these same rules recorded, which a
    save may still carry: the hash of the files' raw text that saves recorded before tables were
    fingerprinted by content.
    """

    edition: Edition
    economy: Economy
    components: Components
    dice: DiceTable
    options: Options
    peoples: Peoples
    prestige: Prestige
    space_war: SpaceWar
    board: "Board"
    flight: "FlightTable"
    scenarios: "ScenarioTable"
    ship_combat: "ShipCombatTable"
    folder: str
    digest: str
    earlier_digests: tuple[str, ...] = ()

    def replays_saves_of(self, digest: str, options: Iterable[str]) -> bool:
        """True if a save recorded under ``digest`` with ``options`` on replays the same under these rules: the
        digest is theirs, one they had before (``earlier_digests``), or one of the edition's ``earlier``
        fingerprints with none of that change's ``changed_options`` on."""
        if digest == self.digest or digest in self.earlier_digests:
            return True
        return any(e.fingerprint == digest and not set(e.changed_options) & set(options)
                   for e in self.edition.earlier)

    def option(self, option_id: str) -> Option:
        for o in self.options.options:
            if o.id == option_id:
                return o
        raise KeyError(option_id)

    @property
    def option_ids(self) -> tuple[str, ...]:
        return tuple(o.id for o in self.options.options)


TABLE_FILES: dict[str, tuple[str, type]] = {
    "edition": ("edition.yaml", Edition),
    "economy": ("economy.yaml", Economy),
    "components": ("components.yaml", Components),
    "dice": ("dice.yaml", DiceTable),
    "options": ("options.yaml", Options),
    "peoples": ("peoples.yaml", Peoples),
    "prestige": ("prestige.yaml", Prestige),
    "space_war": ("space_war.yaml", SpaceWar),
}



def _extra_tables() -> dict[str, tuple[str, object]]:
    """Tables with their own checks: the board, the flight table, the scenarios and space war's ship-to-ship
    table (after the core tables; the scenarios are checked against the board, the ship table's parts
    against the components)."""
    from game.games.whatgoesup.rules.board import load_board
    from game.games.whatgoesup.rules.flighttable import load_flight_table
    from game.games.whatgoesup.rules.scenarios import load_scenarios
    from game.games.whatgoesup.rules.ship_mapping import load_ship_combat

    return {"board": ("board.yaml", load_board), "flight": ("flight.yaml", load_flight_table),
            "scenarios": ("scenarios.yaml", load_scenarios), "ship_combat": ("ship_combat.yaml", load_ship_combat)}


def _display_name(folder: Path, filename: str) -> str:
    """How a problem names its file: ``rules/whatgoesup/2014/x.yaml`` for the shipped tree, else ``folder/x.yaml``."""
    shipped_root = DEFAULT_RULES_DIR.parents[2]
    try:
        return (folder.resolve() / filename).relative_to(shipped_root).as_posix()
    except ValueError:
        return f"{folder.name}/{filename}"


def load_rules(folder: Path | str | None = None) -> Rules:
    """Load and check every table in ``folder`` (default: the shipped rules). Raises RulesError."""
    folder = Path(folder) if folder is not None else DEFAULT_RULES_DIR
    problems = Problems()
    if not folder.is_dir():
        problems.add(None, "is not a folder of rules", file=str(folder))
        problems.raise_if_any()
    built: dict[str, object] = {}
    text_digest = hashlib.sha256()
    sources = _edition_sources(folder, problems)
    tables = [(name, filename, lambda node, cls=cls: build(cls, node, problems, ""))
              for name, (filename, cls) in TABLE_FILES.items()]
    tables += [(name, filename, lambda node, loader=loader: loader(node, problems, built))
               for name, (filename, loader) in _extra_tables().items()]
    for name, filename, make in tables:
        # An edition may leave a file out and take it from the edition it extends, or write in it only the
        # keys it changes (an overlay on the same file of the edition it extends; ``overlay_tables``).
        present = [f for f in sources if (f / filename).is_file()] or [folder]
        layers = present[:1] if name == "edition" else present
        node = None
        for source in reversed(layers):
            path = source / filename
            if path.is_file():
                try:
                    text_digest.update(filename.encode() + b"\0" + path.read_bytes() + b"\0")
                except OSError:
                    pass  # load_yaml_file reports it
            layer = load_yaml_file(path, _display_name(source, filename), problems)
            node = layer if node is None or layer is None else overlay_tables(node, layer, problems)
        built[name] = make(node) if node is not None else MISSING
    _cross_check(built, problems)
    problems.raise_if_any()
    return Rules(folder=str(folder), digest=tables_digest(built), earlier_digests=(text_digest.hexdigest()[:16],),
                 **built)  # type: ignore[arg-type]


def canonical_data(value: Any) -> Any:
    """Loaded table values as plain JSON data: what the rules say, not how the files were written.

    Where a value came from (its node, the folder an edition extends) is left out, and so is a key at its
    default (so a new optional key leaves the fingerprint of rules that do not use it unchanged); a value
    written in its own text form (a rating) keeps that form; fractions are written n/d."""
    if isinstance(value, FromText):
        return str(value)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: canonical_data(getattr(value, f.name)) for f in dataclasses.fields(value)
                if not f.metadata.get("origin") and not (isinstance(value, Edition) and f.name in ("extends", "earlier"))
                and not _at_default(f, getattr(value, f.name))}
    if isinstance(value, Fraction):
        return f"{value.numerator}/{value.denominator}"
    if isinstance(value, Mapping):
        return {str(k): canonical_data(v) for k, v in value.items()}
    if isinstance(value, (tuple, list)):
        return [canonical_data(v) for v in value]
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    raise TypeError(f"no canonical form for {type(value).__name__}")


def _at_default(field: dataclasses.Field, value: Any) -> bool:
    if field.default is not dataclasses.MISSING:
        return bool(value == field.default)
    return False


def tables_digest(tables: Mapping[str, Any]) -> str:
    """The rules' fingerprint: a hash of the canonical JSON dump of every loaded table."""
    dump = json.dumps({name: canonical_data(table) for name, table in tables.items()}, sort_keys=True,
                      separators=(",", ":"), ensure_ascii=False, allow_nan=False)
    return hashlib.sha256(dump.encode("utf-8")).hexdigest()[:16]


# Entries of a list are matched between an edition and the one it extends by the first of these keys they have.
IDENTITY_KEYS = ("id", "roll")
REMOVE_KEY = "remove"


def overlay_tables(base: Node, over: Node, problems: Problems) -> Node:
    """``over`` written on top of ``base`` (the same file of the edition it extends).

    Groups of keys merge key by key, recursively; a list of entries that have an ``id`` (or a ``roll``, the
    flight table's consequences) merges entry by entry, an entry with ``remove: true`` taking that entry out;
    any other value, and any other list, replaces the one below. Every value keeps the file and line it was
    written on, so a problem is reported where the value that causes it is written."""
    if isinstance(base, Map) and isinstance(over, Map):
        entries = list(base.entries)
        for key, line, value in over.entries:
            at = next((n for n, (k, _, _) in enumerate(entries) if k == key), None)
            if at is None:
                entries.append((key, line, value))
            else:
                entries[at] = (key, line, overlay_tables(entries[at][2], value, problems))
        return Map(over.file, over.line, tuple(entries))
    if isinstance(base, Seq) and isinstance(over, Seq) and _identities(base) and _identities(over):
        items = list(base.items)
        for item in over.items:
            identity = _identity(item)
            at = next((n for n, old in enumerate(items) if _identity(old) == identity), None)
            remove = isinstance(item, Map) and item.get(REMOVE_KEY)
            if remove is not None:
                if getattr(remove, "value", None) is not True:
                    problems.add(remove, f"{REMOVE_KEY} may only be true (it takes the entry out)")
                elif at is None:
                    problems.add(remove, f"removes '{identity[1]}', which the edition it extends does not have")
                else:
                    del items[at]
                continue
            if at is None:
                items.append(item)
            else:
                items[at] = overlay_tables(items[at], item, problems)
        return Seq(over.file, over.line, tuple(items))
    return over


def _identity(node: Node) -> Optional[tuple[str, object]]:
    if isinstance(node, Map):
        for key in IDENTITY_KEYS:
            value = node.get(key)
            if value is not None:
                return key, getattr(value, "value", None)
    return None


def _identities(seq: Seq) -> bool:
    return bool(seq.items) and all(_identity(item) is not None for item in seq.items)


def _edition_sources(folder: Path, problems: Problems) -> list[Path]:
    """The folders to read tables from: this edition's, then the ones it extends (nearest first)."""
    sources = [folder]
    current = folder
    for _ in range(10):
        path = current / "edition.yaml"
        node = load_yaml_file(path, _display_name(current, "edition.yaml"), Problems()) if path.is_file() else None
        extends = node.get("extends") if isinstance(node, Map) else None
        value = getattr(extends, "value", None)
        if not value:
            return sources
        base = (current / str(value)).resolve()
        if not base.is_dir():
            problems.add(extends, f"extends '{value}', which is not a folder")
            return sources
        if base in sources:
            problems.add(extends, f"extends '{value}', which leads back to itself")
            return sources
        sources.append(base)
        current = base
    return sources


def _at(obj: object) -> Node | None:
    node = getattr(obj, "origin", None)
    return node if isinstance(node, Node) else None


def _key_node(obj: object, key: str) -> Node | None:
    node = _at(obj)
    if isinstance(node, Map):
        child = node.get(key)
        if child is not None:
            return child
    return node


def _cross_check(built: dict[str, object], problems: Problems) -> None:
    """References between tables, and limits that span several values.

    Each check runs when the tables it needs were built, so problems elsewhere never hide it.
    """
    economy = built.get("economy", MISSING)
    components = built.get("components", MISSING)
    dice = built.get("dice", MISSING)
    if dice is not MISSING:
        _check_dice(dice, problems)
    if components is not MISSING:
        _check_components(components, problems)
    options = built.get("options", MISSING)
    if options is not MISSING:
        option_ids = [o.id for o in options.options]
        for option in options.options:
            for other in option.requires:
                if other not in option_ids or other == option.id:
                    problems.add(_key_node(option, "requires"), f"option '{option.id}' requires unknown option "
                                 f"'{other}'" + nearest(other, option_ids))
        if components is not MISSING:
            for kind in components.kinds:
                if kind.option is not None and kind.option not in option_ids:
                    problems.add(_key_node(kind, "option"), f"component kind '{kind.id}' belongs to unknown "
                                 f"optional rule '{kind.option}'" + nearest(kind.option, option_ids))
        edition = built.get("edition", MISSING)
        if edition is not MISSING:
            for earlier in edition.earlier:
                for option_id in earlier.changed_options:
                    if option_id not in option_ids:
                        problems.add(_key_node(earlier, "changed_options"), f"earlier fingerprint "
                                     f"'{earlier.fingerprint}' names unknown option '{option_id}'"
                                     + nearest(option_id, option_ids))
    if economy is not MISSING:
        _check_economy(economy, problems)


# The odds of averaged clustered stages are computed exactly, and their cost grows with the square of
# the number of results a scheme can roll: 41 results (2D20, 8D6) keep the worst case under a second.
MAX_ROLL_RESULTS = 41


def _check_dice(dice: DiceTable, problems: Problems) -> None:
    for scheme in dice.schemes:
        results = scheme.high - scheme.low + 1
        if results > MAX_ROLL_RESULTS:
            problems.add(_key_node(scheme, "sides"), f"dice scheme '{scheme.id}' rolls {results} different results "
                         f"({scheme.low} to {scheme.high}); at most {MAX_ROLL_RESULTS} are allowed "
                         "(ratings go up to 20)")
    scheme_ids = [s.id for s in dice.schemes]
    if dice.default not in scheme_ids:
        problems.add(_key_node(dice, "default"),
                     f"default dice scheme '{dice.default}' is not defined" + nearest(dice.default, scheme_ids))



def _check_components(components: Components, problems: Problems) -> None:
    kind_ids = [k.id for k in components.kinds]
    for kind in components.kinds:
        for other in kind.transfers_from:
            if other not in kind_ids:
                problems.add(_key_node(kind, "transfers_from"),
                             f"component kind '{kind.id}' transfers from unknown kind '{other}'"
                             + nearest(other, kind_ids))
        if kind.role in ("payload", "rcs", "fuel", "rations", "underped") and kind.fixed_mass is None:
            problems.add(_at(kind), f"component kind '{kind.id}' ({kind.role}) needs a fixed_mass")
        if kind.role in CONSUMABLE_ROLES and kind.invented:
            problems.add(_key_node(kind, "invented"),
                         f"component kind '{kind.id}' is a consumable and cannot need inventing")
    for role in ("lower_stage", "thruster", "capsule", "fuel", "rations"):
        if not components.kinds_with_role(role):
            problems.add(_key_node(components, "kinds"), f"no component kind has the role '{role}'")



def _check_economy(economy: Economy, problems: Problems) -> None:
    limits = economy.reliability
    reliability = _key_node(economy, "reliability")
    for label, rating in (("worst", limits.worst), ("best", limits.best)):
        if not (0 <= rating.fail and rating.boom <= 100):
            node = reliability.get(label) if isinstance(reliability, Map) else None
            problems.add(node or reliability, f"{label} in reliability must have safeties from 0 to 100, not {rating}")
            return
    if limits.worst.fail > limits.best.fail or limits.worst.boom > limits.best.boom:
        reliability = _key_node(economy, "reliability")
        worst = reliability.get("worst") if isinstance(reliability, Map) else None
        best = reliability.get("best") if isinstance(reliability, Map) else None
        problems.add(best or reliability, f"best in reliability ({limits.best}) must not be worse than worst "
                     f"({limits.worst}{f', line {worst.line}' if worst is not None else ''}) in either number")
        return
    research = economy.research
    research_node = _key_node(economy, "research")
    for label, rating in (("new_thing_rating", research.new_thing_rating),
                          ("cap_never_flown", research.cap_never_flown),
                          ("cap_never_flown_successfully", research.cap_never_flown_successfully),
                          ("tech_transfer_cap", research.tech_transfer_cap)):
        if rating is None:
            continue
        if limits.bounds.clamp(rating.fail, rating.boom) != rating:
            node = research_node.get(label) if isinstance(research_node, Map) else None
            problems.add(node or research_node,
                         f"research.{label} {rating} lies outside the limits {limits.worst}..{limits.best}")


def check_rules(folder: Path | str | None = None) -> tuple[Rules | None, list[str]]:
    """(rules, []) when valid, else (None, every problem as a line of text)."""
    try:
        return load_rules(folder), []
    except RulesError as exc:
        return None, [str(p) for p in exc.problems]
