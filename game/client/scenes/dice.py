"""Dice that tumble and land on faces the rules engine already chose, with the odds shown.

``DiceRoll`` is the plain input (what was rolled, against which safeties, with which exact odds);
``DiceAnimation`` is the tween (which face shows, how far each die has spun); ``draw_dice_roll``
paints both into a rectangle; ``DiceRollScene`` is the overlay that plays one roll.
Nothing here picks a number: the tumbling faces are a fixed decorative sequence.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Callable

import pygame
import pygame_gui
from pygame_gui.core import ObjectID


from game.client.shell.scene import Scene
from game.client.shell.settings import animation_factor
from game.client.kit.style import (ACCENT_LIGHT, BAND_COLOURS, INK, INK_DIM, SHADOW, Layout, dim, draw_card, draw_text,
                    fit_font, font_px, polygon_points)

BAND_LABELS = {"ok": "OK", "fail": "Fail", "boom": "Boom"}
BAND_ORDER = ("ok", "fail", "boom")
OUTCOME_WORDS = {"ok": "It works!", "fail": "Fail!", "boom": "BOOM!"}


def percent_text(p: Fraction) -> str:
    """A probability as a percentage: exact when it is a whole percent, else to one decimal."""
    value = p * 100
    if value.denominator == 1:
        return f"{value.numerator}%"
    if 0 < value < Fraction(1, 10):
        return "<0.1%"
    if Fraction(999, 10) < value < 100:
        return ">99.9%"
    return f"{float(value):.1f}%"


@dataclass(frozen=True)
class DiceRoll:
    """One reliability roll, already decided: dice, final faces, safeties and the exact odds."""

    dice: int
    sides: int
    offset: int
    faces: tuple[int, ...]
    fail_safety: int
    boom_safety: int
    odds_ok: Fraction
    odds_fail: Fraction
    odds_boom: Fraction
    moved: int = 0  # points the players' help moved the total towards the good end (0: as rolled)

    def __post_init__(self) -> None:
        if self.dice < 1 or self.sides < 2:
            raise ValueError(f"need at least one die of two sides, got {self.dice}d{self.sides}")
        if len(self.faces) != self.dice:
            raise ValueError(f"{self.dice} dice need {self.dice} faces, got {self.faces}")
        if any(not 1 <= f <= self.sides for f in self.faces):
            raise ValueError(f"faces {self.faces} are not all between 1 and {self.sides}")
        if self.fail_safety >= self.boom_safety:
            raise ValueError(f"the Fail safety must be below the Boom safety ({self.fail_safety}/{self.boom_safety})")
        if self.odds_ok + self.odds_fail + self.odds_boom != 1 or min(self.odds()) < 0:
            raise ValueError("the OK, Fail and Boom odds must be non-negative and add up to exactly 1")

    @property
    def total(self) -> int:
        return sum(self.faces) + self.offset

    @property
    def low(self) -> int:
        return self.dice + self.offset

    @property
    def high(self) -> int:
        return self.dice * self.sides + self.offset

    @property
    def counted(self) -> int:
        """The value the roll counts as: the total, moved by help."""
        return self.total - self.moved

    @property
    def outcome(self) -> str:
        """'ok', 'fail' or 'boom': the band the counted value falls in (the bands the card shows, from the
        safeties); a value moved past the lowest roll is still OK."""
        if self.counted >= self.boom_safety:
            return "boom"
        return "fail" if self.counted >= self.fail_safety else "ok"

    def odds(self) -> tuple[Fraction, Fraction, Fraction]:
        return (self.odds_ok, self.odds_fail, self.odds_boom)

    def scheme_text(self) -> str:
        """E.g. 'D20', '4D6−4', '2D10'."""
        text = f"{self.dice if self.dice > 1 else ''}D{self.sides}"
        if self.offset:
            text += f"{'+' if self.offset > 0 else '−'}{abs(self.offset)}"
        return text

    def band_ranges(self) -> list[tuple[str, int, int]]:
        """The rollable values of each band, lowest first; empty bands are left out."""
        bounds = {"ok": (self.low, self.fail_safety - 1), "fail": (self.fail_safety, self.boom_safety - 1),
                  "boom": (self.boom_safety, self.high)}
        out = []
        for key in BAND_ORDER:
            lo, hi = bounds[key]
            lo, hi = max(lo, self.low), min(hi, self.high)
            if lo <= hi:
                out.append((key, lo, hi))
        return out

    def band_percent(self, key: str) -> str:
        return percent_text(dict(zip(BAND_ORDER, self.odds()))[key])

    def odds_text(self) -> str:
        """E.g. 'OK 45%  Fail 25%  Boom 30%'."""
        return "  ".join(f"{BAND_LABELS[k]} {self.band_percent(k)}" for k in BAND_ORDER)

    def sum_text(self) -> str:
        """E.g. '4 + 6 + 3 + 5 − 4 = 14', or just '14' for a single die."""
        if self.dice == 1 and not self.offset:
            return str(self.total)
        text = " + ".join(str(f) for f in self.faces)
        if self.offset:
            text += f" {'+' if self.offset > 0 else '−'} {abs(self.offset)}"
        return f"{text} = {self.total}" + self.moved_text()

    def moved_text(self) -> str:
        """E.g. ', moved to 14' once help moved the roll ('' as rolled)."""
        return f", moved to {self.counted}" if self.moved else ""


@dataclass(frozen=True)
class DiceFaces:
    """Dice already decided that land in no band (a derp fight's die): all ``DiceAnimation`` needs to tumble."""

    dice: int
    sides: int
    faces: tuple[int, ...]


class DiceAnimation:
    """Time line of one roll: each die tumbles, then lands (staggered) on its final face."""

    BASE_SECONDS = 1.7
    FLIP_SECONDS = 0.07

    def __init__(self, roll: DiceRoll, time_factor: float = 1.0) -> None:
        self.roll = roll
        self.duration = self.BASE_SECONDS * max(0.0, time_factor)
        n = roll.dice
        self.land_times = [self.duration * (0.62 + 0.38 * (i / (n - 1) if n > 1 else 1.0)) for i in range(n)]
        self.time = 0.0

    @property
    def done(self) -> bool:
        return self.time >= self.duration

    def update(self, dt: float) -> None:
        self.time = min(self.duration, self.time + dt)

    def seek(self, seconds: float) -> None:
        self.time = max(0.0, min(self.duration, seconds))

    def skip(self) -> None:
        self.time = self.duration

    def landed(self, i: int) -> bool:
        return self.time >= self.land_times[i]

    def face(self, i: int) -> int:
        """The face die ``i`` shows now: a fixed tumbling sequence, then its final face."""
        if self.landed(i):
            return self.roll.faces[i]
        step = int(self.time / self.FLIP_SECONDS)
        return 1 + (i * 7 + step * 13 + step * step * 3) % self.roll.sides

    def spin(self, i: int) -> float:
        """Rotation of die ``i`` in radians: fast at first, exactly zero when it lands."""
        land = self.land_times[i]
        if land <= 0 or self.time >= land:
            return 0.0
        remaining = 1.0 - self.time / land
        turns = 2.0 + (i % 2)
        direction = -1 if i % 2 else 1
        return direction * turns * math.tau * remaining ** 1.6

    def hop(self, i: int) -> float:
        """Height of die ``i`` above the table, as a fraction of its size (bounces that die down)."""
        land = self.land_times[i]
        if land <= 0 or self.time >= land:
            return 0.0
        remaining = 1.0 - self.time / land
        return abs(math.sin(self.time * 9.0 + i)) * 0.35 * remaining


# ---------------------------------------------------------------- drawing

DIE_BODY = (246, 236, 217)
DIE_FACE = (255, 250, 238)
DIE_EDGE = (122, 78, 52)
DIE_INK = (48, 30, 52)


def _rotate(points, centre, angle):
    cx, cy = centre
    c, s = math.cos(angle), math.sin(angle)
    return [(cx + (x - cx) * c - (y - cy) * s, cy + (x - cx) * s + (y - cy) * c) for x, y in points]


def _unit_shape(centre, radius, shape, angle):
    cx, cy = centre
    return _rotate([(cx + x * radius, cy + y * radius) for x, y in shape], centre, angle)


def draw_die(surface: pygame.Surface, sides: int, centre: tuple[float, float], size: float, face: int,
             angle: float = 0.0, glow: tuple[int, int, int] | None = None) -> None:
    """One die of ``sides`` sides showing ``face``, ``size`` pixels across, turned by ``angle``."""
    r = size / 2
    edge_w = max(2, int(size / 36))
    edge = DIE_EDGE
    if glow is not None:  # landed: the die's rim takes the colour of the band it hit
        edge = tuple(int(c * 0.85) for c in glow)
        edge_w = max(3, int(size / 20))
    number_at = centre
    number_scale = 0.42
    if sides == 6:
        body = _unit_shape(centre, r * 0.82, [(-1, -1), (1, -1), (1, 1), (-1, 1)], angle)
        pygame.draw.polygon(surface, DIE_FACE, body)
        pygame.draw.polygon(surface, edge, body, edge_w)
        pips = {1: [(0, 0)], 2: [(-1, -1), (1, 1)], 3: [(-1, -1), (0, 0), (1, 1)],
                4: [(-1, -1), (1, -1), (-1, 1), (1, 1)], 5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)],
                6: [(-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)]}[face]
        for p in _unit_shape(centre, r * 0.45, pips, angle):
            pygame.draw.circle(surface, DIE_INK, p, r * 0.13)
        return
    if sides == 20:
        hexagon = _unit_shape(centre, r, [(math.cos(a), math.sin(a)) for a in
                                          (math.radians(-90 + 60 * k) for k in range(6))], angle)
        tri = _unit_shape(centre, r * 0.62, [(math.cos(a), math.sin(a)) for a in
                                             (math.radians(-90 + 120 * k) for k in range(3))], angle)
        pygame.draw.polygon(surface, DIE_BODY, hexagon)
        # facets: each triangle corner meets its neighbouring hexagon corners
        for k, (tx, ty) in enumerate(tri):
            for hk in (2 * k - 1, 2 * k, 2 * k + 1):
                pygame.draw.line(surface, DIE_EDGE, (tx, ty), hexagon[hk % 6], max(1, edge_w - 1))
        pygame.draw.polygon(surface, DIE_FACE, tri)
        pygame.draw.polygon(surface, DIE_EDGE, tri, edge_w)
        pygame.draw.polygon(surface, edge, hexagon, edge_w)
        number_scale = 0.36
        number_at = _rotate([(centre[0], centre[1] + r * 0.06)], centre, angle)[0]
    elif sides == 8:
        diamond = _unit_shape(centre, r, [(0, -1), (0.86, 0), (0, 1), (-0.86, 0)], angle)
        upper = _unit_shape(centre, r, [(0, -1), (0.86, 0), (-0.86, 0)], angle)
        pygame.draw.polygon(surface, DIE_BODY, diamond)
        pygame.draw.polygon(surface, DIE_FACE, upper)
        pygame.draw.polygon(surface, DIE_EDGE, upper, max(1, edge_w - 1))
        pygame.draw.polygon(surface, edge, diamond, edge_w)
        number_at = _rotate([(centre[0], centre[1] - r * 0.3)], centre, angle)[0]
        number_scale = 0.36
    elif sides == 10:
        kite = _unit_shape(centre, r, [(0, -1), (0.95, 0.05), (0.0, 0.95), (-0.95, 0.05)], angle)
        face_shape = _unit_shape(centre, r, [(0, -1), (0.95, 0.05), (0, 0.42), (-0.95, 0.05)], angle)
        pygame.draw.polygon(surface, DIE_BODY, kite)
        pygame.draw.polygon(surface, DIE_FACE, face_shape)
        pygame.draw.polygon(surface, DIE_EDGE, face_shape, max(1, edge_w - 1))
        a, b = _unit_shape(centre, r, [(0, 0.42), (0, 0.95)], angle)
        pygame.draw.line(surface, DIE_EDGE, a, b, max(1, edge_w - 1))
        pygame.draw.polygon(surface, edge, kite, edge_w)
        number_at = _rotate([(centre[0], centre[1] - r * 0.12)], centre, angle)[0]
        number_scale = 0.36
    else:
        body = polygon_points(centre[0], centre[1], r, min(max(sides, 3), 8), -math.pi / 2 + angle)
        pygame.draw.polygon(surface, DIE_FACE, body)
        pygame.draw.polygon(surface, edge, body, edge_w)
    if face >= 10:
        number_scale *= 0.8
    text = _face_number(max(8, int(size * number_scale)), face, max(1, int(size / 40)))
    if angle:
        text = pygame.transform.rotozoom(text, -math.degrees(angle), 1.0)
    surface.blit(text, text.get_rect(center=(int(number_at[0]), int(number_at[1]))))


