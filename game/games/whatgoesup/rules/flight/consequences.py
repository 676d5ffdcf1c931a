"""What a Fail or a Boom does.

The Boom penalty on every copy of a part, each effect of the failure table (a closed set of effect
types with their numbers from ``flight.yaml``), the capsule-fail choice, the escape tower, and the
injuries and losses of derps.
"""
from __future__ import annotations

from typing import Optional

from game.games.whatgoesup.rules import formulas
from game.games.whatgoesup.rules.flight.common import FlightBase, PendingChoice, PendingRoll
from game.games.whatgoesup.rules.flighttable import Effect
from game.games.whatgoesup.rules.reliability import Outcome, penalised
from game.games.whatgoesup.rules.state import Derp, Event, GameState, Upgoer, replace_in, update, updated
from game.core.words import counted


# What a capsule carries inside it besides its crew and systems, as far as its room goes.
_CARGO = frozenset({"payload", "rcs"})


class ConsequencePart(FlightBase):
    """The failure table's effects, the escape tower, injuries and losses."""

    def _boom_penalty(self, state: GameState, roll: PendingRoll) -> GameState:
        """Any Boom: every copy of that part (blueprint, stored and flying copies) loses reliability."""
        limits = self.rules.economy.reliability
        events = []
        thing_ids = {state.item(i).thing_id for i in roll.items if state.find("item", i)}
        for thing_id in thing_ids:
            thing = state.thing(thing_id)
            new_rating = penalised(thing.rating, limits.boom_penalty_fail, limits.boom_penalty_boom, limits.bounds)
            # The copies and their parts found by comprehensions (a long game holds hundreds of blueprints and parts:
            # Python 3.11 reads an attribute in one in fewer instructions than map(attrgetter) does).
            inventor, name = thing.inventor, thing.name
            copies = [t for t in state.things if t.inventor == inventor and t.name == name]
            things = [update(t, rating=penalised(t.rating, limits.boom_penalty_fail, limits.boom_penalty_boom, limits.bounds))
                      for t in copies]
            # A built part is a copy when its blueprint is one (a blueprint's id names one blueprint): looked up
            # in that set, not by finding every fixed-rated part's blueprint.
            copy_ids = {t.id for t in copies}
            items = [update(i, fixed_rating=penalised(i.fixed_rating, limits.boom_penalty_fail, limits.boom_penalty_boom,
                                                      limits.bounds))
                     for i in state.items if i.thing_id in copy_ids and i.fixed_rating is not None]
            events.append(Event(f"Boom! {thing.name} is not as good as it was thought: every one of them drops "
                                f"from {thing.rating} to {new_rating}.", thing.owner, "consequence"))
            if len(thing_ids) == 1:  # one blueprint (nearly every roll): penalised and told in one copy
                return updated(state, {"things": replace_in(state.things, things),
                                       "items": replace_in(state.items, items), "events": state.events + tuple(events)})
            state = update(state, things=replace_in(state.things, things), items=replace_in(state.items, items))
        return self._say(state, events)

    def _effect(self, state: GameState, roll: PendingRoll, effect: Effect) -> tuple[GameState, Optional[str]]:
        """Apply one effect of the failure table; flow effects come back as flags."""
        kind = effect.effect
        upgoer = state.find("upgoer", roll.upgoer)
        if kind in ("cancel", "retry_allowed", "stages_spent", "to_fallback", "crash", "stay"):
            return state, kind
        if upgoer is None:
            return state, None
        part = state.find("item", roll.items[0]) if roll.items else None
        part_name = self._name(state, part) if part else "the part"
        if kind == "destroy_upgoer":
            if effect.escape_tower:
                towers = [i for i in self._items_aboard(state, upgoer) if self._kind(state, i) == "probe" and not i.disabled]
                capsules = self._modules(state, upgoer, "capsule", working=False)
                if towers and capsules:
                    step = self.board.step(roll.step)
                    roll2 = self._new_roll(state, "escape_tower", upgoer, [towers[0]], step.id, "tower_done",
                                           helpable=True, detail=(("to", step.fallback if step.kind == "orbital_insertion"
                                                                   else self._landing_step()),))
                    state = self._event(state, f"The escape tower on {upgoer.name} fires!", upgoer, "consequence")
                    return self._queue_rolls(state, [roll2]), "tower"
            state = self._kill(state, upgoer, self._crew(state, upgoer), f"the loss of {upgoer.name}")
            state = self._destroy_upgoer(state, state.upgoer(upgoer.id), f"{upgoer.name} is destroyed in a huge explosion.")
            return state, "destroyed"
        if kind == "bail_out":
            return self._bail_out(state, upgoer, effect)
        if kind == "disable_part" and part:
            return self._changed_saying(state, f"{part_name} is disabled.", upgoer, [update(part, disabled=True)]), None
        if kind == "destroy_part" and part:
            holder = state.find("upgoer", part.location) if part.location else None  # a part floating elsewhere
            state = self._destroy_items(state, [part.id])
            holder = state.upgoer(holder.id if holder else upgoer.id)  # as it is now (a lost robot strands it)
            state = self._replace_upgoer(state, update(holder, modules=tuple(m for m in holder.modules if m != part.id)))
            return self._event(state, f"{part_name} is destroyed.", upgoer, "consequence"), None
        if kind == "damage_capsule":
            capsules = self._modules(state, upgoer, "capsule", working=False)
            if capsules:
                c = capsules[0]
                state = self._changed_saying(state, f"{self._name(state, c)} is damaged: -{effect.fail}/-{effect.boom} "
                                             f"for this flight.", upgoer,
                                             [update(c, flight_fail_penalty=c.flight_fail_penalty + effect.fail,
                                                     flight_boom_penalty=c.flight_boom_penalty + effect.boom)])
            return state, None
        if kind == "degrade_all_parts":
            return self._degrade_all(state, upgoer, effect.fail, effect.boom), None
        if kind == "choose":
            options = tuple(o for o in effect.options if self._choice_possible(state, upgoer, o))
            if not options:
                return state, None
            if len(options) == 1:
                return self._apply_choice(state, upgoer, options[0], effect), None
            return self._set(state, choice=PendingChoice("capsule_fail", upgoer.id, options, effect)), None
        if kind == "lose_payload":
            return self._lose_payload(state, upgoer), None
        if kind == "lose_rations":
            return self._lose_rations(state, upgoer, effect.units), None
        if kind == "strand":
            return self._changed_saying(state, f"{upgoer.name} is stranded: it can no longer be steered.", upgoer,
                                        craft=update(upgoer, stranded=True)), None
        if kind in ("injure_crew", "kill_crew"):
            if roll.kind in ("reentry", "landing") and part and self._role(state, part) not in ("capsule", "habitat"):
                return state, None  # a reusable part coming down carries no crew
            crew = [d for d in self._crew(state, upgoer) if d.id not in state.flight.hurt]
            if kind == "kill_crew":
                state = self._kill(state, upgoer, crew, roll.kind.replace("_", " "))
            else:
                state = self._injure(state, upgoer, crew, roll.kind.replace("_", " "))
            return self._set(state, hurt=state.flight.hurt | {d.id for d in crew}), None
        if kind == "injure_user":
            derp = state.find("derp", roll.actor) if roll.actor else None
            if derp is not None:
                state = self._injure(state, upgoer, [derp], f"a {part_name} failure")
            return state, None
        if kind == "no_reuse":
            for item_id in roll.items:
                item = state.find("item", item_id)
                if item is not None:
                    state = self._replace_items(state, [update(item, reusable_lost=True)])
            return self._event(state, f"{part_name} cannot be reused.", upgoer, "consequence"), None
        if kind == "rcs_uses" and part:
            uses = dict(roll.detail).get("uses", 1)
            lost = part.uses_left or 0 if effect.uses == "all" else min(part.uses_left or 0, max(uses, effect.uses))
            return self._changed_saying(state, f"{part_name} uses up {lost} of its RCS fuel.", upgoer,
                                        [update(part, uses_left=(part.uses_left or 0) - lost)]), None
        if kind == "unusable_this_turn" and part:
            return self._changed_saying(state, f"{part_name} cannot be used again this turn.", upgoer,
                                        [update(part, unusable_this_turn=True)]), None
        if kind == "no_stamina_recovery":
            return self._changed_saying(state, "Busy with glitches, nobody in the habitat recovers stamina this turn.",
                                        upgoer, craft=update(upgoer, habitat_failed=True)), None
        if kind == "stamina_loss":
            derps, hurt = [], []
            for d in self._crew(state, upgoer):
                if d.injured:
                    continue
                if d.current_stamina <= 0:
                    hurt.append(d)
                else:
                    derps.append(update(d, current_stamina=max(0, d.current_stamina - effect.units)))
            state = update(state, derps=replace_in(state.derps, derps))
            state = self._event(state, "Major maintenance: everyone aboard loses stamina.", upgoer, "consequence")
            return self._injure(state, upgoer, hurt, "a coolant leak"), None
        return state, None

    def _landing_step(self) -> str:
        return next(s.id for s in self.board.steps if s.kind == "landing")

    # ------------------------------------------------------------------ the capsule-fail choice
    def _choice_possible(self, state: GameState, upgoer: Upgoer, option: str) -> bool:
        if option == "lose_payload":
            return any(self._role(state, i) in ("payload", "rcs") for i in self._items_aboard(state, upgoer)
                       if i.id in upgoer.modules)
        if option == "lose_rations":
            return bool(self._crew(state, upgoer)) and upgoer.rations > 0
        return True

    def _choose(self, state: GameState, option: str) -> GameState:
        choice: PendingChoice = state.flight.choice
        upgoer = state.upgoer(choice.upgoer)
        state = self._set(state, choice=None)
        return self._apply_choice(state, upgoer, option, choice.effect)

    def _apply_choice(self, state: GameState, upgoer: Upgoer, option: str, effect: Effect) -> GameState:
        if option == "lose_payload":
            return self._lose_payload(state, upgoer)
        if option == "lose_rations":
            return self._lose_rations(state, upgoer, effect.units)
        return self._degrade_all(state, upgoer, effect.fail, effect.boom)

    def _lose_payload(self, state: GameState, upgoer: Upgoer) -> GameState:
        cargo = [i for i in self._items_aboard(state, upgoer) if i.id in upgoer.modules
                 and self._role(state, i) in ("payload", "rcs")]
        if not cargo:
            return state
        lost = cargo[-1]
        state = self._destroy_items(state, [lost.id])
        state = self._replace_upgoer(state, update(state.upgoer(upgoer.id),
                                                   modules=tuple(m for m in upgoer.modules if m != lost.id)))
        return self._event(state, f"{self._name(state, lost)} is lost.", upgoer, "consequence")

    def _lose_rations(self, state: GameState, upgoer: Upgoer, units: int) -> GameState:
        upgoer = state.upgoer(upgoer.id)
        lost = min(upgoer.rations, units * len(self._crew(state, upgoer)))
        return self._changed_saying(state, f"{upgoer.name} loses {counted(lost, 'derp-turn of rations')}.", upgoer,
                                    craft=update(upgoer, rations=upgoer.rations - lost))

    def _degrade_all(self, state: GameState, upgoer: Upgoer, fail: int, boom: int) -> GameState:
        items = [update(i, flight_fail_penalty=i.flight_fail_penalty + fail, flight_boom_penalty=i.flight_boom_penalty + boom)
                 for i in self._items_aboard(state, upgoer)]
        return self._changed_saying(state, f"Every part of {upgoer.name} loses {fail}/{boom} for the rest of the flight.",
                                    upgoer, items)

    # ------------------------------------------------------------------ the escape tower
    def _tower_done(self, state: GameState, roll: PendingRoll, outcome: Outcome) -> GameState:
        upgoer = state.find("upgoer", roll.upgoer)
        if upgoer is None:
            return state
        if outcome is not Outcome.OK:
            state = self._kill(state, upgoer, self._crew(state, upgoer), f"the loss of {upgoer.name}")
            state = self._destroy_upgoer(state, state.upgoer(upgoer.id), f"The escape tower does not save {upgoer.name}.")
            return self._set(state, active=None, mode="")
        # The capsules come clear with what they carry; the tower that pulled them is spent.
        kept, rations, left = self._thrown_clear(state, upgoer, spent=roll.items[:1])
        lost = [i.id for i in self._items_aboard(state, upgoer) if i.id not in kept]
        state = self._destroy_items(state, lost)
        upgoer = update(state.upgoer(upgoer.id), modules=tuple(m for m in upgoer.modules if m in kept), stages=(),
                        fuel=0, rations=rations, status="flying")
        state = self._replace_upgoer(state, upgoer)
        carried = "what it has room for" if left else "all it carries"
        state = self._event(state, f"The escape tower pulls the capsule of {upgoer.name} clear, with {carried}; "
                            f"the tower itself is spent.{left}", upgoer, "consequence")
        state = self._set(state, launched=tuple(u for u in state.flight.launched if u != upgoer.id))
        return self._go_to(state, upgoer, dict(roll.detail)["to"], fallback=True)

    def _bail_out(self, state: GameState, upgoer: Upgoer, effect: Effect) -> tuple[GameState, Optional[str]]:
        """2013's lower-stage Boom. With a working escape tower (effect's escape_tower) the capsules and what
        they carry come down through reentry as normal (the tower spent); without one everything but the capsules
        and who sits in them blows up, the crew are hurt as by a failed reentry (the capsules lose their reuse)
        and the capsules go straight to landing.
        A craft without a capsule is simply lost."""
        capsules = self._modules(state, upgoer, "capsule", working=False)
        if not capsules:
            state = self._kill(state, upgoer, self._crew(state, upgoer), f"the loss of {upgoer.name}")
            state = self._destroy_upgoer(state, state.upgoer(upgoer.id), f"{upgoer.name} is destroyed in a huge explosion.")
            return state, "destroyed"
        tower = next((i.id for i in self._items_aboard(state, upgoer) if self._kind(state, i) == "probe"
                      and not i.disabled), None) if effect.escape_tower else None
        state = self._undock_all(state, upgoer, "as its rocket blows up")
        upgoer = state.upgoer(upgoer.id)
        rations, left = upgoer.rations, ""
        if tower:  # pulled clear as in 2014, with what the capsules carry
            keep, rations, left = self._thrown_clear(state, upgoer, spent=(tower,))
        else:  # "Everything blows up!": only the capsules and who sits in them, crew and underped systems
            keep = {i.id for i in capsules} | {d.system for d in self._systems(state, upgoer)}
        state = self._destroy_items(state, [i.id for i in self._items_aboard(state, upgoer) if i.id not in keep])
        upgoer = update(state.upgoer(upgoer.id), modules=tuple(m for m in upgoer.modules if m in keep), stages=(),
                        fuel=0, rations=rations, status="flying")
        state = self._replace_upgoer(state, upgoer)
        state = self._set(state, launched=tuple(u for u in state.flight.launched if u != upgoer.id))
        if tower:
            state = self._event(state, f"{upgoer.name}'s rocket blows up, but the escape tower pulls the capsule "
                                f"clear with {'what it has room for' if left else 'all it carries'} (the tower is "
                                f"spent): it comes down through reentry.{left}",
                                upgoer,
                                "consequence")
            return self._go_to(state, upgoer, next(s.id for s in self.board.steps if s.kind == "reentry"),
                               fallback=True), "bail_out"
        hurt = "its robots are knocked out" if self.robot_craft(state, upgoer) else "the crew are hurt"
        state = self._event(state, f"{upgoer.name}'s rocket blows up and flings the capsule clear: {hurt} "
                            "as in a failed reentry, and it falls straight to landing.", upgoer, "consequence")
        state = self._replace_items(state, [update(c, reusable_lost=True) for c in capsules])
        state = self._injure(state, upgoer, self._crew(state, upgoer), "a rocket blowing up beneath them")
        return self._go_to(state, state.upgoer(upgoer.id), self._landing_step(), fallback=True), "bail_out"

    def _thrown_clear(self, state: GameState, upgoer: Upgoer, spent=()) -> tuple[set[str], int, str]:
        """What comes clear with the capsules when the rest of the craft blows up, as (the parts kept, the
        derp-turns of rations kept, the words for what is left behind: "" when nothing is).

        Only what the capsules themselves can carry ("A capsule can carry up to its own mass (payload, RCS,
        rations, and crew)", 2013): the crew (who stay with the craft) and underped systems always, then
        payloads and RCS in the order they were loaded, then rations (whole containers), while the capsules'
        own room lasts; the rest rode in a habitat or beside it and is lost with the habitats, thrusters,
        lower stages and fuel. ``spent`` (the escape tower that fired) is lost too."""
        comps = self.rules.components
        aboard = {i.id: i for i in self._items_aboard(state, upgoer)}
        roles = {item_id: self._role(state, item) for item_id, item in aboard.items()}
        kept = {item_id for item_id, role in roles.items() if role in ("capsule", "underped")}
        room = sum([formulas.capsule_capacity(state.thing(aboard[i].thing_id).base_mass, comps)
                    for i in kept if roles[i] == "capsule"])
        room -= self.rules.economy.derps.mass * len(self._living_crew(state, upgoer)) + sum(
            [1 for i in kept if roles[i] == "underped"])  # a system rides as a part of mass 1
        behind = []
        for item_id in upgoer.modules:
            if roles.get(item_id) not in _CARGO or item_id in spent:
                continue
            if room >= 1:
                kept.add(item_id)
                room -= 1
            else:
                behind.append(self._name(state, aboard[item_id]))
        rations = min(upgoer.rations, formulas.ration_load(max(room, 0) * comps.rations_derp_turns_per_container,
                                                           comps, up=False))
        if rations < upgoer.rations:
            behind.append(f"{counted(upgoer.rations - rations, 'derp-turn')} of rations")
        if not behind:
            return kept, rations, ""
        listed = behind[0] if len(behind) == 1 else f"{', '.join(behind[:-1])} and {behind[-1]}"
        return kept, rations, f" The capsule has no room for {listed}: lost with the rocket."

    # ------------------------------------------------------------------ losses
    def _injure(self, state: GameState, upgoer: Optional[Upgoer], derps: list[Derp], cause: str) -> GameState:
        events, changed, dead = [], [], []
        for d in derps:
            d = state.derp(d.id)
            if d.dead:
                continue
            if d.is_system:  # what would injure a derp powers a system down (again: it stays down)
                if not d.powered_down:
                    changed.append(update(d, powered_down=True))
                    events.append(Event(f"{d.name} powers down ({cause}).", d.owner, "consequence"))
                continue
            if d.injured:
                dead.append(d)
                continue
            changed.append(update(d, injured=True))
            events.append(Event(f"{d.name} is injured ({cause}).", d.owner, "consequence"))
        state = update(state, derps=replace_in(state.derps, changed))
        state = self._say(state, events)
        if dead:
            state = self._kill(state, upgoer, dead, f"a second injury ({cause})")
        return state

    def _kill(self, state: GameState, upgoer: Optional[Upgoer], derps: list[Derp], cause: str) -> GameState:
        """The ``derps`` lost (``cause`` in words): dead, told, and their programs charged, in one copy of the state
        (after a copy that destroys the parts of underped systems among them); none: the state as it is."""
        events, changed = [], []
        systems = [state.derp(d.id) for d in derps if d.is_system]
        if systems:  # what would kill a derp destroys a system (its part) and strands the craft: no dots lost
            state = self._destroy_items(state, [d.system for d in systems if not d.dead])
        programs = None
        for d in derps:
            d = state.derp(d.id)
            if d.dead:
                continue
            changed.append(update(d, dead=True, injured=True, current_stamina=0))
            events.append(Event(f"{d.name} is lost ({cause}).", d.owner, "death"))
            if d.defected:
                continue  # a rescuer pays nothing for a rescued derp who dies: at least they tried
            if upgoer is not None and upgoer.written_off_by is not None and d.owner == upgoer.written_off_by:
                continue  # the death penalty was already paid when the craft was written off
            if programs is None:
                programs = list(state.programs)
            p = self.engine.dotted(programs[d.owner], self.rules.economy.dots.per_derp_lost, f"{d.name} lost")
            programs[d.owner] = update(p, derps_lost=p.derps_lost + 1)
        if not changed:
            return state
        changes = {"derps": replace_in(state.derps, changed), "events": state.events + tuple(events)}
        if programs is not None:
            changes["programs"] = tuple(programs)
        return updated(state, changes)
