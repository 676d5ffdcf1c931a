"""Cosmoforce's dice on screen: the exact odds before a roll, and a fistful of dice landing after it.

The engine has already decided how many dice are effective; ``FistfulRoll`` picks faces that show that
number and marks which dice count, and the shared ``DiceAnimation`` tumbles them onto those faces (the fistful
itself, its odds bars and its drawing are shared with What Goes Up: ``game.client.scenes.fistful``). Nothing
here decides anything.
"""
from __future__ import annotations

from typing import Callable, Optional

import pygame

from game.client.kit.style import (ACCENT_HOT, ACCENT_LIGHT, INK_DIM, SHADOW, dim, draw_card,
                                   draw_text, fit_font, font_px)
from game.client.scenes.dice import DiceAnimation, RollCardScene
from game.client.scenes.fistful import HIT, FistfulRoll, draw_effective_odds, draw_fistful  # noqa: F401 (FistfulRoll: flow.py)
from game.client.shell.settings import animation_factor
from game.games.cosmoforce.rules.state import GameState, PendingRoll

PURPOSE_TITLES = {"tie_break": "Tie for speed", "afterburner": "Afterburner", "strafe": "Drone strafe",
                  "fire": "Shooting", "precision": "Precision fire", "heal": "Heal crew", "repair": "Repairs",
                  "heat": "Heat"}
RESULT_WORDS = {"tie_break": "hundredths of speed", "afterburner": "extra speed changes", "strafe": "hits",
                "fire": "hits", "precision": "hits", "heal": "crew healed at most", "repair": "repair marks",
                "heat": "crew hurt"}


def roll_caption(state: GameState, step: PendingRoll, weapon_name: str = "") -> str:
    """What is being rolled for, in words: 'Dart fires at Lancer (Laser): 4 dice'."""
    ship = state.ships[step.ship].name
    target = state.ships[step.target].name if step.target is not None else ""
    what = {
        "tie_break": f"{ship} rolls {step.dice} dice to break a tie for speed",
        "afterburner": f"{ship}'s afterburner: {step.dice} dice for extra speed changes",
        "strafe": f"{ship}'s drones strafe {target}: {step.dice} dice",
        "fire": f"{ship} fires at {target} ({weapon_name or step.weapon}): {step.dice} dice",
        "precision": f"{ship} takes precise aim at {target}: {step.dice} dice",
        "heal": f"{ship} tends its hurt crew: {step.dice} die",
        "repair": f"{ship}'s crew makes repairs: {step.dice} dice",
        "heat": f"The heat aboard {ship}: {step.dice} dice against the crew",
    }[step.purpose]
    return what


def rule_line(step: PendingRoll) -> str:
    if step.mass is not None:
        return f"Odd dice count, smallest first, while they add up to no more than the target's mass ({step.mass})."
    return "Odd dice count (1, 3, 5); even dice are discarded."


# ---------------------------------------------------------------- the odds, before the roll
def draw_odds(surface: pygame.Surface, rect: pygame.Rect, layout, distribution, purpose: str) -> None:
    """One bar per possible number of effective dice, with its exact chance (the shared fistful's drawing)."""
    draw_effective_odds(surface, rect, layout, distribution, RESULT_WORDS.get(purpose, "effective dice"))


class FistfulScene(RollCardScene):
    """Overlay that plays one decided roll: the odds it had, the dice landing, how many count."""

    name = "cosmoforce_dice"
    COMPUTER_LINGER = 1.2  # seconds a computer's roll stays up once landed (scaled like animations)

    def __init__(self, context, roll: FistfulRoll, caption: str, detail: str, outcome: str,
                 on_done: Optional[Callable[[], None]] = None, unattended: bool = False) -> None:
        super().__init__(context, on_done)
        self.roll = roll
        self.caption, self.detail, self.outcome = caption, detail, outcome
        self.unattended = unattended
        self.animation = DiceAnimation(roll, animation_factor(context.settings))  # type: ignore[arg-type]
        self.lingered = 0.0

    def dice_height(self) -> int:
        """Units for the rows of dice: 100 a row of eight, at most five rows (they shrink to fit beyond)."""
        return min(5, (self.roll.dice + 7) // 8) * 100

    def card_rect(self) -> pygame.Rect:
        layout = self.context.layout
        return layout.centred_rect(self.CARD_W, min(self.CARD_H, layout.virtual_height - 40, 290 + self.dice_height()))

    def update(self, dt: float) -> None:
        super().update(dt)
        if self.animation.done and self.unattended:
            self.lingered += dt
            if self.lingered >= self.COMPUTER_LINGER * max(0.0, animation_factor(self.context.settings)):
                self.finish()

    def draw(self, surface: pygame.Surface) -> None:
        layout = self.context.layout
        dim(surface, 150)
        card = self.card_rect()
        draw_card(surface, card, layout)
        pad = layout.px(36)
        inner = card.inflate(-2 * pad, 0)
        head = fit_font(self.caption, inner.w, layout.px(28), bold=True)
        draw_text(surface, self.caption, head, ACCENT_LIGHT, (inner.left, card.top + layout.px(22)))
        sub = fit_font(self.detail, inner.w, layout.px(17))
        draw_text(surface, self.detail, sub, INK_DIM, (inner.left, card.top + layout.px(22) + head.get_linesize()))
        area = pygame.Rect(inner.left, card.top + layout.px(112), inner.w, card.bottom - layout.px(178) -
                           (card.top + layout.px(112)))
        draw_fistful(surface, area, layout, self.animation)
        if self.animation.done:
            big = fit_font(self.outcome, inner.w, layout.px(30), bold=True)
            colour = HIT if self.roll.effective else ACCENT_HOT
            draw_text(surface, self.outcome, big, colour, (card.centerx, card.bottom - layout.px(160)),
                      anchor="midtop", shadow=layout.px(2))
        else:
            draw_text(surface, "Rolling…", font_px(layout.px(24), True), INK_DIM,
                      (card.centerx, card.bottom - layout.px(160)), anchor="midtop")
        hint = "Space, Enter or click to continue" if self.animation.done else "Space, Enter or click to skip"
        draw_text(surface, hint, fit_font(hint, inner.w - layout.px(240), layout.px(16)), INK_DIM,
                  (inner.left, card.bottom - layout.px(51)), anchor="midleft")
        pygame.draw.line(surface, SHADOW, (inner.left, card.top + layout.px(96)), (inner.right, card.top + layout.px(96)),
                         max(1, layout.px(2)))
