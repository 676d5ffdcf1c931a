"""Shared fixtures for the headless UI tests (dummy video and audio drivers)."""
import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pytest  # noqa: E402

pygame = pytest.importorskip("pygame")
pytest.importorskip("pygame_gui")


@pytest.fixture
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("WHATGOESUP_HOME", str(tmp_path))
    return tmp_path


@pytest.fixture
def make_app(home):
    from game.client.launch import make_app

    apps = []

    def _make(size=(1280, 720), **kwargs):
        app = make_app(home=home, size=size, fullscreen=False, **kwargs)
        apps.append(app)
        return app

    yield _make
    for app in apps:
        app.stack.clear()
