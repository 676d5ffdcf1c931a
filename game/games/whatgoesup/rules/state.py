"""Game state: immutable plain data. Every change makes a new value (``dataclasses.replace``).

Ids are short strings handed out from one counter (``T3`` a thing, ``I7`` an item, ``D2`` a derp,
``U1`` an Upgoer), so a save's action log can name them and a replay gets the same ones.
"""
from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Mapping
from dataclasses import dataclass
from itertools import compress, repeat
from operator import attrgetter, eq, is_
from typing import Callable, Iterable, NamedTuple, Optional, Sequence

from game.games.whatgoesup.rules.reliability import Rating

HOME = None  # location of things and derps at home (not on a craft)


@dataclass(frozen=True)
class Thing:
    """An invented design a program holds the blueprint of (its reliability is the program's research)."""

    id: str
    owner: int
    name: str
    kind: str
    base_mass: int
    mass: int  # with the reusable extra
    reusable: bool
    rating: Rating
    inventor: int
    flown: bool = False
    flown_successfully: bool = False
    fail_steps_this_turn: int = 0
    boom_steps_this_turn: int = 0


@dataclass(frozen=True)
class Item:
    """One built copy of a thing.

    Until it launches (or leaves its inventor's hands) it follows the blueprint's rating; from then
    on ``fixed_rating`` holds its own rating, which only booms of its kind can lower.
    """

    id: str
    thing_id: str
    owner: int
    location: Optional[str] = HOME  # None: in storage at home; else the Upgoer carrying it
    fixed_rating: Optional[Rating] = None
    flight_fail_penalty: int = 0  # damage for the rest of this flight (e.g. a thruster boom nearby)
    flight_boom_penalty: int = 0
    disabled: bool = False
    reusable_lost: bool = False
    uses_left: Optional[int] = None
    reentries: int = 0
    active: bool = False  # a payload switched on (a Waylight shining)
    unusable_this_turn: bool = False


SKILLS = ("piloting", "engineering", "stamina")


@dataclass(frozen=True)
class Derp:
    """A spacederp. ``stamina`` is the trained maximum; ``current_stamina`` what is left now.

    With the underped rules a built underped system is also a crew member: a Derp whose ``system`` is the
    id of its Item (the component that gives it mass and a rating). A system is programmed, never trained
    or injured: what would injure a derp sets ``powered_down`` (as it is at home and before its power-up
    check after liftoff), and what would kill one destroys it.
    """

    id: str
    owner: int
    name: str
    piloting: int
    engineering: int
    stamina: int
    current_stamina: int
    injured: bool = False
    dead: bool = False
    busy: Optional[str] = None  # "training" or "healing": cannot fly this turn
    trained_skill: Optional[str] = None
    trained_points: int = 0
    location: Optional[str] = HOME
    defected: bool = False  # came over in a rescue: their death costs the rescuer nothing
    walked_on: tuple[str, ...] = ()  # bodies whose surface this derp has walked on (an EVA there)
    system: Optional[str] = None  # underped rules: the Item this crew member is (None: a living derp)
    powered_down: bool = False  # a system that cannot act until it powers up

    @property
    def is_system(self) -> bool:
        return self.system is not None

    @property
    def awake(self) -> bool:
        """Able to act: alive, not injured, and (a system) powered up."""
        return not self.dead and not self.injured and not self.powered_down

    @property
    def total_points(self) -> int:
        return self.piloting + self.engineering + self.stamina

    @property
    def effective_stamina(self) -> int:
        """An injured derp counts as having -1 stamina."""
        return -1 if self.injured else self.current_stamina

    @property
    def can_fly(self) -> bool:
        return not self.dead and not self.injured and self.busy is None

    @property
    def condition(self) -> str:
        if self.dead:
            return "destroyed" if self.is_system else "dead"
        if self.injured:
            return "injured"
        if self.powered_down:
            return "powered down"
        if self.current_stamina <= 0:
            return "exhausted"
        return "healthy"


#: The statuses of a craft in space (``Upgoer.in_space``), for reading a long pool's craft at C speed.
IN_SPACE = frozenset({"flying", "debris"})


@dataclass(frozen=True)
class UpgoerDesign:
    """A blueprint for an Upgoer, built from items in storage.

    ``stages`` are the lower-stage clusters from the bottom up (launch first, then orbital insertion;
    a single one with Simplified Stack). ``modules`` are the spacecraft's capsules, habitats,
    thrusters, payloads and RCS. ``fuel`` is in fuel points, ``rations`` in derp-turns.
    ``planned_burns`` only feeds the fuel preview.
    """

    name: str
    stages: tuple[tuple[str, ...], ...] = ()
    modules: tuple[str, ...] = ()
    crew: tuple[str, ...] = ()
    fuel: int = 0
    rations: int = 0
    planned_burns: int = 0

    def all_items(self) -> tuple[str, ...]:
        return tuple(i for cluster in self.stages for i in cluster) + self.modules


PAD = "pad"  # an assembled Upgoer waiting at the spaceport


