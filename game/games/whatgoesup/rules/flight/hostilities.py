"""Space War (the ``space_war`` option): who is hostile to whom, docking against a craft's will, derp fights,
and wars between programs, secret or open.

The numbers are ``rules.space_war`` (rules/whatgoesup/2014/space_war.yaml); the decisions behind them are in
docs/rules-decisions.md, "Space war". The small API other parts (and ship-to-ship combat) build on:

- ``space_war(state)``: the option is on (and the game is not a cooperative scenario);
- ``hostile(state, a, b)``: programs ``a`` and ``b`` may act against each other;
- ``can_fight(state, x, y)``: craft ``x`` and ``y`` are flying at the same stable step and belong to hostile
  programs;
- ``_quarrel(state, attacker, defender, what)``: record a hostile act (a secret war, or open at once when the
  table says every quarrel is open); ``_open_war(state, a, b, cause)``: the war turns open (a defeat for both).

Hostile docking: under Space War every docking with another program's craft is one it may resist. When the
docking (RCS, or a winch on an EVA) works and the defender has a healthy derp and an RCS with a use left, the
defender answers: push it off with an RCS burn (``RepelDocking``: a roll of that RCS; OK turns the docking into
a Fail) or let it stand (``AllowDocking``). The attacker may dock again for as long as it has the means.

Derp fights: the active craft starts one (``StartFight``) with a hostile craft at its step; every healthy derp
of both craft picks an enemy (``PickEnemy``; underped systems fight only aboard their own craft, as defenders), then every pair rolls one die each (the game's dice), adding
Piloting. Losses land together when the last pair has rolled; a derp who loses more stamina than it has left
is injured, and an injured derp who loses any is injured again, and dies (the 2014 rules on injuries).
"""
from __future__ import annotations

import dataclasses
from fractions import Fraction
from typing import Optional

from game.core.interface import CHANCE, IllegalAction
from game.games.whatgoesup.rules.actions import Action, Roll
from game.games.whatgoesup.rules.dice import Distribution
from game.games.whatgoesup.rules.flight.common import Boarding, DerpFight, FlightBase, FlightPhase, PendingRoll
from game.games.whatgoesup.rules.flight_actions import AllowDocking, PickEnemy, RepelDocking, StartFight
from game.games.whatgoesup.rules.reliability import Outcome
from game.games.whatgoesup.rules.state import Derp, Event, GameState, Upgoer, War, replace_in, update

HOSTILE_THENS = ("repel",)  # the activity rolls this part settles (see ``_hostility_roll_done``)


