"""Drawing primitives every scene may use: colours, anti-aliased shapes and the programs' markers.

A program is always told apart by colour AND shape (circle, triangle, square, diamond), so colour-blind
players can follow it; every scene draws a program with ``draw_program_marker``.
"""
from __future__ import annotations

import math

import pygame
import pygame.gfxdraw

from game.client.kit.style import ACCENT


def hex_colour(text: str, default=(200, 200, 200)) -> tuple[int, int, int]:
    text = (text or "").lstrip("#")
    try:
        return tuple(int(text[i:i + 2], 16) for i in (0, 2, 4))  # type: ignore[return-value]
    except (ValueError, IndexError):
        return default


def mix(a, b, t: float) -> tuple[int, int, int]:
    return tuple(int(x + (y - x) * t) for x, y in zip(a, b))  # type: ignore[return-value]


def aa_circle(surface: pygame.Surface, colour, centre, radius: float, width: int = 0) -> None:
    x, y, r = int(round(centre[0])), int(round(centre[1])), max(1, int(round(radius)))
    if width == 0:
        pygame.gfxdraw.filled_circle(surface, x, y, r, colour)
        pygame.gfxdraw.aacircle(surface, x, y, r, colour)
    else:
        for k in range(width):
            pygame.gfxdraw.aacircle(surface, x, y, r - k, colour)


def aa_polygon(surface: pygame.Surface, colour, points, outline=None) -> None:
    pts = [(int(round(x)), int(round(y))) for x, y in points]
    pygame.gfxdraw.filled_polygon(surface, pts, colour)
    pygame.gfxdraw.aapolygon(surface, pts, outline or colour)


SHAPES = ("circle", "triangle", "square", "diamond")
SHAPE_WORDS = {"circle": "circles", "triangle": "triangles", "square": "squares", "diamond": "diamonds"}


def shape_for(program_index: int) -> str:
    """Each program's marker shape, so colour-blind players can tell programs apart."""
    return SHAPES[program_index % len(SHAPES)]


def shape_points(shape: str, centre, r: float) -> list[tuple[float, float]]:
    x, y = centre
    if shape == "triangle":
        return [(x, y - r * 1.2), (x + r * 1.1, y + r * 0.75), (x - r * 1.1, y + r * 0.75)]
    if shape == "square":
        s = r * 0.9
        return [(x - s, y - s), (x + s, y - s), (x + s, y + s), (x - s, y + s)]
    if shape == "diamond":
        return [(x, y - r * 1.25), (x + r * 1.1, y), (x, y + r * 1.25), (x - r * 1.1, y)]
    return [(x + r * math.cos(a), y + r * math.sin(a)) for a in (math.tau * k / 28 for k in range(28))]


def draw_marker(surface: pygame.Surface, shape: str, colour, centre, r: float, outline=(14, 10, 30),
                debris: bool = False) -> None:
    """One marker: a shape in the program's colour with a dark rim and a highlight."""
    x, y = centre
    if debris:
        jag = [(x + r * (0.55 + 0.45 * ((k * 7) % 3) / 2) * math.cos(math.tau * k / 9 + 0.3),
                y + r * (0.55 + 0.45 * ((k * 7) % 3) / 2) * math.sin(math.tau * k / 9 + 0.3)) for k in range(9)]
        aa_polygon(surface, (14, 10, 30), [(px + (px - x) * 0.25, py + (py - y) * 0.25) for px, py in jag])
        aa_polygon(surface, mix(colour, (120, 115, 120), 0.7), jag)
        pygame.draw.aaline(surface, (40, 36, 50), (x - r * 0.5, y - r * 0.2), (x + r * 0.3, y + r * 0.35))
        pygame.draw.aaline(surface, (40, 36, 50), (x - r * 0.1, y - r * 0.55), (x + r * 0.05, y + r * 0.1))
        return
    rim = max(2.0, r * 0.28)
    aa_polygon(surface, outline, shape_points(shape, (x, y + r * 0.12), r + rim)) if shape != "circle" else \
        aa_circle(surface, outline, (x, y + r * 0.12), r + rim)
    if shape == "circle":
        aa_circle(surface, colour, centre, r)
    else:
        aa_polygon(surface, colour, shape_points(shape, centre, r))
    aa_circle(surface, mix(colour, (255, 255, 255), 0.6), (x - r * 0.3, y - r * 0.3), max(1.0, r * 0.22))


def program_colour(program) -> pygame.Color:
    """A program's colour as a pygame colour (the accent when its colour cannot be read)."""
    try:
        return pygame.Color(program.colour)
    except (ValueError, TypeError):
        return pygame.Color(ACCENT)


def colour_hex(colour) -> str:
    """``#rrggbb`` for any pygame colour (for pygame_gui's HTML text)."""
    c = pygame.Color(colour)
    return f"#{c.r:02x}{c.g:02x}{c.b:02x}"


def draw_program_marker(surface: pygame.Surface, index: int, centre, radius: float, colour) -> pygame.Rect:
    """Seat ``index``'s marker in ``colour`` at ``centre``, as on The Field; returns the rectangle it fills."""
    draw_marker(surface, shape_for(index), colour, centre, radius * 0.8)
    return pygame.Rect(int(centre[0] - radius), int(centre[1] - radius), int(2 * radius), int(2 * radius))
