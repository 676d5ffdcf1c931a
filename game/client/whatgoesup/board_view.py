"""The Field drawn from the board data alone: bodies, rings, transits, rails, steps and their icons.

``FieldGeometry`` turns ``rules.board`` into drawable shapes in *board units* (rings found by
following each rail's ``next`` round to where it started, fitted as ellipses around their body;
every other link an arc). ``BoardView`` owns the camera (zoom and pan inside a view rectangle),
paints the static layer once per zoom into a cache, and answers "which step is under the mouse".
No step, rail or body is named here: change ``rules/board.yaml`` and the picture follows.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Iterable, Optional

import pygame
import pygame.gfxdraw

from game.client.kit.draw import aa_circle, aa_polygon, hex_colour, mix  # noqa: F401  (re-exported for the Field)
from game.client.kit.style import INK, INK_DIM, Layout, font_px

SPECIAL_KINDS = ("home", "launch", "orbital_insertion", "reentry", "landing", "lunar_landing", "rock_docking",
                 "escape", "surface")
SPACE = (8, 9, 28)
LABEL_ZOOM = 1.35  # labels appear once the board is zoomed this far past fit-to-window


# ---------------------------------------------------------------- geometry (board units)

@dataclass
class Ring:
    """A closed rail: its steps in order around an ellipse centred on ``centre``."""

    rail: Optional[str]
    steps: list[str]
    centre: tuple[float, float]
    rx: float
    ry: float

    def angle_of(self, p: tuple[float, float]) -> float:
        return math.atan2((p[1] - self.centre[1]) / self.ry, (p[0] - self.centre[0]) / self.rx)

    def point(self, angle: float) -> tuple[float, float]:
        return (self.centre[0] + self.rx * math.cos(angle), self.centre[1] + self.ry * math.sin(angle))


@dataclass
class Link:
    """One drawn connection: a rail's ``next``, a burn, or a fallback, as a polyline in board units."""

    start: str
    end: str
    kind: str  # rail, burn, fallback
    colour: tuple[int, int, int]
    points: list[tuple[float, float]] = field(default_factory=list)


