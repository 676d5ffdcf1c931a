"""Random legal play with invariant checks after every action.

A bot picks uniformly among ``engine.legal_actions`` (its own seeded stream), pending rolls are made
by the app's ``DiceRoller``, and every function in ``INVARIANTS`` is asked after each action whether
the new state still makes sense. The flight rules add their own invariants by appending to the list.
"""
from __future__ import annotations

import gc
import sys
import time
from bisect import bisect_left
from contextlib import contextmanager
from dataclasses import dataclass, field
from itertools import compress, count
from operator import attrgetter, is_not, not_
from typing import Callable, Iterable, Optional

from game.core.dice_rng import Chooser, DiceRoller
from game.games.whatgoesup.rules.actions import Action, BadActionData, Build, Hire, action_from_data
from game.games.whatgoesup.rules import formulas
from game.games.whatgoesup.rules.engine import CHANCE, TERMINAL, Engine
from game.games.whatgoesup.rules.flight.rolls import boom_told
from game.games.whatgoesup.rules.flight_actions import Eva, UseLuck, UsePayload
from game.games.whatgoesup.rules.reliability import Outcome
from game.games.whatgoesup.rules.state import (HOME, GameState, PlayerSetup, Setup, changes_since, index_by_id,
                                                replaced_since)

# invariant(engine, state_before, action, state_after) -> None when fine, else what is wrong.
Invariant = Callable[[Engine, GameState, Action, GameState], Optional[str]]


# ------------------------------------------------------------------ invariants
def looks_at(*fields: str, actions: tuple[type, ...] = (),
             phases: Optional[tuple[str, ...]] = None) -> Callable[[Invariant], Invariant]:
    """Declares what an invariant can find fault with, so that ``InvariantChecks`` may skip it.

    The promise: when the state before an action passed every invariant, the invariant finds nothing wrong
    unless one of the state's ``fields`` changed (is not the very same object after as before) or the action
    is one of ``actions``; and, when ``phases`` are given, never after a state in another phase. An invariant
    without this declaration is asked after every action."""
    def declare(invariant: Invariant) -> Invariant:
        invariant.looks_at = (fields, actions, phases)  # type: ignore[attr-defined]
        return invariant
    return declare


def stands_for(*invariants: Invariant) -> Callable[[Invariant], Invariant]:
    """Declares a screen: a quick question asked in place of ``invariants`` wherever ``InvariantChecks`` would ask
    any of them.

    The promise: when the state before an action passed every invariant and the screen answers False, each of
    ``invariants`` finds nothing wrong; when it answers True, they are asked (and every other invariant the
    step calls for again, so the problems come in ``INVARIANTS``' order)."""
    def declare(screen: Invariant) -> Invariant:
        screen.stands_for = invariants  # type: ignore[attr-defined]
        return screen
    return declare


def _rating_problem(rating, bounds) -> Optional[str]:
    """What is wrong with ``rating`` under ``bounds``, said after the name of what holds it; None when nothing
    (``ratings_within_bounds`` asks only of a rating outside the limits or with Fail not below Boom)."""
    if not rating.fail < rating.boom:
        return f"has Fail {rating.fail} not below Boom {rating.boom}"
    worst, best = bounds.worst, bounds.best
    if not (worst.fail <= rating.fail <= best.fail and worst.boom <= rating.boom <= best.boom):
        return f"is {rating}, outside the limits {worst}..{best}"
    return None


@looks_at("things", "items")
def ratings_within_bounds(engine: Engine, before: GameState, action: Action, after: GameState) -> Optional[str]:
    """Every blueprint and every fixed item rating lies within the rules' worst..best, Fail below Boom.

    Only values not already seen to pass (the very objects of the last tuples that passed, under the
    same bounds) are looked at: states share their unchanged things and items.
    """
    bounds, things, items = engine.rules.economy.reliability, after.things, after.items
    passed_bounds, passed_things, passed_items = _PASSED_RATINGS
    if passed_bounds is bounds:  # (most often one of the tuples is the very one that passed, and the other
        # short and changed in place: ``_unseen``'s first answers, without a call for them)
        if things is passed_things:
            things = ()
        elif len(things) == len(passed_things) <= _LONG_POOL:
            things = tuple(compress(things, map(is_not, things, passed_things)))
        else:
            things = _unseen(things, passed_things)
        if items is passed_items:
            items = ()
        elif len(items) == len(passed_items) <= _LONG_POOL:
            items = tuple(compress(items, map(is_not, items, passed_items)))
        else:
            items = _unseen(items, passed_items)
    worst, best = bounds.worst, bounds.best
    fail_low, fail_high, boom_low, boom_high = worst.fail, best.fail, worst.boom, best.boom
    for thing in things:
        rating = thing.rating  # within the limits and Fail below Boom: nothing to say (most), else say what
        if not (fail_low <= rating.fail <= fail_high and boom_low <= rating.boom <= boom_high
                and rating.fail < rating.boom):
            return f"thing {thing.id} ({thing.name}) {_rating_problem(rating, bounds)}"
    for item in items:
        rating = item.fixed_rating
        if rating is not None and not (fail_low <= rating.fail <= fail_high and boom_low <= rating.boom <= boom_high
                                       and rating.fail < rating.boom):
            return f"item {item.id} {_rating_problem(rating, bounds)}"
    _PASSED_RATINGS[:] = bounds, after.things, after.items
    return None


#: [bounds, things, items]: the last tuples whose every rating passed, and the bounds they passed under (kept,
#: so the identity of their values stays meaningful).
_PASSED_RATINGS: list = [None, (), ()]


