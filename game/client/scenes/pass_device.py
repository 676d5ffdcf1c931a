"""Hot-seat: "pass the device to <program>", so nobody acts for someone else by accident.

It shows the program's colour, shape, name and people and why it is their go; nothing of the
program's own hand is visible until its player presses Continue (or Space/Enter).
"""
from __future__ import annotations

import pygame

from game.client.scenes.game_scene import GameScene
from game.client.kit.draw import draw_program_marker, program_colour
from game.client.kit.style import ACCENT_LIGHT, INK, INK_DIM, draw_card, draw_text, fit_font, font_px


class PassDeviceScene(GameScene):
    name = "pass_device"
    flow_main = True
    CARD_W, CARD_H = 720, 440

    def __init__(self, context, flow, program: int) -> None:
        super().__init__(context, flow)
        self.program = program

    def card_rect(self) -> pygame.Rect:
        return self.context.layout.centred_rect(self.CARD_W, self.CARD_H)

    def build_ui(self) -> None:
        super().build_ui()
        layout = self.context.layout
        card = self.card_rect()
        rect = pygame.Rect(0, 0, card.w - layout.px(80), layout.px(56))
        rect.midbottom = (card.centerx, card.bottom - layout.px(32))
        name = self.flow.state.programs[self.program].name
        text = f"I am {name}: continue"
        if fit_font(text, rect.w - layout.px(40), layout.px(24), bold=True).get_height() < layout.px(24) * 0.9:
            text = "Continue"
        self.add_button("continue", rect, text, "@menu_button")

    def reason(self) -> str:
        state = self.flow.state
        if state.pending_trade is not None and state.pending_trade.partner == self.program:
            proposer = state.programs[state.pending_trade.proposer].name
            return f"{proposer} offers you a trade. Look at it and accept or decline."
        if state.phase == "flight":
            return f"Flights of turn {state.turn}: your Upgoer's move."
        return f"Research and development, turn {state.turn}: spend your points."

    def on_button(self, key: str) -> None:
        if key == "continue":
            self.flow.passed_to(self.program)

    def on_key(self, event) -> bool:
        if event.key in (pygame.K_SPACE, pygame.K_RETURN, pygame.K_KP_ENTER):
            self.flow.passed_to(self.program)
            return True
        if event.key == pygame.K_ESCAPE:
            self.flow.open_menu()
            return True
        ctrl = bool(event.mod & pygame.KMOD_CTRL)
        if ctrl and event.key == pygame.K_z:
            name = self.flow.state.programs[self.program].name
            self.toast(f"Nothing was undone: {name} takes the device first (Continue), then Ctrl+Z undoes "
                       "their last step if it can.", "warn")
            return True
        if ctrl and event.key == pygame.K_s:
            self.flow.open_save(self)  # saving shows nobody's hand
            return True
        return True  # nothing else happens until the right player takes the device

    def draw_content(self, surface: pygame.Surface) -> None:
        layout = self.context.layout
        program = self.flow.state.programs[self.program]
        people = next((p for p in self.flow.session.engine.rules.peoples.peoples if p.id == program.people), None)
        colour = program_colour(program)
        card = self.card_rect()
        draw_card(surface, card, layout, edge=colour)
        pad = layout.px(40)
        inner = card.inflate(-2 * pad, 0)
        small = font_px(layout.px(20))
        y = card.top + layout.px(30)
        draw_text(surface, "Pass the device to", small, INK_DIM, (card.centerx, y), anchor="midtop")
        y += small.get_linesize() + layout.px(18)
        marker_r = layout.px(30)
        name_font = fit_font(program.name, inner.w - 3 * marker_r, layout.px(48), bold=True)
        name_w = name_font.size(program.name)[0]
        left = card.centerx - (name_w + 3 * marker_r) // 2
        draw_program_marker(surface, program.index, (left + marker_r, y + name_font.get_height() // 2), marker_r, colour)
        draw_text(surface, program.name, name_font, colour, (left + 3 * marker_r, y), shadow=layout.px(2))
        y += name_font.get_linesize() + layout.px(8)
        if people is not None:
            people_font = font_px(layout.px(20), True)
            draw_text(surface, people.name, people_font, ACCENT_LIGHT, (card.centerx, y), anchor="midtop")
            y += people_font.get_linesize()
            desc_font = font_px(layout.px(18))
            for line in _centred_lines(people.description, desc_font, inner.w):
                draw_text(surface, line, desc_font, INK_DIM, (card.centerx, y), anchor="midtop")
                y += desc_font.get_linesize()
            y += layout.px(16)
        reason_font = font_px(layout.px(20))
        for line_y, line in enumerate(_centred_lines(self.reason(), reason_font, inner.w)):
            draw_text(surface, line, reason_font, INK, (card.centerx, y + line_y * reason_font.get_linesize()),
                      anchor="midtop")
        hint = "Everyone else: look away, please!"
        hint_font = font_px(layout.px(16))
        draw_text(surface, hint, hint_font, INK_DIM, (card.centerx, card.bottom + layout.px(16)), anchor="midtop")


def _centred_lines(text: str, font, width: int) -> list[str]:
    from game.client.kit.style import wrap_text

    return wrap_text(text, font, width)[:2]
