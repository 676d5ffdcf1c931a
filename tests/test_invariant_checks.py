"""The play loop's invariant checks (``sim.InvariantChecks``) look only at what an action changed, and still catch
every broken state.

Each broken state below is made from a real game's state that the checks have just seen pass, so the checks
take their quick path (skipping each invariant whose ``looks_at`` says it cannot find fault), and each is
expected to be caught with the exact problem text. Along real games of every bot and option, every invariant
the checks skip is asked anyway and must find nothing: the declarations are what they promise.
"""
from __future__ import annotations

import dataclasses
from operator import is_not

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from game.games.whatgoesup import sim
from game.games.whatgoesup.rules.actions import EndRnD, Hire, Research
from game.games.whatgoesup.rules.reliability import Rating
from game.games.whatgoesup.sim import InvariantChecks, default_setup, play_game


def _played(engine, bot="program", players=2, turns=3, seed=3, scenario=None, options=()):
    setup = default_setup(engine, players, turns, scenario=scenario, options=options)
    result = play_game(engine, setup, seed, max_turns=None if scenario else turns, bot_kind=bot, keep_states=True)
    assert result.failure is None, str(result.failure)
    return result


def _passed_at(engine, result, index):
    """Checks that have just seen ``result.states[index]`` pass (after the action that led to it), and that state."""
    checks = InvariantChecks(engine)
    assert checks(result.states[index - 1], result.actions[index - 1], result.states[index]) == []
    return checks, result.states[index]


def _with_program(state, index=0, **changes):
    programs = list(state.programs)
    programs[index] = dataclasses.replace(programs[index], **changes)
    return dataclasses.replace(state, programs=tuple(programs))


def _with_upgoer(state, upgoer_id, **changes):
    upgoers = tuple(dataclasses.replace(u, **changes) if u.id == upgoer_id else u for u in state.upgoers)
    return dataclasses.replace(state, upgoers=upgoers)


@pytest.fixture
def rnd_game(engine):
    return _played(engine)


def test_negative_points_stocks_and_luck_are_caught(engine, rnd_game):
    checks, state = _passed_at(engine, rnd_game, 5)
    name = state.programs[0].name
    broken = _with_program(state, points=-1, fuel_stock=-2, luck=-1)
    assert checks(state, EndRnD(), broken) == [f"points_never_negative: {name} has -1 points",
                                             f"stocks_never_negative: {name} has -2 fuel at home",
                                             f"luck_follows_the_rules: {name} has -1 luck"]


def test_a_hire_that_adds_nobody_is_caught_though_the_derps_did_not_change(engine, rnd_game):
    checks, state = _passed_at(engine, rnd_game, 5)
    same = dataclasses.replace(state)  # a new state, every field the very same object
    n = len(state.derps)
    assert checks(state, Hire(), same) == [f"derps_conserved: the number of derps went from {n} to {n}"]


def test_a_bad_rating_inserted_among_passed_things_is_caught(engine):
    result = _played(engine, turns=4)
    index = next(i for i, s in enumerate(result.states) if len(s.things) >= 3 and i > 0)
    checks, state = _passed_at(engine, result, index)
    best = engine.rules.economy.reliability.best
    worst = engine.rules.economy.reliability.worst
    bad = dataclasses.replace(state.things[1], id="T999", rating=Rating(best.fail, best.boom + 1))
    inserted = dataclasses.replace(state, things=state.things[:1] + (bad,) + state.things[1:])  # not at the end
    assert checks(state, Research(state.things[0].id, "fail"), inserted) == [
        f"ratings_within_bounds: thing T999 ({bad.name}) is {bad.rating}, outside the limits {worst}..{best}"]


def test_dots_beyond_the_budget_at_the_end_of_a_turn_are_caught(engine, rnd_game):
    checks, state = _passed_at(engine, rnd_game, 5)
    budget = engine.rules.economy.budget
    name = state.programs[0].name
    next_turn = dataclasses.replace(_with_program(state, dots=budget.max_dots + 1), turn=state.turn + 1)
    assert checks(state, EndRnD(), next_turn) == [
        f"dots_within_budget: {name} ends turn {state.turn} with {budget.max_dots + 1} dots, "
        f"outside {budget.min_dots}..{budget.max_dots}"]


