"""A ship's roster, drawn like the paper sheet the game is played with: name and class, mass, speed, heat,
crew coins (heads ready, tails hurt), and the ten system slots with their damage marks.

``RosterView`` is what a roster shows, built from a fighting ship or from a design on the new-game screen;
``draw_roster`` paints it and returns where each slot is, so scenes can make slots clickable.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Iterable, Optional

import pygame

from game.client.kit.draw import aa_circle, draw_program_marker
from game.client.kit.style import fit_font, font_px, draw_text
from game.games.cosmoforce.rules import ships as shipyard
from game.games.cosmoforce.rules.engine import Engine
from game.games.cosmoforce.rules.state import ShipDesign, ShipState

PAPER = (243, 235, 214)
PAPER_SHADE = (226, 214, 186)
PAPER_EDGE = (168, 142, 102)
PAPER_INK = (44, 32, 54)
PAPER_DIM = (118, 102, 108)
MARK_RED = (186, 52, 44)
COIN_GOLD = (222, 174, 62)
COIN_GREY = (150, 144, 150)
HEAT = (226, 88, 46)
PICK = (240, 160, 75)


@dataclass(frozen=True)
class SlotView:
    name: str
    role: str
    damage: int
    max_damage: int
    destroyed: bool
    spent: bool


@dataclass(frozen=True)
class RosterView:
    name: str
    class_name: str
    size: int
    mass: int
    crew_max: int
    crew_ready: int
    crew_hurt: int
    speed_text: str
    heat: int
    slots: tuple[Optional[SlotView], ...]  # max_systems entries; None for an empty slot
    owner: int = 0
    eliminated: bool = False

    @classmethod
    def of_ship(cls, engine: Engine, ship: ShipState) -> "RosterView":
        rules = engine.rules
        ship_class = rules.classes.get(ship.ship_class)
        slots: list[Optional[SlotView]] = []
        for s in ship.systems:
            kind = rules.systems.get(s.kind)
            slots.append(SlotView(kind.name, kind.role, s.damage, kind.max_damage, s.destroyed, s.spent))
        slots += [None] * (rules.classes.max_systems - len(slots))
        return cls(ship.name, ship_class.name, ship_class.size, ship.mass, ship.crew_max, ship.crew_ready,
                   ship.crew_hurt, ship.speed_text, ship.heat, tuple(slots), ship.owner, ship.eliminated)

    @classmethod
    def of_design(cls, engine: Engine, design: ShipDesign, owner: int = 0) -> "RosterView":
        """A roster before the fight: every number from the rules' formulas (``rules.ships``)."""
        rules = engine.rules
        ship_class = rules.classes.get(design.ship_class)
        slots: list[Optional[SlotView]] = []
        for system_id in design.systems:
            kind = rules.systems.get(system_id)
            slots.append(SlotView(kind.name, kind.role, 0, kind.max_damage, False, False))
        slots += [None] * (rules.classes.max_systems - len(slots))
        crew = shipyard.crew_max(rules, design)
        return cls(design.name, ship_class.name, ship_class.size, shipyard.mass(rules, design), crew, crew, 0,
                   str(shipyard.starting_speed(rules, design)), shipyard.starting_heat(rules, design), tuple(slots),
                   owner)


def draw_coin(surface: pygame.Surface, centre, r: float, state: str) -> None:
    """A crew coin: gold heads (ready), grey tails (hurt), or a dashed ring where a crew was lost."""
    if state == "lost":
        for k in range(12):
            if k % 2 == 0:
                a0, a1 = math.tau * k / 12, math.tau * (k + 1) / 12
                pygame.draw.arc(surface, PAPER_DIM, pygame.Rect(centre[0] - r, centre[1] - r, 2 * r, 2 * r), a0, a1,
                                max(1, int(r / 6)))
        return
    colour = COIN_GOLD if state == "ready" else COIN_GREY
    aa_circle(surface, (90, 70, 40) if state == "ready" else (90, 88, 96), (centre[0], centre[1] + r * 0.15), r)
    aa_circle(surface, colour, centre, r * 0.92)
    aa_circle(surface, tuple(min(255, c + 40) for c in colour), centre, r * 0.62)
    mark = "H" if state == "ready" else "T"
    font = font_px(max(8, int(r * 1.1)), True)
    draw_text(surface, mark, font, (70, 50, 30) if state == "ready" else (60, 58, 66), centre, anchor="center")


def draw_heat_token(surface: pygame.Surface, centre, r: float) -> None:
    x, y = centre
    flame = [(x, y - r * 1.25), (x + r * 0.8, y + r * 0.1), (x + r * 0.45, y + r * 0.9), (x - r * 0.45, y + r * 0.9),
             (x - r * 0.8, y + r * 0.1)]
    pygame.draw.polygon(surface, HEAT, flame)
    pygame.draw.polygon(surface, (120, 40, 20), flame, max(1, int(r / 5)))
    pygame.draw.circle(surface, (255, 206, 90), (int(x), int(y + r * 0.35)), max(1, int(r * 0.35)))


