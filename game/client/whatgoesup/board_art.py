"""The pictures on The Field: the bodies (the World with its continents, the cratered Moon, the Rock),
the lines (solid, dashed, cased so crossings read as bridges), direction arrows, and the step shapes
with their little icons. Everything here paints at a given pixel size; nothing knows the board.

Step shapes, so a step's kind reads from its outline as well as its colour:

* duration step, orbit or surface: a filled disc with a light rim (a station);
* duration step, transit: a hollow ring;
* burn junction: a four-pointed star;
* special step (launch, insertion, reentry, landing, docking, escape, spaceport): a hexagon badge
  with an icon.
"""
from __future__ import annotations

import math
import random

import pygame
import pygame.gfxdraw

from game.client.kit.draw import aa_circle, aa_polygon, mix
from game.client.kit.style import font_px

SPACE = (8, 9, 28)
CASING = (10, 9, 28)
BURN_FILL = (255, 214, 140)
BURN_EDGE = (120, 70, 20)
SPECIAL_BADGE = {
    "home": (255, 201, 120), "launch": (255, 209, 102), "orbital_insertion": (255, 209, 102),
    "reentry": (255, 150, 110), "landing": (255, 180, 150), "lunar_landing": (220, 225, 235),
    "rock_docking": (221, 161, 94), "escape": (190, 170, 255), "surface": (220, 225, 235),
}


def font(size: int, bold: bool = True) -> pygame.font.Font:
    """The board's font (bold unless asked otherwise), at least 6 px; loaded once per size by the kit."""
    return font_px(max(6, int(size)), bold)


# ---------------------------------------------------------------- lines

def thick_polyline(surface: pygame.Surface, colour, points, width: float, caps: bool = True) -> None:
    """A smooth (anti-aliased) polyline ``width`` pixels thick, with round ends unless ``caps`` is False."""
    if len(points) < 2:
        return
    if width <= 1.5:
        pygame.draw.aalines(surface, colour, False, points)
        return
    half = width / 2
    left, right = [], []
    for i, (x, y) in enumerate(points):
        a = points[max(0, i - 1)]
        b = points[min(len(points) - 1, i + 1)]
        dx, dy = b[0] - a[0], b[1] - a[1]
        length = math.hypot(dx, dy) or 1.0
        nx, ny = -dy / length * half, dx / length * half
        left.append((x + nx, y + ny))
        right.append((x - nx, y - ny))
    poly = left + right[::-1]
    pygame.draw.polygon(surface, colour, poly)
    pygame.draw.aalines(surface, colour, True, poly)
    if caps and width >= 4:
        for end in (points[0], points[-1]):
            aa_circle(surface, colour, end, half - 0.5)


def dash_pieces(points, dash: float, gap: float) -> list[list[tuple[float, float]]]:
    """The dashes of a polyline: runs of ``dash`` pixels with ``gap`` pixels between."""
    pieces: list[list[tuple[float, float]]] = []
    current: list[tuple[float, float]] = []
    on, left = True, dash
    for (x0, y0), (x1, y1) in zip(points, points[1:]):
        seg = math.hypot(x1 - x0, y1 - y0)
        pos = 0.0
        while seg - pos > 1e-6:
            step = min(left, seg - pos)
            t0, t1 = pos / seg, (pos + step) / seg
            a = (x0 + (x1 - x0) * t0, y0 + (y1 - y0) * t0)
            b = (x0 + (x1 - x0) * t1, y0 + (y1 - y0) * t1)
            if on:
                if not current:
                    current.append(a)
                current.append(b)
            pos += step
            left -= step
            if left <= 1e-6:
                if on and current:
                    pieces.append(current)
                    current = []
                on = not on
                left = dash if on else gap
    if current:
        pieces.append(current)
    return pieces


def dashed_polyline(surface: pygame.Surface, colour, points, width: float, dash: float, gap: float) -> None:
    for piece in dash_pieces(points, dash, gap):
        thick_polyline(surface, colour, piece, width, caps=False)


