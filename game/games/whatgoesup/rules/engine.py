"""The rules engine: the only judge of what may happen and what did happen.

The questions it answers (after OpenSpiel): who acts now (``current_player``), what they may do
(``legal_actions``), the exact odds of a pending roll (``chance_outcomes``), what an action does
(``apply``, or ``IllegalAction`` with a reason a player understands) and how the game ended
(``outcome``). It never rolls dice: the app samples ``chance_outcomes`` and applies the ``Roll``.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from operator import attrgetter, is_
from typing import Callable, Iterable, Optional, Sequence

from game.games.whatgoesup.rules import formulas
from game.games.whatgoesup.rules import setup_data
from game.games.whatgoesup.rules.actions import (Action, AnswerTrade, Assemble, Build, BuyConsumables, Disassemble, EndRnD, Heal,
                      Hire, Invent, OfferTrade, Research, ReverseEngineer, Roll, Train, action_from_data)
from game.games.whatgoesup.rules.design import DesignReport, DesignValidity, check_design
from game.games.whatgoesup.rules.flight import FlightRules
from game.games.whatgoesup.rules.flight.common import without
from game.games.whatgoesup.rules.flight_actions import Rush, Track
from game.games.whatgoesup.rules.reliability import Rating, penalised
from game.games.whatgoesup.rules.rnd_listing import Listed, RndListing, joined, rnd_family_kinds
from game.games.whatgoesup.rules.rock import RockRules
from game.games.whatgoesup.rules.shared import people_by_id
from game.games.whatgoesup.rules.state import (HOME, SKILLS, Derp, DotEntry, Event, GameState, Item, Program, Setup,
                    Thing, TradeBundle, TradeOffer, Upgoer, UpgoerDesign, appended, made, noted, place_of, replace_in,
                    replaced_at, researched_since,
                    update, with_program)
from game.games.whatgoesup.rules.tables import Rules
from game.games.whatgoesup.rules.transfer import TransferSources
from game.games.whatgoesup.rules.underped_actions import Program as ProgramSystem, WriteOrders
from game.games.whatgoesup.rules.victory import VictoryRules
from game.core.interface import CHANCE, TERMINAL, IllegalAction, IllegalSetup  # noqa: F401  (part of this engine's interface)
from game.core.words import counted, in_sentence

_DOTS = attrgetter("dots")

#: ``Engine.offered``'s answer when nothing is.
_NOTHING_OFFERED = (None, None, None)

# Distinguishable for colour-blind players (Okabe & Ito); the client adds shapes as well.
PROGRAM_COLOURS = ("#E69F00", "#56B4E9", "#009E73", "#F0E442", "#CC79A7", "#D55E00", "#0072B2")


@dataclass(frozen=True)
class Outcome:
    """How a finished game ended."""

    winners: tuple[int, ...]
    reason: str
    scores: tuple[int, ...]
    kind: str = "turn_limit"  # turn_limit, goal (a victory condition), saved or impact (Stop The Rock)


#: Engines of other editions a save asked for (``Engine.for_edition``), by their tables' digest.
_EDITION_ENGINES: dict[str, "Engine"] = {}


class Engine:
    """Binds the pure rule functions to one edition's tables."""

    #: The game a save names (``"game"``), so the shared saves know whose engine reads it.
    game_id = "whatgoesup"
    game_name = "What Goes Up"

    def __init__(self, rules: Rules):
        self.rules = rules
        self.flight_rules = FlightRules(self)  # the flight phase plugs into the same questions
        self.rock_rules = RockRules(self)
        self.victory_rules = VictoryRules(self)
        self.rnd_listing = RndListing(rules, self.research_cap, self.INVENT_MASSES)
        self._suggested: dict[int, tuple] = {}  # per program: what its suggested designs read, and the designs
        # Per program: (the state last listed, what else the families after the crew's read, their lists).
        self._kept_after_crew: dict[int, tuple] = {}
        #: A program with more dots than this has one to give (economy.yaml's budget floor, min_dots, and one).
        self._dot_floor = rules.economy.budget.min_dots
        self._design_validity = DesignValidity(rules)  # what R&D's listing keeps, per rules, blueprint and tuple
        self._acting: tuple[object, int] = (None, TERMINAL)  # (state, current_player's answer) last asked
        # (a short things tuple, {blueprint id: its place}): the places research finds its blueprint at, carried
        # to the tuple it makes (the same ids in the same places); None for a tuple holding an id twice.
        self._thing_places: tuple = (None, None)
        # Whether R&D's families are this engine's listing (a subclass that lists otherwise is read from its list).
        self._lists_by_family = type(self).legal_actions is Engine.legal_actions
        # Each kind's role, read once (as Components.kind finds it: the first kind of an id).
        self._role_of_kind = {k.id: rules.components.kind(k.id).role for k in rules.components.kinds}
        self._invent_plans: dict[int, tuple] = {}  # id of an Invent -> ``_invent_plan``'s answer (holding the action)
        self._default_names: dict[tuple, str] = {}  # (people, program, kind, how many it holds) -> the next name
        self._similar_kinds: dict[str, tuple[str, ...]] = {}  # a kind and those it takes technology from
        self._transfer_sources = TransferSources(rules.economy.research.tech_transfer_needs_successful_flight)
        # An R&D action's handler: (state, action, the acting program, check_only) -> the state after it.
        self._rnd_handlers: dict[type, Callable[[GameState, Action, Program, bool], GameState]] = {
            Invent: self._invent, Research: self._research, Build: self._build,
            BuyConsumables: self._buy_consumables, Hire: self._hire, Train: self._train, Heal: self._heal,
            OfferTrade: self._offer_trade, ReverseEngineer: self._reverse_engineer,
            Assemble: self._assemble, Disassemble: self._disassemble, EndRnD: self._end_rnd,
            Track: self._track, Rush: self._rush, ProgramSystem: self._program_system,
            WriteOrders: self._write_orders,
        }

    def for_edition(self, edition_id: str) -> "Engine":
        """This engine for another shipped edition (``rules/whatgoesup/<edition_id>/``); itself when it already
        plays that edition. Raises ``UnknownEdition`` naming the editions there are."""
        if edition_id == self.rules.edition.id:
            return self
        from game.games.whatgoesup.rules.editions import load_edition
        rules = load_edition(edition_id)
        engine = _EDITION_ENGINES.get(rules.digest)
        if engine is None:
            engine = _EDITION_ENGINES[rules.digest] = Engine(rules)
        return engine

    # ------------------------------------------------------------------ plain data for saves
    @staticmethod
    def setup_to_data(setup: Setup) -> dict:
        return setup_data.setup_to_data(setup)

    @staticmethod
    def setup_from_data(data: object) -> Setup:
        """A Setup from a save's plain data; ``game.core.plaindata.BadData`` says what is wrong."""
        return setup_data.setup_from_data(data)

    @staticmethod
    def action_from_data(data: object) -> Action:
        """An action from a save's plain data; ``BadActionData`` says what is wrong."""
        return action_from_data(data)

    # ------------------------------------------------------------------ setup
    def new_game(self, setup: Setup) -> GameState:
        """The state before the first action of turn 1 (every program has its first R&D points)."""
        self.check_setup(setup)
        budget = self.rules.economy.budget
        start_dots = budget.start_dots
        grant = 0  # Stop The Rock: the world's emergency funding, once, on turn 1 (scenarios.yaml start_points)
        scenario = self.rock_rules.scenario(setup)
        if scenario is not None:
            start_dots = scenario.difficulty(setup.difficulty).start_dots
            grant = scenario.difficulty(setup.difficulty).start_points
        used: set[str] = set()
        programs = []
        for index, player in enumerate(setup.players):
            colour = player.colour or people_by_id(self.rules, player.people).colour
            if colour.lower() in used:
                colour = next(c for c in PROGRAM_COLOURS if c.lower() not in used)
            used.add(colour.lower())
            programs.append(Program(index=index, name=player.name, people=player.people, colour=colour,
                                    human=player.human, dots=start_dots,
                                    points=start_dots * budget.points_per_dot + grant, luck=budget.start_luck))
        state = GameState(setup=setup, programs=tuple(programs), rock=self.rock_rules.initial(setup))
        events = [Event(f"Turn 1 begins. Every program has {start_dots * budget.points_per_dot} points to spend.",
                        kind="turn")]
        if grant:
            events.append(Event(f"The world's emergency funding: every program gets {grant} extra points, once "
                                f"({start_dots * budget.points_per_dot + grant} to spend this turn).", kind="turn"))
        if state.rock is not None:
            events.append(Event(f"{scenario.name}: the rock hits the world in {state.rock.turns_left} turns unless "
                                f"nudges worth {state.rock.nudges_needed} push it aside.", kind="rock"))
        return update(state, events=tuple(events))

    def check_setup(self, setup: Setup) -> None:
        if not 1 <= len(setup.players) <= 4:
            raise IllegalSetup("a game needs one to four space programs")
        names = [p.name.strip() for p in setup.players]
        if any(not n for n in names):
            raise IllegalSetup("every space program needs a name")
        if len(set(n.lower() for n in names)) != len(names):
            raise IllegalSetup("two space programs have the same name")
        for p in setup.players:
            people_by_id(self.rules, p.people)
        scheme_ids = [s.id for s in self.rules.dice.schemes]
        if setup.dice not in scheme_ids:
            raise IllegalSetup(f"unknown dice scheme '{setup.dice}' (known: {', '.join(scheme_ids)})")
        unknown = sorted(set(setup.options) - set(self.rules.option_ids))
        if unknown:
            raise IllegalSetup(f"unknown optional rule(s): {', '.join(unknown)}")
        for option_id in sorted(setup.options):
            option = self.rules.option(option_id)
            missing = [self.rules.option(o).name for o in option.requires if o not in setup.options]
            if missing:
                raise IllegalSetup(f"{option.name} needs {' and '.join(missing)} too")
        if setup.turn_limit is not None and setup.turn_limit < 1:
            raise IllegalSetup("the turn limit must be at least 1")
        tables = self.rules.scenarios
        victory_ids = [v.id for v in tables.victories]
        if setup.victory not in victory_ids:
            raise IllegalSetup(f"unknown victory condition '{setup.victory}' (known: {', '.join(victory_ids)})")
        scenario_ids = [s.id for s in tables.scenarios]
        if setup.scenario is not None:
            if setup.scenario not in scenario_ids:
                raise IllegalSetup(f"unknown scenario '{setup.scenario}' (known: {', '.join(scenario_ids) or 'none'})")
            scenario = tables.scenario(setup.scenario)
            levels = [d.id for d in scenario.difficulties]
            if setup.difficulty is not None and setup.difficulty not in levels:
                raise IllegalSetup(f"unknown difficulty '{setup.difficulty}' for {scenario.name} "
                                   f"(known: {', '.join(levels)})")
            if setup.victory != "most_dots":
                raise IllegalSetup(f"{scenario.name} has its own ending; leave the victory condition at most_dots")
        elif setup.difficulty is not None:
            raise IllegalSetup("a difficulty belongs to a scenario; choose the scenario too")

    # ------------------------------------------------------------------ questions
    def current_player(self, state: GameState) -> int:
        """The program that must act, CHANCE when a roll is pending, TERMINAL when the game is over.

        The answer for the state last asked about is kept (a bot, the play loop and ``apply`` all ask about the
        same state in turn): a cache of derived data, like the state's id indexes; ``_who_acts`` decides."""
        last = self._acting
        if last[0] is state:
            return last[1]
        player = self._who_acts(state)
        self._acting = (state, player)  # the state is held, so its identity cannot be reused while it is here
        return player

    def _who_acts(self, state: GameState) -> int:
        if state.phase == "over":
            return TERMINAL
        if state.rock is not None and state.rock.drift_pending and state.phase == "rnd":
            return CHANCE
        if state.pending_trade is not None:
            return state.pending_trade.partner
        if state.phase == "flight":
            return self.flight_rules.current_player(state)
        for program in state.programs:
            if not program.rnd_done:
                return program.index
        return TERMINAL

    def is_terminal(self, state: GameState) -> bool:
        return state.phase == "over"

    def chance_outcomes(self, state: GameState) -> list[tuple[Roll, Fraction]]:
        """Each possible roll of the pending roll with its exact probability (empty if none)."""
        if state.phase == "flight":
            return self.flight_rules.chance_outcomes(state)
        if state.rock is not None and state.rock.drift_pending and state.phase == "rnd":
            return self.rock_rules.drift_outcomes(state)
        return []

    def legal_actions(self, state: GameState) -> list[Action]:
        """Every action the current player may take now.

        Free-text names are not enumerated: an Invent or Hire with any name is as legal as the
        listed one with the default name. Masses are listed on a coarse scale. In R&D the list is exactly
        the candidates of ``_rnd_candidates`` that ``refusal`` allows, in the same order, but worked out
        per family from the state (tests/test_fast_engine.py holds the two together); ``legal_families``
        gives the same families not joined.
        """
        player = self.current_player(state)
        if player == TERMINAL:
            return []
        if player == CHANCE:
            return [roll for roll, _ in self.chance_outcomes(state)]
        if state.pending_trade is not None:
            return [AnswerTrade(True), AnswerTrade(False)]
        if state.phase == "flight":
            legal = self.flight_rules.legal_actions(state)
            if self.flight_rules.trade_closed(state) is None:
                legal += self._sample_offers(state, player)
            return legal
        return self._rnd_legal(state, player)

    def legal_families(self, state: GameState) -> Listed:
        """``legal_actions(state)`` family by family, not yet joined: ``joined()`` is that list, and ``without``
        leaves classes out by whole families (one part outside R&D, filtered action by action)."""
        player = self.current_player(state)
        if player < 0 or state.pending_trade is not None or state.phase == "flight" or not self._lists_by_family:
            return Listed.of(self.legal_actions(state))
        parts = self._rnd_families(state, player)
        return Listed(parts, rnd_family_kinds(len(parts)))

    def refusal(self, state: GameState, action: Action) -> Optional[str]:
        """Why ``action`` is not allowed now, or None when it is (checked without playing it out)."""
        try:
            self._dispatch(state, action, check_only=True)
        except IllegalAction as exc:
            return str(exc)
        return None

    def allowed(self, state: GameState, action: Action) -> bool:
        """Exactly ``refusal(state, action) is None``, answered without playing the action out where the state
        tells: a research step (``can_research``), a design that cannot fly (``design_is_valid``, kept) or an
        activity of the craft whose turn it is (the check its handler makes first). For bots, which ask often and need no reason; tests/test_fast_engine.py holds
        the two together."""
        if isinstance(action, Action) and state.pending_trade is None and state.phase != "over":
            if type(action) is Research and action.steps == 1:
                return self.can_research(state, action.thing, action.safety)
            if type(action) is Assemble and state.phase == "rnd" and self.current_player(state) >= 0 \
                    and not self.design_is_valid(state, self.current_player(state), action.design):
                return False  # a design that cannot fly is refused whatever else holds
            if state.phase == "flight" and not isinstance(action, OfferTrade):
                answer = self.flight_rules.allowed(state, action)
                if answer is not None:
                    return answer
        return self.refusal(state, action) is None

    def apply(self, state: GameState, action: Action) -> GameState:
        """The state after ``action``; raises IllegalAction (state unchanged) when it is not allowed."""
        return self._dispatch(state, action, check_only=False)

    def _dispatch(self, state: GameState, action: Action, check_only: bool) -> GameState:
        """The one judge: the state after ``action`` (``check_only``: the state unchanged once every check
        passed), or IllegalAction with the reason. An R&D handler gets the acting program and returns the state
        with its own events, in one rebuild, and so does the rock's drift die; the flights add to events cleared
        here (a state already told nothing is not copied for it)."""
        if not isinstance(action, Action):
            raise IllegalAction(f"{action!r} is not an action")
        player = self.current_player(state)
        if player == TERMINAL:
            raise IllegalAction("the game is over")
        if player == CHANCE and state.phase == "rnd":  # the rock's drift die, before anyone spends
            if not isinstance(action, Roll):
                raise IllegalAction("the rock's drift die must be rolled first")
            return self.rock_rules.apply_drift(state, action.value)  # its events: the die's story alone
        if state.pending_trade is not None:
            if not isinstance(action, AnswerTrade):
                partner = state.programs[state.pending_trade.partner].name
                raise IllegalAction(f"{partner} must first accept or decline the trade on the table")
            return self._answer_trade(state, action)
        if state.phase == "flight":
            if isinstance(action, OfferTrade):
                closed = self.flight_rules.trade_closed(state)
                if closed is not None:
                    raise IllegalAction(closed)
                return self._offer_trade(state, action, state.programs[player], check_only)
            if check_only:
                self.flight_rules.check(state, action)
                return state
            after = self.flight_rules.apply(update(state, events=()) if state.events else state, action)
            return self.victory_rules.after_flight_action(after)
        handler = self._rnd_handlers.get(type(action))
        if handler is None:
            if isinstance(action, Roll):
                raise IllegalAction("no roll is pending")
            raise IllegalAction(f"'{action}' cannot be done during R&D")
        return handler(state, action, state.programs[player], check_only)

    def outcome(self, state: GameState) -> Optional[Outcome]:
        if state.phase != "over" or state.winner is None:
            return None
        if state.rock is not None:
            scores = tuple(state.score or 0 for _ in state.programs)
        else:
            scores = tuple(p.dots for p in state.programs)
        at_war = any(state.at_open_war(p.index) for p in state.programs)
        if state.end_reason and (at_war or not (state.end_kind == "turn_limit" and state.setup.victory == "most_dots")):
            return Outcome(state.winner, state.end_reason, scores, state.end_kind or "turn_limit")
        names = " and ".join(state.programs[i].name for i in state.winner)
        return Outcome(state.winner, f"{names} ended with the most budget dots", scores)

    def finish(self, state: GameState, winners: tuple[int, ...], kind: str, reason: str) -> GameState:
        """End the game now: ``winners`` (empty when everyone lost), how it ended and why, in words.

        Under Space War a program at open war never wins (``VictoryRules.without_open_wars``)."""
        winners, reason = self.victory_rules.without_open_wars(state, tuple(winners), reason)
        score = self.rock_rules.score(state) if state.rock is not None and kind == "saved" else None
        return update(state, phase="over", winner=tuple(winners), end_kind=kind, end_reason=reason,
                                   score=score, events=state.events + (Event(reason, kind="end"),))

    def status(self, state: GameState) -> dict:
        """What the client shows all the time: the rock (turns left, nudges against the goal, drift) or the
        victory condition and each program's progress."""
        if state.rock is not None:
            rock = state.rock
            scenario = self.rock_rules.scenario(state)
            return {"scenario": scenario.id, "name": scenario.name,
                    "difficulty": scenario.difficulty(state.setup.difficulty).id,
                    "turns_left": rock.turns_left, "nudge_total": rock.nudge_total,
                    "nudges_needed": rock.nudges_needed, "nudge_value_now": self.rock_rules.nudge_value(state),
                    "drift": rock.drift, "drift_pending": rock.drift_pending, "last_drift": rock.last_drift,
                    "saved": rock.saved, "lines": [
                        f"Impact in {counted(rock.turns_left, 'turn')}" if not rock.saved else "The rock will miss",
                        f"Nudges {rock.nudge_total} / {rock.nudges_needed}",
                        {"rolling": "The rock drifts (D20 each turn)", "off": "No drift",
                         "pinned": "Track pinned by a Waylight", "close": "Too close to drift"}[rock.drift]]}
        victory = self.victory_rules.victory(state)
        return {"victory": victory.id, "name": victory.name, "kind": victory.kind,
                "description": victory.description, "turn_limit": state.setup.turn_limit,
                "lines": self.victory_rules.status(state)}

    # ------------------------------------------------------------------ helpers
    @staticmethod
    def _too_dear(program: Program, cost: int, what: str) -> IllegalAction:
        """The refusal of an action ``program`` cannot pay for (its words built only when it is refused)."""
        return IllegalAction(f"{what} costs {counted(cost, 'point')} and you have {program.points}")

    @staticmethod
    def _paying(state: GameState, program: Program, cost: int, **changes) -> tuple[Program, ...]:
        """The programs of ``state`` after ``program`` (as it is there) pays ``cost`` points, with ``changes``."""
        programs = list(state.programs)
        programs[program.index] = update(program, points=program.points - cost, **changes)
        return tuple(programs)

    def _own_thing(self, state: GameState, program: Program, thing_id: str) -> Thing:
        thing = state.find("thing", thing_id)
        if thing is None or thing.owner != program.index:
            raise IllegalAction(f"you hold no blueprint called {thing_id}")
        return thing

    def _own_derp(self, state: GameState, program: Program, derp_id: str) -> Derp:
        derp = state.find("derp", derp_id)
        if derp is None or derp.owner != program.index:
            raise IllegalAction(f"{derp_id} is not one of your derps")
        if derp.dead:
            raise IllegalAction(f"{derp.name} is dead")
        return derp

    @staticmethod
    def own_rating(state: GameState, item: Item) -> Rating:
        """A built part's own rating: the one it kept when it was launched or traded, else its blueprint's;
        what a launch or a trade keeps (this flight's penalties are not part of it)."""
        return item.fixed_rating or state.thing(item.thing_id).rating

    def item_rating(self, state: GameState, item: Item) -> Rating:
        """The rating a built part rolls on now: its own (``own_rating``) with this flight's penalties."""
        base = item.fixed_rating or state.thing(item.thing_id).rating  # own_rating, here without a call
        if item.flight_fail_penalty or item.flight_boom_penalty:
            return penalised(base, item.flight_fail_penalty, item.flight_boom_penalty,
                             self.rules.economy.reliability.bounds)
        return base

    def research_cap(self, state: GameState, thing: Thing) -> Rating:
        """The best rating research alone can give this thing now."""
        return self._cap("simulationist" in state.setup.options, thing)

    def _cap(self, simulationist: bool, thing: Thing) -> Rating:
        """``research_cap``: all it reads of the state is whether the game has the simulationist option."""
        research = self.rules.economy.research
        best = self.rules.economy.reliability.best
        if simulationist or self._role_of_kind[thing.kind] in research.caps_exempt_roles:
            return best
        if not thing.flown and research.cap_never_flown is not None:
            return research.cap_never_flown
        if not thing.flown_successfully and research.cap_never_flown_successfully is not None:
            return research.cap_never_flown_successfully
        return best

    def can_research(self, state: GameState, thing_id: str, safety: str) -> bool:
        """Whether the program whose R&D turn it is may research one ``safety`` step ("fail" or "boom") of its
        blueprint ``thing_id`` now: exactly ``refusal(state, Research(thing_id, safety, 1)) is None``, read from
        the R&D listing's kept row of that blueprint instead of a full check (for bots that ask often;
        tests/test_fast_engine.py holds the two together)."""
        player = self.current_player(state)
        if state.phase != "rnd" or player < 0 or state.pending_trade is not None or safety not in ("fail", "boom"):
            return self.refusal(state, Research(thing_id, safety, 1)) is None
        thing = state.find("thing", thing_id)
        if thing is None or thing.owner != player:
            return False
        row = self.rnd_listing.row(state, thing)
        step = row.research_fail if safety == "fail" else row.research_boom
        return step is not None and row.research_cost <= state.programs[player].points

    def offered(self, state: GameState, thing: Thing) -> tuple[Optional[Research], Optional[Research], Optional[Build]]:
        """The one-step research of Fail and of Boom and the build of one of ``thing``, a blueprint as read from
        ``state.things``, each as R&D's listing hands it out when the program whose R&D turn it is may do it now,
        else None: exactly the ones ``refusal`` allows, read from the blueprint's listing row (its steps left
        and prices) instead of checking each (for bots, which ask often about the blueprints they plan with;
        tests/test_fast_engine.py holds the three to ``refusal``)."""
        last = self._acting  # ``current_player``'s kept answer, read here without the call
        player = last[1] if last[0] is state else self.current_player(state)
        if player < 0 or thing.owner != player or state.phase != "rnd" or state.pending_trade is not None:
            return _NOTHING_OFFERED
        row = self.rnd_listing.row(state, thing)
        points = state.programs[player].points
        if row.research_cost > points:
            return _NOTHING_OFFERED if row.build_cost > points else (None, None, row.build)
        return row.research_fail, row.research_boom, row.build if row.build_cost <= points else None

    def transfer_rating(self, state: GameState, program: int, kind: str, mass: int) -> Optional[tuple[Rating, Thing]]:
        """Technology transfer: the starting rating a new thing inherits, and from which design (one of the
        program's blueprints, or another program's design of which it holds a traded or recovered part).

        The sources are read from where ``TransferSources`` keeps them (the program's blueprints that may pass
        their rating on, the parts it holds of designs whose blueprint it does not hold), not from all its
        blueprints and parts: in order, blueprints first, so the first of the best wins as before."""
        research = self.rules.economy.research
        similar = self._similar_kinds.get(kind)
        if similar is None:
            similar = self._similar_kinds[kind] = (kind,) + self.rules.components.kind(kind).transfers_from
        places = self._transfer_sources.places(state, program)
        things, items = state.things, state.items
        # The program's blueprints, and the parts it holds of others' designs: "Trading a piece of equipment
        # does NOT automatically mean sharing the blueprint ... However, Technology Transfer still applies."
        sources = [(thing, thing.rating) for thing in map(things.__getitem__, places.own) if thing.kind in similar]
        for item in map(items.__getitem__, places.foreign):
            thing = state.thing(item.thing_id)
            if thing.kind in similar:  # a part of the same design and rating again changes nothing: the first wins
                sources.append((thing, item.fixed_rating or thing.rating))
        if not sources:
            return None
        ratio = research.tech_transfer_min_mass_ratio  # a source masses at least mass * ratio, compared in integers
        least, per = mass * ratio.numerator, ratio.denominator
        needs_flight, cap = research.tech_transfer_needs_successful_flight, research.tech_transfer_cap
        best: Optional[tuple[Rating, Thing]] = None
        for thing, held in sources:
            if thing.mass * per < least:
                continue
            if needs_flight and not thing.flown_successfully:
                continue
            rating = _rating(min(held.fail, cap.fail), min(held.boom, cap.boom))
            if best is None or rating.score() > best[0].score():
                best = (rating, thing)
        return best

    def default_name(self, state: GameState, program: int, kind: str) -> str:
        """A name for a new thing: the people's naming style, the kind and a mark number."""
        kept = self.rnd_listing.kept_blueprints(state, program)
        already = kept.of_kind.get(kind, 0) if kept is not None else sum(1 for t in state.things_of(program)
                                                                         if t.kind == kind)
        return self._default_name(state, program, kind, already)

    def _default_name(self, state: GameState, program: int, kind: str, already: int) -> str:
        """``default_name`` when the program already holds ``already`` things of that kind (kept)."""
        people_id = state.programs[program].people
        key = (people_id, program, kind, already)
        name = self._default_names.get(key)
        if name is None:
            people = people_by_id(self.rules, people_id)
            count = already + 1
            stem = people.upgoer_names[(program + count - 1) % len(people.upgoer_names)]
            name = f"{stem} {in_sentence(self.rules.components.kind(kind).name)} Mk{count}"
            if len(self._default_names) >= 4096:
                self._default_names.clear()
            self._default_names[key] = name
        return name

    def default_derp_name(self, state: GameState, program: int) -> str:
        people = people_by_id(self.rules, state.programs[program].people)
        count = len([d for d in state.derps if d.owner == program])
        name = people.derp_names[count % len(people.derp_names)]
        return name if count < len(people.derp_names) else f"{name} {count // len(people.derp_names) + 1}"

    def check_design(self, state: GameState, program: int, design: UpgoerDesign) -> DesignReport:
        return check_design(state, program, design, self.rules)

    def design_is_valid(self, state: GameState, program: int, design: UpgoerDesign) -> bool:
        """``check_design(...).valid``, answered from what was kept when the same reads were checked before."""
        return self._design_validity(state, program, design)

    # ------------------------------------------------------------------ R&D handlers
    def _invent(self, state: GameState, a: Invent, program: Program, check_only: bool) -> GameState:
        """Invention: checked in the rules' order, then the new blueprint added in one rebuild. What the action
        alone decides (its kind, the mass and cost, any refusal that reads nothing of the state) is kept per action
        value (``_invent_plan``: the listing hands out the same Invent objects), so only the optional rule, the
        name and the price are read from the state."""
        plan = self._invent_plans.get(id(a))
        if plan is None or plan[0] is not a:
            plan = self._invent_plan(a)
        _, kind, mass, cost, refused = plan
        if kind.option is not None and kind.option not in state.setup.options:
            raise IllegalAction(f"{kind.name}s belong to the optional rule "
                                f"'{self.rules.option(kind.option).name}', which this game does not use")
        if refused is not None:
            raise IllegalAction(refused)
        # The program's blueprints counted by kind and their names: as R&D's listing keeps them for this very
        # tuple when it was asked (a long game's hundred blueprints are not read again), else read here.
        kept = self.rnd_listing.kept_blueprints(state, program.index)
        mine = state.things_of(program.index) if kept is None else ()
        already = kept.of_kind.get(kind.id, 0) if kept is not None else sum(1 for t in mine if t.kind == kind.id)
        name = a.name.strip() or self._default_name(state, program.index, kind.id, already)
        lowered = name.lower()
        if lowered in kept.names if kept is not None else any(t.name.lower() == lowered for t in mine):
            raise IllegalAction(f"you already have a blueprint called '{name}'")
        if cost > program.points:
            raise self._too_dear(program, cost, f"inventing a thing of mass {mass}")
        if check_only:
            return state
        rating = self.rules.economy.research.new_thing_rating
        transfer = self.transfer_rating(state, program.index, kind.id, mass)
        note = ""
        if transfer is not None and transfer[0].score() > rating.score():
            rating = transfer[0]
            note = f" (technology transfer from {transfer[1].name})"
        thing = made(Thing, id=f"T{state.next_id}", owner=program.index, name=name, kind=kind.id, base_mass=a.mass,
                     mass=mass, reusable=a.reusable, rating=rating, inventor=program.index)
        return update(state, programs=self._paying(state, program, cost), next_id=state.next_id + 1,
                      things=noted(appended(state.things, (thing,)), state.things), events=(
            Event.told(_invented, (program.name, name, kind.name, mass, cost, rating, note), program.index, "rnd"),))

    def _invent_plan(self, a: Invent) -> tuple:
        """(``a``, its kind, the new thing's mass, its cost, the refusal of its mass or reusability or None), kept
        per action; an unknown kind or one that is bought is refused here (checked before the optional rule)."""
        comps = self.rules.components
        try:
            kind = comps.kind(a.kind)
        except KeyError:
            known = ", ".join(k.id for k in comps.kinds if k.invented)
            raise IllegalAction(f"there is no kind of thing called '{a.kind}' (you can invent: {known})") from None
        if not kind.invented:
            raise IllegalAction(f"{kind.name}s are bought, not invented")
        refused = None
        if kind.fixed_mass is not None and a.mass != kind.fixed_mass:
            refused = f"a {kind.name} always masses {kind.fixed_mass}"
        elif not 1 <= a.mass <= comps.max_invent_mass:
            refused = f"mass must be from 1 to {comps.max_invent_mass}"
        elif kind.role in ("capsule", "habitat") and a.mass < comps.capsule.min_mass:
            refused = f"a {kind.name.lower()} must mass at least {comps.capsule.min_mass} to carry anything"
        elif a.reusable and not kind.can_be_reusable:
            refused = f"a {kind.name.lower()} cannot be made reusable"
        mass = cost = 0
        if refused is None:
            mass = formulas.thing_mass(a.mass, a.reusable, comps)
            cost = self.rules.economy.costs.invent_per_mass * mass
        plan = (a, kind, mass, cost, refused)
        if len(self._invent_plans) >= 4096:
            self._invent_plans.clear()
        self._invent_plans[id(a)] = plan
        return plan

    def _research(self, state: GameState, a: Research, program: Program, check_only: bool) -> GameState:
        """Research: checked, then the new state built in one step. The blueprint's place is found once (its new
        value goes in the same place; read from the places kept for the tuple the last research made, whose ids
        stand in the same places), and its new value's R&D listing row is handed to the listing with the cap
        just checked against (research leaves what the cap reads as it was), since the next step asks for it; the
        program that researched is kept as the next to act."""
        things = state.things
        kept = self._thing_places
        if kept[0] is things:
            places = kept[1]
        elif len(things) <= _THING_PLACES_KEPT:
            places = {thing.id: n for n, thing in enumerate(things)}
            if len(places) != len(things):
                places = None  # an id twice (never in play): the plain way below
        else:
            places = None  # a long tuple's places are kept with its id index (``place_of``)
        place = places.get(a.thing, -1) if places is not None else place_of(things, a.thing)
        if place < 0:
            thing = self._own_thing(state, program, a.thing)  # none (refused) or an id twice: the plain way
        else:
            thing = things[place]
            if thing.owner != program.index:
                raise IllegalAction(f"you hold no blueprint called {a.thing}")
        safety, steps = a.safety, a.steps
        if safety not in ("fail", "boom"):
            raise IllegalAction("research moves either the Fail safety or the Boom safety")
        if steps < 1:
            raise IllegalAction("research at least one step")
        research = self.rules.economy.research
        simulationist = "simulationist" in state.setup.options
        cap = self._cap(simulationist, thing)
        old = thing.rating
        if safety == "fail":
            done, limit = thing.fail_steps_this_turn, research.max_fail_steps_per_turn
            target, ceiling = old.fail + steps, cap.fail
            if target >= old.boom:
                raise IllegalAction(f"{thing.name} is {old}: its Fail safety must stay below its Boom "
                                    f"safety, so research Boom to Fail first")
        else:
            done, limit = thing.boom_steps_this_turn, research.max_boom_steps_per_turn
            target, ceiling = old.boom + steps, cap.boom
        if done + steps > limit:
            raise IllegalAction(f"{thing.name} can improve at most {limit} {safety.capitalize()} steps per turn "
                                f"({done} done this turn)")
        if target > ceiling:
            raise IllegalAction(f"{thing.name} cannot be researched past {cap} {self._cap_reason(state, thing)}")
        cost = self.rules.economy.costs.research_per_mass * thing.mass * steps
        if cost > program.points:
            raise self._too_dear(program, cost, f"researching {thing.name} {counted(steps, 'step')}")
        if check_only:
            return state
        if safety == "fail":
            new = _rating(target, old.boom)
            researched = update(thing, rating=new, fail_steps_this_turn=done + steps)
        else:
            new = _rating(old.fail, target)
            researched = update(thing, rating=new, boom_steps_this_turn=done + steps)
        self.rnd_listing.row_with_cap(researched, simulationist, cap)
        programs = list(state.programs)  # ``_paying``, without the call
        programs[program.index] = update(program, points=program.points - cost)
        if place >= 0:
            new_things = replaced_at(things, place, researched)
            if places is not None:  # the same ids in the same places
                self._thing_places = (new_things, places)
        else:
            new_things = replace_in(things, (researched,))
        after = update(state, programs=tuple(programs), things=noted(new_things, things, thing.id), events=(
            Event.told(_researched, (program.name, thing.name, old, new, cost), program.index, "rnd"),))
        # Research leaves what ``_who_acts`` reads (the phase, the rock, the trade, every program's R&D turn) as it
        # was: the same program acts next.
        self._acting = (after, program.index)
        return after

    def _cap_reason(self, state: GameState, thing: Thing) -> str:
        if self.research_cap(state, thing) == self.rules.economy.reliability.best:
            return "(the best any thing can be)"
        if not thing.flown:
            return "until it has flown"
        return "until it has flown successfully"

    def _build(self, state: GameState, a: Build, program: Program, check_only: bool) -> GameState:
        thing = self._own_thing(state, program, a.thing)
        if a.count < 1:
            raise IllegalAction("build at least one")
        cost = self.rules.economy.costs.build_per_mass * thing.mass * a.count
        if cost > program.points:
            raise self._too_dear(program, cost, f"building {a.count} x {thing.name}")
        if check_only:
            return state
        kind = self.rules.components.kind(thing.kind)
        new_items, systems = [], []
        next_id = state.next_id
        for _ in range(a.count):
            item_id = f"I{next_id}"
            next_id += 1
            new_items.append(made(Item, id=item_id, thing_id=thing.id, owner=program.index, uses_left=kind.uses))
            if kind.role == "underped":
                systems.append(self._new_system(state, program.index, thing, item_id, f"D{next_id}", len(systems)))
                next_id += 1
        return update(state, programs=self._paying(state, program, cost), next_id=next_id,
                      items=appended(state.items, new_items), derps=appended(state.derps, systems), events=(
            Event.told(_built, (program.name, a.count, thing.name, tuple(new_items), cost), program.index, "rnd"),))

    def kind_in_play(self, state: GameState, kind_id: str) -> bool:
        """Whether a kind can be invented in this game (its optional rule, if it has one, is switched on)."""
        option = self.rules.components.kind(kind_id).option
        return option is None or option in state.setup.options

    def _new_system(self, state: GameState, program: int, thing: Thing, item_id: str, derp_id: str,
                    built_now: int) -> Derp:
        """The crew member an underped system is: a derp's starting stats, powered down until it flies."""
        derps = self.rules.economy.derps
        number = sum(1 for d in state.derps if d.is_system and d.owner == program) + built_now + 1
        return made(Derp, id=derp_id, owner=program, name=f"{thing.name} no. {number}", piloting=derps.start_piloting,
                    engineering=derps.start_engineering, stamina=derps.start_stamina,
                    current_stamina=derps.start_stamina, system=item_id, powered_down=True)

    def _program_system(self, state: GameState, a: ProgramSystem, program: Program, check_only: bool) -> GameState:
        """Programming: +1 stamina per resource point, at home or aboard a craft on the pad (the last minute)."""
        derp = self._own_derp(state, program, a.derp)
        if not derp.is_system:
            raise IllegalAction(f"{derp.name} is a derp: derps are trained, underped systems are programmed")
        if a.points < 1:
            raise IllegalAction("program at least one stamina point")
        if derp.location is not HOME and state.upgoer(derp.location).status != "pad":
            raise IllegalAction(f"{derp.name} is in flight; systems are programmed at home or on the pad")
        limit = self.rules.economy.derps.max_total_points
        if derp.total_points + a.points > limit:
            raise IllegalAction(f"{derp.name} has {derp.total_points} points; a system can have at most {limit}")
        cost = self.rules.components.underped.program_cost_per_stamina * a.points
        if cost > program.points:
            raise self._too_dear(program, cost, f"programming {derp.name}")
        if check_only:
            return state
        new = update(derp, stamina=derp.stamina + a.points, current_stamina=derp.current_stamina + a.points)
        return update(state, programs=self._paying(state, program, cost), derps=replace_in(state.derps, [new]), events=(
            Event(f"{derp.name} is programmed: stamina {derp.stamina} -> {new.stamina}, for {counted(cost, 'point')}.",
                  program.index, "rnd"),))

    def _write_orders(self, state: GameState, a: WriteOrders, program: Program, check_only: bool) -> GameState:
        upgoer = state.find("upgoer", a.upgoer)
        if upgoer is None or upgoer.owner != program.index or upgoer.status not in ("pad", "flying"):
            raise IllegalAction(f"{a.upgoer} is not one of your Upgoers on the pad or in flight")
        if upgoer.status == "flying" and not upgoer.orders_open:
            raise IllegalAction(f"{upgoer.name} is already flying: its orders are rewritten only after its robots "
                                f"are recharged in flight (by a generator or a derp)")
        written = self.flight_rules.check_orders(state, upgoer, a.burns)
        if check_only:
            return state
        return update(state, upgoers=replace_in(state.upgoers, [update(upgoer, orders=a.burns, orders_aborted=False)]),
                      events=(Event(f"{upgoer.name}'s orders are written: {written}.", program.index, "rnd"),))

    def _buy_consumables(self, state: GameState, a: BuyConsumables, program: Program, check_only: bool) -> GameState:
        comps = self.rules.components
        if a.kind not in ("fuel", "rations"):
            raise IllegalAction("you can buy fuel or rations")
        if a.containers < 1:
            raise IllegalAction("buy at least one container")
        cost = self.rules.economy.costs.consumable_per_container * a.containers
        if cost > program.points:
            raise self._too_dear(program, cost, counted(a.containers, f"{a.kind} container"))
        if check_only:
            return state
        if a.kind == "fuel":
            amount = a.containers * comps.fuel_per_container
            programs = self._paying(state, program, cost, fuel_stock=program.fuel_stock + amount)
            what = f"{amount} fuel"
        else:
            amount = a.containers * comps.rations_derp_turns_per_container
            programs = self._paying(state, program, cost, rations_stock=program.rations_stock + amount)
            what = f"rations for {amount} derp-turns"
        return update(state, programs=programs, events=(
            Event.told(_bought, (program.name, what, cost), program.index, "rnd"),))

    def _hire(self, state: GameState, a: Hire, program: Program, check_only: bool) -> GameState:
        derps = self.rules.economy.derps
        name = a.name.strip() or self.default_derp_name(state, program.index)
        cost = self.rules.economy.costs.hire_derp
        if cost > program.points:
            raise self._too_dear(program, cost, "hiring a derp")
        if check_only:
            return state
        derp = made(Derp, id=f"D{state.next_id}", owner=program.index, name=name, piloting=derps.start_piloting,
                    engineering=derps.start_engineering, stamina=derps.start_stamina,
                    current_stamina=derps.start_stamina)
        return update(state, programs=self._paying(state, program, cost), next_id=state.next_id + 1,
                      derps=appended(state.derps, (derp,)), events=(Event.told(
                          _hired, (program.name, name, derp.piloting, derp.engineering, derp.stamina),
                          program.index, "rnd"),))

    def _train(self, state: GameState, a: Train, program: Program, check_only: bool) -> GameState:
        derp = self._own_derp(state, program, a.derp)
        rules = self.rules.economy.derps
        if derp.is_system:
            raise IllegalAction(f"{derp.name} is an underped system: it is programmed, not trained")
        if a.skill not in SKILLS:
            raise IllegalAction(f"derps train in {', '.join(SKILLS)}")
        if a.points < 1:
            raise IllegalAction("train at least one point")
        if derp.location is not HOME:
            raise IllegalAction(f"{derp.name} is aboard {self._where(state, derp)}; derps train at home")
        if derp.injured:
            raise IllegalAction(f"{derp.name} is injured: heal them first")
        if derp.busy == "healing":
            raise IllegalAction(f"{derp.name} is recovering from healing this turn")
        if derp.trained_skill and derp.trained_skill != a.skill:
            raise IllegalAction(f"{derp.name} already trains {derp.trained_skill} this turn; "
                                f"only one skill can be trained per turn")
        if rules.trainings_per_turn is not None and derp.trained_points + a.points > rules.trainings_per_turn:
            raise IllegalAction(f"a derp can train at most {counted(rules.trainings_per_turn, 'point')} per turn")
        if derp.total_points + a.points > rules.max_total_points:
            raise IllegalAction(f"{derp.name} has {derp.total_points} points; a derp can have at most "
                                f"{rules.max_total_points}")
        cost = self.rules.economy.costs.train_per_point * a.points
        if cost > program.points:
            raise self._too_dear(program, cost, f"training {derp.name}")
        if check_only:
            return state
        changes = {a.skill: getattr(derp, a.skill) + a.points, "busy": "training",
                   "trained_skill": a.skill, "trained_points": derp.trained_points + a.points}
        if a.skill == "stamina":
            changes["current_stamina"] = derp.current_stamina + a.points
        new = update(derp, **changes)
        return update(state, programs=self._paying(state, program, cost), derps=replace_in(state.derps, (new,)),
                      events=(Event.told(_trained, (derp.name, a.skill, changes[a.skill]), program.index, "rnd"),))

    @staticmethod
    def _where(state: GameState, derp: Derp) -> str:
        upgoer = state.find("upgoer", derp.location)
        if upgoer is None:
            return "a craft"
        return f"{upgoer.name} on the pad" if upgoer.status == "pad" else f"{upgoer.name} in space"

    def _heal(self, state: GameState, a: Heal, program: Program, check_only: bool) -> GameState:
        derp = self._own_derp(state, program, a.derp)
        if not derp.injured:
            raise IllegalAction(f"{derp.name} is not injured")
        if derp.location is not HOME:
            raise IllegalAction(f"{derp.name} is aboard {self._where(state, derp)}; derps are healed at home")
        cost = self.rules.economy.costs.heal_derp
        if cost > program.points:
            raise self._too_dear(program, cost, f"healing {derp.name}")
        if check_only:
            return state
        back_to = self.rules.economy.derps.heal_to_stamina
        new = update(derp, injured=False, stamina=back_to, current_stamina=back_to, busy="healing")
        return update(state, programs=self._paying(state, program, cost), derps=replace_in(state.derps, (new,)),
                      events=(Event.told(_healed, (derp.name, back_to), program.index, "rnd"),))

    # ------------------------------------------------------------------ trading
    def _check_bundle(self, state: GameState, owner: Program, bundle: TradeBundle, who: str) -> None:
        if min(bundle.points, bundle.dots, bundle.fuel, bundle.rations) < 0:
            raise IllegalAction("a trade cannot hand over negative amounts")
        if bundle.points and not self.rules.economy.trading.points:
            raise IllegalAction("under these rules points never change hands: trade dots instead")
        if bundle.points > owner.points:
            raise IllegalAction(f"{who} {owner.points} points, not {bundle.points}")
        floor = self.rules.economy.budget.min_dots
        if bundle.dots > max(0, owner.dots - floor):
            raise IllegalAction(f"{who} {owner.dots} dots and a budget never drops below {floor}, so at most "
                                f"{max(0, owner.dots - floor)} can be traded")
        if bundle.fuel > owner.fuel_stock:
            raise IllegalAction(f"{who} {owner.fuel_stock} fuel at home, not {bundle.fuel}")
        if bundle.rations > owner.rations_stock:
            raise IllegalAction(f"{who} rations for {owner.rations_stock} derp-turns at home, not {bundle.rations}")
        for item_id in bundle.items:
            item = state.find("item", item_id)
            if item is None or item.owner != owner.index or item.location is not HOME:
                raise IllegalAction(f"{item_id} is not a part in {owner.name}'s storage")
        for thing_id in bundle.blueprints:
            thing = state.find("thing", thing_id)
            if thing is None or thing.owner != owner.index:
                raise IllegalAction(f"{thing_id} is not one of {owner.name}'s blueprints")
        for derp_id in bundle.derps:
            derp = state.find("derp", derp_id)
            if derp is None or derp.owner != owner.index or derp.dead or derp.location is not HOME:
                raise IllegalAction(f"{derp_id} is not a derp at {owner.name}'s spaceport")
            if derp.is_system:
                raise IllegalAction(f"{derp.name} is an underped system: trade the part itself")
        if (len(set(bundle.items)) != len(bundle.items) or len(set(bundle.derps)) != len(bundle.derps)
                or len(set(bundle.blueprints)) != len(bundle.blueprints)):
            raise IllegalAction("a trade names the same thing twice")

    def _offer_trade(self, state: GameState, a: OfferTrade, program: Program, check_only: bool) -> GameState:
        if not 0 <= a.partner < len(state.programs) or a.partner == program.index:
            raise IllegalAction("trade with another space program")
        if a.give.is_empty() and a.take.is_empty():
            raise IllegalAction("the trade is empty")
        partner = state.programs[a.partner]
        self._check_bundle(state, program, a.give, "you have")
        self._check_bundle(state, partner, a.take, f"{partner.name} has")
        if check_only:
            return state
        offer = TradeOffer(program.index, a.partner, a.give, a.take)
        return update(state, pending_trade=offer, events=(Event.told(
            _offered, (program.name, partner.name, a.give, self._bundle_names(state, a.give), a.take,
                       self._bundle_names(state, a.take)), program.index, "trade"),))

    def describe_bundle(self, state: GameState, bundle: TradeBundle) -> str:
        """One side of a trade in words: its amounts, then the parts, blueprints and derps by name."""
        return _bundle_words(bundle, self._bundle_names(state, bundle))

    @staticmethod
    def _bundle_names(state: GameState, bundle: TradeBundle) -> tuple[str, ...]:
        """What ``describe_bundle`` reads of the state: the names of the bundle's parts, blueprints and derps."""
        if not (bundle.items or bundle.blueprints or bundle.derps):
            return ()
        return (tuple(state.thing(state.item(i).thing_id).name for i in bundle.items)
                + tuple(f"the blueprint of {state.thing(t).name}" for t in bundle.blueprints)
                + tuple(state.derp(d).name for d in bundle.derps))

    def _answer_trade(self, state: GameState, a: AnswerTrade) -> GameState:
        offer = state.pending_trade
        assert offer is not None
        proposer, partner = state.programs[offer.proposer], state.programs[offer.partner]
        if not a.accept:
            return update(state, pending_trade=None, events=(
                Event.told(_declined, (partner.name,), partner.index, "trade"),))
        # Re-check: nothing may have changed, but a trade must never hand over what is gone.
        self._check_bundle(state, proposer, offer.give, f"{proposer.name} has")
        self._check_bundle(state, partner, offer.take, f"{partner.name} has")
        changes: dict = {"programs": list(state.programs)}  # the state's fields the trade changes, built once
        self._hand_over(state, changes, proposer.index, partner.index, offer.give)
        self._hand_over(state, changes, partner.index, proposer.index, offer.take)
        changes["programs"] = tuple(changes["programs"])
        return update(state, pending_trade=None, **changes, events=(Event.told(
            _accepted, (partner.name, proposer.name, offer.give, offer.take), partner.index, "trade"),))

    @staticmethod
    def describe_bundle_after(bundle: TradeBundle) -> str:
        n = len(bundle.items) + len(bundle.blueprints) + len(bundle.derps)
        bits = [counted(v, k) for k, v in (("point", bundle.points), ("dot", bundle.dots), ("fuel", bundle.fuel),
                                            ("derp-turn of rations", bundle.rations)) if v]
        if n:
            bits.append(counted(n, "part, blueprint or derp", "parts, blueprints or derps"))
        return ", ".join(bits) if bits else "nothing"

    def _hand_over(self, state: GameState, changes: dict, giver: int, receiver: int, bundle: TradeBundle) -> None:
        """Put into ``changes`` (the fields of the state after the trade, being built: ``programs`` a list, and
        ``items``, ``derps``, ``things`` and ``next_id`` once changed) what ``bundle`` moves from ``giver`` to
        ``receiver``. ``state`` is the state before the trade: the two sides of a trade hand over different
        parts, derps and designs, so what one side reads there the other side has not changed."""
        programs = changes["programs"]
        if bundle.points or bundle.dots or bundle.fuel or bundle.rations:
            g, r = programs[giver], programs[receiver]
            programs[giver] = update(g, points=g.points - bundle.points, dots=g.dots - bundle.dots,
                                     fuel_stock=g.fuel_stock - bundle.fuel,
                                     rations_stock=g.rations_stock - bundle.rations)
            programs[receiver] = update(r, points=r.points + bundle.points, dots=r.dots + bundle.dots,
                                        fuel_stock=r.fuel_stock + bundle.fuel,
                                        rations_stock=r.rations_stock + bundle.rations)
        if bundle.items:
            # A part leaving its inventor's hands keeps the rating it has now: the new owner's research
            # cannot reach it, and the inventor's no longer does.
            moved = [update(item, owner=receiver, fixed_rating=self.own_rating(state, item))
                     for item in map(state.item, bundle.items)]
            changes["items"] = replace_in(changes.get("items", state.items), moved)
        if bundle.derps or bundle.items:
            derps = changes.get("derps", state.derps)
            moved = [update(state.derp(d), owner=receiver) for d in bundle.derps]
            moved += [update(d, owner=receiver) for d in derps if d.system in bundle.items]  # systems follow
            changes["derps"] = replace_in(derps, moved)
        if bundle.blueprints:
            things, next_id = changes.get("things", state.things), changes.get("next_id", state.next_id)
            taken = {t.name.lower() for t in state.things_of(receiver)}  # each copy named against those before it
            for thing_id in bundle.blueprints:
                original = state.thing(thing_id)
                name = _free_name(taken, original.name)
                taken.add(name.lower())
                copy = update(original, id=f"T{next_id}", owner=receiver, fail_steps_this_turn=0,
                              boom_steps_this_turn=0, name=name)
                things, next_id = appended(things, (copy,)), next_id + 1
            changes["things"], changes["next_id"] = things, next_id

    @staticmethod
    def _unique_name(state: GameState, program: int, name: str) -> str:
        return _free_name({t.name.lower() for t in state.things_of(program)}, name)

    def _reverse_engineer(self, state: GameState, a: ReverseEngineer, program: Program, check_only: bool) -> GameState:
        item = state.find("item", a.item)
        if item is None or item.owner != program.index or item.location is not HOME:
            raise IllegalAction(f"{a.item} is not a part in your storage")
        original = state.thing(item.thing_id)
        inventor = original.inventor
        if original.owner == program.index or inventor == program.index:
            raise IllegalAction(f"{original.name} is your own design")
        if any(t.owner == program.index and t.inventor == inventor and t.name == original.name
               for t in state.things):
            raise IllegalAction(f"you already hold the blueprint of {original.name}")
        rules = self.rules.economy.reverse_engineering
        pair = (inventor, program.index)
        refusal = self._reverse_engineering_refusal(state, program.index, original)
        if refusal:
            raise IllegalAction(refusal)
        if check_only:
            return state
        copy = update(original, id=f"T{state.next_id}", owner=program.index, rating=self.own_rating(state, item),
                      fail_steps_this_turn=0, boom_steps_this_turn=0,
                      name=self._unique_name(state, program.index, original.name))
        bonus = rules.points_per_mass * original.mass
        beneficiary = program.index if rules.bonus_to == "plagiarist" else inventor
        target = state.programs[beneficiary]
        programs = list(state.programs)
        programs[beneficiary] = update(target, bonus_points=target.bonus_points + bonus)
        heaviest = state.reverse_engineered_mass
        if rules.only_heavier:
            heaviest = tuple(sorted(tuple(e for e in heaviest if e[:2] != pair) + (pair + (original.mass,),)))
        return update(state, programs=tuple(programs), next_id=state.next_id + 1,
                      things=noted(appended(state.things, (copy,)), state.things),
                      reverse_engineered=state.reverse_engineered | {pair}, reverse_engineered_mass=heaviest, events=(
            Event(f"{program.name} reverse-engineers {original.name} from {state.programs[inventor].name}'s "
                  f"hardware; {state.programs[beneficiary].name} gets {bonus} extra points next turn.",
                  program.index, "rnd"),))

    def _reverse_engineering_refusal(self, state: GameState, plagiarist: int, original: Thing) -> Optional[str]:
        """Why economy.yaml's reverse_engineering forbids copying ``original`` now, or None when it may be."""
        rules = self.rules.economy.reverse_engineering
        inventor = original.inventor
        if rules.once_per_pair and (inventor, plagiarist) in state.reverse_engineered:
            return (f"you have already reverse-engineered a design of {state.programs[inventor].name}; "
                    f"it works once per pair of programs")
        if rules.only_heavier:
            before = next((m for i, p, m in state.reverse_engineered_mass if (i, p) == (inventor, plagiarist)), None)
            if before is not None and original.mass <= before:
                return (f"{original.name} masses {original.mass}: a further design copied from "
                        f"{state.programs[inventor].name} must mass more than the last one ({before})")
        return None

    # ------------------------------------------------------------------ assembly
    def _assemble(self, state: GameState, a: Assemble, program: Program, check_only: bool) -> GameState:
        design = a.design
        if not design.name.strip():
            raise IllegalAction("give the Upgoer a name")
        if any(u.name.lower() == design.name.strip().lower() and u.status in ("pad", "flying")
               for u in state.upgoers_of(program.index)):
            raise IllegalAction(f"you already have an Upgoer called '{design.name}'")
        total_mass = self._design_validity.total_mass_if_valid(state, program.index, design)  # kept per reads
        if total_mass is None:  # the reason worked out again: its words name the stocks as they are now
            raise IllegalAction("this design cannot fly: " + "; ".join(
                self.check_design(state, program.index, design).problems))
        if check_only:
            return state
        upgoer_id = f"U{state.next_id}"
        systems = tuple(d.id for d in state.derps if d.system is not None and d.system in design.modules)
        crew = design.crew + systems  # an underped system loaded as a part is also a crew member
        upgoer = made(Upgoer, id=upgoer_id, owner=program.index, name=design.name.strip(), stages=design.stages,
                      modules=design.modules, crew=crew, fuel=design.fuel, rations=design.rations)
        items = [update(state.item(i), location=upgoer_id) for i in design.all_items()]
        derps = [update(state.derp(d), location=upgoer_id) for d in crew]
        programs = self._paying(state, program, 0, fuel_stock=program.fuel_stock - design.fuel,
                                rations_stock=program.rations_stock - design.rations)
        return update(state, programs=programs, next_id=state.next_id + 1, upgoers=appended(state.upgoers, (upgoer,)),
                      items=replace_in(state.items, items), derps=replace_in(state.derps, derps), events=(
            Event.told(_rolled_out, (program.name, upgoer.name, total_mass, len(design.crew), len(systems)),
                       program.index, "rnd"),))

    def _disassemble(self, state: GameState, a: Disassemble, program: Program, check_only: bool) -> GameState:
        upgoer = state.find("upgoer", a.upgoer)
        if upgoer is None or upgoer.owner != program.index:
            raise IllegalAction(f"{a.upgoer} is not one of your Upgoers")
        if upgoer.status != "pad":
            raise IllegalAction(f"{upgoer.name} is not on the pad")
        if check_only:
            return state
        return self._return_to_storage(state, upgoer)

    def _return_to_storage(self, state: GameState, upgoer: Upgoer) -> GameState:
        """Take an Upgoer on the pad apart: parts to storage, crew home, leftover fuel and rations to stock."""
        items = [update(i, location=HOME) for i in state.items if i.location == upgoer.id]
        derps = [update(d, location=HOME) for d in state.derps if d.location == upgoer.id]
        program = state.programs[upgoer.owner]
        programs = self._paying(state, program, 0, fuel_stock=program.fuel_stock + upgoer.fuel,
                                rations_stock=program.rations_stock + upgoer.rations)
        return update(
            state, programs=programs, upgoers=without(state.upgoers, {upgoer.id}),
            items=replace_in(state.items, items), derps=replace_in(state.derps, derps),
            events=(Event.told(_taken_apart, (upgoer.name,), upgoer.owner, "rnd"),))

    def _track(self, state: GameState, a: Track, program: Program, check_only: bool) -> GameState:
        upgoer = state.find("upgoer", a.upgoer)
        if upgoer is not None and upgoer.written_off_by == program.index:
            raise IllegalAction("you wrote it off yourself; another program may track it")
        tracked = self.flight_rules.track(state, program.index, a.upgoer)
        return state if check_only else tracked

    def _rush(self, state: GameState, a: Rush, program: Program, check_only: bool) -> GameState:
        upgoer = state.find("upgoer", a.upgoer)
        if upgoer is None or upgoer.owner != program.index or upgoer.status not in ("pad", "flying"):
            raise IllegalAction(f"{a.upgoer} is not one of your Upgoers on the pad or in flight")
        derp = state.find("derp", a.derp)
        if derp is None or derp.location != upgoer.id or derp.dead or derp.injured:
            raise IllegalAction(f"{a.derp} is not a healthy derp aboard {upgoer.name}")
        if derp.powered_down:
            raise IllegalAction(f"{derp.name} is powered down")
        if a.skill not in ("piloting", "engineering"):
            raise IllegalAction("a rush uses Piloting or Engineering")
        bonus = getattr(derp, a.skill)
        if bonus < 1:
            raise IllegalAction(f"{derp.name} has no {a.skill.capitalize()} to rush with")
        if derp.current_stamina < 1:
            raise IllegalAction(f"{derp.name} has no stamina left")
        if check_only:
            return state
        derp = update(derp, current_stamina=derp.current_stamina - 1)
        upgoer = update(upgoer, rush=upgoer.rush + bonus)
        return update(state, derps=replace_in(state.derps, [derp]), upgoers=replace_in(state.upgoers, [upgoer]), events=(
            Event(f"{derp.name} spends a stamina point to hurry {upgoer.name}: +{bonus} in the timing order "
                  f"(not on its rolls).", program.index, "rnd"),))

    # ------------------------------------------------------------------ turn structure
    def _end_rnd(self, state: GameState, a: EndRnD, program: Program, check_only: bool) -> GameState:
        if check_only:
            return state
        ended = Event.told(_finished_rnd, (program.name, program.points), program.index, "rnd")
        programs = self._paying(state, program, 0, rnd_done=True)
        if not all(p.rnd_done for p in programs):
            return update(state, programs=programs, events=(ended,))
        return self.flight_rules.begin_flights(state, told=(ended,), programs=programs)

    def add_dots(self, state: GameState, program: int, dots: int, reason: str) -> GameState:
        """Record a budget change; it is applied (and clamped) at the end of the turn."""
        return with_program(state, self.dotted(state.programs[program], dots, reason))

    @staticmethod
    def dotted(program: Program, dots: int, reason: str) -> Program:
        """``program`` with a budget change recorded (``add_dots`` for a copy of the state that changes more)."""
        return update(program, dot_entries=program.dot_entries + (DotEntry(reason, dots),))

    def end_turn(self, state: GameState) -> GameState:
        """Turn accounting once every craft has flown (``state``: its events the flights' story, which stays
        first, then the standing bonuses' moves): dot changes and the clamp, per-turn resets, then the next R&D
        turn (phase rnd, no flight) or the end. The next turn is built in one copy of the state: the standing
        bonuses' holders and dots, each program's dots, resets and new points (one copy of each program), the
        rock's clock and drift die (one copy of the rock) all go into it (an ending aside)."""
        budget = self.rules.economy.budget
        events: list[Event] = []
        # Who holds each standing bonus now, told after the flights and before the budgets they change.
        programs, standing, moved = self.flight_rules.standing_bonuses(state)
        told = state.events + moved if moved else state.events
        changes = {"standing": standing} if standing is not state.standing else {}
        idle = self.rules.economy.dots.nothing_in_space
        in_space = {u.owner for u in state.upgoers if u.in_space} if idle else ()
        clamped = []
        for p in programs:
            entries = p.dot_entries
            if idle and p.index not in in_space:
                entries += (DotEntry("no Upgoer in space", idle),)  # as add_dots records it
            raw = p.dots + sum(map(_DOTS, entries)) if entries else p.dots
            dots = max(budget.min_dots, min(budget.max_dots, raw))
            events.append(Event.told(_turn_report, (state.turn, p.name, entries, p.dots, raw, dots), p.index, "report"))
            clamped.append((p, dots))
        if state.rock is not None:
            rock, said, ending = self.rock_rules.end_of_turn(state)  # the next turn's rock when play goes on
            events += said
            if ending is not None:
                kind, reason = ending
                winners = tuple(p.index for p in programs) if kind == "saved" else ()
                return self.finish(self._turn_ended(state, clamped, told + tuple(events), rock=rock, **changes),
                                   winners, kind, reason)
            return self._start_turn(state, clamped, told, events, rock=rock, **changes)
        if self.victory_rules.may_end_at_turn_end(state):  # the turn number and the goal tell (most turns no)
            ended = self._turn_ended(state, clamped, (), **changes)
            ending = self.victory_rules.end_of_turn(ended)
            if ending is not None:
                winners, kind, reason = ending
                return self.finish(update(ended, events=told + tuple(events)), winners, kind, reason)
        return self._start_turn(state, clamped, told, events, **changes)

    @staticmethod
    def _turn_ended(state: GameState, clamped: list[tuple[Program, int]], events: tuple[Event, ...],
                    **changes) -> GameState:
        """``state`` at the turn's end: each program with its clamped dots and its turn's records reset, no
        flight, ``events`` told and ``changes`` made, in one copy (what an ending or a victory reads)."""
        programs = tuple([update(p, dots=dots, dot_entries=(), rnd_done=False, derps_lost=0) for p, dots in clamped])
        return update(state, programs=programs, flight=None, phase="rnd", events=events, **changes)

    def _start_turn(self, state: GameState, clamped: list[tuple[Program, int]], told: tuple[Event, ...],
                    events: list[Event], **changes) -> GameState:
        """The next turn's R&D from ``state`` at a turn's end (its programs' dots to be set to ``clamped``): each
        program's dots, resets and new points, the blueprints' and derps' resets, the turn's number, ``told``
        then ``events`` and "Turn N begins", and ``changes`` (the rock), in one copy of the state."""
        budget = self.rules.economy.budget
        # Only what changes is copied: unchanged things and derps (and their tuples, with the indexes kept
        # for them) are shared with the state before, which keeps long games light to replay and hold.
        # The pools are read by comprehensions (a long game has hundreds of blueprints): Python 3.11 reads an
        # attribute in one in fewer instructions than map(attrgetter) does, and makes no tuple a value to compare.
        things = state.things  # the blueprints researched this turn
        fresh = tuple([update(t, fail_steps_this_turn=0, boom_steps_this_turn=0)
                       for t in things if t.fail_steps_this_turn != 0 or t.boom_steps_this_turn != 0])
        if fresh:
            things = replace_in(things, fresh)
        pads = {u.id for u in state.upgoers if u.status == "pad"}
        rested = []
        # The derps with nothing to reset (no task, training or stamina spent) are passed over.
        for d in [d for d in state.derps if d.busy is not None or d.trained_skill is not None
                  or d.trained_points != 0 or d.current_stamina != d.stamina]:
            if (d.location is HOME or d.location in pads) and not d.dead and not d.injured:
                if d.busy is not None or d.trained_skill is not None or d.trained_points != 0 \
                        or d.current_stamina != d.stamina:  # all stamina back after a turn at home
                    rested.append(update(d, busy=None, trained_skill=None, trained_points=0,
                                         current_stamina=d.stamina))
            elif d.busy is not None or d.trained_skill is not None or d.trained_points != 0:
                rested.append(update(d, busy=None, trained_skill=None, trained_points=0))
        derps = replace_in(state.derps, rested) if rested else state.derps
        per_dot = budget.points_per_dot
        programs = tuple([update(p, dots=dots, dot_entries=(), rnd_done=False, derps_lost=0,
                                 points=p.points + dots * per_dot + p.bonus_points, bonus_points=0)
                          for p, dots in clamped])
        turn = state.turn + 1
        events.append(Event.told(_turn_begins, (turn,), None, "turn"))
        return update(state, turn=turn, phase="rnd", flight=None, things=things, derps=derps, programs=programs,
                      events=told + tuple(events), **changes)

    # ------------------------------------------------------------------ candidate actions
    INVENT_MASSES = (1, 2, 3, 4, 5, 6, 8, 10, 12, 15, 20, 25, 30, 40, 50)

    def _rnd_candidates(self, state: GameState, player: int) -> Iterable[Action]:
        program = state.programs[player]
        costs = self.rules.economy.costs
        for kind in self.rules.components.kinds:
            if not kind.invented or not self.kind_in_play(state, kind.id):
                continue
            masses = (kind.fixed_mass,) if kind.fixed_mass else self.INVENT_MASSES
            for mass in masses:
                if costs.invent_per_mass * mass > program.points:
                    break
                yield Invent(kind.id, mass)
                if kind.can_be_reusable:
                    yield Invent(kind.id, mass, reusable=True)
        for thing in state.things_of(player):
            for safety in ("fail", "boom"):
                yield Research(thing.id, safety, 1)
            yield Build(thing.id, 1)
        for kind in ("fuel", "rations"):
            yield BuyConsumables(kind, 1)
            yield BuyConsumables(kind, 5)
        yield Hire()
        for derp in state.derps_of(player):
            if derp.is_system:
                yield ProgramSystem(derp.id, 1)
                continue
            if derp.injured:
                yield Heal(derp.id)
                continue
            for skill in SKILLS:
                yield Train(derp.id, skill, 1)
        for item in state.items_of(player):
            thing = state.thing(item.thing_id)
            if thing.owner != player:
                yield ReverseEngineer(item.id)
        for other in state.programs:
            if other.index == player:
                continue
            if program.points:
                yield OfferTrade(other.index, give=TradeBundle(points=1))
            if other.points:
                yield OfferTrade(other.index, take=TradeBundle(points=1), give=TradeBundle(dots=1))
            mine = state.items_of(player)
            if mine:
                yield OfferTrade(other.index, give=TradeBundle(items=(mine[0].id,)), take=TradeBundle(points=1))
            if not self.rules.economy.trading.points:  # dots are the only currency (2013)
                yield OfferTrade(other.index, give=TradeBundle(dots=1))
                if mine:
                    yield OfferTrade(other.index, give=TradeBundle(items=(mine[0].id,)), take=TradeBundle(dots=1))
        for upgoer in state.upgoers_of(player):
            if upgoer.status == "pad":
                yield Disassemble(upgoer.id)
        for upgoer in state.upgoers:
            if upgoer.status == "debris" and upgoer.tracked_by is None:
                yield Track(upgoer.id)
        for design in self.suggested_designs(state, player):
            yield Assemble(design)
        yield EndRnD()

    def _rnd_legal(self, state: GameState, player: int) -> list[Action]:
        """R&D's families joined into one list: ``joined(self._rnd_families(state, player))``, each family's kept
        list added as it comes (no list of the parts made first; tests/test_legal_families.py holds the two)."""
        listing = self.rnd_listing
        points = state.programs[player].points
        blueprints = listing.blueprints(state, player)
        legal = listing.invent(state, blueprints, points).copy()
        for block in listing.research_and_build(blueprints, points):
            legal += block
        legal += listing.purchases(points)  # fuel and rations containers, a hire
        legal += listing.crew_actions(state, player, points)
        for part in self._after_crew(state, player, blueprints):
            legal += part
        legal += listing.ending
        return legal

    def _rnd_families(self, state: GameState, player: int) -> list[Sequence[Action]]:
        """The candidates of ``_rnd_candidates`` that ``refusal`` allows, in its order, family by family (the
        research and builds one part per block of blueprints; ``rnd_listing.rnd_family_kinds`` names each
        part's classes), each family's conditions read once from the state instead of checking every candidate
        in full (``rnd_listing`` keeps what the blueprints and the stored parts give, per tuple of the state,
        and hands out its kept lists; the families after the crew's are handed on whole while what they read
        stands, ``_after_crew``)."""
        listing = self.rnd_listing
        points = state.programs[player].points
        blueprints = listing.blueprints(state, player)
        parts = [listing.invent(state, blueprints, points)]
        parts += listing.research_and_build(blueprints, points)
        parts.append(listing.purchases(points))  # fuel and rations containers, a hire
        parts.append(listing.crew_actions(state, player, points))
        parts += self._after_crew(state, player, blueprints)
        parts.append(listing.ending)
        return parts

    def _after_crew(self, state: GameState, player: int, blueprints) -> list[Sequence[Action]]:
        """The reverse engineering, the sample trades, the disassembly, the tracking (which still asks
        ``refusal``, with its few candidates and involved checks) and the assembly of suggested designs. Kept per
        program for the state last listed, and handed on to a state made from it by actions the engine noted
        (``state.researched_since``: research and additions only, so every design of a stored part stands) that
        left the parts, the derps, the craft, the copies made, the program's stocks and people and the setup as they
        were and give every program the same say in the sample trades (a point, a dot to give): all these families
        read."""
        programs = state.programs
        hit = self._kept_after_crew.get(player)
        if hit is not None:
            before = hit[0]
            if (state.items is before.items and state.derps is before.derps and state.upgoers is before.upgoers
                    and state.setup is before.setup and state.reverse_engineered is before.reverse_engineered
                    and state.reverse_engineered_mass is before.reverse_engineered_mass):
                say, stocks = hit[2], hit[3]
                if programs is not before.programs:  # each program's say and this one's stocks compared in place
                    floor = self._dot_floor
                    for program, (point, dot) in zip(programs, say):
                        if (program.points >= 1) is not point or (program.dots > floor) is not dot:
                            say = None
                            break
                    program = programs[player]
                    if say is not None and (program.fuel_stock != stocks[0] or program.rations_stock != stocks[1]
                                            or program.people != stocks[2] or len(programs) != len(say)):
                        say = None
                if say is not None and researched_since(state.things, before.things) is not None:
                    parts = hit[4]
                    if hit[1] is not blueprints.held:  # an invention or a copy: the blueprints held read again
                        parts = [self.rnd_listing.reverse_engineering(state, player, blueprints,
                                                                      self._reverse_engineering_refusal)] + parts[1:]
                    self._kept_after_crew[player] = (state, blueprints.held, say, stocks, parts)  # the next looks
                    return parts  # back from here
        floor = self._dot_floor
        say = tuple([(program.points >= 1, program.dots > floor) for program in programs])
        program = programs[player]
        stocks = (program.fuel_stock, program.rations_stock, program.people)
        listing = self.rnd_listing
        parts = [listing.reverse_engineering(state, player, blueprints, self._reverse_engineering_refusal),
                 listing.offers(state, player, say)]
        pads = listing.pads(state, player)
        parts.append(pads.disassemble)
        parts.append([track for track in pads.tracks if self.refusal(state, track) is None])
        parts.append(listing.assembles(self.suggested_designs(state, player), pads.taken_names))
        self._kept_after_crew[player] = (state, blueprints.held, say, stocks, parts)
        return parts

    def _sample_offers(self, state: GameState, player: int) -> list[Action]:
        """The few trades listed among the legal actions (any other bundle is as legal when ``refusal`` allows
        it): one point, one dot or the first stored part, each listed only when ``refusal`` allows it."""
        return self.rnd_listing.offers(state, player)

    def suggested_designs(self, state: GameState, player: int) -> list[UpgoerDesign]:
        """A few valid designs from what is in storage (for bots and as a starting point in the UI). Kept per
        program for the very values they are made of: the heaviest two lower stages, the heaviest capsule and
        the first thruster in storage with their designs (from the stored-parts view), the first derp able to
        fly, the number of the program's Upgoers, its fuel, rations and people and the setup. The same
        stored-parts view, derps and Upgoers (a research, a purchase) answer at once; another view with the
        same parts first in line (a build of another part) after comparing those."""
        program = state.programs[player]
        stored = self.rnd_listing.stored(state, player)
        derps, upgoers, setup = state.derps, state.upgoers, state.setup
        stocks = (program.fuel_stock, program.rations_stock, program.people)
        hit = self._suggested.get(player)
        if (hit is not None and hit[0] is stored and hit[1] is derps and hit[2] is upgoers and hit[3] is setup
                and hit[4] == stocks):
            return list(hit[8])
        stages, capsules, thrusters = stored.stages, stored.capsules, stored.by_role.get("thruster", ())
        parts = (stages[0] if stages else None, stages[1] if len(stages) > 1 else None,
                 capsules[0] if capsules else None, thrusters[0] if thrusters else None)
        read = parts + tuple(stored.designs[part.thing_id] if part is not None else None for part in parts)
        if hit is not None and hit[1] is derps:
            crew = hit[6]
        else:
            crew = next((d for d in state.derps_of(player) if d.can_fly and d.location is HOME), None)
        count = hit[7] if hit is not None and hit[2] is upgoers else len(state.upgoers_of(player))
        if (hit is not None and hit[3] is setup and hit[4] == stocks and hit[6] is crew and hit[7] == count
                and all(map(is_, hit[5], read))):
            designs = hit[8]
        else:
            designs = tuple(self.flight_rules.suggested_designs(state, player, stored, crew, count + 1))
        self._suggested[player] = (stored, derps, upgoers, setup, stocks, read, crew, count, designs)
        return list(designs)


