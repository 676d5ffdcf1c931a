"""Assembly: put an Upgoer together from the parts in storage, drawn as it will fly, with the design report.

The left card lists the parts in storage and the derps at home; drag one onto the rocket picture (a
lower stage onto the launch or the insertion slot) or press its button, and drag a part off the
rocket to take it out. Fuel, rations and planned burns are steppers. The picture
(``rocket_view``) stacks every part at its mass and shows what each stage lifts against what it
carries; the report beside it is ``check_design``'s problems in words. "Roll out to the pad" is
enabled only when the design is valid.
"""
from __future__ import annotations

import dataclasses
from typing import Optional

import pygame
import pygame_gui

from game.games.whatgoesup.rules import formulas
from game.games.whatgoesup.rules.actions import Assemble
from game.games.whatgoesup.rules.limits import UPGOER_NAME_MAX
from game.games.whatgoesup.rules.state import HOME, UpgoerDesign

from game.client.whatgoesup import glossary
from game.client.whatgoesup.names import copy_labels, player_words
from game.client.whatgoesup.rocket_view import RocketPicture, draw_part_icon, mass_text, paint, rocket_picture
from game.client.scenes.game_scene import GameScene
from game.client.scenes.still_scene import StillScene
from game.client.kit.draw import program_colour
from game.client.kit.text import draw_wrapped
from game.client.kit.widgets import draw_status
from game.client.kit.words import counted, in_sentence
from game.client.kit.style import (ACCENT_HOT, ACCENT_LIGHT, BAND_COLOURS, CARD, INK, INK_DIM, draw_card, draw_text,
                                   fit_font, font_px)

TOP = 84
ROW_H = 48
BOTTOM = 80  # the button row at the foot of the window
DRAG_START_PX = 6  # how far the pointer moves before a press becomes a drag
#: Glossary terms for a part's role, and for the buttons that put a part somewhere.
ROLE_TERMS = {"lower_stage": "lower stage", "capsule": "capsule", "habitat": "habitat", "thruster": "thruster",
              "rcs": "RCS", "payload": "payload", "fuel": "fuel", "rations": "rations", "underped": "underped system"}
CHOICE_TERMS = {"launch": ("launch", "lower stage"), "insert": ("orbital insertion", "cluster"),
                "stage": ("lower stage",)}
THRUST_WORDS = {"none": "no thrusters (no burns possible)", "too_small": "too weak for these capsules",
                "orbital": "orbital burns", "lunar": "can land on the Moon",
                "planetary": "can land home in one reusable piece"}
STEPPERS = (("fuel", "Fuel"), ("rations", "Rations"), ("burns", "Planned burns"))


# ---------------------------------------------------------------- suggestions
def _launchable(engine, state, design: UpgoerDesign) -> bool:
    """Whether the flight rules would let this design leave the pad (uncrewed craft fly suborbital only)."""
    single = "simplified_stack" in state.setup.options
    robots = any(d.system in design.modules for d in state.derps if d.is_system)  # a robot counts as crew
    return (bool(design.crew) or robots or single or len(design.stages) <= 1
            or not engine.rules.flight.uncrewed_suborbital_only)


def _with_stages(engine, state, program: int, design: UpgoerDesign, two: bool) -> Optional[UpgoerDesign]:
    """``design`` on the lightest lower stages in storage that lift it (one stage, or insertion and launch)."""
    report = engine.check_design(state, program, design)
    stages = sorted((i for i in state.items_of(program)
                     if engine.rules.components.kind(state.thing(i.thing_id).kind).role == "lower_stage"),
                    key=lambda i: (state.thing(i.thing_id).base_mass, i.id))
    above = report.spacecraft_mass
    insertion = next((s for s in stages if state.thing(s.thing_id).base_mass >= above), None)
    if insertion is None:
        return None
    if not two:
        return dataclasses.replace(design, stages=((insertion.id,),))
    carried = above + state.thing(insertion.thing_id).mass
    launch = next((s for s in stages if s.id != insertion.id and state.thing(s.thing_id).base_mass >= carried), None)
    if launch is None:
        return None
    return dataclasses.replace(design, stages=((launch.id,), (insertion.id,)))


