"""Named R&D rule scenarios: one test per sentence of the 2014 rules worth checking.

Each docstring restates, in our own words, the rule the test checks. Refusals are checked for a
reason that tells the player what they need to know. States are reached through the engine's own
actions; where a test needs something only a flight could cause (a thing that has flown, an injured
derp), it edits the plain state data directly and says so.
"""
from __future__ import annotations

import copy
import dataclasses
import pickle
import random

import pytest

from game.games.whatgoesup.rules.actions import (AnswerTrade, Assemble, Build, BuyConsumables, Disassemble, EndRnD,
                                                  Heal, Hire, Invent, OfferTrade, Research, ReverseEngineer, Roll,
                                                  Train)
from game.games.whatgoesup.rules.engine import TERMINAL, Engine, IllegalAction
from game.games.whatgoesup.rules.reliability import Rating
from game.games.whatgoesup.rules.state import (HOME, Event, PlayerSetup, Setup, TradeBundle, UpgoerDesign, replace_in,
                                                update, with_program)
from game.games.whatgoesup.rules.tables import load_rules

RULES = load_rules()
ENGINE = Engine(RULES)
PEOPLE = ("rabitians", "merbs", "goblins")
NAMES = ("Ayla", "Bram", "Cleo")


# ---------------------------------------------------------------- helpers
def new_game(players: int = 2, options=(), turn_limit=20):
    setup = Setup(players=tuple(PlayerSetup(NAMES[i], PEOPLE[i]) for i in range(players)),
                  options=frozenset(options), turn_limit=turn_limit)
    return ENGINE.new_game(setup)


def act(state, *actions):
    for action in actions:
        state = ENGINE.apply(state, action)
    return state


def with_points(state, program: int, points: int):
    return with_program(state, update(state.programs[program], points=points))


def invent(state, kind: str, mass: int, reusable: bool = False, name: str = ""):
    state = act(state, Invent(kind, mass, name=name, reusable=reusable))
    return state, state.things[-1].id


def build(state, thing_id: str, count: int = 1):
    state = act(state, Build(thing_id, count))
    return state, [i.id for i in state.items[-count:]]


def hire(state, name: str = ""):
    state = act(state, Hire(name))
    return state, state.derps[-1].id


def edit_thing(state, thing_id: str, **changes):
    """Stand-in for what only a flight can do (mark a thing flown, set a rating reached over many turns)."""
    return dataclasses.replace(state, things=replace_in(state.things, [update(state.thing(thing_id), **changes)]))


def edit_derp(state, derp_id: str, **changes):
    return dataclasses.replace(state, derps=replace_in(state.derps, [update(state.derp(derp_id), **changes)]))


def finish_turn(state):
    """Every program ends R&D; returns the state at the start of the next turn."""
    turn = state.turn
    while state.turn == turn and ENGINE.current_player(state) != TERMINAL:
        state = act(state, EndRnD())
    assert state.turn == turn + 1 and state.phase == "rnd"
    return state


def points(state, program: int = 0) -> int:
    return state.programs[program].points


def rich_game(players: int = 2, options=(), amount: int = 1000):
    state = new_game(players, options)
    for p in range(players):
        state = with_points(state, p, amount)
    return state


def crew_design(state, derp_id: str, name: str = "Hopper"):
    """A valid little Upgoer for one derp: capsule of mass 2 (carries 1) on a lower stage of mass 3."""
    state, capsule = invent(state, "capsule", 2)
    state, stage = invent(state, "lower_stage", 3)
    state, (c,) = build(state, capsule)
    state, (s,) = build(state, stage)
    return state, UpgoerDesign(name=name, stages=((s,),), modules=(c,), crew=(derp_id,))


# ---------------------------------------------------------------- budget and turn start
def test_every_program_starts_with_40_dots_and_spends_40_points():
    """At the start of the game everyone has 40 dots, and gets as many points as dots for the first R&D turn."""
    state = new_game(3)
    assert [p.dots for p in state.programs] == [40, 40, 40]
    assert [p.points for p in state.programs] == [40, 40, 40]


def test_start_of_turn_adds_points_equal_to_dots_and_saves_unspent_points():
    """At the start of each R&D turn a program gets as many points as it has dots; points not spent are kept."""
    state = new_game(2)
    state, _ = invent(state, "capsule", 3)  # 9 points spent, 31 saved
    state = finish_turn(state)
    assert points(state, 0) == 31 + 40
    assert points(state, 1) == 40 + 40


def test_budget_cannot_rise_above_70_dots():
    """The budget cannot be higher than 70 dots: gains beyond that are lost at the end of the turn."""
    state = new_game(2)
    state = ENGINE.add_dots(state, 0, 45, "a splendid flight")
    state = finish_turn(state)
    assert state.programs[0].dots == 70
    assert points(state, 0) == 40 + 70


def test_budget_cannot_fall_below_30_dots():
    """The budget cannot be lower than 30 dots: losses beyond that are forgiven at the end of the turn."""
    state = new_game(2)
    state = ENGINE.add_dots(state, 0, -25, "lost five derps")
    state = finish_turn(state)
    assert state.programs[0].dots == 30
    assert points(state, 0) == 40 + 30


def test_budget_changes_within_30_to_70_apply_as_they_are():
    """Dots won or lost inside the 30..70 range are applied as they are, and set next turn's points."""
    state = new_game(2)
    state = ENGINE.add_dots(state, 1, 3, "new step")
    state = ENGINE.add_dots(state, 1, -5, "lost a derp")
    state = finish_turn(state)
    assert state.programs[1].dots == 38
    assert points(state, 1) == 40 + 38


def test_dots_can_be_traded_only_above_the_budget_floor():
    """Dots can be traded, but never below the 30-dot floor (the end-of-turn clamp would mint them back);
    the receiver's budget is clamped to 70 at the end of the turn as usual."""
    state = new_game(2)
    with pytest.raises(IllegalAction, match="never drops below 30, so at most 10 can be traded"):
        ENGINE.apply(state, OfferTrade(1, give=TradeBundle(dots=15)))
    state = act(state, OfferTrade(1, give=TradeBundle(dots=10)), AnswerTrade(True))
    assert state.programs[0].dots == 30 and state.programs[1].dots == 50
    state = finish_turn(state)
    assert state.programs[0].dots == 30 and state.programs[1].dots == 50


# ---------------------------------------------------------------- inventing
def test_invent_costs_3_points_per_mass():
    """Inventing a new thing costs 3 points per mass."""
    state = new_game()
    state, _ = invent(state, "capsule", 10)
    assert points(state) == 40 - 30


