"""The flights' shortcuts answer exactly what the full work answers (issue 12).

Seeded bot games (program and random bots, Stop The Rock, Space War raiders, underped landers) are played
through the engine with each shortcut watched: every time the flight rules ask it during play, its answer
is compared with the same question worked out in full, in the same state:

- ``_has_choices`` (asks WriteOff first) against any allowed choice on the whole menu;
- ``_needs_decision`` (asks the luck reroll first) against any allowed spend on the whole roll menu;
- ``_craft_figure`` (a craft's mass, thrust, steering and burn cost, each kept while the craft's fields it
  reads and the state's items, things and derps stay the same values) against the figure worked out afresh;
- ``_craft_modules`` (a craft's modules and their roles, kept while its modules and the state's items and
  things stay the same values) and ``positioning_bonus`` (kept while the items, things and craft stay) against
  the same read afresh;
- ``best_help`` with the search memo shared by earlier searches of the same scheme, rating, helpers' skills,
  RCS bonus and raises (``rolls._help_memo``) against a search of its own;
- ``_stage_order_key`` (the timing score kept likewise) against the key worked out afresh;
- ``_roll_facts`` (a roll's craft and helpers carried while the state's craft and derps and the roll's craft
  and help stay the same values, its outcome and the skills' refusals while the roll does) against the facts
  worked out afresh;
- a roll's die or spend that leaves nothing to decide, settled in the same copy of the state
  (``_apply_roll_action`` with ``settle``), against the roll set first and then carried on by ``_drive``;
- ``_next_stage`` (passes over a stage with nobody queued and activates a lone craft in the same copy) against
  one stage's step at a time, each carried on by ``_drive``;
- ``begin_flights`` (opens the flights at the first stage with anyone queued, a lone craft active, in the copy
  that opens them) against the flights opened at the launch stage with the pads queued, carried on by ``_drive``;
- ``_start_moving`` with ``travel`` (a Move, or a craft with nothing to do before moving, makes its first step
  along the rail in the copy that starts the move) against the move started and then carried on by ``_drive``.
"""
from __future__ import annotations

import collections

import pytest

from game.games.whatgoesup.rules import skills
from game.games.whatgoesup.rules.engine import Engine
from game.games.whatgoesup.rules.flight.common import _FIGURE_INPUTS, FlightPhase
from game.games.whatgoesup.rules.flight.rolls import boom_told
from game.games.whatgoesup.rules.flight_actions import AcceptRoll, EndActivities, Move
from game.games.whatgoesup.rules.reliability import Outcome
from game.games.whatgoesup.rules.state import replace_in, update
from game.games.whatgoesup.rules.tables import load_rules
from game.games.whatgoesup.sim import default_setup, play_game

GAMES = [("program", None, 2, range(1, 4), ()), ("random", None, 2, range(1, 4), ()),
         ("program", "stop_the_rock", 1, range(1, 5), ()), ("random", "stop_the_rock", 1, range(1, 4), ()),
         ("raider", None, 2, range(1, 3), ("space_war",)), ("landing", None, 2, range(1, 3), ("underped",))]


def full_has_choices(rules, state, upgoer, mode) -> bool:
    if mode == "after" and "plan_ahead" in state.setup.options:
        return False
    return any(not isinstance(a, (Move, EndActivities)) and rules._activity_allowed(state, upgoer, a)
               for a in rules._activity_candidates(state, upgoer))


def full_needs_decision(rules, state, roll) -> bool:
    if roll.previous is not None:
        return True
    return roll.outcome() is not Outcome.OK and any(
        not isinstance(a, AcceptRoll) for a in rules._roll_candidates(state, roll)
        if rules._roll_action_ok(state, roll, a) is None)


