"""Cosmoforce's words, each explained in a sentence or two with the numbers of the loaded tables.

The lookups and tooltips are the kit's (``game.client.kit.glossary``); the entries are this game's. The
combat panel and the ship sheet put them on their words; the rules reference lists them all.
"""
from __future__ import annotations

from fractions import Fraction

from game.client.kit.glossary import Entry, Glossary
from game.client.kit.words import counted


def _odd(r) -> str:
    sides = r.combat.dice.sides
    return ", ".join(str(f) for f in range(1, sides + 1, 2))


def _effective(r) -> str:
    sides = r.combat.dice.sides
    share = Fraction((sides + 1) // 2, sides)
    return (f"A die that lands odd ({_odd(r)} on a {sides}-sided die): it does something. Each die is effective "
            f"{share.numerator}/{share.denominator} of the time; the others are discarded. More effective dice is "
            f"better.")


def _shooting(r) -> str:
    if not r.combat.shooting.fit_in_mass:
        return "Firing weapons or precision fire. In these rules it rolls like any other roll."
    return ("Firing weapons or precision fire. The effective dice are kept smallest first while their sum fits "
            "within the target's mass; the rest miss, so light ships are hard to hit.")


def _mass(r) -> str:
    sizes = ", ".join(f"{c.name.lower()} {c.size}" for c in r.classes.classes)
    return (f"How big a ship is: its class's size for every system mounted ({sizes}). Shots at it keep only the "
            f"effective dice whose sum fits within its mass.")


def _size(r) -> str:
    sizes = ", ".join(f"{c.name.lower()} {c.size}" for c in r.classes.classes)
    return f"What every system adds to a ship's mass, set by its class: {sizes}."


def _speed(r) -> str:
    return (f"Decides the order of a round, fastest first. It starts at one per engine (+"
            f"{r.combat.start.afterburner_speed} with an afterburner); burning engines changes it. Never below 0.")


def _heat(r) -> str:
    a = r.combat.aftermath
    return (f"Tokens that build up as engines burn and lasers fire. In the aftermath each working dissipator vents "
            f"one; then the ship rolls {counted(a.heat_dice_per_token, 'die', 'dice')} per token left and each "
            f"effective die hurts crew.")


def _crew(r) -> str:
    per = ", ".join(f"{c.name.lower()} {c.crew_per_habitat}" for c in r.classes.classes)
    return (f"Coins on the roster: ready (heads) or hurt (tails). Each habitat houses some ({per}). Ready crew "
            f"make repairs; a ship with no crew left is out.")


def _tie(r) -> str:
    t = r.combat.tie_break
    return (f"Ships at the same speed roll {counted(t.dice_per_engine, 'die', 'dice')} per engine "
            f"({t.afterburner_dice_per_engine} with an afterburner); each effective die adds 0.01 to their speed. "
            f"That is why a speed can read 7.02.")


def _round(r) -> str:
    return (f"Every ship takes one turn of {counted(r.combat.actions_per_turn, 'action')}, fastest first; then the "
            f"aftermath. The order is fixed when the round starts.")


def _damage(r) -> str:
    return ("A mark on a system from a hit. The captain of the ship that is hit places it. A damaged system does "
            "nothing until repaired; most systems are destroyed by a second mark.")


def _armor(r) -> str:
    armor = next((s for s in r.systems.systems if s.role == "armor"), None)
    carries = armor.max_damage if armor is not None else 2
    return (f"Soaks up hits: it carries {counted(carries, 'damage mark')} and is never destroyed. Precision fire "
            f"must aim at armor while the target has armor that can still take a hit.")


def _dissipator(r) -> str:
    return "Vents one heat token in every aftermath while it works. A hit on it leaks heat into the ship."


def _engine(r) -> str:
    return (f"One point of starting speed, and burns for +1 or -1 speed at "
            f"{counted(r.combat.burn.heat_per_engine, 'heat token')} each. A hit on it costs speed.")


def _habitat(r) -> str:
    return ("Houses the crew (how many depends on the class). A hit on it hurts a ready crew; losing it loses "
            "the crew the other habitats cannot house.")


def weapon_words(weapon) -> list[str]:
    """A weapon's numbers and conditions from weapons.yaml, as phrases (the reference and the glossary's)."""
    words = [f"{counted(weapon.dice_per_system, 'die', 'dice')} for each one fired"]
    if weapon.heat_per_system:
        words.append(f"{counted(weapon.heat_per_system, 'heat token')} on your ship for each one fired")
    if weapon.spent_after_firing:
        words.append("once fired it is empty and never fires again")
    if weapon.target_must_be_slower:
        words.append("the target must be slower than you")
    return words


def _weapon(system_id: str):
    def entry(r) -> str:
        weapon = next((w for w in r.weapons.weapons if w.system == system_id), None)
        if weapon is None:
            return r.systems.get(system_id).description
        return (f"A weapon: {'; '.join(weapon_words(weapon))}. Each effective die that fits within the target's "
                f"mass is a hit.")
    return entry


def _special(system_id: str, words):
    def entry(r) -> str:
        owner = next((c.name.lower() for c in r.classes.classes if c.special == system_id), "one class")
        return f"{words(r)} Only a {owner} may mount it."
    return entry


def _burn(r) -> str:
    b = r.combat.burn
    return (f"Each working engine burned changes speed by +1 or -1 and adds {counted(b.heat_per_engine, 'heat token')}. "
            f"With an afterburner, {counted(b.afterburner_dice_per_engine, 'die', 'dice')} per engine may add more "
            f"changes.")


def _conserve(r) -> str:
    return (f"Do nothing this action and remove {counted(r.combat.conserve_energy.heat_removed, 'heat token')}. "
            f"Also the way to pass.")


def _strafe(r) -> str:
    return (f"Roll {counted(r.combat.drone_strafe.dice_per_hangar, 'die', 'dice')} per working hangar at one enemy; "
            f"each effective die is a hit. Once per turn.")


def _fire(r) -> str:
    return ("Fire any number of working weapons of one kind at one enemy; each effective die that fits within its "
            "mass is a hit. Once per turn.")


def _heal(r) -> str:
    return f"Roll {counted(r.combat.heal_crew.dice, 'die', 'dice')}: each effective die turns a hurt crew ready."


def _precision(r) -> str:
    p = r.combat.precision_fire
    return (f"The first ship of a round, as its only action: {counted(p.heat, 'heat token')}, "
            f"{counted(p.dice_per_laser, 'die', 'dice')} per {r.systems.get(p.weapon).name.lower()} fired, every "
            f"hit on one system you choose (armor first, if the target has some).")


def _repair(r) -> str:
    return (f"Roll {counted(r.combat.repair_systems.dice_per_ready_crew, 'die', 'dice')} per ready crew; each "
            f"effective die removes a damage mark from a system that is not destroyed.")


def _aftermath(r) -> str:
    return ("The end of a round: each ship's working dissipators vent heat, then the heat left is rolled against "
            "its crew.")


GLOSSARY: dict[str, Entry] = {
    "effective die": _effective,
    "shooting": _shooting,
    "mass": _mass,
    "size": _size,
    "speed": _speed,
    "heat": _heat,
    "crew": _crew,
    "ready crew": "A crew coin heads up: able to work. Each ready crew adds a die to a repair.",
    "hurt crew": "A crew coin tails up: unable to work until healed. Heat and hits on habitats hurt crew.",
    "tie for speed": _tie,
    "round": _round,
    "turn": lambda r: (f"One ship's share of a round: {counted(r.combat.actions_per_turn, 'action')}, then the "
                       f"next ship's turn."),
    "aftermath": _aftermath,
    "damage": _damage,
    "destroyed": "A system that took its last damage mark (its second, for most): it never works again and cannot "
                 "be repaired.",
    "eliminated": "Out of the fight: a ship with no crew left, or with every system damaged.",
    "armor": _armor,
    "dissipator": _dissipator,
    "engine": _engine,
    "habitat": _habitat,
    "laser": _weapon("laser"),
    "missile rack": _weapon("missile"),
    "railgun": _weapon("railgun"),
    "afterburner": _special("afterburner", lambda r: (f"{r.combat.start.afterburner_speed} more starting speed, "
                                                      f"and extra dice when the engines burn or speeds tie.")),
    "hangar": _special("hangar", lambda r: (f"Launches strafing drones, "
                                            f"{counted(r.combat.drone_strafe.dice_per_hangar, 'die', 'dice')} per "
                                            f"working hangar.")),
    "burn engines": _burn,
    "conserve energy": _conserve,
    "drone strafe": _strafe,
    "fire weapons": _fire,
    "heal crew": _heal,
    "precision fire": _precision,
    "repair systems": _repair,
    "ceasefire": "A captain's offer to stop, free on a ship's turn. When every captain still fighting has offered "
                 "during a round, the fight ends with the round, and nobody wins.",
}

#: Other spellings used on screen.
ALIASES = {"effective dice": "effective die", "missile": "missile rack", "missiles": "missile rack",
           "lasers": "laser", "burn": "burn engines", "conserve": "conserve energy", "strafe": "drone strafe",
           "fire": "fire weapons", "heal": "heal crew", "repair": "repair systems", "precision": "precision fire",
           "tie": "tie for speed", "ready": "ready crew", "hurt": "hurt crew", "out": "eliminated"}


def _shipped_rules():
    from game.client.cosmoforce.shipped import shipped_engine

    return shipped_engine().rules


#: Cosmoforce's glossary.
WORDS = Glossary(GLOSSARY, ALIASES, _shipped_rules)