def test_invented_thing_starts_at_1_5():
    """A newly invented thing starts at 1/5."""
    state = new_game()
    state, thing = invent(state, "lower_stage", 4)
    assert state.thing(thing).rating == Rating(1, 5)


def test_invent_refused_without_enough_points():
    """Points must be there to spend: a mass-14 thing costs 42 and a program with 40 cannot invent it."""
    state = new_game()
    with pytest.raises(IllegalAction, match=r"costs 42 points and you have 40"):
        act(state, Invent("lower_stage", 14))


def test_reusable_thing_costs_its_fifth_extra_mass():
    """A reusable capsule masses a fifth extra, and its invention cost follows its mass (10 -> 12 -> 36 points)."""
    state = new_game()
    state, thing = invent(state, "capsule", 10, reusable=True)
    assert state.thing(thing).mass == 12
    assert points(state) == 40 - 36


def test_lower_stage_can_be_reusable():
    """A lower stage can be made reusable, massing a fifth extra."""
    state = rich_game()
    state, thing = invent(state, "lower_stage", 20, reusable=True)
    assert state.thing(thing).mass == 24


@pytest.mark.parametrize("kind", ["habitat", "thruster"])
def test_only_capsules_and_lower_stages_can_be_reusable(kind):
    """A capsule (not a habitat) or a lower stage can be made reusable; asking for other kinds is refused."""
    state = new_game()
    with pytest.raises(IllegalAction, match=r"cannot be made reusable"):
        act(state, Invent(kind, 4, reusable=True))


def test_payloads_all_mass_1():
    """Payloads all have a mass of 1: a payload of any other mass cannot be invented."""
    state = new_game()
    with pytest.raises(IllegalAction, match=r"always masses 1"):
        act(state, Invent("mapping", 2))
    state, thing = invent(state, "mapping", 1)
    assert state.thing(thing).mass == 1 and points(state) == 37


def test_rcs_masses_1():
    """An RCS always masses 1."""
    state = new_game()
    with pytest.raises(IllegalAction, match=r"always masses 1"):
        act(state, Invent("rcs", 3))


@pytest.mark.parametrize("kind", ["fuel", "rations"])
def test_consumables_are_bought_not_invented(kind):
    """Fuel and rations are consumables: they are bought by the container, not invented."""
    state = new_game()
    with pytest.raises(IllegalAction, match=r"bought, not invented"):
        act(state, Invent(kind, 1))


def test_capsule_lighter_than_2_is_refused_because_it_carries_nothing():
    """A capsule must mass at least 2 to carry anything (the engine refuses to invent a lighter one)."""
    state = new_game()
    with pytest.raises(IllegalAction, match=r"at least 2"):
        act(state, Invent("capsule", 1))


def test_unknown_kind_refused_with_the_kinds_that_exist():
    """Only the kinds of things in the rules can be invented; the refusal lists them."""
    state = new_game()
    with pytest.raises(IllegalAction, match=r"no kind of thing called 'rocket'.*lower_stage.*capsule"):
        act(state, Invent("rocket", 3))


# ---------------------------------------------------------------- technology transfer
def _flown_thing(kind: str, mass: int, rating: Rating, successfully: bool = True):
    state = rich_game()
    state, old = invent(state, kind, mass, name=f"Old {kind}")
    return edit_thing(state, old, rating=rating, flown=True, flown_successfully=successfully), old


def test_technology_transfer_starts_at_5_10_from_a_better_flown_thing():
    """A similar thing of at least half the mass that has flown successfully gives a new thing the older
    thing's rating or 5/10, whichever is worse: from 12/16 the new one starts at 5/10."""
    state, _ = _flown_thing("capsule", 10, Rating(12, 16))
    state, new = invent(state, "capsule", 20)
    assert state.thing(new).rating == Rating(5, 10)


def test_technology_transfer_starts_at_the_older_rating_when_that_is_worse():
    """...whichever is worse: from a flown 3/8 thing the new one starts at 3/8."""
    state, _ = _flown_thing("capsule", 10, Rating(3, 8))
    state, new = invent(state, "capsule", 12)
    assert state.thing(new).rating == Rating(3, 8)


def test_technology_transfer_needs_a_successful_flight():
    """The older thing must have flown successfully: flown but never worked, it transfers nothing."""
    state, _ = _flown_thing("capsule", 10, Rating(12, 16), successfully=False)
    state, new = invent(state, "capsule", 10)
    assert state.thing(new).rating == Rating(1, 5)


def test_technology_transfer_needs_the_older_thing_to_have_flown():
    """A thing that was only invented, never flown, transfers nothing."""
    state = rich_game()
    state, old = invent(state, "capsule", 10)
    state = edit_thing(state, old, rating=Rating(9, 14))
    state, new = invent(state, "capsule", 10)
    assert state.thing(new).rating == Rating(1, 5)


def test_technology_transfer_needs_at_least_half_the_mass():
    """The older thing must have half the new thing's mass or more: 10 transfers to 20, 9 does not."""
    state, _ = _flown_thing("lower_stage", 10, Rating(12, 16))
    state, twenty = invent(state, "lower_stage", 20)
    state, twenty_one = invent(state, "lower_stage", 21)
    assert state.thing(twenty).rating == Rating(5, 10)
    assert state.thing(twenty_one).rating == Rating(1, 5)


def test_technology_transfer_needs_a_similar_thing():
    """Only a similar thing transfers: a flown thruster does nothing for a new capsule."""
    state, _ = _flown_thing("thruster", 10, Rating(12, 16))
    state, new = invent(state, "capsule", 10)
    assert state.thing(new).rating == Rating(1, 5)


def test_habitat_benefits_from_technology_transfer_from_capsules():
    """A habitat works like a capsule for research and benefits from technology transfer from capsules."""
    state, _ = _flown_thing("capsule", 10, Rating(12, 16))
    state, new = invent(state, "habitat", 15)
    assert state.thing(new).rating == Rating(5, 10)


# ---------------------------------------------------------------- research
def test_research_costs_1_point_per_mass_per_step():
    """Research costs 1 point per mass for each step."""
    state = new_game()
    state, thing = invent(state, "thruster", 4)  # 12 points
    state = act(state, Research(thing, "fail", 3))
    assert points(state) == 40 - 12 - 12
    assert state.thing(thing).rating == Rating(4, 5)


