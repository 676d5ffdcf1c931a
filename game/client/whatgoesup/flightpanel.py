"""The flight panel: the active craft's legal actions as buttons with plain words, and route help.

``describe_action`` is the one place an action becomes a button label and a one-line explanation;
``FlightPanel`` lays the buttons out in a scrolling column and reports which action was pressed.
Dockings and EVAs are grouped: one "Dock with…" and one "EVA to…" button open a small chooser in
the same column (which craft, then which derp and how), with a way back.
Nothing here decides anything: the buttons are exactly ``session.legal_actions()``.
"""
from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Optional

import pygame
import pygame_gui
from pygame_gui.core import ObjectID

from game.games.whatgoesup.rules import formulas
from game.games.whatgoesup.rules.skills import ENGINEERING, MOVE_ROLL, PILOTING
from game.games.whatgoesup.rules.flight_actions import (AcceptRoll, AllowDocking, Burn, ChooseConsequence, Coast, Deploy,
                                       Dock, EndActivities, Eva, Hold, JuryRig, KeepRoll, Launch, Move, Nudge,
                                       PickEnemy, RepelDocking, Retag, Shed, StartFight, Transfer, Undock, UseLuck,
                                       UsePayload, UseRcsBoost, UseSkill, VisitTemple, Wait, WalkOutside, WriteOff)

from game.games.whatgoesup.rules.actions import OfferTrade
from game.games.whatgoesup.rules.flight_actions import Recover, Separate, SwitchPayload

from game.client.kit.words import counted
from game.client.scenes.dice import percent_text
from game.games.whatgoesup.rules.flight.ship_combat import (OpenFire, ShipCeasefire, ShipConserve, ShipFightOn, ShipFire,
                                                            TakeHit)
from game.games.whatgoesup.rules.underped_actions import AbortOrders, GiveStamina, PowerDown, PowerUp, SelfDestruct

if TYPE_CHECKING:
    from game.games.whatgoesup.rules.actions import Action
    from game.games.whatgoesup.rules.engine import Engine
    from game.games.whatgoesup.rules.state import GameState

#: A Fail's choice (``ChooseConsequence``): its button and what it does, with the numbers of the choice's effect
#: (flight.yaml's ``choose``: ``units`` of rations, ``fail``/``boom`` safety lost).
CHOICE_WORDS = {
    "lose_payload": ("Lose a payload", lambda e: "Throw away one payload (or RCS) aboard; everything else stays as it is."),
    "lose_rations": ("Lose rations", lambda e: f"Every derp aboard loses {counted(e.units, 'derp-turn')} of rations."),
    "degrade_all_parts": ("Damage every part", lambda e: (f"Every part aboard loses {e.fail} from its Fail safety and "
                                                          f"{e.boom} from its Boom safety for the rest of this flight.")),
}


def _name(state: "GameState", kind: str, some_id: str) -> str:
    found = state.find(kind, some_id)
    if found is None:
        return some_id
    if kind == "item":
        return state.thing(found.thing_id).name
    return found.name


def burn_fuel_cost(engine: "Engine", state: "GameState", upgoer_id: str) -> Optional[int]:
    upgoer = state.find("upgoer", upgoer_id)
    if upgoer is None:
        return None
    mass = engine.flight_rules.spacecraft_mass(state, upgoer)
    return formulas.fuel_for_burn(mass, engine.rules.economy.fuel)


def help_words(engine: "Engine", state: "GameState", who: str, skill: str, amount: int,
               cost: str) -> tuple[list[str], str]:
    """(button labels, longest first, and the explanation) for one spend of help on the rolled value: who
    spends what, by how much, and what the roll becomes, in the words of the rules' reading (``flight.yaml:
    skills``). A button shows the longest label that fits it (the roll card makes its buttons wide enough for
    the shortest, which still names the skill whole); the explanation is its tooltip."""
    roll = state.flight.roll if state.flight is not None else None
    word = "Engineering" if skill == ENGINEERING else "Piloting"
    if roll is None or roll.value is None:
        return [f"{who}: {word} {amount}"], f"{cost}."
    after = engine.flight_rules.roll_after_help(roll, skill, amount)
    before, result = roll.outcome(), after.outcome()
    still = "still " if result is before else ""
    if engine.rules.flight.skills == MOVE_ROLL:
        old, new = roll.judged_value(), after.judged_value()
        towards = "towards Fail" if skill == ENGINEERING else "towards OK"
        stop = f" (only {old - new}: Engineering stops at the Fail safety)" if old - new < amount else ""
        why = (f"{cost} to move the roll {towards} by {amount}{stop}: {old} becomes {new}, "
               f"{still}{result.label} against {after.effective()}.")
        return [f"{who}: {word} {old} to {new} ({still}{result.label})", f"{who}: {word} to {new} ({result.label})"], why
    safety = "Boom" if skill == ENGINEERING else "Fail"
    why = (f"{cost}: the {safety} safety rises by {amount} for this roll, to {after.effective()}; the "
           f"{roll.value} is {still}{result.label}.")
    return [f"{who}: {word} +{amount} ({still}{result.label})", f"{who}: {word} +{amount} ({result.label})"], why


