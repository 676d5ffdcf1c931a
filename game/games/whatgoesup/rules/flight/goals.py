"""Activities that only a scenario or a victory condition offers.

Stop The Rock's nudge, a walk outside on a surface (One Small Step), the search for the Temple and the
Cart's trip to it, and All Your Base's deployed and re-tagged Waylights. The rock's and the victories'
own bookkeeping lives in ``rock.py`` and ``victory.py``.
"""
from __future__ import annotations

import dataclasses

from game.core.interface import IllegalAction
from game.games.whatgoesup.rules.actions import Action
from game.games.whatgoesup.rules.flight.common import NEVER, FlightBase, PendingRoll
from game.games.whatgoesup.rules.flight_actions import Deploy, Nudge, Retag, VisitTemple, WalkOutside
from game.games.whatgoesup.rules.reliability import Outcome, Rating
from game.games.whatgoesup.rules.state import Derp, GameState, Upgoer, replace_in, update


class GoalPart(FlightBase):
    """Nudges, walks outside, the Temple, beacons and re-tagging."""

    def _goal_candidates(self, state: GameState, upgoer: Upgoer, crew: list[Derp]) -> list[Action]:
        """Activities that only a scenario or a victory condition offers."""
        out: list[Action] = []
        step = self.board.step(upgoer.location)
        if state.rock is not None and self.engine.rock_rules.on_rock(upgoer, self.engine.rock_rules.scenario(state)):
            out.append(Nudge(upgoer.id))
        if step.kind == "surface":
            out += [WalkOutside(d.id) for d in crew]
            if upgoer.temple_found:
                out += [VisitTemple(d.id) for d in crew]
        for item in self._items_aboard(state, upgoer):
            if item.active and self._kind(state, item) == "waylight" and step.kind == "orbit":
                out.append(Deploy(item.id))
        if state.rock is None and self.engine.victory_rules.victory(state).kind == "hold_locations":
            for other in self._others_here(state, upgoer):
                if other.owner != upgoer.owner:
                    out += [Retag(d.id, other.id) for d in crew]
        return out

    def _victory(self, state: GameState):
        return None if state.rock is not None else self.engine.victory_rules.victory(state)

    def _check_nudge(self, state: GameState, upgoer: Upgoer, a: Nudge) -> None:
        self._require_activity(state, upgoer, "a nudge")
        rock_rules = self.engine.rock_rules
        scenario = rock_rules.scenario(state)
        if a.upgoer != upgoer.id or state.rock is None or not rock_rules.on_rock(upgoer, scenario):
            raise IllegalAction("only an Upgoer landed on the rock can nudge it")
        if not self.can_steer(state, upgoer):
            raise IllegalAction(f"{upgoer.name} cannot be steered (it needs a working capsule and a healthy derp)")
        thrusters = self._modules(state, upgoer, "thruster")
        if not thrusters:
            raise IllegalAction(f"{upgoer.name} has no working thruster to nudge with")
        if upgoer.fuel < scenario.nudge_fuel:
            raise IllegalAction(f"a nudge fires {scenario.nudge_fuel} fuel and {upgoer.name} has {upgoer.fuel}")

    def _nudge(self, state: GameState, upgoer: Upgoer, a: Nudge) -> GameState:
        """Stop The Rock: fire a thruster from the rock's surface; the fuel is spent whatever the roll."""
        self._check_nudge(state, upgoer, a)
        scenario = self.engine.rock_rules.scenario(state)
        thrusters = self._modules(state, upgoer, "thruster")
        fired = update(upgoer, fuel=upgoer.fuel - scenario.nudge_fuel)
        best = max(thrusters, key=lambda i: self.engine.item_rating(state, i).score())
        roll = self._new_roll(state, "burn", fired, [best], upgoer.location, "activity",
                              detail=(("then", "nudge"), ("fuel", scenario.nudge_fuel)))
        # The fuel spent, the roll queued and told in one copy (the roll reads the parts, never the craft pool).
        return self._queue_rolls(state, [roll], self._told(f"{upgoer.name} fires {scenario.nudge_fuel} fuel against "
                                                           f"the rock.", upgoer), fired)

    def _check_walk_outside(self, state: GameState, upgoer: Upgoer, a: WalkOutside) -> None:
        self._require_activity(state, upgoer, "a walk outside")
        step = self.board.step(upgoer.location)
        if step.kind != "surface" or step.body is None:
            raise IllegalAction("a walk outside needs solid ground: land first")
        derp = self._crew_member(state, upgoer, a.derp)
        if self.piloting(state, derp) < self.table.eva_min_piloting:
            raise IllegalAction(f"going outside needs {self.table.eva_min_piloting} Piloting; {derp.name} has "
                                f"{self.piloting(state, derp)}")
        if step.body in derp.walked_on:
            raise IllegalAction(f"{derp.name} has already walked on {self.board.body(step.body).name}")
        if self._usable(state, upgoer, "eva_pack") is None:
            raise IllegalAction(f"{upgoer.name} has no working EVA pack")

    def _walk_outside(self, state: GameState, upgoer: Upgoer, a: WalkOutside) -> GameState:
        """An EVA on a surface (One Small Step's moonwalk): the EVA pack rolls; the derp comes back in."""
        self._check_walk_outside(state, upgoer, a)
        step, derp, pack = self.board.step(upgoer.location), state.derp(a.derp), self._usable(state, upgoer, "eva_pack")
        state = self._spend(state, derp)
        roll = self._new_roll(state, "eva", upgoer, [pack], step.id, "activity", actor=derp.id,
                              detail=(("then", "walk"), ("body", step.body)))
        return self._queue_rolls(state, [roll])

    # ------------------------------------------------------------------ the Temple
    def _temple_search(self, state: GameState, upgoer: Upgoer, landing) -> GameState:
        """Final Destination: a crewed landing on the Temple's body looks for it, a roll against the map."""
        victory = self._victory(state)
        if victory is None or victory.kind != "find_temple" or landing.body != victory.body \
                or not self._crew(state, upgoer) or upgoer.temple_found or upgoer.status != "flying":
            return state
        mapped = state.programs[upgoer.owner].mapped(victory.body)
        # A D20 against the mapped percentage: each face is 5%, so it is found on a roll of mapped/5 or less.
        roll = PendingRoll(kind="temple_search", upgoer=upgoer.id, items=(), rating=Rating(mapped // 5 + 1, NEVER),
                           step=upgoer.location, helpable=False)
        state = self._event(state, f"{upgoer.name} looks for the Temple ({mapped}% of "
                            f"{self.board.body(victory.body).name} mapped).", upgoer)
        return self._queue_rolls(state, [roll])

    def _temple_search_done(self, state: GameState, roll: PendingRoll, outcome: Outcome) -> GameState:
        upgoer = state.find("upgoer", roll.upgoer)
        if upgoer is None:
            return state
        if outcome is not Outcome.OK:
            return self._event(state, f"No sign of the Temple near {upgoer.name}.", upgoer)
        state = self._replace_upgoer(state, update(upgoer, temple_found=True))
        spotters = "robots" if self.robot_craft(state, upgoer) else "crew"
        return self._event(state, f"{upgoer.name}'s {spotters} spot the Temple on the horizon!", upgoer, "prestige")

    def _check_visit_temple(self, state: GameState, upgoer: Upgoer, a: VisitTemple) -> None:
        self._require_activity(state, upgoer, "the trip to the Temple")
        if not upgoer.temple_found:
            raise IllegalAction(f"{upgoer.name}'s crew has not found the Temple")
        if upgoer.relic_mass:
            raise IllegalAction("the monolith is already aboard: fly it home")
        derp = self._crew_member(state, upgoer, a.derp)
        if derp.current_stamina < derp.stamina:
            raise IllegalAction(f"the trip needs a derp with full stamina; {derp.name} has "
                                f"{derp.current_stamina} of {derp.stamina}")
        if self._usable(state, upgoer, "cart") is None:
            raise IllegalAction(f"{upgoer.name} has no working Cart for the trip")
        if upgoer.rations < 1:
            raise IllegalAction("the trip needs a full turn of rations aboard")

    def _visit_temple(self, state: GameState, upgoer: Upgoer, a: VisitTemple) -> GameState:
        """One derp with full stamina drives the Cart to the Temple, taking a turn of rations."""
        self._check_visit_temple(state, upgoer, a)
        derp, cart = state.derp(a.derp), self._usable(state, upgoer, "cart")
        state = self._replace_upgoer(state, update(upgoer, rations=upgoer.rations - 1))
        state = self._spend(state, derp, derp.current_stamina)
        roll = self._new_roll(state, "payload", state.upgoer(upgoer.id), [cart], upgoer.location, "activity",
                              actor=derp.id, detail=(("then", "temple"),))
        state = self._event(state, f"{derp.name} drives off towards the Temple.", upgoer)
        return self._queue_rolls(state, [roll])

    # ------------------------------------------------------------------ Waylights
    def _check_deploy(self, state: GameState, upgoer: Upgoer, a: Deploy) -> None:
        self._require_activity(state, upgoer, "deploying a beacon")
        item = state.find("item", a.item)
        if item is None or item.location != upgoer.id or self._kind(state, item) != "waylight" or not item.active:
            raise IllegalAction(f"{a.item} is not a shining Waylight aboard {upgoer.name}")
        if self.board.step(upgoer.location).kind != "orbit":
            raise IllegalAction("a beacon is set loose in an orbit")

    def _deploy(self, state: GameState, upgoer: Upgoer, a: Deploy) -> GameState:
        """Set an active Waylight loose in orbit: a crewless beacon that keeps shining (and can be re-tagged)."""
        self._check_deploy(state, upgoer, a)
        item = state.item(a.item)
        beacon_id = f"U{state.next_id}"
        beacon = Upgoer(id=beacon_id, owner=item.owner, name=f"{self._name(state, item)} beacon", stages=(),
                        modules=(item.id,), crew=(), fuel=0, rations=0, location=upgoer.location, status="flying",
                        launched_turn=state.turn, moved_this_turn=True)
        state = dataclasses.replace(state, next_id=state.next_id + 1, upgoers=state.upgoers + (beacon,))
        state = self._replace_items(state, [update(item, location=beacon_id)])
        state = self._replace_upgoer(state, update(state.upgoer(upgoer.id),
                                                   modules=tuple(m for m in upgoer.modules if m != item.id)))
        return self._event(state, f"{upgoer.name} sets {beacon.name} loose to shine on its own.", upgoer)

    def _check_retag(self, state: GameState, upgoer: Upgoer, a: Retag) -> None:
        self._require_activity(state, upgoer, "re-tagging")
        victory = self._victory(state)
        if victory is None or victory.kind != "hold_locations":
            raise IllegalAction("re-tagging Waylights belongs to All Your Base")
        target = self._same_stable_step(state, upgoer, a.target)
        if self._healthy(state, target):
            raise IllegalAction(f"{target.name}'s crew guards its Waylight")
        lights = [i for i in self._items_aboard(state, target) if self._kind(state, i) == "waylight"
                  and i.active and i.owner != upgoer.owner]
        if not lights:
            raise IllegalAction(f"{target.name} carries no rival Waylight to re-tag")
        derp = self._crew_member(state, upgoer, a.derp)
        if self.piloting(state, derp) < self.table.eva_min_piloting:
            raise IllegalAction(f"going outside needs {self.table.eva_min_piloting} Piloting")
        if self._usable(state, upgoer, "eva_pack") is None:
            raise IllegalAction(f"{upgoer.name} has no working EVA pack")

    def _retag(self, state: GameState, upgoer: Upgoer, a: Retag) -> GameState:
        """All Your Base: an EVA to a rival's unguarded Waylight (no healthy derp beside it) makes it yours."""
        self._check_retag(state, upgoer, a)
        target, derp, pack = state.upgoer(a.target), state.derp(a.derp), self._usable(state, upgoer, "eva_pack")
        lights = [i for i in self._items_aboard(state, target) if self._kind(state, i) == "waylight"
                  and i.active and i.owner != upgoer.owner]
        state = self._spend(state, derp)
        roll = self._new_roll(state, "eva", upgoer, [pack], upgoer.location, "activity", actor=derp.id,
                              target=lights[0].id, detail=(("then", "retag"),))
        return self._queue_rolls(state, [roll])

    def _goal_activity_done(self, state: GameState, upgoer: Upgoer, roll: PendingRoll, outcome: Outcome,
                            then: str) -> GameState:
        if then == "nudge":
            if outcome is not Outcome.OK:
                return self._event(state, f"{upgoer.name}'s thruster does not fire: no nudge (the fuel is gone).",
                                   upgoer)
            return self.engine.rock_rules.add_nudge(state, upgoer.owner, upgoer)
        derp = state.find("derp", roll.actor) if roll.actor else None
        if then == "walk":
            if outcome is not Outcome.OK or derp is None or derp.dead:
                return state
            body = dict(roll.detail)["body"]
            state = dataclasses.replace(state, derps=replace_in(state.derps, [
                update(derp, walked_on=derp.walked_on + (body,))]))
            state = self._first(state, upgoer.owner, "eva", f"{derp.name} steps outside")
            return self._event(state, f"{derp.name} walks on {self.board.body(body).name}!", upgoer, "prestige")
        if then == "temple":
            victory = self._victory(state)
            if outcome is not Outcome.OK or victory is None:
                return self._event(state, "The Cart breaks down on the way; the Temple stays out of reach this time.",
                                   upgoer)
            name = derp.name if derp else "A derp"
            if victory.relic_mass:
                state = self._replace_upgoer(state, update(state.upgoer(upgoer.id), relic_mass=victory.relic_mass))
                return self._event(state, f"{name} reaches the Temple and brings back its monolith (mass "
                                   f"{victory.relic_mass}): now fly it home!", upgoer, "prestige")
            state = dataclasses.replace(state, achieved=state.achieved + ((f"temple:{victory.body}", upgoer.owner),))
            return self._event(state, f"{name} reaches the Temple!", upgoer, "prestige")
        if then == "retag":
            item = state.find("item", roll.target)
            if outcome is not Outcome.OK or item is None:
                return state
            state = self._replace_items(state, [update(item, owner=upgoer.owner)])
            return self._event(state, f"{derp.name if derp else 'A derp'} re-tags {self._name(state, item)}: it shines "
                               f"for {state.programs[upgoer.owner].name} now.", upgoer, "prestige")
        return state
