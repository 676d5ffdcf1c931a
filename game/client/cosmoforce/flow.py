"""Cosmoforce's game flow: the session, what shows, the computer captains, and the title's hooks.

``CosmoFlow`` owns the ``GameSession`` (the client's only door to the engine). The fight is played in
the open, so there is no pass-the-device screen: the combat scene shows whose turn or decision it is.
Scenes never apply rules: they call ``flow.act``, ``flow.roll`` and ``flow.undo``; a refusal becomes a
message. After every roll the dice land on screen (``dice_view.FistfulScene``) before play goes on.
"""
from __future__ import annotations

import time
from pathlib import Path
from typing import Optional

import pygame

from game.client.kit.style import ACCENT_LIGHT, dim, draw_card, draw_text, fit_font
from game.client.scenes.game_scene import GameScene
from game.client.shell.settings import animation_factor
from game.core import saves
from game.core.session import GameSession
from game.games.cosmoforce.bots import Captain
from game.games.cosmoforce.rules.actions import Action
from game.games.cosmoforce.rules.engine import CHANCE, IllegalAction
from game.games.cosmoforce.rules.state import PendingRoll

GAME_ID = "cosmoforce"
TAGLINE = "Ten slots. Two actions. Keep your crew cool."
CREDIT = "After the Cosmoforce mini-game by robots-everywhere.com (CC BY-NC-SA)"


def saves_dir() -> Path:
    """Cosmoforce's saves and autosaves: their own folder, so What Goes Up's Continue never meets them."""
    return saves.saves_folder() / GAME_ID


def new_seed() -> int:
    """A time-based seed for the fight's dice (never ``random``: the dice have one seeded source)."""
    return int(time.time() * 1000) % 2_000_000_000


