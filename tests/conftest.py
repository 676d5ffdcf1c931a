"""Shared fixtures. SDL runs headless in every test (no window, no sound device)."""
from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pytest  # noqa: E402

from game.games.whatgoesup.rules.engine import Engine  # noqa: E402
from game.games.whatgoesup.rules.tables import load_rules  # noqa: E402


@pytest.fixture(scope="session")
def rules():
    """The shipped rules, loaded once."""
    return load_rules()


@pytest.fixture
def engine(rules):
    return Engine(rules)
