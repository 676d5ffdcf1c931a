"""Routes on The Field for the computer players: the cheapest way from a step to a goal.

A route is found by searching the board itself (``next`` rails and the burns of each junction), so no
step is named here. Its cost is (burns, turns): fuel first, then time, where a turn is a duration step
the craft stops at (it eats there). A landing or docking step is only reached by its burn; coasting
into one leads to its fallback, as in the flight rules.
"""
from __future__ import annotations

import heapq
from dataclasses import dataclass
from typing import Callable, Optional

from game.games.whatgoesup.rules.board import THRUST_ORDER, Board, BurnOption, Step
from game.games.whatgoesup.rules.flight_actions import Burn, Coast

LANDING_KINDS = ("lunar_landing", "rock_docking")  # steps that only a burn lands on


@dataclass(frozen=True)
class Route:
    """What to do first (a ``Burn`` or ``Coast``), and what the whole way costs."""

    first: object
    burns: int
    turns: int
    steps: tuple[str, ...]  # the steps entered on the way, the goal last


def can_make(thrust: str) -> Callable[[BurnOption], bool]:
    """The burns a craft with this thrust class (orbital, lunar, planetary) may make."""
    have = THRUST_ORDER.index(thrust) if thrust in THRUST_ORDER else -1
    return lambda burn: have >= THRUST_ORDER.index(burn.thrust)


def _enter(board: Board, step_id: str, by_burn: bool) -> Optional[str]:
    """The step a craft really comes to when it heads for ``step_id`` (None: it leaves the board)."""
    step = board.step(step_id)
    if step.kind in LANDING_KINDS:
        return step.next if by_burn else step.fallback
    if step.kind == "escape":
        return None
    return step.id


def _moves(board: Board, scenario: Optional[str], step: Step, can_burn) -> list[tuple[object, Optional[str], int]]:
    """(first action, step entered, burns) for each way on from ``step``."""
    burns = board.burns_from(step.id, scenario)
    if not burns:
        return [(None, _enter(board, step.next, False), 0)] if step.next else []
    out: list[tuple[object, Optional[str], int]] = []
    for b in burns:
        if can_burn(b):
            out.append((Burn(b.to), _enter(board, b.to, True), 1))
    if step.next:
        out.append((Coast(), _enter(board, step.next, False), 0))
    return out


def plan_route(board: Board, scenario: Optional[str], start: str, is_goal: Callable[[Step], bool],
               can_burn: Callable[[BurnOption], bool] = lambda b: True) -> Optional[Route]:
    """The cheapest route from ``start`` to a step where ``is_goal`` holds, or None when there is none.

    When ``start`` is already a goal the route is to stay (``Coast``, nothing spent): a craft that
    coasts at a surface stays there, and one in orbit goes round to the next goal step.
    """
    if is_goal(board.step(start)):
        return Route(Coast(), 0, 0, ())
    counter = 0
    queue: list = [(0, 0, counter, start, None, ())]
    best: dict[str, tuple[int, int]] = {}
    while queue:
        burns, turns, _, here, first, path = heapq.heappop(queue)
        if here in best and best[here] <= (burns, turns):
            continue
        best[here] = (burns, turns)
        step = board.step(here)
        if path and is_goal(step):
            return Route(first if first is not None else Coast(), burns, turns, path)
        if path and step.kind == "home":
            continue
        for action, entered, cost in _moves(board, scenario, step, can_burn):
            if entered is None:
                continue
            nxt = board.step(entered)
            counter += 1
            heapq.heappush(queue, (burns + cost, turns + (1 if nxt.is_duration else 0), counter, entered,
                                   first if path else action, path + (entered,)))
    return None


def is_home(step: Step) -> bool:
    return step.kind == "home"