@pytest.fixture
def flight_game(engine):
    """A Stop The Rock game with a craft in space holding fuel, and where in it that craft first flies."""
    result = _played(engine, players=1, seed=1, scenario="stop_the_rock")
    index = next(i + 1 for i, (before, after) in enumerate(zip(result.states, result.states[1:]))
                 if before.phase == after.phase == "flight" and any(u.in_space and u.fuel > 0 for u in after.upgoers))
    craft = next(u for u in result.states[index].upgoers if u.in_space and u.fuel > 0)
    return result, index, craft


def test_fuel_made_during_a_flight_is_caught(engine, flight_game):
    result, index, craft = flight_game
    checks, state = _passed_at(engine, result, index)
    refuelled = _with_upgoer(state, craft.id, fuel=craft.fuel + 3)
    was, now = sim.total_mass(engine, state), sim.total_mass(engine, refuelled)
    assert now == was + 3
    assert checks(state, result.actions[index], refuelled) == [
        f"flights_create_no_mass: the game's mass grew from {float(was):g} to {float(now):g} during a flight"]


def test_rations_made_during_a_flight_are_caught(engine, flight_game):
    result, index, craft = flight_game
    checks, state = _passed_at(engine, result, index)
    fed = _with_upgoer(state, craft.id, rations=craft.rations + 1, fuel=craft.fuel - 1)  # less fuel, more food
    was, now = sim.total_mass(engine, state), sim.total_mass(engine, fed)
    if now > was:
        assert checks(state, result.actions[index], fed) == [
            f"flights_create_no_mass: the game's mass grew from {float(was):g} to {float(now):g} during a flight"]
    else:  # a derp-turn of rations masses no more than a unit of fuel: nothing grew
        assert checks(state, result.actions[index], fed) == []


def test_negative_supplies_aboard_are_caught(engine, flight_game):
    result, index, craft = flight_game
    checks, state = _passed_at(engine, result, index)
    drained = _with_upgoer(state, craft.id, fuel=-1)
    assert checks(state, result.actions[index], drained) == [
        f"flight_supplies_never_negative: {craft.name} carries -1 fuel and {craft.rations} derp-turns of rations"]


def test_a_craft_between_duration_steps_at_the_end_of_a_turn_is_caught(engine, flight_game):
    result, index, craft = flight_game
    checks, state = _passed_at(engine, result, index)
    passing = next(step.id for step in engine.rules.board.steps if step.id not in ("home",) and not step.is_duration)
    moved = dataclasses.replace(_with_upgoer(state, craft.id, location=passing), turn=state.turn + 1)
    problems = checks(state, result.actions[index], moved)
    assert f"crafts_rest_on_duration_steps: {craft.name} ends turn {state.turn} at {passing}, " \
           f"which is not a duration step" in problems


def test_a_docking_recorded_on_one_side_only_is_caught(engine, flight_game):
    """A craft listing a partner that does not list it back, a partner gone from the game, or a craft out of
    play still docked: each is caught after a real flight step (the checks on their quick path)."""
    result, index, craft = flight_game
    checks, state = _passed_at(engine, result, index)
    action = result.actions[index]
    empty = dataclasses.replace(craft, id="U998", name="Husk", modules=(), stages=(), crew=(), fuel=0, rations=0,
                                docked_with=())
    one_sided = _with_upgoer(dataclasses.replace(state, upgoers=state.upgoers + (empty,)), craft.id,
                             docked_with=("U998",))
    assert checks(state, action, one_sided) == [
        f"docking_agrees_both_ways: {craft.name} is docked with Husk, which does not list it as docked"]
    checks, state = _passed_at(engine, result, index)
    assert checks(state, action, _with_upgoer(state, craft.id, docked_with=("U999",))) == [
        f"docking_agrees_both_ways: {craft.name} is docked with U999, which is no longer in the game"]
    checks, state = _passed_at(engine, result, index)
    assert checks(state, action, _with_upgoer(state, craft.id, status="destroyed", docked_with=("U999",))) == [
        f"docking_agrees_both_ways: {craft.name} is destroyed but still docked with U999"]


