"""What flying earns.

A step visited for the first time (dots, and more if nobody had been there), the prestige firsts for
steps, orbit types and feats, and the maps a craft makes and a crew brings home.
"""
from __future__ import annotations

import functools
from typing import Optional

from game.games.whatgoesup.rules.flight.common import FlightBase
from game.games.whatgoesup.rules.state import (Event, GameState, Program, Upgoer, programs_with, replace_in, update,
                                               updated, with_program)
from game.core.words import counted


class RecordsPart(FlightBase):
    """Visits, prestige firsts and maps."""

    def _visit(self, state: GameState, upgoer: Upgoer, step_id: str) -> GameState:
        """A craft enters a step: new mission steps, prestige firsts for steps and orbit types. With
        ``prestige.yaml: steps_need_survival`` a craft destroyed there (burnt up with nothing to shield it at
        reentry, blown up at the insertion) has reached nothing."""
        step = self.board.step(step_id)
        if step.kind in ("home", "burn"):
            return state
        if self.rules.prestige.steps_need_survival and state.upgoer(upgoer.id).status == "destroyed":
            return state
        program = state.programs[upgoer.owner]
        if step.name not in program.visited:
            # Its dots, the step marked visited, the bonus when nobody else had reached it, and the step counted
            # among the craft's new steps, in one copy of the state.
            program = self.engine.dotted(program, self.first_share(state, upgoer, self.rules.economy.dots.per_new_step),
                                         f"new step {step.name}")
            program = update(program, visited=program.visited | {step.name})
            bonus = self.rules.economy.dots.per_new_step_nobody_visited
            if bonus and not any(step.name in p.visited for p in state.programs if p.index != program.index):
                program = self.engine.dotted(program, bonus, f"nobody had reached {step.name}")
            craft = state.upgoer(upgoer.id)
            # The step's first, when this is it, goes into the same copy (it reads neither the programs, the
            # craft's new steps nor the firsts this copy changes: ``_firsts_won``).
            program, firsts, said = self._firsts_won(state, program, "mission_step", step.name, step.name, upgoer,
                                                     state.firsts)
            changes = {"programs": programs_with(state, program),
                       "upgoers": replace_in(state.upgoers, [update(craft, new_steps=craft.new_steps + (step.name,))])}
            if said:
                changes["firsts"] = firsts
                changes["events"] = state.events + said
            state = updated(state, changes)
        else:
            state = self._first(state, upgoer.owner, "mission_step", step.name, key=step.name, craft=upgoer)
        if step.kind == "orbit" and step.orbit_type is not None:
            orbit = self.board.orbit_type(step.orbit_type)
            won = self._first(state, upgoer.owner, "orbit_type", orbit.name, key=orbit.id, craft=upgoer)
            if won is not state:
                state = won
                mapping = [i for i in self._items_aboard(state, state.upgoer(upgoer.id))
                           if self._kind(state, i) == "mapping" and not i.disabled]
                first = next(f for f in self.rules.prestige.firsts if f.trigger == "orbit_type")
                if mapping and first.mapping_steps and orbit.first_mapping_body:
                    state = self._add_mapping(state, upgoer.owner, orbit.first_mapping_body,
                                              first.mapping_steps * self.rules.prestige.mapping_percent_per_turn)
                    state = self._craft_maps(state, state.upgoer(upgoer.id), orbit.first_mapping_body,
                                             first.mapping_steps * self.rules.prestige.mapping_percent_per_turn)
        return state

    @functools.cached_property
    def _firsts_by_trigger(self) -> dict[str, tuple]:
        """prestige.yaml's firsts grouped by trigger, each group in the file's order (the rules never change)."""
        grouped: dict[str, list] = {}
        for first in self.rules.prestige.firsts:
            grouped.setdefault(first.trigger, []).append(first)
        return {trigger: tuple(firsts) for trigger, firsts in grouped.items()}

    def _first(self, state: GameState, program: int, trigger: str, what: str, key: Optional[str] = None,
               craft: Optional[Upgoer] = None) -> GameState:
        """Award every first with this trigger that nobody has won yet (``craft``: the craft winning it, when one
        does; an underped craft wins a share of the dots): its dots, the firsts claimed and told in one copy."""
        winner, firsts, said = self._firsts_won(state, state.programs[program], trigger, what, key, craft,
                                                state.firsts)
        if not said:
            return state
        return update(state, programs=programs_with(state, winner), firsts=firsts, events=state.events + said)

    def _firsts_won(self, state: GameState, winner: Program, trigger: str, what: str, key: Optional[str],
                    craft: Optional[Upgoer], firsts: tuple) -> tuple[Program, tuple, tuple[Event, ...]]:
        """The firsts with this trigger that ``winner`` (a program as it stands) wins, none of them claimed in
        ``firsts``: the program with their dots recorded, ``firsts`` with them claimed and what is told of them
        (empty when it wins none). Reads of ``state`` only the craft's crew (``first_share``)."""
        said: tuple[Event, ...] = ()
        for first in self._firsts_by_trigger.get(trigger, ()):
            claim = f"{first.id}:{key}" if first.per_name and key else first.id
            claimed = self._claimed(firsts)
            if claim in claimed:
                continue
            dots = self.first_share(state, craft, first.dots)  # reads the craft, not the firsts
            robots = " by an underped craft" if dots != first.dots else ""
            named = f" ({what})" if first.per_name and key else ""  # the step's or orbit's name, never its id
            said += (Event.told(_first_words, (first.name, winner.name, robots, what, dots), winner.index,
                                "prestige"),)
            winner = self.engine.dotted(winner, dots, first.name + named)
            firsts = firsts + ((claim, winner.index),)
            self._kept_claims = (firsts, claimed | {claim})  # grown by one, not rebuilt from the tuple
        return winner, firsts, said

    def _claimed(self, firsts: tuple[tuple[str, int], ...]) -> frozenset[str]:
        """The firsts already won in ``firsts`` (the state's), kept for the last tuple asked: a craft's every
        step asks, and the tuple only grows when a first is won."""
        kept = self._kept_claims
        if kept is None or kept[0] is not firsts:
            kept = self._kept_claims = (firsts, frozenset(claim for claim, _ in firsts))
        return kept[1]

    def _add_mapping(self, state: GameState, program: int, body: str, percent: int) -> GameState:
        p = state.programs[program]
        mapping = dict(p.mapping)
        mapping[body] = min(100, mapping.get(body, 0) + percent)
        return with_program(state, update(p, mapping=tuple(sorted(mapping.items()))))

    def _craft_maps(self, state: GameState, upgoer: Upgoer, body: str, percent: int) -> GameState:
        """The maps a craft has made on this flight (brought home by a crew for All Seeing Eye)."""
        upgoer = state.upgoer(upgoer.id)
        mapped = dict(upgoer.mapped)
        mapped[body] = min(100, mapped.get(body, 0) + percent)
        return self._replace_upgoer(state, update(upgoer, mapped=tuple(sorted(mapped.items()))))

    @staticmethod
    def _maps_brought_home(program: Program, upgoer: Upgoer) -> tuple[tuple[str, int], ...]:
        home = dict(program.maps_home)
        for body, percent in upgoer.mapped:
            home[body] = min(100, home.get(body, 0) + percent)
        return tuple(sorted(home.items()))


def _first_words(first: str, winner: str, robots: str, what: str, dots: int) -> str:
    """A first won (``RecordsPart._firsts_won``), put together when first read (``Event.told``; a bot game reads
    none)."""
    return f"{first}: {winner} is first{robots}! ({what}) +{counted(dots, 'dot')} at the end of the turn."
