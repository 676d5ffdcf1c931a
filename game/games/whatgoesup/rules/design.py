"""Upgoer design: masses per stage, fuel per burn, and every reason a design cannot fly."""
from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Optional

from game.games.whatgoesup.rules import formulas
from game.games.whatgoesup.rules.state import HOME, GameState, Item, Thing, UpgoerDesign, index_by_id
from game.games.whatgoesup.rules.tables import Rules


@dataclass(frozen=True)
class StageReport:
    """One lower-stage cluster: what it can lift against what it must lift."""

    items: tuple[str, ...]
    lift: int  # sum of the cluster's working masses
    mass: int  # its own total mass
    carries: Fraction  # everything above it

    @property
    def ok(self) -> bool:
        return self.lift >= self.carries


@dataclass(frozen=True)
class DesignReport:
    spacecraft_mass: Fraction
    dry_mass: Fraction  # spacecraft without fuel
    capsule_mass: int
    capacity: int
    load: Fraction
    thruster_mass: int
    thrust_class: str  # none, too_small, orbital, lunar, planetary
    stages: tuple[StageReport, ...]
    total_mass: Fraction
    burn_costs: tuple[int, ...]
    fuel_for_planned_burns: int
    problems: tuple[str, ...] = field(default=())
    notes: tuple[str, ...] = field(default=())

    @property
    def valid(self) -> bool:
        return not self.problems


def item_mass(state: GameState, item: Item) -> int:
    return state.thing(item.thing_id).mass


def thrust_class(thruster_mass: int, capsule_mass: int, rules: Rules) -> str:
    """What the thrusters can do for these capsules: none, too_small, orbital, lunar or planetary."""
    if thruster_mass == 0:
        return "none"
    ratios = rules.components.thruster
    if capsule_mass == 0:
        return "planetary"
    if thruster_mass >= formulas.required_thruster_mass(capsule_mass, ratios.planetary_landing_ratio):
        return "planetary"
    if thruster_mass >= formulas.required_thruster_mass(capsule_mass, ratios.lunar_landing_ratio):
        return "lunar"
    if thruster_mass >= formulas.required_thruster_mass(capsule_mass, ratios.min_ratio):
        return "orbital"
    return "too_small"


