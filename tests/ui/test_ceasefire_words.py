"""Between two rounds of a ship fight the faster craft answers first; the panel's words for the second answer
say what the first one was: after an offer of a ceasefire, offering one too ends the fight at once."""
from __future__ import annotations

from game.client.whatgoesup.flightpanel import describe_action
from game.games.whatgoesup.rules.flight.ship_combat import ShipCeasefire, ShipFightOn
from tests.test_ship_combat import E, act, round_one_over


def test_the_first_answer_asks_and_the_second_knows_a_ceasefire_was_offered():
    s, _, _ = round_one_over()  # B, the faster, answers first
    assert describe_action(E, s, ShipCeasefire()) == (
        "Offer a ceasefire", "B holds its fire. The fight ends only if A offers a ceasefire too.")
    assert describe_action(E, s, ShipFightOn()) == (
        "Fight on (round 2)", "B will not stop: round 2 against A begins at once, with the heat still aboard.")
    s = act(s, ShipCeasefire())
    assert describe_action(E, s, ShipCeasefire()) == (
        "Accept the ceasefire", "B has offered a ceasefire: A holds its fire too, and the fight is over.")
    assert describe_action(E, s, ShipFightOn()) == (
        "Fight on (round 2)", "B has offered a ceasefire, but A will not stop: round 2 against B begins at once, "
        "with the heat still aboard.")
    assert act(s, ShipCeasefire()).flight.ship_fight is None  # as the words say: the fight is over