def _free_name(taken: set[str], name: str) -> str:
    """``name``, or ``name (2)``, ``name (3)``... the first whose lowered form is not ``taken``."""
    if name.lower() not in taken:
        return name
    n = 2
    while f"{name} ({n})".lower() in taken:
        n += 1
    return f"{name} ({n})"


#: Things tuples up to this long have their blueprints' places kept by ``_research`` (a longer one's are kept with
#: its id index, ``state.place_of``).
_THING_PLACES_KEPT = 32

#: Ratings by (fail, boom): a research or a transfer makes a rating of two small numbers, one kept value each.
_RATINGS: dict[tuple[int, int], Rating] = {}


def _rating(fail: int, boom: int) -> Rating:
    """``Rating(fail, boom)`` (a ValueError when fail is not below boom), the same value each time."""
    rating = _RATINGS.get((fail, boom))
    if rating is None:
        rating = Rating(fail, boom)
        if len(_RATINGS) < 4096:  # safeties stay within the rules' bounds: a few hundred pairs at most
            _RATINGS[fail, boom] = rating
    return rating


# The words of the commonest R&D events, put together only when read (``Event.told``).
def _researched(program: str, thing: str, old: Rating, new: Rating, cost: int) -> str:
    return f"{program} researches {thing}: {old} -> {new} for {counted(cost, 'point')}."


