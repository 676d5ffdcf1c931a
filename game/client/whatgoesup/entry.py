"""What Goes Up as a game the client hosts: the entry the shared scenes (load, continue) reach it through.

Light on purpose: the engine and the game flow are imported only when first used, so registering the
game costs the title's first frame nothing.
"""
from __future__ import annotations

from game.client.shell.app import GameEntry


def _engine():
    from game.client.whatgoesup.shipped import shipped_engine

    return shipped_engine()


def _start(context, session):
    from game.client.whatgoesup.game_flow import start_game

    return start_game(context, session)


ENTRY = GameEntry(id="whatgoesup", title="What Goes Up", engine=_engine, start=_start)