def check_design(state: GameState, program: int, design: UpgoerDesign, rules: Rules,
                 on_board_of: Optional[str] = None) -> DesignReport:
    """Measure a design and list every problem that keeps it from flying.

    Items must be the program's and in storage (or already aboard ``on_board_of``).
    """
    problems: list[str] = []
    notes: list[str] = []
    comps = rules.components
    seen: set[str] = set()
    resolved: dict[str, tuple[Item, Thing]] = {}
    role_of: dict[str, str] = {}  # each resolved part's role
    for item_id in design.all_items():
        if item_id in seen:
            problems.append(f"{item_id} is used twice")
            continue
        seen.add(item_id)
        item = state.find("item", item_id)
        if item is None or item.owner != program:
            problems.append(f"{item_id} is not one of your built parts")
            continue
        if item.location not in (HOME, on_board_of):
            problems.append(f"{item_id} is already part of another Upgoer")
            continue
        thing = state.thing(item.thing_id)
        resolved[item_id] = (item, thing)
        role_of[item_id] = comps.kind(thing.kind).role

    modules = [m for m in design.modules if m in resolved]
    for m in modules:
        if role_of[m] == "lower_stage":
            problems.append(f"{resolved[m][1].name} ({m}) is a lower stage: put it in a stage, not the spacecraft")
    for cluster in design.stages:
        for s in cluster:
            if s in resolved and role_of[s] != "lower_stage":
                problems.append(f"{resolved[s][1].name} ({s}) is not a lower stage")

    capsules = [m for m in modules if role_of[m] in ("capsule", "habitat")]
    systems = [m for m in modules if role_of[m] == "underped"]  # crew members as well as parts
    thrusters = [m for m in modules if role_of[m] == "thruster"]
    cargo = [m for m in modules if role_of[m] in ("payload", "rcs")]
    capsule_mass = sum([resolved[c][1].mass for c in capsules])
    capacity = sum([formulas.capsule_capacity(resolved[c][1].base_mass, comps) for c in capsules])
    thruster_mass = sum([resolved[t][1].mass for t in thrusters])

    crew_seen: set[str] = set()
    for derp_id in design.crew:
        derp = state.find("derp", derp_id)
        if derp is None or derp.owner != program:
            problems.append(f"{derp_id} is not one of your derps")
            continue
        if derp_id in crew_seen:
            problems.append(f"{derp.name} is in the crew twice")
            continue
        crew_seen.add(derp_id)
        if derp.is_system:
            problems.append(f"{derp.name} is an underped system: load it as a part, not as crew")
        elif derp.dead:
            problems.append(f"{derp.name} is dead")
        elif derp.injured:
            problems.append(f"{derp.name} is injured and cannot fly")
        elif derp.busy:
            problems.append(f"{derp.name} is {derp.busy} this turn and cannot fly")
        elif derp.location not in (HOME, on_board_of):
            problems.append(f"{derp.name} is already aboard another Upgoer")

    derp_mass = rules.economy.derps.mass * len(design.crew)
    # A system rides in the cabin as a part of mass 1 (its own mass; it is not a derp's weight as well).
    load = formulas.cabin_load(len(design.crew), len(cargo) + len(systems), design.rations,
                               rules.economy.derps.mass, comps)
    if design.fuel < 0 or design.rations < 0:
        problems.append("fuel and rations cannot be negative")
    per_container = comps.rations_derp_turns_per_container
    if comps.rations_loaded_in_containers and design.rations % per_container:
        low = design.rations // per_container * per_container
        problems.append(f"rations are loaded in whole containers of {per_container} derp-turns: load {low} or "
                        f"{low + per_container}, not {design.rations}")
    if (design.crew or cargo or design.rations or systems) and not capsules:
        problems.append("crew, underped systems, payloads, RCS and rations must ride in a capsule or habitat")
    elif load > capacity:
        robots = f", underped systems {len(systems)}" if systems else ""
        rations_mass = formulas.rations_mass(design.rations, comps)
        problems.append(f"the capsules carry {capacity} but the load is {_mass(load)} "
                        f"(crew {derp_mass}{robots}, payloads and RCS {len(cargo)}, rations {_mass(rations_mass)})")
    if (design.crew or systems) and "capsule" not in [role_of[c] for c in capsules]:
        problems.append("a crew needs a capsule to fly in (a habitat cannot steer)")

    t_class = thrust_class(thruster_mass, capsule_mass, rules)
    if t_class == "too_small":
        need = formulas.required_thruster_mass(capsule_mass, comps.thruster.min_ratio)
        problems.append(f"the thrusters mass {thruster_mass} but must mass at least {need} "
                        f"(a tenth of the {capsule_mass} of capsules they push)")
    if design.fuel and not thrusters:
        notes.append("fuel is aboard but there is no thruster to burn it")

    home = state.programs[program]
    if on_board_of is None:
        if design.fuel > home.fuel_stock:
            problems.append(f"you have {home.fuel_stock} fuel at home, not {design.fuel}")
        if design.rations > home.rations_stock:
            problems.append(f"you have {home.rations_stock} derp-turns of rations at home, not {design.rations}")

    module_mass = sum([resolved[m][1].mass for m in modules])
    dry = formulas.spacecraft_mass(module_mass, len(design.crew), design.rations, 0, rules.economy.derps.mass, comps)
    spacecraft = formulas.spacecraft_mass(module_mass, len(design.crew), design.rations, design.fuel,
                                          rules.economy.derps.mass, comps)  # dry + fuel, made at once

    stages: list[StageReport] = []
    carried = spacecraft
    max_clusters = 1 if "simplified_stack" in state.setup.options else 2
    if not design.stages:
        problems.append("an Upgoer needs at least one lower stage to leave the ground")
    elif len(design.stages) > max_clusters:
        what = "one lower stage (Simplified Stack)" if max_clusters == 1 else "two lower stages: launch and orbital insertion"
        problems.append(f"too many stages: an Upgoer uses at most {what}")
    limit = comps.clustering.max_stages_per_cluster
    for index in range(len(design.stages) - 1, -1, -1):
        cluster = tuple(s for s in design.stages[index] if s in resolved)
        if not design.stages[index]:
            problems.append(f"stage {index + 1} is empty")
        if limit is not None and len(cluster) > limit:
            problems.append(f"stage {index + 1} clusters {len(cluster)} lower stages; at most {limit} may be clustered")
        lift = sum([resolved[s][1].base_mass for s in cluster])
        mass = sum([resolved[s][1].mass for s in cluster])
        report = StageReport(cluster, lift, mass, carried)
        if cluster and not report.ok:
            label = _stage_label(index, len(design.stages), state)
            problems.append(f"the {label} can lift {lift} but must carry {_mass(carried)}")
        stages.insert(0, report)
        carried = carried + mass

    costs = formulas.burn_costs(dry, design.fuel, design.planned_burns, rules.economy.fuel)
    needed = formulas.fuel_needed(dry, design.planned_burns, rules.economy.fuel)
    if design.planned_burns and len(costs) < design.planned_burns:
        notes.append(f"{design.fuel} fuel covers {len(costs)} of the {design.planned_burns} planned burns; "
                     f"{needed} would cover them all")
    return DesignReport(
        spacecraft_mass=spacecraft, dry_mass=dry, capsule_mass=capsule_mass, capacity=capacity, load=load,
        thruster_mass=thruster_mass, thrust_class=t_class, stages=tuple(stages), total_mass=carried,
        burn_costs=costs, fuel_for_planned_burns=needed, problems=tuple(problems), notes=tuple(notes))


