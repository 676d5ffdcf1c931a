"""Robots that jury-rig and nudge, and the clockwork orders that tell them to (docs/rules-decisions.md,
"Underped Upgoers: jury-rigs and nudges").

Named scenarios through real play: the systems are invented, researched, built and programmed with R&D actions
(``tests/test_underped_rules.py`` helpers), the craft launch and fly through the Engine, and every die is a
chosen ``Roll``. The ready-made parts rate 15/18 (1 works, 19 Booms); a system rates 6/10.
"""
from __future__ import annotations

from game.games.whatgoesup.rules.actions import Assemble, EndRnD, Roll
from game.games.whatgoesup.rules.flight.underped import order_of
from game.games.whatgoesup.rules.flight_actions import Burn, EndActivities, JuryRig, Launch, Move, Nudge, Shed
from game.games.whatgoesup.rules.state import PlayerSetup, Setup, UpgoerDesign
from game.games.whatgoesup.rules.underped_actions import WriteOrders
from tests.test_underped_rules import (BOOM, CHANCE, DEFAULT, E, OK, TERMINAL, act, at, auto, build_systems, craft,
                                       entries, generator_craft, hardware, illegal, in_orbit, robot_craft, roll,
                                       rolling, settle)

UNDERPED = ("underped",)
REPAIRS = ("underped", "underped_repairs")
CLOCKWORK_REPAIRS = ("underped", "underped_clockwork", "underped_repairs")


def part(s, kind, name="Robo"):
    return next(i for i in s.items if i.location == craft(s, name).id and s.thing(i.thing_id).kind == kind)


def capsule_broken_in_orbit(options):
    """A robot craft (one system, 4 stamina) whose capsule Booms on its first night in Low Orbit: stranded, the
    capsule disabled. Stops at the craft's activities after moving."""
    s, _, system, _ = robot_craft(options=options, program_points=2)
    s = act(s, EndRnD())
    s = act(s, Launch(craft(s).id))
    s = roll(roll(roll(s, OK), OK), OK)  # the launch stage, the power-up check, the orbital insertion
    assert rolling("duration_capsule")(s)
    s = settle(roll(s, BOOM))
    assert at("after")(s) and craft(s).stranded and part(s, "capsule").disabled
    return s, system


# ====================================================================== jury-rigging
def test_a_robot_has_no_engineering_to_jury_rig_with_by_default():
    """"It cannot be trained in Piloting or Engineering": a new derp's Engineering is 0, and a jury-rig works
    "if a derp in it rolls under twice their Engineering skill"."""
    s, system = capsule_broken_in_orbit(UNDERPED)
    assert s.derp(system).engineering == 0
    illegal(s, JuryRig(system, part(s, "capsule").id), "no Engineering to jury-rig with")


def test_with_robot_repairs_a_stranded_robot_mends_its_capsule_and_wins_lucky_13_at_a_share():
    s, system = capsule_broken_in_orbit(REPAIRS)
    capsule = part(s, "capsule").id
    assert JuryRig(system, capsule) in E.legal_actions(s)
    s = act(s, JuryRig(system, capsule))
    assert s.derp(system).current_stamina == 3  # one point for the jury-rig, which is its one action point too
    assert s.flight.roll.kind == "jury_rig" and s.flight.roll.rating.fail == 2  # under twice Engineering 1
    s = settle(roll(s, 1))
    assert not part(s, "capsule").disabled and not craft(s).stranded
    assert ("Prestige First - Lucky 13", 1) in entries(s)  # 2 dots, half rounded up for a craft of robots
    # A craft of robots has no crew to save: the first is told of its robots.
    told = next(e.text for e in s.events if e.text.startswith("Prestige First - Lucky 13"))
    assert told == ("Prestige First - Lucky 13: Hop is first by an underped craft! "
                    "(Robo's robots patch up their own craft) +1 dot at the end of the turn.")
    assert "crew" not in told


