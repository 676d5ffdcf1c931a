"""Space war, ship to ship: named scenarios with forced dice, the mapping table and its errors, and random play.

Two craft meet in Low Orbit on turn 1 (``pair_in_orbit``: A arrives first, then B, who is left at its
activities after moving). The craft are built by ``kit`` with 15/18 parts; a capsule masses 14, a
thruster 4, anything else 1. Cosmoforce's dice are six-sided: the odd faces are effective, and a shot
keeps, smallest first, only the dice that fit within the target's fighting mass.
"""
from __future__ import annotations

import dataclasses
from fractions import Fraction

import pytest

from game.core.dice_rng import DiceRoller
from game.games.whatgoesup.rules.actions import Roll
from game.games.whatgoesup.rules.engine import CHANCE, TERMINAL, Engine
from game.games.whatgoesup.rules.flight.ship_combat import (OpenFire, ShipCeasefire, ShipConserve, ShipFightOn, ShipFire,
                                                            TakeHit)
from game.games.whatgoesup.rules.ship_mapping import fight_class, fighting_mass
from game.games.whatgoesup.sim import RandomBot, check_invariants, next_action
from tests.test_flight_rules import E, FR, R, act, auto, at, illegal, kit, new_game, roll, start, uid, up
from tests.test_rules_tables import edit, line_of, problems, rules_dir  # noqa: F401  (rules_dir is a fixture)

ARMED = ("capsule", "thruster", "rcs", "waylight", "probe")  # B: a habitat, two engines, a laser, a missile
PLAIN = ("capsule", "thruster", "cart")  # A: a habitat, an engine, armor


def armed_pair(a=PLAIN, b=ARMED, options=("space_war",), a_crew=((3, 2, 4),), b_crew=((3, 2, 4),)):
    """A (``a``'s parts) and B (``b``'s) in Low Orbit, B at its activities after moving, space war on."""
    s = new_game(options)
    s, da, crew_a, ids_a = kit(s, 0, "A", mods=a, crew=a_crew)
    s, db, crew_b, ids_b = kit(s, 1, "B", mods=b, crew=b_crew, rating="14/18")
    s = start(s, [da], [db])
    s = auto(s, at("B", "after"))
    assert up(s, "A").location == up(s, "B").location == "low_1"
    return s, (crew_a, ids_a), (crew_b, ids_b)


def texts(s):
    return [e.text for e in s.events]


# ====================================================================== the mapping
def test_an_upgoers_parts_map_to_cosmoforce_systems_and_its_mass_to_a_class():
    s, (_, ids_a), (_, ids_b) = armed_pair()
    b = up(s, "B")
    systems = [(i, sys.plays, sys.weapon) for i, sys in FR.ship_systems(s, b)]
    assert systems == [(ids_b["capsule"][0], "habitat", ""), (ids_b["thruster"][0], "engine", ""),
                       (ids_b["rcs"][0], "engine", ""), (ids_b["waylight"][0], "weapon", "laser"),
                       (ids_b["probe"][0], "weapon", "missile")]
    # parts 14 + 4 + 1 + 1 + 1, a derp of 1, six rations (3) and 10 fuel: a cruiser (16 to 40), size 2
    assert FR.spacecraft_mass(s, b) == 35
    fighter = FR.combatant(s, b)
    assert (fighter.fight_class, fighter.mass, fighter.speed, fighter.heat) == ("cruiser", 2 * 5, 2, 2)
    # A's cart plays armor: three systems, one engine
    target = FR.combatant(s, up(s, "A"))
    assert (target.fight_class, target.mass, target.speed, target.heat) == ("cruiser", 6, 1, 1)
    assert [sys.plays for _, sys in FR.ship_systems(s, up(s, "A"))] == ["habitat", "engine", "armor"]


def test_the_class_comes_from_the_spacecraft_mass_and_sizes_the_fighting_mass():
    table = R.ship_combat
    assert [fight_class(table, m).id for m in (1, 15, 16, 40, 41, 500)] == \
        ["fighter", "fighter", "cruiser", "cruiser", "capital", "capital"]
    assert fighting_mass(fight_class(table, Fraction(31, 2)), 4) == 8
    assert table.system_for("lower_stage") is None and table.system_for("fuel") is None


