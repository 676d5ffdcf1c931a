"""The shared space backdrop: a twinkling star field, a little world, the Moon, and a tiny rocket
that goes up in a hopeful arc and (this being What Goes Up) comes back down again.

Decoration only: the star field uses its own fixed-seed ``random.Random``; nothing here touches
game outcomes.
"""
from __future__ import annotations

import math
import random
from functools import lru_cache

import pygame

from game.client.kit import kept_looks, style
from game.client.kit.style import SPACE_BOTTOM, SPACE_TOP, disjoint_rects, vertical_gradient

ROCKET_PERIOD = 9.0  # seconds per hop
_STATIC_CACHE: dict[tuple, pygame.Surface] = {}  # (size, world) -> the backdrop's unchanging layer


def _radial_glow(layer: pygame.Surface, centre, inner: float, outer: float, colour, max_alpha: int,
                 steps: int = 40) -> None:
    """Paint a soft halo from ``inner`` (``max_alpha``) fading to nothing at ``outer``.

    Circles drawn on an SRCALPHA surface replace pixels rather than blend, so painting from the
    outside in leaves each ring with exactly its own alpha: a smooth fall-off without rims.
    """
    for k in range(steps + 1):
        t = k / steps
        alpha = int(max_alpha * t * t)
        pygame.draw.circle(layer, (*colour, alpha), (int(centre[0]), int(centre[1])),
                           max(1, int(outer - (outer - inner) * t)))


@lru_cache(maxsize=4)
def _star_field(stars: int, seed: int) -> tuple[tuple, ...]:
    """The stars (x, y as fractions of the screen, size, brightness, twinkle speed and phase, tint), made
    once per count and seed: every scene's backdrop has the same sky."""
    rng = random.Random(seed)  # decoration only
    tints = [(255, 255, 255), (255, 236, 200), (200, 220, 255), (255, 210, 170)]
    return tuple(
        (rng.random(), rng.random(), rng.choice((1, 1, 1, 2, 2, 3)), rng.uniform(0.45, 1.0),
         rng.uniform(0.6, 2.2), rng.uniform(0, math.tau), rng.choice(tints))
        for _ in range(stars)
    )


def forget_layers() -> None:
    """Let go of every backdrop's unchanging layer (the app does when it starts: a new window may have another
    pixel format, and its first frames are to be kept as drawn or read)."""
    _STATIC_CACHE.clear()


def _kept_name(size: tuple[int, int], world: bool) -> str:
    """The name the unchanging layer is kept under: its size and whether it has the world, and the code that
    draws it (this module and the style's gradient and colours; pygame's version and smooth-scale filter are in
    the file's header)."""
    return (f"layer backdrop {size[0]}x{size[1]} world={world} ({kept_looks.file_identity(__file__)}; "
            f"{kept_looks.file_identity(style.__file__)})")


