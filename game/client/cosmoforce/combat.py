"""The combat field: the ships as markers (drag one to move it, drop yours on an enemy to aim at it), the speed
order across the top, heat and crew under every ship, and a panel with the roster of the ship in question
and what can be done now: the turn's actions, the hits to place, the afterburner's choice, or the odds of
the roll about to be made.

Everything on the panel is a legal action from the engine (``engine.legal_actions`` and ``refusal``);
the scene only reads the state and calls the flow.
"""
from __future__ import annotations

import math
from typing import Optional

import pygame

from game.client.cosmoforce.glossary import WORDS
from game.client.cosmoforce.dice_view import PURPOSE_TITLES, RESULT_WORDS, draw_odds, roll_caption, rule_line
from game.client.cosmoforce.roster import (COIN_GOLD, HEAT, RosterView, draw_coin, draw_heat_token, draw_roster,
                                          stat_spots)
from game.client.kit.draw import draw_marker, draw_program_marker, program_colour, shape_for
from game.client.kit.style import (ACCENT, ACCENT_HOT, ACCENT_LIGHT, INK, INK_DIM, draw_card, draw_text, fit_font,
                                   font_px)
from game.client.kit.text import draw_wrapped
from game.client.kit.words import counted
from game.client.scenes.game_scene import GameScene
from game.games.cosmoforce.rules.actions import (Action, AssignDamage, BurnEngines, ConserveEnergy, DroneStrafe,
                                                 FireWeapons, HealCrew, OfferCeasefire, PrecisionFire, RepairSystem,
                                                 RepairSystems, TrimSpeed)
from game.games.cosmoforce.rules.engine import CHANCE
from game.games.cosmoforce.rules.state import GameState, PendingDamage, PendingRepair, PendingRoll, PendingTrim

PANEL_W = 440
TOP = 76
ROSTER_H = 292
ROW_H, ROW_GAP = 40, 6
DRAG_SLOP = 6  # pixels the pointer may move before a press on a marker becomes a drag
#: The kinds of label drawn on the field, each explained on hover by ``label_tip`` (as are "roll", the caption
#: of a roll about to be made, on the panel, and ``RESULT``, the band of a finished fight).
FIELD_LABELS = ("order", "name", "speed", "heat", "crew", "out")
#: The finished fight's band across the field: its key in ``label_boxes`` is (RESULT, NO_SHIP).
RESULT, NO_SHIP = "result", -1
#: The glossary words a roll's caption on the panel rests on, by the roll's purpose.
ROLL_TERMS = {"tie_break": ("tie for speed",), "afterburner": ("afterburner",), "strafe": ("drone strafe",),
              "fire": ("shooting",), "precision": ("precision fire", "shooting"), "heal": ("heal crew",),
              "repair": ("repair systems",), "heat": ("heat", "aftermath")}
ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth")
#: The glossary word each action button explains on hover.
ACTION_TERMS = {"fire": "fire weapons", "burn": "burn engines", "conserve": "conserve energy", "heal": "heal crew",
                "repair": "repair systems", "strafe": "drone strafe", "ceasefire": "ceasefire"}


