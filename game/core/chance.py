"""Exact chance: a roll's distribution as Fractions, and the one way the app turns a uniform draw into a value.

The odds a player is shown and the value the app rolls both come from a ``Distribution``, so they can
never disagree. Games build their distributions (dice sums, clusters, a drift die); the core samples them
through ``Bands``, which ``sample`` makes afresh and the dice keep for the distributions they roll again.
"""
from __future__ import annotations

import math
from bisect import bisect_right
from fractions import Fraction

#: value -> probability, values ascending; probabilities sum to exactly 1.
Distribution = tuple[tuple[int, Fraction], ...]


class Bands:
    """A distribution's cumulative bands, in whole numbers: each value owns [P(below it), P(up to it)).

    ``Bands(distribution).pick(uniform)`` is the value whose band contains ``uniform``; worked out once, the
    bands answer any number of draws. ValueError for a probability below zero.
    """

    __slots__ = ("values", "common", "edges")

    def __init__(self, distribution: Distribution):
        # Every running sum is a whole number of 1/common: the edges are those whole numbers, so no Fraction is
        # made when picking (a roll is sampled per action).
        self.common = math.lcm(*(p.denominator for _, p in distribution))
        self.values = tuple(value for value, _ in distribution)
        edges, running = [], 0
        for _, p in distribution:
            if p < 0:
                raise ValueError(f"a probability is below zero ({p})")
            running += p.numerator * (self.common // p.denominator)
            edges.append(running)
        self.edges = tuple(edges)

    def pick(self, uniform: float) -> int:
        """The value whose band contains ``uniform`` in [0, 1) (the last value if the bands fall short of 1)."""
        return self.values[self.index(uniform)]

    def index(self, uniform: float) -> int:
        """Where in ``values`` ``pick(uniform)`` is."""
        if not 0 <= uniform < 1:
            raise ValueError("uniform must be in [0, 1)")
        # uniform is num/den exactly; an edge (a whole number) lies above num/den * common exactly when it lies
        # above its floor, so the first such edge is found by bisection in integers.
        num, den = uniform.as_integer_ratio()
        return min(bisect_right(self.edges, num * self.common // den), len(self.values) - 1)


def sample(distribution: Distribution, uniform: float) -> int:
    """The value whose cumulative band contains ``uniform`` in [0, 1): the app's one way to roll."""
    return Bands(distribution).pick(uniform)