def label_variants(engine: "Engine", state: "GameState", action: "Action") -> list[str]:
    """An action's button labels, longest first (most actions have one; help on a roll has shorter ones)."""
    described = _describe_help(engine, state, action)
    return described[0] if described is not None else [describe_action(engine, state, action)[0]]


def help_spend(engine: "Engine", state: "GameState", action: "Action") -> Optional[tuple[str, int]]:
    """The skill and the points a skill spend or an RCS boost puts on the rolled value (an RCS boost is
    Piloting), None for any other action."""
    if isinstance(action, UseSkill):
        derp = state.find("derp", action.derp)
        if action.skill == ENGINEERING:
            return action.skill, derp.engineering if derp else 0
        return action.skill, engine.flight_rules.piloting(state, derp) if derp else 0
    if isinstance(action, UseRcsBoost):
        return PILOTING, engine.rules.components.rcs_piloting_bonus
    return None


def judged_roll(engine: "Engine", state: "GameState", action: "Action"):
    """The roll waiting for help in ``state`` as it stands once ``action`` is done: moved by a skill spend or
    an RCS boost, the old or new value of a luck reroll kept, or as it is when accepted (None for any other
    action, or when no rolled roll waits)."""
    roll = state.flight.roll if state.phase == "flight" and state.flight is not None else None
    if roll is None or roll.value is None:
        return None
    if isinstance(action, AcceptRoll):
        return roll
    if isinstance(action, KeepRoll):
        if roll.previous is None:
            return None
        return dataclasses.replace(roll, value=roll.value if action.new else roll.previous, previous=None)
    spend = help_spend(engine, state, action)
    return engine.flight_rules.roll_after_help(roll, *spend) if spend is not None else None


def _describe_help(engine: "Engine", state: "GameState", action: "Action") -> Optional[tuple[list[str], str]]:
    """The labels and explanation of a skill spend or an RCS boost on the rolled value (None for others)."""
    spend = help_spend(engine, state, action)
    if isinstance(action, UseSkill):
        derp = state.find("derp", action.derp)
        name = derp.name if derp else action.derp
        left = derp.current_stamina if derp else 0
        return help_words(engine, state, name.split()[0], action.skill, spend[1],
                          f"{name} spends a stamina point ({left} left, {max(0, left - 1)} after)")
    if isinstance(action, UseRcsBoost):
        bonus = spend[1]
        item = state.find("item", action.item)
        left = item.uses_left if item else 0
        return help_words(engine, state, "RCS", PILOTING, bonus, f"Spend one RCS use ({left} left) for +{bonus} Piloting")
    return None


def _first(state: "GameState", derp_id: str) -> str:
    return _name(state, "derp", derp_id).split()[0]


def describe_goal_action(engine: "Engine", state: "GameState", action: "Action") -> Optional[tuple[str, str]]:
    """Labels of the scenario and victory activities (Nudge, Walk outside, Temple, Waylights)."""
    board = engine.rules.board
    flight = state.flight
    active = getattr(flight, "active", None)
    here = state.find("upgoer", active) if active else None
    if isinstance(action, Nudge):
        rock_rules = engine.rock_rules
        scenario = rock_rules.scenario(state)
        fuel = scenario.nudge_fuel if scenario else 2
        value = rock_rules.nudge_value(state) if state.rock is not None else 0
        total = f" ({state.rock.nudge_total} of {state.rock.nudges_needed} so far)" if state.rock is not None else ""
        return (f"Nudge the rock: +{value} ({fuel} fuel)",
                f"Fire the thruster against the rock: {fuel} fuel is spent whatever the roll; on OK the rock is "
                f"pushed +{value}{total}. A nudge is worth the turns left, so early ones count most.")
    if isinstance(action, WalkOutside):
        derp = _name(state, "derp", action.derp)
        body = board.body(board.step(here.location).body).name if here and board.step(here.location).body else "here"
        goal = ""
        try:
            victory = engine.victory_rules.victory(state) if state.rock is None else None
        except KeyError:
            victory = None
        if victory is not None and victory.kind == "walk_and_return":
            goal = f" Bring {derp.split()[0]} home alive to win {victory.name}."
        return (f"Walk outside: {_first(state, action.derp)}",
                f"{derp} puts on the EVA pack and walks on {body} (a stamina point; the pack rolls).{goal}")
    if isinstance(action, VisitTemple):
        derp = _name(state, "derp", action.derp)
        return (f"Visit the Temple: {_first(state, action.derp)}",
                f"{derp} drives the Cart to the Temple: it takes all of their stamina and a turn of rations; "
                "the Cart rolls.")
    if isinstance(action, Deploy):
        item = _name(state, "item", action.item)
        where = board.step(here.location).name if here else "this orbit"
        return (f"Deploy a Waylight: {item}",
                f"Set {item} loose at {where} as a beacon of its own: it keeps shining there (a rival may re-tag "
                "it when nobody guards it).")
    if isinstance(action, Retag):
        target = _name(state, "upgoer", action.target)
        derp = _name(state, "derp", action.derp)
        return (f"Re-tag a Waylight: {target} ({_first(state, action.derp)})",
                f"{derp} goes outside to {target}'s unguarded Waylight and makes it yours; the EVA pack rolls.")
    return None


