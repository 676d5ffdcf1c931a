"""The end of the flight phase, and debris.

Once every craft has flown: debris drifts, crews eat and habitats rest them, mapping goes on and
the standing bonuses move to their holders; then the engine ends the turn. During R&D a program may
track a piece of debris to keep it on the board.
"""
from __future__ import annotations

from typing import Optional, Sequence

from game.core.interface import IllegalAction
from game.core.words import counted
from game.games.whatgoesup.rules.flight.common import FlightBase
from game.games.whatgoesup.rules.tables import Standing
from game.games.whatgoesup.rules.state import (IN_SPACE, Derp, Event, GameState, Program, Upgoer, programs_with,
                                               replace_in, update)


def _in_space(upgoers: tuple[Upgoer, ...]) -> list[Upgoer]:
    """The craft in space (``Upgoer.in_space``), in order: a long game's pool keeps dozens of craft landed,
    destroyed or gone, and the turn's end reads it several times. A comprehension reads the status in fewer
    instructions than map(attrgetter) (Python 3.11), and makes no iterators for a short pool."""
    return [u for u in upgoers if u.status in IN_SPACE]


def _flying(upgoers: tuple[Upgoer, ...]) -> list[Upgoer]:
    """The flying craft, in order (as ``_in_space``)."""
    return [u for u in upgoers if u.status == "flying"]


