"""Cosmoforce's rules as named scenarios, each driven through real actions with forced rolls.

A forced roll is ``Roll(k)``: k effective dice (``scenarios.play`` takes a plain number for it). Each test
names the rule sentence it checks; docs/rules-decisions.md ("Cosmoforce") has our readings of the cut ones.
"""
from __future__ import annotations

import shutil
from fractions import Fraction
from pathlib import Path

import pytest

from game.core.interface import CHANCE, TERMINAL, IllegalAction, IllegalSetup
from game.core import effective_dice as dice
from game.games.cosmoforce.rules.actions import (AssignDamage, BurnEngines, ConserveEnergy, DroneStrafe, FireWeapons,
                                                 HealCrew, OfferCeasefire, PrecisionFire, RepairSystem, RepairSystems,
                                                 Roll, TrimSpeed)
from game.games.cosmoforce.rules.engine import Engine
from game.games.cosmoforce.rules.state import PendingDamage, PendingRepair, PendingRoll, PendingTrim
from game.games.cosmoforce.rules.tables import DEFAULT_RULES_DIR, load_rules
from game.games.cosmoforce.scenarios import fight, fight_setup, play, roster


@pytest.fixture(scope="module")
def engine() -> Engine:
    return Engine(load_rules())


def engine_with(tmp_path: Path, file: str, old: str, new: str) -> Engine:
    """The shipped rules with one line of one table changed."""
    folder = tmp_path / "cosmoforce"
    shutil.copytree(DEFAULT_RULES_DIR, folder)
    text = (folder / file).read_text(encoding="utf-8")
    assert old in text
    (folder / file).write_text(text.replace(old, new), encoding="utf-8")
    return Engine(load_rules(folder))


# A fast gunboat and a slow target, so the gunboat always acts first.
GUNBOAT = roster("fighter", "engine", "engine", "engine", "laser", "laser", "missile", "habitat", "dissipator",
                 name="Gunboat")
TARGET = roster("cruiser", "engine", "habitat", "armor", "laser", "dissipator", name="Target")


def slot_of(ship, kind: str, nth: int = 0) -> int:
    return [i for i, s in enumerate(ship.systems) if s.kind == kind][nth]


# ------------------------------------------------------------------ building a ship
def test_a_ships_numbers_follow_its_roster(engine):
    """Mass is size x systems; crew per habitat by class; speed = engines (+5 afterburner); heat = engines - dissipators."""
    state = fight(engine, "dart", "lancer", "bastion",
                  roster("capital", "engine", "engine", "engine", "habitat", "habitat", name="Hot"))
    dart, lancer, bastion, hot = state.ships
    assert (dart.mass, dart.crew_max, dart.speed, dart.heat) == (10, 1, 7, 0)
    assert (lancer.mass, lancer.crew_max, lancer.speed, lancer.heat) == (20, 2, 2, 0)
    assert (bastion.mass, bastion.crew_max, bastion.speed, bastion.heat) == (30, 3, 2, 0)
    assert (hot.mass, hot.crew_max, hot.speed, hot.heat) == (15, 6, 3, 3)
    assert all(s.crew_ready == s.crew_max and s.crew_hurt == 0 for s in state.ships)


def test_more_than_one_afterburner_adds_nothing(engine):
    one = fight(engine, roster("fighter", "afterburner", "habitat"), TARGET).ships[0]
    two = fight(engine, roster("fighter", "afterburner", "afterburner", "habitat"), TARGET).ships[0]
    assert one.speed == two.speed == 5


@pytest.mark.parametrize("design,reason", [
    (roster("fighter", *(["habitat"] * 11)), "only 10 slots"),
    (roster("fighter", "railgun", "habitat"), "only a cruiser can mount the railgun"),
    (roster("cruiser", "laser", "engine"), "no habitat"),
    (roster("cruiser", "habitat", "shield"), "there is no system 'shield'"),
    (roster("frigate", "habitat"), "there is no ship class 'frigate'"),
])
def test_rosters_the_rules_refuse(engine, design, reason):
    with pytest.raises(IllegalSetup, match=reason):
        fight(engine, design, TARGET)


