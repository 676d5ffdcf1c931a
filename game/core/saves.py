"""Saved games: a versioned JSON document whose action log is the whole truth.

A save holds the format and version, the rules digest and edition it was played under, the setup,
the seed and every action (rolls included, as ``Roll`` actions). Loading replays the log through the
engine, so a save can never describe a state the rules would not reach. Undo is "replay one fewer"
and stops at a die roll. Writes are atomic: a failed save leaves the previous file as it was.
"""
from __future__ import annotations

import dataclasses
import json
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Optional, Sequence

from game.games.whatgoesup.rules.actions import Action, BadActionData, Roll, action_from_data
from game.games.whatgoesup.rules.engine import Engine, IllegalAction, IllegalSetup
from game.games.whatgoesup.rules.state import GameState, PlayerSetup, Setup

FORMAT = "whatgoesup-save"
VERSION = 1
HOME_ENV = "WHATGOESUP_HOME"
REPO_ROOT = Path(__file__).resolve().parents[2]
AUTOSAVE_KEEP = 5


class SaveError(Exception):
    """A save could not be written or read; the message says why in a player's words."""


# ------------------------------------------------------------------ where saves live
def saves_folder() -> Path:
    """``$WHATGOESUP_HOME`` if set, else ``saves/`` in the repo (the same folder the client uses)."""
    override = os.environ.get(HOME_ENV)
    return Path(override).expanduser() if override else REPO_ROOT / "saves"


# ------------------------------------------------------------------ setup as plain data
def setup_to_data(setup: Setup) -> dict[str, Any]:
    return {
        "players": [dataclasses.asdict(p) for p in setup.players],
        "dice": setup.dice,
        "options": sorted(setup.options),
        "turn_limit": setup.turn_limit,
        "victory": setup.victory,
        "scenario": setup.scenario,
        "difficulty": setup.difficulty,
    }


def _expect(value: Any, kind: type | tuple, where: str, what: str) -> Any:
    ok = isinstance(value, kind) and not (isinstance(value, bool) and kind in (int, (int, type(None))))
    if not ok:
        shown = repr(value) if len(repr(value)) <= 40 else repr(value)[:37] + "..."
        raise SaveError(f"{where} must be {what}, not {type(value).__name__} ({shown})")
    return value


def setup_from_data(data: Any) -> Setup:
    """A Setup from its plain form, every field's type checked."""
    _expect(data, dict, "setup", "a mapping")
    known = {"players", "dice", "options", "turn_limit", "victory", "scenario", "difficulty"}
    unknown = sorted(set(data) - known)
    if unknown:
        raise SaveError(f"setup has unknown field(s): {', '.join(unknown)}")
    players_data = _expect(data.get("players"), list, "setup.players", "a list")
    players = []
    player_fields = {f.name: f for f in dataclasses.fields(PlayerSetup)}
    for n, p in enumerate(players_data, 1):
        where = f"setup.players[{n}]"
        _expect(p, dict, where, "a mapping")
        extra = sorted(set(p) - set(player_fields))
        if extra:
            raise SaveError(f"{where} has unknown field(s): {', '.join(extra)}")
        for required in ("name", "people"):
            if required not in p:
                raise SaveError(f"{where} is missing '{required}'")
        for key in ("name", "people", "colour"):
            if key in p:
                _expect(p[key], str, f"{where}.{key}", "text")
        if "human" in p:
            _expect(p["human"], bool, f"{where}.human", "true or false")
        players.append(PlayerSetup(**p))
    kwargs: dict[str, Any] = {"players": tuple(players)}
    if "dice" in data:
        kwargs["dice"] = _expect(data["dice"], str, "setup.dice", "text")
    if "options" in data:
        options = _expect(data["options"], list, "setup.options", "a list")
        kwargs["options"] = frozenset(_expect(o, str, "setup.options", "a list of text") for o in options)
    if "turn_limit" in data:
        kwargs["turn_limit"] = _expect(data["turn_limit"], (int, type(None)), "setup.turn_limit",
                                       "a whole number or null")
    if "victory" in data:
        kwargs["victory"] = _expect(data["victory"], str, "setup.victory", "text")
    for key in ("scenario", "difficulty"):  # absent in saves made before scenarios: no scenario
        if key in data:
            kwargs[key] = _expect(data[key], (str, type(None)), f"setup.{key}", "text or null")
    return Setup(**kwargs)