def test_research_cost_follows_the_reusable_mass():
    """A reusable thing's research is paid on its full mass, the extra fifth included."""
    state = rich_game()
    state, thing = invent(state, "capsule", 10, reusable=True)
    before = points(state)
    state = act(state, Research(thing, "boom", 2))
    assert before - points(state) == 24


def test_research_moves_boom_to_fail_or_fail_to_ok():
    """One research step moves the Boom safety up by one (Boom to Fail) or the Fail safety up by one (Fail to OK)."""
    state = rich_game()
    state, thing = invent(state, "capsule", 5)
    state = act(state, Research(thing, "boom", 1))
    assert state.thing(thing).rating == Rating(1, 6)
    state = act(state, Research(thing, "fail", 1))
    assert state.thing(thing).rating == Rating(2, 6)


def test_research_fail_safety_must_stay_below_boom_safety():
    """The Fail safety can never reach the Boom safety: a 4/5 thing needs Boom research first."""
    state = rich_game()
    state, thing = invent(state, "capsule", 5)
    state = act(state, Research(thing, "fail", 3))
    with pytest.raises(IllegalAction, match=r"4/5.*Boom to Fail first"):
        act(state, Research(thing, "fail", 1))


def test_research_at_most_5_fail_steps_per_thing_per_turn():
    """At most 5 Fail steps per thing per turn, however they are split."""
    state = rich_game()
    state, thing = invent(state, "capsule", 5)
    state = act(state, Research(thing, "boom", 5), Research(thing, "fail", 3), Research(thing, "fail", 2))
    assert state.thing(thing).rating == Rating(6, 10)
    with pytest.raises(IllegalAction, match=r"at most 5 Fail steps per turn \(5 done"):
        act(state, Research(thing, "fail", 1))


def test_research_at_most_5_boom_steps_per_thing_per_turn():
    """At most 5 Boom steps per thing per turn."""
    state = rich_game()
    state, thing = invent(state, "capsule", 5)
    state = act(state, Research(thing, "boom", 4))
    with pytest.raises(IllegalAction, match=r"at most 5 Boom steps per turn \(4 done"):
        act(state, Research(thing, "boom", 2))


def test_research_limit_is_per_thing():
    """The 5 and 5 limit counts per thing: another thing can still be researched the same turn."""
    state = rich_game()
    state, first = invent(state, "capsule", 5)
    state, second = invent(state, "capsule", 6)
    state = act(state, Research(first, "boom", 5), Research(second, "boom", 5))
    assert state.thing(second).rating == Rating(1, 10)


def test_research_limit_resets_next_turn():
    """The limit is per turn: next turn another 5 and 5 steps are allowed."""
    state = rich_game()
    state, thing = invent(state, "capsule", 2)
    state = act(state, Research(thing, "boom", 5), Research(thing, "fail", 5))
    state = finish_turn(state)
    state = act(state, Research(thing, "boom", 5))
    assert state.thing(thing).rating == Rating(6, 15)


def test_never_flown_thing_cannot_get_better_than_10_15():
    """Other than a payload, a thing that has never flown cannot get better than 10/15."""
    state = rich_game()
    state, thing = invent(state, "capsule", 4)
    state = edit_thing(state, thing, rating=Rating(9, 14))
    state = act(state, Research(thing, "fail", 1), Research(thing, "boom", 1))
    assert state.thing(thing).rating == Rating(10, 15)
    with pytest.raises(IllegalAction, match=r"10/15.*until it has flown"):
        act(state, Research(thing, "fail", 1))
    with pytest.raises(IllegalAction, match=r"10/15.*until it has flown"):
        act(state, Research(thing, "boom", 1))


def test_flown_but_never_successfully_cannot_get_better_than_15_18():
    """Other than a payload, a thing that has never flown successfully cannot get better than 15/18."""
    state = rich_game()
    state, thing = invent(state, "lower_stage", 4)
    state = edit_thing(state, thing, rating=Rating(13, 16), flown=True)
    state = act(state, Research(thing, "fail", 2), Research(thing, "boom", 2))
    assert state.thing(thing).rating == Rating(15, 18)
    with pytest.raises(IllegalAction, match=r"15/18.*until it has flown successfully"):
        act(state, Research(thing, "fail", 1))
    with pytest.raises(IllegalAction, match=r"15/18.*until it has flown successfully"):
        act(state, Research(thing, "boom", 1))


def test_flown_successfully_thing_reaches_19_20_and_no_further():
    """A thing can never get better than 19/20, even once it has flown successfully."""
    state = rich_game()
    state, thing = invent(state, "thruster", 4)
    state = edit_thing(state, thing, rating=Rating(17, 18), flown=True, flown_successfully=True)
    state = act(state, Research(thing, "boom", 2), Research(thing, "fail", 2))
    assert state.thing(thing).rating == Rating(19, 20)
    with pytest.raises(IllegalAction, match=r"19/20"):
        act(state, Research(thing, "boom", 1))


def test_payloads_are_exempt_from_the_flight_caps():
    """The caps for never-flown things do not apply to payloads: a never-flown payload can reach 19/20."""
    state = rich_game()
    state, thing = invent(state, "mapping", 1)
    state = edit_thing(state, thing, rating=Rating(15, 17))
    state = act(state, Research(thing, "boom", 3), Research(thing, "fail", 4))
    assert state.thing(thing).rating == Rating(19, 20)
    with pytest.raises(IllegalAction, match=r"19/20"):
        act(state, Research(thing, "boom", 1))


def test_simulationist_option_lifts_the_flight_caps():
    """OPTIONAL Simulationist: research alone can take a never-flown thing to 19/20."""
    state = rich_game(options=("simulationist",))
    state, thing = invent(state, "capsule", 4)
    state = edit_thing(state, thing, rating=Rating(15, 17))
    state = act(state, Research(thing, "boom", 3), Research(thing, "fail", 4))
    assert state.thing(thing).rating == Rating(19, 20)
    with pytest.raises(IllegalAction, match=r"19/20"):
        act(state, Research(thing, "boom", 1))


def test_without_simulationist_the_same_research_is_capped():
    """Without the option, the same never-flown capsule stops at 10/15."""
    state = rich_game()
    state, thing = invent(state, "capsule", 4)
    state = edit_thing(state, thing, rating=Rating(10, 15))
    assert ENGINE.refusal(state, Research(thing, "boom", 1)) is not None


def test_research_refused_without_enough_points():
    """Research must be paid for: 3 steps of a mass-10 thing cost 30."""
    state = new_game()
    state, thing = invent(state, "capsule", 10)  # 10 points left
    with pytest.raises(IllegalAction, match=r"costs 30 points and you have 10"):
        act(state, Research(thing, "boom", 3))


