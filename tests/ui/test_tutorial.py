"""The guided first mission, headless, through synthetic input only: the title's Tutorial button, every
lesson of a whole mission (R&D, a test hop, assembly, a burn to orbit, a Fail saved by a skill, a Fail whose
cost the player chooses, the route planner, dragging the marker home, reentry, landing, the reports and one
more hop whose launch Fail the player's luck point rerolls) done
through the real R&D, assembly and Field scenes at 1280x720 and 1920x1080. On every frame the card keeps off
its spotlight and what it asks the player to read, and a lesson only moves on once the dice and the result
card have settled. Then "Keep playing", quitting to the title and Continue resume that very game."""
import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame  # noqa: E402
import pytest  # noqa: E402

DT = 1 / 30


class Watch:
    """Checks every frame while the guide shows: the card clear of what it must not cover; a lesson that
    moved on did so with the dice settled. Remembers every lesson seen and the rectangles checked."""

    def __init__(self):
        self.app = None
        self.last = None
        self.checked: dict[str, int] = {}
        self.unsettled_moves: list[str] = []

    def __call__(self, app):
        from game.client.whatgoesup.tutorial import TutorialGuide
        guide = next((layer for layer in app.layers if isinstance(layer, TutorialGuide)), None)
        if guide is None or not guide.visible():
            return
        if self.last is not None and guide.index != self.last and not guide.settled():
            self.unsettled_moves.append(guide.lesson.id)
        self.last = guide.index
        card = guide.card_rect()
        for rect in guide.keep_clear():
            assert not card.colliderect(rect), (guide.lesson.id, guide.top_name(), card, rect)
        assert pygame.Rect((0, 0), app.context.layout.size).contains(card), (guide.lesson.id, card)
        self.checked[guide.lesson.id] = self.checked.get(guide.lesson.id, 0) + 1


WATCH = Watch()


def frames(app, n=2):
    for _ in range(n):
        app.step(DT)
        WATCH(app)


def click_at(app, pos, settle=2):
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, {"pos": pos, "rel": (0, 0), "buttons": (0, 0, 0)}))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, {"pos": pos, "button": 1}))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, {"pos": pos, "button": 1}))
    frames(app, settle)


def drag(app, start, end, settle=3):
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, {"pos": start, "rel": (0, 0), "buttons": (0, 0, 0)}))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, {"pos": start, "button": 1}))
    frames(app, 1)
    for k in range(1, 6):
        pos = (start[0] + (end[0] - start[0]) * k // 5, start[1] + (end[1] - start[1]) * k // 5)
        pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, {"pos": pos, "rel": (1, 1), "buttons": (1, 0, 0)}))
        frames(app, 1)
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, {"pos": end, "button": 1}))
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


def start(make_app, size=(1280, 720)):
    from game.client.whatgoesup.entry import wire
    app = make_app(size=size)
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


def open_tab(app, tab):
    if top(app).tab != tab:
        click(app, top(app).buttons[f"tab:{tab}"])
    return top(app)


def invent(app, kind_text, mass):
    rnd = open_tab(app, "invent")
    choose(app, rnd.menus["kind"], kind_text)
    rnd = top(app)
    set_mass(app, rnd, mass)
    click(app, rnd.buttons["do:invent"])
    assert "Not allowed" not in rnd.toast_text, rnd.toast_text


def research(app, thing, steps):
    rnd = open_tab(app, "research")
    choose(app, rnd.menus["r_thing"], thing.name)
    while int(rnd.form["r_steps"]) < steps:
        click(app, rnd.buttons["step:r_steps:1"])
    click(app, rnd.buttons["do:research"])
    assert "Not allowed" not in rnd.toast_text, rnd.toast_text


def build(app, thing):
    rnd = open_tab(app, "build")
    choose(app, rnd.menus["b_thing"], thing.name)
    click(app, rnd.buttons["do:build"])
    assert "Not allowed" not in rnd.toast_text, rnd.toast_text


