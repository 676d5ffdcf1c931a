"""The end of the flight phase, and debris.

Once every craft has flown: debris drifts, crews eat and habitats rest them, mapping goes on and
the standing bonuses move to their holders; then the engine ends the turn. During R&D a program may
track a piece of debris to keep it on the board.
"""
from __future__ import annotations

from itertools import compress, repeat
from operator import attrgetter, eq
from typing import Optional

from game.core.interface import IllegalAction
from game.core.words import counted
from game.games.whatgoesup.rules.flight.common import FlightBase, FlightPhase
from game.games.whatgoesup.rules.tables import Standing
from game.games.whatgoesup.rules.state import (IN_SPACE, Event, GameState, Upgoer, programs_with, replace_in, update,
                                               with_program)


#: The flight phase once every craft has flown (immutable, so one value serves every turn's end).
_FLIGHTS_DONE = FlightPhase(stage="done")

_STATUS = attrgetter("status")


def _in_space(upgoers: tuple[Upgoer, ...]) -> list[Upgoer]:
    """The craft in space (``Upgoer.in_space``), in order, found at C speed: a long game's pool keeps dozens of
    craft landed, destroyed or gone, and the turn's end reads it several times."""
    return list(compress(upgoers, map(IN_SPACE.__contains__, map(_STATUS, upgoers))))


def _flying(upgoers: tuple[Upgoer, ...]) -> list[Upgoer]:
    """The flying craft, in order, found at C speed (as ``_in_space``)."""
    return list(compress(upgoers, map(eq, map(_STATUS, upgoers), repeat("flying"))))