def test_a_state_that_failed_is_never_taken_as_passed(engine, rnd_game):
    """After a failure the next check asks every invariant again: the broken values are not skipped as seen."""
    checks, state = _passed_at(engine, rnd_game, 5)
    broken = _with_program(state, points=-1)
    assert checks(state, EndRnD(), broken)
    again = dataclasses.replace(broken)  # the same (broken) programs: a quick path would skip them
    assert checks(broken, EndRnD(), again) == [f"points_never_negative: {state.programs[0].name} has -1 points"]


def test_checks_answer_as_check_invariants_does(engine, rnd_game):
    checks, state = _passed_at(engine, rnd_game, 5)
    broken = _with_program(state, points=-1, fuel_stock=-2)
    assert checks(state, Hire(), broken) == sim.check_invariants(engine, state, Hire(), broken)
    assert len(checks(state, Hire(), broken)) == 3  # the points, the stocks, and a Hire that hired nobody


# ------------------------------------------------------------------ the declarations keep their promise
GAMES = [("program", 2, 12, 21, None, ()), ("random", 2, 8, 22, None, ()), ("program", 1, 20, 23, "stop_the_rock", ()),
         ("raider", 2, 12, 12, None, ("space_war",)), ("landing", 2, 12, 24, None, ("underped",))]


@pytest.mark.parametrize("game", GAMES, ids=lambda g: f"{g[0]}-{g[4] or 'normal'}-{'-'.join(g[5]) or 'plain'}")
def test_a_skipped_invariant_would_have_found_nothing(engine, game):
    """Along real games, every invariant the checks skip is asked anyway: each answers None; and so is every
    invariant a screen stood in for when the screen answered False."""
    bot, players, turns, seed, scenario, options = game
    result = _played(engine, bot, players, turns, seed, scenario, options)
    checks = InvariantChecks(engine)
    skipped = screened = 0
    for before, action, after in zip(result.states, result.actions, result.states[1:]):
        if before is checks._passed:
            changed = tuple(map(is_not, map(before.__getattribute__, checks.fields),
                                map(after.__getattribute__, checks.fields)))
            assert checks._pattern(before, action, after) == (*changed, type(action), before.phase)
            quick, asked = checks._plan(changed, type(action), before.phase)
            assert asked == checks._to_ask(changed, type(action), before.phase)
            for invariant in checks.invariants:
                if invariant not in asked:
                    skipped += 1
                    assert invariant(engine, before, action, after) is None, (invariant.__name__, str(action))
            for screen in quick:
                if getattr(screen, "stands_for", None) is not None and not screen(engine, before, action, after):
                    for invariant in screen.stands_for:
                        screened += 1
                        assert invariant(engine, before, action, after) is None, (invariant.__name__, str(action))
        assert checks(before, action, after) == []
    assert skipped > len(result.actions)  # the quick path was taken, and it skips a good deal
    assert screened > len(result.actions) // 2  # and the screens answered for a good many invariants


