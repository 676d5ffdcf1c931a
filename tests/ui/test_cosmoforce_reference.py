"""Cosmoforce's rules reference and glossary, its Round header and its saves through the shared scenes, driven
headless by synthetic input: opened from the title and from a fight, scrolled, closed; every number comes from
the loaded tables (a house rule shows); the reference's widgets stay inside the window at several sizes."""
import dataclasses
import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame  # noqa: E402
import pytest  # noqa: E402

from tests.ui.test_cosmoforce_ui import SEED, click, frames, open_new_fight, post, press_key, top  # noqa: E402,F401
from tests.ui.test_cosmoforce_ui import title  # noqa: E402,F401  (the fixture)


def _rules():
    from game.client.cosmoforce.shipped import shipped_engine

    return shipped_engine().rules


def _house(rules):
    """The shipped tables with three actions a turn and lasers of three dice."""
    combat = dataclasses.replace(rules.combat, actions_per_turn=3)
    weapons = dataclasses.replace(rules.weapons, weapons=tuple(
        dataclasses.replace(w, dice_per_system=3) if w.system == "laser" else w for w in rules.weapons.weapons))
    return dataclasses.replace(rules, combat=combat, weapons=weapons)


def _text(sections) -> str:
    return "\n".join(p for s in sections for p in s.paragraphs)


def test_the_reference_has_its_sections_and_the_tables_numbers():
    from game.client.cosmoforce.reference import reference_sections

    rules = _rules()
    sections = reference_sections(rules)
    assert [s.title for s in sections] == ["The fight", "Building a ship", "Systems", "Effective dice",
                                           "Speed and order", "Actions", "Weapons", "Damage", "Aftermath and heat",
                                           "The end"]
    text = _text(sections)
    assert "A turn is 2 actions." in text and "Laser: 2 dice for each one fired" in text
    assert "Capital ship: size 3, 3 crew per habitat, special system hangar." in text
    assert "Each die is effective 1/2 of the time (50%)." in text
    assert "a 3 and a 5 add up to 8, so only the 3 hits" in text  # the page's own example, from the dice rules
    for system in rules.systems.systems:
        assert f"{system.name}: " in text
    house = _text(reference_sections(_house(rules)))
    assert "A turn is 3 actions." in house and "Laser: 3 dice for each one fired" in house


def test_every_glossary_entry_reads_well_and_uses_the_loaded_numbers():
    from game.client.cosmoforce.combat import ACTION_TERMS
    from game.client.cosmoforce.glossary import WORDS

    rules = _rules()
    for term in WORDS.terms():
        words = WORDS.explain(term, rules)
        assert 30 < len(words) <= 330 and "{" not in words and "(s)" not in words, term
    assert all(WORDS.has(term) for term in ACTION_TERMS.values())
    assert "2 actions" in WORDS.explain("turn", rules) and "3 actions" in WORDS.explain("turn", _house(rules))
    assert "3 dice for each one fired" in WORDS.explain("lasers", _house(rules))  # an alias reaches its entry
    with pytest.raises(KeyError):
        WORDS.explain("warp drive", rules)


def _scroll(app, scene, steps=6):
    pos = scene.text_box.rect.center
    pygame.mouse.set_pos(pos)
    post(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0))
    frames(app, 1)
    for _ in range(steps):
        post(pygame.MOUSEWHEEL, x=0, y=-1, flipped=False, precise_x=0.0, precise_y=-1.0, which=0)
        frames(app, 1)
    frames(app, 10)


def test_from_the_title_the_reference_opens_scrolls_and_closes(title):
    app = title
    click(app, top(app).buttons["game:cosmoforce"])
    assert top(app).buttons["rules"].is_enabled
    click(app, top(app).buttons["rules"])
    scene = top(app)
    assert scene.name == "rules_reference" and type(scene).__name__ == "CosmoReferenceScene"
    assert scene.section == "fight" and "Every captain builds" in scene.text_box.html_text
    click(app, scene.buttons["section:glossary"])
    assert scene.section == "glossary" and "<b>Effective die</b>" in scene.text_box.html_text
    assert scene.scroll_fraction() == 0.0 and scene.text_box.scroll_bar is not None  # long: it scrolls
    _scroll(app, scene)
    assert scene.scroll_fraction() > 0.0
    press_key(app, pygame.K_DOWN)
    assert scene.section == "fight"  # Down wraps round from the last section
    click(app, scene.buttons["close"])
    assert top(app).name == "title" and app.context.chosen_game == "cosmoforce"


def _fight(app):
    open_new_fight(app)
    click(app, top(app).buttons["human:1"])
    click(app, top(app).buttons["start"])
    combat = top(app)
    assert combat.name == "cosmoforce_combat"
    return combat


