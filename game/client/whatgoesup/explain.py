"""Why a roll turned out as it did, in words, built from the loaded failure table (``rules.flight``).

``EFFECT_WORDS`` is the one place an effect type of ``rules/flight.yaml`` gets its words; a test checks
that every effect type the engine knows has them, so a new effect cannot reach the screen unexplained.
``consequence_sentence(rules, "reentry", "fail")`` reads the table as loaded, so a house-ruled table
explains the house rule: "Reentry Fail: the parts that rolled cannot be reused, and everyone aboard is
injured."
"""
from __future__ import annotations

import re
from typing import Callable, Optional, Union

from game.client.kit.words import counted
#: Effect type -> words (a string, or a function of the Effect for the ones with parameters).
EffectWords = Union[str, Callable[[object], str]]


def _safety(effect) -> str:
    return f"{effect.fail} Fail and {effect.boom} Boom safety"


def _uses(effect) -> str:
    return "every use" if effect.uses == "all" else f"{effect.uses} use{'s' if effect.uses != 1 else ''}"


def _choose(effect) -> str:
    """'you choose to lose a payload, to lose ..., or to let every part lose ...' (a sentence, no colon list)."""
    names = {"lose_payload": "lose a payload", "lose_rations": f"lose {counted(effect.units, 'derp-turn')} of rations per derp",
             "degrade_all_parts": f"let every part lose {_safety(effect)} for this flight"}
    options = ["to " + names.get(o, o.replace("_", " ")) for o in effect.options]
    if not options:
        return "you have nothing to choose"
    return "you choose " + (options[0] if len(options) == 1 else ", ".join(options[:-1]) + ", or " + options[-1])


EFFECT_WORDS: dict[str, EffectWords] = {
    "cancel": "it does not happen this time",
    "retry_allowed": "you may try the burn again at once while fuel and thrusters last",
    "stages_spent": "the lower stages used are gone",
    "to_fallback": "the capsules and reusable parts fall back (to reentry); the rest is lost",
    "destroy_upgoer": lambda e: "the whole Upgoer is lost" + (
        " (a working escape tower may pull the capsule clear)" if getattr(e, "escape_tower", False) else ""),
    "disable_part": "the part that rolled stops working for the rest of the flight",
    "destroy_part": "the part that rolled is gone",
    "damage_capsule": lambda e: f"the nearest capsule loses {_safety(e)} for this flight",
    "degrade_all_parts": lambda e: f"every part aboard loses {_safety(e)} for this flight",
    "choose": _choose,
    "lose_payload": "one payload aboard is lost",
    "lose_rations": lambda e: f"{counted(e.units, 'derp-turn')} of rations per derp aboard are lost",
    "strand": "the craft can no longer be steered (no more burns)",
    "injure_crew": "everyone aboard is injured",
    "kill_crew": "everyone aboard is killed",
    "injure_user": "the derp using the part is injured",
    "no_reuse": "the parts that rolled cannot be reused",
    "rcs_uses": lambda e: f"the RCS loses {_uses(e)}",
    "unusable_this_turn": "the part cannot be used again this turn",
    "no_stamina_recovery": "derps in the habitat recover no stamina this turn",
    "stamina_loss": lambda e: f"everyone aboard loses {e.units} stamina (a derp at 0 is injured)",
    "crash": "the craft hits the surface and is destroyed",
    "stay": "the craft stays where it was",
    "bail_out": lambda e: "everything but the capsule blows up; " + (
        "with a working escape tower it comes down through reentry, without one the crew are hurt and it falls "
        "straight to the landing roll" if getattr(e, "escape_tower", False) else
        "the crew are hurt and it falls straight to the landing roll"),
}

#: Roll kind -> its name in a sentence ("Reentry Fail: ...").
ROLL_NAMES = {
    "launch": "Launch", "orbital_insertion": "Orbital insertion", "escape_tower": "Escape tower", "burn": "Burn",
    "rcs_burn": "RCS burn", "docking": "Docking", "duration_capsule": "Capsule check (duration step)",
    "duration_habitat": "Habitat check (duration step)", "payload": "Payload", "eva": "EVA", "winch": "Winch",
    "reentry": "Reentry", "landing": "Landing", "stage_recovery": "Stage recovery",
    "lunar_landing": "Lunar landing burn", "rock_docking_burn": "Rock docking burn",
    "rock_docking_rcs": "Rock docking (RCS)", "jury_rig": "Jury-rig", "power_up": "Power-up check",
}


