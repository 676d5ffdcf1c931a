"""Stop The Rock and victory conditions in pictures (and the states the UI tests start from).

The states are built with ``game.games.whatgoesup.rules.scenario`` helpers (ready-made craft placed in space) and
played on through the engine, so every screen shows a game the rules could really reach (the
clock is only moved on to make a long game short). ``shots.SHOTS`` lists ``ROCK_SHOTS``.
"""
from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Optional

from game.games.whatgoesup.rules.actions import EndRnD, Roll
from game.games.whatgoesup.rules.engine import CHANCE
from game.games.whatgoesup.rules.flight_actions import AcceptRoll, Coast, EndActivities, Launch, Move, Nudge
from game.games.whatgoesup.rules.scenario import give_derp, give_stock, give_thing, place_in_space
from game.games.whatgoesup.rules.state import PlayerSetup, Setup, UpgoerDesign
from game.core.session import GameSession

from game.client.whatgoesup.game_flow import shipped_engine

OK = 1  # every part here is 19/20: a 1 works on any of the game's dice
NAMES = (("Hop Agency", "rabitians"), ("Spud Space", "merbs"), ("Kaboom Works", "goblins"), ("Coldsnap", "kobolds"))


def rock_setup(players: int = 1, difficulty: Optional[str] = None) -> Setup:
    return Setup(tuple(PlayerSetup(n, p) for n, p in NAMES[:players]), turn_limit=None, scenario="stop_the_rock",
                 difficulty=difficulty)


def with_rock(state, **changes):
    return dataclasses.replace(state, rock=dataclasses.replace(state.rock, **changes))


def craft(engine, state, program: int, name: str, step: str, pilot: str, fuel: int = 10, rations: int = 4,
          waylight: bool = False):
    """A crewed craft (capsule, thruster, RCS, maybe a Waylight) placed straight at ``step``."""
    rules = engine.rules
    state, _, cap = give_thing(state, rules, program, "capsule", 6, "19/20", count=1, name=f"{name} pod")
    state, _, th = give_thing(state, rules, program, "thruster", 2, "19/20", count=1, name=f"{name} engine")
    state, _, rcs = give_thing(state, rules, program, "rcs", 1, "19/20", count=1, name=f"{name} puffer")
    modules = [cap[0], th[0], rcs[0]]
    if waylight:
        state, _, w = give_thing(state, rules, program, "waylight", 1, "19/20", count=1, name=f"{name} light")
        modules.append(w[0])
    state, derp = give_derp(state, program, pilot, piloting=2, engineering=1, stamina=4)
    state = give_stock(state, program, fuel=fuel, rations=rations)
    design = UpgoerDesign(name, modules=tuple(modules), crew=(derp,), fuel=fuel, rations=rations)
    return place_in_space(state, engine, program, design, step)


def _settle(engine, state, value: int = OK):
    while state.phase == "flight":
        if engine.current_player(state) == CHANCE:
            state = engine.apply(state, Roll(value))
        elif state.flight.roll is not None:
            state = engine.apply(state, AcceptRoll())
        else:
            break
    return state


def drive(engine, states: list, upgoer_id: str, mode: str) -> list:
    """Play the flight phase on (working rolls, moving on) until ``upgoer_id`` is active in ``mode``."""
    for _ in range(300):
        state = states[-1]
        if engine.current_player(state) == CHANCE or (state.phase == "flight" and state.flight.roll is not None):
            action = Roll(OK if not state.flight or not state.flight.timing_tie else 1) \
                if engine.current_player(state) == CHANCE else AcceptRoll()
            states.append(engine.apply(state, action))
            continue
        if state.phase == "rnd":
            states.append(engine.apply(state, EndRnD()))
            continue
        f = state.flight
        if f.active == upgoer_id and f.mode == mode:
            return states
        action = {"before": Move(f.active), "after": EndActivities(f.active), "junction": Coast(),
                  "decide": Launch(f.active)}.get(f.mode)
        states.append(engine.apply(state, action))
    raise RuntimeError("the rock game never reached the wanted moment")