class TurnEndPart(FlightBase):
    """The end of the flight phase and the tracking of debris."""

    def _end_flights(self, state: GameState) -> GameState:
        """Debris drifts, derps eat, habitats rest, long missions count; then the turn ends (``Engine.end_turn``,
        which takes the flight away). Nothing on the way reads the flight (every craft has flown: none is
        active, no roll waits), so it is left as it stands for ``end_turn``'s one copy to drop."""
        # Only the rushed craft are copied (the rest, and the tuple's indexes, are shared with the state before).
        rushed = [update(u, rush=0) for u in state.upgoers if u.rush]
        if rushed:
            state = update(state, upgoers=replace_in(state.upgoers, rushed))
        state = self._drift_debris(state)
        state = self._eat_and_rest(state)
        state = self._mapping_turn(state)
        return self.engine.end_turn(state)  # the next turn (no flight, phase rnd) in one copy, this story first

    def _drift_debris(self, state: GameState) -> GameState:
        """"Space debris always move last, and just follow their current orbit" (2014): each piece of debris, and
        each craft written off with its crew aboard (nobody steers it: a wreck like any other), coasts along its
        rail to the next duration step. Debris or a written-off craft docked to a flying one moves with it
        instead; wrecks docked only to wrecks drift together, each along the same rail from the same step. Debris
        that falls into the atmosphere burns up and debris that leaves the world's pull is gone (letting go of
        whatever it was docked to), with whoever is aboard (their program already paid for them when it wrote
        the craft off)."""
        for upgoer in [u for u in state.upgoers if (u.status == "debris" or u.status == "written_off") and not (
                u.docked_with and any(p.status == "flying" for p in self._docked_partners(state, u)))]:
            step = self.board.step(upgoer.location)
            current = step.next
            seen = set()
            while current is not None and current not in seen:
                seen.add(current)
                s = self.board.step(current)
                if s.is_duration:
                    state = self._replace_upgoer(state, update(state.upgoer(upgoer.id), location=s.id))
                    break
                if s.kind in ("reentry", "landing", "home"):
                    state = self._kill(state, upgoer, self._crew(state, upgoer), "burnt up with the wreck")
                    state = self._destroy_upgoer(state, state.upgoer(upgoer.id),
                                                 f"The debris of {upgoer.name} burns up in the atmosphere.")
                    break
                if s.kind == "escape":
                    state = self._kill(state, upgoer, self._crew(state, upgoer), "lost in deep space with the wreck")
                    state = self._undock_all(state, upgoer, "as it leaves the world's pull")
                    state = self._replace_upgoer(state, update(state.upgoer(upgoer.id), status="escaped"))
                    break
                current = s.next
        return state

    def _eat_and_rest(self, state: GameState) -> GameState:
        """Each crewed craft in space: its derps eat (a hungry crew is hurt), the program's record of a crewed
        flight grows, a working habitat rests its derps, a generator recharges its systems, and a crew up over a
        turn wins Multiturn Mission; then each flying craft with nobody aboard counts its turn in space.
        A craft written off with its crew is still in orbit and so is its crew ("Rations are used by derps still
        in orbit"): they eat, go hungry and rest the same way, but the wreck is no longer its program's flight
        (no record, no first), and once nobody is left alive aboard it is debris like any other."""
        in_space = _in_space(state.upgoers)
        wrecks = [u for u in state.upgoers if u.status == "written_off"]
        if wrecks:
            in_space += wrecks
        if in_space:
            # Every crew in space found in one pass over the derps. A craft's own turn here changes only its own
            # craft and derps, so each craft and crew is as listed when its turn comes.
            ids = {u.id for u in in_space}
            crews: dict[str, list[Derp]] = {}
            for d in state.derps:
                if d.location in ids and not d.dead:
                    crews.setdefault(d.location, []).append(d)
            for upgoer in in_space:
                crew = crews.get(upgoer.id)
                if crew:
                    state = self._crew_turn_ends(state, upgoer, crew)
            for wreck in wrecks:
                if not self._crew(state, wreck):
                    state = self._wreck_to_debris(state, state.upgoer(wreck.id))
        flying = _flying(state.upgoers)
        if flying:
            aboard = {d.location for d in state.derps if not d.dead}
            empty = [update(u, turns_in_space=u.turns_in_space + 1) for u in flying if u.id not in aboard]
            if empty:
                state = update(state, upgoers=replace_in(state.upgoers, empty))
        return state

    def _crew_turn_ends(self, state: GameState, upgoer: Upgoer, crew: list[Derp]) -> GameState:
        """``_eat_and_rest`` for one craft in space or written off and its ``crew`` (its living derps and underped
        systems)."""
        eaters = [d for d in crew if d.system is None]  # underped systems eat no rations
        fed = min(upgoer.rations, len(eaters))
        hungry = eaters[fed:]
        # The meal, the record and the rest go into one copy of the state (a hungry crew's injuries, told
        # in between, come first); the rest reads only the derps and parts aboard, which the meal leaves be.
        wreck = upgoer.status == "written_off"  # its program gave it up: it eats and rests, and counts for nothing
        if wreck:
            fed_upgoer = update(upgoer, rations=upgoer.rations - fed)
        else:
            crewed_turns = upgoer.crewed_turns + 1
            fed_upgoer = update(upgoer, rations=upgoer.rations - fed, crewed_turns=crewed_turns,
                                turns_in_space=upgoer.turns_in_space + 1)
        changes = {"upgoers": replace_in(state.upgoers, [fed_upgoer])}
        program = state.programs[upgoer.owner]
        if not wreck and crewed_turns > program.longest_crewed_flight:  # the record outlives the flight
            changes["programs"] = programs_with(state, update(program, longest_crewed_flight=crewed_turns))
        living = eaters
        if hungry:
            state = update(state, **changes)
            changes = {}
            state = self._event(state, f"{upgoer.name} has run out of rations.", upgoer, "consequence")
            state = self._injure(state, upgoer, hungry, "no rations left")
            fed_upgoer = state.upgoer(upgoer.id)
            crew = self._crew(state, fed_upgoer)  # a second injury kills
            living = [d for d in crew if d.system is None]
        upgoer = fed_upgoer
        if not upgoer.habitat_failed and self._modules(state, upgoer, "habitat"):
            # Stamina back up to the derp's own (a derp already there keeps its value as it is).
            rested = [update(d, current_stamina=min(d.stamina, d.current_stamina + 1))
                      for d in living if not d.injured and d.current_stamina != d.stamina]
            if rested:
                changes["derps"] = replace_in(state.derps, rested)
        if changes:
            state = update(state, **changes)
        if len(living) < len(crew):  # systems aboard, which a generator may recharge
            state = self._recharge_systems(state, upgoer)
        if crew and not wreck:  # up over a turn (its crewed turns are at least 1 now), with someone still aboard
            state = self._first(state, upgoer.owner, "multiturn_mission", f"{upgoer.name} stays up over a turn",
                                craft=upgoer)
        return state

    def _wreck_to_debris(self, state: GameState, wreck: Upgoer) -> GameState:
        """A written-off craft with nobody left alive aboard (starved, or every derp rescued) is debris: "A player
        may 'write off' an unoccupied Upgoer ... as space debris" (2014). Like a craft written off empty, it lets
        go of any craft it is docked to, and it may be tracked; untracked, it leaves at the next flight phase."""
        state = self._undock_all(state, wreck, "as nobody is left aboard")
        state = self._replace_upgoer(state, update(state.upgoer(wreck.id), status="debris"))
        return self._event(state, f"Nobody is left alive aboard the wreck of {wreck.name}: it is debris now.",
                           wreck, "consequence")

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

    def standing_bonuses(self, state: GameState) -> tuple[Sequence[Program], tuple[tuple[str, int], ...],
                                                          tuple[Event, ...]]:
        """Who holds each standing bonus once the flights are done: (the programs, each with the dots of a bonus
        it gained or gave up recorded and, for Space Station, its longest working flight; the holders, as
        ``GameState.standing`` keeps them; what their moves tell). A bonus's dots move with it (gained once, given
        up when lost). The state is not copied: ``Engine.end_turn`` puts these into its one copy of the turn's
        end (the programs and the holders are the state's own values when nothing changed)."""
        programs = state.programs
        held = state.standing
        holders = dict(held)
        events: list[Event] = []
        for bonus in self.rules.prestige.standing:
            kind = bonus.kind
            if kind == "longest_crewed_flight":
                # "Whoever has had ... the longest": a record, kept when the record flight comes home.
                scores = {p.index: p.longest_crewed_flight for p in programs if p.longest_crewed_flight}
            elif kind == "largest_crew_in_space":
                scores = self._crews_in_space(state)
            elif kind == "most_mapping":
                scores = {p.index: most for p in programs if (most := max([v for _, v in p.mapping], default=0)) > 0}
            else:  # longest_working_flight
                # Space Station (2013): "Whoever has had a working Upgoer in space the longest", crewed or not;
                # a record like Duration Mission's, counted while the craft flies and is not stranded.
                programs = self._working_flight_records(state.upgoers, programs)
                scores = {p.index: p.longest_working_flight for p in programs if p.longest_working_flight}
            holder = holders.get(bonus.id)
            if scores:
                best = max(scores.values())
                leaders = [k for k, v in scores.items() if v == best]
                new_holder = holder if holder in leaders else (leaders[0] if len(leaders) == 1 else None)
            else:
                leaders, new_holder = [], None
            if new_holder == holder:
                continue
            # The bonus dots move with the bonus: the new holder gains them and the old one gives them up.
            events.append(self._standing_moves(state, bonus, holder, new_holder, leaders))
            programs = list(programs)
            if holder is not None:
                programs[holder] = self.engine.dotted(programs[holder], -bonus.dots, f"{bonus.name} lost")
            if new_holder is not None:
                programs[new_holder] = self.engine.dotted(programs[new_holder], bonus.dots, bonus.name)
            if new_holder is None:
                del holders[bonus.id]
            else:
                holders[bonus.id] = new_holder
        if not events:
            return programs, held, ()
        return tuple(programs), tuple(sorted(holders.items())), tuple(events)

    def _crews_in_space(self, state: GameState) -> dict[int, int]:
        """Space Party's scores: each program's biggest crew aboard one flying craft (in space, not debris), its
        living derps counted, not its underped systems; a program with no crew up has no score."""
        flying = _flying(state.upgoers)
        if not flying:
            return {}
        aboard: dict[str, int] = {}
        for d in state.derps:
            if d.system is None and not d.dead:  # a derp (not an underped system), alive, wherever it is
                aboard[d.location] = aboard.get(d.location, 0) + 1
        scores: dict[int, int] = {}
        for upgoer in flying:
            crew = aboard.get(upgoer.id)
            if crew and crew > scores.get(upgoer.owner, 0):
                scores[upgoer.owner] = crew
        return scores

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

    @staticmethod
    def _working_flight_records(upgoers: tuple[Upgoer, ...], programs: Sequence[Program]) -> Sequence[Program]:
        """``programs`` with each one's longest working flight: the most turn ends one craft spent in space flying,
        unstranded (the very ``programs`` when no record grew)."""
        for upgoer in upgoers:
            program = programs[upgoer.owner]
            if (upgoer.in_space and upgoer.status == "flying" and not upgoer.stranded
                    and upgoer.turns_in_space > program.longest_working_flight):
                programs = list(programs)
                programs[upgoer.owner] = update(program, longest_working_flight=upgoer.turns_in_space)
        return programs

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
