"""Colours, fonts, the layout scale and small drawing helpers shared by every scene.

Layouts are written in *virtual units* on a 1280x720 design; ``Layout.px`` turns them into pixels.
The scale follows the window and the player's UI-scale setting, but never so far that a
1024x600-unit design stops fitting the window (so text cannot run off the screen).
"""
from __future__ import annotations

import copy
import json
import math
import weakref
from collections import OrderedDict, deque
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cached_property, lru_cache
from pathlib import Path

import pygame
import pygame_gui

from game.client.kit.kept_fonts import KeptFont, forget_recorded_words
from game.client.kit.kept_looks import hook_looks, look_found_by_id, look_id
from game.client.kit.paths import THEME_PATH

DESIGN_SIZE = (1280, 720)
MIN_VIRTUAL_SIZE = (1024, 600)
#: The height of the bar across the top of every game scene (``GameScene.draw_header``, What Goes Up's
#: ``hud.draw_game_header`` and the Field's), in design units.
HEADER_H = 64

# Palette: deep space with warm, brassy accents.
SPACE_TOP = (9, 10, 32)
SPACE_BOTTOM = (36, 22, 66)
INK = (246, 236, 217)          # body text
INK_DIM = (178, 168, 200)
ACCENT = (240, 160, 75)        # warm amber
ACCENT_LIGHT = (255, 201, 120)
ACCENT_HOT = (255, 122, 89)    # coral
CARD = (28, 23, 58)
CARD_EDGE = (240, 160, 75)
SHADOW = (5, 4, 16)
DIM_VEIL = (6, 5, 20)  # what a dialog's dimmed screen darkens toward

# Outcome bands (Okabe-Ito hues, each also with its own pattern and label).
BAND_COLOURS = {"ok": (86, 180, 233), "fail": (230, 159, 0), "boom": (213, 94, 0)}

_GUI_DATA = Path(pygame_gui.__file__).resolve().parent / "data"
FONT_FILES = {
    False: _GUI_DATA / "NotoSans-Regular.ttf",
    True: _GUI_DATA / "NotoSans-Bold.ttf",
}


@dataclass(frozen=True)
class Layout:
    """Window size plus the player's UI scale: everything a scene needs to place things."""

    width: int
    height: int
    ui_scale: float = 1.0

    @cached_property  # read hundreds of times a frame; the layout is frozen, so work it out once
    def scale(self) -> float:
        fit = min(self.width / DESIGN_SIZE[0], self.height / DESIGN_SIZE[1]) * self.ui_scale
        limit = min(self.width / MIN_VIRTUAL_SIZE[0], self.height / MIN_VIRTUAL_SIZE[1])
        return max(0.5, min(fit, limit))

    @property
    def size(self) -> tuple[int, int]:
        return (self.width, self.height)

    @property
    def virtual_width(self) -> float:
        return self.width / self.scale

    @property
    def virtual_height(self) -> float:
        return self.height / self.scale

    def px(self, units: float) -> int:
        return int(round(units * self.scale))

    def rect(self, x: float, y: float, w: float, h: float) -> pygame.Rect:
        return pygame.Rect(self.px(x), self.px(y), self.px(w), self.px(h))

    def corner_rect(self, card: pygame.Rect, w: float, h: float, right: float, bottom: float) -> pygame.Rect:
        """A ``w`` x ``h`` unit rect (a card's button) whose bottom-right corner sits ``right`` and ``bottom`` units
        inside ``card``'s (a screen-pixel rect)."""
        r = pygame.Rect(0, 0, self.px(w), self.px(h))
        r.bottomright = (card.right - self.px(right), card.bottom - self.px(bottom))
        return r

    def centred_rect(self, w: float, h: float, y: float | None = None) -> pygame.Rect:
        """A ``w`` x ``h`` unit rect centred horizontally (and vertically unless ``y`` is given)."""
        r = pygame.Rect(0, 0, self.px(w), self.px(h))
        r.centerx = self.width // 2
        if y is None:
            r.centery = self.height // 2
        else:
            r.top = self.px(y)
        return r

    def font(self, units: float, bold: bool = False) -> pygame.font.Font:
        return font_px(max(8, self.px(units)), bold)


def font_px(size: int, bold: bool = False) -> pygame.font.Font:
    """The game's font at ``size`` pixels, loaded once per size while pygame runs."""
    global _forget_armed
    if not _forget_armed:
        # A font loaded before pygame.quit() raises once pygame starts again, so the fonts are forgotten when it
        # quits. pygame calls each quit hook once and then drops it: armed again by the first font of each run.
        pygame.register_quit(forget_fonts)
        _forget_armed = True
    return _font_px(size, bold)


