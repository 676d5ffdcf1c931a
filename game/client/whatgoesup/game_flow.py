"""The game flow: which scene shows while a game is played, and the pieces every game scene shares.

``GameFlow`` owns the ``GameSession`` (the client's only door to the engine) and decides what the
screen shows: a "pass the device" screen whenever a different program must act in hot-seat, R&D for
the program whose turn it is, the partner's answer to a trade, the Field during flights (the other
engineer's ``game.client.whatgoesup.field.FieldScene``, or a plain flight panel until it exists), the end-of-turn
report, and the game-over screen. Scenes never apply actions themselves: they call ``flow.act``,
``flow.roll`` and ``flow.undo``, which go through the session and turn every refusal into a message.
"""
from __future__ import annotations

import logging
from pathlib import Path
from typing import Optional

import pygame
import pygame_gui

from game.core import saves
from game.games.whatgoesup.rules.actions import Action, EndRnD
from game.games.whatgoesup.rules.engine import CHANCE
from game.core.session import GameSession

from game.client.kit.text import draw_wrapped
from game.client.scenes.flow import FlowBase, PauseMenuScene
from game.client.scenes.game_scene import GameScene
from game.client.shell.scene import Scene
from game.client.kit.style import (ACCENT_HOT, ACCENT_LIGHT, BAND_COLOURS, INK, draw_card, draw_text, fit_font,
                                   font_px, wrap_text)

log = logging.getLogger("whatgoesup")

from game.client.whatgoesup.shipped import shipped_engine  # noqa: E402,F401  (tests and tools use it from here too)


def readable(state, text: str) -> str:
    """An action's text with ids (U3, I7, D2) replaced by the names players gave them."""
    import re

    def name(match) -> str:
        some_id = match.group(0)
        kind = {"U": "upgoer", "I": "item", "D": "derp", "T": "thing"}[some_id[0]]
        found = state.find(kind, some_id)
        if found is None:
            return some_id
        if kind == "item":
            return state.thing(found.thing_id).name
        return found.name

    text = re.sub(r"\b[UIDT]\d+\b", name, text)
    return text[:1].upper() + text[1:]


