"""Space War's ship-to-ship fights on The Field, for screenshots and UI tests (registered in ``shots.py``).

Bram's armed craft Otter (a Waylight for a laser, a probe for a missile) meets Ayla's Frog in Low Orbit on
turn 1 with Space War on; the shots open fire, show the fight's roll card with its exact odds, the dice
tumbling, and the hits waiting to be placed. Never imported by the game itself.
"""
from __future__ import annotations

from pathlib import Path
from typing import Optional

import pygame

from game.client.whatgoesup.shipped import shipped_engine
from game.core.session import GameSession
from game.games.whatgoesup.rules.actions import Assemble, EndRnD, Roll
from game.games.whatgoesup.rules.engine import CHANCE
from game.games.whatgoesup.rules.flight.ship_combat import OpenFire, ShipConserve, ShipFire
from game.games.whatgoesup.rules.flight_actions import AcceptRoll, Coast, EndActivities, Launch, Move
from game.games.whatgoesup.rules.scenario import give_derp, give_stock, give_thing
from game.games.whatgoesup.rules.state import PlayerSetup, Setup, UpgoerDesign

CRAFT = (("Ayla", "rabitians", "Frog", ("capsule", "thruster", "rcs", "cart"), ("Pip Frog",)),
         ("Bram", "merbs", "Otter", ("capsule", "thruster", "rcs", "waylight", "probe"), ("Zuzu Otter", "Kit Otter")))


def _give(state, rules, program: int, name: str, parts: tuple[str, ...], crew: tuple[str, ...]):
    masses = {"capsule": 14, "thruster": 4, "habitat": 4}
    modules = []
    for kind in parts:
        label = {"waylight": "Glimmer Waylight", "probe": "Pokey probe", "cart": "Rover cart", "capsule": f"{name} pod",
                 "thruster": f"{name} kicker", "rcs": f"{name} puffer"}.get(kind)  # named as players name them
        state, _, (item,) = give_thing(state, rules, program, kind, masses.get(kind, 1), "13/18", count=1, name=label)
        modules.append(item)
    state, _, stages = give_thing(state, rules, program, "lower_stage", 60, "13/18", count=3, name="Climber stage")
    derps = []
    for n, derp in enumerate(crew):
        state, d = give_derp(state, program, derp, piloting=2 + n % 2, engineering=2, stamina=4)
        derps.append(d)
    state = give_stock(state, program, fuel=12, rations=12)
    return state, UpgoerDesign(name=name, stages=((stages[0], stages[1]), (stages[2],)), modules=tuple(modules),
                               crew=tuple(derps), fuel=6, rations=2 * len(derps))


def ship_fight_state(engine):
    """Turn 1, both craft in Low Orbit, Otter (Bram's) at its activities after moving: it may open fire."""
    rules = engine.rules
    setup = Setup(players=tuple(PlayerSetup(p, people) for p, people, *_ in CRAFT), options=frozenset({"space_war"}))
    state = engine.new_game(setup)
    designs = []
    for program, (_, _, name, parts, crew) in enumerate(CRAFT):
        state, design = _give(state, rules, program, name, parts, crew)
        designs.append(design)
    for design in designs:
        state = engine.apply(state, Assemble(design))
        state = engine.apply(state, EndRnD())
    for _ in range(2000):
        flight = state.flight if state.phase == "flight" else None
        if flight is not None and flight.active and flight.roll is None and flight.mode == "after" \
                and state.upgoer(flight.active).name == "Otter":
            return state
        if engine.current_player(state) == CHANCE:
            state = engine.apply(state, Roll(1 if flight is not None and flight.timing_tie else 3))
            continue
        legal = engine.legal_actions(state)
        for kind in (Launch, AcceptRoll, Move, Coast, EndActivities):
            found = [a for a in legal if isinstance(a, kind)]
            if found:
                state = engine.apply(state, found[0])
                break
        else:
            raise RuntimeError(f"the ship fight demo has no obvious move among {legal}")
    raise RuntimeError("the ship fight demo did not reach Low Orbit")


