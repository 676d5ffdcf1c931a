"""Scenarios and victory conditions (``rules/scenarios.yaml``) as typed, checked tables.

A victory condition is one of a closed set of kinds implemented in ``game.games.whatgoesup.rules.victory``; YAML only
picks a kind and gives its parameters. The Stop The Rock scenario's numbers (the rock's track, the
drift die, the nudge cost, the difficulties) live here too. Board references (steps, bodies, orbit
types) are checked against board.yaml, with the nearest valid name when one is misspelt.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, Optional

from game.core.schema import MISSING, build, origin_field, spec
from game.core.yamlnodes import Map, Node, Problems, nearest

VictoryKind = Literal["most_dots", "walk_and_return", "find_temple", "hold_locations", "map_and_return"]

# The parameters each victory kind takes: required ones first, then optional ones.
VICTORY_PARAMS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "most_dots": ((), ()),
    "walk_and_return": (("body",), ()),
    "find_temple": (("body",), ("relic_mass",)),
    "hold_locations": (("locations",), ()),
    "map_and_return": (("body",), ("percent",)),
}


@dataclass(frozen=True)
class Victory:
    id: str
    name: str
    kind: VictoryKind
    description: str = ""
    body: Optional[str] = None
    relic_mass: int = spec(0, low=0, high=100, doc="the Temple's prize must be flown home (0: no prize)")
    locations: tuple[str, ...] = ()
    percent: int = spec(100, low=5, high=100)
    suggested_turns: Optional[int] = spec(None, low=1, high=1000,
                                          doc="the turn limit a new game suggests for this victory")
    origin: object = origin_field()


@dataclass(frozen=True)
class TrackStage:
    turns_left: int = spec(low=0, high=1000, doc="from this many turns left to impact (or more)")
    transit_steps: int = spec(low=1, high=100, doc="Rock Transit steps left to fly after the intercept burn")
    origin: object = origin_field()


@dataclass(frozen=True)
class Difficulty:
    id: str
    name: str
    turns_to_impact: int = spec(low=1, high=200)
    nudges_needed: int = spec(low=1, high=10000, doc="nudge value that saves the world")
    start_dots: int = spec(low=0, high=1000)
    drift: bool = True
    start_points: int = spec(0, low=0, high=10000,
                             doc="a one-time grant of resource points to every program on turn 1")
    origin: object = origin_field()


@dataclass(frozen=True)
class RockScore:
    per_turn_left: int = spec(10, low=0, high=1000)
    per_derp_lost: int = spec(-5, low=-1000, high=0)
    base: int = spec(100, low=0, high=10000)
    origin: object = origin_field()


@dataclass(frozen=True)
class Scenario:
    id: str
    name: str
    rock_body: str
    intercept_step: str
    track: tuple[TrackStage, ...]
    difficulties: tuple[Difficulty, ...]
    default_difficulty: str
    description: str = ""
    cooperative: bool = True
    nudge_fuel: int = spec(2, low=0, high=100)
    drift_die: int = spec(20, low=2, high=1000)
    drift_stops_at: int = spec(5, low=0, high=1000)
    score: RockScore = RockScore()
    origin: object = origin_field()

    def difficulty(self, difficulty_id: Optional[str]) -> Difficulty:
        wanted = difficulty_id or self.default_difficulty
        for d in self.difficulties:
            if d.id == wanted:
                return d
        raise KeyError(wanted)

    def transit_steps(self, turns_left: int) -> int:
        """How many Rock Transit steps the intercept burn leaves to fly with ``turns_left`` to impact."""
        stages = sorted(self.track, key=lambda s: -s.turns_left)
        for stage in stages:
            if turns_left >= stage.turns_left:
                return stage.transit_steps
        return stages[-1].transit_steps


@dataclass(frozen=True)
class ScenarioTable:
    scenarios: tuple[Scenario, ...] = ()
    victories: tuple[Victory, ...] = ()
    origin: object = origin_field()

    def scenario(self, scenario_id: str) -> Scenario:
        for s in self.scenarios:
            if s.id == scenario_id:
                return s
        raise KeyError(scenario_id)

    def victory(self, victory_id: str) -> Victory:
        for v in self.victories:
            if v.id == victory_id:
                return v
        raise KeyError(victory_id)


def _at(obj, key: Optional[str] = None) -> Optional[Node]:
    node = getattr(obj, "origin", None)
    if key and isinstance(node, Map) and node.get(key) is not None:
        return node.get(key)
    return node if isinstance(node, Node) else None


def track_chain(board, intercept_step: str) -> list[str]:
    """The transit steps of the rock's track, from the intercept step along the rail."""
    chain: list[str] = []
    current: Optional[str] = intercept_step
    while current is not None and current not in chain:
        step = board.step(current)
        if step.kind != "transit":
            break
        chain.append(current)
        current = step.next
    return chain


