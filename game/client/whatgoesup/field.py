"""The Field during flights: the board, the Upgoer markers, the flight panel and the roll panel.

``FieldScene(context, flow)`` is the flow's main scene while ``state.phase == "flight"``. It reads
``flow.session`` and changes the game only through ``flow.act`` (actions) and ``session.roll``
(dice), then lets the flow decide what shows next (``flow.show``) once the dice have landed, so a
player always sees the result of their own roll before the screen moves on.

Mouse: drag the active craft's marker onto a lit step; click a marker for its card; click a step
to plan a route there; drag empty space to pan; the wheel zooms. Keys: Space rolls or goes on,
+/- zoom, arrows pan, F or Home fits the board, Esc the game menu (or closes a card).
"""
from __future__ import annotations

import math
from collections import deque
from typing import Optional

import pygame
import pygame_gui

from game.games.whatgoesup.rules.actions import Action, Roll
from game.games.whatgoesup.rules.engine import IllegalAction
from game.games.whatgoesup.rules.flight_actions import Burn, Move
from game.games.whatgoesup.rules.planning import RouteError, destination, drop_action, plan_route

from game.client.whatgoesup.board_labels import LabelLayer
from game.client.whatgoesup.board_legend import Legend, legend_rect, reserved_height
from game.client.whatgoesup.board_art import dash_pieces
from game.client.whatgoesup.board_view import BoardView
from game.client.scenes.dice import percent_text
from game.client.whatgoesup.effects import EffectLayer
from game.client.whatgoesup.flightpanel import FlightPanel, describe_action
from game.client.scenes.game_scene import GameScene
from game.client.whatgoesup.markers import MarkerLayer, draw_marker, shape_for, upgoer_details
from game.client.whatgoesup.board_view import hex_colour
from game.client.whatgoesup.rocket_view import draw_rocket
from game.client.whatgoesup import fight_card
from game.client.whatgoesup.rollpanel import HELP_ACTIONS, DerpFightShow, RollPanel, cached_card, card_middle
from game.client.shell.settings import animation_factor, reading_seconds
from game.client.kit.text import ellipsize
from game.client.kit.words import counted
from game.client.kit.style import HEADER_H, disjoint_rects
from game.client.kit.style import (ACCENT, ACCENT_HOT, ACCENT_LIGHT, BAND_COLOURS, CARD, INK, INK_DIM, draw_card, draw_text, fit_font,
                    font_px, wrap_balanced, wrap_text)

STAGE_WORDS = {"launch": "Launches", "insertion": "Orbital insertions", "moves": "Flight steps"}
#: The header names what the pending roll is about (a suborbital hop falls home during the insertions).
ROLL_STAGE_WORDS = {"launch": "Launches", "escape_tower": "Launches", "orbital_insertion": "Orbital insertions",
                    "reentry": "Reentry and landing", "landing": "Reentry and landing",
                    "stage_recovery": "Reentry and landing"}


def stage_words(flight) -> str:
    """The header's name for this moment of the flights: by the pending roll when there is one."""
    if flight is None:
        return "Flights"
    if getattr(flight, "ship_fight", None) is not None:
        return "Ship fight"
    if flight.roll is not None and flight.roll.kind in ROLL_STAGE_WORDS:
        return ROLL_STAGE_WORDS[flight.roll.kind]
    if flight.roll is not None and flight.stage == "insertion":
        return "Flight steps"
    return STAGE_WORDS.get(flight.stage, "Flights")
#: What the craft in hand may do now, said after where it is ('Low Orbit. Your go: act here, then move on.').
MODE_WORDS = {
    "decide": "On the pad: launch, keep it there, or wait.",
    "before": "Your go: act here, then move on.",
    "junction": "A burn junction: burn or coast.",
    "after": "Moved on: act here, or be done.",
}
PANEL_BG = (27, 22, 56)
STRIP_BG = (13, 11, 32)
HEADER_BG = (12, 11, 32)
PANEL_W = 360  # design units
STRIP_H = 60  # the story strip: three lines at 14 units (a ship fight's opening needs them at 1280x720)
#: Font sizes (units) tried, largest first, for a story line told on two or three lines of the strip.
STORY_LINE_UNITS = (15, 14, 13)
#: The most lines the strip tells a story on; only words too many for them end in an ellipsis.
STORY_MOST_LINES = 3


