"""The title's first frame kept between runs (``game/client/kit/kept_looks.py``): its buttons' looks, its words
(``kit/kept_fonts.py``) and its backdrop's layer. A later start copies them from the home folder's file and draws
the same pixels; a file that cannot be used is ignored and written anew."""
import pytest
import pygame

from game.client.kit import kept_looks, paths
from game.client.kit.style import queued_looks_held


def _run_title(app) -> tuple[bytes, dict]:
    """The title's first frame and every button's looks (normal, hovered, pressed) as drawn by frame 60."""
    app.start("title")
    with queued_looks_held():
        app.step(1 / 30, [])
    first = pygame.image.tobytes(app.surface, "RGB")
    for button in app.stack.top.buttons.values():  # the pressed look, shown before the looks are kept
        button.drawable_shape.set_active_state("active")
        button.drawable_shape.set_active_state("normal")
    while app._frames_drawn < app.KEEP_LOOKS_AT_FRAME - 1:
        app.step(1 / 60, [])
    looks = {(key, state): pygame.image.tobytes(button.drawable_shape.states[state].surface, "RGBA")
             for key, button in app.stack.top.buttons.items() for state in ("normal", "hovered", "active")}
    return first, looks


@pytest.mark.parametrize("size", [(1280, 720), (1920, 1080), (3840, 2160)])
def test_a_later_start_copies_the_kept_looks_and_draws_the_same_pixels(make_app, home, size):
    fresh = make_app(size)
    assert fresh.kept_looks.file_sound is False
    fresh_first, fresh_looks = _run_title(fresh)
    fresh.step(1 / 60, [])  # frame 60: the looks drawn are written
    assert fresh.kept_looks.wait()
    kept_file = home / paths.KEPT_LOOKS_NAME
    assert kept_file.stat().st_size > 0
    later = make_app(size)
    assert later.kept_looks.file_sound and later.kept_looks.path == kept_file
    later_first, later_looks = _run_title(later)
    assert not kept_looks._DRAWN, "every look, word and layer of the title was copied from the file"
    used = {name.split(" ")[0].split("_")[0] for name in kept_looks._USED}
    # the backdrop's layer is kept up to 1920x1080-odd sizes (kept_looks.PICTURE_MAX), drawn afresh at 4K
    assert used == ({"rounded", "words", "size", "layer"} if size[0] < 3840
                    else {"rounded", "words", "size"}), used
    assert later_first == fresh_first
    assert later_looks == fresh_looks
    assert later.kept_looks.save() is False  # nothing new drawn: the file is left as it is
    assert not kept_looks.in_use(), "past the first frames the fonts and looks ask nothing of the kept looks"


def _file_after_a_run(make_app, home) -> bytes:
    app = make_app((1280, 720))
    _run_title(app)
    app.step(1 / 60, [])
    assert app.kept_looks.wait()
    return (home / paths.KEPT_LOOKS_NAME).read_bytes()


