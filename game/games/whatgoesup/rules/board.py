"""The Field: the orbital-rail board as typed data loaded from ``rules/board.yaml``.

No step is named in code: the engine asks the board what kind a step is, where its rail goes
next, and which burns leave from it. ``check`` reports a broken board with file and line.
"""
from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Literal, Optional

from game.core.schema import MISSING, build, origin_field, spec
from game.core.yamlnodes import Map, Node, Problems, nearest

StepKind = Literal["home", "launch", "orbital_insertion", "burn", "orbit", "transit", "surface",
                   "reentry", "landing", "lunar_landing", "rock_docking", "escape"]

LabelSide = Literal["above", "below", "left", "right", "above left", "above right", "below left", "below right"]

DURATION_KINDS = ("orbit", "transit", "surface")  # movement stops here; capsules and habitats roll
STABLE_KINDS = ("orbit", "surface")  # interaction (docking, EVA, transfers) is possible here
THRUST_ORDER = ("orbital", "lunar", "planetary")


@dataclass(frozen=True)
class Body:
    id: str
    name: str
    position: tuple[float, ...]
    radius: float = spec(low=1, high=1000)
    colour: str = "#888888"
    scenario: Optional[str] = None  # only on the board in this scenario (e.g. stop_the_rock)
    look: Literal["world", "moon", "rock", "plain"] = "plain"  # how The Field paints it (presentation only)
    origin: object = origin_field()


@dataclass(frozen=True)
class OrbitType:
    id: str
    name: str
    body: str
    maps: Optional[str] = None  # a mapping payload in this orbit maps this body
    first_mapping_body: Optional[str] = None  # the body the orbit-type first's mapping bonus goes to
    waylight: Optional[str] = None  # the Positioning System group an active Waylight here counts for
    origin: object = origin_field()


@dataclass(frozen=True)
class Rail:
    id: str
    name: str
    colour: str
    direction: Literal["clockwise", "counterclockwise", "outbound", "inbound"] = "clockwise"
    origin: object = origin_field()


@dataclass(frozen=True)
class BurnOption:
    """A burn that leaves a step for another rail."""

    to: str
    name: str
    thrust: Literal["orbital", "lunar", "planetary"] = "orbital"
    uses_rcs: bool = False  # a deorbit may be done with one RCS use instead of a thruster
    scenario: Optional[str] = None
    origin: object = origin_field()


@dataclass(frozen=True)
class Step:
    id: str
    name: str
    kind: StepKind
    position: tuple[float, ...]
    rail: Optional[str] = None
    next: Optional[str] = None  # where the rail leads when coasting (or on success, for special steps)
    fallback: Optional[str] = None  # where a failed or skipped special step sends the craft
    burns: tuple[BurnOption, ...] = ()
    orbit_type: Optional[str] = None
    body: Optional[str] = None
    scenario: Optional[str] = None
    description: str = ""
    label_side: Optional[LabelSide] = None  # where The Field tries its name first (presentation only)
    origin: object = origin_field()

    @property
    def is_duration(self) -> bool:
        return self.kind in DURATION_KINDS

    @property
    def is_stable(self) -> bool:
        return self.kind in STABLE_KINDS


