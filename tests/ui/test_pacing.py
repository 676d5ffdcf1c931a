"""Pacing that respects reading: a result card waits for the player, a computer's waits as long as its words
take to read, nothing on screen gives a roll away before the dice land, and the header names the moment."""
from __future__ import annotations

import dataclasses
from types import SimpleNamespace

import pygame
import pytest

from game.client.shell.settings import Settings, reading_seconds
from game.games.whatgoesup.rules.actions import Roll
from game.client.whatgoesup.field import stage_words
from game.client.whatgoesup.shipped import shipped_engine
from game.tools.field_shots import _to_burn_roll, build_demo_state, open_field

DT = 1 / 30


@pytest.fixture(scope="module")
def demo_state():
    return build_demo_state(shipped_engine())


def _field(make_app, home, demo_state, human: bool = True, **settings):
    from game.core.session import GameSession

    state = demo_state
    if not human:  # the rolling program (Bram, seat 1) is a computer
        programs = tuple(dataclasses.replace(p, human=False) if p.index == 1 else p for p in state.programs)
        state = dataclasses.replace(state, programs=programs)
    app = make_app()
    if settings:
        app.settings = dataclasses.replace(app.settings, **settings)
    session = GameSession(shipped_engine(), state.setup, 7, states=(state,), saves_dir=home)
    scene = open_field(app, session)
    for _ in range(3):
        app.step(DT, [])
    return app, session, scene


def _burn_roll(app, scene, value):
    """Bram's craft drags onto the polar orbit; the burn die is fixed to ``value`` and rolled."""
    _to_burn_roll(app, scene, value)
    assert scene.session.waiting_for_dice
    scene.roll()
    assert scene.roll_panel.show is not None


def _settle(app, seconds):
    for _ in range(int(seconds / DT)):
        app.step(DT, [])


def test_a_players_result_waits_for_a_dismissal(make_app, home, demo_state):
    app, session, scene = _field(make_app, home, demo_state)
    _burn_roll(app, scene, 5)  # OK: nothing to decide
    _settle(app, 30.0)
    assert scene.roll_panel.show is not None and scene.roll_panel.show.animation.done, "the card went away by itself"
    app.step(DT, [pygame.event.Event(pygame.KEYDOWN, {"key": pygame.K_SPACE, "mod": 0, "unicode": " ",
                                                      "scancode": 0})])
    assert scene.roll_panel.show is None


def test_auto_continue_setting_goes_on_after_the_reading_time(make_app, home, demo_state):
    app, session, scene = _field(make_app, home, demo_state, auto_continue=True)
    _burn_roll(app, scene, 5)
    words = scene.roll_panel.words_on_card(scene.state)
    wait = reading_seconds(words, app.settings)
    assert wait > 4.0  # a sentence or two of rule takes time to read
    _settle(app, wait * 0.6 + 2.0)  # the dice tumble for about two seconds first
    assert scene.roll_panel.show is not None
    _settle(app, wait)
    assert scene.roll_panel.show is None


def test_a_computers_result_stays_readable_for_longer_texts(make_app, home, demo_state):
    settings = Settings()
    assert reading_seconds("a b c d e f g h i j " * 4, settings) > reading_seconds("a b c", settings) + 10
    assert reading_seconds("a b c", dataclasses.replace(settings, animation_speed="skip")) == 0.0
    app, session, scene = _field(make_app, home, demo_state, human=False)
    assert not session.state.programs[1].human
    for _ in range(int(30 / DT)):  # the computer moves Bram's craft and rolls at its own pace
        app.step(DT, [])
        if scene.roll_panel.show is not None and scene.roll_panel.show.animation.done:
            break
    show = scene.roll_panel.show
    assert show is not None and show.owner == 1
    wait = scene.result_wait()
    assert wait == reading_seconds(scene.roll_panel.words_on_card(scene.state), app.settings) and wait > 4.0
    _settle(app, wait * 0.8)
    assert scene.roll_panel.show is show  # still up, nobody had to press anything
    _settle(app, wait * 0.3 + 0.5)
    assert scene.roll_panel.show is not show  # and then the Field went on by itself


def test_nothing_shows_the_result_before_the_dice_land(make_app, home, demo_state):
    app, session, scene = _field(make_app, home, demo_state)
    _to_burn_roll(app, scene, 19)  # a Boom
    before = session.state
    scene.roll()
    after = session.state
    assert after is not before and scene.roll_panel.animating
    assert scene.view_state is before  # the header and side panel still show the moment of the roll
    app.step(DT, [])
    assert scene.view_state is before
    _settle(app, 8.0)
    assert not scene.roll_panel.animating and scene.view_state is session.state  # landed: the card tells all


@pytest.mark.parametrize("stage,kind,words", [
    ("launch", "launch", "Launches"),
    ("insertion", "orbital_insertion", "Orbital insertions"),
    ("insertion", "reentry", "Reentry and landing"),  # a suborbital hop falls home during the insertions
    ("insertion", "landing", "Reentry and landing"),
    ("insertion", None, "Orbital insertions"),
    ("moves", "burn", "Flight steps"),
    ("moves", "reentry", "Reentry and landing"),
])
def test_the_header_names_the_moment_by_its_roll(stage, kind, words):
    flight = SimpleNamespace(stage=stage, roll=SimpleNamespace(kind=kind) if kind else None)
    assert stage_words(flight) == words


def test_what_a_computers_boom_did_stays_under_the_board_long_enough_to_read(make_app, home, demo_state):
    """A computer's Boom the crew can help: the card is read, then the computer decides with the card still up
    (before, the card went, came straight back for the decision still waiting, and the computer waited on it for
    ever). What it did (the help spent, or what the Boom broke) ends the strip under the board, and stays as long
    as its words take to read before the computer acts again (it acted 0.9 s later and the words were gone)."""
    app, session, scene = _field(make_app, home, demo_state, human=False)
    session.dice.roll = lambda engine, state: Roll(19)  # the burn goes Boom
    for _ in range(int(40 / DT)):  # the computer moves Bram's craft, rolls, and reads its card
        app.step(DT, [])
        if scene.roll_panel.show is not None and scene.roll_panel.show.animation.done:
            break
    assert scene.roll_panel.show is not None and scene.roll_panel.show.dice.outcome == "boom"
    for _ in range(int(60 / DT)):  # the card is read, then the computer takes the Boom as it is (or helps)
        app.step(DT, [])
        roll = session.state.flight.roll
        if scene.roll_panel.show is None and (roll is None or roll.value is None):
            break
    told, acted = scene.story[-1], len(session.actions)
    hold = scene._story_read_until - scene.time
    assert "comes up 19" not in told and hold == pytest.approx(reading_seconds(told, app.settings), abs=0.1), (told, hold)
    _settle(app, hold * 0.9)
    assert scene.busy() and len(session.actions) == acted and scene.story[-1] == told
    _settle(app, hold * 0.1 + 3.0)
    assert len(session.actions) > acted  # then the computer goes on by itself
