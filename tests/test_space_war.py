"""Space War (the ``space_war`` option): named scenarios with forced rolls, played through real actions.

Two programs each fly a crewed craft into low orbit; program 1's craft (Beta) arrives second and acts there
with program 0's craft (Alpha) at the same step. Parts are rated 10/15 on a d20 (1 works, 12 Fails, 18 Booms).
Quotes are from the wiki's "New Spacewar" (shared/wiki-notes.md); decisions are in docs/rules-decisions.md.
"""
from __future__ import annotations

from fractions import Fraction

import pytest

from game.games.whatgoesup.rules.actions import Build, EndRnD, Invent, Research, Roll
from game.games.whatgoesup.rules.engine import CHANCE
from game.games.whatgoesup.rules.flight_actions import (AcceptRoll, AllowDocking, Dock, EndActivities, Launch, Move, PickEnemy,
                                                        RepelDocking, StartFight, UseSkill)
from game.games.whatgoesup.rules.scenario import give_stock
from game.games.whatgoesup.rules.state import PlayerSetup, Setup
from tests.test_flight_failures import ENGINE, FAIL, OK, act, build, settle

ALPHA_CREW = (("Ace", 2, 2, 2),)
BETA_CREW = (("Bo", 2, 2, 3),)


def rivals(alpha_crew=ALPHA_CREW, beta_crew=BETA_CREW, alpha_extras=("rcs",), beta_extras=("rcs",),
           options=("space_war",), turn_limit=None, alpha_robots=0, beta_robots=0):
    """Alpha (program 0) and Beta (program 1) in low orbit at the same step; Beta's activities are open.
    ``alpha_robots`` / ``beta_robots`` underped systems (built by real R&D) fly aboard too; they power up on
    the way (every roll a 1)."""
    people = [("Hop", "rabitians"), ("Spud", "merbs")]
    setup = Setup(tuple(PlayerSetup(n, p) for n, p in people), options=frozenset(options), turn_limit=turn_limit)
    s = ENGINE.new_game(setup)
    s, parts = systems(s, alpha_robots)
    s, alpha = build(s, 0, name="Alpha", crew=alpha_crew, extras=alpha_extras, parts=parts)
    s = act(s, EndRnD())
    s, parts = systems(s, beta_robots)
    s, beta = build(s, 1, name="Beta", crew=beta_crew, extras=beta_extras, parts=parts)
    s = act(s, EndRnD())
    for _ in range(50):  # launches and insertions, Alpha first whenever a coin decides
        f = s.flight
        if f.active == beta.upgoer and f.mode == "after" and ENGINE.current_player(s) != CHANCE:
            break
        if f.timing_tie:
            s = act(s, Roll(f.timing_tie.index(alpha.upgoer) + 1 if alpha.upgoer in f.timing_tie else 1))
        elif ENGINE.current_player(s) == CHANCE:
            s = settle(s, OK)
        elif f.mode == "decide":
            s = act(s, Launch(f.active))
        else:
            assert f.active == alpha.upgoer and f.mode == "after"
            s = act(s, EndActivities(alpha.upgoer))
    assert s.upgoer(alpha.upgoer).location == s.upgoer(beta.upgoer).location == "low_1"
    return s, alpha, beta


def systems(s, count):
    """The program in R&D invents an underped system, researches it to 6/10 and builds ``count``; returns
    (state, their part ids)."""
    if not count:
        return s, ()
    p = ENGINE.current_player(s)
    s = give_stock(s, p, points=100)
    s = act(s, Invent("underped", 1))
    thing = s.things[-1].id
    s = act(act(act(s, Research(thing, "boom", 5)), Research(thing, "fail", 5)), Build(thing, count))
    return s, tuple(i.id for i in s.items if i.thing_id == thing)


def robots(s, upgoer):
    """The underped systems aboard ``upgoer``, in order."""
    return [d for d in s.derps if d.is_system and d.location == upgoer]


def derp(s, name):
    return next(d for d in s.derps if d.name == name)


def texts(s):
    return [e.text for e in s.events]


# ====================================================================== the option
def test_without_space_war_a_rival_docking_simply_stands_and_nobody_fights():
    s, alpha, beta = rivals(options=())
    assert StartFight(alpha.upgoer) not in ENGINE.legal_actions(s)
    assert ENGINE.refusal(s, StartFight(alpha.upgoer)) == \
        "fights between derps are part of Space War, which is off in this game"
    s = settle(act(s, Dock(alpha.upgoer, beta.crew[0])), OK, "docking")
    assert s.upgoer(beta.upgoer).docked_with == (alpha.upgoer,)
    assert s.flight.boarding is None and s.wars == ()


