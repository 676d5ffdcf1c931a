"""New game: the edition of the rules (2014 or 2013, each with its one-line summary from its edition.yaml),
the mode (a hot-seat race, or Stop The Rock for one program alone or two to four working
together), one to four space programs (name, people, colour, human or computer), the dice, the
optional rules, and for a race the victory condition and turn limit, for Stop The Rock the
difficulty. Start builds a ``Setup`` and a ``GameSession`` and hands over to the game flow.

Every victory, scenario and difficulty, with its numbers and its one-line explanation, is read from
the loaded ``rules/scenarios.yaml``: nothing about them is written here.

The colour shown is the one the engine will really use: the people's colour, or a colour-blind-safe
alternative when two programs would clash. Each seat also has its own shape marker.
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Optional

import pygame
import pygame_gui

from game.games.whatgoesup.rules.editions import edition_ids
from game.games.whatgoesup.rules.engine import PROGRAM_COLOURS, IllegalSetup
from game.games.whatgoesup.rules.limits import PROGRAM_NAME_MAX
from game.games.whatgoesup.rules.state import PlayerSetup, Setup
from game.core.session import GameSession

from game.client.whatgoesup.shipped import shipped_engine
from game.client.scenes.game_scene import GameScene
from game.client.kit.draw import draw_program_marker
from game.client.kit.text import draw_wrapped
from game.client.kit.widgets import draw_colour_swatch, draw_status, draw_whole, fitted_dropdown
from game.client.kit.words import counted
from game.client.kit.style import ACCENT_LIGHT, INK, INK_DIM, draw_card, draw_text, fit_font, font_px

SEATS = 4
DEFAULT_NAMES = ("Hop Agency", "Spud Space", "Kaboom Works", "Coldsnap Institute")
DEFAULT_PEOPLES = ("rabitians", "merbs", "goblins", "kobolds")
TURN_LIMITS = (5, 8, 10, 12, 15, 20, 25, 30, 40, 50, None)

ROW_H, ROW_GAP = 96, 8
LEFT_X, LEFT_W, TOP = 24, 700, 84
RIGHT_X, RIGHT_W = 748, 508
OPTION_Y = TOP + 190
OPTION_H = 54
OPTION_AREA = 4 * OPTION_H  # the optional rules share this height: four roomy rows, or more that are closer
GOAL_Y = OPTION_Y + OPTION_AREA + 8  # "Victory and turn limit" or "Difficulty"


OPTION_GRID_H = 44  # past four rules: two columns of buttons, and the focused rule's words under them


def option_button_rect(n: int, count: int) -> tuple[int, int, int, int]:
    """Where the button of the ``n``th of ``count`` optional rules goes (virtual units): one per row beside its
    explanation up to four rules; past four, two columns with one explanation under them (``option_note_rect``)."""
    if count <= 4:
        return RIGHT_X + 16, OPTION_Y + n * OPTION_H, 170, 40
    return RIGHT_X + 16 + (n % 2) * 242, OPTION_Y + (n // 2) * OPTION_GRID_H, 232, 38


def option_note_rect(count: int) -> tuple[int, int, int, int]:
    """Past four optional rules: where the focused rule's explanation goes, under the buttons."""
    top = OPTION_Y + (count + 1) // 2 * OPTION_GRID_H
    return RIGHT_X + 16, top, RIGHT_W - 32, max(20, OPTION_Y + OPTION_AREA + 4 - top)
TURNS_Y = GOAL_Y + 30
RACE = "race"
SWATCH, SWATCH_GAP = 28, 2  # a colour choice: the seat's marker in that colour (units)
SWATCH_X, SWATCH_Y = LEFT_X + 16, 56  # where a seat's colours start (x, and y below the seat's top)
EDITION_W, EDITION_GAP = 150, 8  # the edition buttons, right-aligned in the header bar


@dataclass
class Seat:
    playing: bool
    name: str
    people: str
    human: bool = True
    colour: str = ""  # chosen colour; empty: the people's own


def new_seed() -> int:
    """A time-based seed for the game's dice (never ``random``: the dice have one seeded source)."""
    return int(time.time() * 1000) % 2_000_000_000