def _unseen(values: tuple, passed: tuple) -> tuple:
    """The values of ``values`` to look at again: every one that is not (the very object) in ``passed``, in order,
    and perhaps a few that only moved.

    States share the values an action did not change, mostly in the same places. A long tuple ``replace_in``,
    ``appended`` and ``removed`` made from ``passed`` is answered from what they recorded (``changes_since``: the
    places given new values, the values added; a removed value needs no look), without a look at the rest. Otherwise everything here runs at C speed (a
    long game holds hundreds of things and items): a tuple of the same length is compared place by place, else
    only the stretch between the common head and the common tail is searched."""
    if values is passed:
        return ()
    if len(values) > _LONG_POOL:
        found = changes_since(passed, values, _UNSEEN_STEPS)
        if found is not None:
            gone, changed = found
            if not gone:
                return tuple(map(values.__getitem__, changed)) + values[len(passed):]
            return tuple([values[n - bisect_left(gone, n)] for n in changed]) + values[len(passed) - len(gone):]
    if len(values) == len(passed):
        return tuple(compress(values, map(is_not, values, passed)))
    shorter = min(len(values), len(passed))
    head = next(compress(count(), map(is_not, values, passed)), shorter)
    tail = min(next(compress(count(), map(is_not, reversed(values), reversed(passed))), shorter), shorter - head)
    middle, was = values[head:len(values) - tail], set(map(id, passed[head:len(passed) - tail]))
    return tuple(compress(middle, map(not_, map(was.__contains__, map(id, middle)))))


#: How many ``replace_in`` / ``appended`` steps back ``_unseen`` follows a tuple's making (one action makes one
#: or two of a pool; a longer way is searched instead).
_UNSEEN_STEPS = 4
#: The length above which a pool's changes are read from its making (``replaced_since``: about the cost of
#: comparing 40 values place by place at C speed, whatever the length) rather than by comparing.
_LONG_POOL = 40


@looks_at("turn", "phase")
def dots_within_budget(engine: Engine, before: GameState, action: Action, after: GameState) -> Optional[str]:
    """After each end of turn every budget lies within min_dots..max_dots."""
    if after.turn == before.turn and not (after.phase == "over" and before.phase != "over"):
        return None
    budget = engine.rules.economy.budget
    for p in after.programs:
        if not budget.min_dots <= p.dots <= budget.max_dots:
            return f"{p.name} ends turn {before.turn} with {p.dots} dots, outside {budget.min_dots}..{budget.max_dots}"
    return None


@looks_at("programs")
def points_never_negative(engine: Engine, before: GameState, action: Action, after: GameState) -> Optional[str]:
    for p in after.programs:
        if p.points < 0:
            return f"{p.name} has {p.points} points"
        if p.bonus_points < 0:
            return f"{p.name} has {p.bonus_points} bonus points"
    return None


@looks_at("programs")
def stocks_never_negative(engine: Engine, before: GameState, action: Action, after: GameState) -> Optional[str]:
    for p in after.programs:
        if p.fuel_stock < 0:
            return f"{p.name} has {p.fuel_stock} fuel at home"
        if p.rations_stock < 0:
            return f"{p.name} has {p.rations_stock} derp-turns of rations at home"
    return None


def _derps_added_by(engine: Engine, before: GameState, action: Action) -> int:
    """How many crew members an action adds: a Hire one derp, a Build of underped systems one each."""
    if isinstance(action, Hire):
        return 1
    if isinstance(action, Build) and action.thing in _underped_things(engine, before.things):
        return action.count
    return 0


@looks_at("derps", actions=(Hire, Build))
def derps_conserved(engine: Engine, before: GameState, action: Action, after: GameState) -> Optional[str]:
    """Derps are never removed (the dead stay listed, and stay dead); only Hire adds one, exactly one (and
    building underped systems one crew member each)."""
    if after.derps is before.derps:  # nothing changed: only a Hire that added nobody is wrong
        return f"the number of derps went from {len(before.derps)} to {len(after.derps)}" \
            if _derps_added_by(engine, before, action) else None
    after_by_id = {d.id: d for d in after.derps}
    if len(after_by_id) != len(after.derps):
        return "two derps share an id"
    for d in before.derps:
        now = after_by_id.get(d.id)
        if now is None:
            return f"derp {d.id} ({d.name}) vanished from the list"
        if d.dead and not now.dead:
            return f"derp {d.id} ({d.name}) came back from the dead"
    added = len(after.derps) - len(before.derps)
    expected = _derps_added_by(engine, before, action)
    if added != expected:
        return f"the number of derps went from {len(before.derps)} to {len(after.derps)}"
    return None


@looks_at("derps", "items")
def systems_match_their_parts(engine: Engine, before: GameState, action: Action,
                              after: GameState) -> Optional[str]:
    """Underped rules: every living system has its part (same owner, same place) and every system part its one
    living crew member; a destroyed system's part is gone; a system is never injured."""
    if after.derps is before.derps and after.items is before.items:
        return None
    underped = _underped_things(engine, after.things)
    if not underped and not _has_systems(after.derps):
        return None  # no system and no system's blueprint: nothing to match (most games)
    items = index_by_id(after.items)
    claimed: dict[str, str] = {}
    for derp in after.derps:
        if derp.system is None:
            continue
        if derp.injured and not derp.dead:
            return f"{derp.name} is an underped system and injured"
        item = items.get(derp.system)
        if derp.dead:
            if item is not None:
                return f"{derp.name} is destroyed but its part {derp.system} is still there"
            continue
        if item is None:
            return f"{derp.name} works on but its part {derp.system} is gone"
        if item.owner != derp.owner or item.location != derp.location:
            return f"{derp.name} and its part {item.id} are apart ({derp.location} and {item.location})"
        claimed[item.id] = derp.id
    for item in after.items:
        if item.thing_id in underped and item.id not in claimed:
            return f"the underped part {item.id} has no crew member"
    return None




def _has_systems(derps: tuple) -> bool:
    """Whether any of ``derps`` is an underped system (kept for the last derps tuple asked: most steps that change
    the items, a build or a flight's, leave the derps as they were)."""
    if _SYSTEMS[0] is not derps:
        _SYSTEMS[:] = derps, any([derp.system for derp in derps])
    return _SYSTEMS[1]


_SYSTEMS: list = [None, False]  # [derps, whether one of them is a system]: the last derps tuple asked (held)


