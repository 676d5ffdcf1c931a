"""Screenshots of Cosmoforce: the title's game chooser, the new-fight screen, a ship sheet, the combat field with
its odds, a roll mid-tumble, hits to place, a fight's end, the rules reference and the glossary. Every fight is played through the session
with seeded dice and careful captains; nothing is set by hand."""
from __future__ import annotations

from game.client.cosmoforce.flow import start_game
from game.client.cosmoforce.shipped import shipped_engine
from game.client.shell.app import App
from game.core.session import GameSession
from game.games.cosmoforce.bots import Captain
from game.games.cosmoforce.rules.actions import FireWeapons
from game.games.cosmoforce.rules.engine import CHANCE, TERMINAL
from game.games.cosmoforce.rules.state import PendingDamage, PendingRoll
from game.games.cosmoforce.scenarios import fight_setup
from game.tools.settle import settle

SEED = 31


def shot_chooser(app: App) -> None:
    """The title with Cosmoforce chosen: its name, tagline and credit, the menu acting for it."""
    from game.client.cosmoforce.entry import wire

    app.context.on_new_game = app.context.on_load = app.context.on_tutorial = lambda: None
    wire(app.context)
    app.context.chosen_game = "cosmoforce"
    app.start("title")
    settle(app, 1.5)


def shot_new_fight(app: App) -> None:
    app.start("title")
    app.context.open("cosmoforce_new_game")
    settle(app, 0.3)


def shot_ship_sheet(app: App) -> None:
    shot_new_fight(app)
    app.stack.top.open_sheet(1, 0)
    settle(app, 0.3)


def fight_session(app: App, moves: int, stop=None) -> GameSession:
    """A three-ship fight (two captains, one with two ships) played ``moves`` steps by careful captains."""
    engine = shipped_engine()
    setup = fight_setup(engine, ["dart", "warden"], "bastion", humans=(True, True))
    session = GameSession.new(engine, setup, SEED, saves_dir=app.home / "cosmoforce-shots")
    captains = {0: Captain(1), 1: Captain(2)}
    for _ in range(moves):
        if stop is not None and stop(session):
            break
        player = session.current_player
        if player == TERMINAL:
            break
        if player == CHANCE:
            session.roll()
        else:
            session.apply(captains[player].choose(engine, session.state))
    return session


def shot_combat(app: App) -> None:
    """Mid-fight, a human's turn: the field, the order, heat and crew, the roster and the turn's actions."""
    session = fight_session(app, 60, stop=lambda s: s.state.turn >= 3 and s.state.step is None
                            and s.state.acting_ship is not None and s.state.actions_left == 2)
    start_game(app.context, session)
    settle(app, 0.6)


def shot_combat_odds(app: App) -> None:
    """A shot about to be rolled: the exact chance of every number of hits, before the dice."""
    session = fight_session(app, 60, stop=lambda s: s.state.turn >= 2 and s.state.step is None
                            and s.state.acting_ship is not None and s.state.acting_ship.name == "Warden")
    legal = [a for a in session.legal_actions() if isinstance(a, FireWeapons)]
    if legal:
        session.apply(max(legal, key=lambda a: a.count * (4 if a.weapon == "missile" else 2)))
    start_game(app.context, session)
    settle(app, 0.4)


def shot_combat_rolling(app: App) -> None:
    """The dice of a salvo mid-tumble over the field."""
    shot_combat_odds(app)
    flow = app.stack.top.flow
    if isinstance(flow.state.step, PendingRoll):
        flow.roll(app.stack.top)
        scene = app.stack.top
        scene.animation.seek(scene.animation.duration * 0.5)
    app.step(0.0, [])


def shot_combat_hits(app: App) -> None:
    """Hits to place: the damaged ship's roster with the slots that may take the next one."""
    session = fight_session(app, 400, stop=lambda s: isinstance(s.state.step, PendingDamage))
    start_game(app.context, session)
    settle(app, 0.4)


def shot_combat_over(app: App) -> None:
    session = fight_session(app, 3000)
    start_game(app.context, session)
    settle(app, 0.4)


def shot_reference(app: App) -> None:
    """Cosmoforce's rules reference from the title, on its actions (every number from the tables)."""
    shot_chooser(app)
    app.context.open_reference("cosmoforce", section="actions")
    settle(app, 0.2)


def shot_glossary(app: App) -> None:
    """Mid-fight, the pause menu's Glossary: Cosmoforce's words with the numbers of the rules in play."""
    shot_combat(app)
    flow = app.stack.top.flow
    flow.open_reference("glossary")
    settle(app, 0.2)


def shot_combat_hover(app: App) -> None:
    """Mid-fight, the pointer resting on a ship's heat: the tooltip says what the tokens are and what they do."""
    import pygame

    shot_combat(app)
    scene = app.stack.top
    ship = max(scene.state.ships, key=lambda s: (s.standing, s.heat))
    pos = scene.label_spots[("heat", ship.index)].rect.center
    pygame.mouse.set_pos(pos)
    app.step(1 / 30, [pygame.event.Event(pygame.MOUSEMOTION, {"pos": pos, "rel": (0, 0), "buttons": (0, 0, 0)})])
    settle(app, 1.0)


def shot_combat_over_hover(app: App) -> None:
    """The fight's end, the pointer resting on its result band: the tooltip says how it ended and why."""
    import pygame

    from game.client.cosmoforce.combat import NO_SHIP, RESULT

    shot_combat_over(app)
    scene = app.stack.top
    pos = scene.label_spots[(RESULT, NO_SHIP)].rect.center
    pygame.mouse.set_pos(pos)
    app.step(1 / 30, [pygame.event.Event(pygame.MOUSEMOTION, {"pos": pos, "rel": (0, 0), "buttons": (0, 0, 0)})])
    settle(app, 1.0)


#: The combat field with a label's hover text up (mid-fight, and over the end's result band), at the three window
#: sizes the tooltip must fit.
COSMOFORCE_SIZED_SHOTS = [(f"{name}_{w}x{h}", (w, h), build) for name, build in (
    ("cosmoforce_hover", shot_combat_hover), ("cosmoforce_over_hover", shot_combat_over_hover))
    for w, h in ((1280, 720), (1920, 1080), (3840, 2160))]


COSMOFORCE_SHOTS = [
    ("cosmoforce_chooser", shot_chooser),
    ("cosmoforce_new_fight", shot_new_fight),
    ("cosmoforce_ship_sheet", shot_ship_sheet),
    ("cosmoforce_combat", shot_combat),
    ("cosmoforce_odds", shot_combat_odds),
    ("cosmoforce_rolling", shot_combat_rolling),
    ("cosmoforce_hits", shot_combat_hits),
    ("cosmoforce_over", shot_combat_over),
    ("cosmoforce_reference", shot_reference),
    ("cosmoforce_glossary", shot_glossary),
]
