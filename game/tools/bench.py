"""The benchmark suite (``python main.py bench [--json] [--quick]``): issue 12's figures, each beside its aim.

Every figure is a median of several repetitions taken in one run, given twice: ``cpu`` from the CPU time
the work took (``time.process_time``, or the child's rusage for a figure taken in its own process) and
``wall`` from the clock on the wall. The machine is shared, so wall time is noisy; the aims are judged
on ``cpu``. The JSON line holds ``figures`` (name -> cpu, wall, unit, aim, met) and ``aims_met``.

Engine figures (in this process):

* ``simulate_program_games_per_s``: ``simulate``, the space-program bot, 2 programs, 20 turns, checks on.
* ``simulate_random_games_per_s``: the same with ``--bot random``; ``random_action_cost_growth`` is the
  cost of an action in 80-turn random games over its cost in 5-turn ones (flat play: near 1), each game a
  one-game ``simulate`` run as the issue's row names (before 2026-11-24 it timed ``play_game`` without the
  collector's tuning for play: the collector's own share is about 0.04 of that figure, and interleaved runs
  of the two measures on the same code gave medians 1.397 and 1.402; docs/performance.md).
* ``stop_the_rock_games_per_s``: Stop The Rock, one program, the space-program bot, checks on.
* ``rnd_legal_actions_us``: one ``legal_actions`` call in a mid-game R&D state (R&D states of turns 8-12
  of seeded games, each asked once, so nothing answers from a cache it filled itself).
* ``flight_legal_actions_us``: one ``legal_actions`` call in a flight state where a program decides
  (launches, moves, activities, burns, mid-roll choices of seeded space-program-bot games, random-bot
  games and Stop The Rock), each asked once by a fresh engine. Informational: its aim (the R&D one's,
  50 us) is given as ``informational_aim`` and not counted in ``aims_met``, since issue 12's table does
  not list it.
* ``route_odds_ms``: the exact chance that a craft completes a 12-step lunar route (fresh engine caches
  each time, as when the planner first sees a craft).
* ``replay_s``: loading (reading, checking and replaying) a save of 4,000 actions;
  ``replay_memory_growth``: the memory a loaded game holds per action after 4,000 actions over the same
  after 1,000 (linear in the log: near 1).
* ``rules_load_s``: loading and checking every rules table.

Client figures (each in a fresh process, headless with SDL's dummy drivers; skipped without pygame):

* ``startup_ratio``: start-up to the first drawn frame through the real ``main.py`` path (the player's
  command, 1920x1080 window) over the same for an empty pygame_gui window; beside it (informational) the app's
  CPU to its 30th frame (a second at the title's 30 frames a second), by which what waits for the first frame
  is done, the sounds' thread too. It is a later start: the title's first frame (its buttons' looks, its words
  and its backdrop's layer) was kept on disk by the warm-up run (``kit/kept_looks.py``), and each timed app run
  starts in a home holding only that file.
* ``startup_ratio_first_launch`` (informational): the same, each app run in an empty home (no kept looks), as
  a player's very first start.
* ``frame_p99_ms.<scene>.<size>``: the 99th percentile of one frame (events, updates, drawing, flip) of
  the title, The Field (12 Upgoers, the dice tumbling, markers gliding), R&D, assembly and the rules
  reference at 1920x1080 and 3840x2160. The Field's burn is rolled through the scene, so its card really
  animates; the dice are rewound before they all land, and the child refuses to report unless at least one
  die was tumbling in every timed frame (``tumbling_frames`` in the figure equals ``frames``).
* ``idle_title_cpu``: the share of one core the app's real loop uses on the title when nothing is done,
  at 1280x720 and 3840x2160.
* ``peak_memory_mib.<scene>``: the peak resident memory of a process showing that scene at 3840x2160, opened
  from the title as a player's is (with big allocations given back to the system when freed, as the app sets
  after the title's first frame).

Temporary folders (homes, saves) are made inside one folder that is removed when the run ends.
"""
from __future__ import annotations

import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import tracemalloc
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Optional

try:
    import resource  # CPU time of child processes and peak memory (POSIX)
except ImportError:  # pragma: no cover - Windows: those figures are left out
    resource = None  # type: ignore[assignment]

from game.core.saves import load_game, save_game
from game.games.whatgoesup.rules.engine import Engine
from game.games.whatgoesup.rules.tables import load_rules
from game.games.whatgoesup.sim import default_setup, play_game, simulate
from game.client.kit.paths import KEPT_LOOKS_NAME
from game.tools.bench_scene import SCENES, SIZES

