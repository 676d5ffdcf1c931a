"""The mass and fuel formulas of the 2014 rules, one test per rule sentence.

Each docstring says, in our own words, which sentence of the rules the test checks. Worked
numbers from the rules text are used where the text gives them.
"""
from __future__ import annotations

import dataclasses
import math
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from game.games.whatgoesup.rules import formulas
from game.games.whatgoesup.rules.tables import load_rules

RULES = load_rules()
COMPONENTS = RULES.components
FUEL = RULES.economy.fuel


# ---------------------------------------------------------------- the fuel formula
def test_burn_cost_worked_example_mass_24_costs_3():
    """A burn costs the spacecraft's mass divided by ten, rounded up: a mass of 24 costs 3."""
    assert formulas.fuel_for_burn(24, FUEL) == 3


def test_burn_worked_example_18_fuel_leaves_15():
    """The rules' example: a spacecraft of mass 24, 18 of it fuel, burns 3 and has 18 - 3 = 15 fuel left."""
    dry_mass = 24 - 18
    costs = formulas.burn_costs(dry_mass, 18, 1, FUEL)
    assert costs == (3,)
    assert 18 - sum(costs) == 15


def test_burns_get_cheaper_as_fuel_is_used():
    """The less fuel is left aboard, the cheaper each burn: every burn is priced at the mass at that moment."""
    costs = formulas.burn_costs(6, 18, 10, FUEL)
    # 24 -> 3, 21 -> 3, 18 -> 2, 16 -> 2, 14 -> 2, 12 -> 2, 10 -> 1, 9 -> 1, 8 -> 1, 7 -> 1
    assert costs == (3, 3, 2, 2, 2, 2, 1, 1, 1, 1)
    assert sum(costs) == 18
    assert list(costs) == sorted(costs, reverse=True)


def test_burn_costs_stop_when_the_fuel_runs_out():
    """A burn needs its whole cost in fuel aboard; the sequence stops at the first burn that cannot be paid."""
    costs = formulas.burn_costs(6, 5, 10, FUEL)
    # 11 -> 2 (3 left), 9 -> 1 (2 left), 8 -> 1 (1 left), 7 -> 1 (0 left), then nothing
    assert costs == (2, 1, 1, 1)


@pytest.mark.parametrize("mass, cost", [(1, 1), (9, 1), (11, 2), (19, 2), (21, 3), (24, 3), (29, 3),
                                        (Fraction(49, 2), 3), (Fraction(41, 2), 3), (99, 10), (101, 11)])
def test_burn_cost_is_mass_over_ten_rounded_up(mass, cost):
    """Divide the spacecraft's mass by ten and round up (removing the last digit and adding one);
    half masses from rations round up the same way."""
    assert formulas.fuel_for_burn(mass, FUEL) == cost


@settings(max_examples=400, deadline=None)
@given(st.fractions(min_value=-50, max_value=5000) | st.integers(-50, 5000), st.integers(1, 1000),
       st.sampled_from(["ceil", "drop_digit_plus_one"]))
def test_burn_cost_in_whole_numbers_is_the_fraction_formula(mass, per_point, rounding):
    """``fuel_for_burn`` works in whole numbers; it gives exactly what the formula over Fractions gives (the mass
    over the mass per fuel point, rounded up, or with drop_digit_plus_one its floor plus one; nothing for no mass)."""
    fuel = dataclasses.replace(FUEL, mass_per_fuel_point=per_point, rounding=rounding)
    exact = Fraction(mass) / per_point
    expected = 0 if mass <= 0 else (math.floor(exact) + 1 if rounding == "drop_digit_plus_one" else math.ceil(exact))
    assert formulas.fuel_for_burn(mass, fuel) == expected


def test_fuel_needed_is_the_least_fuel_for_all_planned_burns():
    """The hint: work the burns out backwards from the dry mass. The result must be the least fuel that
    pays for every burn in a row (checked against a brute-force search)."""
    for dry in range(1, 41):
        for burns in range(0, 5):
            needed = formulas.fuel_needed(dry, burns, FUEL)
            least = next(f for f in range(0, 500) if len(formulas.burn_costs(dry, f, burns, FUEL)) == burns)
            assert needed == least, (dry, burns)


def test_fuel_needed_for_the_worked_example():
    """Working backwards: a dry mass of 6 needs one fuel for its last burn (mass 7 costs 1)."""
    assert formulas.fuel_needed(6, 1, FUEL) == 1
    assert formulas.fuel_needed(6, 0, FUEL) == 0


# ---------------------------------------------------------------- capsules
def test_capsule_of_mass_10_carries_9():
    """A capsule masses what it carries plus a tenth, rounded up: mass 10 carries 9."""
    assert formulas.capsule_capacity(10, COMPONENTS) == 9
    assert formulas.capsule_mass_for_capacity(9, COMPONENTS) == 10


def test_capsule_of_mass_16_carries_14():
    """The rules' second example: a capsule of mass 16 carries 14."""
    assert formulas.capsule_capacity(16, COMPONENTS) == 14
    assert formulas.capsule_mass_for_capacity(14, COMPONENTS) == 16


def test_capsule_must_mass_at_least_2_to_carry_anything():
    """A capsule must mass at least 2 to carry anything: mass 1 carries nothing, mass 2 carries 1."""
    assert formulas.capsule_capacity(1, COMPONENTS) == 0
    assert formulas.capsule_capacity(0, COMPONENTS) == 0
    assert formulas.capsule_capacity(2, COMPONENTS) == 1
    assert formulas.capsule_mass_for_capacity(1, COMPONENTS) == 2


