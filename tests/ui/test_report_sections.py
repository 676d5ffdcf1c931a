"""The end-of-turn report never shows a section's heading with nothing under it: a long section ends in
'… and N more' so that every later section keeps its heading and first line (the training's first report
showed 'Derps lost' at the card's foot and no words, at 1280x720)."""

import pytest

from ui_sizes import SIZES
HEADINGS = ("Dots gained and lost", "Flights", "Firsts and feats", "Derps lost")


@pytest.mark.parametrize("size", SIZES)
def test_every_section_of_the_trainings_first_report_shows_its_heading_and_words(make_app, size, monkeypatch):
    from game.client.kit import text as kit_text
    from game.client.whatgoesup import report
    from game.tools.tutorial_shots import shot_key_lesson

    drawn: list[str] = []
    for module in (report, kit_text):
        original = module.draw_text

        def recording(surface, words, *args, _original=original, **kwargs):
            drawn.append(words)
            return _original(surface, words, *args, **kwargs)

        monkeypatch.setattr(module, "draw_text", recording)
    app = make_app(size)
    shot_key_lesson(app, "report")
    assert app.stack.top.name == "turn_report"
    drawn.clear()
    app.stack.top.draw_content(app.surface)  # the picture the still frame keeps, painted afresh
    shown = [w for w in drawn if w in HEADINGS]
    assert shown == list(HEADINGS), drawn
    for heading in HEADINGS:  # each heading is followed by at least one line of its own
        after = drawn[drawn.index(heading) + 1:]
        assert after and after[0] not in HEADINGS, (heading, drawn)
    assert drawn[-1] == "Everyone is safe."
    assert any(w.startswith("… and ") and "the Story (L) has them all" in w for w in drawn) or size != (1280, 720)
