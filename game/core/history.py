"""The states a game went through, held in memory that grows with the log, not with the log times the state.

``StateHistory`` is a sequence: ``history[i]`` is the state after ``i`` actions (``history[0]`` the new game,
``history[-1]`` the newest). It keeps every ``every``-th state (the checkpoints), the newest ``recent`` ones
and any state set by hand, plus each state's turn and events (what the story log and undo need); any other
state is replayed on request from the nearest kept one before it through the same engine, which is
deterministic (the log is the truth), so it comes back equal to the one that was dropped.

Why: a long game holds thousands of states, each with its own copies of the tuples that action changed
(a 4,000-action game ends with hundreds of items), so keeping them all made a loaded game's memory, and
the garbage collector's work over it, grow faster than its log.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Iterator

#: A checkpoint every this many actions: replaying at most this many to answer for a dropped state.
CHECKPOINT_EVERY = 32
#: The newest states are always at hand (the client compares the last two every frame; undo pops one).
RECENT = 4


class StateHistory(Sequence):
    """State 0 (the new game) and the state after each action, appended as the game goes on."""

    def __init__(self, engine: Any, first: Any, every: int = CHECKPOINT_EVERY, recent: int = RECENT):
        if every < 1 or recent < 2:
            raise ValueError("a history keeps a checkpoint every action or more, and at least two recent states")
        self._engine = engine
        self._every = every
        self._recent = recent
        self._actions: list[Any] = []  # action i leads from state i to state i + 1
        self._kept: dict[int, Any] = {0: first}
        self._pinned: set[int] = set()  # states set by hand: kept, since no replay would give them
        self._notes: list[tuple[int, tuple]] = [(first.turn, tuple(first.events))]  # (turn, events) per state

    @classmethod
    def of_states(cls, engine: Any, states: Sequence[Any]) -> "StateHistory":
        """A history of states made by hand (a tool's or test's scene set up without a log): all kept, since
        no action leads from one to the next; the game's own actions append to it as usual."""
        if not states:
            raise ValueError("a history starts with a state")
        history = cls(engine, states[0])
        for state in states[1:]:
            history.append(None, state)
        history._kept.update(enumerate(states))
        history._pinned.update(range(len(states)))
        return history

    # ------------------------------------------------------------------ growing and shrinking
    def append(self, action: Any, state: Any) -> None:
        """Record that ``action`` led from the newest state to ``state``."""
        self._actions.append(action)
        index = len(self._notes)
        self._kept[index] = state
        self._notes.append((state.turn, tuple(state.events)))
        self._forget(index - self._recent)

    def pop(self) -> Any:
        """Drop the newest state (and the action that led to it); returns the dropped state."""
        if len(self._notes) <= 1:
            raise IndexError("the first state of a game cannot be dropped")
        index = len(self._notes) - 1
        state = self[index]
        del self._kept[index]
        self._pinned.discard(index)
        self._actions.pop()
        self._notes.pop()
        self._kept.setdefault(index - 1, self[index - 1])  # the newest is always at hand
        return state

    def __setitem__(self, index: int, state: Any) -> None:
        """Replace the newest state by hand (tests and tools set up a moment this way); it is kept for good."""
        last = len(self._notes) - 1
        if index not in (-1, last):
            raise IndexError("only the newest state of a history can be replaced")
        self._kept[last] = state
        self._pinned.add(last)
        self._notes[last] = (state.turn, tuple(state.events))

    def copy(self) -> "StateHistory":
        """An independent history with the same states (a loaded save handed to a session that plays on)."""
        twin = StateHistory(self._engine, self._kept[0], self._every, self._recent)
        twin._actions = list(self._actions)
        twin._kept = dict(self._kept)
        twin._pinned = set(self._pinned)
        twin._notes = list(self._notes)
        return twin

    def _forget(self, index: int) -> None:
        if index > 0 and index % self._every and index not in self._pinned:
            self._kept.pop(index, None)

    # ------------------------------------------------------------------ reading
    def __len__(self) -> int:
        return len(self._notes)

    def turn(self, index: int) -> int:
        """The turn of state ``index`` (without replaying it)."""
        return self._notes[index][0]

    def events(self, index: int) -> tuple:
        """The events of state ``index``: what the action that led to it did (without replaying it)."""
        return self._notes[index][1]

    def __getitem__(self, index):
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        count = len(self._notes)
        if index < 0:
            index += count
        if not 0 <= index < count:
            raise IndexError("no such state in this game's history")
        state = self._kept.get(index)
        if state is not None:
            return state
        start = max(i for i in range(index - index % self._every, index + 1) if i in self._kept)
        state = self._kept[start]
        for action in self._actions[start:index]:
            state = self._engine.apply(state, action)
        return state

    def __iter__(self) -> Iterator[Any]:
        """Every state in order, replaying forward between the kept ones (one pass, not one replay per state)."""
        state = None
        for index in range(len(self._notes)):
            kept = self._kept.get(index)
            state = kept if kept is not None else self._engine.apply(state, self._actions[index - 1])
            yield state

    def __repr__(self) -> str:
        return f"StateHistory({len(self)} states, {len(self._kept)} kept)"
