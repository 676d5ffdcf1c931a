"""Prestige firsts reached by playing (issue 15), not from hand-built states.

Each game starts at turn 1: a short script spends R&D points on real actions (invent, research, build,
hire, train, assemble), every die is a forced roll made with the engine's ``Roll`` action (a 1, which works
on any part whose Fail safety is 2 or more, unless the script names a bad roll), crafts take the cheapest
route on the board to where the script sends them (``routes.plan_route``) and do their activities there.

Where each first is reached in play:
* here: gravity slingshot, reusable capsule, Lucky 13 (a jury-rig rescue), rock landing and return;
* tests/test_goal_plans.py (the goal plans' games): mission step, orbit type, multi-derp and multi-turn
  missions (the shakedown), space walk (the moonwalk), Moon landing and return (the monolith);
* tests/test_story.py (the scripted story save, replayed): space walk, docking, rations delivery, Moon
  landing and return.
The reusable-Upgoer first cannot be reached in play: a landed Upgoer never flies again (each flight is a
newly assembled Upgoer), so no craft comes back through reentry a second time. Another issue fixes that rule.
"""
from __future__ import annotations

from typing import Callable, Optional

from game.games.whatgoesup.goal_plan import Job, route_cost, size_mission
from game.games.whatgoesup.routes import can_make, is_home, plan_route
from game.games.whatgoesup.rules.actions import (Assemble, Build, BuyConsumables, EndRnD, Hire, Invent, Research,
                                                 Roll, Train)
from game.games.whatgoesup.rules.engine import CHANCE, Engine
from game.games.whatgoesup.rules.flight_actions import (AcceptRoll, Burn, ChooseConsequence, Coast, EndActivities,
                                                        Hold, JuryRig, Launch, Move, UsePayload)
from game.games.whatgoesup.rules.state import HOME, PlayerSetup, Setup, UpgoerDesign
from game.games.whatgoesup.rules.tables import load_rules

ENGINE = Engine(load_rules())
BOARD = ENGINE.rules.board


class Mission:
    """A scripted one-program game played through the engine, every roll forced."""

    def __init__(self, setup: Setup):
        self.state = ENGINE.new_game(setup)
        self.steps: list = []  # R&D purchases (actions, or f(mission) -> action), in order, as points allow
        self.bad_rolls: dict[tuple[str, str], list[int]] = {}  # (craft name, roll kind) -> values
        self.goals: dict[str, Callable] = {}  # craft name -> f(mission, craft) -> step test, or None for home
        self.activities: dict[str, list[Callable]] = {}  # craft name -> f(mission, craft) -> action or None

    def do(self, action) -> None:
        self.state = ENGINE.apply(self.state, action)

    def thing(self, name: str) -> str:
        return next(t.id for t in self.state.things_of(0) if t.name == name)

    def items(self, name: str) -> list[str]:
        return [i.id for i in self.state.items_of(0) if self.state.thing(i.thing_id).name == name]

    def derps(self) -> list[str]:
        return [d.id for d in self.state.derps_of(0) if d.location is HOME]

    def play(self, until: Callable[["Mission"], bool], turns: int = 30) -> None:
        while self.state.phase != "over" and self.state.turn <= turns and not until(self):
            if self.state.phase == "rnd":
                self._rnd()
            else:
                self._fly()

    def _rnd(self) -> None:
        while self.steps and ENGINE.current_player(self.state) == 0:
            step = self.steps[0]
            action = step(self) if callable(step) else step
            if action is None:
                break  # not yet (a part still flying)
            why = ENGINE.refusal(self.state, action)
            if why is not None:
                assert "points" in why or "busy" in why or "training" in why, f"{action}: {why}"
                break  # save up (or wait for a derp in training)
            self.do(action)
            self.steps.pop(0)
        turn = self.state.turn
        while self.state.phase == "rnd" and self.state.turn == turn and ENGINE.current_player(self.state) >= 0:
            self.do(EndRnD())

    def _fly(self) -> None:
        f = self.state.flight
        if ENGINE.current_player(self.state) == CHANCE:
            craft = self.state.upgoer(f.roll.upgoer)
            values = self.bad_rolls.get((craft.name, f.roll.kind))
            self.do(Roll(values.pop(0) if values else 1))
            return
        if f.roll is not None:
            self.do(AcceptRoll())
            return
        if f.choice is not None:
            self.do(ChooseConsequence(f.choice.options[0]))
            return
        craft = self.state.upgoer(f.active)
        if f.mode == "decide":
            self.do(Launch(craft.id) if ENGINE.refusal(self.state, Launch(craft.id)) is None else Hold(craft.id))
        elif f.mode == "junction":
            self.do(self._junction(craft))
        else:
            for make in self.activities.get(craft.name, []):
                action = make(self, craft)
                if action is not None and ENGINE.refusal(self.state, action) is None:
                    self.do(action)
                    return
            self.do(Move(craft.id) if f.mode == "before" else EndActivities(craft.id))

    def _junction(self, craft):
        goal = self.goals.get(craft.name, lambda m, c: None)(self, craft) or is_home
        thrust = ENGINE.flight_rules.thrust(self.state, craft)
        route = plan_route(BOARD, self.state.setup.scenario, craft.location, goal, can_make(thrust))
        first = route.first if route is not None else Coast()
        if isinstance(first, Burn) and ENGINE.refusal(self.state, first) is not None:
            return Coast()
        return first