def _underped_things(engine: Engine, things: tuple) -> frozenset:
    """The ids of the blueprints of underped systems among ``things`` (kept for the last tuple asked; a long tuple
    ``replace_in`` and ``appended`` made from it, each blueprint in place still of its kind, adds only the ids of
    the blueprints added)."""
    kinds = _underped_kinds(engine)
    kept_things, kept_kinds, ids = _UNDERPED
    if kept_things is things and kept_kinds is kinds:
        return ids
    replaced = replaced_since(kept_things, things, _MASS_STEPS) \
        if kept_kinds is kinds and kinds and len(things) > _LONG_POOL else None
    if replaced is not None and all(things[n].kind == kept_things[n].kind for n in replaced):
        added = things[len(kept_things):]
        if added:
            ids = ids.union(_ids_of_kinds(added, kinds))
    else:
        ids = frozenset(_ids_of_kinds(things, kinds)) if kinds else frozenset()
    _UNDERPED[:] = [things, kinds, ids]
    return ids


def _ids_of_kinds(things: tuple, kinds: frozenset) -> Iterable[str]:
    """The ids of the blueprints among ``things`` of one of ``kinds``, in order (a comprehension: an attribute
    read there costs half what map(attrgetter) does)."""
    return [thing.id for thing in things if thing.kind in kinds]


def _underped_kinds(engine: Engine) -> frozenset:
    """The ids of the component kinds of the underped role (kept for the last rules asked)."""
    components = engine.rules.components
    if _UNDERPED_KINDS[0] is not components:
        _UNDERPED_KINDS[:] = [components, frozenset(k.id for k in components.kinds_with_role("underped"))]
    return _UNDERPED_KINDS[1]


_UNDERPED_KINDS: list = [None, frozenset()]
_UNDERPED: list = [None, None, frozenset()]


def action_round_trips(engine: Engine, before: GameState, action: Action, after: GameState) -> Optional[str]:
    """Every action taken can be saved and read back as the same action (the log is the truth).

    The codec is a pure function of the action's value, so an action equal to one that already read back,
    field by field and in each field's type (1, True and 1.0 are told apart), is not read again; nor is the very
    object seen before (the engine's listings hand out the same action objects again and again)."""
    passed = _PASSED_OBJECTS
    if passed.get(id(action)) is action:
        return None
    fields = getattr(action, "__dict__", None)  # the key: see _PLAIN_TYPES below
    if fields is not None:
        values = tuple(fields.values())
        types = tuple(map(type, values))
        key = (type(action), values, types) if _PLAIN_TYPES.issuperset(types) else (type(action), repr(action))
    else:
        key = (type(action), repr(action))
    if key not in _ROUND_TRIPPED:
        try:
            again = action_from_data(action.to_data())
        except BadActionData as exc:
            return f"'{action}' cannot be read back from its save form: {exc}"
        if again != action:
            return f"'{action}' reads back from its save form as '{again}'"
        if len(_ROUND_TRIPPED) >= 20_000:
            _ROUND_TRIPPED.clear()
        _ROUND_TRIPPED.add(key)
    if len(passed) >= 20_000:
        passed.clear()
    passed[id(action)] = action  # held, so its id stays its own while it is remembered
    return None


#: The keys of actions already seen to read back from their save form unchanged: each key is equal for two
#: actions exactly when their ``repr``s are, the class, the field values and each value's type when every field
#: is a plain int, str, bool or None (most actions: no text need be made), else the class and the ``repr``.
_ROUND_TRIPPED: set = set()
_PLAIN_TYPES = frozenset((int, str, bool, type(None)))
#: id -> the action object itself, for each action object seen to read back (actions are frozen values)
_PASSED_OBJECTS: dict[int, Action] = {}


@looks_at("upgoers")
def flight_supplies_never_negative(engine: Engine, before: GameState, action: Action, after: GameState) -> Optional[str]:
    """Fuel and rations aboard every craft are never negative."""
    for u in after.upgoers:
        if u.fuel < 0 or u.rations < 0:
            return f"{u.name} carries {u.fuel} fuel and {u.rations} derp-turns of rations"
    return None


#: The statuses of a craft out of play (home, gone up in smoke or away for good): it is docked with nobody.
_OUT_OF_PLAY = frozenset({"landed", "destroyed", "escaped"})


@looks_at("upgoers")
def docking_agrees_both_ways(engine: Engine, before: GameState, action: Action, after: GameState) -> Optional[str]:
    """Docking is recorded on both craft: each craft a craft lists as docked is still in play and lists it back,
    and a craft out of play (landed, destroyed, escaped) is docked with nobody. Only the few docked craft are
    read (the others are passed over at C speed), and only after an action that changed the craft."""
    upgoers = after.upgoers
    docked = tuple(compress(upgoers, map(_DOCKED_WITH, upgoers)))
    if not docked:
        return None
    by_id = index_by_id(upgoers)
    for craft in docked:
        if craft.status in _OUT_OF_PLAY:
            return f"{craft.name} is {craft.status.replace('_', ' ')} but still docked with {', '.join(craft.docked_with)}"
        for partner_id in craft.docked_with:
            partner = by_id.get(partner_id)
            if partner is None:
                return f"{craft.name} is docked with {partner_id}, which is no longer in the game"
            if craft.id not in partner.docked_with:
                return f"{craft.name} is docked with {partner.name}, which does not list it as docked"
    return None


_DOCKED_WITH = attrgetter("docked_with")


@looks_at("turn", "phase")
def crafts_rest_on_duration_steps(engine: Engine, before: GameState, action: Action, after: GameState) -> Optional[str]:
    """When a turn ends, every craft and piece of debris in space sits on a duration step."""
    if after.turn == before.turn and not (after.phase == "over" and before.phase != "over"):
        return None
    board = engine.rules.board
    for u in after.upgoers:
        if u.in_space and not board.step(u.location).is_duration:
            return f"{u.name} ends turn {before.turn} at {u.location}, which is not a duration step"
    return None


@looks_at(actions=(UsePayload, Eva))
def payloads_used_at_duration_steps(engine: Engine, before: GameState, action: Action,
                                    after: GameState) -> Optional[str]:
    """A payload (an EVA pack included) is used only on a duration step (2013: "Payloads can only be used in
    duration steps"; in both editions activities happen only where a move ends)."""
    if not isinstance(action, (UsePayload, Eva)) or before.flight is None or before.flight.active is None:
        return None
    craft = before.upgoer(before.flight.active)
    if not engine.rules.board.step(craft.location).is_duration:
        return f"{craft.name} uses a payload at {craft.location}, which is not a duration step"
    return None


