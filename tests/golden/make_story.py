"""Builds tests/golden/story.json: a scripted two-program game played from the first R&D turn.

It has launches, a crash on the pad, a lunar round trip, a stranding, a rescue with an EVA rations
delivery, a docking and a crew transfer, and an RCS deorbit. Dice are forced (a save records every
roll, so any possible value may be written down): a roll of 1 works on any part whose Fail safety is
2 or more, and the script names the bad rolls the story needs.

Each program's R&D is a queue of steps spent as its points allow, so the story survives changes to
costs; a step may wait for a turn. Regenerate after a deliberate rules change:
    python -m tests.golden.regenerate   (all golden files, with a report)
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from game.core import saves  # noqa: E402
from game.games.whatgoesup.rules.actions import Assemble, Build, BuyConsumables, EndRnD, Hire, Invent, Research, Roll, Train  # noqa: E402
from game.games.whatgoesup.rules.engine import CHANCE, Engine  # noqa: E402
from game.games.whatgoesup.rules.flight_actions import (AcceptRoll, Burn, ChooseConsequence, Coast, Dock, EndActivities, Eva,  # noqa: E402
                                       Hold, Launch, Move, Transfer, WriteOff)
from game.games.whatgoesup.rules.state import PlayerSetup, Setup, UpgoerDesign  # noqa: E402
from game.games.whatgoesup.rules.tables import load_rules  # noqa: E402

OUT = Path(__file__).with_name("story.json")
SETUP = Setup(players=(PlayerSetup("Hopscotch Space Agency", "rabitians"), PlayerSetup("Spudnik Program", "merbs")),
              dice="d20", turn_limit=18)
SEED = 2014
HOP, SPUD = 0, 1


class Story:
    def __init__(self) -> None:
        self.engine = Engine(load_rules())
        self.state = self.engine.new_game(SETUP)
        self.actions: list = []
        self.queues: dict[int, list] = {HOP: [], SPUD: []}
        self.bad_rolls: dict[tuple[str, str], list[int]] = {}  # (upgoer name, roll kind) -> values
        self.routes: dict[str, list[Burn]] = {}  # upgoer name -> burns to take at junctions, in order
        self.activities: dict[tuple[str, str], list] = {}  # (upgoer name, mode) -> callables giving actions

    def do(self, action) -> None:
        self.state = self.engine.apply(self.state, action)
        self.actions.append(action)

    # ---------------------------------------------------------------- lookups for queued steps
    def thing(self, program: int, name: str) -> str:
        return next(t.id for t in self.state.things_of(program) if t.name == name)

    def items(self, program: int, name: str) -> list[str]:
        return [i.id for i in self.state.items_of(program) if self.state.thing(i.thing_id).name == name]

    def derp(self, program: int, name: str) -> str:
        return next(d.id for d in self.state.derps_of(program) if d.name == name)

    def upgoer(self, name: str):
        return next(u for u in self.state.upgoers if u.name == name)

    # ---------------------------------------------------------------- turns
    def rnd(self) -> None:
        """Each program spends from the front of its queue while it can; then R&D ends."""
        for program in (HOP, SPUD):
            queue = self.queues[program]
            while queue:
                step = queue[0]
                if isinstance(step, int):  # wait until this turn
                    if self.state.turn < step:
                        break
                    queue.pop(0)
                    continue
                action = step(self) if callable(step) else step
                why = self.engine.refusal(self.state, action)
                if why is not None:
                    if "points" in why:
                        break  # save up for it
                    raise AssertionError(f"turn {self.state.turn}: {action}: {why}")
                self.do(action)
                queue.pop(0)
            self.do(EndRnD())

    def fly(self) -> None:
        """Play the flight phase out: scripted rolls, routes at junctions, scripted activities."""
        while self.state.phase == "flight":
            f = self.state.flight
            if self.engine.current_player(self.state) == CHANCE:
                value = 1
                if f.roll is not None:
                    key = (self.state.upgoer(f.roll.upgoer).name, f.roll.kind)
                    if self.bad_rolls.get(key):
                        value = self.bad_rolls[key].pop(0)
                self.do(Roll(value))
                continue
            legal = self.engine.legal_actions(self.state)
            if f.roll is not None:
                self.do(AcceptRoll())
                continue
            if f.choice is not None:
                self.do(ChooseConsequence(f.choice.options[0]))
                continue
            upgoer = self.state.upgoer(f.active)
            if f.mode == "decide":
                self.do(Launch(upgoer.id) if Launch(upgoer.id) in legal else Hold(upgoer.id))
                continue
            if f.mode == "junction":
                route = self.routes.get(upgoer.name, [])
                self.do(route.pop(0) if route and route[0] in legal else Coast())
                continue
            scripted = self.activities.get((upgoer.name, f.mode), [])
            action = self._possible(scripted[0]) if scripted else None
            if action is not None:
                scripted.pop(0)
                self.do(action)
            else:
                self.do(Move(upgoer.id) if f.mode == "before" else EndActivities(upgoer.id))

    def _possible(self, step):
        """The scripted activity's action when it can be done now, else None (try at a later stop)."""
        try:
            action = step(self)
        except StopIteration:
            return None
        if action is None:
            return None
        return action if self.engine.refusal(self.state, action) is None else None

    def turn(self) -> None:
        self.rnd()
        self.fly()


