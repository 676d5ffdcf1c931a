"""The Write off button says what writing a craft off does now: the wreck drifts along its orbit and its crew
lives on its rations until a rescue (session 22's rules), the price is the rules' own per derp, and robots are
neither crew nor paid for: with no derp aboard they are lost with the craft, which becomes debris."""
from __future__ import annotations

from game.client.whatgoesup.flightpanel import describe_action
from game.games.whatgoesup.rules.flight_actions import WriteOff
from tests.test_flight_rules import E as ENGINE, auto, at, pair_in_orbit, uid
from tests.test_underped_rules import E as UNDERPED_ENGINE, act, craft, in_orbit, robot_craft


def test_writing_off_a_crewed_craft_says_it_drifts_and_what_the_crew_costs():
    s, _, _ = pair_in_orbit()
    s = auto(s, at("A", "before"))
    label, why = describe_action(ENGINE, s, WriteOff(uid(s, "A")))
    cost = -ENGINE.rules.economy.dots.per_derp_lost
    assert label == "Write off"
    assert why == ("Give up on this craft: nobody steers it any more, and it drifts on along its course. The derp "
                   f"aboard waits there for a rescuer, living on its rations, and costs you {cost} dots now.")


def test_writing_off_a_craft_of_robots_alone_says_they_are_lost_and_costs_nothing():
    s, _, system, _ = robot_craft()
    s = in_orbit(s)
    robo = craft(s).id
    assert WriteOff(robo) in UNDERPED_ENGINE.legal_actions(s)
    _, why = describe_action(UNDERPED_ENGINE, s, WriteOff(robo))
    assert why == ("Give up on this craft: with nobody aboard it becomes debris, drifting on along its course, "
                   "which any program may track. Its robots are lost with it.")
    after = act(s, WriteOff(robo))  # as the words say: debris, the robot's part gone, nothing paid for it
    assert after.upgoer(robo).status == "debris" and after.find("item", after.derp(system).system) is None
    assert not [e for e in after.programs[0].dot_entries if "written off" in e.reason]


def test_writing_off_a_craft_on_the_moon_says_it_stays_there():
    """A surface is the end of its rail: a wreck on the Moon does not drift (the turn's end moves it nowhere)."""
    from game.games.whatgoesup.rules.actions import EndRnD
    from game.games.whatgoesup.rules.scenario import place_in_space
    from tests.test_flight_rules import act as act_2014, kit, new_game

    s = new_game(players=1)
    s, design, _, _ = kit(s, 0, "Lander")
    s, lander = place_in_space(s, ENGINE, 0, design, "lunar_surface")
    s = auto(act_2014(s, EndRnD()), at("Lander", "before"))
    _, why = describe_action(ENGINE, s, WriteOff(lander))
    assert why.startswith("Give up on this craft: nobody steers it any more, and it stays where it is. The derp")
    after = act_2014(s, WriteOff(lander))  # nobody else flies: the turn ends, and the wreck is still there
    assert after.phase == "rnd" and after.turn == s.turn + 1  # the turn has ended, the wreck has had its drift
    assert after.upgoer(lander).status == "written_off" and after.upgoer(lander).location == "lunar_surface"
