"""The names on The Field and where they go.

Every body and every orbit is named at any zoom; other steps are named where their name fits, and
otherwise on hover. ``layout_labels`` places names greedily, most important first, each at the best of
its candidate places: a place is refused if the name would leave the view, cover a name already
placed, a craft's marker, a step or anything else given as an obstacle (the legend, the zoom buttons);
among the places left it takes the one crossing the fewest drawn lines, preferring earlier candidates.
So no two names, and no name and a marker, ever overlap, at any size.

Names sit on plates: an orbit's name is a pill in its ring's colour laid on the ring itself (so it
cannot be read as naming the next ring out), a body's name is written across the body, a step's name
sits beside its node.

``LabelLayer`` keeps one layout per zoom, pan and set of marker places, and draws its names every frame
from cached images (a few blits: nothing is laid out again while nothing moves).
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable, Iterable, Optional

import pygame

from game.client.kit.draw import mix
from game.client.kit.style import INK
from game.client.whatgoesup import board_art as art

if TYPE_CHECKING:
    from game.client.whatgoesup.board_view import BoardView

#: Font size (design units) and boldness of each kind of name.
STYLES = {"body": (17, True), "ring": (13, True), "step": (12, True), "burn": (11, False)}
PRIORITY = {"body": 0, "ring": 1, "step": 2, "burn": 3}
BURN_NAMES_ZOOM = 1.3  # burn junctions are named (where they fit) from this zoom on; on hover below it


@dataclass(frozen=True)
class LabelRequest:
    """A name to place: its candidate centres (board pixels) in order of preference."""

    key: str  # what it names: "body:world", "ring:low_1", "step:reentry"
    text: str
    style: str  # body, ring, step, burn
    colour: tuple[int, int, int]
    candidates: tuple[tuple[float, float], ...]
    own_line: tuple[tuple[float, float], ...] = ()  # line samples of the thing named (not held against it)
    order: int = 0  # tie-break within a priority (earlier first)
    anchor: Optional[tuple[float, float]] = None  # the node a step's name belongs to (it must be the nearest)


@dataclass
class PlacedLabel:
    key: str
    text: str
    style: str
    colour: tuple[int, int, int]
    rect: pygame.Rect  # board pixels, plate included


class LineGrid:
    """How many drawn-line samples fall in each cell: the cost of covering a rectangle, in O(1)."""

    def __init__(self, origin: tuple[int, int], size: tuple[int, int], cell: int) -> None:
        self.origin = origin
        self.cell = max(2, cell)
        self.cols = size[0] // self.cell + 2
        self.rows = size[1] // self.cell + 2
        self.counts = [[0] * self.cols for _ in range(self.rows)]
        self._sums: Optional[list[list[int]]] = None

    def add(self, points: Iterable[tuple[float, float]]) -> None:
        ox, oy = self.origin
        for x, y in points:
            c, r = int((x - ox) // self.cell), int((y - oy) // self.cell)
            if 0 <= r < self.rows and 0 <= c < self.cols:
                self.counts[r][c] += 1
        self._sums = None

    def cost(self, rect: pygame.Rect) -> int:
        if self._sums is None:
            sums = [[0] * (self.cols + 1) for _ in range(self.rows + 1)]
            for r in range(self.rows):
                run = 0
                row, above, below = self.counts[r], sums[r], sums[r + 1]
                for c in range(self.cols):
                    run += row[c]
                    below[c + 1] = above[c + 1] + run
            self._sums = sums
        ox, oy = self.origin
        c0 = max(0, min(self.cols, int((rect.left - ox) // self.cell)))
        c1 = max(0, min(self.cols, int((rect.right - ox) // self.cell) + 1))
        r0 = max(0, min(self.rows, int((rect.top - oy) // self.cell)))
        r1 = max(0, min(self.rows, int((rect.bottom - oy) // self.cell) + 1))
        s = self._sums
        return s[r1][c1] - s[r0][c1] - s[r1][c0] + s[r0][c0]


def _gap(rect: pygame.Rect, p: tuple[float, float]) -> float:
    dx = max(rect.left - p[0], 0, p[0] - rect.right)
    dy = max(rect.top - p[1], 0, p[1] - rect.bottom)
    return math.hypot(dx, dy)


def _nearer_node(rect: pygame.Rect, anchor: tuple[float, float], nodes: list[tuple[float, float]],
                 node_rects: Optional[list[pygame.Rect]] = None) -> bool:
    """Whether some other node is nearer the name than its own (so the name would seem to be that node's)."""
    own = _gap(rect, anchor)
    if node_rects is None:
        near = nodes
    else:  # only nodes inside the box that could be nearer (pygame finds them at C speed)
        reach = int(own) + 2
        near = [nodes[i] for i in rect.inflate(2 * reach, 2 * reach).collidelistall(node_rects)]
    return any(_gap(rect, p) < own - 2 for p in near if p != anchor)


def layout_labels(requests: Iterable[LabelRequest], measure: Callable[[str, str], tuple[int, int]],
                  obstacles: list[pygame.Rect], lines: LineGrid, bounds: pygame.Rect,
                  nodes: Optional[list[tuple[float, float]]] = None,
                  owned: Optional[dict[str, LineGrid]] = None, gap: int = 0) -> list[PlacedLabel]:
    """Place every name that can go somewhere free (see the module's docstring); returns those placed.

    Two names keep at least ``gap`` pixels of sky between them, so neither seems to run on into the other.
    ``nodes`` are the steps' centres: a step's name costs more where another node is nearer to it than its own.
    ``owned`` holds each request's own lines as a grid (``own_grid``), made once per zoom by the caller."""
    placed: list[PlacedLabel] = []
    taken: list[pygame.Rect] = []
    node_rects = [pygame.Rect(int(x), int(y), 1, 1) for x, y in nodes] if nodes else None
    for request in sorted(requests, key=lambda r: (PRIORITY[r.style], r.order)):
        w, h = measure(request.text, request.style)
        own = (owned or {}).get(request.key)
        if own is None and request.own_line:
            own = own_grid(request, lines.cell)
        best, best_cost = None, None
        for index, (cx, cy) in enumerate(request.candidates):
            rect = pygame.Rect(0, 0, w, h)
            rect.center = (int(round(cx)), int(round(cy)))
            if not bounds.contains(rect) or rect.collidelist(taken) != -1 or rect.collidelist(obstacles) != -1:
                continue
            cost = lines.cost(rect) - (own.cost(rect) if own is not None else 0)
            cost = cost * 4 + index * 2
            if best_cost is not None and cost >= best_cost:
                continue
            if request.anchor is not None and nodes and _nearer_node(rect, request.anchor, nodes, node_rects):
                cost += 80
            if best_cost is None or cost < best_cost:
                best, best_cost = rect, cost
                if cost == 0:
                    break
        if best is not None:
            taken.append(best.inflate(2 * gap, 2 * gap))
            placed.append(PlacedLabel(request.key, request.text, request.style, request.colour, best))
    return placed


def own_grid(request: LabelRequest, cell: int) -> LineGrid:
    """A request's own line samples as a grid over just their extent (what its name may cover for free)."""
    xs = [x for x, _ in request.own_line]
    ys = [y for _, y in request.own_line]
    grid = LineGrid((int(min(xs)) - cell, int(min(ys)) - cell), (int(max(xs) - min(xs)) + 2 * cell,
                                                                int(max(ys) - min(ys)) + 2 * cell), cell)
    grid.add(request.own_line)
    return grid


# ---------------------------------------------------------------- what the Field names, and where it may

def _step_candidates(cx: float, cy: float, r: float, pad: float, w: int, h: int, outward: float) -> list:
    """Centres beside a node, the side facing ``outward`` (radians) first, then round both ways; then the
    same a little further out."""
    out = []
    for extra in (0.0, h * 0.8):
        for k in range(16):
            turn = ((k + 1) // 2) * (1 if k % 2 else -1) * math.pi / 8
            a = outward + turn
            ca, sa = math.cos(a), math.sin(a)
            reach = r + pad + extra + abs(ca) * w / 2 + abs(sa) * h / 2
            out.append((cx + ca * reach, cy + sa * reach))
    return out


#: A step's ``label_side`` in the board table, as the direction its name is tried first (y points down).
SIDE_ANGLES = {"right": 0.0, "below right": math.pi / 4, "below": math.pi / 2, "below left": 3 * math.pi / 4,
               "left": math.pi, "above left": -3 * math.pi / 4, "above": -math.pi / 2, "above right": -math.pi / 4}

#: Which steps are named first when room is short: the way home and the places a flight is about.
KIND_ORDER = {"home": 0, "landing": 1, "reentry": 2, "surface": 3, "lunar_landing": 4, "launch": 5,
              "orbital_insertion": 6, "transit": 7, "rock_docking": 8, "escape": 9, "orbit": 10, "burn": 11}


def label_requests(view: "BoardView", measure: Callable[[str, str], tuple[int, int]]) -> list[LabelRequest]:
    """Every name The Field would like to show at the view's zoom, with its candidate places in board pixels."""
    geo = view.geometry
    z = view.zoom
    layout = view.layout
    pad = layout.px(4)
    out: list[LabelRequest] = []
    for n, body in enumerate(geo.bodies):
        cx, cy = body.position[0] * z, body.position[1] * z
        r = body.radius * z
        w, h = measure(body.name, "body")
        cands = []
        if w < r * 2.4:  # across the body, low down: the top is left for what stands on it (a spaceport)
            cands += [(cx, cy + (r - h / 2) * 0.55), (cx, cy), (cx, cy - (r - h / 2) * 0.55)]
        for extra in (0.0, h, 2.2 * h, 3.5 * h):
            for k in range(8):
                a = math.pi / 2 - k * math.pi / 4
                reach = r + pad * 2 + extra + abs(math.cos(a)) * w / 2 + abs(math.sin(a)) * h / 2
                cands.append((cx + math.cos(a) * reach, cy + math.sin(a) * reach))
        out.append(LabelRequest(f"body:{body.id}", body.name, "body", INK, tuple(cands), tuple(body_samples(body, z)),
                                order=n))
    nodes = {sid: geo.pos(sid) for sid in geo.steps}
    for n, ring in enumerate(geo.rings):
        name = geo.steps[ring.steps[0]].name
        colour = geo.rail_colour.get(ring.rail or "", (200, 200, 220))
        line = tuple((ring.point(math.tau * k / 90)[0] * z, ring.point(math.tau * k / 90)[1] * z) for k in range(90))
        angles = [math.radians(-90 + 7.5 * k) for k in range(48)]
        # start at the top and work down both sides: names read best across the top of a ring
        angles.sort(key=lambda a: abs(_wrap_deg(math.degrees(a) + 90)))
        cands = [(ring.point(a)[0] * z, ring.point(a)[1] * z) for a in angles]
        w, h = measure(name, "ring")
        for extra in (0.0, h, 2 * h):  # a ring too small or too crowded for its name: the name just outside it
            for a in angles[::2]:
                ca, sa = math.cos(a), math.sin(a)
                reach = ring.radius * z + pad + extra + abs(ca) * w / 2 + abs(sa) * h / 2
                cands.append((ring.centre[0] * z + ca * reach, ring.centre[1] * z + sa * reach))
        anchor = None
        if len(ring.steps) < 3:  # a ring of one or two stops (a libration point) is named beside its stop
            sid = ring.steps[0]
            x, y = geo.pos(sid)
            beside = _step_candidates(x * z, y * z, view.radius_for(sid), pad, w, h,
                                      math.atan2(y - ring.centre[1], x - ring.centre[0]))
            cands = beside + cands[len(angles):]  # then round the ring, further out
            for a in angles[::2]:
                ca, sa = math.cos(a), math.sin(a)
                reach = ring.radius * z + pad + 3 * h + abs(ca) * w / 2 + abs(sa) * h / 2
                cands.append((ring.centre[0] * z + ca * reach, ring.centre[1] * z + sa * reach))
            anchor = (x * z, y * z)
        out.append(LabelRequest(f"ring:{ring.steps[0]}", name, "ring", colour, tuple(cands), line, order=n,
                                anchor=anchor))
    named: set[str] = {geo.steps[r.steps[0]].name for r in geo.rings}
    bodies = {b.id: b for b in geo.bodies}
    burns_too = view.zoom_factor >= BURN_NAMES_ZOOM
    for n, (sid, step) in enumerate(geo.steps.items()):
        style = "burn" if step.kind == "burn" else "step"
        if sid in geo.ring_of and style != "burn":
            continue  # a ring's stops are named by the ring
        if style == "burn" and not burns_too:
            continue
        if style == "step" and step.name in named:
            continue  # a name shared by several steps off the rings (a transit chain) is shown once
        named.add(step.name)
        cx, cy = nodes[sid][0] * z, nodes[sid][1] * z
        system = geo.system_of(sid)
        if system is not None:
            outward = math.atan2(cy - system.centre[1] * z, cx - system.centre[0] * z)
        else:
            outward = -math.pi / 2
        w, h = measure(step.name, style)
        colour = INK if step.kind != "transit" else mix(geo.colour_of(sid), (255, 255, 255), 0.45)
        if style == "burn":
            colour = art.BURN_FILL
        side = getattr(step, "label_side", None)
        if side in SIDE_ANGLES:
            outward = SIDE_ANGLES[side]
        cands = tuple(_step_candidates(cx, cy, view.radius_for(sid), pad, w, h, outward))
        own = tuple(body_samples(bodies[step.body], z)) if step.body in bodies else ()  # a surface's name may sit on it
        out.append(LabelRequest(f"step:{sid}", step.name, style, colour, cands, own,
                                order=KIND_ORDER.get(step.kind, 12) * 1000 + n, anchor=(cx, cy)))
    return out


def _wrap_deg(angle: float) -> float:
    return (angle + 180.0) % 360.0 - 180.0


def node_obstacles(view: "BoardView") -> list[pygame.Rect]:
    """Every step's node as a rectangle in board pixels (names never cover a step)."""
    z = view.zoom
    out = []
    for sid in view.geometry.steps:
        x, y = view.geometry.pos(sid)
        r = view.radius_for(sid) + view.layout.px(2)
        out.append(pygame.Rect(int(x * z - r), int(y * z - r), int(2 * r), int(2 * r)))
    return out


def line_grid(view: "BoardView") -> LineGrid:
    """The drawn lines (rings and links) as samples in board pixels."""
    z = view.zoom
    x, y, w, h = view.geometry.content_bounds(margin=200.0)
    grid = LineGrid((int(x * z), int(y * z)), (int(w * z) + 1, int(h * z) + 1), max(4, view.layout.px(6)))
    step = max(2.0, view.layout.px(4)) / z  # board units between samples
    for ring in view.geometry.rings:
        n = max(12, int(math.tau * ring.radius / step))
        grid.add((ring.point(math.tau * k / n)[0] * z, ring.point(math.tau * k / n)[1] * z) for k in range(n))
    for link in view.geometry.links:
        if link.kind == "fallback":
            continue  # a thin dashed hop: a name may lie across it
        pts = link.points
        for a, b in zip(pts, pts[1:]):
            n = max(1, int(math.hypot(b[0] - a[0], b[1] - a[1]) / step))
            grid.add(((a[0] + (b[0] - a[0]) * k / n) * z, (a[1] + (b[1] - a[1]) * k / n) * z) for k in range(n))
    for body in view.geometry.bodies:  # a body counts as many lines: names keep off it unless they name it
        grid.add(body_samples(body, z))
    return grid


def body_samples(body, zoom: float) -> list[tuple[float, float]]:
    """Points spread over a body's disc (board pixels): what a name laid on the body covers."""
    cx, cy, r = body.position[0] * zoom, body.position[1] * zoom, body.radius * zoom
    return [(cx + r * math.cos(a) * f, cy + r * math.sin(a) * f)
            for f in (0.3, 0.6, 0.9) for a in (math.tau * k / 16 for k in range(16))]


def name_lines(text: str, longest: int = 18) -> list[str]:
    """A long name on two lines, broken at the space nearest its middle (short names stay on one)."""
    if len(text) <= longest or " " not in text:
        return [text]
    spaces = [i for i, c in enumerate(text) if c == " "]
    cut = min(spaces, key=lambda i: abs(i - len(text) / 2))
    return [text[:cut], text[cut + 1:]]


# ---------------------------------------------------------------- the layer on screen

class LabelLayer:
    """The Field's names for one view: laid out when the zoom, pan or markers change, blitted every frame."""

    def __init__(self, view: "BoardView") -> None:
        self.view = view
        self.placed: list[PlacedLabel] = []
        self.layouts = 0  # how many times the names were laid out (tests and benchmarks read it)
        self._key: object = None
        self._zoom_key: object = None
        self._requests: list[LabelRequest] = []
        self._nodes: list[pygame.Rect] = []
        self._grid: Optional[LineGrid] = None
        self._owned: dict[str, LineGrid] = {}
        self._centres: list[tuple[float, float]] = []
        self._images: dict = {}
        self._sizes: dict = {}

    # -- measuring and painting one name
    def _font(self, style: str) -> pygame.font.Font:
        size, bold = STYLES[style]
        return art.font(max(8, self.view.layout.px(size)), bold)

    def measure(self, text: str, style: str) -> tuple[int, int]:
        key = (text, style, self.view.layout.scale)
        found = self._sizes.get(key)
        if found is None:
            font = self._font(style)
            lines = name_lines(text)
            w = max(font.size(line)[0] for line in lines)
            h = font.get_linesize() * (len(lines) - 1) + font.get_height()
            px = self.view.layout.px
            found = self._sizes[key] = (w + px(12 if style == "ring" else 8), h + px(2))
        return found

    def image(self, label: PlacedLabel) -> pygame.Surface:
        key = (label.text, label.style, label.colour, label.rect.size)
        found = self._images.get(key)
        if found is not None:
            return found
        if len(self._images) > 300:
            self._images.clear()
        px = self.view.layout.px
        surf = pygame.Surface(label.rect.size, pygame.SRCALPHA)
        rect = surf.get_rect()
        radius = rect.h // 2 if label.style == "ring" else px(5)
        if label.style == "ring":
            pygame.draw.rect(surf, (12, 10, 30, 240), rect, border_radius=radius)
            pygame.draw.rect(surf, (*label.colour, 255), rect, max(1, px(2)), border_radius=radius)
            colour = mix(label.colour, (255, 255, 255), 0.35)
        elif label.style == "body":
            pygame.draw.rect(surf, (8, 8, 26, 150), rect, border_radius=radius)
            colour = label.colour
        else:
            pygame.draw.rect(surf, (10, 8, 30, 205), rect, border_radius=radius)
            colour = label.colour
        font = self._font(label.style)
        lines = name_lines(label.text)
        top = rect.centery - (font.get_linesize() * (len(lines) - 1) + font.get_height()) / 2
        for n, line in enumerate(lines):
            text = font.render(line, True, colour)
            surf.blit(text, text.get_rect(midtop=(rect.centerx, round(top + n * font.get_linesize()))))
        self._images[key] = surf
        return surf

    # -- layout
    def update(self, markers: list[pygame.Rect], screen_obstacles: list[pygame.Rect],
               panning: bool = False) -> list[PlacedLabel]:
        """Lay the names out again if the zoom, pan, markers or obstacles (screen rectangles) changed; while
        the player is dragging the board about (``panning``) the names ride along and are laid out on release."""
        view = self.view
        zoom_key = (round(view.zoom, 9), view.layout.scale)
        if panning and zoom_key == self._zoom_key:
            return self.placed
        if zoom_key != self._zoom_key:
            self._zoom_key = zoom_key
            self._requests = label_requests(view, self.measure)
            self._nodes = node_obstacles(view)
            self._grid = line_grid(view)
            self._owned = {r.key: own_grid(r, self._grid.cell) for r in self._requests if r.own_line}
            self._centres = [(x * view.zoom, y * view.zoom) for x, y in map(view.geometry.pos, view.geometry.steps)]
        ox, oy = int(round(view.offset[0])), int(round(view.offset[1]))
        key = (zoom_key, ox, oy, tuple(map(tuple, markers)), tuple(map(tuple, screen_obstacles)), tuple(view.rect))
        if key == self._key:
            return self.placed
        self._key = key
        moved = [r.move(-ox, -oy) for r in list(markers) + list(screen_obstacles)]
        bounds = view.rect.move(-ox, -oy).inflate(-view.layout.px(4), -view.layout.px(4))
        assert self._grid is not None
        self.placed = layout_labels(self._requests, self.measure, self._nodes + moved, self._grid, bounds,
                                    self._centres, self._owned, gap=view.layout.px(3))
        self.layouts += 1
        return self.placed

    def screen_rects(self) -> dict[str, pygame.Rect]:
        """Where each placed name is on screen, by what it names."""
        ox, oy = int(round(self.view.offset[0])), int(round(self.view.offset[1]))
        return {label.key: label.rect.move(ox, oy) for label in self.placed}

    def draw(self, surface: pygame.Surface) -> None:
        ox, oy = int(round(self.view.offset[0])), int(round(self.view.offset[1]))
        for label in self.placed:
            surface.blit(self.image(label), label.rect.move(ox, oy))
