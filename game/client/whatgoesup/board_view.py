"""The Field drawn from the board data alone, as a map in the manner of the delta-v "subway maps":
bodies drawn as bodies, orbits as clean rings round them, transfers as lines that leave and join
the rings without crossing a body, and every step's kind told by its shape.

``FieldGeometry`` turns ``rules.board`` into drawable shapes in *board units*. Rings are found by
following each rail's ``next`` round to where it started and drawn as circles round their body (each
step sits on its ring at the angle its position gives). A body and everything within reach of its
rings form its *system*: a link inside one system is drawn in polar terms round the body (a transfer
between rings spirals from one to the other; a fall into a special step inside, such as a deorbit
burn to reentry, drops to that height and glides on in the rings' direction of travel, so every
such fall shares one lane). Links between systems are smooth curves that leave a ring outwards and
steer round every body.

``BoardView`` owns the camera (zoom and pan inside a view rectangle), paints the static layer once
per zoom into a cache, lays out the names (``board_labels``) and answers "which step is under the
mouse". No step, rail or body is named here: change ``rules/board.yaml`` and the picture follows.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Iterable, Optional

import pygame

from game.client.kit.draw import aa_circle, aa_polygon, hex_colour, mix  # noqa: F401  (re-exported for the Field)
from game.client.kit.style import Layout
from game.client.whatgoesup import board_art as art
from game.client.whatgoesup.board_art import SPACE

SPECIAL_KINDS = ("home", "launch", "orbital_insertion", "reentry", "landing", "lunar_landing", "rock_docking",
                 "escape", "surface")
LABEL_ZOOM = 1.35  # crafts' name tags appear once the board is zoomed this far past fit-to-window
SYSTEM_REACH = 1.25  # a body's system reaches this far past its outermost ring
GLIDE_DROP = math.radians(26)  # a fall to a lower special step reaches its height within this angle

Point = tuple[float, float]


def _unit(dx: float, dy: float) -> Point:
    length = math.hypot(dx, dy) or 1.0
    return (dx / length, dy / length)


def _smooth(t: float) -> float:
    t = max(0.0, min(1.0, t))
    return t * t * (3 - 2 * t)


def _wrap(angle: float) -> float:
    """``angle`` brought into (-pi, pi]."""
    return (angle + math.pi) % math.tau - math.pi


# ---------------------------------------------------------------- geometry (board units)

@dataclass
class Ring:
    """A closed rail: its steps in order round a circle centred on ``centre``."""

    rail: Optional[str]
    steps: list[str]
    centre: Point
    radius: float
    clockwise: bool = True  # on screen (y down): the way a craft coasts round it
    body: Optional[str] = None

    @property
    def rx(self) -> float:
        return self.radius

    @property
    def ry(self) -> float:
        return self.radius

    def angle_of(self, p: Point) -> float:
        return math.atan2(p[1] - self.centre[1], p[0] - self.centre[0])

    def point(self, angle: float) -> Point:
        return (self.centre[0] + self.radius * math.cos(angle), self.centre[1] + self.radius * math.sin(angle))


@dataclass
class System:
    """A body and the space its rings span: links inside it are drawn round the body."""

    body: object
    centre: Point
    radius: float
    reach: float
    clockwise: bool
    rings: list[Ring] = field(default_factory=list)


@dataclass
class Link:
    """One drawn connection: a rail's ``next``, a burn, or a fallback, as a polyline in board units."""

    start: str
    end: str
    kind: str  # rail, burn, fallback
    colour: tuple[int, int, int]
    points: list[Point] = field(default_factory=list)
    lane_from: Optional[int] = None  # a fall that glides on: where the shared lane starts in ``points``
    lane_colour: tuple[int, int, int] = (0, 0, 0)


