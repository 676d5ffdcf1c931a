"""Mission planning help for players: exact odds of a route, fuel worked backwards, and drags.

Everything here only reads the state. The client shows these numbers; the bot may use them.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import TYPE_CHECKING, Optional

from game.core.interface import CHANCE, TERMINAL
from game.games.whatgoesup.rules import formulas
from game.games.whatgoesup.rules.actions import Action
from game.games.whatgoesup.rules.flight_actions import Burn, Coast, Launch, Move
from game.games.whatgoesup.rules.odds import HelpPlan, odds_with_help
from game.games.whatgoesup.rules.reliability import Outcome, Rating, odds_table, outcome_counts, penalised

if TYPE_CHECKING:
    from game.games.whatgoesup.rules.engine import Engine
    from game.games.whatgoesup.rules.state import GameState


class RouteError(ValueError):
    """A route that does not follow the board; the message says where it breaks."""


@dataclass(frozen=True)
class Leg:
    """One move of a route: from a step to the next, by coasting or by a burn."""

    start: str
    end: str
    burn: bool
    kind: str  # the kind of the step entered


@dataclass(frozen=True)
class RouteReport:
    legs: tuple[Leg, ...]
    burns: int
    fuel_needed: int  # least fuel for every burn to work first time, worked backwards from the last
    fuel_aboard: int
    chance_to_complete: Fraction  # exact, with retries of failed burns while fuel and thrusters last
    turns: int  # duration steps on the way: each ends a turn's movement


def route_legs(engine: "Engine", state: "GameState", start: str, steps: list[str]) -> tuple[Leg, ...]:
    """Check that ``steps`` follow the board from ``start`` (each by the rail or a burn)."""
    board = engine.rules.board
    scenario = getattr(state.setup, "scenario", None)
    legs = []
    here = start
    for target in steps:
        step = board.step(here)
        burns = {b.to for b in board.burns_from(here, scenario)}
        if target in burns:
            legs.append(Leg(here, target, True, board.step(target).kind))
        elif target in (step.next, step.fallback):
            legs.append(Leg(here, target, False, board.step(target).kind))
        else:
            names = [board.step(t).name for t in sorted(burns | {step.next} - {None})]
            raise RouteError(f"from {step.name} ({here}) the rail does not lead to {board.step(target).name} "
                             f"({target}); it leads to {', '.join(names) or 'nowhere'}")
        here = target
    return tuple(legs)


def plan_route(engine: "Engine", state: "GameState", upgoer_id: str, steps: list[str]) -> RouteReport:
    """Fuel and the exact chance that an Upgoer completes a route (a list of step ids after its position).

    Rolls counted: every burn (thruster; a failed burn is retried while fuel and a thruster last; a Boom
    disables that thruster, lowers the others of its kind by the boom penalty and the capsule by the
    damage of the failure table), every duration step (a capsule Boom strands the craft), reentry and
    landing (a Boom kills the crew), and the lunar landing burn (a Boom crashes). Completing means the
    craft reaches the last step under control with its crew alive.
    """
    flight = engine.flight_rules
    upgoer = state.upgoer(upgoer_id)
    legs = route_legs(engine, state, upgoer.location, steps)
    thrusters = flight._modules(state, upgoer, "thruster")
    capsules = flight._modules(state, upgoer, "capsule")
    dry = flight.spacecraft_mass(state, upgoer) - upgoer.fuel
    burns = sum(1 for leg in legs if leg.burn)
    fuel_rules = engine.rules.economy.fuel
    scheme = engine.rules.dice.scheme(state.setup.dice)
    limits = engine.rules.economy.reliability
    thruster_rating = max((engine.item_rating(state, t) for t in thrusters), key=Rating.score, default=None)
    capsule_rating = max((engine.item_rating(state, c) for c in capsules), key=Rating.score, default=None)
    damage = _capsule_damage(engine)
    distribution = scheme.distribution()
    whole = odds_table(distribution).denominator  # every roll's counts are over this denominator

    # Exact arithmetic in whole numbers: each chance below is ``(count, rolls)``, meaning
    # count / whole**rolls, so a route is sums of products of cached per-roll counts and one division at
    # the end (Fractions at every step cost a gcd per operation).
    powers = [1]

    def power(n: int) -> int:
        while len(powers) <= n:
            powers.append(powers[-1] * whole)
        return powers[n]

    def weighted(*terms: tuple[int, tuple[int, int]]) -> tuple[int, int]:
        """sum(weight * chance) for one more roll, each weight a count over ``whole``."""
        rolls = max(chance[1] for _, chance in terms)
        return sum(weight * count * power(rolls - deep) for weight, (count, deep) in terms), rolls + 1

    @lru_cache(maxsize=None)
    def thruster_counts(booms: int) -> tuple[int, int, int, int]:
        rating = penalised(thruster_rating, limits.boom_penalty_fail * booms, limits.boom_penalty_boom * booms,
                           limits.bounds)
        return outcome_counts(distribution, rating)

    @lru_cache(maxsize=None)
    def capsule_counts(booms: int) -> tuple[int, int, int, int]:
        return outcome_counts(distribution, penalised(capsule_rating, damage[0] * booms, damage[1] * booms,
                                                      limits.bounds))

    @lru_cache(maxsize=None)
    def burn_cost(fuel: int) -> int:
        return formulas.fuel_for_burn(dry + fuel, fuel_rules)

    LOST, SURE = (0, 0), (1, 0)

    @lru_cache(maxsize=None)
    def chance(index: int, fuel: int, booms: int) -> tuple[int, int]:
        """Chance to complete the route from leg ``index`` on."""
        if index == len(legs):
            return SURE
        leg = legs[index]
        if leg.burn:
            return burn(index, fuel, booms, crash_on_boom=leg.kind == "lunar_landing")
        return arrive(index, fuel, booms)

    @lru_cache(maxsize=None)
    def arrive(index: int, fuel: int, booms: int) -> tuple[int, int]:
        """The craft has entered leg ``index``'s step: the roll that step asks for, then onwards."""
        kind = legs[index].kind
        if kind in ("orbit", "transit", "surface", "reentry", "landing", "lunar_landing"):
            if capsule_rating is None:
                return LOST if kind in ("reentry", "landing") else chance(index + 1, fuel, booms)
            # A capsule Boom strands the craft (or kills the crew coming down): the route is lost.
            if kind != "lunar_landing":
                ok, fail, _, _ = capsule_counts(booms)
                return weighted((ok + fail, chance(index + 1, fuel, booms)))
        return chance(index + 1, fuel, booms)

    @lru_cache(maxsize=None)
    def burn(index: int, fuel: int, booms: int, crash_on_boom: bool) -> tuple[int, int]:
        working = len(thrusters) - booms
        if working <= 0 or thruster_rating is None or capsule_rating is None:
            return LOST
        cost = burn_cost(fuel)
        if cost > fuel:
            return LOST
        ok, fail, boom, _ = thruster_counts(booms)
        terms = [(ok, arrive(index, fuel - cost, booms)), (fail, burn(index, fuel - cost, booms, crash_on_boom))]
        if not crash_on_boom:
            terms.append((boom, burn(index, fuel - cost, booms + 1, crash_on_boom)))
        return weighted(*terms)

    count, rolls = chance(0, upgoer.fuel, 0)
    turns = sum(1 for leg in legs if leg.kind in ("orbit", "transit", "surface"))
    return RouteReport(legs=legs, burns=burns, fuel_needed=formulas.fuel_needed(dry, burns, fuel_rules),
                       fuel_aboard=upgoer.fuel, chance_to_complete=Fraction(count, power(rolls)), turns=turns)