class FieldGeometry:
    """Everything drawable about a board, in board units, for one scenario."""

    def __init__(self, board, scenario: Optional[str] = None) -> None:
        self.board = board
        self.scenario = scenario
        self.steps = {s.id: s for s in board.steps if board.in_play(s, scenario)}
        self.bodies = [b for b in board.bodies if board.in_play(b, scenario)]
        self.rail_colour = {r.id: hex_colour(r.colour) for r in board.rails}
        self.rings: list[Ring] = []
        self.ring_of: dict[str, Ring] = {}
        self._find_rings()
        self.links: list[Link] = []
        self._build_links()

    def pos(self, step_id: str) -> tuple[float, float]:
        p = self.steps[step_id].position
        return (float(p[0]), float(p[1]))

    def colour_of(self, step_id: str) -> tuple[int, int, int]:
        step = self.steps.get(step_id)
        if step is not None and step.rail in self.rail_colour:
            return self.rail_colour[step.rail]
        return (210, 200, 230)

    def _body_centre(self, ids: list[str]) -> tuple[float, float]:
        bodies = {b.id: b for b in self.bodies}
        for sid in ids:
            body = bodies.get(self.steps[sid].body or "")
            if body is not None:
                return (float(body.position[0]), float(body.position[1]))
        xs = [self.pos(s)[0] for s in ids]
        ys = [self.pos(s)[1] for s in ids]
        return (sum(xs) / len(xs), sum(ys) / len(ys))

    def _find_rings(self) -> None:
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
            centre = self._body_centre(cycle)
            rx, ry = self._fit(cycle, centre)
            ring = Ring(step.rail, cycle, centre, rx, ry)
            self.rings.append(ring)
            for member in cycle:
                self.ring_of[member] = ring

    def _fit(self, ids: list[str], centre: tuple[float, float]) -> tuple[float, float]:
        """Least-squares axis-aligned ellipse through the steps: a*dx^2 + b*dy^2 = 1."""
        pts = [(self.pos(s)[0] - centre[0], self.pos(s)[1] - centre[1]) for s in ids]
        if len(pts) == 1:
            r = max(12.0, math.hypot(*pts[0]))
            return r, r
        sxx = sum(x ** 4 for x, _ in pts)
        syy = sum(y ** 4 for _, y in pts)
        sxy = sum(x * x * y * y for x, y in pts)
        bx = sum(x * x for x, _ in pts)
        by = sum(y * y for _, y in pts)
        det = sxx * syy - sxy * sxy
        if abs(det) > 1e-9:
            a = (bx * syy - by * sxy) / det
            b = (sxx * by - sxy * bx) / det
            if a > 0 and b > 0:
                return 1 / math.sqrt(a), 1 / math.sqrt(b)
        r = max(math.hypot(x, y) for x, y in pts)
        return r, r

    def _ring_arc(self, ring: Ring, a: str, b: str) -> list[tuple[float, float]]:
        t0, t1 = ring.angle_of(self.pos(a)), ring.angle_of(self.pos(b))
        if a == b:
            t1 = t0 + math.tau
        delta = (t1 - t0 + math.pi) % math.tau - math.pi if a != b else math.tau
        n = max(6, int(abs(delta) / math.tau * 96))
        return [ring.point(t0 + delta * k / n) for k in range(n + 1)]

    @staticmethod
    def arc(p0, p1, bend: float = 0.22, n: int = 28) -> list[tuple[float, float]]:
        """A quadratic curve from ``p0`` to ``p1`` bowed ``bend`` of its length to the left."""
        dx, dy = p1[0] - p0[0], p1[1] - p0[1]
        length = math.hypot(dx, dy) or 1.0
        mid = ((p0[0] + p1[0]) / 2 - dy / length * length * bend, (p0[1] + p1[1]) / 2 + dx / length * length * bend)
        out = []
        for k in range(n + 1):
            t = k / n
            out.append(((1 - t) ** 2 * p0[0] + 2 * (1 - t) * t * mid[0] + t * t * p1[0],
                        (1 - t) ** 2 * p0[1] + 2 * (1 - t) * t * mid[1] + t * t * p1[1]))
        return out

    def path(self, a: str, b: str, kind: str = "rail") -> list[tuple[float, float]]:
        ring = self.ring_of.get(a)
        if kind == "rail" and ring is not None and self.ring_of.get(b) is ring:
            return self._ring_arc(ring, a, b)
        return self.arc(self.pos(a), self.pos(b), 0.0 if kind == "fallback" else 0.18)

    def _build_links(self) -> None:
        for sid, step in self.steps.items():
            if step.next and step.next in self.steps:
                colour = self.colour_of(sid) if step.rail else self.colour_of(step.next)
                self.links.append(Link(sid, step.next, "rail", colour, self.path(sid, step.next, "rail")))
            for burn in self.board.burns_from(sid, self.scenario):
                if burn.to in self.steps:
                    self.links.append(Link(sid, burn.to, "burn", self.colour_of(burn.to), self.path(sid, burn.to, "burn")))
            if step.fallback and step.fallback in self.steps and step.fallback != step.next \
                    and step.kind in ("orbital_insertion",):
                self.links.append(Link(sid, step.fallback, "fallback", (200, 120, 130),
                                       self.path(sid, step.fallback, "fallback")))

    def route_path(self, stops: Iterable[str], start: str) -> list[tuple[float, float]]:
        """A polyline through a route's steps, following rails and burns."""
        out: list[tuple[float, float]] = []
        here = start
        for target in stops:
            if target not in self.steps or here not in self.steps:
                continue
            burns = {b.to for b in self.board.burns_from(here, self.scenario)}
            kind = "burn" if target in burns and target != self.steps[here].next else "rail"
            out.extend(self.path(here, target, kind))
            here = target
        return out

    def content_bounds(self, margin: float = 40.0) -> tuple[float, float, float, float]:
        """(x, y, w, h) in board units around every step, ring and body, plus ``margin``."""
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
            xs += [ring.centre[0] - ring.rx, ring.centre[0] + ring.rx]
            ys += [ring.centre[1] - ring.ry, ring.centre[1] + ring.ry]
        for body in self.bodies:
            xs += [body.position[0] - body.radius, body.position[0] + body.radius]
            ys += [body.position[1] - body.radius, body.position[1] + body.radius]
        if not xs:
            return (0.0, 0.0, float(self.board.width), float(self.board.height))
        x0, y0 = min(xs) - margin, min(ys) - margin
        return (x0, y0, max(xs) + margin - x0, max(ys) + margin * 1.6 - y0)

    def body_label_y(self, body) -> float:
        """Where a body's name goes: under the outermost ring around it (or under the body)."""
        extent = body.radius
        for ring in self.rings:
            if math.hypot(ring.centre[0] - body.position[0], ring.centre[1] - body.position[1]) < body.radius:
                extent = max(extent, ring.ry)
        return body.position[1] + extent

    def label_anchor(self) -> list[tuple[str, tuple[float, float], str]]:
        """(text, board position, placement) for every label: one per ring, one per other named step."""
        out = []
        for ring in self.rings:
            name = self.steps[ring.steps[0]].name
            top = min(ring.steps, key=lambda s: self.pos(s)[1])
            out.append((name, self.pos(top), "above"))
        for sid, step in self.steps.items():
            if sid in self.ring_of or step.kind == "burn":
                continue
            out.append((step.name, self.pos(sid), "below"))
        return out


