"""Space War on The Field, headless: the defender's buttons, picking enemies, a fight's dice card with exact odds,
the story's explanations, the New game option and the ending after an open war."""
from __future__ import annotations

import pygame
import pygame_gui

from game.client.scenes.dice import percent_text
from game.client.whatgoesup.field import FieldScene
from game.client.whatgoesup.game_flow import shipped_engine
from game.core.session import GameSession
from game.games.whatgoesup.rules.actions import Roll
from game.games.whatgoesup.rules.flight_actions import AllowDocking, PickEnemy, RepelDocking, StartFight
from game.tools.field_shots import open_field
from game.tools.war_shots import build_boarding_state, build_fight_state, build_rivals_state, open_war_ending_states

DT = 1 / 30


def frames(app, n=1, events=None):
    for i in range(n):
        app.step(DT, events if (events and i == 0) else [])
        assert app.stack.top is not None and app.stack.top.name != "error", getattr(app.stack.top, "what", "")


def press(app, element):
    frames(app, 1, [pygame.event.Event(pygame_gui.UI_BUTTON_PRESSED, {"ui_element": element})])


def space(app):
    frames(app, 1, [pygame.event.Event(pygame.KEYDOWN, {"key": pygame.K_SPACE, "mod": 0, "unicode": " ",
                                                        "scancode": 0})])


def opened(make_app, home, state):
    app = make_app((1280, 720))
    session = GameSession(shipped_engine(), state.setup, 7, states=(state,), saves_dir=home)
    scene = open_field(app, session)
    assert isinstance(scene, FieldScene)
    frames(app, 3)
    return app, session, scene


def test_the_defender_pushes_a_docking_off_from_the_field(make_app, home):
    app, session, scene = opened(make_app, home, build_boarding_state(shipped_engine()))
    buttons = scene.flight_panel.buttons
    assert sorted(b.text for b in buttons) == ["Let the docking stand", "Push Otter-1 off: Puffer RCS"]
    press(app, next(b for b, a in buttons.items() if isinstance(a, RepelDocking)))
    assert isinstance(session.actions[-1], RepelDocking)
    assert session.waiting_for_dice and scene.roll_panel.pending(session.state) == "ready"


def test_giving_up_is_a_button_too(make_app, home):
    app, session, scene = opened(make_app, home, build_boarding_state(shipped_engine()))
    press(app, next(b for b, a in scene.flight_panel.buttons.items() if isinstance(a, AllowDocking)))
    assert session.actions[-1] == AllowDocking()
    frog, otter = session.state.upgoers[0], session.state.upgoers[1]
    assert otter.id in frog.docked_with


def test_a_fight_is_started_and_every_derp_picks_from_the_panel(make_app, home):
    app, session, scene = opened(make_app, home, build_rivals_state(shipped_engine()))
    start = next(b for b, a in scene.flight_panel.buttons.items() if isinstance(a, StartFight))
    assert start.text == "Brawl: your derps vs Frog-1's crew"
    press(app, start)
    for _ in range(4):
        buttons = scene.flight_panel.buttons
        assert buttons and all(isinstance(a, PickEnemy) for a in buttons.values())
        assert all(" goes for " in b.text for b in buttons)
        press(app, next(iter(buttons)))
    assert session.waiting_for_dice
    assert scene.roll_panel.pending(session.state) == "fight"


