"""The Field's legend: one slim strip along the foot of the board saying what each shape and line means.

It is drawn with the same painters as the board (``board_art``), so it cannot drift from the map. The
strip is painted once per window size and blitted each frame; the board's fit-to-window keeps clear of
it (``reserved_height``), and names are never placed over it.
"""
from __future__ import annotations

import pygame

from game.client.kit.style import INK, INK_DIM, Layout
from game.client.whatgoesup import board_art as art

ITEMS = (
    ("orbit", "Orbit or surface: a stop"),
    ("transit", "Transit: a stop"),
    ("burn", "Burn junction"),
    ("special", "Special step: a roll"),
    ("coast", "Coast"),
    ("burnline", "Burn"),
)
HEIGHT, PAD, ICON, GAP = 24, 8, 22, 14  # design units
MARGIN = 8  # design units between the strip and the board's edges


def reserved_height(layout: Layout) -> int:
    """How much of the board's foot the legend takes (the fit keeps the map above it)."""
    return layout.px(HEIGHT + MARGIN * 2)


def _title(layout: Layout) -> pygame.Surface:
    return art.font(layout.px(11.5), True).render("Key", True, INK_DIM)


def legend_size(layout: Layout) -> tuple[int, int]:
    text_font = art.font(layout.px(11.5), False)
    width = layout.px(PAD) * 2 + _title(layout).get_width() + layout.px(GAP)
    for _, words in ITEMS:
        width += layout.px(ICON) + text_font.size(words)[0] + layout.px(GAP)
    return width - layout.px(GAP), layout.px(HEIGHT)


def legend_rect(board_rect: pygame.Rect, layout: Layout) -> pygame.Rect:
    """Where the legend goes: along the board's foot, from its left edge."""
    w, h = legend_size(layout)
    return pygame.Rect(board_rect.left + layout.px(MARGIN), board_rect.bottom - h - layout.px(MARGIN), w, h)


class Legend:
    """The legend strip, painted once per size."""

    def __init__(self) -> None:
        self._image: pygame.Surface | None = None
        self._scale = -1.0

    def image(self, layout: Layout) -> pygame.Surface:
        if self._image is None or self._scale != layout.scale:
            self._image = paint_legend(layout)
            self._scale = layout.scale
        return self._image

    def draw(self, surface: pygame.Surface, board_rect: pygame.Rect, layout: Layout) -> pygame.Rect:
        rect = legend_rect(board_rect, layout)
        surface.blit(self.image(layout), rect)
        return rect


def draw_key_shape(surface: pygame.Surface, shape: str, centre, layout: Layout) -> None:
    """One of the legend's shapes, as the board draws it, centred at ``centre``."""
    px = layout.px
    cx, cy = centre
    node = px(6)
    lw = max(1.5, layout.scale * 2.4)
    colour = (76, 201, 240)
    if shape == "orbit":
        art.draw_orbit_node(surface, centre, node, colour)
    elif shape == "transit":
        art.draw_transit_node(surface, centre, node, (244, 162, 97))
    elif shape == "burn":
        art.draw_burn_node(surface, centre, node * 1.1)
    elif shape == "special":
        art.draw_special_node(surface, "launch", centre, node * 1.45)
    elif shape == "coast":
        pts = [(cx - px(10), cy), (cx + px(10), cy)]
        art.thick_polyline(surface, art.CASING, pts, lw + 3)
        art.thick_polyline(surface, colour, pts, lw)
        art.arrow_head(surface, (200, 240, 255), (cx + px(6), cy), 0.0, lw * 2.3 + 3, art.CASING)
    else:
        pts = [(cx - px(10), cy), (cx + px(10), cy)]
        art.dashed_polyline(surface, (244, 162, 97), pts, lw * 0.8, lw * 2.6, lw * 1.8)


def paint_legend(layout: Layout) -> pygame.Surface:
    px = layout.px
    w, h = legend_size(layout)
    surf = pygame.Surface((w, h), pygame.SRCALPHA)
    pygame.draw.rect(surf, (14, 12, 34, 230), surf.get_rect(), border_radius=h // 2)
    pygame.draw.rect(surf, (90, 78, 140, 255), surf.get_rect(), max(1, px(1)), border_radius=h // 2)
    title = _title(layout)
    x = px(PAD)
    surf.blit(title, title.get_rect(midleft=(x, h / 2)))
    x += title.get_width() + px(GAP)
    text_font = art.font(px(11.5), False)
    for shape, words in ITEMS:
        draw_key_shape(surf, shape, (x + px(ICON) / 2 - px(2), h / 2), layout)
        x += px(ICON)
        text = text_font.render(words, True, INK)
        surf.blit(text, text.get_rect(midleft=(x, h / 2)))
        x += text.get_width() + px(GAP)
    return surf