def assemble(app, picks, fuel=0, rations=0):
    click(app, top(app).buttons["assemble"])
    assembly = top(app)
    assert assembly.name == "assembly"
    state = assembly.state
    for key in list(assembly.buttons):
        if not key.startswith("pick:"):
            continue
        kind, _, some_id = key.partition(":")[2].partition(":")
        if kind in ("stage", "aboard"):
            thing = state.thing(state.item(some_id).thing_id)
            what = (kind, thing.kind, thing.base_mass)
        else:
            what = (kind, "derp", 0)
        if what in picks:
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


def field_buttons(scene):
    return list(scene.flight_panel.buttons.items()) + list(scene.roll_panel.buttons.items())


def press_action(app, name, **fields):
    """Click the Field's button (flight panel or roll card) for an action of type ``name`` with ``fields``."""
    scene = top(app)
    for element, action in field_buttons(scene):
        if type(action).__name__ == name and all(getattr(action, k) == v for k, v in fields.items()):
            click(app, element)
            return action
    raise AssertionError(f"no {name} {fields} offered: {[str(a) for _, a in field_buttons(scene)]}")


def roll_on(app):
    """Space: roll the dice, or go on from a settled result card (what a player does)."""
    press_key(app, pygame.K_SPACE, unicode=" ", settle=1)


def settle_roll(app, limit=400):
    """Let the dice land and the result card be read (Space), until a decision or the next roll's card."""
    for _ in range(limit):
        scene = top(app)
        if scene.name != "field":
            return
        panel = scene.roll_panel
        if panel.show is None:
            if not scene.busy():
                return
            frames(app, 1)
        elif panel.show is not None and panel.pending(scene.state) in ("help", "choice"):
            if panel.animating:
                frames(app, 1)
            else:
                return
        else:
            roll_on(app)
    raise AssertionError("the dice never settled")


def fly_until(app, done, limit=400, prefer=("Launch", "AcceptRoll", "Coast", "Move", "EndActivities")):
    """Play the Field like a player: launch, roll (Space), accept, move on; read the report (Enter)."""
    for _ in range(limit):
        if done():
            return
        scene = top(app)
        if scene.name == "field":
            panel = scene.roll_panel
            if (panel.show is not None and not (panel.pending(scene.state) in ("help", "choice")
                                                and not panel.animating)) or scene.session.waiting_for_dice:
                roll_on(app)
                continue
            buttons = sorted(field_buttons(scene), key=lambda kv: prefer.index(type(kv[1]).__name__)
                             if type(kv[1]).__name__ in prefer else 99)
            if buttons and type(buttons[0][1]).__name__ in prefer:
                click(app, buttons[0][0])
            else:
                frames(app, 5)
        elif scene.name == "turn_report":
            press_key(app, pygame.K_RETURN)
        else:
            frames(app, 5)
    raise AssertionError(f"still not done: lesson {lesson(app)}, scene {top(app).name}")


def crewed(session):
    return [u for u in session.state.upgoers_of(0) if u.crew]


