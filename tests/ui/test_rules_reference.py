"""The rules reference reads every number from the loaded tables (a house rule shows), and every effect type
of the failure table has words (a new effect type without them fails here)."""
import os
import shutil
import typing

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame  # noqa: E402
import pytest  # noqa: E402

from game.games.whatgoesup.rules.flighttable import EffectType  # noqa: E402
from game.games.whatgoesup.rules.tables import load_rules  # noqa: E402
from game.client.whatgoesup.explain import EFFECT_WORDS, consequence_sentence, explain_roll_event  # noqa: E402
from game.client.whatgoesup.rules_reference import reference_sections  # noqa: E402

RULES_DIR = os.path.join(os.path.dirname(__file__), "..", "..", "rules", "whatgoesup", "2014")


@pytest.fixture
def house_rules(tmp_path):
    folder = tmp_path / "house"
    shutil.copytree(RULES_DIR, folder)
    economy = folder / "economy.yaml"
    text = economy.read_text(encoding="utf-8")
    text = text.replace("start_dots: 40", "start_dots: 47").replace("invent_per_mass: 3", "invent_per_mass: 4")
    economy.write_text(text, encoding="utf-8")
    flight = folder / "flight.yaml"
    flight.write_text(flight.read_text(encoding="utf-8").replace(
        "  - roll: reentry\n    fail: [{effect: no_reuse}, {effect: injure_crew}]",
        "  - roll: reentry\n    fail: [{effect: no_reuse}, {effect: stamina_loss, units: 2}]"), encoding="utf-8")
    return load_rules(folder)


def text_of(sections) -> str:
    return "\n".join(p for s in sections for p in s.paragraphs)


def test_every_effect_type_has_words():
    assert set(typing.get_args(EffectType)) == set(EFFECT_WORDS)


def test_every_consequence_of_the_table_is_explained(rules):
    for consequence in rules.flight.consequences:
        for outcome in ("fail", "boom"):
            sentence = consequence_sentence(rules, consequence.roll, outcome)
            assert sentence.endswith(".") and ": " in sentence


def test_the_seeds_reentry_sentence(rules):
    assert consequence_sentence(rules, "reentry", "fail") == (
        "Reentry Fail: the parts that rolled cannot be reused, and everyone aboard is injured.")
    assert explain_roll_event(rules, "Hop: reentry roll for Pod - rolled 12 against Fail 10 / Boom 15: Fail.") \
        .startswith("Reentry Fail:")
    assert explain_roll_event(rules, "Hop: reentry roll for Pod - rolled 2 against Fail 10 / Boom 15: OK.") == ""


def test_the_reference_has_every_section_and_the_shipped_numbers(rules):
    sections = reference_sections(rules)
    assert [s.title for s in sections] == ["A turn", "R&D", "Components", "Mass and fuel", "Reliability", "Flights",
                                           "Docking", "Derps and EVA", "Failures", "Prestige", "Luck",
                                           "Underped craft", "Stop The Rock", "Victory",
                                           "Space War", "Ship to ship"]
    text = text_of(sections)
    assert "laser: Waylight; missile: Probe / escape tower" in text and "cruiser up to spacecraft mass 40" in text
    assert "starts with 40 dots" in text and "Invent: 3 points per mass" in text
    assert "Reentry Fail: the parts that rolled cannot be reused, and everyone aboard is injured." in text


def test_a_house_ruled_folder_shows_its_house_rules(house_rules):
    text = text_of(reference_sections(house_rules))
    assert "starts with 47 dots" in text and "Invent: 4 points per mass" in text
    assert "Reentry Fail: the parts that rolled cannot be reused, and everyone aboard loses 2 stamina" in text


def test_the_reference_scene_opens_with_f2_and_shows_sections(make_app, house_rules):
    app = make_app()
    app.start("title")
    app.step(1 / 30, [pygame.event.Event(pygame.KEYDOWN, {"key": pygame.K_F2, "mod": 0, "unicode": "",
                                                          "scancode": 0})])
    scene = app.stack.top
    assert scene.name == "rules_reference"
    app.step(1 / 30, [pygame.event.Event(pygame.KEYDOWN, {"key": pygame.K_F2, "mod": 0, "unicode": "",
                                                          "scancode": 0})])
    assert app.stack.top.name == "title"
    scene = app.context.open("rules_reference", rules=house_rules)
    app.step(1 / 30, [])
    assert "47" in scene.section_html()
    scene.show_section("failures")
    app.step(1 / 30, [])
    assert "loses 2 stamina" in scene.text_box.html_text
    pos = scene.buttons["section:rnd"].rect.center
    pygame.event.clear()
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, {"pos": pos, "rel": (0, 0), "buttons": (0, 0, 0)}))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, {"pos": pos, "button": 1}))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, {"pos": pos, "button": 1}))
    for _ in range(3):
        app.step(1 / 30)
    assert scene.section == "rnd" and "Invent: 4 points per mass" in scene.text_box.html_text


def test_the_reference_explains_underped_craft_with_the_shipped_numbers(rules):
    section = next(s for s in reference_sections(rules) if s.title == "Underped craft")
    text = " ".join(section.paragraphs)
    assert "Programming: 1 point per stamina point" in text and "spends 1 stamina on every action" in text
    assert "pays 1/2 of its dots, rounded up" in text and "Clockwork robots" in text
    assert "spends 1 stamina on every action it takes, burns and nudges included" in text
    assert ("Robot repairs (a further option): robots carry a repair routine and jury-rig as if they had "
            "Engineering 1") in text


@pytest.mark.parametrize("edition, words", [
    ("2014", "to carry a load it masses that load plus a tenth of it, rounded up (a load of 9: mass 10)"),
    ("2013", "to carry a load it masses one more than that load (a load of 9: mass 10)")])
def test_the_capsules_capacity_is_told_in_words_not_by_its_rule_id(edition, words):
    """components.yaml's capacity_rule reads 'tenth_overhead' / 'minus_one'; the reference said '(capacity rule:
    tenth overhead)'. It says what the rule does, with an example from the formula itself, and no id anywhere."""
    import re

    rules = load_rules(os.path.join(RULES_DIR, "..", edition))
    text = text_of(reference_sections(rules))
    assert words in text
    assert "capacity rule" not in text and "overhead" not in text
    assert re.findall(r"\b[a-z]+_[a-z_]+\b", text) == []  # no snake_case id left in either edition's words


def test_the_example_rocket_is_forgotten_with_its_rules(tmp_path):
    """The example rocket is kept per rules object, and leaves with it: rules too dear to build it (None)
    that die must not hand their None to a new rules object made later at the same address."""
    import gc

    from game.client.whatgoesup import rules_reference

    folder = tmp_path / "dear"
    shutil.copytree(RULES_DIR, folder)
    economy = folder / "economy.yaml"
    economy.write_text(economy.read_text(encoding="utf-8").replace("invent_per_mass: 3", "invent_per_mass: 100"),
                       encoding="utf-8")
    dear = load_rules(folder)
    assert rules_reference.example_rocket(dear) is None  # nothing can be invented on a turn's points
    key = id(dear)
    assert key in rules_reference._EXAMPLES
    del dear
    gc.collect()
    assert key not in rules_reference._EXAMPLES  # an id-keyed entry that outlived its rules went to the next
    shipped = load_rules(None)
    engine, state, design = rules_reference.example_rocket(shipped)
    assert engine.rules is shipped and design.crew
