"""Flight rules added around the core: catching up with a craft on the same orbit, capacity on transfers,
undocking before a burn, and planning help (route odds, fuel, drag resolution)."""
from __future__ import annotations

from fractions import Fraction

import pytest

from game.games.whatgoesup.rules.actions import EndRnD, Roll
from game.games.whatgoesup.rules.engine import CHANCE, Engine, IllegalAction
from game.games.whatgoesup.rules.flight_actions import AcceptRoll, CatchUp, Dock, EndActivities, Launch, Move, Transfer
from game.games.whatgoesup.rules.planning import HelpPlan, drop_action, next_roll_odds, plan_route
from game.games.whatgoesup.rules.reliability import Outcome
from game.games.whatgoesup.rules.skills import Helper
from game.games.whatgoesup.rules.scenario import give_derp, give_stock, give_thing, place_in_space
from game.games.whatgoesup.rules.state import PlayerSetup, Setup, UpgoerDesign
from game.games.whatgoesup.rules.tables import load_rules

RULES = load_rules()
ENGINE = Engine(RULES)


def two_programs():
    return ENGINE.new_game(Setup((PlayerSetup("Hop", "rabitians"), PlayerSetup("Spud", "merbs"))))


def craft(state, program, name, step, thruster=True, rcs=True, pilot=2, fuel=10, capsule_mass=6, rations=4):
    state, _, cap = give_thing(state, RULES, program, "capsule", capsule_mass, "19/20", count=1, name=f"{name} pod")
    modules = [cap[0]]
    if thruster:
        state, _, th = give_thing(state, RULES, program, "thruster", 2, "19/20", count=1, name=f"{name} engine")
        modules.append(th[0])
    if rcs:
        state, _, r = give_thing(state, RULES, program, "rcs", 1, "19/20", count=1, name=f"{name} puffer")
        modules.append(r[0])
    state, derp = give_derp(state, program, f"{name} pilot", piloting=pilot, engineering=1, stamina=4)
    state = give_stock(state, program, fuel=fuel, rations=10)
    design = UpgoerDesign(name, modules=tuple(modules), crew=(derp,), fuel=fuel, rations=rations)
    return place_in_space(state, ENGINE, program, design, step)


def to_flights(state):
    for _ in state.programs:
        state = ENGINE.apply(state, EndRnD())
    return state


def settle(state, value=1):
    """Roll ``value`` for every pending roll and accept it."""
    while state.phase == "flight":
        if ENGINE.current_player(state) == CHANCE:
            state = ENGINE.apply(state, Roll(value))
        elif state.flight.roll is not None:
            state = ENGINE.apply(state, AcceptRoll())
        else:
            break
    return state


def act_until_after(state, upgoer_id):
    """Drive the flight phase until ``upgoer_id`` is in its activities after moving."""
    for _ in range(200):
        state = settle(state)
        f = state.flight
        if f is None or state.phase != "flight":
            raise AssertionError("the flight phase ended first")
        if f.active == upgoer_id and f.mode == "after":
            return state
        active = state.upgoer(f.active)
        if f.mode == "before":
            state = ENGINE.apply(state, Move(active.id))
        elif f.mode == "after":
            state = ENGINE.apply(state, EndActivities(active.id))
        elif f.mode == "junction":
            from game.games.whatgoesup.rules.flight_actions import Coast
            state = ENGINE.apply(state, Coast())
        elif f.mode == "decide":
            state = ENGINE.apply(state, Launch(active.id))
    raise AssertionError("never got there")


def test_catching_up_costs_a_burn_and_docking_waits_for_next_turn():
    """Upgoers can only dock on the same step of the same orbit; catching up costs a burn (any number of
    steps) and docking can happen next turn."""
    state = two_programs()
    state, chaser = craft(state, 0, "Chaser", "low_1")
    state, target = craft(state, 1, "Target", "low_3")
    state = to_flights(state)
    # Let the target move first so the chaser can catch up after its own move.
    state = act_until_after(state, target)
    state = ENGINE.apply(state, EndActivities(target))
    state = act_until_after(state, chaser)
    with pytest.raises(IllegalAction, match="same step of|not at"):
        ENGINE.apply(state, Dock(target, state.upgoer(chaser).crew[0]))
    fuel_before = state.upgoer(chaser).fuel
    state = ENGINE.apply(state, CatchUp(target))
    state = settle(state)
    assert state.upgoer(chaser).location == state.upgoer(target).location
    assert state.upgoer(chaser).fuel < fuel_before
    with pytest.raises(IllegalAction, match="dock next turn"):
        ENGINE.apply(state, Dock(target, state.upgoer(chaser).crew[0]))


