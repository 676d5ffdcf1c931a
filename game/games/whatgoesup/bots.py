"""Bots that play through the engine's legal actions only, each from its own seeded stream.

``RandomBot`` (in game.games.whatgoesup.sim) picks uniformly and is the invariant tester's workhorse; ``LandingBot``
(game.games.whatgoesup.landing_bot) is random play weighted towards landings. ``SpaceProgramBot`` in a
most-dots game plays like a cautious newcomer: it invents a small lower stage, capsule and thruster,
researches them, builds a crewed craft, flies it to orbit and brings it home, and now and then tries
something at random so that the rest of the rules get exercised too. With a goal it plays a careful plan
for every program, without the random experiments: in Stop The Rock the plan of
``game.games.whatgoesup.rock_plan`` (the one tests/golden/make_rock_win.py measures the difficulties with), for a
victory condition the plan ``plan_for_victory`` names (``moon_plan``, ``orbit_plans``). Any action a plan
proposes that the engine refuses is replaced by a legal one.
"""
from __future__ import annotations

from itertools import chain, compress
from operator import is_not
from typing import Optional

from game.core.dice_rng import Chooser
from game.games.whatgoesup.careful_play import burns_along
from game.games.whatgoesup.moon_plan import MoonPlan
from game.games.whatgoesup.orbit_plans import AllSeeingEyePlan, AllYourBasePlan
from game.games.whatgoesup.rock_plan import RockPlan
from game.games.whatgoesup.rules.actions import (Action, AnswerTrade, Assemble, BuyConsumables, Disassemble, EndRnD,
                                Hire, Invent)
from game.games.whatgoesup.rules.engine import Engine
from game.games.whatgoesup.rules.flight_actions import (AcceptRoll, ChooseConsequence, Coast, Dock, EndActivities, Hold,
                                       KeepRoll, Launch, Move, RepelDocking, Shed, StartFight, UseLuck, WriteOff)
from game.games.whatgoesup.rules.flight.ship_combat import OpenFire, ShipCeasefire, ShipFightOn, ShipFire, TakeHit
from game.games.whatgoesup.rules.reliability import Outcome, Rating
from game.games.whatgoesup.rules.rnd_listing import changed_since
from game.games.whatgoesup.rules.state import HOME, GameState, UpgoerDesign, researched_since
from game.games.whatgoesup.rules.underped_actions import PowerUp, Program, SelfDestruct, WriteOrders

# The craft it works towards: a capsule carrying one derp and a turn of rations, a small thruster for
# the deorbit burn, two fuel, and a launch stage made of two insertion stages. With the underped rules
# about half the programs fly an underped system instead of a derp (ROBOT_PLAN, no rations).
PLAN = {"lower_stage": 8, "capsule": 3, "thruster": 1}
ROBOT_PLAN = {**PLAN, "underped": 1}
ROBOT_STAMINA = 4  # programmed up to this: two burns and a spare for powering up again
FUEL, RATIONS = 2, 2
GOOD_ENOUGH = Rating(15, 18)  # what it wants before trusting a crew to a part (tests lift the caps)
STAGES = (2, 1)  # lower stages in the launch cluster and the insertion cluster
# Space War, a raider: about half its programs (a coin, once) arm every craft with a weapon payload, a
# Waylight (a laser) or a probe (a missile) by ship_combat.yaml. It rides in the cabin, so a crewed craft
# needs a capsule carrying three (derp, rations, weapon) and lower stages lifting the spacecraft's 10.
ARMED_PLAN = {"lower_stage": 10, "capsule": 4, "thruster": 1}
WEAPONS = ("waylight", "probe")
ARMED_SHARE = 0.5
MAX_HOLDS = 3  # turns an armed craft stays on the pad waiting for a rival craft to launch with it
_THROWS_AWAY = frozenset((WriteOff, Shed, Disassemble))  # what a random pick avoids when it can
# Things tuples up to this long are compared place by place (at C speed) to find what changed: quicker than
# following replace_in's record back, which pays off only for the long tuples of long games.
_COMPARED = 32
# How many noted changes of the things (``state.researched_since``) the plan's blueprints follow back: the other
# program's R&D actions come between two of a program's choices.
_NOTED_STEPS = 8
# A trade's answer: accepted one time in three. This and the other actions without a field the bot names are one
# value each, as the listings hand out theirs: the invariant checks read an action object back from its save form
# once.
_ANSWERS = (AnswerTrade(True), AnswerTrade(False), AnswerTrade(False))
_END_RND, _HIRE = EndRnD(), Hire()
_NO_PLAN = object()  # goal_plan's mark of a victory not looked at yet (None: looked at, no plan)