def arrow_head(surface: pygame.Surface, colour, tip, direction: float, size: float, outline=None) -> None:
    c, s = math.cos(direction), math.sin(direction)
    back = (tip[0] - c * size, tip[1] - s * size)
    pts = [tip, (back[0] - s * size * 0.6, back[1] + c * size * 0.6), (back[0] + s * size * 0.6, back[1] - c * size * 0.6)]
    aa_polygon(surface, colour, pts, outline or colour)


def point_along(points, fraction: float) -> tuple[tuple[float, float], float]:
    """The point ``fraction`` of the way along a polyline, and the heading there (radians)."""
    lengths = [0.0]
    for a, b in zip(points, points[1:]):
        lengths.append(lengths[-1] + math.hypot(b[0] - a[0], b[1] - a[1]))
    target = lengths[-1] * fraction
    for i in range(1, len(lengths)):
        if lengths[i] >= target:
            a, b = points[i - 1], points[i]
            seg = lengths[i] - lengths[i - 1] or 1.0
            t = (target - lengths[i - 1]) / seg
            return (a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t), math.atan2(b[1] - a[1], b[0] - a[0])
    a, b = points[-2], points[-1]
    return b, math.atan2(b[1] - a[1], b[0] - a[0])


def polyline_length(points) -> float:
    return sum(math.hypot(b[0] - a[0], b[1] - a[1]) for a, b in zip(points, points[1:]))


# ---------------------------------------------------------------- bodies

