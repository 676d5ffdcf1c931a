"""Player settings: window, scale, animation speed and volume, kept as JSON in the home folder.

Loading never fails: a missing file gives the defaults quietly; a corrupt file or a bad value gives
the defaults (for the bad parts only, where possible) plus a message to show the player.
"""
from __future__ import annotations

import json
from dataclasses import asdict, dataclass, replace
from pathlib import Path

from game.core.atomic import write_atomic

WINDOW_PRESETS: tuple[tuple[int, int], ...] = (
    (1280, 720), (1600, 900), (1920, 1080), (2560, 1440), (3840, 2160),
)
UI_SCALES: tuple[float, ...] = (0.75, 1.0, 1.25, 1.5)
ANIMATION_SPEEDS: tuple[str, ...] = ("normal", "fast", "skip")
SETTINGS_VERSION = 1


@dataclass(frozen=True)
class Settings:
    window_size: tuple[int, int] = WINDOW_PRESETS[0]
    fullscreen: bool = False
    ui_scale: float = 1.0
    animation_speed: str = "normal"
    volume: float = 0.7  # 0..1
    #: False: a roll's result card stays until the player dismisses it (a computer's stays long enough to read).
    auto_continue: bool = False
    #: A quiet music loop under the game (at a fraction of the volume); the volume slider at 0 mutes everything.
    music: bool = True

    def to_json(self) -> dict:
        data = asdict(self)
        data["window_size"] = list(self.window_size)
        return {"version": SETTINGS_VERSION, **data}


def _check_field(name: str, value: object) -> object:
    """The value converted to its field's type, or ValueError saying what is wrong."""
    if name == "window_size":
        if (isinstance(value, list) and len(value) == 2 and all(isinstance(v, int) and not isinstance(v, bool)
                                                                for v in value)
                and value[0] >= 640 and value[1] >= 360):
            return (value[0], value[1])
        raise ValueError("window_size must be [width, height], at least [640, 360]")
    if name in ("fullscreen", "auto_continue", "music"):
        if isinstance(value, bool):
            return value
        raise ValueError(f"{name} must be true or false")
    if name == "ui_scale":
        if isinstance(value, (int, float)) and not isinstance(value, bool) and float(value) in UI_SCALES:
            return float(value)
        raise ValueError(f"ui_scale must be one of {', '.join(str(s) for s in UI_SCALES)}")
    if name == "animation_speed":
        if value in ANIMATION_SPEEDS:
            return value
        raise ValueError(f"animation_speed must be one of {', '.join(ANIMATION_SPEEDS)}")
    if name == "volume":
        if isinstance(value, (int, float)) and not isinstance(value, bool) and 0 <= value <= 1:
            return float(value)
        raise ValueError("volume must be a number from 0 to 1")
    raise ValueError("unknown setting (ignored)")


def load_settings(path: Path) -> tuple[Settings, str | None]:
    """Settings from ``path`` and a message for the player if anything had to be replaced by defaults."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return Settings(), None
    except OSError as exc:
        return Settings(), f"Could not read your settings ({exc.strerror}); using the defaults."
    except UnicodeDecodeError:
        return Settings(), "Your settings file was damaged (not text); using the defaults."
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        return Settings(), (f"Your settings file was damaged (line {exc.lineno}: {exc.msg}); "
                            "using the defaults.")
    if not isinstance(data, dict):
        return Settings(), "Your settings file was damaged (not a settings object); using the defaults."
    values: dict[str, object] = {}
    problems: list[str] = []
    for name, value in data.items():
        if name == "version":
            continue
        try:
            values[name] = _check_field(name, value)
        except ValueError as exc:
            problems.append(f"{name}: {exc}")
    settings = replace(Settings(), **values)
    if problems:
        return settings, "Some settings were reset to defaults (" + "; ".join(problems) + ")."
    return settings, None


def save_settings(settings: Settings, path: Path) -> None:
    """Write the settings atomically through the saves' writer (a crash mid-write never leaves a half
    file; the temporary file has a fresh name and never follows a link). Raises OSError."""
    write_atomic(path, json.dumps(settings.to_json(), indent=2) + "\n")


ANIMATION_TIME_FACTOR = {"normal": 1.0, "fast": 0.4, "skip": 0.0}


#: Room left around a window that fits the desktop (taskbars, title bars), as a fraction of each side.
DESKTOP_SHARE = 0.9
MIN_WINDOW = (960, 540)


def fit_window(wanted: tuple[int, int] | None, desktop: tuple[int, int] | None) -> tuple[int, int]:
    """The window size to open: ``wanted`` (a saved size) clamped to the desktop it opens on, or, on a first
    start (``wanted`` None), most of that desktop. Never smaller than ``MIN_WINDOW`` unless the desktop is."""
    if desktop is None or desktop[0] <= 0 or desktop[1] <= 0:
        return wanted or WINDOW_PRESETS[0]
    room = (int(desktop[0] * DESKTOP_SHARE), int(desktop[1] * DESKTOP_SHARE))
    if wanted is None:
        w, h = room
    else:
        w, h = min(wanted[0], room[0]), min(wanted[1], room[1])
    floor = (min(MIN_WINDOW[0], desktop[0]), min(MIN_WINDOW[1], desktop[1]))
    return max(w, floor[0]), max(h, floor[1])


#: Reading time for a result card that goes on by itself: a pause plus this much per word (about 200 words a
#: minute, slow enough for a child reading aloud to the table).
READ_PAUSE_S = 2.0
READ_PER_WORD_S = 0.3


def reading_seconds(text: str, settings: Settings) -> float:
    """How long ``text`` stays on screen when nobody dismisses it: longer texts stay longer; a faster
    animation speed shortens it only down to half, never to nothing (skip: no wait at all)."""
    factor = animation_factor(settings)
    if factor <= 0:
        return 0.0
    return (READ_PAUSE_S + READ_PER_WORD_S * len(text.split())) * max(0.5, factor)


def animation_factor(settings: Settings) -> float:
    """How long animations last relative to normal speed (0 = skip straight to the end)."""
    return ANIMATION_TIME_FACTOR[settings.animation_speed]