class TurnEndPart(FlightBase):
    """The end of the flight phase and the tracking of debris."""

    def _end_flights(self, state: GameState) -> GameState:
        """Debris drifts, derps eat, habitats rest, long missions count; then the turn ends (``Engine.end_turn``,
        which takes the flight away)."""
        # Only the rushed craft are copied (the rest, and the tuple's indexes, are shared with the state before).
        rushed = [update(u, rush=0) for u in state.upgoers if u.rush]
        state = update(state, flight=_FLIGHTS_DONE,
                       upgoers=replace_in(state.upgoers, rushed) if rushed else state.upgoers)
        state = self._drift_debris(state)
        state = self._eat_and_rest(state)
        state = self._mapping_turn(state)
        return self.engine.end_turn(state)  # the next turn (no flight, phase rnd) in one copy, this story first

    def _drift_debris(self, state: GameState) -> GameState:
        for upgoer in [u for u in state.upgoers if u.status == "debris"]:
            step = self.board.step(upgoer.location)
            current = step.next
            seen = set()
            while current is not None and current not in seen:
                seen.add(current)
                s = self.board.step(current)
                if s.is_duration:
                    state = self._replace_upgoer(state, update(upgoer, location=s.id))
                    break
                if s.kind in ("reentry", "landing", "home"):
                    state = self._destroy_upgoer(state, upgoer, f"The debris of {upgoer.name} burns up in the atmosphere.")
                    break
                if s.kind == "escape":
                    state = self._replace_upgoer(state, update(upgoer, status="escaped"))
                    break
                current = s.next
        return state

    def _eat_and_rest(self, state: GameState) -> GameState:
        for upgoer in _in_space(state.upgoers):
            crew = self._crew(state, upgoer)
            if not crew:
                continue
            upgoer = state.upgoer(upgoer.id)
            eaters = [d for d in crew if not d.is_system]  # underped systems eat no rations
            fed = min(upgoer.rations, len(eaters))
            hungry = eaters[fed:]
            # The meal, the record and the rest go into one copy of the state (a hungry crew's injuries, told
            # in between, come first); the rest reads only the derps and parts aboard, which the meal leaves be.
            fed_upgoer = update(upgoer, rations=upgoer.rations - fed, crewed_turns=upgoer.crewed_turns + 1,
                                turns_in_space=upgoer.turns_in_space + 1)
            changes = {"upgoers": replace_in(state.upgoers, [fed_upgoer])}
            program = state.programs[upgoer.owner]
            if upgoer.crewed_turns + 1 > program.longest_crewed_flight:  # the record outlives the flight
                longest = update(program, longest_crewed_flight=upgoer.crewed_turns + 1)
                changes["programs"] = programs_with(state, longest)
            if hungry:
                state = update(state, **changes)
                changes = {}
                state = self._event(state, f"{upgoer.name} has run out of rations.", upgoer, "consequence")
                state = self._injure(state, upgoer, hungry, "no rations left")
                fed_upgoer = state.upgoer(upgoer.id)
            upgoer = fed_upgoer
            if not upgoer.habitat_failed and self._modules(state, upgoer, "habitat"):
                rested = [update(d, current_stamina=min(d.stamina, d.current_stamina + 1))
                          for d in self._living_crew(state, upgoer) if not d.injured]
                if rested:
                    changes["derps"] = replace_in(state.derps, rested)
            if changes:
                state = update(state, **changes)
            state = self._recharge_systems(state, upgoer)
            if upgoer.crewed_turns >= 1 and self._crew(state, upgoer):
                state = self._first(state, upgoer.owner, "multiturn_mission", f"{upgoer.name} stays up over a turn",
                                    craft=upgoer)
        for upgoer in [u for u in _flying(state.upgoers) if not self._crew(state, u)]:
            state = self._replace_upgoer(state, update(upgoer, turns_in_space=upgoer.turns_in_space + 1))
        return state

    def _mapping_turn(self, state: GameState) -> GameState:
        percent = self.rules.prestige.mapping_percent_per_turn
        for upgoer in _flying(state.upgoers):
            step = self.board.step(upgoer.location)
            if step.orbit_type is None:
                continue
            body = self.board.orbit_type(step.orbit_type).maps
            if body is None or not self._modules(state, upgoer, "capsule"):
                continue
            if any(self._kind(state, i) == "mapping" and not i.disabled for i in self._items_aboard(state, upgoer)):
                state = self._add_mapping(state, upgoer.owner, body, percent)
                state = self._craft_maps(state, upgoer, body, percent)
                state = self._event(state, f"{upgoer.name} maps {percent}% more of "
                                    f"{self.board.body(body).name}.", upgoer)
        return state

    def standing_bonuses(self, state: GameState) -> GameState:
        """Move each standing bonus to its holder; its dots move with it (gained once, given up when lost)."""
        holders = dict(state.standing)
        events = []
        for bonus in self.rules.prestige.standing:
            scores: dict[int, int] = {}
            if bonus.kind == "longest_crewed_flight":
                # "Whoever has had ... the longest": a record, kept when the record flight comes home.
                scores = {p.index: p.longest_crewed_flight for p in state.programs if p.longest_crewed_flight}
            elif bonus.kind == "longest_working_flight":
                # Space Station (2013): "Whoever has had a working Upgoer in space the longest", crewed or not;
                # a record like Duration Mission's, counted while the craft flies and is not stranded.
                state = self._working_flight_records(state)
                scores = {p.index: p.longest_working_flight for p in state.programs if p.longest_working_flight}
            elif bonus.kind == "largest_crew_in_space":
                for upgoer in _flying(state.upgoers):  # flying: in space, not debris
                    crew = len(self._living_crew(state, upgoer))  # standings count derps, not underped systems
                    if not crew:
                        continue
                    scores[upgoer.owner] = max(scores.get(upgoer.owner, 0), crew)
            elif bonus.kind == "most_mapping":
                scores = {p.index: max((v for _, v in p.mapping), default=0) for p in state.programs}
                scores = {k: v for k, v in scores.items() if v > 0}
            holder = holders.get(bonus.id)
            leaders = []
            if scores:
                best = max(scores.values())
                leaders = [k for k, v in scores.items() if v == best]
                new_holder = holder if holder in leaders else (leaders[0] if len(leaders) == 1 else None)
            else:
                new_holder = None
            # The bonus dots move with the bonus: the new holder gains them and the old one gives them up.
            if new_holder != holder:
                events.append(self._standing_moves(state, bonus, holder, new_holder, leaders))
                if holder is not None:
                    state = self.engine.add_dots(state, holder, -bonus.dots, f"{bonus.name} lost")
                if new_holder is not None:
                    state = self.engine.add_dots(state, new_holder, bonus.dots, bonus.name)
            if new_holder is None:
                holders.pop(bonus.id, None)
            else:
                holders[bonus.id] = new_holder
        standing = tuple(sorted(holders.items()))
        if standing != state.standing:  # most turns no bonus changes hands: the state is not copied then
            state = update(state, standing=standing)
        return self._say(state, events)

    @staticmethod
    def _standing_moves(state: GameState, bonus: Standing, holder: Optional[int], new_holder: Optional[int],
                        leaders: list[int]) -> Event:
        """The story's words when ``bonus`` passes from ``holder`` to ``new_holder`` (either may be None:
        nobody; ``leaders``: the programs level at the top when nobody gets it for a tie), told as the
        program that gains it, or that gives it up when nobody gains it."""
        dots = counted(bonus.dots, "dot")
        names = [p.name for p in state.programs]
        if holder is None:
            return Event(f"{bonus.name} goes to {names[new_holder]}: {'+' if bonus.dots >= 0 else ''}{dots} to its "
                         f"budget while it holds the bonus.", new_holder, "standing")
        if new_holder is not None:
            return Event(f"{bonus.name} passes from {names[holder]} to {names[new_holder]}, and its {dots} "
                         f"with it.", new_holder, "standing")
        if len(leaders) > 1:
            level = [names[k] for k in leaders]
            why = f", with {', '.join(level[:-1])} and {level[-1]} level"
        elif bonus.kind == "largest_crew_in_space":
            why = ", with no crew in space"
        else:
            why = ""
        return Event(f"{bonus.name} is nobody's now{why}: {names[holder]} gives up its {dots}.", holder,
                     "standing")

    def _working_flight_records(self, state: GameState) -> GameState:
        """Each program's longest working flight: the most turn ends one craft spent in space flying, unstranded."""
        for upgoer in state.upgoers:
            program = state.programs[upgoer.owner]
            if (upgoer.in_space and upgoer.status == "flying" and not upgoer.stranded
                    and upgoer.turns_in_space > program.longest_working_flight):
                state = with_program(state, update(program, longest_working_flight=upgoer.turns_in_space))
        return state

    # ------------------------------------------------------------------ R&D-time extras
    def track(self, state: GameState, program: int, upgoer_id: str) -> GameState:
        upgoer = state.find("upgoer", upgoer_id)
        if upgoer is None or upgoer.status != "debris":
            raise IllegalAction(f"{upgoer_id} is not a piece of debris")
        if upgoer.tracked_by is not None:
            raise IllegalAction(f"{state.programs[upgoer.tracked_by].name} already tracks it")
        state = self._replace_upgoer(state, update(upgoer, tracked_by=program))
        return update(state, events=(Event(f"{state.programs[program].name} keeps watch on the debris of "
                                                        f"{upgoer.name}.", program, "rnd"),))