def _shaded_sphere(size: int, radius: float, base, paint_surface) -> pygame.Surface:
    """A disc of ``radius`` on a ``size`` square: ``paint_surface(body, centre, radius)`` paints its face,
    then it is clipped to the disc, lit from the upper left and given a thin bright rim."""
    body = pygame.Surface((size, size), pygame.SRCALPHA)
    c = size / 2
    pygame.draw.circle(body, (*base, 255), (c, c), radius)
    paint_surface(body, (c, c), radius)
    mask = pygame.Surface((size, size), pygame.SRCALPHA)
    pygame.draw.circle(mask, (255, 255, 255, 255), (c, c), radius)
    body.blit(mask, (0, 0), special_flags=pygame.BLEND_RGBA_MIN)
    # the night side: a soft shadow from the lower right, painted small and smooth-scaled up
    q = max(8, size // 4)
    small = pygame.Surface((q, q), pygame.SRCALPHA)
    for i in range(14):
        pygame.draw.circle(small, (8, 6, 26, 17), (q * 0.78, q * 0.74), q * (0.62 - i * 0.022))
    shade = pygame.transform.smoothscale(small, (size, size))
    shade.blit(mask, (0, 0), special_flags=pygame.BLEND_RGBA_MIN)
    body.blit(shade, (0, 0))
    width = max(1, int(radius / 30))
    pygame.draw.circle(body, (*mix(base, (255, 255, 255), 0.6), 150), (c, c), radius, width)
    return body


def _blobs(seed: int, groups, count: int = 8):
    rng = random.Random(seed)  # decoration only: the same continents every time
    out = []
    for ax, ay, spread in groups:
        out.append([(ax + rng.uniform(-spread, spread), ay + rng.uniform(-spread / 2, spread / 2),
                     rng.uniform(0.08, 0.15)) for _ in range(count)])
    return out


_CONTINENTS = _blobs(7, ((-0.45, -0.35, 0.18), (0.15, -0.45, 0.22), (0.5, 0.05, 0.14), (-0.2, 0.35, 0.2),
                         (0.35, 0.55, 0.1)))
_CLOUDS = ((-0.5, -0.05, 0.34), (0.2, -0.2, 0.4), (-0.05, 0.62, 0.3), (0.55, 0.35, 0.22))
_MARIA = _blobs(3, ((-0.25, -0.2, 0.14), (0.2, 0.1, 0.12), (-0.1, 0.4, 0.1)), count=5)
_CRATERS = ((-0.45, 0.3, 0.16), (0.35, -0.45, 0.12), (0.5, 0.4, 0.1), (-0.1, -0.55, 0.08), (0.05, 0.2, 0.09),
            (-0.6, -0.2, 0.07), (0.62, -0.05, 0.07))


def paint_world(surface: pygame.Surface, centre, radius: float) -> None:
    """The World as on the title: blue seas, green continents with light shores, clouds, a night side
    and a glowing sky."""
    radius = max(3.0, radius)
    size = int(radius * 2) + 4
    glow_size = int(radius * 2.9)
    glow = pygame.Surface((glow_size, glow_size), pygame.SRCALPHA)
    g = glow_size / 2
    for k in range(16):
        t = k / 15
        pygame.draw.circle(glow, (120, 190, 255, int(70 * t * t)), (g, g), radius * (1.42 - 0.42 * t))
    surface.blit(glow, (centre[0] - g, centre[1] - g))

    def face(body, c, r):
        for cluster in _CONTINENTS:
            for colour, grow in (((136, 190, 126, 255), 1.22), ((82, 160, 88, 255), 1.0)):
                for bx, by, br in cluster:
                    pygame.draw.circle(body, colour, (c[0] + bx * r, c[1] + by * r), br * r * grow)
        for bx, by, bw in _CLOUDS:
            cloud = pygame.Rect(0, 0, bw * 2 * r, bw * r * 0.3)
            cloud.center = (int(c[0] + bx * r), int(c[1] + by * r))
            pygame.draw.ellipse(body, (240, 244, 255, 150), cloud)

    body = _shaded_sphere(size, radius, (44, 100, 170), face)
    surface.blit(body, (centre[0] - size / 2, centre[1] - size / 2))


def paint_moon(surface: pygame.Surface, centre, radius: float) -> None:
    """The Moon: pale grey, darker seas and rimmed craters."""
    radius = max(3.0, radius)
    size = int(radius * 2) + 4

    def face(body, c, r):
        for cluster in _MARIA:
            for bx, by, br in cluster:
                pygame.draw.circle(body, (168, 166, 172, 255), (c[0] + bx * r, c[1] + by * r), br * r * 1.3)
        for bx, by, cr in _CRATERS:
            x, y = c[0] + bx * r, c[1] + by * r
            pygame.draw.circle(body, (232, 230, 226, 255), (x - cr * r * 0.18, y - cr * r * 0.18), cr * r)
            pygame.draw.circle(body, (150, 148, 156, 255), (x + cr * r * 0.08, y + cr * r * 0.08), cr * r * 0.82)

    body = _shaded_sphere(size, radius, (205, 204, 208), face)
    glow = pygame.Surface((int(radius * 2.6),) * 2, pygame.SRCALPHA)
    g = glow.get_width() / 2
    for k in range(12):
        t = k / 11
        pygame.draw.circle(glow, (255, 245, 220, int(40 * t * t)), (g, g), radius * (1.3 - 0.3 * t))
    surface.blit(glow, (centre[0] - g, centre[1] - g))
    surface.blit(body, (centre[0] - size / 2, centre[1] - size / 2))


def rock_outline(centre, radius: float) -> list[tuple[float, float]]:
    """The Rock's lumpy outline (the same lumps at every size)."""
    lumps = (1.0, 0.82, 0.95, 1.12, 0.9, 0.78, 1.05, 1.15, 0.88, 0.97, 0.8, 1.08)
    n = len(lumps)
    return [(centre[0] + radius * lumps[k] * 1.15 * math.cos(math.tau * k / n),
             centre[1] + radius * lumps[k] * 0.9 * math.sin(math.tau * k / n)) for k in range(n)]


def paint_rock(surface: pygame.Surface, centre, radius: float, colour=(138, 109, 74)) -> None:
    """The Rock: a lumpy potato of stone with a few pits."""
    radius = max(3.0, radius)
    outline = rock_outline(centre, radius)
    aa_polygon(surface, mix(colour, (0, 0, 0), 0.55), [(x + radius * 0.08, y + radius * 0.1) for x, y in outline])
    aa_polygon(surface, colour, outline, mix(colour, (255, 255, 255), 0.35))
    for dx, dy, cr in ((-0.35, -0.2, 0.22), (0.3, 0.15, 0.18), (0.05, -0.45, 0.12), (0.55, -0.3, 0.1)):
        x, y = centre[0] + dx * radius, centre[1] + dy * radius
        aa_circle(surface, mix(colour, (255, 255, 255), 0.25), (x - 1, y - 1), cr * radius)
        aa_circle(surface, mix(colour, (0, 0, 0), 0.35), (x, y), cr * radius * 0.8)


# ---------------------------------------------------------------- step shapes

def star_points(centre, r: float) -> list[tuple[float, float]]:
    """A four-pointed star (a burn's flash): points up, right, down and left."""
    x, y = centre
    pts = []
    for k in range(8):
        a = -math.pi / 2 + k * math.pi / 4
        rr = r if k % 2 == 0 else r * 0.38
        pts.append((x + rr * math.cos(a), y + rr * math.sin(a)))
    return pts


def hexagon_points(centre, r: float) -> list[tuple[float, float]]:
    x, y = centre
    return [(x + r * math.cos(math.pi / 6 + k * math.pi / 3), y + r * math.sin(math.pi / 6 + k * math.pi / 3))
            for k in range(6)]


def draw_orbit_node(surface, centre, r: float, colour) -> None:
    aa_circle(surface, CASING, centre, r + max(2.0, r * 0.3))
    aa_circle(surface, mix(colour, (255, 255, 255), 0.75), centre, r)
    aa_circle(surface, colour, centre, r * 0.68)


def draw_transit_node(surface, centre, r: float, colour) -> None:
    aa_circle(surface, CASING, centre, r + max(2.0, r * 0.3))
    aa_circle(surface, colour, centre, r)
    aa_circle(surface, CASING, centre, r * 0.55)


def draw_burn_node(surface, centre, r: float) -> None:
    """A burn junction: a bright four-pointed star on a dark halo."""
    aa_polygon(surface, CASING, star_points(centre, r * 1.35))
    aa_circle(surface, CASING, centre, r * 0.62)
    aa_polygon(surface, BURN_FILL, star_points(centre, r), (255, 244, 214))
    aa_circle(surface, (255, 250, 235), centre, max(1.0, r * 0.2))


def draw_special_node(surface, kind: str, centre, r: float) -> None:
    """A special step: a hexagon badge with its icon."""
    aa_polygon(surface, CASING, hexagon_points(centre, r + max(2.0, r * 0.2)))
    aa_polygon(surface, SPECIAL_BADGE.get(kind, (230, 230, 230)), hexagon_points(centre, r), (255, 255, 255))
    draw_step_icon(surface, kind, centre, r * 0.8)


def draw_step_icon(surface: pygame.Surface, kind: str, centre, r: float, colour=(30, 24, 50)) -> None:
    """The little picture inside a special step's badge (``r`` is the badge radius)."""
    x, y = centre
    w = max(1, int(r / 5))
    if kind == "home":  # a launch tower beside a tiny rocket
        pygame.draw.line(surface, colour, (x - r * 0.45, y + r * 0.55), (x - r * 0.45, y - r * 0.55), w)
        for k in range(3):
            yy = y - r * 0.4 + k * r * 0.35
            pygame.draw.line(surface, colour, (x - r * 0.45, yy), (x - r * 0.15, yy + r * 0.2), max(1, w - 1))
        aa_polygon(surface, colour, [(x + r * 0.2, y - r * 0.62), (x + r * 0.42, y - r * 0.2), (x + r * 0.42, y + r * 0.4),
                                     (x - r * 0.02, y + r * 0.4), (x - r * 0.02, y - r * 0.2)])
        pygame.draw.line(surface, colour, (x - r * 0.6, y + r * 0.58), (x + r * 0.62, y + r * 0.58), w)
    elif kind == "launch":  # a rocket going up with its flame
        aa_polygon(surface, colour, [(x, y - r * 0.7), (x + r * 0.28, y - r * 0.25), (x + r * 0.28, y + r * 0.3),
                                     (x - r * 0.28, y + r * 0.3), (x - r * 0.28, y - r * 0.25)])
        aa_polygon(surface, (230, 80, 50), [(x - r * 0.2, y + r * 0.35), (x, y + r * 0.75), (x + r * 0.2, y + r * 0.35)])
    elif kind == "orbital_insertion":  # an arrow bending into a circle
        pygame.draw.arc(surface, colour, pygame.Rect(x - r * 0.6, y - r * 0.6, r * 1.2, r * 1.2), math.radians(-30),
                        math.radians(200), w + 1)
        arrow_head(surface, colour, (x + r * 0.6, y + r * 0.25), math.radians(100), r * 0.42)
    elif kind == "reentry":  # a capsule with flames streaming behind
        for k, dx in enumerate((-0.35, 0, 0.35)):
            aa_polygon(surface, (230, 80, 50) if k != 1 else (250, 170, 60),
                       [(x + dx * r - r * 0.14, y - r * 0.05), (x + dx * r, y - r * 0.7), (x + dx * r + r * 0.14, y - r * 0.05)])
        aa_polygon(surface, colour, [(x - r * 0.5, y), (x + r * 0.5, y), (x + r * 0.25, y + r * 0.55), (x - r * 0.25, y + r * 0.55)])
    elif kind == "landing":  # a parachute
        aa_polygon(surface, colour, [(x - r * 0.65, y - r * 0.15), (x + r * 0.65, y - r * 0.15), (x, y - r * 0.66)])
        for dx in (-0.6, 0, 0.6):
            pygame.draw.aaline(surface, colour, (x + dx * r, y - r * 0.15), (x, y + r * 0.45))
        pygame.draw.rect(surface, colour, pygame.Rect(x - r * 0.15, y + r * 0.4, r * 0.3, r * 0.25))
    elif kind in ("lunar_landing", "rock_docking"):  # a little lander on legs
        aa_polygon(surface, colour, [(x - r * 0.3, y - r * 0.45), (x + r * 0.3, y - r * 0.45), (x + r * 0.4, y + r * 0.05),
                                     (x - r * 0.4, y + r * 0.05)])
        pygame.draw.line(surface, colour, (x - r * 0.3, y), (x - r * 0.6, y + r * 0.55), w)
        pygame.draw.line(surface, colour, (x + r * 0.3, y), (x + r * 0.6, y + r * 0.55), w)
        pygame.draw.line(surface, colour, (x - r * 0.75, y + r * 0.55), (x - r * 0.45, y + r * 0.55), w)
        pygame.draw.line(surface, colour, (x + r * 0.45, y + r * 0.55), (x + r * 0.75, y + r * 0.55), w)
    elif kind == "escape":  # off to the stars
        for dx in (-0.35, 0.15):
            pygame.draw.lines(surface, colour, False, [(x + dx * r, y - r * 0.45), (x + dx * r + r * 0.35, y),
                                                       (x + dx * r, y + r * 0.45)], w + 1)
    elif kind == "surface":  # a flag on the ground
        pygame.draw.line(surface, colour, (x - r * 0.25, y + r * 0.55), (x - r * 0.25, y - r * 0.6), w)
        aa_polygon(surface, (230, 80, 50), [(x - r * 0.25, y - r * 0.6), (x + r * 0.45, y - r * 0.38), (x - r * 0.25, y - r * 0.15)])
        pygame.draw.line(surface, colour, (x - r * 0.65, y + r * 0.58), (x + r * 0.65, y + r * 0.58), w)