def _check(table: ScenarioTable, board, problems: Problems) -> None:
    step_ids = [s.id for s in board.steps] if board is not None else []
    body_ids = [b.id for b in board.bodies] if board is not None else []
    orbit_ids = [o.id for o in board.orbit_types] if board is not None else []
    for v in table.victories:
        required, optional = VICTORY_PARAMS[v.kind]
        node = _at(v)
        given = set(node.keys()) if isinstance(node, Map) else set()
        for key in ("body", "relic_mass", "locations", "percent"):
            if key in given and key not in required + optional:
                takes = ", ".join(required + optional)
                problems.add(_at(v, key), f"victory '{v.id}' ({v.kind}) takes no '{key}'"
                             + (f" (it takes: {takes})" if takes else ""))
        for key in required:
            if key not in given:
                problems.add(node, f"victory '{v.id}' ({v.kind}) needs '{key}'")
        if board is None:
            continue
        if v.body is not None and v.body not in body_ids:
            problems.add(_at(v, "body"), f"victory '{v.id}' names unknown body '{v.body}'" + nearest(v.body, body_ids))
        for loc in v.locations:
            if loc not in orbit_ids:
                problems.add(_at(v, "locations"), f"victory '{v.id}' names unknown orbit type '{loc}'"
                             + nearest(loc, orbit_ids))
    if not any(v.kind == "most_dots" and v.id == "most_dots" for v in table.victories):
        problems.add(_at(table, "victories"), "the victories need 'most_dots' (kind: most_dots), the default")
    for s in table.scenarios:
        diff_ids = [d.id for d in s.difficulties]
        if s.default_difficulty not in diff_ids:
            problems.add(_at(s, "default_difficulty"), f"scenario '{s.id}' default_difficulty "
                         f"'{s.default_difficulty}' is not one of its difficulties" + nearest(s.default_difficulty, diff_ids))
        if not s.difficulties:
            problems.add(_at(s, "difficulties"), f"scenario '{s.id}' needs at least one difficulty")
        if not any(t.turns_left == 0 for t in s.track):
            problems.add(_at(s, "track"), f"scenario '{s.id}' track needs a stage with turns_left: 0 "
                         "(for the last turns before impact)")
        seen: dict[int, Optional[Node]] = {}
        for t in s.track:
            if t.turns_left in seen:
                first = seen[t.turns_left]
                problems.add(_at(t, "turns_left"), f"scenario '{s.id}' track has turns_left {t.turns_left} twice"
                             + (f" (first at line {first.line})" if first is not None else ""))
            else:
                seen[t.turns_left] = _at(t, "turns_left")
        if board is None:
            continue
        if s.rock_body not in body_ids:
            problems.add(_at(s, "rock_body"), f"scenario '{s.id}' names unknown body '{s.rock_body}'"
                         + nearest(s.rock_body, body_ids))
        if s.intercept_step not in step_ids:
            problems.add(_at(s, "intercept_step"), f"scenario '{s.id}' intercept_step '{s.intercept_step}' "
                         "is not a board step" + nearest(s.intercept_step, step_ids))
            continue
        chain = track_chain(board, s.intercept_step)
        if not chain:
            problems.add(_at(s, "intercept_step"), f"scenario '{s.id}' intercept_step '{s.intercept_step}' "
                         "must be a transit step (the start of the rock's track)")
            continue
        for t in s.track:
            if t.transit_steps > len(chain):
                problems.add(_at(t, "transit_steps"), f"scenario '{s.id}' track asks for {t.transit_steps} "
                             f"Rock Transit steps but the board's track from '{s.intercept_step}' has {len(chain)}")


def load_scenarios(node: Node, problems: Problems, built: dict) -> object:
    before = len(problems.items)
    table = build(ScenarioTable, node, problems, "")
    if table is MISSING:
        return MISSING
    board = built.get("board", MISSING)
    _check(table, None if board is MISSING else board, problems)
    budget = getattr(built.get("economy", MISSING), "budget", None)
    if budget is not None:
        for s in table.scenarios:
            for d in s.difficulties:
                if not budget.min_dots <= d.start_dots <= budget.max_dots:
                    problems.add(_at(d, "start_dots"), f"difficulty '{d.id}' start_dots {d.start_dots} lies outside "
                                 f"the budget's {budget.min_dots}..{budget.max_dots} (economy.yaml)")
    return table if len(problems.items) == before else MISSING
