"""The careful player's plan for the lunar goals: One Small Step and Final Destination (with or without
the monolith). Parts, shakedown and R&D come from ``goal_plan.GoalPlan``.

The goal craft flies one derp to the goal body's surface on the cheapest route and home again: on
this board a launch pair and an insertion stage, low orbit, the high transfer, synchronous orbit, the
trans-lunar injection, lunar orbit, the landing burn, the takeoff and the trans-world injection (six
burns, eight nights: a mass-7 capsule, a mass-4 thruster to land, 19 fuel and 36-mass stages for One
Small Step). There the crew does what the goal asks:

* **walk_and_return**: a derp with Piloting walks outside with the EVA pack (a failed walk is tried
  again the next turn while the rations last); the walker coming home wins.
* **find_temple**: the craft carries a Cart and a mapping payload (it maps the Moon on its way when it
  is first into an orbit type); the landing's search roll may be rerolled with luck; if the Temple is
  found the derp who kept full stamina (the crew never spends it on rolls) drives the Cart there and
  wins, or with the monolith brings it home. A Temple not found sends the crew home.
"""
from __future__ import annotations

from typing import Callable, Optional

from game.games.whatgoesup.goal_plan import GoalPlan, Job, route_cost
from game.games.whatgoesup.rules.board import Step
from game.games.whatgoesup.rules.flight_actions import VisitTemple, WalkOutside
from game.games.whatgoesup.rules.state import GameState


class MoonPlan(GoalPlan):
    title = "Moon"
    TEMPLE_LUCK = 2  # luck points kept for the Temple search

    def __init__(self, engine, program: int, victory):
        self.victory = victory
        # Reaching the Temple wins at once: the Pilgrim flies one way, at little more than half the mass.
        self.returns = victory.kind == "walk_and_return" or bool(victory.relic_mass)
        super().__init__(engine, program)

    # ------------------------------------------------------------------ the jobs
    def on_surface(self, step: Step) -> bool:
        return step.kind == "surface" and step.body == self.victory.body

    def jobs(self) -> tuple[Job, Job]:
        thrust = self.thrust_needed(self.on_surface)
        burns, meals = route_cost(self.board, None, self.orbit_reached(), self.on_surface, thrust, self.returns)
        if self.victory.kind == "walk_and_return":
            goal = Job("Eagle", crew=1, payloads=("eva_pack",), meals=meals, burns=burns, thrust=thrust)
        else:
            out_burns, _ = route_cost(self.board, None, self.orbit_reached(), self.on_surface, thrust, returns=False)
            if not self.returns:
                meals -= 1  # the Temple is reached on the landing turn: that night is never spent
            goal = Job("Pilgrim", crew=1, payloads=("cart", "mapping"), meals=meals, burns=burns, thrust=thrust,
                       extra_rations=1, cargo=self.victory.relic_mass, return_burns=burns - out_burns)
        return self.shakedown_job(goal), goal

    # ------------------------------------------------------------------ in flight
    def _walkers(self, state: GameState, craft) -> list:
        pilot = self.engine.flight_rules.piloting
        return [state.derp(d) for d in craft.crew if not state.derp(d).dead and not state.derp(d).injured
                and self.victory.body not in state.derp(d).walked_on and pilot(state, state.derp(d)) >= 1]

    def _has(self, state: GameState, craft, kind: str) -> bool:
        return any(i.location == craft.id and not i.disabled and state.thing(i.thing_id).kind == kind
                   for i in state.items)

    def _drivers(self, state: GameState, craft) -> list:
        return [state.derp(d) for d in craft.crew if not state.derp(d).dead and not state.derp(d).injured
                and state.derp(d).current_stamina >= state.derp(d).stamina]

    def goal_left(self, state: GameState, craft) -> bool:
        """Whether this flight can still do what the goal asks on the surface."""
        body = self.victory.body
        if self.victory.kind == "walk_and_return":
            walked = any(body in state.derp(d).walked_on for d in craft.crew if not state.derp(d).dead)
            return not walked and bool(self._walkers(state, craft)) and self._has(state, craft, "eva_pack")
        if craft.relic_mass:
            return False
        if body in craft.bodies_landed and not craft.temple_found:
            return False  # the landing's search found nothing: home
        return bool(self._drivers(state, craft)) and self._has(state, craft, "cart")

    def destination(self, state: GameState, craft) -> Optional[Callable[[Step], bool]]:
        if self.job_of(state, craft) is not self.goal or not self.goal_left(state, craft):
            return None
        return self.on_surface

    def goal_activity(self, state: GameState, craft, mode: str) -> Optional[object]:
        if not self.on_surface(self.board.step(craft.location)):
            return None
        if self.victory.kind == "walk_and_return":
            for derp in self._walkers(state, craft):
                action = WalkOutside(derp.id)
                if self.ok(state, action):
                    return action
            return None
        if craft.temple_found and not craft.relic_mass:
            for derp in self._drivers(state, craft):
                action = VisitTemple(derp.id)
                if self.ok(state, action):
                    return action
        return None

    def stamina_reserve(self, state: GameState, craft, derp) -> int:
        if self.job_of(state, craft) is not self.goal or not self.goal_left(state, craft):
            return 0
        if self.victory.kind == "walk_and_return":
            return 1  # the walk costs a stamina point
        return derp.stamina  # the Temple trip needs a derp at full stamina

    def spare_luck(self, state: GameState, roll) -> int:
        """Final Destination keeps two luck points for the Temple search (a reroll of the landing's roll)."""
        luck = state.programs[self.program_index].luck
        if self.victory.kind != "find_temple" or roll.kind == "temple_search":
            return luck
        return max(0, luck - self.TEMPLE_LUCK)
