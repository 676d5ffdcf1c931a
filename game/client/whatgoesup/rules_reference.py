"""The rules reference inside the app: the rules in our own words, organised like the rules, with every
number read from the loaded tables (so a house-ruled folder shows its house rules).

``reference_sections(rules)`` builds the text (a list of ``Section``: title and paragraphs) and is pure
Python, so tests read it without a window. ``RulesReferenceScene`` shows it on the shared reference scene
(``game.client.scenes.reference``), with the glossary as its last section. F2 opens it from anywhere; so do
the pause menu and the title.
"""
from __future__ import annotations

import weakref
from fractions import Fraction

import pygame

from game.games.whatgoesup.rules import formulas

from game.client.kit.style import ACCENT_LIGHT, INK, draw_text, font_px
from game.client.kit.text import draw_wrapped
from game.client.kit.words import counted
from game.client.scenes.reference import ReferenceScene, Section, glossary_section
from game.client.whatgoesup.explain import skill_use


#: How much a capsule carries for its mass, by ``components.yaml: capsule.capacity_rule``
#: (formulas.capsule_mass_for_capacity; the example's numbers come from it).
CAPACITY_WORDS = {
    "tenth_overhead": "to carry a load it masses that load plus a tenth of it, rounded up",
    "minus_one": "to carry a load it masses one more than that load",
}


def _frac(value) -> str:
    value = Fraction(value)
    return str(value.numerator) if value.denominator == 1 else f"{value.numerator}/{value.denominator}"


