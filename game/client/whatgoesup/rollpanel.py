"""The roll panel over The Field: what is about to roll and its exact odds, the dice tumbling onto
the value the session already rolled, and then the mid-roll choices (skills, RCS, luck, accept,
keep old/new, the capsule-fail choice) with the odds updating as help is spent.

The value always comes from ``session.roll()``; the faces come from the dice scheme's
``faces_for``. A cluster of lower stages shows one set of dice with the combined value.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Optional

import pygame
import pygame_gui
from pygame_gui.core import ObjectID

from game.games.whatgoesup.rules.flight_actions import (AcceptRoll, ChooseConsequence, KeepRoll, UseLuck, UseRcsBoost, UseSkill)
from game.games.whatgoesup.rules.planning import help_plan_for, next_roll_odds
from game.games.whatgoesup.rules.reliability import Outcome

from game.client.scenes.dice import BAND_LABELS, BAND_ORDER, DiceAnimation, DiceFaces, DiceRoll, draw_band_pattern, \
    dice_row_height, dice_size, draw_band_swatch, draw_dice_roll, draw_dice_row, percent_text
from game.client.scenes.logview import KIND_STYLE
from game.client.whatgoesup import fight_card
from game.client.whatgoesup.flightpanel import describe_action, judged_roll, label_variants
from game.client.whatgoesup.story_words import ROLL_WORDS
from game.client.kit.style import ACCENT_LIGHT, BAND_COLOURS, CARD, INK, INK_DIM, SHADOW, Layout, draw_card, draw_text, fit_font, font_px, \
    wrap_text
from game.client.kit.draw import draw_program_marker, program_colour
from game.client.kit.words import counted

if TYPE_CHECKING:
    from game.games.whatgoesup.rules.engine import Engine
    from game.games.whatgoesup.rules.state import GameState

#: Space War's colour: a fight's result on the card is the colour of the story log's fight and war lines.
WAR_COLOUR = KIND_STYLE["war"][0]
HELP_ACTIONS = (UseSkill, UseRcsBoost, UseLuck, KeepRoll, AcceptRoll, ChooseConsequence)


_CARDS: dict = {}  # (size, layout) -> the card painted once, most recently used last
_CARDS_KEPT = 6

#: The rolling program's marker before a card's headline, and the gap after it (design units).
OWNER_MARKER = 18
OWNER_GAP = 10


#: Rows of a card's middle painted at a time to check that it is plain (``_opaque_middle``).
MIDDLE_ROWS = 64


def _painted(area: pygame.Rect, card: pygame.Rect, layout: Layout) -> pygame.Surface:
    """The part ``area`` of a clear layer with ``draw_card`` drawn at ``card`` (both in the layer's coordinates),
    painted alone: the same pixels as that part of the whole layer, without the whole layer."""
    part = pygame.Surface(area.size, pygame.SRCALPHA)
    draw_card(part, card.move(-area.left, -area.top), layout)
    return part


def _opaque_middle(size: tuple[int, int], card: pygame.Rect, layout: Layout) -> Optional[pygame.Rect]:
    """The part of a card drawn at ``card`` in a clear layer of ``size`` that is plain opaque ``CARD`` (inside the
    rim and the rounded corners), or None if it is not uniform: that part can be filled instead of alpha-blended.
    Judged ``MIDDLE_ROWS`` rows at a time, never painting the whole layer."""
    radius = layout.px(18)
    rim = max(2, layout.px(3))
    inset = max(radius, rim) + 1
    middle = card.inflate(-2 * inset, -2 * inset).clip(pygame.Rect((0, 0), size))
    if middle.w <= 0 or middle.h <= 0:
        return None
    for top in range(middle.top, middle.bottom, MIDDLE_ROWS):
        band = pygame.Rect(middle.left, top, middle.w, min(MIDDLE_ROWS, middle.bottom - top))
        part = _painted(band, card, layout)
        if not _plain_card(part, part.get_rect()):
            return None
    return middle


def cached_card(surface: pygame.Surface, rect: pygame.Rect, layout: Layout, middle: bool = True) -> None:
    """``draw_card`` painted once per size into transparent strips, then only blitted.

    Only the rim, corners and shadow round the card's opaque middle are kept (four strips, alpha-blended
    each time, each painted on its own: at 4K a roll card's whole layer was ~18 MiB); the middle is filled with
    ``CARD`` (~15 MiB more). With ``middle`` False the middle is left out (the caller covers it with a
    still copy of the card's words)."""
    key = (rect.size, layout)
    cached = _CARDS.pop(key, None)
    margin = layout.px(24)
    if cached is None:
        while len(_CARDS) >= _CARDS_KEPT:  # keep the few sizes in use, newest last
            _CARDS.pop(next(iter(_CARDS)))
        size = (rect.w + 2 * margin, rect.h + 2 * margin)
        at = pygame.Rect(margin, margin, rect.w, rect.h)
        inner = _opaque_middle(size, at, layout)
        if inner is None:
            strips = [pygame.Rect((0, 0), size)]
        else:
            w, h = size
            strips = [pygame.Rect(0, 0, w, inner.top), pygame.Rect(0, inner.bottom, w, h - inner.bottom),
                      pygame.Rect(0, inner.top, inner.left, inner.h),
                      pygame.Rect(inner.right, inner.top, w - inner.right, inner.h)]
        cached = (inner, [(_painted(strip, at, layout), strip.topleft) for strip in strips if strip.w and strip.h])
    _CARDS[key] = cached
    inner, strips = cached
    x, y = rect.left - margin, rect.top - margin
    surface.blits([(strip, (x + left, y + top)) for strip, (left, top) in strips], doreturn=False)
    if inner is not None and middle:
        surface.fill(CARD, inner.move(x, y))


def card_middle(rect: pygame.Rect, layout: Layout) -> Optional[pygame.Rect]:
    """Where ``cached_card(surface, rect, layout)`` paints plain opaque card (screen coordinates),
    once it has been painted at this size; None otherwise."""
    cached = _CARDS.get((rect.size, layout))
    if cached is None or cached[0] is None:
        return None
    margin = layout.px(24)
    return cached[0].move(rect.left - margin, rect.top - margin)


#: Rows of a card's plain middle judged at a time when a copy of the card is kept (``CardCopy``).
COPY_ROWS = 24


def _outside(rect: pygame.Rect, hole: pygame.Rect) -> list[pygame.Rect]:
    """``rect`` less ``hole``, as up to four rects that do not overlap (above, below, left, right of it)."""
    hole = hole.clip(rect)
    if not hole.w or not hole.h:
        return [pygame.Rect(rect)]
    parts = [pygame.Rect(rect.left, rect.top, rect.w, hole.top - rect.top),
             pygame.Rect(rect.left, hole.bottom, rect.w, rect.bottom - hole.bottom),
             pygame.Rect(rect.left, hole.top, hole.left - rect.left, hole.h),
             pygame.Rect(hole.right, hole.top, rect.right - hole.right, hole.h)]
    return [part for part in parts if part.w > 0 and part.h > 0]


class CardCopy:
    """What a card drawn on ``surface`` showed over ``pieces`` (screen rects), kept to be copied back: its opaque
    ``middle`` in runs of ``COPY_ROWS`` rows, a run of plain ``CARD`` kept as a fill instead of pixels, and the
    rest of the pieces as pixels; the ``repainted`` parts of the middle (a tumbling roll's bands, painted again
    over the copy every time it is painted) are not kept. At 3840x2160 a roll card copied whole was 16 MiB."""

    def __init__(self, surface: pygame.Surface, card: pygame.Rect, pieces, middle: Optional[pygame.Rect],
                 repainted=()) -> None:
        self.origin = card.topleft
        self.parts: list[tuple[pygame.Rect, Optional[pygame.Surface]]] = []  # (card-relative rect, pixels or None)
        rows: list[pygame.Rect] = []
        for piece in pieces:
            if middle is None:
                self._keep(surface, piece)
                continue
            for part in _outside(piece, middle):
                self._keep(surface, part)
            inside = [piece.clip(middle)]
            for band in repainted:
                inside = [part for rect in inside for part in _outside(rect, band)]
            for rect in sorted((rect for rect in inside if rect.w and rect.h), key=lambda r: (r.left, r.top)):
                rows += [pygame.Rect(rect.left, top, rect.w, min(COPY_ROWS, rect.bottom - top))
                         for top in range(rect.top, rect.bottom, COPY_ROWS)]
        run: Optional[pygame.Rect] = None
        run_plain = False
        for row in rows:  # runs of rows alike (plain or not), each kept as one part
            plain = _plain_card(surface, row)
            if run is not None and plain == run_plain and row.left == run.left and row.w == run.w \
                    and row.top == run.bottom:
                run.h += row.h
                continue
            if run is not None:
                self._keep(surface, run, run_plain)
            run, run_plain = pygame.Rect(row), plain
        if run is not None:
            self._keep(surface, run, run_plain)

    def _keep(self, surface: pygame.Surface, rect: pygame.Rect, plain: bool = False) -> None:
        pixels = None if plain else surface.subsurface(rect).copy()
        self.parts.append((rect.move(-self.origin[0], -self.origin[1]), pixels))

    def paint(self, surface: pygame.Surface, card: pygame.Rect) -> None:
        """Copy the card back with its top-left at ``card``'s (through ``surface``'s clip)."""
        x, y = card.topleft
        for rect, pixels in self.parts:
            if pixels is None:
                surface.fill(CARD, rect.move(x, y))
            else:
                surface.blit(pixels, rect.move(x, y))


def _plain_card(surface: pygame.Surface, rect: pygame.Rect) -> bool:
    """Whether every pixel of ``rect`` is exactly ``CARD``."""
    area = surface.subsurface(rect)
    return pygame.mask.from_threshold(area, (*CARD, 255), (1, 1, 1, 1)).count() == rect.w * rect.h


def odds_tuple(odds: dict) -> tuple[Fraction, Fraction, Fraction]:
    return (odds[Outcome.OK], odds[Outcome.FAIL], odds[Outcome.BOOM])


def roll_caption(engine: "Engine", state: "GameState", roll) -> tuple[str, str]:
    """(headline, what is rolling and where) for a pending roll."""
    board = engine.rules.board
    upgoer = state.find("upgoer", roll.upgoer)
    craft = upgoer.name if upgoer else "?"
    parts = []
    for item_id in roll.items:
        item = state.find("item", item_id)
        if item is not None:
            parts.append(state.thing(item.thing_id).name)
    what = ROLL_WORDS.get(roll.kind, roll.kind.replace("_", " "))
    try:
        where = board.step(roll.target if roll.kind in ("burn", "rcs_burn") and roll.target else roll.step).name
    except KeyError:
        where = roll.step
    if roll.kind in ("burn", "rcs_burn"):
        where = f"towards {where}"
    else:
        where = f"at {where}"
    names = " + ".join(parts) if len(parts) <= 2 else f"{parts[0]} and {len(parts) - 1} more"
    cluster = f" (a cluster of {roll.dice_sets}: one combined roll)" if roll.dice_sets > 1 else ""
    program = state.programs[upgoer.owner].name if upgoer else ""
    headline = f"{program} · {craft}: {what} roll" if program else f"{craft}: {what} roll"
    return headline, f"{names} rolls {where}{cluster}"


def dice_roll_for(engine: "Engine", state: "GameState", roll, value: Optional[int], odds: dict) -> DiceRoll:
    """A DiceRoll for drawing: the scheme's dice showing ``value`` (the lowest roll if none yet)."""
    scheme = engine.rules.dice.scheme(state.setup.dice)
    rating = roll.effective()
    shown = value if value is not None else scheme.low
    shown = max(scheme.low, min(scheme.high, shown))
    fail = max(scheme.low - 1, min(rating.fail, scheme.high + 1))
    boom = max(fail + 1, min(rating.boom, scheme.high + 2))
    ok, fl, bm = odds_tuple(odds)
    moved = roll.moved if value is not None and value == roll.value else 0
    return DiceRoll(scheme.dice, scheme.sides, scheme.offset, scheme.faces_for(shown), fail, boom, ok, fl, bm, moved)


def draw_band_bar(surface: pygame.Surface, rect: pygame.Rect, layout: Layout, roll: DiceRoll,
                  marker: Optional[int] = None) -> int:
    """The OK/Fail/Boom bar with value ticks and the exact-odds legend; returns the bottom y."""
    unit = max(1, layout.px(1))
    bar = pygame.Rect(rect.left, rect.top, rect.w, layout.px(36))
    span = roll.high - roll.low + 1
    tick_font = font_px(layout.px(14))
    label_font = font_px(layout.px(16), True)

    def x_of(value: float) -> int:
        return int(bar.left + (value - roll.low) / span * bar.w)

    for key, lo, hi in roll.band_ranges():
        seg = pygame.Rect(x_of(lo), bar.top, x_of(hi + 1) - x_of(lo), bar.h)
        draw_band_pattern(surface, seg, key, unit)
        label = BAND_LABELS[key]
        if label_font.size(label)[0] + layout.px(12) <= seg.w:
            plate = label_font.render(label, True, (20, 14, 34))
            back = plate.get_rect(center=seg.center).inflate(layout.px(10), layout.px(2))
            pygame.draw.rect(surface, (255, 250, 238), back, border_radius=layout.px(6))
            surface.blit(plate, plate.get_rect(center=seg.center))
        for value in ((lo, hi) if hi != lo else (lo,)):
            draw_text(surface, str(value), tick_font, INK_DIM, (x_of(value + 0.5), bar.bottom + layout.px(3)),
                      anchor="midtop")
        pygame.draw.line(surface, SHADOW, (seg.left, bar.top), (seg.left, bar.bottom), max(1, unit * 2))
    pygame.draw.rect(surface, SHADOW, bar, max(2, unit * 2), border_radius=layout.px(4))
    if marker is not None:
        mx = x_of(marker + 0.5)
        tip = bar.top - layout.px(3)
        pygame.draw.polygon(surface, (255, 250, 238), [(mx, tip), (mx - layout.px(9), tip - layout.px(14)),
                                                       (mx + layout.px(9), tip - layout.px(14))])
    y = bar.bottom + layout.px(26)
    chip_font = font_px(layout.px(19), True)
    range_font = font_px(layout.px(14))
    parts = []
    for key, lo, hi in roll.band_ranges():
        parts.append((key, f"{BAND_LABELS[key]} {roll.band_percent(key)}", f"rolls {lo}–{hi}" if hi != lo else f"roll {lo}"))
    swatch = layout.px(20)
    widths = [swatch + layout.px(8) + max(chip_font.size(m)[0], range_font.size(s)[0]) for _, m, s in parts]
    spacing = layout.px(30)
    total = sum(widths) + spacing * (len(parts) - 1)
    x = rect.centerx - total // 2
    for (key, main, sub), w in zip(parts, widths):
        sw = pygame.Rect(x, y + layout.px(3), swatch, swatch)
        draw_band_swatch(surface, sw, key, unit)
        draw_text(surface, main, chip_font, INK, (sw.right + layout.px(8), y))
        draw_text(surface, sub, range_font, INK_DIM, (sw.right + layout.px(8), y + chip_font.get_linesize()))
        x += w + spacing
    return y + chip_font.get_linesize() + range_font.get_linesize()


@dataclass
class RollShow:
    """A roll being shown: the dice, the animation, and the words."""

    dice: DiceRoll
    animation: DiceAnimation
    headline: str
    detail: str
    roll_kind: str
    owner: Optional[int] = None  # the program whose craft rolled


@dataclass(frozen=True)
class FighterDie:
    """One derp's side of a fight's pair on the card: who, its Piloting, and its die (None: not rolled yet)."""

    name: str
    program: object  # the derp's Program (its colour and marker)
    bonus: int
    value: Optional[int] = None
    faces: tuple[int, ...] = ()


@dataclass
class DerpFightShow:
    """A derp fight's die being shown: the pair, the die tumbling onto the value the session rolled, and once
    the pair's second die is down its result (who loses how much stamina); after the last pair, how the
    losses landed. ``rolling`` is the index (0, 1) of the derp whose die tumbles."""

    animation: DiceAnimation
    headline: str
    pair: str
    fighters: tuple[FighterDie, FighterDie]
    rolling: int
    scheme: str
    result: str = ""  # the pair's result, once both dice are down ('' after the first die)
    losses: str = ""  # what the pair costs each derp
    after: tuple[str, ...] = ()  # the fight is over: how each derp came out of it
    next_roller: str = ""  # who rolls next in this pair ('' once the pair is settled)
    owner: Optional[int] = None  # the program of the derp who rolled
    roll_kind: str = "fight"

    def words(self) -> str:
        """Everything the landed card asks the table to read."""
        return " ".join((self.headline, self.pair, self.result, self.losses) + self.after)



def prompt_lines(text: str, width: int, size: int, readable: int, bold: bool = False) -> tuple:
    """(font, lines) for a card's prompt: one line at up to ``size`` px; when one line would need letters smaller
    than ``readable`` px, two lines at the largest size from ``size`` down to ``readable`` that holds them; only
    a text too long even for two readable lines is shrunk onto one."""
    font = fit_font(text, width, size, bold)
    if font.get_height() >= font_px(readable, bold).get_height():
        return font, [text]
    for px in range(size, readable - 1, -1):
        lines = wrap_text(text, font_px(px, bold), width)
        if len(lines) <= 2:
            return font_px(px, bold), lines
    return font, [text]

class RollPanel:
    """Owns the roll card's widgets and drawing; the FieldScene asks it what to show."""

    READY_SIZE = (720, 300)
    FIGHT_SIZE = (760, 340)  # a derp fight's die
    FIGHT_READY_SIZE = (720, 330)  # a ship fight's dice
    FIGHT_ROLL_SIZE = (780, 560)  # a derp fight's die tumbling and the pair's result
    ROLL_SIZE = (780, 600)

    def __init__(self, scene) -> None:
        self.scene = scene
        self.show: Optional[RollShow] = None
        self.buttons: dict[pygame_gui.elements.UIButton, object] = {}
        # Rows of help buttons on the settled card (``rebuild``'s grid, 0 without them): the card grows by a row
        # for each after the first, and the prompt sits above them.
        self.help_rows = 0
        self._key: object = None
        self.landed_for = 0.0  # seconds the dice have been still
        self._texts: dict = {}
        self.spots: list = []  # invisible widgets whose tooltips explain the card's rule words (glossary)
        self._best_help: Optional[tuple] = None  # (state, the engine's best help for its rolled value)
        self._still: Optional[tuple] = None  # (key, screen size, the settled card as drawn, what the key names)
        self._seen: Optional[tuple] = None  # the still key of the card drawn last (copied when seen twice)
        self._tumble_copy: Optional[tuple] = None  # ((tumble key, screen size), the card drawn whole this roll)
        # Where the last card drawn put its headline and its program's marker (tests check they keep apart)
        self.head_drawn: Optional[pygame.Rect] = None
        self.owner_drawn: Optional[pygame.Rect] = None

    # ------------------------------------------------------------------ what to show
    @property
    def engine(self):
        return self.scene.session.engine

    def pending(self, state) -> Optional[str]:
        """'ready' (dice to roll), 'coin', 'help' (a rolled value waiting for choices), 'choice', 'fight' (a derp
        fight's die to roll), 'ship_fight' (a ship fight's dice to roll), or None."""
        flight = state.flight if state.phase == "flight" else None
        if flight is None:
            return None
        if flight.timing_tie:
            return "coin"
        if fight_card.fight_roll(state) is not None:
            return "ship_fight"
        if flight.roll is not None:
            return "ready" if flight.roll.value is None else "help"
        if flight.choice is not None:
            return "choice"
        fight = getattr(flight, "fight", None)
        if fight is not None and not fight.to_pick:
            return "fight"  # Space War: a derp fight's die
        return None

    @property
    def animating(self) -> bool:
        return self.show is not None and not self.show.animation.done

    def visible(self, state) -> bool:
        return self.show is not None or self.pending(state) in ("ready", "coin", "help", "choice", "fight", "ship_fight")

    def start(self, before: "GameState", value: int, after: "GameState", time_factor: float) -> None:
        """Animate a roll that just happened: ``before`` had the pending roll (a reliability roll, a ship
        fight's dice or a derp fight's die), ``after`` is the result."""
        if fight_card.fight_roll(before) is not None:
            salt = len(self.scene.session.actions)
            self.show = fight_card.show_for(self.engine, before, value, time_factor, salt)  # type: ignore[assignment]
            self.landed_for = 0.0
            self._key = None
            return
        roll = before.flight.roll
        if roll is None:
            self.show = self.fight_show(before, value, after, time_factor)
            self.landed_for = 0.0
            self._key = None
            return
        odds = self.engine.flight_rules.roll_odds(before)
        dice = dice_roll_for(self.engine, before, roll, value, odds)
        headline, detail = roll_caption(self.engine, before, roll)
        upgoer = before.find("upgoer", roll.upgoer)
        self.show = RollShow(dice, DiceAnimation(dice, time_factor), headline, detail, roll.kind,
                             upgoer.owner if upgoer is not None else None)
        self.landed_for = 0.0
        self._key = None

    def fight_show(self, before: "GameState", value: int, after: "GameState", time_factor: float) -> DerpFightShow:
        """The card for a derp fight's die just rolled: ``before`` waited for it, ``after`` is the result."""
        rules = self.engine.flight_rules
        fight = before.flight.fight
        first, second, mutual = fight.pairs[0]
        a, b = before.derp(first), before.derp(second)
        scheme = self.engine.rules.dice.scheme(before.setup.dice)
        dice = fight.dice + (value,)
        fighters = tuple(FighterDie(d.name, before.programs[d.owner], rules.fight_bonus(before, d),
                                    dice[n] if n < len(dice) else None,
                                    tuple(scheme.faces_for(dice[n])) if n < len(dice) else ())
                         for n, d in enumerate((a, b)))
        attacker, defender = before.find("upgoer", fight.attacker), before.find("upgoer", fight.defender)
        total_pairs = len(rules.fight_pairs(fight.picks))
        number = total_pairs - len(fight.pairs) + 1
        pair = (f"{a.name} and {b.name} go for each other" if mutual else f"{a.name} goes for {b.name}")
        show = DerpFightShow(
            DiceAnimation(DiceFaces(scheme.dice, scheme.sides, tuple(scheme.faces_for(value))), time_factor),  # type: ignore[arg-type]
            f"Derp fight: {attacker.name if attacker else '?'} against {defender.name if defender else '?'}",
            f"{pair} (pair {number} of {total_pairs})", fighters, len(fight.dice), scheme.name,
            owner=(a if not fight.dice else b).owner)
        if len(dice) < 2:
            show.next_roller = b.name
            return show
        ta, tb = dice[0] + fighters[0].bonus, dice[1] + fighters[1].bonus
        lose_a, lose_b = rules.pair_losses(before, a, b, mutual, ta, tb)
        if ta > tb:
            show.result = f"{b.name} takes a beating!"
        elif mutual and tb > ta:
            show.result = f"{a.name} takes a beating!"
        elif mutual:
            show.result = "An even match!"
        else:
            show.result = f"{b.name} holds {a.name} off!"
        show.losses = f"{a.name} loses {lose_a} stamina, {b.name} loses {lose_b}."
        if after.flight is not None and after.flight.fight is not None:
            show.losses += " Losses land together when the last pair has rolled."
        else:
            show.after = self.fight_aftermath(before, after)
        return show

    @staticmethod
    def fight_aftermath(before: "GameState", after: "GameState") -> tuple[str, ...]:
        """How each derp of the fight came out of it, as the losses landed (``before``: the last die waiting)."""
        fight = before.flight.fight
        out = []
        for old in before.derps:
            if old.location not in (fight.attacker, fight.defender) or old.dead:
                continue
            new = after.derp(old.id)
            if new.dead:
                out.append(f"{old.name} dies of the beating.")
            elif new.injured and not old.injured:
                out.append(f"{old.name} is injured.")
            elif new.current_stamina != old.current_stamina:
                out.append(f"{old.name} is down to {new.current_stamina} stamina (from {old.current_stamina}).")
        return tuple(out) or ("Nobody is hurt.",)

    def settled_by(self, before: "GameState", action) -> None:
        """``action`` (accepting, a help spend, a kept reroll) settled the rolled roll of ``before``: the card's
        dice become the roll as it was judged, so the word on the card and the board's effect tell how it
        ended (a spend that makes a Fail OK settles it at once, before the card ever draws it moved)."""
        roll = judged_roll(self.engine, before, action)
        if not isinstance(self.show, RollShow) or roll is None:
            return
        self.show.dice = dice_roll_for(self.engine, before, roll, roll.value, self.engine.flight_rules.roll_odds(before))

    def dismiss(self) -> None:
        self.show = None
        self._key = None

    def update(self, dt: float) -> None:
        if self.show is not None:
            self.show.animation.update(dt)
            if self.show.animation.done:
                self.landed_for += dt

    # ------------------------------------------------------------------ layout
    def card_rect(self, state) -> pygame.Rect:
        layout = self.scene.context.layout
        area = self.scene.board_rect
        if isinstance(self.show, DerpFightShow):
            w, h = self.FIGHT_ROLL_SIZE
            rect = pygame.Rect(0, 0, min(layout.px(w), area.w - layout.px(16)), min(layout.px(h), area.h - layout.px(8)))
            rect.center = area.center
            return rect
        if self.show is None and self.pending(state) == "fight":
            w, h = self.FIGHT_SIZE
            rect = pygame.Rect(0, 0, min(layout.px(w), area.w - layout.px(16)), min(layout.px(h), area.h - layout.px(16)))
            rect.midbottom = (area.centerx, area.bottom - layout.px(12))
            return rect
        if self.show is None and self.pending(state) == "ship_fight":
            w, h = self.FIGHT_READY_SIZE
            rect = pygame.Rect(0, 0, min(layout.px(w), area.w - layout.px(16)), min(layout.px(h), area.h - layout.px(8)))
            rect.midbottom = (area.centerx, area.bottom - layout.px(12))
            return rect
        if self.show is None and self.pending(state) in ("ready", "coin"):
            w, h = self.READY_SIZE
            rect = pygame.Rect(0, 0, min(layout.px(w), area.w - layout.px(16)), layout.px(h))
            rect.midbottom = (area.centerx, area.bottom - layout.px(12))
            return rect
        w, h = self.ROLL_SIZE
        if isinstance(self.show, fight_card.FightShow):  # a row of dice needs less room than the band bar
            h = min(h, 330 + 100 * ((self.show.animation.roll.dice + 7) // 8))
        extra = 0
        if self.pending(state) in ("help", "choice") and self.show is not None and self.show.animation.done:
            extra = 50 * max(0, self.help_rows - 1)
        # as tall as the board at most (at 1280x720 the settled card is: its words need every unit of it)
        rect = pygame.Rect(0, 0, min(layout.px(w), area.w - layout.px(16)), min(layout.px(h + extra), area.h))
        rect.center = area.center
        return rect

    def rebuild(self, state, actions: list, can_act: bool) -> None:
        """(Re)create the card's buttons when what they offer changed."""
        mode = self.pending(state)
        landed = self.show is None or self.show.animation.done
        key = (id(state), mode, landed, self.show is not None, can_act, self.scene.context.layout)
        if key == self._key:
            return
        self._key = key
        self.clear()
        layout = self.scene.context.layout
        manager = self.scene.context.manager
        card = self.card_rect(state)
        pad = layout.px(24)
        self._add_spots(state, mode, card, pad)
        if not can_act:
            return
        if self.show is None and mode == "fight":
            rect = layout.corner_rect(card, 220, 50, 24, 18)
            self._add(rect, "Roll (Space)", "roll", "Roll this derp's die now: the result is drawn from exactly the "
                                                    "odds shown.", "@menu_button")
            return
        if self.show is None and mode in ("ready", "coin", "ship_fight"):
            rect = layout.corner_rect(card, 220, 50, 24, 18)
            self._add(rect, "Toss the coin (Space)" if mode == "coin" else "Roll (Space)", "roll",
                      "Roll the dice now: the result is drawn from exactly the odds shown.", "@menu_button")
            return
        if not landed:
            return
        if isinstance(self.show, DerpFightShow):
            rect = layout.corner_rect(card, 260, 48, 24, 18)
            roller = self.show.next_roller
            if roller and mode == "fight":
                self._add(rect, f"{roller} rolls (Space)", "continue", f"Roll {roller}'s die now.", "@menu_button")
            else:
                self._add(rect, "Continue", "continue", "Back to the Field (Space).", "@menu_button")
            return
        if mode in ("help", "choice"):
            options = [a for a in actions if isinstance(a, HELP_ACTIONS)]
            options.sort(key=lambda a: isinstance(a, AcceptRoll))
            fit = font_px(layout.px(18), True)  # the '@segment' buttons' font (assets/theme.json)
            variants = [label_variants(self.engine, state, action) for action in options]
            cols, self.help_rows = self._help_grid(card, [labels[-1] for labels in variants], fit)
            card = self.card_rect(state)  # grown by the rows after the first
            bw = self._button_width(card, cols)
            top = card.bottom - layout.px(18) - self.help_rows * layout.px(48) + layout.px(6)
            for n, (action, labels) in enumerate(zip(options, variants)):
                label, why = describe_action(self.engine, state, action)
                label = next((t for t in labels if fit.size(t)[0] <= bw - layout.px(16)), labels[-1])
                r, c = divmod(n, cols)
                rect = pygame.Rect(card.left + pad + c * (bw + layout.px(8)), top + r * layout.px(48), bw, layout.px(42))
                self._add(rect, label, action, why or None, "@segment")
                self._explain_button(state, action, why)
        elif self.show is not None:
            rect = layout.corner_rect(card, 200, 48, 24, 18)
            self._add(rect, "Continue", "continue", "Back to the Field (Space).", "@menu_button")

    def _button_width(self, card: pygame.Rect, cols: int) -> int:
        layout = self.scene.context.layout
        return (card.w - 2 * layout.px(24) - (cols - 1) * layout.px(8)) // cols

    def _help_grid(self, card: pygame.Rect, shortest: list[str], font) -> tuple[int, int]:
        """(columns, rows) of the help buttons: the fewest rows, then the fewest columns (the widest buttons),
        up to what the card holds (3 columns, 2 on a narrow card), in which every button's shortest label
        fits whole ('Pip: Engineering to 15 (Fail)', never 'Eng.'); one column if none does."""
        layout = self.scene.context.layout
        most = max(1, min(len(shortest), 3 if card.w >= layout.px(700) else 2))
        for rows, cols in sorted((-(-len(shortest) // cols), cols) for cols in range(1, most + 1)):
            room = self._button_width(card, cols) - layout.px(16)
            if all(font.size(text)[0] <= room for text in shortest):
                return cols, rows
        return 1, len(shortest)

    def _add(self, rect, text, what, tooltip, class_id) -> None:
        button = pygame_gui.elements.UIButton(rect, text, self.scene.context.manager, container=self.scene.root,
                                              tool_tip_text=tooltip,
                                              object_id=ObjectID(object_id="#roll_panel", class_id=class_id))
        self.buttons[button] = what

    def clear(self) -> None:
        for button in self.buttons:
            button.kill()
        self.buttons.clear()
        self.help_rows = 0
        for spot in self.spots:
            spot.kill()
        self.spots = []

    # ------------------------------------------------------------------ rule words explained on hover
    def _add_spots(self, state, mode, card: pygame.Rect, pad: int) -> None:
        """Hover spots over the headline (what kind of roll) and the bands (OK, Fail, Boom)."""
        from game.client.whatgoesup import glossary

        layout, rules = self.scene.context.layout, self.engine.rules
        for spot in self.spots:
            spot.kill()
        self.spots = []
        roll = state.flight.roll if state.flight is not None else None
        if roll is None or mode == "coin" or self.scene.root is None:
            return
        inner_w = card.w - 2 * pad
        term = glossary.term_for_roll(roll.kind)
        if term is not None:
            head = pygame.Rect(card.left + pad, card.top + layout.px(14), inner_w - layout.px(200), layout.px(40))
            self.spots.append(glossary.hotspot(head, term, rules, self.scene.context, self.scene.root))
        if self.show is None and mode == "ready":
            bands = pygame.Rect(card.left + pad, card.top + layout.px(100), inner_w, layout.px(110))
        else:
            bands = pygame.Rect(card.left + pad, card.top + layout.px(312), inner_w, layout.px(140))
        terms = ["OK", "Fail", "Boom"] + (["cluster"] if roll.dice_sets > 1 else [])
        self.spots.append(glossary.hotspot(bands, terms, rules, self.scene.context, self.scene.root))

    def _explain_button(self, state, action, why: str) -> None:
        """A help button's tooltip also explains its rule word; Accept says what accepting does."""
        from game.client.whatgoesup import glossary

        button = next((b for b, a in self.buttons.items() if a is action), None)
        if button is None:
            return
        layout, rules = self.scene.context.layout, self.engine.rules
        if isinstance(action, UseLuck):
            glossary.attach(button, "luck", rules, layout, why)
        elif isinstance(action, UseRcsBoost):
            glossary.attach(button, "RCS", rules, layout, why)
        elif isinstance(action, UseSkill):
            skill = "Engineering" if "engineering" in str(getattr(action, "skill", "")).lower() else "Piloting"
            glossary.attach(button, [skill, "stamina"], rules, layout, why)
        elif isinstance(action, AcceptRoll):
            text = self.accept_text(state, full=True)
            if text:
                glossary.attach(button, [], rules, layout, ((why + " ") if why else "") + text)

    def accept_text(self, state, full: bool = False) -> str:
        """'If you accept this Fail, ...' for the roll waiting for help ('' if there is none or it is OK); ``full``
        says first why the roll is a Fail or Boom."""
        from game.client.whatgoesup.explain import accept_sentence, why_words

        flight = state.flight if state.phase == "flight" else None
        roll = flight.roll if flight is not None else None
        if roll is None or roll.value is None:
            return ""
        dice = dice_roll_for(self.engine, state, roll, roll.value, self.engine.flight_rules.roll_odds(state))
        if dice.outcome == "ok":
            return ""
        words = accept_sentence(self.engine.rules, roll.kind, dice.outcome)
        if words and full:
            return f"{why_words(dice.outcome, dice.counted, dice.fail_safety, dice.boom_safety)} {words}"
        return words

    def forget_buttons(self) -> None:
        """The scene's widgets were rebuilt: ours are gone with them."""
        self.buttons.clear()
        self.spots = []
        self._key = None

    def what_for(self, element) -> object:
        return self.buttons.get(element)

    # ------------------------------------------------------------------ drawing
    def draw(self, surface: pygame.Surface, state, dice: bool = True) -> None:
        """Paint the card (through ``surface``'s clip); with ``dice`` False a card whose dice tumble leaves
        out the bands where they move (the caller paints those next)."""
        if not self.visible(state):
            return
        layout = self.scene.context.layout
        card = self.card_rect(state)
        tumble = self._tumble_key(state, card)
        if (tumble is not None and self._tumble_copy is not None and self._tumble_copy[0] == (tumble, surface.get_size())
                and self._tumble_bands(card) is not None):
            self._draw_tumbling(surface, state, card, self._tumble_copy[1], dice)
            return
        key, still = self._still_key(state, card), self._still
        if key is not None and still is not None and still[0] == key and still[1] == surface.get_size():
            cached_card(surface, card, layout, middle=False)
            still[2].paint(surface, card)
            return
        cached_card(surface, card, layout)
        self._draw_card_words(surface, state, card)
        key = self._still_key(state, card)
        if key is not None and key == self._seen and surface.get_rect().contains(card):
            # copied once the same card has been drawn twice running: a card of one frame (before its
            # buttons are laid out) costs no copy (~17 MB at 4K)
            self._still = None  # the old copy goes before the new one is made (peak memory)
            self._still = (key, surface.get_size(), self._copy(surface, card), state, self.show)
        else:
            self._still = None
        self._seen = key
        self._tumble_copy = None  # the old copy goes before a new one is made (peak memory)
        if tumble is not None and surface.get_clip() == surface.get_rect() and surface.get_rect().contains(card):
            # the card as drawn whole while its dice tumble: all of it but the dice's band stays so until they land
            self._tumble_copy = ((tumble, surface.get_size()), self._copy(surface, card, self._tumble_bands(card) or ()))

    def _copy(self, surface: pygame.Surface, card: pygame.Rect, repainted=()) -> CardCopy:
        """The card just drawn whole on ``surface``, kept to be copied back over its still pieces but for the
        ``repainted`` parts (the bands of tumbling dice, painted again after each copy)."""
        return CardCopy(surface, card, self._still_pieces(card), card_middle(card, self.scene.context.layout),
                        repainted)

    def _draw_tumbling(self, surface: pygame.Surface, state, card: pygame.Rect, copy: CardCopy,
                       dice: bool) -> None:
        """A card whose dice tumble, the same as drawn whole: its chrome, the still parts copied from ``copy``
        (the card drawn whole at this roll), then (with ``dice``) its bands (headline and dice) painted again."""
        layout = self.scene.context.layout
        cached_card(surface, card, layout, middle=False)
        copy.paint(surface, card)
        if not dice:
            return
        clip = surface.get_clip()
        inner = card.inflate(-2 * layout.px(24), 0)
        area = self._dice_area(card)
        for band in self._tumble_bands(card):
            surface.set_clip(clip.clip(band))
            if surface.get_clip().w and surface.get_clip().h:
                surface.fill(CARD, band)
                self._draw_rolled_head(surface, state, card, inner)
                draw_dice_row(surface, pygame.Rect(area.left, area.top, area.w, dice_row_height(layout)), layout,
                              self.show.animation, dice_size(layout, self.show.animation.roll))
        surface.set_clip(clip)

    def _tumble_bands(self, card: pygame.Rect) -> Optional[tuple[pygame.Rect, pygame.Rect]]:
        """The parts of a card that change while its dice tumble (a lone d20 hops into the headline): the
        headline's band right of the program's marker, and the dice's row across the card's plain middle
        (the end dice may spin past their row). None when the card's middle is not plain."""
        layout = self.scene.context.layout
        middle = card_middle(card, layout)
        if middle is None:
            return None
        dice = self._dice_area(card)
        row_top = dice.top - layout.px(16)  # below the program's marker, above the highest end die
        left = dice.left + layout.px(OWNER_MARKER + OWNER_GAP // 2)  # the marker before the headline stays still
        head = pygame.Rect(left, middle.top, middle.right - left, row_top - middle.top)
        row = pygame.Rect(middle.left, row_top, middle.w, dice.top + dice_row_height(layout) - row_top)
        return head.clip(middle), row.clip(middle)

    def still_rect(self, state, surface: pygame.Surface) -> Optional[pygame.Rect]:
        """Where the card paints (its shadow included) when this frame's card is the still copy of the last
        one; None when it must be painted again (or while its dice move)."""
        card = self.card_rect(state)
        key, still = self._still_key(state, card), self._still
        if key is None or still is None or still[0] != key or still[1] != surface.get_size():
            return None
        margin = self.scene.context.layout.px(24)
        return card.inflate(2 * margin, 2 * margin)

    def tumble_rect(self, state, surface: pygame.Surface) -> Optional[tuple[pygame.Rect, tuple[pygame.Rect, ...]]]:
        """While a roll's dice tumble on a card drawn whole earlier in this roll (only the dice move on it):
        (where the card paints, its shadow included; the bands of it to draw again: the dice and the words
        above them). None when the card must be drawn whole."""
        card = self.card_rect(state)
        key = self._tumble_key(state, card)
        if key is None or self._tumble_copy is None or self._tumble_copy[0] != (key, surface.get_size()):
            return None
        bands = self._tumble_bands(card)
        if bands is None:
            return None
        margin = self.scene.context.layout.px(24)
        return card.inflate(2 * margin, 2 * margin), bands

    def _tumble_key(self, state, card: pygame.Rect) -> Optional[tuple]:
        """What a card with tumbling dice depends on apart from the dice (None when no roll's dice tumble)."""
        show = self.show
        if type(show) is not RollShow or show.animation.done:
            return None
        return (id(state), id(show), self.pending(state), tuple(card), self.scene.context.layout, len(self.buttons))

    def _dice_area(self, card: pygame.Rect) -> pygame.Rect:
        """Where a roll's dice, total, band bar and legend go on the card."""
        layout = self.scene.context.layout
        pad = layout.px(24)
        return pygame.Rect(card.left + pad, card.top + layout.px(86), card.w - 2 * pad, layout.px(330))

    def forget_still(self) -> None:
        """Paint the card's words again on the next frame instead of copying them."""
        self._still = None
        self._tumble_copy = None

    def _still_key(self, state, card: pygame.Rect) -> Optional[tuple]:
        """What a settled card's words and dice depend on (the state, the roll shown, the card and its buttons),
        or None while something on it moves (dice tumbling, a fight's dice)."""
        show, mode = self.show, self.pending(state)
        if show is None and mode not in ("ready", "coin"):
            return None
        if show is not None and (type(show) is not RollShow or not show.animation.done):
            return None
        return (id(state), id(show), mode, tuple(card), self.scene.context.layout, len(self.buttons))

    def _still_pieces(self, card: pygame.Rect) -> tuple[pygame.Rect, ...]:
        """The card's opaque area in three rectangles: all of it but its four rounded corners, whose pixels
        let the Field show through and so are painted with the card's rim every frame."""
        r = self.scene.context.layout.px(18) + 1
        return (pygame.Rect(card.left, card.top + r, card.w, card.h - 2 * r),
                pygame.Rect(card.left + r, card.top, card.w - 2 * r, r),
                pygame.Rect(card.left + r, card.bottom - r, card.w - 2 * r, r))

    def _draw_card_words(self, surface: pygame.Surface, state, card: pygame.Rect) -> None:
        """Everything on the card over its chrome: the words, the odds and the dice."""
        layout = self.scene.context.layout
        pad = layout.px(24)
        inner = card.inflate(-2 * pad, 0)
        mode = self.pending(state)
        if self.show is None and mode == "coin":
            names = ", ".join(state.upgoer(u).name for u in state.flight.timing_tie if state.find("upgoer", u))
            head = font_px(layout.px(26), True)
            draw_text(surface, "Who goes first?", head, ACCENT_LIGHT, (inner.left, card.top + layout.px(18)))
            body = fit_font(f"{names} are tied for first.", inner.w, layout.px(19))
            draw_text(surface, f"{names} are tied for first.", body, INK, (inner.left, card.top + layout.px(64)))
            sub = "Same reliability, same budget: a coin decides (each equally likely)."
            draw_text(surface, sub, fit_font(sub, inner.w, layout.px(17)), INK_DIM, (inner.left, card.top + layout.px(98)))
            return
        if self.show is None and mode == "ready":
            self._draw_ready(surface, state, card, inner)
            return
        if self.show is None and mode == "fight":
            self._draw_fight(surface, state, card, inner)
            return
        if self.show is None and mode == "ship_fight":
            fight_card.draw_ready(surface, self.engine, state, card, inner, layout)
            return
        if isinstance(self.show, fight_card.FightShow):
            fight_card.draw_rolled(surface, state, self.show, card, inner, layout)
            return
        if isinstance(self.show, DerpFightShow):
            self._draw_fight_show(surface, card, inner)
            return
        if self.show is None:
            # A choice or help with no animation of ours (e.g. a loaded game): show the roll as it stands.
            roll = state.flight.roll
            if roll is not None and roll.value is not None:
                odds = self.engine.flight_rules.roll_odds(state)
                dice = dice_roll_for(self.engine, state, roll, roll.value, odds)
                headline, detail = roll_caption(self.engine, state, roll)
                anim = DiceAnimation(dice, 0.0)
                upgoer = state.find("upgoer", roll.upgoer)
                self.show = RollShow(dice, anim, headline, detail, roll.kind,
                                     upgoer.owner if upgoer is not None else None)
                self.landed_for = 1.0
            else:
                self._draw_choice_only(surface, state, card, inner)
                return
        self._draw_rolled(surface, state, card, inner)

    def _head_indent(self) -> int:
        """How far right of the card's inner edge a headline with its program's marker before it starts."""
        return self.scene.context.layout.px(OWNER_MARKER + OWNER_GAP)

    def _draw_program_head(self, surface, program, inner: pygame.Rect, centre_y: int) -> None:
        """``program``'s marker in its colour at the start of the headline row, clear of the card's rim and
        the words after it (kept in ``owner_drawn``): in hot-seat everyone watches, so the card says whose
        roll it is."""
        layout = self.scene.context.layout
        radius = layout.px(OWNER_MARKER) / 2
        self.owner_drawn = draw_program_marker(surface, program.index, (inner.left + radius, centre_y), radius,
                                               program_colour(program))

    def _draw_owner(self, surface, state, roll, inner: pygame.Rect, centre_y: int) -> None:
        """The rolling craft's program's marker before the headline (``_draw_program_head``)."""
        upgoer = state.find("upgoer", roll.upgoer) if roll is not None else None
        if upgoer is None:
            return
        self._draw_program_head(surface, state.programs[upgoer.owner], inner, centre_y)

    def _draw_ready(self, surface, state, card, inner) -> None:
        layout = self.scene.context.layout
        roll = state.flight.roll
        headline, detail = roll_caption(self.engine, state, roll)
        indent = self._head_indent()
        head = fit_font(headline, inner.w - indent, layout.px(26), bold=True)
        top = card.top + layout.px(16)
        self.head_drawn = draw_text(surface, headline, head, ACCENT_LIGHT, (inner.left + indent, top))
        self._draw_owner(surface, state, roll, inner, card.top + layout.px(16) + head.get_height() // 2)
        rating = roll.effective()
        scheme = self.engine.rules.dice.scheme(state.setup.dice)
        sub = f"{detail} · {scheme.name} against Fail {rating.fail} / Boom {rating.boom}"
        sub_font = fit_font(sub, inner.w, layout.px(17))
        draw_text(surface, sub, sub_font, INK_DIM, (inner.left, card.top + layout.px(16) + head.get_linesize()))
        odds = self.engine.flight_rules.roll_odds(state)
        dice = dice_roll_for(self.engine, state, roll, None, odds)
        bar = pygame.Rect(inner.left, card.top + layout.px(100), inner.w, layout.px(120))
        bottom = draw_band_bar(surface, bar, layout, dice)
        helped = self.help_odds(state)
        if helped is not None and helped != odds:
            room = inner.w - layout.px(240)
            lead = f"With {self.help_kinds(state)} spent well after the dice land:"
            draw_text(surface, lead, fit_font(lead, room, layout.px(15)), INK_DIM,
                      (inner.left, card.bottom - layout.px(56)), anchor="midleft")
            text = "  ".join(f"{o.label} {percent_text(p)}" for o, p in helped.items())
            draw_text(surface, text, fit_font(text, room, layout.px(19), bold=True), INK,
                      (inner.left, card.bottom - layout.px(32)), anchor="midleft")
        elif roll.helpable:
            text = "Skills, RCS and luck can be spent after the dice land."
            font = fit_font(text, inner.w - layout.px(240), layout.px(16))
            draw_text(surface, text, font, INK_DIM, (inner.left, card.bottom - layout.px(43)), anchor="midleft")

    def fight_words(self, state) -> Optional[dict]:
        """What the fight card says, in words (None when no fight's die is waiting): the headline, the pair, each
        derp's die line, whose die is next, and the pair's exact odds as (words, probability, program) rows."""
        flight = state.flight if state.phase == "flight" else None
        fight = getattr(flight, "fight", None) if flight is not None else None
        if fight is None or fight.to_pick or not fight.pairs:
            return None
        rules = self.engine.flight_rules
        first, second, mutual = (state.derp(fight.pairs[0][0]), state.derp(fight.pairs[0][1]), fight.pairs[0][2])
        attacker, defender = state.find("upgoer", fight.attacker), state.find("upgoer", fight.defender)
        scheme = self.engine.rules.dice.scheme(state.setup.dice)
        total_pairs = len(rules.fight_pairs(fight.picks))
        number = total_pairs - len(fight.pairs) + 1
        headline = (f"Derp fight: {attacker.name if attacker else '?'} against {defender.name if defender else '?'}")
        pair = (f"{first.name} and {second.name} go for each other" if mutual else f"{first.name} goes for {second.name}")
        pair += f" (pair {number} of {total_pairs})"
        lines = []
        for n, derp in enumerate((first, second)):
            bonus = rules.fight_bonus(state, derp)
            rolled = (f"rolled {fight.dice[n]}, total {fight.dice[n] + bonus}" if n < len(fight.dice)
                      else ("rolls now" if n == len(fight.dice) else "rolls next"))
            lines.append((f"{derp.name}: {scheme.name} + {bonus} Piloting, {rolled}", state.programs[derp.owner]))
        odds = rules.fight_odds(state) or {}
        war = self.engine.rules.space_war.derp_fights
        first_word = f"{second.name} takes a beating (-{war.beaten_loss})"
        rows = [(first_word, odds.get("first", Fraction(0)), state.programs[first.owner])]
        if mutual:
            rows.append((f"{first.name} takes a beating (-{war.beaten_loss})", odds.get("second", Fraction(0)),
                         state.programs[second.owner]))
            rows.append(("A tie: nothing more", odds.get("even", Fraction(0)), None))
        else:
            rows.append((f"{second.name} holds on: nothing more", odds.get("even", Fraction(0)),
                         state.programs[second.owner]))
        roller = first if not fight.dice else second
        note = f"Both lose {war.brawl_loss} stamina whatever the dice; losses land when the last pair has rolled."
        last = next((e.text for e in reversed(state.events) if e.kind == "war" and " Piloting = " in e.text), "")
        return {"headline": headline, "pair": pair, "lines": lines, "rows": rows, "note": note,
                "owner": state.programs[roller.owner], "last": f"Last pair: {last}" if last else ""}

    def _draw_fight(self, surface, state, card, inner) -> None:
        """A derp fight's die: the pair, each derp's die and Piloting, and the pair's exact odds as a bar."""
        layout = self.scene.context.layout
        words = self.fight_words(state)
        if words is None:
            return
        y = card.top + layout.px(16)
        indent = self._head_indent()
        head = fit_font(words["headline"], inner.w - indent, layout.px(26), bold=True)
        self.head_drawn = draw_text(surface, words["headline"], head, ACCENT_LIGHT, (inner.left + indent, y))
        self._draw_program_head(surface, words["owner"], inner, y + head.get_height() // 2)
        y += head.get_linesize()
        sub = fit_font(words["pair"], inner.w, layout.px(19), bold=True)
        draw_text(surface, words["pair"], sub, INK, (inner.left, y))
        y += sub.get_linesize() + layout.px(4)
        for text, program in words["lines"]:
            font = fit_font(text, inner.w - layout.px(28), layout.px(17))
            draw_program_marker(surface, program.index, (inner.left + layout.px(8), y + font.get_height() // 2),
                                layout.px(7), program_colour(program))
            draw_text(surface, text, font, INK, (inner.left + layout.px(24), y))
            y += font.get_linesize()
        y += layout.px(10)
        bar = pygame.Rect(inner.left, y, inner.w, layout.px(26))
        x = bar.left
        for n, (text, p, program) in enumerate(words["rows"]):
            w = int(bar.w * p) if n < len(words["rows"]) - 1 else bar.right - x
            colour = program_colour(program) if program is not None else INK_DIM
            if w > 0:
                pygame.draw.rect(surface, colour, pygame.Rect(x, bar.top, w, bar.h))
            x += w
        pygame.draw.rect(surface, SHADOW, bar, max(2, layout.px(2)), border_radius=layout.px(4))
        y = bar.bottom + layout.px(8)
        row_font = font_px(layout.px(17))
        for text, p, program in words["rows"]:
            line = f"{text}: {percent_text(p)}"
            font = fit_font(line, inner.w - layout.px(28), layout.px(17))
            swatch = pygame.Rect(inner.left, y + layout.px(3), layout.px(16), layout.px(16))
            pygame.draw.rect(surface, program_colour(program) if program is not None else INK_DIM, swatch)
            draw_text(surface, line, font, INK, (swatch.right + layout.px(10), y))
            y += row_font.get_linesize()
        if words["last"]:  # the pair just settled, until the next die: the story line has it too
            from game.client.kit.style import wrap_text

            last_font = font_px(layout.px(15))
            room = card.bottom - layout.px(72) - y
            for line in wrap_text(words["last"], last_font, inner.w)[:max(0, room // last_font.get_linesize())]:
                draw_text(surface, line, last_font, ACCENT_LIGHT, (inner.left, y))
                y += last_font.get_linesize()
        note = fit_font(words["note"], inner.w - layout.px(240), layout.px(15))
        draw_text(surface, words["note"], note, INK_DIM, (inner.left, card.bottom - layout.px(43)), anchor="midleft")

    def _draw_fight_show(self, surface, card, inner) -> None:
        """A fight's die tumbling onto its value beside the other derp's, then the pair's result in words."""
        layout = self.scene.context.layout
        show: DerpFightShow = self.show  # type: ignore[assignment]
        anim = show.animation
        drawn = self.fight_drawn = []  # what this frame painted where (tests check nothing overlaps or clips)
        y = card.top + layout.px(16)
        indent = self._head_indent() if show.owner is not None else 0
        head = fit_font(show.headline, inner.w - indent, layout.px(26), bold=True)
        drawn.append(draw_text(surface, show.headline, head, ACCENT_LIGHT, (inner.left + indent, y)))
        self.head_drawn = drawn[-1]
        if show.owner is not None:
            self._draw_program_head(surface, show.fighters[show.rolling].program, inner, y + head.get_height() // 2)
        y += head.get_linesize()
        sub = fit_font(show.pair, inner.w, layout.px(19), bold=True)
        drawn.append(draw_text(surface, show.pair, sub, INK, (inner.left, y)))
        y += sub.get_linesize() + layout.px(8)
        # What goes under the dice, bottom up: the hint or button row, the result block.
        bottom = card.bottom - layout.px(76)
        small = font_px(layout.px(16))
        result_font = font_px(layout.px(24), True)
        loss_font = font_px(layout.px(17))
        result_h = 0
        if anim.done and show.result:
            from game.client.kit.style import wrap_text

            result_h = result_font.get_linesize() + layout.px(4)
            loss_lines = wrap_text(show.losses, loss_font, inner.w)
            after_lines = wrap_text(" ".join(show.after), small, inner.w) if show.after else []
            result_h += len(loss_lines) * loss_font.get_linesize() + len(after_lines) * small.get_linesize()
        gap = layout.px(16)
        col_w = (inner.w - gap) // 2
        name_font = font_px(layout.px(18), True)
        total_font = font_px(layout.px(22), True)
        dice_h = max(layout.px(60), min(layout.px(150), bottom - result_h - layout.px(8) - y - name_font.get_linesize()
                                        - small.get_linesize() - total_font.get_linesize()))
        for n, fighter in enumerate(show.fighters):
            col = pygame.Rect(inner.left + n * (col_w + gap), y, col_w, 0)
            cy = col.top
            font = fit_font(fighter.name, col_w - layout.px(24), layout.px(18), bold=True)
            draw_program_marker(surface, fighter.program.index, (col.left + layout.px(8), cy + font.get_height() // 2),
                                layout.px(7), program_colour(fighter.program))
            drawn.append(draw_text(surface, fighter.name, font, INK, (col.left + layout.px(22), cy)))
            cy += name_font.get_linesize()
            what = f"{show.scheme} + {fighter.bonus} Piloting"
            drawn.append(draw_text(surface, what, fit_font(what, col_w, layout.px(16)), INK_DIM, (col.left, cy)))
            cy += small.get_linesize()
            area = pygame.Rect(col.left, cy, col_w, dice_h)
            rolling_now = n == show.rolling
            landed = not rolling_now or anim.done
            if rolling_now:
                draw_dice_row(surface, area, layout, anim, layout.px(110), WAR_COLOUR if anim.done else None)
            elif fighter.value is not None:
                still = DiceAnimation(DiceFaces(len(fighter.faces), anim.roll.sides, fighter.faces), 0.0)
                draw_dice_row(surface, area, layout, still, layout.px(110), WAR_COLOUR)
            drawn.append(area)
            cy = area.bottom
            if fighter.value is not None and landed:
                text = f"{fighter.value} + {fighter.bonus} = {fighter.value + fighter.bonus}"
                colour = ACCENT_LIGHT
            elif rolling_now:
                text, colour = "rolling…", INK_DIM
            else:
                text, colour = "rolls next", INK_DIM
            font = fit_font(text, col_w, layout.px(22), bold=True)
            drawn.append(draw_text(surface, text, font, colour, (col.centerx, cy), anchor="midtop"))
        y = y + name_font.get_linesize() + small.get_linesize() + dice_h + total_font.get_linesize() + layout.px(8)
        if result_h:
            from game.client.kit.style import wrap_text

            font = fit_font(show.result, inner.w, layout.px(24), bold=True)
            drawn.append(draw_text(surface, show.result, font, WAR_COLOUR, (inner.centerx, y), anchor="midtop",
                                   shadow=layout.px(2)))
            y += result_font.get_linesize() + layout.px(4)
            for line in wrap_text(show.losses, loss_font, inner.w):
                drawn.append(draw_text(surface, line, loss_font, INK, (inner.centerx, y), anchor="midtop"))
                y += loss_font.get_linesize()
            if show.after:
                for line in wrap_text(" ".join(show.after), small, inner.w):
                    drawn.append(draw_text(surface, line, small, ACCENT_LIGHT, (inner.centerx, y), anchor="midtop"))
                    y += small.get_linesize()
        if anim.done:
            hint = "The fight is over." if show.after else ""
        else:
            hint = "Space or click to skip"
        if hint:
            font = fit_font(hint, inner.w - layout.px(280), layout.px(16))
            drawn.append(draw_text(surface, hint, font, INK_DIM, (inner.left, card.bottom - layout.px(42)),
                                   anchor="midleft"))

    def odds_line(self, state) -> str:
        """The pending roll's exact odds in words, e.g. 'OK 50%  Fail 30%  Boom 20%' (empty if none)."""
        flight = state.flight if state.phase == "flight" else None
        if flight is None or flight.roll is None:
            return ""
        odds = self.engine.flight_rules.roll_odds(state)
        return "  ".join(f"{o.label} {percent_text(p)}" for o, p in odds.items())

    def help_odds(self, state) -> Optional[dict]:
        """The pending roll's exact odds if the crew makes the best of every bit of help it has (its derps'
        stamina, the RCS aboard, the program's luck): the same search the engine's spends follow."""
        roll = state.flight.roll
        upgoer = state.find("upgoer", roll.upgoer)
        if upgoer is None:
            return None
        try:
            plan = help_plan_for(self.engine, state, luck=state.programs[upgoer.owner].luck)
            return next_roll_odds(self.engine, state, plan)
        except Exception:  # noqa: BLE001 - planning help is a courtesy, never a crash
            return None

    def help_kinds(self, state) -> str:
        """What help the crew has for the pending roll, in words: 'skills and luck', 'the RCS', ..."""
        roll = state.flight.roll
        upgoer = state.find("upgoer", roll.upgoer)
        plan = help_plan_for(self.engine, state)
        kinds = (["skills"] if any(h.stamina and (h.engineering or h.piloting) for h in plan.crew) else []) + \
                (["the RCS"] if plan.rcs_boosts else []) + \
                (["luck"] if upgoer is not None and state.programs[upgoer.owner].luck else [])
        if not kinds:
            return "help"
        return kinds[0] if len(kinds) == 1 else ", ".join(kinds[:-1]) + " and " + kinds[-1]

    def best_help(self, state) -> tuple:
        """The engine's best help for the rolled value (kept per state: the card asks every frame)."""
        if self._best_help is None or self._best_help[0] is not state:
            self._best_help = (state, self.engine.flight_rules.best_help(state, state.flight.roll))
        return self._best_help[1]

    def help_prompt(self, state) -> str:
        """After a Fail or Boom: who can still save the roll, at what cost, and what it becomes, in words
        ("Boom for now: 2 stamina points can still make it OK (Zuzu's Engineering, then Pip's Piloting).")."""
        roll = state.flight.roll
        outcome, spends = self.best_help(state)
        if not spends:
            return "Not OK, and no skill can change it now: accept it, or reroll with luck if you have it."
        steps: list[list] = []  # [words, times], consecutive repeats counted
        for action in spends:
            if isinstance(action, UseSkill):
                derp = state.find("derp", action.derp)
                words = f"{derp.name.split()[0] if derp else '?'}'s {action.skill.capitalize()}"
            else:
                words = "the RCS"
            if steps and steps[-1][0] == words:
                steps[-1][1] += 1
            else:
                steps.append([words, 1])
        who = ", then ".join(w + ("" if n == 1 else " twice" if n == 2 else f" {n} times") for w, n in steps)
        points = sum(1 for a in spends if isinstance(a, UseSkill))
        puffs = len(spends) - points
        cost = " and ".join(part for part in (counted(points, "stamina point") if points else "",
                                              counted(puffs, "RCS use") if puffs else "") if part)
        return f"{roll.outcome().label} for now: {cost} can still make it {outcome.label} ({who})."

    def _draw_rolled_head(self, surface, state, card, inner) -> None:
        """The roll card's headline, detail line and the rolling program's marker."""
        layout = self.scene.context.layout
        show = self.show
        key = ("rolled-head", show.headline, show.detail, inner.w, layout)
        heads = self._texts.get(key)
        if heads is None:
            head = fit_font(show.headline, inner.w - layout.px(200) - self._head_indent(), layout.px(28), bold=True)
            sub_font = fit_font(show.detail, inner.w, layout.px(17))
            heads = (head.render(show.headline, True, ACCENT_LIGHT), sub_font.render(show.detail, True, INK_DIM),
                     head.get_linesize())
            self._texts = {key: heads}
        self.head_drawn = surface.blit(heads[0], (inner.left + self._head_indent(), card.top + layout.px(18)))
        surface.blit(heads[1], (inner.left, card.top + layout.px(18) + heads[2]))
        roll = state.flight.roll if state.flight is not None else None
        self._draw_owner(surface, state, roll, inner, card.top + layout.px(18) + heads[0].get_height() // 2)

    def _draw_rolled(self, surface, state, card, inner) -> None:
        layout = self.scene.context.layout
        show = self.show
        anim = show.animation
        self._draw_rolled_head(surface, state, card, inner)
        dice = show.dice
        roll = state.flight.roll if state.flight is not None else None
        if anim.done and roll is not None and roll.value is not None and self.pending(state) == "help":
            # Help spent since the dice landed moves the bands: redraw against the roll as it stands now.
            odds = self.engine.flight_rules.roll_odds(state)
            dice = dice_roll_for(self.engine, state, roll, roll.value, odds)
            if roll.value != show.dice.total and anim.done:
                show.dice = dice
                show.animation = DiceAnimation(dice, 0.0)
                anim = show.animation
            elif anim.done:
                show.dice = dice  # the same dice, moved by the help spent
            anim.roll = dice
        if anim.done:
            word = {"ok": "It works!", "fail": "Fail!", "boom": "BOOM!"}[dice.outcome]
            big = font_px(layout.px(32), True)
            draw_text(surface, word, big, BAND_COLOURS[dice.outcome], (inner.right, card.top + layout.px(20)),
                      anchor="topright", shadow=layout.px(2))
        area = self._dice_area(card)
        if not anim.done:
            draw_dice_roll(surface, area, layout, anim)
            hint = "Space or click to skip"
            draw_text(surface, hint, font_px(layout.px(15)), INK_DIM, (inner.left, card.bottom - layout.px(36)))
        else:
            mode = self.pending(state)
            accept = ""
            if mode == "help":
                if roll.previous is not None:
                    text = f"Luck rerolled: the old roll was {roll.previous}, the new one {roll.value}. Keep which?"
                else:
                    text = self.help_prompt(state)
                    accept = self.accept_text(state)
            elif mode == "choice":
                text = "The capsule Fails: choose what it costs you."
            else:
                text = "Space or click to go on."
            if mode in ("help", "choice"):  # the rescues listed whole: two lines rather than tiny letters
                font, prompt = prompt_lines(text, inner.w, layout.px(18), layout.px(16), bold=True)
            else:
                font, prompt = fit_font(text, inner.w, layout.px(18)), [text]
            # A prompt on two lines takes the room of the legend's 'rolls 1-10' line (the bar's ticks say it too).
            ranges = len(prompt) == 1
            draw_dice_roll(surface, area, layout, anim, ranges=ranges)
            legend_bottom = area.bottom + layout.px(38) - (0 if ranges else font_px(layout.px(16)).get_linesize())
            if mode not in ("help", "choice"):  # settled: under the legend, above 'Space or click to go on'
                top = legend_bottom
                self._draw_explanation(surface, show, dice, mode, pygame.Rect(
                    inner.left, top, inner.w, card.bottom - layout.px(58) - top))
            rows = max(1, self.help_rows) if mode in ("help", "choice") else 0
            last_line_y = card.bottom - layout.px(18) - rows * layout.px(48) - layout.px(30)
            if mode not in ("help", "choice"):
                last_line_y = card.bottom - layout.px(44)
            y = last_line_y - (len(prompt) - 1) * font.get_linesize()
            if accept:  # what accepting means, under the odds; in place of the prompt when there is no room
                from game.client.kit.text import draw_wrapped, ellipsize

                line_font = font_px(layout.px(16))
                top = legend_bottom
                lines = (y - layout.px(2) - top) // line_font.get_linesize()
                if lines >= 1:  # wrapped onto every line there is room for (a Fail's choices are read here)
                    draw_wrapped(surface, accept, line_font, BAND_COLOURS[dice.outcome],
                                 pygame.Rect(inner.left, top, inner.w, lines * line_font.get_linesize()), lines)
                elif not self.best_help(state)[1]:
                    # No room for both: what help can still do comes first (the Accept button's tooltip
                    # says what accepting means); with nothing left to spend, what accepting means.
                    text = accept
                    font = fit_font(text, inner.w, layout.px(17), bold=True, min_size=max(8, layout.px(15)))
                    prompt = [ellipsize(text, font, inner.w)]
            y = last_line_y - (len(prompt) - 1) * font.get_linesize()  # the prompt may have changed above
            for n, line in enumerate(prompt):
                draw_text(surface, line, font, INK, (inner.left, y + n * font.get_linesize()),
                          anchor="topleft" if rows else "midleft")

    def words_on_card(self, state) -> str:
        """Everything the settled card asks the table to read (headline, detail, the rule that applied)."""
        show = self.show
        if show is None:
            return ""
        if isinstance(show, fight_card.FightShow):
            return " ".join((show.headline, show.detail, show.words))
        if isinstance(show, DerpFightShow):
            return show.words()
        return " ".join((show.headline, show.detail, self.explanation(show, show.dice, self.pending(state))))

    def explanation(self, show: RollShow, dice: DiceRoll, mode: Optional[str]) -> str:
        """Which rule applied and why, from the loaded failure table (``explain.roll_explanation``)."""
        from game.client.whatgoesup.explain import accept_sentence, roll_explanation, why_words

        if mode == "help" and dice.outcome != "ok":
            words = accept_sentence(self.engine.rules, show.roll_kind, dice.outcome)
            if words:
                return f"{why_words(dice.outcome, dice.counted, dice.fail_safety, dice.boom_safety)} {words}"
        return roll_explanation(self.engine.rules, show.roll_kind, dice.outcome, dice.counted, dice.fail_safety,
                                dice.boom_safety)

    def _draw_explanation(self, surface, show: RollShow, dice: DiceRoll, mode: Optional[str], rect: pygame.Rect) -> None:
        layout = self.scene.context.layout
        text = self.explanation(show, dice, mode)
        key = ("why", text, rect.size, layout)
        lines = self._texts.get(key)
        if lines is None:
            from game.client.kit.style import wrap_text
            font = font_px(layout.px(16))
            room = max(1, rect.h // font.get_linesize())
            lines = [font.render(line, True, INK) for line in wrap_text(text, font, rect.w)[:room]]
            self._texts[key] = lines
        y = rect.top
        for line in lines:
            surface.blit(line, (rect.left, y))
            y += line.get_height()

    def _draw_choice_only(self, surface, state, card, inner) -> None:
        layout = self.scene.context.layout
        head = font_px(layout.px(26), True)
        draw_text(surface, "The capsule Fails", head, ACCENT_LIGHT, (inner.left, card.top + layout.px(18)))
        text = "Choose what it costs you:"
        draw_text(surface, text, font_px(layout.px(18)), INK, (inner.left, card.top + layout.px(70)))
