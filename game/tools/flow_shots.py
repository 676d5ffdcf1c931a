"""Screenshot builders (and test helpers) for the game-flow scenes: a scripted two-program game
played through ``GameSession`` only, then photographed at interesting moments.

``shots.SHOTS`` lists these builders; the tests reuse ``scripted_session`` and ``fly_turn``.
"""
from __future__ import annotations

from pathlib import Path
from typing import Optional

from game.games.whatgoesup.rules.actions import Assemble, Build, BuyConsumables, EndRnD, Hire, Invent, Research
from game.games.whatgoesup.rules.state import PlayerSetup, Setup, UpgoerDesign
from game.core.session import GameSession

from game.client.whatgoesup.game_flow import GameFlow, shipped_engine
from game.tools.settle import settle

#: Seconds a flow shot's app runs before it is photographed (9 frames; a builder may ask for more or less).
PAUSE = 0.3

SEED = 20140507
PREFERRED = ("Launch", "AcceptRoll", "ChooseConsequence", "Coast", "Move", "EndActivities")


def scripted_setup(options: frozenset[str] = frozenset()) -> Setup:
    return Setup(players=(PlayerSetup("Hop Agency", "rabitians"), PlayerSetup("Spud Space", "merbs")),
                 options=options, turn_limit=10)


def scripted_session(saves_dir: Path, assemble: bool = False) -> GameSession:
    """Turn 2, Hop Agency's R&D: three blueprints, built parts, a researched capsule, two derps."""
    session = GameSession.new(shipped_engine(), scripted_setup(), SEED, saves_dir=saves_dir)
    for action in (Invent("lower_stage", 6, "Big Hopper"), Invent("lower_stage", 3, "Little Hopper"),
                   Invent("capsule", 2, "Burrow Pod"), Hire(), EndRnD(),
                   Invent("lower_stage", 4, "Mash Masher"), Hire(), Build("T5"), EndRnD()):
        session.apply(action)
    ids = {t.name: t.id for t in session.state.things}
    for action in (Build(ids["Big Hopper"]), Build(ids["Little Hopper"]), Build(ids["Burrow Pod"]),
                   Research(ids["Burrow Pod"], "fail", 3), Invent("thruster", 1, "Puffer"), Hire("Clover"),
                   BuyConsumables("fuel", 2)):
        session.apply(action)
    if assemble:
        session.apply(Assemble(valid_design(session)))
    return session


def valid_design(session: GameSession) -> UpgoerDesign:
    """A crewed two-stage Upgoer from the scripted storage."""
    state = session.state
    by_name = {state.thing(i.thing_id).name: i.id for i in state.items_of(0)}
    crew = next(d.id for d in state.derps_of(0) if d.can_fly)
    return UpgoerDesign("Moonhop 1", stages=((by_name["Big Hopper"],), (by_name["Little Hopper"],)),
                        modules=(by_name["Burrow Pod"],), crew=(crew,))


def fly_turn(session: GameSession, limit: int = 400) -> None:
    """Finish every R&D and play the flights with a simple policy until the turn ends."""
    turn = session.state.turn
    for _ in range(limit):
        if session.over or session.state.turn != turn:
            return
        if session.waiting_for_dice:
            session.roll()
            continue
        legal = session.legal_actions()
        if session.state.phase == "rnd" and session.state.pending_trade is None:
            session.apply(EndRnD())
            continue
        legal.sort(key=lambda a: PREFERRED.index(type(a).__name__) if type(a).__name__ in PREFERRED else 99)
        session.apply(legal[0])


def _flow(app, session: GameSession, holder: Optional[int] = 0) -> GameFlow:
    from game.client.whatgoesup.game_flow import start_game

    flow = start_game(app.context, session)
    if holder is not None:
        flow.holder = holder
    flow.show()
    return flow


def shot_new_game(app) -> None:
    from game.client.whatgoesup.entry import wire

    wire(app.context)
    app.start("title")
    app.context.open("new_game")
    settle(app, PAUSE)


def shot_new_game_2013(app) -> None:
    """New game with the 2013 edition chosen: its button lit and its summary in the header."""
    shot_new_game(app)
    app.context.stack.top.on_button("edition:2013")
    settle(app, PAUSE)


