"""SpaceProgramBot in Stop The Rock: it plays the careful plan of game/rock_plan.py through legal actions only.

Seeded bot games (the dice from DiceRoller(seed), as `simulate` rolls them), every invariant checked after
every action. `python main.py simulate --mode stop-the-rock --games 100 --seed 1` measures the bot on a
hundred games (docs/rules-decisions.md, "Stop The Rock", quotes the numbers).
"""
from __future__ import annotations

import pytest

from game.core.dice_rng import Chooser
from game.games.whatgoesup.bots import SpaceProgramBot
from game.games.whatgoesup.rock_plan import RUN, RockPlan
from game.games.whatgoesup.rules.engine import Engine
from game.games.whatgoesup.rules.tables import load_rules
from game.games.whatgoesup.sim import default_setup, play_game

ENGINE = Engine(load_rules())


def rock_game(seed: int, difficulty: str, players: int = 1):
    setup = default_setup(ENGINE, players, scenario="stop_the_rock", difficulty=difficulty)
    result = play_game(ENGINE, setup, seed, bot_kind="program")
    assert result.failure is None, str(result.failure)  # every action legal, every invariant kept
    assert result.final.phase == "over"
    return result


def test_on_gentle_the_bot_launches_every_game_and_saves_the_world():
    outcomes = []
    for seed in range(1, 7):
        result = rock_game(seed, "gentle")
        final = result.final
        assert any(u.launched_turn is not None for u in final.upgoers), f"seed {seed}: nothing launched"
        assert any(u.name.startswith(RUN) for u in final.upgoers), f"seed {seed}: no rock craft"
        outcomes.append(ENGINE.outcome(final).kind)
    assert set(outcomes) <= {"saved", "impact"}
    assert outcomes.count("saved") >= 2, outcomes


def test_on_normal_the_bot_reaches_the_rock_and_nudges():
    nudged = 0
    for seed in range(1, 5):
        final = rock_game(seed, "normal").final
        assert any(u.launched_turn is not None for u in final.upgoers)
        nudged += final.rock.nudges
    assert nudged > 0


def test_a_solo_bot_plays_only_the_plan(monkeypatch):
    """No random fallback in a solo game: every action the bot takes is the one the plan proposes."""
    bot = SpaceProgramBot(3)
    monkeypatch.setattr(bot.chooser, "choice", lambda options: pytest.fail("the bot fell back to a random action"))
    setup = default_setup(ENGINE, 1, scenario="stop_the_rock", difficulty="gentle")
    state = ENGINE.new_game(setup)
    from game.core.dice_rng import DiceRoller
    from game.games.whatgoesup.sim import next_action
    dice = DiceRoller(3)
    plan = RockPlan(ENGINE, 0)
    for _ in range(5000):
        action = next_action(ENGINE, state, bot, dice)
        if action is None:
            break
        if ENGINE.current_player(state) == 0:
            assert action == plan.choose(state)
        state = ENGINE.apply(state, action)
    assert state.phase == "over"


def test_cooperating_bots_keep_every_rule():
    result = rock_game(2, "normal", players=2)
    assert ENGINE.outcome(result.final).kind in ("saved", "impact")
    assert all(any(u.owner == p for u in result.final.upgoers) for p in (0, 1))


def test_every_spend_the_crews_best_help_names_is_allowed_in_turn():
    """The bots play the first spend of ``best_help`` without asking ``refusal`` again: at every rolled roll of
    seeded Stop The Rock and program games, each spend it names (with and without a stamina limit) is allowed
    when its turn comes, and after the last the roll stands at the outcome ``best_help`` promised."""
    from game.games.whatgoesup.careful_play import CarefulPlayer
    from game.games.whatgoesup.rules.flight_actions import UseSkill
    checked = 0

    def check(before, action, after):
        nonlocal checked
        f = after.flight if after.phase == "flight" else None
        if f is None or f.roll is None or f.roll.value is None or f.roll.previous is not None:
            return
        owner = after.upgoer(f.roll.upgoer).owner
        for stamina in (None, CarefulPlayer(ENGINE, owner).spare_stamina(after, f.roll)):
            outcome, spends = ENGINE.flight_rules.best_help(after, f.roll, stamina)
            state = after
            for spend in spends:
                assert ENGINE.refusal(state, spend) is None, (str(spend), ENGINE.refusal(state, spend))
                state = ENGINE.flight_rules.apply(state, spend, drive=False)  # the roll stays to be judged
            assert state.flight.roll.outcome() is outcome
            checked += bool(spends) and any(isinstance(s, UseSkill) for s in spends)

    setups = [default_setup(ENGINE, 1, scenario="stop_the_rock", difficulty=d) for d in ("gentle", "hard")]
    setups.append(default_setup(ENGINE, 2, 12))
    for setup in setups:
        for seed in range(1, 4):
            assert play_game(ENGINE, setup, seed, bot_kind="program", on_action=check, check=False).failure is None
    assert checked > 10, checked


def test_a_bots_coin_is_the_draw_a_choice_from_a_range_makes():
    """``Chooser.below(n)`` (the program bot's coins) draws exactly what ``choice(range(n))`` drew, leaving the
    stream where it left it: the seeded games stay the same."""
    for seed in (1, 7, 7000):
        by_choice, by_below = Chooser(seed), Chooser(seed)
        for n in (1000, 2, 3, 1000, 17, 1000):
            assert by_below.below(n) == by_choice.choice(range(n))
        assert by_below.below(10 ** 6) == by_choice.choice(range(10 ** 6))


def test_a_bots_draws_are_the_ones_random_randrange_makes():
    """``Chooser`` draws as ``random.Random.randrange(n)`` of its stream draws, number for number, for every size
    of choice (one option, powers of two and their neighbours, large ones), so the seeded games stay the same."""
    import random
    sizes = [1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 32, 33, 100, 127, 128, 129, 1000, 1023, 1024, 1025, 10 ** 6,
             2 ** 40 + 1]
    for seed in (1, 7, 7000):
        chooser, plain = Chooser(seed), random.Random(f"whatgoesup:bot:{seed}")
        for n in sizes * 20:
            assert chooser.below(n) == plain.randrange(n)
            options = list(range(n)) if n <= 2000 else range(n)
            assert chooser.choice(options) == options[plain.randrange(n)]
    with pytest.raises(ValueError):
        Chooser(1).choice([])
    with pytest.raises(ValueError):
        Chooser(1).below(0)
