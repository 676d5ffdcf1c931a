"""Craft meeting craft.

Docking (with RCS, or a winch on an EVA), undocking, catch-up burns along an orbit, transfers between
docked craft and EVAs across, with the rules of a rescue (rival derps, written-off crews, cooperation).
"""
from __future__ import annotations

import dataclasses
from fractions import Fraction

from game.core.interface import IllegalAction
from game.games.whatgoesup.rules import formulas
from game.games.whatgoesup.rules.flight.common import FlightBase, PendingRoll
from game.games.whatgoesup.rules.flight_actions import CatchUp, Dock, Eva, Separate, Transfer, Undock
from game.games.whatgoesup.rules.reliability import Outcome
from game.games.whatgoesup.rules.state import Derp, GameState, Upgoer, replace_in, update, with_program
from game.games.whatgoesup.rules.limits import UPGOER_NAME_MAX
from game.core.words import counted


class RendezvousPart(FlightBase):
    """Docking, catch-up burns, transfers, EVAs and rescues."""

    # ------------------------------------------------------------------ docking
    def _check_dock(self, state: GameState, upgoer: Upgoer, a: Dock) -> None:
        self._require_activity(state, upgoer, "docking")
        target = self._same_stable_step(state, upgoer, a.target)
        if target.id in upgoer.docked_with:
            raise IllegalAction(f"{upgoer.name} is already docked with {target.name}")
        if state.turn in (upgoer.caught_up_turn, target.caught_up_turn):
            raise IllegalAction("after a catch-up burn the craft are still matching orbits: dock next turn")
        derp = self._crew_member(state, upgoer, a.derp)
        if a.method == "winch":
            if self.piloting(state, derp) < self.table.eva_min_piloting:
                raise IllegalAction(f"{derp.name} needs {self.table.eva_min_piloting} Piloting to go outside with the winch")
            winch = self._usable(state, upgoer, "winch")
            pack = self._usable(state, upgoer, "eva_pack")
            if winch is None or pack is None:
                raise IllegalAction("winch docking needs a working winch and an EVA pack aboard")
            cost = self.table.winch_docking_stamina
            if derp.current_stamina < cost:
                raise IllegalAction(f"docking with the winch costs {cost} stamina; {derp.name} has {derp.current_stamina}")
            return
        if a.method != "rcs":
            raise IllegalAction("dock with RCS or with a winch")
        if self.piloting(state, derp) < self.table.docking_min_piloting:
            raise IllegalAction(f"docking needs a derp with at least {self.table.docking_min_piloting} Piloting; "
                                f"{derp.name} has {self.piloting(state, derp)}")
        if not any((i.uses_left or 0) > 0 for i in self._modules(state, upgoer, "rcs")):
            raise IllegalAction(f"{upgoer.name} has no RCS with fuel left for docking")

    def _dock(self, state: GameState, upgoer: Upgoer, a: Dock) -> GameState:
        self._check_dock(state, upgoer, a)
        target, derp = state.upgoer(a.target), state.derp(a.derp)
        if a.method == "winch":
            pack = self._usable(state, upgoer, "eva_pack")
            state = self._spend(state, derp, self.table.winch_docking_stamina)
            eva = self._new_roll(state, "eva", upgoer, [pack], upgoer.location, "activity", actor=derp.id,
                                 target=target.id, detail=(("then", "winch"),))
            return self._queue_rolls(state, [eva])
        rcs = [i for i in self._modules(state, upgoer, "rcs") if (i.uses_left or 0) > 0]
        state = self._spend(state, derp)
        roll = self._new_roll(state, "docking", upgoer, [rcs[0]], upgoer.location, "activity", actor=derp.id,
                              target=target.id, detail=(("then", "dock"),))
        return self._queue_rolls(state, [roll])

    def _docked(self, state: GameState, upgoer: Upgoer, target: Upgoer) -> GameState:
        upgoer = update(state.upgoer(upgoer.id), docked_with=upgoer.docked_with + (target.id,))
        target = update(state.upgoer(target.id), docked_with=target.docked_with + (upgoer.id,))
        target_moved = target.moved_this_turn
        if not target.moved_this_turn or not upgoer.moved_this_turn:
            # Matching orbits: a craft that has not moved yet no longer moves this turn.
            upgoer, target = update(upgoer, moved_this_turn=upgoer.moved_this_turn or state.flight.mode == "after"), \
                update(target, moved_this_turn=True)
        state = self._replace_upgoer(self._replace_upgoer(state, upgoer), target)
        if target_moved and state.flight.active == upgoer.id and state.flight.mode == "before":
            state = self._set(state, mode="after")  # docked to a craft that has already moved: this one stays
        state = self._event(state, f"{upgoer.name} docks with {target.name}!", upgoer, "flight")
        return self._first(state, upgoer.owner, "docking", f"{upgoer.name} and {target.name}", craft=upgoer)

    def _check_catch_up(self, state: GameState, upgoer: Upgoer, a: CatchUp) -> None:
        self._require_activity(state, upgoer, "a catch-up burn")
        if state.flight.mode != "after":
            raise IllegalAction("catch up after moving, once both craft are on their orbit for the turn")
        target = state.find("upgoer", a.target)
        if target is None or target.id == upgoer.id or not target.in_space and target.status != "written_off":
            raise IllegalAction(f"there is no craft {a.target} in space to catch up with")
        here, there = self.board.step(upgoer.location), self.board.step(target.location)
        if here.kind != "orbit" or there.kind != "orbit" or here.rail is None or here.rail != there.rail:
            raise IllegalAction(f"{target.name} is not on {upgoer.name}'s orbit")
        if here.id == there.id:
            raise IllegalAction(f"{upgoer.name} is already at {target.name}'s step")
        if not target.moved_this_turn:
            raise IllegalAction(f"{target.name} has not moved yet this turn; catch up once it has")
        if not self.can_steer(state, upgoer):
            raise IllegalAction(f"{upgoer.name} cannot be steered")
        if not self._modules(state, upgoer, "thruster"):
            raise IllegalAction(f"{upgoer.name} has no working thruster")
        cost = formulas.fuel_for_burn(self.spacecraft_mass(state, upgoer), self.rules.economy.fuel)
        if upgoer.fuel < cost:
            raise IllegalAction(f"catching up costs {cost} fuel and {upgoer.name} has {upgoer.fuel}")

    def _catch_up(self, state: GameState, upgoer: Upgoer, a: CatchUp) -> GameState:
        self._check_catch_up(state, upgoer, a)
        target, there = state.upgoer(a.target), self.board.step(state.upgoer(a.target).location)
        thrusters = self._modules(state, upgoer, "thruster")
        cost = formulas.fuel_for_burn(self.spacecraft_mass(state, upgoer), self.rules.economy.fuel)
        state = self._undock_all(state, upgoer, "to make its burn")
        fired = update(state.upgoer(upgoer.id), fuel=upgoer.fuel - cost)
        best = max(thrusters, key=lambda i: self.engine.item_rating(state, i).score())
        roll = self._new_roll(state, "burn", fired, [best], there.id, "activity", target=target.id,
                              detail=(("then", "catch_up"), ("fuel", cost)))
        # The fuel spent, the roll queued and told in one copy (the roll reads the parts, never the craft pool).
        return self._queue_rolls(state, [roll], self._told(f"{upgoer.name} burns {cost} fuel to catch up with "
                                                           f"{target.name}.", upgoer), fired)

    def _check_undock(self, state: GameState, upgoer: Upgoer, a: Undock) -> None:
        self._require_activity(state, upgoer, "undocking")
        if a.target not in upgoer.docked_with:
            raise IllegalAction(f"{upgoer.name} is not docked with {a.target}")

    def _undock(self, state: GameState, upgoer: Upgoer, a: Undock) -> GameState:
        self._check_undock(state, upgoer, a)
        target = state.upgoer(a.target)
        state = self._replace_upgoer(state, update(upgoer, docked_with=tuple(x for x in upgoer.docked_with if x != a.target)))
        state = self._replace_upgoer(state, update(target, docked_with=tuple(x for x in target.docked_with if x != upgoer.id)))
        return self._event(state, f"{upgoer.name} undocks from {target.name}.", upgoer)

    # ------------------------------------------------------------------ separating craft launched docked
    def _check_separate(self, state: GameState, upgoer: Upgoer, a: Separate) -> None:
        self._require_activity(state, upgoer, "separating")
        if not self.board.step(upgoer.location).is_stable:
            raise IllegalAction("craft separate where craft can meet: in a stable orbit or on a surface")
        modules = tuple(dict.fromkeys(a.modules))
        if not modules or any(m not in upgoer.modules for m in modules):
            raise IllegalAction(f"name parts of {upgoer.name} to separate")
        if len(modules) == len(upgoer.modules):
            raise IllegalAction("something must stay behind: name only the parts that leave")
        crew = tuple(dict.fromkeys(a.crew))
        aboard = {d.id for d in self._crew(state, upgoer)}
        if any(d not in aboard for d in crew):
            raise IllegalAction(f"name derps aboard {upgoer.name}")
        if not 0 <= a.fuel <= upgoer.fuel or not 0 <= a.rations <= upgoer.rations:
            raise IllegalAction(f"{upgoer.name} does not carry that much fuel or rations")
        name = a.name.strip() or self._separated_name(state, upgoer)
        if len(name) > UPGOER_NAME_MAX:
            raise IllegalAction(f"a name has at most {UPGOER_NAME_MAX} letters")
        stays = tuple(m for m in upgoer.modules if m not in modules)
        for parts, derps, rations, which in ((modules, crew, a.rations, name),
                                              (stays, tuple(aboard - set(crew)), upgoer.rations - a.rations,
                                               upgoer.name)):
            self._check_half(state, parts, derps, rations, which)

    def _separate(self, state: GameState, upgoer: Upgoer, a: Separate) -> GameState:
        """"Undocking - It's free. In fact, it's so free that you can launch docked craft and undock them later!"

        The parts named become a craft of their own, docked to the rest: crew, payloads, fuel and rations then
        move by transfer, and an undocking lets the two go their separate ways.
        """
        self._check_separate(state, upgoer, a)
        modules, crew = tuple(dict.fromkeys(a.modules)), tuple(dict.fromkeys(a.crew))
        name = a.name.strip() or self._separated_name(state, upgoer)
        stays = tuple(m for m in upgoer.modules if m not in modules)
        new_id = f"U{state.next_id}"
        new = update(upgoer, id=new_id, name=name, stages=(), modules=modules, crew=crew, fuel=a.fuel,
                     rations=a.rations, docked_with=(upgoer.id,), crewed_turns=upgoer.crewed_turns if crew else 0,
                     reentries=0, mapped=(), stranded=False, rush=0, relic_mass=0, temple_found=False)
        rest = update(upgoer, modules=stays, crew=tuple(d for d in upgoer.crew if d not in crew),
                      fuel=upgoer.fuel - a.fuel, rations=upgoer.rations - a.rations,
                      docked_with=upgoer.docked_with + (new_id,))
        state = update(state, next_id=state.next_id + 1, upgoers=replace_in(state.upgoers, [rest]) + (new,))
        state = self._replace_items(state, [update(state.item(m), location=new_id) for m in modules])
        state = dataclasses.replace(state, derps=replace_in(state.derps, [update(state.derp(d), location=new_id)
                                                                          for d in crew]))
        return self._event(state, f"{name} separates from {upgoer.name}; the two stay docked until one undocks.",
                           upgoer)

    def _separated_name(self, state: GameState, upgoer: Upgoer) -> str:
        taken = {u.name.lower() for u in state.upgoers}
        n = 2
        while f"{upgoer.name} {n}".lower() in taken:
            n += 1
        return f"{upgoer.name} {n}"[:UPGOER_NAME_MAX]

    def _check_half(self, state: GameState, parts: tuple, derps: tuple, rations: int, name: str) -> None:
        """Refuse a separated craft whose crew, payloads and rations its own cabins cannot hold."""
        comps = self.rules.components
        roles = {m: self._role(state, state.item(m)) for m in parts}
        pods = [m for m in parts if roles[m] in ("capsule", "habitat")]
        cargo = [m for m in parts if roles[m] in ("payload", "rcs")]
        if derps and not any(roles[m] == "capsule" for m in parts):
            raise IllegalAction(f"{name} would carry a crew without a capsule to fly in")
        if (derps or cargo or rations) and not pods:
            raise IllegalAction(f"{name} would carry crew, payloads or rations with no capsule or habitat")
        capacity = sum(formulas.capsule_capacity(state.thing(state.item(m).thing_id).base_mass, comps) for m in pods)
        load = formulas.cabin_load(len(derps), len(cargo), rations, self.rules.economy.derps.mass, comps)
        if load > capacity:
            raise IllegalAction(f"{name}'s cabins carry {capacity} but would hold {float(load):g}")

    # ------------------------------------------------------------------ transfers and rescues
    def _may_take_from(self, state: GameState, upgoer: Upgoer, source: Upgoer) -> bool:
        return source.owner == upgoer.owner or source.stranded or source.status in ("written_off", "debris") \
            or not self._healthy(state, source) or self._cooperative(state)

    def _cooperative(self, state: GameState) -> bool:
        """A cooperative scenario: programs share one fate, so their craft share freely and rescue for nothing."""
        scenario = self.engine.rock_rules.scenario(state)
        return scenario is not None and scenario.cooperative

    def _check_transfer(self, state: GameState, upgoer: Upgoer, a: Transfer) -> None:
        self._require_activity(state, upgoer, "a transfer")
        if upgoer.id not in (a.source, a.target):
            raise IllegalAction(f"{upgoer.name} must be one side of the transfer")
        other_id = a.target if a.source == upgoer.id else a.source
        if other_id not in upgoer.docked_with:
            raise IllegalAction(f"{upgoer.name} is not docked with {other_id}; transfers between undocked craft need an EVA")
        source, target = state.upgoer(a.source), state.upgoer(a.target)
        if source.owner != upgoer.owner and not self._may_take_from(state, upgoer, source):
            raise IllegalAction(f"{source.name} is not yours and its crew can still fly it")
        if min(a.fuel, a.rations) < 0 or not (a.derps or a.items or a.fuel or a.rations):
            raise IllegalAction("name what to transfer")
        if a.fuel > source.fuel or a.rations > source.rations:
            raise IllegalAction(f"{source.name} does not have that much fuel or rations")
        for d in a.derps:
            derp = state.find("derp", d)
            if derp is None or derp.location != source.id or derp.dead:
                raise IllegalAction(f"{d} is not aboard {source.name}")
        for i in a.items:
            item = state.find("item", i)
            if item is None or item.location != source.id or self._role(state, item) not in ("payload", "rcs"):
                raise IllegalAction(f"{i} is not a payload or RCS aboard {source.name}")
        self._check_room(state, target, len(a.derps), len(a.items), a.rations)

    def _transfer(self, state: GameState, upgoer: Upgoer, a: Transfer) -> GameState:
        self._check_transfer(state, upgoer, a)
        source, target = state.upgoer(a.source), state.upgoer(a.target)
        return self._move_goods(state, source, target, a.derps, a.items, a.fuel, a.rations, upgoer)

    def _move_goods(self, state: GameState, source: Upgoer, target: Upgoer, derps: tuple, items: tuple, fuel: int,
                    rations: int, actor: Upgoer) -> GameState:
        source, target = state.upgoer(source.id), state.upgoer(target.id)
        source = update(source, fuel=source.fuel - fuel, rations=source.rations - rations,
                        modules=tuple(m for m in source.modules if m not in items))
        target = update(target, fuel=target.fuel + fuel, rations=target.rations + rations, modules=target.modules + tuple(items))
        state = self._replace_upgoer(self._replace_upgoer(state, source), target)
        state = self._replace_items(state, [update(state.item(i), location=target.id) for i in items])
        moved = []
        rescued_rivals = 0
        for d in derps:
            derp = state.derp(d)
            changes = {"location": target.id}
            if derp.owner != target.owner and not self._cooperative(state) and (
                    source.stranded or source.status == "written_off" or not self._healthy(state, source)):
                if source.status == "written_off":
                    changes["defected"] = True
                    changes["owner"] = target.owner
                else:
                    rescued_rivals += 1
                    dots = self.rules.prestige.rescue_dots_per_derp
                    state = self.engine.add_dots(state, target.owner, dots, f"Rescue Mission ({derp.name})")
                    state = self.engine.add_dots(state, derp.owner, -dots, f"{derp.name} rescued by a rival")
            moved.append(update(derp, **changes))
        state = dataclasses.replace(state, derps=replace_in(state.derps, moved))
        if rescued_rivals or any(m.defected for m in moved):
            count = rescued_rivals + sum(1 for m in moved if m.defected)
            p = state.programs[target.owner]
            state = with_program(state, update(p, luck=p.luck + self.rules.economy.luck.per_rival_derp_rescued * count))
            state = self._event(state, f"{target.name} rescues {counted(count, 'derp')}!", target, "prestige")
        if rations and target.owner != source.owner or (rations and target.id != actor.id):
            state = self._first(state, actor.owner, "rations_delivery", f"rations handed to {target.name}",
                                craft=actor)
        parts = [counted(len(derps), "derp")] if derps else []
        parts += [counted(len(items), "part")] if items else []
        parts += [f"{fuel} fuel"] if fuel else []
        parts += [f"{rations} derp-turns of rations"] if rations else []
        return self._event(state, f"{', '.join(parts)} move from {source.name} to {target.name}.", actor)

    def _check_room(self, state: GameState, target: Upgoer, derps: int, parts: int, rations: int) -> None:
        """Refuse a transfer that the receiving craft's capsules and habitats cannot hold."""
        comps = self.rules.components
        pods = [i for i in self._items_aboard(state, target) if i.id in target.modules
                and self._role(state, i) in ("capsule", "habitat")]
        capacity = sum(formulas.capsule_capacity(state.thing(i.thing_id).base_mass, comps) for i in pods)
        cargo = [i for i in self._items_aboard(state, target) if i.id in target.modules
                 and self._role(state, i) in ("payload", "rcs")]
        mass = self.rules.economy.derps.mass
        load = formulas.cabin_load(len(self._crew(state, target)), len(cargo), target.rations, mass, comps)
        extra = formulas.cabin_load(derps, parts, rations, mass, comps)
        if load + extra > capacity:
            free = max(Fraction(0), capacity - load)
            shown = str(free.numerator) if free.denominator == 1 else f"{float(free):g}"
            raise IllegalAction(f"{target.name} has room for {shown} more mass, not {float(extra):g}")

    # ------------------------------------------------------------------ EVA
    def _check_eva(self, state: GameState, upgoer: Upgoer, a: Eva) -> None:
        self._require_activity(state, upgoer, "an EVA")
        target = self._same_stable_step(state, upgoer, a.target)
        derp = self._crew_member(state, upgoer, a.derp)
        if a.carry_derp is not None:
            self._check_eva_carry(state, upgoer, target, derp, a)
            return
        if self.piloting(state, derp) < self.table.eva_min_piloting:
            raise IllegalAction(f"going outside needs {self.table.eva_min_piloting} Piloting; {derp.name} has "
                                f"{self.piloting(state, derp)}")
        pack = self._usable(state, upgoer, "eva_pack")
        if pack is None:
            raise IllegalAction(f"{upgoer.name} has no working EVA pack")
        per_container = self.rules.components.rations_derp_turns_per_container
        if a.carry_item and not self.table.eva_carries_payload:
            raise IllegalAction("under these rules a derp on EVA carries rations only, never a payload")
        if a.carry_item and a.carry_rations:
            raise IllegalAction("a derp on EVA carries one mass: one payload or one ration container")
        if a.carry_rations and (a.carry_rations > per_container or a.carry_rations > upgoer.rations):
            raise IllegalAction(f"a derp on EVA carries at most one ration container ({per_container} derp-turns)")
        if a.carry_item:
            item = state.find("item", a.carry_item)
            if item is None or item.location != upgoer.id or self._role(state, item) not in ("payload", "rcs") \
                    or item.id == pack.id:
                raise IllegalAction(f"{a.carry_item} is not a payload aboard that can be carried")
        if a.come_back:
            self._check_room(state, target, 0, 1 if a.carry_item else 0, a.carry_rations)
        else:
            self._check_room(state, target, 1, 1 + (1 if a.carry_item else 0), a.carry_rations)

    def _eva(self, state: GameState, upgoer: Upgoer, a: Eva) -> GameState:
        self._check_eva(state, upgoer, a)
        target, derp = state.upgoer(a.target), state.derp(a.derp)
        if a.carry_derp is not None:
            return self._eva_carry(state, upgoer, target, derp, a)
        pack = self._usable(state, upgoer, "eva_pack")
        state = self._spend(state, derp)
        roll = self._new_roll(state, "eva", upgoer, [pack], upgoer.location, "activity", actor=derp.id, target=target.id,
                              detail=(("then", "eva"), ("item", a.carry_item), ("rations", a.carry_rations),
                                      ("back", a.come_back)))
        return self._queue_rolls(state, [roll])

    def _check_eva_carry(self, state: GameState, upgoer: Upgoer, target: Upgoer, helper: Derp, a: Eva) -> None:
        """"An injured derp can be transferred to another Upgoer using an EVA suit, if there is at least one
        healthy derp nearby. The healthy derp may roll for Pilot and Engineer on behalf of the injured comrade."

        The injured derp wears the suit (its roll; a Boom injures them again); ``helper`` pays the stamina,
        needs the EVA Piloting and stays aboard. The pack goes across with the comrade.
        """
        if a.carry_item or a.carry_rations:
            raise IllegalAction("a derp helping an injured comrade across carries nothing else")
        if self.piloting(state, helper) < self.table.eva_min_piloting:
            raise IllegalAction(f"helping a comrade outside needs {self.table.eva_min_piloting} Piloting; "
                                f"{helper.name} has {self.piloting(state, helper)}")
        comrade = state.find("derp", a.carry_derp)
        if comrade is None or comrade.dead or comrade.location not in (upgoer.id, target.id):
            raise IllegalAction(f"{a.carry_derp} is not aboard {upgoer.name} or {target.name}")
        if not comrade.injured:
            raise IllegalAction(f"{comrade.name} is not injured and can go outside on their own")
        source, dest = (upgoer, target) if comrade.location == upgoer.id else (target, upgoer)
        if source.owner != upgoer.owner and not self._may_take_from(state, upgoer, source):
            raise IllegalAction(f"{source.name} is not yours and its crew can still fly it")
        pack = self._usable(state, source, "eva_pack") or self._usable(state, dest, "eva_pack")
        if pack is None:
            raise IllegalAction(f"there is no working EVA pack aboard {upgoer.name} or {target.name}")
        self._check_room(state, dest, 1, 1 if pack.location != dest.id else 0, 0)

    def _eva_carry(self, state: GameState, upgoer: Upgoer, target: Upgoer, helper: Derp, a: Eva) -> GameState:
        """Carry the injured comrade of ``a`` across (``_check_eva_carry`` has allowed it)."""
        comrade = state.derp(a.carry_derp)
        source, dest = (upgoer, target) if comrade.location == upgoer.id else (target, upgoer)
        pack = self._usable(state, source, "eva_pack") or self._usable(state, dest, "eva_pack")
        state = self._spend(state, helper)
        roll = self._new_roll(state, "eva", upgoer, [pack], upgoer.location, "activity", actor=comrade.id,
                              target=dest.id, detail=(("then", "eva_carry"), ("from", source.id),
                                                      ("helper", helper.id)))
        state = self._event(state, f"{helper.name} helps {comrade.name} into an EVA suit to cross to {dest.name}.",
                            upgoer)
        return self._queue_rolls(state, [roll])

    def _eva_carry_done(self, state: GameState, upgoer: Upgoer, roll: PendingRoll, outcome: Outcome) -> GameState:
        detail = dict(roll.detail)
        source, dest = state.find("upgoer", detail["from"]), state.find("upgoer", roll.target)
        comrade = state.find("derp", roll.actor)
        if outcome is not Outcome.OK or source is None or dest is None or comrade is None or comrade.dead:
            return state
        state = self._first(state, upgoer.owner, "eva", f"{comrade.name} crosses in an EVA suit")
        pack = state.find("item", roll.items[0])
        items = (pack.id,) if pack is not None and pack.location == source.id else ()  # the suit crosses too
        return self._move_goods(state, source, dest, (comrade.id,), items, 0, 0, upgoer)

    def _eva_done(self, state: GameState, upgoer: Upgoer, roll: PendingRoll, outcome: Outcome) -> GameState:
        if outcome is not Outcome.OK:
            return state
        detail = dict(roll.detail)
        derp = state.derp(roll.actor)
        target = state.find("upgoer", roll.target)
        state = self._first(state, upgoer.owner, "eva", f"{derp.name} steps outside")
        if target is None:
            return state
        items = (detail["item"],) if detail.get("item") else ()
        derps = () if detail.get("back") else (derp.id,)
        if not detail.get("back"):
            pack = roll.items[0]
            if state.find("item", pack) is not None:
                items = items + (pack,)
        return self._move_goods(state, upgoer, target, derps, items, 0, detail.get("rations", 0), upgoer)
