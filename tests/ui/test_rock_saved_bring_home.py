"""Stop The Rock after the world is saved: the game goes on until the crew is home (or the rock flies by), and
the player is told so. Before, the end-of-turn report said only 'The rock will miss the world: saved!', its
Flights section left out the nudges that saved it ('No flights this turn' or a touchdown only), and the header
said 'too close to drift' while the crew waited in space with nothing to say what the remaining turns were for."""
from __future__ import annotations

import pygame
import pytest


from ui_sizes import SIZES


def saved_with_crew_out(saves_dir):
    from game.tools.rock_shots import saved_crew_out_session

    session, turn = saved_crew_out_session(saves_dir)
    assert not session.over and session.state.turn == turn + 1
    return session, turn


@pytest.mark.parametrize("size", SIZES)
def test_the_saving_turns_report_says_what_saved_it_and_what_is_left(make_app, home, size):
    from game.client.whatgoesup.game_flow import start_game
    from game.client.whatgoesup.hud import game_status
    from game.client.whatgoesup.report import TurnReportScene, rock_report_line

    session, turn = saved_with_crew_out(home / "saves")
    engine, state = session.engine, session.state
    out = engine.rock_rules.crew_in_space(state)
    assert out == 2
    app = make_app(size)
    flow = start_game(app.context, session)
    scene = app.stack.push(TurnReportScene(app.context, flow, turn))
    flights = [text for text, _ in scene.reports[0].flights]
    nudges = [text for text in flights if "nudges the rock" in text]
    assert len(nudges) == state.rock.nudges and nudges[-1].endswith(f"({state.rock.nudge_total} of 20).")

    line = rock_report_line(engine, state, game_status(engine, state))
    left = state.rock.turns_left
    assert line == ("Saved! The rock will miss the world. Bring your crew home: the game ends when nobody is in "
                    f"space, or as the rock flies by in {left} turns; each derp left out costs 5 points.")
    drawn = []
    original = scene.draw_rock
    scene.draw_rock = lambda surface, rect: (drawn.append(rect), original(surface, rect))
    texts = []
    import game.client.whatgoesup.report as report

    real_draw_text = report.draw_text

    def spy(surface, text, font, colour, pos, anchor="topleft", shadow=0):
        rect = real_draw_text(surface, text, font, colour, pos, anchor, shadow)
        texts.append((text, rect))
        return rect

    report.draw_text = spy
    try:
        scene.draw(pygame.Surface(app.layout.size))
    finally:
        report.draw_text = real_draw_text
    strip = drawn[0]
    head, rest = line.split(". ", 1)
    placed = {text: rect for text, rect in texts}
    for words in (head + ".", rest):  # both lines whole inside the strip, one under the other
        assert words in placed, (words, list(placed))
        assert strip.contains(placed[words]), (words, placed[words], strip)
    assert placed[head + "."].bottom <= placed[rest].top


def test_the_header_says_bring_the_crew_home_and_when_the_rock_flies_by(home):
    from game.client.whatgoesup.hud import status_summary

    session, _ = saved_with_crew_out(home / "saves")
    clock, nudges, when = status_summary(session.engine, session.state)
    assert clock == "Saved! Bring the crew home"
    assert when == f"It flies by in {session.state.rock.turns_left} turns"
