"""Saved games: a versioned JSON document whose action log is the whole truth.

A save holds the format and version, the game and the rules digest and edition it was played under,
the setup, the seed, where the dice came from and every action (rolls included, as ``Roll`` actions).
Loading replays the log through the engine it is handed, so a save can never describe a state the
rules would not reach, and checks each recorded roll against the dice the seed gives: a save with an
edited roll loads with ``LoadedGame.edited_rolls`` set (or is refused with ``strict``). Everything
game-specific comes from the engine (``setup_to_data``, ``setup_from_data``, ``action_from_data``,
``game_id``): this module imports no game.

Reading is bounded (``SAVE_LIMITS``: only regular files, their size, nesting, numbers and counts) and
every failure is a ``SaveError`` naming the file and the reason. Writes are atomic (``game.core.atomic``):
a failed save leaves the previous file as it was. Undo is "replay one fewer" and stops at a die roll.
"""
from __future__ import annotations

import contextlib
import gc
import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Optional, Sequence

from game.core import atomic
from game.core.actions import Action, Roll
from game.core.dice_rng import DiceRoller, dice_from_data
from game.core.history import StateHistory
from game.core.interface import IllegalAction, IllegalSetup, UnknownEdition
from game.core.jsonread import Unreadable, is_regular_file, parse_limited, read_limited
from game.core.plaindata import BadData, expect, expect_text, shown
# where saves live and which files could be saves: light, in a module of its own (the title asks it)
from game.core.savefolder import (FORMAT, HOME_ENV, MAX_ACTIONS, NOT_SAVES, REPO_ROOT, SAVE_LIMITS,  # noqa: F401
                                  candidates as _candidates, is_save_document, looks_like_a_save as _looks_like_a_save,
                                  newest_save, saves_folder)
from game.core.words import counted, noun_for

VERSION = 2
AUTOSAVE_KEEP = 5
#: Saves from before the format named its game (version 1) are What Goes Up's.
LEGACY_GAME = "whatgoesup"


class SaveError(Exception):
    """A save could not be written or read; the message names the file and says why in a player's words.

    ``reason`` is the message without the file's name (for a screen that shows the name already);
    ``detail`` the technical words behind it ('' if none), kept apart from the reason a player reads first.
    """

    def __init__(self, message: str, reason: Optional[str] = None, detail: str = ""):
        super().__init__(message)
        self.reason = reason if reason is not None else message
        self.detail = detail


def _about(path: Path, reason: str) -> SaveError:
    return SaveError(f"{path}: {reason}", reason)


@dataclass(frozen=True)
class Divergence:
    """Where a save's replay left the game it recorded: this version's engine refuses its action
    ``action_number`` (1-based) of ``actions``, made in turn ``turn``, or (``failed``) fails on it. ``why``: the
    engine's reason or failure, technical words kept out of the sentence a player reads first. The save
    holds only its log, so a replay that goes another way without a refusal cannot be told from the game
    it recorded."""

    action_number: int
    actions: int
    turn: int
    why: str
    failed: bool = False

    def brief(self, turn_word: str = "turn") -> str:
        """``words`` in one short line, for a list of saves."""
        if self.failed:
            return f"this version cannot replay it past {turn_word} {self.turn}; the file is kept as it is."
        return (f"this version plays it another way from {turn_word} {self.turn} (action {self.action_number} of "
                f"{self.actions}); the file is kept as it is.")

    def words(self, turn_word: str = "turn") -> str:
        """What happened, in a player's words (``turn_word``: what the game calls a turn, in lower case)."""
        where = f"action {self.action_number} of {self.actions} ({turn_word} {self.turn})"
        if self.failed:
            return f"this version cannot replay it: its rules engine failed at {where}. The file is kept as it is."
        return (f"this version plays it another way: the move recorded at {where} is not allowed now. It was "
                "made by an earlier version or changed by hand; the file is kept as it is.")


class SaveDiverged(SaveError):
    """A save whose replay this version's engine refuses or fails on part way (``divergence``)."""

    def __init__(self, message: str, divergence: Divergence, reason: Optional[str] = None):
        super().__init__(message, reason if reason is not None else message, divergence.why)
        self.divergence = divergence


def _named(path: Path, exc: SaveError) -> SaveError:
    """``exc`` with the file's name in front of its message, keeping its reason, detail and divergence."""
    if isinstance(exc, SaveDiverged):
        return SaveDiverged(f"{path}: {exc}", exc.divergence, exc.reason)
    return SaveError(f"{path}: {exc}", exc.reason, exc.detail)




