"""New game offers the editions of the rules: a button each, the chosen one's one-line summary, and a game
started under the chosen edition (its session, its saves)."""
from __future__ import annotations

import json

import pygame
import pygame_gui

from game.client.kit.widgets import status_lines


def press(app, button):
    app.step(0.0, [pygame.event.Event(pygame_gui.UI_BUTTON_PRESSED, {"ui_element": button, "ui_object_id": ""})])


def new_game(make_app):
    from game.client.whatgoesup.entry import wire

    app = make_app()
    wire(app.context)
    app.start("title")
    return app, app.context.open("new_game")


def test_new_game_starts_under_the_2013_rules_when_chosen(make_app, home):
    app, scene = new_game(make_app)
    assert scene.edition == "2014" and scene.buttons["edition:2014"].is_selected
    assert scene.buttons["edition:2013"].text == "2013 rules"
    press(app, scene.buttons["edition:2013"])
    scene = app.context.stack.top
    assert scene.edition == "2013" and scene.buttons["edition:2013"].is_selected
    assert not scene.buttons["edition:2014"].is_selected
    assert scene.engine.rules.edition.summary == ("The older rules: budgets 20-60, no research caps, bigger prizes, "
                                                  "rougher flights.")
    press(app, scene.buttons["option:hostile_waters"])  # every 2014 option stays on offer under 2013
    session = app.context.stack.top.start()
    assert session is not None and session.engine.rules.edition.id == "2013"
    assert session.state.setup.options == frozenset({"hostile_waters"})
    assert [p.dots for p in session.state.programs] == [40, 40]
    path = session.save(home / "older.json")
    assert json.loads(path.read_text(encoding="utf-8"))["edition"] == "2013"


def test_the_summary_sits_between_the_subtitle_and_the_edition_buttons(make_app):
    app, scene = new_game(make_app)
    for edition in ("2013", "2014"):
        press(app, scene.buttons[f"edition:{edition}"])
        scene = app.context.stack.top
        for sub in ("Who is racing to the Moon?", "Stop The Rock: who will push it aside?"):
            box = scene.summary_rect(sub)
            buttons = [b.rect for k, b in scene.buttons.items() if k.startswith("edition:")]
            assert box.width > 200 and all(not box.colliderect(b) for b in buttons)
            layout = scene.context.layout
            _font, lines = status_lines(scene.engine.rules.edition.summary, box.w, box.h, layout.px(15),
                                        layout.px(11), False)
            assert " ".join(lines) == scene.engine.rules.edition.summary  # all of it shows


def test_the_rules_reference_of_a_2013_game_speaks_of_the_2013_rules():
    from game.client.whatgoesup.explain import consequence_sentence
    from game.client.whatgoesup.glossary import explain
    from game.client.whatgoesup.rules_reference import reference_sections
    from game.games.whatgoesup.rules.editions import load_edition
    rules = load_edition("2013")
    paragraphs = [p for s in reference_sections(rules) for p in s.paragraphs]
    assert "No research caps: research alone can take any thing up to 19/20, flown or not." in paragraphs
    assert not any("None" in p for p in paragraphs)
    assert any(p.endswith("Research keeps improving every copy, flying or not.") for p in paragraphs)
    assert ("All According To Plan: A mission of more than one turn that comes home without a single Fail or Boom. "
            "+1 dot every time.") in paragraphs
    assert explain("research cap", rules) == ("These rules have no research caps: research alone can take a design "
                                              "up to 19/20, flown or not.")
    assert consequence_sentence(rules, "launch", "boom") == (
        "Launch Boom: everything but the capsule blows up; with a working escape tower it comes down through "
        "reentry, without one the crew are hurt and it falls straight to the landing roll. A Boom also costs every "
        "copy of that part 3 off its Fail safety and 3 off its Boom safety.")
