"""The Field's names, laid out headless at every supported size with four programs' markers piled on the
busiest steps: no two names overlap, no name covers a marker or a step, and every body and orbit is named
at the default zoom."""
from __future__ import annotations

import dataclasses
import math

import pygame
import pytest

from game.client.whatgoesup.board_labels import LabelRequest, LineGrid, layout_labels
from game.client.whatgoesup.field import FieldScene
from game.client.whatgoesup.shipped import shipped_engine
from game.core.session import GameSession
from game.tools.field_shots import build_demo_state, open_field

from ui_sizes import SIZE_IDS, SIZES


def busiest_steps(geometry, count: int) -> list[str]:
    """The steps with the most other steps close round them (where names and markers fight for room)."""
    def crowd(sid: str) -> int:
        x, y = geometry.pos(sid)
        return sum(1 for other in geometry.steps if other != sid
                   and math.hypot(geometry.pos(other)[0] - x, geometry.pos(other)[1] - y) < 110)
    return sorted(geometry.steps, key=lambda sid: (-crowd(sid), sid))[:count]


@pytest.fixture(scope="module")
def crowded_state():
    """Three crafts for each of four programs, every program's k-th craft on the k-th busiest step."""
    engine = shipped_engine()
    state = build_demo_state(engine, crafts_per_program=3)
    from game.client.whatgoesup.board_view import FieldGeometry

    busy = busiest_steps(FieldGeometry(engine.rules.board), 3)
    seen: dict[int, int] = {}
    upgoers = []
    for upgoer in state.upgoers:
        k = seen.get(upgoer.owner, 0)
        seen[upgoer.owner] = k + 1
        upgoers.append(dataclasses.replace(upgoer, location=busy[k % 3], status="flying"))
    return dataclasses.replace(state, upgoers=tuple(upgoers)), busy


def open_crowded(make_app, home, state, size):
    app = make_app(size)
    session = GameSession(shipped_engine(), state.setup, 7, states=(state,), saves_dir=home)
    scene = open_field(app, session)
    assert isinstance(scene, FieldScene)
    for _ in range(3):
        app.step(1 / 30, [])
    return app, scene


def marker_extents(scene) -> list[pygame.Rect]:
    """What each resting marker covers on screen: its shape with its dark rim."""
    r = scene.markers.radius * 1.3
    return [pygame.Rect(int(x - r), int(y - r), int(2 * r), int(2 * r))
            for uid, (x, y) in scene.markers.screen_pos.items() if uid not in scene.markers.glides]


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
def test_names_never_overlap_each_other_or_a_marker_at_any_size(make_app, home, crowded_state, size):
    state, busy = crowded_state
    app, scene = open_crowded(make_app, home, state, size)
    markers = marker_extents(scene)
    on_busy = [uid for uid, step in scene.markers.at.items() if step in busy]
    assert len(on_busy) == 12  # four programs' markers on each of the three busiest steps
    names = scene.labels.screen_rects()
    rects = list(names.items())
    for i, (key, rect) in enumerate(rects):
        for other, other_rect in rects[i + 1:]:
            assert not rect.colliderect(other_rect), f"{key} overlaps {other} at {size}"
        hit = rect.collidelist(markers)
        assert hit == -1, f"{key} covers a marker at {size}"
        assert scene.board_rect.contains(rect), f"{key} leaves the board at {size}"
    view = scene.board_view
    for key, rect in rects:
        for sid in view.geometry.steps:
            x, y = view.step_screen(sid)
            r = view.radius_for(sid)
            assert not rect.colliderect(pygame.Rect(int(x - r), int(y - r), int(2 * r), int(2 * r))), \
                f"{key} covers step {sid} at {size}"
    geometry = view.geometry
    wanted = {f"body:{b.id}" for b in geometry.bodies} | {f"ring:{ring.steps[0]}" for ring in geometry.rings}
    assert wanted <= set(names), f"unnamed at {size}: {sorted(wanted - set(names))}"


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
def test_the_way_out_and_the_way_home_are_named_at_the_default_zoom(make_app, home, crowded_state, size):
    state, _ = crowded_state
    app, scene = open_crowded(make_app, home, state, size)
    shown = {label.text for label in scene.labels.placed}
    for name in ("The World", "The Moon", "Low Orbit", "Spaceport", "Launch", "Lunar Transfer",
                 "Return Transit", "Reentry", "Landing"):
        assert name in shown, f"{name} is not named at {size}"


def test_names_are_laid_out_again_only_when_the_view_or_markers_change(make_app, home, crowded_state):
    state, _ = crowded_state
    app, scene = open_crowded(make_app, home, state, (1280, 720))
    layouts = scene.labels.layouts
    for _ in range(5):
        app.step(1 / 30, [])
    assert scene.labels.layouts == layouts
    scene.board_view.zoom_at(1.3)
    app.step(1 / 30, [])
    assert scene.labels.layouts == layouts + 1


def test_layout_refuses_every_overlap_and_keeps_the_cheapest_free_place():
    pygame.font.init()
    grid = LineGrid((0, 0), (400, 200), 8)
    grid.add((x, 50) for x in range(0, 400, 2))  # a drawn line along y = 50
    first = LabelRequest("a", "A", "step", (255, 255, 255), ((100, 50), (100, 100)))
    second = LabelRequest("b", "B", "step", (255, 255, 255), ((100, 100), (200, 150)), order=1)
    blocked = LabelRequest("c", "C", "step", (255, 255, 255), ((300, 100),), order=2)
    placed = layout_labels([blocked, second, first], lambda text, style: (40, 20), [pygame.Rect(290, 90, 20, 20)],
                           grid, pygame.Rect(0, 0, 400, 200))
    # "a" leaves the line for its second place; "b" finds its first place taken by "a"; "c"'s only place is
    # under an obstacle, so it is not shown (it would be named on hover)
    assert {p.key: p.rect.center for p in placed} == {"a": (100, 100), "b": (200, 150)}


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
def test_stop_the_rock_names_the_rock_and_its_orbit_without_overlaps(make_app, home, size):
    from game.tools.rock_shots import rock_session

    app = make_app(size)
    scene = open_field(app, rock_session(home / "saves", players=2))
    for _ in range(3):
        app.step(1 / 30, [])
    names = scene.labels.screen_rects()
    assert {"body:rock", "ring:rock_libration", "step:rock_transit", "step:rock_surface"} <= set(names)
    rects = list(names.values())
    markers = marker_extents(scene)
    for i, rect in enumerate(rects):
        assert rect.collidelist(rects[i + 1:]) == -1 and rect.collidelist(markers) == -1
