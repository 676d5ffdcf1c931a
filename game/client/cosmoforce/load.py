"""Loading a Cosmoforce fight: the saves in Cosmoforce's own folder, newest first, with the round each was
left at and its captains; a save that cannot be loaded is listed with the reason and never touched."""
from __future__ import annotations

import time
from typing import Optional

import pygame

from game.client.cosmoforce.flow import load_into_game, saves_dir
from game.client.cosmoforce.shipped import shipped_engine
from game.client.kit.style import ACCENT_HOT, ACCENT_LIGHT, INK, INK_DIM, draw_card, draw_text, fit_font, font_px
from game.client.kit.text import draw_wrapped
from game.client.scenes.game_scene import GameScene
from game.core import saves

PAGE = 6


def fight_words(listing: saves.SaveListing) -> str:
    """'round 3 · Vega, Orion' or 'over: Vega wins the fight.'"""
    final = listing.game.final
    names = ", ".join(p.name for p in final.players)
    if final.phase == "over":
        outcome = final.result
        return f"over: {outcome.reason if outcome else ''} · {names}"
    return f"round {final.turn} · {names}"


class LoadFightScene(GameScene):
    name = "cosmoforce_load"

    def __init__(self, context, message: str = "") -> None:
        super().__init__(context, None)
        self.message = message
        self.page = 0
        self.folder = saves_dir()
        self.listings: list[saves.SaveListing] = saves.list_saves(self.folder, shipped_engine())

    def rows(self) -> list[saves.SaveListing]:
        return self.listings[self.page * PAGE:(self.page + 1) * PAGE]

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
        for n, listing in enumerate(self.rows()):
            row = self.row_rect(n)
            rect = pygame.Rect(0, 0, layout.px(140), min(row.h - layout.px(12), layout.px(48)))
            rect.midright = (row.right - layout.px(12), row.centery)
            self.add_button(f"load:{n}", rect, "Load", "@menu_button", enabled=listing.ok,
                            tooltip=None if listing.ok else "This save cannot be loaded; the reason is shown")
        vw, vh = layout.virtual_width, layout.virtual_height
        self.add_button("back", layout.rect(24, vh - 24 - 56, 200, 56), "Back", "@menu_button")
        pages = max(1, (len(self.listings) + PAGE - 1) // PAGE)
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

    def load(self, listing: saves.SaveListing) -> bool:
        error: Optional[str] = load_into_game(self.context, listing.path)
        if error:
            self.message = f"Could not load {listing.path.name}: {error}"
            self.relayout()
            return False
        return True

    def draw_content(self, surface: pygame.Surface) -> None:
        layout = self.context.layout
        self.draw_header(surface, "Load a Cosmoforce fight", subtitle=str(self.folder))
        card = self.card_rect()
        draw_card(surface, card, layout)
        head = font_px(layout.px(20), True)
        y = card.top + layout.px(18)
        text = f"{len(self.listings)} save(s), newest first" if self.listings else \
            "No fights saved yet. Start one; it autosaves as you play."
        draw_text(surface, text, head, ACCENT_LIGHT if self.listings else INK_DIM, (card.left + layout.px(24), y))
        if self.message:
            draw_wrapped(surface, self.message, font_px(layout.px(16), True), ACCENT_HOT,
                         pygame.Rect(card.left + layout.px(24), y + layout.px(32), card.w - layout.px(48),
                                     layout.px(44)), 2)
        small = font_px(layout.px(16))
        for n, listing in enumerate(self.rows()):
            row = self.row_rect(n)
            pygame.draw.rect(surface, (21, 18, 48), row, border_radius=layout.px(10))
            text_w = row.w - layout.px(180)
            x = row.left + layout.px(16)
            when = time.strftime("%d %b %Y, %H:%M", time.localtime(listing.modified))
            title = listing.path.stem
            tr = draw_text(surface, title, fit_font(title, text_w // 2, layout.px(19), bold=True), INK,
                           (x, row.top + layout.px(8)))
            draw_text(surface, when, fit_font(when, text_w - tr.w - layout.px(20), layout.px(16)), INK_DIM,
                      (tr.right + layout.px(16), tr.centery), anchor="midleft")
            box = pygame.Rect(x, tr.bottom + layout.px(4), text_w, row.bottom - tr.bottom - layout.px(6))
            if listing.ok:
                draw_wrapped(surface, fight_words(listing), small, ACCENT_LIGHT, box, 1)
            else:
                draw_wrapped(surface, f"Cannot be loaded: {listing.error}", small, ACCENT_HOT, box, 2)
