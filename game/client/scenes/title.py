"""The title screen: the game's name over a little world, the main menu, and (when the client hosts more than
one game) a game chooser beside the menu.

The first hosted game's buttons use the context's own hooks (``on_new_game``, ...); any other game's come from
``context.game_hooks[game_id]``, with its tagline and credit. The chosen game is kept on the context.
"""
from __future__ import annotations

import pygame
import pygame_gui
from pygame_gui.core import ObjectID

from game.client.kit import paths
from game.client.kit.backdrop import Backdrop
from game.client.kit.glossary import attach_tip, tip_spot
from game.client.kit.text import html_escape
from game.client.shell.scene import Scene
from game.client.kit.style import (ACCENT_HOT, ACCENT_LIGHT, CARD, INK, INK_DIM, draw_card, draw_text, fit_font,
                                   font_px, forget_rendered_text, rendered_text, wrap_text)

GAME_NAME = "What Goes Up"
TAGLINE = "Tiny peoples. Big rockets. One Moon."
CREDIT = "Based on the What Goes Up rules by robots-everywhere.com (CC BY-NC-SA)"

MENU_X, MENU_W, MENU_H, MENU_GAP = 96, 330, 48, 10
CHOOSER_X, CHOOSER_W, CHOOSER_H, CHOOSER_LABEL = MENU_X + MENU_W + 48, 300, 48, 30
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
    #: Only the backdrop moves here (twinkling stars, the rocket's hop): 30 frames a second look the same
    #: and let the app idle on the title (buttons still answer within a frame).
    frame_rate = 30

    def __init__(self, context) -> None:
        super().__init__(context)
        self.backdrop = Backdrop()
        self.buttons: dict[str, pygame_gui.elements.UIButton] = {}
        self._texts_key: tuple | None = None
        self._texts: list[tuple[pygame.Surface, pygame.Rect]] = []
        #: (size, words) of the last whole frame, and where the rocket was last drawn.
        self._drawn: tuple | None = None
        self._moved: list[pygame.Rect] = []
        #: Tooltips still to give once a frame is up: (a button, or the place of a greyed-out one, and words).
        self._tips: list[tuple[pygame_gui.core.UIElement | pygame.Rect, str]] = []
        self._has_drawn = False

    # -- which game
    def chosen_game(self) -> str | None:
        """The game the menu acts for: the one chosen, else the first hosted (None when none is)."""
        games = list(self.context.games)
        chosen = self.context.chosen_game
        return chosen if chosen in games else (games[0] if games else None)

    def _first_chosen(self) -> bool:
        games = list(self.context.games)
        return not games or self.chosen_game() == games[0]

    def _game_hooks(self) -> dict[str, object]:
        return self.context.game_hooks.get(self.chosen_game(), {})

    def _words(self) -> tuple[str, str, str]:
        """The chosen game's name, tagline and credit."""
        if self._first_chosen():
            return GAME_NAME, TAGLINE, CREDIT
        hooks = self._game_hooks()
        return (self.context.game(self.chosen_game()).title, str(hooks.get("tagline", "")),
                str(hooks.get("credit", "")))

    def _hooks(self) -> dict[str, object]:
        c = self.context
        if self._first_chosen():
            return {"new_game": c.on_new_game, "continue": c.on_continue, "load": c.on_load,
                    "tutorial": getattr(c, "on_tutorial", None)}
        hooks = self._game_hooks()
        return {key: hooks.get(key) for key in ("new_game", "continue", "load", "tutorial")}

    def _has_reference(self) -> bool:
        game = self.chosen_game()
        return game is not None and bool(self.context.game(game).reference)

    def build_ui(self) -> None:
        layout = self.context.layout
        entries = [("new_game", "New game"), ("continue", "Continue"), ("load", "Load"),
                   ("tutorial", self._tutorial_text() if self._first_chosen() else "Tutorial"),
                   ("rules", "Rules reference"), ("settings", "Settings"), ("quit", "Quit")]
        hooks = self._hooks()
        hooks["rules"] = self._open_reference if self._has_reference() else None
        self.buttons = {}
        self._tips = []
        for i, (key, text) in enumerate(entries):
            rect = layout.rect(MENU_X, menu_top(layout) + i * (MENU_H + MENU_GAP), MENU_W, MENU_H)
            button = pygame_gui.elements.UIButton(
                rect, text, self.context.manager, container=self.root,
                object_id=ObjectID(object_id=f"#{key}", class_id="@menu_button"))
            if key in hooks and hooks[key] is None:
                button.disable()
                # pygame_gui never hovers a disabled button: its tooltip goes on a hover spot over it
                self._tips.append((pygame.Rect(button.rect), self._why_disabled(key)))
            self.buttons[key] = button
        if len(self.context.games) > 1:
            self._build_chooser()

    def exit(self) -> None:
        super().exit()
        self.backdrop.release()  # the world and the Moon are the title's alone: not kept through a game
        forget_rendered_text()  # so are the big words of its name

    def clear_ui(self) -> None:
        super().clear_ui()
        # Let go of the killed buttons: under another scene (the rules reference, settings) they would keep
        # every look pygame_gui drew for them, about 30 MiB for the menu at 3840x2160.
        self.buttons = {}

    def _build_chooser(self) -> None:
        """One button per hosted game beside the menu; the chosen one stays lit."""
        layout = self.context.layout
        top = menu_top(layout) + CHOOSER_LABEL
        for i, entry in enumerate(self.context.games.values()):
            rect = layout.rect(CHOOSER_X, top + i * (CHOOSER_H + MENU_GAP), CHOOSER_W, CHOOSER_H)
            button = pygame_gui.elements.UIButton(
                rect, entry.title, self.context.manager, container=self.root,
                object_id=ObjectID(object_id=f"#game_{entry.id}", class_id="@menu_button"))
            if entry.id == self.chosen_game():
                button.select()
            else:  # (a selected button is not hovered, so it shows no tooltip)
                self._tips.append((button, f"Play {entry.title}: the menu's New game, Continue and Load are for it"))
            self.buttons[f"game:{entry.id}"] = button

    def _why_disabled(self, key: str) -> str:
        """Why the menu's ``key`` button is greyed out, for its tooltip."""
        name = self._words()[0]
        return {"continue": f"No {name} game saved yet: start one, it saves as you play",
                "load": f"No {name} game saved yet",
                "tutorial": f"{name} has no tutorial",
                "rules": f"{name} has no rules reference"}.get(key, "Not available")

    def _open_reference(self) -> None:
        """The chosen game's rules reference (with its glossary), over the title."""
        if self._has_reference():
            self.context.open_reference(self.chosen_game())

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
        if key.startswith("game:"):
            self.context.chosen_game = key[5:]
            self.relayout()
            return
        hook = self._hooks().get(key)
        if key in ("new_game", "continue", "load", "tutorial"):
            if hook is not None:  # a disabled button cannot be pressed, but be sure
                hook()
        elif key == "settings":
            self.context.open("settings")
        elif key == "rules":
            self._open_reference()
        elif key == "quit":
            self.context.quit()

    def update(self, dt: float) -> None:
        self.backdrop.update(dt)
        if self._tips and self._has_drawn:
            self._give_tips()

    def _give_tips(self) -> None:
        """The tooltips of the chooser and of the greyed-out buttons, as the glossary's: a readable card sized to
        the window and kept inside it (pygame_gui's own is a narrow see-through column, 170 pixels wide at any
        size, which finds no room at 3840x2160). Given after the first frame: their theme and fonts are no part
        of it."""
        for target, words in self._tips:
            if isinstance(target, pygame.Rect):
                tip_spot(target, html_escape(words), self.context, container=self.root)
            else:
                attach_tip(target, html_escape(words), self.context.layout)
        self._tips = []

    def _text_blits(self) -> list[tuple[pygame.Surface, pygame.Rect]]:
        """The title's words as (image, where) blits in drawing order (shadows first), kept while the layout,
        the chosen game and the hosted games stay the same."""
        layout = self.context.layout
        key = (layout, self._words(), len(self.context.games))
        if key == self._texts_key:
            return self._texts
        blits: list[tuple[pygame.Surface, pygame.Rect]] = []

        def add(text: str, font: pygame.font.Font, colour, pos, anchor: str = "topleft", shadow: int = 0) -> None:
            image, shade = rendered_text(text, font, colour, bool(shadow))  # as draw_text draws it
            rect = image.get_rect(**{anchor: pos})
            if shade is not None:
                blits.append((shade, rect.move(shadow, shadow)))
            blits.append((image, rect))

        x = layout.px(MENU_X)
        top = layout.px(title_top(layout))
        name, tagline, credit = key[1]
        title_font = fit_font(name, layout.width - 2 * x, layout.px(96), bold=True)
        add(name, title_font, ACCENT_HOT, (x + layout.px(4), top + layout.px(4)))
        add(name, title_font, ACCENT_LIGHT, (x, top), shadow=layout.px(8))
        tag_font = fit_font(tagline, layout.width - 2 * x, layout.px(28))
        add(tagline, tag_font, INK, (x + layout.px(4), top + title_font.get_linesize()), shadow=layout.px(2))
        credit_font = fit_font(credit, layout.width - 2 * x, layout.px(17))
        add(credit, credit_font, INK_DIM, (x, layout.height - layout.px(24)), anchor="bottomleft",
            shadow=layout.px(1))
        if len(self.context.games) > 1:
            label = "Choose a game"
            add(label, fit_font(label, layout.px(CHOOSER_W), layout.px(18), bold=True), INK_DIM,
                (layout.px(CHOOSER_X + 4), layout.px(menu_top(layout) + CHOOSER_LABEL - 6)), anchor="bottomleft",
                shadow=layout.px(1))
        self._texts_key, self._texts = key, blits
        return blits

    def draw(self, surface: pygame.Surface) -> None:
        self._has_drawn = True
        self.backdrop.draw(surface)
        surface.blits(self._text_blits(), doreturn=False)
        if self.context.notices:
            self._draw_notices(surface)
        # A frame with notices is followed by a whole one, so a notice dismissed leaves no card behind.
        self._drawn = None if self.context.notices else (surface.get_size(), self._texts_key)
        self._moved = [self.backdrop.rocket_rect(surface.get_size())] if self.backdrop.world else []

    def draw_changes(self, surface: pygame.Surface, widgets: list[pygame.Rect]) -> bool:
        """Only the stars, the rocket and what lies under them or under ``widgets`` (every widget) is drawn
        again (``redraw_changes``)."""
        return self.redraw_changes(surface, widgets) is not None

    def redraw_changes(self, surface: pygame.Surface, widgets: list[pygame.Rect]) -> list[pygame.Rect] | None:
        """Only the stars, the rocket and what lies under them or under the changed ``widgets`` is drawn again:
        the backdrop's unchanging layer is copied back there, then the stars, the rocket and the words over it.
        The menu's buttons, unchanged, stay as drawn, so an idle frame copies none of their rectangles back."""
        texts = self._text_blits()
        size = surface.get_size()
        if self.context.notices or self._drawn != (size, self._texts_key):
            return None
        dirty = self.backdrop.moving_rects(size, also=self._moved + widgets)
        self.backdrop.restore(surface, dirty)
        self.backdrop.draw_moving(surface)
        for image, rect in texts:
            for i in rect.collidelistall(dirty):
                part = dirty[i].clip(rect)
                surface.blit(image, part, part.move(-rect.x, -rect.y))
        self._moved = [self.backdrop.rocket_rect(size)] if self.backdrop.world else []
        return dirty

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
        # beside the menu (under the game chooser, if there is one): clear of the title, the Moon and the rocket's arc
        games = len(self.context.games)
        below = CHOOSER_LABEL + games * (CHOOSER_H + MENU_GAP) + 12 if games > 1 else 0
        rect.topleft = (layout.px(MENU_X + MENU_W + 48), layout.px(menu_top(layout) + below))
        draw_card(surface, rect, layout, colour=CARD)
        y = rect.top + layout.px(14)
        for i, line in enumerate(lines):
            colour = INK_DIM if i == len(lines) - 1 else INK
            draw_text(surface, line, font, colour, (rect.left + layout.px(20), y))
            y += font.get_linesize()
