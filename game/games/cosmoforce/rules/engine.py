"""Cosmoforce's rules engine: the questions of ``game.core.interface`` for a ship-to-ship fight.

A round: ships that tie for speed roll to break the tie; each ship then takes its turn, fastest first,
with two actions; then the aftermath vents heat and rolls the heat that is left against the crew.
Rolls are chance steps whose outcome is the number of effective dice (``game/core/effective_dice.py``); hits are
placed by the owner of the ship hit, one at a time. The fight ends when one side is left, when every
player still fighting offered a ceasefire in the round, or at the setup's round limit.

Pure: never rolls, never imports pygame or ``random``. Every refusal says why in a player's words.
"""
from __future__ import annotations

import dataclasses
from fractions import Fraction
from itertools import groupby
from typing import Callable, Iterable, Optional

from game.core.interface import CHANCE, TERMINAL, IllegalAction, IllegalSetup
from game.core import effective_dice
from game.games.cosmoforce.rules import setup_data, ships as shipyard
from game.games.cosmoforce.rules.actions import (TURN_ACTIONS, Action, AssignDamage, BurnEngines, ConserveEnergy,
                                                 DroneStrafe, FireWeapons, HealCrew, OfferCeasefire, PrecisionFire,
                                                 RepairSystem, RepairSystems, Roll, TrimSpeed, action_from_data)
from game.games.cosmoforce.rules.state import (MAX_PLAYERS, MAX_SHIPS_PER_PLAYER, PLAYER_NAME_MAX, SHIP_NAME_MAX,
                                               Event, GameState, Outcome, PendingDamage, PendingRepair,
                                               PendingRoll, PendingTrim, Player, Setup, ShipState,
                                               SystemState)
from game.games.cosmoforce.rules.tables import Rules

__all__ = ["CHANCE", "TERMINAL", "Engine", "IllegalAction", "IllegalSetup"]

ROLL_WORDS = {"tie_break": "to break the tie", "afterburner": "for the afterburner", "strafe": "for the drones",
              "fire": "to shoot", "precision": "for precision fire", "heal": "to heal crew",
              "repair": "to repair", "heat": "for heat"}


class _Draft:
    """A state being changed by one action: mutable copies of what changes, and the events it writes."""

    def __init__(self, state: GameState):
        self.base = state
        self.ships = list(state.ships)
        self.steps = list(state.steps)
        self.events: list[Event] = []
        self.turn, self.phase, self.order = state.turn, state.phase, state.order
        self.position, self.actions_left = state.position, state.actions_left
        self.fired, self.strafed = state.fired, state.strafed
        self.ceasefire, self.result = state.ceasefire, state.result

    def freeze(self) -> GameState:
        return dataclasses.replace(
            self.base, ships=tuple(self.ships), steps=tuple(self.steps), events=tuple(self.events),
            turn=self.turn, phase=self.phase, order=self.order, position=self.position,
            actions_left=self.actions_left, fired=self.fired, strafed=self.strafed, ceasefire=self.ceasefire,
            result=self.result)

    def say(self, text: str, program: Optional[int] = None, kind: str = "info") -> None:
        self.events.append(Event(text, program, kind))

    def change(self, index: int, **changes) -> ShipState:
        self.ships[index] = dataclasses.replace(self.ships[index], **changes)
        return self.ships[index]

    def change_system(self, index: int, slot: int, **changes) -> SystemState:
        ship = self.ships[index]
        systems = list(ship.systems)
        systems[slot] = dataclasses.replace(systems[slot], **changes)
        self.change(index, systems=tuple(systems))
        return systems[slot]

    def acting(self) -> ShipState:
        return self.ships[self.order[self.position]]

    def standing_sides(self) -> set[int]:
        return {s.side for s in self.ships if s.standing}


