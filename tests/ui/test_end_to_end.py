"""The "Done when" story, headless, through synthetic input only (mouse clicks and keys into pygame's
event queue; pygame_gui turns the clicks into button presses as it does for a player).

Title -> New game (two human programs) -> R&D: invent a lower stage and a capsule, research, build,
hire -> Assembly: roll out a valid Upgoer -> finish R&D for both (the pass-device screen between) ->
The Field: launch, roll, watch the dice land, read the story line -> save (Ctrl+S) -> quit to the
title -> Continue -> finish the turn -> the end-of-turn report. Nothing is forced but the seed.
"""
import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame  # noqa: E402
import pytest  # noqa: E402

DT = 1 / 30


def frames(app, n=2, dt=DT):
    for _ in range(n):
        app.step(dt)  # events come from pygame's own queue


def click(app, element, settle=2):
    """A left click in the middle of a widget: button down and up, as a mouse would send them."""
    assert element.visible and element.is_enabled, f"{getattr(element, 'text', element)!r} cannot be clicked"
    pos = element.rect.center
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, {"pos": pos, "rel": (0, 0), "buttons": (0, 0, 0)}))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, {"pos": pos, "button": 1}))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, {"pos": pos, "button": 1}))
    frames(app, settle)


def press_key(app, key, mod=0, unicode="", settle=2):
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, {"key": key, "mod": mod, "unicode": unicode, "scancode": 0}))
    pygame.event.post(pygame.event.Event(pygame.KEYUP, {"key": key, "mod": mod, "unicode": unicode, "scancode": 0}))
    frames(app, settle)


def choose(app, menu, text):
    """Open a drop-down by clicking it and click the option whose text starts with ``text``."""
    click(app, menu)
    options = menu.current_state.options_selection_list.item_list_container.elements
    option = next(o for o in options if o.text.startswith(text))
    click(app, option, settle=6)  # the list's press, its selection and the menu's change are events in turn
    assert menu.selected_option[0].startswith(text)


def top(app):
    return app.stack.top


SEED = 20140507


