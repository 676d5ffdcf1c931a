"""What Goes Up as a game the client hosts: the entry the shared scenes (load, continue, the rules reference)
reach it through.

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


def save_words(state) -> str:
    """A saved game on the Load screen: 'turn 2, R&D · Hop Agency, Spud Space' or 'game over · ...'."""
    where = "game over" if state.phase == "over" else \
        f"turn {state.turn}, {'flights' if state.phase == 'flight' else 'R&D'}"
    return f"{where} · {', '.join(p.name for p in state.programs)}"


def save_name(state) -> str:
    return f"{state.programs[0].name} turn {state.turn}"


ENTRY = GameEntry(id="whatgoesup", title="What Goes Up", engine=_engine, start=_start, reference="rules_reference",
                  save_words=save_words, save_name=save_name)