def total_mass(engine: Engine, state: GameState):
    """Everything a game holds that has mass: built parts, fuel and rations at home and aboard."""
    whole, rations = _masses(state)
    return whole + formulas.rations_mass(rations, engine.rules.components)


def _masses(state: GameState) -> tuple[int, int]:
    """The mass of a state's parts and fuel, and its derp-turns of rations. Each part is kept for the last
    values asked (the parts for the things and items, the stocks for the programs, the supplies aboard for
    the craft): one step's "after" is the next one's "before", and a step changes a few of them."""
    kept = _KEPT_SUMS
    programs, upgoers = state.programs, state.upgoers
    if kept[0] is not programs:
        kept[0:2] = programs, (sum(map(_FUEL_STOCK, programs)), sum(map(_RATIONS_STOCK, programs)))
    if kept[2] is not upgoers:
        kept[2:4] = upgoers, (sum(map(_FUEL, upgoers)), sum(map(_RATIONS, upgoers)))
    (fuel_stock, rations_stock), (fuel, rations) = kept[1], kept[3]
    return _parts_mass(state.things, state.items) + fuel_stock + fuel, rations_stock + rations


#: [programs, (their fuel, their rations), upgoers, (their fuel, their rations)], the last asked
_KEPT_SUMS: list = [None, (0, 0), None, (0, 0)]
_FUEL_STOCK, _FUEL = attrgetter("fuel_stock"), attrgetter("fuel")
_RATIONS_STOCK, _RATIONS = attrgetter("rations_stock"), attrgetter("rations")


def _parts_mass(things: tuple, items: tuple) -> int:
    """The mass of every built part (kept for the last pair of tuples asked: most flight actions move
    craft and burn fuel without touching a part). Long items ``replace_in``, ``appended`` and ``removed`` made
    from the kept ones, under the same things, are weighed by the places that changed (``changes_since``)."""
    kept_things, kept_items, mass, thing_mass = _PARTS_MASS
    if kept_things is things and kept_items is items:
        return mass
    if kept_things is not things and _same_masses(kept_things, things):  # a roll or a research: no mass changed
        thing_mass.update({thing.id: thing.mass for thing in things[len(kept_things):]})
        kept_things = things
    found = changes_since(kept_items, items, _MASS_STEPS) \
        if kept_things is things and len(items) > _LONG_POOL else None
    if found is None:  # (comprehensions: an attribute read in one costs half what map(attrgetter) does)
        if kept_things is not things:
            thing_mass = {thing.id: thing.mass for thing in things}
        mass = sum([thing_mass[item.thing_id] for item in items])
    else:
        weigh = thing_mass.__getitem__
        gone, changed = found
        for n in gone:
            mass -= weigh(kept_items[n].thing_id)
        for n in changed:
            mass += weigh(items[n - bisect_left(gone, n) if gone else n].thing_id) - weigh(kept_items[n].thing_id)
        mass += sum(map(weigh, map(_THING_ID, items[len(kept_items) - len(gone):])))
    _PARTS_MASS[:] = [things, items, mass, thing_mass]
    return mass


_PARTS_MASS: list = [None, None, 0, {}]  # things, items, their mass, each thing's mass by id


def _same_masses(kept: Optional[tuple], things: tuple) -> bool:
    """Whether the long ``things`` were made from ``kept`` by ``replace_in`` and ``appended`` (``replaced_since``)
    with every blueprint in place of the same mass: then each kept blueprint weighs what it weighed."""
    if kept is None or len(things) <= _LONG_POOL:
        return False
    replaced = replaced_since(kept, things, _MASS_STEPS)
    return replaced is not None and all(things[n].mass == kept[n].mass for n in replaced)


#: How many ``replace_in`` / ``appended`` / ``removed`` steps back the kept masses follow the things and items: a
#: flight's first step finds them kept from the last flight, a whole R&D phase of builds and research before (a
#: few dozen steps, each one dict look-up; reading a long game's things and items whole costs as much as 1,000).
_MASS_STEPS = 64
_THING_ID = attrgetter("thing_id")


@looks_at("things", "items", "programs", "upgoers", phases=("flight",))
def flights_create_no_mass(engine: Engine, before: GameState, action: Action, after: GameState) -> Optional[str]:
    """During flights mass is only burnt, eaten, shed or lost, never made (only R&D builds and buys)."""
    if before.phase != "flight":
        return None
    (whole_was, rations_was), (whole_now, rations_now) = _masses(before), _masses(after)
    if rations_now <= rations_was and whole_now <= whole_was:
        return None  # no more rations (a derp-turn masses a positive share of a container), no more of the rest
    was, now = total_mass(engine, before), total_mass(engine, after)
    if now > was:
        return f"the game's mass grew from {float(was):g} to {float(now):g} during a flight"
    return None


@looks_at("programs", actions=(UseLuck,))
def luck_follows_the_rules(engine: Engine, before: GameState, action: Action, after: GameState) -> Optional[str]:
    """Luck is never negative; one point goes on each reroll, only of the spender's own rolled Fail or Boom;
    points come only from healthy derps landing home from new steps and from rival derps rescued."""
    if not isinstance(action, UseLuck):
        if after.programs is before.programs:
            return None  # the programs (their luck with them) are the very ones checked when last they changed
        for old, new in zip(before.programs, after.programs):
            if old.luck != new.luck or new.luck < 0:
                break
        else:
            return None  # nobody's luck moved (and none is negative): nothing below could find fault

    def roll_of(state):
        return state.flight.roll if state.phase == "flight" and state.flight is not None else None

    roll, luck = roll_of(before), engine.rules.economy.luck
    for old, new in zip(before.programs, after.programs):
        spent = old.luck - new.luck
        rerolls = isinstance(action, UseLuck) and roll is not None and before.upgoer(roll.upgoer).owner == new.index
        if new.luck < 0:
            return f"{new.name} has {new.luck} luck"
        if spent > 0 or rerolls:
            if not rerolls or spent != 1:
                return f"{new.name}'s luck went from {old.luck} to {new.luck} on '{action}'"
            if roll.value is None or roll.previous is not None or roll.outcome() is Outcome.OK:
                return f"{new.name} spent luck on a roll that was not a rolled Fail or Boom ({roll.value})"
            if roll_of(after) is None or roll_of(after).previous != roll.value or roll_of(after).value is not None:
                return f"{new.name} spent a luck point but no reroll of the {roll.value} is waiting"
        elif spent < 0:
            earned, was = 0, {d.id: d for d in before.derps}
            for derp in after.derps:
                was_derp = was.get(derp.id)
                if was_derp is None or was_derp.location == derp.location or derp.dead:
                    continue
                left = before.find("upgoer", was_derp.location) if was_derp.location != HOME else None
                if derp.location == HOME and left is not None and left.owner == new.index and not derp.injured \
                        and (after.find("upgoer", left.id) or left).new_steps:
                    earned += luck.per_healthy_derp_back_from_new_step  # home, healthy, from new steps
                aboard = after.find("upgoer", derp.location) if derp.location != HOME else None
                if aboard is not None and aboard.owner == new.index and was_derp.owner != new.index:
                    earned += luck.per_rival_derp_rescued  # a rival derp came aboard
            if -spent > earned:
                return f"{new.name} gained {-spent} luck on '{action}' where the rules give at most {earned}"
    return None