def plan_for_victory(engine: Engine, victory_id: str, program: int):
    """The careful plan a program follows for a victory condition, or None (most dots: no plan)."""
    victory = engine.rules.scenarios.victory(victory_id)
    if victory.kind in ("walk_and_return", "find_temple"):
        return MoonPlan(engine, program, victory)
    if victory.kind == "hold_locations":
        return AllYourBasePlan(engine, program, victory)
    if victory.kind == "map_and_return":
        return AllSeeingEyePlan(engine, program, victory)
    return None


class SpaceProgramBot:
    """Plays a space program. ``aggression`` (0 to 1) is how often, under Space War, it docks with a rival craft
    or starts a fight whenever it can (and an armed craft opens fire); a bot with any aggression also arms
    about half its programs' craft with a weapon. The default bot is 0: it starts nothing, arms nothing, but
    always defends."""

    def __init__(self, seed: int, explore: float = 0.08, aggression: float = 0.0):
        self.chooser = Chooser(seed)
        self.explore = explore
        self.aggression = aggression
        self._plans: dict = {}
        self._robotic: dict[int, bool] = {}
        self._weapon: dict[int, Optional[str]] = {}
        self._holds: dict[str, int] = {}  # armed craft id -> turns it has stayed on the pad
        self._approved: tuple = (None, None)  # (state, action): the last action ``_ok`` allowed, and where
        self._parts_memo: dict[int, _PlanParts] = {}  # program -> its plan's blueprints and their targets
        self._armed_plans: dict = {}  # (id of a plan, weapon) -> (that plan, it with the weapon added)
        self._stored_memo: dict = {}  # program -> (state.items, key, parts at home by kind)
        self._outlines: dict[int, _Outline] = {}  # program -> what its craft is made of, for one setup
        self._last_goal: tuple = (None, None, None, None)  # (setup, engine, program, goal_plan's answer)
        self._last_rock: tuple = (None, None, None)  # (engine, program, its RockPlan): the one last played

    # ------------------------------------------------------------------ the entry point
    def choose(self, engine: Engine, state: GameState) -> Action:
        player = engine.current_player(state)
        if state.pending_trade is not None:
            return self.chooser.choice(_ANSWERS)
        if state.rock is not None:
            return self._rock(engine, state, player)
        last = self._last_goal  # goal_plan's kept answer, read here without the call
        plan = last[3] if last[0] is state.setup and last[1] is engine and last[2] == player \
            else self.goal_plan(engine, state, player)
        if plan is not None:
            return self._planned(engine, state, plan)
        if state.phase == "flight":
            action = self._flight(engine, state)
        else:  # the plan's next R&D step; None (a random legal action) when it cannot afford one
            outline = self._outlines.get(player)
            if outline is None or outline.setup is not state.setup:
                outline = self._outline(state, player)
            action = self._rnd_step(engine, state, player, outline)
            if action is None and outline.weapon is not None:
                action = _END_RND  # an armed program saves its points: its dearer craft otherwise never comes together
        if action is None:
            return self._any_legal(engine, state)
        approved = self._approved  # an action ``_ok`` has just allowed is not asked about again
        if not (approved[0] is state and approved[1] is action) and not engine.allowed(state, action) \
                or self.chooser.below(1000) < self.explore * 1000:  # ``_roll(self.explore)``, without the call
            return self._any_legal(engine, state)
        return action

    def goal_plan(self, engine: Engine, state: GameState, player: int):
        """The careful plan for this game's victory condition (None for most dots), one per program (the last
        answer is kept for its setup, engine and program)."""
        last = self._last_goal
        if last[0] is state.setup and last[1] is engine and last[2] == player:
            return last[3]
        key = (engine, state.setup.victory, player)
        plan = self._plans.get(key, _NO_PLAN)
        if plan is _NO_PLAN:
            plan = self._plans[key] = plan_for_victory(engine, state.setup.victory, player)
        self._last_goal = (state.setup, engine, player, plan)
        return plan

    def _rock(self, engine: Engine, state: GameState, player: int) -> Action:
        """Stop The Rock: the careful plan for the program that acts; a legal action whatever happens."""
        last = self._last_rock
        if last[0] is engine and last[1] == player:
            return self._planned(engine, state, last[2])
        key = (engine, "stop_the_rock", player)
        if key not in self._plans:
            self._plans[key] = RockPlan(engine, player)
        self._last_rock = (engine, player, self._plans[key])
        return self._planned(engine, state, self._plans[key])

    def _planned(self, engine: Engine, state: GameState, plan) -> Action:
        """The plan's action, or a legal one chosen at random when it has none (a timing tie) or is refused."""
        action: Optional[Action] = None
        if not (state.phase == "flight" and state.flight.timing_tie):
            action = plan.choose(state)
        if action is None or not plan.approved(state, action) and not engine.allowed(state, action):
            return self._any_legal(engine, state)
        return action

    def _any_legal(self, engine: Engine, state: GameState) -> Action:
        """A legal action chosen at random, preferring any that throws nothing away (R&D's families kept or left
        out whole, then joined: the same list as the legal actions filtered)."""
        families = engine.legal_families(state)
        safe = families.without(_THROWS_AWAY).joined()
        return self.chooser.choice(safe or families.joined())

    def _ok(self, engine: Engine, state: GameState, action: Action) -> bool:
        """Whether the engine allows ``action`` now; an allowed one is remembered, so ``choose`` need not ask
        again about the action it is about to return."""
        if not engine.allowed(state, action):
            return False
        self._approved = (state, action)
        return True

    def _roll(self, p: float) -> bool:
        """True with chance ``p``: one draw from the bot's stream, in thousandths."""
        return self.chooser.below(1000) < p * 1000

    # ------------------------------------------------------------------ R&D
    @staticmethod
    def plan(state: GameState):
        """What to build: the orbital hop (parts by kind and mass, fuel, rations, stages, payload kinds)."""
        return PLAN, FUEL, RATIONS, STAGES, ()

    def robotic(self, state: GameState, player: int) -> bool:
        """Whether this program flies underped systems (decided once, by a coin, when the rule is on)."""
        if "underped" not in state.setup.options:
            return False
        if player not in self._robotic:
            self._robotic[player] = self._roll(0.5)
        return self._robotic[player]

    def weapon(self, state: GameState, player: int) -> Optional[str]:
        """The weapon payload (a kind) this program's craft carry, or None: decided once, by coins, for an
        aggressive bot under Space War (the default bot never rolls for it, so its play is unchanged)."""
        if not self.aggression or "space_war" not in state.setup.options:
            return None
        if player not in self._weapon:
            self._weapon[player] = self.chooser.choice(WEAPONS) if self._roll(ARMED_SHARE) else None
        return self._weapon[player]

    def _outline(self, state: GameState, player: int) -> "_Outline":
        """What the program's craft is made of (``plan`` with this program's coins: robotic, armed), worked out
        once per program and setup: its coins are tossed at the first ask, in this order, and kept."""
        outline = self._outlines.get(player)
        if outline is not None and outline.setup is state.setup:
            return outline
        plan, fuel, rations, stage_counts, payloads = self.plan(state)
        robotic = self.robotic(state, player)
        if robotic:
            plan, rations = ROBOT_PLAN, 0
        weapon = self.weapon(state, player)
        if weapon is not None:  # an underped craft has room for it in the small capsule (no derp, no rations)
            plan, payloads = self._armed_plan(plan if robotic else ARMED_PLAN, weapon), payloads + (weapon,)
        wanted = (("lower_stage", sum(stage_counts)), ("capsule", 1), ("thruster", 1)) + tuple((k, 1) for k in payloads)
        wanted += (("underped", 1),) if robotic else ()
        outline = self._outlines[player] = _Outline(state.setup, plan, fuel, rations, stage_counts, payloads,
                                                    robotic, weapon, wanted)
        return outline

    def _rnd_step(self, engine: Engine, state: GameState, player: int, outline: "_Outline") -> Optional[Action]:
        """The plan's next R&D step for ``outline``, or None when it cannot afford one."""
        plan, robotic, weapon = outline.plan, outline.robotic, outline.weapon
        memo = self._parts_memo.get(player)  # ``_plan_things`` kept or carried over research, without the call
        if memo is not None and memo.plan is plan and memo.engine is engine and memo.setup is state.setup \
                and (memo.pool is state.things or memo.carried_over_research(state.things)):
            things, targets = memo.things, memo.targets
        else:
            things, targets = self._plan_things(engine, state, player, plan, weapon is not None)
        if len(things) < len(plan):
            for kind, mass in plan.items():
                if kind not in things:
                    return self._first_ok(engine, state, [Invent(kind, mass)])
        for kind in plan:
            thing, target = things[kind], targets[kind]
            rating = thing.rating
            boom, fail = rating.boom < target.boom, rating.fail < target.fail
            if boom or fail:  # one step of Boom (when ``boom``) or else of Fail, as ``engine.offered`` hands it out
                fail_step, boom_step, _ = engine.offered(state, thing)  # (exactly what ``allowed`` says of it)
                step = boom_step if boom and boom_step is not None else fail_step if fail else None
                if step is not None:
                    self._approved = (state, step)
                    return step
        stored = self._stored(state, player, things if weapon is not None else None)
        for kind, needed in outline.wanted:
            if len(stored.get(kind, [])) < needed:
                build = engine.offered(state, things[kind])[2]  # the listing's own Build, when allowed now
                if build is not None:
                    self._approved = (state, build)
                return build
        if weapon is not None:  # an armed program clears a craft that can never launch (its stage lost) off the pad
            for upgoer in state.upgoers_of(player):
                if upgoer.status == "pad" and not upgoer.stages:
                    action = self._first_ok(engine, state, [Disassemble(upgoer.id)])
                    if action:
                        return action
        # Parts that have never worked in flight cannot be researched far: test them without a crew first.
        untested = [k for k in ("lower_stage", "capsule") if not things[k].flown_successfully]
        on_pad = any(u.status == "pad" for u in state.upgoers_of(player))
        if untested and not on_pad:
            test = UpgoerDesign(f"Test {len(state.upgoers_of(player)) + 1}", stages=((stored["lower_stage"][0],),),
                                modules=(stored["capsule"][0],))
            return self._first_ok(engine, state, [Assemble(test)]) or _END_RND
        if untested:
            return _END_RND
        crew = [d for d in state.derps_of(player) if d.can_fly and d.location is HOME and not d.is_system]
        if robotic:
            action = self._robot_rnd(engine, state, player)
            if action is not None:
                return action
        elif not crew:
            return self._first_ok(engine, state, [_HIRE])
        program, fuel, rations, payloads = state.programs[player], outline.fuel, outline.rations, outline.payloads
        if program.fuel_stock < fuel:
            return self._first_ok(engine, state, [BuyConsumables("fuel", fuel - program.fuel_stock)])
        if program.rations_stock < rations:
            return self._first_ok(engine, state, [BuyConsumables("rations", 1)])
        ready = all(things[k].rating.fail >= targets[k].fail for k in plan)
        if ready and not on_pad:
            stages = stored["lower_stage"]
            launch, insertion = outline.stage_counts
            name = f"{engine.default_name(state, player, 'capsule').split()[0]} {len(state.upgoers_of(player)) + 1}"
            modules = (stored["capsule"][0], stored["thruster"][0]) + tuple(stored[k][0] for k in payloads)
            modules += (stored["underped"][0],) if robotic else ()
            design = UpgoerDesign(name, stages=(tuple(stages[:launch]), tuple(stages[launch:launch + insertion])),
                                  modules=modules, crew=() if robotic else (crew[0].id,), fuel=fuel, rations=rations)
            return self._first_ok(engine, state, [Assemble(design)])
        return _END_RND

    def _armed_plan(self, plan: dict, weapon: str) -> dict:
        """``plan`` with one weapon payload added (the same dict each time, so what is kept per plan holds)."""
        key = (id(plan), weapon)
        kept = self._armed_plans.get(key)
        if kept is None or kept[0] is not plan:  # the plan is held with its answer, so its id is never reused
            kept = self._armed_plans[key] = (plan, {**plan, weapon: 1})
        return kept[1]

    def _plan_things(self, engine: Engine, state: GameState, player: int, plan: dict,
                     armed: bool) -> tuple[dict, dict]:
        """The program's blueprints that fit the plan (kind -> the last such blueprint; for an armed program
        the first that is not reusable) and how far research should take each (kind -> the rating it wants,
        within the research cap). Kept per program: after research or a flight, which replace blueprints in
        place without changing what they are, only the replaced ones are read again; after an invention or a
        copy, which add blueprints after the others, only the added ones."""
        memo = self._parts_memo.get(player)
        if memo is None or memo.plan is not plan or memo.engine is not engine or memo.setup is not state.setup:
            memo = None
        elif memo.pool is state.things:
            return memo.things, memo.targets
        elif len(memo.pool) <= len(state.things):
            memo = memo.carried_over(engine, state, player)
        else:
            memo = None  # fewer blueprints (another line of play): choose again from the start
        if memo is None:
            memo = _PlanParts.chosen(engine, state, player, plan, armed)
        self._parts_memo[player] = memo
        return memo.things, memo.targets

    def _stored(self, state: GameState, player: int, only: Optional[dict]) -> dict[str, tuple[str, ...]]:
        """The ids of the program's built parts at home by kind, in state order; with ``only`` (kind ->
        blueprint), a kind listed there counts only the parts of that blueprint. Kept per tuple of items: a
        blueprint's kind never changes (research and flights replace a blueprint only by one of the same kind),
        so what the items give stands while they do; and carried over items that only grew (a build adds its
        parts after the others), whose added ones are read."""
        key = None if only is None else tuple((k, t.id) for k, t in only.items())
        items = state.items
        memo = self._stored_memo.get(player)
        if memo is not None and memo[1] == key:
            old, stored = memo[0], memo[2]
            if old is items:
                return stored
            if len(items) > len(old) and not changed_since(old, items):
                added = [i for i in items[len(old):] if i.owner == player and i.location is HOME]
                stored = _by_kind(state, added, only, stored)
                self._stored_memo[player] = (items, key, stored)
                return stored
        stored = _by_kind(state, state.items_of(player), only, {})
        self._stored_memo[player] = (items, key, stored)
        return stored

    def _robot_rnd(self, engine: Engine, state: GameState, player: int) -> Optional[Action]:
        """An underped program: programs its systems up to ROBOT_STAMINA (also on the pad, at the last minute)
        and, with clockwork, writes the hop's one burn (back to reentry) for a craft on the pad."""
        for system in state.derps_of(player):
            if system.is_system and system.stamina < ROBOT_STAMINA:
                action = self._first_ok(engine, state, [Program(system.id, 1)])
                if action:
                    return action
        if "underped_clockwork" in state.setup.options:
            reentry = next(s.id for s in engine.rules.board.steps if s.kind == "reentry")
            for upgoer in state.upgoers_of(player):
                if upgoer.status == "pad" and not upgoer.orders:
                    action = self._first_ok(engine, state, [WriteOrders(upgoer.id, (reentry,))])
                    if action:
                        return action
        return None

    def _first_ok(self, engine: Engine, state: GameState, actions: list[Action]) -> Optional[Action]:
        for action in actions:
            if self._ok(engine, state, action):
                return action
        return None

    # ------------------------------------------------------------------ flights
    def _flight(self, engine: Engine, state: GameState) -> Optional[Action]:
        f = state.flight
        if f.timing_tie:
            return None
        if f.roll is not None:
            roll = f.roll
            if roll.previous is not None:
                return KeepRoll(new=roll.value <= roll.previous)
            outcome = roll.outcome()
            best, spends = engine.flight_rules.best_help(state, roll)
            if spends and best is not outcome:
                self._approved = (state, spends[0])  # best_help names only spends the engine allows now
                return spends[0]  # skills save the roll (or at least its Boom): the fewest spends that do
            if outcome is Outcome.BOOM:
                luck = UseLuck()
                if self._ok(engine, state, luck):
                    return luck
            return AcceptRoll()
        if getattr(f, "ship_fight", None) is not None:
            return self._ship_fight(engine, state)
        if f.choice is not None:
            return ChooseConsequence(f.choice.options[0])
        if f.boarding is not None or f.fight is not None:
            return self._defend(engine, state)
        upgoer = state.upgoer(f.active)
        if self.aggression and f.mode in ("before", "after"):
            raid = self._raid(engine, state)
            if raid is not None:
                return raid
        if f.mode == "decide":
            if self._waits_for_company(engine, state, upgoer):
                return Hold(upgoer.id)
            launch = Launch(upgoer.id)  # a craft with no lower stage left cannot launch: not asked
            return launch if upgoer.stages and self._ok(engine, state, launch) else Hold(upgoer.id)
        if f.mode == "junction":
            return self._junction(engine, state, upgoer)
        if f.mode == "before":
            for system in engine.flight_rules._systems(state, upgoer):  # a system that failed to power up
                if system.powered_down:
                    power_up = PowerUp(system.id)
                    if self._ok(engine, state, power_up):
                        return power_up
            return Move(upgoer.id)
        if f.mode == "after":
            self_destruct = SelfDestruct(upgoer.id)
            if self._ok(engine, state, self_destruct) and self._roll(0.5):
                return self_destruct  # spent systems: now and then rather than drift stranded
            return EndActivities(upgoer.id)
        return None

    def _waits_for_company(self, engine: Engine, state: GameState, upgoer) -> bool:
        """Space War, an armed craft about to launch: stay on the pad (at most MAX_HOLDS turns) until a rival
        craft launches this turn too, so that both reach orbit together and it has someone to shoot at."""
        if self.weapon(state, upgoer.owner) is None or not engine.allowed(state, Hold(upgoer.id)):
            return False
        if not any(s.plays == "weapon" for _, s in engine.flight_rules.ship_systems(state, upgoer)):
            return False
        f = state.flight
        company = [u for u in state.upgoers if u.owner != upgoer.owner
                   and (u.id in f.launched or u.id in f.queue and u.status == "pad")]
        held = self._holds.get(upgoer.id, 0)
        if company or held >= MAX_HOLDS:
            return False
        self._holds[upgoer.id] = held + 1
        return True

    def _raid(self, engine: Engine, state: GameState) -> Optional[Action]:
        """Space War, an aggressive bot: an armed craft opens fire on a rival craft here whenever it can; else a
        fight of derps or a docking with a rival craft here, now and then."""
        legal = engine.legal_actions(state)
        fire = [a for a in legal if isinstance(a, OpenFire)]
        if fire:
            return self.chooser.choice(fire)
        rivals = {u.id for u in state.upgoers if u.owner != engine.current_player(state)}
        hostile = [a for a in legal if isinstance(a, StartFight) or isinstance(a, Dock) and a.target in rivals]
        if hostile and self._roll(self.aggression):
            return self.chooser.choice(hostile)
        return None

    @staticmethod
    def _defend(engine: Engine, state: GameState) -> Action:
        """Space War: push every docking off while an RCS lasts; in a fight, go for the first enemy listed.
        The bot starts no hostilities itself (only its rare exploring move may)."""
        legal = engine.legal_actions(state)
        return next((a for a in legal if isinstance(a, RepelDocking)), legal[0])

    @staticmethod
    def _ship_fight(engine: Engine, state: GameState) -> Optional[Action]:
        """In a ship fight: fire everything of the first weapon ready; take hits on armor, then on the part
        least hit, the capsule last (its Boom takes the craft); between rounds fight on while a weapon is
        ready, else offer a ceasefire."""
        legal = engine.legal_actions(state)
        if ShipFightOn() in legal:
            fight, rules = state.flight.ship_fight, engine.flight_rules
            side = fight.sides[fight.order[fight.position]]
            armed = rules._working(state, state.upgoer(side.upgoer), side, "weapon")
            return ShipFightOn() if armed else ShipCeasefire()
        hits = [a for a in legal if isinstance(a, TakeHit)]
        if hits:
            fight, rules = state.flight.ship_fight, engine.flight_rules
            side = fight.sides[fight.hits_side]
            plays = dict(rules.ship_systems(state, state.upgoer(side.upgoer)))

            def cost(a: TakeHit) -> tuple:
                return (plays[a.item].plays != "armor", engine.flight_rules._kind(state, state.item(a.item)) == "capsule",
                        side.hits_on(a.item))
            return min(hits, key=cost)
        fire = [a for a in legal if isinstance(a, ShipFire)]
        return fire[0] if fire else (legal[-1] if legal else None)

    def _junction(self, engine: Engine, state: GameState, upgoer) -> Action:
        """Most dots: every flight is a hop, so at a junction the craft burns for home when it can."""
        board = engine.rules.board
        here = board.step(upgoer.location)
        wanted: list = []
        for b in board.burns_from(upgoer.location, state.setup.scenario):
            step = board.step(b.to)
            leads_low = step.next is not None and board.step(step.next).orbit_type == "low"
            if step.kind == "reentry" or here.kind == "surface":
                wanted.append(b)
            elif step.kind == "transit" and (leads_low or step.rail == "return_transit"):
                wanted.append(b)
        for b in wanted:
            for action in burns_along(board, b):
                if self._ok(engine, state, action):
                    return action
        return Coast()


