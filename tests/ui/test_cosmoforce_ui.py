"""Cosmoforce in the client, headless, through synthetic input only (clicks, drags and keys into pygame's queue):
the title's game chooser, a new fight, a ship refitted on its sheet, a short hot-seat fight played to its end
through the panel, the roster and the dice, dragging markers, a computer captain, and Continue from the title.
"""
import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame  # noqa: E402
import pytest  # noqa: E402

DT = 1 / 30
SEED = 424242


def frames(app, n=2, dt=DT):
    for _ in range(n):
        app.step(dt)


def post(kind, **data):
    pygame.event.post(pygame.event.Event(kind, data))


def click_at(app, pos, settle=2):
    post(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0))
    post(pygame.MOUSEBUTTONDOWN, pos=pos, button=1)
    post(pygame.MOUSEBUTTONUP, pos=pos, button=1)
    frames(app, settle)


def click(app, element, settle=2):
    assert element.visible and element.is_enabled, f"{getattr(element, 'text', element)!r} cannot be clicked"
    click_at(app, element.rect.center, settle)


def press_key(app, key, settle=2, mod=0):
    post(pygame.KEYDOWN, key=key, mod=mod, unicode="", scancode=0)
    post(pygame.KEYUP, key=key, mod=mod, unicode="", scancode=0)
    frames(app, settle)


