"""Dice schemes, clustered rolls and the Reliability Formula, checked against brute-force enumeration.

Ratings are written Fail/Boom: 5/10 means a roll of 10 or more Booms, 5 to 9 Fails, below 5 works.
"""
from __future__ import annotations

import itertools
import math
from collections import Counter
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from game.games.whatgoesup.rules.dice import cluster_distribution, sample
from game.games.whatgoesup.rules.reliability import Bounds, Outcome, Rating, judge, outcome_odds, penalised, with_raises
from game.games.whatgoesup.rules.tables import load_rules

RULES = load_rules()
BOUNDS = RULES.economy.reliability.bounds
AVERAGE_UP_TO = RULES.components.clustering.average_up_to


def scheme(scheme_id):
    return RULES.dice.scheme(scheme_id)


def enumerate_scheme(dice: int, sides: int, offset: int) -> dict[int, Fraction]:
    """Brute force: every face combination, counted."""
    counts = Counter(sum(faces) + offset for faces in itertools.product(range(1, sides + 1), repeat=dice))
    whole = sides ** dice
    return {value: Fraction(n, whole) for value, n in counts.items()}


# ---------------------------------------------------------------- the dice schemes
def test_d20_is_uniform_from_1_to_20():
    """A single D20: every number from 1 to 20 equally likely."""
    assert scheme("d20").distribution() == tuple((v, Fraction(1, 20)) for v in range(1, 21))


def test_4d6_minus_4_runs_from_0_to_20_with_the_exact_bell():
    """Roll 4D6 and subtract four: 0 to 20, a bell curve; P(10) = 146/1296."""
    dist = dict(scheme("4d6-4").distribution())
    assert min(dist) == 0 and max(dist) == 20
    assert dist[10] == Fraction(146, 1296)
    assert dist[0] == dist[20] == Fraction(1, 1296)
    assert dist == enumerate_scheme(4, 6, -4)


def test_2d10_runs_from_2_to_20():
    """2D10: 2 to 20, exactly as brute-force enumeration gives it (a 1 is never rolled)."""
    dist = dict(scheme("2d10").distribution())
    assert dist == enumerate_scheme(2, 10, 0)
    assert min(dist) == 2 and max(dist) == 20
    assert dist[11] == Fraction(10, 100)


def test_3d8_minus_3_runs_from_0_to_21():
    """3D8 minus 3: 0 to 21, exactly as brute-force enumeration gives it."""
    dist = dict(scheme("3d8-3").distribution())
    assert dist == enumerate_scheme(3, 8, -3)
    assert min(dist) == 0 and max(dist) == 21


@pytest.mark.parametrize("scheme_id", ["d20", "4d6-4", "2d10", "3d8-3"])
def test_every_distribution_sums_to_exactly_one(scheme_id):
    """Every scheme's odds are exact fractions that add up to one, values in ascending order."""
    dist = scheme(scheme_id).distribution()
    assert sum(p for _, p in dist) == 1
    assert all(isinstance(p, Fraction) and p > 0 for _, p in dist)
    assert [v for v, _ in dist] == sorted(v for v, _ in dist)


# ---------------------------------------------------------------- sampling
def _first_float_at_or_above(x: Fraction) -> float:
    f = float(x)
    if Fraction(f) < x:
        f = math.nextafter(f, 2.0)
    return f


@pytest.mark.parametrize("scheme_id", ["d20", "4d6-4", "2d10", "3d8-3"])
def test_sample_bands_are_exactly_the_probabilities(scheme_id):
    """The app rolls by mapping a uniform number in [0, 1) to a value: each value owns the band
    [P(below it), P(up to it)), so it comes up with exactly its probability. Checked at every boundary
    with the floats just below and at the boundary."""
    dist = scheme(scheme_id).distribution()
    assert sample(dist, 0.0) == dist[0][0]
    assert sample(dist, math.nextafter(1.0, 0.0)) == dist[-1][0]
    running = Fraction(0)
    for (value, p), (next_value, _) in zip(dist, dist[1:]):
        running += p
        at = _first_float_at_or_above(running)
        assert sample(dist, math.nextafter(at, 0.0)) == value
        assert sample(dist, at) == next_value


@pytest.mark.parametrize("bad", [1.0, -0.1, 1.5])
def test_sample_refuses_numbers_outside_zero_one(bad):
    """Only uniform numbers in [0, 1) are valid draws."""
    with pytest.raises(ValueError, match=r"\[0, 1\)"):
        sample(scheme("d20").distribution(), bad)


@settings(max_examples=300, deadline=None)
@given(u=st.floats(min_value=0, max_value=1, exclude_max=True),
       scheme_id=st.sampled_from(["d20", "4d6-4", "2d10", "3d8-3"]))
def test_sample_lands_in_the_band_that_contains_the_draw(u, scheme_id):
    """For any draw u, the sampled value v satisfies P(roll < v) <= u < P(roll <= v)."""
    dist = scheme(scheme_id).distribution()
    v = sample(dist, u)
    below = sum((p for value, p in dist if value < v), Fraction(0))
    assert below <= Fraction(u) < below + dict(dist)[v]