def test_in_a_fight_f2_and_the_pause_menu_open_cosmoforces_reference_and_glossary(title):
    app = title
    combat = _fight(app)
    press_key(app, pygame.K_F2)
    scene = top(app)
    assert type(scene).__name__ == "CosmoReferenceScene" and scene.rules is combat.flow.session.engine.rules
    press_key(app, pygame.K_F2)
    assert top(app) is combat
    press_key(app, pygame.K_ESCAPE)
    menu = top(app)
    assert menu.name == "cosmoforce_menu" and {"rules", "glossary"} <= set(menu.buttons)
    click(app, menu.buttons["glossary"])
    assert top(app).name == "rules_reference" and top(app).section == "glossary"
    press_key(app, pygame.K_ESCAPE)
    assert top(app) is menu
    click(app, menu.buttons["rules"])
    assert top(app).section == "fight"
    click(app, top(app).buttons["close"])
    click(app, menu.buttons["resume"])
    assert top(app) is combat


def test_an_action_button_explains_its_action_on_hover(title):
    from game.client.cosmoforce.glossary import WORDS
    from game.client.kit.glossary import tooltip_text

    app = title
    combat = _fight(app)
    button = combat.buttons["conserve"]
    pygame.mouse.set_pos(button.rect.center)
    post(pygame.MOUSEMOTION, pos=button.rect.center, rel=(0, 0), buttons=(0, 0, 0))
    frames(app, 30)
    text = tooltip_text(button)
    assert text is not None and "<b>Conserve energy</b>" in text
    assert WORDS.explain("conserve energy", combat.engine.rules) in text
    assert app.surface.get_rect().contains(button.tool_tip.rect)


def test_the_header_counts_rounds_in_a_fight_and_turns_in_what_goes_up(title, monkeypatch):
    from game.client.scenes import game_scene

    app = title
    combat = _fight(app)
    drawn = []
    real = game_scene.draw_text
    monkeypatch.setattr(game_scene, "draw_text", lambda surface, text, *a, **k: drawn.append(text) or
                        real(surface, text, *a, **k))
    frames(app, 1)
    state = combat.flow.state
    assert f"Round {state.turn} of {state.setup.turn_limit}" in drawn
    assert not any(text.startswith("Turn ") for text in drawn)
    assert combat.flow.turn_word == "Round" and app.context.game("whatgoesup").turn_word == "Turn"
    assert "Round" not in combat.subtitle() and "(s)" not in combat.subtitle()


def test_a_fight_saved_by_hand_loads_through_the_shared_screens(title, home):
    from game.client.scenes.saveload import LoadScene

    app = title
    combat = _fight(app)
    click(app, combat.buttons["conserve"])
    actions = list(top(app).flow.session.actions)
    press_key(app, pygame.K_s, mod=pygame.KMOD_CTRL)
    dialog = top(app)
    assert dialog.name == "save_game" and dialog.default_name.endswith("round-1")
    dialog.entry.set_text("Before the big burn")
    click(app, dialog.buttons["save"])
    path = home / "cosmoforce" / "before-the-big-burn.json"
    assert path.is_file() and "before-the-big-burn.json" in top(app).toast_text
    top(app).flow.quit_to_title()
    frames(app)
    assert top(app).chosen_game() == "cosmoforce"
    click(app, top(app).buttons["load"])
    load = top(app)
    assert isinstance(load, LoadScene) and load.entry.id == "cosmoforce" and load.folder == home / "cosmoforce"
    row = next(n for n, info in enumerate(load.rows()) if info.path == path)
    assert load.rows()[row].words.startswith("round 1 · ")
    click(app, load.buttons[f"load:{row}"])
    assert top(app).name == "cosmoforce_combat" and list(top(app).flow.session.actions) == actions
    # What Goes Up's Load screen never lists a fight (its saves are in their own folder)
    app.context.chosen_game = "whatgoesup"
    app.start("title")
    frames(app)
    click(app, top(app).buttons["load"])
    assert top(app).entry.id == "whatgoesup" and all(info.path.parent == home for info in top(app).infos)
    assert not any(info.path == path for info in top(app).infos)