def reference_sections(rules) -> list[Section]:
    """The whole reference, every number from ``rules`` (a loaded ``tables.Rules``)."""
    from game.client.whatgoesup.explain import consequence_sentence

    eco, comps, flight, prestige = rules.economy, rules.components, rules.flight, rules.prestige
    budget, costs, research, rel, derps = eco.budget, eco.costs, eco.research, eco.reliability, eco.derps
    out: list[Section] = []

    def pts(n) -> str:
        return counted(n, "point")

    out.append(Section("turn", "A turn", (
        "Each turn has two halves. In R&D every program spends its points: inventing, researching, building, "
        "hiring and training, buying fuel and rations, and assembling Upgoers on the pad. Then come the flights: "
        "launches first, then orbital insertions, then every craft in space moves along its rail to its next "
        "duration step. At the end of the turn budgets change with how the flights went.",
        f"Budget: every program starts with {budget.start_dots} dots. At the start of each R&D turn a program gets "
        f"{pts(budget.points_per_dot)} per dot. Points not spent are kept for the next turn. The budget "
        f"never "
        f"ends a turn below {budget.min_dots} or above {budget.max_dots} dots.",
        f"Dots change at the end of a turn: +{eco.dots.per_new_step} for every mission step your program visits "
        f"for the first time, {eco.dots.per_derp_lost} for every derp lost, plus the prestige below.",
    )))

    out.append(Section("rnd", "R&D", (
        f"Invent: {pts(costs.invent_per_mass)} per mass. A new thing starts at {research.new_thing_rating} "
        f"(ratings are written Fail/Boom).",
        f"Research: {pts(costs.research_per_mass)} per mass moves one safety one step ('Fail to OK' raises "
        f"the "
        f"Fail safety, 'Boom to Fail' the Boom safety). At most {research.max_fail_steps_per_turn} Fail and "
        f"{research.max_boom_steps_per_turn} Boom steps per thing per turn.",
        research_caps_words(rules),
        f"Technology transfer: a new thing of a kind you have already flown successfully, with the older thing "
        f"massing at least {_frac(research.tech_transfer_min_mass_ratio)} of the new one, starts at the older "
        f"rating or {research.tech_transfer_cap}, whichever is worse.",
        f"Build: {pts(costs.build_per_mass)} per mass per copy, at the blueprint's rating. Research keeps "
        f"improving " + ("every copy, flying or not." if research.improves_launched else "copies until they launch."),
        f"Fuel and rations are bought, {pts(costs.consumable_per_container)} per container: a fuel container "
        f"holds "
        f"{comps.fuel_per_container} fuel, a ration container feeds {comps.rations_derp_turns_per_container} "
        f"derp-turns.",
        f"Reverse engineering copies another program's part in your storage into a blueprint; its prototyping "
        f"cost ({eco.reverse_engineering.points_per_mass} per mass) is added to the "
        f"{eco.reverse_engineering.bonus_to}'s next budget.",
    )))

    kinds = [f"{k.name}: {k.description}" + (f" (always mass {k.fixed_mass})" if k.fixed_mass else "")
             for k in comps.kinds]
    out.append(Section("components", "Components", tuple(kinds) + (
        f"A reusable lower stage or capsule masses {_frac(comps.reusable_extra_mass)} more and must come through "
        f"reentry and landing to be used again.",
    )))

    out.append(Section("mass", "Mass and fuel", (
        f"A capsule carries crew, payloads, RCS and rations; it must mass at least {comps.capsule.min_mass}, "
        f"and {CAPACITY_WORDS[comps.capsule.capacity_rule]} (a load of 9: mass "
        f"{formulas.capsule_mass_for_capacity(9, comps)}).",
        f"Thrusters must mass at least {_frac(comps.thruster.min_ratio)} of the capsules they push; "
        f"{_frac(comps.thruster.lunar_landing_ratio)} to land on the Moon; "
        f"{_frac(comps.thruster.planetary_landing_ratio)} to land back home in one reusable piece.",
        "A lower stage must mass as much as everything it carries: the insertion stage carries the spacecraft, "
        "the launch stage carries the spacecraft and the insertion stage.",
        f"Clusters: up to {comps.clustering.average_up_to} lower stages side by side roll the average "
        f"(rounded {comps.clustering.average_rounding}); more than that roll the highest.",
        f"Every burn costs the spacecraft's mass divided by {eco.fuel.mass_per_fuel_point}, rounded "
        f"{'up' if eco.fuel.rounding == 'ceil' else 'by dropping the last digit and adding 1'}, in fuel.",
        f"A derp masses {derps.mass}; rations are half a mass per derp-turn.",
    )))

    schemes = "; ".join(f"{s.name} ({s.description})" for s in rules.dice.schemes)
    out.append(Section("reliability", "Reliability", (
        "Every part has a Fail safety and a Boom safety, written Fail/Boom. Roll the dice: at or above the Boom "
        "safety the part goes Boom; otherwise at or above the Fail safety it Fails; below the Fail safety it works.",
        f"The worst a part can be is {rel.worst}, the best {rel.best}. The Fail safety always stays at least one "
        f"below the Boom safety.",
        f"A Boom lowers every copy of that part by {rel.boom_penalty_fail}/{rel.boom_penalty_boom}.",
        f"Dice: {schemes}.",
        "Before every roll the roll card shows the bands and the exact odds; after it, which rule applied.",
    )))

    out.append(Section("flights", "Flights", (
        f"Each program may launch up to {flight.max_launches_per_turn} Upgoers per turn.",
        "Launch rolls the launch stage; orbital insertion rolls the insertion stage; each later step moves the "
        "craft along its rail to the next duration step, where its capsules and habitats roll.",
        "Burns need a working thruster and fuel; a capsule steers. A craft without a working capsule cannot steer.",
        ("An Upgoer without derps may only fly suborbital: launch, reentry and landing."
         if flight.uncrewed_suborbital_only else "Uncrewed Upgoers may fly anywhere."),
        "Rations are eaten at the end of each turn by every derp in space; a derp without rations is injured.",
        (f"Rations go aboard in whole containers of {comps.rations_derp_turns_per_container} derp-turns."
         if comps.rations_loaded_in_containers else "Rations go aboard one derp-turn at a time."),
        "Programs may trade during the flights too, whenever a craft is taking its turn (not in the middle of a "
        "roll or a launch).",
        "Parts thrown overboard beside another craft float there, and an EVA can bring them back aboard.",
    )))

    out.append(Section("docking", "Docking", (
        f"Two craft in the same stable orbit may dock. The docking derp needs Piloting "
        f"{flight.docking_min_piloting} or more and spends a stamina point; an RCS does the work.",
        f"Landing on the rock (Stop The Rock) by RCS is a docking: it takes {flight.rock_docking_rcs_uses} RCS "
        f"uses and a derp with that Piloting spends a stamina point.",
        "Craft launched together as one Upgoer may separate where craft can meet: they stay docked until one "
        "undocks, and then each goes its own way.",
        f"An RCS also gives a +{comps.rcs_piloting_bonus} Piloting boost to a roll, or a deorbit.",
    )))

    out.append(Section("derps", "Derps and EVA", (
        f"Hiring a derp costs {pts(costs.hire_derp)}. A new derp has Piloting {derps.start_piloting}, Engineering "
        f"{derps.start_engineering}, Stamina {derps.start_stamina}, and may fly the day they are hired.",
        f"Training costs {pts(costs.train_per_point)} per skill point, in {derps.skills_per_turn} skill per turn; "
        f"a derp in "
        f"training stays home. No derp has more than {derps.max_total_points} points in all.",
        f"Healing costs {pts(costs.heal_derp)}: the derp is back at {derps.heal_to_stamina} stamina and must "
        f"retrain it.",
        f"After a roll a derp aboard may spend a stamina point, as often as stamina lasts: Engineering "
        f"{skill_use(rules, 'engineering')}, Piloting {skill_use(rules, 'piloting')}. Derps aboard may help "
        f"together.",
        f"An EVA needs Piloting {flight.eva_min_piloting} or more and an EVA pack. A jury-rig works on a roll "
        f"under {flight.jury_rig_engineering_multiplier} times the derp's Engineering.",
        "On an EVA a healthy derp can help an injured comrade across to another craft in a suit, or switch a "
        "Waylight or probe floating on its own on or off.",
    )))

    failures = []
    for c in flight.consequences:
        failures.append(consequence_sentence(rules, c.roll, "fail"))
        failures.append(consequence_sentence(rules, c.roll, "boom"))
    out.append(Section("failures", "Failures", tuple(failures)))

    firsts = [f"{f.name.replace('Prestige First - ', 'First ')}: {f.description} +{counted(f.dots, 'dot')}."
              for f in prestige.firsts]
    standing = [f"{s.name}: {s.description} +{counted(s.dots, 'dot')} while you hold it." for s in prestige.standing]
    standing += [f"{a.name}: {a.description} +{counted(a.dots, 'dot')} every time." for a in prestige.mission_awards]
    out.append(Section("prestige", "Prestige", tuple(firsts + standing) + (
        f"Rescue: {counted(prestige.rescue_dots_per_derp, 'dot')} per rescued derp, paid by their program to the "
        f"rescuer.",
    )))

    out.append(Section("luck", "Luck", (
        "A luck point rerolls any die; keep whichever result you like.",
        f"Luck comes from derps coming home healthy from a new step (+{eco.luck.per_healthy_derp_back_from_new_step} "
        f"each) and from rescuing a rival's derps (+{eco.luck.per_rival_derp_rescued} each). Programs start with "
        f"{budget.start_luck}.",
    )))

    if any(o.id == "underped" for o in rules.options.options):
        u = comps.underped
        out.append(Section("underped", "Underped craft", (
            f"With the Underped craft rule a program may invent an underped system, a robot pilot: a part of mass "
            f"1, researched and built like any other, that also counts as a crew member with a new derp's skills "
            f"(Piloting {derps.start_piloting}, Engineering {derps.start_engineering}, Stamina "
            f"{derps.start_stamina}). Load it into a capsule as a "
            f"part; it eats no rations. A craft flown by robots alone may go anywhere a crewed craft may.",
            f"Programming: {pts(u.program_cost_per_stamina)} per stamina point, during R&D, even aboard a craft "
            f"already on the pad. Robots are never trained.",
            f"After liftoff each robot checks its reliability to power up; a Fail leaves it powered down, a Boom "
            f"destroys it. A robot spends {u.action_stamina} stamina on every action it takes, burns and nudges "
            f"included (derps aboard fly for free); without a robot able to pay, a robot craft cannot act. A robot "
            f"never goes outside, and with a new derp's Engineering it cannot jury-rig.",
            "What would injure a derp powers a robot down; what would kill a derp destroys it and strands its craft. "
            "Losing a robot costs no dots.",
            f"A robot may power down on purpose: a craft of sleeping robots skips its duration rolls in a stable "
            f"orbit. Powering up again needs {u.power_up_stamina} stamina left, a reliability check and that "
            f"stamina point. A derp may hand a robot {u.given_stamina} of their own stamina. Robots with no stamina "
            f"left may self-destruct or simply drift.",
            f"A generator (a payload) is a habitat for robots: it rolls at duration steps like a habitat and gives "
            f"each robot aboard {u.generator_recharge} stamina at the end of a turn.",
            f"A first won by a craft of robots alone pays {_frac(prestige.underped_share)} of its dots, rounded up.",
            "Clockwork robots (a further option): a robot craft's actions are written down on the pad (its burns, "
            "payloads, shedding, powering down and up, docking, nudging the rock) and carried out in order, and "
            "it does nothing else; when a burn fails the craft may only retry it or abort the rest of its orders. "
            "When its robots are recharged in flight (by a generator or a derp) its owner may write it new orders "
            "in the next R&D, a jury-rig of a part broken by then among them.",
            f"Robot repairs (a further option): robots carry a repair routine and jury-rig as if they had "
            f"Engineering {u.repair_engineering}, but only the capsule or habitat they ride in.",
        )))

    rock = []
    for scenario in rules.scenarios.scenarios:
        rock.append(scenario.description)
        for d in scenario.difficulties:
            rock.append(f"{d.name}: impact in {d.turns_to_impact} turns, {d.nudges_needed} nudges' worth needed, "
                        f"{d.start_dots} starting dots"
                        f"{f', {d.start_points} points of emergency funding on turn 1' if d.start_points else ''}"
                        f"{', the rock drifts' if d.drift else ''}.")
        rock.append(f"A nudge costs {scenario.nudge_fuel} fuel and is worth the turns left. The drift die is a "
                    f"D{scenario.drift_die}, until the rock is {scenario.drift_stops_at} turns away.")
    out.append(Section("rock", "Stop The Rock", tuple(rock) or ("No scenario in these rules.",)))

    out.append(Section("victory", "Victory", tuple(f"{v.name}: {v.description}" for v in rules.scenarios.victories)
                       + tuple(f"Option {o.name}: {o.explanation}" for o in rules.options.options)))
    out.append(Section("space_war", "Space War", space_war_paragraphs(rules)))
    out.append(Section("ship_fights", "Ship to ship", ship_fight_paragraphs(rules)))
    return out


