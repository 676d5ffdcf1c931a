"""The rules reference every hosted game shares: a list of sections on the left, the chosen section's words in
a scrolling text box on the right, over whatever was on screen.

A game hands it its ``Section`` list (built from its loaded tables, so a house-ruled folder shows its house
rules) and a line saying which rules they are; a game that draws a picture beside a section overrides
``picture_share`` and ``draw_picture``. Esc or F2 closes it, Up and Down change section, the mouse wheel
(or the text box's scroll bar) scrolls a long section. ``glossary_section`` turns a game's glossary into
the reference's last section, so its words can be read in one place as well as on hover.

The scene keeps one full-screen picture: what was beneath it when it opened, dimmed, with the card; once it
has that, the scenes beneath are no longer drawn (nor animated) under it. A section's heading, picture and
words are painted onto the card once per section (and per scroll of its words): the words are a
``kit.paged_text.PagedText`` (only the lines in view are painted; pygame_gui's scroll bar moves them), not a
pygame_gui text box, which held every line of a section rendered several times over (~70 MiB at 4K).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import pygame
import pygame_gui
from pygame_gui.core import ObjectID

from game.client.kit.paged_text import TEXT_BOX_BAR, PagedText
from game.client.kit.still import Same
from game.client.kit.style import ACCENT_LIGHT, CARD, INK, INK_DIM, dim, draw_card, draw_text, fit_font
from game.client.kit.text import html_escape
from game.client.shell.scene import Scene

LIST_W = 220  # the section list's width, in design units
LIST_COLUMN_W = 164  # one column's width when the sections need two columns
MIN_ROW = 34  # the shortest a section's row may be (units) before the list takes two columns


@dataclass(frozen=True)
class Section:
    key: str
    title: str
    paragraphs: tuple[str, ...]
    #: Paragraphs whose words before the first ": " are a term, shown in bold (the glossary's).
    terms: bool = False


def glossary_section(glossary, rules, title: str = "Glossary") -> Section:
    """Every word of ``glossary`` (a ``kit.glossary.Glossary``) with its explanation under ``rules``."""
    return Section("glossary", title, tuple(f"{term[:1].upper() + term[1:]}: {glossary.explain(term, rules)}"
                                            for term in glossary.terms()), terms=True)


class ReferenceScene(Scene):
    """The reference over whatever was on screen: sections on the left, the text on the right."""

    name = "rules_reference"
    is_overlay = True
    heading = "Rules reference"

    def __init__(self, context, sections: Sequence[Section], section: str = "", about: str = "") -> None:
        super().__init__(context)
        self.sections = list(sections)
        self.about = about  # which rules the numbers come from, beside the section's title
        self.section = section if any(s.key == section for s in self.sections) else self.sections[0].key
        self.buttons: dict[str, pygame_gui.elements.UIButton] = {}
        self.text_box: PagedText | None = None
        self.picture_rect: pygame.Rect | None = None
        self.list_w = LIST_W  # the section list's width in units, as last laid out
        self._backing: pygame.Surface | None = None  # what was beneath, dimmed, with the card and the section
        self._backing_layout = None
        self._section_painted = None  # the key of the section as painted on the card
        self._text_painted = None  # the key of the words as painted on the card

    # -- what a game may change
    def picture_share(self, section: Section) -> float:
        """The share of the text's room a picture beside ``section`` takes (0: no picture)."""
        return 0.0

    def draw_picture(self, surface: pygame.Surface, box: pygame.Rect) -> None:
        """Draw the picture beside the current section into ``box``."""

    # -- layout
    def card_rect(self) -> pygame.Rect:
        layout = self.context.layout
        return layout.rect(24, 20, layout.virtual_width - 48, layout.virtual_height - 40)

    def build_ui(self) -> None:
        layout, manager = self.context.layout, self.context.manager
        card = self.card_rect()
        self.buttons = {}
        top = card.top + layout.px(76)
        bottom = card.bottom - layout.px(24)
        room = bottom - layout.px(60) - top
        columns = 1 if room // len(self.sections) >= layout.px(MIN_ROW) else 2  # many sections: two columns
        per_column = -(-len(self.sections) // columns)
        column_w = LIST_W if columns == 1 else LIST_COLUMN_W
        self.list_w = columns * column_w + (columns - 1) * 8
        list_w = layout.px(self.list_w)
        row = min(layout.px(42), room // per_column)
        for i, s in enumerate(self.sections):
            column, n = divmod(i, per_column)
            rect = pygame.Rect(card.left + layout.px(24 + column * (column_w + 8)), top + n * row, layout.px(column_w),
                               row - layout.px(4))
            b = pygame_gui.elements.UIButton(rect, s.title, manager, container=self.root,
                                             object_id=ObjectID(object_id=f"#section_{s.key}", class_id="@segment"))
            if s.key == self.section:
                b.select()
            self.buttons[f"section:{s.key}"] = b
        close = pygame.Rect(card.left + layout.px(24), bottom - layout.px(48), list_w, layout.px(48))
        self.buttons["close"] = pygame_gui.elements.UIButton(
            close, "Close (Esc)", manager, container=self.root,
            object_id=ObjectID(object_id="#close", class_id="@menu_button"))
        left = card.left + list_w + layout.px(48)
        text_rect = pygame.Rect(left, top, card.right - layout.px(24) - left, bottom - top)
        self.picture_rect = None
        share = self.picture_share(self.current())
        if share > 0:  # the picture beside the words: the text keeps the rest
            picture_w = int(text_rect.w * share)
            self.picture_rect = pygame.Rect(text_rect.right - picture_w, top, picture_w, bottom - top)
            text_rect.w -= picture_w + layout.px(16)
        self.text_box = PagedText(self.section_html(), text_rect, manager, self.root, max(8, round(20 * layout.scale)),
                                  INK, (layout.px(4), layout.px(4)), bar_width=layout.px(TEXT_BOX_BAR))

    def current(self) -> Section:
        return next(s for s in self.sections if s.key == self.section)

    def section_html(self) -> str:
        section = self.current()
        if not section.terms:
            return "<br><br>".join(html_escape(p) for p in section.paragraphs)
        parts = []
        for p in section.paragraphs:
            term, _, words = p.partition(": ")
            parts.append(f"<b>{html_escape(term)}</b>: {html_escape(words)}" if words else html_escape(p))
        return "<br><br>".join(parts)

    def show_section(self, key: str) -> None:
        self.section = key
        self.relayout()

    def scroll_fraction(self) -> float:
        """How far the text is scrolled, 0 (top) to 1 (bottom); 0 when it fits without scrolling."""
        bar = self.text_box.scroll_bar if self.text_box is not None else None
        if bar is None:
            return 0.0
        room = 1.0 - bar.visible_percentage
        return 0.0 if room <= 0 else min(1.0, max(0.0, bar.start_percentage / room))

    def handle_event(self, event: pygame.event.Event) -> bool:
        if event.type == pygame_gui.UI_BUTTON_PRESSED:
            for key, button in self.buttons.items():
                if event.ui_element is button:
                    if key == "close":
                        self.context.back()
                    else:
                        self.show_section(key.split(":", 1)[1])
                    return True
        if event.type == pygame.KEYDOWN:
            keys = [s.key for s in self.sections]
            if event.key in (pygame.K_ESCAPE, pygame.K_F2):
                self.context.back()
            elif event.key in (pygame.K_DOWN, pygame.K_UP):
                i = keys.index(self.section) + (1 if event.key == pygame.K_DOWN else -1)
                self.show_section(keys[i % len(keys)])
            return True
        return event.type == pygame.MOUSEBUTTONDOWN  # modal

    # -- the picture kept
    def relayout(self) -> None:
        if self._backing is not None and self._backing_layout != self.context.layout:
            self._forget_backing()  # a new window size: what is beneath is drawn again, then kept
        super().relayout()

    def cover(self) -> None:
        self._forget_backing()
        super().cover()

    def exit(self) -> None:
        self._forget_backing()
        super().exit()

    def _forget_backing(self) -> None:
        self._backing = None
        self._section_painted = self._text_painted = None
        self.is_overlay = True  # the scenes beneath are drawn again, for the next picture

    def draw(self, surface: pygame.Surface) -> None:
        """The kept picture, made from the frame beneath the first time (the stack has just drawn it)."""
        layout = self.context.layout
        if self._backing is None or self._backing.get_size() != surface.get_size():
            if not self.is_overlay:  # nothing beneath was drawn this frame: take it next frame
                self.is_overlay = True
                dim(surface)
                draw_card(surface, self.card_rect(), layout)
                return
            backing = surface.copy()
            dim(backing)
            draw_card(backing, self.card_rect(), layout)
            self._backing, self._backing_layout = backing, layout
            self._section_painted = self._text_painted = None
            self.is_overlay = False  # from now on only this scene is drawn
        self._paint_section(self._backing)
        surface.blit(self._backing, (0, 0))

    def draw_changes(self, surface: pygame.Surface, widgets: list[pygame.Rect]) -> bool:
        if self._backing is None or self._backing.get_size() != surface.get_size():
            return False
        self.draw(surface)
        return True

    def _paint_section(self, backing: pygame.Surface) -> None:
        """The section's heading and picture (once per section), and its words as scrolled now."""
        layout = self.context.layout
        section_key = (self.section, Same(self.root), layout)
        if self._section_painted != section_key:
            inner = self.card_rect().inflate(-2 * layout.px(18), -2 * layout.px(18))  # inside the rounded rim
            backing.fill(CARD, inner)
            self.draw_section(backing)
            self._section_painted, self._text_painted = section_key, None
        box = self.text_box
        if box is None:
            return
        text_key = (Same(box), box.offset())
        if self._text_painted != text_key:
            backing.fill(CARD, box.rect)
            box.paint(backing)
            self._text_painted = text_key

    def draw_section(self, surface: pygame.Surface) -> None:
        """The section's heading, the line under it and its picture, on the card."""
        layout = self.context.layout
        card = self.card_rect()
        heading = "Glossary" if self.current().terms else self.heading
        head = fit_font(heading, card.w // 2, layout.px(32), bold=True)
        drawn = draw_text(surface, heading, head, ACCENT_LIGHT, (card.left + layout.px(24), card.top + layout.px(20)))
        sub = ("Every rule word, explained" if self.current().terms else self.current().title) + (
            f" · {self.about}" if self.about else "")
        text_left = max(card.left + layout.px(self.list_w + 48), drawn.right + layout.px(24))
        draw_text(surface, sub, fit_font(sub, card.right - layout.px(24) - text_left, layout.px(18)), INK_DIM,
                  (text_left, card.top + layout.px(34)))
        if self.picture_rect is not None:
            self.draw_picture(surface, self.picture_rect)
