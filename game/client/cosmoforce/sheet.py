"""The ship sheet: a roster to build or refit a ship before the fight.

Pick a class, start from a ready-made ship of that class if you like, add systems from the palette (each
goes in the next free slot), click a slot on the roster to take its system off. Mass, crew, speed and heat
are worked out by the rules as you go (``rules.ships``), and the rules say what is wrong with a roster
(``design_problem``) before Done takes it.
"""
from __future__ import annotations

from typing import Callable, Optional

import pygame
import pygame_gui

from game.client.cosmoforce.roster import RosterView, draw_roster, stat_spots
from game.client.kit.style import ACCENT_HOT, INK_DIM, draw_dialog, draw_text, font_px
from game.client.kit.text import draw_wrapped
from game.client.scenes.game_scene import GameScene
from game.games.cosmoforce.rules.engine import Engine
from game.games.cosmoforce.rules.ships import design_problem
from game.games.cosmoforce.rules.state import SHIP_NAME_MAX, ShipDesign

CARD_W, CARD_H = 1200, 640
ROSTER_W = 620


class ShipSheetScene(GameScene):
    """An overlay over the new-game screen; ``on_done(design)`` receives the ship when Done is pressed."""

    name = "cosmoforce_sheet"
    is_overlay = True

    def __init__(self, context, engine: Engine, design: ShipDesign, colour, owner: int,
                 on_done: Callable[[ShipDesign], None], taken_names: frozenset[str] = frozenset()) -> None:
        super().__init__(context, None)
        self.engine = engine
        self.design = design
        self.colour = colour
        self.owner = owner
        self.on_done = on_done
        self.taken_names = taken_names
        self.entry: Optional[pygame_gui.elements.UITextEntryLine] = None
        self.slot_rects: dict[int, pygame.Rect] = {}
        self.hover: Optional[int] = None

    # -- the design being edited
    def allowed_systems(self) -> list[str]:
        rules = self.engine.rules
        return [s.id for s in rules.systems.systems
                if rules.special_of(s.id) is None or rules.special_of(s.id).id == self.design.ship_class]

    def problem(self) -> Optional[str]:
        design = self.current()
        if not design.name.strip():
            return "Give the ship a name."
        if design.name.casefold() in self.taken_names:
            return f"Another ship is already called {design.name}."
        return design_problem(self.engine.rules.classes, self.engine.rules.systems, design)

    def current(self) -> ShipDesign:
        name = self.entry.get_text().strip() if self.entry is not None else self.design.name
        return ShipDesign(name, self.design.ship_class, self.design.systems)

    def set_systems(self, systems) -> None:
        self.design = ShipDesign(self.current().name, self.design.ship_class, tuple(systems))
        self.relayout()

    # -- widgets
    def card_rect(self) -> pygame.Rect:
        return self.context.layout.centred_rect(CARD_W, CARD_H)

    def build_ui(self) -> None:
        super().build_ui()
        layout, manager = self.context.layout, self.context.manager
        card = self.card_rect()
        left = card.left + layout.px(ROSTER_W + 56)
        width = card.right - layout.px(32) - left
        self.entry = pygame_gui.elements.UITextEntryLine(pygame.Rect(left, card.top + layout.px(84), width,
                                                                     layout.px(40)), manager, container=self.root,
                                                         object_id="#ship_name")
        self.entry.set_text_length_limit(SHIP_NAME_MAX)
        self.entry.set_text(self.design.name)
        rules = self.engine.rules
        classes = rules.classes.classes
        w = (width - layout.px(8) * (len(classes) - 1)) // len(classes)
        for i, c in enumerate(classes):
            button = self.add_button(f"class:{c.id}", pygame.Rect(left + i * (w + layout.px(8)), card.top + layout.px(164),
                                                                   w, layout.px(40)), c.name,
                                     tooltip=f"Size {c.size}: every system adds {c.size} mass; {c.crew_per_habitat} "
                                             f"crew per habitat; special: {rules.systems.get(c.special).name}")
            if c.id == self.design.ship_class:
                button.select()
        ready = [s for s in rules.ships.ships if s.ship_class == self.design.ship_class]
        if ready:
            w = (width - layout.px(8) * (len(ready) - 1)) // len(ready)
            for i, s in enumerate(ready):
                self.add_button(f"ready:{s.id}", pygame.Rect(left + i * (w + layout.px(8)), card.top + layout.px(244),
                                                             w, layout.px(40)), f"Start from {s.name}",
                                tooltip=", ".join(rules.systems.get(x).name for x in s.systems))
        full = len(self.design.systems) >= rules.classes.max_systems
        allowed = self.allowed_systems()
        per_row = 3
        w = (width - layout.px(8) * (per_row - 1)) // per_row
        for i, system_id in enumerate(allowed):
            row, col = divmod(i, per_row)
            kind = rules.systems.get(system_id)
            self.add_button(f"add:{system_id}", pygame.Rect(left + col * (w + layout.px(8)),
                                                            card.top + layout.px(324 + row * 48), w, layout.px(40)),
                            f"+ {kind.name}", tooltip=kind.description, enabled=not full)
        half = (width - layout.px(8)) // 2
        y = card.bottom - layout.px(28 + 48)
        self.add_button("cancel", pygame.Rect(left, y, half, layout.px(48)), "Cancel", "@menu_button")
        self.add_button("done", pygame.Rect(left + half + layout.px(8), y, half, layout.px(48)), "Done",
                        "@menu_button", enabled=self.problem() is None, tooltip=self.problem())

    # -- input
    def on_button(self, key: str) -> None:
        rules = self.engine.rules
        if key.startswith("class:"):
            ship_class = key[6:]
            specials = {c.special for c in rules.classes.classes if c.id != ship_class}
            kept = [s for s in self.design.systems if s not in specials]
            self.design = ShipDesign(self.current().name, ship_class, tuple(kept))
            self.relayout()
        elif key.startswith("ready:"):
            ready = rules.ships.get(key[6:])
            self.set_systems(ready.systems)
        elif key.startswith("add:"):
            if len(self.design.systems) < rules.classes.max_systems:
                self.set_systems(self.design.systems + (key[4:],))
        elif key == "cancel":
            self.context.back()
        elif key == "done" and self.problem() is None:
            design = self.current()
            self.context.back()
            self.on_done(design)

    def handle_event(self, event: pygame.event.Event) -> bool:
        if event.type == pygame_gui.UI_TEXT_ENTRY_CHANGED and event.ui_element is self.entry:
            done = self.buttons.get("done")
            if done is not None:
                done.enable() if self.problem() is None else done.disable()
            return True
        if super().handle_event(event):
            return True
        if event.type == pygame.MOUSEMOTION:
            self.hover = next((i for i, r in self.slot_rects.items() if r.collidepoint(event.pos)), None)
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            for slot, rect in self.slot_rects.items():
                if rect.collidepoint(event.pos):
                    self.remove(slot)
                    return True
        return event.type in (pygame.KEYDOWN, pygame.MOUSEBUTTONDOWN)  # modal

    def remove(self, slot: int) -> None:
        systems = list(self.design.systems)
        if 0 <= slot < len(systems):
            del systems[slot]
            self.set_systems(systems)

    def on_key(self, event) -> bool:
        if event.key == pygame.K_ESCAPE:
            self.context.back()
        return True

    # -- drawing
    def draw(self, surface: pygame.Surface) -> None:
        layout = self.context.layout
        card = self.card_rect()
        draw_dialog(surface, card, layout, "Ship sheet", size=30, inset=32, top=20)
        roster = pygame.Rect(card.left + layout.px(32), card.top + layout.px(70), layout.px(ROSTER_W),
                             card.h - layout.px(70 + 32))
        view = RosterView.of_design(self.engine, self.current(), self.owner)
        stats: dict[str, pygame.Rect] = {}
        rects = draw_roster(surface, roster, layout, view, self.colour, range(len(self.design.systems)), self.hover,
                            "SHIP ROSTER · click a system to take it off", stats)
        stat_spots(self, stats, self.engine.rules)
        self.slot_rects = {i: r for i, r in rects.items() if i < len(self.design.systems)}
        left = card.left + layout.px(ROSTER_W + 56)
        width = card.right - layout.px(32) - left
        label = font_px(layout.px(16), True)
        for text, y in (("Name", 60), ("Class", 140), ("Ready-made ships of this class", 220),
                        (f"Add a system ({len(self.design.systems)} of {self.engine.rules.classes.max_systems} "
                         f"slots used)", 300)):
            draw_text(surface, text, label, INK_DIM, (left, card.top + layout.px(y)))
        problem = self.problem()
        if problem:
            rows = (len(self.allowed_systems()) + 2) // 3
            top = card.top + layout.px(324 + rows * 48 + 8)
            draw_wrapped(surface, problem, font_px(layout.px(17), True), ACCENT_HOT,
                         pygame.Rect(left, top, width, card.bottom - layout.px(90) - top), 3)
        self.draw_toast(surface)