class FieldScene(GameScene):
    name = "field"
    flow_main = True

    def __init__(self, context, flow) -> None:
        super().__init__(context, flow)
        self.session = flow.session
        self.engine = self.session.engine
        layout = context.layout
        self.board_rect = self._board_rect(layout)
        scenario = getattr(self.session.state.setup, "scenario", None)
        self.board_view = BoardView(self.engine.rules.board, layout, self.board_rect, scenario,
                                    reserve_bottom=reserved_height(layout))
        self.labels = LabelLayer(self.board_view)
        self.legend = Legend()
        self._previews: tuple = (None, [], None, [])  # (key, paths from the craft to each lit step, zoom key, dashes)
        self.time_factor = animation_factor(context.settings)
        self.markers = MarkerLayer(self.board_view, self.time_factor)
        self.roll_panel = RollPanel(self)
        self.flight_panel: Optional[FlightPanel] = None
        self.zoom_buttons: dict[object, str] = {}
        self.time = 0.0
        self._state = None
        self.legal: list[Action] = []
        self.targets: dict[str, tuple[Action, ...]] = {}
        self.target_states: dict = {}
        self.story: list[str] = []
        self._pending_story: list[str] = []  # the roll's own lines, told when its card is done
        self._told_since_roll: list[list[str]] = []  # the texts of each story line told while the roll's card was up
        self._deferred_sync = False
        self._story_read_until = 0.0  # a computer waits till then: the strip's line, told after a roll, is read
        self._before_roll = None  # the state the dice were rolled in, shown until they land
        self.detail_rocket_rect: Optional[pygame.Rect] = None  # where the clicked craft's picture was drawn
        self.effects = EffectLayer(self.time_factor)
        self._roll_spot: Optional[tuple[float, float]] = None  # where the rolling craft was, in board units
        self._panned_for: object = None  # the pending roll the camera last went looking for
        self.after_roll_show = False
        self.last_autosave_error: Optional[str] = None
        # mouse
        self.hover_step: Optional[str] = None
        self.hover_marker: Optional[str] = None
        self.dragging: Optional[str] = None
        self.drag_pos = (0, 0)
        self.press_pos: Optional[tuple[int, int]] = None
        self.panning = False
        self.selected: Optional[str] = None  # marker whose detail card is open
        self.doing_drawn: list[str] = []  # the side panel's lines under the craft in hand, as last drawn
        self.route_target: Optional[str] = None
        self.route_report = None
        self.route_error = ""
        self._text_cache: dict = {}
        self._frame: Optional[pygame.Surface] = None  # the still frame (see _frame_layer)
        self._frame_keys: tuple = (None, None)
        self._frame_refs: tuple = ()
        self._moved_last: Optional[list[pygame.Rect]] = None  # where the moving parts were painted last frame
        if self.session.log:  # start with what happened last, not a blank line
            last = self.session.log[-1].action_index
            line = " ".join(self.flow.story_words(e.event) for e in self.session.log if e.action_index == last).strip()
            self.story = [line] if line else []
        self.sync(snap=True)

    # ------------------------------------------------------------------ layout
    @staticmethod
    def _board_rect(layout) -> pygame.Rect:
        top = layout.px(HEADER_H)
        return pygame.Rect(0, top, layout.width - layout.px(PANEL_W), layout.height - top - layout.px(STRIP_H))

    def panel_rect(self) -> pygame.Rect:
        layout = self.context.layout
        return pygame.Rect(layout.width - layout.px(PANEL_W), layout.px(HEADER_H), layout.px(PANEL_W),
                           layout.height - layout.px(HEADER_H))

    def build_ui(self) -> None:
        super().build_ui()
        layout = self.context.layout
        if self.board_view.layout != layout:
            self.board_rect = self._board_rect(layout)
            self.board_view.resize(layout, self.board_rect, reserved_height(layout))
        panel = self.panel_rect().inflate(-layout.px(28), 0)
        top = panel.top + layout.px(150)
        bottom = panel.bottom - layout.px(190)
        self.flight_panel = FlightPanel(self.context.manager, self.root,
                                        pygame.Rect(panel.left, top, panel.w, max(layout.px(60), bottom - top)), layout)
        self.roll_panel.forget_buttons()
        self.zoom_buttons = {}
        size = layout.px(38)
        x = self.board_rect.right - layout.px(12) - int(size * 1.3)
        y = self.board_rect.top + layout.px(12)
        for key, text, tip in (("fit", "Fit", "Fit the whole Field in the window (F or Home)"),
                               ("out", "−", "Zoom out (- or the mouse wheel)"),
                               ("in", "+", "Zoom in (+ or the mouse wheel)")):
            button = pygame_gui.elements.UIButton(pygame.Rect(x, y, int(size * 1.3), size), text, self.context.manager,
                                                  container=self.root, tool_tip_text=tip,
                                                  object_id=pygame_gui.core.ObjectID(object_id=f"#zoom_{key}",
                                                                                     class_id="@segment"))
            self.zoom_buttons[button] = key
            x -= int(size * 1.3) + layout.px(6)
        self._refresh_widgets()

    def refresh(self) -> None:
        """The flow says the view is unchanged: follow the session's state."""
        self.sync()

    # ------------------------------------------------------------------ following the state
    @property
    def state(self):
        return self.session.state

    @property
    def view_state(self):
        """What the header and the side panel show: the state before a roll while its dice tumble, so nothing
        on screen gives the result away before they land."""
        if self._deferred_sync and self._before_roll is not None and self.roll_panel.animating:
            return self._before_roll
        return self.session.state

    def can_act(self) -> bool:
        """The player holding the device may act now (a human program's go, and in hot-seat their device)."""
        actor = self.flow.acting_program()
        return actor is not None and self.state.programs[actor].human and self.flow.holds_device(actor)

    def sync(self, snap: bool = False) -> None:
        state = self.session.state
        if state is self._state:
            return
        previous = self._state
        self._state = state
        first = previous is None
        player = self.session.current_player
        self.legal = self.session.legal_actions() if player >= 0 and state.phase == "flight" else []
        self.targets = self._drop_targets(state)
        texts = [self.flow.story_words(e) for e in state.events if e.text]
        rolled = self._just_rolled(previous)
        if rolled is not None:
            before, value = rolled
            self.roll_panel.start(before, value, state, self.time_factor)
            if self.time_factor > 0:
                self.context.sounds.play_clatter()
            self._tell_pending_story()  # a luck reroll: the first roll is told before the second
            self._pending_story = texts
            self._deferred_sync = True
            self._before_roll = before
            self._roll_spot = self._craft_spot(self._rolled_where(before), before)
            self.after_roll_show = True
        else:
            went_back = not first and self._went_back(previous)
            if self._deferred_sync and not first and not went_back and self.session.actions \
                    and not self._waiting_for_help(state):
                self.roll_panel.settled_by(previous, self.session.actions[-1])
            if texts and not first:
                self._add_story(texts)
                if not went_back and not self._deferred_sync:  # a first won by a move, a hold, the end of a go
                    self.effects.spawn_firsts(texts, sounds=self.context.sounds)
            self.markers.sync(state, snap=snap or first or went_back)
        if self.route_target is not None:
            self._plan_route(self.route_target)
        error = self.session.autosave_error
        if error and error != self.last_autosave_error:
            self.toast(f"Autosave failed: {error}. The game goes on; save by hand with Ctrl+S.", "warn")
        self.last_autosave_error = error
        if self.root is not None:
            self._refresh_widgets()

    def _rolled_where(self, before) -> str:
        """The craft a roll just made happened at: the roller, or the target a ship fight's shot was aimed at."""
        show = self.roll_panel.show
        if isinstance(show, fight_card.FightShow):
            return show.spot_upgoer
        if isinstance(show, DerpFightShow):
            return before.flight.fight.attacker
        return before.flight.roll.upgoer

    def _went_back(self, previous) -> bool:
        return previous not in self.session.states[-2:]

    def _just_rolled(self, previous) -> Optional[tuple]:
        """(state before, value) when the newest action is a roll of a pending reliability roll, of a ship
        fight's dice or of a derp fight's die (Space War)."""
        states, actions = self.session.states, self.session.actions
        if previous is None or len(states) < 2 or states[-2] is not previous or not actions:
            return None
        last = actions[-1]
        flight = previous.flight if previous.phase == "flight" else None
        if not isinstance(last, Roll) or flight is None:
            return None
        if fight_card.fight_roll(previous) is not None:
            return previous, last.value
        if flight.roll is not None:
            return (previous, last.value) if flight.roll.value is None else None
        fight = getattr(flight, "fight", None)
        if fight is not None and not fight.to_pick and fight.pairs:
            return previous, last.value
        return None

    @staticmethod
    def _waiting_for_help(state) -> bool:
        """A rolled roll still waits for its owner's help or acceptance."""
        flight = state.flight if state.phase == "flight" else None
        return flight is not None and flight.roll is not None and flight.roll.value is not None

    def _add_story(self, texts: list[str]) -> None:
        line = " ".join(texts)
        self.story = (self.story + [line])[-6:]
        if self._deferred_sync:
            self._told_since_roll.append(texts)

    def _tell_pending_story(self) -> list[str]:
        """Tell the roll's own lines before those told since it was rolled (a help spent, what accepting it
        did), so the story strip ends with how the roll ended, not with the dice it started from. Returns what
        the roll did: every line but the die's own (a part lost, a derp hurt, a first)."""
        if self._pending_story:
            at = max(0, len(self.story) - len(self._told_since_roll))
            self.story = (self.story[:at] + [" ".join(self._pending_story)] + self.story[at:])[-6:]
        did = self._pending_story[1:] + [text for texts in self._told_since_roll for text in texts]
        self._pending_story = []
        self._told_since_roll = []
        return did

    def _drop_targets(self, state) -> dict[str, tuple[Action, ...]]:
        """Each step the active marker may be dropped on, and the action(s) that drop means."""
        self.target_states = {}
        flight = state.flight if state.phase == "flight" else None
        if flight is None or flight.active is None or flight.roll is not None or flight.choice is not None:
            return {}
        out: dict[str, tuple[Action, ...]] = {}
        for action in self.legal:
            for step in destination(self.engine, state, action):
                out.setdefault(step, (action,))
        move = next((a for a in self.legal if isinstance(a, Move)), None)
        if move is not None:
            # Dropping straight onto a burn's destination means: move on, then burn at the junction.
            try:
                ahead = self.engine.apply(state, move)
            except IllegalAction:
                ahead = None
            if ahead is not None and ahead.flight is not None and ahead.flight.mode == "junction" \
                    and ahead.flight.active == flight.active and ahead.flight.roll is None:
                for action in self.engine.legal_actions(ahead):
                    if isinstance(action, Burn) and not action.rcs:
                        for step in destination(self.engine, ahead, action):
                            if step not in out:
                                out[step] = (move, action)
                                self.target_states[step] = ahead
        return out

    def _refresh_widgets(self) -> None:
        state = self.state
        can = self.can_act()
        if self.flight_panel is not None:
            shown = [] if (not can or self.roll_panel.visible(state)) else \
                [a for a in self.legal if not isinstance(a, HELP_ACTIONS)]
            self.flight_panel.show(self.engine, state, shown, (id(state), can, self.roll_panel.visible(state)))
        self.roll_panel.rebuild(state, self.legal, can)
        # The card's rectangle, not whether its dice are animating: a roll already rolled when the Field opens
        # (a loaded game, the tutorial) is drawn without an animation of ours and must hide them too.
        card = self.roll_panel.card_rect(state) if self.roll_panel.visible(state) else None
        for button in self.zoom_buttons:
            covered = card is not None and card.colliderect(button.rect)
            if covered and button.visible:
                button.hide()
            elif not covered and not button.visible:
                button.show()

    # ------------------------------------------------------------------ acting
    def act(self, action: Action) -> bool:
        ok = self.flow.act(action, self, quiet=True)
        if ok:
            self.sync()
        return ok

    def open_trade(self) -> None:
        """The trade scene for the program whose craft is taking its turn (trading is open between rolls)."""
        from game.client.whatgoesup.trade import TradeScene

        active = self.state.flight.active if self.state.flight is not None else None
        if active is not None and self.can_act():
            self.context.stack.push(TradeScene(self.context, self.flow, self.state.upgoer(active).owner))

    def roll(self, computer: bool = False) -> None:
        """Roll the pending dice (a player's Space or button; ``computer`` for a computer program's roll).

        Both go through here so both show the dice tumbling and landing before the Field moves on."""
        if self.roll_panel.animating or not self.session.waiting_for_dice or (not computer and not self.can_act()):
            return
        try:
            self.session.roll()
        except IllegalAction as exc:
            self.toast(f"Not allowed: {exc}", "error")
            return
        self.sync()
        if not self.roll_panel.show:  # nothing to animate (a coin toss): the flow decides what shows next
            self.after_roll_show = True
            self._after_roll_done()

    # -- computer programs (called by the flow's tick)
    def busy(self) -> bool:
        """True while the dice are on screen, or what they did is still being read under the board: a computer
        program waits for them to be read (and then, if its roll waits for help or a choice, decides with the
        card still up)."""
        if self._computer_deciding():
            return False
        return (self.roll_panel.show is not None or self._deferred_sync or bool(self.markers.glides)
                or self.time < self._story_read_until)

    def _computer_deciding(self) -> bool:
        """A computer program's settled roll waits for its help or choice and its card has been up its reading
        time: the computer decides now, the card still showing (dismissed, the card came straight back for the
        decision still waiting, and the computer waited on it for ever)."""
        show = self.roll_panel.show
        if show is None or not show.animation.done or show.owner is None or self.state.programs[show.owner].human:
            return False
        if self.roll_panel.pending(self.state) not in ("help", "choice"):
            return False
        wait = self.result_wait()
        return wait is not None and self.roll_panel.landed_for >= wait

    def roll_for_computer(self) -> None:
        self.roll(computer=True)

    def act_for_computer(self, action: Action) -> None:
        """A computer program's move: applied through the flow, told in the story line, no toast."""
        self.act(action)

    def result_wait(self) -> Optional[float]:
        """Seconds a settled result card stays before the Field goes on by itself, or None: until a player
        dismisses it (Space or a click). A human's roll waits unless the auto-continue setting is on; a
        computer's stays for as long as its words take to read; with animations skipped nothing waits."""
        show = self.roll_panel.show
        if self.time_factor <= 0:
            return 0.0
        owner = show.owner if show is not None else None
        human = owner is not None and self.state.programs[owner].human
        if human and not self.context.settings.auto_continue:
            return None
        return reading_seconds(self.roll_panel.words_on_card(self.state), self.context.settings)

    def _craft_spot(self, upgoer_id: str, state) -> Optional[tuple[float, float]]:
        """Where a craft stands, in board units: the step its marker is on (or its own step)."""
        step = self.markers.at.get(upgoer_id)
        if step is not None and step in self.board_view.geometry.steps:
            return self.board_view.geometry.pos(step)
        upgoer = state.find("upgoer", upgoer_id)
        if upgoer is not None and upgoer.location in self.board_view.geometry.steps:
            return self.board_view.geometry.pos(upgoer.location)
        return None

    def _look_at_rolling_craft(self) -> None:
        """The camera pans to the craft about to roll when it is off the visible board (once per roll)."""
        flight = self.state.flight if self.state.phase == "flight" else None
        roll = flight.roll if flight is not None else None
        if roll is None or roll.value is not None or self._panned_for == (roll.upgoer, roll.kind, roll.step):
            return
        self._panned_for = (roll.upgoer, roll.kind, roll.step)
        spot = self._craft_spot(roll.upgoer, self.state)
        if spot is None:
            return
        x, y = self.board_view.to_screen(spot)
        if not self.board_rect.inflate(-self.context.layout.px(40), -self.context.layout.px(40)).collidepoint(x, y):
            self.board_view.pan(self.board_rect.centerx - x, self.board_rect.centery - y)

    def _after_roll_done(self) -> None:
        """The dice are done: show the story, glide the markers, and let the flow change scenes."""
        show = self.roll_panel.show
        if show is not None:  # what happened, where it happened, for the whole table to see
            outcome = "" if isinstance(show, DerpFightShow) else show.dice.outcome  # a derp's die lands in no band
            told = self._pending_story + [text for texts in self._told_since_roll for text in texts]
            self.effects.spawn_for_roll(show.roll_kind, outcome, self._roll_spot, told,
                                        self.context.sounds)
        self.roll_panel.dismiss()
        if self._deferred_sync:
            did = self._tell_pending_story()
            self._deferred_sync = False
            self.markers.sync(self.state)
            computer = show is not None and show.owner is not None and not self.state.programs[show.owner].human
            if did and computer and self.story and self.time_factor > 0:
                # what a computer's roll did ends the strip under the board as the card goes (the card told the
                # rule, not which part or derp): it acts again once the line has had time to be read (``busy``;
                # a player's own roll waits for the player anyway)
                self._story_read_until = self.time + reading_seconds(self.story[-1], self.context.settings)
        if self.root is not None:
            self._refresh_widgets()
        if self.after_roll_show:
            self.after_roll_show = False
            self.flow.show()

    def continue_after_roll(self) -> None:
        show = self.roll_panel.show
        if show is None:
            return
        if not show.animation.done:
            show.animation.skip()
            self._refresh_widgets()
            return
        if self.roll_panel.pending(self.state) in ("help", "choice") and self.can_act():
            return  # a decision is waiting: the buttons say what
        self._after_roll_done()
        if isinstance(show, DerpFightShow) and show.next_roller and self.roll_panel.pending(self.state) == "fight" \
                and self.session.waiting_for_dice and self.can_act():
            self.roll()  # the pair's first die is read: the same key rolls the other derp's

    # ------------------------------------------------------------------ input
    def handle_event(self, event: pygame.event.Event) -> bool:
        if event.type == pygame_gui.UI_BUTTON_PRESSED:
            return self._on_ui_button(event.ui_element) or super().handle_event(event)
        if event.type == pygame.MOUSEWHEEL:
            if self.board_rect.collidepoint(pygame.mouse.get_pos()):
                self.board_view.zoom_at(1.15 ** event.y, pygame.mouse.get_pos())
            return True
        if event.type == pygame.MOUSEBUTTONDOWN:
            return self._mouse_down(event)
        if event.type == pygame.MOUSEMOTION:
            return self._mouse_move(event)
        if event.type == pygame.MOUSEBUTTONUP:
            return self._mouse_up(event)
        if event.type == pygame.KEYDOWN:
            return self.on_key(event)
        return False

    def _on_ui_button(self, element) -> bool:
        if self.flight_panel is not None:
            if self.flight_panel.wants_trade(element):
                self.open_trade()
                return True
            if self.flight_panel.navigate(element):
                return True
            action = self.flight_panel.action_for(element)
            if action is not None:
                self.act(action)
                return True
        what = self.roll_panel.what_for(element)
        if what is not None:
            if what == "roll":
                self.roll()
            elif what == "continue":
                self.continue_after_roll()
            else:
                self.act(what)  # a mid-roll choice
                if self.roll_panel.show is not None and self.roll_panel.pending(self.state) not in ("help", "choice"):
                    if self.session.waiting_for_dice and self.state.flight.roll is not None \
                            and self.state.flight.roll.previous is not None:
                        self.roll_panel.dismiss()  # a luck reroll: roll again from the ready card
                    else:
                        self._after_roll_done()
            return True
        key = self.zoom_buttons.get(element)
        if key is not None:
            if key == "fit":
                self.board_view.fit()
            else:
                self.board_view.zoom_at(1.25 if key == "in" else 0.8)
            return True
        return False

    def on_key(self, event) -> bool:
        key = event.key
        if key == pygame.K_ESCAPE and (self.selected or self.route_target):
            self.selected = None
            self.route_target = None
            self.route_report = None
            return True
        if key in (pygame.K_SPACE, pygame.K_RETURN, pygame.K_KP_ENTER):
            if self.roll_panel.show is not None:
                self.continue_after_roll()
            elif self.session.waiting_for_dice:
                self.roll()
            return True
        quick = {pygame.K_u: "Launch", pygame.K_m: "Move", pygame.K_c: "Coast", pygame.K_e: "EndActivities"}
        if key in quick and not event.mod & pygame.KMOD_CTRL:
            self._quick_action(quick[key])
            return True
        if key in (pygame.K_PLUS, pygame.K_EQUALS, pygame.K_KP_PLUS):
            self.board_view.zoom_at(1.25)
            return True
        if key in (pygame.K_MINUS, pygame.K_KP_MINUS):
            self.board_view.zoom_at(0.8)
            return True
        if key in (pygame.K_f, pygame.K_HOME):
            self.board_view.fit()
            return True
        step = self.context.layout.px(60)
        pans = {pygame.K_LEFT: (step, 0), pygame.K_RIGHT: (-step, 0), pygame.K_UP: (0, step), pygame.K_DOWN: (0, -step)}
        if key in pans:
            self.board_view.pan(*pans[key])
            return True
        return super().on_key(event)

    def _quick_action(self, kind: str) -> None:
        """A flight shortcut (U launch, M move on, C coast, E end the go): the one legal action of that kind."""
        if not self.can_act() or self.roll_panel.visible(self.state):
            return
        flight = self.state.flight if self.state.phase == "flight" else None
        matches = [a for a in self.legal if type(a).__name__ == kind
                   and (kind != "Launch" or getattr(a, "upgoer", None) in (None, getattr(flight, "active", None)))]
        if not matches:
            words = {"Launch": "launch", "Move": "move on", "Coast": "coast", "EndActivities": "end the go"}
            self.toast(f"Cannot {words[kind]} now: use one of the buttons on the right.", "warn")
            return
        self.act(matches[0])

    def _roll_card_hit(self, pos) -> bool:
        return self.roll_panel.visible(self.state) and self.roll_panel.card_rect(self.state).collidepoint(pos)

    def _mouse_down(self, event) -> bool:
        if event.button not in (1, 3):
            return False
        pos = event.pos
        if self.roll_panel.show is not None and event.button == 1 and self._roll_card_hit(pos):
            self.continue_after_roll()
            return True
        if self._roll_card_hit(pos) or not self.board_rect.collidepoint(pos):
            return False
        self.press_pos = pos
        if event.button == 1:
            uid = self.markers.marker_at(pos)
            active = self.state.flight.active if self.state.flight is not None else None
            if uid is not None and uid == active and self.targets and self.can_act() and not self.roll_panel.visible(self.state):
                self.dragging = uid
                self.drag_pos = pos
                return True
        self.panning = True
        return True

    def _mouse_move(self, event) -> bool:
        pos = event.pos
        if self.dragging is not None:
            self.drag_pos = pos
            self.hover_step = self.board_view.step_at(pos, slack=2.0)
            return True
        if self.panning and self.press_pos is not None:
            if any(event.buttons):
                self.board_view.pan(*event.rel)
            return True
        over_board = self.board_rect.collidepoint(pos) and not self._roll_card_hit(pos)
        self.hover_marker = self.markers.marker_at(pos) if over_board else None
        self.hover_step = self.board_view.step_at(pos) if over_board and self.hover_marker is None else None
        return False

    def _mouse_up(self, event) -> bool:
        pos = event.pos
        press, self.press_pos = self.press_pos, None
        moved = press is not None and math.hypot(pos[0] - press[0], pos[1] - press[1]) > self.context.layout.px(6)
        if self.dragging is not None:
            uid, self.dragging = self.dragging, None
            if not moved:
                self.selected = None if self.selected == uid else uid
                return True
            self._drop(uid, pos)
            self.hover_step = None
            return True
        if self.panning:
            self.panning = False
            if not moved and press is not None and event.button == 1:
                self._click(pos)
            return True
        return False

    def _click(self, pos) -> None:
        uid = self.markers.marker_at(pos)
        if uid is not None:
            self.selected = None if self.selected == uid else uid
            return
        step = self.board_view.step_at(pos)
        if step is None:
            self.selected = None
            self.route_target = None
            self.route_report = None
            return
        if self.route_target == step:
            self.route_target = None
            self.route_report = None
        else:
            self._plan_route(step)

    def _drop(self, uid: str, pos) -> None:
        step = self.board_view.step_at(pos, slack=2.0)
        board_pos = self.board_view.to_board(pos)
        if step is None:
            self.toast("Drop the marker on one of the lit steps.", "warn")
            self._snap_back(uid, board_pos)
            return
        plan = self.targets.get(step)
        if plan is not None and len(plan) == 2:
            if not self.act(plan[0]):
                self._snap_back(uid, board_pos)
                return
        action, reason = drop_action(self.engine, self.state, uid, step)
        if action is None:
            self.toast(reason[0].upper() + reason[1:] if reason else "That is not a legal move.", "error")
            self._snap_back(uid, board_pos)
            return
        self.act(action)

    def _snap_back(self, uid: str, board_pos) -> None:
        from game.client.whatgoesup.markers import Glide

        home = self.markers.at.get(uid)
        if home is not None and self.time_factor > 0:
            self.markers.glides[uid] = Glide([board_pos, self.board_view.geometry.pos(home)], 0.3 * self.time_factor)

    # ------------------------------------------------------------------ route planning
    def route_to(self, start: str, goal: str) -> Optional[list[str]]:
        """The shortest run of steps by rails and burns from ``start`` to ``goal`` (None if unreachable)."""
        board = self.engine.rules.board
        scenario = self.board_view.geometry.scenario
        prev = {start: None}
        queue = deque([start])
        while queue:
            here = queue.popleft()
            if here == goal:
                break
            step = board.step(here)
            nexts = [b.to for b in board.burns_from(here, scenario)] + ([step.next] if step.next else [])
            for nxt in nexts:
                if nxt in self.board_view.geometry.steps and nxt not in prev:
                    prev[nxt] = here
                    queue.append(nxt)
        if goal not in prev or goal == start:
            return None
        out, node = [], goal
        while node != start:
            out.append(node)
            node = prev[node]
        return out[::-1]

    def planning_craft(self):
        state = self.state
        flight = state.flight if state.phase == "flight" else None
        uid = self.selected or (flight.active if flight else None)
        upgoer = state.find("upgoer", uid) if uid else None
        if upgoer is None or upgoer.status != "flying":
            return None
        return upgoer

    def _plan_route(self, step: str) -> None:
        self.route_target = step
        self.route_report = None
        self.route_error = ""
        upgoer = self.planning_craft()
        if upgoer is None:
            self.route_error = "Choose a flying craft (click its marker) to plan a route."
            return
        steps = self.route_to(upgoer.location, step)
        if steps is None:
            name = self.board_view.geometry.steps[step].name
            self.route_error = f"{upgoer.name} cannot get to {name} from here."
            return
        try:
            self.route_report = (upgoer.id, steps, plan_route(self.engine, self.state, upgoer.id, steps))
        except (RouteError, KeyError, ValueError) as exc:
            self.route_error = str(exc)

    # ------------------------------------------------------------------ per frame
    def update(self, dt: float) -> None:
        super().update(dt)
        self.time += dt
        self.sync()
        self.markers.update(dt)
        self.effects.update(dt)
        self._look_at_rolling_craft()
        was_animating = self.roll_panel.animating
        self.roll_panel.update(dt)
        if was_animating and not self.roll_panel.animating:
            self._refresh_widgets()
        show = self.roll_panel.show
        if show is not None and show.animation.done and not self._computer_deciding():
            decision = self.roll_panel.pending(self.state) in ("help", "choice") and self.can_act()
            wait = None if decision else self.result_wait()
            if wait is not None and self.roll_panel.landed_for >= wait:
                self._after_roll_done()

    def _lay_out(self) -> set[str]:
        """Place the markers and the names for this frame; the steps lit for the craft in hand."""
        lit = self.lit_steps() if self.dragging is None else set()
        self.markers.layout_positions()
        self.labels.update(self.markers.resting_rects(), self.label_obstacles(),
                           panning=self.panning and self.press_pos is not None)
        return lit

    def _draw_moving(self, surface: pygame.Surface, lit: set[str]) -> None:
        """The board's moving parts over the still frame: lit steps, the hover ring, the markers."""
        clip = surface.get_clip()
        surface.set_clip(self.board_rect)  # what moves on the board stays on the board
        if self.dragging is not None:
            self.board_view.draw_lit(surface, self.targets.keys(), self.time, strong=True)
        elif lit:
            self.board_view.draw_lit(surface, lit, self.time)
        if self.hover_step is not None:
            self.board_view.draw_hover(surface, self.hover_step)
        state = self.state
        flight = state.flight if state.phase == "flight" else None
        active = flight.active if flight is not None else None
        if flight is not None and active is None and flight.roll is not None:
            active = flight.roll.upgoer
        self.markers.draw(surface, active, self.time, hidden=self.dragging, hover=self.hover_marker,
                          selected=self.selected, avoid=list(self.labels.screen_rects().values()))
        surface.set_clip(clip)

    def _moving_rects(self, lit: set[str]) -> list[pygame.Rect]:
        """Where ``_draw_moving`` paints this frame (every marker and lit step, moving or not)."""
        return self.markers.drawn_rects() + [self.board_view.lit_rect(sid) for sid in lit
                                             if sid in self.board_view.geometry.steps]

    def draw_changes(self, surface: pygame.Surface, widgets: list[pygame.Rect]) -> bool:
        """Last frame is on ``surface``: copy the still frame back where something moved or a widget is (last
        frame's and this one's) and draw what moves there again; a settled roll card is drawn again only
        through those places. False (draw it all) when the still frame is out of date, or while anything
        this does not follow is on screen: a drag, a card or tooltip of ours, effects, name tags, a toast,
        a fight's dice tumbling. A roll's tumbling dice are drawn again through their bands of the card."""
        frame, state = self._frame, self.state
        if (frame is None or frame.get_size() != surface.get_size() or self._unfollowed()
                or self._moved_last is None):
            return False
        lit = self._lay_out()
        if (self._board_key(lit), self._chrome_key()) != self._frame_keys:
            return False
        card, bands = None, ()
        if self.roll_panel.visible(state):
            card = self.roll_panel.still_rect(state, surface)
            if card is None:
                tumbling = self.roll_panel.tumble_rect(state, surface)
                if tumbling is None:
                    return False  # the card changed or a fight's dice move: it is drawn whole
                card, bands = tumbling  # only the dice move on it: they are drawn again through their bands
        moved = self._moving_rects(lit)
        screen = surface.get_rect()
        rects = [r.clip(screen) for r in disjoint_rects(self._moved_last + moved + widgets)]
        surface.blits([(frame, r, r) for r in rects if r.w and r.h], doreturn=False)
        self._draw_moving(surface, lit)
        if card is not None:
            clip = surface.get_clip()
            for r in rects:
                if r.colliderect(card):
                    surface.set_clip(r)
                    self.roll_panel.draw(surface, state, dice=not bands)  # tumbling dice: once, just below
            for band in bands:
                surface.set_clip(band)
                self.roll_panel.draw(surface, state)
            surface.set_clip(clip)
        self._moved_last = moved
        return True

    def banner_area(self) -> pygame.Rect:
        """Where a first's banner goes: the board's top, left of the zoom buttons (which are drawn over it)."""
        area = self.board_rect.copy()
        shown = [button.rect for button in self.zoom_buttons if button.visible]
        if shown:
            area.width = min(r.left for r in shown) - self.context.layout.px(8) - area.left
        return area

    def _unfollowed(self) -> bool:
        """Whether something ``draw_changes`` does not follow is on screen: a drag, a card or tooltip of ours,
        effects, name tags, a toast."""
        return (self.dragging is not None or self.selected is not None or self.hover_marker is not None
                or self.hover_step is not None or self.effects.active or self.board_view.labels_on
                or self.toast_time > 0)

    def draw(self, surface: pygame.Surface) -> None:
        state = self.state
        lit = self._lay_out()
        self._blit_frame(surface, self._frame_layer(surface, lit))
        self._draw_moving(surface, lit)
        # A frame showing what draw_changes does not follow is followed by a whole one, which wipes it away
        # (a toast that just ran out, a hover card just left, a drag just dropped).
        self._moved_last = None if self._unfollowed() else self._moving_rects(lit)
        clip = surface.get_clip()
        surface.set_clip(self.board_rect)
        self.effects.draw(surface, self.board_view, self.context.layout, self.board_rect, self.banner_area())
        if self.dragging is not None:
            upgoer = state.find("upgoer", self.dragging)
            if upgoer is not None:
                colour = hex_colour(state.programs[upgoer.owner].colour)
                draw_marker(surface, shape_for(upgoer.owner), colour, self.drag_pos, self.markers.radius * 1.2)
                self._draw_drop_hint(surface)
        surface.set_clip(clip)
        if self.selected is not None:
            self._draw_detail(surface, self.selected)
        if self.dragging is None and self.selected is None:
            self._draw_hover_card(surface)
        self.roll_panel.draw(surface, state)
        self.draw_toast(surface)

    # ------------------------------------------------------------------ the still frame
    # What does not move between two changes (the board with its names, legend, route and previews; the
    # header, the side panel and the story line) is painted into one screen-sized layer when it changes and
    # copied to the screen each frame; only what moves (lit steps, markers, effects, cards) is drawn anew.
    def _board_key(self, lit: set[str]) -> tuple:
        """Everything the still board depends on (objects by identity: ``_frame_refs`` keeps them alive)."""
        view = self.board_view
        route = (self.route_report, self.state) if self.route_report is not None else None
        previews = self._preview_key(lit) if lit and self.dragging is None else None
        return (self.context.layout, view.zoom, tuple(view.offset), tuple(self.board_rect), id(self.labels.placed),
                tuple(map(id, route)) if route else None, self.dragging is not None, previews)

    def _chrome_key(self) -> tuple:
        """Everything the header, the side panel and the story line depend on."""
        state, fp = self.state, self.flight_panel
        return (self.context.layout, id(self.view_state), id(state), id(self.root), self.flow.acting_program(),
                self.can_act(), self.session.waiting_for_dice, self.roll_panel.visible(state), id(fp),
                (tuple(map(id, fp.buttons.values())), tuple(fp.rect)) if fp is not None else None,
                bool(self.targets), id(self.route_report), self.route_error, self.story[-1] if self.story else None)

    def _frame_layer(self, surface: pygame.Surface, lit: set[str]) -> pygame.Surface:
        """The still frame, painted again where what it shows changed. The header, panel and story are
        painted after the board (their edges lie on its rim), so a new board paints them again too."""
        frame = self._frame
        if frame is None or frame.get_size() != surface.get_size() or frame.get_bitsize() != surface.get_bitsize():
            frame = self._frame = pygame.Surface(surface.get_size(), 0, surface)
            self._frame_keys = (None, None)
        board_key, chrome_key = self._board_key(lit), self._chrome_key()
        board_new = board_key != self._frame_keys[0]
        if board_new:
            frame.set_clip(self.board_rect)
            self._draw_board(frame)
            self.labels.draw(frame)
            self.legend.draw(frame, self.board_rect, self.context.layout)
            if self.route_report is not None:
                uid, steps, _ = self.route_report
                upgoer = self.state.find("upgoer", uid)
                if upgoer is not None:
                    self.board_view.draw_route(frame, upgoer.location, steps)
            if self.dragging is not None:
                veil = self._text_cache.get(("dragveil", self.board_rect.size))
                if veil is None:
                    veil = pygame.Surface(self.board_rect.size, pygame.SRCALPHA)
                    veil.fill((6, 5, 20, 120))
                    self._text_cache[("dragveil", self.board_rect.size)] = veil
                frame.blit(veil, self.board_rect)
            elif lit:
                self._draw_previews(frame, lit)
            frame.set_clip(None)
        if board_new or chrome_key != self._frame_keys[1]:
            self._draw_header(frame)
            self._draw_panel(frame)
            self._draw_story(frame)
        self._frame_keys = (board_key, chrome_key)
        self._frame_refs = (self.state, self.view_state, self.route_report, self.root, self.flight_panel, self.labels.placed,
                            tuple(self.flight_panel.buttons.values()) if self.flight_panel is not None else ())
        return frame

    def repaint(self) -> None:
        """Paint everything again on the next frame (the still frame and a settled roll card included)."""
        self._frame_keys = (None, None)
        self.roll_panel.forget_still()

    def _blit_frame(self, surface: pygame.Surface, frame: pygame.Surface) -> None:
        """Copy the still frame, except where the roll card's opaque middle will cover it this frame."""
        hidden = None
        if self.roll_panel.visible(self.state):
            hidden = card_middle(self.roll_panel.card_rect(self.state), self.context.layout)
        area = frame.get_rect()
        if hidden is None or not area.contains(hidden):
            surface.blit(frame, (0, 0))
            return
        for part in (pygame.Rect(0, 0, area.w, hidden.top), pygame.Rect(0, hidden.bottom, area.w, area.h - hidden.bottom),
                     pygame.Rect(0, hidden.top, hidden.left, hidden.h),
                     pygame.Rect(hidden.right, hidden.top, area.w - hidden.right, hidden.h)):
            if part.w > 0 and part.h > 0:
                surface.blit(frame, part, part)

    # ------------------------------------------------------------------ the board's names, legend and lit steps
    def lit_steps(self) -> set[str]:
        """The steps lit for the craft in hand: its legal next steps (from the engine's legal actions) as
        soon as it is the player's to move, unless another craft's card is open."""
        state = self.state
        if not self.targets or not self.can_act() or self.roll_panel.visible(state):
            return set()
        active = state.flight.active if state.phase == "flight" else None
        if self.selected is not None and self.selected != active:
            return set()
        return set(self.targets)

    def label_obstacles(self) -> list[pygame.Rect]:
        """Screen rectangles names must keep clear of: the legend and the zoom buttons."""
        rects = [legend_rect(self.board_rect, self.context.layout)]
        rects += [pygame.Rect(button.rect) for button in self.zoom_buttons]
        return rects

    def _preview_key(self, lit: set[str]) -> tuple:
        return (id(self.state), self.markers.at.get(self.state.flight.active), tuple(sorted(lit)))

    def _draw_previews(self, surface: pygame.Surface, lit: set[str]) -> None:
        """Faint lines along the rails from the craft in hand to each lit step."""
        state = self.state
        start = self.markers.at.get(state.flight.active)
        key = self._preview_key(lit)
        if self._previews[0] != key:
            paths = []
            if start is not None:
                for step in sorted(lit):
                    stops = self.markers.path_between(start, step)
                    paths.append(self.board_view.geometry.route_path(stops, start))
            self._previews = (key, paths, None, [])
        view = self.board_view
        zoom_key = (key, view.zoom)
        if self._previews[2] != zoom_key:  # dashes in board pixels, laid out again only when the zoom changes
            dash, gap = view.layout.px(7), view.layout.px(6)
            pieces = [piece for path in self._previews[1] if len(path) >= 2
                      for piece in dash_pieces([(x * view.zoom, y * view.zoom) for x, y in path], dash, gap)]
            self._previews = (key, self._previews[1], zoom_key, pieces)
        width = max(2, int(view.line_width() * 0.8))
        ox, oy = view.offset
        for piece in self._previews[3]:
            pygame.draw.lines(surface, (255, 246, 220), False, [(x + ox, y + oy) for x, y in piece], width)

    # ------------------------------------------------------------------ drawing pieces
    def _draw_board(self, surface: pygame.Surface) -> None:
        """The board's static layer (its own cache, rebuilt only when the zoom changes or the view leaves it)."""
        self.board_view.draw(surface)

    def drop_words(self, step: str) -> str:
        """What dropping the craft in hand on the lit ``step`` does, naming where it goes: 'Move on, then burn to
        Polar Orbit: Polar plane change (2 fuel)' (a drop on a burn's destination moves on to the junction first)."""
        actions = self.targets[step]
        label, _ = describe_action(self.engine, self.target_states.get(step, self.state), actions[-1])
        name = self.board_view.geometry.steps[step].name
        if not label.startswith("Burn: "):
            return f"{label} to {name}"
        burn = f"burn to {name}: {label[len('Burn: '):]}"
        return f"Move on, then {burn}" if len(actions) > 1 else burn[:1].upper() + burn[1:]

    def _draw_drop_hint(self, surface: pygame.Surface) -> None:
        """While dragging: what letting go here would do."""
        layout = self.context.layout
        step = self.hover_step
        if step is None:
            text, colour = "Drop on a lit step", INK_DIM
        elif step in self.targets:
            text, colour = self.drop_words(step), ACCENT_LIGHT
        else:
            text, colour = f"Not from here: {self.board_view.geometry.steps[step].name}", BAND_COLOURS["fail"]
        image = self._text(text, layout.px(16), True, colour)
        rect = image.get_rect(midbottom=(self.drag_pos[0], self.drag_pos[1] - self.markers.radius * 2.2))
        plate = rect.inflate(layout.px(16), layout.px(8))
        plate.clamp_ip(self.board_rect.inflate(-layout.px(12), -layout.px(12)))  # clear of the board's edge
        rect.center = plate.center
        pygame.draw.rect(surface, (20, 16, 44), plate, border_radius=layout.px(8))
        pygame.draw.rect(surface, colour, plate, max(1, layout.px(2)), border_radius=layout.px(8))
        surface.blit(image, rect)

    def _draw_header(self, surface: pygame.Surface) -> None:
        state = self.view_state
        flight = state.flight if state.phase == "flight" else None
        actor = self.flow.acting_program()
        if flight is not None and flight.roll is not None and state.find("upgoer", flight.roll.upgoer):
            actor = state.upgoer(flight.roll.upgoer).owner  # the rolling craft's program, until the dice land
        program = state.programs[actor] if actor is not None else None
        stage = stage_words(flight)
        sub = f"{program.name}'s move" if program is not None else ""
        if program is not None and not program.human:
            sub += " (computer)"
        if self.session.waiting_for_dice and flight is not None and flight.timing_tie:
            sub = "A coin decides who goes first"
        surface.fill(HEADER_BG, pygame.Rect(0, 0, self.context.layout.width, self.context.layout.px(HEADER_H)))
        from game.client.whatgoesup.hud import draw_game_header

        draw_game_header(self, surface, f"Flights · {stage}", program, sub, self.time, state=state)

    def _text(self, text: str, size: int, bold: bool = False, colour=INK) -> pygame.Surface:
        key = (text, size, bold, colour)
        image = self._text_cache.get(key)
        if image is None:
            if len(self._text_cache) > 400:
                self._text_cache.clear()
            image = font_px(size, bold).render(text, True, colour)
            self._text_cache[key] = image
        return image

    def craft_doing(self, state, upgoer) -> str:
        """The side panel's line under the craft in hand: where it is, then what it may do now, in sentences
        ('Low Orbit. Your go: act here, then move on.')."""
        flight = state.flight
        boarding = getattr(flight, "boarding", None)
        fight = getattr(flight, "fight", None)
        board = self.engine.rules.board
        where = "the pad" if upgoer.status == "pad" else board.step(upgoer.location).name \
            if upgoer.location in self.board_view.geometry.steps else upgoer.location
        doing = MODE_WORDS.get(flight.mode, "") if flight.active == upgoer.id else "Waiting for a roll."
        if self.roll_panel.visible(state):
            doing = "Rolling the dice."
        if boarding is not None and flight.roll is None:
            doing = f"{state.upgoer(boarding.attacker).name} has latched on: push it off or let it stand."
        elif fight is not None:
            other = state.find("upgoer", fight.defender if fight.attacker == upgoer.id else fight.attacker)
            doing = f"A fight with {other.name if other else 'a rival'}: " + (
                "each derp picks an enemy." if fight.to_pick else "the dice decide.")
        return f"{where}. {doing}" if upgoer.status != "pad" else doing

    def _draw_panel(self, surface: pygame.Surface) -> None:
        layout = self.context.layout
        rect = self.panel_rect()
        surface.fill(PANEL_BG, rect)
        pygame.draw.line(surface, ACCENT, rect.topleft, rect.bottomleft, max(1, layout.px(2)))
        inner = rect.inflate(-layout.px(28), 0)
        y = rect.top + layout.px(14)
        state = self.view_state
        flight = state.flight if state.phase == "flight" else None
        uid = flight.active if flight is not None else None
        if uid is None and flight is not None and flight.roll is not None:
            uid = flight.roll.upgoer
        boarding = getattr(flight, "boarding", None) if flight is not None else None
        if boarding is not None:  # Space War: the craft docked against its will answers
            uid = boarding.defender
        upgoer = state.find("upgoer", uid) if uid else None
        if flight is not None and getattr(flight, "ship_fight", None) is not None:
            fight_card.draw_fight_summary(surface, self.engine, state, pygame.Rect(
                inner.left, y, inner.w, rect.top + layout.px(146) - y), layout)
        elif upgoer is None:
            surface.blit(self._text("Flights", layout.px(22), True, ACCENT_LIGHT), (inner.left, y))
            y += layout.px(34)
            for line in wrap_text("Waiting for the dice." if self.session.waiting_for_dice else "Nothing to do here.",
                                  font_px(layout.px(16)), inner.w):
                surface.blit(self._text(line, layout.px(16), False, INK_DIM), (inner.left, y))
                y += layout.px(22)
        else:
            program = state.programs[upgoer.owner]
            r = layout.px(11)
            draw_marker(surface, shape_for(upgoer.owner), hex_colour(program.colour),
                        (inner.left + r + layout.px(2), y + layout.px(15)), r)
            name = fit_font(upgoer.name, inner.w - layout.px(34), layout.px(24), bold=True)
            draw_text(surface, upgoer.name, name, ACCENT_LIGHT, (inner.left + layout.px(32), y + layout.px(15)),
                      anchor="midleft")
            y += layout.px(36)
            line = self.craft_doing(state, upgoer)
            font = font_px(layout.px(16))
            self.doing_drawn = wrap_balanced(line, font, inner.w)[:2]
            for part in self.doing_drawn:
                surface.blit(self._text(part, layout.px(16), False, INK), (inner.left, y))
                y += layout.px(21)
            crew = [d for d in state.derps if d.location == upgoer.id and not d.dead]
            robots = sum(1 for d in crew if d.is_system)
            facts = f"Fuel {upgoer.fuel} · Rations {upgoer.rations} · Crew {len(crew)}" + (
                f" ({counted(robots, 'robot')})" if robots else "")
            surface.blit(self._text(facts, layout.px(15), False, INK_DIM), (inner.left, y + layout.px(2)))
            y += layout.px(26)
        # the action area is the flight panel's scrolling column; say so when it is empty
        fp = self.flight_panel
        if fp is not None and not fp.buttons:
            msg = ""
            if self.roll_panel.visible(state):
                msg = "The dice card on the Field comes first: finish it there."  # a roll, or a result to read
            elif not self.can_act():
                actor = self.flow.acting_program()
                if actor is not None:
                    msg = f"{state.programs[actor].name} is thinking…"
            if msg:
                for n, part in enumerate(wrap_text(msg, font_px(layout.px(16)), inner.w)):
                    surface.blit(self._text(part, layout.px(16), False, INK_DIM), (inner.left, fp.rect.top + n * layout.px(22)))
        elif fp is not None and self.targets and self.can_act():
            hint = "Or drag the glowing marker onto a lit step."
            surface.blit(self._text(hint, layout.px(14), False, INK_DIM), (inner.left, fp.rect.top - layout.px(22)))
        self._draw_route_help(surface, pygame.Rect(inner.left, rect.bottom - layout.px(180), inner.w, layout.px(170)))

    def goal_notes(self) -> list[tuple[str, str]]:
        """(label, one-line explanation) of each kind of scenario or victory action offered now."""
        from game.client.whatgoesup.flightpanel import GOAL_ACTIONS, describe_action

        fp = self.flight_panel
        if fp is None or not fp.buttons or not self.can_act():
            return []
        seen, out = set(), []
        for action in fp.buttons.values():
            if isinstance(action, GOAL_ACTIONS) and type(action) not in seen:
                seen.add(type(action))
                out.append(describe_action(self.engine, self.state, action))
        return out

    def _draw_route_help(self, surface: pygame.Surface, rect: pygame.Rect) -> None:
        layout = self.context.layout
        pygame.draw.line(surface, (80, 66, 120), rect.topleft, rect.topright, max(1, layout.px(1)))
        y = rect.top + layout.px(8)
        notes = self.goal_notes() if self.route_report is None and not self.route_error else []
        if notes:  # the new actions matter more than the route hint: say what they do
            font = font_px(layout.px(14))
            for label, why in notes:
                surface.blit(self._text(label.split(":")[0], layout.px(16), True, ACCENT_LIGHT), (rect.left, y))
                y += layout.px(22)
                for part in wrap_text(why, font, rect.w):
                    if y + layout.px(19) > rect.bottom:
                        return
                    surface.blit(self._text(part, layout.px(14), False, INK), (rect.left, y))
                    y += layout.px(19)
                y += layout.px(4)
            return
        surface.blit(self._text("Route planner", layout.px(17), True, ACCENT_LIGHT), (rect.left, y))
        y += layout.px(26)
        font = font_px(layout.px(15))
        lines: list[tuple[str, tuple]] = []
        if self.route_report is not None:
            uid, steps, report = self.route_report
            upgoer = self.state.find("upgoer", uid)
            goal = self.board_view.geometry.steps[steps[-1]].name
            lines.append((f"{upgoer.name if upgoer else uid} to {goal}", INK))
            lines.append((f"{report.burns} burn{'s' if report.burns != 1 else ''}, {report.turns} turn"
                          f"{'s' if report.turns != 1 else ''} of movement", INK_DIM))
            fuel_colour = INK if report.fuel_aboard >= report.fuel_needed else BAND_COLOURS["boom"]
            lines.append((f"Fuel needed {report.fuel_needed}, aboard {report.fuel_aboard}", fuel_colour))
            lines.append((f"Chance to get there: {percent_text(report.chance_to_complete)}", ACCENT_LIGHT))
        elif self.route_error:
            lines.append((self.route_error, INK_DIM))
        else:
            lines.append(("Click a step to see the fuel and the exact chance of getting there.", INK_DIM))
        for text, colour in lines:
            for part in wrap_text(text, font, rect.w):
                if y + layout.px(20) > rect.bottom:
                    return
                surface.blit(self._text(part, layout.px(15), colour is ACCENT_LIGHT, colour), (rect.left, y))
                y += layout.px(20)

    def story_rect(self) -> pygame.Rect:
        """The strip under the board where the story's last line is told."""
        layout = self.context.layout
        return pygame.Rect(0, layout.height - layout.px(STRIP_H), layout.width - layout.px(PANEL_W),
                           layout.px(STRIP_H))

    def story_lines(self) -> tuple[list[str], pygame.font.Font]:
        """The story strip's words as drawn, and their font: the story's last line on one line (17 units down
        to 13); one too long for that (a docking with its answer, a war's first blow, a ship fight's opening)
        on up to three lines in the largest font from 15 units down to 13 whose lines fit the strip, so it is
        read whole; only words too many even for that lose their end to an ellipsis."""
        layout = self.context.layout
        text = self.story[-1] if self.story else "Drag the glowing marker onto a lit step, or use the buttons on the right."
        strip = self.story_rect()
        room = strip.w - layout.px(32)
        font = fit_font(text, room, layout.px(17), min_size=max(8, layout.px(13)))
        if font.size(text)[0] <= room:
            return [text], font
        for units in STORY_LINE_UNITS:
            font = font_px(max(8, layout.px(units)))
            lines = wrap_text(text, font, room)
            if len(lines) <= STORY_MOST_LINES and len(lines) * font.get_linesize() <= strip.h:
                return lines, font
        lines = wrap_text(text, font, room)
        keep = max(1, min(STORY_MOST_LINES, strip.h // font.get_linesize())) - 1
        return lines[:keep] + [ellipsize(" ".join(lines[keep:]), font, room)], font

    def _draw_story(self, surface: pygame.Surface) -> None:
        layout = self.context.layout
        strip = self.story_rect()
        surface.fill(STRIP_BG, strip)
        pygame.draw.line(surface, ACCENT, strip.topleft, strip.topright, max(1, layout.px(1)))
        lines, font = self.story_lines()
        y = strip.centery - len(lines) * font.get_linesize() // 2
        for text in lines:
            key = ("story", text, font.get_height())
            image = self._text_cache.get(key)
            if image is None:
                image = font.render(text, True, INK)
                self._text_cache[key] = image
            surface.blit(image, (strip.left + layout.px(16), y + (font.get_linesize() - image.get_height()) // 2))
            y += font.get_linesize()

    def detail_card(self, uid: str) -> tuple[pygame.Rect, list[tuple[str, int, bool, tuple, tuple[int, int]]], int]:
        """The clicked craft's card: its rectangle, the wrapped lines that fit in it (text, size, bold, colour,
        top-left) and how many lines did not fit (cut off at the board's foot)."""
        layout = self.context.layout
        lines = upgoer_details(self.engine, self.state, uid)
        width = min(layout.px(470), self.board_rect.w - layout.px(24))
        sizes = {"title": (layout.px(24), True, ACCENT_LIGHT), "sub": (layout.px(15), False, INK_DIM),
                 "head": (layout.px(16), True, ACCENT_LIGHT), "line": (layout.px(15), False, INK),
                 "warn": (layout.px(15), True, BAND_COLOURS["fail"])}
        wrapped = []
        for style, text in lines:
            size, bold, colour = sizes[style]
            for part in wrap_text(text, font_px(size, bold), width - layout.px(36)):
                wrapped.append((part, size, bold, colour, style))
        height = sum(int(s * 1.38) + (layout.px(6) if st == "head" else 0) for _, s, _, _, st in wrapped) + layout.px(34)
        rect = pygame.Rect(self.board_rect.left + layout.px(12), self.board_rect.top + layout.px(12), width,
                           min(height, self.board_rect.h - layout.px(24)))
        y = rect.top + layout.px(16)
        shown = []
        for n, (text, size, bold, colour, style) in enumerate(wrapped):
            if style == "head":
                y += layout.px(6)
            if y + size > rect.bottom - layout.px(8):
                break
            x = rect.left + layout.px(18) + (layout.px(28) if n == 0 and style == "title" else 0)
            shown.append((text, size, bold, colour, (x, y)))
            y += int(size * 1.38)
        return rect, shown, len(wrapped) - len(shown)

    def _draw_detail(self, surface: pygame.Surface, uid: str) -> None:
        layout = self.context.layout
        rect, shown, _ = self.detail_card(uid)
        cached_card(surface, rect, layout)
        program_index = self.state.find("upgoer", uid).owner if self.state.find("upgoer", uid) else 0
        for n, (text, size, bold, colour, (x, y)) in enumerate(shown):
            if n == 0 and x > rect.left + layout.px(18):  # the title, after its program's marker
                program = self.state.programs[program_index]
                r = layout.px(10)
                draw_marker(surface, shape_for(program_index), hex_colour(program.colour),
                            (x - layout.px(28) + r, y + size * 0.7), r)
            surface.blit(self._text(text, size, bold, colour), (x, y))
        hint = self._text("click again or Esc to close", layout.px(13), False, INK_DIM)
        surface.blit(hint, hint.get_rect(topright=(rect.right - layout.px(16), rect.top + layout.px(12))))
        self._draw_detail_rocket(surface, rect, uid)

    def _draw_detail_rocket(self, surface: pygame.Surface, card: pygame.Rect, uid: str) -> None:
        """The clicked craft drawn as it flies (the assembly's picture), in a card beside its details."""
        layout = self.context.layout
        width = layout.px(200)
        if card.right + layout.px(12) + width > self.board_rect.right - layout.px(12):
            return  # no room beside the details at this size: the words are enough
        picture = pygame.Rect(card.right + layout.px(12), card.top, width, card.h)
        cached_card(surface, picture, layout)
        try:
            draw_rocket(surface, picture.inflate(-layout.px(16), -layout.px(16)), self.engine, self.state, uid,
                        unit=layout.scale, labels=False)
        except KeyError:
            pass  # the craft is gone (destroyed since the card opened)
        self.detail_rocket_rect = picture

    def _draw_hover_card(self, surface: pygame.Surface) -> None:
        layout = self.context.layout
        lines: list[tuple[str, bool]] = []
        if self.hover_marker is not None:
            upgoer = self.state.find("upgoer", self.hover_marker)
            if upgoer is None:
                return
            program = self.state.programs[upgoer.owner]
            crew = [d for d in self.state.derps if d.location == upgoer.id and not d.dead]
            lines = [(upgoer.name, True), (f"{program.name} · crew {len(crew)} · fuel {upgoer.fuel}", False),
                     ("Click for its details" + (", drag to move it" if upgoer.id == getattr(self.state.flight, "active", None)
                                                 and self.targets and self.can_act() else ""), False)]
            if upgoer.status == "debris":
                lines.insert(1, ("Debris", False))
        elif self.hover_step is not None:
            lines = [(t, n == 0) for n, t in enumerate(self.board_view.step_tooltip(self.hover_step))]
            here = [u.name for u in self.state.upgoers if u.location == self.hover_step and u.status in
                    ("flying", "debris", "written_off")]
            if here:
                lines.append(("Here: " + ", ".join(here), False))
            if self.hover_step in self.targets and self.can_act():
                label, _ = describe_action(self.engine, self.target_states.get(self.hover_step, self.state),
                                           self.targets[self.hover_step][-1])
                lines.append((f"Drop here: {label}", True))
        if not lines:
            return
        width = layout.px(320)
        font_size = layout.px(15)
        wrapped = []
        for text, bold in lines:
            for part in wrap_text(text, font_px(font_size, bold), width - layout.px(24)):
                wrapped.append((part, bold))
        height = len(wrapped) * layout.px(21) + layout.px(18)
        mx, my = pygame.mouse.get_pos()
        rect = pygame.Rect(mx + layout.px(18), my + layout.px(18), width, height)
        rect.clamp_ip(self.board_rect)
        if rect.collidepoint(mx, my):
            rect.bottom = my - layout.px(12)
            rect.clamp_ip(self.board_rect)
        veil = pygame.Surface(rect.size, pygame.SRCALPHA)
        pygame.draw.rect(veil, (20, 16, 44, 235), veil.get_rect(), border_radius=layout.px(10))
        surface.blit(veil, rect)
        pygame.draw.rect(surface, ACCENT, rect, max(1, layout.px(2)), border_radius=layout.px(10))
        y = rect.top + layout.px(9)
        for n, (text, bold) in enumerate(wrapped):
            surface.blit(self._text(text, font_size, bold, ACCENT_LIGHT if n == 0 else INK), (rect.left + layout.px(12), y))
            y += layout.px(21)