def test_the_fight_card_shows_exact_odds_and_rolls_each_die(make_app, home):
    app, session, scene = opened(make_app, home, build_fight_state(shipped_engine(), first_die=None))
    words = scene.roll_panel.fight_words(session.state)
    odds = session.engine.flight_rules.fight_odds(session.state)
    assert sum(p for _, p, _ in words["rows"]) == 1
    assert [p for _, p, _ in words["rows"]] == [odds["first"], odds["second"], odds["even"]]
    assert words["pair"] == "Mo Otter and Pip Frog go for each other (pair 1 of 3)"
    assert any(b.text.startswith("Roll") for b in scene.roll_panel.buttons)
    session.dice.roll = lambda engine, state: Roll(14)
    space(app)
    assert session.actions[-1] == Roll(14) and session.state.flight.fight.dice == (14,)
    words = scene.roll_panel.fight_words(session.state)
    assert words["lines"][0][0].endswith("rolled 14, total 16")
    assert words["rows"][0][0] == "Pip Frog takes a beating (-2)"
    assert percent_text(words["rows"][0][1]) == "65%"  # Pip (2 Piloting) must roll 15 or more to reach 16
    space(app)  # the die tumbling on its card: skip to where it lands
    session.dice.roll = lambda engine, state: Roll(3)
    space(app)  # read: the same key rolls Pip's die
    space(app)  # skip its tumble
    space(app)  # the pair's result read: back to the Field
    frames(app, 2)
    fight = session.state.flight.fight
    assert fight.dice == () and len(fight.pairs) == 2  # the first pair is settled, two more to roll
    assert any("Mo Otter and Pip Frog go for each other: 14 + 2 Piloting = 16 against 3 + 2 = 5" in line
               for line in scene.story)


def test_the_story_explains_a_fight_and_a_war(make_app, home):
    app, session, scene = opened(make_app, home, build_rivals_state(shipped_engine()))
    flow = scene.flow
    state = session.engine.apply(session.state, StartFight(session.state.upgoers[0].id))
    war_line = next(e for e in state.events if "secret war" in e.text)
    assert "open war is a defeat for both" in flow.explain_event(war_line)


def test_new_game_offers_space_war(make_app):
    app = make_app((1280, 720))
    app.context.open("new_game")
    frames(app, 2)
    scene = app.stack.top
    button = scene.buttons["option:space_war"]
    assert button.text == "Space War" and "space_war" not in scene.options  # off by default
    victory = scene.buttons["turns:-"]
    assert button.rect.bottom < victory.rect.top  # the fifth rule fits above the victory's row
    press(app, button)
    assert "space_war" in scene.options


def test_the_ending_after_an_open_war_says_who_lost_by_it(make_app, home):
    from game.client.whatgoesup.ending import ending_headline
    from game.tools.rock_shots import _show

    engine = shipped_engine()
    states = open_war_ending_states(engine)
    outcome = engine.outcome(states[-1])
    head, why, _ = ending_headline(engine, states[-1], outcome)
    assert head == "Cleo wins!"
    assert why.endswith("Ayla and Bram are at open war: a defeat for both.")
    app = make_app((1280, 720))
    _show(app, GameSession(engine, states[0].setup, 7, states=tuple(states), saves_dir=home))
    frames(app, 3)
    assert app.stack.top.name == "ending"


def test_a_computer_defender_answers_on_the_field_by_itself(make_app, home):
    """Ayla's seat is a computer: when Bram's human crew docks against its will, it pushes them off with RCS
    (the default bot defends), then its burn's dice are rolled for it."""
    app, session, scene = opened(make_app, home, build_boarding_state(shipped_engine(), computers=(0,)))
    assert not scene.flight_panel.buttons  # not Bram's to answer
    for _ in range(200):
        frames(app, 1)
        if len(session.actions) >= 2:
            break
    assert isinstance(session.actions[0], RepelDocking)
    assert isinstance(session.actions[1], Roll)  # the computer rolls its own repelling burn


def test_the_story_log_gives_war_lines_their_own_colour(make_app, home):
    from game.client.kit.draw import colour_hex
    from game.client.scenes.logview import KIND_STYLE, LogScene, log_html
    from game.client.whatgoesup.rollpanel import WAR_COLOUR

    app, session, scene = opened(make_app, home, build_rivals_state(shipped_engine()))
    session.apply(StartFight(session.state.upgoers[0].id))
    assert KIND_STYLE["war"] == (WAR_COLOUR, False)
    assert app.context.game("whatgoesup").story_labels["war"] == "fights and wars"  # the legend's words
    assert "war" not in app.context.game("cosmoforce").story_labels  # Cosmoforce has no such lines
    html = log_html(session.log, session.state.programs)
    line = next(e.event.text for e in session.log if e.event.kind == "war")
    assert f"<font color='{colour_hex(WAR_COLOUR)}'>{line}" in html
    scene.flow.open_log()
    frames(app, 2)
    assert isinstance(app.stack.top, LogScene)
