"""What the bots keep from one state for the next answers as a fresh look would, on any line of play (issue 12).

The client keeps one bot per seat across an undo, so a bot may be asked about states of another line of play
than the one it last saw."""
from __future__ import annotations

import pytest

from game.core.dice_rng import DiceRoller
from game.core.interface import CHANCE, TERMINAL
from game.games.whatgoesup.bots import PLAN, SpaceProgramBot
from game.games.whatgoesup.careful_play import CarefulPlayer
from game.games.whatgoesup.rules.actions import AnswerTrade, Build, EndRnD, Invent, OfferTrade, Research
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


class _CheckedBot(SpaceProgramBot):
    """A program bot that, at every choice, also asks a fresh bot (no memos; the same stream and coins) and
    holds the two answers equal; every eleventh choice it is first asked about an older state of the game, as
    after an undo, and the stream and coins are put back after that look, so the game goes on as it would."""

    def __init__(self, seed: int, aggression: float = 0.0):
        super().__init__(seed, aggression=aggression)
        self.seen: list = []
        self.compared = self.older = 0

    def _fresh(self) -> SpaceProgramBot:
        fresh = SpaceProgramBot(0, self.explore, self.aggression)
        fresh.chooser._rng.setstate(self.chooser._rng.getstate())
        fresh._robotic, fresh._weapon, fresh._holds = dict(self._robotic), dict(self._weapon), dict(self._holds)
        return fresh

    def _both(self, engine, state):
        expected = self._fresh().choose(engine, state)
        answer = super().choose(engine, state)
        assert answer == expected, (answer, expected, state.turn, state.phase)
        return answer

    def choose(self, engine, state):
        self.seen = (self.seen + [state])[-40:]
        if self.compared % 11 == 10 and len(self.seen) > 3:
            older = self.seen[(self.compared * 7) % (len(self.seen) - 1)]
            if engine.current_player(older) >= 0:
                kept = (self.chooser._rng.getstate(), dict(self._robotic), dict(self._weapon), dict(self._holds))
                self._both(engine, older)
                self.older += 1
                self.chooser._rng.setstate(kept[0])
                self._robotic, self._weapon, self._holds = kept[1:]
        self.compared += 1
        return self._both(engine, state)


@pytest.mark.parametrize("game", [
    ("most dots", dict(players=2, turns=10), 0.0, range(1, 3)),
    ("underped, clockwork", dict(players=2, turns=10, options=("underped", "underped_clockwork")), 0.0, range(1, 3)),
    ("space war, raiders", dict(players=2, turns=10, options=("space_war",)), 0.5, range(1, 3)),
    ("stop the rock", dict(players=1, scenario="stop_the_rock"), 0.0, range(1, 3)),
    ("moon temple", dict(players=2, turns=30, victory="moon_temple"), 0.0, range(1, 2)),
], ids=lambda g: g[0])
def test_a_bot_that_keeps_what_it_read_answers_as_a_fresh_bot_at_every_choice(game):
    """Seeded games played by a bot that keeps what it reads (its plan's blueprints, stored parts, outline,
    a careful plan's names, trainings, research steps and caps): at every choice, and at older states asked
    in between, it answers exactly as a bot that reads everything afresh."""
    _, setup, aggression, seeds = game
    for seed in seeds:
        bot = _CheckedBot(seed, aggression)
        state, dice = ENGINE.new_game(default_setup(ENGINE, **setup)), DiceRoller(seed)
        turns = setup.get("turns")
        while ENGINE.current_player(state) != TERMINAL and (turns is None or state.turn <= turns):
            player = ENGINE.current_player(state)
            state = ENGINE.apply(state, dice.roll(ENGINE, state) if player == CHANCE else bot.choose(ENGINE, state))
        assert bot.compared > 100 and bot.older > 5


@pytest.mark.parametrize("game", [
    ("stop the rock", dict(players=1, scenario="stop_the_rock"), range(1, 4)),
    ("moon temple", dict(players=2, turns=30, victory="moon_temple"), range(1, 2)),
], ids=lambda g: g[0])
def test_a_careful_plan_answers_what_the_engine_allows_without_asking_it(game, monkeypatch):
    """A careful plan answers for a research step it has just proposed from the blueprint's listing row (the
    row's price against the points) and for a build ``Engine.offered`` has just handed it, without asking
    ``Engine.allowed``; its parts at home are grouped per items tuple and named per things tuple. In seeded games
    (older states asked in between, as after an undo) every such answer equals the engine's and a plain read."""
    asked = {"research": 0, "build": 0, "stored": 0}
    plain_ok, plain_build, plain_stored = CarefulPlayer.ok, CarefulPlayer.build, CarefulPlayer.stored

    def ok(plan, state, action):
        offer = plan._offer
        if offer[0] is state and type(action) is Research and action in offer[1]:
            asked["research"] += 1
        answer = plain_ok(plan, state, action)
        assert answer == ENGINE.allowed(state, action), (action, state.turn)
        return answer

    def build(plan, state, thing):
        answer = plain_build(plan, state, thing)
        assert answer == (Build(thing.id, 1) if ENGINE.allowed(state, Build(thing.id, 1)) else None)
        asked["build"] += 1
        return answer

    def stored(plan, state, name):
        answer = plain_stored(plan, state, name)
        assert answer == plan._stored_by_name(state).get(name, ()), (name, state.turn)
        asked["stored"] += 1
        return answer

    monkeypatch.setattr(CarefulPlayer, "ok", ok)
    monkeypatch.setattr(CarefulPlayer, "build", build)
    monkeypatch.setattr(CarefulPlayer, "stored", stored)
    _, setup, seeds = game
    for seed in seeds:
        bot = _CheckedBot(seed)
        state, dice = ENGINE.new_game(default_setup(ENGINE, **setup)), DiceRoller(seed)
        turns = setup.get("turns")
        while ENGINE.current_player(state) != TERMINAL and (turns is None or state.turn <= turns):
            player = ENGINE.current_player(state)
            state = ENGINE.apply(state, dice.roll(ENGINE, state) if player == CHANCE else bot.choose(ENGINE, state))
    assert asked["research"] > 50 and asked["stored"] > 20
    if game[0] == "stop the rock":
        assert asked["build"] > 10
