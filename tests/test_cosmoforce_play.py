"""Cosmoforce played whole: seeded bot fights keep every invariant, saves replay to the same fight, and the
command line checks, simulates and replays it (``--game cosmoforce``)."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from game.core import saves
from game.core.session import GameSession
from game.games.cosmoforce import sim
from game.games.cosmoforce.bots import Captain
from game.games.cosmoforce.rules.engine import CHANCE, TERMINAL, Engine
from game.games.cosmoforce.rules.tables import load_rules
from game.games.cosmoforce.scenarios import fight_setup

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def engine() -> Engine:
    return Engine(load_rules())


def run_many(engine: Engine, games: int, first_seed: int, **kwargs) -> sim.SimSummary:
    summary = sim.simulate(engine, games, first_seed, **kwargs)
    assert summary.invariant_failures == 0, summary.failures[:3]
    assert summary.games == games
    return summary


@pytest.mark.parametrize("bot,designs,players,ships,teams", [
    ("random", "random", 2, 1, False), ("random", "random", 4, 2, True), ("random", "ready", 3, 1, False),
    ("captain", "ready", 2, 1, False), ("captain", "random", 3, 2, False),
])
def test_seeded_fights_keep_every_invariant(engine, bot, designs, players, ships, teams):
    """No negative crew, heat or speed; destroyed systems never act or come back; eliminations have a reason;
    every roll's odds are exact; every action reads back from its save form; someone can always act."""
    summary = run_many(engine, 60, 100, bot=bot, designs=designs, players=players, ships=ships, teams=teams)
    assert summary.decided + summary.ceasefires + summary.draws == 60


def test_careful_captains_usually_finish_their_fights(engine):
    summary = run_many(engine, 40, 1, bot="captain")
    assert summary.decided >= 30
    assert sum(summary.wins_by_class.values()) == summary.decided
    assert set(summary.wins_by_class) <= {"fighter", "cruiser", "capital"}


def test_the_invariants_catch_a_broken_state(engine):
    """The checks can fail: a ship with negative heat and one eliminated without a reason are reported."""
    import dataclasses

    state = engine.new_game(fight_setup(engine, "dart", "lancer"))
    action = engine.legal_actions(state)[0]
    after = engine.apply(state, action)
    broken = dataclasses.replace(after, ships=(dataclasses.replace(after.ships[0], heat=-1, eliminated=True),
                                               after.ships[1]))
    problems = sim.check_invariants(engine, state, action, broken)
    assert any("heat -1" in p for p in problems) and any("is out with 1 crew" in p for p in problems)


@pytest.mark.slow
@pytest.mark.parametrize("first_seed,bot,designs,players", [
    (5000, "random", "random", 3), (5750, "random", "random", 3),
    (9000, "captain", "ready", 2), (9750, "captain", "ready", 2),
])
def test_thousands_of_fights_keep_every_invariant(engine, first_seed, bot, designs, players):
    """3,000 fights in four chunks of 750 (one test each, so the suite's workers share them out)."""
    run_many(engine, 750, first_seed, bot=bot, designs=designs, players=players, ships=2, teams=False)


def test_a_saved_fight_replays_to_the_same_state(engine, tmp_path):
    setup = fight_setup(engine, ["dart", "lancer"], "bastion", humans=(True, False))
    session = GameSession.new(engine, setup, seed=42, saves_dir=tmp_path)
    captain = Captain(3)
    for _ in range(120):
        if session.over:
            break
        if session.waiting_for_dice:
            session.roll()
        else:
            session.apply(captain.choose(engine, session.state))
    path = session.save(tmp_path / "fight.json")
    document = json.loads(path.read_text())
    assert document["game"] == "cosmoforce" and document["setup"]["players"][1]["human"] is False
    loaded = saves.load_game(path, engine)
    assert loaded.final == session.state and not loaded.edited
    again = GameSession.load(engine, path, saves_dir=tmp_path)
    assert again.state == session.state and again.setup == setup
    assert [e.event.text for e in again.log] == [e.event.text for e in session.log]


