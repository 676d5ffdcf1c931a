"""What Goes Up's words, each explained in a sentence or two, with the numbers of the loaded rules.

``explain("Fail safety", rules)`` is the one lookup every tooltip goes through; an unknown term is a
KeyError (and a test reads every term the screens ask for), so a tooltip can never show a word the
glossary does not explain. ``tip_text(["OK", "Fail"], rules)`` joins several entries for one tooltip;
``attach`` and ``hotspot`` put an explanation on a widget or on drawn text. The lookups and the tooltips
themselves are the kit's (``game.client.kit.glossary``), shared by every hosted game; the entries are
this game's. ``rules`` may be None: the shipped rules are used.
"""
from __future__ import annotations

from fractions import Fraction
from typing import Optional

from game.client.kit.glossary import Entry, Glossary, Terms
from game.client.kit.words import counted
from game.client.kit.glossary import tooltip_text  # noqa: F401 - the tests read tooltips through this module
from game.client.whatgoesup.explain import boom_penalty_words, skill_use


def _frac(value) -> str:
    value = Fraction(value)
    return str(value.numerator) if value.denominator == 1 else f"{value.numerator}/{value.denominator}"


def _boom(r) -> str:
    return f"A roll at or above the part's Boom safety: it goes badly wrong. It also {boom_penalty_words(r)}."


def _rating(r) -> str:
    rel, research = r.economy.reliability, r.economy.research
    return (f"A part's reliability written as two numbers, Fail safety/Boom safety. Higher is safer: "
            f"a new design starts at {research.new_thing_rating}, the best is {rel.best}, the worst {rel.worst}.")


def _stamina(r) -> str:
    d = r.economy.derps
    return (f"A derp's energy. Each help with a roll, docking or EVA costs a point; a derp at 0 who must spend "
            f"more is injured. New derps start with {d.start_stamina}; a habitat lets derps recover it.")


def _piloting(r) -> str:
    f = r.flight
    return (f"A derp's flying skill. After a Fail, each stamina point spent {skill_use(r, 'piloting')}, as often "
            f"as stamina lasts. Docking needs Piloting {f.docking_min_piloting}, an EVA {f.eva_min_piloting}.")


def _engineering(r) -> str:
    return (f"A derp's fixing skill. After a Boom, each stamina point spent {skill_use(r, 'engineering')}. A "
            f"jury-rig works on a roll under {r.flight.jury_rig_engineering_multiplier} x Engineering.")


def _luck(r) -> str:
    luck, start = r.economy.luck, r.economy.budget.start_luck
    return (f"A luck point rerolls any roll; you keep whichever result you like. Earned +"
            f"{luck.per_healthy_derp_back_from_new_step} for each derp home healthy from a new step and +"
            f"{luck.per_rival_derp_rescued} for each rival derp rescued. Programs start with {start}.")


def _dots(r) -> str:
    b, d = r.economy.budget, r.economy.dots
    return (f"Your budget, and your score. Each R&D turn every dot pays {counted(b.points_per_dot, 'point')}. Dots change "
            f"at the end of a turn: +{d.per_new_step} per new mission step, {d.per_derp_lost} per derp lost, plus "
            f"prestige. Never below {b.min_dots} or above {b.max_dots}; you start with {b.start_dots}.")


def _points(r) -> str:
    b = r.economy.budget
    return (f"What R&D is paid with: {b.points_per_dot} per budget dot at the start of each R&D turn. Points you "
            f"do not spend are kept for next turn.")


def _budget(r) -> str:
    b = r.economy.budget
    return (f"Your program's dots: they pay your points every turn and rise with successes. Between "
            f"{b.min_dots} and {b.max_dots}; the game starts at {b.start_dots}.")


def _blueprint(r) -> str:
    c, research = r.economy.costs, r.economy.research
    return (f"A design you invented ({c.invent_per_mass} points per mass, starting at {research.new_thing_rating}). "
            f"Research improves the blueprint; building makes parts from it at {c.build_per_mass} point per mass.")


def _research_cap(r) -> str:
    research = r.economy.research
    exempt = ", ".join(research.caps_exempt_roles) or "nothing"
    if research.cap_never_flown is None and research.cap_never_flown_successfully is None:
        return (f"These rules have no research caps: research alone can take a design up to "
                f"{r.economy.reliability.best}, flown or not.")
    return (f"How far research can take a design before it proves itself: {research.cap_never_flown} if it has "
            f"never flown, {research.cap_never_flown_successfully} until it has flown successfully. Exempt: "
            f"{exempt}.")


