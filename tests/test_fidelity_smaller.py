"""Issue 13, defect 6 ("smaller ones"): the 2014 text's smaller rules, one named scenario each, played through
real actions with forced rolls.

Parts rate 15/18 on a d20 unless a test says otherwise: 1-14 OK, 15-17 Fail, 18-20 Boom.
"""
from __future__ import annotations

import dataclasses

import pytest

from tests.test_fidelity_rules import orbit_and_home
from game.games.whatgoesup.rules.state import replace_in, update
from tests.test_flight_rules import auto, in_rnd, kit, new_game, start, up


# ====================================================================== a. the Duration Mission record
def test_the_duration_mission_record_stays_with_its_holder_after_the_record_flight_lands():
    """"Whoever has had a continually crewed Upgoer in space the longest": a record, not a flight in progress."""
    s = new_game()
    s, da, _, _ = kit(s, 0, "A")
    s = start(s, [da], [])
    s = auto(s, in_rnd(2))
    assert dict(s.standing)["duration_mission"] == 0
    s, db, _, _ = kit(s, 1, "B")
    s = start(s, [], [db])
    s = orbit_and_home(s, "A")  # A comes home after three turns up; B has been up as long when the turn ends
    assert up(s, "A").status == "landed" and up(s, "A").crewed_turns == 3
    s = auto(s, in_rnd(5))
    assert [p.longest_crewed_flight for p in s.programs] == [3, 3]
    assert dict(s.standing)["duration_mission"] == 0  # A's record stands; B only equals it
    report = [e.text for e in s.events if e.text.startswith("End of turn 4")]
    assert not any("Duration Mission" in t for t in report)
    s = auto(s, in_rnd(6))  # B stays up a fourth turn: a new record
    assert up(s, "B").crewed_turns == 4 and s.programs[1].longest_crewed_flight == 4
    assert dict(s.standing)["duration_mission"] == 1
    report = " ".join(e.text for e in s.events if e.text.startswith("End of turn 5"))
    assert "Duration Mission lost -2" in report and "Duration Mission +2" in report


# ====================================================================== i. docking with the rock by RCS
from game.core.interface import IllegalAction  # noqa: E402
from tests.test_stop_the_rock import ENGINE as ROCK_ENGINE, _in_libration, settle  # noqa: E402
from game.games.whatgoesup.rules.flight_actions import Burn  # noqa: E402


def test_docking_with_the_rock_by_rcs_needs_two_piloting():
    """"A spacederp ... must have at least 2 points of Piloting to attempt a docking at all." (Docking)"""
    state, u = _in_libration(thruster=False, pilot=1)
    with pytest.raises(IllegalAction, match="at least 2 Piloting"):
        ROCK_ENGINE.apply(state, Burn("rock_docking", rcs=True))
    assert Burn("rock_docking", rcs=True) not in ROCK_ENGINE.legal_actions(state)


def test_docking_with_the_rock_by_rcs_costs_the_pilot_a_stamina_point_per_attempt():
    """"A spacederp has to use stamina to dock like for other payloads": each attempt, stubborn or not."""
    state, u = _in_libration(thruster=False)
    pilot = next(d for d in state.derps if d.location == u)
    assert pilot.current_stamina == 4
    state = ROCK_ENGINE.apply(state, Burn("rock_docking", rcs=True))
    assert state.derp(pilot.id).current_stamina == 3
    state = settle(state)
    assert state.upgoer(u).location == "rock_surface" and state.derp(pilot.id).current_stamina == 3


def test_docking_with_the_rock_by_rcs_is_refused_to_a_pilot_out_of_stamina():
    state, u = _in_libration(thruster=False)
    pilot = next(d for d in state.derps if d.location == u)
    tired = dataclasses.replace(state, derps=replace_in(state.derps, [update(pilot, current_stamina=0)]))
    with pytest.raises(IllegalAction, match="stamina"):
        ROCK_ENGINE.apply(tired, Burn("rock_docking", rcs=True))


# ====================================================================== d. technology transfer from traded equipment
from game.games.whatgoesup.rules.actions import AnswerTrade, EndRnD, Invent, OfferTrade, Roll  # noqa: E402
from game.games.whatgoesup.rules.scenario import give_stock, give_thing  # noqa: E402
from game.games.whatgoesup.rules.state import TradeBundle  # noqa: E402
from tests.test_flight_rules import E, R, act  # noqa: E402


