"""A new Cosmoforce fight: two to four captains (each human or computer, with one to three ships), every
captain for themselves or two teams, and a round limit. Each ship opens on its sheet to be refitted.
Start builds a ``Setup``; the engine says what is wrong with it, else a session starts.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional

import pygame
import pygame_gui

from game.client.cosmoforce.flow import new_session, start_game
from game.client.cosmoforce.shipped import shipped_engine
from game.client.kit.draw import draw_program_marker
from game.client.kit.style import ACCENT_LIGHT, INK, INK_DIM, draw_card, draw_text, fit_font, font_px
from game.client.kit.text import draw_wrapped
from game.client.kit.widgets import draw_status
from game.client.scenes.game_scene import GameScene
from game.games.cosmoforce.rules.engine import IllegalSetup
from game.games.cosmoforce.rules.state import PLAYER_NAME_MAX, PlayerSetup, Setup, ShipDesign
from game.games.cosmoforce.scenarios import COLOURS

SEATS = 4
MAX_SHIPS = 3
DEFAULT_NAMES = ("Vega", "Orion", "Lyra", "Draco")
DEFAULT_SHIPS = ("dart", "lancer", "bastion", "wasp")
ROUND_LIMITS = (10, 15, 20, 30, 50, None)
LEFT_X, LEFT_W, TOP = 24, 840, 84
ROW_H = 124
RIGHT_X = LEFT_X + LEFT_W + 24


@dataclass
class Seat:
    playing: bool
    name: str
    human: bool
    team: int
    ships: list[ShipDesign] = field(default_factory=list)


class NewFightScene(GameScene):
    name = "cosmoforce_new_game"

    def __init__(self, context) -> None:
        super().__init__(context, None)
        self.engine = shipped_engine()
        ready = self.engine.rules.ships
        ids = [s.id for s in ready.ships]
        self.seats = []
        for i in range(SEATS):
            ship = ready.get(DEFAULT_SHIPS[i] if DEFAULT_SHIPS[i] in ids else ids[i % len(ids)])
            self.seats.append(Seat(i < 2, DEFAULT_NAMES[i], i != 1, i % 2, [ship.design()]))
        self.teams = False
        self.round_limit: Optional[int] = 20
        self.entries: list[pygame_gui.elements.UITextEntryLine] = []
        self.message = ""
        self.started = None

    # ------------------------------------------------------------------ the setup
    def ship_names(self, skip: Optional[tuple[int, int]] = None) -> frozenset[str]:
        return frozenset(ship.name.casefold() for i, seat in enumerate(self.seats) if seat.playing
                         for k, ship in enumerate(seat.ships) if (i, k) != skip)

    def fresh_name(self, base: str) -> str:
        taken = self.ship_names()
        name, n = base, 2
        while name.casefold() in taken:
            name, n = f"{base} {n}", n + 1
        return name

    def setup(self) -> Setup:
        self.read_names()
        players = tuple(PlayerSetup(seat.name.strip() or DEFAULT_NAMES[i], tuple(seat.ships), human=seat.human,
                                    colour=COLOURS[i], team=seat.team)
                        for i, seat in enumerate(self.seats) if seat.playing)
        return Setup(players, teams=self.teams, round_limit=self.round_limit)

    def read_names(self) -> None:
        for seat, entry in zip(self.seats, self.entries):
            seat.name = entry.get_text()

    # ------------------------------------------------------------------ widgets
    def build_ui(self) -> None:
        super().build_ui()
        layout, manager = self.context.layout, self.context.manager
        self.entries = []
        for i, seat in enumerate(self.seats):
            y = TOP + 44 + i * ROW_H
            self.add_button(f"seat:{i}", layout.rect(LEFT_X + 46, y, 130, 40),
                            "Playing" if seat.playing else "Empty seat", enabled=i >= 2,
                            tooltip=None if i >= 2 else "A fight has at least two captains")
            if seat.playing:
                self.buttons[f"seat:{i}"].select()
            entry = pygame_gui.elements.UITextEntryLine(layout.rect(LEFT_X + 188, y, 250, 40), manager,
                                                        container=self.root, object_id=f"#captain_{i}")
            entry.set_text_length_limit(PLAYER_NAME_MAX)
            entry.set_text(seat.name)
            self.entries.append(entry)
            self.add_button(f"human:{i}", layout.rect(LEFT_X + 450, y, 130, 40), "Human" if seat.human else "Computer",
                            enabled=seat.playing)
            if self.teams:
                self.add_button(f"team:{i}", layout.rect(LEFT_X + 592, y, 110, 40), f"Team {'AB'[seat.team]}",
                                enabled=seat.playing, tooltip="Teammates never fire at each other and win together")
            ship_y = y + 48
            chip_w = 196
            for k, ship in enumerate(seat.ships):
                cls = self.engine.rules.classes.get(ship.ship_class).name.split(" ")[0]  # "Capital", not "Capital ship"
                self.add_button(f"ship:{i}:{k}", layout.rect(LEFT_X + 46 + k * (chip_w + 8), ship_y, chip_w, 40),
                                f"{ship.name} · {cls}", enabled=seat.playing,
                                tooltip="Open the ship's sheet to refit it")
            x = LEFT_X + 46 + len(seat.ships) * (chip_w + 8)
            self.add_button(f"add_ship:{i}", layout.rect(x, ship_y, 86, 40), "+ ship",
                            enabled=seat.playing and len(seat.ships) < MAX_SHIPS)
            self.add_button(f"drop_ship:{i}", layout.rect(x + 92, ship_y, 86, 40), "− ship",
                            enabled=seat.playing and len(seat.ships) > 1)
            if not seat.playing:
                entry.disable()
        vw, vh = layout.virtual_width, layout.virtual_height
        right_w = vw - RIGHT_X - 24
        self.add_button("mode", layout.rect(RIGHT_X + 20, TOP + 60, right_w - 40, 44),
                        "Two teams" if self.teams else "Every captain for themselves",
                        tooltip="Click to switch between a free-for-all and two teams")
        limit = f"Round limit: {self.round_limit}" if self.round_limit else "Round limit: none"
        self.add_button("rounds", layout.rect(RIGHT_X + 20, TOP + 160, right_w - 40, 44), limit,
                        tooltip="After this many rounds the ships disengage and nobody wins")
        self.add_button("back", layout.rect(24, vh - 24 - 56, 200, 56), "Back", "@menu_button")
        self.add_button("start", layout.rect(vw - 24 - 240, vh - 24 - 56, 240, 56), "Start the fight", "@menu_button")

    # ------------------------------------------------------------------ input
    def on_button(self, key: str) -> None:
        self.read_names()
        kind, _, rest = key.partition(":")
        if kind == "seat":
            seat = self.seats[int(rest)]
            seat.playing = not seat.playing
            if seat.playing:  # a returning seat's ships must not share a name with anyone's
                seat.ships = [ShipDesign(self.fresh_name(s.name), s.ship_class, s.systems) for s in seat.ships]
        elif kind == "human":
            self.seats[int(rest)].human = not self.seats[int(rest)].human
        elif kind == "team":
            self.seats[int(rest)].team = 1 - self.seats[int(rest)].team
        elif kind == "ship":
            i, k = (int(v) for v in rest.split(":"))
            self.open_sheet(i, k)
            return
        elif kind == "add_ship":
            seat = self.seats[int(rest)]
            base = seat.ships[-1]
            seat.ships.append(ShipDesign(self.fresh_name(base.name.split(" ")[0]), base.ship_class, base.systems))
        elif kind == "drop_ship":
            seat = self.seats[int(rest)]
            if len(seat.ships) > 1:
                seat.ships.pop()
        elif kind == "mode":
            self.teams = not self.teams
        elif kind == "rounds":
            self.round_limit = ROUND_LIMITS[(ROUND_LIMITS.index(self.round_limit) + 1) % len(ROUND_LIMITS)]
        elif kind == "back":
            self.context.back()
            return
        elif kind == "start":
            self.start()
            return
        self.message = ""
        self.relayout()

    def open_sheet(self, seat_index: int, ship_index: int) -> None:
        from game.client.cosmoforce.sheet import ShipSheetScene

        seat = self.seats[seat_index]

        def done(design: ShipDesign) -> None:
            seat.ships[ship_index] = design

        self.context.stack.push(ShipSheetScene(self.context, self.engine, seat.ships[ship_index], COLOURS[seat_index],
                                               seat_index, done, self.ship_names(skip=(seat_index, ship_index))))

    def start(self) -> bool:
        setup = self.setup()
        problem = self.engine.setup_problem(setup)
        if problem:
            self.message = problem[:1].upper() + problem[1:] + "."
            return False
        try:
            session = new_session(self.engine, setup)
        except IllegalSetup as exc:
            self.message = str(exc)
            return False
        self.started = start_game(self.context, session)
        return True

    def on_key(self, event) -> bool:
        if event.key == pygame.K_ESCAPE:
            self.context.back()
            return True
        return False

    # ------------------------------------------------------------------ drawing
    def draw_content(self, surface: pygame.Surface) -> None:
        layout = self.context.layout
        self.draw_header(surface, "New Cosmoforce fight", subtitle="Captains, ships and how the fight ends")
        vw, vh = layout.virtual_width, layout.virtual_height
        left = layout.rect(LEFT_X, TOP, LEFT_W, vh - TOP - 100)
        draw_card(surface, left, layout)
        head = font_px(layout.px(20), True)
        draw_text(surface, "Captains and their ships", head, ACCENT_LIGHT, (left.left + layout.px(20),
                                                                            left.top + layout.px(12)))
        for i, seat in enumerate(self.seats):
            y = layout.px(TOP + 44 + i * ROW_H)
            draw_program_marker(surface, i, (left.left + layout.px(24), y + layout.px(20)), layout.px(13),
                                pygame.Color(COLOURS[i]) if seat.playing else pygame.Color(90, 84, 110))
        right = layout.rect(RIGHT_X, TOP, vw - RIGHT_X - 24, vh - TOP - 100)
        draw_card(surface, right, layout)
        label = font_px(layout.px(17), True)
        inner_x = right.left + layout.px(20)
        draw_text(surface, "Who fights whom", label, INK_DIM, (inner_x, right.top + layout.px(30)))
        draw_text(surface, "How long", label, INK_DIM, (inner_x, right.top + layout.px(130)))
        about = ("Each ship takes its turn, fastest first, with two actions: burn engines, conserve energy, "
                 "fire, launch drones, heal, repair. Heat left after the round hurts the crew. A ship is out "
                 "with no crew, or with every system damaged. Click a ship to refit it on its sheet.")
        text_w = right.w - layout.px(40)
        bottom = right.bottom - layout.px(16)
        draw_wrapped(surface, about, font_px(layout.px(16)), INK,
                     pygame.Rect(inner_x, right.top + layout.px(236), text_w, bottom - right.top - layout.px(236)))
        if self.message:
            status = pygame.Rect(layout.px(248), layout.px(vh - 24 - 56), layout.px(vw - 248 - 24 - 240 - 24),
                                 layout.px(56))
            draw_status(surface, status, self.message, "error", layout)
        else:
            hint = "Computer captains play themselves; humans share the screen."
            draw_text(surface, hint, fit_font(hint, layout.px(vw - 520), layout.px(16)), INK_DIM,
                      (layout.px(vw / 2), layout.px(vh - 24 - 28)), anchor="center")
        self.draw_toast(surface)