def shot_rnd(app) -> None:
    flow = _flow(app, scripted_session(app.home / "saves"))
    flow.main_scene().tab = "research"
    flow.main_scene().form["r_thing"] = "T3"
    flow.main_scene().relayout()
    settle(app, PAUSE)


def shot_rnd_refusal(app) -> None:
    flow = _flow(app, scripted_session(app.home / "saves"))
    scene = flow.main_scene()
    scene.form.update(kind="capsule", mass=12)
    scene.relayout()
    scene.do("invent")
    settle(app, PAUSE)


def shot_rnd_pad(app) -> None:
    """R&D's Other tab with an Upgoer on the pad, drawn beside 'Take apart'."""
    flow = _flow(app, scripted_session(app.home / "saves", assemble=True))
    flow.main_scene().tab = "other"
    flow.main_scene().relayout()
    settle(app, PAUSE)


def shot_assembly_valid(app) -> None:
    flow = _flow(app, scripted_session(app.home / "saves"))
    from game.client.whatgoesup.assembly import AssemblyScene

    scene = app.context.stack.push(AssemblyScene(app.context, flow, 0))
    scene.load_design(valid_design(flow.session))
    settle(app, PAUSE)


def shot_assembly_problems(app) -> None:
    flow = _flow(app, scripted_session(app.home / "saves"))
    from game.client.whatgoesup.assembly import AssemblyScene

    scene = app.context.stack.push(AssemblyScene(app.context, flow, 0))
    design = valid_design(flow.session)
    state = flow.session.state
    crew = tuple(d.id for d in state.derps_of(0))
    scene.load_design(UpgoerDesign("Overloaded", stages=(design.stages[1],), modules=design.modules,
                                   crew=crew, fuel=5, planned_burns=2))
    settle(app, PAUSE)


def _assembly_with_thruster(app):
    """The assembly scene over a scripted game whose thruster is built (so fuel has something to burn)."""
    from game.client.whatgoesup.assembly import AssemblyScene

    session = scripted_session(app.home / "saves")
    puffer = next(t for t in session.state.things_of(0) if t.name == "Puffer")
    session.apply(Build(puffer.id))
    flow = _flow(app, session)
    return app.context.stack.push(AssemblyScene(app.context, flow, 0))


def shot_assembly_picture(app) -> None:
    """A crewed orbiter with a thruster and fuel: every label of the rocket picture."""
    import dataclasses

    scene = _assembly_with_thruster(app)
    state = scene.state
    design = valid_design(scene.flow.session)
    puffer = next(i.id for i in state.items_of(0) if state.thing(i.thing_id).name == "Puffer")
    scene.load_design(dataclasses.replace(design, modules=design.modules + (puffer,), fuel=2, planned_burns=2))
    settle(app, PAUSE)


