"""The game flow through the UI, headless: new game, pass-device, assembly, trade, saves, undo, log."""
import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import json  # noqa: E402

import pygame  # noqa: E402
import pygame_gui  # noqa: E402
import pytest  # noqa: E402

from game.core import saves  # noqa: E402
from game.games.whatgoesup.rules.actions import EndRnD  # noqa: E402


def press(app, button):
    assert button.is_enabled, f"{button.text!r} is disabled"
    app.step(0.0, [pygame.event.Event(pygame_gui.UI_BUTTON_PRESSED, {"ui_element": button, "ui_object_id": ""})])


def key(k, mod=0, unicode=""):
    return pygame.event.Event(pygame.KEYDOWN, {"key": k, "unicode": unicode, "mod": mod, "scancode": 0})


def top(app):
    return app.stack.top


def _text_fits(app):
    problems = []
    for element in app.manager.get_sprite_group().sprites():
        if isinstance(element, (pygame_gui.elements.UIButton, pygame_gui.elements.UILabel)) and element.visible:
            if element.text and element.font is not None:
                width, height = element.font.size(element.text)
                if width > element.rect.width - 4 or height > element.rect.height:
                    problems.append((element.text, (width, height), element.rect.size))
    return problems


@pytest.fixture
def game_app(make_app, home):
    from game.client.whatgoesup.entry import wire

    app = make_app()
    wire(app.context)
    app.start("title")
    return app


@pytest.fixture
def scripted(make_app, home):
    """An app showing Hop Agency's R&D in the scripted game (turn 2, parts and derps in storage)."""
    from game.tools.flow_shots import scripted_session
    from game.client.whatgoesup.game_flow import start_game

    app = make_app()
    session = scripted_session(home)
    flow = start_game(app.context, session)
    assert top(app).name == "pass_device"
    press(app, top(app).buttons["continue"])
    assert top(app).name == "rnd"
    return app, flow


def test_new_game_scene_starts_a_game_and_passes_the_device(game_app, home):
    title = top(game_app)
    assert not title.buttons["continue"].is_enabled  # no autosave yet
    press(game_app, title.buttons["new_game"])
    scene = top(game_app)
    assert scene.name == "new_game"
    scene.name_entries[0].set_text("Bunny Rockets")
    press(game_app, scene.buttons["seat:2"])  # a third program joins
    scene = top(game_app)
    press(game_app, scene.buttons["option:simplified_stack"])
    press(game_app, top(game_app).buttons["dice:2d10"])
    press(game_app, top(game_app).buttons["start"])
    passing = top(game_app)
    assert passing.name == "pass_device" and passing.program == 0
    session = passing.flow.session
    assert [p.name for p in session.state.programs] == ["Bunny Rockets", "Spud Space", "Kaboom Works"]
    assert session.setup.dice == "2d10" and "simplified_stack" in session.setup.options
    assert len({p.colour for p in session.state.programs}) == 3
    press(game_app, passing.buttons["continue"])
    assert top(game_app).name == "rnd" and top(game_app).program == 0


def test_new_game_refuses_two_programs_with_one_name(game_app):
    game_app.context.on_new_game()
    scene = top(game_app)
    scene.name_entries[1].set_text("hop agency")
    press(game_app, scene.buttons["start"])
    assert top(game_app) is scene
    assert "same name" in scene.toast_text and scene.toast_kind == "error"


def test_colour_clash_shows_the_engines_alternative(game_app):
    game_app.context.on_new_game()
    scene = top(game_app)
    scene.seats[1].people = scene.seats[0].people
    colours = scene.final_colours()
    assert colours[0] != colours[1]


def test_pass_device_appears_between_programs(scripted):
    app, flow = scripted
    press(app, top(app).buttons["finish"])
    assert top(app).name == "pass_device" and top(app).program == 1
    app.step(0.0, [key(pygame.K_RETURN)])
    assert top(app).name == "rnd" and top(app).program == 1


def test_enter_finishes_rnd_only_when_pressed_twice(scripted):
    app, flow = scripted
    app.step(0.0, [key(pygame.K_RETURN)])
    assert top(app).name == "rnd" and "Enter again" in top(app).toast_text
    app.step(0.0, [key(pygame.K_RETURN)])
    assert top(app).name == "pass_device"


