"""Saving and loading from the client, for every hosted game.

A save names its game; each game keeps its saves in a folder of its own (``GameEntry.saves_subfolder`` of the
saves folder), so Continue and Load only ever meet the chosen game's saves. ``LoadScene`` lists them with
their date and the game's own words for where each stands (``GameEntry.save_words``); a damaged or illegal
save is listed with the reason it cannot be loaded and is never touched, and a save whose rolls were edited
says so. Other files (settings.json, folders, pipes) are never listed. ``SaveScene`` writes a named save
through the session (atomically: a failure leaves the old file as it was). ``continue_latest`` is the
title's Continue for any game.
"""
from __future__ import annotations

import re
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Optional

import pygame
import pygame_gui

from game.core import saves
from game.core.session import GameSession

from game.client.scenes.game_scene import GameScene
from game.client.kit.text import draw_wrapped, ellipsize
from game.client.kit.words import counted
from game.client.kit.style import (ACCENT_HOT, ACCENT_LIGHT, INK, INK_DIM, draw_card, draw_dialog, draw_text, fit_font,
                                   font_px)

PAGE = 6


@dataclass(frozen=True)
class SaveInfo:
    path: Path
    modified: float
    turn: Optional[int] = None
    words: str = ""  # where the saved game stands, in its game's words
    error: Optional[str] = None
    detail: str = ""  # the technical words behind ``error``, shown dim under it
    explanation: str = ""  # ``error`` in full when the row says it briefly (the Load button's tooltip)
    edited: bool = False  # it loads, but a recorded roll is not the one its seed gives

    @property
    def ok(self) -> bool:
        return self.error is None


def game_saves_dir(entry) -> Path:
    """Where the hosted game ``entry`` keeps its saves and autosaves."""
    folder = saves.saves_folder()
    return folder / entry.saves_subfolder if entry.saves_subfolder else folder


def save_info(listing: saves.SaveListing, entry) -> SaveInfo:
    """A row of the Load screen: what a save holds (replayed to be sure), or why it cannot be loaded."""
    if listing.game is None:
        if listing.divergence is not None:  # it no longer replays: said with the game's own word for a turn
            turn_word = entry.turn_word.lower()
            return SaveInfo(listing.path, listing.modified, error=listing.divergence.brief(turn_word),
                            detail=listing.detail, explanation=listing.divergence.words(turn_word))
        return SaveInfo(listing.path, listing.modified, error=listing.error, detail=listing.detail)
    final = listing.game.final
    words = entry.save_words(final)
    if listing.game.edition != entry.engine().rules.edition.id:  # played under an older (or house) edition
        words += f" · {listing.game.edition} rules"
    return SaveInfo(listing.path, listing.modified, getattr(final, "turn", None), words, edited=listing.game.edited)


def list_saves(entry, folder: Optional[Path] = None) -> list[SaveInfo]:
    """Every save of the game ``entry`` in the folder (default: the game's own), newest first: the ones that
    load and one row per broken file with its reason. settings.json, other programs' JSON, folders and pipes
    are never listed (``saves.list_saves``)."""
    return [save_info(listing, entry)
            for listing in saves.list_saves(folder or game_saves_dir(entry), entry.engine())]


def load_into_game(context, path: Path, game_id: Optional[str] = None) -> Optional[str]:
    """Load ``path`` as a game of ``game_id`` (default: the first hosted) and start playing it; returns the
    reason when it cannot be loaded, in a player's words without the file's name (nothing changes, and the
    file is never touched)."""
    entry = context.game(game_id)
    try:
        session = GameSession.load(entry.engine(), path, saves_dir=path.parent)
    except saves.SaveError as exc:
        divergence = getattr(exc, "divergence", None)
        if divergence is not None:
            return divergence.words(entry.turn_word.lower())
        return exc.reason
    context.start_game(session, entry.id)
    return None


def open_load(context, message: str = "", game_id: Optional[str] = None) -> None:
    context.stack.push(LoadScene(context, message=message, game_id=game_id))


def continue_latest(context, game_id: Optional[str] = None, on_nothing: Optional[Callable[[], None]] = None) -> None:
    """The title's Continue: load the game's newest save (a hand save made just before quitting counts too);
    if it cannot be loaded, the Load screen says why. With nothing saved, ``on_nothing`` (rewire the title)."""
    entry = context.game(game_id)
    path = saves.newest_save(game_saves_dir(entry))
    if path is None:
        if on_nothing is not None:
            on_nothing()
        return
    error = load_into_game(context, path, entry.id)
    if error:
        open_load(context, f"The latest save, {path.name}, could not be loaded: {error}", entry.id)


def slug(text: str) -> str:
    text = re.sub(r"[^A-Za-z0-9]+", "-", text.strip()).strip("-").lower()
    return text[:48] or "save"


