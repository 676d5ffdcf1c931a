"""Every rewording of ``story_words.plain_story`` still meets the engine's words in seeded play.

``plain_story`` follows the engine's sentences with patterns; several of them are written inline where a flight
happens (consequences.py, hostilities.py, ship_combat.py, rolls.py), not by a sentence maker a test can call. If
the engine's words change, a pattern silently stops matching and the story shows '1/5 -> 2/5' again. So these
games (chosen to meet every pattern: the editions, Space War, underped robots, the raise_safeties house rule of
flight.yaml's skills) must meet each pattern at least once, and no line they tell may read as the engine's
compact words."""
from __future__ import annotations

import dataclasses
import re

from game.client.kit.text import without_ids
from game.client.whatgoesup import story_words
from game.client.whatgoesup.story_words import plain_story
from game.games.whatgoesup.rules.editions import load_edition
from game.games.whatgoesup.rules.engine import Engine
from game.games.whatgoesup.sim import default_setup, play_game

#: What a newcomer could not read: a derp's three skills as numbers, a bare rating or a loss like -2/-0, an arrow.
UNREADABLE = re.compile(r"\(\d+/\d+/\d+\)|\b\d+/\d+\b|->")


def _raise_safeties(rules):
    """``rules`` with flight.yaml's ``skills: raise_safeties`` (a stamina point raises a safety for the roll)."""
    return dataclasses.replace(rules, flight=dataclasses.replace(rules.flight, skills="raise_safeties"))


def _games():
    rules_2014, rules_2013 = load_edition("2014"), load_edition("2013")
    engine_2014, engine_2013 = Engine(rules_2014), Engine(rules_2013)
    raising = Engine(_raise_safeties(rules_2014))
    # (engine, options, bot, seed), 25 turns each
    return [(engine_2014, (), "program", 1), (engine_2014, ("space_war",), "raider", 2),
            (engine_2013, ("underped",), "program", 3), (engine_2013, ("underped", "space_war"), "raider", 2),
            (raising, ("space_war",), "raider", 3)]


def test_every_rewording_meets_the_engines_words_in_seeded_play():
    patterns = [pattern for pattern, _ in story_words._REWORDINGS] + [story_words._INVENTED_KIND]
    met = [0] * len(patterns)
    unreadable: list[str] = []
    kinds: tuple[str, ...] = ()

    def on_action(_state, _action, after) -> None:
        for event in after.events:
            text = without_ids(event.text)
            for n, pattern in enumerate(patterns):
                if pattern.search(text):
                    met[n] += 1
            told = plain_story(event.text, kinds)
            if UNREADABLE.search(told):
                unreadable.append(told)

    for engine, options, bot, seed in _games():
        kinds = tuple(kind.name for kind in engine.rules.components.kinds)
        result = play_game(engine, default_setup(engine, 2, 25, options=options), seed, max_turns=25, check=False,
                           on_action=on_action, bot_kind=bot)
        assert result.failure is None, result.failure
    never = [pattern.pattern for pattern, n in zip(patterns, met) if not n]
    assert not never, f"the engine no longer writes what these patterns follow: {never}"
    assert not unreadable, unreadable[:5]


def test_a_build_is_told_without_the_engines_times_sign():
    """The engine writes 'builds 1 x Burrow Pod (I8) for 3 points.'; the story says 'builds a Burrow Pod'."""
    from game.games.whatgoesup.rules import engine as engine_module

    class Part:  # the engine's sentence maker reads only the ids of the parts built
        def __init__(self, some_id):
            self.id = some_id

    one = engine_module._built("Hop Agency", 1, "Otter Pod", (Part("I8"),), 3)
    two = engine_module._built("Hop Agency", 2, "Burrow stage", (Part("I8"), Part("I9")), 16)
    assert plain_story(one) == "Hop Agency builds an Otter Pod for 3 points."
    assert plain_story(two) == "Hop Agency builds 2 of Burrow stage for 16 points."
