"""Underped (robotic) Upgoers, the optional rule of the wiki's "underped" page, one named scenario per rule.

Each test invents, researches, builds and programs its underped systems with real R&D actions, gives the
rest of the hardware ready-made (``game.games.whatgoesup.rules.scenario``), assembles, launches and flies
through the Engine, answering every die with a chosen ``Roll``. The ready-made parts rate 15/18 on a d20
(1-14 OK, 15-17 Fail, 18-20 Boom); a system researched on its first turn rates 6/10 (1-5 OK, 6-9 Fail,
10-20 Boom), so a roll of 1 works for both.
"""
from __future__ import annotations

import pytest

from game.games.whatgoesup.rules.actions import Assemble, Build, EndRnD, Invent, Research, Roll, Train
from game.games.whatgoesup.rules.engine import CHANCE, TERMINAL, Engine, IllegalAction
from game.games.whatgoesup.rules.flight_actions import (AcceptRoll, Burn, Coast, EndActivities, Eva, Launch, Move,
                                                        Shed, UsePayload, UseSkill, WriteOff)
from game.games.whatgoesup.rules.scenario import give_derp, give_stock, give_thing, place_in_space
from game.games.whatgoesup.rules.state import HOME, PlayerSetup, Setup, UpgoerDesign
from game.games.whatgoesup.rules.tables import load_rules
from game.games.whatgoesup.rules.underped_actions import (AbortOrders, GiveStamina, PowerDown, PowerUp, Program,
                                                          SelfDestruct, WriteOrders)
from tests.test_rules_tables import edit, rules_dir  # noqa: F401  (rules_dir is a fixture)

R = load_rules()
E = Engine(R)

OK, FAIL, BOOM = 1, 16, 19  # the ready-made parts: 15/18
S_FAIL, S_BOOM = 7, 12  # a system at 6/10
UNDERPED = ("underped",)


# ====================================================================== helpers
def new_game(options=UNDERPED, players=1, victory="most_dots"):
    ps = (PlayerSetup("Hop", "rabitians"), PlayerSetup("Spud", "merbs"))[:players]
    return E.new_game(Setup(ps, turn_limit=20, options=frozenset(options), dice="d20", victory=victory))


def act(s, action):
    return E.apply(s, action)


def roll(s, value):
    assert E.current_player(s) == CHANCE, "no die is waiting"
    return E.apply(s, Roll(value))


def illegal(s, action, match=None):
    with pytest.raises(IllegalAction, match=match):
        E.apply(s, action)
    assert action not in E.legal_actions(s)


def build_systems(s, count=1, program_points=0):
    """Real R&D: invent an underped system, research it to 6/10, build ``count`` and program each.
    Returns (state, system item ids, system derp ids)."""
    s = give_stock(s, E.current_player(s), points=200)
    s = act(s, Invent("underped", 1))
    thing = s.things[-1].id
    s = act(act(s, Research(thing, "boom", 5)), Research(thing, "fail", 5))
    s = act(s, Build(thing, count))
    items = [i.id for i in s.items if i.thing_id == thing]
    systems = [d.id for d in s.derps if d.system in items]
    for d in systems:
        if program_points:
            s = act(s, Program(d, program_points))
    return s, items, systems


def hardware(s, p, mods=("capsule", "thruster")):
    """Ready-made stages, capsule and thruster rated 15/18 (the rest of a craft)."""
    s, _, stages = give_thing(s, R, p, "lower_stage", 60, "15/18", count=3)
    modules = []
    for kind in mods:
        mass = {"capsule": 14, "habitat": 4, "thruster": 4}.get(kind, 1)
        s, _, it = give_thing(s, R, p, kind, mass, "15/18", count=1)
        modules += it
    s = give_stock(s, p, fuel=40, rations=40)
    return s, ((stages[0], stages[1]), (stages[2],)), tuple(modules)


def robot_craft(options=UNDERPED, program_points=2, derps=(), extra=(), fuel=10, rations=0):
    """Turn 1 of a one-program game: a craft flown by one underped system (plus ``derps``: (p, e, s) each),
    assembled and on the pad, R&D still open. Returns (state, design, system derp id, derp ids)."""
    s = new_game(options)
    s, items, systems = build_systems(s, 1, program_points)
    s, stages, modules = hardware(s, 0, ("capsule", "thruster") + tuple(extra))
    crew = []
    for i, (pi, en, st) in enumerate(derps):
        s, d = give_derp(s, 0, f"Pilot{i}", pi, en, st)
        crew.append(d)
    design = UpgoerDesign("Robo", stages=stages, modules=modules + tuple(items), crew=tuple(crew), fuel=fuel,
                          rations=rations)
    report = E.check_design(s, 0, design)
    assert report.valid, report.problems
    s = act(s, Assemble(design))
    return s, design, systems[0], crew


def settle(s):
    """Accept a rolled result that waits for the owner's choices (luck, skills), if one does."""
    if s.phase == "flight" and s.flight.roll is not None and s.flight.roll.value is not None:
        return act(s, AcceptRoll())
    return s


def craft(s, name="Robo"):
    return next(u for u in s.upgoers if u.name == name)


DEFAULT = (Launch, EndActivities, Move, Coast, AcceptRoll, EndRnD)


def auto(s, until, value=OK, limit=400):
    """Play the obvious choice (launch, move on, coast, accept, end) and roll ``value`` until ``until(s)``."""
    for _ in range(limit):
        if until(s):
            return s
        s = play_default(s, value)
    raise AssertionError("the condition was never reached")


def play_default(s, value=OK):
    """One step of ``auto``: a die rolled ``value``, or the first obvious choice (``DEFAULT``)."""
    p = E.current_player(s)
    assert p != TERMINAL, "the game ended"
    if p == CHANCE:
        return E.apply(s, Roll(value))
    legal = E.legal_actions(s)
    for kind in DEFAULT:
        found = [a for a in legal if isinstance(a, kind)]
        if found:
            return E.apply(s, found[0])
    raise AssertionError(f"no default among {legal}")


