"""The story's lines in a newcomer's words.

The engine writes its events compactly, and saves and tests keep those words: a derp hired "(0/0/2)", a
rating "1/5 -> 2/5", "Budget 40 -> 40". ``plain_story`` says the same facts plainly for the story log, the
toasts and the Field's story strip: every number the engine wrote is still there, named ("Piloting 0,
Engineering 0, Stamina 2"; "its Fail safety rises from 1 to 2, now Fail 2 / Boom 5"; "the budget stays at 40
dots"). A line it does not know is shown as the engine wrote it, without the ids it names things by.
"""
from __future__ import annotations

import re
from typing import Callable, Iterable, Optional

from game.client.kit.text import without_ids
from game.client.kit.words import counted, in_sentence

_OUTCOME = {"OK": "OK", "Fail": "a Fail", "Boom": "a Boom"}


def rating_words(fail: object, boom: object) -> str:
    """A rating in words, 'Fail 2 / Boom 5' (its Fail and Boom safeties, never a bare '2/5')."""
    return f"Fail {fail} / Boom {boom}"


def _moves(safety: str, old: str, new: str) -> str:
    if old == new:
        return ""
    return f"its {safety} safety {'rises' if int(new) > int(old) else 'drops'} from {old} to {new}"


def _researched(m: re.Match) -> str:
    f0, b0, f1, b1 = m.group("f0", "b0", "f1", "b1")
    moved = " and ".join(w for w in (_moves("Fail", f0, f1), _moves("Boom", b0, b1)) if w)
    what = f"{moved}, now {rating_words(f1, b1)}" if moved else f"now {rating_words(f1, b1)}"
    return f"{m['who']} researches {m['thing']} for {m['cost']}: {what}."


def _hired(m: re.Match) -> str:
    return (f"{m['who']} hires {m['name']} (Piloting {m['p']}, Engineering {m['e']}, Stamina {m['s']}), "
            f"ready to fly today.")


def _turn_report(m: re.Match) -> str:
    before, after, held = m["before"], m["after"], m["held"]
    held = f", held at its {held}" if held else ""
    if m["lines"] == "no changes":
        return f"End of turn {m['turn']}, {m['program']}: nothing moved the budget, which stays at {after} dots{held}."
    budget = (f"The budget stays at {after} dots{held}" if before == after
              else f"The budget goes from {before} to {after} dots{held}")
    return f"End of turn {m['turn']}, {m['program']}: {m['lines']}. {budget}."


def _safeties_lost(fail: str, boom: str) -> str:
    """'1 from its Fail safety and 2 from its Boom safety' (a safety that loses nothing left out)."""
    parts = [f"{n} from its {safety} safety" for n, safety in ((fail, "Fail"), (boom, "Boom")) if n != "0"]
    return " and ".join(parts) or "nothing"


def _loses(m: re.Match) -> str:
    return f"Every part of {m['craft']} loses {_safeties_lost(m['fail'], m['boom'])} for the rest of the flight."


def _built(m: re.Match) -> str:
    """'builds 1 x Burrow Pod' as 'builds a Burrow Pod'; more than one, 'builds 3 of Burrow Pod'."""
    thing, count = m["thing"], int(m["n"])
    what = f"{_article(thing)} {thing}" if count == 1 else f"{count} of {thing}"
    return f"{m['who']} builds {what} for {m['cost']}."


def _stamina_lost(m: re.Match) -> str:
    def lost(n: str) -> str:
        return "no stamina" if n == "0" else f"{n} stamina"
    return f"({m['a']} loses {lost(m['la'])}, {m['b']} loses {lost(m['lb'])})"


#: Each roll kind of the flight table as the roll card's headline and the story name it ('capsule check', not the
#: engine's 'duration capsule').
ROLL_WORDS = {
    "launch": "launch", "orbital_insertion": "orbital insertion", "burn": "burn", "rcs_burn": "RCS burn",
    "duration_capsule": "capsule check", "duration_habitat": "habitat check", "docking": "docking",
    "payload": "payload", "eva": "EVA", "winch": "winch", "reentry": "reentry", "landing": "landing",
    "stage_recovery": "stage recovery", "lunar_landing": "lunar landing burn", "rock_docking_burn": "rock docking burn",
    "rock_docking_rcs": "rock docking (RCS)", "escape_tower": "escape tower", "jury_rig": "jury-rig",
    "power_up": "power-up check",
}
#: A die's story in the engine's words (flight/rolls.py's _rolled_words).
_ROLLED = re.compile(r"^(?P<craft>.+?): (?P<kind>[a-z ]+) roll for (?P<parts>.+) - rolled (?P<rest>\d+ against .*)$")


