"""Underped (robotic) Upgoers in flight: an optional rule (options.yaml: underped).

An underped system is a part (role ``underped``) and a crew member (a ``Derp`` whose ``system`` names the
part). It is powered down on the ground and checks its reliability to power up after liftoff; it spends
stamina on any action it takes, burns included; what would injure a derp powers it down and what would kill
one destroys it and strands the craft (``consequences``, ``common``). It may power down on purpose (a craft
whose crew is only powered-down systems skips its duration rolls in a stable orbit) and power up again with
stamina left, a check and a stamina point; a derp may hand it stamina; a craft whose systems can do nothing
more may destroy itself. A generator (a payload) is a habitat for systems: it rolls like one at duration
steps and recharges them each turn. A first won by a craft with systems and no derp aboard pays a share of
its dots (prestige.yaml: underped_share, rounded up).

Clockwork (options.yaml: underped_clockwork): an underped craft follows the orders written for it on the
pad, in order: burns (a destination) and its other actions (``ORDER_VERBS``: using, deploying or jury-rigging a
payload, powering a system down or up, docking, undocking, catching up, nudging, shedding); it takes no action that is
not its next order, and when the next one can be taken it must be; when a written burn fails it may only
retry it or abort the rest of its orders. A recharge in flight (a
generator's at the end of a turn, or a derp handing a system stamina) opens its orders: the owner may rewrite
them in the R&D before its next flight phase.

Repairs (options.yaml: underped_repairs): a system is built with a repair routine that jury-rigs as
``underped.repair_engineering`` Engineering would, on a part inside (it never goes outside for an EVA). Without
it a system has a new derp's Engineering, never trained, and cannot jury-rig.
"""
from __future__ import annotations

import dataclasses
import math
from typing import Optional

from game.core.interface import IllegalAction
from game.games.whatgoesup.rules.actions import Action
from game.games.whatgoesup.rules.flight.common import FlightBase, FlightPhase, PendingRoll
from game.games.whatgoesup.rules.flight_actions import (Burn, CatchUp, Coast, Deploy, Dock, EndActivities, Eva,
                                                        Hold, JuryRig, Launch, Move, Nudge, Retag, Shed, Transfer,
                                                        Undock, UsePayload, VisitTemple, Wait, WalkOutside, WriteOff)
from game.games.whatgoesup.rules.reliability import Outcome
from game.games.whatgoesup.rules.state import Derp, Event, GameState, Item, Upgoer, replace_in, update
from game.games.whatgoesup.rules.underped_actions import (AbortOrders, GiveStamina, PowerDown, PowerUp,
                                                          SelfDestruct)

UNDERPED = "underped"
CLOCKWORK = "underped_clockwork"
REPAIRS = "underped_repairs"
# What a craft does as a whole (no derp named): the system flying it pays its stamina for these (a nudge fires a
# thruster, as a burn does).
CRAFT_ACTIONS = (Burn, CatchUp, Undock, Shed, Deploy, Transfer, Nudge)
# The parts a system can reach from its capsule (jury-rigging anything else takes an EVA).
INSIDE_ROLES = ("capsule", "habitat")
# Going outside: a system stays in its capsule.
OUTSIDE_ACTIONS = (Eva, WalkOutside, VisitTemple, Retag)
# Clockwork: the actions that can be written as orders besides burns, as "verb:subject" (the field naming what
# the action is done to; whichever system aboard does it). Any other action of the craft itself is refused.
ORDER_VERBS = {UsePayload: ("use", "item"), Deploy: ("deploy", "item"), JuryRig: ("jury_rig", "item"),
               PowerDown: ("power_down", "derp"), PowerUp: ("power_up", "derp"), Dock: ("dock", "target"),
               Undock: ("undock", "target"), CatchUp: ("catch_up", "target"), Nudge: ("nudge", "upgoer"),
               Shed: ("shed", "items")}  # shedding: "shed:fuel" (one point) or "shed:ITEM" (one part)
# Clockwork: what is not the robots' own action (the owner's launch and timing, moving along, the end of the
# craft) and needs no order; burns and coasting have their own rule.
UNWRITTEN = (Launch, Hold, Wait, Move, EndActivities, WriteOff, SelfDestruct, AbortOrders, Burn, Coast)


