"""What a game shows all the time in the headers of the Field and R&D: the goal and how close it is.

Stop The Rock: the rock approaching (turns to impact on a small track, world on the left, rock on
the right), the nudge total against the goal with the value of a nudge given now, and the drift.
Races: the chosen victory and each program's progress toward it, both read from ``Engine.status``.

``draw_game_header`` is the header bar of a game scene with room kept for the status on its right.
Nothing here decides anything; every number comes from ``Engine.status(state)``.
"""
from __future__ import annotations

import re
from typing import Optional

import pygame

from game.client.kit.text import ellipsize
from game.client.kit.style import (ACCENT, ACCENT_HOT, ACCENT_LIGHT, BAND_COLOURS, CARD, HEADER_H, INK, INK_DIM, draw_text, fit_font,
                    font_px)

HUD_W = 470  # design units kept for the status in a header
ROCK_COLOUR = (190, 140, 90)
WORLD_COLOUR = (90, 160, 230)

DRIFT_WORDS = {
    "rolling": "Drift: the rock's D{die} may move it a turn each turn",
    "off": "No drift at this difficulty",
    "pinned": "Drift stopped: a Waylight pinned the track",
    "close": "Drift stopped: the rock is too close",
}
DRIFT_SHORT = {"rolling": "drifts (D{die})", "off": "no drift", "pinned": "track pinned", "close": "too close to drift"}


def game_status(engine, state) -> Optional[dict]:
    """``Engine.status`` (None if the engine cannot say, so a header never breaks a game)."""
    try:
        return engine.status(state)
    except Exception:  # noqa: BLE001 - a header must never stop a game
        return None


def turns_to_impact(engine, state) -> int:
    """The difficulty's full clock, for the length of the track graphic."""
    try:
        scenario = engine.rock_rules.scenario(state)
        return max(1, scenario.difficulty(state.setup.difficulty).turns_to_impact, state.rock.turns_left)
    except Exception:  # noqa: BLE001
        return max(1, state.rock.turns_left)


def drift_die(engine, state) -> int:
    try:
        return engine.rock_rules.scenario(state).drift_die
    except Exception:  # noqa: BLE001
        return 20


def crew_out(engine, state) -> int:
    """Derps still in space in Stop The Rock (0 if the engine cannot say): a saved game ends when none is."""
    try:
        return engine.rock_rules.crew_in_space(state)
    except Exception:  # noqa: BLE001 - a header must never stop a game
        return 0


def flyby_words(left: int) -> str:
    """When a saved world's rock flies by, the game's last turn: 'at the end of this turn', 'in 3 turns'."""
    return "at the end of this turn" if left <= 1 else f"in {left} turns"


def saved_words(engine, state, status: dict) -> str:
    """What a saved world's players still have to do, and when the game ends (the engine's rule in
    ``RockRules.end_of_turn``: once nobody is left in space, or as the rock flies by)."""
    out = crew_out(engine, state)
    flyby = flyby_words(status["turns_left"])
    if not out:
        return f"Everyone is home: the game ends with this turn (the rock flies by {flyby})."
    try:
        cost = -engine.rock_rules.scenario(state).score.per_derp_lost
    except Exception:  # noqa: BLE001
        cost = 0
    costs = f"; each derp left out costs {cost} points" if cost > 0 else ""
    return f"Bring your crew home: the game ends when nobody is in space, or as the rock flies by {flyby}{costs}."


def rock_lines(engine, state, status: dict) -> tuple[str, str, str]:
    """(clock, nudges, drift) in a player's words."""
    left = status["turns_left"]
    if status["saved"]:
        clock = "Saved! Bring the crew home" if crew_out(engine, state) else "Saved! The rock will miss"
    elif left <= 1:
        clock = "Impact at the end of this turn!"
    else:
        clock = f"Impact in {left} turns"
    value = status["nudge_value_now"]
    nudges = f"Nudges {status['nudge_total']} / {status['nudges_needed']}"
    if not status["saved"]:
        nudges += f" · a nudge now is worth +{value}"
    drift = DRIFT_WORDS.get(status["drift"], status["drift"]).format(die=drift_die(engine, state))
    if status["saved"]:  # the drift no longer matters: when the game ends does
        drift = f"It flies by {flyby_words(left)}"
    if status.get("drift_pending"):
        drift = f"The rock's D{drift_die(engine, state)} is rolled before R&D"
    return clock, nudges, drift