_ROLLED_REST = re.compile(r"^(?P<value>-?\d+) against (?P<rating>Fail -?\d+ / Boom -?\d+): (?P<outcome>OK|Fail|Boom)\.$")


def _rolled(m: re.Match) -> str:
    """'Carrot 2's capsule check roll for Burrow Pod comes up 3 against Fail 3 / Boom 5, a Fail.' (a sentence:
    the engine's words chain colons)."""
    kind = m["kind"].replace(" ", "_")
    roll = f"{m['craft']}'s {ROLL_WORDS.get(kind, m['kind'])} roll for {m['parts']}"
    rest = _ROLLED_REST.match(m["rest"])
    if rest is None:
        return f"{roll}, rolled {m['rest']}"
    return f"{roll} comes up {rest['value']} against {rest['rating']}, {_OUTCOME[rest['outcome']]}."


#: A first won, in the engine's words (flight/records.py's _first_words; older saves wrote 'dot(s)').
_FIRST_WON = re.compile(r"^(?:Prestige )?First - (?P<what>[^:]+): (?P<who>.+?) is first(?P<robots> by an underped craft)?! "
                        r"\((?P<detail>[^)]*)\) \+(?P<dots>\d+) dot(?:s|\(s\))?(?: at the end of the turn)?\.?$")
#: The same first as ``plain_story`` tells it.
_TOLD_FIRST = re.compile(r"^(?P<who>.+?) is first(?P<robots> by an underped craft)?! (?P<what>[^:]+): (?P<detail>.+) "
                         r"\(\+(?P<dots>\d+) dots? at the end of the turn\)\.$")


def _first_told(m: re.Match) -> str:
    what = m["what"].strip()
    return (f"{m['who']} is first{m['robots'] or ''}! {what[:1].upper()}{what[1:]}: {m['detail']} "
            f"(+{counted(int(m['dots']), 'dot')} at the end of the turn).")


#: (pattern, its plain words) in the order tried; a whole-line pattern is anchored, a phrase is replaced where
#: it stands. Each pattern follows the engine's words (game/games/whatgoesup/rules: engine.py's _researched,
#: _invented, _hired, _turn_report; flight/rolls.py's _help_done; flight/consequences.py; flight/hostilities.py).
_REWORDINGS: list[tuple[re.Pattern, Callable[[re.Match], str]]] = [
    (_FIRST_WON, _first_told),
    (_ROLLED, _rolled),
    (re.compile(r"^(?P<who>.+?) researches (?P<thing>.+): (?P<f0>\d+)/(?P<b0>\d+) -> (?P<f1>\d+)/(?P<b1>\d+) "
                r"for (?P<cost>\d+ points?)\.$"), _researched),
    (re.compile(r"^(?P<who>.+?) hires (?P<name>.+) \((?P<p>\d+)/(?P<e>\d+)/(?P<s>\d+)\), ready to fly today\.$"),
     _hired),
    (re.compile(r"^(?P<who>.+?) builds (?P<n>\d+) x (?P<thing>.+) for (?P<cost>\d+ points?)\.$"), _built),
    (re.compile(r"^End of turn (?P<turn>\d+), (?P<program>.+?): (?P<lines>.*)\. Budget (?P<before>-?\d+) -> "
                r"(?P<after>-?\d+)(?: \(held at the (?P<held>floor|ceiling) of -?\d+\))?\.$"), _turn_report),
    (re.compile(r"It starts at (?P<f>\d+)/(?P<b>\d+)"), lambda m: f"It starts at {rating_words(m['f'], m['b'])}"),
    (re.compile(r"drops from (?P<f0>\d+)/(?P<b0>\d+) to (?P<f1>\d+)/(?P<b1>\d+)\."),
     lambda m: f"drops from {rating_words(m['f0'], m['b0'])} to {rating_words(m['f1'], m['b1'])}."),
    (re.compile(r"^Every part of (?P<craft>.+) loses (?P<fail>\d+)/(?P<boom>\d+) for the rest of the flight\.$"),
     _loses),
    (re.compile(r"is damaged: -(?P<fail>\d+)/-(?P<boom>\d+) for this flight\."),
     lambda m: f"is damaged: it loses {_safeties_lost(m['fail'], m['boom'])} for this flight."),
    (re.compile(r"the roll moves from (?P<a>\d+) to (?P<b>\d+), (?P<outcome>OK|Fail|Boom) against "
                r"(?P<f>\d+)/(?P<bm>\d+)"),
     lambda m: f"the roll moves from {m['a']} to {m['b']}, now {_OUTCOME[m['outcome']]} ({rating_words(m['f'], m['bm'])})"),
    (re.compile(r"the (?P<safety>Fail|Boom) safety rises by (?P<n>\d+): now (?P<f>\d+)/(?P<bm>\d+), the "
                r"(?P<v>\d+) is (?P<outcome>OK|Fail|Boom)"),
     lambda m: (f"the {m['safety']} safety rises by {m['n']} to {rating_words(m['f'], m['bm'])}, so the {m['v']} is "
                f"now {_OUTCOME[m['outcome']]}")),
    (re.compile(r"is programmed: stamina (?P<a>\d+) -> (?P<b>\d+), for"),
     lambda m: f"is programmed: its stamina goes from {m['a']} to {m['b']}, for"),
    (re.compile(r"\((?P<a>[^()]+?) -(?P<la>\d+), (?P<b>[^()]+?) -(?P<lb>\d+) stamina\)$"), _stamina_lost),
    # a ship fight's opening between craft as fast as each other: not 'faster' at all
    (re.compile(r"(?<=[.!] )(?P<first>[^.!?]+?) is faster and acts first \(a tie goes to the craft that opened "
                r"fire\)\.$"),
     lambda m: f"Both are as fast, and a tie goes to the craft that opened fire: {m['first']} acts first."),
]

