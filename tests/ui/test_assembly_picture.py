"""The Upgoer drawn in assembly: drags build the same design as buttons, the picture's numbers are the
design report's, and the picture fits its card at 1280x720 and 1920x1080 with no label on another."""
from __future__ import annotations

import itertools

import pygame
import pygame_gui
import pytest

from game.games.whatgoesup.rules.actions import Build
from game.games.whatgoesup.rules.state import UpgoerDesign

SIZES = [(1280, 720), (1920, 1080)]


def press(app, button):
    assert button.is_enabled, f"{button.text!r} is disabled"
    app.step(0.0, [pygame.event.Event(pygame_gui.UI_BUTTON_PRESSED, {"ui_element": button, "ui_object_id": ""})])


def drag(app, start, end):
    """Press at ``start``, move in two steps, let go at ``end``: what a player's mouse sends."""
    pygame.mouse.set_pos(start)
    app.step(1 / 30, [pygame.event.Event(pygame.MOUSEBUTTONDOWN, {"pos": start, "button": 1})])
    middle = ((start[0] + end[0]) // 2, (start[1] + end[1]) // 2)
    for pos in (middle, end):
        app.step(1 / 30, [pygame.event.Event(pygame.MOUSEMOTION, {"pos": pos, "rel": (0, 0), "buttons": (1, 0, 0)})])
    app.step(1 / 30, [pygame.event.Event(pygame.MOUSEBUTTONUP, {"pos": end, "button": 1})])


def open_assembly(make_app, home, size=(1280, 720), with_thruster=False, ui_scale=1.0):
    import dataclasses

    from game.tools.flow_shots import _flow, scripted_session
    from game.client.whatgoesup.assembly import AssemblyScene

    session = scripted_session(home / "saves")
    if with_thruster:
        puffer = next(t for t in session.state.things_of(0) if t.name == "Puffer")
        session.apply(Build(puffer.id))
    app = make_app(size=size)
    if ui_scale != 1.0:  # bigger text and buttons: the layout has fewer units to work with
        app.context.update_settings(dataclasses.replace(app.settings, ui_scale=ui_scale))
    flow = _flow(app, session)
    scene = app.context.stack.push(AssemblyScene(app.context, flow, 0))
    app.step(0.0, [])
    return app, flow, scene


def part_ids(state):
    return {state.thing(i.thing_id).name: i.id for i in state.items_of(0)}


def test_a_design_built_by_drags_equals_the_same_design_built_by_buttons(make_app, home):
    app, flow, scene = open_assembly(make_app, home, with_thruster=True)
    ids = part_ids(scene.state)
    derp = next(d.id for d in scene.state.derps_of(0) if d.can_fly)
    for key in (f"pick:launch:{ids['Big Hopper']}", f"pick:insert:{ids['Little Hopper']}",
                f"pick:aboard:{ids['Burrow Pod']}", f"pick:aboard:{ids['Puffer']}", f"pick:crew:{derp}",
                "step:fuel:1"):
        press(app, scene.buttons[key])
    by_buttons = scene.design()
    assert by_buttons.stages == ((ids["Big Hopper"],), (ids["Little Hopper"],)) and by_buttons.fuel == 1

    press(app, scene.buttons["clear"])
    assert scene.design() == UpgoerDesign(name=by_buttons.name)
    row = lambda some_id: scene.row_images[some_id][1].rect.center  # noqa: E731
    drag(app, row(ids["Big Hopper"]), scene.picture().zones["launch"].center)
    launch = scene.picture().zones["launch"]
    drag(app, row(ids["Little Hopper"]), (launch.centerx, launch.top - 10))  # just above the launch stage
    for some_id in (ids["Burrow Pod"], ids["Puffer"], derp):
        drag(app, row(some_id), scene.picture().rect.center)
    press(app, scene.buttons["step:fuel:1"])
    assert scene.design() == by_buttons
    assert scene.buttons[f"pick:insert:{ids['Little Hopper']}"].is_selected  # the buttons follow the drags
    assert scene.buttons[f"pick:crew:{derp}"].is_selected

    # Dragging a part off the rocket is pressing its button again.
    piece = next(p for p in scene.picture().pieces if p.key == ids["Little Hopper"])
    drag(app, piece.rect.center, scene.report_rect().center)
    by_drag_off = scene.design()
    scene.load_design(by_buttons)
    press(app, scene.buttons[f"pick:insert:{ids['Little Hopper']}"])
    assert by_drag_off == scene.design() and by_drag_off.stages == ((ids["Big Hopper"],),)
    crew = next(p for p in scene.picture().pieces if p.kind == "crew")
    drag(app, crew.rect.center, scene.report_rect().center)
    assert scene.design().crew == () and not scene.buttons[f"pick:crew:{derp}"].is_selected
    # A short press is not a drag: nothing moves.
    before = scene.design()
    drag(app, row(ids["Big Hopper"]), (row(ids["Big Hopper"])[0] + 2, row(ids["Big Hopper"])[1]))
    assert scene.design() == before


def designs(state, ids, derp):
    yield UpgoerDesign("Empty")
    yield UpgoerDesign("Stage", stages=((ids["Big Hopper"],),))
    yield UpgoerDesign("Orbiter", stages=((ids["Big Hopper"],), (ids["Little Hopper"],)), modules=(ids["Burrow Pod"],),
                       crew=(derp,))
    yield UpgoerDesign("With fuel", stages=((ids["Big Hopper"],), (ids["Little Hopper"],)),
                       modules=(ids["Burrow Pod"], ids["Puffer"]), crew=(derp,), fuel=2)
    yield UpgoerDesign("Too heavy", stages=((ids["Little Hopper"],),), modules=(ids["Burrow Pod"], ids["Puffer"]),
                       crew=(derp,), fuel=2)
    yield UpgoerDesign("Cluster", stages=((ids["Big Hopper"], ids["Little Hopper"]),), modules=(ids["Burrow Pod"],))


def test_the_pictures_stage_masses_are_the_design_reports(make_app, home):
    from game.client.whatgoesup.rocket_view import rocket_picture

    app, flow, scene = open_assembly(make_app, home, with_thruster=True)
    state, engine = scene.state, scene.engine
    ids = part_ids(state)
    derp = next(d.id for d in state.derps_of(0) if d.can_fly)
    for design in designs(state, ids, derp):
        report = engine.check_design(state, 0, design)
        picture = rocket_picture(scene.picture_rect(), engine, state, design, 0, app.layout.scale)
        drawn = [(m.lift, m.mass, m.carries, m.ok) for m in picture.stages]
        assert drawn == [(s.lift, s.mass, s.carries, s.ok) for s in report.stages], design.name
        ppm = picture.pixels_per_mass
        for mark in picture.stages:  # one scale: a stage is as tall as its mass, its lift bar as its lift
            assert abs(mark.rect.h - mark.mass * ppm) <= 1.5
            assert abs((mark.rect.top - mark.lift_top) - mark.lift * ppm) <= 1.5
            assert mark.lift_rect.bottom == mark.rect.top and mark.lift_rect.top >= mark.lift_top
            words = " ".join(text for c in picture.callouts if c.about == f"stage:{mark.level}"
                             for text, _, _ in c.lines)
            assert f"lifts {mark.lift}" in words and f"carries {mark.carries}" in words
            assert ("OK" in words) == mark.ok
        if report.total_mass:
            assert abs((picture.ground_y - picture.top_y) - float(report.total_mass) * ppm) <= len(picture.pieces) + 1
        stage_pieces = {p.key for p in picture.pieces if p.kind == "stage"}
        assert stage_pieces == {i for cluster in design.stages for i in cluster}
        assert {p.key for p in picture.pieces if p.kind == "module"} == set(design.modules)
        assert {p.key for p in picture.pieces if p.kind == "crew"} == set(design.crew)


def test_an_upgoer_on_the_pad_draws_from_its_own_parts(make_app, home):
    from game.tools.flow_shots import scripted_session
    from game.games.whatgoesup.rules.design import check_design
    from game.client.whatgoesup.rocket_view import draw_rocket

    session = scripted_session(home / "saves", assemble=True)
    state = session.state
    upgoer = state.upgoers_of(0)[0]
    surface = pygame.Surface((1280, 720))
    picture = draw_rocket(surface, pygame.Rect(900, 100, 300, 420), session.engine, state, upgoer.id)
    design = picture.design
    report = check_design(state, 0, design, session.engine.rules, on_board_of=upgoer.id)
    assert report.valid and picture.report == report
    assert {p.key for p in picture.pieces if p.kind in ("stage", "module")} == set(design.all_items())
    assert [m.carries for m in picture.stages] == [s.carries for s in report.stages]
    small = draw_rocket(surface, pygame.Rect(0, 0, 160, 220), session.engine, state, upgoer.id, labels=False)
    assert small.callouts == [] and all(pygame.Rect(0, 0, 160, 220).contains(p.rect) for p in small.pieces)


@pytest.mark.parametrize("size, ui_scale", [(SIZES[0], 1.0), (SIZES[1], 1.0), (SIZES[0], 1.5)])
def test_the_picture_fits_its_card_and_no_label_touches_another(make_app, home, size, ui_scale):
    app, flow, scene = open_assembly(make_app, home, size=size, with_thruster=True, ui_scale=ui_scale)
    ids = part_ids(scene.state)
    derp = next(d.id for d in scene.state.derps_of(0) if d.can_fly)
    window = pygame.Rect((0, 0), size)
    for design in designs(scene.state, ids, derp):
        scene.load_design(design)
        app.step(1 / 30, [])
        picture = scene.picture()
        card = scene.right_rect()
        assert window.contains(card) and card.contains(picture.rect) and card.contains(scene.report_rect())
        assert not picture.rect.colliderect(scene.report_rect())
        assert picture.rect.w * picture.rect.h >= 0.5 * card.w * card.h * 0.6  # the picture is most of the card
        for piece in picture.pieces:
            assert picture.rect.contains(piece.rect), (design.name, piece)
        for mark in picture.stages:
            assert picture.rect.contains(mark.lift_rect) and not mark.lift_rect.colliderect(picture.caption_rect)
        labels = picture.label_rects()
        for label in labels:
            assert picture.rect.contains(label), (design.name, label)
        for a, b in itertools.combinations(labels, 2):
            assert not a.colliderect(b), (design.name, a, b)
        if picture.rocket_rect is not None:
            for callout in picture.callouts:
                assert callout.rect.left > max([picture.rocket_rect.right] +
                                               [m.lift_rect.right for m in picture.stages]), design.name
        if design.name == "Orbiter":  # a first orbiter fills most of the picture's height
            assert picture.ground_y - picture.top_y >= 0.6 * picture.rect.h
            assert len(picture.callouts) == 4  # capsule, two stages, the whole Upgoer
        if design.name == "With fuel":
            assert {c.about for c in picture.callouts} >= {"capsule", "fuel", "thruster", "stage:0", "stage:1"}


@pytest.mark.parametrize("size", SIZES)
def test_messages_show_whole_where_no_widget_is(make_app, home, size):
    from game.client.kit.widgets import status_lines

    app, flow, scene = open_assembly(make_app, home, size=size)
    strip = scene.status_rect()
    assert pygame.Rect((0, 0), size).contains(strip)
    for element in [scene.scroll, scene.name_entry, *scene.buttons.values()]:
        assert not element.rect.colliderect(strip), element
    scene.roll_out()  # refused: nothing is on the pad, the engine says why
    assert scene.toast_kind == "error"
    layout = app.layout
    font, lines = status_lines(scene.toast_text, strip.w - 2 * layout.px(10), strip.h - 2 * layout.px(4),
                               layout.px(18))
    assert " ".join(lines).split() == scene.toast_text.split()  # every word, none cut
    assert len(lines) * font.get_linesize() <= strip.h


def test_the_rations_stepper_loads_a_whole_container_a_press(make_app, home):
    """Issue 13, 6b: "rations ... are loaded in twos": one press is one container, never more than is at home."""
    from game.games.whatgoesup.rules.actions import BuyConsumables

    app, flow, scene = open_assembly(make_app, home)
    flow.session.apply(BuyConsumables("rations", 2))
    stock = scene.state.programs[0].rations_stock
    assert stock == 4
    press(app, scene.buttons["step:rations:1"])
    assert scene.rations == 2
    for _ in range(stock):
        press(app, scene.buttons["step:rations:1"])
    assert scene.rations == stock  # never more than is at home
    press(app, scene.buttons["step:rations:-1"])
    assert scene.rations == stock - 2
