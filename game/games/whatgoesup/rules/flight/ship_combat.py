"""Space war, ship to ship: two hostile Upgoers at the same step fight Cosmoforce combat rounds.

The active craft opens fire (``OpenFire``) on a hostile craft at its step. Its parts become Cosmoforce
systems by ``ship_combat.yaml`` (``ship_mapping``): a capsule is a habitat, a thruster an engine, a
Waylight a laser, a probe a missile, a cart armor; its derps are the crew (healthy: ready, injured: hurt).
The round, the subset of Cosmoforce this game plays (docs/rules-decisions.md, "Space war: ship-to-ship"):

1. speed order: the craft with more working engines acts first; a tie goes to the craft that opened fire;
2. each craft's turn is one action: fire every chosen weapon of one kind at the other craft (a shot of
   effective dice that must fit within the target's fighting mass; lasers add heat, a missile's part is
   spent), or conserve energy (shed heat);
3. each hit is placed by the owner of the craft hit, on a part that can take it: a part's first hit is a
   Fail (by default it is disabled, and can be jury-rigged as ever), its last hit a Boom (by default it is
   destroyed; a capsule's takes the whole craft) -- the flight table's own effects, listed in the YAML;
4. the aftermath: each craft vents heat through its working dissipators and rolls a die per heat token
   left; each effective die injures a healthy derp aboard (with none healthy, an injured one dies);
5. the truce: "After each round ends, if all combatants agree to cease hostilities, the fight is over".
   Each craft's owner in speed order fights on (``ShipFightOn``: the next round begins at once) or offers a
   ceasefire (``ShipCeasefire``); when both offered, the fight is over. ``max_rounds`` ends it anyway.

A craft is out of the fight when it is destroyed, loses its whole crew, or has every part that fights
damaged; the fight then ends at once. Every die is a chance step with exact odds (``game.core.effective_dice``).
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Optional

from game.core import effective_dice
from game.core.interface import CHANCE, IllegalAction
from game.games.whatgoesup.rules.actions import Action, Roll, register
from game.games.whatgoesup.rules.flight.common import FlightBase, FlightPhase, PendingRoll
from game.games.whatgoesup.rules.ship_mapping import PartSystem, fight_class, fighting_mass, systems_aboard
from game.games.whatgoesup.rules.state import Event, GameState, Upgoer, update
from game.core.words import counted


# ---------------------------------------------------------------- actions
@register
@dataclass(frozen=True)
class OpenFire(Action):
    """Space war: the active craft starts a ship-to-ship fight with a hostile craft at its step."""

    target: str

    def __str__(self) -> str:
        return f"open fire on {self.target}"


@register
@dataclass(frozen=True)
class ShipFire(Action):
    """In a ship fight: fire ``count`` working parts playing ``weapon`` at the other craft."""

    weapon: str
    count: int

    def __str__(self) -> str:
        return f"fire {counted(self.count, self.weapon)}"


@register
@dataclass(frozen=True)
class ShipConserve(Action):
    """In a ship fight: hold fire and shed heat."""

    def __str__(self) -> str:
        return "conserve energy"


@register
@dataclass(frozen=True)
class ShipFightOn(Action):
    """In a ship fight, when a round is over: refuse a ceasefire; the next round begins."""

    def __str__(self) -> str:
        return "fight on"


@register
@dataclass(frozen=True)
class ShipCeasefire(Action):
    """In a ship fight, when a round is over: offer to cease fire (the fight ends when both craft offer)."""

    def __str__(self) -> str:
        return "offer a ceasefire"


@register
@dataclass(frozen=True)
class TakeHit(Action):
    """In a ship fight: the craft hit takes the next hit on this part."""

    item: str

    def __str__(self) -> str:
        return f"take the hit on {self.item}"


# ---------------------------------------------------------------- the fight's state
@dataclass(frozen=True)
class Combatant:
    """One craft in a ship fight, as Cosmoforce sees it (fixed when the fight opens, but heat and hits)."""

    upgoer: str
    fight_class: str
    mass: int  # fighting mass: what a shot's kept dice must fit within
    speed: int
    heat: int
    crewed: bool  # derps were aboard when it opened (only then does losing them all end its fight)
    hits: tuple[tuple[str, int], ...] = ()  # (part, hits taken): a part disabled before the fight has one

    def hits_on(self, item_id: str) -> int:
        return dict(self.hits).get(item_id, 0)


@dataclass(frozen=True)
class FightRoll:
    """Dice waiting to be rolled: ``purpose`` fire (a shot at the other side) or heat (the aftermath)."""

    purpose: str
    side: int  # index into ShipFight.sides
    dice: int
    mass: Optional[int] = None  # a shot: the target's fighting mass
    weapon: str = ""
    count: int = 0


@dataclass(frozen=True)
class ShipFight:
    """A ship fight under way: ``sides`` (the attacker first), the speed ``order`` (indices into sides),
    ``position`` in it, then the aftermath and, between rounds, the truce; at most one roll or one series of
    hits is pending."""

    sides: tuple[Combatant, Combatant]
    order: tuple[int, int]
    stage: str = "execution"  # execution, aftermath, truce (each side fights on or offers a ceasefire)
    round: int = 1
    position: int = 0
    roll: Optional[FightRoll] = None
    hits_side: Optional[int] = None  # the side placing hits
    hits_left: int = 0
    crew: tuple[str, ...] = ()  # the derps aboard both craft when it opened (a death among them opens the war)

    @property
    def attacker(self) -> str:
        return self.sides[0].upgoer

    @property
    def defender(self) -> str:
        return self.sides[1].upgoer


def _other(side: int) -> int:
    return 1 - side


class ShipCombatPart(FlightBase):
    """Ship-to-ship fights under space war."""

    # ------------------------------------------------------------------ who may fight
    def _ship_foes(self, state: GameState, upgoer: Upgoer) -> list[Upgoer]:
        """Hostile craft flying at ``upgoer``'s stable step (``hostilities``: Space War on, not a cooperative game)."""
        return self.hostile_craft_here(state, upgoer)

    def ship_systems(self, state: GameState, upgoer: Upgoer) -> tuple[tuple[str, PartSystem], ...]:
        """``(item id, system)`` for every part of ``upgoer`` that fights (in its module order)."""
        table = self.rules.ship_combat
        aboard = {i.id: i for i in self._items_aboard(state, upgoer)}
        return systems_aboard(table, ((m, self._kind(state, aboard[m])) for m in upgoer.modules if m in aboard))

    def _working(self, state: GameState, upgoer: Upgoer, fighter: Optional[Combatant], plays: str,
                 weapon: str = "") -> list[str]:
        """The parts playing ``plays`` (and ``weapon``) that can act: not disabled and not hit in this fight."""
        out = []
        for item_id, system in self.ship_systems(state, upgoer):
            if system.plays != plays or (weapon and system.weapon != weapon):
                continue
            if state.item(item_id).disabled or (fighter is not None and fighter.hits_on(item_id)):
                continue
            out.append(item_id)
        return out

    def _ship_fight_candidates(self, state: GameState, upgoer: Upgoer) -> list[Action]:
        """``OpenFire`` at each hostile craft here (for the activity menu; ``_open_fire`` has the last word)."""
        return [OpenFire(u.id) for u in self._ship_foes(state, upgoer)]

    def combatant(self, state: GameState, upgoer: Upgoer) -> Combatant:
        """``upgoer`` as it would enter a fight now: class and mass from its spacecraft mass, speed and heat
        from its engines and dissipators (Cosmoforce's starting rules), its crew and its parts already failed."""
        table = self.rules.ship_combat
        systems = self.ship_systems(state, upgoer)
        klass = fight_class(table, self.spacecraft_mass(state, upgoer))
        engines = len(self._working(state, upgoer, None, "engine"))
        dissipators = len(self._working(state, upgoer, None, "dissipator"))
        hits = tuple((i, 1) for i, _ in systems if state.item(i).disabled)
        return Combatant(upgoer=upgoer.id, fight_class=klass.id, mass=fighting_mass(klass, len(systems)),
                         speed=engines, heat=max(0, engines - dissipators), crewed=bool(self._crew(state, upgoer)),
                         hits=hits)

    # ------------------------------------------------------------------ opening fire
    def _check_open_fire(self, state: GameState, upgoer: Upgoer, a: OpenFire) -> None:
        self._require_activity(state, upgoer, "opening fire")
        f: FlightPhase = state.flight
        target = state.find("upgoer", a.target)
        if target is None or target.id not in {u.id for u in self._ship_foes(state, upgoer)}:
            if not self.space_war(state):
                raise IllegalAction("craft only fight when the group plays with Space War")
            raise IllegalAction("there is no hostile craft by that name flying here")
        table = self.rules.ship_combat
        if f.ship_fights.count(upgoer.id) >= table.fights_per_turn:
            raise IllegalAction(f"{upgoer.name} has already fought this turn")
        if not any(self._working(state, upgoer, None, "weapon")):
            raise IllegalAction(f"{upgoer.name} carries nothing that can fire (a Waylight or a probe, say)")
        if not self.ship_systems(state, target):
            raise IllegalAction(f"{target.name} has nothing a shot could hit")

    def _open_fire(self, state: GameState, upgoer: Upgoer, a: OpenFire) -> GameState:
        self._check_open_fire(state, upgoer, a)
        f: FlightPhase = state.flight
        target = state.upgoer(a.target)
        sides = (self.combatant(state, upgoer), self.combatant(state, target))
        order = (0, 1) if sides[0].speed >= sides[1].speed else (1, 0)
        crew = tuple(d.id for d in self._crew(state, upgoer) + self._crew(state, target))
        fight = ShipFight(sides=sides, order=order, crew=crew)
        state = self._set(state, ship_fight=fight, ship_fights=f.ship_fights + (upgoer.id,))
        state = self._quarrel(state, upgoer.owner, target.owner, f"{upgoer.name} opens fire on {target.name}")
        words = [f"{upgoer.name} opens fire on {target.name}!"]
        for side in sides:
            craft = state.upgoer(side.upgoer)
            name = self._class_name(side.fight_class)
            words.append(f"{craft.name}: {name} of fighting mass {side.mass}, speed {side.speed}, heat {side.heat}.")
        first = state.upgoer(sides[order[0]].upgoer).name
        tie = " (a tie goes to the craft that opened fire)" if sides[0].speed == sides[1].speed else ""
        words.append(f"{first} is faster and acts first{tie}.")
        state = self._say(state, [Event(" ".join(words), upgoer.owner, "fight")])
        return self._fight_advance(state)

    def _class_name(self, class_id: str) -> str:
        klass = next(c for c in self.rules.ship_combat.classes if c.id == class_id)
        return ("an " if klass.name[:1].lower() in "aeiou" else "a ") + klass.name.lower()

    # ------------------------------------------------------------------ the engine's questions during a fight
    def ship_fight_player(self, state: GameState) -> int:
        """Who acts in the fight now: CHANCE for its dice, else the owner of the craft deciding."""
        fight: ShipFight = state.flight.ship_fight
        if fight.roll is not None:
            return CHANCE
        return state.upgoer(fight.sides[self._deciding_side(fight)].upgoer).owner

    @staticmethod
    def _deciding_side(fight: ShipFight) -> int:
        return fight.hits_side if fight.hits_side is not None else fight.order[fight.position]

    def _ship_fight_truce(self, state: GameState) -> bool:
        """A round is over and a craft's owner answers: fight on, or offer a ceasefire."""
        fight: ShipFight = state.flight.ship_fight
        return fight.stage == "truce" and fight.roll is None and fight.hits_side is None

    def ship_fight_distribution(self, state: GameState) -> tuple[tuple[int, Fraction], ...]:
        """The pending fight roll's effective dice, exactly (empty when no fight die is waiting)."""
        fight: Optional[ShipFight] = state.flight.ship_fight
        if fight is None or fight.roll is None:
            return ()
        return effective_dice.distribution(fight.roll.dice, self.rules.ship_combat.sides, fight.roll.mass)

    def _ship_fight_outcomes(self, state: GameState) -> list[tuple[Roll, Fraction]]:
        return [(Roll(k), p) for k, p in self.ship_fight_distribution(state) if p]

    def _ship_fight_candidates_now(self, state: GameState) -> list[Action]:
        fight: ShipFight = state.flight.ship_fight
        if fight.roll is not None:
            return [roll for roll, _ in self._ship_fight_outcomes(state)]
        if fight.hits_side is not None:
            side = fight.sides[fight.hits_side]
            craft = state.upgoer(side.upgoer)
            return [TakeHit(i) for i, system in self.ship_systems(state, craft) if self._room(side, i, system)]
        if fight.stage == "truce":
            return [ShipFightOn(), ShipCeasefire()]
        side = fight.order[fight.position]
        me = fight.sides[side]
        craft = state.upgoer(me.upgoer)
        out: list[Action] = []
        for weapon in self.rules.ship_combat.weapons:
            ready = len(self._working(state, craft, me, "weapon", weapon.id))
            out += [ShipFire(weapon.id, n) for n in range(ready, 0, -1)]
        out.append(ShipConserve())
        return out

    def _ship_fight_legal(self, state: GameState) -> list[Action]:
        """The fight's decisions now (which part takes a hit; fire or conserve), each held to the check its
        handler makes first; the fight's dice are chance's, judged by applying them."""
        fight: ShipFight = state.flight.ship_fight
        candidates = self._ship_fight_candidates_now(state)
        if fight.roll is not None:
            return [a for a in candidates if self._allowed(state, a)]
        if fight.stage == "truce":
            return candidates  # both answers are always open
        out = []
        for action in candidates:
            try:
                if isinstance(action, TakeHit) and fight.hits_side is not None:
                    self._check_take_hit(state, fight, action)
                elif isinstance(action, ShipFire) and fight.hits_side is None:
                    self._check_fire(state, fight, action)
                elif not (isinstance(action, ShipConserve) and fight.hits_side is None):
                    continue  # refused by _ship_fight_apply whatever it is
            except IllegalAction:
                continue
            out.append(action)
        return out

    def _ship_fight_apply(self, state: GameState, action: Action) -> GameState:
        fight: ShipFight = state.flight.ship_fight
        if fight.roll is not None:
            if not isinstance(action, Roll):
                raise IllegalAction("the dice of the fight must be rolled first")
            values = {k for k, p in self.ship_fight_distribution(state) if p}
            if action.value not in values:
                raise IllegalAction(f"{fight.roll.dice} dice cannot show {action.value} effective dice here")
            state = self._fight_rolled(state, fight, action.value)
        elif fight.hits_side is not None:
            if not isinstance(action, TakeHit):
                raise IllegalAction("choose which part takes the hit")
            state = self._take_hit(state, fight, action)
        elif fight.stage == "truce":
            if isinstance(action, ShipFightOn):
                state = self._fight_on(state, fight)
            elif isinstance(action, ShipCeasefire):
                state = self._offer_ceasefire(state, fight)
            else:
                raise IllegalAction("the round is over: fight on, or offer a ceasefire")
        elif isinstance(action, ShipFire):
            state = self._fire(state, fight, action)
        elif isinstance(action, ShipConserve):
            state = self._conserve(state, fight)
        else:
            raise IllegalAction("in the middle of a fight: fire, or conserve energy")
        return self._fight_advance(state)

    # ------------------------------------------------------------------ a craft's turn
    def _check_fire(self, state: GameState, fight: ShipFight, a: ShipFire) -> None:
        side = fight.order[fight.position]
        me, them = fight.sides[side], fight.sides[_other(side)]
        craft, target = state.upgoer(me.upgoer), state.upgoer(them.upgoer)
        try:
            weapon = self.rules.ship_combat.weapon(a.weapon)
        except KeyError:
            raise IllegalAction(f"there is no weapon '{a.weapon}'") from None
        ready = self._working(state, craft, me, "weapon", weapon.id)
        if not 1 <= a.count <= len(ready):
            raise IllegalAction(f"{craft.name} has {counted(len(ready), weapon.name)} ready, not {a.count}")
        if weapon.target_must_be_slower and not me.speed > them.speed:
            raise IllegalAction(f"a {weapon.name} only hits a slower craft; {target.name} is not slower")

    def _fire(self, state: GameState, fight: ShipFight, a: ShipFire) -> GameState:
        self._check_fire(state, fight, a)
        side = fight.order[fight.position]
        me, them = fight.sides[side], fight.sides[_other(side)]
        craft, target = state.upgoer(me.upgoer), state.upgoer(them.upgoer)
        weapon = self.rules.ship_combat.weapon(a.weapon)
        ready = self._working(state, craft, me, "weapon", weapon.id)
        heat = me.heat + a.count * weapon.heat_per_system
        sides = list(fight.sides)
        sides[side] = update(me, heat=heat)
        dice = a.count * weapon.dice_per_system
        fired = ready[: a.count]
        names = ", ".join(self._name(state, state.item(i)) for i in fired)
        fits = "it fits" if dice == 1 else "they fit"
        text = (f"{craft.name} fires {names} at {target.name}: {counted(dice, 'die', 'dice')}, kept only if {fits} "
                f"within its mass of {them.mass}.")
        if weapon.heat_per_system:
            text += f" Heat aboard rises to {heat}."
        state = self._say(state, [Event(text, craft.owner, "fight")])
        if weapon.spent_after_firing:
            state = self._spend_parts(state, craft, fired, f"{names} {'is' if len(fired) == 1 else 'are'} gone, flung at {target.name}.")
        fight = update(fight, sides=tuple(sides), position=fight.position + 1,
                       roll=FightRoll("fire", side, dice, them.mass, weapon.id, a.count))
        return self._set(state, ship_fight=fight)

    def _spend_parts(self, state: GameState, craft: Upgoer, item_ids: list[str], text: str) -> GameState:
        state = self._destroy_items(state, item_ids)
        craft = state.upgoer(craft.id)
        state = self._replace_upgoer(state, update(craft, modules=tuple(m for m in craft.modules if m not in item_ids)))
        return self._event(state, text, craft, "fight")

    def _conserve(self, state: GameState, fight: ShipFight) -> GameState:
        side = fight.order[fight.position]
        me = fight.sides[side]
        shed = min(me.heat, self.rules.ship_combat.conserve_energy_heat)
        sides = list(fight.sides)
        sides[side] = update(me, heat=me.heat - shed)
        craft = state.upgoer(me.upgoer)
        state = self._event(state, f"{craft.name} holds fire and conserves energy"
                            + (f": heat down to {me.heat - shed}." if shed else "."), craft, "fight")
        return self._set(state, ship_fight=update(fight, sides=tuple(sides), position=fight.position + 1))

    # ------------------------------------------------------------------ dice
    def _fight_rolled(self, state: GameState, fight: ShipFight, k: int) -> GameState:
        roll = fight.roll
        me = fight.sides[roll.side]
        craft = state.upgoer(me.upgoer)
        fight = update(fight, roll=None)
        if roll.purpose == "fire":
            them = fight.sides[_other(roll.side)]
            target = state.upgoer(them.upgoer)
            state = self._event(state, f"{craft.name} rolls {counted(roll.dice, 'die', 'dice')} to shoot: {k} effective within "
                                f"{target.name}'s mass of {roll.mass}, so {self._hits_words(k)}.", craft, "roll")
            if k:
                fight = update(fight, hits_side=_other(roll.side), hits_left=k)
            return self._set(state, ship_fight=fight)
        state = self._event(state, f"{craft.name} rolls {counted(roll.dice, 'die', 'dice')} for its heat: {k} effective.", craft, "roll")
        state = self._set(state, ship_fight=fight)
        return self._heat_hurts(state, craft, k)

    @staticmethod
    def _hits_words(k: int) -> str:
        return "a miss" if k == 0 else "1 hit" if k == 1 else f"{k} hits"

    def _heat_hurts(self, state: GameState, craft: Upgoer, k: int) -> GameState:
        """Each effective heat die injures a healthy derp aboard, or, with none healthy, an injured one dies."""
        for _ in range(k):
            crew = self._crew(state, craft)
            healthy = [d for d in crew if not d.injured]
            victim = healthy[0] if healthy else (crew[0] if crew else None)
            if victim is None:
                break
            state = self._injure(state, craft, [victim], "the heat of the fight")
        return state

    # ------------------------------------------------------------------ hits
    @staticmethod
    def _room(side: Combatant, item_id: str, system: PartSystem) -> bool:
        return side.hits_on(item_id) < system.max_hits

    def _check_take_hit(self, state: GameState, fight: ShipFight, a: TakeHit) -> None:
        side = fight.sides[fight.hits_side]
        craft = state.upgoer(side.upgoer)
        system = dict(self.ship_systems(state, craft)).get(a.item)
        if system is None:
            raise IllegalAction(f"{a.item} is not a part of {craft.name} that can be hit")
        if not self._room(side, a.item, system):
            raise IllegalAction(f"{self._name(state, state.item(a.item))} can take no more hits")

    def _take_hit(self, state: GameState, fight: ShipFight, a: TakeHit) -> GameState:
        self._check_take_hit(state, fight, a)
        side_index = fight.hits_side
        side = fight.sides[side_index]
        craft = state.upgoer(side.upgoer)
        system = dict(self.ship_systems(state, craft))[a.item]
        item = state.item(a.item)
        hits = side.hits_on(a.item) + 1
        sides = list(fight.sides)
        sides[side_index] = update(side, hits=tuple((i, n) for i, n in side.hits if i != a.item) + ((a.item, hits),))
        state = self._set(state, ship_fight=update(fight, sides=tuple(sides), hits_left=fight.hits_left - 1))
        name = self._name(state, item)
        destroyed = system.destroyed_when_full and hits >= system.max_hits
        if destroyed:
            effects, words = system.when_destroyed, f"Boom! {name} on {craft.name} is shot to pieces."
        elif hits == 1:
            effects, words = system.when_damaged, f"{name} on {craft.name} is hit and fails."
        else:
            effects, words = (), f"{name} on {craft.name} takes another hit ({hits} of {system.max_hits})."
        state = self._event(state, words, craft, "consequence")
        roll = PendingRoll(kind="ship_fight", upgoer=craft.id, items=(item.id,),
                           rating=self.engine.item_rating(state, item), step=craft.location)
        if destroyed and self.rules.ship_combat.boom_penalty:
            state = self._boom_penalty(state, roll)
        for effect in effects:
            state, _ = self._effect(state, roll, effect)
        return state

    # ------------------------------------------------------------------ carrying the fight on
    def _out_of_fight(self, state: GameState, side: Combatant) -> Optional[str]:
        """Why a craft can fight no more (destroyed, no crew, every part damaged), or None."""
        craft = state.find("upgoer", side.upgoer)
        if craft is None or craft.status != "flying":
            return "it is no longer flying"
        if side.crewed and not self._crew(state, craft):
            return "nobody is left alive aboard"
        systems = self.ship_systems(state, craft)
        if all(side.hits_on(i) or state.item(i).disabled for i, _ in systems):
            return "every part that fights is damaged"
        return None

    def _fight_advance(self, state: GameState) -> GameState:
        """Carry the fight on to its next decision or die, or end it."""
        for _ in range(100):
            fight: ShipFight = state.flight.ship_fight
            for side in fight.sides:
                why = self._out_of_fight(state, side)
                if why:
                    craft = state.upgoer(side.upgoer)
                    state = self._event(state, f"{craft.name} is out of the fight: {why}.", craft, "fight")
                    return self._end_ship_fight(state)
            if fight.roll is not None:
                return state
            if fight.hits_side is not None:
                side = fight.sides[fight.hits_side]
                craft = state.upgoer(side.upgoer)
                room = [i for i, s in self.ship_systems(state, craft) if self._room(side, i, s)]
                if fight.hits_left > 0 and room:
                    return state
                if fight.hits_left > 0:
                    state = self._event(state, f"{self._hits_words(fight.hits_left).capitalize()} more find nothing "
                                        f"left to damage on {craft.name}.", craft, "fight")
                state = self._set(state, ship_fight=update(fight, hits_side=None, hits_left=0))
                continue
            if fight.stage == "execution":
                if fight.position < len(fight.order):
                    return state
                state = self._event(state, "The guns fall silent: the aftermath of the fight.", None, "fight")
                state = self._set(state, ship_fight=update(fight, stage="aftermath", position=0))
                continue
            if fight.stage == "aftermath":
                if fight.position < len(fight.order):
                    state = self._aftermath(state, fight)
                    continue
                if fight.round >= self.rules.ship_combat.max_rounds:
                    if fight.round > 1:
                        state = self._event(state, f"After {counted(fight.round, 'round')} both crews have had "
                                            "enough.", None, "fight")
                    return self._end_ship_fight(state)
                state = self._event(state, f"Round {fight.round} is over. Unless both craft offer a ceasefire, "
                                    "the fight goes on.", None, "fight")
                state = self._set(state, ship_fight=update(fight, stage="truce", position=0))
                continue
            if fight.position < len(fight.order):
                return state  # the truce: a craft's owner answers
            state = self._event(state, "Both craft hold their fire: the ceasefire stands.", None, "fight")
            return self._end_ship_fight(state)
        raise RuntimeError("the ship fight did not settle")  # a bug, never a player's doing

    def _fight_on(self, state: GameState, fight: ShipFight) -> GameState:
        """One side refuses the ceasefire: the next round begins (in the same speed order, heat kept)."""
        craft = state.upgoer(fight.sides[fight.order[fight.position]].upgoer)
        state = self._event(state, f"{craft.name} fights on: round {fight.round + 1} begins.", craft, "fight")
        return self._set(state, ship_fight=update(fight, stage="execution", position=0, round=fight.round + 1))

    def _offer_ceasefire(self, state: GameState, fight: ShipFight) -> GameState:
        craft = state.upgoer(fight.sides[fight.order[fight.position]].upgoer)
        state = self._event(state, f"{craft.name} offers a ceasefire.", craft, "fight")
        return self._set(state, ship_fight=update(fight, position=fight.position + 1))

    def _aftermath(self, state: GameState, fight: ShipFight) -> GameState:
        """Vent the next craft's heat through its working dissipators, and roll the heat that is left."""
        side_index = fight.order[fight.position]
        side = fight.sides[side_index]
        craft = state.upgoer(side.upgoer)
        vented = min(side.heat, len(self._working(state, craft, side, "dissipator")))
        heat = side.heat - vented
        sides = list(fight.sides)
        sides[side_index] = update(side, heat=heat)
        if vented:
            state = self._event(state, f"{craft.name} vents {vented} heat; {heat} left.", craft, "fight")
        dice = heat * self.rules.ship_combat.heat_dice_per_token
        roll = FightRoll("heat", side_index, dice) if dice and self._crew(state, craft) else None
        return self._set(state, ship_fight=update(fight, sides=tuple(sides), position=fight.position + 1, roll=roll))

    def _end_ship_fight(self, state: GameState) -> GameState:
        fight: ShipFight = state.flight.ship_fight
        names = " and ".join(state.upgoer(s.upgoer).name for s in fight.sides)
        state = self._set(state, ship_fight=None)
        state = self._say(state, [Event(f"The fight between {names} is over.", None, "fight")])
        killed = [state.derp(d) for d in fight.crew if state.derp(d).dead]
        if killed and self.rules.space_war.open_war.starts_when == "derp_killed":
            attacker, defender = state.upgoer(fight.attacker), state.upgoer(fight.defender)
            lost = ", ".join(d.name for d in killed)
            state = self._open_war(state, attacker.owner, defender.owner, f"{lost} died in a ship fight")
        return state

    # ------------------------------------------------------------------ words for the client
    def ship_fight_odds(self, state: GameState) -> Optional[dict[int, Fraction]]:
        """The pending fight roll's chances by effective dice (for the roll card), or None."""
        dist = self.ship_fight_distribution(state)
        return {k: p for k, p in dist if p} if dist else None

    def ship_fight_roll_words(self, state: GameState) -> Optional[str]:
        """What the pending fight roll is for, in a player's words, or None."""
        fight: Optional[ShipFight] = state.flight.ship_fight
        if fight is None or fight.roll is None:
            return None
        roll = fight.roll
        craft = state.upgoer(fight.sides[roll.side].upgoer)
        if roll.purpose == "fire":
            target = state.upgoer(fight.sides[_other(roll.side)].upgoer)
            weapon = self.rules.ship_combat.weapon(roll.weapon).name
            return (f"{craft.name} shoots {roll.count} {weapon}{'s' if roll.count != 1 else ''} at {target.name}: "
                    f"{roll.dice} dice; odd faces hit, smallest first, as long as they add up to no more than "
                    f"its fighting mass of {roll.mass}.")
        return (f"The heat aboard {craft.name}: {roll.dice} dice; each odd face injures a healthy derp "
                f"(or, with none healthy, an injured one dies).")


__all__ = ["OpenFire", "ShipFire", "ShipConserve", "ShipFightOn", "ShipCeasefire", "TakeHit", "Combatant", "FightRoll", "ShipFight",
           "ShipCombatPart"]