def traded_capsule(flown: bool):
    """Hop sells Spud one of its 15/18 capsules (mass 14) for a point; Spud may then invent."""
    s = new_game()
    s, _, capsule = give_thing(s, R, 0, "capsule", 14, "15/18", count=1, flown=flown)
    s = give_stock(s, 1, points=60)
    s = act(s, OfferTrade(1, give=TradeBundle(items=(capsule[0],)), take=TradeBundle(points=1)))
    s = act(act(s, AnswerTrade(True)), EndRnD())
    assert s.item(capsule[0]).owner == 1 and not any(t.owner == 1 for t in s.things)  # a part, not the blueprint
    return s


def test_technology_transfer_applies_to_a_traded_part_of_a_design_that_has_flown():
    """"Trading a piece of equipment does NOT automatically mean sharing the blueprint ... However, Technology
    Transfer still applies." (2014, R&D)"""
    s = act(traded_capsule(flown=True), Invent("capsule", 10, "Copycat"))
    thing = next(t for t in s.things if t.name == "Copycat")
    assert str(thing.rating) == "5/10"
    assert "technology transfer from" in s.events[-1].text


def test_a_traded_part_of_a_design_that_never_flew_transfers_nothing():
    s = act(traded_capsule(flown=False), Invent("capsule", 10, "Copycat"))
    assert str(next(t for t in s.things if t.name == "Copycat").rating) == "1/5"


# ====================================================================== c. trading outside R&D
from game.games.whatgoesup.rules.engine import CHANCE  # noqa: E402
from game.games.whatgoesup.rules.flight_actions import EndActivities, Launch  # noqa: E402
from tests.test_flight_rules import at, pair_in_orbit, uid  # noqa: E402


def test_programs_trade_during_the_flights_while_a_craft_takes_its_activities():
    """"Trading can happen at any time except during a timing-sensitive situation." (2014, R&D)"""
    s, _, _ = pair_in_orbit()
    assert at("B", "after")(s)
    offer = OfferTrade(0, give=TradeBundle(points=1), take=TradeBundle(fuel=2))
    assert any(isinstance(a, OfferTrade) for a in E.legal_actions(s))
    points, fuel = s.programs[1].points, s.programs[1].fuel_stock
    s = act(s, offer)
    assert s.pending_trade is not None and E.current_player(s) == 0  # Hop answers in the middle of the flights
    s = act(s, AnswerTrade(True))
    assert (s.programs[1].points, s.programs[1].fuel_stock) == (points - 1, fuel + 2)
    assert s.phase == "flight" and at("B", "after")(s)  # the flights carry on where they were
    s = act(s, EndActivities(uid(s, "B")))
    assert s.phase == "rnd" and s.turn == 2


def test_no_trade_at_a_launch_decision_or_while_a_roll_is_settled():
    s = new_game()
    s, da, _, _ = kit(s, 0, "A")
    s = start(s, [da], [])
    assert at("A", "decide")(s)
    offer = OfferTrade(1, give=TradeBundle(points=1))
    with pytest.raises(IllegalAction, match="launches go in timing order"):
        act(s, offer)
    assert not any(isinstance(a, OfferTrade) for a in E.legal_actions(s))
    s = act(s, Launch(uid(s, "A")))
    assert E.current_player(s) == CHANCE
    s = act(s, Roll(16))  # a Fail: the crew may still help the roll
    assert s.flight.roll is not None and E.current_player(s) == 0
    with pytest.raises(IllegalAction, match="roll is being settled"):
        act(s, offer)


# ====================================================================== b. rations load in twos
from game.games.whatgoesup.rules.actions import Assemble  # noqa: E402
from game.games.whatgoesup.rules.engine import Engine  # noqa: E402


def test_an_upgoer_loads_rations_in_whole_containers():
    """"A ration container always masses 1. It sustains one derp for two turns or two derps for one turn, so,
    rations mass 0.5 and are loaded in twos." (2014, Mass)"""
    s = new_game()
    s, design, _, _ = kit(s, 0, "A", rations=2)
    odd = dataclasses.replace(design, rations=3)
    with pytest.raises(IllegalAction, match="whole containers of 2 derp-turns: load 2 or 4, not 3"):
        act(s, Assemble(odd))
    s = act(s, Assemble(dataclasses.replace(design, rations=4)))
    assert up(s, "A").rations == 4 and s.programs[0].rations_stock == 40 - 4