def test_a_robot_never_goes_outside_to_jury_rig():
    """"It sits in a capsule": a thruster is mended from outside, on an EVA, so not by a system."""
    s, _, system, _ = robot_craft(options=REPAIRS, program_points=2)
    s = in_orbit(s)
    s = auto(s, at("junction"))
    s = settle(roll(act(s, Burn("high_transfer")), BOOM))  # the thruster Booms: disabled
    thruster = part(s, "thruster")
    assert thruster.disabled
    s = auto(s, at("after"))
    illegal(s, JuryRig(system, thruster.id), "stays in its capsule")


# ====================================================================== jury-rig orders
def test_a_jury_rig_is_written_only_for_a_broken_part_inside_and_only_with_repairs():
    s, system, generator = generator_craft(CLOCKWORK_REPAIRS)
    u = craft(s)
    capsule = part(s, "capsule").id
    illegal(s, WriteOrders(u.id, (f"jury_rig:{capsule}",)), "works: a robot is ordered to mend only what is broken")
    assert not any(c.startswith("jury_rig:") for c in E.flight_rules.order_choices(s, u))
    s, _, _, _ = robot_craft(options=UNDERPED + ("underped_clockwork",))
    illegal(s, WriteOrders(craft(s).id, (f"jury_rig:{part(s, 'capsule').id}",)), "the robot repairs rule")


def test_a_clockwork_robot_recharged_in_flight_is_ordered_to_mend_its_capsule_and_does():
    """"Its actions are written down at launch (or recharge)": the capsule Booms in orbit, the generator
    recharges the system at the end of the turn, and in the next R&D its owner writes the jury-rig, which the
    craft then must carry out before anything else."""
    s, system, generator = generator_craft(CLOCKWORK_REPAIRS)
    capsule = part(s, "capsule").id
    s = act(s, WriteOrders(craft(s).id, ("shed:fuel",)))
    s = act(s, EndRnD())
    s = act(s, Launch(craft(s).id))
    s = roll(roll(roll(s, OK), OK), OK)  # launch, power up, insertion
    s = settle(roll(s, BOOM))  # the capsule Booms: stranded, disabled
    s = roll(s, OK)  # the generator's duration roll
    assert craft(s).stranded and part(s, "capsule").disabled
    illegal(s, JuryRig(system, capsule), "its next order is to shed a point of fuel")
    s = act(s, Shed(fuel=1))  # the written order: 3 stamina of 4
    s = auto(s, lambda x: x.phase == "rnd" and x.turn == 2)
    u = craft(s)
    assert u.orders_open and s.derp(system).current_stamina == 4
    assert f"jury_rig:{capsule}" in E.flight_rules.order_choices(s, u)
    s = act(s, WriteOrders(u.id, (f"jury_rig:{capsule}",)))
    assert s.events[-1].text.endswith("jury-rig Capsule T10.")
    s = act(s, EndRnD())
    s = auto(s, at("before"))
    illegal(s, Move(craft(s).id), "must first jury-rig Capsule T10, as written")
    s = act(s, JuryRig(system, capsule))
    assert craft(s).orders == ()  # crossed off once taken, whatever the roll
    s = settle(roll(s, 1))
    assert not part(s, "capsule").disabled and not craft(s).stranded and s.derp(system).current_stamina == 3


# ====================================================================== nudges
def rock_robot(options, fuel=16, program_points=6):
    """Stop The Rock for one program: a robot craft (one system, 8 stamina; a capsule and a thruster at 15/18)
    on the pad with ``fuel``, R&D still open. Returns (state, system derp id)."""
    setup = Setup((PlayerSetup("Hop", "rabitians"),), scenario="stop_the_rock", options=frozenset(options),
                  dice="d20")
    s = roll(E.new_game(setup), 10)  # the rock's drift die
    s, items, systems = build_systems(s, 1, program_points)
    s, stages, modules = hardware(s, 0, ("capsule", "thruster"))
    s = act(s, Assemble(UpgoerDesign("Robo", stages=stages, modules=modules + tuple(items), fuel=fuel)))
    return s, systems[0]


