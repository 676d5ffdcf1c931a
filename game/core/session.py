"""A game being played: the engine, the action log, the app's dice, saves and autosaves.

The client talks to a ``GameSession``; it never applies actions or rolls dice itself. The log is
the truth: the state is always the replay of ``actions`` from the setup, undo drops the last action
(never a roll), and a save is the log. Any game's engine will do (``game.core.interface.GameRules``).

Autosave keeps the loss from a crash to at most the action being made: after every action the log
is written to autosave-1.json atomically. The autosaves rotate (autosave-1 becomes autosave-2, ...)
when a session first autosaves and at every change of turn, phase or flight stage, so the older ones
are the game as it stood at earlier phases.
"""
from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any, Optional, Sequence

from game.core import atomic, saves
from game.core.actions import Action, Roll
from game.core.dice_rng import DiceRoller, dice_from_data
from game.core.history import StateHistory
from game.core.interface import CHANCE, TERMINAL, IllegalAction


@dataclasses.dataclass(frozen=True)
class Notice:
    """A line of the story that no rule wrote (e.g. that the save was edited); shaped like an engine's events."""

    text: str
    program: Optional[int] = None
    kind: str = "edited"


@dataclasses.dataclass(frozen=True)
class LogEntry:
    """One line of the game's story: the turn it happened in and what happened (an engine event or a Notice)."""

    turn: int
    event: Any
    action_index: int


_CLEANED: set[Path] = set()


def clean_saves_folder_once(folder: Path) -> None:
    """Remove temporary files that interrupted saves left in ``folder`` (once per folder and run)."""
    folder = Path(folder)
    if folder not in _CLEANED:
        _CLEANED.add(folder)
        atomic.clean_stale_temporaries(folder)


