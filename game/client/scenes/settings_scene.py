"""Settings: window size, fullscreen, UI scale, animation speed, roll results, volume and music. Every change is
applied and saved at once, so there is no 'Apply' button to forget."""
from __future__ import annotations

from dataclasses import replace

import pygame
import pygame_gui
from pygame_gui.core import ObjectID

from game.client.kit.backdrop import Backdrop
from game.client.shell.scene import Scene
from game.client.shell.settings import ANIMATION_SPEEDS, UI_SCALES, WINDOW_PRESETS
from game.client.kit.style import ACCENT_LIGHT, INK_DIM, draw_card, draw_text, fit_font
from game.client.kit.widgets import status_lines

CARD_W, CARD_H = 960, 560
LABEL_W, ROW_H, ROW_GAP, PAD = 190, 50, 10, 40
ROWS_TOP = 100
BACK_W = 200
#: A setting's name in the status line after it changes.
FIELD_WORDS = {"window_size": "window size", "fullscreen": "display", "ui_scale": "text and buttons",
               "animation_speed": "animations", "volume": "sound", "auto_continue": "roll results",
               "music": "music"}


class SettingsScene(Scene):
    name = "settings"

    def __init__(self, context) -> None:
        super().__init__(context)
        self.backdrop = Backdrop(world=False)
        self.status = ""
        # (setting field, value) for every segmented button
        self.segments: dict[pygame_gui.elements.UIButton, tuple[str, object]] = {}
        self.volume_slider: pygame_gui.elements.UIHorizontalSlider | None = None
        self.volume_label: pygame_gui.elements.UILabel | None = None
        self.back_button: pygame_gui.elements.UIButton | None = None

    def card_rect(self) -> pygame.Rect:
        return self.context.layout.centred_rect(CARD_W, CARD_H)

    def build_ui(self) -> None:
        layout, manager, settings = self.context.layout, self.context.manager, self.context.settings
        card = self.card_rect()
        ox, oy = card.left / layout.scale, card.top / layout.scale  # card origin in units
        self.segments = {}
        rows = [
            ("Window size", "window_size", [(p, f"{p[0]}×{p[1]}") for p in WINDOW_PRESETS]),
            ("Display", "fullscreen", [(False, "Windowed"), (True, "Fullscreen")]),
            ("Text & buttons", "ui_scale", [(s, f"{round(s * 100)}%") for s in UI_SCALES]),
            ("Animations", "animation_speed", [(s, s.capitalize()) for s in ANIMATION_SPEEDS]),
            ("Roll results", "auto_continue", [(False, "Wait for me"), (True, "Auto-continue")]),
        ]
        content_w = CARD_W - 2 * PAD - LABEL_W
        for r, (title, field, options) in enumerate(rows):
            y = oy + ROWS_TOP + r * (ROW_H + ROW_GAP)
            self._row_label(title, ox + PAD, y)
            gap = 8
            seg_w = (content_w - gap * (len(options) - 1)) / len(options)
            seg_w = min(seg_w, 180)
            for i, (value, text) in enumerate(options):
                rect = layout.rect(ox + PAD + LABEL_W + i * (seg_w + gap), y, seg_w, ROW_H)
                button = pygame_gui.elements.UIButton(rect, text, manager, container=self.root,
                                                      object_id=ObjectID(class_id="@segment"))
                if getattr(settings, field) == value:
                    button.select()
                self.segments[button] = (field, value)
        y = oy + ROWS_TOP + len(rows) * (ROW_H + ROW_GAP)
        self._row_label("Sound", ox + PAD, y)
        self.volume_slider = pygame_gui.elements.UIHorizontalSlider(
            layout.rect(ox + PAD + LABEL_W, y + 6, 300, ROW_H - 12), round(settings.volume * 100), (0, 100),
            manager, container=self.root)
        self.volume_label = pygame_gui.elements.UILabel(
            layout.rect(ox + PAD + LABEL_W + 310, y, 90, ROW_H), self._volume_text(settings.volume), manager,
            container=self.root)
        for i, (value, text) in enumerate(((True, "Music on"), (False, "Music off"))):
            rect = layout.rect(ox + PAD + LABEL_W + 410 + i * 138, y, 130, ROW_H)
            button = pygame_gui.elements.UIButton(rect, text, manager, container=self.root,
                                                  object_id=ObjectID(class_id="@segment"))
            if settings.music == value:
                button.select()
            self.segments[button] = ("music", value)
        self.back_button = pygame_gui.elements.UIButton(
            layout.rect(ox + CARD_W - PAD - BACK_W, oy + CARD_H - PAD - ROW_H, BACK_W, ROW_H), "Back", manager,
            container=self.root, object_id=ObjectID(object_id="#back", class_id="@menu_button"))

    def _row_label(self, text: str, x: float, y: float) -> None:
        pygame_gui.elements.UILabel(self.context.layout.rect(x, y, LABEL_W - 10, ROW_H), text,
                                    self.context.manager, container=self.root,
                                    object_id=ObjectID(class_id="@setting_name"))

    @staticmethod
    def _value_words(field: str, value) -> str:
        if field == "window_size":
            return f"{value[0]}×{value[1]}"
        if field == "fullscreen":
            return "fullscreen" if value else "windowed"
        if field == "ui_scale":
            return f"{round(value * 100)}%"
        if field == "volume":
            return SettingsScene._volume_text(value).lower()
        if field == "auto_continue":
            return "go on by themselves" if value else "wait for you"
        if field == "music":
            return "on" if value else "off"
        return str(value)

    @staticmethod
    def _volume_text(volume: float) -> str:
        return "Off" if volume <= 0 else f"{round(volume * 100)}%"

    def handle_event(self, event: pygame.event.Event) -> bool:
        if event.type == pygame_gui.UI_BUTTON_PRESSED:
            if event.ui_element is self.back_button:
                self.context.back()
                return True
            if event.ui_element in self.segments:
                field, value = self.segments[event.ui_element]
                self.change(**{field: value})
                return True
        if event.type == pygame_gui.UI_HORIZONTAL_SLIDER_MOVED and event.ui_element is self.volume_slider:
            volume = event.value / 100
            if self.volume_label is not None:
                self.volume_label.set_text(self._volume_text(volume))
            self.change(volume=volume)
            return True
        if event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE:
            self.context.back()
            return True
        return False

    def status_rect(self) -> pygame.Rect:
        """Where the status line goes: the card's foot, left of Back (no widget there)."""
        layout = self.context.layout
        card = self.card_rect()
        ox, oy = card.left / layout.scale, card.top / layout.scale
        return layout.rect(ox + PAD, oy + CARD_H - PAD - ROW_H - 6, CARD_W - 2 * PAD - BACK_W - 24, ROW_H + 12)

    def change(self, **values) -> None:
        """Apply and save one or more changed settings (rebuilds the layout if the window changed)."""
        new = replace(self.context.settings, **values)
        if new == self.context.settings:
            return
        structural = any(k in values for k in ("window_size", "fullscreen", "ui_scale"))
        self.status = self.context.update_settings(new)
        if self.status == "Saved.":
            words = ", ".join(f"{FIELD_WORDS.get(k, k)} {self._value_words(k, v)}" for k, v in values.items())
            self.status = f"Saved: {words}."
        if not structural:  # structural changes already rebuilt every widget from the new settings
            for button, (field, value) in self.segments.items():
                if getattr(new, field) == value:
                    button.select()
                else:
                    button.unselect()

    def update(self, dt: float) -> None:
        self.backdrop.update(dt)

    def draw(self, surface: pygame.Surface) -> None:
        layout = self.context.layout
        self.backdrop.draw(surface)
        card = self.card_rect()
        draw_card(surface, card, layout)
        heading = fit_font("Settings", card.w - layout.px(2 * PAD), layout.px(40), bold=True)
        draw_text(surface, "Settings", heading, ACCENT_LIGHT, (card.left + layout.px(PAD), card.top + layout.px(30)))
        status = self.status or "Changes are saved as you make them."
        box = self.status_rect()
        font, lines = status_lines(status, box.w, box.h, layout.px(18), min_size=layout.px(11))
        y = box.centery - len(lines) * font.get_linesize() // 2
        for line in lines:  # whole, wrapped: never cut, never under Back
            draw_text(surface, line, font, INK_DIM, (box.left, y))
            y += font.get_linesize()
