"""The R&D scene, headless: every form goes through the session; refusals show the engine's reason."""
import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame  # noqa: E402
import pygame_gui  # noqa: E402
import pytest  # noqa: E402


def press(app, button):
    assert button.is_enabled, f"{button.text!r} is disabled"
    app.step(0.0, [pygame.event.Event(pygame_gui.UI_BUTTON_PRESSED, {"ui_element": button, "ui_object_id": ""})])


@pytest.fixture
def rnd(make_app, home):
    from game.tools.flow_shots import scripted_session
    from game.client.whatgoesup.game_flow import start_game

    app = make_app()
    flow = start_game(app.context, scripted_session(home))
    flow.passed_to(0)
    scene = app.stack.top
    assert scene.name == "rnd" and scene.program == 0
    return app, flow, scene


def open_tab(app, scene, tab):
    press(app, scene.buttons[f"tab:{tab}"])
    assert scene.tab == tab
    return scene


def test_invent_shows_the_cost_first_then_invents(rnd):
    app, flow, scene = rnd
    scene.form.update(kind="capsule", mass=3)
    scene.relayout()
    scene.entries["invent_name"].set_text("Snug Pod")
    lines = " ".join(text for text, _ in scene.preview_lines())
    assert "Costs 9 points" in lines and "Carries 2" in lines
    points = flow.state.programs[0].points
    press(app, scene.buttons["do:invent"])
    pod = next(t for t in flow.state.things_of(0) if t.name == "Snug Pod")
    assert pod.kind == "capsule" and flow.state.programs[0].points == points - 9
    assert "invents Snug Pod" in app.stack.top.toast_text


def test_research_preview_shows_the_cap_and_the_result(rnd):
    app, flow, scene = rnd
    open_tab(app, scene, "research")
    pod = next(t for t in flow.state.things_of(0) if t.name == "Burrow Pod")
    scene.form.update(r_thing=pod.id, r_safety="boom", r_steps=2)
    text = " ".join(t for t, _ in scene.preview_lines())
    assert "4/5 to 4/7" in text and "Research can reach 10/15 until it has flown" in text
    press(app, scene.buttons["do:research"])
    assert str(flow.state.thing(pod.id).rating) == "4/7"


def test_a_refused_research_shows_the_engines_reason_and_changes_nothing(rnd):
    app, flow, scene = rnd
    open_tab(app, scene, "research")
    pod = next(t for t in flow.state.things_of(0) if t.name == "Burrow Pod")
    scene.form.update(r_thing=pod.id, r_safety="fail", r_steps=1)
    assert any("Boom to Fail first" in t for t, _ in scene.preview_lines())
    before = len(flow.session.actions)
    press(app, scene.buttons["do:research"])
    assert len(flow.session.actions) == before
    assert "research Boom to Fail first" in scene.toast_text and scene.toast_kind == "error"


def test_build_buy_hire_and_train(rnd):
    app, flow, scene = rnd
    open_tab(app, scene, "build")
    hopper = next(t for t in flow.state.things_of(0) if t.name == "Little Hopper")
    scene.form.update(b_thing=hopper.id, b_count=2)
    items = len(flow.state.items_of(0))
    press(app, scene.buttons["do:build"])
    assert len(flow.state.items_of(0)) == items + 2
    scene = app.stack.top
    open_tab(app, scene, "supplies")
    press(app, scene.buttons["step:rations:1"])
    press(app, scene.buttons["do:rations"])
    assert flow.state.programs[0].rations_stock == 4
    open_tab(app, scene, "derps")
    scene.entries["hire_name"].set_text("Pipkin the Bold")
    press(app, scene.buttons["do:hire"])
    pipkin = next(d for d in flow.state.derps_of(0) if d.name == "Pipkin the Bold")
    scene.form.update(t_derp=pipkin.id)
    press(app, scene.buttons["set:t_skill:engineering"])
    press(app, scene.buttons["do:train"])
    assert flow.state.derp(pipkin.id).engineering == 1 and flow.state.derp(pipkin.id).busy == "training"


def test_empty_forms_say_what_is_missing(rnd):
    app, flow, scene = rnd
    open_tab(app, scene, "other")
    press(app, scene.buttons["do:reverse"])
    assert "no other program's parts" in scene.toast_text


def test_manifest_lists_blueprints_parts_and_derps(rnd):
    app, flow, scene = rnd
    html = scene.manifest_html()
    for text in ("Big Hopper", "1/5", "never flown", "Burrow Pod", "Bunbun", "can fly today", "Parts in storage"):
        assert text in html


def test_technology_transfer_shows_in_the_invent_preview(make_app, home):
    import dataclasses

    from game.games.whatgoesup.rules.reliability import Rating
    from game.tools.flow_shots import scripted_session
    from game.client.whatgoesup.game_flow import start_game

    session = scripted_session(home)
    state = session.state
    flown = [dataclasses.replace(t, flown=True, flown_successfully=True, rating=Rating(8, 14))
             if t.name == "Big Hopper" else t for t in state.things]
    session.states[-1] = dataclasses.replace(state, things=tuple(flown))  # as if it had flown well
    app = make_app()
    flow = start_game(app.context, session)
    flow.passed_to(0)
    scene = app.stack.top
    scene.form.update(kind="lower_stage", mass=8)
    text = " ".join(t for t, _ in scene.preview_lines())
    assert "Starts at 5/10 thanks to technology transfer from Big Hopper" in text