def test_research_only_on_your_own_blueprints():
    """A program researches the things it holds the blueprint of."""
    state = new_game()
    state, thing = invent(state, "capsule", 3)
    state = act(state, EndRnD())  # now program 2 acts
    with pytest.raises(IllegalAction, match=r"no blueprint called " + thing):
        act(state, Research(thing, "boom", 1))


# ---------------------------------------------------------------- building
def test_build_costs_1_point_per_mass():
    """Building a copy of an invented thing costs 1 point per mass."""
    state = rich_game()
    state, thing = invent(state, "capsule", 10, reusable=True)
    before = points(state)
    state, items = build(state, thing, 2)
    assert before - points(state) == 2 * 12
    assert len(items) == 2


def test_built_copy_has_the_current_rating():
    """A built thing comes at its current reliability rating."""
    state = rich_game()
    state, thing = invent(state, "thruster", 3)
    state = act(state, Research(thing, "boom", 2))
    state, (item,) = build(state, thing)
    assert ENGINE.item_rating(state, state.item(item)) == Rating(1, 7)


def test_research_improves_every_copy_that_has_not_launched():
    """Research makes all copies of a thing better, whenever they were built, including one assembled on the
    pad (assembled is not launched)."""
    state = rich_game()
    state, derp = hire(state)
    state, design = crew_design(state, derp)
    state = act(state, Assemble(design))
    capsule_item = design.modules[0]
    capsule = state.item(capsule_item).thing_id
    state, (spare,) = build(state, capsule)
    state = act(state, Research(capsule, "boom", 3))
    assert ENGINE.item_rating(state, state.item(capsule_item)) == Rating(1, 8)
    assert ENGINE.item_rating(state, state.item(spare)) == Rating(1, 8)


def test_research_does_not_improve_a_launched_copy():
    """Research does not improve things that have already been launched. A launch records the copy's own
    rating (Item.fixed_rating); we set that here as the flight rules would."""
    state = rich_game()
    state, derp = hire(state)
    state, design = crew_design(state, derp)
    state = act(state, Assemble(design))
    capsule_item = design.modules[0]
    capsule = state.item(capsule_item).thing_id
    launched = update(state.item(capsule_item), fixed_rating=ENGINE.item_rating(state, state.item(capsule_item)))
    upgoer = update(state.upgoers[-1], status="flying", location="low_orbit")
    state = dataclasses.replace(state, items=replace_in(state.items, [launched]),
                                upgoers=replace_in(state.upgoers, [upgoer]))
    state = act(state, Research(capsule, "boom", 3))
    assert state.thing(capsule).rating == Rating(1, 8)
    assert ENGINE.item_rating(state, state.item(capsule_item)) == Rating(1, 5)


def test_research_does_not_improve_a_copy_traded_away():
    """A copy that has left its inventor's hands keeps the rating it had; later research by either side does
    not reach it."""
    state = rich_game()
    state, thing = invent(state, "capsule", 4)
    state, (item,) = build(state, thing)
    state = act(state, OfferTrade(1, give=TradeBundle(items=(item,)), take=TradeBundle(points=1)), AnswerTrade(True))
    assert state.item(item).owner == 1
    state = act(state, Research(thing, "boom", 4))
    assert state.thing(thing).rating == Rating(1, 9)
    assert ENGINE.item_rating(state, state.item(item)) == Rating(1, 5)


def test_build_refused_without_enough_points():
    """Building must be paid for."""
    state = new_game()
    state, thing = invent(state, "capsule", 10)  # 10 points left
    with pytest.raises(IllegalAction, match=r"costs 20 points and you have 10"):
        act(state, Build(thing, 2))


# ---------------------------------------------------------------- consumables
def test_ration_container_costs_1_point_and_feeds_2_derp_turns():
    """A ration container (mass 1) sustains one derp for two turns or two derps for one turn."""
    state = new_game()
    state = act(state, BuyConsumables("rations", 3))
    assert points(state) == 37
    assert state.programs[0].rations_stock == 6


def test_fuel_container_costs_1_point_and_holds_1_fuel():
    """A fuel container masses 1 (one point of fuel) and costs 1 point."""
    state = new_game()
    state = act(state, BuyConsumables("fuel", 5))
    assert points(state) == 35
    assert state.programs[0].fuel_stock == 5


# ---------------------------------------------------------------- derps
def test_hire_costs_1_point_and_derp_starts_0_0_2():
    """Hiring a derp costs 1 point; derps start at 0 piloting, 0 engineering, 2 stamina."""
    state = new_game()
    state, derp = hire(state, "Pip")
    d = state.derp(derp)
    assert points(state) == 39
    assert (d.piloting, d.engineering, d.stamina, d.current_stamina) == (0, 0, 2, 2)
    assert d.name == "Pip" and not d.injured


def test_derp_in_boot_camp_can_go_to_space_today():
    """A derp hired this turn CAN fly this turn."""
    state = rich_game()
    state, derp = hire(state)
    state, design = crew_design(state, derp)
    assert ENGINE.check_design(state, 0, design).problems == ()
    state = act(state, Assemble(design))
    assert state.derp(derp).location == state.upgoers[-1].id


def test_train_costs_1_point_per_point():
    """Training a derp costs 1 point per skill point."""
    state = new_game()
    state, derp = hire(state)
    state = act(state, Train(derp, "piloting", 2))
    assert points(state) == 40 - 1 - 2
    assert state.derp(derp).piloting == 2


def test_training_stamina_raises_current_stamina_too():
    """Stamina trained at home is there to use."""
    state = new_game()
    state, derp = hire(state)
    state = act(state, Train(derp, "stamina", 1))
    assert state.derp(derp).stamina == 3 and state.derp(derp).current_stamina == 3


def test_only_one_skill_type_trained_per_turn():
    """Only one skill type can be trained per turn."""
    state = new_game()
    state, derp = hire(state)
    state = act(state, Train(derp, "piloting", 1), Train(derp, "piloting", 1))
    with pytest.raises(IllegalAction, match=r"only one skill can be trained per turn"):
        act(state, Train(derp, "engineering", 1))


def test_another_skill_can_be_trained_next_turn():
    """The one-skill limit is per turn: next turn another skill may be trained."""
    state = new_game()
    state, derp = hire(state)
    state = act(state, Train(derp, "piloting", 1))
    state = finish_turn(state)
    state = act(state, Train(derp, "engineering", 1))
    assert (state.derp(derp).piloting, state.derp(derp).engineering) == (1, 1)


