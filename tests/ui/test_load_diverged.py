"""A save this version replays another way (headless): an old save replayed under changed engine code, whose
log holds a move the engine now refuses part way. The Load screen lists it with what happened in a player's
words (the turn, no internal id, no traceback) on the one line its row has, in full in its Load button's tooltip,
the button off; Continue opens the Load screen naming the file and saying it all; the file is never touched and no
game starts."""
import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import json  # noqa: E402

import pygame  # noqa: E402
import pygame_gui  # noqa: E402
import pytest  # noqa: E402

from game.core import saves  # noqa: E402
from game.core.actions import Roll  # noqa: E402


def press(app, button):
    assert button.is_enabled, f"{button.text!r} is disabled"
    app.step(0.0, [pygame.event.Event(pygame_gui.UI_BUTTON_PRESSED, {"ui_element": button, "ui_object_id": ""})])


def title_app(make_app, size=(1280, 720)):
    from game.client.whatgoesup.entry import wire
    app = make_app(size=size)
    wire(app.context)
    return app, app.start("title")


def diverged_save(path):
    """A real seeded game's save whose second turn begins, in its log, with a die roll where the engine now waits
    for a move (as if this version's code had changed what happened there); returns (path, action number,
    actions in all)."""
    from game.client.whatgoesup.shipped import shipped_engine
    from game.games.whatgoesup.sim import default_setup, play_game
    engine = shipped_engine()
    setup = default_setup(engine, players=2, turns=20)
    result = play_game(engine, setup, seed=3, max_turns=2)
    states = saves.replay(engine, setup, result.actions)
    n = next(i for i in range(1, len(result.actions))
             if states.turn(i) == 2 and not isinstance(result.actions[i], Roll))
    saves.save_game(path, engine, setup, 3, result.actions)
    doc = json.loads(path.read_text("utf-8"))
    doc["actions"][n] = Roll(7).to_data()
    path.write_text(json.dumps(doc, indent=1), "utf-8")
    return path, n + 1, len(result.actions)


def fits(text, font, width, lines=2):
    from game.client.kit.text import wrap_text
    return len(wrap_text(text, font, width)) <= lines


@pytest.mark.parametrize("size", [(1280, 720), (1920, 1080)])
def test_the_load_screen_says_in_words_where_an_old_save_goes_another_way(make_app, home, size):
    from game.client.kit.style import font_px
    from game.client.scenes.saveload import LoadScene
    path, n, total = diverged_save(home / "old-game.json")
    before = path.read_bytes()
    app, _ = title_app(make_app, size)
    app.context.stack.push(LoadScene(app.context, folder=home))
    scene = app.stack.top
    app.step(0.016, [])  # draws the row
    (info,) = scene.infos
    full = (f"this version plays it another way: the move recorded at action {n} of {total} (turn 2) is not allowed "
            "now. It was made by an earlier version or changed by hand; the file is kept as it is.")
    assert info.error == (f"this version plays it another way from turn 2 (action {n} of {total}); the file is "
                          "kept as it is.")
    assert info.explanation == full and info.detail == "no roll is pending"  # the engine's words, dim beside it
    button = scene.buttons["load:0"]
    assert not button.is_enabled and button.tool_tip_text == f"This save cannot be loaded: {full}"
    layout = app.context.layout
    row = scene.row_rect(0)
    small = font_px(layout.px(16))
    assert row.h - layout.px(36) >= small.get_linesize()  # below the save's name, room for a line of words
    assert fits(f"Cannot be loaded: {info.error}", small, row.w - layout.px(180), lines=1)  # nothing cut off
    assert path.read_bytes() == before


def test_continue_with_an_old_autosave_that_goes_another_way_names_it_and_keeps_it(make_app, home):
    from game.client.kit.style import font_px
    path, n, total = diverged_save(saves.autosave_path(home, 1))
    before = path.read_bytes()
    app, title = title_app(make_app)
    press(app, title.buttons["continue"])
    scene = app.stack.top
    assert scene.name == "load_game"
    assert scene.message == (f"The latest save, autosave-1.json, could not be loaded: this version plays it another "
                             f"way: the move recorded at action {n} of {total} (turn 2) is not allowed now. It was "
                             "made by an earlier version or changed by hand; the file is kept as it is.")
    app.step(0.016, [])  # draws the message and the row
    layout = app.context.layout
    card = scene.card_rect()
    assert fits(scene.message, font_px(layout.px(16), True), card.w - layout.px(48))  # its two lines hold it all
    row = scene.row_rect(0)  # the message takes room from the rows, which still show their line of words
    assert row.h - layout.px(36) >= font_px(layout.px(16)).get_linesize()
    assert path.read_bytes() == before
    assert sorted(p.name for p in home.iterdir() if p.suffix == ".json") == ["autosave-1.json"]  # nothing written
