"""Underped craft in the client, headless: New game switches the rule on (its pages of rules, a rule that
needs another brings it), R&D invents with a one-time hint and programs robots, assembly loads a robot as a
part, the Field marks a robot craft and words its actions without ids."""
import os
from fractions import Fraction

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame  # noqa: E402
import pygame_gui  # noqa: E402
import pytest  # noqa: E402


def press(app, button):
    assert button.is_enabled, f"{button.text!r} is disabled"
    app.step(0.0, [pygame.event.Event(pygame_gui.UI_BUTTON_PRESSED, {"ui_element": button, "ui_object_id": ""})])


def test_new_game_switches_robots_on_and_a_rule_brings_the_rule_it_needs(make_app):
    from game.client.whatgoesup.new_game import NewGameScene

    app = make_app()
    app.start("title")
    scene = app.context.stack.push(NewGameScene(app.context))
    app.step(0.016, [])
    press(app, scene.buttons["option:underped_clockwork"])  # clockwork needs the robots: they come along
    assert {"underped", "underped_clockwork"} <= scene.options
    press(app, app.stack.top.buttons["option:underped"])  # and switching the robots off takes clockwork too
    assert not {"underped", "underped_clockwork"} & app.stack.top.options
    press(app, app.stack.top.buttons["option:underped"])
    assert app.stack.top.setup().options == frozenset({"underped"})


@pytest.fixture
def robot_rnd(make_app, home):
    from game.client.whatgoesup.game_flow import start_game
    from game.tools.underped_shots import robot_state

    from game.core.session import GameSession
    from game.client.whatgoesup.shipped import shipped_engine

    def _open(invent=True):
        _engine, state, design = robot_state(invent=invent)
        app = make_app()
        session = GameSession(shipped_engine(), state.setup, 1, states=(state,), saves_dir=home)
        flow = start_game(app.context, session)
        flow.passed_to(0)
        return app, flow, app.stack.top, design
    return _open


def test_the_first_robot_invented_shows_the_hint_once(robot_rnd):
    from game.client.whatgoesup.robot_hint import RobotHintOverlay, robot_hint_text

    app, flow, scene, _ = robot_rnd(invent=False)
    scene.form.update(kind="underped", mass=1)
    scene.relayout()
    press(app, scene.buttons["do:invent"])
    hint = app.stack.top
    assert isinstance(hint, RobotHintOverlay)
    assert any("1 point per stamina point" in p for p in robot_hint_text(flow.session.engine.rules))
    assert any("skills: Piloting 0, Engineering 0, Stamina 2" in p for p in robot_hint_text(flow.session.engine.rules))
    press(app, hint.close_button)
    rnd = app.stack.top
    assert rnd.name == "rnd"
    rnd.form.update(kind="underped", mass=1)
    rnd.relayout()
    rnd.entries["invent_name"].set_text("Tok")
    press(app, rnd.buttons["do:invent"])  # a second robot design: no hint again
    assert app.stack.top.name == "rnd" and sum(t.kind == "underped" for t in flow.state.things_of(0)) == 2


def test_robots_are_programmed_on_the_derps_tab_and_listed_apart(robot_rnd):
    app, flow, scene, _ = robot_rnd()
    press(app, scene.buttons["tab:derps"])
    scene = app.stack.top
    robot = next(d for d in flow.state.derps_of(0) if d.is_system)
    assert [v for _, v in scene.menus["p_derp"].options_list] == [robot.id] or scene.form["p_derp"] == robot.id
    before = robot.stamina
    scene.form["p_derp"] = robot.id
    press(app, scene.buttons["do:program"])
    assert flow.state.derp(robot.id).stamina == before + 1
    train = [v for _, v in scene.menus["t_derp"].options_list] if "t_derp" in scene.menus else []
    assert robot.id not in train
    assert "Underped systems" in app.stack.top.manifest_html()