def _invented(program: str, name: str, kind: str, mass: int, cost: int, rating: Rating, note: str) -> str:
    return (f"{program} invents {name}, a {kind.lower()} of mass {mass}, for {counted(cost, 'point')}. "
            f"It starts at {rating}{note}.")


def _built(program: str, count: int, thing: str, items: tuple[Item, ...], cost: int) -> str:
    return f"{program} builds {count} x {thing} ({', '.join(i.id for i in items)}) for {counted(cost, 'point')}."


def _rolled_out(program: str, upgoer: str, total_mass: Fraction, crew: int, systems: int) -> str:
    return (f"{program} rolls {upgoer} out to the pad: total mass {_fmt(total_mass)}, {counted(crew, 'derp')}"
            + (f" and {counted(systems, 'underped system')}" if systems else "") + " aboard.")


def _taken_apart(upgoer: str) -> str:
    return f"{upgoer} is taken apart; its parts go back to storage."


def _bought(program: str, what: str, cost: int) -> str:
    return f"{program} buys {what} for {counted(cost, 'point')}."


def _finished_rnd(program: str, points: int) -> str:
    return f"{program} finishes R&D with {counted(points, 'point')} saved."


def _hired(program: str, name: str, piloting: int, engineering: int, stamina: int) -> str:
    return f"{program} hires {name} ({piloting}/{engineering}/{stamina}), ready to fly today."


