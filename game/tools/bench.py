"""The benchmark suite: a few figures, each the median of several repetitions taken in one run.

* ``actions_per_second``: random legal play (bot choices, legal-action enumeration and apply).
* ``rules_load_s``: loading and checking every rules table.
* ``save_load_s``: saving a 500-action game and loading (replaying) it again.
* ``games_per_second``: complete 20-turn games played by the space-program bot (flights included).
* ``route_odds_ms``: the exact chance that a craft completes a 12-step lunar route (burn retries included).

The client figures (when pygame-ce and pygame_gui are installed; headless with SDL's dummy drivers):

* ``startup_s``: from starting a fresh Python process to the app's first drawn frame (the title), and
  ``startup_empty_s`` the same for an empty pygame_gui window, measured in the same run.
* ``frame_p50_ms`` / ``frame_p99_ms``: one frame (events, updates, drawing) of The Field at 1920x1080 with
  12 Upgoers on the board, the dice tumbling and markers gliding; ``frame_empty_p99_ms`` the same figure
  for an empty pygame_gui window. The aim is a 99th percentile under 4 ms. Each is the median over three
  blocks of 600 frames (one block of 120 when quick).
"""
from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Callable, Optional

from game.games.whatgoesup.rules.engine import Engine
from game.games.whatgoesup.rules.tables import load_rules
from game.core.saves import load_game, save_game
from game.games.whatgoesup.sim import default_setup, play_game


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


REPO = Path(__file__).resolve().parents[2]

_FIRST_FRAME = r"""
import os, sys, tempfile
os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
import pygame
if sys.argv[1] == "app":
    from pathlib import Path
    from game.client.launch import make_app
    app = make_app(home=Path(tempfile.mkdtemp(prefix="whatgoesup-bench-")), size=(1920, 1080), fullscreen=False)
    app.start("title")
    app.step(0.0, [])
else:
    import pygame_gui
    pygame.display.init()
    pygame.font.init()
    screen = pygame.display.set_mode((1920, 1080))
    manager = pygame_gui.UIManager((1920, 1080))
    screen.fill((0, 0, 0))
    manager.update(0.0)
    manager.draw_ui(screen)
pygame.display.flip()
print("FIRST FRAME", flush=True)
"""


def _startup_seconds(mode: str) -> float:
    """Seconds from launching a fresh interpreter to its first drawn frame (``app`` or ``empty``).

    Both windows start from compiled bytecode, as they do on a player's machine after the first launch
    (pygame_gui's was compiled when it was installed): ``PYTHONDONTWRITEBYTECODE`` is dropped for the
    child, and ``client_figures`` launches each once, unmeasured, first.
    """
    env = dict(os.environ, PYTHONPATH=str(REPO) + os.pathsep + os.environ.get("PYTHONPATH", ""),
               SDL_VIDEODRIVER=os.environ.get("SDL_VIDEODRIVER", "dummy"),
               SDL_AUDIODRIVER=os.environ.get("SDL_AUDIODRIVER", "dummy"), PYGAME_HIDE_SUPPORT_PROMPT="1")
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    start = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-c", _FIRST_FRAME, mode], cwd=str(REPO), env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    assert proc.stdout is not None
    for line in proc.stdout:
        if line.startswith("FIRST FRAME"):
            elapsed = time.perf_counter() - start
            break
    else:
        proc.wait()
        raise RuntimeError(f"the {mode} window never drew a frame")
    proc.wait()
    return elapsed


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, int(round(q * (len(ordered) - 1)))))]


