"""The title: its backdrop redrawn by its changes (the rects it copies back cover all that moved), its tooltips, and its
frames kept by their changes through a greyed-out button's tip and a return from Settings."""
import pygame
import pytest
import pygame_gui


@pytest.mark.parametrize("size", [(1280, 720), (3840, 2160)])
def test_the_backdrop_redrawn_by_its_changes_equals_it_drawn_whole_through_a_whole_hop(size):
    """Frame after frame, ten a second, through the rocket's whole hop (up with its smoke, and back down): the
    sky copied back under ``moving_rects`` (with last frame's rocket) and ``draw_moving`` give the very pixels
    of a whole ``draw``."""
    from game.client.kit.backdrop import ROCKET_PERIOD, Backdrop

    pygame.display.init()
    pygame.display.set_mode((64, 64))
    kept, whole = pygame.Surface(size), pygame.Surface(size)
    backdrop = Backdrop()
    backdrop.draw(kept)
    moved = [backdrop.rocket_rect(size)]
    frames = round(ROCKET_PERIOD * 10) + 2 if size[0] < 2000 else 16  # 4K: the steepest part, with its trail
    start = 0.0 if size[0] < 2000 else 1.0
    for frame in range(1, frames):
        backdrop.time = start + frame / 10
        dirty = backdrop.moving_rects(size, also=moved)
        backdrop.restore(kept, dirty)
        backdrop.draw_moving(kept)
        moved = [backdrop.rocket_rect(size)]
        backdrop.draw(whole)
        assert pygame.image.tobytes(kept, "RGB") == pygame.image.tobytes(whole, "RGB"), frame


@pytest.mark.parametrize("size", [(1280, 720), (1920, 1080), (3840, 2160)])
def test_the_titles_tooltips_are_readable_cards_inside_the_window_at_every_size(make_app, size):
    """The chooser's other game and a greyed-out button (Continue, with no save yet) explain themselves in the
    glossary's readable card, as wide as the window's scale asks and inside the window; none is given before
    the first frame is up."""
    from game.client.kit.glossary import TIP_WIDTH
    from game.client.launch import wire_games

    app = make_app(size)
    wire_games(app.context)
    title = app.start("title")
    assert title._tips and not title.buttons["game:cosmoforce"].tool_tip_text  # not yet: the first frame first
    app.step(0.1, [])
    app.step(0.1, [])
    assert not title._tips
    window = pygame.Rect((0, 0), size)
    for key, words in (("game:cosmoforce", "Play Cosmoforce: the menu's New game, Continue and Load are for it"),
                       ("continue", "No What Goes Up game saved yet: start one, it saves as you play")):
        assert not title.buttons["continue"].is_enabled
        where = title.buttons[key].rect.center
        pygame.mouse.set_pos(where)
        app.step(0.1, [pygame.event.Event(pygame.MOUSEMOTION, pos=where, rel=(0, 0), buttons=(0, 0, 0))])
        for _ in range(8):
            app.step(0.1, [])
        tips = [s for s in app.manager.get_sprite_group().sprites() if isinstance(s, pygame_gui.elements.UITooltip)]
        assert len(tips) == 1, key
        assert tips[0].text_block.html_text == words
        assert window.contains(tips[0].rect), (key, tips[0].rect)
        assert tips[0].rect.w == max(200, app.layout.px(TIP_WIDTH)), key
        pygame.mouse.set_pos((2, 2))
        app.step(0.1, [pygame.event.Event(pygame.MOUSEMOTION, pos=(2, 2), rel=(0, 0), buttons=(0, 0, 0))])
        app.step(0.1, [])


def _pointer(pos) -> list:
    pygame.mouse.set_pos(pos)
    return [pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0))]


def _equals_a_whole_frame(app) -> bool:
    whole = app.surface.copy()
    app.stack.draw(whole)
    app.manager.draw_ui(whole)
    return pygame.image.tobytes(whole, "RGB") == pygame.image.tobytes(app.surface, "RGB")


@pytest.mark.parametrize("size", [(1280, 720), (3840, 2160)])
def test_title_frames_stay_whole_through_a_greyed_out_buttons_tip_and_back_from_settings(make_app, size):
    """The title's frames kept by their changes (``Scene.redraw_changes``) equal the same moment drawn whole while
    the pointer rests on the greyed-out Continue (its hover spot draws nothing; its tooltip comes and goes), and
    after Settings was opened over it and closed again (the title's buttons built anew), a button lit and left."""
    from game.client.launch import wire_games

    app = make_app(size)
    wire_games(app.context)
    title = app.start("title")
    for _ in range(3):
        app.step(0.1, [])
    assert not title.buttons["continue"].is_enabled
    script = {0: title.buttons["continue"].rect.center, 12: (5, 5)}
    widgets_seen = set()
    for frame in range(15):
        app.step(0.1, _pointer(script[frame]) if frame in script else [])
        widgets_seen.add(len(app.manager.get_sprite_group().visible))
        assert _equals_a_whole_frame(app), frame
    assert len(widgets_seen) > 1  # the tooltip came and went
    title._activate("settings")
    assert app.stack.top is not title
    for _ in range(3):
        app.step(0.1, [])
    app.context.back()
    assert app.stack.top is title
    script = {2: title.buttons["load"].rect.center, 6: (5, 5)}
    for frame in range(9):
        app.step(0.1, _pointer(script[frame]) if frame in script else [])
        assert _equals_a_whole_frame(app), ("back from settings", frame)
    assert app._drawn_alone is title and app._blits is not None  # drawn by its changes again