class GameSession:
    def __init__(self, engine, setup: Any, seed: int, actions: tuple[Action, ...] = (),
                 states: Optional[Sequence[Any]] = None, saves_dir: Optional[Path] = None,
                 dice: Optional[DiceRoller] = None, edited_rolls: tuple[saves.EditedRoll, ...] = ()):
        """``dice``: a fresh roller to use instead of ``DiceRoller(seed)`` (e.g. ``ScriptedDice``); the
        session moves it past the rolls already in ``actions``. ``edited_rolls``: a loaded save's rolls
        that its dice would not have rolled (``edited`` is then true and the story says so). ``states``: the
        replay of ``actions`` (a ``StateHistory``, copied) or states set up by hand (all kept); by default
        ``actions`` are replayed."""
        self.engine = engine
        self.setup = setup
        self.seed = seed
        self.saves_dir = Path(saves_dir) if saves_dir is not None else saves.saves_folder()
        self.actions: list[Action] = list(actions)
        if states is None:
            self.states = saves.replay(engine, setup, actions)
        elif isinstance(states, StateHistory):
            self.states = states.copy()
        else:
            self.states = StateHistory.of_states(engine, states)
        self.edited_rolls = tuple(edited_rolls)
        self.log: list[LogEntry] = []
        for index in range(len(self.states)):
            self._record(self.states.turn(index), self.states.events(index), index)
        if self.edited_rolls:
            index = self.edited_rolls[0].action_number
            turn = self.states.turn(index) if index < len(self.states) else self.state.turn
            self.log.append(LogEntry(turn, Notice(saves.edited_notice(self.edited_rolls)), index))
            self.log.sort(key=lambda entry: entry.action_index)  # stable: the notice follows that action's events
        self.dice = dice if dice is not None else DiceRoller(seed)
        self.dice.skip(sum(1 for a in self.actions if isinstance(a, Roll)))
        self.autosave_error: Optional[str] = None
        self._autosaved = False
        self._texts = saves.ActionTexts()
        clean_saves_folder_once(self.saves_dir)

    # ------------------------------------------------------------------ starting
    @classmethod
    def new(cls, engine, setup: Any, seed: int, saves_dir: Optional[Path] = None,
            dice: Optional[DiceRoller] = None) -> "GameSession":
        return cls(engine, setup, seed, saves_dir=saves_dir, dice=dice)

    @classmethod
    def load(cls, engine, path: Path, saves_dir: Optional[Path] = None, dice: Optional[DiceRoller] = None,
             strict: bool = False) -> "GameSession":
        """Load a save (raises saves.SaveError with the reason). The save says where its dice came from;
        ``dice`` are used for a save too old to say. An edited save loads with ``edited`` set, or is
        refused with ``strict``. A save of another edition of the game plays on under that edition's engine
        (``saves.load_game``'s ``follow_edition``)."""
        loaded = saves.load_game(path, engine, strict=strict, dice=dice.describe() if dice is not None else None)
        if dice is None or dice.describe() != loaded.dice or dice.seed != loaded.seed:
            dice = dice_from_data(loaded.dice, loaded.seed)
        return cls(loaded.engine or engine, loaded.setup, loaded.seed, loaded.actions, loaded.states, saves_dir=saves_dir, dice=dice,
                   edited_rolls=loaded.edited_rolls)

    # ------------------------------------------------------------------ questions
    @property
    def state(self) -> Any:
        return self.states[-1]

    @property
    def current_player(self) -> int:
        return self.engine.current_player(self.state)

    @property
    def waiting_for_dice(self) -> bool:
        return self.current_player == CHANCE

    @property
    def over(self) -> bool:
        return self.current_player == TERMINAL

    @property
    def edited(self) -> bool:
        """True when this game was loaded from a save whose recorded rolls were changed by hand."""
        return bool(self.edited_rolls)

    def legal_actions(self) -> list[Action]:
        return self.engine.legal_actions(self.state)

    def refusal(self, action: Action) -> Optional[str]:
        return self.engine.refusal(self.state, action)

    # ------------------------------------------------------------------ acting
    def apply(self, action: Action) -> Any:
        """Apply a player's action; raises IllegalAction (nothing changes) when it is not allowed."""
        if isinstance(action, Roll):
            raise IllegalAction("the dice roll themselves: use roll()")
        return self._push(action)

    def roll(self) -> Roll:
        """Roll the pending roll with the app's dice and apply it; returns the Roll made."""
        if not self.waiting_for_dice:
            raise IllegalAction("no roll is pending")
        roll = self.dice.roll(self.engine, self.state)
        self._push(roll)
        return roll

    def _push(self, action: Action) -> Any:
        before = self.state
        after = self.engine.apply(before, action)
        self.actions.append(action)
        self.states.append(action, after)
        self._record(after.turn, after.events, len(self.actions))
        self.autosave(rotate=self._phase_changed(before, after))
        return after

    def _record(self, turn: int, events: Sequence[Any], index: int) -> None:
        for event in events:
            self.log.append(LogEntry(turn, event, index))

    @staticmethod
    def _phase_changed(before: Any, after: Any) -> bool:
        stage = lambda s: (s.turn, s.phase, getattr(getattr(s, "flight", None), "stage", None))  # noqa: E731
        return stage(before) != stage(after)

    def can_undo(self) -> bool:
        return saves.can_undo(self.actions)

    def undo(self) -> Action:
        """Take back the last action (never a roll); raises saves.UndoError with the reason."""
        self.actions = saves.undo(self.actions)
        undone_index = len(self.states) - 1
        self.states.pop()
        self.log = [entry for entry in self.log if entry.action_index < undone_index]
        self.autosave(rotate=False)
        return self.actions[-1] if self.actions else None  # type: ignore[return-value]

    # ------------------------------------------------------------------ saving
    def save(self, path: Path) -> Path:
        return saves.save_game(path, self.engine, self.setup, self.seed, self.actions, dice=self.dice.describe(),
                               cache=self._texts)

    def autosave(self, rotate: bool = True) -> Optional[Path]:
        """Write autosave-1.json (rotating the older ones first when ``rotate``, and always on a session's
        first autosave, so another game's autosave is kept); a failure is remembered for the client to
        show, never raised."""
        try:
            path = saves.autosave(self.saves_dir, self.engine, self.setup, self.seed, self.actions,
                                  dice=self.dice.describe(), rotate=rotate or not self._autosaved,
                                  cache=self._texts)
            self._autosaved = True
            self.autosave_error = None
            return path
        except saves.SaveError as exc:
            self.autosave_error = str(exc)
            return None
