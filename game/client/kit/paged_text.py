"""Long words painted onto a scene's picture, scrolled by pygame_gui's own scroll bar.

pygame_gui's ``UITextBox`` renders its whole text (every line, not just those in view) into surfaces the width of
the box, several of them, and blends the box over the screen every frame: at 3840x2160 a rules section costs it
about 70 MiB, the glossary far more. ``PagedText`` lays the text out once (lines of styled runs, strings only)
and paints just the lines in view, onto the surface the scene paints (its kept picture), when the scene asks.
It reads the same small HTML the scenes write for text boxes: ``<b>``, ``<br>``, ``<font color='#rrggbb'>``,
``<font pixel_size=N>`` and the escapes of ``kit.text.html_escape``.

When the text is taller than its box a ``UIVerticalScrollBar`` appears at its right; the mouse wheel over the
words scrolls it too (an invisible hover target shares the bar's focus). ``offset()`` changes whenever the painted
words would (a scene keeps it, with the box itself, in the key of its picture).
"""
from __future__ import annotations

import html
import re
from dataclasses import dataclass
from typing import Optional

import pygame
import pygame_gui

from game.client.kit.style import font_px

#: Line height over the font's line size: pygame_gui's text boxes' default spacing, so words read the same.
LINE_SPACING = 1.25
#: The scroll bar's width: pygame_gui's text boxes have 20 pixels at every window size, a hairline at 3840x2160;
#: the screens give it in layout units (``layout.px(TEXT_BOX_BAR)``), so it grows with the window.
TEXT_BOX_BAR = 20
_TAG = re.compile(r"<(/?)(\w+)([^>]*)>")
_ATTR = re.compile(r"(\w+)\s*=\s*['\"]?([^'\" >]+)")


@dataclass(frozen=True)
class Run:
    """Words in one style."""

    text: str
    bold: bool
    colour: tuple[int, int, int]
    size: int


def parse_runs(markup: str, size: int, colour) -> list[Optional[Run]]:
    """The styled runs of ``markup``; None stands for a line break."""
    out: list[Optional[Run]] = []
    bold = 0
    styles: list[tuple[tuple[int, int, int], int]] = [(tuple(colour), size)]
    at = 0
    for match in [*_TAG.finditer(markup), None]:
        end = match.start() if match is not None else len(markup)
        words = html.unescape(markup[at:end])
        if words:
            out.append(Run(words, bold > 0, styles[-1][0], styles[-1][1]))
        if match is None:
            break
        at = match.end()
        closing, tag, attrs = match.group(1), match.group(2).lower(), match.group(3)
        if tag == "br":
            out.append(None)
        elif tag == "b":
            bold = max(0, bold + (-1 if closing else 1))
        elif tag == "font":
            if closing:
                if len(styles) > 1:
                    styles.pop()
            else:
                found = {k.lower(): v for k, v in _ATTR.findall(attrs)}
                c, s = styles[-1]
                if "color" in found:
                    c = tuple(pygame.Color(found["color"]))[:3]
                if "pixel_size" in found:
                    s = int(found["pixel_size"])
                styles.append((c, s))
    return out


def layout_lines(runs: list[Optional[Run]], width: int) -> list[list[tuple[int, Run]]]:
    """``runs`` word-wrapped to ``width`` pixels: each line a list of (x, run) pieces."""
    lines: list[list[tuple[int, Run]]] = [[]]
    x = 0
    for run in runs:
        if run is None:
            lines.append([])
            x = 0
            continue
        font = font_px(run.size, run.bold)
        for token in re.findall(r"\S+ *| +", run.text):
            word = token.rstrip(" ")
            if not word:  # spaces alone: never at the start of a line
                if x > 0:
                    _append(lines[-1], x, Run(token, run.bold, run.colour, run.size))
                    x += font.size(token)[0]
                continue
            # a word fits with the spaces after it, as pygame_gui's text boxes measure it
            w = font.size(token)[0]
            if x > 0 and x + w > width:
                while lines[-1] and lines[-1][-1][1].text.isspace():
                    lines[-1].pop()
                lines.append([])
                x = 0
            _append(lines[-1], x, Run(token, run.bold, run.colour, run.size))
            x += w
    return lines


