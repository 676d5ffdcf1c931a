"""Sound: the board's and the interface's effects, a quiet music loop made in code, volume and music settings;
silent (never failing) without an audio device."""
from __future__ import annotations

import hashlib
import time

import pygame
import pytest

from game.client.shell.sound import EFFECT_SOUNDS, MUSIC_BEAT_S, MUSIC_CHORDS, Sounds, effect_samples, music_samples


#: sha256 of every sound's bytes, pinned when making them was sped up (game.client.shell.sound): the same sounds.
SOUND_DIGESTS = {
    (44100, 2, "clatter"): "cbc973a9f58ef3c1f7474f7a86dfb80c48bbc7a490dcc811537514e911868849",
    (44100, 2, "launch"): "42fba7c49b1a096d2aa73bb08265d1b5891e68840c1bd5895baed584df021347",
    (44100, 2, "boom"): "e1a1a8b9a21b58d9cc000d8bc958b799e45d3e853232f93c8d28df06eaf80dd7",
    (44100, 2, "fail"): "f761e8cdb29187c689ac2b833504d1bef5cb8a22226cf321aaa56bbe9987bad6",
    (44100, 2, "landing"): "bfb4b44f12a51682497eebded1ef6aee4970e95cc9c4ca956645f3db46485fad",
    (44100, 2, "first"): "796440134b4e735dcb9547cb0bd22ad08e0a975eb6aa3f713eb7dacd5adf02ee",
    (44100, 2, "button"): "b6e5e59ef07f2554dcf3e12294a81d233c638acf35e436de5c09e95159f66178",
    (44100, 2, "turn"): "0ff7d7fb98c72f59d142b9fc38891e52820f28c18a72707457d88510e7d4754b",
    (22050, 1, "clatter"): "ef91a8f9133ac5a1da5c10bca56306f5eddf347f366bc7f7fa16e1e4793d4ee0",
    (22050, 1, "launch"): "5607a7363b9572c44bdb7dc9426716699d06e9fcb8ac92ac70991f37ffbbe4eb",
    (22050, 1, "boom"): "cdc235a9ddb9417e38dde9827ac83567b86656b0a08f4d6ecd448f84cffaf422",
    (22050, 1, "fail"): "93a64f169d17e991e218034b7a4fb5c0b4b887b8583299002e9b2a8436d74f79",
    (22050, 1, "landing"): "059a2e079d2658d32e4edf41e44d6e99300117df7c7303688a67700a3226b508",
    (22050, 1, "first"): "2a2e4c8276119a04bf4cfe9bf073c3f7ac2fb119faabeeafc49bf263e0f97cad",
    (22050, 1, "button"): "234e542a44d63ce38ae677ac944c48fdc389a7cafa888d91e1f182e69ee37cb2",
    (22050, 1, "turn"): "636b0de8f66fb227d2e8152beb82719e77d735ff20045bb89dcf36d4e4fb2d3e",
    (44100, 2, "music"): "8015a04dab662a2d91c07caa0dca5416069b6c9b261debb748e3825270aa9f1c",
}


@pytest.mark.parametrize("rate, channels, name", sorted(SOUND_DIGESTS))
def test_the_sounds_are_the_same_bytes_as_ever(rate, channels, name):
    from game.client.shell.sound import sound_bytes

    made = music_samples(rate, channels).tobytes() if name == "music" else sound_bytes(name, rate, channels)
    assert hashlib.sha256(made).hexdigest() == SOUND_DIGESTS[(rate, channels, name)]


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


def test_without_audio_the_app_tries_the_mixer_once(monkeypatch, caplog):
    """After the first frame the app starts the sounds (Sounds.warm_soon): without an audio device the mixer is
    tried once and said to be off once; every sound after that stays silent without trying it again."""
    tried = []

    def no_mixer():
        tried.append(1)
        raise pygame.error("no audio device")

    monkeypatch.setattr(pygame.mixer, "get_init", lambda: None)
    monkeypatch.setattr(pygame.mixer, "init", no_mixer)
    sounds = Sounds(0.7, music=True)
    with caplog.at_level("INFO", logger="whatgoesup"):
        sounds.warm_soon()
        sounds.update()
        sounds.play("button")
        sounds.play_clatter()
    assert sounds.made and sounds.effects == {} and sounds.clatter is None and sounds._making is None
    assert len(tried) == 1
    assert [r.getMessage() for r in caplog.records] == ["sound off: no audio device"]


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


def test_sounds_made_on_their_own_thread_are_the_same_and_one_played_early_plays():
    """The app makes its sounds on a thread once its first frame is up (Sounds.warm_soon): the frame loop hands
    them to the mixer when made, the same bytes; a sound played before then is made at once."""
    from game.client.shell.sound import sound_bytes

    early = Sounds(0.5)
    early.warm_soon()
    early.play("button")
    if not early.effects:
        pytest.skip("no mixer on this machine (the game is silent, as it should be)")
    sounds = Sounds(0.5)
    sounds.warm_soon()
    for _ in range(500):
        sounds.update()
        if sounds.effects:
            break
        time.sleep(0.01)
    assert set(sounds.effects) == set(EFFECT_SOUNDS) and sounds.clatter is not None
    rate, _, channels = pygame.mixer.get_init()
    for name, sound in [("clatter", sounds.clatter), *sounds.effects.items()]:
        assert sound.get_raw() == sound_bytes(name, rate, channels), name
    pygame.mixer.quit()
