"""Screenshots of the underped (robotic) rules: New game with the rule switched on, R&D programming a robot,
the one-time hint, assembly with a robot aboard, and The Field with a robot craft in orbit (its marker and its
panel). Each is taken at 1280x720, 1920x1080 and 3840x2160 (``shots.SIZED_SHOTS``). Never imported by the game.
"""
from __future__ import annotations

from pathlib import Path

from game.core.session import GameSession
from game.games.whatgoesup.rules.actions import Assemble, Build, EndRnD, Invent, Research, Roll
from game.games.whatgoesup.rules.engine import CHANCE
from game.games.whatgoesup.rules.flight_actions import AcceptRoll, EndActivities, Launch, Move
from game.games.whatgoesup.rules.scenario import give_derp, give_stock, give_thing
from game.games.whatgoesup.rules.state import PlayerSetup, Setup, UpgoerDesign
from game.games.whatgoesup.rules.underped_actions import Program

from game.client.whatgoesup.shipped import shipped_engine
from game.tools.flow_shots import PAUSE
from game.tools.settle import settle

SEED = 20140507
OPTIONS = frozenset({"underped"})


def robot_state(invent: bool = True, assemble: bool = False, options: frozenset = OPTIONS, rock: bool = False):
    """Turn 1 of a two-program game with the underped rule, Hop Agency's R&D: ready-made stages, capsule and
    thruster, and (``invent``) an underped system invented, researched, built and programmed for real. With
    ``rock``, Stop The Rock for Hop Agency alone instead (the rock's first drift die rolled 10)."""
    engine = shipped_engine()
    rules = engine.rules
    players = (PlayerSetup("Hop Agency", "rabitians"), PlayerSetup("Spud Space", "merbs"))
    if rock:
        state = engine.apply(engine.new_game(Setup(players=players[:1], options=options, scenario="stop_the_rock",
                                                   turn_limit=None)), Roll(10))
    else:
        state = engine.new_game(Setup(players=players, options=options, turn_limit=10))
    state, _, (launch,) = give_thing(state, rules, 0, "lower_stage", 30, "14/18", count=1, name="Big Hopper")
    state, _, (insertion,) = give_thing(state, rules, 0, "lower_stage", 12, "14/18", count=1, name="Little Hopper")
    state, _, (capsule,) = give_thing(state, rules, 0, "capsule", 4, "14/18", count=1, name="Burrow Pod")
    state, _, (thruster,) = give_thing(state, rules, 0, "thruster", 1, "14/18", count=1, name="Puffer")
    state, derp = give_derp(state, 0, "Bunbun", 1, 1, 3)
    state = give_stock(state, 0, points=40, fuel=6, rations=4)
    design = None
    if invent:
        state = engine.apply(state, Invent("underped", 1, "Tik"))
        thing = state.things[-1].id
        state = engine.apply(engine.apply(state, Research(thing, "boom", 5)), Research(thing, "fail", 5))
        state = engine.apply(state, Build(thing, 1))
        system = next(d for d in state.derps if d.is_system)
        state = engine.apply(state, Program(system.id, 2))
        design = UpgoerDesign("Tik-Tok 1", stages=((launch,), (insertion,)), modules=(capsule, thruster, system.system),
                              fuel=3)
        if assemble:
            state = engine.apply(state, Assemble(design))
    return engine, state, design


def robot_in_orbit_state():
    """Turn 2's flights: Hop Agency's robot craft in Low Orbit about to act, Spud Space's crewed craft beside it."""
    engine, state, design = robot_state(assemble=True)
    rules = engine.rules
    state = engine.apply(state, EndRnD())
    state, _, (s1,) = give_thing(state, rules, 1, "lower_stage", 30, "14/18", count=1, name="Spud Lifter")
    state, _, (s2,) = give_thing(state, rules, 1, "lower_stage", 12, "14/18", count=1, name="Spud Kicker")
    state, _, (cap,) = give_thing(state, rules, 1, "capsule", 4, "14/18", count=1, name="Spud Pod")
    state, derp = give_derp(state, 1, "Mash", 2, 1, 3)
    state = give_stock(state, 1, rations=4)
    state = engine.apply(state, Assemble(UpgoerDesign("Spudnik", stages=((s1,), (s2,)), modules=(cap,), crew=(derp,),
                                                      rations=2)))
    state = engine.apply(state, EndRnD())

    def tik_tok_before_its_turn(state) -> bool:
        flight = state.flight
        return (state.turn == 2 and state.phase == "flight" and flight.roll is None and flight.active is not None
                and state.upgoer(flight.active).name == "Tik-Tok 1" and flight.mode == "before")

    return engine, _fly_until(engine, state, tik_tok_before_its_turn, "the robot craft never reached orbit")