def test_assembly_lists_the_robot_as_a_part_not_as_crew(robot_rnd):
    from game.client.whatgoesup.assembly import AssemblyScene

    app, flow, _scene, design = robot_rnd()
    scene = app.context.stack.push(AssemblyScene(app.context, flow, 0))
    rows = {some_id: (kind, details) for kind, some_id, _role, _name, details in scene.part_rows()}
    robot = next(d for d in flow.state.derps_of(0) if d.is_system)
    assert robot.id not in rows and rows[robot.system][0] == "module" and "robot crew" in rows[robot.system][1]
    scene.load_design(design)
    assert scene.report().valid
    assert scene.roll_out()
    assert flow.state.upgoers[-1].crew == (robot.id,)


def test_the_field_marks_a_robot_craft_and_words_its_actions(make_app, home):
    from game.client.whatgoesup.flightpanel import describe_action
    from game.client.whatgoesup.markers import upgoer_details
    from game.tools.field_shots import open_field
    from game.tools.underped_shots import robot_in_orbit_state

    from game.core.session import GameSession
    from game.client.whatgoesup.shipped import shipped_engine

    engine, state = robot_in_orbit_state()
    app = make_app()
    open_field(app, GameSession(shipped_engine(), state.setup, 1, states=(state,), saves_dir=home))
    app.step(0.016, [])
    field = app.stack.top
    craft = next(u for u in state.upgoers if u.name == "Tik-Tok 1")
    crewed = next(u for u in state.upgoers if u.name == "Spudnik")
    markers = field.markers
    assert craft.id in markers.robots and crewed.id not in markers.robots
    for action in engine.legal_actions(state):
        label, why = describe_action(engine, state, action)
        assert not any(token in label + why for token in ("D1", "I1", "U1", "T1")), label
    assert any("robots alone" in text for _, text in upgoer_details(engine, state, craft.id))


def test_clockwork_orders_are_written_on_the_other_tab(make_app, home):
    from game.client.whatgoesup.game_flow import start_game
    from game.client.whatgoesup.shipped import shipped_engine
    from game.core.session import GameSession
    from game.tools.underped_shots import OPTIONS, robot_state

    _engine, state, _ = robot_state(assemble=True, options=OPTIONS | {"underped_clockwork"})
    app = make_app()
    flow = start_game(app.context, GameSession(shipped_engine(), state.setup, 1, states=(state,), saves_dir=home))
    flow.passed_to(0)
    scene = app.stack.top
    press(app, scene.buttons["tab:other"])
    scene = app.stack.top
    craft = next(u for u in flow.state.upgoers if u.status == "pad")
    assert scene.form["o_upgoer"] == craft.id
    scene.form["o_burn"] = "high_transfer"
    press(app, scene.buttons["do:orders_add"])
    scene.form["o_burn"] = "reentry"
    press(app, app.stack.top.buttons["do:orders_add"])
    assert flow.state.upgoer(craft.id).orders == ("high_transfer", "reentry")
    text = " ".join(t for t, _ in app.stack.top.preview_lines())
    assert "written orders: burn to High Transfer, then burn to Reentry" in text
    press(app, app.stack.top.buttons["do:orders_clear"])
    assert flow.state.upgoer(craft.id).orders == ()


def test_a_robot_craft_recharged_in_flight_gets_fresh_orders_on_the_other_tab(make_app, home):
    from game.client.whatgoesup.game_flow import start_game
    from game.client.whatgoesup.markers import upgoer_details
    from game.client.whatgoesup.shipped import shipped_engine
    from game.core.session import GameSession
    from game.tools.underped_shots import robot_recharged_state

    engine, state = robot_recharged_state()
    craft = next(u for u in state.upgoers if u.name == "Tik-Tok 1")
    assert any("Freshly recharged" in text for _, text in upgoer_details(engine, state, craft.id))
    app = make_app()
    flow = start_game(app.context, GameSession(shipped_engine(), state.setup, 1, states=(state,), saves_dir=home))
    flow.passed_to(0)
    press(app, app.stack.top.buttons["tab:other"])
    scene = app.stack.top
    assert scene.form["o_upgoer"] == craft.id
    text = " ".join(t for t, _ in scene.preview_lines())
    assert "written orders: burn to High Transfer" in text and "fresh orders" in text and "Low Orbit" in text
    press(app, scene.buttons["do:orders_clear"])
    scene = app.stack.top
    choices = dict(scene.order_targets())
    system = next(d for d in flow.state.derps if d.is_system)
    assert choices["Burn to Reentry"] == "reentry" and choices[f"Power {system.name} down"] == f"power_down:{system.id}"
    assert not any(token in label for label in choices for token in ("D1", "I1", "U1", ":"))
    scene.form["o_burn"] = f"power_down:{system.id}"
    press(app, scene.buttons["do:orders_add"])
    scene = app.stack.top
    scene.form["o_burn"] = "reentry"
    press(app, scene.buttons["do:orders_add"])
    assert flow.state.upgoer(craft.id).orders == (f"power_down:{system.id}", "reentry")


