"""Cosmoforce played by bots, with the rules' invariants checked after every action.

Rolls come from the app's ``DiceRoller`` (seeded); the bots have their own streams. ``simulate`` plays
many fights and sums them up: wins by ship class, ceasefires and draws, and any invariant broken.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Callable, Optional

from game.core.actions import BadActionData
from game.core.dice_rng import Chooser, DiceRoller
from game.core.words import counted
from game.games.cosmoforce.bots import make_captain
from game.games.cosmoforce.rules.actions import (Action, BurnEngines, DroneStrafe, FireWeapons, PrecisionFire, Roll,
                                                 action_from_data)
from game.games.cosmoforce.rules.engine import CHANCE, TERMINAL, Engine
from game.games.cosmoforce.rules.state import GameState, PendingRoll, PlayerSetup, Setup, ShipDesign

Invariant = Callable[[Engine, GameState, Action, GameState], Optional[str]]
COLOURS = ("#f2a7c3", "#8fd3f4", "#ffd166", "#a0e7a0", "#c3a6ff", "#ff9f80")


# ------------------------------------------------------------------ invariants
def nothing_negative(engine: Engine, before: GameState, action: Action, after: GameState) -> Optional[str]:
    """No negative crew, heat, speed or damage; never more crew than the habitats were built for."""
    for s in after.ships:
        if min(s.crew_ready, s.crew_hurt, s.heat, s.speed, s.edge) < 0:
            return (f"{s.name} has {s.crew_ready} ready and {s.crew_hurt} hurt crew, heat {s.heat}, "
                    f"speed {s.speed}.{s.edge}")
        if s.crew > s.crew_max:
            return f"{s.name} has {s.crew} crew but room for {s.crew_max}"
        if any(slot.damage < 0 for slot in s.systems):
            return f"{s.name} has a system with negative damage"
    return None


def destroyed_stays_destroyed(engine: Engine, before: GameState, action: Action, after: GameState) -> Optional[str]:
    """Destroyed systems are never repaired, spent racks never reload, eliminated ships never return."""
    for old, new in zip(before.ships, after.ships):
        if old.eliminated and not new.eliminated:
            return f"{new.name} came back into the fight"
        for n, (a, b) in enumerate(zip(old.systems, new.systems), 1):
            if a.destroyed and (not b.destroyed or b.damage != a.damage):
                return f"{new.name}'s destroyed slot {n} changed ({a} -> {b})"
            if a.spent and not b.spent:
                return f"{new.name}'s spent slot {n} reloaded"
    return None


def only_working_systems_act(engine: Engine, before: GameState, action: Action, after: GameState) -> Optional[str]:
    """A turn action uses only systems that are neither damaged, destroyed nor spent, on a ship still fighting."""
    ship = before.acting_ship
    if isinstance(action, Roll) or before.step is not None or ship is None:
        return None
    if ship.eliminated:
        return f"{ship.name} acted after being eliminated"
    if isinstance(action, FireWeapons) and action.count > ship.working_count((action.weapon,)):
        return f"{ship.name} fired {counted(action.count, action.weapon)} with {ship.working_count((action.weapon,))} working"
    if isinstance(action, PrecisionFire) and action.lasers > engine.working(ship, "weapon"):
        return f"{ship.name} fired {action.lasers} lasers it does not have working"
    if isinstance(action, BurnEngines) and action.faster + action.slower > engine.working(ship, "engine"):
        return f"{ship.name} burned more engines than work"
    if isinstance(action, BurnEngines) and action.afterburner and not engine.working(ship, "afterburner"):
        return f"{ship.name} rolled a broken afterburner"
    if isinstance(action, DroneStrafe) and not engine.working(ship, "hangar"):
        return f"{ship.name} launched drones without a working hangar"
    return None


def eliminations_have_a_reason(engine: Engine, before: GameState, action: Action, after: GameState) -> Optional[str]:
    """A ship is out exactly when it has no crew or every system is damaged."""
    for s in after.ships:
        should = s.crew == 0 or all(slot.damaged for slot in s.systems)
        if should != s.eliminated:
            return f"{s.name} is {'out' if s.eliminated else 'fighting'} with {s.crew} crew and " \
                   f"{sum(1 for x in s.systems if x.damaged)}/{len(s.systems)} systems damaged"
    return None


def rolls_are_exact(engine: Engine, before: GameState, action: Action, after: GameState) -> Optional[str]:
    """A pending roll's outcomes are whole numbers of dice whose chances add up to exactly 1."""
    if not isinstance(after.step, PendingRoll):
        return None
    outcomes = engine.chance_outcomes(after)
    total = sum((p for _, p in outcomes), Fraction(0))
    if total != 1:
        return f"the roll's chances add up to {total}"
    if any(not 0 <= r.value <= after.step.dice for r, _ in outcomes):
        return f"a roll of {after.step.dice} dice offers {[r.value for r, _ in outcomes]}"
    return None