@pytest.mark.parametrize("spoil", ["short", "pixel", "header", "empty", "garbage"])
def test_a_spoilt_file_is_ignored_logged_and_written_anew(make_app, home, spoil, caplog):
    good = _file_after_a_run(make_app, home)
    spoilt = {"short": good[:len(good) // 2], "header": good.replace(f"format {kept_looks.FORMAT};".encode(), b"format 99;", 1),
              "pixel": good[:-200] + bytes([good[-200] ^ 1]) + good[-199:], "empty": b"",
              "garbage": b"\x00\xff" * 999}[spoil]
    path = home / paths.KEPT_LOOKS_NAME
    path.write_bytes(spoilt)
    app = make_app((1280, 720))
    assert app.kept_looks.file_sound is False and not kept_looks._KEPT
    assert any("kept looks" in r.getMessage() and "not used" in r.getMessage() for r in caplog.records)
    _run_title(app)
    app.step(1 / 60, [])
    assert app.kept_looks.wait()
    assert path.read_bytes() == good  # written anew, the same looks
    assert make_app((1280, 720)).kept_looks.file_sound


def test_an_unwritable_home_loses_nothing(make_app, home, monkeypatch, caplog):
    def refuse(path, data):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(kept_looks, "write_atomic_bytes", refuse)
    app = make_app((1280, 720))
    _run_title(app)
    app.step(1 / 60, [])  # the write fails: a log line, the game goes on
    assert app.kept_looks.wait() is False
    assert not (home / paths.KEPT_LOOKS_NAME).exists()
    assert any("could not write" in r.getMessage() for r in caplog.records)
    app.step(1 / 60, [])
    assert app.running


def test_the_file_keeps_within_its_budget():
    looks = {f"look_{i}": pygame.Surface((100, 100), pygame.SRCALPHA, 32) for i in range(5)}
    data = kept_looks.file_bytes(looks, b"{}", budget=3 * (100 * 100 * 4 + len("look_0")))  # names count too
    assert len(kept_looks.decode(data, b"{}")) == 3
    with pytest.raises(ValueError):
        kept_looks.decode(data, b"{ }")  # another theme


def test_looks_drawn_after_the_first_frames_are_not_recorded(make_app, home):
    import pygame_gui

    app = make_app((1280, 720))
    app.start("title")
    early = pygame_gui.elements.UIButton(pygame.Rect(0, 0, 123, 45), "Early", manager=app.manager)
    assert len(kept_looks._DRAWN) > 0
    while app._frames_drawn < app.RECORD_LOOKS_FRAMES:
        app.step(1 / 60, [])
    recorded = dict(kept_looks._DRAWN)
    late = pygame_gui.elements.UIButton(pygame.Rect(0, 0, 321, 54), "Late", manager=app.manager)
    assert kept_looks._DRAWN == recorded  # the late button's look is drawn, not kept
    assert any(key.startswith("rounded_rectangle_123_45_") for key in recorded)
    while app._frames_drawn < app.KEEP_LOOKS_AT_FRAME:
        app.step(1 / 60, [])
    assert app.kept_looks.wait()
    later = make_app((1280, 720))
    assert not any(key.startswith("rounded_rectangle_321_54_") for key in kept_looks._KEPT)
    assert any(key.startswith("rounded_rectangle_123_45_") for key in kept_looks._KEPT)
    late.kill()
    early.kill()
    assert later.kept_looks.file_sound


def test_an_unreadable_file_is_ignored_and_the_title_drawn(make_app, home, caplog):
    (home / paths.KEPT_LOOKS_NAME).mkdir()  # a folder where the file should be: it cannot be read, nor replaced
    app = make_app((1280, 720))
    assert app.kept_looks.file_sound is False and not kept_looks._KEPT
    assert any("not used" in r.getMessage() for r in caplog.records)
    _run_title(app)
    app.step(1 / 60, [])
    assert app.kept_looks.wait() is False
    assert any("could not write" in r.getMessage() for r in caplog.records)
    assert app.running and app.stack.top.name == "title"


def test_kept_words_answer_only_the_very_same_question(make_app, home):
    """A font answers from the kept words only what it was asked before, with the same font file, point size,
    style, words and colours; anything else is drawn by FreeType, as ever."""
    from game.client.kit.kept_fonts import KeptFont
    from game.client.kit.style import FONT_FILES

    make_app((1280, 720))  # recording, as in the app's first frames
    try:
        _ask_kept_words(KeptFont, FONT_FILES)
    finally:
        kept_looks._KEPT.clear()  # the words spoilt below go with the test


def _ask_kept_words(KeptFont, FONT_FILES) -> None:
    font = KeptFont(str(FONT_FILES[True]), 40)
    fresh = font.render("Lift off", True, (255, 201, 120))
    fresh_size = font.size("Lift off")
    kept_looks._KEPT.update(kept_looks._DRAWN)  # as a later start reads them from the file
    kept_looks._DRAWN.clear()
    again = KeptFont(str(FONT_FILES[True]), 40)
    for question in (lambda f: f.render("Lift off", True, (255, 201, 120)), lambda f: f.size("Lift off")):
        kept_looks._USED.clear()
        answer = question(again)
        assert len(kept_looks._USED) == 1, "answered from the kept words"
        assert (pygame.image.tobytes(answer, "RGBA") == pygame.image.tobytes(fresh, "RGBA")
                and answer.get_flags() == fresh.get_flags() and answer.get_masks() == fresh.get_masks()
                if isinstance(answer, pygame.Surface) else answer == fresh_size)
    kept_looks._KEPT[next(name for name in kept_looks._KEPT if name.startswith("words"))].fill((1, 2, 3, 4))
    assert pygame.image.tobytes(font.render("Lift off", True, (255, 201, 120)), "RGBA") != \
        pygame.image.tobytes(fresh, "RGBA"), "the same question is answered from the kept words (spoilt here)"
    kept_looks._USED.clear()
    bold_off = KeptFont(str(FONT_FILES[True]), 40)
    bold_off.underline = True
    others = [again.render("Lift off", True, (255, 201, 121)), again.render("Lift off!", True, (255, 201, 120)),
              again.render("Lift off", False, (255, 201, 120)), KeptFont(str(FONT_FILES[True]), 41).size("Lift off"),
              KeptFont(str(FONT_FILES[False]), 40).render("Lift off", True, (255, 201, 120)),
              bold_off.render("Lift off", True, (255, 201, 120))]
    assert not kept_looks._USED and len(others) == 6, "no other question is answered from the kept words"
    unkept = KeptFont(None, 40)  # pygame's own font: not a file of ours, never kept
    unkept.render("Lift off", True, (255, 201, 120))
    assert not any("None" in name.split(" ")[1] for name in kept_looks._DRAWN if name.startswith("words"))


def test_the_backdrop_is_drawn_on_while_the_file_is_written(make_app, home, monkeypatch):
    """The backdrop's layer goes to the file as it is drawn from every frame: the writing has a copy of its own,
    so the title goes on drawing (a locked layer would fail its blit) while the file is written."""
    import threading

    from game.client.kit.backdrop import _STATIC_CACHE

    writing, done = threading.Event(), threading.Event()
    write = kept_looks.write_atomic_bytes

    def slow_write(path, pieces):
        writing.set()
        done.wait(10)
        write(path, pieces)

    monkeypatch.setattr(kept_looks, "write_atomic_bytes", slow_write)
    app = make_app((1280, 720))
    _run_title(app)
    app.step(1 / 60, [])  # frame 60: the write starts
    assert writing.wait(10)
    layer = _STATIC_CACHE[((1280, 720), True)]
    assert not layer.get_locked()
    for _ in range(5):
        app.step(1 / 60, [])
    assert app.stack.top.name == "title"
    done.set()
    assert app.kept_looks.wait()
    later = make_app((1280, 720))
    assert any(name.startswith("layer backdrop 1280x720 ") for name in kept_looks._KEPT)
    assert later.kept_looks.file_sound


def test_words_recorded_are_the_first_frames_within_their_size_and_go_with_the_title(make_app, home):
    """Words are recorded through the app's first frame only, a picture of words over ``WORDS_MAX`` never (the
    title's name at 4K), and the title leaving for good lets go of the copies recorded of its words: a scene
    opened before the file is written holds none of them."""
    from game.client.kit import kept_fonts
    from game.client.kit.style import FONT_FILES

    app = make_app((3840, 2160))
    app.start("title")
    app.step(1 / 30, [])
    words = {name: item for name, item in kept_looks._DRAWN.items() if name.startswith("words ")}
    assert words and all(w.get_pitch() * w.get_height() <= kept_fonts.WORDS_MAX for w in words.values())
    assert not any("'What Goes Up' True (255, 201, 120, 255)" in name for name in words), "the 4K name is not kept"
    small = make_app((1280, 720))  # where the name is small enough to keep
    small.start("title")
    small.step(1 / 30, [])
    assert any("'What Goes Up' True (255, 201, 120, 255)" in name for name in kept_looks._DRAWN)
    small.stack.clear()
    app = make_app((3840, 2160))
    app.start("title")
    app.step(1 / 30, [])
    app.after_first_frame()
    kept_fonts.KeptFont(str(FONT_FILES[False]), 30).render("After the first frame", True, (255, 255, 255))
    assert not any("After the first frame" in name for name in kept_looks._DRAWN)
    app.stack.clear()  # the title leaves for good
    assert not any(name.startswith("words ") for name in kept_looks._DRAWN)
    assert any(name.startswith("rounded_rectangle") for name in kept_looks._DRAWN), "the looks are still kept"


def test_pygame_guis_fonts_are_handed_kept_words_as_they_are_ours_a_copy(make_app, home):
    """pygame_gui only reads what its font renders (it measures it or draws a converted copy): it is handed the
    kept picture itself; the game's own fonts get a copy, since a caller may change it (a shadow's alpha)."""
    from pygame_gui.core import gui_font_pygame

    from game.client.kit.kept_fonts import KeptFont, PygameGuiFont
    from game.client.kit.style import FONT_FILES

    make_app((1280, 720))
    assert gui_font_pygame.Font is PygameGuiFont
    try:
        for font_type, shared in ((PygameGuiFont, True), (KeptFont, False)):
            kept_looks._KEPT.clear()
            fresh = font_type(str(FONT_FILES[False]), 24).render("Hello", True, (255, 255, 255))
            kept_looks._KEPT.update(kept_looks._DRAWN)
            kept_looks._DRAWN.clear()
            (name, kept), = [(n, item) for n, item in kept_looks._KEPT.items() if "'Hello'" in n]
            again = font_type(str(FONT_FILES[False]), 24).render("Hello", True, (255, 255, 255))
            assert (again is kept) is shared
            assert pygame.image.tobytes(again, "RGBA") == pygame.image.tobytes(fresh, "RGBA")
    finally:
        kept_looks._KEPT.clear()
