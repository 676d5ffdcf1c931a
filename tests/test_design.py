"""Upgoer design rules: what capsules carry, thruster sizes, lower stages, spacecraft mass and fuel.

Each docstring restates the rule from the 2014 component and fuel sections that the test checks.
"""
from __future__ import annotations

import dataclasses

import pytest

from game.games.whatgoesup.rules.actions import Assemble, BuyConsumables, Build, Disassemble, Hire, Invent
from game.games.whatgoesup.rules.engine import Engine, IllegalAction
from game.games.whatgoesup.rules.state import PlayerSetup, Setup, UpgoerDesign, update, with_program
from game.games.whatgoesup.rules.tables import load_rules

RULES = load_rules()
ENGINE = Engine(RULES)


def new_game(options=()):
    setup = Setup(players=(PlayerSetup("Ayla", "rabitians"), PlayerSetup("Bram", "merbs")), options=frozenset(options))
    state = ENGINE.new_game(setup)
    return with_program(state, update(state.programs[0], points=10_000))


def act(state, *actions):
    for action in actions:
        state = ENGINE.apply(state, action)
    return state


def part(state, kind: str, mass: int, count: int = 1, reusable: bool = False):
    """Invent a thing and build ``count`` copies; returns the item ids."""
    state = act(state, Invent(kind, mass, reusable=reusable, name=f"{kind} {mass}{' R' if reusable else ''} "
                                                                  f"#{len(state.things)}"))
    state = act(state, Build(state.things[-1].id, count))
    return state, [i.id for i in state.items[-count:]]


def crew(state, count: int):
    ids = []
    for _ in range(count):
        state = act(state, Hire())
        ids.append(state.derps[-1].id)
    return state, tuple(ids)


def report(state, design):
    return ENGINE.check_design(state, 0, design)


def capacity_problems(rep):
    return [p for p in rep.problems if "capsules carry" in p]


# ---------------------------------------------------------------- capsules
@pytest.mark.parametrize("capsule_mass, capacity", [(10, 9), (16, 14), (2, 1), (11, 10), (12, 10)])
def test_capsule_carries_its_mass_less_a_tenth(capsule_mass, capacity):
    """A capsule masses what it carries plus a tenth, rounded up (10 carries 9, 16 carries 14): a load of
    exactly its capacity fits and one more does not. (Loads are made of whole ration containers here.)"""
    state = new_game()
    state, (capsule,) = part(state, "capsule", capsule_mass)
    state = act(state, BuyConsumables("rations", capacity + 1))
    fits = UpgoerDesign("Full", modules=(capsule,), rations=2 * capacity)
    over = UpgoerDesign("Over", modules=(capsule,), rations=2 * capacity + 2)
    assert report(state, fits).capacity == capacity
    assert capacity_problems(report(state, fits)) == []
    [problem] = capacity_problems(report(state, over))
    assert f"carry {capacity} but the load is {capacity + 1}" in problem


def test_capsule_of_mass_2_carries_one_derp():
    """A capsule must mass at least 2 to carry anything; at 2 it carries one derp (a derp masses 1)."""
    state = new_game()
    state, (capsule,) = part(state, "capsule", 2)
    state, derps = crew(state, 2)
    assert capacity_problems(report(state, UpgoerDesign("One", modules=(capsule,), crew=derps[:1]))) == []
    [problem] = capacity_problems(report(state, UpgoerDesign("Two", modules=(capsule,), crew=derps)))
    assert "carry 1 but the load is 2" in problem and "crew 2" in problem


def test_rations_mass_half_per_derp_turn():
    """Rations mass 0.5 per derp-turn (a container of mass 1 holds two derp-turns)."""
    state = new_game()
    state, (capsule,) = part(state, "capsule", 4)
    state, derps = crew(state, 1)
    state = act(state, BuyConsumables("rations", 2))
    rep = report(state, UpgoerDesign("Picnic", modules=(capsule,), crew=derps, rations=4))
    assert rep.load == 1 + 2  # one derp + two containers
    assert rep.spacecraft_mass == 4 + 1 + 2
    assert rep.dry_mass == 4 + 1 + 2


