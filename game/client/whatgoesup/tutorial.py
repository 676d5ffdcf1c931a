"""The guided first mission: a real one-program game with a guide drawn over the real scenes.

``open_tutorial(context)`` starts the training mission (or resumes it where it was left) through the
ordinary ``GameFlow``; the ``TutorialGuide`` is an app layer that spotlights the widget or region each
lesson of ``game.games.whatgoesup.tutorial_script`` talks about, shows a short card, and moves on when the lesson's
predicate says the player has done it. The player does every action through R&D, assembly and the
Field; the guide only takes clicks on its own card.

Progress lives in ``<saves>/tutorial/``: ``tutorial.json`` is a normal save of the game and
``progress.json`` the lesson step. Esc pauses like any game; quitting to the title keeps both, and the
title's Tutorial button resumes.
"""
from __future__ import annotations

import json
import logging
import math
from pathlib import Path
from typing import Optional

import pygame

from game.core import saves
from game.core.dice_rng import ScriptedDice
from game.core.session import GameSession
from game.games.whatgoesup.tutorial_script import LESSONS, SCRIPTED_ROLLS, SEED, hint, lesson_index, lesson_text, tutorial_setup

from game.client.kit.style import ACCENT, ACCENT_HOT, ACCENT_LIGHT, CARD, INK, INK_DIM, draw_card, draw_text, fit_font, font_px, \
    wrap_text

log = logging.getLogger("whatgoesup")

#: Scenes the guide shows over; over anything else (pause menu, help, saving) it keeps out of the way.
GUIDED_SCENES = ("rnd", "assembly", "field", "turn_report", "flight_panel")


def tutorial_folder() -> Path:
    return saves.saves_folder() / "tutorial"


def save_path() -> Path:
    return tutorial_folder() / "tutorial.json"


def progress_path() -> Path:
    return tutorial_folder() / "progress.json"


