"""The Upgoer as a picture: its parts stacked as they fly, drawn to scale, with the design report on it.

Lower stages sit at the bottom (launch, then orbital insertion), then the spacecraft: thrusters, fuel,
habitats, payloads and RCS, and the capsule with its crew and rations on top. Heights are masses on
one scale, so the central rule can be seen: a stage lifts its own mass, so it must mass as much as
everything above it. Beside every stage a dashed "lift" bar as tall as the stage starts at its top;
it reaches the rocket's top exactly when the stage can lift what it carries.

Every number comes from ``rules.design.check_design`` (which uses ``rules.formulas``): the picture
measures nothing itself, so it always agrees with the design report.

``draw_rocket(surface, rect, engine, state, what)`` draws an Upgoer (``what`` is its id) or a design
(an ``UpgoerDesign``) and returns a ``RocketPicture``: where every part, stage and label went, for
clicks, drags and tests.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Optional, Union

import pygame

from game.games.whatgoesup.rules import formulas
from game.games.whatgoesup.rules.design import DesignReport, check_design
from game.games.whatgoesup.rules.state import GameState, UpgoerDesign

from game.client.kit.draw import aa_circle, aa_polygon, mix, program_colour
from game.client.kit.style import ACCENT_HOT, ACCENT_LIGHT, BAND_COLOURS, INK, INK_DIM, font_px, wrap_text
from game.client.kit.words import counted

OK_COLOUR = BAND_COLOURS["ok"]
BAD_COLOUR = ACCENT_HOT
#: Part colours by role (the program's colour is the trim).
BODY = {"lower_stage": (214, 206, 226), "thruster": (96, 92, 118), "fuel": (236, 170, 84), "habitat": (176, 204, 222),
        "payload": (150, 214, 168), "rcs": (206, 170, 226), "capsule": (238, 232, 246), "underped": (120, 136, 168)}
#: The spacecraft's parts from the bottom up, as they fly.
SPACECRAFT_ORDER = ("thruster", "fuel", "habitat", "bay", "capsule")
CAPTION = "A stage lifts its own mass (its dashed bar), so it must mass as much as everything above it."


def mass_text(value) -> str:
    value = Fraction(value)
    return str(value.numerator) if value.denominator == 1 else f"{float(value):g}"


@dataclass(frozen=True)
class Piece:
    """One drawn part. ``kind`` says what dragging it off removes: a stage, a module, a crew member,
    the fuel or the rations."""

    key: str
    kind: str
    role: str
    name: str
    mass: Fraction
    rect: pygame.Rect
    level: Optional[int] = None


@dataclass(frozen=True)
class StageMark:
    """One lower-stage cluster as drawn: the report's numbers, its block and its lift bar."""

    level: int
    label: str
    lift: int
    mass: int
    carries: Fraction
    ok: bool
    rect: pygame.Rect
    lift_rect: pygame.Rect  # the lift bar as drawn (cut at the picture's top, with an arrow, if taller)
    lift_top: int  # where the bar would end: the stage's top less its lift on the scale


@dataclass(frozen=True)
class Callout:
    """A label beside the rocket: lines of (text, colour, bold), its box and the point it names."""

    lines: tuple[tuple[str, tuple, bool], ...]
    rect: pygame.Rect
    anchor: tuple[int, int]
    about: str
    size: int = 14  # layout units of the first line; the rest are one smaller


@dataclass
class RocketPicture:
    """Where everything went. ``pixels_per_mass`` is the one vertical scale of every part."""

    rect: pygame.Rect
    report: DesignReport
    design: UpgoerDesign
    pieces: list[Piece] = field(default_factory=list)
    stages: list[StageMark] = field(default_factory=list)
    callouts: list[Callout] = field(default_factory=list)
    zones: dict[str, pygame.Rect] = field(default_factory=dict)
    pixels_per_mass: float = 0.0
    top_y: int = 0
    ground_y: int = 0
    caption_rect: Optional[pygame.Rect] = None
    rocket_rect: Optional[pygame.Rect] = None

    def piece_at(self, pos) -> Optional[Piece]:
        """The topmost drawn part at ``pos`` (crew before the capsule they sit in)."""
        for piece in reversed(self.pieces):
            if piece.rect.collidepoint(pos):
                return piece
        return None

    def stage_zone_at(self, pos) -> Optional[str]:
        """Which slot a lower stage dropped at ``pos`` goes to: "stage" (Simplified Stack), else "insert"
        anywhere above the launch slot and "launch" in it (or None off the picture)."""
        if not self.rect.collidepoint(pos):
            return None
        if "stage" in self.zones:
            return "stage"
        return "insert" if pos[1] < self.zones["launch"].top else "launch"

    def label_rects(self) -> list[pygame.Rect]:
        out = [c.rect for c in self.callouts]
        if self.caption_rect is not None:
            out.append(self.caption_rect)
        return out