@pytest.mark.parametrize("seed", [SEED])
def test_the_done_when_story(make_app, home, monkeypatch, seed):
    from game.client.whatgoesup import new_game
    from game.client.whatgoesup.entry import wire

    monkeypatch.setattr(new_game, "new_seed", lambda: seed)  # the one thing forced: the dice's seed

    app = make_app()
    pygame.event.clear()
    wire(app.context)
    app.start("title")
    frames(app)

    # Title -> New game: the two default seats are human programs.
    click(app, top(app).buttons["new_game"])
    setup = top(app)
    assert setup.name == "new_game" and [s.human for s in setup.seats[:2]] == [True, True]
    click(app, setup.buttons["start"])
    assert top(app).name == "pass_device" and top(app).program == 0
    click(app, top(app).buttons["continue"])

    for program in (0, 1):
        rnd = top(app)
        assert rnd.name == "rnd" and rnd.program == program
        # Invent a lower stage (the first kind) and a capsule.
        click(app, rnd.buttons["do:invent"])
        rnd = top(app)
        choose(app, rnd.menus["kind"], "Capsule")
        click(app, rnd.buttons["do:invent"])
        state = rnd.flow.state
        kinds = sorted(t.kind for t in state.things_of(program))
        assert kinds == ["capsule", "lower_stage"], rnd.toast_text
        # Research the capsule one step, then build one of each.
        click(app, rnd.buttons["tab:research"])
        rnd = top(app)
        choose(app, rnd.menus["r_thing"], next(t.name for t in state.things_of(program) if t.kind == "capsule"))
        click(app, rnd.buttons["do:research"])
        assert "Not allowed" not in rnd.toast_text, rnd.toast_text
        click(app, rnd.buttons["tab:build"])
        for thing in rnd.flow.state.things_of(program):
            rnd = top(app)
            choose(app, rnd.menus["b_thing"], thing.name)
            click(app, rnd.buttons["do:build"])
            assert "Not allowed" not in rnd.toast_text, rnd.toast_text
        # Hire a derp.
        click(app, rnd.buttons["tab:derps"])
        rnd = top(app)
        click(app, rnd.buttons["do:hire"])
        assert any(d.owner == program for d in rnd.flow.state.derps), rnd.toast_text
        # Assembly: stage, capsule aboard, the derp as crew; roll out.
        rnd = top(app)
        click(app, rnd.buttons["assemble"])
        assembly = top(app)
        assert assembly.name == "assembly"
        for key in list(assembly.buttons):
            if key.startswith(("pick:launch:", "pick:stage:", "pick:aboard:", "pick:crew:")):
                click(app, assembly.buttons[key])
        if not assembly.buttons["rollout"].is_enabled:
            click(app, assembly.buttons["suggest"])  # the engine's suggestion, as a player would
        click(app, assembly.buttons["rollout"])
        assert any(u.owner == program for u in rnd.flow.state.upgoers), assembly.toast_text
        assert top(app).name == "rnd"
        # Finish R&D: Enter twice.
        press_key(app, pygame.K_RETURN)
        press_key(app, pygame.K_RETURN)
        if program == 0:
            passing = top(app)
            assert passing.name == "pass_device" and passing.program == 1
            press_key(app, pygame.K_z, pygame.KMOD_CTRL)  # harmless here, and it says so
            assert "Nothing was undone" in passing.toast_text and top(app) is passing
            click(app, passing.buttons["continue"])

    # The Field (after the pass-device screen if the first flyer's player must take the device).
    if top(app).name == "pass_device":
        click(app, top(app).buttons["continue"])
    field = top(app)
    assert field.name == "field"
    session = field.session
    if session.state.flight.timing_tie:  # two same-looking rockets: a coin decides who flies first
        press_key(app, pygame.K_SPACE, unicode=" ")
        assert not session.state.flight.timing_tie
        frames(app, 90)
        if top(app).name == "pass_device":
            click(app, top(app).buttons["continue"])
        field = top(app)
    launch = next((b for b, a in field.flight_panel.buttons.items() if type(a).__name__ == "Launch"), None)
    assert launch is not None, [str(a) for a in field.flight_panel.buttons.values()]
    click(app, launch)
    assert top(app) is field  # the player holding the device launched their own Upgoer
    assert session.waiting_for_dice
    rolls_before = len(session.actions)
    press_key(app, pygame.K_SPACE, unicode=" ", settle=1)
    assert len(session.actions) == rolls_before + 1  # the roll happened...
    assert field.roll_panel.show is not None and field.roll_panel.animating  # ...and the dice are tumbling
    for _ in range(600):
        if not field.roll_panel.animating:
            break
        frames(app, 1)
    assert field.roll_panel.show is not None  # landed, still on screen to be read
    frames(app, 90)  # it stays a moment, then the Field tells the story
    story = field.story[-1]
    assert story and ("roll" in story.lower() or "launch" in story.lower()), story

    # Save with Ctrl+S, quit to the title, Continue.
    press_key(app, pygame.K_s, pygame.KMOD_CTRL)
    save_scene = top(app)
    assert save_scene.name == "save_game", save_scene.name
    click(app, save_scene.buttons["save"])
    saved = list((home / "saves").glob("*.json")) if (home / "saves").exists() else list(home.rglob("*.json"))
    assert saved, "nothing was saved"
    actions_saved = len(session.actions)
    press_key(app, pygame.K_ESCAPE)
    if top(app).name != "game_menu":
        press_key(app, pygame.K_ESCAPE)
    assert top(app).name == "game_menu"
    click(app, top(app).buttons["title"])
    assert top(app).name == "title"
    click(app, top(app).buttons["continue"])
    flow = top(app).flow
    assert len(flow.session.actions) >= actions_saved

    # Finish the turn: every player plays their flights (pass-device whenever the player changes).
    turn = flow.state.turn
    for _ in range(400):
        scene = top(app)
        if scene.name == "turn_report":
            break
        if scene.name == "pass_device":
            click(app, scene.buttons["continue"])
        elif scene.name == "field":
            if scene.roll_panel.show is not None:
                press_key(app, pygame.K_SPACE, unicode=" ", settle=1)
            elif flow.session.waiting_for_dice:
                press_key(app, pygame.K_SPACE, unicode=" ", settle=1)
            else:
                buttons = scene.flight_panel.buttons
                preferred = ("AcceptRoll", "Launch", "Coast", "Move", "EndActivities", "ChooseConsequence")
                pick = sorted(buttons.items(), key=lambda kv: preferred.index(type(kv[1]).__name__)
                              if type(kv[1]).__name__ in preferred else 99)
                if pick:
                    click(app, pick[0][0])
                else:
                    frames(app, 5)
        else:
            frames(app, 5)
    report = top(app)
    assert report.name == "turn_report" and flow.state.turn == turn + 1
    press_key(app, pygame.K_RETURN)
    assert top(app).name == "pass_device"  # after the report, the device is asked for by name
