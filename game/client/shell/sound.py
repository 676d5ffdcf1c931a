"""Tiny synthesized sound effects (no audio files to ship). Silent if the mixer cannot start."""
from __future__ import annotations

import array
import functools
import logging
import math

import pygame

log = logging.getLogger("whatgoesup")


def clatter_samples(rate: int, channels: int, seconds: float = 0.42) -> array.array:
    """Signed 16-bit samples of dice clattering: a handful of decaying, bright clicks.

    The 'noise' is a fixed linear congruential sequence, so the sound is the same every time.
    """
    total = int(rate * seconds)
    mono = [0.0] * total
    state = 12345
    hits = (0.0, 0.045, 0.11, 0.15, 0.23, 0.3, 0.36)
    sin, exp = math.sin, math.exp
    for n, start in enumerate(hits):
        begin = int(start * rate)
        loud = 0.9 * (0.8 ** n)
        step = 2 * math.pi * (2300 + 370 * (n % 3))
        decay = 0.006 * rate
        for i in range(min(int(0.035 * rate), total - begin)):
            state = (state * 1103515245 + 12345) & 0x7FFFFFFF
            noise = state / 0x3FFFFFFF - 1.0
            mono[begin + i] += loud * exp(-i / decay) * (0.6 * noise + 0.4 * sin(step * i / rate))
    return _to_samples(mono, channels)


def _to_samples(mono: list[float], channels: int, loudness: float = 20000, hold: int = 1) -> array.array:
    """``mono`` clipped to -1..1 as signed 16-bit samples, each on every channel and held ``hold`` times."""
    samples = array.array("h", [int((1.0 if v > 1.0 else -1.0 if v < -1.0 else v) * loudness) for v in mono])
    copies = channels * hold
    if copies == 1:
        return samples
    out = array.array("h", bytes(2 * copies * len(samples)))
    for k in range(copies):  # interleaved: every copy of a sample sits beside the others
        out[k::copies] = samples
    return out


def _noise(seed: int):
    state = seed
    while True:
        state = (state * 1103515245 + 12345) & 0x7FFFFFFF
        yield state / 0x3FFFFFFF - 1.0


def effect_samples(name: str, rate: int, channels: int) -> array.array:
    """Signed 16-bit samples of one board effect's sound: ``launch`` (a rising rumble), ``boom`` (a low
    burst), ``fail`` (two falling notes), ``landing`` (a soft bump and a chime), ``first`` (a bright fanfare).
    Made from fixed noise and sine tones, so each sounds the same every time."""
    noise = _noise(len(name) * 7919)
    mono: list[float] = []
    exp, sin = math.exp, math.sin
    if name == "launch":
        smooth = 0.0
        for i in range(int(rate * 1.0)):
            s = i / rate
            smooth += (next(noise) - smooth) * (0.03 + 0.05 * s)
            mono.append(3.2 * smooth * (min(1.0, s / 0.25) * exp(-s * 1.2)))
    elif name == "boom":
        smooth = 0.0
        for i in range(int(rate * 1.1)):
            smooth += (next(noise) - smooth) * 0.05
            mono.append(3.2 * smooth * exp(-(i / rate) * 3.2))
    else:
        notes = {"button": ((880, 0.0, 0.05),), "turn": ((523, 0.0, 0.18), (784, 0.14, 0.3)),
                 "fail": ((392, 0.0, 0.16), (311, 0.17, 0.26)),
                 "landing": ((110, 0.0, 0.12), (784, 0.1, 0.35)),
                 "first": ((523, 0.0, 0.14), (659, 0.12, 0.14), (784, 0.24, 0.14), (1047, 0.36, 0.4))}[name]
        total = max(start + length for _, start, length in notes)
        mono = [0.0] * int(rate * (total + 0.05))
        fade = {"first": 3.0, "button": 40.0}.get(name, 5.0)
        for pitch, start, length in notes:
            begin = int(start * rate)
            step = 2 * math.pi * pitch
            for i in range(min(int(length * rate), len(mono) - begin)):
                s = i / rate
                mono[begin + i] += 0.5 * (min(1.0, s / 0.01) * exp(-s * fade)) * sin(step * s)
    return _to_samples(mono, channels)


