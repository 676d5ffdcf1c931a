"""How a flight ends.

Reentry and landing (what burns up, what rolls on the way down, touchdown at home with what may be
reused), leaving the world's pull, being written off (crew waiting for a rescuer) or destroyed.
"""
from __future__ import annotations


from game.core.interface import IllegalAction
from game.games.whatgoesup.rules.board import Step
from game.games.whatgoesup.rules.flight.common import FlightBase, PendingRoll, _with_flight, without
from game.games.whatgoesup.rules.flight_actions import WriteOff
from game.games.whatgoesup.rules.state import HOME, GameState, Item, Upgoer, replace_in, update, updated, with_program
from game.core.words import counted


class LandingPart(FlightBase):
    """Reentry, landing, escape, write-off and destruction."""

    # ------------------------------------------------------------------ coming down
    def _descend(self, state: GameState, upgoer: Upgoer, step: Step) -> GameState:
        """Reentry or landing: every capsule and reusable part coming down rolls."""
        if step.kind == "reentry":
            state = self._keep_only_returning(state, upgoer)
            upgoer = state.upgoer(upgoer.id)
        rolling = self._descent_rollers(state, upgoer)
        if not rolling:
            if self._crew(state, upgoer):
                state = self._event(state, f"With nothing to shield them, {self._aboard_words(state, upgoer)} of "
                                    f"{upgoer.name} cannot survive {step.name.lower()}.", upgoer)
                state = self._kill(state, upgoer, self._crew(state, upgoer), f"{step.name.lower()} without a capsule")
            return self._destroy_upgoer(state, state.upgoer(upgoer.id), f"{upgoer.name} burns up.")
        rolls = [self._new_roll(state, step.kind, upgoer, [i], step.id, "", target=i.id) for i in rolling]
        rolls[-1] = update(rolls[-1], then="descended")
        return self._queue_rolls(state, rolls)

    def _aboard_words(self, state: GameState, upgoer: Upgoer) -> str:
        """Who is aboard, in words: "the crew" (derps), "the robots" (underped systems) or "the crew and robots"."""
        crew = self._crew(state, upgoer)
        robots, derps = any(d.is_system for d in crew), any(not d.is_system for d in crew)
        return "the crew and robots" if robots and derps else "the robots" if robots else "the crew"

    def _descent_rollers(self, state: GameState, upgoer: Upgoer) -> list[Item]:
        """The parts that roll at reentry or landing: capsules and habitats, and reusable parts outside them
        (payloads and RCS ride inside a capsule)."""
        rolling = [i for i in self._items_aboard(state, upgoer) if i.id in upgoer.modules
                   and (self._role(state, i) in ("capsule", "habitat")
                        or (self._returns(state, upgoer, i) and self._role(state, i) not in ("payload", "rcs", "underped")))]
        return [i for i in rolling if not i.disabled or self._role(state, i) in ("capsule", "habitat")]

    def _returns(self, state: GameState, upgoer: Upgoer, item: Item) -> bool:
        """Whether a part comes back down (reusable, or carried by planetary-landing thrusters)."""
        thing = state.thing(item.thing_id)
        if self._role(state, item) in ("payload", "rcs", "underped"):
            return True  # carried inside the capsule
        return (thing.reusable and not item.reusable_lost) or self.thrust(state, upgoer) == "planetary"

    def _keep_only_returning(self, state: GameState, upgoer: Upgoer) -> GameState:
        """Before reentry: what is not a capsule, not inside one and not reusable burns up."""
        lost = [i.id for i in self._items_aboard(state, upgoer) if i.id in upgoer.modules
                and self._role(state, i) not in ("capsule", "habitat") and not self._returns(state, upgoer, i)]
        lost += [i.id for i in self._items_aboard(state, upgoer) if self._role(state, i) == "habitat"
                 and not self._returns(state, upgoer, i)]
        keep_fuel = self.thrust(state, upgoer) == "planetary"
        gone = set(lost)
        if not any(d.system in gone and not d.dead for d in state.derps):
            # No underped system burns up (which would strand the craft): the parts gone and the craft put in
            # in one copy of the state.
            upgoer = state.upgoer(upgoer.id)
            upgoer = update(upgoer, modules=tuple(m for m in upgoer.modules if m not in lost),
                            fuel=upgoer.fuel if keep_fuel else 0)
            return updated(state, {"items": without(state.items, gone),
                                   "upgoers": replace_in(state.upgoers, [upgoer])})
        state = self._destroy_items(state, lost)
        upgoer = state.upgoer(upgoer.id)
        upgoer = update(upgoer, modules=tuple(m for m in upgoer.modules if m not in lost),
                        fuel=upgoer.fuel if keep_fuel else 0)
        return self._replace_upgoer(state, upgoer)

    def _descended(self, state: GameState, roll: PendingRoll) -> GameState:
        upgoer = state.find("upgoer", roll.upgoer)
        if upgoer is None:
            return self._set(state, active=None, mode="")
        step = self.board.step(roll.step)
        if step.kind == "reentry":
            # The craft's and its capsules' and thrusters' reentries counted in one copy of the state, then the
            # firsts they win (which read neither the parts nor the craft's count), in the parts' order.
            upgoer = update(upgoer, reentries=upgoer.reentries + 1)
            counted_again, second_time = [], []
            for item in self._items_aboard(state, upgoer):
                role = self._role(state, item)
                if role in ("capsule", "thruster") and not item.reusable_lost:
                    item = update(item, reentries=item.reentries + 1)
                    counted_again.append(item)
                    if role == "capsule" and item.reentries >= 2 and state.thing(item.thing_id).reusable:
                        second_time.append(item)
            changes = {"upgoers": replace_in(state.upgoers, [upgoer])}
            if counted_again:
                changes["items"] = replace_in(state.items, counted_again)
            state = updated(state, changes)
            for item in second_time:
                state = self._first(state, upgoer.owner, "reusable_capsule",
                                    f"{self._name(state, item)} comes back through reentry a second time",
                                    craft=upgoer)
            if self._flown_again(state, state.upgoer(upgoer.id)):
                state = self._first(state, upgoer.owner, "reusable_upgoer",
                                    f"{upgoer.name} comes back through reentry a second time", craft=upgoer)
        return self._go_to(state, state.upgoer(upgoer.id), step.next)

    def _flown_again(self, state: GameState, upgoer: Upgoer) -> bool:
        """Whether this craft is a reusable vessel on its second reentry or later.

        Each assembly makes a new Upgoer, so the vessel is its reusable heart: the capsules and the
        thrusters that land them. It counts when every capsule and thruster aboard (at least one of each,
        none lost for reuse) has now come back through reentry twice. Only thrusters strong enough to land
        the craft home (planetary thrust) ever come back to fly again.
        """
        capsules = [i for i in self._items_aboard(state, upgoer) if self._role(state, i) == "capsule"]
        thrusters = [i for i in self._items_aboard(state, upgoer) if self._role(state, i) == "thruster"]
        return bool(capsules and thrusters) and all(i.reentries >= 2 and not i.reusable_lost
                                                     for i in capsules + thrusters)

    def _land_home(self, state: GameState, upgoer: Upgoer) -> GameState:
        """Touchdown: parts that may be reused go to storage, the crew go home, the flight ends."""
        state = self._undock_all(state, upgoer, "before landing")
        upgoer = state.upgoer(upgoer.id)
        program = state.programs[upgoer.owner]
        crew = self._crew(state, upgoer)
        healthy = [d for d in crew if not d.injured and not d.is_system]  # luck is for derps back in good health
        kept, spent = [], []
        for item in self._items_aboard(state, upgoer):
            thing = state.thing(item.thing_id)
            role = self._role(state, item)
            reusable = thing.reusable or role in ("payload", "rcs", "underped") or self.thrust(state, upgoer) == "planetary"
            if reusable and not item.reusable_lost and not (role in ("capsule", "habitat") and item.disabled):
                kept.append(update(item, location=HOME, owner=upgoer.owner, flight_fail_penalty=0, flight_boom_penalty=0,
                                   disabled=False, active=False,
                                   uses_left=self.rules.components.kind(thing.kind).uses,
                                   fixed_rating=item.fixed_rating if thing.owner != upgoer.owner else None))
            else:
                spent.append(item.id)
        state = self._replace_items(state, kept)
        state = self._destroy_items(state, spent)
        derps = [update(d, location=HOME, owner=upgoer.owner if d.defected else d.owner, defected=False,
                        powered_down=d.powered_down or d.is_system)  # a system is powered down on the ground
                 for d in crew]
        # Rescued rivals who did not defect go home to their own program.
        state = update(state, derps=replace_in(state.derps, derps))
        program = update(state.programs[upgoer.owner], rations_stock=program.rations_stock + upgoer.rations,
                         fuel_stock=state.programs[upgoer.owner].fuel_stock + upgoer.fuel)
        if crew and upgoer.mapped:  # maps too secret to transmit: only a crew brings them home
            program = update(program, maps_home=self._maps_brought_home(program, upgoer))
        luck = 0
        if upgoer.new_steps and crew:
            luck = self.rules.economy.luck.per_healthy_derp_back_from_new_step * len(healthy)
        program = update(program, luck=program.luck + luck)
        state = with_program(state, program)
        landed_on = set(upgoer.bodies_landed)
        board_bodies = {s.body for s in self.board.steps if s.kind == "surface"}
        if crew:
            for body in landed_on & board_bodies:
                trigger = "moon_landing_and_return" if body == "moon" else "rock_landing_and_return"
                state = self._first(state, upgoer.owner, trigger, f"{upgoer.name} lands on {self.board.body(body).name} and comes home",
                                    craft=upgoer)
        state = self._replace_upgoer(state, update(state.upgoer(upgoer.id), status="landed", location=self.board.home.id,
                                                  moved_this_turn=True))
        text = (f"{upgoer.name} lands safely at home." if healthy or all(d.is_system for d in crew)
                else f"{upgoer.name} lands with an injured crew.")
        if luck:
            text += f" {program.name} gains {luck} luck for derps back from new places."
        state = self._event(state, text, upgoer)
        state = self._mission_awards(state, state.upgoer(upgoer.id))
        return self._set(state, active=None, mode="")

    def _mission_awards(self, state: GameState, upgoer: Upgoer) -> GameState:
        """prestige.yaml's mission_awards for a flight that has just come home (each time it is earned).

        flawless_multiturn_return ("All According To Plan", 2013): a flight that spent at least one turn's
        end in space and never saw a Fail or a Boom, after the crew's skills and luck."""
        for award in self.rules.prestige.mission_awards:
            if award.kind == "flawless_multiturn_return" and upgoer.turns_in_space >= 1 and not upgoer.troubled:
                state = self.engine.add_dots(state, upgoer.owner, award.dots, award.name)
                state = self._event(state, f"{award.name}: {upgoer.name} comes home from a long mission without a "
                                    f"single Fail or Boom. +{counted(award.dots, 'dot')} at the end of the turn.",
                                    upgoer, "prestige")
        return state

    # ------------------------------------------------------------------ other endings
    def _escape(self, state: GameState, upgoer: Upgoer) -> GameState:
        state = self._undock_all(state, upgoer, "as it leaves")
        upgoer = state.upgoer(upgoer.id)
        state = self._replace_upgoer(state, update(upgoer, status="escaped"))
        state = self._destroy_items(state, [i.id for i in self._items_aboard(state, upgoer)])
        return self._set_saying(state, self._told(f"{upgoer.name} leaves the world's pull for good.", upgoer),
                                active=None, mode="")

    def _check_write_off(self, state: GameState, upgoer: Upgoer, a: WriteOff) -> None:
        self._require_activity(state, upgoer, "writing off")
        if a.upgoer != upgoer.id:
            raise IllegalAction("write off the craft that is acting")

    def _write_off(self, state: GameState, upgoer: Upgoer, a: WriteOff) -> GameState:
        self._check_write_off(state, upgoer, a)
        state = self._destroy_items(state, [d.system for d in self._systems(state, upgoer)
                                            if not self._living_crew(state, upgoer)])  # nobody to rescue: lost
        upgoer = state.upgoer(upgoer.id)
        crew = self._living_crew(state, upgoer)
        if crew:
            for d in crew:
                state = self.engine.add_dots(state, d.owner, self.rules.economy.dots.per_derp_lost, f"{d.name} written off")
            state = self._replace_upgoer(state, update(upgoer, status="written_off", stranded=True,
                                                       written_off_by=upgoer.owner, moved_this_turn=True))
            state = self._event(state, f"{upgoer.name} is written off with {counted(len(crew), 'derp')} aboard; they wait "
                                f"for any rescuer and will join whoever saves them.", upgoer, "consequence")
        else:  # debris lets go of its partners, both sides, as a wreck emptied at the turn's end does
            state = self._undock_all(state, upgoer, "as it is written off")
            state = self._replace_upgoer(state, update(state.upgoer(upgoer.id), status="debris", stranded=True,
                                                       moved_this_turn=True, written_off_by=upgoer.owner))
            state = self._event(state, f"{upgoer.name} is written off and becomes debris.", upgoer, "consequence")
        return self._set(state, active=None, mode="")

    def _destroy_upgoer(self, state: GameState, upgoer: Upgoer, text: str) -> GameState:
        gone = {i.id for i in state.items_at(upgoer.id)}
        if not upgoer.docked_with and not any(d.system in gone and not d.dead for d in state.derps):
            # Nothing to undock and no underped system lost with it: its parts gone, the craft destroyed, told and
            # (when it was acting) let go in one copy of the state, as below.
            said = self._told(text, upgoer, "consequence")
            destroyed = update(upgoer, status="destroyed", modules=(), stages=(), fuel=0, rations=0, docked_with=())
            others = {"items": without(state.items, gone)}
            f = state.flight
            if f.active == upgoer.id:
                return _with_flight(state, {"active": None, "mode": "",
                                            "rolls": tuple(r for r in f.rolls if r.upgoer != upgoer.id)},
                                    said, replace_in(state.upgoers, [destroyed]), others)
            others["upgoers"] = replace_in(state.upgoers, [destroyed])
            others["events"] = state.events + said
            return updated(state, others)
        state = self._destroy_items(state, list(gone))
        state = self._replace_upgoer(state, update(upgoer, status="destroyed", modules=(), stages=(), fuel=0,
                                                   rations=0, docked_with=()))
        for other in self._docked_partners(state, upgoer):
            state = self._replace_upgoer(state, update(other, docked_with=tuple(x for x in other.docked_with
                                                                                 if x != upgoer.id)))
        state = self._event(state, text, upgoer, "consequence")
        f = state.flight
        if f.active == upgoer.id:
            state = self._set(state, active=None, mode="", rolls=tuple(r for r in f.rolls if r.upgoer != upgoer.id))
        return state