def test_a_table_may_let_rations_load_one_derp_turn_at_a_time():
    comps = dataclasses.replace(R.components, rations_loaded_in_containers=False)
    engine = Engine(dataclasses.replace(R, components=comps))
    s = new_game()
    s, design, _, _ = kit(s, 0, "A", rations=2)
    s = engine.apply(s, Assemble(dataclasses.replace(design, rations=3)))
    assert up(s, "A").rations == 3


# ====================================================================== f. an EVA may carry an injured derp
from game.games.whatgoesup.rules.flight_actions import AcceptRoll, Eva  # noqa: E402
from tests.test_flight_rules import BOOM, OK, roll  # noqa: E402


def b_with_an_injured_derp():
    """B (Pip 3/2/4 and Zed 2/2/2, two EVA packs) meets A in Low Orbit; Zed's EVA Booms and hurts him."""
    s, _, (crew_b, ids_b) = pair_in_orbit(b=dict(crew=((3, 2, 4), (2, 2, 2)),
                                                 mods=("capsule", "thruster", "eva_pack", "eva_pack")))
    s = act(roll(act(s, Eva(crew_b[1], uid(s, "A"))), BOOM), AcceptRoll())
    assert s.derp(crew_b[1]).injured and s.derp(crew_b[1]).location == uid(s, "B")
    return s, crew_b, ids_b


def test_a_healthy_derp_helps_an_injured_comrade_across_in_an_eva_suit():
    """"An injured derp can be transferred to another Upgoer using an EVA suit, if there is at least one healthy
    derp nearby. The healthy derp may roll for Pilot and Engineer on behalf of the injured comrade." (Spacederps)"""
    s, (pip, zed), ids_b = b_with_an_injured_derp()
    carry = Eva(pip, uid(s, "A"), come_back=True, carry_derp=zed)
    assert carry in E.legal_actions(s)
    s = act(s, carry)
    assert s.derp(pip).current_stamina == 3 and s.flight.roll.actor == zed  # Pip pays; Zed wears the suit
    s = roll(s, OK)
    assert s.derp(zed).location == uid(s, "A") and s.derp(zed).injured
    assert s.derp(pip).location == uid(s, "B")  # the helper stays aboard
    pack = next(i for i in ids_b["eva_pack"] if s.find("item", i) is not None)
    assert s.item(pack).location == uid(s, "A")  # the suit went across with him


def test_a_boom_on_the_way_across_injures_the_comrade_again_and_kills_them():
    s, (pip, zed), _ = b_with_an_injured_derp()
    s = act(roll(act(s, Eva(pip, uid(s, "A"), come_back=True, carry_derp=zed)), BOOM), AcceptRoll())
    assert s.derp(zed).dead and not s.derp(pip).injured


def test_only_an_injured_comrade_is_carried_and_only_by_a_derp_who_may_go_outside():
    s, (pip, zed), _ = b_with_an_injured_derp()
    with pytest.raises(IllegalAction, match="is injured"):
        act(s, Eva(zed, uid(s, "A"), come_back=True, carry_derp=zed))  # Zed is hurt: he cannot help at all
    a_pilot = next(d.id for d in s.derps if d.location == uid(s, "A"))
    with pytest.raises(IllegalAction, match="not injured and can go outside on their own"):
        act(s, Eva(pip, uid(s, "A"), come_back=True, carry_derp=a_pilot))
    with pytest.raises(IllegalAction, match="carries nothing else"):
        act(s, Eva(pip, uid(s, "A"), carry_rations=2, come_back=True, carry_derp=zed))


# ====================================================================== g. switching a floating Waylight or probe by EVA
from game.games.whatgoesup.rules.flight_actions import Deploy, SwitchPayload, UsePayload  # noqa: E402