def drag(app, start, end, settle=2):
    post(pygame.MOUSEMOTION, pos=start, rel=(0, 0), buttons=(0, 0, 0))
    post(pygame.MOUSEBUTTONDOWN, pos=start, button=1)
    frames(app, 1)
    middle = ((start[0] + end[0]) // 2, (start[1] + end[1]) // 2)
    for pos in (middle, end):
        post(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(1, 0, 0))
        frames(app, 1)
    post(pygame.MOUSEBUTTONUP, pos=end, button=1)
    frames(app, settle)


def top(app):
    return app.stack.top


@pytest.fixture
def title(make_app, monkeypatch):
    from game.client.cosmoforce import flow
    from game.client.launch import wire_games

    monkeypatch.setattr(flow, "new_seed", lambda: SEED)  # the one thing forced: the dice's seed
    app = make_app()
    pygame.event.clear()
    wire_games(app.context)
    app.start("title")
    frames(app)
    return app


def open_new_fight(app):
    click(app, top(app).buttons["game:cosmoforce"])
    assert top(app).name == "title" and app.context.chosen_game == "cosmoforce"
    assert top(app).buttons["game:cosmoforce"].is_selected
    assert not top(app).buttons["continue"].is_enabled  # nothing saved yet
    click(app, top(app).buttons["new_game"])
    assert top(app).name == "cosmoforce_new_game"
    return top(app)


def test_the_title_offers_both_games_and_keeps_what_goes_up_first(title):
    scene = top(title)
    assert {"game:whatgoesup", "game:cosmoforce"} <= set(scene.buttons)
    assert scene.buttons["game:whatgoesup"].is_selected and scene.chosen_game() == "whatgoesup"
    assert scene._words()[0] == "What Goes Up" and scene.buttons["tutorial"].is_enabled
    click(title, scene.buttons["game:cosmoforce"])
    scene = top(title)
    assert scene._words()[0] == "Cosmoforce"
    assert not scene.buttons["tutorial"].is_enabled and scene.buttons["rules"].is_enabled  # its own reference
    click(title, scene.buttons["game:whatgoesup"])
    click(title, top(title).buttons["new_game"])
    assert top(title).name == "new_game"  # What Goes Up's own new-game screen, as before


def test_a_ship_is_refitted_on_its_sheet(title):
    setup = open_new_fight(title)
    click(title, setup.buttons["ship:0:0"])
    sheet = top(title)
    assert sheet.name == "cosmoforce_sheet" and sheet.design.name == "Dart"
    click(title, sheet.buttons["class:cruiser"])
    sheet = top(title)
    assert sheet.design.ship_class == "cruiser" and "afterburner" not in sheet.design.systems
    before = len(sheet.design.systems)
    click_at(title, sheet.slot_rects[0].center)  # take the first system off
    assert len(top(title).design.systems) == before - 1
    click(title, top(title).buttons["add:railgun"])
    sheet = top(title)
    assert sheet.design.systems[-1] == "railgun" and sheet.problem() is None
    click(title, sheet.buttons["done"])
    setup = top(title)
    assert setup.name == "cosmoforce_new_game"
    assert setup.seats[0].ships[0].ship_class == "cruiser" and "railgun" in setup.seats[0].ships[0].systems


def test_a_short_hot_seat_fight_played_by_clicks(title):
    from game.games.cosmoforce.rules.state import PendingDamage, PendingRepair, PendingRoll, PendingTrim

    setup = open_new_fight(title)
    click(title, setup.buttons["human:1"])  # both captains at the screen
    setup = top(title)
    assert [s.human for s in setup.seats[:2]] == [True, True]
    click(title, setup.buttons["rounds"])  # 20 -> 30
    click(title, top(title).buttons["start"])
    combat = top(title)
    assert combat.name == "cosmoforce_combat"
    flow = combat.flow
    assert flow.session.state.setup.round_limit == 30 and flow.session.seed == SEED
    seen = {"roll": 0, "hit": 0, "turn": 0}
    for _ in range(400):
        if flow.session.over:
            break
        scene = top(title)
        if scene.name == "cosmoforce_dice":
            press_key(title, pygame.K_SPACE)  # skip the tumble
            press_key(title, pygame.K_SPACE)  # and go on
            continue
        assert scene is combat, scene.name
        step = flow.state.step
        if isinstance(step, PendingRoll):
            assert combat.buttons["roll"].is_enabled
            press_key(title, pygame.K_SPACE)
            seen["roll"] += 1
        elif isinstance(step, (PendingDamage, PendingRepair)):
            slot = min(combat.clickable_slots())
            click_at(title, combat.slot_rects[slot].center)
            seen["hit"] += isinstance(step, PendingDamage)
        elif isinstance(step, PendingTrim):
            click(title, next(b for k, b in combat.buttons.items() if k.startswith("trim:")))
        else:
            fire = combat.buttons.get("fire")
            key = "fire" if fire is not None and fire.is_enabled else "conserve"
            click(title, combat.buttons[key])
            seen["turn"] += 1
    assert flow.session.over, f"still fighting after the clicks: {seen}"
    assert seen["roll"] > 3 and seen["hit"] > 0 and seen["turn"] > 3
    outcome = flow.engine.outcome(flow.state)
    assert outcome.reason in combat.prompt()[1]
    assert {"story", "title"} <= set(top(title).buttons)
    click(title, top(title).buttons["story"])
    assert top(title).name == "log"


def test_markers_drag_and_dropping_on_an_enemy_aims(title):
    setup = open_new_fight(title)
    click(title, setup.buttons["human:1"])
    click(title, top(title).buttons["start"])
    combat = top(title)
    acting = combat.state.acting_ship.index
    enemy = combat.enemies()[0]
    combat.target = None
    start, goal = combat.marker_centre(acting), combat.marker_centre(enemy)
    drag(title, start, goal)
    assert combat.target == enemy and combat.marker_centre(acting) == start  # aimed, and back in its place
    field = combat.field_rect()
    spot = (field.centerx, field.bottom - field.h // 6)
    drag(title, start, spot)
    assert combat.marker_centre(acting) == pytest.approx(spot, abs=2)
    click_at(title, combat.marker_centre(enemy))
    assert combat.shown_ship() == enemy  # a click opens the enemy's roster


def test_a_computer_captain_plays_its_turns(title):
    setup = open_new_fight(title)
    click(title, top(title).buttons["seat:2"])  # a third captain, human
    setup = top(title)
    click(title, setup.buttons["human:0"])  # the first becomes a computer too
    click(title, top(title).buttons["start"])
    flow = top(title).flow
    actions = len(flow.session.actions)
    for _ in range(240):  # eight seconds of frames
        frames(title, 1)
        if top(title).name == "cosmoforce_dice" and not top(title).unattended:
            break
    assert len(flow.session.actions) > actions  # computers acted (and rolled) by themselves


def test_continue_from_the_title_brings_the_fight_back(title):
    setup = open_new_fight(title)
    click(title, setup.buttons["human:1"])
    click(title, top(title).buttons["start"])
    combat = top(title)
    click(title, combat.buttons["conserve"])
    state = combat.flow.state
    press_key(title, pygame.K_ESCAPE)
    assert top(title).name == "cosmoforce_menu"
    click(title, top(title).buttons["title"])
    scene = top(title)
    assert scene.name == "title" and scene.chosen_game() == "cosmoforce"
    click(title, scene.buttons["continue"])
    assert top(title).name == "cosmoforce_combat" and top(title).flow.state == state
    press_key(title, pygame.K_s, mod=pygame.KMOD_CTRL)
    assert top(title).name == "save_game"
    press_key(title, pygame.K_ESCAPE)
    top(title).flow.quit_to_title()
    click(title, top(title).buttons["load"])
    load = top(title)
    assert load.name == "load_game" and load.infos and all(x.ok for x in load.infos)
    assert load.entry.id == "cosmoforce" and all(x.words.startswith("round ") for x in load.infos)
    click(title, load.buttons["load:0"])
    assert top(title).name == "cosmoforce_combat"


@pytest.mark.parametrize("size", [(1280, 720), (1920, 1080)])
def test_the_panel_fits_the_window(title, size):
    """Every widget of the combat panel lies inside the window and inside its panel, at both sizes."""
    from game.client.launch import make_app as make  # noqa: F401 - the fixture's app is 1280x720

    app = title
    if size != (1280, 720):
        pygame.display.set_mode(size)
        app.relayout()
    setup = open_new_fight(app)
    click(app, setup.buttons["start"])
    combat = top(app)
    window = pygame.Rect((0, 0), app.surface.get_size())
    panel = combat.panel_rect()
    for key, button in combat.buttons.items():
        assert window.contains(button.rect), key
        assert panel.inflate(4, 4).contains(button.rect), key