# ---------------------------------------------------------------- what the picture shows
@dataclass(frozen=True)
class _Part:
    key: str
    role: str
    name: str
    mass: int


def _design_of(state: GameState, what) -> tuple[UpgoerDesign, int, Optional[str]]:
    """(design, program, on_board_of) for an Upgoer id or a design."""
    if isinstance(what, UpgoerDesign):
        owners = [state.find("item", i) for i in what.all_items()]
        program = next((i.owner for i in owners if i is not None), 0)
        return what, program, None
    upgoer = state.find("upgoer", what)
    if upgoer is None:
        raise KeyError(f"no Upgoer {what}")
    design = UpgoerDesign(name=upgoer.name, stages=upgoer.stages, modules=upgoer.modules, crew=upgoer.crew,
                          fuel=upgoer.fuel, rations=upgoer.rations)
    return design, upgoer.owner, upgoer.id


def _parts(engine, state: GameState, ids) -> list[_Part]:
    out = []
    for item_id in ids:
        item = state.find("item", item_id)
        if item is None:
            continue
        thing = state.thing(item.thing_id)
        out.append(_Part(item_id, engine.rules.components.kind(thing.kind).role, thing.name, thing.mass))
    return out


def stage_labels(count: int) -> list[str]:
    return ["Lower stage"] if count == 1 else ["Launch stage", "Insertion stage"][:count]


# ---------------------------------------------------------------- the picture
def draw_rocket(surface: pygame.Surface, rect: pygame.Rect, engine, state: GameState,
                what: Union[str, UpgoerDesign], program: Optional[int] = None, unit: Optional[float] = None,
                labels: bool = True, hidden: Optional[str] = None, zone: Optional[str] = None) -> RocketPicture:
    """Draw an Upgoer (``what`` is its id) or a design inside ``rect``; returns where everything went.

    ``unit`` is pixels per layout unit (the window's scale if not given); ``labels`` False draws the
    rocket alone; ``hidden`` is a part being dragged away (drawn faint); ``zone`` a stage slot to light.
    """
    picture = rocket_picture(rect, engine, state, what, program, unit, labels)
    paint(surface, picture, engine, state, program if program is not None else _design_of(state, what)[1],
          unit or _unit(surface), hidden=hidden, zone=zone)
    return picture


def _unit(surface: pygame.Surface) -> float:
    w, h = surface.get_size()
    return max(0.5, min(w / 1280, h / 720))