def watch(rules, seen: collections.Counter, wrong: list) -> None:
    """Wrap the shortcuts of one engine's flight rules: each answer is checked against the full work."""
    has_choices, needs_decision = rules._has_choices, rules._needs_decision
    craft_figure, stage_order_key = rules._craft_figure, rules._stage_order_key

    def watched_has_choices(state, upgoer, mode):
        answer = has_choices(state, upgoer, mode)
        seen["has_choices", answer] += 1
        if answer != full_has_choices(rules, state, upgoer, mode):
            wrong.append(("has_choices", state, upgoer.id, mode))
        return answer

    def watched_needs_decision(state, roll):
        answer = needs_decision(state, roll)
        seen["needs_decision", answer] += 1
        if answer != full_needs_decision(rules, state, roll):
            wrong.append(("needs_decision", state, roll))
        return answer

    def watched_craft_figure(state, upgoer, name, work):
        kept = rules._kept_figures.get(name)
        seen["craft_figure", kept is not None and kept[1] is state.items and kept[2] is state.things
             and kept[3] is state.derps and kept[0] == _FIGURE_INPUTS[name](upgoer)] += 1
        answer = craft_figure(state, upgoer, name, work)
        if answer != work(state, upgoer):
            wrong.append(("craft_figure", state, upgoer.id, name))
        return answer

    def watched_stage_order_key(state, upgoer_id):
        upgoer = state.upgoer(upgoer_id)
        kept = rules._kept_timing.get(upgoer_id)
        seen["stage_order_key", kept is not None and kept[0] is upgoer and kept[1] is state.items] += 1
        answer = stage_order_key(state, upgoer_id)
        score = rules._timing_score(state, upgoer)
        if answer != (upgoer_id in state.flight.waited, -(score + upgoer.rush), state.programs[upgoer.owner].dots):
            wrong.append(("stage_order_key", state, upgoer_id))
        return answer

    def watched_roll_facts(state, roll):
        kept = rules._kept_roll_facts
        seen["roll_facts", kept is not None and not (kept[0] is state and kept[1] is roll)
             and kept[3] is state.upgoers and kept[4] is state.derps] += 1  # carried to another state or roll
        answer = roll_facts(state, roll)
        fresh = rules._fresh_roll_facts(state, roll)
        if (answer.upgoer, answer.helpers, answer.helper_ids) != (fresh.upgoer, fresh.helpers, fresh.helper_ids) \
                or answer.outcome(roll) is not roll.outcome() or any(
                    why != skills.refusal(rules.table.skills, roll.value, roll.rating, roll.help, skill)
                    for skill, why in answer.skill_refusals.items()):
            wrong.append(("roll_facts", state, roll))
        return answer

    def watched_apply_roll_action(state, action, settle=False):
        answer = apply_roll_action(state, action, settle)
        if settle:
            stepwise = apply_roll_action(state, action, False)  # the roll set, left for _drive to settle
            settled = answer != stepwise
            seen["settled_at_once", settled] += 1
            if settled and rules._drive(answer) != rules._drive(stepwise):
                wrong.append(("settled_at_once", state, action))
        return answer

    def one_stage_on(state):  # the flights a stage on, its queue set, nothing else done (what _drive goes on from)
        f = state.flight
        if f.stage == "launch":
            launched = tuple(u for u in f.launched if state.find("upgoer", u) is not None)
            return update(state, flight=update(f, stage="insertion", queue=launched, waited=frozenset()))
        if f.stage == "insertion":
            flying = tuple(u.id for u in state.upgoers if u.status == "flying" and not u.moved_this_turn)
            return update(state, flight=update(f, stage="moves", queue=flying, waited=frozenset()))
        return rules._end_flights(state)

    def watched_next_stage(state):
        answer = next_stage(state)
        if not busy:
            busy.append(True)
            try:
                stepwise = one_stage_on(state)
                seen["next_stage", answer.phase == "flight" and answer.flight.active is not None] += 1
                if rules._drive(answer) != rules._drive(stepwise):
                    wrong.append(("next_stage", state))
            finally:
                busy.pop()
        return answer

    def watched_begin_flights(state, told=(), **changes):
        opening.append(None)  # the next _drive or _end_flights is handed the flights as they opened
        try:
            answer = begin_flights(state, told, **changes)
        finally:
            opened = opening.pop()
        pads = tuple(u.id for u in opened.upgoers if u.status == "pad")
        at_launch = FlightPhase(stage="launch", queue=pads)  # every stage after it left to _drive
        seen["opened_at_once", opened.flight != at_launch] += 1
        if answer != rules._drive(update(opened, flight=at_launch)):
            wrong.append(("opened_at_once", state))
        return answer

    def caught(carry_on):
        def watched(state):
            if opening and opening[-1] is None:
                opening[-1] = state
            return carry_on(state)
        return watched

    opening: list = []
    begin_flights = rules.begin_flights
    rules.begin_flights = watched_begin_flights
    rules._drive, rules._end_flights = caught(rules._drive), caught(rules._end_flights)

    def watched_start_moving(state, upgoer, travel=False):
        answer = start_moving(state, upgoer, travel)
        seen["moved_at_once", travel] += 1
        if travel and rules._drive(answer) != rules._drive(start_moving(state, upgoer, False)):
            wrong.append(("moved_at_once", state, upgoer.id))
        return answer

    def watched_craft_modules(state, upgoer):
        kept = rules._kept_modules.get(upgoer.id)
        seen["craft_modules", kept is not None and kept[0] is state.items and kept[1] is state.things
             and kept[2] == upgoer.modules] += 1
        answer = craft_modules(state, upgoer)
        fresh = tuple((i, rules._role(state, i)) for i in state.items
                      if i.location == upgoer.id and i.id in upgoer.modules)
        if answer != fresh:
            wrong.append(("craft_modules", state, upgoer.id))
        return answer

    def watched_positioning_bonus(state, program):
        kept = rules._kept_positioning
        seen["positioning_bonus", kept is not None and kept[0] == program and kept[1] is state.items
             and kept[2] is state.things and kept[3] is state.upgoers] += 1
        answer = positioning_bonus(state, program)
        if answer != rules._positioning_bonus(state, program):
            wrong.append(("positioning_bonus", state, program))
        return answer

    def watched_best_help(state, roll, stamina=None, rcs_boosts=None):
        group_known = len(rules._kept_help_memos)
        answer = best_help(state, roll, stamina, rcs_boosts)
        rules._help_memo = lambda plan, rating, help: {}  # a search of its own, nothing shared
        try:
            fresh = best_help(state, roll, stamina, rcs_boosts)
        finally:
            del rules._help_memo
        seen["shared_help_memo", len(rules._kept_help_memos) == group_known] += 1  # an earlier search's memo
        if answer != fresh:
            wrong.append(("shared_help_memo", state, roll))
        return answer

    craft_modules, positioning_bonus, best_help = rules._craft_modules, rules.positioning_bonus, rules.best_help
    rules._craft_modules, rules.positioning_bonus = watched_craft_modules, watched_positioning_bonus
    rules.best_help = watched_best_help
    start_moving = rules._start_moving
    rules._start_moving = watched_start_moving
    busy: list = []
    next_stage = rules._next_stage
    rules._next_stage = watched_next_stage
    apply_roll_action = rules._apply_roll_action
    roll_facts = rules._roll_facts
    rules._roll_facts = watched_roll_facts
    rules._apply_roll_action = watched_apply_roll_action
    rules._has_choices, rules._needs_decision = watched_has_choices, watched_needs_decision
    rules._craft_figure, rules._stage_order_key = watched_craft_figure, watched_stage_order_key


