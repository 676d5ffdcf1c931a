"""Feedback on the board: every settled roll shows where it happened (launch flame, Boom, Fail, reentry glow,
parachute), firsts get a banner, the camera finds the rolling craft, and nothing waits on any of it."""
from __future__ import annotations

import dataclasses

import pygame
import pytest

from game.client.whatgoesup.effects import EffectLayer, effect_for_roll, first_banner
from game.client.whatgoesup.shipped import shipped_engine
from game.tools.field_shots import _to_burn_roll, build_demo_state, open_field

DT = 1 / 30
SPACE = pygame.event.Event(pygame.KEYDOWN, {"key": pygame.K_SPACE, "mod": 0, "unicode": " ", "scancode": 0})


@pytest.fixture(scope="module")
def demo_state():
    return build_demo_state(shipped_engine())


def _field(make_app, home, demo_state, **settings):
    from game.core.session import GameSession

    app = make_app()
    if settings:
        app.settings = dataclasses.replace(app.settings, **settings)
    session = GameSession(shipped_engine(), demo_state.setup, 7, states=(demo_state,), saves_dir=home)
    scene = open_field(app, session)
    app.step(DT, [])
    return app, session, scene


def _roll_and_read(app, scene, value):
    """Roll Bram's burn with ``value`` and read the card; returns where the craft stood when it rolled."""
    _to_burn_roll(app, scene, value)
    spot = scene._craft_spot(scene.state.flight.roll.upgoer, scene.state)
    scene.roll()
    for _ in range(int(4 / DT)):
        app.step(DT, [])
    mode = scene.roll_panel.pending(scene.state)
    if mode == "help":  # a Fail or Boom the crew could help with: accept it as it is
        from game.games.whatgoesup.rules.flight_actions import AcceptRoll
        scene.act(next(a for a in scene.session.legal_actions() if isinstance(a, AcceptRoll)))
    app.step(DT, [SPACE])
    return spot


@pytest.mark.parametrize("value,kind", [(19, "boom"), (14, "fail"), (3, None)])
def test_a_settled_burn_shows_on_the_board(make_app, home, demo_state, value, kind):
    """A Boom and a Fail each start their animation where the craft was; a burn that worked shows nothing."""
    app, session, scene = _field(make_app, home, demo_state)
    spot = _roll_and_read(app, scene, value)
    if kind is None:
        assert scene.effects.spawned == []
        return
    assert scene.effects.spawned[:1] == [kind]
    assert scene.effects.effects and scene.effects.effects[0].board_pos == pytest.approx(spot)
    surface = pygame.Surface(app.layout.size)
    scene.draw(surface)  # the effect draws over the board
    for _ in range(int(3 / DT)):  # and plays out by itself, with nobody waiting on it
        app.step(DT, [])
    assert not scene.effects.active


def test_effects_follow_the_animation_speed(make_app, home, demo_state):
    app, session, scene = _field(make_app, home, demo_state, animation_speed="skip")
    _to_burn_roll(app, scene, 19)
    scene.roll()
    app.step(DT, [])
    assert scene.roll_panel.show is None or scene.roll_panel.pending(scene.state) == "help"
    assert scene.effects.spawned == []  # skipped animations make no effects at all


@pytest.mark.parametrize("kind,outcome,effect", [
    ("launch", "ok", "launch"), ("reentry", "ok", "reentry"), ("landing", "ok", "landing"),
    ("lunar_landing", "ok", "landing"), ("burn", "boom", "boom"), ("duration_capsule", "fail", "fail"),
    ("duration_capsule", "ok", None), ("docking", "ok", None),
])
def test_which_rolls_show(kind, outcome, effect):
    assert effect_for_roll(kind, outcome) == effect


def test_a_first_gets_a_banner():
    line = ("Prestige First - mission step: Spudnik Program is first! (Orbital Insertion) +1 dot(s) at the end "
            "of the turn.")
    assert first_banner(line) == "Spudnik Program is first! Mission step: Orbital Insertion (+1 dot)"
    layer = EffectLayer(1.0)
    started = layer.spawn_for_roll("orbital_insertion", "ok", (10.0, 20.0), ["Mash One reaches orbit!", line])
    assert started == ["first"] and layer.effects[0].text.startswith("Spudnik Program is first")
    layer.update(10.0)
    assert not layer.active


def test_the_camera_finds_a_rolling_craft_off_screen(make_app, home, demo_state):
    app, session, scene = _field(make_app, home, demo_state)
    _to_burn_roll(app, scene, 5)
    assert session.waiting_for_dice
    spot = scene._craft_spot(session.state.flight.roll.upgoer, session.state)
    scene.board_view.zoom_at(4.0)
    scene.board_view.pan(-3000, -3000)
    scene._panned_for = None
    app.step(DT, [])
    x, y = scene.board_view.to_screen(spot)
    assert scene.board_rect.collidepoint(x, y)


def _read_until_decision(app, scene, value):
    """Roll Bram's burn with ``value`` and let the dice land; the card waits for the crew's help."""
    _to_burn_roll(app, scene, value)
    scene.roll()
    for _ in range(int(4 / DT)):
        app.step(DT, [])
    assert scene.roll_panel.pending(scene.state) == "help"


