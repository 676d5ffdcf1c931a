"""The mass and fuel formulas. Each formula lives here once; everything else calls it."""
from __future__ import annotations

import math
from fractions import Fraction

from game.games.whatgoesup.rules.tables import Components, Fuel


def ceil_fraction(value: Fraction | int) -> int:
    """The least whole number not below ``value``, exactly (a whole number as it is, no Fraction made)."""
    if type(value) is int:
        return value
    return math.ceil(value if type(value) is Fraction else Fraction(value))


def thing_mass(base_mass: int, reusable: bool, components: Components) -> int:
    """Total mass of a thing: a reusable one masses a fifth extra, rounded up."""
    if not reusable:
        return base_mass
    return base_mass + ceil_fraction(base_mass * components.reusable_extra_mass)


def capsule_mass_for_capacity(capacity: int, components: Components) -> int:
    """Mass a capsule (or habitat) needs in order to carry ``capacity`` mass.

    2014: it carries X and masses X plus a tenth of X, rounded up (carries 9 -> masses 10;
    carries 14 -> masses 16). 2013: it carries its own mass minus one.
    """
    if capacity <= 0:
        return 0
    if components.capsule.capacity_rule == "minus_one":
        return max(components.capsule.min_mass, capacity + 1)
    return max(components.capsule.min_mass, capacity + -(-capacity // 10))  # a tenth, rounded up


def capsule_capacity(mass: int, components: Components) -> int:
    """The most a capsule or habitat of ``mass`` (without its reusable extra) can carry."""
    if mass < components.capsule.min_mass:
        return 0
    best = 0
    # The mass formula is monotonic, so the capacity is the largest X whose mass fits.
    low, high = 0, mass
    while low <= high:
        middle = (low + high) // 2
        if capsule_mass_for_capacity(middle, components) <= mass:
            best, low = middle, middle + 1
        else:
            high = middle - 1
    return best


def rations_mass(derp_turns: int, components: Components) -> Fraction:
    """Rations mass half a container per derp-turn (a container holds two derp-turns and masses 1)."""
    return with_rations(0, derp_turns, components)


def with_rations(mass: int, derp_turns: int, components: Components) -> Fraction:
    """``mass`` plus the mass of ``derp_turns`` of rations (``rations_mass``), made as one Fraction over the
    rations' denominator: the masses below are asked thousands of times a game, and one Fraction is a third of
    the work of three made and added."""
    per = components.rations_derp_turns_per_container
    return Fraction(mass * per + derp_turns, per)


def ration_load(wanted: int, components: Components, up: bool = True) -> int:
    """``wanted`` derp-turns of rations as an Upgoer loads them: whole containers (rounded up, or down with
    ``up=False``) when ``rations_loaded_in_containers``, else as they are."""
    per = components.rations_derp_turns_per_container
    if not components.rations_loaded_in_containers or wanted % per == 0:
        return wanted
    return (wanted // per + (1 if up else 0)) * per


def cabin_load(crew: int, cargo_parts: int, rations: int, derp_mass: int, components: Components) -> Fraction:
    """What capsules and habitats carry: crew, payloads and RCS (mass 1 each), and rations."""
    return with_rations(derp_mass * crew + cargo_parts, rations, components)


def spacecraft_mass(module_mass: int, crew: int, rations: int, fuel: int, derp_mass: int,
                    components: Components) -> Fraction:
    """Mass for the fuel formula: capsules and what they carry, thrusters, payloads, and all the fuel."""
    return with_rations(spacecraft_mass_but_rations(module_mass, crew, fuel, derp_mass), rations, components)


def spacecraft_mass_but_rations(module_mass: int, crew: int, fuel: int, derp_mass: int) -> int:
    """``spacecraft_mass`` with no rations aboard, a whole number: what rations, which only add, are put on."""
    return module_mass + derp_mass * crew + fuel


def fuel_for_burn(spacecraft_mass: Fraction | int, fuel: Fuel) -> int:
    """Fuel one burn costs, successful or not: the spacecraft's mass over ten, rounded up.

    With ``rounding: drop_digit_plus_one`` it follows the seed's worked trick (remove the last
    digit, add one), which costs one more at exact multiples of ten.
    """
    # In whole numbers: the mass as numerator over denominator, over the whole mass per fuel point (a burn's check
    # and every fuel preview ask this; Fraction's division and rounding cost several times as much, same answers).
    kind = type(spacecraft_mass)
    if kind is int:
        top, bottom = spacecraft_mass, 1
    else:
        top, bottom = (spacecraft_mass if kind is Fraction else Fraction(spacecraft_mass)).as_integer_ratio()
    if top <= 0:
        return 0
    bottom *= fuel.mass_per_fuel_point
    if fuel.rounding == "drop_digit_plus_one":
        return top // bottom + 1
    return -(-top // bottom)


def burn_costs(dry_mass: Fraction | int, fuel_aboard: int, burns: int, fuel: Fuel) -> tuple[int, ...]:
    """Fuel spent by each of ``burns`` burns in a row, starting with ``fuel_aboard`` fuel.

    The spacecraft gets lighter as fuel burns. Stops early when the fuel runs out.
    """
    costs = []
    remaining = fuel_aboard
    for _ in range(burns):
        cost = fuel_for_burn(Fraction(dry_mass) + remaining, fuel)
        if cost > remaining:
            break
        costs.append(cost)
        remaining -= cost
    return tuple(costs)


def fuel_needed(dry_mass: Fraction | int, burns: int, fuel: Fuel, reserve: int = 0) -> int:
    """Least fuel that lets ``burns`` burns succeed in a row, worked backwards from the last burn.

    ``reserve`` is fuel still left after the last burn (a safety factor). ValueError when fuel cannot pay
    for its own mass (one fuel point per mass point), since then no amount of fuel is enough.
    """
    aboard = reserve
    for _ in range(burns):
        aboard += _least_self_paying_extra(Fraction(dry_mass) + aboard, fuel)
    return aboard


def _least_self_paying_extra(mass: Fraction, fuel: Fuel) -> int:
    """The least ``extra`` fuel for which a burn at ``mass + extra`` costs at most ``extra``.

    Found by bisection: adding a point of fuel adds at most a point to the burn's cost (a fuel point
    moves at least one mass point), so "the burn pays for itself" stays true once it is.
    """
    def pays(extra: int) -> bool:
        return fuel_for_burn(mass + extra, fuel) <= extra

    if pays(0):
        return 0
    if fuel.mass_per_fuel_point <= 1:
        raise ValueError("a fuel point moves only its own mass here, so no amount of fuel pays for a burn")
    low, high = 0, 1  # pays(low) is false throughout
    while not pays(high):
        low, high = high, high * 2
    while high - low > 1:
        middle = (low + high) // 2
        if pays(middle):
            high = middle
        else:
            low = middle
    return high


def required_thruster_mass(capsule_mass: int, ratio: Fraction) -> int:
    """Least thruster mass for pushing ``capsule_mass`` of capsules at ``ratio`` (1/10, 1/2, 1)."""
    return -(-capsule_mass * ratio.numerator // ratio.denominator)  # rounded up, in whole numbers
