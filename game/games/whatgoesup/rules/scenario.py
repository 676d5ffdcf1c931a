"""Building game states for tests, tutorials and bots: give a program ready-made hardware.

These helpers go through the same state values as play does; they only skip the R&D spending,
so a scenario can start with a researched rocket on the pad.
"""
from __future__ import annotations

import dataclasses
import functools
from typing import Optional

from game.games.whatgoesup.rules import formulas
from game.games.whatgoesup.rules.reliability import Rating
from game.games.whatgoesup.rules.state import Derp, GameState, Item, Thing, Upgoer, replace_in, update, with_program


def give_thing(state: GameState, rules, program: int, kind: str, mass: int, rating: str = "10/15",
               count: int = 0, name: Optional[str] = None, reusable: bool = False, flown: bool = True
               ) -> tuple[GameState, str, list[str]]:
    """Add a blueprint (and ``count`` built copies) to a program. Returns (state, thing id, item ids)."""
    thing_id = f"T{state.next_id}"
    state = dataclasses.replace(state, next_id=state.next_id + 1)
    comp = rules.components.kind(kind)
    thing = Thing(id=thing_id, owner=program, name=name or f"{comp.name} {thing_id}", kind=kind, base_mass=mass,
                  mass=formulas.thing_mass(mass, reusable, rules.components), reusable=reusable,
                  rating=Rating.parse(rating), inventor=program, flown=flown, flown_successfully=flown)
    state = dataclasses.replace(state, things=state.things + (thing,))
    items = []
    for _ in range(count):
        item_id = f"I{state.next_id}"
        state = dataclasses.replace(state, next_id=state.next_id + 1)
        state = dataclasses.replace(state, items=state.items + (Item(item_id, thing_id, program, uses_left=comp.uses),))
        items.append(item_id)
    return state, thing_id, items


def give_derp(state: GameState, program: int, name: str, piloting: int = 0, engineering: int = 0,
              stamina: int = 2, *, current_stamina: Optional[int] = None, rules=None) -> tuple[GameState, str]:
    """Add a healthy derp at home with trained ``piloting``/``engineering``/``stamina`` (the maximum) and
    ``current_stamina`` left (default: all of it). Returns (state, derp id).

    Refuses, with a ValueError that says why, a derp no game under ``rules`` (default: the shipped
    edition) can have: fewer points than a new hire, more than a derp may train, or more stamina left
    than the maximum.
    """
    problem = impossible_derp(rules or _shipped_rules(), name, piloting, engineering, stamina,
                              stamina if current_stamina is None else current_stamina)
    if problem:
        raise ValueError(problem)
    derp_id = f"D{state.next_id}"
    derp = Derp(derp_id, program, name, piloting, engineering, stamina,
                stamina if current_stamina is None else current_stamina)
    return dataclasses.replace(state, next_id=state.next_id + 1, derps=state.derps + (derp,)), derp_id


def impossible_derp(rules, name: str, piloting: int, engineering: int, stamina: int,
                    current_stamina: int) -> Optional[str]:
    """Why no derp under ``rules`` can have these numbers, or None when one can.

    A derp is hired with the start values and only training raises them (healing resets stamina to
    ``heal_to_stamina``), so no number falls below the lower of those, and the three trained numbers
    together never exceed ``max_total_points``.
    """
    limits = rules.economy.derps
    total = piloting + engineering + stamina
    if total > limits.max_total_points:
        return (f"{name} would have {total} points (Piloting {piloting} + Engineering {engineering} + Stamina "
                f"{stamina}); a derp can have at most {limits.max_total_points}")
    for skill, value, least in (("Piloting", piloting, limits.start_piloting),
                                ("Engineering", engineering, limits.start_engineering),
                                ("Stamina", stamina, min(limits.start_stamina, limits.heal_to_stamina))):
        if value < least:
            return f"{name} would have {skill} {value}; every derp has at least {least}"
    if not 0 <= current_stamina <= stamina:
        return f"{name} would have {current_stamina} stamina left of a maximum of {stamina}"
    return None


@functools.lru_cache(maxsize=1)
def _shipped_rules():
    from game.games.whatgoesup.rules.tables import load_rules

    return load_rules()


def give_stock(state: GameState, program: int, points: int = 0, fuel: int = 0, rations: int = 0,
               luck: int = 0) -> GameState:
    p = state.programs[program]
    return with_program(state, update(p, points=p.points + points, fuel_stock=p.fuel_stock + fuel,
                                      rations_stock=p.rations_stock + rations, luck=p.luck + luck))


def place_in_space(state: GameState, engine, program: int, design, step_id: str) -> tuple[GameState, str]:
    """Put ``design`` (built from the program's storage) straight into flight at ``step_id``.

    For scenarios that start mid-mission (tests, tutorials): no lower stages are needed, and parts keep
    the ratings a launch would fix. Every other design problem is refused. The underped systems among the
    parts come aboard as crew, as an assembly takes them (still powered down: no launch powered them up).
    Returns (state, upgoer id).
    """
    report = engine.check_design(state, program, design)
    problems = [p for p in report.problems if "lower stage" not in p and "stage" not in p.split(":")[0]]
    if problems:
        raise ValueError("; ".join(problems))
    upgoer_id = f"U{state.next_id}"
    crew = design.crew + tuple(d.id for d in state.derps if d.system is not None and d.system in design.modules)
    upgoer = Upgoer(id=upgoer_id, owner=program, name=design.name, stages=(), modules=design.modules,
                    crew=crew, fuel=design.fuel, rations=design.rations, location=step_id, status="flying",
                    launched_turn=state.turn)
    items = [update(state.item(i), location=upgoer_id) for i in design.modules]
    items = [update(i, fixed_rating=engine.own_rating(state, i)) for i in items]  # the damage kept apart
    derps = [update(state.derp(d), location=upgoer_id) for d in crew]
    p = state.programs[program]
    state = with_program(state, update(p, fuel_stock=p.fuel_stock - design.fuel,
                                       rations_stock=p.rations_stock - design.rations))
    state = dataclasses.replace(state, next_id=state.next_id + 1, upgoers=state.upgoers + (upgoer,),
                                items=replace_in(state.items, items), derps=replace_in(state.derps, derps))
    return state, upgoer_id
