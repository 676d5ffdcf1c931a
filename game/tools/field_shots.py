"""The Field in mid-game for screenshots, benchmarks and tests: a demo game with crafts in flight, and
the Field's screenshots (registered in ``shots.py``). Never imported by the game itself."""
from __future__ import annotations

from pathlib import Path
from typing import Optional

import pygame

from game.client.whatgoesup.field import FieldScene
from game.client.whatgoesup.shipped import shipped_engine
from game.core.session import GameSession
from game.games.whatgoesup.rules.actions import Roll
from game.games.whatgoesup.rules.engine import CHANCE
from game.games.whatgoesup.rules.flight_actions import Burn, Move


# ---------------------------------------------------------------- a game in mid-flight, for screenshots and tests

NAMES = ("Frog", "Otter", "Newt", "Moth")
PEOPLE = ("rabitians", "merbs", "goblins", "kobolds")
PLAYERS = ("Ayla", "Bram", "Cleo", "Dax")


def _give_craft(state, rules, program: int, name: str, derp_names: tuple[str, ...]):
    from game.games.whatgoesup.rules.scenario import give_derp, give_stock, give_thing
    from game.games.whatgoesup.rules.state import UpgoerDesign

    state, _, (capsule,) = give_thing(state, rules, program, "capsule", 6, "12/17", count=1, name=f"{name} capsule")
    state, _, (thruster,) = give_thing(state, rules, program, "thruster", 1, "11/17", count=1, name="Kicker thruster")
    state, _, (rcs,) = give_thing(state, rules, program, "rcs", 1, "12/17", count=1, name="Puffer RCS")
    state, _, (insertion,) = give_thing(state, rules, program, "lower_stage", 20, "12/17", count=1, name="Climber stage")
    state, _, (launch,) = give_thing(state, rules, program, "lower_stage", 40, "13/18", count=1, name="Big Boy stage")
    crew = []
    for n, derp in enumerate(derp_names):
        state, d = give_derp(state, program, derp, piloting=2 + n % 2, engineering=2, stamina=3)
        crew.append(d)
    state = give_stock(state, program, fuel=12, rations=12, luck=1)
    design = UpgoerDesign(name=name, stages=((launch,), (insertion,)), modules=(capsule, thruster, rcs),
                          crew=tuple(crew), fuel=8, rations=2 * len(crew))
    return state, design


def build_demo_state(engine, crafts_per_program: int = 1, players: int = 4, stop: str = "moves"):
    """A game in its third turn of flights with craft spread over The Field, every roll chosen.

    Turn 1 all launch into Low Orbit except the last program's first craft, which waits on the pad.
    Turn 2 the first craft burns for the High Transfer, the third coasts round, the last launches.
    Turn 3 stops with the second program's craft about to move (``stop="moves"``).
    """
    from game.games.whatgoesup.rules.actions import Assemble, EndRnD
    from game.games.whatgoesup.rules.flight_actions import AcceptRoll, Coast, EndActivities, Hold, Launch
    from game.games.whatgoesup.rules.state import PlayerSetup, Setup

    rules = engine.rules
    setup = Setup(players=tuple(PlayerSetup(PLAYERS[i], PEOPLE[i]) for i in range(players)))
    state = engine.new_game(setup)
    plans: dict[str, list[str]] = {}
    for p in range(players):
        for k in range(crafts_per_program):
            name = f"{NAMES[p]}-{k + 1}"
            state, design = _give_craft(state, rules, p, name, (f"{PLAYERS[p]}{k + 1}",) if k else
                                        (f"Pip {NAMES[p]}", f"Zuzu {NAMES[p]}") if p == 1 else (f"Pip {NAMES[p]}",))
            while engine.current_player(state) != p:
                state = engine.apply(state, EndRnD())
            state = engine.apply(state, Assemble(design))
            plans[name] = {0: ["burn:high_transfer", "coast"], 1: ["coast", "coast"],
                           2: ["coast", "burn:polar_1"], 3: ["coast", "coast"]}[(p + k) % 4]
        state = engine.apply(state, EndRnD())
    holding = {f"{NAMES[players - 1]}-1"}
    for _ in range(5000):
        if state.turn >= 3 and state.phase == "flight" and state.flight.stage == stop and state.flight.active \
                and state.flight.roll is None and state.upgoer(state.flight.active).owner == min(1, players - 1):
            return state
        player = engine.current_player(state)
        if player == CHANCE:
            state = engine.apply(state, Roll(1 if state.flight.timing_tie else 3))
            continue
        if state.phase == "rnd":
            state = engine.apply(state, EndRnD())
            continue
        flight = state.flight
        if flight.roll is not None:
            state = engine.apply(state, AcceptRoll())
            continue
        upgoer = state.upgoer(flight.active)
        legal = engine.legal_actions(state)
        if flight.mode == "decide":
            state = engine.apply(state, Hold(upgoer.id) if upgoer.name in holding and state.turn == 1
                                 else Launch(upgoer.id))
            continue
        if flight.mode == "junction":
            plan = plans.get(upgoer.name, ["coast"])
            want = plan.pop(0) if plan else "coast"
            burn = next((a for a in legal if isinstance(a, Burn) and not a.rcs and want == f"burn:{a.to}"), None)
            state = engine.apply(state, burn or Coast())
            continue
        choice = next((a for a in legal if isinstance(a, (Move, EndActivities))), legal[0])
        state = engine.apply(state, choice)
    raise RuntimeError("the demo game did not reach the wanted moment")


