"""The app shell: title hooks, scene stack, shortcuts, error dialog, layout at every size."""
import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame  # noqa: E402
import pygame_gui  # noqa: E402
import pytest  # noqa: E402

from game.client.shell.scene import Scene  # noqa: E402


def press(app, button):
    """Deliver a pygame_gui button press the way pygame_gui itself posts it."""
    app.step(0.0, [pygame.event.Event(pygame_gui.UI_BUTTON_PRESSED, {"ui_element": button, "ui_object_id": ""})])


def key(k, unicode="", mod=0):
    return pygame.event.Event(pygame.KEYDOWN, {"key": k, "unicode": unicode, "mod": mod, "scancode": 0})


def test_title_buttons_call_their_hooks(make_app):
    app = make_app()
    calls = []
    app.context.on_new_game = lambda: calls.append("new")
    app.context.on_continue = lambda: calls.append("continue")
    app.context.on_load = lambda: calls.append("load")
    title = app.start("title")
    for name in ("new_game", "continue", "load"):
        assert title.buttons[name].is_enabled
        press(app, title.buttons[name])
    assert calls == ["new", "continue", "load"]


def test_missing_hook_disables_its_button(make_app):
    app = make_app()
    app.context.on_new_game = lambda: None
    title = app.start("title")
    assert title.buttons["new_game"].is_enabled
    assert not title.buttons["continue"].is_enabled
    assert not title.buttons["load"].is_enabled
    assert title.buttons["settings"].is_enabled and title.buttons["quit"].is_enabled


def test_real_mouse_click_reaches_the_hook(make_app):
    app = make_app()
    calls = []
    app.context.on_new_game = lambda: calls.append("new")
    title = app.start("title")
    app.step(0.016, [])
    pos = title.buttons["new_game"].rect.center
    pygame.event.clear()
    app.step(0.016, [pygame.event.Event(pygame.MOUSEMOTION, {"pos": pos, "rel": (0, 0), "buttons": (0, 0, 0)}),
                     pygame.event.Event(pygame.MOUSEBUTTONDOWN, {"pos": pos, "button": 1}),
                     pygame.event.Event(pygame.MOUSEBUTTONUP, {"pos": pos, "button": 1})])
    app.step(0.016)  # pygame_gui posted UI_BUTTON_PRESSED on the real queue
    assert calls == ["new"]


def test_disabled_button_click_does_nothing(make_app):
    app = make_app()
    title = app.start("title")
    app.step(0.016, [])
    pos = title.buttons["continue"].rect.center
    pygame.event.clear()
    app.step(0.016, [pygame.event.Event(pygame.MOUSEBUTTONDOWN, {"pos": pos, "button": 1}),
                     pygame.event.Event(pygame.MOUSEBUTTONUP, {"pos": pos, "button": 1})])
    app.step(0.016)
    assert app.stack.top is title and app.running


def test_settings_opens_and_escape_returns(make_app):
    app = make_app()
    title = app.start("title")
    press(app, title.buttons["settings"])
    assert app.stack.top.name == "settings"
    app.step(0.0, [key(pygame.K_ESCAPE)])
    assert app.stack.top.name == "title"
    assert app.stack.top.buttons["new_game"].alive()  # rebuilt on uncover


def test_quit_button_stops_the_loop(make_app):
    app = make_app()
    title = app.start("title")
    press(app, title.buttons["quit"])
    assert not app.running and app.exit_code == 0


def test_help_overlay_toggles_with_f1_and_question_mark(make_app):
    app = make_app()
    app.start("title")
    app.step(0.0, [key(pygame.K_F1)])
    assert app.stack.top.name == "help"
    app.step(0.0, [key(pygame.K_F1)])
    assert app.stack.top.name == "title"
    app.step(0.0, [key(pygame.K_SLASH, "?", pygame.KMOD_SHIFT)])
    assert app.stack.top.name == "help"
    app.step(0.0, [key(pygame.K_ESCAPE)])
    assert app.stack.top.name == "title"


def test_overlay_hides_widgets_below(make_app):
    app = make_app()
    title = app.start("title")
    app.context.open("help")
    assert title.root is None  # the title's buttons are gone while covered, so they cannot be clicked
    assert [s.name for s in app.stack.visible()] == ["title", "help"]


