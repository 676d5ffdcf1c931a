"""Where the client finds its assets and keeps the player's files (settings, log, kept looks)."""
from __future__ import annotations

import os
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[3]
ASSETS_DIR = REPO_ROOT / "assets"
THEME_PATH = ASSETS_DIR / "theme.json"
HOME_ENV = "WHATGOESUP_HOME"


def default_home() -> Path:
    """The folder for settings, the log and the saves when ``$WHATGOESUP_HOME`` is not set: ``saves/`` in the
    game's own folder."""
    return REPO_ROOT / "saves"


def home_dir() -> Path:
    """The folder for settings and the log: ``$WHATGOESUP_HOME`` if set, else ``default_home()``."""
    override = os.environ.get(HOME_ENV)
    return Path(override).expanduser() if override else default_home()


def shown_path(path: Path) -> str:
    """``path`` as a player finds it: inside the game's own folder from there, saying so ("saves/whatgoesup.log
    in the game's folder"), inside the player's home folder from "~" ("~/Games/whatgoesup.log"), anywhere
    else whole."""
    path = Path(path)
    for base, shown in ((REPO_ROOT, "{} in the game's folder"), (Path.home(), "~/{}")):
        try:
            inside = path.relative_to(base)
        except ValueError:
            continue
        return shown.format(inside.as_posix()) if inside.parts else str(path)
    return str(path)


def settings_path(home: Path | None = None) -> Path:
    return (home or home_dir()) / "settings.json"


def log_path(home: Path | None = None) -> Path:
    return (home or home_dir()) / "whatgoesup.log"


#: The file of the rounded widgets' looks kept between runs (``game/client/kit/kept_looks.py``).
KEPT_LOOKS_NAME = "kept-looks.bin"


def kept_looks_path(home: Path | None = None) -> Path:
    return (home or home_dir()) / KEPT_LOOKS_NAME