@dataclass(frozen=True)
class Upgoer:
    """An assembled craft: on the pad, flying, or finished (landed, destroyed, escaped, written off)."""

    id: str
    owner: int
    name: str
    stages: tuple[tuple[str, ...], ...]
    modules: tuple[str, ...]
    crew: tuple[str, ...]
    fuel: int
    rations: int
    location: str = PAD
    status: str = "pad"  # pad, flying, landed, destroyed, escaped, written_off, debris
    launched_turn: Optional[int] = None
    turns_in_space: int = 0
    crewed_turns: int = 0
    moved_this_turn: bool = False
    stranded: bool = False
    tracked_by: Optional[int] = None  # debris: the program monitoring it
    docked_with: tuple[str, ...] = ()
    new_steps: tuple[str, ...] = ()  # step names first visited by its owner on this flight
    reentries: int = 0
    bodies_landed: tuple[str, ...] = ()  # bodies whose surface this flight has reached
    habitat_failed: bool = False  # this turn: no stamina recovery
    written_off_by: Optional[int] = None
    caught_up_turn: Optional[int] = None  # a catch-up burn this turn: no docking until next turn
    rush: int = 0  # timing bonus bought with stamina for the next flight phase (never helps a roll)
    mapped: tuple[tuple[str, int], ...] = ()  # (body, percent) mapped by this flight, not yet brought home
    temple_found: bool = False  # this crew found the Moon Temple on landing (Final Destination)
    relic_mass: int = 0  # the Temple's monolith aboard, to be flown home (the joke option)
    troubled: bool = False  # a roll of this flight has Failed or gone Boom (kept only when a mission award asks)
    orders: tuple[str, ...] = ()  # clockwork underped craft: its written orders still to carry out (a burn's
    # destination, or "verb:subject" for its other actions: flight/underped.py ORDER_VERBS)
    orders_aborted: bool = False  # clockwork: a failed burn was abandoned; the craft only coasts on
    orders_open: bool = False  # clockwork: its systems were recharged in flight; orders may be rewritten until it flies

    @property
    def in_space(self) -> bool:
        return self.status in IN_SPACE


@dataclass(frozen=True)
class DotEntry:
    """One line of a program's end-of-turn budget report."""

    reason: str
    dots: int


@dataclass(frozen=True)
class Program:
    """A space program: its budget, points, luck and stock. Things, items and derps are in GameState."""

    index: int
    name: str
    people: str
    colour: str
    human: bool = True
    dots: int = 40
    points: int = 0
    luck: int = 0
    fuel_stock: int = 0  # fuel points at home
    rations_stock: int = 0  # derp-turns at home
    visited: frozenset[str] = frozenset()  # mission step names this program has reached
    attempted: frozenset[str] = frozenset()  # step names it has rolled at (kept only under a first-attempt penalty)
    dot_entries: tuple[DotEntry, ...] = ()  # changes waiting for the end of the turn
    bonus_points: int = 0  # points added to the next R&D budget (reverse engineering)
    rnd_done: bool = False
    derps_lost: int = 0
    mapping: tuple[tuple[str, int], ...] = ()  # (body, percent mapped)
    maps_home: tuple[tuple[str, int], ...] = ()  # (body, percent) whose maps a crew has brought home
    longest_crewed_flight: int = 0  # turns: the program's record of a continually crewed craft in space
    longest_working_flight: int = 0  # turns: its record of a working craft in space (kept for Space Station)

    def mapped(self, body: str) -> int:
        return dict(self.mapping).get(body, 0)

    def mapped_home(self, body: str) -> int:
        return dict(self.maps_home).get(body, 0)


@dataclass(frozen=True)
class PlayerSetup:
    name: str
    people: str
    colour: str = ""
    human: bool = True


@dataclass(frozen=True)
class Setup:
    """Everything chosen before the first turn. Saves store it; the rules folder is matched by digest."""

    players: tuple[PlayerSetup, ...]
    dice: str = "d20"
    options: frozenset[str] = frozenset()
    turn_limit: Optional[int] = 20
    victory: str = "most_dots"  # a victory id of rules/scenarios.yaml
    scenario: Optional[str] = None  # a scenario id of rules/scenarios.yaml (stop_the_rock), or None
    difficulty: Optional[str] = None  # one of the scenario's difficulties (None: its default)


@dataclass(frozen=True)
class TradeBundle:
    """One side of a trade."""

    points: int = 0
    dots: int = 0
    fuel: int = 0
    rations: int = 0
    items: tuple[str, ...] = ()
    blueprints: tuple[str, ...] = ()
    derps: tuple[str, ...] = ()

    def is_empty(self) -> bool:
        return not (self.points or self.dots or self.fuel or self.rations or self.items
                    or self.blueprints or self.derps)


@dataclass(frozen=True)
class TradeOffer:
    """A trade proposed by ``proposer`` and waiting for ``partner``'s answer."""

    proposer: int
    partner: int
    give: TradeBundle
    take: TradeBundle


@dataclass(frozen=True)
class Event:
    """Something that happened, in words a player understands; the UI log shows these.

    ``Event.told(say, parts, program, kind)`` is the same event with its words put together by ``say(*parts)``
    only when first read (most of a bot game's R&D story is never read): equal to, and printed as, the event
    made with those words. ``parts`` are small values (names, numbers, ratings), never a state."""

    text: str
    program: Optional[int] = None
    kind: str = "info"

    @classmethod
    def told(cls, say: Callable[..., str], parts: tuple, program: Optional[int] = None, kind: str = "info") -> "Event":
        event = _new_object(cls)
        _set_attribute(event, "__dict__", {"program": program, "kind": kind, "_say": say, "_parts": parts})
        return event

    def told_by(self, say: Callable[..., str]) -> Optional[tuple]:
        """The parts of this event while its words are still to be put together by ``say`` (``told``, not yet
        read), else None: what they will tell can be asked of them without making the words."""
        fields = self.__dict__
        return fields["_parts"] if fields.get("_say") is say else None

    def __getattr__(self, name: str):
        fields = self.__dict__
        if name != "text" or "_say" not in fields:
            raise AttributeError(name)
        text = fields["_say"](*fields["_parts"])
        _set_attribute(self, "__dict__", {"text": text, "program": fields["program"], "kind": fields["kind"]})
        return text


