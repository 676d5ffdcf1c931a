"""What every careful plan shares: finding its parts by name, research towards a target, training, and
the answers to a roll (skills only when they save it, luck on what matters).

``RockPlan`` (Stop The Rock) and the goal plans of ``goal_plan`` build on ``CarefulPlayer``. A plan reads
everything from the state (nothing is remembered between calls: what it looks up is kept only for the very
tuples of the state it came from) and proposes actions; the caller checks them with ``engine.allowed``
(exactly ``engine.refusal`` is None, asked without a reason), so only a legal action is ever played
(``approved`` tells it which one the plan has just checked itself).
"""
from __future__ import annotations

from game.games.whatgoesup.rules.actions import Action, Research, Train
from game.games.whatgoesup.rules.flight_actions import AcceptRoll, Burn, KeepRoll, UseLuck
from game.games.whatgoesup.rules.reliability import Outcome, Rating
from game.games.whatgoesup.rules.state import HOME, GameState

SKILLS = (("engineering", 3), ("piloting", 3), ("stamina", 1))  # a trained derp: 3/3/3
_NEEDS: dict = {}  # skills -> ((skill, the level a derp has when it has the points), ...): Stamina counts from 2


def burns_along(board, burn) -> tuple[Burn, ...]:
    """The burns a bot tries along ``burn`` (a burn of the board), by thrusters and then by RCS; the RCS one only
    where the board lets RCS make it (``Board.rcs_can_make``, which the engine's check asks too): elsewhere
    the engine refuses it, so it is not asked."""
    if board.rcs_can_make(burn):
        return Burn(burn.to), Burn(burn.to, rcs=True)
    return (Burn(burn.to),)