class GameFlow(FlowBase):
    """Owns the session; shows the right scene; applies actions, rolls and undo for the scenes (the plumbing
    every game shares is ``FlowBase``'s)."""

    BOT_DELAY = 0.45  # seconds between a computer program's R&D actions, so a player can follow them
    BOT_FLIGHT_DELAY = 0.9  # and between its flight actions, so each move can be watched
    #: With nobody at the table: how long a chance screen (the rock's drift die) and an end-of-turn report
    #: stay up before the game rolls or goes on by itself.
    UNATTENDED_CHANCE_DELAY = 1.6
    UNATTENDED_REPORT_DELAY = 3.0

    def __init__(self, context, session: GameSession) -> None:
        super().__init__(context, session)
        self.menu_scene = GameMenuScene
        self.holder: Optional[int] = None  # the program holding the device (hot-seat)
        self.rock_briefed = False  # Stop The Rock's first-turn card was shown
        self.reported_turn = session.state.turn  # end-of-turn reports shown up to here
        self.final_reported = session.over
        self._bots: dict[int, object] = {}
        self._bot_timer = 0.0
        if self.human_count() <= 1:
            self.holder = self.acting_program()

    # -- questions
    def human_count(self) -> int:
        return sum(1 for p in self.state.programs if p.human)

    def acting_program(self) -> Optional[int]:
        player = self.session.current_player
        if player >= 0:
            return player
        if player == CHANCE and self.state.flight is not None:
            roll = getattr(self.state.flight, "roll", None)
            if roll is not None:
                return self.state.upgoer(roll.upgoer).owner
            fight = getattr(self.state.flight, "fight", None)
            if fight is not None and fight.pairs:  # a derp fight's die: the derp whose die it is rolls it
                return self.state.derp(fight.pairs[0][len(fight.dice)]).owner
            ship_fight = getattr(self.state.flight, "ship_fight", None)
            if ship_fight is not None and ship_fight.roll is not None:  # a ship fight's dice: the shooter's, or the heated craft's
                return self.state.upgoer(ship_fight.sides[ship_fight.roll.side].upgoer).owner
            tie = getattr(self.state.flight, "timing_tie", None)
            if tie:  # a coin decides who flies first: one of the tied programs tosses it (the holder if tied)
                owners = [self.state.upgoer(u).owner for u in tie if self.state.find("upgoer", u)]
                if owners:
                    return self.holder if self.holder in owners else owners[0]
        return None

    def holds_device(self, program: int) -> bool:
        """True when ``program``'s player has the device (always, unless two or more humans share it).

        Flights are watched by the whole table, so during them every human program holds it."""
        return self.human_count() <= 1 or self.holder == program or self._watched_together()

    def _watched_together(self) -> bool:
        """Flights (and their dice) happen in front of everyone: only R&D and trade answers are private."""
        return self.state.phase == "flight" and self.state.pending_trade is None

    def must_pass_to(self, actor: Optional[int]) -> bool:
        """Whether the device must change hands before ``actor`` acts: only before a human's private
        R&D or trade answer, and only when two or more humans share the screen."""
        if actor is None or not self.state.programs[actor].human or self.human_count() <= 1:
            return False
        return actor != self.holder and not self._watched_together()

    def view_key(self) -> tuple:
        """What should be on screen now, as a small tuple."""
        state = self.state
        if state.turn > self.reported_turn:
            return ("report", self.reported_turn)
        if self.session.over:
            return ("over",) if self.final_reported else ("report", state.turn)
        actor = self.acting_program()
        if self.must_pass_to(actor):
            return ("pass", actor)
        if state.pending_trade is not None:
            return ("trade_answer", state.pending_trade.partner)
        if state.phase == "flight":
            return ("flight",)
        if self.session.current_player == CHANCE:  # Stop The Rock: the rock's drift die before R&D
            return ("drift", state.turn)
        return ("rnd", self.session.current_player)

    # -- scenes
    def make_scene(self, key: tuple) -> Scene:
        kind = key[0]
        if kind == "report":
            from game.client.whatgoesup.report import TurnReportScene
            return TurnReportScene(self.context, self, key[1])
        if kind == "over":
            from game.client.whatgoesup.ending import EndingScene  # how it ended, then the story of the game
            return EndingScene(self.context, self)
        if kind == "pass":
            from game.client.scenes.pass_device import PassDeviceScene
            return PassDeviceScene(self.context, self, key[1])
        if kind == "drift":
            from game.client.whatgoesup.hud import RockDriftScene
            return RockDriftScene(self.context, self)
        if kind == "trade_answer":
            from game.client.whatgoesup.trade import TradeAnswerScene
            return TradeAnswerScene(self.context, self)
        if kind == "flight":
            try:
                from game.client.whatgoesup.field import FieldScene  # the Field, built by the other half of the client
            except ImportError:
                return FlightPanelScene(self.context, self)
            return FieldScene(self.context, self)
        from game.client.whatgoesup.rnd import RnDScene
        return RnDScene(self.context, self, key[1])

    def show(self) -> Scene:
        """Put the scene for the current view on screen (replacing the flow's main scene)."""
        scene = self._show()
        if self._wants_rock_briefing(scene):
            from game.client.whatgoesup.rock_briefing import RockBriefingScene

            self.rock_briefed = True
            self.context.stack.push(RockBriefingScene(self.context, self))
        return scene

    def _wants_rock_briefing(self, scene: Scene) -> bool:
        """Stop The Rock's first-turn card goes over the first R&D a person sees (once per game)."""
        state = self.state
        return (state.rock is not None and state.turn == 1 and not self.rock_briefed and self.human_count() > 0
                and getattr(scene, "view", ("",))[0] == "rnd" and self.context.stack.top is scene)

    def _show(self) -> Scene:
        key = self.view_key()
        stack = self.context.stack
        current = self.main_scene()
        if current is not None and getattr(current, "view", None) == key:
            while stack.top is not current and getattr(stack.top, "flow", None) is self:
                stack.pop()
            if hasattr(current, "refresh"):
                current.refresh()
            return current
        scene = self.make_scene(key)
        scene.view = key  # type: ignore[attr-defined]
        if current is not None:
            while stack.top is not current:
                stack.pop()
            return stack.replace(scene)
        return stack.push(scene)

    def passed_to(self, program: int) -> None:
        """The pass-device screen was confirmed: ``program`` holds the device now."""
        self.holder = program
        self.show()

    def report_seen(self) -> None:
        """The end-of-turn report was read. Everyone looked at it, so in hot-seat the device may be in
        anyone's hands: the next human program is asked for by name (the pass-device screen)."""
        if self.reported_turn < self.state.turn:
            self.reported_turn += 1
        else:
            self.final_reported = True
        if self.human_count() > 1:
            self.holder = None
        self.show()

    def _after(self, scene: Optional[Scene]) -> bool:
        """Show the scene for the new state; True when it showed an autosave warning instead of news."""
        self.show()
        return self.warn_autosave()

    # -- acting (the only place the client changes the game)
    def act(self, action: Action, scene: Optional[GameScene] = None, quiet: bool = False) -> bool:
        """Apply ``action`` through the session; a refusal becomes a message on ``scene``."""
        if self.attempt(lambda: self.session.apply(action), scene) is None:
            return False
        warned = self._after(scene)
        top = self.context.stack.top
        if not quiet and not warned and isinstance(top, GameScene) and self.last_story():
            top.toast(self.last_story(), "info")
        return True

    def roll(self, scene: Optional[GameScene] = None) -> bool:
        if self.attempt(self.session.roll, scene) is None:
            return False
        warned = self._after(scene)
        top = self.context.stack.top
        if not warned and isinstance(top, GameScene):
            top.toast(self.last_story(), "info")
        return True

    def after_undo(self) -> None:
        self.reported_turn = min(self.reported_turn, self.state.turn)
        self.final_reported = self.final_reported and self.session.over
        self.holder = self.acting_program() if self.human_count() <= 1 else self.holder

    def undone_words(self, state, action) -> str:
        return readable(state, str(action))

    def finish_rnd(self, scene: Optional[GameScene] = None) -> bool:
        return self.act(EndRnD(), scene)

    # -- computer programs
    def bot_for(self, program: int):
        """The computer player of seat ``program``: a SpaceProgramBot seeded from the game seed and seat."""
        bot = self._bots.get(program)
        if bot is None:
            from game.games.whatgoesup.bots import SpaceProgramBot
            bot = self._bots[program] = SpaceProgramBot(self.session.seed * 1009 + program)
        return bot

    def bot_delay(self) -> float:
        """Seconds before a computer program's next action: slower in flight, where each move shows."""
        from game.client.shell.settings import animation_factor

        base = self.BOT_FLIGHT_DELAY if self.state.phase == "flight" else self.BOT_DELAY
        return base * max(0.0, animation_factor(self.context.settings))

    def tick(self, scene: GameScene, dt: float) -> None:
        """Let computer-run programs act, one action every ``bot_delay`` seconds, never while dice fly.

        Their rolls go through the main scene's own roll (the Field animates them as it does a
        player's) and their actions through the scene too, so the screen follows them at a readable pace.
        """
        view = getattr(scene, "view", ("",))[0]
        if self.context.stack.top is not scene or view in ("pass", "report", "over"):
            if self.context.stack.top is scene and view == "report" and self.human_count() == 0:
                self._unattended(self.UNATTENDED_REPORT_DELAY, dt, self.report_seen)  # nobody to press Continue
            return
        actor = self.acting_program()
        player = self.session.current_player
        if actor is None and player == CHANCE and self.human_count() == 0:
            # A chance node nobody owns (the rock's drift die): with nobody at the table the game rolls it.
            self._unattended(self.UNATTENDED_CHANCE_DELAY, dt, lambda: self.roll(scene))
            return
        if actor is None or self.state.programs[actor].human:
            self._bot_timer = 0.0
            return
        busy = getattr(scene, "busy", None)
        if busy is not None and busy():
            self._bot_timer = 0.0
            return
        self._bot_timer += dt
        if self._bot_timer < self.bot_delay():
            return
        self._bot_timer = 0.0
        if player == CHANCE:
            roll_for = getattr(scene, "roll_for_computer", None)
            if roll_for is not None:
                roll_for()
            else:
                self.roll(scene)
            return
        action = self.bot_for(actor).choose(self.session.engine, self.state)
        act_for = getattr(scene, "act_for_computer", None)
        if act_for is not None:
            act_for(action)
        else:
            self.act(action, scene)

    def _unattended(self, seconds: float, dt: float, then) -> None:
        """Computer-only games: do ``then`` once the screen has been up ``seconds`` (scaled like animations)."""
        from game.client.shell.settings import animation_factor

        self._bot_timer += dt
        if self._bot_timer >= seconds * max(0.0, animation_factor(self.context.settings)):
            self._bot_timer = 0.0
            then()

    # -- the story, the title
    def story_words(self, event) -> str:
        """A story event in a newcomer's words (``story_words.plain_story``): '(Piloting 0, Engineering 0,
        Stamina 2)' for '(0/0/2)', 'the budget stays at 40 dots' for 'Budget 40 -> 40'."""
        from game.client.whatgoesup.story_words import plain_story

        return plain_story(event.text, (k.name for k in self.session.engine.rules.components.kinds))

    def explain_event(self, event) -> str:
        """The failure table's sentence for a Fail or Boom roll of the story, the Space War rule behind a
        fight's, a ship fight's or a war's line ('' for any other line)."""
        from game.client.whatgoesup.explain import explain_roll_event, explain_ship_fight_event, explain_war_event

        if event.kind in ("fight", "roll", "consequence"):
            ship_fight = explain_ship_fight_event(self.session.engine.rules, event.text)
            if ship_fight:
                return ship_fight
        if event.kind == "war":
            return explain_war_event(self.session.engine.rules, event.text)
        return explain_roll_event(self.session.engine.rules, event.text) if event.kind == "roll" else ""

    def quit_to_title(self) -> None:
        rewire_title(self.context)
        self.context.app.start("title")