def client_figures(engine: Engine, quick: bool = False) -> dict:
    """Start-up and frame-time figures of the client (see the module docstring)."""
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    import pygame
    import pygame_gui

    from game.games.whatgoesup.rules.flight_actions import Burn, Move
    from game.core.session import GameSession
    from game.client.launch import make_app
    from game.tools.field_shots import build_demo_state, open_field

    repeats = 2 if quick else 5
    _startup_seconds("app")  # warm-up launches: bytecode compiled, files in the OS cache
    _startup_seconds("empty")
    apps, empties = [], []
    for _ in range(repeats):  # interleaved, so a busy spell on the machine hits both alike
        apps.append(_startup_seconds("app"))
        empties.append(_startup_seconds("empty"))
    startup, startup_empty = statistics.median(apps), statistics.median(empties)

    # Frame figures: the median over ``blocks`` blocks of ``frames`` frames each, so one busy spell on a
    # shared machine does not decide the 99th percentile.
    frames = 120 if quick else 600
    blocks = 1 if quick else 3
    warm = 30
    dt = 1 / 60
    with tempfile.TemporaryDirectory(prefix="whatgoesup-bench-") as home:
        state = build_demo_state(engine, crafts_per_program=3)
        app = make_app(home=Path(home), size=(1920, 1080), fullscreen=False)
        session = GameSession(engine, state.setup, 11, states=(state,), saves_dir=Path(home))
        scene = open_field(app, session)
        uid = session.state.flight.active
        session.apply(Move(uid))
        burn = next(a for a in session.legal_actions() if isinstance(a, Burn) and not a.rcs)
        session.apply(burn)
        session.roll()
        upgoers = sum(1 for u in session.state.upgoers if u.status in ("flying", "pad", "debris"))
        times = []
        for n in range(warm + frames * blocks):
            show = scene.roll_panel.show
            if show is not None and show.animation.time > show.animation.duration * 0.8:
                show.animation.seek(0.0)  # keep the dice tumbling for the whole measurement
            if n % 45 == 0:  # and send a few markers gliding round their rings
                for other in list(scene.markers.at)[:4]:
                    step = scene.markers.at[other]
                    scene.markers.at[other] = scene.board_view.geometry.steps[step].next or step
                scene.markers.sync(session.state)
            start = time.perf_counter()
            app.step(dt, [])
            pygame.display.flip()
            if n >= warm:
                times.append((time.perf_counter() - start) * 1000)
        app.stack.clear()

        screen = pygame.display.get_surface()
        manager = pygame_gui.UIManager(screen.get_size())
        empty = []
        for n in range(warm + frames * blocks):
            start = time.perf_counter()
            for event in pygame.event.get():
                manager.process_events(event)
            screen.fill((0, 0, 0))
            manager.update(dt)
            manager.draw_ui(screen)
            pygame.display.flip()
            if n >= warm:
                empty.append((time.perf_counter() - start) * 1000)
        pygame.display.quit()
    def per_block(values: list[float], figure: Callable[[list[float]], float]) -> float:
        return statistics.median(figure(values[b * frames:(b + 1) * frames]) for b in range(blocks))

    def p99(values: list[float]) -> float:
        return _percentile(values, 0.99)

    return {"startup_s": round(startup, 3), "startup_empty_s": round(startup_empty, 3),
            "frame_p50_ms": round(per_block(times, statistics.median), 3), "frame_p99_ms": round(per_block(times, p99), 3),
            "frame_empty_p99_ms": round(per_block(empty, p99), 3), "frame_upgoers": upgoers,
            "frame_size": "1920x1080", "frames_measured": frames, "frame_blocks": blocks}


LUNAR_ROUTE = ["low_burn_1", "high_transfer", "sync_1", "sync_burn_1", "lunar_transfer", "lunar_orbit_insertion",
               "low_lunar_1", "low_lunar_burn_1", "lunar_landing", "lunar_surface", "low_lunar_3", "low_lunar_burn_3"]


def route_odds_ms(engine: Engine, repeats: int) -> float:
    """Milliseconds for the exact completion odds of a 12-step lunar route (fresh cache each time)."""
    from game.games.whatgoesup.rules.planning import plan_route
    from game.games.whatgoesup.rules.scenario import give_derp, give_stock, give_thing, place_in_space
    from game.games.whatgoesup.rules.state import PlayerSetup, Setup, UpgoerDesign

    rules = engine.rules
    state = engine.new_game(Setup((PlayerSetup("Bench", rules.peoples.peoples[0].id),)))
    state, _, cap = give_thing(state, rules, 0, "capsule", 6, "15/18", count=1)
    state, _, thr = give_thing(state, rules, 0, "thruster", 3, "15/18", count=2)
    state, derp = give_derp(state, 0, "Ace", piloting=2, engineering=2, stamina=3)
    state = give_stock(state, 0, fuel=30, rations=8)
    design = UpgoerDesign("Bench Moon", modules=(cap[0], thr[0], thr[1]), crew=(derp,), fuel=30, rations=8)
    state, upgoer = place_in_space(state, engine, 0, design, "low_1")
    return 1000 * _median_time(lambda: plan_route(engine, state, upgoer, LUNAR_ROUTE), repeats)


def games_per_second(engine: Engine, repeats: int, games: int, turns: int) -> float:
    """Complete simulated games (the space-program bot, with flights) per second."""
    rates = []
    for rep in range(repeats):
        start = time.perf_counter()
        for g in range(games):
            play_game(engine, default_setup(engine, 2, turns), 7000 + 100 * rep + g, max_turns=turns,
                      check=False, bot_kind="program")
        rates.append(games / (time.perf_counter() - start))
    return statistics.median(rates)


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
            save_game(path, engine, setup, seed, actions)
            load_game(path, engine)

        save_load_s = _median_time(save_and_load, repeats)
    data = {"actions_per_second": round(actions_per_second, 1), "rules_load_s": round(rules_load_s, 4),
            "save_load_s": round(save_load_s, 4), "save_load_actions": n_actions,
            "games_per_second": round(games_per_second(engine, repeats, 1 if quick else 4, 5 if quick else 20), 2),
            "game_turns": 5 if quick else 20,
            "route_odds_ms": round(route_odds_ms(engine, repeats), 3), "route_odds_steps": len(LUNAR_ROUTE),
            "repeats": repeats, "quick": quick}
    try:
        import pygame  # noqa: F401
        import pygame_gui  # noqa: F401
    except ModuleNotFoundError:
        data["client"] = "not measured: pygame-ce and pygame_gui are not installed"
        return data
    data.update(client_figures(engine, quick))
    return data