def effect_words(effect) -> str:
    """One effect of the failure table in words; KeyError for an effect type without words."""
    words = EFFECT_WORDS[effect.effect]
    return words(effect) if callable(words) else words


def _join(parts: list[str]) -> str:
    if not parts:
        return "nothing else happens"
    if len(parts) == 1:
        return parts[0]
    return ", ".join(parts[:-1]) + ", and " + parts[-1]


def skill_use(rules, skill: str) -> str:
    """What one stamina point of ``skill`` ('engineering' or 'piloting') does after a roll, in the reading the
    loaded rules use (``flight.yaml: skills``): "moves a Boom roll towards Fail by the derp's Engineering ..."."""
    if getattr(rules.flight, "skills", "move_roll") == "raise_safeties":
        return ("raises the Boom safety by the derp's Engineering for that roll" if skill == "engineering" else
                "raises the Fail safety by the derp's Piloting for that roll")
    return ("moves a Boom roll towards Fail by the derp's Engineering (no further than the Fail safety)"
            if skill == "engineering" else "moves a Failed roll towards OK by the derp's Piloting")


def boom_penalty_words(rules) -> str:
    """What a Boom costs the design's other copies, as a verb phrase: 'costs every copy of that part 3 off its
    Fail safety and 3 off its Boom safety' (``economy.yaml: reliability.boom_penalty_fail / _boom``)."""
    r = rules.economy.reliability
    return (f"costs every copy of that part {r.boom_penalty_fail} off its Fail safety and {r.boom_penalty_boom} off "
            f"its Boom safety")


def _consequence_words(rules, roll_kind: str, outcome: str) -> Optional[tuple[str, str]]:
    """What the loaded failure table does on a Fail or Boom of ``roll_kind``: (its effects joined in words, the
    Boom penalty's sentence or ''); None for a roll the table does not list."""
    try:
        consequence = rules.flight.consequence(roll_kind)
    except KeyError:
        return None
    effects = _join([effect_words(e) for e in getattr(consequence, outcome)])
    penalty = f"A Boom also {boom_penalty_words(rules)}." if outcome == "boom" and not consequence.no_boom_penalty else ""
    return effects, penalty


def accept_sentence(rules, roll_kind: str, outcome: str) -> str:
    """What accepting a Fail or Boom means, as a plain sentence: 'If you accept this Fail, you choose to lose a
    payload, ... .' ('' for an OK or a roll the failure table does not list)."""
    words = _consequence_words(rules, roll_kind, outcome) if outcome in ("fail", "boom") else None
    if words is None:
        return ""
    effects, penalty = words
    return " ".join(w for w in (f"If you accept this {outcome.capitalize()}, {effects}.", penalty) if w)


def why_words(outcome: str, value: int, fail: int, boom: int) -> str:
    """Which band ``value`` fell in and why: '17 is at or above the Boom safety 17.'"""
    if outcome == "boom":
        return f"{value} is at or above the Boom safety {boom}."
    if outcome == "fail":
        return f"{value} is at or above the Fail safety {fail} but under the Boom safety {boom}."
    return f"{value} is under the Fail safety {fail}."


def consequence_sentence(rules, roll_kind: str, outcome: str) -> str:
    """'Reentry Fail: the parts that rolled cannot be reused, and everyone aboard is injured.'

    ``outcome`` is 'fail' or 'boom' (an OK says the part worked). Reads ``rules.flight`` as loaded."""
    name = ROLL_NAMES.get(roll_kind, roll_kind.replace("_", " ").capitalize())
    if outcome == "ok":
        return f"{name} OK: the part works as intended."
    words = _consequence_words(rules, roll_kind, outcome)
    if words is None:
        return ""
    effects, penalty = words
    return f"{name} {outcome.capitalize()}: {effects}." + (f" {penalty}" if penalty else "")


def roll_explanation(rules, roll_kind: str, outcome: str, value: Optional[int] = None, fail: Optional[int] = None,
                     boom: Optional[int] = None) -> str:
    """Which band the value fell in and why, then what the failure table does about it."""
    why = ""
    if value is not None and fail is not None and boom is not None:
        why = why_words(outcome, value, fail, boom) + " "
    return why + consequence_sentence(rules, roll_kind, outcome)


_ROLL_EVENT = re.compile(r": (?P<kind>[a-z ]+?) roll for .* - rolled (?P<value>-?\d+) against Fail (?P<fail>-?\d+) / "
                         r"Boom (?P<boom>-?\d+): (?P<outcome>OK|Fail|Boom)\.$")