def test_payloads_and_rcs_ride_in_the_capsule_at_mass_1():
    """A payload item and an RCS each mass 1 and count against what the capsule carries."""
    state = new_game()
    state, (capsule,) = part(state, "capsule", 3)  # carries 2
    state, (probe,) = part(state, "probe", 1)
    state, (rcs,) = part(state, "rcs", 1)
    state, (mapping,) = part(state, "mapping", 1)
    assert report(state, UpgoerDesign("Two", modules=(capsule, probe, rcs))).load == 2
    assert capacity_problems(report(state, UpgoerDesign("Two", modules=(capsule, probe, rcs)))) == []
    assert capacity_problems(report(state, UpgoerDesign("Three", modules=(capsule, probe, rcs, mapping))))


def test_reusable_capsule_masses_a_fifth_extra_but_carries_by_its_base_mass():
    """A reusable capsule masses a fifth extra: a reusable 10 masses 12 and still carries 9."""
    state = new_game()
    state, (capsule,) = part(state, "capsule", 10, reusable=True)
    rep = report(state, UpgoerDesign("Shuttle", modules=(capsule,)))
    assert rep.capacity == 9
    assert rep.capsule_mass == 12
    assert rep.spacecraft_mass == 12


def test_capsules_and_habitats_add_up():
    """With more than one capsule (a station with a habitat and a capsule) their masses add up."""
    state = new_game()
    state, (capsule,) = part(state, "capsule", 10)
    state, (habitat,) = part(state, "habitat", 10)
    rep = report(state, UpgoerDesign("Station", modules=(capsule, habitat)))
    assert rep.capsule_mass == 20
    assert rep.capacity == 18


def test_capsule_can_fly_empty():
    """A capsule can be sent up partially or completely empty."""
    state = new_game()
    state, (capsule,) = part(state, "capsule", 16)
    state, (stage,) = part(state, "lower_stage", 16)
    rep = report(state, UpgoerDesign("Empty", stages=((stage,),), modules=(capsule,)))
    assert rep.problems == ()
    assert rep.spacecraft_mass == 16


# ---------------------------------------------------------------- thrusters
@pytest.mark.parametrize("capsule_mass, thruster_mass, expected", [
    (10, 1, "orbital"), (10, 4, "orbital"), (10, 5, "lunar"), (10, 9, "lunar"), (10, 10, "planetary"),
    (16, 1, "too_small"), (16, 2, "orbital"), (16, 7, "orbital"), (16, 8, "lunar"), (16, 16, "planetary"),
])
def test_thruster_class_follows_the_capsule_mass(capsule_mass, thruster_mass, expected):
    """A thruster must mass at least a tenth of the capsule it carries; half of it to make a lunar landing;
    as much as it to make a planetary landing."""
    state = new_game()
    state, (capsule,) = part(state, "capsule", capsule_mass)
    state, (thruster,) = part(state, "thruster", thruster_mass)
    assert report(state, UpgoerDesign("T", modules=(capsule, thruster))).thrust_class == expected


def test_too_small_thruster_is_a_problem_that_says_how_big_it_must_be():
    """A thruster lighter than a tenth of the capsules cannot fly; the problem gives the mass needed."""
    state = new_game()
    state, (capsule,) = part(state, "capsule", 16)
    state, (thruster,) = part(state, "thruster", 1)
    rep = report(state, UpgoerDesign("Weak", modules=(capsule, thruster)))
    assert any("thrusters mass 1 but must mass at least 2" in p for p in rep.problems)


def test_thruster_is_sized_for_all_the_capsules_together():
    """With a capsule and a habitat, the thruster is measured against both masses summed: 10 + 10 needs 2."""
    state = new_game()
    state, (capsule,) = part(state, "capsule", 10)
    state, (habitat,) = part(state, "habitat", 10)
    state, (small,) = part(state, "thruster", 1)
    state, (enough,) = part(state, "thruster", 2)
    assert report(state, UpgoerDesign("S", modules=(capsule, habitat, small))).thrust_class == "too_small"
    assert report(state, UpgoerDesign("S", modules=(capsule, habitat, enough))).thrust_class == "orbital"
    state, (lunar,) = part(state, "thruster", 10)
    assert report(state, UpgoerDesign("S", modules=(capsule, habitat, lunar))).thrust_class == "lunar"


