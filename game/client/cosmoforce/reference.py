"""Cosmoforce's rules reference: the rules in our own words, organised like the page, every number read from
the loaded tables (``classes.yaml``, ``systems.yaml``, ``weapons.yaml``, ``actions.yaml``), so a house-ruled
folder shows its house rules.

``reference_sections(rules)`` builds the text and is pure Python, so tests read it without a window;
``CosmoReferenceScene`` shows it on the shared reference scene, with Cosmoforce's glossary as its last section.
"""
from __future__ import annotations

from fractions import Fraction

from game.client.cosmoforce.glossary import WORDS, weapon_words
from game.client.kit.words import counted
from game.client.scenes.reference import ReferenceScene, Section, glossary_section
from game.core.effective_dice import at_least, distribution, odd_faces

#: How each reading of the cut sentence about heat reads on screen (``actions.yaml: aftermath.heat_hurts``).
HEAT_WORDS = {
    "ready_then_kill": "hurts a ready crew; when none is ready, a hurt crew is lost instead",
    "ready_only": "hurts a ready crew; when none is ready, nothing more happens",
    "kill": "loses a crew outright, a hurt one first",
}


def _frac(value: Fraction) -> str:
    return str(value.numerator) if value.denominator == 1 else f"{value.numerator}/{value.denominator}"


def _percent(value: Fraction) -> str:
    return f"{float(value) * 100:.0f}%"


def effect_words(effects) -> list[str]:
    """What a hit (or the loss) of a system also does, as short phrases (empty: nothing more)."""
    words = []
    if effects.hurt_crew:
        words.append(f"hurts {counted(effects.hurt_crew, 'ready crew', 'ready crew')}")
    if effects.add_heat:
        words.append(f"leaks {counted(effects.add_heat, 'heat token')} into the ship")
    if effects.lose_speed:
        words.append(f"costs {counted(effects.lose_speed, 'point')} of speed")
    if effects.lose_crew_over_capacity:
        words.append("loses the crew the other habitats cannot house, hurt ones first")
    return words


def role_words(rules, system) -> str:
    """What a system does, in our words, with the tables' numbers (its role decides which words)."""
    combat = rules.combat
    if system.role == "weapon":
        weapon = next((w for w in rules.weapons.weapons if w.system == system.id), None)
        return weapon_sentence(rules, weapon).split(": ", 1)[1] if weapon else "A weapon."
    crews = ", ".join(f"{c.crew_per_habitat} on a {c.name.lower()}" for c in rules.classes.classes)
    return {
        "armor": "Soaks up hits that would otherwise fall on the systems that fight.",
        "dissipator": "Vents one heat token in every aftermath while it works.",
        "engine": "One point of starting speed; burned, it changes speed by 1 for a heat token.",
        "habitat": f"Houses the crew: {crews}.",
        "afterburner": (f"{combat.start.afterburner_speed} more starting speed, and extra dice when the engines burn "
                        f"or speeds tie."),
        "hangar": (f"Launches drones: {counted(combat.drone_strafe.dice_per_hangar, 'die', 'dice')} per working "
                   f"hangar in a drone strafe."),
    }.get(system.role, system.description)


def system_sentence(rules, system) -> str:
    """One system's line: what it does, how much damage it carries, and what a hit also does."""
    owner = next((c.name for c in rules.classes.classes if c.special == system.id), None)
    who = f" Only a {owner.lower()} may mount it." if owner else ""
    if system.destroyed_when_full:
        carries = (f"It is destroyed by its {_ordinal(system.max_damage)} damage mark and can never be repaired "
                   f"after that.")
    else:
        carries = (f"It carries up to {counted(system.max_damage, 'damage mark')} and is never destroyed; full, it "
                   f"takes no more hits until repaired.")
    text = f"{system.name}: {role_words(rules, system)}{who} {carries}"
    hit, lost = effect_words(system.on_damage), effect_words(system.on_destroyed)
    if hit:
        text += f" A hit on it also {' and '.join(hit)}."
    if lost:
        text += f" Losing it {' and '.join(lost)}."
    return text


def _ordinal(n: int) -> str:
    return {1: "first", 2: "second", 3: "third", 4: "fourth", 5: "fifth"}.get(n, f"{n}th")