def beacon_beside_b():
    """B lights its Waylight and sets it loose in Low Orbit as a beacon floating by itself; B keeps an EVA pack."""
    s, _, (crew_b, ids_b) = pair_in_orbit(b=dict(mods=("capsule", "thruster", "eva_pack", "waylight")))
    light = ids_b["waylight"][0]
    s = roll(act(s, UsePayload(crew_b[0], light)), OK)
    s = act(s, Deploy(light))
    beacon = s.item(light).location
    assert s.upgoer(beacon).crew == () and s.item(light).active and beacon != uid(s, "B")
    return s, crew_b[0], light


def test_a_derp_on_eva_switches_a_floating_waylight_off_and_on_again():
    """"EVA is performed to: ... Activate, tag, or deactivate a waylight or probe that is floating by itself." """
    s, pip, light = beacon_beside_b()
    off = SwitchPayload(pip, light, on=False)
    assert off in E.legal_actions(s)
    s = act(s, off)
    assert s.flight.roll.kind == "eva" and s.derp(pip).current_stamina == 2
    s = roll(s, OK)
    assert not s.item(light).active
    s = act(s, SwitchPayload(pip, light, on=True))
    s = roll(s, OK)  # the EVA pack
    assert s.flight.roll.kind == "payload" and s.flight.roll.items == (light,)
    s = roll(s, OK)  # then the Waylight itself
    assert s.item(light).active and s.derp(pip).current_stamina == 1


def test_a_failed_eva_leaves_the_floating_waylight_as_it_was():
    s, pip, light = beacon_beside_b()
    s = act(roll(act(s, SwitchPayload(pip, light, on=False)), 16), AcceptRoll())
    assert s.item(light).active


def test_a_waylight_aboard_a_crewed_craft_is_not_floating_by_itself():
    s, _, (crew_b, _) = pair_in_orbit(a=dict(mods=("capsule", "thruster", "rcs", "waylight")),
                                      b=dict(mods=("capsule", "thruster", "eva_pack")))
    a_light = next(i.id for i in s.items if i.location == uid(s, "A") and s.thing(i.thing_id).kind == "waylight")
    with pytest.raises(IllegalAction, match="not floating by itself"):
        act(s, SwitchPayload(crew_b[0], a_light, on=True))


# ====================================================================== h. shed components can be recovered
from game.games.whatgoesup.rules.flight_actions import Dock, Recover, Shed, Undock  # noqa: E402


def b_sheds_its_waylight():
    """B (an EVA pack and a Waylight aboard) throws the Waylight overboard in Low Orbit, where A also is."""
    s, _, (crew_b, ids_b) = pair_in_orbit(b=dict(mods=("capsule", "thruster", "eva_pack", "waylight")))
    light = ids_b["waylight"][0]
    assert Shed(items=(light,)) in E.legal_actions(s)
    mass = E.flight_rules.spacecraft_mass(s, up(s, "B"))
    s = act(s, Shed(items=(light,)))
    assert E.flight_rules.spacecraft_mass(s, up(s, "B")) == mass - 1
    return s, crew_b[0], light


def test_parts_shed_beside_another_craft_float_there_and_a_derp_on_eva_brings_them_back():
    """"An Upgoer may shed components or consumables to decrease its mass. These components are lost in space
    unless another Up Goer is present, in which case a recovery attempt may be made." (Flight steps)"""
    s, pip, light = b_sheds_its_waylight()
    pile = s.upgoer(s.item(light).location)
    assert pile.status == "debris" and pile.modules == (light,) and pile.location == up(s, "B").location
    assert light not in up(s, "B").modules
    recover = Recover(pip, light)
    assert recover in E.legal_actions(s)
    s = act(s, recover)
    assert s.flight.roll.kind == "eva" and s.derp(pip).current_stamina == 3
    s = roll(s, OK)
    assert s.item(light).location == uid(s, "B") and light in up(s, "B").modules
    assert s.find("upgoer", pile.id) is None  # nothing floats there any more


