"""R&D and assembly keep a still picture of themselves (kit.still.StillFrame): painted once per change, every
frame after that is the picture with the uncovered stars twinkling and pygame_gui's widgets on top. Each frame
must look as the scene drawn whole at that moment does; only the stars behind a card, its shadow or the
header's veil keep the look they had when the picture was painted."""
import pygame
import pygame_gui
import pytest

from game.client.scenes.game_scene import GameScene


def _press(app, button):
    app.step(0.0, [pygame.event.Event(pygame_gui.UI_BUTTON_PRESSED, {"ui_element": button, "ui_object_id": ""})])


def _masked(surface: pygame.Surface, rects) -> bytes:
    out = surface.copy()
    for rect in rects:
        out.fill((0, 0, 0), rect)
    return pygame.image.tobytes(out, "RGB")


def _matches_whole_draw(app, scene) -> None:
    """The frame on screen equals the scene drawn whole now (its own uncached draw, then the widgets), but
    for the stars the picture keeps as painted."""
    whole = app.surface.copy()
    GameScene.draw(scene, whole)
    app.manager.draw_ui(whole)
    shown = set(scene.still._stars)
    kept = [rect for i, rect in enumerate(scene.backdrop.star_rects(whole.get_size())) if i not in shown]
    assert _masked(app.surface, kept) == _masked(whole, kept)


@pytest.fixture
def rnd(make_app):
    from game.tools import flow_shots

    app = make_app((1280, 720))
    flow_shots.shot_rnd(app)
    return app, app.stack.top


def test_rnd_paints_once_and_its_frames_match_the_whole_draw(rnd):
    app, scene = rnd
    assert scene.name == "rnd" and scene.still._stars  # stars show round the cards
    painted = scene.still.paints
    for _ in range(12):  # the stars twinkle: time goes on
        app.step(1 / 10, [])
    assert scene.still.paints == painted  # nothing changed: never painted again
    _matches_whole_draw(app, scene)


def test_rnd_paints_again_when_the_form_changes(rnd):
    app, scene = rnd
    painted = scene.still.paints
    assert scene.form["r_safety"] == "fail"
    _press(app, scene.buttons["set:r_safety:boom"])
    app.step(1 / 30, [])
    assert scene.form["r_safety"] == "boom" and scene.still.paints == painted + 1
    app.step(1 / 30, [])
    _matches_whole_draw(app, scene)


def test_rnd_picture_goes_when_covered_and_comes_back(rnd):
    app, scene = rnd
    _press(app, scene.buttons["assemble"])
    assembly = app.stack.top
    assert assembly.name == "assembly" and scene.still._layer is None  # one full-screen picture at a time
    app.step(1 / 30, [])
    app.context.back()
    app.step(1 / 30, [])
    app.step(1 / 30, [])
    assert app.stack.top is scene
    _matches_whole_draw(app, scene)


def test_assembly_frames_match_the_whole_draw_and_a_change_repaints(make_app):
    from game.tools import flow_shots

    app = make_app((1280, 720))
    flow_shots.shot_assembly_valid(app)
    scene = app.stack.top
    assert scene.name == "assembly"
    painted = scene.still.paints
    for _ in range(12):
        app.step(1 / 10, [])
    assert scene.still.paints == painted
    _matches_whole_draw(app, scene)
    _press(app, scene.buttons["step:fuel:1"])
    app.step(1 / 30, [])
    assert scene.still.paints == painted + 1
    app.step(1 / 30, [])
    _matches_whole_draw(app, scene)