def research_caps_words(rules) -> str:
    """How far research alone can take a thing, from economy.yaml's research caps (none in the 2013 edition)."""
    research = rules.economy.research
    if research.cap_never_flown is None and research.cap_never_flown_successfully is None:
        return (f"No research caps: research alone can take any thing up to {rules.economy.reliability.best}, "
                f"flown or not.")
    caps = []
    if research.cap_never_flown is not None:
        caps.append(f"a thing that has never flown cannot be researched past {research.cap_never_flown}")
    if research.cap_never_flown_successfully is not None:
        caps.append(f"one that has never flown successfully not past {research.cap_never_flown_successfully}")
    return (f"Research caps: {'; '.join(caps)}. Exempt: {', '.join(research.caps_exempt_roles) or 'nothing'}. "
            f"The Simulationist option lifts the caps.")


def space_war_paragraphs(rules) -> tuple[str, ...]:
    """The optional hostilities in words, with the numbers of ``rules.space_war`` as loaded."""
    war, fights, docking = rules.space_war, rules.space_war.derp_fights, rules.space_war.hostile_docking
    cost = f"costs {docking.repel_stamina} stamina and " if docking.repel_stamina else ""
    need = f" with Piloting {docking.repel_min_piloting} or more" if docking.repel_min_piloting else ""
    opened = ("once a derp dies in it" if war.open_war.starts_when == "derp_killed" else "from the first hostile act")
    return (
        "An optional rule (Space War, off unless a group switches it on at New game). Rivals may dock with your "
        "craft against its will and your derps may brawl with theirs; nothing of it happens in a cooperative "
        "scenario.",
        f"Docking against a craft's will: when a rival's docking works, your craft may push it off with an RCS "
        f"burn fired by a healthy derp{need}; the burn {cost}uses the RCS like a docking and rolls; on OK the "
        f"docking fails. The rival may try again while its RCS and stamina last; you may also let it stand. The "
        f"attacker may use a winch; the defender only RCS.",
        f"Derp fights: a craft taking its turn may start one with a rival craft at the same stable step (docked "
        f"or not). Every healthy derp of both craft picks an enemy (ganging up allowed; the injured may be picked "
        f"but do not fight). Each pair rolls the game's dice plus Piloting. An attacker who rolls higher costs the "
        f"defender {fights.beaten_loss} stamina; two derps who picked each other roll once, and the lower loses "
        f"{fights.beaten_loss}; a tie costs nothing more. Every derp of a pair loses {fights.brawl_loss}.",
        "Losses land when the last pair has rolled. A derp who cannot pay is injured; an injured derp who loses "
        "any stamina dies.",
        f"Wars: a resisted docking or a fight starts a secret war between the two programs. It turns open "
        f"{opened}. An open war is a defeat for both programs: neither can win; the win goes to the best of the "
        f"others, if any.",
    )


