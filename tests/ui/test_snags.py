"""The first hour's snags, each pinned by a test that reads what a player would see: every word drawn in a
frame and every widget's words, on new game, R&D (every tab), assembly, trading and settings."""
from __future__ import annotations

import re
import sys

import pygame
import pygame_gui
import pytest

from game.games.whatgoesup.rules.actions import Build, Invent
from game.games.whatgoesup.rules.state import TradeBundle

SIZES = [(1280, 720), (1920, 1080)]
HEX = re.compile(r"#[0-9A-Fa-f]{6}\b")
ENGINE_ID = re.compile(r"\b[ITDU]\d+\b")
UNCOUNTED = re.compile(r"\w\(s\)|\b1 (points|dots|steps|containers|copies|derps|burns|derp-turns|programs)\b"
                       r"|\b(0|[2-9]|\d\d+) (point|dot|step|container|derp-turn)\b(?![-\w])")
PATH = re.compile(r"[\w.-]*/[\w.-]+/|\\[\w.-]+\\|\.(json|py|log)\b")


def press(app, button):
    assert button.is_enabled, f"{button.text!r} is disabled"
    app.step(0.0, [pygame.event.Event(pygame_gui.UI_BUTTON_PRESSED, {"ui_element": button, "ui_object_id": ""})])


@pytest.fixture
def drawn(monkeypatch):
    """Every string drawn with the kit's draw_text (by any client module) goes into the returned list."""
    import importlib

    from game.client.kit import style

    for name in ("game.client.launch", "game.client.kit.text", "game.client.kit.widgets",
                 "game.client.scenes.settings_scene", "game.client.whatgoesup.new_game", "game.client.whatgoesup.rnd",
                 "game.client.whatgoesup.trade", "game.client.whatgoesup.assembly",
                 "game.client.whatgoesup.rules_reference", "game.client.whatgoesup.rocket_view"):
        importlib.import_module(name)  # loaded now, so every module's draw_text is the one recorded
    original = style.draw_text
    words: list[str] = []

    def recording(surface, text, *args, **kwargs):
        words.append(text)
        return original(surface, text, *args, **kwargs)

    for name, module in list(sys.modules.items()):
        if name.startswith("game.client") and getattr(module, "draw_text", None) is original:
            monkeypatch.setattr(module, "draw_text", recording)
    return words


def widget_words(app) -> list[str]:
    """The words of every live widget: button and label texts, drop-down options, text boxes."""
    out = []
    for element in app.manager.get_sprite_group().sprites():
        if isinstance(element, pygame_gui.elements.UIDropDownMenu):
            out += [text for text, _ in element.options_list]
        elif isinstance(element, pygame_gui.elements.UITextBox):
            out.append(re.sub(r"<[^>]+>", "", element.html_text))
        elif hasattr(element, "text") and isinstance(element.text, str):
            out.append(element.text)
    return out


def screen(app, drawn) -> str:
    drawn.clear()
    app.step(1 / 30, [])
    return "\n".join(drawn + widget_words(app))


def rnd_scene(make_app, home, size=(1280, 720), assemble=False):
    from game.tools.flow_shots import _flow, scripted_session

    session = scripted_session(home / "saves", assemble=assemble)
    app = make_app(size=size)
    flow = _flow(app, session)
    app.step(0.0, [])
    return app, flow, flow.main_scene()