def test_derp_cannot_have_more_than_9_points():
    """A derp cannot have more than 9 points in piloting, engineering and stamina together."""
    state = new_game()
    state, derp = hire(state)
    state = act(state, Train(derp, "piloting", 7))
    assert state.derp(derp).total_points == 9
    state = finish_turn(state)
    with pytest.raises(IllegalAction, match=r"at most 9"):
        act(state, Train(derp, "engineering", 1))


def test_derp_in_training_cannot_go_to_space_today():
    """A derp in training cannot fly this turn: an Upgoer with them aboard is refused, saying why."""
    state = rich_game()
    state, derp = hire(state, "Pip")
    state = act(state, Train(derp, "piloting", 1))
    state, design = crew_design(state, derp)
    with pytest.raises(IllegalAction, match=r"Pip is training this turn and cannot fly"):
        act(state, Assemble(design))


def test_trained_derp_can_fly_next_turn():
    """Training keeps a derp home only for the turn of training."""
    state = rich_game()
    state, derp = hire(state)
    state = act(state, Train(derp, "piloting", 1))
    state = finish_turn(state)
    state, design = crew_design(state, derp)
    assert ENGINE.check_design(state, 0, design).problems == ()


def test_derp_aboard_an_upgoer_on_the_pad_is_told_why_it_cannot_train():
    """A derp in training cannot fly today, so a derp already crewing an Upgoer on the pad cannot start
    training; the reason must say where the derp really is (aboard the Upgoer on the pad, not in space)."""
    state = rich_game()
    state, derp = hire(state, "Pip")
    state, design = crew_design(state, derp, name="Hopper")
    state = act(state, Assemble(design))
    with pytest.raises(IllegalAction, match=r"(?i)Hopper|aboard|on the pad"):
        act(state, Train(derp, "piloting", 1))


def _injured_derp(state, name="Pip"):
    state, derp = hire(state, name)
    state = act(state, Train(derp, "piloting", 2))
    state = finish_turn(state)
    # Only a flight injures a derp; mark the injury directly.
    return edit_derp(state, derp, stamina=4, current_stamina=0, injured=True), derp


def test_heal_costs_1_point_and_derp_is_back_at_2_stamina():
    """Healing an injured derp costs 1 point; the derp is back at 2 stamina (and must retrain the rest)."""
    state = new_game()
    state, derp = _injured_derp(state)
    before = points(state)
    state = act(state, Heal(derp))
    d = state.derp(derp)
    assert before - points(state) == 1
    assert not d.injured
    assert (d.stamina, d.current_stamina, d.piloting) == (2, 2, 2)


def test_derp_in_traction_cannot_go_to_space_today():
    """A derp healed this turn cannot fly this turn."""
    state = rich_game()
    state, derp = _injured_derp(state)
    state = act(state, Heal(derp))
    state, design = crew_design(state, derp)
    with pytest.raises(IllegalAction, match=r"Pip is healing this turn and cannot fly"):
        act(state, Assemble(design))


def test_injured_derp_cannot_fly():
    """An injured derp cannot fly an Upgoer."""
    state = rich_game()
    state, derp = _injured_derp(state)
    state, design = crew_design(state, derp)
    with pytest.raises(IllegalAction, match=r"Pip is injured and cannot fly"):
        act(state, Assemble(design))


def test_only_an_injured_derp_can_be_healed():
    """Healing is for injured derps."""
    state = new_game()
    state, derp = hire(state, "Pip")
    with pytest.raises(IllegalAction, match=r"Pip is not injured"):
        act(state, Heal(derp))


# ---------------------------------------------------------------- trading
def test_trade_points_and_dots():
    """Players may trade points and dots."""
    state = new_game()
    state = act(state, OfferTrade(1, give=TradeBundle(points=5, dots=2), take=TradeBundle(points=3)))
    state = act(state, AnswerTrade(True))
    a, b = state.programs
    assert (a.points, a.dots) == (38, 38)
    assert (b.points, b.dots) == (42, 42)


def test_trade_equipment_blueprints_and_derps():
    """Players may trade equipment, blueprints and spacederps."""
    state = rich_game()
    state, thing = invent(state, "capsule", 4)
    state, (item,) = build(state, thing)
    state, derp = hire(state)
    state, blueprint = invent(state, "thruster", 2)
    state = act(state, OfferTrade(1, give=TradeBundle(items=(item,), blueprints=(blueprint,), derps=(derp,))),
                AnswerTrade(True))
    assert state.item(item).owner == 1
    assert state.derp(derp).owner == 1
    copies = [t for t in state.things_of(1) if t.kind == "thruster"]
    assert len(copies) == 1 and copies[0].rating == state.thing(blueprint).rating


def test_a_trade_both_ways_hands_over_each_side_and_names_each_copy_against_those_before_it():
    """Bram hands Ayla a part and 5 points for two of her blueprints and one of her parts, in one answer: the
    parts change hands, the points move, and Bram's copies of "Pod" and "Pod (2)" are named against his own Pod
    and against each other, numbered in the order handed over."""
    state = rich_game()
    state, pod = invent(state, "capsule", 3, name="Pod")
    state, pod_2 = invent(state, "capsule", 4, name="Pod (2)")
    state, (hers,) = build(state, pod)
    state = act(state, EndRnD())
    state, his_pod = invent(state, "capsule", 5, name="Pod")
    state, (his,) = build(state, his_pod)
    points = [p.points for p in state.programs]
    state = act(state, OfferTrade(0, give=TradeBundle(items=(his,), points=5),
                                  take=TradeBundle(items=(hers,), blueprints=(pod, pod_2))), AnswerTrade(True))
    copies = state.things[-2:]
    assert [(t.id, t.name, t.owner, t.mass) for t in copies] == [
        (f"T{state.next_id - 2}", "Pod (2)", 1, state.thing(pod).mass),
        (f"T{state.next_id - 1}", "Pod (2) (2)", 1, state.thing(pod_2).mass)]
    assert (state.item(his).owner, state.item(hers).owner) == (0, 1)
    assert [p.points for p in state.programs] == [points[0] + 5, points[1] - 5]
    assert [e.text for e in state.events] == [
        "Ayla accepts: Bram hands over 5 points, 1 part, blueprint or derp, and receives 3 parts, blueprints "
        "or derps."]