GOAL_ACTIONS = (Nudge, WalkOutside, VisitTemple, Deploy, Retag)
WAR_ACTIONS = (RepelDocking, AllowDocking, StartFight, PickEnemy)


def describe_war_action(engine: "Engine", state: "GameState", action: "Action") -> Optional[tuple[str, str]]:
    """Labels of Space War's actions: pushing a docking off or letting it stand, starting a fight, picking
    an enemy."""
    flight = state.flight
    war = engine.rules.space_war
    if isinstance(action, (RepelDocking, AllowDocking)):
        boarding = getattr(flight, "boarding", None)
        attacker = _name(state, "upgoer", boarding.attacker) if boarding else "the other craft"
        if isinstance(action, AllowDocking):
            return ("Let the docking stand",
                    f"Give up resisting: {attacker} stays docked. Its crew can then pick a fight inside your craft.")
        item = state.find("item", action.item)
        left = item.uses_left if item else 0
        cost = war.hostile_docking.repel_stamina
        price = f" and {cost} stamina" if cost else ""
        return (f"Push {attacker} off: {_name(state, 'item', action.item)}",
                f"Fire the RCS (one of its {left} uses left{price}): it rolls, and on OK the docking fails. "
                f"{attacker} may try again while its RCS and stamina last.")
    if isinstance(action, StartFight):
        target = state.find("upgoer", action.target)
        name = target.name if target else action.target
        docked = target is not None and flight is not None and flight.active in target.docked_with
        where = f"inside {name}" if docked else f"across to {name}"
        rules = war.derp_fights
        return (f"Brawl: your derps vs {name}'s crew",
                f"A fist fight between crews, not a ship fight: your fit derps brawl {where}. Each derp picks an enemy; each pair rolls a die plus Piloting. "
                f"Every derp in a pair loses {rules.brawl_loss} stamina, the beaten one {rules.beaten_loss} more. "
                f"A derp who dies makes it an open war: a defeat for both programs.")
    if isinstance(action, PickEnemy):
        derp, enemy = state.find("derp", action.derp), state.find("derp", action.enemy)
        if derp is None or enemy is None:
            return None
        rules = engine.flight_rules
        state_words = ("injured: any loss kills" if enemy.injured else f"{enemy.current_stamina} stamina left")
        return (f"{derp.name.split()[0]} goes for {enemy.name}",
                f"{enemy.name} adds {rules.fight_bonus(state, enemy)} Piloting to the die ({state_words}); "
                f"{derp.name} adds {rules.fight_bonus(state, derp)}. If {enemy.name.split()[0]} goes for "
                f"{derp.name.split()[0]} too, they roll once as a pair: the lower loses.")
    return None


SHIP_FIGHT_ACTIONS = (OpenFire, ShipFire, ShipConserve, ShipFightOn, ShipCeasefire, TakeHit)

#: What a hit's flight-table effects do, in a few words (for the buttons that place hits).
HIT_EFFECT_WORDS = {
    "disable_part": "it stops working until a jury-rig mends it", "destroy_part": "it is destroyed",
    "destroy_upgoer": "the whole craft is lost with everyone aboard", "damage_capsule": "the capsule is shaken",
    "degrade_all_parts": "every part aboard is shaken", "lose_payload": "a payload is lost",
    "lose_rations": "rations are lost", "strand": "the craft can no longer steer", "injure_crew": "the crew is injured",
    "kill_crew": "the crew is killed", "rcs_uses": "its RCS fuel is lost", "unusable_this_turn": "it is out for the turn",
    "no_stamina_recovery": "nobody rests this turn", "stamina_loss": "everyone aboard loses stamina",
}


def _combatant_words(engine: "Engine", state: "GameState", upgoer_id: str) -> str:
    fighter = engine.flight_rules.combatant(state, state.upgoer(upgoer_id))
    klass = next(c.name for c in engine.rules.ship_combat.classes if c.id == fighter.fight_class)
    return f"{klass.lower()}, speed {fighter.speed}, fighting mass {fighter.mass}"


