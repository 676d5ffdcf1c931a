"""A Space War ship fight played on The Field with synthetic events: open fire from the flight panel, choose a
weapon, see the exact odds on the roll card, roll with Space, watch the dice land, place the hits, and the
story line telling what happened."""
from __future__ import annotations

from fractions import Fraction

import pygame
import pygame_gui
import pytest

from game.client.scenes.dice import percent_text
from game.client.whatgoesup.field import FieldScene
from game.client.whatgoesup.fight_card import FightShow
from game.games.whatgoesup.rules.actions import Roll
from game.games.whatgoesup.rules.flight.ship_combat import OpenFire, ShipCeasefire, ShipConserve, ShipFire, TakeHit
from game.tools.field_shots import open_field
from game.tools.ship_fight_shots import ship_fight_session

DT = 1 / 30


def frames(app, n=1, events=None):
    for i in range(n):
        app.step(DT, events if (events and i == 0) else [])
        top = app.stack.top
        assert top is not None and top.name != "error", getattr(top, "what", "")


def press(app, element):
    frames(app, 1, [pygame.event.Event(pygame_gui.UI_BUTTON_PRESSED, {"ui_element": element})])


def space(app):
    frames(app, 1, [pygame.event.Event(pygame.KEYDOWN, {"key": pygame.K_SPACE, "mod": 0, "unicode": " ",
                                                         "scancode": 0})])


def button(scene, kind, **fields):
    return next(b for b, a in scene.flight_panel.buttons.items()
                if isinstance(a, kind) and all(getattr(a, k) == v for k, v in fields.items()))


@pytest.fixture
def fight(make_app, home):
    def _open(size=(1280, 720)):
        app = make_app(size)
        session = ship_fight_session(home)
        scene = open_field(app, session)
        assert isinstance(scene, FieldScene)
        frames(app, 3)
        return app, session, scene
    return _open


def test_a_ship_fight_is_played_from_the_field(fight):
    app, session, scene = fight()
    frog = next(u for u in session.state.upgoers if u.name == "Frog")
    open_fire = button(scene, OpenFire, target=frog.id)
    assert open_fire.text == "Ship fight: open fire on Frog"
    press(app, open_fire)
    assert session.state.flight.ship_fight is not None
    labels = sorted(b.text for b in scene.flight_panel.buttons)
    assert labels == ["Conserve energy", "Fire 1 laser (2 dice)", "Fire 1 missile (4 dice)"]
    press(app, button(scene, ShipFire, weapon="missile"))
    # the roll card: the exact chance of every number of hits, from the engine's own distribution
    assert scene.roll_panel.pending(session.state) == "ship_fight"
    odds = dict(session.engine.flight_rules.ship_fight_distribution(session.state))
    assert sum(odds.values()) == 1 and odds[0] == Fraction(1, 16)  # four even faces: (1/2)^4
    surface = pygame.Surface(app.surface.get_size())
    scene.draw(surface)  # draws the odds bars without a hitch
    assert not scene.flight_panel.buttons  # while the dice card is up, the roll comes first
    session.dice.roll = lambda engine, state: Roll(2)
    space(app)  # roll
    show = scene.roll_panel.show
    assert isinstance(show, FightShow) and show.hits == 2 and show.words == "2 hits on Frog!"
    assert sum(show.animation.roll.kept) == 2  # the faces shown make exactly the rolled result
    space(app)  # skip the tumble
    space(app)  # go on
    assert scene.roll_panel.show is None
    assert any("2 effective within Frog's mass" in line for line in scene.story)
    # Ayla places the hits: each button says what the hit does
    cart = button(scene, TakeHit, item=cart_item(session, frog))
    assert cart.text == "Take the hit: Rover cart (it Fails)"
    press(app, cart)
    press(app, button(scene, TakeHit, item=cart_item(session, frog)))
    assert session.state.item(cart_item(session, frog)).disabled
    # Frog's turn: nothing to fire, so it conserves energy; then the aftermath's heat dice
    press(app, button(scene, ShipConserve))
    for _ in range(6):
        if session.state.flight.ship_fight.stage == "truce":
            break
        session.dice.roll = lambda engine, state: Roll(0)
        space(app)
        space(app)
        space(app)
    # the round is over: each side, the faster first, fights on or offers a ceasefire
    assert sorted(b.text for b in scene.flight_panel.buttons) == ["Fight on (round 2)", "Offer a ceasefire"]
    assert "Ship fight · round 1 · ceasefire?" in fight_card_words(scene, session)
    press(app, button(scene, ShipCeasefire))
    assert session.state.flight.ship_fight is not None  # Frog must agree too
    press(app, button(scene, ShipCeasefire))
    assert session.state.flight.ship_fight is None
    assert any("The fight between Otter and Frog is over." in line for line in scene.story)


