"""A careful player's plan for Stop The Rock, shared by tests/golden/make_rock_win.py and SpaceProgramBot.

The plan reads everything from the state (nothing is remembered between calls), so a bot can ask it
about any state and a script can replay it. It proposes actions; the caller checks them with
``engine.refusal`` (``RockPlan.choose`` already does) and only a legal action is ever played.

What the careful player does, with the app's help (the odds of every roll, the fuel preview):

* Turn 1: invent a capsule (mass 6: one derp and 8 derp-turns of rations), a thruster (mass 1) and one
  lower stage (mass 28: a pair lifts the rock craft and the insertion stage); hire three derps and train
  them (Engineering, Piloting, Stamina: one skill a turn).
* Research the capsule, the thruster and the stage to the never-flown cap (10/15) and fly a crewed orbital
  shakedown (a launch pair, an insertion stage, the capsule and the thruster, three trained derps): low
  orbit, then the deorbit burn and home. It flies every part of the rock craft, so research may pass the
  never-flown caps (a part keeps the rating it launched with), wins the first-step dots and a luck point
  per derp who comes home.
* Then research the capsule and the thruster to 19/20 (the stage stays at 10/15: every step costs 28),
  build the rock craft (16 fuel: three burns and four nudges) and fly it with a trained derp: low orbit,
  high transfer, synchronous orbit, the Rock intercept burn, the rock. A craft whose launch failed is
  taken apart and stacked again; one lost before the rock is replaced.
* In flight every bad roll is met with the crew's skills (Engineering on a Boom, Piloting on a Fail, only
  when that saves the roll) or a luck point; on the rock it nudges with every drop of fuel until the world
  is saved, then heads home. Injured derps are healed and the dead replaced.
"""
from __future__ import annotations

from typing import Iterator, Optional

from game.games.whatgoesup.careful_play import SKILLS, CarefulPlayer, burns_along
from game.games.whatgoesup.rules.actions import (Action, Assemble, BuyConsumables, Disassemble, EndRnD, Heal, Hire,
                                                 Invent)
from game.games.whatgoesup.rules.flight_actions import (ChooseConsequence, Coast, EndActivities, Hold, Launch, Move,
                                                        Nudge)
from game.games.whatgoesup.rules.reliability import Rating
from game.games.whatgoesup.rules.state import HOME, GameState, UpgoerDesign

# ---------------------------------------------------------------------- the plan's numbers
STAGE, POD, PUFF = "Boulder Booster", "Pebble Pod", "Nudger"
STAGE_MASS, POD_MASS, PUFF_MASS = 28, 6, 1
HOP, RUN = "Shakedown", "Boulder Run"
CREW = 1            # derps on the rock craft
FUEL, RATIONS = 16, 8       # three burns and four nudges; eight turns of food
HOP_CREW = 3        # derps on the shakedown flight: the capsule carries 5 (3 derps, 4 derp-turns of rations)
HOP_FUEL, HOP_RATIONS = 4, 4  # a deorbit burn and a retry; a night in orbit and a spare
FIRST_FLIGHT = Rating(10, 15)   # the never-flown cap: the capsule and thruster before the shakedown
TARGET = {STAGE: Rating(10, 15), POD: Rating(19, 20), PUFF: Rating(19, 20)}  # research caps still apply
GOING_OUT = ("high_transfer", "rock_transit", "rock_docking")   # the burns towards the rock