def demo_session(engine, crafts_per_program: int = 1, players: int = 4, saves_dir: Optional[Path] = None, seed: int = 7):
    """A GameSession over ``build_demo_state`` (its history starts at that state; it is for show)."""
    state = build_demo_state(engine, crafts_per_program, players)
    return GameSession(engine, state.setup, seed, states=(state,), saves_dir=saves_dir)


def open_field(app, session) -> "FieldScene":
    """Show ``session`` on The Field in ``app`` through a real GameFlow (hot-seat holder set)."""
    from game.client.whatgoesup.game_flow import GameFlow

    flow = GameFlow(app.context, session)
    flow.holder = flow.acting_program()
    app.stack.clear()
    scene = flow.show()
    return scene


# ---------------------------------------------------------------- screenshots (registered in shots.py)

def _shot_field(app, crafts_per_program: int = 1) -> "FieldScene":
    session = demo_session(shipped_engine(), crafts_per_program, saves_dir=app.home / "shot-saves")
    scene = open_field(app, session)
    for _ in range(20):
        app.step(1 / 30, [])
    return scene


def _drag_events(scene, start, end, release: bool) -> list:
    events = [pygame.event.Event(pygame.MOUSEBUTTONDOWN, {"pos": start, "button": 1}),
              pygame.event.Event(pygame.MOUSEMOTION, {"pos": end, "rel": (end[0] - start[0], end[1] - start[1]),
                                                      "buttons": (1, 0, 0)})]
    if release:
        events.append(pygame.event.Event(pygame.MOUSEBUTTONUP, {"pos": end, "button": 1}))
    return events


def _to_burn_roll(app, scene, value: Optional[int] = None) -> None:
    """Drag the active craft onto the polar orbit (move on, then burn) and fix the next die if asked."""
    uid = scene.session.state.flight.active
    start = tuple(int(v) for v in scene.markers.screen_pos[uid])
    end = tuple(int(v) for v in scene.board_view.step_screen("polar_1"))
    for event in _drag_events(scene, start, end, release=True):
        app.step(1 / 30, [event])
    if value is not None:
        scene.session.dice.roll = lambda engine, state: Roll(value)  # a chosen die for the picture


def shot_field_midgame(app) -> None:
    _shot_field(app, crafts_per_program=2)


def shot_field_drag(app) -> None:
    scene = _shot_field(app)
    uid = scene.session.state.flight.active
    start = tuple(int(v) for v in scene.markers.screen_pos[uid])
    end = tuple(int(v) for v in scene.board_view.step_screen("polar_1"))
    end = (end[0] + app.layout.px(6), end[1] + app.layout.px(4))
    for event in _drag_events(scene, start, end, release=False):
        app.step(1 / 30, [event])
    app.step(0.2, [])


def shot_field_dice_rolling(app) -> None:
    scene = _shot_field(app)
    _to_burn_roll(app, scene, 9)
    app.step(1 / 30, [pygame.event.Event(pygame.KEYDOWN, {"key": pygame.K_SPACE, "mod": 0, "unicode": " "})])
    scene.roll_panel.show.animation.seek(scene.roll_panel.show.animation.duration * 0.45)
    app.step(0.0, [])


def shot_field_roll_ready(app) -> None:
    scene = _shot_field(app)
    _to_burn_roll(app, scene)
    app.step(0.1, [])


def shot_field_roll_help(app) -> None:
    scene = _shot_field(app)
    _to_burn_roll(app, scene)
    fail = scene.session.state.flight.roll.effective().fail
    scene.session.dice.roll = lambda engine, state: Roll(fail + 1)
    space = pygame.event.Event(pygame.KEYDOWN, {"key": pygame.K_SPACE, "mod": 0, "unicode": " "})
    app.step(1 / 30, [space])
    app.step(1 / 30, [space])
    for _ in range(3):
        app.step(1 / 30, [])