REPO = Path(__file__).resolve().parents[2]

#: Where the temporary folders of one run go (made by ``run_bench``, removed when it ends).
_SCRATCH: list[Path] = []


@dataclass(frozen=True)
class Aim:
    """An aim for a figure: at most (``"<="``) or at least (``">="``) ``value``."""

    sense: str
    value: float

    def met(self, figure: float) -> bool:
        return figure <= self.value if self.sense == "<=" else figure >= self.value

    def __str__(self) -> str:
        return f"{self.sense} {self.value:g}"


@dataclass
class Timing:
    """CPU and wall seconds of one repetition."""

    cpu: float
    wall: float


def timed(fn: Callable[[], object]) -> Timing:
    wall, cpu = time.perf_counter(), time.process_time()
    fn()
    return Timing(time.process_time() - cpu, time.perf_counter() - wall)


def median_timing(fn: Callable[[], object], repeats: int) -> Timing:
    runs = [timed(fn) for _ in range(repeats)]
    return Timing(statistics.median(t.cpu for t in runs), statistics.median(t.wall for t in runs))


def figure(cpu: float, wall: Optional[float], unit: str, aim: Optional[Aim], digits: int = 3, **extra) -> dict:
    """One figure of the JSON line, judged on its CPU-time value."""
    data = {"cpu": round(cpu, digits), "wall": None if wall is None else round(wall, digits), "unit": unit}
    if aim is not None:
        data["aim"] = str(aim)
        data["met"] = aim.met(cpu)
    data.update(extra)
    return data


def scratch(prefix: str) -> Path:
    """A temporary folder inside this run's scratch folder (removed with it)."""
    base = _SCRATCH[-1] if _SCRATCH else Path(tempfile.gettempdir())
    return Path(tempfile.mkdtemp(prefix=prefix, dir=base))


# ---------------------------------------------------------------- engine figures
def games_per_second(engine: Engine, games: int, repeats: int, **kwargs) -> tuple[float, float]:
    """(CPU, wall) games per second of ``simulate`` with ``kwargs``, the median of ``repeats`` runs."""
    runs = []
    for rep in range(repeats):
        summary = None

        def run() -> None:
            nonlocal summary
            summary = simulate(engine, games, 7000 + 100 * rep, **kwargs)
        runs.append(timed(run))
        assert summary is not None and summary.invariant_failures == 0, summary.first_failure
    return games / statistics.median(t.cpu for t in runs), games / statistics.median(t.wall for t in runs)


def action_cost_growth(engine: Engine, quick: bool) -> tuple[float, dict]:
    """CPU per action of long random games over that of short ones (turns given in the details).

    Each game is a ``simulate`` run of one game (``--bot random``, 2 programs, checks on), the entry a balance
    run takes, so the garbage collector is tuned as a player's run has it (``sim._collector_for_play``).
    """
    short, long = (5, 40) if quick else (5, 80)

    def per_action(turns: int, seeds: range) -> float:
        costs = []
        for seed in seeds:
            summary = None

            def run() -> None:
                nonlocal summary
                summary = simulate(engine, 1, seed, players=2, turns=turns, bot="random", check=True)
            t = timed(run)
            assert summary is not None and summary.invariant_failures == 0, summary.first_failure
            costs.append(t.cpu / max(1, summary.actions))
        return statistics.median(costs)

    small = per_action(short, range(300, 303 if quick else 309))
    big = per_action(long, range(300, 301 if quick else 303))
    return big / small, {"short_turns": short, "long_turns": long, "short_us_per_action": round(1e6 * small, 1),
                         "long_us_per_action": round(1e6 * big, 1), "measured_through": "simulate"}


def mid_game_rnd_states(engine: Engine, quick: bool) -> list:
    """R&D states (nobody to answer a trade) of turns 8-12 of seeded space-program-bot games."""
    states = []

    def keep(before, action, after) -> None:
        if after.phase == "rnd" and after.pending_trade is None and 8 <= after.turn <= 12:
            states.append(after)

    for seed in range(40, 41 if quick else 43):
        play_game(engine, default_setup(engine, 2, 12), seed, max_turns=12, check=False, bot_kind="program",
                  on_action=keep)
    return states