def ship_fight_paragraphs(rules) -> tuple[str, ...]:
    """Space War's ship-to-ship fights in words, with the mapping and numbers of ``rules.ship_combat`` as loaded."""
    table = rules.ship_combat
    kinds = {k.id: k.name for k in rules.components.kinds}
    plays: dict[str, list[str]] = {}
    for system in table.systems:
        role = table.weapon(system.weapon).name if system.plays == "weapon" else system.plays
        plays.setdefault(role, []).append(kinds.get(system.part, system.part))  # names as components.yaml writes them
    mapping = "; ".join(f"{role}: {', '.join(parts)}" for role, parts in plays.items())
    classes = []
    for c in table.classes:
        heavy = f"up to spacecraft mass {c.up_to_mass}" if c.up_to_mass is not None else "heavier"
        classes.append(f"{c.name.lower()} {heavy} (size {c.size})")
    weapons = "; ".join(
        f"a {w.name} rolls {w.dice_per_system} dice" + (f" and adds {w.heat_per_system} heat" if w.heat_per_system
                                                         else "") + (", once: the part is gone" if w.spent_after_firing
                                                                     else "") for w in table.weapons)
    return (
        "Under Space War a craft taking its turn may open fire on a rival craft at the same stable step, "
        f"{'once' if table.fights_per_turn == 1 else f'{table.fights_per_turn} times'} a turn, if it carries "
        "something that fires. The fight is Cosmoforce's combat: "
        + ("one round." if table.max_rounds == 1 else
           f"round after round, until both sides offer a ceasefire when a round is over, one craft is out, or "
           f"{table.max_rounds} rounds have been fought."),
        f"Its parts play Cosmoforce's systems: {mapping}. Its derps are the crew (an injured derp is hurt). "
        f"Classes by spacecraft mass: {', '.join(classes)}; the fighting mass is the size for every part that fights.",
        "Speed is the working engines; the faster craft acts first, a tie goes to the craft that opened fire. Each "
        f"craft fires one kind of weapon ({weapons}) or conserves energy ({table.conserve_energy_heat} heat less). "
        "Heat starts as engines minus dissipators.",
        "A shot's odd faces hit, kept smallest first while they add up to no more than the target's fighting mass. "
        "The owner of the craft hit places each hit: a part's first hit is a Fail (it stops working, a jury-rig "
        "can mend it), its second a Boom (it is destroyed; a capsule's takes the whole craft and its crew). Armor "
        "takes two hits and is never destroyed.",
        f"Aftermath: working dissipators vent heat, then {table.heat_dice_per_token} die per heat token left; each "
        "odd face injures a healthy derp, or with none healthy an injured one dies. A craft destroyed, without "
        "crew, or with every fighting part damaged is out, and the fight ends. Opening fire starts a secret war; a "
        "death in the fight opens it.",
    )


