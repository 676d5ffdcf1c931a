"""The top of the client: which scenes exist, which games are hosted, and the window's start.

Everything below points down from here: the shell (``game.client.shell``) names no scene and no game;
this module hands it the scene table and lets each hosted game wire its title hooks.
"""
from __future__ import annotations

import argparse
import logging
import sys
from pathlib import Path
from typing import Callable, Optional

import pygame

from game.client.kit import paths
from game.client.shell.app import App, AppContext
from game.client.cosmoforce.entry import ENTRY as COSMOFORCE
from game.client.whatgoesup.entry import ENTRY as WHAT_GOES_UP

log = logging.getLogger("whatgoesup")

#: Every scene the app opens by name (imported on first use); a game's flow opens its other scenes itself.
SCENES = {
    "title": "game.client.scenes.title:TitleScene",
    "settings": "game.client.scenes.settings_scene:SettingsScene",
    "help": "game.client.scenes.overlays:HelpOverlay",
    "error": "game.client.scenes.overlays:ErrorDialog",
    "dice": "game.client.scenes.dice:DiceRollScene",
    "load_game": "game.client.scenes.saveload:LoadScene",
    "new_game": "game.client.whatgoesup.new_game:NewGameScene",
    "rules_reference": "game.client.whatgoesup.rules_reference:RulesReferenceScene",
    "cosmoforce_new_game": "game.client.cosmoforce.new_game:NewFightScene",
    "cosmoforce_reference": "game.client.cosmoforce.reference:CosmoReferenceScene",
}


#: The games the client hosts, the first the title's default (For the Fleet and the card game will join them here).
GAMES = (WHAT_GOES_UP, COSMOFORCE)


def make_app(home: Path | None = None, size: tuple[int, int] | None = None,
             fullscreen: bool | None = None, shown_home: Path | None = None) -> App:
    """The app with every scene and hosted game registered (the title's hooks: see ``wire_games``);
    ``shown_home``: see ``App``."""
    app = App(SCENES, home=home, size=size, fullscreen=fullscreen, shown_home=shown_home)
    for entry in GAMES:
        app.context.register_game(entry)
    return app


def wire_games(context: AppContext) -> None:
    """Wire the title's New game, Continue, Load and Tutorial: What Goes Up's as the title's own hooks, the
    other games' as ``context.game_hooks`` for the title's game chooser (each hosted entry's light ``wire``)."""
    for entry in context.games.values():
        entry.wire(context)


def run_app(argv: list[str], setup: Optional[Callable[[AppContext], None]] = None) -> int:
    """Open the window on the title screen and run until the player quits; returns the exit code.

    ``setup`` receives the context before the title opens (default: ``wire_games``).
    """
    parser = argparse.ArgumentParser(prog="whatgoesup", description="What Goes Up: race your tiny people to the Moon.")
    parser.add_argument("--size", help="window size, e.g. 1600x900")
    parser.add_argument("--windowed", action="store_true", help="ignore the fullscreen setting")
    args = parser.parse_args(argv)
    size = None
    if args.size:
        try:
            w, h = (int(v) for v in args.size.lower().split("x"))
            size = (max(640, w), max(360, h))
        except ValueError:
            parser.error(f"--size must look like 1600x900, not {args.size!r}")
    try:
        app = make_app(size=size, fullscreen=False if args.windowed else None)
    except Exception:  # noqa: BLE001
        log.exception("could not start")
        print(f"What Goes Up could not open its window. Details are in {paths.log_path()}", file=sys.stderr)
        return 1
    try:
        (setup or wire_games)(app.context)
        app.start("title")
    except Exception as exc:  # noqa: BLE001
        app.report_error(exc)
    code = app.run()
    pygame.quit()
    return code


if __name__ == "__main__":
    raise SystemExit(run_app(sys.argv[1:]))