_forget_armed = False


@lru_cache(maxsize=128)
def _font_px(size: int, bold: bool) -> pygame.font.Font:
    return KeptFont(str(FONT_FILES[bold]), size)  # its words can come from the kept looks (kit/kept_fonts.py)


def forget_fonts() -> None:
    """Drop every loaded font and what was measured and drawn with them (the app does when it starts: fonts from
    an earlier pygame run are dead)."""
    global _forget_armed
    _forget_armed = False
    _font_px.cache_clear()
    _fit_size.cache_clear()
    _TEXT_CACHE.clear()


# ---------------------------------------------------------------- theme

_SCALED_MISC = ("shape_corner_radius", "border_width", "shadow_width", "text_horiz_alignment_padding",
                "sliding_button_width", "open_button_width")


def load_theme_file(path: Path = THEME_PATH) -> dict:
    with open(path, encoding="utf-8") as fh:
        return json.load(fh)


def read_fonts_from_their_files(manager: pygame_gui.UIManager) -> None:
    """Let ``manager`` open each font it knows (the theme's Noto Sans, its symbols) from the font's file.

    pygame_gui knows its own fonts as package resources and reads the whole file into memory for every size it
    loads (the theme preloads ten sizes of Noto Sans, 580 KB each): ~3 ms of the title's first frame and ~6 MB
    kept. Given the file's path, FreeType reads only what it needs. Same files, so the same letters. Call it
    before the theme is loaded; a font that is not a plain file (a zipped install) stays as pygame_gui has it.
    """
    from importlib import resources

    def file_of(location):
        package, name = getattr(location, "package", None), getattr(location, "resource", None)
        if package is None or name is None:
            return location
        path = resources.files(package) / name
        return str(path) if isinstance(path, Path) and path.is_file() else location

    known = getattr(manager.get_theme().get_font_dictionary(), "known_font_paths", None)
    for name, styles in (known or {}).items():
        known[name] = [(file_of(location), forced) for location, forced in styles]


def scaled_theme(theme: dict, scale: float) -> dict:
    """A copy of a pygame_gui theme with font sizes and paddings multiplied by ``scale``."""
    out = copy.deepcopy(theme)
    for block in out.values():
        if not isinstance(block, dict):
            continue
        font = block.get("font")
        if isinstance(font, dict) and "size" in font:
            font["size"] = str(max(8, round(int(font["size"]) * scale)))
        misc = block.get("misc")
        if isinstance(misc, dict):
            for key in _SCALED_MISC:
                if key in misc:
                    base = int(misc[key])
                    misc[key] = str(max(1 if base else 0, round(base * scale)))
            if "padding" in misc:
                x, y = (int(v) for v in misc["padding"].split(","))
                misc["padding"] = f"{max(1, round(x * scale))},{max(1, round(y * scale))}"
    return out


#: Bytes of smoothing scratch a rounded shape may keep between its states (redrawing the scratch for every
#: state costs start-up time; below this, as at 1920x1080, keeping it costs little memory).
SHAPE_SCRATCH_KEPT = 4 * 1024 * 1024


#: Bytes of smoothing scratch all rounded shapes together may keep: a screen of buttons made at once (the rules
#: reference's 17 sections at 3840x2160, ~7 MiB each) otherwise holds every one's until its next look is drawn.
SHAPE_SCRATCH_BUDGET = 16 * 1024 * 1024

#: The shapes keeping their scratch, oldest first (weakly: a shape gone takes its scratch with it).
_SCRATCH_KEPT_BY: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()


def _scratch_bytes(shape) -> int:
    return sum(surface.get_width() * surface.get_height() * surface.get_bytesize()
               for surface in (shape.temp_additive_shape, shape.temp_subtractive_shape,
                               getattr(shape, "temp_shadow_subtractive_shape", None)) if surface is not None)


def _keep_scratch_within_budget(shape) -> None:
    """Note the scratch ``shape`` keeps (newest last) and drop the oldest kept scratch while all of it together is
    over ``SHAPE_SCRATCH_BUDGET``: a shape whose scratch went draws it again for its next look, the same way."""
    _SCRATCH_KEPT_BY.pop(shape, None)
    if shape.temp_additive_shape is not None:
        _SCRATCH_KEPT_BY[shape] = None
    kept = []
    for other in list(_SCRATCH_KEPT_BY):
        size = _scratch_bytes(other)
        if size == 0:  # pygame_gui let go of it (every look drawn) or the element was killed
            _SCRATCH_KEPT_BY.pop(other, None)
        else:
            kept.append((other, size))
    total = sum(size for _, size in kept)
    for other, size in kept:
        if total <= SHAPE_SCRATCH_BUDGET:
            break
        if other is not shape:
            other.clean_up_temp_shapes()
            _SCRATCH_KEPT_BY.pop(other, None)
            total -= size