def test_reusable_capsule_needs_a_thruster_for_its_full_mass():
    """The thruster is measured against the capsule's mass, a reusable capsule's extra fifth included."""
    state = new_game()
    state, (capsule,) = part(state, "capsule", 10, reusable=True)  # masses 12
    state, (one,) = part(state, "thruster", 1)
    state, (twelve,) = part(state, "thruster", 12)
    assert report(state, UpgoerDesign("R", modules=(capsule, one))).thrust_class == "too_small"
    assert report(state, UpgoerDesign("R", modules=(capsule, twelve))).thrust_class == "planetary"


# ---------------------------------------------------------------- lower stages
def _spacecraft_of_mass_12(state):
    """Capsule 10 + thruster 1 + 1 fuel = 12."""
    state = act(state, BuyConsumables("fuel", 1))
    state, (capsule,) = part(state, "capsule", 10)
    state, (thruster,) = part(state, "thruster", 1)
    return state, (capsule, thruster)


def test_insertion_stage_as_big_as_the_rest_and_launch_stage_twice_that():
    """A lower stage must mass as much as everything it carries: the orbital insertion stage is as big as the
    rest of the Upgoer, and the launch stage twice as big. Three stages of the same type do it: a cluster of
    two at the bottom."""
    state = new_game()
    state, modules = _spacecraft_of_mass_12(state)
    state, stages = part(state, "lower_stage", 12, count=3)
    design = UpgoerDesign("Triple", stages=((stages[0], stages[1]), (stages[2],)), modules=modules, fuel=1)
    rep = report(state, design)
    assert rep.problems == ()
    assert rep.spacecraft_mass == 12
    launch, insertion = rep.stages
    assert (insertion.lift, insertion.carries) == (12, 12)
    assert (launch.lift, launch.carries) == (24, 24)
    assert rep.total_mass == 48


def test_launch_stage_as_big_as_the_insertion_stage_is_too_small():
    """The launch stage carries the insertion stage as well: one stage of mass 12 cannot lift 24."""
    state = new_game()
    state, modules = _spacecraft_of_mass_12(state)
    state, stages = part(state, "lower_stage", 12, count=2)
    design = UpgoerDesign("Short", stages=((stages[0],), (stages[1],)), modules=modules, fuel=1)
    with pytest.raises(IllegalAction, match=r"launch stage can lift 12 but must carry 24"):
        act(state, Assemble(design))


def test_insertion_stage_lighter_than_the_spacecraft_is_too_small():
    """The orbital insertion stage must mass as much as everything above it."""
    state = new_game()
    state, modules = _spacecraft_of_mass_12(state)
    state, (small,) = part(state, "lower_stage", 11)
    state, (big,) = part(state, "lower_stage", 30)
    design = UpgoerDesign("Weak", stages=((big,), (small,)), modules=modules, fuel=1)
    assert any("orbital insertion stage can lift 11 but must carry 12" in p for p in report(state, design).problems)


def test_more_than_two_stage_levels_are_refused():
    """A lower stage is only used for launch and orbital insertion: at most two levels of lower stages."""
    state = new_game()
    state, modules = _spacecraft_of_mass_12(state)
    state, stages = part(state, "lower_stage", 50, count=3)
    design = UpgoerDesign("Tall", stages=tuple((s,) for s in stages), modules=modules, fuel=1)
    assert any("too many stages" in p for p in report(state, design).problems)


def test_simplified_stack_uses_one_lower_stage():
    """OPTIONAL Simplified Stack: only one lower stage, standing for a whole multistage rocket."""
    state = new_game(options=("simplified_stack",))
    state, modules = _spacecraft_of_mass_12(state)
    state, stages = part(state, "lower_stage", 24, count=2)
    one = UpgoerDesign("One", stages=((stages[0],),), modules=modules, fuel=1)
    two = UpgoerDesign("Two", stages=((stages[0],), (stages[1],)), modules=modules, fuel=1)
    assert report(state, one).problems == ()
    assert any("one lower stage" in p for p in report(state, two).problems)