def legal_actions_us(quick: bool) -> tuple[float, float, int]:
    """Median (CPU, wall) microseconds of one R&D ``legal_actions`` call, each state asked once by a fresh
    engine's caches; and how many states."""
    rules = load_rules()
    states = mid_game_rnd_states(Engine(rules), quick)
    engine = Engine(rules)  # caches empty: no state was seen by it
    runs = [timed(lambda s=s: engine.legal_actions(s)) for s in states]
    return 1e6 * statistics.median(t.cpu for t in runs), 1e6 * statistics.median(t.wall for t in runs), len(states)


def flight_decision_states(engine: Engine, quick: bool) -> list:
    """Flight states where a program decides (no roll to make, no trade to answer) of seeded games: two
    programs with the space-program bot and with the random bot, and Stop The Rock."""
    from game.core.interface import CHANCE, TERMINAL
    states = []

    def keep(before, action, after) -> None:
        if after.phase == "flight" and after.pending_trade is None and \
                engine.current_player(after) not in (CHANCE, TERMINAL):
            states.append(after)

    seeds = range(40, 42 if quick else 46)
    for seed in seeds:
        play_game(engine, default_setup(engine, 2, 12), seed, max_turns=12, check=False, bot_kind="program",
                  on_action=keep)
        play_game(engine, default_setup(engine, 2, 20), seed, max_turns=20, check=False, bot_kind="random",
                  on_action=keep)
    for seed in seeds[:3]:
        play_game(engine, default_setup(engine, 1, scenario="stop_the_rock"), seed, check=False,
                  bot_kind="program", on_action=keep)
    return states


def flight_legal_actions_us(quick: bool) -> tuple[float, float, int]:
    """Median (CPU, wall) microseconds of one flight ``legal_actions`` call, each state asked once by a fresh
    engine; and how many states."""
    rules = load_rules()
    states = flight_decision_states(Engine(rules), quick)
    engine = Engine(rules)
    runs = [timed(lambda s=s: engine.legal_actions(s)) for s in states]
    return 1e6 * statistics.median(t.cpu for t in runs), 1e6 * statistics.median(t.wall for t in runs), len(states)


LUNAR_ROUTE = ["low_burn_1", "high_transfer", "sync_1", "sync_burn_1", "lunar_transfer", "lunar_orbit_insertion",
               "low_lunar_1", "low_lunar_burn_1", "lunar_landing", "lunar_surface", "low_lunar_3", "low_lunar_burn_3"]


def route_odds(rules, repeats: int) -> tuple[Timing, Timing]:
    """Time to plan a 12-step lunar route's exact completion odds: again on one engine (the planner
    answering while the pointer moves: odds per rating and dice already kept), and first on a fresh one."""
    from game.games.whatgoesup.rules.planning import plan_route
    from game.games.whatgoesup.rules.scenario import give_derp, give_stock, give_thing, place_in_space
    from game.games.whatgoesup.rules.state import PlayerSetup, Setup, UpgoerDesign

    engine = Engine(rules)
    state = engine.new_game(Setup((PlayerSetup("Bench", rules.peoples.peoples[0].id),)))
    state, _, cap = give_thing(state, rules, 0, "capsule", 6, "15/18", count=1)
    state, _, thr = give_thing(state, rules, 0, "thruster", 3, "15/18", count=2)
    state, derp = give_derp(state, 0, "Ace", piloting=2, engineering=2, stamina=3)
    state = give_stock(state, 0, fuel=30, rations=8)
    design = UpgoerDesign("Bench Moon", modules=(cap[0], thr[0], thr[1]), crew=(derp,), fuel=30, rations=8)
    state, upgoer = place_in_space(state, engine, 0, design, "low_1")
    plan_route(engine, state, upgoer, LUNAR_ROUTE)
    warm = median_timing(lambda: plan_route(engine, state, upgoer, LUNAR_ROUTE), repeats)
    cold = []
    for _ in range(repeats):
        fresh = Engine(rules)
        cold.append(timed(lambda: plan_route(fresh, state, upgoer, LUNAR_ROUTE)))
    return warm, Timing(statistics.median(t.cpu for t in cold), statistics.median(t.wall for t in cold))


def long_game(engine: Engine, actions: int = 500, seed: int = 1):
    """A random game of ``actions`` actions (more seeds and turns as needed), for the replay figures."""
    for s in range(seed, seed + 50):
        setup = default_setup(engine, players=2, turns=400)
        result = play_game(engine, setup, s, check=False, max_actions=actions)
        if len(result.actions) == actions:
            return setup, s, result.actions
    raise RuntimeError(f"no random game reached {actions} actions")