def test_transfer_refused_when_the_capsule_is_full():
    """A capsule carries what its mass allows: a transfer that would overfill it is refused."""
    state = two_programs()
    state, a = craft(state, 0, "Roomy", "low_1", capsule_mass=6)
    state, b = craft(state, 0, "Tiny", "low_1", capsule_mass=3, thruster=False, rcs=False, rations=0, fuel=0)
    state = to_flights(state)
    state = act_until_after(state, a)
    crew = state.upgoer(a).crew[0]
    state = ENGINE.apply(state, Dock(b, crew))
    state = settle(state)
    assert b in state.upgoer(a).docked_with
    with pytest.raises(IllegalAction, match="room for"):
        ENGINE.apply(state, Transfer(a, b, derps=(crew,), rations=4))


def test_route_odds_are_exact_for_a_sure_route():
    """A route of rolls that cannot fail completes with probability exactly 1 on a 4D6-4 bell curve."""
    state = ENGINE.new_game(Setup((PlayerSetup("Hop", "rabitians"),), dice="4d6-4"))
    state, _, cap = give_thing(state, RULES, 0, "capsule", 6, "19/20", count=1)
    state, _, th = give_thing(state, RULES, 0, "thruster", 3, "19/20", count=1)
    state, d = give_derp(state, 0, "Ace")
    state = give_stock(state, 0, fuel=20, rations=10)
    state, u = place_in_space(state, ENGINE, 0, UpgoerDesign("Sure", modules=(cap[0], th[0]), crew=(d,), fuel=20,
                                                              rations=4), "low_1")
    report = plan_route(ENGINE, state, u, ["low_burn_1", "high_transfer", "sync_1"])
    assert report.burns == 1 and report.turns == 2
    # On 4D6-4 a 19/20 part Booms only on a 20 (1/1296). The route: one burn (a Boom there disables the
    # only thruster, so the route fails) and two duration rolls (a capsule Boom strands the craft).
    boom = Fraction(1, 1296)
    fail = Fraction(4, 1296)  # a 19: the burn is retried while fuel lasts
    assert report.chance_to_complete < 1
    assert report.chance_to_complete >= (1 - boom) ** 3 * (1 - fail) - fail * boom * 0
    assert report.chance_to_complete == pytest.approx(float((1 - boom) ** 2 * (1 - boom - fail) / (1 - fail)), rel=1e-9)
    assert report.fuel_needed <= 20


def test_route_that_leaves_the_rails_is_refused():
    state = two_programs()
    state, u = craft(state, 0, "Lost", "low_1")
    from game.games.whatgoesup.rules.planning import RouteError
    with pytest.raises(RouteError, match="does not lead to"):
        plan_route(ENGINE, state, u, ["lunar_surface"])


def test_next_roll_odds_with_help_and_luck():
    """The odds a player sees for the pending roll include the help they intend to spend."""
    state = two_programs()
    state, u = craft(state, 0, "Odds", "low_1")
    state = to_flights(state)
    from game.games.whatgoesup.rules.flight_actions import Coast
    while ENGINE.current_player(state) != CHANCE:
        f = state.flight
        active = state.upgoer(f.active)
        step = {"before": Move(active.id), "after": EndActivities(active.id), "junction": Coast()}[f.mode]
        state = ENGINE.apply(state, step)
    plain = next_roll_odds(ENGINE, state)
    assert sum(plain.values()) == 1
    helped = next_roll_odds(ENGINE, state, HelpPlan(crew=(Helper(5, 5, 2),), luck=1))
    assert helped[Outcome.OK] >= plain[Outcome.OK] and helped[Outcome.BOOM] <= plain[Outcome.BOOM]


def test_drop_on_the_launch_step_means_launch_and_elsewhere_says_why():
    state = ENGINE.new_game(Setup((PlayerSetup("Hop", "rabitians"),)))
    state, _, st = give_thing(state, RULES, 0, "lower_stage", 10, "19/20", count=1)
    from game.games.whatgoesup.rules.actions import Assemble
    state = ENGINE.apply(state, Assemble(UpgoerDesign("Hopper", stages=((st[0],),))))
    u = state.upgoers[-1].id
    state = ENGINE.apply(state, EndRnD())
    action, why = drop_action(ENGINE, state, u, RULES.board.home.next)
    assert action == Launch(u) and why == ""
    action, why = drop_action(ENGINE, state, u, "lunar_surface")
    assert action is None and "cannot go to Lunar Surface now" in why


