"""The client's base stays light: pygame_gui's smoothing scratch is let go after each state it draws (the
same pixels), so a 4K scene does not hold a menu's worth of 4x surfaces at once."""
import pygame
import pytest
import pygame_gui
from pygame_gui.core.drawable_shapes.rounded_rect_drawable_shape import RoundedRectangleShape


def _state_bytes(shape, state: str) -> bytes:
    return pygame.image.tobytes(shape.states[state].surface, "RGBA")


def test_title_buttons_hold_no_smoothing_scratch(make_app):
    app = make_app((3840, 2160))  # a 4x scratch of a menu button is ~9 MiB here (kept only under 4 MiB)
    app.start("title")
    app.step(1 / 30, [])
    shapes = [button.drawable_shape for button in app.stack.top.buttons.values()]
    assert shapes and all(isinstance(shape, RoundedRectangleShape) for shape in shapes)
    for shape in shapes:
        assert shape.temp_additive_shape is None and shape.temp_subtractive_shape is None


def test_a_killed_button_lets_go_of_its_smoothing_scratch(make_app):
    """A scene covered before its buttons drew every look keeps them in its attributes: killing them drops the
    scratch they kept (under SHAPE_SCRATCH_KEPT), as R&D's buttons under assembly."""
    import pygame_gui

    app = make_app((3840, 2160))
    button = pygame_gui.elements.UIButton(pygame.Rect(0, 0, 300, 100), "Undo", app.manager)
    shape = button.drawable_shape
    assert shape.temp_additive_shape is not None and shape.temp_subtractive_shape is not None  # kept while alive
    button.kill()
    assert shape.temp_additive_shape is None and shape.temp_subtractive_shape is None


def test_a_covered_scene_keeps_no_pictures_of_its_killed_widgets(make_app):
    """R&D under assembly keeps its killed buttons in its attributes until it is uncovered and builds new ones:
    their looks, text layouts and images are let go at the kill (~20 MiB at 3840x2160)."""
    from game.tools import flow_shots

    app = make_app((3840, 2160))
    flow_shots.shot_assembly_valid(app)
    rnd = app.stack._scenes[-2]
    assert type(rnd).__name__ == "RnDScene" and rnd.buttons
    empty = app.manager.get_universal_empty_surface()
    for key, button in rnd.buttons.items():
        shape = button.drawable_shape
        assert not button.alive() and button.image is empty, key
        assert all(state.surface is empty and not state.generated for state in shape.states.values()), key
        assert shape.base_surface is None and shape.text_box_layout.finalised_surface is None, key
    app.stack.pop()  # back to R&D: its widgets are made anew, each with its looks
    app.step(1 / 30, [])
    fresh = app.stack.top.buttons["finish"]
    assert fresh.alive() and fresh.image.get_size() == fresh.rect.size
    assert fresh.drawable_shape.states["normal"].surface.get_size() == fresh.rect.size


def test_a_screen_of_buttons_keeps_scratch_within_the_budget_and_the_same_looks(make_app):
    """Buttons made at once (the rules reference's sections at 3840x2160) keep at most SHAPE_SCRATCH_BUDGET of
    scratch between them; a button whose scratch went draws its next look the same as one that kept it."""
    import pygame_gui

    from game.client.kit.style import SHAPE_SCRATCH_BUDGET, _scratch_bytes, shared_looks

    app = make_app((3840, 2160))
    # Buttons alike share their finished looks (kit.style.keep_big_looks): forgetting them before each button
    # draws makes every one draw its own, as the section buttons did before they shared.
    shared = shared_looks(app.manager.get_theme().shape_cache)
    buttons = []
    for i in range(12):
        shared.clear()
        buttons.append(pygame_gui.elements.UIButton(pygame.Rect(0, 120 * i, 492, 114), "Reliability", app.manager))
    shapes = [button.drawable_shape for button in buttons]
    assert 12 * _scratch_bytes(shapes[-1]) > 2 * SHAPE_SCRATCH_BUDGET  # without the budget: twice over it
    assert sum(_scratch_bytes(shape) for shape in shapes) <= SHAPE_SCRATCH_BUDGET
    assert _scratch_bytes(shapes[0]) == 0 and _scratch_bytes(shapes[-1]) > 0
    for shape in shapes:
        shared.clear()
        shape.update(1 / 60)  # pygame_gui draws each button's next look (hovered)
    assert _state_bytes(shapes[0], "hovered") == _state_bytes(shapes[-1], "hovered")


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