def rolling(kind):
    return lambda s: (s.phase == "flight" and s.flight.roll is not None and s.flight.roll.value is None
                      and s.flight.roll.kind == kind)


def at(mode, name="Robo"):
    def check(s):
        f = s.flight
        return (s.phase == "flight" and f is not None and f.roll is None and f.choice is None
                and f.active is not None and s.upgoer(f.active).name == name and f.mode == mode)
    return check


def in_orbit(s):
    """From R&D with the craft on the pad: launch, power up (roll 1) and reach Low Orbit 1, stopping at the
    activities after moving."""
    s = act(s, EndRnD())
    s = act(s, Launch(craft(s).id))
    s = roll(s, OK)  # the launch stage
    assert rolling("power_up")(s)
    s = roll(s, OK)  # the system powers up
    s = auto(s, at("after"))
    assert craft(s).location == "low_1"
    return s


def entries(s, p=0):
    return [(e.reason, e.dots) for e in s.programs[p].dot_entries]


# ====================================================================== the option and R&D
def test_without_the_option_no_underped_system_can_be_invented():
    s = give_stock(new_game(options=()), 0, points=50)
    illegal(s, Invent("underped", 1), "optional rule 'Underped craft'")
    illegal(s, Invent("generator", 1), "optional rule")
    assert not any(isinstance(a, Invent) and a.kind in ("underped", "generator") for a in E.legal_actions(s))


def test_a_built_system_is_a_part_of_mass_1_and_a_crew_member_with_a_derps_starting_stats():
    s, items, systems = build_systems(new_game())
    system = s.derp(systems[0])
    thing = s.thing(s.item(items[0]).thing_id)
    assert thing.mass == 1 and str(thing.rating) == "6/10"
    derps = R.economy.derps
    assert (system.piloting, system.engineering, system.stamina) == (derps.start_piloting, derps.start_engineering,
                                                                     derps.start_stamina)
    assert system.system == items[0] and system.powered_down and system.location is HOME


def test_a_system_is_programmed_one_stamina_per_point_and_never_trained():
    s, _, systems = build_systems(new_game())
    d = systems[0]
    points = s.programs[0].points
    s = act(s, Program(d, 2))
    assert s.derp(d).stamina == s.derp(d).current_stamina == R.economy.derps.start_stamina + 2
    assert s.programs[0].points == points - 2 and s.derp(d).busy is None  # not grounded like training
    illegal(s, Train(d, "piloting", 1), "programmed, not trained")


def test_programming_is_allowed_at_the_last_minute_aboard_a_craft_on_the_pad():
    s, _, system, _ = robot_craft(program_points=0)
    assert s.derp(system).location == craft(s).id and craft(s).status == "pad"
    assert Program(system, 1) in E.legal_actions(s)
    s = act(s, Program(system, 1))
    assert s.derp(system).current_stamina == R.economy.derps.start_stamina + 1


def test_a_system_sits_in_a_capsule_as_a_part_and_cannot_be_crew_on_its_own():
    s, items, systems = build_systems(new_game())
    s, stages, modules = hardware(s, 0, ("thruster",))
    no_capsule = UpgoerDesign("Bare", stages=stages, modules=modules + tuple(items))
    assert any("must ride in a capsule" in p for p in E.check_design(s, 0, no_capsule).problems)
    s, stages, capsule = hardware(s, 0, ("capsule",))
    as_crew = UpgoerDesign("Odd", stages=stages, modules=capsule, crew=tuple(systems))
    assert any("load it as a part" in p for p in E.check_design(s, 0, as_crew).problems)
    good = UpgoerDesign("Good", stages=stages, modules=capsule + tuple(items))
    s = act(s, Assemble(good))
    assert craft(s, "Good").crew == tuple(systems)


# ====================================================================== powering up
def test_after_liftoff_the_system_checks_its_reliability_to_power_up():
    s, _, system, _ = robot_craft()
    s = act(s, EndRnD())
    s = act(s, Launch(craft(s).id))
    s = roll(s, OK)
    roll_ = s.flight.roll
    assert roll_.kind == "power_up" and roll_.items == (s.derp(system).system,) and str(roll_.rating) == "6/10"
    s = roll(s, OK)
    assert not s.derp(system).powered_down


def test_a_failed_power_up_leaves_the_system_down_and_the_craft_unsteerable():
    s, _, system, _ = robot_craft()
    s = act(s, EndRnD())
    s = act(s, Launch(craft(s).id))
    s = roll(roll(s, OK), S_FAIL)
    s = settle(s)
    assert s.derp(system).powered_down and not s.derp(system).dead
    assert not E.flight_rules.can_steer(s, craft(s))


def test_a_power_up_boom_destroys_the_system_and_strands_the_craft():
    s, _, system, _ = robot_craft()
    s = act(s, EndRnD())
    s = act(s, Launch(craft(s).id))
    s = roll(roll(s, OK), S_BOOM)
    s = settle(s)
    assert s.derp(system).dead and craft(s).stranded
    assert s.derp(system).system not in craft(s).modules
    assert s.programs[0].derps_lost == 0 and not any("lost" in reason for reason, _ in entries(s))


# ====================================================================== flying without derps
def test_an_underped_craft_reaches_orbit_without_a_derp_aboard():
    s, _, system, _ = robot_craft()
    s = in_orbit(s)
    assert craft(s).status == "flying" and craft(s).location == "low_1"
    assert not any(not d.is_system for d in s.derps if d.location == craft(s).id)


