"""Tiny synthesized sound effects (no audio files to ship). Silent if the mixer cannot start."""
from __future__ import annotations

import array
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
    for n, start in enumerate(hits):
        begin = int(start * rate)
        loud = 0.9 * (0.8 ** n)
        pitch = 2300 + 370 * (n % 3)
        length = int(0.035 * rate)
        for i in range(length):
            if begin + i >= total:
                break
            state = (state * 1103515245 + 12345) & 0x7FFFFFFF
            noise = state / 0x3FFFFFFF - 1.0
            tone = math.sin(2 * math.pi * pitch * i / rate)
            env = math.exp(-i / (0.006 * rate))
            mono[begin + i] += loud * env * (0.6 * noise + 0.4 * tone)
    out = array.array("h")
    for v in mono:
        sample = int(max(-1.0, min(1.0, v)) * 20000)
        out.extend([sample] * channels)
    return out


class Sounds:
    """The app's sound effects. Every method is a no-op when audio is unavailable.

    The mixer starts and the samples are made on first use (or by ``warm``), not at start-up,
    so the window's first frame does not wait for audio.
    """

    def __init__(self, volume: float) -> None:
        self.clatter: pygame.mixer.Sound | None = None
        self._ready = False
        self.volume = volume

    def warm(self) -> None:
        """Start the mixer and build the sounds now (idempotent)."""
        if self._ready:
            return
        self._ready = True
        try:
            if not pygame.mixer.get_init():
                pygame.mixer.init()
            init = pygame.mixer.get_init()
            if not init or init[1] != -16:  # we build signed 16-bit samples only
                raise pygame.error(f"unsupported mixer format {init}")
            rate, _, channels = init
            self.clatter = pygame.mixer.Sound(buffer=clatter_samples(rate, channels).tobytes())
        except (pygame.error, NotImplementedError) as exc:
            log.info("sound off: %s", exc)
            self.clatter = None
        self.set_volume(self.volume)

    def set_volume(self, volume: float) -> None:
        self.volume = volume
        if self.clatter is not None:
            self.clatter.set_volume(volume)

    def play_clatter(self) -> None:
        if self.volume <= 0:
            return
        self.warm()
        if self.clatter is not None:
            self.clatter.play()