def _transfer(r) -> str:
    research = r.economy.research
    return (f"A new design of a kind you have already flown successfully starts at the older design's rating "
            f"(at most {research.tech_transfer_cap}), if the older one masses at least "
            f"{_frac(research.tech_transfer_min_mass_ratio)} of the new one.")


def _reusable(r) -> str:
    return (f"A reusable lower stage or capsule masses {_frac(r.components.reusable_extra_mass)} more and can fly "
            f"again if it comes through reentry and landing.")


def _lower_stage(r) -> str:
    return ("Lifts everything above it, for launch or orbital insertion only. It must mass at least as much as "
            "all it carries.")


def _cluster(r) -> str:
    c = r.components.clustering
    return (f"Lower stages side by side in one stage. Up to {c.average_up_to} roll the average of their dice "
            f"(rounded {c.average_rounding}); more roll the highest. The worst rating in the cluster counts.")


def _capsule(r) -> str:
    return (f"Carries crew, payloads, RCS and rations, steers, and rolls for duration steps, reentry and "
            f"landing. At least mass {r.components.capsule.min_mass}.")


def _thruster(r) -> str:
    t = r.components.thruster
    return (f"Burns fuel to change course (any burn but launch and insertion). Must mass {_frac(t.min_ratio)} "
            f"of the capsules it pushes; {_frac(t.lunar_landing_ratio)} to land on the Moon, "
            f"{_frac(t.planetary_landing_ratio)} to land home in one reusable piece.")


def _rcs(r) -> str:
    return (f"Small steering jets with a few uses: a docking attempt, a +{r.components.rcs_piloting_bonus} "
            f"Piloting boost to a roll, or a deorbit.")


def _fuel(r) -> str:
    c, f = r.components, r.economy.fuel
    return (f"Bought {r.economy.costs.consumable_per_container} point a container ({c.fuel_per_container} fuel "
            f"each). A burn costs the spacecraft's mass / {f.mass_per_fuel_point}, rounded up.")


def _rations(r) -> str:
    return (f"Food, air and water: a container ({r.economy.costs.consumable_per_container} point) feeds "
            f"{r.components.rations_derp_turns_per_container} derp-turns. Every derp in space eats one at the end "
            f"of each turn; a derp without rations is injured.")


def _burn(r) -> str:
    return (f"Firing thrusters to change rail at a junction, land or leave orbit. It costs fuel (the "
            f"spacecraft's mass / {r.economy.fuel.mass_per_fuel_point}, rounded up) and rolls the thrusters.")


def _docking(r) -> str:
    return (f"Joining two craft in the same stable orbit. The docking derp needs Piloting "
            f"{r.flight.docking_min_piloting} or more, spends a stamina point, and an RCS does the work.")


def _eva(r) -> str:
    return (f"A derp going outside in an EVA pack: to fix a part, move between craft or walk on a surface. "
            f"Needs Piloting {r.flight.eva_min_piloting} or more.")


def _jury_rig(r) -> str:
    return (f"Making a disabled part work again: it works on a roll under "
            f"{r.flight.jury_rig_engineering_multiplier} x the derp's Engineering. No Boom is possible.")


def _hostile(r) -> str:
    option = next((o for o in r.options.options if o.id == "hostile_waters"), None)
    words = option.explanation if option is not None else "Rolls in places nobody has been are harder."
    return f"An optional rule. {words}"


def _space_war(r) -> str:
    f = r.space_war.derp_fights
    return (f"An optional rule: rivals may dock against your will unless you push them off with an RCS burn, and "
            f"derps may fight (die plus Piloting; the beaten derp loses {f.beaten_loss} stamina, everyone "
            f"{f.brawl_loss}). A war is secret until a derp dies in it; an open war is a defeat for both programs.")


def _ship_fight(r) -> str:
    t = r.ship_combat
    weapons = ", ".join(f"{w.name} {w.dice_per_system} dice" for w in t.weapons)
    rounds = "one round" if t.max_rounds == 1 else "rounds until both sides offer a ceasefire or one is out"
    return (f"Space War: a craft may open fire on a rival craft at its step: {rounds}, Cosmoforce's combat. Parts "
            f"play systems (dice: {weapons}); odd faces hit while they fit in the target's fighting mass. A part's "
            f"first hit is a Fail, its second a Boom.")


def _positioning(r) -> str:
    p = r.prestige
    orbits = ", ".join(p.waylight_orbit_types) or "some orbits"
    return (f"Active Waylights in {orbits} orbits help every pilot of their program: +{p.waylight_piloting_bonus} "
            f"Piloting per orbit type with a shining Waylight.")


