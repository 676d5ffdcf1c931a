"""The ending screen: how the game ended, and the story of the game.

Stop The Rock: the world saved (with the shared score and why: how early, how few derps were lost)
or the impact (how far the nudges got). A race: the winner and the reason, with the standings. Then
one card per program telling its story from the session's log and the final state: its firsts, its
flights (launched, landed, lost), its nudges, and the derps it lost.

The flow shows this scene when ``session.over`` (after the last turn's report). It reads only the
session: ``Engine.outcome``, ``Engine.status``, the story log and the final state.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

import pygame

from game.client.scenes.game_scene import GameScene
from game.client.kit.draw import draw_program_marker, program_colour
from game.client.kit.text import draw_wrapped
from game.client.whatgoesup.story_words import first_won
from game.client.whatgoesup.hud import draw_rock_track, game_status, progress_words, turns_to_impact
from game.client.kit.style import (ACCENT_HOT, ACCENT_LIGHT, BAND_COLOURS, INK, INK_DIM, draw_card, draw_text, fit_font, font_px,
                    wrap_text)

FLIGHT_WORDS = {"landed": "came home", "destroyed": "was lost", "flying": "is still in space",
                "escaped": "left for deep space", "debris": "is debris", "written_off": "was written off",
                "pad": "never left the pad"}
_NUDGE = re.compile(r"nudges the rock: \+(\d+)")


@dataclass
class ProgramStory:
    index: int
    name: str
    firsts: list[str] = field(default_factory=list)
    launched: int = 0
    landed: int = 0
    lost_craft: int = 0
    flights: list[str] = field(default_factory=list)
    nudges: int = 0
    nudge_value: int = 0
    derps_lost: list[str] = field(default_factory=list)
    derps_out: list[str] = field(default_factory=list)


def game_story(engine, state, log) -> list[ProgramStory]:
    """Each program's story from the log (firsts, nudges) and the final state (flights, derps)."""
    stories = [ProgramStory(p.index, p.name) for p in state.programs]
    board = engine.rules.board
    bodies = {b.id: b.name for b in board.bodies}
    for entry in log:
        event = entry.event
        who = event.program
        if who is None or not 0 <= who < len(stories):
            continue
        if event.kind == "prestige":
            stories[who].firsts.append(first_won(event.text))
        elif event.kind == "rock":
            match = _NUDGE.search(event.text)
            if match:
                stories[who].nudges += 1
                stories[who].nudge_value += int(match.group(1))
    for u in state.upgoers:
        if not 0 <= u.owner < len(stories):
            continue
        story = stories[u.owner]
        if u.launched_turn is None and u.status == "pad":
            continue
        if u.launched_turn is not None:
            story.launched += 1
        if u.status == "landed":
            story.landed += 1
        if u.status in ("destroyed", "debris", "written_off"):
            story.lost_craft += 1
        text = f"{u.name} {FLIGHT_WORDS.get(u.status, u.status)}"
        if u.launched_turn is not None:
            text += f" (launched turn {u.launched_turn})"
        far = [bodies.get(b, b) for b in u.bodies_landed if b != getattr(board.home, "body", None)]
        if far:
            text += "; touched down on " + " and ".join(far)
        story.flights.append(text)
    for d in state.derps:
        if not 0 <= d.owner < len(stories):
            continue
        if d.dead:
            stories[d.owner].derps_lost.append(d.name)
        elif d.location is not None and any(u.id == d.location and u.status in ("flying", "debris", "written_off")
                                            for u in state.upgoers):
            stories[d.owner].derps_out.append(d.name)
    return stories




def ending_headline(engine, state, outcome) -> tuple[str, str, tuple]:
    """(headline, one line of why, colour) for the ending."""
    kind = getattr(outcome, "kind", "turn_limit") if outcome else "turn_limit"
    if kind == "saved":
        return "The world is saved!", outcome.reason, BAND_COLOURS["ok"]
    if kind == "impact":
        return "The rock hits the world", outcome.reason, ACCENT_HOT
    winners = outcome.winners if outcome else ()
    names = " and ".join(state.programs[i].name for i in winners)
    head = f"{names} {'wins' if len(winners) == 1 else 'share the win'}!" if winners else "Nobody wins"
    return head, (outcome.reason if outcome else ""), ACCENT_LIGHT