@stands_for(points_never_negative, stocks_never_negative, luck_follows_the_rules)
def programs_need_a_look(engine: Engine, before: GameState, action: Action, after: GameState) -> bool:
    """Whether the programs' invariants (points, stocks, luck) could find fault after a state that passed them:
    only when a program that is not the very one before holds a count below zero or luck that moved, the
    programs are not as many as before, or the action spends luck. One call after an R&D action, where three
    would each walk the programs."""
    olds, news = before.programs, after.programs
    if isinstance(action, UseLuck) or len(olds) != len(news):
        return True
    for old, new in zip(olds, news):
        if old is not new and (new.points < 0 or new.bonus_points < 0 or new.fuel_stock < 0
                               or new.rations_stock < 0 or new.luck != old.luck):
            return True
    return False


#: Quick questions ``InvariantChecks`` asks in place of the invariants each stands for (see ``stands_for``).
SCREENS: list[Invariant] = [programs_need_a_look]


INVARIANTS: list[Invariant] = [
    action_round_trips,
    ratings_within_bounds,
    dots_within_budget,
    points_never_negative,
    stocks_never_negative,
    derps_conserved,
    systems_match_their_parts,
    flight_supplies_never_negative,
    docking_agrees_both_ways,
    crafts_rest_on_duration_steps,
    payloads_used_at_duration_steps,
    flights_create_no_mass,
    luck_follows_the_rules,
]


def check_invariants(engine: Engine, before: GameState, action: Action, after: GameState) -> list[str]:
    """Every broken invariant's message (empty when all hold), every invariant asked."""
    problems = []
    for invariant in INVARIANTS:
        message = invariant(engine, before, action, after)
        if message:
            problems.append(f"{invariant.__name__}: {message}")
    return problems


class InvariantChecks:
    """The invariants asked after each action of one game, only those that could find fault in it.

    ``checks(before, action, after)`` answers as ``check_invariants`` does. When ``before`` is the last state
    that passed here, an invariant is skipped if its ``looks_at`` declaration says it cannot find fault
    (none of its fields changed, the action is not one of its kinds, the state before is in none of its
    phases), and a screen of ``SCREENS`` is asked in place of the invariants it stands for; only when a screen
    or an invariant answers is every invariant the step calls for asked again, for the problems in order.
    Otherwise every invariant is asked. The invariants and screens are those of ``INVARIANTS`` and ``SCREENS``
    when the checks are made.

    A step's plan is found by one function compiled once (``_pattern(before, action, after)``: which declared
    fields changed, compared with the state before itself, which is the one that passed, the action's class and
    the phase before, in one tuple); the plans are kept across games.
    """

    def __init__(self, engine: Engine, invariants: Optional[Iterable[Invariant]] = None,
                 screens: Optional[Iterable[Invariant]] = None):
        self.engine = engine
        self.invariants = tuple(INVARIANTS if invariants is None else invariants)
        self.screens = tuple(SCREENS if screens is None else screens)
        declared = [getattr(invariant, "looks_at", None) for invariant in self.invariants]
        self.fields = tuple(sorted({name for d in declared if d is not None for name in d[0]}))
        self._passed: Optional[GameState] = None  # the last state every invariant held in
        if len(_PLANS) >= 16:  # invariants listed again and again (tests): keep a few
            _PLANS.clear()
        # (fields changed, action class, phase before) -> (the quick questions, the invariants they stand in for
        # with the rest): shared by every game's checks of these invariants and screens
        kept = _PLANS.get((self.invariants, self.screens))
        if kept is None:
            kept = _PLANS[self.invariants, self.screens] = (_pattern(self.fields), {})
        self._pattern, self._plans = kept

    def __call__(self, before: GameState, action: Action, after: GameState) -> list[str]:
        engine = self.engine
        if before is self._passed:
            key = self._pattern(before, action, after)
            plan = self._plans.get(key)
            if plan is None:
                plan = self._plans[key] = self._plan(key[:-2], key[-2], key[-1])
            quick, asked = plan
            for check in quick:
                if check(engine, before, action, after):
                    break
            else:  # every quick question answered nothing: the step passed
                self._passed = after
                return []
        else:
            asked = self.invariants
        problems = []
        for invariant in asked:
            message = invariant(engine, before, action, after)
            if message:
                problems.append(f"{invariant.__name__}: {message}")
        self._passed = None if problems else after
        return problems

    def _to_ask(self, changed: tuple[bool, ...], action_class: type, phase: str) -> tuple[Invariant, ...]:
        """The invariants that may find fault in a step from a state in ``phase`` that changed the flagged fields,
        with such an action."""
        changed_fields = {name for name, flag in zip(self.fields, changed) if flag}
        asked = []
        for invariant in self.invariants:
            declared = getattr(invariant, "looks_at", None)
            if declared is None:
                asked.append(invariant)
                continue
            fields, actions, phases = declared
            if (phases is None or phase in phases) and (changed_fields.intersection(fields)
                                                        or issubclass(action_class, actions)):
                asked.append(invariant)
        return tuple(asked)

    def _plan(self, changed: tuple[bool, ...], action_class: type,
              phase: str) -> tuple[tuple[Invariant, ...], tuple[Invariant, ...]]:
        """The quick questions of such a step (``_to_ask``'s invariants, each screen in place of the first of those
        it stands for and of the others), and the invariants themselves."""
        asked = self._to_ask(changed, action_class, phase)
        quick: list[Invariant] = []
        for invariant in asked:
            screen = next((s for s in self.screens if invariant in s.stands_for), invariant)
            if screen not in quick:
                quick.append(screen)
        return tuple(quick), asked