def rock_field_states(engine=None, players: int = 1, turns_left: int = 12, nudge_total: int = 4) -> list:
    """Flights of a Stop The Rock game: one craft chasing the rock along its track, one landed on it
    and about to act (so Nudge is offered)."""
    engine = engine or shipped_engine()
    state = engine.new_game(rock_setup(players))
    if state.rock.drift_pending:
        state = engine.apply(state, Roll(10))
    state = with_rock(state, turns_left=turns_left, nudge_total=nudge_total, nudges=1 if nudge_total else 0,
                      last_drift=10)
    state, chaser = craft(engine, state, 0, "Rockhopper", "rock_transit", "Pip Hop")
    state, pusher = craft(engine, state, 0, "Bumper", "rock_surface", "Zuzu Hop", fuel=9)
    if players > 1:
        state, _ = craft(engine, state, 1, "Spudnik", "rock_libration", "Mash Spud")
    states = [state]
    return drive(engine, states, pusher, "before")


def rock_session(saves_dir: Path, engine=None, players: int = 1, **kw) -> GameSession:
    engine = engine or shipped_engine()
    states = rock_field_states(engine, players, **kw)
    return GameSession(engine, states[0].setup, 7, states=tuple(states), saves_dir=saves_dir)


def rock_rnd_session(saves_dir: Path, engine=None) -> GameSession:
    """Turn 3 R&D of a solo Stop The Rock game, the rock's D20 rolled."""
    engine = engine or shipped_engine()
    session = GameSession.new(engine, rock_setup(1), 41, saves_dir=saves_dir)
    for _ in range(100):
        if session.waiting_for_dice:
            session.roll()
        elif session.state.turn >= 3:
            break
        else:
            session.apply(EndRnD())
    return session


def _finish(engine, states: list) -> list:
    """Play the rest of the turn with working rolls."""
    for _ in range(400):
        state = states[-1]
        if state.phase != "flight":  # the turn (or the game) is over
            return states
        if engine.current_player(state) == CHANCE:
            states.append(engine.apply(state, Roll(OK)))
            continue
        if state.flight.roll is not None:
            states.append(engine.apply(state, AcceptRoll()))
            continue
        f = state.flight
        action = {"before": Move(f.active), "after": EndActivities(f.active), "junction": Coast(),
                  "decide": Launch(f.active)}.get(f.mode)
        states.append(engine.apply(state, action))
    return states


def saved_session(saves_dir: Path, engine=None) -> GameSession:
    """A world saved by two nudges with 12 turns to spare; the story then skips to the rock flying by."""
    engine = engine or shipped_engine()
    states = rock_field_states(engine, turns_left=12, nudge_total=0)
    pusher = states[-1].flight.active
    for _ in range(4):
        if states[-1].rock.saved:
            break
        states.append(engine.apply(states[-1], Nudge(pusher)))
        states.append(engine.apply(states[-1], Roll(OK)))
        if states[-1].flight is not None and states[-1].flight.roll is not None:
            states.append(engine.apply(states[-1], AcceptRoll()))
    assert states[-1].rock.saved, "the nudges should have saved the world"
    # the long wait for the rock to fly by, skipped: the last turn before it passes
    states[-1] = dataclasses.replace(with_rock(states[-1], turns_left=1), turn=12)
    states = _finish(engine, states)
    return GameSession(engine, states[0].setup, 7, states=tuple(states), saves_dir=saves_dir)


def saved_crew_out_session(saves_dir: Path, engine=None) -> tuple[GameSession, int]:
    """A solo game nudged to safety with 12 turns to spare, that turn played out: the game goes on with two
    derps still in space (one on the rock, one on its track). Returns the session and the turn of the save."""
    engine = engine or shipped_engine()
    states = rock_field_states(engine, turns_left=12, nudge_total=0)
    pusher = states[-1].flight.active
    while not states[-1].rock.saved:
        states.append(engine.apply(states[-1], Nudge(pusher)))
        states.append(engine.apply(states[-1], Roll(OK)))
        if states[-1].flight is not None and states[-1].flight.roll is not None:
            states.append(engine.apply(states[-1], AcceptRoll()))
    turn = states[-1].turn
    states = _finish(engine, states)
    return GameSession(engine, states[0].setup, 7, states=tuple(states), saves_dir=saves_dir), turn