def _capsule_damage(engine: "Engine") -> tuple[int, int]:
    """The capsule damage a thruster Boom causes, read from the failure table."""
    for effect in engine.rules.flight.consequence("burn").boom:
        if effect.effect == "damage_capsule":
            return effect.fail, effect.boom
    return 0, 0


def next_roll_odds(engine: "Engine", state: "GameState", plan: HelpPlan = HelpPlan()) -> Optional[dict[Outcome, Fraction]]:
    """Exact odds that the pending roll ends OK, Fail or Boom with the help the player intends to use.

    None when no roll is pending. The distribution is the very one the die is sampled from, and the help
    is searched over the very spends the engine allows once the dice have landed (``skills.best_help``).
    """
    flight = state.flight
    if state.phase != "flight" or flight is None or flight.roll is None:
        return None
    roll = flight.roll
    return odds_with_help(engine.flight_rules.distribution(state, roll), roll.rating, plan)


def help_plan_for(engine: "Engine", state: "GameState", luck: int = 0, derps: Optional[list[str]] = None,
                  rcs_boosts: Optional[int] = None) -> HelpPlan:
    """The help a crew can give the pending roll: each chosen derp's stamina points (each spent once, on
    Engineering or Piloting), the RCS uses aboard (or ``rcs_boosts``), and ``luck`` rerolls."""
    return engine.flight_rules.help_plan(state, state.flight.roll, derps, rcs_boosts, luck)