#: (invariants, screens) -> (their pattern function, their plans (``InvariantChecks._plans``)), kept across games.
_PLANS: dict[tuple, tuple[Callable, dict]] = {}


def _pattern(fields: tuple[str, ...]) -> Callable[[GameState, Action, GameState], tuple]:
    """``pattern(before, action, after)``: for each of ``fields`` whether ``after`` holds another object there
    than ``before``, then the action's class and ``before``'s phase, as one tuple (a plan's key). Compiled to
    one expression (the fields read by name, no loop): it is asked after every action."""
    for name in fields:
        if not name.isidentifier() or name.startswith("__"):
            raise ValueError(f"an invariant looks at '{name}', which is no field name")
    flags = "".join(f"before.{name} is not after.{name}, " for name in fields)
    source = f"lambda before, action, after: ({flags}type(action), before.phase)"
    return eval(compile(source, "<invariant checks>", "eval"), {"__builtins__": {"type": type}})


# ------------------------------------------------------------------ the bot
class RandomBot:
    """Picks uniformly among the legal actions, from its own seeded stream."""

    def __init__(self, seed: int):
        self.chooser = Chooser(seed)

    def choose(self, engine: Engine, state: GameState) -> Action:
        return self.chooser.choice(engine.legal_actions(state))


def next_action(engine: Engine, state: GameState, bot: RandomBot, dice: DiceRoller) -> Optional[Action]:
    """The action random play takes next: a roll when one is pending, else the bot's pick; None at the end."""
    player = engine.current_player(state)
    if player == TERMINAL:
        return None
    if player == CHANCE:
        return dice.roll(engine, state)
    return bot.choose(engine, state)


@dataclass(frozen=True)
class InvariantFailure:
    seed: int
    index: int  # 1-based number of the action in the log
    action: str
    problems: tuple[str, ...]

    def __str__(self) -> str:
        return f"seed {self.seed}, action {self.index} ({self.action}): " + "; ".join(self.problems)


@dataclass
class GameResult:
    seed: int
    setup: Setup
    actions: list[Action] = field(default_factory=list)
    states: list[GameState] = field(default_factory=list)  # only when keep_states
    final: Optional[GameState] = None
    failure: Optional[InvariantFailure] = None
    check_seconds: float = 0.0  # time spent in the invariant checks, by the wall clock: process_time costs
    # ~0.7 us a reading (perf_counter 0.05 us), two an action, more than many checks; the share of play_seconds
    # (also wall) is what stays fair on a busy machine
    play_seconds: float = 0.0  # time the whole game took, checks included (set by simulate)

    @property
    def turns(self) -> int:
        return self.final.turn if self.final is not None else 0


def default_setup(engine: Engine, players: int = 2, turns: int = 20, dice: Optional[str] = None,
                  victory: str = "most_dots", scenario: Optional[str] = None,
                  difficulty: Optional[str] = None, options: tuple[str, ...] = ()) -> Setup:
    """A bot game's setup: ``players`` programs of different peoples (a scenario brings its own clock), with
    the optional rules ``options`` switched on."""
    peoples = [p.id for p in engine.rules.peoples.peoples]
    chosen = tuple(PlayerSetup(name=f"Bot {n + 1}", people=peoples[n % len(peoples)], human=False)
                   for n in range(players))
    return Setup(players=chosen, dice=dice or engine.rules.dice.default,
                 turn_limit=None if scenario else turns, victory=victory, scenario=scenario, difficulty=difficulty,
                 options=frozenset(options))


BOT_KINDS = ("program", "random", "landing", "raider")


def make_bot(kind: str, seed: int):
    """The bot for ``simulate``: 'program' (plays a space program, flies, pursues the victory condition),
    'random' (uniform) or 'landing' (random, weighted towards actions that lead to a landing)."""
    if kind == "random":
        return RandomBot(seed)
    if kind == "program":
        from game.games.whatgoesup.bots import SpaceProgramBot
        return SpaceProgramBot(seed)
    if kind == "raider":  # the program bot that docks, starts fights and arms craft to fire under Space War
        from game.games.whatgoesup.bots import SpaceProgramBot
        return SpaceProgramBot(seed, aggression=0.5)
    if kind == "landing":
        from game.games.whatgoesup.landing_bot import LandingBot
        return LandingBot(seed)
    raise ValueError(f"unknown bot '{kind}' ({', '.join(BOT_KINDS)})")


def play_game(engine: Engine, setup: Setup, seed: int, max_turns: Optional[int] = None,
              check: bool = True, keep_states: bool = False, max_actions: int = 100_000,
              on_action: Optional[Callable[[GameState, Action, GameState], None]] = None,
              bot_kind: str = "random", dice: Optional[DiceRoller] = None) -> GameResult:
    """Random legal play from a new game until the end, ``max_turns`` turns or ``max_actions``.

    The dice are ``DiceRoller(seed)`` unless ``dice`` are given (a test's forced rolls, say).
    Stops at the first broken invariant; ``result.failure`` then names the seed, action and problems.
    """
    bot, dice = make_bot(bot_kind, seed), dice or DiceRoller(seed)
    # the bound method, called after every action: calling the instance looks its __call__ up each time
    checks = InvariantChecks(engine).__call__ if check else None
    state = engine.new_game(setup)
    result = GameResult(seed=seed, setup=setup)
    actions, clock, apply, check_seconds = result.actions, time.perf_counter, engine.apply, 0.0
    if keep_states:
        result.states.append(state)
    while len(actions) < max_actions:  # every way out leaves the last state reached in ``state``
        if max_turns is not None and state.turn > max_turns:
            break
        try:
            action = next_action(engine, state, bot, dice)
        except Exception as exc:  # an engine that offers nothing, or odds that do not add up
            result.failure = InvariantFailure(seed, len(actions) + 1, "(choosing)",
                                              (f"engine_answers: {type(exc).__name__}: {exc}",))
            break
        if action is None:
            break
        try:
            after = apply(state, action)
        except Exception as exc:  # a listed legal action must be accepted
            result.failure = InvariantFailure(seed, len(actions) + 1, str(action),
                                              (f"legal_actions_apply: {type(exc).__name__}: {exc}",))
            break
        actions.append(action)
        if keep_states:
            result.states.append(after)
        if on_action is not None:
            on_action(state, action, after)
        if checks is not None:
            started = clock()
            problems = checks(state, action, after)
            check_seconds += clock() - started
            if problems:
                result.failure = InvariantFailure(seed, len(actions), str(action), tuple(problems))
                state = after
                break
        state = after
    result.final, result.check_seconds = state, check_seconds
    return result