def impact_session(saves_dir: Path, engine=None) -> GameSession:
    """The last turn before impact, too few nudges: the rock hits."""
    engine = engine or shipped_engine()
    states = rock_field_states(engine, turns_left=1, nudge_total=9)
    states = _finish(engine, states)
    return GameSession(engine, states[0].setup, 7, states=tuple(states), saves_dir=saves_dir)


def race_session(saves_dir: Path, victory: str = "one_small_step", engine=None) -> GameSession:
    """The Field mid-game (the demo race) with a chosen victory condition."""
    from game.tools.field_shots import build_demo_state

    engine = engine or shipped_engine()
    state = build_demo_state(engine, 1, players=3)
    state = dataclasses.replace(state, setup=dataclasses.replace(state.setup, victory=victory))
    return GameSession(engine, state.setup, 7, states=(state,), saves_dir=saves_dir)


# ---------------------------------------------------------------- the shots

def _step(app, seconds: float = 0.4) -> None:
    for _ in range(int(seconds * 30)):
        app.step(1 / 30, [])


def _show(app, session, holder: Optional[int] = 0):
    from game.client.whatgoesup.game_flow import GameFlow

    flow = GameFlow(app.context, session)
    flow.holder = holder if holder is not None else flow.acting_program()
    flow.reported_turn = session.state.turn
    flow.final_reported = session.over
    app.stack.clear()
    flow.show()
    return flow


def shot_stop_the_rock_field(app) -> None:
    _show(app, rock_session(app.home / "shot-saves"))
    _step(app)


def shot_stop_the_rock_rnd(app) -> None:
    _show(app, rock_rnd_session(app.home / "shot-saves"))
    _step(app)


def rock_first_turn_session(saves_dir: Path, engine=None, players: int = 1) -> GameSession:
    """Turn 1 of a new Stop The Rock game, the rock's first drift die rolled: the first R&D is next."""
    session = GameSession.new(engine or shipped_engine(), rock_setup(players), 41, saves_dir=saves_dir)
    while session.waiting_for_dice:
        session.roll()
    return session


def shot_stop_the_rock_first_turn(app) -> None:
    _show(app, rock_first_turn_session(app.home / "shot-saves"))
    _step(app)


def shot_victory_screen(app) -> None:
    _show(app, saved_session(app.home / "shot-saves"))
    _step(app)


def shot_impact_screen(app) -> None:
    _show(app, impact_session(app.home / "shot-saves"))
    _step(app)


def shot_saved_report(app) -> None:
    """The report of the turn the world was saved, the crew still out: what saved it and what is left to do."""
    session, turn = saved_crew_out_session(app.home / "shot-saves")
    flow = _show(app, session)
    flow.reported_turn = turn  # as the flow keeps it when the next turn starts: that turn's report shows
    flow.show()
    _step(app)


def shot_new_game_stop_the_rock(app) -> None:
    from game.client.whatgoesup.entry import wire

    wire(app.context)
    app.start("title")
    scene = app.context.open("new_game")
    scene.on_button("mode:stop_the_rock")
    # the default two seats: two programs working together
    _step(app, 0.3)


def shot_race_status(app) -> None:
    _show(app, race_session(app.home / "shot-saves"), holder=None)
    _step(app)


ROCK_SHOTS = [
    ("stop_the_rock_field", shot_stop_the_rock_field),
    ("stop_the_rock_rnd", shot_stop_the_rock_rnd),
    ("stop_the_rock_first_turn", shot_stop_the_rock_first_turn),
    ("stop_the_rock_saved_report", shot_saved_report),
    ("victory_screen", shot_victory_screen),
    ("impact_screen", shot_impact_screen),
    ("new_game_stop_the_rock", shot_new_game_stop_the_rock),
    ("race_status", shot_race_status),
]
