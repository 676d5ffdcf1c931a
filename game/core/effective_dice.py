"""Effective dice, exactly (shared: Cosmoforce rolls them, and What Goes Up's ship-to-ship fights in space war).

A Cosmoforce roll is a fistful of dice of which only the *effective* ones count: the odd faces (1, 3
and 5 on a six-sided die). A shooting roll keeps fewer: of the odd dice, only as many as fit within the
target's mass, smallest first (two dice of 3 and 5 at a ship of mass 7 keep one). The engine's chance
outcome is the number of effective dice, with its exact probability; ``faces_for`` gives the client a
set of faces that shows that number, for the dice to land on.
"""
from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from math import comb
from typing import Optional

from game.core.chance import Distribution


def odd_faces(sides: int) -> tuple[int, ...]:
    return tuple(range(1, sides + 1, 2))


def even_faces(sides: int) -> tuple[int, ...]:
    return tuple(range(2, sides + 1, 2))


def kept_for_shooting(faces: tuple[int, ...], mass: Optional[int]) -> tuple[int, ...]:
    """The effective dice of a roll showing ``faces``: the odd ones, and when shooting (``mass`` given)
    only the smallest of them whose sum fits within ``mass``."""
    odd = sorted(f for f in faces if f % 2 == 1)
    if mass is None:
        return tuple(odd)
    kept: list[int] = []
    total = 0
    for face in odd:
        if total + face > mass:
            break
        kept.append(face)
        total += face
    return tuple(kept)


@lru_cache(maxsize=256)
def plain_distribution(dice: int, sides: int) -> Distribution:
    """How many of ``dice`` dice come up odd: each does with probability odd faces / sides."""
    if dice < 0:
        raise ValueError("cannot roll a negative number of dice")
    p = Fraction(len(odd_faces(sides)), sides)
    return tuple((k, comb(dice, k) * p ** k * (1 - p) ** (dice - k)) for k in range(dice + 1))


@lru_cache(maxsize=1024)
def shooting_distribution(dice: int, sides: int, mass: int) -> Distribution:
    """How many effective dice a shooting roll of ``dice`` dice keeps against a target of ``mass``.

    Worked out over the counts of each odd face (capped where more of a face could never be kept), one
    die at a time; exact, and quick for the forty dice a rack of ten missile systems can throw.
    """
    if dice < 0:
        raise ValueError("cannot roll a negative number of dice")
    if mass < 0:
        raise ValueError("a mass cannot be negative")
    odd = odd_faces(sides)
    if mass >= dice * odd[-1]:
        return plain_distribution(dice, sides)
    caps = tuple(mass // face + 1 for face in odd)
    p_face = Fraction(1, sides)
    p_even = Fraction(len(even_faces(sides)), sides)
    counts: dict[tuple[int, ...], Fraction] = {tuple(0 for _ in odd): Fraction(1)}
    for _ in range(dice):
        following: dict[tuple[int, ...], Fraction] = {}
        for key, p in counts.items():
            following[key] = following.get(key, Fraction(0)) + p * p_even
            for i in range(len(odd)):
                if key[i] >= caps[i]:
                    bumped = key
                else:
                    bumped = key[:i] + (key[i] + 1,) + key[i + 1:]
                following[bumped] = following.get(bumped, Fraction(0)) + p * p_face
        counts = following
    result: dict[int, Fraction] = {}
    for key, p in counts.items():
        kept = _kept_from_counts(key, odd, mass)
        result[kept] = result.get(kept, Fraction(0)) + p
    return tuple(sorted(result.items()))


def _kept_from_counts(counts: tuple[int, ...], odd: tuple[int, ...], mass: int) -> int:
    room, kept = mass, 0
    for count, face in zip(counts, odd):
        take = min(count, room // face)
        kept += take
        room -= take * face
        if take < count:
            break
    return kept


def distribution(dice: int, sides: int, mass: Optional[int] = None) -> Distribution:
    """The effective-dice distribution of a roll (a shooting roll when ``mass`` is given)."""
    return plain_distribution(dice, sides) if mass is None else shooting_distribution(dice, sides, mass)


def faces_for(dice: int, effective: int, sides: int, mass: Optional[int] = None, salt: int = 0) -> tuple[int, ...]:
    """Faces for ``dice`` dice that make exactly ``effective`` effective dice (for the client's dice to land
    on); ``salt`` varies which faces show. ValueError when no roll can show that."""
    if not 0 <= effective <= dice:
        raise ValueError(f"{effective} effective dice out of {dice} cannot be shown")
    odd, even = odd_faces(sides), even_faces(sides)
    kept = [odd[(salt + i) % len(odd)] for i in range(effective)]
    if mass is not None:
        if effective > mass:
            raise ValueError(f"{effective} dice of at least 1 cannot fit within a mass of {mass}")
        kept = [1] * effective
        for i in range(effective):  # raise faces while the kept dice still fit
            wanted = odd[(salt + i) % len(odd)]
            if sum(kept) - 1 + wanted <= mass:
                kept[i] = wanted
    discarded = [even[(salt + i) % len(even)] for i in range(dice - effective)] if even else []
    if len(discarded) < dice - effective:
        raise ValueError(f"a die of {sides} sides has no face that is never effective")
    faces = kept + discarded
    # interleave so the kept dice do not always sit on the left
    order = sorted(range(dice), key=lambda i: (i * 7 + salt * 3) % (dice + 1))
    shown = tuple(faces[i] for i in order)
    assert len(kept_for_shooting(shown, mass)) == effective
    return shown


def at_least(distribution_: Distribution, k: int) -> Fraction:
    """The chance of ``k`` or more effective dice."""
    return sum((p for value, p in distribution_ if value >= k), Fraction(0))


def expected(distribution_: Distribution) -> Fraction:
    return sum((value * p for value, p in distribution_), Fraction(0))