def test_assemble_a_valid_upgoer_and_see_the_refusal_of_an_invalid_one(scripted):
    from game.tools.flow_shots import valid_design

    app, flow = scripted
    press(app, top(app).buttons["assemble"])
    scene = top(app)
    assert scene.name == "assembly"
    state = flow.session.state
    stage = next(i for i, r in scene.rows.items() if r == valid_design(flow.session).stages[1][0])
    press(app, scene.buttons[stage.replace("insert", "launch")])  # the small stage alone at the bottom
    for derp in state.derps_of(0):
        press(app, scene.buttons[f"pick:crew:{derp.id}"])
    assert not scene.buttons["rollout"].is_enabled
    assert any("must ride in a capsule" in text or "lift" in text for text, _, _ in scene.report_lines())
    before = len(flow.session.actions)
    assert not scene.roll_out()
    assert "cannot fly" in scene.toast_text and scene.toast_kind == "error"
    assert len(flow.session.actions) == before
    scene.load_design(valid_design(flow.session))
    assert scene.buttons["rollout"].is_enabled
    press(app, scene.buttons["rollout"])
    assert top(app).name == "rnd"
    assert [u.name for u in flow.session.state.upgoers_of(0)] == ["Moonhop 1"]
    assert "rolls Moonhop 1 out to the pad" in top(app).toast_text


def test_suggested_design_is_a_starting_point(scripted):
    app, flow = scripted
    press(app, top(app).buttons["assemble"])
    scene = top(app)
    press(app, scene.buttons["suggest"])
    assert scene.design().stages and scene.report().valid


def test_trade_is_answered_on_the_partners_own_screen(scripted):
    app, flow = scripted
    press(app, top(app).buttons["trade"])
    scene = top(app)
    press(app, scene.buttons["amt:give:points:1"])
    press(app, scene.buttons["amt:give:points:1"])
    press(app, scene.buttons["pick:take:blueprint:T5"])
    press(app, scene.buttons["propose"])
    assert top(app).name == "pass_device" and top(app).program == 1
    press(app, top(app).buttons["continue"])
    assert top(app).name == "trade_answer"
    points = flow.session.state.programs[1].points
    press(app, top(app).buttons["accept"])
    state = flow.session.state
    assert state.programs[1].points == points + 2
    assert any(t.name == "Mash Masher" for t in state.things_of(0))
    assert top(app).name == "pass_device" and top(app).program == 0


def test_an_impossible_trade_shows_the_engines_reason(scripted):
    app, flow = scripted
    press(app, top(app).buttons["trade"])
    scene = top(app)
    scene.amounts["take"]["fuel"] = 9
    assert not scene.propose()
    assert "fuel" in scene.toast_text and scene.toast_kind == "error"
    assert flow.session.state.pending_trade is None


def test_undo_with_ctrl_z_and_undo_stops_at_a_roll(scripted):
    app, flow = scripted
    before = len(flow.session.actions)
    app.step(0.0, [key(pygame.K_z, pygame.KMOD_CTRL)])
    assert len(flow.session.actions) == before - 1
    assert "Undone" in top(app).toast_text
    from game.tools.flow_shots import fly_turn, valid_design
    from game.games.whatgoesup.rules.actions import Assemble

    flow.session.apply(Assemble(valid_design(flow.session)))
    fly_turn(flow.session)
    flow.show()
    assert flow.session.actions[-1].__class__.__name__ == "Roll"
    app.step(0.0, [key(pygame.K_z, pygame.KMOD_CTRL)])
    assert "undo stops at a die roll" in top(app).toast_text


def test_end_of_turn_report_then_next_turn(scripted):
    from game.tools.flow_shots import fly_turn, valid_design
    from game.games.whatgoesup.rules.actions import Assemble

    app, flow = scripted
    flow.act(Assemble(valid_design(flow.session)))
    fly_turn(flow.session)
    flow.show()
    report = top(app)
    assert report.name == "turn_report" and report.turn == 2
    hop = report.reports[0]
    assert hop.before == 40 and hop.after is not None
    assert sum(d for _, d in hop.changes) == hop.after - hop.before or hop.clamp
    flow.holder = 1  # Spud Space had the device last
    app.step(0.0, [key(pygame.K_SPACE)])
    assert top(app).name == "pass_device" and top(app).program == 0 and flow.session.state.turn == 3


def test_log_shows_roll_lines(scripted):
    from game.tools.flow_shots import fly_turn, valid_design
    from game.client.scenes.logview import log_html
    from game.games.whatgoesup.rules.actions import Assemble

    app, flow = scripted
    flow.act(Assemble(valid_design(flow.session)))
    fly_turn(flow.session)
    flow.show()
    app.step(0.0, [key(pygame.K_l, unicode="l")])
    assert top(app).name == "log"
    html = log_html(flow.session.log, flow.session.state.programs)
    assert "launch roll for Big Hopper" in html and "Turn 2" in html
    app.step(0.016, [])
    app.step(0.0, [key(pygame.K_ESCAPE)])
    assert top(app).name == "turn_report"


