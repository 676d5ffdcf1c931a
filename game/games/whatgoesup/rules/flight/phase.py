"""The flight phase plugged into the engine's questions, and driven through its stages.

Whose turn it is, the chance outcomes, the legal actions and applying one; then carrying the phase
on (launches, orbital insertions, flight steps, each in timing order) until someone must choose or
a die must be rolled.
"""
from __future__ import annotations

import functools
import operator
from fractions import Fraction
from typing import Callable, Optional

from game.core.interface import CHANCE, TERMINAL, IllegalAction
from game.games.whatgoesup.rules.actions import Action, Roll
from game.games.whatgoesup.rules.dice import Distribution, cluster_distribution
from game.games.whatgoesup.rules.flight.common import FlightBase, FlightPhase, PendingRoll, without
from game.games.whatgoesup.rules.flight.ship_combat import OpenFire
from game.games.whatgoesup.rules.flight_actions import (Burn, CatchUp, ChooseConsequence, Coast, Deploy, Dock,
    EndActivities, Eva, Hold, JuryRig, Launch, Move, Nudge, Retag, Shed, StartFight, Transfer, Undock, UsePayload,
    VisitTemple, Wait, WalkOutside, WriteOff)
from game.games.whatgoesup.rules.flight_actions import Recover, Separate, SwitchPayload
from game.games.whatgoesup.rules.reliability import Outcome, Rating, outcome_odds
from game.games.whatgoesup.rules.state import Event, GameState, Item, Upgoer, removed, replace_in, update


#: The flights as they open, before the craft on the pads are queued (immutable: one value serves every turn).
_LAUNCHES = FlightPhase(stage="launch")

#: The mode a craft starts its turn in, per stage of the flights.
_FIRST_MODE = {"launch": "decide", "insertion": "insertion", "moves": "before"}


