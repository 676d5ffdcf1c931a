"""A careful player's plan for a race with a victory condition: the skeleton every goal plan shares.

A goal plan flies two kinds of craft (``Job``): a crewed **shakedown** that takes the goal craft's capsule
and thruster to orbit and home (so research may pass the never-flown caps, the crew come home with luck
and the program earns the first steps' dots), then the **goal** crafts. Every part is sized from the rules
and the board (``size_mission``): the capsule carries the crew, the payloads and their meals, the thruster
pushes it (half its mass to land on the Moon), the fuel pays for the burns of the route, and one lower
stage design lifts the heaviest craft (a launch pair and an insertion stage, each stage as heavy as it).

R&D, most urgent first (the first allowed purchase is made, as in ``RockPlan``): invent the parts, heal
and hire, research to the never-flown cap (10/15), stock and fly the shakedown with trained derps; then
research the capsule, thruster and payloads to 19/20, stock and fly the goal crafts, and again after a
failed attempt; points left over improve the lower stage. In flight each goal craft heads for
``destination`` on the cheapest route (``routes.plan_route``) while its fuel and rations still cover the
way there and home, does the goal's activities there, and otherwise comes home. Subclasses
(``moon_plan``, ``orbit_plans``) say what the jobs are, where to go and what to do there.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Callable, Iterator, Optional

from game.games.whatgoesup.careful_play import SKILLS, CarefulPlayer
from game.games.whatgoesup.routes import Route, can_make, is_home, plan_route
from game.games.whatgoesup.rules import formulas
from game.games.whatgoesup.rules.actions import (Action, Assemble, Build, BuyConsumables, Disassemble, EndRnD, Heal,
                                                 Hire, Invent)
from game.games.whatgoesup.rules.board import THRUST_ORDER, Step
from game.games.whatgoesup.rules.flight_actions import (Burn, ChooseConsequence, Coast, EndActivities, Hold, JuryRig,
                                                        Launch, Move)
from game.games.whatgoesup.rules.reliability import Rating
from game.games.whatgoesup.rules.state import HOME, GameState, UpgoerDesign

FIRST_FLIGHT = Rating(10, 15)  # the never-flown cap: every part before the shakedown
BEST = Rating(19, 20)          # the capsule, thruster and payloads before the goal (research caps still apply)
STAGE_TARGET = Rating(10, 15)  # the lower stage: each step costs its whole mass, so leftovers only
SPARE_STAGE = Rating(15, 18)   # what leftover points may lift a stage to once it has flown
STAGES_PER_CRAFT = (2, 1)      # a launch pair and an insertion stage


@dataclass(frozen=True)
class Job:
    """One kind of flight: who flies, what rides along, and what the route costs (from the board)."""

    name: str                       # the crafts' name; the next one is "name 2", ...
    crew: int
    payloads: tuple[str, ...] = ()  # payload kinds aboard, one per item
    meals: int = 1                  # turns ending in space: each derp eats a derp-turn of rations
    burns: int = 1
    return_burns: int = 0           # the last burns, made with ``cargo`` aboard (the monolith)
    cargo: int = 0
    thrust: str = "orbital"
    extra_rations: int = 0          # derp-turns eaten by activities (the Temple trip)
    spare_fuel: int = 0


@dataclass(frozen=True)
class Sizes:
    """The mission's parts (masses) and each job's fuel and rations."""

    stage: int
    capsule: int
    thruster: int
    fuel: tuple[tuple[str, int], ...]
    rations: tuple[tuple[str, int], ...]

    def fuel_for(self, job: Job) -> int:
        return dict(self.fuel)[job.name]

    def rations_for(self, job: Job) -> int:
        return dict(self.rations)[job.name]


def fuel_for_burns(dry_masses: list, fuel_table) -> int:
    """Least fuel for burns made at these dry masses in order (``formulas.fuel_for_burn`` for each)."""
    aboard = 0
    for dry in reversed(dry_masses):
        extra = 0
        while formulas.fuel_for_burn(Fraction(dry) + aboard + extra, fuel_table) > extra:
            extra += 1
        aboard += extra
    return aboard


def size_mission(rules, jobs: tuple[Job, ...]) -> Sizes:
    """One capsule, thruster and stage design for every job; each job's fuel and rations."""
    comps = rules.components
    derp_mass = rules.economy.derps.mass
    rations = {j.name: formulas.ration_load(j.crew * j.meals + j.extra_rations, comps) for j in jobs}
    loads = [formulas.cabin_load(j.crew, len(j.payloads), rations[j.name], derp_mass, comps) for j in jobs]
    capsule = max(formulas.capsule_mass_for_capacity(math.ceil(load), comps) for load in loads)
    ratios = {"orbital": comps.thruster.min_ratio, "lunar": comps.thruster.lunar_landing_ratio,
              "planetary": comps.thruster.planetary_landing_ratio}
    thruster = max(max(1, formulas.required_thruster_mass(capsule, ratios[j.thrust])) for j in jobs)
    fuel, heaviest = {}, Fraction(0)
    for j in jobs:
        dry = formulas.spacecraft_mass(capsule + thruster + len(j.payloads), j.crew, rations[j.name], 0, derp_mass, comps)
        masses = [dry] * (j.burns - j.return_burns) + [dry + j.cargo] * j.return_burns
        fuel[j.name] = fuel_for_burns(masses, rules.economy.fuel) + j.spare_fuel
        heaviest = max(heaviest, dry + fuel[j.name])
    return Sizes(stage=math.ceil(heaviest), capsule=capsule, thruster=thruster,
                 fuel=tuple(sorted(fuel.items())), rations=tuple(sorted(rations.items())))