def shot_assembly_drag(app) -> None:
    """A lower stage dragged from storage over the rocket's insertion slot."""
    import pygame

    scene = _assembly_with_thruster(app)
    state = scene.state
    by_name = {state.thing(i.thing_id).name: i.id for i in state.items_of(0)}
    pod = by_name["Burrow Pod"]
    crew = next(d.id for d in state.derps_of(0) if d.can_fly)
    scene.load_design(UpgoerDesign("Moonhop 1", stages=((by_name["Big Hopper"],),), modules=(pod,), crew=(crew,)))
    settle(app, 0.1)
    start = scene.row_images[by_name["Little Hopper"]][1].rect.center
    launch = scene.picture().zones["launch"]
    end = (launch.centerx + 10, launch.top - launch.h // 4)
    app.step(1 / 30, [pygame.event.Event(pygame.MOUSEBUTTONDOWN, {"pos": start, "button": 1})])
    for pos in (((start[0] + end[0]) // 2, (start[1] + end[1]) // 2), end):
        app.step(1 / 30, [pygame.event.Event(pygame.MOUSEMOTION, {"pos": pos, "rel": (0, 0), "buttons": (1, 0, 0)})])
    settle(app, 0.1)


def shot_pass_device(app) -> None:
    session = scripted_session(app.home / "saves")
    session.apply(EndRnD())
    _flow(app, session, holder=0)
    settle(app, PAUSE)


def shot_trade(app) -> None:
    flow = _flow(app, scripted_session(app.home / "saves"))
    from game.client.whatgoesup.trade import TradeScene

    scene = app.context.stack.push(TradeScene(app.context, flow, 0))
    scene.amounts["give"]["points"] = 3
    scene.picked["take"].add(("blueprint", "T5"))
    scene.relayout()
    settle(app, PAUSE)


def shot_trade_answer(app) -> None:
    from game.games.whatgoesup.rules.actions import OfferTrade
    from game.games.whatgoesup.rules.state import TradeBundle

    session = scripted_session(app.home / "saves")
    session.apply(OfferTrade(1, TradeBundle(points=3, fuel=1), TradeBundle(blueprints=("T5",))))
    _flow(app, session, holder=1)
    settle(app, PAUSE)


def shot_log(app) -> None:
    session = scripted_session(app.home / "saves", assemble=True)
    fly_turn(session)
    flow = _flow(app, session)
    flow.reported_turn = session.state.turn
    flow.show()
    flow.open_log()
    settle(app, PAUSE)


def shot_report(app) -> None:
    session = scripted_session(app.home / "saves", assemble=True)
    fly_turn(session)
    flow = _flow(app, session)
    flow.reported_turn = session.state.turn - 1
    flow.show()
    settle(app, PAUSE)


def shot_flight_panel(app) -> None:
    session = scripted_session(app.home / "saves", assemble=True)
    session.apply(EndRnD())
    session.apply(EndRnD())
    flow = GameFlow(app.context, session)
    flow.holder = 0
    from game.client.whatgoesup.game_flow import FlightPanelScene

    app.context.stack.clear()
    scene = FlightPanelScene(app.context, flow)
    scene.view = ("flight",)
    app.context.stack.push(scene)
    settle(app, PAUSE)


def shot_load_corrupt(app) -> None:
    from game.core.savefolder import candidates

    folder = app.home  # What Goes Up's saves live in the home folder itself, beside the settings and the log
    for _stat, old in candidates(folder):  # the shot at another size in this throw-away home left its own
        old.unlink()
    session = scripted_session(folder)
    session.save(folder / "hop-agency-turn-2.json")
    (folder / "broken-on-the-pad.json").write_text('{"format": "whatgoesup-save", "version": 1, "acti', "utf-8")
    from game.client.scenes.saveload import LoadScene

    app.start("title")
    app.context.stack.push(LoadScene(app.context, folder=folder))
    settle(app, PAUSE)


def finished_session(saves_dir: Path) -> GameSession:
    """A two-program game with a one-turn limit, played to its end (for the game-over screen)."""
    import dataclasses

    setup = dataclasses.replace(scripted_setup(), turn_limit=1)
    session = GameSession.new(shipped_engine(), setup, SEED, saves_dir=saves_dir)
    for action in (Invent("lower_stage", 6, "Big Hopper"), Hire(), EndRnD(), Invent("capsule", 2, "Spud Pod"),
                   EndRnD()):
        session.apply(action)
    fly_turn(session)
    return session


def shot_game_over(app) -> None:
    session = finished_session(app.home / "saves")
    _flow(app, session)
    settle(app, PAUSE)


def shot_pause_menu(app) -> None:
    flow = _flow(app, scripted_session(app.home / "saves"))
    flow.open_menu()
    settle(app, PAUSE)


def shot_rnd_glossary(app) -> None:
    """R&D on the research tab with the pointer resting on 'Boom to Fail': the glossary's tooltip."""
    import pygame

    shot_rnd(app)
    button = app.context.stack.top.buttons["set:r_safety:boom"]
    pygame.mouse.set_pos(button.rect.center)
    settle(app, 1.0)


FLOW_SHOTS = [
    ("new_game", shot_new_game),
    ("new_game_2013", shot_new_game_2013),
    ("rnd", shot_rnd),
    ("rnd_refusal", shot_rnd_refusal),
    ("rnd_glossary", shot_rnd_glossary),
    ("rnd_pad", shot_rnd_pad),
    ("assembly_valid", shot_assembly_valid),
    ("assembly_problems", shot_assembly_problems),
    ("assembly_picture", shot_assembly_picture),
    ("assembly_drag", shot_assembly_drag),
    ("pass_device", shot_pass_device),
    ("trade", shot_trade),
    ("trade_answer", shot_trade_answer),
    ("flight_panel", shot_flight_panel),
    ("log", shot_log),
    ("turn_report", shot_report),
    ("load_corrupt", shot_load_corrupt),
    ("game_over", shot_game_over),
    ("pause_menu", shot_pause_menu),
]