def test_space_war_is_off_by_default_and_explained():
    option = ENGINE.rules.option("space_war")
    assert option.default is False and "defeat" in option.explanation
    assert ENGINE.rules.space_war.derp_fights.beaten_loss == 2 and ENGINE.rules.space_war.derp_fights.brawl_loss == 1


# ====================================================================== hostile docking
def test_the_defender_answers_a_docking_that_worked():
    """"Hostile docking: the defender may cancel each successful docking with a successful RCS burn.\""""
    s, alpha, beta = rivals()
    s = settle(act(s, Dock(alpha.upgoer, beta.crew[0])), OK, "docking")
    assert ENGINE.current_player(s) == 0  # Alpha's program decides, not Beta's
    assert ENGINE.legal_actions(s) == [RepelDocking(alpha.extras["rcs"]), AllowDocking()]
    assert s.upgoer(beta.upgoer).docked_with == ()
    assert ENGINE.refusal(s, EndActivities(beta.upgoer)) is not None


def test_a_successful_rcs_burn_cancels_the_docking_and_a_secret_war_begins():
    s, alpha, beta = rivals()
    s = settle(act(s, Dock(alpha.upgoer, beta.crew[0])), OK, "docking")
    s = act(s, RepelDocking(alpha.extras["rcs"]))
    assert s.flight.roll.kind == "docking" and s.flight.roll.upgoer == alpha.upgoer
    assert len(s.wars) == 1 and s.wars[0].programs == (0, 1) and not s.wars[0].open
    s = settle(s, OK, "docking")
    assert "Alpha pushes Beta off: the docking fails." in texts(s)
    assert s.upgoer(beta.upgoer).docked_with == () and s.upgoer(alpha.upgoer).docked_with == ()
    assert s.item(alpha.extras["rcs"]).uses_left == 1 and s.item(beta.extras["rcs"]).uses_left == 1
    assert derp(s, "Bo").current_stamina == 2 and derp(s, "Ace").current_stamina == 2  # the defender's burn is free
    assert ENGINE.current_player(s) == 1 and s.flight.active == beta.upgoer
    assert ENGINE.refusal(s, Dock(alpha.upgoer, beta.crew[0])) is None  # stubborn docking


def test_a_failed_rcs_burn_lets_the_docking_stand():
    s, alpha, beta = rivals()
    s = settle(act(s, Dock(alpha.upgoer, beta.crew[0])), OK, "docking")
    s = act(s, RepelDocking(alpha.extras["rcs"]))
    s = act(s, Roll(FAIL))
    assert ENGINE.current_player(s) == 0  # the defender may still help its own roll
    assert UseSkill(alpha.crew[0], "piloting") in ENGINE.legal_actions(s)
    s = act(s, AcceptRoll())
    assert s.upgoer(beta.upgoer).docked_with == (alpha.upgoer,)
    assert s.item(alpha.extras["rcs"]).uses_left == 1  # the Fail used half its fuel


def test_giving_up_lets_the_docking_stand_without_a_war():
    s, alpha, beta = rivals()
    s = settle(act(s, Dock(alpha.upgoer, beta.crew[0])), OK, "docking")
    s = act(s, AllowDocking())
    assert "Alpha gives up resisting: the docking stands." in texts(s)
    assert s.upgoer(beta.upgoer).docked_with == (alpha.upgoer,)
    assert s.wars == ()
    assert ENGINE.current_player(s) == 1


def test_the_contest_ends_when_the_defender_runs_out_of_rcs():
    """"... until one side runs out of RCS or gives up.\""""
    s, alpha, beta = rivals(beta_crew=(("Bo", 2, 2, 4),), beta_extras=("rcs", "rcs"))
    for attempt in range(2):
        s = settle(act(s, Dock(alpha.upgoer, beta.crew[0])), OK, "docking")
        s = settle(act(s, RepelDocking(alpha.extras["rcs"])), OK, "docking")
        assert s.upgoer(beta.upgoer).docked_with == ()
    assert s.item(alpha.extras["rcs"]).uses_left == 0
    s = settle(act(s, Dock(alpha.upgoer, beta.crew[0])), OK, "docking")
    assert s.flight.boarding is None  # nothing left to push with: the docking stands at once
    assert s.upgoer(beta.upgoer).docked_with == (alpha.upgoer,)
    assert derp(s, "Bo").current_stamina == 1


