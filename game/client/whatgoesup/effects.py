"""What the table sees happen on The Field when a roll is settled: launch flames, a Boom's fireball and
flying debris, a Fail's shake and smoke, a reentry glow, a parachute on landing, and a banner for a first.

Effects only animate: they are spawned from a roll that the engine already judged (its kind and outcome)
and from the story events that followed; nothing waits on them, and with animations skipped none are made.
Positions are kept in board units, so an effect stays on its step while the player zooms or pans.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Iterable, Optional

import pygame

from game.client.kit.draw import aa_circle, aa_polygon, mix
from game.client.kit.style import ACCENT_LIGHT, draw_card, fit_font
from game.client.whatgoesup.story_words import first_gist

#: Seconds each effect lasts at normal animation speed.
DURATIONS = {"launch": 1.6, "boom": 1.8, "fail": 1.3, "reentry": 1.5, "landing": 1.8, "first": 3.2}
#: The sound each effect makes (``Sounds.play``), if any.
SOUNDS = {"launch": "launch", "boom": "boom", "fail": "fail", "landing": "landing", "first": "first"}
_LANDINGS = ("landing", "lunar_landing", "stage_recovery")


def effect_for_roll(kind: str, outcome: str) -> Optional[str]:
    """The board effect of a settled roll: every Boom and Fail shows; of the rolls that worked, launches,
    reentries and landings do (a quiet duration check does not)."""
    if outcome in ("boom", "fail"):
        return outcome
    if kind in ("launch", "escape_tower"):
        return "launch"
    if kind == "reentry":
        return "reentry"
    if kind in _LANDINGS:
        return "landing"
    return None


def first_banner(text: str) -> Optional[str]:
    """The banner's words for a story line announcing a first ('Spudnik is first! Mission step: Launch (+1 dot)'),
    else None: ``story_words.first_gist``, from the engine's words or the story's plain ones."""
    return first_gist(text, winner=True)


@dataclass
class Effect:
    kind: str
    board_pos: tuple[float, float]
    duration: float
    text: str = ""
    age: float = 0.0
    seed: int = 0

    @property
    def progress(self) -> float:
        return min(1.0, self.age / self.duration) if self.duration > 0 else 1.0

    @property
    def done(self) -> bool:
        return self.age >= self.duration


@dataclass
class EffectLayer:
    """The effects playing on the board; ``time_factor`` is the animation-speed setting (0: none at all)."""

    time_factor: float = 1.0
    effects: list[Effect] = field(default_factory=list)
    spawned: list[str] = field(default_factory=list)  # every kind ever started, oldest first (for tests)

    def spawn(self, kind: str, board_pos: tuple[float, float], text: str = "", sounds=None) -> Optional[Effect]:
        if self.time_factor <= 0:
            return None
        effect = Effect(kind, board_pos, DURATIONS[kind] * max(0.35, self.time_factor), text,
                        seed=len(self.spawned) * 7919 + 13)
        self.effects.append(effect)
        self.spawned.append(kind)
        if sounds is not None and kind in SOUNDS:
            sounds.play(SOUNDS[kind])
        return effect

    def spawn_for_roll(self, kind: str, outcome: str, board_pos, story: Iterable[str], sounds=None) -> list[str]:
        """Start what a settled roll shows (and a banner for each first in ``story``); returns the kinds."""
        started = []
        what = effect_for_roll(kind, outcome)
        if what is not None and board_pos is not None and self.spawn(what, board_pos, sounds=sounds):
            started.append(what)
        return started + self.spawn_firsts(story, board_pos, sounds)

    def spawn_firsts(self, story: Iterable[str], board_pos=None, sounds=None) -> list[str]:
        """A banner for each first told in ``story`` (a roll's lines, or a move's, a hold's, the end of a go:
        a first is cheered whatever won it); returns the kinds started."""
        started = []
        for line in story:
            banner = first_banner(line)
            if banner and self.spawn("first", board_pos or (0.0, 0.0), banner, sounds=sounds):
                started.append("first")
        return started

    @property
    def active(self) -> bool:
        return bool(self.effects)

    def update(self, dt: float) -> None:
        for effect in self.effects:
            effect.age += dt
        self.effects = [e for e in self.effects if not e.done]

    def skip(self) -> None:
        self.effects = []

    # ------------------------------------------------------------------ drawing
    def draw(self, surface: pygame.Surface, view, layout, board_rect: pygame.Rect,
             banner_area: Optional[pygame.Rect] = None) -> None:
        """Draw every effect over the board (``view`` turns board units into screen points); a first's banner
        across the top of ``banner_area`` (default the board)."""
        banners = [e for e in self.effects if e.kind == "first"]
        for effect in self.effects:
            if effect.kind != "first":
                x, y = view.to_screen(effect.board_pos)
                size = max(8.0, layout.px(22) * min(2.0, max(0.8, view.zoom_factor)))
                _DRAW[effect.kind](surface, (x, y), size, effect)
        for n, effect in enumerate(banners[-2:]):
            _draw_banner(surface, layout, banner_area or board_rect, effect, n)


def _rand(seed: int, n: int) -> float:
    """A fixed pseudo-random number in [0, 1) for particle ``n`` (the same every frame)."""
    value = math.sin(seed * 12.9898 + n * 78.233) * 43758.5453
    return value - math.floor(value)


def _fade(colour, alpha: float) -> tuple[int, int, int, int]:
    return (*colour[:3], max(0, min(255, int(alpha * 255))))


def _blend_circle(surface, colour, centre, radius: float, alpha: float) -> None:
    """A soft translucent disc (drawn through a small alpha surface)."""
    r = max(1, int(radius))
    disc = pygame.Surface((2 * r + 2, 2 * r + 2), pygame.SRCALPHA)
    pygame.draw.circle(disc, _fade(colour, alpha), (r + 1, r + 1), r)
    surface.blit(disc, (int(centre[0]) - r - 1, int(centre[1]) - r - 1))


def _draw_launch(surface, centre, size, effect: Effect) -> None:
    """Flame under a rising craft: a plume of fire that climbs and thins out."""
    t = effect.progress
    x, y = centre
    rise = size * 2.2 * t
    for n in range(14):
        spread = (_rand(effect.seed, n) - 0.5) * size * 0.9
        life = (t * 3 + _rand(effect.seed, n + 50)) % 1.0
        px, py = x + spread * life, y - rise + size * (0.6 + 2.0 * life)
        colour = mix((255, 236, 150), (230, 90, 40), life)
        _blend_circle(surface, colour, (px, py), size * (0.45 - 0.3 * life), (1 - life) * (1 - t * 0.6))
    aa_polygon(surface, (255, 245, 220), [(x, y - rise - size * 0.9), (x + size * 0.35, y - rise),
                                          (x - size * 0.35, y - rise)])


def _draw_boom(surface, centre, size, effect: Effect) -> None:
    """A fireball that swells and turns to smoke, with shards flying outward."""
    t = effect.progress
    x, y = centre
    ball = size * (0.6 + 2.4 * math.sqrt(t))
    _blend_circle(surface, mix((255, 200, 90), (90, 80, 90), t), centre, ball, 0.95 * (1 - t * 0.8))
    _blend_circle(surface, mix((255, 255, 230), (230, 80, 30), min(1.0, t * 2)), centre, ball * 0.55,
                  max(0.0, 1 - t * 1.6))
    for n in range(10):
        angle = math.tau * (n / 10 + _rand(effect.seed, n) * 0.08)
        reach = size * (1.0 + 3.2 * t) * (0.7 + 0.5 * _rand(effect.seed, n + 20))
        px, py = x + math.cos(angle) * reach, y + math.sin(angle) * reach
        s = size * 0.22 * (1 - t * 0.5)
        spin = angle + t * 6
        points = [(px + math.cos(spin + k * 2.2) * s, py + math.sin(spin + k * 2.2) * s) for k in range(3)]
        aa_polygon(surface, mix((200, 190, 180), (70, 65, 75), t), points)


def _draw_fail(surface, centre, size, effect: Effect) -> None:
    """A shudder and a few puffs of grey smoke."""
    t = effect.progress
    x, y = centre
    shake = math.sin(t * 40) * size * 0.25 * (1 - t)
    aa_circle(surface, (240, 200, 80), (x + shake, y), size * 0.9, width=max(1, int(size / 8)))
    for n in range(6):
        life = (t + n / 6) % 1.0
        px = x + (_rand(effect.seed, n) - 0.5) * size * 1.6
        py = y - size * (0.4 + 2.2 * life)
        _blend_circle(surface, (150, 145, 155), (px, py), size * (0.3 + 0.5 * life), 0.55 * (1 - life) * (1 - t * 0.5))


def _draw_reentry(surface, centre, size, effect: Effect) -> None:
    """The hot glow of a craft plunging into the air: a pulsing red-orange shield."""
    t = effect.progress
    pulse = 0.5 + 0.5 * math.sin(t * math.tau * 3)
    _blend_circle(surface, (255, 120, 40), centre, size * (1.5 + 0.4 * pulse), 0.5 * (1 - t))
    _blend_circle(surface, (255, 210, 120), centre, size * (0.9 + 0.2 * pulse), 0.6 * (1 - t))


def _draw_landing(surface, centre, size, effect: Effect) -> None:
    """A parachute drifting down onto the landing step."""
    t = effect.progress
    x, y = centre
    cy = y - size * (3.0 * (1 - t) + 1.2)
    r = size * 1.1
    canopy = pygame.Rect(0, 0, int(2 * r), int(2 * r))
    canopy.center = (int(x), int(cy))
    alpha = 1.0 if t < 0.8 else (1 - t) / 0.2
    dome = pygame.Surface(canopy.size, pygame.SRCALPHA)
    pygame.draw.ellipse(dome, _fade((240, 240, 250), alpha), dome.get_rect())
    pygame.draw.rect(dome, (0, 0, 0, 0), pygame.Rect(0, dome.get_height() // 2, dome.get_width(), dome.get_height()))
    for k in (1, 3):
        pygame.draw.ellipse(dome, _fade((230, 90, 60), alpha), pygame.Rect(k * dome.get_width() // 5, 0,
                                                                           dome.get_width() // 5, dome.get_height()))
    pygame.draw.rect(dome, (0, 0, 0, 0), pygame.Rect(0, dome.get_height() // 2, dome.get_width(), dome.get_height()))
    surface.blit(dome, canopy)
    for dx in (-r * 0.95, 0, r * 0.95):
        pygame.draw.aaline(surface, _fade((220, 220, 230), alpha), (x + dx, cy), (x, cy + r * 1.3))


_DRAW = {"launch": _draw_launch, "boom": _draw_boom, "fail": _draw_fail, "reentry": _draw_reentry,
         "landing": _draw_landing}


def banner_rect(layout, area: pygame.Rect, text: str, row: int) -> tuple[pygame.Rect, pygame.font.Font]:
    """Where the ``row``-th banner saying ``text`` settles across the top of ``area``, and its font."""
    width = min(area.w - layout.px(40), layout.px(720))
    font = fit_font(text, width - layout.px(40), layout.px(24), bold=True)
    height = font.get_linesize() + layout.px(20)
    rect = pygame.Rect(0, 0, width, height)
    rect.midtop = (area.centerx, area.top + layout.px(14) + row * (height + layout.px(8)))
    return rect, font


def _draw_banner(surface, layout, area: pygame.Rect, effect: Effect, row: int) -> None:
    """A gold ribbon across the top of ``area`` announcing a first; slides in, stays, fades."""
    t = effect.progress
    slide = min(1.0, t / 0.12)
    rect, font = banner_rect(layout, area, effect.text, row)
    rect.y -= int((1 - slide) * (rect.h + layout.px(20)))
    card = pygame.Surface(rect.size, pygame.SRCALPHA)
    draw_card(card, card.get_rect(), layout, colour=(60, 44, 20), edge=ACCENT_LIGHT)
    text = font.render(effect.text, True, ACCENT_LIGHT)
    card.blit(text, text.get_rect(center=card.get_rect().center))
    if t > 0.85:
        card.set_alpha(int(255 * (1 - t) / 0.15))
    surface.blit(card, rect)
