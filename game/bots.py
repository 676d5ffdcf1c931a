"""Bots that play through the engine's legal actions only, each from its own seeded stream.

``RandomBot`` (in game.sim) picks uniformly and is the invariant tester's workhorse. ``SpaceProgramBot``
plays like a cautious newcomer: it invents a small lower stage, capsule and thruster, researches them,
builds a crewed craft, flies it to orbit and brings it home, and now and then tries something at random
so that the rest of the rules get exercised too.
"""
from __future__ import annotations

from typing import Optional

from game.dice_rng import Chooser
from game.rules.actions import (Action, AnswerTrade, Assemble, Build, BuyConsumables, EndRnD, Hire, Invent,
                                Research)
from game.rules.engine import Engine
from game.rules.flight_actions import (AcceptRoll, Burn, ChooseConsequence, Coast, EndActivities, Hold,
                                       KeepRoll, Launch, Move, UseLuck, UseSkill)
from game.rules.reliability import Outcome, Rating
from game.rules.state import HOME, GameState, UpgoerDesign

# The craft it works towards: a capsule carrying one derp and a turn of rations, a small thruster for
# the deorbit burn, two fuel, and a launch stage made of two insertion stages.
PLAN = {"lower_stage": 8, "capsule": 3, "thruster": 1}
FUEL, RATIONS = 2, 2
GOOD_ENOUGH = Rating(15, 18)  # what it wants before trusting a crew to a part (tests lift the caps)


class SpaceProgramBot:
    def __init__(self, seed: int, explore: float = 0.08):
        self.chooser = Chooser(seed)
        self.explore = explore

    # ------------------------------------------------------------------ the entry point
    def choose(self, engine: Engine, state: GameState) -> Action:
        player = engine.current_player(state)
        if state.pending_trade is not None:
            return AnswerTrade(self.chooser.choice([True, False, False]))
        if state.phase == "flight":
            action = self._flight(engine, state)
        else:
            action = self._rnd(engine, state, player)
        if action is None or engine.refusal(state, action) is not None or self._roll(self.explore):
            legal = engine.legal_actions(state)
            safe = [a for a in legal if type(a).__name__ not in ("WriteOff", "Shed", "Disassemble")]
            return self.chooser.choice(safe or legal)
        return action

    def _roll(self, p: float) -> bool:
        return self.chooser.choice(range(1000)) < p * 1000

    # ------------------------------------------------------------------ R&D
    def _rnd(self, engine: Engine, state: GameState, player: int) -> Optional[Action]:
        things = {t.kind: t for t in state.things_of(player) if t.kind in PLAN and t.base_mass == PLAN[t.kind]}
        for kind, mass in PLAN.items():
            if kind not in things:
                return self._first_ok(engine, state, [Invent(kind, mass)])
        for kind in PLAN:
            thing = things[kind]
            cap = engine.research_cap(state, thing)
            target = Rating(min(cap.fail, GOOD_ENOUGH.fail), min(cap.boom, GOOD_ENOUGH.boom))
            if thing.rating.boom < target.boom:
                action = self._first_ok(engine, state, [Research(thing.id, "boom", 1)])
                if action:
                    return action
            if thing.rating.fail < target.fail:
                action = self._first_ok(engine, state, [Research(thing.id, "fail", 1)])
                if action:
                    return action
        stored = {}
        for item in state.items_of(player):
            kind = state.thing(item.thing_id).kind
            stored.setdefault(kind, []).append(item.id)
        for kind, needed in (("lower_stage", 3), ("capsule", 1), ("thruster", 1)):
            if len(stored.get(kind, [])) < needed:
                return self._first_ok(engine, state, [Build(things[kind].id, 1)])
        # Parts that have never worked in flight cannot be researched far: test them without a crew first.
        untested = [k for k in ("lower_stage", "capsule") if not things[k].flown_successfully]
        on_pad = any(u.status == "pad" for u in state.upgoers_of(player))
        if untested and not on_pad:
            test = UpgoerDesign(f"Test {len(state.upgoers_of(player)) + 1}", stages=((stored["lower_stage"][0],),),
                                modules=(stored["capsule"][0],))
            return self._first_ok(engine, state, [Assemble(test)]) or EndRnD()
        if untested:
            return EndRnD()
        crew = [d for d in state.derps_of(player) if d.can_fly and d.location is HOME]
        if not crew:
            return self._first_ok(engine, state, [Hire()])
        program = state.programs[player]
        if program.fuel_stock < FUEL:
            return self._first_ok(engine, state, [BuyConsumables("fuel", FUEL - program.fuel_stock)])
        if program.rations_stock < RATIONS:
            return self._first_ok(engine, state, [BuyConsumables("rations", 1)])
        ready = all(things[k].rating.fail >= min(GOOD_ENOUGH.fail, engine.research_cap(state, things[k]).fail)
                    for k in PLAN)
        if ready and not on_pad:
            stages = stored["lower_stage"]
            name = f"{engine.default_name(state, player, 'capsule').split()[0]} {len(state.upgoers_of(player)) + 1}"
            design = UpgoerDesign(name, stages=((stages[0], stages[1]), (stages[2],)),
                                  modules=(stored["capsule"][0], stored["thruster"][0]), crew=(crew[0].id,),
                                  fuel=FUEL, rations=RATIONS)
            return self._first_ok(engine, state, [Assemble(design)])
        return EndRnD()

    @staticmethod
    def _first_ok(engine: Engine, state: GameState, actions: list[Action]) -> Optional[Action]:
        for action in actions:
            if engine.refusal(state, action) is None:
                return action
        return None

    # ------------------------------------------------------------------ flights
    def _flight(self, engine: Engine, state: GameState) -> Optional[Action]:
        f = state.flight
        if f.timing_tie:
            return None
        if f.roll is not None:
            roll = f.roll
            if roll.previous is not None:
                return KeepRoll(new=roll.value <= roll.previous)
            outcome = roll.outcome()
            skill = "engineering" if outcome is Outcome.BOOM or roll.fail_pinned() else "piloting"
            for derp in engine.flight_rules._helpers(state, roll):
                action = UseSkill(derp.id, skill)
                if engine.refusal(state, action) is None:
                    return action
            if outcome is Outcome.BOOM and engine.refusal(state, UseLuck()) is None:
                return UseLuck()
            return AcceptRoll()
        if f.choice is not None:
            return ChooseConsequence(f.choice.options[0])
        upgoer = state.upgoer(f.active)
        if f.mode == "decide":
            return Launch(upgoer.id) if engine.refusal(state, Launch(upgoer.id)) is None else Hold(upgoer.id)
        if f.mode == "junction":
            board = engine.rules.board
            for burn in board.burns_from(upgoer.location, None):
                if board.step(burn.to).kind == "reentry":
                    for action in (Burn(burn.to), Burn(burn.to, rcs=True)):
                        if engine.refusal(state, action) is None:
                            return action
            return Coast()
        if f.mode == "before":
            return Move(upgoer.id)
        if f.mode == "after":
            return EndActivities(upgoer.id)
        return None