@pytest.mark.parametrize("size", [(1280, 720), (1024, 600), (1920, 1080), (3840, 2160)])
def test_the_reference_and_the_pause_menu_fit_the_window(make_app, size):
    from game.client.cosmoforce.flow import CosmoMenuScene

    app = make_app(size=size)
    app.start("title")
    window = app.surface.get_rect()
    for game in ("cosmoforce", "whatgoesup"):
        for section in ("", "glossary"):
            scene = app.context.open_reference(game, section=section)
            frames(app, 1)
            card = scene.card_rect()
            assert window.contains(card)
            rects = [b.rect for b in scene.buttons.values()] + [scene.text_box.rect]
            for rect in rects:
                assert card.contains(rect), (game, section, rect)
            for i, a in enumerate(rects):
                for b in rects[i + 1:]:
                    assert not a.colliderect(b), (game, section, a, b)
            app.context.back()
    menu = CosmoMenuScene(app.context, None)
    app.stack.push(menu)
    frames(app, 1)
    buttons = [b.rect for b in menu.buttons.values()]
    assert all(window.contains(r) and menu.card_rect().contains(r) for r in buttons)
    assert not any(a.colliderect(b) for i, a in enumerate(buttons) for b in buttons[i + 1:])


def test_the_speed_order_explains_speed_ties_and_rounds_on_hover(title):
    from game.client.kit.glossary import tooltip_text

    app = title
    combat = _fight(app)
    spot = combat.order_spot
    assert spot is not None and spot.rect == combat.order_label_rect()
    pygame.mouse.set_pos(spot.rect.center)
    post(pygame.MOUSEMOTION, pos=spot.rect.center, rel=(0, 0), buttons=(0, 0, 0))
    frames(app, 30)
    text = tooltip_text(spot)
    assert text is not None and "<b>Tie for speed</b>" in text and "0.01" in text
    assert app.surface.get_rect().contains(spot.tool_tip.rect)


def test_the_story_and_the_help_card_speak_cosmoforce_in_a_fight(title, monkeypatch):
    from game.client.scenes import logview

    app = title
    combat = _fight(app)
    click(app, combat.buttons["conserve"])
    press_key(app, pygame.K_l)
    story = top(app)
    assert story.name == "log" and "<b>Round 1</b>" in story.box.html_text and "<b>Turn" not in story.box.html_text
    drawn = []
    real = logview.draw_text
    monkeypatch.setattr(logview, "draw_text", lambda surface, text, *a, **k: drawn.append(text) or
                        real(surface, text, *a, **k))
    story.still.forget()  # the story's picture is painted once per change: paint it again for the recorder
    frames(app, 1)
    assert "crew lost, ships out" in drawn and "derps lost" not in drawn and "budgets" not in drawn
    press_key(app, pygame.K_ESCAPE)
    press_key(app, pygame.K_F1)
    words = [what for _keys, what in top(app).shortcuts()]
    assert not any("R&D" in w or "Field" in w for w in words) and any("Undo" in w for w in words)
    press_key(app, pygame.K_ESCAPE)
    app.context.chosen_game = "whatgoesup"
    app.start("title")
    app.context.open("help")
    assert any("R&D" in what for _keys, what in top(app).shortcuts())  # What Goes Up keeps its own keys


def test_the_ship_sheets_numbers_explain_themselves_on_hover(title):
    from game.client.kit.glossary import tooltip_text

    app = title
    open_new_fight(app)
    click(app, top(app).buttons["ship:0:0"])
    sheet = top(app)
    frames(app, 1)
    assert len(sheet.stat_spots) == 4
    mass = sheet.stat_spots[0]
    pygame.mouse.set_pos(mass.rect.center)
    post(pygame.MOUSEMOTION, pos=mass.rect.center, rel=(0, 0), buttons=(0, 0, 0))
    frames(app, 30)
    text = tooltip_text(mass)
    assert text is not None and "<b>Mass</b>" in text and "fighter 1, cruiser 2, capital ship 3" in text
    assert app.surface.get_rect().contains(mass.tool_tip.rect)


def test_a_greyed_out_title_button_says_why(title):
    """Hovering a greyed-out button shows why (pygame_gui hovers no disabled button: the title puts a hover
    spot over it)."""
    from game.client.kit.glossary import tooltip_text

    app = title
    click(app, top(app).buttons["game:cosmoforce"])
    scene = top(app)
    frames(app, 1)
    for key, words in (("tutorial", "Cosmoforce has no tutorial"), ("continue", "No Cosmoforce game saved yet")):
        assert not scene.buttons[key].is_enabled
        where = scene.buttons[key].rect.center
        pygame.mouse.set_pos(where)
        post(pygame.MOUSEMOTION, pos=where, rel=(0, 0), buttons=(0, 0, 0))
        frames(app, 30)
        spot = next(s for s in app.manager.get_sprite_group().sprites()
                    if getattr(s, "tool_tip", None) is not None)
        assert tooltip_text(spot).startswith(words), key
        assert app.surface.get_rect().contains(spot.tool_tip.rect)
        pygame.mouse.set_pos((2, 2))
        post(pygame.MOUSEMOTION, pos=(2, 2), rel=(0, 0), buttons=(0, 0, 0))
        frames(app, 2)
