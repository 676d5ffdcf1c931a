"""A game's words, each explained in a sentence or two with the numbers of its loaded rules, and the tooltips
that show them: the part every hosted game's glossary shares (each game writes its own entries).

``Glossary(entries, aliases, shipped_rules)`` is one game's glossary: ``explain(term, rules)`` is the one lookup
its tooltips go through; an unknown term is a KeyError, so a tooltip can never show a word the glossary does
not explain. ``tip_text(["OK", "Fail"], rules)`` joins several entries for one tooltip. Widgets get their
tooltip with ``attach(element, terms, rules, layout)``; text that is drawn rather than a widget gets an
invisible hover spot with ``hotspot(rect, terms, rules, context, container)``. Both make the tooltip
readable (a dark card with a border, wide enough, sized to the window) and keep it inside the window.
``rules`` may be None: the game's shipped rules are used.
"""
from __future__ import annotations

import warnings
import weakref
from typing import Callable, Iterable, Mapping, Optional, Union

import pygame
import pygame_gui

from game.client.kit.text import html_escape

Entry = Union[str, Callable[[object], str]]
Terms = Union[str, Iterable[str]]

#: Seconds the pointer rests on a term before its explanation shows.
TIP_DELAY = 0.5
#: Tooltip width in design units (scaled with the window).
TIP_WIDTH = 380


class Glossary:
    """One game's entries (a sentence, or a function of the loaded rules giving one) and other spellings."""

    def __init__(self, entries: Mapping[str, Entry], aliases: Mapping[str, str],
                 shipped_rules: Callable[[], object]) -> None:
        self.entries = dict(entries)
        self.aliases = {k.lower(): v for k, v in aliases.items()}
        self._keys = {k.lower(): k for k in self.entries}
        self._shipped_rules = shipped_rules
        unknown = sorted(v for v in self.aliases.values() if v not in self.entries)
        if unknown:
            raise ValueError(f"glossary aliases point at words without an entry: {unknown}")

    def canonical(self, term: str) -> str:
        """The glossary's own spelling of ``term`` (any case, or a known alias); KeyError if it has no entry."""
        key = term.strip().lower()
        if key in self._keys:
            return self._keys[key]
        if key in self.aliases:
            return self.aliases[key]
        raise KeyError(f"the glossary has no entry for {term!r}")

    def has(self, term: str) -> bool:
        try:
            self.canonical(term)
        except KeyError:
            return False
        return True

    def explain(self, term: str, rules=None) -> str:
        """The explanation of ``term`` with the numbers of ``rules`` (the shipped rules if None)."""
        entry = self.entries[self.canonical(term)]
        return entry(rules if rules is not None else self._shipped_rules()) if callable(entry) else entry

    def terms(self) -> list[str]:
        """Every word with an entry, in alphabetical order (case folded)."""
        return sorted(self.entries, key=str.casefold)

    def tip_text(self, terms: Terms, rules=None, lead: str = "") -> str:
        """The tooltip's HTML: each term in bold with its explanation (``lead`` first, if given)."""
        if isinstance(terms, str):
            terms = [terms]
        parts = [html_escape(lead)] if lead else []
        for term in terms:
            name = self.canonical(term)
            parts.append(f"<b>{html_escape(name[:1].upper() + name[1:])}</b>: "
                         f"{html_escape(self.explain(name, rules))}")
        return "<br><br>".join(parts)

    def attach(self, element, terms: Terms, rules, layout, lead: str = "") -> str:
        """Set ``element``'s tooltip to the explanation of ``terms``; returns the HTML."""
        html = self.tip_text(terms, rules, lead)
        attach_tip(element, html, layout)
        return html

    def hotspot(self, rect: pygame.Rect, terms: Terms, rules, context, container=None, lead: str = ""):
        """An invisible widget over drawn text at ``rect`` (screen pixels) whose tooltip explains ``terms``."""
        return tip_spot(rect, self.tip_text(terms, rules, lead), context, container)


# ---------------------------------------------------------------- tooltips on screen