def drop_shape_scratch_after_each_state() -> None:
    """Make pygame_gui's rounded shapes let go of their smoothing scratch after each state they draw.

    pygame_gui draws a rounded rectangle at four times its size to smooth its edges, and keeps two of those
    4x scratch surfaces on the shape until every state of it (normal, hovered, disabled, ...) is drawn, one
    state a frame. At 3840x2160 that is about 17 MiB per menu button and 150 MiB for the title's menu at once,
    the largest part of the title's peak memory. Every state rebuilds the scratch the same way, so dropping it
    after each state keeps the same pixels and holds one shape's scratch at a time; a scratch under
    ``SHAPE_SCRATCH_KEPT`` is kept, as pygame_gui does, to spare its redrawing. Safe to call again.
    """
    from pygame_gui.core.drawable_shapes.rounded_rect_drawable_shape import RoundedRectangleShape

    draw_state = RoundedRectangleShape.redraw_state
    if getattr(draw_state, "_drops_scratch", False):
        return

    def redraw_state(shape, state_str: str, add_text: bool = True) -> None:
        draw_state(shape, state_str, add_text)
        scratch = shape.temp_additive_shape
        if scratch is not None and scratch.get_width() * scratch.get_height() * 4 > SHAPE_SCRATCH_KEPT:
            shape.clean_up_temp_shapes()
        _keep_scratch_within_budget(shape)

    redraw_state._drops_scratch = True  # type: ignore[attr-defined]
    redraw_state.keeps_scratch = draw_state  # type: ignore[attr-defined]  # pygame_gui's own, for tests
    RoundedRectangleShape.redraw_state = redraw_state  # type: ignore[method-assign]
    _drop_scratch_on_kill()
    _drop_text_layers_of_fixed_text()


def _drop_scratch_on_kill() -> None:
    """A killed element lets go of its pictures at once: its shape's smoothing scratch, its looks and its image.

    A covered scene keeps its killed widgets in its attributes until it builds new ones when uncovered: R&D under
    assembly held ~27 MiB of button scratch and ~20 MiB of looks at 3840x2160. A killed element is drawn no more;
    its pictures become pygame_gui's empty surface (so a stray read still finds a surface), and a look asked of
    it again is drawn anew.
    """
    from pygame_gui.core import UIElement

    kill = UIElement.kill
    if getattr(kill, "_drops_scratch", False):
        return

    def kill_and_drop_scratch(element) -> None:
        kill(element)
        shape = getattr(element, "drawable_shape", None)
        if shape is not None:
            shape.clean_up_temp_shapes()
            empty = element.ui_manager.get_universal_empty_surface()
            for state in shape.states.values():
                state.surface, state.pre_text_surface, state.text_surface = empty, None, None
                state.generated = False
            shape.base_surface = None
            layout = getattr(shape, "text_box_layout", None)
            if layout is not None:
                layout.finalised_surface = None
            element.image = empty
            element._pre_clipped_image = None

    kill_and_drop_scratch._drops_scratch = True  # type: ignore[attr-defined]
    UIElement.kill = kill_and_drop_scratch  # type: ignore[method-assign]


def _drop_text_layers_of_fixed_text() -> None:
    """A shape whose text the player cannot edit lets go of each look's two text layers once the text is on it.

    pygame_gui keeps, per look, a copy of it before the text and the text alone (``pre_text_surface``,
    ``text_surface``), so that a text entry line can redraw its text as it is typed (``apply_active_text_changes``,
    called only by ``UITextEntryLine``, whose shape has ``editable_text``). Every other shape never reads them
    again: at 3840x2160 the assembly screen's buttons held ~27 MiB of them. The look itself, text and all, is
    untouched, so the pixels are the same; a look drawn again makes its text anew.
    """
    from pygame_gui.core.drawable_shapes.drawable_shape import DrawableShape

    finalise = DrawableShape.finalise_text
    if getattr(finalise, "_drops_text_layers", False):
        return

    def finalise_text(shape, state_str, *args, **kwargs) -> None:
        finalise(shape, state_str, *args, **kwargs)
        if not shape.editable_text:
            state = shape.states[state_str]
            state.pre_text_surface = state.text_surface = None

    finalise_text._drops_text_layers = True  # type: ignore[attr-defined]
    finalise_text.keeps_text_layers = finalise  # type: ignore[attr-defined]  # pygame_gui's own, for tests
    DrawableShape.finalise_text = finalise_text  # type: ignore[method-assign]