def _nudge(r) -> str:
    scenarios = getattr(r.scenarios, "scenarios", ())
    fuel = scenarios[0].nudge_fuel if scenarios else "some"
    return (f"Stop The Rock: a thruster fired from the rock's surface. It costs {fuel} fuel and is worth as many "
            f"nudges as there are turns left before impact, so early nudges count most.")


def _drift(r) -> str:
    scenarios = getattr(r.scenarios, "scenarios", ())
    if not scenarios:
        return "Stop The Rock: the rock's path wanders a little each turn."
    s = scenarios[0]
    return (f"Stop The Rock: at the start of each turn the rock's D{s.drift_die} is rolled. Its lowest face "
            f"brings impact a turn later, its highest a turn sooner. It stops once a Waylight shines on the rock "
            f"or when impact is {s.drift_stops_at} turns away or closer.")


def _impact(r) -> str:
    return ("Stop The Rock: the turns left before the rock hits the world. Enough nudges before then and it "
            "misses; if it arrives first, everyone loses.")


def _underped(r) -> str:
    u, d = r.components.underped, r.economy.derps
    share = r.prestige.underped_share
    return (f"A robot pilot: a part of mass 1 and a crew member ({d.start_piloting}/{d.start_engineering}/"
            f"{d.start_stamina}) in a capsule. Eats nothing, spends {u.action_stamina} stamina per action, burns "
            f"too; powers up by a reliability check after liftoff. Hurt: powered down; killed: destroyed and its "
            f"craft stranded. Costs no dots to lose; firsts by robots alone pay {_frac(share)}.")


def _programming(r) -> str:
    u = r.components.underped
    return (f"How an underped system gets stamina: {counted(u.program_cost_per_stamina, 'point')} per stamina point, in "
            f"R&D, even aboard a craft already on the pad. It is never trained and never stays home for it.")


def _generator(r) -> str:
    u = r.components.underped
    return (f"A payload that is a habitat for robots: aboard a craft with underped systems it rolls at duration "
            f"steps like a habitat and gives each system {u.generator_recharge} stamina at the end of the turn.")


def _victory(r) -> str:
    names = ", ".join(v.name for v in getattr(r.scenarios, "victories", ()))
    return f"How this game is won. The choices: {names}." if names else "How this game is won."


GLOSSARY: dict[str, Entry] = {
    "Boom": _boom,
    "Fail": "A roll at or above the part's Fail safety but under its Boom safety: something goes wrong, but "
            "not the worst. The roll card says what, from the failure table.",
    "OK": "A roll under the part's Fail safety: the part works.",
    "Fail safety": "The first number of a rating. A roll under it is OK. Research 'Fail to OK' raises it; so does "
                   "a derp's Piloting after a roll.",
    "Boom safety": lambda r: ("The second number of a rating. A roll at or above it is a Boom. Research 'Boom "
                              "to Fail' raises it" + ("; so does a derp's Engineering after a roll."
                                                      if r.flight.skills == "raise_safeties" else
                                                      "; after a roll a derp's Engineering can move a Boom below it.")),
    "rating": _rating,
    "reliability": lambda r: ("How likely a part is to work, as its rating Fail/Boom. The dice are rolled "
                              "against it; the roll card shows the exact odds before every roll. " + _rating(r)),
    "stamina": _stamina,
    "skills": lambda r: (f"A derp's numbers, Piloting/Engineering/Stamina. After a roll a derp may spend a stamina "
                         f"point: Piloting {skill_use(r, 'piloting')}, Engineering {skill_use(r, 'engineering')}. New "
                         f"derps start at {r.economy.derps.start_piloting}/{r.economy.derps.start_engineering}/"
                         f"{r.economy.derps.start_stamina}."),
    "Piloting": _piloting,
    "Engineering": _engineering,
    "luck": _luck,
    "dots": _dots,
    "points": _points,
    "budget": _budget,
    "blueprint": _blueprint,
    "research cap": _research_cap,
    "technology transfer": _transfer,
    "reusable": _reusable,
    "lower stage": _lower_stage,
    "cluster": _cluster,
    "capsule": _capsule,
    "habitat": "Room to live in space: rolls at duration steps and lets derps aboard recover stamina, but "
               "cannot steer.",
    "thruster": _thruster,
    "RCS": _rcs,
    "payload": "Cargo with a job: mapping, an EVA pack, a Waylight, a probe or escape tower, a winch or a cart. "
               "A payload rolls when it is used.",
    "fuel": _fuel,
    "rations": _rations,
    "duration step": "A step of The Field where a craft in space stops for the turn; its capsules and habitats "
                     "roll to see how they hold up.",
    "burn": _burn,
    "junction": "A point on a rail where a burn can move a craft onto another rail. A craft may wait a turn or "
                "two to line up with one.",
    "orbital insertion": "The second roll of a flight: the insertion stage pushes the spacecraft from the launch "
                         "into orbit.",
    "launch": "The first roll of a flight: the launch stage lifts the whole Upgoer off the pad.",
    "reentry": "Coming back into the air from space: the capsules roll, and a Fail or Boom can hurt the crew.",
    "landing": "Touching down at the end of a flight: the capsules roll. A reusable part must land well to fly "
               "again.",
    "stranded": "A craft that can no longer be steered: no more burns. Its crew waits for a rescue by docking "
                "or EVA.",
    "debris": "A written-off craft left in space. A program may track it during R&D; untracked debris drifts "
              "away at the next flight phase.",
    "docking": _docking,
    "EVA": _eva,
    "jury-rig": _jury_rig,
    "Hostile Waters": _hostile,
    "Space War": _space_war,
    "ship fight": _ship_fight,
    "Positioning System": _positioning,
    "timing order": "Who flies first in a flight phase: the craft with the most reliable parts, then the "
                    "program with fewer dots; a coin breaks a tie. A rush moves a craft up.",
    "rush": "In R&D a derp aboard a craft spends a stamina point to add their Piloting or Engineering to the "
            "craft's timing score for the next flight phase. It never changes a roll.",
    "nudge": _nudge,
    "drift": _drift,
    "impact": _impact,
    "victory": _victory,
    "underped system": _underped,
    "programming": _programming,
    "generator": _generator,
    "powered down": "An underped system switched off: by an accident that would injure a derp, on purpose, or on "
                    "the ground. It cannot act until it powers up (stamina left, a reliability check and a stamina "
                    "point). Sleeping robots alone in a stable orbit skip their duration rolls.",
    "clockwork": "An optional rule for robot craft: the burns they make are written down on the pad and followed "
                 "in order. If a written burn fails the craft may only try it again or abort the rest.",
}