def test_a_burn_costs_the_system_a_stamina_point_whether_or_not_it_works():
    s, _, system, _ = robot_craft(program_points=2)  # 4 stamina
    s = in_orbit(s)
    s = auto(s, at("junction"))  # turn 2, Low orbit burn 1
    assert s.turn == 2 and s.derp(system).current_stamina == 4
    s = act(s, Burn("high_transfer"))
    assert s.derp(system).current_stamina == 3
    s = roll(s, FAIL)
    s = settle(s)  # the system has no Piloting to spend on it
    assert s.flight.mode == "junction"
    s = act(s, Burn("high_transfer"))  # retry: another point
    assert s.derp(system).current_stamina == 2


def test_a_system_out_of_stamina_cannot_burn():
    s, _, system, _ = robot_craft(program_points=0)  # 2 stamina
    s = in_orbit(s)
    s = auto(s, at("junction"))
    s = act(s, Burn("high_transfer"))
    s = settle(roll(s, FAIL))
    s = act(s, Burn("high_transfer"))
    s = settle(roll(s, FAIL))
    assert s.derp(system).current_stamina == 0
    assert not E.flight_rules.can_steer(s, craft(s))
    illegal(s, Burn("high_transfer"), "no one aboard Robo can act")


def test_any_other_action_costs_a_stamina_point_too():
    s, _, system, _ = robot_craft(program_points=2)
    s = in_orbit(s)
    before = s.derp(system).current_stamina
    s = act(s, Shed(fuel=1))
    assert s.derp(system).current_stamina == before - 1 and craft(s).fuel == 9


def test_a_system_has_a_new_derps_skills_so_it_cannot_move_a_failed_burn():
    s, _, system, _ = robot_craft(program_points=2)
    s = in_orbit(s)
    s = auto(s, at("junction"))
    s = act(s, Burn("high_transfer"))
    s = roll(s, FAIL)
    assert s.derp(system).piloting == R.economy.derps.start_piloting == 0
    assert E.refusal(s, UseSkill(system, "piloting")) is not None  # nothing to give, and it is not trained
    assert s.flight.roll is None and s.flight.mode == "junction"  # the Fail settled at once: no help to offer


def test_a_system_stays_in_its_capsule():
    s, _, system, crew = robot_craft(derps=((2, 0, 3),), extra=("eva_pack",))
    s = in_orbit(s)
    illegal(s, Eva(system, craft(s).id), "stays in its capsule")


def test_a_system_eats_no_rations():
    s, _, system, _ = robot_craft(rations=0)
    s = in_orbit(s)
    s = auto(s, lambda x: x.phase == "rnd" and x.turn == 2)
    assert not s.derp(system).dead and not s.derp(system).powered_down
    assert craft(s).crewed_turns == 1


# ====================================================================== injuries and deaths
def test_a_reentry_fail_powers_the_system_down_and_it_comes_home_at_no_cost():
    s, _, system, _ = robot_craft(program_points=2)
    s = in_orbit(s)
    s = auto(s, at("junction"))
    s = act(s, Burn("reentry"))
    s = roll(s, OK)  # the deorbit burn
    assert rolling("reentry")(s)
    s = settle(roll(s, FAIL))  # what would injure a derp
    assert s.derp(system).powered_down and not s.derp(system).injured
    s = settle(roll(s, OK))  # landing
    assert craft(s).status == "landed"
    assert s.derp(system).location is HOME and s.derp(system).powered_down and not s.derp(system).dead
    assert s.item(s.derp(system).system).location is HOME


def test_what_would_kill_a_derp_destroys_the_system_at_no_cost():
    s, _, system, _ = robot_craft(program_points=2)
    s = in_orbit(s)
    s = auto(s, at("junction"))
    s = act(s, Burn("reentry"))
    s = roll(s, OK)
    s = settle(roll(s, BOOM))  # the capsule's reentry Boom kills a crew
    assert s.derp(system).dead and s.derp(system).system not in {i.id for i in s.items}
    s = auto(s, lambda x: x.phase == "rnd")
    report = next(e.text for e in s.events if e.kind == "report")
    assert "lost" not in report and s.programs[0].derps_lost == 0


def test_a_second_injury_leaves_a_powered_down_system_down_not_destroyed():
    s, _, system, _ = robot_craft(program_points=2)
    s = in_orbit(s)
    s = auto(s, at("junction"))
    s = act(s, Burn("reentry"))
    s = roll(s, OK)
    s = settle(roll(s, FAIL))  # reentry: powered down
    s = settle(roll(s, FAIL))  # landing: would injure again
    assert craft(s).status == "landed" and not s.derp(system).dead and s.derp(system).powered_down


# ====================================================================== powering down and up on purpose
def test_a_system_powered_down_in_a_stable_orbit_skips_the_duration_rolls():
    s, _, system, _ = robot_craft(program_points=2)
    s = in_orbit(s)
    s = act(s, PowerDown(system))
    assert s.derp(system).powered_down
    s = act(s, EndActivities(craft(s).id))
    s = auto(s, lambda x: x.phase == "rnd" and x.turn == 2)
    s = act(s, EndRnD())
    # Turn 2: unsteerable, it drifts on to Low Orbit 2 and ends its move there: no capsule roll.
    s = auto(s, at("before"))
    s = act(s, Move(craft(s).id))
    assert craft(s).location == "low_2" and s.flight.roll is None and s.flight.rolls == ()


def test_powering_up_again_needs_stamina_left_a_check_and_a_stamina_point():
    s, _, system, _ = robot_craft(program_points=2)  # 4 stamina
    s = in_orbit(s)
    s = act(s, PowerDown(system))
    s = act(s, PowerUp(system))
    assert s.derp(system).current_stamina == 3 and s.flight.roll.kind == "power_up"
    s = roll(s, S_FAIL)
    s = settle(s)
    assert s.derp(system).powered_down
    s = act(s, PowerUp(system))
    s = roll(s, OK)
    assert not s.derp(system).powered_down and s.derp(system).current_stamina == 2


