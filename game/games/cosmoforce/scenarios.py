"""Fights set up by hand, for tests, screenshots and the new-game screen's quick start.

``duel`` and ``fight`` build a setup from ready-made ships (``rules/cosmoforce/ships.yaml``) or any
rosters; ``play`` applies actions one after another, a whole number standing for a forced roll of that
many effective dice, so a test can drive a fight through real actions with the dice it needs.
"""
from __future__ import annotations

from typing import Optional, Sequence, Union

from game.games.cosmoforce.rules.actions import Action, Roll
from game.games.cosmoforce.rules.engine import Engine
from game.games.cosmoforce.rules.state import GameState, PlayerSetup, Setup, ShipDesign

COLOURS = ("#f2a7c3", "#8fd3f4", "#ffd166", "#a0e7a0", "#c3a6ff", "#ff9f80")
Fleet = Union[str, ShipDesign, Sequence[Union[str, ShipDesign]]]


def design(engine: Engine, ship: Union[str, ShipDesign], name: Optional[str] = None) -> ShipDesign:
    """A ready-made ship by id (``"dart"``), or a roster as given (renamed when ``name`` is given)."""
    if isinstance(ship, ShipDesign):
        return ShipDesign(name or ship.name, ship.ship_class, ship.systems)
    return engine.rules.ships.get(ship).design(name)


def roster(ship_class: str, *systems: str, name: str = "Test ship") -> ShipDesign:
    return ShipDesign(name, ship_class, tuple(systems))


def fight_setup(engine: Engine, *fleets: Fleet, teams: Optional[Sequence[int]] = None,
                round_limit: Optional[int] = 20, humans: Sequence[bool] = ()) -> Setup:
    """One player per fleet (a ship or a list of ships); ships are renamed so that every name differs."""
    players = []
    taken: set[str] = set()
    for n, fleet in enumerate(fleets):
        ships = [fleet] if isinstance(fleet, (str, ShipDesign)) else list(fleet)
        designs = []
        for ship in ships:
            d = design(engine, ship)
            name, k = d.name, 2
            while name.casefold() in taken:
                name, k = f"{d.name} {k}", k + 1
            taken.add(name.casefold())
            designs.append(design(engine, d, name))
        players.append(PlayerSetup(f"Captain {n + 1}", tuple(designs), human=humans[n] if n < len(humans) else True,
                                   colour=COLOURS[n % len(COLOURS)], team=teams[n] if teams else 0))
    return Setup(tuple(players), teams=teams is not None, round_limit=round_limit)


def fight(engine: Engine, *fleets: Fleet, **kwargs) -> GameState:
    return engine.new_game(fight_setup(engine, *fleets, **kwargs))


def play(engine: Engine, state: GameState, *moves: Union[int, Action]) -> GameState:
    """Apply each move in turn: an action, or a whole number for a roll of that many effective dice."""
    for move in moves:
        state = engine.apply(state, Roll(move) if isinstance(move, int) else move)
    return state
