"""Stop The Rock teaches itself: a first-turn card says what must be done and roughly how, with the
numbers of the loaded tables, fitting the window at every supported size; it shows once, and only to people."""
from __future__ import annotations

import dataclasses

import pygame
import pytest

from game.client.whatgoesup.rock_briefing import RockBriefingScene, briefing_lines
from game.tools.rock_shots import rock_first_turn_session

SPACE = pygame.event.Event(pygame.KEYDOWN, {"key": pygame.K_SPACE, "mod": 0, "unicode": " ", "scancode": 0})


@pytest.mark.parametrize("size", [(1280, 720), (1920, 1080), (3840, 2160)])
def test_the_first_rnd_opens_with_the_briefing(make_app, home, size):
    from game.client.whatgoesup.game_flow import start_game

    app = make_app(size)
    session = rock_first_turn_session(home / "saves")
    flow = start_game(app.context, session)
    card = app.stack.top
    assert isinstance(card, RockBriefingScene)
    app.step(1 / 30, [])
    screen = pygame.Rect((0, 0), app.layout.size)
    assert screen.contains(card.card_rect())
    drawn = card.text_rects()
    assert len(drawn) == 5 and all(card.card_rect().contains(r) for r in drawn)
    assert card.lines_left_out() == 0  # every line of every paragraph found room, the score's too
    button = card.buttons["go"].rect
    assert not any(r.colliderect(button) for r in drawn)  # no paragraph runs under the button
    app.step(1 / 30, [SPACE])
    assert app.stack.top.name == "rnd"
    flow.show()
    assert app.stack.top.name == "rnd"  # once per game


def test_the_briefing_reads_the_tables(home):
    session = rock_first_turn_session(home / "saves")
    rock = session.state.rock
    scenario = session.engine.rock_rules.scenario(session.state)
    text = " ".join(sentence for _, sentence in briefing_lines(session.engine, session.state))
    assert f"in {rock.turns_left} turns" in text and f"add up to {rock.nudges_needed}" in text
    assert f"{scenario.nudge_fuel} fuel a nudge" in text
    assert session.engine.rules.board.step(scenario.intercept_step).name in text
    score = scenario.score
    assert f"scores {score.base}, plus {score.per_turn_left} for every turn to spare" in text
    assert f"costs {-score.per_derp_lost} points" in text and "bring your crew home" in text


def test_no_briefing_for_a_computer_only_game(make_app, home):
    from game.client.whatgoesup.game_flow import start_game

    session = rock_first_turn_session(home / "saves")
    programs = tuple(dataclasses.replace(p, human=False) for p in session.state.programs)
    session.states[-1] = dataclasses.replace(session.state, programs=programs)
    app = make_app()
    start_game(app.context, session)
    assert not isinstance(app.stack.top, RockBriefingScene)
