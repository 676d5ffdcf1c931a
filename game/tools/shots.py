"""Headless screenshots of the client's scenes, for people to look at (and tests to check exist).

Add a scene by appending ``(name, builder)`` to ``SHOTS``: a builder gets a fresh-started ``App``
and sets up what to photograph (push scenes, advance time); ``render_shots`` does the rest.
Run: ``SDL_VIDEODRIVER=dummy python -m game.tools.shots shots/``
"""
from __future__ import annotations

import os
import warnings
import sys
import tempfile
from pathlib import Path
from typing import Callable

import pygame

from game.client.kit.paths import default_home
from game.client.launch import make_app
from game.client.shell.app import App
from game.client.scenes.dice import DiceRoll
from game.tools.settle import settle

Builder = Callable[[App], None]


def _noop() -> None:
    pass


def shot_title(app: App) -> None:
    app.context.on_new_game = _noop
    app.context.on_load = _noop  # Continue stays disabled: there is no game to continue
    app.context.on_tutorial = _noop
    app.start("title")
    settle(app, 2.2)


def shot_title_notice(app: App) -> None:
    app.context.notices.append("Your settings file was damaged (line 1: Expecting value); using the defaults.")
    shot_title(app)


def shot_settings(app: App) -> None:
    app.start("title")
    app.context.open("settings")
    settle(app)


def shot_settings_saved(app: App) -> None:
    """Settings just after a change: the status line says it was saved."""
    shot_settings(app)
    scene = app.stack.top
    scene.change(animation_speed="skip" if app.settings.animation_speed == "fast" else "fast")  # a real change
    settle(app, 0.2)


def shot_rules_mass(app: App) -> None:
    """The rules reference on 'Mass and fuel': the example rocket drawn beside the rules."""
    app.start("title")
    app.context.open("rules_reference", section="mass")
    settle(app, 0.2)


def shot_help(app: App) -> None:
    shot_title(app)
    app.context.open("help")
    settle(app, 0.1)


def demo_roll(dice: int, sides: int, offset: int, faces: tuple[int, ...], fail: int, boom: int) -> DiceRoll:
    """A roll with its exact odds from the rules engine, as the game will pass them."""
    from game.games.whatgoesup.rules.dice import DiceScheme
    from game.games.whatgoesup.rules.reliability import Outcome, Rating, outcome_odds

    scheme = DiceScheme("demo", "demo", dice=dice, sides=sides, offset=offset)
    odds = outcome_odds(scheme.distribution(), Rating(fail, boom))
    return DiceRoll(dice, sides, offset, faces, fail, boom, odds[Outcome.OK], odds[Outcome.FAIL], odds[Outcome.BOOM])


def shot_dice_d20_rolling(app: App) -> None:
    shot_title(app)
    scene = app.context.open("dice", roll=demo_roll(1, 20, 0, (14,), 10, 15), caption="Orbital Insertion burn")
    scene.animation.seek(scene.animation.duration * 0.45)
    app.step(0.0, [])


def shot_dice_bell_landed(app: App) -> None:
    shot_title(app)
    scene = app.context.open("dice", roll=demo_roll(4, 6, -4, (4, 6, 3, 5), 9, 16), caption="Lunar landing burn")
    scene.animation.skip()
    app.step(0.0, [])


def shot_dice_2d10_landed(app: App) -> None:
    shot_title(app)
    roll = demo_roll(2, 10, 0, (10, 9), 12, 18)
    scene = app.context.open("dice", roll=roll, caption="Capsule reentry")
    scene.animation.skip()
    app.step(0.0, [])


def shot_error(app: App) -> None:
    app.start("title")
    try:
        raise ZeroDivisionError("division by zero while counting rations")
    except ZeroDivisionError as exc:
        app.report_error(exc)
    settle(app, 0.2)


SHOTS: list[tuple[str, Builder]] = [
    ("title", shot_title),
    ("title_notice", shot_title_notice),
    ("settings", shot_settings),
    ("settings_saved", shot_settings_saved),
    ("rules_mass", shot_rules_mass),
    ("help", shot_help),
    ("dice_d20_rolling", shot_dice_d20_rolling),
    ("dice_4d6_landed", shot_dice_bell_landed),
    ("dice_2d10_landed", shot_dice_2d10_landed),
    ("error", shot_error),
]


def _field_shots() -> list[tuple[str, Builder]]:
    from game.tools.field_shots import FIELD_SHOTS  # The Field mid-game, a drag, the dice over the Field, help, a card

    return list(FIELD_SHOTS)


SHOTS += _field_shots()


def _flow_shots() -> list[tuple[str, Builder]]:
    """The game-flow scenes (new game, R&D, assembly, trade, pass-device, log, report, load)."""
    from game.tools.flow_shots import FLOW_SHOTS

    return FLOW_SHOTS


SHOTS += _flow_shots()


def _tutorial_shots() -> list[tuple[str, Builder]]:
    """Three steps of the tutorial (its card and spotlight) and the rules reference."""
    from game.tools.tutorial_shots import TUTORIAL_SHOTS

    return TUTORIAL_SHOTS


SHOTS += _tutorial_shots()


def _rock_shots() -> list[tuple[str, Builder]]:
    """Stop The Rock (Field, R&D, new game, the saved and impact endings) and a race's status."""
    from game.tools.rock_shots import ROCK_SHOTS

    return ROCK_SHOTS


SHOTS += _rock_shots()


def _cosmoforce_shots() -> list[tuple[str, Builder]]:
    """Cosmoforce: the title's game chooser, the new fight, a ship sheet, combat, its odds, dice mid-roll, hits, the end."""
    from game.tools.cosmoforce_shots import COSMOFORCE_SHOTS

    return COSMOFORCE_SHOTS