def order_of(action: Action) -> Optional[str]:
    """The written order ``action`` carries out ("verb:subject"), or None when no order names it."""
    if isinstance(action, Burn):
        return action.to
    if isinstance(action, Shed):  # one point of fuel, or one part, at a time
        if action.fuel == 1 and not action.items and not action.rations:
            return "shed:fuel"
        return f"shed:{action.items[0]}" if len(action.items) == 1 and not action.fuel and not action.rations \
            else None
    verb = ORDER_VERBS.get(type(action))
    return f"{verb[0]}:{getattr(action, verb[1])}" if verb else None


class UnderpedPart(FlightBase):
    """Systems powering up and down, their stamina, their losses, generators and clockwork orders."""

    # ------------------------------------------------------------------ queries
    def underped_in_play(self, state: GameState) -> bool:
        return UNDERPED in state.setup.options

    def robot_craft(self, state: GameState, upgoer: Upgoer) -> bool:
        """A craft flown by underped systems alone: at least one system aboard and no derp. A craft that has
        just set its crew down at home (a landing's firsts come after) is judged by the crew it was assembled
        with."""
        crew = self._crew(state, upgoer)
        if not crew:
            crew = [d for d in (state.find("derp", c) for c in upgoer.crew) if d is not None and not d.dead]
        return bool(crew) and all(d.is_system for d in crew)

    def clockwork(self, state: GameState, upgoer: Upgoer) -> bool:
        return CLOCKWORK in state.setup.options and self.robot_craft(state, upgoer)

    def _dormant(self, state: GameState, upgoer: Upgoer, step_id: str) -> bool:
        """Powered down in a stable orbit: a crew of systems that are all powered down skips its duration rolls."""
        systems = self._systems(state, upgoer)
        return (bool(systems) and not self._living_crew(state, upgoer) and all(d.powered_down for d in systems)
                and self.board.step(step_id).is_stable and self.board.step(step_id).kind != "surface")

    def _generator_rolls(self, state: GameState, upgoer: Upgoer, step_id: str) -> list[PendingRoll]:
        """A generator aboard a craft carrying systems rolls at a duration step as a habitat does."""
        if not self._systems(state, upgoer):
            return []
        return [self._new_roll(state, "duration_habitat", upgoer, [item], step_id, "", target=item.id)
                for item in self._modules(state, upgoer, "payload") if self._kind(state, item) == "generator"]

    def first_share(self, state: GameState, craft: Optional[Upgoer], dots: int) -> int:
        """The dots a first pays when ``craft`` wins it: a share, rounded up, for an underped craft."""
        if craft is None or not self.underped_in_play(state) or not self.robot_craft(state, state.upgoer(craft.id)):
            return dots
        return math.ceil(dots * self.rules.prestige.underped_share)

    def repair_engineering(self, state: GameState, derp: Derp) -> int:
        """The Engineering ``derp`` jury-rigs with: its own, or for an underped system with the repairs rule its
        repair routine's (``underped.repair_engineering``) when that is more."""
        if derp.is_system and REPAIRS in state.setup.options:
            return max(derp.engineering, self.rules.components.underped.repair_engineering)
        return derp.engineering

    def _can_repair(self, state: GameState, upgoer: Upgoer) -> bool:
        """Some underped system aboard could jury-rig (it has Engineering to repair with)."""
        return any(self.repair_engineering(state, d) >= 1 for d in self._systems(state, upgoer))

    def _spent_systems(self, state: GameState, upgoer: Upgoer) -> bool:
        """No system aboard can act any more: none is powered up with stamina, none can pay to power up."""
        rules = self.rules.components.underped
        systems = self._systems(state, upgoer)
        if not systems or self._living_crew(state, upgoer):
            return False
        for d in systems:
            if d.awake and d.current_stamina >= rules.action_stamina:
                return False
            if d.powered_down and d.current_stamina >= max(1, rules.power_up_stamina):
                return False
        return True

    # ------------------------------------------------------------------ after liftoff
    def _power_up_after_liftoff(self, state: GameState, upgoer: Upgoer) -> GameState:
        """Each system aboard checks its reliability to power up once the craft has left the ground."""
        upgoer = state.upgoer(upgoer.id)
        rolls = [self._power_up_roll(state, upgoer, d) for d in self._systems(state, upgoer) if d.powered_down]
        return self._queue_rolls(state, rolls) if rolls else state

    def _power_up_roll(self, state: GameState, upgoer: Upgoer, derp: Derp) -> PendingRoll:
        return self._new_roll(state, "power_up", upgoer, [state.item(derp.system)], upgoer.location, "power_up",
                              actor=derp.id, target=derp.system)

    def _power_up_done(self, state: GameState, roll: PendingRoll, outcome: Outcome) -> GameState:
        derp = state.find("derp", roll.actor)
        if derp is None or derp.dead:
            return state
        upgoer = state.find("upgoer", roll.upgoer)
        if outcome is Outcome.OK:
            state = dataclasses.replace(state, derps=replace_in(state.derps, [update(derp, powered_down=False)]))
            return self._event(state, f"{derp.name} powers up and is ready to work.", upgoer)
        return self._event(state, f"{derp.name} stays powered down.", upgoer)

    # ------------------------------------------------------------------ every action a system takes
    def _underped_check(self, state: GameState, upgoer: Upgoer, action: Action) -> None:
        """Refuse what a system cannot do: go outside, act without stamina, break clockwork orders."""
        if not self.underped_in_play(state):
            return
        cost = self.rules.components.underped.action_stamina
        derp = state.find("derp", getattr(action, "derp", "") or "")
        if derp is not None and derp.is_system and not isinstance(action, (PowerUp, PowerDown)):
            if isinstance(action, OUTSIDE_ACTIONS):
                raise IllegalAction(f"{derp.name} is an underped system and stays in its capsule")
            if isinstance(action, JuryRig):
                item = state.find("item", action.item)
                if item is not None and self._role(state, item) not in INSIDE_ROLES:
                    raise IllegalAction(f"{derp.name} is an underped system and stays in its capsule: it can "
                                        f"only repair a capsule or habitat from inside")
            if derp.powered_down:
                raise IllegalAction(f"{derp.name} is powered down")
            if derp.current_stamina < cost:
                raise IllegalAction(f"{derp.name} needs {cost} stamina for any action and has {derp.current_stamina}")
        if isinstance(action, Transfer):
            moved = [state.find("derp", d) for d in action.derps]
            if any(d is not None and d.is_system for d in moved):
                raise IllegalAction("an underped system is built into its craft: it is not carried across")
        if isinstance(action, CRAFT_ACTIONS) and self._systems(state, upgoer) \
                and not any(d.awake for d in self._living_crew(state, upgoer)) \
                and self._robot_pilot(state, upgoer) is None:
            raise IllegalAction(f"no one aboard {upgoer.name} can act: its underped systems are powered down "
                                f"or out of stamina")
        if self.clockwork(state, upgoer):
            self._clockwork_check(state, upgoer, action)

    def _underped_cost(self, before: GameState, after: GameState, upgoer: Upgoer, action: Action) -> GameState:
        """A system spends stamina on any action it takes (at least ``action_stamina``), burns included."""
        if not self.underped_in_play(before) or isinstance(action, (PowerUp, PowerDown, GiveStamina, SelfDestruct,
                                                                    AbortOrders)):
            return after
        cost = self.rules.components.underped.action_stamina
        named = before.find("derp", getattr(action, "derp", "") or "")
        if named is not None:
            if not named.is_system:
                return after
            spent = named.current_stamina - after.derp(named.id).current_stamina
            return self._spend(after, named, cost - spent) if spent < cost else after
        if isinstance(action, CRAFT_ACTIONS):
            pilot = self._robot_pilot(before, upgoer)
            if pilot is not None:
                after = self._spend(after, pilot, cost)
        return after

    # ------------------------------------------------------------------ the activities
    def _underped_candidates(self, state: GameState, upgoer: Upgoer) -> list[Action]:
        f: FlightPhase = state.flight
        if not self.underped_in_play(state):
            return []
        out: list[Action] = []
        if self.clockwork(state, upgoer) and upgoer.orders:
            out.append(AbortOrders(upgoer.id))
        if f.mode not in ("before", "after"):
            return out
        systems = self._systems(state, upgoer)
        for d in systems:
            out.append(PowerDown(d.id) if d.awake else PowerUp(d.id))
        partners = [self._systems(state, p) for p in self._docked_partners(state, upgoer)]
        reachable = systems + [d for group in partners for d in group]
        for giver in self._healthy(state, upgoer):
            if not giver.is_system:
                out += [GiveStamina(giver.id, d.id) for d in reachable]
        if systems:
            out.append(SelfDestruct(upgoer.id))
        return out

    def _underped_handlers(self) -> dict:
        return {PowerDown: self._power_down, PowerUp: self._power_up, GiveStamina: self._give_stamina,
                SelfDestruct: self._self_destruct, AbortOrders: self._abort_orders}

    def _underped_checks(self) -> dict:
        """The check each underped handler makes first (see ``PhasePart._action_checks``)."""
        return {PowerDown: self._check_power_down, PowerUp: self._check_power_up,
                GiveStamina: self._check_give_stamina, SelfDestruct: self._check_self_destruct,
                AbortOrders: self._check_abort_orders}

    def _aboard_system(self, state: GameState, upgoer: Upgoer, derp_id: str) -> Derp:
        derp = state.find("derp", derp_id)
        if derp is None or not derp.is_system or derp.location != upgoer.id or derp.dead:
            raise IllegalAction(f"{derp_id} is not an underped system aboard {upgoer.name}")
        return derp

    def _check_power_down(self, state: GameState, upgoer: Upgoer, a: PowerDown) -> None:
        self._require_activity(state, upgoer, "powering down")
        derp = self._aboard_system(state, upgoer, a.derp)
        if derp.powered_down:
            raise IllegalAction(f"{derp.name} is already powered down")

    def _power_down(self, state: GameState, upgoer: Upgoer, a: PowerDown) -> GameState:
        self._check_power_down(state, upgoer, a)
        derp = state.derp(a.derp)
        state = dataclasses.replace(state, derps=replace_in(state.derps, [update(derp, powered_down=True)]))
        return self._event(state, f"{derp.name} powers down to save itself for later.", upgoer)

    def _check_power_up(self, state: GameState, upgoer: Upgoer, a: PowerUp) -> None:
        self._require_activity(state, upgoer, "powering up")
        derp = self._aboard_system(state, upgoer, a.derp)
        if not derp.powered_down:
            raise IllegalAction(f"{derp.name} is already powered up")
        cost = self.rules.components.underped.power_up_stamina
        if derp.current_stamina < max(1, cost):
            raise IllegalAction(f"powering up needs {max(1, cost)} stamina left; {derp.name} has "
                                f"{derp.current_stamina} (a derp can give it some)")

    def _power_up(self, state: GameState, upgoer: Upgoer, a: PowerUp) -> GameState:
        self._check_power_up(state, upgoer, a)
        derp, cost = state.derp(a.derp), self.rules.components.underped.power_up_stamina
        state = self._spend(state, derp, cost)
        state = self._event(state, f"{derp.name} tries to power up.", upgoer)
        return self._queue_rolls(state, [self._power_up_roll(state, upgoer, derp)])

    def _check_give_stamina(self, state: GameState, upgoer: Upgoer, a: GiveStamina) -> None:
        self._require_activity(state, upgoer, "handing over stamina")
        giver = self._crew_member(state, upgoer, a.derp, need_stamina=False)
        if giver.is_system:
            raise IllegalAction(f"{giver.name} is a system itself; a derp hands over stamina")
        amount = self.rules.components.underped.given_stamina
        if giver.current_stamina < amount:
            raise IllegalAction(f"{giver.name} has {giver.current_stamina} stamina, not {amount} to give")
        system = state.find("derp", a.system)
        places = {upgoer.id} | set(upgoer.docked_with)
        if system is None or not system.is_system or system.dead or system.location not in places:
            raise IllegalAction(f"{a.system} is not an underped system aboard {upgoer.name} or a craft docked to it")
        if system.current_stamina >= system.stamina:
            raise IllegalAction(f"{system.name} is already fully charged ({system.stamina} stamina)")

    def _give_stamina(self, state: GameState, upgoer: Upgoer, a: GiveStamina) -> GameState:
        self._check_give_stamina(state, upgoer, a)
        giver, system = state.derp(a.derp), state.derp(a.system)
        amount = self.rules.components.underped.given_stamina
        given = min(amount, system.stamina - system.current_stamina)
        state = self._spend(state, giver, given)
        system = state.derp(system.id)
        state = dataclasses.replace(state, derps=replace_in(state.derps, [
            update(system, current_stamina=system.current_stamina + given)]))
        state = self._event(state, f"{giver.name} gives {system.name} {given} stamina.", upgoer)
        return self._open_orders(state, state.upgoer(system.location))

    def _check_self_destruct(self, state: GameState, upgoer: Upgoer, a: SelfDestruct) -> None:
        self._require_activity(state, upgoer, "a self-destruct")
        if a.upgoer != upgoer.id:
            raise IllegalAction("only the craft that is acting can destroy itself")
        if not self._spent_systems(state, upgoer):
            raise IllegalAction(f"{upgoer.name} self-destructs only when its underped systems, with no derp "
                                f"aboard, can no longer act")

    def _self_destruct(self, state: GameState, upgoer: Upgoer, a: SelfDestruct) -> GameState:
        self._check_self_destruct(state, upgoer, a)
        state = self._undock_all(state, upgoer, "before the end")
        state = self._destroy_upgoer(state, state.upgoer(upgoer.id),
                                     f"{upgoer.name}'s systems, out of stamina, destroy the craft rather than drift.")
        return self._set(state, active=None, mode="")

    # ------------------------------------------------------------------ clockwork
    def check_orders(self, state: GameState, upgoer: Upgoer, burns: tuple[str, ...]) -> str:
        """Orders a clockwork craft can be given (each a burn's destination or a "verb:subject" order of
        ``ORDER_VERBS``), in words."""
        if CLOCKWORK not in state.setup.options:
            raise IllegalAction("orders are written only with the clockwork robots rule")
        if not any(d.is_system for d in state.derps if d.location == upgoer.id):
            raise IllegalAction(f"{upgoer.name} carries no underped system to follow orders")
        if len(burns) > 20:
            raise IllegalAction("at most 20 orders can be written down")
        targets = {b.to for step in self.board.steps for b in self.board.burns_from(step.id, self._scenario(state))}
        verbs = {verb: field for verb, field in ORDER_VERBS.values()}
        for entry in burns:
            verb, _, subject = entry.partition(":")
            if not subject:
                if entry not in targets:
                    raise IllegalAction(f"'{entry}' is not a place a burn leads to")
            elif verb not in verbs:
                raise IllegalAction(f"'{verb}' is not something a robot can be ordered to do")
            elif verb == "shed" and subject != "fuel" and (state.find("item", subject) is None
                                                          or subject not in upgoer.modules):
                raise IllegalAction(f"'{subject}' is not a part {upgoer.name} can shed")
            elif verbs[verb] == "item" and (state.find("item", subject) is None
                                            or state.item(subject).location != upgoer.id):
                raise IllegalAction(f"'{subject}' is not a part aboard {upgoer.name}")
            elif verb == "jury_rig":
                self._check_repair_order(state, upgoer, state.item(subject))
            elif verb == "nudge" and (state.rock is None or subject != upgoer.id):
                raise IllegalAction(f"a nudge is written for {upgoer.name} itself, in a game with the rock to push")
            elif verbs[verb] == "derp" and not any(d.id == subject and d.is_system and d.location == upgoer.id
                                                   for d in state.derps):
                raise IllegalAction(f"'{subject}' is not an underped system aboard {upgoer.name}")
            elif verbs[verb] in ("target", "upgoer") and state.find("upgoer", subject) is None:
                raise IllegalAction(f"'{subject}' is not an Upgoer")
        return ", then ".join(self.order_words(state, e) for e in burns) or "nothing (it coasts)"

    def _check_repair_order(self, state: GameState, upgoer: Upgoer, item: Item) -> None:
        """A jury-rig is written only for a part inside that is broken now, on a craft whose systems can repair:
        a robot follows its orders as written, and "if it breaks, mend it" would be a second branch."""
        name = self._name(state, item)
        if not self._can_repair(state, upgoer):
            raise IllegalAction(f"the systems aboard {upgoer.name} have no Engineering to jury-rig with"
                                + ("" if REPAIRS in state.setup.options else " (that needs the robot repairs rule)"))
        if self._role(state, item) not in INSIDE_ROLES:
            raise IllegalAction(f"{name} is outside: a system stays in its capsule and repairs only a capsule or "
                                f"habitat")
        if not item.disabled:
            raise IllegalAction(f"{name} works: a robot is ordered to mend only what is broken now (its orders "
                                f"have no 'if it breaks' branch)")

    def order_choices(self, state: GameState, upgoer: Upgoer) -> list[str]:
        """The orders worth offering for ``upgoer`` (every one passes ``check_orders``): each burn's destination,
        then using, deploying, jury-rigging or shedding its parts, shedding fuel, powering its systems down and
        up, docking with, undocking from or catching up with the other craft in space, and nudging the rock."""
        targets: dict[str, None] = {}
        for step in self.board.steps:
            for b in self.board.burns_from(step.id, self._scenario(state)):
                targets.setdefault(b.to)
        out = list(targets)
        for item in (i for i in state.items if i.location == upgoer.id):
            if self._role(state, item) == "payload" and self._kind(state, item) in ("waylight", "probe", "mapping"):
                out.append(f"use:{item.id}")
            if self._kind(state, item) == "waylight":
                out.append(f"deploy:{item.id}")
            if item.disabled and self._role(state, item) in INSIDE_ROLES and self._can_repair(state, upgoer):
                out.append(f"jury_rig:{item.id}")
        out.append("shed:fuel")
        out += [f"shed:{m}" for m in upgoer.modules if state.find("item", m) is not None
                and self._role(state, state.item(m)) not in ("capsule", "habitat", UNDERPED)]
        for d in state.derps:
            if d.is_system and d.location == upgoer.id:
                out += [f"power_down:{d.id}", f"power_up:{d.id}"]
        for other in state.upgoers:
            if other.id != upgoer.id and other.in_space:
                out += [f"dock:{other.id}", f"undock:{other.id}", f"catch_up:{other.id}"]
        if state.rock is not None:
            out.append(f"nudge:{upgoer.id}")
        return out

    def order_words(self, state: GameState, entry: str) -> str:
        """One written order in a player's words."""
        verb, _, subject = entry.partition(":")
        if not subject:
            return f"burn to {self.board.step(entry).name}"
        thing = state.find("item", subject) or state.find("derp", subject) or state.find("upgoer", subject)
        name = getattr(thing, "name", "") or (state.thing(thing.thing_id).name if hasattr(thing, "thing_id")
                                              else "something gone")
        return {"use": f"use {name}", "deploy": f"deploy {name} as a beacon", "jury_rig": f"jury-rig {name}",
                "power_down": f"power {name} down", "power_up": f"power {name} up", "dock": f"dock with {name}",
                "undock": f"undock from {name}", "catch_up": f"catch up with {name}",
                "nudge": "nudge the rock", "shed": "shed a point of fuel" if subject == "fuel" else f"shed {name}",
                }.get(verb, entry)

    def _clockwork_check(self, state: GameState, upgoer: Upgoer, action: Action) -> None:
        """The written orders, in order: the next burn is made when it is offered here (or, after it failed,
        retried or the orders aborted) and nothing else is burned; the next other order is the only other
        action the craft takes, and once it can be taken the craft does not move on or end its turn first."""
        due = upgoer.orders[0] if upgoer.orders else None
        written = order_of(action)
        if isinstance(action, (Burn, Coast)):
            here = self.board.step(upgoer.location)
            offered = {b.to for b in self.board.burns_from(here.id, self._scenario(state))}
            if isinstance(action, Burn) and written != due:
                raise IllegalAction(f"{upgoer.name} follows its written orders: " +
                                    (f"its next order is to {self.order_words(state, due)}" if due
                                     else "it has no order left"))
            if isinstance(action, Coast) and due in offered:
                raise IllegalAction(f"{upgoer.name} must make its written burn to {self.board.step(due).name} here "
                                    f"(or abort its orders)")
            return
        if isinstance(action, UNWRITTEN):
            if isinstance(action, (Move, EndActivities)) and due and ":" in due:
                doable = self._due_action(state, upgoer, due)
                if doable is not None:
                    raise IllegalAction(f"{upgoer.name} must first {self.order_words(state, due)}, as written")
            return
        if written is None or written != due:
            raise IllegalAction(f"{upgoer.name} follows its written orders: " +
                                (f"its next order is to {self.order_words(state, due)}" if due
                                 else "it has no order left"))

    def _due_action(self, state: GameState, upgoer: Upgoer, due: str) -> Optional[Action]:
        """The action carrying out the written order ``due`` that the engine allows here and now, if any."""
        for action in self._activity_candidates(state, upgoer) + self._underped_candidates(state, upgoer):
            if order_of(action) == due and self._activity_allowed(state, upgoer, action):
                return action
        return None

    def _order_taken(self, state: GameState, upgoer: Upgoer, action: Action) -> GameState:
        """A written order other than a burn is crossed off once taken, whatever its roll brings (only a burn
        has the retry-or-abort branch); burns are crossed off when they work (``_order_done``)."""
        if isinstance(action, Burn) or not self.underped_in_play(state):
            return state
        current = state.find("upgoer", upgoer.id)
        if current is None or not current.orders or order_of(action) != current.orders[0]:
            return state
        return self._replace_upgoer(state, update(current, orders=current.orders[1:]))

    def _check_abort_orders(self, state: GameState, upgoer: Upgoer, a: AbortOrders) -> None:
        if a.upgoer != upgoer.id or not self.clockwork(state, upgoer) or not upgoer.orders:
            raise IllegalAction("only a clockwork craft with orders left can abort them")
        if state.flight.mode != "junction":
            raise IllegalAction("orders are aborted at a burn, when the written burn fails")

    def _abort_orders(self, state: GameState, upgoer: Upgoer, a: AbortOrders) -> GameState:
        self._check_abort_orders(state, upgoer, a)
        state = self._replace_upgoer(state, update(upgoer, orders=(), orders_aborted=True))
        return self._event(state, f"{upgoer.name} gives up the rest of its orders and coasts on.", upgoer)

    def _order_done(self, state: GameState, roll: PendingRoll, outcome: Outcome) -> GameState:
        """A written burn that worked is crossed off."""
        upgoer = state.find("upgoer", roll.upgoer)
        if outcome is not Outcome.OK or upgoer is None or not upgoer.orders or upgoer.orders[0] != roll.target:
            return state
        return self._replace_upgoer(state, update(upgoer, orders=upgoer.orders[1:]))

    # ------------------------------------------------------------------ the end of the turn
    def _recharge_systems(self, state: GameState, upgoer: Upgoer) -> GameState:
        """A working generator recharges the systems aboard (unless its duration roll failed this turn)."""
        upgoer = state.upgoer(upgoer.id)
        if upgoer.habitat_failed or not any(self._kind(state, i) == "generator"
                                            for i in self._modules(state, upgoer, "payload")):
            return state
        gain = self.rules.components.underped.generator_recharge
        charged = [update(d, current_stamina=min(d.stamina, d.current_stamina + gain))
                   for d in self._systems(state, upgoer) if d.current_stamina < d.stamina]
        if not charged:
            return state
        state = dataclasses.replace(state, derps=replace_in(state.derps, charged))
        state = self._say(state, [Event(f"The generator aboard {upgoer.name} recharges "
                                        f"{', '.join(d.name for d in charged)}.", upgoer.owner, "flight")])
        return self._open_orders(state, state.upgoer(upgoer.id))

    def _open_orders(self, state: GameState, upgoer: Upgoer) -> GameState:
        """Clockwork: "written down at launch (or recharge)": a clockwork craft whose systems were just
        recharged in flight may have its orders rewritten in the owner's next R&D (closed when flights begin)."""
        if upgoer.status != "flying" or upgoer.orders_open or not self.clockwork(state, upgoer):
            return state
        state = self._replace_upgoer(state, update(upgoer, orders_open=True))
        return self._say(state, [Event(f"{upgoer.name} is recharged: its owner may rewrite its orders before the "
                                       f"next flights.", upgoer.owner, "flight")])
