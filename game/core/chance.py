"""Exact chance: a roll's distribution as Fractions, and the one way the app turns a uniform draw into a value.

The odds a player is shown and the value the app rolls both come from a ``Distribution``, so they can
never disagree. Games build their distributions (dice sums, clusters, a drift die); the core samples them.
"""
from __future__ import annotations

import math
from fractions import Fraction

#: value -> probability, values ascending; probabilities sum to exactly 1.
Distribution = tuple[tuple[int, Fraction], ...]


def sample(distribution: Distribution, uniform: float) -> int:
    """The value whose cumulative band contains ``uniform`` in [0, 1): the app's one way to roll."""
    if not 0 <= uniform < 1:
        raise ValueError("uniform must be in [0, 1)")
    # The same exact test as "Fraction(uniform) < running sum", in integers: uniform is num/den exactly and
    # every running sum is a whole number of 1/common, so no Fraction is made (a roll is sampled per action).
    num, den = uniform.as_integer_ratio()
    common = math.lcm(*(p.denominator for _, p in distribution))
    running = 0
    for value, p in distribution:
        running += p.numerator * (common // p.denominator)
        if num * common < running * den:
            return value
    return distribution[-1][0]