def test_the_contest_ends_when_the_attacker_runs_out_of_rcs():
    s, alpha, beta = rivals(alpha_extras=("rcs", "rcs"), beta_crew=(("Bo", 2, 2, 4),))
    for attempt in range(2):
        s = settle(act(s, Dock(alpha.upgoer, beta.crew[0])), OK, "docking")
        s = settle(act(s, RepelDocking(ENGINE.legal_actions(s)[0].item)), OK, "docking")
    assert s.item(beta.extras["rcs"]).uses_left == 0
    assert ENGINE.refusal(s, Dock(alpha.upgoer, beta.crew[0])) == "Beta has no RCS with fuel left for docking"


def test_the_attacker_may_use_a_winch_and_the_defender_may_not():
    """"The attacker may use winches; the defender may not.\""""
    s, alpha, beta = rivals(alpha_extras=("rcs", "winch", "eva_pack"), beta_extras=("winch", "eva_pack"))
    s = act(s, Dock(alpha.upgoer, beta.crew[0], method="winch"))
    s = settle(s, OK, "eva")
    s = settle(s, OK, "winch")
    assert ENGINE.current_player(s) == 0
    assert ENGINE.legal_actions(s) == [RepelDocking(alpha.extras["rcs"]), AllowDocking()]  # no winch for Alpha
    assert ENGINE.refusal(s, RepelDocking(alpha.extras["winch"])) is not None
    s = settle(act(s, RepelDocking(alpha.extras["rcs"])), OK, "docking")
    assert s.upgoer(beta.upgoer).docked_with == ()
    assert s.item(beta.extras["winch"]).unusable_this_turn  # the winch docking turned into a Fail


def test_a_winch_docking_against_a_craft_without_rcs_stands():
    s, alpha, beta = rivals(alpha_extras=(), beta_extras=("winch", "eva_pack"))
    s = settle(settle(act(s, Dock(alpha.upgoer, beta.crew[0], method="winch")), OK, "eva"), OK, "winch")
    assert s.flight.boarding is None and s.upgoer(beta.upgoer).docked_with == (alpha.upgoer,)


# ====================================================================== derp fights
def fight(s, target, picks):
    """Beta's crew starts a fight with ``target``; ``picks`` are (derp name, enemy name) in the asked order."""
    s = act(s, StartFight(target))
    for who, whom in picks:
        assert ENGINE.current_player(s) == derp(s, who).owner
        s = act(s, PickEnemy(derp(s, who).id, derp(s, whom).id))
    assert ENGINE.current_player(s) == CHANCE
    return s


def dice(s, *values):
    for v in values:
        s = act(s, Roll(v))
    return s


def stamina(s, *names):
    return tuple(derp(s, n).current_stamina for n in names)


GANG = dict(alpha_crew=(("Ace", 1, 0, 8),), beta_crew=(("Bo", 2, 0, 5), ("Cy", 0, 0, 5)))


def test_everyone_able_to_fight_picks_an_enemy_attackers_first():
    s, alpha, beta = rivals(**GANG)
    s = act(s, StartFight(alpha.upgoer))
    assert ENGINE.current_player(s) == 1
    assert ENGINE.legal_actions(s) == [PickEnemy(derp(s, "Bo").id, derp(s, "Ace").id)]
    assert s.wars[0].programs == (0, 1) and not s.wars[0].open


@pytest.mark.parametrize("cy_die, ace_die, ace_loses", [
    (15, 10, 1 + 2),  # attacker higher (15 + 0 > 10 + 1): the defender loses 2, and 1 as everyone does
    (5, 10, 1),  # defender higher: nothing but the 1
    (11, 10, 1),  # a tie (11 + 0 = 10 + 1): nothing but the 1
])
def test_an_attacker_defender_pair(cy_die, ace_die, ace_loses):
    """"Attacker higher: defender loses 2 Stamina; defender higher or tie: nothing. Both always lose 1.\""""
    s, alpha, beta = rivals(**GANG)
    s = fight(s, alpha.upgoer, [("Bo", "Ace"), ("Cy", "Ace"), ("Ace", "Bo")])
    s = dice(s, 10, 10)  # Bo and Ace, a mutual pair: 12 against 11, Ace loses 2 + 1, Bo 1
    assert s.flight.fight.pairs == ((derp(s, "Cy").id, derp(s, "Ace").id, False),)
    s = dice(s, cy_die, ace_die)
    assert s.flight.fight is None
    assert stamina(s, "Cy") == (4,)
    assert stamina(s, "Ace") == (8 - 3 - ace_loses,)
    assert stamina(s, "Bo") == (4,)


