"""A derp fight's dice on The Field, headless: each die tumbles onto the value the session rolled, each pair's
result (who loses how much stamina) is on the card, and the card after the last pair stays until the player
goes on (Space, Enter, a click; by itself only with the auto-continue setting). Geometry at three window sizes."""
from __future__ import annotations

import dataclasses
import itertools

import pygame
import pytest

from game.client.whatgoesup.field import FieldScene
from game.client.whatgoesup.game_flow import shipped_engine
from game.client.whatgoesup.rollpanel import DerpFightShow
from game.core.session import GameSession
from game.games.whatgoesup.rules.actions import Roll
from game.tools.field_shots import open_field
from game.tools.war_shots import build_fight_state

DT = 1 / 30


def frames(app, n=1, events=None):
    for i in range(n):
        app.step(DT, events if (events and i == 0) else [])
        assert app.stack.top is not None and app.stack.top.name != "error", getattr(app.stack.top, "what", "")


def key(app, k=pygame.K_SPACE):
    frames(app, 1, [pygame.event.Event(pygame.KEYDOWN, {"key": k, "mod": 0, "unicode": " ", "scancode": 0})])


def opened(make_app, home, state, size=(1280, 720)):
    app = make_app(size)
    session = GameSession(shipped_engine(), state.setup, 7, states=(state,), saves_dir=home)
    scene = open_field(app, session)
    assert isinstance(scene, FieldScene)
    frames(app, 3)
    return app, session, scene


def roll_as(app, session, value, k=pygame.K_SPACE):
    session.dice.roll = lambda engine, state: Roll(value)
    key(app, k)


def last_pair_state():
    """The fight of ``build_fight_state`` with every die rolled but the last pair's second (Kit's)."""
    engine = shipped_engine()
    state = build_fight_state(engine, first_die=14)
    for value in (3, 11, 9, 6):
        state = engine.apply(state, Roll(value))
    return state


def test_a_fight_die_tumbles_then_lands_on_the_rolled_face(make_app, home):
    app, session, scene = opened(make_app, home, build_fight_state(shipped_engine(), first_die=None))
    before = session.state
    roll_as(app, session, 14)
    show = scene.roll_panel.show
    assert isinstance(show, DerpFightShow) and not show.animation.done
    assert session.state.flight.fight.dice == (14,)  # decided at once; the card only animates it
    assert scene.view_state is before  # nothing on screen gives the die away while it tumbles
    seen = set()
    for _ in range(int(show.animation.duration / DT) + 2):
        seen.add(show.animation.face(0))
        frames(app)
    assert show.animation.done and show.animation.face(0) == 14
    assert len(seen) > 3  # it tumbled through faces before landing
    assert scene.roll_panel.show is show  # landed, and still up
    words = show.words()
    assert "Mo Otter and Pip Frog go for each other (pair 1 of 3)" in words
    assert [b.text for b in scene.roll_panel.buttons] == ["Pip Frog rolls (Space)"]
    # The same key rolls the pair's other die, which tumbles beside the first.
    roll_as(app, session, 3)
    second = scene.roll_panel.show
    assert isinstance(second, DerpFightShow) and second is not show and second.rolling == 1
    assert second.fighters[0].value == 14 and not second.animation.done


def test_each_pair_says_who_lost_how_much_and_waits(make_app, home):
    app, session, scene = opened(make_app, home, build_fight_state(shipped_engine(), first_die=14))
    roll_as(app, session, 3)
    show = scene.roll_panel.show
    key(app)  # skip the tumble
    assert show.animation.done and scene.roll_panel.show is show
    assert show.result == "Pip Frog takes a beating!"
    assert show.losses.startswith("Mo Otter loses 1 stamina, Pip Frog loses 3.")
    assert not any("14 + 2 Piloting = 16" in line for line in scene.story)  # the story follows the card
    frames(app, 300)  # ten seconds: a human's card waits for the player
    assert scene.roll_panel.show is show
    assert [b.text for b in scene.roll_panel.buttons] == ["Continue"]
    key(app, pygame.K_RETURN)
    assert scene.roll_panel.show is None
    assert any("Mo Otter and Pip Frog go for each other: 14 + 2 Piloting = 16 against 3 + 2 = 5" in line
               for line in scene.story)
    assert scene.roll_panel.pending(session.state) == "fight"  # the next pair's card, with its odds


def test_the_card_after_the_last_pair_stays_until_the_player_goes_on(make_app, home):
    app, session, scene = opened(make_app, home, last_pair_state())
    roll_as(app, session, 17)
    assert session.state.flight.fight is None  # the fight is over in the rules...
    show = scene.roll_panel.show
    frames(app, 400)
    assert scene.roll_panel.show is show and show.animation.done  # ...and its card stays up
    assert show.result == "Kit Otter holds Zuzu Frog off!"
    assert show.losses == "Zuzu Frog loses 1 stamina, Kit Otter loses 1."
    assert "Pip Frog is injured." in show.after
    assert "Kit Otter is down to 1 stamina (from 3)." in show.after
    card = scene.roll_panel.card_rect(session.state)
    frames(app, 1, [pygame.event.Event(pygame.MOUSEBUTTONDOWN, {"button": 1, "pos": card.center})])
    assert scene.roll_panel.show is None
    assert any("The fight is over." in line for line in scene.story)


def test_auto_continue_lets_the_card_go_by_itself(make_app, home):
    from game.client.shell.settings import reading_seconds

    app, session, scene = opened(make_app, home, last_pair_state())
    app.settings = dataclasses.replace(app.settings, auto_continue=True)
    roll_as(app, session, 17)
    show = scene.roll_panel.show
    wait = reading_seconds(scene.roll_panel.words_on_card(session.state), app.settings)
    assert wait > 3.0  # the result and how everyone came out of it take time to read
    frames(app, int((show.animation.duration + wait * 0.5) / DT))
    assert scene.roll_panel.show is show
    frames(app, int(wait / DT) + 2)
    assert scene.roll_panel.show is None


@pytest.mark.parametrize("size", [(1280, 720), (1920, 1080), (3840, 2160)])
@pytest.mark.parametrize("tumbling", [True, False])
def test_the_fight_card_fits_at_every_size(make_app, home, size, tumbling):
    app, session, scene = opened(make_app, home, last_pair_state(), size)
    roll_as(app, session, 17)
    frames(app, 12 if tumbling else 1)
    if not tumbling:
        key(app)
        frames(app, 2)
    panel = scene.roll_panel
    assert panel.show.animation.done is not tumbling
    card = panel.card_rect(session.state)
    assert scene.board_rect.contains(card)
    drawn = [r for r in panel.fight_drawn if r.w and r.h]
    inside = card.inflate(-2 * app.context.layout.px(12), -2 * app.context.layout.px(8))
    assert all(inside.contains(r) for r in drawn), [r for r in drawn if not inside.contains(r)]
    for a, b in itertools.combinations(drawn, 2):
        assert not a.colliderect(b), (a, b)
    for button in panel.buttons:
        assert card.contains(button.rect)
        assert not any(button.rect.colliderect(r) for r in drawn)
    assert len(panel.buttons) == (0 if tumbling else 1)