def test_every_ship_needs_its_own_name_and_a_fight_two_sides(engine):
    setup = fight_setup(engine, "dart", "lancer")
    twin = setup.players[1].ships[0].__class__("Dart", "cruiser", ("habitat",))
    clash = setup.__class__((setup.players[0], setup.players[1].__class__("B", (twin,))))
    with pytest.raises(IllegalSetup, match="two ships are called Dart"):
        engine.new_game(clash)
    with pytest.raises(IllegalSetup, match="at least two teams"):
        fight(engine, "dart", "lancer", teams=[1, 1])
    with pytest.raises(IllegalSetup, match="two to 6 players"):
        engine.new_game(setup.__class__(setup.players[:1]))


# ------------------------------------------------------------------ speed order
def test_the_fastest_ship_takes_the_first_turn(engine):
    state = fight(engine, TARGET, GUNBOAT)
    assert state.phase == "execution"
    assert [state.ships[i].name for i in state.order] == ["Gunboat", "Target"]
    assert engine.current_player(state) == 1 and state.actions_left == 2


def test_ships_tied_for_speed_roll_their_engines_until_every_speed_differs(engine):
    """'When two or more ships tie for speed, they roll as many dice as the number of Engine systems ...
    Each effective die increases speed by 0.01. Continue until all ships have a unique speed number.'"""
    a = roster("cruiser", "engine", "engine", "habitat", name="A")
    b = roster("cruiser", "engine", "engine", "habitat", name="B")
    state = fight(engine, a, b)
    assert state.phase == "tie_break" and engine.current_player(state) == CHANCE
    assert [(s.ship, s.dice) for s in state.steps] == [(0, 2), (1, 2)]
    state = play(engine, state, 1, 1)  # still tied at 2.01: both roll again
    assert state.phase == "tie_break" and [s.speed_text for s in state.ships] == ["2.01", "2.01"]
    state = play(engine, state, 0, 2)
    assert state.phase == "execution"
    assert [s.speed_text for s in state.ships] == ["2.01", "2.03"] and state.order == (1, 0)


def test_an_afterburner_doubles_the_tie_dice_and_a_ship_without_engines_still_rolls(engine):
    burner = roster("fighter", "engine", "afterburner", "habitat", name="Burner")
    twin = roster("cruiser", "engine", "engine", "engine", "engine", "engine", "engine", "habitat", name="Twin")
    still_a = roster("capital", "habitat", name="Still A")
    still_b = roster("capital", "habitat", name="Still B")
    state = fight(engine, burner, twin, still_a, still_b)
    assert [(s.ship, s.dice) for s in state.steps] == [(0, 2), (1, 6), (2, 1), (3, 1)]


# ------------------------------------------------------------------ turn actions
def test_burning_engines_changes_speed_by_one_each_and_adds_heat(engine):
    state = fight(engine, GUNBOAT, TARGET)
    state = play(engine, state, BurnEngines(faster=2, slower=1))
    gunboat = state.ships[0]
    assert (gunboat.speed, gunboat.heat, state.actions_left) == (4, 2 + 3, 1)
    with pytest.raises(IllegalAction, match="3 working engine"):
        engine.apply(state, BurnEngines(4, 0))
    with pytest.raises(IllegalAction, match="no working afterburner"):
        engine.apply(state, BurnEngines(1, 0, afterburner=True))


def test_speed_never_drops_below_zero(engine):
    slow = roster("cruiser", "engine", "engine", "habitat", name="Slow")
    state = fight(engine, GUNBOAT, slow)
    state = play(engine, state, ConserveEnergy(), ConserveEnergy())  # the gunboat passes
    assert state.acting_ship.name == "Slow"
    state = play(engine, state, BurnEngines(0, 1))
    with pytest.raises(IllegalAction, match="at speed 1; it cannot slow below 0"):
        engine.apply(state, BurnEngines(0, 2))
    state = play(engine, state, BurnEngines(0, 1))
    assert state.ships[1].speed == 0