@pytest.mark.parametrize("bo_die, ace_die, expected", [
    (10, 5, (4, 2)),  # Bo 12 against Ace 6: Ace, lower, loses 2 + 1
    (3, 10, (2, 4)),  # Bo 5 against Ace 11: Bo loses 2 + 1
    (9, 10, (4, 4)),  # 11 against 11: a tie, both lose only 1
])
def test_two_derps_attacking_each_other(bo_die, ace_die, expected):
    """"Two derps attacking each other: one roll each plus Piloting; lower loses 2 Stamina; tie nothing;
    both lose 1.\""""
    s, alpha, beta = rivals(alpha_crew=(("Ace", 1, 0, 5),), beta_crew=(("Bo", 2, 0, 5),))
    s = fight(s, alpha.upgoer, [("Bo", "Ace"), ("Ace", "Bo")])
    assert s.flight.fight.pairs == ((derp(s, "Bo").id, derp(s, "Ace").id, True),)  # one roll each, not two pairs
    s = dice(s, bo_die, ace_die)
    assert stamina(s, "Bo", "Ace") == expected


def test_ganging_up_hits_the_lone_derp_once_per_pair():
    s, alpha, beta = rivals(alpha_crew=(("Ace", 0, 0, 9),), beta_crew=(("Bo", 0, 0, 5), ("Cy", 0, 0, 5)))
    s = fight(s, alpha.upgoer, [("Bo", "Ace"), ("Cy", "Ace"), ("Ace", "Cy")])
    # Pairs in pick order: Bo attacks Ace; Cy and Ace go for each other.
    assert [(derp(s, "Bo").id, derp(s, "Ace").id, False), (derp(s, "Cy").id, derp(s, "Ace").id, True)] == \
        list(s.flight.fight.pairs)
    s = dice(s, 20, 1, 20, 1)
    assert stamina(s, "Ace", "Bo", "Cy") == (9 - 3 - 3, 4, 4)


def test_the_odds_of_a_pair_are_exact_before_each_die():
    s, alpha, beta = rivals(alpha_crew=(("Ace", 1, 0, 5),), beta_crew=(("Bo", 2, 0, 5),))
    s = fight(s, alpha.upgoer, [("Bo", "Ace"), ("Ace", "Bo")])
    odds = ENGINE.flight_rules.fight_odds(s)
    assert sum(odds.values()) == 1
    assert odds["even"] == Fraction(19, 400)  # Bo's die one lower than Ace's: 19 of 400
    assert odds["first"] == Fraction(210, 400)
    s = act(s, Roll(1))  # Bo 3: Ace (1 Piloting) wins on 3..20, ties on 2, loses on 1
    assert ENGINE.flight_rules.fight_odds(s) == {"first": Fraction(1, 20), "second": Fraction(18, 20),
                                                 "even": Fraction(1, 20)}
    assert ENGINE.chance_outcomes(s) == [(Roll(v), Fraction(1, 20)) for v in range(1, 21)]


def test_losing_more_stamina_than_is_left_injures_and_a_second_beating_kills_and_opens_the_war():
    """"An injured derp who gets injured again dies." A death makes the secret war open."""
    s, alpha, beta = rivals(alpha_crew=(("Ace", 0, 0, 2),), beta_crew=(("Bo", 3, 0, 6), ("Cy", 3, 0, 6)))
    s = fight(s, alpha.upgoer, [("Bo", "Ace"), ("Cy", "Ace"), ("Ace", "Bo")])
    s = dice(s, 20, 1, 20, 1)
    ace = derp(s, "Ace")
    assert ace.injured and not ace.dead and ace.current_stamina == 0
    assert "Ace is injured (beaten in a fight)." in texts(s)
    assert not s.wars[0].open
    # Ace cannot fight back now, but may still be picked: any loss is a second injury.
    s = fight(s, alpha.upgoer, [("Bo", "Ace"), ("Cy", "Ace")])
    s = dice(s, 1, 20, 1, 20)
    assert derp(s, "Ace").dead
    war = s.wars[0]
    assert war.open and war.opened == 1 and war.cause == "Ace died in a fight"
    assert s.at_open_war(0) and s.at_open_war(1)


