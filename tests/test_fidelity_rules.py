"""Rules-as-written fixes (issue 13), one named scenario each, played through real actions with forced rolls.

Parts rate 15/18 on a d20 unless a test says otherwise: 1-14 OK, 15-17 Fail, 18-20 Boom.
"""
from __future__ import annotations

import dataclasses
from fractions import Fraction

import pytest

from game.games.whatgoesup.rules.actions import Assemble, EndRnD, Roll
from game.games.whatgoesup.rules.engine import CHANCE, Engine
from game.games.whatgoesup.rules.flight_actions import Launch
from game.games.whatgoesup.rules.reliability import Outcome
from game.games.whatgoesup.rules.scenario import give_derp, give_stock, give_thing
from game.games.whatgoesup.rules.state import PlayerSetup, Setup, UpgoerDesign
from game.games.whatgoesup.rules.tables import load_rules

R = load_rules()


def engine_rounding(rounding: str) -> Engine:
    """An engine whose components table rounds a two-stage cluster's average ``rounding``."""
    comps = R.components
    clustering = dataclasses.replace(comps.clustering, average_rounding=rounding)
    return Engine(dataclasses.replace(R, components=dataclasses.replace(comps, clustering=clustering)))


def launch_roll_of_a_two_stage_cluster(engine: Engine):
    """One program assembles a craft whose launch stage is two clustered 15/18 stages and launches it."""
    s = engine.new_game(Setup((PlayerSetup("Hop", "rabitians"), PlayerSetup("Spud", "merbs")), turn_limit=20,
                              dice="d20"))
    s, _, stages = give_thing(s, R, 0, "lower_stage", 60, "15/18", count=3)
    modules = []
    for kind, mass in (("capsule", 14), ("thruster", 4), ("rcs", 1)):
        s, _, it = give_thing(s, R, 0, kind, mass, "15/18", count=1)
        modules.append(it[0])
    s, pilot = give_derp(s, 0, "Ace", 3, 2, 4)
    s = give_stock(s, 0, points=100, fuel=40, rations=40, luck=2)
    design = UpgoerDesign("Twin", stages=((stages[0], stages[1]), (stages[2],)), modules=tuple(modules),
                          crew=(pilot,), fuel=10, rations=6)
    s = engine.apply(s, Assemble(design))
    s = engine.apply(engine.apply(s, EndRnD()), EndRnD())
    launch = next(a for a in engine.legal_actions(s) if isinstance(a, Launch))
    s = engine.apply(s, launch)
    assert engine.current_player(s) == CHANCE and s.flight.roll.kind == "launch"
    assert s.flight.roll.dice_sets == 2
    return s


# ====================================================================== 1. cluster rounding
@pytest.mark.parametrize("rounding, lowest, highest, boom", [
    # rounded up: 1 only from 1+1; 20 from 19+20, 20+19, 20+20; Boom (18+) from any sum of 35 or more
    ("up", Fraction(1, 400), Fraction(3, 400), Fraction(21, 400)),
    # rounded down: 1 from 1+1, 1+2, 2+1; 20 only from 20+20; Boom from any sum of 36 or more
    ("down", Fraction(3, 400), Fraction(1, 400), Fraction(15, 400)),
])
def test_two_clustered_launch_stages_round_their_average_as_the_table_says(rounding, lowest, highest, boom):
    engine = engine_rounding(rounding)
    s = launch_roll_of_a_two_stage_cluster(engine)
    odds = dict((r.value, p) for r, p in engine.chance_outcomes(s))
    assert odds[1] == lowest and odds[20] == highest
    assert engine.flight_rules.roll_odds(s)[Outcome.BOOM] == boom
    # the forced roll is the cluster's combined value, judged against the stages' rating either way
    after = engine.apply(s, Roll(18))
    assert after.flight.roll.value == 18
    assert after.events[-1].text.endswith("rolled 18 against Fail 15 / Boom 18: Boom.")


