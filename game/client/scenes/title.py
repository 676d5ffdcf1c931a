"""The title screen: the game's name over a little world, and the main menu."""
from __future__ import annotations

import pygame
import pygame_gui
from pygame_gui.core import ObjectID

from game.client.kit import paths
from game.client.kit.backdrop import Backdrop
from game.client.shell.scene import Scene
from game.client.kit.style import (ACCENT_HOT, ACCENT_LIGHT, CARD, INK, INK_DIM, draw_card, draw_text, fit_font, font_px,
                    wrap_text)

GAME_NAME = "What Goes Up"
TAGLINE = "Tiny peoples. Big rockets. One Moon."
CREDIT = "Based on the What Goes Up rules by robots-everywhere.com (CC BY-NC-SA)"

MENU_X, MENU_W, MENU_H, MENU_GAP = 96, 330, 48, 10
MENU_ITEMS = 7
MENU_HEIGHT = MENU_ITEMS * MENU_H + (MENU_ITEMS - 1) * MENU_GAP
TITLE_BLOCK = 184  # units: the name (96) and the tagline under it


def menu_top(layout) -> float:
    """Top of the menu in units: 268 on a 720-unit-high design, higher when the window is shorter
    (UI scale up), always leaving room for the credit line at the bottom."""
    return min(268.0, layout.virtual_height - 64 - MENU_HEIGHT)


def title_top(layout) -> float:
    return max(20.0, min(84.0, menu_top(layout) - TITLE_BLOCK))


class TitleScene(Scene):
    name = "title"

    def __init__(self, context) -> None:
        super().__init__(context)
        self.backdrop = Backdrop()
        self.buttons: dict[str, pygame_gui.elements.UIButton] = {}

    def _hooks(self) -> dict[str, object]:
        c = self.context
        return {"new_game": c.on_new_game, "continue": c.on_continue, "load": c.on_load,
                "tutorial": getattr(c, "on_tutorial", None)}

    def build_ui(self) -> None:
        layout = self.context.layout
        entries = [("new_game", "New game"), ("continue", "Continue"), ("load", "Load"),
                   ("tutorial", self._tutorial_text()), ("rules", "Rules reference"), ("settings", "Settings"),
                   ("quit", "Quit")]
        hooks = self._hooks()
        self.buttons = {}
        for i, (key, text) in enumerate(entries):
            rect = layout.rect(MENU_X, menu_top(layout) + i * (MENU_H + MENU_GAP), MENU_W, MENU_H)
            button = pygame_gui.elements.UIButton(
                rect, text, self.context.manager, container=self.root,
                object_id=ObjectID(object_id=f"#{key}", class_id="@menu_button"),
                tool_tip_text=None if key not in hooks or hooks[key] else "Not available yet")
            if key in hooks and hooks[key] is None:
                button.disable()
            self.buttons[key] = button

    def _tutorial_text(self) -> str:
        """'Tutorial', or 'Resume tutorial' when a training mission was left part-way."""
        # Without both of the tutorial's files there is nothing to resume: say so without importing the
        # tutorial (it pulls in the whole rules engine, which the title's first frame does not need).
        # paths.home_dir() is the folder game.core.saves.saves_folder() names too.
        folder = paths.home_dir() / "tutorial"
        if not ((folder / "progress.json").is_file() and (folder / "tutorial.json").exists()):
            return "Tutorial"
        resumable = self.context.tutorial_resumable
        try:
            return "Resume tutorial" if resumable is not None and resumable() else "Tutorial"
        except Exception:  # noqa: BLE001 - the title must open even if the tutorial's files are unreadable
            return "Tutorial"

    def handle_event(self, event: pygame.event.Event) -> bool:
        if event.type == pygame_gui.UI_BUTTON_PRESSED:
            for key, button in self.buttons.items():
                if event.ui_element is button:
                    self._activate(key)
                    return True
        if event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE and self.context.notices:
            self.context.notices.clear()
            return True
        return False

    def _activate(self, key: str) -> None:
        hook = self._hooks().get(key)
        if key in ("new_game", "continue", "load", "tutorial"):
            if hook is not None:  # a disabled button cannot be pressed, but be sure
                hook()
        elif key == "settings":
            self.context.open("settings")
        elif key == "rules":
            self.context.open("rules_reference")
        elif key == "quit":
            self.context.quit()

    def update(self, dt: float) -> None:
        self.backdrop.update(dt)

    def draw(self, surface: pygame.Surface) -> None:
        layout = self.context.layout
        self.backdrop.draw(surface)
        x = layout.px(MENU_X)
        top = layout.px(title_top(layout))
        title_font = fit_font(GAME_NAME, layout.width - 2 * x, layout.px(96), bold=True)
        draw_text(surface, GAME_NAME, title_font, ACCENT_HOT, (x + layout.px(4), top + layout.px(4)))
        draw_text(surface, GAME_NAME, title_font, ACCENT_LIGHT, (x, top), shadow=layout.px(8))
        tag_font = fit_font(TAGLINE, layout.width - 2 * x, layout.px(28))
        draw_text(surface, TAGLINE, tag_font, INK, (x + layout.px(4), top + title_font.get_linesize()),
                  shadow=layout.px(2))
        credit_font = fit_font(CREDIT, layout.width - 2 * x, layout.px(17))
        draw_text(surface, CREDIT, credit_font, INK_DIM, (x, layout.height - layout.px(24)), anchor="bottomleft",
                  shadow=layout.px(1))
        if self.context.notices:
            self._draw_notices(surface)

    def _draw_notices(self, surface: pygame.Surface) -> None:
        layout = self.context.layout
        width = layout.px(460)
        font = font_px(layout.px(18))
        lines: list[str] = []
        for notice in self.context.notices:
            lines.extend(wrap_text(notice, font, width - layout.px(40)))
        lines.append("(Esc to dismiss)")
        height = len(lines) * font.get_linesize() + layout.px(28)
        rect = pygame.Rect(0, 0, width, height)
        # beside the menu: clear of the title, the Moon and the rocket's arc
        rect.topleft = (layout.px(MENU_X + MENU_W + 48), layout.px(menu_top(layout)))
        draw_card(surface, rect, layout, colour=CARD)
        y = rect.top + layout.px(14)
        for i, line in enumerate(lines):
            colour = INK_DIM if i == len(lines) - 1 else INK
            draw_text(surface, line, font, colour, (rect.left + layout.px(20), y))
            y += font.get_linesize()