SHOTS += _cosmoforce_shots()


def _war_shots() -> list[tuple[str, Builder]]:
    """What Goes Up's Space War: a fight's picks and a docking against a craft's will."""
    from game.tools.war_shots import WAR_SHOTS

    return WAR_SHOTS


SHOTS += _war_shots()


def _ship_fight_shots() -> list[tuple[str, Builder]]:
    """What Goes Up's Space War: a ship-to-ship fight on The Field (open fire, odds, dice, hits)."""
    from game.tools.ship_fight_shots import SHIP_FIGHT_SHOTS

    return list(SHIP_FIGHT_SHOTS)


SHOTS += _ship_fight_shots()

#: Window sizes every shot is taken at (name suffix, size). The first size has no suffix.
SIZES: list[tuple[str, tuple[int, int]]] = [("", (1280, 720))]


def _sized_shots() -> list[tuple[str, tuple[int, int], Builder]]:
    """The Field, the tutorial, a derp fight's dice and Cosmoforce's field with a hover text up at 1280x720,
    1920x1080 and 3840x2160 (and a ship fight's card at the two larger sizes)."""
    from game.tools.field_shots import FIELD_SIZED_SHOTS
    from game.tools.ship_fight_shots import SHIP_FIGHT_SIZED_SHOTS
    from game.tools.tutorial_shots import TUTORIAL_SIZED_SHOTS
    from game.tools.war_shots import WAR_SIZED_SHOTS
    from game.tools.underped_shots import UNDERPED_SIZED_SHOTS
    from game.tools.cosmoforce_shots import COSMOFORCE_SIZED_SHOTS

    return (list(FIELD_SIZED_SHOTS) + list(TUTORIAL_SIZED_SHOTS) + list(WAR_SIZED_SHOTS)
            + list(SHIP_FIGHT_SIZED_SHOTS) + list(UNDERPED_SIZED_SHOTS) + list(COSMOFORCE_SIZED_SHOTS)
            + _reading_sized_shots())


def _reading_sized_shots() -> list[tuple[str, tuple[int, int], Builder]]:
    """The screens read at length (both games' rules references, Cosmoforce's glossary, R&D's manifest) at
    1920x1080 and 3840x2160, where their words and scroll bars grow with the window."""
    from game.tools.cosmoforce_shots import shot_glossary, shot_reference
    from game.tools.flow_shots import shot_rnd

    reading = (("rules_mass", shot_rules_mass), ("rnd", shot_rnd), ("cosmoforce_reference", shot_reference),
               ("cosmoforce_glossary", shot_glossary))
    return [(f"{name}_{w}x{h}", (w, h), build) for name, build in reading for w, h in ((1920, 1080), (3840, 2160))]


#: Shots taken once each at a window size of their own (name, size, builder), after those at ``SIZES``.
SIZED_SHOTS: list[tuple[str, tuple[int, int], Builder]] = _sized_shots()


def _shot_jobs(sizes, only) -> list[tuple[str, tuple[int, int], Builder]]:
    jobs = [(f"{name}{suffix}", size, build) for suffix, size in sizes or SIZES for name, build in SHOTS
            if not only or name in only]
    jobs += [(name, size, build) for name, size, build in SIZED_SHOTS if not only or name in only]
    return jobs


def _render_part(out_dir: Path, sizes, only, part: int, parts: int) -> list[Path]:
    """Render every ``parts``-th shot starting at ``part`` (one worker's share); returns the written paths."""
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    # Every shot builds a fresh app whose theme loads the same fonts again; pygame_gui says so each time.
    warnings.filterwarnings("ignore", message="Trying to pre-load font id")
    written: list[Path] = []
    with tempfile.TemporaryDirectory(prefix="whatgoesup-shots-") as home:
        for name, size, build in _shot_jobs(sizes, only)[part::parts]:
            # the files go to the throw-away home; the words name the folder a player's game keeps them in
            app = make_app(home=Path(home), size=size, fullscreen=False, shown_home=default_home())
            build(app)
            path = out_dir / f"{name}.png"
            pygame.image.save(app.surface, str(path))
            written.append(path)
            app.stack.clear()
        pygame.display.quit()
    return written


def render_shots(out_dir: Path, sizes: list[tuple[str, tuple[int, int]]] | None = None,
                 only: list[str] | None = None, workers: int = 1) -> list[Path]:
    """Render every registered shot to ``out_dir/NAME.png`` headlessly; returns the written paths in
    registration order.

    Settings and the log go to a throw-away home folder, so the player's own files are untouched.
    With ``workers`` > 1 the shots are shared out among that many processes (each shot builds its own app,
    so the pictures are the same either way).
    """
    out_dir.mkdir(parents=True, exist_ok=True)
    workers = max(1, min(workers, len(_shot_jobs(sizes, only))))
    if workers == 1:
        return _render_part(out_dir, sizes, only, 0, 1)
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    # spawn, not fork: each worker starts its own SDL rather than sharing the parent's display state.
    with ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn")) as pool:
        parts = list(pool.map(_render_part, *zip(*[(out_dir, sizes, only, k, workers) for k in range(workers)])))
    order = {f"{name}.png": n for n, (name, _, _) in enumerate(_shot_jobs(sizes, only))}
    return sorted((path for part in parts for path in part), key=lambda path: order[path.name])


if __name__ == "__main__":
    out = Path(sys.argv[1] if len(sys.argv) > 1 else "shots")
    extra = [("", (1280, 720)), ("_4k", (3840, 2160))] if "--4k" in sys.argv else None
    for p in render_shots(out, extra):
        print(p)
