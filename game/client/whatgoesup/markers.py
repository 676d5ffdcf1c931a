"""Upgoer markers on The Field: a program's colour AND shape, fanned out when they share a step,
gliding along the rails after a move; debris looks like debris, and a craft flown by underped systems alone
(robots) wears a robot's visor and antenna. Also the words of a craft's detail card.

Marker positions live in board units, so a glide keeps going while the player zooms or pans.
"""
from __future__ import annotations

import math
from bisect import bisect_left
from collections import deque
from dataclasses import dataclass
from typing import TYPE_CHECKING, Optional

import pygame

from game.client.kit.draw import SHAPE_WORDS, aa_circle, draw_marker, hex_colour, mix, shape_for
from game.client.kit.words import in_sentence
from game.client.whatgoesup.board_view import BoardView
from game.client.whatgoesup.story_words import rating_words

if TYPE_CHECKING:
    from game.games.whatgoesup.rules.engine import Engine
    from game.games.whatgoesup.rules.state import GameState, Upgoer

ON_BOARD = ("pad", "flying", "debris", "written_off")


def robot_crewed(state: "GameState", upgoer: "Upgoer") -> bool:
    """A craft flown by underped systems alone: at least one aboard and no derp."""
    crew = [d for d in state.derps if d.location == upgoer.id and not d.dead]
    return bool(crew) and all(d.is_system for d in crew)