#: id(rules) -> the example rocket of those rules (or None). The entry leaves when its rules object dies
#: (``weakref.finalize``), so a new rules object made at the same address never meets an old example (an
#: example that was built holds its engine, and so its rules, as long as the entry is kept). Keyed by id, not
#: a ``WeakKeyDictionary``: that would hash and compare the whole edition by value on every frame that asks.
_EXAMPLES: dict[int, object] = {}


def example_rocket(rules):
    """(engine, state, design) of a crewed orbiter built through the real rules: a capsule for one derp, the
    lightest thruster that pushes it, 2 fuel, an insertion stage as heavy as that spacecraft and a launch
    stage as heavy as both. None if these rules cannot build it within a few turns."""
    key = id(rules)
    if key in _EXAMPLES:
        return _EXAMPLES[key]
    from game.games.whatgoesup.rules.actions import Build, BuyConsumables, EndRnD, Hire, Invent
    from game.games.whatgoesup.rules.engine import Engine, IllegalAction, IllegalSetup
    from game.games.whatgoesup.rules.state import PlayerSetup, Setup, UpgoerDesign

    comps, derp_mass = rules.components, rules.economy.derps.mass
    capsule = formulas.capsule_mass_for_capacity(derp_mass, comps)
    thruster = max(1, formulas.required_thruster_mass(capsule, comps.thruster.min_ratio))
    fuel = 2
    spacecraft = capsule + thruster + derp_mass + fuel
    plan = [("capsule", capsule, "Pod"), ("thruster", thruster, "Puff"),
            ("lower_stage", spacecraft, f"Hopper {spacecraft}"),
            ("lower_stage", 2 * spacecraft, f"Hopper {2 * spacecraft}")]
    engine = Engine(rules)
    result = None
    try:
        state = engine.new_game(Setup(players=(PlayerSetup("Example", rules.peoples.peoples[0].id),)))
        todo: list = [Invent(kind, mass, name) for kind, mass, name in plan]
        building = False
        for _turn in range(12):  # spend each turn's points, and wait a turn when they run out
            while todo:
                try:
                    state = engine.apply(state, todo[0])
                except IllegalAction:
                    break
                todo.pop(0)
                if not todo and not building:
                    things = {t.name: t.id for t in state.things_of(0)}
                    todo = [Build(things[name]) for _k, _m, name in plan] + [Hire("Pip"),
                                                                            BuyConsumables("fuel", fuel)]
                    building = True
            if not todo:
                break
            state = engine.apply(state, EndRnD())
        items = {state.thing(i.thing_id).name: i.id for i in state.items_of(0)}
        if len(items) == len(plan) and state.derps_of(0):
            pod, puff, upper, lower = (items[name] for _k, _m, name in plan)
            design = UpgoerDesign("Example", stages=((lower,), (upper,)), modules=(pod, puff),
                                  crew=(state.derps_of(0)[0].id,), fuel=fuel)
            result = (engine, state, design)
    except (IllegalAction, IllegalSetup, KeyError, IndexError):
        result = None
    _EXAMPLES[key] = result
    weakref.finalize(rules, _EXAMPLES.pop, key, None)
    return result