# ---------------------------------------------------------------- drawing helpers (pixels)

def thick_polyline(surface: pygame.Surface, colour, points: list[tuple[float, float]], width: float) -> None:
    """A smooth (anti-aliased) polyline ``width`` pixels thick."""
    if len(points) < 2:
        return
    if width <= 1.5:
        pygame.draw.aalines(surface, colour, False, points)
        return
    half = width / 2
    left, right = [], []
    for i, (x, y) in enumerate(points):
        a = points[max(0, i - 1)]
        b = points[min(len(points) - 1, i + 1)]
        dx, dy = b[0] - a[0], b[1] - a[1]
        length = math.hypot(dx, dy) or 1.0
        nx, ny = -dy / length * half, dx / length * half
        left.append((x + nx, y + ny))
        right.append((x - nx, y - ny))
    poly = left + right[::-1]
    pygame.draw.polygon(surface, colour, poly)
    pygame.draw.aalines(surface, colour, True, poly)


def dashed_polyline(surface: pygame.Surface, colour, points, width: float, dash: float, gap: float) -> None:
    """A dashed smooth polyline: dashes of ``dash`` pixels with ``gap`` pixels between."""
    pieces: list[list[tuple[float, float]]] = []
    current: list[tuple[float, float]] = []
    on, left = True, dash
    for (x0, y0), (x1, y1) in zip(points, points[1:]):
        seg = math.hypot(x1 - x0, y1 - y0)
        pos = 0.0
        while seg - pos > 1e-6:
            step = min(left, seg - pos)
            t0, t1 = pos / seg, (pos + step) / seg
            a = (x0 + (x1 - x0) * t0, y0 + (y1 - y0) * t0)
            b = (x0 + (x1 - x0) * t1, y0 + (y1 - y0) * t1)
            if on:
                if not current:
                    current.append(a)
                current.append(b)
            pos += step
            left -= step
            if left <= 1e-6:
                if on and current:
                    pieces.append(current)
                    current = []
                on = not on
                left = dash if on else gap
    if current:
        pieces.append(current)
    for piece in pieces:
        thick_polyline(surface, colour, piece, width)


