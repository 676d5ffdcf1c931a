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
    assert any(text.startswith("Boom! Moonhop 1's launch roll (20)") for text in texts), texts
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
        ("Fail! Pod's reentry roll (12)", "fail")
    assert flight_line(E("roll", "Pod: landing roll for Pod Mk1 - rolled 3 against Fail 10 / Boom 15: OK.")) is None
    assert flight_line(E("flight", "Pod lands safely at home. Hop gains 1 luck.")) == \
        ("Pod lands safely at home. Hop gains 1 luck.", "ok")
    assert flight_line(E("flight", "Pod lights its launch stage!")) is None
    assert flight_line(E("rnd", "Hop researches Pod")) is None