@dataclass(frozen=True)
class Board:
    name: str
    width: float = spec(low=100, high=100000)
    height: float = spec(low=100, high=100000)
    bodies: tuple[Body, ...] = ()
    orbit_types: tuple[OrbitType, ...] = ()
    rails: tuple[Rail, ...] = ()
    steps: tuple[Step, ...] = ()
    hostile_waters_penalty: int = spec(2, low=0, high=19)
    origin: object = origin_field()

    @functools.cached_property
    def _by_id(self) -> dict[str, dict[str, object]]:
        """Steps, orbit types, rails and bodies by id, indexed on the first look-up (the first of an id wins)."""
        index: dict[str, dict[str, object]] = {}
        for pool, values in (("step", self.steps), ("orbit_type", self.orbit_types), ("rail", self.rails),
                             ("body", self.bodies)):
            by_id = index[pool] = {}
            for value in values:
                by_id.setdefault(value.id, value)
        return index

    def step(self, step_id: str) -> Step:
        return self._by_id["step"][step_id]

    @functools.cached_property
    def home(self) -> Step:
        return next(s for s in self.steps if s.kind == "home")

    def orbit_type(self, type_id: str) -> OrbitType:
        return self._by_id["orbit_type"][type_id]

    def rail(self, rail_id: str) -> Rail:
        return self._by_id["rail"][rail_id]

    def body(self, body_id: str) -> Body:
        return self._by_id["body"][body_id]

    def in_play(self, thing, scenario: Optional[str]) -> bool:
        """Whether a step, burn or body belongs on the board in this scenario ("*": in any)."""
        return scenario == "*" or thing.scenario is None or thing.scenario == scenario

    def rcs_can_make(self, burn: BurnOption) -> bool:
        """Whether ``burn`` may be made with RCS instead of thrusters: a burn marked ``uses_rcs``, or one that
        docks with the rock (its RCS uses are flight.yaml's ``rock_docking_rcs_uses``)."""
        return burn.uses_rcs or self.step(burn.to).kind == "rock_docking"

    @functools.cached_property
    def _kept_burns(self) -> dict[tuple[str, Optional[str]], tuple[BurnOption, ...]]:
        """``burns_from``'s answers by (step, scenario), each worked out on its first ask (the board never
        changes): a craft's every move, burn check and listing asks again."""
        return {}

    def burns_from(self, step_id: str, scenario: Optional[str]) -> tuple[BurnOption, ...]:
        """The burns out of a step that belong on the board in this scenario (their destinations too)."""
        key = (step_id, scenario)
        burns = self._kept_burns.get(key)
        if burns is None:
            burns = self._kept_burns[key] = tuple(
                b for b in self.step(step_id).burns
                if self.in_play(b, scenario) and self.in_play(self.step(b.to), scenario))
        return burns

    def exits(self, step_id: str, scenario: Optional[str] = None) -> tuple[str, ...]:
        """Every step a craft can go to from here (coasting, burning or as a fallback)."""
        step = self.step(step_id)
        out = [b.to for b in self.burns_from(step_id, scenario)]
        for target in (step.next, step.fallback):
            if target is not None:
                out.append(target)
        return tuple(out)