# ---------------------------------------------------------------- menu and flight fallback

class GameMenuScene(PauseMenuScene):
    """Esc in a game: the shared pause menu."""


class FlightPanelScene(GameScene):
    """The flight phase without the Field: what is happening, the legal actions as buttons, the dice.

    Every button applies its action through the session; "Roll the dice" rolls through it too.
    """

    name = "flight_panel"
    flow_main = True
    MAX_BUTTONS = 40

    def __init__(self, context, flow) -> None:
        super().__init__(context, flow)
        self.actions: list[Action] = []

    def refresh(self) -> None:
        self.clear_ui()
        self._make_root()
        self.build_ui()

    def build_ui(self) -> None:
        super().build_ui()
        layout = self.context.layout
        session = self.flow.session
        vw, vh = layout.virtual_width, layout.virtual_height
        right_x = vw * 0.55
        panel = layout.rect(right_x, 96, vw - right_x - 36, vh - 96 - 36)
        actor = self.flow.acting_program()
        computer = actor is not None and not session.state.programs[actor].human
        if session.waiting_for_dice:
            self.actions = []
            self.add_button("roll", pygame.Rect(panel.left, panel.top + layout.px(60), panel.w, layout.px(56)),
                            "Roll the dice (Space)", "@menu_button", enabled=not computer)
            return
        self.actions = session.legal_actions()[: self.MAX_BUTTONS]
        scroll = pygame_gui.elements.UIScrollingContainer(
            pygame.Rect(panel.left, panel.top + layout.px(50), panel.w, panel.h - layout.px(50)),
            self.context.manager, container=self.root, allow_scroll_x=False)
        row_h, gap = layout.px(46), layout.px(8)
        inner_w = panel.w - layout.px(24)
        for i, action in enumerate(self.actions):
            text = readable(session.state, str(action))
            self.add_button(f"act:{i}", pygame.Rect(0, i * (row_h + gap), inner_w, row_h), text,
                            enabled=not computer, container=scroll)
        scroll.set_scrollable_area_dimensions((inner_w, max(1, len(self.actions) * (row_h + gap))))

    def on_button(self, key: str) -> None:
        if key == "roll":
            self.flow.roll(self)
        elif key.startswith("act:"):
            self.flow.act(self.actions[int(key[4:])], self)

    def on_key(self, event) -> bool:
        if event.key in (pygame.K_SPACE, pygame.K_RETURN) and self.flow.session.waiting_for_dice:
            self.flow.roll(self)
            return True
        return super().on_key(event)

    def draw_content(self, surface: pygame.Surface) -> None:
        layout = self.context.layout
        session = self.flow.session
        actor = self.flow.acting_program()
        program = session.state.programs[actor] if actor is not None else None
        self.draw_header(surface, "Flights", program, program.name if program else "")
        vw, vh = layout.virtual_width, layout.virtual_height
        left = layout.rect(24, 84, vw * 0.55 - 48, vh - 84 - 24)
        draw_card(surface, left, layout)
        inner = left.inflate(-layout.px(40), -layout.px(36))
        head = font_px(layout.px(22), True)
        draw_text(surface, "What is happening", head, ACCENT_LIGHT, inner.topleft)
        font = font_px(layout.px(17))
        y = inner.top + layout.px(40)
        entries = session.log[-14:]
        lines: list[tuple[str, tuple]] = []
        for entry in entries:
            colour = {"roll": BAND_COLOURS["ok"], "consequence": BAND_COLOURS["fail"], "death": ACCENT_HOT,
                      "prestige": ACCENT_LIGHT, "standing": ACCENT_LIGHT}.get(entry.event.kind, INK)
            for line in wrap_text(self.flow.story_words(entry.event), font, inner.w):
                lines.append((line, colour))
        room = (inner.bottom - y) // font.get_linesize()
        for line, colour in lines[-room:] if room > 0 else []:
            draw_text(surface, line, font, colour, (inner.left, y))
            y += font.get_linesize()
        panel = layout.rect(vw * 0.55, 96, vw * 0.45 - 36, vh - 96 - 36)
        draw_card(surface, panel.inflate(layout.px(24), layout.px(24)), layout)
        if session.waiting_for_dice:
            prompt = "A roll is pending."
        elif program is not None and not program.human:
            prompt = f"{program.name} (computer) is deciding…"
        else:
            prompt = "Choose what to do:"
        draw_text(surface, prompt, fit_font(prompt, panel.w, layout.px(22), bold=True), ACCENT_LIGHT,
                  (panel.left, panel.top + layout.px(4)))
        if session.waiting_for_dice:
            odds = self._odds_text()
            if odds:
                draw_wrapped(surface, odds, font_px(layout.px(18)), INK,
                             pygame.Rect(panel.left, panel.top + layout.px(130), panel.w, layout.px(200)))

    def _odds_text(self) -> str:
        session = self.flow.session
        try:
            from game.games.whatgoesup.rules.planning import next_roll_odds
            odds = next_roll_odds(session.engine, session.state)
        except Exception:  # noqa: BLE001 - the odds are a courtesy; the roll still works without them
            return ""
        from game.client.scenes.dice import percent_text
        fight = session.engine.flight_rules.ship_fight_odds(session.state) if session.state.phase == "flight" else None
        if fight:
            words = session.engine.flight_rules.ship_fight_roll_words(session.state)
            return f"{words} Odds: " + "  ".join(f"{k} effective {percent_text(p)}" for k, p in fight.items())
        if not odds:
            return ""
        from game.client.whatgoesup.explain import bands_sentence
        text = "Odds: " + "  ".join(f"{o.label if hasattr(o, 'label') else o} {percent_text(p)}" for o, p in odds.items())
        roll = getattr(session.state.flight, "roll", None)
        if roll is not None:  # the bands too: which values are OK, Fail and Boom
            scheme = session.engine.rules.dice.scheme(session.state.setup.dice)
            rating = roll.effective()
            text = (f"{scheme.name} against Fail {rating.fail} / Boom {rating.boom}: "
                    f"{bands_sentence(rating.fail, rating.boom, scheme.low, scheme.high)}. {text}")
        return text


# ---------------------------------------------------------------- title hooks

def start_game(context, session: GameSession) -> GameFlow:
    """Leave the title (or wherever we are) and play ``session``."""
    flow = GameFlow(context, session)
    context.app.stack.clear()
    flow.show()
    return flow


def latest_save(folder: Path) -> Optional[Path]:
    """The most recently written save in ``folder``, by hand or automatic: where the player left off.
    Only real saves count: never settings.json, another program's JSON, a folder or a pipe."""
    return saves.newest_save(folder)


def rewire_title(context) -> None:
    """Wire the title's hooks again (Continue appears once there is a save): the entry's light ``wire``,
    reached through the registered entry (the flow does not import its entry)."""
    context.game("whatgoesup").wire(context)


#: The title's hooks (an older name; tests and tools written before the hooks moved to the entry use it).
wire = rewire_title


def saves_dir() -> Path:
    return saves.saves_folder()