def route_cost(board, scenario, start: str, goal: Callable[[Step], bool], thrust: str,
               returns: bool = True) -> tuple[int, int]:
    """(burns, meals) of a flight from ``start`` (the step a launch reaches) to ``goal`` and, if it returns, home."""
    out = plan_route(board, scenario, start, goal, can_make(thrust))
    if out is None:
        raise ValueError("no route to the goal on this board")
    burns, meals = out.burns, 1 + out.turns  # the launch turn ends in orbit
    if returns:
        back = plan_route(board, scenario, out.steps[-1] if out.steps else start, is_home, can_make(thrust))
        burns, meals = burns + back.burns, meals + back.turns
    return burns, meals


class GoalPlan(CarefulPlayer):
    """The plan of one program (``program``) for a victory condition; subclasses fill in the goal."""

    title = "Goal"        # parts are called "<title> Booster", "<title> Pod", "<title> Engine", "<title> <payload>"
    skills = SKILLS       # what a crew member is trained to
    returns = True        # the goal crafts come home (their burns and meals include the way back)
    stage_first = FIRST_FLIGHT  # the lower stage before the shakedown
    stage_goal = STAGE_TARGET   # ...and before the goal crafts

    def __init__(self, engine, program: int):
        super().__init__(engine, program)
        self.rules = engine.rules
        self.board = engine.rules.board
        self.shakedown, self.goal = self.jobs()
        self.sizes = size_mission(self.rules, (self.shakedown, self.goal))
        self.stage_name, self.pod_name, self.engine_name = (f"{self.title} Booster", f"{self.title} Pod",
                                                            f"{self.title} Engine")

    # ------------------------------------------------------------------ what subclasses say
    def jobs(self) -> tuple[Job, Job]:
        """The shakedown and the goal flight."""
        raise NotImplementedError

    def destination(self, state: GameState, craft) -> Optional[Callable[[Step], bool]]:
        """Where a goal craft is heading (a test on steps), or None to come home."""
        return None

    def goal_activity(self, state: GameState, craft, mode: str) -> Optional[Action]:
        """What a craft does before or after moving for the goal (None: nothing)."""
        return None

    def goal_crafts_wanted(self, state: GameState) -> int:
        """How many goal crafts should be flying or on the pad now."""
        return 1

    def stamina_reserve(self, state: GameState, craft, derp) -> int:
        """Stamina a derp keeps for the goal's activities instead of spending it on rolls."""
        return 0

    def more_wants(self, state: GameState) -> Iterator[Action]:
        """Purchases of the goal phase before the goal crafts (another shakedown-like craft, say)."""
        return iter(())

    def fly_job_again(self, state: GameState, job: Job) -> Iterator[Action]:
        """Stock and assemble one more craft of ``job`` when its parts are ready and a crew is at home."""
        yield from self._stock(state, job, 1)
        crew = self._crew(state, job)
        if crew:
            yield self._assemble(state, job, crew)

    # ------------------------------------------------------------------ helpers for jobs()
    def orbit_reached(self) -> str:
        """The step a launch and a good orbital insertion bring a craft to (its first night in space)."""
        launch = self.board.step(self.board.home.next)
        return self.board.step(launch.next).next

    def thrust_needed(self, goal: Callable[[Step], bool]) -> str:
        """The least thrust class (orbital, lunar, planetary) that can reach the goal and come home."""
        for thrust in THRUST_ORDER:
            out = plan_route(self.board, None, self.orbit_reached(), goal, can_make(thrust))
            if out is not None:
                return thrust
        raise ValueError("no thruster can reach the goal on this board")

    def shakedown_job(self, goal: Job, most: int = 3, payloads: tuple[str, ...] = (), meals: int = 1,
                      burns: int = 2) -> Job:
        """The shakedown flight (by default a night in low orbit, the deorbit burn and a retry) with as many
        derps, up to ``most``, as the goal's capsule carries: each one saves rolls and comes home with luck."""
        comps, derp_mass = self.rules.components, self.rules.economy.derps.mass
        load = formulas.cabin_load(goal.crew, len(goal.payloads),
                                   formulas.ration_load(goal.crew * goal.meals + goal.extra_rations, comps),
                                   derp_mass, comps)
        capacity = formulas.capsule_capacity(formulas.capsule_mass_for_capacity(math.ceil(load), comps), comps)
        crew = max(n for n in range(1, most + 1)
                   if n == 1 or formulas.cabin_load(n, len(payloads), formulas.ration_load(n * meals, comps),
                                                    derp_mass, comps) <= capacity)
        return Job("Shakedown", crew=crew, payloads=payloads, meals=meals, burns=burns)

    # ------------------------------------------------------------------ the entry point
    def choose(self, state: GameState) -> Action:
        """This program's next action (R&D or flight); the caller rolls the dice."""
        return self.fly(state) if state.phase == "flight" else self.rnd(state)

    # ------------------------------------------------------------------ names and stock
    def payload_name(self, kind: str) -> str:
        return f"{self.title} {self.rules.components.kind(kind).name}"

    def part_names(self) -> list[str]:
        kinds = sorted(set(self.shakedown.payloads) | set(self.goal.payloads))
        return [self.pod_name, self.engine_name, self.stage_name] + [self.payload_name(k) for k in kinds]

    def next_name(self, state: GameState, job: Job) -> str:
        used = len(self.crafts(state, job.name))
        return job.name if used == 0 else f"{job.name} {used + 1}"

    def active(self, state: GameState, job: Job) -> list:
        return [u for u in self.crafts(state, job.name) if u.status in ("pad", "flying") and not u.stranded]

    def job_of(self, state: GameState, craft) -> Optional[Job]:
        if craft.owner != self.program_index:
            return None
        for job in (self.goal, self.shakedown):
            if craft in self.crafts(state, job.name):
                return job
        return None

    # ------------------------------------------------------------------ R&D
    def rnd(self, state: GameState) -> Action:
        for action in self.wants(state):
            if action is not None and self.ok(state, action):
                return action
        return EndRnD()

    def wants(self, state: GameState) -> Iterator[Action]:
        """What the careful player buys next, most urgent first (the first allowed one is bought)."""
        yield from self._sounding_rocket(state)
        yield from self._invent(state)
        if not all(self.thing(state, n) for n in self.part_names()):
            return
        yield from self._hire(state)
        pod, engine_part, stage = (self.thing(state, n) for n in (self.pod_name, self.engine_name, self.stage_name))
        payloads = [self.thing(state, self.payload_name(k)) for k in sorted(set(self.goal.payloads)
                                                                            | set(self.shakedown.payloads))]
        for craft in self.active(state, self.shakedown) + self.active(state, self.goal):
            if craft.status == "pad" and len(craft.stages) < 2:
                yield Disassemble(craft.id)  # a failed launch spent its launch stages: stack it again
        for p in payloads:
            yield from self.research_towards(state, p, BEST)  # payloads have no caps: cheap and early
        if self.needs_shakedown(state):
            yield from self.train(state)  # no flight before the crew can save a roll
            for part, target in ((pod, FIRST_FLIGHT), (engine_part, FIRST_FLIGHT), (stage, self.stage_first)):
                yield from self.research_towards(state, part, target)
            if not self.active(state, self.shakedown):
                yield from self._stock(state, self.shakedown, 1)
                ready = all(self.reached(state, t, FIRST_FLIGHT) for t in (pod, engine_part)) \
                    and self.reached(state, stage, self.stage_first)
                crew = self._crew(state, self.shakedown)
                if ready and crew:
                    yield self._assemble(state, self.shakedown, crew)
            yield from self.train(state)
            return
        if any(u.status == "flying" for u in self.active(state, self.shakedown)) \
                and not (pod.flown_successfully and engine_part.flown_successfully):
            # Until the capsule and thruster have worked in flight their caps may still rise: research
            # as far as they allow (once they have, the goal crafts need not wait for the crew to land).
            yield from self.research_towards(state, pod, BEST)
            yield from self.research_towards(state, engine_part, BEST)
            yield from self.train(state)
            yield from self.research_towards(state, stage, self.stage_goal)
            return
        yield from self.research_towards(state, pod, BEST)
        yield from self.research_towards(state, engine_part, BEST)
        yield from self.research_towards(state, stage, self.stage_goal)
        yield from self.more_wants(state)
        missing = self.goal_crafts_wanted(state) - len(self.active(state, self.goal))
        if missing > 0:
            yield from self._stock(state, self.goal, 1)
            ready = all(self.reached(state, t, BEST) for t in [pod, engine_part] + payloads) \
                and self.reached(state, stage, self.stage_goal)
            crew = self._crew(state, self.goal)
            if ready and crew:
                yield self._assemble(state, self.goal, crew)
            yield from self.train(state)
            if len(self.active(state, self.goal)) == 0:
                return  # save up for the goal craft
        yield from self.train(state)
        yield from self.research_towards(state, stage, SPARE_STAGE)

    def _sounding_rocket(self, state: GameState) -> Iterator[Action]:
        """A bare mass-1 stage launched until the program has been to the steps a suborbital hop reaches:
        each new step is a dot a turn for the rest of the game (and a prestige first), for a few points."""
        launch = self.board.step(self.board.home.next)
        insertion = self.board.step(launch.next)
        steps = {launch.name, self.board.step(insertion.fallback).name}
        if steps <= state.programs[self.program_index].visited:
            return
        name = f"{self.title} Sounding Rocket"
        rocket = self.thing(state, name)
        if rocket is None:
            yield Invent("lower_stage", 1, name)
            return
        if any(u.status == "pad" for u in self.crafts(state, name)):
            return
        yield from self.research_towards(state, rocket, FIRST_FLIGHT)
        if not self.reached(state, rocket, FIRST_FLIGHT):
            return
        if not self.stored(state, name):
            yield Build(rocket.id, 1)
        else:
            yield Assemble(UpgoerDesign(self.next_name(state, Job(name, crew=0)), stages=((self.stored(state, name)[0],),)))

    def train(self, state: GameState, skills=None) -> Iterator[Action]:
        return super().train(state, skills or self.skills)

    def needs_shakedown(self, state: GameState) -> bool:
        """No shakedown has left the pad yet and the capsule and thruster have not flown successfully."""
        flown = any(u.status != "pad" for u in self.crafts(state, self.shakedown.name))
        pod, engine_part = self.thing(state, self.pod_name), self.thing(state, self.engine_name)
        return not flown and not (pod.flown_successfully and engine_part.flown_successfully)

    def _invent(self, state: GameState) -> Iterator[Action]:
        sizes = self.sizes
        wanted = [("capsule", sizes.capsule, self.pod_name), ("thruster", sizes.thruster, self.engine_name)]
        wanted += [(k, self.rules.components.kind(k).fixed_mass or 1, self.payload_name(k))
                   for k in sorted(set(self.goal.payloads) | set(self.shakedown.payloads))]
        wanted.append(("lower_stage", sizes.stage, self.stage_name))
        for kind, mass, name in wanted:
            if self.thing(state, name) is None:
                yield Invent(kind, mass, name)

    def _hire(self, state: GameState) -> Iterator[Action]:
        alive = self.derps(state)
        for d in alive:
            if d.injured and d.location is HOME:
                yield Heal(d.id)
        if self.needs_shakedown(state):
            wanted = self.shakedown.crew
        else:
            wanted = self.goal.crew * max(1, self.goal_crafts_wanted(state) - len(self.active(state, self.goal)))
        if sum(1 for d in alive if d.location is HOME) < wanted:
            yield Hire()

    def _crew(self, state: GameState, job: Job) -> list:
        ready = sorted((d for d in self.derps_home(state) if d.can_fly and self.trained(d, self.skills[:2])),
                       key=lambda d: -d.total_points)
        return ready[:job.crew]

    def _stock(self, state: GameState, job: Job, crafts: int) -> Iterator[Action]:
        """Build what ``crafts`` crafts of this job need and buy their fuel and rations."""
        needs = [(self.stage_name, sum(STAGES_PER_CRAFT)), (self.pod_name, 1), (self.engine_name, 1)]
        needs += [(self.payload_name(k), job.payloads.count(k)) for k in sorted(set(job.payloads))]
        for name, count in needs:
            if len(self.stored(state, name)) < count * crafts:
                yield Build(self.thing(state, name).id, 1)
        program = state.programs[self.program_index]
        fuel, rations = self.sizes.fuel_for(job) * crafts, self.sizes.rations_for(job) * crafts
        if program.fuel_stock < fuel:
            yield BuyConsumables("fuel", fuel - program.fuel_stock)
        if program.rations_stock < rations:
            yield BuyConsumables("rations", (rations - program.rations_stock + 1) // 2)

    def _assemble(self, state: GameState, job: Job, crew: list) -> Optional[Action]:
        stages = self.stored(state, self.stage_name)
        launch, insertion = STAGES_PER_CRAFT
        modules = [self.stored(state, self.pod_name)[:1], self.stored(state, self.engine_name)[:1]]
        for kind in sorted(set(job.payloads)):
            modules.append(self.stored(state, self.payload_name(kind))[:job.payloads.count(kind)])
        if len(stages) < launch + insertion or not all(modules):
            return None
        return Assemble(UpgoerDesign(self.next_name(state, job),
                                     stages=(tuple(stages[:launch]), tuple(stages[launch:launch + insertion])),
                                     modules=tuple(i for group in modules for i in group),
                                     crew=tuple(d.id for d in crew), fuel=self.sizes.fuel_for(job),
                                     rations=self.sizes.rations_for(job)))

    # ------------------------------------------------------------------ flights
    def fly(self, state: GameState) -> Action:
        f = state.flight
        if f.roll is not None:
            return self.answer_roll(state, f.roll)
        if f.choice is not None:
            return ChooseConsequence(self.consequence(state, f.choice))
        craft = state.upgoer(f.active)
        if f.mode == "decide":
            launch = Launch(craft.id)  # the very action ``ok`` allowed is played (``approved``: not asked again)
            return launch if self.ok(state, launch) else Hold(craft.id)
        if f.mode == "junction":
            return self.junction(state, craft)
        if f.mode in ("before", "after"):
            action = self.repair(state, craft) or (self.goal_activity(state, craft, f.mode)
                                                   if self.job_of(state, craft) is not None else None)
            if action is not None and self.ok(state, action):
                return action
            return Move(craft.id) if f.mode == "before" else EndActivities(craft.id)
        return Coast()

    def spare_stamina(self, state: GameState, roll) -> dict[str, int]:
        """Stamina above what the rest of the mission needs (docking, payloads) goes to saving rolls."""
        craft = state.find("upgoer", roll.upgoer)
        spare = super().spare_stamina(state, roll)
        if craft is None:
            return spare
        return {d: points - self.stamina_reserve(state, craft, state.derp(d)) for d, points in spare.items()}

    def consequence(self, state: GameState, choice) -> str:
        """A capsule's Fail: rations the flight can spare go first, then wear on the parts for this flight."""
        craft = state.upgoer(choice.upgoer)
        crew = len(craft.crew)
        if "lose_rations" in choice.options and craft.rations - crew >= crew * self.meals_needed(state, craft):
            return "lose_rations"
        if "degrade_all_parts" in choice.options:
            return "degrade_all_parts"
        return super().consequence(state, choice)

    def meals_needed(self, state: GameState, craft) -> int:
        """Nights the crew still spends in space on the plan: to the destination (a night there) and home."""
        goal = self.destination(state, craft) if self.job_of(state, craft) is not None else None
        if goal is not None:
            out = self.route(state, craft, craft.location, goal)
            if out is not None:
                meals = max(out.turns, 1)
                if self.returns or self.job_of(state, craft) is self.shakedown:
                    back = self.route(state, craft, out.steps[-1] if out.steps else craft.location, is_home)
                    meals += back.turns if back is not None else 0
                return meals
        return self.meals_home(state, craft)

    def repair(self, state: GameState, craft) -> Optional[Action]:
        """A disabled capsule or thruster is jury-rigged by the crew's best engineer (Lucky 13 when stranded)."""
        if craft.owner != self.program_index:
            return None
        broken = [i for i in state.items if i.location == craft.id and i.disabled
                  and state.thing(i.thing_id).kind in ("capsule", "thruster")]
        crew = sorted((state.derp(d) for d in craft.crew), key=lambda d: -d.engineering)
        for item in broken:
            for derp in crew:
                action = JuryRig(derp.id, item.id)
                if self.ok(state, action):
                    return action
        return None

    # ------------------------------------------------------------------ routes
    def thrust(self, state: GameState, craft) -> str:
        return self.engine.flight_rules.thrust(state, craft)

    def route(self, state: GameState, craft, start: str, goal: Callable[[Step], bool]) -> Optional[Route]:
        return plan_route(self.board, state.setup.scenario, start, goal, can_make(self.thrust(state, craft)))

    def meals_home(self, state: GameState, craft) -> int:
        home = self.route(state, craft, craft.location, is_home)
        return home.turns if home is not None else 0

    def affordable(self, state: GameState, craft, out: Route, returns: bool) -> bool:
        """Whether fuel and rations aboard cover the way to the goal and, if it returns, a night there and
        the way home (a craft that stays out may go hungry on the night it arrives)."""
        burns, meals = out.burns, max(out.turns, 1) if returns else max(out.turns - 1, 0)
        if returns:
            back = self.route(state, craft, out.steps[-1] if out.steps else craft.location, is_home)
            if back is None:
                return False
            burns, meals = burns + back.burns, meals + back.turns
        dry = self.engine.flight_rules.spacecraft_mass(state, craft) - craft.fuel
        crew = len([d for d in craft.crew if not state.derp(d).dead])
        return craft.fuel >= fuel_for_burns([dry] * burns, self.rules.economy.fuel) and craft.rations >= crew * meals

    def junction(self, state: GameState, craft) -> Action:
        goal = self.destination(state, craft) if self.job_of(state, craft) is not None else None
        if goal is not None:
            out = self.route(state, craft, craft.location, goal)
            if out is not None and self.affordable(state, craft, out, self.returns or self.job_of(state, craft)
                                                   is self.shakedown):
                action = self._first_step(state, out)
                if action is not None:
                    return action
        home = self.route(state, craft, craft.location, is_home)
        if home is not None:
            action = self._first_step(state, home)
            if action is not None:
                return action
        return Coast()

    def _first_step(self, state: GameState, route: Route) -> Optional[Action]:
        if isinstance(route.first, Burn):
            for action in (route.first, Burn(route.first.to, rcs=True)):
                if self.ok(state, action):
                    return action
            return None
        return Coast()