def test_a_stranded_robot_craft_is_ordered_to_jury_rig_its_capsule_on_the_other_tab(make_app, home):
    """Robot repairs: the capsule broke in orbit; after the recharge the editor offers the jury-rig (in words)
    and says what the robots can do about the broken part."""
    from game.client.whatgoesup.game_flow import start_game
    from game.client.whatgoesup.shipped import shipped_engine
    from game.core.session import GameSession
    from game.games.whatgoesup.rules.reliability import Outcome
    from game.tools.underped_shots import robot_recharged_state

    _engine, state = robot_recharged_state(broken_capsule=True)
    craft = next(u for u in state.upgoers if u.orders_open)
    capsule = next(i for i in state.items if i.location == craft.id and i.disabled)
    app = make_app()
    flow = start_game(app.context, GameSession(shipped_engine(), state.setup, 1, states=(state,), saves_dir=home))
    flow.passed_to(0)
    press(app, app.stack.top.buttons["tab:other"])
    scene = app.stack.top
    press(app, scene.buttons["do:orders_clear"])
    scene = app.stack.top
    choices = dict(scene.order_targets())
    assert choices["Jury-rig Burrow Pod"] == f"jury_rig:{capsule.id}"
    text = " ".join(t for t, _ in scene.preview_lines())
    assert ("Burrow Pod is broken: its robots can be ordered to jury-rig it (it works on a roll under 2: a 5% "
            "chance)") in text
    # the chance told is the engine's own for the jury-rig roll those robots would make (Single D20: a 1)
    engine, robot = flow.session.engine, next(d for d in state.derps if d.is_system and d.location == craft.id)
    roll = engine.flight_rules._jury_roll(state, craft, robot, capsule)
    assert engine.flight_rules.roll_odds(state, roll)[Outcome.OK] == scene.jury_rig_chance(2) == Fraction(1, 20)
    scene.form["o_burn"] = f"jury_rig:{capsule.id}"
    press(app, scene.buttons["do:orders_add"])
    scene = app.stack.top
    scene.form["o_burn"] = "reentry"
    press(app, scene.buttons["do:orders_add"])
    assert flow.state.upgoer(craft.id).orders == (f"jury_rig:{capsule.id}", "reentry")
    text = " ".join(t for t, _ in app.stack.top.preview_lines())
    assert "written orders: jury-rig Burrow Pod, then burn to Reentry" in text


def test_a_clockwork_robot_is_ordered_to_nudge_the_rock_on_the_other_tab(make_app, home):
    from game.client.whatgoesup.game_flow import start_game
    from game.client.whatgoesup.shipped import shipped_engine
    from game.core.session import GameSession
    from game.tools.underped_shots import OPTIONS, robot_state

    _engine, state, _ = robot_state(assemble=True, options=OPTIONS | {"underped_clockwork"}, rock=True)
    app = make_app()
    flow = start_game(app.context, GameSession(shipped_engine(), state.setup, 1, states=(state,), saves_dir=home))
    flow.passed_to(0)
    press(app, app.stack.top.buttons["tab:other"])
    scene = app.stack.top
    craft = next(u for u in flow.state.upgoers if u.status == "pad")
    choices = dict(scene.order_targets())
    assert choices["Nudge the rock"] == f"nudge:{craft.id}" and choices["Burn to Rock Transit"] == "rock_transit"
    assert not any(token in label for label in choices for token in ("U1", "I1", ":"))
    for entry in ("high_transfer", "rock_transit", "rock_docking", f"nudge:{craft.id}", f"nudge:{craft.id}"):
        scene.form["o_burn"] = entry
        press(app, scene.buttons["do:orders_add"])
        scene = app.stack.top
    assert flow.state.upgoer(craft.id).orders[-2:] == (f"nudge:{craft.id}",) * 2
    text = " ".join(t for t, _ in scene.preview_lines())
    assert "burn to Rock Docking, then nudge the rock, then nudge the rock." in text