# ------------------------------------------------------------------ documents
def save_document(engine, setup: Any, seed: int, actions: Sequence[Action], dice: Any = "seeded") -> dict[str, Any]:
    """The plain document of a game: ``engine`` gives the game, rules and setup's plain form;
    ``dice`` is where the rolls came from (``DiceRoller.describe()``)."""
    rules = engine.rules
    return {
        "format": FORMAT,
        "version": VERSION,
        "game": engine.game_id,
        "rules_digest": rules.digest,
        "edition": rules.edition.id,
        "setup": engine.setup_to_data(setup),
        "seed": seed,
        "dice": dice,
        "actions": [a.to_data() for a in actions],
    }


def _name_the_game(document: dict) -> dict:
    """Version 1 -> 2: saves name their game; version 1 saves were all What Goes Up's. (Version 1 did not
    record its dice either; they load with the dice the caller expects, seeded unless told otherwise.)"""
    return {**document, "game": LEGACY_GAME}


# Step-by-step upgraders: UPGRADERS[n] turns a version-n document into a version-(n+1) one.
UPGRADERS: dict[int, Callable[[dict], dict]] = {1: _name_the_game}


def upgrade(document: dict) -> dict:
    """Bring a document up to VERSION one step at a time, or refuse it with a clear message."""
    version = document.get("version")
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise SaveError(f"the save's format version is {shown(version)}; expected a whole number from 1")
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
def _why(exc: OSError) -> str:
    import errno
    reasons = {errno.ENOSPC: "the disk is full", errno.EACCES: "permission denied",
               errno.EPERM: "permission denied", errno.EROFS: "the disk is read-only",
               errno.EDQUOT: "the disk quota is used up", errno.EEXIST: "a file of the temporary name is in the way",
               errno.ELOOP: "a symbolic link is in the way"}
    return reasons.get(exc.errno, exc.strerror or str(exc))


class ActionTexts:
    """Each action's JSON text, made once: a session autosaving after every action then writes a long
    game without serializing its whole log again each time (see ``document_text``)."""

    def __init__(self) -> None:
        self._actions: list[Action] = []
        self._texts: list[str] = []

    def texts(self, actions: Sequence[Action]) -> list[str]:
        keep = 0
        limit = min(len(actions), len(self._actions))
        while keep < limit and actions[keep] is self._actions[keep]:
            keep += 1
        del self._actions[keep:], self._texts[keep:]
        for action in actions[keep:]:
            self._actions.append(action)
            self._texts.append(json.dumps(action.to_data(), ensure_ascii=False))
        return self._texts


def document_text(engine, setup: Any, seed: int, actions: Sequence[Action], dice: Any = "seeded",
                  cache: Optional[ActionTexts] = None) -> str:
    """The text of a save: ``save_document`` as indented JSON with one action a line."""
    document = save_document(engine, setup, seed, (), dice)
    head = json.dumps({k: v for k, v in document.items() if k != "actions"}, indent=1, ensure_ascii=False)
    texts = (cache or ActionTexts()).texts(actions)
    body = "[\n  " + ",\n  ".join(texts) + "\n ]" if texts else "[]"
    return head[:-2] + f',\n "actions": {body}\n}}\n'


def write_atomic(path: Path | str, text: str) -> None:
    """Replace ``path`` with ``text`` all at once; on failure the old file is left untouched (SaveError)."""
    path = Path(path)
    try:
        atomic.write_atomic(path, text)
    except OSError as exc:
        raise SaveError(f"could not save to {path}: {_why(exc)}; the previous save is unchanged") from exc


def save_game(path: Path | str, engine, setup: Any, seed: int, actions: Sequence[Action],
              dice: Any = "seeded", cache: Optional[ActionTexts] = None) -> Path:
    """Write a save atomically. Raises SaveError (previous file intact) when the disk refuses."""
    write_atomic(path, document_text(engine, setup, seed, actions, dice, cache))
    return Path(path)


def autosave_path(folder: Path | str, n: int) -> Path:
    return Path(folder) / f"autosave-{n}.json"