# ---------------------------------------------------------------- colours, ids, nouns, paths
def test_colours_are_chosen_from_swatches_in_the_programs_shape_not_hex(make_app, drawn):
    from game.client.kit.draw import shape_for
    from game.games.whatgoesup.rules.engine import PROGRAM_COLOURS

    app = make_app()
    app.start("title")
    scene = app.context.open("new_game")
    words = screen(app, drawn)
    assert not HEX.search(words), HEX.search(words)
    swatches = scene.swatches()
    seats = {s for s, *_ in swatches}
    assert seats == {0, 1}  # every playing seat, nothing for an empty one
    assert [c for s, c, *_ in swatches if s == 0] == scene.palette(0)
    assert set(scene.palette(0)[1:]) <= set(PROGRAM_COLOURS) and shape_for(0) != shape_for(1)
    # A colour seat 1 holds is faded for seat 0 and refused. A free one is taken with a click.
    taken = PROGRAM_COLOURS[1]
    assert scene.choose_colour(1, taken)
    swatches = scene.swatches()
    assert not next(free for s, c, _r, _c, free in swatches if s == 0 and c == taken)
    assert not scene.choose_colour(0, taken)
    seat, colour, rect, _chosen, _free = next(w for w in swatches if w[0] == 0 and w[4] and not w[3])
    app.step(1 / 30, [pygame.event.Event(pygame.MOUSEBUTTONDOWN, {"pos": rect.center, "button": 1})])
    assert scene.seats[0].colour == colour
    session = scene.start()
    assert session.state.programs[0].colour.lower() == colour.lower()


def test_players_never_see_engine_ids(make_app, home, drawn):
    from game.games.whatgoesup.rules.state import UpgoerDesign

    app, flow, scene = rnd_scene(make_app, home, assemble=True)
    session = flow.session
    texts = []
    for tab in ("invent", "research", "build", "supplies", "derps", "other"):
        press(app, scene.buttons[f"tab:{tab}"])
        texts.append(screen(app, drawn))
    press(app, scene.buttons["trade"])
    trade = app.stack.top
    for side, owner in (("give", 0), ("take", 1)):
        trade.picked[side] = {(what, some_id) for what, some_id, _text in trade.tradeables(owner)}
    trade.relayout()
    texts.append(screen(app, drawn))
    app.context.back()
    press(app, app.stack.top.buttons["assemble"])
    assembly = app.stack.top
    upgoer = session.state.upgoers_of(0)[0]  # its parts are on the pad already: the report names them
    assembly.load_design(UpgoerDesign(upgoer.name, stages=upgoer.stages, modules=upgoer.modules, crew=upgoer.crew))
    texts.append(screen(app, drawn))
    assert assembly.report().problems  # "... is already part of another Upgoer", in words
    words = "\n".join(texts)
    ids = {i.id for i in session.state.items} | {t.id for t in session.state.things} | \
        {d.id for d in session.state.derps}
    found = {m.group(0) for m in ENGINE_ID.finditer(words)} & ids
    assert not found, found


def test_the_engines_reasons_are_told_by_name(make_app, home):
    from game.client.whatgoesup.names import player_words

    app, flow, scene = rnd_scene(make_app, home)
    state = flow.state
    item = state.items_of(0)[0]
    name = state.thing(item.thing_id).name
    assert player_words(state, f"{name} ({item.id}) is a lower stage") == f"{name} is a lower stage"
    assert player_words(state, f"{item.id} is used twice") == f"{name} is used twice"
    assert player_words(state, "T999 is not an id here") == "T999 is not an id here"


def test_nouns_are_counted_properly_everywhere(make_app, home, drawn):
    from game.client.kit.words import counted

    assert [counted(n, "dot") for n in (0, 1, 2)] == ["0 dots", "1 dot", "2 dots"]
    assert counted(1, "derp-turn of rations") == "1 derp-turn of rations" and counted(3, "copy") == "3 copies"
    app, flow, scene = rnd_scene(make_app, home)
    texts = []
    for tab in ("invent", "research", "build", "supplies", "derps", "other"):
        press(app, scene.buttons[f"tab:{tab}"])
        texts.append(screen(app, drawn))
    pod = next(t for t in flow.state.things_of(0) if t.name == "Little Hopper")
    scene.form.update(r_thing=pod.id, r_safety="boom", r_steps=1)
    press(app, scene.buttons["tab:research"])
    texts.append(screen(app, drawn))
    press(app, scene.buttons["trade"])
    trade = app.stack.top
    trade.amounts["give"]["points"] = 1
    trade.amounts["take"]["dots"] = 1
    trade.amounts["take"]["rations"] = 1
    texts.append(screen(app, drawn))
    assert "gives 1 point;" in texts[-1] and "1 dot and 1 derp-turn of rations" in texts[-1]
    app.context.back()
    app.context.open("rules_reference")
    for key in ("turn", "rnd", "derps", "prestige"):
        app.stack.top.show_section(key)
        texts.append(screen(app, drawn))
    words = "\n".join(texts)
    assert not UNCOUNTED.search(words), UNCOUNTED.search(words)