def test_a_part_failed_before_the_fight_counts_as_damaged():
    s, (_, ids_a), _ = armed_pair()
    from tests.test_flight_rules import edit_item
    s = edit_item(s, ids_a["thruster"][0], disabled=True)
    target = FR.combatant(s, up(s, "A"))
    assert target.hits == ((ids_a["thruster"][0], 1),) and target.speed == 0 and target.heat == 0


# ====================================================================== opening fire
def test_without_space_war_nobody_opens_fire():
    s, _, _ = armed_pair(options=())
    illegal(s, OpenFire(uid(s, "A")), "Space War")


def test_a_craft_with_nothing_to_fire_cannot_open_fire():
    s, _, _ = armed_pair(b=PLAIN)
    illegal(s, OpenFire(uid(s, "A")), "nothing that can fire")


def test_open_fire_is_on_the_activity_menu_and_only_once_a_turn():
    s, _, _ = armed_pair()
    assert OpenFire(uid(s, "A")) in E.legal_actions(s)
    s = act(s, OpenFire(uid(s, "A")))
    s = act(s, ShipConserve())  # B (speed 2) first
    s = act(s, ShipConserve())  # A
    while E.current_player(s) == CHANCE:
        s = roll(s, 0)
    s = act(act(s, ShipCeasefire()), ShipCeasefire())
    assert s.flight.ship_fight is None and s.flight.active == uid(s, "B")
    illegal(s, OpenFire(uid(s, "A")), "already fought this turn")


# ====================================================================== a round
def test_a_fight_round_goes_in_speed_order_with_exact_odds_and_ends_when_both_craft_offer_a_ceasefire():
    """Cosmoforce: "Combat is divided into rounds. Each round has two phases. After each round ends, if all
    combatants agree to cease hostilities, the fight is over.\""""
    s, (crew_a, ids_a), (crew_b, _) = armed_pair()
    s = act(s, OpenFire(uid(s, "A")))
    assert "B is faster and acts first." in texts(s)[-1]
    assert E.current_player(s) == 1  # B's turn: Spud decides
    assert E.legal_actions(s) == [ShipFire("laser", 1), ShipFire("missile", 1), ShipConserve()]
    s = act(s, ShipFire("laser", 1))
    assert s.flight.ship_fight.sides[0].heat == 3  # B: the laser's heat token on its 2
    # two dice at A's mass of 6: no odd face 1/4; both kept (odd, adding up to 6 or less) 6/36
    assert E.current_player(s) == CHANCE
    assert dict((r.value, p) for r, p in E.chance_outcomes(s)) == {0: Fraction(1, 4), 1: Fraction(7, 12),
                                                                     2: Fraction(1, 6)}
    s = roll(s, 1)
    assert "1 effective within A's mass of 6, so 1 hit" in texts(s)[-1]
    assert E.current_player(s) == 0 and set(E.legal_actions(s)) == {TakeHit(i) for i in
                                                                      (ids_a["capsule"][0], ids_a["thruster"][0],
                                                                       ids_a["cart"][0])}
    s = act(s, TakeHit(ids_a["cart"][0]))
    assert s.item(ids_a["cart"][0]).disabled  # the cart Fails
    assert E.legal_actions(s) == [ShipConserve()]  # A has nothing to fire
    s = act(s, ShipConserve())
    assert s.flight.ship_fight.stage == "aftermath" and s.flight.ship_fight.sides[1].heat == 0
    # B's aftermath: no dissipator, 3 heat: three dice, each odd face hurts a derp
    assert dict((r.value, p) for r, p in E.chance_outcomes(s)) == {0: Fraction(1, 8), 1: Fraction(3, 8),
                                                                     2: Fraction(3, 8), 3: Fraction(1, 8)}
    s = roll(s, 1)
    assert s.derp(crew_b[0]).injured and not s.derp(crew_b[0]).dead
    # A has no heat left: no roll; the round is over and each side answers, the faster first
    assert s.flight.ship_fight.stage == "truce" and E.current_player(s) == 1
    assert texts(s)[-1] == "Round 1 is over. Unless both craft offer a ceasefire, the fight goes on."
    assert E.legal_actions(s) == [ShipFightOn(), ShipCeasefire()]
    s = act(s, ShipCeasefire())
    assert E.current_player(s) == 0 and E.legal_actions(s) == [ShipFightOn(), ShipCeasefire()]
    s = act(s, ShipCeasefire())
    # the fight is over and B goes on with its activities
    assert s.flight.ship_fight is None and E.current_player(s) == 1
    assert texts(s)[-3:] == ["A offers a ceasefire.", "Both craft hold their fire: the ceasefire stands.",
                             "The fight between B and A is over."]