def _to_rolled_boom(app, scene) -> None:
    """The burn's die lands on the thruster's Boom safety: the card offers the crew's stamina."""
    _to_burn_roll(app, scene)
    boom = scene.session.state.flight.roll.rating.boom
    scene.session.dice.roll = lambda engine, state: Roll(boom)
    space = pygame.event.Event(pygame.KEYDOWN, {"key": pygame.K_SPACE, "mod": 0, "unicode": " "})
    app.step(1 / 30, [space])
    app.step(1 / 30, [space])
    for _ in range(3):
        app.step(1 / 30, [])


def shot_field_roll_boom_help(app) -> None:
    scene = _shot_field(app)
    _to_rolled_boom(app, scene)


def shot_field_roll_moved(app) -> None:
    """After a Boom, one derp's Engineering has moved the roll to a Fail; Piloting may finish the job."""
    from game.games.whatgoesup.rules.flight_actions import UseSkill

    scene = _shot_field(app)
    _to_rolled_boom(app, scene)
    spend = next(a for a in scene.session.legal_actions() if isinstance(a, UseSkill) and a.skill == "engineering")
    scene.act(spend)
    for _ in range(3):
        app.step(1 / 30, [])


def shot_field_marker_card(app) -> None:
    scene = _shot_field(app)
    uid = scene.session.state.flight.active
    pos = tuple(int(v) for v in scene.markers.screen_pos[uid])
    app.step(1 / 30, [pygame.event.Event(pygame.MOUSEBUTTONDOWN, {"pos": pos, "button": 1})])
    app.step(1 / 30, [pygame.event.Event(pygame.MOUSEBUTTONUP, {"pos": pos, "button": 1})])
    scene._plan_route("sync_2")
    app.step(1 / 30, [])


def shot_field_zoomed(app) -> None:
    scene = _shot_field(app, crafts_per_program=2)
    scene.board_view.zoom_at(1.9, scene.board_view.step_screen("low_2"))
    app.step(1 / 30, [])


def _shot_effect(app, kind: str, step: Optional[str] = None, seconds: float = 0.45) -> None:
    """The Field a moment into a board effect: a real Boom roll, or a launch/landing started on ``step``."""
    scene = _shot_field(app)
    if kind == "boom":
        _to_burn_roll(app, scene, 19)
        scene.roll()
        for _ in range(150):
            app.step(1 / 30, [])
            if not scene.roll_panel.animating:
                break
        from game.games.whatgoesup.rules.flight_actions import AcceptRoll
        accept = next((a for a in scene.session.legal_actions() if isinstance(a, AcceptRoll)), None)
        if accept is not None:
            scene.act(accept)
        scene._after_roll_done()
    else:
        scene.effects.spawn(kind, scene.board_view.geometry.pos(step))
    for _ in range(int(seconds * 30)):
        app.step(1 / 30, [])


def shot_field_launch_effect(app) -> None:
    _shot_effect(app, "launch", app_launch_step(app))


def shot_field_boom_effect(app) -> None:
    _shot_effect(app, "boom")


def shot_field_landing_effect(app) -> None:
    _shot_effect(app, "landing", app_home_step(app), seconds=0.7)


def app_home_step(app) -> str:
    return shipped_engine().rules.board.home.id


def app_launch_step(app) -> str:
    return next(s.id for s in shipped_engine().rules.board.steps if s.kind == "launch")


def shot_field_board(app) -> None:
    """The whole Field at the window's size, at the default zoom: mid-game, two crafts per program, the
    craft in hand with its legal next steps lit."""
    _shot_field(app, crafts_per_program=2)


#: The board at each supported window size (name, size, builder): ``shots.SIZED_SHOTS`` takes these once each.
FIELD_SIZED_SHOTS = [
    ("field_board_1280x720", (1280, 720), shot_field_board),
    ("field_board_1920x1080", (1920, 1080), shot_field_board),
    ("field_board_3840x2160", (3840, 2160), shot_field_board),
]

FIELD_SHOTS = [
    ("field_midgame", shot_field_midgame),
    ("field_launch_effect", shot_field_launch_effect),
    ("field_boom_effect", shot_field_boom_effect),
    ("field_landing_effect", shot_field_landing_effect),
    ("field_drag", shot_field_drag),
    ("field_roll_ready", shot_field_roll_ready),
    ("field_dice_rolling", shot_field_dice_rolling),
    ("field_roll_help", shot_field_roll_help),
    ("field_roll_boom_help", shot_field_roll_boom_help),
    ("field_roll_moved", shot_field_roll_moved),
    ("field_marker_card", shot_field_marker_card),
    ("field_zoomed", shot_field_zoomed),
]
