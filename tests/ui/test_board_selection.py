"""The craft in hand on The Field: its legal next steps light up as soon as it is selected (and they are the
engine's legal actions' destinations), and markers fanned out on one step can each be clicked."""
from __future__ import annotations

import dataclasses
import math

import pygame
import pytest

from game.client.whatgoesup.field import FieldScene
from game.client.whatgoesup.shipped import shipped_engine
from game.core.session import GameSession
from game.games.whatgoesup.rules.engine import IllegalAction
from game.games.whatgoesup.rules.flight_actions import Burn, Move
from game.games.whatgoesup.rules.planning import destination
from game.tools.field_shots import build_demo_state, open_field

DT = 1 / 30


@pytest.fixture(scope="module")
def demo_state():
    return build_demo_state(shipped_engine())


def open_scene(make_app, home, state, size=(1280, 720)):
    app = make_app(size)
    session = GameSession(shipped_engine(), state.setup, 7, states=(state,), saves_dir=home)
    scene = open_field(app, session)
    assert isinstance(scene, FieldScene)
    for _ in range(3):
        app.step(DT, [])
    return app, session, scene


def click(app, pos) -> None:
    pos = (int(round(pos[0])), int(round(pos[1])))
    app.step(DT, [pygame.event.Event(pygame.MOUSEBUTTONDOWN, {"pos": pos, "button": 1})])
    app.step(DT, [pygame.event.Event(pygame.MOUSEBUTTONUP, {"pos": pos, "button": 1})])


def legal_next_steps(session) -> set[str]:
    """Where the craft in hand may go, from the engine alone: each legal action's destination, and the
    destinations of the burns offered once it has moved on to its next junction."""
    engine, state = session.engine, session.state
    legal = session.legal_actions()
    steps = {step for action in legal for step in destination(engine, state, action)}
    move = next((a for a in legal if isinstance(a, Move)), None)
    if move is not None:
        try:
            ahead = engine.apply(state, move)
        except IllegalAction:
            ahead = None
        if ahead is not None and ahead.flight is not None and ahead.flight.mode == "junction":
            steps |= {step for a in engine.legal_actions(ahead) if isinstance(a, Burn) and not a.rcs
                      for step in destination(engine, ahead, a)}
    return steps


def test_selecting_the_craft_in_hand_lights_its_legal_next_steps(make_app, home, demo_state, monkeypatch):
    app, session, scene = open_scene(make_app, home, demo_state)
    drawn: list[set[str]] = []
    original = scene.board_view.draw_lit
    monkeypatch.setattr(scene.board_view, "draw_lit",
                        lambda surface, steps, *args, **kwargs: (drawn.append(set(steps)),
                                                                 original(surface, steps, *args, **kwargs)))
    uid = session.state.flight.active
    expected = legal_next_steps(session)
    assert expected and len(expected) >= 3  # moving on, burning for the polar orbit, deorbiting...
    click(app, scene.markers.screen_pos[uid])
    assert scene.selected == uid
    assert scene.lit_steps() == expected
    assert drawn and drawn[-1] == expected  # and they are drawn lit on this very frame
    click(app, scene.markers.screen_pos[uid])  # closing its card keeps them lit: it is still the craft in hand
    assert scene.selected is None and scene.lit_steps() == expected


def test_another_crafts_card_does_not_light_the_craft_in_hands_steps(make_app, home, demo_state):
    app, session, scene = open_scene(make_app, home, demo_state)
    active = session.state.flight.active
    other = next(uid for uid in scene.markers.screen_pos if uid != active)
    click(app, scene.markers.screen_pos[other])
    assert scene.selected == other
    assert scene.lit_steps() == set()


@pytest.mark.parametrize("size", [(1280, 720), (3840, 2160)], ids=["1280x720", "3840x2160"])
def test_markers_fanned_out_on_one_step_are_each_clickable(make_app, home, demo_state, size):
    step = "low_2"
    state = dataclasses.replace(demo_state, upgoers=tuple(
        dataclasses.replace(u, location=step, status="flying") for u in demo_state.upgoers))
    app, session, scene = open_scene(make_app, home, state, size)
    here = [uid for uid, at in scene.markers.at.items() if at == step]
    assert len(here) == 4 and len({session.state.upgoer(uid).owner for uid in here}) == 4
    positions = {uid: scene.markers.screen_pos[uid] for uid in here}
    r = scene.markers.radius
    for uid, (x, y) in positions.items():  # side by side, none over another
        for other, (ox, oy) in positions.items():
            if other != uid:
                assert math.hypot(ox - x, oy - y) >= 2 * r
    sx, sy = scene.board_view.step_screen(step)
    assert all(math.hypot(x - sx, y - sy) < r * 6 for x, y in positions.values())  # and beside their step
    for uid in here:
        click(app, positions[uid])
        assert scene.selected == uid, f"clicking {uid}'s marker selected {scene.selected}"
        click(app, positions[uid])
        assert scene.selected is None