_FACE_NUMBERS: dict[tuple[int, int, int], pygame.Surface] = {}


def _face_number(px: int, face: int, underline: int) -> pygame.Surface:
    """A die's number (6 and 9 underlined so they read either way up), rendered once per size."""
    key = (px, face, underline)
    text = _FACE_NUMBERS.get(key)
    if text is None:
        if len(_FACE_NUMBERS) > 256:
            _FACE_NUMBERS.clear()
        text = font_px(px, True).render(str(face), True, DIE_INK)
        if face in (6, 9):
            pygame.draw.line(text, DIE_INK, (0, text.get_height() - 2), (text.get_width(), text.get_height() - 2),
                             underline)
        _FACE_NUMBERS[key] = text
    return text


def draw_band_pattern(surface: pygame.Surface, rect: pygame.Rect, key: str, unit: int) -> None:
    """Fill ``rect`` with a band's colour and its pattern: OK plain, Fail stripes, Boom cross-hatch."""
    colour = BAND_COLOURS[key]
    surface.fill(colour, rect)
    if key == "ok":
        return
    darker = tuple(int(c * 0.62) for c in colour)
    gap = max(6, unit * 9)
    width = max(1, unit * 2)
    old_clip = surface.get_clip()
    surface.set_clip(rect.clip(old_clip) if old_clip else rect)
    for x in range(rect.left - rect.h, rect.right + rect.h, gap):
        pygame.draw.line(surface, darker, (x, rect.bottom), (x + rect.h, rect.top), width)
        if key == "boom":
            pygame.draw.line(surface, darker, (x, rect.top), (x + rect.h, rect.bottom), width)
    surface.set_clip(old_clip)