def flyable_suggestions(engine, state, program: int, name: str) -> list[UpgoerDesign]:
    """Designs from storage that can really fly: each has a capsule, passes ``check_design`` and may launch.

    A crewed craft for orbit comes first (a capsule, the lightest thruster strong enough, fuel for two burns,
    rations, the best pilot, and the stages that lift it), then an uncrewed test hop.
    """
    comps = engine.rules.components
    by_role: dict[str, list] = {}
    for item in state.items_of(program):
        by_role.setdefault(comps.kind(state.thing(item.thing_id).kind).role, []).append(item)
    capsules = sorted(by_role.get("capsule", []), key=lambda i: (-state.thing(i.thing_id).base_mass, i.id))
    thrusters = sorted(by_role.get("thruster", []), key=lambda i: (state.thing(i.thing_id).mass, i.id))
    crew = sorted((d for d in state.derps_of(program) if d.can_fly and d.location is HOME and not d.is_system),
                  key=lambda d: (-d.piloting, -d.stamina, d.id))
    home = state.programs[program]
    single = "simplified_stack" in state.setup.options
    found: list[UpgoerDesign] = []

    def keep(design: Optional[UpgoerDesign]) -> bool:
        if design is None or not engine.check_design(state, program, design).valid:
            return False
        if not _launchable(engine, state, design) or design in found:
            return False
        found.append(design)
        return True

    for capsule in capsules[:2]:
        mass = state.thing(capsule.thing_id).mass
        strong = [t for t in thrusters
                  if state.thing(t.thing_id).mass >= formulas.required_thruster_mass(mass, comps.thruster.min_ratio)]
        if crew:
            modules = (capsule.id,) + ((strong[0].id,) if strong else ())
            base = UpgoerDesign(name=name, modules=modules, crew=(crew[0].id,))
            dry = engine.check_design(state, program, base).dry_mass
            fuel = min(home.fuel_stock, formulas.fuel_needed(dry, 2, engine.rules.economy.fuel)) if strong else 0
            for rations in sorted({formulas.ration_load(min(home.rations_stock, 2), comps, up=False), 0}, reverse=True):
                for fuel_aboard in sorted({fuel, 0}, reverse=True):
                    design = dataclasses.replace(base, fuel=fuel_aboard, rations=rations)
                    if keep(_with_stages(engine, state, program, design, two=not single)) or \
                            keep(_with_stages(engine, state, program, design, two=False)):
                        break
                else:
                    continue
                break
        keep(_with_stages(engine, state, program, UpgoerDesign(name=name, modules=(capsule.id,)), two=False))
    for design in engine.suggested_designs(state, program):  # the engine's own, when they carry a capsule
        if any(comps.kind(state.thing(state.item(m).thing_id).kind).role == "capsule" for m in design.modules):
            keep(dataclasses.replace(design, name=name))
    return found


# ---------------------------------------------------------------- the scene
class _DragLayer:
    """Draws the dragged part over every widget (pygame_gui draws its widgets after the scene)."""

    def __init__(self, scene: "AssemblyScene") -> None:
        self.scene = scene

    def handle_event(self, event) -> bool:
        return False

    def update(self, dt: float) -> None:
        pass

    def draw(self, surface: pygame.Surface) -> None:
        self.scene._draw_drag(surface)