def autosave(folder: Path | str, engine, setup: Any, seed: int, actions: Sequence[Action],
             keep: int = AUTOSAVE_KEEP, dice: Any = "seeded", rotate: bool = True,
             cache: Optional[ActionTexts] = None) -> Path:
    """Save as autosave-1.json (newest). With ``rotate`` the older ones shift up to autosave-<keep>.json
    first; without, autosave-1.json is replaced (the same game, one action on). Atomic either way."""
    if keep < 1:
        raise ValueError("keep at least one autosave")
    folder = Path(folder)
    target = autosave_path(folder, 1)
    text = document_text(engine, setup, seed, actions, dice, cache)
    tmp: Optional[Path] = None
    try:
        tmp = atomic.write_temporary(target, text.encode("utf-8"))  # first: a full disk must not cost an old autosave
        if rotate:
            atomic.discard(autosave_path(folder, keep))
            for n in range(keep - 1, 0, -1):
                if autosave_path(folder, n).exists():
                    os.replace(autosave_path(folder, n), autosave_path(folder, n + 1))
        os.replace(tmp, target)
        tmp = None
        atomic.sync_folder(folder)
    except OSError as exc:
        if tmp is not None:
            atomic.discard(tmp)
        raise SaveError(f"could not autosave to {folder}: {_why(exc)}") from exc
    return target


def latest_autosave(folder: Path | str) -> Optional[Path]:
    """The newest autosave in ``folder``, or None."""
    for n in range(1, 100):
        path = autosave_path(folder, n)
        if is_regular_file(path):
            return path
    return None


# ------------------------------------------------------------------ reading
@dataclass(frozen=True)
class EditedRoll:
    """A recorded roll that is not the one the save's dice give at that point of the game."""

    action_number: int  # 1-based, as the errors count actions
    roll_number: int  # 1-based among the game's rolls
    recorded: int
    expected: Optional[int]

    def __str__(self) -> str:
        return (f"roll {self.roll_number} (action {self.action_number}) shows {self.recorded} where the "
                f"save's seed gives {self.expected}")


@dataclass(frozen=True)
class LoadedGame:
    """A replayed save: ``states[0]`` is the new game, ``states[i]`` the state after action i (a
    ``StateHistory``: it keeps checkpoints and the newest states, and replays any other on request).

    ``edited_rolls`` lists every recorded roll the save's dice would not have rolled (empty for an
    untouched save); ``edited`` is true when there is any.
    """

    setup: Any
    seed: int
    actions: tuple[Action, ...]
    states: StateHistory
    rules_digest: str
    edition: str
    game: str = LEGACY_GAME
    dice: Any = "seeded"
    edited_rolls: tuple[EditedRoll, ...] = ()
    engine: Any = None  # the engine it was replayed with (the save's own edition's, when it was followed)

    @property
    def final(self) -> Any:
        return self.states[-1]

    @property
    def edited(self) -> bool:
        return bool(self.edited_rolls)


def edited_notice(edited_rolls: Sequence[EditedRoll]) -> str:
    """One sentence for the story log and the client about a save whose rolls were changed."""
    first = edited_rolls[0]
    more = f" ({counted(len(edited_rolls) - 1, 'more roll')} differ too)" if len(edited_rolls) > 1 else ""
    return (f"This save was edited: {first}{more}, unless an earlier version of the game made it and its rules "
            "went another way. The game goes on from the save as written.")


def read_document(path: Path | str) -> dict:
    """The save's JSON, checked for size, shape, format and version (upgraded to VERSION)."""
    path = Path(path)
    try:
        data = read_limited(path, SAVE_LIMITS.max_bytes)
        text = data.decode("utf-8")
        document = parse_limited(text, SAVE_LIMITS)
    except FileNotFoundError:
        raise _about(path, "no such save file") from None
    except UnicodeDecodeError:
        raise _about(path, "not a save file (it is not text)") from None
    except json.JSONDecodeError as exc:
        reason = "the save is damaged or cut short, so it can't be read"
        raise SaveError(f"{path}:{exc.lineno}:{exc.colno}: {reason} (JSON: {exc.msg})", reason,
                        f"JSON line {exc.lineno}, column {exc.colno}: {exc.msg}") from None
    except Unreadable as exc:
        raise _about(path, f"not a save file: {exc}") from None
    except OSError as exc:
        raise _about(path, f"cannot read it: {_why(exc)}") from None
    if not is_save_document(document):
        raise _about(path, f"not a What Goes Up save (expected \"format\": \"{FORMAT}\")")
    try:
        return upgrade(document)
    except SaveError as exc:
        raise _about(path, str(exc)) from None


def replay(engine, setup: Any, actions: Sequence[Action]) -> StateHistory:
    """Every state from the new game through each action; SaveError naming the first bad action."""
    return _replay(engine, setup, actions, None)[0]