def _trained(derp: str, skill: str, level: int) -> str:
    return f"{derp} trains {skill} to {level} and stays on the ground this turn."


def _healed(derp: str, stamina: int) -> str:
    return f"{derp} is healed, back at {stamina} stamina, and rests on the ground this turn."


def _declined(partner: str) -> str:
    return f"{partner} declines the trade."


def _bundle_words(bundle: TradeBundle, names: tuple[str, ...]) -> str:
    parts = [counted(amount, noun) for noun, amount in (("point", bundle.points), ("dot", bundle.dots),
             ("fuel", bundle.fuel), ("derp-turn of rations", bundle.rations)) if amount]
    parts += names
    return ", ".join(parts) if parts else "nothing"


def _offered(program: str, partner: str, give: TradeBundle, give_names: tuple[str, ...], take: TradeBundle,
             take_names: tuple[str, ...]) -> str:
    return (f"{program} offers {partner} a trade: {_bundle_words(give, give_names)} for "
            f"{_bundle_words(take, take_names)}.")


def _accepted(partner: str, proposer: str, give: TradeBundle, take: TradeBundle) -> str:
    return (f"{partner} accepts: {proposer} hands over {Engine.describe_bundle_after(give)}, "
            f"and receives {Engine.describe_bundle_after(take)}.")


def _turn_report(turn: int, program: str, entries: tuple[DotEntry, ...], before: int, raw: int, dots: int) -> str:
    """A program's end-of-turn budget report: each change, the budget before and after, and a clamp."""
    lines = "; ".join(f"{e.reason} {e.dots:+d}" for e in entries) or "no changes"
    clamp = f" (held at the {'floor' if dots > raw else 'ceiling'} of {dots})" if dots != raw else ""
    return f"End of turn {turn}, {program}: {lines}. Budget {before} -> {dots}{clamp}."


def _turn_begins(turn: int) -> str:
    return f"Turn {turn} begins: each program gets points equal to its budget dots."


def _fmt(value: Fraction) -> str:
    value = Fraction(value)
    return str(value.numerator) if value.denominator == 1 else f"{float(value):g}"
