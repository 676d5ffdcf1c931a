"""The end-of-turn report: each program's dots gained and lost and why, its flights, firsts won and derps
lost (the game's end is ``ending.py``). It reads only the session's story log and state."""
from __future__ import annotations

import re
from dataclasses import dataclass, field

import pygame

from game.client.scenes.game_scene import GameScene
from game.client.scenes.still_scene import StillScene
from game.client.whatgoesup.hud import ROCK_COLOUR, draw_rock_track, game_status, saved_words, turns_to_impact
from game.client.whatgoesup.story_words import ROLL_WORDS, first_won, plain_story
from game.client.kit.draw import draw_program_marker, program_colour
from game.client.kit.text import draw_wrapped
from game.client.kit.style import (ACCENT_HOT, ACCENT_LIGHT, BAND_COLOURS, INK, INK_DIM, draw_card, draw_text, fit_font,
                                   font_px, wrap_text)


@dataclass
class ProgramReport:
    index: int
    name: str
    before: int | None = None
    after: int | None = None
    clamp: str = ""
    changes: list[tuple[str, int]] = field(default_factory=list)
    firsts: list[str] = field(default_factory=list)
    lost: list[str] = field(default_factory=list)
    injured: list[str] = field(default_factory=list)
    #: What this program's crafts did this turn, in order: (sentence, tone) with tone ok, fail, boom or info.
    flights: list[tuple[str, str]] = field(default_factory=list)


_BUDGET = re.compile(r"^(?P<changes>.*)\. Budget (?P<before>-?\d+) -> (?P<after>-?\d+)(?P<clamp> \(.*\))?\.$")
_CHANGE = re.compile(r"^(?P<reason>.*) (?P<dots>[+-]\d+)$")
_ROLL = re.compile(r"^(?P<craft>.*?): (?P<what>.*?) roll for .* - rolled (?P<value>-?\d+) against .*: "
                   r"(?P<outcome>OK|Fail|Boom)\.$")
#: Flight lines worth a line of the report (the rest, like "lights its launch stage", is in the story).
_FLIGHT_NEWS = (("clears the tower", "ok"), ("reaches orbit", "ok"), ("lands safely", "ok"), ("touches down", "ok"),
                ("docks with", "ok"), ("arcs over the top", "info"), ("is destroyed", "boom"),
                ("is stranded", "fail"), ("written off", "fail"), ("is disabled", "fail"), ("drifts", "info"),
                ("drops from", "boom"))


def flight_line(event) -> tuple[str, str] | None:
    """The report's line for one story event of a flight, or None when it is not news on its own."""
    if event.kind == "roll":
        match = _ROLL.match(event.text)
        if match is None or match["outcome"] == "OK":
            return None  # a roll that worked shows in what followed (reached orbit, landed...)
        tone = match["outcome"].lower()
        what = ROLL_WORDS.get(match["what"].replace(" ", "_"), match["what"])  # as the roll card named it
        return f"{match['outcome']}! {match['craft']}'s {what} roll (rolled {match['value']})", tone
    if event.kind == "rock" and "nudges the rock" in event.text:  # what moved the rock, and by how much
        return plain_story(event.text).rstrip("!. ") + ".", "ok"
    if event.kind in ("flight", "consequence"):
        for words, tone in _FLIGHT_NEWS:
            if words in event.text:
                return plain_story(event.text).rstrip("!. ") + ".", tone
    return None


def rock_report_line(engine, state, status: dict) -> str:
    """The rock in one sentence for the end-of-turn report: the clock, the nudges given and still needed."""
    if status["saved"]:
        return f"Saved! The rock will miss the world. {saved_words(engine, state, status)}"
    missing = max(0, status["nudges_needed"] - status["nudge_total"])
    left = status["turns_left"]
    clock = "Impact at the end of this turn" if left <= 1 else f"Impact in {left} turns"
    return (f"{clock}. Nudges {status['nudge_total']} of {status['nudges_needed']}: {missing} more needed; "
            f"a nudge given now is worth {status['nudge_value_now']}.")


def turn_entries(log, turn: int) -> list:
    """The story entries of one turn, including the end-of-turn accounting that closes it."""
    from game.client.scenes.logview import story_turns

    return [e for t, e in story_turns(log) if t == turn]