class Engine:
    """Binds the rules of Cosmoforce to one set of tables."""

    #: The game a save names, so the shared saves know whose engine reads it.
    game_id = "cosmoforce"
    game_name = "Cosmoforce"

    def __init__(self, rules: Rules):
        self.rules = rules
        self._weapons = {w.system: w for w in rules.weapons.weapons}
        self._roles = {s.id: s.role for s in rules.systems.systems}
        self._kinds_by_role = {role: tuple(s.id for s in rules.systems.with_role(role))
                               for role in {s.role for s in rules.systems.systems}}
        self._max_damage = {s.id: s.max_damage for s in rules.systems.systems}
        self._handlers: dict[type, Callable[[_Draft, Action], None]] = {
            BurnEngines: self._burn, ConserveEnergy: self._conserve, DroneStrafe: self._strafe,
            FireWeapons: self._fire, HealCrew: self._heal, PrecisionFire: self._precision,
            RepairSystems: self._repair, OfferCeasefire: self._offer_ceasefire, AssignDamage: self._assign,
            TrimSpeed: self._trim, RepairSystem: self._repair_one, Roll: self._roll,
        }

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
        return action_from_data(data)

    # ------------------------------------------------------------------ systems by role
    def role(self, system: SystemState | str) -> str:
        return self._roles[system if isinstance(system, str) else system.kind]

    def kinds_with_role(self, role: str) -> tuple[str, ...]:
        return self._kinds_by_role.get(role, ())

    def room_for_hits(self, slot: SystemState) -> int:
        """How many more damage marks ``slot`` can take (none once destroyed or full)."""
        return 0 if slot.destroyed else max(0, self._max_damage[slot.kind] - slot.damage)

    def working(self, ship: ShipState, role: str) -> int:
        return ship.working_count(self.kinds_with_role(role))

    def weapon_kinds(self) -> tuple[str, ...]:
        return tuple(self._weapons)

    # ------------------------------------------------------------------ setup
    def setup_problem(self, setup: Setup) -> Optional[str]:
        """Why the fight cannot start with ``setup``, or None."""
        if not 2 <= len(setup.players) <= MAX_PLAYERS:
            return f"a fight needs two to {MAX_PLAYERS} players, not {len(setup.players)}"
        names: set[str] = set()
        for player in setup.players:
            if not player.name.strip() or len(player.name) > PLAYER_NAME_MAX:
                return f"a player's name must be 1 to {PLAYER_NAME_MAX} characters ('{player.name}')"
            if not 1 <= len(player.ships) <= MAX_SHIPS_PER_PLAYER:
                return f"{player.name} needs one to {MAX_SHIPS_PER_PLAYER} ships, not {len(player.ships)}"
            for design in player.ships:
                if not design.name.strip() or len(design.name) > SHIP_NAME_MAX:
                    return f"a ship's name must be 1 to {SHIP_NAME_MAX} characters ('{design.name}')"
                if design.name.casefold() in names:
                    return f"two ships are called {design.name}; give each ship its own name"
                names.add(design.name.casefold())
                problem = shipyard.design_problem(self.rules.classes, self.rules.systems, design)
                if problem:
                    return problem
        if setup.teams and len({p.team for p in setup.players}) < 2:
            return "a team game needs at least two teams"
        if setup.round_limit is not None and setup.round_limit < 1:
            return "the round limit must be at least 1 (or none)"
        return None

    def new_game(self, setup: Setup) -> GameState:
        """The fight before round 1's first roll or turn (IllegalSetup says why it cannot start)."""
        problem = self.setup_problem(setup)
        if problem:
            raise IllegalSetup(problem)
        players = tuple(Player(i, p.name, p.colour, p.human, p.team) for i, p in enumerate(setup.players))
        ships = []
        for owner, p in enumerate(setup.players):
            for design in p.ships:
                crew = shipyard.crew_max(self.rules, design)
                ships.append(ShipState(
                    index=len(ships), owner=owner, side=p.team if setup.teams else owner, name=design.name,
                    ship_class=design.ship_class, mass=shipyard.mass(self.rules, design), crew_max=crew,
                    systems=tuple(SystemState(kind) for kind in design.systems), crew_ready=crew, crew_hurt=0,
                    speed=shipyard.starting_speed(self.rules, design), heat=shipyard.starting_heat(self.rules, design)))
        draft = _Draft(GameState(setup=setup, players=players, ships=tuple(ships)))
        draft.say("Round 1 begins.", kind="turn")
        return self._settle(draft).freeze()

    # ------------------------------------------------------------------ questions
    def current_player(self, state: GameState) -> int:
        if state.phase == "over":
            return TERMINAL
        step = state.step
        if isinstance(step, PendingRoll):
            return CHANCE
        if step is not None:
            return state.ships[step.ship].owner
        acting = state.acting_ship
        if acting is None:
            raise RuntimeError(f"no one acts in phase {state.phase}")  # _settle never leaves a state like this
        return acting.owner

    def outcome(self, state: GameState) -> Optional[Outcome]:
        return state.result

    def chance_outcomes(self, state: GameState) -> list[tuple[Roll, Fraction]]:
        """The pending roll's exact distribution of effective dice (empty when no roll is pending)."""
        step = state.step
        if not isinstance(step, PendingRoll):
            return []
        return [(Roll(k), p) for k, p in self.roll_distribution(step) if p]

    def roll_distribution(self, step: PendingRoll):
        return effective_dice.distribution(step.dice, self.rules.combat.dice.sides, step.mass)

    def legal_actions(self, state: GameState) -> list[Action]:
        """Every action the current player may take now (the rolls while dice are pending)."""
        player = self.current_player(state)
        if player == TERMINAL:
            return []
        if player == CHANCE:
            return [roll for roll, _ in self.chance_outcomes(state)]
        return [a for a in self._candidates(state) if self.refusal(state, a) is None]

    def _candidates(self, state: GameState) -> Iterable[Action]:
        step = state.step
        if isinstance(step, PendingDamage):
            yield from (AssignDamage(i) for i in range(len(state.ships[step.ship].systems)))
            return
        if isinstance(step, PendingRepair):
            yield from (RepairSystem(i) for i in range(len(state.ships[step.ship].systems)))
            return
        if isinstance(step, PendingTrim):
            for total in range(step.moves + 1):
                yield from (TrimSpeed(f, total - f) for f in range(total + 1))
            return
        ship = state.acting_ship
        if ship is None:
            return
        # Only actions that could be legal are listed; ``refusal`` has the last word on each.
        engines = self.working(ship, "engine")
        afterburner = (False, True) if self.working(ship, "afterburner") else (False,)
        for total in range(1, engines + 1):
            for faster in range(total + 1):
                yield from (BurnEngines(faster, total - faster, a) for a in afterburner)
        yield ConserveEnergy()
        first_action = state.order and state.order[0] == ship.index and \
            state.actions_left == self.rules.combat.actions_per_turn
        lasers = ship.working_count((self.rules.combat.precision_fire.weapon,)) if first_action else 0
        for enemy in state.enemies_of(ship):
            if not state.strafed and self.working(ship, "hangar"):
                yield DroneStrafe(enemy.index)
            if not state.fired:
                for weapon in self._weapons:
                    for count in range(1, ship.working_count((weapon,)) + 1):
                        yield FireWeapons(weapon, count, enemy.index)
            for count in range(1, lasers + 1):
                for slot in range(len(enemy.systems)):
                    yield PrecisionFire(count, enemy.index, slot)
        yield HealCrew()
        yield RepairSystems()
        yield OfferCeasefire()

    def refusal(self, state: GameState, action: Action) -> Optional[str]:
        """Why ``action`` is not allowed now, or None when it is (checked without playing it out)."""
        if state.phase == "over":
            return "the fight is over"
        step = state.step
        if isinstance(action, Roll):
            if not isinstance(step, PendingRoll):
                return "no roll is pending"
            values = {k for k, p in self.roll_distribution(step) if p}
            if action.value not in values:
                return f"{step.dice} dice cannot show {action.value} effective dice here"
            return None
        if isinstance(step, PendingRoll):
            return f"{state.ships[step.ship].name} must roll {ROLL_WORDS[step.purpose]} first"
        if isinstance(step, PendingDamage):
            return self._assign_refusal(state, step, action)
        if isinstance(step, PendingTrim):
            return self._trim_refusal(state, step, action)
        if isinstance(step, PendingRepair):
            return self._repair_one_refusal(state, step, action)
        if isinstance(action, (AssignDamage, TrimSpeed, RepairSystem)):
            return "there is nothing to answer now"
        ship = state.acting_ship
        if ship is None:
            return "no ship is taking its turn"
        if isinstance(action, OfferCeasefire):
            if ship.owner in state.ceasefire:
                return f"{state.players[ship.owner].name} has already offered a ceasefire this round"
            return None
        if not isinstance(action, TURN_ACTIONS):
            return f"{type(action).__name__} is not a Cosmoforce action"
        if state.actions_left <= 0:
            return f"{ship.name} has no actions left this turn"
        return self._turn_refusal(state, ship, action)

    def _turn_refusal(self, state: GameState, ship: ShipState, action: Action) -> Optional[str]:
        if isinstance(action, BurnEngines):
            engines = self.working(ship, "engine")
            burned = action.faster + action.slower
            if action.faster < 0 or action.slower < 0 or burned < 1:
                return "burn at least one engine"
            if burned > engines:
                return f"{ship.name} has {engines} working engine(s), not {burned}"
            if ship.speed + action.faster - action.slower < 0:
                return f"{ship.name} is at speed {ship.speed}; it cannot slow below 0"
            if action.afterburner and self.working(ship, "afterburner") < 1:
                return f"{ship.name} has no working afterburner"
            return None
        if isinstance(action, ConserveEnergy):
            return None
        if isinstance(action, HealCrew):
            return None if ship.crew_hurt else f"no crew of {ship.name} is hurt"
        if isinstance(action, RepairSystems):
            if not ship.crew_ready:
                return f"{ship.name} has no ready crew to make repairs"
            if not any(s.damage and not s.destroyed for s in ship.systems):
                return f"{ship.name} has nothing to repair (destroyed systems cannot be repaired)"
            return None
        target = self._target_refusal(state, ship, action.target)  # type: ignore[attr-defined]
        if target:
            return target
        enemy = state.ships[action.target]  # type: ignore[attr-defined]
        if isinstance(action, DroneStrafe):
            if state.strafed:
                return f"{ship.name}'s drones have already flown this turn"
            if self.working(ship, "hangar") < 1:
                return f"{ship.name} has no working hangar"
            return None
        if isinstance(action, FireWeapons):
            if state.fired:
                return f"{ship.name} has already fired this turn"
            weapon = self._weapons.get(action.weapon)
            if weapon is None:
                return f"'{action.weapon}' is not a weapon (the weapons are {', '.join(self._weapons)})"
            ready = ship.working_count((action.weapon,))
            if not 1 <= action.count <= ready:
                name = self.rules.systems.get(action.weapon).name.lower()
                return f"{ship.name} has {ready} {name}(s) ready to fire, not {action.count}"
            if weapon.target_must_be_slower and enemy.speed_hundredths >= ship.speed_hundredths:
                return (f"a {action.weapon} only hits a slower ship: {enemy.name} is at speed {enemy.speed_text}, "
                        f"{ship.name} at {ship.speed_text}")
            return None
        if isinstance(action, PrecisionFire):
            if state.order[0] != ship.index or state.actions_left != self.rules.combat.actions_per_turn:
                return "precision fire is only for the ship taking the first turn of the round, as its only action"
            weapon = self.rules.combat.precision_fire.weapon
            ready = ship.working_count((weapon,))
            if not 1 <= action.lasers <= ready:
                return f"{ship.name} has {ready} {weapon}(s) ready to fire, not {action.lasers}"
            if not 0 <= action.system < len(enemy.systems):
                return f"{enemy.name} has no slot {action.system + 1}"
            aimed = enemy.systems[action.system]
            if not self.room_for_hits(aimed):
                return f"slot {action.system + 1} of {enemy.name} can take no more damage"
            armor = [s for s in enemy.systems if self.role(s) == "armor" and self.room_for_hits(s)]
            if armor and self.role(aimed) != "armor":
                return f"{enemy.name} has armor: precision fire must aim at an armor system"
            return None
        return f"{type(action).__name__} is not a turn action"

    @staticmethod
    def _target_refusal(state: GameState, ship: ShipState, target: int) -> Optional[str]:
        if not 0 <= target < len(state.ships):
            return f"there is no ship {target}"
        enemy = state.ships[target]
        if enemy.eliminated:
            return f"{enemy.name} is already out of the fight"
        if enemy.side == ship.side:
            return f"{enemy.name} is on {ship.name}'s side"
        return None

    def _assign_refusal(self, state: GameState, step: PendingDamage, action: Action) -> Optional[str]:
        ship = state.ships[step.ship]
        if not isinstance(action, AssignDamage):
            return f"first place the {step.hits} hit(s) on {ship.name}"
        if not 0 <= action.system < len(ship.systems):
            return f"{ship.name} has no slot {action.system + 1}"
        slot = ship.systems[action.system]
        if slot.destroyed:
            return f"slot {action.system + 1} of {ship.name} is destroyed: pick a system still standing"
        if not self.room_for_hits(slot):
            return f"the {self.rules.systems.get(slot.kind).name.lower()} in slot {action.system + 1} is full: " \
                   f"it can take no more hits until repaired"
        return None

    def _trim_refusal(self, state: GameState, step: PendingTrim, action: Action) -> Optional[str]:
        ship = state.ships[step.ship]
        if not isinstance(action, TrimSpeed):
            return f"first choose what {ship.name}'s afterburner does"
        if action.faster < 0 or action.slower < 0 or action.faster + action.slower > step.moves:
            return f"the afterburner gave {step.moves} change(s) of speed"
        if ship.speed + action.faster - action.slower < 0:
            return f"{ship.name} is at speed {ship.speed}; it cannot slow below 0"
        return None

    def _repair_one_refusal(self, state: GameState, step: PendingRepair, action: Action) -> Optional[str]:
        ship = state.ships[step.ship]
        if not isinstance(action, RepairSystem):
            return f"first choose which of {ship.name}'s systems the crew repairs"
        if not 0 <= action.system < len(ship.systems):
            return f"{ship.name} has no slot {action.system + 1}"
        slot = ship.systems[action.system]
        if slot.destroyed:
            return f"slot {action.system + 1} of {ship.name} is destroyed and cannot be repaired"
        if not slot.damage:
            return f"slot {action.system + 1} of {ship.name} is not damaged"
        return None

    # ------------------------------------------------------------------ applying
    def apply(self, state: GameState, action: Action) -> GameState:
        """The state after ``action``; IllegalAction (nothing changes) says why when it is not allowed."""
        why = self.refusal(state, action)
        if why is not None:
            raise IllegalAction(why)
        draft = _Draft(state)
        self._handlers[type(action)](draft, action)
        return self._settle(draft).freeze()

    def _spend_action(self, d: _Draft, ship: ShipState, text: str) -> None:
        d.actions_left -= 1
        d.say(f"{ship.name}: {text}", ship.owner)

    def _burn(self, d: _Draft, action: BurnEngines) -> None:
        ship = d.acting()
        burned = action.faster + action.slower
        rules = self.rules.combat.burn
        ship = d.change(ship.index, heat=ship.heat + burned * rules.heat_per_engine,
                        speed=ship.speed + action.faster - action.slower)
        self._spend_action(d, ship, f"burns {burned} engine(s), speed now {ship.speed_text}, heat {ship.heat}")
        if action.afterburner:
            dice = burned * rules.afterburner_dice_per_engine
            d.steps.insert(0, PendingRoll("afterburner", ship.index, dice))

    def _conserve(self, d: _Draft, action: ConserveEnergy) -> None:
        ship = d.acting()
        ship = d.change(ship.index, heat=max(0, ship.heat - self.rules.combat.conserve_energy.heat_removed))
        self._spend_action(d, ship, f"conserves energy, heat now {ship.heat}")

    def _strafe(self, d: _Draft, action: DroneStrafe) -> None:
        ship = d.acting()
        d.strafed = True
        target = d.ships[action.target]
        self._spend_action(d, ship, f"launches drones at {target.name}")
        dice = self.working(ship, "hangar") * self.rules.combat.drone_strafe.dice_per_hangar
        d.steps.insert(0, PendingRoll("strafe", ship.index, dice, target=target.index))

    def _fire(self, d: _Draft, action: FireWeapons) -> None:
        ship = d.acting()
        weapon = self._weapons[action.weapon]
        d.fired = True
        if weapon.spent_after_firing:
            slots = [i for i, s in enumerate(ship.systems) if s.kind == action.weapon and s.working][:action.count]
            for slot in slots:
                d.change_system(ship.index, slot, spent=True)
        ship = d.change(ship.index, heat=d.ships[ship.index].heat + action.count * weapon.heat_per_system)
        target = d.ships[action.target]
        name = self.rules.systems.get(action.weapon).name.lower()
        self._spend_action(d, ship, f"fires {action.count} {name}(s) at {target.name}"
                                    + (f", heat now {ship.heat}" if weapon.heat_per_system else ""))
        d.steps.insert(0, PendingRoll("fire", ship.index, action.count * weapon.dice_per_system, target=target.index,
                                      mass=self._shooting_mass(target), weapon=action.weapon))

    def _shooting_mass(self, target: ShipState) -> Optional[int]:
        return target.mass if self.rules.combat.shooting.fit_in_mass else None

    def _heal(self, d: _Draft, action: HealCrew) -> None:
        ship = d.acting()
        self._spend_action(d, ship, "tends its hurt crew")
        d.steps.insert(0, PendingRoll("heal", ship.index, self.rules.combat.heal_crew.dice))

    def _precision(self, d: _Draft, action: PrecisionFire) -> None:
        ship = d.acting()
        rules = self.rules.combat.precision_fire
        d.fired = True
        ship = d.change(ship.index, heat=ship.heat + rules.heat)
        target = d.ships[action.target]
        kind = self.rules.systems.get(target.systems[action.system].kind).name
        self._spend_action(d, ship, f"aims {action.lasers} {rules.weapon}(s) at {target.name}'s {kind} "
                                    f"(slot {action.system + 1}), heat now {ship.heat}")
        d.actions_left = 0
        d.steps.insert(0, PendingRoll("precision", ship.index, action.lasers * rules.dice_per_laser,
                                      target=target.index, system=action.system, mass=self._shooting_mass(target),
                                      weapon=rules.weapon))

    def _repair(self, d: _Draft, action: RepairSystems) -> None:
        ship = d.acting()
        self._spend_action(d, ship, "sends its crew to make repairs")
        d.steps.insert(0, PendingRoll("repair", ship.index,
                                      ship.crew_ready * self.rules.combat.repair_systems.dice_per_ready_crew))

    def _offer_ceasefire(self, d: _Draft, action: OfferCeasefire) -> None:
        owner = d.acting().owner
        d.ceasefire = d.ceasefire | {owner}
        d.say(f"{d.base.players[owner].name} offers a ceasefire.", owner, "ceasefire")

    # -- answers
    def _assign(self, d: _Draft, action: AssignDamage) -> None:
        step = d.steps[0]
        assert isinstance(step, PendingDamage)
        d.steps[0] = dataclasses.replace(step, hits=step.hits - 1)
        self._damage_system(d, step.ship, action.system)

    def _trim(self, d: _Draft, action: TrimSpeed) -> None:
        step = d.steps.pop(0)
        ship = d.change(step.ship, speed=d.ships[step.ship].speed + action.faster - action.slower)
        d.say(f"{ship.name}'s afterburner: speed now {ship.speed_text}.", ship.owner)

    def _repair_one(self, d: _Draft, action: RepairSystem) -> None:
        step = d.steps[0]
        assert isinstance(step, PendingRepair)
        ship = d.ships[step.ship]
        slot = d.change_system(ship.index, action.system, damage=ship.systems[action.system].damage - 1)
        name = self.rules.systems.get(slot.kind).name
        d.say(f"{ship.name}'s crew repairs its {name} (slot {action.system + 1})"
              + ("." if not slot.damage else f"; {slot.damage} mark(s) left."), ship.owner)
        d.steps[0] = dataclasses.replace(step, marks=step.marks - 1)

    # -- rolls
    def _roll(self, d: _Draft, action: Roll) -> None:
        step = d.steps.pop(0)
        assert isinstance(step, PendingRoll)
        ship = d.ships[step.ship]
        k = action.value
        fits = f" that fit within {d.ships[step.target].name}'s mass of {step.mass}" if step.mass is not None else ""
        d.say(f"{ship.name} rolls {step.dice} dice {ROLL_WORDS[step.purpose]}: {k} effective{fits}.",
              ship.owner, "roll")
        getattr(self, f"_after_{step.purpose}")(d, step, k)

    def _after_tie_break(self, d: _Draft, step: PendingRoll, k: int) -> None:
        d.change(step.ship, edge=d.ships[step.ship].edge + k)

    def _after_afterburner(self, d: _Draft, step: PendingRoll, k: int) -> None:
        if k:
            d.steps.insert(0, PendingTrim(step.ship, k))

    def _after_strafe(self, d: _Draft, step: PendingRoll, k: int) -> None:
        self._hits(d, step, k)

    def _after_fire(self, d: _Draft, step: PendingRoll, k: int) -> None:
        self._hits(d, step, k)

    def _hits(self, d: _Draft, step: PendingRoll, k: int) -> None:
        if k and step.target is not None:
            target = d.ships[step.target]
            d.say(f"{target.name} takes {k} hit(s).", target.owner, "damage")
            d.steps.insert(0, PendingDamage(step.target, k, step.ship))

    def _after_precision(self, d: _Draft, step: PendingRoll, k: int) -> None:
        assert step.target is not None and step.system is not None
        target = d.ships[step.target]
        slot = target.systems[step.system]
        hits = min(k, self.room_for_hits(slot))
        if k > hits:
            d.say(f"{k - hits} hit(s) more than the system can take are lost.", target.owner, "damage")
        for _ in range(hits):
            if d.ships[step.target].eliminated:
                break
            self._damage_system(d, step.target, step.system)

    def _after_heal(self, d: _Draft, step: PendingRoll, k: int) -> None:
        ship = d.ships[step.ship]
        healed = min(k, ship.crew_hurt)
        if healed:
            ship = d.change(ship.index, crew_ready=ship.crew_ready + healed, crew_hurt=ship.crew_hurt - healed)
            d.say(f"{healed} of {ship.name}'s crew are back on duty.", ship.owner)

    def _after_repair(self, d: _Draft, step: PendingRoll, k: int) -> None:
        if k:
            d.steps.insert(0, PendingRepair(step.ship, k))

    def _after_heat(self, d: _Draft, step: PendingRoll, k: int) -> None:
        if k:
            self._heat_hurts(d, step.ship, k)

    # -- damage, crew and elimination
    def _damage_system(self, d: _Draft, index: int, slot_index: int) -> None:
        """One damage mark on a slot, with its system's special rules; may eliminate the ship."""
        ship = d.ships[index]
        slot = ship.systems[slot_index]
        kind = self.rules.systems.get(slot.kind)
        damage = slot.damage + 1
        destroyed = kind.destroyed_when_full and damage >= kind.max_damage
        d.change_system(index, slot_index, damage=damage, destroyed=destroyed)
        what = "destroyed" if destroyed else "damaged" if damage == 1 else f"hit again ({damage} marks)"
        if not destroyed and damage >= kind.max_damage:
            what += ": it can take no more hits until repaired"
        d.say(f"{ship.name}'s {kind.name} (slot {slot_index + 1}) is {what}.", ship.owner, "damage")
        self._effects(d, index, kind.on_damage, kind.name)
        if destroyed:
            self._effects(d, index, kind.on_destroyed, kind.name)
        self._check_elimination(d, index)

    def _effects(self, d: _Draft, index: int, effects, name: str) -> None:
        ship = d.ships[index]
        if effects.hurt_crew and ship.crew_ready:
            hurt = min(effects.hurt_crew, ship.crew_ready)
            ship = d.change(index, crew_ready=ship.crew_ready - hurt, crew_hurt=ship.crew_hurt + hurt)
            d.say(f"The hit on the {name.lower()} hurts {hurt} crew.", ship.owner, "damage")
        if effects.add_heat:
            ship = d.change(index, heat=ship.heat + effects.add_heat)
            d.say(f"The {name.lower()} leaks: {ship.name}'s heat is now {ship.heat}.", ship.owner, "heat")
        if effects.lose_speed and ship.speed:
            ship = d.change(index, speed=max(0, ship.speed - effects.lose_speed))
            d.say(f"The {name.lower()} falters: {ship.name}'s speed drops to {ship.speed_text}.", ship.owner,
                  "damage")
        if effects.lose_crew_over_capacity:
            room = shipyard.habitat_capacity(self.rules, ship.ship_class, ship.systems)
            excess = max(0, ship.crew - room)
            if excess:
                from_hurt = min(excess, ship.crew_hurt)
                ship = d.change(index, crew_hurt=ship.crew_hurt - from_hurt,
                                crew_ready=ship.crew_ready - (excess - from_hurt))
                d.say(f"{excess} of {ship.name}'s crew are lost with the {name.lower()}.", ship.owner, "death")

    def _heat_hurts(self, d: _Draft, index: int, k: int) -> None:
        mode = self.rules.combat.aftermath.heat_hurts
        ship = d.ships[index]
        ready, hurt, lost = ship.crew_ready, ship.crew_hurt, 0
        for _ in range(k):
            if mode == "kill":
                if hurt:
                    hurt -= 1
                elif ready:
                    ready -= 1
                else:
                    break
                lost += 1
            elif ready:
                ready, hurt = ready - 1, hurt + 1
            elif mode == "ready_then_kill" and hurt:
                hurt, lost = hurt - 1, lost + 1
        newly_hurt = ship.crew_ready - ready if mode != "kill" else 0
        ship = d.change(index, crew_ready=ready, crew_hurt=hurt)
        parts = []
        if newly_hurt > 0:
            parts.append(f"{newly_hurt} crew hurt")
        if lost:
            parts.append(f"{lost} crew lost")
        if parts:
            d.say(f"The heat aboard {ship.name}: {', '.join(parts)}.", ship.owner, "death" if lost else "heat")
        self._check_elimination(d, index)

    def _check_elimination(self, d: _Draft, index: int) -> None:
        ship = d.ships[index]
        if ship.eliminated:
            return
        why = ""
        if ship.crew == 0:
            why = "no crew is left aboard"
        elif all(s.damaged for s in ship.systems):
            why = "every one of its systems is damaged"
        if why:
            d.change(index, eliminated=True)
            d.say(f"{ship.name} is out of the fight: {why}.", ship.owner, "death")

    # ------------------------------------------------------------------ moving the fight along
    def _settle(self, d: _Draft) -> _Draft:
        """Carry the fight forward until a roll or a player's decision is needed, or it is over."""
        while d.result is None:
            if d.phase == "execution" and len(d.standing_sides()) <= 1:
                self._finish(d)
                break
            self._drop_stale_steps(d)
            if d.steps:
                break
            if d.phase == "tie_break":
                self._order_ships(d)
            elif d.phase == "execution":
                if self._turn_goes_on(d):
                    break
            elif d.phase == "aftermath":
                self._aftermath_next(d)
        if d.result is not None:
            d.phase = "over"
            d.steps = []
        return d

    def _drop_stale_steps(self, d: _Draft) -> None:
        """Steps nobody can settle any more: hits on a ship already out, repairs with nothing to repair."""
        while d.steps:
            step = d.steps[0]
            ship = d.ships[step.ship]
            stale = ship.eliminated
            if isinstance(step, PendingDamage):
                stale = stale or step.hits <= 0 or not any(self.room_for_hits(s) for s in ship.systems)
            elif isinstance(step, PendingRepair):
                stale = stale or step.marks <= 0 or not any(s.damage and not s.destroyed for s in ship.systems)
            elif isinstance(step, PendingRoll):
                stale = stale or step.dice <= 0 or (step.target is not None and d.ships[step.target].eliminated)
            if not stale:
                return
            d.steps.pop(0)

    def _order_ships(self, d: _Draft) -> None:
        """Break speed ties with dice, or fix the round's order and start its first turn."""
        standing = sorted((s for s in d.ships if s.standing), key=lambda s: (-s.speed_hundredths, s.index))
        tied = [group for _, g in groupby(standing, key=lambda s: s.speed_hundredths) if len(group := list(g)) > 1]
        if tied:
            rules = self.rules.combat.tie_break
            for group in tied:
                d.say(f"{' and '.join(s.name for s in group)} tie at speed {group[0].speed_text}: they roll.",
                      kind="roll")
                for ship in group:
                    per = rules.afterburner_dice_per_engine if self.working_or_damaged(ship, "afterburner") \
                        else rules.dice_per_engine
                    dice = max(rules.minimum_dice, per * ship.mounted_count(self.kinds_with_role("engine")))
                    d.steps.append(PendingRoll("tie_break", ship.index, dice))
            return
        d.order = tuple(s.index for s in standing)
        d.phase, d.position = "execution", 0
        d.say("Order this round: " + ", ".join(f"{s.name} ({s.speed_text})" for s in standing) + ".", kind="turn")
        self._start_turn(d)

    def working_or_damaged(self, ship: ShipState, role: str) -> bool:
        """Whether ``ship`` still mounts a system of ``role`` (damaged or not, but not destroyed)."""
        return ship.mounted_count(self.kinds_with_role(role)) > 0

    def _start_turn(self, d: _Draft) -> None:
        d.actions_left = self.rules.combat.actions_per_turn
        d.fired = d.strafed = False
        ship = d.acting()
        if ship.standing:
            d.say(f"{ship.name}'s turn.", ship.owner, "turn")

    def _turn_goes_on(self, d: _Draft) -> bool:
        """True when the acting ship still has actions to take; else hand the turn on (or end the phase)."""
        if d.position < len(d.order) and d.acting().standing and d.actions_left > 0:
            return True
        d.position += 1
        if d.position < len(d.order):
            self._start_turn(d)
        else:
            d.phase, d.position, d.actions_left = "aftermath", 0, 0
            d.fired = d.strafed = False
            d.say(f"Aftermath of round {d.turn}.", kind="turn")
        return False

    def _aftermath_next(self, d: _Draft) -> None:
        """Vent the next ship's heat and roll what is left; at the end, close the round."""
        if d.position >= len(d.order):
            self._end_round(d)
            return
        index = d.order[d.position]
        d.position += 1
        ship = d.ships[index]
        if ship.eliminated:
            return
        vented = min(ship.heat, self.working(ship, "dissipator"))
        if vented:
            ship = d.change(index, heat=ship.heat - vented)
            d.say(f"{ship.name} vents {vented} heat; {ship.heat} left.", ship.owner, "heat")
        dice = ship.heat * self.rules.combat.aftermath.heat_dice_per_token
        if dice:
            d.steps.append(PendingRoll("heat", index, dice))

    def _end_round(self, d: _Draft) -> None:
        if len(d.standing_sides()) <= 1:
            self._finish(d)
            return
        fighting = {s.owner for s in d.ships if s.standing}
        if fighting <= d.ceasefire:
            d.result = Outcome((), "Ceasefire: every captain still fighting agreed to stop.")
            d.say(d.result.reason, kind="over")
            return
        limit = d.base.setup.round_limit
        if limit is not None and d.turn >= limit:
            d.result = Outcome((), f"After {limit} rounds the ships disengage; nobody wins.")
            d.say(d.result.reason, kind="over")
            return
        d.turn += 1
        d.phase, d.position, d.order, d.ceasefire = "tie_break", 0, (), frozenset()
        d.say(f"Round {d.turn} begins.", kind="turn")

    def _finish(self, d: _Draft) -> None:
        sides = d.standing_sides()
        if not sides:
            d.result = Outcome((), "Every ship is out of the fight: nobody wins.")
        else:
            side = next(iter(sides))
            setup = d.base.setup
            winners = tuple(i for i, p in enumerate(setup.players) if (p.team if setup.teams else i) == side)
            names = " and ".join(d.base.players[i].name for i in winners)
            d.result = Outcome(winners, f"{names} win{'s' if len(winners) == 1 else ''} the fight.", side)
        d.say(d.result.reason, kind="over")

    # ------------------------------------------------------------------ words for the client
    def describe(self, state: GameState, action: Action) -> str:
        """An action in a player's words, with ships and systems by name."""
        def ship_name(i: int) -> str:
            return state.ships[i].name if 0 <= i < len(state.ships) else f"ship {i}"

        def slot_name(ship: int, slot: int) -> str:
            if 0 <= ship < len(state.ships) and 0 <= slot < len(state.ships[ship].systems):
                return f"{self.rules.systems.get(state.ships[ship].systems[slot].kind).name} (slot {slot + 1})"
            return f"slot {slot + 1}"

        step = state.step
        if isinstance(action, FireWeapons):
            name = self.rules.systems.get(action.weapon).name if action.weapon in self._weapons else action.weapon
            return f"Fire {action.count} {name.lower()}(s) at {ship_name(action.target)}"
        if isinstance(action, DroneStrafe):
            return f"Drone strafe {ship_name(action.target)}"
        if isinstance(action, PrecisionFire):
            return (f"Precision fire: {action.lasers} laser(s) at {ship_name(action.target)}'s "
                    f"{slot_name(action.target, action.system)}")
        if isinstance(action, AssignDamage) and isinstance(step, PendingDamage):
            return f"Take the hit on the {slot_name(step.ship, action.system)}"
        if isinstance(action, RepairSystem) and isinstance(step, PendingRepair):
            return f"Repair the {slot_name(step.ship, action.system)}"
        if isinstance(action, Roll):
            return f"{action.value} effective dice"
        text = str(action)
        return text[:1].upper() + text[1:]