_INVENTED_KIND = re.compile(r"^(?P<head>.+ invents .+), a (?P<kind>[^,]+?) of mass (?P<tail>\d+, for .*)$")


def _article(word: str) -> str:
    """'a' or 'an' before ``word`` as it is said ('an EVA pack', 'an RCS', 'a thruster')."""
    first = word.split(" ")[0]
    if first.isupper() and len(first) > 1:  # letters said one by one
        return "an" if first[0] in "AEFHILMNORSX" else "a"
    return "an" if first[:1].lower() in "aeiou" else "a"


def _kind_words(kind: str, kind_names: Iterable[str]) -> str:
    """The kind an invention names (the engine lowers its whole name: 'eva pack') as the rules write it in a
    sentence: 'EVA pack', 'lower stage'."""
    for name in kind_names:
        if name.lower() == kind:
            return in_sentence(name)
    return kind


def plain_story(text: str, kind_names: Iterable[str] = ()) -> str:
    """``text``, an event of What Goes Up's story, in a newcomer's words (see the module's doc); ``kind_names``
    are the rules' component kinds as written (components.yaml's names: 'EVA pack', 'RCS')."""
    text = without_ids(text)
    invented = _INVENTED_KIND.match(text)
    if invented is not None:
        kind = _kind_words(invented["kind"], kind_names)
        text = f"{invented['head']}, {_article(kind)} {kind} of mass {invented['tail']}"
    for pattern, words in _REWORDINGS:
        text = pattern.sub(words, text)
    return text


def first_gist(text: str, winner: bool = False) -> Optional[str]:
    """What a first won is, with its dots ('Mission step: Rock Transit (+1 dot)'; with ``winner``, 'Hop Agency is
    first! Mission step: Rock Transit (+1 dot)', the Field's banner), from a story line in the engine's or in
    plain words; None for any other line."""
    match = _TOLD_FIRST.match(plain_story(text).strip())
    if match is None:
        return None
    robots = ", by an underped craft" if match["robots"] else ""
    gist = f"{match['what']}: {match['detail']}{robots} (+{counted(int(match['dots']), 'dot')})"
    return f"{match['who']} is first! {gist}" if winner else gist


def first_won(text: str) -> str:
    """A first as its winner's own turn report and ending list it: 'Mission step: Rock Transit (+1 dot)' (the card
    is the winner's: its name would say it twice); a line of another shape as ``plain_story`` tells it."""
    return first_gist(text) or plain_story(text)