def test_an_afterburner_roll_gives_extra_speed_changes_of_the_players_choice(engine):
    """'If your ship has an afterburner mounted, you may also roll a die for every engine used. Each effective
    die allows an additional +1 or -1 modification to your ship's speed.'"""
    dart = engine.rules.ships.get("dart").design()
    state = fight(engine, dart, TARGET)
    state = play(engine, state, BurnEngines(2, 0, afterburner=True))
    assert isinstance(state.step, PendingRoll) and state.step.dice == 2 and state.step.purpose == "afterburner"
    state = play(engine, state, 2)
    assert isinstance(state.step, PendingTrim) and state.step.moves == 2
    assert engine.current_player(state) == 0
    assert TrimSpeed(1, 1) in engine.legal_actions(state) and TrimSpeed(2, 1) not in engine.legal_actions(state)
    state = play(engine, state, TrimSpeed(2, 0))
    assert state.ships[0].speed == 7 + 2 + 2 and state.ships[0].heat == 2 and state.step is None


def test_conserving_energy_removes_one_heat_token(engine):
    hot = roster("fighter", "engine", "engine", "engine", "habitat", name="Hot")
    state = fight(engine, hot, TARGET)
    assert state.ships[0].heat == 3
    state = play(engine, state, ConserveEnergy(), ConserveEnergy())
    assert state.ships[0].heat == 1 and state.acting_ship.name == "Target"


def test_lasers_roll_two_dice_each_against_the_targets_mass_and_heat_the_ship(engine):
    state = fight(engine, GUNBOAT, TARGET)
    state = play(engine, state, FireWeapons("laser", 2, target=1))
    step = state.step
    assert isinstance(step, PendingRoll) and (step.dice, step.mass, step.target) == (4, 10, 1)
    assert state.ships[0].heat == 2 + 2
    odds = dict((r.value, p) for r, p in engine.chance_outcomes(state))
    assert odds == dict(dice.shooting_distribution(4, 6, 10)) and sum(odds.values()) == 1
    state = play(engine, state, 2)
    assert isinstance(state.step, PendingDamage) and state.step.hits == 2
    assert engine.current_player(state) == 1  # the damaged player places the hits
    assert set(engine.legal_actions(state)) == {AssignDamage(i) for i in range(5)}
    with pytest.raises(IllegalAction, match="has already fired"):
        engine.apply(play(engine, state, AssignDamage(0), AssignDamage(1)), FireWeapons("missile", 1, 1))


def test_a_missile_rack_rolls_four_dice_once_then_is_empty(engine):
    state = fight(engine, GUNBOAT, TARGET)
    rack = slot_of(state.ships[0], "missile")
    state = play(engine, state, FireWeapons("missile", 1, target=1))
    assert state.step.dice == 4 and state.ships[0].heat == 2
    assert state.ships[0].systems[rack].spent
    state = play(engine, state, 0, ConserveEnergy())  # no hits; the gunboat's turn ends
    state = play(engine, state, ConserveEnergy(), ConserveEnergy())  # the target passes
    state = finish_round(engine, state)
    assert state.acting_ship.name == "Gunboat"
    assert FireWeapons("missile", 1, 1) not in engine.legal_actions(state)
    with pytest.raises(IllegalAction, match="0 missile rack"):
        engine.apply(state, FireWeapons("missile", 1, 1))


def finish_round(engine, state):
    """Roll no effective dice for every heat roll of the aftermath (nobody hurt), into the next round."""
    while state.phase == "aftermath":
        assert engine.current_player(state) == CHANCE, state.step
        state = engine.apply(state, Roll(0))
    return state


