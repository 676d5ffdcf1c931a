"""Counting things in words: "1 dot", "2 dots", never "1 dot(s)" or "1 points".

Pure and shared: the rules engines write their events with ``counted`` and the client's scenes use the same
function (``game.client.kit.words``). Nouns whose plural is not the singular plus "s" say so once in
``IRREGULAR``.
"""
from __future__ import annotations

#: Plurals that are not simply the singular plus "s".
IRREGULAR = {"derp-turn of rations": "derp-turns of rations", "copy": "copies", "nudge's worth": "nudges' worth",
             "safety": "safeties", "luck point": "luck points", "ration container": "ration containers",
             "fuel": "fuel", "mass": "mass"}


def plural(noun: str) -> str:
    """The plural of ``noun`` (``IRREGULAR`` first, then the usual English endings)."""
    if noun in IRREGULAR:
        return IRREGULAR[noun]
    known = _PLURALS.get(noun)
    if known is None:
        if len(_PLURALS) >= 1000:  # a noun may be a player's name: never let the cache grow without end
            _PLURALS.clear()
        known = _PLURALS[noun] = _regular_plural(noun)
    return known


def _regular_plural(noun: str) -> str:
    if noun.endswith(("s", "x", "ch", "sh")):
        return noun + "es"
    if noun.endswith("y") and noun[-2:-1] not in ("a", "e", "i", "o", "u"):
        return noun[:-1] + "ies"
    return noun + "s"


#: Regular plurals already made (the engines write thousands of counted events a game, of a few nouns).
_PLURALS: dict[str, str] = {}


def noun_for(count, noun: str, many: str | None = None) -> str:
    """``noun`` when ``count`` is one (or minus one), otherwise its plural (``many`` if given)."""
    return noun if abs(count) == 1 else (many or plural(noun))


def counted(count, noun: str, many: str | None = None) -> str:
    """``count`` and the noun counted properly: ``counted(1, "dot")`` is "1 dot", ``counted(3, "dot")`` "3 dots"."""
    return f"{count} {noun if abs(count) == 1 else (many or plural(noun))}"


def in_sentence(name: str) -> str:
    """A name as it is said inside a sentence: lower case, but letters said one by one stay capitals ('Lower
    stage' -> 'lower stage', 'RCS' -> 'RCS', 'EVA pack' -> 'EVA pack'): the client's words and the engine's
    default blueprint names ('Carrot EVA pack Mk1')."""
    return " ".join(w if w.isupper() and len(w) > 1 else w.lower() for w in name.split(" "))
