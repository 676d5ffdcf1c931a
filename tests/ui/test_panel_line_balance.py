"""The side panel's line under the craft in hand (the ``stop_the_rock_field`` shot and the Field's) at every
supported size: wrapped with whole words into even lines, never a word alone on the second line (it read
'On the Rock. Your go: act here, then move' / 'on.')."""
from __future__ import annotations

import pytest

from game.client.kit.style import font_px, wrap_balanced
from game.tools.rock_shots import shot_stop_the_rock_field
from game.tools.field_shots import shot_field_midgame

from ui_sizes import SIZE_IDS, SIZES


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
@pytest.mark.parametrize("shot", [shot_stop_the_rock_field, shot_field_midgame], ids=["rock", "field"])
def test_the_crafts_line_wraps_whole_and_even(make_app, size, shot):
    app = make_app(size)
    shot(app)
    scene = app.stack.top
    state = scene.state
    said = scene.craft_doing(state, state.upgoer(state.flight.active))
    lines = scene.doing_drawn
    assert " ".join(lines) == said, "every word shown, none cut"
    font = font_px(app.layout.px(16))
    inner_w = scene.panel_rect().inflate(-app.layout.px(28), 0).w
    widths = [font.size(line)[0] for line in lines]
    assert max(widths) <= inner_w
    if len(lines) == 2:
        assert len(lines[1].split()) > 1, f"{lines[1]!r} alone at {size}"
        assert min(widths) >= 0.3 * max(widths), f"uneven {lines} at {size}"


def test_two_sentences_break_between_them_and_a_long_one_evenly():
    import pygame

    pygame.font.init()
    font = font_px(16)
    text = "On the Rock. Your go: act here, then move on."
    width = font.size(text)[0] - 10
    assert wrap_balanced(text, font, width) == ["On the Rock.", "Your go: act here, then move on."]
    long = "Drag the glowing marker onto a lit step or use the buttons on the right"
    lines = wrap_balanced(long, font, font.size(long)[0] - 10)
    assert len(lines) == 2 and " ".join(lines) == long
    assert abs(font.size(lines[0])[0] - font.size(lines[1])[0]) < font.size(long)[0] // 4