def test_dialogs_never_show_file_paths(make_app, drawn, monkeypatch):
    from game.client.shell import app as app_module

    app = make_app()
    app.start("title")
    scene = app.context.open("settings")

    def refuse(settings, path):
        raise PermissionError(13, "Permission denied", str(path))

    monkeypatch.setattr(app_module, "save_settings", refuse)
    scene.change(animation_speed="skip")
    words = screen(app, drawn)
    assert "Could not save settings" in scene.status and "Permission denied" in scene.status
    assert not PATH.search(words), PATH.search(words)
    assert str(app.settings_path) not in words and str(app.home) not in words


# ---------------------------------------------------------------- widgets that cut their words
@pytest.mark.parametrize("size", SIZES)
def test_no_drop_down_clips_its_words(make_app, home, size):
    from game.client.kit.widgets import clipped_options

    app = make_app(size=size)
    app.start("title")
    scene = app.context.open("new_game")
    app.step(1 / 30, [])
    menus = list(scene.people_menus) + [scene.victory_menu]
    for menu in menus:
        assert clipped_options(menu) == [], menu.options_list
    app, flow, rnd = rnd_scene(make_app, home, size=size, assemble=True)
    long_name = "Carrot Lower Stage Supreme Mk 12"
    flow.session.apply(Invent("lower_stage", 2, long_name))
    rnd.refresh()
    for tab in ("invent", "research", "build", "derps", "other"):
        press(app, rnd.buttons[f"tab:{tab}"])
        for key, menu in rnd.menus.items():
            assert clipped_options(menu) == [], (tab, key, menu.options_list)
        if tab == "research":
            assert any(long_name in text for text, _ in rnd.menus["r_thing"].options_list)


def test_the_difficulty_is_described_whole(make_app, drawn):
    app = make_app()
    app.start("title")
    scene = app.context.open("new_game")
    scene.on_button("mode:stop_the_rock")
    scene = app.stack.top
    for level in scene.scenario().difficulties:
        scene.on_button(f"difficulty:{level.id}")
        drawn.clear()
        app.step(1 / 30, [])
        words = scene.difficulty_explanation(scene.scenario(), level)
        assert not any("…" in text for text in drawn)
        assert " ".join(t for t in drawn if t.strip() and t.strip() in words).split() == words.split()
        assert scene.note_rect().bottom <= app.layout.px(app.layout.virtual_height - 24 - 56)


# ---------------------------------------------------------------- messages where nothing covers them
def _shown_rect(element) -> pygame.Rect:
    """The part of a widget a player can see: its rect cut by every container it sits in (a list scrolls)."""
    rect = pygame.Rect(element.rect)
    container, seen = element.ui_container, set()
    while container is not None and id(container) not in seen:
        seen.add(id(container))
        rect = rect.clip(container.get_rect())
        container = getattr(container, "ui_container", None)
    return rect


def _widget_rects(scene):
    rects = []
    for element in scene.context.manager.get_sprite_group().sprites():
        if element is scene.root or not getattr(element, "visible", True) or type(element).__name__ == "_Spot":
            continue
        if isinstance(element, (pygame_gui.elements.UIButton, pygame_gui.elements.UIDropDownMenu,
                                pygame_gui.elements.UITextEntryLine, pygame_gui.elements.UITextBox,
                                pygame_gui.elements.UIScrollingContainer, pygame_gui.elements.UIHorizontalSlider,
                                pygame_gui.elements.UIVerticalScrollBar, pygame_gui.elements.UIImage)):
            rects.append((element, _shown_rect(element)))
    return rects


