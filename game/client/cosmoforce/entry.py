"""Cosmoforce as a game the client hosts: its entry, and the title's hooks for it.

Light on purpose: the engine and the scenes are imported only when first used, so registering the game
costs the title's first frame nothing.
"""
from __future__ import annotations

from game.client.shell.app import GameEntry

def _engine():
    from game.client.cosmoforce.shipped import shipped_engine

    return shipped_engine()


def _start(context, session):
    from game.client.cosmoforce.flow import start_game

    return start_game(context, session)


ENTRY = GameEntry(id="cosmoforce", title="Cosmoforce", engine=_engine, start=_start)


def wire(context) -> None:
    """Give the title's game chooser Cosmoforce's New game, Continue and Load (Continue only with a save)."""
    from game.client.cosmoforce.flow import wire as wire_flow

    wire_flow(context)