def describe_ship_fight_action(engine: "Engine", state: "GameState", action: "Action") -> tuple[str, str]:
    """Labels of a ship fight's actions (Space War): opening fire, firing, conserving energy, taking a hit."""
    from game.core import effective_dice

    rules, flight_rules = engine.rules.ship_combat, engine.flight_rules
    if isinstance(action, OpenFire):
        me = state.find("upgoer", state.flight.active) if state.flight.active else None
        target = _name(state, "upgoer", action.target)
        mine = f"{me.name} ({_combatant_words(engine, state, me.id)})" if me else "Your craft"
        rounds = ("one round" if rules.max_rounds == 1 else
                  f"round after round (at most {rules.max_rounds}) until both sides agree to a ceasefire or one is out")
        return (f"Ship fight: open fire on {target}",
                f"A ship-to-ship fight with your craft's weapons, {rounds}: {mine} against {target} "
                f"({_combatant_words(engine, state, action.target)}). The faster craft shoots first. "
                "Firing on a rival is a hostile act: a secret war begins, and a death opens it.")
    fight = state.flight.ship_fight
    if isinstance(action, (ShipFightOn, ShipCeasefire)):
        me = state.upgoer(fight.sides[fight.order[fight.position]].upgoer)
        other = state.upgoer(fight.sides[1 - fight.order[fight.position]].upgoer)
        offered = fight.position > 0  # the side that answered first offered a ceasefire (fighting on ends the truce)
        if isinstance(action, ShipFightOn):
            refuses = f"{other.name} has offered a ceasefire, but " if offered else ""
            return (f"Fight on (round {fight.round + 1})",
                    f"{refuses}{me.name} will not stop: round {fight.round + 1} against {other.name} begins at "
                    f"once, with the heat still aboard.")
        if offered:
            return ("Accept the ceasefire",
                    f"{other.name} has offered a ceasefire: {me.name} holds its fire too, and the fight is over.")
        return ("Offer a ceasefire",
                f"{me.name} holds its fire. The fight ends only if {other.name} offers a ceasefire too.")
    if isinstance(action, TakeHit):
        side = fight.sides[fight.hits_side]
        system = dict(flight_rules.ship_systems(state, state.upgoer(side.upgoer))).get(action.item)
        part = _name(state, "item", action.item)
        if system is None:
            return f"Take the hit: {part}", ""
        hits = side.hits_on(action.item) + 1
        if system.destroyed_when_full and hits >= system.max_hits:
            effects, what = system.when_destroyed, "Boom"
        elif hits == 1:
            effects, what = system.when_damaged, "it Fails"
        else:
            effects, what = (), "another mark"
        words = "; ".join(HIT_EFFECT_WORDS.get(e.effect, e.effect.replace("_", " ")) for e in effects)
        left = f" ({fight.hits_left} hit{'s' if fight.hits_left != 1 else ''} to place)"
        return (f"Take the hit: {part} ({what})",
                f"{part} takes this hit{left}: {what}" + (f" — {words}." if words else "; it soaks the hit up."))
    side_index = fight.order[fight.position]
    me, them = fight.sides[side_index], fight.sides[1 - side_index]
    target = _name(state, "upgoer", them.upgoer)
    if isinstance(action, ShipFire):
        weapon = rules.weapon(action.weapon)
        dice = action.count * weapon.dice_per_system
        hit = effective_dice.at_least(effective_dice.distribution(dice, rules.sides, them.mass), 1)
        extra = []
        if weapon.heat_per_system:
            extra.append(f"+{action.count * weapon.heat_per_system} heat aboard (now {me.heat})")
        if weapon.spent_after_firing:
            extra.append("the part is gone once fired")
        plural = "s" if action.count != 1 else ""
        return (f"Fire {action.count} {weapon.name}{plural} ({dice} dice)",
                f"Roll {dice} dice at {target} (fighting mass {them.mass}): odd faces hit, smallest first, while they "
                f"add up to {them.mass} or less. At least one hit: {percent_text(hit)}."
                + (f" {'; '.join(extra).capitalize()}." if extra else ""))
    if isinstance(action, ShipConserve):
        shed = min(me.heat, rules.conserve_energy_heat)
        return ("Conserve energy",
                f"Hold fire and shed {shed} heat (heat now {me.heat}). Heat left after the round rolls against the crew: "
                "each odd die injures a derp.")
    return str(action).capitalize(), ""


UNDERPED_ACTIONS = (PowerDown, PowerUp, GiveStamina, SelfDestruct, AbortOrders)