def turn_report(state, log, turn: int) -> list[ProgramReport]:
    """Each program's report for ``turn``, read from the engine's "End of turn" and prestige events."""
    reports = [ProgramReport(p.index, p.name) for p in state.programs]
    for entry in turn_entries(log, turn):
        event = entry.event
        who = event.program
        if event.kind == "report":
            for r in reports:
                prefix = f"End of turn {turn}, {r.name}: "
                if event.text.startswith(prefix):
                    match = _BUDGET.match(event.text[len(prefix):])
                    if match:
                        r.before, r.after = int(match["before"]), int(match["after"])
                        r.clamp = (match["clamp"] or "").strip(" ()")
                        if match["changes"] != "no changes":
                            for part in match["changes"].split("; "):
                                change = _CHANGE.match(part)
                                if change:
                                    r.changes.append((change["reason"], int(change["dots"])))
        elif who is not None and 0 <= who < len(reports):
            line = flight_line(event)
            if line is not None:
                reports[who].flights.append(line)
            if event.kind == "prestige":
                reports[who].firsts.append(first_won(event.text))
            elif event.kind == "death":
                reports[who].lost.append(plain_story(event.text))
            elif event.kind == "consequence" and "injured" in event.text:
                reports[who].injured.append(plain_story(event.text))
    return reports