def round_one_over(**kw):
    """B fires its laser and misses, A holds fire, B's three heat dice come up even: round 1 is over."""
    s, (crew_a, ids_a), (crew_b, ids_b) = armed_pair(**kw)
    s = act(s, OpenFire(uid(s, "A")))
    s = roll(act(s, ShipFire("laser", 1)), 0)
    s = roll(act(s, ShipConserve()), 0)
    assert s.flight.ship_fight.stage == "truce"
    return s, ids_a, ids_b


def test_if_either_craft_fights_on_the_next_round_begins_with_the_heat_kept():
    """A ceasefire needs "all combatants" to agree: B offers one, A refuses, so round 2 begins at once in the
    same speed order. Heat tokens stay on a roster between rounds; a part not hit fires again, a missile once."""
    s, ids_a, ids_b = round_one_over()
    s = act(act(s, ShipCeasefire()), ShipFightOn())
    fight = s.flight.ship_fight
    assert (fight.stage, fight.round, fight.position) == ("execution", 2, 0)
    assert texts(s)[-1] == "A fights on: round 2 begins."
    assert fight.sides[0].heat == 3 and E.current_player(s) == 1  # B, faster, acts first again
    assert E.legal_actions(s) == [ShipFire("laser", 1), ShipFire("missile", 1), ShipConserve()]
    s = roll(act(s, ShipFire("missile", 1)), 0)
    s = roll(act(s, ShipConserve()), 0)
    s = act(s, ShipFightOn())  # B, the faster, refuses at once: A is not asked
    assert s.flight.ship_fight.round == 3
    assert E.legal_actions(s) == [ShipFire("laser", 1), ShipConserve()]  # the missile is spent


def test_between_rounds_only_the_answer_to_a_ceasefire_is_allowed():
    s, _, _ = round_one_over()
    illegal(s, ShipFire("laser", 1), "the round is over: fight on, or offer a ceasefire")
    s = act(act(s, ShipCeasefire()), ShipFightOn())
    illegal(s, ShipFightOn(), "fire, or conserve energy")


def test_a_fight_ends_after_max_rounds_and_one_round_asks_nothing():
    """``ship_combat.yaml: max_rounds`` bounds a fight; at 1 it is one round with no ceasefire asked."""
    for rounds in (1, 2):
        engine = Engine(dataclasses.replace(R, ship_combat=dataclasses.replace(R.ship_combat, max_rounds=rounds)))
        s, _, _ = armed_pair()
        s = engine.apply(s, OpenFire(uid(s, "A")))
        for played in range(1, rounds + 1):
            s = engine.apply(engine.apply(s, ShipConserve()), ShipConserve())
            while engine.current_player(s) == CHANCE:
                s = engine.apply(s, Roll(0))  # B's heat left: no effective die
            if played < rounds:
                assert s.flight.ship_fight.stage == "truce"
                s = engine.apply(s, ShipFightOn())
        assert s.flight.ship_fight is None, rounds
        last = ["The fight between B and A is over."]
        assert texts(s)[-2:] == (["After 2 rounds both crews have had enough."] + last if rounds == 2
                                 else ["B rolls 1 die for its heat: 0 effective."] + last)


def test_a_tie_in_speed_goes_to_the_craft_that_opened_fire():
    s, _, _ = armed_pair(a=("capsule", "thruster", "rcs", "cart"))
    s = act(s, OpenFire(uid(s, "A")))
    fight = s.flight.ship_fight
    assert fight.sides[0].speed == fight.sides[1].speed == 2 and fight.order == (0, 1)
    assert "a tie goes to the craft that opened fire" in texts(s)[-1]


def test_a_missile_is_spent_when_fired():
    s, (_, ids_a), (_, ids_b) = armed_pair()
    s = act(s, OpenFire(uid(s, "A")))
    s = act(s, ShipFire("missile", 1))
    probe = ids_b["probe"][0]
    assert s.find("item", probe) is None and probe not in up(s, "B").modules
    assert s.flight.ship_fight.roll.dice == 4 and s.flight.ship_fight.roll.mass == 6