def _check_board(board: Board, problems: Problems) -> None:
    ids = [s.id for s in board.steps]
    by_id = {s.id: s for s in board.steps}
    rail_ids = [r.id for r in board.rails]
    type_ids = [o.id for o in board.orbit_types]
    body_ids = [b.id for b in board.bodies]

    def at(obj, key: str | None = None) -> Node | None:
        node = obj.origin
        if key and isinstance(node, Map) and node.get(key) is not None:
            return node.get(key)
        return node

    homes = [s for s in board.steps if s.kind == "home"]
    if not homes:
        problems.add(at(board, "steps"), "the board has no home step (kind: home), so no flight can start")
    elif len(homes) > 1:
        problems.add(at(homes[1], "kind"), f"the board has two home steps ('{homes[0].id}' and '{homes[1].id}')")
    for kind in ("launch", "reentry", "landing"):
        if not any(s.kind == kind for s in board.steps):
            problems.add(at(board, "steps"), f"the board has no {kind} step")

    for o in board.orbit_types:
        for key in ("body", "maps", "first_mapping_body"):
            ref = getattr(o, key)
            if ref is not None and ref not in body_ids:
                problems.add(at(o, key), f"orbit type '{o.id}' names unknown body '{ref}'" + nearest(ref, body_ids))

    for thing, what in [(b, "body") for b in board.bodies] + [(s, "step") for s in board.steps]:
        _check_position(thing, what, board, at(thing, "position"), problems)

    for s in board.steps:
        for key in ("next", "fallback"):
            ref = getattr(s, key)
            if ref is not None and ref not in by_id:
                problems.add(at(s, key), f"step '{s.id}' {key} leads to unknown step '{ref}' (a rail to nowhere)"
                             + nearest(ref, ids))
        for burn in s.burns:
            if burn.to not in by_id:
                problems.add(at(burn, "to"), f"burn '{burn.name}' from '{s.id}' leads to unknown step '{burn.to}'"
                             + nearest(burn.to, ids))
        if s.rail is not None and s.rail not in rail_ids:
            problems.add(at(s, "rail"), f"step '{s.id}' is on unknown rail '{s.rail}'" + nearest(s.rail, rail_ids))
        if s.orbit_type is not None and s.orbit_type not in type_ids:
            problems.add(at(s, "orbit_type"), f"step '{s.id}' has unknown orbit type '{s.orbit_type}'"
                         + nearest(s.orbit_type, type_ids))
        if s.body is not None and s.body not in body_ids:
            problems.add(at(s, "body"), f"step '{s.id}' names unknown body '{s.body}'" + nearest(s.body, body_ids))
        if s.kind == "orbit" and s.orbit_type is None:
            problems.add(at(s), f"orbit step '{s.id}' needs an orbit_type (prestige counts orbit types)")
        needs_next = s.kind in ("home", "launch", "orbital_insertion", "reentry", "landing", "lunar_landing",
                                "rock_docking", "burn", "transit")
        if needs_next and s.next is None:
            problems.add(at(s), f"step '{s.id}' ({s.kind}) needs a 'next' step")
        if s.kind in ("launch", "orbital_insertion", "lunar_landing", "rock_docking") and s.fallback is None:
            problems.add(at(s), f"step '{s.id}' ({s.kind}) needs a 'fallback' step for when it fails")
        if s.kind == "escape" and (s.next or s.burns):
            problems.add(at(s, "next" if s.next else "burns"),
                         f"escape step '{s.id}' leaves play and cannot lead anywhere")

    if problems:
        return
    # A duration step must be leavable; coasting must never loop without reaching a duration step.
    for s in board.steps:
        if s.is_duration and s.next is None and not s.burns:
            problems.add(at(s), f"duration step '{s.id}' can never be left (no next step and no burns)")
        if s.kind == "burn" and not s.burns:
            problems.add(at(s, "burns"), f"burn junction '{s.id}' offers no burns")
    for s in board.steps:
        if not s.is_duration or s.next is None:
            continue
        seen = set()
        current = s.next
        while current is not None and not by_id[current].is_duration and by_id[current].kind not in ("home", "escape"):
            if current in seen:
                problems.add(at(s, "next"), f"coasting from '{s.id}' loops forever without reaching a duration step")
                break
            seen.add(current)
            current = by_id[current].next
    home = homes[0] if homes else None
    if home is not None:
        reach = {home.id}
        frontier = [home.id]
        while frontier:
            sid = frontier.pop()
            for nxt in board.exits(sid, scenario="*"):
                if nxt not in reach:
                    reach.add(nxt)
                    frontier.append(nxt)
        for s in board.steps:
            if s.id not in reach and s.scenario is None:
                problems.add(at(s), f"step '{s.id}' cannot be reached from home")


def _check_position(thing, what: str, board: Board, node: Node | None, problems: Problems) -> None:
    """A position is [x, y] on the board: 0 to width across, 0 to height down."""
    if len(thing.position) != 2:
        problems.add(node, f"{what} '{thing.id}' position must be [x, y]")
        return
    x, y = thing.position
    if not (0 <= x <= board.width and 0 <= y <= board.height):
        problems.add(node, f"{what} '{thing.id}' position [{x:.10g}, {y:.10g}] lies off the board "
                           f"(x from 0 to {board.width:.10g}, y from 0 to {board.height:.10g})")


def load_board(node: Node, problems: Problems, built: dict) -> object:
    before = len(problems.items)
    board = build(Board, node, problems, "")
    if board is MISSING:
        return MISSING
    _check_board(board, problems)
    return board if len(problems.items) == before else MISSING

