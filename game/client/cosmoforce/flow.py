"""Cosmoforce's game flow: the session, what shows, the computer captains, and the title's hooks.

``CosmoFlow`` owns the ``GameSession`` (the client's only door to the engine); what every game's flow shares
(undo, the autosave warning, save, load, the story, the rules reference, the pause menu) is
``game.client.scenes.flow``'s. The fight is played in the open, so there is no pass-the-device screen: the
combat scene shows whose turn or decision it is. Scenes never apply rules: they call ``flow.act``,
``flow.roll`` and ``flow.undo``; a refusal becomes a message. After every roll the dice land on screen
(``dice_view.FistfulScene``) before play goes on. Saves go to Cosmoforce's own folder and are loaded by the
shared Load screen (``game.client.scenes.saveload``).
"""
from __future__ import annotations

import time
from pathlib import Path
from typing import Optional

from game.client.scenes.flow import FlowBase, PauseMenuScene
from game.client.scenes.game_scene import GameScene
from game.client.shell.settings import animation_factor
from game.core import saves
from game.core.session import GameSession
from game.games.cosmoforce.bots import Captain
from game.games.cosmoforce.rules.actions import Action
from game.games.cosmoforce.rules.engine import CHANCE, Engine
from game.games.cosmoforce.rules.state import PendingRoll

GAME_ID = Engine.game_id


def saves_dir() -> Path:
    """Cosmoforce's saves and autosaves: their own folder (the entry's ``saves_subfolder``), so What Goes Up's
    Continue never meets them."""
    return saves.saves_folder() / GAME_ID


def new_seed() -> int:
    """A time-based seed for the fight's dice (never ``random``: the dice have one seeded source)."""
    return int(time.time() * 1000) % 2_000_000_000


class CosmoFlow(FlowBase):
    """Owns the session; shows the combat scene; applies actions, rolls and undo; runs the computer seats."""

    BOT_DELAY = 0.7  # seconds between a computer captain's actions, so the table can follow them

    def __init__(self, context, session: GameSession) -> None:
        super().__init__(context, session)
        self.menu_scene = CosmoMenuScene
        self.engine = session.engine
        self._bots: dict[int, Captain] = {}
        self._timer = 0.0
        #: While rolled dice are still landing, the state from before the roll, so the screen does not tell
        #: the result before the dice do.
        self.landing_from = None

    # -- questions
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

    def _after(self) -> bool:
        """Show the fight as it is now; True when an autosave warning was shown."""
        self.show()
        return self.warn_autosave()

    # -- acting (the only place the client changes the fight)
    def act(self, action: Action, scene: Optional[GameScene] = None) -> bool:
        if self.attempt(lambda: self.session.apply(action), scene) is None:
            return False
        if not self._after():
            self.toast_top(self.last_story())
        return True

    def roll(self, scene: Optional[GameScene] = None) -> bool:
        """Roll the pending dice through the session, then let them land on screen."""
        from game.client.cosmoforce.dice_view import FistfulRoll, FistfulScene, RESULT_WORDS, roll_caption, rule_line

        before = self.state
        step = before.step
        if not isinstance(step, PendingRoll):
            return False
        unattended = not self.is_human(self.roller())
        roll = self.attempt(self.session.roll, scene)
        if roll is None:
            return False
        fistful = FistfulRoll.of(step, roll.value, self.engine.rules.combat.dice.sides, salt=len(self.session.actions))
        self.landing_from = before
        weapon = self.engine.rules.systems.get(step.weapon).name if step.weapon else ""
        outcome = f"{roll.value} effective: {roll.value} {RESULT_WORDS[step.purpose]}" if roll.value else \
            "No effective dice"
        story = self.last_story()

        def landed() -> None:
            self.landing_from = None
            if not self._after():
                self.toast_top(story)

        self.context.stack.push(FistfulScene(self.context, fistful, roll_caption(before, step, weapon), rule_line(step),
                                             outcome, on_done=landed, unattended=unattended))
        return True

    def undone_words(self, state, action) -> str:
        return self.engine.describe(state, action)

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

    # -- the story, the title
    def explain_event(self, event) -> str:
        return ""

    def quit_to_title(self) -> None:
        rewire_title(self.context)
        self.context.app.start("title")


class CosmoMenuScene(PauseMenuScene):
    """Esc in a fight: the shared pause menu, in a fight's words."""

    name = "cosmoforce_menu"
    ENTRIES = (("resume", "Resume"), ("save", "Save fight…"), ("load", "Load fight…"), ("log", "Story so far"),
               ("help", "Keyboard shortcuts"), ("rules", "Rules reference (F2)"), ("glossary", "Glossary"),
               ("title", "Quit to title"))


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


def rewire_title(context) -> None:
    """Wire the title's hooks for Cosmoforce again: its entry's light ``wire``, reached through the registered
    entry (the flow does not import its entry)."""
    context.game(GAME_ID).wire(context)


#: The title's hooks (an older name; tests and tools written before the hooks moved to the entry use it).
wire = rewire_title