def test_save_and_load_round_trip_through_the_ui(scripted, home):
    from game.client.scenes.saveload import LoadScene

    app, flow = scripted
    actions = list(flow.session.actions)
    app.step(0.0, [key(pygame.K_s, pygame.KMOD_CTRL)])
    dialog = top(app)
    assert dialog.name == "save_game"
    dialog.entry.set_text("Before the big launch")
    press(app, dialog.buttons["save"])
    assert top(app).name == "rnd" and "before-the-big-launch.json" in top(app).toast_text
    path = home / "before-the-big-launch.json"
    assert path.is_file()
    app.start("title")
    app.context.stack.push(LoadScene(app.context, folder=home))
    scene = top(app)
    row = next(n for n, info in enumerate(scene.rows()) if info.path == path)
    assert scene.rows()[row].turn == 2 and scene.rows()[row].words.endswith("· Hop Agency, Spud Space")
    press(app, scene.buttons[f"load:{row}"])
    assert top(app).name in ("pass_device", "rnd")
    assert list(top(app).flow.session.actions) == actions


def test_a_corrupt_save_is_listed_with_its_reason_and_left_alone(game_app, home):
    broken = home / "broken.json"
    broken.write_text('{"format": "whatgoesup-save", "version": 1, "acti', "utf-8")
    illegal = home / "illegal.json"
    good = saves.save_document(__import__("game.client.whatgoesup.game_flow", fromlist=["x"]).shipped_engine(),
                               __import__("game.tools.flow_shots", fromlist=["x"]).scripted_setup(), 1,
                               [EndRnD(), EndRnD(), EndRnD()])
    good["actions"][2] = {"action": "Research", "thing": "T99", "safety": "fail"}
    illegal.write_text(json.dumps(good), "utf-8")
    press(game_app, top(game_app).buttons["load"])
    scene = top(game_app)
    assert scene.name == "load_game"
    infos = {i.path.name: i for i in scene.infos}
    assert "damaged" in infos["broken.json"].error
    assert "action" in infos["illegal.json"].error
    for n, info in enumerate(scene.rows()):
        assert scene.buttons[f"load:{n}"].is_enabled == info.ok
    assert scene.load(infos["broken.json"]) is False and "damaged" in scene.message
    assert broken.read_text("utf-8").endswith('"acti')
    game_app.step(0.016, [])


def test_continue_loads_the_latest_autosave(make_app, home):
    from game.tools.flow_shots import scripted_session
    from game.client.whatgoesup.entry import wire

    session = scripted_session(home)
    session.autosave()
    app = make_app()
    wire(app.context)
    title = app.start("title")
    assert title.buttons["continue"].is_enabled
    press(app, title.buttons["continue"])
    assert top(app).name == "pass_device"
    assert list(top(app).flow.session.actions) == list(session.actions)


def test_continue_with_a_broken_autosave_opens_the_load_screen(make_app, home):
    from game.client.whatgoesup.entry import wire

    saves.autosave_path(home, 1).write_text("not json", "utf-8")
    app = make_app()
    wire(app.context)
    press(app, app.start("title").buttons["continue"])
    assert top(app).name == "load_game" and "could not be loaded" in top(app).message


def test_autosave_failure_is_a_warning_not_a_stop(scripted, tmp_path):
    app, flow = scripted
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("x")
    flow.session.saves_dir = blocker / "saves"
    press(app, top(app).buttons["finish"])  # every action autosaves: the first failure warns at once
    assert "Autosave failed" in top(app).toast_text and top(app).toast_kind == "warn"
    press(app, top(app).buttons["continue"])
    press(app, top(app).buttons["finish"])  # the game goes on; the same failure is not repeated
    scene = top(app)
    assert scene.name == "turn_report" and "Autosave failed" not in scene.toast_text
    assert flow.session.autosave_error


