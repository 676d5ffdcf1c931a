"""The roll card of a ship fight (Space War): the fistful of effective dice a shot or the heat rolls.

Before the roll it names who shoots whom (or whose heat rolls), the rule the dice follow, and the exact
chance of every number of hits from the engine's own distribution (``ship_fight_distribution``); after it
the dice tumble onto faces that show the number the session rolled (``FistfulRoll.decided``), the
effective ones rimmed. The Field's ``RollPanel`` draws it; nothing here decides anything.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Optional

import pygame

from game.client.kit.draw import draw_program_marker, program_colour
from game.client.kit.style import ACCENT_HOT, ACCENT_LIGHT, INK, INK_DIM, draw_text, fit_font, font_px, wrap_text
from game.client.scenes.dice import DiceAnimation
from game.client.scenes.fistful import HIT, FistfulRoll, draw_effective_odds, draw_fistful

if TYPE_CHECKING:
    from game.games.whatgoesup.rules.engine import Engine
    from game.games.whatgoesup.rules.state import GameState


def fight_roll(state: "GameState"):
    """The ship fight's pending roll (``FightRoll``), or None."""
    flight = state.flight if state.phase == "flight" else None
    fight = getattr(flight, "ship_fight", None) if flight is not None else None
    return fight.roll if fight is not None else None


def rolling_craft(state: "GameState") -> Optional[str]:
    """The Upgoer whose fight dice are waiting (the shooter, or the craft whose heat rolls)."""
    roll = fight_roll(state)
    return state.flight.ship_fight.sides[roll.side].upgoer if roll is not None else None


def target_craft(state: "GameState") -> Optional[str]:
    """The craft a pending shot is aimed at (None for heat)."""
    roll = fight_roll(state)
    if roll is None or roll.purpose != "fire":
        return None
    return state.flight.ship_fight.sides[1 - roll.side].upgoer


def caption(engine: "Engine", state: "GameState") -> tuple[str, str]:
    """(headline, what the dice do) for the pending fight roll."""
    roll = fight_roll(state)
    craft = state.upgoer(rolling_craft(state))
    program = state.programs[craft.owner].name
    what = "shot" if roll.purpose == "fire" else "heat"
    return f"{program} · {craft.name}: {what} roll", engine.flight_rules.ship_fight_roll_words(state) or ""


def result_words(purpose: str) -> str:
    return "hits" if purpose == "fire" else "derps hurt at most"


@dataclass(frozen=True)
class FightBand:
    """What the Field's board effects read of a settled roll (``show.dice.outcome``): a hit flashes like a Fail
    where it lands; a miss or cool heat shows nothing."""

    outcome: str


@dataclass
class FightShow:
    """A fight roll being shown: the fistful, its animation and the words (what ``RollPanel`` keeps as its show)."""

    animation: DiceAnimation
    headline: str
    detail: str
    words: str  # what the landed dice did
    purpose: str  # fire or heat
    owner: Optional[int]  # the program that rolled
    spot_upgoer: str  # where on the board it happened: the target of a shot, the craft whose heat rolled
    mass_word: str = ""  # "Frog's mass of 8" for a shot
    roll_kind: str = "ship_fight"

    @property
    def hits(self) -> int:
        return self.animation.roll.effective  # type: ignore[attr-defined]

    @property
    def dice(self) -> FightBand:
        return FightBand("fail" if self.purpose == "fire" and self.hits else "ok")


def show_for(engine: "Engine", before: "GameState", value: int, time_factor: float, salt: int) -> FightShow:
    """The show of a fight roll that was just rolled (``before`` still has it pending)."""
    roll = fight_roll(before)
    fistful = FistfulRoll.decided(roll.dice, value, engine.rules.ship_combat.sides, roll.mass, salt)
    headline, detail = caption(engine, before)
    craft = before.upgoer(rolling_craft(before))
    mass_word = ""
    if roll.purpose == "fire":
        target = before.upgoer(target_craft(before)).name
        words = f"{value} hit{'s' if value != 1 else ''} on {target}!" if value else "A clean miss."
        mass_word = f"{target}'s mass of {roll.mass}"
    else:
        words = f"The heat hurts {value} derp{'s' if value != 1 else ''}." if value else "The crew keeps its cool."
    return FightShow(DiceAnimation(fistful, time_factor), headline, detail, words, roll.purpose,  # type: ignore[arg-type]
                     craft.owner, target_craft(before) or craft.id, mass_word)


def _owner_marker(surface, state, program_index: Optional[int], card: pygame.Rect, centre_y: int, layout) -> None:
    """The rolling program's marker in the card's left margin: in hot-seat everyone watches, so it says whose."""
    if program_index is None:
        return
    program = state.programs[program_index]
    draw_program_marker(surface, program.index, (card.left + layout.px(12), centre_y), layout.px(8),
                        program_colour(program))


def _wrapped(surface, text: str, font, colour, rect: pygame.Rect) -> int:
    y = rect.top
    for line in wrap_text(text, font, rect.w):
        if y + font.get_linesize() > rect.bottom:
            break
        draw_text(surface, line, font, colour, (rect.left, y))
        y += font.get_linesize()
    return y


