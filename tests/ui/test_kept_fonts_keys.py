"""The kept words (``kit/kept_fonts.py``) are named by everything that changes their pixels."""
import pygame

from game.client.kit import kept_looks


def test_wrapped_words_at_another_line_size_are_drawn_not_taken_from_the_kept_ones(make_app, home):
    """``set_linesize`` spaces the lines of wrapped words: a font whose line size was set is not answered with
    the words kept for the font's own spacing (they would be the wrong height)."""
    from game.client.kit.kept_fonts import KeptFont
    from game.client.kit.style import FONT_FILES

    make_app((1280, 720))  # recording, as in the app's first frames
    words = ("Lift off and away to the stars", True, (255, 201, 120), None, 80)
    try:
        plain = KeptFont(str(FONT_FILES[False]), 20).render(*words)
        kept_looks._KEPT.update(kept_looks._DRAWN)  # as a later start reads them from the file
        kept_looks._DRAWN.clear()
        kept_looks._USED.clear()
        spaced = KeptFont(str(FONT_FILES[False]), 20)
        spaced.set_linesize(3 * spaced.get_linesize())
        answer = spaced.render(*words)
        fresh = pygame.font.Font(str(FONT_FILES[False]), 20)
        fresh.set_linesize(3 * fresh.get_linesize())
        assert not kept_looks._USED, "not answered from the words kept at the font's own line size"
        assert answer.get_size() == fresh.render(*words).get_size() != plain.get_size()
    finally:
        kept_looks._KEPT.clear()
        kept_looks._DRAWN.clear()
        kept_looks._USED.clear()
