"""Cosmoforce as a game the client hosts: the entry the shared scenes (load, continue, the rules reference)
reach it through, and the title's hooks for it (``wire``).

Light on purpose: the engine and the scenes are imported only when first used, so registering the game
and wiring the title's hooks cost the title's first frame nothing.
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


#: The words the title's game chooser shows for Cosmoforce.
TAGLINE = "Ten slots. Two actions. Keep your crew cool."
CREDIT = "After the Cosmoforce mini-game by robots-everywhere.com (CC BY-NC-SA)"


def open_new_game(context) -> None:
    context.open("cosmoforce_new_game")  # registered in game.client.launch's SCENES


def open_load(context, message: str = "") -> None:
    from game.client.scenes.saveload import open_load as open_shared_load

    open_shared_load(context, message, GAME_ID)


def _continue_latest(context) -> None:
    from game.client.scenes.saveload import continue_latest

    continue_latest(context, GAME_ID, lambda: wire(context))


def wire(context) -> None:
    """Cosmoforce's hooks for the title's game chooser; Continue only when a fight was saved. Each hook
    imports its scenes when pressed, so the title's first frame needs nothing of the fight."""
    from game.core import savefolder  # not game.core.saves, which loads what replaying a save needs

    has_save = savefolder.newest_save(savefolder.saves_folder() / context.game(GAME_ID).saves_subfolder) is not None
    context.game_hooks[GAME_ID] = {
        "new_game": lambda: open_new_game(context),
        "continue": (lambda: _continue_latest(context)) if has_save else None,
        "load": lambda: open_load(context),
        "tutorial": None,
        "tagline": TAGLINE,
        "credit": CREDIT,
    }


ENTRY = GameEntry(id=GAME_ID, title="Cosmoforce", engine=_engine, start=_start, reference="cosmoforce_reference",
                  turn_word="Round", saves_subfolder=GAME_ID, save_words=save_words, save_name=save_name,
                  wire=wire,
                  story_labels={"roll": "dice rolls", "damage": "hits", "heat": "heat", "death": "crew lost, ships out",
                                "over": "the end"})

