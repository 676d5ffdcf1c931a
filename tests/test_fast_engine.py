"""The fast paths of the engine give exactly what the slow, obvious ones gave (issue 12)."""
from __future__ import annotations

from fractions import Fraction

import pytest

from game.games.whatgoesup.rules import formulas
from game.games.whatgoesup.rules.tables import Fuel


def fuel_needed_counting(dry_mass, burns, fuel, reserve=0):
    """The old fuel_needed, counting up one fuel point at a time: the reference for the fast one."""
    aboard = reserve
    for _ in range(burns):
        extra = 0
        while formulas.fuel_for_burn(Fraction(dry_mass) + aboard + extra, fuel) > extra:
            extra += 1
        aboard += extra
    return aboard


@pytest.mark.parametrize("fuel", [Fuel(10, "ceil"), Fuel(10, "drop_digit_plus_one"), Fuel(2, "ceil"),
                                  Fuel(2, "drop_digit_plus_one"), Fuel(3, "ceil"), Fuel(7, "drop_digit_plus_one"),
                                  Fuel(1000, "ceil")])
def test_fuel_needed_equals_counting_one_point_at_a_time(fuel):
    for dry in [0, 1, 2, 5, 9, 10, 11, 19, 20, 21, 37, 99, 100, 101, 250, Fraction(1, 2), Fraction(13, 2),
                Fraction(199, 2)]:
        for burns in range(0, 7):
            for reserve in (0, 1, 3, 10):
                assert formulas.fuel_needed(dry, burns, fuel, reserve) == \
                    fuel_needed_counting(dry, burns, fuel, reserve), (dry, burns, reserve)


def test_fuel_needed_when_fuel_cannot_pay_for_itself_says_so():
    """One mass point per fuel point: each point of fuel costs a point to move, so no amount is enough
    (counting up never stopped)."""
    with pytest.raises(ValueError, match="no amount of fuel"):
        formulas.fuel_needed(5, 1, Fuel(1, "ceil"))
    assert formulas.fuel_needed(0, 3, Fuel(1, "ceil")) == 0