def describe_underped_action(engine: "Engine", state: "GameState", action: "Action") -> tuple[str, str]:
    """Labels of the underped (robot) activities: powering down and up, stamina from a derp, the end, orders."""
    rules = engine.rules.components.underped
    if isinstance(action, PowerDown):
        name = _name(state, "derp", action.derp)
        return (f"Power down: {name}", f"{name} switches off to save itself: it cannot act until it powers up again, "
                                       "and a craft left with only sleeping robots skips its duration rolls in orbit.")
    if isinstance(action, PowerUp):
        name = _name(state, "derp", action.derp)
        return (f"Power up: {name} ({rules.power_up_stamina} stamina)",
                f"{name} spends {rules.power_up_stamina} stamina and checks its reliability: on OK it is back at work.")
    if isinstance(action, GiveStamina):
        derp, system = _name(state, "derp", action.derp), _name(state, "derp", action.system)
        return (f"{_first(state, action.derp)} recharges {system}",
                f"{derp} hands {system} {rules.given_stamina} of their own stamina, so it can power up and work again.")
    if isinstance(action, SelfDestruct):
        return ("Self-destruct", "The robots aboard are out of stamina: blow the craft up rather than leave it "
                                 "drifting. Losing robots costs no dots.")
    return ("Abort the orders", "Give up the rest of the written orders after this failure: the clockwork craft "
                                "then only coasts along its rail.")


def write_off_words(engine: "Engine", state: "GameState", upgoer_id: str) -> str:
    """What writing a craft off does, as the engine does it (``flight/landing.py``'s write-off, the turn's end):
    a crew stays aboard, drifting with the wreck on its rations until a rescuer comes, and its program pays the
    rules' price per derp now; underped systems do not count as crew, and with no derp aboard they are lost with
    the craft, which becomes debris."""
    aboard = [d for d in state.derps if d.location == upgoer_id and not d.dead]
    crew = [d for d in aboard if d.system is None]
    craft = state.find("upgoer", upgoer_id)
    step = engine.rules.board.step(craft.location) if craft is not None and craft.location else None
    drifts = step is not None and step.next is not None  # as the turn's end drifts a wreck: on to its next stop
    if not crew:
        robots = " Its robots are lost with it." if aboard else ""
        where = "drifting on along its course" if drifts else "left where it is"
        return f"Give up on this craft: with nobody aboard it becomes debris, {where}, which any program may track.{robots}"
    one, cost = len(crew) == 1, -engine.rules.economy.dots.per_derp_lost * len(crew)
    who = "The derp aboard waits" if one else f"The {len(crew)} derps aboard wait"
    price = f", and {'costs' if one else 'cost'} you {counted(cost, 'dot')} now" if cost > 0 else ""
    where = "it drifts on along its course" if drifts else "it stays where it is"
    return (f"Give up on this craft: nobody steers it any more, and {where}. {who} there for a rescuer, living on "
            f"its rations{price}.")


