"""Cosmoforce's computer captains. They only ever choose among ``engine.legal_actions``.

- ``RandomCaptain`` picks uniformly (for invariant checks).
- ``Captain`` plays sensibly: it cools down before the heat roll can cost crew, fires its biggest
  salvo at the enemy it is likeliest to finish, repairs and heals when hurt, and places hits where
  they cost least (armor first, never the last undamaged system while another can take it).
"""
from __future__ import annotations

from typing import Optional

from game.core.dice_rng import Chooser
from game.games.cosmoforce.rules.actions import (Action, BurnEngines, ConserveEnergy, DroneStrafe, FireWeapons,
                                                 HealCrew, RepairSystems)
from game.core.effective_dice import distribution, expected
from game.games.cosmoforce.rules.engine import CHANCE, TERMINAL, Engine
from game.games.cosmoforce.rules.state import GameState, PendingDamage, PendingRepair, PendingTrim, ShipState

#: Which systems a captain would rather lose first (lower: lose sooner) and repair last.
_KEEP = {"armor": 0, "hangar": 3, "weapon": 4, "dissipator": 2, "engine": 1, "afterburner": 1, "habitat": 5}


class RandomCaptain:
    """Uniform among the legal actions, from its own seeded stream (never the dice's)."""

    def __init__(self, seed: int):
        self.chooser = Chooser(seed)

    def choose(self, engine: Engine, state: GameState) -> Action:
        return self.chooser.choice(engine.legal_actions(state))


class Captain:
    """A careful captain: deterministic given the state, except for ties, which its own stream breaks."""

    def __init__(self, seed: int):
        self.chooser = Chooser(seed)

    def choose(self, engine: Engine, state: GameState) -> Action:
        player = engine.current_player(state)
        if player in (CHANCE, TERMINAL):
            raise ValueError("a captain acts only on its own turn or decision")
        legal = engine.legal_actions(state)
        step = state.step
        if isinstance(step, PendingDamage):
            return self._take_hit(engine, state, state.ships[step.ship], legal)
        if isinstance(step, PendingRepair):
            return self._repair(engine, state.ships[step.ship], legal)
        if isinstance(step, PendingTrim):
            return max(legal, key=lambda a: (a.faster - a.slower, -a.slower))  # type: ignore[attr-defined]
        return self._turn(engine, state, legal)

    # -- decisions
    def _keep_value(self, engine: Engine, kind: str, spent: bool = False) -> int:
        return -1 if spent else _KEEP.get(engine.role(kind), 2)

    def _take_hit(self, engine: Engine, state: GameState, ship: ShipState, legal: list[Action]) -> Action:
        undamaged = [i for i, s in enumerate(ship.systems) if not s.damaged]

        def cost(action: Action) -> tuple:
            slot = ship.systems[action.system]  # type: ignore[attr-defined]
            role = engine.role(slot)
            if role == "armor":
                return (0, slot.damage)
            last_standing = not slot.damaged and len(undamaged) == 1
            destroys = slot.damaged
            return (3 if last_standing else 2 if destroys else 1, self._keep_value(engine, slot.kind, slot.spent))

        return min(legal, key=cost)

    def _repair(self, engine: Engine, ship: ShipState, legal: list[Action]) -> Action:
        return max(legal, key=lambda a: self._keep_value(engine, ship.systems[a.system].kind))  # type: ignore[attr-defined]

    def _turn(self, engine: Engine, state: GameState, legal: list[Action]) -> Action:
        ship = state.acting_ship
        assert ship is not None
        kinds = {type(a) for a in legal}
        # Heat rolls against the crew in the aftermath: keep it below what the dissipators vent.
        venting = engine.working(ship, "dissipator")
        if ship.heat > venting and ConserveEnergy in kinds and ship.heat - venting >= max(1, ship.crew_ready):
            return ConserveEnergy()
        attack = self._best_attack(engine, state, ship, legal)
        if attack is not None:
            return attack
        if RepairSystems in kinds and ship.crew_ready >= 1:
            return RepairSystems()
        if HealCrew in kinds:
            return HealCrew()
        burns = [a for a in legal if isinstance(a, BurnEngines) and not a.afterburner and a.slower == 0
                 and a.faster == 1]
        if burns and ship.heat < venting:
            return burns[0]
        return ConserveEnergy()

    def _best_attack(self, engine: Engine, state: GameState, ship: ShipState, legal: list[Action]) -> Optional[Action]:
        """The attack with the most expected hits, favouring weak targets; lasers only when the heat allows."""
        sides = engine.rules.combat.dice.sides
        venting = engine.working(ship, "dissipator")
        best: Optional[tuple[tuple, Action]] = None
        for action in legal:
            if isinstance(action, FireWeapons):
                weapon = engine.rules.weapons.get(action.weapon)
                heat = ship.heat + action.count * weapon.heat_per_system
                if heat - venting > max(1, ship.crew_ready // 2) and weapon.heat_per_system:
                    continue
                dice = action.count * weapon.dice_per_system
            elif isinstance(action, DroneStrafe):
                dice = engine.working(ship, "hangar") * engine.rules.combat.drone_strafe.dice_per_hangar
            else:
                continue
            target = state.ships[action.target]
            mass = target.mass if isinstance(action, FireWeapons) and engine.rules.combat.shooting.fit_in_mass else None
            hits = expected(distribution(dice, sides, mass))
            undamaged = sum(1 for s in target.systems if not s.damaged)
            score = (hits / max(1, undamaged), hits)
            if best is None or score > best[0]:
                best = (score, action)
        return best[1] if best is not None else None


def make_captain(kind: str, seed: int):
    """``captain`` (careful) or ``random``."""
    if kind == "random":
        return RandomCaptain(seed)
    if kind == "captain":
        return Captain(seed)
    raise ValueError(f"unknown bot '{kind}' (captain or random)")