def _combined_ids(theme, element_base_ids, element_ids, class_ids, object_ids) -> list:
    """pygame_gui's ``build_all_combined_ids`` answer for a combination it has not seen, worked out as it does
    (the ids of every path through the hierarchy, most specific first, then each with its outer parts dropped)
    but without making its cache key."""
    combined: list = []
    if object_ids is None or element_ids is None or class_ids is None or element_base_ids is None:
        return combined
    if not len(object_ids) == len(class_ids) == len(element_base_ids) == len(element_ids):
        raise ValueError(f"Object & class ID hierarchy is not equal in length to Element ID hierarchy"
                         f"Element IDs: {element_ids}\nClass IDs: {class_ids}\n\nObject IDs: {object_ids}\n")
    if element_ids:
        theme._get_next_id_node(None, element_base_ids, element_ids, class_ids, object_ids, 0, len(element_ids),
                                combined)
    current = combined[:]
    while current:
        shorter = False
        for index, combined_id in enumerate(current):
            stop = combined_id.find(".")
            if stop == -1:
                shorter = True  # pygame_gui stops once an id has no outer part left (after this pass)
            else:
                current[index] = combined_id[stop + 1:]
                combined.append(current[index])
        if shorter:
            break
    return combined


def key_theming_ids_by_tuple() -> None:
    """Make pygame_gui remember each element's theming ids under a tuple of its id lists.

    pygame_gui's ``build_all_combined_ids`` keys its cache by ``str(a).join(str(b).join(str(c)).join(str(d)))``
    of the four id lists: a join, not a concatenation, so the key's length is the product of theirs. A button in
    a scrolling container's scroll bar made a 3 MiB key, built again each time such an element is made and kept
    for good: 16.5 MiB at the Field and 18.5 MiB at assembly, at any window size. A new combination is worked out
    as pygame_gui's own method does, by its own tree walk (``_combined_ids``) without the big key: even the
    title's menu buttons made keys of 2.5 MB each, ~1 ms of the first frame a button. The ids are the same
    (``tests/ui/test_theming_ids.py`` holds every one to pygame_gui's own method). Safe to call again.
    """
    from pygame_gui.core.ui_appearance_theme import UIAppearanceTheme

    build = UIAppearanceTheme.build_all_combined_ids
    if getattr(build, "_keyed_by_tuple", False):
        return

    def build_all_combined_ids(theme, element_base_ids, element_ids, class_ids, object_ids) -> list:
        key = tuple(None if ids is None else tuple(ids)
                    for ids in (element_base_ids, element_ids, class_ids, object_ids))
        known = theme.unique_theming_ids
        found = known.get(key)
        if found is None:
            found = known[key] = _combined_ids(theme, element_base_ids, element_ids, class_ids, object_ids)
        return found

    build_all_combined_ids._keyed_by_tuple = True  # type: ignore[attr-defined]
    build_all_combined_ids.keyed_by_string = build  # type: ignore[attr-defined]  # pygame_gui's own, for tests
    UIAppearanceTheme.build_all_combined_ids = build_all_combined_ids  # type: ignore[method-assign]


#: The looks of a widget drawn when it is made (pygame_gui draws the rest, pressed and selected and disabled,
#: the first time the widget shows them).
SHAPE_STATES_DRAWN_AT_ONCE = ("normal", "hovered")


def draw_rare_shape_states_when_shown() -> None:
    """Make pygame_gui draw a widget's rarer looks (pressed, selected; disabled already is) the first time the
    widget shows them instead of all when it is made, one a frame.

    Each look is a surface the widget's size (and a copy in pygame_gui's shape cache): a 4K screen of buttons
    held about 70 MiB of pressed and selected looks almost none of them ever showed. pygame_gui's own
    ``set_active_state`` draws a look not yet drawn before it shows it (as it does for disabled), with the same
    drawing, so the pixels are the same. A look drawn before and made stale by a redraw of the shape (new size
    or text) is drawn again when next shown; the look showing is always drawn at once. Safe to call again.
    """
    from pygame_gui.core.drawable_shapes.drawable_shape import DrawableShape, DrawableShapeState

    if getattr(DrawableShapeState.__init__, "_rare_when_shown", False):
        return
    make_state = DrawableShapeState.__init__
    redraw_all = DrawableShape.redraw_all_states

    def state_init(state, state_id: str) -> None:
        make_state(state, state_id)
        state.should_auto_pregen = state_id in SHAPE_STATES_DRAWN_AT_ONCE

    def redraw_all_states(shape, force_full_redraw: bool = False) -> None:
        if not force_full_redraw:
            for state in shape.states.values():
                if not state.should_auto_pregen:
                    state.generated = False  # stale now: drawn again when next shown
        redraw_all(shape, force_full_redraw)
        active = getattr(shape, "active_state", None)
        if active is not None and not active.generated:  # the look showing cannot wait
            if active.state_id in shape.states_to_redraw_queue:
                shape.states_to_redraw_queue.remove(active.state_id)
            shape.redraw_state(active.state_id)

    state_init._rare_when_shown = True  # type: ignore[attr-defined]
    DrawableShapeState.__init__ = state_init  # type: ignore[method-assign]
    DrawableShape.redraw_all_states = redraw_all_states  # type: ignore[method-assign]


