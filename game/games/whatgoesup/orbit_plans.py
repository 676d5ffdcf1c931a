"""The careful player's plans for the orbital goals: All Your Base and All Seeing Eye.

Parts, shakedown and R&D come from ``goal_plan.GoalPlan``; crafts fly the cheapest routes of ``routes``.

* **hold_locations** (All Your Base): the shakedown is itself useful: two derps fly a Waylight to the
  nearest location (polar orbit on this board), light it, set it loose as a beacon and come home. Then
  one craft carries a Waylight for every other location (synchronous, low lunar, lunar polar orbit),
  lights one in each and sets it loose there, keeping the last aboard: when every location shines
  for the program at the end of a turn, it holds them all. A location still dark sends the next craft.
* **map_and_return** (All Seeing Eye): crafts with a mapping payload circle in the mapping orbit (polar
  orbit: 5% of the world a turn, and 5% more for the first into each orbit type) while their rations
  allow another lap, then bring their maps home. The shakedown maps for three turns; then up to three
  crafts at a time fly until the maps home and aloft cover the goal.
"""
from __future__ import annotations

import math
from typing import Callable, Iterator, Optional

from game.games.whatgoesup.goal_plan import GoalPlan, Job
from game.games.whatgoesup.routes import can_make, is_home, plan_route
from game.games.whatgoesup.rules.board import Step
from game.games.whatgoesup.rules.actions import Action
from game.games.whatgoesup.rules.flight_actions import Deploy, UsePayload
from game.games.whatgoesup.rules.state import GameState


def _legs(board, start: str, goals: list[Callable[[Step], bool]], thrust: str, back: bool) -> tuple[int, int, str]:
    """(burns, turns, last step) of a route through each goal in turn (and home when ``back``)."""
    burns = turns = 0
    here = start
    for goal in goals + ([is_home] if back else []):
        leg = plan_route(board, None, here, goal, can_make(thrust))
        if leg is None:
            raise ValueError("no route to the goal on this board")
        burns, turns = burns + leg.burns, turns + leg.turns
        here = leg.steps[-1] if leg.steps else here
    return burns, turns, here


class AllYourBasePlan(GoalPlan):
    title = "Beacon"
    returns = False  # the lights craft stays out: the game ends when every location shines
    skills = (("engineering", 3), ("stamina", 3), ("piloting", 1))  # stamina for the lights and a roll or two

    def __init__(self, engine, program: int, victory):
        self.victory = victory
        super().__init__(engine, program)

    def in_orbit(self, location: str) -> Callable[[Step], bool]:
        return lambda step: step.orbit_type == location and step.kind == "orbit"

    def _nearest_order(self, start: str, locations: list[str]) -> list[str]:
        """The locations in the order a craft from ``start`` reaches them most cheaply, one after another."""
        order, here, left = [], start, list(locations)
        while left:
            costs = []
            for loc in left:
                leg = plan_route(self.board, None, here, self.in_orbit(loc))
                if leg is not None:
                    costs.append(((leg.burns, leg.turns), loc, leg.steps[-1] if leg.steps else here))
            if not costs:
                break
            _, loc, here = min(costs)
            order.append(loc)
            left.remove(loc)
        return order

    def jobs(self) -> tuple[Job, Job]:
        start = self.orbit_reached()
        order = self._nearest_order(start, list(self.victory.locations))
        first, rest = order[0], order[1:]
        burns, turns, _ = _legs(self.board, start, [self.in_orbit(loc) for loc in rest], "orbital", back=False)
        # The night the last light shines may be a hungry one: the game ends at the end of that turn.
        goal = Job("Lantern", crew=1, payloads=("waylight",) * len(rest), meals=turns, burns=burns)
        burns, turns, _ = _legs(self.board, start, [self.in_orbit(first)], "orbital", back=True)
        return self.shakedown_job(goal, 2, ("waylight",), 1 + turns, burns), goal

    # ------------------------------------------------------------------ in flight
    def held(self, state: GameState) -> set[str]:
        return {loc for loc, owners in self.engine.victory_rules.held_locations(state).items()
                if self.program_index in owners}

    def _lights(self, state: GameState, craft, active: bool) -> list:
        return [i for i in state.items if i.location == craft.id and not i.disabled and i.active == active
                and state.thing(i.thing_id).kind == "waylight"]

    def _claimed(self, state: GameState, craft) -> set[str]:
        """Locations held, or being flown to by another of this program's crafts."""
        claimed = self.held(state)
        for other in state.upgoers_of(self.program_index):
            if other.id != craft.id and other.status == "flying" and other.crew and self._lights(state, other, False):
                target = self._target(state, other, claimed)
                if target:
                    claimed.add(target)
        return claimed

    def _target(self, state: GameState, craft, claimed: set[str]) -> Optional[str]:
        """The next location this craft lights: the shakedown's is the nearest, the others are the goal craft's."""
        if not self._lights(state, craft, False) and not self._lights(state, craft, True):
            return None
        first = self._first_location()
        mine = [first] if self.job_of(state, craft) is self.shakedown else \
            [loc for loc in self.victory.locations if loc != first]
        here = self.board.step(craft.location)
        if here.orbit_type in mine and here.orbit_type not in claimed and here.kind == "orbit":
            return here.orbit_type
        order = self._nearest_order(craft.location, [loc for loc in mine if loc not in claimed])
        return order[0] if order else None

    def destination(self, state: GameState, craft) -> Optional[Callable[[Step], bool]]:
        if self.job_of(state, craft) is None:
            return None
        target = self._target(state, craft, self._claimed(state, craft))
        return self.in_orbit(target) if target is not None else None

    def _first_location(self) -> str:
        return self._nearest_order(self.orbit_reached(), list(self.victory.locations))[0]

    def more_wants(self, state: GameState) -> Iterator[Action]:
        """The shakedown's location is still dark and nobody is on the way: fly another light there."""
        if self._first_location() not in self.held(state) and not self.active(state, self.shakedown):
            yield from self.fly_job_again(state, self.shakedown)

    def goal_activity(self, state: GameState, craft, mode: str) -> Optional[object]:
        """Light a Waylight where no light of the program shines, and set it loose if the craft flies on."""
        step = self.board.step(craft.location)
        here = step.orbit_type
        if step.kind != "orbit" or here not in self.victory.locations:
            return None
        active = self._lights(state, craft, True)
        if here in self.held(state):
            if active and self._leaving(state, craft) and not self._others_hold(state, craft, here):
                return Deploy(active[0].id)  # the light that holds this place stays when the craft leaves
            return None
        if active:
            return Deploy(active[0].id) if self._leaving(state, craft) else None
        crew = sorted((state.derp(d) for d in craft.crew), key=lambda d: -d.current_stamina)
        for light in self._lights(state, craft, False)[:1]:
            for derp in crew:
                action = UsePayload(derp.id, light.id)
                if self.ok(state, action):
                    return action
        return None

    def _others_hold(self, state: GameState, craft, location: str) -> bool:
        """Whether another craft or beacon of this program keeps a light shining at ``location``."""
        for other in state.upgoers_of(self.program_index):
            if other.id == craft.id or not (other.in_space or other.status == "written_off"):
                continue
            if self.board.step(other.location).orbit_type == location and self._lights(state, other, True):
                return True
        return False

    def _leaving(self, state: GameState, craft) -> bool:
        """Whether the craft will fly on (more lights to place, or home): its light must stay here."""
        return bool(self._lights(state, craft, False)) or self.job_of(state, craft) is self.shakedown

    def stamina_reserve(self, state: GameState, craft, derp) -> int:
        return len(self._lights(state, craft, False)) if self.job_of(state, craft) is not None else 0

    def goal_crafts_wanted(self, state: GameState) -> int:
        dark = [loc for loc in self.victory.locations if loc not in self.held(state)]
        return 1 if dark else 0


