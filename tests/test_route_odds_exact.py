"""Route odds in whole numbers equal the Fraction-at-every-step reading they replaced, exactly.

``plan_route`` multiplies cached per-roll counts over one common denominator and divides once; the
reference below is the former formula (a Fraction per roll, added and multiplied leg by leg).
"""
from __future__ import annotations

import itertools
from fractions import Fraction
from functools import lru_cache

import pytest

from game.games.whatgoesup.rules import formulas
from game.games.whatgoesup.rules.dice import cluster_distribution
from game.games.whatgoesup.rules.engine import Engine
from game.games.whatgoesup.rules.planning import _capsule_damage, plan_route, route_legs
from game.games.whatgoesup.rules.reliability import Outcome, Rating, outcome_counts, outcome_odds, penalised
from game.games.whatgoesup.rules.scenario import give_derp, give_stock, give_thing, place_in_space
from game.games.whatgoesup.rules.state import PlayerSetup, Setup, UpgoerDesign
from game.games.whatgoesup.rules.tables import load_rules

LUNAR_ROUTE = ["low_burn_1", "high_transfer", "sync_1", "sync_burn_1", "lunar_transfer", "lunar_orbit_insertion",
               "low_lunar_1", "low_lunar_burn_1", "lunar_landing", "lunar_surface", "low_lunar_3", "low_lunar_burn_3"]


def reference_chance(engine, state, upgoer_id, steps) -> Fraction:
    """The route's chance with a Fraction at every step (the formula before the whole-number one)."""
    flight = engine.flight_rules
    upgoer = state.upgoer(upgoer_id)
    legs = route_legs(engine, state, upgoer.location, steps)
    thrusters = flight._modules(state, upgoer, "thruster")
    capsules = flight._modules(state, upgoer, "capsule")
    dry = flight.spacecraft_mass(state, upgoer) - upgoer.fuel
    limits = engine.rules.economy.reliability
    thruster_rating = max((engine.item_rating(state, t) for t in thrusters), key=Rating.score, default=None)
    capsule_rating = max((engine.item_rating(state, c) for c in capsules), key=Rating.score, default=None)
    damage = _capsule_damage(engine)
    distribution = engine.rules.dice.scheme(state.setup.dice).distribution()

    @lru_cache(maxsize=None)
    def chance(index, fuel, booms):
        if index == len(legs):
            return Fraction(1)
        if legs[index].burn:
            return burn(index, fuel, booms, legs[index].kind == "lunar_landing")
        return arrive(index, fuel, booms)

    @lru_cache(maxsize=None)
    def arrive(index, fuel, booms):
        kind = legs[index].kind
        if kind in ("orbit", "transit", "surface", "reentry", "landing", "lunar_landing"):
            if capsule_rating is None:
                return Fraction(0) if kind in ("reentry", "landing") else chance(index + 1, fuel, booms)
            o = outcome_odds(distribution, penalised(capsule_rating, damage[0] * booms, damage[1] * booms,
                                                     limits.bounds))
            if kind != "lunar_landing":
                return (o[Outcome.OK] + o[Outcome.FAIL]) * chance(index + 1, fuel, booms)
        return chance(index + 1, fuel, booms)

    @lru_cache(maxsize=None)
    def burn(index, fuel, booms, crash_on_boom):
        if len(thrusters) - booms <= 0 or thruster_rating is None or capsule_rating is None:
            return Fraction(0)
        cost = formulas.fuel_for_burn(dry + fuel, engine.rules.economy.fuel)
        if cost > fuel:
            return Fraction(0)
        o = outcome_odds(distribution, penalised(thruster_rating, limits.boom_penalty_fail * booms,
                                                 limits.boom_penalty_boom * booms, limits.bounds))
        total = o[Outcome.OK] * arrive(index, fuel - cost, booms)
        total += o[Outcome.FAIL] * burn(index, fuel - cost, booms, crash_on_boom)
        if not crash_on_boom:
            total += o[Outcome.BOOM] * burn(index, fuel - cost, booms + 1, crash_on_boom)
        return total

    return chance(0, upgoer.fuel, 0)


@pytest.fixture(scope="module")
def rules():
    return load_rules()


def moon_craft(rules, capsule: str, thruster: str, thrusters: int, fuel: int):
    engine = Engine(rules)
    state = engine.new_game(Setup((PlayerSetup("Odds", rules.peoples.peoples[0].id),)))
    state, _, cap = give_thing(state, rules, 0, "capsule", 6, capsule, count=1)
    state, _, thr = give_thing(state, rules, 0, "thruster", 3, thruster, count=thrusters)
    state, derp = give_derp(state, 0, "Ace", piloting=2, engineering=2, stamina=3)
    state = give_stock(state, 0, fuel=fuel, rations=8)
    design = UpgoerDesign("Odds Moon", modules=(cap[0],) + tuple(thr), crew=(derp,), fuel=fuel, rations=8)
    state, upgoer = place_in_space(state, engine, 0, design, "low_1")
    return engine, state, upgoer


@pytest.mark.parametrize("capsule,thruster", list(itertools.product(["15/18", "12/17", "9/14", "17/19"],
                                                                    ["15/18", "10/16", "13/19"])))
def test_route_chance_equals_the_fraction_reading_on_every_prefix(rules, capsule, thruster):
    seen = set()
    for thrusters, fuel in itertools.product([1, 2], [8, 30]):
        engine, state, upgoer = moon_craft(rules, capsule, thruster, thrusters, fuel)
        for length in range(1, len(LUNAR_ROUTE) + 1):
            steps = LUNAR_ROUTE[:length]
            planned = plan_route(engine, state, upgoer, steps).chance_to_complete
            assert type(planned) is Fraction
            assert planned == reference_chance(engine, state, upgoer, steps)
            seen.add(planned)
    assert len(seen) > 5  # the cases differ: ratings, fuel and thrusters all change the answer


def test_counts_are_the_odds_over_one_denominator(rules):
    singles = [scheme.distribution() for scheme in rules.dice.schemes]
    clustered = [cluster_distribution(singles[0], count, 3) for count in (2, 3, 4)]
    for distribution, (fail, boom) in itertools.product(singles + clustered,
                                                        itertools.combinations(range(0, 22), 2)):
        rating = Rating(fail, boom)
        ok_count, fail_count, boom_count, whole = outcome_counts(distribution, rating)
        odds = outcome_odds(distribution, rating)
        assert ok_count + fail_count + boom_count == whole
        assert (Fraction(ok_count, whole), Fraction(fail_count, whole), Fraction(boom_count, whole)) == \
            (odds[Outcome.OK], odds[Outcome.FAIL], odds[Outcome.BOOM])
