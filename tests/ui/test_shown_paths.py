"""A folder or file the player is told about is named as a player finds it: the error screen's full report
and the Load screen's folder, in the game's folder ("saves/whatgoesup.log in the game's folder"), from "~"
in the player's home, anywhere else whole. The shots tool's app keeps its files in a temporary folder and
names the player's (they printed /tmp/whatgoesup-shots-.../whatgoesup.log)."""
from __future__ import annotations

from pathlib import Path

import pytest

from game.client.kit import paths
from game.client.kit.paths import default_home, shown_path


def test_a_path_is_shown_from_the_games_folder_or_the_players_home():
    assert shown_path(paths.REPO_ROOT / "saves" / "whatgoesup.log") == "saves/whatgoesup.log in the game's folder"
    assert shown_path(default_home()) == "saves in the game's folder"
    assert shown_path(Path.home() / "Games" / "whatgoesup.log") == "~/Games/whatgoesup.log"
    assert shown_path(Path("/somewhere/else/whatgoesup.log")) == "/somewhere/else/whatgoesup.log"


def _error_words(app) -> str:
    app.start("title")
    try:
        raise ZeroDivisionError("division by zero while counting rations")
    except ZeroDivisionError as exc:
        app.report_error(exc)
    app.step(1 / 30, [])
    top = app.stack.top
    assert top.name == "error"
    return "\n".join(text for _style, text in top.text_lines())


def _load_screen_subtitle(app, monkeypatch) -> str:
    from game.client.scenes import game_scene
    from game.tools.flow_shots import shot_load_corrupt

    shot_load_corrupt(app)
    drawn: list[str] = []
    real = game_scene.draw_text
    monkeypatch.setattr(game_scene, "draw_text", lambda surface, text, *a, **k: (drawn.append(text),
                                                                                real(surface, text, *a, **k))[1])
    app.step(1 / 30, [])
    assert drawn and drawn[1].startswith("Load a game of")  # the turn (none here), the title, its subtitle
    return drawn[2]


@pytest.mark.parametrize("size", [(1280, 720), (3840, 2160)])
def test_the_shots_app_names_the_players_folder_not_its_temporary_one(home, size, monkeypatch):
    from game.client.launch import make_app

    app = make_app(home=home, size=size, fullscreen=False, shown_home=default_home())
    try:
        words = _error_words(app)
        assert "Saved to saves/whatgoesup.log in the game's folder" in words
        assert str(home) not in words
        app.stack.clear()
        assert _load_screen_subtitle(app, monkeypatch) == "saves in the game's folder"
    finally:
        app.stack.clear()


def test_the_real_app_names_its_real_folder(make_app, home, monkeypatch):
    """Outside the game's folder and the player's home (a test's temporary folder), the path is given whole:
    it is where the player finds the report."""
    app = make_app()
    assert f"Saved to {home / 'whatgoesup.log'}" in _error_words(app)
    app.stack.clear()
    assert _load_screen_subtitle(app, monkeypatch) == str(home)
