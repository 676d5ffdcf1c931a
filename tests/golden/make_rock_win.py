"""Builds tests/golden/rock_win.json: a solo Stop The Rock game (normal difficulty) that saves the world.

One program plays from turn 1 the way a careful player would, with the app's help (the odds of every roll,
the fuel preview): the R&D is a priority list spent as points allow, and in flight every bad roll is met with
the crew's skills (Engineering on a Boom, Piloting on a Fail, only when that saves the roll) or a luck point.

Every die comes from the seeded dice stream (``DiceRoller(SEED)``), the rock's drift die included; no roll
is forced. ``python tests/golden/make_rock_win.py --trials 200 [--difficulty gentle]`` plays the same plan
with seeds 1..200 and prints how often it saves the world: that is the measure behind the difficulty
tuning in docs/rules-decisions.md ("Stop The Rock"). The plan:

* Turn 1-2: invent a capsule (mass 6: one derp and 8 derp-turns of rations), a thruster (mass 1) and one
  lower stage design big enough that a pair lifts the whole rock craft; hire derps and train them
  (Engineering, then Piloting, then Stamina, to the 9-point limit).
* Research the capsule and the thruster to the never-flown cap, the stage as far as points allow.
* A crewed suborbital hop (one stage, the capsule, every derp aboard): it flies the capsule and the stage,
  wins the first-step dots (a bigger budget every turn after) and a luck point per derp who comes home.
* Then research everything towards 19/20, build the rock craft (a launch pair, an insertion stage, fuel for
  the trip and spare nudges) and fly it: low orbit, high transfer, synchronous orbit, the Rock intercept
  burn, the rock, and nudge with every drop of fuel until the world is saved.

Regenerate after a deliberate rules change:  python tests/golden/make_rock_win.py
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Optional

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from game import saves  # noqa: E402
from game.dice_rng import DiceRoller  # noqa: E402
from game.rules.actions import Assemble, Build, BuyConsumables, EndRnD, Hire, Invent, Research, Train  # noqa: E402
from game.rules.engine import CHANCE, TERMINAL, Engine  # noqa: E402
from game.rules.flight_actions import (AcceptRoll, Burn, ChooseConsequence, Coast, EndActivities, Hold,  # noqa: E402
                                       KeepRoll, Launch, Move, Nudge, UseLuck, UseSkill)
from game.rules.reliability import Outcome, Rating, judge, with_raises  # noqa: E402
from game.rules.state import HOME, PlayerSetup, Setup, UpgoerDesign  # noqa: E402
from game.rules.tables import load_rules  # noqa: E402

OUT = Path(__file__).with_name("rock_win.json")
SEED = 1
PROGRAM = 0


def setup_for(difficulty: str = "normal") -> Setup:
    return Setup(players=(PlayerSetup("Pebble Pushers", "kobolds"),), scenario="stop_the_rock",
                 difficulty=difficulty)


# ---------------------------------------------------------------------- the plan's numbers
STAGE, POD, PUFF = "Boulder Booster", "Pebble Pod", "Nudger"
STAGE_MASS, POD_MASS, PUFF_MASS = 28, 7, 1
CREW = 1            # derps on the rock craft
HOP_CREW = 5        # derps on the suborbital hop (the capsule carries 5)
FUEL, RATIONS = 14, 10
LAUNCH_TURN = 1
LATEST_LAUNCH = 99
HOP_STAGE = Rating(5, 10)   # the stage's rating before the hop (the never-flown cap)
TARGET = {STAGE: Rating(5, 10), POD: Rating(19, 20), PUFF: Rating(10, 15)}
SKILLS = (("engineering", 3), ("piloting", 3), ("stamina", 1))  # a trained derp: 3/3/3


class RockGame:
    def __init__(self, seed: int = SEED, difficulty: str = "normal", engine: Optional[Engine] = None):
        self.engine = engine or Engine(load_rules())
        self.setup = setup_for(difficulty)
        self.state = self.engine.new_game(self.setup)
        self.dice = DiceRoller(seed)
        self.actions: list = []
        self.log: list[str] = []

    # ------------------------------------------------------------------ helpers
    def do(self, action) -> None:
        self.state = self.engine.apply(self.state, action)
        self.actions.append(action)
        self.log += [e.text for e in self.state.events]

    def ok(self, action) -> bool:
        return self.engine.refusal(self.state, action) is None

    def thing(self, name: str):
        return next((t for t in self.state.things_of(PROGRAM) if t.name == name), None)

    def stored(self, name: str) -> list[str]:
        return [i.id for i in self.state.items_of(PROGRAM)
                if self.state.thing(i.thing_id).name == name and i.location is HOME]

    def derps_home(self) -> list:
        return [d for d in self.state.derps_of(PROGRAM) if not d.dead and d.location is HOME]

    def craft(self, name: str):
        return next((u for u in self.state.upgoers_of(PROGRAM) if u.name == name), None)

    @property
    def program(self):
        return self.state.programs[PROGRAM]

    # ------------------------------------------------------------------ the game
    def play(self, max_turns: int = 40) -> None:
        while self.state.phase != "over" and self.state.turn <= max_turns:
            who = self.engine.current_player(self.state)
            if who == TERMINAL:
                break
            if who == CHANCE:
                self.do(self.dice.roll(self.engine, self.state))
            elif self.state.phase == "rnd":
                self.do(self.rnd())
            else:
                self.do(self.fly())

    # ------------------------------------------------------------------ R&D
    def rnd(self):
        for action in self.wants():
            if action is not None and self.ok(action):
                return action
        return EndRnD()

    def wants(self):
        """What the careful player buys next, most urgent first (the first affordable one is bought)."""
        s = self.state
        yield from self._invent()
        yield from self._crew()
        if not all(self.thing(n) for n in (STAGE, POD, PUFF)):
            return
        yield from self._crew()
        hop = self.craft("Hop")
        rock = self.craft("Boulder Run")
        pod, stage, puff = self.thing(POD), self.thing(STAGE), self.thing(PUFF)
        # Research what the next flight needs first.
        if hop is None or hop.status == "pad":
            yield from self._research(pod, Rating(10, 15))
            yield from self._research(stage, HOP_STAGE)
            if not self.stored(STAGE) and hop is None:
                yield Build(stage.id, 1)
            if not self.stored(POD) and hop is None:
                yield Build(pod.id, 1)
            if hop is None and self.stored(STAGE) and self.stored(POD):
                crew = [d for d in self.derps_home() if d.can_fly][:HOP_CREW]
                if len(crew) >= 1 and self._ready(pod, Rating(10, 15)) and self._ready(stage, HOP_STAGE):
                    yield Assemble(UpgoerDesign("Hop", stages=((self.stored(STAGE)[0],),),
                                                modules=(self.stored(POD)[0],), crew=tuple(d.id for d in crew)))
            return
        if rock is not None:
            return
        yield from self._research(pod)
        yield from self._research(puff)
        yield from self._research(stage)
        need = {STAGE: 3, POD: 1, PUFF: 1}
        for name, count in need.items():
            if len(self.stored(name)) < count:
                yield Build(self.thing(name).id, 1)
        if self.program.fuel_stock < FUEL:
            yield BuyConsumables("fuel", FUEL - self.program.fuel_stock)
        if self.program.rations_stock < RATIONS:
            yield BuyConsumables("rations", (RATIONS - self.program.rations_stock + 1) // 2)
        crew = sorted((d for d in self.derps_home() if d.can_fly), key=lambda d: -d.total_points)[:CREW]
        ready = all(self._ready(t) for t in (pod, puff, stage))
        if (ready or s.turn >= LATEST_LAUNCH) and s.turn >= self.launch_turn() and len(crew) == CREW \
                and len(self.stored(STAGE)) >= 3 \
                and self.stored(POD) and self.stored(PUFF):
            stages = self.stored(STAGE)
            yield Assemble(UpgoerDesign("Boulder Run", stages=(tuple(stages[:2]), (stages[2],)),
                                        modules=(self.stored(POD)[0], self.stored(PUFF)[0]),
                                        crew=tuple(d.id for d in crew), fuel=FUEL, rations=RATIONS))

    def launch_turn(self) -> int:
        return LAUNCH_TURN

    def _ready(self, thing, target: Optional[Rating] = None) -> bool:
        cap = self.engine.research_cap(self.state, thing)
        target = target or TARGET[thing.name]
        return thing.rating.fail >= min(cap.fail, target.fail) and thing.rating.boom >= min(cap.boom, target.boom)

    def _research(self, thing, target: Optional[Rating] = None):
        cap = self.engine.research_cap(self.state, thing)
        target = target or TARGET[thing.name]
        if thing.rating.boom < min(cap.boom, target.boom):
            yield Research(thing.id, "boom", 1)
        if thing.rating.fail < min(cap.fail, target.fail, thing.rating.boom - 1):
            yield Research(thing.id, "fail", 1)

    def _invent(self):
        for kind, mass, name in (("capsule", POD_MASS, POD), ("thruster", PUFF_MASS, PUFF),
                                 ("lower_stage", STAGE_MASS, STAGE)):
            if self.thing(name) is None:
                yield Invent(kind, mass, name)

    def _crew(self):
        alive = [d for d in self.state.derps_of(PROGRAM) if not d.dead]
        if len(alive) < HOP_CREW:
            yield Hire()
        for d in alive:
            if d.location is not HOME or d.injured:
                continue
            for skill, points in SKILLS:
                have = getattr(d, skill) - (2 if skill == "stamina" else 0)
                if have < points and (d.trained_skill in (None, skill)):
                    yield Train(d.id, skill, points - have)
                    break
                if have < points:
                    break

    # ------------------------------------------------------------------ flights
    def fly(self):
        f = self.state.flight
        if f.roll is not None:
            return self.answer_roll(f.roll)
        if f.choice is not None:
            return ChooseConsequence(self.consequence(f.choice))
        upgoer = self.state.upgoer(f.active)
        if f.mode == "decide":
            return Launch(upgoer.id) if self.ok(Launch(upgoer.id)) else Hold(upgoer.id)
        if f.mode == "junction":
            return self.junction(upgoer)
        if f.mode in ("before", "after"):
            rock = self.state.rock
            if not rock.saved and self.ok(Nudge(upgoer.id)):
                return Nudge(upgoer.id)
            return Move(upgoer.id) if f.mode == "before" else EndActivities(upgoer.id)
        raise AssertionError(f"unexpected flight mode {f.mode}")

    def junction(self, upgoer):
        board = self.engine.rules.board
        here = board.step(upgoer.location)
        going_out = not self.state.rock.saved and "rock" not in upgoer.bodies_landed
        wanted = []
        for b in board.burns_from(here.id, "stop_the_rock"):
            to = board.step(b.to)
            if going_out and b.to in ("high_transfer", "rock_transit", "rock_docking"):
                wanted.append(b.to)
            elif not going_out and (to.kind == "reentry" or b.to in ("pushoff_transit", "descent")):
                wanted.append(b.to)
        for to in wanted:
            for action in (Burn(to), Burn(to, rcs=True)):
                if self.ok(action):
                    return action
        return Coast()

    def consequence(self, choice) -> str:
        upgoer = self.state.upgoer(choice.upgoer)
        if "lose_payload" in choice.options:
            return "lose_payload"
        if "lose_rations" in choice.options and upgoer.rations > 2 * len(upgoer.crew):
            return "lose_rations"
        return "degrade_all_parts"

    def answer_roll(self, roll):
        fr = self.engine.flight_rules
        if roll.previous is not None:
            new, old = self._score(roll, roll.value), self._score(roll, roll.previous)
            return KeepRoll(new=new <= old)
        outcome = roll.outcome()
        if outcome is Outcome.OK:
            return AcceptRoll()
        helpers = fr._helpers(self.state, roll)
        plan = self._skill_plan(roll, helpers)
        if plan:
            return plan[0]
        if self.program.luck > 0 and self._worth_luck(roll, outcome):
            return UseLuck()
        return AcceptRoll()

    def _score(self, roll, value) -> tuple:
        return ({Outcome.OK: 0, Outcome.FAIL: 1, Outcome.BOOM: 2}[judge(value, roll.effective())], value)

    def _worth_luck(self, roll, outcome) -> bool:
        if outcome is Outcome.BOOM:
            return True
        # A Fail on a duration step only costs a choice (a payload, rations or wear): keep the luck.
        return roll.kind not in ("stage_recovery", "duration_capsule", "duration_habitat")

    def _skill_plan(self, roll, helpers) -> list:
        """The skill spends that turn this roll into OK (or a Boom into a Fail when OK is out of reach)."""
        value = roll.value
        eff = roll.effective()
        eng = sorted(((d.engineering, d) for d in helpers if d.engineering > 0), key=lambda x: -x[0])
        pil = sorted(((self.engine.flight_rules.piloting(self.state, d), d) for d in helpers
                      if self.engine.flight_rules.piloting(self.state, d) > 0), key=lambda x: -x[0])
        stamina = {d.id: d.current_stamina for d in helpers}
        # Try: enough Engineering to lift the Boom safety to value+2 and Piloting to lift Fail past value.
        spends = []
        boom, fail = eff.boom, eff.fail
        for target_boom in (value + 2,):
            while boom < target_boom:
                src = next(((e, d) for e, d in eng if stamina[d.id] > 0), None)
                if src is None:
                    break
                stamina[src[1].id] -= 1
                boom += src[0]
                spends.append(UseSkill(src[1].id, "engineering"))
            fail = min(fail, boom - 1)
            base_fail = roll.rating.fail + roll.fail_raise
            fail = min(base_fail, boom - 1)
            while fail <= value and fail < boom - 1:
                src = next(((p, d) for p, d in pil if stamina[d.id] > 0), None)
                if src is None:
                    break
                stamina[src[1].id] -= 1
                base_fail += src[0]
                fail = min(base_fail, boom - 1)
                spends.append(UseSkill(src[1].id, "piloting"))
        if value < fail:
            # Spend only what is needed: the first spend of the right kind for the current outcome.
            outcome = roll.outcome()
            for a in spends:
                if outcome is Outcome.BOOM and a.skill == "engineering":
                    return [a]
                if outcome is Outcome.FAIL and (a.skill == "piloting" or roll.fail_pinned()):
                    if a.skill == "engineering" and not roll.fail_pinned():
                        continue
                    return [a]
            return spends[:1]
        if roll.outcome() is Outcome.BOOM and value < boom and roll.kind in ("duration_capsule", "reentry", "landing",
                                                                             "burn", "rock_docking_burn", "launch",
                                                                             "orbital_insertion"):
            if self.program.luck > 0:
                return []  # a reroll may do better than a Fail
            first = next((a for a in spends if a.skill == "engineering"), None)
            return [first] if first else []
        return []


def trials(n: int, difficulty: str) -> None:
    engine = Engine(load_rules())
    wins = 0
    outcomes: dict[str, int] = {}
    for seed in range(1, n + 1):
        game = RockGame(seed, difficulty, engine)
        game.play()
        outcome = engine.outcome(game.state)
        kind = outcome.kind if outcome else "unfinished"
        outcomes[kind] = outcomes.get(kind, 0) + 1
        wins += kind == "saved"
    print(json.dumps({"difficulty": difficulty, "trials": n, "saved": wins, "outcomes": outcomes}))


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trials", type=int, default=0)
    parser.add_argument("--difficulty", default="normal")
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument("--verbose", action="store_true")
    args = parser.parse_args(argv)
    if args.trials:
        trials(args.trials, args.difficulty)
        return 0
    game = RockGame(args.seed, args.difficulty)
    game.play()
    if args.verbose:
        print("\n".join(game.log))
    outcome = game.engine.outcome(game.state)
    print(outcome)
    document = saves.save_document(game.engine.rules, game.setup, args.seed, game.actions)
    OUT.write_text(json.dumps(document, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"wrote {OUT} with {len(game.actions)} actions")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