def draw_band_swatch(surface: pygame.Surface, rect: pygame.Rect, key: str, unit: int) -> None:
    draw_band_pattern(surface, rect, key, unit)
    pygame.draw.rect(surface, SHADOW, rect, max(1, unit))


_SHADOWS: dict[tuple[int, int, int], pygame.Surface] = {}


def _die_shadow(w: int, h: int, alpha: int) -> pygame.Surface:
    """The soft ellipse under a die (darker the nearer the die is to the table), made once per size."""
    key = (w, h, alpha)
    shadow = _SHADOWS.get(key)
    if shadow is None:
        if len(_SHADOWS) > 512:
            _SHADOWS.clear()
        shadow = pygame.Surface((w, h), pygame.SRCALPHA)
        pygame.draw.ellipse(shadow, (0, 0, 0, alpha), shadow.get_rect())
        _SHADOWS[key] = shadow
    return shadow


def draw_dice_row(surface: pygame.Surface, rect: pygame.Rect, layout: Layout, anim: DiceAnimation, size: float,
                  glow: tuple[int, int, int] | None = None) -> None:
    """``anim``'s dice in a row centred in ``rect``, at most ``size`` pixels across (smaller to fit), standing on
    a floor just above ``rect``'s bottom, tumbling until they land; ``glow`` rims them once landed."""
    n = anim.roll.dice
    gap = layout.px(24)
    size = max(1.0, min(size, (rect.w - gap * (n - 1)) / n, rect.h - layout.px(18)))
    row_w = n * size + (n - 1) * gap
    floor_y = rect.bottom - layout.px(18)
    for i in range(n):
        cx = rect.centerx - row_w / 2 + size / 2 + i * (size + gap)
        lift = anim.hop(i) * size
        shadow = _die_shadow(int(size * 0.9), max(2, int(size * 0.18)), max(30, 110 - int(lift)))
        surface.blit(shadow, shadow.get_rect(center=(int(cx), int(floor_y))))
        draw_die(surface, anim.roll.sides, (cx, floor_y - size / 2 - lift), size, anim.face(i), anim.spin(i),
                 glow if anim.landed(i) else None)