def describe_action(engine: "Engine", state: "GameState", action: "Action") -> tuple[str, str]:
    """(button label, one-line explanation) for a flight action, in a player's words."""
    board = engine.rules.board
    flight = state.flight
    active = getattr(flight, "active", None)
    if isinstance(action, GOAL_ACTIONS):
        described = describe_goal_action(engine, state, action)
        if described is not None:
            return described
    if isinstance(action, WAR_ACTIONS):
        described = describe_war_action(engine, state, action)
        if described is not None:
            return described
    if isinstance(action, SHIP_FIGHT_ACTIONS):
        return describe_ship_fight_action(engine, state, action)
    if isinstance(action, UNDERPED_ACTIONS):
        return describe_underped_action(engine, state, action)
    if isinstance(action, Launch):
        return "Launch", "Light the launch stage: it rolls now, and on OK the craft climbs to orbital insertion."
    if isinstance(action, Hold):
        return "Keep on the pad", "Do not launch this turn; the craft waits safely at the spaceport."
    if isinstance(action, Wait):
        return "Wait", "Let the other craft go first this stage (you act after them; once per stage)."
    if isinstance(action, Move):
        return "Move on", "Finish what you do before moving and follow the rail to the next duration step."
    if isinstance(action, EndActivities):
        return "Done", "This craft has nothing more to do this turn."
    if isinstance(action, Coast):
        here = state.upgoer(active) if active else None
        nxt = board.step(board.step(here.location).next).name if here and board.step(here.location).next else "the rail"
        return "Coast", f"Do not burn here: keep following the rail on to {nxt}."
    if isinstance(action, Burn):
        step = state.upgoer(active).location if active else None
        option = next((b for b in board.step(step).burns if b.to == action.to), None) if step else None
        name = option.name if option else board.step(action.to).name
        to = board.step(action.to).name
        if action.rcs:
            return f"Burn: {name} (RCS)", f"Use one RCS use instead of the thruster to go to {to}; the RCS rolls."
        cost = burn_fuel_cost(engine, state, active) if active else None
        fuel = f" ({cost} fuel)" if cost is not None else ""
        thrust = " Needs lunar thrust." if option is not None and option.thrust == "lunar" else ""
        return f"Burn: {name}{fuel}", (f"Fire the thruster to go to {to}: costs {cost} fuel whether it works or not; "
                                       f"the thruster rolls.{thrust}")
    if isinstance(action, Dock):
        target, derp = _name(state, "upgoer", action.target), _name(state, "derp", action.derp)
        how = "with the winch" if action.method == "winch" else "with RCS"
        short = derp.split()[0]
        return f"Dock: {target} ({short}{', winch' if action.method == 'winch' else ''})", (f"{derp} spends a stamina point to dock {how}; docked craft move "
                                                      "together and can swap crew, fuel and rations.")
    if isinstance(action, Undock):
        return f"Undock from {_name(state, 'upgoer', action.target)}", "Separate the two craft; each moves on its own."
    if isinstance(action, Transfer):
        src, dst = _name(state, "upgoer", action.source), _name(state, "upgoer", action.target)
        what = ", ".join([_name(state, "derp", d) for d in action.derps] + [_name(state, "item", i) for i in action.items]
                         + ([f"{action.fuel} fuel"] if action.fuel else [])
                         + ([f"{action.rations} rations"] if action.rations else []))
        return f"Transfer {what} to {dst}", f"Move {what} from {src} to {dst} through the docking port (free)."
    if isinstance(action, Eva):
        derp, target = _name(state, "derp", action.derp), _name(state, "upgoer", action.target)
        if action.carry_derp:
            comrade = _name(state, "derp", action.carry_derp)
            found = state.find("derp", action.carry_derp)
            if found is not None and found.location == action.target:
                return (f"EVA: {derp} brings {comrade} over from {target}",
                        f"{derp} spends a stamina point to help the injured {comrade} over from {target} in an EVA "
                        f"suit; the suit rolls, and a Boom would hurt {comrade} again.")
            return (f"EVA: {derp} helps {comrade} across to {target}",
                    f"{derp} spends a stamina point to help the injured {comrade} across to {target} in an EVA suit "
                    f"and stays aboard; the suit rolls, and a Boom would hurt {comrade} again.")
        if action.carry_rations:
            return (f"EVA: {derp} takes rations to {target}",
                    f"{derp} goes outside with {action.carry_rations} rations for {target} and comes back; the EVA pack rolls.")
        return f"EVA: {derp} to {target}", f"{derp} goes outside and crosses to {target}; the EVA pack rolls."
    if isinstance(action, JuryRig):
        derp, item = _name(state, "derp", action.derp), _name(state, "item", action.item)
        derp_value = state.find("derp", action.derp)
        need = engine.flight_rules.jury_rig_rating(state, derp_value).fail if derp_value else "?"
        return f"Jury-rig: {derp} fixes {item}", f"{derp} tries to get {item} working again: it works on a roll under {need}."
    if isinstance(action, UsePayload):
        derp, item = _name(state, "derp", action.derp), _name(state, "item", action.item)
        return f"Use payload: {item}", f"{derp} operates {item} (switch it on, send the probe...); the payload rolls."
    if isinstance(action, SwitchPayload):
        derp, item = _name(state, "derp", action.derp), _name(state, "item", action.item)
        found = state.find("item", action.item)
        holder = _name(state, "upgoer", found.location) if found is not None and found.location else "the craft"
        if not action.on:
            return (f"EVA: switch {item} off",
                    f"{derp} spends a stamina point to go outside to {holder}, floating here by itself, and switch "
                    f"{item} off; the EVA pack rolls.")
        what = "send it on its way" if found is not None and state.thing(found.thing_id).kind == "probe" \
            else "light it"
        return (f"EVA: switch {item} on",
                f"{derp} spends a stamina point to go outside to {holder}, floating here by itself, and {what}; "
                f"the EVA pack rolls, then {item} does.")
    if isinstance(action, Separate):
        label = separate_words(state, action)
        return (f"Separate ({label})", f"The parts that leave ({label}) become a craft of their own, docked to this "
                f"one, with {action.fuel} fuel and {action.rations} rations; transfer more if you like, then undock "
                "and each goes its own way.")
    if isinstance(action, Recover):
        derp, item = _name(state, "derp", action.derp), _name(state, "item", action.item)
        found = state.find("item", action.item)
        pile = _name(state, "upgoer", found.location) if found is not None and found.location else "the debris"
        return (f"EVA: bring {item} aboard",
                f"{derp} spends a stamina point to go outside to {pile} and bring {item} aboard; the EVA pack rolls.")
    if isinstance(action, Shed):
        parts = ", ".join(_name(state, "item", i) for i in action.items)
        what = parts or (f"{action.fuel} fuel" if action.fuel else f"{action.rations} rations")
        here = state.find("upgoer", active) if active else None
        nearby = bool(parts) and here is not None and engine.flight_rules.others_here(state, here)
        fate = (" Another craft is here: the parts float beside it and can be brought back aboard on an EVA."
                if nearby else " It is lost in space.")
        return f"Shed {what}", f"Throw {what} overboard to lower the mass (and the fuel each burn costs).{fate}"
    if isinstance(action, WriteOff):
        return "Write off", write_off_words(engine, state, action.upgoer)
    if isinstance(action, (UseSkill, UseRcsBoost)):
        labels, why = _describe_help(engine, state, action)
        return labels[0], why
    if isinstance(action, UseLuck):
        upgoer = state.find("upgoer", flight.roll.upgoer) if flight and flight.roll else None
        luck = state.programs[upgoer.owner].luck if upgoer else 0
        return f"Luck: reroll ({luck} left)", "Spend a luck point to roll again; then keep the old or the new result."
    if isinstance(action, KeepRoll):
        roll = flight.roll if flight else None
        if action.new:
            return f"Keep the new roll ({roll.value if roll else '?'})", "Use the reroll's result."
        return f"Keep the old roll ({roll.previous if roll else '?'})", "Go back to the first result."
    if isinstance(action, AcceptRoll):
        return "Accept", "Take the result as it is and let its consequences happen."
    if isinstance(action, ChooseConsequence):
        choice = flight.choice if flight is not None else None
        if action.option not in CHOICE_WORDS or choice is None:
            return action.option.replace("_", " ").capitalize(), ""
        label, why = CHOICE_WORDS[action.option]
        return label, why(choice.effect)
    return str(action).capitalize(), ""


