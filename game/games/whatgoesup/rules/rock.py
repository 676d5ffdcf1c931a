"""Stop The Rock: the rock's clock, its drift die, nudges and how the scenario ends.

The numbers come from ``rules/scenarios.yaml`` (the scenario and its difficulties); the places come
from the board (the rock body, the intercept step and the transit steps that follow it). No step is
named here. ``RockRules`` is bound to an Engine like the flight rules.
"""
from __future__ import annotations

from fractions import Fraction
from typing import Optional

from game.core.interface import IllegalAction
from game.games.whatgoesup.rules.actions import Roll
from game.games.whatgoesup.rules.scenarios import Scenario, track_chain
from game.games.whatgoesup.rules.shared import EngineHooks
from game.games.whatgoesup.rules.state import HOME, Event, GameState, RockState, Setup, Upgoer, update
from game.core.words import counted


class RockRules:
    def __init__(self, engine: EngineHooks):
        self.engine = engine
        self.rules = engine.rules
        self.board = engine.rules.board
        self._drift_faces: dict[int, tuple[tuple[Roll, Fraction], ...]] = {}  # die size -> its faces and odds

    # ------------------------------------------------------------------ setup
    def scenario(self, state_or_setup) -> Optional[Scenario]:
        setup = state_or_setup.setup if isinstance(state_or_setup, GameState) else state_or_setup
        scenario_id = getattr(setup, "scenario", None)
        return self.rules.scenarios.scenario(scenario_id) if scenario_id else None

    def initial(self, setup: Setup) -> Optional[RockState]:
        scenario = self.scenario(setup)
        if scenario is None:
            return None
        level = scenario.difficulty(setup.difficulty)
        drift = "rolling" if level.drift else "off"
        if drift == "rolling" and level.turns_to_impact <= scenario.drift_stops_at:
            drift = "close"
        return RockState(turns_left=level.turns_to_impact, nudges_needed=level.nudges_needed, drift=drift,
                         drift_pending=drift == "rolling")

    # ------------------------------------------------------------------ the drift die
    def drift_outcomes(self, state: GameState) -> list[tuple[Roll, Fraction]]:
        die = self.scenario(state).drift_die
        if die not in self._drift_faces:  # the same faces every turn: made once per die size
            self._drift_faces[die] = tuple((Roll(v), Fraction(1, die)) for v in range(1, die + 1))
        return list(self._drift_faces[die])

    def apply_drift(self, state: GameState, value: int) -> GameState:
        """The start-of-turn D20: its lowest face delays the rock a turn, its highest brings it a turn closer.
        The state's events are then the die's story alone (one copy of the state, whatever it told before)."""
        scenario = self.scenario(state)
        if not 1 <= value <= scenario.drift_die:
            raise IllegalAction(f"{value} cannot come up on the rock's D{scenario.drift_die}")
        rock = state.rock
        turns = rock.turns_left
        if value == 1:
            turns += 1
            text = f"The rock's D{scenario.drift_die}: {value}. It drifts: impact is one turn later ({turns} turns left)."
        elif value == scenario.drift_die:
            turns -= 1
            text = f"The rock's D{scenario.drift_die}: {value}. It drifts: impact is one turn sooner ({turns} turns left)."
        else:
            text = f"The rock's D{scenario.drift_die}: {value}. It stays on course ({turns} turns left)."
        drift = "close" if turns <= scenario.drift_stops_at else rock.drift
        rock = update(rock, turns_left=turns, drift_pending=False, last_drift=value, drift=drift)
        return update(state, rock=rock, events=(Event(text, kind="rock"),))

    # ------------------------------------------------------------------ places
    def on_rock(self, upgoer: Upgoer, scenario: Optional[Scenario]) -> bool:
        """Whether a craft has landed on the rock (a surface step of the rock body)."""
        if scenario is None or not upgoer.in_space:
            return False
        step = self.board.step(upgoer.location)
        return step.kind == "surface" and step.body == scenario.rock_body

    def intercept_landing(self, state: GameState, to: str) -> str:
        """Where a burn to ``to`` ends up: the rock intercept burn skips the track the rock has already closed."""
        scenario = self.scenario(state)
        if scenario is None or state.rock is None or to != scenario.intercept_step:
            return to
        chain = track_chain(self.board, to)
        steps = min(len(chain), scenario.transit_steps(state.rock.turns_left))
        return chain[len(chain) - steps]

    def waylight_on_rock(self, state: GameState) -> bool:
        scenario = self.scenario(state)
        for upgoer in state.upgoers:
            if not self.on_rock(upgoer, scenario):
                continue
            for item in state.items_at(upgoer.id):
                if item.active and not item.disabled and state.thing(item.thing_id).kind == "waylight":
                    return True
        return False

    # ------------------------------------------------------------------ nudges
    def nudge_value(self, state: GameState) -> int:
        """A nudge given now counts for every turn still to come: it is worth the turns left (this one included)."""
        return max(0, state.rock.turns_left)

    def add_nudge(self, state: GameState, program: int, upgoer: Upgoer) -> GameState:
        rock = state.rock
        value = self.nudge_value(state)
        total = rock.nudge_total + value
        rock = update(rock, nudge_total=total, nudges=rock.nudges + 1)
        events = [Event(f"{upgoer.name} nudges the rock: +{value} ({total} of {rock.nudges_needed}).", program, "rock")]
        if not rock.saved and total >= rock.nudges_needed:
            rock = update(rock, saved_turn=state.turn, saved_turns_left=rock.turns_left)
            events.append(Event(f"The rock will miss the world! Saved with {counted(rock.turns_left, 'turn')} to spare. "
                                "Now bring everyone home.", program, "end"))
        return update(state, rock=rock, events=state.events + tuple(events))

    # ------------------------------------------------------------------ the end of a turn
    def crew_in_space(self, state: GameState) -> int:
        return sum(1 for d in state.derps if not d.dead and d.location is not HOME
                   and any(u.id == d.location and (u.in_space or u.status == "written_off") for u in state.upgoers))

    def score(self, state: GameState) -> int:
        """The shared score of a saved world: early saves score more, lost derps (and any left in space) cost."""
        return self._score(state, state.rock)

    def _score(self, state: GameState, rock: RockState) -> int:
        """``score`` with the rock as ``rock`` (the state's derps and craft as they are)."""
        scenario = self.scenario(state)
        lost = sum(1 for d in state.derps if d.dead) + self.crew_in_space(state)
        return max(0, scenario.score.base + scenario.score.per_turn_left * (rock.saved_turns_left or 0)
                   + scenario.score.per_derp_lost * lost)

    def end_of_turn(self, state: GameState) -> tuple[RockState, tuple[Event, ...], Optional[tuple[str, str]]]:
        """The rock a turn closer: the rock after it, what that tells, and, when the game ends, (kind, reason).
        When the game goes on, the rock is the next turn's, made in the same copy: its drift die pending
        exactly while it drifts and the world is not saved. The state is not copied: the engine puts the rock
        into its one copy of the turn's end."""
        scenario = self.scenario(state)
        rock = state.rock
        drift = rock.drift
        turns_left = rock.turns_left - 1
        events: tuple[Event, ...] = ()
        if drift == "rolling" and self.waylight_on_rock(state):
            drift = "pinned"
            events = (Event("A Waylight shines on the rock: its track is known now, no more drift.", kind="rock"),)
        if drift == "rolling" and turns_left <= scenario.drift_stops_at:
            drift = "close"
        if rock.saved:
            if self.crew_in_space(state) == 0 or turns_left <= 0:
                ended = update(rock, turns_left=turns_left, drift=drift)
                lost = sum(1 for d in state.derps if d.dead)
                out = self.crew_in_space(state)
                losses = "no derp lost" if not lost else f"{lost} derp{'s' if lost != 1 else ''} lost"
                left = f"{out} derp{'s' if out != 1 else ''} left out in space as it flew by" if out else ""
                reason = (f"The world is saved: the rock was pushed aside with {rock.saved_turns_left} "
                          f"turn{'s' if rock.saved_turns_left != 1 else ''} to spare; {losses}"
                          + (f", {left}" if left else "") + f". Score {self._score(state, ended)}.")
                return ended, events, ("saved", reason)
            return update(rock, turns_left=turns_left, drift=drift, drift_pending=False), events, None
        if turns_left <= 0:
            reason = (f"The rock hits the world: {rock.nudge_total} of {rock.nudges_needed} nudge value was not "
                      "enough.")
            return update(rock, turns_left=turns_left, drift=drift), events, ("impact", reason)
        return update(rock, turns_left=turns_left, drift=drift, drift_pending=drift == "rolling"), events, None