def test_a_railgun_only_hits_a_slower_ship(engine):
    """'Railgun 2 The ship you shoot must have lower speed than you.'"""
    gunner = roster("cruiser", "engine", "railgun", "habitat", name="Gunner")
    fast = roster("fighter", "engine", "engine", "habitat", name="Fast")
    slow = roster("capital", "habitat", "armor", name="Slow")
    state = fight(engine, fast, gunner, slow)
    state = play(engine, state, ConserveEnergy(), ConserveEnergy())
    assert state.acting_ship.name == "Gunner"
    with pytest.raises(IllegalAction, match="only hits a slower ship"):
        engine.apply(state, FireWeapons("railgun", 1, 0))
    state = play(engine, state, FireWeapons("railgun", 1, 2))
    assert state.step.dice == 2 and state.step.mass == 6


def test_drones_strafe_with_a_die_per_working_hangar_once_a_turn(engine):
    carrier = roster("capital", "engine", "engine", "engine", "hangar", "hangar", "habitat", name="Carrier")
    state = fight(engine, carrier, TARGET)
    state = play(engine, state, DroneStrafe(1))
    assert (state.step.purpose, state.step.dice, state.step.mass) == ("strafe", 2, None)
    state = play(engine, state, 1)
    assert isinstance(state.step, PendingDamage) and state.step.hits == 1
    state = play(engine, state, AssignDamage(slot_of(state.ships[1], "armor")))
    with pytest.raises(IllegalAction, match="drones have already flown"):
        engine.apply(state, DroneStrafe(1))


def test_heal_crew_rolls_one_die_and_needs_someone_hurt(engine):
    state = fight(engine, GUNBOAT, roster("cruiser", "habitat", "habitat", "armor", name="Target"))
    with pytest.raises(IllegalAction, match="is hurt"):
        engine.apply(state, HealCrew())
    # Hit the target's habitat (a hit there hurts a crew), then let the target heal.
    state = play(engine, state, FireWeapons("laser", 1, 1), 1, AssignDamage(0), ConserveEnergy())
    assert state.ships[1].crew_hurt == 1
    state = play(engine, state, HealCrew())
    assert state.step.dice == 1 and state.step.purpose == "heal"
    state = play(engine, state, 1)
    assert (state.ships[1].crew_ready, state.ships[1].crew_hurt) == (4, 0)


def test_precision_fire_is_the_first_ships_only_action_and_must_aim_at_armor(engine):
    """'You can only take this action if you take the very first turn in the round and this is the only action
    you take this turn ... If the target ship has any armor systems that aren't destroyed, this action must
    target an armor system.'"""
    state = fight(engine, GUNBOAT, TARGET)
    armor = slot_of(state.ships[1], "armor")
    with pytest.raises(IllegalAction, match="must aim at an armor system"):
        engine.apply(state, PrecisionFire(2, 1, 0))
    state = play(engine, state, PrecisionFire(2, 1, armor))
    assert (state.step.dice, state.step.system, state.ships[0].heat, state.actions_left) == (2, armor, 3, 0)
    state = play(engine, state, 2)
    assert state.ships[1].systems[armor].damage == 2 and not state.ships[1].systems[armor].destroyed
    assert state.acting_ship.name == "Target"
    with pytest.raises(IllegalAction, match="first turn of the round"):
        engine.apply(state, PrecisionFire(1, 0, 0))


def test_precision_fire_ignores_hits_beyond_what_the_system_can_take(engine):
    bare = roster("cruiser", "habitat", "engine", "laser", name="Bare")
    state = fight(engine, GUNBOAT, bare)
    state = play(engine, state, PrecisionFire(2, 1, 2))  # the laser: no armor to aim at first
    state = play(engine, state, 2)
    laser = state.ships[1].systems[2]
    assert laser.destroyed and laser.damage == 2


