"""The Field's frames: the still parts are painted once per change and copied, and a frame brought up to
date by redrawing only what moved (``FieldScene.draw_changes``) equals the same moment drawn whole."""
from __future__ import annotations

import pygame
import pytest

from game.games.whatgoesup.rules.flight_actions import Burn, Move
from game.client.whatgoesup.game_flow import shipped_engine
from game.tools.field_shots import build_demo_state, open_field

DT = 1 / 30


@pytest.fixture(scope="module")
def busy_state():
    return build_demo_state(shipped_engine(), crafts_per_program=3)


def _open(make_app, home, state, size):
    from game.core.session import GameSession

    app = make_app(size)
    session = GameSession(shipped_engine(), state.setup, 11, states=(state,), saves_dir=home)
    scene = open_field(app, session)
    return app, session, scene


def _glide_some(scene, session) -> None:
    """Send four markers a step on and let them glide back to where the state has them."""
    for uid in list(scene.markers.at)[:4]:
        step = scene.markers.at[uid]
        scene.markers.at[uid] = scene.board_view.geometry.steps[step].next or step
    scene.markers.sync(session.state)


def _same_as_whole(app) -> bool:
    """The frame on screen equals the same moment drawn whole (the time does not move: dt 0)."""
    shown = pygame.image.tobytes(app.surface, "RGB")
    app.draw_whole_next_frame()
    app.step(0.0, [])
    return pygame.image.tobytes(app.surface, "RGB") == shown


def _count_changes_only(scene) -> list[int]:
    calls = [0]
    real = scene.draw_changes

    def counted(surface, widgets):
        done = real(surface, widgets)
        calls[0] += bool(done)
        return done
    scene.draw_changes = counted
    return calls


@pytest.mark.parametrize("size", [(1280, 720), (3840, 2160)])
def test_markers_gliding_under_a_settled_roll_card_match_a_whole_frame(make_app, home, busy_state, size):
    app, session, scene = _open(make_app, home, busy_state, size)
    session.apply(Move(session.state.flight.active))
    session.apply(next(a for a in session.legal_actions() if isinstance(a, Burn) and not a.rcs))
    session.roll()
    app.step(DT, [])
    scene.roll_panel.show.animation.skip()  # the dice are down: the card settles
    for _ in range(3):
        app.step(DT, [])
    assert scene.roll_panel.visible(session.state)
    calls = _count_changes_only(scene)
    mismatches = []
    for n in range(40):
        if n % 12 == 0:
            _glide_some(scene, session)
        app.step(DT, [])
        if n % 4 == 1 and not _same_as_whole(app):
            mismatches.append(n)
    assert scene.markers.glides, "the markers were meant to be moving"
    assert mismatches == []
    assert calls[0] >= 30  # most frames only redrew what moved


def test_lit_steps_pulsing_and_a_tooltip_coming_and_going_match_a_whole_frame(make_app, home, busy_state):
    app, session, scene = _open(make_app, home, busy_state, (1920, 1080))
    for _ in range(3):
        app.step(DT, [])
    assert scene.lit_steps(), "the craft in hand has steps to go to"
    calls = _count_changes_only(scene)
    button = next(iter(scene.zoom_buttons))
    inside, outside = button.rect.center, (5, scene.board_rect.bottom - 5)
    mismatches = []
    for n in range(30):
        events = []
        if n in (5, 20):
            events = [pygame.event.Event(pygame.MOUSEMOTION, {"pos": inside if n == 5 else outside, "rel": (0, 0),
                                                              "buttons": (0, 0, 0)})]
        app.step(DT, events)
        if n % 3 == 0 and not _same_as_whole(app):
            mismatches.append(n)
    assert mismatches == []
    assert calls[0] >= 15


def test_the_still_frame_is_painted_once_per_change(make_app, home, busy_state):
    """Twenty frames of gliding markers paint the board and the panels once; a zoom paints them again."""
    app, session, scene = _open(make_app, home, busy_state, (1280, 720))
    for _ in range(3):
        app.step(DT, [])
    painted = []
    real = scene._draw_header
    scene._draw_header = lambda surface: (painted.append(1), real(surface))[1]
    _glide_some(scene, session)
    for _ in range(20):
        app.step(DT, [])
    assert len(painted) <= 1  # at most once, when the gliders left their resting places
    scene.board_view.zoom_at(1.25)
    app.step(DT, [])
    assert len(painted) >= 1


def test_a_toast_running_out_and_a_hover_card_left_leave_nothing_behind(make_app, home, busy_state):
    """A frame drawn whole while something draw_changes does not follow was on screen (a toast, a craft's
    hover card) is followed by a whole one: the toast that ran out, the card the pointer left, are wiped."""
    app, session, scene = _open(make_app, home, busy_state, (1280, 720))
    for _ in range(3):
        app.step(DT, [])
    calls = _count_changes_only(scene)
    scene.toast("Flights of turn 1 begin.")
    mismatches = []
    for n in range(int(scene.TOAST_SECONDS / DT) + 6):
        app.step(DT, [])
        if scene.toast_time <= 0 and not _same_as_whole(app):
            mismatches.append(n)
    assert scene.toast_time <= 0 and mismatches == []
    uid = next(iter(scene.markers.at))
    over = scene.markers.drawn_rects()[0].center
    assert scene.markers.marker_at(over) is not None, uid
    away = (scene.board_rect.left + 3, scene.board_rect.bottom - 3)
    for pos in (over, away):
        app.step(DT, [pygame.event.Event(pygame.MOUSEMOTION, {"pos": pos, "rel": (0, 0), "buttons": (0, 0, 0)})])
        for _ in range(3):
            app.step(DT, [])
    assert scene.hover_marker is None
    assert _same_as_whole(app)
    assert calls[0] >= 3  # quiet frames after both still only redraw what changed


@pytest.mark.parametrize("size", [(1280, 720), (3840, 2160)])
def test_dice_tumbling_with_markers_gliding_match_a_whole_frame(make_app, home, busy_state, size):
    """A burn rolled through the scene: while its dice tumble, frames redraw only what moved (the dice's band
    of the card, the gliding markers) and each equals the same moment drawn whole."""
    app, session, scene = _open(make_app, home, busy_state, size)
    session.apply(Move(session.state.flight.active))
    session.apply(next(a for a in session.legal_actions() if isinstance(a, Burn) and not a.rcs))
    app.step(DT, [])
    scene.roll()
    assert scene.roll_panel.animating
    calls = _count_changes_only(scene)
    mismatches, tumbling = [], 0
    for n in range(36):
        if n % 12 == 0:
            _glide_some(scene, session)
        app.step(DT / 2, [])
        anim = scene.roll_panel.show.animation
        tumbling += any(not anim.landed(i) for i in range(anim.roll.dice))
        if n % 3 == 1:
            scene.roll_panel.forget_still()  # compared with the card painted whole, not with its copy
            if not _same_as_whole(app):
                mismatches.append(n)
    assert tumbling == 36, "the dice were meant to tumble in every frame"
    assert scene.markers.glides, "the markers were meant to be moving"
    assert mismatches == []
    assert calls[0] >= 20  # most frames only redrew the dice and the markers