def score_lines(engine, state) -> list[str]:
    """How the shared score of a saved world was made: base, turns to spare, derps lost."""
    try:
        scenario = engine.rock_rules.scenario(state)
    except Exception:  # noqa: BLE001
        return []
    rock = state.rock
    if scenario is None or rock is None or not rock.saved:
        return []
    s = scenario.score
    lost = sum(1 for d in state.derps if d.dead)
    out = engine.rock_rules.crew_in_space(state)
    spare = rock.saved_turns_left or 0
    lines = [f"{s.base} for saving the world",
             f"+{s.per_turn_left * spare} for saving it early: {spare} turn{'s' if spare != 1 else ''} to spare "
             f"(×{s.per_turn_left})"]
    if lost or out:
        parts = ([f"{lost} derp{'s' if lost != 1 else ''} lost"] if lost else []) + \
                ([f"{out} derp{'s' if out != 1 else ''} left out in space"] if out else [])
        lines.append(f"{s.per_derp_lost * (lost + out)} for {' and '.join(parts)} ({s.per_derp_lost} each)")
    else:
        lines.append("Every derp came home: nothing taken off")
    return lines


class EndingScene(GameScene):
    name = "ending"
    flow_main = True

    def __init__(self, context, flow) -> None:
        super().__init__(context, flow)
        session = flow.session
        self.outcome = session.engine.outcome(session.state)
        self.stories = game_story(session.engine, session.state, session.log)
        self.time = 0.0

    @property
    def kind(self) -> str:
        return getattr(self.outcome, "kind", "turn_limit") if self.outcome else "turn_limit"

    def build_ui(self) -> None:
        super().build_ui()
        layout = self.context.layout
        vw, vh = layout.virtual_width, layout.virtual_height
        self.add_button("log", layout.rect(24, vh - 24 - 56, 300, 56), "The whole story (L)", "@menu_button")
        self.add_button("title", layout.rect(vw - 24 - 260, vh - 24 - 56, 260, 56), "Back to title", "@menu_button")

    def on_button(self, key: str) -> None:
        if key == "log":
            self.flow.open_log()
        elif key == "title":
            self.flow.quit_to_title()

    def update(self, dt: float) -> None:
        super().update(dt)
        self.time += dt

    # ------------------------------------------------------------------ drawing
    def draw_content(self, surface: pygame.Surface) -> None:
        layout = self.context.layout
        session = self.flow.session
        engine, state = session.engine, session.state
        title = {"saved": "Stop The Rock: saved", "impact": "Stop The Rock: impact"}.get(self.kind, "The game is over")
        self.draw_header(surface, title, subtitle=f"after {state.turn} turn{'s' if state.turn != 1 else ''}")
        vw, vh = layout.virtual_width, layout.virtual_height
        top = layout.rect(24, 80, vw - 48, 232)
        headline, why, colour = ending_headline(engine, state, self.outcome)
        draw_card(surface, top, layout, edge=colour)
        inner = top.inflate(-layout.px(48), -layout.px(32))
        head_font = fit_font(headline, inner.w, layout.px(40), bold=True)
        draw_text(surface, headline, head_font, colour, (inner.left, inner.top), shadow=layout.px(2))
        y = inner.top + head_font.get_linesize()
        y = draw_wrapped(surface, why, font_px(layout.px(17)), INK, pygame.Rect(inner.left, y, inner.w, layout.px(48)), 2)
        y += layout.px(8)
        rest = pygame.Rect(inner.left, y, inner.w, inner.bottom - y)
        if self.kind in ("saved", "impact"):
            self._draw_rock(surface, rest)
        else:
            self._draw_standings(surface, rest)
        story_top = top.bottom + layout.px(14)
        draw_text(surface, "The story of the game", font_px(layout.px(20), True), ACCENT_LIGHT,
                  (layout.px(28), story_top))
        n = max(1, len(self.stories))
        gap = 14
        card_w = (vw - 48 - gap * (n - 1)) / n
        y_units = story_top / layout.scale + 30
        for i, story in enumerate(self.stories):
            rect = layout.rect(24 + i * (card_w + gap), y_units, card_w, vh - y_units - 96)
            self._draw_story(surface, rect, story)

    def _draw_rock(self, surface: pygame.Surface, rect: pygame.Rect) -> None:
        layout = self.context.layout
        engine, state = self.flow.session.engine, self.flow.session.state
        rock = state.rock
        if rock is None:
            return
        half = rect.w // 2 - layout.px(12)
        track = pygame.Rect(rect.left, rect.top + layout.px(4), half, layout.px(30))
        draw_rock_track(surface, track, max(0, rock.turns_left), turns_to_impact(engine, state), rock.saved)
        font = font_px(layout.px(16))
        y = track.bottom + layout.px(8)
        nudged = f"Nudges given: {rock.nudges}, worth {rock.nudge_total} of the {rock.nudges_needed} needed"
        if rock.saved:
            nudged += f" (saved on turn {rock.saved_turn})"
        for line in wrap_text(nudged, font, half)[:2]:
            draw_text(surface, line, font, INK_DIM, (rect.left, y))
            y += font.get_linesize()
        right = pygame.Rect(rect.left + half + layout.px(24), rect.top, rect.w - half - layout.px(24), rect.h)
        if rock.saved:
            score = engine.rock_rules.score(state)
            big = f"Score {score}"
            big_font = fit_font(big, right.w, layout.px(30), bold=True)
            draw_text(surface, big, big_font, BAND_COLOURS["ok"], right.topleft)
            yy = right.top + big_font.get_linesize()
            small = font_px(layout.px(15))
            for line in score_lines(engine, state):
                if yy + small.get_linesize() > right.bottom:
                    break
                draw_text(surface, line, fit_font(line, right.w, layout.px(15)), INK, (right.left, yy))
                yy += small.get_linesize()
        else:
            short = max(0, rock.nudges_needed - rock.nudge_total)
            lines = [f"{short} nudge value short of a miss.",
                     "Land on the rock sooner: a nudge is worth the turns still to go."]
            yy = right.top
            for n, line in enumerate(lines):
                f = font_px(layout.px(20 if n == 0 else 15), n == 0)
                yy = draw_wrapped(surface, line, f, ACCENT_HOT if n == 0 else INK_DIM,
                                  pygame.Rect(right.left, yy, right.w, right.bottom - yy), 2)

    def _draw_standings(self, surface: pygame.Surface, rect: pygame.Rect) -> None:
        layout = self.context.layout
        engine, state = self.flow.session.engine, self.flow.session.state
        status = game_status(engine, state) or {}
        lines = status.get("lines", [])
        goal = status.get("name", "")
        winners = set(self.outcome.winners) if self.outcome else set()
        ranked = sorted(state.programs, key=lambda p: (p.index not in winners, -p.dots))
        n = max(1, len(ranked))
        row_h = min(layout.px(30), rect.h // n)
        font = font_px(max(8, min(layout.px(20), int(row_h * 0.72))), True)
        small = font_px(max(8, min(layout.px(15), int(row_h * 0.6))))
        for k, p in enumerate(ranked):
            y = rect.top + k * row_h
            cy = y + row_h // 2
            place = "1." if p.index in winners else f"{2 + sum(1 for q in ranked if q.index not in winners and q.dots > p.dots)}."
            if state.at_open_war(p.index):  # Space War: an open war is a defeat, whatever the score
                place = "–"
            draw_text(surface, place, font, INK_DIM, (rect.left, cy), anchor="midleft")
            draw_program_marker(surface, p.index, (rect.left + layout.px(44), cy), layout.px(10), program_colour(p))
            name_font = fit_font(p.name, int(rect.w * 0.34), font.get_height(), bold=True)
            draw_text(surface, p.name, name_font, program_colour(p), (rect.left + layout.px(64), cy), anchor="midleft")
            words = f"{p.dots} dots"
            if goal and status.get("kind") != "most_dots" and p.index < len(lines):
                words = f"{goal}: {progress_words(lines[p.index])} · {p.dots} dots"
            if state.at_open_war(p.index):
                words = f"{words} · lost: open war"
            draw_text(surface, words, fit_font(words, int(rect.w * 0.55), small.get_height()), INK,
                      (rect.right, cy), anchor="midright")

    def _draw_story(self, surface: pygame.Surface, rect: pygame.Rect, story: ProgramStory) -> None:
        layout = self.context.layout
        state = self.flow.session.state
        program = state.programs[story.index]
        colour = program_colour(program)
        draw_card(surface, rect, layout, edge=colour)
        pad = layout.px(16)
        inner = rect.inflate(-2 * pad, -2 * pad)
        draw_program_marker(surface, story.index, (inner.left + layout.px(12), inner.top + layout.px(13)), layout.px(11), colour)
        name_font = fit_font(story.name, inner.w - layout.px(34), layout.px(21), bold=True)
        draw_text(surface, story.name, name_font, colour, (inner.left + layout.px(30), inner.top + layout.px(13)),
                  anchor="midleft")
        top = inner.top + layout.px(32)
        label = font_px(layout.px(15), True)
        body = font_px(layout.px(14))
        # a wide card (few programs) sets its sections side by side
        columns = 3 if inner.w >= layout.px(840) else (2 if inner.w >= layout.px(520) else 1)
        col_gap = layout.px(20)
        col_w = (inner.w - col_gap * (columns - 1)) // columns
        col = 0
        y = top

        def section(title: str, lines: list[tuple[str, tuple]], empty: str, most: int = 4) -> None:
            nonlocal y, col
            left = inner.left + col * (col_w + col_gap)
            if columns > 1:
                most = max(most, 6)
            if y + label.get_linesize() <= inner.bottom:
                draw_text(surface, title, label, ACCENT_LIGHT, (left, y))
                y += label.get_linesize()
                if not lines:
                    lines = [(empty, INK_DIM)]
                if len(lines) > most:
                    lines = lines[:most - 1] + [(f"…and {len(lines) - most + 1} more (see the whole story)", INK_DIM)]
                for text, c in lines:
                    if y + body.get_linesize() > inner.bottom:
                        break
                    y = draw_wrapped(surface, text, body, c, pygame.Rect(left, y, col_w, inner.bottom - y), 2)
                y += layout.px(6)
            if columns > 1 and col < columns - 1:
                col += 1
                y = top

        flights = f"{story.launched} launched, {story.landed} came home" if story.launched else "No flights left the pad."
        if story.lost_craft:
            flights += f", {story.lost_craft} lost"
        flight_lines = [(flights, INK)] + [(t, INK_DIM) for t in story.flights]
        if state.rock is not None:
            nudges = (f"{story.nudges} nudge{'s' if story.nudges != 1 else ''}, worth {story.nudge_value}"
                      if story.nudges else "No nudges")
            flight_lines.insert(1, (nudges, BAND_COLOURS["ok"] if story.nudges else INK_DIM))
        section("Flights", flight_lines, "No flights.", 4)
        section("Firsts and feats", [(t, INK) for t in story.firsts], "No firsts or feats.", 3)
        lost = [(f"{name} was lost", ACCENT_HOT) for name in story.derps_lost] + \
               [(f"{name} is still out in space", BAND_COLOURS["fail"]) for name in story.derps_out]
        section("Derps lost" if not story.derps_out else "Derps lost or left out", lost, "Every derp came home.", 3)
