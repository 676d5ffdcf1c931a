"""A flight's damage lasts for that flight: counted once while it flies, gone when the part comes home.

2014: a thruster Boom damages "the nearest capsule ... for this flight"; a capsule Fail may cost "2 reliability
(1 each) for ALL parts the rest of the mission". The engine keeps that damage on the part beside its own rating
(``Item.flight_fail_penalty``/``flight_boom_penalty``), which a launch freezes; these named scenarios, driven by
actions and forced rolls, show the damage counted once in flight, in the odds the player sees, and a part that
comes home (landing with its craft, or a reusable stage flying itself home) flying again at its own rating.
"""
from __future__ import annotations

import shutil
from fractions import Fraction

from game.games.whatgoesup.rules import planning
from game.games.whatgoesup.rules.actions import Assemble, EndRnD, Roll
from game.games.whatgoesup.rules.engine import CHANCE, Engine
from game.games.whatgoesup.rules.flight_actions import AcceptRoll, Burn, EndActivities, Launch, Move
from game.games.whatgoesup.rules.reliability import Outcome, Rating
from game.games.whatgoesup.rules.scenario import give_derp, give_stock, give_thing
from game.games.whatgoesup.rules.state import HOME, PlayerSetup, Setup, UpgoerDesign
from game.games.whatgoesup.rules.tables import DEFAULT_RULES_DIR, load_rules

GOOD = Rating(10, 15)  # on a d20: 1-9 OK, 10-14 Fail, 15-20 Boom
OK, FAIL, BOOM = 1, 12, 18
GOOD_ODDS = {Outcome.OK: Fraction(9, 20), Outcome.FAIL: Fraction(5, 20), Outcome.BOOM: Fraction(6, 20)}
DAMAGED_ODDS = {Outcome.OK: Fraction(8, 20), Outcome.FAIL: Fraction(5, 20), Outcome.BOOM: Fraction(7, 20)}  # 9/14