@contextlib.contextmanager
def _collector_paused():
    """Pause the cyclic garbage collector (if it runs) for a replay, then let it run again.

    A replay builds thousands of immutable states that stay alive (the history) and drops the rest as soon
    as it is done with them, which reference counting frees; the collector finds nothing to free in it, yet
    each pass walks everything alive (about a tenth of a long replay's time). What a pause would leave
    uncollected is collected as usual once it ends."""
    paused = gc.isenabled()
    if paused:
        gc.disable()
    try:
        yield
    finally:
        if paused:
            gc.enable()


def _replay(engine, setup: Any, actions: Sequence[Action],
            dice: Optional[DiceRoller]) -> tuple[StateHistory, tuple[EditedRoll, ...]]:
    """The states, and the recorded rolls ``dice`` (rolling alongside) would not have rolled."""
    with _collector_paused():
        return _replay_all(engine, setup, actions, dice)


def _replay_all(engine, setup: Any, actions: Sequence[Action],
                dice: Optional[DiceRoller]) -> tuple[StateHistory, tuple[EditedRoll, ...]]:
    try:
        state = engine.new_game(setup)
    except IllegalSetup as exc:
        raise SaveError(f"the setup is not allowed: {exc}") from None
    except Exception as exc:  # an engine bug: still no traceback for the player
        raise SaveError(f"the rules engine failed on the setup ({type(exc).__name__}: {exc})") from exc
    states = StateHistory(engine, state)
    edited: list[EditedRoll] = []
    rolls = 0
    for n, action in enumerate(actions, 1):
        try:
            if dice is not None and isinstance(action, Roll):
                rolls += 1
                expected = _expected_roll(dice, engine, state)
                if expected is not None and expected != action:
                    edited.append(EditedRoll(n, rolls, action.value, expected.value))
            state = engine.apply(state, action)
        except IllegalAction as exc:
            # The player's words first; the action and the engine's reason after, for whoever mends the file.
            diverged = Divergence(n, len(actions), states.turn(len(states) - 1), str(exc))
            raise SaveDiverged(f"{diverged.words()} In detail: action {n} ({action}): {exc}", diverged,
                               diverged.words()) from None
        except Exception as exc:  # an engine bug: still no traceback for the player
            diverged = Divergence(n, len(actions), states.turn(len(states) - 1), f"{type(exc).__name__}: {exc}",
                                  failed=True)
            raise SaveDiverged(f"{diverged.words()} In detail: action {n} ({action}): the rules engine failed on "
                               f"it ({diverged.why})", diverged, diverged.words()) from exc
        states.append(action, state)
    return states, tuple(edited)


def _expected_roll(dice: DiceRoller, engine, state: Any) -> Optional[Roll]:
    try:
        return dice.roll(engine, state)
    except ValueError:  # no roll is pending: applying the recorded one says so
        return None


def load_game(path: Path | str, engine, allow_mismatch: bool = False, strict: bool = False,
              dice: Any = None, follow_edition: bool = True) -> LoadedGame:
    """Read, check and replay a save. Raises SaveError with the file and a message a player can act on.

    With ``follow_edition`` a save recorded under another edition of the same game is replayed with that
    edition's engine (``engine.for_edition``; ``LoadedGame.engine`` is the one used); without, ``engine``'s
    rules are the ones it is checked against.

    ``allow_mismatch`` loads a save made under other rules. ``strict`` refuses a save with an edited roll
    instead of loading it with ``edited_rolls`` set. ``dice`` describes the dice to check the rolls
    against when the save does not say (saves before version 2); by default the seeded dice.
    """
    path = Path(path)
    document = read_document(path)
    try:
        return _load_document(document, engine, allow_mismatch, strict, dice, follow_edition)
    except SaveError as exc:
        raise _named(path, exc) from None
    except BadData as exc:
        raise _about(path, str(exc)) from None


_KNOWN = {"format", "version", "game", "rules_digest", "edition", "setup", "seed", "dice", "actions"}
_REQUIRED = _KNOWN - {"dice"}


def _replays_the_same(engine, digest: str, setup_data: Any) -> bool:
    """Whether the rules say a save recorded under the fingerprint ``digest`` with this setup replays the same
    (``rules.replays_saves_of``: a fingerprint they had before a change that left play the same)."""
    replays = getattr(engine.rules, "replays_saves_of", None)
    if replays is None:
        return False
    try:
        setup = engine.setup_from_data(setup_data)
    except (SaveError, BadData, IllegalSetup):
        return False  # the mismatch is the clearer message
    return replays(digest, getattr(setup, "options", ()))


