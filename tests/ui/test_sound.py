"""Sound: the board's and the interface's effects, a quiet music loop made in code, volume and music settings;
silent (never failing) without an audio device."""
from __future__ import annotations

import time

import pygame
import pytest

from game.client.shell.sound import EFFECT_SOUNDS, MUSIC_BEAT_S, MUSIC_CHORDS, Sounds, effect_samples, music_samples


@pytest.mark.parametrize("name", EFFECT_SOUNDS)
def test_every_effect_is_a_real_sound(name):
    samples = effect_samples(name, 22050, 1)
    assert len(samples) > 22050 * 0.04
    peak = max(abs(s) for s in samples)
    assert 2000 < peak <= 20000  # audible, never clipped


def test_the_music_loop_is_quiet_and_seamless():
    rate, channels = 44100, 2
    samples = music_samples(rate, channels)
    bars = len(MUSIC_CHORDS)
    assert len(samples) == pytest.approx(bars * 4 * MUSIC_BEAT_S * rate * channels, rel=0.001)
    assert max(abs(s) for s in samples) < 16000
    assert abs(samples[0]) < 300 and abs(samples[-1]) < 1500  # it starts and ends near silence: no click


def test_sounds_play_music_and_follow_the_volume():
    sounds = Sounds(0.5, music=True)
    sounds.warm()
    if not sounds.effects:
        pytest.skip("no mixer on this machine (the game is silent, as it should be)")
    for _ in range(200):
        sounds.update()
        if sounds.music is not None:
            break
        time.sleep(0.02)
    assert sounds.music is not None and sounds.music.get_volume() == pytest.approx(0.5 * 0.25, abs=0.01)
    sounds.set_volume(0.0)  # the slider at 0 mutes everything, the music too
    assert sounds.music.get_num_channels() == 0
    sounds.set_volume(0.6)
    sounds.set_music(False)
    assert sounds.music.get_num_channels() == 0
    sounds.play("button")
    sounds.play("boom")
    pygame.mixer.quit()


def test_without_audio_nothing_fails(monkeypatch):
    def no_mixer():
        raise pygame.error("no audio device")

    monkeypatch.setattr(pygame.mixer, "get_init", lambda: None)
    monkeypatch.setattr(pygame.mixer, "init", no_mixer)
    sounds = Sounds(0.7, music=True)
    sounds.warm()
    sounds.play("first")
    sounds.play_clatter()
    sounds.set_music(True)
    sounds.update()
    assert sounds.effects == {} and sounds.music is None


def test_settings_has_roll_results_and_music(make_app):
    import pygame_gui

    app = make_app((1280, 720))
    app.start("settings")
    scene = app.stack.top
    def press(field, value):
        button = next(b for b, fv in scene.segments.items() if fv == (field, value))
        app.step(0.0, [pygame.event.Event(pygame_gui.UI_BUTTON_PRESSED, {"ui_element": button})])
    press("music", False)
    assert app.settings.music is False and "music off" in scene.status
    press("auto_continue", True)
    assert app.settings.auto_continue is True
    rects = [b.rect for b in scene.segments] + [scene.volume_slider.rect, scene.back_button.rect]
    assert not any(a.colliderect(b) for i, a in enumerate(rects) for b in rects[i + 1:])
    card = scene.card_rect()
    assert all(card.contains(r) for r in rects)