def reads_of_check(state: GameState, program: int, design: UpgoerDesign) -> tuple:
    """Everything ``check_design`` reads of ``state`` for ``design`` checked at home (``on_board_of`` None) that
    decides whether the design is valid, besides the rules: two designs with equal reads have the same
    problems but for names and ids. Ids are read only for what they stand for (each is numbered by its first
    place in the design), so the same parts by other ids read the same; names are not read."""
    items, things = index_by_id(state.items), index_by_id(state.things)
    number: dict[str, int] = {}
    parts = []
    for ids in design.stages + (design.modules,):
        for item_id in ids:
            if item_id in number:
                continue
            number[item_id] = len(number)
            item = items.get(item_id)
            if item is None:
                parts.append(None)
                continue
            thing = things[item.thing_id]
            parts.append((item.owner == program, item.location, thing.kind, thing.mass, thing.base_mass))
    crew_number: dict[str, int] = {}
    crew = []
    if design.crew:
        derps = index_by_id(state.derps)
        for derp_id in design.crew:
            if derp_id in crew_number:
                continue
            crew_number[derp_id] = len(crew_number)
            derp = derps.get(derp_id)
            crew.append(None if derp is None else (derp.owner == program, derp.system, derp.dead, derp.injured,
                                                   derp.busy, derp.location))
    home = state.programs[program]
    return (tuple([tuple([number[i] for i in cluster]) for cluster in design.stages]),
            tuple([number[i] for i in design.modules]), tuple([crew_number[d] for d in design.crew]),
            design.fuel, design.rations, design.planned_burns, tuple(parts), tuple(crew),
            design.fuel <= home.fuel_stock, design.rations <= home.rations_stock,
            "simplified_stack" in state.setup.options)


class DesignValidity:
    """Whether designs pass ``check_design``, kept per distinct ``reads_of_check``: the bots' suggested
    designs are asked for before every R&D action, and the same parts make the same design all turn. A valid
    design's total mass is kept with the answer (Assemble's story tells it); a refused design's problems are
    not (their words name the stocks at home, which the reads only compare)."""

    def __init__(self, rules: Rules, limit: int = 4096):
        self.rules = rules
        self.limit = limit
        self._known: dict[tuple, Optional[Fraction]] = {}

    def __call__(self, state: GameState, program: int, design: UpgoerDesign) -> bool:
        return self.total_mass_if_valid(state, program, design) is not None

    def total_mass_if_valid(self, state: GameState, program: int, design: UpgoerDesign) -> Optional[Fraction]:
        """``check_design``'s total mass of ``design`` at home when it is valid, else None."""
        key = reads_of_check(state, program, design)
        try:
            return self._known[key]
        except KeyError:
            pass
        report = check_design(state, program, design, self.rules)
        mass = report.total_mass if report.valid else None
        if len(self._known) >= self.limit:
            self._known.clear()
        self._known[key] = mass
        return mass


def _stage_label(index: int, count: int, state: GameState) -> str:
    if count == 1:
        return "lower stage"
    return "launch stage" if index == 0 else "orbital insertion stage"


def _mass(value: Fraction) -> str:
    """A mass as the seed writes it: whole, or a decimal (a Fraction or a whole number)."""
    return str(value.numerator) if value.denominator == 1 else f"{float(value):g}"
