"""The glossary: every rule word has an entry with the loaded rules' numbers, every tooltip a screen asks for
names a word the glossary knows, and hovering a word on screen shows its explanation."""
from __future__ import annotations

import ast
import dataclasses
from pathlib import Path

import pygame
import pytest

from game.client.whatgoesup import glossary

REQUIRED = ("Boom", "Fail", "OK", "Fail safety", "Boom safety", "rating", "reliability", "stamina", "Piloting",
            "Engineering", "luck", "dots", "points", "budget", "blueprint", "research cap", "technology transfer",
            "reusable", "lower stage", "cluster", "capsule", "habitat", "thruster", "RCS", "payload", "fuel",
            "rations", "duration step", "burn", "junction", "orbital insertion", "reentry", "landing", "stranded",
            "debris", "docking", "EVA", "jury-rig", "Hostile Waters", "Positioning System", "timing order", "rush",
            "nudge")
UI = Path(__file__).resolve().parents[2] / "game" / "client" / "whatgoesup"
SCREENS = ("rnd.py", "assembly.py", "rollpanel.py", "hud.py")


def _rules():
    from game.client.whatgoesup.game_flow import shipped_engine
    return shipped_engine().rules


@pytest.mark.parametrize("term", REQUIRED)
def test_every_rule_word_has_an_entry(term):
    text = glossary.explain(term, _rules())
    assert len(text) > 30 and "{" not in text


def test_entries_use_the_loaded_numbers():
    rules = _rules()
    assert str(rules.economy.research.cap_never_flown) in glossary.explain("research cap", rules)
    assert f"Piloting {rules.flight.docking_min_piloting}" in glossary.explain("docking", rules)
    house = dataclasses.replace(rules, flight=dataclasses.replace(rules.flight, docking_min_piloting=7))
    assert "Piloting 7" in glossary.explain("docking", house)
    assert f"{rules.economy.budget.min_dots}" in glossary.explain("dots", rules)


def test_unknown_words_are_refused():
    with pytest.raises(KeyError):
        glossary.explain("warp drive")
    with pytest.raises(KeyError):
        glossary.tip_text(["OK", "warp drive"])


def _terms_in_source() -> set[str]:
    """Every string the screens hand to the glossary: the literal terms of their tables and calls."""
    found: set[str] = set()
    for name in SCREENS:
        tree = ast.parse((UI / name).read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id.endswith("TERMS")
                                                    for t in node.targets) and isinstance(node.value, ast.Dict):
                for value in node.value.values:
                    found |= {c.value for c in ast.walk(value) if isinstance(c, ast.Constant)
                              and isinstance(c.value, str)}
            if isinstance(node, ast.Call) and getattr(node.func, "attr", "") in ("attach", "hotspot"):
                terms = node.args[1] if len(node.args) > 1 else None
                if terms is not None:
                    found |= {c.value for c in ast.walk(terms) if isinstance(c, ast.Constant)
                              and isinstance(c.value, str)}
    return found


def test_every_term_a_screen_uses_has_an_entry():
    used = _terms_in_source()
    assert {"Fail safety", "luck", "nudge", "lower stage", "impact"} <= used  # the scan sees the screens
    missing = sorted(t for t in used if not glossary.has(t))
    assert not missing, f"tooltips name words the glossary does not explain: {missing}"
    for kind in ("launch", "reentry", "duration_capsule", "eva", "jury_rig", "rock_docking_rcs"):
        assert glossary.has(glossary.term_for_roll(kind))


def test_each_entry_fits_a_tooltip():
    for term in glossary.GLOSSARY:
        assert len(glossary.explain(term, _rules())) <= 330, term


def _hover(app, element, seconds: float = 1.0) -> None:
    """Point at ``element`` the way a player would: the pointer moves there, then rests past the delay."""
    pos = element.rect.center
    pygame.mouse.set_pos(pos)
    motion = pygame.event.Event(pygame.MOUSEMOTION, {"pos": pos, "rel": (0, 0), "buttons": (0, 0, 0)})
    app.step(1 / 30, [motion])
    for _ in range(int(seconds * 30)):
        app.step(1 / 30, [])


def _rnd(make_app, size=(1280, 720)):
    from game.tools.flow_shots import _flow, scripted_session

    app = make_app(size=size)
    flow = _flow(app, scripted_session(app.home / "saves"))
    for _ in range(3):
        app.step(1 / 30, [])
    return app, flow.main_scene()


@pytest.mark.parametrize("size", [(1280, 720), (3840, 2160)])
def test_hovering_an_rnd_chip_shows_its_explanation_inside_the_window(make_app, size):
    app, scene = _rnd(make_app, size)
    spot = dict(scene.term_spots)["Dots"]
    assert glossary.tooltip_text(spot) is None
    _hover(app, spot)
    text = glossary.tooltip_text(spot)
    assert text is not None and "<b>Dots</b>" in text
    assert text == glossary.tip_text(["dots", "budget"], scene.engine.rules)
    assert f"Never below {scene.engine.rules.economy.budget.min_dots}" in text
    assert pygame.Rect((0, 0), size).contains(spot.tool_tip.rect)


def test_hovering_a_research_button_explains_the_safety(make_app):
    app, scene = _rnd(make_app)
    scene.on_button("tab:research")
    app.step(1 / 30, [])
    button = scene.buttons["set:r_safety:boom"]
    _hover(app, button)
    assert "Boom safety" in glossary.tooltip_text(button)
    spot = dict(scene.term_spots)["research"]
    _hover(app, spot)
    assert str(scene.engine.rules.economy.research.cap_never_flown) in glossary.tooltip_text(spot)


def test_the_rock_hud_explains_nudges(make_app, home):
    from game.tools.field_shots import open_field
    from game.tools.rock_shots import rock_session

    app = make_app()
    scene = open_field(app, rock_session(home / "saves"))
    for _ in range(3):
        app.step(1 / 30, [])
    assert len(scene.status_spots) == 2
    _hover(app, scene.status_spots[1])
    assert "<b>Nudge</b>" in glossary.tooltip_text(scene.status_spots[1])


def test_the_roll_card_says_what_accepting_means_while_help_can_be_spent(make_app):
    from game.games.whatgoesup.rules.flight_actions import AcceptRoll
    from game.tools.shots import SHOTS

    app = make_app()
    dict(SHOTS)["field_roll_help"](app)
    scene = app.context.stack.top
    panel = scene.roll_panel
    assert panel.pending(scene.state) == "help"
    words = panel.accept_text(scene.state)
    assert words.startswith("If you accept this Fail, ") and ":" not in words
    accept = next(b for b, a in panel.buttons.items() if isinstance(a, AcceptRoll))
    _hover(app, accept)
    assert "Fail safety" in glossary.tooltip_text(accept)  # the whole explanation, with why