def destination(engine: "Engine", state: "GameState", action: Action) -> tuple[str, ...]:
    """The step(s) a marker would be dropped on to mean ``action`` (empty for non-moving actions)."""
    board = engine.rules.board
    active = state.flight.active if state.flight is not None else None
    upgoer = state.find("upgoer", active) if active else None
    if isinstance(action, Launch):
        launch = board.home.next
        return (launch, board.step(launch).next)
    if upgoer is None:
        return ()
    if isinstance(action, Burn):
        target = board.step(action.to)
        return (action.to,) + ((target.next,) if target.next and not target.is_duration else ())
    if isinstance(action, (Move, Coast)):
        current = board.step(upgoer.location).next
        if current is None:
            return (upgoer.location,)  # on a surface: staying put
        stops: list[str] = []
        while current is not None and current not in stops:
            stops.append(current)
            step = board.step(current)
            if step.is_duration or step.kind in ("home", "escape"):
                break
            current = step.next
        return tuple(stops)
    return ()


def drop_action(engine: "Engine", state: "GameState", upgoer_id: str, step_id: str) -> tuple[Optional[Action], str]:
    """Turn dragging ``upgoer_id`` onto ``step_id`` into the one legal action it means.

    Returns (action, "") or (None, the reason in a player's words), like python-chess's find_move.
    """
    board = engine.rules.board
    upgoer = state.find("upgoer", upgoer_id)
    if upgoer is None:
        return None, f"there is no Upgoer {upgoer_id}"
    try:
        target = board.step(step_id)
    except KeyError:
        return None, f"there is no step {step_id} on the board"
    player = engine.current_player(state)
    if player in (CHANCE, TERMINAL) or state.phase != "flight":
        return None, "Upgoers move during the flight phase" if state.phase != "flight" else "wait for the dice"
    if upgoer.owner != player:
        return None, f"it is {state.programs[player].name}'s move, and {upgoer.name} is not theirs"
    if state.flight.active not in (None, upgoer.id):
        other = state.upgoer(state.flight.active)
        return None, f"{other.name} is moving now; {upgoer.name} waits its turn"
    legal = engine.legal_actions(state)
    matches = [a for a in legal if step_id in destination(engine, state, a)
               and getattr(a, "upgoer", upgoer.id) == upgoer.id]
    if len(matches) >= 1:
        burns = [a for a in matches if isinstance(a, Burn) and not a.rcs]
        return (burns[0] if burns else matches[0]), ""
    # Not legal: explain why, naming a refused burn's reason where there is one.
    if state.flight.mode == "junction":
        refused = engine.refusal(state, Burn(step_id))
        if refused:
            return None, refused
    reachable = sorted({board.step(s).name for a in legal for s in destination(engine, state, a)})
    where = ", ".join(reachable) if reachable else "nowhere right now"
    return None, f"{upgoer.name} cannot go to {target.name} now; it can go to: {where}"
