"""Assembly: put an Upgoer together from the parts in storage, with the engine's design report live.

Lower stages go into the launch or the orbital insertion cluster (one stage with Simplified Stack);
capsules, habitats, thrusters, payloads and RCS go aboard the spacecraft; healthy derps at home can
crew it; fuel, rations and planned burns are steppers. The report on the right is
``engine.check_design``: every stage's lift against what it carries, capsule capacity against load,
thrust class, the fuel each planned burn costs and the fuel needed worked backwards, and every
problem in words. "Roll out to the pad" is enabled only when the design is valid.
"""
from __future__ import annotations

from fractions import Fraction
from typing import Optional

import pygame
import pygame_gui

from game.games.whatgoesup.rules.actions import Assemble
from game.games.whatgoesup.rules.state import HOME, UpgoerDesign

from game.client.whatgoesup import glossary
from game.client.scenes.game_scene import GameScene
from game.client.kit.text import draw_wrapped
from game.client.kit.style import ACCENT_HOT, ACCENT_LIGHT, BAND_COLOURS, INK, INK_DIM, draw_card, draw_text, fit_font, font_px

TOP = 84
ROW_H = 44
#: Glossary terms for a part's role, and for the buttons that put a part somewhere.
ROLE_TERMS = {"lower_stage": "lower stage", "capsule": "capsule", "habitat": "habitat", "thruster": "thruster",
              "rcs": "RCS", "payload": "payload", "fuel": "fuel", "rations": "rations"}
CHOICE_TERMS = {"launch": ("launch", "lower stage"), "insert": ("orbital insertion", "cluster"),
                "stage": ("lower stage",)}
THRUST_WORDS = {"none": "no thrusters (no burns possible)", "too_small": "too weak for these capsules",
                "orbital": "orbital burns", "lunar": "can land on the Moon",
                "planetary": "can land home in one reusable piece"}


def fitted(text: str, font, width: int) -> str:
    """``text`` shortened with an ellipsis until it fits ``width`` pixels in ``font``."""
    if font is None or font.size(text)[0] <= width:
        return text
    while len(text) > 1 and font.size(text + "…")[0] > width:
        text = text[:-1]
    return text.rstrip(" ·") + "…"


def _mass(value) -> str:
    value = Fraction(value)
    return str(value.numerator) if value.denominator == 1 else f"{float(value):g}"


