"""Text helpers every scene may use: wrapped and shortened lines, and escaping for pygame_gui's HTML."""
from __future__ import annotations

import re

import pygame

from game.client.kit.style import draw_text, wrap_text


def draw_wrapped(surface, text: str, font, colour, rect: pygame.Rect, max_lines: int = 99) -> int:
    """Word-wrapped text inside ``rect`` (never below it); returns the y after the last line."""
    y = rect.top
    lines = wrap_text(text, font, rect.w)
    for n, line in enumerate(lines[:max_lines]):
        if y + font.get_linesize() > rect.bottom:
            break
        if n == max_lines - 1 and len(lines) > max_lines:
            line = line.rstrip()[:-1] + "…"
        draw_text(surface, line, font, colour, (rect.left, y))
        y += font.get_linesize()
    return y


def html_escape(text: str) -> str:
    """``text`` safe inside pygame_gui's HTML (ampersands and angle brackets escaped)."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def ellipsize(text: str, font: pygame.font.Font, room: int) -> str:
    """``text`` cut with an ellipsis so it fits ``room`` pixels."""
    if font.size(text)[0] <= room:
        return text
    while len(text) > 1 and font.size(text + "…")[0] > room:
        text = text[:-1]
    return text.rstrip() + "…"


_ID_LIST = re.compile(r" \([A-Z]\d+(?:, [A-Z]\d+)*\)")


def without_ids(text: str) -> str:
    """An engine line without the bracketed ids it names things by ('builds 1 x Big Hopper (I8, I9)' reads
    'builds 1 x Big Hopper'): players know things by their names, and the line names them already."""
    return _ID_LIST.sub("", text)