@dataclass
class SimSummary:
    games: int = 0
    actions: int = 0
    turns: int = 0
    seconds: float = 0.0
    invariant_failures: int = 0
    first_failure: Optional[str] = None
    launches: int = 0
    booms: int = 0
    derps_lost: int = 0
    firsts: int = 0
    landings: int = 0
    bot: str = "program"
    mode: str = "normal"
    victory: str = "most_dots"
    wins: int = 0  # games that ended with the goal reached (the world saved, a victory condition met)
    losses: int = 0  # games that ended without it (impact; nobody reached the goal by the turn limit)
    outcomes: dict = field(default_factory=dict)  # how games ended: saved, impact, goal, turn_limit, unfinished
    nudges: int = 0
    checks: bool = True  # whether the invariants were checked after every action
    check_seconds: float = 0.0  # time the invariant checks took, all games together
    play_seconds: float = 0.0  # time playing the games took, checks included, all games together
    fights: int = 0  # Space War: derp fights started
    ship_fights: int = 0  # Space War: ship-to-ship fights opened
    repels: int = 0  # Space War: dockings a defender tried to push off
    wars: int = 0  # Space War: quarrels between two programs (secret or open) at the end of the games
    open_wars: int = 0
    underped_launches: int = 0  # launches of craft flown by underped systems alone
    underped_firsts: int = 0  # firsts won by such craft (at a share of the dots)
    systems_lost: int = 0  # underped systems destroyed (counted apart from derps_lost)

    def count_outcome(self, engine: Engine, final: Optional[GameState]) -> None:
        outcome = engine.outcome(final) if final is not None else None
        kind = outcome.kind if outcome is not None else "unfinished"
        self.outcomes[kind] = self.outcomes.get(kind, 0) + 1
        goal_met = kind in ("saved", "goal") or (kind == "turn_limit" and self.victory == "most_dots"
                                                 and self.mode == "normal")
        nobody_won = outcome is not None and not outcome.winners  # every program at open war, say
        if goal_met and not nobody_won:
            self.wins += 1
        elif goal_met or kind in ("impact", "turn_limit"):
            self.losses += 1
        if final is not None and final.rock is not None:
            self.nudges += final.rock.nudges

    def to_data(self) -> dict:
        return {"games": self.games, "actions": self.actions, "turns": self.turns,
                "seconds": round(self.seconds, 3),
                "actions_per_second": round(self.actions / self.seconds, 1) if self.seconds else 0.0,
                "games_per_second": round(self.games / self.seconds, 2) if self.seconds else 0.0,
                "launches": self.launches, "booms": self.booms, "derps_lost": self.derps_lost,
                "firsts": self.firsts, "landings": self.landings, "bot": self.bot,
                "mode": self.mode, "victory": self.victory, "wins": self.wins, "losses": self.losses,
                "wins_by_goal": self.outcomes.get("goal", 0), "turn_limit_endings": self.outcomes.get("turn_limit", 0),
                "outcomes": dict(sorted(self.outcomes.items())), "nudges": self.nudges,
                "invariant_failures": self.invariant_failures, "first_failure": self.first_failure,
                "checks": self.checks, "check_seconds": round(self.check_seconds, 3),
                "play_seconds": round(self.play_seconds, 3),
                "check_share": round(self.check_seconds / self.play_seconds, 3) if self.play_seconds else 0.0,
                "fights": self.fights, "ship_fights": self.ship_fights, "repels": self.repels, "wars": self.wars,
                "open_wars": self.open_wars, "underped_launches": self.underped_launches,
                "underped_firsts": self.underped_firsts, "systems_lost": self.systems_lost}


class FlightCounter:
    """Counts launches, Booms and landings from what the engine reports after each action (launches and
    landings are told in flight events, Booms in roll events, firsts in prestige events)."""

    def __init__(self) -> None:
        self.launches = self.booms = self.landings = self.fights = self.ship_fights = self.repels = 0
        self.underped_launches = self.underped_firsts = 0

    def __call__(self, before: GameState, action: Action, after: GameState) -> None:
        counted = _COUNTED_ACTIONS.get(type(action).__name__)
        if counted is not None:
            setattr(self, counted, getattr(self, counted) + 1)
        for event in after.events:  # by kind first: most events (R&D's) need no text searched
            kind = event.kind
            if kind not in _COUNTED_KINDS:
                continue
            if kind == "flight":
                text = event.text
                if " lights its launch stage" in text:
                    self.launches += 1
                    craft = after.find("upgoer", getattr(action, "upgoer", ""))
                    crew = [d for d in after.derps if craft is not None and d.location == craft.id and not d.dead]
                    if crew and all(d.is_system for d in crew):
                        self.underped_launches += 1
                elif " lands safely at home" in text or " lands with an injured crew" in text:
                    self.landings += 1
            elif kind == "roll":
                boom = boom_told(event)  # a die's story tells from its roll, its words not made (a bot game reads none)
                if event.text.endswith(": Boom.") if boom is None else boom:
                    self.booms += 1
            elif kind == "prestige" and " is first by an underped craft!" in event.text:
                self.underped_firsts += 1


#: The actions ``FlightCounter`` counts by their class's name, and the count each adds one to.
_COUNTED_ACTIONS = {"StartFight": "fights", "OpenFire": "ship_fights", "RepelDocking": "repels"}
#: The kinds of events ``FlightCounter`` reads (one question for the others, most of them R&D's).
_COUNTED_KINDS = frozenset(("flight", "roll", "prestige"))