class CosmoFlow:
    """Owns the session; shows the combat scene; applies actions, rolls and undo; runs the computer seats."""

    BOT_DELAY = 0.7  # seconds between a computer captain's actions, so the table can follow them

    def __init__(self, context, session: GameSession) -> None:
        self.context = context
        self.session = session
        self.engine = session.engine
        self.last_autosave_error: Optional[str] = None
        self._bots: dict[int, Captain] = {}
        self._timer = 0.0
        #: While rolled dice are still landing, the state from before the roll, so the screen does not tell
        #: the result before the dice do.
        self.landing_from = None

    # -- questions
    @property
    def state(self):
        return self.session.state

    @property
    def shown_state(self):
        """What the screen shows: the state before the roll while its dice land, else the state."""
        return self.landing_from if self.landing_from is not None else self.session.state

    def is_human(self, player: Optional[int]) -> bool:
        return player is not None and self.state.players[player].human

    def roller(self) -> Optional[int]:
        """The player whose ship rolls the pending dice (None when no roll is pending)."""
        step = self.state.step
        return self.state.ships[step.ship].owner if isinstance(step, PendingRoll) else None

    def deciding(self) -> Optional[int]:
        """The player who acts next: the roller while dice are pending."""
        player = self.session.current_player
        return self.roller() if player == CHANCE else (player if player >= 0 else None)

    # -- scenes
    def main_scene(self):
        for scene in reversed(list(self.context.stack)):
            if getattr(scene, "flow", None) is self and getattr(scene, "flow_main", False):
                return scene
        return None

    def show(self):
        """Put the combat scene on screen (or refresh it), closing anything of ours above it."""
        from game.client.cosmoforce.combat import CombatScene

        stack = self.context.stack
        current = self.main_scene()
        if current is None:
            return stack.push(CombatScene(self.context, self))
        while stack.top is not current and getattr(stack.top, "flow", None) is self:
            stack.pop()
        current.refresh()
        return current

    def _after(self) -> None:
        error = self.session.autosave_error
        self.show()
        if error and error != self.last_autosave_error:
            top = self.context.stack.top
            if isinstance(top, GameScene):
                top.toast(f"Autosave failed: {error}. The fight goes on; save by hand with Ctrl+S.", "warn")
        self.last_autosave_error = error

    # -- acting (the only place the client changes the fight)
    def act(self, action: Action, scene: Optional[GameScene] = None) -> bool:
        try:
            self.session.apply(action)
        except IllegalAction as exc:
            if scene is not None:
                scene.toast(f"Not allowed: {exc}", "error")
            return False
        self._after()
        top = self.context.stack.top
        story = self.last_story()
        if isinstance(top, GameScene) and story:
            top.toast(story, "info")
        return True

    def roll(self, scene: Optional[GameScene] = None) -> bool:
        """Roll the pending dice through the session, then let them land on screen."""
        from game.client.cosmoforce.dice_view import FistfulRoll, FistfulScene, RESULT_WORDS, roll_caption, rule_line

        before = self.state
        step = before.step
        if not isinstance(step, PendingRoll):
            return False
        unattended = not self.is_human(self.roller())
        try:
            roll = self.session.roll()
        except IllegalAction as exc:
            if scene is not None:
                scene.toast(f"Not allowed: {exc}", "error")
            return False
        fistful = FistfulRoll.of(step, roll.value, self.engine.rules.combat.dice.sides, salt=len(self.session.actions))
        self.landing_from = before
        weapon = self.engine.rules.systems.get(step.weapon).name if step.weapon else ""
        outcome = f"{roll.value} effective: {roll.value} {RESULT_WORDS[step.purpose]}" if roll.value else \
            "No effective dice"
        story = self.last_story()

        def landed() -> None:
            self.landing_from = None
            self._after()
            top = self.context.stack.top
            if isinstance(top, GameScene) and story:
                top.toast(story, "info")

        self.context.stack.push(FistfulScene(self.context, fistful, roll_caption(before, step, weapon), rule_line(step),
                                             outcome, on_done=landed, unattended=unattended))
        return True

    def undo(self, scene: Optional[GameScene] = None) -> bool:
        try:
            undone = self.session.actions[-1] if self.session.actions else None
            self.session.undo()
        except saves.UndoError as exc:
            if scene is not None:
                scene.toast(f"Cannot undo: {exc}", "warn")
            return False
        self.show()
        top = self.context.stack.top
        if isinstance(top, GameScene) and undone is not None:
            top.toast(f"Undone: {self.engine.describe(self.state, undone)}", "info")
        return True

    def last_story(self) -> str:
        entries = [e for e in self.session.log if e.action_index == len(self.session.actions)]
        return " ".join(e.event.text for e in entries[:3])

    # -- computer captains
    def bot_for(self, player: int) -> Captain:
        bot = self._bots.get(player)
        if bot is None:
            bot = self._bots[player] = Captain(self.session.seed * 1009 + player)
        return bot

    def tick(self, scene: GameScene, dt: float) -> None:
        """Let computer captains act (and roll), one step every ``BOT_DELAY`` seconds, only when nothing is
        on top of the combat scene."""
        if self.context.stack.top is not scene or self.session.over:
            self._timer = 0.0
            return
        player = self.deciding()
        if player is None or self.is_human(player):
            self._timer = 0.0
            return
        self._timer += dt
        if self._timer < self.BOT_DELAY * max(0.0, animation_factor(self.context.settings)):
            return
        self._timer = 0.0
        if self.session.current_player == CHANCE:
            self.roll(scene)
        else:
            self.act(self.bot_for(player).choose(self.engine, self.state), scene)

    # -- saving, the story, the menu
    def open_save(self, scene: Optional[GameScene] = None) -> None:
        from game.client.scenes.saveload import SaveScene

        self.context.stack.push(SaveScene(self.context, self))

    def open_log(self) -> None:
        from game.client.scenes.logview import LogScene

        if not isinstance(self.context.stack.top, LogScene):
            self.context.stack.push(LogScene(self.context, self))

    def explain_event(self, event) -> str:
        return ""

    def open_menu(self) -> None:
        if not isinstance(self.context.stack.top, CosmoMenuScene):
            self.context.stack.push(CosmoMenuScene(self.context, self))

    def quit_to_title(self) -> None:
        wire(self.context)
        self.context.app.start("title")