def draw_roster(surface: pygame.Surface, rect: pygame.Rect, layout, view: RosterView, colour,
                clickable: Iterable[int] = (), hover: Optional[int] = None, heading: str = "SHIP ROSTER",
                stats: Optional[dict[str, pygame.Rect]] = None) -> dict[int, pygame.Rect]:
    """Paint the roster into ``rect``; returns each slot's rectangle (by slot index). ``stats``, if given, is
    filled with the boxes of the numbers at the top ("MASS", "SPEED", "HEAT", "CREW": their rectangles)."""
    clickable = set(clickable)
    colour = pygame.Color(colour)
    u = layout.px
    pygame.draw.rect(surface, (20, 14, 30), rect.move(u(4), u(5)), border_radius=u(8))
    pygame.draw.rect(surface, PAPER, rect, border_radius=u(8))
    pygame.draw.rect(surface, PAPER_EDGE, rect, max(1, u(2)), border_radius=u(8))
    pad = u(12)
    inner = rect.inflate(-2 * pad, -2 * pad)
    unit = inner.h / 290  # the sheet is laid out on 290 rows of height and stretches to fit

    def v(n: float, most: float = 1.3) -> int:
        """``n`` rows of the sheet in pixels, text growing at most ``most`` times its design size."""
        return max(1, min(int(n * unit), u(n * most)))

    # -- heading: who, which class
    small = font_px(max(8, v(12)), True)
    draw_text(surface, heading, small, PAPER_DIM, (inner.left, inner.top))
    right = f"{view.class_name} · size {view.size}"
    right_font = fit_font(right, inner.w // 2, max(8, v(16)), bold=True)
    draw_text(surface, right, right_font, PAPER_INK, (inner.right, inner.top), anchor="topright")
    name_top = inner.top + max(small.get_linesize(), right_font.get_linesize())
    name_font = fit_font(view.name, inner.w - u(40), max(8, v(24)), bold=True)
    name_rect = draw_text(surface, view.name, name_font, PAPER_INK, (inner.left + u(26), name_top - u(2)))
    stripe = pygame.Rect(rect.left, rect.top + u(10), u(6), name_rect.bottom - rect.top - u(10))
    pygame.draw.rect(surface, colour, stripe)
    draw_program_marker(surface, view.owner, (inner.left + u(10), name_rect.centery), u(10), colour)
    if view.eliminated:
        draw_text(surface, "OUT OF THE FIGHT", small, MARK_RED, (inner.right, name_rect.centery), anchor="midright")
    y = max(inner.top + v(48), name_rect.bottom + u(4))
    # -- the numbers
    boxes = (("MASS", str(view.mass)), ("SPEED", view.speed_text), ("HEAT", str(view.heat)),
             ("CREW", f"{view.crew_ready + view.crew_hurt}/{view.crew_max}"))
    gap = u(8)
    box_w = (inner.w - 3 * gap) // 4
    label_font = font_px(max(8, v(11)), True)
    for i, (label, value) in enumerate(boxes):
        box = pygame.Rect(inner.left + i * (box_w + gap), y, box_w, v(44))
        if stats is not None:
            stats[label] = box
        pygame.draw.rect(surface, PAPER_SHADE, box, border_radius=u(5))
        pygame.draw.rect(surface, PAPER_EDGE, box, 1, border_radius=u(5))
        draw_text(surface, label, label_font, PAPER_DIM, (box.centerx, box.top + v(3)), anchor="midtop")
        value_font = fit_font(value, box.w - u(8), max(8, v(22)), bold=True)
        draw_text(surface, value, value_font, HEAT if label == "HEAT" and view.heat else PAPER_INK,
                  (box.centerx, box.bottom - v(2)), anchor="midbottom")
    y += v(52)
    # -- crew coins and heat tokens
    half = inner.w // 2
    r = min(v(10), u(11))
    draw_text(surface, "Crew", label_font, PAPER_DIM, (inner.left, y + v(11)), anchor="midleft")
    x = inner.left + label_font.size("Crew")[0] + u(10) + r
    states = ["ready"] * view.crew_ready + ["hurt"] * view.crew_hurt
    states += ["lost"] * (view.crew_max - len(states))
    fits = max(1, (half - (x - inner.left) - u(8)) // int(2 * r + u(4)))
    for state in states[:fits]:
        draw_coin(surface, (x, y + v(11)), r, state)
        x += 2 * r + u(4)
    if len(states) > fits:
        draw_text(surface, f"+{len(states) - fits}", label_font, PAPER_DIM, (x - r, y + v(11)), anchor="midleft")
    hx = inner.left + half + u(6)
    draw_text(surface, "Heat", label_font, PAPER_DIM, (hx, y + v(11)), anchor="midleft")
    x = hx + label_font.size("Heat")[0] + u(10) + r
    room = max(1, (inner.right - x) // int(2 * r + u(3)))
    for _ in range(min(view.heat, room - 1 if view.heat > room else room)):
        draw_heat_token(surface, (x, y + v(12)), r * 0.85)
        x += 2 * r + u(3)
    if view.heat > room:
        draw_text(surface, f"+{view.heat - room + 1}", label_font, HEAT, (x - r, y + v(11)), anchor="midleft")
    if not view.heat:
        draw_text(surface, "none", label_font, PAPER_DIM, (x - r, y + v(11)), anchor="midleft")
    y += v(30)
    # -- system slots, two columns
    slots = view.slots
    rows = (len(slots) + 1) // 2
    slot_gap = u(4)
    slot_h = (inner.bottom - y - slot_gap * (rows - 1)) // max(1, rows)
    slot_w = (inner.w - gap) // 2
    name_size = max(8, min(v(17), int(slot_h * 0.5), u(20)))
    rects: dict[int, pygame.Rect] = {}
    for i, slot in enumerate(slots):
        col, row = divmod(i, rows)
        box = pygame.Rect(inner.left + col * (slot_w + gap), y + row * (slot_h + slot_gap), slot_w, slot_h)
        rects[i] = box
        picked = i in clickable
        fill = (252, 232, 190) if picked and i == hover else (248, 242, 226) if picked else PAPER
        pygame.draw.rect(surface, fill, box, border_radius=u(4))
        pygame.draw.rect(surface, PICK if picked else PAPER_EDGE, box, max(1, u(3) if picked else 1),
                         border_radius=u(4))
        number_font = font_px(max(8, int(name_size * 0.8)), True)
        draw_text(surface, str(i + 1), number_font, PAPER_DIM, (box.left + u(6), box.centery), anchor="midleft")
        text_left = box.left + u(6) + number_font.size("10")[0] + u(6)
        if slot is None:
            draw_text(surface, "empty slot", font_px(name_size), PAPER_DIM, (text_left, box.centery), anchor="midleft")
            continue
        mark_w = slot.max_damage * (slot_h * 0.55 + u(3))
        label = slot.name + (" (spent)" if slot.spent else "")
        font = fit_font(label, int(box.right - text_left - mark_w - u(10)), name_size, bold=not slot.destroyed)
        ink = PAPER_DIM if slot.destroyed or slot.spent else PAPER_INK
        draw_text(surface, label, font, ink, (text_left, box.centery), anchor="midleft")
        # damage boxes: one per mark the system can carry, an X in each mark taken
        side = int(slot_h * 0.55)
        mx = box.right - u(6) - side
        for k in range(slot.max_damage - 1, -1, -1):
            mark = pygame.Rect(mx, box.centery - side // 2, side, side)
            pygame.draw.rect(surface, PAPER_EDGE, mark, 1)
            if k < slot.damage:
                w = max(2, side // 6)
                pygame.draw.line(surface, MARK_RED, mark.topleft, mark.bottomright, w)
                pygame.draw.line(surface, MARK_RED, mark.topright, mark.bottomleft, w)
            mx -= side + u(3)
        if slot.destroyed:
            pygame.draw.line(surface, MARK_RED, (box.left + u(4), box.centery), (box.right - u(4), box.centery),
                             max(2, u(3)))
    return rects


#: The glossary word each of the roster's numbers explains on hover.
STAT_TERMS = {"MASS": "mass", "SPEED": ("speed", "tie for speed"), "HEAT": "heat", "CREW": ("crew", "hurt crew")}


def stat_spots(scene, boxes: dict[str, pygame.Rect], rules) -> list:
    """Hover spots over the roster's numbers (``boxes``, from ``draw_roster``'s ``stats``) explaining each from
    the glossary; made again only when the boxes move or the scene's widgets were rebuilt. Kept on the scene
    as ``stat_spots``."""
    from game.client.cosmoforce.glossary import WORDS

    root = getattr(scene, "root", None)
    if root is None:
        return []
    key = (tuple(tuple(box) for box in boxes.values()), id(root))
    spots = getattr(scene, "stat_spots", [])
    if getattr(scene, "_stat_key", None) == key and all(spot.alive() for spot in spots):
        return spots
    for spot in spots:
        spot.kill()
    spots = [WORDS.hotspot(box, STAT_TERMS[label], rules, scene.context, root) for label, box in boxes.items()]
    scene.stat_spots, scene._stat_key = spots, key
    return spots
