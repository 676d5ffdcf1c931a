"""R&D's legal actions worked out per family straight from the state (issue 12).

``Engine.legal_actions`` in R&D lists exactly the candidates of ``Engine._rnd_candidates`` that
``Engine.refusal`` allows, in the same order (tests/test_fast_engine.py holds the two together), but
without judging each candidate in full. What a listing needs is read once and kept:

* per rules (this engine's tables): the Invent actions with their costs, each kind's role;
* per blueprint (a ``Thing`` value; a new value when research changes it): its research and build
  actions, their costs and whether research still has a step to give;
* per program and ``things`` tuple: its blueprints' rows, names and which default names are taken;
* per program and ``items`` tuple: its parts in storage, by role, and those of others' designs.

States share the tuples they did not change, so an action that changes only items (a build) finds
the blueprints already read, and one that changes only blueprints (research) finds the parts. A tuple
that did change is read from the program's last view by what changed: for the blueprints, what the engine's
research, invention and copy noted they did to the things (``state.noted``, ``state.researched_since``: the
blueprints researched, the things added), else the places ``replace_in`` and ``appended`` recorded
(``changed_since``, ``state.replaced_since``), so a research, a build or a part coming back to storage costs
about the same in a long game as in a short one; blueprint rows are kept in blocks of 8 with what they list
per level of points. The families are handed out as kept, not joined
(``Listed``, ``Engine.legal_families``): ``legal_actions`` joins them, and a bot that leaves some classes out
drops whole families before joining instead of looking at every action. Every cache holds the values it was built from and
answers only when handed those very values: derived data only, the state stays immutable plain data.
"""
from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Sequence
from itertools import compress, repeat
from operator import attrgetter, eq, is_, is_not, itemgetter
from typing import Callable, NamedTuple, Optional

from game.games.whatgoesup.rules import formulas
from game.games.whatgoesup.rules.actions import (Action, Assemble, Build, BuyConsumables, Disassemble, EndRnD, Heal,
                                                  Hire, Invent, OfferTrade, Research, ReverseEngineer, Train)
from game.games.whatgoesup.rules.flight_actions import Track
from game.games.whatgoesup.rules.underped_actions import Program as ProgramSystem
from game.games.whatgoesup.rules.shared import people_by_id
from game.games.whatgoesup.rules.reliability import Rating
from game.games.whatgoesup.rules.state import (HOME, SKILLS, GameState, Item, Thing, TradeBundle, UpgoerDesign,
                                                changes_since, index_by_id, replaced_since, researched_since)
from game.games.whatgoesup.rules.tables import Rules

_OWNER = attrgetter("owner")
_FIRST, _SECOND = itemgetter(0), itemgetter(1)


