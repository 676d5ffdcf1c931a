"""Widgets and drawn pieces more than one scene uses: drop-downs that never clip their words, a status
message that is always read whole, and a program's colour swatch (its colour in its shape).
"""
from __future__ import annotations

from typing import Optional, Sequence

import pygame
import pygame_gui

from game.client.kit.draw import draw_program_marker, mix
from game.client.kit.style import ACCENT_HOT, ACCENT_LIGHT, BAND_COLOURS, INK, draw_card, draw_text, font_px, wrap_text

STATUS_EDGES = {"error": ACCENT_HOT, "warn": BAND_COLOURS["fail"]}


# ---------------------------------------------------------------- drop-downs
def _text_room(menu: pygame_gui.elements.UIDropDownMenu) -> tuple[object, int]:
    """The font a closed drop-down draws its choice in, and the pixels its words may use."""
    button = menu.current_state.selected_option_button
    margin = max(4, button.font.get_point_size() // 3) if hasattr(button.font, "get_point_size") else 6
    return button.font, button.rect.w - 2 * margin


def clipped_options(menu: pygame_gui.elements.UIDropDownMenu) -> list[str]:
    """The options whose words do not fit the drop-down (empty when none is clipped)."""
    font, room = _text_room(menu)
    return [text for text, _ in menu.options_list if font.size(text)[0] > room]


def _needed_width(menu: pygame_gui.elements.UIDropDownMenu) -> int:
    font, room = _text_room(menu)
    widest = max((font.size(text)[0] for text, _ in menu.options_list), default=0)
    return menu.rect.w + max(0, widest - room)


def fitted_dropdown(options: Sequence[tuple[str, str]], selected: tuple[str, str], rect: pygame.Rect, manager,
                    container=None, object_id: Optional[str] = None, max_width: Optional[int] = None,
                    expand_up: bool = False) -> pygame_gui.elements.UIDropDownMenu:
    """A drop-down at ``rect`` widened (up to ``max_width`` pixels) until every option's words fit.

    The caller keeps option words short enough for ``max_width``; ``clipped_options`` tells a test
    whether it did.
    """
    def make(width: int) -> pygame_gui.elements.UIDropDownMenu:
        menu = pygame_gui.elements.UIDropDownMenu(list(options), selected, pygame.Rect(rect.topleft, (width, rect.h)),
                                                  manager, container=container, object_id=object_id,
                                                  expansion_height_limit=None)
        if expand_up:
            menu.expand_direction = "up"
            for menu_state in menu.menu_states.values():
                menu_state.expand_direction = "up"
            menu.rebuild()
        return menu

    menu = make(rect.w)
    need = _needed_width(menu)
    if need > rect.w:
        width = need if max_width is None else min(need, max(rect.w, max_width))
        if width != rect.w:
            menu.kill()
            menu = make(width)
    return menu


# ---------------------------------------------------------------- status messages
def status_lines(text: str, width: int, height: int, size: int, min_size: int = 10,
                 bold: bool = True) -> tuple[pygame.font.Font, list[str]]:
    """The largest font (up to ``size`` px) in which ``text``, wrapped to ``width``, fits ``height``, and its lines."""
    while True:
        font = font_px(size, bold)
        lines = wrap_text(text, font, width)
        if len(lines) * font.get_linesize() <= height or size <= min_size:
            return font, lines
        size -= max(1, size // 10)


def draw_whole(surface: pygame.Surface, text: str, rect: pygame.Rect, size: int, colour, bold: bool = False,
               min_size: int = 10) -> list[str]:
    """``text`` wrapped inside ``rect``, in the largest font up to ``size`` px that shows all of it (never an
    ellipsis); returns the lines drawn."""
    font, lines = status_lines(text, rect.w, rect.h, size, min_size, bold)
    y = rect.top
    for line in lines:
        draw_text(surface, line, font, colour, (rect.left, y))
        y += font.get_linesize()
    return lines


def draw_status(surface: pygame.Surface, rect: pygame.Rect, text: str, kind: str, layout) -> pygame.Rect:
    """A status message inside ``rect``, whole: the words wrap and shrink, they are never cut.

    Scenes give it a strip no widget covers, so nothing is ever drawn over (or under) it. Returns the
    card's rectangle (as tall as the words need, centred in ``rect``).
    """
    pad = layout.px(10)
    font, lines = status_lines(text, rect.w - 2 * pad, rect.h - 2 * layout.px(4), layout.px(18))
    height = min(rect.h, len(lines) * font.get_linesize() + 2 * layout.px(6))
    card = pygame.Rect(rect.left, 0, rect.w, height)
    card.centery = rect.centery
    draw_card(surface, card, layout, colour=(40, 26, 60), edge=STATUS_EDGES.get(kind, BAND_COLOURS["ok"]))
    y = card.centery - len(lines) * font.get_linesize() // 2
    for line in lines:
        draw_text(surface, line, font, INK, (card.centerx, y), anchor="midtop")
        y += font.get_linesize()
    return card


# ---------------------------------------------------------------- colour swatches
def draw_colour_swatch(surface: pygame.Surface, rect: pygame.Rect, seat: int, colour, chosen: bool,
                       available: bool = True, hovered: bool = False) -> None:
    """One colour a program may take, shown as that program's marker (its shape) in the colour.

    The chosen one sits on a light plate; a colour another program holds is faded.
    """
    colour = pygame.Color(colour)
    plate = rect.inflate(-2, -2)
    if chosen:
        pygame.draw.rect(surface, ACCENT_LIGHT, plate, border_radius=max(3, rect.h // 4))
    elif hovered and available:
        pygame.draw.rect(surface, (70, 60, 110), plate, border_radius=max(3, rect.h // 4))
    shown = colour if available else pygame.Color(*mix(colour, (40, 34, 70), 0.65))
    draw_program_marker(surface, seat, plate.center, plate.h * 0.42, shown)
    if not available:
        pygame.draw.line(surface, (200, 190, 220), plate.bottomleft, plate.topright, max(1, rect.h // 14))