def test_hook_exception_becomes_error_dialog_and_log(make_app, home):
    app = make_app()

    def broken():
        raise RuntimeError("the goblins took the wrench")

    app.context.on_new_game = broken
    title = app.start("title")
    press(app, title.buttons["new_game"])
    top = app.stack.top
    assert top.name == "error"
    assert "RuntimeError: the goblins took the wrench" in top.what
    assert "title" in top.where
    log = (home / "whatgoesup.log").read_text()
    assert "Traceback" in log and "the goblins took the wrench" in log
    app.step(0.016, [])  # the dialog draws without trouble
    press(app, top.buttons["keep"])
    assert app.stack.top is title


def test_error_while_drawing_is_caught_and_repeated_errors_give_up(make_app, capsys):
    app = make_app()

    class Broken(Scene):
        name = "broken"

        def draw(self, surface):
            raise ValueError("bad paint")

    app.stack.push(Broken(app.context))
    app.step(0.016, [])
    assert app.stack.top.name == "error"
    for _ in range(3):
        press(app, app.stack.top.buttons["keep"])  # back to the broken scene: it fails again
        if not app.running:
            break
    assert not app.running and app.exit_code == 1
    assert "whatgoesup.log" in capsys.readouterr().err


def _text_fits(app):
    """Every pygame_gui label and button's text fits inside its rectangle."""
    problems = []
    for element in app.manager.get_sprite_group().sprites():
        if isinstance(element, (pygame_gui.elements.UIButton, pygame_gui.elements.UILabel)) and element.visible:
            text = element.text
            if not text or element.font is None:
                continue
            width, height = element.font.size(text)
            if width > element.rect.width - 4 or height > element.rect.height:
                problems.append((text, (width, height), element.rect.size))
    return problems


@pytest.mark.parametrize("size,ui_scale", [((1280, 720), 1.0), ((1280, 720), 1.5), ((3840, 2160), 1.0),
                                           ((3840, 2160), 0.75), ((1024, 768), 1.25)])
def test_text_fits_at_every_size(make_app, size, ui_scale):
    from dataclasses import replace

    app = make_app(size=size)
    app.settings = replace(app.settings, ui_scale=ui_scale)
    app.relayout()
    app.start("title")
    app.step(0.016, [])
    assert _text_fits(app) == []
    title = app.stack.top
    buttons = [b.rect for b in title.buttons.values()]
    assert all(r.bottom <= size[1] and r.right <= size[0] for r in buttons)
    assert not any(a.colliderect(b) for i, a in enumerate(buttons) for b in buttons[i + 1:])
    credit_top = app.layout.height - app.layout.px(24) - app.layout.font(17).get_height()
    assert max(r.bottom for r in buttons) < credit_top
    app.context.open("settings")
    app.step(0.016, [])
    assert _text_fits(app) == []
    settings = app.stack.top
    rects = [b.rect for b in settings.segments] + [settings.back_button.rect, settings.volume_slider.rect]
    assert not any(a.colliderect(b) for i, a in enumerate(rects) for b in rects[i + 1:])
    assert all(settings.card_rect().contains(r) for r in rects)


def test_window_resize_relayouts(make_app):
    app = make_app()
    title = app.start("title")
    small = title.buttons["quit"].rect.size
    pygame.display.set_mode((2560, 1440), pygame.RESIZABLE)
    app.step(0.0, [pygame.event.Event(pygame.WINDOWSIZECHANGED, {"x": 2560, "y": 1440})])
    assert app.layout.size == (2560, 1440)
    big = app.stack.top.buttons["quit"].rect.size
    assert big[0] == pytest.approx(small[0] * 2, abs=2) and big[1] == pytest.approx(small[1] * 2, abs=2)


def test_run_app_opens_title_and_quits(home):
    from game.client.launch import run_app

    seen = []

    def setup(context):
        context.on_new_game = lambda: None
        seen.append(context)
        pygame.event.post(pygame.event.Event(pygame.QUIT))

    assert run_app(["--size", "1280x720", "--windowed"], setup=setup) == 0
    assert seen and seen[0].stack.top is None  # cleared on the way out


def test_run_app_survives_a_broken_setup(home):
    from game.client.launch import run_app

    def setup(context):
        pygame.event.post(pygame.event.Event(pygame.QUIT))
        raise KeyError("no such people")

    assert run_app(["--windowed"], setup=setup) == 0
    assert "no such people" in (home / "whatgoesup.log").read_text()