# ====================================================================== damage back to Fail and Boom
def test_a_first_hit_is_a_fail_and_a_second_a_boom_with_the_tables_effects():
    s, (_, ids_a), _ = armed_pair()
    thruster, capsule = ids_a["thruster"][0], ids_a["capsule"][0]
    blueprint = s.item(thruster).thing_id
    rating = s.thing(blueprint).rating
    s = act(s, OpenFire(uid(s, "A")))
    s = act(s, ShipFire("missile", 1))
    s = roll(s, 2)
    s = act(s, TakeHit(thruster))
    assert s.item(thruster).disabled  # Fail: the thruster stops working (a jury-rig can fix it)
    s = act(s, TakeHit(thruster))
    # Boom: the thruster is destroyed and the capsule shaken, -1/-1 for the rest of the flight
    assert s.find("item", thruster) is None and thruster not in up(s, "A").modules
    assert (s.item(capsule).flight_fail_penalty, s.item(capsule).flight_boom_penalty) == (1, 1)
    assert "Boom! Thruster" in " ".join(texts(s))
    # the blueprint keeps its rating: a part shot to pieces is no design fault (boom_penalty: false)
    assert s.thing(blueprint).rating == rating


def test_armor_takes_two_hits_and_is_never_destroyed():
    s, (_, ids_a), _ = armed_pair()
    cart = ids_a["cart"][0]
    s = act(s, OpenFire(uid(s, "A")))
    s = act(s, ShipFire("missile", 1))
    s = roll(s, 3)
    s = act(s, TakeHit(cart))
    s = act(s, TakeHit(cart))
    assert s.find("item", cart) is not None and s.item(cart).disabled
    assert TakeHit(cart) not in E.legal_actions(s)
    illegal(s, TakeHit(cart), "no more hits")


def test_a_craft_whose_capsule_is_shot_to_pieces_is_destroyed_with_its_crew():
    s, (crew_a, ids_a), _ = armed_pair()
    capsule = ids_a["capsule"][0]
    dots_before = s.programs[0].dot_entries
    s = act(s, OpenFire(uid(s, "A")))
    s = act(s, ShipFire("missile", 1))
    s = roll(s, 2)
    s = act(s, TakeHit(capsule))
    assert s.item(capsule).disabled and up(s, "A").status == "flying"
    s = act(s, TakeHit(capsule))
    a = up(s, "A")
    assert a.status == "destroyed" and s.derp(crew_a[0]).dead
    assert "A is out of the fight: it is no longer flying." in texts(s)
    assert s.flight.ship_fight is None  # the round ends with one side left: no aftermath
    assert len(s.programs[0].dot_entries) > len(dots_before)  # the lost derp costs its program, as ever
    assert E.current_player(s) == 1 and s.flight.active == uid(s, "B")


def test_a_craft_with_every_fighting_part_damaged_is_out_of_the_fight():
    s, (_, ids_a), _ = armed_pair()
    s = act(s, OpenFire(uid(s, "A")))
    s = act(s, ShipFire("missile", 1))
    s = roll(s, 3)
    for part in ("cart", "thruster", "capsule"):
        s = act(s, TakeHit(ids_a[part][0]))
    assert "A is out of the fight: every part that fights is damaged." in texts(s)
    assert s.flight.ship_fight is None and up(s, "A").status == "flying"


def test_heat_hurts_an_injured_derp_to_death_when_none_is_healthy():
    s, _, (crew_b, _) = armed_pair(b_crew=((3, 2, 4), (2, 2, 4)))
    s = act(s, OpenFire(uid(s, "A")))
    s = act(s, ShipFire("laser", 1))
    s = roll(s, 0)
    s = act(s, ShipConserve())
    s = roll(s, 3)  # B's three heat dice: both derps injured, then the first of them dies
    assert s.derp(crew_b[0]).dead and s.derp(crew_b[1]).injured and not s.derp(crew_b[1]).dead


