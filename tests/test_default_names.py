"""A blueprint invented without a name gets its program's default: the people's stem, the kind as the rules
write it inside a sentence (letters said one by one stay capitals: 'Hopper RCS Mk1', 'Hopper EVA pack Mk1',
'Hopper lower stage Mk1'), and its mark. Names are told apart whatever their case, as before."""
from __future__ import annotations

import dataclasses

from game.games.whatgoesup.rules.actions import Invent
from game.games.whatgoesup.rules.engine import Engine
from game.games.whatgoesup.rules.state import PlayerSetup, Setup
from game.games.whatgoesup.rules.tables import load_rules
from tests.test_fast_engine import legal_by_generate_and_test

ENGINE = Engine(load_rules())


def _new_game():
    state = ENGINE.new_game(Setup((PlayerSetup("Hop", "rabitians"),), turn_limit=None))
    return dataclasses.replace(state, programs=(dataclasses.replace(state.programs[0], points=200),))


def test_default_names_keep_the_capitals_of_letters_said_one_by_one():
    state = _new_game()
    stem = ENGINE.default_name(state, 0, "lower_stage").split()[0]
    for kind, written in (("rcs", "RCS"), ("eva_pack", "EVA pack"), ("lower_stage", "lower stage")):
        expected = f"{stem} {written} Mk1"
        assert ENGINE.default_name(state, 0, kind) == expected
        state = ENGINE.apply(state, Invent(kind, 1))
        assert state.things[-1].name == expected and state.things[-1].kind == kind
    assert ENGINE.default_name(state, 0, "rcs").endswith(" RCS Mk2")  # the stem turns with the count


def test_a_name_taken_in_other_letters_still_blocks_the_default():
    """A lower stage named 'hopper rcs mk1' (any case) takes the first RCS's default name: inventing an RCS
    under it is refused and not listed, as the listing's lowered names have it."""
    state = _new_game()
    default = ENGINE.default_name(state, 0, "rcs")
    state = ENGINE.apply(state, Invent("lower_stage", 1, name=default.lower()))
    assert "already have a blueprint called" in ENGINE.refusal(state, Invent("rcs", 1))
    assert not any(type(a) is Invent and a.kind == "rcs" for a in ENGINE.legal_actions(state))
    assert ENGINE.legal_actions(state) == legal_by_generate_and_test(ENGINE, state)