def test_a_system_with_no_stamina_cannot_power_up():
    s, _, system, _ = robot_craft(program_points=0)  # 2 stamina
    s = in_orbit(s)
    s = act(s, PowerDown(system))
    s = act(s, PowerUp(system))
    s = settle(roll(s, S_FAIL))
    s = act(s, PowerUp(system))
    s = settle(roll(s, S_FAIL))
    assert s.derp(system).current_stamina == 0
    illegal(s, PowerUp(system), "needs 1 stamina left")


# ====================================================================== out of stamina
def test_out_of_stamina_an_underped_craft_may_self_destruct():
    s, _, system, _ = robot_craft(program_points=0)
    s = in_orbit(s)
    illegal(s, SelfDestruct(craft(s).id), "can no longer act")
    s = act(s, Shed(fuel=1))
    s = act(s, Shed(fuel=1))
    assert s.derp(system).current_stamina == 0
    s = act(s, SelfDestruct(craft(s).id))
    assert craft(s).status == "destroyed" and s.derp(system).dead
    report = next(e.text for e in s.events if e.kind == "report")  # the turn has ended: its budget report
    assert "lost" not in report and s.programs[0].derps_lost == 0  # losing a system costs no dots


def test_out_of_stamina_it_may_instead_stay_stranded():
    s, _, system, _ = robot_craft(program_points=0)
    s = in_orbit(s)
    s = act(act(s, Shed(fuel=1)), Shed(fuel=1))
    s = act(s, EndActivities(craft(s).id))
    s = auto(s, lambda x: x.phase == "rnd" and x.turn == 2)
    assert craft(s).status == "flying" and not E.flight_rules.can_steer(s, craft(s))


def test_a_derp_gives_a_system_stamina():
    s, _, system, crew = robot_craft(program_points=0, derps=((1, 1, 4),))
    s = in_orbit(s)
    s = act(s, Shed(fuel=1))  # the derp flies this craft: shedding costs the system nothing
    assert s.derp(system).current_stamina == 2
    s = act(s, PowerDown(system))
    s = act(s, PowerUp(system))
    s = settle(roll(s, S_FAIL))
    s = act(s, PowerUp(system))
    s = settle(roll(s, S_FAIL))
    assert s.derp(system).current_stamina == 0
    s = act(s, GiveStamina(crew[0], system))
    assert s.derp(system).current_stamina == 1 and s.derp(crew[0]).current_stamina == 3
    s = act(s, PowerUp(system))
    s = roll(s, OK)
    assert not s.derp(system).powered_down and s.derp(system).current_stamina == 0


# ====================================================================== prestige
def test_firsts_won_by_an_underped_craft_pay_half_rounded_up():
    s, _, system, _ = robot_craft()
    s = in_orbit(s)
    s = auto(s, lambda x: x.phase == "rnd" and x.turn == 2)
    report = next(e.text for e in s.events if e.kind == "report")
    assert "Prestige First - mission step (Low Orbit) +1" in report  # 1 dot: half rounded up is 1
    assert "Prestige First - multi-turn mission +1" in report  # 2 dots: half is 1
    assert "Prestige First - orbit type (Low orbit) +1" in report


def test_a_craft_with_a_derp_and_a_system_wins_the_full_first():
    s, _, system, crew = robot_craft(derps=((1, 1, 4),), rations=4)
    s = in_orbit(s)
    s = auto(s, lambda x: x.phase == "rnd" and x.turn == 2)
    report = next(e.text for e in s.events if e.kind == "report")
    assert "Prestige First - multi-turn mission +2" in report
    assert "Prestige First - multi-derp mission +2" in report  # the system counts as a crew member


# ====================================================================== clockwork
CLOCKWORK = ("underped", "underped_clockwork")


def clockwork_at_first_burn(orders=("high_transfer",)):
    """A clockwork craft with written orders, in orbit, at the first burn junction of turn 2."""
    s, _, system, _ = robot_craft(options=CLOCKWORK, program_points=3)  # 5 stamina
    s = act(s, WriteOrders(craft(s).id, orders))
    assert craft(s).orders == orders
    s = in_orbit(s)
    s = auto(s, at("junction"))
    assert craft(s).location == "low_burn_1"
    return s, system


def test_clockwork_needs_the_underped_rules():
    with pytest.raises(Exception, match="needs Underped craft too"):
        E.new_game(Setup((PlayerSetup("Hop", "rabitians"),), options=frozenset({"underped_clockwork"})))


def test_orders_are_written_on_the_pad_and_only_with_clockwork():
    s, _, system, _ = robot_craft(options=UNDERPED)
    illegal(s, WriteOrders(craft(s).id, ("high_transfer",)), "clockwork")
    s, _, system, _ = robot_craft(options=CLOCKWORK)
    illegal(s, WriteOrders(craft(s).id, ("nowhere",)), "not a place a burn leads to")
    s = act(s, WriteOrders(craft(s).id, ("high_transfer", "reentry")))
    assert craft(s).orders == ("high_transfer", "reentry")
    assert "High" in s.events[-1].text


def test_a_clockwork_craft_must_make_its_written_burn_and_no_other():
    s, system = clockwork_at_first_burn()
    illegal(s, Coast(), "must make its written burn")
    illegal(s, Burn("reentry"), "its next order is to burn to High Transfer")
    s = act(s, Burn("high_transfer"))
    s = roll(s, OK)
    assert craft(s).orders == () and craft(s).location != "low_burn_1"


def test_when_a_written_burn_fails_the_craft_may_retry():
    s, system = clockwork_at_first_burn()
    s = settle(roll(act(s, Burn("high_transfer")), FAIL))
    assert s.flight.mode == "junction" and craft(s).orders == ("high_transfer",)
    illegal(s, Coast(), "must make its written burn")
    assert Burn("high_transfer") in E.legal_actions(s) and AbortOrders(craft(s).id) in E.legal_actions(s)
    s = roll(act(s, Burn("high_transfer")), OK)  # the retry works
    assert craft(s).orders == ()