def rocket_picture(rect: pygame.Rect, engine, state: GameState, what: Union[str, UpgoerDesign],
                   program: Optional[int] = None, unit: Optional[float] = None, labels: bool = True,
                   surface_size: tuple[int, int] = (1280, 720)) -> RocketPicture:
    """Lay the picture out (no drawing): every part's rectangle, the stages' lift bars and the labels."""
    design, owner, on_board_of = _design_of(state, what)
    program = owner if program is None else program
    report = check_design(state, program, design, engine.rules, on_board_of=on_board_of)
    u = unit or max(0.5, min(surface_size[0] / 1280, surface_size[1] / 720))
    rect = pygame.Rect(rect)
    picture = RocketPicture(rect=rect, report=report, design=design)
    pad = round(8 * u)
    simplified = "simplified_stack" in state.setup.options

    caption_h = 0
    if labels:
        cap_font = font_px(max(8, round(13 * u)))
        cap_lines = wrap_text(CAPTION, cap_font, rect.w - 2 * pad)
        caption_h = len(cap_lines) * cap_font.get_linesize() + round(6 * u)
        picture.caption_rect = pygame.Rect(rect.left + pad, rect.top + pad // 2, rect.w - 2 * pad,
                                           len(cap_lines) * cap_font.get_linesize())
    ground_h = round(12 * u)
    top = rect.top + pad + caption_h
    ground_y = rect.bottom - pad - ground_h
    height = max(1, ground_y - top)
    picture.ground_y, picture.top_y = ground_y, top

    lanes = max(1, len(design.stages))
    lane_w, lane_gap = round(17 * u), round(5 * u)
    if labels:
        stack_w = int(min(120 * u, max(48 * u, rect.w * 0.3)))
    else:
        stack_w = int(max(24 * u, min(rect.w - 2 * pad - lanes * (lane_w + lane_gap) - round(8 * u), rect.w * 0.6)))
    left = rect.left + pad + (0 if labels else (rect.w - 2 * pad - stack_w - lanes * (lane_w + lane_gap)) // 2)
    centre_x = left + stack_w // 2

    # One scale for every part; small rockets keep the scale of a mass-12 one, so adding parts grows them.
    total = Fraction(report.total_mass)
    ppm = height / max(total, Fraction(12)) if total else height / 12
    picture.pixels_per_mass = float(ppm)

    # The stages from the bottom up, each as tall as its mass.
    y = float(ground_y)
    labels_for = stage_labels(len(design.stages))
    for level, cluster in enumerate(design.stages):
        parts = _parts(engine, state, cluster)
        mass = sum(p.mass for p in parts)
        h = mass * ppm
        block = pygame.Rect(left, round(y - h), stack_w, round(y) - round(y - h))
        x = float(left)
        for part in parts:
            w = stack_w * part.mass / mass if mass else stack_w / len(parts)
            piece_rect = pygame.Rect(round(x), block.top, round(x + w) - round(x), block.h)
            picture.pieces.append(Piece(part.key, "stage", part.role, part.name, Fraction(part.mass), piece_rect,
                                        level))
            x += w
        stage = report.stages[level] if level < len(report.stages) else None
        lift = stage.lift if stage else 0
        lane_x = left + stack_w + round(8 * u) + level * (lane_w + lane_gap)
        lift_top = block.top - round(lift * ppm)
        lift_rect = pygame.Rect(lane_x, max(top, lift_top), lane_w, block.top - max(top, lift_top))
        picture.stages.append(StageMark(level, labels_for[level] if level < len(labels_for) else "Stage", lift,
                                        stage.mass if stage else mass, stage.carries if stage else Fraction(0),
                                        bool(stage and stage.ok), block, lift_rect, lift_top))
        y -= h

    # The spacecraft: its parts in flying order, each as tall as its mass.
    craft_w = max(round(18 * u), round(stack_w * 0.72))
    craft_left = centre_x - craft_w // 2
    modules = _parts(engine, state, design.modules)
    by_role: dict[str, list[_Part]] = {}
    for part in modules:
        by_role.setdefault("bay" if part.role in ("payload", "rcs", "underped") else part.role, []).append(part)
    derp_mass = engine.rules.economy.derps.mass
    rations_mass = formulas.rations_mass(design.rations, engine.rules.components)
    for role in SPACECRAFT_ORDER:
        if role == "fuel":
            if design.fuel:
                h = design.fuel * ppm
                box = pygame.Rect(craft_left, round(y - h), craft_w, round(y) - round(y - h))
                picture.pieces.append(Piece("fuel", "fuel", "fuel", "Fuel", Fraction(design.fuel), box))
                y -= h
            continue
        parts = by_role.get(role, [])
        if role == "capsule" and not parts and (design.crew or design.rations):
            parts = []  # crew without a capsule: drawn as riders on top below
        if role == "bay":
            if parts:
                mass = sum(p.mass for p in parts)
                h = mass * ppm
                x = float(craft_left)
                for part in parts:
                    w = craft_w * part.mass / mass
                    box = pygame.Rect(round(x), round(y - h), round(x + w) - round(x), round(y) - round(y - h))
                    picture.pieces.append(Piece(part.key, "module", part.role, part.name, Fraction(part.mass), box))
                    x += w
                y -= h
            continue
        for n, part in enumerate(parts):
            mass = Fraction(part.mass)
            if role == "capsule" and n == len(parts) - 1:
                mass += derp_mass * len(design.crew) + rations_mass  # the cabin load rides in the top capsule
            h = mass * ppm
            box = pygame.Rect(craft_left, round(y - h), craft_w, round(y) - round(y - h))
            picture.pieces.append(Piece(part.key, "module", part.role, part.name, Fraction(part.mass), box))
            y -= h
    if design.crew and not by_role.get("capsule"):
        h = (derp_mass * len(design.crew) + rations_mass) * ppm
        box = pygame.Rect(craft_left, round(y - h), craft_w, round(y) - round(y - h))
        y -= h
        cabin = box
    else:
        capsule = [p for p in picture.pieces if p.role == "capsule"]
        cabin = capsule[-1].rect if capsule else None
    if cabin is not None and (design.crew or design.rations):
        _place_riders(picture, engine, state, design, cabin, u)
    picture.top_y = round(y)
    picture.rocket_rect = pygame.Rect(left, round(y), stack_w, ground_y - round(y))

    # Drop slots for lower stages.
    marks = picture.stages
    slot_h = max(round(40 * u), round(height * 0.25))
    if simplified:
        picture.zones["stage"] = marks[0].rect.inflate(0, 0) if marks else pygame.Rect(left, ground_y - slot_h,
                                                                                       stack_w, slot_h)
    else:
        launch = marks[0].rect if marks else pygame.Rect(left, ground_y - slot_h, stack_w, slot_h)
        if len(marks) > 1:
            insert = marks[1].rect
        else:
            insert = pygame.Rect(left, launch.top - slot_h, stack_w, slot_h)
        picture.zones["launch"] = pygame.Rect(left, launch.top, stack_w, ground_y - launch.top)
        picture.zones["insert"] = pygame.Rect(left, min(insert.top, launch.top - round(24 * u)), stack_w,
                                              launch.top - min(insert.top, launch.top - round(24 * u)))
    if labels:
        _callouts(picture, engine, state, design, report, u, lanes * (lane_w + lane_gap))
    return picture


def _place_riders(picture: RocketPicture, engine, state: GameState, design: UpgoerDesign, cabin: pygame.Rect,
                  u: float) -> None:
    """Crew (little heads) and rations (little boxes) inside the top capsule."""
    count = len(design.crew) + (1 if design.rations else 0)
    if not count:
        return
    size = max(4, min(round(16 * u), cabin.h // 2, (cabin.w - round(6 * u)) // max(1, count) - round(2 * u)))
    row_w = count * (size + round(3 * u)) - round(3 * u)
    x = cabin.centerx - row_w // 2
    y = cabin.bottom - size - max(2, round(4 * u))
    for derp_id in design.crew:
        derp = state.find("derp", derp_id)
        picture.pieces.append(Piece(derp_id, "crew", "crew", derp.name if derp else "a derp",
                                    Fraction(engine.rules.economy.derps.mass), pygame.Rect(x, y, size, size)))
        x += size + round(3 * u)
    if design.rations:
        picture.pieces.append(Piece("rations", "rations", "rations", "Rations",
                                    formulas.rations_mass(design.rations, engine.rules.components),
                                    pygame.Rect(x, y, size, size)))


# ---------------------------------------------------------------- the labels
def _callouts(picture: RocketPicture, engine, state: GameState, design: UpgoerDesign, report: DesignReport,
              u: float, lanes_w: int) -> None:
    rect = picture.rect
    pad = round(8 * u)
    x = (picture.rocket_rect.right if picture.rocket_rect else rect.left + pad) + lanes_w + round(14 * u)
    width = rect.right - pad - x
    if width < 60 * u:
        return
    comps = engine.rules.components
    wanted: list[tuple[str, tuple[int, int], list[tuple[str, tuple, bool]]]] = []  # (about, anchor, lines)

    def piece_rects(role: str) -> list[pygame.Rect]:
        return [p.rect for p in picture.pieces if p.role == role]

    capsules = piece_rects("capsule")
    if capsules or design.crew:
        load_ok = report.load <= report.capacity and (bool(capsules) or not design.crew)
        names = [p.name for p in picture.pieces if p.role == "capsule"]
        title = (f"Capsule {names[0]}" if len(names) == 1 else (f"{len(names)} capsules" if names else "No capsule"))
        cargo = []
        if design.crew:
            cargo.append(counted(len(design.crew), "derp"))
        robots = [p for p in picture.pieces if p.role == "underped"]
        if robots:
            cargo.append(counted(len(robots), "robot"))
        bay = [p for p in picture.pieces if p.role in ("payload", "rcs")]
        if bay:
            cargo.append(f"{len(bay)} payload" + ("" if len(bay) == 1 else "s") + " or RCS")
        if design.rations:
            cargo.append(f"rations {mass_text(formulas.rations_mass(design.rations, comps))}")
        line = (f"carries up to {report.capacity}; aboard {mass_text(report.load)}"
                + (f" ({', '.join(cargo)})" if cargo else ""))
        anchor = (capsules[-1] if capsules else next(p.rect for p in picture.pieces if p.role == "crew"))
        wanted.append(("capsule", anchor.midright, [(f"{title} · mass {report.capsule_mass}", INK, True),
                                                   (line, OK_COLOUR if load_ok else BAD_COLOUR, False)]))
    for role, word in (("habitat", "Habitat"),):
        rects = piece_rects(role)
        if rects:
            mass = sum(p.mass for p in picture.pieces if p.role == role)
            wanted.append((role, rects[-1].midright, [(f"{word} · mass {mass_text(mass)}", INK, True),
                                                     ("room to live; carries load too", INK_DIM, False)]))
    bay = [p for p in picture.pieces if p.role in ("payload", "rcs", "underped")]
    if bay:
        words = ", ".join(p.name for p in bay)
        title = "Payloads and RCS" if all(p.role != "underped" for p in bay) else (
            "Robot pilot" if len(bay) == 1 else "Robots, payloads and RCS")
        wanted.append(("bay", bay[-1].rect.midright, [
            (f"{title} · mass {sum(p.mass for p in bay)}", INK, True), (words, INK_DIM, False)]))
    fuel = piece_rects("fuel")
    if fuel:
        cost = formulas.fuel_for_burn(report.spacecraft_mass, engine.rules.economy.fuel)
        per = engine.rules.economy.fuel.mass_per_fuel_point
        wanted.append(("fuel", fuel[0].midright, [
            (f"Fuel {design.fuel}", INK, True),
            (f"a burn costs {cost}: spacecraft mass {mass_text(report.spacecraft_mass)} ÷ {per}, rounded up", INK_DIM,
             False)]))
    thrusters = piece_rects("thruster")
    if thrusters or report.capsule_mass:
        need = formulas.required_thruster_mass(report.capsule_mass, comps.thruster.min_ratio)
        what = {"none": "no thruster: no burns", "too_small": "too weak to steer",
                "orbital": "orbital burns", "lunar": "can land on the Moon",
                "planetary": "can land home"}.get(report.thrust_class, report.thrust_class)
        colour = BAD_COLOUR if report.thrust_class == "too_small" else (INK_DIM if not thrusters else OK_COLOUR)
        if thrusters:
            anchor_y = thrusters[0].midright
            lines = [(f"Thrusters · mass {report.thruster_mass}", INK, True),
                     (f"need {need} ({_fraction(comps.thruster.min_ratio)} of capsules {report.capsule_mass}): {what}",
                      colour, False)]
            wanted.append(("thruster", anchor_y, lines))
    for mark in picture.stages:
        colour = OK_COLOUR if mark.ok else BAD_COLOUR
        extra = " (reusable extra not lifting)" if mark.mass != mark.lift else ""
        wanted.append((f"stage:{mark.level}", mark.rect.midright, [
            (f"{mark.label} · mass {mark.mass}", INK, True),
            (f"lifts {mark.lift}{extra}, carries {mass_text(mark.carries)}: "
             + ("OK" if mark.ok else f"needs mass {formulas.ceil_fraction(mark.carries)}"), colour, False)]))
    if picture.rocket_rect is not None and report.total_mass:
        wanted.append(("total", (picture.rocket_rect.right, picture.ground_y),
                       [(f"Whole Upgoer · mass {mass_text(report.total_mass)}", ACCENT_LIGHT, True)]))
    if not wanted:
        return
    area = pygame.Rect(x, rect.top + pad, width, rect.h - 2 * pad)
    if picture.caption_rect is not None:
        area.top = picture.caption_rect.bottom + round(6 * u)
        area.h = rect.bottom - pad - area.top
    for size, keep_detail in ((14, True), (12, True), (12, False), (10, False)):
        placed = _stack_labels(wanted, area, u, size, keep_detail)
        if placed is not None:
            picture.callouts = placed
            return
    picture.callouts = []


def _fraction(value) -> str:
    value = Fraction(value)
    return str(value.numerator) if value.denominator == 1 else f"{value.numerator}/{value.denominator}"


def _stack_labels(wanted, area: pygame.Rect, u: float, size: int, keep_detail: bool) -> Optional[list[Callout]]:
    """Labels as near their part's height as they can be without touching each other, or None if they
    cannot all fit ``area`` at this size."""
    gap = max(2, round(5 * u))
    boxes = []
    for about, anchor, lines in sorted(wanted, key=lambda w: w[1][1]):
        shown = lines if keep_detail else lines[:1]
        wrapped: list[tuple[str, tuple, bool]] = []
        for n, (text, colour, bold) in enumerate(shown):
            font = font_px(max(8, round((size if n == 0 else size - 1) * u)), bold)
            for line in wrap_text(text, font, area.w):
                wrapped.append((line, colour, bold))
        h = sum(font_px(max(8, round((size if bold else size - 1) * u)), bold).get_linesize()
                for _, _, bold in wrapped)
        boxes.append([about, anchor, wrapped, h])
    total = sum(b[3] for b in boxes) + gap * (len(boxes) - 1)
    if total > area.h:
        return None
    tops = []
    cursor = area.top
    for about, anchor, wrapped, h in boxes:
        first = font_px(max(8, round(size * u)), True).get_linesize()
        top = max(cursor, min(anchor[1] - first // 2, area.bottom - h))
        tops.append(top)
        cursor = top + h + gap
    # Too low at the end: push back up from the bottom.
    limit = area.bottom
    for i in range(len(boxes) - 1, -1, -1):
        h = boxes[i][3]
        if tops[i] + h > limit:
            tops[i] = limit - h
        limit = tops[i] - gap
    out = []
    for (about, anchor, wrapped, h), top in zip(boxes, tops):
        widest = max(font_px(max(8, round((size if bold else size - 1) * u)), bold).size(text)[0]
                     for text, _, bold in wrapped)
        out.append(Callout(tuple(wrapped), pygame.Rect(area.left, top, min(area.w, widest), h), anchor, about, size))
    return out


# ---------------------------------------------------------------- painting
def paint(surface: pygame.Surface, picture: RocketPicture, engine, state: GameState, program: int, u: float,
          hidden: Optional[str] = None, zone: Optional[str] = None) -> None:
    """Draw a laid-out picture."""
    trim = program_colour(state.programs[program]) if 0 <= program < len(state.programs) else pygame.Color(OK_COLOUR)
    rect = picture.rect
    line_w = max(1, round(2 * u))
    # the ground and the pad
    ground = pygame.Rect(rect.left + round(4 * u), picture.ground_y, rect.w - round(8 * u), round(10 * u))
    pygame.draw.rect(surface, (58, 48, 92), ground, border_radius=round(4 * u))
    if picture.caption_rect is not None:
        font = font_px(max(8, round(13 * u)))
        y = picture.caption_rect.top
        for line in wrap_text(CAPTION, font, picture.caption_rect.w):
            surface.blit(font.render(line, True, ACCENT_LIGHT), (picture.caption_rect.left, y))
            y += font.get_linesize()
    if zone and zone in picture.zones:
        glow = pygame.Surface(picture.zones[zone].size, pygame.SRCALPHA)
        glow.fill((*ACCENT_LIGHT, 70))
        surface.blit(glow, picture.zones[zone])
        pygame.draw.rect(surface, ACCENT_LIGHT, picture.zones[zone], line_w, border_radius=round(6 * u))
    if not picture.pieces:
        _ghost(surface, picture, u)
    for piece in picture.pieces:
        faint = piece.key == hidden
        _draw_piece(surface, piece, trim, u, faint, picture)
    # the lift bars: as tall as the stage, from its top up
    for mark in picture.stages:
        colour = OK_COLOUR if mark.ok else BAD_COLOUR
        bar = mark.lift_rect.clip(pygame.Rect(rect.left, rect.top, rect.w, rect.h))
        veil = pygame.Surface(bar.size, pygame.SRCALPHA)
        veil.fill((*colour, 60))
        surface.blit(veil, bar)
        _dashed_rect(surface, colour, bar, u)
        pygame.draw.line(surface, colour, (bar.left, mark.rect.top), (mark.rect.right, mark.rect.top), line_w)
        _bar_words(surface, bar, f"lifts {mark.lift}", u)
        if mark.lift_top < mark.lift_rect.top:  # it lifts more than the picture is tall
            tip = max(3, round(6 * u))
            aa_polygon(surface, colour, [(bar.left - 2, bar.top + tip), (bar.centerx, bar.top - 1),
                                         (bar.right + 1, bar.top + tip)])
        if not mark.ok:  # the part of the rocket the stage cannot lift
            gap = pygame.Rect(bar.left, picture.top_y, bar.w, max(0, bar.top - picture.top_y))
            if gap.h:  # hatched: what is left over with nothing to lift it
                clip = surface.get_clip()
                surface.set_clip(gap)
                step = max(4, round(7 * u))
                for k in range(-gap.w, gap.h + gap.w, step):
                    pygame.draw.line(surface, BAD_COLOUR, (gap.left, gap.top + k), (gap.right, gap.top + k - gap.w),
                                     max(1, round(1.5 * u)))
                surface.set_clip(clip)
                pygame.draw.rect(surface, BAD_COLOUR, gap, line_w)
    if picture.stages:
        right = max(m.lift_rect.right for m in picture.stages)
        _dashed_line(surface, INK_DIM, (picture.rocket_rect.left, picture.top_y), (right + round(4 * u), picture.top_y),
                     u)
    for callout in picture.callouts:
        _draw_callout(surface, callout, u)


def _bar_words(surface: pygame.Surface, bar: pygame.Rect, text: str, u: float) -> None:
    """Words up a lift bar, read from the bottom (only when they fit whole)."""
    for size in (12, 10):
        font = font_px(max(8, round(size * u)), True)
        w, h = font.size(text)
        if h <= bar.w + 2 and w <= bar.h - round(6 * u):
            image = pygame.transform.rotate(font.render(text, True, INK), 90)
            surface.blit(image, image.get_rect(midbottom=(bar.centerx + 1, bar.bottom - round(4 * u))))
            return


def _draw_callout(surface: pygame.Surface, callout: Callout, u: float) -> None:
    y = callout.rect.top
    size = callout.size
    for text, colour, bold in callout.lines:
        font = font_px(max(8, round((size if bold else size - 1) * u)), bold)
        surface.blit(font.render(text, True, colour), (callout.rect.left, y))
        y += font.get_linesize()
    ax, ay = callout.anchor
    first_mid = callout.rect.top + font_px(max(8, round(size * u)), True).get_linesize() // 2
    start = (callout.rect.left - round(5 * u), first_mid)
    bend = (start[0] - round(8 * u), first_mid)
    leader = mix(INK_DIM, (28, 23, 58), 0.35)
    pygame.draw.aaline(surface, leader, start, bend)
    pygame.draw.aaline(surface, leader, bend, (ax, ay))
    aa_circle(surface, leader, (ax, ay), max(1.5, 2.5 * u))


def _draw_piece(surface: pygame.Surface, piece: Piece, trim, u: float, faint: bool, picture: Optional[RocketPicture],
                named: bool = True) -> None:
    r = piece.rect
    if r.w <= 0 or r.h <= 0:
        return
    role = piece.role
    edge = (24, 18, 46)
    radius = max(1, min(round(6 * u), r.h // 3, r.w // 3))
    body = BODY.get(role, (200, 200, 210))
    if faint:
        body = mix(body, (40, 34, 70), 0.7)
    if role == "lower_stage":
        inner = r.inflate(-max(1, round(2 * u)), 0)
        pygame.draw.rect(surface, body, inner, border_radius=radius)
        band = pygame.Rect(inner.left, inner.top + max(1, inner.h // 8), inner.w,
                           max(2, min(round(6 * u), inner.h // 5)))
        pygame.draw.rect(surface, trim, band)
        pygame.draw.rect(surface, edge, inner, max(1, round(1.5 * u)), border_radius=radius)
        if piece.level == 0:  # fins on the bottom stage
            fin = max(3, round(10 * u))
            h = min(r.h, fin * 2)
            aa_polygon(surface, mix(trim, edge, 0.2), [(inner.left, r.bottom - h), (inner.left - fin, r.bottom),
                                                     (inner.left, r.bottom)])
            aa_polygon(surface, mix(trim, edge, 0.2), [(inner.right, r.bottom - h), (inner.right + fin, r.bottom),
                                                     (inner.right, r.bottom)])
        if named:
            _name_in(surface, piece.name, inner, u, (34, 26, 60))
    elif role == "thruster":
        top_w = r.w * 0.55
        pts = [(r.centerx - top_w / 2, r.top), (r.centerx + top_w / 2, r.top), (r.right, r.bottom), (r.left, r.bottom)]
        aa_polygon(surface, body, pts, edge)
        if named:
            _name_in(surface, piece.name, r.inflate(-round(8 * u), 0), u, INK)
    elif role == "fuel":
        pygame.draw.rect(surface, body, r, border_radius=radius)
        stripe = max(2, round(5 * u))
        for y in range(r.top + stripe, r.bottom - 1, stripe * 3):
            pygame.draw.line(surface, mix(body, edge, 0.35), (r.left + 2, y), (r.right - 3, y), max(1, round(u)))
        pygame.draw.rect(surface, edge, r, max(1, round(1.5 * u)), border_radius=radius)
        if named:
            _name_in(surface, f"fuel {mass_text(piece.mass)}", r, u, (50, 30, 10))
    elif role == "habitat":
        pygame.draw.rect(surface, body, r, border_radius=radius)
        pygame.draw.rect(surface, edge, r, max(1, round(1.5 * u)), border_radius=radius)
        win = max(2, min(r.h // 4, round(5 * u)))
        for k in range(1, 4):
            aa_circle(surface, (60, 90, 140), (r.left + r.w * k / 4, r.centery), win)
        if named:
            _name_in(surface, piece.name, r, u, (30, 30, 60))
    elif role == "underped":  # a robot pilot: a boxy head with two lit eyes and an antenna
        box = r.inflate(-max(1, round(2 * u)), -max(1, round(2 * u)))
        pygame.draw.rect(surface, body, box, border_radius=max(1, radius // 2))
        pygame.draw.rect(surface, trim, box, max(1, round(1.5 * u)), border_radius=max(1, radius // 2))
        eye = max(1, min(box.w, box.h) // 7)
        for k in (1, 2):
            aa_circle(surface, (255, 214, 90), (box.left + box.w * k / 3, box.centery), eye)
        tip = (box.centerx, box.top - max(2, box.h // 4))
        pygame.draw.line(surface, edge, (box.centerx, box.top), tip, max(1, round(u)))
        aa_circle(surface, trim, tip, max(1, eye * 0.8))
    elif role in ("payload", "rcs"):
        box = r.inflate(-max(1, round(2 * u)), -max(1, round(2 * u)))
        pygame.draw.rect(surface, body, box, border_radius=max(1, radius // 2))
        pygame.draw.rect(surface, edge, box, max(1, round(u)), border_radius=max(1, radius // 2))
    elif role == "capsule":
        nose = min(r.h * 0.55, r.w * 0.5)
        pts = [(r.left, r.bottom), (r.left + r.w * 0.12, r.top + nose), (r.centerx, r.top),
               (r.right - r.w * 0.12, r.top + nose), (r.right, r.bottom)]
        aa_polygon(surface, body, pts, edge)
        pygame.draw.line(surface, trim, (r.left + r.w * 0.1, r.bottom - max(2, round(3 * u))),
                         (r.right - r.w * 0.1, r.bottom - max(2, round(3 * u))), max(1, round(3 * u)))
        crew = picture is not None and any(p.role in ("crew", "rations") and r.contains(p.rect)
                                           for p in picture.pieces)
        if not crew:
            aa_circle(surface, (60, 90, 140), (r.centerx, r.top + nose * 0.9), max(2, min(r.w // 8, round(6 * u))))
    elif role == "crew":
        colour = mix(trim, (255, 255, 255), 0.15) if not faint else mix(trim, (40, 34, 70), 0.7)
        aa_circle(surface, (24, 18, 46), r.center, r.w / 2 + max(1, u))
        aa_circle(surface, colour, r.center, r.w / 2)
        eye = max(1, r.w // 8)
        aa_circle(surface, (24, 18, 46), (r.centerx - r.w // 5, r.centery - r.h // 8), eye)
        aa_circle(surface, (24, 18, 46), (r.centerx + r.w // 5, r.centery - r.h // 8), eye)
    elif role == "rations":
        pygame.draw.rect(surface, (206, 160, 110), r, border_radius=max(1, r.w // 5))
        pygame.draw.rect(surface, edge, r, max(1, round(u)), border_radius=max(1, r.w // 5))


def _name_in(surface: pygame.Surface, text: str, rect: pygame.Rect, u: float, colour) -> None:
    """The part's name inside its block when it fits whole (never cut)."""
    for size in (14, 12, 10):
        font = font_px(max(8, round(size * u)), True)
        w, h = font.size(text)
        if w <= rect.w - round(6 * u) and h <= rect.h - 2:
            image = font.render(text, True, colour)
            surface.blit(image, image.get_rect(center=rect.center))
            return


def _ghost(surface: pygame.Surface, picture: RocketPicture, u: float) -> None:
    """An empty pad: a dashed outline where the rocket will stand."""
    for zone in picture.zones.values():
        _dashed_rect(surface, INK_DIM, zone, u)


def _dashed_line(surface, colour, start, end, u: float) -> None:
    (x0, y0), (x1, y1) = start, end
    length = max(abs(x1 - x0), abs(y1 - y0))
    dash = max(2, round(5 * u))
    steps = max(1, int(length // dash))
    for k in range(0, steps, 2):
        a, b = k / steps, min(1.0, (k + 1) / steps)
        pygame.draw.line(surface, colour, (x0 + (x1 - x0) * a, y0 + (y1 - y0) * a),
                         (x0 + (x1 - x0) * b, y0 + (y1 - y0) * b), max(1, round(1.5 * u)))


def _dashed_rect(surface, colour, rect: pygame.Rect, u: float) -> None:
    if rect.w <= 0 or rect.h <= 0:
        return
    _dashed_line(surface, colour, rect.topleft, rect.topright, u)
    _dashed_line(surface, colour, rect.topright, rect.bottomright, u)
    _dashed_line(surface, colour, rect.bottomleft, rect.bottomright, u)
    _dashed_line(surface, colour, rect.topleft, rect.bottomleft, u)


def draw_part_icon(surface: pygame.Surface, rect: pygame.Rect, role: str, trim, u: float) -> None:
    """A small picture of a part of ``role`` (as the rocket draws it), for lists of parts."""
    r = pygame.Rect(rect)
    shapes = {"lower_stage": r.inflate(-r.w // 3, -r.h // 8), "thruster": r.inflate(-r.w // 5, -r.h // 2),
              "fuel": r.inflate(-r.w // 3, -r.h // 3), "habitat": r.inflate(-r.w // 6, -r.h // 2),
              "payload": r.inflate(-r.w // 2, -r.h // 2), "rcs": r.inflate(-r.w // 2, -r.h // 2),
              "capsule": r.inflate(-r.w // 4, -r.h // 4), "crew": r.inflate(-r.w // 3, -r.h // 3),
              "underped": r.inflate(-r.w // 3, -r.h // 2)}
    box = shapes.get(role, r.inflate(-r.w // 3, -r.h // 3))
    if role == "crew":
        box.h = box.w
        box.center = r.center
    _draw_piece(surface, Piece("icon", "icon", role, "", Fraction(0), box), trim, u, False, None, named=False)
