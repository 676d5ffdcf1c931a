"""The plumbing every game's flow shares, and the pause menu every game shows on Esc.

A game's flow (``game_flow.GameFlow`` for What Goes Up, ``flow.CosmoFlow`` for Cosmoforce) owns the
``GameSession`` and decides which of its scenes shows; ``FlowBase`` holds what does not depend on the game:
the state, the main scene on the stack, the autosave warning, the story of the last action, undo to the last
roll, and opening the shared screens (save, load, the story so far, the rules reference, the pause menu). A
game's flow adds ``show`` (put its scene for the state on screen), ``act``, ``roll``, ``tick`` and
``quit_to_title``.
"""
from __future__ import annotations

from typing import Any, Optional

import pygame

from game.client.kit.style import draw_dialog
from game.client.kit.text import without_ids
from game.client.scenes.game_scene import GameScene
from game.core import saves
from game.core.interface import IllegalAction


class FlowBase:
    """What every game's flow shares; the game supplies ``show()`` and ``quit_to_title()``."""

    #: The pause menu's scene class (a ``PauseMenuScene``).
    menu_scene: type = None  # type: ignore[assignment]

    def __init__(self, context, session) -> None:
        self.context = context
        self.session = session
        self.last_autosave_error: Optional[str] = None

    # -- questions
    @property
    def state(self):
        return self.session.state

    @property
    def game_id(self) -> str:
        return self.session.engine.game_id

    @property
    def turn_word(self) -> str:
        """What this game calls a turn: the header says "Turn 3 of 20" or "Round 3 of 20"."""
        return self.context.game(self.game_id).turn_word

    def main_scene(self) -> Optional[GameScene]:
        """The flow's main scene on the stack (the one the others sit on), or None."""
        for scene in reversed(list(self.context.stack)):
            if getattr(scene, "flow", None) is self and getattr(scene, "flow_main", False):
                return scene
        return None

    def story_words(self, event) -> str:
        """What a player reads for a story ``event`` (the log, toasts): the engine's words without the ids
        they name things by; a game's flow may say them more plainly."""
        return without_ids(event.text)

    def last_story(self) -> str:
        """The first lines the last action wrote in the story, as the player reads them."""
        entries = [e for e in self.session.log if e.action_index == len(self.session.actions)]
        return " ".join(self.story_words(e.event) for e in entries[:3])

    # -- changing the game
    def attempt(self, change, scene: Optional[GameScene] = None):
        """Run ``change`` (the session's apply or roll); a refusal (``IllegalAction``: the engine's reason) becomes
        a message on ``scene`` and None is returned, else what ``change`` returned."""
        try:
            return change()
        except IllegalAction as exc:
            if scene is not None:
                scene.toast(f"Not allowed: {exc}", "error")
            return None

    # -- after a change
    def toast_top(self, text: str, kind: str = "info") -> None:
        """Show ``text`` on the scene on top, if it is a game scene and there is something to say."""
        top = self.context.stack.top
        if text and isinstance(top, GameScene):
            top.toast(text, kind)

    def warn_autosave(self) -> bool:
        """Warn (once per new failure) that the autosave failed; True when a warning was shown."""
        error = self.session.autosave_error
        warned = bool(error) and error != self.last_autosave_error
        self.last_autosave_error = error
        if warned:
            self.toast_top(f"Autosave failed: {error}. The game goes on; save by hand with Ctrl+S.", "warn")
        return warned

    def undo(self, scene: Optional[GameScene] = None) -> bool:
        """Take back the last action (never past a roll); a refusal becomes a message on ``scene``."""
        try:
            undone = self.session.actions[-1] if self.session.actions else None
            self.session.undo()
        except saves.UndoError as exc:
            if scene is not None:
                scene.toast(f"Cannot undo: {exc}", "warn")
            return False
        self.after_undo()
        self.show()
        if undone is not None:
            self.toast_top(f"Undone: {self.undone_words(self.state, undone)}", "info")
        return True

    def after_undo(self) -> None:
        """What the game's flow resets after an undo, before the screen is shown again."""

    def undone_words(self, state: Any, action: Any) -> str:
        """``action`` (just undone; ``state``, the state it was taken in) in the player's words."""
        return str(action)

    def show(self):  # pragma: no cover - every game's flow has its own
        raise NotImplementedError

    def quit_to_title(self) -> None:  # pragma: no cover - every game's flow has its own
        raise NotImplementedError

    # -- the shared screens
    def open_save(self, scene: Optional[GameScene] = None) -> None:
        from game.client.scenes.saveload import SaveScene

        self.context.stack.push(SaveScene(self.context, self))

    def open_load(self, message: str = "") -> None:
        from game.client.scenes.saveload import open_load

        open_load(self.context, message, self.game_id)

    def open_log(self) -> None:
        from game.client.scenes.logview import LogScene

        if not isinstance(self.context.stack.top, LogScene):
            self.context.stack.push(LogScene(self.context, self))

    def open_reference(self, section: str = "") -> None:
        """This game's rules reference with the rules in play (``section`` "glossary" for its words)."""
        self.context.open_reference(self.game_id, self.session.engine.rules, section)

    def open_menu(self) -> None:
        if not isinstance(self.context.stack.top, PauseMenuScene):
            self.context.stack.push(self.menu_scene(self.context, self))


class PauseMenuScene(GameScene):
    """Esc in a game: resume, save, load, the story so far, help, the rules and their words, or the title."""

    name = "game_menu"
    is_overlay = True
    ENTRIES = (("resume", "Resume"), ("save", "Save game…"), ("load", "Load game…"), ("log", "Story so far"),
               ("help", "Keyboard shortcuts"), ("rules", "Rules reference (F2)"), ("glossary", "Glossary"),
               ("title", "Quit to title"))

    def card_rect(self) -> pygame.Rect:
        layout = self.context.layout
        return layout.centred_rect(420, min(110 + 64 * len(self.ENTRIES), layout.virtual_height - 16))

    def row_pitch(self) -> float:
        """Design units from one button to the next: 64, less when the window is short."""
        return min(64.0, (self.card_rect().h / self.context.layout.scale - 110) / len(self.ENTRIES))

    def build_ui(self) -> None:
        super().build_ui()
        layout = self.context.layout
        card = self.card_rect()
        pitch = self.row_pitch()
        for i, (key, text) in enumerate(self.ENTRIES):
            rect = pygame.Rect(card.left + layout.px(40), card.top + layout.px(86 + pitch * i), card.w - layout.px(80),
                               layout.px(pitch - 12))
            self.add_button(key, rect, text, "@menu_button")

    def on_button(self, key: str) -> None:
        if key == "resume":
            self.context.back()
        elif key == "save":
            self.context.back()
            self.flow.open_save()
        elif key == "load":
            self.context.back()
            self.flow.open_load()
        elif key == "log":
            self.context.back()
            self.flow.open_log()
        elif key == "help":
            self.context.open("help")
        elif key == "rules":
            self.flow.open_reference()
        elif key == "glossary":
            self.flow.open_reference("glossary")
        elif key == "title":
            self.flow.quit_to_title()

    def on_key(self, event) -> bool:
        if event.key == pygame.K_ESCAPE:
            self.context.back()
        return True

    def draw(self, surface: pygame.Surface) -> None:
        draw_dialog(surface, self.card_rect(), self.context.layout, "Paused", size=34, top=24, centred=True)
