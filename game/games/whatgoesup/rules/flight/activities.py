"""The activities before and after moving.

The menu of what a craft may do at its step, jury-rigging a disabled part (from inside, or on an
EVA), using a payload (lighting a Waylight, sending a probe away), shedding mass, and where an
activity's roll leads. Craft meeting craft live in ``rendezvous``, goal activities in ``goals``.
"""
from __future__ import annotations

from game.core.interface import IllegalAction
from game.games.whatgoesup.rules.actions import Action
from game.games.whatgoesup.rules.board import Step
from game.games.whatgoesup.rules.flight.common import NEVER, FlightBase, FlightPhase, PendingRoll, without
from game.games.whatgoesup.rules.flight.hostilities import HOSTILE_THENS
from game.games.whatgoesup.rules.flight_actions import (Burn, CatchUp, Coast, Dock, EndActivities, Eva, Hold,
    JuryRig, Launch, Move, Recover, Separate, Shed, SwitchPayload, Transfer, Undock, UsePayload, Wait, WriteOff)
from game.games.whatgoesup.rules.reliability import Outcome, Rating
from game.games.whatgoesup.rules.state import Derp, GameState, Item, Upgoer, update


class ActivityPart(FlightBase):
    """The activity menu, jury-rigging, payloads and shedding mass."""

    def _activity_candidates(self, state: GameState, upgoer: Upgoer) -> list[Action]:
        f: FlightPhase = state.flight
        out: list[Action] = []
        if f.mode == "decide":
            return [Launch(upgoer.id), Hold(upgoer.id), Wait(upgoer.id)]
        if f.mode == "junction":
            here = self.board.step(upgoer.location)
            for b in self.board.burns_from(here.id, self._scenario(state)):
                out.append(Burn(b.to))
                if self.board.rcs_can_make(b):
                    out.append(Burn(b.to, rcs=True))
            out.append(Coast())
            return out
        if f.mode not in ("before", "after"):
            return out
        out.append(Move(upgoer.id) if f.mode == "before" else EndActivities(upgoer.id))
        if f.mode == "before":
            out.append(Wait(upgoer.id))
        crew = self._healthy(state, upgoer)
        others = self._others_here(state, upgoer)
        for other in others:
            if other.id in upgoer.docked_with:
                out.append(Undock(other.id))
                for d in self._crew(state, upgoer):
                    out.append(Transfer(upgoer.id, other.id, derps=(d.id,)))
                for d in self._crew(state, other):
                    out.append(Transfer(other.id, upgoer.id, derps=(d.id,)))
                if upgoer.rations >= 2:
                    out.append(Transfer(upgoer.id, other.id, rations=2))
                if upgoer.fuel >= 1:
                    out.append(Transfer(upgoer.id, other.id, fuel=1))
            else:
                for d in crew:
                    out.append(Dock(other.id, d.id))
                    out.append(Dock(other.id, d.id, method="winch"))
            hurt = [d for d in self._crew(state, upgoer) + self._crew(state, other) if d.injured]
            for d in crew:
                out.append(Eva(d.id, other.id))
                if upgoer.rations >= 2:
                    out.append(Eva(d.id, other.id, carry_rations=2, come_back=True))
                for comrade in hurt:
                    out.append(Eva(d.id, other.id, come_back=True, carry_derp=comrade.id))
        here = self.board.step(upgoer.location)
        if f.mode == "after" and here.rail is not None:
            for other in state.upgoers:
                if other.status in ("flying", "debris") and other.location != upgoer.location \
                        and other.id != upgoer.id and self.board.step(other.location).rail == here.rail:
                    out.append(CatchUp(other.id))
        aboard = self._items_aboard(state, upgoer)
        for item in aboard:
            if item.disabled:
                for d in crew:
                    out.append(JuryRig(d.id, item.id))
            elif self._kind(state, item) in ("waylight", "probe", "mapping") and self._role(state, item) == "payload":
                for d in crew[:1]:
                    out.append(UsePayload(d.id, item.id))
        for other in others:
            if self._crew(state, other):
                continue
            for item in self._items_aboard(state, other):
                if self._kind(state, item) in ("waylight", "probe") and self._role(state, item) == "payload":
                    for d in crew[:1]:
                        out.append(SwitchPayload(d.id, item.id, on=not item.active))
                if other.status == "debris":
                    for d in crew[:1]:
                        out.append(Recover(d.id, item.id))
        out += self._separations(state, upgoer)
        out += self._goal_candidates(state, upgoer, crew)
        out += self._hostility_candidates_for(state, upgoer)
        out += self._ship_fight_candidates(state, upgoer)
        if upgoer.fuel:
            out.append(Shed(fuel=1))
        for item in aboard:  # parts the crew can live without
            if item.id in upgoer.modules and self._role(state, item) not in ("capsule", "habitat"):
                out.append(Shed(items=(item.id,)))
        out.append(WriteOff(upgoer.id))
        return out

    def _separations(self, state: GameState, upgoer: Upgoer) -> list[Action]:
        """The ways listed to split a craft launched as several: from each later capsule on, in the order the parts
        were loaded, the parts leave with no derp or with one of them, and half the fuel and rations."""
        if not self.board.step(upgoer.location).is_stable:
            return []
        roles = [self._role(state, state.item(m)) for m in upgoer.modules]
        cuts = [n for n, role in enumerate(roles) if role == "capsule"][1:]
        crew = self._crew(state, upgoer)
        out: list[Action] = []
        for cut in cuts:
            for who in [()] + ([(d.id,) for d in crew] if len(crew) > 1 else []):
                out.append(Separate(upgoer.modules[cut:], crew=who, fuel=upgoer.fuel // 2,
                                    rations=upgoer.rations // 2))
        return out

    def _activity_done(self, state: GameState, roll: PendingRoll, outcome: Outcome, flags: set[str]) -> GameState:
        upgoer = state.find("upgoer", roll.upgoer)
        if upgoer is None:
            return state
        then = dict(roll.detail).get("then")
        if then == "dock":
            if outcome is Outcome.OK and roll.items and state.find("item", roll.items[0]):
                item = state.item(roll.items[0])
                state = self._replace_items(state, [update(item, uses_left=max(0, (item.uses_left or 0) - 1))])
            if outcome is Outcome.OK:
                return self._docking_succeeded(state, upgoer, roll, "rcs")
            return self._event(state, f"{upgoer.name} misses the docking.", upgoer)
        if then == "winch":
            if outcome is not Outcome.OK:
                return state
            state = self._first(state, upgoer.owner, "eva", f"{state.derp(roll.actor).name} steps outside")
            winch = self._usable(state, upgoer, "winch")
            if winch is None:
                return state
            roll2 = self._new_roll(state, "winch", upgoer, [winch], upgoer.location, "activity", actor=roll.actor,
                                   target=roll.target, detail=(("then", "winched"),))
            return self._queue_rolls(state, [roll2])
        if then == "winched":
            if outcome is Outcome.OK:
                return self._docking_succeeded(state, upgoer, roll, "winch")
            return state
        if then in HOSTILE_THENS:
            return self._hostility_roll_done(state, upgoer, roll, outcome)
        if then == "eva":
            return self._eva_done(state, upgoer, roll, outcome)
        if then == "eva_carry":
            return self._eva_carry_done(state, upgoer, roll, outcome)
        if then == "catch_up":
            target = state.find("upgoer", roll.target)
            if outcome is not Outcome.OK or target is None:
                return state
            state = self._replace_upgoer(state, update(upgoer, location=target.location, caught_up_turn=state.turn))
            return self._event(state, f"{upgoer.name} catches up with {target.name}; they can dock next turn.", upgoer)
        if then == "payload":
            return self._payload_done(state, upgoer, roll, outcome)
        if then == "switch":
            return self._switch_done(state, upgoer, roll, outcome)
        if then == "recover":
            return self._recover_done(state, upgoer, roll, outcome)
        if then in ("nudge", "walk", "temple", "retag"):
            return self._goal_activity_done(state, upgoer, roll, outcome, then)
        if then == "jury_eva":
            if outcome is Outcome.OK:
                jury = self._jury_roll(state, upgoer, state.derp(roll.actor), state.item(roll.target))
                return self._queue_rolls(state, [jury])
            return state
        return state

    # ------------------------------------------------------------------ jury-rigging
    def _check_jury_rig(self, state: GameState, upgoer: Upgoer, a: JuryRig) -> None:
        self._require_activity(state, upgoer, "jury-rigging")
        derp = self._crew_member(state, upgoer, a.derp)
        item = state.find("item", a.item)
        if item is None or item.location != upgoer.id or not item.disabled:
            raise IllegalAction(f"{a.item} is not a disabled part aboard {upgoer.name}")
        if self.repair_engineering(state, derp) < 1:
            raise IllegalAction(f"{derp.name} has no Engineering to jury-rig with")
        if self._role(state, item) not in ("capsule", "habitat"):
            pack = self._usable(state, upgoer, "eva_pack")
            if pack is None or self.piloting(state, derp) < self.table.eva_min_piloting:
                raise IllegalAction(f"{self._name(state, item)} is outside: jury-rigging it needs an EVA "
                                    f"(a working EVA pack and {self.table.eva_min_piloting} Piloting)")
            cost = self.table.eva_jury_rig_stamina
            if derp.current_stamina < cost:
                raise IllegalAction(f"an outside repair costs {cost} stamina; {derp.name} has {derp.current_stamina}")

    def _jury_rig(self, state: GameState, upgoer: Upgoer, a: JuryRig) -> GameState:
        self._check_jury_rig(state, upgoer, a)
        derp = state.derp(a.derp)
        item = state.item(a.item)
        if self._role(state, item) not in ("capsule", "habitat"):  # outside: an EVA first
            pack = self._usable(state, upgoer, "eva_pack")
            cost = self.table.eva_jury_rig_stamina
            state = self._spend(state, derp, cost)
            eva = self._new_roll(state, "eva", upgoer, [pack], upgoer.location, "activity", actor=derp.id,
                                 target=item.id, detail=(("then", "jury_eva"),))
            return self._queue_rolls(state, [eva])
        state = self._spend(state, derp)
        return self._queue_rolls(state, [self._jury_roll(state, upgoer, derp, item)])

    def jury_rig_rating(self, state: GameState, derp: Derp) -> Rating:
        """What a jury-rig by ``derp`` rolls against: it works on a roll under flight.yaml's multiplier (twice) the
        Engineering it repairs with (``repair_engineering``), at least 1, a "Fail safety" that no Boom can reach.
        The jury-rig roll, the flight panel's words and the orders editor's chance all read this one rating."""
        return Rating(max(1, self.table.jury_rig_engineering_multiplier * self.repair_engineering(state, derp)),
                      NEVER)

    def _jury_roll(self, state: GameState, upgoer: Upgoer, derp: Derp, item: Item) -> PendingRoll:
        return PendingRoll(kind="jury_rig", upgoer=upgoer.id, items=(item.id,),
                           rating=self.jury_rig_rating(state, derp), step=upgoer.location, helpable=False,
                           target=item.id, actor=derp.id)

    def _jury_rig_done(self, state: GameState, roll: PendingRoll, outcome: Outcome) -> GameState:
        upgoer = state.find("upgoer", roll.upgoer)
        item = state.find("item", roll.target)
        derp = state.derp(roll.actor)
        if upgoer is None or item is None:
            return state
        if outcome is not Outcome.OK:
            return self._event(state, f"{derp.name}'s repair of {self._name(state, item)} does not hold.", upgoer)
        was_stranded = upgoer.stranded or not self.can_steer(state, upgoer)
        state = self._replace_items(state, [update(item, disabled=False)])
        text = f"{derp.name} jury-rigs {self._name(state, item)} back to work (its damage stays)."
        if self._role(state, item) == "capsule" and upgoer.stranded:
            state = self._replace_upgoer(state, update(upgoer, stranded=False))
        state = self._event(state, text, upgoer)
        if was_stranded and self.can_steer(state, state.upgoer(upgoer.id)) and self._crew(state, upgoer):
            # A craft of robots alone has no crew to save: its systems mended their own ride.
            told = (f"{upgoer.name}'s robots patch up their own craft" if self.robot_craft(state, upgoer)
                    else f"{upgoer.name}'s crew save themselves")
            state = self._first(state, upgoer.owner, "jury_rig_rescue", told, craft=upgoer)
        return state

    # ------------------------------------------------------------------ payloads
    def _check_use_payload(self, state: GameState, upgoer: Upgoer, a: UsePayload) -> None:
        self._require_activity(state, upgoer, "using a payload")
        derp = self._crew_member(state, upgoer, a.derp)
        item = state.find("item", a.item)
        if item is None or item.location != upgoer.id or self._role(state, item) != "payload":
            raise IllegalAction(f"{a.item} is not a payload aboard {upgoer.name}")
        if item.disabled or item.unusable_this_turn:
            raise IllegalAction(f"{self._name(state, item)} cannot be used now")
        kind = self._kind(state, item)
        step = self.board.step(upgoer.location)
        if kind == "waylight":
            if item.active:
                raise IllegalAction("the Waylight already shines")
        elif kind == "probe":
            if not self._escape_nearby(state, step):
                raise IllegalAction("a probe is sent away from an orbit whose rail offers an escape burn")
        elif kind == "mapping":
            if step.orbit_type is None or self.board.orbit_type(step.orbit_type).maps is None:
                raise IllegalAction("mapping works from a polar orbit")
            raise IllegalAction("a mapping payload maps by itself every turn in a polar orbit; nothing to switch on")
        else:
            raise IllegalAction(f"a {kind.replace('_', ' ')} is used through its own action")

    def _use_payload(self, state: GameState, upgoer: Upgoer, a: UsePayload) -> GameState:
        self._check_use_payload(state, upgoer, a)
        derp, item, step = state.derp(a.derp), state.item(a.item), self.board.step(upgoer.location)
        state = self._spend(state, derp)
        roll = self._new_roll(state, "payload", upgoer, [item], step.id, "activity", actor=derp.id, target=item.id,
                              detail=(("then", "payload"),))
        return self._queue_rolls(state, [roll])

    def _check_switch_payload(self, state: GameState, upgoer: Upgoer, a: SwitchPayload) -> None:
        self._require_activity(state, upgoer, "an EVA")
        derp = self._crew_member(state, upgoer, a.derp)
        item = state.find("item", a.item)
        holder = state.find("upgoer", item.location) if item is not None and item.location else None
        if item is None or holder is None or holder.id == upgoer.id \
                or self._kind(state, item) not in ("waylight", "probe") or self._role(state, item) != "payload":
            raise IllegalAction(f"{a.item} is not a Waylight or probe floating near {upgoer.name}")
        self._same_stable_step(state, upgoer, holder.id)
        if self._crew(state, holder):
            raise IllegalAction(f"{holder.name} has a crew aboard: it is not floating by itself")
        if item.disabled:
            raise IllegalAction(f"{self._name(state, item)} is broken")
        kind, step = self._kind(state, item), self.board.step(upgoer.location)
        if a.on and item.active:
            raise IllegalAction(f"{self._name(state, item)} is already on")
        if not a.on and (kind == "probe" or not item.active):
            raise IllegalAction(f"{self._name(state, item)} is not on")
        if a.on and kind == "probe" and not self._escape_nearby(state, step):
            raise IllegalAction("a probe is sent away from an orbit whose rail offers an escape burn")
        if self.piloting(state, derp) < self.table.eva_min_piloting:
            raise IllegalAction(f"going outside needs {self.table.eva_min_piloting} Piloting; {derp.name} has "
                                f"{self.piloting(state, derp)}")
        if self._usable(state, upgoer, "eva_pack") is None:
            raise IllegalAction(f"{upgoer.name} has no working EVA pack")

    def _switch_payload(self, state: GameState, upgoer: Upgoer, a: SwitchPayload) -> GameState:
        """"EVA is performed to: ... Activate, tag, or deactivate a waylight or probe that is floating by itself."

        The derp's EVA pack rolls first; switching on then rolls the payload as using it does (a probe switched
        on is sent away, which needs an orbit with an escape burn); switching off needs only the EVA.
        """
        self._check_switch_payload(state, upgoer, a)
        derp, item, pack = state.derp(a.derp), state.item(a.item), self._usable(state, upgoer, "eva_pack")
        state = self._spend(state, derp)
        roll = self._new_roll(state, "eva", upgoer, [pack], upgoer.location, "activity", actor=derp.id,
                              target=item.id, detail=(("then", "switch"), ("on", a.on)))
        return self._queue_rolls(state, [roll])

    def _switch_done(self, state: GameState, upgoer: Upgoer, roll: PendingRoll, outcome: Outcome) -> GameState:
        item = state.find("item", roll.target)
        derp = state.find("derp", roll.actor)
        if outcome is not Outcome.OK or item is None or derp is None:
            return state
        state = self._first(state, upgoer.owner, "eva", f"{derp.name} steps outside")
        if dict(roll.detail)["on"]:
            payload = self._new_roll(state, "payload", upgoer, [item], upgoer.location, "activity", actor=derp.id,
                                     target=item.id, detail=(("then", "payload"),))
            return self._queue_rolls(state, [payload])
        state = self._replace_items(state, [update(item, active=False)])
        return self._event(state, f"{derp.name} switches {self._name(state, item)} off.", upgoer)

    def _escape_nearby(self, state: GameState, step: Step) -> bool:
        seen, current = set(), step.id
        while current is not None and current not in seen:
            seen.add(current)
            for b in self.board.burns_from(current, self._scenario(state)):
                if self.board.step(b.to).kind == "escape":
                    return True
            current = self.board.step(current).next
        return False

    def _payload_done(self, state: GameState, upgoer: Upgoer, roll: PendingRoll, outcome: Outcome) -> GameState:
        item = state.find("item", roll.target)
        if outcome is not Outcome.OK or item is None:
            return state
        kind = self._kind(state, item)
        if kind == "waylight":
            state = self._replace_items(state, [update(item, active=True)])
            return self._event(state, f"{self._name(state, item)} lights up: a new star to steer by.", upgoer)
        if kind == "probe":
            holder = state.upgoer(item.location)  # this craft, or the craft it floats on (an EVA switched it on)
            state = self._destroy_items(state, [item.id])
            state = self._replace_upgoer(state, update(holder, modules=tuple(m for m in holder.modules
                                                                             if m != item.id)))
            state = self._event(state, f"{self._name(state, item)} is flung out of the world's pull!", upgoer)
            return self._first(state, upgoer.owner, "gravity_slingshot", f"{self._name(state, item)} escapes",
                               craft=upgoer)
        return state

    # ------------------------------------------------------------------ shedding mass
    def _check_shed(self, state: GameState, upgoer: Upgoer, a: Shed) -> None:
        self._require_activity(state, upgoer, "shedding mass")
        if a.fuel < 0 or a.rations < 0 or a.fuel > upgoer.fuel or a.rations > upgoer.rations:
            raise IllegalAction(f"{upgoer.name} does not carry that much")
        for i in a.items:
            item = state.find("item", i)
            if item is None or item.location != upgoer.id:
                raise IllegalAction(f"{i} is not aboard {upgoer.name}")
        if not (a.items or a.fuel or a.rations):
            raise IllegalAction("name what to throw overboard")

    def _shed(self, state: GameState, upgoer: Upgoer, a: Shed) -> GameState:
        self._check_shed(state, upgoer, a)
        others = self._others_here(state, upgoer)
        state = self._replace_upgoer(state, update(upgoer, fuel=upgoer.fuel - a.fuel, rations=upgoer.rations - a.rations,
                                                   modules=tuple(m for m in upgoer.modules if m not in a.items)))
        if not (a.items and others):
            state = self._destroy_items(state, list(a.items))
            return self._event(state, f"{upgoer.name} sheds mass into space.", upgoer)
        # "These components are lost in space unless another Up Goer is present, in which case a recovery
        # attempt may be made": the parts float here as a crewless piece of debris until recovered or lost.
        pile_id = f"U{state.next_id}"
        pile = Upgoer(id=pile_id, owner=upgoer.owner, name=f"Parts shed by {upgoer.name}", stages=(), modules=a.items,
                      crew=(), fuel=0, rations=0, location=upgoer.location, status="debris", launched_turn=state.turn,
                      moved_this_turn=True)
        state = update(state, next_id=state.next_id + 1, upgoers=state.upgoers + (pile,))
        state = self._replace_items(state, [update(state.item(i), location=pile_id, active=False) for i in a.items])
        names = ", ".join(o.name for o in others)
        return self._event(state, f"{upgoer.name} sheds mass; the parts float beside {names}, and a derp on an EVA "
                                  f"can still bring them aboard.", upgoer)

    def _check_recover(self, state: GameState, upgoer: Upgoer, a: Recover) -> None:
        self._require_activity(state, upgoer, "an EVA")
        derp = self._crew_member(state, upgoer, a.derp)
        item = state.find("item", a.item)
        pile = state.find("upgoer", item.location) if item is not None and item.location else None
        if item is None or pile is None or pile.id == upgoer.id or pile.status != "debris" or self._crew(state, pile):
            raise IllegalAction(f"{a.item} is not a part floating on a piece of debris near {upgoer.name}")
        self._same_stable_step(state, upgoer, pile.id)
        if self.piloting(state, derp) < self.table.eva_min_piloting:
            raise IllegalAction(f"going outside needs {self.table.eva_min_piloting} Piloting; {derp.name} has "
                                f"{self.piloting(state, derp)}")
        if self._usable(state, upgoer, "eva_pack") is None:
            raise IllegalAction(f"{upgoer.name} has no working EVA pack")
        if self._role(state, item) in ("payload", "rcs"):
            self._check_room(state, upgoer, 0, 1, 0)

    def _recover(self, state: GameState, upgoer: Upgoer, a: Recover) -> GameState:
        """A derp on an EVA brings one part floating on a crewless piece of debris at this step aboard."""
        self._check_recover(state, upgoer, a)
        derp, item, pack = state.derp(a.derp), state.item(a.item), self._usable(state, upgoer, "eva_pack")
        state = self._spend(state, derp)
        roll = self._new_roll(state, "eva", upgoer, [pack], upgoer.location, "activity", actor=derp.id,
                              target=item.id, detail=(("then", "recover"),))
        return self._queue_rolls(state, [roll])

    def _recover_done(self, state: GameState, upgoer: Upgoer, roll: PendingRoll, outcome: Outcome) -> GameState:
        item = state.find("item", roll.target)
        derp = state.find("derp", roll.actor)
        if outcome is not Outcome.OK or item is None or derp is None or not item.location:
            return state
        pile = state.find("upgoer", item.location)
        if pile is None or pile.status != "debris":
            return state
        state = self._first(state, upgoer.owner, "eva", f"{derp.name} steps outside")
        upgoer = state.upgoer(upgoer.id)
        state = self._replace_upgoer(state, update(upgoer, modules=upgoer.modules + (item.id,)))
        state = self._replace_items(state, [update(item, location=upgoer.id)])
        left = tuple(m for m in pile.modules if m != item.id)
        if left:
            state = self._replace_upgoer(state, update(pile, modules=left))
        else:  # nothing floats there any more: any craft docked to it lets go (docking is on both craft)
            for partner in self._docked_partners(state, pile):
                state = self._replace_upgoer(state, update(partner, docked_with=tuple(
                    x for x in partner.docked_with if x != pile.id)))
            state = update(state, upgoers=without(state.upgoers, {pile.id}))
        return self._event(state, f"{derp.name} brings {self._name(state, item)} aboard {upgoer.name}.", upgoer)