_ROUND_TRIPPED: set[Action] = set()


def action_round_trips(engine: Engine, before: GameState, action: Action, after: GameState) -> Optional[str]:
    """Every action taken can be saved and read back as the same action (each distinct action checked once)."""
    if action in _ROUND_TRIPPED:
        return None
    try:
        again = action_from_data(action.to_data())
    except BadActionData as exc:
        return f"'{action}' cannot be read back from its save form: {exc}"
    if again != action:
        return f"'{action}' reads back as '{again}'"
    _ROUND_TRIPPED.add(action)
    return None


def someone_can_act(engine: Engine, before: GameState, action: Action, after: GameState) -> Optional[str]:
    """Unless the fight is over, the next player has at least one legal action."""
    if engine.current_player(after) != TERMINAL and not engine.legal_actions(after):
        return f"nobody can act after '{action}' (phase {after.phase})"
    return None


INVARIANTS: list[Invariant] = [nothing_negative, destroyed_stays_destroyed, only_working_systems_act,
                               eliminations_have_a_reason, rolls_are_exact, action_round_trips, someone_can_act]


def check_invariants(engine: Engine, before: GameState, action: Action, after: GameState) -> list[str]:
    return [p for p in (inv(engine, before, action, after) for inv in INVARIANTS) if p]


# ------------------------------------------------------------------ setups
def random_design(engine: Engine, chooser: Chooser, name: str) -> ShipDesign:
    """A ship of a random class with a random roster that the rules accept (at least one habitat)."""
    rules = engine.rules
    ship_class = chooser.choice(rules.classes.classes)
    allowed = [s.id for s in rules.systems.systems
               if rules.special_of(s.id) is None or rules.special_of(s.id).id == ship_class.id]
    habitat = rules.systems.with_role("habitat")[0].id
    slots = chooser.choice(range(1, rules.classes.max_systems + 1))
    systems = [habitat] + [chooser.choice(allowed) for _ in range(slots - 1)]
    return ShipDesign(name, ship_class.id, tuple(systems))


def default_setup(engine: Engine, seed: int, players: int = 2, ships: int = 1, designs: str = "ready",
                  teams: bool = False, round_limit: Optional[int] = 30) -> Setup:
    """Players with ``ships`` ships each: ready-made ones from ships.yaml, or random rosters."""
    chooser = Chooser(seed * 7919 + 11)
    seats = []
    for p in range(players):
        fleet = []
        for n in range(ships):
            name = f"P{p + 1} ship {n + 1}"
            if designs == "random":
                fleet.append(random_design(engine, chooser, name))
            else:
                ready = chooser.choice(engine.rules.ships.ships)
                fleet.append(ShipDesign(f"{ready.name} {p + 1}.{n + 1}", ready.ship_class, ready.systems))
        seats.append(PlayerSetup(f"Captain {p + 1}", tuple(fleet), human=False, colour=COLOURS[p % len(COLOURS)],
                                 team=p % 2))
    return Setup(tuple(seats), teams=teams, round_limit=round_limit)


# ------------------------------------------------------------------ playing
@dataclass(frozen=True)
class InvariantFailure:
    seed: int
    action_number: int
    action: str
    problems: tuple[str, ...]

    def __str__(self) -> str:
        return f"seed {self.seed}, action {self.action_number} ({self.action}): {'; '.join(self.problems)}"