def plan(s: Story) -> None:
    q = s.queues
    # Spudnik: a cheap lower stage tested without crew (it explodes on the pad), then a two-derp
    # orbital craft that launches on turn 8, alongside Hopscotch's rescue craft.
    q[SPUD] += [
        Invent("lower_stage", 8, "Tater Stack"), Invent("capsule", 4, "Mash Pod"),
        lambda s: Research(s.thing(SPUD, "Tater Stack"), "fail", 1),
        lambda s: Research(s.thing(SPUD, "Mash Pod"), "fail", 1),
        lambda s: Build(s.thing(SPUD, "Tater Stack"), 1),
        lambda s: Assemble(UpgoerDesign("Test Tater", stages=((s.items(SPUD, "Tater Stack")[0],),))),
        lambda s: Build(s.thing(SPUD, "Tater Stack"), 3),
        lambda s: Build(s.thing(SPUD, "Mash Pod"), 1),
        Hire("Spudsy"), Hire("Russet"), BuyConsumables("rations", 1),
        # The crash cost every Tater Stack 3/3: research it back before trusting it with derps.
        lambda s: Research(s.thing(SPUD, "Tater Stack"), "boom", 5),
        lambda s: Research(s.thing(SPUD, "Tater Stack"), "fail", 4),
        8,
        lambda s: Assemble(UpgoerDesign(
            "Mash One", stages=(tuple(s.items(SPUD, "Tater Stack")[:2]), (s.items(SPUD, "Tater Stack")[2],)),
            modules=(s.items(SPUD, "Mash Pod")[0],),
            crew=(s.derp(SPUD, "Spudsy"), s.derp(SPUD, "Russet")), rations=2)),
    ]
    s.bad_rolls[("Test Tater", "launch")] = [20]  # the crash: a Boom on the pad
    s.bad_rolls[("Mash One", "duration_capsule")] = [20]  # capsule Boom in orbit: stranded
    # Hopscotch: a rescue craft for turn 8 (a pilot, an RCS, an EVA pack), then a Moon craft.
    q[HOP] += [
        Invent("lower_stage", 30, "Burrow Booster"),
        lambda s: Research(s.thing(HOP, "Burrow Booster"), "fail", 1),
        Invent("capsule", 9, "Helping Paw Pod"), Invent("rcs", 1, "Whisker Puffs"),
        Invent("eva_pack", 1, "Fluffsuit"),
        lambda s: Research(s.thing(HOP, "Helping Paw Pod"), "fail", 1),
        lambda s: Research(s.thing(HOP, "Whisker Puffs"), "fail", 1),
        lambda s: Research(s.thing(HOP, "Fluffsuit"), "fail", 1),
        Hire("Clover"), lambda s: Train(s.derp(HOP, "Clover"), "piloting", 2),
        lambda s: Build(s.thing(HOP, "Burrow Booster"), 3),
        lambda s: Build(s.thing(HOP, "Helping Paw Pod"), 1),
        lambda s: Build(s.thing(HOP, "Whisker Puffs"), 1),
        lambda s: Build(s.thing(HOP, "Fluffsuit"), 1),
        BuyConsumables("rations", 3),
        8,
        lambda s: Assemble(UpgoerDesign(
            "Helping Paw", stages=(tuple(s.items(HOP, "Burrow Booster")[:2]), (s.items(HOP, "Burrow Booster")[2],)),
            modules=(s.items(HOP, "Helping Paw Pod")[0], s.items(HOP, "Whisker Puffs")[0], s.items(HOP, "Fluffsuit")[0]),
            crew=(s.derp(HOP, "Clover"),), rations=6)),
        Invent("capsule", 6, "Moonhop Pod"), Invent("thruster", 3, "Hop Engine"),
        lambda s: Research(s.thing(HOP, "Moonhop Pod"), "fail", 1),
        lambda s: Research(s.thing(HOP, "Hop Engine"), "fail", 1),
        Hire("Bunbun"),
        lambda s: Build(s.thing(HOP, "Burrow Booster"), 3),
        lambda s: Build(s.thing(HOP, "Moonhop Pod"), 1),
        lambda s: Build(s.thing(HOP, "Hop Engine"), 1),
        BuyConsumables("fuel", 16), BuyConsumables("rations", 4),
        lambda s: Assemble(UpgoerDesign(
            "Moonhop", stages=(tuple(s.items(HOP, "Burrow Booster")[:2]), (s.items(HOP, "Burrow Booster")[2],)),
            modules=(s.items(HOP, "Moonhop Pod")[0], s.items(HOP, "Hop Engine")[0]),
            crew=(s.derp(HOP, "Bunbun"),), fuel=16, rations=8)),
    ]
    # Helping Paw meets the stranded Mash One in low orbit: an EVA carries rations over (and back),
    # then it docks, takes both Spudnik derps aboard, undocks, and deorbits on its RCS.
    s.activities[("Helping Paw", "after")] = [
        lambda s: Eva(s.derp(HOP, "Clover"), s.upgoer("Mash One").id, carry_rations=2, come_back=True),
        lambda s: Dock(s.upgoer("Mash One").id, s.derp(HOP, "Clover")),
        lambda s: Transfer(s.upgoer("Mash One").id, s.upgoer("Helping Paw").id,
                           derps=(s.derp(SPUD, "Spudsy"), s.derp(SPUD, "Russet"))),
    ]
    s.routes["Helping Paw"] = [Burn("reentry", rcs=True)]
    # Its crew gone, Spudnik writes the empty Mash One off: debris that nobody tracks.
    s.activities[("Mash One", "before")] = [
        lambda s: None if s.upgoer("Mash One").docked_with or s.state.turn < 9
        else WriteOff(s.upgoer("Mash One").id)]
    s.routes["Moonhop"] = [Burn("high_transfer"), Burn("lunar_transfer"), Burn("low_lunar_1"),
                           Burn("lunar_landing"), Burn("low_lunar_3"), Burn("return_transit")]


def build_story(turns: int = 18) -> Story:
    s = Story()
    plan(s)
    while s.state.phase != "over" and s.state.turn <= turns:
        s.turn()
    return s


def main() -> int:
    story = build_story()
    document = saves.save_document(story.engine, SETUP, SEED, story.actions)
    OUT.write_text(json.dumps(document, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"wrote {OUT} with {len(story.actions)} actions")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