class Backdrop:
    def __init__(self, stars: int = 260, seed: int = 1969, world: bool = True) -> None:
        self.stars = _star_field(stars, seed)
        self.world = world
        self.time = 0.0
        self._static: pygame.Surface | None = None
        self._static_key: tuple | None = None
        self._stars_key: tuple | None = None
        self._stars_placed: list[tuple] = []
        self._star_rects_key: tuple | None = None
        self._star_rects: list[pygame.Rect] = []

    def update(self, dt: float) -> None:
        self.time += dt

    # ------------------------------------------------------------------ geometry
    @staticmethod
    def planet(size: tuple[int, int]) -> tuple[tuple[float, float], float]:
        w, h = size
        radius = h * 0.74
        return (w * 0.88, h * 1.5), radius

    def rocket_at(self, size: tuple[int, int], phase: float) -> tuple[tuple[float, float], float]:
        """Rocket position and heading (radians) at ``phase`` 0..1 of its hop."""
        (cx, cy), radius = self.planet(size)
        start, end = math.radians(-128), math.radians(-50)
        angle = start + (end - start) * phase
        r = radius * (1.0 + 0.34 * math.sin(math.pi * phase))
        pos = (cx + r * math.cos(angle), cy + r * math.sin(angle))
        step = 0.002
        a2 = start + (end - start) * (phase + step)
        r2 = radius * (1.0 + 0.34 * math.sin(math.pi * (phase + step)))
        nxt = (cx + r2 * math.cos(a2), cy + r2 * math.sin(a2))
        return pos, math.atan2(nxt[1] - pos[1], nxt[0] - pos[0])

    # ------------------------------------------------------------------ drawing
    def _build_static(self, size: tuple[int, int]) -> pygame.Surface:
        """The unchanging layer (sky, haze, glows, Moon, world), shared by every backdrop of that size: the one
        kept from an earlier run (``kit/kept_looks.py``) if there is one, else drawn (and kept, in the app's first
        frames)."""
        key = (size, self.world)
        cached = _STATIC_CACHE.get(key)
        if cached is not None:
            return cached
        name = _kept_name(size, self.world)
        surf = kept_looks.kept(name, shared=True)
        if surf is None or surf.get_size() != size:
            surf = self._draw_static(size)
            kept_looks.record(name, surf, shared=True)  # the layer itself, not a copy: nothing draws on it
        if len(_STATIC_CACHE) > 4:
            _STATIC_CACHE.clear()
        _STATIC_CACHE[key] = surf
        return surf

    def _draw_static(self, size: tuple[int, int]) -> pygame.Surface:
        w, h = size
        # The sky and the soft light (nebulae, glows) are smooth, so they are painted small (the sky at an
        # eighth of the size, the narrower glows over it at a quarter) and smooth-scaled up to full size once:
        # no hard rims, and a fraction of the work (no full-size scratch layer).
        small = (max(2, w // 8), max(2, h // 8))
        sw, sh = small
        sky = vertical_gradient(small, SPACE_TOP, SPACE_BOTTOM)
        haze = pygame.Surface(small, pygame.SRCALPHA)
        for fx, fy, fr, colour in ((0.18, 0.30, 0.42, (120, 60, 160)), (0.62, 0.12, 0.30, (60, 90, 170)),
                                   (0.40, 0.78, 0.36, (150, 70, 110))):
            for i in range(12, 0, -1):
                pygame.draw.circle(haze, (*colour, 4), (int(sw * fx), int(sh * fy)), max(1, int(sh * fr * i / 12)))
        sky.blit(haze, (0, 0))
        if self.world:
            quarter = (max(2, w // 4), max(2, h // 4))
            sky = pygame.transform.smoothscale(sky, quarter)
            glow = pygame.Surface(quarter, pygame.SRCALPHA)
            (cx, cy), radius = self.planet(size)
            _radial_glow(glow, (cx / 4, cy / 4), radius / 4, radius * 1.09 / 4, (120, 190, 255), 90)
            mx, my, mr = self.moon(size)
            _radial_glow(glow, (mx / 4, my / 4), mr / 4, mr * 2.2 / 4, (255, 240, 200), 60)
            sky.blit(glow, (0, 0))
        surf = pygame.transform.smoothscale(sky, size)
        if self.world:
            self._draw_moon(surf, size)
            self._draw_planet(surf, size)
        return surf

    def release(self) -> None:
        """Let go of the unchanging layer (for every size): a scene leaving for good calls this, so a layer
        no scene draws does not stay in memory (33 MiB at 3840x2160), nor for the kept looks' file; drawing again
        rebuilds it."""
        for key in [key for key in _STATIC_CACHE if key[1] == self.world]:
            del _STATIC_CACHE[key]
            kept_looks.forget(_kept_name(*key))
        self._static = self._static_key = None

    @staticmethod
    def moon(size: tuple[int, int]) -> tuple[int, int, int]:
        w, h = size
        return int(w * 0.87), int(h * 0.2), int(h * 0.075)

    def _draw_moon(self, surf: pygame.Surface, size: tuple[int, int]) -> None:
        mx, my, r = self.moon(size)
        centre = (mx, my)
        pygame.draw.circle(surf, (236, 228, 205), centre, r)
        for dx, dy, cr in ((-0.35, -0.2, 0.22), (0.3, 0.25, 0.18), (0.05, -0.5, 0.12), (-0.1, 0.45, 0.1)):
            pygame.draw.circle(surf, (212, 203, 182), (int(mx + dx * r), int(my + dy * r)), max(2, int(cr * r)))
        # a little flag, because someone will get there
        fx, fy = mx + int(r * 0.55), my - int(r * 0.78)
        pygame.draw.line(surf, (230, 230, 230), (fx, fy), (fx, fy - int(r * 0.55)), max(1, r // 22))
        pygame.draw.polygon(surf, (255, 122, 89), [(fx, fy - int(r * 0.55)), (fx + int(r * 0.32), fy - int(r * 0.45)),
                                                   (fx, fy - int(r * 0.35))])

    def _draw_planet(self, surf: pygame.Surface, size: tuple[int, int]) -> None:
        (cx, cy), radius = self.planet(size)
        cx, cy, radius = int(cx), int(cy), int(radius)
        # Only the top of the world is on screen: paint just that slice of it.
        visible = max(1, min(radius * 2, size[1] - (cy - radius)))
        body = pygame.Surface((radius * 2, visible), pygame.SRCALPHA)
        pygame.draw.circle(body, (44, 100, 170, 255), (radius, radius), radius)
        # continents: clusters of overlapping blobs, with a lighter shore
        rng = random.Random(7)  # decoration only
        for ax, ay, spread in ((0.30, 0.10, 0.09), (0.58, 0.07, 0.12), (0.80, 0.22, 0.07), (0.45, 0.27, 0.06)):
            blobs = [(ax + rng.uniform(-spread, spread), ay + rng.uniform(-spread / 3, spread / 3),
                      rng.uniform(0.05, 0.085)) for _ in range(8)]
            for colour, grow in (((136, 190, 126, 255), 1.18), ((92, 164, 90, 255), 1.0)):
                for bx, by, br in blobs:
                    pygame.draw.circle(body, colour, (int(bx * 2 * radius), int(by * 2 * radius)), int(br * radius * grow))
        # a few clouds
        for bx, by, bw in ((0.25, 0.05, 0.16), (0.66, 0.16, 0.2), (0.5, 0.33, 0.14)):
            cloud = pygame.Rect(0, 0, int(bw * 2 * radius), int(bw * radius * 0.28))
            cloud.center = (int(bx * 2 * radius), int(by * 2 * radius))
            pygame.draw.ellipse(body, (240, 244, 255, 150), cloud)
        # keep only what is inside the disc, then shade the night side
        mask = pygame.Surface(body.get_size(), pygame.SRCALPHA)
        pygame.draw.circle(mask, (255, 255, 255, 255), (radius, radius), radius)
        body.blit(mask, (0, 0), special_flags=pygame.BLEND_RGBA_MIN)
        shade_small = pygame.Surface((max(1, radius // 4),) * 2, pygame.SRCALPHA)
        q = shade_small.get_width()
        for i in range(12):
            pygame.draw.circle(shade_small, (10, 8, 30, 16), (int(q * 0.95), int(q * 0.75)), int(q * (0.85 - i * 0.03)))
        cut = shade_small.subsurface((0, 0, q, max(1, min(q, round(q * visible / (radius * 2))))))
        shade = pygame.transform.smoothscale(cut, body.get_size())
        shade.blit(mask, (0, 0), special_flags=pygame.BLEND_RGBA_MIN)
        body.blit(shade, (0, 0))
        pygame.draw.circle(body, (170, 220, 255, 140), (radius, radius), radius, max(2, radius // 110))
        surf.blit(body, (cx - radius, cy - radius))

    def _visible_stars(self, size: tuple[int, int]) -> list[tuple]:
        """The stars not hidden by the world or the Moon at ``size``, placed: (pos, size, base, speed, phase,
        tint, the rect any of their twinkles can touch), worked out once per size."""
        if self._stars_key == (size, self.world):
            return self._stars_placed
        w, h = size
        unit = max(1, round(h / 720))
        (pcx, pcy), prad = self.planet(size)
        mx, my, mr = self.moon(size)
        placed = []
        for x, y, s, base, speed, phase, tint in self.stars:
            if self.world and ((x * w - pcx) ** 2 + (y * h - pcy) ** 2 < prad ** 2
                               or (x * w - mx) ** 2 + (y * h - my) ** 2 < (mr * 1.1) ** 2):
                continue
            pos = (int(x * w), int(y * h))
            reach = unit if s == 1 else math.ceil(max(s * unit * 0.8, 3 * unit if s == 3 else 0)) + 1
            rect = pygame.Rect(pos[0] - reach, pos[1] - reach, 2 * reach + 1, 2 * reach + 1)
            placed.append((pos, s, base, speed, phase, tint, rect))
        self._stars_key, self._stars_placed = (size, self.world), placed
        return placed

    def draw(self, surface: pygame.Surface) -> None:
        """The whole backdrop: its unchanging layer, then the stars and the rocket."""
        surface.blit(self.static_layer(surface.get_size()), (0, 0))
        self.draw_moving(surface)

    def static_layer(self, size: tuple[int, int]) -> pygame.Surface:
        """The unchanging layer at ``size`` (sky, haze, glows, Moon, world): what ``restore`` copies back."""
        key = (size, self.world)
        if self._static is None or self._static_key != key:
            self._static = self._build_static(size)
            self._static_key = key
        return self._static

    def moving_rects(self, size: tuple[int, int], also=()) -> list[pygame.Rect]:
        """Where the stars and the rocket can draw this frame (at the backdrop's time), with the rects ``also``
        (last frame's rocket, widgets), merged so that none overlap: a frame that restores these and last
        frame's from the static layer and calls ``draw_moving`` is the same as a whole ``draw``."""
        if self._star_rects_key != (size, self.world):
            self._star_rects = disjoint_rects(star[-1] for star in self._visible_stars(size))
            self._star_rects_key = (size, self.world)
        rocket = [self.rocket_rect(size)] if self.world else []
        return disjoint_rects([*rocket, *also], self._star_rects)

    def restore(self, surface: pygame.Surface, rects: list[pygame.Rect]) -> None:
        """Copy the static layer back over ``rects``."""
        static = self.static_layer(surface.get_size())
        surface.blits([(static, rect, rect) for rect in rects], doreturn=False)

    def star_rects(self, size: tuple[int, int]) -> list[pygame.Rect]:
        """Every star drawn at ``size``, in drawing order: the rect any of its twinkles can touch."""
        return [star[-1] for star in self._visible_stars(size)]

    def draw_moving(self, surface: pygame.Surface, stars=None) -> None:
        """The twinkling stars and the rocket, over whatever is on ``surface``; ``stars`` (numbers in the order
        of ``star_rects``) draws just those stars, without the rocket (a scene keeping a picture of itself
        redraws the stars that show round its cards)."""
        size = surface.get_size()
        unit = max(1, round(size[1] / 720))
        placed = self._visible_stars(size)
        for pos, s, base, speed, phase, tint, _ in (placed if stars is None else [placed[i] for i in stars]):
            twinkle = 0.65 + 0.35 * math.sin(self.time * speed + phase)
            bright = base * twinkle
            colour = (int(tint[0] * bright), int(tint[1] * bright), int(tint[2] * bright))
            if s == 1:
                surface.fill(colour, (pos, (unit, unit)))
            else:
                pygame.draw.circle(surface, colour, pos, s * unit * 0.8)
                if s == 3 and twinkle > 0.85:
                    arm = 3 * unit
                    pygame.draw.line(surface, colour, (pos[0] - arm, pos[1]), (pos[0] + arm, pos[1]))
                    pygame.draw.line(surface, colour, (pos[0], pos[1] - arm), (pos[0], pos[1] + arm))
        if self.world and stars is None:
            self._draw_rocket(surface, size)

    def _puffs(self, size: tuple[int, int], phase: float):
        """The smoke so far at ``phase``: (centre, radius, alpha) of each puff, newest first."""
        h = size[1]
        for k in range(1, 16):
            p = phase - k * 0.012
            if p <= 0:
                break
            (px, py), _ = self.rocket_at(size, p)
            yield (px, py), h * (0.004 + 0.0009 * k), max(0, 150 - k * 9)

    def rocket_rect(self, size: tuple[int, int]) -> pygame.Rect:
        """Every pixel the rocket, its flame and its smoke can touch at the backdrop's time."""
        phase = (self.time % ROCKET_PERIOD) / ROCKET_PERIOD
        (x, y), _ = self.rocket_at(size, phase)
        reach = size[1] * 0.055 + 3  # the flame's tip is under one rocket length from the centre
        rect = pygame.Rect(int(x - reach), int(y - reach), int(2 * reach) + 2, int(2 * reach) + 2)
        for (px, py), r, _ in self._puffs(size, phase):
            rect.union_ip(pygame.Rect(int(px - r) - 2, int(py - r) - 2, int(2 * r) + 5, int(2 * r) + 5))
        return rect

    def _draw_rocket(self, surface: pygame.Surface, size: tuple[int, int]) -> None:
        phase = (self.time % ROCKET_PERIOD) / ROCKET_PERIOD
        h = size[1]
        for (px, py), r, alpha in self._puffs(size, phase):  # puffs of smoke along the way so far
            puff = pygame.Surface((int(r * 2) + 2, int(r * 2) + 2), pygame.SRCALPHA)
            pygame.draw.circle(puff, (230, 220, 240, alpha), (puff.get_width() // 2,) * 2, r)
            surface.blit(puff, puff.get_rect(center=(px, py)))
        (x, y), heading = self.rocket_at(size, phase)
        length = h * 0.055
        flicker = 0.75 + 0.25 * math.sin(self.time * 37.0)
        engine_on = phase < 0.55

        def pt(fx: float, fy: float) -> tuple[float, float]:
            # local frame: +x along the heading, +y to its right; lengths in rocket lengths
            c, s = math.cos(heading), math.sin(heading)
            return (x + (fx * c - fy * s) * length, y + (fx * s + fy * c) * length)

        if engine_on:
            pygame.draw.polygon(surface, (255, 170, 60), [pt(-0.5, -0.1), pt(-0.5 - 0.45 * flicker, 0), pt(-0.5, 0.1)])
            pygame.draw.polygon(surface, (255, 240, 160), [pt(-0.5, -0.05), pt(-0.5 - 0.25 * flicker, 0), pt(-0.5, 0.05)])
        pygame.draw.polygon(surface, (255, 122, 89), [pt(-0.5, -0.13), pt(-0.62, -0.28), pt(-0.25, -0.13)])
        pygame.draw.polygon(surface, (255, 122, 89), [pt(-0.5, 0.13), pt(-0.62, 0.28), pt(-0.25, 0.13)])
        body = [pt(-0.5, -0.13), pt(0.2, -0.15), pt(0.35, -0.11), pt(0.35, 0.11), pt(0.2, 0.15), pt(-0.5, 0.13)]
        pygame.draw.polygon(surface, (246, 236, 217), body)
        pygame.draw.polygon(surface, (230, 72, 60), [pt(0.35, -0.11), pt(0.55, 0), pt(0.35, 0.11)])
        pygame.draw.circle(surface, (70, 140, 220), pt(0.08, 0), length * 0.07)
        pygame.draw.circle(surface, (40, 30, 60), pt(0.08, 0), length * 0.07, max(1, int(length * 0.02)))