@dataclass(frozen=True)
class RockState:
    """Stop The Rock: what the players must see all the time.

    ``turns_left`` counts the turns still to play before impact, this one included (20 on turn 1 of a
    normal game); a nudge given now is worth ``turns_left``. ``drift`` is "rolling" while the optional
    D20 still moves the rock, "off" when the difficulty has no drift, "pinned" once a Waylight shone on
    the rock and "close" once the rock is near enough for its track to be certain.
    """

    turns_left: int
    nudges_needed: int
    nudge_total: int = 0
    nudges: int = 0  # how many nudges were given (each worth the turns left when it was given)
    drift: str = "rolling"  # rolling, off, pinned, close
    drift_pending: bool = False  # the rock's D20 must be rolled before this turn's R&D
    saved_turn: Optional[int] = None  # the turn the nudges reached the goal
    saved_turns_left: Optional[int] = None
    last_drift: Optional[int] = None  # the last drift roll, for the client's display

    @property
    def saved(self) -> bool:
        return self.saved_turn is not None


@dataclass(frozen=True)
class War:
    """A quarrel between two programs under Space War: secret until it turns open (see hostilities.py).

    An open war is a defeat for both programs in it, whoever started it."""

    programs: tuple[int, int]  # the two programs, lower index first
    started: int  # the turn of the first hostile act
    open: bool = False
    opened: Optional[int] = None  # the turn it turned open
    cause: str = ""  # what made it open, in words

    def involves(self, program: int) -> bool:
        return program in self.programs


@dataclass(frozen=True)
class GameState:
    setup: Setup
    programs: tuple[Program, ...]
    things: tuple[Thing, ...] = ()
    items: tuple[Item, ...] = ()
    derps: tuple[Derp, ...] = ()
    upgoers: tuple[Upgoer, ...] = ()
    turn: int = 1
    phase: str = "rnd"  # rnd, flight, over
    next_id: int = 1
    pending_trade: Optional[TradeOffer] = None
    reverse_engineered: frozenset[tuple[int, int]] = frozenset()  # (inventor, plagiarist)
    # (inventor, plagiarist, mass of the heaviest design copied): kept when reverse engineering only_heavier
    reverse_engineered_mass: tuple[tuple[int, int, int], ...] = ()
    firsts: tuple[tuple[str, int], ...] = ()  # (first id or first id:name, program) already won
    standing: tuple[tuple[str, int], ...] = ()  # standing bonus id -> holder
    events: tuple[Event, ...] = ()  # what the last action did
    winner: Optional[tuple[int, ...]] = None
    flight: object = None  # the flight phase's own state (set by the flight rules)
    rock: Optional[RockState] = None  # Stop The Rock only
    end_kind: Optional[str] = None  # how the game ended: saved, impact, goal, turn_limit
    end_reason: Optional[str] = None  # the same in words
    score: Optional[int] = None  # Stop The Rock: the shared score of a saved world
    achieved: tuple[tuple[str, int], ...] = ()  # (goal event, program) for victory conditions, e.g. temple:moon
    wars: tuple[War, ...] = ()  # Space War: quarrels between programs, secret or open

    def at_open_war(self, program: int) -> bool:
        """Whether ``program`` is in an open war (a defeat, whatever else it achieves)."""
        return any(w.open and w.involves(program) for w in self.wars)

    # ---- lookups by id (the state stays plain tuples; the places of their ids are kept per tuple, ``_places``)
    def thing(self, thing_id: str) -> Thing:
        return _lookup(self.things, thing_id)

    def item(self, item_id: str) -> Item:
        return _lookup(self.items, item_id)

    def derp(self, derp_id: str) -> Derp:
        return _lookup(self.derps, derp_id)

    def upgoer(self, upgoer_id: str) -> Upgoer:
        return _lookup(self.upgoers, upgoer_id)

    def find(self, kind: str, some_id: str):
        """The thing/item/derp/upgoer with that id, or None."""
        pool = self.__dict__[_POOL_OF[kind]]  # a KeyError for an unknown kind, as ever
        if len(pool) <= _SHORT_POOL:
            for value in pool:
                if value.id == some_id:
                    return value
            return None
        place = _places(pool)[0].get(some_id)
        return pool[place] if place is not None and place < len(pool) else None

    # ---- selections in the pools' order. A short pool (the upgoers, a young game's parts and derps) is read in
    # place by a comprehension, quicker there than anything kept; a long one is kept per pool by ``_where``
    # (reading an attribute of each of hundreds of things or items is what costs, whether a generator or map does it)
    def things_of(self, program: int) -> tuple[Thing, ...]:
        pool = self.things
        if len(pool) <= _SHORT_POOL:
            return tuple([t for t in pool if t.owner == program])
        return _where(pool, _OWNER, program)

    def items_of(self, program: int, location: Optional[str] = HOME) -> tuple[Item, ...]:
        pool = self.items
        if len(pool) <= _SHORT_POOL:
            return tuple([i for i in pool if i.owner == program and i.location == location])
        return _where(pool, _OWNER_AND_LOCATION, (program, location))

    def items_owned(self, program: int) -> tuple[Item, ...]:
        """Every item the program owns, wherever it is, in order."""
        pool = self.items
        if len(pool) <= _SHORT_POOL:
            return tuple([i for i in pool if i.owner == program])
        return _where(pool, _OWNER, program)

    def items_at(self, location: Optional[str]) -> tuple[Item, ...]:
        """The items at ``location`` (aboard that Upgoer; HOME: in storage), whoever owns them."""
        pool = self.items
        if len(pool) <= _SHORT_POOL:
            return tuple([i for i in pool if i.location == location])
        return _where(pool, _LOCATION, location)

    def derps_at(self, location: Optional[str]) -> tuple[Derp, ...]:
        """The derps at ``location`` (aboard that Upgoer; HOME: at home), the dead included."""
        pool = self.derps
        if len(pool) <= _SHORT_POOL:
            return tuple([d for d in pool if d.location == location])
        return _where(pool, _LOCATION, location)

    def derps_of(self, program: int, alive_only: bool = True) -> tuple[Derp, ...]:
        pool = self.derps
        mine = [d for d in pool if d.owner == program] if len(pool) <= _SHORT_POOL else _where(pool, _OWNER, program)
        return tuple([d for d in mine if not d.dead]) if alive_only else tuple(mine)

    def upgoers_of(self, program: int) -> tuple[Upgoer, ...]:
        pool = self.upgoers
        if len(pool) <= _SHORT_POOL:
            return tuple([u for u in pool if u.owner == program])
        return _where(pool, _OWNER, program)