class HostilityPart(FlightBase):
    """Hostile programs, docking against a craft's will, derp fights and wars."""

    # ------------------------------------------------------------------ who is hostile to whom
    def space_war(self, state: GameState) -> bool:
        """Space War is on: the option is chosen and the game is not a cooperative scenario."""
        if "space_war" not in state.setup.options:
            return False
        scenario = self.engine.rock_rules.scenario(state)
        return not (scenario is not None and scenario.cooperative)

    def hostile(self, state: GameState, a: int, b: int) -> bool:
        """Programs ``a`` and ``b`` may act against each other (every pair of programs, under Space War)."""
        return a != b and self.space_war(state)

    def can_fight(self, state: GameState, x: Upgoer, y: Upgoer) -> bool:
        """Craft ``x`` and ``y`` are flying at the same stable step and belong to hostile programs."""
        return (x.id != y.id and x.status == "flying" and y.status == "flying" and x.location == y.location
                and self.board.step(x.location).is_stable and self.hostile(state, x.owner, y.owner))

    def hostile_craft_here(self, state: GameState, upgoer: Upgoer) -> list[Upgoer]:
        return [u for u in state.upgoers if self.can_fight(state, upgoer, u)]

    def war_between(self, state: GameState, a: int, b: int) -> Optional[War]:
        key = (min(a, b), max(a, b))
        return next((w for w in state.wars if w.programs == key), None)

    def _quarrel(self, state: GameState, attacker: int, defender: int, what: str) -> GameState:
        """Record a hostile act of ``attacker`` against ``defender``: a secret war begins (or is already on)."""
        war = self.war_between(state, attacker, defender)
        if war is None:
            key = (min(attacker, defender), max(attacker, defender))
            state = update(state, wars=state.wars + (War(programs=key, started=state.turn),))
            a, d = state.programs[attacker].name, state.programs[defender].name
            state = self._say(state, [self._war_event(f"{what}: a secret war between {a} and {d} begins. "
                                                      f"Nobody has died yet, so it can still stay quiet.", attacker)])
        if self.rules.space_war.open_war.starts_when == "any_hostility":
            state = self._open_war(state, attacker, defender, what)
        return state

    def _open_war(self, state: GameState, a: int, b: int, cause: str) -> GameState:
        """The war between ``a`` and ``b`` is open from now on: a defeat for both programs."""
        war = self.war_between(state, a, b)
        if war is not None and war.open:
            return state
        key = (min(a, b), max(a, b))
        opened = War(programs=key, started=war.started if war else state.turn, open=True, opened=state.turn,
                     cause=cause)
        wars = tuple(opened if w.programs == key else w for w in state.wars) if war else state.wars + (opened,)
        state = update(state, wars=wars)
        names = f"{state.programs[key[0]].name} and {state.programs[key[1]].name}"
        return self._say(state, [self._war_event(f"Open war between {names} ({cause})! Whatever else happens, "
                                                 f"an open war is a defeat for both.", None)])

    @staticmethod
    def _war_event(text: str, program: Optional[int]) -> Event:
        return Event(text, program, "war")

    # ------------------------------------------------------------------ the engine's questions
    def _hostility_player(self, state: GameState) -> Optional[int]:
        """Who acts in a boarding or a fight (CHANCE for a fight's die), or None when neither is under way."""
        f: FlightPhase = state.flight
        if f.fight is not None:
            fight = f.fight
            if fight.to_pick:
                return state.derp(fight.to_pick[0]).owner
            return CHANCE
        if f.boarding is not None:
            return state.upgoer(f.boarding.defender).owner
        return None

    def fight_die(self, state: GameState) -> Distribution:
        """The die of one derp in a fight: the game's dice (one set), as every roll of the game."""
        return self.rules.dice.scheme(state.setup.dice).distribution()

    def _fight_outcomes(self, state: GameState) -> list[tuple[Roll, Fraction]]:
        return [(Roll(v), p) for v, p in self.fight_die(state)]

    def _hostility_candidates(self, state: GameState) -> Optional[list[Action]]:
        f: FlightPhase = state.flight
        if f.fight is not None:
            fight = f.fight
            if not fight.to_pick:
                return [roll for roll, _ in self._fight_outcomes(state)]
            derp = state.derp(fight.to_pick[0])
            return [PickEnemy(derp.id, e.id) for e in self._enemies(state, fight, derp)]
        if f.boarding is not None:
            defender = state.upgoer(f.boarding.defender)
            return [RepelDocking(i.id) for i in self._repel_rcs(state, defender)] + [AllowDocking()]
        return None

    def _hostility_legal(self, state: GameState) -> Optional[list[Action]]:
        """A boarding's or a derp fight's answers now, each held to the check its handler makes first (a fight's
        dice are chance's, judged by applying them); None when neither is under way."""
        f: FlightPhase = state.flight
        candidates = self._hostility_candidates(state)
        if candidates is None:
            return None
        if f.fight is not None and not f.fight.to_pick:
            return [a for a in candidates if self._allowed(state, a)]
        out = []
        for action in candidates:
            try:
                if f.fight is not None:
                    if not isinstance(action, PickEnemy):
                        continue
                    self._check_pick_enemy(state, action)
                elif isinstance(action, RepelDocking):
                    self._check_repel(state, f.boarding, action)
                elif not isinstance(action, AllowDocking):
                    continue
            except IllegalAction:
                continue
            out.append(action)
        return out

    def _hostility_apply(self, state: GameState, action: Action) -> Optional[GameState]:
        """Apply an answer in a boarding or a fight; None when neither is under way."""
        f: FlightPhase = state.flight
        if f.fight is not None:
            if isinstance(action, Roll):
                return self._fight_die_rolled(state, action.value)
            if not isinstance(action, PickEnemy):
                raise IllegalAction("a derp fight is under way: each derp first picks an enemy")
            return self._pick_enemy(state, action)
        if f.boarding is not None:
            if isinstance(action, RepelDocking):
                return self._repel(state, f.boarding, action)
            if isinstance(action, AllowDocking):
                return self._allow(state, f.boarding)
            defender = state.upgoer(f.boarding.defender)
            raise IllegalAction(f"{defender.name} must first push the docking off with RCS or let it stand")
        return None

    def _hostility_candidates_for(self, state: GameState, upgoer: Upgoer) -> list[Action]:
        """The hostile activities of the active craft (for the activity menu)."""
        if not self.space_war(state):
            return []
        return [StartFight(u.id) for u in self.hostile_craft_here(state, upgoer)]

    # ------------------------------------------------------------------ hostile docking
    def _resists(self, state: GameState, attacker: Upgoer, defender: Upgoer) -> bool:
        """Whether ``defender`` may resist a docking by ``attacker`` (it has the means, under Space War)."""
        return (self.hostile(state, attacker.owner, defender.owner) and defender.status == "flying"
                and bool(self._repel_rcs(state, defender)))

    def _repel_pilots(self, state: GameState, defender: Upgoer) -> list[Derp]:
        rules = self.rules.space_war.hostile_docking
        return [d for d in self._healthy(state, defender) if d.current_stamina >= rules.repel_stamina
                and d.piloting >= rules.repel_min_piloting]

    def _repel_rcs(self, state: GameState, defender: Upgoer) -> list:
        """The RCS a defender may push a docking off with: working, with a use left, and someone to fire it."""
        if not self._repel_pilots(state, defender):
            return []
        return [i for i in self._modules(state, defender, "rcs") if (i.uses_left or 0) > 0]

    def _docking_succeeded(self, state: GameState, upgoer: Upgoer, roll: PendingRoll, method: str) -> GameState:
        """A docking roll worked: dock, unless the other craft may resist; then its defender answers first."""
        target = state.find("upgoer", roll.target)
        if target is None:
            return state
        if not self._resists(state, upgoer, target):
            return self._docked(state, upgoer, target)
        state = self._set(state, boarding=Boarding(upgoer.id, target.id, roll.actor or "", method))
        return self._event(state, f"{upgoer.name} latches on to {target.name}! {target.name} may push it off "
                                  f"with an RCS burn, or let the docking stand.", upgoer)

    def _check_repel(self, state: GameState, boarding: Boarding, a: RepelDocking) -> None:
        defender = state.upgoer(boarding.defender)
        if not any(i.id == a.item for i in self._repel_rcs(state, defender)):
            raise IllegalAction(f"{defender.name} has no such RCS with a use left and a healthy derp to fire it")

    def _repel(self, state: GameState, boarding: Boarding, a: RepelDocking) -> GameState:
        self._check_repel(state, boarding, a)
        defender = state.upgoer(boarding.defender)
        rcs = next(i for i in self._repel_rcs(state, defender) if i.id == a.item)
        cost = self.rules.space_war.hostile_docking.repel_stamina
        pilot = self._repel_pilots(state, defender)[0]
        if cost:
            state = self._spend(state, pilot, cost)
        state = self._set(state, boarding=None)
        attacker = state.upgoer(boarding.attacker)
        state = self._quarrel(state, attacker.owner, defender.owner,
                              f"{defender.name} resists {attacker.name}'s docking")
        roll = self._new_roll(state, "docking", defender, [rcs], defender.location, "activity", actor=pilot.id,
                              target=boarding.attacker,
                              detail=(("then", "repel"), ("method", boarding.method), ("pilot", boarding.pilot)))
        state = self._event(state, f"{defender.name} fires {self._name(state, rcs)} to push "
                                   f"{state.upgoer(boarding.attacker).name} off.", defender)
        return self._queue_rolls(state, [roll])

    def _allow(self, state: GameState, boarding: Boarding) -> GameState:
        attacker, defender = state.upgoer(boarding.attacker), state.upgoer(boarding.defender)
        state = self._set(state, boarding=None)
        state = self._event(state, f"{defender.name} gives up resisting: the docking stands.", defender)
        return self._docked(state, attacker, defender)

    def _hostility_roll_done(self, state: GameState, upgoer: Upgoer, roll: PendingRoll, outcome: Outcome) -> GameState:
        """The defender's repelling burn is settled: OK pushes the attacker off (its docking becomes a Fail)."""
        detail = dict(roll.detail)
        attacker = state.find("upgoer", roll.target)
        if attacker is None:
            return state
        if outcome is Outcome.OK:
            item = state.item(roll.items[0])
            state = self._replace_items(state, [update(item, uses_left=max(0, (item.uses_left or 0) - 1))])
            if detail.get("method") == "winch":
                # A winch docking turned into a Fail: the winch cannot be used again this turn (its Fail).
                winch = self._usable(state, attacker, "winch")
                if winch is not None:
                    state = self._replace_items(state, [update(winch, unusable_this_turn=True)])
            return self._event(state, f"{upgoer.name} pushes {attacker.name} off: the docking fails.", upgoer)
        if attacker.status != "flying" or upgoer.status != "flying" or attacker.location != upgoer.location:
            return state
        state = self._event(state, f"{upgoer.name}'s burn does not shake {attacker.name} off: the docking stands.",
                            upgoer)
        return self._docked(state, attacker, upgoer)

    # ------------------------------------------------------------------ derp fights
    def _check_start_fight(self, state: GameState, upgoer: Upgoer, a: StartFight) -> None:
        if not self.space_war(state):
            raise IllegalAction("fights between derps are part of Space War, which is off in this game")
        self._require_activity(state, upgoer, "a fight")
        target = state.find("upgoer", a.target)
        if target is None or not self.can_fight(state, upgoer, target):
            raise IllegalAction(f"{upgoer.name}'s crew can only fight a rival craft flying at the same place "
                                f"in a stable orbit or on a surface")
        if not self._boarders(state, upgoer):
            if any(d.is_system for d in self._healthy(state, upgoer)):
                raise IllegalAction(f"{upgoer.name}'s robots cannot leave their capsule to fight, and no derp "
                                    f"aboard is fit to go")
            raise IllegalAction(f"nobody aboard {upgoer.name} is fit to fight")
        if not self._crew(state, target):
            raise IllegalAction(f"there is nobody aboard {target.name} to fight")

    def _boarders(self, state: GameState, upgoer: Upgoer) -> list[Derp]:
        """Who goes over to fight aboard the other craft: its healthy derps. An underped system "sits in a
        capsule" and never leaves it, so it only fights in its own craft, as a defender."""
        return [d for d in self._healthy(state, upgoer) if not d.is_system]

    def _start_fight(self, state: GameState, upgoer: Upgoer, a: StartFight) -> GameState:
        self._check_start_fight(state, upgoer, a)
        target, fighters = state.upgoer(a.target), self._boarders(state, upgoer)
        docked = target.id in upgoer.docked_with
        where = f"inside {target.name}" if docked else f"across to {target.name}"
        state = self._quarrel(state, upgoer.owner, target.owner, f"{upgoer.name}'s crew picks a fight with {target.name}")
        # The fight is aboard the defender: its powered-up systems fight there as derps with starting stats.
        order = tuple(d.id for d in fighters) + tuple(d.id for d in self._healthy(state, target))
        state = self._set(state, fight=DerpFight(attacker=upgoer.id, defender=target.id, to_pick=order))
        return self._event(state, f"A fight breaks out {where}! Every derp able to fight picks an enemy.", upgoer)

    def _side_of(self, fight: DerpFight, derp: Derp) -> str:
        return fight.attacker if derp.location == fight.attacker else fight.defender

    def _enemies(self, state: GameState, fight: DerpFight, derp: Derp) -> list[Derp]:
        """The derps ``derp`` may go for: everyone alive aboard the other craft (the injured too), but an
        attacking craft's underped systems, which stay in their own capsule, out of the fight."""
        defending = self._side_of(fight, derp) == fight.defender
        craft = state.find("upgoer", fight.attacker if defending else fight.defender)
        if craft is None:
            return []
        return [d for d in self._crew(state, craft) if not (defending and d.is_system)]

    def _check_pick_enemy(self, state: GameState, a: PickEnemy) -> None:
        fight: DerpFight = state.flight.fight
        derp = state.derp(fight.to_pick[0])
        if a.derp != derp.id:
            raise IllegalAction(f"{derp.name} picks an enemy next")
        if not any(e.id == a.enemy for e in self._enemies(state, fight, derp)):
            raise IllegalAction(f"{derp.name} can only go for a derp aboard the other craft")

    def _pick_enemy(self, state: GameState, a: PickEnemy) -> GameState:
        self._check_pick_enemy(state, a)
        fight: DerpFight = state.flight.fight
        derp, enemy = state.derp(fight.to_pick[0]), state.derp(a.enemy)
        picks = fight.picks + ((derp.id, enemy.id),)
        fight = dataclasses.replace(fight, to_pick=fight.to_pick[1:], picks=picks)
        state = self._say(state, [self._war_event(f"{derp.name} goes for {enemy.name}.", derp.owner)])
        if not fight.to_pick:
            fight = dataclasses.replace(fight, pairs=self.fight_pairs(picks))
        return self._set(state, fight=fight)

    @staticmethod
    def fight_pairs(picks: tuple[tuple[str, str], ...]) -> tuple[tuple[str, str, bool], ...]:
        """The pairs that roll, in the order of the picks: two derps going for each other roll once, as one
        mutual pair; any other pick is an attacker (who picked) against a defender."""
        chosen = set(picks)
        pairs, done = [], set()
        for derp, enemy in picks:
            mutual = (enemy, derp) in chosen
            key = frozenset((derp, enemy)) if mutual else (derp, enemy)
            if key in done:
                continue
            done.add(key)
            pairs.append((derp, enemy, mutual))
        return tuple(pairs)

    def fight_bonus(self, state: GameState, derp: Derp) -> int:
        """What a derp adds to its fight die: its Piloting (with the Waylights' bonus if the table says so)."""
        return self.piloting(state, derp) if self.rules.space_war.derp_fights.waylight_bonus else derp.piloting

    def pair_losses(self, state: GameState, first: Derp, second: Derp, mutual: bool,
                    first_total: int, second_total: int) -> tuple[int, int]:
        """The stamina ``first`` and ``second`` lose for their totals (die plus Piloting); one formula for the
        odds the client shows and for what happens."""
        rules = self.rules.space_war.derp_fights
        lose_first = lose_second = rules.brawl_loss
        if first_total > second_total:
            lose_second += rules.beaten_loss
        elif mutual and second_total > first_total:
            lose_first += rules.beaten_loss
        return lose_first, lose_second

    def fight_odds(self, state: GameState) -> Optional[dict[str, Fraction]]:
        """Exact odds of the current pair of a fight, given the dice already rolled: ``first`` (the first derp
        wins: the other takes the beating), ``second`` (the second derp wins; only in a mutual pair) and
        ``even`` (nobody takes a beating; for an attacker, also a defender who rolls higher)."""
        f: FlightPhase = state.flight
        if f.fight is None or f.fight.to_pick or not f.fight.pairs:
            return None
        fight = f.fight
        first, second, mutual = fight.pairs[0]
        a, b = state.derp(first), state.derp(second)
        bonus_a, bonus_b = self.fight_bonus(state, a), self.fight_bonus(state, b)
        die = self.fight_die(state)
        firsts = [(fight.dice[0], Fraction(1))] if fight.dice else die
        odds = {"first": Fraction(0), "second": Fraction(0), "even": Fraction(0)}
        for va, pa in firsts:
            for vb, pb in die:
                ta, tb = va + bonus_a, vb + bonus_b
                key = "first" if ta > tb else ("second" if mutual and tb > ta else "even")
                odds[key] += pa * pb
        return odds

    def _fight_die_rolled(self, state: GameState, value: int) -> GameState:
        fight: DerpFight = state.flight.fight
        if fight.to_pick or not fight.pairs:
            raise IllegalAction("every derp must pick an enemy before the dice")
        if value not in {v for v, _ in self.fight_die(state)}:
            raise IllegalAction(f"{value} cannot come up on this die")
        dice = fight.dice + (value,)
        if len(dice) < 2:
            return self._set(state, fight=dataclasses.replace(fight, dice=dice))
        first_id, second_id, mutual = fight.pairs[0]
        a, b = state.derp(first_id), state.derp(second_id)
        ta, tb = dice[0] + self.fight_bonus(state, a), dice[1] + self.fight_bonus(state, b)
        lose_a, lose_b = self.pair_losses(state, a, b, mutual, ta, tb)
        losses = dict(fight.losses)
        losses[a.id] = losses.get(a.id, 0) + lose_a
        losses[b.id] = losses.get(b.id, 0) + lose_b
        if mutual:
            verb = f"{a.name} and {b.name} go for each other"
        else:
            verb = f"{a.name} goes for {b.name}"
        if ta > tb:
            result = f"{b.name} takes a beating"
        elif mutual and tb > ta:
            result = f"{a.name} takes a beating"
        elif mutual:
            result = "an even match"
        else:
            result = f"{b.name} holds {a.name} off"
        text = (f"{verb}: {dice[0]} + {self.fight_bonus(state, a)} Piloting = {ta} against {dice[1]} + "
                f"{self.fight_bonus(state, b)} = {tb}; {result}. ({a.name} -{lose_a}, {b.name} -{lose_b} stamina)")
        state = self._say(state, [self._war_event(text, a.owner)])
        fight = dataclasses.replace(fight, pairs=fight.pairs[1:], dice=(), losses=tuple(losses.items()))
        if fight.pairs:
            return self._set(state, fight=fight)
        return self._end_fight(state, fight)

    def _end_fight(self, state: GameState, fight: DerpFight) -> GameState:
        """The last pair has rolled: every derp's losses land together."""
        state = self._set(state, fight=None)
        hurt, spent = [], []
        for derp_id, loss in fight.losses:
            derp = state.derp(derp_id)
            if loss <= 0 or derp.dead:
                continue
            if derp.injured or loss > derp.current_stamina:
                hurt.append(derp)
                if not derp.injured:
                    spent.append(update(derp, current_stamina=0))
            else:
                spent.append(update(derp, current_stamina=derp.current_stamina - loss))
        state = dataclasses.replace(state, derps=replace_in(state.derps, spent))
        before = {d.id for d in state.derps if d.dead}
        for derp in hurt:
            state = self._injure(state, state.find("upgoer", derp.location), [derp], "beaten in a fight")
        killed = [d for d in state.derps if d.dead and d.id not in before]
        attacker, defender = state.find("upgoer", fight.attacker), state.find("upgoer", fight.defender)
        state = self._say(state, [self._war_event("The fight is over.", attacker.owner if attacker else None)])
        if killed and attacker is not None and defender is not None \
                and self.rules.space_war.open_war.starts_when == "derp_killed":
            names = ", ".join(d.name for d in killed)
            state = self._open_war(state, attacker.owner, defender.owner, f"{names} died in a fight")
        return state
