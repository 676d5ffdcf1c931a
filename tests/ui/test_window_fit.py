"""A window that fits: the first start fills most of the desktop, a saved size is kept on the screen it opens
on, and F11 toggles fullscreen without losing any other setting."""
from __future__ import annotations

import dataclasses
import json

import pygame
import pytest

from game.client.shell.settings import MIN_WINDOW, Settings, fit_window, load_settings


@pytest.mark.parametrize("wanted,desktop,expected", [
    (None, (3840, 2160), (3456, 1944)),       # first start on a 4K desktop: most of it
    (None, (1920, 1080), (1728, 972)),
    ((3840, 2160), (1920, 1080), (1728, 972)),  # a 4K save opened on a 1080p screen stays on it
    ((1280, 720), (3840, 2160), (1280, 720)),  # a small saved window stays as it was
    ((1600, 900), None, (1600, 900)),          # the display cannot say: trust the save
    (None, (800, 600), (800, 540)),            # a tiny desktop: as much as fits, never more
])
def test_fit_window(wanted, desktop, expected):
    assert fit_window(wanted, desktop) == expected
    if desktop:
        assert fit_window(wanted, desktop)[0] <= desktop[0] and fit_window(wanted, desktop)[1] <= desktop[1]


def test_first_start_fits_the_desktop(make_app, home):
    from game.client.launch import make_app as real_make_app

    app = real_make_app(home=home, size=None, fullscreen=False)
    desktop = app.desktop_size()
    width, height = app.surface.get_size()
    assert desktop is not None
    assert width <= desktop[0] and height <= desktop[1]
    assert (width, height) == fit_window(None, desktop)
    app.stack.clear()


def test_a_saved_size_too_big_for_this_screen_is_clamped(home):
    from game.client.launch import make_app as real_make_app

    (home / "settings.json").write_text(json.dumps({"version": 1, "window_size": [3840, 2160]}))
    app = real_make_app(home=home, size=None, fullscreen=False)
    desktop = app.desktop_size()
    assert app.surface.get_size() == fit_window((3840, 2160), desktop)
    assert app.surface.get_width() <= desktop[0]
    assert app.settings.window_size == (3840, 2160)  # the player's choice is kept for a bigger screen
    app.stack.clear()


def test_f11_toggles_fullscreen_and_keeps_the_other_settings(make_app, home):
    app = make_app((1280, 720))
    app.settings = dataclasses.replace(app.settings, auto_continue=True, volume=0.3)
    app.start("title")
    f11 = pygame.event.Event(pygame.KEYDOWN, {"key": pygame.K_F11, "mod": 0, "unicode": "", "scancode": 0})
    app.step(0.0, [f11])
    assert app.settings.fullscreen and app.settings.auto_continue and app.settings.volume == 0.3
    app.step(0.0, [f11])
    assert not app.settings.fullscreen and app.settings.auto_continue
    saved, notice = load_settings(home / "settings.json")
    assert notice is None and saved.auto_continue and not saved.fullscreen
    assert app.surface.get_width() >= min(MIN_WINDOW[0], app.desktop_size()[0])
    assert Settings().auto_continue is False
