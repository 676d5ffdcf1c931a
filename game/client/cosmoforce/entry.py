"""Cosmoforce as a game the client hosts: the entry the shared scenes (load, continue, the rules reference)
reach it through. Its title hooks are wired by ``flow.wire``.

Light on purpose: the engine and the scenes are imported only when first used, so registering the game
costs the title's first frame nothing.
"""
from __future__ import annotations

from game.client.shell.app import GameEntry

GAME_ID = "cosmoforce"


def _engine():
    from game.client.cosmoforce.shipped import shipped_engine

    return shipped_engine()


def _start(context, session):
    from game.client.cosmoforce.flow import start_game

    return start_game(context, session)


def save_words(state) -> str:
    """A saved fight on the Load screen: 'round 3 · Vega, Orion' or 'over: Vega wins the fight. · Vega, Orion'."""
    names = ", ".join(p.name for p in state.players)
    if state.phase == "over":
        return f"over: {state.result.reason if state.result else ''} · {names}"
    return f"round {state.turn} · {names}"


def save_name(state) -> str:
    return f"{' vs '.join(p.name for p in state.players)} round {state.turn}"


ENTRY = GameEntry(id=GAME_ID, title="Cosmoforce", engine=_engine, start=_start, reference="cosmoforce_reference",
                  turn_word="Round", saves_subfolder=GAME_ID, save_words=save_words, save_name=save_name)

