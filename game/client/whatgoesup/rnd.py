"""R&D: one program's manifest and everything it can spend points on this turn.

The left half is the manifest (points, dots, luck, stock, blueprints, parts, derps, Upgoers on the
pad). The right half has a tab per kind of work; each form shows what the action will cost and do
before it is committed, and the engine's reason when it is not allowed. Every action goes through
``flow.act``; a refusal is shown as a message, never dropped.
"""
from __future__ import annotations

from fractions import Fraction
from typing import Optional

import pygame
import pygame_gui

from game.games.whatgoesup.rules import formulas
from game.games.whatgoesup.rules.actions import (Action, Build, BuyConsumables, Disassemble, Heal, Hire, Invent, Research,
                                ReverseEngineer, Train)
from game.games.whatgoesup.rules.underped_actions import Program as ProgramSystem, WriteOrders
from game.games.whatgoesup.rules.flight_actions import Track
from game.games.whatgoesup.rules.flight.common import NEVER
from game.games.whatgoesup.rules.reliability import Outcome, Rating, outcome_odds
from game.games.whatgoesup.rules.limits import DERP_NAME_MAX, PART_NAME_MAX
from game.games.whatgoesup.rules.state import HOME, SKILLS

from game.client.scenes.game_scene import GameScene
from game.client.scenes.still_scene import StillScene
from game.client.scenes.dice import percent_text
from game.client.whatgoesup.names import copy_labels
from game.client.kit.text import draw_wrapped, html_escape
from game.client.kit.draw import colour_hex, program_colour
from game.client.kit.paged_text import TEXT_BOX_BAR, PagedText
from game.client.kit.widgets import draw_status, fitted_dropdown
from game.client.kit.words import counted, in_sentence, noun_for
from game.client.kit.style import (ACCENT_HOT, ACCENT_LIGHT, BAND_COLOURS, CARD, INK, INK_DIM, draw_card, draw_text, fit_font,
                    font_px, wrap_text)

TABS = (("invent", "Invent"), ("research", "Research"), ("build", "Build"), ("supplies", "Supplies"),
        ("derps", "Derps"), ("other", "Other"))
TOP = 76
BOTTOM_BAR = 80
#: Words on the R&D screen that the glossary explains on hover (label or button text -> glossary terms).
TERMS = {"Blueprint": ("blueprint", "rating"), "Fuel": ("fuel",), "Rations": ("rations",), "Track debris": ("debris",),
         "Improve": ("Fail safety", "Boom safety"), "Fail to OK": ("Fail safety",), "Boom to Fail": ("Boom safety",),
         "Reusable": ("reusable",), "Piloting": ("Piloting",), "Engineering": ("Engineering",),
         "Stamina": ("stamina",), "Points": ("points",), "Dots": ("dots", "budget"), "Luck": ("luck",),
         "Next turn": ("points",), "Program": ("programming", "underped system")}
#: Which terms the preview under each tab explains.
PREVIEW_TERMS = {"invent": ("rating", "technology transfer"), "research": ("research cap",), "build": ("blueprint",)}
ROW = 50
LABEL_W = 130
PAD_WORDS_MIN_UNITS = 13  # the Other tab: the words beside the Upgoer on the pad stay at least this big


def starting_mass(rules, kind_id: str) -> int:
    """A sensible first mass for a new thing of this kind: a capsule for one derp, a thruster that pushes it,
    a lower stage that lifts both; a kind with a fixed mass has that."""
    comps = rules.components
    kind = comps.kind(kind_id)
    if kind.fixed_mass:
        return kind.fixed_mass
    capsule = formulas.capsule_mass_for_capacity(rules.economy.derps.mass, comps)
    if kind.role in ("capsule", "habitat"):
        return capsule
    if kind.role == "thruster":
        return max(1, formulas.required_thruster_mass(capsule, comps.thruster.min_ratio))
    if kind.role == "lower_stage":
        return capsule + rules.economy.derps.mass
    return 1