class AssemblyScene(GameScene):
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
        self.rows: dict[str, str] = {}  # button key -> item/derp id
        self.term_spots: list = []  # (words, invisible widget whose tooltip explains them)
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

    # ------------------------------------------------------------------ widgets
    def part_rows(self) -> list[tuple[str, str, str]]:
        """(kind of row, id, text) for every part in storage and every derp at home."""
        state = self.state
        rows = []
        stored = sorted(state.items_of(self.program),
                        key=lambda i: (self.engine.rules.components.kind(state.thing(i.thing_id).kind).role != "lower_stage",
                                       state.thing(i.thing_id).kind, i.id))
        for item in stored:
            thing = state.thing(item.thing_id)
            kind = self.engine.rules.components.kind(thing.kind)
            rating = self.engine.item_rating(state, item)
            rows.append(("stage" if kind.role == "lower_stage" else "module", item.id,
                         f"{thing.name} · {kind.name.lower()} · mass {thing.mass} · {rating}"))
        for derp in state.derps_of(self.program):
            if derp.location is HOME:
                why = "" if derp.can_fly else f" - {derp.busy or derp.condition}"
                rows.append(("crew", derp.id, f"{derp.name} {derp.piloting}/{derp.engineering}/{derp.stamina}{why}"))
        return rows

    def build_ui(self) -> None:
        super().build_ui()
        self.rows = {}
        layout, manager = self.context.layout, self.context.manager
        vw, vh = layout.virtual_width, layout.virtual_height
        left_w = max(560.0, vw * 0.5) - 36
        list_h = self.list_height()
        scroll = pygame_gui.elements.UIScrollingContainer(layout.rect(36, TOP + 50, left_w - 24, list_h), manager,
                                                          container=self.root, allow_scroll_x=False)
        inner_w = left_w - 24 - 20
        y = 0
        for kind, some_id, text in self.part_rows():
            if kind == "stage":
                choices = [("stage", "Stage")] if self.simplified else [("launch", "Launch"), ("insert", "Insertion")]
            elif kind == "module":
                choices = [("aboard", "Aboard")]
            else:
                choices = [("crew", "Crew")]
            buttons_w = 112 * len(choices)
            label = pygame_gui.elements.UILabel(layout.rect(0, y, inner_w - buttons_w - 8, ROW_H - 6), "", manager,
                                                container=scroll, object_id="#part_label")
            label.set_text(fitted(text, label.font, label.rect.w - 8))
            self._explain_row(label, kind, some_id)
            for n, (choice, label) in enumerate(choices):
                key = f"pick:{choice}:{some_id}"
                button = self.add_button(key, layout.rect(inner_w - buttons_w + n * 112, y, 106, ROW_H - 6), label,
                                         container=scroll)
                self.rows[key] = some_id
                if choice in CHOICE_TERMS:
                    glossary.attach(button, CHOICE_TERMS[choice], self.engine.rules, layout)
            y += ROW_H
        scroll.set_scrollable_area_dimensions((layout.px(inner_w), max(1, layout.px(y))))
        # steppers, the name and the suggestion
        base_y = TOP + 50 + list_h + 14
        for n, (key, label) in enumerate((("fuel", "Fuel"), ("rations", "Rations"), ("burns", "Planned burns"))):
            x = 36 + n * ((left_w - 24) / 3)
            self.add_button(f"step:{key}:-1", layout.rect(x + 0, base_y + 30, 40, 40), "-")
            self.add_button(f"step:{key}:1", layout.rect(x + 112, base_y + 30, 40, 40), "+")
        self.name_entry = pygame_gui.elements.UITextEntryLine(layout.rect(36 + 100, base_y + 90, left_w - 24 - 100, 42),
                                                              manager, container=self.root, object_id="#upgoer_name")
        self.name_entry.set_text_length_limit(30)
        self.name_entry.set_text(self.design_name)
        self.add_button("suggest", layout.rect(240, vh - 24 - 52, 260, 48), "Start from a suggestion")
        self.add_button("clear", layout.rect(510, vh - 24 - 52, 110, 48), "Clear")
        self.add_button("back", layout.rect(24, vh - 24 - 56, 200, 56), "Back to R&D", "@menu_button")
        self.add_button("rollout", layout.rect(vw - 24 - 300, vh - 24 - 56, 300, 56), "Roll out to the pad",
                        "@menu_button")
        self._glossary_spots(left_w, base_y)
        self.sync_buttons()

    # ------------------------------------------------------------------ rule words explained on hover
    def _explain_row(self, label, kind: str, some_id: str) -> None:
        """A part's row explains its kind (and reusable); a derp's row the three numbers."""
        rules = self.engine.rules
        if kind == "crew":
            glossary.attach(label, ["skills"], rules, self.context.layout)
            return
        thing = self.state.thing(self.state.find("item", some_id).thing_id)
        terms = [ROLE_TERMS[rules.components.kind(thing.kind).role]] if rules.components.kind(
            thing.kind).role in ROLE_TERMS else []
        if thing.reusable:
            terms.append("reusable")
        if terms:
            glossary.attach(label, terms, rules, self.context.layout)

    def _glossary_spots(self, left_w: float, base_y: float) -> None:
        """Hover spots over the drawn words: the steppers' names and the report's heading."""
        layout, rules = self.context.layout, self.engine.rules
        self.term_spots = []
        for n, (words, terms) in enumerate(((("Fuel"), ("fuel",)), ("Rations", ("rations",)),
                                            ("Planned burns", ("burn",)))):
            x = 36 + n * ((left_w - 24) / 3)
            rect = layout.rect(x, base_y, (left_w - 24) / 3 - 10, 26)
            self.term_spots.append((words, glossary.hotspot(rect, terms, rules, self.context, self.root)))
        vw = layout.virtual_width
        right = layout.rect(24 + left_w + 16, TOP, vw - (24 + left_w + 16) - 24, 60)
        heading = pygame.Rect(right.left + layout.px(20), right.top + layout.px(12), layout.px(200), layout.px(30))
        self.term_spots.append(("Design report", glossary.hotspot(heading, ("lower stage", "cluster"), rules,
                                                                   self.context, self.root)))

    def list_height(self) -> float:
        return self.context.layout.virtual_height - 100 - 160 - TOP - 50

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

    def pick(self, choice: str, some_id: str) -> None:
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

    def roll_out(self) -> bool:
        """Assemble through the session; the engine's reason is shown when the design cannot fly."""
        return self.flow.act(Assemble(self.design()), self)

    def on_button(self, key: str) -> None:
        kind, _, rest = key.partition(":")
        if kind == "pick":
            choice, some_id = rest.split(":", 1)
            self.pick(choice, some_id)
        elif kind == "step":
            name, delta = rest.rsplit(":", 1)
            setattr(self, name, max(0, getattr(self, name) + int(delta)))
            self.sync_buttons()
        elif key == "suggest":
            designs = self.engine.suggested_designs(self.state, self.program)
            if not designs:
                self.toast("No suggestion: build at least one lower stage first.", "warn")
                return
            self.suggestion = (self.suggestion + 1) % len(designs)
            self.load_design(designs[self.suggestion])
            self.toast(f"Suggestion {self.suggestion + 1} of {len(designs)}.", "info")
        elif key == "clear":
            self.load_design(UpgoerDesign(name=self.design().name))
        elif key == "back":
            self.context.back()
        elif key == "rollout":
            self.roll_out()

    def handle_event(self, event) -> bool:
        if event.type == pygame_gui.UI_TEXT_ENTRY_CHANGED and event.ui_element is self.name_entry:
            self.sync_buttons()
            return True
        return super().handle_event(event)

    def on_key(self, event) -> bool:
        if event.key == pygame.K_ESCAPE:
            self.context.back()
            return True
        return super().on_key(event)

    # ------------------------------------------------------------------ drawing
    def report_lines(self) -> list[tuple[str, tuple, bool]]:
        """The design report in words: (text, colour, bold)."""
        r = self.report()
        ok, bad = BAND_COLOURS["ok"], ACCENT_HOT
        lines: list[tuple[str, tuple, bool]] = []
        labels = ["Lower stage"] if len(r.stages) == 1 else ["Launch stage", "Insertion stage"]
        for label, stage in zip(labels, r.stages):
            if not stage.items:
                continue
            mark = "OK" if stage.ok else "too weak"
            lines.append((f"{label}: lifts {stage.lift}, must carry {_mass(stage.carries)} ({mark}); "
                          f"own mass {stage.mass}", ok if stage.ok else bad, False))
        if not r.stages:
            lines.append(("No lower stage yet: pick one on the left.", INK_DIM, False))
        load_ok = r.load <= r.capacity
        lines.append((f"Capsules carry {r.capacity}; load {_mass(r.load)} (crew, payloads, RCS, rations)",
                      ok if load_ok else bad, False))
        lines.append((f"Thrusters mass {r.thruster_mass} for {r.capsule_mass} of capsules: "
                      f"{THRUST_WORDS.get(r.thrust_class, r.thrust_class)}",
                      bad if r.thrust_class == "too_small" else INK, False))
        lines.append((f"Spacecraft {_mass(r.spacecraft_mass)} (dry {_mass(r.dry_mass)}); whole Upgoer "
                      f"{_mass(r.total_mass)}", INK, False))
        if self.burns:
            costs = ", ".join(str(c) for c in r.burn_costs) or "none"
            lines.append((f"Fuel per planned burn: {costs}. {self.burns} burn(s) need {r.fuel_for_planned_burns} "
                          f"fuel (worked back from the dry mass); {self.fuel} aboard.",
                          ok if self.fuel >= r.fuel_for_planned_burns else BAND_COLOURS["fail"], False))
        for note in r.notes:
            lines.append((note[0].upper() + note[1:] + ".", BAND_COLOURS["fail"], False))
        if r.problems:
            lines.append(("Why it cannot fly yet:", bad, True))
            for problem in r.problems:
                lines.append(("- " + problem[0].upper() + problem[1:] + ".", bad, False))
        elif not self.design().name:
            lines.append(("Give the Upgoer a name.", bad, True))
        else:
            lines.append(("Ready to roll out to the pad!", ok, True))
        return lines

    def draw_content(self, surface: pygame.Surface) -> None:
        layout = self.context.layout
        program = self.state.programs[self.program]
        self.draw_header(surface, "Assemble an Upgoer", program, program.name)
        vw, vh = layout.virtual_width, layout.virtual_height
        left_w = max(560.0, vw * 0.5) - 36
        left = layout.rect(24, TOP, left_w, vh - TOP - 100)
        draw_card(surface, left, layout)
        head = font_px(layout.px(20), True)
        title = "Parts in storage and derps at home" if self.rows else "Nothing in storage: build parts in R&D first"
        draw_text(surface, title, fit_font(title, left.w - layout.px(40), layout.px(20), bold=True), ACCENT_LIGHT,
                  (left.left + layout.px(16), left.top + layout.px(12)))
        list_h = self.list_height()
        base_y = TOP + 50 + list_h + 14
        value_font = font_px(layout.px(20), True)
        small = font_px(layout.px(16), True)
        p = self.state.programs[self.program]
        for n, (key, label) in enumerate((("fuel", f"Fuel ({p.fuel_stock} home)"),
                                          ("rations", f"Rations ({p.rations_stock} home)"),
                                          ("burns", "Planned burns"))):
            x = 36 + n * ((left_w - 24) / 3)
            draw_text(surface, label, fit_font(label, layout.px((left_w - 24) / 3 - 10), layout.px(16), bold=True),
                      INK_DIM, (layout.px(x), layout.px(base_y + 4)))
            draw_text(surface, str(getattr(self, key)), value_font, INK, (layout.px(x + 76), layout.px(base_y + 50)),
                      anchor="center")
        draw_text(surface, "Name", small, ACCENT_LIGHT, (layout.px(36), layout.px(base_y + 111)), anchor="midleft")
        right = layout.rect(24 + left_w + 16, TOP, vw - (24 + left_w + 16) - 24, vh - TOP - 100)
        draw_card(surface, right, layout)
        inner = right.inflate(-layout.px(40), -layout.px(32))
        draw_text(surface, "Design report", head, ACCENT_LIGHT, inner.topleft)
        y = inner.top + layout.px(36)
        for text, colour, bold in self.report_lines():
            font = font_px(layout.px(17), bold)
            y = draw_wrapped(surface, text, font, colour, pygame.Rect(inner.left, y, inner.w, inner.bottom - y), 3)
            y += layout.px(5)