def test_undo_stops_at_a_roll_and_a_save_of_another_game_is_refused(engine, tmp_path):
    session = GameSession.new(engine, fight_setup(engine, "dart", "warden"), seed=1, saves_dir=tmp_path)
    assert engine.current_player(session.state) != CHANCE
    from game.games.cosmoforce.rules.actions import ConserveEnergy, FireWeapons

    session.apply(ConserveEnergy())
    assert session.can_undo()
    session.undo()
    session.apply(FireWeapons("laser", 1, 1))
    session.roll()
    assert not session.can_undo()
    path = session.save(tmp_path / "cf.json")
    from game.client.whatgoesup.shipped import shipped_engine

    with pytest.raises(saves.SaveError, match="another game"):
        saves.load_game(path, shipped_engine())


def test_a_hand_broken_save_is_refused_with_the_reason(engine, tmp_path):
    session = GameSession.new(engine, fight_setup(engine, "dart", "warden"), seed=1, saves_dir=tmp_path)
    path = session.save(tmp_path / "cf.json")
    document = json.loads(path.read_text())
    document["setup"]["players"][0]["ships"][0]["systems"][0] = "death ray"
    path.write_text(json.dumps(document))
    with pytest.raises(saves.SaveError, match="there is no system 'death ray'"):
        saves.load_game(path, engine)
    document["setup"]["players"][0]["ships"][0]["ship_class"] = 7
    path.write_text(json.dumps(document))
    with pytest.raises(saves.SaveError, match=r"setup.players\[1\].ships\[1\].ship_class must be text"):
        saves.load_game(path, engine)


# ------------------------------------------------------------------ the command line
def run_cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "main.py", *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=300)


def test_cli_check_rules_for_cosmoforce(tmp_path):
    result = run_cli("check-rules", "--game", "cosmoforce")
    assert result.returncode == 0 and result.stdout.startswith("rules OK: Cosmoforce, 3 ship classes")
    import shutil

    from game.games.cosmoforce.rules.tables import DEFAULT_RULES_DIR

    broken = tmp_path / "cf"
    shutil.copytree(DEFAULT_RULES_DIR, broken)
    (broken / "weapons.yaml").write_text("weapons:\n  - system: laser\n    dice_per_system: 0\n")
    result = run_cli("check-rules", str(broken), "--game", "cosmoforce")
    assert result.returncode == 1
    assert "cf/weapons.yaml:3: dice_per_system in weapons item 1 must be between 1 and 10, not 0" in result.stdout


def test_cli_simulate_reports_wins_by_class():
    result = run_cli("simulate", "--game", "cosmoforce", "--games", "12", "--seed", "4", "--json")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout.strip().splitlines()[-1])
    assert data["game"] == "cosmoforce" and data["games"] == 12 and data["invariant_failures"] == 0
    assert sum(data["wins_by_class"].values()) >= data["decided"] > 0
    assert set(data["ships_by_class"]) <= {"fighter", "cruiser", "capital"}
    refused = run_cli("simulate", "--game", "cosmoforce", "--players", "1")
    assert refused.returncode == 2 and "a fight needs two to 6 players" in refused.stderr


def test_cli_replays_a_cosmoforce_save(engine, tmp_path):
    session = GameSession.new(engine, fight_setup(engine, "lancer", "ark"), seed=9, saves_dir=tmp_path)
    captain = Captain(1)
    while not session.over and len(session.actions) < 40:
        session.roll() if session.waiting_for_dice else session.apply(captain.choose(engine, session.state))
    path = session.save(tmp_path / "cf.json")
    result = run_cli("replay", str(path), "--game", "cosmoforce", "--json")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["actions"] == len(session.actions) and data["round"] == session.state.turn
    assert [s["heat"] for s in data["ships"]] == [s.heat for s in session.state.ships]
    text = run_cli("replay", str(path), "--game", "cosmoforce")
    assert "Lancer (cruiser, mass 20, Captain 1)" in text.stdout
    wrong = run_cli("replay", str(path))
    assert wrong.returncode == 1 and "another game" in wrong.stderr
    assert engine.current_player(session.state) != TERMINAL or session.over