def dice_row_height(layout: Layout) -> int:
    """How tall the dice's row is at the top of ``draw_dice_roll``'s rect (the dice hop and spin only there;
    the total, band bar and legend below it are still while they tumble)."""
    return layout.px(170)


def dice_size(layout: Layout, roll: DiceRoll) -> int:
    """How big ``draw_dice_roll`` draws the dice of ``roll`` at most: a lone d20 larger."""
    return layout.px(150 if roll.sides == 20 and roll.dice == 1 else 110)


def draw_dice_roll(surface: pygame.Surface, rect: pygame.Rect, layout: Layout, anim: DiceAnimation,
                   ranges: bool = True) -> None:
    """Dice, total, band bar and odds legend for ``anim`` inside ``rect`` (the legend's 'rolls 1-10' line only
    with ``ranges``)."""
    roll = anim.roll
    done = anim.done
    dice_h = dice_row_height(layout)
    draw_dice_row(surface, pygame.Rect(rect.left, rect.top, rect.w, dice_h), layout, anim, dice_size(layout, roll),
                  BAND_COLOURS[roll.outcome] if done else None)
    # -- the total, the band bar and the legend: still while the dice tumble, so painted once and reused
    _blit_roll_details(surface, rect, layout, roll, done, rect.top + dice_h + layout.px(8), ranges)