def test_faces_for_shows_dice_that_add_up_to_the_value():
    """The dice animation lands on faces that really make the decided value."""
    for scheme_id in ("d20", "4d6-4", "2d10", "3d8-3"):
        s = scheme(scheme_id)
        for value, _ in s.distribution():
            faces = s.faces_for(value)
            assert len(faces) == s.dice and all(1 <= f <= s.sides for f in faces)
            assert sum(faces) + s.offset == value


# ---------------------------------------------------------------- clustered lower stages
def brute_cluster(single, count, combine):
    out: dict[int, Fraction] = {}
    for combo in itertools.product(single, repeat=count):
        value = combine([v for v, _ in combo])
        p = math.prod((q for _, q in combo), start=Fraction(1))
        out[value] = out.get(value, Fraction(0)) + p
    return {v: p for v, p in out.items() if p}


def average_up(values):
    return math.ceil(Fraction(sum(values), len(values)))


@pytest.mark.parametrize("scheme_id", ["d20", "4d6-4", "2d10", "3d8-3"])
def test_two_clustered_stages_roll_the_average_rounded_up(scheme_id):
    """Two lower stages clustered together use the average of their rolls, rounded up."""
    single = scheme(scheme_id).distribution()
    got = dict(cluster_distribution(single, 2, AVERAGE_UP_TO))
    assert got == brute_cluster(single, 2, average_up)
    assert sum(got.values()) == 1


def test_two_clustered_d20s_round_half_up():
    """Rolls of 3 and 4 average 3.5, which rounds up to 4: P(1) is only the 1-1 pair."""
    got = dict(cluster_distribution(scheme("d20").distribution(), 2, AVERAGE_UP_TO))
    assert got[1] == Fraction(1, 400)  # (1,1) only; (1,2) averages 1.5 -> 2
    assert got[20] == Fraction(3, 400)  # (20,20), (19,20), (20,19)


@pytest.mark.parametrize("scheme_id, count", [("d20", 3), ("d20", 4), ("4d6-4", 3), ("3d8-3", 3)])
def test_more_than_two_clustered_stages_roll_the_highest(scheme_id, count):
    """Clustering more than two stages is far more dangerous: the highest of the rolls is used."""
    single = scheme(scheme_id).distribution()
    got = dict(cluster_distribution(single, count, AVERAGE_UP_TO))
    assert got == brute_cluster(single, count, max)


def test_a_single_stage_rolls_the_plain_die():
    """An unclustered stage rolls normally."""
    single = scheme("d20").distribution()
    assert cluster_distribution(single, 1, AVERAGE_UP_TO) == single


def test_three_clustered_stages_are_more_dangerous_than_two():
    """Against a 10/15 stage, three clustered stages (highest roll) Boom more often than two (average)."""
    single = scheme("d20").distribution()
    rating = Rating(10, 15)
    two = outcome_odds(cluster_distribution(single, 2, AVERAGE_UP_TO), rating)
    three = outcome_odds(cluster_distribution(single, 3, AVERAGE_UP_TO), rating)
    assert three[Outcome.BOOM] > outcome_odds(single, rating)[Outcome.BOOM] > two[Outcome.BOOM]


# ---------------------------------------------------------------- the Reliability Formula
@pytest.mark.parametrize("roll, outcome", [(1, Outcome.OK), (4, Outcome.OK), (5, Outcome.FAIL), (9, Outcome.FAIL),
                                           (10, Outcome.BOOM), (20, Outcome.BOOM)])
def test_roll_at_or_above_boom_booms_else_at_or_above_fail_fails(roll, outcome):
    """Against 5/10: a roll of 10 or more Booms; otherwise 5 or more Fails; lower works."""
    assert judge(roll, Rating(5, 10)) is outcome


def test_outcome_odds_on_a_d20():
    """Against 5/10 on a D20: OK on 1-4 (4/20), Fail on 5-9 (5/20), Boom on 10-20 (11/20)."""
    odds = outcome_odds(scheme("d20").distribution(), Rating(5, 10))
    assert odds == {Outcome.OK: Fraction(4, 20), Outcome.FAIL: Fraction(5, 20), Outcome.BOOM: Fraction(11, 20)}


@pytest.mark.parametrize("scheme_id", ["d20", "4d6-4", "2d10", "3d8-3"])
@pytest.mark.parametrize("rating", [Rating(1, 2), Rating(5, 10), Rating(10, 15), Rating(19, 20), Rating(22, 23)])
def test_outcome_odds_match_brute_force(scheme_id, rating):
    """The odds shown to the player are exactly those of rolling the dice and judging each result."""
    s = scheme(scheme_id)
    expected = {o: Fraction(0) for o in Outcome}
    whole = s.sides ** s.dice
    for faces in itertools.product(range(1, s.sides + 1), repeat=s.dice):
        expected[judge(sum(faces) + s.offset, rating)] += Fraction(1, whole)
    assert outcome_odds(s.distribution(), rating) == expected