# ====================================================================== the table's errors
def test_a_part_the_components_do_not_know_is_reported_at_its_line(rules_dir):  # noqa: F811
    edit(rules_dir, "ship_combat.yaml", "  - part: cart\n", "  - part: carts\n")
    line = line_of(rules_dir, "ship_combat.yaml", "part: carts")
    assert any(p.startswith(f"rules/ship_combat.yaml:{line}:") and "no part 'carts'" in p and "cart" in p
               for p in problems(rules_dir)), problems(rules_dir)


def test_a_weapon_part_without_a_known_weapon_is_reported(rules_dir):  # noqa: F811
    edit(rules_dir, "ship_combat.yaml", "    weapon: missile\n", "    weapon: torpedo\n")
    line = line_of(rules_dir, "ship_combat.yaml", "weapon: torpedo")
    assert any(p.startswith(f"rules/ship_combat.yaml:{line}:") and "laser, missile" in p for p in problems(rules_dir))


def test_a_hit_effect_that_needs_a_roll_is_refused(rules_dir):  # noqa: F811
    edit(rules_dir, "ship_combat.yaml", "[{effect: destroy_upgoer}]", "[{effect: crash}]")
    line = line_of(rules_dir, "ship_combat.yaml", "effect: crash")
    assert any(p.startswith(f"rules/ship_combat.yaml:{line}:") and "needs a roll in progress" in p
               for p in problems(rules_dir))


def test_max_rounds_out_of_range_is_reported_at_its_line(rules_dir):  # noqa: F811
    edit(rules_dir, "ship_combat.yaml", "max_rounds: 10", "max_rounds: 0")
    line = line_of(rules_dir, "ship_combat.yaml", "max_rounds: 0")
    assert any(p.startswith(f"rules/ship_combat.yaml:{line}:") and "max_rounds" in p for p in problems(rules_dir)), \
        problems(rules_dir)


def test_classes_must_go_from_light_to_heavy(rules_dir):  # noqa: F811
    edit(rules_dir, "ship_combat.yaml", "up_to_mass: 40", "up_to_mass: 10")
    line = line_of(rules_dir, "ship_combat.yaml", "up_to_mass: 10")
    assert any(p.startswith(f"rules/ship_combat.yaml:{line}:") and "light to heavy" in p for p in problems(rules_dir))


# ====================================================================== random play
def play_on(s, seed, actions=3000):
    """Random legal play from ``s`` with the app's seeded dice, every invariant checked; returns how many ship
    fights were opened and the state reached."""
    bot, dice, fights = RandomBot(seed), DiceRoller(seed), 0
    for _ in range(actions):
        action = next_action(E, s, bot, dice)
        if action is None or E.current_player(s) == TERMINAL:
            break
        after = E.apply(s, action)
        assert not check_invariants(E, s, action, after), (seed, action, check_invariants(E, s, action, after))
        fights += isinstance(action, OpenFire)
        fight = after.flight.ship_fight if after.phase == "flight" else None
        if fight is not None:
            for side in fight.sides:
                assert side.heat >= 0 and side.speed >= 0
        s = after
    return fights, s


def test_seeded_random_play_with_space_war_reaches_ship_fights():
    s, _, _ = armed_pair(a=("capsule", "thruster", "waylight", "cart"))
    fights = 0
    for seed in range(6):  # seed 4 opens fire; the others play on without, their invariants checked too
        n, _ = play_on(s, seed, actions=600)
        fights += n
    assert fights >= 1


@pytest.mark.slow
def test_many_seeded_random_games_with_space_war_keep_every_invariant():
    s, _, _ = armed_pair(a=("capsule", "thruster", "waylight", "probe", "cart"))
    fights = sum(play_on(s, seed)[0] for seed in range(60))
    assert fights >= 10


# ====================================================================== wars
def test_opening_fire_starts_a_secret_war_and_a_death_in_the_fight_opens_it():
    s, (crew_a, ids_a), _ = armed_pair()
    s = act(s, OpenFire(uid(s, "A")))
    assert [(w.programs, w.open) for w in s.wars] == [((0, 1), False)]
    s = act(s, ShipFire("missile", 1))
    s = roll(s, 2)
    s = act(s, TakeHit(ids_a["capsule"][0]))
    s = act(s, TakeHit(ids_a["capsule"][0]))
    assert s.derp(crew_a[0]).dead
    assert [(w.programs, w.open) for w in s.wars] == [((0, 1), True)]
    assert "A0 died in a ship fight" in s.wars[0].cause
