"""A craft's card on The Field (the ``field_marker_card`` shot) at every supported size: its parts' ratings are
said in words, 'Fail 12 / Boom 17' (a bare '12/17' told a newcomer nothing), and every line fits the card,
none cut off at its foot or running past its right edge."""
from __future__ import annotations

import re

import pytest

from game.client.kit.style import font_px
from game.tools.field_shots import shot_field_marker_card

from ui_sizes import SIZE_IDS, SIZES


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
def test_a_crafts_card_says_its_parts_ratings_in_words_and_fits(make_app, size):
    app = make_app(size)
    shot_field_marker_card(app)
    scene = app.stack.top
    uid = scene.selected
    assert uid == scene.session.state.flight.active
    rect, shown, cut = scene.detail_card(uid)
    assert cut == 0, f"{cut} lines cut off at {size}"
    texts = [text for text, *_ in shown]
    assert "Kicker thruster (thruster, mass 1): Fail 11 / Boom 17" in texts
    assert "Otter-1 capsule (capsule, mass 6): Fail 12 / Boom 17" in texts
    parts = texts[texts.index("Parts") + 1:texts.index("Crew")]
    assert parts and not any(re.search(r"\b\d+/\d+\b", line) for line in parts), parts
    for text, px, bold, _, (x, y) in shown:
        w, h = font_px(px, bold).size(text)
        assert rect.left < x and x + w <= rect.right - app.layout.px(8), f"{text!r} runs past the card at {size}"
        assert y + h <= rect.bottom, f"{text!r} hangs below the card at {size}"
