"""What Goes Up as a game the client hosts: the entry the shared scenes (load, continue, the rules reference)
reach it through.

Light on purpose: the engine and the game flow are imported only when first used, so registering the
game and wiring the title's hooks (``wire``) cost the title's first frame nothing.
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


def _open_new_game(context) -> None:
    from game.client.whatgoesup.new_game import open_new_game

    open_new_game(context)


def _open_load(context) -> None:
    from game.client.scenes.saveload import open_load

    open_load(context)


def _open_tutorial(context) -> None:
    from game.client.whatgoesup.tutorial import open_tutorial

    open_tutorial(context)


def _continue_latest(context) -> None:
    """Title's Continue: load the newest save (a hand save made just before quitting counts too)."""
    from game.client.scenes.saveload import continue_latest

    continue_latest(context, "whatgoesup", lambda: wire(context))


def tutorial_resumable() -> bool:
    """Whether a training mission was left part-way (the title then offers "Resume tutorial")."""
    from game.client.whatgoesup.tutorial import has_progress

    return has_progress()


def wire(context) -> None:
    """Wire the title's New game, Continue (only when there is a save), Load and Tutorial to What Goes Up;
    each hook imports its scenes when pressed, so the title's first frame needs no game flow."""
    from game.core import savefolder  # not game.core.saves, which loads what replaying a save needs

    context.tutorial_resumable = tutorial_resumable
    context.on_new_game = lambda: _open_new_game(context)
    context.on_load = lambda: _open_load(context)
    context.on_tutorial = lambda: _open_tutorial(context)
    has_save = savefolder.newest_save(savefolder.saves_folder()) is not None
    context.on_continue = (lambda: _continue_latest(context)) if has_save else None


ENTRY = GameEntry(id="whatgoesup", title="What Goes Up", engine=_engine, start=_start, reference="rules_reference",
                  save_words=save_words, save_name=save_name, wire=wire,
                  story_labels={"roll": "dice rolls", "consequence": "consequences", "death": "derps lost",
                                "prestige": "prestige", "report": "budgets", "war": "fights and wars"},
                  shortcuts=((("Enter",), "In R&D: press twice to finish R&D"),
                             (("U", "M", "C", "E"), "On the Field: Launch, Move on, Coast, Done")))