@functools.lru_cache(maxsize=None)
def sound_bytes(name: str, rate: int, channels: int) -> bytes:
    """The raw bytes of ``clatter`` or one of ``EFFECT_SOUNDS`` for a mixer format, made once per process
    (making them in plain Python takes most of a second, and every new window would otherwise pay it again)."""
    samples = clatter_samples(rate, channels) if name == "clatter" else effect_samples(name, rate, channels)
    return samples.tobytes()


#: The board effects' and the interface's sounds, made with the mixer's format on first use.
EFFECT_SOUNDS = ("launch", "boom", "fail", "landing", "first", "button", "turn")
#: The music loop: gentle chords (C, A minor, F, G) with a slow bell arpeggio, a bar of four beats each.
MUSIC_CHORDS = ((261.63, 329.63, 392.0), (220.0, 261.63, 329.63), (174.61, 220.0, 261.63), (196.0, 246.94, 293.66))
MUSIC_BEAT_S = 0.75
MUSIC_SHARE = 0.25  # the music plays at this share of the sound volume: under the game, never over it


def music_samples(rate: int, channels: int) -> array.array:
    """Signed 16-bit samples of the quiet music loop (four bars, seamless when repeated).

    Made at a quarter of the mixer's rate and each sample held four times: soft music needs no more, and
    it is four times quicker to make in plain Python."""
    hold = 4 if rate >= 32000 else 1
    return _to_samples(_music_mono(rate // hold), channels, loudness=16000, hold=hold)


def _music_mono(rate: int) -> array.array:
    """The loop's samples as doubles: an array of them, not a list of float objects (a third of the memory
    while the loop is made, at the title; the same values)."""
    bar = int(rate * MUSIC_BEAT_S * 4)
    mono = array.array("d", bytes(8 * bar * len(MUSIC_CHORDS)))
    two_pi = 2 * math.pi
    for n, chord in enumerate(MUSIC_CHORDS):
        start = n * bar
        for pitch in chord:  # a soft pad: each chord swells and fades within its bar
            step = two_pi * pitch / rate
            for i in range(bar):
                swell = math.sin(math.pi * i / bar)
                mono[start + i] += 0.12 * swell * math.sin(step * i)
        for beat in range(4):  # a bell on each beat, climbing the chord
            pitch = chord[beat % 3] * (2 if beat == 3 else 1) * 2
            begin = start + int(beat * rate * MUSIC_BEAT_S)
            step = two_pi * pitch / rate
            for i in range(int(rate * 0.6)):
                if begin + i < len(mono):
                    mono[begin + i] += 0.1 * math.exp(-i / (rate * 0.18)) * math.sin(step * i)
    return mono


class Sounds:
    """The app's sound effects. Every method is a no-op when audio is unavailable.

    The mixer starts and the samples are made on first use, by ``warm``, or on a thread of their own by
    ``warm_soon`` (what the app does once its first frame is up), never before the window's first frame.
    """

    def __init__(self, volume: float, music: bool = False) -> None:
        self.clatter: pygame.mixer.Sound | None = None
        self.effects: dict[str, pygame.mixer.Sound] = {}
        self._ready = False
        self.volume = volume
        self.music_on = music
        self.music: pygame.mixer.Sound | None = None
        self._music_bytes: bytes | None = None
        self._music_thread = None
        #: ``warm_soon``'s thread, and the samples it made (by sound name) for ``update`` to hand to the mixer.
        self._making = None
        self._made: dict[str, bytes] | None = None

    @property
    def made(self) -> bool:
        """Whether the mixer's sounds are made (or the sound is off): not while ``warm_soon``'s thread works."""
        return self._ready

    def warm(self) -> None:
        """Start the mixer and build the sounds now (idempotent)."""
        if self._ready:
            return
        self._ready = True
        self._build(self._mixer_format(), {})

    def warm_soon(self) -> None:
        """Start the mixer now and make the sounds on a thread of their own: in plain Python they take ~120 ms,
        which the frame loop would otherwise stop for. ``update`` hands them to the mixer once made; a sound
        played before then is made at once (``warm``), the same bytes."""
        if self._ready or self._making is not None:
            return
        mixer = self._mixer_format()
        if mixer is None:  # no audio: silent from now on, without trying the mixer again (``warm`` would)
            self._ready = True
            self._build(None, {})
            return
        import threading

        def make() -> None:
            self._made = {name: sound_bytes(name, *mixer) for name in ("clatter", *EFFECT_SOUNDS)}

        self._making = threading.Thread(target=make, name="sounds", daemon=True)
        self._making.start()

    def _mixer_format(self) -> tuple[int, int] | None:
        """The mixer's rate and channels, starting it if need be; None (and a line in the log) without one."""
        try:
            if not pygame.mixer.get_init():
                pygame.mixer.init()
            init = pygame.mixer.get_init()
            if not init or init[1] != -16:  # we build signed 16-bit samples only
                raise pygame.error(f"unsupported mixer format {init}")
            return init[0], init[2]
        except (pygame.error, NotImplementedError) as exc:
            log.info("sound off: %s", exc)
            return None

    def _build(self, mixer: tuple[int, int] | None, made: dict[str, bytes]) -> None:
        """The mixer's sounds, from the samples ``made`` or made now (none when ``mixer`` is None)."""
        try:
            if mixer is None:
                raise pygame.error("no mixer")
            self.clatter = pygame.mixer.Sound(buffer=made.get("clatter") or sound_bytes("clatter", *mixer))
            self.effects = {name: pygame.mixer.Sound(buffer=made.get(name) or sound_bytes(name, *mixer))
                            for name in EFFECT_SOUNDS}
        except (pygame.error, NotImplementedError) as exc:
            if mixer is not None:
                log.info("sound off: %s", exc)
            self.clatter = None
            self.effects = {}
        self.set_volume(self.volume)
        if self.effects and self.music_on and mixer is not None:
            self._start_music_thread(*mixer)

    def _start_music_thread(self, rate: int, channels: int) -> None:
        """Make the music's samples away from the frame loop (they take a moment in plain Python)."""
        import threading

        def make() -> None:
            self._music_bytes = music_samples(rate, channels).tobytes()

        self._music_thread = threading.Thread(target=make, name="music", daemon=True)
        self._music_thread.start()

    def update(self) -> None:
        """Called every frame: hand ``warm_soon``'s sounds to the mixer, and start the music, once their samples
        are ready (cheap otherwise)."""
        if self._made is not None and not self._ready:
            self._ready = True
            self._build(self._mixer_format(), self._made)
        if self._music_bytes is not None and self.music is None:
            try:
                self.music = pygame.mixer.Sound(buffer=self._music_bytes)  # a copy of its own
                self._music_bytes = None  # its 2 MiB go
                self.music.set_volume(self.volume * MUSIC_SHARE)
                if self.music_on and self.volume > 0:
                    self.music.play(loops=-1)
            except pygame.error as exc:
                log.info("music off: %s", exc)
                self._music_bytes = None

    def set_music(self, on: bool) -> None:
        """Music on or off (the loop is made the first time it is wanted)."""
        self.music_on = on
        if self.music is not None:
            if on and self.volume > 0:
                if self.music.get_num_channels() == 0:
                    self.music.play(loops=-1)
            else:
                self.music.stop()
        elif on and self._ready and self.effects and self._music_thread is None:
            init = pygame.mixer.get_init()
            if init:
                self._start_music_thread(init[0], init[2])

    def set_volume(self, volume: float) -> None:
        self.volume = volume
        if self.clatter is not None:
            self.clatter.set_volume(volume)
        for sound in self.effects.values():
            sound.set_volume(volume)
        if self.music is not None:
            self.music.set_volume(volume * MUSIC_SHARE)
            if volume <= 0:
                self.music.stop()
            elif self.music_on and self.music.get_num_channels() == 0:
                self.music.play(loops=-1)

    def play_clatter(self) -> None:
        if self.volume <= 0:
            return
        self.warm()
        if self.clatter is not None:
            self.clatter.play()

    def play(self, name: str) -> None:
        """One of ``EFFECT_SOUNDS``; silent when muted or without audio."""
        if self.volume <= 0:
            return
        self.warm()
        sound = self.effects.get(name)
        if sound is not None:
            sound.play()