class PhasePart(FlightBase):
    """The engine's questions during flights, and the driving of the phase."""

    # ------------------------------------------------------------------ engine hooks
    def current_player(self, state: GameState) -> int:
        f: FlightPhase = state.flight
        if f.timing_tie:
            return CHANCE
        if f.roll is not None:
            if f.roll.value is None:
                return CHANCE
            return state.upgoer(f.roll.upgoer).owner
        hostility = self._hostility_player(state)
        if hostility is not None:
            return hostility
        if f.ship_fight is not None:
            return self.ship_fight_player(state)
        if f.choice is not None:
            return state.upgoer(f.choice.upgoer).owner
        if f.active is not None:
            return state.upgoer(f.active).owner
        return TERMINAL

    def chance_outcomes(self, state: GameState) -> list[tuple[Roll, Fraction]]:
        f: FlightPhase = state.flight
        if f.timing_tie:
            share = Fraction(1, len(f.timing_tie))
            return [(Roll(i + 1), share) for i in range(len(f.timing_tie))]
        if f.roll is None and f.fight is not None and not f.fight.to_pick:
            return self._fight_outcomes(state)
        if f.roll is None and f.ship_fight is not None:
            return self._ship_fight_outcomes(state)
        if f.roll is None or f.roll.value is not None:
            return []
        return list(self._dice(state.setup.dice, f.roll.dice_sets)[1])

    def distribution(self, state: GameState, roll: PendingRoll) -> Distribution:
        """The exact distribution of ``roll``'s dice: the game's dice scheme, clustered over its dice sets."""
        return self._dice(state.setup.dice, roll.dice_sets)[0]

    def _dice(self, dice: str, dice_sets: int) -> tuple[Distribution, tuple[tuple[Roll, Fraction], ...]]:
        """The distribution of a roll of ``dice_sets`` clustered sets of the scheme ``dice``, and its outcomes as
        chance actions: worked out once per engine (its rules never change)."""
        key = (dice, dice_sets)
        kept = self._kept_dice.get(key)
        if kept is None:
            scheme = self.rules.dice.scheme(dice)
            clustering = self.rules.components.clustering
            distribution = cluster_distribution(scheme.distribution(), dice_sets, clustering.average_up_to,
                                                clustering.average_rounding)
            kept = self._kept_dice[key] = (distribution, tuple((Roll(v), p) for v, p in distribution))
        return kept

    def _dice_values(self, dice: str, dice_sets: int) -> frozenset[int]:
        """The values a roll of ``dice_sets`` clustered sets of the scheme ``dice`` can come up with."""
        key = (dice, dice_sets)
        values = self._kept_dice_values.get(key)
        if values is None:
            values = self._kept_dice_values[key] = frozenset(v for v, _ in self._dice(dice, dice_sets)[0])
        return values

    def roll_odds(self, state: GameState, roll: Optional[PendingRoll] = None) -> dict[Outcome, Fraction]:
        """Exact odds of the pending roll as it stands (raises already spent included)."""
        roll = roll or state.flight.roll
        return outcome_odds(self.distribution(state, roll), roll.effective())

    def legal_actions(self, state: GameState) -> list[Action]:
        """Every flight action the acting program may take now, in ``_candidates``' order: exactly the
        candidates ``apply`` accepts (tests/test_fast_engine.py holds the two together).

        No candidate is played out: a mid-roll choice is judged by ``_roll_action_ok``, an activity by the
        check its handler makes before doing anything (``_action_checks``), a boarding's or a fight's answer
        likewise (``_hostility_legal``, ``_ship_fight_legal``): the same functions that refuse a single
        proposed action. Only dice (chance's, never a program's choice) are judged by applying them.
        """
        f: FlightPhase = state.flight
        if f.timing_tie:
            return []  # a coin decides (CHANCE), nobody chooses
        if f.roll is not None:
            if f.roll.value is None:
                return []
            return [a for a in self._roll_candidates(state, f.roll) if self._roll_action_ok(state, f.roll, a) is None]
        hostile = self._hostility_legal(state)
        if hostile is not None:
            return hostile
        if f.ship_fight is not None:
            return self._ship_fight_legal(state)
        if f.choice is not None:
            return [ChooseConsequence(o) for o in f.choice.options]
        if f.active is None:
            return []
        upgoer = state.upgoer(f.active)
        return [a for a in self._activity_candidates(state, upgoer) + self._underped_candidates(state, upgoer)
                if self._activity_allowed(state, upgoer, a)]

    @functools.cached_property
    def _activity_handlers(self) -> dict[type, Callable[[GameState, Upgoer, Action], GameState]]:
        """Action type -> what does it for the active craft (each refuses with IllegalAction)."""
        return {
            Launch: self._launch, Hold: self._hold, Wait: self._wait, Move: self._move, Burn: self._burn,
            Coast: self._coast, EndActivities: self._end_activities, Dock: self._dock, Undock: self._undock,
            Transfer: self._transfer, Eva: self._eva, JuryRig: self._jury_rig, UsePayload: self._use_payload,
            Shed: self._shed, WriteOff: self._write_off, CatchUp: self._catch_up,
            Nudge: self._nudge, WalkOutside: self._walk_outside, VisitTemple: self._visit_temple,
            Deploy: self._deploy, Retag: self._retag, StartFight: self._start_fight,
            OpenFire: self._open_fire,
            SwitchPayload: self._switch_payload, Recover: self._recover, Separate: self._separate,
            **self._underped_handlers(),
        }

    @functools.cached_property
    def _action_checks(self) -> dict[type, Callable[[GameState, Upgoer, Action], object]]:
        """Action type -> the check its handler makes first: raises IllegalAction (the reason) when the action
        is refused, and once it passes the handler never refuses (``_underped_check`` aside, asked as well)."""
        checks = {
            Launch: self._check_launch, Hold: self._check_hold, Wait: self._check_wait, Move: self._check_move,
            Burn: self._check_burn, Coast: self._check_coast, EndActivities: self._check_end_activities,
            Dock: self._check_dock, Undock: self._check_undock, Transfer: self._check_transfer, Eva: self._check_eva,
            JuryRig: self._check_jury_rig, UsePayload: self._check_use_payload, Shed: self._check_shed,
            WriteOff: self._check_write_off, CatchUp: self._check_catch_up, Nudge: self._check_nudge,
            WalkOutside: self._check_walk_outside, VisitTemple: self._check_visit_temple, Deploy: self._check_deploy,
            Retag: self._check_retag, StartFight: self._check_start_fight, OpenFire: self._check_open_fire,
            SwitchPayload: self._check_switch_payload, Recover: self._check_recover, Separate: self._check_separate,
            **self._underped_checks(),
        }
        assert checks.keys() == self._activity_handlers.keys()  # every activity has its check
        return checks

    def allowed(self, state: GameState, action: Action) -> Optional[bool]:
        """Whether ``apply`` accepts ``action`` now, told without playing it out: a choice during a rolled roll
        by ``_roll_action_ok``, a consequence by the choice's options, an activity of the active craft by the
        check its handler makes first (any other action is refused then); None when only playing it out can
        tell (dice, a coin, a boarding's or a fight's answers: ``Engine.allowed`` then asks ``refusal``)."""
        f: FlightPhase = state.flight
        if f.timing_tie:
            return None
        if f.roll is not None:
            return None if f.roll.value is None else self._roll_action_ok(state, f.roll, action) is None
        if f.fight is not None or f.boarding is not None or f.ship_fight is not None:
            return None
        if f.choice is not None:
            return isinstance(action, ChooseConsequence) and action.option in f.choice.options
        if f.active is None or type(action) not in self._action_checks:
            return None
        return self._activity_allowed(state, state.upgoer(f.active), action)

    def check(self, state: GameState, action: Action) -> None:
        """Raise IllegalAction with the reason ``apply`` would give when ``action`` is refused now, without
        playing it out where the state tells (a coin, a roll's die or choice, a consequence, an activity of the
        active craft: the checks ``_apply`` makes before doing anything); a boarding's or a fight's answer is
        played out (without carrying the phase on). tests/test_fast_engine.py holds it to playing out."""
        f: FlightPhase = state.flight
        if f.timing_tie:
            self._check_coin(f.timing_tie, action)
            return
        if f.roll is not None:
            self._check_roll_action(state, f.roll, action)
            return
        if f.fight is not None or f.boarding is not None or f.ship_fight is not None:
            self._apply(state, action)
            return
        if f.choice is not None:
            self._check_choice(f.choice, action)
            return
        self._check_activity(state, action)

    @staticmethod
    def _check_coin(tied: tuple[str, ...], action: Action) -> None:
        if not isinstance(action, Roll) or not 1 <= action.value <= len(tied):
            raise IllegalAction("a coin decides who goes first")

    @staticmethod
    def _check_choice(choice, action: Action) -> None:
        if not isinstance(action, ChooseConsequence) or action.option not in choice.options:
            raise IllegalAction("choose one of: " + ", ".join(o.replace("_", " ") for o in choice.options))

    def _activity_handler(self, state: GameState, action: Action) -> tuple[Upgoer, Callable]:
        """The active craft and the handler of ``action`` (nothing else pending), its underped check passed;
        raises IllegalAction when there is no such activity now. The handler makes its own check first."""
        f: FlightPhase = state.flight
        if isinstance(action, Roll):
            raise IllegalAction("no roll is pending")
        if f.active is None:
            raise IllegalAction("no Upgoer is flying now")
        upgoer = state.upgoer(f.active)
        handler = self._activity_handlers.get(type(action))
        if handler is None:
            raise IllegalAction(f"'{action}' cannot be done now")
        self._underped_check(state, upgoer, action)
        return upgoer, handler

    def _check_activity(self, state: GameState, action: Action) -> None:
        """Raise IllegalAction when the active craft may not take ``action`` now (nothing else pending): the
        checks ``_apply`` makes, then the one its handler makes first (after which it never refuses)."""
        upgoer, _ = self._activity_handler(state, action)
        self._action_checks[type(action)](state, upgoer, action)

    def _activity_allowed(self, state: GameState, upgoer: Upgoer, action: Action) -> bool:
        """Whether the active craft's ``upgoer`` may take ``action`` now (no roll, choice or fight pending)."""
        check = self._action_checks.get(type(action))
        if check is None:
            return self._allowed(state, action)
        try:
            check(state, upgoer, action)
            self._underped_check(state, upgoer, action)
        except IllegalAction:
            return False
        return True

    def trade_closed(self, state: GameState) -> Optional[str]:
        """Why programs cannot trade at this moment of the flights, or None when they may.

        "Trading can happen at any time except during a timing-sensitive situation": a launch decision
        (launches go in timing order), a roll, its consequence, a coin toss, or a craft between its junctions
        is in the middle of something. A craft taking its activities before or after moving is not.
        """
        f: FlightPhase = state.flight
        if f is None:
            return "no flight is under way"
        if f.roll is not None or f.choice is not None or f.timing_tie:
            return "a roll is being settled: trade once it is over"
        if f.ship_fight is not None or f.fight is not None or f.boarding is not None:
            return "a fight or a boarding is under way: trade once it is over"
        if f.mode == "decide":
            return "launches go in timing order: trade once this craft has launched or stayed on the pad"
        if f.active is None or f.mode not in ("before", "after"):
            return "a craft is on the move: trade once it stops"
        return None

    def _allowed(self, state: GameState, action: Action) -> bool:
        try:
            self.apply(state, action, drive=False)
        except IllegalAction:
            return False
        return True

    def apply(self, state: GameState, action: Action, drive: bool = True) -> GameState:
        """Apply a flight-phase action; with ``drive`` the phase is then carried on to the next decision.

        Legality checks pass ``drive=False``: whether an action is allowed never depends on what follows,
        and carrying the phase on would check the next craft's choices, and so on down the queue.
        """
        state = self._apply(state, action, drive)
        return self._drive(state) if drive else state

    def _apply(self, state: GameState, action: Action, drive: bool = False) -> GameState:
        """``action`` played out; with ``drive``, a roll it leaves to settle at once is settled in the same copy
        of the state (``_drive`` would settle it next, from the state in between), and a Move makes its first
        step along the rail in the copy that starts it."""
        f: FlightPhase = state.flight
        if f.timing_tie:
            self._check_coin(f.timing_tie, action)
            winner = f.timing_tie[action.value - 1]
            state = self._set(state, timing_tie=())
            state = self._activate(state, winner, [Event(f"A coin toss: {state.upgoer(winner).name} goes first.",
                                                         kind="timing")])
            return state
        if f.roll is not None:
            return self._apply_roll_action(state, action, drive)
        answered = self._hostility_apply(state, action)
        if answered is not None:
            return answered
        if f.ship_fight is not None:
            return self._ship_fight_apply(state, action)
        if f.choice is not None:
            self._check_choice(f.choice, action)
            return self._choose(state, action.option)
        upgoer, handler = self._activity_handler(state, action)
        if drive and type(action) is Move and not self.underped_in_play(state):
            # Moving on with no system to pay for it (nor orders to cross off): the move's first step along the
            # rail is made in the same copy of the state (``_drive`` would make it next, nothing before it).
            self._check_move(state, upgoer, action)
            return self._start_moving(state, upgoer, travel=True)
        after = self._underped_cost(state, handler(state, upgoer, action), upgoer, action)
        return self._order_taken(after, upgoer, action) if self.clockwork(state, upgoer) else after

    def _candidates(self, state: GameState) -> list[Action]:
        f: FlightPhase = state.flight
        if f.roll is not None:
            return self._roll_candidates(state, f.roll)
        hostile = self._hostility_candidates(state)
        if hostile is not None:
            return hostile
        if f.ship_fight is not None:
            return self._ship_fight_candidates_now(state)
        if f.choice is not None:
            return [ChooseConsequence(o) for o in f.choice.options]
        if f.active is None:
            return []
        upgoer = state.upgoer(f.active)
        return self._activity_candidates(state, upgoer) + self._underped_candidates(state, upgoer)

    # ------------------------------------------------------------------ the flight phase
    def begin_flights(self, state: GameState, told: tuple[Event, ...] = (), **changes) -> GameState:
        """Start the flight phase after every program has finished R&D: ``told`` first in its story and
        ``changes`` (the programs, done with R&D) made in the same copy of the state (nothing here reads them)."""
        # Only what changes is copied (the rest, and the tuples' indexes, are shared with the state before). The pools
        # are read by comprehensions: Python 3.11 reads an attribute in one in fewer instructions than map(attrgetter)
        # does (state._selected), and a short pool (a Stop The Rock game's few parts and one craft) costs no iterators.
        upgoers, items = state.upgoers, state.items
        # Debris nobody chose to track during R&D leaves the board.
        dropped = [u for u in upgoers if u.status == "debris" and u.tracked_by is None]
        events = [Event(f"Nobody tracks the debris of {u.name}; it drifts out of sight.", kind="flight")
                  for u in dropped]
        if dropped:
            gone = {u.id for u in dropped}
            upgoers = without(upgoers, gone)
            # Docking is recorded on both craft: a craft docked to debris that leaves lets go of it.
            partners = [update(u, docked_with=tuple(x for x in u.docked_with if x not in gone))
                        for u in upgoers if u.docked_with and not gone.isdisjoint(u.docked_with)]
            if partners:
                upgoers = replace_in(upgoers, partners)
            items = removed(items, [n for n, i in enumerate(items) if i.location in gone])
        unusable = [update(i, unusable_this_turn=False) for i in items if i.unusable_this_turn]
        if unusable:
            items = replace_in(items, unusable)
        reset = [update(u, moved_this_turn=False, habitat_failed=False, orders_open=False)
                 for u in upgoers if u.moved_this_turn or u.habitat_failed or u.orders_open]
        if reset:
            upgoers = replace_in(upgoers, reset)
        # The first stage with anyone queued opens in the same copy, as ``_drive`` would open it next (nobody
        # has launched yet, so no insertion comes before the moves); with nobody to fly, the flights end at once.
        pads = tuple([u.id for u in upgoers if u.status == "pad"])
        opening = self._stage_start("launch", pads) or self._stage_start("moves", self._moves_queue(upgoers))
        state = update(state, upgoers=upgoers, items=items, phase="flight",
                       flight=_LAUNCHES if opening is None else update(_LAUNCHES, **opening),
                       events=told + tuple(events) + (Event(f"Flights of turn {state.turn} begin.", kind="turn"),),
                       **changes)
        return self._drive(state) if opening is not None else self._end_flights(state)

    def _drive(self, state: GameState) -> GameState:
        """Carry the phase forward until someone must choose or a die must be rolled."""
        for _ in range(10000):
            f: FlightPhase = state.flight
            if state.phase != "flight":
                return state
            if f.timing_tie or f.choice is not None:
                return state
            if f.roll is None and (f.boarding is not None or f.fight is not None):
                return state  # a defender's answer, a pick or a fight's die
            if f.roll is None and f.ship_fight is not None:
                return state  # a ship fight's die, hit or turn
            if f.roll is not None:
                if f.roll.value is None or self._needs_decision(state, f.roll):
                    return state
                state = self._settle(state)
                continue
            if f.active is None:
                state = self._next_owed_activities(state) if f.docked_after else self._next_upgoer(state)
                continue
            upgoer = state.find("upgoer", f.active)
            if upgoer is None or upgoer.status not in ("flying", "pad", "debris") or (
                    upgoer.moved_this_turn and f.mode != "after"):  # after moving come the activities after
                state = self._set(state, active=None, mode="", cursor_decided=None, retry_burn=None)
                continue
            if f.mode == "moving":
                state = self._travel(state, upgoer)
                continue
            if f.mode == "insertion":
                state = self._insertion(state, upgoer)
                continue
            if f.mode == "before" and not self._has_choices(state, upgoer, "before"):
                state = self._start_moving(state, upgoer, travel=True)  # its first step: what comes next here
                continue
            if f.mode == "after" and not self._has_choices(state, upgoer, "after"):
                state = self._finish_upgoer(state, upgoer)
                continue
            return state
        raise RuntimeError("the flight phase did not settle")  # a bug, never a player's doing

    def _has_choices(self, state: GameState, upgoer: Upgoer, mode: str) -> bool:
        """Whether the owner has anything to decide besides moving on / ending."""
        if mode == "after" and "plan_ahead" in state.setup.options:
            return False
        # Writing the craft off is on every menu before and after moving and is nearly always allowed: asked
        # first, it answers without listing the menu (the answer is the same, only found sooner).
        if self._activity_allowed(state, upgoer, WriteOff(upgoer.id)):
            return True
        return any(not isinstance(a, (Move, EndActivities)) and self._activity_allowed(state, upgoer, a)
                   for a in self._activity_candidates(state, upgoer))

    def _stage_order_key(self, state: GameState, upgoer_id: str) -> tuple:
        """Who goes first in this stage: the smallest key (not yet waited, best timing score with its rush, fewest
        dots). The score is kept per craft while the craft, the state's items and things and the stage stay the
        very same values (it reads nothing else), so the craft still queued are not scored again each time one
        of them has gone: a craft that held or waited changed none of the others'. When the items or things
        changed, it still stands while the craft's own parts and their blueprints are the same values
        (``_timing_inputs``): another craft's roll or dropped stage changes none of them."""
        upgoer = state.upgoer(upgoer_id)
        f: FlightPhase = state.flight
        kept = self._kept_timing.get(upgoer_id)
        parts = None
        if kept is not None and kept[0] is upgoer and kept[3] == f.stage:
            if kept[1] is state.items and kept[2] is state.things:
                return (upgoer_id in f.waited, -(kept[4] + upgoer.rush), state.programs[upgoer.owner].dots)
            # Another craft's parts changed (a roll, a stage dropped): the score stands while this craft's own
            # parts and their blueprints are the very same values.
            parts = self._timing_inputs(state, upgoer, f.stage)
            if len(parts) == len(kept[5]) and all(map(operator.is_, parts, kept[5])):
                self._kept_timing[upgoer_id] = kept[:1] + (state.items, state.things) + kept[3:]
                return (upgoer_id in f.waited, -(kept[4] + upgoer.rush), state.programs[upgoer.owner].dots)
        score = self._timing_score(state, upgoer)
        if len(self._kept_timing) >= 64:
            self._kept_timing.clear()  # craft of games gone by: their pools are let go
        self._kept_timing[upgoer_id] = (upgoer, state.items, state.things, f.stage, score,
                                        parts if parts is not None else self._timing_inputs(state, upgoer, f.stage))
        return (upgoer_id in f.waited, -(score + upgoer.rush), state.programs[upgoer.owner].dots)

    @staticmethod
    def _timing_inputs(state: GameState, upgoer: Upgoer, stage: str) -> tuple:
        """Everything of the state a craft's timing score in ``stage`` reads besides the craft and the stage: at
        the launch or the insertion with a stage left, the parts of the stage that rolls (``_timing_parts``: the
        lowest, the last; None for one gone), else the parts aboard and its stages' parts; then the blueprint of
        each. (A pad's queue asks again after every launch: its lowest stages are a few parts, where all it
        carries are many, read out of a long pool.)"""
        if stage in ("launch", "insertion") and upgoer.stages:
            rolling = upgoer.stages[0] if stage == "launch" else upgoer.stages[-1]
            items = tuple([state.find("item", i) for i in rolling])
        else:
            items = state.items_at(upgoer.id) + tuple(state.find("item", i) for cluster in upgoer.stages for i in cluster)
        return items + tuple(state.thing(i.thing_id) for i in items if i is not None)

    def _timing_score(self, state: GameState, upgoer: Upgoer) -> int:
        """How likely the craft's next mission step is to work, for the timing order (flight.yaml timing_by)."""
        items = self._timing_parts(state, upgoer)
        if not items:
            return 0
        # The parts roll as one (a cluster's combined roll against its worst rating), so the craft is as
        # likely to work as that combined rating: its safeties, not the sum over every part.
        ratings = [self.engine.item_rating(state, i) for i in items]
        combined = Rating(min(r.fail for r in ratings), min(r.boom for r in ratings))
        # flight.yaml timing_by: both safeties added (2014), or the Fail safety alone (2013).
        return combined.fail if self.table.timing_by == "fail_safety" else combined.score()

    def _timing_parts(self, state: GameState, upgoer: Upgoer) -> list[Item]:
        """The parts the craft's next mission step rolls: the launch cluster, the insertion cluster, or, when
        moving, the parts that roll where its rail next ends a move (a burn is decided later, on the way)."""
        f: FlightPhase = state.flight
        if f.stage == "launch" and upgoer.stages:
            return [state.item(i) for i in upgoer.stages[0]]
        if f.stage == "insertion" and upgoer.stages:
            return [state.item(i) for i in upgoer.stages[-1]]
        if f.stage != "moves" or upgoer.status != "flying":
            return self._modules(state, upgoer, "capsule") + self._modules(state, upgoer, "habitat")
        step = self.board.step(upgoer.location)
        for _ in range(len(self.board.steps)):
            if step.next is None:
                break
            step = self.board.step(step.next)
            if step.kind in ("reentry", "landing"):
                return self._descent_rollers(state, upgoer)
            if step.is_duration:
                break
        return self._modules(state, upgoer, "capsule") + self._modules(state, upgoer, "habitat")

    def _next_owed_activities(self, state: GameState) -> GameState:
        """A docked partner carried by another's move takes its activities after moving (if still flying)."""
        f: FlightPhase = state.flight
        partner = state.find("upgoer", f.docked_after[0])
        state = self._set(state, docked_after=f.docked_after[1:])
        if partner is None or partner.status != "flying":
            return state
        return self._set(state, active=partner.id, mode="after", cursor_decided=None, retry_burn=None,
                         hurt=frozenset())

    def _next_upgoer(self, state: GameState) -> GameState:
        f: FlightPhase = state.flight
        queue = [u for u in f.queue if state.find("upgoer", u) is not None]
        if not queue:
            return self._next_stage(state)
        if len(queue) == 1:  # nobody to be ordered against: its timing key would not be looked at
            return self._activate(state, queue[0], [])
        keys = {u: self._stage_order_key(state, u) for u in queue}
        best = min(keys.values())
        tied = tuple(sorted(u for u in queue if keys[u] == best))
        if len(tied) > 1 and len({state.upgoer(u).owner for u in tied}) > 1:
            return self._set(state, timing_tie=tied)
        return self._activate(state, tied[0], [])

    def _activate(self, state: GameState, upgoer_id: str, events: list[Event]) -> GameState:
        f: FlightPhase = state.flight
        queue = tuple(u for u in f.queue if u != upgoer_id)
        state = self._set(state, queue=queue, **self._activation(f.stage, upgoer_id))
        return self._say(state, events)

    @staticmethod
    def _activation(stage: str, upgoer_id: str) -> dict:
        """The changes to the flight that make ``upgoer_id`` the active craft, starting its turn in ``stage``."""
        return {"active": upgoer_id, "mode": _FIRST_MODE[stage], "cursor_decided": None, "retry_burn": None,
                "hurt": frozenset()}

    def _next_stage(self, state: GameState) -> GameState:
        """The next stage with anyone in its queue, in one copy of the state; its only craft is made active in the
        same copy. A stage with nobody queued is passed over without a copy of its own (``_drive`` would pass it
        at once: nobody is active, no partner is owed its activities, no roll or answer waits), and so is the
        queue of one (``_next_upgoer`` would activate it next, with nobody to be ordered against)."""
        stage = state.flight.stage
        while stage != "moves":
            if stage == "launch":
                stage = "insertion"
                queue = tuple(u for u in state.flight.launched if state.find("upgoer", u) is not None)
            else:
                stage = "moves"
                queue = self._moves_queue(state.upgoers)
            start = self._stage_start(stage, queue)
            if start is not None:
                return self._set(state, **start)
        return self._end_flights(state)

    @staticmethod
    def _moves_queue(upgoers: tuple[Upgoer, ...]) -> tuple[str, ...]:
        """Who is queued for the moves stage: every flying craft that has not moved this turn, in order."""
        return tuple([u.id for u in upgoers if u.status == "flying" and not u.moved_this_turn])

    @classmethod
    def _stage_start(cls, stage: str, queue: tuple[str, ...]) -> Optional[dict]:
        """The changes to the flight that start ``stage`` with ``queue`` queued (a lone craft made active at once:
        it would not be ordered against anyone), or None when nobody is queued."""
        if len(queue) == 1:
            return {"stage": stage, "queue": (), "waited": frozenset(), **cls._activation(stage, queue[0])}
        if queue:
            return {"stage": stage, "queue": queue, "waited": frozenset()}
        return None

    def _check_wait(self, state: GameState, upgoer: Upgoer, a: Wait) -> None:
        f: FlightPhase = state.flight
        if a.upgoer != upgoer.id or f.mode not in ("decide", "before", "insertion") or upgoer.id in f.waited:
            raise IllegalAction("an Upgoer may wait for the others once, before it acts")
        if not f.queue:
            raise IllegalAction("nobody else is waiting to go")

    def _wait(self, state: GameState, upgoer: Upgoer, a: Wait) -> GameState:
        self._check_wait(state, upgoer, a)
        f: FlightPhase = state.flight
        return self._set_saying(state, self._told(f"{upgoer.name} waits and lets the others go first.", upgoer, "timing"),
                                active=None, mode="", queue=f.queue + (upgoer.id,), waited=f.waited | {upgoer.id})
