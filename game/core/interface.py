"""The questions every game's rules engine answers (after OpenSpiel), and the errors it raises.

A game package (``game.games.<name>.rules``) provides an engine with this shape; the shared core (sessions,
saves, the dice, the harnesses) and the client talk to a game only through it:

- ``new_game(setup) -> state`` (or ``IllegalSetup`` with the reason);
- ``current_player(state) -> int``: a program's index, ``CHANCE`` while a roll is pending, ``TERMINAL`` at the end;
- ``legal_actions(state)``: every action the acting player may take now;
- ``chance_outcomes(state)``: the pending roll's exact distribution, a list of ``(roll action, Fraction)``,
  the one the app samples and the odds card shows;
- ``apply(state, action) -> state`` (or ``IllegalAction`` with a reason a player understands);
- ``outcome(state)``: how a finished game ended, else ``None``;
- ``setup_to_data(setup)`` / ``setup_from_data(data)`` and ``action_from_data(data)``: the plain forms a save
  holds, every value checked (a problem is a ``game.core.plaindata.BadData`` saying where and what);
- ``game_id`` (the name a save records, e.g. ``"whatgoesup"``) and ``rules`` with ``digest`` and
  ``edition.id`` (the tables a save was played under); optionally ``for_edition(edition_id)``, the engine
  of another shipped edition (``UnknownEdition`` when there is none), which loading a save follows.

Chance actions are ``game.core.actions.Roll`` values, so the shared dice, saves and undo know a roll.

The shared session also reads three fields of a state: ``turn``, ``phase`` (a change of either rotates the
autosaves) and ``events`` (the story, each event with ``text``, ``program`` and ``kind``).

States and actions are immutable values; an engine never rolls dice and never imports pygame or ``random``.
"""
from __future__ import annotations

from fractions import Fraction
from typing import Any, Iterable, Optional, Protocol, runtime_checkable

#: ``current_player`` while a roll is pending: the app samples ``chance_outcomes`` and applies the result.
CHANCE = -1
#: ``current_player`` once the game is over.
TERMINAL = -2


class IllegalAction(ValueError):
    """The action is not allowed now; the message says why, in a player's words."""


class IllegalSetup(ValueError):
    """The game cannot start with this setup; the message says why."""


class UnknownEdition(LookupError):
    """A save (or a command) names an edition of the rules this game does not ship; the message says which
    ones it does. An engine that can play other editions has ``for_edition(edition_id)`` raising it."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else "unknown edition"


@runtime_checkable
class GameRules(Protocol):
    """The engine interface shared by every game the client hosts."""

    game_id: str
    rules: Any

    def setup_to_data(self, setup: Any) -> dict: ...

    def setup_from_data(self, data: Any) -> Any: ...

    def action_from_data(self, data: Any) -> Any: ...

    def new_game(self, setup: Any) -> Any: ...

    def current_player(self, state: Any) -> int: ...

    def legal_actions(self, state: Any) -> Iterable[Any]: ...

    def chance_outcomes(self, state: Any) -> list[tuple[Any, Fraction]]: ...

    def apply(self, state: Any, action: Any) -> Any: ...

    def outcome(self, state: Any) -> Optional[Any]: ...
