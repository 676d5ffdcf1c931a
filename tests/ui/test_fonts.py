"""Fonts the kit keeps stay usable across a pygame quit and restart (the app quits pygame when it closes)."""
import pygame

from game.client.kit.style import font_px
from game.client.whatgoesup.board_art import font as board_font


def test_cached_fonts_are_reloaded_after_pygame_quits():
    for _ in range(3):  # pygame forgets a quit hook once it has called it: every run must arm it again
        pygame.init()
        before = font_px(21)
        assert board_font(21, bold=False) is before  # one cache for the kit and the board
        pygame.quit()
        pygame.init()
        after = font_px(21)
        assert after is not before
        assert after.render("Rocket", True, (255, 255, 255)).get_width() > 0
        assert board_font(21, bold=False).size("Rocket")[0] > 0
        pygame.quit()