@dataclass
class GameResult:
    seed: int
    setup: Setup
    actions: list[Action]
    final: GameState
    failure: Optional[InvariantFailure] = None


def play_game(engine: Engine, setup: Setup, seed: int, bot: str = "captain", check: bool = True,
              max_actions: int = 20_000) -> GameResult:
    """One fight to its end: the dice from ``seed``, one bot of kind ``bot`` per seat."""
    state = engine.new_game(setup)
    dice = DiceRoller(seed)
    bots = {p: make_captain(bot, seed * 1009 + p) for p in range(len(setup.players))}
    actions: list[Action] = []
    while engine.current_player(state) != TERMINAL:
        if len(actions) >= max_actions:
            failure = InvariantFailure(seed, len(actions), "-", (f"no end after {max_actions} actions",))
            return GameResult(seed, setup, actions, state, failure)
        player = engine.current_player(state)
        action = dice.roll(engine, state) if player == CHANCE else bots[player].choose(engine, state)
        after = engine.apply(state, action)
        actions.append(action)
        if check:
            problems = check_invariants(engine, state, action, after)
            if problems:
                return GameResult(seed, setup, actions, after,
                                  InvariantFailure(seed, len(actions), str(action), tuple(problems)))
        state = after
    return GameResult(seed, setup, actions, state)


@dataclass
class SimSummary:
    games: int = 0
    actions: int = 0
    rounds: int = 0
    seconds: float = 0.0
    invariant_failures: int = 0
    wins_by_class: dict[str, int] = field(default_factory=dict)
    ships_by_class: dict[str, int] = field(default_factory=dict)
    decided: int = 0
    ceasefires: int = 0
    draws: int = 0
    failures: list[str] = field(default_factory=list)

    def count(self, engine: Engine, result: GameResult) -> None:
        self.games += 1
        self.actions += len(result.actions)
        self.rounds += result.final.turn
        for ship in result.final.ships:
            self.ships_by_class[ship.ship_class] = self.ships_by_class.get(ship.ship_class, 0) + 1
        if result.failure is not None:
            self.invariant_failures += 1
            self.failures.append(str(result.failure))
            return
        outcome = engine.outcome(result.final)
        if outcome is None or outcome.side is None:
            if outcome is not None and outcome.reason.startswith("Ceasefire"):
                self.ceasefires += 1
            else:
                self.draws += 1
            return
        self.decided += 1
        for ship in result.final.ships:
            if ship.side == outcome.side:
                self.wins_by_class[ship.ship_class] = self.wins_by_class.get(ship.ship_class, 0) + 1

    def to_data(self) -> dict:
        return {
            "game": "cosmoforce", "games": self.games, "actions": self.actions, "rounds": self.rounds,
            "seconds": round(self.seconds, 3),
            "actions_per_second": round(self.actions / self.seconds) if self.seconds else 0,
            "invariant_failures": self.invariant_failures, "decided": self.decided, "ceasefires": self.ceasefires,
            "draws": self.draws, "wins_by_class": dict(sorted(self.wins_by_class.items())),
            "ships_by_class": dict(sorted(self.ships_by_class.items())),
        }


def simulate(engine: Engine, games: int, seed: int, players: int = 2, ships: int = 1, bot: str = "captain",
             designs: str = "ready", teams: bool = False, round_limit: Optional[int] = 30,
             progress: Optional[Callable[[GameResult], None]] = None) -> SimSummary:
    """Play ``games`` fights (seeds ``seed``, ``seed + 1``, ...) and sum them up."""
    summary = SimSummary()
    started = time.perf_counter()
    for n in range(games):
        game_seed = seed + n
        setup = default_setup(engine, game_seed, players, ships, designs, teams, round_limit)
        result = play_game(engine, setup, game_seed, bot)
        summary.count(engine, result)
        if progress is not None:
            progress(result)
    summary.seconds = time.perf_counter() - started
    return summary
