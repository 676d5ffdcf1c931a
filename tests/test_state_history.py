"""A game's states held as checkpoints plus the newest few (game/core/history.py): every state a long game
went through comes back equal to the one play made, by index, by slice and in order; undo, states set by
hand and a loaded save playing on all keep working; and a long game keeps only a fraction of its states."""
from __future__ import annotations

from game.core.history import CHECKPOINT_EVERY, RECENT, StateHistory
from game.core.saves import load_game, replay, save_game
from game.core.session import GameSession
from game.games.whatgoesup.rules.actions import EndRnD, Invent, Roll
from game.games.whatgoesup.rules.state import PlayerSetup, Setup
from game.games.whatgoesup.sim import default_setup, play_game

SETUP = Setup(players=(PlayerSetup("Test Space", "rabitians"),), turn_limit=4)


def random_game(engine, actions=300):
    setup = default_setup(engine, players=2, turns=60)
    result = play_game(engine, setup, 5, check=False, keep_states=True, max_actions=actions)
    assert len(result.actions) == actions
    return setup, result


def test_every_state_of_a_replayed_game_equals_the_state_play_made(engine):
    setup, played = random_game(engine)
    history = replay(engine, setup, played.actions)
    assert len(history) == len(played.states) == len(played.actions) + 1
    assert list(history) == played.states  # in order: one pass, replaying between the kept states
    for index in (0, 1, CHECKPOINT_EVERY - 1, CHECKPOINT_EVERY, CHECKPOINT_EVERY + 5, 150, 299, 300, -1, -2):
        assert history[index] == played.states[index]
        assert history.turn(index) == played.states[index].turn
        assert history.events(index) == played.states[index].events
    assert history[100:104] == played.states[100:104]
    assert repr(history) == f"StateHistory(301 states, {300 // CHECKPOINT_EVERY + RECENT + 1} kept)"


def test_undo_back_past_the_recent_states_gives_the_replay_of_fewer_actions(engine, tmp_path):
    setup, played = random_game(engine)
    undoable = RECENT + 3
    end = next(n for n in range(len(played.actions), undoable, -1)
               if not any(isinstance(a, Roll) for a in played.actions[n - undoable:n]))
    session = GameSession(engine, setup, 5, played.actions[:end], saves_dir=tmp_path)
    for _ in range(undoable):
        session.undo()
        assert session.state == played.states[len(session.actions)]
        assert session.states[-1] is session.states[-1]  # the newest is kept, not replayed at each look
    assert len(session.states) == end - undoable + 1


def test_a_state_set_by_hand_is_kept_and_play_goes_on_from_it(engine, tmp_path):
    session = GameSession.new(engine, SETUP, 3, saves_dir=tmp_path)
    session.apply(Invent("capsule", 3, "Pod"))
    rich = session.state.programs[0].__class__(**{**vars(session.state.programs[0]), "points": 999})
    by_hand = session.state.__class__(**{**vars(session.state), "programs": (rich,)})
    session.states[-1] = by_hand
    for _ in range(CHECKPOINT_EVERY + RECENT):
        session.apply(Invent("capsule", 3, ""))
    state = by_hand
    for index, action in enumerate(session.actions[1:], 2):
        state = engine.apply(state, action)
        assert session.states[index] == state  # replayed from the state set by hand, not from the log's start
    assert session.states[1] is by_hand and session.state.programs[0].points < 999


def test_states_made_by_hand_are_all_kept(engine):
    first = engine.new_game(SETUP)
    second = engine.apply(first, EndRnD())
    history = StateHistory.of_states(engine, [first, second, second])
    assert list(history) == [first, second, second] and history[1] is second


def test_a_loaded_save_plays_on_without_changing_what_was_loaded(engine, tmp_path):
    setup, played = random_game(engine, 120)
    path = save_game(tmp_path / "game.json", engine, setup, 5, played.actions)
    loaded = load_game(path, engine)
    session = GameSession(engine, setup, 5, loaded.actions, loaded.states, saves_dir=tmp_path)
    while session.waiting_for_dice or not session.over and session.legal_actions():
        if session.waiting_for_dice:
            session.roll()
        else:
            session.apply(session.legal_actions()[0])
        if len(session.actions) > 140:
            break
    assert len(loaded.states) == 121 and loaded.states[-1] == played.states[-1]
    assert session.states[120] == played.states[120]
    assert [e.event for e in session.log if e.action_index <= 120] == [
        event for state in played.states for event in state.events]


def test_a_replay_leaves_the_garbage_collector_as_it_found_it(engine):
    import gc

    import pytest

    from game.core.saves import SaveError
    setup, played = random_game(engine, 40)
    assert gc.isenabled()
    replay(engine, setup, played.actions)
    assert gc.isenabled()
    with pytest.raises(SaveError):  # a refused action mid-replay: the collector runs again all the same
        replay(engine, setup, played.actions[:5] + [Roll(1)] * 3)
    assert gc.isenabled()
    gc.disable()
    try:
        replay(engine, setup, played.actions)
        assert not gc.isenabled()  # paused by someone else: left paused
    finally:
        gc.enable()