class CosmoMenuScene(GameScene):
    """Esc in a fight: resume, save, load, the story so far, the keyboard shortcuts, or back to the title."""

    name = "cosmoforce_menu"
    is_overlay = True
    ENTRIES = (("resume", "Resume"), ("save", "Save fight…"), ("load", "Load fight…"), ("log", "Story so far"),
               ("help", "Keyboard shortcuts"), ("title", "Quit to title"))

    def card_rect(self) -> pygame.Rect:
        return self.context.layout.centred_rect(420, 110 + 64 * len(self.ENTRIES))

    def build_ui(self) -> None:
        super().build_ui()
        layout = self.context.layout
        card = self.card_rect()
        for i, (key, text) in enumerate(self.ENTRIES):
            rect = pygame.Rect(card.left + layout.px(40), card.top + layout.px(86 + 64 * i), card.w - layout.px(80),
                               layout.px(52))
            self.add_button(key, rect, text, "@menu_button")

    def on_button(self, key: str) -> None:
        if key == "resume":
            self.context.back()
        elif key == "save":
            self.context.back()
            self.flow.open_save()
        elif key == "load":
            self.context.back()
            open_load(self.context)
        elif key == "log":
            self.context.back()
            self.flow.open_log()
        elif key == "help":
            self.context.open("help")
        elif key == "title":
            self.flow.quit_to_title()

    def on_key(self, event) -> bool:
        if event.key == pygame.K_ESCAPE:
            self.context.back()
        return True

    def draw(self, surface: pygame.Surface) -> None:
        layout = self.context.layout
        dim(surface)
        card = self.card_rect()
        draw_card(surface, card, layout)
        font = fit_font("Paused", card.w - layout.px(80), layout.px(34), bold=True)
        draw_text(surface, "Paused", font, ACCENT_LIGHT, (card.centerx, card.top + layout.px(24)), anchor="midtop")


# ---------------------------------------------------------------- starting, and the title's hooks
def start_game(context, session: GameSession) -> CosmoFlow:
    """Leave the title (or wherever we are) and play ``session``."""
    flow = CosmoFlow(context, session)
    context.app.stack.clear()
    flow.show()
    return flow


def new_session(engine, setup, seed: Optional[int] = None) -> GameSession:
    folder = saves_dir()
    folder.mkdir(parents=True, exist_ok=True)
    return GameSession.new(engine, setup, new_seed() if seed is None else seed, saves_dir=folder)


def load_into_game(context, path: Path) -> Optional[str]:
    """Load ``path`` and play it; the reason when it cannot be loaded (nothing changes)."""
    from game.client.cosmoforce.shipped import shipped_engine

    try:
        session = GameSession.load(shipped_engine(), path, saves_dir=saves_dir())
    except saves.SaveError as exc:
        return str(exc)
    start_game(context, session)
    return None


def continue_latest(context) -> None:
    """Title's Continue: the newest Cosmoforce save (by hand or automatic)."""
    path = saves.newest_save(saves_dir())
    if path is None:
        wire(context)
        return
    error = load_into_game(context, path)
    if error:
        open_load(context, f"The latest fight could not be loaded: {error}")


def open_new_game(context) -> None:
    context.open("cosmoforce_new_game")  # registered in game.client.launch's SCENES


def open_load(context, message: str = "") -> None:
    context.open("cosmoforce_load", message=message)


def wire(context) -> None:
    """Cosmoforce's hooks for the title's game chooser; Continue only when a fight was saved."""
    has_save = saves.newest_save(saves_dir()) is not None
    context.game_hooks[GAME_ID] = {
        "new_game": lambda: open_new_game(context),
        "continue": (lambda: continue_latest(context)) if has_save else None,
        "load": lambda: open_load(context),
        "tutorial": None,
        "tagline": TAGLINE,
        "credit": CREDIT,
    }
