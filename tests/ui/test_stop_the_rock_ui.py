"""Stop The Rock and victory conditions in the client, headless: new game, the status HUD, the Nudge
button, the drift die, Dock/EVA choosers and the ending screens."""
from __future__ import annotations


import pygame
import pygame_gui
import pytest

from game.games.whatgoesup.rules.flight_actions import Dock, Eva, Nudge


def _step(app, n: int = 3) -> None:
    for _ in range(n):
        app.step(1 / 30, [])


def _new_game(make_app):
    from game.client.whatgoesup.entry import wire

    app = make_app()
    wire(app.context)
    app.start("title")
    scene = app.context.open("new_game")
    return app, scene


def test_new_game_starts_stop_the_rock_with_the_chosen_difficulty(make_app):
    app, scene = _new_game(make_app)
    assert "mode:stop_the_rock" in scene.buttons
    scene.on_button("mode:stop_the_rock")
    scene = app.context.stack.top
    assert {"difficulty:gentle", "difficulty:normal", "difficulty:hard"} <= set(scene.buttons)
    scene.on_button("difficulty:hard")
    scene.on_button("seat:1")  # playing alone
    level = scene.engine.rules.scenarios.scenario("stop_the_rock").difficulty("hard")
    words = scene.difficulty_explanation(scene.scenario(), level)
    assert f"{level.turns_to_impact} turns" in words and f"{level.nudges_needed}" in words
    session = scene.start()
    assert session is not None
    assert session.setup.scenario == "stop_the_rock" and session.setup.difficulty == "hard"
    assert session.state.rock.turns_left == level.turns_to_impact
    # the rock's drift die comes first; the flow asks for it instead of hanging on a chance node
    _step(app)
    top = app.context.stack.top
    assert type(top).__name__ == "RockDriftScene"
    app.step(1 / 30, [pygame.event.Event(pygame.KEYDOWN, {"key": pygame.K_SPACE, "mod": 0, "unicode": " "})])
    _step(app)
    assert not session.waiting_for_dice and session.state.rock.last_drift is not None
    assert type(app.context.stack.top).__name__ == "RockBriefingScene"  # what to do, before the first R&D
    app.step(1 / 30, [pygame.event.Event(pygame.KEYDOWN, {"key": pygame.K_SPACE, "mod": 0, "unicode": " "})])
    assert type(app.context.stack.top).__name__ == "RnDScene"


def test_new_game_race_takes_the_chosen_victory(make_app):
    app, scene = _new_game(make_app)
    ids = [v.id for v in scene.victories]
    assert "one_small_step" in ids and "most_dots" in ids
    scene.victory = "one_small_step"
    assert "Moon" in scene.victory_explanation()
    setup = scene.setup()
    assert setup.victory == "one_small_step" and setup.scenario is None


def test_hud_shows_turns_left_and_nudges(make_app, home):
    from game.client.whatgoesup.hud import status_summary
    from game.tools.rock_shots import rock_session
    from game.tools.field_shots import open_field

    app = make_app()
    session = rock_session(home / "saves", turns_left=12, nudge_total=4)
    scene = open_field(app, session)
    _step(app)
    lines = status_summary(session.engine, session.state)
    assert lines[0] == "Impact in 12 turns"
    assert "Nudges 4 / 20" in lines[1] and "+12" in lines[1]
    assert type(scene).__name__ == "FieldScene"


def test_the_nudge_button_applies_nudge_through_the_session(make_app, home):
    from game.tools.field_shots import open_field
    from game.tools.rock_shots import rock_session

    app = make_app()
    session = rock_session(home / "saves", turns_left=12, nudge_total=0)
    scene = open_field(app, session)
    _step(app)
    button = next(b for b, a in scene.flight_panel.buttons.items() if isinstance(a, Nudge))
    assert "Nudge the rock: +12" in button.text and "2 fuel" in button.text
    assert any(label.startswith("Nudge") for label, _ in scene.goal_notes())
    fuel = session.state.upgoer(session.state.flight.active).fuel
    app.step(0.0, [pygame.event.Event(pygame_gui.UI_BUTTON_PRESSED, {"ui_element": button, "ui_object_id": ""})])
    assert isinstance(session.actions[-1], Nudge)
    assert session.state.upgoer(session.actions[-1].upgoer).fuel == fuel - 2


def _ending(make_app, session):
    from game.client.whatgoesup.game_flow import GameFlow

    app = make_app()
    flow = GameFlow(app.context, session)
    flow.reported_turn = session.state.turn
    flow.final_reported = True
    app.stack.clear()
    flow.show()
    _step(app)
    return app, app.context.stack.top


def test_ending_screen_for_a_saved_world(make_app, home):
    from game.tools.rock_shots import saved_session

    session = saved_session(home / "saves")
    assert session.over and session.engine.outcome(session.state).kind == "saved"
    app, scene = _ending(make_app, session)
    assert type(scene).__name__ == "EndingScene" and scene.kind == "saved"
    from game.client.whatgoesup.ending import ending_headline, score_lines

    head, _, _ = ending_headline(session.engine, session.state, scene.outcome)
    assert head == "The world is saved!"
    assert any("12 turns to spare" in line for line in score_lines(session.engine, session.state))
    story = scene.stories[0]
    assert story.launched == 2 and story.nudges >= 1