def test_an_open_war_is_a_defeat_for_everyone_in_it():
    s, alpha, beta = rivals(alpha_crew=(("Ace", 0, 0, 2),), beta_crew=(("Bo", 3, 0, 6), ("Cy", 3, 0, 6)),
                            turn_limit=1)
    s = fight(s, alpha.upgoer, [("Bo", "Ace"), ("Cy", "Ace"), ("Ace", "Bo")])
    s = dice(s, 20, 1, 20, 1)
    s = fight(s, alpha.upgoer, [("Bo", "Ace"), ("Cy", "Ace")])
    s = dice(s, 1, 20, 1, 20)
    s = play_out_the_turn(s)
    assert s.phase == "over"
    assert s.winner == ()
    outcome = ENGINE.outcome(s)
    assert outcome.winners == ()
    assert outcome.reason == ("The game ends after turn 1 and nobody wins. "
                              "Hop and Spud are at open war: a defeat for both.")


def test_a_secret_war_costs_nothing_at_the_end():
    s, alpha, beta = rivals(alpha_crew=(("Ace", 1, 0, 5),), beta_crew=(("Bo", 2, 0, 5),), turn_limit=1)
    s = dice(fight(s, alpha.upgoer, [("Bo", "Ace"), ("Ace", "Bo")]), 10, 10)
    s = play_out_the_turn(s)
    assert s.phase == "over" and s.wars and not s.wars[0].open
    assert s.winner and "open war" not in ENGINE.outcome(s).reason


def play_out_the_turn(s):
    """Finish the flight phase (every die OK, every craft ends its activities) and the turn."""
    for _ in range(500):
        if s.phase != "flight":
            break
        if ENGINE.current_player(s) == CHANCE:
            s = settle(s, OK)
        elif s.flight.mode == "before":
            s = act(s, Move(s.flight.active))
        elif s.flight.mode == "after":
            s = act(s, EndActivities(s.flight.active))
        else:
            s = act(s, ENGINE.legal_actions(s)[0])
    while s.phase == "rnd":
        s = act(s, EndRnD())
    return s


# ====================================================================== robots in a derp fight
BOTH = ("space_war", "underped")


def test_robots_stay_in_their_capsule_so_only_the_defenders_robots_fight():
    """An underped system "counts as a derp with starting stats" but "sits in a capsule" (wiki, underped): the
    fight is aboard the defender, so the attacker's robot stays out of it (it cannot go across, nor be picked),
    while the defender's robot, where the fight is, picks an enemy and is picked like a derp. What would injure
    a derp powers it down: beaten past its stamina, it is knocked out, not hurt or killed."""
    s, alpha, beta = rivals(options=BOTH, alpha_robots=1, beta_robots=1)
    (robot,), (theirs,) = robots(s, alpha.upgoer), robots(s, beta.upgoer)
    assert robot.awake and theirs.awake  # both powered up on the way to orbit
    bo, ace = derp(s, "Bo").id, derp(s, "Ace").id
    s = act(s, StartFight(alpha.upgoer))
    assert s.flight.fight.to_pick == (bo, robot.id, ace)  # Beta's robot does not go across
    assert ENGINE.legal_actions(s) == [PickEnemy(bo, robot.id), PickEnemy(bo, ace)]
    s = act(s, PickEnemy(bo, robot.id))
    assert ENGINE.legal_actions(s) == [PickEnemy(robot.id, bo)]
    assert "can only go for a derp aboard the other craft" in ENGINE.refusal(s, PickEnemy(robot.id, theirs.id))
    s = act(act(s, PickEnemy(robot.id, bo)), PickEnemy(ace, bo))
    assert s.flight.fight.pairs == ((bo, robot.id, True), (ace, bo, False))
    s = dice(s, 20, 1, 1, 20)  # Bo 22 against the robot's 1; Ace 3 against Bo's 22
    assert s.flight.fight is None
    beaten = s.derp(robot.id)
    assert beaten.powered_down and not beaten.injured and not beaten.dead and beaten.current_stamina == 0
    assert stamina(s, "Bo", "Ace") == (3 - 2, 2 - 1)
    assert s.derp(theirs.id) == theirs  # untouched


