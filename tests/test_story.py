"""The scripted story save (tests/golden/story.json) replays from the command line and tells its story.

It was made by tests/golden/make_story.py: launches, a crash on the pad, a stranding, an EVA rations
delivery, a docking, a rescue, an RCS deorbit, and a lunar landing and return. If a deliberate rules
change makes it illegal, regenerate it with `python -m tests.golden.regenerate`, read the diff and
re-read the story. The tests never write it.
"""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from game.core import saves
from game.games.whatgoesup.rules.engine import Engine
from game.games.whatgoesup.rules.tables import load_rules

ROOT = Path(__file__).resolve().parents[1]
STORY = ROOT / "tests" / "golden" / "story.json"


@pytest.fixture(scope="module")
def story():
    engine = Engine(load_rules())
    loaded = saves.load_game(STORY, engine)
    texts = [event.text for state in loaded.states for event in state.events]
    return engine, loaded, texts


def test_story_replays_from_the_command_line():
    result = subprocess.run([sys.executable, "main.py", "replay", str(STORY)], cwd=ROOT, capture_output=True,
                            text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert "Game over: Hopscotch Space Agency ended with the most budget dots" in result.stdout


def test_story_has_a_crash_on_the_pad(story):
    _, loaded, texts = story
    assert "Test Tater is destroyed in a huge explosion." in texts
    assert any("Tater Stack is not as good as it was thought" in t for t in texts)


def test_story_has_a_stranding_eva_docking_and_rescue(story):
    _, loaded, texts = story
    assert "Mash One is stranded: it can no longer be steered." in texts
    firsts = dict(loaded.final.firsts)
    assert firsts["first_eva"] == 0 and firsts["first_rations_delivery"] == 0 and firsts["first_docking"] == 0
    assert "Helping Paw docks with Mash One!" in texts
    assert "Helping Paw rescues 2 derps!" in texts
    assert any(t.startswith("Helping Paw undocks from Mash One") for t in texts)
    assert any(t.startswith("Helping Paw lands safely at home.") for t in texts)
    spud = loaded.final.programs[1]
    assert all(d.location is None and d.owner == 1 and d.condition == "healthy"
               for d in loaded.final.derps_of(1)), "rescued derps go home to their own program"
    assert spud.name == "Spudnik Program"


def test_story_has_a_lunar_round_trip(story):
    _, loaded, texts = story
    assert "Moonhop touches down: Lunar Landing!" in texts
    assert dict(loaded.final.firsts)["first_moon_landing"] == 0
    assert any(t.startswith("Moonhop lands safely at home.") for t in texts)
    moonhop = next(u for u in loaded.final.upgoers if u.name == "Moonhop")
    assert moonhop.status == "landed" and "moon" in moonhop.bodies_landed


def test_story_writes_off_the_empty_craft_and_it_drifts_away(story):
    _, loaded, texts = story
    assert "Mash One is written off and becomes debris." in texts
    assert "Nobody tracks the debris of Mash One; it drifts out of sight." in texts


def test_the_story_script_still_makes_the_same_save():
    """The generator and the save agree (so the save documents what the script says)."""
    sys.path.insert(0, str(ROOT / "tests" / "golden"))
    try:
        import make_story
    finally:
        sys.path.pop(0)
    built = make_story.build_story()
    assert [a.to_data() for a in built.actions] == saves.read_document(STORY)["actions"]