def draw_ready(surface: pygame.Surface, engine: "Engine", state: "GameState", card: pygame.Rect,
               inner: pygame.Rect, layout) -> None:
    """Who rolls, what for, and the exact chance of every result before the dice fly."""
    roll = fight_roll(state)
    headline, detail = caption(engine, state)
    head = fit_font(headline, inner.w, layout.px(26), bold=True)
    draw_text(surface, headline, head, ACCENT_LIGHT, (inner.left, card.top + layout.px(16)))
    _owner_marker(surface, state, state.upgoer(rolling_craft(state)).owner, card,
                  card.top + layout.px(16) + head.get_height() // 2, layout)
    y = _wrapped(surface, detail, font_px(layout.px(17)), INK_DIM,
                 pygame.Rect(inner.left, card.top + layout.px(16) + head.get_linesize(), inner.w, layout.px(66)))
    odds = pygame.Rect(inner.left, y + layout.px(8), inner.w - layout.px(240),
                       card.bottom - layout.px(18) - (y + layout.px(8)))
    draw_effective_odds(surface, odds, layout, engine.flight_rules.ship_fight_distribution(state),
                        result_words(roll.purpose), row=20)


def draw_rolled(surface: pygame.Surface, state: "GameState", show: FightShow, card: pygame.Rect,
                inner: pygame.Rect, layout) -> None:
    """The fistful tumbling, then landed with the effective dice rimmed and what they did."""
    head = fit_font(show.headline, inner.w, layout.px(28), bold=True)
    draw_text(surface, show.headline, head, ACCENT_LIGHT, (inner.left, card.top + layout.px(18)))
    _owner_marker(surface, state, show.owner, card, card.top + layout.px(18) + head.get_height() // 2, layout)
    detail_bottom = _wrapped(surface, show.detail, font_px(layout.px(17)), INK_DIM,
                             pygame.Rect(inner.left, card.top + layout.px(18) + head.get_linesize(), inner.w,
                                         layout.px(66)))
    words_y = card.bottom - layout.px(120)
    area = pygame.Rect(inner.left, detail_bottom + layout.px(14), inner.w, words_y - detail_bottom - layout.px(28))
    draw_fistful(surface, area, layout, show.animation)
    if show.animation.done:
        roll = show.animation.roll
        kept = [str(f) for f, k in zip(roll.faces, roll.kept) if k]  # type: ignore[attr-defined]
        why = (f"Counted: {' + '.join(kept)}" if kept else "No face counts") + (
            f", within {show.mass_word}." if show.mass_word and kept else ".")
        draw_text(surface, why, fit_font(why, inner.w, layout.px(17)), INK, (card.centerx, words_y - layout.px(34)),
                  anchor="midtop")
        big = fit_font(show.words, inner.w, layout.px(30), bold=True)
        draw_text(surface, show.words, big, HIT if show.hits else ACCENT_HOT, (card.centerx, words_y),
                  anchor="midtop", shadow=layout.px(2))
        hint = "Space or click to go on."
    else:
        draw_text(surface, "Rolling…", font_px(layout.px(24), True), INK_DIM, (card.centerx, words_y), anchor="midtop")
        hint = "Space or click to skip"
    draw_text(surface, hint, font_px(layout.px(15)), INK if show.animation.done else INK_DIM,
              (inner.left, card.bottom - layout.px(36)))


# ---------------------------------------------------------------- the side panel during a fight
def fight_lines(engine: "Engine", state: "GameState") -> list[tuple[int, str, str]]:
    """(program, craft name, its numbers in words) for each craft of the fight under way, fastest first."""
    fight = state.flight.ship_fight
    classes = {c.id: c.name for c in engine.rules.ship_combat.classes}
    out = []
    for index in fight.order:
        side = fight.sides[index]
        craft = state.find("upgoer", side.upgoer)
        if craft is None:
            continue
        crew = [d for d in state.derps if d.location == craft.id and not d.dead]
        hurt = sum(1 for d in crew if d.injured)
        hits = sum(n for _, n in side.hits)
        words = (f"{classes.get(side.fight_class, side.fight_class)} · speed {side.speed} · heat {side.heat} · "
                 f"mass {side.mass} · crew {len(crew)}" + (f" ({hurt} hurt)" if hurt else "")
                 + (f" · {hits} hit{'s' if hits != 1 else ''} taken" if hits else ""))
        out.append((craft.owner, craft.name, words))
    return out


def draw_fight_summary(surface: pygame.Surface, engine: "Engine", state: "GameState", rect: pygame.Rect,
                       layout) -> None:
    """'Ship fight', then each craft with its class, speed, heat, fighting mass, crew and hits, fastest first."""
    fight = state.flight.ship_fight
    y = rect.top
    stage = {"aftermath": "aftermath", "truce": "ceasefire?"}.get(fight.stage, "shots")
    title = f"Ship fight · round {fight.round} · {stage}"
    draw_text(surface, title, fit_font(title, rect.w, layout.px(22), bold=True), ACCENT_LIGHT, (rect.left, y))
    y += layout.px(32)
    small = font_px(layout.px(14))
    for owner, name, words in fight_lines(engine, state):
        _owner_marker(surface, state, owner, pygame.Rect(rect.left - layout.px(12), 0, 0, 0), y + layout.px(10), layout)
        draw_text(surface, name, fit_font(name, rect.w - layout.px(16), layout.px(17), bold=True), INK,
                  (rect.left + layout.px(14), y))
        y += layout.px(22)
        lines = wrap_text(words, small, rect.w)
        for line in lines[:2]:
            if y + small.get_linesize() > rect.bottom:
                return
            draw_text(surface, line, small, INK_DIM, (rect.left, y))
            y += small.get_linesize()
        y += layout.px(4)