# ------------------------------------------------------------------ documents
def save_document(rules, setup: Setup, seed: int, actions: Sequence[Action]) -> dict[str, Any]:
    return {
        "format": FORMAT,
        "version": VERSION,
        "rules_digest": rules.digest,
        "edition": rules.edition.id,
        "setup": setup_to_data(setup),
        "seed": seed,
        "actions": [a.to_data() for a in actions],
    }


# Step-by-step upgraders: UPGRADERS[n] turns a version-n document into a version-(n+1) one.
# Version 1 is the first format, so there is nothing to upgrade yet.
UPGRADERS: dict[int, Callable[[dict], dict]] = {}


def upgrade(document: dict) -> dict:
    """Bring a document up to VERSION one step at a time, or refuse it with a clear message."""
    version = document.get("version")
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise SaveError(f"the save's format version is {version!r}; expected a whole number from 1")
    if version > VERSION:
        raise SaveError(f"this save is format version {version}, made by a newer What Goes Up; "
                        f"this version reads up to version {VERSION}")
    while version < VERSION:
        step = UPGRADERS.get(version)
        if step is None:
            raise SaveError(f"there is no upgrade from save format version {version}")
        document = step(document)
        version += 1
        document["version"] = version
    return document


# ------------------------------------------------------------------ writing
def _write_temp(path: Path, text: str) -> Path:
    """Write ``text`` to a temporary file next to ``path`` (flushed and synced) and return it."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
    except BaseException:
        _discard(Path(tmp))
        raise
    return Path(tmp)


def _discard(path: Path) -> None:
    try:
        path.unlink()
    except OSError:
        pass


def _why(exc: OSError) -> str:
    import errno
    reasons = {errno.ENOSPC: "the disk is full", errno.EACCES: "permission denied",
               errno.EPERM: "permission denied", errno.EROFS: "the disk is read-only",
               errno.EDQUOT: "the disk quota is used up"}
    return reasons.get(exc.errno, exc.strerror or str(exc))


def write_atomic(path: Path | str, text: str) -> None:
    """Replace ``path`` with ``text`` all at once; on failure the old file is left untouched."""
    path = Path(path)
    tmp: Optional[Path] = None
    try:
        tmp = _write_temp(path, text)
        os.replace(tmp, path)
    except OSError as exc:
        if tmp is not None:
            _discard(tmp)
        raise SaveError(f"could not save to {path}: {_why(exc)}; the previous save is unchanged") from exc


def save_game(path: Path | str, rules, setup: Setup, seed: int, actions: Sequence[Action]) -> Path:
    """Write a save atomically. Raises SaveError (previous file intact) when the disk refuses."""
    text = json.dumps(save_document(rules, setup, seed, actions), indent=1, ensure_ascii=False) + "\n"
    write_atomic(path, text)
    return Path(path)


def autosave_path(folder: Path | str, n: int) -> Path:
    return Path(folder) / f"autosave-{n}.json"


def autosave(folder: Path | str, rules, setup: Setup, seed: int, actions: Sequence[Action],
             keep: int = AUTOSAVE_KEEP) -> Path:
    """Save as autosave-1.json (newest), shifting older ones up to autosave-<keep>.json."""
    if keep < 1:
        raise ValueError("keep at least one autosave")
    folder = Path(folder)
    target = autosave_path(folder, 1)
    text = json.dumps(save_document(rules, setup, seed, actions), indent=1, ensure_ascii=False) + "\n"
    tmp: Optional[Path] = None
    try:
        tmp = _write_temp(target, text)  # written first: a full disk must not cost an old autosave
        _discard(autosave_path(folder, keep))
        for n in range(keep - 1, 0, -1):
            if autosave_path(folder, n).exists():
                os.replace(autosave_path(folder, n), autosave_path(folder, n + 1))
        os.replace(tmp, target)
    except OSError as exc:
        if tmp is not None:
            _discard(tmp)
        raise SaveError(f"could not autosave to {folder}: {_why(exc)}") from exc
    return target


def latest_autosave(folder: Path | str) -> Optional[Path]:
    """The newest autosave in ``folder``, or None."""
    for n in range(1, 100):
        path = autosave_path(folder, n)
        if path.is_file():
            return path
    return None


# ------------------------------------------------------------------ reading
@dataclass(frozen=True)
class LoadedGame:
    """A replayed save: ``states[0]`` is the new game, ``states[i]`` the state after action i."""

    setup: Setup
    seed: int
    actions: tuple[Action, ...]
    states: tuple[GameState, ...]
    rules_digest: str
    edition: str

    @property
    def final(self) -> GameState:
        return self.states[-1]


def read_document(path: Path | str) -> dict:
    """The save's JSON, checked for syntax, format and version (upgraded to VERSION)."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise SaveError(f"{path}: no such save file") from None
    except UnicodeDecodeError:
        raise SaveError(f"{path}: not a save file (it is not text)") from None
    except OSError as exc:
        raise SaveError(f"{path}: cannot read it: {_why(exc)}") from None
    try:
        document = json.loads(text)
    except json.JSONDecodeError as exc:
        raise SaveError(f"{path}:{exc.lineno}:{exc.colno}: the save is damaged or cut short "
                        f"(JSON: {exc.msg})") from None
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        raise SaveError(f"{path}: not a What Goes Up save (expected \"format\": \"{FORMAT}\")")
    try:
        return upgrade(document)
    except SaveError as exc:
        raise SaveError(f"{path}: {exc}") from None


