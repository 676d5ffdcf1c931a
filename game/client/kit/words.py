"""Counting things in words: "1 dot", "2 dots", never "1 dot(s)" or "1 points".

Every scene that puts a number before a noun calls ``counted`` (from ``game.core.words``, which the rules
engines use too); nouns whose plural is not the singular plus "s" say so once in ``IRREGULAR`` there.
"""
from __future__ import annotations

from game.core.words import IRREGULAR, counted, in_sentence, noun_for, plural  # noqa: F401 - one formula, shared


def signed(count, noun: str, many: str | None = None) -> str:
    """Like ``counted`` with a sign: "+1 dot", "-2 dots"."""
    return f"{count:+d} {noun_for(count, noun, many)}"
