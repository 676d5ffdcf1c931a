"""What the bots keep from one state for the next answers as a fresh look would, on any line of play (issue 12).

The client keeps one bot per seat across an undo, so a bot may be asked about states of another line of play
than the one it last saw."""
from __future__ import annotations

from game.core.dice_rng import DiceRoller
from game.core.interface import CHANCE, TERMINAL
from game.games.whatgoesup.bots import PLAN, SpaceProgramBot
from game.games.whatgoesup.rules.actions import AnswerTrade, EndRnD, Invent, OfferTrade
from game.games.whatgoesup.rules.engine import Engine
from game.games.whatgoesup.rules.state import TradeBundle
from game.games.whatgoesup.rules.tables import load_rules
from game.games.whatgoesup.sim import default_setup

ENGINE = Engine(load_rules())


def _bot_plays_until_the_human(bot, dice, state):
    """The bot (program 2) plays, the dice roll, until program 1 (the human) acts again."""
    while ENGINE.current_player(state) not in (0, TERMINAL):
        player = ENGINE.current_player(state)
        state = ENGINE.apply(state, dice.roll(ENGINE, state) if player == CHANCE else bot.choose(ENGINE, state))
    return state


def test_program_bot_after_an_undo_plans_with_the_blueprint_a_trade_gave_it():
    """Turn 1: the human invents the plan's capsule, the bot invents its own parts. Turn 2, first line: the
    human invents a thruster and ends R&D, and the bot plays. Undone; second line: the human gives the bot a
    copy of the capsule blueprint (it lands in the place the thruster had, the things as many as before) and
    ends R&D. The bot's plan now takes that copy, the last capsule of the plan's mass it holds, as a fresh bot
    does (it kept its own older capsule when it carried over what it saw on the first line)."""
    bot = SpaceProgramBot(7)
    state = ENGINE.new_game(default_setup(ENGINE, 2, 10))
    state = ENGINE.apply(state, Invent("capsule", PLAN["capsule"]))
    turn_two = _bot_plays_until_the_human(bot, DiceRoller(3), ENGINE.apply(state, EndRnD()))
    assert turn_two.turn == 2 and [(t.id, t.owner, t.kind) for t in turn_two.things] == [
        ("T1", 0, "capsule"), ("T2", 1, "lower_stage"), ("T3", 1, "capsule"), ("T4", 1, "thruster")]

    first_line = ENGINE.apply(ENGINE.apply(turn_two, Invent("thruster", 2)), EndRnD())
    assert ENGINE.current_player(first_line) == 1
    bot.choose(ENGINE, first_line)

    offered = ENGINE.apply(turn_two, OfferTrade(1, give=TradeBundle(blueprints=("T1",))))
    second_line = ENGINE.apply(ENGINE.apply(offered, AnswerTrade(True)), EndRnD())
    assert ENGINE.current_player(second_line) == 1 and len(second_line.things) == len(first_line.things)
    copy = second_line.things[4]
    assert (copy.id, copy.owner, copy.kind, copy.base_mass) == ("T5", 1, "capsule", PLAN["capsule"])

    kept = bot._plan_things(ENGINE, second_line, 1, PLAN, False)
    fresh = SpaceProgramBot(7)._plan_things(ENGINE, second_line, 1, PLAN, False)
    assert {kind: t.id for kind, t in kept[0].items()} == {"lower_stage": "T2", "capsule": "T5", "thruster": "T4"}
    assert kept == fresh