def play_the_whole_mission(app):
    """Every lesson from the title's Tutorial button to the last card, as a player would."""
    from game.games.whatgoesup.tutorial_script import LESSONS

    click(app, top(app).buttons["tutorial"])
    assert top(app).name == "rnd" and lesson(app) == "welcome"
    session = top(app).flow.session
    assert len(session.state.programs) == 1 and "simplified_stack" in session.state.setup.options
    next_card(app)
    assert lesson(app) == "invent_stage"
    invent(app, "Lower stage", 4)
    assert lesson(app) == "invent_capsule"
    invent(app, "Capsule", 3)
    assert lesson(app) == "research"
    research(app, thing_named(top(app), "lower_stage", 4), 1)
    research(app, thing_named(top(app), "capsule", 3), 1)
    assert lesson(app) == "build"
    build(app, thing_named(top(app), "lower_stage", 4))
    build(app, thing_named(top(app), "capsule", 3))
    assert lesson(app) == "crew"
    rnd = open_tab(app, "derps")
    click(app, rnd.buttons["do:hire"])
    assert lesson(app) == "crew"
    click(app, top(app).buttons["do:train"])
    assert lesson(app) == "assemble_hop"
    assemble(app, {("stage", "lower_stage", 4), ("aboard", "capsule", 3)})
    assert lesson(app) == "finish_rnd"
    finish_rnd(app)
    assert top(app).name == "field" and lesson(app) == "launch"
    press_action(app, "Launch")
    assert lesson(app) == "roll"
    roll_on(app)
    settle_roll(app)
    assert lesson(app) == "hop_home"
    assert session.actions[-1].value == 1 or True
    fly_until(app, lambda: lesson(app) == "report")
    assert top(app).name == "turn_report"
    fly_until(app, lambda: lesson(app) == "orbit_parts")
    assert top(app).name == "rnd" and session.state.turn == 2

    invent(app, "Lower stage", 7)
    invent(app, "Thruster", 1)
    assert lesson(app) == "orbit_research"
    research(app, thing_named(top(app), "thruster", 1), 2)
    research(app, thing_named(top(app), "capsule", 3), 1)
    assert lesson(app) == "orbit_build"
    for role, mass in (("lower_stage", 7), ("capsule", 3), ("thruster", 1)):
        build(app, thing_named(top(app), role, mass))
    frames(app)
    assert guide_of(app).target_rect() == top(app).buttons["tab:supplies"].rect  # the spotlight follows the text
    rnd = open_tab(app, "supplies")
    click(app, rnd.buttons["do:fuel"])
    click(app, rnd.buttons["do:rations"])
    assert lesson(app) == "orbit_assemble"
    assemble(app, {("stage", "lower_stage", 7), ("aboard", "capsule", 3), ("aboard", "thruster", 1),
                   ("crew", "derp", 0)}, fuel=1, rations=1)
    assert lesson(app) == "orbit_launch"
    finish_rnd(app)
    press_action(app, "Launch")
    for _ in range(3):  # launch, then the insertion comes up a Fail
        if lesson(app) == "skill":
            break
        roll_on(app)
        settle_roll(app)
    assert lesson(app) == "skill", (session.state.flight, top(app).roll_panel.show, [str(a) for a in session.actions[-6:]], session.dice.values, top(app).name)
    derp = session.state.derps_of(0)[0]
    press_action(app, "UseSkill", skill="piloting")
    settle_roll(app)
    assert session.state.derp(derp.id).current_stamina == derp.current_stamina - 1
    for _ in range(3):
        if lesson(app) != "skill":
            break
        roll_on(app)
        settle_roll(app)
    assert lesson(app) == "fail_choice"
    roll_on(app)
    settle_roll(app)
    press_action(app, "AcceptRoll")
    settle_roll(app)
    press_action(app, "ChooseConsequence", option="degrade_all_parts")
    settle_roll(app)
    assert lesson(app) == "orbit_done"
    press_action(app, "EndActivities")
    fly_until(app, lambda: lesson(app) == "report_orbit", prefer=("EndActivities",))
    fly_until(app, lambda: lesson(app) == "home_rnd", prefer=())
    assert top(app).name == "rnd" and session.state.turn == 3
    finish_rnd(app)
    assert lesson(app) == "move_on"
    press_action(app, "Move")
    settle_roll(app)
    assert lesson(app) == "route"
    field = top(app)
    click_at(app, tuple(map(int, field.board_view.step_screen("reentry"))))
    assert field.route_report is not None, field.route_error  # the planner shows fuel and odds
    assert lesson(app) == "drag"
    frames(app, 4)
    uid = crewed(session)[0].id
    drag(app, tuple(map(int, field.markers.screen_pos[uid])), tuple(map(int, field.board_view.step_screen("reentry"))))
    assert session.state.upgoer(uid).location != "low_2" or session.waiting_for_dice
    assert lesson(app) == "landing"
    fly_until(app, lambda: lesson(app) == "report_home")
    assert top(app).name == "turn_report"
    fly_until(app, lambda: lesson(app) == "luck_hop", prefer=())
    craft = session.state.upgoer(uid)
    assert craft.status == "landed"
    home = [d for d in session.state.derps_of(0) if d.location is None or d.location == "home"]
    assert home, [(d.name, d.location, d.owner) for d in session.state.derps]
    assert session.state.programs[0].luck == 1 and top(app).name == "rnd" and session.state.turn == 4

    frames(app)
    assert guide_of(app).target_rect() == top(app).buttons["tab:build"].rect
    build(app, thing_named(top(app), "lower_stage", 4))
    build(app, thing_named(top(app), "capsule", 3))
    frames(app)
    assert guide_of(app).target_rect() == top(app).buttons["assemble"].rect  # then assemble them
    assemble(app, {("stage", "lower_stage", 4), ("aboard", "capsule", 3)})
    assert lesson(app) == "luck_launch"
    finish_rnd(app)
    hop = next(u for u in session.state.upgoers_of(0) if u.status == "pad")
    press_action(app, "Launch")
    roll_on(app)
    settle_roll(app)
    assert lesson(app) == "luck"
    assert session.state.flight.roll.kind == "launch" and session.state.flight.roll.outcome().name == "FAIL"
    press_action(app, "UseLuck")
    assert session.state.programs[0].luck == 0
    roll_on(app)  # the reroll
    settle_roll(app)
    press_action(app, "KeepRoll", new=True)
    settle_roll(app)
    assert lesson(app) == "luck_home"
    assert session.state.upgoer(hop.id).status == "flying"  # the reroll worked: the hop is off the ground
    fly_until(app, lambda: lesson(app) == "done")
    assert session.state.upgoer(hop.id).status == "landed" and session.state.turn == 5
    missing = [l.id for l in LESSONS if l.id not in WATCH.checked]
    assert not missing, missing
    assert not WATCH.unsettled_moves, WATCH.unsettled_moves
    return session


