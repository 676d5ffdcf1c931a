"""Settings: save/load round trip, damaged files fall back to defaults with a message."""
import json
import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame  # noqa: E402
import pygame_gui  # noqa: E402

from game.client.shell.settings import Settings, load_settings, save_settings  # noqa: E402


def test_round_trip(tmp_path):
    path = tmp_path / "deep" / "settings.json"
    s = Settings(window_size=(1920, 1080), fullscreen=True, ui_scale=1.25, animation_speed="skip", volume=0.3)
    save_settings(s, path)
    assert load_settings(path) == (s, None)


def test_missing_file_is_quietly_default(tmp_path):
    assert load_settings(tmp_path / "nope.json") == (Settings(), None)


def test_corrupt_file_gives_defaults_and_a_message(tmp_path):
    path = tmp_path / "settings.json"
    path.write_text("{ this is not json", encoding="utf-8")
    settings, message = load_settings(path)
    assert settings == Settings()
    assert "damaged" in message and "defaults" in message


def test_bad_values_reset_only_themselves(tmp_path):
    path = tmp_path / "settings.json"
    path.write_text(json.dumps({"volume": 7, "animation_speed": "fast", "ui_scale": "big", "colour": 1}))
    settings, message = load_settings(path)
    assert settings == Settings(animation_speed="fast")
    assert "volume" in message and "ui_scale" in message and "colour" in message


def test_non_object_json(tmp_path):
    path = tmp_path / "settings.json"
    path.write_text("[1, 2]")
    settings, message = load_settings(path)
    assert settings == Settings() and message


def test_app_with_corrupt_settings_starts_and_shows_notice(make_app, home):
    (home / "settings.json").write_bytes(b"\xff\xfe garbage")
    app = make_app()
    app.start("title")
    app.step(0.016, [])
    assert app.settings == Settings()
    assert app.context.notices and "defaults" in app.context.notices[0]


def test_settings_scene_saves_changes(make_app, home):
    app = make_app()
    app.start("settings")
    scene = app.stack.top
    skip = next(b for b, (field, value) in scene.segments.items() if (field, value) == ("animation_speed", "skip"))
    app.step(0.0, [pygame.event.Event(pygame_gui.UI_BUTTON_PRESSED, {"ui_element": skip})])
    assert app.settings.animation_speed == "skip"
    assert json.loads((home / "settings.json").read_text())["animation_speed"] == "skip"
    assert load_settings(home / "settings.json")[0].animation_speed == "skip"
    selected = [b for b in scene.segments if b.is_selected]
    assert skip in selected
    app.step(0.0, [pygame.event.Event(pygame_gui.UI_HORIZONTAL_SLIDER_MOVED,
                                      {"ui_element": scene.volume_slider, "value": 25})])
    assert app.settings.volume == 0.25
    assert load_settings(home / "settings.json")[0].volume == 0.25


def test_settings_scene_ui_scale_rebuilds(make_app, home):
    app = make_app()
    app.start("settings")
    scene = app.stack.top
    before = scene.back_button.rect.size
    big = next(b for b, fv in scene.segments.items() if fv == ("ui_scale", 1.25))
    app.step(0.0, [pygame.event.Event(pygame_gui.UI_BUTTON_PRESSED, {"ui_element": big})])
    assert app.layout.ui_scale == 1.25
    assert scene.back_button.rect.width > before[0]
    assert load_settings(home / "settings.json")[0].ui_scale == 1.25
