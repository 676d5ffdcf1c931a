"""The roll card's headline at every supported size (the ``field_roll_*`` shots): the rolling program's marker
stands before the headline with room to breathe, clear of the card's rim (it was squeezed against the left
rim) and of the headline's words."""
from __future__ import annotations

import pytest

from game.tools.field_shots import shot_field_roll_moved, shot_field_roll_ready

from ui_sizes import SIZE_IDS, SIZES


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
@pytest.mark.parametrize("shot", [shot_field_roll_ready, shot_field_roll_moved], ids=["ready", "moved"])
def test_the_owners_marker_keeps_clear_of_the_rim_and_the_headline(make_app, size, shot):
    app = make_app(size)
    shot(app)
    scene = app.stack.top
    panel = scene.roll_panel
    card = panel.card_rect(scene.state)
    marker, head = panel.owner_drawn, panel.head_drawn
    assert marker is not None and head is not None
    rim = max(2, app.layout.px(3))
    room = app.layout.px(12)
    assert marker.left - (card.left + rim) >= room, f"marker {marker} hugs the card's rim {card} at {size}"
    assert head.left - marker.right >= app.layout.px(6), f"marker {marker} crowds the headline {head} at {size}"
    assert head.top <= marker.centery <= head.bottom, "the marker stands beside the headline"
    assert head.right <= card.right - rim, f"headline {head} runs past the card {card} at {size}"