@pytest.fixture(scope="module")
def watched():
    """What the shortcuts answered in seeded games (shortcut, answer or kept-hit) -> count, and every wrong one."""
    seen: collections.Counter = collections.Counter()
    wrong: list = []
    for bot, scenario, players, seeds, options in GAMES:
        engine = Engine(load_rules(None))
        watch(engine.flight_rules, seen, wrong)
        for seed in seeds:
            setup = default_setup(engine, players, 20, scenario=scenario, options=options)
            result = play_game(engine, setup, seed, max_turns=None if scenario else 20, check=False, bot_kind=bot)
            assert result.failure is None, result.failure
    return seen, wrong


@pytest.mark.parametrize("shortcut", ["has_choices", "needs_decision", "craft_figure", "stage_order_key",
                                      "settled_at_once", "next_stage", "opened_at_once", "moved_at_once",
                                      "roll_facts",
                                      "craft_modules", "positioning_bonus", "shared_help_memo"])
def test_shortcut_answers_as_the_full_work(watched, shortcut):
    seen, wrong = watched
    assert [w for w in wrong if w[0] == shortcut] == []
    assert seen[shortcut, True] > 0  # the short answer (a kept figure or score) came up and was compared
    # A craft with nothing to choose but moving on is rare (WriteOff is nearly always open), and every move in
    # these games is made at once (only a craft a system pays for starts its move alone).
    if shortcut not in ("has_choices", "moved_at_once"):
        assert seen[shortcut, False] > 0


