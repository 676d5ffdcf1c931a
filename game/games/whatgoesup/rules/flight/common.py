"""What every part of the flight rules shares.

The flight phase's own state (``FlightPhase``, with its ``PendingRoll`` and ``PendingChoice``), and
``FlightBase``: the tables the parts read, the small queries about a craft (crew, parts aboard, thrust,
mass, steering), the state updates they all make (replace, destroy, queue a roll, say what happened)
and the checks every activity makes. Each part of ``FlightRules`` builds on it.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from operator import attrgetter
from typing import Iterable, Optional, Protocol

from game.core.interface import IllegalAction
from game.games.whatgoesup.rules import formulas
from game.games.whatgoesup.rules.board import Board
from game.games.whatgoesup.rules.design import thrust_class
from game.games.whatgoesup.rules.flighttable import Effect
from game.games.whatgoesup.rules.reliability import Outcome, Rating, judge, penalised, with_raises
from game.games.whatgoesup.rules.skills import Help, judged_by, judged_value, pinned
from game.games.whatgoesup.rules.rock import RockRules
from game.games.whatgoesup.rules.shared import EngineHooks
from game.games.whatgoesup.rules.state import (_SHORT_POOL, Derp, Event, GameState, Item, Upgoer, removed, replace_in,
                                                update, updated)
from game.games.whatgoesup.rules.victory import VictoryRules

NEVER = 10 ** 6  # a Boom safety no roll reaches: rolls that can only work or fail

_MASS_INPUTS = attrgetter("id", "modules", "relic_mass", "rations", "fuel")
#: Each figure of a craft (``FlightBase._craft_figure``) -> the craft's fields it reads (the rest it reads from the
#: state's items, things and derps).
_FIGURE_INPUTS = {"mass": _MASS_INPUTS, "burn_cost": _MASS_INPUTS, "thrust": attrgetter("id", "modules"),
                  "thrusters": attrgetter("id", "modules"), "steers": attrgetter("id", "modules", "stranded", "status")}


def without(pool: tuple, gone: set) -> tuple:
    """``pool`` without the values whose id is in ``gone``, in order (``tuple(v for v in pool if v.id not in
    gone)``). Made by ``state.removed``, which records the places taken out, so the views kept for ``pool`` carry
    over. The places are found by a comprehension: Python 3.11 reads an attribute in one quicker than
    ``map(attrgetter)`` does (about 430 against 690 instructions a value for a long game's parts)."""
    return removed(pool, [n for n, value in enumerate(pool) if value.id in gone])


#: Rolls of a payload a derp has paid a stamina point to use (an EVA pack, a winch, RCS docking, the rest).
PAYLOAD_ROLLS = ("payload", "eva", "winch", "docking")


@dataclass(frozen=True)
class PendingRoll:
    """A roll waiting for its die (``value`` None) or for the owner's choices (value set)."""

    kind: str  # a roll kind of the flight table (launch, burn, duration_capsule, ...)
    upgoer: str
    items: tuple[str, ...]  # the part(s) rolling; a lower-stage cluster rolls as one
    rating: Rating  # with penalties, before temporary raises
    step: str  # where the roll happens (for Hostile Waters and the log)
    dice_sets: int = 1
    value: Optional[int] = None
    previous: Optional[int] = None  # the roll before a luck reroll, until the player keeps one
    fail_raise: int = 0  # skills: raise_safeties
    boom_raise: int = 0
    helpable: bool = True
    target: Optional[str] = None  # burn destination, docking partner, payload, ...
    actor: Optional[str] = None  # the derp doing it (EVA, payload, jury-rig)
    then: str = ""  # what happens once this roll is settled
    detail: tuple = ()
    moved: int = 0  # skills: move_roll, points the rolled value was moved towards OK
    free_help: Optional[str] = None  # a derp whose next skill on this roll is already paid for (2013 payloads)

    @property
    def help(self) -> Help:
        """What the crew has spent on this roll so far."""
        return Help(self.moved, self.fail_raise, self.boom_raise)

    def effective(self) -> Rating:
        if not (self.fail_raise or self.boom_raise):
            return self.rating  # nothing raised: the rating as it stands
        return with_raises(self.rating, self.fail_raise, self.boom_raise)  # effective_rating, no Help made

    def judged_value(self) -> int:
        """The value the roll counts as: the dice, moved by the skills spent (move_roll)."""
        assert self.value is not None
        return judged_value(self.value, self.help)

    def outcome(self) -> Outcome:
        assert self.value is not None
        if not (self.moved or self.fail_raise or self.boom_raise):
            return judge(self.value, self.rating)  # no help spent: the dice against the rating as it stands
        return judged_by(self.value, self.rating, self.moved, self.fail_raise, self.boom_raise)

    def outcome_if(self, value: int) -> Outcome:
        """What a rolled ``value`` would count as with the help already spent (e.g. the roll before a reroll)."""
        return judged_by(value, self.rating, self.moved, self.fail_raise, self.boom_raise)

    def fail_pinned(self) -> bool:
        """raise_safeties: the Fail safety cannot rise further until the Boom safety does (it is one below it)."""
        return pinned(self.rating, self.help)


@dataclass(frozen=True)
class PendingChoice:
    kind: str  # "capsule_fail"
    upgoer: str
    options: tuple[str, ...]
    effect: Effect


@dataclass(frozen=True)
class Boarding:
    """Space War: a docking against the other craft's will that worked, waiting for its defender's answer."""

    attacker: str  # the Upgoer that docked
    defender: str  # the Upgoer it docked with
    pilot: str  # the derp who flew the docking (or went out with the winch)
    method: str  # rcs or winch


@dataclass(frozen=True)
class DerpFight:
    """Space War: a brawl between the derps of two craft.

    Every healthy derp of both sides picks an enemy (``to_pick`` in order, attackers first); then each
    pair rolls, first the one who picked (``first``), then the other. Stamina losses add up in ``losses``
    and land together when the last pair has rolled."""

    attacker: str  # the Upgoer whose crew started it
    defender: str
    to_pick: tuple[str, ...]  # derps still to pick an enemy, in order
    picks: tuple[tuple[str, str], ...] = ()  # (derp, the enemy it goes for)
    pairs: tuple[tuple[str, str, bool], ...] = ()  # (first, second, mutual) still to roll, the current one first
    dice: tuple[int, ...] = ()  # the current pair's dice rolled so far
    losses: tuple[tuple[str, int], ...] = ()  # (derp, stamina lost so far)


@dataclass(frozen=True)
class FlightPhase:
    stage: str = "launch"  # launch, insertion, moves
    queue: tuple[str, ...] = ()  # Upgoers still to act in this stage
    active: Optional[str] = None
    mode: str = ""  # decide (launch or hold), before, junction, after
    cursor_decided: Optional[str] = None  # the step where the junction decision was already made
    roll: Optional[PendingRoll] = None
    rolls: tuple[PendingRoll, ...] = ()  # waiting after the current one
    choice: Optional[PendingChoice] = None
    launched: tuple[str, ...] = ()  # launched this turn, waiting for orbital insertion
    launches: tuple[tuple[int, int], ...] = ()  # (program, takeoffs this turn)
    waited: frozenset[str] = frozenset()
    timing_tie: tuple[str, ...] = ()  # Upgoers tied for first, waiting for a coin
    hurt: frozenset[str] = frozenset()  # derps already hurt at the current step
    retry_burn: Optional[str] = None  # a burn that failed here and may be tried again
    docked_after: tuple[str, ...] = ()  # docked partners carried by the move, owed their activities after it
    boarding: Optional[Boarding] = None  # Space War: a docking waiting for its defender's answer
    fight: Optional[DerpFight] = None  # Space War: a derp fight under way
    ship_fight: object = None  # Space War: a ship-to-ship fight under way (flight/ship_combat.py's ShipFight)
    ship_fights: tuple[str, ...] = ()  # Space War: the craft that opened fire this turn, once per fight


def _with_flight(state: GameState, changes: dict, events: tuple[Event, ...], upgoers: Optional[tuple] = None,
                 others: Optional[dict] = None) -> GameState:
    """``state`` with ``changes`` to its flight, ``events`` said, its ``upgoers`` if given and ``others`` (more of
    its own fields: a roll's spent stamina, luck or RCS use), the state and its flight copied once each (by
    ``update``): the flight rules set their phase many times an action."""
    fields = dict(others) if others else {}
    fields["flight"] = updated(state.flight, changes)
    if upgoers is not None:
        fields["upgoers"] = upgoers
    if events:
        fields["events"] = state.events + tuple(events)
    return updated(state, fields)


class FlightEngine(EngineHooks, Protocol):
    """The engine as the flight rules see it: its hooks, and Stop The Rock's and the victories' rules."""

    rock_rules: RockRules
    victory_rules: VictoryRules


class FlightBase:
    """The flight rules' tables and the small queries and state updates every part uses."""

    def __init__(self, engine: FlightEngine):
        self.engine = engine
        self.rules = engine.rules
        self.board: Board = engine.rules.board
        self.table = engine.rules.flight
        # Each component kind's role, read once (the first kind of an id wins, as in Components.kind).
        self._role_of_kind = {k.id: k.role for k in reversed(self.rules.components.kinds)}
        self._kept_dice: dict = {}  # (dice scheme, dice sets) -> distribution and chance outcomes (phase._dice)
        self._kept_dice_values: dict = {}  # (dice scheme, dice sets) -> the values it can roll (phase._dice_values)
        self._kept_roll_facts: Optional[tuple] = None  # (state, roll, facts, upgoers, derps) last judged (rolls._roll_facts)
        self._kept_timing: dict = {}  # craft id -> (craft, items, things, stage, timing score, its inputs) (phase._stage_order_key)
        self._kept_claims: Optional[tuple] = None  # (firsts, the claims among them) last asked (records._claimed)
        self._kept_figures: dict = {}  # figure -> (craft's inputs, items, things, derps, value) last asked (_craft_figure)
        self._kept_burn_check: Optional[tuple] = None  # (state, craft, burn) _check_burn last passed (movement._burn)
        self._kept_positioning: Optional[tuple] = None  # (program, items, things, craft, bonus) (positioning_bonus)
        self._kept_help_memos: dict = {}  # (scheme, rating, helpers' skills, ...) -> best_help's memo (rolls._help_memo)
        self._kept_modules: dict = {}  # craft id -> (items, things, its modules, (module, role) pairs) (_craft_modules)

    # ------------------------------------------------------------------ small helpers
    @staticmethod
    def _set(state: GameState, **changes) -> GameState:
        """``state`` with ``changes`` to its flight (``update(state, flight=update(state.flight, **changes))``)."""
        return _with_flight(state, changes, ())

    @staticmethod
    def _set_saying(state: GameState, events: tuple[Event, ...], **changes) -> GameState:
        """``_say(_set(state, **changes), events)`` in one copy of the state."""
        return _with_flight(state, changes, events)

    @staticmethod
    def _set_replacing(state: GameState, upgoer: Upgoer, **changes) -> GameState:
        """``_set(_replace_upgoer(state, upgoer), **changes)`` in one copy of the state."""
        return _with_flight(state, changes, (), replace_in(state.upgoers, [upgoer]))

    @staticmethod
    def _say(state: GameState, events: Iterable[Event]) -> GameState:
        said = tuple(events)
        return update(state, events=state.events + said) if said else state

    def _event(self, state: GameState, text: str, upgoer: Optional[Upgoer] = None, kind: str = "flight") -> GameState:
        return self._say(state, self._told(text, upgoer, kind))

    @staticmethod
    def _told(text: str, upgoer: Optional[Upgoer] = None, kind: str = "flight") -> tuple[Event]:
        """What ``_event`` says, for a copy of the state that changes more besides (``_set_saying``,
        ``_queue_rolls``)."""
        return (Event(text, upgoer.owner if upgoer else None, kind),)

    def _items_aboard(self, state: GameState, upgoer: Upgoer) -> list[Item]:
        return list(state.items_at(upgoer.id))

    def _role(self, state: GameState, item: Item) -> str:
        return self._role_of_kind[state.thing(item.thing_id).kind]

    def _kind(self, state: GameState, item: Item) -> str:
        return state.thing(item.thing_id).kind

    def _name(self, state: GameState, item: Item) -> str:
        return state.thing(item.thing_id).name

    def _crew(self, state: GameState, upgoer: Upgoer) -> list[Derp]:
        return [d for d in state.derps if d.location == upgoer.id and not d.dead]

    def _healthy(self, state: GameState, upgoer: Upgoer) -> list[Derp]:
        """The crew able to act: not injured, and (underped systems) powered up."""
        return [d for d in self._crew(state, upgoer) if d.awake]

    def _living_crew(self, state: GameState, upgoer: Upgoer) -> list[Derp]:
        """The derps aboard, without the underped systems."""
        return [d for d in self._crew(state, upgoer) if d.system is None]  # not ``is_system``: no property call a derp

    def _systems(self, state: GameState, upgoer: Upgoer) -> list[Derp]:
        """The underped systems aboard (crew members that are parts too)."""
        return [d for d in self._crew(state, upgoer) if d.system is not None]

    def _robot_pilot(self, state: GameState, upgoer: Upgoer) -> Optional[Derp]:
        """The system that does a craft's work when no derp aboard can: powered up, with stamina for an action.
        None when a healthy derp is aboard (derps fly for free) or when no system can act."""
        if any(d.awake for d in self._living_crew(state, upgoer)):
            return None
        cost = self.rules.components.underped.action_stamina
        return next((d for d in self._systems(state, upgoer) if d.awake and d.current_stamina >= cost), None)

    def _modules(self, state: GameState, upgoer: Upgoer, *roles: str, working: bool = True) -> list[Item]:
        """The craft's modules aboard whose component role is one of ``roles`` (working ones only, unless
        ``working`` is False), in the items' order."""
        return [i for i, role in self._craft_modules(state, upgoer) if role in roles and not (working and i.disabled)]

    def _craft_modules(self, state: GameState, upgoer: Upgoer) -> tuple[tuple[Item, str], ...]:
        """Each module aboard the craft with its component role, in the items' order: kept per craft while its
        modules and the state's items and things stay the very same values (it reads nothing else). A flight
        action asks for the same craft's capsules, thrusters, RCS and habitats many times, and most actions
        change neither the parts nor the blueprints."""
        kept = self._kept_modules.get(upgoer.id)
        items, things, modules = state.items, state.things, upgoer.modules
        if kept is not None and kept[0] is items and kept[1] is things and kept[2] == modules:
            return kept[3]
        here = upgoer.id
        # A short pool is read in place (quicker than asking for its kept selection); a long one through items_at.
        aboard = items if len(items) <= _SHORT_POOL else state.items_at(here)
        role_of_kind = self._role_of_kind
        found = tuple([(i, role_of_kind[state.thing(i.thing_id).kind]) for i in aboard
                       if i.location == here and i.id in modules])
        if len(self._kept_modules) >= 64:
            self._kept_modules.clear()  # craft of games gone by: their pools are let go
        self._kept_modules[here] = (items, things, modules, found)
        return found

    def piloting(self, state: GameState, derp: Derp) -> int:
        """Piloting with the Positioning System bonus from the program's active Waylights."""
        return derp.piloting + self.positioning_bonus(state, derp.owner)

    def positioning_bonus(self, state: GameState, program: int) -> int:
        """The program's Piloting bonus: one per Waylight group of orbit types where a craft of its own in space
        carries a shining, working Waylight (up to prestige.yaml's orbit types). Kept for the last program asked
        while the state's items, things and craft stay the very same values (it reads nothing else): a roll's
        help, a docking's or an EVA's check ask it for every derp, mostly in states where none of them changed."""
        kept = self._kept_positioning
        if (kept is not None and kept[0] == program and kept[1] is state.items and kept[2] is state.things
                and kept[3] is state.upgoers):
            return kept[4]
        bonus = self._positioning_bonus(state, program)
        self._kept_positioning = (program, state.items, state.things, state.upgoers, bonus)
        return bonus

    def _positioning_bonus(self, state: GameState, program: int) -> int:
        """``positioning_bonus`` worked out from the state."""
        groups = set()
        for item in state.items:  # the few shining Waylights first, then where they fly
            if not item.active or item.disabled or item.location is None or self._kind(state, item) != "waylight":
                continue
            upgoer = state.find("upgoer", item.location)
            if upgoer is None or upgoer.owner != program or not upgoer.in_space:
                continue
            step = self.board.step(upgoer.location)
            if step.orbit_type is None:
                continue
            group = self.board.orbit_type(step.orbit_type).waylight
            if group is not None:
                groups.add(group)
        return min(len(groups), len(self.rules.prestige.waylight_orbit_types)) * self.rules.prestige.waylight_piloting_bonus

    def spacecraft_mass(self, state: GameState, upgoer: Upgoer) -> Fraction:
        """Mass for the fuel formula: capsules and contents, thrusters, payloads and all fuel."""
        return self._craft_figure(state, upgoer, "mass", self._spacecraft_mass)

    def _craft_figure(self, state: GameState, upgoer: Upgoer, name: str, work) -> object:
        """``work(state, upgoer)``, the craft's figure ``name`` (one of ``_FIGURE_INPUTS``), kept for the last craft
        asked while the state's items, things and derps stay the very same values and the craft's fields the
        figure reads (``_FIGURE_INPUTS[name]``) are the same: a junction's burns, the burn made and the steps of
        a move ask the same craft's mass, thrust and steering again and again, in states that differ only in
        the flight's progress, the craft's place and what was said (and its thrust and steering stand when a
        burn has spent fuel)."""
        inputs = _FIGURE_INPUTS[name](upgoer)
        kept = self._kept_figures.get(name)
        if (kept is not None and kept[1] is state.items and kept[2] is state.things and kept[3] is state.derps
                and kept[0] == inputs):
            return kept[4]
        value = work(state, upgoer)
        self._kept_figures[name] = (inputs, state.items, state.things, state.derps, value)
        return value

    def _spacecraft_mass(self, state: GameState, upgoer: Upgoer) -> Fraction:
        modules = sum(state.thing(i.thing_id).mass for i in self._items_aboard(state, upgoer) if i.id in upgoer.modules)
        # An underped system's mass is its part's (among the modules), not a derp's on top.
        return formulas.spacecraft_mass(modules + upgoer.relic_mass, len(self._living_crew(state, upgoer)), upgoer.rations,
                                        upgoer.fuel, self.rules.economy.derps.mass, self.rules.components)

    def thrust(self, state: GameState, upgoer: Upgoer) -> str:
        """What the craft's working thrusters can do for its capsules and habitats (design.thrust_class)."""
        return self._craft_figure(state, upgoer, "thrust", self._thrust)

    def _thrust(self, state: GameState, upgoer: Upgoer) -> str:
        thrusters = sum(state.thing(i.thing_id).mass for i in self._modules(state, upgoer, "thruster"))
        capsules = sum(state.thing(i.thing_id).mass for i in self._modules(state, upgoer, "capsule", "habitat",
                                                                          working=False))
        return thrust_class(thrusters, capsules, self.rules)

    def can_steer(self, state: GameState, upgoer: Upgoer) -> bool:
        """A craft steers with a working capsule, a healthy derp aboard (or a powered-up underped system with
        stamina for the burn), and no stranding."""
        return self._craft_figure(state, upgoer, "steers", self._can_steer)

    def _can_steer(self, state: GameState, upgoer: Upgoer) -> bool:
        return (not upgoer.stranded and upgoer.status == "flying" and bool(self._modules(state, upgoer, "capsule"))
                and (any(d.awake for d in self._living_crew(state, upgoer))
                     or self._robot_pilot(state, upgoer) is not None))

    def _hostile(self, state: GameState, upgoer: Upgoer, step_id: str) -> bool:
        if "hostile_waters" not in state.setup.options:
            return False
        return self.board.step(step_id).name not in state.programs[upgoer.owner].visited

    def _rating(self, state: GameState, items: Iterable[Item], upgoer: Upgoer, step_id: str) -> Rating:
        """The worst rating among the rolling parts, with Hostile Waters where it applies."""
        ratings = [self.engine.item_rating(state, i) for i in items]
        rating = ratings[0] if len(ratings) == 1 else Rating(min(r.fail for r in ratings), min(r.boom for r in ratings))
        if self._hostile(state, upgoer, step_id):
            p = self.board.hostile_waters_penalty
            rating = penalised(rating, p, p, self.rules.economy.reliability.bounds)
        if self._first_attempt(state, upgoer, step_id):
            rating = penalised(rating, self.table.first_attempt_fail_penalty, self.table.first_attempt_boom_penalty,
                               self.rules.economy.reliability.bounds)
        return rating

    def _first_attempt(self, state: GameState, upgoer: Upgoer, step_id: str) -> bool:
        """2013's unfamiliarity: a program that has never attempted this step rolls with flight.yaml's
        first_attempt penalties (steps are told apart by name, as for visits)."""
        if not (self.table.first_attempt_fail_penalty or self.table.first_attempt_boom_penalty):
            return False
        return self.board.step(step_id).name not in state.programs[upgoer.owner].attempted

    def _new_roll(self, state: GameState, kind: str, upgoer: Upgoer, items: list[Item], step_id: str,
                  then: str, **extra) -> PendingRoll:
        if self.table.payload_stamina_covers_a_skill and kind in PAYLOAD_ROLLS and extra.get("actor"):
            # 2013: "Using a payload requires 1 point of stamina regardless, but the spacederp can use the
            # same point of stamina to add a skill to the safety rating."
            extra["free_help"] = extra["actor"]
        return PendingRoll(kind=kind, upgoer=upgoer.id, items=tuple(i.id for i in items),
                           rating=self._rating(state, items, upgoer, step_id), step=step_id, then=then, **extra)

    def _queue_rolls(self, state: GameState, rolls: list[PendingRoll], said: tuple[Event, ...] = (),
                     upgoer: Optional[Upgoer] = None, others: Optional[dict] = None, **changes) -> GameState:
        """``state`` with ``rolls`` queued, and in the same copy ``said`` told, ``upgoer`` put in, ``others`` (more
        fields of the state) and ``changes`` to the flight made."""
        queued = self._queued(state.flight, rolls)
        if changes:
            queued.update(changes)
        return _with_flight(state, queued, said, None if upgoer is None else replace_in(state.upgoers, [upgoer]),
                            others)

    @staticmethod
    def _queued(f: FlightPhase, rolls: list[PendingRoll]) -> dict:
        """The changes to the flight ``f`` that queue ``rolls`` after its own (the first is rolled next when
        nothing is being rolled)."""
        pending = list(f.rolls) + rolls
        if f.roll is None and pending:
            return {"roll": pending[0], "rolls": tuple(pending[1:])}
        return {"rolls": tuple(pending)}

    def _scenario(self, state: GameState) -> Optional[str]:
        return getattr(state.setup, "scenario", None)

    # ------------------------------------------------------------------ bookkeeping
    def _replace_upgoer(self, state: GameState, upgoer: Upgoer) -> GameState:
        return update(state, upgoers=replace_in(state.upgoers, [upgoer]))

    def _replace_items(self, state: GameState, items: list[Item]) -> GameState:
        return update(state, items=replace_in(state.items, items)) if items else state

    def _changed_saying(self, state: GameState, text: str, upgoer: Upgoer, items: Iterable[Item] = (),
                        craft: Optional[Upgoer] = None, kind: str = "consequence") -> GameState:
        """``_event(_replace_upgoer(_replace_items(state, items), craft), text, upgoer, kind)`` in one copy of the
        state: ``items`` (if any) and the ``craft`` (if given) put in, and ``text`` told."""
        changes = {"events": state.events + self._told(text, upgoer, kind)}
        items = list(items)
        if items:
            changes["items"] = replace_in(state.items, items)
        if craft is not None:
            changes["upgoers"] = replace_in(state.upgoers, [craft])
        return updated(state, changes)

    def _docked_partners(self, state: GameState, upgoer: Upgoer) -> list[Upgoer]:
        return [state.upgoer(u) for u in upgoer.docked_with if state.find("upgoer", u) is not None]

    def _destroy_items(self, state: GameState, item_ids: list[str]) -> GameState:
        gone = set(item_ids)
        if not gone:
            return state
        systems = [d for d in state.derps if d.system in gone and not d.dead]
        state = update(state, items=without(state.items, gone))
        return self._systems_destroyed(state, systems) if systems else state

    def _systems_destroyed(self, state: GameState, systems: list[Derp]) -> GameState:
        """Underped systems whose part is gone: lost (at no cost), and a craft still flying is stranded."""
        events = []
        for derp in systems:
            upgoer = state.find("upgoer", derp.location)
            state = update(state, derps=replace_in(state.derps, [
                update(derp, dead=True, powered_down=True, current_stamina=0)]))
            events.append(Event(f"{derp.name} is destroyed.", derp.owner, "death"))
            if upgoer is not None and upgoer.status == "flying" and any(i.location == upgoer.id for i in state.items):
                state = update(state, upgoers=replace_in(state.upgoers, [update(
                    upgoer, stranded=True, modules=tuple(m for m in upgoer.modules if m != derp.system))]))
                events.append(Event(f"{upgoer.name} is stranded without it.", derp.owner, "consequence"))
        return self._say(state, events)

    def _undock_all(self, state: GameState, upgoer: Upgoer, why: str) -> GameState:
        """Free undocking before a craft leaves its partners (a burn, a landing, leaving play)."""
        upgoer = state.upgoer(upgoer.id)
        partners = self._docked_partners(state, upgoer)
        if not partners:
            return state
        for other in partners:
            state = self._replace_upgoer(state, update(other, docked_with=tuple(x for x in other.docked_with
                                                                                 if x != upgoer.id)))
        state = self._replace_upgoer(state, update(upgoer, docked_with=()))
        names = ", ".join(o.name for o in partners)
        return self._event(state, f"{upgoer.name} undocks from {names} {why}.", upgoer)

    # ------------------------------------------------------------------ checks every activity makes
    def _others_here(self, state: GameState, upgoer: Upgoer) -> list[Upgoer]:
        step = self.board.step(upgoer.location)
        if not step.is_stable:
            return []
        return [u for u in state.upgoers if u.id != upgoer.id and u.location == upgoer.location and u.in_space
                or (u.id != upgoer.id and u.location == upgoer.location and u.status == "written_off")]

    def others_here(self, state: GameState, upgoer: Upgoer) -> list[Upgoer]:
        """The other craft and debris ``upgoer`` could meet now (same step of a stable orbit or surface)."""
        return self._others_here(state, upgoer)

    def _require_activity(self, state: GameState, upgoer: Upgoer, what: str) -> None:
        if state.flight.mode not in ("before", "after"):
            raise IllegalAction(f"{what} happens before or after moving, not in the middle of it")
        if state.flight.mode == "after" and "plan_ahead" in state.setup.options:
            raise IllegalAction(f"with Plan Ahead, {what} must happen before moving")

    def _crew_member(self, state: GameState, upgoer: Upgoer, derp_id: str, need_stamina: bool = True) -> Derp:
        derp = state.find("derp", derp_id)
        if derp is None or derp.location != upgoer.id or derp.dead:
            raise IllegalAction(f"{derp_id} is not aboard {upgoer.name}")
        if derp.injured:
            raise IllegalAction(f"{derp.name} is injured")
        if derp.powered_down:
            raise IllegalAction(f"{derp.name} is powered down")
        if need_stamina and derp.current_stamina < 1:
            raise IllegalAction(f"{derp.name} has no stamina left")
        return derp

    def _same_stable_step(self, state: GameState, upgoer: Upgoer, target_id: str) -> Upgoer:
        target = state.find("upgoer", target_id)
        if target is None or target.id == upgoer.id:
            raise IllegalAction(f"there is no other craft called {target_id}")
        if target.location != upgoer.location or not (target.in_space or target.status == "written_off"):
            raise IllegalAction(f"{target.name} is not at {self.board.step(upgoer.location).name} with {upgoer.name}")
        if not self.board.step(upgoer.location).is_stable:
            raise IllegalAction("craft can only meet in a stable orbit or on a surface, not in transit")
        return target

    def _spend(self, state: GameState, derp: Derp, points: int = 1) -> GameState:
        derp = state.derp(derp.id)
        return update(state, derps=replace_in(state.derps, [update(derp, current_stamina=derp.current_stamina - points)]))

    def _usable(self, state: GameState, upgoer: Upgoer, kind: str) -> Optional[Item]:
        for item in self._items_aboard(state, upgoer):
            if self._kind(state, item) == kind and not item.disabled and not item.unusable_this_turn:
                return item
        return None
