"""Launch and orbital insertion.

Lighting the launch stage (or staying on the pad), reaching orbit or falling back, dropping spent
lower stages (a reusable one tries to fly itself home), and the designs suggested for the pad.
"""
from __future__ import annotations

from typing import Optional

from game.core.interface import IllegalAction
from game.core.words import counted
from game.games.whatgoesup.rules import formulas
from game.games.whatgoesup.rules.flight.common import FlightBase, FlightPhase, PendingRoll, _with_flight, without
from game.games.whatgoesup.rules.flight_actions import Hold, Launch
from game.games.whatgoesup.rules.reliability import Outcome
from game.games.whatgoesup.rules.shared import people_by_id
from game.games.whatgoesup.rules.state import GameState, Upgoer, UpgoerDesign, replace_in, update, updated


class LaunchPart(FlightBase):
    """Launches, orbital insertions and spent stages."""

    # ------------------------------------------------------------------ launch stage
    def _check_launch(self, state: GameState, upgoer: Upgoer, a: Launch) -> None:
        """Refuse a launch (IllegalAction with the reason) that ``_launch`` would not make."""
        f: FlightPhase = state.flight
        if f.stage != "launch" or f.mode != "decide" or a.upgoer != upgoer.id:
            raise IllegalAction("launches happen at the start of the flight phase, one Upgoer at a time")
        count = dict(f.launches).get(upgoer.owner, 0)
        if count >= self.table.max_launches_per_turn:
            raise IllegalAction(f"a program can launch at most {self.table.max_launches_per_turn} Upgoers a turn")
        if not upgoer.stages:
            raise IllegalAction(f"{upgoer.name} has no lower stage left: take it apart and add one")
        crew = self._crew(state, upgoer)
        for derp in crew:
            if not derp.can_fly:
                raise IllegalAction(f"{derp.name} cannot fly this turn ({derp.busy or derp.condition})")
        single_stack = "simplified_stack" in state.setup.options
        if not crew and self.table.uncrewed_suborbital_only and len(upgoer.stages) > 1 and not single_stack:
            raise IllegalAction("without a derp aboard an Upgoer may only fly suborbital: "
                                "remove its orbital insertion stage")
        # A single stack without crew simply stays suborbital (no insertion is attempted).

    def _launch(self, state: GameState, upgoer: Upgoer, a: Launch) -> GameState:
        self._check_launch(state, upgoer, a)
        f: FlightPhase = state.flight
        count = dict(f.launches).get(upgoer.owner, 0)
        launches = dict(f.launches)
        launches[upgoer.owner] = count + 1
        # Launched parts keep their own rating from now on; research no longer reaches them (unless the
        # edition says research improves every copy, flying or not: economy.yaml research.improves_launched).
        # The launch roll is judged on the stage's parts as they fly (frozen). What is frozen is the part's own
        # rating, never a flight's damage, which stays apart (Item.flight_*_penalty) for item_rating to count
        # once. A part not yet frozen carries no damage anyway: only the rolls of a craft already launched
        # (its parts frozen) do damage, and a part coming home sheds it (a landing, a stage flying itself home).
        others = None
        launch_step = self.board.home.next
        stage_items = [state.item(i) for i in upgoer.stages[0]]
        if not self.rules.economy.research.improves_launched:
            frozen = [update(i, fixed_rating=self.engine.own_rating(state, i)) if i.fixed_rating is None else i
                      for i in self._items_aboard(state, upgoer)]
            others = {"items": replace_in(state.items, frozen)}
            flying = {i.id: i for i in frozen}
            stage_items = [flying.get(i.id, i) for i in stage_items]
        roll = self._new_roll(state, "launch", upgoer, stage_items, launch_step, "launch_done",
                              dice_sets=len(stage_items))
        # The launch counted, its parts frozen, its roll queued and told in one copy of the state.
        return self._queue_rolls(state, [roll], self._told(f"{upgoer.name} lights its launch stage!", upgoer),
                                 others=others, launches=tuple(sorted(launches.items())))

    def _check_hold(self, state: GameState, upgoer: Upgoer, a: Hold) -> None:
        f: FlightPhase = state.flight
        if f.stage != "launch" or f.mode != "decide" or a.upgoer != upgoer.id:
            raise IllegalAction("only an Upgoer about to launch can stay on the pad")

    def _hold(self, state: GameState, upgoer: Upgoer, a: Hold) -> GameState:
        self._check_hold(state, upgoer, a)
        return self._set_saying(state, self._told(f"{upgoer.name} stays on the pad this turn.", upgoer),
                                active=None, mode="")

    def _launch_done(self, state: GameState, roll: PendingRoll, outcome: Outcome, flags: set[str]) -> GameState:
        upgoer = state.find("upgoer", roll.upgoer)
        if upgoer is None:
            return self._set(state, active=None, mode="")
        if outcome is Outcome.OK:
            stage_items = list(upgoer.stages[0])
            single = "simplified_stack" in state.setup.options
            rest = upgoer.stages if single else upgoer.stages[1:]
            upgoer = update(upgoer, status="flying", location=roll.step, launched_turn=state.turn, stages=rest,
                            new_steps=())
            if single:
                state = self._replace_upgoer(state, upgoer)
            else:  # the craft put in with its dropped stages, in one copy
                state = self._release_stages(state, upgoer, stage_items, ("landing",),
                                             replace_in(state.upgoers, [upgoer]))
            state = self._visit(state, upgoer, roll.step)
            upgoer = state.upgoer(upgoer.id)
            crew = self._crew(state, upgoer)
            if len(crew) >= 2:
                derps = len(self._living_crew(state, upgoer))  # the rest are underped systems: robots
                who = " and ".join(counted(n, noun) for n, noun in ((derps, "derp"), (len(crew) - derps, "robot")) if n)
                state = self._first(state, upgoer.owner, "multiderp_mission", f"{upgoer.name} flies {who}",
                                    craft=upgoer)
            state = self._set_saying(state, self._told(f"{upgoer.name} clears the tower and climbs away!", upgoer),
                                     launched=state.flight.launched + (upgoer.id,), active=None, mode="")
            return self._power_up_after_liftoff(state, upgoer)
        if "cancel" in flags:
            # The launch does not happen; everything but the spent stage may fly another day.
            if "stages_spent" in flags:
                state = self._destroy_items(state, list(upgoer.stages[0]))
                upgoer = update(state.upgoer(upgoer.id), stages=upgoer.stages[1:])
                state = self._replace_upgoer(state, upgoer)
            return self._set(state, active=None, mode="")
        return self._set(state, active=None, mode="")

    # ------------------------------------------------------------------ insertion stage
    def _insertion(self, state: GameState, upgoer: Upgoer) -> GameState:
        step = self.board.step(upgoer.location)
        insertion = self.board.step(step.next) if step.kind == "launch" else step
        crew = self._crew(state, upgoer)
        single = "simplified_stack" in state.setup.options
        can_orbit = bool(upgoer.stages) and (crew or not self.table.uncrewed_suborbital_only)
        if not can_orbit:
            state = self._set(state, mode="inserting")
            state = self._event(state, f"{upgoer.name} arcs over the top and falls back: a suborbital flight.", upgoer)
            upgoer = update(upgoer, location=insertion.id)
            state = self._replace_upgoer(state, upgoer)
            # No visit: a suborbital flight covers only launch, reentry and landing (2014 rules).
            if single and upgoer.stages:
                # A single stack that did not go on to orbit comes down like an insertion stage.
                state = self._release_stages(state, state.upgoer(upgoer.id), list(upgoer.stages[0]),
                                             recovery=("reentry", "landing"))
                state = self._replace_upgoer(state, update(state.upgoer(upgoer.id), stages=()))
            return self._go_to(state, state.upgoer(upgoer.id), insertion.fallback, fallback=True)
        upgoer = update(upgoer, location=insertion.id)
        stage_items = [state.item(i) for i in upgoer.stages[-1]]
        roll = self._new_roll(state, "orbital_insertion", upgoer, stage_items, insertion.id, "insertion_done",
                              dice_sets=len(stage_items))
        return self._queue_rolls(state, [roll], upgoer=upgoer, mode="inserting")  # the roll reads no craft pool

    def _insertion_done(self, state: GameState, roll: PendingRoll, outcome: Outcome, flags: set[str]) -> GameState:
        upgoer = state.find("upgoer", roll.upgoer)
        if upgoer is None:
            return self._set(state, active=None, mode="")
        step = self.board.step(roll.step)
        stage_items = list(upgoer.stages[-1]) if upgoer.stages else []
        upgoer = update(upgoer, stages=())
        if outcome is Outcome.OK:
            # The craft put in with its dropped stages in one copy, then the step visited (which reads the craft,
            # never the parts or the flight the drop changes), and "reaches orbit!" told as it goes on.
            state = self._release_stages(state, upgoer, stage_items, ("reentry", "landing"),
                                         replace_in(state.upgoers, [upgoer]))
            state = self._visit(state, upgoer, step.id)
            return self._go_to(state, state.upgoer(upgoer.id), step.next,
                               said=self._told(f"{upgoer.name} reaches orbit!", upgoer))
        state = self._replace_upgoer(state, upgoer)
        state = self._visit(state, upgoer, step.id)
        if "stages_spent" in flags:
            state = self._release_stages(state, state.upgoer(upgoer.id), stage_items, recovery=("reentry", "landing"))
        if "to_fallback" in flags:
            state = self._keep_only_returning(state, state.upgoer(upgoer.id))
            state = self._event(state, f"{upgoer.name} does not make orbit and falls back towards "
                                f"{self.board.step(step.fallback).name}.", upgoer)
            return self._go_to(state, state.upgoer(upgoer.id), step.fallback, fallback=True)
        return self._set(state, active=None, mode="")

    def _release_stages(self, state: GameState, upgoer: Upgoer, stage_ids: list[str],
                        recovery: tuple[str, ...], upgoers: Optional[tuple] = None) -> GameState:
        """Drop used lower stages: reusable ones try to come home (one roll per step), the rest are gone. One copy
        of the state, which also puts in ``upgoers`` when given (the craft pool, changed by the caller): a stage
        is never an underped system (only a lower stage goes in a stage), and a recovery roll reads its own part
        and blueprint, never the pools."""
        rolls, homing, gone = [], [], set()
        for item_id in stage_ids:
            item = state.find("item", item_id)
            if item is None:
                continue
            thing = state.thing(item.thing_id)
            if thing.reusable and not item.reusable_lost:
                homing.append(update(item, location=f"recovering:{upgoer.id}"))
                for index, step_kind in enumerate(recovery):
                    step = next(s for s in self.board.steps if s.kind == step_kind)
                    last = index == len(recovery) - 1
                    rolls.append(PendingRoll(kind="stage_recovery", upgoer=upgoer.id, items=(item.id,),
                                             rating=self.engine.item_rating(state, item), step=step.id,
                                             then="stage_home" if last else "", helpable=False))
            else:
                gone.add(item.id)
        others = {}
        if homing or gone:
            others["items"] = without(replace_in(state.items, homing) if homing else state.items, gone)
        if rolls:
            return _with_flight(state, self._queued(state.flight, rolls), (), upgoers, others)
        if upgoers is not None:
            others["upgoers"] = upgoers
        return updated(state, others) if others else state

    # ------------------------------------------------------------------ designs for the pad
    def suggested_designs(self, state: GameState, player: int, stored, crew, count: int) -> list[UpgoerDesign]:
        """Simple valid designs from storage: a suborbital test, and a crewed orbital craft when possible.

        ``stored`` is the R&D listing's stored-parts view of ``player`` in ``state``, ``crew`` the program's first
        derp at home able to fly (or None) and ``count`` the name's number (``Engine.suggested_designs`` reads
        them and keeps the designs). Which of the designs pass ``check_design`` is kept per what the check reads
        of them (``RndListing.suggestion_verdicts``), so only a new combination of masses is judged again; a crewed
        design whose two stages cannot lift it (``check_design``'s stage check, the same masses) is not judged."""
        stages, capsules = stored.stages, stored.capsules
        if not stages:
            return []
        program = state.programs[player]
        thrusters = stored.by_role.get("thruster", ())
        people = people_by_id(self.rules, program.people)
        name = f"{people.upgoer_names[count % len(people.upgoer_names)]} {count}"
        listing, valid, launch = self.engine.rnd_listing, self.engine.design_is_valid, (stages[0].id,)

        def test() -> UpgoerDesign:
            return UpgoerDesign(name=name, stages=(launch,))

        designs = []
        if listing.suggestion_verdicts(state, stored, (stages[0],), None, lambda: (valid(state, player, test()),))[0]:
            designs.append(test())
        if not capsules or len(stages) < 2 or crew is None:
            return designs
        fuel = min(program.fuel_stock, 6) if thrusters else 0
        designs_of = stored.designs
        lower, upper = designs_of[stages[0].thing_id], designs_of[stages[1].thing_id]
        module_mass = designs_of[capsules[0].thing_id].mass + (
            designs_of[thrusters[0].thing_id].mass if thrusters else 0)
        # check_design's stage check, with no rations aboard: rations only add mass, so a stack that cannot lift
        # the craft without them is refused with and without them (in long games nearly every crewed design is).
        spacecraft = formulas.spacecraft_mass_but_rations(module_mass, 1, fuel, self.rules.economy.derps.mass)
        if upper.base_mass < spacecraft or lower.base_mass < spacecraft + upper.mass:
            return designs
        rations = formulas.ration_load(min(program.rations_stock, 2), self.rules.components, up=False)
        modules = (capsules[0].id,) + ((thrusters[0].id,) if thrusters else ())

        def crewed(load: int) -> UpgoerDesign:
            return UpgoerDesign(name=name + "x", stages=(launch, (stages[1].id,)), modules=modules, crew=(crew.id,),
                                fuel=fuel, rations=load)

        def judge() -> tuple[bool, bool]:  # the crewed design, else the same without rations
            if valid(state, player, crewed(rations)):
                return True, False
            return False, rations != 0 and valid(state, player, crewed(0))

        parts = (stages[0], stages[1], capsules[0], thrusters[0] if thrusters else None)
        with_rations, without = listing.suggestion_verdicts(state, stored, parts, (crew, fuel, rations), judge)
        if with_rations or without:
            designs.append(crewed(rations if with_rations else 0))
        return designs
