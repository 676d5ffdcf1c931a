"""Overlays and dialogs: the keyboard-shortcut help and the error dialog."""
from __future__ import annotations

import pygame
import pygame_gui
from pygame_gui.core import ObjectID

from game.client.kit.backdrop import Backdrop
from game.client.shell.scene import Scene
from game.client.kit.style import (ACCENT_HOT, ACCENT_LIGHT, INK, INK_DIM, draw_card, draw_dialog, draw_keycap, draw_text, fit_font,
                    font_px, wrap_text)

#: Every keyboard shortcut every game has, in one place: (keys, what they do). A game's own keys are its
#: ``GameEntry.shortcuts``, shown after these for the game on screen (or chosen on the title).
SHORTCUTS: tuple[tuple[tuple[str, ...], str], ...] = (
    (("F1", "?"), "Show or hide this help"),
    (("F2",), "The rules, with every number in use"),
    (("Esc",), "Close a dialog, go back, or pause a game"),
    (("Space", "Enter"), "Finish a dice roll at once, then continue"),
    (("Ctrl", "S"), "Save the game"),
    (("Ctrl", "Z"), "Undo the last action (undo stops at a die roll)"),
    (("L",), "The story so far"),
    (("F11",), "Switch between window and full screen"),
    (("Ctrl", "Q"), "Quit the game"),
)


class HelpOverlay(Scene):
    name = "help"
    is_overlay = True
    CARD_W, CARD_H = 760, 648

    def __init__(self, context) -> None:
        super().__init__(context)
        self.close_button: pygame_gui.elements.UIButton | None = None

    def card_rect(self) -> pygame.Rect:
        return self.context.layout.centred_rect(self.CARD_W, self.CARD_H)

    def shortcuts(self) -> tuple[tuple[tuple[str, ...], str], ...]:
        """The shared keys, then those of the game on screen (or the one chosen on the title)."""
        game_id = self.context.game_on_screen()[0]
        own = self.context.game(game_id).shortcuts if self.context.games else ()
        return SHORTCUTS[:-2] + tuple(own) + SHORTCUTS[-2:]

    def build_ui(self) -> None:
        layout = self.context.layout
        card = self.card_rect()
        rect = layout.corner_rect(card, 180, 50, 36, 30)
        self.close_button = pygame_gui.elements.UIButton(rect, "Close", self.context.manager, container=self.root,
                                                         object_id=ObjectID(object_id="#close",
                                                                            class_id="@menu_button"))

    def handle_event(self, event: pygame.event.Event) -> bool:
        if event.type == pygame_gui.UI_BUTTON_PRESSED and event.ui_element is self.close_button:
            self.context.back()
            return True
        if event.type == pygame.KEYDOWN and (event.key in (pygame.K_ESCAPE, pygame.K_F1)
                                             or getattr(event, "unicode", "") == "?"):
            self.context.back()
            return True
        return event.type in (pygame.KEYDOWN, pygame.MOUSEBUTTONDOWN)  # modal

    def draw(self, surface: pygame.Surface) -> None:
        layout = self.context.layout
        card = self.card_rect()
        draw_dialog(surface, card, layout, "Keyboard shortcuts", size=36, top=28)
        left = card.left + layout.px(40)
        key_font = font_px(layout.px(18), True)
        text_font = font_px(layout.px(20))
        y = card.top + layout.px(88)
        keys_w = layout.px(230)
        for keys, what in self.shortcuts():
            x = left
            for i, key in enumerate(keys):
                if i:
                    sep = "+" if keys[0] == "Ctrl" else ("/" if len(keys) > 2 else "or")
                    r = draw_text(surface, sep, font_px(layout.px(16)), INK_DIM, (x + layout.px(8), y + layout.px(18)),
                                  anchor="midleft")
                    x = r.right + layout.px(8)
                cap = draw_keycap(surface, key, key_font, (x, y), layout)
                x = cap.right
            desc_font = fit_font(what, card.right - layout.px(40) - (left + keys_w), layout.px(20))
            draw_text(surface, what, desc_font if desc_font.get_height() <= text_font.get_height() else text_font,
                      INK, (left + keys_w, y + layout.px(18)), anchor="midleft")
            y += layout.px(39)