class RnDScene(StillScene, GameScene):
    name = "rnd"
    flow_main = True

    def __init__(self, context, flow, program: int) -> None:
        super().__init__(context, flow)
        self.program = program
        self.tab = "invent"
        engine = flow.session.engine
        kinds = [k for k in engine.rules.components.kinds if k.invented and engine.kind_in_play(flow.session.state, k.id)]
        self.form: dict[str, object] = {
            "kind": kinds[0].id if kinds else "",
            "mass": starting_mass(engine.rules, kinds[0].id) if kinds else 1, "reusable": False,
            "r_thing": "", "r_safety": "fail", "r_steps": 1, "b_thing": "", "b_count": 1,
            "fuel": 1, "rations": 1, "t_derp": "", "t_skill": "piloting", "t_points": 1, "h_derp": "",
            "re_item": "", "ta_upgoer": "", "track": "", "p_derp": "", "o_upgoer": "", "o_burn": "",
        }
        self.steppers: dict[str, tuple[int, int]] = {}
        self.entries: dict[str, pygame_gui.elements.UITextEntryLine] = {}
        self.menus: dict[str, pygame_gui.elements.UIDropDownMenu] = {}
        self.labels: list[tuple[str, pygame.Rect]] = []
        self.values: list[tuple[str, pygame.Rect]] = []
        self.preview_rect: Optional[pygame.Rect] = None
        self.pad_rect: Optional[pygame.Rect] = None  # the Other tab's picture of the Upgoer on the pad
        self.term_spots: list = []  # (text, invisible widget whose tooltip explains a rule word)
        self.manifest: Optional[PagedText] = None
        self._manifest_at: Optional[int] = None  # the manifest's scroll as painted
        self._enter_armed = 0.0

    # ------------------------------------------------------------------ geometry
    def split_x(self) -> float:
        return max(480.0, self.context.layout.virtual_width * 0.47)

    def tab_rows(self) -> int:
        """Tabs sit in one row when there is room for their words, else in two rows of three."""
        layout = self.context.layout
        x = self.split_x() + 12
        return 1 if (layout.virtual_width - x - 24 - 30) / len(TABS) >= 112 else 2

    def panel_units(self) -> tuple[float, float, float, float]:
        """The right-hand form panel (x, y, w, h) in units."""
        layout = self.context.layout
        x = self.split_x() + 12
        y = TOP + 58 + (self.tab_rows() - 1) * 48
        return x, y, layout.virtual_width - x - 24, layout.virtual_height - BOTTOM_BAR - 16 - y

    def action_y(self) -> float:
        """Where a form's main button sits: at the bottom of the panel."""
        px, py, pw, ph = self.panel_units()
        return py + ph - 16 - 46

    def status_rect(self) -> pygame.Rect:
        """Where messages show: the foot of the form panel, left of its main button (no widget there)."""
        px, py, pw, ph = self.panel_units()
        return self.context.layout.rect(px + 16, self.action_y(), pw - 32 - 200 - 12, 46)

    # ------------------------------------------------------------------ state helpers
    @property
    def state(self):
        return self.flow.session.state

    @property
    def engine(self):
        return self.flow.session.engine

    def things(self):
        return self.state.things_of(self.program)

    def derps(self):
        return [d for d in self.state.derps_of(self.program)]

    def systems(self):
        """The program's underped systems that can be programmed now (at home or aboard a craft on the pad)."""
        state = self.state
        return [d for d in self.derps() if d.is_system
                and (d.location is HOME or state.find("upgoer", d.location).status == "pad")]

    def refresh(self) -> None:
        self.relayout()

    # ------------------------------------------------------------------ widgets
    def build_ui(self) -> None:
        super().build_ui()
        self.steppers, self.entries, self.menus, self.labels, self.values = {}, {}, {}, [], []
        self.pad_rect = None
        layout = self.context.layout
        vw, vh = layout.virtual_width, layout.virtual_height
        split = self.split_x()
        # Painted on the manifest's card with the scene's picture (only the lines in view), under a scroll bar
        # when it is long; its words set their own size (see manifest_html).
        self.manifest = PagedText(
            self.manifest_html(), layout.rect(36, TOP + 58, split - 60, vh - BOTTOM_BAR - 16 - (TOP + 58) - 12),
            self.context.manager, self.root, max(9, layout.px(17)), INK, (layout.px(4), layout.px(4)),
            bar_width=layout.px(TEXT_BOX_BAR))
        self._manifest_at = None
        px, py, pw, ph = self.panel_units()
        per_row = len(TABS) // self.tab_rows()
        tab_w = (pw - (per_row - 1) * 6) / per_row
        for i, (key, text) in enumerate(TABS):
            row, col = divmod(i, per_row)
            b = self.add_button(f"tab:{key}", layout.rect(px + col * (tab_w + 6), TOP + row * 48, tab_w, 44), text)
            if key == self.tab:
                b.select()
        getattr(self, f"_build_{self.tab}")(px + 16, py + 16, pw - 32)
        y = vh - BOTTOM_BAR + 12
        x = 24.0
        for key, text, w in (("assemble", "Assemble an Upgoer…", 230), ("trade", "Trade…", 110),
                             ("log", "Story (L)", 120), ("save", "Save", 90), ("undo", "Undo", 90)):
            self.add_button(key, layout.rect(x, y, w, 52), text, "@segment")
            x += w + 10
        if not self.flow.session.can_undo():
            self.buttons["undo"].disable()
        if len(self.state.programs) < 2:
            self.buttons["trade"].disable()
        self.add_button("finish", layout.rect(vw - 24 - 250, y, 250, 52), "Finish R&D", "@menu_button")
        self._glossary_tips()

    def chips(self) -> list[tuple[str, str, pygame.Rect]]:
        """The stat chips above the manifest: (label, value, rect)."""
        layout = self.context.layout
        p = self.state.programs[self.program]
        chips = [("Points", str(p.points)), ("Dots", str(p.dots)), ("Luck", str(p.luck)),
                 ("Fuel", str(p.fuel_stock)), ("Rations", f"{p.rations_stock}")]
        if p.bonus_points:
            chips.append(("Next turn", f"+{p.bonus_points}"))
        split = self.split_x()
        chip_w = (split - 24 - 12 - 8 * (len(chips) - 1)) / len(chips)
        return [(label, value, layout.rect(24.0 + n * (chip_w + 8), TOP, chip_w, 44))
                for n, (label, value) in enumerate(chips)]

    def _glossary_tips(self) -> None:
        """Hovering a rule word (a label, a button, a chip, the preview) explains it (``glossary``)."""
        from game.client.whatgoesup import glossary

        rules = self.engine.rules
        self.term_spots = []
        for text, rect in self.labels:
            terms = TERMS.get(text)
            if text == "Kind":
                role = self.engine.rules.components.kind(str(self.form["kind"])).role
                terms = {"lower_stage": ("lower stage",), "capsule": ("capsule",), "habitat": ("habitat",),
                         "thruster": ("thruster",), "rcs": ("RCS",), "payload": ("payload",),
                         "underped": ("underped system",)}.get(role)
            if terms:
                font = fit_font(text, rect.w - self.context.layout.px(6), self.context.layout.px(18), bold=True)
                spot = pygame.Rect(rect.left, rect.top, min(rect.w, font.size(text)[0] + 8), rect.h)
                self.term_spots.append((text, glossary.hotspot(spot, terms, rules, self.context, self.root)))
        for key, button in self.buttons.items():
            terms = TERMS.get(button.text)
            if terms and key.split(":")[0] in ("set", "toggle"):
                glossary.attach(button, terms, rules, self.context.layout)
        for label, _value, rect in self.chips():
            self.term_spots.append((label, glossary.hotspot(rect, TERMS[label], rules, self.context, self.root)))
        terms = PREVIEW_TERMS.get(self.tab)
        if terms and self.preview_rect is not None:
            self.term_spots.append((self.tab, glossary.hotspot(self.preview_rect, terms, rules, self.context,
                                                                self.root)))

    # -- small form builders (units)
    def _label(self, text: str, x: float, y: float, w: float = LABEL_W) -> None:
        self.labels.append((text, self.context.layout.rect(x, y, w, 40)))

    def _stepper(self, key: str, x: float, y: float, low: int, high: int) -> None:
        layout = self.context.layout
        self.steppers[key] = (low, high)
        self.add_button(f"step:{key}:-1", layout.rect(x, y, 40, 40), "-")
        self.values.append((key, layout.rect(x + 44, y, 64, 40)))
        self.add_button(f"step:{key}:1", layout.rect(x + 112, y, 40, 40), "+")

    def _entry(self, key: str, x: float, y: float, w: float, placeholder: str) -> None:
        entry = pygame_gui.elements.UITextEntryLine(self.context.layout.rect(x, y, w, 40), self.context.manager,
                                                    container=self.root, object_id=f"#{key}",
                                                    placeholder_text=placeholder)
        entry.set_text_length_limit(DERP_NAME_MAX if key == "hire_name" else PART_NAME_MAX)  # as saves allow
        self.entries[key] = entry

    def _menu(self, key: str, x: float, y: float, w: float, options: list[tuple[str, str]],
              room: Optional[float] = None) -> None:
        """A drop-down bound to ``self.form[key]`` (an id); an empty list shows 'None' disabled.

        It widens (up to ``room`` units) until every option's words fit.
        """
        if not options:
            options = [("None", "")]
        ids = [o[1] for o in options]
        if self.form.get(key) not in ids:
            self.form[key] = ids[0]
            self._form_changed(key)
        start = options[ids.index(self.form[key])]
        layout = self.context.layout
        menu = fitted_dropdown(options, start, layout.rect(x, y, w, 40), self.context.manager, container=self.root,
                               object_id=f"#{key}", max_width=layout.px(room if room is not None else w))
        if ids == [""]:
            menu.disable()
        self.menus[key] = menu

    def _action_button(self, key: str, text: str, x: float, y: float, w: float = 200) -> None:
        self.add_button(f"do:{key}", self.context.layout.rect(x, y, w, 46), text,
                        "@menu_button" if w >= 200 else "@segment")

    def _preview(self, x: float, y: float, w: float, h: float) -> None:
        self.preview_rect = self.context.layout.rect(x, y, w, h)

    def _thing_options(self) -> list[tuple[str, str]]:
        return [(f"{t.name} ({t.rating})", t.id) for t in self.things()]

    def _build_invent(self, x, y, w) -> None:
        kinds = [k for k in self.engine.rules.components.kinds if k.invented and self.engine.kind_in_play(self.state, k.id)]
        self._label("Kind", x, y)
        self._menu("kind", x + LABEL_W, y, min(300, w - LABEL_W), [(k.name, k.id) for k in kinds], w - LABEL_W)
        kind = self.engine.rules.components.kind(str(self.form["kind"]))
        y += ROW
        self._label("Mass", x, y)
        if kind.fixed_mass:
            self.form["mass"] = kind.fixed_mass
            self.values.append(("mass", self.context.layout.rect(x + LABEL_W + 44, y, 64, 40)))
        else:
            low = self.engine.rules.components.capsule.min_mass if kind.role in ("capsule", "habitat") else 1
            self.form["mass"] = max(low, int(self.form["mass"]))
            self._stepper("mass", x + LABEL_W, y, low, self.engine.rules.components.max_invent_mass)
        if kind.can_be_reusable:
            b = self.add_button("toggle:reusable", self.context.layout.rect(x + LABEL_W + 170, y, 150, 40),
                                "Reusable")
            if self.form["reusable"]:
                b.select()
        else:
            self.form["reusable"] = False
        y += ROW
        self._label("Name", x, y)
        self._entry("invent_name", x + LABEL_W, y, min(320, w - LABEL_W),
                    self.engine.default_name(self.state, self.program, kind.id))
        y += ROW
        self._preview(x, y, w, self.action_y() - 8 - y)
        self._action_button("invent", "Invent", x + w - 200, self.action_y())

    def _build_research(self, x, y, w) -> None:
        self._label("Blueprint", x, y)
        self._menu("r_thing", x + LABEL_W, y, min(340, w - LABEL_W), self._thing_options(), w - LABEL_W)
        y += ROW
        self._label("Improve", x, y)
        for i, (safety, text) in enumerate((("fail", "Fail to OK"), ("boom", "Boom to Fail"))):
            b = self.add_button(f"set:r_safety:{safety}", self.context.layout.rect(x + LABEL_W + i * 160, y, 150, 40),
                                text)
            if self.form["r_safety"] == safety:
                b.select()
        y += ROW
        self._label("Steps", x, y)
        self._stepper("r_steps", x + LABEL_W, y, 1, self.max_research_steps())
        self.form["r_steps"] = max(1, min(int(self.form["r_steps"]), self.max_research_steps()))
        y += ROW
        self._preview(x, y, w, self.action_y() - 8 - y)
        self._action_button("research", "Research", x + w - 200, self.action_y())

    def _build_build(self, x, y, w) -> None:
        self._label("Blueprint", x, y)
        self._menu("b_thing", x + LABEL_W, y, min(340, w - LABEL_W), self._thing_options(), w - LABEL_W)
        y += ROW
        self._label("How many", x, y)
        most = self.max_copies()
        self._stepper("b_count", x + LABEL_W, y, 1, most)
        self.form["b_count"] = max(1, min(int(self.form["b_count"]), most))
        y += ROW
        self._preview(x, y, w, self.action_y() - 8 - y)
        self._action_button("build", "Build", x + w - 200, self.action_y())

    def _build_supplies(self, x, y, w) -> None:
        self._label("Fuel", x, y)
        self._stepper("fuel", x + LABEL_W, y, 1, 50)
        self._action_button("fuel", "Buy fuel", x + w - 200, y - 3)
        y += ROW + 10
        self._label("Rations", x, y)
        self._stepper("rations", x + LABEL_W, y, 1, 20)
        self._action_button("rations", "Buy rations", x + w - 200, y - 3)
        y += ROW + 10
        self._preview(x, y, w, self.action_y() - 8 - y)

    def _build_derps(self, x, y, w) -> None:
        self._label("Hire", x, y)
        self._entry("hire_name", x + LABEL_W, y, min(230, w - LABEL_W - 150),
                    self.engine.default_derp_name(self.state, self.program))
        self._action_button("hire", "Hire", x + w - 140, y - 3, 140)
        y += ROW + 6
        trainable = [(f"{d.name} {d.piloting}/{d.engineering}/{d.stamina}", d.id) for d in self.derps()
                     if d.location is HOME and not d.injured and not d.is_system]
        self._label("Train", x, y)
        self._menu("t_derp", x + LABEL_W, y, min(260, w - LABEL_W), trainable, w - LABEL_W - 150)
        y += ROW
        for i, skill in enumerate(SKILLS):
            b = self.add_button(f"set:t_skill:{skill}",
                                self.context.layout.rect(x + LABEL_W + i * 124, y, 118, 40), skill.capitalize())
            if self.form["t_skill"] == skill:
                b.select()
        y += ROW
        self._stepper("t_points", x + LABEL_W, y, 1, 9)
        self._action_button("train", "Train", x + w - 140, y - 3, 140)
        y += ROW + 6
        injured = [(d.name, d.id) for d in self.derps() if d.injured]
        self._label("Heal", x, y)
        self._menu("h_derp", x + LABEL_W, y, min(230, w - LABEL_W - 150), injured, w - LABEL_W - 150)
        self._action_button("heal", "Heal", x + w - 140, y - 3, 140)
        y += ROW + 4
        if "underped" in self.state.setup.options:
            systems = [(f"{d.name} ({d.stamina} stamina)", d.id) for d in self.systems()]
            self._label("Program", x, y)
            self._menu("p_derp", x + LABEL_W, y, min(300, w - LABEL_W - 160), systems, w - LABEL_W - 160)
            self._action_button("program", "Program +1", x + w - 140, y - 3, 140)
            y += ROW + 4
        self._preview(x, y, w, self.action_y() - 8 - y)

    def _build_other(self, x, y, w) -> None:
        state = self.state
        foreign_items = [i for i in state.items_of(self.program) if state.thing(i.thing_id).owner != self.program]
        names = copy_labels(state, foreign_items)
        foreign = [(f"{names[i.id]}, from {state.programs[state.thing(i.thing_id).owner].name}", i.id)
                   for i in foreign_items]
        menu_w = w - LABEL_W - 150
        self._label("Copy a design", x, y)
        self._menu("re_item", x + LABEL_W, y, menu_w, foreign, menu_w)
        self._action_button("reverse", "Copy it", x + w - 140, y - 3, 140)
        y += ROW + 8
        pad = [(u.name, u.id) for u in state.upgoers_of(self.program) if u.status == "pad"]
        self._label("Take apart", x, y)
        self._menu("ta_upgoer", x + LABEL_W, y, menu_w, pad, menu_w)
        self._action_button("disassemble", "Take apart", x + w - 140, y - 3, 140)
        y += ROW + 8
        debris = [(u.name, u.id) for u in state.upgoers if u.status == "debris" and u.tracked_by is None]
        self._label("Track debris", x, y)
        self._menu("track", x + LABEL_W, y, menu_w, debris, menu_w)
        self._action_button("track", "Track", x + w - 140, y - 3, 140)
        y += ROW + 8
        if "underped_clockwork" in state.setup.options:
            y = self._build_orders(x, y, w, menu_w)
        # No main button on this tab: the words reach the foot of the panel (a message shows over them for a
        # moment). The Upgoer on the pad goes beside them when there is room and the words still fit beside it
        # (long clockwork orders take the whole width).
        bottom = self.action_y() + 46
        self._preview(x, y, w - 180, bottom - y)
        if self.form["ta_upgoer"] and bottom - y >= 110 and self.preview_fits(PAD_WORDS_MIN_UNITS):
            self.pad_rect = self.context.layout.rect(x + w - 170, y, 170, bottom - y)
        else:
            self._preview(x, y, w, bottom - y)

    def orders_craft(self):
        """The craft whose clockwork orders may be written now: the program's craft on the pad that carry a
        robot, and its flying robot craft recharged in flight (their orders open until flights begin)."""
        state = self.state
        return [u for u in state.upgoers_of(self.program)
                if (u.status == "pad" or (u.status == "flying" and u.orders_open))
                and any(d.is_system and d.location == u.id for d in state.derps)]

    def order_targets(self) -> list[tuple[str, str]]:
        """The orders the chosen craft can be given, in words: every burn, then its other actions."""
        f, state = self.form, self.state
        craft = state.find("upgoer", str(f["o_upgoer"])) if f.get("o_upgoer") else None
        if craft is None:
            return []
        flight = self.engine.flight_rules
        words = [(flight.order_words(state, entry), entry) for entry in flight.order_choices(state, craft)]
        return [(text[:1].upper() + text[1:], entry) for text, entry in words]

    def _build_orders(self, x, y, w, menu_w) -> float:
        """Clockwork: a robot craft on the pad (or recharged in flight), the next order (a burn or another
        action) to add to its written orders, or clear them."""
        self._label("Orders for", x, y)
        self._menu("o_upgoer", x + LABEL_W, y, menu_w, [(u.name, u.id) for u in self.orders_craft()], menu_w)
        self._action_button("orders_clear", "Clear", x + w - 140, y - 3, 140)
        y += ROW + 8
        self._label("Then", x, y)
        self._menu("o_burn", x + LABEL_W, y, menu_w, self.order_targets(), menu_w)
        self._action_button("orders_add", "Add order", x + w - 140, y - 3, 140)
        return y + ROW + 8

    def _form_changed(self, key: str) -> None:
        """A choice changed: what depended on it starts again (a new kind its own mass, a new blueprint or
        safety one research step)."""
        if key == "kind":
            self.form["mass"] = starting_mass(self.engine.rules, str(self.form["kind"]))
            self.form["reusable"] = False
        elif key in ("r_thing", "r_safety"):
            self.form["r_steps"] = 1
        elif key == "b_thing":
            self.form["b_count"] = 1

    def max_copies(self) -> int:
        """The most copies the build form may ask for: what the points in hand pay for (one at least, 20 at most)."""
        thing = self.state.find("thing", str(self.form.get("b_thing") or ""))
        if thing is None:
            return 1
        cost = self.engine.rules.economy.costs.build_per_mass * thing.mass
        return max(1, min(20, self.state.programs[self.program].points // cost if cost else 20))

    def max_research_steps(self) -> int:
        """The most steps the research form may ask for now: the per-turn limit left, the research cap, the
        Fail safety staying below the Boom safety, and the points in hand (never below one)."""
        if not self.form.get("r_thing"):
            return 1
        thing = self.state.find("thing", str(self.form["r_thing"]))
        if thing is None:
            return 1
        research = self.engine.rules.economy.research
        cap = self.engine.research_cap(self.state, thing)
        cost = self.engine.rules.economy.costs.research_per_mass * thing.mass
        points = self.state.programs[self.program].points
        if self.form["r_safety"] == "fail":
            limits = [research.max_fail_steps_per_turn - thing.fail_steps_this_turn, cap.fail - thing.rating.fail,
                      thing.rating.boom - 1 - thing.rating.fail]
        else:
            limits = [research.max_boom_steps_per_turn - thing.boom_steps_this_turn, cap.boom - thing.rating.boom]
        if cost:
            limits.append(points // cost)
        return max(1, min(limits))

    # ------------------------------------------------------------------ the action each form describes
    def entry_text(self, key: str) -> str:
        entry = self.entries.get(key)
        return entry.get_text().strip() if entry is not None and entry.alive() else ""

    def form_action(self, key: str) -> Optional[Action]:
        f = self.form
        if key == "invent":
            return Invent(str(f["kind"]), int(f["mass"]), self.entry_text("invent_name"), bool(f["reusable"]))
        if key == "research":
            return Research(str(f["r_thing"]), str(f["r_safety"]), int(f["r_steps"])) if f["r_thing"] else None
        if key == "build":
            return Build(str(f["b_thing"]), int(f["b_count"])) if f["b_thing"] else None
        if key in ("fuel", "rations"):
            return BuyConsumables(key, int(f[key]))
        if key == "hire":
            return Hire(self.entry_text("hire_name"))
        if key == "train":
            return Train(str(f["t_derp"]), str(f["t_skill"]), int(f["t_points"])) if f["t_derp"] else None
        if key == "heal":
            return Heal(str(f["h_derp"])) if f["h_derp"] else None
        if key == "program":
            return ProgramSystem(str(f["p_derp"]), 1) if f["p_derp"] else None
        if key in ("orders_add", "orders_clear"):
            craft = self.state.find("upgoer", str(f["o_upgoer"])) if f["o_upgoer"] else None
            if craft is None:
                return None
            if key == "orders_clear":
                return WriteOrders(craft.id, ())
            return WriteOrders(craft.id, craft.orders + (str(f["o_burn"]),)) if f["o_burn"] else None
        if key == "reverse":
            return ReverseEngineer(str(f["re_item"])) if f["re_item"] else None
        if key == "disassemble":
            return Disassemble(str(f["ta_upgoer"])) if f["ta_upgoer"] else None
        if key == "track":
            return Track(str(f["track"])) if f["track"] else None
        return None

    NOTHING = {"research": "Invent something first: research improves a blueprint.",
               "build": "Invent something first: you build copies of your blueprints.",
               "train": "Hire a derp first (or all your derps are away or injured).",
               "heal": "None of your derps is injured.",
               "program": "Invent and build an underped system first.",
               "orders_add": "Roll a craft with a robot aboard out to the pad first.",
               "orders_clear": "Roll a craft with a robot aboard out to the pad first.",
               "reverse": "You have no other program's parts in storage to copy (get one in a trade).",
               "disassemble": "You have no Upgoer on the pad.",
               "track": "There is no untracked debris."}

    def do(self, key: str) -> bool:
        action = self.form_action(key)
        if action is None:
            self.toast(self.NOTHING.get(key, "Nothing to do."), "error")
            return False
        first_robot = isinstance(action, Invent) and self._first_robot(action)
        done = self.flow.act(action, self)
        if done and first_robot:
            from game.client.whatgoesup.robot_hint import RobotHintOverlay

            self.context.stack.push(RobotHintOverlay(self.context, self.engine.rules))
        return done

    def _first_robot(self, action: Invent) -> bool:
        """Whether inventing this is the program's first underped system (the one-time hint follows)."""
        rules = self.engine.rules.components
        try:
            role = rules.kind(action.kind).role
        except KeyError:
            return False
        return role == "underped" and not any(rules.kind(t.kind).role == "underped" for t in self.things())

    # ------------------------------------------------------------------ events
    def on_button(self, key: str) -> None:
        kind, _, rest = key.partition(":")
        if kind == "tab":
            self.tab = rest
            self.relayout()
        elif kind == "step":
            name, delta = rest.rsplit(":", 1)
            low, high = self.steppers[name]
            self.form[name] = max(low, min(high, int(self.form[name]) + int(delta)))
        elif kind == "set":
            name, value = rest.split(":", 1)
            if self.form.get(name) != value:
                self.form[name] = value
                self._form_changed(name)
            self._keep_entries_and_relayout()
        elif kind == "toggle":
            self.form[rest] = not self.form[rest]
            self._keep_entries_and_relayout()
        elif kind == "do":
            self.do(rest)
        elif key == "finish":
            self.flow.finish_rnd(self)
        elif key == "assemble":
            from game.client.whatgoesup.assembly import AssemblyScene
            self.context.stack.push(AssemblyScene(self.context, self.flow, self.program))
        elif key == "trade":
            from game.client.whatgoesup.trade import TradeScene
            self.context.stack.push(TradeScene(self.context, self.flow, self.program))
        elif key == "log":
            self.flow.open_log()
        elif key == "save":
            self.flow.open_save(self)
        elif key == "undo":
            self.flow.undo(self)

    def _keep_entries_and_relayout(self) -> None:
        texts = {k: e.get_text() for k, e in self.entries.items() if e.alive()}
        self.relayout()
        for k, text in texts.items():
            if k in self.entries:
                self.entries[k].set_text(text)

    def handle_event(self, event: pygame.event.Event) -> bool:
        if event.type == pygame_gui.UI_DROP_DOWN_MENU_CHANGED:
            for key, menu in self.menus.items():
                if event.ui_element is menu:
                    if self.form.get(key) != menu.selected_option[1]:
                        self.form[key] = menu.selected_option[1]
                        self._form_changed(key)
                        if key in ("kind", "r_thing", "b_thing", "ta_upgoer"):
                            self._keep_entries_and_relayout()
                    return True
        if event.type == pygame.KEYDOWN and event.key in (pygame.K_RETURN, pygame.K_KP_ENTER):
            if any(e.is_focused for e in self.entries.values()):
                return False
            if self._enter_armed > 0:
                self._enter_armed = 0.0
                self.flow.finish_rnd(self)
            else:
                self._enter_armed = 3.0
                points = self.state.programs[self.program].points
                self.toast(f"Press Enter again to finish R&D ({counted(points, 'point')} will be saved for next turn).",
                           "warn")
            return True
        return super().handle_event(event)

    def update(self, dt: float) -> None:
        self._enter_armed = max(0.0, self._enter_armed - dt)
        super().update(dt)

    # ------------------------------------------------------------------ previews
    def preview_lines(self) -> list[tuple[str, tuple]]:
        """What the current tab's action will cost and do, and the engine's refusal if any."""
        state, engine, f = self.state, self.engine, self.form
        costs = engine.rules.economy.costs
        lines: list[tuple[str, tuple]] = []
        check: list[str] = []
        if self.tab == "invent":
            kind = engine.rules.components.kind(str(f["kind"]))
            mass = formulas.thing_mass(int(f["mass"]), bool(f["reusable"]), engine.rules.components)
            lines.append((kind.description, INK_DIM))
            extra = " (a fifth more because it is reusable)" if f["reusable"] else ""
            lines.append((f"Costs {counted(costs.invent_per_mass * mass, 'point')}: {costs.invent_per_mass} per mass, "
                          f"mass {mass}{extra}.", INK))
            start = engine.rules.economy.research.new_thing_rating
            transfer = engine.transfer_rating(state, self.program, kind.id, mass)
            if transfer is not None and transfer[0].score() > start.score():
                lines.append((f"Starts at {transfer[0]} thanks to technology transfer from {transfer[1].name}.",
                              BAND_COLOURS["ok"]))
            else:
                lines.append((f"Starts at {start}: it will need research before it flies well.", INK))
            if kind.role in ("capsule", "habitat"):
                cap = formulas.capsule_capacity(int(f["mass"]), engine.rules.components)
                lines.append((f"Carries {cap} (crew, payloads, RCS and rations).", INK))
            check = ["invent"]
        elif self.tab == "research" and f["r_thing"]:
            thing = state.thing(str(f["r_thing"]))
            steps = int(f["r_steps"])
            cap = engine.research_cap(state, thing)
            if f["r_safety"] == "fail":
                after = f"{thing.rating.fail + steps}/{thing.rating.boom}"
                done = thing.fail_steps_this_turn
            else:
                after = f"{thing.rating.fail}/{thing.rating.boom + steps}"
                done = thing.boom_steps_this_turn
            lines.append((f"Costs {counted(costs.research_per_mass * thing.mass * steps, 'point')} "
                          f"({costs.research_per_mass} per mass x mass {thing.mass} x {counted(steps, 'step')}).", INK))
            lines.append((f"{thing.name}: {thing.rating} to {after}.", ACCENT_LIGHT))
            why = "" if cap == engine.rules.economy.reliability.best else (
                " until it has flown" if not thing.flown else " until it has flown successfully")
            limit = (engine.rules.economy.research.max_fail_steps_per_turn if f["r_safety"] == "fail"
                     else engine.rules.economy.research.max_boom_steps_per_turn)
            lines.append((f"Research can reach {cap}{why}. {done} of {limit} {f['r_safety'].capitalize()} "
                          f"{noun_for(limit, 'step')} done this turn.", INK_DIM))
            check = ["research"]
        elif self.tab == "build" and f["b_thing"]:
            thing = state.thing(str(f["b_thing"]))
            n = int(f["b_count"])
            lines.append((f"Costs {counted(costs.build_per_mass * thing.mass * n, 'point')} ({costs.build_per_mass} "
                          f"per mass x mass {thing.mass} x {counted(n, 'copy')}).", INK))
            lines.append((f"Built at today's rating {thing.rating}; research keeps improving unlaunched copies.",
                          INK_DIM))
            check = ["build"]
        elif self.tab == "supplies":
            comps = engine.rules.components
            p = state.programs[self.program]
            fuel, rations = int(f["fuel"]), int(f["rations"])
            lines.append((f"Fuel: {counted(fuel, 'container')} = {fuel * comps.fuel_per_container} fuel "
                          f"for {counted(costs.consumable_per_container * fuel, 'point')}.", INK))
            lines.append((f"Rations: {counted(rations, 'container')} feed "
                          f"{counted(rations * comps.rations_derp_turns_per_container, 'derp-turn')} for "
                          f"{counted(costs.consumable_per_container * rations, 'point')}.", INK))
            lines.append((f"In stock: {p.fuel_stock} fuel, rations for {counted(p.rations_stock, 'derp-turn')}.",
                          INK_DIM))
            check = ["fuel", "rations"]
        elif self.tab == "other":
            craft = state.find("upgoer", str(f["o_upgoer"])) if f.get("o_upgoer") else None
            if craft is not None:  # clockwork: the orders written so far come first
                written = ", then ".join(engine.flight_rules.order_words(state, e) for e in craft.orders) \
                    or "none yet (it only coasts, and does nothing else)"
                lines.append((f"{craft.name}'s written orders: {written}.", ACCENT_LIGHT))
                if craft.status == "flying":
                    where = engine.rules.board.step(craft.location).name
                    lines.append((f"Its robots were recharged up at {where}: write them fresh orders now, before "
                                  f"the flights (clear the old ones, then add new ones from where it is).", INK_DIM))
                    lines += self._broken_part_lines(craft)
                else:
                    lines.append(("Up there the robots do exactly this, in this order, and nothing more; the one "
                                  "choice left is when a burn fails: try it again or give up the rest.", INK_DIM))
            else:
                lines.append(("Reverse-engineering copies another program's part in your storage into a blueprint "
                              "of your own (once per pair of programs); its prototyping cost comes as extra points "
                              "next turn. Taking apart an Upgoer on the pad puts its parts and crew back home.",
                              INK_DIM))
            check = [k for k in ("reverse", "disassemble", "track") if self.form_action(k) is not None]
        elif self.tab == "derps":
            lines.append((f"Hiring costs {counted(costs.hire_derp, 'point')}; training "
                          f"{counted(costs.train_per_point, 'point')} per skill point (the derp stays home this turn); "
                          f"healing {counted(costs.heal_derp, 'point')}.", INK_DIM))
            check = ["train"] if f["t_derp"] else []
            if "underped" in state.setup.options and f["p_derp"]:
                check.append("program")
        for key in check:
            action = self.form_action(key)
            if action is not None:
                why = self.flow.session.refusal(action)
                if why:
                    lines.append((f"Not possible: {why}.", ACCENT_HOT))
        return lines

    # ------------------------------------------------------------------ manifest
    def manifest_html(self) -> str:
        """The manifest: blueprints with the copies in storage, other programs' parts, derps, then Upgoers.

        Compact on purpose (one line a blueprint, its stored copies on the same line) so the Upgoers at the
        end fit without scrolling in a first game; parts are named, never by the engine's ids.
        """
        state, engine = self.state, self.engine
        gold, dim_c, ok_c, bad_c = (colour_hex(ACCENT_LIGHT), colour_hex(INK_DIM), colour_hex(BAND_COLOURS["ok"]),
                                    colour_hex(ACCENT_HOT))
        size = max(9, self.context.layout.px(17))
        stored: dict[str, list] = {}
        for item in state.items_of(self.program):
            stored.setdefault(item.thing_id, []).append(item)
        out = [f"<font color='{gold}'><b>Blueprints and parts in storage</b></font><br>"]
        things = self.things()
        if not things:
            out.append(f"<font color='{dim_c}'>None yet. Invent a lower stage to start.</font><br>")
        for t in things:
            kind = in_sentence(engine.rules.components.kind(t.kind).name)
            flown = "flown successfully" if t.flown_successfully else ("flown" if t.flown else "never flown")
            extra = ", reusable" if t.reusable else ""
            copies = stored.pop(t.id, [])
            ratings = sorted({str(engine.item_rating(state, i)) for i in copies} - {str(t.rating)})
            built = (f" · <font color='{ok_c}'>{len(copies)} stored</font>"
                     + (f" <font color='{dim_c}'>(rated {', '.join(ratings)})</font>" if ratings else "")
                     if copies else "")
            out.append(f"<b>{html_escape(t.name)}</b> {t.rating}  <font color='{dim_c}'>{kind}, mass {t.mass}"
                       f"{extra}, {flown}</font>{built}<br>")
        for thing_id, items in stored.items():  # parts of other programs' designs, got in trades
            thing = state.thing(thing_id)
            rating = engine.item_rating(state, items[0])
            maker = state.programs[thing.owner].name if 0 <= thing.owner < len(state.programs) else "another program"
            out.append(f"<b>{html_escape(thing.name)}</b> {rating} <font color='{dim_c}'>{html_escape(maker)}'s design"
                       f"</font> · <font color='{ok_c}'>{len(items)} stored</font><br>")
        out.append(f"<br><font color='{gold}'><b>Spacederps</b></font> <font color='{dim_c}'>"
                   f"(Piloting/Engineering/Stamina)</font><br>")
        derps = self.derps()
        if not any(not d.is_system for d in derps):
            out.append(f"<font color='{dim_c}'>Nobody hired yet.</font><br>")
        for d in derps:
            if d.is_system:
                continue
            if d.location is not HOME:
                u = state.find("upgoer", d.location)
                status, colour = (f"aboard {html_escape(u.name) if u else 'a craft'}", dim_c)
            elif d.can_fly:
                status, colour = ("can fly today", ok_c)
            elif d.busy:
                status, colour = (f"{d.busy}, stays home", dim_c)
            else:
                status, colour = (d.condition, bad_c)
            out.append(f"<b>{html_escape(d.name)}</b> {d.piloting}/{d.engineering}/{d.stamina} "
                       f"<font color='{dim_c}'>{d.condition}</font>, <font color='{colour}'>{status}</font><br>")
        systems = [d for d in derps if d.is_system]
        if systems:
            out.append(f"<br><font color='{gold}'><b>Underped systems</b></font> <font color='{dim_c}'>"
                       f"(robot crew: stamina left of programmed)</font><br>")
        for d in systems:
            u = state.find("upgoer", d.location) if d.location is not HOME else None
            where = (f"aboard {html_escape(u.name)}" if u is not None else "in storage, ready to load")
            out.append(f"<b>{html_escape(d.name)}</b> {d.current_stamina}/{d.stamina} "
                       f"<font color='{dim_c}'>{d.condition}, {where}</font><br>")
        out.append(f"<br><font color='{gold}'><b>Upgoers</b></font><br>")
        ups = [u for u in state.upgoers_of(self.program) if u.status in ("pad", "flying")]
        if not ups:
            out.append(f"<font color='{dim_c}'>None on the pad or in flight.</font><br>")
        for u in ups:
            crew = ", ".join(state.derp(c).name for c in u.crew) or "no crew"
            where = "on the pad" if u.status == "pad" else "flying"
            out.append(f"<b>{html_escape(u.name)}</b> <font color='{dim_c}'>{where}; {html_escape(crew)}; "
                       f"fuel {u.fuel}</font><br>")
        # One smaller size for the whole manifest, so a first game's lines fit the card without scrolling.
        return f"<font pixel_size={size}>" + "".join(out) + "</font>"

    # ------------------------------------------------------------------ drawing
    def still_key(self) -> tuple:
        """The tab, the form and the names typed (a preview checks them)."""
        typed = tuple((key, entry.get_text()) for key, entry in self.entries.items() if entry.alive())
        return (self.tab, tuple(self.form.items()), typed, self.toast_covers_preview())

    def toast_covers_preview(self) -> bool:
        """A message shows over the foot of the preview (the Other tab's words reach the panel's foot): the
        lines under it are left out while it shows."""
        return bool(self.toast_time > 0 and self.toast_text and self.preview_rect is not None
                    and self.preview_rect.colliderect(self.status_rect()))

    def draw(self, surface: pygame.Surface) -> None:
        self._scroll_manifest()
        super().draw(surface)

    def draw_changes(self, surface: pygame.Surface, widgets: list[pygame.Rect]) -> bool:
        self._scroll_manifest()
        return super().draw_changes(surface, widgets)

    def _scroll_manifest(self) -> None:
        """The manifest scrolled since it was painted: paint just its words again, on its card."""
        manifest = self.manifest
        if manifest is None or self._manifest_at is None or manifest.offset() == self._manifest_at:
            return

        def words(layer: pygame.Surface) -> None:
            layer.fill(CARD, manifest.rect)
            manifest.paint(layer)

        if self.still.touch(manifest.rect, words):
            self._manifest_at = manifest.offset()

    def draw_content(self, surface: pygame.Surface) -> None:
        layout = self.context.layout
        state = self.state
        p = state.programs[self.program]
        people = next((x.name for x in self.engine.rules.peoples.peoples if x.id == p.people), p.people)
        from game.client.whatgoesup.hud import draw_game_header

        draw_game_header(self, surface, p.name, p, f"{people} · Research & development")
        vh = layout.virtual_height
        split = self.split_x()
        # stat chips
        for label, value, r in self.chips():
            pygame.draw.rect(surface, CARD, r, border_radius=layout.px(10))
            pygame.draw.rect(surface, program_colour(p), r, max(1, layout.px(2)), border_radius=layout.px(10))
            lf = fit_font(label, r.w // 2, layout.px(15))
            draw_text(surface, label, lf, INK_DIM, (r.left + layout.px(10), r.centery), anchor="midleft")
            vf = fit_font(value, r.w // 2 - layout.px(10), layout.px(20), bold=True)
            draw_text(surface, value, vf, ACCENT_LIGHT, (r.right - layout.px(10), r.centery), anchor="midright")
        manifest = layout.rect(24, TOP + 52, split - 36, vh - BOTTOM_BAR - 16 - (TOP + 52))
        draw_card(surface, manifest, layout)
        if self.manifest is not None:
            self.manifest.paint(surface)
            self._manifest_at = self.manifest.offset()
        px, py, pw, ph = self.panel_units()
        panel = layout.rect(px, py, pw, ph)
        draw_card(surface, panel, layout)
        label_font = font_px(layout.px(18), True)
        for text, rect in self.labels:
            draw_text(surface, text, fit_font(text, rect.w - layout.px(6), layout.px(18), bold=True), ACCENT_LIGHT,
                      (rect.left, rect.centery), anchor="midleft")
        for key, rect in self.values:
            text = str(self.form[key])
            pygame.draw.rect(surface, (21, 18, 48), rect, border_radius=layout.px(8))
            draw_text(surface, text, fit_font(text, rect.w - layout.px(8), layout.px(20), bold=True), INK,
                      rect.center, anchor="center")
        if self.preview_rect is not None:
            lines = self.preview_lines()
            font = self.preview_font(lines)
            y = self.preview_rect.top + layout.px(8)
            bottom = self.status_rect().top - layout.px(4) if self.toast_covers_preview() else \
                self.preview_rect.bottom
            for text, colour in lines:
                box = pygame.Rect(self.preview_rect.left, y, self.preview_rect.w, max(0, bottom - y))
                y = draw_wrapped(surface, text, font, colour, box) + layout.px(4)
        if self.pad_rect is not None and self.state.find("upgoer", str(self.form["ta_upgoer"])):
            from game.client.whatgoesup.rocket_view import draw_rocket

            pygame.draw.rect(surface, (21, 18, 48), self.pad_rect, border_radius=layout.px(10))
            draw_rocket(surface, self.pad_rect.inflate(-layout.px(8), -layout.px(8)), self.engine, state,
                        str(self.form["ta_upgoer"]), unit=layout.scale, labels=False)
        del label_font

    def _broken_part_lines(self, craft) -> list[tuple[str, tuple]]:
        """Clockwork: what the robots of a flying craft can do about its broken parts."""
        state, flight = self.state, self.engine.flight_rules
        choices = set(flight.order_choices(state, craft))
        lines = []
        for item in (i for i in state.items_at(craft.id) if i.disabled):
            name = state.thing(item.thing_id).name
            if f"jury_rig:{item.id}" in choices:
                target = self.jury_rig_target(craft)
                lines.append((f"{name} is broken: its robots can be ordered to jury-rig it (it works on a roll "
                              f"under {target}: a {percent_text(self.jury_rig_chance(target))} chance).", INK))
            else:
                lines.append((f"{name} is broken, and its robots cannot mend it.", INK_DIM))
        return lines

    def jury_rig_target(self, craft) -> int:
        """A jury-rig by the craft's best robot works on a roll under this (the engine's ``jury_rig_rating``)."""
        flight = self.engine.flight_rules
        systems = [d for d in self.state.derps if d.is_system and d.location == craft.id and not d.dead]
        return max(flight.jury_rig_rating(self.state, d).fail for d in systems)

    def jury_rig_chance(self, target: int) -> Fraction:
        """The exact chance that a jury-rig working on a roll under ``target`` works, on this game's dice (the
        engine rolls it as a Fail safety of ``target`` that no Boom reaches)."""
        distribution = self.engine.rules.dice.scheme(self.state.setup.dice).distribution()
        return outcome_odds(distribution, Rating(target, NEVER))[Outcome.OK]

    def preview_font(self, lines: list[tuple[str, tuple]]) -> pygame.font.Font:
        """The largest font (17 units down to 11) in which every preview line fits its box whole."""
        for units in (17, 16, 15, 14, 13, 12, 11):
            font = font_px(self.context.layout.px(units))
            if self._preview_height(lines, font) <= self.preview_rect.h:
                return font
        return font

    def preview_fits(self, units: int) -> bool:
        """Whether the preview's words fit its box whole at ``units`` (virtual units) or larger."""
        font = font_px(self.context.layout.px(units))
        return self._preview_height(self.preview_lines(), font) <= self.preview_rect.h

    def _preview_height(self, lines: list[tuple[str, tuple]], font: pygame.font.Font) -> int:
        layout = self.context.layout
        return layout.px(8) + sum(len(wrap_text(text, font, self.preview_rect.w)) * font.get_linesize()
                                  + layout.px(4) for text, _ in lines)

    def draw_toast(self, surface: pygame.Surface) -> None:
        if self.toast_time > 0 and self.toast_text:
            draw_status(surface, self.status_rect(), self.toast_text, self.toast_kind, self.context.layout)