def robot_recharged_state(broken_capsule: bool = False):
    """Turn 2's R&D with clockwork robots: Hop Agency's robot craft, with a generator, flew to Low Orbit on
    turn 1 following its written orders, shed a point of fuel (a stamina point) as written and was recharged at the end of the turn, so its
    orders are open to be rewritten (every die rolled for real, 3 on each). With ``broken_capsule`` the robots
    carry repair routines (underped_repairs) and the capsule's night in Low Orbit rolled a Boom (20): the craft
    is stranded there with its capsule out of order."""
    from game.games.whatgoesup.rules.flight_actions import Shed
    from game.games.whatgoesup.rules.underped_actions import WriteOrders

    extra = {"underped_clockwork", "underped_repairs"} if broken_capsule else {"underped_clockwork"}
    engine, state, design = robot_state(options=OPTIONS | extra)
    state = engine.apply(state, Invent("generator", 1, "Dynamo"))
    thing = state.things[-1].id
    state = engine.apply(engine.apply(state, Research(thing, "boom", 5)), Research(thing, "fail", 5))
    state = engine.apply(state, Build(thing, 1))
    state = engine.apply(state, Assemble(UpgoerDesign(design.name, stages=design.stages,
                                                      modules=design.modules + (state.items[-1].id,), fuel=3)))
    craft = state.upgoers[-1].id
    state = engine.apply(state, WriteOrders(craft, ("shed:fuel", "high_transfer")))
    shed = False

    def shed_a_point_once(state, upgoer, legal):
        nonlocal shed
        if not shed and upgoer.id == craft and Shed(fuel=1) in legal:
            shed = True
            return Shed(fuel=1)  # a stamina point for the generator to give back
        return None

    def capsule_booms(state):
        roll = state.flight.roll
        return 20 if broken_capsule and roll.kind == "duration_capsule" and roll.upgoer == craft else None

    state = _fly_until(engine, state, lambda s: s.turn == 2 and s.phase == "rnd" and engine.current_player(s) == 0,
                       "the robot craft never reached turn 2", shed_a_point_once, capsule_booms)
    if not state.upgoer(craft).orders_open:
        raise RuntimeError("the robot craft was not recharged")
    if broken_capsule and not state.upgoer(craft).stranded:
        raise RuntimeError("the robot craft's capsule did not break")
    return engine, state


def _fly_until(engine, state, done, never: str, activity=None, die=None):
    """Play on from ``state`` until ``done(state)``: every die a 3 (a 1 to break a timing tie) unless
    ``die(state)`` names another, R&D ended, rolls accepted, craft launched, then moved on or coasting;
    ``activity(state, craft, legal)`` may pick an action of its own first. Raises RuntimeError(``never``) when
    2,000 actions do not get there."""
    for _ in range(2000):
        if done(state):
            return state
        flight = state.flight
        if engine.current_player(state) == CHANCE:
            value = die(state) if die is not None and flight.roll is not None else None
            state = engine.apply(state, Roll(value or (1 if flight.timing_tie else 3)))
            continue
        if state.phase == "rnd":
            state = engine.apply(state, EndRnD())
            continue
        if flight.roll is not None:
            state = engine.apply(state, AcceptRoll())
            continue
        legal = engine.legal_actions(state)
        upgoer = state.upgoer(flight.active)
        if flight.mode == "decide":
            state = engine.apply(state, Launch(upgoer.id))
            continue
        choice = activity(state, upgoer, legal) if activity is not None else None
        choice = choice or next((a for a in legal if isinstance(a, (Move, EndActivities))), None) or next(
            a for a in legal if type(a).__name__ == "Coast")
        state = engine.apply(state, choice)
    raise RuntimeError(never)


def shot_rnd_orders_recharged(app) -> None:
    """R&D's Other tab, turn 2: the clockwork craft recharged in flight, its orders open to be rewritten."""
    _engine, state = robot_recharged_state()
    flow = _flow(app, state)
    scene = flow.main_scene()
    scene.tab = "other"
    scene.relayout()
    settle(app, PAUSE)


def shot_rnd_orders_repair(app) -> None:
    """R&D's Other tab, turn 2: the clockwork craft stranded in Low Orbit with a broken capsule and recharged,
    its owner ordering the robots to jury-rig the capsule and then come home."""
    from game.games.whatgoesup.rules.underped_actions import WriteOrders

    engine, state = robot_recharged_state(broken_capsule=True)
    craft = next(u for u in state.upgoers if u.orders_open)
    capsule = next(i for i in state.items if i.location == craft.id and i.disabled)
    state = engine.apply(state, WriteOrders(craft.id, (f"jury_rig:{capsule.id}",)))
    flow = _flow(app, state)
    scene = flow.main_scene()
    scene.tab = "other"
    scene.form["o_burn"] = "reentry"
    scene.relayout()
    settle(app, PAUSE)