def a_flying_state(engine, wanted):
    """The first state of a seeded Stop The Rock game (program bot) for which ``wanted(state)`` holds."""
    setup = default_setup(engine, 1, 20, scenario="stop_the_rock")
    result = play_game(engine, setup, 1, max_turns=None, check=False, bot_kind="program")
    state = engine.new_game(setup)
    for action in result.actions:
        state = engine.apply(state, action)
        if state.phase == "flight" and wanted(state):
            return state
    raise AssertionError("no such state in the game")


def test_kept_steering_follows_the_crew(engine):
    """The same craft among the same parts, its crew hurt: the kept figure is not the answer any more."""
    rules = engine.flight_rules

    def steering_craft(state):
        return next((u for u in state.upgoers if u.status == "flying" and rules._crew(state, u)
                     and rules.can_steer(state, u)), None)

    state = a_flying_state(engine, lambda s: steering_craft(s) is not None)
    craft = steering_craft(state)
    assert rules.can_steer(state, craft)
    hurt = [update(d, injured=True) for d in rules._crew(state, craft)]
    after = update(state, derps=replace_in(state.derps, hurt))
    assert after.items is state.items and after.things is state.things
    assert rules.can_steer(after, craft) is rules._can_steer(after, craft) is False  # nobody fit to steer now
    assert rules.spacecraft_mass(after, craft) == rules._spacecraft_mass(after, craft)


def test_kept_timing_score_follows_the_stage(engine):
    """The same craft among the same parts, the flights a stage on: its score is worked out for the new stage."""
    rules = engine.flight_rules

    def at_stage(state, stage):
        return update(state, flight=update(state.flight, stage=stage))

    def scores_differ(state):  # a craft whose launch cluster and the rest of it do not score alike
        craft = state.flight.active and state.upgoer(state.flight.active)
        return (state.flight.stage == "launch" and craft is not None and craft.stages and
                len({rules._timing_score(at_stage(state, stage), craft) for stage in ("launch", "moves")}) > 1)

    state = a_flying_state(engine, scores_differ)
    craft = state.flight.active
    first = rules._stage_order_key(state, craft)
    later = at_stage(state, "moves")
    upgoer = later.upgoer(craft)
    assert rules._stage_order_key(later, craft)[1] == -(rules._timing_score(later, upgoer) + upgoer.rush) != first[1]


def test_kept_timing_score_follows_the_crafts_own_parts(engine, monkeypatch):
    """Another part of the state changed, the craft's own parts not: the kept score stands. One of its own
    parts rated worse: the score is worked out again."""
    rules = engine.flight_rules

    def launching(state):
        craft = state.flight.active and state.upgoer(state.flight.active)
        return state.flight.stage == "launch" and craft is not None and bool(craft.stages)

    setup = default_setup(engine, 2, 20)  # two programs: parts elsewhere than aboard the launching craft
    result = play_game(engine, setup, 1, max_turns=20, check=False, bot_kind="program")
    state = engine.new_game(setup)
    for action in result.actions:
        state = engine.apply(state, action)
        if state.phase == "flight" and launching(state):
            break
    assert launching(state)
    craft = state.upgoer(state.flight.active)
    first = rules._stage_order_key(state, craft.id)
    assert first[1] == -(rules._timing_score(state, craft) + craft.rush)
    # Someone else's part changes: new items and things tuples, the craft's own parts and their blueprints
    # the very same values.
    other = next(i for i in state.items if i.location != craft.id and i.thing_id not in
                 {p.thing_id for p in state.items_at(craft.id)})
    other_thing = state.thing(other.thing_id)
    elsewhere = update(state, items=replace_in(state.items, [update(other, reentries=other.reentries + 1)]),
                       things=replace_in(state.things, [update(other_thing, name=other_thing.name + " II")]))
    assert elsewhere.items is not state.items and elsewhere.things is not state.things
    with monkeypatch.context() as patched:
        patched.setattr(rules, "_timing_score", lambda *_: pytest.fail("the craft was scored again"))
        assert rules._stage_order_key(elsewhere, craft.id) == first
    # The blueprint of one of its launch parts is rated worse: the kept score is not the answer any more.
    part = elsewhere.item(craft.stages[0][0])
    thing = elsewhere.thing(part.thing_id)
    worse = update(thing, rating=type(thing.rating)(1, 2))
    worse_state = update(elsewhere, things=replace_in(elsewhere.things, [worse]),
                         items=replace_in(elsewhere.items, [update(part, fixed_rating=None)]))
    fresh = -(rules._timing_score(worse_state, craft) + craft.rush)
    assert rules._stage_order_key(worse_state, craft.id)[1] == fresh != first[1]


