"""New game: one to four space programs (name, people, colour, human or computer), the dice, the
optional rules and the turn limit. Start builds a ``Setup`` and a ``GameSession`` and hands over
to the game flow.

The colour shown is the one the engine will really use: the people's colour, or a colour-blind-safe
alternative when two programs would clash. Each seat also has its own shape marker.
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Optional

import pygame
import pygame_gui
from pygame_gui.core import ObjectID

from game.rules.engine import IllegalSetup
from game.rules.state import PlayerSetup, Setup
from game.session import GameSession

from .game_flow import GameScene, draw_marker, draw_wrapped, shipped_engine, start_game
from .style import ACCENT_LIGHT, INK, INK_DIM, draw_card, draw_text, fit_font, font_px

SEATS = 4
DEFAULT_NAMES = ("Hop Agency", "Spud Space", "Kaboom Works", "Coldsnap Institute")
DEFAULT_PEOPLES = ("rabitians", "merbs", "goblins", "kobolds")
TURN_LIMITS = (5, 8, 10, 12, 15, 20, 25, 30, None)

ROW_H, ROW_GAP = 96, 8
LEFT_X, LEFT_W, TOP = 24, 700, 84
RIGHT_X, RIGHT_W = 748, 508
OPTION_H = 60
TURNS_Y = TOP + 226 + 4 * OPTION_H + 12


@dataclass
class Seat:
    playing: bool
    name: str
    people: str
    human: bool = True


def new_seed() -> int:
    """A time-based seed for the game's dice (never ``random``: the dice have one seeded source)."""
    return int(time.time() * 1000) % 2_000_000_000