class RockPlan(CarefulPlayer):
    """The plan of one program (``program``) in a Stop The Rock game."""

    def __init__(self, engine, program: int):
        super().__init__(engine, program)
        self._hires: tuple = (None, ())  # (state.derps, the Heal and Hire actions ``_hire`` proposes)
        self._trained_home: tuple = (None, False)  # (state.derps, whether a trained derp at home can fly)

    # ------------------------------------------------------------------ the entry point
    def choose(self, state: GameState) -> Action:
        """This program's next action (R&D or flight); the caller rolls the dice."""
        return self.fly(state) if state.phase == "flight" else self.rnd(state)

    # ------------------------------------------------------------------ what the program has
    def run(self, state: GameState):
        """The rock craft on the pad or in flight, if any."""
        return next((u for u in self.crafts(state, RUN) if u.status in ("pad", "flying")), None)

    def run_name(self, state: GameState) -> str:
        runs = len(self.crafts(state, RUN))
        return RUN if runs == 0 else f"{RUN} {runs + 1}"

    # ------------------------------------------------------------------ R&D
    def rnd(self, state: GameState) -> Action:
        for action in self.wants(state):
            if action is not None and self.ok(state, action):
                return action
        return EndRnD()

    def wants(self, state: GameState) -> Iterator[Action]:
        """What the careful player buys next, most urgent first (the first allowed one is bought)."""
        named = self.blueprints(state).get
        pod, stage, puff = named(POD), named(STAGE), named(PUFF)
        if not (pod and puff and stage):
            yield from self._invent(pod, puff, stage)
            return
        yield from self._hire(state)
        hops = self.crafts(state, HOP)
        if not hops or hops[0].status == "pad":
            # The shakedown flight: every part of the rock craft flies once (so research may pass the
            # never-flown cap), crewed by derps who can save a bad roll; they come home with luck.
            if hops and len(hops[0].stages) < 2:
                yield Disassemble(hops[0].id)  # a failed launch spent its launch stages: rebuild the stack
            yield from self.train(state)  # no flight before the crew can save a roll
            yield from self.research_towards(state, pod, FIRST_FLIGHT)
            yield from self.research_towards(state, puff, FIRST_FLIGHT)
            yield from self.research_towards(state, stage, FIRST_FLIGHT)
            if not hops:
                yield from self._stock(state, HOP_FUEL, HOP_RATIONS)
                crew = [d for d in self.derps_home(state) if d.can_fly and self.trained(d, SKILLS)][:HOP_CREW]
                ready = all(self._ready(state, t, FIRST_FLIGHT) for t in (pod, puff, stage))
                if crew and ready:
                    yield self._assemble(state, HOP, crew, HOP_FUEL, HOP_RATIONS)
            yield from self.train(state)
            return
        if hops[0].status == "flying" and not hops[0].stranded:
            # Wait for the shakedown to come home: until then the parts' research caps stay low.
            yield from self.research_towards(state, pod, TARGET[POD])
            yield from self.research_towards(state, stage, TARGET[STAGE])
            yield from self.train(state)
            return
        if state.rock.saved:
            return
        run = self.run(state)
        if run is not None and run.status == "pad" and len(run.stages) < 2:
            yield Disassemble(run.id)  # a failed launch spent its launch stages: rebuild the stack
            return
        if run is not None:
            # The craft is on its way: make its parts better while it flies (research lifts every copy).
            if run.status == "flying":
                yield from self.research_towards(state, puff, TARGET[PUFF])
                yield from self.research_towards(state, pod, TARGET[POD])
            yield from self.train(state)
            return
        if not self._trained_at_home(state):
            yield from self.train(state, SKILLS[:2])
        yield from self.research_towards(state, pod, TARGET[POD])
        yield from self.research_towards(state, puff, TARGET[PUFF])
        yield from self.research_towards(state, stage, TARGET[STAGE])
        yield from self._stock(state, FUEL, RATIONS)
        crew = sorted((d for d in self.derps_home(state) if d.can_fly and self.trained(d)),
                      key=lambda d: -d.total_points)[:CREW]
        if crew and all(self._ready(state, t) for t in (pod, puff, stage)):
            yield self._assemble(state, self.run_name(state), crew, FUEL, RATIONS)
        yield from self.train(state)

    def _trained_at_home(self, state: GameState) -> bool:
        """Whether a derp at home can fly and is trained enough (kept per tuple of derps: it reads nothing else)."""
        derps, answer = self._trained_home
        if derps is not state.derps:
            answer = any(self.trained(d) and d.can_fly for d in self.derps_home(state))
            self._trained_home = (state.derps, answer)
        return answer

    def _stock(self, state: GameState, fuel: int, rations: int) -> Iterator[Action]:
        """Build what a flight needs (three stages, the capsule, the thruster) and buy its fuel and rations (a build
        the engine does not allow now is None)."""
        for name, count in ((STAGE, 3), (POD, 1), (PUFF, 1)):
            if len(self.stored(state, name)) < count:
                yield self.build(state, self.thing(state, name))  # None (not allowed now) is passed over
        program = state.programs[self.program_index]
        if program.fuel_stock < fuel:
            yield BuyConsumables("fuel", fuel - program.fuel_stock)
        if program.rations_stock < rations:
            yield BuyConsumables("rations", (rations - program.rations_stock + 1) // 2)

    def _assemble(self, state: GameState, name: str, crew: list, fuel: int, rations: int) -> Optional[Action]:
        stages = self.stored(state, STAGE)
        if len(stages) < 3 or not self.stored(state, POD) or not self.stored(state, PUFF):
            return None
        return Assemble(UpgoerDesign(name, stages=(tuple(stages[:2]), (stages[2],)),
                                     modules=(self.stored(state, POD)[0], self.stored(state, PUFF)[0]),
                                     crew=tuple(d.id for d in crew), fuel=fuel, rations=rations))

    def _ready(self, state: GameState, thing, target: Optional[Rating] = None) -> bool:
        return self.reached(state, thing, target or TARGET[thing.name])

    @staticmethod
    def _invent(pod, puff, stage) -> Iterator[Action]:
        """An Invent for each of the three blueprints not yet held (None), in the order they are bought."""
        for kind, mass, name, held in (("capsule", POD_MASS, POD, pod), ("thruster", PUFF_MASS, PUFF, puff),
                                       ("lower_stage", STAGE_MASS, STAGE, stage)):
            if held is None:
                yield Invent(kind, mass, name)

    def _hire(self, state: GameState) -> tuple[Action, ...]:
        """A Heal for each injured derp at home (back at 2 stamina, skills kept), then a Hire while the program
        has fewer living derps than the shakedown's crew. Kept per tuple of derps (it reads nothing else)."""
        derps, actions = self._hires
        if derps is not state.derps:
            alive = self.derps(state)
            actions = tuple(Heal(d.id) for d in alive if d.injured and d.location is HOME)
            actions += (Hire(),) if len(alive) < HOP_CREW else ()
            self._hires = (state.derps, actions)
        return actions

    # ------------------------------------------------------------------ flights
    def fly(self, state: GameState) -> Action:
        f = state.flight
        if f.roll is not None:
            return self.answer_roll(state, f.roll)
        if f.choice is not None:
            return ChooseConsequence(self.consequence(state, f.choice))
        upgoer = state.upgoer(f.active)
        if f.mode == "decide":  # a craft with no lower stage left cannot launch: not asked
            launch = Launch(upgoer.id)  # the very action ``ok`` allowed is played (``approved``: not asked again)
            return launch if upgoer.stages and self.ok(state, launch) else Hold(upgoer.id)
        if f.mode == "junction":
            return self.junction(state, upgoer)
        if f.mode in ("before", "after"):
            rocks = self.engine.rock_rules
            # Only a craft landed on the rock may nudge it: no other is asked.
            if not state.rock.saved and rocks.on_rock(upgoer, rocks.scenario(state)):
                nudge = Nudge(upgoer.id)  # the very action ``ok`` allows is played (``approved``: not asked again)
                if self.ok(state, nudge):
                    return nudge
            return Move(upgoer.id) if f.mode == "before" else EndActivities(upgoer.id)
        return Coast()

    def junction(self, state: GameState, upgoer) -> Action:
        board = self.engine.rules.board
        here = board.step(upgoer.location)
        going_out = (not state.rock.saved and "rock" not in upgoer.bodies_landed and bool(upgoer.crew)
                     and upgoer in self.crafts(state, RUN))
        wanted = []
        for b in board.burns_from(here.id, state.setup.scenario):
            to = board.step(b.to)
            if going_out and b.to in GOING_OUT:
                wanted.append(b)
            elif not going_out and (to.kind == "reentry" or b.to in ("pushoff_transit", "descent")):
                wanted.append(b)
        for b in wanted:
            for action in burns_along(board, b):
                if self.ok(state, action):
                    return action
        return Coast()