def test_trading_fuel_and_rations():
    """Immediate benefits such as fuel and rations can be traded."""
    state = new_game()
    state = act(state, BuyConsumables("fuel", 3), BuyConsumables("rations", 1))
    state = act(state, OfferTrade(1, give=TradeBundle(fuel=3, rations=2)), AnswerTrade(True))
    assert (state.programs[1].fuel_stock, state.programs[1].rations_stock) == (3, 2)
    assert (state.programs[0].fuel_stock, state.programs[0].rations_stock) == (0, 0)


def test_sharing_a_blueprint_keeps_it_for_the_giver():
    """Trading a blueprint shares the design: the giver still holds it."""
    state = rich_game()
    state, thing = invent(state, "capsule", 4)
    state = act(state, OfferTrade(1, give=TradeBundle(blueprints=(thing,))), AnswerTrade(True))
    assert state.thing(thing).owner == 0
    assert any(t.kind == "capsule" for t in state.things_of(1))


def test_trading_equipment_does_not_share_the_blueprint():
    """Trading a piece of equipment does not share its blueprint: the receiver cannot build more of it."""
    state = rich_game()
    state, thing = invent(state, "capsule", 4)
    state, (item,) = build(state, thing)
    state = act(state, OfferTrade(1, give=TradeBundle(items=(item,))), AnswerTrade(True))
    assert state.things_of(1) == ()
    state = act(state, EndRnD())  # program 2 acts
    with pytest.raises(IllegalAction, match=r"no blueprint"):
        act(state, Build(thing, 1))


def test_declined_trade_changes_nothing():
    """A trade partner may decline; then nothing changes hands."""
    state = rich_game()
    state, thing = invent(state, "capsule", 4)
    state, (item,) = build(state, thing)
    before = state
    state = act(state, OfferTrade(1, give=TradeBundle(points=5, items=(item,)), take=TradeBundle(dots=1)),
                AnswerTrade(False))
    assert state.pending_trade is None
    assert (state.programs, state.items, state.things, state.derps) == (
        before.programs, before.items, before.things, before.derps)


def test_trade_partner_must_answer_before_anything_else():
    """An offered trade waits for the partner: the partner acts next, only answers are legal, and any other
    action (by anyone) is refused with the reason."""
    state = new_game()
    state = act(state, OfferTrade(1, give=TradeBundle(points=2)))
    assert ENGINE.current_player(state) == 1
    assert set(ENGINE.legal_actions(state)) == {AnswerTrade(True), AnswerTrade(False)}
    for action in (Hire(), EndRnD(), Invent("capsule", 2)):
        with pytest.raises(IllegalAction, match=r"Bram must first accept or decline the trade"):
            act(state, action)


def test_trade_refused_when_offering_what_you_do_not_have():
    """A program can only trade what it has; the refusal says what it has."""
    state = new_game()
    with pytest.raises(IllegalAction, match=r"you have 40 points, not 50"):
        act(state, OfferTrade(1, give=TradeBundle(points=50)))
    with pytest.raises(IllegalAction, match=r"Bram has 40 dots and a budget never drops below 30"):
        act(state, OfferTrade(1, take=TradeBundle(dots=41)))


def test_trade_naming_the_same_blueprint_twice_is_refused():
    """A trade names each thing once (the engine refuses repeated items and derps); a blueprint named twice
    should not hand the partner two copies of one design."""
    state = rich_game()
    state, thing = invent(state, "capsule", 4)
    with pytest.raises(IllegalAction, match=r"twice"):
        act(state, OfferTrade(1, give=TradeBundle(blueprints=(thing, thing))))


def test_empty_trade_and_trade_with_yourself_are_refused():
    """A trade hands something to another program."""
    state = new_game()
    with pytest.raises(IllegalAction, match=r"empty"):
        act(state, OfferTrade(1))
    with pytest.raises(IllegalAction, match=r"another space program"):
        act(state, OfferTrade(0, give=TradeBundle(points=1)))


# ---------------------------------------------------------------- reverse engineering
def _rival_hardware(mass: int = 4, designs: int = 1):
    """Program 1 (Ayla) invents and builds ``designs`` capsules and hands one copy of each to program 2 (Bram)."""
    state = rich_game()
    items = []
    for n in range(designs):
        state, thing = invent(state, "capsule", mass + n)
        state, (item,) = build(state, thing)
        items.append(item)
    state = act(state, OfferTrade(1, give=TradeBundle(items=tuple(items))), AnswerTrade(True), EndRnD())
    assert ENGINE.current_player(state) == 1
    return state, items


def test_reverse_engineering_gives_the_blueprint_and_bonus_points_next_turn():
    """Technology acquired from another team by reverse engineering adds its prototyping cost (3 per mass)
    to the next R&D budget."""
    state, (item,) = _rival_hardware(mass=4)
    saved = points(state, 1)
    state = act(state, ReverseEngineer(item))
    copies = [t for t in state.things_of(1) if t.kind == "capsule"]
    assert len(copies) == 1 and copies[0].inventor == 0
    assert points(state, 1) == saved  # nothing now...
    state = finish_turn(state)
    assert points(state, 1) == saved + state.programs[1].dots + 12  # ...12 extra next turn


def test_reverse_engineering_only_once_per_pair_of_teams():
    """Reverse engineering can only happen once per inventor/plagiarist pair of teams."""
    state, (first, second) = _rival_hardware(designs=2)
    state = act(state, ReverseEngineer(first))
    with pytest.raises(IllegalAction, match=r"once per pair"):
        act(state, ReverseEngineer(second))


def test_reverse_engineering_your_own_design_is_refused():
    """Reverse engineering is for technology from another team."""
    state = rich_game()
    state, thing = invent(state, "capsule", 4)
    state, (item,) = build(state, thing)
    with pytest.raises(IllegalAction, match=r"your own design"):
        act(state, ReverseEngineer(item))


def test_reverse_engineering_needs_the_hardware_in_storage():
    """You can only take apart hardware you hold."""
    state, (item,) = _rival_hardware()
    with pytest.raises(IllegalAction, match=r"not a part in your storage"):
        act(state, ReverseEngineer("I999"))