def weapon_sentence(rules, weapon) -> str:
    name = rules.systems.get(weapon.system).name
    text = "; ".join(weapon_words(weapon))
    return f"{name}: {text[:1].upper() + text[1:]}."


def reference_sections(rules) -> list[Section]:
    """The whole reference, every number from ``rules`` (a loaded Cosmoforce ``tables.Rules``)."""
    combat, classes = rules.combat, rules.classes
    sides = combat.dice.sides
    odd = odd_faces(sides)
    one = Fraction(len(odd), sides)
    out: list[Section] = []

    out.append(Section("fight", "The fight", (
        "Every captain builds one or more ships and fights the others: a free-for-all until one ship (or one "
        "team) is left, or teams against each other until every enemy ship is out.",
        f"The fight goes in rounds. In each round every ship takes one turn of "
        f"{counted(combat.actions_per_turn, 'action')}, fastest first; then the aftermath vents heat and the heat "
        f"that is left hurts crew.",
        "A ship is out of the fight when it has no crew left, or when every one of its systems is damaged.",
        "The new-fight screen can set a round limit: when it is reached the ships disengage and nobody wins.",
    )))

    class_lines = [f"{c.name}: size {c.size}, {counted(c.crew_per_habitat, 'crew', 'crew')} per habitat, special system "
                   f"{rules.systems.get(c.special).name.lower()}. {c.description}" for c in classes.classes]
    out.append(Section("building", "Building a ship", (
        "Choose a class, then mount systems in its slots. The class's size is added to the ship's mass for every "
        "system mounted.",
        *class_lines,
        f"A ship mounts at most {counted(classes.max_systems, 'system')} and needs at least one habitat, or it has "
        f"no crew. It starts with every crew it can house, all of them ready.",
        f"Starting speed: one for every engine, {combat.start.afterburner_speed} more with an afterburner (a second "
        f"afterburner adds nothing). Starting heat: one token for every engine, less one for every dissipator, "
        f"never below 0.",
    )))

    out.append(Section("systems", "Systems", tuple(system_sentence(rules, s) for s in rules.systems.systems) + (
        "A damaged system does nothing until it is repaired: a damaged laser cannot fire, a damaged dissipator "
        "vents no heat.",
    )))

    shooting = ("Shooting is an ordinary roll in these rules: the target's mass does not discard dice."
                if not combat.shooting.fit_in_mass else
                "Shooting (firing weapons and precision fire) adds a step: the effective dice are kept smallest "
                "first while their sum fits within the target's mass; the rest miss.")
    if combat.shooting.fit_in_mass and len(odd) > 1 and odd[-2] + odd[-1] > 7:
        shooting += (f" Against a ship of mass 7, a {odd[-2]} and a {odd[-1]} add up to {odd[-2] + odd[-1]}, "
                     f"so only the {odd[-2]} hits.")
    out.append(Section("dice", "Effective dice", (
        f"Every roll is a fistful of {sides}-sided dice, as many as the systems or crew that act. Low is good: only "
        f"the odd faces ({', '.join(str(f) for f in odd)}) are effective dice and do something; the others are "
        f"discarded.",
        f"Each die is effective {_frac(one)} of the time ({_percent(one)}). Two dice give at least one effective "
        f"die {_percent(at_least(distribution(2, sides), 1))} of the time, four dice "
        f"{_percent(at_least(distribution(4, sides), 1))}.",
        shooting,
        "Before every roll the panel shows the exact chance of every number of effective dice; the dice then land "
        "on the number already rolled.",
    )))

    tie = combat.tie_break
    out.append(Section("speed", "Speed and order", (
        "At the start of every round the ships are ordered by speed, fastest first; that order holds for the "
        "whole round, and speed changed during it counts from the next round.",
        f"Ships tied for speed roll {counted(tie.dice_per_engine, 'die', 'dice')} for every engine mounted "
        f"({tie.afterburner_dice_per_engine} with an afterburner), at least {tie.minimum_dice}. Each effective die "
        f"adds 0.01 to the ship's speed, and the hundredths stay with it. They roll again until no two ships tie.",
        "Speed never drops below 0.",
    )))

    burn, precision = combat.burn, combat.precision_fire
    laser = rules.systems.get(precision.weapon).name.lower()
    out.append(Section("actions", "Actions", (
        f"A turn is {counted(combat.actions_per_turn, 'action')}. Any action may be taken twice, except firing "
        f"weapons and drone strafe, once each per turn.",
        f"Burn engines: each working engine burned adds {counted(burn.heat_per_engine, 'heat token')} and "
        f"changes speed by +1 or -1, your choice. With a working afterburner you may also roll "
        f"{counted(burn.afterburner_dice_per_engine, 'die', 'dice')} per engine burned: each effective die is one "
        f"more +1 or -1.",
        f"Conserve energy: do nothing and remove {counted(combat.conserve_energy.heat_removed, 'heat token')}. "
        f"It is also how a ship passes.",
        f"Drone strafe: roll {counted(combat.drone_strafe.dice_per_hangar, 'die', 'dice')} for every working "
        f"hangar; each effective die is a hit on the enemy you chose.",
        "Fire weapons: choose lasers, missiles or a railgun and fire as many working ones of that kind as you "
        "like at one enemy (see Weapons). Each effective die is a hit.",
        f"Heal crew: roll {counted(combat.heal_crew.dice, 'die', 'dice')}; each effective die turns a hurt crew "
        f"ready again.",
        f"Precision fire: only for the ship with the first turn of the round, as its only action. Put "
        f"{counted(precision.heat, 'heat token')} on your ship, fire any number of working {laser}s "
        f"({counted(precision.dice_per_laser, 'die', 'dice')} each) at one system you choose on the target. "
        f"Every effective die damages that system only; hits beyond what it can take are lost. If the target has "
        f"armor that can still take a hit, you must aim at armor.",
        f"Repair systems: roll {counted(combat.repair_systems.dice_per_ready_crew, 'die', 'dice')} for every "
        f"ready crew; each effective die removes one damage mark from a system that is not destroyed.",
        "Offer ceasefire: free, on your ship's turn (see The end).",
    )))

    out.append(Section("weapons", "Weapons", tuple(weapon_sentence(rules, w) for w in rules.weapons.weapons) + (
        "Once a ship has fired, it cannot fire again that turn.",
    )))

    out.append(Section("damage", "Damage", (
        "The captain of the ship that is hit places every hit, one at a time, on any of its systems that can "
        "still take one. Spreading the damage is your decision.",
        "A system that is full of damage (destroyed, or armor at its limit) cannot take another hit; hits a ship "
        "cannot take are lost.",
        "A ship whose systems are all damaged is out of the fight, and so is a ship with no crew left.",
    )))

    aftermath = combat.aftermath
    out.append(Section("heat", "Aftermath and heat", (
        "After every ship has had its turn comes the aftermath, one ship after another in the round's order.",
        "First every working dissipator vents one heat token.",
        f"Then the ship rolls {counted(aftermath.heat_dice_per_token, 'die', 'dice')} for every heat token left. "
        f"Each effective die {HEAT_WORDS.get(aftermath.heat_hurts, aftermath.heat_hurts)}.",
        "Heat stays on the ship from round to round until it is vented or conserved away.",
    )))

    out.append(Section("end", "The end", (
        "The fight ends as soon as only one side has ships still fighting: that side wins. If the heat of the "
        "aftermath leaves nobody, nobody wins.",
        "Ceasefire: on its turn a ship's captain may offer to stop. When every captain with a ship still "
        "fighting has offered during the round, the fight ends when the round does, with no winner.",
        "Undo takes back your actions up to the last roll: dice, once rolled, stay rolled.",
    )))
    return out


class CosmoReferenceScene(ReferenceScene):
    """Cosmoforce's rules reference over whatever was on screen (F2, the title, the pause menu)."""

    def __init__(self, context, rules=None, section: str = "fight") -> None:
        if rules is None:
            from game.client.cosmoforce.shipped import shipped_engine
            rules = shipped_engine().rules
        self.rules = rules
        super().__init__(context, reference_sections(rules) + [glossary_section(WORDS, rules)], section,
                         about=f"numbers from the rules in use ({rules.edition.name})")
