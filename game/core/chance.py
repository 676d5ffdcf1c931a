"""Exact chance: a roll's distribution as Fractions, and the one way the app turns a uniform draw into a value.

The odds a player is shown and the value the app rolls both come from a ``Distribution``, so they can
never disagree. Games build their distributions (dice sums, clusters, a drift die); the core samples them.
"""
from __future__ import annotations

from fractions import Fraction

#: value -> probability, values ascending; probabilities sum to exactly 1.
Distribution = tuple[tuple[int, Fraction], ...]


def sample(distribution: Distribution, uniform: float) -> int:
    """The value whose cumulative band contains ``uniform`` in [0, 1): the app's one way to roll."""
    if not 0 <= uniform < 1:
        raise ValueError("uniform must be in [0, 1)")
    target = Fraction(uniform)
    running = Fraction(0)
    for value, p in distribution:
        running += p
        if target < running:
            return value
    return distribution[-1][0]