class _Outline:
    """What one program's craft is made of, for one setup: the plan (kind -> mass), fuel, rations, the lower
    stages of each cluster, payload kinds, its coins (robotic, the weapon or None) and the parts it builds
    (kind, how many)."""

    __slots__ = ("setup", "plan", "fuel", "rations", "stage_counts", "payloads", "robotic", "weapon", "wanted")

    def __init__(self, setup, plan, fuel, rations, stage_counts, payloads, robotic, weapon, wanted):
        self.setup, self.plan, self.fuel, self.rations = setup, plan, fuel, rations
        self.stage_counts, self.payloads, self.robotic, self.weapon, self.wanted = (stage_counts, payloads, robotic,
                                                                                   weapon, wanted)


class _PlanParts:
    """A program's blueprints that fit its plan (kind -> blueprint), their places in ``pool`` (the state's
    things they were read from) and how far research should take each (kind -> GOOD_ENOUGH within the
    blueprint's research cap)."""

    __slots__ = ("pool", "plan", "engine", "setup", "things", "places", "targets", "kind_at", "kind_of_id")

    def __init__(self, pool, plan, engine, setup, things, places, targets):
        self.pool, self.plan, self.engine, self.setup = pool, plan, engine, setup
        self.things, self.places, self.targets = things, places, targets
        self.kind_at = {place: kind for kind, place in places.items()}  # place -> the planned kind there
        self.kind_of_id = {thing.id: kind for kind, thing in things.items()}  # blueprint id -> the planned kind

    @classmethod
    def chosen(cls, engine: Engine, state: GameState, player: int, plan: dict, armed: bool) -> "_PlanParts":
        """Read from the state: for each kind of the plan, the last of the program's blueprints of that kind
        and mass (an armed program: the first that is not reusable)."""
        things: dict = {}
        places: dict = {}
        for place, t in enumerate(state.things):
            if t.owner == player and t.kind in plan and t.base_mass == plan[t.kind] \
                    and not (armed and (t.reusable or t.kind in things)):
                things[t.kind], places[t.kind] = t, place
        targets = {kind: _target(engine, state, thing) for kind, thing in things.items()}
        return cls(state.things, plan, engine, state.setup, things, places, targets)

    def carried_over_research(self, pool: tuple) -> bool:
        """Whether the same choice was carried over to the things tuple ``pool`` because the engine noted that only
        research made it from ``self.pool`` (``state.researched_since``: every other blueprint the very same value
        in its place, none added): only the researched ones of the plan are read again, and their targets stand,
        since research changes a rating and this turn's steps, not what a blueprint is nor its flight record.
        False (nothing changed here) when that is not known."""
        old = self.pool
        if len(pool) != len(old):
            return False
        researched = researched_since(pool, old, _NOTED_STEPS)
        if researched is None:
            return False
        kind_of_id, things = self.kind_of_id, None
        for thing_id in researched:
            kind = kind_of_id.get(thing_id)
            if kind is not None:
                if things is None:
                    things = dict(self.things)
                things[kind] = pool[self.places[kind]]
        self.pool = pool
        if things is not None:
            self.things = things
        return True

    def carried_over(self, engine: Engine, state: GameState, player: int) -> Optional["_PlanParts"]:
        """The same choice in ``state``, whose things are at least as many as ``pool``'s, or None (then the choice
        is made again). In play the engine only adds blueprints after the others (an invention, a copy) or
        replaces one in place by the same blueprint researched or flown, but states of another line of play (an
        undo, then a trade that hands the program a copy where the first line had someone else's invention) may
        hold other blueprints in the same places. So only the places that changed (compared in a short tuple;
        else read from replace_in's record, else compared) and those added are looked at: None when one that is
        not the plan's holds one of the program's blueprints of a planned kind, or when one of the plan's holds
        another blueprint; else a replaced one is read again, and its target too when its flight record changed
        (it moves the research cap)."""
        pool, old, kind_at = state.things, self.pool, self.kind_at
        changed = (compress(range(len(old)), map(is_not, pool, old)) if len(old) <= _COMPARED
                   else changed_since(old, pool))
        if len(pool) > len(old):
            changed = chain(changed, range(len(old), len(pool)))
        things = targets = None
        for place in changed:
            new = pool[place]
            kind = kind_at.get(place)
            if kind is None:
                if new.owner == player and new.kind in self.plan:
                    return None
                continue
            was = self.things[kind]
            if new.id != was.id or new.owner != was.owner or new.kind != was.kind \
                    or new.base_mass != was.base_mass or new.reusable != was.reusable:
                return None
            if things is None:
                things, targets = dict(self.things), dict(self.targets)
            things[kind] = new
            if new.flown != was.flown or new.flown_successfully != was.flown_successfully:
                targets[kind] = _target(engine, state, new)
        self.pool = pool
        if things is not None:
            self.things, self.targets = things, targets
        return self