def read_progress() -> Optional[str]:
    """The lesson id where the player left the tutorial, or None."""
    try:
        data = json.loads(progress_path().read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    lesson = data.get("lesson") if isinstance(data, dict) else None
    try:
        lesson_index(lesson)
    except KeyError:
        return None
    return lesson if save_path().exists() else None


def has_progress() -> bool:
    return read_progress() is not None


def clear_progress() -> None:
    for path in (progress_path(), save_path()):
        try:
            path.unlink()
        except OSError:
            pass


def new_session(engine) -> GameSession:
    return GameSession.new(engine, tutorial_setup(), SEED, saves_dir=tutorial_folder(),
                           dice=ScriptedDice(SCRIPTED_ROLLS, SEED))


def open_tutorial(context, restart: bool = False) -> "TutorialGuide":
    """The title's Tutorial: resume the training mission where it was left, else start it."""
    from game.client.whatgoesup.shipped import shipped_engine

    engine = shipped_engine()
    lesson = None if restart else read_progress()
    session = None
    if lesson is not None:
        try:
            session = GameSession.load(engine, save_path(), saves_dir=tutorial_folder(),
                                       dice=ScriptedDice(SCRIPTED_ROLLS, SEED))
        except saves.SaveError as exc:
            log.warning("tutorial: could not resume (%s); starting again", exc)
            session, lesson = None, None
    if session is None:
        clear_progress()
        session = new_session(engine)
    for layer in list(context.app.layers):
        if isinstance(layer, TutorialGuide):
            context.app.layers.remove(layer)
    flow = context.start_game(session)
    guide = TutorialGuide(context, flow, lesson_index(lesson) if lesson else 0)
    flow.tutorial = guide  # type: ignore[attr-defined]
    context.app.layers.append(guide)
    guide.save()
    return guide


class TutorialGuide:
    """The spotlight and the lesson card over the game's scenes (an app layer)."""

    CARD_W = 430

    def __init__(self, context, flow, index: int = 0) -> None:
        self.context = context
        self.flow = flow
        self.index = index
        self.time = 0.0
        self.saved_at: tuple = ()
        self.buttons: dict[str, pygame.Rect] = {}
        self.finished = False

    # ------------------------------------------------------------------ state
    @property
    def session(self) -> GameSession:
        return self.flow.session

    @property
    def lesson(self):
        return LESSONS[self.index]

    def top_name(self) -> str:
        top = self.context.stack.top
        return getattr(top, "name", "") if top is not None else ""

    def attached(self) -> bool:
        """Still playing the tutorial game (a scene of its flow is on the stack)."""
        return any(getattr(scene, "flow", None) is self.flow for scene in self.context.stack)

    def visible(self) -> bool:
        return not self.finished and self.top_name() in GUIDED_SCENES

    def advance(self) -> None:
        """Past every lesson already done (a loaded game may be ahead of the lesson saved)."""
        moved = False
        while self.index < len(LESSONS) - 1:
            done = self.lesson.done
            if done is None or not done(self.session, self.top_name()):
                break
            self.index += 1
            moved = True
        if moved:
            self.time = 0.0
            self.save()

    def next(self) -> None:
        """The Next button of a lesson to read."""
        if self.index < len(LESSONS) - 1:
            self.index += 1
            self.time = 0.0
            self.save()
        self.advance()

    def save(self) -> None:
        """The game as a normal save, and the lesson step beside it (only when either changed)."""
        key = (len(self.session.actions), self.index)
        if key == self.saved_at:
            return
        self.saved_at = key
        try:
            tutorial_folder().mkdir(parents=True, exist_ok=True)
            self.session.save(save_path())
            progress_path().write_text(json.dumps({"lesson": self.lesson.id}), encoding="utf-8")
        except (OSError, saves.SaveError) as exc:
            log.warning("tutorial: could not save progress: %s", exc)

    def finish(self, to_title: bool) -> None:
        self.finished = True
        clear_progress()
        if self in self.context.app.layers:
            self.context.app.layers.remove(self)
        if to_title:
            self.flow.quit_to_title()

    # ------------------------------------------------------------------ app layer
    def handle_event(self, event: pygame.event.Event) -> bool:
        if not self.visible():
            return False
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            for key, rect in self.buttons.items():
                if rect.collidepoint(event.pos):
                    if key == "next":
                        self.next()
                    elif key == "keep":
                        self.finish(to_title=False)
                    elif key == "title":
                        self.finish(to_title=True)
                    return True
            return bool(self.buttons) and self.card_rect(self.target_rect()).collidepoint(event.pos)
        return False

    def update(self, dt: float) -> None:
        if not self.attached():  # back at the title: keep the progress for the Tutorial button
            self.save()
            if self in self.context.app.layers:
                self.context.app.layers.remove(self)
            return
        self.time += dt
        self.advance()
        self.save()

    # ------------------------------------------------------------------ where to point
    def target_rect(self) -> Optional[pygame.Rect]:
        """The spotlight for the current lesson on the scene on top (None: nothing there to point at)."""
        top = self.context.stack.top
        spec = self.lesson.targets.get(self.top_name())
        if top is None or spec is None:
            return None
        try:
            return self._resolve(top, spec)
        except (AttributeError, KeyError, TypeError, ValueError):
            return None

    def _resolve(self, scene, spec: str) -> Optional[pygame.Rect]:
        layout = self.context.layout
        kind, _, arg = spec.partition(":")
        if kind == "button":
            button = scene.buttons.get(arg)
            return button.rect.copy() if button is not None and button.visible else None
        if kind == "chips":
            return layout.rect(24, 76, scene.split_x() - 36, 44)
        if kind == "tab":
            if scene.tab != arg:
                return scene.buttons[f"tab:{arg}"].rect.copy()
            return layout.rect(*scene.panel_units())
        if kind == "field":
            if arg == "roll" and scene.roll_panel.visible(scene.state):
                return scene.roll_panel.card_rect(scene.state)
            if arg == "board" or (arg == "roll"):
                return scene.board_rect.inflate(-layout.px(40), -layout.px(40))
            return scene.panel_rect()
        if kind == "assembly":
            return layout.rect(24, 84, max(560.0, layout.virtual_width * 0.5) - 36, scene.list_height() + 60)
        if kind == "report":
            return None  # the report is the lesson: no spotlight, just the card
        return None

    def card_rect(self, target: Optional[pygame.Rect]) -> pygame.Rect:
        layout = self.context.layout
        width = layout.px(self.CARD_W)
        height = self._card_height(width)
        margin = layout.px(20)
        w, h = layout.size
        candidates = []
        for pos in ("midleft", "midright", "bottomleft", "bottomright", "topright", "topleft", "midbottom"):
            rect = pygame.Rect(0, 0, width, height)
            anchor = {"midleft": (margin, h // 2), "midright": (w - margin, h // 2),
                      "bottomleft": (margin, h - layout.px(96)), "bottomright": (w - margin, h - layout.px(96)),
                      "topright": (w - margin, layout.px(80)), "topleft": (margin, layout.px(80)),
                      "midbottom": (w // 2, h - layout.px(96))}[pos]
            setattr(rect, pos, anchor)
            rect.clamp_ip(pygame.Rect(0, 0, w, h))
            candidates.append(rect)
        if target is None:
            return candidates[0]
        for rect in candidates:
            if not rect.colliderect(target.inflate(layout.px(16), layout.px(16))):
                return rect
        return min(candidates, key=lambda r: r.clip(target).w * r.clip(target).h)

    # ------------------------------------------------------------------ drawing
    def _texts(self) -> tuple[str, str, str]:
        lesson = self.lesson
        body = lesson_text(lesson, self.session.engine.rules)
        extra = hint(self.session, lesson)
        where = ""
        if self.lesson.targets and self.top_name() not in self.lesson.targets:
            names = {"rnd": "R&D", "assembly": "the assembly", "field": "the Field", "turn_report": "the report"}
            where = "This happens in " + " or ".join(names.get(k, k) for k in self.lesson.targets) + "."
        return body, extra, where

    def _fonts(self):
        layout = self.context.layout
        return font_px(layout.px(24), True), font_px(layout.px(17)), font_px(layout.px(15))

    def _card_height(self, width: int) -> int:
        layout = self.context.layout
        head, body_font, small = self._fonts()
        body, extra, where = self._texts()
        inner = width - layout.px(40)
        lines = len(wrap_text(body, body_font, inner)) + len(wrap_text(extra, body_font, inner)) if extra else \
            len(wrap_text(body, body_font, inner))
        h = layout.px(20) + small.get_linesize() + head.get_linesize() + layout.px(8)
        h += lines * body_font.get_linesize()
        if where:
            h += len(wrap_text(where, small, inner)) * small.get_linesize() + layout.px(4)
        h += layout.px(8) + small.get_linesize()  # the footer line
        if self.lesson.done is None:
            h += layout.px(12) + layout.px(40)
        h += layout.px(16)
        return h

    def draw(self, surface: pygame.Surface) -> None:
        if not self.visible():
            self.buttons = {}
            return
        layout = self.context.layout
        target = self.target_rect()
        if target is not None:
            self._spotlight(surface, target)
        card = self.card_rect(target)
        draw_card(surface, card, layout, colour=CARD, edge=ACCENT_LIGHT)
        head, body_font, small = self._fonts()
        body, extra, where = self._texts()
        x = card.left + layout.px(20)
        inner = card.w - layout.px(40)
        y = card.top + layout.px(16)
        step = f"Training mission · step {self.index + 1} of {len(LESSONS)}"
        draw_text(surface, step, small, INK_DIM, (x, y))
        y += small.get_linesize()
        title = self.lesson.title
        draw_text(surface, title, fit_font(title, inner, layout.px(24), bold=True), ACCENT_LIGHT, (x, y))
        y += head.get_linesize() + layout.px(8)
        for text, colour in ((body, INK), (extra, ACCENT_HOT)):
            for line in wrap_text(text, body_font, inner) if text else []:
                draw_text(surface, line, body_font, colour, (x, y))
                y += body_font.get_linesize()
        if where:
            for line in wrap_text(where, small, inner):
                draw_text(surface, line, small, ACCENT_LIGHT, (x, y))
                y += small.get_linesize()
        self.buttons = {}
        bottom = card.bottom - layout.px(16)
        footer = ("Esc pauses: you can leave and come back later." if self.lesson.done is None
                  else "Do it on the screen: this card moves on by itself.")
        y += layout.px(8)
        draw_text(surface, footer, fit_font(footer, inner, layout.px(15)), INK_DIM, (x, y))
        if self.index == len(LESSONS) - 1:
            self._button(surface, "title", "Back to title", pygame.Rect(0, 0, layout.px(170), layout.px(40)),
                         ("bottomright", (card.right - layout.px(20), bottom)))
            self._button(surface, "keep", "Keep playing", pygame.Rect(0, 0, layout.px(170), layout.px(40)),
                         ("bottomleft", (x, bottom)))
        elif self.lesson.done is None:
            self._button(surface, "next", "Next", pygame.Rect(0, 0, layout.px(130), layout.px(40)),
                         ("bottomright", (card.right - layout.px(20), bottom)))

    def _button(self, surface, key: str, text: str, rect: pygame.Rect, anchor) -> None:
        layout = self.context.layout
        setattr(rect, anchor[0], anchor[1])
        hover = rect.collidepoint(pygame.mouse.get_pos())
        pygame.draw.rect(surface, ACCENT_LIGHT if hover else ACCENT, rect, border_radius=layout.px(10))
        font = fit_font(text, rect.w - layout.px(16), layout.px(19), bold=True)
        draw_text(surface, text, font, (28, 18, 40), rect.center, anchor="center")
        self.buttons[key] = rect

    def _spotlight(self, surface: pygame.Surface, target: pygame.Rect) -> None:
        """Darken everything but ``target`` a little, and outline it with a gentle pulse."""
        layout = self.context.layout
        hole = target.inflate(layout.px(12), layout.px(12)).clip(surface.get_rect())
        veil = pygame.Surface(surface.get_size(), pygame.SRCALPHA)
        veil.fill((5, 4, 16, 110))
        veil.fill((0, 0, 0, 0), hole)
        surface.blit(veil, (0, 0))
        pulse = 0.5 + 0.5 * math.sin(self.time * 4.0)
        width = max(2, layout.px(3 + 2 * pulse))
        pygame.draw.rect(surface, ACCENT_HOT, hole, width, border_radius=layout.px(10))
