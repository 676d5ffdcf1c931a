"""Cosmoforce's dice on screen: the exact odds before a roll, and a fistful of dice landing after it.

The engine has already decided how many dice are effective; ``FistfulRoll`` picks faces that show that
number (``game.core.effective_dice.faces_for``) and marks which dice count, and the shared ``DiceAnimation`` and
``draw_die`` tumble them onto those faces. Nothing here decides anything.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Callable, Optional

import pygame

from game.client.kit.style import (ACCENT_HOT, ACCENT_LIGHT, BAND_COLOURS, INK, INK_DIM, SHADOW, dim, draw_card,
                                   draw_text, fit_font, font_px)
from game.client.scenes.dice import DiceAnimation, RollCardScene, draw_die, percent_text
from game.client.shell.settings import animation_factor
from game.core import effective_dice
from game.games.cosmoforce.rules.state import GameState, PendingRoll

HIT = BAND_COLOURS["ok"]
MISS = (120, 110, 140)
PURPOSE_TITLES = {"tie_break": "Tie for speed", "afterburner": "Afterburner", "strafe": "Drone strafe",
                  "fire": "Shooting", "precision": "Precision fire", "heal": "Heal crew", "repair": "Repairs",
                  "heat": "Heat"}
RESULT_WORDS = {"tie_break": "hundredths of speed", "afterburner": "extra speed changes", "strafe": "hits",
                "fire": "hits", "precision": "hits", "heal": "crew healed at most", "repair": "repair marks",
                "heat": "crew hurt"}


@dataclass(frozen=True)
class FistfulRoll:
    """A decided roll: how many dice, their faces, which of them are effective (what ``DiceAnimation`` needs)."""

    dice: int
    sides: int
    faces: tuple[int, ...]
    kept: tuple[bool, ...]
    effective: int

    @classmethod
    def of(cls, step: PendingRoll, value: int, sides: int, salt: int = 0) -> "FistfulRoll":
        faces = effective_dice.faces_for(step.dice, value, sides, step.mass, salt)
        kept_faces = list(effective_dice.kept_for_shooting(faces, step.mass))
        kept = []
        for face in faces:  # mark the kept faces, each once
            if face in kept_faces:
                kept_faces.remove(face)
                kept.append(True)
            else:
                kept.append(False)
        return cls(step.dice, sides, faces, tuple(kept), value)


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
    """One bar per possible number of effective dice, with its exact chance (the numbers the dice will use)."""
    values = [(k, p) for k, p in distribution if p]
    if not values:
        return
    label_font = font_px(layout.px(15), True)
    small = font_px(layout.px(14))
    rows = len(values)
    # Many outcomes (a big salvo): show the likeliest ones, and what is left over in one line.
    room = max(1, (rect.h - layout.px(26)) // layout.px(22))
    if rows > room:
        best = sorted(values, key=lambda v: -v[1])[:room - 1]
        shown = sorted(best)
        rest = 1 - sum(p for _, p in shown)
    else:
        shown, rest = values, Fraction(0)
    top = max(p for _, p in values)
    bar_left = rect.left + layout.px(92)
    bar_w = rect.w - layout.px(92) - layout.px(64)
    y = rect.top
    for k, p in shown:
        draw_text(surface, f"{k} effective", small, INK_DIM, (rect.left, y + layout.px(10)), anchor="midleft")
        length = max(1, int(bar_w * float(p / top)))
        bar = pygame.Rect(bar_left, y + layout.px(3), length, layout.px(15))
        pygame.draw.rect(surface, HIT if k else MISS, bar, border_radius=layout.px(4))
        draw_text(surface, percent_text(p), label_font, INK, (rect.right, y + layout.px(10)), anchor="midright")
        y += layout.px(22)
    if rest:
        draw_text(surface, f"other results: {percent_text(rest)}", small, INK_DIM, (rect.left, y + layout.px(4)))
        y += layout.px(22)
    mean = effective_dice.expected(values)
    draw_text(surface, f"on average {float(mean):.1f} {RESULT_WORDS.get(purpose, 'effective dice')}", small, INK_DIM,
              (rect.left, y + layout.px(4)))


# ---------------------------------------------------------------- the dice, after it
def draw_fistful(surface: pygame.Surface, rect: pygame.Rect, layout, anim: DiceAnimation) -> None:
    """The dice in rows inside ``rect``: tumbling, then landed, effective ones rimmed, the others faded."""
    roll: FistfulRoll = anim.roll  # type: ignore[assignment]
    n = roll.dice
    per_row = min(n, 8)
    rows = (n + per_row - 1) // per_row
    gap = layout.px(14)
    size = min(layout.px(84), (rect.w - gap * (per_row - 1)) / per_row, (rect.h - gap * (rows - 1)) / rows)
    for i in range(n):
        row, col = divmod(i, per_row)
        in_row = min(per_row, n - row * per_row)
        row_w = in_row * size + (in_row - 1) * gap
        cx = rect.centerx - row_w / 2 + size / 2 + col * (size + gap)
        cy = rect.top + size / 2 + row * (size + gap) - anim.hop(i) * size * 0.5
        landed = anim.landed(i)
        glow = (HIT if roll.kept[i] else None) if landed else None
        draw_die(surface, roll.sides, (cx, cy), size, anim.face(i), anim.spin(i), glow)
        if landed and not roll.kept[i]:
            veil = pygame.Surface((int(size), int(size)), pygame.SRCALPHA)
            veil.fill((12, 10, 30, 140))
            surface.blit(veil, (cx - size / 2, cy - size / 2))


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