# ---------------------------------------------------------------- legal actions and refusals
def _states_to_check():
    state = new_game(2)
    yield "new game", state
    state = rich_game(2, amount=200)
    state, capsule = invent(state, "capsule", 4)
    state, stage = invent(state, "lower_stage", 6)
    state, _ = build(state, capsule)
    state, _ = build(state, stage)
    state, derp = hire(state)
    state = act(state, BuyConsumables("fuel", 2))
    yield "with parts and a derp", state
    state = act(state, Train(derp, "piloting", 1))
    yield "with a derp in training", state
    state = act(state, OfferTrade(1, give=TradeBundle(points=3)))
    yield "trade pending", state
    state = act(state, AnswerTrade(True), EndRnD())
    yield "second program", state
    state = finish_turn(state)
    yield "turn 2", state


@pytest.mark.parametrize("label, state", list(_states_to_check()), ids=lambda x: x if isinstance(x, str) else "")
def test_every_legal_action_applies(label, state):
    """Every action the engine lists as legal can be applied without a refusal."""
    actions = ENGINE.legal_actions(state)
    assert actions, label
    for action in actions:
        ENGINE.apply(state, action)  # raises IllegalAction on a bug


def test_refusal_gives_the_reason_and_leaves_the_state_alone():
    """A refused action comes with a reason a player understands and changes nothing."""
    state = new_game()
    assert ENGINE.refusal(state, Invent("capsule", 20)) == "inventing a thing of mass 20 costs 60 points and you have 40"
    assert ENGINE.refusal(state, Invent("capsule", 2)) is None
    assert points(state) == 40


def test_no_roll_during_rnd():
    """Dice are only rolled in flight; an R&D turn has no pending roll."""
    state = new_game()
    assert ENGINE.chance_outcomes(state) == []
    with pytest.raises(IllegalAction, match=r"no roll is pending"):
        act(state, Roll(10))


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_random_rnd_play_keeps_the_rules(seed):
    """Seeded random R&D play: every legal action applies, points never go negative, ratings stay within the
    research caps, derps stay within 9 points, and each turn starts with the budget within 30..70."""
    rng = random.Random(seed)
    state = new_game(2, turn_limit=4)
    turns_seen = 1
    for _ in range(120):
        if ENGINE.current_player(state) == TERMINAL:
            break
        actions = ENGINE.legal_actions(state)
        # Lean towards spending so that research and training happen.
        spend = [a for a in actions if not isinstance(a, EndRnD)]
        action = rng.choice(spend) if spend and rng.random() < 0.85 else EndRnD()
        if state.pending_trade is not None:
            action = rng.choice(actions)
        state = ENGINE.apply(state, action)
        for p in state.programs:
            assert p.points >= 0
            if state.pending_trade is None:
                assert p.fuel_stock >= 0 and p.rations_stock >= 0
        for t in state.things:
            cap = ENGINE.research_cap(state, t)
            assert t.rating.fail <= cap.fail and t.rating.boom <= cap.boom
            assert t.fail_steps_this_turn <= 5 and t.boom_steps_this_turn <= 5
        for d in state.derps:
            assert d.total_points <= 9
        if state.turn != turns_seen:
            turns_seen = state.turn
            assert all(30 <= p.dots <= 70 for p in state.programs)
    assert turns_seen >= 2


def test_each_rnd_action_tells_only_its_own_story():
    """The story after an action is what that action did, never what the action before it did: the log
    shows each line once. A whole R&D turn, action by action, through to the next turn."""
    state = new_game()
    told = []
    state = act(state, Invent("capsule", 3, name="Pod"))
    told.append(state.events)
    pod = state.things[-1].id
    for action in (Build(pod, 2), Research(pod, "boom", 1), Research(pod, "fail", 1), Hire("Zed")):
        state = act(state, action)
        told.append(state.events)
    zed = state.derps[-1].id
    for action in (Train(zed, "piloting", 1), BuyConsumables("fuel", 1), OfferTrade(1, give=TradeBundle(points=1)),
                   AnswerTrade(True), EndRnD(), EndRnD()):
        state = act(state, action)
        told.append(state.events)
    assert [[(e.text, e.program, e.kind) for e in events] for events in told] == [
        [("Ayla invents Pod, a capsule of mass 3, for 9 points. It starts at 1/5.", 0, "rnd")],
        [("Ayla builds 2 x Pod (I2, I3) for 6 points.", 0, "rnd")],
        [("Ayla researches Pod: 1/5 -> 1/6 for 3 points.", 0, "rnd")],
        [("Ayla researches Pod: 1/6 -> 2/6 for 3 points.", 0, "rnd")],
        [("Ayla hires Zed (0/0/2), ready to fly today.", 0, "rnd")],
        [("Zed trains piloting to 1 and stays on the ground this turn.", 0, "rnd")],
        [("Ayla buys 1 fuel for 1 point.", 0, "rnd")],
        [("Ayla offers Bram a trade: 1 point for nothing.", 0, "trade")],
        [("Bram accepts: Ayla hands over 1 point, and receives nothing.", 1, "trade")],
        [("Ayla finishes R&D with 15 points saved.", 0, "rnd")],
        [("Bram finishes R&D with 41 points saved.", 1, "rnd"), ("Flights of turn 1 begin.", None, "turn"),
         ("End of turn 1, Ayla: no changes. Budget 40 -> 40.", 0, "report"),
         ("End of turn 1, Bram: no changes. Budget 40 -> 40.", 1, "report"),
         ("Turn 2 begins: each program gets points equal to its budget dots.", None, "turn")],
    ]
    assert (state.turn, state.phase, [p.points for p in state.programs]) == (2, "rnd", [55, 81])
    assert ENGINE.current_player(state) == 0


def test_a_heal_and_the_answers_to_trades_tell_their_stories():
    """The stories told later (a heal, a declined and an accepted trade, the turn's reports) read word for word
    as they did when told at once."""
    state, zed = hire(new_game(), "Zed")
    state = edit_derp(state, zed, injured=True)  # stand-in for a flight that hurt Zed
    told = []
    for action in (Heal(zed), OfferTrade(1, give=TradeBundle(dots=1)), AnswerTrade(False),
                   OfferTrade(1, give=TradeBundle(dots=2, points=1), take=TradeBundle(points=3)), AnswerTrade(True),
                   EndRnD(), EndRnD()):
        state = act(state, action)
        told.append([(e.text, e.program, e.kind) for e in state.events])
    assert told == [
        [("Zed is healed, back at 2 stamina, and rests on the ground this turn.", 0, "rnd")],
        [("Ayla offers Bram a trade: 1 dot for nothing.", 0, "trade")],
        [("Bram declines the trade.", 1, "trade")],
        [("Ayla offers Bram a trade: 1 point, 2 dots for 3 points.", 0, "trade")],
        [("Bram accepts: Ayla hands over 1 point, 2 dots, and receives 3 points.", 1, "trade")],
        [("Ayla finishes R&D with 40 points saved.", 0, "rnd")],
        [("Bram finishes R&D with 38 points saved.", 1, "rnd"), ("Flights of turn 1 begin.", None, "turn"),
         ("End of turn 1, Ayla: no changes. Budget 38 -> 38.", 0, "report"),
         ("End of turn 1, Bram: no changes. Budget 42 -> 42.", 1, "report"),
         ("Turn 2 begins: each program gets points equal to its budget dots.", None, "turn")],
    ]