class FieldGeometry:
    """Everything drawable about a board, in board units, for one scenario."""

    def __init__(self, board, scenario: Optional[str] = None) -> None:
        self.board = board
        self.scenario = scenario
        self.steps = {s.id: s for s in board.steps if board.in_play(s, scenario)}
        self.bodies = [b for b in board.bodies if board.in_play(b, scenario)]
        self.rail_colour = {r.id: hex_colour(r.colour) for r in board.rails}
        self._pos: dict[str, Point] = {sid: (float(s.position[0]), float(s.position[1])) for sid, s in self.steps.items()}
        self.rings: list[Ring] = []
        self.ring_of: dict[str, Ring] = {}
        self._find_rings()
        self.systems: dict[str, System] = {}
        self._find_systems()
        self._system_of: dict[str, Optional[System]] = {sid: self._which_system(sid) for sid in self.steps}
        self.links: list[Link] = []
        self._build_links()

    # -------------------------------------------------------------- where things are
    def pos(self, step_id: str) -> Point:
        return self._pos[step_id]

    def colour_of(self, step_id: str) -> tuple[int, int, int]:
        step = self.steps.get(step_id)
        if step is not None and step.rail in self.rail_colour:
            return self.rail_colour[step.rail]
        return (210, 200, 230)

    def system_of(self, step_id: str) -> Optional[System]:
        return self._system_of.get(step_id)

    def body_centre(self, body) -> Point:
        return (float(body.position[0]), float(body.position[1]))

    def _find_rings(self) -> None:
        bodies = {b.id: b for b in self.bodies}
        seen: set[str] = set()
        for sid, step in self.steps.items():
            if sid in seen or step.rail is None or not step.is_duration:
                continue
            cycle = [sid]
            current = step.next
            while current is not None and current in self.steps and current != sid and current not in cycle \
                    and self.steps[current].rail == step.rail:
                cycle.append(current)
                current = self.steps[current].next
            if current != sid:
                continue
            seen.update(cycle)
            body = next((bodies[self.steps[s].body] for s in cycle if self.steps[s].body in bodies), None)
            if body is not None:
                centre = self.body_centre(body)
            else:
                centre = (sum(self._pos[s][0] for s in cycle) / len(cycle), sum(self._pos[s][1] for s in cycle) / len(cycle))
            radius = sum(math.hypot(self._pos[s][0] - centre[0], self._pos[s][1] - centre[1]) for s in cycle) / len(cycle)
            radius = max(radius, 12.0)
            angles = [math.atan2(self._pos[s][1] - centre[1], self._pos[s][0] - centre[0]) for s in cycle]
            turning = sum(_wrap(b - a) for a, b in zip(angles, angles[1:] + angles[:1]))
            ring = Ring(step.rail, cycle, centre, radius, turning >= 0, body.id if body is not None else None)
            self.rings.append(ring)
            for member, angle in zip(cycle, angles):
                self.ring_of[member] = ring
                self._pos[member] = ring.point(angle)  # on the circle exactly

    def _find_systems(self) -> None:
        for body in self.bodies:
            rings = sorted((r for r in self.rings if r.body == body.id), key=lambda r: r.radius)
            outer = rings[-1].radius if rings else body.radius * 2.0
            self.systems[body.id] = System(body, self.body_centre(body), float(body.radius), outer * SYSTEM_REACH,
                                           rings[0].clockwise if rings else True, rings)

    def _which_system(self, step_id: str) -> Optional[System]:
        ring = self.ring_of.get(step_id)
        if ring is not None and ring.body in self.systems:
            return self.systems[ring.body]
        step = self.steps[step_id]
        if step.body in self.systems:
            return self.systems[step.body]
        p = self._pos[step_id]
        best, best_d = None, 1e18
        for system in self.systems.values():
            d = math.hypot(p[0] - system.centre[0], p[1] - system.centre[1])
            if d <= system.reach and d < best_d:
                best, best_d = system, d
        return best

    # -------------------------------------------------------------- links
    def _ring_arc(self, ring: Ring, a: str, b: str) -> list[Point]:
        t0, t1 = ring.angle_of(self.pos(a)), ring.angle_of(self.pos(b))
        if a == b:
            delta = math.tau if ring.clockwise else -math.tau
        elif ring.clockwise:
            delta = (t1 - t0) % math.tau
        else:
            delta = -((t0 - t1) % math.tau)
        n = max(6, int(abs(delta) / math.tau * 140))
        return [ring.point(t0 + delta * k / n) for k in range(n + 1)]

    def _polar_path(self, system: System, a: str, b: str, kind: str) -> list[Point]:
        """A link round one body: a spiral between heights, or a fall that glides on to a special step."""
        cx, cy = system.centre
        pa, pb = self.pos(a), self.pos(b)
        r0, t0 = math.hypot(pa[0] - cx, pa[1] - cy), math.atan2(pa[1] - cy, pa[0] - cx)
        r1, t1 = math.hypot(pb[0] - cx, pb[1] - cy), math.atan2(pb[1] - cy, pb[0] - cx)
        glide = self._glides(a, b, kind, r0, r1)
        if glide:
            delta = (t1 - t0) % math.tau if system.clockwise else -((t0 - t1) % math.tau)
            drop = min(1.0, GLIDE_DROP / abs(delta)) if abs(delta) > 1e-6 else 1.0
        else:
            delta = _wrap(t1 - t0)
            drop = 1.0
        length = abs(delta) * max(r0, r1) + abs(r1 - r0)
        n = max(8, int(length / 5))
        out = []
        for k in range(n + 1):
            t = k / n
            f = _smooth(t / drop) if glide else 0.45 * t + 0.55 * _smooth(t)
            r = r0 + (r1 - r0) * f
            angle = t0 + delta * t
            out.append((cx + r * math.cos(angle), cy + r * math.sin(angle)))
        return out

    def _glides(self, a: str, b: str, kind: str, r0: float, r1: float) -> bool:
        """Whether a link inside a system falls to a special step below it and glides on in the lane (not if
        that would take it most of the way round: then it falls straight)."""
        target = self.steps[b]
        if kind == "fallback" or b in self.ring_of or target.kind == "burn" or target.is_duration or r1 >= r0 - 1.0:
            return False
        system = self.system_of(a)
        pa, pb = self.pos(a), self.pos(b)
        t0 = math.atan2(pa[1] - system.centre[1], pa[0] - system.centre[0])
        t1 = math.atan2(pb[1] - system.centre[1], pb[0] - system.centre[0])
        travel = (t1 - t0) % math.tau if system.clockwise else (t0 - t1) % math.tau
        return travel < math.tau * 0.8

    def _lane_start(self, link: Link) -> Optional[int]:
        """For a fall that glides on to its step: the index in its points where it has reached the lane."""
        system = self.system_of(link.start)
        if system is None or system is not self.system_of(link.end):
            return None
        cx, cy = system.centre
        pa, pb = self.pos(link.start), self.pos(link.end)
        r0, r1 = math.hypot(pa[0] - cx, pa[1] - cy), math.hypot(pb[0] - cx, pb[1] - cy)
        if not self._glides(link.start, link.end, link.kind, r0, r1):
            return None
        for i, (x, y) in enumerate(link.points):
            if abs(math.hypot(x - cx, y - cy) - r1) < 0.5:
                return i if i < len(link.points) - 2 else None
        return None

    def _flow_tangent(self, step_id: str) -> Optional[Point]:
        """The way a craft is heading as it passes a step off the rings: from the rail before it to the next."""
        step = self.steps[step_id]
        before = [sid for sid, s in self.steps.items() if s.next == step_id and sid != step_id]
        before.sort(key=lambda sid: self.steps[sid].rail != step.rail)
        if not before or step.next is None or step.next not in self.steps:
            return None
        p, q = self.pos(before[0]), self.pos(step.next)
        return _unit(q[0] - p[0], q[1] - p[1])

    def _end_direction(self, step_id: str, other: Point, leaving: bool, kind: str) -> Point:
        """The heading of a free curve at one of its ends (``leaving`` the step, or arriving at it)."""
        p = self.pos(step_id)
        to = _unit(other[0] - p[0], other[1] - p[1]) if leaving else _unit(p[0] - other[0], p[1] - other[1])
        system = self.system_of(step_id)
        if system is not None:
            out = _unit(p[0] - system.centre[0], p[1] - system.centre[1])
            if not leaving:
                out = (-out[0], -out[1])
            return _unit(out[0] * 1.2 + to[0], out[1] * 1.2 + to[1])
        tangent = self._flow_tangent(step_id)
        if tangent is None or (tangent[0] * to[0] + tangent[1] * to[1]) < -0.2:
            return to
        weight = 1.6 if kind == "rail" else 0.7
        return _unit(tangent[0] * weight + to[0], tangent[1] * weight + to[1])

    def _clear_of_bodies(self, points: list[Point], a: str, b: str) -> bool:
        """A free curve keeps off every body, and out of the rings of any system it does not join."""
        mine = {id(self.system_of(a)), id(self.system_of(b))}
        for system in self.systems.values():
            keep = system.radius * 1.3 if id(system) in mine else system.reach * 0.82
            cx, cy = system.centre
            if any(math.hypot(x - cx, y - cy) < keep for x, y in points[1:-1]):
                return False
        return True

    def _free_path(self, a: str, b: str, kind: str) -> list[Point]:
        p0, p3 = self.pos(a), self.pos(b)
        chord = math.hypot(p3[0] - p0[0], p3[1] - p0[1]) or 1.0
        d0 = self._end_direction(a, p3, True, kind)
        d3 = self._end_direction(b, p0, False, kind)
        normal = (-(p3[1] - p0[1]) / chord, (p3[0] - p0[0]) / chord)
        first = None
        for bend in (0.0, 0.18, -0.18, 0.35, -0.35, 0.55, -0.55, 0.8, -0.8):
            reach = chord * (0.36 + abs(bend) * 0.3)
            p1 = (p0[0] + d0[0] * reach + normal[0] * chord * bend, p0[1] + d0[1] * reach + normal[1] * chord * bend)
            p2 = (p3[0] - d3[0] * reach + normal[0] * chord * bend, p3[1] - d3[1] * reach + normal[1] * chord * bend)
            n = max(12, int(chord / 8))
            pts = []
            for k in range(n + 1):
                t = k / n
                u = 1 - t
                pts.append((u ** 3 * p0[0] + 3 * u * u * t * p1[0] + 3 * u * t * t * p2[0] + t ** 3 * p3[0],
                            u ** 3 * p0[1] + 3 * u * u * t * p1[1] + 3 * u * t * t * p2[1] + t ** 3 * p3[1]))
            if first is None:
                first = pts
            if self._clear_of_bodies(pts, a, b):
                return pts
        return first or [p0, p3]

    def path(self, a: str, b: str, kind: str = "rail") -> list[Point]:
        ring = self.ring_of.get(a)
        if kind == "rail" and ring is not None and self.ring_of.get(b) is ring:
            return self._ring_arc(ring, a, b)
        system = self.system_of(a)
        if system is not None and system is self.system_of(b):
            return self._polar_path(system, a, b, kind)
        return self._free_path(a, b, kind)

    def _build_links(self) -> None:
        for sid, step in self.steps.items():
            if step.next and step.next in self.steps and not (sid == step.next and sid in self.ring_of):
                colour = self.colour_of(sid) if step.rail else self.colour_of(step.next)
                self.links.append(Link(sid, step.next, "rail", colour, self.path(sid, step.next, "rail")))
            for burn in self.board.burns_from(sid, self.scenario):
                if burn.to in self.steps:
                    self.links.append(Link(sid, burn.to, "burn", self.colour_of(burn.to), self.path(sid, burn.to, "burn")))
            if step.fallback and step.fallback in self.steps and step.fallback != step.next \
                    and step.kind in ("orbital_insertion",):
                self.links.append(Link(sid, step.fallback, "fallback", (200, 120, 130),
                                       self.path(sid, step.fallback, "fallback")))
        for link in self.links:
            link.lane_from = self._lane_start(link)
            link.lane_colour = self.colour_of(link.end)

    def ring_links(self, ring: Ring) -> list[Link]:
        return [link for link in self.links if link.kind == "rail" and self.ring_of.get(link.start) is ring
                and self.ring_of.get(link.end) is ring]

    def route_path(self, stops: Iterable[str], start: str) -> list[Point]:
        """A polyline through a route's steps, following rails and burns."""
        out: list[Point] = []
        here = start
        for target in stops:
            if target not in self.steps or here not in self.steps:
                continue
            burns = {b.to for b in self.board.burns_from(here, self.scenario)}
            kind = "burn" if target in burns and target != self.steps[here].next else "rail"
            out.extend(self.path(here, target, kind))
            here = target
        return out

    # -------------------------------------------------------------- extent
    def content_bounds(self, margin: float = 40.0) -> tuple[float, float, float, float]:
        """(x, y, w, h) in board units around every step, ring, body and link, plus ``margin``."""
        cache = self.__dict__.setdefault("_bounds", {})  # the camera asks several times a frame
        found = cache.get(margin)
        if found is None:
            found = cache[margin] = self._content_bounds(margin)
        return found

    def _content_bounds(self, margin: float) -> tuple[float, float, float, float]:
        xs, ys = [], []
        for sid in self.steps:
            x, y = self.pos(sid)
            xs.append(x)
            ys.append(y)
        for ring in self.rings:
            xs += [ring.centre[0] - ring.radius, ring.centre[0] + ring.radius]
            ys += [ring.centre[1] - ring.radius, ring.centre[1] + ring.radius]
        for body in self.bodies:
            xs += [body.position[0] - body.radius, body.position[0] + body.radius]
            ys += [body.position[1] - body.radius, body.position[1] + body.radius]
        for link in self.links:
            xs += [p[0] for p in link.points]
            ys += [p[1] for p in link.points]
        if not xs:
            return (0.0, 0.0, float(self.board.width), float(self.board.height))
        x0, y0 = min(xs) - margin, min(ys) - margin
        return (x0, y0, max(xs) + margin - x0, max(ys) + margin - y0)


