"""A one-time hint, tutorial-style: what an underped system is, shown the first time a program invents one.

``robot_hint_text(rules)`` gives the words (every number from the loaded rules), so tests read them without a
window; ``RobotHintOverlay`` shows them on a card over R&D until the player closes it.
"""
from __future__ import annotations

import pygame
import pygame_gui
from pygame_gui.core import ObjectID

from game.client.kit.style import ACCENT_LIGHT, INK, dim, draw_card, draw_text, fit_font, font_px
from game.client.kit.text import draw_wrapped, wrap_text
from game.client.kit.words import counted
from game.client.shell.scene import Scene

TITLE = "Your first robot pilot!"


def robot_hint_text(rules) -> list[str]:
    """The hint's paragraphs, with the numbers of ``rules``."""
    u, d = rules.components.underped, rules.economy.derps
    share = rules.prestige.underped_share
    share = str(share.numerator) if share.denominator == 1 else f"{share.numerator}/{share.denominator}"
    return [
        "An underped system is a part and a crew member at once. Build it, then load it into a capsule on the "
        "assembly screen like any other part: it takes a seat, weighs 1 and eats no rations. A craft flown by "
        "robots alone may go anywhere.",
        f"It starts with a new derp's skills: Piloting {d.start_piloting}, Engineering {d.start_engineering}, "
        f"Stamina {d.start_stamina}. Program it on "
        f"the Derps tab ({counted(u.program_cost_per_stamina, 'point')} per stamina point), even when it already "
        f"waits on the pad: it never stays home for it.",
        f"In flight it spends {counted(u.action_stamina, 'stamina point')} on everything it does, every burn "
        f"included. After liftoff it must pass a reliability check to power up, so research it like a rocket.",
        "Accidents that would hurt a derp switch it off; worse ones destroy it and strand the craft, but losing "
        f"a robot costs no dots. Firsts won by robots alone pay {share} of their dots, rounded up.",
    ]


class RobotHintOverlay(Scene):
    """A modal card with the hint and a button to close it."""

    name = "robot_hint"
    is_overlay = True
    CARD_W, CARD_H = 720, 470

    def __init__(self, context, rules) -> None:
        super().__init__(context)
        self.rules = rules
        self.close_button: pygame_gui.elements.UIButton | None = None

    def card_rect(self) -> pygame.Rect:
        return self.context.layout.centred_rect(self.CARD_W, self.CARD_H)

    def build_ui(self) -> None:
        layout = self.context.layout
        card = self.card_rect()
        rect = layout.corner_rect(card, 200, 50, 32, 26)
        self.close_button = pygame_gui.elements.UIButton(rect, "Got it", self.context.manager, container=self.root,
                                                         object_id=ObjectID(object_id="#close",
                                                                            class_id="@menu_button"))

    def handle_event(self, event: pygame.event.Event) -> bool:
        if event.type == pygame_gui.UI_BUTTON_PRESSED and event.ui_element is self.close_button:
            self.context.back()
            return True
        if event.type == pygame.KEYDOWN and event.key in (pygame.K_ESCAPE, pygame.K_RETURN, pygame.K_SPACE):
            self.context.back()
            return True
        return event.type in (pygame.KEYDOWN, pygame.MOUSEBUTTONDOWN)  # modal

    def draw(self, surface: pygame.Surface) -> None:
        layout = self.context.layout
        dim(surface)
        card = self.card_rect()
        draw_card(surface, card, layout)
        left = card.left + layout.px(32)
        width = card.w - layout.px(64)
        draw_text(surface, TITLE, fit_font(TITLE, width, layout.px(32), bold=True), ACCENT_LIGHT,
                  (left, card.top + layout.px(24)))
        bottom = card.bottom - layout.px(90)
        paragraphs = robot_hint_text(self.rules)
        top = card.top + layout.px(80)
        for units in (19, 18, 17, 16, 15, 14, 13):  # the largest size at which every paragraph fits whole
            font = font_px(layout.px(units))
            height = sum(len(wrap_text(text, font, width)) * font.get_linesize() + layout.px(10)
                         for text in paragraphs)
            if top + height <= bottom:
                break
        y = top
        for text in paragraphs:
            y = draw_wrapped(surface, text, font, INK, pygame.Rect(left, y, width, max(1, bottom - y))) + layout.px(10)
