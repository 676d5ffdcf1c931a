"""The title: its backdrop redrawn by its changes (the rects it copies back cover all that moved), and its tooltips."""
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