#: Other spellings used on screen.
ALIASES = {"booms": "Boom", "fails": "Fail", "insertion": "orbital insertion",
           "jury rig": "jury-rig", "derp stamina": "stamina", "nudges": "nudge", "rcs burn": "burn",
           "duration": "duration step", "lunar landing": "landing", "underped": "underped system",
           "robot": "underped system", "program": "programming", "power down": "powered down",
           "power up": "powered down"}


def _shipped_rules():
    from game.client.whatgoesup.shipped import shipped_engine

    return shipped_engine().rules


#: What Goes Up's glossary (the lookups and tooltips are the kit's, shared by every hosted game).
WORDS = Glossary(GLOSSARY, ALIASES, _shipped_rules)


def canonical(term: str) -> str:
    """The glossary's own spelling of ``term`` (any case, or a known alias); KeyError if it has no entry."""
    return WORDS.canonical(term)


def has(term: str) -> bool:
    return WORDS.has(term)


def explain(term: str, rules=None) -> str:
    """The explanation of ``term`` with the numbers of ``rules`` (the shipped rules if None)."""
    return WORDS.explain(term, rules)


def tip_text(terms: Terms, rules=None, lead: str = "") -> str:
    """The tooltip's HTML: each term in bold with its explanation (``lead`` first, if given)."""
    return WORDS.tip_text(terms, rules, lead)


def attach(element, terms: Terms, rules, layout, lead: str = "") -> str:
    """Set ``element``'s tooltip to the explanation of ``terms``; returns the HTML."""
    return WORDS.attach(element, terms, rules, layout, lead)


def hotspot(rect, terms: Terms, rules, context, container=None, lead: str = ""):
    """An invisible widget over drawn text at ``rect`` (screen pixels) whose tooltip explains ``terms``."""
    return WORDS.hotspot(rect, terms, rules, context, container, lead)


def term_for_roll(kind: str) -> Optional[str]:
    """The glossary term for a roll kind ('reentry' -> 'reentry', 'duration_capsule' -> 'duration step')."""
    table = {"launch": "launch", "orbital_insertion": "orbital insertion", "burn": "burn", "rcs_burn": "RCS",
             "duration_capsule": "duration step", "duration_habitat": "duration step", "docking": "docking",
             "payload": "payload", "eva": "EVA", "reentry": "reentry", "landing": "landing",
             "stage_recovery": "reusable", "lunar_landing": "landing", "rock_docking_burn": "docking",
             "rock_docking_rcs": "docking", "jury_rig": "jury-rig", "escape_tower": "payload", "winch": "payload",
             "power_up": "underped system"}
    return table.get(kind)