def test_a_second_precision_roll_of_more_than_the_room_left_loses_the_rest(engine):
    state = fight(engine, GUNBOAT, TARGET)
    armor = slot_of(state.ships[1], "armor")
    state = play(engine, state, PrecisionFire(1, 1, armor), 1)
    state = play(engine, state, ConserveEnergy(), ConserveEnergy())
    state = finish_round(engine, state)
    state = play(engine, state, PrecisionFire(2, 1, armor), 2)
    assert state.ships[1].systems[armor].damage == 2
    assert any("more than the system can take" in e.text for e in state.events)


def test_repairs_roll_a_die_per_ready_crew_and_the_player_picks_the_marks(engine):
    crewed = roster("capital", "habitat", "habitat", "laser", "armor", "engine", name="Crewed")
    state = fight(engine, GUNBOAT, crewed)
    state = play(engine, state, FireWeapons("laser", 2, 1), 3, AssignDamage(2), AssignDamage(2), AssignDamage(3),
                 ConserveEnergy())
    ship = state.ships[1]
    assert ship.systems[2].destroyed and ship.systems[3].damage == 1
    state = play(engine, state, RepairSystems())
    assert state.step.dice == 6
    state = play(engine, state, 2)
    assert isinstance(state.step, PendingRepair) and state.step.marks == 2
    assert engine.legal_actions(state) == [RepairSystem(3)]  # the destroyed laser cannot be repaired
    state = play(engine, state, RepairSystem(3))
    assert state.ships[1].systems[3].damage == 0 and state.step is None  # nothing left to repair: the mark is lost
    assert state.actions_left == 1


def test_two_actions_then_the_next_ship(engine):
    state = fight(engine, GUNBOAT, TARGET)
    state = play(engine, state, ConserveEnergy())
    assert state.acting_ship.name == "Gunboat" and state.actions_left == 1
    state = play(engine, state, ConserveEnergy())
    assert state.acting_ship.name == "Target" and state.actions_left == 2


# ------------------------------------------------------------------ damage
def test_a_second_hit_destroys_a_system_and_damaged_systems_cannot_act(engine):
    state = fight(engine, GUNBOAT, roster("cruiser", "habitat", "laser", "laser", "armor", name="Target"))
    state = play(engine, state, FireWeapons("laser", 2, 1), 3, AssignDamage(1), AssignDamage(1), AssignDamage(2),
                 ConserveEnergy())
    target = state.ships[1]
    assert target.systems[1].destroyed and target.systems[2].damaged and not target.systems[2].destroyed
    assert engine.working(target, "weapon") == 0
    with pytest.raises(IllegalAction, match="0 laser"):
        engine.apply(state, FireWeapons("laser", 1, 0))
    assert not any(isinstance(a, FireWeapons) for a in engine.legal_actions(state))


def test_full_armor_takes_no_more_hits_and_destroyed_systems_none_at_all(engine):
    state = fight(engine, GUNBOAT, TARGET)
    armor = slot_of(state.ships[1], "armor")
    state = play(engine, state, FireWeapons("laser", 2, 1), 3, AssignDamage(armor), AssignDamage(armor))
    with pytest.raises(IllegalAction, match="is full"):
        engine.apply(state, AssignDamage(armor))
    state = play(engine, state, AssignDamage(3), ConserveEnergy())
    state = play(engine, state, ConserveEnergy(), ConserveEnergy())
    state = finish_round(engine, state)
    state = play(engine, state, FireWeapons("missile", 1, 1), 2, AssignDamage(3))
    with pytest.raises(IllegalAction, match="is destroyed"):
        engine.apply(state, AssignDamage(3))


