"""What accepting a Fail or Boom means, on the roll card while help can still be spent (the
``tutorial_fail_choice`` and ``field_roll_*`` shots), at every supported size: one plain sentence, not a chain
of colons ('If you accept: Capsule check (duration step) Fail: you choose: ...'), drawn whole on the card
where a Fail's choice waits (the tutorial's lesson) and said on the Accept button's tooltip after why."""
from __future__ import annotations

import pytest

from game.tools.field_shots import shot_field_roll_boom_help, shot_field_roll_help
from game.tools.tutorial_shots import TUTORIAL_SHOTS

from ui_sizes import SIZE_IDS, SIZES
SHOTS = {"fail_choice": dict(TUTORIAL_SHOTS)["tutorial_fail_choice"], "roll_help": shot_field_roll_help,
         "roll_boom_help": shot_field_roll_boom_help}


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
@pytest.mark.parametrize("shot", list(SHOTS), ids=list(SHOTS))
def test_accepting_is_said_in_a_plain_sentence_drawn_whole(make_app, size, shot, monkeypatch):
    from game.client.kit import text as kit_text

    app = make_app(size=size)
    SHOTS[shot](app)
    field = next(s for s in app.stack if s.name == "field")
    panel = field.roll_panel
    state = field.session.state
    assert panel.pending(state) == "help"
    accept = panel.accept_text(state)
    outcome = "Boom" if shot == "roll_boom_help" else "Fail"
    assert accept.startswith(f"If you accept this {outcome}, "), accept
    assert ":" not in accept, accept
    why = panel.accept_text(state, full=True)  # the Accept button's tooltip: why, then the same sentence
    assert why.endswith(accept) and ":" not in why, why
    if shot != "fail_choice":
        return  # the card shows the sentence where a Fail's choice waits; the others say it on the Accept button
    assert "you choose to lose a payload, to lose 1 derp-turn of rations per derp, or to let every part" in accept
    drawn: list[str] = []
    real = kit_text.draw_text
    monkeypatch.setattr(kit_text, "draw_text", lambda surface, line, *a, **k: (drawn.append(line),
                                                                                 real(surface, line, *a, **k))[1])
    field.repaint()
    app.step(1 / 30, [])
    start = next(i for i, line in enumerate(drawn) if line.startswith("If you accept"))
    assert accept in " ".join(drawn[start:]), f"the sentence is cut at {size}"


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
def test_the_strip_tells_the_roll_in_a_sentence(make_app, size):
    """Under the tutorial's Fail, the strip read 'Carrot 2: capsule check roll for Burrow Pod, rolled 3 against
    Fail 3 / Boom 5: Fail.'; now one sentence, whole on the strip."""
    app = make_app(size=size)
    SHOTS["fail_choice"](app)
    field = next(s for s in app.stack if s.name == "field")
    lines, font = field.story_lines()
    told = " ".join(lines)
    assert told == "Carrot 2's capsule check roll for Burrow Pod comes up 3 against Fail 3 / Boom 5, a Fail."
    assert all(font.size(line)[0] <= field.story_rect().w for line in lines)