class CombatScene(GameScene):
    name = "cosmoforce_combat"
    flow_main = True

    def __init__(self, context, flow) -> None:
        super().__init__(context, flow)
        self.engine = flow.engine
        self.positions: dict[int, tuple[float, float]] = {}  # ship -> its place in the field (fractions)
        self.pressed: Optional[tuple[int, tuple[int, int]]] = None  # (ship, where the press began)
        self.drag_at: Optional[tuple[int, int]] = None
        self.target: Optional[int] = None
        self.focus: Optional[int] = None  # a ship whose roster was clicked open
        self.weapon: Optional[str] = None
        self.count = 1
        self.burn = 1  # net speed change of the next burn
        self.afterburner = False
        self.aiming = False  # precision fire: pick a slot on the target's roster
        self.slot_rects: dict[int, pygame.Rect] = {}
        self.hover_slot: Optional[int] = None
        self.order_spot = None  # the hover spot over the speed order's label (its glossary words)
        #: Where the field's labels were drawn this frame, (kind, ship) -> screen rect; kinds are FIELD_LABELS'.
        self.label_boxes: dict[tuple[str, int], pygame.Rect] = {}
        self.label_spots: dict[tuple[str, int], object] = {}  # the hover spot over each of those labels
        self._label_key = self._label_state = None
        self.clock = 0.0

    # ------------------------------------------------------------------ reading the state
    @property
    def state(self) -> GameState:
        return self.flow.shown_state

    def panel_rect(self) -> pygame.Rect:
        layout = self.context.layout
        return layout.rect(layout.virtual_width - 16 - PANEL_W, TOP, PANEL_W, layout.virtual_height - TOP - 16)

    def field_rect(self) -> pygame.Rect:
        layout = self.context.layout
        return layout.rect(16, TOP, layout.virtual_width - 16 - PANEL_W - 32, layout.virtual_height - TOP - 16)

    def roster_rect(self) -> pygame.Rect:
        panel = self.panel_rect()
        return pygame.Rect(panel.left, panel.top, panel.w, self.context.layout.px(ROSTER_H))

    def controls_rect(self) -> pygame.Rect:
        panel, layout = self.panel_rect(), self.context.layout
        top = self.roster_rect().bottom + layout.px(10)
        return pygame.Rect(panel.left, top, panel.w, panel.bottom - top)

    def human_turn(self) -> bool:
        return self.flow.is_human(self.flow.deciding())

    def shown_ship(self) -> Optional[int]:
        """The ship whose roster the panel shows: the one hit or repairing, the one aimed at, a clicked one,
        else the one whose turn it is."""
        state = self.state
        step = state.step
        if isinstance(step, (PendingDamage, PendingRepair, PendingTrim)):
            return step.ship
        if self.aiming and self.target is not None:
            return self.target
        if self.focus is not None:
            return self.focus
        acting = state.acting_ship
        if acting is not None:
            return acting.index
        if isinstance(step, PendingRoll):
            return step.ship
        return state.order[0] if state.order else 0

    def clickable_slots(self) -> set[int]:
        """Slots the player may click on the shown roster: where a hit may go, what may be repaired, where to aim."""
        if not self.human_turn():
            return set()
        state = self.state
        step = state.step
        legal = self.engine.legal_actions(state) if self.engine.current_player(state) >= 0 else []
        if isinstance(step, PendingDamage):
            return {a.system for a in legal if isinstance(a, AssignDamage)}
        if isinstance(step, PendingRepair):
            return {a.system for a in legal if isinstance(a, RepairSystem)}
        if self.aiming and self.target is not None:
            return {a.system for a in legal if isinstance(a, PrecisionFire) and a.target == self.target}
        return set()

    def enemies(self) -> list[int]:
        acting = self.state.acting_ship
        return [s.index for s in self.state.enemies_of(acting)] if acting is not None else []

    def weapons_ready(self) -> list[str]:
        acting = self.state.acting_ship
        if acting is None:
            return []
        return [w for w in self.engine.weapon_kinds() if acting.working_count((w,))]

    def _settle_choices(self) -> None:
        """Keep the panel's choices (target, weapon, counts) pointing at things that still exist."""
        enemies = self.enemies()
        if self.target not in enemies:
            self.target = enemies[0] if enemies else None
        weapons = self.weapons_ready()
        if self.weapon not in weapons:
            self.weapon = weapons[0] if weapons else None
        acting = self.state.acting_ship
        if acting is not None and self.weapon is not None:
            self.count = max(1, min(self.count, acting.working_count((self.weapon,))))
        engines = self.engine.working(acting, "engine") if acting is not None else 0
        self.burn = max(-engines, min(self.burn, engines)) or (1 if engines else 0)
        if acting is None or not self.engine.working(acting, "afterburner"):
            self.afterburner = False

    # ------------------------------------------------------------------ actions the panel offers
    def fire_action(self) -> Optional[Action]:
        if self.weapon is None or self.target is None:
            return None
        return FireWeapons(self.weapon, self.count, self.target)

    def burn_action(self) -> Optional[Action]:
        if not self.burn:
            return None
        return BurnEngines(max(self.burn, 0), max(-self.burn, 0), self.afterburner)

    def strafe_action(self) -> Optional[Action]:
        return DroneStrafe(self.target) if self.target is not None else None

    def panel_action(self, key: str) -> Optional[Action]:
        return {"fire": self.fire_action, "burn": self.burn_action, "strafe": self.strafe_action,
                "conserve": lambda: ConserveEnergy(), "heal": lambda: HealCrew(), "repair": lambda: RepairSystems(),
                "ceasefire": lambda: OfferCeasefire()}[key]()

    def why_not(self, action: Optional[Action]) -> Optional[str]:
        if action is None:
            return "Nothing to do that with"
        return self.engine.refusal(self.state, action)

    # ------------------------------------------------------------------ widgets
    def refresh(self) -> None:
        if self.context.stack.top is self:
            self.relayout()

    def build_ui(self) -> None:
        super().build_ui()
        if self.root is None:
            return
        self._settle_choices()
        state = self.state
        if self.flow.session.over:
            self._build_over()
            return
        self._order_tip()
        step = state.step
        if isinstance(step, PendingRoll):
            self._build_roll()
        elif isinstance(step, PendingTrim):
            self._build_trim(step)
        elif isinstance(step, (PendingDamage, PendingRepair)):
            pass  # the roster's slots are the buttons
        else:
            self.aiming = self.aiming and self.human_turn()
            self._build_turn()

    def order_label_rect(self) -> pygame.Rect:
        """Where ``draw_order`` writes "Speed order:" (or "Tie for speed:"), in screen pixels."""
        layout = self.context.layout
        field = self.field_rect()
        label = "Speed order:" if self.state.phase != "tie_break" else "Tie for speed:"
        w, h = font_px(layout.px(15), True).size(label)
        return pygame.Rect(field.left + layout.px(12), field.top + layout.px(24) - h // 2, w, h)

    def _order_tip(self) -> None:
        """Hovering the speed order's label explains speed, ties (the hundredths) and rounds."""
        self.order_spot = WORDS.hotspot(self.order_label_rect(), ("speed", "tie for speed", "round"),
                                        self.engine.rules, self.context, self.root)

    def _row(self, n: int, x: float = 0, w: Optional[float] = None) -> pygame.Rect:
        layout = self.context.layout
        area = self.controls_rect()
        width = layout.px(w) if w is not None else area.w - layout.px(x)
        return pygame.Rect(area.left + layout.px(x), area.top + layout.px(30 + n * (ROW_H + ROW_GAP)), width,
                           layout.px(ROW_H))

    def _action_button(self, key: str, rect: pygame.Rect, text: str, action: Optional[Action]) -> None:
        """An action's button: its glossary entry on hover, after the reason when it cannot be taken now."""
        why = self.why_not(action) if self.human_turn() else "A computer captain is at the controls"
        button = self.add_button(key, rect, text, enabled=why is None)
        lead = f"Not now: {why[:1].upper() + why[1:]}." if why else ""
        WORDS.attach(button, ACTION_TERMS[key], self.engine.rules, self.context.layout, lead)

    def _build_turn(self) -> None:
        if not self.human_turn():
            return
        acting = self.state.acting_ship
        half = (PANEL_W - 8) / 2
        target = self.state.ships[self.target].name if self.target is not None else "nobody"
        several = len(self.enemies()) > 1
        self.add_button("target", self._row(0), f"Target: {target}" + ("   (click to change)" if several else ""),
                        tooltip="Or click an enemy, or drop your ship's marker on it", enabled=several)
        weapon_name = self.engine.rules.systems.get(self.weapon).name if self.weapon else "No weapons"
        self.add_button("weapon", self._row(1, 0, 130), weapon_name, enabled=len(self.weapons_ready()) > 1,
                        tooltip="Which weapon to fire")
        self.add_button("count:-1", self._row(1, 134, 36), "−", enabled=self.count > 1)
        self.add_button("count:1", self._row(1, 174, 36), "+",
                        enabled=self.weapon is not None and self.count < acting.working_count((self.weapon,)))
        dice = self.count * self.engine.rules.weapons.get(self.weapon).dice_per_system if self.weapon else 0
        self._action_button("fire", self._row(1, 214), f"Fire {self.count} ({dice} dice)", self.fire_action())
        self.add_button("burn:-1", self._row(2, 0, 36), "−", enabled=self.burn > -self.engine.working(acting, "engine"))
        self.add_button("burn:1", self._row(2, 40, 36), "+", enabled=self.burn < self.engine.working(acting, "engine"))
        if self.engine.working(acting, "afterburner"):
            button = self.add_button("afterburner", self._row(2, 80, 134), "Afterburner",
                                     tooltip="Lit: the burn also rolls a die per engine for extra speed changes")
            if self.afterburner:
                button.select()
            burn_x = 218
        else:
            burn_x = 80
        heat = abs(self.burn) * self.engine.rules.combat.burn.heat_per_engine
        self._action_button("burn", self._row(2, burn_x), f"Burn {self.burn:+d} (+{heat} heat)",
                            self.burn_action())
        for n, (left, right) in enumerate(((("conserve", "Conserve energy"), ("heal", "Heal crew")),
                                          (("repair", "Repair systems"), ("strafe", "Drone strafe")))):
            for col, (key, text) in enumerate((left, right)):
                self._action_button(key, self._row(3 + n, col * (half + 8), half), text, self.panel_action(key))
        precision = [a for a in self.engine.legal_actions(self.state) if isinstance(a, PrecisionFire)]
        button = self.add_button("precision", self._row(5, 0, half),
                                 "Cancel aiming" if self.aiming else "Precision fire…", enabled=bool(precision))
        WORDS.attach(button, "precision fire", self.engine.rules, self.context.layout,
                     "" if precision else f"Not now: {self._precision_refusal()}.")
        self._action_button("ceasefire", self._row(5, half + 8, half), "Offer ceasefire", OfferCeasefire())

    def _precision_refusal(self) -> str:
        state = self.state
        if state.order and state.acting_ship is not None and state.order[0] != state.acting_ship.index:
            return "Only the ship taking the first turn of the round may, as its only action"
        if state.actions_left != self.engine.rules.combat.actions_per_turn:
            return "Precision fire must be the turn's only action"
        return "No working laser, or no system left to aim at"

    def _build_trim(self, step: PendingTrim) -> None:
        if not self.human_turn():
            return
        legal = [a for a in self.engine.legal_actions(self.state) if isinstance(a, TrimSpeed)]
        nets = sorted({a.faster - a.slower for a in legal}, reverse=True)
        per_row = 4
        width = (PANEL_W - 8 * (per_row - 1)) / per_row
        for i, net in enumerate(nets):
            row, col = divmod(i, per_row)
            text = f"{net:+d} speed" if net else "No change"
            self.add_button(f"trim:{net}", self._row(1 + row, col * (width + 8), width), text)

    def _build_roll(self) -> None:
        area = self.controls_rect()
        layout = self.context.layout
        rect = pygame.Rect(area.left, area.bottom - layout.px(ROW_H + 4), area.w, layout.px(ROW_H + 4))
        human = self.flow.is_human(self.flow.roller())
        self.add_button("roll", rect, "Roll the dice (Space)" if human else "The computer rolls…", "@menu_button",
                        enabled=human)

    def _build_over(self) -> None:
        area = self.controls_rect()
        layout = self.context.layout
        half = (area.w - layout.px(8)) // 2
        y = area.bottom - layout.px(52)
        self.add_button("story", pygame.Rect(area.left, y, half, layout.px(52)), "The story", "@menu_button")
        self.add_button("title", pygame.Rect(area.left + half + layout.px(8), y, half, layout.px(52)), "To the title",
                        "@menu_button")

    # ------------------------------------------------------------------ input
    def on_button(self, key: str) -> None:
        if key == "roll":
            self.flow.roll(self)
        elif key == "story":
            self.flow.open_log()
        elif key == "title":
            self.flow.quit_to_title()
        elif key == "target":
            enemies = self.enemies()
            if enemies:
                self.target = enemies[(enemies.index(self.target) + 1) % len(enemies)] if self.target in enemies \
                    else enemies[0]
            self.relayout()
        elif key == "weapon":
            weapons = self.weapons_ready()
            if weapons:
                self.weapon = weapons[(weapons.index(self.weapon) + 1) % len(weapons)] if self.weapon in weapons \
                    else weapons[0]
                self.count = 1
            self.relayout()
        elif key.startswith("count:"):
            self.count += int(key[6:])
            self.relayout()
        elif key.startswith("burn:"):
            self.burn += int(key[5:])
            if self.burn == 0:
                self.burn += int(key[5:])  # a burn of 0 burns nothing: step over it
            self.relayout()
        elif key == "afterburner":
            self.afterburner = not self.afterburner
            self.relayout()
        elif key == "precision":
            self.aiming = not self.aiming
            self.relayout()
        elif key.startswith("trim:"):
            net = int(key[5:])
            self.flow.act(TrimSpeed(max(net, 0), max(-net, 0)), self)
        else:
            action = self.panel_action(key)
            if action is not None:
                self.flow.act(action, self)

    def on_key(self, event) -> bool:
        if event.key in (pygame.K_SPACE, pygame.K_RETURN) and self.flow.session.current_player == CHANCE \
                and self.flow.is_human(self.flow.roller()):
            self.flow.roll(self)
            return True
        return super().on_key(event)

    def click_slot(self, slot: int) -> None:
        step = self.state.step
        if isinstance(step, PendingDamage):
            self.flow.act(AssignDamage(slot), self)
        elif isinstance(step, PendingRepair):
            self.flow.act(RepairSystem(slot), self)
        elif self.aiming and self.target is not None:
            lasers = self.state.acting_ship.working_count((self.engine.rules.combat.precision_fire.weapon,))
            count = min(self.count, lasers) if self.weapon == self.engine.rules.combat.precision_fire.weapon else lasers
            self.aiming = False
            self.flow.act(PrecisionFire(max(1, count), self.target, slot), self)

    def handle_event(self, event: pygame.event.Event) -> bool:
        if super().handle_event(event):
            return True
        if event.type == pygame.MOUSEMOTION:
            self.hover_slot = next((i for i, r in self.slot_rects.items() if r.collidepoint(event.pos)), None)
            if self.pressed is not None:
                start = self.pressed[1]
                if self.drag_at is not None or math.dist(start, event.pos) > DRAG_SLOP:
                    self.drag_at = event.pos
            return False
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            for slot, rect in self.slot_rects.items():
                if rect.collidepoint(event.pos) and slot in self.clickable_slots():
                    self.click_slot(slot)
                    return True
            ship = self.ship_at(event.pos)
            if ship is not None:
                self.pressed = (ship, event.pos)
                self.drag_at = None
                return True
            return False
        if event.type == pygame.MOUSEBUTTONUP and event.button == 1 and self.pressed is not None:
            ship, _ = self.pressed
            dropped_at, self.pressed, self.drag_at = self.drag_at, None, None
            if dropped_at is None:
                self.clicked_ship(ship)
            else:
                self.dropped_ship(ship, dropped_at)
            return True
        return False

    def clicked_ship(self, ship: int) -> None:
        """A click on a marker opens its roster; on an enemy of the ship whose turn it is, it aims there too."""
        self.focus = None if self.focus == ship else ship
        if ship in self.enemies():
            self.target = ship
            self.focus = None if self.aiming else self.focus
        self.relayout()

    def dropped_ship(self, ship: int, pos: tuple[int, int]) -> None:
        """Dropping the acting ship's marker on an enemy aims at it; dropping anywhere else moves the marker."""
        other = self.ship_at(pos, exclude=ship)
        acting = self.state.acting_ship
        if other is not None and acting is not None and ship == acting.index and other in self.enemies():
            self.target = other
            self.toast(f"Target: {self.state.ships[other].name}", "info")
            self.relayout()
            return
        field = self.field_rect()
        if field.collidepoint(pos):
            self.positions[ship] = ((pos[0] - field.left) / field.w, (pos[1] - field.top) / field.h)

    # ------------------------------------------------------------------ the field
    def default_position(self, ship: int) -> tuple[float, float]:
        """Sides around an ellipse (the first on the left), a side's ships in a column."""
        state = self.state
        sides = sorted({s.side for s in state.ships})
        me = state.ships[ship]
        j = sides.index(me.side)
        mates = [s.index for s in state.ships if s.side == me.side]
        k = mates.index(ship)
        angle = math.pi + math.tau * j / len(sides)
        cx, cy = 0.5 + 0.33 * math.cos(angle), 0.54 + 0.26 * math.sin(angle)
        spread = 0.2 if len(mates) > 1 else 0.0
        offset = (k - (len(mates) - 1) / 2) * spread / max(1, len(mates) - 1) * 1.6
        return cx, min(0.9, max(0.22, cy + offset))

    def marker_centre(self, ship: int) -> tuple[int, int]:
        field = self.field_rect()
        fx, fy = self.positions.get(ship) or self.default_position(ship)
        if self.pressed is not None and self.pressed[0] == ship and self.drag_at is not None:
            return self.drag_at
        return int(field.left + fx * field.w), int(field.top + fy * field.h)

    def marker_radius(self, ship: int) -> int:
        size = self.engine.rules.classes.get(self.state.ships[ship].ship_class).size
        return self.context.layout.px(14 + 6 * size)

    def ship_at(self, pos, exclude: Optional[int] = None) -> Optional[int]:
        for ship in reversed(range(len(self.state.ships))):
            if ship == exclude:
                continue
            cx, cy = self.marker_centre(ship)
            if math.dist((cx, cy), pos) <= self.marker_radius(ship) + self.context.layout.px(8):
                return ship
        return None

    def update(self, dt: float) -> None:
        super().update(dt)
        self.clock += dt

    # ------------------------------------------------------------------ hover words over the field's labels
    def label_tip(self, kind: str, index: int) -> tuple[str, tuple[str, ...]]:
        """What hovering a field label says: a line about this ship (or the fight's end), then the glossary's
        words it rests on."""
        state = self.state
        if kind == RESULT:
            return self.result_tip()
        ship = state.ships[index]
        captain = state.players[ship.owner].name
        if kind == "order":
            order = state.order or ()
            place = f"{ORDINALS[order.index(index)]} " if index in order and order.index(index) < len(ORDINALS) \
                else ""
            if not ship.standing:
                return (f"{ship.name} ({captain}) is out of the fight: it keeps its place in the order, struck "
                        f"through, and takes no more turns.", ("eliminated",))
            now = ", and it is taking it now" if state.acting_ship is not None and \
                state.acting_ship.index == index else ""
            return (f"{ship.name} ({captain}) takes its turn {place}this round, at speed {ship.speed_text}{now}.",
                    ("speed", "round"))
        if kind == "name":
            kind_name = self.engine.rules.classes.get(ship.ship_class).name.lower()
            return (f"{ship.name}, {captain}'s {kind_name} of mass {ship.mass}. Click it to see its roster on the "
                    f"right; drop your own ship on an enemy to aim at it, or anywhere else to make room.", ("mass",))
        if kind == "speed":
            terms = ("speed", "tie for speed") if ship.edge else ("speed",)
            return f"{ship.name} flies at speed {ship.speed_text}; faster ships take their turns first.", terms
        if kind == "heat":
            lead = f"{ship.name} carries {counted(ship.heat, 'heat token')}." if ship.heat else \
                f"{ship.name} is cool: no heat to burn its crew in the aftermath."
            return lead, ("heat",)
        if kind == "crew":
            return (f"{ship.name}'s crew: {ship.crew_ready} ready, {ship.crew_hurt} hurt (a gold coin is ready, a "
                    f"grey one hurt).", ("crew",))
        if kind == "roll":
            step = state.step
            return (f"The bars below give the exact chance of each result ({RESULT_WORDS[step.purpose]}) before the "
                    f"dice are rolled.", ROLL_TERMS[step.purpose] + ("effective die",))
        return f"{ship.name} is out of the fight and takes no more turns.", ("eliminated",)

    def result_tip(self) -> tuple[str, tuple[str, ...]]:
        """How the fight ended, in words: who is still flying, and why that is the end."""
        state = self.state
        outcome = self.engine.outcome(state)
        rounds = counted(state.turn, "round")
        standing = [ship for ship in state.ships if ship.standing]
        flying = " and ".join(ship.name for ship in standing)
        story = " Press 'The story' to read it blow by blow."
        if outcome is not None and outcome.winners:
            names = " and ".join(state.players[i].name for i in outcome.winners)
            return (f"{names} won after {rounds}: {flying} {'is' if len(standing) == 1 else 'are'} still in the "
                    f"fight, and every enemy ship is out.{story}", ("eliminated", "round"))
        if not standing:
            return f"After {rounds} every ship is out of the fight, so nobody wins.{story}", ("eliminated", "round")
        if {ship.owner for ship in standing} <= state.ceasefire:
            return (f"After {rounds} every captain still fighting offered a ceasefire, so {flying} fly home and "
                    f"nobody wins.{story}", ("ceasefire", "round"))
        return (f"The fight reached its limit of {rounds}: {flying} disengage and nobody wins.{story}",
                ("round",))

    def place_label_spots(self) -> None:
        """Hover spots over the labels drawn this frame, made again only when a label moved, the state changed
        or the widgets were rebuilt."""
        if self.root is None:
            return
        key = (tuple((k, tuple(r)) for k, r in self.label_boxes.items()), id(self.root))
        if self._label_key == key and self._label_state is self.state and \
                all(spot.alive() for spot in self.label_spots.values()):
            return
        for spot in self.label_spots.values():
            spot.kill()
        rules = self.engine.rules
        self.label_spots = {}
        for (kind, index), box in self.label_boxes.items():
            lead, terms = self.label_tip(kind, index)
            self.label_spots[(kind, index)] = WORDS.hotspot(box, terms, rules, self.context, self.root, lead)
        self._label_key, self._label_state = key, self.state

    # ------------------------------------------------------------------ drawing
    def draw_content(self, surface: pygame.Surface) -> None:
        layout = self.context.layout
        state = self.state
        player = self.flow.deciding()
        program = state.players[player] if player is not None else None
        self.draw_header(surface, "Cosmoforce", program, self.subtitle())
        field = self.field_rect()
        veil = pygame.Surface(field.size, pygame.SRCALPHA)
        veil.fill((12, 10, 34, 150))
        surface.blit(veil, field)
        pygame.draw.rect(surface, ACCENT, field, max(1, layout.px(2)), border_radius=layout.px(12))
        self.label_boxes = {}
        if self.flow.session.over:
            self.draw_result(surface, field)
        else:
            self.draw_order(surface, field)
        self.draw_aim_line(surface)
        for ship in range(len(state.ships)):
            self.draw_ship(surface, ship)
        self.draw_panel(surface)
        self.place_label_spots()

    def subtitle(self) -> str:
        """What is happening, beside the title (the header's right end says which round)."""
        state = self.state
        step = state.step
        if self.flow.session.over:
            return "The fight is over"
        if isinstance(step, PendingRoll):
            return f"{PURPOSE_TITLES[step.purpose]}: {state.ships[step.ship].name} rolls"
        if isinstance(step, PendingDamage):
            return f"{state.ships[step.ship].name} takes {counted(step.hits, 'hit')}"
        if isinstance(step, PendingRepair):
            return f"{state.ships[step.ship].name} repairs"
        if isinstance(step, PendingTrim):
            return f"{state.ships[step.ship].name}'s afterburner"
        acting = state.acting_ship
        if acting is not None:
            return f"{acting.name}'s turn, {counted(state.actions_left, 'action')} left"
        return "The aftermath" if state.phase == "aftermath" else "Ordering the ships by speed"

    def draw_order(self, surface: pygame.Surface, field: pygame.Rect) -> None:
        """The round's order as chips, fastest first; the ship acting now is lit, ships out are struck through."""
        layout = self.context.layout
        state = self.state
        order = state.order or tuple(sorted((s.index for s in state.ships if s.standing),
                                            key=lambda i: -state.ships[i].speed_hundredths))
        font = font_px(layout.px(15), True)
        x, y = field.left + layout.px(12), field.top + layout.px(10)
        label = "Speed order:" if state.phase != "tie_break" else "Tie for speed:"
        x = draw_text(surface, label, font, INK_DIM, (x, y + layout.px(14)), anchor="midleft").right + layout.px(8)
        acting = state.acting_ship
        for n, index in enumerate(order):
            ship = state.ships[index]
            text = f"{n + 1}. {ship.name} {ship.speed_text}"
            w = font.size(text)[0] + layout.px(34)
            if x + w > field.right - layout.px(8):
                draw_text(surface, "…", font, INK_DIM, (x, y + layout.px(14)), anchor="midleft")
                break
            chip = pygame.Rect(x, y, w, layout.px(28))
            self.label_boxes[("order", index)] = chip
            lit = acting is not None and acting.index == index
            pygame.draw.rect(surface, (60, 44, 96) if lit else (30, 24, 60), chip, border_radius=layout.px(14))
            pygame.draw.rect(surface, ACCENT_LIGHT if lit else (80, 70, 120), chip, max(1, layout.px(2)),
                             border_radius=layout.px(14))
            colour = program_colour(state.players[ship.owner])
            draw_program_marker(surface, ship.owner, (chip.left + layout.px(14), chip.centery), layout.px(8), colour)
            draw_text(surface, text, font, INK if ship.standing else INK_DIM, (chip.left + layout.px(26), chip.centery),
                      anchor="midleft")
            if not ship.standing:
                pygame.draw.line(surface, ACCENT_HOT, (chip.left + layout.px(24), chip.centery),
                                 (chip.right - layout.px(8), chip.centery), max(1, layout.px(2)))
            x = chip.right + layout.px(6)

    def draw_aim_line(self, surface: pygame.Surface) -> None:
        acting = self.state.acting_ship
        if acting is None or self.target is None or self.flow.session.over:
            return
        a, b = self.marker_centre(acting.index), self.marker_centre(self.target)
        length = math.dist(a, b)
        if length < 1:
            return
        dash = self.context.layout.px(10)
        steps = int(length // dash)
        for k in range(0, steps, 2):
            t0, t1 = k / steps, min(1.0, (k + 1) / steps)
            p0 = (a[0] + (b[0] - a[0]) * t0, a[1] + (b[1] - a[1]) * t0)
            p1 = (a[0] + (b[0] - a[0]) * t1, a[1] + (b[1] - a[1]) * t1)
            pygame.draw.line(surface, ACCENT_HOT, p0, p1, max(1, self.context.layout.px(2)))

    def draw_ship(self, surface: pygame.Surface, index: int) -> None:
        layout = self.context.layout
        state = self.state
        ship = state.ships[index]
        centre = self.marker_centre(index)
        r = self.marker_radius(index)
        colour = program_colour(state.players[ship.owner])
        acting = state.acting_ship
        step = state.step
        if acting is not None and acting.index == index and not self.flow.session.over:
            pulse = 0.5 + 0.5 * math.sin(self.clock * 4)
            pygame.draw.circle(surface, ACCENT_LIGHT, centre, r + layout.px(10 + 3 * pulse), max(2, layout.px(3)))
        hit = (isinstance(step, PendingDamage) and step.ship == index) or \
            (isinstance(step, PendingRoll) and step.target == index)
        if (index == self.target and not self.flow.session.over) or hit:
            pygame.draw.circle(surface, ACCENT_HOT, centre, r + layout.px(6), max(2, layout.px(2)))
            for angle in (0, 90, 180, 270):
                dx, dy = math.cos(math.radians(angle)), math.sin(math.radians(angle))
                pygame.draw.line(surface, ACCENT_HOT, (centre[0] + dx * (r + layout.px(2)), centre[1] + dy * (r + layout.px(2))),
                                 (centre[0] + dx * (r + layout.px(12)), centre[1] + dy * (r + layout.px(12))),
                                 max(2, layout.px(2)))
        if ship.eliminated:
            draw_marker(surface, shape_for(ship.owner), colour, centre, r * 0.8, debris=True)
        else:
            draw_program_marker(surface, ship.owner, centre, r, colour)
        name_font = font_px(layout.px(16), True)
        label = draw_text(surface, ship.name, name_font, INK if ship.standing else INK_DIM,
                          (centre[0], centre[1] + r + layout.px(6)), anchor="midtop", shadow=layout.px(1))
        self.label_boxes[("name", index)] = label
        small = font_px(layout.px(13), True)
        if not ship.standing:
            self.label_boxes[("out", index)] = draw_text(surface, "out of the fight", small, ACCENT_HOT,
                                                         (centre[0], label.bottom), anchor="midtop")
            return
        y = label.bottom + layout.px(9)
        text = f"speed {ship.speed_text}"
        w = small.size(text)[0]
        tokens = min(ship.heat, 6)
        coin = layout.px(6)
        crew = ship.crew_ready + ship.crew_hurt
        total = w + layout.px(10) + (tokens * (2 * coin + 2) if tokens else small.size("cool")[0]) + layout.px(10) + \
            min(crew, 6) * (2 * coin + 2)
        x = centre[0] - total // 2
        speed = draw_text(surface, text, small, INK_DIM, (x, y), anchor="midleft")
        self.label_boxes[("speed", index)] = speed
        x += w + layout.px(10)
        heat_left = x
        if tokens:
            for _ in range(tokens):
                draw_heat_token(surface, (x + coin, y), coin * 0.85)
                x += 2 * coin + 2
        else:
            x = draw_text(surface, "cool", small, INK_DIM, (x, y), anchor="midleft").right
        if ship.heat > tokens:
            x = draw_text(surface, "…", small, HEAT, (x + 2, y), anchor="midleft").right
        self.label_boxes[("heat", index)] = pygame.Rect(heat_left, speed.top, x - heat_left, speed.h)
        x += layout.px(10)
        crew_left = x
        for n in range(min(crew, 6)):
            draw_coin(surface, (x + coin, y), coin, "ready" if n < ship.crew_ready else "hurt")
            x += 2 * coin + 2
        if crew > 6:
            x = draw_text(surface, "…", small, COIN_GOLD, (x + 2, y), anchor="midleft").right
        if x > crew_left:
            self.label_boxes[("crew", index)] = pygame.Rect(crew_left, speed.top, x - crew_left, speed.h)

    def draw_panel(self, surface: pygame.Surface) -> None:
        layout = self.context.layout
        state = self.state
        shown = self.shown_ship()
        roster = self.roster_rect()
        if shown is not None:
            ship = state.ships[shown]
            clickable = self.clickable_slots()
            heading = "SHIP ROSTER" if not clickable else "CLICK A SLOT"
            stats: dict[str, pygame.Rect] = {}
            self.slot_rects = draw_roster(surface, roster, layout, RosterView.of_ship(self.engine, ship),
                                          program_colour(state.players[ship.owner]), clickable, self.hover_slot,
                                          heading, stats)
            stat_spots(self, stats, self.engine.rules)
            self.slot_rects = {k: v for k, v in self.slot_rects.items() if k < len(ship.systems)}
        area = self.controls_rect()
        card = area.inflate(layout.px(16), layout.px(8))
        draw_card(surface, card, layout)
        text_font = font_px(layout.px(16))
        prompt, detail = self.prompt()
        draw_text(surface, prompt, fit_font(prompt, area.w, layout.px(18), bold=True), ACCENT_LIGHT,
                  (area.left, area.top + layout.px(2)))
        step = state.step
        if isinstance(step, PendingRoll):
            weapon = self.engine.rules.systems.get(step.weapon).name if step.weapon else ""
            caption = roll_caption(state, step, weapon)
            top = y = area.top + layout.px(28)
            y = draw_wrapped(surface, caption, text_font, INK, pygame.Rect(area.left, y, area.w, layout.px(44)), 2)
            y += layout.px(2)
            y = draw_wrapped(surface, rule_line(step), font_px(layout.px(14)), INK_DIM,
                             pygame.Rect(area.left, y, area.w, layout.px(48)), 2)
            self.label_boxes[("roll", step.ship)] = pygame.Rect(area.left, top, area.w, y - top)
            odds = pygame.Rect(area.left, y + layout.px(10), area.w,
                               area.bottom - layout.px(ROW_H + 14) - (y + layout.px(10)))
            draw_odds(surface, odds, layout, self.engine.roll_distribution(step), step.purpose)
        elif detail:
            top = area.top + layout.px(30) if isinstance(step, (PendingDamage, PendingRepair)) or \
                self.flow.session.over or not self.human_turn() else area.bottom - layout.px(24)
            rect = pygame.Rect(area.left, top, area.w, area.bottom - top)
            draw_wrapped(surface, detail, text_font, INK_DIM, rect, 8)

    def prompt(self) -> tuple[str, str]:
        """The panel's heading and a line or two under it."""
        state = self.state
        step = state.step
        session = self.flow.session
        if session.over:
            outcome = self.engine.outcome(state)
            return "The fight is over", outcome.reason if outcome else ""
        who = self.flow.deciding()
        name = state.players[who].name if who is not None else ""
        computer = "" if self.flow.is_human(who) else " (computer)"
        if isinstance(step, PendingRoll):
            return f"{name}{computer}: the odds first", ""
        if isinstance(step, PendingDamage):
            ship = state.ships[step.ship]
            return (f"{name}{computer}: {counted(step.hits, 'hit')} on {ship.name}",
                    "Click the slot on the roster that takes the next hit. A second hit destroys a system (armor is "
                    "only marked); when every system is damaged the ship is out.")
        if isinstance(step, PendingRepair):
            return (f"{name}{computer}: {counted(step.marks, 'repair')}",
                    "Click a damaged slot on the roster to remove one mark. Destroyed systems stay destroyed.")
        if isinstance(step, PendingTrim):
            return f"{name}{computer}: the afterburner gives {counted(step.moves, 'change')}", ""
        acting = state.acting_ship
        if acting is None:
            return "", ""
        if not self.flow.is_human(who):
            return f"{name}{computer} is deciding…", f"{acting.name} has {counted(state.actions_left, 'action')} left."
        if self.aiming:
            return f"{acting.name}: aim at a slot", "Click a highlighted slot of the target's roster to fire."
        offered = " You offered a ceasefire this round." if acting.owner in state.ceasefire else ""
        return f"{acting.name}: {counted(state.actions_left, 'action')} left", offered.strip()

    def draw_result(self, surface: pygame.Surface, field: pygame.Rect) -> None:
        """The ending, in a band across the top of the field where the speed order was."""
        layout = self.context.layout
        outcome = self.engine.outcome(self.state)
        if outcome is None:
            return
        band = pygame.Rect(field.left + layout.px(10), field.top + layout.px(8), field.w - layout.px(20), layout.px(44))
        self.label_boxes[(RESULT, NO_SHIP)] = band
        pygame.draw.rect(surface, (60, 44, 96), band, border_radius=layout.px(12))
        pygame.draw.rect(surface, ACCENT_LIGHT, band, max(1, layout.px(2)), border_radius=layout.px(12))
        head = "Victory:" if outcome.winners else "No winner:"
        left = draw_text(surface, head, font_px(layout.px(22), True), ACCENT_LIGHT,
                         (band.left + layout.px(14), band.centery), anchor="midleft")
        room = band.right - layout.px(14) - left.right - layout.px(10)
        draw_text(surface, outcome.reason, fit_font(outcome.reason, room, layout.px(19)), INK,
                  (left.right + layout.px(10), band.centery), anchor="midleft")