def arrow_head(surface: pygame.Surface, colour, tip, direction: float, size: float, outline=None) -> None:
    c, s = math.cos(direction), math.sin(direction)
    back = (tip[0] - c * size, tip[1] - s * size)
    pts = [tip, (back[0] - s * size * 0.6, back[1] + c * size * 0.6), (back[0] + s * size * 0.6, back[1] - c * size * 0.6)]
    pts = [(int(round(x)), int(round(y))) for x, y in pts]
    pygame.gfxdraw.filled_polygon(surface, pts, colour)
    pygame.gfxdraw.aapolygon(surface, pts, outline or colour)


def draw_step_icon(surface: pygame.Surface, kind: str, centre, r: float, colour=(30, 24, 50)) -> None:
    """The little picture inside a special step's badge (``r`` is the badge radius)."""
    x, y = centre
    w = max(1, int(r / 5))
    if kind in ("home",):  # a launch tower beside a tiny rocket
        pygame.draw.line(surface, colour, (x - r * 0.45, y + r * 0.55), (x - r * 0.45, y - r * 0.55), w)
        for k in range(3):
            yy = y - r * 0.4 + k * r * 0.35
            pygame.draw.line(surface, colour, (x - r * 0.45, yy), (x - r * 0.15, yy + r * 0.2), max(1, w - 1))
        aa_polygon(surface, colour, [(x + r * 0.2, y - r * 0.62), (x + r * 0.42, y - r * 0.2), (x + r * 0.42, y + r * 0.4),
                                     (x - r * 0.02, y + r * 0.4), (x - r * 0.02, y - r * 0.2)])
        pygame.draw.line(surface, colour, (x - r * 0.6, y + r * 0.58), (x + r * 0.62, y + r * 0.58), w)
    elif kind == "launch":  # a rocket going up with its flame
        aa_polygon(surface, colour, [(x, y - r * 0.7), (x + r * 0.28, y - r * 0.25), (x + r * 0.28, y + r * 0.3),
                                     (x - r * 0.28, y + r * 0.3), (x - r * 0.28, y - r * 0.25)])
        aa_polygon(surface, (230, 80, 50), [(x - r * 0.2, y + r * 0.35), (x, y + r * 0.75), (x + r * 0.2, y + r * 0.35)])
    elif kind == "orbital_insertion":  # an arrow bending into a circle
        pygame.draw.arc(surface, colour, pygame.Rect(x - r * 0.6, y - r * 0.6, r * 1.2, r * 1.2), math.radians(-30),
                        math.radians(200), w + 1)
        arrow_head(surface, colour, (x + r * 0.6, y + r * 0.25), math.radians(100), r * 0.42)
    elif kind == "reentry":  # a capsule with flames streaming behind
        for k, dx in enumerate((-0.35, 0, 0.35)):
            aa_polygon(surface, (230, 80, 50) if k != 1 else (250, 170, 60),
                       [(x + dx * r - r * 0.14, y - r * 0.05), (x + dx * r, y - r * 0.7), (x + dx * r + r * 0.14, y - r * 0.05)])
        aa_polygon(surface, colour, [(x - r * 0.5, y), (x + r * 0.5, y), (x + r * 0.25, y + r * 0.55), (x - r * 0.25, y + r * 0.55)])
    elif kind == "landing":  # a parachute
        rect = pygame.Rect(0, 0, r * 1.3, r * 1.0)
        rect.center = (x, y - r * 0.15)
        pygame.draw.arc(surface, colour, rect, 0, math.pi, w + 1)
        aa_polygon(surface, colour, [(x - r * 0.65, y - r * 0.15), (x + r * 0.65, y - r * 0.15), (x, y - r * 0.66)])
        for dx in (-0.6, 0, 0.6):
            pygame.draw.aaline(surface, colour, (x + dx * r, y - r * 0.15), (x, y + r * 0.45))
        pygame.draw.rect(surface, colour, pygame.Rect(x - r * 0.15, y + r * 0.4, r * 0.3, r * 0.25))
    elif kind in ("lunar_landing", "rock_docking"):  # a little lander on legs
        aa_polygon(surface, colour, [(x - r * 0.3, y - r * 0.45), (x + r * 0.3, y - r * 0.45), (x + r * 0.4, y + r * 0.05),
                                     (x - r * 0.4, y + r * 0.05)])
        pygame.draw.line(surface, colour, (x - r * 0.3, y), (x - r * 0.6, y + r * 0.55), w)
        pygame.draw.line(surface, colour, (x + r * 0.3, y), (x + r * 0.6, y + r * 0.55), w)
        pygame.draw.line(surface, colour, (x - r * 0.75, y + r * 0.55), (x - r * 0.45, y + r * 0.55), w)
        pygame.draw.line(surface, colour, (x + r * 0.45, y + r * 0.55), (x + r * 0.75, y + r * 0.55), w)
    elif kind == "escape":  # off to the stars
        for dx in (-0.35, 0.15):
            pygame.draw.lines(surface, colour, False, [(x + dx * r, y - r * 0.45), (x + dx * r + r * 0.35, y),
                                                       (x + dx * r, y + r * 0.45)], w + 1)
        aa_circle(surface, (255, 230, 150), (x + r * 0.62, y - r * 0.5), r * 0.12)
    elif kind == "surface":  # a flag on the ground
        pygame.draw.line(surface, colour, (x - r * 0.25, y + r * 0.55), (x - r * 0.25, y - r * 0.6), w)
        aa_polygon(surface, (230, 80, 50), [(x - r * 0.25, y - r * 0.6), (x + r * 0.45, y - r * 0.38), (x - r * 0.25, y - r * 0.15)])
        pygame.draw.line(surface, colour, (x - r * 0.65, y + r * 0.58), (x + r * 0.65, y + r * 0.58), w)