def changed_since(before: tuple, after: tuple, steps: int = 64) -> Optional[list[int]]:
    """The positions below ``len(before)`` where ``after`` holds another value than ``before``, in order, when
    ``after`` is at least as long (its values past ``len(before)`` are new ones); None when it is shorter.
    From what ``replace_in`` and ``appended`` recorded when they made ``after`` within ``steps`` steps, else
    compared at C speed (a caller that asks seldom, many steps apart, compares sooner: walking back is dearer)."""
    if len(after) < len(before):
        return None
    last = _LAST_CHANGED
    if last[0] is before and last[1] is after:  # the blueprints and the stored parts ask the same of the things
        return last[2]
    # A step back costs about what comparing 20 values does: a short tuple is compared after a few steps.
    made = replaced_since(before, after, min(steps, 1 + len(before) // 20))
    if made is None:
        changed = list(compress(range(len(before)), map(is_not, after, before)))
    elif len(made) == 1:  # one place replaced (a research, a build): no sort, no loop
        n, = made
        changed = [n] if after[n] is not before[n] else []
    else:
        changed = [n for n in sorted(made) if after[n] is not before[n]] if made else []
    last[:] = before, after, changed
    return changed


#: The last answer of ``changed_since``: (before, after, positions); its callers only read it.
_LAST_CHANGED: list = [None, None, None]

#: Caches keyed by tuples of the state keep at most this many entries (a game in play needs a few).
_MAX_VIEWS = 64
#: Actions and names kept by value; forgotten all at once past this (they are cheap to make again).
_MAX_ROWS = 20_000
#: Blueprint rows kept by blueprint value: every research makes a new value, and the views carry the rows of
#: the blueprints in play, so a few thousand (each holding its blueprint) are plenty.
_MAX_KEPT_ROWS = 2048


class BlueprintRow(NamedTuple):
    """One blueprint's R&D actions: research (each safety only when a step is left) and build."""

    research_cost: int
    research_fail: Optional[Research]
    research_boom: Optional[Research]
    build_cost: int
    build: Build


class RowBlock:
    """Up to ``_BLOCK`` consecutive blueprint rows and what they list for each level of points, worked out
    when first asked (kept per block: a research replaces the block of its blueprint, an invention the last
    block, and the other blocks are shared, so a listing costs the same however many blueprints there are)."""

    __slots__ = ("rows", "levels", "_listed")

    def __init__(self, rows: tuple[BlueprintRow, ...]):
        self.rows = rows
        self.levels: Optional[list[int]] = None  # every cost that decides whether something is listed
        self._listed: dict[int, list[Action]] = {}

    def listed(self, points: int) -> list[Action]:
        """Per row, in order: research of each safety with a step left, then a build, when affordable (the
        same list for every ``points`` between two of the rows' costs)."""
        if self.levels is None:
            costs = {row.build_cost for row in self.rows}
            costs.update(row.research_cost for row in self.rows
                         if row.research_fail is not None or row.research_boom is not None)
            self.levels = sorted(costs)
        level = bisect_right(self.levels, points)
        hit = self._listed.get(level)
        if hit is None:
            hit = self._listed[level] = []
            add = hit.append
            for research_cost, fail, boom, build_cost, build in self.rows:
                if research_cost <= points:
                    if fail is not None:
                        add(fail)
                    if boom is not None:
                        add(boom)
                if build_cost <= points:
                    add(build)
        return hit


#: Blueprint rows per block.
_BLOCK = 8


def row_blocks(rows: list[BlueprintRow]) -> list[RowBlock]:
    """``rows`` cut into blocks."""
    return [RowBlock(tuple(rows[at:at + _BLOCK])) for at in range(0, len(rows), _BLOCK)]


class Listed:
    """Actions listed part by part (each part a kept list of one family, or of one block of research and
    builds), not yet joined: ``joined`` is the one list, the very objects in order. ``kinds[k]`` are the
    classes part ``k`` may hold (None: not known), so ``without`` keeps or drops a family whole and filters
    only a part of mixed or unknown classes, instead of looking at every action. Parts are never changed while
    a ``Listed`` holds them (the listing's kept lists are handed out, not copied).

    Drawing one action from the joined list is cheaper than reading the parts in place at the sizes a game
    reaches (a list's extend copies at C speed; prefix sums over the parts cost a Python-level pass too:
    docs/performance.md), so a draw joins the parts and ``Listed`` offers no indexing."""

    __slots__ = ("parts", "kinds")

    def __init__(self, parts: list[Sequence[Action]], kinds: Sequence[Optional[frozenset[type]]]):
        self.parts = parts
        self.kinds = kinds

    @classmethod
    def of(cls, actions: list[Action]) -> Listed:
        """``actions`` as one part of unknown classes."""
        return cls([actions], _UNKNOWN)

    def joined(self) -> list[Action]:
        """The parts joined into one new list."""
        return joined(self.parts)

    def without(self, classes: frozenset[type]) -> Listed:
        """The actions whose class is none of ``classes`` (by exact class), in order: a part whose kinds are all
        among ``classes`` is left out whole, one whose kinds are none of them kept whole (no action looked at),
        any other filtered."""
        kinds = self.kinds
        hit = _WITHOUT.get((kinds, classes))
        if hit is None:
            plan = tuple(None if part is None else 2 if part.isdisjoint(classes) else 0 if part <= classes else None
                         for part in kinds)  # 2: kept whole, 0: left out, None: filtered
            if len(_WITHOUT) >= _MAX_VIEWS:
                _WITHOUT.clear()
            hit = _WITHOUT[kinds, classes] = (plan, None if None in plan else tuple(compress(kinds, plan)))
        plan, kept_kinds = hit
        if kept_kinds is not None:
            return Listed(list(compress(self.parts, plan)), kept_kinds)
        parts, left = [], []
        for part, part_kinds, keep in zip(self.parts, kinds, plan):
            if keep is None:
                parts.append([a for a in part if type(a) not in classes])
                left.append(part_kinds)
            elif keep:
                parts.append(part)
                left.append(part_kinds)
        return Listed(parts, tuple(left))


def joined(parts: list[Sequence[Action]]) -> list[Action]:
    """``parts`` joined into one new list."""
    listed: list[Action] = []
    for part in parts:  # a list's extend copies at C speed (chain.from_iterable steps through each)
        listed += part
    return listed


_UNKNOWN = (None,)
#: (kinds of the parts, classes left out) -> (per part: 2 kept whole, 0 left out, None filtered; the kinds of
#: the parts kept when none is filtered).
_WITHOUT: dict[tuple, tuple] = {}
#: The classes of R&D's families (``Engine._rnd_families``): the inventions; the research and builds, one part
#: per block of blueprints; then the purchases, the crew's training, healing and programming, the reverse
#: engineering, the sample trades, the disassembly, the tracking, the assembly of suggested designs, the end.
INVENT_KINDS = frozenset((Invent,))
RESEARCH_AND_BUILD_KINDS = frozenset((Research, Build))
AFTER_BLOCKS_KINDS = (frozenset((BuyConsumables, Hire)), frozenset((ProgramSystem, Heal, Train)),
                      frozenset((ReverseEngineer,)), frozenset((OfferTrade,)), frozenset((Disassemble,)),
                      frozenset((Track,)), frozenset((Assemble,)), frozenset((EndRnD,)))
_FAMILY_KINDS: dict[int, tuple] = {}


def rnd_family_kinds(parts: int) -> tuple[frozenset[type], ...]:
    """The kinds of R&D's ``parts`` parts: the inventions, the blocks of research and builds, then
    ``AFTER_BLOCKS_KINDS`` (one tuple per count)."""
    kinds = _FAMILY_KINDS.get(parts)
    if kinds is None:
        blocks = parts - 1 - len(AFTER_BLOCKS_KINDS)
        kinds = _FAMILY_KINDS[parts] = (INVENT_KINDS,) + (RESEARCH_AND_BUILD_KINDS,) * blocks + AFTER_BLOCKS_KINDS
    return kinds


class BlocksListed:
    """What the blocks of one program's blueprint rows list for each level of points: the blocks' own lists,
    not joined (worked out when first asked; shared by the views that hold the very same
    blocks). A view whose blocks differ from its parent's only at ``changed`` (a research remakes one block,
    an invention the last ones) takes the parent's lists for the same level and asks only the changed blocks,
    so a listing costs the same however many blueprints there are, but for copying one list per block."""

    __slots__ = ("blocks", "levels", "level_set", "by_level", "parent", "changed")

    def __init__(self, blocks: list[RowBlock], parent: Optional[BlocksListed] = None, changed: tuple[int, ...] = ()):
        self.blocks = blocks
        self.levels: Optional[list[int]] = None  # every cost that decides whether something is listed
        self.level_set: frozenset[int] = frozenset()
        self.by_level: dict[int, list[list[Action]]] = {}  # level -> the blocks' lists
        self.parent, self.changed = parent, changed
        if parent is not None:
            parent.parent = None  # one generation back is enough: no chain of old views is held

    def _levels(self, points: int) -> list[int]:
        parent = self.parent
        if parent is not None and parent.levels is not None:
            costs: set[int] = set()
            for at in self.changed:
                block = self.blocks[at]
                block.listed(points)  # works out the block's levels
                costs.update(block.levels)
            if costs <= parent.level_set:  # the usual case: the same levels, so the parent's lists carry over
                self.levels, self.level_set = parent.levels, parent.level_set
                return self.levels
            costs |= parent.level_set
        else:
            self.parent = None
            costs = set()
            for block in self.blocks:
                block.listed(points)
                costs.update(block.levels)
        self.level_set = frozenset(costs)
        self.levels = sorted(costs)
        return self.levels

    def listed(self, points: int) -> list[list[Action]]:
        """The blocks' ``listed(points)``, in order (kept: not to be changed)."""
        levels = self.levels if self.levels is not None else self._levels(points)
        level = bisect_right(levels, points)
        hit = self.by_level.get(level)
        if hit is None:
            parent = self.parent
            carried = parent.by_level.get(level) if parent is not None and parent.levels is levels else None
            if carried is not None:
                lists = list(carried)
                blocks = self.blocks
                for at in self.changed:  # in order: a block after the parent's last comes after it
                    if at < len(lists):
                        lists[at] = blocks[at].listed(points)
                    else:
                        lists.append(blocks[at].listed(points))
            else:
                lists = [block.listed(points) for block in self.blocks]
            hit = self.by_level[level] = lists
        return hit


class Blueprints:
    """One program's blueprints in one ``things`` tuple, read for the listing."""

    __slots__ = ("mine", "blocks", "taken_kinds", "held", "things", "positions", "of_kind", "names", "listed",
                 "defaults", "at")

    def __init__(self, mine: tuple[Thing, ...], blocks: list[RowBlock], taken_kinds: frozenset[str],
                 held: frozenset[tuple[int, str]], listed: Optional[BlocksListed] = None):
        self.mine = mine
        self.blocks = blocks  # the blueprints' rows, in blocks of ``_BLOCK``
        self.listed = listed or BlocksListed(blocks)  # shared by the views of the same blocks
        self.things: tuple = ()  # the state's things ``mine`` was selected from
        self.positions: Optional[list[int]] = None  # where each of ``mine`` stands in ``things`` (None: not known)
        self.of_kind: dict[str, int] = {}  # how many blueprints of each kind
        self.names: set[str] = set()  # the blueprints' names, lowered
        self.taken_kinds = taken_kinds  # kinds whose next default name the program already uses
        self.held = held  # (inventor, name) of every blueprint held
        self.defaults: dict[str, str] = {}  # each invented kind's next default name, lowered (after ``of_kind``)
        self.at: Optional[dict[str, int]] = None  # each blueprint's place in ``mine``, by id (None: not worked out)


class StoredParts:
    """One program's parts in storage (at home) in one ``items`` and ``things`` tuple. Each list is kept with
    the keys it is sorted by (a part's place in the state's items; heaviest first, then that place, for stages
    and capsules), so a part that comes or goes is put in or taken out where it belongs."""

    __slots__ = ("foreign", "by_role", "stages", "capsules", "designs", "lists", "keys", "_first", "_first_at")

    def __init__(self, lists: dict[str, list], keys: dict[str, list], designs: dict[str, Thing]):
        self.lists = lists  # "@foreign", "@stages", "@capsules" and each role -> the list
        self.keys = keys  # the same names -> the list's sort keys
        self.by_role: dict[str, list] = lists  # a role's parts in storage order (no role's id starts with "@")
        self.foreign: list[tuple[Item, Thing]] = lists.get("@foreign", [])  # parts of designs the program neither
        # holds nor invented, with the design
        self.stages: list[Item] = lists.get("@stages", [])  # lower stages, heaviest first (ties in storage order)
        self.capsules: list[Item] = lists.get("@capsules", [])  # capsules, heaviest first
        self.designs = designs  # every design read, by id
        self._first: object = self  # not worked out yet
        self._first_at = -1  # the first part's place in the items (when worked out and there is one)

    def first(self) -> Optional[Item]:
        """The first part in storage in the state's order (the first of the roles' lists; worked out once)."""
        if self._first is self:
            first = min(((keys[0], name) for name, keys in self.keys.items() if name[0] != "@" and keys),
                        default=None)
            self._first = None if first is None else self.lists[first[1]][0]
            self._first_at = -1 if first is None else first[0]
        return self._first

    def carry_first(self, before: StoredParts, going: Sequence[int], gone: Sequence[int],
                    coming: list[tuple[int, Item]]) -> None:
        """Hand this view the first part of ``before`` (its view of the items before, if worked out there), when
        it is still in storage (its place ``going`` names no part that left storage), moved up past the places
        ``gone``, or the part ``coming`` at an earlier place: what ``first`` would work out again."""
        if before._first is before or before._first_at in going:
            return
        first, at = before._first, before._first_at
        if first is not None and gone:
            at -= bisect_left(gone, at)
        for m, item in coming:
            if first is None or m < at:
                first, at = item, m
        self._first, self._first_at = first, at


_NO_PARTS = StoredParts({}, {}, {})


def _moved_up(keys: dict[str, list], gone: Sequence[int]) -> None:
    """The sort keys of a view (positions in the items, or (-base mass, position)) after the parts at the
    positions ``gone`` (increasing) left the items: each later position moves up by the parts gone before it.
    The order of every list stays as it was, so only the keys change; a list with a key to change is copied
    in ``keys``, the others are shared."""
    first = gone[0]
    for name, sort_keys in keys.items():
        if not sort_keys:
            continue
        if name[0] != "@" or name == "@foreign":  # positions, increasing
            start = bisect_right(sort_keys, first)
            if start < len(sort_keys):
                keys[name] = sort_keys[:start] + [n - bisect_left(gone, n) for n in sort_keys[start:]]
        elif any(n > first for _, n in sort_keys):  # (-base mass, position): heaviest first
            keys[name] = [(mass, n - bisect_left(gone, n)) if n > first else (mass, n) for mass, n in sort_keys]


def _judged(thing: Thing) -> tuple:
    """What ``check_design`` reads of a part's design: its kind and masses."""
    return thing.kind, thing.mass, thing.base_mass


def design_facts(thing: Thing) -> tuple:
    """What a stored-parts view keeps of a design: all but its rating and flight record, which no view reads."""
    return thing.kind, thing.base_mass, thing.mass, thing.owner, thing.inventor, thing.name


class Pads:
    """One program's Upgoers in one ``upgoers`` tuple, read for the listing."""

    __slots__ = ("disassemble", "tracks", "taken_names")

    def __init__(self, disassemble: list[Disassemble], tracks: list[Track], taken_names: frozenset[str]):
        self.disassemble = disassemble  # every Upgoer of the program on the pad
        self.tracks = tracks  # every untracked piece of debris, to be judged by ``refusal``
        self.taken_names = taken_names  # names of the program's Upgoers on the pad or flying, lowered


class RndListing:
    """The per-family R&D listing of one engine (one edition's tables) and what it keeps."""

    def __init__(self, rules: Rules, research_cap: Callable[[GameState, Thing], Rating],
                 invent_masses: tuple[int, ...]):
        self.rules = rules
        self.research_cap = research_cap  # the engine's: the best rating research alone can give a thing
        self.invent_masses = invent_masses  # the masses listed for a kind without a fixed one
        comps = self.rules.components
        self.role_of: dict[str, str] = {}
        for kind in comps.kinds:
            self.role_of.setdefault(kind.id, kind.role)
        self._invent_table = self._invent_rows()
        self._kind_names = {kind_id: kind_name for kind_id, kind_name, _, _ in self._invent_table}
        #: Every cost that decides whether an Invent is listed.
        self._invent_levels = sorted({cost for _, _, _, rows in self._invent_table for row in rows
                                      for cost in (row[0], row[1], row[3])})
        self._invented: dict[tuple, list[Action]] = {}  # (options, kinds taken, level of points) -> the Invents
        costs = rules.economy.costs
        #: (cost, action) of what R&D always offers to buy, in the listing's order.
        self.fixed_purchases = tuple((costs.consumable_per_container * n, BuyConsumables(kind, n))
                                     for kind in ("fuel", "rations") for n in (1, 5)) + ((costs.hire_derp, Hire()),)
        self._purchase_levels = sorted({cost for cost, _ in self.fixed_purchases})
        self._purchases: dict[int, list[Action]] = {}  # level of points -> the purchases listed
        self.ending: tuple[Action, ...] = (EndRnD(),)  # the last family: ending R&D, always allowed
        self._small: dict[object, tuple] = {}  # one entry per family (or family and program): (what it read, result)
        #: What the crew's actions cost (programming a system a point, healing, training a point), and every cost
        #: that decides whether one is listed: the crew's list is kept per derps tuple and level of points.
        crew_costs = (rules.components.underped.program_cost_per_stamina, costs.heal_derp, costs.train_per_point)
        self._crew_costs = (crew_costs, sorted(set(crew_costs)))
        self._crew: dict[int, tuple] = {}  # per program: (derps, level of points -> (Upgoers when read, the list))
        self._assembles: dict[int, tuple[UpgoerDesign, Assemble]] = {}
        self._verdicts: dict[tuple, tuple[bool, ...]] = {}  # what the suggested designs' checks read -> verdicts
        self._rows: dict[int, tuple[Thing, bool, BlueprintRow]] = {}
        research = rules.economy.research  # what a row reads of the rules, read once
        self._row_rules = (research.max_fail_steps_per_turn, research.max_boom_steps_per_turn, costs.research_per_mass,
                           costs.build_per_mass)
        self._thing_actions: dict[str, tuple[Research, Research, Build]] = {}
        self._offers: dict[tuple, OfferTrade] = {}
        self._offer_lists: dict[tuple, list[Action]] = {}  # (program, first stored part, say) -> the sample trades
        self._reverses: dict[str, ReverseEngineer] = {}
        self._actions: dict[tuple, Action] = {}  # (class, values) -> the action, for the crew's and the pads'
        self._default_names: dict[tuple, str] = {}  # (people, program, kind, how many it holds) -> the next name
        self._blueprints: dict[tuple, tuple[tuple, Blueprints]] = {}
        self._stored: dict[tuple, tuple[tuple, tuple, StoredParts]] = {}
        # The last view asked for, per program (and per people and rules switches for blueprints): the
        # next state usually differs from its state by one action, so most of it carries over.
        self._last_blueprints: dict[tuple, Blueprints] = {}
        self._last_stored: dict[int, tuple[tuple, tuple, StoredParts]] = {}

    # ------------------------------------------------------------------ per rules
    def _invent_rows(self) -> list[tuple[str, str, Optional[str], list[tuple]]]:
        """Per invented kind: (kind id, its name, its optional rule, rows of (the cost that ends the listing, plain
        cost, plain Invent or None, reusable cost, reusable Invent or None)), masses rising."""
        comps, costs = self.rules.components, self.rules.economy.costs
        table = []
        for kind in comps.kinds:
            if not kind.invented:
                continue
            masses = (kind.fixed_mass,) if kind.fixed_mass else self.invent_masses
            least = comps.capsule.min_mass if kind.role in ("capsule", "habitat") else 1
            rows = []
            for mass in masses:
                stop = costs.invent_per_mass * mass
                if (kind.fixed_mass is not None and mass != kind.fixed_mass) or not least <= mass <= comps.max_invent_mass:
                    rows.append((stop, 0, None, 0, None))
                    continue
                plain = costs.invent_per_mass * formulas.thing_mass(mass, False, comps)
                reusable = Invent(kind.id, mass, reusable=True) if kind.can_be_reusable else None
                reusable_cost = costs.invent_per_mass * formulas.thing_mass(mass, True, comps) if reusable else 0
                rows.append((stop, plain, Invent(kind.id, mass), reusable_cost, reusable))
            table.append((kind.id, kind.name, kind.option, rows))
        return table

    # ------------------------------------------------------------------ per blueprint
    def row(self, state: GameState, thing: Thing) -> BlueprintRow:
        """``thing``'s research and build actions as the listing has them in ``state`` (kept per blueprint value)."""
        simulationist = "simulationist" in state.setup.options
        hit = self._rows.get(id(thing))  # ``_row``, without the call: bots ask for a row at most of their choices
        if hit is not None and hit[0] is thing and hit[1] is simulationist:
            return hit[2]
        return self.row_with_cap(thing, simulationist, self.research_cap(state, thing))

    def _row(self, state: GameState, thing: Thing, simulationist: bool) -> BlueprintRow:
        hit = self._rows.get(id(thing))
        if hit is not None and hit[0] is thing and hit[1] is simulationist:
            return hit[2]
        return self.row_with_cap(thing, simulationist, self.research_cap(state, thing))

    def row_with_cap(self, thing: Thing, simulationist: bool, cap: Rating) -> BlueprintRow:
        """``thing``'s row, made and kept, when its research cap in a game with or without the simulationist
        option is already known (``cap``, what ``research_cap`` answers for it): a research hands over the row
        of the blueprint's next value with the cap it has just checked against, since research leaves what the
        cap reads (the options, the kind, the flight record) as it was, and the next step asks for that row."""
        rating = thing.rating
        fail = rating.fail + 1
        actions = self._thing_actions.get(thing.id)
        if actions is None:  # actions are values: the same for every blueprint of that id
            if len(self._thing_actions) >= _MAX_ROWS:
                self._thing_actions.clear()
            actions = self._thing_actions[thing.id] = (Research(thing.id, "fail", 1), Research(thing.id, "boom", 1),
                                                       Build(thing.id, 1))
        # A step is open while this turn's steps are below the limit and the safety one step up stays within the
        # cap (and Fail below Boom): the counts and safeties are whole numbers.
        mass = thing.mass
        max_fail_steps, max_boom_steps, research_per_mass, build_per_mass = self._row_rules
        row = BlueprintRow(research_per_mass * mass,
                           actions[0] if fail < rating.boom and thing.fail_steps_this_turn < max_fail_steps
                           and fail <= cap.fail else None,
                           actions[1] if thing.boom_steps_this_turn < max_boom_steps and rating.boom < cap.boom
                           else None,
                           build_per_mass * mass, actions[2])
        if len(self._rows) >= _MAX_KEPT_ROWS:
            self._rows.clear()
        self._rows[id(thing)] = (thing, simulationist, row)
        return row

    # ------------------------------------------------------------------ per tuple
    def kept_blueprints(self, state: GameState, player: int) -> Optional[Blueprints]:
        """``blueprints(state, player)`` when it is kept for this very ``things`` tuple (a listing asked of this
        state), else None: nothing is worked out (for a handler that can read the state itself as cheaply)."""
        things = state.things
        hit = self._blueprints.get((id(things), player, "simulationist" in state.setup.options,
                                    state.programs[player].people))
        return hit[1] if hit is not None and hit[0] is things else None

    def blueprints(self, state: GameState, player: int) -> Blueprints:
        """``player``'s blueprints in ``state`` with their rows (kept per ``things`` tuple; after research,
        which changes one blueprint's value, the rows of the others and the names are carried over; after an
        invention, which adds one, the others' rows are)."""
        things = state.things
        simulationist = "simulationist" in state.setup.options
        people = state.programs[player].people
        key = (id(things), player, simulationist, people)
        hit = self._blueprints.get(key)
        if hit is not None and hit[0] is things:
            return hit[1]
        last = self._last_blueprints.get(key[1:])
        view = None if last is None else self._by_changes(state, last, player, simulationist, people)
        if view is not None:
            positions = view.positions
        elif last is not None and (view := self._one_replaced(state, last, player, simulationist)) is not None:
            positions = last.positions
        else:
            mine, positions, replaced = self._mine(state, player, last)
        if view is None and last is not None and len(mine) >= len(last.mine):
            old = last.mine
            if replaced is None:  # not known: the blueprints in the old ones' places that are other values
                replaced = list(compress(range(len(old)), map(is_not, mine, old)))
            if all(mine[n].name == old[n].name and mine[n].kind == old[n].kind and mine[n].inventor == old[n].inventor
                   for n in replaced):
                view = self._carried(state, last, mine, replaced, simulationist, people, player, last.at)
        if view is None:
            of_kind = {}
            for thing in mine:
                of_kind[thing.kind] = of_kind.get(thing.kind, 0) + 1
            names = {t.name.lower() for t in mine}
            rows = [self._row(state, t, simulationist) for t in mine]
            defaults = self._defaults(people, player, of_kind)
            view = Blueprints(mine, row_blocks(rows), frozenset([kind_id for kind_id, name in defaults.items()
                                                                 if name in names]),
                              frozenset((t.inventor, t.name) for t in mine))
            view.of_kind, view.names, view.defaults = of_kind, names, defaults
        view.things, view.positions = things, positions
        if len(self._blueprints) >= _MAX_VIEWS:
            self._blueprints.clear()
        self._blueprints[key] = (things, view)
        self._last_blueprints[key[1:]] = view
        return view

    def _by_changes(self, state: GameState, last: Blueprints, player: int, simulationist: bool, people: str) \
            -> Optional[Blueprints]:
        """``last`` carried to ``state.things`` by what the engine noted on the way from ``last.things``
        (``state.researched_since``): the program's blueprints that research gave new values put in their
        places (their rows made again, a block only where a row lists other actions), the program's things after
        ``last.things`` added; another program's research, and every action that left the things alone, change
        nothing here (``last`` itself is handed on). None when that way is not known (a turn's start, a flight, a
        trade's copy of a blueprint, an undo or a load came between): then the things are compared."""
        things, before = state.things, last.things
        researched = researched_since(things, before)
        if researched is None:
            return None
        at = last.at
        if at is None and researched:
            at = last.at = {thing.id: n for n, thing in enumerate(last.mine)}
        if len(things) == len(before):
            if not researched:
                return last
            if len(researched) == 1:  # one research (most of a listing's carrying): its blueprint, or nothing
                n = at.get(researched[0])
                if n is None:
                    return last  # another program's
                positions = last.positions
                new = things[positions[n]] if positions is not None else state.thing(researched[0])
                row = self._row(state, new, simulationist)
                block, k = divmod(n, _BLOCK)
                kept = last.blocks[block].rows[k]
                if row is not kept and row != kept:  # a step closed: the block is made again
                    view = self._carried(state, last, last.mine[:n] + (new,) + last.mine[n + 1:], [n],
                                         simulationist, people, player, at)
                    view.positions = last.positions
                    return view
                view = Blueprints(last.mine[:n] + (new,) + last.mine[n + 1:], last.blocks, last.taken_kinds,
                                  last.held, last.listed)
                view.of_kind, view.names, view.defaults, view.at = last.of_kind, last.names, last.defaults, at
                view.positions = positions
                return view
        replaced = sorted({at[thing_id] for thing_id in researched if thing_id in at}) if researched else []
        added = [n for n in range(len(before), len(things)) if things[n].owner == player]
        if not replaced and not added:
            return last
        mine = list(last.mine)
        for n in replaced:
            mine[n] = state.thing(mine[n].id)
        mine += [things[n] for n in added]
        view = self._carried(state, last, tuple(mine), replaced, simulationist, people, player, at)
        positions = last.positions
        view.positions = None if positions is None else positions + added if added else positions
        return view

    def _one_replaced(self, state: GameState, last: Blueprints, player: int, simulationist: bool) \
            -> Optional[Blueprints]:
        """``last`` carried to ``state.things`` when they are ``last.things`` with one place holding another value
        of the same owner (a research, most flights' steps): when that place is the program's, its blueprint keeps
        its name, kind and inventor and its row lists the same actions (a research step that leaves the next one
        open). The new view shares all but the blueprints themselves: what ``_mine`` and ``_carried`` give in that
        case, without their general bookkeeping (research is most of what a listing carries over in play).
        None otherwise, and when the program's positions among the things are not known yet."""
        things, before = state.things, last.things
        if len(things) != len(before):
            return None
        changed = changed_since(before, things)
        if changed is None or len(changed) != 1:
            return None
        n = changed[0]
        new, old = things[n], before[n]
        if new.owner != old.owner:
            return None
        mine = last.mine
        if new.owner == player:
            positions = last.positions
            if positions is None or new.name != old.name or new.kind != old.kind or new.inventor != old.inventor:
                return None
            at = bisect_left(positions, n)
            row = self._row(state, new, simulationist)
            block, k = divmod(at, _BLOCK)
            kept = last.blocks[block].rows[k]
            if row is not kept and row != kept:
                return None
            mine = mine[:at] + (new,) + mine[at + 1:]
        view = Blueprints(mine, last.blocks, last.taken_kinds, last.held, last.listed)
        view.of_kind, view.names, view.defaults = last.of_kind, last.names, last.defaults
        return view

    def _carried(self, state: GameState, last: Blueprints, mine: tuple[Thing, ...], replaced: list[int],
                 simulationist: bool, people: str, player: int, places: Optional[dict[str, int]] = None) -> Blueprints:
        """``last`` for ``mine``: the same blueprints by name, kind and inventor in their places, those at
        ``replaced`` other values (research, a flight, a new turn: their rows made again, their blocks only
        where a row's values changed, so a block, its lists and the blocks' lists per level stand while the
        rows list the same actions), and any after them new (an invention: the counts, names and taken default
        names grow). ``places``: each of ``last``'s blueprints' place by id, carried over (None: not known)."""
        blocks = last.blocks
        remade: dict[int, list[BlueprintRow]] = {}  # block -> its rows, copied to be changed
        old_mine = last.mine
        for n in replaced:
            if places is not None and mine[n].id != old_mine[n].id:
                places = None  # another blueprint in that place (as after a load): its places are worked out anew
            row = self._row(state, mine[n], simulationist)
            at, k = divmod(n, _BLOCK)
            rows = remade.get(at)
            old = (blocks[at].rows if rows is None else rows)[k]
            if row is not old and row != old:  # an equal row (most research, a turn's start) lists the same
                if rows is None:
                    rows = remade[at] = list(blocks[at].rows)
                rows[k] = row
        if remade:
            blocks = list(blocks)
            for at, rows in remade.items():
                blocks[at] = RowBlock(tuple(rows))
        added = mine[len(last.mine):]
        if not added:
            view = Blueprints(mine, blocks, last.taken_kinds, last.held,
                              BlocksListed(blocks, last.listed, tuple(sorted(remade))) if remade else last.listed)
            view.of_kind, view.names, view.defaults, view.at = last.of_kind, last.names, last.defaults, places
            return view
        of_kind, names = dict(last.of_kind), set(last.names)
        new_names = set()
        for thing in added:
            of_kind[thing.kind] = of_kind.get(thing.kind, 0) + 1
            new_names.add(thing.name.lower())
        names |= new_names
        taken, defaults = self._taken_after(people, player, last, added, of_kind, names, new_names)
        kept = len(last.mine) // _BLOCK  # the blocks before the last one, which is full or grows
        tail = list(blocks[kept].rows) if kept < len(blocks) else []
        tail += [self._row(state, t, simulationist) for t in added]
        blocks = blocks[:kept] + row_blocks(tail)
        changed = tuple(at for at in sorted(remade) if at < kept) + tuple(range(kept, len(blocks)))
        view = Blueprints(mine, blocks, taken, last.held | frozenset((t.inventor, t.name) for t in added),
                          BlocksListed(blocks, last.listed, changed))
        view.of_kind, view.names, view.defaults = of_kind, names, defaults
        if places is not None:  # the places of the blueprints added after the others
            places = places.copy()
            for n in range(len(last.mine), len(mine)):
                places[mine[n].id] = n
            view.at = places
        return view

    @staticmethod
    def _mine(state: GameState, player: int, last: Optional[Blueprints]) \
            -> tuple[tuple[Thing, ...], Optional[list[int]], Optional[list[int]]]:
        """``player``'s blueprints in ``state`` in order, with their positions among its things (None: not
        worked out yet) and which of them are other values than in ``last`` (a view of earlier things; None:
        not known): carried from ``last`` when the things were only replaced in place without changing hands
        (research, a flight) or added after (an invention), found from the few replaced; else the state's
        kept selection."""
        things = state.things
        if last is not None:
            before = last.things
            changed = changed_since(before, things)
            if changed is not None and all(things[n].owner == before[n].owner for n in changed):
                positions, mine, replaced = last.positions, list(last.mine), []
                for n in changed:
                    if things[n].owner == player:
                        if positions is None:
                            positions = list(compress(range(len(before)), map(eq, map(_OWNER, before),
                                                                                repeat(player))))
                        at = bisect_left(positions, n)
                        mine[at] = things[n]
                        replaced.append(at)
                added = [n for n in range(len(before), len(things)) if things[n].owner == player]
                if added:
                    mine += [things[n] for n in added]
                    positions = None if positions is None else positions + added
                return tuple(mine), positions, replaced
        return state.things_of(player), None, None

    def _defaults(self, people: str, player: int, of_kind: dict[str, int]) -> dict[str, str]:
        """Each invented kind's next default name, lowered, after ``of_kind`` of them (in the invent table's
        order)."""
        return {kind_id: self._next_default(people, player, kind_id, kind_name, of_kind.get(kind_id, 0))
                for kind_id, kind_name, _, _ in self._invent_table}

    def _next_default(self, people: str, player: int, kind_id: str, kind_name: str, already: int) -> str:
        """The next default name of a kind the program holds ``already`` of, lowered (kept)."""
        known = self._default_names
        default = known.get((people, player, kind_id, already))
        if default is None:
            if len(known) >= _MAX_ROWS:
                known.clear()
            default = known[people, player, kind_id, already] = self._default_name(
                people_by_id(self.rules, people), player, kind_name, already)
        return default

    def _taken_after(self, people: str, player: int, last: Blueprints, added: tuple[Thing, ...],
                     of_kind: dict[str, int], names: set[str], new_names: set[str]) \
            -> tuple[frozenset[str], dict[str, str]]:
        """The kinds whose next default name (after ``of_kind`` of them) is among ``names``, with those names,
        from ``last`` (the view before the blueprints ``added``, named ``new_names``, came): a kind whose count
        grew is looked up again; any other, whose next name stands, is taken when it was or when a new
        name is that name."""
        defaults, taken = dict(last.defaults), set(last.taken_kinds)
        for kind_id in {thing.kind for thing in added}:
            kind_name = self._kind_names.get(kind_id)
            if kind_name is not None:
                default = defaults[kind_id] = self._next_default(people, player, kind_id, kind_name,
                                                                 of_kind[kind_id])
                if default in names:
                    taken.add(kind_id)
                else:
                    taken.discard(kind_id)
        if not new_names.isdisjoint(defaults.values()):
            taken.update([kind_id for kind_id, default in defaults.items() if default in new_names])
        return (last.taken_kinds if taken == last.taken_kinds else frozenset(taken)), defaults

    @staticmethod
    def _default_name(people, player: int, kind_name: str, already: int) -> str:
        """``Engine._default_name``, lowered, with the people and the kind's name already found."""
        count = already + 1
        stem = people.upgoer_names[(player + count - 1) % len(people.upgoer_names)]
        return f"{stem} {kind_name.lower()} Mk{count}".lower()

    def stored(self, state: GameState, player: int) -> StoredParts:
        """``player``'s parts in storage, by role, with the designs of others' parts (kept per tuple; carried
        over from the last view of the program when its parts were replaced in place, added after or removed,
        as every R&D action and flight does (``state.changes_since``): only the parts replaced, added or removed
        are put in or taken out, and the places after a removed one moved up)."""
        items, things = state.items, state.things
        key = (id(items), id(things), player)
        hit = self._stored.get(key)
        if hit is not None and hit[0] is items and hit[1] is things:
            return hit[2]
        last = self._last_stored.get(player)
        view = None
        if last is not None:
            before, read, old = last
            if read is things or self._same_designs(old, read, things):
                if before is items:
                    view = old
                else:  # parts replaced, added or removed on the way (a flight destroys parts and drops stages)
                    moves = changes_since(before, items)
                    if moves is None:
                        changed = changed_since(before, items)
                        moves = None if changed is None else ((), changed)
                    if moves is not None:
                        view = self._updated(old, before, items, moves[0], moves[1], player, things)
        if view is None:
            view = self._whole(items, player, things)
        if len(self._stored) >= _MAX_VIEWS:
            self._stored.clear()
        self._stored[key] = (items, things, view)
        self._last_stored[player] = (items, things, view)
        return view

    @staticmethod
    def _same_designs(view: StoredParts, read: tuple, things: tuple) -> bool:
        """Whether every design ``view`` read (in the things ``read``, against which it was checked) has, in
        ``things``, the same kind, masses, owner, inventor and name (what the view keeps of it)."""
        designs = view.designs
        if not designs:
            return True
        changed = changed_since(read, things)
        if changed is not None:  # things are replaced in place or added after: look at those replaced
            for n in changed:
                old, new = read[n], things[n]
                if (old.id in designs or new.id in designs) and (
                        new.id != old.id or design_facts(new) != design_facts(old)):
                    return False
            return True
        index = index_by_id(things)
        for thing_id, old in designs.items():
            new = index.get(thing_id)
            if new is not old and (new is None or design_facts(new) != design_facts(old)):
                return False
        return True

    def _whole(self, items: tuple, player: int, things: tuple) -> StoredParts:
        """The view of ``player``'s parts in storage read from the whole of ``items``."""
        index, role_of = index_by_id(things), self.role_of
        lists: dict[object, list] = {}
        keys: dict[object, list] = {}
        designs: dict[str, Thing] = {}
        foreign: list[tuple[int, tuple[Item, Thing]]] = []
        ranked: dict[str, list[tuple[tuple[int, int], Item]]] = {"lower_stage": [], "capsule": []}
        for n, item in enumerate(items):
            if item.owner != player or item.location is not HOME:
                continue
            thing = designs[item.thing_id] = index[item.thing_id]
            role = role_of[thing.kind]
            if role in keys:
                keys[role].append(n)
                lists[role].append(item)
            else:
                keys[role], lists[role] = [n], [item]
            if thing.owner != player and thing.inventor != player:
                foreign.append((n, (item, thing)))
            if role in ranked:
                ranked[role].append(((-thing.base_mass, n), item))
        keys["@foreign"], lists["@foreign"] = list(map(_FIRST, foreign)), list(map(_SECOND, foreign))
        for role, name in (("lower_stage", "@stages"), ("capsule", "@capsules")):
            ordered = sorted(ranked[role], key=_FIRST)
            keys[name], lists[name] = list(map(_FIRST, ordered)), list(map(_SECOND, ordered))
        return StoredParts(lists, keys, designs)

    def _places(self, item: Item, n: int, thing: Thing, player: int) -> list[tuple[object, object, object]]:
        """(list, the key, what the list holds) for every list of a view the part ``item`` at ``n`` is in."""
        role = self.role_of[thing.kind]
        where = [(role, n, item)]
        if thing.owner != player and thing.inventor != player:
            where.append(("@foreign", n, (item, thing)))
        if role == "lower_stage":
            where.append(("@stages", (-thing.base_mass, n), item))
        elif role == "capsule":
            where.append(("@capsules", (-thing.base_mass, n), item))
        return where

    def _updated(self, view: StoredParts, before: tuple, items: tuple, gone: Sequence[int], changed: Sequence[int],
                 player: int, things: tuple) -> Optional[StoredParts]:
        """``view`` (of ``before``) for ``items``, which hold ``before``'s parts but those at the positions ``gone``
        in the same order, those at the positions ``changed`` (of ``before``) replaced by new values of the same
        ids, and new parts after them: the parts that left storage are taken out, the places after a removed
        part moved up, and the parts that came put in, in the lists they belong to (copied; the others shared
        with ``view``). None when a changed place holds another part (the caller reads all)."""
        going: list[tuple[int, Item]] = []
        coming: list[tuple[int, Item]] = []
        for n in gone:
            old = before[n]
            if old.owner == player and old.location is HOME:
                going.append((n, old))
        for n in changed:
            m = n - bisect_left(gone, n) if gone else n
            old, new = before[n], items[m]
            if new is old:
                continue
            if new.id != old.id or new.thing_id != old.thing_id:
                return None
            if old.owner == player and old.location is HOME:
                going.append((n, old))
            if new.owner == player and new.location is HOME:
                coming.append((m, new))
        for m in range(len(before) - len(gone), len(items)):
            if items[m].owner == player and items[m].location is HOME:
                coming.append((m, items[m]))
        if not going and not coming and not gone:
            return view
        designs = view.designs
        if coming:
            index = index_by_id(things)
            for _, item in coming:
                thing = index[item.thing_id]
                if designs.get(thing.id) is not thing:
                    designs = designs if designs is not view.designs else dict(designs)
                    designs[thing.id] = thing
        lists, keys, copied = dict(view.lists), dict(view.keys), set()
        for moves, put in ((going, False), (coming, True)):
            if put and gone:
                _moved_up(keys, gone)
            for n, item in moves:
                for name, key, value in self._places(item, n, designs[item.thing_id], player):
                    if name not in copied:  # copied once, the rest shared with ``view``
                        copied.add(name)
                        lists[name] = list(lists.get(name, ()))
                        if keys.get(name) is view.keys.get(name):
                            keys[name] = list(keys.get(name, ()))
                    at = bisect_left(keys[name], key)
                    if put:
                        keys[name].insert(at, key)
                        lists[name].insert(at, value)
                    else:
                        del keys[name][at], lists[name][at]
        view_after = StoredParts(lists, keys, designs)
        view_after.carry_first(view, [n for n, _ in going], gone, coming)
        return view_after

    # ------------------------------------------------------------------ the families
    def invent(self, state: GameState, blueprints: Blueprints, points: int) -> list[Action]:
        """Every listed mass of every kind in play the program can pay for, while its default name is free
        (kept per options, kinds taken and level of points: the kept list, not to be changed)."""
        options, taken = state.setup.options, blueprints.taken_kinds
        key = (options, taken, bisect_right(self._invent_levels, points))
        hit = self._invented.get(key)
        if hit is None:
            if len(self._invented) >= _MAX_ROWS:
                self._invented.clear()
            hit = self._invented[key] = []
            self._invent(options, taken, points, hit)
        return hit

    def _invent(self, options, taken: frozenset[str], points: int, legal: list[Action]) -> None:
        add = legal.append
        for kind_id, _, option, rows in self._invent_table:
            if (option is not None and option not in options) or kind_id in taken:
                continue
            for stop, plain_cost, plain, reusable_cost, reusable in rows:
                if stop > points:
                    break
                if plain is not None and plain_cost <= points:
                    add(plain)
                if reusable is not None and reusable_cost <= points:
                    add(reusable)

    @staticmethod
    def research_and_build(blueprints: Blueprints, points: int) -> list[list[Action]]:
        """Per blueprint, in order: research of each safety with a step left, then a build, when affordable
        (the kept lists of the blocks of blueprints, not joined)."""
        return blueprints.listed.listed(points)

    def purchases(self, points: int) -> list[Action]:
        """The fuel and rations containers and the hire the program can pay for, in the listing's order (kept
        per level of points: the kept list, not to be changed)."""
        level = bisect_right(self._purchase_levels, points)
        hit = self._purchases.get(level)
        if hit is None:
            hit = self._purchases[level] = [action for cost, action in self.fixed_purchases if cost <= points]
        return hit

    def crew_actions(self, state: GameState, player: int, points: int) -> list[Action]:
        """Programming, healing and training, per derp in order (kept per derps tuple and each level of points,
        what the program can pay for, and per Upgoers tuple only when a system of the program is aboard a craft,
        which it may programme only on the pad)."""
        derps, upgoers = state.derps, state.upgoers
        (program_cost, heal_cost, train_cost), levels = self._crew_costs
        level = bisect_right(levels, points)
        kept = self._crew.get(player)
        if kept is None or kept[0] is not derps:
            kept = self._crew[player] = (derps, {})
        hit = kept[1].get(level)
        if hit is not None and (hit[0] is None or hit[0] is upgoers):
            return hit[1]
        derp_rules = self.rules.economy.derps
        can_program, can_heal, can_train = program_cost <= points, heal_cost <= points, train_cost <= points
        aboard = False  # whether a system aboard a craft was looked at (its craft's status read)
        made = self._action
        actions: list[Action] = []
        for derp in state.derps_of(player):
            if derp.is_system:
                if can_program and derp.total_points + 1 <= derp_rules.max_total_points:
                    aboard = aboard or derp.location is not HOME
                    if derp.location is HOME or state.upgoer(derp.location).status == "pad":
                        actions.append(made(ProgramSystem, derp.id, 1))
                continue
            if derp.injured:
                if derp.location is HOME and can_heal:
                    actions.append(made(Heal, derp.id))
                continue
            if derp.location is not HOME or derp.busy == "healing" or not can_train:
                continue
            if derp_rules.trainings_per_turn is not None and derp.trained_points + 1 > derp_rules.trainings_per_turn:
                continue
            if derp.total_points + 1 > derp_rules.max_total_points:
                continue
            for skill in SKILLS:
                if not derp.trained_skill or derp.trained_skill == skill:
                    actions.append(made(Train, derp.id, skill, 1))
        kept[1][level] = (upgoers if aboard else None, actions)
        return actions

    def reverse_engineering(self, state: GameState, player: int, blueprints: Blueprints,
                            refusal: Callable[[GameState, int, Thing], Optional[str]]) -> list[Action]:
        """Every stored part of a design the program may copy: not its own, not held already, and allowed by
        ``refusal`` (economy.yaml's reverse_engineering: once per pair, only heavier). Kept per list of such
        parts (a view shares it with the next until one of them comes or goes) and the pairs copied: the
        parts ``refusal`` allows, then per blueprints held, those whose blueprint is not held."""
        foreign = self.stored(state, player).foreign
        done, heaviest = state.reverse_engineered, state.reverse_engineered_mass
        held = blueprints.held  # blueprints already held, by inventor and name (kept while names stand)
        slot = ("reverse", player)
        hit = self._small.get(slot)
        if hit is not None and hit[0] is foreign and hit[1] == done and hit[2] == heaviest:
            if hit[3] is held:
                return hit[5]
            allowed = hit[4]
        else:
            action = self._reverse_action
            allowed = [((original.inventor, original.name), action(item.id)) for item, original in foreign
                       if not refusal(state, player, original)]
        actions: list[Action] = [a for pair, a in allowed if pair not in held]
        self._small[slot] = (foreign, done, heaviest, held, allowed, actions)
        return actions

    def _reverse_action(self, item_id: str) -> ReverseEngineer:
        """``ReverseEngineer(item_id)``, made once."""
        action = self._reverses.get(item_id)
        if action is None:
            if len(self._reverses) >= _MAX_ROWS:
                self._reverses.clear()
            action = self._reverses[item_id] = ReverseEngineer(item_id)
        return action

    def pads(self, state: GameState, player: int) -> Pads:
        """The program's Upgoers on the pad, the debris nobody tracks and the names in use (kept per tuple)."""
        upgoers = state.upgoers
        hit = self._small.get(("pads", player))
        if hit is not None and hit[0] is upgoers:
            return hit[1]
        mine, made = state.upgoers_of(player), self._action
        pads = Pads([made(Disassemble, u.id) for u in mine if u.status == "pad"],
                    [made(Track, u.id) for u in upgoers if u.status == "debris" and u.tracked_by is None],
                    frozenset(u.name.lower() for u in mine if u.status in ("pad", "flying")))
        self._small["pads", player] = (upgoers, pads)
        return pads

    def _action(self, kind: type, *values) -> Action:
        """``kind(*values)``, made once (actions are values)."""
        action = self._actions.get((kind, values))
        if action is None:
            if len(self._actions) >= _MAX_ROWS:
                self._actions.clear()
            action = self._actions[kind, values] = kind(*values)
        return action

    def assembles(self, designs: list[UpgoerDesign], taken_names: frozenset[str]) -> list[Assemble]:
        """``Assemble`` of each of ``designs`` (each already passes check_design) whose name is neither blank nor
        taken by an Upgoer of the program on the pad or flying (kept while the designs and names stand)."""
        hit = self._small.get("assembles")
        if (hit is not None and hit[1] is taken_names and len(hit[0]) == len(designs)
                and all(map(is_, hit[0], designs))):
            return hit[2]
        actions = [self.assemble(design) for design in designs
                   if design.name.strip() and design.name.strip().lower() not in taken_names]
        self._small["assembles"] = (tuple(designs), taken_names, actions)
        return actions

    def assemble(self, design: UpgoerDesign) -> Assemble:
        """``Assemble(design)``, the same action for the same design value."""
        hit = self._assembles.get(id(design))
        if hit is not None and hit[0] is design:
            return hit[1]
        if len(self._assembles) >= _MAX_VIEWS:
            self._assembles.clear()
        action = Assemble(design)
        self._assembles[id(design)] = (design, action)
        return action

    def suggestion_verdicts(self, state: GameState, stored: StoredParts, parts: tuple, loads: Optional[tuple],
                            judge: Callable[[], tuple[bool, ...]]) -> tuple[bool, ...]:
        """``judge()``, kept for what ``check_design`` reads of the suggested designs it judges (the designs are
        made from ``parts`` and ``loads`` alone, in one fixed shape per length of ``parts`` and ``loads`` given or
        not): ``parts`` are items of ``stored`` (a program's view in ``state``: so the program's, at home) or None,
        of which the kinds and masses are read; ``loads`` is (the crew, a derp of the program at home, the fuel,
        the rations) or None.
        Ids and names are not read, so the same masses in other parts (after a part is assembled or a heavier
        one built) are answered at once, as ``reads_of_check`` would see them."""
        designs = stored.designs
        facts = tuple([None if item is None else _judged(designs[item.thing_id]) for item in parts])
        if loads is not None:
            crew, fuel, rations = loads
            loads = (crew.system, crew.dead, crew.injured, crew.busy, fuel, rations)
        key = (facts, loads, "simplified_stack" in state.setup.options)
        verdicts = self._verdicts.get(key)
        if verdicts is None:
            if len(self._verdicts) >= _MAX_ROWS:
                self._verdicts.clear()
            verdicts = self._verdicts[key] = judge()
        return verdicts

    def offers(self, state: GameState, player: int, say: Optional[tuple] = None) -> list[Action]:
        """The few sample trades (``Engine._sample_offers``) that ``refusal`` would allow: a bundle of one
        point, one dot or the first stored part is allowed exactly when its owner has it to give. Kept per
        program, first stored part and every program's say (``say``, when the caller has it: per program, whether
        it has a point and a dot to give, as ``Engine._after_crew`` reads it): the kept list, not to be changed."""
        programs = state.programs
        if len(programs) < 2:
            return []
        if say is None:
            floor = self.rules.economy.budget.min_dots
            say = tuple([(program.points >= 1, program.dots > floor) for program in programs])
        stored = self.stored(state, player).first()
        first = stored.id if stored else ""
        key = (player, first, say)
        hit = self._offer_lists.get(key)
        if hit is not None:
            return hit
        by_points = self.rules.economy.trading.points
        my_point, my_dot = say[player]
        offers: list[Action] = []
        offer = self._offer
        for other, (its_point, its_dot) in zip(programs, say):
            if other.index == player:
                continue
            if by_points and my_point:
                offers.append(offer(other.index, "give point", first))
            if by_points and its_point and my_dot:
                offers.append(offer(other.index, "dot for point", first))
            if first and by_points and its_point:
                offers.append(offer(other.index, "part for point", first))
            if not by_points:  # dots are the only currency (2013)
                if my_dot:
                    offers.append(offer(other.index, "give dot", first))
                if first and its_dot:
                    offers.append(offer(other.index, "part for dot", first))
        if len(self._offer_lists) >= _MAX_ROWS:
            self._offer_lists.clear()
        self._offer_lists[key] = offers
        return offers

    def _offer(self, partner: int, sample: str, first: str) -> OfferTrade:
        """One sample trade with ``partner`` (``first``: the id of the first stored part, which only the samples
        that give a part carry), made once: a new first part remakes only those."""
        key = (partner, sample, first) if sample in _PART_SAMPLES else (partner, sample)
        action = self._offers.get(key)
        if action is None:
            if sample == "give point":
                action = OfferTrade(partner, give=_ONE_POINT)
            elif sample == "dot for point":
                action = OfferTrade(partner, take=_ONE_POINT, give=_ONE_DOT)
            elif sample == "part for point":
                action = OfferTrade(partner, give=TradeBundle(items=(first,)), take=_ONE_POINT)
            elif sample == "give dot":
                action = OfferTrade(partner, give=_ONE_DOT)
            else:  # "part for dot"
                action = OfferTrade(partner, give=TradeBundle(items=(first,)), take=_ONE_DOT)
            if len(self._offers) >= _MAX_ROWS:
                self._offers.clear()
            self._offers[key] = action
        return action


#: The sample trades that give the first stored part, and the bundles of one point and one dot the others carry.
_PART_SAMPLES = frozenset(("part for point", "part for dot"))
_ONE_POINT, _ONE_DOT = TradeBundle(points=1), TradeBundle(dots=1)