def test_capsule_capacity_matches_the_mass_formula_everywhere():
    """Capacity is the most X whose mass X + ceil(X / 10) fits in the capsule's mass (brute force, 2..200)."""
    for mass in range(2, 201):
        best = max(x for x in range(0, mass + 1) if x + -(-x // 10) <= mass)
        assert formulas.capsule_capacity(mass, COMPONENTS) == best, mass


# ---------------------------------------------------------------- reusable parts
@pytest.mark.parametrize("base, total", [(10, 12), (5, 6), (3, 4), (1, 2), (20, 24), (11, 14)])
def test_reusable_part_masses_a_fifth_extra(base, total):
    """A reusable capsule or lower stage masses a fifth extra (rounded up)."""
    assert formulas.thing_mass(base, True, COMPONENTS) == total


def test_non_reusable_part_has_no_extra_mass():
    """Only reusable parts carry the extra fifth."""
    assert formulas.thing_mass(10, False, COMPONENTS) == 10


# ---------------------------------------------------------------- thrusters
@pytest.mark.parametrize("capsules, least", [(10, 1), (16, 2), (20, 2), (21, 3), (2, 1)])
def test_thruster_must_mass_a_tenth_of_the_capsules(capsules, least):
    """A thruster must mass at least a tenth of the capsule(s) it carries (rounded up)."""
    assert formulas.required_thruster_mass(capsules, COMPONENTS.thruster.min_ratio) == least


@pytest.mark.parametrize("capsules, least", [(10, 5), (16, 8), (9, 5)])
def test_lunar_landing_thruster_masses_half_the_capsules(capsules, least):
    """To make a lunar landing the thruster must mass half as much as the capsule(s) it carries there."""
    assert formulas.required_thruster_mass(capsules, COMPONENTS.thruster.lunar_landing_ratio) == least


@pytest.mark.parametrize("capsules", [2, 10, 16])
def test_planetary_landing_thruster_masses_as_much_as_the_capsules(capsules):
    """To make a planetary landing the thruster must mass as much as the capsule(s) it carries home."""
    assert formulas.required_thruster_mass(capsules, COMPONENTS.thruster.planetary_landing_ratio) == capsules


# ---------------------------------------------------------------- rations, derps and containers
def test_ration_container_is_two_derp_turns_of_half_a_mass_each():
    """A ration container masses 1 and feeds one derp for two turns or two derps for one: 0.5 per derp-turn."""
    assert COMPONENTS.rations_derp_turns_per_container == 2
    assert formulas.rations_mass(2, COMPONENTS) == 1
    assert formulas.rations_mass(1, COMPONENTS) == Fraction(1, 2)
    assert formulas.rations_mass(7, COMPONENTS) == Fraction(7, 2)


def test_fuel_payload_rcs_and_derp_masses_are_one():
    """A fuel container, a payload item and an RCS always mass 1; a derp with a turn of life support masses 1."""
    assert COMPONENTS.fuel_per_container == 1
    assert COMPONENTS.kind("fuel").fixed_mass == 1
    assert COMPONENTS.kind("rations").fixed_mass == 1
    assert COMPONENTS.kind("rcs").fixed_mass == 1
    for payload in COMPONENTS.kinds_with_role("payload"):
        assert payload.fixed_mass == 1, payload.id
    assert RULES.economy.derps.mass == 1


@settings(max_examples=200, deadline=None)
@given(modules=st.integers(0, 60), crew=st.integers(0, 4), cargo=st.integers(0, 5), rations=st.integers(0, 12),
       fuel=st.integers(0, 40), per=st.integers(1, 4))
def test_spacecraft_and_cabin_masses_are_the_sums_of_their_parts(modules, crew, cargo, rations, fuel, per):
    """The spacecraft masses its modules, its crew, its rations (a container of ``per`` derp-turns masses 1) and
    its fuel; the cabin carries the crew, the payloads and RCS and the rations: exact Fractions, however the
    formulas add them up."""
    components = dataclasses.replace(COMPONENTS, rations_derp_turns_per_container=per)
    rations_mass = formulas.rations_mass(rations, components)
    assert rations_mass == Fraction(rations, per)
    mass = formulas.spacecraft_mass(modules, crew, rations, fuel, 1, components)
    assert type(mass) is Fraction and mass == Fraction(modules + crew) + rations_mass + fuel
    load = formulas.cabin_load(crew, cargo, rations, 1, components)
    assert type(load) is Fraction and load == Fraction(crew + cargo) + rations_mass
    but_rations = formulas.spacecraft_mass_but_rations(modules, crew, fuel, 1)
    assert type(but_rations) is int and but_rations == modules + crew + fuel <= mass  # rations only add


# ---------------------------------------------------------------- properties
@settings(max_examples=200, deadline=None)
@given(dry=st.fractions(min_value=0, max_value=300, max_denominator=2), fuel=st.integers(0, 300),
       burns=st.integers(0, 12))
def test_burn_costs_never_spend_fuel_that_is_not_aboard(dry, fuel, burns):
    """Each burn costs the mass at that moment over ten rounded up, and fuel can never go below zero."""
    costs = formulas.burn_costs(dry, fuel, burns, FUEL)
    remaining = fuel
    for cost in costs:
        assert cost == formulas.fuel_for_burn(dry + remaining, FUEL)
        remaining -= cost
        assert remaining >= 0
    if len(costs) < burns:
        assert formulas.fuel_for_burn(dry + remaining, FUEL) > remaining