#: Bytes of big finished looks ``keep_big_looks`` keeps per pygame_gui theme (the newest used kept longest).
BIG_LOOKS_KEPT = 4 * 1024 * 1024
#: Under this many pixels (and 1024 a side) pygame_gui keeps a finished look in its own shape cache.
_GUI_CACHED_AREA, _GUI_CACHED_SIDE = 40000, 1024


def keep_big_looks() -> None:
    """Let the rounded widgets of one size, colours and corners share their finished looks at any size.

    pygame_gui keeps a rounded shape's finished look (all but its words) in its theme's shape cache, so that the
    next shape of the same size, borders, corners and colours copies it instead of drawing it at 4x; but only
    under 40,000 pixels. Above that every such widget draws its own: at 3840x2160 the title's seven menu
    buttons drew seven identical faces, ~30 ms each, before the first frame. This keeps those bigger looks too,
    under pygame_gui's own key and found by its own lookup, up to ``BIG_LOOKS_KEPT`` bytes per theme (the look
    used longest ago goes first). The look copied is the one the shape would have drawn, so the pixels are the
    same. Safe to call again.
    """
    hook_looks(finder=_shared_look, finisher=_keep_finished_big_look)


def _shared_look(cache, lookup_id: str):
    looks = shared_looks(cache)
    found = looks.get(lookup_id)
    if found is not None:
        looks.move_to_end(lookup_id)
    return found


def _keep_finished_big_look(shape, state_str: str) -> None:
    if not shape.__dict__.get("resizing_quickly"):  # a look drawn by redraw_state, words not on it yet
        _keep_big_look(shape, state_str)


def shared_looks(cache) -> "OrderedDict[str, pygame.Surface]":
    """The big finished looks ``keep_big_looks`` keeps in a theme's shape ``cache``, by pygame_gui's key (the look
    used longest ago first)."""
    return cache.__dict__.setdefault("big_looks", OrderedDict())


def _keep_big_look(shape, state_str: str) -> None:
    """Keep ``shape``'s look ``state_str`` as just drawn (its words not on it yet) in its theme's shape cache, when
    pygame_gui would have kept it but for its size."""
    look = shape.states[state_str].surface
    w, h = look.get_size()
    if (not look_found_by_id(shape, state_str)
            or (w * h < _GUI_CACHED_AREA and w <= _GUI_CACHED_SIDE and h <= _GUI_CACHED_SIDE)
            or 4 * w * h > BIG_LOOKS_KEPT):
        return
    lookup_id = look_id(shape, state_str)
    looks = shared_looks(shape.shape_cache)
    if lookup_id in looks:  # copied from there
        return
    looks[lookup_id] = look.copy()
    kept = sum(4 * s.get_width() * s.get_height() for s in looks.values())
    while kept > BIG_LOOKS_KEPT:
        _, gone = looks.popitem(last=False)
        kept -= 4 * gone.get_width() * gone.get_height()


#: True while pygame_gui's shapes leave the looks queued for later frames in their queue (``queued_looks_held``).
_QUEUED_LOOKS_HELD = [False]