def _clear_of_widgets(scene, size):
    strip = scene.status_rect()
    assert pygame.Rect((0, 0), size).contains(strip)
    for element, rect in _widget_rects(scene):
        assert not rect.colliderect(strip), (scene.name, element, rect, strip)


@pytest.mark.parametrize("size", SIZES)
def test_messages_are_never_under_a_widget(make_app, home, size):
    app, flow, scene = rnd_scene(make_app, home, size=size, assemble=True)
    for tab in ("invent", "research", "build", "supplies", "derps", "other"):
        press(app, scene.buttons[f"tab:{tab}"])
        _clear_of_widgets(scene, size)
    scene.do("reverse")  # nothing to copy: the reason shows in the strip
    assert scene.toast_kind == "error"
    press(app, scene.buttons["trade"])
    _clear_of_widgets(app.stack.top, size)
    app.context.back()
    press(app, app.stack.top.buttons["assemble"])
    _clear_of_widgets(app.stack.top, size)
    app.context.back()
    app.context.open("new_game")
    _clear_of_widgets(app.stack.top, size)
    settings = app.context.open("settings")
    app.step(1 / 30, [])
    _clear_of_widgets(settings, size)


def test_a_long_message_is_shown_whole(make_app, home, drawn):
    app, flow, scene = rnd_scene(make_app, home)
    text = ("Not allowed: Burrow Pod is 4/5: its Fail safety must stay below its Boom safety, so research Boom to "
            "Fail first, and remember that every step costs a point per mass.")
    scene.toast(text, "error")
    drawn.clear()
    app.step(1 / 30, [])
    assert " ".join(t for t in drawn if t and t in text).split() == text.split()


# ---------------------------------------------------------------- suggestions that fly
def test_suggestions_are_designs_that_can_fly(make_app, home):
    from game.games.whatgoesup.rules.actions import EndRnD
    from game.tools.flow_shots import scripted_session
    from game.client.whatgoesup.assembly import AssemblyScene, flyable_suggestions

    session = scripted_session(home / "saves")
    engine, state = session.engine, session.state
    designs = flyable_suggestions(engine, state, 0, "Test")
    assert designs
    for design in designs:
        roles = {engine.rules.components.kind(state.thing(state.item(m).thing_id).kind).role for m in design.modules}
        assert "capsule" in roles
        assert engine.check_design(state, 0, design).valid
        assert design.crew or len(design.stages) == 1  # an uncrewed craft may only hop
    assert designs[0].crew  # a crew to orbit first, when there is one
    # Only lower stages in storage: the engine would offer a bare stage; the scene offers nothing and says why.
    from game.games.whatgoesup.rules.state import PlayerSetup, Setup
    from game.core.session import GameSession

    lone = GameSession.new(engine, Setup(players=(PlayerSetup("Solo", "rabitians"),)), 3, saves_dir=home / "solo")
    lone.apply(Invent("lower_stage", 3, "Stick"))
    lone.apply(EndRnD())
    lone.apply(Build(lone.state.things_of(0)[0].id))
    assert any(not d.modules for d in engine.suggested_designs(lone.state, 0))
    assert flyable_suggestions(engine, lone.state, 0, "Test") == []
    from game.client.whatgoesup.game_flow import start_game

    app = make_app()
    flow = start_game(app.context, lone)
    flow.passed_to(0)
    scene = app.context.stack.push(AssemblyScene(app.context, flow, 0))
    press(app, scene.buttons["suggest"])
    assert scene.design().stages == () and "needs a capsule" in scene.toast_text


def test_offers_name_parts_without_ids(make_app, home):
    from game.tools.flow_shots import scripted_session
    from game.client.whatgoesup.trade import bundle_words

    session = scripted_session(home / "saves")
    state = session.state
    item = state.items_of(0)[0]
    words = bundle_words(state, TradeBundle(points=1, fuel=2, items=(item.id,)))
    assert words == f"1 point, 2 fuel and {state.thing(item.thing_id).name}"
    assert bundle_words(state, TradeBundle()) == "nothing"