def test_perfect_part_still_booms_on_a_natural_20():
    """19/20 is the best a part can be: on a D20 it still Booms on 20 and Fails on 19."""
    odds = outcome_odds(scheme("d20").distribution(), Rating(19, 20))
    assert odds[Outcome.BOOM] == Fraction(1, 20) and odds[Outcome.FAIL] == Fraction(1, 20)


def test_rating_bounds_are_shoddy_1_2_and_excellent_19_20():
    """A shoddily built part is 1/2 and an excellent one 19/20; these are hard limits."""
    assert BOUNDS == Bounds(Rating(1, 2), Rating(19, 20))


@pytest.mark.parametrize("rating, fail_pen, boom_pen, expected", [
    (Rating(5, 10), 3, 3, Rating(2, 7)),
    (Rating(2, 4), 3, 3, Rating(1, 2)),       # cannot get worse than 1/2
    (Rating(1, 2), 6, 6, Rating(1, 2)),
    (Rating(19, 20), -5, -5, Rating(19, 20)),  # nor better than 19/20
    (Rating(8, 10), 0, 3, Rating(6, 7)),      # Fail pushed down to stay below Boom
    (Rating(9, 10), 0, 9, Rating(1, 2)),
])
def test_penalties_stay_within_bounds_and_keep_fail_below_boom(rating, fail_pen, boom_pen, expected):
    """Nothing gets better than 19/20 or worse than 1/2, and after all modifiers the Fail safety is at best
    one lower than the Boom safety."""
    got = penalised(rating, fail_pen, boom_pen, BOUNDS)
    assert got == expected
    assert got.fail < got.boom


@settings(max_examples=300, deadline=None)
@given(fail=st.integers(1, 19), gap=st.integers(1, 19), fail_pen=st.integers(-25, 25), boom_pen=st.integers(-25, 25))
def test_any_penalty_gives_a_rating_within_bounds(fail, gap, fail_pen, boom_pen):
    """Whatever penalties apply, the result lies between 1/2 and 19/20 with Fail below Boom."""
    boom = min(fail + gap, 20)
    if fail >= boom:
        return
    got = penalised(Rating(fail, boom), fail_pen, boom_pen, BOUNDS)
    assert 1 <= got.fail < got.boom <= 20
    assert got.fail <= 19 and got.boom >= 2


def test_temporary_raises_may_pass_19_20():
    """Derp skills raise a rating for one roll, even past 19/20, so a bad roll on a perfect part can be saved:
    Engineering raises the Boom safety, Piloting the Fail safety."""
    assert with_raises(Rating(19, 20), 3, 0) == Rating(19, 20)  # Fail cannot reach Boom
    assert with_raises(Rating(19, 20), 3, 3) == Rating(22, 23)
    assert with_raises(Rating(19, 20), 0, 2) == Rating(19, 22)
    assert judge(20, with_raises(Rating(19, 20), 1, 1)) is Outcome.FAIL
    assert judge(20, with_raises(Rating(19, 20), 2, 2)) is Outcome.OK


def test_temporary_raises_keep_fail_below_boom():
    """Even raised, the Fail safety is at best one below the Boom safety."""
    assert with_raises(Rating(5, 10), 10, 0) == Rating(9, 10)
    assert with_raises(Rating(5, 10), 10, 2) == Rating(11, 12)


def test_a_rating_with_fail_not_below_boom_is_refused():
    """The Fail safety can never be at or above the Boom safety."""
    with pytest.raises(ValueError, match="below the Boom"):
        Rating(10, 10)
    with pytest.raises(ValueError, match="below the Boom"):
        Rating.parse("12/10")


def test_rating_text_form_is_fail_slash_boom():
    """Ratings are written Fail/Boom."""
    assert str(Rating(5, 10)) == "5/10"
    assert Rating.parse("5/10") == Rating(5, 10)


def _sample_with_fractions(distribution, uniform):
    """The plain reading of sampling: the first value whose running sum of probabilities exceeds the draw."""
    running = Fraction(0)
    for value, p in distribution:
        running += p
        if Fraction(uniform) < running:
            return value
    return distribution[-1][0]


@settings(max_examples=400, deadline=None)
@given(weights=st.lists(st.integers(min_value=1, max_value=10 ** 6), min_size=1, max_size=40),
       scale=st.integers(min_value=1, max_value=10 ** 4),
       u=st.floats(min_value=0, max_value=1, exclude_max=True))
def test_sample_in_integers_equals_the_fraction_sums(weights, scale, u):
    """``sample`` works in integers for speed; on any distribution (probabilities with unlike denominators,
    reduced or not) and any draw it picks exactly the value the running Fraction sums pick."""
    total = sum(weights)
    dist = tuple((n, Fraction(w * scale, total * scale)) for n, w in enumerate(weights))
    assert sample(dist, u) == _sample_with_fractions(dist, u)
    below = math.nextafter(float(Fraction(weights[0], total)), 0.0)
    assert sample(dist, below) == _sample_with_fractions(dist, below)