def fight_card_words(scene, session) -> str:
    """The words the Field's ship fight summary (its side panel's head) draws, title first, caught as drawn."""
    from game.client.whatgoesup import fight_card

    drawn = []
    real = fight_card.draw_text
    fight_card.draw_text = lambda surface, text, *a, **k: (drawn.append(text), real(surface, text, *a, **k))[1]
    try:
        fight_card.draw_fight_summary(pygame.Surface((1280, 720)), session.engine, session.state,
                                      pygame.Rect(20, 20, 400, 300), scene.context.layout)
    finally:
        fight_card.draw_text = real
    return " | ".join(drawn)


def cart_item(session, frog):
    return next(i.id for i in session.state.items
                if i.location == frog.id and "cart" in session.state.thing(i.thing_id).name.lower())


def test_the_fight_card_is_drawn_at_4k(fight):
    app, session, scene = fight((3840, 2160))
    press(app, button(scene, OpenFire, target=next(u.id for u in session.state.upgoers if u.name == "Frog")))
    press(app, button(scene, ShipFire, weapon="laser"))
    card = scene.roll_panel.card_rect(session.state)
    assert scene.board_rect.contains(card)
    odds = session.engine.flight_rules.ship_fight_odds(session.state)
    assert percent_text(odds[1])  # the words the card shows come from the same odds
    scene.draw(pygame.Surface(app.surface.get_size()))


def test_the_story_log_explains_a_ship_fight(home):
    from game.client.whatgoesup.explain import explain_ship_fight_event

    session = ship_fight_session(home, opened=True)
    session.apply(ShipFire("missile", 1))
    session.dice.roll = lambda engine, state: Roll(2)
    session.roll()
    rules = session.engine.rules
    lines = [e.text for state in session.states for e in state.events]
    shot = next(t for t in lines if " dice to shoot: " in t)
    assert "fighting mass" in explain_ship_fight_event(rules, shot)
    opened = next(t for t in lines if " opens fire on " in t and " acts first" in t)
    assert "acts first" in explain_ship_fight_event(rules, opened)
    assert explain_ship_fight_event(rules, "Otter moves on to Low Orbit.") == ""


def test_the_glossary_explains_a_ship_fight_with_the_loaded_dice():
    from game.client.whatgoesup.glossary import WORDS
    from game.client.whatgoesup.shipped import shipped_engine

    text = WORDS.explain("ship fight", shipped_engine().rules)
    assert "laser 2 dice, missile 4 dice" in text and "first hit is a Fail" in text


@pytest.mark.parametrize("size", [(1280, 720), (1920, 1080), (3840, 2160)])
def test_a_ship_fight_and_a_brawl_are_told_apart_on_the_panel(fight, size):
    """Both fights are offered side by side; their buttons name which fight they start, whole at every size."""
    from game.games.whatgoesup.rules.flight_actions import StartFight
    from tests.ui.test_screen_text_fits import clipped_texts

    app, session, scene = fight(size)
    texts = {type(a): b.text for b, a in scene.flight_panel.buttons.items() if isinstance(a, (OpenFire, StartFight))}
    assert texts[OpenFire].startswith("Ship fight: open fire on ")
    assert texts.get(StartFight, "Brawl: ").startswith("Brawl: your derps vs ")
    assert not [t for t in clipped_texts(app) if t[0] in texts.values()]