#: The button that opens the trade scene while the flights go on (the engine lists a few sample offers).
TRADE = ("trade",)
TRADE_LABEL = "Trade with another program…"
TRADE_WHY = ("While the craft take their turns you may swap points, dots, fuel, rations, stored parts, blueprints "
             "or derps at home with another program.")
ROLL_ACTIONS = (UseSkill, UseRcsBoost, UseLuck, KeepRoll, AcceptRoll, ChooseConsequence)
ORDER = (RepelDocking, AllowDocking, PickEnemy, ShipFire, ShipConserve, ShipFightOn, ShipCeasefire, TakeHit, Nudge, Launch, Move, Burn, Coast,
         AbortOrders, PowerUp, Hold, WalkOutside, VisitTemple, Deploy, Retag, OpenFire, Dock, Undock, Separate, Transfer,
         Eva, StartFight, JuryRig, UsePayload, SwitchPayload, Recover, GiveStamina, PowerDown, Shed, OfferTrade, Wait,
         EndActivities, WriteOff, SelfDestruct)
#: Actions grouped behind one button that opens a chooser: (kind, button label, chooser title).
GROUPS = ((Dock, "Dock with…", "Dock with"), (Eva, "EVA to…", "EVA to"), (Shed, "Shed mass…", "Shed"),
          (Separate, "Separate…", "Separate"))
#: Groups whose chooser lists its actions at once (they name no other craft).
UNTARGETED = (Shed, Separate)


def separate_words(state: "GameState", action: "Separate") -> str:
    """'Zed: Burrow Pod +1' (who goes, then what leaves: the first part and how many more), short enough for
    a button."""
    first = _name(state, "item", action.modules[0])
    more = len(action.modules) - 1
    crew = ", ".join(_name(state, "derp", d) for d in action.crew)
    return f"{crew or 'No crew'}: {first}" + (f" +{more}" if more else "")


def chooser_label(state: "GameState", action: "Action") -> str:
    """A grouped action's words inside its chooser, once the craft is chosen: who, and how."""
    if isinstance(action, Dock):
        how = "with the winch" if action.method == "winch" else "with RCS"
        return f"{_name(state, 'derp', action.derp)} docks {how}"
    if isinstance(action, Shed):
        parts = ", ".join(_name(state, "item", i) for i in action.items)
        return "Throw out " + (parts or (f"{action.fuel} fuel" if action.fuel else f"{action.rations} rations"))
    if isinstance(action, Separate):
        return separate_words(state, action)
    if isinstance(action, Eva):
        words = _name(state, "derp", action.derp)
        if action.carry_derp:
            found = state.find("derp", action.carry_derp)
            way = "over from there" if found is not None and found.location == action.target else "across"
            return f"{words} helps the injured {_name(state, 'derp', action.carry_derp)} {way}"
        if action.carry_item:
            words += f" carries {_name(state, 'item', action.carry_item)}"
        if action.carry_rations:
            words += f" takes {action.carry_rations} ration{'s' if action.carry_rations != 1 else ''}"
        words += ", comes back" if action.come_back else ", stays there"
        return words
    return str(action)


def action_order(action: "Action") -> int:
    for n, kind in enumerate(ORDER):
        if isinstance(action, kind):
            return n
    return len(ORDER)


