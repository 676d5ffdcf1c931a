"""The story so far: every line of ``session.log``, grouped by turn, scrollable, with roll lines,
consequences, losses and prestige picked out in their own colours."""
from __future__ import annotations

import re

import pygame
import pygame_gui

from game.client.scenes.game_scene import GameScene
from game.client.scenes.still_scene import StillScene
from game.client.kit.draw import colour_hex
from game.client.kit.text import html_escape, without_ids
from game.client.kit.style import ACCENT_HOT, ACCENT_LIGHT, BAND_COLOURS, INK, INK_DIM, draw_card, draw_text, font_px

_BEGINS = re.compile(r"^Turn (\d+) begins")

#: How each kind of story line looks: (colour, bold). The legend's words for them are each game's
#: (``GameEntry.story_labels``); a kind not listed here is plain ink.
KIND_STYLE = {
    "roll": (BAND_COLOURS["ok"], False),
    "consequence": (BAND_COLOURS["fail"], False),
    "damage": (BAND_COLOURS["fail"], False),
    "heat": (BAND_COLOURS["fail"], False),
    "death": (ACCENT_HOT, True),
    "prestige": (ACCENT_LIGHT, True),
    "standing": (ACCENT_LIGHT, True),  # a standing bonus changing hands: prestige too, though not a first
    "over": (ACCENT_LIGHT, True),
    "report": (INK, True),
    "war": ((204, 121, 167), False),  # fights and wars (Okabe-Ito's reddish purple, apart from the dice bands)
}


def story_turns(log) -> list[tuple[int, object]]:
    """Each log entry with the turn it belongs to in the story.

    The session files an entry under the turn of the state after its action, so the last roll of a
    turn (which also ends it) would land in the next turn; here a turn starts at its "Turn N begins"."""
    out = []
    turn = log[0].turn if log else 1
    for entry in log:
        match = _BEGINS.match(entry.event.text) if entry.event.kind == "turn" else None
        if match:
            turn = int(match.group(1))
        out.append((turn, entry))
    return out


def log_html(log, programs, explain=None, turn_word: str = "Turn", words=None) -> str:
    """The whole story as pygame_gui HTML, one block per turn (headed "Turn 3", or ``turn_word`` 3); each line
    in ``words`` (event -> what the player reads, the flow's ``story_words``; default the engine's words
    without their ids); with ``explain`` (event -> sentence, from the game's flow), a line is followed by the
    game's explanation of it (what a Fail or Boom does)."""
    out: list[str] = []
    turn = None
    names = {p.index: p for p in programs}
    for entry_turn, entry in story_turns(log):
        if entry_turn != turn:
            turn = entry_turn
            out.append(f"{'<br>' if out else ''}<font color='{colour_hex(ACCENT_LIGHT)}'><b>{turn_word} {turn}</b></font><br>")
        event = entry.event
        colour, bold = KIND_STYLE.get(event.kind, (INK if event.kind != "turn" else INK_DIM, False))
        text = html_escape(words(event) if words is not None else without_ids(event.text))
        if bold:
            text = f"<b>{text}</b>"
        marker = ""
        if event.program is not None and event.program in names:
            marker = f"<font color='{colour_hex(names[event.program].colour)}'>•</font> "
        out.append(f"{marker}<font color='{colour_hex(colour)}'>{text}</font><br>")
        why = explain(event) if explain is not None else ""
        if why:
            out.append(f"<font color='{colour_hex(INK_DIM)}'>{html_escape(why)}</font><br>")
    return "".join(out) or "Nothing has happened yet."


class LogScene(StillScene, GameScene):
    name = "log"

    def __init__(self, context, flow) -> None:
        super().__init__(context, flow)
        self.box: pygame_gui.elements.UITextBox | None = None

    # -- drawing: a still picture (only the text box, a widget, and the twinkling stars change)
    def still_key(self) -> tuple:
        return (len(self.flow.session.log),)

    def build_ui(self) -> None:
        super().build_ui()
        layout = self.context.layout
        vw, vh = layout.virtual_width, layout.virtual_height
        state = self.flow.session.state
        self.box = pygame_gui.elements.UITextBox(log_html(self.flow.session.log, state.programs,
                                                          getattr(self.flow, "explain_event", None),
                                                          self.flow.turn_word, self.flow.story_words),
                                                 layout.rect(40, 100, vw - 80, vh - 100 - 120),
                                                 self.context.manager, container=self.root, object_id="#story")
        if self.box.scroll_bar is not None:  # open at the newest lines
            self.box.scroll_bar.set_scroll_from_start_percentage(1.0)
        self.add_button("back", layout.rect(vw - 24 - 200, vh - 24 - 56, 200, 56), "Back", "@menu_button")

    def on_button(self, key: str) -> None:
        if key == "back":
            self.context.back()

    def on_key(self, event) -> bool:
        if event.key in (pygame.K_ESCAPE, pygame.K_l):
            self.context.back()
            return True
        return True

    def draw_content(self, surface: pygame.Surface) -> None:
        layout = self.context.layout
        self.draw_header(surface, "The story so far", subtitle=f"{len(self.flow.session.log)} lines")
        vw, vh = layout.virtual_width, layout.virtual_height
        draw_card(surface, layout.rect(24, 84, vw - 48, vh - 84 - 104), layout)
        font = font_px(layout.px(16), True)
        x = layout.px(24)
        y = layout.px(vh - 24 - 28)
        draw_text(surface, "Key:", font, INK_DIM, (x, y), anchor="midleft")
        x += font.size("Key:")[0] + layout.px(12)
        labels = self.context.game(self.flow.session.engine.game_id).story_labels
        for kind, label in labels.items():
            colour = KIND_STYLE.get(kind, (INK, False))[0]
            r = draw_text(surface, label, font, colour, (x, y), anchor="midleft")
            x = r.right + layout.px(18)