def test_an_upgoer_needs_a_lower_stage():
    """Everything leaves the ground on a lower stage."""
    state = new_game()
    state, (capsule,) = part(state, "capsule", 2)
    with pytest.raises(IllegalAction, match=r"at least one lower stage"):
        act(state, Assemble(UpgoerDesign("Grounded", modules=(capsule,))))


def test_lower_stage_belongs_in_a_stage_not_the_spacecraft():
    """A lower stage is only used for launch and orbital insertion, not as part of the spacecraft."""
    state = new_game()
    state, (capsule,) = part(state, "capsule", 2)
    state, (stage,) = part(state, "lower_stage", 5, count=1)
    state, (other,) = part(state, "lower_stage", 10, count=1)
    rep = report(state, UpgoerDesign("Odd", stages=((other,),), modules=(capsule, stage)))
    assert any("is a lower stage: put it in a stage" in p for p in rep.problems)


# ---------------------------------------------------------------- spacecraft mass and fuel
def _worked_example(state, fuel: int = 18, burns: int = 1):
    """Capsule 4 (carries 3) + thruster 1 + one derp: dry 6; with 18 fuel the spacecraft masses 24."""
    state = act(state, BuyConsumables("fuel", fuel))
    state, (capsule,) = part(state, "capsule", 4)
    state, (thruster,) = part(state, "thruster", 1)
    state, derps = crew(state, 1)
    state, (insertion,) = part(state, "lower_stage", 6 + fuel)
    state, (launch,) = part(state, "lower_stage", 2 * (6 + fuel))
    design = UpgoerDesign("Example", stages=((launch,), (insertion,)), modules=(capsule, thruster), crew=derps,
                          fuel=fuel, planned_burns=burns)
    return state, design


def test_spacecraft_mass_is_capsules_contents_thrusters_and_fuel():
    """At a burn, the spacecraft's mass is its capsule(s), their contents, the thruster(s) and all the fuel;
    the lower stages are not part of it."""
    state, design = _worked_example(new_game())
    rep = report(state, design)
    assert rep.problems == ()
    assert rep.spacecraft_mass == 24
    assert rep.dry_mass == 6
    assert rep.total_mass == 24 + 24 + 48


def test_design_burn_preview_matches_the_worked_example():
    """The rules' example: a spacecraft of mass 24, 18 of it fuel, pays 3 for its burn and has 15 left."""
    state, design = _worked_example(new_game(), burns=1)
    rep = report(state, design)
    assert rep.burn_costs == (3,)
    assert design.fuel - sum(rep.burn_costs) == 15


def test_design_notes_when_fuel_does_not_cover_the_planned_burns():
    """Burns are worked out backwards from the dry mass; the design says when the fuel falls short and how
    much would do."""
    state, design = _worked_example(new_game(), fuel=5, burns=10)
    rep = report(state, design)
    assert rep.burn_costs == (2, 1, 1, 1)
    assert rep.fuel_for_planned_burns == 17  # 23->3, 20->2, 18->2, 16->2, 14->2, 12->2, 10->1, 9->1, 8->1, 7->1
    assert any("5 fuel covers 4 of the 10 planned burns; 17 would cover them all" in n for n in rep.notes)


def test_fuel_and_rations_must_be_in_stock():
    """Fuel and rations loaded on an Upgoer come from the containers bought at home."""
    state, design = _worked_example(new_game())
    state = with_program(state, update(state.programs[0], fuel_stock=10))
    with pytest.raises(IllegalAction, match=r"you have 10 fuel at home, not 18"):
        act(state, Assemble(design))


def test_assembling_loads_fuel_and_taking_apart_returns_it():
    """Fuel goes aboard when the Upgoer is assembled and back to stock if it is taken apart on the pad."""
    state, design = _worked_example(new_game())
    state = act(state, Assemble(design))
    assert state.programs[0].fuel_stock == 0
    upgoer = state.upgoers[-1]
    assert upgoer.fuel == 18 and upgoer.status == "pad"
    state = act(state, Disassemble(upgoer.id))
    assert state.programs[0].fuel_stock == 18
    assert all(state.item(i).location is None for i in design.all_items())


