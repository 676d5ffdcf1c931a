"""A fistful of effective dice on screen, for any game that rolls them (Cosmoforce; What Goes Up's ship fights).

Before a roll: ``draw_effective_odds`` draws one bar per possible number of effective dice with its exact
chance (the engine's own distribution). After it: ``FistfulRoll.decided`` picks faces that show the number
the engine already rolled (``game.core.effective_dice.faces_for``) and marks which dice count, and
``draw_fistful`` tumbles them onto those faces with the shared ``DiceAnimation`` and ``draw_die``.
Nothing here decides anything.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Optional

import pygame

from game.client.kit.style import BAND_COLOURS, INK, INK_DIM, draw_text, font_px
from game.client.scenes.dice import DiceAnimation, draw_die, percent_text
from game.core import effective_dice

HIT = BAND_COLOURS["ok"]
MISS = (120, 110, 140)


@dataclass(frozen=True)
class FistfulRoll:
    """A decided roll: how many dice, their faces, which of them are effective (what ``DiceAnimation`` needs)."""

    dice: int
    sides: int
    faces: tuple[int, ...]
    kept: tuple[bool, ...]
    effective: int

    @classmethod
    def decided(cls, dice: int, value: int, sides: int, mass: Optional[int] = None, salt: int = 0) -> "FistfulRoll":
        """``dice`` dice showing exactly ``value`` effective ones (a shooting roll when ``mass`` is given)."""
        faces = effective_dice.faces_for(dice, value, sides, mass, salt)
        kept_faces = list(effective_dice.kept_for_shooting(faces, mass))
        kept = []
        for face in faces:  # mark the kept faces, each once
            if face in kept_faces:
                kept_faces.remove(face)
                kept.append(True)
            else:
                kept.append(False)
        return cls(dice, sides, faces, tuple(kept), value)

    @classmethod
    def of(cls, step, value: int, sides: int, salt: int = 0) -> "FistfulRoll":
        """The roll of a pending step that has ``dice`` and ``mass`` (Cosmoforce's PendingRoll)."""
        return cls.decided(step.dice, value, sides, step.mass, salt)


def draw_effective_odds(surface: pygame.Surface, rect: pygame.Rect, layout, distribution,
                        result_words: str = "effective dice", row: int = 22) -> int:
    """One bar per possible number of effective dice, with its exact chance (the numbers the dice will use);
    the likeliest ones when they do not all fit, then the average. Returns the bottom y."""
    values = [(k, p) for k, p in distribution if p]
    if not values:
        return rect.top
    label_font = font_px(layout.px(15), True)
    small = font_px(layout.px(14))
    step = layout.px(row)
    room = max(1, (rect.h - step) // step)
    if len(values) > room:  # many outcomes (a big salvo): the likeliest, and what is left over in one line
        shown = sorted(sorted(values, key=lambda v: -v[1])[:room - 1])
        rest = 1 - sum(p for _, p in shown)
    else:
        shown, rest = values, Fraction(0)
    top = max(p for _, p in values)
    label_w = layout.px(92)
    bar_left = rect.left + label_w
    bar_w = rect.w - label_w - layout.px(64)
    y = rect.top
    for k, p in shown:
        draw_text(surface, f"{k} effective", small, INK_DIM, (rect.left, y + step // 2), anchor="midleft")
        length = max(1, int(bar_w * float(p / top)))
        bar = pygame.Rect(bar_left, y + layout.px(3), length, step - layout.px(7))
        pygame.draw.rect(surface, HIT if k else MISS, bar, border_radius=layout.px(4))
        draw_text(surface, percent_text(p), label_font, INK, (rect.right, y + step // 2), anchor="midright")
        y += step
    if rest:
        draw_text(surface, f"other results: {percent_text(rest)}", small, INK_DIM, (rect.left, y + layout.px(4)))
        y += step
    mean = effective_dice.expected(values)
    draw_text(surface, f"on average {float(mean):.1f} {result_words}", small, INK_DIM, (rect.left, y + layout.px(4)))
    return y + layout.px(4) + small.get_linesize()


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
