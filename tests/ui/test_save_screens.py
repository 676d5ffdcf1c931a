"""Saves in the client (issue 15), headless: the Load screen lists good saves beside a row per broken one
(too deep, cut short), never settings.json, folders or pipes, and the good ones still load; Continue
ignores settings.json; an edited save says so on its row and in the story; the name fields allow exactly
what the save loader accepts."""
import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import json  # noqa: E402

import pygame  # noqa: E402
import pygame_gui  # noqa: E402
import pytest  # noqa: E402

from game.core.session import Notice  # noqa: E402
from game.games.whatgoesup.rules.limits import DERP_NAME_MAX, PART_NAME_MAX, PROGRAM_NAME_MAX, UPGOER_NAME_MAX  # noqa: E402


def press(app, button):
    assert button.is_enabled, f"{button.text!r} is disabled"
    app.step(0.0, [pygame.event.Event(pygame_gui.UI_BUTTON_PRESSED, {"ui_element": button, "ui_object_id": ""})])


def top(app):
    return app.stack.top


@pytest.fixture
def saved(home):
    """A real save of the scripted game in the home folder, and its session."""
    from game.tools.flow_shots import scripted_session
    session = scripted_session(home / "play")
    return session.save(home / "good.json"), session


def title_app(make_app):
    from game.client.whatgoesup.entry import wire
    app = make_app()
    wire(app.context)
    return app, app.start("title")


def test_the_load_screen_lists_broken_saves_and_still_loads_the_good_one(make_app, home, saved):
    from game.client.scenes.saveload import LoadScene
    path, session = saved
    (home / "deep.json").write_text("[" * 100_000, encoding="utf-8")
    (home / "huge-number.json").write_text(path.read_text("utf-8").replace('"seed": ', '"seed": ' + "9" * 5000),
                                           encoding="utf-8")
    (home / "settings.json").write_text(json.dumps({"version": 1, "volume": 0.3}), encoding="utf-8")
    (home / "folder.json").mkdir()
    if hasattr(os, "mkfifo"):
        os.mkfifo(home / "pipe.json")
    app, _ = title_app(make_app)
    app.context.stack.push(LoadScene(app.context, folder=home))
    scene = top(app)
    app.step(0.016, [])  # draws every row
    rows = {info.path.name: info for info in scene.infos}
    assert set(rows) == {"good.json", "deep.json", "huge-number.json"}
    assert "nested too deeply" in rows["deep.json"].error
    assert "digits; at most 20 are allowed" in rows["huge-number.json"].error
    for n, info in enumerate(scene.rows()):
        assert scene.buttons[f"load:{n}"].is_enabled == info.ok
    good_row = next(n for n, info in enumerate(scene.rows()) if info.path.name == "good.json")
    press(app, scene.buttons[f"load:{good_row}"])
    assert list(top(app).flow.session.actions) == list(session.actions)


def test_continue_is_not_offered_for_settings_alone(make_app, home):
    (home / "settings.json").write_text(json.dumps({"version": 1, "volume": 0.3}), encoding="utf-8")
    if hasattr(os, "mkfifo"):
        os.mkfifo(home / "pipe.json")
    _, title = title_app(make_app)
    assert "continue" not in title.buttons or not title.buttons["continue"].is_enabled


def test_changing_the_volume_does_not_break_continue(make_app, home, saved):
    path, session = saved
    (home / "settings.json").write_text(json.dumps({"version": 1, "volume": 0.1}), encoding="utf-8")
    app, title = title_app(make_app)
    press(app, title.buttons["continue"])
    assert list(top(app).flow.session.actions) == list(session.actions)


def launched_and_rolled(folder):
    """A one-program game whose last action is a launch roll."""
    from game.client.whatgoesup.shipped import shipped_engine
    from game.core.session import GameSession
    from game.games.whatgoesup.rules.actions import Assemble, Build, EndRnD, Invent, Research
    from game.games.whatgoesup.rules.state import PlayerSetup, Setup, UpgoerDesign
    setup = Setup(players=(PlayerSetup("Test Space", "rabitians"),), options=frozenset({"simplified_stack"}),
                  turn_limit=4)
    session = GameSession.new(shipped_engine(), setup, 11, saves_dir=folder)
    session.apply(Invent("lower_stage", 4, "Hopper"))
    session.apply(Invent("capsule", 3, "Pod"))
    ids = {t.name: t.id for t in session.state.things}
    for action in (Research(ids["Hopper"], "fail", 1), Research(ids["Pod"], "fail", 2), Build(ids["Hopper"]),
                   Build(ids["Pod"])):
        session.apply(action)
    items = {session.state.thing(i.thing_id).name: i.id for i in session.state.items_of(0)}
    session.apply(Assemble(UpgoerDesign("Hop", stages=((items["Hopper"],),), modules=(items["Pod"],))))
    session.apply(EndRnD())
    session.apply(next(a for a in session.legal_actions() if type(a).__name__ == "Launch"))
    session.roll()
    return session


def test_an_edited_save_says_so_on_its_row_and_in_the_story(make_app, home):
    from game.client.scenes.saveload import LoadScene
    session = launched_and_rolled(home / "play")
    path = session.save(home / "edited.json")
    doc = json.loads(path.read_text("utf-8"))
    rolled = doc["actions"][-1]["value"]
    doc["actions"][-1]["value"] = next(r.value for r, _ in session.engine.chance_outcomes(session.states[-2])
                                       if r.value != rolled)
    path.write_text(json.dumps(doc), "utf-8")
    app, _ = title_app(make_app)
    app.context.stack.push(LoadScene(app.context, folder=home))
    scene = top(app)
    info = next(i for i in scene.infos if i.path.name == "edited.json")
    assert info.ok and info.edited
    app.step(0.016, [])  # the row is drawn with its note
    press(app, scene.buttons[f"load:{scene.rows().index(info)}"])
    assert hasattr(top(app), "flow"), vars(top(app))
    loaded = top(app).flow.session
    assert loaded.edited and loaded.actions[-1].value == doc["actions"][-1]["value"]
    notes = [e for e in loaded.log if isinstance(e.event, Notice)]
    assert len(notes) == 1 and notes[0].event.text.startswith("This save was edited: roll 1 (action ")


def test_the_name_fields_allow_what_saves_allow(make_app, home):
    app, _ = title_app(make_app)
    from game.client.whatgoesup.new_game import open_new_game
    open_new_game(app.context)
    scene = top(app)
    assert scene.name_entries and all(e.length_limit == PROGRAM_NAME_MAX for e in scene.name_entries)
    assert PART_NAME_MAX == DERP_NAME_MAX == 32 and UPGOER_NAME_MAX == 30  # rnd.py and assembly.py use them


def test_a_save_of_another_edition_names_it_on_its_row(make_app, home):
    from game.client.scenes.saveload import list_saves
    from game.core.saves import save_game
    from game.games.whatgoesup.sim import default_setup, play_game

    app, _ = title_app(make_app)
    entry = app.context.game()
    older = entry.engine().for_edition("2013")
    setup = default_setup(older, 2, 20)
    result = play_game(older, setup, 5, max_turns=1, bot_kind="program")
    save_game(home / "older.json", older, setup, 5, result.actions)
    save_game(home / "newer.json", entry.engine(), default_setup(entry.engine(), 2, 20), 5, [])
    rows = {info.path.name: info for info in list_saves(entry, home)}
    assert rows["older.json"].ok and rows["older.json"].words.endswith(" · 2013 rules")
    assert rows["newer.json"].ok and "rules" not in rows["newer.json"].words
