"""The bar across the top of a game scene is one height, ``kit.style.HEADER_H``: the shared header
(``GameScene.draw_header``), What Goes Up's (``hud.draw_game_header``) and the Field's board and panel,
which start under it, all read it (it was written as 64 in three places)."""
from __future__ import annotations

import pytest

from game.client.kit.style import HEADER_H
from game.client.scenes.game_scene import GameScene
from game.client.whatgoesup.field import FieldScene
from game.client.whatgoesup.game_flow import shipped_engine
from game.client.whatgoesup.hud import draw_game_header
from game.tools.field_shots import build_demo_state, open_field


@pytest.mark.parametrize("size", [(1280, 720), (3840, 2160)])
def test_every_header_bar_and_the_field_below_it_use_one_height(make_app, home, size):
    from game.core.session import GameSession

    app = make_app(size)
    state = build_demo_state(shipped_engine())
    scene = open_field(app, GameSession(shipped_engine(), state.setup, 7, states=(state,), saves_dir=home))
    assert isinstance(scene, FieldScene)
    app.step(1 / 30, [])
    height = app.context.layout.px(HEADER_H)
    assert height > app.context.layout.px(40)  # the constant is the real bar, scaled
    surface = app.surface
    assert GameScene.draw_header(scene, surface, "Flights").h == height
    assert draw_game_header(scene, surface, "Flights").h == height
    assert scene.panel_rect().top == height
    assert FieldScene._board_rect(app.context.layout).top == height