def solo(**changes) -> Setup:
    return Setup(players=(PlayerSetup("Hopscotch", "rabitians"),), **{"turn_limit": 30, **changes})


def first_of(state, first_id: str) -> Optional[int]:
    return dict(state.firsts).get(first_id)


def orbital_craft(m: Mission, name: str, payloads=(), rations=6, fuel=4, engineering=0, stage=20, capsule=8) -> None:
    """R&D for a one-derp orbital craft: a stage (a launch pair and an insertion stage), a capsule, a mass-1
    thruster and the payloads, each researched a step or more; then it is assembled."""
    m.steps += [Invent("lower_stage", stage, "Hopper Stage"), Invent("capsule", capsule, "Hopper Pod"),
                Invent("thruster", 1, "Hopper Engine")]
    m.steps += [Invent(kind, 1, f"Hopper {kind}") for kind in payloads]
    for name_ in ["Hopper Stage", "Hopper Engine"] + [f"Hopper {kind}" for kind in payloads]:
        m.steps.append(lambda m, n=name_: Research(m.thing(n), "fail", 1))
    m.steps += [lambda m: Research(m.thing("Hopper Pod"), "boom", 5), lambda m: Research(m.thing("Hopper Pod"), "fail", 5)]
    m.steps += [lambda m: Build(m.thing("Hopper Stage"), 3), lambda m: Build(m.thing("Hopper Pod"), 1),
                lambda m: Build(m.thing("Hopper Engine"), 1)]
    m.steps += [lambda m, k=kind: Build(m.thing(f"Hopper {k}"), 1) for kind in payloads]
    m.steps += [Hire("Clover"), BuyConsumables("fuel", fuel), BuyConsumables("rations", (rations + 1) // 2)]
    if engineering:
        m.steps.append(lambda m: Train(m.derps()[0], "engineering", engineering))
    m.steps.append(lambda m: Assemble(UpgoerDesign(
        name, stages=(tuple(m.items("Hopper Stage")[:2]), (m.items("Hopper Stage")[2],)),
        modules=(m.items("Hopper Pod")[0], m.items("Hopper Engine")[0])
        + tuple(m.items(f"Hopper {kind}")[0] for kind in payloads),
        crew=(m.derps()[0],), fuel=fuel, rations=rations)))


def test_a_probe_flung_from_synchronous_orbit_is_the_first_gravity_slingshot():
    m = Mission(solo())
    orbital_craft(m, "Slinger", payloads=("probe",))
    m.goals["Slinger"] = lambda m, c: ((lambda s: s.orbit_type == "synchronous")
                                       if any(i.location == c.id and m.state.thing(i.thing_id).kind == "probe"
                                              for i in m.state.items) else None)
    m.activities["Slinger"] = [lambda m, c: UsePayload(c.crew[0], next(
        (i.id for i in m.state.items if i.location == c.id and m.state.thing(i.thing_id).kind == "probe"), "none"))]
    m.play(until=lambda m: first_of(m.state, "first_gravity_slingshot") is not None)
    assert first_of(m.state, "first_gravity_slingshot") == 0
    assert not any(m.state.thing(i.thing_id).kind == "probe" for i in m.state.items)  # it left the world's pull


def test_a_reusable_capsule_through_reentry_twice():
    m = Mission(solo())
    m.steps += [Invent("lower_stage", 3, "Pogo"), Invent("capsule", 2, "Boomerang Pod", reusable=True),
                lambda m: Research(m.thing("Pogo"), "fail", 1), lambda m: Research(m.thing("Boomerang Pod"), "fail", 1),
                lambda m: Build(m.thing("Pogo"), 2), lambda m: Build(m.thing("Boomerang Pod"), 1)]
    for n in (1, 2):  # two uncrewed hops: the capsule comes home and flies again
        m.steps.append(lambda m, n=n: Assemble(UpgoerDesign(f"Boomerang {n}", stages=((m.items("Pogo")[0],),),
                                                            modules=(m.items("Boomerang Pod")[0],)))
                       if m.items("Boomerang Pod") else None)
    m.play(until=lambda m: any(u.name == "Boomerang 2" and u.status == "landed" for u in m.state.upgoers))
    assert first_of(m.state, "first_reusable_capsule") == 0
    pod = next(i for i in m.state.items if m.state.thing(i.thing_id).name == "Boomerang Pod")
    assert pod.reentries == 2 and pod.location is HOME


def test_a_stranded_crew_jury_rigs_their_capsule_lucky_13():
    """A capsule Boom in orbit strands the craft; the derp's repair works and they fly home themselves."""
    m = Mission(solo())
    orbital_craft(m, "Thirteen", engineering=1)
    m.bad_rolls[("Thirteen", "duration_capsule")] = [20]  # a Boom on the first night in orbit
    pod = lambda m, c: next(i.id for i in m.state.items if i.location == c.id  # noqa: E731
                            and m.state.thing(i.thing_id).kind == "capsule")
    m.activities["Thirteen"] = [lambda m, c: JuryRig(c.crew[0], pod(m, c))]
    m.play(until=lambda m: any(u.name == "Thirteen" and u.status == "landed" for u in m.state.upgoers))
    assert first_of(m.state, "lucky_13") == 0
    craft = next(u for u in m.state.upgoers if u.name == "Thirteen")
    assert craft.status == "landed" and not m.state.derp(craft.crew[0]).dead


def test_a_crew_lands_on_the_rock_and_comes_home():
    m = Mission(solo(scenario="stop_the_rock", difficulty="gentle", turn_limit=None))
    rock = lambda s: s.kind == "surface" and s.body == "rock"  # noqa: E731
    burns, meals = route_cost(BOARD, "stop_the_rock", "low_1", rock, "orbital")  # there and home
    size = size_mission(ENGINE.rules, (Job("Pebble", crew=1, meals=meals, burns=burns),))
    assert size.thruster == 1
    orbital_craft(m, "Pebble", rations=size.rations_for(Job("Pebble", 1)), fuel=size.fuel_for(Job("Pebble", 1)),
                  stage=size.stage, capsule=size.capsule)
    m.goals["Pebble"] = lambda m, c: None if "rock" in c.bodies_landed else rock
    m.play(until=lambda m: any(u.name == "Pebble" and u.status == "landed" for u in m.state.upgoers))
    assert first_of(m.state, "first_rock_landing") == 0
    craft = next(u for u in m.state.upgoers if u.name == "Pebble")
    assert "rock" in craft.bodies_landed and craft.status == "landed"
