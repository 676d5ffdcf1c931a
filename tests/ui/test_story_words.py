"""What Goes Up's story reads in a newcomer's words: the engine writes "hires Clover (0/0/2)", "1/5 -> 2/5" and
"Budget 40 -> 40" (saves and the golden transcript keep those words); the story log, the toasts and the
Field's story strip say the same facts plainly (``story_words.plain_story`` through ``GameFlow.story_words``)."""
from __future__ import annotations

import re

import pytest

from game.games.whatgoesup.rules import engine as engine_module
from game.games.whatgoesup.rules.actions import BuyConsumables, EndRnD, Hire, Invent, Research
from game.games.whatgoesup.rules.reliability import Rating
from game.games.whatgoesup.rules.state import DotEntry
from game.client.scenes.logview import log_html
from game.client.whatgoesup.story_words import plain_story

#: What a newcomer could not read: a bare rating, a derp's three skills as numbers, an arrow.
UNREADABLE = re.compile(r"\(\d+/\d+/\d+\)|\b\d+/\d+\b|->")


def _flow(app, home):
    from game.tools.flow_shots import _flow as open_flow, scripted_session

    return open_flow(app, scripted_session(home / "saves"))


def test_a_turn_of_rnd_and_its_report_read_plainly(make_app, home):
    """Real play: Hop Agency hires, researches, invents an EVA pack and ends the turn; both programs' reports."""
    app = make_app()
    flow = _flow(app, home)
    state = flow.state
    pod = next(t for t in state.things_of(0) if t.name == "Burrow Pod")
    assert flow.act(Hire("Bunbun"))
    assert flow.context.stack.top.toast_text == ("Hop Agency hires Bunbun (Piloting 0, Engineering 0, Stamina 2), "
                                                 "ready to fly today.")
    was = flow.state.thing(pod.id).rating
    assert flow.act(Research(pod.id, "boom", 1))
    assert flow.last_story() == (f"Hop Agency researches Burrow Pod for 2 points: its Boom safety rises from "
                                 f"{was.boom} to {was.boom + 1}, now Fail {was.fail} / Boom {was.boom + 1}.")
    assert flow.act(Invent("eva_pack", 1, "Hop Suit"))
    assert flow.last_story() == ("Hop Agency invents Hop Suit, an EVA pack of mass 1, for 3 points. It starts at "
                                 "Fail 1 / Boom 5.")
    assert flow.act(BuyConsumables("fuel", 1)) and flow.act(EndRnD())
    assert flow.act(EndRnD())  # Spud Space too: the turn's flights (none) and its reports
    reports = [flow.story_words(e.event) for e in flow.session.log if e.event.kind == "report"]
    assert "End of turn 2, Hop Agency: nothing moved the budget, which stays at 40 dots." in reports
    html = log_html(flow.session.log, flow.state.programs, flow.explain_event, flow.turn_word, flow.story_words)
    assert "Bunbun (Piloting 0, Engineering 0, Stamina 2)" in html and "stays at 40 dots" in html
    told = [flow.story_words(e.event) for e in flow.session.log]
    assert not [line for line in told if UNREADABLE.search(line)]
    raw = [e.event.text for e in flow.session.log]
    assert any("(0/0/2)" in line for line in raw) and any("Budget 40 -> 40" in line for line in raw)


def test_the_story_so_far_screen_shows_the_plain_words(make_app, home):
    app = make_app()
    flow = _flow(app, home)
    flow.act(Hire("Bunbun"))
    flow.open_log()
    app.step(1 / 30, [])
    box = app.stack.top.box
    assert "Bunbun (Piloting 0, Engineering 0, Stamina 2)" in box.html_text
    assert "(0/0/2)" not in box.html_text


@pytest.mark.parametrize("size", [(1280, 720), (3840, 2160)])
def test_a_help_spent_on_a_roll_is_told_plainly_on_the_field(make_app, size):
    """Real play: after a Boom, Pip's Engineering moves the roll (field_roll_moved); the strip said 'Fail against
    11/17'."""
    from game.tools.field_shots import shot_field_roll_moved

    app = make_app(size)
    shot_field_roll_moved(app)
    scene = app.stack.top
    told = scene.story[-1]
    assert "spends a stamina point of Engineering: the roll moves from 17 to 15, now a Fail (Fail 11 / Boom 17)." \
        in told, told
    assert not UNREADABLE.search(told)