def test_the_2014_table_rounds_a_two_stage_cluster_up():
    assert R.components.clustering.average_rounding == "up"
    engine = Engine(R)
    s = launch_roll_of_a_two_stage_cluster(engine)
    odds = dict((r.value, p) for r, p in engine.chance_outcomes(s))
    assert odds[1] == Fraction(1, 400) and odds[20] == Fraction(3, 400)


def test_a_cluster_cannot_round_a_way_the_rules_do_not_name():
    from game.games.whatgoesup.rules.dice import cluster_distribution
    with pytest.raises(ValueError, match="only up or down"):
        cluster_distribution(R.dice.scheme("d20").distribution(), 2, 2, "sideways")


# ====================================================================== 2. reusable Upgoer
from tests.test_flight_rules import (E, act, at, auto, firsts, give_thing as _give,  # noqa: E402
                                     new_game, up)
from game.games.whatgoesup.rules.flight_actions import Burn  # noqa: E402


def reusable_craft(s, p, name):
    """Program ``p`` researches a reusable capsule, a thruster strong enough to land it home, RCS and six stages."""
    s, _, stages = _give(s, R, p, "lower_stage", 60, "15/18", count=6)
    s, _, capsule = _give(s, R, p, "capsule", 14, "15/18", count=1, reusable=True)
    s, _, thruster = _give(s, R, p, "thruster", 20, "15/18", count=1)
    s, _, rcs = _give(s, R, p, "rcs", 1, "15/18", count=1)
    s, pilot = give_derp(s, p, f"{name}0", 3, 2, 4)
    s = give_stock(s, p, points=100, fuel=60, rations=40, luck=2)
    return s, stages, (capsule[0], thruster[0], rcs[0]), pilot


def design_on(stages, modules, pilot, name):
    return UpgoerDesign(name, stages=((stages[0], stages[1]), (stages[2],)), modules=modules, crew=(pilot,),
                        fuel=10, rations=6)


def orbit_and_home(s, name):
    """Launch, coast round Low Orbit, burn for reentry at its third step, come down and land (all rolls OK)."""
    s = auto(s, lambda x: at(name, "junction")(x) and up(x, name).location == "low_burn_3")
    s = act(s, Burn("reentry"))
    return auto(s, lambda x: up(x, name).status != "flying")


def test_flying_the_same_reusable_craft_home_twice_wins_the_reusable_upgoer_first():
    s = new_game()
    s, stages, modules, pilot = reusable_craft(s, 0, "Re")
    first = design_on(stages[:3], modules, pilot, "Re")
    assert E.check_design(s, 0, first).valid
    s = act(act(act(s, Assemble(first)), EndRnD()), EndRnD())
    s = orbit_and_home(s, "Re")
    assert up(s, "Re").status == "landed"
    assert "first_reusable_upgoer" not in firsts(s)  # the first flight of a reusable craft wins nothing yet
    assert [s.item(m).reentries for m in modules[:2]] == [1, 1]
    s = auto(s, lambda x: x.phase == "rnd" and E.current_player(x) == 0)
    # The same capsule, thruster and RCS fly again on new lower stages: a new Upgoer, the same vessel.
    second = design_on(stages[3:], modules, pilot, "Re II")
    check = E.check_design(s, 0, second)
    assert check.valid, check.problems
    s = act(act(act(s, Assemble(second)), EndRnD()), EndRnD())
    s = orbit_and_home(s, "Re II")
    assert firsts(s)["first_reusable_upgoer"] == 0 and firsts(s)["first_reusable_capsule"] == 0
    report = next(e.text for e in reversed(s.events) if e.text.startswith("End of turn") and ", Hop:" in e.text)
    assert "Prestige First - reusable capsule +1" in report and "Prestige First - reusable Upgoer +2" in report


# ====================================================================== 3. docked craft at a duration step
from tests.test_flight_rules import CHANCE as _CHANCE, OK, in_rnd, pair_in_orbit, roll, uid  # noqa: E402
from game.games.whatgoesup.rules.flight_actions import Coast, Dock, EndActivities, Move, Transfer  # noqa: E402