class CarefulPlayer:
    """The shared habits of one program's (``program``) careful plan."""

    def __init__(self, engine, program: int):
        self.engine = engine
        self.program_index = program
        self._approved: tuple = (None, None)  # (state, action): the last action ``ok`` allowed, and where
        self._parts: tuple = (None, {})  # (state.things, name -> blueprint) of the last blueprints looked at
        self._stores: tuple = (None, None, {})  # (state.items, state.things, name -> ids of parts at home)
        self._stored_by_thing: dict = {}  # blueprint id -> ids of parts at home, for the items tuple in _stores
        self._trains: dict = {}  # skills -> (state.derps, the Train actions ``train`` proposes for them)
        self._derps: tuple = (None, ())  # (state.derps, the program's living derps)
        self._home: tuple = (None, ())  # (state.derps, those of them at home)
        self._crafts: tuple = (None, {})  # (state.upgoers, name -> the program's craft of that name)
        self._caps: dict = {}  # blueprint id -> (the blueprint last asked about, setup, its research cap)
        self._steps: dict = {}  # blueprint id -> (boom step wanted, fail step wanted) -> those one-step researches
        self._towards: dict = {}  # id(blueprint) -> (blueprint, target, setup, the steps proposed, their price)
        self._offer: tuple = (None, (), 0)  # (state, the steps research_towards last proposed there, their price)
        self._granted: tuple = (None, None)  # (state, the Build that Engine.offered last handed out there)

    def ok(self, state: GameState, action: Action) -> bool:
        """Whether the engine allows ``action`` now (exactly ``engine.allowed``); an allowed one is remembered
        (``approved``). A research step that ``research_towards`` has just proposed in this very state is
        answered as ``Engine.can_research`` would, from the same listing row it was proposed by: the step is in
        the row, so it is allowed when it is this program's R&D turn, no trade waits and the points pay for it.
        A build that ``build`` has just had from ``Engine.offered`` in this very state is allowed."""
        offer = self._offer
        if offer[0] is state and type(action) is Research and action in offer[1]:
            if not (state.phase == "rnd" and state.pending_trade is None
                    and offer[2] <= state.programs[self.program_index].points
                    and self.engine.current_player(state) == self.program_index):
                return False
        elif self._granted[1] is action and self._granted[0] is state:
            pass  # the engine has just offered it (``build``)
        elif not self.engine.allowed(state, action):
            return False
        self._approved = (state, action)
        return True

    def approved(self, state: GameState, action: Action) -> bool:
        """Whether ``ok`` has just allowed this very action in this very state (no need to ask again)."""
        return self._approved[0] is state and self._approved[1] is action

    # ------------------------------------------------------------------ what the program has
    def thing(self, state: GameState, name: str):
        """The program's (first) blueprint called ``name``, or None."""
        return self.blueprints(state).get(name)

    def blueprints(self, state: GameState) -> dict:
        """The program's blueprints by name (the first of a name), read once per things tuple; not to be changed."""
        things, by_name = self._parts
        if things is not state.things:
            by_name = {t.name: t for t in reversed(state.things_of(self.program_index))}  # the first of a name wins
            self._parts = (state.things, by_name)
        return by_name

    def stored(self, state: GameState, name: str) -> tuple[str, ...]:
        """The ids of the program's built parts of the blueprint called ``name`` at home, in state order. The parts
        are grouped by blueprint id once per items tuple, and the groups named once per things tuple (a research
        changes the things, not which parts are stored)."""
        items, things, by_name = self._stores
        if items is not state.items:
            by_thing: dict[str, list[str]] = {}
            for i in state.items_of(self.program_index):
                if i.location is HOME:
                    by_thing.setdefault(i.thing_id, []).append(i.id)
            self._stored_by_thing = by_thing
        elif things is state.things:
            return by_name.get(name, ())
        by_name = {}
        for thing_id, ids in self._stored_by_thing.items():
            part = state.thing(thing_id).name
            if part in by_name:  # two blueprints of one name: their parts in state order, read again
                by_name = self._stored_by_name(state)
                break
            by_name[part] = tuple(ids)
        self._stores = (state.items, state.things, by_name)
        return by_name.get(name, ())

    def _stored_by_name(self, state: GameState) -> dict[str, tuple[str, ...]]:
        found: dict[str, list[str]] = {}
        for i in state.items_of(self.program_index):
            if i.location is HOME:
                found.setdefault(state.thing(i.thing_id).name, []).append(i.id)
        return {part: tuple(ids) for part, ids in found.items()}

    def derps(self, state: GameState) -> tuple:
        """The program's living derps, in state order (read once per tuple of derps)."""
        derps, mine = self._derps
        if derps is not state.derps:
            mine = state.derps_of(self.program_index)
            self._derps = (state.derps, mine)
        return mine

    def derps_home(self, state: GameState) -> tuple:
        """The program's living derps at home, in state order (read once per tuple of derps)."""
        derps, home = self._home
        if derps is not state.derps:
            home = tuple(d for d in self.derps(state) if d.location is HOME)
            self._home = (state.derps, home)
        return home

    def crafts(self, state: GameState, name: str) -> tuple:
        """The program's craft called ``name`` or ``name`` and a number, in state order (read once per tuple of
        craft and name)."""
        upgoers, by_name = self._crafts
        if upgoers is not state.upgoers:
            by_name = {}
            self._crafts = (state.upgoers, by_name)
        found = by_name.get(name)
        if found is None:
            found = by_name[name] = tuple(u for u in state.upgoers_of(self.program_index)
                                          if u.name == name or u.name.startswith(name + " "))
        return found

    # ------------------------------------------------------------------ research and training
    def research_cap(self, state: GameState, thing) -> Rating:
        """The engine's research cap of ``thing``, asked once per blueprint value, and kept for the blueprint's
        next value (its research) while its kind and flight record stay: the cap reads the game's options, the
        blueprint's kind and whether it has flown, and flown successfully."""
        hit = self._caps.get(thing.id)
        if hit is not None and hit[1] is state.setup:
            was = hit[0]
            if was is thing:
                return hit[2]
            if was.kind == thing.kind and was.flown == thing.flown and was.flown_successfully == thing.flown_successfully:
                self._caps[thing.id] = (thing, hit[1], hit[2])
                return hit[2]
        if len(self._caps) >= 256:
            self._caps.clear()
        cap = self.engine.research_cap(state, thing)
        self._caps[thing.id] = (thing, state.setup, cap)
        return cap

    def reached(self, state: GameState, thing, target: Rating) -> bool:
        """Whether ``thing`` is as good as ``target`` or as research may make it now."""
        cap = self.research_cap(state, thing)
        return thing.rating.fail >= min(cap.fail, target.fail) and thing.rating.boom >= min(cap.boom, target.boom)

    def research_towards(self, state: GameState, thing, target: Rating) -> tuple[Action, ...]:
        """One step of Boom to Fail, then one of Fail to OK, while below ``target`` and while the engine's R&D
        listing row of the blueprint offers that step (the cap, the turn's step limit, Fail below Boom: the
        engine's rules, not restated here). The steps are made once per blueprint id, and proposed once per
        blueprint value and target (they read nothing else); ``ok`` answers for the ones just proposed from the
        row's price (the rest of what ``Engine.can_research`` asks), so ``thing`` is a blueprint as read from this
        ``state.things`` (as ``Engine.offered`` asks of its caller)."""
        hit = self._towards.get(id(thing))
        if hit is not None and hit[0] is thing and hit[1] is target and hit[2] is state.setup:
            if hit[3] and thing.owner == self.program_index:
                self._offer = (state, hit[3], hit[4])
            return hit[3]
        row = self.engine.rnd_listing.row(state, thing)
        steps = self._steps.get(thing.id)
        if steps is None:
            boom, fail = Research(thing.id, "boom", 1), Research(thing.id, "fail", 1)
            steps = self._steps[thing.id] = {(True, True): (boom, fail), (True, False): (boom,),
                                             (False, True): (fail,), (False, False): ()}
        rating = thing.rating
        wanted = steps[row.research_boom is not None and rating.boom < target.boom,
                       row.research_fail is not None and rating.fail < target.fail]
        if len(self._towards) >= 256:
            self._towards.clear()
        self._towards[id(thing)] = (thing, target, state.setup, wanted, row.research_cost)
        if wanted and thing.owner == self.program_index:
            self._offer = (state, wanted, row.research_cost)
        return wanted

    def build(self, state: GameState, thing):
        """The Build of one of ``thing`` (one of the program's blueprints in ``state``) when the engine allows it now
        (``Engine.offered``: read from its R&D listing row, exactly what ``refusal`` allows), else None."""
        build = self.engine.offered(state, thing)[2]
        if build is not None:
            self._granted = (state, build)
        return build

    @staticmethod
    def trained(derp, skills=SKILLS[:2]) -> bool:
        """Trained enough to fly: Engineering and Piloting at the plan's level (Stamina may come later)."""
        for skill, points in skills:
            if getattr(derp, skill) - (2 if skill == "stamina" else 0) < points:
                return False
        return True

    def train(self, state: GameState, skills=SKILLS) -> tuple[Action, ...]:
        """A Train for each derp at home and not injured below ``skills``: the first skill it lacks (or the one it
        is training this turn), in derp order. Kept per tuple of derps (it reads nothing else)."""
        derps, actions = self._trains.get(skills, (None, ()))
        if derps is not state.derps:
            actions = tuple(self._training(state, skills))
            self._trains[skills] = (state.derps, actions)
        return actions

    def _training(self, state: GameState, skills) -> list[Action]:
        needs = _NEEDS.get(skills)
        if needs is None:  # each skill with the level a derp must show for it (Stamina counts from 2)
            needs = _NEEDS[skills] = tuple((skill, points + (2 if skill == "stamina" else 0)) for skill, points in skills)
        trains = []
        for d in self.derps(state):
            if d.location is not HOME or d.injured:
                continue
            for skill, need in needs:
                level = getattr(d, skill)
                if level < need:
                    if d.trained_skill in (None, skill):
                        trains.append(Train(d.id, skill, need - level))
                    break
        return trains

    # ------------------------------------------------------------------ rolls
    def consequence(self, state: GameState, choice) -> str:
        upgoer = state.upgoer(choice.upgoer)
        if "lose_payload" in choice.options:
            return "lose_payload"
        if "lose_rations" in choice.options and upgoer.rations > 2 * len(upgoer.crew):
            return "lose_rations"
        if "degrade_all_parts" in choice.options:
            return "degrade_all_parts"
        return choice.options[0]

    def answer_roll(self, state: GameState, roll) -> Action:
        if roll.previous is not None:
            new, old = self._score(roll, roll.value), self._score(roll, roll.previous)
            return KeepRoll(new=new <= old)
        outcome = roll.outcome()
        if outcome is Outcome.OK:
            return AcceptRoll()
        spend = self._skill_spend(state, roll, outcome)
        if spend is not None:
            return spend
        if self.spare_luck(state, roll) > 0 and self._worth_luck(roll, outcome):
            return UseLuck()
        return AcceptRoll()

    def spare_luck(self, state: GameState, roll) -> int:
        """Luck points this roll may use (a plan may keep some for a roll that matters more)."""
        return state.programs[self.program_index].luck

    def spare_stamina(self, state: GameState, roll) -> dict[str, int]:
        """The stamina each derp aboard may spend on this roll (a plan may keep some for later)."""
        return {d.id: d.current_stamina for d in self.engine.flight_rules._helpers(state, roll)}

    @staticmethod
    def _score(roll, value) -> tuple:
        return ({Outcome.OK: 0, Outcome.FAIL: 1, Outcome.BOOM: 2}[roll.outcome_if(value)], value)

    @staticmethod
    def _worth_luck(roll, outcome) -> bool:
        if outcome is Outcome.BOOM:
            return True
        # A Fail on a duration step only costs a choice (a payload, rations or wear): keep the luck.
        return roll.kind not in ("stage_recovery", "duration_capsule", "duration_habitat")

    def _skill_spend(self, state: GameState, roll, outcome: Outcome):
        """The next skill spend when skills save the roll (the fewest that make it OK), or when they only
        turn a dangerous Boom into a Fail and no luck is left to try for better; else None."""
        best, spends = self.engine.flight_rules.best_help(state, roll, self.spare_stamina(state, roll))
        if not spends or best is outcome:
            return None
        self._approved = (state, spends[0])  # best_help names only spends the engine allows now (tests/test_bots.py)
        if best is Outcome.OK:
            return spends[0]
        if roll.kind in ("duration_capsule", "reentry", "landing", "burn", "rock_docking_burn", "launch",
                         "orbital_insertion") and self.spare_luck(state, roll) <= 0:
            return spends[0]  # a Fail beats a Boom here; with luck left a reroll may do better
        return None
