"""The end-of-turn report tells the story of the turn: every launch, Fail, Boom and landing per program."""
from __future__ import annotations

import pygame

from game.client.whatgoesup.report import TurnReportScene, flight_line, turn_report
from game.games.whatgoesup.rules.actions import Roll
from game.tools.flow_shots import fly_turn, scripted_session


def _boom_turn(home):
    """Hop Agency's Moonhop 1 goes to the pad and every die of the turn is a 20 (a Boom on a D20)."""
    session = scripted_session(home, assemble=True)
    session.dice.roll = lambda engine, state: Roll(20)
    turn = session.state.turn
    fly_turn(session)
    assert session.state.turn == turn + 1
    return session, turn


def test_a_launch_boom_is_in_the_report(home):
    session, turn = _boom_turn(home)
    hop = turn_report(session.state, session.log, turn)[0]
    texts = [text for text, _ in hop.flights]
    assert any(text.startswith("Boom! Moonhop 1's launch roll (rolled 20)") for text in texts), texts
    assert ("boom" in {tone for _, tone in hop.flights})
    assert any("destroyed" in text for text in texts), texts


def test_the_report_scene_shows_the_flights(make_app, home):
    from game.client.whatgoesup.game_flow import start_game

    session, turn = _boom_turn(home)
    app = make_app((1280, 720))
    flow = start_game(app.context, session)
    scene = app.stack.push(TurnReportScene(app.context, flow, turn))
    assert scene.reports[0].flights
    surface = pygame.Surface(app.layout.size)
    scene.draw(surface)  # draws with the flights section at 720p without raising


def test_flight_lines_pick_the_news():
    class E:
        def __init__(self, kind, text):
            self.kind, self.text = kind, text

    assert flight_line(E("roll", "Pod: reentry roll for Pod Mk1 - rolled 12 against Fail 10 / Boom 15: Fail.")) == \
        ("Fail! Pod's reentry roll (rolled 12)", "fail")
    assert flight_line(E("roll", "Pod: duration capsule roll for Pod Mk1 - rolled 12 against Fail 10 / Boom 15: Fail.")) \
        == ("Fail! Pod's capsule check roll (rolled 12)", "fail")  # named as its card named it
    assert flight_line(E("roll", "Pod: landing roll for Pod Mk1 - rolled 3 against Fail 10 / Boom 15: OK.")) is None
    assert flight_line(E("flight", "Pod lands safely at home. Hop gains 1 luck.")) == \
        ("Pod lands safely at home. Hop gains 1 luck.", "ok")
    assert flight_line(E("flight", "Pod lights its launch stage!")) is None
    assert flight_line(E("rnd", "Hop researches Pod")) is None


def test_stop_the_rock_report_shows_the_rock_and_the_nudges_needed(make_app, home):
    """Each end-of-turn report of Stop The Rock says how close the rock is and how many nudges are missing."""
    from game.client.whatgoesup.game_flow import start_game
    from game.client.whatgoesup.report import rock_report_line
    from game.client.whatgoesup.hud import game_status
    from game.core.interface import CHANCE
    from game.games.whatgoesup.rules.actions import EndRnD
    from game.tools.rock_shots import rock_session

    session = rock_session(home / "saves")
    turn = session.state.turn
    while session.state.turn == turn:
        if session.current_player == CHANCE:
            session.roll()
        elif session.state.phase == "rnd":
            session.apply(EndRnD())
        else:
            session.apply(session.legal_actions()[0])
    status = game_status(session.engine, session.state)
    line = rock_report_line(session.engine, session.state, status)
    rock = session.state.rock
    assert f"Impact in {rock.turns_left} turns" in line
    assert f"{rock.nudges_needed - rock.nudge_total} more needed" in line
    app = make_app((1280, 720))
    flow = start_game(app.context, session)
    scene = app.stack.push(TurnReportScene(app.context, flow, turn))
    drawn = []
    original = scene.draw_rock
    scene.draw_rock = lambda surface, rect: (drawn.append(rect), original(surface, rect))
    scene.draw(pygame.Surface(app.layout.size))
    assert drawn and pygame.Rect((0, 0), app.layout.size).contains(drawn[0])  # the strip is drawn, on screen
