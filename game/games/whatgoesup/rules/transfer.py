"""Where technology transfer's sources stand, kept per program and tuple of the state (issue 12).

A new blueprint may inherit the rating of a similar, heavy enough design (``Engine.transfer_rating``): one of
the program's blueprints, or a design of which it holds a part without holding the blueprint ("Trading a piece
of equipment does NOT automatically mean sharing the blueprint ... However, Technology Transfer still
applies."). Late in a long game a program holds a hundred blueprints and a few hundred parts, so reading them
all for every invention made an invention cost three times what it costs early on. The view keeps the places
of the few that can be sources and is carried from the program's last view by what changed
(``rnd_listing.changed_since``: the places ``replace_in`` and ``appended`` recorded), so an invention costs
about the same in a long game as in a short one. It holds the tuples it was read from and answers only when
handed those very tuples: derived data only, the state stays immutable plain data.
"""
from __future__ import annotations

from bisect import bisect_left
from typing import Optional

from game.games.whatgoesup.rules.rnd_listing import changed_since
from game.games.whatgoesup.rules.state import GameState, Item, Thing, index_by_id


class SourcePlaces:
    """One program's technology-transfer sources in one ``things`` and ``items`` tuple, by place, in order."""

    __slots__ = ("things", "items", "own", "foreign")

    def __init__(self, things: tuple, items: tuple, own: list[int], foreign: list[int]):
        self.things, self.items = things, items  # the tuples read
        self.own = own  # places in ``things`` of the program's blueprints that can pass their rating on
        self.foreign = foreign  # places in ``items`` of the program's parts whose design can pass its rating on
        # and whose blueprint the program does not hold


class TransferSources:
    """The last ``SourcePlaces`` of each program, for one edition's rules.

    A design can pass its rating on only once it has flown successfully when the rules ask that
    (``tech_transfer_needs_successful_flight``), so only those are kept: a handful, where a long game's program
    holds a hundred blueprints and dozens of traded parts of designs that never flew."""

    def __init__(self, needs_flight: bool):
        self.needs_flight = needs_flight
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

    def _can_pass_on(self, thing: Thing) -> bool:
        return thing.flown_successfully or not self.needs_flight

    def _foreign(self, item: Item, designs: dict, program: int) -> bool:
        if item.owner != program:
            return False
        design = designs[item.thing_id]
        return design.owner != program and self._can_pass_on(design)

    def _whole(self, things: tuple, items: tuple, program: int) -> SourcePlaces:
        own = [n for n, thing in enumerate(things) if thing.owner == program and self._can_pass_on(thing)]
        return SourcePlaces(things, items, own, self._all_foreign(things, items, program))

    def _all_foreign(self, things: tuple, items: tuple, program: int) -> list[int]:
        designs = index_by_id(things)
        return [n for n, item in enumerate(items) if self._foreign(item, designs, program)]

    def _carried(self, last: SourcePlaces, things: tuple, items: tuple, program: int) -> Optional[SourcePlaces]:
        """``last`` for ``things`` and ``items`` when they hold the same blueprints and parts in the same places
        (some replaced by new values of the same ids, new ones after them); None when that cannot be told or a
        blueprint changed hands (then read everything). When another program's design first flies successfully,
        the parts are read again (which of them are sources is not kept by design)."""
        own, foreign = last.own, last.foreign
        if things is not last.things:
            before = last.things
            changed = changed_since(before, things)
            if changed is None:
                return None
            for n in changed:
                old, new = before[n], things[n]
                if new.id != old.id or new.owner != old.owner:
                    return None  # the designs' owners decide which parts are foreign: read everything
                if self._can_pass_on(old) != self._can_pass_on(new):
                    if new.owner != program:
                        foreign = None  # its parts the program holds become sources: read the parts again
                    elif self._can_pass_on(new):
                        own = list(own) if own is last.own else own
                        own.insert(bisect_left(own, n), n)
                    else:
                        own = list(own) if own is last.own else own
                        del own[bisect_left(own, n)]
            added = [n for n in range(len(before), len(things))
                     if things[n].owner == program and self._can_pass_on(things[n])]
            if added:
                own = own + added
        if foreign is None:
            return SourcePlaces(things, items, own, self._all_foreign(things, items, program))
        if items is not last.items:
            before = last.items
            changed = changed_since(before, items)
            if changed is None:
                return None
            designs = index_by_id(things) if changed or len(items) > len(before) else None
            for n in changed:
                old, new = before[n], items[n]
                if new.id != old.id or new.thing_id != old.thing_id:
                    return None
                was, now = self._foreign(old, designs, program), self._foreign(new, designs, program)
                if was != now:
                    foreign = list(foreign) if foreign is last.foreign else foreign
                    if now:
                        foreign.insert(bisect_left(foreign, n), n)
                    else:
                        del foreign[bisect_left(foreign, n)]
            added = [n for n in range(len(before), len(items)) if self._foreign(items[n], designs, program)]
            if added:
                foreign = foreign + added
        return SourcePlaces(things, items, own, foreign)