# ------------------------------------------------------------------ what is looked at again
@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(0, 9), max_size=12), st.lists(st.integers(0, 9), max_size=12), st.data())
def test_unseen_holds_every_value_not_among_those_that_passed(old, new, data):
    """``_unseen(values, passed)``: every value of ``values`` that is not (the very object) in ``passed``, in order,
    whatever was replaced, inserted or removed; when values were only replaced in place, exactly those."""
    objects = [object() for _ in range(10)]
    passed = tuple(objects[i] for i in old)
    values, in_place = list(passed), True
    for i in new:  # edits: replace, insert or remove at a drawn place
        edit = data.draw(st.sampled_from(["replace", "insert", "remove"]))
        at = data.draw(st.integers(0, len(values)))
        fresh = object() if i % 2 else objects[i]
        if edit == "insert" or not values:
            values.insert(at, fresh)
            in_place = False
        elif edit == "replace":
            values[min(at, len(values) - 1)] = fresh
        else:
            del values[min(at, len(values) - 1)]
            in_place = False
    values = tuple(values)
    unseen = sim._unseen(values, passed)
    not_passed = [v for v in values if not any(v is p for p in passed)]
    assert all(any(v is u for u in unseen) for v in not_passed)
    position = iter(values)  # a subsequence of values: in their order, none twice
    assert all(any(u is v for v in position) for u in unseen)
    if in_place and len(values) == len(passed):
        assert list(map(id, unseen)) == [id(v) for v, p in zip(values, passed) if v is not p]


def test_an_action_that_does_not_read_back_is_caught_after_its_look_alikes_passed(engine, rnd_game):
    """``action_round_trips`` passes an action it has seen read back (the same object, or an equal value with
    each field of the same type) without reading it again, and still catches one that only looks alike."""
    checks, state = _passed_at(engine, rnd_game, 5)
    thing = state.things[0].id
    research = Research(thing, "fail", 1)
    assert sim.action_round_trips(engine, state, research, state) is None
    assert sim.action_round_trips(engine, state, research, state) is None  # the very object, remembered
    lookalike = Research(thing, "fail", True)  # equal to ``research`` (True == 1), but a bool is no step count
    assert lookalike == research
    expected = (f"action_round_trips: 'research {thing} Fail to OK xTrue' cannot be read back from its save form: "
                "Research.steps has the wrong type (bool)")
    assert checks(state, lookalike, state) == [expected]
    assert sim.check_invariants(engine, state, lookalike, state) == [expected]  # a failed one is not remembered


def test_an_action_the_saves_do_not_know_is_caught(engine, rnd_game):
    checks, state = _passed_at(engine, rnd_game, 5)

    @dataclasses.dataclass(frozen=True)
    class Teleport(sim.Action):
        def __str__(self):
            return "teleport"

    assert checks(state, Teleport(), state) == [
        "action_round_trips: 'teleport' cannot be read back from its save form: unknown action 'Teleport'"]


@dataclasses.dataclass(frozen=True)
class _Valued:
    id: str
    value: int


@settings(max_examples=200, deadline=None)
@given(st.integers(0, sim._LONG_POOL + 20),
       st.lists(st.tuples(st.sampled_from(["replace", "append", "remove"]), st.integers(0, 30)),
                max_size=sim._UNSEEN_STEPS - 1))
def test_unseen_of_a_pool_replace_in_and_appended_made_holds_exactly_the_new_values(size, edits):
    """A long pool made from the passed one by ``replace_in``, ``appended`` and ``removed`` is answered from
    what they recorded, a short one by comparing: either way exactly the values not (the very object) in the
    passed pool, in order (a short one after a removal: and perhaps values that only moved)."""
    from game.games.whatgoesup.rules.state import appended, changes_since, removed, replace_in
    passed = tuple(_Valued(f"V{n}", 0) for n in range(size))
    pool = passed
    for step, (edit, at) in enumerate(edits, start=1):
        if edit == "replace" and pool:
            pool = replace_in(pool, (_Valued(pool[at % len(pool)].id, step),))
        elif edit == "remove" and len(pool) > 1:
            pool = removed(pool, [at % len(pool)])
        else:
            pool = appended(pool, (_Valued(f"W{step}", step),))
    assert changes_since(passed, pool, sim._UNSEEN_STEPS) is not None  # what was recorded, read when long
    unseen = sim._unseen(pool, passed)
    new = [id(v) for v in pool if not any(v is p for p in passed)]
    if len(pool) > sim._LONG_POOL or not any(edit == "remove" for edit, _ in edits):
        assert list(map(id, unseen)) == new
    else:  # a short pool compared place by place: a value a removal moved may be looked at again
        assert set(new) <= set(map(id, unseen)) and list(map(id, unseen)) == [id(v) for v in pool if v in unseen]