def replay_figures(engine: Engine, repeats: int, quick: bool) -> dict:
    """Loading a long save (time), and how its peak memory grows with the log."""
    n = 1000 if quick else 4000
    setup, seed, actions = long_game(engine, n)
    folder = scratch("whatgoesup-bench-saves-")
    long_path, short_path = folder / "long.json", folder / "short.json"
    save_game(long_path, engine, setup, seed, actions)
    save_game(short_path, engine, setup, seed, actions[:n // 4])
    timing = median_timing(lambda: load_game(long_path, engine), repeats)

    def held_bytes(path: Path) -> int:
        """Memory the loaded game holds (its states and log) once loaded."""
        tracemalloc.start()
        loaded = load_game(path, engine)
        held = tracemalloc.get_traced_memory()[0]
        tracemalloc.stop()
        del loaded
        return held

    held_bytes(short_path)  # warm-up: the engine's one-off tables and caches are not the log's
    growth = (held_bytes(long_path) / n) / (held_bytes(short_path) / (n // 4))
    return {"replay_s": figure(timing.cpu, timing.wall, "s", Aim("<=", 0.3), actions=n),
            "replay_memory_growth": figure(growth, None, "ratio", Aim("<=", 1.3), digits=2,
                                           about=f"bytes held per action after loading {n} actions over the same after {n // 4}")}


def engine_figures(rules_dir: Optional[Path], quick: bool) -> dict:
    repeats = 3 if quick else 5
    load = median_timing(lambda: load_rules(rules_dir), repeats)
    rules = load_rules(rules_dir)
    engine = Engine(rules)
    figures = {"rules_load_s": figure(load.cpu, load.wall, "s", None, digits=4)}
    games = 2 if quick else 6
    turns = 6 if quick else 20
    cpu, wall = games_per_second(engine, games, repeats, players=2, turns=turns, bot="program")
    figures["simulate_program_games_per_s"] = figure(cpu, wall, "games/s", Aim(">=", 100), digits=2, turns=turns)
    cpu, wall = games_per_second(engine, games, repeats, players=2, turns=turns, bot="random")
    figures["simulate_random_games_per_s"] = figure(cpu, wall, "games/s", Aim(">=", 50), digits=2, turns=turns)
    growth, details = action_cost_growth(engine, quick)
    figures["random_action_cost_growth"] = figure(growth, None, "ratio", Aim("<=", 1.3), digits=2, **details)
    cpu, wall = games_per_second(engine, games, repeats, players=1, mode="stop-the-rock", bot="program")
    figures["stop_the_rock_games_per_s"] = figure(cpu, wall, "games/s", Aim(">=", 200), digits=2)
    cpu, wall, count = legal_actions_us(quick)
    figures["rnd_legal_actions_us"] = figure(cpu, wall, "us", Aim("<=", 50), digits=1, states=count)
    cpu, wall, count = flight_legal_actions_us(quick)
    figures["flight_legal_actions_us"] = figure(cpu, wall, "us", None, digits=1, states=count,
                                                informational_aim=str(Aim("<=", 50)))
    warm, cold = route_odds(rules, repeats)
    figures["route_odds_ms"] = figure(1000 * warm.cpu, 1000 * warm.wall, "ms", Aim("<=", 2), steps=len(LUNAR_ROUTE),
                                      first_on_fresh_engine_cpu_ms=round(1000 * cold.cpu, 3))
    figures.update(replay_figures(engine, repeats, quick))
    return figures


# ---------------------------------------------------------------- client figures (child processes)
def _child_env(home: Path) -> dict:
    env = dict(os.environ, PYTHONPATH=str(REPO) + os.pathsep + os.environ.get("PYTHONPATH", ""),
               SDL_VIDEODRIVER=os.environ.get("SDL_VIDEODRIVER", "dummy"), WHATGOESUP_HOME=str(home),
               SDL_AUDIODRIVER=os.environ.get("SDL_AUDIODRIVER", "dummy"), PYGAME_HIDE_SUPPORT_PROMPT="1")
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # both windows start from compiled bytecode, as a player's do
    return env


#: The player's command (``python main.py --windowed --size WxH``), stopped by the first flip (``first``), by
#: the flip of frame N (``frames N``) or after measuring the real loop's CPU share while the title idles (``idle``).
_MAIN_PATH = r"""
import os, runpy, sys, time
import pygame
mode, size, seconds = sys.argv[1], sys.argv[2], float(sys.argv[3]) if len(sys.argv) > 3 else 0.0
flip, frames, marks = pygame.display.flip, [0], {}
def counted_flip():
    flip()
    frames[0] += 1
    if mode == "first" or (mode == "frames" and frames[0] >= seconds):
        print("FIRST FRAME", frames[0], flush=True)
        os._exit(0)
    now = time.perf_counter()
    if "start" not in marks and frames[0] >= 30:
        marks["start"] = (now, time.process_time(), frames[0])
    elif "start" in marks and now - marks["start"][0] >= seconds:
        wall, cpu, first = marks["start"]
        print("IDLE", (time.process_time() - cpu) / (now - wall), frames[0] - first, flush=True)
        os._exit(0)
pygame.display.flip = counted_flip
sys.argv = ["main.py", "--windowed", "--size", size]
runpy.run_path("main.py", run_name="__main__")
"""

_EMPTY_WINDOW = r"""
import os
import pygame, pygame_gui
pygame.display.init()
pygame.font.init()
screen = pygame.display.set_mode((1920, 1080))
manager = pygame_gui.UIManager((1920, 1080))
screen.fill((0, 0, 0))
manager.update(0.0)
manager.draw_ui(screen)
pygame.display.flip()
print("FIRST FRAME", flush=True)
os._exit(0)
"""


def _run_child(code: str, args: list[str], marker: str, home: Optional[Path] = None) -> tuple[str, float, float]:
    """Run ``code`` in a fresh interpreter until it prints ``marker``; (its line, CPU s, wall s). Its home folder
    is ``home``, else a new empty one."""
    home = home or scratch("whatgoesup-bench-home-")
    start = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-c", code, *args], cwd=str(REPO), env=_child_env(home),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    out, err = proc.communicate()
    wall = time.perf_counter() - start
    line = next((row for row in out.splitlines() if row.startswith(marker)), None)
    if line is None:
        raise RuntimeError(f"the bench child ({args}) never said {marker}: {err.strip()[-400:]}")
    return line, _children_cpu_since(), wall


_CHILD_CPU = [0.0]


def _children_cpu_since() -> float:
    """CPU seconds used by waited-for children since the last call (0 where the system cannot say)."""
    if resource is None:
        return 0.0
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    total = usage.ru_utime + usage.ru_stime
    spent, _CHILD_CPU[0] = total - _CHILD_CPU[0], total
    return spent


#: Frames through which ``startup_figure`` also follows the app (informational): what the app leaves until its
#: first frame is up (the buttons' other looks, the sounds) is done by then, so a start-up made quicker by only
#: moving work past the first frame shows there.
SETTLED_FRAMES = 30


#: The frame by which the app has kept the title's looks on disk (``App.KEEP_LOOKS_AT_FRAME``), and a margin for
#: the write on its thread (the child ends at once at this frame).
KEPT_LOOKS_FRAMES = 90


def _home_with(kept: Optional[Path]) -> Path:
    """A new home folder holding only a copy of the kept looks ``kept`` (none if None)."""
    home = scratch("whatgoesup-bench-home-")
    if kept is not None:
        shutil.copyfile(kept, home / KEPT_LOOKS_NAME)
    return home


def startup_figures(repeats: int) -> dict:
    """``startup_ratio`` (a later start: the title's looks kept on disk by an earlier run) and the informational
    ``startup_ratio_first_launch`` (the same with no kept looks: each app run starts in an empty home), their app
    runs interleaved with the empty window's."""
    _children_cpu_since()
    warm_home = scratch("whatgoesup-bench-home-")
    # warm-up: bytecode compiled, files cached, and the title's looks kept in warm_home as a player's first run does
    _run_child(_MAIN_PATH, ["frames", "1920x1080", str(KEPT_LOOKS_FRAMES)], "FIRST FRAME", warm_home)
    kept = warm_home / KEPT_LOOKS_NAME
    if not kept.is_file():
        raise RuntimeError("the bench's warm-up run kept no looks")
    _run_child(_EMPTY_WINDOW, [], "FIRST FRAME")
    runs: dict[str, list[Timing]] = {name: [] for name in ("later", "first", "empty", "later_30", "first_30")}
    for _ in range(repeats):  # interleaved, so a busy spell on the machine hits all alike
        for name, args, looks in (("later", ["first"], kept), ("empty", None, None), ("first", ["first"], None),
                                  ("later_30", ["frames"], kept), ("first_30", ["frames"], None)):
            if args is None:
                _, cpu, wall = _run_child(_EMPTY_WINDOW, [], "FIRST FRAME")
            else:
                extra = [str(SETTLED_FRAMES)] if args == ["frames"] else []
                _, cpu, wall = _run_child(_MAIN_PATH, [*args, "1920x1080", *extra], "FIRST FRAME", _home_with(looks))
            runs[name].append(Timing(cpu, wall))

    def med(name: str, what: str) -> float:
        return statistics.median(getattr(t, what) for t in runs[name])

    def ratio_figure(app: str, aim: Optional[Aim]) -> dict:
        return figure(med(app, "cpu") / med("empty", "cpu"), med(app, "wall") / med("empty", "wall"), "ratio",
                      aim, digits=2, app_cpu_s=round(med(app, "cpu"), 3), empty_cpu_s=round(med("empty", "cpu"), 3),
                      app_wall_s=round(med(app, "wall"), 3), empty_wall_s=round(med("empty", "wall"), 3),
                      **{f"app_cpu_to_frame_{SETTLED_FRAMES}_s": round(med(f"{app}_30", "cpu"), 3)})

    return {"startup_ratio": ratio_figure("later", Aim("<=", 1.3)),
            "startup_ratio_first_launch": ratio_figure("first", None)}


def idle_figure(size: str, seconds: float) -> dict:
    _children_cpu_since()
    line, _, _ = _run_child(_MAIN_PATH, ["idle", size, str(seconds)], "IDLE")
    _, share, frames = line.split()
    return figure(float(share), None, "share of a core", Aim("<=", 0.15), digits=3, size=size,
                  seconds=seconds, frames=int(frames))


#: A scene's frames and peak memory, measured in a fresh process that imports only what the client needs
#: (``game.tools.bench_scene``: not the engine figures' modules above, which a player's title never loads).
_SCENE_CHILD = r"""
import sys
from game.tools.bench_scene import scene_child
scene_child(sys.argv[1], sys.argv[2], int(sys.argv[3]))
"""

def scene_figures(quick: bool) -> dict:
    frames = 30 if quick else 600
    figures = {}
    for scene in SCENES:
        for size in SIZES:
            line, _, _ = _run_child(_SCENE_CHILD, [scene, size, str(frames)], "SCENE")
            data = json.loads(line.split(" ", 1)[1])
            aim = Aim("<=", 4.2 if size == "1080p" else 8.3)
            extra = {} if data.get("moving_frames") is None else {"tumbling_frames": data["moving_frames"]}
            figures[f"frame_p99_ms.{scene}.{size}"] = figure(data["cpu_p99"], data["wall_p99"], "ms", aim,
                                                            cpu_p50=round(data["cpu_p50"], 3), frames=frames,
                                                            **extra)
            if size == "4k":
                figures[f"peak_memory_mib.{scene}"] = figure(data["peak_mib"], None, "MiB", Aim("<=", 250), digits=1)
    return figures


def client_figures(quick: bool) -> dict:
    figures = startup_figures(1 if quick else 5)
    figures.update(scene_figures(quick))
    for size in ("1280x720", "3840x2160"):
        figures[f"idle_title_cpu.{size}"] = idle_figure(size, 1.0 if quick else 5.0)
    return figures


# ---------------------------------------------------------------- the run
def run_bench(rules_dir: Optional[Path] = None, quick: bool = False, part: str = "all") -> dict:
    """Every figure of the suite (``part``: "all", "engine" or "client"), as a dict (the CLI prints it as
    one JSON line)."""
    folder = Path(tempfile.mkdtemp(prefix="whatgoesup-bench-"))
    _SCRATCH.append(folder)
    try:
        figures = engine_figures(rules_dir, quick) if part in ("all", "engine") else {}
        data: dict = {"figures": figures, "quick": quick, "judged_on": "cpu", "part": part}
        if part in ("all", "client"):
            try:
                import pygame  # noqa: F401
                import pygame_gui  # noqa: F401
            except ModuleNotFoundError:
                data["client"] = "not measured: pygame-ce and pygame_gui are not installed"
            else:
                figures.update(client_figures(quick))
        judged = [f for f in figures.values() if "met" in f]
        data["aims_met"] = f"{sum(f['met'] for f in judged)}/{len(judged)}"
        return data
    finally:
        _SCRATCH.remove(folder)
        shutil.rmtree(folder, ignore_errors=True)