def _load_document(document: dict, engine, allow_mismatch: bool, strict: bool, fallback_dice: Any,
                   follow_edition: bool = True) -> LoadedGame:
    missing = sorted(_REQUIRED - set(document))
    if missing:
        raise SaveError(f"the save is missing {', '.join(missing)}")
    unknown = sorted(set(document) - _KNOWN)
    if unknown:
        raise SaveError(f"the save has unknown {noun_for(len(unknown), 'field')}: {', '.join(map(shown, unknown))}")
    game = expect_text(document["game"], "game")
    if game != engine.game_id:
        raise SaveError(f"this is a save of another game ({shown(game)}), not of {engine.game_name}")
    digest = expect_text(document["rules_digest"], "rules_digest")
    edition = expect_text(document["edition"], "edition")
    if follow_edition and edition != engine.rules.edition.id and hasattr(engine, "for_edition"):
        try:
            engine = engine.for_edition(edition)
        except UnknownEdition as exc:
            raise SaveError(f"the save was played under rules this game does not have: {exc}") from None
    rules = engine.rules
    accepted = (rules.digest, *getattr(rules, "earlier_digests", ()))  # older saves of the same rules
    if digest not in accepted and not allow_mismatch and not _replays_the_same(engine, digest, document["setup"]):
        raise SaveError(f"the save was made with rules {digest} (edition {edition}) but these rules are "
                        f"{rules.digest} (edition {rules.edition.id}); load it anyway only if you accept "
                        f"that the game may replay differently")
    seed = expect(document["seed"], int, "seed", "a whole number")
    dice_data = document.get("dice", fallback_dice if fallback_dice is not None else "seeded")
    dice = dice_from_data(dice_data, seed)
    setup = engine.setup_from_data(document["setup"])
    entries = expect(document["actions"], list, "actions", "a list")
    if len(entries) > MAX_ACTIONS:
        raise SaveError(f"the save holds {len(entries):,} actions; at most {MAX_ACTIONS:,} are allowed")
    actions = []
    for n, entry in enumerate(entries, 1):
        try:
            actions.append(engine.action_from_data(entry))
        except BadData as exc:
            raise SaveError(f"action {n}: {exc}") from None
    states, edited = _replay(engine, setup, actions, dice)
    if edited and strict:
        raise SaveError(f"{edited[0]}: the save was edited (strict loading refuses it)")
    return LoadedGame(setup=setup, seed=seed, actions=tuple(actions), states=states, rules_digest=digest,
                      edition=edition, game=game, dice=dice_data, edited_rolls=edited, engine=engine)


# ------------------------------------------------------------------ the saves in a folder
@dataclass(frozen=True)
class SaveListing:
    """One file of the Load screen: a save that loads (``game``), or a broken one and why (``error``)."""

    path: Path
    modified: float
    game: Optional[LoadedGame] = None
    error: Optional[str] = None
    detail: str = ""  # the technical words behind ``error`` ('' if none)
    divergence: Optional[Divergence] = None  # where the replay of a save that no longer replays stopped

    @property
    def ok(self) -> bool:
        return self.error is None


_LISTING_CACHE: dict[tuple, Optional[SaveListing]] = {}


def list_saves(folder: Path | str, engine) -> list[SaveListing]:
    """Every save in ``folder``, newest first: the ones that load (replayed to be sure) and one entry per
    broken file with the reason. settings.json, other programs' JSON and anything that is not a regular
    file are never listed. Results are remembered per file time and size."""
    listings = []
    for info, path in _candidates(Path(folder)):
        key = (str(path), info.st_mtime_ns, info.st_size, engine.game_id, engine.rules.digest)
        if key not in _LISTING_CACHE:
            _LISTING_CACHE[key] = _listing(path, info.st_mtime, engine)
        listing = _LISTING_CACHE[key]
        if listing is not None:
            listings.append(listing)
    return sorted(listings, key=lambda entry: -entry.modified)


def _listing(path: Path, modified: float, engine) -> Optional[SaveListing]:
    try:
        return SaveListing(path, modified, game=load_game(path, engine))
    except SaveError as exc:
        if not _looks_like_a_save(path):
            return None
        return SaveListing(path, modified, error=exc.reason, detail=exc.detail,
                           divergence=getattr(exc, "divergence", None))


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