@pytest.mark.parametrize("long_pool", [None, 0], ids=["as-played", "every-pool-long"])
@pytest.mark.parametrize("game", GAMES[:3], ids=lambda g: f"{g[0]}-{g[4] or 'normal'}")
def test_kept_masses_are_the_masses_counted_afresh(engine, game, long_pool, monkeypatch):
    """``_masses`` keeps its parts for the last values asked and weighs long items made from the kept ones by
    the places that changed: along real games, asked as the checks ask (each step's before, then its after), it
    answers what a count of every part, stock and supply gives (also with every pool taken as long)."""
    if long_pool is not None:
        monkeypatch.setattr(sim, "_LONG_POOL", long_pool)
    bot, players, turns, seed, scenario, options = game
    result = _played(engine, bot, players, turns, seed, scenario, options)

    def counted(state):
        mass_of = {t.id: t.mass for t in state.things}
        whole = sum(mass_of[i.thing_id] for i in state.items) + sum(p.fuel_stock for p in state.programs) \
            + sum(u.fuel for u in state.upgoers)
        return whole, sum(p.rations_stock for p in state.programs) + sum(u.rations for u in state.upgoers)

    weighed_by_places = 0
    for before, after in zip(result.states, result.states[1:]):
        assert sim._masses(before) == counted(before)
        weighed_by_places += sim._PARTS_MASS[1] is before.items and after.items is not before.items \
            and sim.changes_since(before.items, after.items, sim._UNSEEN_STEPS) is not None \
            and after.things is before.things and len(after.items) > sim._LONG_POOL
        assert sim._masses(after) == counted(after)
    assert weighed_by_places or long_pool is None  # the way by the places that changed was taken


@pytest.mark.parametrize("long_pool", [None, 0], ids=["as-played", "every-pool-long"])
def test_kept_underped_blueprints_are_those_found_afresh(engine, long_pool, monkeypatch):
    """``_underped_things`` keeps its answer for the last things asked and adds, for a long tuple made from them,
    only the blueprints added: along a real underped game, asked state after state, it answers what a search of
    every blueprint gives."""
    if long_pool is not None:
        monkeypatch.setattr(sim, "_LONG_POOL", long_pool)
    result = _played(engine, "random", 2, 8, 20, None, ("underped",))
    kinds = {k.id for k in engine.rules.components.kinds_with_role("underped")}
    found = set()
    for state in result.states:
        expected = frozenset(t.id for t in state.things if t.kind in kinds)
        assert sim._underped_things(engine, state.things) == expected
        found |= expected
    assert found  # the game has blueprints of underped systems to find


@pytest.mark.parametrize("change, expected", [
    ({"bonus_points": -3}, "points_never_negative: {name} has -3 bonus points"),
    ({"rations_stock": -1}, "stocks_never_negative: {name} has -1 derp-turns of rations at home"),
    ({"luck": "+1"}, "luck_follows_the_rules: {name} gained 1 luck on '{action}' where the rules give at most 0"),
])
def test_the_programs_screen_lets_no_broken_program_through(engine, rnd_game, change, expected):
    """``programs_need_a_look`` stands for the points, the stocks and the luck after an R&D action: each way a
    changed program can break them makes it answer, and the invariant's own words follow."""
    checks, state = _passed_at(engine, rnd_game, 5)
    program = state.programs[0]
    if change.get("luck") == "+1":
        change = {"luck": program.luck + 1}
    broken = _with_program(state, **change)
    assert sim.programs_need_a_look(engine, state, EndRnD(), broken)
    assert checks(state, EndRnD(), broken) == [expected.format(name=program.name, action=EndRnD())]
    fine = _with_program(state, points=program.points + 1)  # a changed program that breaks nothing
    assert not sim.programs_need_a_look(engine, state, EndRnD(), fine)
