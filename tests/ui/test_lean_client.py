"""The client's base stays light: pygame_gui's smoothing scratch is let go after each state it draws (the
same pixels), so a 4K scene does not hold a menu's worth of 4x surfaces at once."""
import pygame
from pygame_gui.core.drawable_shapes.rounded_rect_drawable_shape import RoundedRectangleShape


def _state_bytes(shape, state: str) -> bytes:
    return pygame.image.tobytes(shape.states[state].surface, "RGBA")


def test_title_buttons_hold_no_smoothing_scratch(make_app):
    app = make_app((1600, 900))
    app.start("title")
    app.step(1 / 30, [])
    shapes = [button.drawable_shape for button in app.stack.top.buttons.values()]
    assert shapes and all(isinstance(shape, RoundedRectangleShape) for shape in shapes)
    for shape in shapes:
        assert shape.temp_additive_shape is None and shape.temp_subtractive_shape is None


def test_dropping_the_scratch_keeps_the_same_pixels(make_app):
    app = make_app((2560, 1440))  # menu buttons too big for pygame_gui's shape cache: every state is drawn
    app.start("title")
    shape = app.stack.top.buttons["new_game"].drawable_shape
    assert shape.containing_rect.width * shape.containing_rect.height >= 40000
    lean = RoundedRectangleShape.redraw_state
    for state in ("normal", "hovered", "disabled", "active"):
        lean(shape, state)
        ours = _state_bytes(shape, state)
        lean.keeps_scratch(shape, state)  # pygame_gui's own, keeping its scratch from the state before
        assert _state_bytes(shape, state) == ours, state
