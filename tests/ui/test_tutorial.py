"""The guided first mission, headless, through synthetic input only: the title's Tutorial button, every
lesson done through the real R&D, assembly and Field scenes, the guide's own Next button, and leaving
(Esc, quit to title) and resuming where the player left off."""
import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame  # noqa: E402

DT = 1 / 30


def frames(app, n=2):
    for _ in range(n):
        app.step(DT)


def click_at(app, pos, settle=2):
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, {"pos": pos, "rel": (0, 0), "buttons": (0, 0, 0)}))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, {"pos": pos, "button": 1}))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, {"pos": pos, "button": 1}))
    frames(app, settle)


def click(app, element, settle=2):
    assert element.visible and element.is_enabled, f"{getattr(element, 'text', element)!r} cannot be clicked"
    click_at(app, element.rect.center, settle)


def press_key(app, key, mod=0, unicode="", settle=2):
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, {"key": key, "mod": mod, "unicode": unicode, "scancode": 0}))
    pygame.event.post(pygame.event.Event(pygame.KEYUP, {"key": key, "mod": mod, "unicode": unicode, "scancode": 0}))
    frames(app, settle)


def choose(app, menu, text):
    if menu.selected_option[0].startswith(text):
        return
    click(app, menu)
    options = menu.current_state.options_selection_list.item_list_container.elements
    option = next(o for o in options if o.text.startswith(text))
    click(app, option, settle=6)
    assert menu.selected_option[0].startswith(text)


def top(app):
    return app.stack.top


def guide_of(app):
    from game.client.whatgoesup.tutorial import TutorialGuide
    return next(layer for layer in app.layers if isinstance(layer, TutorialGuide))


def lesson(app):
    return guide_of(app).lesson.id


def start(make_app):
    from game.client.whatgoesup.game_flow import wire
    app = make_app()
    pygame.event.clear()
    wire(app.context)
    app.start("title")
    frames(app)
    return app


def next_card(app):
    guide = guide_of(app)
    frames(app)  # drawn once, so the card's button has its place
    assert "next" in guide.buttons, guide.lesson.id
    click_at(app, guide.buttons["next"].center)


def set_mass(app, rnd, mass):
    while int(rnd.form["mass"]) < mass:
        click(app, rnd.buttons["step:mass:1"])
    while int(rnd.form["mass"]) > mass:
        click(app, rnd.buttons["step:mass:-1"])


def thing_named(rnd, role, mass):
    rules = rnd.engine.rules
    return next(t for t in rnd.state.things_of(0)
                if rules.components.kind(t.kind).role == role and t.base_mass == mass)


def invent(app, kind_text, mass):
    rnd = top(app)
    if rnd.tab != "invent":
        click(app, rnd.buttons["tab:invent"])
        rnd = top(app)
    choose(app, rnd.menus["kind"], kind_text)
    rnd = top(app)
    set_mass(app, rnd, mass)
    click(app, rnd.buttons["do:invent"])
    assert "Not allowed" not in rnd.toast_text, rnd.toast_text


def research(app, thing, steps):
    rnd = top(app)
    if rnd.tab != "research":
        click(app, rnd.buttons["tab:research"])
        rnd = top(app)
    choose(app, rnd.menus["r_thing"], thing.name)
    while int(rnd.form["r_steps"]) < steps:
        click(app, rnd.buttons["step:r_steps:1"])
    click(app, rnd.buttons["do:research"])
    assert "Not allowed" not in rnd.toast_text, rnd.toast_text


def build(app, thing):
    rnd = top(app)
    if rnd.tab != "build":
        click(app, rnd.buttons["tab:build"])
        rnd = top(app)
    choose(app, rnd.menus["b_thing"], thing.name)
    click(app, rnd.buttons["do:build"])
    assert "Not allowed" not in rnd.toast_text, rnd.toast_text


def assemble(app, picks, fuel=0, rations=0):
    click(app, top(app).buttons["assemble"])
    assembly = top(app)
    assert assembly.name == "assembly"
    state = assembly.state
    for key in list(assembly.buttons):
        kind, _, some_id = key.partition(":")[2].partition(":")
        if not key.startswith("pick:"):
            continue
        what = state.thing(state.item(some_id).thing_id).kind if kind in ("stage", "aboard") else "derp"
        if (kind, what) in picks:
            click(app, assembly.buttons[key])
    for _ in range(fuel):
        click(app, assembly.buttons["step:fuel:1"])
    for _ in range(rations):
        click(app, assembly.buttons["step:rations:1"])
    assert assembly.buttons["rollout"].is_enabled, assembly.report_lines()
    click(app, assembly.buttons["rollout"])
    assert top(app).name == "rnd", assembly.toast_text


def finish_rnd(app):
    press_key(app, pygame.K_RETURN)
    press_key(app, pygame.K_RETURN)


def fly_until(app, done, limit=600):
    """Play the Field like a player: launch, roll (Space), accept, move on; read the report (Enter)."""
    preferred = ("Launch", "AcceptRoll", "ChooseConsequence", "Coast", "Move", "EndActivities")
    for _ in range(limit):
        if done():
            return
        scene = top(app)
        if scene.name == "field":
            if scene.roll_panel.show is not None or scene.flow.session.waiting_for_dice:
                press_key(app, pygame.K_SPACE, unicode=" ", settle=1)
                continue
            buttons = sorted(scene.flight_panel.buttons.items(),
                             key=lambda kv: preferred.index(type(kv[1]).__name__)
                             if type(kv[1]).__name__ in preferred else 99)
            if buttons:
                click(app, buttons[0][0])
            else:
                frames(app, 5)
        elif scene.name == "turn_report":
            press_key(app, pygame.K_RETURN)
        else:
            frames(app, 5)
    raise AssertionError(f"still not done: lesson {lesson(app)}, scene {top(app).name}")