def test_ending_screen_for_the_impact(make_app, home):
    from game.tools.rock_shots import impact_session

    session = impact_session(home / "saves")
    assert session.over and session.engine.outcome(session.state).kind == "impact"
    app, scene = _ending(make_app, session)
    assert type(scene).__name__ == "EndingScene" and scene.kind == "impact"


def test_a_race_with_a_chosen_victory_shows_its_status(make_app, home):
    from game.tools.field_shots import open_field
    from game.client.whatgoesup.hud import status_summary
    from game.tools.rock_shots import race_session

    app = make_app()
    session = race_session(home / "saves", "one_small_step")
    open_field(app, session)
    _step(app)
    lines = status_summary(session.engine, session.state)
    assert lines[0] == "Goal: One Small Step"
    assert len(lines) == 1 + len(session.state.programs)
    # crafts are in space but nobody has landed: the header names that milestone, not "0% of the way"
    assert any(u.in_space for u in session.state.upgoers)
    assert not any("moon" in u.bodies_landed for u in session.state.upgoers)
    assert lines[1:] == [f"{p.name}: not on the Moon yet" for p in session.state.programs]


def test_dock_and_eva_are_grouped_behind_a_chooser(make_app, home):
    from game.tools.field_shots import demo_session, open_field
    from game.client.whatgoesup.game_flow import shipped_engine

    app = make_app()
    session = demo_session(shipped_engine(), 1, players=4, saves_dir=home / "saves")
    scene = open_field(app, session)
    _step(app)
    panel = scene.flight_panel
    docks = [a for a in session.legal_actions() if isinstance(a, (Dock, Eva))]
    if not docks:
        pytest.skip("the demo moment offers no docking")
    assert not any(isinstance(a, (Dock, Eva)) for a in panel.buttons.values()) or len(docks) == 1
    opener = next(b for b, where in panel.nav.items() if where)
    app.step(0.0, [pygame.event.Event(pygame_gui.UI_BUTTON_PRESSED, {"ui_element": opener, "ui_object_id": ""})])
    assert panel.group
    while not panel.buttons:  # pick the first craft when several are offered
        assert panel.navigate(next(b for b, where in panel.nav.items() if where))
    assert all(isinstance(a, (Dock, Eva)) for a in panel.buttons.values())
    back = next(b for b, where in panel.nav.items() if where == ())
    assert panel.navigate(back) and panel.group == ()


def test_choosing_a_goal_victory_suggests_a_long_game(make_app):
    """A goal race (a lunar round trip alone takes 8 turns) defaults to the victory's suggested turn limit."""
    import pygame_gui

    app, scene = _new_game(make_app)
    goal = next(v for v in scene.victories if v.id == "one_small_step")
    assert goal.suggested_turns == 40
    menu = scene.victory_menu
    event = pygame.event.Event(pygame_gui.UI_DROP_DOWN_MENU_CHANGED,
                               {"ui_element": menu, "text": goal.name})
    menu.selected_option = (goal.name, goal.id)
    assert scene.handle_event(event)
    scene = app.context.stack.top
    assert scene.victory == "one_small_step" and scene.turn_limit == 40
    assert scene.setup().turn_limit == 40


@pytest.mark.parametrize("size", [(1280, 720), (1920, 1080), (3840, 2160)])
def test_a_races_status_names_the_programs_when_they_all_stand_alike(make_app, home, size):
    """One Small Step on turn 3: the header read '● not on the Moon yet ▲ not on the Moon yet ■ not on the Moon
    yet' (race_status shot): the names dropped to fit, and a marker alone never said whose it was. When every
    program's words are the same, the line names each program once and says the words once."""
    from game.client.kit.style import font_px
    from game.client.whatgoesup.hud import HUD_W, game_status, progress_words, shared_row
    from game.tools.rock_shots import race_session

    app = make_app(size)
    session = race_session(home / "saves")
    state, layout = session.state, app.layout
    lines = game_status(session.engine, state)["lines"]
    assert [progress_words(line) for line in lines] == ["not on the Moon yet"] * 3
    width = min(layout.px(HUD_W), int(layout.width * 0.42)) - 2 * layout.px(8)
    row = shared_row(layout, state.programs, lines, width, max(3, layout.px(6)))
    assert row == [(state.programs[0], "Ayla"), (state.programs[1], "Bram"), (state.programs[2], "Cleo"),
                   (None, "· all three: not on the Moon yet")]
    font = font_px(layout.px(13))
    assert sum(font.size(text)[0] for _, text in row) < width
    assert shared_row(layout, state.programs, ["Ayla: 51 dots", "Bram: 47 dots", "Cleo: 43 dots"], width, 6) is None
