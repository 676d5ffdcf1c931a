"""The guided first mission: a real one-program game with a guide drawn over the real scenes.

``open_tutorial(context)`` starts the training mission (or resumes it where it was left) through the
ordinary ``GameFlow``; the ``TutorialGuide`` is an app layer that spotlights the widget or region each
lesson of ``game.games.whatgoesup.tutorial_script`` talks about, shows a short card placed so that it never
covers the spotlight or what the lesson asks the player to read, and moves on when the lesson's predicate
says the player has done it and the dice and the result card have settled. The player does every action
through R&D, assembly and the Field; the guide only takes clicks on its own card.

Progress lives in ``<saves>/tutorial/``: ``tutorial.json`` is a normal save of the game and
``progress.json`` the lesson step. Esc pauses like any game; quitting to the title keeps both, and the
title's Tutorial button resumes. "Keep playing" (on the last card, or "play on my own" on any card) ends the
lessons and makes the game an ordinary one: saved in the saves folder, where the title's Continue finds it.
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
from game.games.whatgoesup.tutorial_script import LESSONS, SEED, TutorialDice, hint, lesson_index, lesson_text, \
    read_specs, target_spec, tutorial_setup

from game.client.kit.style import ACCENT, ACCENT_HOT, ACCENT_LIGHT, CARD, HEADER_H, INK, INK_DIM, draw_card, draw_text, fit_font, \
    font_px, wrap_text

log = logging.getLogger("whatgoesup")

#: Scenes the guide shows over; over anything else (pause menu, help, saving) it keeps out of the way.
GUIDED_SCENES = ("rnd", "assembly", "field", "turn_report", "flight_panel")
#: The name of the ordinary save "Keep playing" writes in the saves folder.
KEPT_SAVE = "training-mission.json"
#: Card widths to try, widest first (design units), until one fits clear of what it must not cover.
CARD_WIDTHS = (430, 360, 320, 280)


def tutorial_folder() -> Path:
    return saves.saves_folder() / "tutorial"


def save_path() -> Path:
    return tutorial_folder() / "tutorial.json"


def progress_path() -> Path:
    return tutorial_folder() / "progress.json"


def kept_save_path() -> Path:
    return saves.saves_folder() / KEPT_SAVE


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
    return GameSession.new(engine, tutorial_setup(), SEED, saves_dir=tutorial_folder(), dice=TutorialDice(SEED))


def load_session(engine, path: Path) -> GameSession:
    """A saved training mission with its loaded dice back in hand (raises saves.SaveError)."""
    session = GameSession.load(engine, path, saves_dir=tutorial_folder())
    values = session.dice.values if isinstance(session.dice, ScriptedDice) else []
    dice = TutorialDice(session.seed, values)
    dice.skip(sum(1 for a in session.actions if type(a).__name__ == "Roll"))
    session.dice = dice
    return session


def open_tutorial(context, restart: bool = False) -> "TutorialGuide":
    """The title's Tutorial: resume the training mission where it was left, else start it."""
    from game.client.whatgoesup.shipped import shipped_engine

    engine = shipped_engine()
    lesson = None if restart else read_progress()
    session = None
    if lesson is not None:
        try:
            session = load_session(engine, save_path())
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

    def __init__(self, context, flow, index: int = 0) -> None:
        self.context = context
        self.flow = flow
        self.index = index
        self.time = 0.0
        self.saved_at: tuple = ()
        self.buttons: dict[str, pygame.Rect] = {}
        self.finished = False
        self._placed: dict = {}  # (what to keep clear, lesson, size) -> the card's rect

    # ------------------------------------------------------------------ state
    @property
    def session(self) -> GameSession:
        return self.flow.session

    @property
    def lesson(self):
        return LESSONS[self.index]

    @property
    def last(self) -> bool:
        return self.index == len(LESSONS) - 1

    def top(self):
        return self.context.stack.top

    def top_name(self) -> str:
        top = self.top()
        return getattr(top, "name", "") if top is not None else ""

    def attached(self) -> bool:
        """Still playing the tutorial game (a scene of its flow is on the stack)."""
        return any(getattr(scene, "flow", None) is self.flow for scene in self.context.stack)

    def visible(self) -> bool:
        return not self.finished and self.top_name() in GUIDED_SCENES

    def settled(self) -> bool:
        """The dice and the result card are done: nothing tumbling, no result waiting to be read (a card
        waiting for a decision, a skill or a consequence, counts as settled: the next lesson is about it)."""
        scene = self.top()
        if self.top_name() != "field":
            return True
        panel = scene.roll_panel
        if panel.animating:
            return False
        if panel.show is not None:
            return panel.pending(scene.state) in ("help", "choice")
        return not (getattr(scene, "_deferred_sync", False) or getattr(scene.markers, "glides", None))

    def advance(self) -> None:
        """Past every lesson already done (a loaded game may be ahead of the lesson saved), once settled."""
        moved = False
        while not self.last and self.settled():
            done = self.lesson.done
            if done is None or not done(self.session, self.top()):
                break
            self.index += 1
            moved = True
        if moved:
            self.time = 0.0
            self.save()

    def next(self) -> None:
        """The Next button of a lesson to read."""
        if not self.last:
            self.index += 1
            self.time = 0.0
            self.save()
        self.advance()

    def save(self) -> None:
        """The game as a normal save, and the lesson step beside it (only when either changed)."""
        key = (len(self.session.actions), self.index)
        if key == self.saved_at or self.finished:
            return
        self.saved_at = key
        try:
            tutorial_folder().mkdir(parents=True, exist_ok=True)
            self.session.save(save_path())
            progress_path().write_text(json.dumps({"lesson": self.lesson.id}), encoding="utf-8")
        except (OSError, saves.SaveError) as exc:
            log.warning("tutorial: could not save progress: %s", exc)

    def keep_playing(self) -> Optional[Path]:
        """Make the training mission an ordinary game: a normal save in the saves folder (Continue resumes
        it), autosaves there from now on, and no tutorial to resume."""
        self.session.saves_dir = saves.saves_folder()
        try:
            path = self.session.save(kept_save_path())
        except (OSError, saves.SaveError) as exc:
            log.warning("tutorial: could not save the game to keep playing: %s", exc)
            path = None
        self.session.autosave()
        return path

    def finish(self, to_title: bool) -> None:
        self.keep_playing()
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
            return bool(self.buttons) and self.card_rect().collidepoint(event.pos)
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
        spec = target_spec(self.lesson, self.top_name(), self.session)
        return self._rect_for(spec) if spec else None

    def read_rects(self) -> list[pygame.Rect]:
        """What the current lesson asks the player to read on the scene on top (the card keeps off it)."""
        out = []
        for spec in read_specs(self.lesson, self.top_name()):
            rect = self._rect_for(spec)
            if rect is not None and rect.w > 0 and rect.h > 0:
                out.append(rect)
        return out

    def _rect_for(self, spec: str) -> Optional[pygame.Rect]:
        top = self.top()
        if top is None:
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
            return self._field_rect(scene, arg)
        if kind == "assembly":
            return {"parts": scene.parts_rect, "report": scene.report_rect, "picture": scene.picture_rect}[arg]()
        if kind == "report":
            return self._report_text_rect(scene)
        return None

    def _field_rect(self, scene, arg: str) -> Optional[pygame.Rect]:
        layout = self.context.layout
        state = scene.state
        rolling = scene.roll_panel.visible(state)
        if (arg in ("roll", "panel") or arg.startswith("action:")) and rolling:  # where to act and what to read
            return scene.roll_panel.card_rect(state)
        if arg == "roll":
            return None
        if arg == "panel":
            return scene.panel_rect()
        if arg.startswith("action:"):  # the panel's button for that action, else the panel it would be on
            kind = arg.partition(":")[2]
            for button, action in scene.flight_panel.buttons.items():
                if type(action).__name__ == kind and button.visible:
                    return button.rect.copy()
            return scene.panel_rect()
        if arg == "board":
            return scene.board_rect.inflate(-layout.px(40), -layout.px(40))
        if arg == "planner":
            panel = scene.panel_rect()
            return pygame.Rect(panel.left, panel.bottom - layout.px(190), panel.w, layout.px(190))
        if arg == "marker" or arg.startswith("step:"):
            if rolling:
                return None
            if arg == "marker":
                flight = state.flight if state.phase == "flight" else None
                uid = flight.active if flight is not None else None
                if uid not in scene.markers.screen_pos:
                    return None
                x, y = scene.markers.screen_pos[uid]
            else:
                x, y = scene.board_view.step_screen(arg.partition(":")[2])
            size = layout.px(64)
            rect = pygame.Rect(0, 0, size, size)
            rect.center = (int(x), int(y))
            return rect.clip(scene.board_rect) if rect.colliderect(scene.board_rect) else None
        return None

    def _report_text_rect(self, scene, sections_read: int = 1) -> Optional[pygame.Rect]:
        """Where the end-of-turn report's words are, through its first ``sections_read`` sections (the
        budget breakdown; 4: all of them): as wide as its longest line and as tall as its lines (measured as
        ``report.py`` lays them out: the tutorial's one program card, its sections wrapped)."""
        layout = self.context.layout
        reports = getattr(scene, "reports", None)
        if not reports:
            return None
        vw, vh = layout.virtual_width, layout.virtual_height
        card = layout.rect(24, 84, vw - 48, vh - 84 - 100)
        inner = card.inflate(-2 * layout.px(20), -2 * layout.px(20))
        body, label = font_px(layout.px(16)), font_px(layout.px(16), True)
        r = reports[0]
        widest = font_px(layout.px(24), True).size(r.name)[0] + layout.px(36)
        y = inner.top + layout.px(44)
        if r.before is not None:
            big = font_px(layout.px(30), True)
            widest = max(widest, big.size(f"{r.before} -> {r.after} dots")[0])
            y += big.get_linesize() + layout.px(28) + (layout.px(40) if r.clamp else 0)
        sections = ([f"+{d}  {reason}" for reason, d in r.changes] or ["No dots gained or lost."],
                    [t for t, _ in r.flights] or ["No flights this turn."], list(r.firsts) or ["None this turn."],
                    list(r.lost) + list(r.injured) or ["Everyone is safe."])
        for lines in sections[:sections_read]:
            y += label.get_linesize()
            for text in lines:
                rows = wrap_text(text, body, inner.w)[:3]
                widest = max([widest] + [body.size(row)[0] for row in rows])
                y += len(rows) * body.get_linesize()
            y += layout.px(8)
        return pygame.Rect(inner.left, inner.top, min(inner.w, widest), min(inner.bottom, y) - inner.top)

    # ------------------------------------------------------------------ where the card goes
    def keep_clear(self) -> list[pygame.Rect]:
        """What the card must never cover: the spotlight and what the lesson asks the player to read."""
        target = self.target_rect()
        return ([target] if target is not None else []) + self.read_rects()

    def keep_clear_if_room(self) -> list[pygame.Rect]:
        """What the card keeps off when it can (the rest of the report: its flights and firsts)."""
        if self.top_name() == "turn_report":
            rect = self._report_text_rect(self.top(), sections_read=4)
            return [rect] if rect is not None else []
        if self.top_name() == "assembly":  # the rocket being built, where the parts are dropped
            rect = self._rect_for("assembly:picture")
            return [rect] if rect is not None else []
        return []

    def card_rect(self) -> pygame.Rect:
        """The card's place: clear of ``keep_clear()`` (with a margin), as wide as fits, near the spotlight."""
        layout = self.context.layout
        clear = self.keep_clear()
        key = (tuple(map(tuple, clear)), self.index, layout.size, self.top_name(), self._texts())
        if key not in self._placed:
            if len(self._placed) > 64:
                self._placed.clear()
            self._placed[key] = self._place(clear, self.keep_clear_if_room())
        return self._placed[key].copy()

    def _place(self, clear: list[pygame.Rect], soft: list[pygame.Rect]) -> pygame.Rect:
        """At the widest width that fits clear of ``clear``: the place covering least of ``soft``, then least
        of the header bar, then nearest the focus (the first thing in ``clear``)."""
        layout = self.context.layout
        w, h = layout.size
        margin, gap = layout.px(16), layout.px(12)
        blocked = [r.inflate(2 * gap, 2 * gap) for r in clear]
        focus = clear[0].center if clear else (w // 2, h // 2)
        # the header bar across the top of every guided scene: the title, the turn, the goal's status
        header = pygame.Rect(0, 0, w, layout.px(HEADER_H) + gap)
        fallback = None
        for units in CARD_WIDTHS:
            width = min(layout.px(units), w - 2 * margin)
            height = min(self._card_height(width), h - 2 * margin)
            step = layout.px(16)
            xs = sorted({margin, w - margin - width, (w - width) // 2, *range(margin, w - margin - width + 1, step)})
            ys = sorted({margin, h - margin - height, (h - height) // 2, *range(margin, h - margin - height + 1, step)})
            best = None
            for x in xs:
                for y in ys:
                    rect = pygame.Rect(x, y, width, height)
                    if any(rect.colliderect(b) for b in blocked):
                        continue
                    covered = sum(rect.clip(r).w * rect.clip(r).h for r in soft)
                    over_header = rect.clip(header).h  # after the soft rects: the rocket matters more
                    d = (covered, over_header, math.hypot(rect.centerx - focus[0], rect.centery - focus[1]))
                    if best is None or d < best[0]:
                        best = (d, rect)
            if best is not None:
                return best[1]
            if fallback is None:
                fallback = pygame.Rect(w - margin - width, h - margin - height, width, height)
        return fallback

    # ------------------------------------------------------------------ drawing
    def _texts(self) -> tuple[str, str, str]:
        lesson = self.lesson
        body = lesson_text(lesson, self.session.engine.rules)
        extra = hint(self.session, lesson)
        where = ""
        if lesson.targets and self.top_name() not in lesson.targets and self.top_name() not in lesson.reads:
            names = {"rnd": "R&D", "assembly": "the assembly", "field": "the Field", "turn_report": "the report"}
            where = "This happens in " + " or ".join(names.get(k, k) for k in lesson.targets) + "."
        return body, extra, where

    def _fonts(self):
        layout = self.context.layout
        return font_px(layout.px(24), True), font_px(layout.px(17)), font_px(layout.px(15))

    def _footer(self) -> str:
        if self.last:
            return ""
        if self.lesson.done is None:
            return "Esc pauses: you can leave and come back later."
        return "Do it on the screen: this card moves on by itself."

    def _card_height(self, width: int) -> int:
        layout = self.context.layout
        head, body_font, small = self._fonts()
        body, extra, where = self._texts()
        inner = width - layout.px(40)
        lines = len(wrap_text(body, body_font, inner)) + (len(wrap_text(extra, body_font, inner)) if extra else 0)
        h = layout.px(16) + small.get_linesize() + head.get_linesize() + layout.px(8)
        h += lines * body_font.get_linesize()
        if where:
            h += len(wrap_text(where, small, inner)) * small.get_linesize()
        h += layout.px(8) + small.get_linesize()  # the footer line
        h += layout.px(12) + layout.px(40)  # the buttons (Next, or play on my own; Keep playing at the end)
        h += layout.px(16)
        return h

    def draw(self, surface: pygame.Surface) -> None:
        if not self.visible():
            self.buttons = {}
            return
        layout = self.context.layout
        target = self.target_rect()
        if target is not None:
            self._spotlight(surface, target, self.read_rects())
        card = self.card_rect()
        draw_card(surface, card, layout, colour=CARD, edge=ACCENT_LIGHT)
        head, body_font, small = self._fonts()
        body, extra, where = self._texts()
        x = card.left + layout.px(20)
        inner = card.w - layout.px(40)
        y = card.top + layout.px(16)
        step = f"Training mission · step {self.index + 1} of {len(LESSONS)}"
        draw_text(surface, step, fit_font(step, inner, layout.px(15)), INK_DIM, (x, y))
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
        footer = self._footer()
        y += layout.px(8)
        if footer:
            draw_text(surface, footer, fit_font(footer, inner, layout.px(15)), INK_DIM, (x, y))
        half = (inner - layout.px(12)) // 2
        if self.last:
            self._button(surface, "title", "Back to title", pygame.Rect(0, 0, half, layout.px(40)),
                         ("bottomright", (card.right - layout.px(20), bottom)))
            self._button(surface, "keep", "Keep playing", pygame.Rect(0, 0, half, layout.px(40)),
                         ("bottomleft", (x, bottom)), primary=True)
            return
        self._button(surface, "keep", "Play on my own", pygame.Rect(0, 0, half, layout.px(40)),
                     ("bottomleft", (x, bottom)))
        if self.lesson.done is None:
            self._button(surface, "next", "Next", pygame.Rect(0, 0, min(half, layout.px(130)), layout.px(40)),
                         ("bottomright", (card.right - layout.px(20), bottom)), primary=True)

    def _button(self, surface, key: str, text: str, rect: pygame.Rect, anchor, primary: bool = False) -> None:
        layout = self.context.layout
        setattr(rect, anchor[0], anchor[1])
        hover = rect.collidepoint(pygame.mouse.get_pos())
        if primary:
            pygame.draw.rect(surface, ACCENT_LIGHT if hover else ACCENT, rect, border_radius=layout.px(10))
            colour = (28, 18, 40)
        else:
            pygame.draw.rect(surface, ACCENT_LIGHT if hover else ACCENT, rect, max(1, layout.px(2)),
                             border_radius=layout.px(10))
            colour = INK
        font = fit_font(text, rect.w - layout.px(16), layout.px(19 if primary else 16), bold=primary)
        draw_text(surface, text, font, colour, rect.center, anchor="center")
        self.buttons[key] = rect

    def _spotlight(self, surface: pygame.Surface, target: pygame.Rect, reads: list[pygame.Rect] = ()) -> None:
        """Darken everything but ``target`` and what the lesson asks the player to read (``reads``: 'see the
        Luck chip at the top?' showed it dimmed) a little, and outline the target with a gentle pulse."""
        layout = self.context.layout
        hole = target.inflate(layout.px(12), layout.px(12)).clip(surface.get_rect())
        veil = pygame.Surface(surface.get_size(), pygame.SRCALPHA)
        veil.fill((5, 4, 16, 110))
        for rect in reads:
            veil.fill((0, 0, 0, 0), rect.clip(surface.get_rect()))
        veil.fill((0, 0, 0, 0), hole)
        surface.blit(veil, (0, 0))
        pulse = 0.5 + 0.5 * math.sin(self.time * 4.0)
        width = max(2, layout.px(3 + 2 * pulse))
        pygame.draw.rect(surface, ACCENT_HOT, hole, width, border_radius=layout.px(10))
