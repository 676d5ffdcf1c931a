"""pygame_gui draws a widget's rarer looks (pressed, selected, disabled) the first time it shows them, not all
when the widget is made (kit.style.draw_rare_shape_states_when_shown, installed by the app): the same pixels,
far less memory on a 4K screen of buttons."""
import pygame
import pygame_gui


def _bytes(surface: pygame.Surface) -> bytes:
    return pygame.image.tobytes(surface, "RGBA")


def _button(app, rect, text="Research"):
    button = pygame_gui.elements.UIButton(pygame.Rect(rect), text, app.manager)
    for _ in range(8):  # pygame_gui draws the looks it draws up front one a frame
        app.step(1 / 30, [])
    return button


def test_rare_looks_wait_until_shown_and_look_the_same(make_app):
    app = make_app((2560, 1440))
    app.start("title")
    lazy = _button(app, (100, 100, 600, 120))
    states = lazy.drawable_shape.states
    assert states["normal"].generated and states["hovered"].generated
    assert not states["selected"].generated and not states["active"].generated  # never shown: never drawn
    lazy.select()
    app.step(1 / 30, [])
    assert states["selected"].generated
    eager = _button(app, (100, 300, 600, 120))
    eager.drawable_shape.redraw_all_states(force_full_redraw=True)  # every look, as pygame_gui would
    while eager.drawable_shape.states_to_redraw_queue:
        eager.drawable_shape.update(0.0)
    assert _bytes(states["selected"].surface) == _bytes(eager.drawable_shape.states["selected"].surface)


def test_a_look_made_stale_by_a_new_size_is_drawn_again_when_shown(make_app):
    app = make_app((1280, 720))
    app.start("title")
    button = _button(app, (100, 100, 300, 60))
    button.select()
    app.step(1 / 30, [])
    button.unselect()
    app.step(1 / 30, [])
    button.set_dimensions((400, 80))
    for _ in range(45):  # pygame_gui rebuilds a resized shape after a short wait
        app.step(1 / 30, [])
    assert button.drawable_shape.states["normal"].surface.get_size() == (400, 80)
    button.select()
    app.step(1 / 30, [])
    shape = button.drawable_shape
    assert shape.states["selected"].surface.get_size() == shape.states["normal"].surface.get_size() == (400, 80)


def test_the_two_layers_over_pygame_guis_shape_look_up_are_put_on_once_however_often_apps_start():
    """``style.keep_big_looks`` and ``kept_looks.install`` both hook pygame_gui's shape look-up and its finishing
    of a look (``kept_looks.hook_looks``); run in any order, again and again (an app started anew in one process,
    as the tests do), the methods must be wrapped once, or every look drawn goes through a chain that grows until
    Python's recursion limit."""
    from pygame_gui.core.drawable_shapes.rounded_rect_drawable_shape import RoundedRectangleShape
    from pygame_gui.core.surface_cache import SurfaceCache

    from game.client.kit import kept_looks, style

    style.keep_big_looks()
    kept_looks.install()
    wrapped = (SurfaceCache.find_surface_in_cache, RoundedRectangleShape.finalise_images_and_text,
               RoundedRectangleShape.set_dimensions)
    for _ in range(3):
        kept_looks.install()
        style.keep_big_looks()
    assert (SurfaceCache.find_surface_in_cache, RoundedRectangleShape.finalise_images_and_text,
            RoundedRectangleShape.set_dimensions) == wrapped