def _append(line: list[tuple[int, Run]], x: int, run: Run) -> None:
    """Add ``run`` at ``x``, joined to the piece before when it has the same style (fewer, longer renders)."""
    if line:
        px, prev = line[-1]
        if (prev.bold, prev.colour, prev.size) == (run.bold, run.colour, run.size):
            line[-1] = (px, Run(prev.text + run.text, prev.bold, prev.colour, prev.size))
            return
    line.append((x, run))


class PagedText:
    """``html_text`` in ``rect`` (screen pixels) with ``padding``; ``scroll_bar`` is None when it all fits."""

    def __init__(self, html_text: str, rect: pygame.Rect, manager, container, size: int, colour,
                 padding: tuple[int, int] = (0, 0), bar_width: int = TEXT_BOX_BAR) -> None:
        self.html_text = html_text
        self.rect = pygame.Rect(rect)
        self.padding = padding
        runs = parse_runs(html_text, size, colour)
        inner_w = self.rect.w - 2 * padding[0]
        self.lines = layout_lines(runs, inner_w)
        self.heights = self._heights(size)
        self.content_h = sum(self.heights) + 2 * padding[1]
        self.scroll_bar: Optional[pygame_gui.elements.UIVerticalScrollBar] = None
        self._hover = None
        if self.content_h > self.rect.h:  # too tall: narrower, beside a scroll bar
            self.lines = layout_lines(runs, inner_w - bar_width)
            self.heights = self._heights(size)
            self.content_h = sum(self.heights) + 2 * padding[1]
            bar = pygame.Rect(self.rect.right - bar_width, self.rect.top, bar_width, self.rect.h)
            self._hover = _hover_target(self.rect, manager, container)
            self.scroll_bar = pygame_gui.elements.UIVerticalScrollBar(
                _relative(bar, container), min(1.0, self.rect.h / self.content_h), manager, container=container)
            self.scroll_bar.join_focus_sets(self._hover)

    def _heights(self, size: int) -> list[int]:
        """Each line's height: its tallest font's line size, spaced as pygame_gui's text boxes space lines."""
        return [round(LINE_SPACING * max((font_px(r.size, r.bold).get_linesize() for _x, r in line),
                                         default=font_px(size).get_linesize())) for line in self.lines]

    def offset(self) -> int:
        """How far down the words are scrolled, in pixels."""
        if self.scroll_bar is None:
            return 0
        return int(round(self.scroll_bar.start_percentage * self.content_h))

    def paint(self, surface: pygame.Surface) -> None:
        """The lines in view, clipped to the box."""
        clip = surface.get_clip()
        surface.set_clip(self.rect.clip(clip))
        y = self.rect.top + self.padding[1] - self.offset()
        left = self.rect.left + self.padding[0]
        for line, height in zip(self.lines, self.heights):
            if y + height > self.rect.top and y < self.rect.bottom:
                tallest = max(font_px(run.size, run.bold).get_linesize() for _x, run in line) if line else 0
                top = y + (height - tallest) // 4  # the spacing mostly below the words, as in a text box
                for x, run in line:
                    font = font_px(run.size, run.bold)
                    # runs of smaller type share the line's baseline
                    surface.blit(font.render(run.text, True, run.colour),
                                 (left + x, top + tallest
                                  - font.get_linesize()))
            y += height
            if y >= self.rect.bottom:
                break
        surface.set_clip(clip)

    def kill(self) -> None:
        for element in (self.scroll_bar, self._hover):
            if element is not None:
                element.kill()


def _relative(rect: pygame.Rect, container) -> pygame.Rect:
    rect = pygame.Rect(rect)
    if container is not None:
        inner = container.get_container().get_rect()
        rect.topleft = (rect.left - inner.left, rect.top - inner.top)
    return rect


def _hover_target(rect: pygame.Rect, manager, container):
    """An invisible element over the words: hovering it lets the mouse wheel move the scroll bar."""
    from game.client.kit.glossary import _Spot

    return _Spot(_relative(rect, container), pygame.Surface((1, 1), pygame.SRCALPHA), manager, container=container,
                 object_id="#paged_text")