def test_a_message_over_the_other_tabs_words_hides_the_lines_under_it_and_gives_them_back(make_app, home):
    """The Other tab's words reach the panel's foot; a message there leaves out the lines it would cover (no
    half-hidden line) and, once it is gone, the picture is the one before it came."""
    from game.client.whatgoesup.game_flow import start_game
    from game.client.whatgoesup.shipped import shipped_engine
    from game.core.session import GameSession
    from game.tools.underped_shots import OPTIONS, robot_state
    from game.games.whatgoesup.rules.underped_actions import WriteOrders

    engine, state, _ = robot_state(assemble=True, options=OPTIONS | {"underped_clockwork"}, rock=True)
    craft = state.upgoers[-1]
    state = engine.apply(state, WriteOrders(craft.id, ("high_transfer", "rock_transit", "rock_docking",
                                                       f"nudge:{craft.id}", f"nudge:{craft.id}")))
    app = make_app()
    flow = start_game(app.context, GameSession(shipped_engine(), state.setup, 1, states=(state,), saves_dir=home))
    flow.passed_to(0)
    press(app, app.stack.top.buttons["tab:other"])
    scene = app.stack.top
    for _ in range(5):
        app.step(1 / 30, [])

    def words() -> bytes:  # the preview's box (the stars twinkle elsewhere)
        return pygame.image.tobytes(app.surface.subsurface(scene.preview_rect), "RGB")

    def above_message() -> bytes:
        box = scene.preview_rect.clip(pygame.Rect(0, 0, app.surface.get_width(), scene.status_rect().top))
        return pygame.image.tobytes(app.surface.subsurface(box), "RGB")

    before, before_above = words(), above_message()
    assert not scene.toast_covers_preview()
    scene.toast("Not allowed: a nudge is written for the craft itself", "error")
    app.step(1 / 30, [])
    assert scene.toast_covers_preview() and words() != before
    assert above_message() != before_above  # the line the message would cut in two is left out whole
    for _ in range(int((scene.TOAST_SECONDS + 1) * 30)):
        app.step(1 / 30, [])
    assert not scene.toast_covers_preview() and words() == before


def test_the_robot_crafts_lit_steps_look_the_same_whatever_order_they_come_in(make_app, home):
    """The robot craft in Low Orbit lights steps whose glows overlap; the field hands them over as a set, whose
    order changes from run to run with string hashing (the field_underped shot differed by a patch there).
    Laid in either order they give the same pixels."""
    from game.tools.field_shots import open_field
    from game.tools.underped_shots import robot_in_orbit_state

    from game.core.session import GameSession
    from game.client.whatgoesup.shipped import shipped_engine

    _engine, state = robot_in_orbit_state()
    app = make_app()
    open_field(app, GameSession(shipped_engine(), state.setup, 1, states=(state,), saves_dir=home))
    app.step(0.016, [])
    field = app.stack.top
    view = field.board_view
    lit = sorted(field.lit_steps())
    overlapping = [(a, b) for i, a in enumerate(lit) for b in lit[i + 1:]
                   if view.lit_rect(a).colliderect(view.lit_rect(b))]
    assert overlapping, f"no two of the lit steps {lit} overlap: the order would not show"
    pictures = []
    for order in (lit, lit[::-1]):
        surface = app.surface.copy()
        surface.fill((10, 9, 28))
        view.draw_lit(surface, order, field.time)
        pictures.append(pygame.image.tobytes(surface, "RGB"))
    assert pictures[0] == pictures[1]