def test_burn_allowed_then_played_is_judged_once_and_only_in_that_state(engine, monkeypatch):
    """A burn allowed in a state and played in that very state is not checked again; the same burn played in
    any other state (here: its craft out of fuel) is judged by _check_burn afresh and refused."""
    from game.core.interface import IllegalAction
    from game.games.whatgoesup.rules.flight_actions import Burn
    rules = engine.flight_rules
    state = a_flying_state(engine, lambda s: s.flight.mode == "junction" and not s.events
                           and any(engine.allowed(s, Burn(b.to)) for b in rules.board.burns_from(
                               s.upgoer(s.flight.active).location, s.setup.scenario)))
    craft = state.upgoer(state.flight.active)
    burn = next(Burn(b.to) for b in rules.board.burns_from(craft.location, state.setup.scenario)
                if engine.allowed(state, Burn(b.to)))
    assert engine.allowed(state, burn)
    played = engine.apply(state, burn)  # the check passed for these very values
    with monkeypatch.context() as patched:
        patched.setattr(rules, "_check_burn", lambda *_: pytest.fail("checked a second time"))
        assert repr(engine.apply(state, burn)) == repr(played)
    dry = update(state, upgoers=replace_in(state.upgoers, [update(craft, fuel=0)]))
    with pytest.raises(IllegalAction, match="fuel"):
        engine.apply(dry, burn)


def test_parts_filtered_at_c_speed_are_those_the_plain_filter_keeps(engine):
    """common.without (a destroyed craft's or a dropped stage's parts taken out of a long pool) keeps exactly
    the values, in the order, that filtering each by its id keeps."""
    from game.games.whatgoesup.rules.flight.common import without
    setup = default_setup(engine, 2, 12)
    state = play_game(engine, setup, 3, max_turns=12, check=False, bot_kind="random").final
    items = state.items
    assert len(items) > 12  # a long pool
    for gone in (set(), {items[0].id}, {i.id for i in items[::3]}, {i.id for i in items} | {"no such part"}):
        assert without(items, gone) == tuple(i for i in items if i.id not in gone)


def test_kept_burns_are_the_boards_burns(engine):
    """``Board.burns_from`` keeps its answer per (step, scenario): every step's answer, in every scenario and
    asked twice, is the burns worked out from the board's steps."""
    board = engine.rules.board
    scenarios = {None, "*"} | {step.scenario for step in board.steps} | {
        burn.scenario for step in board.steps for burn in step.burns}
    assert len(scenarios) > 2  # a scenario's own steps or burns are on the shipped board
    for scenario in scenarios:
        for step in board.steps:
            fresh = tuple(b for b in step.burns
                          if board.in_play(b, scenario) and board.in_play(board.step(b.to), scenario))
            assert board.burns_from(step.id, scenario) == fresh
            assert board.burns_from(step.id, scenario) is board.burns_from(step.id, scenario)



def test_a_die_story_tells_its_boom_as_its_words_do(engine):
    """``rolls.boom_told`` answers for a die's story not yet read exactly as its words would ("...: Boom."), so
    ``sim.FlightCounter`` counts the same Booms without making the words; any other event, or a story already
    read, is left to its words (None). Along seeded games of the program bot and of Stop The Rock."""
    told: collections.Counter = collections.Counter()

    def look(before, action, after) -> None:
        for event in after.events:
            answer = boom_told(event)
            if answer is None:
                continue
            assert event.kind == "roll"
            assert answer == event.text.endswith(": Boom.")  # its words made now, for the test
            assert boom_told(event) is None  # read: left to its words
            told[answer] += 1

    for seed in range(7000, 7004):
        play_game(engine, default_setup(engine, 2), seed, check=False, on_action=look, bot_kind="program")
    for seed in range(7000, 7006):
        play_game(engine, default_setup(engine, 1, scenario="stop_the_rock"), seed, check=False, on_action=look,
                  bot_kind="program")
    assert told[True] > 0 and told[False] > 0  # Booms and other dice met