def test_hits_on_special_systems(engine):
    """Our reading of the lost list of special rules: a hit habitat hurts a crew, a hit engine slows the ship,
    a hit dissipator leaks heat, a destroyed habitat loses the crew it housed."""
    victim = roster("capital", "habitat", "habitat", "engine", "engine", "dissipator", "armor", name="Victim")
    state = fight(engine, GUNBOAT, victim)
    assert (state.ships[1].speed, state.ships[1].heat, state.ships[1].crew) == (2, 1, 6)
    state = play(engine, state, FireWeapons("missile", 1, 1), 4, AssignDamage(0), AssignDamage(2),
                 AssignDamage(4), AssignDamage(0))
    victim = state.ships[1]
    assert victim.systems[0].destroyed
    assert victim.speed == 1 and victim.heat == 2
    assert (victim.crew_ready, victim.crew_hurt) == (3, 0)  # hurt once, then the hurt crew were lost with it
    assert any("lost with the habitat" in e.text for e in state.events)


# ------------------------------------------------------------------ the aftermath and heat
def test_the_aftermath_vents_heat_then_rolls_what_is_left_against_the_crew(engine):
    """'remove one heat token for every undamaged Dissipator ... Roll as many dice as the number of heat tokens
    that remain'. An effective die hurts a ready crew, or with none ready loses a hurt one."""
    hot = roster("capital", "engine", "engine", "engine", "engine", "dissipator", "habitat", name="Hot")
    state = fight(engine, hot, TARGET)
    assert state.ships[0].heat == 3
    state = play(engine, state, ConserveEnergy(), ConserveEnergy(), ConserveEnergy(), ConserveEnergy())
    assert state.ships[0].heat == 0 and state.turn == 2  # 3 - 2 conserved - 1 vented: nothing to roll
    hot2 = roster("capital", "engine", "engine", "engine", "engine", "habitat", name="Hotter")
    state = fight(engine, hot2, roster("cruiser", "habitat", "armor", name="Calm"))
    state = play(engine, state, ConserveEnergy(), ConserveEnergy(), ConserveEnergy(), ConserveEnergy())
    assert state.step.purpose == "heat" and state.step.dice == 2
    state = play(engine, state, 2)
    assert (state.ships[0].crew_ready, state.ships[0].crew_hurt) == (1, 2)
    assert state.turn == 2


def test_heat_loses_hurt_crew_once_nobody_is_ready_and_no_crew_is_out(engine):
    lone = roster("fighter", "engine", "engine", "engine", "habitat", name="Lone")
    state = fight(engine, lone, roster("cruiser", "habitat", "armor", name="Calm"))
    state = play(engine, state, ConserveEnergy(), BurnEngines(3, 0), ConserveEnergy(), ConserveEnergy())
    assert state.step.dice == 5
    state = play(engine, state, 2)
    assert state.ships[0].eliminated and state.phase == "over"
    assert engine.outcome(state).winners == (1,)
    assert any("no crew is left" in e.text for e in state.events)


@pytest.mark.parametrize("mode,after", [("ready_only", (0, 1, False)), ("kill", (0, 0, True))])
def test_how_heat_hurts_is_an_option(tmp_path, mode, after):
    engine = engine_with(tmp_path, "actions.yaml", "heat_hurts: ready_then_kill", f"heat_hurts: {mode}")
    lone = roster("fighter", "engine", "engine", "engine", "habitat", name="Lone")
    state = fight(engine, lone, roster("cruiser", "habitat", "armor", name="Calm"))
    state = play(engine, state, ConserveEnergy(), ConserveEnergy(), ConserveEnergy(), ConserveEnergy())
    state = play(engine, state, 1)
    ship = state.ships[0]
    assert (ship.crew_ready, ship.crew_hurt, ship.eliminated) == after


# ------------------------------------------------------------------ elimination and the end
def test_a_ship_with_every_system_damaged_is_out_and_the_last_side_wins(engine):
    frail = roster("cruiser", "habitat", "armor", name="Frail")
    state = fight(engine, GUNBOAT, frail)
    state = play(engine, state, FireWeapons("laser", 2, 1), 2, AssignDamage(1))
    assert not state.ships[1].eliminated
    state = play(engine, state, AssignDamage(0))
    assert state.ships[1].eliminated and engine.current_player(state) == TERMINAL
    outcome = engine.outcome(state)
    assert outcome.winners == (0,) and "Captain 1 wins" in outcome.reason
    assert engine.legal_actions(state) == []