# (roll, done, rect size, layout) -> (layer, its offset from rect's top-left, the background under it),
# or None where the details cannot be cached (they would not sit on a plain background).
_DETAILS: dict[tuple, tuple[pygame.Surface, tuple[int, int], tuple] | None] = {}


def _plain(surface: pygame.Surface, area: pygame.Rect, colour=None):
    """The one colour ``area`` of ``surface`` shows at a grid of points (``colour`` if given), or None
    if it is not plain there or lies partly off the surface."""
    if not surface.get_rect().contains(area):
        return None
    xs = [area.left + (area.w - 1) * k // 6 for k in range(7)]
    ys = [area.top + (area.h - 1) * k // 4 for k in range(5)]
    get_at = surface.get_at
    for y in ys:
        for x in xs:
            here = tuple(get_at((x, y)))
            if colour is None:
                colour = here
            elif here != colour:
                return None
    return colour


def _blit_roll_details(surface: pygame.Surface, rect: pygame.Rect, layout: Layout, roll: DiceRoll, done: bool,
                       y: int, ranges: bool = True) -> None:
    """The total, band bar and legend below the dice: painted once onto a copy of their (plain) background
    and blitted from then on; drawn straight onto ``surface`` whenever the background is not plain."""
    key = (roll, done, rect.size, y - rect.top, layout, ranges)
    entry = _DETAILS.get(key, False)
    if entry is None:
        _draw_roll_details(surface, rect, layout, roll, done, y, ranges)
        return
    if entry is not False:
        layer, (dx, dy), colour = entry
        area = layer.get_rect(topleft=(rect.left + dx, rect.top + dy))
        if _plain(surface, area, colour) is not None:
            surface.blit(layer, area)
        else:
            _draw_roll_details(surface, rect, layout, roll, done, y, ranges)
        return
    # First time: paint onto a generous plain sheet, find what was painted, keep just that.
    margin = layout.px(48)
    sheet_area = pygame.Rect(rect.left - margin, y - margin, rect.w + 2 * margin, layout.px(300) + 2 * margin)
    probe = pygame.Rect(rect.left, y, rect.w, layout.px(150)).clip(surface.get_rect())
    colour = _plain(surface, probe) if probe.w > 1 and probe.h > 1 else None
    if colour is None:
        _draw_roll_details(surface, rect, layout, roll, done, y, ranges)  # not cached: maybe plain next time
        return
    sheet = pygame.Surface(sheet_area.size, 0, surface)
    sheet.fill(colour)
    shifted = rect.move(-sheet_area.left, -sheet_area.top)
    _draw_roll_details(sheet, shifted, layout, roll, done, y - sheet_area.top, ranges)
    painted = pygame.mask.from_threshold(sheet, colour, (1, 1, 1, 255))
    painted.invert()
    used = _bounds(painted)
    inside = sheet.get_rect().inflate(-2, -2)
    if len(_DETAILS) > 16:
        _DETAILS.clear()
    area = used.move(sheet_area.topleft)
    if not inside.contains(used) or _plain(surface, area, colour) is None:
        _DETAILS[key] = None  # spills past the sheet or onto a busy background: always draw it directly
        _draw_roll_details(surface, rect, layout, roll, done, y, ranges)
        return
    layer = sheet.subsurface(used).copy()
    _DETAILS[key] = (layer, (area.left - rect.left, area.top - rect.top), colour)
    surface.blit(layer, area)


#: Rows of a mask searched at a time by ``_bounds``.
BOUNDS_ROWS = 64


def _bounds(mask: pygame.mask.Mask) -> pygame.Rect:
    """The smallest rect holding every set bit of ``mask`` (1x1 at the origin when none is set), found
    ``BOUNDS_ROWS`` rows at a time: ``get_bounding_rects`` labels each pixel it searches with an int, 11 MiB
    for the roll card's sheet at 3840x2160 in one go."""
    w, h = mask.get_size()
    found: list[pygame.Rect] = []
    for top in range(0, h, BOUNDS_ROWS):
        band = pygame.mask.Mask((w, min(BOUNDS_ROWS, h - top)))
        band.draw(mask, (0, -top))
        found += [rect.move(0, top) for rect in band.get_bounding_rects()]
    return found[0].unionall(found[1:]) if found else pygame.Rect(0, 0, 1, 1)


def _draw_roll_details(surface: pygame.Surface, rect: pygame.Rect, layout: Layout, roll: DiceRoll, done: bool,
                       y: int, ranges: bool = True) -> None:
    """The total at ``y``, the band bar and the odds legend under it."""
    unit = max(1, layout.px(1))
    n = roll.dice
    # -- total
    if done:
        text = roll.sum_text() if n > 1 or roll.offset else f"Rolled {roll.total}{roll.moved_text()}"
        colour = ACCENT_LIGHT
    else:
        text = "Rolling…"
        colour = INK_DIM
    total_font = fit_font(text, rect.w, layout.px(30), bold=True)
    draw_text(surface, text, total_font, colour, (rect.centerx, y), anchor="midtop", shadow=unit * 2)
    # -- band bar
    bar = pygame.Rect(rect.left, y + layout.px(58), rect.w, layout.px(44))
    span = roll.high - roll.low + 1
    label_font = font_px(layout.px(17), True)
    tick_font = font_px(layout.px(15))

    def x_of(value: float) -> int:
        return int(bar.left + (value - roll.low) / span * bar.w)

    for key, lo, hi in roll.band_ranges():
        seg = pygame.Rect(x_of(lo), bar.top, x_of(hi + 1) - x_of(lo), bar.h)
        draw_band_pattern(surface, seg, key, unit)
        if done and key != roll.outcome:
            veil = pygame.Surface(seg.size, pygame.SRCALPHA)
            veil.fill((10, 8, 30, 150))
            surface.blit(veil, seg)
        label = BAND_LABELS[key]
        if label_font.size(label)[0] + layout.px(12) <= seg.w:
            plate = label_font.render(label, True, (20, 14, 34))
            back = plate.get_rect(center=seg.center).inflate(layout.px(10), layout.px(2))
            pygame.draw.rect(surface, (255, 250, 238), back, border_radius=layout.px(6))
            surface.blit(plate, plate.get_rect(center=seg.center))
        for i, value in enumerate((lo, hi) if hi != lo else (lo,)):
            anchor = "midtop"
            pos_x = x_of(value + 0.5)
            draw_text(surface, str(value), tick_font, INK_DIM, (pos_x, bar.bottom + layout.px(4)), anchor=anchor)
        pygame.draw.line(surface, SHADOW, (seg.left, bar.top), (seg.left, bar.bottom), max(1, unit * 2))
    pygame.draw.rect(surface, SHADOW, bar, max(2, unit * 2), border_radius=layout.px(4))
    if done:
        key_rect = next((pygame.Rect(x_of(lo), bar.top, x_of(hi + 1) - x_of(lo), bar.h)
                         for key, lo, hi in roll.band_ranges() if key == roll.outcome), None)
        if key_rect is not None:
            pygame.draw.rect(surface, (255, 250, 238), key_rect.inflate(layout.px(6), layout.px(6)),
                             max(2, unit * 3), border_radius=layout.px(6))
        mx = x_of(max(roll.low, min(roll.high, roll.counted)) + 0.5)
        tip = bar.top - layout.px(4)
        pygame.draw.polygon(surface, (255, 250, 238), [(mx, tip), (mx - layout.px(10), tip - layout.px(16)),
                                                       (mx + layout.px(10), tip - layout.px(16))])
    # -- legend with the exact odds
    legend_y = bar.bottom + layout.px(36)
    chip_font = font_px(layout.px(20), True)
    range_font = font_px(layout.px(16))
    parts = []
    for key, lo, hi in roll.band_ranges():
        main = f"{BAND_LABELS[key]} {roll.band_percent(key)}"
        sub = f"rolls {lo}–{hi}" if hi != lo else f"roll {lo}"
        parts.append((key, main, sub))
    swatch = layout.px(22)
    widths = [swatch + layout.px(8) + max(chip_font.size(m)[0], range_font.size(s)[0]) for _, m, s in parts]
    spacing = layout.px(36)
    total_w = sum(widths) + spacing * (len(parts) - 1)
    x = rect.centerx - total_w // 2
    for (key, main, sub), w in zip(parts, widths):
        sw = pygame.Rect(x, legend_y + layout.px(3), swatch, swatch)
        draw_band_swatch(surface, sw, key, unit)
        bright = not done or key == roll.outcome
        draw_text(surface, main, chip_font, INK if bright else INK_DIM, (sw.right + layout.px(8), legend_y))
        if ranges:
            draw_text(surface, sub, range_font, INK_DIM,
                      (sw.right + layout.px(8), legend_y + chip_font.get_linesize()))
        x += w + spacing


class RollCardScene(Scene):
    """The behaviour every game's dice overlay shares: the dice tumble toward a decided roll (set
    ``self.animation``), Space, Enter, Esc or a click skips the tumble and then closes the card, Continue is
    enabled once the dice land, and ``on_done`` is called once when the card closes. Subclasses draw."""

    is_overlay = True
    CARD_W, CARD_H = 860, 560

    def __init__(self, context, on_done: Callable[[], None] | None = None) -> None:
        super().__init__(context)
        self.on_done = on_done
        self.animation: DiceAnimation
        self.continue_button: pygame_gui.elements.UIButton | None = None
        self._finished = False

    def enter(self) -> None:
        super().enter()
        if not self.animation.done:
            self.context.sounds.play_clatter()

    def card_rect(self) -> pygame.Rect:
        return self.context.layout.centred_rect(self.CARD_W, self.CARD_H)

    def build_ui(self) -> None:
        layout = self.context.layout
        card = self.card_rect()
        rect = layout.corner_rect(card, 200, 50, 32, 26)
        self.continue_button = pygame_gui.elements.UIButton(
            rect, "Continue", self.context.manager, container=self.root,
            object_id=ObjectID(object_id="#continue", class_id="@menu_button"))
        if not self.animation.done:
            self.continue_button.disable()

    def finish(self) -> None:
        """Dismiss the roll (once) and tell whoever asked for it."""
        if self._finished:
            return
        self._finished = True
        self.context.back()
        if self.on_done is not None:
            self.on_done()

    def handle_event(self, event: pygame.event.Event) -> bool:
        if event.type == pygame_gui.UI_BUTTON_PRESSED and event.ui_element is self.continue_button:
            self.finish()
            return True
        advance = (event.type == pygame.KEYDOWN and event.key in (pygame.K_SPACE, pygame.K_RETURN, pygame.K_KP_ENTER,
                                                                  pygame.K_ESCAPE)) \
            or (event.type == pygame.MOUSEBUTTONDOWN and event.button == 1)
        if advance:
            if self.animation.done:
                self.finish()
            else:
                self.animation.skip()
            return True
        return event.type == pygame.KEYDOWN

    def update(self, dt: float) -> None:
        self.animation.update(dt)
        if self.animation.done and self.continue_button is not None and not self.continue_button.is_enabled:
            self.continue_button.enable()


class DiceRollScene(RollCardScene):
    """Overlay that plays one decided roll; Space/Enter/click skips, then continues."""

    name = "dice"

    def __init__(self, context, roll: DiceRoll, caption: str = "Reliability roll",
                 on_done: Callable[[], None] | None = None) -> None:
        super().__init__(context, on_done)
        self.roll = roll
        self.caption = caption
        self.animation = DiceAnimation(roll, animation_factor(context.settings))

    def draw(self, surface: pygame.Surface) -> None:
        layout = self.context.layout
        dim(surface, 150)
        card = self.card_rect()
        draw_card(surface, card, layout)
        pad = layout.px(36)
        inner = card.inflate(-2 * pad, 0)
        head = fit_font(self.caption, inner.w - layout.px(220), layout.px(32), bold=True)
        draw_text(surface, self.caption, head, ACCENT_LIGHT, (inner.left, card.top + layout.px(24)))
        sub = f"{self.roll.scheme_text()} against Fail {self.roll.fail_safety} / Boom {self.roll.boom_safety}"
        sub_font = fit_font(sub, inner.w, layout.px(18))
        draw_text(surface, sub, sub_font, INK_DIM, (inner.left, card.top + layout.px(24) + head.get_linesize()))
        if self.animation.done:
            word = OUTCOME_WORDS[self.roll.outcome]
            big = font_px(layout.px(34), True)
            draw_text(surface, word, big, BAND_COLOURS[self.roll.outcome], (inner.right, card.top + layout.px(28)),
                      anchor="topright", shadow=layout.px(2))
        area = pygame.Rect(inner.left, card.top + layout.px(100), inner.w, layout.px(360))
        draw_dice_roll(surface, area, layout, self.animation)
        hint = "Space, Enter or click to continue" if self.animation.done else "Space, Enter or click to skip"
        hint_font = fit_font(hint, inner.w - layout.px(240), layout.px(16))
        draw_text(surface, hint, hint_font, INK_DIM, (inner.left, card.bottom - layout.px(51)), anchor="midleft")
