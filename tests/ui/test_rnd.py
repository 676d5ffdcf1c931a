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
    for text in ("Big Hopper", "1/5", "never flown", "Burrow Pod", "Bunbun", "can fly today",
                 "Blueprints and parts in storage", "1 stored"):
        assert text in html
    assert not any(item.id in html for item in flow.state.items)  # parts by name, never "(I8)"


@pytest.mark.parametrize("size", [(1280, 720), (1920, 1080)])
def test_the_manifest_shows_the_upgoers_without_scrolling(make_app, home, size):
    """A first game's manifest fits its card: the Upgoers at the end are never cut off at the bottom."""
    from game.tools.flow_shots import scripted_session
    from game.client.whatgoesup.game_flow import start_game

    app = make_app(size=size)
    flow = start_game(app.context, scripted_session(home, assemble=True))
    flow.passed_to(0)
    scene = app.stack.top
    app.step(1 / 30, [])
    assert "Moonhop 1</b>" in scene.manifest.html_text and "on the pad" in scene.manifest.html_text
    assert scene.manifest.scroll_bar is None  # everything shows: nothing to scroll to


def choose(app, scene, key, value):
    """Pick ``value`` in the drop-down ``key`` as a player would (the menu's changed event)."""
    menu = scene.menus[key]
    option = next(o for o in menu.options_list if o[1] == value)
    menu.selected_option = option
    app.step(0.0, [pygame.event.Event(pygame_gui.UI_DROP_DOWN_MENU_CHANGED,
                                      {"ui_element": menu, "text": option[0], "ui_object_id": ""})])


def test_research_steps_honour_the_limits_and_start_again_for_each_blueprint(rnd):
    app, flow, scene = rnd
    open_tab(app, scene, "research")
    research = flow.session.engine.rules.economy.research
    little = next(t for t in flow.state.things_of(0) if t.name == "Little Hopper")  # 1/5, mass 3, 23 points
    choose(app, scene, "r_thing", little.id)
    press(app, scene.buttons["set:r_safety:boom"])
    for _ in range(12):
        press(app, scene.buttons["step:r_steps:1"])
    assert scene.form["r_steps"] == research.max_boom_steps_per_turn == 5  # the per-turn limit, not 10
    assert not any("Not possible" in t for t, _ in scene.preview_lines())
    press(app, scene.buttons["set:r_safety:fail"])
    assert scene.form["r_steps"] == 1  # a new safety starts at one step
    for _ in range(12):
        press(app, scene.buttons["step:r_steps:1"])
    assert scene.form["r_steps"] == 3  # 1/5: the Fail safety must stay below the Boom safety
    big = next(t for t in flow.state.things_of(0) if t.name == "Big Hopper")
    choose(app, scene, "r_thing", big.id)
    assert scene.form["r_steps"] == 1  # a new blueprint starts at one step
    for _ in range(12):
        press(app, scene.buttons["step:r_steps:1"])
    assert scene.form["r_steps"] == flow.state.programs[0].points // big.mass == 3  # what the points pay for
    press(app, scene.buttons["do:research"])
    assert str(flow.state.thing(big.id).rating) == "4/5"


def test_a_new_kind_starts_at_a_sensible_mass(rnd):
    from game.client.whatgoesup.rnd import starting_mass

    app, flow, scene = rnd
    rules = flow.session.engine.rules
    choose(app, scene, "kind", "lower_stage")
    for _ in range(5):
        press(app, scene.buttons["step:mass:1"])
    assert scene.form["mass"] == starting_mass(rules, "lower_stage") + 5 == 8
    choose(app, scene, "kind", "capsule")
    assert scene.form["mass"] == starting_mass(rules, "capsule") == 2  # not the stage's 8
    choose(app, scene, "kind", "thruster")
    assert scene.form["mass"] == 1
    choose(app, scene, "kind", "capsule")
    scene.entries["invent_name"].set_text("Tiny Pod")
    press(app, scene.buttons["do:invent"])
    pod = next(t for t in flow.state.things_of(0) if t.name == "Tiny Pod")
    assert pod.mass == 2 and pod.kind == "capsule"


def test_build_asks_for_no_more_copies_than_the_points_pay_for(rnd):
    app, flow, scene = rnd
    open_tab(app, scene, "build")
    big = next(t for t in flow.state.things_of(0) if t.name == "Big Hopper")
    choose(app, scene, "b_thing", big.id)
    for _ in range(25):
        press(app, scene.buttons["step:b_count:1"])
    assert scene.form["b_count"] == flow.state.programs[0].points // big.mass == 3
    little = next(t for t in flow.state.things_of(0) if t.name == "Little Hopper")
    choose(app, scene, "b_thing", little.id)
    assert scene.form["b_count"] == 1


def test_the_pad_upgoer_is_drawn_where_it_can_be_taken_apart(make_app, home):
    from game.tools.flow_shots import scripted_session
    from game.client.whatgoesup.game_flow import start_game

    app = make_app()
    flow = start_game(app.context, scripted_session(home, assemble=True))
    flow.passed_to(0)
    scene = app.stack.top
    open_tab(app, scene, "other")
    assert scene.form["ta_upgoer"] == flow.state.upgoers_of(0)[0].id
    assert scene.pad_rect is not None and not scene.pad_rect.colliderect(scene.preview_rect)
    panel = app.layout.rect(*scene.panel_units())
    assert panel.contains(scene.pad_rect)


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