#: Each UIManager given the tooltip theme -> the scale it was given at. Keyed by the manager itself, held weakly:
#: an id would outlive its manager, and a new manager made at the same address would be taken as themed.
_THEMED: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def ensure_tip_theme(manager, layout) -> None:
    """Give pygame_gui's tooltips a readable card (the theme's text boxes are see-through), scaled."""
    scale = round(layout.scale, 3)
    if _THEMED.get(manager) == scale:
        return
    size = str(max(10, round(17 * scale)))
    manager.get_theme().load_theme({
        "tool_tip": {"misc": {"rect_width": str(max(200, round(TIP_WIDTH * scale)))}},
        "tool_tip.text_box": {
            "font": {"name": "noto_sans", "size": size},
            "colours": {"dark_bg": "#151230", "normal_border": "#f0a04b", "normal_text": "#f6ecd9"},
            "misc": {"shape": "rounded_rectangle", "shape_corner_radius": str(max(2, round(8 * scale))),
                     "border_width": str(max(1, round(2 * scale))), "shadow_width": "0", "line_spacing": "1.0",
                     "padding": f"{max(2, round(10 * scale))},{max(2, round(7 * scale))}"},
        },
    })
    with warnings.catch_warnings():  # pygame_gui warns about fonts it already has
        warnings.simplefilter("ignore")
        manager.preload_fonts([{"name": "noto_sans", "point_size": int(size), "style": style}
                               for style in ("regular", "bold")])
    _THEMED[manager] = scale


def _width(layout) -> int:
    return max(200, layout.px(TIP_WIDTH))


def attach_tip(element, html: str, layout) -> None:
    """Give ``element`` the tooltip ``html``, readable and kept inside the window."""
    ensure_tip_theme(element.ui_manager, layout)
    element.set_tooltip(html, wrap_width=_width(layout), delay=TIP_DELAY)
    if not isinstance(element, _Spot) and not getattr(element, "_tip_kept_on_screen", False):
        hover = element.while_hovering

        def while_hovering(time_delta, mouse_pos):  # pygame_gui gives up on a tooltip taller than the room
            had = element.tool_tip is not None
            hover(time_delta, mouse_pos)
            if element.tool_tip is not None and not had:
                keep_on_screen(element.tool_tip, element.ui_manager, element.rect)

        element.while_hovering = while_hovering
        element._tip_kept_on_screen = True


def tip_spot(rect: pygame.Rect, html: str, context, container=None):
    """An invisible widget at ``rect`` (screen pixels) whose tooltip is ``html``."""
    manager, layout = context.manager, context.layout
    rect = pygame.Rect(rect)
    if container is not None:  # widgets take positions relative to their container
        inner = container.get_container().get_rect()
        rect.topleft = (rect.left - inner.left, rect.top - inner.top)
    spot = _Spot(rect, pygame.Surface((1, 1), pygame.SRCALPHA), manager, container=container,
                 object_id="#glossary_spot")
    attach_tip(spot, html, layout)
    return spot


def keep_on_screen(tip, manager, target: Optional[pygame.Rect] = None) -> None:
    """Move a tooltip fully inside the window (pygame_gui lets one taller than the room above and below its
    target hang out of it) and, when it covers ``target`` (what it explains), below it or else above, when the
    window has room there."""
    window = manager.get_root_container().get_rect()
    margin = max(2, window.h // 180)  # a little air between a tooltip and the window's edge
    room = window.inflate(-2 * margin, -2 * margin)
    rect = tip.rect.clamp(room if room.w >= tip.rect.w and room.h >= tip.rect.h else window)
    if target is not None and rect.colliderect(target):
        below, above = rect.move(0, target.bottom + margin - rect.top), rect.move(0, target.top - margin - rect.bottom)
        rect = next((r for r in (below, above) if window.contains(r)), rect)
    if rect.topleft != tip.rect.topleft:
        tip.set_position(rect.topleft)
        if getattr(tip, "text_block", None) is not None:
            tip.text_block.set_position(rect.topleft)


def _unscaled(image: pygame.Surface, _size) -> pygame.Surface:
    return image


class _Spot(pygame_gui.elements.UIImage):
    """An invisible hover target over drawn text; its tooltip always stays inside the window."""

    def __init__(self, *args, **kwargs) -> None:
        # Nothing to see: the image stays one see-through pixel (never scaled up to the spot's size, which cost
        # a card's worth of memory three times over at 4K) and pygame_gui, which blits every element each
        # frame, blits an empty part of it. The rect alone takes the hover.
        super().__init__(*args, scale_func=_unscaled, **kwargs)
        self.blit_data[2] = pygame.Rect(0, 0, 0, 0)

    def while_hovering(self, time_delta, mouse_pos):
        had = self.tool_tip is not None
        super().while_hovering(time_delta, mouse_pos)
        if self.tool_tip is not None and not had:
            keep_on_screen(self.tool_tip, self.ui_manager, self.rect)


def tooltip_text(element) -> Optional[str]:
    """The text of ``element``'s tooltip as shown now (None when none is up): for tests."""
    tip = getattr(element, "tool_tip", None)
    if tip is None or getattr(tip, "text_block", None) is None:
        return None
    return tip.text_block.html_text