def _frame_bytes(app) -> bytes:
    return pygame.image.tobytes(app.surface, "RGB")


def _whole_frame_bytes(app) -> bytes:
    """The same moment drawn whole (as the first frame of a scene is), on a surface of its own."""
    whole = app.surface.copy()
    app.stack.draw(whole)
    app.manager.draw_ui(whole)
    return pygame.image.tobytes(whole, "RGB")


def _pointer(pos, kind=pygame.MOUSEMOTION) -> list:
    """The pointer put at ``pos`` (pygame_gui reads it there for hovering) and its event."""
    pygame.mouse.set_pos(pos)
    if kind == pygame.MOUSEMOTION:
        return [pygame.event.Event(kind, pos=pos, rel=(0, 0), buttons=(0, 0, 0))]
    return [pygame.event.Event(kind, pos=pos, button=1)]


@pytest.mark.parametrize("size", [(1280, 720), (1920, 1080), (3840, 2160)])
def test_title_redrawing_its_changes_matches_a_whole_frame(make_app, size):
    """The title redraws only the stars, the rocket and what lies under them and under the widgets that changed,
    and blits the widgets only there; every frame equals the same moment drawn whole: while the rocket flies, the
    pointer rests on the menu (a button lights, its tooltip shows), presses it and leaves it held, lets go
    elsewhere, after the window changes size (a greyed-out button's tooltip showing), and when the game chooser switches the words. An idle frame finds
    no widget changed, so no button's rectangle is copied back."""
    from game.client.launch import wire_games

    app = make_app(size)
    wire_games(app.context)
    app.start("title")
    title = app.stack.top
    asked = []
    redraw = title.redraw_changes

    def recording(surface, widgets):
        redrawn = redraw(surface, widgets)
        asked.append((len(widgets), redrawn is not None))
        return redrawn

    title.redraw_changes = recording
    button = title.buttons["game:cosmoforce"]  # a button with a tooltip
    inside, away = button.rect.center, (5, 5)
    script = {3: (inside,), 22: (inside, pygame.MOUSEBUTTONDOWN), 25: (away,), 27: (away, pygame.MOUSEBUTTONUP)}
    widgets_seen = set()
    for frame in range(32):
        app.step(0.1, _pointer(*script[frame]) if frame in script else [])  # most of the rocket's hop, and the tooltip's delay
        widgets_seen.add(len(app.manager.get_sprite_group().visible))
        assert _frame_bytes(app) == _whole_frame_bytes(app), frame
        if frame == 20:
            assert button.hovered
        if frame == 23:
            assert button.held
    assert len(widgets_seen) > 1  # the tooltip came and went
    assert app.context.chosen_game != "cosmoforce"  # let go away from the button: no press
    assert all(redrawn for _, redrawn in asked) and len(asked) == 31  # every frame after the first
    assert sum(1 for changed, _ in asked if changed == 0) >= 15  # idle frames: no widget to redraw under
    bigger = (size[0] * 3 // 4, size[1] * 3 // 4)
    pygame.display.set_mode(bigger, pygame.RESIZABLE)
    app.step(0.1, [pygame.event.Event(pygame.WINDOWSIZECHANGED, {"x": bigger[0], "y": bigger[1]})])
    assert app.layout.size == bigger
    title = app.stack.top
    tips = 0
    for frame, where in enumerate([None, None, title.buttons["continue"].rect.center, *[None] * 7, away, None]):
        app.step(0.1, [] if where is None else _pointer(where))
        assert _frame_bytes(app) == _whole_frame_bytes(app), ("resized", frame)
        tips += any(isinstance(s, pygame_gui.elements.UITooltip) for s in app.manager.get_sprite_group().sprites())
    assert tips  # the greyed-out Continue explained itself (its tooltip on a hover spot over it)
    title._activate("game:cosmoforce")
    for frame in range(3):
        app.step(0.1, [])
        assert _frame_bytes(app) == _whole_frame_bytes(app), ("chosen", frame)


def test_a_notice_dismissed_on_the_title_leaves_nothing_behind(make_app):
    """A notice (a damaged settings file) shows on the title until Esc; the frame after it is gone equals
    the title drawn whole, with no card left over the sky."""
    app = make_app((1280, 720))
    app.context.notices.append("Your settings file was damaged (line 1: Expecting value); using the defaults.")
    app.start("title")
    for _ in range(3):
        app.step(0.1, [])
    app.step(0.1, [pygame.event.Event(pygame.KEYDOWN, key=pygame.K_ESCAPE, mod=0, unicode="\x1b", scancode=0)])
    assert not app.context.notices
    for frame in range(3):
        app.step(0.1, [])
        assert _frame_bytes(app) == _whole_frame_bytes(app), frame

def _striped(size):
    surface = pygame.Surface(size)
    for y in range(0, size[1], 7):
        pygame.draw.line(surface, (y % 256, (y * 3) % 256, 200), (0, y), (size[0], y), 7)
    return surface


def _most_apart(a: pygame.Surface, b: pygame.Surface) -> int:
    return max((abs(x - y) for x, y in zip(pygame.image.tobytes(a, "RGB"), pygame.image.tobytes(b, "RGB"))),
               default=0)


def test_dimming_in_place_looks_like_a_veil_over_the_screen(make_app):
    from game.client.kit.style import DIM_VEIL, dim

    make_app((640, 360))
    ours, veiled = _striped((640, 360)), _striped((640, 360))
    dim(ours, 150)
    veil = pygame.Surface(veiled.get_size(), pygame.SRCALPHA)
    veil.fill((*DIM_VEIL, 150))
    veiled.blit(veil, (0, 0))
    assert ours.get_at((5, 5)) != _striped((640, 360)).get_at((5, 5))
    assert _most_apart(ours, veiled) <= 2  # rounding only (of 255)


def test_a_cards_shadow_needs_no_card_sized_layer_and_looks_the_same(make_app):
    """The shadow drawn straight onto the screen equals the one a card-sized alpha layer gave."""
    from game.client.kit.style import CARD, CARD_EDGE, SHADOW_ALPHA, Layout, draw_card

    make_app((640, 360))
    for size, rect in (((1280, 720), pygame.Rect(300, 200, 500, 300)), ((1707, 960), pygame.Rect(101, 99, 301, 211)),
                       ((1600, 900), pygame.Rect(10, 10, 90, 40))):
        layout = Layout(*size)
        ours, layered = _striped(size), _striped(size)
        draw_card(ours, rect, layout)
        radius, grow = layout.px(18), layout.px(24)
        layer = pygame.Surface(rect.inflate(grow, grow).size, pygame.SRCALPHA)
        shade = pygame.Rect(0, 0, rect.w + layout.px(4) * 6, rect.h + layout.px(4) * 6)
        shade.center = (layer.get_width() // 2, layer.get_height() // 2 + layout.px(6))
        pygame.draw.rect(layer, (0, 0, 0, SHADOW_ALPHA), shade, border_radius=radius + layout.px(4) * 3)
        layered.blit(layer, layer.get_rect(center=rect.center))
        pygame.draw.rect(layered, CARD, rect, border_radius=radius)
        pygame.draw.rect(layered, CARD_EDGE, rect, width=max(2, layout.px(3)), border_radius=radius)
        below = (rect.centerx, rect.bottom + layout.px(4))
        assert ours.get_at(below) != _striped(size).get_at(below)  # the shadow shows under the card
        assert _most_apart(ours, layered) <= 1, size  # rounding only


def test_a_minimised_window_only_listens(make_app, monkeypatch):
    """While the window is not seen the loop slows to HIDDEN_FPS and draws nothing; once seen again its first
    frame is drawn whole."""
    app = make_app((1280, 720))
    app.start("title")
    seen = iter([False, False, False, True, True])
    monkeypatch.setattr(pygame.display, "get_active", lambda: next(seen))
    rates, drawn = [], []

    class Clock:
        def tick(self, rate):
            rates.append(rate)
            return 1000 // rate

    app.clock = Clock()
    title = app.stack.top
    whole, changes = title.draw, title.redraw_changes
    title.draw = lambda surface: drawn.append("whole") or whole(surface)

    def changes_recorded(surface, widgets):
        redrawn = changes(surface, widgets)
        if redrawn is not None:
            drawn.append("changes")
        return redrawn

    title.redraw_changes = changes_recorded
    flips = []
    monkeypatch.setattr(pygame.display, "flip", lambda: flips.append(len(rates)) or (len(rates) == 5 and app.context.quit()))
    app.run()
    assert rates == [app.HIDDEN_FPS] * 3 + [title.frame_rate] * 2
    assert drawn == ["whole", "changes"] and flips == [4, 5]


def test_leaving_the_title_lets_go_of_its_world_and_its_words(make_app):
    """The world and the Moon are drawn by the title alone: a game starting (the stack cleared) frees their
    layer, and the title back again draws the same picture."""
    from game.client.kit import backdrop

    app = make_app((1280, 720))
    app.start("title")
    app.step(0.0, [])
    first = _frame_bytes(app)
    assert ((1280, 720), True) in backdrop._STATIC_CACHE
    from game.client.kit import style

    assert any(font.get_height() >= 40 for font, *_ in style._TEXT_CACHE)  # the big words of the title's name
    app.stack.clear()
    assert not any(world for _, world in backdrop._STATIC_CACHE)
    assert not style._TEXT_CACHE  # nor are its words kept (three images of ~3 MiB each at 3840x2160)
    app.start("title")
    app.step(0.0, [])
    assert _frame_bytes(app) == first


def test_dimming_a_layer_of_its_own_veils_its_clear_pixels(make_app):
    from game.client.kit.style import DIM_VEIL, dim

    make_app((640, 360))
    layer = pygame.Surface((40, 30), pygame.SRCALPHA)
    dim(layer, 150)
    assert tuple(layer.get_at((5, 5))) == (*DIM_VEIL, 150)


def test_big_allocations_go_back_to_the_system_on_glibc():
    import platform

    from game.client.shell.app import give_back_big_allocations

    took = give_back_big_allocations()
    if platform.system() == "Linux" and platform.libc_ver()[0] == "glibc":
        assert took
    else:
        assert took is False


def test_a_buttons_looks_keep_no_text_layers_and_the_same_pixels(make_app, monkeypatch):
    """A button's looks let go of pygame_gui's two per-look text layers (only an editable text line reads them
    again) and look the same as pygame_gui's own, which keeps them; a text entry line keeps them and still
    shows what is typed."""
    import pygame_gui
    from pygame_gui.core.drawable_shapes.drawable_shape import DrawableShape

    app = make_app((3840, 2160))
    rect = pygame.Rect(0, 0, 420, 110)  # too big for pygame_gui's shape cache: each button draws its own looks
    lean = pygame_gui.elements.UIButton(rect, "Roll out to the pad", app.manager).drawable_shape
    assert all(state.pre_text_surface is None and state.text_surface is None
               for state in lean.states.values() if state.generated)
    monkeypatch.setattr(DrawableShape, "finalise_text", DrawableShape.finalise_text.keeps_text_layers)
    own = pygame_gui.elements.UIButton(rect, "Roll out to the pad", app.manager).drawable_shape
    assert own.states["normal"].pre_text_surface is not None  # what pygame_gui alone would keep
    for state in ("normal", "hovered"):
        assert _state_bytes(lean, state) == _state_bytes(own, state), state
    monkeypatch.undo()
    entry = pygame_gui.elements.UITextEntryLine(pygame.Rect(0, 100, 300, 42), app.manager)
    entry.set_text("Hopeful")
    entry.update(1 / 60)
    shape = entry.drawable_shape
    assert shape.states["normal"].pre_text_surface is not None and shape.states["normal"].text_surface is not None
    typed = _state_bytes(shape, "normal")
    entry.set_text("Hopeful II")
    entry.update(1 / 60)
    assert _state_bytes(shape, "normal") != typed


def test_a_card_in_a_layer_of_its_own_gets_its_shadow_band_by_band_with_the_same_pixels(make_app, monkeypatch):
    """draw_card onto an alpha layer (the roll card's, rollpanel.cached_card) blits its shadow's shade a band of
    SHADE_ROWS rows at a time instead of one shade the size of the card: the same pixels, over clear pixels and
    over pixels already painted."""
    from game.client.kit import style

    app = make_app((3840, 2160))

    def painted(rows: int) -> bytes:
        monkeypatch.setattr(style, "SHADE_ROWS", rows)
        layer = pygame.Surface((1300, 900), pygame.SRCALPHA)
        layer.fill((200, 120, 40, 90), pygame.Rect(0, 0, 700, 300))  # some of it already painted
        style.draw_card(layer, pygame.Rect(80, 70, 1100, 760), app.layout)
        return pygame.image.tobytes(layer, "RGBA")

    assert painted(style.SHADE_ROWS) == painted(10_000)  # 10,000 rows: one shade for each part, as before
    assert painted(7) == painted(10_000)
