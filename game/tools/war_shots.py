"""Space War on The Field for screenshots and tests: two rival crafts meeting in low orbit with the
``space_war`` option on, a docking against one's will waiting for its answer, and a derp fight mid-roll.
Registered in ``shots.py``; never imported by the game itself."""
from __future__ import annotations

from typing import Optional

from game.client.whatgoesup.shipped import shipped_engine
from game.core.session import GameSession
from game.games.whatgoesup.rules.actions import Roll
from game.games.whatgoesup.rules.engine import CHANCE
from game.tools.field_shots import NAMES, PEOPLE, PLAYERS, _give_craft, open_field


def build_rivals_state(engine, players: int = 2, turn_limit: Optional[int] = 20, computers: tuple[int, ...] = ()):
    """Ayla's Frog-1 (two derps) and Bram's Otter-1 (two derps) in Low Orbit at the same step, turn 1, with
    Space War on; Otter-1 has just arrived and its activities are open. A third program (``players`` 3) has
    no craft. The programs in ``computers`` are computer players."""
    from game.games.whatgoesup.rules.actions import Assemble, EndRnD
    from game.games.whatgoesup.rules.flight_actions import AcceptRoll, EndActivities, Launch
    from game.games.whatgoesup.rules.state import PlayerSetup, Setup

    setup = Setup(players=tuple(PlayerSetup(PLAYERS[i], PEOPLE[i], human=i not in computers) for i in range(players)),
                  options=frozenset({"space_war"}), turn_limit=turn_limit)
    state = engine.new_game(setup)
    crews = {0: ("Pip Frog", "Zuzu Frog"), 1: ("Mo Otter", "Kit Otter")}
    for p in range(players):
        if p in crews:
            state, design = _give_craft(state, engine.rules, p, f"{NAMES[p]}-1", crews[p])
            state = engine.apply(state, Assemble(design))
        state = engine.apply(state, EndRnD())
    frog, otter = (u.id for u in state.upgoers)
    for _ in range(200):
        flight = state.flight
        if flight.active == otter and flight.mode == "after" and engine.current_player(state) != CHANCE:
            return state
        if flight.timing_tie:
            state = engine.apply(state, Roll(flight.timing_tie.index(frog) + 1 if frog in flight.timing_tie else 1))
        elif engine.current_player(state) == CHANCE:
            state = engine.apply(state, Roll(1))
        elif flight.roll is not None:
            state = engine.apply(state, AcceptRoll())
        elif flight.mode == "decide":
            state = engine.apply(state, Launch(flight.active))
        else:
            state = engine.apply(state, EndActivities(flight.active))
    raise RuntimeError("the rival crafts did not meet")


def build_fight_state(engine, first_die: Optional[int] = 14):
    """The rivals of ``build_rivals_state`` in a derp fight Otter-1's crew started: Mo and Pip go for each
    other, Kit gangs up on Pip, Zuzu goes for Kit; the first pair's first die shows ``first_die`` (None: none
    rolled yet)."""
    from game.games.whatgoesup.rules.flight_actions import PickEnemy, StartFight

    state = build_rivals_state(engine)
    frog = state.upgoers[0].id
    state = engine.apply(state, StartFight(frog))
    derp = {d.name.split()[0]: d.id for d in state.derps}
    for who, whom in (("Mo", "Pip"), ("Kit", "Pip"), ("Pip", "Mo"), ("Zuzu", "Kit")):
        state = engine.apply(state, PickEnemy(derp[who], derp[whom]))
    if first_die is not None:
        state = engine.apply(state, Roll(first_die))
    return state


def open_war_ending_states(engine) -> list:
    """Three programs, one turn: Bram's crew beats Pip Frog twice (injured, then dead), the war between Ayla
    and Bram turns open, and the game ends with Cleo, who stayed out of it, the winner."""
    from game.games.whatgoesup.rules.flight_actions import PickEnemy, StartFight
    from game.tools.rock_shots import _finish

    states = [build_rivals_state(engine, players=3, turn_limit=1)]
    frog = states[-1].upgoers[0].id
    derp = {d.name.split()[0]: d.id for d in states[-1].derps}
    for picks, dice in (((("Mo", "Pip"), ("Kit", "Pip"), ("Pip", "Mo"), ("Zuzu", "Kit")), (20, 1, 20, 1, 1, 1)),
                        ((("Mo", "Pip"), ("Kit", "Pip"), ("Zuzu", "Kit")), (20, 1, 20, 1, 1, 1))):
        states.append(engine.apply(states[-1], StartFight(frog)))
        for who, whom in picks:
            states.append(engine.apply(states[-1], PickEnemy(derp[who], derp[whom])))
        for value in dice:
            states.append(engine.apply(states[-1], Roll(value)))
    assert states[-1].at_open_war(0), "the second beating should kill Pip and open the war"
    states = _finish(engine, states)
    assert states[-1].phase == "over"
    return states


def build_boarding_state(engine, computers: tuple[int, ...] = ()):
    """Otter-1 has docked with Frog-1 against its will: Frog-1's program must push it off or let it stand."""
    from game.games.whatgoesup.rules.flight_actions import Dock

    state = build_rivals_state(engine, computers=computers)
    frog, otter = state.upgoers[0].id, state.upgoers[1].id
    pilot = next(d for d in state.derps if d.location == otter and d.piloting >= 2)
    state = engine.apply(state, Dock(frog, pilot.id))
    return engine.apply(state, Roll(1))