def _press(app, scene, action) -> None:
    """Press the roll card's button for ``action``, as a player clicks it."""
    import pygame_gui

    button = next(b for b, what in scene.roll_panel.buttons.items() if what == action)
    app.step(DT, [pygame.event.Event(pygame_gui.UI_BUTTON_PRESSED, {"ui_element": button})])


def test_a_fail_made_ok_by_a_skill_shows_no_fail_and_tells_the_spend_last(make_app, home, demo_state):
    """A 12 against Fail 11 is a Fail; Pip's Piloting moves it to 10 and the burn works. The board shows no
    Fail, and the story strip ends with the spend that saved it, after the dice that started it."""
    from game.games.whatgoesup.rules.flight_actions import UseSkill

    app, session, scene = _field(make_app, home, demo_state)
    _read_until_decision(app, scene, 12)
    spend = next(a for a in session.legal_actions() if isinstance(a, UseSkill) and a.skill == "piloting")
    _press(app, scene, spend)
    assert scene.roll_panel.show is None  # the burn is settled (the capsule's duration roll comes next)
    assert "fail" not in scene.effects.spawned
    assert "comes up 12" in scene.story[-2] and scene.story[-2].endswith("a Fail.")
    assert "moves from 12 to 10, now OK" in scene.story[-1]
    lines, _ = scene.story_lines()
    assert "OK" in " ".join(lines)


def test_an_accepted_boom_tells_what_it_did_last(make_app, home, demo_state):
    """A 17 is a Boom the crew could soften; accepted as it is, the strip tells what the Boom did (the
    thruster disabled) after the roll, not the roll after what it did."""
    from game.games.whatgoesup.rules.flight_actions import AcceptRoll

    app, session, scene = _field(make_app, home, demo_state)
    _read_until_decision(app, scene, 17)
    _press(app, scene, next(a for a in session.legal_actions() if isinstance(a, AcceptRoll)))
    assert scene.effects.spawned[:1] == ["boom"]
    assert "comes up 17" in scene.story[-2]
    assert "Kicker thruster is disabled" in scene.story[-1]


def test_a_first_won_by_a_move_gets_its_banner_too(make_app, home, demo_state):
    """Bram's craft heads home (a deorbit burn and its rolls); then Ayla's craft moves on into Synchronous
    Orbit, where nobody has been: two firsts won by a plain move, no dice. Both are cheered on the board as a
    roll's firsts are."""
    from game.core.session import GameSession
    from game.games.whatgoesup.rules.actions import Roll
    from game.games.whatgoesup.rules.flight_actions import Burn, Move

    engine = shipped_engine()
    state = demo_state
    for action in (Move(state.flight.active), Burn("reentry"), Roll(3), Roll(3), Roll(3)):
        state = engine.apply(state, action)
    ayla = state.flight.active
    assert state.upgoer(ayla).owner == 0
    app = make_app()
    session = GameSession(engine, state.setup, 7, states=(state,), saves_dir=home)
    scene = open_field(app, session)
    app.step(DT, [])
    assert scene.act(Move(ayla))
    assert scene.effects.spawned == ["first", "first"]
    assert [e.text for e in scene.effects.effects] == ["Ayla is first! Mission step: Synchronous Orbit (+1 dot)",
                                                       "Ayla is first! Orbit type: Synchronous orbit (+1 dot)"]
    # the strip tells them in the same words, not 'Prestige First - mission step: Ayla is first! (...)'
    assert scene.story[-1] == ("Ayla is first! Mission step: Synchronous Orbit (+1 dot at the end of the turn). "
                               "Ayla is first! Orbit type: Synchronous orbit (+1 dot at the end of the turn).")


def test_a_robot_crafts_first_gets_its_banner():
    line = ("Prestige First - mission step: Spudnik Program is first by an underped craft! (Low Orbit) +1 dot "
            "at the end of the turn.")
    assert first_banner(line) == "Spudnik Program is first! Mission step: Low Orbit, by an underped craft (+1 dot)"


@pytest.mark.parametrize("size", [(1280, 720), (1920, 1080), (3840, 2160)])
def test_a_firsts_banners_keep_clear_of_the_zoom_buttons(make_app, home, demo_state, size):
    """The banners ran across the top of the whole board, under the +, - and Fit buttons (their words and the
    buttons on top of each other at 1280x720): they take the board's top left of the buttons."""
    from game.client.whatgoesup.effects import banner_rect
    from game.core.session import GameSession
    from game.games.whatgoesup.rules.actions import Roll
    from game.games.whatgoesup.rules.flight_actions import Burn, Move

    engine = shipped_engine()
    state = demo_state
    for action in (Move(state.flight.active), Burn("reentry"), Roll(3), Roll(3), Roll(3)):
        state = engine.apply(state, action)
    app = make_app(size)
    session = GameSession(engine, state.setup, 7, states=(state,), saves_dir=home)
    scene = open_field(app, session)
    app.step(DT, [])
    assert scene.act(Move(state.flight.active))
    app.step(DT, [])
    banners = [e for e in scene.effects.effects if e.kind == "first"]
    buttons = [b.rect for b in scene.zoom_buttons if b.visible]
    assert len(banners) == 2 and len(buttons) == 3
    for row, effect in enumerate(banners):
        rect, font = banner_rect(app.layout, scene.banner_area(), effect.text, row)
        assert scene.board_rect.contains(rect)
        assert not any(rect.colliderect(button) for button in buttons)
        assert font.size(effect.text)[0] <= rect.w