def test_hits_on_a_ship_already_out_are_lost(engine):
    frail = roster("cruiser", "habitat", name="Frail")
    state = fight(engine, GUNBOAT, frail, TARGET)
    state = play(engine, state, FireWeapons("laser", 2, 1), 2, AssignDamage(0))
    assert state.ships[1].eliminated and state.step is None and state.phase == "execution"


def test_teammates_are_no_targets_and_a_team_wins_together(engine):
    enemy = roster("cruiser", "habitat", "armor", name="Enemy")
    state = fight(engine, GUNBOAT, enemy, roster("cruiser", "habitat", "engine", name="Friend"), teams=[1, 2, 1])
    assert not any(getattr(a, "target", None) == 2 for a in engine.legal_actions(state))
    with pytest.raises(IllegalAction, match="on Gunboat's side"):
        engine.apply(state, FireWeapons("laser", 1, 2))
    state = play(engine, state, FireWeapons("laser", 2, 1), 2, AssignDamage(0), AssignDamage(1))
    assert state.phase == "over" and engine.outcome(state).winners == (0, 2)


def test_a_ceasefire_needs_every_captain_still_fighting(engine):
    state = fight(engine, GUNBOAT, TARGET)
    state = play(engine, state, OfferCeasefire())
    with pytest.raises(IllegalAction, match="already offered"):
        engine.apply(state, OfferCeasefire())
    state = play(engine, state, ConserveEnergy(), ConserveEnergy(), ConserveEnergy(), ConserveEnergy())
    state = finish_round(engine, state)
    assert state.turn == 2 and state.ceasefire == frozenset()  # only one offered: the fight goes on
    state = play(engine, state, OfferCeasefire(), ConserveEnergy(), ConserveEnergy(), OfferCeasefire(),
                 ConserveEnergy(), ConserveEnergy())
    state = finish_round(engine, state)
    assert state.phase == "over" and engine.outcome(state).winners == () and "Ceasefire" in engine.outcome(state).reason


def test_the_round_limit_ends_the_fight_undecided(engine):
    state = fight(engine, GUNBOAT, TARGET, round_limit=1)
    state = play(engine, state, ConserveEnergy(), ConserveEnergy(), ConserveEnergy(), ConserveEnergy())
    state = finish_round(engine, state)
    assert state.phase == "over" and engine.outcome(state).winners == ()


def test_refusals_while_something_is_pending(engine):
    state = fight(engine, GUNBOAT, TARGET)
    state = play(engine, state, FireWeapons("laser", 1, 1))
    with pytest.raises(IllegalAction, match="must roll to shoot first"):
        engine.apply(state, ConserveEnergy())
    with pytest.raises(IllegalAction, match="cannot show 3 effective dice"):
        engine.apply(state, Roll(3))
    state = play(engine, state, 1)
    with pytest.raises(IllegalAction, match="first place the 1 hit"):
        engine.apply(state, ConserveEnergy())
    assert engine.refusal(state, AssignDamage(9)) == "Target has no slot 10"


def test_every_legal_action_applies_and_every_refused_one_is_refused(engine):
    """legal_actions and refusal agree, through a whole short fight of first choices."""
    state = fight(engine, "dart", "lancer", "bastion")
    for _ in range(200):
        if engine.current_player(state) == TERMINAL:
            break
        legal = engine.legal_actions(state)
        assert legal
        for action in legal[:25]:
            engine.apply(state, action)  # never raises
        state = engine.apply(state, legal[len(legal) // 2])
    assert sum(p for _, p in engine.chance_outcomes(fight(engine, "dart", "dart"))) == Fraction(1)
