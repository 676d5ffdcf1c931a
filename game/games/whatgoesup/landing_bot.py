"""Random play that seeks landings: ``simulate --bot landing``.

Uniform random play (``sim.RandomBot``) almost never lands a craft: a new lower stage starts at 1/5, so
nearly every launch fails, and a random flight seldom burns for home. ``LandingBot`` still picks at
random among the legal actions, from its own seeded stream, but with weights that favour landing:
inventing, researching and building lower stages and capsules, stacking a capsule on a stage that
can lift it (an uncrewed hop that reenters and lands), launching, burning for reentry, and meeting a
bad roll with skills or luck. Trades, write-offs, sheds and take-aparts are left out unless nothing
else is legal. Every action it plays is one the engine accepts (the stacked design is checked with
``engine.refusal`` before it is offered).
"""
from __future__ import annotations

from game.core.dice_rng import Chooser
from game.games.whatgoesup.rules.actions import (Action, Assemble, Build, EndRnD, Invent, OfferTrade, Research,
                                                 ReverseEngineer)
from game.games.whatgoesup.rules.flight_actions import (AcceptRoll, Burn, Coast, EndActivities, KeepRoll, Launch, Move,
                                                        Shed, UseLuck, UseRcsBoost, UseSkill, WriteOff)
from game.games.whatgoesup.rules.reliability import Outcome
from game.games.whatgoesup.rules.state import GameState, UpgoerDesign

LANDING_PARTS = ("lower_stage", "capsule")  # what an uncrewed hop that lands is made of
HOP_CAPSULE = 4     # the largest capsule it invents for a hop (small parts are cheap to research)
LAUNCHABLE = 8      # the Fail safety every part must have before a hop is stacked
GOOD_ENOUGH = 12    # research stops here
NEVER = (OfferTrade, ReverseEngineer, WriteOff, Shed)


class LandingBot:
    """Weighted random legal play that favours the actions leading to a landing."""

    def __init__(self, seed: int):
        self.chooser = Chooser(seed)

    def choose(self, engine, state: GameState) -> Action:
        options = list(engine.legal_actions(state))
        if state.phase != "flight":
            options += self._hops(engine, state)
        weights = [self.weight(engine, state, a) for a in options]
        if not any(weights):
            return self.chooser.choice(options)
        pick = self.chooser.choice(range(sum(weights)))
        for action, weight in zip(options, weights):
            if pick < weight:
                return action
            pick -= weight
        raise AssertionError("weights do not add up")  # never: pick < sum(weights)

    def _hops(self, engine, state: GameState) -> list[Action]:
        """An uncrewed hop: a stored capsule on a stored lower stage that can lift it (if the engine agrees)."""
        player = engine.current_player(state)
        if player < 0 or any(u.status == "pad" for u in state.upgoers_of(player)):
            return []
        stored = state.items_of(player)
        stages = [i for i in stored if state.thing(i.thing_id).kind == "lower_stage"]
        capsules = [i for i in stored if state.thing(i.thing_id).kind == "capsule"]
        for stage in sorted(stages, key=lambda i: -state.thing(i.thing_id).base_mass):
            for capsule in capsules:
                design = UpgoerDesign(f"Hopper {len(state.upgoers_of(player)) + 1}", stages=((stage.id,),),
                                      modules=(capsule.id,))
                action = Assemble(design)
                if engine.refusal(state, action) is None:
                    return [action]
        return []

    def weight(self, engine, state: GameState, action: Action) -> int:
        if isinstance(action, NEVER):
            return 0
        if state.phase == "flight":
            return self._flight_weight(engine, state, action)
        player = engine.current_player(state)
        things = state.things_of(player)
        capsule = min((t.base_mass for t in things if t.kind == "capsule"), default=None)
        if isinstance(action, Invent):
            if action.kind == "capsule" and capsule is None:
                return 12 if action.mass <= HOP_CAPSULE else 0
            if action.kind == "lower_stage" and not any(t.kind == "lower_stage" for t in things):
                return 12 if (capsule or HOP_CAPSULE) <= action.mass <= 3 * (capsule or HOP_CAPSULE) else 0
            return 0
        if isinstance(action, Research):
            thing = state.thing(action.thing)
            if thing.kind not in LANDING_PARTS or thing.rating.fail >= GOOD_ENOUGH:
                return 0
            return 16 if action.safety == "fail" or thing.rating.boom - thing.rating.fail <= 3 else 8
        if isinstance(action, Build):
            thing = state.thing(action.thing)
            stored = [i for i in state.items_of(player) if state.thing(i.thing_id).kind == thing.kind]
            return 8 if thing.kind in LANDING_PARTS and not stored else 0
        if isinstance(action, Assemble):
            ready = all(state.thing(state.item(i).thing_id).rating.fail >= LAUNCHABLE for i in action.design.all_items())
            kinds_aboard = {state.thing(state.item(i).thing_id).kind for i in action.design.modules}
            return (40 if "capsule" in kinds_aboard else 1) if ready else 0
        if isinstance(action, EndRnD):
            return 4
        return 1

    def _flight_weight(self, engine, state: GameState, action: Action) -> int:
        roll = state.flight.roll
        if roll is not None and roll.value is not None:
            if isinstance(action, KeepRoll):
                better = {Outcome.OK: 0, Outcome.FAIL: 1, Outcome.BOOM: 2}
                new, old = roll.outcome_if(roll.value), roll.outcome_if(roll.previous)
                return 1 if (better[new] <= better[old]) == action.new else 0
            if isinstance(action, (UseSkill, UseLuck, UseRcsBoost)):
                return 4
            if isinstance(action, AcceptRoll):
                return 2
        if isinstance(action, Launch):
            return 10
        if isinstance(action, Burn):
            return 20 if engine.rules.board.step(action.to).kind == "reentry" else 1
        if isinstance(action, Coast):
            return 3
        if isinstance(action, (Move, EndActivities)):
            return 6
        return 1