def explain_roll_event(rules, text: str) -> str:
    """The failure-table sentence for a roll event of the story ('Hop 1: reentry roll for Pod - rolled 12
    against Fail 10 / Boom 15: Fail.'), or '' for anything else (an OK needs no explaining)."""
    match = _ROLL_EVENT.search(text)
    if match is None or match.group("outcome") == "OK":
        return ""
    return consequence_sentence(rules, match.group("kind").replace(" ", "_"), match.group("outcome").lower())


def bands_sentence(fail: int, boom: int, low: int, high: int) -> str:
    """The bands of a roll against Fail/Boom on dice from ``low`` to ``high``: 'OK on 1-9, Fail on 10-14,
    Boom on 15-20' (a band the dice cannot reach is left out)."""
    parts = []
    for name, lo, hi in (("OK", low, fail - 1), ("Fail", fail, boom - 1), ("Boom", boom, high)):
        lo, hi = max(lo, low), min(hi, high)
        if lo <= hi:
            parts.append(f"{name} on {lo}" if lo == hi else f"{name} on {lo}–{hi}")
    return ", ".join(parts)


def explain_war_event(rules, text: str) -> str:
    """The Space War rule behind a line of the story (a fight's pair, a war beginning or turning open), with
    the numbers of ``rules.space_war`` as loaded; '' for any other line."""
    fights = rules.space_war.derp_fights
    if " go for each other: " in text:
        return (f"Two derps going for each other roll once each plus Piloting: the lower loses {fights.beaten_loss} "
                f"stamina, a tie costs nothing more, and both lose {fights.brawl_loss}.")
    if " goes for " in text and ": " in text:
        return (f"An attacker against a defender: each rolls plus Piloting; if the attacker is higher the defender "
                f"loses {fights.beaten_loss} stamina, a higher or equal defender loses nothing more; both lose "
                f"{fights.brawl_loss}. A derp who cannot pay is injured; an injured derp who loses any dies.")
    if "secret war" in text:
        return ("A secret war costs nothing at the end as long as nobody dies in it. Once a derp dies the war is "
                "open, and an open war is a defeat for both programs, whoever started it.")
    if text.startswith("Open war"):
        return "Neither program in an open war can win this game: the win goes to the best of the others, if any."
    if "push" in text and "off" in text:
        return ("Under Space War a craft may push a docking off with a successful RCS burn, for as long as it has RCS; "
                "the docking then fails.")
    return ""


def explain_ship_fight_event(rules, text: str) -> str:
    """The ship-to-ship rule behind a line of the story (Space War: opening fire, a shot, the heat, a hit, a craft
    out of the fight), with the numbers of ``rules.ship_combat`` as loaded; '' for any other line."""
    table = rules.ship_combat
    if " opens fire on " in text and " acts first" in text:
        return ("A ship fight goes in rounds: the craft with more working engines acts first (a tie goes to the one "
                "that opened fire); each fires one kind of weapon or conserves energy; then each craft's heat left "
                "rolls against its crew. After a round the fight goes on unless both sides offer a ceasefire. A "
                "craft's class, from its spacecraft mass, sets its fighting mass.")
    if " rolls " in text and " to shoot: " in text:
        return ("Odd faces hit. A shot keeps them smallest first, only while they add up to no more than the target's "
                "fighting mass (its class's size for every part that fights): heavy craft are easier to hit.")
    if " rolls " in text and " for its heat: " in text:
        return ("Each odd face injures a healthy derp aboard; with nobody healthy left, an injured derp dies. "
                f"Working dissipators vent heat first; conserving energy sheds {table.conserve_energy_heat}.")
    if " is hit and fails." in text:
        return ("A part's first hit is a Fail: it stops working for the rest of the fight, and a jury-rig can mend it "
                "as after any Fail.")
    if text.startswith("Boom! ") and " is shot to pieces." in text:
        return ("A part's last hit is a Boom: what a Boom of that part does, as ship_combat.yaml lists it (a capsule's "
                "takes the whole craft and everyone aboard).")
    if " is out of the fight: " in text:
        return ("A craft is out when it is destroyed, loses its whole crew or has every part that fights damaged; "
                "the fight ends there.")
    if " offers a ceasefire." in text or " fights on: round " in text or "the fight goes on." in text \
            or "the ceasefire stands." in text or " both crews have had enough." in text:
        return ("After each round, if every side agrees to cease hostilities, the fight is over (Cosmoforce); one "
                f"side fighting on starts the next round. No fight lasts more than {table.max_rounds} rounds.")
    if " conserves energy" in text:
        return f"Holding fire sheds {table.conserve_energy_heat} heat instead of adding any."
    return ""
