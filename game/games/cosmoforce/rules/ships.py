"""Building a ship: what a roster may hold, and the numbers that follow from it (each formula once).

- mass: every system mounted adds the class's size;
- crew: ``crew_per_habitat`` for every habitat, all ready at the start;
- starting speed: one per engine, plus the afterburner's bonus (once, however many are mounted);
- starting heat: engines minus dissipators, never below zero.
"""
from __future__ import annotations

from typing import Optional

from game.games.cosmoforce.rules.state import ShipDesign

# ``rules.tables`` checks its ready-made ships with design_problem, so this module never imports the tables:
# ``classes``, ``systems`` and ``rules`` below are its ShipClasses, Systems and Rules.


def design_problem(classes, systems, design: ShipDesign) -> Optional[str]:
    """Why ``design`` cannot be flown, in a player's words, or None when it can."""
    try:
        ship_class = classes.get(design.ship_class)
    except KeyError:
        known = ", ".join(c.id for c in classes.classes)
        return f"there is no ship class '{design.ship_class}' (the classes are {known})"
    if not design.systems:
        return f"{design.name} has no systems; mount at least a habitat"
    if len(design.systems) > classes.max_systems:
        return f"{design.name} mounts {len(design.systems)} systems; a ship has only {classes.max_systems} slots"
    specials = {c.special: c for c in classes.classes}
    for system_id in design.systems:
        try:
            systems.get(system_id)
        except KeyError:
            return f"there is no system '{system_id}' (the systems are {', '.join(systems.ids)})"
        owner = specials.get(system_id)
        if owner is not None and owner.id != ship_class.id:
            return (f"only a {owner.name.lower()} can mount the {systems.get(system_id).name.lower()}; "
                    f"{design.name} is a {ship_class.name.lower()}")
    habitats = {s.id for s in systems.with_role("habitat")}
    if not any(s in habitats for s in design.systems):
        return f"{design.name} has no habitat, so no crew; mount at least one"
    return None


def count_role(rules, systems: tuple[str, ...], role: str) -> int:
    return sum(1 for s in systems if rules.system_role(s) == role)


def mass(rules, design: ShipDesign) -> int:
    return rules.classes.get(design.ship_class).size * len(design.systems)


def crew_max(rules, design: ShipDesign) -> int:
    return rules.classes.get(design.ship_class).crew_per_habitat * count_role(rules, design.systems, "habitat")


def starting_speed(rules, design: ShipDesign) -> int:
    bonus = rules.combat.start.afterburner_speed if count_role(rules, design.systems, "afterburner") else 0
    return count_role(rules, design.systems, "engine") + bonus


def starting_heat(rules, design: ShipDesign) -> int:
    return max(0, count_role(rules, design.systems, "engine") - count_role(rules, design.systems, "dissipator"))


def habitat_capacity(rules, ship_class: str, slots) -> int:
    """How many crew the habitats not destroyed can house (``slots``: the ship's SystemStates)."""
    per = rules.classes.get(ship_class).crew_per_habitat
    return per * sum(1 for s in slots if rules.system_role(s.kind) == "habitat" and not s.destroyed)