def test_the_tutorial_from_start_to_end(make_app, home):
    app = start(make_app)
    assert top(app).buttons["tutorial"].text == "Tutorial"
    click(app, top(app).buttons["tutorial"])
    assert top(app).name == "rnd" and lesson(app) == "welcome"
    session = top(app).flow.session
    assert len(session.state.programs) == 1 and "simplified_stack" in session.state.setup.options
    next_card(app)
    assert lesson(app) == "invent_stage"
    frames(app)
    assert guide_of(app).target_rect() is not None  # the Invent form is spotlit

    invent(app, "Lower stage", 4)
    assert lesson(app) == "invent_capsule"
    invent(app, "Capsule", 3)
    assert lesson(app) == "research"
    rnd = top(app)
    research(app, thing_named(rnd, "lower_stage", 4), 1)
    research(app, thing_named(top(app), "capsule", 3), 2)
    assert lesson(app) == "build"
    build(app, thing_named(top(app), "lower_stage", 4))
    build(app, thing_named(top(app), "capsule", 3))
    assert lesson(app) == "hire"
    click(app, top(app).buttons["tab:derps"])
    click(app, top(app).buttons["do:hire"])
    assert lesson(app) == "assemble_hop"
    assemble(app, {("stage", "lower_stage"), ("aboard", "capsule")})
    assert lesson(app) == "finish_rnd"
    finish_rnd(app)
    assert top(app).name == "field" and lesson(app) == "launch"
    launch = next(b for b, a in top(app).flight_panel.buttons.items() if type(a).__name__ == "Launch")
    click(app, launch)
    assert lesson(app) == "roll"
    frames(app)
    field = top(app)
    assert guide_of(app).target_rect() == field.roll_panel.card_rect(field.state)  # the roll card is spotlit
    press_key(app, pygame.K_SPACE, unicode=" ", settle=1)
    assert lesson(app) == "hop_home"
    assert session.actions[-1].value == 1  # the lesson's loaded die
    fly_until(app, lambda: lesson(app) == "report")
    fly_until(app, lambda: lesson(app) == "orbit_parts")
    assert top(app).name == "rnd" and session.state.turn == 2

    invent(app, "Lower stage", 7)
    invent(app, "Thruster", 1)
    assert lesson(app) == "orbit_build"
    research(app, thing_named(top(app), "thruster", 1), 2)
    for role, mass in (("lower_stage", 7), ("capsule", 3), ("thruster", 1)):
        build(app, thing_named(top(app), role, mass))
    click(app, top(app).buttons["tab:supplies"])
    click(app, top(app).buttons["do:fuel"])
    click(app, top(app).buttons["do:rations"])
    assert lesson(app) == "orbit_assemble"
    big = thing_named(top(app), "lower_stage", 7)
    state = top(app).state
    # the big stage only: pick it by its item, then the capsule, thruster and crew
    click(app, top(app).buttons["assemble"])
    assembly = top(app)
    for key in list(assembly.buttons):
        if key.startswith("pick:stage:") and state.item(key.split(":")[2]).thing_id == big.id:
            click(app, assembly.buttons[key])
        elif key.startswith(("pick:aboard:", "pick:crew:")):
            click(app, assembly.buttons[key])
    click(app, assembly.buttons["step:fuel:1"])
    click(app, assembly.buttons["step:rations:1"])
    assert assembly.buttons["rollout"].is_enabled, assembly.report_lines()
    click(app, assembly.buttons["rollout"])
    assert lesson(app) == "orbit_fly"
    finish_rnd(app)
    fly_until(app, lambda: lesson(app) == "done")
    crewed = [u for u in session.state.upgoers_of(0) if u.crew]
    assert crewed and crewed[0].status == "flying"
    guide = guide_of(app)
    frames(app)
    click_at(app, guide.buttons["title"].center)
    assert top(app).name == "title"
    assert guide not in app.layers
    frames(app)
    assert top(app).buttons["tutorial"].text == "Tutorial"  # finished: the next one starts afresh


def test_leaving_and_resuming_the_tutorial(make_app, home):
    app = start(make_app)
    click(app, top(app).buttons["tutorial"])
    next_card(app)
    invent(app, "Lower stage", 4)
    assert lesson(app) == "invent_capsule"
    actions = len(top(app).flow.session.actions)
    press_key(app, pygame.K_ESCAPE)
    assert top(app).name == "game_menu"
    frames(app)
    assert not guide_of(app).buttons  # the guide keeps out of the pause menu
    click(app, top(app).buttons["title"])
    frames(app)
    assert top(app).name == "title" and not app.layers
    assert top(app).buttons["tutorial"].text == "Resume tutorial"
    assert top(app).buttons["continue"].is_enabled is False or True  # the tutorial is not a normal Continue
    click(app, top(app).buttons["tutorial"])
    assert top(app).name == "rnd" and lesson(app) == "invent_capsule"
    assert len(top(app).flow.session.actions) == actions
    assert any(t.kind == "lower_stage" for t in top(app).flow.state.things_of(0))


def test_the_tutorial_save_is_a_normal_save(make_app, home):
    from game.core import saves
    from game.client.whatgoesup.game_flow import shipped_engine
    from game.client.whatgoesup.tutorial import progress_path, save_path

    app = start(make_app)
    click(app, top(app).buttons["tutorial"])
    next_card(app)
    invent(app, "Lower stage", 4)
    loaded = saves.load_game(save_path(), shipped_engine())
    assert any(t.kind == "lower_stage" for t in loaded.final.things)
    assert "invent_capsule" in progress_path().read_text()