def replay(engine: Engine, setup: Setup, actions: Sequence[Action]) -> tuple[GameState, ...]:
    """Every state from the new game through each action; SaveError naming the first bad action."""
    try:
        state = engine.new_game(setup)
    except IllegalSetup as exc:
        raise SaveError(f"the setup is not allowed: {exc}") from None
    states = [state]
    for n, action in enumerate(actions, 1):
        try:
            state = engine.apply(state, action)
        except IllegalAction as exc:
            raise SaveError(f"action {n} ({action}): {exc}") from None
        except Exception as exc:  # an engine bug: still no traceback for the player
            raise SaveError(f"action {n} ({action}): the rules engine failed on it "
                            f"({type(exc).__name__}: {exc})") from exc
        states.append(state)
    return tuple(states)


def load_game(path: Path | str, engine: Engine, allow_mismatch: bool = False) -> LoadedGame:
    """Read, check and replay a save. Raises SaveError with a message a player can act on."""
    path = Path(path)
    document = read_document(path)
    try:
        return _load_document(document, engine, allow_mismatch)
    except SaveError as exc:
        raise SaveError(f"{path}: {exc}") from None


def _load_document(document: dict, engine: Engine, allow_mismatch: bool) -> LoadedGame:
    known = {"format", "version", "rules_digest", "edition", "setup", "seed", "actions"}
    missing = sorted(known - set(document))
    if missing:
        raise SaveError(f"the save is missing {', '.join(missing)}")
    unknown = sorted(set(document) - known)
    if unknown:
        raise SaveError(f"the save has unknown field(s): {', '.join(unknown)}")
    digest = _expect(document["rules_digest"], str, "rules_digest", "text")
    edition = _expect(document["edition"], str, "edition", "text")
    rules = engine.rules
    if digest != rules.digest and not allow_mismatch:
        raise SaveError(f"the save was made with rules {digest} (edition {edition}) but these rules are "
                        f"{rules.digest} (edition {rules.edition.id}); load it anyway only if you accept "
                        f"that the game may replay differently")
    seed = _expect(document["seed"], int, "seed", "a whole number")
    setup = setup_from_data(document["setup"])
    entries = _expect(document["actions"], list, "actions", "a list")
    actions = []
    for n, entry in enumerate(entries, 1):
        try:
            actions.append(action_from_data(entry))
        except BadActionData as exc:
            raise SaveError(f"action {n}: {exc}") from None
        except (TypeError, ValueError) as exc:  # a value the action's own checks refuse
            raise SaveError(f"action {n}: {exc}") from None
    states = replay(engine, setup, actions)
    return LoadedGame(setup=setup, seed=seed, actions=tuple(actions), states=states,
                      rules_digest=digest, edition=edition)


# ------------------------------------------------------------------ undo
class UndoError(Exception):
    """Nothing can be undone (the log is empty or its last action is a die roll)."""


def is_irreversible(action: Action) -> bool:
    """A die roll (or any action marked ``irreversible``, such as a reveal) cannot be undone."""
    return isinstance(action, Roll) or bool(getattr(action, "irreversible", False))


def can_undo(actions: Sequence[Action]) -> bool:
    return bool(actions) and not is_irreversible(actions[-1])


def undo(actions: Sequence[Action]) -> list[Action]:
    """The log with its last action removed; UndoError when that action is a roll (undo stops there)."""
    if not actions:
        raise UndoError("there is nothing to undo")
    if is_irreversible(actions[-1]):
        raise UndoError(f"undo stops at a die roll ({actions[-1]}): the dice have spoken")
    return list(actions[:-1])
