"""Effective dice: the odd faces count, and a shot keeps only what fits within the target's mass.

The exact distributions are checked against every face of every die, counted one by one.
"""
from __future__ import annotations

from collections import Counter
from fractions import Fraction
from itertools import product

import pytest

from game.core.chance import sample
from game.core import effective_dice as dice


def brute_force(n: int, sides: int, mass):
    counts = Counter(len(dice.kept_for_shooting(faces, mass)) for faces in product(range(1, sides + 1), repeat=n))
    total = sides ** n
    return tuple(sorted((k, Fraction(c, total)) for k, c in counts.items()))


def test_the_seeds_example_two_dice_of_3_and_5_at_mass_7_keep_one():
    """'if you are shooting at a ship with a mass of 7, and you roll two dice with values of 3 and 5, only one of
    those dice remains'."""
    assert dice.kept_for_shooting((3, 5), 7) == (3,)
    assert dice.kept_for_shooting((3, 5), None) == (3, 5)
    assert dice.kept_for_shooting((2, 4, 6, 1), 30) == (1,)
    assert dice.kept_for_shooting((5, 1, 1, 3), 5) == (1, 1, 3)  # smallest first: as many dice as fit


@pytest.mark.parametrize("n", range(0, 5))
def test_plain_rolls_count_the_odd_faces(n):
    assert dice.plain_distribution(n, 6) == brute_force(n, 6, None)
    assert dice.plain_distribution(2, 6) == ((0, Fraction(1, 4)), (1, Fraction(1, 2)), (2, Fraction(1, 4)))


@pytest.mark.parametrize("n,mass", [(n, m) for n in range(1, 5) for m in (0, 1, 2, 3, 4, 5, 7, 9, 12, 20)])
def test_shooting_rolls_match_every_face_counted(n, mass):
    assert dice.shooting_distribution(n, 6, mass) == tuple(p for p in brute_force(n, 6, mass) if p[1])


def test_big_salvoes_are_exact_and_quick():
    forty = dice.shooting_distribution(40, 6, 10)
    assert sum(p for _, p in forty) == 1
    assert max(k for k, _ in forty) == 10  # ten dice of 1 fill a mass of 10
    assert dice.shooting_distribution(6, 6, 100) == dice.plain_distribution(6, 6)


def test_a_heavier_target_is_easier_to_hit():
    light, heavy = dice.shooting_distribution(4, 6, 6), dice.shooting_distribution(4, 6, 30)
    assert dice.expected(light) < dice.expected(heavy) == 2
    assert dice.at_least(light, 3) < dice.at_least(heavy, 3)


@pytest.mark.parametrize("n,mass", [(4, None), (4, 7), (8, 10), (3, 2), (5, 30)])
def test_the_faces_shown_make_exactly_the_effective_dice_rolled(n, mass):
    for k, p in dice.distribution(n, 6, mass):
        for salt in range(4):
            faces = dice.faces_for(n, k, 6, mass, salt)
            assert len(faces) == n and all(1 <= f <= 6 for f in faces)
            assert len(dice.kept_for_shooting(faces, mass)) == k


def test_the_app_samples_the_same_distribution_the_odds_show():
    distribution = dice.shooting_distribution(4, 6, 10)
    running = Fraction(0)
    for value, p in distribution:
        assert sample(distribution, float(running + p / 2)) == value  # the middle of each value's band
        running += p
