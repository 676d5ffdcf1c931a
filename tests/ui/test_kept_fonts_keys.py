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


def test_a_kept_file_holding_the_wrong_kind_of_thing_is_answered_by_drawing_fresh(make_app, home):
    """A file edited by hand, its check sum made anew, may hold a picture where a size was kept, a size where
    words were, or a size that is no size: the font measures and draws afresh instead of crashing."""
    from game.client.kit.kept_fonts import KeptFont
    from game.client.kit.style import FONT_FILES

    make_app((1280, 720))  # recording, as in the app's first frames
    text = "Lift off"
    try:
        font = KeptFont(str(FONT_FILES[False]), 20)
        fresh = pygame.font.Font(str(FONT_FILES[False]), 20)
        size_name = f"size {font._style()} {text!r}"
        font.render(text, True, (255, 201, 120))
        (words_name,) = [name for name in kept_looks._DRAWN if name.startswith(kept_looks_words_prefix())]
        for at_size, at_words in (([1, 2, 3], [4, 5]), (["a", "b"], "words"), ([-4, 9], 7),
                                  (pygame.Surface((3, 3)), {"w": 1})):
            theme = b"theme"
            edited = kept_looks.decode(kept_looks.file_bytes({size_name: at_size, words_name: at_words}, theme),
                                       theme)  # a sound file, as far as its check sum goes
            kept_looks._KEPT.clear()
            kept_looks._KEPT.update(edited)
            assert font.size(text) == fresh.size(text)
            drawn = font.render(text, True, (255, 201, 120))
            assert isinstance(drawn, pygame.Surface) and drawn.get_size() == fresh.size(text)
    finally:
        kept_looks._KEPT.clear()
        kept_looks._DRAWN.clear()
        kept_looks._USED.clear()


def kept_looks_words_prefix() -> str:
    from game.client.kit.kept_fonts import WORDS
    return WORDS + " "