class TurnReportScene(StillScene, GameScene):
    name = "turn_report"
    flow_main = True

    def __init__(self, context, flow, turn: int) -> None:
        super().__init__(context, flow)
        self.turn = turn
        self.reports = turn_report(flow.state, flow.session.log, turn)
        context.sounds.play("turn")  # a new turn: two rising notes

    def build_ui(self) -> None:
        super().build_ui()
        layout = self.context.layout
        vw, vh = layout.virtual_width, layout.virtual_height
        self.add_button("log", layout.rect(24, vh - 24 - 56, 200, 56), "Story (L)", "@menu_button")
        self.add_button("continue", layout.rect(vw - 24 - 260, vh - 24 - 56, 260, 56), "Continue", "@menu_button")

    def on_button(self, key: str) -> None:
        if key == "continue":
            self.flow.report_seen()
        elif key == "log":
            self.flow.open_log()

    def on_key(self, event) -> bool:
        if event.key in (pygame.K_SPACE, pygame.K_RETURN, pygame.K_KP_ENTER):
            self.flow.report_seen()
            return True
        return super().on_key(event)

    def draw_content(self, surface: pygame.Surface) -> None:
        layout = self.context.layout
        self.draw_header(surface, f"End of turn {self.turn}", subtitle="What happened and how the budgets moved")
        vw, vh = layout.virtual_width, layout.virtual_height
        top = 84
        if self.flow.state.rock is not None:  # Stop The Rock: where the rock is and what is still needed
            self.draw_rock(surface, layout.rect(24, top, vw - 48, 60))
            top += 60 + 12
        n = max(1, len(self.reports))
        gap = 16
        card_w = (vw - 48 - gap * (n - 1)) / n
        for i, r in enumerate(self.reports):
            rect = layout.rect(24 + i * (card_w + gap), top, card_w, vh - top - 100)
            self.draw_program(surface, rect, r)

    def draw_rock(self, surface, rect: pygame.Rect) -> None:
        """The rock's track and the nudges still needed, in a strip across the report."""
        layout = self.context.layout
        engine, state = self.flow.session.engine, self.flow.state
        status = game_status(engine, state)
        if status is None or "turns_left" not in status:
            return
        draw_card(surface, rect, layout, edge=ROCK_COLOUR)
        pad = layout.px(16)
        track = pygame.Rect(rect.left + pad, rect.top + pad, min(layout.px(260), rect.w // 4), rect.h - 2 * pad)
        draw_rock_track(surface, track, status["turns_left"], turns_to_impact(engine, state), status["saved"], 0.0)
        text = rock_report_line(engine, state, status)
        room = rect.right - pad - (track.right + pad)
        if status["saved"]:  # the headline, then what is left to do on a line of its own
            head, _, rest = text.partition(". ")
            head += "."
            font = fit_font(head, room, layout.px(18), bold=True, min_size=max(8, layout.px(13)))
            small = fit_font(rest, room, layout.px(15), min_size=max(8, layout.px(11)))
            gap = layout.px(2)
            top = rect.centery - (font.get_linesize() + gap + small.get_linesize()) // 2
            draw_text(surface, head, font, BAND_COLOURS["ok"], (track.right + pad, top), anchor="topleft")
            draw_text(surface, rest, small, INK, (track.right + pad, top + font.get_linesize() + gap),
                      anchor="topleft")
            return
        font = fit_font(text, room, layout.px(20), bold=True, min_size=max(8, layout.px(13)))
        draw_text(surface, text, font, ACCENT_LIGHT, (track.right + pad, rect.centery), anchor="midleft")

    def draw_program(self, surface, rect: pygame.Rect, r: ProgramReport) -> None:
        layout = self.context.layout
        program = self.flow.state.programs[r.index]
        colour = program_colour(program)
        draw_card(surface, rect, layout, edge=colour)
        pad = layout.px(20)
        inner = rect.inflate(-2 * pad, -2 * pad)
        draw_program_marker(surface, r.index, (inner.left + layout.px(14), inner.top + layout.px(16)), layout.px(13), colour)
        name_font = fit_font(r.name, inner.w - layout.px(40), layout.px(24), bold=True)
        draw_text(surface, r.name, name_font, colour, (inner.left + layout.px(36), inner.top + layout.px(16)),
                  anchor="midleft")
        y = inner.top + layout.px(44)
        if r.before is not None:
            delta = r.after - r.before
            big = f"{r.before} to {r.after} dots" if r.after != r.before else f"{r.after} dots"
            big_font = fit_font(big, inner.w, layout.px(30), bold=True)
            draw_text(surface, big, big_font, ACCENT_LIGHT, (inner.left, y))
            y += big_font.get_linesize()
            sign = f"{delta:+d} this turn" if delta else "no change this turn"
            draw_text(surface, sign, font_px(layout.px(17), True),
                      BAND_COLOURS["ok"] if delta > 0 else (ACCENT_HOT if delta < 0 else INK_DIM), (inner.left, y))
            y += layout.px(28)
            if r.clamp:
                y = draw_wrapped(surface, f"Budget {r.clamp}.", font_px(layout.px(15)), INK_DIM,
                                 pygame.Rect(inner.left, y, inner.w, layout.px(40)), 2)
        body = font_px(layout.px(16))
        label = font_px(layout.px(16), True)

        # Each section after this one keeps room for its heading and a first line, so a long section ends in
        # '… and N more' rather than leaving a later heading with nothing under it ('Derps lost' and no words).
        least = label.get_linesize() + body.get_linesize() + layout.px(8)

        def section(title: str, lines: list[tuple[str, tuple]], empty: str, later: int) -> None:
            nonlocal y
            bottom = inner.bottom - later * least
            if y + label.get_linesize() + body.get_linesize() > bottom:
                return
            draw_text(surface, title, label, ACCENT_LIGHT, (inner.left, y))
            y += label.get_linesize()
            if not lines:
                lines = [(empty, INK_DIM)]
            for n, (text, c) in enumerate(lines):
                rows = len(wrap_text(text, body, inner.w)[:3])
                left = len(lines) - n
                if left > 1 and y + (rows + 1) * body.get_linesize() > bottom:
                    y = draw_wrapped(surface, f"… and {left} more: the Story (L) has them all.", body, INK_DIM,
                                     pygame.Rect(inner.left, y, inner.w, bottom - y), 1)
                    break
                y = draw_wrapped(surface, text, body, c, pygame.Rect(inner.left, y, inner.w, bottom - y), 3)
            y += layout.px(8)

        section("Dots gained and lost",
                [(f"{'+' if d > 0 else ''}{d}  {reason}", BAND_COLOURS["ok"] if d > 0 else ACCENT_HOT)
                 for reason, d in r.changes], "No dots gained or lost.", 3)
        tones = {"ok": BAND_COLOURS["ok"], "fail": BAND_COLOURS["fail"], "boom": ACCENT_HOT, "info": INK}
        section("Flights", [(text, tones[tone]) for text, tone in r.flights], "No flights this turn.", 2)
        section("Firsts and feats", [(t, INK) for t in r.firsts], "None this turn.", 1)
        section("Derps lost", [(t, ACCENT_HOT) for t in r.lost] + [(t, BAND_COLOURS["fail"]) for t in r.injured],
                "Everyone is safe.", 0)