class LoadScene(GameScene):
    """The saves of one hosted game (``game_id``, default the first), newest first, a page at a time."""

    name = "load_game"

    def __init__(self, context, message: str = "", folder: Optional[Path] = None,
                 game_id: Optional[str] = None) -> None:
        super().__init__(context, None)
        self.entry = context.game(game_id)
        self.message = message
        self.page = 0
        self.folder = folder or game_saves_dir(self.entry)
        self.infos: list[SaveInfo] = list_saves(self.entry, self.folder)

    def rows(self) -> list[SaveInfo]:
        return self.infos[self.page * PAGE:(self.page + 1) * PAGE]

    def card_rect(self) -> pygame.Rect:
        layout = self.context.layout
        return layout.rect(24, 84, layout.virtual_width - 48, layout.virtual_height - 84 - 100)

    def row_rect(self, n: int) -> pygame.Rect:
        layout = self.context.layout
        card = self.card_rect()
        top = card.top + layout.px(64 if not self.message else 104)
        h = (card.bottom - layout.px(16) - top) // PAGE
        return pygame.Rect(card.left + layout.px(24), top + n * h, card.w - layout.px(48), h - layout.px(8))

    def build_ui(self) -> None:
        super().build_ui()
        layout = self.context.layout
        for n, info in enumerate(self.rows()):
            row = self.row_rect(n)
            rect = pygame.Rect(0, 0, layout.px(140), min(row.h - layout.px(12), layout.px(48)))
            rect.midright = (row.right - layout.px(12), row.centery)
            why = None if info.ok else f"This save cannot be loaded: {info.explanation or info.error}"
            self.add_button(f"load:{n}", rect, "Load", "@menu_button", enabled=info.ok, tooltip=why)
        vw, vh = layout.virtual_width, layout.virtual_height
        self.add_button("back", layout.rect(24, vh - 24 - 56, 200, 56), "Back", "@menu_button")
        pages = max(1, (len(self.infos) + PAGE - 1) // PAGE)
        if pages > 1:
            self.add_button("page:-1", layout.rect(vw - 24 - 300, vh - 24 - 56, 140, 56), "Newer", enabled=self.page > 0)
            self.add_button("page:1", layout.rect(vw - 24 - 150, vh - 24 - 56, 150, 56), "Older",
                            enabled=self.page < pages - 1)

    def on_button(self, key: str) -> None:
        if key == "back":
            self.context.back()
        elif key.startswith("page:"):
            self.page += int(key[5:])
            self.relayout()
        elif key.startswith("load:"):
            self.load(self.rows()[int(key[5:])])

    def load(self, info: SaveInfo) -> bool:
        error = load_into_game(self.context, info.path, self.entry.id)
        if error:
            self.message = f"Could not load {info.path.name}: {error}"
            self.relayout()
            return False
        return True

    def draw_content(self, surface: pygame.Surface) -> None:
        layout = self.context.layout
        self.draw_header(surface, f"Load a game of {self.entry.title}", subtitle=self.context.shown_path(self.folder))
        card = self.card_rect()
        draw_card(surface, card, layout)
        y = card.top + layout.px(18)
        if not self.infos:
            text = f"No {self.entry.title} saves yet. Start a new game; it autosaves as you play."
            draw_text(surface, text, fit_font(text, card.w - layout.px(48), layout.px(20), bold=True), INK_DIM,
                      (card.left + layout.px(24), y))
        else:
            broken = sum(1 for info in self.infos if not info.ok)
            heading = f"{counted(len(self.infos), 'save')}, newest first" + (f"; {broken} cannot be loaded" if broken else "")
            draw_text(surface, heading, fit_font(heading, card.w - layout.px(48), layout.px(20), bold=True),
                      ACCENT_LIGHT, (card.left + layout.px(24), y))
        if self.message:
            draw_wrapped(surface, self.message, font_px(layout.px(16), True), ACCENT_HOT,
                         pygame.Rect(card.left + layout.px(24), y + layout.px(32), card.w - layout.px(48),
                                     layout.px(44)), 2)
        small = font_px(layout.px(16))
        for n, info in enumerate(self.rows()):
            row = self.row_rect(n)
            pygame.draw.rect(surface, (21, 18, 48), row, border_radius=layout.px(10))
            text_w = row.w - layout.px(180)
            x = row.left + layout.px(16)
            when = time.strftime("%d %b %Y, %H:%M", time.localtime(info.modified))
            title = f"{info.path.stem}"
            tr = draw_text(surface, title, fit_font(title, text_w // 2, layout.px(19), bold=True), INK,
                           (x, row.top + layout.px(8)))
            draw_text(surface, when, fit_font(when, text_w - tr.w - layout.px(20), layout.px(16)), INK_DIM,
                      (tr.right + layout.px(16), tr.centery), anchor="midleft")
            box = pygame.Rect(x, tr.bottom + layout.px(2), text_w, row.bottom - tr.bottom - layout.px(2))
            lines = max(1, box.h // small.get_linesize())  # a message above the rows leaves room for one
            if info.ok:
                text = info.words
                if info.edited:
                    text = f"edited, or from an earlier version (a roll is not the one its seed gives) · {text}"
                draw_wrapped(surface, text, small, ACCENT_HOT if info.edited else ACCENT_LIGHT, box, 1)
            else:
                reason = f"Cannot be loaded: {info.error}"
                draw_wrapped(surface, reason, small, ACCENT_HOT, box, min(2, lines))  # cut: whole in the tooltip
                room = box.w - small.size(reason)[0] - layout.px(24)
                if info.detail and room > layout.px(120):  # the parser's words, for whoever mends the file: apart, dim
                    detail_font = font_px(layout.px(14))
                    draw_text(surface, ellipsize(f"({info.detail})", detail_font, room), detail_font, INK_DIM,
                              (box.right, box.top + small.get_linesize() // 2), anchor="midright")


class SaveScene(GameScene):
    """A named save of the game in progress."""

    name = "save_game"
    is_overlay = True
    CARD_W, CARD_H = 720, 330

    def __init__(self, context, flow) -> None:
        super().__init__(context, flow)
        self.entry: Optional[pygame_gui.elements.UITextEntryLine] = None
        self.message = ""
        self.message_kind = "info"
        engine = flow.session.engine
        self.default_name = slug(context.game(engine.game_id).save_name(flow.session.state))

    def card_rect(self) -> pygame.Rect:
        return self.context.layout.centred_rect(self.CARD_W, self.CARD_H)

    def build_ui(self) -> None:
        super().build_ui()
        layout = self.context.layout
        card = self.card_rect()
        self.entry = pygame_gui.elements.UITextEntryLine(
            pygame.Rect(card.left + layout.px(40), card.top + layout.px(110), card.w - layout.px(80), layout.px(46)),
            self.context.manager, container=self.root, object_id="#save_name")
        self.entry.set_text_length_limit(48)
        self.entry.set_text(self.default_name)
        self.entry.focus()
        for key, text, w, right in (("save", "Save", 180, 40), ("cancel", "Cancel", 180, 240)):
            self.add_button(key, layout.corner_rect(card, w, 52, right, 28), text, "@menu_button")

    def target(self) -> Path:
        name = slug(self.entry.get_text() if self.entry is not None else self.default_name)
        if name.startswith("autosave-"):
            name = "my-" + name  # never overwrite the rotation by hand
        return self.flow.session.saves_dir / f"{name}.json"

    def save(self) -> bool:
        path = self.target()
        try:
            self.flow.session.save(path)
        except saves.SaveError as exc:
            self.message, self.message_kind = str(exc), "error"
            return False
        self.context.back()
        top = self.context.stack.top
        if isinstance(top, GameScene):
            top.toast(f"Saved as {path.name}.", "info")
        return True

    def on_button(self, key: str) -> None:
        if key == "save":
            self.save()
        elif key == "cancel":
            self.context.back()

    def handle_event(self, event) -> bool:
        if event.type == pygame_gui.UI_TEXT_ENTRY_FINISHED and event.ui_element is self.entry:
            self.save()
            return True
        if super().handle_event(event):
            return True
        return event.type in (pygame.KEYDOWN, pygame.MOUSEBUTTONDOWN)  # modal

    def on_key(self, event) -> bool:
        if event.key == pygame.K_ESCAPE:
            self.context.back()
            return True
        if event.key in (pygame.K_RETURN, pygame.K_KP_ENTER):
            self.save()
            return True
        return True

    def draw(self, surface: pygame.Surface) -> None:
        layout = self.context.layout
        card = self.card_rect()
        draw_dialog(surface, card, layout, "Save the game")
        left = card.left + layout.px(40)
        hint = f"Name of the save (in {self.flow.session.saves_dir})"
        draw_text(surface, hint, fit_font(hint, card.w - layout.px(80), layout.px(17)), INK_DIM,
                  (left, card.top + layout.px(80)))
        note = self.message
        colour = ACCENT_HOT if self.message_kind == "error" else INK_DIM
        if not note and self.entry is not None and self.target().exists():
            note, colour = f"{self.target().name} exists and will be replaced.", INK_DIM
        if note:
            draw_wrapped(surface, note, font_px(layout.px(16)), colour,
                         pygame.Rect(left, card.top + layout.px(166), card.w - layout.px(80), layout.px(50)), 2)
        self.draw_toast(surface)