def test_a_craft_docked_to_a_pile_lets_go_once_its_last_part_is_brought_aboard():
    """Docking is recorded on both craft. B sheds its Waylight beside A, docks with the pile (RCS, OK) and
    brings the Waylight back on an EVA: nothing floats there any more, and B no longer lists the pile as docked.
    (Before, B kept the gone pile's id among its partners, and undocking from it crashed the engine.)"""
    s, _, (crew_b, ids_b) = pair_in_orbit(b=dict(mods=("capsule", "thruster", "rcs", "eva_pack", "waylight")))
    pip, light = crew_b[0], ids_b["waylight"][0]
    s = act(s, Shed(items=(light,)))
    pile = s.item(light).location
    s = roll(act(s, Dock(pile, pip)), OK)
    assert up(s, "B").docked_with == (pile,) and s.upgoer(pile).docked_with == (uid(s, "B"),)
    s = roll(act(s, Recover(pip, light)), OK)
    assert s.find("upgoer", pile) is None and light in up(s, "B").modules
    assert up(s, "B").docked_with == ()
    with pytest.raises(IllegalAction, match="not docked"):
        act(s, Undock(pile))


def test_a_failed_recovery_leaves_the_part_floating_until_nobody_tracks_it():
    s, pip, light = b_sheds_its_waylight()
    pile = s.item(light).location
    s = act(roll(act(s, Recover(pip, light)), 16), AcceptRoll())
    assert s.item(light).location == pile
    s = auto(s, in_rnd(2))
    s = act(act(s, EndRnD()), EndRnD())  # nobody tracks the pile: it drifts out of sight
    assert s.find("upgoer", pile) is None and s.find("item", light) is None


def test_parts_shed_with_no_other_craft_near_are_lost():
    s = new_game()
    s, da, _, ids = kit(s, 0, "A", mods=("capsule", "thruster", "rcs", "waylight"))
    s = start(s, [da], [])
    s = auto(s, at("A", "after"))
    s = act(s, Shed(items=(ids["waylight"][0],)))
    assert s.find("item", ids["waylight"][0]) is None and len(s.upgoers) == 1


# ====================================================================== e. craft launched docked separate later
from game.games.whatgoesup.rules.flight_actions import Separate  # noqa: E402


def twin_in_orbit():
    """One Upgoer carries two capsule-plus-thruster craft to Low Orbit on one pair of stages (Pip and Zed aboard)."""
    s = new_game()
    s, design, crew, ids = kit(s, 0, "Twin", crew=((3, 2, 4), (2, 2, 3)),
                               mods=("capsule", "thruster", "rcs", "capsule", "thruster"), rations=4)
    s = start(s, [design], [])
    s = auto(s, at("Twin", "after"))
    return s, crew, ids


def test_craft_launched_docked_separate_and_go_their_own_ways():
    """"Undocking - It's free. In fact, it's so free that you can launch docked craft and undock them later! For
    example, if you have a big first and second stage, they can carry up two capsules-plus-third-stage that then
    go their separate ways." (Docking)"""
    s, (pip, zed), ids = twin_in_orbit()
    twin = up(s, "Twin")
    leaving = (ids["capsule"][1], ids["thruster"][1])
    split = Separate(leaving, crew=(zed,), fuel=5, rations=2)
    assert split in E.legal_actions(s)
    s = act(s, split)
    other = up(s, "Twin 2")
    assert other.modules == leaving and other.location == twin.location and other.docked_with == (twin.id,)
    assert (other.fuel, other.rations, up(s, "Twin").fuel, up(s, "Twin").rations) == (5, 2, twin.fuel - 5, 2)
    assert s.derp(zed).location == other.id and s.item(leaving[0]).location == other.id
    assert up(s, "Twin").modules == (ids["capsule"][0], ids["thruster"][0], ids["rcs"][0])
    s = act(s, Undock(other.id))  # free
    assert up(s, "Twin").docked_with == () and up(s, "Twin 2").docked_with == ()
    s = auto(s, in_rnd(2))
    s = act(act(s, EndRnD()), EndRnD())
    s = auto(s, lambda x: at("Twin 2", "before")(x))  # next turn each flies on its own
    assert up(s, "Twin 2").status == "flying"


def test_a_separated_craft_needs_room_and_a_capsule_for_its_crew():
    s, (pip, zed), ids = twin_in_orbit()
    with pytest.raises(IllegalAction, match="without a capsule"):
        act(s, Separate((ids["thruster"][1],), crew=(zed,)))
    with pytest.raises(IllegalAction, match="something must stay behind"):
        act(s, Separate(up(s, "Twin").modules))