def test_the_engines_own_words_are_each_said_plainly():
    """The engine's sentence makers, called as the engine calls them: a change of their words that the client
    no longer recognises fails here (the story would show the engine's words again)."""
    kinds = ("Lower stage", "EVA pack", "RCS", "Probe / escape tower")
    said = {
        engine_module._researched("Hop Agency", "Hopper", Rating(1, 5), Rating(1, 6), 4):
            "Hop Agency researches Hopper for 4 points: its Boom safety rises from 5 to 6, now Fail 1 / Boom 6.",
        engine_module._invented("Hop Agency", "Puff", "RCS", 1, 3, Rating(2, 6), " (technology transfer from Pod)"):
            "Hop Agency invents Puff, an RCS of mass 1, for 3 points. It starts at Fail 2 / Boom 6 (technology "
            "transfer from Pod).",
        engine_module._invented("Hop Agency", "Big Hopper", "Lower stage", 8, 24, Rating(1, 5), ""):
            "Hop Agency invents Big Hopper, a lower stage of mass 8, for 24 points. It starts at Fail 1 / Boom 5.",
        engine_module._hired("Hop Agency", "Clover", 1, 0, 3):
            "Hop Agency hires Clover (Piloting 1, Engineering 0, Stamina 3), ready to fly today.",
        engine_module._turn_report(3, "Hop Agency", (), 40, 40, 40):
            "End of turn 3, Hop Agency: nothing moved the budget, which stays at 40 dots.",
    }
    for text, plain in said.items():
        assert plain_story(text, kinds) == plain
    # consequences.py and hostilities.py write these inline, in these words
    assert plain_story("Every part of Otter loses 1/1 for the rest of the flight.") == \
        "Every part of Otter loses 1 from its Fail safety and 1 from its Boom safety for the rest of the flight."
    assert plain_story("Kicker thruster is damaged: -2/-0 for this flight.") == \
        "Kicker thruster is damaged: it loses 2 from its Fail safety for this flight."
    assert plain_story("Otter opens fire on Frog! Otter: a cruiser of fighting mass 10, speed 2, heat 2. Frog: a "
                       "cruiser of fighting mass 8, speed 2, heat 2. Otter is faster and acts first (a tie goes to "
                       "the craft that opened fire).").endswith(
        "heat 2. Both are as fast, and a tie goes to the craft that opened fire: Otter acts first.")
    assert plain_story("Otter opens fire on Frog! Otter is faster and acts first.").endswith(
        "Otter is faster and acts first.")  # truly faster: as the engine says
    assert plain_story("Mo and Pip go for each other: 14 + 2 Piloting = 16 against 3 + 2 = 5; Pip takes a beating. "
                       "(Mo -0, Pip -3 stamina)").endswith("(Mo loses no stamina, Pip loses 3 stamina)")
    report = engine_module._turn_report(6, "Hop Agency", (DotEntry("new step Launch", 1), DotEntry("Space Party", 1)),
                                        69, 71, 70)
    assert plain_story(report) == ("End of turn 6, Hop Agency: new step Launch +1; Space Party +1. The budget goes "
                                   "from 69 to 70 dots, held at its ceiling.")


def test_the_end_of_turn_report_reads_plainly(make_app, monkeypatch):
    """Real play: Moonhop 1 blows up on the pad (flow_shots' report): the report's headline said '40 -> 35 dots'
    and its flight line 'drops from 1/5 to 1/2'."""
    from game.client.whatgoesup import report
    from game.tools.flow_shots import shot_report

    app = make_app()
    shot_report(app)
    scene = app.stack.top
    assert scene.name == "turn_report"
    drawn: list[str] = []
    real = report.draw_text
    monkeypatch.setattr(report, "draw_text", lambda surface, text, *a, **k: (drawn.append(text),
                                                                             real(surface, text, *a, **k))[1])
    scene.still.forget()  # the still picture is painted again, for the recorder
    app.step(1 / 30, [])
    reports = report.turn_report(scene.flow.state, scene.flow.session.log, scene.flow.state.turn - 1)
    hop = reports[0]
    assert (hop.before, hop.after) == (40, 35)
    assert any("drops from Fail 1 / Boom 5 to Fail 1 / Boom 2" in line for line, _tone in hop.flights)
    assert "40 to 35 dots" in drawn and "40 dots" in drawn  # Spud Space's budget stayed
    assert not any("->" in text for text in drawn)


def test_a_dies_story_names_the_roll_as_its_card_does():
    """The strip under the board read 'Carrot 2: duration capsule roll for Burrow Pod - rolled 3 ...' while the
    card over it said 'capsule check roll' (tutorial_fail_choice shot): the story names a roll as the card does,
    in a sentence (it chained colons: 'Carrot 2: capsule check roll ..., rolled 3 against Fail 3 / Boom 5: Fail.')."""
    from game.client.whatgoesup.rollpanel import ROLL_WORDS as card_words
    from game.client.whatgoesup.story_words import ROLL_WORDS, plain_story

    assert card_words is ROLL_WORDS
    assert plain_story("Carrot 2: duration capsule roll for Burrow Pod - rolled 3 against Fail 3 / Boom 5: Fail.") == (
        "Carrot 2's capsule check roll for Burrow Pod comes up 3 against Fail 3 / Boom 5, a Fail.")
    assert plain_story("Otter-1: rcs burn roll for Puffer RCS - rolled 2 against Fail 11 / Boom 17: OK.") == (
        "Otter-1's RCS burn roll for Puffer RCS comes up 2 against Fail 11 / Boom 17, OK.")
    assert plain_story("Hop: reentry roll for Pod, Fin - rolled 19 against Fail 10 / Boom 15: Boom.") == (
        "Hop's reentry roll for Pod, Fin comes up 19 against Fail 10 / Boom 15, a Boom.")