def test_flight_panel_fallback_applies_actions_and_rolls(make_app, home):
    from game.tools.flow_shots import scripted_session
    from game.client.whatgoesup.game_flow import FlightPanelScene, GameFlow

    app = make_app()
    session = scripted_session(home, assemble=True)
    session.apply(EndRnD())
    session.apply(EndRnD())
    flow = GameFlow(app.context, session)
    flow.holder = 0
    scene = FlightPanelScene(app.context, flow)
    scene.view = ("flight",)
    app.stack.push(scene)
    launch = next(k for k, b in scene.buttons.items() if b.text.startswith("Launch"))
    press(app, scene.buttons[launch])
    assert session.state.upgoers[0].status != "pad" or session.waiting_for_dice
    panel = app.stack.top
    if session.waiting_for_dice:
        rolls = sum(1 for a in session.actions if a.__class__.__name__ == "Roll")
        app.step(0.0, [key(pygame.K_SPACE)])
        assert sum(1 for a in session.actions if a.__class__.__name__ == "Roll") == rolls + 1
    assert panel is not None


@pytest.mark.parametrize("size,ui_scale", [((1280, 720), 1.0), ((1280, 720), 1.5), ((3840, 2160), 1.0),
                                           ((1024, 768), 1.25)])
def test_game_scenes_fit_at_every_size(make_app, home, size, ui_scale):
    from dataclasses import replace

    from game.client.whatgoesup.assembly import AssemblyScene
    from game.tools.flow_shots import scripted_session, valid_design
    from game.client.whatgoesup.game_flow import start_game
    from game.client.whatgoesup.new_game import NewGameScene
    from game.client.whatgoesup.trade import TradeScene

    app = make_app(size=size)
    app.settings = replace(app.settings, ui_scale=ui_scale)
    app.relayout()
    app.start("title")
    app.context.stack.push(NewGameScene(app.context))
    app.step(0.016, [])
    assert _text_fits(app) == []
    flow = start_game(app.context, scripted_session(home))
    app.step(0.016, [])
    assert _text_fits(app) == []
    flow.passed_to(0)
    rnd = top(app)
    for tab in ("invent", "research", "build", "supplies", "derps", "other"):
        rnd.tab = tab
        rnd.relayout()
        app.step(0.016, [])
        assert _text_fits(app) == [], tab
        rects = [b.rect for b in rnd.buttons.values() if b.visible]
        assert all(r.right <= size[0] and r.bottom <= size[1] for r in rects), tab
    assembly = app.context.stack.push(AssemblyScene(app.context, flow, 0))
    assembly.load_design(valid_design(flow.session))
    app.step(0.016, [])
    assert _text_fits(app) == []
    app.context.back()
    app.context.stack.push(TradeScene(app.context, flow, 0))
    app.step(0.016, [])
    assert _text_fits(app) == []


def test_hot_seat_flights_are_watched_by_everyone(make_app, home):
    """With two humans at one screen the device changes hands before R&D, never between programs' flights:
    every flight step of the turn shows the Field (or its roll) to the table, with no pass-the-device screen."""
    from game.client.whatgoesup.game_flow import start_game
    from game.client.whatgoesup.shipped import shipped_engine
    from game.games.whatgoesup.rules.actions import EndRnD
    from game.games.whatgoesup.rules.flight_actions import AcceptRoll, Coast, EndActivities, Launch, Move
    from game.client.whatgoesup.rollpanel import roll_caption
    from game.tools.field_shots import demo_session

    app = make_app()
    session = demo_session(shipped_engine(), 1, players=2, saves_dir=home / "saves")
    assert all(p.human for p in session.state.programs) and session.state.phase == "flight"
    flow = start_game(app.context, session)
    flow.holder = 0  # Ayla holds the device; Bram's craft is about to move
    shown, owners = [], set()
    turn = session.state.turn
    for _ in range(400):
        if session.over or session.state.turn != turn:
            break
        flow.show()
        shown.append(top(app).name)
        actor = flow.acting_program()
        if actor is not None:
            owners.add(actor)
            assert flow.holds_device(actor)
        if session.waiting_for_dice:
            roll = session.state.flight.roll
            if roll is not None:  # the card says whose roll it is (name here, marker in the margin)
                headline, _ = roll_caption(session.engine, session.state, roll)
                assert headline.startswith(session.state.programs[actor].name + " · "), headline
            session.roll()
            continue
        legal = session.legal_actions()
        pick = next((a for kind in (AcceptRoll, Launch, Move, EndActivities, Coast, EndRnD)
                     for a in legal if isinstance(a, kind)), legal[0])
        session.apply(pick)
    assert session.state.turn == turn + 1
    assert "pass_device" not in shown, shown
    assert owners == {0, 1}, owners  # both programs flew this turn, in front of everyone
    flow.show()
    assert top(app).name == "turn_report"
    flow.report_seen()
    assert top(app).name == "pass_device"  # R&D is private again
