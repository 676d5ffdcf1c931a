"""The command line, run as a user runs it: ``python main.py ...`` in a subprocess."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from game.games.whatgoesup.rules.tables import DEFAULT_RULES_DIR
from game.core.saves import save_game
from game.games.whatgoesup.sim import default_setup, play_game

REPO = Path(__file__).resolve().parents[1]


def run(*args: str, home: Path | None = None, timeout: float = 300,
        env_extra: dict | None = None) -> subprocess.CompletedProcess:
    env = dict(os.environ, **(env_extra or {}))
    env.setdefault("SDL_VIDEODRIVER", "dummy")
    if home is not None:
        env["WHATGOESUP_HOME"] = str(home)
    return subprocess.run([sys.executable, str(REPO / "main.py"), *args], cwd=REPO, env=env,
                          capture_output=True, text=True, timeout=timeout)


def last_json(out: str) -> dict:
    return json.loads(out.strip().splitlines()[-1])


def no_traceback(proc: subprocess.CompletedProcess) -> None:
    assert "Traceback" not in proc.stdout + proc.stderr, proc.stdout + proc.stderr


def test_check_rules_ok(rules):
    proc = run("check-rules")
    assert proc.returncode == 0, proc.stderr
    line = proc.stdout.strip()
    assert line.startswith(f"rules OK: {rules.edition.name}, {len(rules.components.kinds)} component kinds, "
                           f"{len(rules.dice.schemes)} dice schemes, ")
    assert line.endswith(f"digest {rules.digest}")


def test_check_rules_broken_copy(tmp_path):
    folder = tmp_path / "rules"
    shutil.copytree(DEFAULT_RULES_DIR, folder)
    path = folder / "economy.yaml"
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    number = next(i for i, line in enumerate(lines, 1) if line.strip().startswith("worst:"))
    lines[number - 1] = lines[number - 1].replace("1/2", "nine")
    path.write_text("".join(lines), encoding="utf-8")
    proc = run("check-rules", str(folder))
    no_traceback(proc)
    assert proc.returncode == 1
    out = proc.stdout.strip().splitlines()
    assert out and all(line.startswith("rules/") for line in out), out
    assert any(line.startswith(f"rules/economy.yaml:{number}: ") for line in out), out


def test_check_rules_missing_folder(tmp_path):
    proc = run("check-rules", str(tmp_path / "nowhere"))
    no_traceback(proc)
    assert proc.returncode == 1
    assert "is not a folder of rules" in proc.stdout


def test_simulate_prints_a_json_summary_last():
    proc = run("simulate", "--games", "5", "--seed", "1", "--turns", "2")
    no_traceback(proc)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    summary = last_json(proc.stdout)
    for key in ("games", "actions", "seconds", "actions_per_second", "invariant_failures", "turns"):
        assert key in summary
    assert summary["games"] == 5 and summary["invariant_failures"] == 0 and summary["actions"] > 0
    assert summary["turns"] == 10


@pytest.fixture
def save_file(tmp_path, rules, engine) -> Path:
    setup = default_setup(engine, 2, 20)
    result = play_game(engine, setup, 4, max_turns=2)
    return save_game(tmp_path / "game.json", engine, setup, 4, result.actions)


def test_replay_a_save(save_file):
    proc = run("replay", str(save_file))
    assert proc.returncode == 0, proc.stderr
    assert "actions replayed" in proc.stdout and "Turn 3, phase rnd" in proc.stdout
    assert "Bot 1 (" in proc.stdout and "dots" in proc.stdout and "luck" in proc.stdout


def test_replay_json(save_file):
    proc = run("replay", str(save_file), "--json")
    assert proc.returncode == 0, proc.stderr
    data = last_json(proc.stdout)
    assert data["turn"] == 3 and data["phase"] == "rnd"
    assert [p["name"] for p in data["programs"]] == ["Bot 1", "Bot 2"]
    for key in ("dots", "points", "luck", "things", "derps", "upgoers"):
        assert key in data["programs"][0]


def test_replay_of_a_bad_save_exits_1_without_a_traceback(save_file):
    doc = json.loads(save_file.read_text(encoding="utf-8"))
    doc["actions"].insert(0, {"action": "Heal", "derp": "D42"})
    save_file.write_text(json.dumps(doc), encoding="utf-8")
    proc = run("replay", str(save_file))
    no_traceback(proc)
    assert proc.returncode == 1
    assert proc.stderr.strip().endswith("action 1 (heal D42): D42 is not one of your derps")


def test_bench_json_gives_every_figure_beside_its_aim(tmp_path):
    """One JSON line: each figure by CPU time and wall clock, its aim and whether it is met; the client's
    scenes at both sizes when pygame is here; and no temporary folder left behind."""
    proc = run("bench", "--json", "--quick", env_extra={"TMPDIR": str(tmp_path)}, timeout=900)  # slow on a busy machine
    assert proc.returncode == 0, proc.stderr
    data = last_json(proc.stdout)
    figures = data["figures"]
    for name in ("simulate_program_games_per_s", "simulate_random_games_per_s", "random_action_cost_growth",
                 "stop_the_rock_games_per_s", "rnd_legal_actions_us", "route_odds_ms", "replay_s",
                 "replay_memory_growth"):
        assert figures[name]["cpu"] > 0 and figures[name]["aim"] and isinstance(figures[name]["met"], bool), name
    assert figures["replay_s"]["wall"] > 0
    assert figures["flight_legal_actions_us"]["cpu"] > 0 and figures["flight_legal_actions_us"]["states"] > 0
    try:
        import pygame  # noqa: F401
    except ModuleNotFoundError:
        assert "not installed" in data["client"]
    else:
        for scene in ("title", "field", "rnd", "assembly", "rules_reference"):
            for size in ("1080p", "4k"):
                assert figures[f"frame_p99_ms.{scene}.{size}"]["cpu"] > 0
            assert figures[f"peak_memory_mib.{scene}"]["cpu"] > 0
        assert figures["startup_ratio"]["app_cpu_s"] > 0
        assert 0 <= figures["idle_title_cpu.1280x720"]["cpu"] <= 2
    judged = [f for f in figures.values() if "aim" in f]
    assert data["aims_met"] == f"{sum(f['met'] for f in judged)}/{len(judged)}"
    assert list(tmp_path.iterdir()) == []


def test_no_arguments_without_the_client_explains(tmp_path):
    """Without pygame-ce, `python main.py` says what is missing instead of failing with a traceback."""
    try:
        import pygame  # noqa: F401
    except ModuleNotFoundError:
        proc = run(home=tmp_path)
        no_traceback(proc)
        assert proc.returncode == 1
        assert "not installed" in proc.stderr or "not available" in proc.stderr
    else:
        pytest.skip("the client is installed here, so `python main.py` opens the game (tests/ui start it)")


def test_unexpected_error_is_one_line_and_logged(tmp_path, monkeypatch, capsys):
    from game import cli
    monkeypatch.setenv("WHATGOESUP_HOME", str(tmp_path))

    def boom(args):
        raise RuntimeError("something odd")

    monkeypatch.setattr(cli, "cmd_check_rules", boom)
    assert cli.main(["check-rules"]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    log = tmp_path / "whatgoesup.log"
    assert err == [f"whatgoesup: unexpected error: RuntimeError: something odd (details in {log})"]
    assert "Traceback" in log.read_text(encoding="utf-8")


def test_main_function_is_the_console_script():
    import main
    assert main.main(["check-rules"]) == 0


@pytest.mark.parametrize("args, message", [
    (["--players", "0"], "argument --players: must be a whole number from 1 to 4, not 0"),
    (["--players", "5"], "argument --players: must be a whole number from 1 to 4, not 5"),
    (["--turns", "0"], "argument --turns: must be a whole number from 1 to 1000, not 0"),
    (["--turns", "many"], "argument --turns: must be a whole number from 1 to 1000, not 'many'"),
    (["--games", "0"], "argument --games: must be a whole number from 1 to 100000, not 0"),
    (["--seed", "-1"], "argument --seed: must be a whole number from 0 to 9223372036854775807, not -1"),
    (["--mode", "chaos"], "argument --mode: invalid choice: 'chaos' (choose from 'normal', 'stop-the-rock')"),
    (["--rules", "no/such/folder"], "argument --rules: 'no/such/folder' is not a folder"),
    (["--difficulty", "nightmare"],
     "argument --difficulty: only Stop The Rock has difficulties (add --mode stop-the-rock)"),
    (["--mode", "stop-the-rock", "--difficulty", "nightmare"],
     "argument --difficulty: unknown difficulty 'nightmare' (choose from gentle, normal, hard)"),
    (["--victory", "world_peace"], "argument --victory: unknown victory 'world_peace' (choose from most_dots, "
     "one_small_step, moon_temple, moon_monolith, all_your_base, all_seeing_eye)"),
    (["--mode", "stop-the-rock", "--victory", "moon_temple"],
     "argument --victory: Stop The Rock has its own ending; --victory does not apply to it"),
])
def test_simulate_refuses_bad_arguments_with_a_usage_message(args, message, capsys):
    from game import cli
    with pytest.raises(SystemExit) as stopped:
        cli.main(["simulate", "--games", "1", *args])
    assert stopped.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("usage: whatgoesup simulate ")
    assert err.strip().splitlines()[-1] == f"whatgoesup simulate: error: {message}"
    assert "Traceback" not in err and "unexpected error" not in err


def test_check_rules_reports_nan_on_its_line_without_a_traceback(tmp_path):
    folder = tmp_path / "rules"
    shutil.copytree(DEFAULT_RULES_DIR, folder)
    path = folder / "components.yaml"
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    number = next(i for i, line in enumerate(lines, 1) if line.startswith("reusable_extra_mass:"))
    lines[number - 1] = "reusable_extra_mass: .nan\n"
    path.write_text("".join(lines), encoding="utf-8")
    proc = run("check-rules", str(folder))
    no_traceback(proc)
    assert proc.returncode == 1
    assert proc.stdout.strip().splitlines() == [
        f"rules/components.yaml:{number}: reusable_extra_mass must be a finite number, not '.nan' "
        "(infinity and 'not a number' cannot be played with)"]
