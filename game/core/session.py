"""A game being played: the engine, the action log, the app's dice, saves and autosaves.

The client talks to a ``GameSession``; it never applies actions or rolls dice itself. The log is
the truth: the state is always the replay of ``actions`` from the setup, undo drops the last action
(never a roll), and a save is the log.
"""
from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Optional

from game.core import saves
from game.core.dice_rng import DiceRoller
from game.games.whatgoesup.rules.actions import Action, Roll
from game.games.whatgoesup.rules.engine import CHANCE, TERMINAL, Engine, IllegalAction
from game.games.whatgoesup.rules.state import Event, GameState, Setup


@dataclasses.dataclass(frozen=True)
class LogEntry:
    """One line of the game's story: the turn it happened in and what happened."""

    turn: int
    event: Event
    action_index: int


class GameSession:
    def __init__(self, engine: Engine, setup: Setup, seed: int, actions: tuple[Action, ...] = (),
                 states: Optional[tuple[GameState, ...]] = None, saves_dir: Optional[Path] = None,
                 dice: Optional[DiceRoller] = None):
        """``dice``: a fresh roller to use instead of ``DiceRoller(seed)`` (e.g. ``ScriptedDice``); the
        session moves it past the rolls already in ``actions``."""
        self.engine = engine
        self.setup = setup
        self.seed = seed
        self.saves_dir = Path(saves_dir) if saves_dir is not None else saves.saves_folder()
        self.actions: list[Action] = list(actions)
        self.states: list[GameState] = list(states) if states is not None else list(saves.replay(engine, setup, actions))
        self.log: list[LogEntry] = []
        for index, state in enumerate(self.states):
            self._record(state, index)
        self.dice = dice if dice is not None else DiceRoller(seed)
        self.dice.skip(sum(1 for a in self.actions if isinstance(a, Roll)))
        self.autosave_error: Optional[str] = None

    # ------------------------------------------------------------------ starting
    @classmethod
    def new(cls, engine: Engine, setup: Setup, seed: int, saves_dir: Optional[Path] = None,
            dice: Optional[DiceRoller] = None) -> "GameSession":
        return cls(engine, setup, seed, saves_dir=saves_dir, dice=dice)

    @classmethod
    def load(cls, engine: Engine, path: Path, saves_dir: Optional[Path] = None,
             dice: Optional[DiceRoller] = None) -> "GameSession":
        """Load a save (raises saves.SaveError with the reason)."""
        loaded = saves.load_game(path, engine)
        return cls(engine, loaded.setup, loaded.seed, loaded.actions, loaded.states, saves_dir=saves_dir, dice=dice)

    # ------------------------------------------------------------------ questions
    @property
    def state(self) -> GameState:
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

    def legal_actions(self) -> list[Action]:
        return self.engine.legal_actions(self.state)

    def refusal(self, action: Action) -> Optional[str]:
        return self.engine.refusal(self.state, action)

    # ------------------------------------------------------------------ acting
    def apply(self, action: Action) -> GameState:
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

    def _push(self, action: Action) -> GameState:
        before = self.state
        after = self.engine.apply(before, action)
        self.actions.append(action)
        self.states.append(after)
        self._record(after, len(self.actions))
        if self._phase_changed(before, after):
            self.autosave()
        return after

    def _record(self, state: GameState, index: int) -> None:
        for event in state.events:
            self.log.append(LogEntry(state.turn, event, index))

    @staticmethod
    def _phase_changed(before: GameState, after: GameState) -> bool:
        stage = lambda s: (s.turn, s.phase, getattr(s.flight, "stage", None))  # noqa: E731
        return stage(before) != stage(after)

    def can_undo(self) -> bool:
        return saves.can_undo(self.actions)

    def undo(self) -> Action:
        """Take back the last action (never a roll); raises saves.UndoError with the reason."""
        self.actions = saves.undo(self.actions)
        undone_index = len(self.states) - 1
        self.states.pop()
        self.log = [entry for entry in self.log if entry.action_index < undone_index]
        return self.actions[-1] if self.actions else None  # type: ignore[return-value]

    # ------------------------------------------------------------------ saving
    def save(self, path: Path) -> Path:
        return saves.save_game(path, self.engine.rules, self.setup, self.seed, self.actions)

    def autosave(self) -> Optional[Path]:
        """Rotate the autosaves; a failure is remembered for the client to show, never raised."""
        try:
            path = saves.autosave(self.saves_dir, self.engine.rules, self.setup, self.seed, self.actions)
            self.autosave_error = None
            return path
        except saves.SaveError as exc:
            self.autosave_error = str(exc)
            return None
