"""Feedback on the board: every settled roll shows where it happened (launch flame, Boom, Fail, reentry glow,
parachute), firsts get a banner, the camera finds the rolling craft, and nothing waits on any of it."""
from __future__ import annotations

import dataclasses

import pygame
import pytest

from game.client.whatgoesup.effects import EffectLayer, effect_for_roll, first_banner
from game.client.whatgoesup.shipped import shipped_engine
from game.tools.field_shots import _to_burn_roll, build_demo_state, open_field

DT = 1 / 30
SPACE = pygame.event.Event(pygame.KEYDOWN, {"key": pygame.K_SPACE, "mod": 0, "unicode": " ", "scancode": 0})


@pytest.fixture(scope="module")
def demo_state():
    return build_demo_state(shipped_engine())


def _field(make_app, home, demo_state, **settings):
    from game.core.session import GameSession

    app = make_app()
    if settings:
        app.settings = dataclasses.replace(app.settings, **settings)
    session = GameSession(shipped_engine(), demo_state.setup, 7, states=(demo_state,), saves_dir=home)
    scene = open_field(app, session)
    app.step(DT, [])
    return app, session, scene


def _roll_and_read(app, scene, value):
    """Roll Bram's burn with ``value`` and read the card; returns where the craft stood when it rolled."""
    _to_burn_roll(app, scene, value)
    spot = scene._craft_spot(scene.state.flight.roll.upgoer, scene.state)
    scene.roll()
    for _ in range(int(4 / DT)):
        app.step(DT, [])
    mode = scene.roll_panel.pending(scene.state)
    if mode == "help":  # a Fail or Boom the crew could help with: accept it as it is
        from game.games.whatgoesup.rules.flight_actions import AcceptRoll
        scene.act(next(a for a in scene.session.legal_actions() if isinstance(a, AcceptRoll)))
    app.step(DT, [SPACE])
    return spot


@pytest.mark.parametrize("value,kind", [(19, "boom"), (14, "fail"), (3, None)])
def test_a_settled_burn_shows_on_the_board(make_app, home, demo_state, value, kind):
    """A Boom and a Fail each start their animation where the craft was; a burn that worked shows nothing."""
    app, session, scene = _field(make_app, home, demo_state)
    spot = _roll_and_read(app, scene, value)
    if kind is None:
        assert scene.effects.spawned == []
        return
    assert scene.effects.spawned[:1] == [kind]
    assert scene.effects.effects and scene.effects.effects[0].board_pos == pytest.approx(spot)
    surface = pygame.Surface(app.layout.size)
    scene.draw(surface)  # the effect draws over the board
    for _ in range(int(3 / DT)):  # and plays out by itself, with nobody waiting on it
        app.step(DT, [])
    assert not scene.effects.active


def test_effects_follow_the_animation_speed(make_app, home, demo_state):
    app, session, scene = _field(make_app, home, demo_state, animation_speed="skip")
    _to_burn_roll(app, scene, 19)
    scene.roll()
    app.step(DT, [])
    assert scene.roll_panel.show is None or scene.roll_panel.pending(scene.state) == "help"
    assert scene.effects.spawned == []  # skipped animations make no effects at all


@pytest.mark.parametrize("kind,outcome,effect", [
    ("launch", "ok", "launch"), ("reentry", "ok", "reentry"), ("landing", "ok", "landing"),
    ("lunar_landing", "ok", "landing"), ("burn", "boom", "boom"), ("duration_capsule", "fail", "fail"),
    ("duration_capsule", "ok", None), ("docking", "ok", None),
])
def test_which_rolls_show(kind, outcome, effect):
    assert effect_for_roll(kind, outcome) == effect


def test_a_first_gets_a_banner():
    line = ("Prestige First - mission step: Spudnik Program is first! (Orbital Insertion) +1 dot(s) at the end "
            "of the turn.")
    assert first_banner(line) == "Spudnik Program is first: Orbital Insertion! +1 dot"
    layer = EffectLayer(1.0)
    started = layer.spawn_for_roll("orbital_insertion", "ok", (10.0, 20.0), ["Mash One reaches orbit!", line])
    assert started == ["first"] and layer.effects[0].text.startswith("Spudnik Program is first")
    layer.update(10.0)
    assert not layer.active


def test_the_camera_finds_a_rolling_craft_off_screen(make_app, home, demo_state):
    app, session, scene = _field(make_app, home, demo_state)
    _to_burn_roll(app, scene, 5)
    assert session.waiting_for_dice
    spot = scene._craft_spot(session.state.flight.roll.upgoer, session.state)
    scene.board_view.zoom_at(4.0)
    scene.board_view.pan(-3000, -3000)
    scene._panned_for = None
    app.step(DT, [])
    x, y = scene.board_view.to_screen(spot)
    assert scene.board_rect.collidepoint(x, y)
