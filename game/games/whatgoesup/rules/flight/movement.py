"""Moving along the rails.

Following the track from step to step, the burn junctions (a burn, an RCS burn or coasting on),
what each step entered asks for, and the end of a move at a duration step, where the capsules and
habitats roll.
"""
from __future__ import annotations

from typing import Optional

from game.core.interface import IllegalAction
from game.games.whatgoesup.rules import formulas
from game.games.whatgoesup.rules.board import THRUST_ORDER
from game.games.whatgoesup.rules.flight.common import FlightBase, FlightPhase, PendingRoll, _with_flight
from game.games.whatgoesup.rules.flight_actions import Burn, Coast, EndActivities, Move
from game.games.whatgoesup.rules.reliability import Outcome
from game.games.whatgoesup.rules.state import Derp, GameState, Upgoer, replace_in, update
from game.core.words import counted

#: The changes to the flight that start a craft's move along the rail.
_MOVING = {"mode": "moving", "cursor_decided": None, "retry_burn": None}
#: The changes to the flight as the craft enters a step (``_go_to``).
_ENTERING = {"mode": "moving", "cursor_decided": None, "retry_burn": None, "hurt": frozenset()}


class MovementPart(FlightBase):
    """Movement along the rails: steps, burns, coasting and arriving."""

    def _check_move(self, state: GameState, upgoer: Upgoer, a: Move) -> None:
        if state.flight.mode != "before" or a.upgoer != upgoer.id:
            raise IllegalAction("move on once your activities before moving are done")

    def _move(self, state: GameState, upgoer: Upgoer, a: Move) -> GameState:
        self._check_move(state, upgoer, a)
        return self._start_moving(state, upgoer)

    def _start_moving(self, state: GameState, upgoer: Upgoer, travel: bool = False) -> GameState:
        """The active craft starts its move. With ``travel`` (when ``_drive`` would travel next, nothing else
        standing before it), its first step along the rail is made in the same copy of the state."""
        if travel:
            return self._travel(state, upgoer, _MOVING)
        return self._set(state, **_MOVING)

    def _travel(self, state: GameState, upgoer: Upgoer, moving: Optional[dict] = None) -> GameState:
        """Follow the rail from the current step until a decision, a roll or a stop. ``moving``: the changes to
        the flight that start the move (``_start_moving``), made in the same copy."""
        f: FlightPhase = state.flight
        step = self.board.step(upgoer.location)
        scenario = self._scenario(state)
        burns = self.board.burns_from(step.id, scenario)
        cursor = f.cursor_decided if moving is None else moving["cursor_decided"]
        if burns and cursor != step.id and self.can_steer(state, upgoer):
            return self._set(state, **dict(moving or {}, mode="junction"))
        if step.next is None:
            # A surface step with no burn taken: the craft stays where it is for this turn.
            return self._arrive(state, upgoer, step.id, stayed=True, moving=moving)
        return self._go_to(state, upgoer, step.next)  # which starts the move afresh (mode, cursor, retry burn)

    def _go_to(self, state: GameState, upgoer: Upgoer, step_id: str, fallback: bool = False,
               said: tuple = ()) -> GameState:
        """Enter a step and do what it asks; ``said``: what the caller tells first, in the copy that enters it."""
        step = self.board.step(step_id)
        upgoer = update(upgoer, location=step.id)
        if step.is_duration:
            # The move ends here: the craft put in and the move's end made in one copy (``_arrive`` reads neither
            # the craft's own place in the pool nor the flight's mode). Hostile Waters: the rolls for a new
            # position are set before it counts as visited.
            return self._visit(self._arrive(state, upgoer, step.id, moving=_ENTERING, said=said), upgoer, step.id)
        state = _with_flight(state, _ENTERING, said, replace_in(state.upgoers, [upgoer]))
        if step.kind in ("reentry", "landing"):
            return self._visit(self._descend(state, upgoer, step), upgoer, step.id)
        state = self._visit(state, upgoer, step.id)
        upgoer = state.upgoer(upgoer.id)
        if step.kind == "home":
            return self._land_home(state, upgoer)
        if step.kind == "escape":
            return self._escape(state, upgoer)
        if step.kind in ("lunar_landing", "rock_docking"):
            # Reached without the burn that lands: the craft passes by and carries on.
            return self._go_to(state, upgoer, step.fallback)
        return state  # a junction: _travel decides there

    # ------------------------------------------------------------------ burns
    def _check_burn(self, state: GameState, upgoer: Upgoer, a: Burn) -> None:
        """Refuse a burn (IllegalAction with the reason) that ``_burn`` would not make."""
        if state.flight.mode != "junction":
            raise IllegalAction("burns are made at a burn junction while moving")
        here = self.board.step(upgoer.location)
        options = {b.to: b for b in self.board.burns_from(here.id, self._scenario(state))}
        if a.to not in options:
            names = ", ".join(f"{b.name} (to {self.board.step(b.to).name})" for b in options.values())
            raise IllegalAction(f"from {here.name} you can burn: {names}")
        option = options[a.to]
        target = self.board.step(a.to)
        if not self.can_steer(state, upgoer):
            raise IllegalAction(f"{upgoer.name} cannot be steered (it needs a working capsule and a healthy derp)")
        if target.kind == "escape" and self._living_crew(state, upgoer):
            raise IllegalAction("the derps would never come home: only a probe is sent out of the world's pull")
        if a.rcs:
            if not self.board.rcs_can_make(option):
                raise IllegalAction(f"{option.name} cannot be done with RCS")
            uses = self.table.rock_docking_rcs_uses if target.kind == "rock_docking" else 1
            rcs = [i for i in self._modules(state, upgoer, "rcs") if (i.uses_left or 0) >= 1]
            if sum(i.uses_left or 0 for i in rcs) < uses or not rcs:
                raise IllegalAction(f"{upgoer.name} needs {counted(uses, 'RCS use')} left for that")
            if target.kind == "rock_docking":
                self._rock_docking_pilot(state, upgoer)  # refuses when no derp aboard can dock
            self._kept_burn_check = (state, upgoer, a)
            return
        if not self._craft_figure(state, upgoer, "thrusters", lambda s, u: bool(self._modules(s, u, "thruster"))):
            raise IllegalAction(f"{upgoer.name} has no working thruster")
        needed = THRUST_ORDER.index(option.thrust)
        have = self.thrust(state, upgoer)
        if have not in THRUST_ORDER or THRUST_ORDER.index(have) < needed:
            raise IllegalAction(f"{option.name} needs thrusters massing at least "
                                f"{self._thrust_fraction(option.thrust)} of the capsules; {upgoer.name}'s are {have.replace('_', ' ')}")
        cost = self._burn_cost(state, upgoer)
        if upgoer.fuel < cost:
            raise IllegalAction(f"{option.name} costs {cost} fuel and {upgoer.name} has {upgoer.fuel}")
        self._kept_burn_check = (state, upgoer, a)

    def _burn_cost(self, state: GameState, upgoer: Upgoer) -> int:
        """The fuel one burn of the craft costs (economy.yaml's fuel formula over its spacecraft mass)."""
        return self._craft_figure(state, upgoer, "burn_cost", lambda s, u: formulas.fuel_for_burn(
            self.spacecraft_mass(s, u), self.rules.economy.fuel))

    def _burn(self, state: GameState, upgoer: Upgoer, a: Burn) -> GameState:
        kept = self._kept_burn_check
        # A bot asks whether the burn is allowed, then plays it in that very state: _check_burn, the one judge,
        # has just passed these very values (all immutable), so it is not run a second time.
        if kept is None or kept[0] is not state or kept[1] is not upgoer or kept[2] is not a:
            self._check_burn(state, upgoer, a)
        here = self.board.step(upgoer.location)
        option = {b.to: b for b in self.board.burns_from(here.id, self._scenario(state))}[a.to]
        target = self.board.step(a.to)
        if a.rcs:
            uses = self.table.rock_docking_rcs_uses if target.kind == "rock_docking" else 1
            rcs = [i for i in self._modules(state, upgoer, "rcs") if (i.uses_left or 0) >= 1]
            kind = "rock_docking_rcs" if target.kind == "rock_docking" else "rcs_burn"
            if target.kind == "rock_docking":
                # An RCS landing on the rock is a docking: a derp with the docking Piloting spends a stamina point.
                pilot = self._rock_docking_pilot(state, upgoer)
                state = self._spend(state, pilot)
                state = self._event(state, f"{pilot.name} steers {upgoer.name} in to dock with the rock.", upgoer)
            state = self._undock_all(state, upgoer, "to make its burn")
            upgoer = state.upgoer(upgoer.id)
            best = max(rcs, key=lambda i: self.engine.item_rating(state, i).score())
            roll = self._new_roll(state, kind, upgoer, [best], target.id, "burn_done", target=target.id,
                                  detail=(("uses", uses),))
            return self._queue_rolls(state, [roll])
        thrusters = self._modules(state, upgoer, "thruster")
        cost = self._burn_cost(state, upgoer)  # kept from the check (the same formula over the same figures)
        state = self._undock_all(state, upgoer, "to make its burn")
        upgoer = state.upgoer(upgoer.id)
        # Fuel is spent whether the burn works or not.
        upgoer = update(upgoer, fuel=upgoer.fuel - cost)
        best = max(thrusters, key=lambda i: self.engine.item_rating(state, i).score())
        kind = {"lunar_landing": "lunar_landing", "rock_docking": "rock_docking_burn"}.get(target.kind, "burn")
        roll = self._new_roll(state, kind, upgoer, [best], target.id, "burn_done", target=target.id,
                              detail=(("fuel", cost),))
        # The fuel spent, the roll queued and told in one copy (the roll reads the parts, never the craft pool).
        return self._queue_rolls(state, [roll], self._told(f"{upgoer.name} burns {cost} fuel: {option.name}.", upgoer),
                                 upgoer)

    def _rock_docking_pilot(self, state: GameState, upgoer: Upgoer) -> Derp:
        """The derp who docks with the rock by RCS: of the healthy crew with the docking Piloting and a stamina
        point, the one with the most stamina left (then the best pilot); refused with the reason when none can."""
        need = self.table.docking_min_piloting
        able = [d for d in self._healthy(state, upgoer) if self.piloting(state, d) >= need]
        if not able:
            raise IllegalAction(f"docking with the rock needs a derp with at least {need} Piloting aboard")
        rested = [d for d in able if d.current_stamina >= 1]
        if not rested:
            raise IllegalAction("docking with the rock costs a stamina point and the pilots aboard have none left")
        return max(rested, key=lambda d: (d.current_stamina, self.piloting(state, d)))

    def _thrust_fraction(self, thrust: str) -> str:
        ratios = self.rules.components.thruster
        value = {"orbital": ratios.min_ratio, "lunar": ratios.lunar_landing_ratio,
                 "planetary": ratios.planetary_landing_ratio}[thrust]
        return "the mass" if value == 1 else f"{value.numerator}/{value.denominator}"

    def _check_coast(self, state: GameState, upgoer: Upgoer, a: Coast) -> None:
        if state.flight.mode != "junction":
            raise IllegalAction("you can only coast past a burn junction")

    def _coast(self, state: GameState, upgoer: Upgoer, a: Coast) -> GameState:
        self._check_coast(state, upgoer, a)
        return self._set(state, mode="moving", cursor_decided=upgoer.location, retry_burn=None)

    def _burn_done(self, state: GameState, roll: PendingRoll, outcome: Outcome, flags: set[str]) -> GameState:
        upgoer = state.find("upgoer", roll.upgoer)
        if upgoer is None:
            return self._set(state, active=None, mode="")
        target = self.board.step(roll.target)
        if outcome is Outcome.OK:
            if roll.kind in ("rcs_burn", "rock_docking_rcs"):
                state = self._spend_rcs(state, upgoer, roll.items, dict(roll.detail).get("uses", 1))
            # On it moves: ``_go_to`` sets the flight moving in its first copy (nothing before it reads the mode).
            if target.kind in ("lunar_landing", "rock_docking"):
                state = self._visit(state, upgoer, target.id)
                upgoer = state.upgoer(upgoer.id)
                body = target.body or ""
                upgoer = update(upgoer, bodies_landed=upgoer.bodies_landed + ((body,) if body else ()))
                state = self._replace_upgoer(state, upgoer)
                state = self._event(state, f"{upgoer.name} touches down: {target.name}!", upgoer)
                state = self._go_to(state, upgoer, target.next)
                return self._temple_search(state, state.upgoer(upgoer.id), target)
            return self._go_to(state, upgoer, self.engine.rock_rules.intercept_landing(state, target.id))
        if "crash" in flags:
            state = self._event(state, f"{upgoer.name} hits the surface hard.", upgoer)
            state = self._kill(state, upgoer, self._crew(state, upgoer), "a crash landing")
            return self._destroy_upgoer(state, state.upgoer(upgoer.id), f"{upgoer.name} is destroyed.")
        if "stay" in flags:
            # Still hanging where it was: this ends the movement there, as a duration step.
            return self._arrive(state, upgoer, upgoer.location, stayed=True)
        # Cancelled: a retry is allowed at once; otherwise the player coasts on from the junction.
        return self._set(state, mode="junction")

    def _spend_rcs(self, state: GameState, upgoer: Upgoer, rolled: tuple[str, ...], uses: int) -> GameState:
        """An RCS burn that worked uses ``uses`` RCS uses (a deorbit one, the Rock docking two): the rolled RCS
        first, then the craft's others in order (the burn was allowed only with that many left aboard)."""
        rcs = [i for i in self._modules(state, upgoer, "rcs") if (i.uses_left or 0) >= 1]
        rcs.sort(key=lambda i: i.id not in rolled)  # stable: the rolled one first, the rest as they are aboard
        spent = []
        for item in rcs:
            if uses <= 0:
                break
            used = min(uses, item.uses_left or 0)
            spent.append(update(item, uses_left=(item.uses_left or 0) - used))
            uses -= used
        return self._replace_items(state, spent)

    # ------------------------------------------------------------------ the end of a move
    def _arrive(self, state: GameState, upgoer: Upgoer, step_id: str, stayed: bool = False,
                moving: Optional[dict] = None, said: tuple = ()) -> GameState:
        """Movement ends at a duration step: active capsules and habitats roll. ``moving``: the changes to the
        flight that started the move or entered the step, when they are made in the same copy (``_travel``,
        ``_go_to``); ``said``: what ``_go_to``'s caller tells first, in the first copy."""
        step = self.board.step(step_id)
        upgoer = update(upgoer, location=step.id, moved_this_turn=True)
        ended = dict(moving, mode="after") if moving else {"mode": "after", "cursor_decided": None}
        if not upgoer.docked_with and not (step.kind == "surface" and step.body
                                           and step.body not in upgoer.bodies_landed):
            # Nobody carried along and no body landed on: the craft put in, the move ended and its rolls queued
            # in one copy (the rolls read the parts, crew, programs and setup, never the craft pool or the flight).
            changes = self._queued(state.flight, self._duration_rolls(state, upgoer, step.id))
            changes.update(ended)
            return _with_flight(state, changes, said, replace_in(state.upgoers, [upgoer]))
        state = _with_flight(state, ended, said, replace_in(state.upgoers, [upgoer]))
        if step.kind == "surface" and step.body and step.body not in upgoer.bodies_landed:
            upgoer = update(upgoer, bodies_landed=upgoer.bodies_landed + (step.body,))
            state = self._replace_upgoer(state, upgoer)
        rolls = self._duration_rolls(state, upgoer, step.id)
        carried = []
        for other in self._docked_partners(state, upgoer):
            # A partner that has not had its move is carried to the step and ends its move there too: its
            # capsules and habitats roll, and its activities after moving follow the mover's.
            if other.status == "flying" and not other.moved_this_turn:
                carried.append(other.id)
            other = update(other, location=step.id, moved_this_turn=True)
            state = self._replace_upgoer(state, other)
            if other.id in carried:
                rolls += self._duration_rolls(state, other, step.id)
        if carried:
            state = self._set(state, docked_after=state.flight.docked_after + tuple(carried))
        return self._queue_rolls(state, rolls)

    def _duration_rolls(self, state: GameState, upgoer: Upgoer, step_id: str) -> list[PendingRoll]:
        """The rolls of a craft ending its move at a duration step: each active capsule, then each habitat (and
        each generator, a habitat for underped systems). A crew of powered-down systems in a stable orbit skips them."""
        if self._dormant(state, upgoer, step_id):
            return []
        return ([self._new_roll(state, "duration_capsule", upgoer, [item], step_id, "", target=item.id)
                 for item in self._modules(state, upgoer, "capsule")]
                + [self._new_roll(state, "duration_habitat", upgoer, [item], step_id, "", target=item.id)
                   for item in self._modules(state, upgoer, "habitat")]
                + self._generator_rolls(state, upgoer, step_id))

    def _finish_upgoer(self, state: GameState, upgoer: Upgoer) -> GameState:
        return self._set_replacing(state, update(state.upgoer(upgoer.id), moved_this_turn=True), active=None, mode="")

    def _check_end_activities(self, state: GameState, upgoer: Upgoer, a: EndActivities) -> None:
        if state.flight.mode != "after" or a.upgoer != upgoer.id:
            raise IllegalAction("end the turn of an Upgoer after it has moved")

    def _end_activities(self, state: GameState, upgoer: Upgoer, a: EndActivities) -> GameState:
        self._check_end_activities(state, upgoer, a)
        return self._finish_upgoer(state, upgoer)