def shot_rnd_orders_rock(app) -> None:
    """R&D's Other tab in Stop The Rock with clockwork robots: the robot craft on the pad ordered out to the rock
    and to nudge it twice."""
    from game.games.whatgoesup.rules.underped_actions import WriteOrders

    engine, state, _ = robot_state(assemble=True, options=OPTIONS | {"underped_clockwork"}, rock=True)
    craft = state.upgoers[-1]
    state = engine.apply(state, WriteOrders(craft.id, ("high_transfer", "rock_transit", "rock_docking",
                                                       f"nudge:{craft.id}", f"nudge:{craft.id}")))
    flow = _flow(app, state)
    scene = flow.main_scene()
    scene.tab = "other"
    scene.form["o_burn"] = f"nudge:{craft.id}"
    scene.relayout()
    settle(app, PAUSE)


def _flow(app, state):
    from game.client.whatgoesup.game_flow import start_game

    session = GameSession(shipped_engine(), state.setup, SEED, states=(state,), saves_dir=Path(app.home) / "saves")
    flow = start_game(app.context, session)
    flow.holder = 0
    flow.show()
    return flow


def shot_new_game_underped(app) -> None:
    """New game with clockwork robots chosen (the underped rule comes along), its words under the rules."""
    from game.client.whatgoesup.entry import wire

    wire(app.context)
    app.start("title")
    app.context.open("new_game")
    scene = app.context.stack.top
    scene.on_button("option:underped_clockwork")
    settle(app, PAUSE)


def shot_rnd_underped(app) -> None:
    """R&D's Derps tab with a robot to program, and the manifest listing it."""
    _engine, state, _ = robot_state()
    flow = _flow(app, state)
    scene = flow.main_scene()
    scene.tab = "derps"
    scene.relayout()
    settle(app, PAUSE)


def shot_robot_hint(app) -> None:
    """The one-time hint over R&D after the program's first underped system is invented."""
    _engine, state, _ = robot_state(invent=False)
    flow = _flow(app, state)
    scene = flow.main_scene()
    scene.form.update(kind="underped", mass=1)
    scene.relayout()
    scene.do("invent")
    settle(app, PAUSE)


def shot_assembly_underped(app) -> None:
    """Assembly with the robot loaded into the capsule as a part."""
    from game.client.whatgoesup.assembly import AssemblyScene

    _engine, state, design = robot_state()
    flow = _flow(app, state)
    scene = app.context.stack.push(AssemblyScene(app.context, flow, 0))
    scene.load_design(design)
    settle(app, PAUSE)


def shot_rnd_orders(app) -> None:
    """R&D's Other tab with clockwork robots: the craft on the pad, its next burn and the orders written so far."""
    from game.games.whatgoesup.rules.underped_actions import WriteOrders

    engine, state, _ = robot_state(assemble=True, options=OPTIONS | {"underped_clockwork"})
    craft = state.upgoers[-1]
    state = engine.apply(state, WriteOrders(craft.id, ("high_transfer",)))
    flow = _flow(app, state)
    scene = flow.main_scene()
    scene.tab = "other"
    scene.relayout()
    settle(app, PAUSE)


def shot_field_underped(app) -> None:
    """The Field: the robot craft in Low Orbit with its own marker, its actions in the panel."""
    from game.tools.field_shots import open_field

    _engine, state = robot_in_orbit_state()
    session = GameSession(shipped_engine(), state.setup, SEED, states=(state,), saves_dir=Path(app.home) / "saves")
    open_field(app, session)
    settle(app, 0.6)


SIZES = ((1280, 720), (1920, 1080), (3840, 2160))
UNDERPED_SIZED_SHOTS = [(f"{name}_{w}x{h}", (w, h), build) for name, build in (
    ("new_game_underped", shot_new_game_underped), ("rnd_underped", shot_rnd_underped),
    ("robot_hint", shot_robot_hint), ("assembly_underped", shot_assembly_underped), ("rnd_orders", shot_rnd_orders),
    ("rnd_orders_recharged", shot_rnd_orders_recharged), ("rnd_orders_repair", shot_rnd_orders_repair),
    ("rnd_orders_rock", shot_rnd_orders_rock),
    ("field_underped", shot_field_underped)) for w, h in SIZES]