_ID, _OWNER, _LOCATION = attrgetter("id"), attrgetter("owner"), attrgetter("location")
_POOL_OF = {"thing": "things", "item": "items", "derp": "derps", "upgoer": "upgoers"}  # find's kinds
_OWNER_AND_LOCATION = attrgetter("owner", "location")


def _where(pool: tuple, key: attrgetter, wanted: object) -> tuple:
    """The values of ``pool`` whose ``key`` equals ``wanted``, in order. Kept per pool (a cache of derived
    data, like ``index_by_id``): the flight rules ask for the parts aboard each craft many times while the
    items stay the same tuple."""
    if len(pool) <= _SHORT_POOL:
        return _selected(pool, key, wanted)
    slot = (id(pool), key, wanted)
    hit = _SELECTIONS.get(slot)
    if hit is not None and hit[0] is pool:
        return hit[1]
    selected = _carried_selection(pool, key, wanted)
    if selected is None:
        selected = _selected(pool, key, wanted)
    _make_room(_SELECTIONS, _MAX_SELECTIONS)
    _SELECTIONS[slot] = (pool, selected)  # the pool is held, so its id cannot be reused while it is here
    return selected


def _selected(values: tuple, key: attrgetter, wanted: object) -> tuple:
    """The values whose ``key`` equals ``wanted``, in order, read whole. The keys the state asks by are read by
    comprehensions: Python 3.11 reads an attribute there in fewer than half the instructions ``map(attrgetter)``
    takes (about 200 against 450 a value for a long game's parts), so the loop costs less than the C one."""
    if key is _OWNER:
        return tuple([value for value in values if value.owner == wanted])
    if key is _LOCATION:
        return tuple([value for value in values if value.location == wanted])
    if key is _OWNER_AND_LOCATION:
        owner, location = wanted
        return tuple([value for value in values if value.owner == owner and value.location == location])
    return tuple(compress(values, map(eq, map(key, values), repeat(wanted))))


def _carried_selection(pool: tuple, key: attrgetter, wanted: object) -> Optional[tuple]:
    """``_where(pool, key, wanted)`` from the selection kept for the pool ``pool`` was made from, when
    ``appended``, ``replace_in`` or ``removed`` made it (``_made``) and no replaced value changed its ``key``: the
    new values at the end filtered, a replaced selected value put in its place, a removed one taken out; None
    when that cannot be told (then filter the whole pool). A build, an invention or a research thus costs the few values it changed, not the pool."""
    made = _MADE_FROM.get(id(pool))
    if made is None or made[0] is not pool:
        return None
    parent = made[1]
    kept = _SELECTIONS.get((id(parent), key, wanted))
    if kept is None or kept[0] is not parent:
        return None
    selected = kept[1]
    if made[3]:  # a removal: the removed values that were selected leave the selection
        dropped = [parent[n] for n in made[3] if key(parent[n]) == wanted]
        if dropped:
            values = list(selected)
            for value in dropped:
                del values[list(map(is_, values, repeat(value))).index(True)]
            selected = tuple(values)
        return selected
    if made[2]:
        swaps = []
        for where in made[2]:
            if where >= len(parent):
                continue
            before, after = parent[where], pool[where]
            was = key(before) == wanted
            if was != (key(after) == wanted):
                return None  # a value moved into or out of the selection: filter the whole pool
            if was:
                swaps.append((before, after))
        if swaps:
            values = list(selected)
            for before, after in swaps:
                values[list(map(is_, values, repeat(before))).index(True)] = after
            selected = tuple(values)
    tail = pool[len(parent):]
    if tail:
        selected += _selected(tail, key, wanted)
    return selected