class ErrorDialog(Scene):
    """Shown when something unexpected broke: what happened, where, and where the full log is."""

    name = "error"
    CARD_W, CARD_H = 820, 470

    def __init__(self, context, what: str = "An unknown problem.", where: str = "unknown") -> None:
        super().__init__(context)
        self.what = what
        self.where = where
        self.backdrop = Backdrop(world=False)
        self.buttons: dict[str, pygame_gui.elements.UIButton] = {}

    def card_rect(self) -> pygame.Rect:
        return self.context.layout.centred_rect(self.CARD_W, self.CARD_H)

    def build_ui(self) -> None:
        layout = self.context.layout
        card = self.card_rect()
        self.buttons = {}
        x = card.right - layout.px(36)
        for key, text, width in (("quit", "Quit", 140), ("title", "Back to title", 230), ("keep", "Keep playing", 230)):
            rect = pygame.Rect(0, 0, layout.px(width), layout.px(50))
            rect.bottomright = (x, card.bottom - layout.px(30))
            self.buttons[key] = pygame_gui.elements.UIButton(
                rect, text, self.context.manager, container=self.root,
                object_id=ObjectID(object_id=f"#{key}", class_id="@menu_button"))
            x = rect.left - layout.px(14)
        if len(self.context.stack) <= 1:  # nothing underneath to go back to
            self.buttons["keep"].disable()

    def handle_event(self, event: pygame.event.Event) -> bool:
        if event.type == pygame_gui.UI_BUTTON_PRESSED:
            if event.ui_element is self.buttons.get("keep"):
                self.context.back()
                return True
            if event.ui_element is self.buttons.get("title"):
                self.context.app.start("title")
                return True
            if event.ui_element is self.buttons.get("quit"):
                self.context.quit()
                return True
        if event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE and len(self.context.stack) > 1:
            self.context.back()
            return True
        return event.type in (pygame.KEYDOWN, pygame.MOUSEBUTTONDOWN)

    def update(self, dt: float) -> None:
        self.backdrop.update(dt)

    def text_lines(self) -> list[tuple[str, str]]:
        """The dialog's paragraphs as (style, text)."""
        return [
            ("lead", "A rocket part fell off the game itself. Sorry about that!"),
            ("label", "What happened"),
            ("body", self.what),
            ("label", "Where"),
            ("body", self.where),
            ("label", "Full report"),
            ("body", f"Saved to {self.context.shown_path(self.context.log_path)}"),
        ]

    def draw(self, surface: pygame.Surface) -> None:
        layout = self.context.layout
        self.backdrop.draw(surface)
        card = self.card_rect()
        draw_card(surface, card, layout, edge=ACCENT_HOT)
        left = card.left + layout.px(40)
        width = card.w - layout.px(80)
        heading = fit_font("Something went wrong", width, layout.px(36), bold=True)
        draw_text(surface, "Something went wrong", heading, ACCENT_LIGHT, (left, card.top + layout.px(26)))
        y = card.top + layout.px(90)
        bottom = card.bottom - layout.px(100)
        fonts = {"lead": font_px(layout.px(20)), "label": font_px(layout.px(16), True), "body": font_px(layout.px(18))}
        colours = {"lead": INK, "label": ACCENT_LIGHT, "body": INK}
        for style, text in self.text_lines():
            font = fonts[style]
            if style == "label":
                y += layout.px(10)
            lines = wrap_text(text, font, width)
            for line in lines[:3]:
                if y + font.get_linesize() > bottom:
                    break
                draw_text(surface, line if len(lines) <= 3 or line is not lines[2] else line[:-1] + "…", font,
                          colours[style], (left, y))
                y += font.get_linesize()