def _open(app, state):
    session = GameSession(shipped_engine(), state.setup, 7, states=(state,), saves_dir=app.home / "shot-saves")
    scene = open_field(app, session)
    for _ in range(20):
        app.step(1 / 30, [])
    return scene


def shot_war_fight_dice(app) -> None:
    """A derp fight's card just after the first pair settled (its result on the card): the second pair, Kit
    ganging up on Pip, with the exact odds before Kit's die."""
    engine = shipped_engine()
    _open(app, engine.apply(build_fight_state(engine, first_die=14), Roll(3)))


def _roll_fight_die(app, scene, value: int, seconds: Optional[float]) -> None:
    """Roll the fight's waiting die as ``value`` with Space, then let the dice tumble ``seconds`` (None: until
    they land)."""
    import pygame

    scene.session.dice.roll = lambda engine, state: Roll(value)
    app.step(1 / 30, [pygame.event.Event(pygame.KEYDOWN, {"key": pygame.K_SPACE, "mod": 0, "unicode": " ",
                                                          "scancode": 0})])
    frames = int((seconds if seconds is not None else 3.0) * 30)
    for _ in range(frames):
        app.step(1 / 30, [])


def shot_war_fight_tumble(app) -> None:
    """A fight's second die tumbling: Mo's 14 is down, Pip's die spins beside it."""
    engine = shipped_engine()
    scene = _open(app, build_fight_state(engine, first_die=14))
    _roll_fight_die(app, scene, 3, 0.5)


def shot_war_fight_result(app) -> None:
    """The first pair settled on the card: Mo's 14 against Pip's 3, who takes a beating and what each loses."""
    engine = shipped_engine()
    scene = _open(app, build_fight_state(engine, first_die=14))
    _roll_fight_die(app, scene, 3, None)


def shot_war_fight_over(app) -> None:
    """The last pair's card after the fight: its result and how every derp came out of it, until Continue."""
    engine = shipped_engine()
    state = build_fight_state(engine, first_die=14)
    for value in (3, 11, 9, 6):
        state = engine.apply(state, Roll(value))
    scene = _open(app, state)
    _roll_fight_die(app, scene, 17, None)


def shot_war_fight_picks(app) -> None:
    """A derp fight starting: the side panel offers Mo's enemies."""
    from game.games.whatgoesup.rules.flight_actions import StartFight

    engine = shipped_engine()
    state = build_rivals_state(engine)
    _open(app, engine.apply(state, StartFight(state.upgoers[0].id)))


def shot_war_boarding(app) -> None:
    """A docking against Frog-1's will: push it off with RCS, or let it stand."""
    _open(app, build_boarding_state(shipped_engine()))


def shot_war_ending(app) -> None:
    """The ending after an open war: Ayla and Bram lost by it, Cleo wins."""
    from game.tools.rock_shots import _show, _step

    engine = shipped_engine()
    states = open_war_ending_states(engine)
    _show(app, GameSession(engine, states[0].setup, 7, states=tuple(states), saves_dir=app.home / "shot-saves"))
    _step(app)


def shot_war_log(app) -> None:
    """The story so far after a derp fight: each line of the fight and the war, with the rule behind it."""
    from game.games.whatgoesup.rules.flight_actions import PickEnemy, StartFight
    from game.tools.rock_shots import _show, _step

    engine = shipped_engine()
    state = build_rivals_state(engine)
    session = GameSession(engine, state.setup, 7, states=(state,), saves_dir=app.home / "shot-saves")
    derp = {d.name.split()[0]: d.id for d in state.derps}
    session.apply(StartFight(state.upgoers[0].id))
    for who, whom in (("Mo", "Pip"), ("Kit", "Pip"), ("Pip", "Mo"), ("Zuzu", "Kit")):
        session.apply(PickEnemy(derp[who], derp[whom]))
    dice = iter((14, 3, 11, 9, 6, 17))
    session.dice.roll = lambda engine, state: Roll(next(dice))
    while session.waiting_for_dice and session.state.flight.fight is not None:
        session.roll()
    flow = _show(app, session, holder=1)
    flow.open_log()
    _step(app)


WAR_SHOTS = [
    ("war_fight_picks", shot_war_fight_picks),
    ("war_boarding", shot_war_boarding),
    ("war_ending", shot_war_ending),
    ("war_log", shot_war_log),
]

#: The fight's dice card at each supported window size.
WAR_SIZED_SHOTS = [
    ("war_fight_dice_1280x720", (1280, 720), shot_war_fight_dice),
    ("war_fight_dice_1920x1080", (1920, 1080), shot_war_fight_dice),
    ("war_fight_dice_3840x2160", (3840, 2160), shot_war_fight_dice),
] + [(f"{name}_{w}x{h}", (w, h), shot) for name, shot in (("war_fight_tumble", shot_war_fight_tumble),
                                                         ("war_fight_result", shot_war_fight_result),
                                                         ("war_fight_over", shot_war_fight_over))
     for w, h in ((1280, 720), (1920, 1080), (3840, 2160))]