@contextmanager
def queued_looks_held():
    """While inside, pygame_gui's shapes draw none of the looks they queued for later frames.

    A widget draws its showing look when it is made and queues its other ready looks (the hovered one), which
    pygame_gui draws one a frame per widget in ``DrawableShape.update``. The app holds them through its first
    frame, on which none of them shows: the title's hovered looks cost that frame ~11 ms at 1920x1080, and are
    drawn over the next frames instead, the same way. A look asked to show meanwhile is drawn at once by
    pygame_gui's ``set_active_state``, as always.
    """
    from pygame_gui.core.drawable_shapes.drawable_shape import DrawableShape

    update = DrawableShape.update
    if not getattr(update, "_holds_queued_looks", False):
        def update_unless_held(shape, time_delta: float) -> None:
            queue = shape.states_to_redraw_queue
            if not (_QUEUED_LOOKS_HELD[0] and queue):
                update(shape, time_delta)
                return
            # pygame_gui draws the next queued look, or cleans up its scratch once the queue is empty: neither yet
            clean_up, shape.need_to_clean_up = shape.need_to_clean_up, False
            shape.states_to_redraw_queue = deque()
            try:
                update(shape, time_delta)
            finally:
                if not shape.states_to_redraw_queue:  # (a rebuild queues every look again: that queue stands)
                    shape.states_to_redraw_queue = queue
                shape.need_to_clean_up = shape.need_to_clean_up or clean_up

        update_unless_held._holds_queued_looks = True  # type: ignore[attr-defined]
        DrawableShape.update = update_unless_held  # type: ignore[method-assign]
    held, _QUEUED_LOOKS_HELD[0] = _QUEUED_LOOKS_HELD[0], True
    try:
        yield
    finally:
        _QUEUED_LOOKS_HELD[0] = held


# ---------------------------------------------------------------- drawing helpers

def vertical_gradient(size: tuple[int, int], top: tuple[int, int, int],
                      bottom: tuple[int, int, int]) -> pygame.Surface:
    surf = pygame.Surface(size)
    w, h = size
    for y in range(h):
        t = y / max(1, h - 1)
        colour = tuple(int(a + (b - a) * t) for a, b in zip(top, bottom))
        pygame.draw.line(surf, colour, (0, y), (w, y))
    return surf


def fit_font(text: str, max_width: int, size: int, bold: bool = False, min_size: int = 8) -> pygame.font.Font:
    """The largest font up to ``size`` px in which ``text`` fits ``max_width`` pixels."""
    return font_px(_fit_size(text, max_width, size, bold, min_size), bold)