def mass_formula_words(report) -> str:
    """The stage rule worked through an example's own numbers (from its design report)."""
    if len(report.stages) < 2:
        return ""
    launch, insertion = report.stages
    return (f"Worked through: the spacecraft masses {_frac(report.spacecraft_mass)}, so the insertion stage must "
            f"mass {_frac(insertion.carries)}. The launch stage carries both, {_frac(report.spacecraft_mass)} + "
            f"{insertion.mass} = {_frac(launch.carries)}, so it must mass {_frac(launch.carries)}: every stage "
            f"doubles the rocket, and the whole Upgoer masses {_frac(report.total_mass)}.")


class RulesReferenceScene(ReferenceScene):
    """What Goes Up's reference: its sections, the example rocket beside the mass rules, and the glossary."""

    def __init__(self, context, rules=None, section: str = "turn") -> None:
        if rules is None:
            from game.client.whatgoesup.shipped import shipped_engine
            rules = shipped_engine().rules
        from game.client.whatgoesup.glossary import WORDS

        self.rules = rules
        self.picture = None  # the example rocket as last drawn (RocketPicture)
        super().__init__(context, reference_sections(rules) + [glossary_section(WORDS, rules)], section,
                         about=f"numbers from the rules in use ({rules.edition.id})")

    def picture_share(self, section: Section) -> float:
        return 0.52 if section.key == "mass" and example_rocket(self.rules) is not None else 0.0

    def draw_picture(self, surface: pygame.Surface, box: pygame.Rect) -> None:
        """The example orbiter beside the mass rules, and the stage rule worked through its numbers."""
        from game.client.whatgoesup.rocket_view import draw_rocket

        layout = self.context.layout
        engine, state, design = example_rocket(self.rules)
        pygame.draw.rect(surface, (21, 18, 48), box, border_radius=layout.px(12))
        head = font_px(layout.px(17), True)
        draw_text(surface, "An example Upgoer, drawn to scale", head, ACCENT_LIGHT,
                  (box.left + layout.px(12), box.top + layout.px(8)))
        font = font_px(layout.px(15))
        words = mass_formula_words(engine.check_design(state, 0, design))
        inner = box.inflate(-layout.px(24), 0)
        lines_h = 4 * font.get_linesize()
        picture_box = pygame.Rect(box.left, box.top + layout.px(32), box.w, box.h - layout.px(40) - lines_h)
        self.picture = draw_rocket(surface, picture_box, engine, state, design, 0, layout.scale)
        draw_wrapped(surface, words, font, INK, pygame.Rect(inner.left, picture_box.bottom + layout.px(4), inner.w,
                                                           lines_h + layout.px(4)), 4)
