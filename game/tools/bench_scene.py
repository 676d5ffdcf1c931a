"""The scene figures' child process (``python main.py bench``): open a scene of the real client at a size, time
its frames and report its peak memory. Kept apart from ``game.tools.bench`` so that the child imports only
what the client itself imports (the title's process never loads an engine)."""
from __future__ import annotations

import json
import os
import statistics
import time
from pathlib import Path
from typing import Callable, Optional

try:
    import resource  # peak memory (POSIX)
except ImportError:  # pragma: no cover - Windows: peak memory is left out
    resource = None  # type: ignore[assignment]

SCENES = ("title", "field", "rnd", "assembly", "rules_reference")
SIZES = {"1080p": (1920, 1080), "4k": (3840, 2160)}


def scene_child(scene: str, size: str, frames: int) -> None:
    """In a fresh process: open ``scene`` at ``size`` and time ``frames`` frames; print one JSON line with
    the CPU and wall p99 and p50 (milliseconds), the process's peak resident memory (MiB) and, for a scene
    that keeps something moving (the Field's dice), how many timed frames it was really moving in."""
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    import pygame

    from game.client.launch import make_app

    w, h = SIZES[size]
    app = make_app(home=Path(os.environ["WHATGOESUP_HOME"]), size=(w, h), fullscreen=False)
    warm, dt = 30, 1 / 60
    # A player's process has shown the title before any other scene, and after the title's first frame it starts
    # the sounds, makes the music in a thread and gives big allocations back to the system from then on
    # (App.after_first_frame): every scene opens from there, so its peak memory is what a player's process
    # reaches. The title waits for the music to play (as a player reads the menu), so the music thread's CPU
    # stays out of the timed frames and its memory is in every scene, as in a player's process.
    from game.client.launch import wire_games

    wire_games(app.context)
    app.start("title")
    for n in range(10):
        app.step(dt, [])
        pygame.display.flip()
        if n == 0:
            app.after_first_frame()
    _wait_for_music(app, dt)
    before_frame, moving = _open_scene(app, scene)
    cpu_ms, wall_ms = [], []
    moving_frames = 0
    for n in range(warm + frames):
        before_frame(n)
        wall, cpu = time.perf_counter(), time.process_time()
        app.step(dt, [])
        pygame.display.flip()
        if n >= warm:
            cpu_ms.append(1000 * (time.process_time() - cpu))
            wall_ms.append(1000 * (time.perf_counter() - wall))
            moving_frames += moving is not None and moving()
    if moving is not None and moving_frames != frames:
        raise SystemExit(f"bench: the {scene} scene moved in only {moving_frames} of {frames} timed frames")
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024 if resource else 0.0  # KiB on Linux
    print("SCENE", json.dumps({"cpu_p99": _percentile(cpu_ms, 0.99), "wall_p99": _percentile(wall_ms, 0.99),
                               "cpu_p50": statistics.median(cpu_ms), "peak_mib": peak,
                               "moving_frames": moving_frames if moving is not None else None}), flush=True)


def _wait_for_music(app, dt: float, limit_s: float = 20.0) -> None:
    """Show the title until its sounds are made (on their thread, ``Sounds.warm_soon``) and the music plays (or
    the sound is off); a machine too busy to make them in ``limit_s`` seconds opens the scene anyway."""
    import pygame

    sounds, start = app.sounds, time.perf_counter()
    while ((not sounds.made or (sounds.effects and sounds.music_on and sounds.music is None))
           and time.perf_counter() - start < limit_s):
        time.sleep(dt)
        app.step(dt, [])
        pygame.display.flip()


Moving = Optional[Callable[[], bool]]


def _open_scene(app, scene: str) -> tuple[Callable[[int], None], Moving]:
    """Show ``scene`` in ``app``; returns what to do before frame n (keep the dice and markers moving) and,
    for a scene meant to move, a check that it moved in the frame just drawn (else None)."""
    from game.client.launch import wire_games

    if app.stack.top is None or type(app.stack.top).__name__ != "TitleScene":
        wire_games(app.context)
        app.start("title")
    if scene == "title":
        return (lambda n: None), None
    if scene == "rules_reference":
        app.context.open("rules_reference")
        return (lambda n: None), None
    if scene in ("rnd", "assembly"):
        from game.tools import flow_shots
        (flow_shots.shot_rnd if scene == "rnd" else flow_shots.shot_assembly_valid)(app)
        return (lambda n: None), None
    return _open_field(app)


def _open_field(app) -> tuple[Callable[[int], None], Moving]:
    """The Field with 12 Upgoers, a burn's dice tumbling and markers gliding round their rings.

    The burn is rolled through the scene (as a player's Space), after the scene has seen the burn, so the card
    animates the roll; rolled behind the scene's back it would come up already landed."""
    from game.core.session import GameSession
    from game.games.whatgoesup.rules.flight_actions import Burn, Move
    from game.client.whatgoesup.game_flow import shipped_engine
    from game.tools.field_shots import build_demo_state, open_field

    engine = shipped_engine()
    state = build_demo_state(engine, crafts_per_program=3)
    session = GameSession(engine, state.setup, 11, states=(state,), saves_dir=app.home / "saves")
    scene = open_field(app, session)
    session.apply(Move(session.state.flight.active))
    session.apply(next(a for a in session.legal_actions() if isinstance(a, Burn) and not a.rcs))
    app.step(1 / 60, [])  # the scene sees the burn waiting for its dice
    scene.roll()
    if not scene.roll_panel.animating:
        raise SystemExit("bench: the Field's burn did not start its dice tumbling")

    def before_frame(n: int) -> None:
        show = scene.roll_panel.show
        if show is not None and show.animation.time > show.animation.duration * 0.8:
            show.animation.seek(0.0)  # keep the dice tumbling for the whole measurement
        if n % 45 == 0:
            for other in list(scene.markers.at)[:4]:
                step = scene.markers.at[other]
                scene.markers.at[other] = scene.board_view.geometry.steps[step].next or step
            scene.markers.sync(session.state)

    def tumbling() -> bool:
        show = scene.roll_panel.show
        anim = show.animation if show is not None else None
        return anim is not None and any(not anim.landed(i) for i in range(anim.roll.dice))
    return before_frame, tumbling


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, int(round(q * (len(ordered) - 1)))))]