class NewGameScene(GameScene):
    name = "new_game"

    def __init__(self, context) -> None:
        super().__init__(context, None)
        self.engine = shipped_engine()
        rules = self.engine.rules
        self.peoples = rules.peoples.peoples
        self.seats = [Seat(i < 2, DEFAULT_NAMES[i], DEFAULT_PEOPLES[i % len(DEFAULT_PEOPLES)]) for i in range(SEATS)]
        if self.peoples and not any(p.id == DEFAULT_PEOPLES[0] for p in self.peoples):
            for i, seat in enumerate(self.seats):
                seat.people = self.peoples[i % len(self.peoples)].id
        self.dice = rules.dice.default
        self.options: set[str] = {o.id for o in rules.options.options if o.default}
        self.turn_limit: Optional[int] = 20
        self.name_entries: list[pygame_gui.elements.UITextEntryLine] = []
        self.people_menus: list[pygame_gui.elements.UIDropDownMenu] = []
        self.started = None

    # ------------------------------------------------------------------ widgets
    def build_ui(self) -> None:
        super().build_ui()
        layout, manager = self.context.layout, self.context.manager
        self.name_entries, self.people_menus = [], []
        for i, seat in enumerate(self.seats):
            y = TOP + 40 + i * (ROW_H + ROW_GAP)
            self.add_button(f"seat:{i}", layout.rect(LEFT_X + 16, y + 10, 118, 40),
                            "Playing" if seat.playing else "Empty seat", enabled=i > 0,
                            tooltip=None if i else "Every game has at least one program")
            if seat.playing:
                self.buttons[f"seat:{i}"].select()
            entry = pygame_gui.elements.UITextEntryLine(layout.rect(LEFT_X + 186, y + 10, 236, 40), manager,
                                                        container=self.root, object_id=f"#name_{i}")
            entry.set_text_length_limit(28)
            entry.set_text(seat.name)
            self.name_entries.append(entry)
            options = [(p.name, p.id) for p in self.peoples]
            start = next(o for o in options if o[1] == seat.people)
            menu = pygame_gui.elements.UIDropDownMenu(options, start, layout.rect(LEFT_X + 432, y + 10, 138, 40),
                                                      manager, container=self.root, object_id=f"#people_{i}")
            self.people_menus.append(menu)
            self.add_button(f"human:{i}", layout.rect(LEFT_X + 580, y + 10, 104, 40),
                            "Human" if seat.human else "Computer")
            if not seat.playing:
                entry.disable()
                menu.disable()
                self.buttons[f"human:{i}"].disable()
        rules = self.engine.rules
        y = TOP + 40
        for n, scheme in enumerate(rules.dice.schemes[:4]):
            b = self.add_button(f"dice:{scheme.id}", layout.rect(RIGHT_X + 16 + (n % 2) * 242, y + (n // 2) * 46,
                                                                  232, 40), scheme.name)
            if scheme.id == self.dice:
                b.select()
        y = TOP + 226
        for n, option in enumerate(rules.options.options[:4]):
            b = self.add_button(f"option:{option.id}", layout.rect(RIGHT_X + 16, y + n * OPTION_H, 170, 40),
                                option.name)
            if option.id in self.options:
                b.select()
        y = TURNS_Y
        self.add_button("turns:-", layout.rect(RIGHT_X + 186, y, 44, 40), "−")
        self.add_button("turns:+", layout.rect(RIGHT_X + 340, y, 44, 40), "+")
        vh = layout.virtual_height
        vw = layout.virtual_width
        self.add_button("back", layout.rect(24, vh - 24 - 56, 200, 56), "Back", "@menu_button")
        self.add_button("start", layout.rect(vw - 24 - 260, vh - 24 - 56, 260, 56), "Start the race!", "@menu_button")

    # ------------------------------------------------------------------ state
    def read_entries(self) -> None:
        for seat, entry in zip(self.seats, self.name_entries):
            if entry.alive():
                seat.name = entry.get_text()

    def setup(self) -> Setup:
        self.read_entries()
        players = tuple(PlayerSetup(name=s.name.strip(), people=s.people, human=s.human)
                        for s in self.seats if s.playing)
        return Setup(players=players, dice=self.dice, options=frozenset(self.options), turn_limit=self.turn_limit)

    def final_colours(self) -> dict[int, str]:
        """Seat -> the colour the engine gives it (clashes resolved), for the seats that play."""
        playing = [i for i, s in enumerate(self.seats) if s.playing]
        players = tuple(PlayerSetup(name=f"P{i}", people=self.seats[i].people) for i in playing)
        try:
            state = self.engine.new_game(Setup(players=players, dice=self.dice))
        except IllegalSetup:
            return {}
        return {seat: p.colour for seat, p in zip(playing, state.programs)}

    def on_button(self, key: str) -> None:
        self.read_entries()
        kind, _, arg = key.partition(":")
        if kind == "seat":
            seat = self.seats[int(arg)]
            seat.playing = not seat.playing
        elif kind == "human":
            seat = self.seats[int(arg)]
            seat.human = not seat.human
        elif kind == "dice":
            self.dice = arg
        elif kind == "option":
            self.options ^= {arg}
        elif kind == "turns":
            index = TURN_LIMITS.index(self.turn_limit) if self.turn_limit in TURN_LIMITS else 5
            index = max(0, min(len(TURN_LIMITS) - 1, index + (1 if arg == "+" else -1)))
            self.turn_limit = TURN_LIMITS[index]
        elif kind == "back":
            self.context.back()
            return
        elif kind == "start":
            self.start()
            return
        self.relayout()

    def handle_event(self, event: pygame.event.Event) -> bool:
        if event.type == pygame_gui.UI_DROP_DOWN_MENU_CHANGED and event.ui_element in self.people_menus:
            index = self.people_menus.index(event.ui_element)
            self.read_entries()
            self.seats[index].people = event.ui_element.selected_option[1]
            return True
        if event.type == pygame.KEYDOWN and event.key in (pygame.K_RETURN, pygame.K_KP_ENTER) \
                and not any(e.is_focused for e in self.name_entries):
            self.start()
            return True
        return super().handle_event(event)

    def start(self) -> Optional[GameSession]:
        """Start the game, or say why it cannot start."""
        setup = self.setup()
        try:
            self.engine.check_setup(setup)
        except IllegalSetup as exc:
            self.toast(f"Cannot start yet: {exc}.", "error")
            return None
        session = GameSession.new(self.engine, setup, seed=new_seed())
        self.started = session
        start_game(self.context, session)
        return session

    # ------------------------------------------------------------------ drawing
    def draw_content(self, surface: pygame.Surface) -> None:
        layout = self.context.layout
        self.draw_header(surface, "New game", subtitle="Who is racing to the Moon?")
        left = layout.rect(LEFT_X, TOP, LEFT_W, 40 + SEATS * (ROW_H + ROW_GAP) + 4)
        draw_card(surface, left, layout)
        head = font_px(layout.px(20), True)
        draw_text(surface, "Space programs", head, ACCENT_LIGHT, (left.left + layout.px(16), left.top + layout.px(10)))
        colours = self.final_colours()
        small = font_px(layout.px(15))
        for i, seat in enumerate(self.seats):
            y = TOP + 40 + i * (ROW_H + ROW_GAP)
            marker_c = (layout.px(LEFT_X + 160), layout.px(y + 30))
            if seat.playing and i in colours:
                draw_marker(surface, i, marker_c, layout.px(14), pygame.Color(colours[i]))
                people = next(p for p in self.peoples if p.id == seat.people)
                text = f"{people.name}: {people.description}"
                box = layout.rect(LEFT_X + 186, y + 53, LEFT_W - 186 - 16, 46)
                draw_wrapped(surface, text, small, INK_DIM, box, 2)
                swatch = layout.rect(LEFT_X + 16, y + 58, 118, 26)
                pygame.draw.rect(surface, pygame.Color(colours[i]), swatch, border_radius=layout.px(6))
                label = colours[i].upper()
                draw_text(surface, label, fit_font(label, swatch.w - layout.px(8), layout.px(14), bold=True),
                          (20, 14, 34), swatch.center, anchor="center")
            else:
                draw_text(surface, "Nobody in this seat", small, INK_DIM, (layout.px(LEFT_X + 186), layout.px(y + 62)))
        right = layout.rect(RIGHT_X, TOP, RIGHT_W, 540)
        draw_card(surface, right, layout)
        rules = self.engine.rules
        x = right.left + layout.px(16)
        draw_text(surface, "Dice", head, ACCENT_LIGHT, (x, right.top + layout.px(10)))
        scheme = rules.dice.scheme(self.dice)
        draw_wrapped(surface, scheme.description, font_px(layout.px(16)), INK,
                     layout.rect(RIGHT_X + 16, TOP + 40 + 96, RIGHT_W - 32, 46), 2)
        draw_text(surface, "Optional rules", head, ACCENT_LIGHT, (x, layout.px(TOP + 192)))
        option_font = font_px(layout.px(14))
        for n, option in enumerate(rules.options.options[:4]):
            box = layout.rect(RIGHT_X + 196, TOP + 224 + n * OPTION_H, RIGHT_W - 196 - 12, OPTION_H)
            draw_wrapped(surface, option.explanation, option_font, INK if option.id in self.options else INK_DIM, box, 3)
        y = TURNS_Y
        draw_text(surface, "Turn limit", head, ACCENT_LIGHT, (x, layout.px(y + 20)), anchor="midleft")
        value = f"{self.turn_limit} turns" if self.turn_limit else "No limit"
        draw_text(surface, value, fit_font(value, layout.px(100), layout.px(22), bold=True), INK,
                  (layout.px(RIGHT_X + 285), layout.px(y + 20)), anchor="center")
        note = "Most budget dots at the end wins." if self.turn_limit else "Play as long as you like."
        draw_wrapped(surface, note, option_font, INK_DIM, layout.rect(RIGHT_X + 396, y, RIGHT_W - 396 - 12, 44), 2)


def open_new_game(context) -> None:
    context.stack.push(NewGameScene(context))