class Play:
    """One program's game on ``engine``, played by actions and forced rolls."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.rules = engine.rules
        self.s = engine.new_game(Setup((PlayerSetup("Hop", "rabitians"),), dice="d20", turn_limit=None))

    def part(self, kind: str, mass: int, name: str, count: int = 1, reusable: bool = False) -> list[str]:
        self.s, _, items = give_thing(self.s, self.rules, 0, kind, mass, str(GOOD), count=count, reusable=reusable,
                                      name=name)
        return list(items)

    def assemble(self, name: str, stages, modules, crew=(), fuel: int = 0, rations: int = 0) -> str:
        self.s = give_stock(self.s, 0, fuel=fuel, rations=rations)
        self.act(Assemble(UpgoerDesign(name, stages=tuple(stages), modules=tuple(modules), crew=tuple(crew),
                                       fuel=fuel, rations=rations)))
        return self.s.upgoers[-1].id

    def act(self, action) -> None:
        self.s = self.engine.apply(self.s, action)

    @property
    def roll(self):
        return self.s.flight.roll if self.s.phase == "flight" and self.s.flight is not None else None

    def odds(self):
        """The odds the roll card shows for the pending roll (the function the roll is sampled from)."""
        return planning.next_roll_odds(self.engine, self.s)

    def settle(self, value: int, kind: str) -> None:
        assert self.engine.current_player(self.s) == CHANCE and self.roll.kind == kind, self.roll
        self.act(Roll(value))
        if self.roll is not None and self.roll.value is not None:
            self.act(AcceptRoll())

    def all_ok(self) -> None:
        """Every die now waiting rolls OK (the capsule's duration roll in orbit, say)."""
        while self.engine.current_player(self.s) == CHANCE:
            self.settle(OK, self.roll.kind)

    def rating(self, item_id: str) -> Rating:
        return self.engine.item_rating(self.s, self.s.item(item_id))

    def damage(self, item_id: str) -> tuple[int, int]:
        item = self.s.item(item_id)
        return item.flight_fail_penalty, item.flight_boom_penalty


def test_a_capsule_damaged_for_one_flight_flies_its_next_at_its_own_rating():
    """A thruster Boom on the deorbit burn damages the capsule for this flight (-1/-1): its reentry and
    landing rolls show the damaged odds. Home again, the capsule has shed the damage; built into a new craft
    it is frozen at its own rating at launch, and its next reentry shows the undamaged odds."""
    play = Play(Engine(load_rules()))
    play.s, ace = give_derp(play.s, 0, "Ace", 2, 2, 2)
    launch, insertion = play.part("lower_stage", 200, "Big Stick"), play.part("lower_stage", 80, "Little Stick")
    capsule = play.part("capsule", 14, "Shell", reusable=True)[0]
    thrusters = play.part("thruster", 9, "Puff", count=2)
    craft = play.assemble("One", [launch, insertion], [capsule, *thrusters], [ace], fuel=20, rations=10)
    play.act(EndRnD())
    play.act(Launch(craft))
    play.settle(OK, "launch")
    play.settle(OK, "orbital_insertion")
    play.all_ok()
    play.act(EndActivities(craft))
    play.act(EndRnD())
    play.act(Move(craft))
    assert play.s.upgoer(craft).location == "low_burn_1"
    play.act(Burn("reentry"))
    play.settle(BOOM, "burn")
    assert play.damage(capsule) == (1, 1) and play.s.item(capsule).fixed_rating == GOOD
    assert "Shell is damaged: -1/-1 for this flight." in [e.text for e in play.s.events]
    play.act(Burn("reentry"))  # the other thruster
    play.settle(OK, "burn")
    for kind in ("reentry", "landing"):
        assert play.roll.rating == Rating(9, 14) and play.odds() == DAMAGED_ODDS  # counted once, in flight
        play.settle(OK, kind)
    assert play.s.upgoer(craft).status == "landed"
    assert play.s.item(capsule).location == HOME and play.damage(capsule) == (0, 0)

    hop = play.assemble("Two", [play.part("lower_stage", 200, "Big Stick")], [capsule], [ace], rations=2)
    play.act(EndRnD())
    play.act(Launch(hop))
    assert play.s.item(capsule).fixed_rating == GOOD and play.rating(capsule) == GOOD
    play.settle(OK, "launch")  # one stage: it arcs over and comes down
    assert play.roll.kind == "reentry" and play.roll.rating == GOOD and play.odds() == GOOD_ODDS


def engine_whose_insertion_fail_damages_every_part(tmp_path) -> Engine:
    """The shipped rules with one line changed, as a house rule could: a failed orbital insertion also costs
    every part aboard 2/2 for the rest of the flight (the shipped tables damage nothing before orbit)."""
    folder = tmp_path / "rules"
    shutil.copytree(DEFAULT_RULES_DIR, folder)
    flight = (folder / "flight.yaml").read_text()
    shipped = "    fail: [{effect: stages_spent}, {effect: to_fallback}]"
    assert flight.count(shipped) == 1
    (folder / "flight.yaml").write_text(flight.replace(shipped, "    fail: [{effect: degrade_all_parts, fail: 2, "
                                                                "boom: 2}, {effect: stages_spent}, "
                                                                "{effect: to_fallback}]"))
    return Engine(load_rules(folder))


def test_a_reusable_stage_flying_itself_home_sheds_the_flights_damage(tmp_path):
    """Damage done while a reusable insertion stage is aboard counts on its way down (8/13), not on its
    next flight: launched again it rolls at its own 10/15, the odds on the card, not at 6/11 (the damage
    frozen into its rating and then counted again) nor at 8/13 (the damage kept)."""
    play = Play(engine_whose_insertion_fail_damages_every_part(tmp_path))
    play.s, ace = give_derp(play.s, 0, "Ace", 2, 2, 2)
    stage = play.part("lower_stage", 80, "Hopper", reusable=True)[0]
    capsule = play.part("capsule", 14, "Shell", reusable=True)[0]
    craft = play.assemble("One", [play.part("lower_stage", 300, "Big Stick"), [stage]], [capsule], [ace],
                          rations=2)
    play.act(EndRnD())
    play.act(Launch(craft))
    play.settle(OK, "launch")
    play.settle(FAIL, "orbital_insertion")
    assert "Every part of One loses 2/2 for the rest of the flight." in [e.text for e in play.s.events]
    for step in ("reentry", "landing"):
        assert (play.roll.items, play.roll.step, play.roll.rating) == ((stage,), step, Rating(8, 13))
        play.settle(OK, "stage_recovery")
    assert "Hopper flies itself home for reuse." in [e.text for e in play.s.events]
    assert play.s.item(stage).location == HOME and play.damage(stage) == (0, 0)
    play.all_ok()  # the capsule comes down too
    assert play.s.phase == "rnd"

    test = play.assemble("Two", [[stage]], [])
    play.act(EndRnD())
    play.act(Launch(test))
    assert play.s.item(stage).fixed_rating == GOOD
    assert play.roll.kind == "launch" and play.roll.rating == GOOD and play.odds() == GOOD_ODDS


def test_a_part_placed_in_space_keeps_its_own_rating_and_counts_its_damage_once():
    """``scenario.place_in_space`` fixes the ratings a launch would: the part's own, this flight's damage kept
    apart (it froze the damaged rating before, and the damage was then counted a second time)."""
    from game.games.whatgoesup.rules.scenario import place_in_space
    from game.games.whatgoesup.rules.state import replace_in, update

    play = Play(Engine(load_rules()))
    capsule, = play.part("capsule", 1, "Pod")
    thruster, = play.part("thruster", 1, "Puff")
    hurt = update(play.s.item(capsule), flight_fail_penalty=1, flight_boom_penalty=1)
    play.s = update(play.s, items=replace_in(play.s.items, (hurt,)))
    assert play.rating(capsule) == Rating(9, 14)
    play.s, _ = place_in_space(play.s, play.engine, 0, UpgoerDesign("Sure", modules=(capsule, thruster)),
                               "low_1")
    assert play.s.item(capsule).fixed_rating == GOOD
    assert play.damage(capsule) == (1, 1)
    assert play.rating(capsule) == Rating(9, 14)