def test_a_part_cannot_go_on_two_upgoers():
    """Each built part is one physical thing: it cannot be in two Upgoers."""
    state, design = _worked_example(new_game())
    state = act(state, BuyConsumables("fuel", 18))
    state = act(state, Assemble(design))
    again = UpgoerDesign("Again", stages=design.stages, modules=design.modules, fuel=18)
    with pytest.raises(IllegalAction, match=r"already part of another Upgoer"):
        act(state, Assemble(again))


def test_crew_and_cargo_need_a_capsule():
    """Crew, payloads and rations ride in a capsule or habitat."""
    state = new_game()
    state, (thruster,) = part(state, "thruster", 1)
    state, (stage,) = part(state, "lower_stage", 5)
    state, derps = crew(state, 1)
    rep = report(state, UpgoerDesign("Bare", stages=((stage,),), modules=(thruster,), crew=derps))
    assert any("must ride in a capsule or habitat" in p for p in rep.problems)


# ---------------------------------------------------------------- suggested designs
def _crewed_stack(insertion: int, launch: int, rations: int = 0):
    """A derp, capsule 10, thruster 1 and 1 fuel (a spacecraft of mass 13 with no rations aboard), ``rations``
    derp-turns of rations at home and two lower stages of the given masses, all in storage."""
    state = act(new_game(), BuyConsumables("fuel", 1))
    if rations:
        state = act(state, BuyConsumables("rations", rations))
    state, (capsule,) = part(state, "capsule", 10)
    state, (thruster,) = part(state, "thruster", 1)
    state, derps = crew(state, 1)
    state, (low,) = part(state, "lower_stage", launch)
    state, (high,) = part(state, "lower_stage", insertion)
    return state, UpgoerDesign("Gumbo 1x", stages=((low,), (high,)), modules=(capsule, thruster), crew=derps, fuel=1,
                               rations=0)


def test_a_crewed_craft_is_suggested_when_its_stages_just_lift_it():
    """The insertion stage lifts the spacecraft's 13 and the launch stage the 26 above it: the crewed craft
    is suggested, and assembling it is legal."""
    state, crewed = _crewed_stack(insertion=13, launch=26)
    suggested = ENGINE.suggested_designs(state, 0)
    assert [d.modules for d in suggested] == [(), crewed.modules]
    assert suggested[1].stages == crewed.stages and suggested[1].crew == crewed.crew and suggested[1].rations == 0
    assert Assemble(suggested[1]) in ENGINE.legal_actions(state)
    assert act(state, Assemble(suggested[1])).upgoers[-1].status == "pad"


def test_the_rations_are_left_home_when_the_stages_lift_the_craft_only_without_them():
    """Two derp-turns of rations mass 1, so the craft masses 14 with them: the insertion stage lifts 13, and the
    craft is suggested without rations."""
    state, crewed = _crewed_stack(insertion=13, launch=27, rations=2)
    assert ENGINE.check_design(state, 0, dataclasses.replace(crewed, rations=2)).problems == (
        "the orbital insertion stage can lift 13 but must carry 14",)
    suggested = ENGINE.suggested_designs(state, 0)
    assert len(suggested) == 2 and suggested[1].rations == 0 and suggested[1].modules == crewed.modules


@pytest.mark.parametrize("insertion, launch, refusal", [
    (12, 40, "the orbital insertion stage can lift 12 but must carry 13"),
    (13, 25, "the launch stage can lift 25 but must carry 26"),
])
def test_a_crewed_craft_its_stages_cannot_lift_is_not_suggested(insertion, launch, refusal):
    """A stage one short of what it carries (even with the rations left home): only the suborbital test is
    suggested, and a player who asks for the crewed craft is told which stage falls short and by how much."""
    state, crewed = _crewed_stack(insertion, launch, rations=2)
    assert [d.modules for d in ENGINE.suggested_designs(state, 0)] == [()]
    with pytest.raises(IllegalAction, match=refusal):
        act(state, Assemble(crewed))