def test_when_a_written_burn_fails_the_craft_may_abort_and_only_coast():
    s, system = clockwork_at_first_burn(("high_transfer", "reentry"))
    s = settle(roll(act(s, Burn("high_transfer")), FAIL))
    s = act(s, AbortOrders(craft(s).id))
    assert craft(s).orders == () and craft(s).orders_aborted
    illegal(s, Burn("high_transfer"), "no order left")
    s = act(s, Coast())
    assert craft(s).location == "low_2"


def test_clockwork_leaves_a_craft_with_a_derp_aboard_free():
    s, _, system, crew = robot_craft(options=CLOCKWORK, derps=((1, 1, 4),), rations=4)
    s = in_orbit(s)
    s = auto(s, at("junction"))
    assert Coast() in E.legal_actions(s) and Burn("high_transfer") in E.legal_actions(s)


# ====================================================================== the generator
def generator_craft(options=UNDERPED):
    """A craft of one system (4 stamina) with a generator at 6/10 (invented, researched and built for real)."""
    s = new_game(options)
    s, items, systems = build_systems(s, 1, 2)
    s = act(s, Invent("generator", 1))
    gen_thing = s.things[-1].id
    s = act(act(s, Research(gen_thing, "boom", 5)), Research(gen_thing, "fail", 5))  # 6/10, like the system
    s = act(s, Build(gen_thing, 1))
    generator = s.items[-1].id
    s, stages, modules = hardware(s, 0)
    design = UpgoerDesign("Robo", stages=stages, modules=modules + tuple(items) + (generator,), fuel=10)
    s = act(s, Assemble(design))
    return s, systems[0], generator


def test_a_generator_rolls_like_a_habitat_and_recharges_the_systems_each_turn():
    s, system, generator = generator_craft()
    s = act(s, EndRnD())
    s = act(s, Launch(craft(s).id))
    s = roll(roll(s, OK), OK)  # launch, power up
    s = roll(s, OK)  # orbital insertion
    assert rolling("duration_capsule")(s)
    s = roll(s, OK)
    assert rolling("duration_habitat")(s) and s.flight.roll.items == (generator,)
    s = roll(s, OK)
    s = act(s, Shed(fuel=1))  # one point spent
    assert s.derp(system).current_stamina == 3
    s = auto(s, lambda x: x.phase == "rnd" and x.turn == 2)
    assert s.derp(system).current_stamina == 4
    assert any("generator aboard Robo recharges" in e.text for e in s.events)


def test_a_failed_generator_roll_gives_no_recharge_that_turn():
    s, system, generator = generator_craft()
    s = act(s, EndRnD())
    s = act(s, Launch(craft(s).id))
    s = roll(roll(roll(roll(s, OK), OK), OK), OK)  # launch, power up, insertion, capsule
    s = settle(roll(s, S_FAIL))  # the generator's duration roll (6/10)
    s = act(s, Shed(fuel=1))
    s = auto(s, lambda x: x.phase == "rnd" and x.turn == 2)
    assert s.derp(system).current_stamina == 3


def test_without_a_generator_a_system_recovers_nothing_in_space():
    s, _, system, _ = robot_craft(program_points=2)
    s = in_orbit(s)
    s = act(s, Shed(fuel=1))
    s = auto(s, lambda x: x.phase == "rnd" and x.turn == 2)
    assert s.derp(system).current_stamina == 3


def moon_robot(options=UNDERPED + ("underped_clockwork",), victory="most_dots", payloads=()):
    """A clockwork craft of one system programmed to 7 stamina: a capsule of mass 4 and a thruster of mass 2
    (thrust enough to land on the Moon), 10 fuel, ordered out to the Moon, down on it, up again and home. On the
    pad, R&D still open. ``payloads``: kinds of payload (mass 1) carried besides."""
    s = new_game(options, victory=victory)
    s, items, systems = build_systems(s, 1, program_points=5)
    s, _, stages = give_thing(s, R, 0, "lower_stage", 60, "15/18", count=3)
    s, _, (capsule,) = give_thing(s, R, 0, "capsule", 4, "15/18", count=1)
    s, _, (thruster,) = give_thing(s, R, 0, "thruster", 2, "15/18", count=1)
    for kind in payloads:
        s, _, it = give_thing(s, R, 0, kind, 1, "15/18", count=1)
        items = items + list(it)
    s = give_stock(s, 0, fuel=40)
    s = act(s, Assemble(UpgoerDesign("Robo", stages=((stages[0], stages[1]), (stages[2],)),
                                     modules=(capsule, thruster) + tuple(items), fuel=10)))
    s = act(s, WriteOrders(craft(s).id, MOON_ORDERS))
    return s, systems[0]


# Out by the synchronous orbit, trans-lunar injection, lunar orbit insertion, the landing burn, the lunar
# takeoff and the trans-world injection (then a coast into reentry past the capture burn).
MOON_ORDERS = ("high_transfer", "lunar_transfer", "low_lunar_1", "lunar_landing", "low_lunar_3", "return_transit")


def follow_orders(s, until, limit=2000):
    """``auto`` for a clockwork craft: at a junction that offers its next written burn, it makes it."""
    for _ in range(limit):
        if until(s):
            return s
        if s.phase == "flight" and s.flight.mode == "junction" and E.current_player(s) not in (CHANCE, TERMINAL):
            u = s.upgoer(s.flight.active)
            burn = Burn(u.orders[0]) if u.orders else None
            if burn is not None and burn in E.legal_actions(s):
                s = act(s, burn)
                continue
        s = play_default(s)
    raise AssertionError("the condition was never reached")