def draw_robot_badge(surface: pygame.Surface, centre, r: float, awake: bool = True) -> None:
    """The underped craft's mark over its marker: a dark visor with two eyes (lit while a robot is awake)
    and an antenna with a bead, so it reads as a robot whatever the program's shape and colour."""
    x, y = centre
    visor = pygame.Rect(0, 0, max(4, round(r * 1.3)), max(3, round(r * 0.55)))
    visor.center = (round(x), round(y + r * 0.05))
    pygame.draw.rect(surface, (20, 16, 40), visor, border_radius=max(1, visor.h // 2))
    eye = (255, 214, 90) if awake else (110, 104, 130)
    for k in (-1, 1):
        aa_circle(surface, eye, (x + k * r * 0.32, visor.centery), max(1.0, r * 0.14))
    top = (x, y - r * 0.95)
    tip = (x + r * 0.3, y - r * 1.65)
    pygame.draw.line(surface, (20, 16, 40), top, tip, max(2, round(r * 0.3)))  # dark rim, then a light rod
    pygame.draw.line(surface, (214, 210, 232), top, tip, max(1, round(r * 0.14)))
    aa_circle(surface, (20, 16, 40), tip, max(1.5, r * 0.32))
    aa_circle(surface, eye, tip, max(1.0, r * 0.22))


# ---------------------------------------------------------------- fanning out

def fan_positions(view: BoardView, step: str, count: int, radius: float) -> list[tuple[float, float]]:
    """Where ``count`` markers of ``radius`` sit round one step: side by side on an arc just clear of the
    node, centred on the side facing away from the step's body (or above it), never overlapping, so each
    stays in sight and can be clicked. Many markers close the arc into a wider circle."""
    geo = view.geometry
    cx, cy = view.step_screen(step)
    system = geo.system_of(step)
    if system is not None:
        bx, by = view.to_screen(system.centre)
        outward = math.atan2(cy - by, cx - bx) if (cx, cy) != (bx, by) else -math.pi / 2
    else:
        outward = -math.pi / 2
    spacing = radius * 2.75  # centre to centre: two markers with their rims and a little air
    reach = view.radius_for(step) + radius * 1.35
    reach = max(reach, spacing * count / math.tau)
    step_angle = spacing / reach
    angles = [outward + (k - (count - 1) / 2) * step_angle for k in range(count)]
    return [(cx + reach * math.cos(a), cy + reach * math.sin(a)) for a in angles]


def separate(points: dict[str, tuple[float, float]], gap: float, rounds: int = 24) -> dict[str, tuple[float, float]]:
    """``points`` pushed apart, each pair that is closer than ``gap`` by half the shortfall each, until none
    is (or ``rounds`` passes): fans of neighbouring steps that meet spread out instead of piling up."""
    pos = {uid: [x, y] for uid, (x, y) in points.items()}
    ids = list(pos)
    for _ in range(rounds):
        moved = False
        for i, a in enumerate(ids):
            for b in ids[i + 1:]:
                dx, dy = pos[b][0] - pos[a][0], pos[b][1] - pos[a][1]
                d = math.hypot(dx, dy)
                if d >= gap - 1e-6:
                    continue
                if d < 1e-6:  # exactly on top of each other: part them sideways
                    dx, dy, d = 1.0, 0.0, 1.0
                push = (gap - d) / 2 + 0.01
                pos[a][0] -= dx / d * push
                pos[a][1] -= dy / d * push
                pos[b][0] += dx / d * push
                pos[b][1] += dy / d * push
                moved = True
        if not moved:
            break
    return {uid: (x, y) for uid, (x, y) in pos.items()}


# ---------------------------------------------------------------- gliding

@dataclass
class Glide:
    points: list[tuple[float, float]]  # board units
    duration: float
    time: float = 0.0

    def __post_init__(self) -> None:
        lengths = [0.0]  # the distance along the path to each point, measured once per glide
        for a, b in zip(self.points, self.points[1:]):
            lengths.append(lengths[-1] + math.hypot(b[0] - a[0], b[1] - a[1]))
        self._lengths = lengths

    @property
    def done(self) -> bool:
        return self.time >= self.duration

    def position(self) -> tuple[float, float]:
        if self.done or len(self.points) < 2:
            return self.points[-1]
        t = self.time / self.duration
        t = t * t * (3 - 2 * t)  # ease in and out
        lengths = self._lengths
        target = lengths[-1] * t
        i = bisect_left(lengths, target, 1)
        if i < len(lengths):
            seg = lengths[i] - lengths[i - 1] or 1.0
            f = (target - lengths[i - 1]) / seg
            a, b = self.points[i - 1], self.points[i]
            return (a[0] + (b[0] - a[0]) * f, a[1] + (b[1] - a[1]) * f)
        return self.points[-1]


class MarkerLayer:
    """Where each Upgoer's marker is drawn, and the glides between steps."""

    STEP_SECONDS = 0.28
    MAX_SECONDS = 1.6

    def __init__(self, view: BoardView, time_factor: float = 1.0) -> None:
        self.view = view
        self.time_factor = time_factor
        self.at: dict[str, str] = {}  # upgoer id -> step id it is drawn at (after its glide)
        self.glides: dict[str, Glide] = {}
        self.screen_pos: dict[str, tuple[float, float]] = {}
        self.radius = 8.0
        self._state_key: object = None
        self._markers: list[tuple[str, str, tuple[int, int, int], bool, str]] = []
        self.robots: dict[str, bool] = {}  # underped craft (robots alone aboard) -> whether a robot is awake
        self.names: dict[str, str] = {}  # upgoer id -> its name, for the tags shown when zoomed in
        self._fan_key: object = None
        self._fanned: dict[str, tuple[float, float]] = {}  # resting markers, in board pixels
        self._tag_cache: dict = {}
        self.tag_rects: dict[str, pygame.Rect] = {}  # upgoer id -> where its name tag was last drawn (on screen)

    def step_of(self, upgoer: "Upgoer") -> Optional[str]:
        geo = self.view.geometry
        if upgoer.status not in ON_BOARD:
            return None
        location = upgoer.location if upgoer.location in geo.steps else geo.board.home.id
        return location

    def path_between(self, start: str, end: str) -> list[str]:
        """The steps a craft passes from ``start`` to ``end`` (the shortest run over rails, burns and fallbacks)."""
        return self._path(start, end)

    def _path(self, start: str, end: str) -> list[str]:
        """Shortest run of steps from ``start`` to ``end`` over rails, burns and fallbacks."""
        geo = self.view.geometry
        if start == end:
            return []
        prev: dict[str, Optional[str]] = {start: None}
        queue = deque([start])
        while queue:
            here = queue.popleft()
            if here == end:
                break
            for nxt in geo.board.exits(here, geo.scenario):
                if nxt in geo.steps and nxt not in prev:
                    prev[nxt] = here
                    queue.append(nxt)
        if end not in prev:
            return [end]
        out = []
        node: Optional[str] = end
        while node is not None and node != start:
            out.append(node)
            node = prev[node]
        return out[::-1]

    def sync(self, state: "GameState", snap: bool = False) -> None:
        """Follow the state: markers that changed step start gliding there (or jump when ``snap``)."""
        geo = self.view.geometry
        seen = set()
        markers = []
        for upgoer in state.upgoers:
            step = self.step_of(upgoer)
            if step is None:
                continue
            seen.add(upgoer.id)
            self.names[upgoer.id] = upgoer.name
            program = state.programs[upgoer.owner]
            markers.append((upgoer.id, step, hex_colour(program.colour), upgoer.status in ("debris", "written_off"),
                            shape_for(upgoer.owner)))
            if robot_crewed(state, upgoer):
                self.robots[upgoer.id] = any(d.awake for d in state.derps if d.location == upgoer.id)
            else:
                self.robots.pop(upgoer.id, None)
            old = self.at.get(upgoer.id)
            if old is not None and old != step and not snap and self.time_factor > 0:
                stops = self._path(old, step)
                points = geo.route_path(stops, old) or [geo.pos(old), geo.pos(step)]
                start = self.glides[upgoer.id].position() if upgoer.id in self.glides else geo.pos(old)
                seconds = min(self.MAX_SECONDS, self.STEP_SECONDS * max(1, len(stops))) * self.time_factor
                self.glides[upgoer.id] = Glide([start] + points, seconds)
            elif snap or self.time_factor <= 0:
                self.glides.pop(upgoer.id, None)
            self.at[upgoer.id] = step
        for gone in set(self.at) - seen:
            self.at.pop(gone, None)
            self.glides.pop(gone, None)
            self.robots.pop(gone, None)
        self._markers = markers

    @property
    def moving(self) -> bool:
        return bool(self.glides)

    def update(self, dt: float) -> None:
        for uid in list(self.glides):
            glide = self.glides[uid]
            glide.time += dt
            if glide.done:
                del self.glides[uid]

    def layout_positions(self) -> dict[str, tuple[float, float]]:
        """Screen position of every marker: resting ones fanned out beside their step (and, where fans of
        neighbouring steps meet, nudged apart so no two overlap), gliding ones on their way."""
        view = self.view
        self.radius = view.node_radius() * 1.3
        groups: dict[str, list[str]] = {}
        for uid, step, *_ in self._markers:
            if uid not in self.glides:
                groups.setdefault(step, []).append(uid)
        key = (view.zoom, view.layout.scale, tuple((step, tuple(uids)) for step, uids in groups.items()))
        if key != self._fan_key:  # laid out in board pixels, so panning only moves them
            self._fan_key = key
            ox, oy = view.offset
            fanned: dict[str, tuple[float, float]] = {}
            for step, uids in groups.items():
                fanned.update((uid, (x - ox, y - oy)) for uid, (x, y) in
                              zip(uids, fan_positions(view, step, len(uids), self.radius)))
            self._fanned = separate(fanned, self.radius * 2.5)
        ox, oy = view.offset
        out = {uid: (x + ox, y + oy) for uid, (x, y) in self._fanned.items()}
        for uid, glide in self.glides.items():
            out[uid] = view.to_screen(glide.position())
        self.screen_pos = out
        return out

    def resting_rects(self) -> list[pygame.Rect]:
        """The screen rectangle each resting marker covers (rim and highlight ring included)."""
        r = self.radius * 1.45
        return [pygame.Rect(int(x - r), int(y - r), int(2 * r), int(2 * r))
                for uid, (x, y) in self.screen_pos.items() if uid not in self.glides]

    def drawn_rects(self, hidden: Optional[str] = None) -> list[pygame.Rect]:
        """Where ``draw`` may paint each marker (its shape, robot badge, highlight and pulsing rings; not the
        name tags), from the positions of the last ``layout_positions``."""
        half = self.radius * 2.3 + 3
        return [pygame.Rect(int(x - half), int(y - half), int(2 * half) + 1, int(2 * half) + 1)
                for uid, (x, y) in self.screen_pos.items() if uid != hidden]

    def marker_at(self, point, only: Optional[set[str]] = None) -> Optional[str]:
        best, best_d = None, 1e9
        for uid, pos in self.screen_pos.items():
            if only is not None and uid not in only:
                continue
            d = math.hypot(pos[0] - point[0], pos[1] - point[1])
            if d <= self.radius * 1.5 and d < best_d:
                best, best_d = uid, d
        return best

    def draw(self, surface: pygame.Surface, active: Optional[str], time: float, hidden: Optional[str] = None,
             hover: Optional[str] = None, selected: Optional[str] = None,
             avoid: Optional[list[pygame.Rect]] = None) -> None:
        positions = self.layout_positions()
        r = self.radius
        order = sorted(self._markers, key=lambda m: (m[0] == active, m[0] == hover))
        for uid, step, colour, debris, shape in order:
            if uid == hidden or uid not in positions:
                continue
            pos = positions[uid]
            if uid == active:
                pulse = 0.5 + 0.5 * math.sin(time * 4.0)
                for k in range(3):
                    aa_circle(surface, (255, 230, 140), pos, r * (1.9 + 0.25 * pulse) - k, width=1)
            if uid == selected:
                aa_circle(surface, (255, 255, 255), pos, r * 1.75, width=2)
            size = r * (1.12 if uid == hover else 1.0)
            draw_marker(surface, shape, colour, pos, size, debris=debris)
            if uid in self.robots and not debris:
                draw_robot_badge(surface, pos, size, self.robots[uid])
        if self.view.labels_on:
            self.draw_tags(surface, positions, hidden, avoid, active)
        else:
            self.tag_rects = {}

    def draw_tags(self, surface: pygame.Surface, positions: dict, hidden: Optional[str] = None,
                  avoid: Optional[list[pygame.Rect]] = None, active: Optional[str] = None) -> None:
        """Name tags beside the markers (zoomed in only), the active craft's first: each goes under its marker,
        else above, right or left of it, wherever it covers no other tag, marker or anything in ``avoid`` (the
        board's names) and stays on the board; a craft with no such place goes untagged. Where each tag went
        is kept in ``tag_rects``."""
        from game.client.kit.style import font_px

        layout = self.view.layout
        size = max(9, layout.px(13))
        placed: list[pygame.Rect] = list(avoid or [])
        bodies = self.tag_bodies(positions)
        self.tag_rects = {}
        order = sorted(self._markers, key=lambda m: m[0] != active)  # the craft in play claims its place first
        for uid, step, colour, debris, shape in order:
            if uid == hidden or uid not in positions or uid in self.glides:
                continue
            name = self.names.get(uid, uid)
            key = (name, size, colour)
            image = self._tag_cache.get(key)
            if image is None:
                if len(self._tag_cache) > 200:
                    self._tag_cache.clear()
                image = font_px(size, True).render(name, True, mix(colour, (255, 255, 255), 0.55))
                self._tag_cache[key] = image
            x, y = positions[uid]
            w, h = image.get_size()
            reach = self.radius * (2.2 if uid == active else 1.45)  # clear of the active craft's pulsing rings
            pad_x, pad_y = layout.px(8), layout.px(2)
            for centre in ((x, y + reach + h / 2), (x, y - reach - h / 2),
                           (x + reach + (w + pad_x) / 2, y), (x - reach - (w + pad_x) / 2, y)):
                rect = image.get_rect(center=(int(centre[0]), int(centre[1])))
                plate = rect.inflate(pad_x, pad_y)
                if (self.view.rect.contains(plate) and plate.collidelist(placed) == -1
                        and not any(plate.colliderect(b) for other, b in bodies.items() if other != uid)):
                    break
            else:
                continue
            placed.append(plate)
            self.tag_rects[uid] = plate
            pygame.draw.rect(surface, (10, 8, 30), plate, border_radius=layout.px(5))
            surface.blit(image, rect)

    def tag_bodies(self, positions: Optional[dict] = None) -> dict[str, pygame.Rect]:
        """What each marker's shape covers (rim included), which no other craft's name tag may cover."""
        r = self.radius * 1.3
        return {uid: pygame.Rect(int(x - r), int(y - r), int(2 * r), int(2 * r))
                for uid, (x, y) in (self.screen_pos if positions is None else positions).items()}


# ---------------------------------------------------------------- the detail card's words

def upgoer_details(engine: "Engine", state: "GameState", upgoer_id: str) -> list[tuple[str, str]]:
    """(style, text) lines describing a craft: blueprint, crew, fuel, rations and damage.

    Styles: title, sub, head, line, warn.
    """
    upgoer = state.find("upgoer", upgoer_id)
    if upgoer is None:
        return [("title", "Gone"), ("sub", "This craft is no longer on the board.")]
    board = engine.rules.board
    program = state.programs[upgoer.owner]
    flight = engine.flight_rules
    where = "on the pad" if upgoer.status == "pad" else board.step(upgoer.location).name \
        if upgoer.location in {s.id for s in board.steps} else upgoer.location
    status = {"pad": "waiting on the pad", "flying": f"flying: {where}", "debris": f"debris at {where}",
              "written_off": f"written off at {where}"}.get(upgoer.status, upgoer.status)
    lines = [("title", upgoer.name), ("sub", f"{program.name} ({SHAPE_WORDS[shape_for(upgoer.owner)]}) · {status}")]
    if upgoer.stranded:
        lines.append(("warn", "Stranded: it can no longer be steered."))
    if robot_crewed(state, upgoer):
        lines.append(("sub", "Underped craft: flown by robots alone."))
        if upgoer.orders:
            to = ", then ".join(flight.order_words(state, s) for s in upgoer.orders)
            lines.append(("line", f"Written orders: {to}."))
        elif upgoer.orders_aborted:
            lines.append(("line", "Orders aborted: it coasts along its rail."))
        if upgoer.orders_open:
            lines.append(("line", "Freshly recharged: its owner may write it new orders in R&D."))
    lines.append(("head", "Parts"))
    for module in upgoer.modules:
        item = state.find("item", module)
        if item is None:
            continue
        thing = state.thing(item.thing_id)
        kind = engine.rules.components.kind(thing.kind)
        rating = engine.item_rating(state, item)
        extra = []
        if item.uses_left is not None:
            extra.append(f"{item.uses_left} uses left")
        if item.active:
            extra.append("switched on")
        words = rating_words(rating.fail, rating.boom)
        text = f"{thing.name} ({in_sentence(kind.name)}, mass {thing.mass}): {words}"
        if extra:
            text += " · " + ", ".join(extra)
        lines.append(("warn" if item.disabled else "line", text + (" · DISABLED" if item.disabled else "")))
    for n, cluster in enumerate(upgoer.stages):
        names = [state.thing(state.item(i).thing_id) for i in cluster if state.find("item", i)]
        if names:
            label = "launch stage" if n == 0 and len(upgoer.stages) > 1 else (
                "insertion stage" if n == len(upgoer.stages) - 1 and len(upgoer.stages) > 1 else "lower stage")
            rating = min((engine.item_rating(state, state.item(i)) for i in cluster), key=lambda r: r.score())
            words = rating_words(rating.fail, rating.boom)
            lines.append(("line", f"{' + '.join(t.name for t in names)} ({label}): {words}"))
    lines.append(("head", "Crew"))
    crew = [d for d in state.derps if d.location == upgoer.id and not d.dead]
    if not crew:
        lines.append(("line", "Nobody aboard."))
    for d in crew:
        robot = " (robot)" if d.is_system else ""
        text = (f"{d.name}{robot}: Piloting {flight.piloting(state, d)}, Engineering {d.engineering}, "
                f"Stamina {d.current_stamina}/{d.stamina} · {d.condition}")
        lines.append(("warn" if d.injured or d.powered_down or d.current_stamina <= 0 else "line", text))
    lines.append(("head", "Supplies"))
    supplies = f"Fuel {upgoer.fuel} · Rations {upgoer.rations} derp-turn{'s' if upgoer.rations != 1 else ''}"
    if upgoer.status in ("flying", "debris") and upgoer.modules:
        try:
            supplies += f" · mass {float(flight.spacecraft_mass(state, upgoer)):g}"
        except Exception:  # noqa: BLE001 - a detail card must never break the game
            pass
    lines.append(("line", supplies))
    damage = []
    for item in state.items:
        if item.location == upgoer.id and (item.flight_fail_penalty or item.flight_boom_penalty):
            damage.append(f"{state.thing(item.thing_id).name}: Fail safety -{item.flight_fail_penalty}, "
                          f"Boom safety -{item.flight_boom_penalty}")
    if damage:
        lines.append(("head", "Damage this flight"))
        lines.extend(("warn", d) for d in damage)
    if upgoer.docked_with:
        names = [state.upgoer(u).name for u in upgoer.docked_with if state.find("upgoer", u)]
        lines.append(("line", "Docked with " + ", ".join(names)))
    return lines