def test_a_craft_flown_by_robots_alone_cannot_start_a_fight_but_can_be_fought():
    """Robots never leave their capsule, so a craft with only robots aboard has nobody to send across; a crewed
    rival may still come over and fight its robots, who fight back where they sit."""
    s, alpha, beta = rivals(options=BOTH, beta_crew=(), beta_robots=1)
    assert StartFight(alpha.upgoer) not in ENGINE.legal_actions(s)
    assert ENGINE.refusal(s, StartFight(alpha.upgoer)) == \
        "Beta's robots cannot leave their capsule to fight, and no derp aboard is fit to go"
    s, alpha, beta = rivals(options=BOTH, alpha_crew=(), alpha_robots=1)
    (robot,) = robots(s, alpha.upgoer)
    s = fight(s, alpha.upgoer, [("Bo", robot.name), (robot.name, "Bo")])
    assert s.flight.fight.pairs == ((derp(s, "Bo").id, robot.id, True),)


def test_a_fight_needs_a_rival_at_the_same_step_and_someone_fit_to_fight():
    s, alpha, beta = rivals(beta_crew=(("Bo", 2, 0, 5, 0),))
    assert StartFight(alpha.upgoer) in ENGINE.legal_actions(s)  # tired (0 stamina) but healthy: may fight
    assert ENGINE.refusal(s, StartFight(beta.upgoer)) is not None


def test_a_space_war_game_with_fights_saves_and_replays_the_same(tmp_path):
    """Seed 12's raider game (a derp fight, two ship fights, a war turned open) through a save file and back:
    same actions, same end."""
    from game.core.saves import load_game, save_game
    from game.games.whatgoesup.rules.flight.ship_combat import OpenFire
    from game.games.whatgoesup.sim import default_setup, play_game

    setup = default_setup(ENGINE, players=2, turns=20, options=("space_war",))
    result = play_game(ENGINE, setup, seed=12, max_turns=20, bot_kind="raider")
    assert result.failure is None
    assert sum(1 for a in result.actions if isinstance(a, StartFight)) >= 1
    assert any(isinstance(a, OpenFire) for a in result.actions)
    assert any(isinstance(a, PickEnemy) for a in result.actions) and result.final.wars
    path = save_game(tmp_path / "war.json", ENGINE, setup, 12, result.actions)
    loaded = load_game(path, ENGINE)
    assert "space_war" in loaded.setup.options
    assert list(loaded.actions) == list(result.actions)
    assert loaded.final == result.final


def test_raiders_arm_some_programs_and_fire_only_from_armed_craft():
    """The raider bot arms about half its programs with a Waylight or a probe (the default bot never does), and
    in seed 7's raider game every craft that opens fire carries one; the fights happen in orbit by themselves."""
    from game.games.whatgoesup.bots import SpaceProgramBot
    from game.games.whatgoesup.rules.flight.ship_combat import OpenFire
    from game.games.whatgoesup.sim import default_setup, play_game

    state = ENGINE.new_game(default_setup(ENGINE, players=2, turns=20, options=("space_war",)))
    plain = ENGINE.new_game(default_setup(ENGINE, players=2, turns=20))
    raided = [SpaceProgramBot(seed, aggression=0.5).weapon(state, p) for seed in range(1, 21) for p in (0, 1)]
    assert set(raided) == {None, "waylight", "probe"}
    assert all(SpaceProgramBot(seed).weapon(state, 0) is None for seed in range(1, 21))
    assert all(SpaceProgramBot(seed, aggression=0.5).weapon(plain, 0) is None for seed in range(1, 21))

    shooters = []

    def watch(before, action, after):
        if isinstance(action, OpenFire):
            craft = before.upgoer(before.flight.active)
            kinds = {before.thing(before.item(m).thing_id).kind for m in craft.modules}
            shooters.append((craft.location, kinds & {"waylight", "probe"}))

    setup = default_setup(ENGINE, players=2, turns=20, options=("space_war",))
    result = play_game(ENGINE, setup, seed=7, max_turns=20, bot_kind="raider", on_action=watch)
    assert result.failure is None
    assert shooters and all(weapons for _, weapons in shooters)
    assert all(ENGINE.rules.board.step(step).orbit_type == "low" for step, _ in shooters)


def test_simulate_counts_a_game_lost_to_open_war_as_a_loss():
    from game.games.whatgoesup.sim import simulate

    summary = simulate(ENGINE, 20, seed=1, bot="raider", options=("space_war",))
    assert summary.invariant_failures == 0
    assert summary.open_wars >= 1  # seeds 1..20 hold open wars between the only two programs
    assert summary.wins + summary.losses == 20
    assert summary.losses == summary.open_wars  # two programs at open war: nobody wins that game
