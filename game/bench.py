"""The benchmark suite: a few figures, each the median of several repetitions taken in one run.

* ``actions_per_second``: random legal play (bot choices, legal-action enumeration and apply).
* ``rules_load_s``: loading and checking every rules table.
* ``save_load_s``: saving a 500-action game and loading (replaying) it again.
"""
from __future__ import annotations

import statistics
import tempfile
import time
from pathlib import Path
from typing import Callable, Optional

from game.rules.engine import Engine
from game.rules.tables import load_rules
from game.saves import load_game, save_game
from game.sim import default_setup, play_game


def _median_time(fn: Callable[[], object], repeats: int) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def long_game(engine: Engine, actions: int = 500, seed: int = 1):
    """A random game of ``actions`` actions (more seeds and turns as needed), for the save figure."""
    for s in range(seed, seed + 50):
        setup = default_setup(engine, players=2, turns=200)
        result = play_game(engine, setup, s, check=False, max_actions=actions)
        if len(result.actions) == actions:
            return setup, s, result.actions
    raise RuntimeError(f"no random game reached {actions} actions")


def run_bench(rules_dir: Optional[Path] = None, quick: bool = False) -> dict:
    """Every figure of the suite, as a dict (the CLI prints it as the last line)."""
    repeats = 3 if quick else 5
    rules_load_s = _median_time(lambda: load_rules(rules_dir), repeats)
    rules = load_rules(rules_dir)
    engine = Engine(rules)

    rates = []
    games = 1 if quick else 3
    turns = 3 if quick else 10
    for rep in range(repeats):
        start = time.perf_counter()
        count = 0
        for g in range(games):
            result = play_game(engine, default_setup(engine, 2, turns), 1000 * rep + g, max_turns=turns,
                               check=False)
            count += len(result.actions)
        rates.append(count / (time.perf_counter() - start))
    actions_per_second = statistics.median(rates)

    n_actions = 100 if quick else 500
    setup, seed, actions = long_game(engine, n_actions)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "bench.json"

        def save_and_load() -> None:
            save_game(path, rules, setup, seed, actions)
            load_game(path, engine)

        save_load_s = _median_time(save_and_load, repeats)
    return {"actions_per_second": round(actions_per_second, 1), "rules_load_s": round(rules_load_s, 4),
            "save_load_s": round(save_load_s, 4), "save_load_actions": n_actions, "repeats": repeats,
            "quick": quick}
