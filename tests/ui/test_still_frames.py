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


def _scroll_down_over(app, pos, notches: int) -> None:
    """Point at ``pos`` and turn the mouse wheel ``notches`` times downwards, then let the scrolling settle."""
    pygame.mouse.set_pos(pos)
    app.step(1 / 30, [pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0))])
    for _ in range(notches):
        app.step(1 / 30, [pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=-1, flipped=False, precise_x=0.0,
                                             precise_y=-1.0, which=0)])
    for _ in range(10):
        app.step(1 / 30, [])


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


def _reference_drawn_whole(app, scene) -> bytes:
    """The reference drawn afresh now: the scenes beneath, dimmed, the card, the section and its words as
    scrolled, then the widgets."""
    from game.client.kit.style import dim, draw_card

    whole = app.surface.copy()
    for below in list(app.stack)[:-1]:
        below.draw(whole)
    dim(whole)
    draw_card(whole, scene.card_rect(), app.context.layout)
    scene.draw_section(whole)
    scene.text_box.paint(whole)
    app.manager.draw_ui(whole)
    return pygame.image.tobytes(whole, "RGB")


@pytest.mark.parametrize("game", ["whatgoesup", "cosmoforce"])
def test_the_reference_keeps_what_was_beneath_and_paints_each_section_once(make_app, game):
    app = make_app((1280, 720))
    app.start("title")
    app.step(1 / 30, [])
    scene = app.context.open_reference(game, section="")
    app.step(1 / 30, [])
    assert not scene.is_overlay  # it has its picture: the title beneath is no longer drawn
    for _ in range(5):
        app.step(1 / 10, [])
    assert pygame.image.tobytes(app.surface, "RGB") == _reference_drawn_whole(app, scene)
    other = next(s.key for s in scene.sections if s.key != scene.section)
    _press(app, scene.buttons[f"section:{other}"])
    app.step(1 / 30, [])
    app.step(1 / 30, [])
    assert scene.section == other
    assert pygame.image.tobytes(app.surface, "RGB") == _reference_drawn_whole(app, scene)
    app.context.back()
    app.step(1 / 30, [])
    assert app.stack.top.name == "title" and scene._backing is None


def test_the_reference_paints_its_words_again_as_they_scroll(make_app):
    app = make_app((1280, 720))
    app.start("title")
    app.step(1 / 30, [])
    scene = app.context.open_reference("whatgoesup", section="glossary")
    app.step(1 / 30, [])
    assert scene.text_box.scroll_bar is not None and scene.scroll_fraction() == 0.0
    _scroll_down_over(app, scene.text_box.rect.center, 6)
    assert scene.scroll_fraction() > 0.0
    assert pygame.image.tobytes(app.surface, "RGB") == _reference_drawn_whole(app, scene)


def test_a_long_rnd_manifest_scrolls_repainting_only_its_words(rnd):
    app, scene = rnd
    words = scene.manifest_html()
    scene.manifest_html = lambda: words * 6  # a long game's manifest
    scene.relayout()
    app.step(1 / 30, [])
    assert scene.manifest.scroll_bar is not None and scene.manifest.offset() == 0
    painted = scene.still.paints
    _scroll_down_over(app, scene.manifest.rect.center, 4)
    assert scene.manifest.offset() > 0 and scene.still.paints == painted  # the words alone were painted again
    _matches_whole_draw(app, scene)


@pytest.mark.parametrize("shot", ["shot_trade", "shot_trade_answer", "shot_report", "shot_log"])
def test_trade_report_and_story_screens_paint_once_and_match_the_whole_draw(make_app, shot):
    from game.tools import flow_shots

    app = make_app((1280, 720))
    getattr(flow_shots, shot)(app)
    scene = app.stack.top
    painted = scene.still.paints
    for _ in range(12):
        app.step(1 / 10, [])
    assert painted >= 1 and scene.still.paints == painted
    _matches_whole_draw(app, scene)