def test_a_clockwork_robot_craft_flies_to_the_moon_and_home_and_wins_the_landing_first_at_a_share():
    """A craft of robots may land on the Moon and win "First crew to land on the Moon and come home" at a share
    ("firsts and milestones won with it give half the bonus, rounded up"): every burn written on the pad and
    made as written, every die a 1, each turn's flights played through the Engine. The round trip takes six
    burns, a stamina point each ("spends 1 Stamina on ANY action, burns included"), and no generator gives any
    back: programmed to 7 ("+1 Stamina per resource point") the system comes home with one to spare."""
    s, system = moon_robot()
    assert s.derp(system).current_stamina == 7
    s = act(s, EndRnD())
    s = follow_orders(s, lambda x: craft(x).location == "lunar_surface")
    u = craft(s)
    assert u.bodies_landed == ("moon",) and u.orders == ("low_lunar_3", "return_transit")
    assert s.derp(system).current_stamina == 3 and u.fuel == 2  # four burns made, two to go
    assert any(e.text == "Robo touches down: Lunar Landing!" for e in s.events)
    s = follow_orders(s, rolling("landing"))  # through reentry: the capsule's touchdown roll is next
    assert s.derp(system).current_stamina == 1 and craft(s).fuel == 0
    turn = s.turn
    s = roll(s, OK)  # home: the turn's last flight, so the turn ends and its report is told
    u = craft(s)
    assert u.status == "landed" and u.orders == () and u.fuel == 0
    assert s.derp(system).powered_down  # a system is powered down on the ground
    first = next(f for f in R.prestige.firsts if f.trigger == "moon_landing_and_return")
    share = -(-first.dots // 2)  # 5 dots: half, rounded up, is 3
    assert (first.id, 0) in s.firsts
    told = [e.text for e in s.events if e.kind == "prestige" and e.text.startswith(first.name)]
    assert told == [f"{first.name}: Hop is first by an underped craft! (Robo lands on The Moon and comes home) "
                    f"+{share} dots at the end of the turn."]
    report = next(e.text for e in s.events if e.kind == "report" and e.text.startswith(f"End of turn {turn}"))
    assert f"{first.name} +{share}" in report


def test_robots_that_land_on_the_temples_moon_spot_it_as_robots():
    """Final Destination: a craft landing on the Moon "looks for it, a roll against the map", and a craft of
    robots looks too (its systems count as the crew); when it is found the story tells of the robots. The
    mapping payload aboard maps 5% of the Moon at each first orbit (synchronous, low lunar), so 10% is mapped:
    a roll of 1 finds it."""
    s, _ = moon_robot(victory="moon_temple", payloads=("mapping",))
    s = act(s, EndRnD())
    s = follow_orders(s, rolling("temple_search"))
    assert s.programs[0].mapped("moon") == 10 and s.flight.roll.rating.fail == 3
    s = roll(s, OK)
    assert craft(s).temple_found
    assert "Robo's robots spot the Temple on the horizon!" in [e.text for e in s.events]


def test_two_robots_win_the_multi_derp_first_told_as_robots():
    """The multi-derp mission counts the systems aboard as crew ("counts as a derp"), and its first is told of
    what flies: two robots (at a share), or a derp and a robot (a derp aboard: the whole first)."""
    first = next(f for f in R.prestige.firsts if f.trigger == "multiderp_mission")
    for derps, told, dots in (((), "Robo flies 2 robots", -(-first.dots // 2)),
                              (((1, 0, 3),), "Robo flies 1 derp and 1 robot", first.dots)):
        s = new_game()
        s, items, _ = build_systems(s, 2 - len(derps), program_points=2)
        s, stages, modules = hardware(s, 0)
        crew = []
        for i, (pi, en, st) in enumerate(derps):
            s, d = give_derp(s, 0, f"Pilot{i}", pi, en, st)
            crew.append(d)
        s = act(s, Assemble(UpgoerDesign("Robo", stages=stages, modules=modules + tuple(items), crew=tuple(crew),
                                         fuel=10, rations=2 * len(crew))))
        s = act(s, EndRnD())
        s = act(s, Launch(craft(s).id))
        s = roll(s, OK)  # the launch stage: clear of the tower, the crew counted
        assert (first.name, dots) in entries(s)
        assert any(e.kind == "prestige" and e.text.startswith(first.name) and f"({told})" in e.text
                   for e in s.events), told


def test_2013_a_launch_boom_knocks_a_robot_crafts_robots_out_and_sends_the_capsule_to_landing():
    """2013: 'Unless you have an escape tower, assume a failed capsule reentry (derps injured) and immediately
    roll for capsule landing'. What would injure a derp powers a system down ("temporarily stranded"): the story
    tells of robots knocked out, not of a crew hurt."""
    from game.games.whatgoesup.rules.editions import load_edition

    e13 = Engine(load_edition("2013"))
    s = e13.new_game(Setup((PlayerSetup("Hop", "rabitians"),), turn_limit=20, options=frozenset(UNDERPED)))
    s = give_stock(s, 0, points=200, fuel=40)
    s = e13.apply(s, Invent("underped", 1))
    thing = s.things[-1].id
    s = e13.apply(e13.apply(s, Research(thing, "boom", 5)), Research(thing, "fail", 5))
    s = e13.apply(s, Build(thing, 1))
    system = next(d for d in s.derps if d.is_system)
    s, _, stages = give_thing(s, e13.rules, 0, "lower_stage", 60, "15/18", count=3)
    s, _, (capsule,) = give_thing(s, e13.rules, 0, "capsule", 14, "15/18", count=1)
    s, _, (thruster,) = give_thing(s, e13.rules, 0, "thruster", 4, "15/18", count=1)
    s = e13.apply(s, Assemble(UpgoerDesign("Robo", stages=((stages[0], stages[1]), (stages[2],)),
                                           modules=(capsule, thruster, system.system), fuel=10)))
    s = e13.apply(s, EndRnD())
    s = e13.apply(s, Launch(craft(s).id))
    s = e13.apply(s, Roll(BOOM))  # the launch stage Booms
    u = craft(s)
    # The system sits in the capsule, so it is flung clear with it (before, its part blew up with the rest).
    assert s.flight.roll.kind == "landing" and u.modules == (capsule, system.system) and u.stages == ()
    assert s.derp(system.id).powered_down and not s.derp(system.id).dead
    assert ("Robo's rocket blows up and flings the capsule clear: its robots are knocked out as in a failed "
            "reentry, and it falls straight to landing.") in [e.text for e in s.events]
    s = e13.apply(s, Roll(OK))  # the capsule lands
    assert craft(s).status == "landed" and s.item(system.system).location == HOME
    assert s.derp(system.id).location == HOME and not s.derp(system.id).dead


def test_an_escape_tower_pulls_a_robot_clear_in_its_capsule():
    """"If the capsule was carrying an escape tower (Probe payload) and the escape tower works properly, the
    capsule may proceed to Reentry": the system that sits in it comes too, as a derp would, and lands."""
    s, _, system, _ = robot_craft(extra=("probe",))
    s = act(s, EndRnD())
    s = act(s, Launch(craft(s).id))
    s = roll(roll(s, OK), OK)  # the launch stage, the power-up check
    assert rolling("orbital_insertion")(s)
    s = settle(roll(s, BOOM))
    assert rolling("escape_tower")(s)
    s = roll(s, OK)
    part = s.derp(system).system
    assert part in craft(s).modules and not s.derp(system).dead
    s = auto(s, lambda x: craft(x).status != "flying")
    assert craft(s).status == "landed" and s.item(part).location == HOME and not s.derp(system).dead


# ====================================================================== clockwork: rewritten at a recharge
def test_a_generator_recharge_in_flight_opens_the_orders_for_the_next_rnd():
    """"Written down at launch (or recharge)": the generator recharges the system at the end of turn 1, so in
    turn 2's R&D the owner rewrites the flying craft's orders, and it then follows the new ones."""
    s, system, generator = generator_craft(CLOCKWORK)
    s = act(s, WriteOrders(craft(s).id, ("shed:fuel", "high_transfer")))
    s = act(s, EndRnD())
    s = act(s, Launch(craft(s).id))
    s = roll(roll(roll(roll(roll(s, OK), OK), OK), OK), OK)  # launch, power up, insertion, capsule, generator
    s = act(s, Shed(fuel=1))  # the written order; one stamina spent: 3 of 4
    assert s.derp(system).current_stamina == 3 and not craft(s).orders_open
    assert craft(s).orders == ("high_transfer",)
    s = auto(s, lambda x: x.phase == "rnd" and x.turn == 2)
    assert s.derp(system).current_stamina == 4 and craft(s).status == "flying" and craft(s).orders_open
    assert any("Robo is recharged: its owner may rewrite its orders" in e.text for e in s.events)
    s = act(s, WriteOrders(craft(s).id, ("reentry",)))
    assert craft(s).orders == ("reentry",) and "Reentry" in s.events[-1].text
    s = act(s, EndRnD())
    assert not craft(s).orders_open  # closed once flights begin
    s = auto(s, at("junction"))
    assert craft(s).location == "low_burn_1"
    illegal(s, Burn("high_transfer"), "its next order is to burn to Reentry")
    illegal(s, Coast(), "must make its written burn to Reentry")
    s = roll(act(s, Burn("reentry")), OK)
    assert craft(s).orders == ()


def test_a_flying_clockwork_craft_without_a_recharge_keeps_its_orders():
    s, _, system, _ = robot_craft(options=CLOCKWORK)
    s = act(s, WriteOrders(craft(s).id, ("shed:fuel", "high_transfer")))
    s = in_orbit(s)
    s = act(s, Shed(fuel=1))  # written; stamina spent, and no generator to give it back
    s = auto(s, lambda x: x.phase == "rnd" and x.turn == 2)
    assert craft(s).status == "flying" and not craft(s).orders_open
    illegal(s, WriteOrders(craft(s).id, ("reentry",)), "rewritten only after its robots are recharged")
    assert craft(s).orders == ("high_transfer",)


def test_a_generator_recharge_opens_no_orders_without_clockwork():
    s, system, generator = generator_craft()
    s = act(s, EndRnD())
    s = act(s, Launch(craft(s).id))
    s = roll(roll(roll(roll(roll(s, OK), OK), OK), OK), OK)
    s = act(s, Shed(fuel=1))
    s = auto(s, lambda x: x.phase == "rnd" and x.turn == 2)
    assert s.derp(system).current_stamina == 4 and not craft(s).orders_open
    illegal(s, WriteOrders(craft(s).id, ("reentry",)), "rewritten only after")


# ====================================================================== clockwork: every action written
def waylight_clockwork(orders):
    """A clockwork craft carrying a Waylight (15/18), ``orders`` written on the pad (a callable of the system and
    the Waylight), stopped at its activities in Low Orbit 1."""
    s, _, system, _ = robot_craft(options=CLOCKWORK, extra=("waylight",))
    waylight = next(i.id for i in s.items if s.thing(i.thing_id).kind == "waylight")
    s = act(s, WriteOrders(craft(s).id, orders(system, waylight)))
    return in_orbit(s), system, waylight


def test_clockwork_orders_name_the_craft_s_other_actions_and_they_are_taken_in_order():
    s, system, waylight = waylight_clockwork(lambda d, w: (f"use:{w}", f"power_down:{d}"))
    assert s.derp(system).current_stamina == 4
    illegal(s, PowerDown(system), "its next order is to use Waylight")  # out of order
    illegal(s, EndActivities(craft(s).id), "must first use Waylight")  # it can be done now, so it is
    illegal(s, Shed(fuel=1), "its next order is to use Waylight")  # not written at all
    s = act(s, UsePayload(system, waylight))
    assert craft(s).orders == (f"power_down:{system}",) and s.derp(system).current_stamina == 3
    s = settle(roll(s, FAIL))  # a failed payload is crossed off all the same: only a burn may be retried
    assert craft(s).orders == (f"power_down:{system}",)
    assert [a for a in E.legal_actions(s) if not isinstance(a, WriteOff)] == [PowerDown(system)]
    s = act(s, PowerDown(system))
    assert craft(s).orders == () and s.derp(system).powered_down
    illegal(s, PowerUp(system), "it has no order left")
    s = act(s, EndActivities(craft(s).id))


def test_a_clockwork_craft_with_no_order_left_takes_no_action_but_moves_on():
    s, system, waylight = waylight_clockwork(lambda d, w: ())
    illegal(s, UsePayload(system, waylight), "it has no order left")
    illegal(s, Shed(fuel=1), "it has no order left")
    illegal(s, PowerDown(system), "it has no order left")
    s = act(s, EndActivities(craft(s).id))


def test_written_orders_mix_burns_and_actions_and_keep_the_burn_s_retry_branch():
    s, system, waylight = waylight_clockwork(lambda d, w: ("shed:fuel", "high_transfer", f"use:{w}"))
    illegal(s, Burn("high_transfer"), "next order")
    s = act(s, Shed(fuel=1))
    assert craft(s).orders == ("high_transfer", f"use:{waylight}")
    s = act(s, EndActivities(craft(s).id))  # the written burn is not offered here: the craft may end its turn
    s = auto(s, at("junction"))
    s = settle(roll(act(s, Burn("high_transfer")), FAIL))
    assert craft(s).orders == ("high_transfer", f"use:{waylight}")
    s = roll(act(s, Burn("high_transfer")), OK)  # the retry
    assert craft(s).orders == (f"use:{waylight}",)


def test_orders_are_checked_when_written():
    s, _, system, _ = robot_craft(options=CLOCKWORK)
    illegal(s, WriteOrders(craft(s).id, ("fly:away",)), "not something a robot can be ordered to do")
    illegal(s, WriteOrders(craft(s).id, ("use:I999",)), "not a part aboard Robo")
    illegal(s, WriteOrders(craft(s).id, ("power_down:D999",)), "not an underped system aboard Robo")
    s = act(s, WriteOrders(craft(s).id, (f"power_down:{system}", "shed:fuel")))
    assert s.events[-1].text.endswith("power Carrot underped system Mk1 no. 1 down, then shed a point of fuel.")


# ====================================================================== nothing to shield them
@pytest.mark.parametrize("robots, derps, who", [(1, 0, "the robots"), (1, 1, "the crew and robots"),
                                                (0, 1, "the crew")])
def test_with_nothing_to_shield_them_robots_are_named_as_robots(rules_dir, robots, derps, who):  # noqa: F811
    """A craft with no capsule or habitat left cannot bring anyone through reentry. The shipped tables never
    lose a capsule in flight (a capsule Boom strands and disables it), so a house rule reaches it: flight.yaml's
    capsule Boom at a duration step made `destroy_part`. The craft coasts from Lunar Transfer to Return Transit,
    its capsule Booms there and is gone; next turn it cannot steer, coasts past the capture burn into reentry,
    and the story names who is lost as what they are (before, robots were "the crew" too)."""
    edit(rules_dir, "flight.yaml", "boom: [{effect: strand}, {effect: disable_part}, {effect: lose_rations, units: 1}]",
         "boom: [{effect: destroy_part}]")
    engine = Engine(load_rules(rules_dir))
    s = engine.new_game(Setup((PlayerSetup("Hop", "rabitians"),), turn_limit=20, options=frozenset(UNDERPED),
                              dice="d20"))
    parts = ()
    if robots:
        s = give_stock(s, 0, points=100)
        s = engine.apply(s, Invent("underped", 1))
        thing = s.things[-1].id
        s = engine.apply(engine.apply(engine.apply(s, Research(thing, "boom", 5)), Research(thing, "fail", 5)),
                         Build(thing, robots))
        parts = tuple(i.id for i in s.items if i.thing_id == thing)
    s, _, (capsule,) = give_thing(s, engine.rules, 0, "capsule", 14, "15/18", count=1)
    crew = []
    for n in range(derps):
        s, d = give_derp(s, 0, f"Pilot{n}", 1, 0, 3)
        crew.append(d)
    s = give_stock(s, 0, rations=2 * derps)
    design = UpgoerDesign("Robo", modules=(capsule,) + parts, crew=tuple(crew), rations=2 * derps)
    s, robo = place_in_space(s, engine, 0, design, "lunar_transfer")
    s, told = engine.apply(s, EndRnD()), []
    for _ in range(200):
        if s.upgoer(robo).status == "destroyed":
            break
        if engine.current_player(s) == CHANCE:
            kind = s.flight.roll.kind if s.phase == "flight" and s.flight.roll else ""
            action = Roll(BOOM if kind == "duration_capsule" else OK)
        else:
            legal = engine.legal_actions(s)
            action = next(a for k in (AcceptRoll, Move, Coast, EndActivities, EndRnD) for a in legal if isinstance(a, k))
        s = engine.apply(s, action)
        told += [e.text for e in s.events if e.text not in told]  # the story so far (a turn's end trims it)
        if s.upgoer(robo).location == "return_transit" and s.find("item", capsule) is None:
            assert s.upgoer(robo).modules == parts  # the house rule took the capsule
    assert f"With nothing to shield them, {who} of Robo cannot survive reentry." in told, "\n".join(told)
    assert all(d.dead for d in s.derps if d.location == robo)