class AllSeeingEyePlan(GoalPlan):
    title = "Survey"
    LAPS = 2  # laps of the mapping orbit a goal craft's rations allow (the shakedown: the first part of one)

    def __init__(self, engine, program: int, victory):
        self.victory = victory
        super().__init__(engine, program)

    def mapping_orbit(self, step: Step) -> bool:
        return step.kind == "orbit" and step.orbit_type is not None \
            and self.board.orbit_type(step.orbit_type).maps == self.victory.body

    def _lap(self) -> int:
        ring = [s for s in self.board.steps if self.mapping_orbit(s)]
        rails = {s.rail for s in ring}
        return max(sum(1 for s in ring if s.rail == rail) for rail in rails)

    def jobs(self) -> tuple[Job, Job]:
        start = self.orbit_reached()
        out = plan_route(self.board, None, start, self.mapping_orbit)
        back = plan_route(self.board, None, out.steps[-1], is_home)
        burns = out.burns + back.burns
        first_pass = 1 + out.turns + back.turns  # arrive, go round to the deorbit burn, come home
        shakedown = Job("Shakedown", crew=1, payloads=("mapping",), meals=first_pass, burns=burns)
        goal = Job("Surveyor", crew=1, payloads=("mapping",), meals=first_pass + (self.LAPS - 1) * self._lap(),
                   burns=burns)
        return shakedown, goal

    def _percent_per_turn(self) -> int:
        return self.rules.prestige.mapping_percent_per_turn

    def covered(self, state: GameState) -> int:
        """Maps home plus maps aloft with a crew to bring them home."""
        home = state.programs[self.program_index].mapped_home(self.victory.body)
        aloft = sum(dict(u.mapped).get(self.victory.body, 0) for u in state.upgoers_of(self.program_index)
                    if u.status == "flying" and u.crew and not u.stranded)
        return home + aloft

    def destination(self, state: GameState, craft) -> Optional[Callable[[Step], bool]]:
        if self.job_of(state, craft) is None or self.covered(state) >= self.victory.percent:
            return None
        return self.mapping_orbit

    def goal_crafts_wanted(self, state: GameState) -> int:
        expected = self._percent_per_turn() * (self.LAPS * self._lap() - 1)
        active = self.active(state, self.goal)
        to_come = sum(max(0, expected - dict(u.mapped).get(self.victory.body, 0)) for u in active)
        missing = self.victory.percent - self.covered(state) - to_come
        return len(active) + max(0, min(3, math.ceil(missing / expected)))