def fly_as_written(s, until, limit=3000):
    """Play the craft's next written order whenever the engine allows it, else the obvious choice; every die
    rolls 1 (the rock's drift die 10). Returns the state and the written actions taken."""
    taken = []
    for _ in range(limit):
        if until(s):
            return s, taken
        p = E.current_player(s)
        assert p != TERMINAL, "the game ended"
        if p == CHANCE:
            s = E.apply(s, Roll(OK if s.phase == "flight" else 10))
            continue
        legal = E.legal_actions(s)
        due = craft(s).orders[0] if craft(s).orders else None
        pick = next((a for a in legal if s.phase == "flight" and due and order_of(a) == due), None)
        if pick is not None:
            taken.append(pick)
        else:
            pick = next(a for kind in DEFAULT for a in legal if isinstance(a, kind))
        s = E.apply(s, pick)
    raise AssertionError("never got there")


def test_a_nudge_costs_a_robot_a_stamina_point_like_any_burn():
    """"It ... spends 1 Stamina on ANY action, burns included": a nudge fires a thruster."""
    s, system = rock_robot(UNDERPED)
    s = act(s, EndRnD())
    s = act(s, Launch(craft(s).id))
    s, _ = fly_as_written(s, lambda x: x.phase == "flight" and x.flight.mode == "junction"
                          and craft(x).location == "low_burn_1")
    s = roll(act(s, Burn("high_transfer")), OK)
    s, _ = fly_as_written(s, lambda x: x.phase == "flight" and x.flight.mode == "junction"
                          and any(isinstance(a, Burn) and a.to == "rock_transit" for a in E.legal_actions(x)))
    s = roll(act(s, Burn("rock_transit")), OK)
    s, _ = fly_as_written(s, lambda x: x.phase == "flight" and x.flight.mode == "junction"
                          and craft(x).location == "rock_libration")
    s = settle(roll(act(s, Burn("rock_docking")), OK))
    s, _ = fly_as_written(s, lambda x: x.phase == "flight" and x.flight.mode in ("before", "after")
                          and x.flight.roll is None and craft(x).location == "rock_surface")
    before, fuel, nudges = s.derp(system).current_stamina, craft(s).fuel, s.rock.nudges
    s = settle(roll(act(s, Nudge(craft(s).id)), OK))
    assert s.derp(system).current_stamina == before - 1 and craft(s).fuel == fuel - 2 and s.rock.nudges == nudges + 1


def test_a_clockwork_robot_flies_to_the_rock_and_nudges_as_written():
    s, system = rock_robot(("underped", "underped_clockwork"))
    u = craft(s)
    assert f"nudge:{u.id}" in E.flight_rules.order_choices(s, u)
    orders = ("high_transfer", "rock_transit", "rock_docking", f"nudge:{u.id}", f"nudge:{u.id}")
    s = act(s, WriteOrders(u.id, orders))
    assert s.events[-1].text.endswith("burn to Rock Docking, then nudge the rock, then nudge the rock.")
    s = act(s, EndRnD())
    s = act(s, Launch(u.id))
    s, taken = fly_as_written(s, lambda x: x.rock.nudges == 1 and x.flight is not None and x.flight.roll is None
                              and x.flight.choice is None)
    illegal(s, EndActivities(u.id), "must first nudge the rock, as written")
    s, more = fly_as_written(s, lambda x: not craft(x).orders and x.flight.roll is None)
    assert [order_of(a) for a in taken + more] == list(orders)
    assert s.rock.nudges == 2 and craft(s).location == "rock_surface"
    assert s.derp(system).current_stamina == 8 - 5  # three burns and two nudges, a point each
    illegal(s, Nudge(u.id), "it has no order left")


def test_a_nudge_is_written_for_the_craft_itself_in_a_game_with_the_rock():
    s, _, _, _ = robot_craft(options=("underped", "underped_clockwork"))
    u = craft(s)
    illegal(s, WriteOrders(u.id, (f"nudge:{u.id}",)), "in a game with the rock to push")
    assert not any(c.startswith("nudge:") for c in E.flight_rules.order_choices(s, u))
    s, _ = rock_robot(("underped", "underped_clockwork"))
    illegal(s, WriteOrders(craft(s).id, ("nudge:U1",)), "written for Robo itself")
