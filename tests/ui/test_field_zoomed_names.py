"""The Field zoomed in (the ``field_zoomed`` shot) at every supported size: no two names on the board touch
(each keeps a little dark sky round it), and every resting craft, the active one above all, wears its name
tag where that tag covers no other craft, tag or name."""
from __future__ import annotations

import pytest

from game.tools.field_shots import shot_field_zoomed

from ui_sizes import SIZE_IDS, SIZES


def zoomed_field(make_app, size):
    app = make_app(size)
    shot_field_zoomed(app)
    return app, app.stack.top


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
def test_board_names_keep_apart_when_zoomed(make_app, size):
    app, scene = zoomed_field(make_app, size)
    gap = app.layout.px(2)
    rects = list(scene.labels.screen_rects().items())
    assert len(rects) > 10
    for n, (key, rect) in enumerate(rects):
        for other, other_rect in rects[n + 1:]:
            assert not rect.inflate(2 * gap, 2 * gap).colliderect(other_rect), f"{key} touches {other} at {size}"


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
def test_the_active_craft_wears_its_name_tag_when_zoomed(make_app, size):
    app, scene = zoomed_field(make_app, size)
    active = scene.session.state.flight.active
    tags = scene.markers.tag_rects
    assert active in tags, f"the active craft has no name tag at {size}"
    on_screen = [uid for uid, pos in scene.markers.screen_pos.items() if scene.board_rect.collidepoint(pos)]
    crafts = [uid for uid in on_screen if scene.session.state.find("upgoer", uid).status == "flying"]
    assert set(crafts) <= set(tags), f"{sorted(set(crafts) - set(tags))} untagged at {size}"
    names = list(scene.labels.screen_rects().values())
    bodies = scene.markers.tag_bodies()
    for uid, rect in tags.items():
        assert rect.collidelist(names) == -1, f"{uid}'s tag covers a name at {size}"
        assert all(not rect.colliderect(b) for other, b in bodies.items() if other != uid), f"{uid}'s tag covers a craft"
        assert all(not rect.colliderect(o) for other, o in tags.items() if other != uid), f"{uid}'s tag covers a tag"