def docked_pair_next_turn():
    """A and B dock at the first Low Orbit step on turn 1 (B docks); turn 2 begins with A to move first."""
    s, _, (crew_b, _) = pair_in_orbit()
    s = roll(act(s, Dock(uid(s, "A"), crew_b[0])), OK)
    assert up(s, "A").docked_with == (uid(s, "B"),)
    s = auto(s, in_rnd(2))
    s = act(act(s, EndRnD()), EndRnD())
    assert at("A", "before")(s)
    return s


def move_docked(s, name, value=OK):
    """``name`` moves (coasting past junctions); every roll on the way gets ``value``; returns (state, rolls)."""
    s = act(s, Move(uid(s, name)))
    rolled = []
    while True:
        if E.current_player(s) == _CHANCE:
            rolled.append((s.flight.roll.kind, s.upgoer(s.flight.roll.upgoer).name))
            s = roll(s, value)
        elif s.flight.mode == "junction":
            s = act(s, Coast())
        else:
            return s, rolled


def test_a_docked_partner_carried_to_a_duration_step_rolls_its_capsule_too():
    s, rolled = move_docked(docked_pair_next_turn(), "A")
    assert up(s, "A").location == up(s, "B").location == "low_2"
    assert rolled == [("duration_capsule", "A"), ("duration_capsule", "B")]


def test_a_docked_partner_takes_its_activities_after_the_mover():
    s, _ = move_docked(docked_pair_next_turn(), "A")
    assert at("A", "after")(s)
    s = act(s, EndActivities(uid(s, "A")))
    assert at("B", "after")(s)
    before = up(s, "A").rations, up(s, "B").rations
    s = act(s, Transfer(uid(s, "B"), uid(s, "A"), rations=2))
    assert (up(s, "A").rations, up(s, "B").rations) == (before[0] + 2, before[1] - 2)
    s = act(s, EndActivities(uid(s, "B")))
    assert s.phase == "rnd" and s.turn == 3  # both have had their turn; nobody else is flying



# ====================================================================== 4. timing order by the rolling parts
from tests.test_flight_rules import kit, start  # noqa: E402


def single_stage_craft(s, p, name, rating):
    """Program ``p``'s craft launched and inserted by one ``rating`` stage each (no cluster)."""
    s, _, launch = give_thing(s, R, p, "lower_stage", 120, rating, count=1)
    s, _, insertion = give_thing(s, R, p, "lower_stage", 60, rating, count=1)
    modules = []
    for kind, mass in (("capsule", 14), ("thruster", 4), ("rcs", 1)):
        s, _, it = give_thing(s, R, p, kind, mass, rating, count=1)
        modules.append(it[0])
    s, pilot = give_derp(s, p, f"{name}0", 3, 2, 4)
    s = give_stock(s, p, points=100, fuel=40, rations=40, luck=2)
    design = UpgoerDesign(name, stages=((launch[0],), (insertion[0],)), modules=tuple(modules), crew=(pilot,), fuel=10,
                          rations=6)
    check = E.check_design(s, p, design)
    assert check.valid, check.problems
    return s, design


def test_a_cluster_of_two_weaker_stages_launches_after_one_better_stage():
    s = new_game()
    s, cluster, _, _ = kit(s, 0, "Twin")  # two clustered 15/18 stages: they roll as one 15/18 (33)
    s, single = single_stage_craft(s, 1, "Solo", "16/19")  # one 16/19 stage (35)
    s = start(s, [cluster], [single])
    assert at("Solo", "decide")(s)


def test_a_craft_with_two_capsules_moves_after_one_with_a_better_capsule():
    s = new_game()
    s, two, _, _ = kit(s, 0, "Pair", mods=("capsule", "capsule", "thruster", "rcs"), rating="15/18")
    s, one = single_stage_craft(s, 1, "Solo", "16/19")
    s = start(s, [two], [one])
    s = auto(s, lambda x: x.flight is not None and x.flight.stage == "moves" and x.flight.active is not None)
    assert at("Solo", "before")(s)  # the capsules roll one by one; two 15/18 are no safer than one