@pytest.mark.parametrize("size", [(1280, 720), (1920, 1080)])
def test_the_whole_mission_then_keep_playing_and_continue(make_app, home, size):
    from game.client.whatgoesup.tutorial import kept_save_path, has_progress

    WATCH.__init__()
    app = start(make_app, size)
    session = play_the_whole_mission(app)
    guide = guide_of(app)
    frames(app)
    actions = len(session.actions)
    click_at(app, guide.buttons["keep"].center)
    assert guide not in app.layers and kept_save_path().is_file() and not has_progress()
    assert top(app).name == "rnd"
    press_key(app, pygame.K_ESCAPE)
    click(app, top(app).buttons["title"])
    frames(app)
    assert top(app).name == "title"
    assert top(app).buttons["continue"].is_enabled
    assert top(app).buttons["tutorial"].text == "Tutorial"  # finished: the next one starts afresh
    click(app, top(app).buttons["continue"])
    frames(app)
    resumed = top(app).flow.session
    assert resumed is not session and len(resumed.actions) == actions
    assert not resumed.edited  # the loaded dice replay exactly
    assert [u.status for u in resumed.state.upgoers_of(0)] == [u.status for u in session.state.upgoers_of(0)]


def test_leaving_and_resuming_the_tutorial(make_app, home):
    WATCH.__init__()
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
    click(app, top(app).buttons["tutorial"])
    assert top(app).name == "rnd" and lesson(app) == "invent_capsule"
    assert len(top(app).flow.session.actions) == actions
    assert any(t.kind == "lower_stage" for t in top(app).flow.state.things_of(0))


def test_playing_on_my_own_part_way_is_an_ordinary_game(make_app, home):
    from game.core import saves
    from game.client.whatgoesup.game_flow import shipped_engine
    from game.client.whatgoesup.tutorial import kept_save_path, progress_path, save_path

    WATCH.__init__()
    app = start(make_app)
    click(app, top(app).buttons["tutorial"])
    next_card(app)
    invent(app, "Lower stage", 4)
    loaded = saves.load_game(save_path(), shipped_engine())
    assert any(t.kind == "lower_stage" for t in loaded.final.things)
    assert "invent_capsule" in progress_path().read_text()
    guide = guide_of(app)
    frames(app)
    click_at(app, guide.buttons["keep"].center)
    assert saves.newest_save(saves.saves_folder()) is not None
    kept = saves.load_game(kept_save_path(), shipped_engine(), strict=True)
    assert any(t.kind == "lower_stage" for t in kept.final.things)
    assert not progress_path().exists()