class FlightPanel:
    """A column of buttons, one per legal action of the active craft, with hover explanations.

    Dockings and EVAs sit behind one button each; pressing it shows a chooser in the same column:
    first the craft (skipped when there is only one), then the derp and the method, and "Back"."""

    def __init__(self, manager: pygame_gui.UIManager, container, rect: pygame.Rect, layout) -> None:
        self.manager = manager
        self.layout = layout
        self.rect = rect
        self.scroll = pygame_gui.elements.UIScrollingContainer(rect, manager, container=container,
                                                               object_id="#flight_actions",
                                                               allow_scroll_x=False)
        self.buttons: dict[pygame_gui.elements.UIButton, "Action"] = {}
        self.nav: dict[pygame_gui.elements.UIButton, tuple] = {}
        self.group: tuple = ()  # () the main list; (kind,) choose a craft; (kind, target) choose who and how
        self._key: object = None
        self._engine = None
        self._state = None
        self._actions: list["Action"] = []

    def show(self, engine: "Engine", state: "GameState", actions: list["Action"], key: object) -> None:
        """Rebuild the buttons for ``actions`` (only when ``key`` changed)."""
        if key == self._key:
            return
        self._key = key
        self._engine, self._state, self._actions = engine, state, list(actions)
        if self.group:
            kind = next(k for k, _, _ in GROUPS if k.__name__ == self.group[0])
            target = self.group[1] if len(self.group) > 1 else None
            if not self._grouped(kind, target):  # nothing of that kind is left to choose
                self.group = ()
        self._build()

    def _grouped(self, kind: type, target: Optional[str] = None) -> list["Action"]:
        return [a for a in self._actions if isinstance(a, kind) and (target is None or getattr(a, "target", None) == target)]

    def _build(self) -> None:
        for button in list(self.buttons) + list(self.nav):
            button.kill()
        self.buttons.clear()
        self.nav.clear()
        layout = self.layout
        width = self.rect.w - layout.px(14)
        height = layout.px(40)
        gap = layout.px(6)
        y = 0
        engine, state = self._engine, self._state

        def add(label: str, why: Optional[str], action=None, nav=None) -> None:
            nonlocal y
            button = pygame_gui.elements.UIButton(
                pygame.Rect(0, y, width, height), label, self.manager, container=self.scroll,
                tool_tip_text=why or None, object_id=ObjectID(object_id="#flight_action", class_id="@segment"))
            if action is not None:
                self.buttons[button] = action
            else:
                self.nav[button] = nav
            y += height + gap

        if self.group:
            kind = next(k for k, _, _ in GROUPS if k.__name__ == self.group[0])
            title = next(t for k, _, t in GROUPS if k is kind)
            add("Back to all actions", "Close this chooser", nav=())
            if len(self.group) == 1:
                targets: list[str] = []
                for a in self._grouped(kind):
                    if a.target not in targets:
                        targets.append(a.target)
                for target in targets:
                    add(f"{title} {_name(state, 'upgoer', target)}…", "Then choose who goes, and how",
                        nav=(self.group[0], target))
            else:
                target = self.group[1]
                for a in sorted(self._grouped(kind, target), key=lambda a: chooser_label(state, a)):
                    _, why = describe_action(engine, state, a)
                    add(chooser_label(state, a), why, action=a)
        else:
            grouped = {k: self._grouped(k) for k, _, _ in GROUPS}
            placed: set = set()
            for action in sorted(self._actions, key=action_order):
                if isinstance(action, OfferTrade):  # the trade scene builds the offer: one button opens it
                    if OfferTrade not in placed:
                        placed.add(OfferTrade)
                        add(TRADE_LABEL, TRADE_WHY, nav=TRADE)
                    continue
                kind = next((k for k, _, _ in GROUPS if isinstance(action, k)), None)
                if kind is not None and len(grouped[kind]) > 1:
                    if kind in placed:
                        continue
                    placed.add(kind)
                    label = next(text for k, text, _ in GROUPS if k is kind)
                    if kind in UNTARGETED:
                        why = {Shed: "things you could throw overboard", Separate: "ways to split this craft"}[kind]
                        add(label, f"{len(grouped[kind])} {why}: choose one", nav=(kind.__name__, None))
                        continue
                    targets = {a.target for a in grouped[kind]}
                    if len(targets) == 1:
                        label = f"{label[:-1]} {_name(state, 'upgoer', next(iter(targets)))}…"
                    add(label, f"{len(grouped[kind])} ways: choose the craft, who goes and how",
                        nav=(kind.__name__,) if len(targets) > 1 else (kind.__name__, next(iter(targets))))
                    continue
                label, why = describe_action(engine, state, action)
                add(label, why, action=action)
        self.scroll.set_scrollable_area_dimensions((width, max(y, 1)))

    def navigate(self, element) -> bool:
        """A chooser button (open a group, pick its craft, or go back) was pressed: True if it was one."""
        where = self.nav.get(element)
        if where is None or where == TRADE:
            return False
        self.group = tuple(where)
        self._build()
        return True

    def wants_trade(self, element) -> bool:
        """The "Trade with another program…" button was pressed."""
        return self.nav.get(element) == TRADE

    def action_for(self, element) -> Optional["Action"]:
        """The action of a pressed button (a chooser closes once one of its actions is taken)."""
        action = self.buttons.get(element)
        if action is not None:
            self.group = ()
        return action

    def kill(self) -> None:
        self.scroll.kill()
        self.buttons.clear()
        self.nav.clear()