def draw_rock_track(surface: pygame.Surface, rect: pygame.Rect, turns_left: int, total: int, saved: bool,
                    time: float = 0.0) -> None:
    """A small track: the world on the left, one tick per turn, the rock where it is now."""
    cy = rect.centery
    r_world = max(3, rect.h // 2 - 1)
    world = (rect.left + r_world, cy)
    pygame.draw.circle(surface, WORLD_COLOUR, world, r_world)
    pygame.draw.circle(surface, (200, 230, 255), (world[0] - r_world // 3, cy - r_world // 3), max(1, r_world // 3))
    left = rect.left + 2 * r_world + max(2, rect.h // 5)
    right = rect.right - max(3, int(rect.h * 0.36)) * 3 - 1  # room for the rock and its tail at the far end
    span = max(1, right - left)
    total = max(1, total)
    tick_h = max(2, rect.h // 4)
    for k in range(total + 1):
        x = left + span * k / total
        colour = (90, 80, 120) if k > turns_left else (ACCENT_HOT if k <= 5 else INK_DIM)
        pygame.draw.line(surface, colour, (x, cy - tick_h // 2), (x, cy + tick_h // 2), max(1, rect.h // 12))
    pygame.draw.line(surface, (90, 80, 120), (left, cy), (right, cy), max(1, rect.h // 14))
    x = left + span * max(0, min(total, turns_left)) / total
    r_rock = max(3, int(rect.h * 0.36))
    if saved:
        # the rock slides off the track: it will miss
        pygame.draw.line(surface, BAND_COLOURS["ok"], (x, cy), (x + r_rock * 1.5, cy - r_rock * 1.6), max(1, rect.h // 10))
        x, cy = x + r_rock * 1.5, cy - r_rock * 1.2
    else:
        tail = max(4, r_rock * 2)
        for k in range(3):
            pygame.draw.line(surface, (255, 170, 90), (x + r_rock, cy - r_rock // 2 + k * r_rock // 2),
                             (x + r_rock + tail, cy - r_rock // 2 + k * r_rock // 2), 1)
    pts = [(x + r_rock * c, cy + r_rock * s) for c, s in ((1, 0), (0.5, -0.9), (-0.4, -0.95), (-1, -0.1),
                                                           (-0.6, 0.8), (0.3, 0.95))]
    pygame.draw.polygon(surface, ROCK_COLOUR, pts)
    pygame.draw.polygon(surface, (60, 40, 25), pts, max(1, rect.h // 14))


def draw_bar(surface: pygame.Surface, rect: pygame.Rect, fraction: float, colour) -> None:
    pygame.draw.rect(surface, (50, 42, 86), rect, border_radius=rect.h // 2)
    fill = rect.copy()
    fill.w = int(rect.w * max(0.0, min(1.0, fraction)))
    if fill.w > 0:
        pygame.draw.rect(surface, colour, fill, border_radius=rect.h // 2)


_PROGRESS = re.compile(r"^(?P<name>.*?): (?P<rest>.*)$")


def progress_words(line: str) -> str:
    """A program's status line without its name (the marker and colour already say whose it is)."""
    match = _PROGRESS.match(line)
    return match["rest"] if match else line


def shared_row(layout, programs, lines: list[str], width: int, r: int) -> Optional[list[tuple[object, str]]]:
    """The race's second line when every program's progress reads the same ('not on the Moon yet'): each
    program's marker and name, then the words once ('● Ayla ▲ Bram ■ Cleo · all three: not on the Moon yet'),
    as (program or None, text) in order; None when the words differ or the names do not fit ``width`` (each
    line in its own slot then, the name dropped when it does not fit: the marker alone could not say whose it
    was)."""
    words = {progress_words(line) for line in lines}
    if len(lines) < 2 or len(words) != 1:
        return None
    font = font_px(layout.px(13))
    row = [(program, program.name) for program in programs[:len(lines)]]
    everyone = {2: "both", 3: "all three", 4: "all four"}.get(len(row), "all")
    row.append((None, f"· {everyone}: {words.pop()}"))
    used = sum(2 * r + layout.px(5) + font.size(text)[0] + layout.px(10) for _, text in row)
    return row if used <= width else None


def draw_status(surface: pygame.Surface, rect: pygame.Rect, layout, engine, state, time: float = 0.0) -> bool:
    """The goal and how close it is, in ``rect`` (two lines). False when there is nothing to show."""
    status = game_status(engine, state)
    if status is None:
        return False
    pad = layout.px(8)
    back = pygame.Surface(rect.size, pygame.SRCALPHA)
    pygame.draw.rect(back, (*CARD, 235), back.get_rect(), border_radius=layout.px(10))
    surface.blit(back, rect)
    pygame.draw.rect(surface, (110, 90, 150), rect, max(1, layout.px(1)), border_radius=layout.px(10))
    inner = rect.inflate(-2 * pad, -layout.px(6))
    line_h = inner.h // 2
    top = pygame.Rect(inner.left, inner.top, inner.w, line_h)
    bottom = pygame.Rect(inner.left, inner.top + line_h, inner.w, inner.h - line_h)
    size = layout.px(15)
    if "turns_left" in status:
        clock, nudges, drift = rock_lines(engine, state, status)
        track = pygame.Rect(top.left, top.top + layout.px(2), int(inner.w * 0.42), top.h - layout.px(4))
        draw_rock_track(surface, track, status["turns_left"], turns_to_impact(engine, state), status["saved"], time)
        colour = BAND_COLOURS["ok"] if status["saved"] else (ACCENT_HOT if status["turns_left"] <= 5 else ACCENT_LIGHT)
        room = top.right - track.right - layout.px(10)
        draw_text(surface, clock, fit_font(clock, room, size, bold=True), colour,
                  (track.right + layout.px(10), top.centery), anchor="midleft")
        bar = pygame.Rect(bottom.left, bottom.centery - layout.px(4), int(inner.w * 0.18), layout.px(8))
        draw_bar(surface, bar, status["nudge_total"] / max(1, status["nudges_needed"]), BAND_COLOURS["ok"])
        short = drift.lower() if status["saved"] else \
            DRIFT_SHORT.get(status['drift'], status['drift']).format(die=drift_die(engine, state))
        words = f"{nudges} · {short}"
        room = bottom.right - bar.right - layout.px(8)
        draw_text(surface, words, fit_font(words, room, layout.px(14)), INK,
                  (bar.right + layout.px(8), bottom.centery), anchor="midleft")
        return True
    # a race: the victory and each program's progress
    from game.client.kit.draw import draw_program_marker, program_colour

    goal = f"Goal: {status['name']}"
    if status.get("kind") == "most_dots" and status.get("turn_limit"):
        goal += f" after turn {status['turn_limit']}"
    elif status.get("turn_limit"):
        goal += f" (or closest by turn {status['turn_limit']})"
    draw_text(surface, goal, fit_font(goal, top.w, size, bold=True), ACCENT_LIGHT, (top.left, top.centery),
              anchor="midleft")
    lines = status.get("lines", [])
    r = max(3, layout.px(6))
    shared = shared_row(layout, state.programs, lines, bottom.w, r)
    if shared is not None:  # everyone at the same point: each name once, the words once
        x = bottom.left
        font = font_px(layout.px(13))
        for program, text in shared:
            if program is not None:
                draw_program_marker(surface, program.index, (x + r + 1, bottom.centery), r, program_colour(program))
                x += 2 * r + layout.px(5)
            draw_text(surface, text, font, INK, (x, bottom.centery), anchor="midleft")
            x += font.size(text)[0] + layout.px(10)
        return True
    n = max(1, len(lines))
    slot = bottom.w / n
    for k, (program, line) in enumerate(zip(state.programs, lines)):
        x = bottom.left + int(slot * k)
        draw_program_marker(surface, program.index, (x + r + 1, bottom.centery), r, program_colour(program))
        room = int(slot) - 2 * r - layout.px(8)
        words = line if font_px(layout.px(13)).size(line)[0] <= room else progress_words(line)
        draw_text(surface, words, fit_font(words, room, layout.px(14), min_size=max(7, layout.px(10))), INK,
                  (x + 2 * r + layout.px(5), bottom.centery), anchor="midleft")
    return True


def status_summary(engine, state) -> list[str]:
    """The status in plain lines (for tests, tooltips and the help line under the header)."""
    status = game_status(engine, state)
    if status is None:
        return []
    if "turns_left" in status:
        return list(rock_lines(engine, state, status))
    return [f"Goal: {status['name']}"] + list(status.get("lines", []))


def status_tips(scene, hud: pygame.Rect, engine, state) -> list:
    """Hover spots over the status words (the rock's clock, nudges and drift; the race's goal) whose tooltips
    explain them from the glossary. Made when first drawn and again when the header moves or the widgets
    were rebuilt; kept on the scene as ``status_spots``."""
    root = getattr(scene, "root", None)
    if root is None:
        return []
    rock = state.rock is not None
    key = (tuple(hud), id(root), rock, state.setup.victory)
    spots = getattr(scene, "status_spots", [])
    if getattr(scene, "_status_key", None) == key and all(s.alive() for s in spots):
        return spots
    from game.client.whatgoesup import glossary

    for spot in spots:
        spot.kill()
    top = pygame.Rect(hud.left, hud.top, hud.w, hud.h // 2)
    bottom = pygame.Rect(hud.left, hud.top + hud.h // 2, hud.w, hud.h - hud.h // 2)
    rules = engine.rules
    if rock:
        spots = [glossary.hotspot(top, ("impact", "drift"), rules, scene.context, root),
                 glossary.hotspot(bottom, ("nudge",), rules, scene.context, root)]
    else:
        victory = next((v for v in rules.scenarios.victories if v.id == state.setup.victory), None)
        lead = f"{victory.name}: {victory.description}" if victory is not None else ""
        spots = [glossary.hotspot(hud, ("victory",), rules, scene.context, root, lead)]
    scene.status_spots, scene._status_key = spots, key
    return spots


_HEADER_VEILS: dict = {}


def draw_game_header(scene, surface: pygame.Surface, title: str, program=None, subtitle: str = "",
                     time: float = 0.0, state=None) -> pygame.Rect:
    """The header bar of a game scene (marker, title, subtitle, turn) with the goal's status on the right,
    for ``state`` (default: the session's; the Field passes the state before a roll until its dice land)."""
    from game.client.kit.draw import draw_program_marker, program_colour

    layout = scene.context.layout
    bar = pygame.Rect(0, 0, layout.width, layout.px(HEADER_H))
    veil = _HEADER_VEILS.get(bar.size)
    if veil is None:  # made once per size, not every frame
        if len(_HEADER_VEILS) > 8:
            _HEADER_VEILS.clear()
        veil = pygame.Surface(bar.size, pygame.SRCALPHA)
        veil.fill((*CARD, 225))
        _HEADER_VEILS[bar.size] = veil
    surface.blit(veil, bar)
    pygame.draw.line(surface, ACCENT, bar.bottomleft, bar.bottomright, max(1, layout.px(2)))
    x = layout.px(24)
    if program is not None:
        draw_program_marker(surface, program.index, (x + layout.px(16), bar.centery), layout.px(15), program_colour(program))
        x += layout.px(44)
    state = state if state is not None else scene.flow.session.state
    engine = scene.flow.session.engine
    limit = state.setup.turn_limit if state.rock is None else None  # the rock is the clock
    turn_text = f"Turn {state.turn}" + (f" of {limit}" if limit else "")
    right = draw_text(surface, turn_text, font_px(layout.px(18), True), INK_DIM,
                      (layout.width - layout.px(20), bar.centery), anchor="midright")
    hud_w = min(layout.px(HUD_W), int(layout.width * 0.42))
    hud = pygame.Rect(right.left - layout.px(14) - hud_w, layout.px(5), hud_w, layout.px(54))
    shown = draw_status(surface, hud, layout, engine, state, time)
    if shown:
        status_tips(scene, hud, engine, state)
    edge = hud.left if shown else right.left
    room = edge - layout.px(20) - x
    title_font = fit_font(title, int(room * (0.62 if subtitle else 1.0)), layout.px(26), bold=True)
    tr = draw_text(surface, title, title_font, ACCENT_LIGHT, (x, bar.centery), anchor="midleft")
    if subtitle:
        sub_room = edge - layout.px(20) - tr.right - layout.px(12)
        if sub_room > layout.px(40):
            sub_font = fit_font(subtitle, sub_room, layout.px(17), min_size=max(8, layout.px(11)))
            text = ellipsize(subtitle, sub_font, sub_room)
            draw_text(surface, text, sub_font, INK_DIM, (tr.right + layout.px(12), bar.centery), anchor="midleft")
    return bar


# ---------------------------------------------------------------- the rock's drift die, before R&D

from game.client.scenes.game_scene import GameScene
from game.client.kit.text import draw_wrapped


class RockDriftScene(GameScene):
    """Stop The Rock, the start of a turn: the rock's die is rolled before anyone's R&D.

    Its lowest face brings the impact a turn later, its highest a turn sooner (``scenarios.yaml``)."""

    name = "rock_drift"
    flow_main = True

    def build_ui(self) -> None:
        super().build_ui()
        layout = self.context.layout
        card = self.card_rect()
        die = drift_die(self.flow.session.engine, self.flow.state)
        self.add_button("roll", pygame.Rect(card.centerx - layout.px(180), card.bottom - layout.px(84), layout.px(360),
                                            layout.px(56)), f"Roll the rock's D{die} (Space)", "@menu_button")

    def card_rect(self) -> pygame.Rect:
        return self.context.layout.centred_rect(720, 330, y=150)

    def on_button(self, key: str) -> None:
        if key == "roll":
            self.flow.roll(self)

    def on_key(self, event) -> bool:
        if event.key in (pygame.K_SPACE, pygame.K_RETURN, pygame.K_KP_ENTER):
            self.flow.roll(self)
            return True
        return super().on_key(event)

    def draw_content(self, surface: pygame.Surface) -> None:
        from game.client.kit.style import draw_card

        layout = self.context.layout
        engine, state = self.flow.session.engine, self.flow.state
        draw_game_header(self, surface, f"Turn {state.turn} begins", subtitle="The rock comes closer")
        card = self.card_rect()
        draw_card(surface, card, layout)
        inner = card.inflate(-layout.px(60), -layout.px(48))
        die = drift_die(engine, state)
        title = f"Where is the rock now? Roll its D{die}"
        draw_text(surface, title, fit_font(title, inner.w, layout.px(28), bold=True), ACCENT_LIGHT, inner.topleft)
        track = pygame.Rect(inner.left, inner.top + layout.px(50), inner.w, layout.px(34))
        draw_rock_track(surface, track, state.rock.turns_left, turns_to_impact(engine, state), state.rock.saved)
        words = (f"Impact in {state.rock.turns_left} turns. On a 1 the rock drifts: impact one turn later. On a "
                 f"{die} it comes one turn sooner. Anything else: it stays on course. The drift stops once a "
                 "Waylight shines on the rock, or when the rock is close.")
        draw_wrapped(surface, words, font_px(layout.px(17)), INK,
                     pygame.Rect(inner.left, track.bottom + layout.px(14), inner.w, layout.px(90)), 4)
