"""The combat field's labels explain themselves on hover: the speed order's chips, each ship's name, speed, heat,
crew and "out of the fight", driven headless by synthetic mouse motion; the tooltip stays inside the window and
off the label it explains at 1280x720, 1920x1080 and 3840x2160."""
import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame  # noqa: E402
import pytest  # noqa: E402

from game.client.cosmoforce.combat import FIELD_LABELS  # noqa: E402
from game.client.kit.glossary import tooltip_text  # noqa: E402


def _hover(app, pos, seconds: float = 1.0) -> None:
    """Point at ``pos`` the way a player would: the pointer moves there, then rests past the tooltip's delay."""
    pygame.mouse.set_pos(pos)
    motion = pygame.event.Event(pygame.MOUSEMOTION, {"pos": pos, "rel": (0, 0), "buttons": (0, 0, 0)})
    app.step(1 / 30, [motion])
    for _ in range(int(seconds * 30)):
        app.step(1 / 30, [])


def _fight_with_a_ship_out(app):
    """Three captains, each with one ship, played by careful captains with seeded dice until the first ship is
    out (the Warden, at seed 1) while the other two fight on."""
    from game.client.cosmoforce.flow import start_game
    from game.client.cosmoforce.shipped import shipped_engine
    from game.core.session import GameSession
    from game.games.cosmoforce.bots import Captain
    from game.games.cosmoforce.rules.engine import CHANCE
    from game.games.cosmoforce.scenarios import fight_setup

    engine = shipped_engine()
    setup = fight_setup(engine, "dart", "warden", "bastion", humans=(True, True, True))
    session = GameSession.new(engine, setup, 1, saves_dir=app.home / "cosmoforce-hover")
    captains = {player: Captain(player + 1) for player in range(3)}
    while not any(ship.eliminated for ship in session.state.ships):
        if session.current_player == CHANCE:
            session.roll()
        else:
            session.apply(captains[session.current_player].choose(engine, session.state))
    assert not session.over
    start_game(app.context, session)
    for _ in range(3):
        app.step(1 / 30, [])
    return app.stack.top


@pytest.mark.parametrize("size", [(1280, 720), (1920, 1080), (3840, 2160)])
def test_every_kind_of_field_label_explains_itself_on_hover(make_app, size):
    app = make_app(size=size)
    combat = _fight_with_a_ship_out(app)
    assert combat.name == "cosmoforce_combat"
    spots = combat.label_spots
    assert {kind for kind, _ in spots} == set(FIELD_LABELS)
    window = pygame.Rect((0, 0), size)
    state = combat.state
    out = next(ship for ship in state.ships if ship.eliminated)
    standing = next(ship for ship in state.ships if ship.standing and ship.heat)
    chosen = {"order": standing, "name": standing, "speed": standing, "heat": standing, "crew": standing,
              "out": out}
    expected = {
        "order": (f"{standing.name} ({state.players[standing.owner].name}) takes its turn ", "<b>Speed</b>"),
        "name": (f"{standing.name}, {state.players[standing.owner].name}'s ", "<b>Mass</b>"),
        "speed": (f"flies at speed {standing.speed_text}", "<b>Speed</b>"),
        "heat": (f"carries {standing.heat} heat token", "<b>Heat</b>"),
        "crew": (f"{standing.crew_ready} ready, {standing.crew_hurt} hurt", "<b>Crew</b>"),
        "out": (f"{out.name} is out of the fight", "<b>Eliminated</b>"),
    }
    struck = spots[("order", out.index)]
    _hover(app, struck.rect.center)
    assert f"{out.name} ({state.players[out.owner].name}) is out of the fight" in tooltip_text(struck)
    for kind in FIELD_LABELS:
        ship = chosen[kind]
        spot = spots[(kind, ship.index)]
        assert spot.rect == combat.label_boxes[(kind, ship.index)]
        _hover(app, spot.rect.center)
        text = tooltip_text(spot)
        assert text is not None, kind
        lead, term = expected[kind]
        assert lead in text and term in text, (kind, text)
        assert "_" not in text  # no internal id (ship classes and systems are named by their names)
        tip = spot.tool_tip.rect
        assert window.contains(tip), (kind, tip, size)
        assert not tip.colliderect(spot.rect), (kind, tip, spot.rect, size)


