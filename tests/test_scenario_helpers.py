"""The helpers that build mid-game states for tests refuse derps no game can have.

A derp is hired at the start values, trains at most ``max_total_points`` in all, and never has more
stamina left than its maximum; a test that starts from an impossible crew tests nothing real.
"""
from __future__ import annotations

import dataclasses

import pytest

from game.games.whatgoesup.rules.engine import Engine
from game.games.whatgoesup.rules.scenario import give_derp
from game.games.whatgoesup.rules.state import PlayerSetup, Setup
from game.games.whatgoesup.rules.tables import load_rules

RULES = load_rules()
ENGINE = Engine(RULES)


def fresh():
    return ENGINE.new_game(Setup((PlayerSetup("Hop", "rabitians"),), turn_limit=None))


def test_a_derp_at_the_cap_is_given_with_its_stamina_full_or_as_asked():
    cap = RULES.economy.derps.max_total_points
    state, d = give_derp(fresh(), 0, "Ace", piloting=3, engineering=2, stamina=cap - 5)
    ace = state.derp(d)
    assert ace.total_points == cap and ace.current_stamina == ace.stamina == cap - 5
    state, d = give_derp(state, 0, "Bo", 2, 2, 3, current_stamina=0)
    assert state.derp(d).current_stamina == 0 and state.derp(d).stamina == 3


@pytest.mark.parametrize("numbers, stamina_left, message", [
    ((3, 3, 4), None, r"Ace would have 10 points \(Piloting 3 \+ Engineering 3 \+ Stamina 4\); "
                      r"a derp can have at most 9"),
    ((9, 0, 2), None, "Ace would have 11 points"),
    ((-1, 2, 2), None, "Ace would have Piloting -1; every derp has at least 0"),
    ((2, 2, 1), None, "Ace would have Stamina 1; every derp has at least 2"),
    ((2, 2, 3), 4, "Ace would have 4 stamina left of a maximum of 3"),
    ((2, 2, 3), -1, "Ace would have -1 stamina left of a maximum of 3"),
])
def test_an_impossible_derp_is_refused_with_the_reason(numbers, stamina_left, message):
    state = fresh()
    with pytest.raises(ValueError, match=message):
        give_derp(state, 0, "Ace", *numbers, current_stamina=stamina_left)


def test_the_cap_comes_from_the_rules_given():
    roomy = dataclasses.replace(RULES, economy=dataclasses.replace(
        RULES.economy, derps=dataclasses.replace(RULES.economy.derps, max_total_points=12)))
    state, d = give_derp(fresh(), 0, "Ace", 4, 4, 4, rules=roomy)
    assert state.derp(d).total_points == 12
    with pytest.raises(ValueError, match="at most 9"):
        give_derp(fresh(), 0, "Ace", 4, 4, 4)
