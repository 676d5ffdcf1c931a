"""What the engine and its rule parts share, so that the parts never import ``engine.py``.

The flight rules, Stop The Rock and the victory conditions are bound to the engine that creates them
(``FlightRules(engine)``); ``EngineHooks`` is all they may ask of it, so the arrows point one way:
the engine imports its parts, and no part imports the engine. ``people_by_id`` finds a people of the
tables, for the engine's setup checks and names and for the flight rules' suggested designs.
"""
from __future__ import annotations

from typing import Protocol

from game.core.interface import IllegalSetup
from game.games.whatgoesup.rules.design import DesignReport
from game.games.whatgoesup.rules.reliability import Rating
from game.games.whatgoesup.rules.state import GameState, Item, Program, UpgoerDesign
from game.games.whatgoesup.rules.tables import People, Rules


def people_by_id(rules: Rules, people_id: str) -> People:
    """The people with this id; ``IllegalSetup`` names the known ones when there is none."""
    for people in rules.peoples.peoples:
        if people.id == people_id:
            return people
    known = ", ".join(p.id for p in rules.peoples.peoples)
    raise IllegalSetup(f"unknown people '{people_id}' (known: {known})")


class EngineHooks(Protocol):
    """The engine as its rule parts see it: the tables, and the few engine rules they call."""

    rules: Rules

    def item_rating(self, state: GameState, item: Item) -> Rating:
        """The rating a built part rolls on now."""
        ...

    def add_dots(self, state: GameState, program: int, dots: int, reason: str) -> GameState:
        """Record a budget change, applied at the end of the turn."""
        ...

    def dotted(self, program: Program, dots: int, reason: str) -> Program:
        """``program`` with a budget change recorded (``add_dots`` for a copy of the state that changes more)."""
        ...

    def end_turn(self, state: GameState) -> GameState:
        """Turn accounting after the flights, then the next turn or the end of the game."""
        ...

    def finish(self, state: GameState, winners: tuple[int, ...], kind: str, reason: str) -> GameState:
        """End the game now."""
        ...

    def check_design(self, state: GameState, program: int, design: UpgoerDesign) -> DesignReport:
        """Whether a design can fly, and why not."""
        ...