def simulate(engine: Engine, games: int, seed: int, players: int = 2, turns: int = 20,
             stop_on_failure: bool = True,
             progress: Optional[Callable[[GameResult], None]] = None, bot: str = "program",
             mode: str = "normal", victory: str = "most_dots", difficulty: Optional[str] = None,
             check: bool = True, jobs: int = 1, options: tuple[str, ...] = ()) -> SimSummary:
    """Play ``games`` bot games with seeds seed, seed+1, ... and total them up.

    ``mode`` "stop-the-rock" plays the Stop The Rock scenario (the rock ends the game); ``victory`` picks
    the victory condition of a normal game. ``check`` False skips the invariant checks (to see what they
    cost). ``jobs`` above 1 plays the games in that many worker processes; each game depends only on
    its seed, and results are totalled in game order, so the summary is the same as with one job
    (apart from the time taken). ``options`` are optional rules switched on in every game (e.g. space_war).
    """
    summary = SimSummary(bot=bot, mode=mode, victory=victory, checks=check)
    scenario = "stop_the_rock" if mode == "stop-the-rock" else None
    game = _GameSpec(players, turns, victory, scenario, difficulty, bot, check, tuple(options))
    start = time.perf_counter()
    if jobs <= 1:
        played: Iterable[tuple[GameResult, FlightCounter]] = (_play_one(engine, game, seed + n) for n in range(games))
        with _collector_for_play():
            _total(engine, summary, played, scenario, turns, progress, stop_on_failure)
    else:
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor
        # Fork is quickest, but not from a process that has run pygame: its audio thread may hold an SDL lock
        # at the fork, and the worker then hangs the first time it frees a sound (seen in the test suite).
        methods = multiprocessing.get_all_start_methods()
        method = ("fork" if "fork" in methods and "pygame" not in sys.modules
                  else "forkserver" if "forkserver" in methods else "spawn")
        context = multiprocessing.get_context(method)
        with ProcessPoolExecutor(max_workers=jobs, mp_context=context, initializer=_worker_start,
                                 initargs=(engine, game)) as pool:
            chunk = max(1, min(16, games // (jobs * 4)))
            played = pool.map(_worker_play, range(seed, seed + games), chunksize=chunk)
            _total(engine, summary, played, scenario, turns, progress, stop_on_failure)
            pool.shutdown(cancel_futures=True)
    summary.seconds = time.perf_counter() - start
    return summary


@dataclass(frozen=True)
class _GameSpec:
    """What every game of one ``simulate`` run shares."""

    players: int
    turns: int
    victory: str
    scenario: Optional[str]
    difficulty: Optional[str]
    bot: str
    check: bool
    options: tuple[str, ...] = ()


def _play_one(engine: Engine, game: _GameSpec, seed: int) -> tuple[GameResult, "FlightCounter"]:
    setup = default_setup(engine, game.players, game.turns, victory=game.victory, scenario=game.scenario,
                          difficulty=game.difficulty, options=game.options)
    counter = FlightCounter()
    started = time.perf_counter()
    result = play_game(engine, setup, seed, max_turns=None if game.scenario else game.turns,
                       on_action=counter.__call__, bot_kind=game.bot, check=game.check)  # (see play_game's checks)
    result.play_seconds = time.perf_counter() - started
    return result, counter


_WORKER: dict = {}


def _worker_start(engine: Engine, game: _GameSpec) -> None:
    _WORKER["engine"], _WORKER["game"] = engine, game
    gc.freeze()  # a worker only plays: the collector as _collector_for_play sets it, for the worker's life
    gc.set_threshold(*_PLAY_THRESHOLDS)


#: The collector's thresholds while games are played: a bot game makes and drops frozen values by the thousand
#: and next to no cycles, so a young-generation pass every 700 allocations (Python's default) mostly walks live
#: states for nothing.
_PLAY_THRESHOLDS = (10_000, 50, 50)


@contextmanager
def _collector_for_play():
    """Python's garbage collector tuned for playing games, and put back as it was after: what lives before
    play (the rules, the engine, the modules) is frozen out of its passes and they come less often. Only the
    time changes (no rule, bot or cache reads the collector), so the games are the same. About 3-10% more games
    a second (A/B, medians of 5: program, random, Stop The Rock)."""
    thresholds = gc.get_threshold()
    gc.freeze()
    gc.set_threshold(*_PLAY_THRESHOLDS)
    try:
        yield
    finally:
        gc.set_threshold(*thresholds)
        gc.unfreeze()


def _worker_play(seed: int) -> tuple[GameResult, "FlightCounter"]:
    return _play_one(_WORKER["engine"], _WORKER["game"], seed)


def _total(engine: Engine, summary: SimSummary, played: Iterable[tuple[GameResult, "FlightCounter"]],
           scenario: Optional[str], turns: int, progress: Optional[Callable[[GameResult], None]],
           stop_on_failure: bool) -> None:
    """Add each game's result to ``summary`` in game order (stopping at the first failure if asked)."""
    for result, counter in played:
        summary.count_outcome(engine, result.final if result.failure is None else None)
        summary.games += 1
        summary.actions += len(result.actions)
        summary.check_seconds += result.check_seconds
        summary.play_seconds += result.play_seconds
        summary.turns += result.turns if scenario else min(result.turns, turns)
        summary.launches += counter.launches
        summary.booms += counter.booms
        summary.landings += counter.landings
        summary.fights += counter.fights
        summary.ship_fights += counter.ship_fights
        summary.repels += counter.repels
        summary.underped_launches += counter.underped_launches
        summary.underped_firsts += counter.underped_firsts
        if result.final is not None:
            summary.wars += len(result.final.wars)
            summary.open_wars += sum(1 for w in result.final.wars if w.open)
            summary.derps_lost += sum(1 for d in result.final.derps if d.dead and not d.is_system)
            summary.systems_lost += sum(1 for d in result.final.derps if d.dead and d.is_system)
            summary.firsts += len(result.final.firsts)
        if progress is not None:
            progress(result)
        if result.failure is not None:
            summary.invariant_failures += 1
            if summary.first_failure is None:
                summary.first_failure = str(result.failure)
            if stop_on_failure:
                break