def test_odds_help_follows_the_fail_below_boom_rule_when_skills_raise_safeties():
    """Option raise_safeties: after all modifiers the Fail safety is at best one below the Boom safety, so a
    roll just under Boom needs Engineering to make room before Piloting can save it; the odds helper plays it
    the same way."""
    from game.games.whatgoesup.rules.odds import outcome_with_help
    from game.games.whatgoesup.rules.reliability import Rating
    rating = Rating(14, 18)
    pilot, engineer = Helper(0, 2, 3), Helper(1, 0, 1)
    raise_ = "raise_safeties"
    assert outcome_with_help(17, rating, HelpPlan(crew=(pilot,), skills=raise_)) is Outcome.FAIL
    assert outcome_with_help(17, rating, HelpPlan(crew=(engineer, pilot), skills=raise_)) is Outcome.OK
    assert outcome_with_help(18, rating, HelpPlan(crew=(engineer, pilot), skills=raise_)) is Outcome.FAIL
    assert outcome_with_help(18, rating, HelpPlan(crew=(Helper(1, 0, 2), pilot), skills=raise_)) is Outcome.OK


def test_odds_help_moves_the_roll_by_default():
    """move_roll: the same crews move the rolled value instead, so Piloting alone saves a 17 on 14/18 and one
    Engineering point is enough to let the pilot save an 18."""
    from game.games.whatgoesup.rules.odds import outcome_with_help
    from game.games.whatgoesup.rules.reliability import Rating
    rating = Rating(14, 18)
    pilot, engineer = Helper(0, 2, 3), Helper(1, 0, 1)
    assert outcome_with_help(17, rating, HelpPlan(crew=(pilot,))) is Outcome.OK  # 17 -> 15 -> 13
    assert outcome_with_help(18, rating, HelpPlan(crew=(pilot,))) is Outcome.BOOM  # Piloting cannot touch a Boom
    assert outcome_with_help(18, rating, HelpPlan(crew=(engineer, pilot))) is Outcome.OK  # 18 -> 17 -> 15 -> 13
    assert outcome_with_help(20, rating, HelpPlan(crew=(engineer, Helper(0, 2, 1)))) is Outcome.BOOM


def test_a_rush_spends_stamina_for_the_timing_order_only():
    """Timing: the likelier craft goes first; a derp's skill can hurry a craft at a stamina point each, but
    the real roll does not benefit from it."""
    import dataclasses

    from game.games.whatgoesup.rules.flight_actions import Rush
    from game.games.whatgoesup.rules.reliability import Rating
    from game.games.whatgoesup.rules.state import replace_in, update
    state = two_programs()
    state, slow = craft(state, 0, "Slowpoke", "low_1")
    state, fast = craft(state, 1, "Speedy", "low_2")
    pod = state.upgoer(slow).modules[0]
    state = dataclasses.replace(state, items=replace_in(state.items, [update(state.item(pod),
                                                                              fixed_rating=Rating(15, 18))]))
    unhurried = ENGINE.apply(ENGINE.apply(state, EndRnD()), EndRnD())
    assert unhurried.flight.active == fast  # 19/20 (39) goes before 15/18 (33)
    derp = state.upgoer(slow).crew[0]
    stamina = state.derp(derp).current_stamina
    for _ in range(4):  # Piloting 2, four times: 33 + 8 = 41
        state = ENGINE.apply(state, Rush(slow, derp, "piloting"))
    assert state.derp(derp).current_stamina == stamina - 4 and state.upgoer(slow).rush == 8
    with pytest.raises(IllegalAction, match="no stamina left"):
        ENGINE.apply(state, Rush(slow, derp, "piloting"))
    state = ENGINE.apply(ENGINE.apply(state, EndRnD()), EndRnD())
    assert state.flight.active == slow
    state = ENGINE.apply(state, Move(slow))
    while ENGINE.current_player(state) != CHANCE:
        from game.games.whatgoesup.rules.flight_actions import Coast
        state = ENGINE.apply(state, Coast())
    assert state.flight.roll.rating == Rating(15, 18)  # the rush does not help the roll