def ship_fight_session(saves_dir: Optional[Path] = None, seed: int = 7, opened: bool = False) -> GameSession:
    """A session at Otter's choice (``opened``: it has opened fire on Frog and is choosing its weapons)."""
    engine = shipped_engine()
    state = ship_fight_state(engine)
    session = GameSession(engine, state.setup, seed, states=(state,), saves_dir=saves_dir)
    if opened:
        session.apply(OpenFire(next(u.id for u in state.upgoers if u.name == "Frog")))
    return session


def _field(app, session):
    from game.tools.field_shots import open_field

    scene = open_field(app, session)
    for _ in range(20):
        app.step(1 / 30, [])
    return scene


def _space(app) -> None:
    app.step(1 / 30, [pygame.event.Event(pygame.KEYDOWN, {"key": pygame.K_SPACE, "mod": 0, "unicode": " "})])


# ---------------------------------------------------------------- screenshots
def shot_ship_fight_open(app) -> None:
    """Otter's activities: 'Ship fight: open fire on Frog' among them."""
    _field(app, ship_fight_session(app.home / "shot-saves"))


def shot_ship_fight_weapons(app) -> None:
    """Fire opened: Otter chooses its weapons (the faster craft acts first)."""
    _field(app, ship_fight_session(app.home / "shot-saves", opened=True))


def shot_ship_fight_odds(app) -> None:
    """The missile's four dice at Frog's fighting mass, every result's exact chance before the roll."""
    session = ship_fight_session(app.home / "shot-saves", opened=True)
    session.apply(ShipFire("missile", 1))
    scene = _field(app, session)
    scene.session.dice.roll = lambda engine, state: Roll(2)  # a chosen result for the later pictures
    app.step(0.1, [])


def shot_ship_fight_rolling(app) -> None:
    session = ship_fight_session(app.home / "shot-saves", opened=True)
    session.apply(ShipFire("missile", 1))
    scene = _field(app, session)
    scene.session.dice.roll = lambda engine, state: Roll(2)
    _space(app)
    scene.roll_panel.show.animation.seek(scene.roll_panel.show.animation.duration * 0.5)
    app.step(0.0, [])


def shot_ship_fight_landed(app) -> None:
    session = ship_fight_session(app.home / "shot-saves", opened=True)
    session.apply(ShipFire("missile", 1))
    scene = _field(app, session)
    scene.session.dice.roll = lambda engine, state: Roll(2)
    _space(app)
    scene.roll_panel.show.animation.skip()
    app.step(0.05, [])


def shot_ship_fight_hits(app) -> None:
    """Two hits on Frog: Ayla places them, each button saying what the hit does."""
    session = ship_fight_session(app.home / "shot-saves", opened=True)
    session.apply(ShipFire("missile", 1))
    session.dice.roll = lambda engine, state: Roll(2)  # a chosen result for the picture
    session.roll()
    _field(app, session)
    app.step(0.1, [])


def shot_ship_fight_truce(app) -> None:
    """Round 1 is over with both craft still fighting: Otter, the faster, fights on or offers a ceasefire."""
    session = ship_fight_session(app.home / "shot-saves", opened=True)
    session.apply(ShipFire("laser", 1))
    session.dice.roll = lambda engine, state: Roll(0)  # a miss, and no heat die hurts anyone
    while session.state.flight.ship_fight.stage != "truce":
        if session.waiting_for_dice:
            session.roll()
        else:
            session.apply(ShipConserve())
    _field(app, session)
    app.step(0.1, [])


SHIP_FIGHT_SHOTS = [
    ("ship_fight_open", shot_ship_fight_open),
    ("ship_fight_weapons", shot_ship_fight_weapons),
    ("ship_fight_odds", shot_ship_fight_odds),
    ("ship_fight_rolling", shot_ship_fight_rolling),
    ("ship_fight_landed", shot_ship_fight_landed),
    ("ship_fight_hits", shot_ship_fight_hits),
    ("ship_fight_truce", shot_ship_fight_truce),
]
SHIP_FIGHT_SIZED_SHOTS = [
    (f"ship_fight_{what}_{w}x{h}", (w, h), build)
    for w, h in ((1920, 1080), (3840, 2160))
    for what, build in (("odds", shot_ship_fight_odds), ("landed", shot_ship_fight_landed),
                        ("hits", shot_ship_fight_hits), ("truce", shot_ship_fight_truce))
]
