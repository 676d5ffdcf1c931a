"""The tutorial's luck lesson through the engine, with the tutorial's own loaded dice (``TutorialDice``): once the
crew is home, the next craft's launch Fails while a luck point is left, the luck reroll works, and the dice are
the seeded ones after that hop is home, or from the turn after the landing's next turn when the player does not
fly it or turns the luck down (the loaded dice never hold a player who leaves the lesson)."""
import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

from game.games.whatgoesup.rules.actions import EndRnD  # noqa: E402
from game.games.whatgoesup.rules.flight_actions import AcceptRoll, KeepRoll, Launch, UseLuck  # noqa: E402
from game.games.whatgoesup.tutorial_script import crew_home, dice_loaded, luck_turn  # noqa: E402


def _at_turn_four(home, monkeypatch):
    from game.client.whatgoesup.shipped import shipped_engine
    from game.client.whatgoesup.tutorial import new_session
    from game.tools.tutorial_shots import play_until

    monkeypatch.setenv("WHATGOESUP_HOME", str(home))  # the tutorial's saves go to this test's folder
    session = new_session(shipped_engine())
    play_until(session, lambda s: s.state.turn == 4 and s.state.phase == "rnd")
    assert crew_home(session.state) and luck_turn(session.state) and session.state.programs[0].luck == 1
    return session


def _hop_on_the_launch_roll(session):
    from game.tools.tutorial_shots import _turn_four_rnd

    _turn_four_rnd(session)
    hop = next(u for u in session.state.upgoers_of(0) if u.status == "pad")
    session.apply(Launch(hop.id))
    session.roll()
    roll = session.state.flight.roll
    assert roll.kind == "launch" and roll.outcome().name == "FAIL"  # the lesson's Fail
    return hop


def test_the_luck_point_rerolls_the_hops_failed_launch_and_then_the_dice_are_seeded(tmp_path, monkeypatch):
    session = _at_turn_four(tmp_path, monkeypatch)
    hop = _hop_on_the_launch_roll(session)
    session.apply(UseLuck())
    session.roll()
    assert session.state.flight.roll.value == 1 and session.state.flight.roll.previous == 2  # loaded: it works
    session.apply(KeepRoll(True))
    for _ in range(40):
        if session.state.upgoer(hop.id).status == "landed":
            break
        if session.waiting_for_dice:
            session.roll()
        else:
            session.apply(next(a for a in session.legal_actions() if type(a).__name__ in
                               ("AcceptRoll", "Move", "Coast", "EndActivities")))
    assert session.state.upgoer(hop.id).status == "landed" and session.state.programs[0].luck == 0
    assert not dice_loaded(session.state)
    recorded = len(session.dice.values)
    assert recorded == sum(1 for a in session.actions if type(a).__name__ == "Roll")  # every roll so far scripted


def test_turning_the_luck_down_leaves_the_loaded_dice_behind_next_turn(tmp_path, monkeypatch):
    session = _at_turn_four(tmp_path, monkeypatch)
    hop = _hop_on_the_launch_roll(session)
    session.apply(AcceptRoll())  # the hop stays down, its stage lost
    assert session.state.upgoer(hop.id).status != "flying" and session.state.programs[0].luck == 1
    for _ in range(40):
        if session.state.phase == "rnd":
            break
        session.apply(next(a for a in session.legal_actions() if type(a).__name__ in
                           ("AcceptRoll", "Move", "Coast", "EndActivities", "Hold")))
    assert session.state.turn == 5 and not dice_loaded(session.state) and not luck_turn(session.state)


def test_skipping_the_hop_leaves_the_loaded_dice_behind_next_turn(tmp_path, monkeypatch):
    session = _at_turn_four(tmp_path, monkeypatch)
    session.apply(EndRnD())
    for _ in range(40):
        if session.state.phase == "rnd":
            break
        session.apply(next(a for a in session.legal_actions() if type(a).__name__ in ("EndRnD",)))
    assert session.state.turn == 5 and not dice_loaded(session.state)
