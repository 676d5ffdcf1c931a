"""Where technology transfer's sources stand, kept per program and tuple of the state (issue 12).

A new blueprint may inherit the rating of a similar, heavy enough design (``Engine.transfer_rating``): one of
the program's blueprints, or a design of which it holds a part without holding the blueprint ("Trading a piece
of equipment does NOT automatically mean sharing the blueprint ... However, Technology Transfer still
applies."). Late in a long game a program holds a hundred blueprints and a few hundred parts, so reading them
all for every invention made an invention cost three times what it costs early on. The view keeps the places
of the few that can be sources and is carried from the program's last view by what changed
(``rnd_listing.changed_since``, comparing the tuples at C speed), so an invention costs
about the same in a long game as in a short one: a changed or added part is looked at only when it is of one of
the other programs' designs that can pass their rating on, so while there are none (most of a game) no part is
read. It holds the tuples it was read from and answers only when handed those very tuples: derived data only,
the state stays immutable plain data.
"""
from __future__ import annotations

from bisect import bisect_left
from typing import Optional

from game.games.whatgoesup.rules.rnd_listing import changed_since
from game.games.whatgoesup.rules.state import GameState


#: How far back a tuple's making is followed before the tuples are compared whole at C speed: not at all. An
#: invention comes dozens of actions after the program's last (every research makes a new things tuple), and
#: walking back step by step costs more than comparing (CPU per transfer in the same games: 8 steps 17.5 /
#: 18.3 µs, none 16.4 / 15.7 in the space-program bot's 20-turn games; 21.3 / 25.4 against 18.9 / 19.5 in an
#: 80-turn random game).
_STEPS = 0


class SourcePlaces:
    """One program's technology-transfer sources in one ``things`` and ``items`` tuple, by place, in order."""

    __slots__ = ("things", "items", "own", "designs", "foreign")

    def __init__(self, things: tuple, items: tuple, own: list[int], designs: frozenset[str], foreign: list[int]):
        self.things, self.items = things, items  # the tuples read
        self.own = own  # places in ``things`` of the program's blueprints that can pass their rating on
        self.designs = designs  # ids of the other programs' designs that can pass their rating on
        self.foreign = foreign  # places in ``items`` of the program's parts of those designs


class TransferSources:
    """The last ``SourcePlaces`` of each program, for one edition's rules.

    A design can pass its rating on only once it has flown successfully when the rules ask that
    (``tech_transfer_needs_successful_flight``), so only those are kept: a handful, where a long game's program
    holds a hundred blueprints and dozens of traded parts of designs that never flew. A part changed or added
    is looked at only when it is of one of the other programs' designs that can pass their rating on (often
    none: then no part is read at all)."""

    def __init__(self, needs_flight: bool):
        self.any_design = not needs_flight  # every design can pass its rating on, flown or not
        self._last: dict[int, SourcePlaces] = {}

    def places(self, state: GameState, program: int) -> SourcePlaces:
        things, items = state.things, state.items
        last = self._last.get(program)
        if last is not None and last.things is things and last.items is items:
            return last
        view = self._carried(last, things, items, program) if last is not None else None
        if view is None:
            view = self._whole(things, items, program)
        self._last[program] = view
        return view

    def _whole(self, things: tuple, items: tuple, program: int) -> SourcePlaces:
        any_design = self.any_design
        own = [n for n, thing in enumerate(things)
               if thing.owner == program and (any_design or thing.flown_successfully)]
        designs = frozenset(thing.id for thing in things
                            if thing.owner != program and (any_design or thing.flown_successfully))
        return SourcePlaces(things, items, own, designs, self._parts_of(designs, items, program))

    @staticmethod
    def _parts_of(designs: frozenset[str], items: tuple, program: int) -> list[int]:
        if not designs:
            return []
        return [n for n, item in enumerate(items) if item.thing_id in designs and item.owner == program]

    def _carried(self, last: SourcePlaces, things: tuple, items: tuple, program: int) -> Optional[SourcePlaces]:
        """``last`` for ``things`` and ``items`` when they hold the same blueprints and parts in the same places
        (some replaced by new values of the same ids, new ones after them); None when that cannot be told or a
        blueprint changed hands (then read everything). When another program's design first flies successfully,
        the parts are read again."""
        any_design = self.any_design
        own, designs, foreign = last.own, last.designs, last.foreign
        if things is not last.things:
            before = last.things
            changed = changed_since(before, things, _STEPS)
            if changed is None:
                return None
            flipped = []  # places of designs whose power to pass their rating on changed (a first good flight)
            for n in changed:
                old, new = before[n], things[n]
                if new.id != old.id or new.owner != old.owner:
                    return None  # the designs' owners decide which parts are foreign: read everything
                if not any_design and old.flown_successfully != new.flown_successfully:
                    flipped.append(n)
            # New blueprints after them (an invention; a traded or copied design keeps the original's record).
            flipped += [n for n in range(len(before), len(things)) if any_design or things[n].flown_successfully]
            if flipped:
                own, more = list(own), set(designs)
                for n in flipped:
                    thing = things[n]
                    passes = any_design or thing.flown_successfully
                    if thing.owner != program:
                        if passes:
                            more.add(thing.id)
                        else:
                            more.discard(thing.id)
                    elif n >= len(before):
                        own.append(n)
                    elif passes:
                        own.insert(bisect_left(own, n), n)
                    else:
                        del own[bisect_left(own, n)]
                if more != designs:
                    designs = frozenset(more)
                    return SourcePlaces(things, items, own, designs, self._parts_of(designs, items, program))
        if designs and items is not last.items:
            before = last.items
            changed = changed_since(before, items, _STEPS)
            if changed is None:
                return None
            for n in changed:
                old, new = before[n], items[n]
                if new.id != old.id or new.thing_id != old.thing_id:
                    return None
                if new.thing_id in designs and (old.owner == program) != (new.owner == program):
                    foreign = list(foreign) if foreign is last.foreign else foreign
                    if new.owner == program:
                        foreign.insert(bisect_left(foreign, n), n)
                    else:
                        del foreign[bisect_left(foreign, n)]
            added = [n for n in range(len(before), len(items))
                     if items[n].thing_id in designs and items[n].owner == program]
            if added:
                foreign = foreign + added
        return SourcePlaces(things, items, own, designs, foreign)