def _by_kind(state: GameState, items, only: Optional[dict], stored: dict) -> dict[str, tuple[str, ...]]:
    """``stored`` (kind -> ids of parts) with the ids of ``items`` added after those of their kind, in order;
    with ``only`` (kind -> blueprint), a kind listed there takes only the parts of that blueprint."""
    found: dict[str, list[str]] = {}
    for item in items:
        kind = state.thing(item.thing_id).kind
        if only is not None and kind in only and item.thing_id != only[kind].id:
            continue  # an armed craft is heavy: only the plan's own parts lift and carry it
        found.setdefault(kind, []).append(item.id)
    if not found:
        return stored
    stored = dict(stored)
    for kind, ids in found.items():
        stored[kind] = stored.get(kind, ()) + tuple(ids)
    return stored


def _target(engine: Engine, state: GameState, thing) -> Rating:
    """How far research should take ``thing``: GOOD_ENOUGH within its research cap (which reads the game's
    options, the blueprint's kind and whether it has flown, and flown successfully)."""
    cap = engine.research_cap(state, thing)
    target = _TARGETS.get(cap)
    if target is None:
        target = _TARGETS[cap] = Rating(min(cap.fail, GOOD_ENOUGH.fail), min(cap.boom, GOOD_ENOUGH.boom))
    return target


#: cap -> GOOD_ENOUGH within it (ratings are values; the rules have a few caps)
_TARGETS: dict[Rating, Rating] = {}

