"""Games with nobody at the table play themselves, headless: the rock's drift die and every other chance
node are rolled, end-of-turn reports go on by themselves, at a pace a watcher can follow."""
from __future__ import annotations

import dataclasses

from game.games.whatgoesup.rules.state import PlayerSetup, Setup
from game.core.session import GameSession


def _computer_rock_game(app, players: int = 1) -> GameSession:
    from game.client.whatgoesup.game_flow import shipped_engine, start_game

    names = (("Hop Agency", "rabitians"), ("Spud Space", "merbs"))[:players]
    setup = Setup(tuple(PlayerSetup(n, p, human=False) for n, p in names), turn_limit=None,
                  scenario="stop_the_rock", difficulty="normal")
    session = GameSession.new(shipped_engine(), setup, 7, saves_dir=app.home / "saves")
    start_game(app.context, session)
    return session


def _run(app, seconds: float, dt: float = 1 / 30, until=None) -> None:
    for _ in range(int(seconds / dt)):
        app.step(dt, [])
        if until is not None and until():
            return


def test_the_rock_drift_die_is_rolled_at_a_readable_pace_when_nobody_plays(make_app):
    app = make_app()
    session = _computer_rock_game(app)
    app.step(1 / 30, [])
    assert type(app.context.stack.top).__name__ == "RockDriftScene"
    assert session.state.rock.last_drift is None
    _run(app, 0.8)  # long enough to read the screen: not rolled yet
    assert type(app.context.stack.top).__name__ == "RockDriftScene"
    assert session.state.rock.last_drift is None
    _run(app, 1.5)
    assert session.state.rock.last_drift is not None  # rolled by itself
    assert type(app.context.stack.top).__name__ != "RockDriftScene"


def test_a_computer_only_stop_the_rock_game_advances_several_turns_on_its_own(make_app):
    app = make_app()
    app.settings = dataclasses.replace(app.settings, animation_speed="fast")
    session = _computer_rock_game(app, players=2)
    start_turn = session.state.turn
    seen = set()

    def far_enough() -> bool:
        seen.add(type(app.context.stack.top).__name__)
        return session.over or session.state.turn >= start_turn + 3

    _run(app, 900, dt=1 / 10, until=far_enough)
    assert session.state.turn >= start_turn + 3 or session.over
    assert session.state.rock.last_drift is not None
    assert {"RockDriftScene", "RnDScene", "TurnReportScene"} <= seen
    assert app.context.stack.top.name != "error"