KIND_WORDS = {
    "home": "Spaceport", "launch": "Launch (the launch stage rolls)",
    "orbital_insertion": "Orbital insertion (the insertion stage rolls)", "burn": "Burn junction",
    "orbit": "Stable orbit (duration step)", "transit": "Transit (duration step)",
    "surface": "Surface (duration step)", "reentry": "Reentry (capsules roll)", "landing": "Landing (capsules roll)",
    "lunar_landing": "Lunar landing (thruster, then capsule)", "rock_docking": "Rock docking", "escape": "Escape (leaves play)",
}


# ---------------------------------------------------------------- the view

class BoardView:
    """Camera plus cached static layer for The Field inside ``rect`` (screen pixels)."""

    MIN_ZOOM_FACTOR = 0.6  # of fit-to-window
    MAX_ZOOM_FACTOR = 4.0

    def __init__(self, board, layout: Layout, rect: pygame.Rect, scenario: Optional[str] = None,
                 reserve_bottom: int = 0) -> None:
        self.geometry = FieldGeometry(board, scenario)
        self.board = board
        self.layout = layout
        self.rect = pygame.Rect(rect)
        self.reserve_bottom = reserve_bottom  # pixels at the view's foot that fit-to-window keeps clear (a legend)
        self.screen_size = layout.size
        self.zoom = 1.0
        self.offset = [0.0, 0.0]  # screen position of board (0, 0)
        self._cache: Optional[pygame.Surface] = None
        self._cache_origin = (0, 0)  # board-pixel coordinates of the cache's top-left
        self._cache_zoom = -1.0
        self.cache_builds = 0
        self._glows: dict = {}
        self.fit()

    # ------------------------------------------------------------------ camera
    @property
    def fit_rect(self) -> pygame.Rect:
        """The part of the view the whole board is fitted into."""
        return pygame.Rect(self.rect.left, self.rect.top, self.rect.w, max(1, self.rect.h - self.reserve_bottom))

    @property
    def fit_zoom(self) -> float:
        _, _, w, h = self.geometry.content_bounds()
        area = self.fit_rect
        return min(area.w / w, area.h / h)

    def fit(self) -> None:
        """Zoom so everything on the board shows in the view rectangle (above any reserved foot), centred."""
        x, y, w, h = self.geometry.content_bounds()
        self.zoom = self.fit_zoom
        area = self.fit_rect
        self.offset = [area.centerx - (x + w / 2) * self.zoom, area.centery - (y + h / 2) * self.zoom]

    def resize(self, layout: Layout, rect: pygame.Rect, reserve_bottom: Optional[int] = None) -> None:
        self.layout = layout
        self.rect = pygame.Rect(rect)
        if reserve_bottom is not None:
            self.reserve_bottom = reserve_bottom
        self.screen_size = layout.size
        self._cache = None
        self.fit()

    def to_screen(self, p) -> Point:
        return (self.offset[0] + p[0] * self.zoom, self.offset[1] + p[1] * self.zoom)

    def to_board(self, p) -> Point:
        return ((p[0] - self.offset[0]) / self.zoom, (p[1] - self.offset[1]) / self.zoom)

    def step_screen(self, step_id: str) -> Point:
        return self.to_screen(self.geometry.pos(step_id))

    @property
    def zoom_factor(self) -> float:
        return self.zoom / self.fit_zoom

    def zoom_at(self, factor: float, screen_point=None) -> None:
        """Zoom by ``factor`` keeping ``screen_point`` (default: the view's centre) still."""
        sx, sy = screen_point if screen_point is not None else self.rect.center
        bx, by = self.to_board((sx, sy))
        new = max(self.fit_zoom * self.MIN_ZOOM_FACTOR, min(self.fit_zoom * self.MAX_ZOOM_FACTOR, self.zoom * factor))
        self.zoom = new
        self.offset = [sx - bx * new, sy - by * new]
        self.clamp_pan()

    def pan(self, dx: float, dy: float) -> None:
        self.offset[0] += dx
        self.offset[1] += dy
        self.clamp_pan()

    def clamp_pan(self) -> None:
        """Keep at least a third of the view covered by the board, so it can never be lost off screen."""
        x, y, w, h = self.geometry.content_bounds()
        bw, bh = w * self.zoom, h * self.zoom
        keep_x, keep_y = min(bw, self.rect.w) / 3, min(bh, self.rect.h) / 3
        left = self.offset[0] + x * self.zoom
        top = self.offset[1] + y * self.zoom
        new_left = max(self.rect.left + keep_x - bw, min(self.rect.right - keep_x, left))
        new_top = max(self.rect.top + keep_y - bh, min(self.rect.bottom - keep_y, top))
        self.offset[0] += new_left - left
        self.offset[1] += new_top - top

    def board_screen_rect(self) -> pygame.Rect:
        """Where the board's content (steps, rings, bodies) is on screen."""
        x, y, w, h = self.geometry.content_bounds()
        sx, sy = self.to_screen((x, y))
        return pygame.Rect(int(sx), int(sy), int(w * self.zoom), int(h * self.zoom))

    # ------------------------------------------------------------------ sizes
    def node_radius(self) -> float:
        return max(4.0, self.layout.px(7.5) * math.sqrt(max(0.6, self.zoom_factor)))

    def junction_radius(self) -> float:
        return self.node_radius() * 1.05

    def line_width(self) -> float:
        return max(1.5, self.layout.scale * 2.6 * math.sqrt(max(0.6, self.zoom_factor)))

    def badge_radius(self) -> float:
        return self.node_radius() * 1.5

    def radius_for(self, step_id: str) -> float:
        kind = self.geometry.steps[step_id].kind
        if kind == "burn":
            return self.junction_radius()
        if kind in SPECIAL_KINDS:
            return self.badge_radius()
        return self.node_radius()

    @property
    def labels_on(self) -> bool:
        """Whether crafts' name tags show (zoomed in)."""
        return self.zoom_factor >= LABEL_ZOOM

    # ------------------------------------------------------------------ picking
    def step_at(self, screen_point, slack: float = 1.0) -> Optional[str]:
        """The step whose node is under ``screen_point`` (with a little slack), nearest first."""
        best, best_d = None, 1e9
        for sid in self.geometry.steps:
            sx, sy = self.step_screen(sid)
            d = math.hypot(sx - screen_point[0], sy - screen_point[1])
            reach = self.radius_for(sid) + self.layout.px(6) * slack
            if d <= reach and d < best_d:
                best, best_d = sid, d
        return best

    # ------------------------------------------------------------------ drawing
    def draw(self, surface: pygame.Surface) -> None:
        """Blit the static layer (rebuilding it only when the zoom changed or the view left the cache)."""
        # the board pixels under the view's rectangle (the rest of the screen is the Field's panels)
        need = pygame.Rect(int(self.rect.left - self.offset[0]), int(self.rect.top - self.offset[1]), self.rect.w,
                           self.rect.h)
        if (self._cache is None or abs(self._cache_zoom - self.zoom) > 1e-9
                or not pygame.Rect(self._cache_origin, self._cache.get_size()).contains(need)):
            self._build_cache(need)
        surface.blit(self._cache, (self.offset[0] + self._cache_origin[0], self.offset[1] + self._cache_origin[1]))

    def _build_cache(self, need: pygame.Rect) -> None:
        # an eighth of the view spare on each side: a short pan blits from the cache (at 4K the cache is ~38 MB;
        # a quarter spare made it ~75 MB)
        self._cache = None  # the old cache goes before the new one is made (peak memory)
        pad_x, pad_y = need.w // 8, need.h // 8
        area = need.inflate(pad_x * 2, pad_y * 2)
        screen = pygame.display.get_surface()
        surf = pygame.Surface(area.size, 0, screen) if screen is not None else pygame.Surface(area.size)
        self._cache_origin = area.topleft
        self._cache_zoom = self.zoom
        self.cache_builds += 1
        self._paint(surf, area.topleft)
        self._cache = surf

    def _paint(self, surf: pygame.Surface, origin: tuple[int, int]) -> None:
        z = self.zoom
        ox, oy = origin

        def P(p) -> Point:
            return (p[0] * z - ox, p[1] * z - oy)

        geo = self.geometry
        surf.fill(SPACE)
        self._paint_space(surf, origin)
        for body in geo.bodies:
            self._paint_body(surf, body, P(body.position), body.radius * z)
        lw = self.line_width()
        casing = lw + max(2.0, lw * 0.9)
        # rings: cased circles in their rail's colour, with an arrow on every arc between steps
        for ring in geo.rings:
            colour = geo.rail_colour.get(ring.rail or "", (150, 150, 170))
            pts = [P(ring.point(math.tau * k / 180)) for k in range(181)]
            art.thick_polyline(surf, art.CASING, pts, casing * 1.15)
            art.thick_polyline(surf, mix(colour, SPACE, 0.15), pts, lw * 1.15)
        # the lanes where falls glide on to a special step (deorbits to reentry): each drawn once, solid
        lanes = [link for link in geo.links if link.lane_from is not None]
        for link in lanes:
            art.thick_polyline(surf, art.CASING, [P(p) for p in link.points[link.lane_from:]], casing * 0.9)
        for link in lanes:
            art.thick_polyline(surf, mix(link.lane_colour, SPACE, 0.1), [P(p) for p in link.points[link.lane_from:]],
                               lw * 0.9)
        # links: fallbacks, then burns (dashed), then rails, each cased so a crossing reads as a bridge
        for kind in ("fallback", "burn", "rail"):
            for link in geo.links:
                if link.kind != kind or (kind == "rail" and link.start in geo.ring_of
                                         and geo.ring_of.get(link.end) is geo.ring_of[link.start]):
                    continue
                pts = [P(p) for p in link.points[:None if link.lane_from is None else link.lane_from + 1]]
                if kind == "rail":
                    art.thick_polyline(surf, art.CASING, pts, casing)
                    art.thick_polyline(surf, mix(link.colour, SPACE, 0.1), pts, lw)
                elif kind == "burn":
                    art.thick_polyline(surf, art.CASING, pts, lw * 0.8 + max(2.0, lw * 0.7))
                    art.dashed_polyline(surf, mix(link.colour, SPACE, 0.05), pts, lw * 0.8, lw * 2.6, lw * 1.8)
                else:
                    art.dashed_polyline(surf, (170, 110, 125), pts, max(1.0, lw * 0.6), lw * 1.4, lw * 2.0)
        # direction arrows: one in the middle of each ring arc and each link
        for link in geo.links:
            colour = link.colour if link.kind != "fallback" else (190, 130, 140)
            if link.lane_from is None:
                self._paint_arrow(surf, [P(p) for p in link.points], colour, lw, link.kind)
            else:
                self._paint_arrow(surf, [P(p) for p in link.points[:link.lane_from + 1]], colour, lw, link.kind)
                self._paint_arrow(surf, [P(p) for p in link.points[link.lane_from:]], link.lane_colour, lw, "rail")
        for sid, step in geo.steps.items():
            self._paint_step(surf, step, P(geo.pos(sid)))

    def _paint_space(self, surf: pygame.Surface, origin) -> None:
        """Deterministic stars in board units (decoration only, no randomness module)."""
        z = self.zoom
        ox, oy = origin
        w, h = surf.get_size()
        unit = max(1, self.layout.px(1))
        bw, bh = self.board.width, self.board.height
        for k in range(900):
            # A fixed low-discrepancy scatter over three board widths/heights.
            fx = ((k * 0.6180339887) % 1.0) * 3 * bw - bw
            fy = ((k * 0.7548776662 + 0.31) % 1.0) * 3 * bh - bh
            x, y = fx * z - ox, fy * z - oy
            if not (0 <= x < w and 0 <= y < h):
                continue
            b = 50 + (k * 37) % 100
            tint = (k * 13) % 3
            colour = (b, b, min(255, b + 30)) if tint == 0 else ((min(255, b + 25), b, b - 10) if tint == 1 else (b, b, b))
            size = unit * (2 if k % 11 == 0 else 1)
            surf.fill(colour, (int(x), int(y), size, size))

    def _paint_body(self, surf, body, centre, radius) -> None:
        look = getattr(body, "look", "plain")
        if look == "world":
            art.paint_world(surf, centre, radius)
        elif look == "moon":
            art.paint_moon(surf, centre, radius)
        elif look == "rock":
            art.paint_rock(surf, centre, radius, hex_colour(body.colour))
        else:
            aa_circle(surf, hex_colour(body.colour), centre, radius)

    def _paint_arrow(self, surf, pts, colour, lw, kind) -> None:
        """A direction arrow in the middle of a link (none on links too short to hold one)."""
        if len(pts) < 2 or art.polyline_length(pts) < self.node_radius() * 5:
            return
        tip, angle = art.point_along(pts, 0.5)
        size = lw * (2.3 if kind != "fallback" else 1.8) + 3
        tip = (tip[0] + math.cos(angle) * size / 2, tip[1] + math.sin(angle) * size / 2)
        art.arrow_head(surf, mix(colour, (255, 255, 255), 0.25), tip, angle, size, art.CASING)

    def _paint_step(self, surf, step, centre) -> None:
        colour = self.geometry.colour_of(step.id)
        if step.kind == "burn":
            art.draw_burn_node(surf, centre, self.junction_radius())
        elif step.kind in SPECIAL_KINDS:
            art.draw_special_node(surf, step.kind, centre, self.badge_radius())
        elif step.kind == "transit":
            art.draw_transit_node(surf, centre, self.node_radius(), colour)
        else:
            art.draw_orbit_node(surf, centre, self.node_radius(), colour)

    # ------------------------------------------------------------------ dynamic overlays
    def draw_lit(self, surface: pygame.Surface, steps: Iterable[str], time: float, colour=(255, 230, 140),
                 strong: bool = False) -> None:
        """Pulsing halos on the steps a marker may go to: a soft glow, the step redrawn bright on top and
        a pulsing ring (wider while dragging)."""
        pulse = 0.5 + 0.5 * math.sin(time * 6.0)
        # In the steps' sorted order: neighbours' glows overlap and blend by the order they are laid, and a set
        # of names iterates in another order each run (string hashing).
        for sid in sorted(steps):
            if sid not in self.geometry.steps:
                continue
            c = self.step_screen(sid)
            base = self.radius_for(sid)
            r = base + self.layout.px(5) + pulse * self.layout.px(3 if strong else 2)
            key = ("glow", int(r * 1.7), colour[:3])
            glow = self._glows.get(key)
            if glow is None:
                size = int(r * 3.4) + 2
                glow = pygame.Surface((size, size), pygame.SRCALPHA)
                for k in range(10):
                    t = k / 9
                    pygame.draw.circle(glow, (*colour[:3], int(85 * t)), (size / 2, size / 2), r * 1.7 * (1 - 0.55 * t))
                self._glows[key] = glow
            surface.blit(glow, glow.get_rect(center=(int(c[0]), int(c[1]))))
            self._paint_step(surface, self.geometry.steps[sid], c)
            for k in range(max(2, self.layout.px(3 if strong else 2))):
                aa_circle(surface, colour[:3], c, r - k, width=1)

    def lit_rect(self, step_id: str, strong: bool = False) -> pygame.Rect:
        """Everything ``draw_lit`` may paint for one step at any moment of its pulse (glow, step and rings)."""
        c = self.step_screen(step_id)
        r = self.radius_for(step_id) + self.layout.px(5) + self.layout.px(3 if strong else 2)
        half = int(r * 1.7) + 3
        return pygame.Rect(int(c[0]) - half, int(c[1]) - half, 2 * half, 2 * half)

    def draw_hover(self, surface: pygame.Surface, step_id: str) -> None:
        c = self.step_screen(step_id)
        r = self.radius_for(step_id) + self.layout.px(4)
        for k in range(max(1, self.layout.px(2))):
            aa_circle(surface, (255, 255, 255), c, r - k, width=1)

    def draw_route(self, surface: pygame.Surface, start: str, stops: list[str], colour=(255, 230, 140)) -> None:
        pts = [self.to_screen(p) for p in self.geometry.route_path(stops, start)]
        if len(pts) >= 2:
            art.dashed_polyline(surface, colour, pts, self.line_width() * 1.6, self.layout.px(10), self.layout.px(7))

    def step_tooltip(self, step_id: str) -> list[str]:
        """Lines for the hover card of a step: its name, what kind of step it is, and its description."""
        step = self.geometry.steps[step_id]
        lines = [step.name, KIND_WORDS.get(step.kind, step.kind)]
        if step.orbit_type:
            try:
                lines[1] = f"{self.board.orbit_type(step.orbit_type).name}: {lines[1].lower()}"
            except KeyError:
                pass
        burns = self.board.burns_from(step.id, self.geometry.scenario)
        for b in burns:
            lines.append(f"Burn: {b.name} to {self.geometry.steps[b.to].name}" if b.to in self.geometry.steps else b.name)
        if step.description:
            lines.append(step.description)
        return lines