class AssemblyScene(StillScene, GameScene):
    name = "assembly"

    def __init__(self, context, flow, program: int) -> None:
        super().__init__(context, flow)
        self.program = program
        self.stage_of: dict[str, int] = {}  # lower-stage item -> cluster (0 launch, 1 insertion)
        self.modules: list[str] = []
        self.crew: list[str] = []
        self.fuel = 0
        self.rations = 0
        self.burns = 0
        self.design_name = ""
        self.suggestion = -1
        self.name_entry: Optional[pygame_gui.elements.UITextEntryLine] = None
        self.scroll: Optional[pygame_gui.elements.UIScrollingContainer] = None
        self.rows: dict[str, str] = {}  # button key -> item/derp id
        self.row_images: dict[str, tuple[str, pygame_gui.elements.UIImage]] = {}  # id -> (row kind, image)
        self.term_spots: list = []  # (words, invisible widget whose tooltip explains them)
        self.press: Optional[tuple[str, str, str, tuple[int, int]]] = None  # (from, kind, id, where)
        self.dragging: Optional[tuple[str, str, str]] = None  # (from "row" or "rocket", kind, id)
        self.drag_pos = (0, 0)
        self._picture: Optional[RocketPicture] = None
        self._picture_key = None
        self._drag_layer = _DragLayer(self)
        people = next(p for p in flow.session.engine.rules.peoples.peoples
                      if p.id == flow.state.programs[program].people)
        count = len(flow.state.upgoers_of(program)) + 1
        self.design_name = f"{people.upgoer_names[count % len(people.upgoer_names)]} {count}"

    # ------------------------------------------------------------------ the design
    @property
    def state(self):
        return self.flow.session.state

    @property
    def engine(self):
        return self.flow.session.engine

    @property
    def simplified(self) -> bool:
        return "simplified_stack" in self.state.setup.options

    def design(self) -> UpgoerDesign:
        name = self.name_entry.get_text() if self.name_entry is not None and self.name_entry.alive() else self.design_name
        clusters = [tuple(i for i, c in self.stage_of.items() if c == level) for level in (0, 1)]
        stages = tuple(c for c in clusters if c)
        return UpgoerDesign(name=name.strip(), stages=stages, modules=tuple(self.modules), crew=tuple(self.crew),
                            fuel=self.fuel, rations=self.rations, planned_burns=self.burns)

    def report(self):
        return self.engine.check_design(self.state, self.program, self.design())

    def load_design(self, design: UpgoerDesign) -> None:
        self.stage_of = {}
        for level, cluster in enumerate(design.stages):
            for item in cluster:
                self.stage_of[item] = level
        self.modules, self.crew = list(design.modules), list(design.crew)
        self.fuel, self.rations, self.burns = design.fuel, design.rations, design.planned_burns
        self.design_name = design.name
        if self.name_entry is not None:
            self.name_entry.set_text(design.name)
        self.sync_buttons()

    # ------------------------------------------------------------------ geometry (units)
    def left_width(self) -> float:
        vw = self.context.layout.virtual_width
        return max(440.0, min(560.0, vw * 0.37))

    def parts_rect(self) -> pygame.Rect:
        """The card listing storage (the tutorial points here)."""
        return self.context.layout.rect(24, TOP, self.left_width(), self.list_height() + 60)

    def list_height(self) -> float:
        return self.context.layout.virtual_height - BOTTOM - 16 - 160 - TOP - 50

    def right_rect(self) -> pygame.Rect:
        layout = self.context.layout
        x = 24 + self.left_width() + 16
        return layout.rect(x, TOP, layout.virtual_width - x - 24, layout.virtual_height - TOP - BOTTOM - 16)

    def picture_rect(self) -> pygame.Rect:
        """Where the rocket is drawn: the left part of the right card."""
        right = self.right_rect()
        inner = right.inflate(-self.context.layout.px(24), -self.context.layout.px(16))
        inner.top = right.top + self.context.layout.px(44)
        inner.h = right.bottom - self.context.layout.px(10) - inner.top
        inner.w = int(inner.w * 0.6)
        return inner

    def report_rect(self) -> pygame.Rect:
        right = self.right_rect()
        picture = self.picture_rect()
        layout = self.context.layout
        left = picture.right + layout.px(14)
        return pygame.Rect(left, right.top + layout.px(14), right.right - layout.px(18) - left,
                           right.h - layout.px(28))

    def status_rect(self) -> pygame.Rect:
        """The strip between the bottom row's buttons where messages show (no widget there)."""
        layout = self.context.layout
        vw, vh = layout.virtual_width, layout.virtual_height
        left = 24 + 200 + 16 + 250 + 10 + 90 + 16
        return layout.rect(left, vh - 24 - 56, vw - 24 - 300 - 16 - left, 56)

    # ------------------------------------------------------------------ widgets
    def part_rows(self) -> list[tuple[str, str, str, str, str]]:
        """(kind of row, id, role, name, details) for every part in storage and every derp at home."""
        state = self.state
        comps = self.engine.rules.components
        stored = sorted(state.items_of(self.program),
                        key=lambda i: (comps.kind(state.thing(i.thing_id).kind).role != "lower_stage",
                                       state.thing(i.thing_id).kind, state.thing(i.thing_id).name, i.id))
        names = copy_labels(state, stored)
        rows = []
        for item in stored:
            thing = state.thing(item.thing_id)
            kind = comps.kind(thing.kind)
            rating = self.engine.item_rating(state, item)
            details = f"{in_sentence(kind.name)} · mass {thing.mass} · {rating}"
            if kind.role in ("capsule", "habitat"):
                details += f" · carries {formulas.capsule_capacity(thing.base_mass, comps)}"
            if kind.role == "underped":
                robot = next((d for d in state.derps if d.system == item.id), None)
                if robot is not None:
                    details = f"robot crew · mass {thing.mass} · {rating} · stamina {robot.stamina}"
            rows.append(("stage" if kind.role == "lower_stage" else "module", item.id, kind.role, names[item.id],
                         details))
        for derp in state.derps_of(self.program):
            if derp.location is HOME and not derp.is_system:  # a robot is loaded as its part
                why = "" if derp.can_fly else f" · {derp.busy or derp.condition}"
                rows.append(("crew", derp.id, "crew", derp.name,
                             f"Piloting {derp.piloting} · Engineering {derp.engineering} · Stamina {derp.stamina}{why}"))
        return rows

    def _row_image(self, role: str, name: str, details: str, size: tuple[int, int]) -> pygame.Surface:
        """A storage row's picture: the part as the rocket draws it, its name and what it is."""
        layout = self.context.layout
        image = pygame.Surface(size, pygame.SRCALPHA)
        icon = pygame.Rect(0, 0, layout.px(34), size[1])
        draw_part_icon(image, icon.inflate(-layout.px(4), -layout.px(6)), role,
                       program_colour(self.state.programs[self.program]), layout.scale)
        room = size[0] - icon.w - layout.px(6)
        name_font = fit_font(name, room, layout.px(17), bold=True, min_size=layout.px(11))
        detail_font = fit_font(details, room, layout.px(14), min_size=layout.px(10))
        total = name_font.get_linesize() + detail_font.get_linesize()
        y = (size[1] - total) // 2
        draw_text(image, name, name_font, INK, (icon.right + layout.px(4), y))
        draw_text(image, details, detail_font, INK_DIM, (icon.right + layout.px(4), y + name_font.get_linesize()))
        return image

    def build_ui(self) -> None:
        super().build_ui()
        self.rows, self.row_images = {}, {}
        self._picture_key = None
        layout, manager = self.context.layout, self.context.manager
        vw, vh = layout.virtual_width, layout.virtual_height
        left_w = self.left_width()
        list_h = self.list_height()
        scroll = pygame_gui.elements.UIScrollingContainer(layout.rect(36, TOP + 50, left_w - 24, list_h), manager,
                                                          container=self.root, allow_scroll_x=False)
        self.scroll = scroll
        inner_w = left_w - 24 - 20
        y = 0
        for kind, some_id, role, name, details in self.part_rows():
            if kind == "stage":
                choices = [("stage", "Stage")] if self.simplified else [("launch", "Launch"), ("insert", "Insertion")]
            elif kind == "module":
                choices = [("aboard", "Aboard")]
            else:
                choices = [("crew", "Crew")]
            button_w = 96
            buttons_w = (button_w + 6) * len(choices)
            size = (layout.px(inner_w - buttons_w - 6), layout.px(ROW_H - 6))
            image = pygame_gui.elements.UIImage(layout.rect(0, y, inner_w - buttons_w - 6, ROW_H - 6),
                                                self._row_image(role, name, details, size), manager,
                                                container=scroll, object_id="#part_row")
            self.row_images[some_id] = (kind, image)
            self._explain_row(image, kind, some_id)
            for n, (choice, label) in enumerate(choices):
                key = f"pick:{choice}:{some_id}"
                button = self.add_button(key, layout.rect(inner_w - buttons_w + n * (button_w + 6), y + 2, button_w,
                                                          ROW_H - 10), label, container=scroll)
                self.rows[key] = some_id
                if choice in CHOICE_TERMS:
                    glossary.attach(button, CHOICE_TERMS[choice], self.engine.rules, layout)
            y += ROW_H
        scroll.set_scrollable_area_dimensions((layout.px(inner_w), max(1, layout.px(y))))
        # steppers and the name
        base_y = TOP + 50 + list_h + 14
        third = (left_w - 24) / 3
        for n, (key, _label) in enumerate(STEPPERS):
            x = 36 + n * third
            self.add_button(f"step:{key}:-1", layout.rect(x, base_y + 30, 40, 40), "-")
            self.add_button(f"step:{key}:1", layout.rect(x + third - 54, base_y + 30, 40, 40), "+")
        self.name_entry = pygame_gui.elements.UITextEntryLine(layout.rect(36 + 80, base_y + 90, left_w - 24 - 80, 42),
                                                              manager, container=self.root, object_id="#upgoer_name")
        self.name_entry.set_text_length_limit(UPGOER_NAME_MAX)  # as saves allow
        self.name_entry.set_text(self.design_name)
        self.add_button("back", layout.rect(24, vh - 24 - 56, 200, 56), "Back to R&D", "@menu_button")
        self.add_button("suggest", layout.rect(240, vh - 24 - 52, 250, 48), "Start from a suggestion")
        self.add_button("clear", layout.rect(500, vh - 24 - 52, 90, 48), "Clear")
        self.add_button("rollout", layout.rect(vw - 24 - 300, vh - 24 - 56, 300, 56), "Roll out to the pad",
                        "@menu_button")
        self._glossary_spots(left_w, base_y)
        self.sync_buttons()

    # ------------------------------------------------------------------ rule words explained on hover
    def _explain_row(self, element, kind: str, some_id: str) -> None:
        """A part's row explains its kind (and reusable); a derp's row the three numbers."""
        rules = self.engine.rules
        if kind == "crew":
            glossary.attach(element, ["skills"], rules, self.context.layout)
            return
        thing = self.state.thing(self.state.find("item", some_id).thing_id)
        role = rules.components.kind(thing.kind).role
        terms = [ROLE_TERMS[role]] if role in ROLE_TERMS else []
        if thing.reusable:
            terms.append("reusable")
        if terms:
            glossary.attach(element, terms, rules, self.context.layout)

    def _glossary_spots(self, left_w: float, base_y: float) -> None:
        """Hover spots over the drawn words: the steppers' names and the report's heading."""
        layout, rules = self.context.layout, self.engine.rules
        self.term_spots = []
        for n, (words, terms) in enumerate((("Fuel", ("fuel",)), ("Rations", ("rations",)),
                                            ("Planned burns", ("burn",)))):
            x = 36 + n * ((left_w - 24) / 3)
            rect = layout.rect(x, base_y, (left_w - 24) / 3 - 10, 26)
            self.term_spots.append((words, glossary.hotspot(rect, terms, rules, self.context, self.root)))
        right = self.right_rect()
        heading = pygame.Rect(right.left + layout.px(16), right.top + layout.px(10), layout.px(200), layout.px(30))
        self.term_spots.append(("Design report", glossary.hotspot(heading, ("lower stage", "cluster"), rules,
                                                                   self.context, self.root)))

    def sync_buttons(self) -> None:
        """Selected states follow the design; Roll out is enabled only for a valid design."""
        for key, some_id in self.rows.items():
            button = self.buttons.get(key)
            if button is None:
                continue
            choice = key.split(":")[1]
            on = ((choice in ("launch", "stage") and self.stage_of.get(some_id) == 0)
                  or (choice == "insert" and self.stage_of.get(some_id) == 1)
                  or (choice == "aboard" and some_id in self.modules)
                  or (choice == "crew" and some_id in self.crew))
            button.select() if on else button.unselect()
        if "rollout" in self.buttons:
            valid = self.report().valid and bool(self.design().name)
            self.buttons["rollout"].enable() if valid else self.buttons["rollout"].disable()

    # ------------------------------------------------------------------ changing the design
    def pick(self, choice: str, some_id: str) -> None:
        """A row's button: put the part there, or take it out if it is already there."""
        if choice in ("launch", "insert", "stage"):
            level = 1 if choice == "insert" else 0
            if self.stage_of.get(some_id) == level:
                del self.stage_of[some_id]
            else:
                self.stage_of[some_id] = level
        elif choice == "aboard":
            self.modules.remove(some_id) if some_id in self.modules else self.modules.append(some_id)
        elif choice == "crew":
            self.crew.remove(some_id) if some_id in self.crew else self.crew.append(some_id)
        self.sync_buttons()

    def put_on(self, kind: str, some_id: str, slot: Optional[str]) -> None:
        """A part dropped on the rocket: a lower stage into ``slot`` (launch, insert or stage), anything else aboard."""
        if kind == "stage":
            self.stage_of[some_id] = 1 if slot == "insert" else 0
        elif kind == "module" and some_id not in self.modules:
            self.modules.append(some_id)
        elif kind == "crew" and some_id not in self.crew:
            self.crew.append(some_id)
        self.sync_buttons()

    def take_off(self, kind: str, some_id: str) -> None:
        """A part dragged off the rocket goes back to storage (fuel and rations back home)."""
        if kind == "stage":
            self.stage_of.pop(some_id, None)
        elif kind == "module" and some_id in self.modules:
            self.modules.remove(some_id)
        elif kind == "crew" and some_id in self.crew:
            self.crew.remove(some_id)
        elif kind == "fuel":
            self.fuel = 0
        elif kind == "rations":
            self.rations = 0
        self.sync_buttons()

    def step_size(self, name: str) -> int:
        """How much one press of a stepper adds: rations go aboard a whole container at a time."""
        if name == "rations":
            return formulas.ration_load(1, self.engine.rules.components)
        return 1

    def step_limit(self, name: str) -> int:
        """The most a stepper may show: the fuel and the whole ration containers at home; ten planned burns."""
        program = self.state.programs[self.program]
        rations = formulas.ration_load(program.rations_stock, self.engine.rules.components, up=False)
        return {"fuel": program.fuel_stock, "rations": rations}.get(name, 10)

    def roll_out(self) -> bool:
        """Assemble through the session; the engine's reason is shown when the design cannot fly."""
        return self.flow.act(Assemble(self.design()), self)

    def suggest(self) -> None:
        designs = flyable_suggestions(self.engine, self.state, self.program, self.design().name or self.design_name)
        if not designs:
            self.toast("No suggestion yet: a flying Upgoer needs a capsule and a lower stage that can lift it.",
                       "warn")
            return
        self.suggestion = (self.suggestion + 1) % len(designs)
        self.load_design(designs[self.suggestion])
        self.toast(f"Suggestion {self.suggestion + 1} of {len(designs)}.", "info")

    def on_button(self, key: str) -> None:
        kind, _, rest = key.partition(":")
        if kind == "pick":
            choice, some_id = rest.split(":", 1)
            self.pick(choice, some_id)
        elif kind == "step":
            name, delta = rest.rsplit(":", 1)
            step = self.step_size(name)
            setattr(self, name, max(0, min(self.step_limit(name), getattr(self, name) + int(delta) * step)))
            self.sync_buttons()
        elif key == "suggest":
            self.suggest()
        elif key == "clear":
            self.load_design(UpgoerDesign(name=self.design().name))
        elif key == "back":
            self.context.back()
        elif key == "rollout":
            self.roll_out()

    # ------------------------------------------------------------------ dragging
    def picture(self) -> RocketPicture:
        """The rocket as laid out now (laid out again only when the design or the window changes)."""
        key = (self.design(), self.context.layout.size, id(self.state))
        if key != self._picture_key or self._picture is None:
            self._picture = rocket_picture(self.picture_rect(), self.engine, self.state, self.design(), self.program,
                                           self.context.layout.scale)
            self._picture_key = key
        return self._picture

    def _row_at(self, pos) -> Optional[tuple[str, str]]:
        if self.scroll is None or not self.scroll.rect.collidepoint(pos):
            return None
        for some_id, (kind, image) in self.row_images.items():
            if image.alive() and image.rect.collidepoint(pos):
                return kind, some_id
        return None

    def handle_event(self, event) -> bool:
        if event.type == pygame_gui.UI_TEXT_ENTRY_CHANGED and event.ui_element is self.name_entry:
            self.sync_buttons()
            return True
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            row = self._row_at(event.pos)
            if row is not None:
                self.press = ("row", row[0], row[1], event.pos)
                return True
            piece = self.picture().piece_at(event.pos)
            if piece is not None:
                self.press = ("rocket", piece.kind, piece.key, event.pos)
                return True
        if event.type == pygame.MOUSEMOTION and self.press is not None:
            where, kind, some_id, start = self.press
            if self.dragging is None and max(abs(event.pos[0] - start[0]), abs(event.pos[1] - start[1])) >= \
                    DRAG_START_PX:
                self.dragging = (where, kind, some_id)
                self._show_drag(True)
            self.drag_pos = event.pos
            return self.dragging is not None
        if event.type == pygame.MOUSEBUTTONUP and event.button == 1 and self.press is not None:
            dragging, self.dragging, self.press = self.dragging, None, None
            self._show_drag(False)
            if dragging is not None:
                self.drop(dragging, event.pos)
                return True
        return super().handle_event(event)

    def drop(self, dragging: tuple[str, str, str], pos) -> None:
        """Let go of a dragged part at ``pos``: on the rocket it goes aboard, off it comes out."""
        where, kind, some_id = dragging
        picture = self.picture()
        on_rocket = picture.rect.collidepoint(pos)
        if on_rocket:
            self.put_on(kind, some_id, picture.stage_zone_at(pos) if kind == "stage" else None)
        elif where == "rocket":
            self.take_off(kind, some_id)

    def _show_drag(self, on: bool) -> None:
        layers = self.context.app.layers
        if on and self._drag_layer not in layers:
            layers.append(self._drag_layer)
        elif not on and self._drag_layer in layers:
            layers.remove(self._drag_layer)

    def clear_ui(self) -> None:
        """Leaving or being covered ends a drag."""
        self.dragging, self.press = None, None
        self._show_drag(False)
        super().clear_ui()

    def on_key(self, event) -> bool:
        if event.key == pygame.K_ESCAPE:
            if self.dragging is not None:
                self.dragging, self.press = None, None
                self._show_drag(False)
                return True
            self.context.back()
            return True
        return super().on_key(event)

    # ------------------------------------------------------------------ the report in words
    def report_lines(self) -> list[tuple[str, tuple, bool]]:
        """The design report in words, (text, colour, bold): the stages and capsules are on the picture,
        so these are the totals, the fuel plan and every reason the design cannot fly yet."""
        r = self.report()
        ok, bad = BAND_COLOURS["ok"], ACCENT_HOT
        lines: list[tuple[str, tuple, bool]] = []
        if not r.stages:
            lines.append(("No lower stage yet: drag one onto the rocket.", INK_DIM, False))
        without = f" ({mass_text(r.dry_mass)} without fuel)" if self.fuel else ""
        lines.append((f"Spacecraft mass {mass_text(r.spacecraft_mass)}{without}; whole Upgoer mass "
                      f"{mass_text(r.total_mass)}.",
                      INK, False))
        lines.append((f"Thrusters: {THRUST_WORDS.get(r.thrust_class, r.thrust_class)}.",
                      bad if r.thrust_class == "too_small" else INK_DIM, False))
        if self.burns:
            costs = ", ".join(str(c) for c in r.burn_costs) or "none"
            lines.append((f"Fuel per planned burn: {costs}. {counted(self.burns, 'burn')} need "
                          f"{r.fuel_for_planned_burns} fuel (worked back from the mass without fuel); "
                          f"{self.fuel} aboard.",
                          ok if self.fuel >= r.fuel_for_planned_burns else BAND_COLOURS["fail"], False))
        for note in r.notes:
            lines.append((_sentence(player_words(self.state, note)), BAND_COLOURS["fail"], False))
        if r.problems:
            lines.append(("Why it cannot fly yet:", bad, True))
            for problem in r.problems:
                lines.append(("- " + _sentence(player_words(self.state, problem)), bad, False))
        elif not self.design().name:
            lines.append(("Give the Upgoer a name.", bad, True))
        else:
            lines.append(("Ready to roll out to the pad!", ok, True))
        return lines

    # ------------------------------------------------------------------ drawing
    def draw_toast(self, surface: pygame.Surface) -> None:
        if self.toast_time > 0 and self.toast_text:
            draw_status(surface, self.status_rect(), self.toast_text, self.toast_kind, self.context.layout)

    def drag_look(self) -> tuple:
        """What a drag changes on the picture: the piece lifted off it, the stage slot under the pointer, or the
        rocket lit up as the place to drop a part from storage."""
        if self.dragging is None:
            return ()
        over = self.picture().rect.collidepoint(self.drag_pos)
        zone = self.picture().stage_zone_at(self.drag_pos) if over and self.dragging[1] == "stage" else None
        return (self.dragging, over, zone)

    def still_key(self) -> tuple:
        """The design (its name as typed) and a drag."""
        return (self.design(), self.drag_look())

    def draw_content(self, surface: pygame.Surface) -> None:
        layout = self.context.layout
        program = self.state.programs[self.program]
        self.draw_header(surface, "Assemble an Upgoer", program, program.name)
        left = self.parts_rect()
        left.h = layout.px(layout.virtual_height - TOP - BOTTOM - 16)
        draw_card(surface, left, layout)
        head = font_px(layout.px(20), True)
        title = ("Storage: drag a part onto the rocket" if self.rows
                 else "Nothing in storage: build parts in R&D first")
        draw_text(surface, title, fit_font(title, left.w - layout.px(32), layout.px(20), bold=True), ACCENT_LIGHT,
                  (left.left + layout.px(16), left.top + layout.px(12)))
        base_y = TOP + 50 + self.list_height() + 14
        third = (self.left_width() - 24) / 3
        value_font = font_px(layout.px(20), True)
        p = self.state.programs[self.program]
        for n, (key, label) in enumerate((("fuel", f"Fuel ({p.fuel_stock} home)"),
                                          ("rations", f"Rations ({p.rations_stock} home)"),
                                          ("burns", "Planned burns"))):
            x = 36 + n * third
            draw_text(surface, label, fit_font(label, layout.px(third - 10), layout.px(16), bold=True),
                      INK_DIM, (layout.px(x), layout.px(base_y + 4)))
            draw_text(surface, str(getattr(self, key)), value_font, INK,
                      (layout.px(x + (third - 14) / 2), layout.px(base_y + 50)), anchor="center")
        draw_text(surface, "Name", font_px(layout.px(16), True), ACCENT_LIGHT, (layout.px(36), layout.px(base_y + 111)),
                  anchor="midleft")
        right = self.right_rect()
        draw_card(surface, right, layout)
        draw_text(surface, "Design report", head, ACCENT_LIGHT, (right.left + layout.px(16), right.top + layout.px(12)))
        picture = self.picture()
        hidden = self.dragging[2] if self.dragging and self.dragging[0] == "rocket" else None
        zone = None
        if self.dragging is not None and self.dragging[1] == "stage" and picture.rect.collidepoint(self.drag_pos):
            zone = picture.stage_zone_at(self.drag_pos)
        elif self.dragging is not None and self.dragging[0] == "row" and picture.rect.collidepoint(self.drag_pos):
            pygame.draw.rect(surface, ACCENT_LIGHT, picture.rect, max(1, layout.px(2)), border_radius=layout.px(10))
        paint(surface, picture, self.engine, self.state, self.program, layout.scale, hidden=hidden, zone=zone)
        if not picture.pieces:
            hint = "Drag parts here from storage, or use their buttons."
            draw_wrapped(surface, hint, font_px(layout.px(16)), INK_DIM,
                         picture.rect.inflate(-layout.px(40), 0).move(layout.px(20), picture.rect.h // 3), 3)
        box = self.report_rect()
        y = box.top + layout.px(30)
        for text, colour, bold in self.report_lines():
            font = font_px(layout.px(15), bold)
            y = draw_wrapped(surface, text, font, colour, pygame.Rect(box.left, y, box.w, box.bottom - y), 99)
            y += layout.px(5)

    def _draw_drag(self, surface: pygame.Surface) -> None:
        """The part under the pointer while it is dragged, and what letting go will do."""
        if self.dragging is None:
            return
        layout = self.context.layout
        where, kind, some_id = self.dragging
        picture = self.picture()
        on_rocket = picture.rect.collidepoint(self.drag_pos)
        if kind in ("fuel", "rations"):
            name, role = kind.capitalize(), kind
        elif kind == "crew":
            name, role = self.state.derp(some_id).name, "crew"
        else:
            thing = self.state.thing(self.state.item(some_id).thing_id)
            name, role = thing.name, self.engine.rules.components.kind(thing.kind).role
        if where == "rocket":
            action = "stays aboard" if on_rocket else "let go here to take it off"
        elif kind == "stage":
            slot = picture.stage_zone_at(self.drag_pos) if on_rocket else None
            action = {"launch": "launch stage", "insert": "insertion stage", "stage": "the lower stage"}.get(
                slot, "drop it on the rocket")
        else:
            action = "aboard" if on_rocket else "drop it on the rocket"
        text = f"{name}: {action}"
        font = font_px(layout.px(16), True)
        chip = pygame.Rect(0, 0, font.size(text)[0] + layout.px(48), layout.px(36))
        chip.midleft = (self.drag_pos[0] + layout.px(14), self.drag_pos[1])
        chip.clamp_ip(surface.get_rect())
        pygame.draw.rect(surface, CARD, chip, border_radius=layout.px(10))
        pygame.draw.rect(surface, ACCENT_LIGHT, chip, max(1, layout.px(2)), border_radius=layout.px(10))
        draw_part_icon(surface, pygame.Rect(chip.left + layout.px(4), chip.top + layout.px(3), layout.px(32),
                                            chip.h - layout.px(6)), role,
                       program_colour(self.state.programs[self.program]), layout.scale)
        draw_text(surface, text, font, INK, (chip.left + layout.px(40), chip.centery), anchor="midleft")


def _sentence(text: str) -> str:
    text = text.strip()
    return (text[0].upper() + text[1:] + ("" if text.endswith(".") else ".")) if text else text