class NewGameScene(GameScene):
    name = "new_game"

    def __init__(self, context) -> None:
        super().__init__(context, None)
        self.engine = shipped_engine()
        self.editions = edition_ids()
        rules = self.engine.rules
        self.peoples = rules.peoples.peoples
        self.seats = [Seat(i < 2, DEFAULT_NAMES[i], DEFAULT_PEOPLES[i % len(DEFAULT_PEOPLES)]) for i in range(SEATS)]
        if self.peoples and not any(p.id == DEFAULT_PEOPLES[0] for p in self.peoples):
            for i, seat in enumerate(self.seats):
                seat.people = self.peoples[i % len(self.peoples)].id
        self.dice = rules.dice.default
        self.options: set[str] = {o.id for o in rules.options.options if o.default}
        self.option_focus: Optional[str] = None  # the optional rule whose words show (past four rules)
        self.turn_limit: Optional[int] = 20
        tables = rules.scenarios
        self.victories = list(tables.victories)
        self.scenarios = list(tables.scenarios)
        self.victory = "most_dots" if any(v.id == "most_dots" for v in self.victories) else \
            (self.victories[0].id if self.victories else "most_dots")
        self.mode = RACE  # or a scenario id (stop_the_rock)
        self.difficulty: dict[str, str] = {s.id: s.default_difficulty for s in self.scenarios}
        self.victory_menu: Optional[pygame_gui.elements.UIDropDownMenu] = None
        self.name_entries: list[pygame_gui.elements.UITextEntryLine] = []
        self.people_menus: list[pygame_gui.elements.UIDropDownMenu] = []
        self.started = None
        self.hover: Optional[tuple[int, str]] = None  # (seat, colour) under the pointer

    # ------------------------------------------------------------------ editions
    @property
    def edition(self) -> str:
        return self.engine.rules.edition.id

    def choose_edition(self, edition_id: str) -> None:
        """Play under another shipped edition; choices it also offers are kept, the others fall back."""
        self.engine = shipped_engine().for_edition(edition_id)
        rules = self.engine.rules
        self.peoples = rules.peoples.peoples
        if self.dice not in [s.id for s in rules.dice.schemes]:
            self.dice = rules.dice.default
        self.options &= set(rules.option_ids)
        self.victories = list(rules.scenarios.victories)
        self.scenarios = list(rules.scenarios.scenarios)
        if not any(v.id == self.victory for v in self.victories) and self.victories:
            self.victory = self.victories[0].id
        if self.mode != RACE and self.scenario() is None:
            self.mode = RACE
        self.difficulty = {s.id: self.difficulty.get(s.id, s.default_difficulty) for s in self.scenarios}

    def edition_rects(self) -> list[tuple[str, pygame.Rect]]:
        """Each edition's button, right-aligned in the header bar (virtual units)."""
        vw = self.context.layout.virtual_width
        n = len(self.editions)
        return [(e, pygame.Rect(vw - 24 - (n - k) * (EDITION_W + EDITION_GAP) + EDITION_GAP, 13, EDITION_W, 38))
                for k, e in enumerate(self.editions)]

    def summary_rect(self, subtitle: str) -> pygame.Rect:
        """The chosen edition's one-line summary: in the header, between the subtitle and the edition buttons
        (screen pixels; the title and subtitle are measured in the fonts the header draws them in)."""
        layout = self.context.layout
        left = (layout.px(24) + font_px(layout.px(28), True).size("New game")[0] + layout.px(16)
                + font_px(layout.px(18)).size(subtitle)[0] + layout.px(24))
        right = layout.px(min(r.left for _, r in self.edition_rects()) - 16)
        return pygame.Rect(left, layout.px(6), max(0, right - left), layout.px(52))

    # ------------------------------------------------------------------ widgets
    def build_ui(self) -> None:
        super().build_ui()
        layout, manager = self.context.layout, self.context.manager
        if len(self.editions) > 1:
            for edition_id, rect in self.edition_rects():
                edition = shipped_engine().for_edition(edition_id).rules.edition
                b = self.add_button(f"edition:{edition_id}", layout.rect(*rect), f"{edition_id} rules",
                                    tooltip=f"{edition.name}: {edition.description}".strip())
                if edition_id == self.edition:
                    b.select()
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
            entry.set_text_length_limit(PROGRAM_NAME_MAX)  # the save loader allows no more
            entry.set_text(seat.name)
            self.name_entries.append(entry)
            options = [(p.name, p.id) for p in self.peoples]
            start = next(o for o in options if o[1] == seat.people)
            menu = fitted_dropdown(options, start, layout.rect(LEFT_X + 432, y + 10, 138, 40), manager,
                                   container=self.root, object_id=f"#people_{i}", max_width=layout.px(140))
            self.people_menus.append(menu)
            self.add_button(f"human:{i}", layout.rect(LEFT_X + 580, y + 10, 104, 40),
                            "Human" if seat.human else "Computer")
            if not seat.playing:
                entry.disable()
                menu.disable()
                self.buttons[f"human:{i}"].disable()
        modes = [(RACE, "Hot-seat race")] + [(s.id, s.name) for s in self.scenarios]
        mode_w = 176
        for n, (mode, label) in enumerate(modes):
            x = LEFT_X + LEFT_W - 16 - (len(modes) - n) * (mode_w + 8) + 8
            b = self.add_button(f"mode:{mode}", layout.rect(x, TOP + 6, mode_w, 34), label,
                                tooltip=self.mode_explanation(mode))
            if mode == self.mode:
                b.select()
        rules = self.engine.rules
        y = TOP + 40
        for n, scheme in enumerate(rules.dice.schemes[:4]):
            b = self.add_button(f"dice:{scheme.id}", layout.rect(RIGHT_X + 16 + (n % 2) * 242, y + (n // 2) * 46,
                                                                  232, 40), scheme.name)
            if scheme.id == self.dice:
                b.select()
        count = len(rules.options.options)
        for n, option in enumerate(rules.options.options):
            b = self.add_button(f"option:{option.id}", layout.rect(*option_button_rect(n, count)), option.name,
                                tooltip=option.explanation)
            if option.id in self.options:
                b.select()
        self.victory_menu = None
        scenario = self.scenario()
        if scenario is None:
            if self.victories:
                options = [(v.name, v.id) for v in self.victories]
                start = next(o for o in options if o[1] == self.victory)
                # near the foot of the window: open upwards; as wide as its longest name needs
                self.victory_menu = fitted_dropdown(options, start, layout.rect(RIGHT_X + 16, TURNS_Y, 300, 40),
                                                    manager, container=self.root, object_id="#victory",
                                                    max_width=layout.px(RIGHT_W - 32), expand_up=True)
            # the turn limit sits on the heading's line, so the victory's name has the whole width
            self.add_button("turns:-", layout.rect(RIGHT_X + RIGHT_W - 16 - 184, GOAL_Y - 5, 40, 34), "−")
            self.add_button("turns:+", layout.rect(RIGHT_X + RIGHT_W - 16 - 40, GOAL_Y - 5, 40, 34), "+")
        else:
            levels = scenario.difficulties[:4]
            width = (RIGHT_W - 32 - 8 * (len(levels) - 1)) / max(1, len(levels))
            for n, level in enumerate(levels):
                b = self.add_button(f"difficulty:{level.id}",
                                    layout.rect(RIGHT_X + 16 + n * (width + 8), TURNS_Y, width, 40), level.name,
                                    tooltip=self.difficulty_explanation(scenario, level))
                if level.id == self.difficulty.get(scenario.id):
                    b.select()
        vh = layout.virtual_height
        vw = layout.virtual_width
        self.add_button("back", layout.rect(24, vh - 24 - 56, 200, 56), "Back", "@menu_button")
        start = "Start the race!" if self.scenario() is None else f"Start: {self.scenario().name}!"
        self.add_button("start", layout.rect(vw - 24 - 300, vh - 24 - 56, 300, 56), start, "@menu_button")

    # ------------------------------------------------------------------ words from scenarios.yaml
    def scenario(self):
        return next((s for s in self.scenarios if s.id == self.mode), None)

    def mode_explanation(self, mode: str) -> str:
        scenario = next((s for s in self.scenarios if s.id == mode), None)
        if scenario is None:
            return ("Hot-seat race: one to four programs share this screen and race each other to the goal; "
                    "computer programs play themselves.")
        return f"{scenario.name}: {scenario.description}"

    @staticmethod
    def difficulty_explanation(scenario, level) -> str:
        """A difficulty's numbers in one line, from scenarios.yaml."""
        drift = f"it drifts (a D{scenario.drift_die} each turn)" if level.drift else "it does not drift"
        return (f"{level.name}: impact in {level.turns_to_impact} turns; {level.nudges_needed} nudges' worth "
                f"saves the world; {drift}; you start with {counted(level.start_dots, 'dot')}"
                + (f" and {counted(level.start_points, 'point')} of emergency funding" if level.start_points else "")
                + ". A nudge is worth the turns left.")

    def victory_explanation(self) -> str:
        victory = next((v for v in self.victories if v.id == self.victory), None)
        if victory is None:
            return ""
        text = victory.description.strip()
        if victory.kind != "most_dots":
            text += (f" If nobody has by turn {self.turn_limit}, the closest wins." if self.turn_limit
                     else " No turn limit: play until someone does.")
        elif not self.turn_limit:
            text = "No turn limit: play as long as you like; most dots when you stop leads."
        return text

    # ------------------------------------------------------------------ state
    def read_entries(self) -> None:
        for seat, entry in zip(self.seats, self.name_entries):
            if entry.alive():
                seat.name = entry.get_text()

    def setup(self) -> Setup:
        self.read_entries()
        players = tuple(PlayerSetup(name=s.name.strip(), people=s.people, human=s.human, colour=s.colour)
                        for s in self.seats if s.playing)
        scenario = self.scenario()
        if scenario is not None:  # the rock is the clock: no turn limit, no victory condition of its own
            return Setup(players=players, dice=self.dice, options=frozenset(self.options), turn_limit=None,
                         scenario=scenario.id, difficulty=self.difficulty.get(scenario.id))
        return Setup(players=players, dice=self.dice, options=frozenset(self.options), turn_limit=self.turn_limit,
                     victory=self.victory)

    def final_colours(self) -> dict[int, str]:
        """Seat -> the colour the engine gives it (clashes resolved), for the seats that play."""
        playing = [i for i, s in enumerate(self.seats) if s.playing]
        players = tuple(PlayerSetup(name=f"P{i}", people=self.seats[i].people, colour=self.seats[i].colour)
                        for i in playing)
        try:
            state = self.engine.new_game(Setup(players=players, dice=self.dice))
        except IllegalSetup:
            return {}
        return {seat: p.colour for seat, p in zip(playing, state.programs)}

    # ------------------------------------------------------------------ colours
    def palette(self, seat: int) -> list[str]:
        """The colours a seat may take: its people's own, then the colour-blind-safe program colours."""
        own = next((p.colour for p in self.peoples if p.id == self.seats[seat].people), "")
        out = [own] if own else []
        return out + [c for c in PROGRAM_COLOURS if c.lower() != own.lower()]

    def swatches(self) -> list[tuple[int, str, pygame.Rect, bool, bool]]:
        """(seat, colour, rect, chosen, free) for every colour choice of every playing seat."""
        layout = self.context.layout
        colours = self.final_colours()
        out = []
        for i, seat in enumerate(self.seats):
            if not seat.playing or i not in colours:
                continue
            taken = {c.lower() for j, c in colours.items() if j != i}
            y = TOP + 40 + i * (ROW_H + ROW_GAP) + SWATCH_Y
            for n, colour in enumerate(self.palette(i)):
                rect = layout.rect(SWATCH_X + n * (SWATCH + SWATCH_GAP), y, SWATCH, SWATCH)
                out.append((i, colour, rect, colour.lower() == colours[i].lower(), colour.lower() not in taken))
        return out

    def choose_colour(self, seat: int, colour: str) -> bool:
        """Give ``seat`` this colour if no other program holds it; True if it changed."""
        for i, c, _rect, chosen, free in self.swatches():
            if i == seat and c.lower() == colour.lower():
                if free and not chosen:
                    self.seats[seat].colour = colour
                    return True
                return False
        return False

    def toggle_option(self, option_id: str) -> None:
        """Switch an optional rule; one that needs others brings them along, and switching a rule off also
        switches off the rules that need it."""
        rules = self.engine.rules
        if option_id in self.options:
            gone = {option_id}
            while True:
                more = {o.id for o in rules.options.options if o.id in self.options and set(o.requires) & gone} - gone
                if not more:
                    break
                gone |= more
            self.options -= gone
        else:
            self.options |= {option_id} | set(rules.option(option_id).requires)

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
        elif kind == "edition":
            self.choose_edition(arg)
        elif kind == "mode":
            self.mode = arg
        elif kind == "difficulty":
            if self.scenario() is not None:
                self.difficulty[self.scenario().id] = arg
        elif kind == "option":
            self.toggle_option(arg)
            self.option_focus = arg
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
        if event.type == pygame_gui.UI_BUTTON_ON_HOVERED:
            key = self.key_of(event.ui_element) or ""
            if key.startswith("option:"):
                self.option_focus = key.split(":", 1)[1]
        if event.type in (pygame.MOUSEMOTION, pygame.MOUSEBUTTONDOWN):
            spot = next(((i, c) for i, c, rect, _chosen, _free in self.swatches() if rect.collidepoint(event.pos)),
                        None)
            self.hover = spot
            if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1 and spot is not None:
                self.read_entries()
                self.choose_colour(*spot)
                return True
        if event.type == pygame_gui.UI_DROP_DOWN_MENU_CHANGED and event.ui_element in self.people_menus:
            index = self.people_menus.index(event.ui_element)
            self.read_entries()
            if self.seats[index].people != event.ui_element.selected_option[1]:
                self.seats[index].people = event.ui_element.selected_option[1]
                self.seats[index].colour = ""  # a new people brings its own colour
            return True
        if event.type == pygame_gui.UI_DROP_DOWN_MENU_CHANGED and event.ui_element is self.victory_menu:
            self.read_entries()
            self.victory = event.ui_element.selected_option[1]
            chosen = next((v for v in self.victories if v.id == self.victory), None)
            if chosen is not None and chosen.suggested_turns:
                self.turn_limit = chosen.suggested_turns  # goal races need a long game; the player may change it
                self.relayout()
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
        self.context.start_game(session)
        return session

    # ------------------------------------------------------------------ drawing
    def description_rect(self, seat: int) -> pygame.Rect:
        """A seat's people described, right of its colours."""
        y = TOP + 40 + seat * (ROW_H + ROW_GAP)
        left = SWATCH_X + 8 * (SWATCH + SWATCH_GAP) + 10
        return self.context.layout.rect(left, y + 52, LEFT_X + LEFT_W - 16 - left, ROW_H - 52)

    def note_rect(self) -> pygame.Rect:
        """The victory's or difficulty's explanation, under its choices, kept off the right card's border (its
        words sat on the border's line, at 3840x2160 across it)."""
        return self.context.layout.rect(RIGHT_X + 16, TURNS_Y + 44, RIGHT_W - 32, 52)

    def right_card_rect(self) -> pygame.Rect:
        """The right-hand card: the dice, the optional rules and the victory or difficulty."""
        return self.context.layout.rect(RIGHT_X, TOP, RIGHT_W, TURNS_Y + 40 + 64 - TOP)

    def status_rect(self) -> pygame.Rect:
        """Where messages show: between Back and Start (no widget there)."""
        layout = self.context.layout
        vw, vh = layout.virtual_width, layout.virtual_height
        return layout.rect(24 + 200 + 16, vh - 24 - 56, vw - 24 - 300 - 16 - (24 + 200 + 16), 56)

    def draw_toast(self, surface: pygame.Surface) -> None:
        if self.toast_time > 0 and self.toast_text:
            draw_status(surface, self.status_rect(), self.toast_text, self.toast_kind, self.context.layout)

    def draw_content(self, surface: pygame.Surface) -> None:
        layout = self.context.layout
        scenario = self.scenario()
        sub = "Who is racing to the Moon?" if scenario is None else f"{scenario.name}: who will push it aside?"
        self.draw_header(surface, "New game", subtitle=sub)
        summary = self.engine.rules.edition.summary
        if summary and len(self.editions) > 1:
            draw_whole(surface, summary, self.summary_rect(sub), layout.px(15), INK, min_size=layout.px(11))
        left = layout.rect(LEFT_X, TOP, LEFT_W, 40 + SEATS * (ROW_H + ROW_GAP) + 4)
        draw_card(surface, left, layout)
        head = font_px(layout.px(20), True)
        title = "Space programs" if scenario is None else "Programs, working together"
        mode_left = min(b.rect.left for k, b in self.buttons.items() if k.startswith("mode:")) \
            if any(k.startswith("mode:") for k in self.buttons) else left.right
        draw_text(surface, title, fit_font(title, mode_left - left.left - layout.px(32), layout.px(20), bold=True),
                  ACCENT_LIGHT, (left.left + layout.px(16), left.top + layout.px(10)))
        colours = self.final_colours()
        small = font_px(layout.px(15))
        for i, seat in enumerate(self.seats):
            y = TOP + 40 + i * (ROW_H + ROW_GAP)
            marker_c = (layout.px(LEFT_X + 160), layout.px(y + 30))
            if seat.playing and i in colours:
                draw_program_marker(surface, i, marker_c, layout.px(14), pygame.Color(colours[i]))
                people = next(p for p in self.peoples if p.id == seat.people)
                text = f"{people.name}: {people.description}"
                draw_whole(surface, text, self.description_rect(i), layout.px(15), INK_DIM,
                           min_size=layout.px(11))
            else:
                draw_text(surface, "Nobody in this seat", small, INK_DIM, (layout.px(LEFT_X + 186), layout.px(y + 62)))
        for seat, colour, rect, chosen, free in self.swatches():
            draw_colour_swatch(surface, rect, seat, colour, chosen, free, self.hover == (seat, colour))
        # what the chosen mode is, under the programs
        mode_top = TOP + 40 + SEATS * (ROW_H + ROW_GAP) + 14
        vh = layout.virtual_height
        box = layout.rect(LEFT_X + 16, mode_top, LEFT_W - 32, max(20, vh - 24 - 56 - 10 - mode_top))
        playing = sum(1 for s in self.seats if s.playing)
        words = self.mode_explanation(self.mode)
        if scenario is not None:
            words += (" You play alone." if playing == 1 else f" {counted(playing, 'program')} win or lose together.")
        draw_wrapped(surface, words, font_px(layout.px(16)), INK, box, 3)
        right = self.right_card_rect()
        draw_card(surface, right, layout)
        rules = self.engine.rules
        x = right.left + layout.px(16)
        draw_text(surface, "Dice", head, ACCENT_LIGHT, (x, right.top + layout.px(10)))
        scheme = rules.dice.scheme(self.dice)
        draw_wrapped(surface, scheme.description, font_px(layout.px(15)), INK,
                     layout.rect(RIGHT_X + 16, TOP + 130, RIGHT_W - 32, 24), 1)
        draw_text(surface, "Optional rules", head, ACCENT_LIGHT, (x, layout.px(OPTION_Y - 32)))
        option_font = font_px(layout.px(13))
        count = len(rules.options.options)
        if count <= 4:
            for n, option in enumerate(rules.options.options):
                box = layout.rect(RIGHT_X + 196, OPTION_Y + n * OPTION_H - 2, RIGHT_W - 196 - 12, OPTION_H)
                draw_wrapped(surface, option.explanation, option_font,
                             INK if option.id in self.options else INK_DIM, box, 3)
        else:
            focus = next((o for o in rules.options.options if o.id == self.option_focus), None)
            words = (f"{focus.name}{' (on)' if focus.id in self.options else ''}: {focus.explanation}" if focus
                     else "Point at an optional rule to read what it does; the lit ones are on.")
            draw_wrapped(surface, words, option_font, INK if focus else INK_DIM,
                         layout.rect(*option_note_rect(count)), 3)
        note_box = self.note_rect()
        if scenario is None:
            draw_text(surface, "Victory and turn limit", head, ACCENT_LIGHT, (x, layout.px(GOAL_Y)))
            value = f"{self.turn_limit} turns" if self.turn_limit else "No limit"
            draw_text(surface, value, fit_font(value, layout.px(96), layout.px(20), bold=True), INK,
                      (layout.px(RIGHT_X + RIGHT_W - 16 - 92), layout.px(GOAL_Y + 12)), anchor="center")
            draw_whole(surface, self.victory_explanation(), note_box, layout.px(14), INK_DIM, min_size=layout.px(10))
        else:
            draw_text(surface, "Difficulty", head, ACCENT_LIGHT, (x, layout.px(GOAL_Y)))
            level = scenario.difficulty(self.difficulty.get(scenario.id))
            draw_whole(surface, self.difficulty_explanation(scenario, level), note_box, layout.px(14), INK_DIM,
                       min_size=layout.px(10))


def open_new_game(context) -> None:
    context.stack.push(NewGameScene(context))
