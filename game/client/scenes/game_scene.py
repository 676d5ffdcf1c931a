"""The base of every scene of a game in progress, for any game the client hosts.

A game scene is handed the game's *flow*: the object that owns the session and decides what shows next.
The scene only calls it (``open_save``, ``undo``, ``open_log``, ``open_menu``, ``tick``) and reads
``flow.session.state`` (its ``turn`` and ``setup.turn_limit`` for the header, named by ``flow.turn_word``: "Turn"
or "Round"); it never applies rules itself.
"""
from __future__ import annotations

from typing import Optional

import pygame
import pygame_gui
from pygame_gui.core import ObjectID

from game.client.kit.backdrop import Backdrop
from game.client.kit.draw import draw_program_marker, program_colour
from game.client.kit.style import (ACCENT, ACCENT_LIGHT, ACCENT_HOT, BAND_COLOURS, CARD, HEADER_H, INK, INK_DIM, draw_card,
                                   draw_text, fit_font, font_px, wrap_text)
from game.client.shell.scene import Scene


class GameScene(Scene):
    """A scene of a game in progress: a star backdrop, buttons by key, toasts, and the shortcuts
    Ctrl+S (save), Ctrl+Z (undo), L (log) and Esc (game menu)."""

    name = "game"
    #: The flow replaces a main scene when the view changes; other game scenes sit on top of one.
    flow_main = False
    TOAST_SECONDS = 4.5

    def __init__(self, context, flow) -> None:
        super().__init__(context)
        self.flow = flow
        self.backdrop = Backdrop(world=False)
        self.buttons: dict[str, pygame_gui.elements.UIButton] = {}
        self.toast_text = ""
        self.toast_kind = "info"
        self.toast_time = 0.0

    # -- widgets
    def add_button(self, key: str, rect: pygame.Rect, text: str, class_id: Optional[str] = "@segment",
                   tooltip: Optional[str] = None, enabled: bool = True, container=None) -> pygame_gui.elements.UIButton:
        button = pygame_gui.elements.UIButton(
            rect, text, self.context.manager, container=container or self.root, tool_tip_text=tooltip,
            object_id=ObjectID(object_id=f"#{key.split(':')[0]}", class_id=class_id))
        if not enabled:
            button.disable()
        self.buttons[key] = button
        return button

    def build_ui(self) -> None:
        self.buttons = {}

    def key_of(self, element) -> Optional[str]:
        for key, button in self.buttons.items():
            if button is element:
                return key
        return None

    # -- messages
    def toast(self, text: str, kind: str = "info") -> None:
        """A short message at the bottom of the screen: 'error' for refusals, 'warn', or 'info'."""
        self.toast_text, self.toast_kind, self.toast_time = text, kind, self.TOAST_SECONDS

    # -- events
    def handle_event(self, event: pygame.event.Event) -> bool:
        if event.type == pygame_gui.UI_BUTTON_PRESSED:
            key = self.key_of(event.ui_element)
            if key is not None:
                self.on_button(key)
                return True
            return False
        if event.type == pygame.KEYDOWN:
            return self.on_key(event)
        return False

    def on_button(self, key: str) -> None:
        """A button of this scene was pressed."""

    def on_key(self, event: pygame.event.Event) -> bool:
        if self.flow is None:
            if event.key == pygame.K_ESCAPE:
                self.context.back()
                return True
            return False
        ctrl = bool(event.mod & pygame.KMOD_CTRL)
        if ctrl and event.key == pygame.K_s:
            self.flow.open_save(self)
            return True
        if ctrl and event.key == pygame.K_z:
            self.flow.undo(self)
            return True
        if not ctrl and event.key == pygame.K_l:
            self.flow.open_log()
            return True
        if event.key == pygame.K_ESCAPE:
            self.flow.open_menu()
            return True
        return False

    def update(self, dt: float) -> None:
        self.backdrop.update(dt)
        self.toast_time = max(0.0, self.toast_time - dt)
        if self.flow_main:
            self.flow.tick(self, dt)

    # -- drawing
    def draw_background(self, surface: pygame.Surface) -> None:
        self.backdrop.draw(surface)

    def draw_header(self, surface: pygame.Surface, title: str, program=None, subtitle: str = "") -> pygame.Rect:
        """The bar across the top: the program's marker and name (if any), the title, the turn (or round)."""
        layout = self.context.layout
        bar = pygame.Rect(0, 0, layout.width, layout.px(HEADER_H))
        veil = pygame.Surface(bar.size, pygame.SRCALPHA)
        veil.fill((*CARD, 225))
        surface.blit(veil, bar)
        pygame.draw.line(surface, ACCENT, bar.bottomleft, bar.bottomright, max(1, layout.px(2)))
        x = layout.px(24)
        if program is not None:
            draw_program_marker(surface, program.index, (x + layout.px(16), bar.centery), layout.px(15),
                        program_colour(program))
            x += layout.px(44)
        turn_text = ""
        if self.flow is not None:
            state = self.flow.session.state
            turn_text = f"{self.flow.turn_word} {state.turn}" + (
                f" of {state.setup.turn_limit}" if state.setup.turn_limit else "")
        turn_font = font_px(layout.px(18), True)
        right = draw_text(surface, turn_text, turn_font, INK_DIM, (layout.width - layout.px(24), bar.centery),
                          anchor="midright")
        room = right.left - layout.px(24) - x
        title_font = fit_font(title, int(room * (0.6 if subtitle else 1.0)), layout.px(28), bold=True)
        tr = draw_text(surface, title, title_font, ACCENT_LIGHT, (x, bar.centery), anchor="midleft")
        if subtitle:
            sub_font = fit_font(subtitle, right.left - layout.px(24) - tr.right - layout.px(16), layout.px(18))
            draw_text(surface, subtitle, sub_font, INK_DIM, (tr.right + layout.px(16), bar.centery), anchor="midleft")
        return bar

    def draw_toast(self, surface: pygame.Surface) -> None:
        if self.toast_time <= 0 or not self.toast_text:
            return
        layout = self.context.layout
        font = font_px(layout.px(19), True)
        width = min(layout.width - layout.px(80), layout.px(900))
        lines = wrap_text(self.toast_text, font, width - layout.px(40))[:4]
        height = len(lines) * font.get_linesize() + layout.px(24)
        rect = pygame.Rect(0, 0, width, height)
        rect.midbottom = (layout.width // 2, layout.height - layout.px(86))
        edge = {"error": ACCENT_HOT, "warn": BAND_COLOURS["fail"]}.get(self.toast_kind, BAND_COLOURS["ok"])
        draw_card(surface, rect, layout, colour=(40, 26, 60), edge=edge)
        y = rect.top + layout.px(12)
        for line in lines:
            draw_text(surface, line, font, INK, (rect.centerx, y), anchor="midtop")
            y += font.get_linesize()

    def draw(self, surface: pygame.Surface) -> None:
        self.draw_background(surface)
        self.draw_content(surface)
        self.draw_toast(surface)

    def draw_content(self, surface: pygame.Surface) -> None:
        """Everything between the backdrop and the toast."""