@lru_cache(maxsize=1024)
def _fit_size(text: str, max_width: int, size: int, bold: bool, min_size: int) -> int:
    """The pixel size ``fit_font`` settles on (text metrics never change, so it is remembered)."""
    while size > min_size and font_px(size, bold).size(text)[0] > max_width:
        size -= max(1, size // 12)
    return max(min_size, size)


_WRAPPED: dict[tuple, tuple[str, ...]] = {}


def wrap_text(text: str, font: pygame.font.Font, max_width: int) -> list[str]:
    """Greedy word wrap; a single over-long word is broken by characters."""
    key = (text, font, max_width)
    found = _WRAPPED.get(key)  # the same paragraphs are wrapped every frame
    if found is None:
        if len(_WRAPPED) >= 512:
            _WRAPPED.clear()
        found = _WRAPPED[key] = tuple(_wrap_text(text, font, max_width))
    return list(found)


def wrap_balanced(text: str, font: pygame.font.Font, max_width: int) -> list[str]:
    """``wrap_text``'s lines made as even as they can be without adding a line: no word left alone on the
    last line. Two sentences that each fit on a line are broken between them."""
    key = (text, font, max_width)
    found = _BALANCED.get(key)  # drawn every frame: the search below runs once per text
    if found is None:
        if len(_BALANCED) >= 128:
            _BALANCED.clear()
        found = _BALANCED[key] = tuple(_wrap_balanced(text, font, max_width))
    return list(found)


_BALANCED: dict = {}


def _wrap_balanced(text: str, font: pygame.font.Font, max_width: int) -> list[str]:
    lines = wrap_text(text, font, max_width)
    if len(lines) < 2 or "\n" in text:
        return lines
    sentences = text.split(". ")
    if len(lines) == 2 and len(sentences) == 2:
        first, second = sentences[0] + ".", sentences[1]
        if font.size(first)[0] <= max_width and font.size(second)[0] <= max_width:
            return [first, second]
    low, high = 1, max_width  # the narrowest width that still takes no more lines
    while low < high:
        mid = (low + high) // 2
        if len(wrap_text(text, font, mid)) <= len(lines):
            high = mid
        else:
            low = mid + 1
    return wrap_text(text, font, low)


def _wrap_text(text: str, font: pygame.font.Font, max_width: int) -> list[str]:
    lines: list[str] = []
    for paragraph in text.split("\n"):
        line = ""
        for word in paragraph.split(" "):
            trial = word if not line else f"{line} {word}"
            if font.size(trial)[0] <= max_width:
                line = trial
                continue
            if line:
                lines.append(line)
            while font.size(word)[0] > max_width and len(word) > 1:
                cut = len(word)
                while cut > 1 and font.size(word[:cut])[0] > max_width:
                    cut -= 1
                lines.append(word[:cut])
                word = word[cut:]
            line = word
        lines.append(line)
    return lines


_TEXT_CACHE: dict[tuple, tuple[pygame.Surface, pygame.Surface | None]] = {}


def rendered_text(text: str, font: pygame.font.Font, colour, shadow: bool = False
                  ) -> tuple[pygame.Surface, pygame.Surface | None]:
    """``text`` rendered in ``font`` and ``colour`` (and its drop shadow if asked), remembered:
    most text on screen is the same from one frame to the next."""
    key = (font, text, tuple(colour), shadow)
    found = _TEXT_CACHE.get(key)
    if found is None:
        if len(_TEXT_CACHE) >= 768:
            _TEXT_CACHE.clear()
        image = font.render(text, True, colour)
        shade = None
        if shadow:
            shade = font.render(text, True, SHADOW)
            shade.set_alpha(170)
        found = _TEXT_CACHE[key] = (image, shade)
    return found


def forget_rendered_text() -> None:
    """Let go of every remembered text image (``rendered_text``) and of the copies recorded for the kept looks'
    file: for a screen that leaves for good with words nobody else draws (the title's name is three images of
    ~3 MiB each at 3840x2160)."""
    _TEXT_CACHE.clear()
    forget_recorded_words()


def draw_text(surface: pygame.Surface, text: str, font: pygame.font.Font, colour, pos,
              anchor: str = "topleft", shadow: int = 0) -> pygame.Rect:
    """Blit ``text`` with its rect's ``anchor`` at ``pos``; an optional soft drop shadow."""
    image, shade = rendered_text(text, font, colour, bool(shadow))
    rect = image.get_rect(**{anchor: pos})
    if shade is not None:
        surface.blit(shade, rect.move(shadow, shadow))
    surface.blit(image, rect)
    return rect


SHADOW_ALPHA = 28  # the cards' soft shadow: black at this alpha


def draw_card(surface: pygame.Surface, rect: pygame.Rect, layout: Layout, colour=CARD,
              edge=CARD_EDGE) -> None:
    """A rounded panel with a soft shadow and a warm rim: the look of every dialog."""
    radius = layout.px(18)
    _draw_card_shadow(surface, rect, layout, radius)
    pygame.draw.rect(surface, colour, rect, border_radius=radius)
    pygame.draw.rect(surface, edge, rect, width=max(2, layout.px(3)), border_radius=radius)


def _draw_card_shadow(surface: pygame.Surface, rect: pygame.Rect, layout: Layout, radius: int) -> None:
    """The card's shadow: a rounded rect a little larger than the card and lower, darkened as black at
    ``SHADOW_ALPHA`` would, inside the card grown by 24 units. Drawn straight onto ``surface`` (its straight
    parts multiplied, its four corners blitted), with no card-sized layer: at 4K a big card's layer was
    tens of MiB, made every frame."""
    grow = layout.px(4) * 6
    shadow = pygame.Rect(0, 0, rect.w + grow, rect.h + grow)
    shadow.center = (rect.centerx, rect.centery + layout.px(6))
    corner = min(radius + grow // 2, shadow.w // 2, shadow.h // 2)
    old_clip = surface.get_clip()
    surface.set_clip(old_clip.clip(rect.inflate(layout.px(24), layout.px(24))))
    keep = (255 - SHADOW_ALPHA,) * 3
    left, top, right, bottom = shadow.left, shadow.top, shadow.right, shadow.bottom
    straight = [pygame.Rect(left + corner, top, shadow.w - 2 * corner, shadow.h)]
    straight += [pygame.Rect(x, top + corner, corner, shadow.h - 2 * corner) for x in (left, right - corner)]
    for part in straight:
        if surface.get_flags() & pygame.SRCALPHA:  # a card painted into its own layer (rollpanel.cached_card):
            _blit_shade(surface, part)  # multiplying its clear pixels would leave no shadow
        else:
            surface.fill(keep, part, special_flags=pygame.BLEND_RGB_MULT)
    quarters = _shadow_corners(corner)
    for image, at in zip(quarters, ((left, top), (right - corner, top), (left, bottom - corner),
                                    (right - corner, bottom - corner))):
        surface.blit(image, at)
    surface.set_clip(old_clip)


#: Rows of shade blitted at a time onto a layer of its own (``_blit_shade``).
SHADE_ROWS = 64


def _blit_shade(surface: pygame.Surface, part: pygame.Rect) -> None:
    """Blit black at ``SHADOW_ALPHA`` over ``part`` of an alpha ``surface``, a band of ``SHADE_ROWS`` rows at a
    time: the same pixels as one blit of the whole part (blending is pixel by pixel), without a shade the size
    of a card (17 MiB for the roll card at 3840x2160)."""
    shade = pygame.Surface((part.w, min(part.h, SHADE_ROWS)), pygame.SRCALPHA)
    shade.fill((0, 0, 0, SHADOW_ALPHA))
    surface.blits([(shade, (part.left, top), pygame.Rect(0, 0, part.w, min(SHADE_ROWS, part.bottom - top)))
                   for top in range(part.top, part.bottom, SHADE_ROWS)], doreturn=False)


@lru_cache(maxsize=32)
def _shadow_corners(corner: int) -> tuple[pygame.Surface, ...]:
    """The four rounded corners (top left, top right, bottom left, bottom right) of a card's shadow."""
    whole = pygame.Surface((2 * corner, 2 * corner), pygame.SRCALPHA)
    pygame.draw.rect(whole, (0, 0, 0, SHADOW_ALPHA), whole.get_rect(), border_radius=corner)
    return tuple(whole.subsurface((x, y, corner, corner)).copy() for y in (0, corner) for x in (0, corner))


def disjoint_rects(rects, disjoint=()) -> list[pygame.Rect]:
    """``rects`` (added to ``disjoint``, rects already apart) merged wherever they overlap, so no two of the
    results share a pixel: redrawing a frame's changed parts through them blends each translucent layer onto a
    pixel once. Neither argument's rects are changed."""
    merged: list[pygame.Rect] = list(disjoint)
    for rect in rects:
        rect = pygame.Rect(rect)
        hit = rect.collidelist(merged)
        while hit >= 0:
            rect.union_ip(merged.pop(hit))
            hit = rect.collidelist(merged)
        merged.append(rect)
    return merged


def dim(surface: pygame.Surface, alpha: int = 170) -> None:
    """Darken all of ``surface`` toward the deep night blue, as a veil of that colour at ``alpha`` laid over it
    would, in place (no full-screen layer: 33 MiB at 4K, made every frame)."""
    if surface.get_flags() & pygame.SRCALPHA:  # a layer of its own: its clear pixels take the veil's alpha too
        veil = pygame.Surface(surface.get_size(), pygame.SRCALPHA)
        veil.fill((*DIM_VEIL, alpha))
        surface.blit(veil, (0, 0))
        return
    keep = 255 - alpha
    surface.fill((keep, keep, keep), special_flags=pygame.BLEND_RGB_MULT)
    surface.fill(tuple(round(c * alpha / 255) for c in DIM_VEIL), special_flags=pygame.BLEND_RGB_ADD)


def draw_dialog(surface: pygame.Surface, card: pygame.Rect, layout: Layout, title: str, size: float = 32,
                inset: float = 40, top: float = 26, centred: bool = False) -> pygame.Rect:
    """A modal dialog: the screen dimmed, the card, and its title fitted inside the card (``size`` units at
    most, ``inset`` units from the card's sides, ``top`` units down; centred or from the left). Returns the
    title's rect."""
    dim(surface)
    draw_card(surface, card, layout)
    font = fit_font(title, card.w - 2 * layout.px(inset), layout.px(size), bold=True)
    if centred:
        return draw_text(surface, title, font, ACCENT_LIGHT, (card.centerx, card.top + layout.px(top)), anchor="midtop")
    return draw_text(surface, title, font, ACCENT_LIGHT, (card.left + layout.px(inset), card.top + layout.px(top)))


def draw_keycap(surface: pygame.Surface, text: str, font: pygame.font.Font, topleft, layout: Layout) -> pygame.Rect:
    """A little keyboard key with ``text`` on it; returns its rect."""
    label = font.render(text, True, (40, 28, 60))
    pad_x, pad_y = layout.px(12), layout.px(5)
    rect = pygame.Rect(topleft, (max(label.get_width() + 2 * pad_x, label.get_height() + 2 * pad_y),
                                 label.get_height() + 2 * pad_y))
    radius = layout.px(8)
    pygame.draw.rect(surface, (150, 100, 50), rect.move(0, layout.px(3)), border_radius=radius)
    pygame.draw.rect(surface, ACCENT_LIGHT, rect, border_radius=radius)
    surface.blit(label, label.get_rect(center=rect.center))
    return rect


def polygon_points(cx: float, cy: float, radius: float, count: int, angle: float = -math.pi / 2):
    return [(cx + radius * math.cos(angle + 2 * math.pi * i / count),
             cy + radius * math.sin(angle + 2 * math.pi * i / count)) for i in range(count)]
