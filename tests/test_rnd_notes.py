"""What the engine notes about the things an R&D action made (``state.noted``), and R&D's listing carried by it.

Research, an invention and a reverse-engineered copy say how they made the new things tuple from the one before
(``state.Change``: the blueprint research changed, things added after); R&D's listing carries its views over by
what was noted instead of finding the changed places again, and falls back to comparing the tuples where nothing
was noted (a trade's copy of a blueprint, a new turn, a save loaded). States are reached through the engine's own actions.
"""
from __future__ import annotations

from game.games.whatgoesup.rules.actions import AnswerTrade, Build, BuyConsumables, Invent, OfferTrade, Research
from game.games.whatgoesup.rules.engine import Engine
from game.games.whatgoesup.rules.state import (PlayerSetup, Setup, TradeBundle, change_of, researched_since,
                                                update, with_program)
from game.games.whatgoesup.rules.tables import load_rules
from game.games.whatgoesup.sim import default_setup, play_game

RULES = load_rules()
ENGINE = Engine(RULES)


def new_game():
    setup = Setup(players=(PlayerSetup("Ayla", "rabitians"), PlayerSetup("Bram", "merbs")), turn_limit=20)
    return ENGINE.new_game(setup)


def act(engine, state, *actions):
    for action in actions:
        state = engine.apply(state, action)
    return state


def listed_afresh(state):
    """R&D's legal actions as an engine that has listed nothing before gives them."""
    return Engine(RULES).legal_actions(state)


def test_research_an_invention_and_a_copy_say_what_they_did_to_the_things():
    """An invention adds a blueprint after the others, research gives one blueprint a new value: each is noted
    with the things before it, and ``researched_since`` names the blueprints researched on the way, newest
    first. A build or a purchase leaves the things tuple as it was, so nothing needs noting."""
    start = new_game()
    invented = act(ENGINE, start, Invent("capsule", 4))
    capsule = invented.things[-1].id
    assert change_of(invented.things) == (start.things, None, start.things)
    researched = act(ENGINE, invented, Research(capsule, "boom", 1))
    assert change_of(researched.things) == (invented.things, capsule, start.things)
    thruster = act(ENGINE, researched, Invent("thruster", 2))
    again = act(ENGINE, thruster, Build(capsule, 1), BuyConsumables("fuel", 1),
                Research(thruster.things[-1].id, "boom", 1), Research(capsule, "fail", 1))
    assert researched_since(again.things, start.things) == [capsule, thruster.things[-1].id, capsule]
    assert researched_since(again.things, researched.things) == [capsule, thruster.things[-1].id]
    assert researched_since(again.things, again.things) == []
    assert researched_since(researched.things, again.things) is None  # not on the way back


def test_a_trade_of_blueprints_and_a_loaded_state_are_not_noted_and_are_listed_in_full():
    """A trade that hands a blueprint over adds the partner's copy without a note, so the way back from the things
    after it is not known: the listing then reads the things whole and lists what a fresh engine lists. So it does
    for a state whose tuples were rebuilt, as loading a save rebuilds them."""
    engine = Engine(RULES)
    state = act(engine, new_game(), Invent("capsule", 4))
    capsule = state.things[-1].id
    state = with_program(state, update(state.programs[1], points=10))
    engine.legal_actions(state)
    traded = act(engine, state, OfferTrade(1, give=TradeBundle(blueprints=(capsule,)), take=TradeBundle(points=1)),
                 AnswerTrade(True))
    assert change_of(traded.things) is None
    assert researched_since(traded.things, state.things) is None
    assert traded.things[-1].owner == 1 and traded.things[-1].name == state.thing(capsule).name
    assert engine.legal_actions(traded) == listed_afresh(traded)
    reloaded = update(traded, things=tuple(list(traded.things)), items=tuple(list(traded.items)))
    assert change_of(reloaded.things) is None
    assert engine.legal_actions(reloaded) == listed_afresh(reloaded)


def test_a_listing_carried_by_what_was_noted_equals_a_fresh_one_through_seeded_games():
    """Through seeded games of both bots (research, inventions, builds, trades, new turns, flights), every R&D
    listing of one engine that carries its views over by what the engine noted equals a fresh engine's listing
    of the same state, and so do the families joined."""
    engine = Engine(RULES)
    compared = 0

    def check(before, action, after):
        nonlocal compared
        if after.phase != "rnd" or after.pending_trade is not None or engine.current_player(after) < 0:
            return
        assert engine.legal_families(after).joined() == listed_afresh(after), (after.turn, str(action))
        compared += 1

    for bot_kind in ("random", "program"):
        for seed in (41, 42):
            result = play_game(engine, default_setup(engine, 2, 12), seed, max_turns=12, check=False,
                               on_action=check, bot_kind=bot_kind)
            assert result.failure is None, result.failure
    assert compared > 500
