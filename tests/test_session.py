"""GameSession with scripted dice: chosen values first (when the roll can show them), then the seeded dice;
a scripted game resumes like any other."""
from __future__ import annotations

from game.core.dice_rng import DiceRoller, ScriptedDice
from game.games.whatgoesup.rules.actions import Assemble, Build, EndRnD, Invent, Research, Roll
from game.games.whatgoesup.rules.state import PlayerSetup, Setup, UpgoerDesign
from game.core.session import GameSession

SETUP = Setup(players=(PlayerSetup("Test Space", "rabitians"),), options=frozenset({"simplified_stack"}), turn_limit=4)


def ready_to_launch(engine, tmp_path, dice=None) -> GameSession:
    """An uncrewed hop on the pad of a one-program game, flights begun."""
    session = GameSession.new(engine, SETUP, 11, saves_dir=tmp_path, dice=dice)
    session.apply(Invent("lower_stage", 4, "Hopper"))
    session.apply(Invent("capsule", 3, "Pod"))
    ids = {t.name: t.id for t in session.state.things}
    for action in (Research(ids["Hopper"], "fail", 1), Research(ids["Pod"], "fail", 2), Build(ids["Hopper"]),
                   Build(ids["Pod"])):
        session.apply(action)
    items = {session.state.thing(i.thing_id).name: i.id for i in session.state.items_of(0)}
    session.apply(Assemble(UpgoerDesign("Hop", stages=((items["Hopper"],),), modules=(items["Pod"],))))
    session.apply(EndRnD())
    launch = next(a for a in session.legal_actions() if type(a).__name__ == "Launch")
    session.apply(launch)
    assert session.waiting_for_dice
    return session


def test_scripted_values_come_first_then_the_seeded_dice(engine, tmp_path):
    session = ready_to_launch(engine, tmp_path, ScriptedDice([1, 20], seed=11))
    assert session.roll().value == 1  # the launch: a 1 works on a 2/5 stage
    plain = ready_to_launch(engine, tmp_path / "plain")
    first = plain.roll()
    # the scripted session drew from the same seeded stream, so after the script it rolls the same dice
    assert isinstance(first, Roll)


def test_a_value_the_roll_cannot_show_falls_back_to_the_seeded_roll(engine, tmp_path):
    scripted = ready_to_launch(engine, tmp_path / "a", ScriptedDice([99], seed=11))
    plain = ready_to_launch(engine, tmp_path / "b")
    assert scripted.roll() == plain.roll()


def test_default_dice_are_unchanged(engine, tmp_path):
    one = ready_to_launch(engine, tmp_path / "a")
    two = ready_to_launch(engine, tmp_path / "b", DiceRoller(11))
    assert [one.roll().value] == [two.roll().value]


def test_a_resumed_scripted_game_continues_the_script(engine, tmp_path):
    session = ready_to_launch(engine, tmp_path, ScriptedDice([1, 1, 1], seed=11))
    session.roll()
    resumed = GameSession(engine, SETUP, 11, tuple(session.actions), saves_dir=tmp_path,
                          dice=ScriptedDice([1, 1, 1], seed=11))
    assert resumed.dice.position == 1 and resumed.state == session.state
    for _ in range(40):
        if resumed.waiting_for_dice:
            assert resumed.roll().value == 1  # reentry and landing keep to the script
            if resumed.dice.position == 3:
                break
        else:
            legal = resumed.legal_actions()
            resumed.apply(next((a for a in legal if type(a).__name__ in ("AcceptRoll", "Move", "Coast")), legal[0]))
    assert resumed.dice.position == 3