#: (id(pool), key, wanted) -> (pool, selection); the older half is forgotten when full.
_SELECTIONS: dict[tuple, tuple] = {}
_MAX_SELECTIONS = 256


#: Pools this short are searched in place; longer ones through their kept places.
_SHORT_POOL = 12
#: id(pool) -> [pool, places]: ``places`` is [{id: place}, extent, unique], the place in the pool of each id (the
#: first place of an id found twice), for every pool made from one another by ``replace_in``, ``replaced_at`` and
#: ``appended`` (one dict for them all: a replacement keeps every id in its place, and the ids appended go after
#: ``extent``, the length of the longest pool the dict was filled for, so a pool reads a place below its own
#: length only). ``unique``: no id twice up to ``extent`` (else each pool builds its own). The pool is held, so
#: its id cannot be reused while it is here.
_INDEXES: dict[int, list] = {}
_MAX_INDEXES = 128


def _make_room(kept: dict, most: int) -> None:
    """Forget the older half of ``kept`` when it holds ``most`` entries. Half, not all: the pools in play now
    keep what was worked out for them (clearing everything made every live pool rebuild its index after each
    512 new tuples)."""
    if len(kept) >= most:
        for old in list(itertools.islice(kept, most // 2)):
            del kept[old]


def _places(pool: tuple) -> list:
    """[{id: place}, extent, unique] for ``pool`` (kept, or made from the whole pool: the first place of an id
    found twice)."""
    hit = _INDEXES.get(id(pool))
    if hit is not None and hit[0] is pool:
        return hit[1]
    size = len(pool)
    places = {value.id: n for n, value in zip(range(size - 1, -1, -1), reversed(pool))}  # the first written last
    return _keep(pool, [places, size, len(places) == size])


def _keep(pool: tuple, places: list) -> list:
    if len(_INDEXES) >= _MAX_INDEXES:
        _make_room(_INDEXES, _MAX_INDEXES)
    _INDEXES[id(pool)] = [pool, places]
    return places


class IdIndex(Mapping):
    """``{value.id: value}`` of a tuple of the state, read through its kept places (``index_by_id``): a read-only
    mapping, the first value of an id found twice."""

    __slots__ = ("_pool", "_places")

    def __init__(self, pool: tuple, places: dict):
        self._pool, self._places = pool, places

    def get(self, some_id, default=None):
        place = self._places.get(some_id)
        return self._pool[place] if place is not None and place < len(self._pool) else default

    def __getitem__(self, some_id):
        place = self._places.get(some_id)
        if place is None or place >= len(self._pool):
            raise KeyError(some_id)
        return self._pool[place]

    def __contains__(self, some_id) -> bool:
        place = self._places.get(some_id)
        return place is not None and place < len(self._pool)

    def __iter__(self):
        size = len(self._pool)
        return (some_id for some_id, place in self._places.items() if place < size)

    def __len__(self) -> int:
        return sum(1 for _ in self)


def index_by_id(pool: tuple) -> IdIndex:
    """``{value.id: value}`` for a tuple of the state (the first of an id wins, as a search would find it), as a
    read-only mapping.

    Kept per tuple through the places of its ids: successive states share the tuples they did not change, and
    ``replace_in``, ``replaced_at`` and ``appended`` hand the new tuple the very places (no copy: the places do not
    move). A cache of derived data only: the state itself stays immutable plain data."""
    return IdIndex(pool, _places(pool)[0])


def _lookup(pool: tuple, some_id: str):
    if len(pool) <= _SHORT_POOL:
        for value in pool:
            if value.id == some_id:
                return value
        raise KeyError(some_id)
    place = _places(pool)[0].get(some_id)
    if place is None or place >= len(pool):
        raise KeyError(some_id)
    return pool[place]


def replace_in(pool: tuple, new_values: Iterable) -> tuple:
    """``pool`` with each value of the same id replaced by the new one."""
    if type(new_values) is tuple and len(new_values) == 1:
        if len(pool) > _SHORT_POOL:
            return _replace_one(pool, new_values[0])
        value = new_values[0]
        some_id, where = value.id, -1
        for n, old in enumerate(pool):  # a Python loop reads a dozen ids quicker than map(attrgetter) and a list
            if old.id == some_id:
                if where >= 0:
                    break  # an id twice (never in play): replace every one the plain way, below
                where = n
        else:
            if where >= 0:  # its one place
                values = list(pool)
                values[where] = value
                new_pool = tuple(values)
                _made(new_pool, pool, (where,))
                return new_pool
    by_id = {v.id: v for v in new_values}
    if not by_id:
        return pool
    if len(pool) <= _SHORT_POOL:  # one loop puts the new values in and notes their places
        values, replaced = list(pool), []
        for n, value in enumerate(pool):
            if value.id in by_id:
                values[n] = by_id[value.id]
                replaced.append(n)
        new_pool = tuple(values)
        _made(new_pool, pool, replaced)
        return new_pool
    kept = _places(pool)
    if not kept[2]:  # an id twice (never in play): replace every one the plain way
        return tuple(by_id.get(v.id, v) for v in pool)
    # Same ids in the same places: copy at C speed, put the new values in, and hand over the places.
    places, size = kept[0], len(pool)
    values = list(pool)
    replaced = []
    for some_id, value in by_id.items():
        where = places.get(some_id)
        if where is not None and where < size:
            values[where] = value
            replaced.append(where)
    new_pool = tuple(values)
    _keep(new_pool, kept)
    _made(new_pool, pool, replaced)
    return new_pool


def _replace_one(pool: tuple, value) -> tuple:
    """``replace_in(pool, (value,))`` for a long pool (a research changes one blueprint): its one place is
    looked up in the kept places, which the new pool shares."""
    kept = _places(pool)
    where = kept[0].get(value.id)
    if where is None or where >= len(pool):
        return pool
    if not kept[2]:  # an id twice (never in play): replace every one the plain way
        return tuple(value if v.id == value.id else v for v in pool)
    values = list(pool)
    values[where] = value
    new_pool = tuple(values)
    _keep(new_pool, kept)
    _made(new_pool, pool, (where,))
    return new_pool


def place_of(pool: tuple, some_id: str) -> int:
    """The place in ``pool`` (a tuple of the state) of the value with id ``some_id``, or -1 when there is none:
    for an action that reads a value and then puts its next value in the same place (``replaced_at``). The
    engine makes every id once, so a pool holds each id at most once; a pool that holds one twice (never in
    play) answers -1, and its caller goes the plain way (``find``, ``replace_in``)."""
    if len(pool) <= _SHORT_POOL:
        ids = [value.id for value in pool]  # every id read, so that an id twice is seen
        return ids.index(some_id) if ids.count(some_id) == 1 else -1
    kept = _places(pool)
    if not kept[2]:
        return -1
    where = kept[0].get(some_id, -1)
    return where if where < len(pool) else -1


def replaced_at(pool: tuple, place: int, value) -> tuple:
    """``pool`` with ``value`` in ``place``, where ``place_of`` found the value of the same id: exactly
    ``replace_in(pool, (value,))``, without looking for the place again. The places kept for ``pool`` are
    handed over and the place recorded (``replaced_since``), as ``replace_in`` does."""
    values = list(pool)  # one list and one tuple: slicing and joining makes five tuples
    values[place] = value
    new_pool = tuple(values)
    if len(pool) > _SHORT_POOL:
        hit = _INDEXES.get(id(pool))
        if hit is not None and hit[0] is pool:
            _keep(new_pool, hit[1])
    _made(new_pool, pool, (place,))
    return new_pool


def appended(pool: tuple, new_values: Iterable) -> tuple:
    """``pool + tuple(new_values)``, handing the longer tuple the pool's places (the new ids' places added)
    instead of leaving them to be read again: things, items and derps grow one build at a time all game."""
    added = tuple(new_values)
    if not added:
        return pool
    new_pool = pool + added
    _made(new_pool, pool, ())
    if len(new_pool) <= _SHORT_POOL:
        return new_pool
    hit = _INDEXES.get(id(pool))
    if hit is None or hit[0] is not pool:
        return new_pool  # no places kept for the old pool: the new one reads its own when first looked up
    kept = hit[1]
    places, size = kept[0], len(pool)
    if not kept[2] or kept[1] != size:  # an id twice, or the places already went on past this pool (another
        return new_pool  # pool was made from it): the new one reads its own
    ids = [value.id for value in added]
    if len(set(ids)) != len(ids) or any(map(places.__contains__, ids)):
        return new_pool  # an id twice from here: the new pool reads its own, the first of an id winning
    places.update(zip(ids, range(size, len(new_pool))))
    kept[1] = len(new_pool)
    _keep(new_pool, kept)
    return new_pool


def removed(pool: tuple, places: Sequence[int]) -> tuple:
    """``pool`` without the values at ``places`` (increasing positions in ``pool``), the others in order.
    Records how the new pool was made, as ``replace_in`` and ``appended`` do, so the views kept for ``pool``
    are carried over by the few places removed (``changes_since``) instead of reading the shorter pool whole:
    a destroyed craft or a dropped stage takes a few parts out of hundreds. The pool's places, when kept and
    every id in it once, are handed over without the ids removed and with the later ones moved up (copied at C
    speed and only the places after the first removed one written again)."""
    if not places:
        return pool
    values = list(pool)
    for n in reversed(places):
        del values[n]
    new_pool = tuple(values)
    if new_pool:  # the empty tuple is one value, made from every pool: not recorded, its readers read it whole
        _made(new_pool, pool, (), tuple(places))
        if len(new_pool) > _SHORT_POOL:
            hit = _INDEXES.get(id(pool))
            if hit is not None and hit[0] is pool and hit[1][2]:
                kept, first = hit[1][0], places[0]
                if hit[1][1] == len(pool):
                    fewer = kept.copy()
                    for n in places:
                        del fewer[pool[n].id]
                else:  # the places went on past this pool: those before the first removed, read again after
                    fewer = {some_id: n for some_id, n in kept.items() if n < first}
                fewer.update({value.id: n for n, value in enumerate(new_pool[first:], first)})
                _keep(new_pool, [fewer, len(new_pool), True])
    return new_pool


#: id(pool) -> (pool, the pool it was made from, the positions ``replace_in`` gave new values, the positions of
#: the pool it was made from that ``removed`` took out): how a pool was made, so what changed between two states
#: is found from the few values replaced or removed instead of by comparing every value (``replaced_since``,
#: ``changes_since``). One step either replaces, appends or removes. Derived data only; the pools are held, so an
#: id cannot be reused while here.
_MADE_FROM: dict[int, tuple] = {}
_MAX_MADE_FROM = 256


def _made(new_pool: tuple, pool: tuple, replaced, gone: tuple = ()) -> None:
    if len(_MADE_FROM) >= _MAX_MADE_FROM:
        _make_room(_MADE_FROM, _MAX_MADE_FROM)
    _MADE_FROM[id(new_pool)] = (new_pool, pool, replaced, gone)


def replaced_since(older: tuple, newer: tuple, steps: int = 64) -> Optional[set[int]]:
    """The positions below ``len(older)`` where ``newer`` may hold another value than ``older`` (the values in
    place but replaced with the same ids; past ``len(older)``, values added), when ``newer`` was made from
    ``older`` by ``replace_in`` and ``appended`` alone within ``steps`` steps; None when that is not known
    (then compare the two), as when ``removed`` made one of them (``changes_since`` follows those too). Answers
    from what those two recorded, not by comparing values."""
    changed: set[int] = set()
    pool = newer
    for _ in range(steps):
        if pool is older:
            break
        made = _MADE_FROM.get(id(pool))
        if made is None or made[0] is not pool or made[3]:
            return None
        pool = made[1]
        changed.update(made[2])
    if pool is not older:
        return None
    return {n for n in changed if n < len(older)} if changed else changed


def changes_since(older: tuple, newer: tuple, steps: int = 64) -> Optional[tuple[list[int], list[int]]]:
    """(gone, changed) when ``newer`` was made from ``older`` by ``replace_in``, ``appended`` and ``removed``
    within ``steps`` steps, else None (then compare the two). ``gone``: the positions of ``older`` whose values
    were removed, increasing; the others kept their order, so ``newer`` holds them first (the value of ``older``'s
    place ``n`` at ``n - bisect_left(gone, n)``), then the values added. ``changed``: the places of ``older``,
    not gone, increasing, where ``newer`` may hold another value of the same id (replaced on the way; a place
    not named holds the very value). Answers from what was recorded, not by comparing values."""
    links = []
    pool = newer
    cuts = False
    while pool is not older:
        if len(links) >= steps:
            return None
        made = _MADE_FROM.get(id(pool))
        if made is None or made[0] is not pool:
            return None
        links.append(made)
        cuts = cuts or bool(made[3])
        pool = made[1]
    if not cuts:  # replaced and appended only: the places are older's own (as ``replaced_since``)
        if len(links) == 1:
            size = len(older)
            return [], sorted([n for n in links[0][2] if n < size])
        found: set[int] = set()
        for made in links:
            found.update(made[2])
        size = len(older)
        return [], sorted([n for n in found if n < size])
    size = len(older)  # how many of older's values the pool on the way still holds (first, in order)
    origin: Optional[list[int]] = None  # their places in older, once one was removed (before: the same places)
    changed: set[int] = set()
    gone: list[int] = []
    for _, _, replaced, cut in reversed(links):
        if replaced:
            if origin is None:
                changed.update(n for n in replaced if n < size)
            else:
                changed.update(origin[n] for n in replaced if n < size)
        if cut:
            if origin is None:
                origin = list(range(size))
            for n in reversed(cut):
                if n < size:
                    gone.append(origin[n])
                    del origin[n]
            size = len(origin)
    if not gone:
        return gone, sorted(changed)
    gone.sort()
    return gone, sorted(changed.difference(gone)) if changed else []


class Change(NamedTuple):
    """How the engine made a things tuple from the one before, as its R&D handlers say it (``noted``; read back
    by ``change_of`` and ``researched_since``): every thing of ``before`` is the very same value in the same place
    but the blueprint ``researched`` (its id; None: none), to which research gave a new rating and this turn's
    steps (the same id, name, kind, masses, owner and inventor); any things after them are new (an invention, a
    copy). ``since`` is the first tuple of the unbroken run of noted changes that ends here (a tuple made
    otherwise), so a reader tells at once whether an older tuple lies on the way back. A change of the things
    made otherwise (a trade's copy of a blueprint, a turn's start, a flight) is not noted, nor are the tuples
    of a loaded save: a reader then compares the tuples themselves."""

    before: tuple
    researched: Optional[str]
    since: tuple


def noted(things: tuple, before: tuple, researched: Optional[str] = None) -> tuple:
    """``things``, noted as made from ``before`` leaving every thing as it was but the blueprint ``researched``
    (by id) and adding things after them (``Change``). Derived data, like ``_MADE_FROM``: the tuple is returned
    as it is. Research, an invention and a reverse-engineered copy note what they did."""
    if things is before:
        return things  # nothing was made: a tuple is never noted as made from itself
    prior = _CHANGES.get(id(before))
    if len(_CHANGES) >= _MAX_CHANGES:
        _make_room(_CHANGES, _MAX_CHANGES)
    _CHANGES[id(things)] = (things, before, researched,
                            before if prior is None or prior[0] is not before else prior[3])
    return things


def change_of(things: tuple) -> Optional[Change]:
    """The change noted for the things tuple ``things`` by the action that made it (``noted``), or None."""
    hit = _CHANGES.get(id(things))
    return Change(hit[1], hit[2], hit[3]) if hit is not None and hit[0] is things else None


def researched_since(things: tuple, older: tuple, steps: int = 64) -> Optional[list[str]]:
    """When the things tuple ``things`` was made from ``older`` by noted changes alone (at most ``steps``;
    ``older`` itself: none): the ids of the blueprints research gave new values on the way, newest first, once
    for each research. Every other thing of ``older`` is then the very same value in ``things``, and things may
    follow them (``Change``). None when that is not known: then compare the tuples."""
    if things is older:
        return []
    hit = _CHANGES.get(id(things))
    if hit is None or hit[0] is not things:
        return None
    if hit[1] is older:  # one change back: most listings
        return [] if hit[2] is None else [hit[2]]
    prior = _CHANGES.get(id(older))
    if hit[3] is not (older if prior is None or prior[0] is not older else prior[3]):
        return None  # another run of noted changes: ``older`` is not on the way back
    researched: list[str] = []
    for _ in range(steps):
        if hit[2] is not None:
            researched.append(hit[2])
        step = hit[1]
        if step is older:
            return researched
        hit = _CHANGES.get(id(step))
        if hit is None or hit[0] is not step:
            return None
    return None


#: id(things) -> (things, the tuple before, the id researched or None, the first tuple of the run): each note
#: holds the tuple before, so a run of noted tuples stays alive while noted; the older half is forgotten when full.
_CHANGES: dict[int, tuple] = {}
_MAX_CHANGES = 128


def update(value, /, **changes):
    """``value`` with ``changes``, exactly as ``dataclasses.replace`` gives it, but without running
    ``__init__`` again when the class allows (a frozen dataclass whose instances hold only their fields
    and that checks nothing in ``__post_init__``): the 22-field GameState is copied thousands of times a
    game. An unknown field is a TypeError, as with ``dataclasses.replace``."""
    cls = value.__class__
    copyable = _COPYABLE.get(cls)
    if copyable is None:
        copyable = _COPYABLE[cls] = _copyable_fields(value) is not False
    if not copyable:
        return dataclasses.replace(value, **changes)
    fields = value.__dict__.copy()  # one allocation of the right size (filling a new object's dict grows it)
    count = len(fields)
    fields.update(changes)
    if len(fields) != count:  # a name that is no field: let dataclasses.replace say so (TypeError)
        return dataclasses.replace(value, **changes)
    new = _new_object(cls)
    _set_attribute(new, "__dict__", fields)
    return new


def updated(value, changes: dict):
    """``update(value, **changes)`` for changes already gathered in a dict (the flight rules gather a step's
    changes to the flight and to the state), without packing them into keyword arguments again: the same copy,
    a third cheaper. Only the plain copy is made here; anything else is ``update``'s (a class not yet seen, one
    that cannot be copied so, a name that is no field)."""
    if _COPYABLE.get(value.__class__):
        fields = value.__dict__.copy()
        count = len(fields)
        fields.update(changes)
        if len(fields) == count:
            new = _new_object(value.__class__)
            _set_attribute(new, "__dict__", fields)
            return new
    return update(value, **changes)


def made(cls, /, **fields):
    """``cls(**fields)``, exactly, but filled as ``update`` fills a copy when the class allows (a frozen
    dataclass whose instances hold only their fields, every one with a plain default or given here, that checks
    nothing in ``__post_init__``): a frozen dataclass's ``__init__`` sets each of a Thing's or an Item's 13
    fields through ``object.__setattr__``, three times the cost of copying a dict. Anything else (a field
    missing or unknown) goes to ``cls(**fields)``, which says what is wrong."""
    template = _TEMPLATES.get(cls)
    if template is None:
        template = _TEMPLATES[cls] = _template(cls)
    if template is False:
        return cls(**fields)
    values = template[0].copy()  # the defaults in the fields' order, as __init__ would set them
    count = len(values)
    values.update(fields)
    if len(values) != count or not template[1] <= fields.keys():
        return cls(**fields)
    new = _new_object(cls)
    _set_attribute(new, "__dict__", values)
    return new


def _template(cls) -> object:
    """(every field with its default, in order (None for one without), the fields without a default) when
    ``made`` may fill ``cls``'s instances directly, else False."""
    if not dataclasses.is_dataclass(cls) or hasattr(cls, "__post_init__") or hasattr(cls, "__slots__"):
        return False
    defaults, required = {}, set()
    for f in dataclasses.fields(cls):
        if not f.init or f.default_factory is not dataclasses.MISSING:
            return False
        if f.default is dataclasses.MISSING:
            required.add(f.name)
        defaults[f.name] = None if f.default is dataclasses.MISSING else f.default
    return defaults, frozenset(required)


_TEMPLATES: dict[type, object] = {}
_new_object = object.__new__
_set_attribute = object.__setattr__  # frozen dataclasses refuse their own __setattr__


_COPYABLE: dict[type, bool] = {}


def _copyable_fields(value) -> object:
    """The field names of ``value``'s class when ``update`` may copy its instances directly, else False."""
    cls = type(value)
    if not dataclasses.is_dataclass(cls) or hasattr(cls, "__post_init__") or hasattr(cls, "__slots__"):
        return False
    fields = dataclasses.fields(cls)
    names = frozenset(f.name for f in fields)
    if any(not f.init for f in fields) or set(vars(value)) != names:
        return False
    return names


def with_program(state: GameState, program: Program) -> GameState:
    return update(state, programs=programs_with(state, program))


def programs_with(state: GameState, program: Program) -> tuple[Program, ...]:
    """The state's programs with ``program`` in its place (for a copy of the state that changes more besides)."""
    programs = list(state.programs)
    programs[program.index] = program
    return tuple(programs)

