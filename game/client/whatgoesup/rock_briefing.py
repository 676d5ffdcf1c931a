"""Stop The Rock teaches itself: the card over the first R&D of a rock game says what must be done and
roughly how, with every number read from the loaded tables (scenarios.yaml and the board)."""
from __future__ import annotations

import pygame

from game.client.kit.style import ACCENT_LIGHT, INK, INK_DIM, dim, draw_card, draw_text, fit_font, font_px, wrap_text
from game.client.scenes.game_scene import GameScene
from game.client.whatgoesup.hud import ROCK_COLOUR, draw_rock_track, turns_to_impact


def briefing_lines(engine, state) -> list[tuple[str, str]]:
    """(heading, sentence) pairs: the goal, what a nudge is, and a rough plan, for ``state``'s rock game."""
    rock = state.rock
    scenario = engine.rock_rules.scenario(state)
    score = scenario.score
    board = engine.rules.board
    try:
        intercept = board.step(scenario.intercept_step).name
    except KeyError:
        intercept = scenario.intercept_step.replace("_", " ")
    together = "Every program wins or loses together." if scenario.cooperative and len(state.programs) > 1 else ""
    return [
        ("The goal", f"The rock hits the world in {rock.turns_left} turns unless your nudges add up to "
                     f"{rock.nudges_needed}. {together}".strip()),
        ("A nudge", f"Land a craft with a working thruster on the rock and fire it: {scenario.nudge_fuel} fuel a "
                    f"nudge. A nudge is worth the turns still left when it is given, so early nudges count most: "
                    f"one now would be worth {rock.turns_left}."),
        ("Roughly how", f"Research a strong lower stage, a capsule and a thruster, and test them on a short hop. "
                        f"Then fly to Low Orbit, take the Rock intercept burn to {intercept}, follow the rock's "
                        f"track and land on it with fuel to spare for several nudges."),
        ("Keep an eye on", "The rock's track in the header: each turn it comes closer, and its drift die may "
                           "move it. The end-of-turn report says how many nudges are still needed."),
        ("The score", f"Saving the world scores {score.base}, plus {score.per_turn_left} for every turn to spare; "
                      f"then bring your crew home, as each derp lost or left in space costs "
                      f"{-score.per_derp_lost} points."),
    ]


class RockBriefingScene(GameScene):
    """The first-turn card of Stop The Rock (an overlay on the first R&D); Space, Enter or the button closes it."""

    name = "rock_briefing"
    is_overlay = True

    def card_rect(self) -> pygame.Rect:
        return self.context.layout.centred_rect(860, 640)

    def build_ui(self) -> None:
        super().build_ui()
        layout = self.context.layout
        card = self.card_rect()
        self.add_button("go", layout.corner_rect(card, 300, 52, 32, 24), "Let's save the world", "@menu_button")

    def on_button(self, key: str) -> None:
        if key == "go":
            self.context.back()

    def on_key(self, event) -> bool:
        if event.key in (pygame.K_SPACE, pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_ESCAPE):
            self.context.back()
        return True

    def text_rects(self) -> list[pygame.Rect]:
        """Where each paragraph was drawn last frame (for the layout tests)."""
        return list(getattr(self, "_drawn", []))

    def lines_left_out(self) -> int:
        """How many wrapped lines found no room last frame (the layout tests hold it to 0)."""
        return getattr(self, "_left_out", 0)

    def draw(self, surface: pygame.Surface) -> None:
        layout = self.context.layout
        dim(surface)
        card = self.card_rect()
        draw_card(surface, card, layout, edge=ROCK_COLOUR)
        inner = card.inflate(-layout.px(64), -layout.px(48))
        state = self.flow.session.state
        engine = self.flow.session.engine
        title = engine.rock_rules.scenario(state).name
        head = fit_font(title, inner.w - layout.px(300), layout.px(36), bold=True)
        draw_text(surface, title, head, ACCENT_LIGHT, (inner.left, inner.top))
        track = pygame.Rect(inner.right - layout.px(280), inner.top + layout.px(6), layout.px(280), layout.px(34))
        draw_rock_track(surface, track, state.rock.turns_left, turns_to_impact(engine, state), False, 0.0)
        y = inner.top + head.get_linesize() + layout.px(14)
        label, body = font_px(layout.px(19), True), font_px(layout.px(18))
        bottom = card.bottom - layout.px(24) - layout.px(52) - layout.px(12)
        self._drawn, self._left_out = [], 0
        for heading, sentence in briefing_lines(engine, state):
            top = y
            draw_text(surface, heading, label, ACCENT_LIGHT, (inner.left, y))
            y += label.get_linesize()
            for line in wrap_text(sentence, body, inner.w):
                if y + body.get_linesize() > bottom:
                    self._left_out += 1
                    continue
                draw_text(surface, line, body, INK, (inner.left, y))
                y += body.get_linesize()
            self._drawn.append(pygame.Rect(inner.left, top, inner.w, y - top))
            y += layout.px(10)
        hint = "Space to begin"
        draw_text(surface, hint, font_px(layout.px(15)), INK_DIM, (inner.left, card.bottom - layout.px(44)),
                  anchor="midleft")
