"""Where the client finds its assets and keeps the player's files (settings, log, kept looks)."""
from __future__ import annotations

import os
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[3]
ASSETS_DIR = REPO_ROOT / "assets"
THEME_PATH = ASSETS_DIR / "theme.json"
HOME_ENV = "WHATGOESUP_HOME"


def home_dir() -> Path:
    """The folder for settings and the log: ``$WHATGOESUP_HOME`` if set, else ``saves/`` in the repo."""
    override = os.environ.get(HOME_ENV)
    return Path(override).expanduser() if override else REPO_ROOT / "saves"


def settings_path(home: Path | None = None) -> Path:
    return (home or home_dir()) / "settings.json"


def log_path(home: Path | None = None) -> Path:
    return (home or home_dir()) / "whatgoesup.log"


#: The file of the rounded widgets' looks kept between runs (``game/client/kit/kept_looks.py``).
KEPT_LOOKS_NAME = "kept-looks.bin"


def kept_looks_path(home: Path | None = None) -> Path:
    return (home or home_dir()) / KEPT_LOOKS_NAME