SPECIAL_BADGE = {
    "home": (255, 201, 120), "launch": (255, 209, 102), "orbital_insertion": (255, 209, 102),
    "reentry": (255, 160, 120), "landing": (255, 180, 150), "lunar_landing": (220, 225, 235),
    "rock_docking": (221, 161, 94), "escape": (190, 170, 255), "surface": (220, 225, 235),
}

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

    def __init__(self, board, layout: Layout, rect: pygame.Rect, scenario: Optional[str] = None) -> None:
        self.geometry = FieldGeometry(board, scenario)
        self.board = board
        self.layout = layout
        self.rect = pygame.Rect(rect)
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
    def fit_zoom(self) -> float:
        _, _, w, h = self.geometry.content_bounds()
        return min(self.rect.w / w, self.rect.h / h)

    def fit(self) -> None:
        """Zoom so everything on the board shows in the view rectangle, centred."""
        x, y, w, h = self.geometry.content_bounds()
        self.zoom = self.fit_zoom
        self.offset = [self.rect.centerx - (x + w / 2) * self.zoom, self.rect.centery - (y + h / 2) * self.zoom]

    def resize(self, layout: Layout, rect: pygame.Rect) -> None:
        self.layout = layout
        self.rect = pygame.Rect(rect)
        self.screen_size = layout.size
        self._cache = None
        self.fit()

    def to_screen(self, p) -> tuple[float, float]:
        return (self.offset[0] + p[0] * self.zoom, self.offset[1] + p[1] * self.zoom)

    def to_board(self, p) -> tuple[float, float]:
        return ((p[0] - self.offset[0]) / self.zoom, (p[1] - self.offset[1]) / self.zoom)

    def step_screen(self, step_id: str) -> tuple[float, float]:
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
        return max(4.0, self.layout.px(8) * math.sqrt(max(0.6, self.zoom_factor)))

    def junction_radius(self) -> float:
        return self.node_radius() * 0.62

    def line_width(self) -> float:
        return max(1.5, self.layout.scale * 2.6 * math.sqrt(max(0.6, self.zoom_factor)))

    def badge_radius(self) -> float:
        return self.node_radius() * 1.45

    def radius_for(self, step_id: str) -> float:
        kind = self.geometry.steps[step_id].kind
        if kind == "burn":
            return self.junction_radius()
        if kind in SPECIAL_KINDS:
            return self.badge_radius()
        return self.node_radius()

    @property
    def labels_on(self) -> bool:
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
        view_w, view_h = self.screen_size
        need = pygame.Rect(int(-self.offset[0]), int(-self.offset[1]), view_w, view_h)  # board pixels on screen
        if (self._cache is None or abs(self._cache_zoom - self.zoom) > 1e-9
                or not pygame.Rect(self._cache_origin, self._cache.get_size()).contains(need)):
            self._build_cache(need)
        surface.blit(self._cache, (self.offset[0] + self._cache_origin[0], self.offset[1] + self._cache_origin[1]))

    def _build_cache(self, need: pygame.Rect) -> None:
        pad_x, pad_y = need.w // 4, need.h // 4
        area = need.inflate(pad_x * 2, pad_y * 2)
        surf = pygame.Surface(area.size).convert() if pygame.display.get_surface() else pygame.Surface(area.size)
        self._cache_origin = area.topleft
        self._cache_zoom = self.zoom
        self.cache_builds += 1
        self._paint(surf, area.topleft)
        self._cache = surf

    def _paint(self, surf: pygame.Surface, origin: tuple[int, int]) -> None:
        z = self.zoom
        ox, oy = origin

        def P(p) -> tuple[float, float]:
            return (p[0] * z - ox, p[1] * z - oy)

        geo = self.geometry
        surf.fill(SPACE)
        self._paint_space(surf, origin)
        # bodies, with a soft glow
        for body in geo.bodies:
            centre = P(body.position)
            radius = body.radius * z
            colour = hex_colour(body.colour)
            glow = pygame.Surface((int(radius * 3) + 4,) * 2, pygame.SRCALPHA)
            gc = glow.get_width() / 2
            for k in range(14):
                t = k / 13
                pygame.draw.circle(glow, (*mix(colour, (255, 255, 255), 0.3), int(40 * t * t)), (gc, gc),
                                   radius * (1.5 - 0.5 * t))
            surf.blit(glow, (centre[0] - gc, centre[1] - gc))
            self._paint_body(surf, body, centre, radius, colour)
        # rings: a faint full ellipse as the orbit, drawn under the rail arcs
        lw = self.line_width()
        for ring in geo.rings:
            colour = geo.rail_colour.get(ring.rail or "", (150, 150, 170))
            pts = [P(ring.point(math.tau * k / 160)) for k in range(161)]
            thick_polyline(surf, mix(colour, SPACE, 0.72), pts, lw * 2.6)
        # links: fallbacks, then burns (dashed), then rails, each with direction arrows
        for kind in ("fallback", "burn", "rail"):
            for link in geo.links:
                if link.kind != kind:
                    continue
                pts = [P(p) for p in link.points]
                if kind == "rail":
                    thick_polyline(surf, mix(link.colour, SPACE, 0.35), pts, lw)
                elif kind == "burn":
                    dashed_polyline(surf, mix(link.colour, SPACE, 0.25), pts, lw * 0.85, lw * 3.2, lw * 2.4)
                else:
                    dashed_polyline(surf, (150, 100, 115), pts, max(1.0, lw * 0.6), lw * 1.4, lw * 2.2)
                self._paint_arrows(surf, pts, link.colour if kind != "fallback" else (190, 130, 140), lw, kind)
        # steps
        for sid, step in geo.steps.items():
            self._paint_step(surf, step, P(geo.pos(sid)))
        # names of the bodies, and of every step when zoomed in
        body_font = font_px(max(10, self.layout.px(17)), True)
        for body in geo.bodies:
            cx, cy = P(body.position)
            text = body_font.render(body.name, True, (235, 230, 250))
            at = text.get_rect(midtop=(cx, geo.body_label_y(body) * z - oy + self.layout.px(8)))
            shade = body_font.render(body.name, True, (10, 10, 30))
            shade.set_alpha(170)
            surf.blit(shade, at.move(2, 2))
            surf.blit(text, at)
        if self.labels_on:
            font = font_px(max(9, self.layout.px(14)), True)
            for text, pos, place in geo.label_anchor():
                x, y = P(pos)
                offset = self.badge_radius() + self.layout.px(3)
                image = font.render(text, True, INK)
                rect = image.get_rect(midbottom=(x, y - offset)) if place == "above" else image.get_rect(midtop=(x, y + offset))
                plate = rect.inflate(self.layout.px(10), self.layout.px(2))
                back = pygame.Surface(plate.size, pygame.SRCALPHA)
                pygame.draw.rect(back, (10, 8, 30, 190), back.get_rect(), border_radius=self.layout.px(6))
                surf.blit(back, plate)
                surf.blit(image, rect)

    def _paint_space(self, surf: pygame.Surface, origin) -> None:
        """Deterministic stars in board units (decoration only, no randomness module)."""
        z = self.zoom
        ox, oy = origin
        w, h = surf.get_size()
        unit = max(1, self.layout.px(1))
        count = 900
        bw, bh = self.board.width, self.board.height
        for k in range(count):
            # A fixed low-discrepancy scatter over three board widths/heights.
            fx = ((k * 0.6180339887) % 1.0) * 3 * bw - bw
            fy = ((k * 0.7548776662 + 0.31) % 1.0) * 3 * bh - bh
            x, y = fx * z - ox, fy * z - oy
            if not (0 <= x < w and 0 <= y < h):
                continue
            b = 60 + (k * 37) % 120
            tint = ((k * 13) % 3)
            colour = (b, b, min(255, b + 30)) if tint == 0 else ((min(255, b + 25), b, b - 10) if tint == 1 else (b, b, b))
            size = unit * (2 if k % 11 == 0 else 1)
            surf.fill(colour, (int(x), int(y), size, size))

    def _paint_body(self, surf, body, centre, radius, colour) -> None:
        cx, cy = centre
        aa_circle(surf, colour, centre, radius)
        light = mix(colour, (255, 255, 255), 0.35)
        dark = mix(colour, (0, 0, 20), 0.45)
        # a lit crescent and a shaded side, so bodies read as spheres
        shade = pygame.Surface((int(radius * 2) + 2,) * 2, pygame.SRCALPHA)
        sc = shade.get_width() / 2
        pygame.draw.circle(shade, (*dark, 150), (sc + radius * 0.35, sc + radius * 0.3), radius * 0.95)
        mask = pygame.Surface(shade.get_size(), pygame.SRCALPHA)
        pygame.draw.circle(mask, (255, 255, 255, 255), (sc, sc), radius)
        shade.blit(mask, (0, 0), special_flags=pygame.BLEND_RGBA_MIN)
        surf.blit(shade, (cx - sc, cy - sc))
        for dx, dy, cr in ((-0.35, -0.3, 0.18), (0.25, 0.2, 0.14), (-0.05, 0.5, 0.1), (0.4, -0.35, 0.08)):
            aa_circle(surf, mix(colour, light if dx < 0 else dark, 0.35), (cx + dx * radius, cy + dy * radius),
                      max(1.0, cr * radius))
        aa_circle(surf, mix(colour, (255, 255, 255), 0.55), centre, radius, width=max(1, int(radius / 40)))

    def _paint_arrows(self, surf, pts, colour, lw, kind) -> None:
        """Direction arrows along a link: one in the middle, more on long links."""
        lengths = [0.0]
        for a, b in zip(pts, pts[1:]):
            lengths.append(lengths[-1] + math.hypot(b[0] - a[0], b[1] - a[1]))
        total = lengths[-1]
        if total < self.node_radius() * 4:
            return
        count = 1 if total < self.layout.px(260) else 2
        size = lw * (2.6 if kind != "fallback" else 2.0) + 3
        for j in range(count):
            target = total * (j + 1) / (count + 1)
            i = next(i for i in range(1, len(lengths)) if lengths[i] >= target)
            a, b = pts[i - 1], pts[i]
            seg = lengths[i] - lengths[i - 1] or 1.0
            t = (target - lengths[i - 1]) / seg
            tip = (a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t)
            angle = math.atan2(b[1] - a[1], b[0] - a[0])
            tip = (tip[0] + math.cos(angle) * size / 2, tip[1] + math.sin(angle) * size / 2)
            arrow_head(surf, colour, tip, angle, size, mix(colour, SPACE, 0.3))

    def _paint_step(self, surf, step, centre) -> None:
        colour = self.geometry.colour_of(step.id)
        if step.kind == "burn":
            r = self.junction_radius()
            x, y = centre
            pts = [(x, y - r * 1.25), (x + r, y), (x, y + r * 1.25), (x - r, y)]
            aa_polygon(surf, (22, 18, 44), [(px + (px - x) * 0.35, py + (py - y) * 0.35) for px, py in pts])
            aa_polygon(surf, (255, 214, 140), pts, (255, 240, 200))
            return
        if step.kind in SPECIAL_KINDS:
            r = self.badge_radius()
            aa_circle(surf, (18, 14, 38), centre, r + max(2, r * 0.18))
            aa_circle(surf, SPECIAL_BADGE.get(step.kind, (230, 230, 230)), centre, r)
            draw_step_icon(surf, step.kind, centre, r * 0.82)
            return
        r = self.node_radius()
        aa_circle(surf, (18, 14, 38), centre, r + max(2, r * 0.25))
        aa_circle(surf, colour, centre, r)
        if step.kind == "transit":  # transits are hollow: you pass through on a long coast
            aa_circle(surf, (18, 14, 38), centre, r * 0.55)
        else:
            aa_circle(surf, mix(colour, (255, 255, 255), 0.6), (centre[0] - r * 0.3, centre[1] - r * 0.3), max(1.0, r * 0.28))

    # ------------------------------------------------------------------ dynamic overlays
    def draw_lit(self, surface: pygame.Surface, steps: Iterable[str], time: float, colour=(255, 230, 140),
                 strong: bool = False) -> None:
        """Pulsing halos on the steps a marker may be dropped on (``strong`` while dragging)."""
        pulse = 0.5 + 0.5 * math.sin(time * 6.0)
        for sid in steps:
            if sid not in self.geometry.steps:
                continue
            c = self.step_screen(sid)
            base = self.radius_for(sid)
            r = base + self.layout.px(5) + pulse * self.layout.px(4)
            if strong:
                key = ("glow", int(r * 1.6))
                glow = self._glows.get(key)
                if glow is None:
                    size = int(r * 3.2) + 2
                    glow = pygame.Surface((size, size), pygame.SRCALPHA)
                    for k in range(10):
                        t = k / 9
                        pygame.draw.circle(glow, (*colour[:3], int(70 * t)), (size / 2, size / 2), r * 1.6 * (1 - 0.5 * t))
                    self._glows[key] = glow
                surface.blit(glow, glow.get_rect(center=(int(c[0]), int(c[1]))))
                self._paint_step(surface, self.geometry.steps[sid], c)
            for k in range(max(2, self.layout.px(3 if strong else 2))):
                aa_circle(surface, colour, c, r - k, width=1)

    def draw_hover(self, surface: pygame.Surface, step_id: str) -> None:
        c = self.step_screen(step_id)
        r = self.radius_for(step_id) + self.layout.px(4)
        for k in range(max(1, self.layout.px(2))):
            aa_circle(surface, (255, 255, 255), c, r - k, width=1)

    def draw_route(self, surface: pygame.Surface, start: str, stops: list[str], colour=(255, 230, 140)) -> None:
        pts = [self.to_screen(p) for p in self.geometry.route_path(stops, start)]
        if len(pts) >= 2:
            dashed_polyline(surface, colour, pts, self.line_width() * 1.6, self.layout.px(10), self.layout.px(7))

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