def test_an_offer_names_the_parts_blueprints_and_derps_it_hands_over():
    """An offer's story, told later, names what changes hands as it was called when offered."""
    state, pod = invent(new_game(), "capsule", 3, name="Pod")
    state, (part,) = build(state, pod)
    state, zed = hire(state, "Zed")
    state = act(state, OfferTrade(1, give=TradeBundle(items=(part,), blueprints=(pod,), derps=(zed,), points=2),
                                  take=TradeBundle(dots=1)))
    offered = state.events
    state = act(state, AnswerTrade(True))
    assert [(e.text, e.program, e.kind) for e in offered + state.events] == [
        ("Ayla offers Bram a trade: 2 points, Pod, the blueprint of Pod, Zed for 1 dot.", 0, "trade"),
        ("Bram accepts: Ayla hands over 2 points, 3 parts, blueprints or derps, and receives 1 dot.", 1, "trade")]


def test_who_acts_is_answered_for_the_state_asked_about_in_any_order():
    """``current_player`` keeps its last answer, but only for that very state: asking about an older state,
    a newer one, then the older again answers for each."""
    first = new_game()
    second = act(first, EndRnD())
    over = act(new_game(players=1, turn_limit=1), EndRnD())
    answers = [ENGINE.current_player(s) for s in (second, first, first, second, over, first)]
    assert answers == [1, 0, 0, 1, TERMINAL, 0]
    assert ENGINE.current_player(update(second, phase="over")) == TERMINAL


def pip_on_a_lower_stage(fuel: int):
    """A rich game where Ayla has hired Pip and holds a crewed design for Pip on a lower stage of mass 8 she has
    built, loading ``fuel``: (state, Pip's id, the design)."""
    state = rich_game()
    state, derp = hire(state, "Pip")
    state, design = crew_design(state, derp)
    state, stage = invent(state, "lower_stage", 8)
    state, (strong,) = build(state, stage)
    return state, derp, dataclasses.replace(design, stages=((strong,),), fuel=fuel)


def test_a_refused_design_names_the_stock_at_home_as_it_is_now():
    """A design is refused while the fuel it loads is not at home, and the reason says how much there is now:
    the engine keeps which designs fly, never an older refusal's words. Once the fuel is bought, it flies
    and its story tells its total mass."""
    state, _, fuelled = pip_on_a_lower_stage(fuel=3)
    with pytest.raises(IllegalAction, match=r"^this design cannot fly: you have 0 fuel at home, not 3$"):
        act(state, Assemble(fuelled))
    state = act(state, BuyConsumables("fuel", 2))
    assert ENGINE.refusal(state, Assemble(fuelled)) == "this design cannot fly: you have 2 fuel at home, not 3"
    state = act(state, BuyConsumables("fuel", 1), Assemble(fuelled))
    assert [e.text for e in state.events] == ["Ayla rolls Hopper out to the pad: total mass 14, 1 derp aboard."]
    assert (state.upgoers[-1].fuel, state.programs[0].fuel_stock) == (3, 0)


def test_an_upgoer_taken_apart_puts_its_parts_and_crew_back_home_and_says_so():
    """Assembled, then taken apart on the pad: its parts are in storage again, its derp at home, its fuel back
    in stock, the craft gone, and the story says it in words."""
    state, derp, design = pip_on_a_lower_stage(fuel=2)
    state = act(state, BuyConsumables("fuel", 2), Assemble(design))
    upgoer = state.upgoers[-1]
    aboard = [i.id for i in state.items if i.location == upgoer.id]
    assert sorted(aboard) == sorted(design.all_items()) and state.derp(derp).location == upgoer.id
    assert state.programs[0].fuel_stock == 0
    state = act(state, Disassemble(upgoer.id))
    assert [e.text for e in state.events] == ["Hopper is taken apart; its parts go back to storage."]
    assert [state.item(i).location for i in aboard] == [HOME] * len(aboard)
    assert (state.derp(derp).location, state.programs[0].fuel_stock, state.find("upgoer", upgoer.id)) == (HOME, 2, None)


def test_a_story_told_later_reads_as_if_told_at_once():
    """An R&D event's words are put together only when read, and nobody can tell: the event equals, hashes,
    prints, pickles, copies and is replaced like one made with its words, read or unread, and stays frozen."""
    state = act(new_game(), Invent("capsule", 3, name="Pod"))
    research = Research(state.things[-1].id, "boom", 1)
    said = Event("Ayla researches Pod: 1/5 -> 1/6 for 3 points.", 0, "rnd")
    unread = act(state, research).events[0]
    assert pickle.loads(pickle.dumps(unread)) == said  # pickled before its words were read
    assert copy.deepcopy(act(state, research).events[0]) == said
    assert dataclasses.replace(act(state, research).events[0], program=1) == Event(said.text, 1, "rnd")
    told = act(state, research).events[0]
    assert (told == said, hash(told) == hash(said), repr(told), told.text) == (True, True, repr(said), said.text)
    with pytest.raises(dataclasses.FrozenInstanceError):
        told.text = "something else"
    with pytest.raises(AttributeError):
        told.words  # noqa: B018  (no other name is made up)


def test_reverse_engineering_copies_the_parts_own_rating_not_a_flights_damage():
    """The blueprint a part is reverse engineered into has the part's own rating (``Engine.own_rating``), as a
    launch and a trade keep it: a flight's damage ends with the flight and is no part of the design."""
    from game.games.whatgoesup.rules.state import replace_in, update

    state, (item,) = _rival_hardware(mass=4)
    own = ENGINE.own_rating(state, state.item(item))
    hurt = update(state.item(item), flight_fail_penalty=1, flight_boom_penalty=1)
    state = update(state, items=replace_in(state.items, (hurt,)))
    assert ENGINE.item_rating(state, state.item(item)) != own
    state = act(state, ReverseEngineer(item))
    copy, = [t for t in state.things_of(1) if t.kind == "capsule"]
    assert copy.rating == own