def test_the_hover_spots_follow_a_dragged_marker_and_leave_clicks_to_the_field(make_app):
    app = make_app()
    combat = _fight_with_a_ship_out(app)
    ship = next(s.index for s in combat.state.ships if s.standing)
    name = combat.label_spots[("name", ship)].rect.copy()
    field = combat.field_rect()
    start, goal = combat.marker_centre(ship), (field.centerx, field.top + field.h // 3)
    for pos, buttons in ((start, 0), (goal, 1)):
        motion = pygame.event.Event(pygame.MOUSEMOTION, {"pos": pos, "rel": (0, 0), "buttons": (buttons, 0, 0)})
        down = pygame.event.Event(pygame.MOUSEBUTTONDOWN, {"pos": pos, "button": 1})
        app.step(1 / 30, [motion, down] if buttons == 0 else [motion])
    app.step(1 / 30, [pygame.event.Event(pygame.MOUSEBUTTONUP, {"pos": goal, "button": 1})])
    app.step(1 / 30, [])
    moved = combat.label_spots[("name", ship)].rect
    assert moved != name and moved == combat.label_boxes[("name", ship)]
    assert moved.centerx == pytest.approx(goal[0], abs=2)


@pytest.mark.parametrize("size", [(1280, 720), (3840, 2160)])
def test_a_shots_caption_on_the_panel_explains_shooting_and_effective_dice(make_app, size):
    from game.client.cosmoforce.flow import start_game
    from game.games.cosmoforce.rules.state import PendingRoll
    from game.tools.cosmoforce_shots import fight_session

    app = make_app(size=size)
    session = fight_session(app, 400, stop=lambda s: isinstance(s.state.step, PendingRoll)
                            and s.state.step.purpose == "fire")
    step = session.state.step
    assert isinstance(step, PendingRoll) and step.purpose == "fire"
    start_game(app.context, session)
    for _ in range(3):
        app.step(1 / 30, [])
    combat = app.stack.top
    spot = combat.label_spots[("roll", step.ship)]
    assert spot.rect == combat.label_boxes[("roll", step.ship)]
    _hover(app, spot.rect.center)
    text = tooltip_text(spot)
    assert text is not None and "exact chance of each result (hits)" in text
    assert "<b>Shooting</b>" in text and "<b>Effective die</b>" in text
    assert pygame.Rect((0, 0), size).contains(spot.tool_tip.rect)
    assert not spot.tool_tip.rect.colliderect(spot.rect)


def _finished_fight(app, round_limit=20, ceasefire=False):
    """Two captains played by careful captains with seeded dice to the end of the fight (with ``ceasefire``,
    each offers one on its first chance); the combat field opened on it."""
    from game.client.cosmoforce.flow import start_game
    from game.client.cosmoforce.shipped import shipped_engine
    from game.core.session import GameSession
    from game.games.cosmoforce.bots import Captain
    from game.games.cosmoforce.rules.actions import OfferCeasefire
    from game.games.cosmoforce.rules.engine import CHANCE, TERMINAL
    from game.games.cosmoforce.scenarios import fight_setup

    engine = shipped_engine()
    setup = fight_setup(engine, ["dart", "warden"], "bastion", humans=(True, True), round_limit=round_limit)
    session = GameSession.new(engine, setup, 31, saves_dir=app.home / "cosmoforce-ending")
    captains = {0: Captain(1), 1: Captain(2)}
    for _ in range(5000):
        player = session.current_player
        if player == TERMINAL:
            break
        if player == CHANCE:
            session.roll()
        elif ceasefire and OfferCeasefire() in session.legal_actions():
            session.apply(OfferCeasefire())
        else:
            session.apply(captains[player].choose(engine, session.state))
    assert session.over
    start_game(app.context, session)
    for _ in range(3):
        app.step(1 / 30, [])
    return app.stack.top


@pytest.mark.parametrize("size", [(1280, 720), (1920, 1080), (3840, 2160)])
def test_the_result_band_of_a_finished_fight_explains_how_it_ended(make_app, size):
    from game.client.cosmoforce.combat import NO_SHIP, RESULT

    app = make_app(size=size)
    combat = _finished_fight(app)
    state = combat.state
    outcome = combat.engine.outcome(state)
    assert outcome.winners
    spot = combat.label_spots[(RESULT, NO_SHIP)]
    assert spot.rect == combat.label_boxes[(RESULT, NO_SHIP)]
    _hover(app, spot.rect.center)
    text = tooltip_text(spot)
    winner = state.players[outcome.winners[0]].name
    assert f"{winner} won after {state.turn} rounds" in text and "every enemy ship is out" in text, text
    assert "<b>Eliminated</b>" in text and "<b>Round</b>" in text and "_" not in text
    assert pygame.Rect((0, 0), size).contains(spot.tool_tip.rect)
    assert not spot.tool_tip.rect.colliderect(spot.rect)


def test_a_fight_stopped_by_its_round_limit_or_a_ceasefire_says_so_on_the_band(make_app):
    from game.client.cosmoforce.combat import NO_SHIP, RESULT

    app = make_app()
    combat = _finished_fight(app, round_limit=1)
    assert not combat.engine.outcome(combat.state).winners
    lead, terms = combat.label_tip(RESULT, NO_SHIP)
    assert lead.startswith("The fight reached its limit of 1 round: ") and "nobody wins" in lead
    assert terms == ("round",)
    combat = _finished_fight(make_app(), ceasefire=True)
    assert combat.state.turn == 1 and not combat.engine.outcome(combat.state).winners
    lead, terms = combat.label_tip(RESULT, NO_SHIP)
    assert lead.startswith("After 1 round every captain still fighting offered a ceasefire") and "ceasefire" in terms
