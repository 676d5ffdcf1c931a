"""Fonts whose words can come from the kept looks (``kit/kept_looks.py``) instead of FreeType.

A font's first words cost the title's first frame more than their pixels: FreeType runs the font's hinting
programs on its first glyph (~1.5 ms a font object) and then lays out and draws each word. ``KeptFont`` is
pygame's ``Font`` that, while the app records its first frames, keeps what it drew (``render``) and measured
(``size``) under a name holding everything those answers are made of: the font file (path, size and time), the
point size, the style (bold, italic, underline, strikethrough, outline, alignment, script, direction, line
size), the words, antialiasing and colours; pygame-ce's, SDL_ttf's and FreeType's versions are in the file's header. At a
later start the same question is answered from the file, byte for byte what FreeType drew, and FreeType is not
asked at all. The title's words (``style.font_px``) and pygame_gui's (its ``GUIFontPygame`` opens its fonts as
``PygameGuiFont``, a ``KeptFont``) both go through it.
"""
from __future__ import annotations

import os
from typing import Optional

import pygame

from game.client.kit import kept_looks


#: How the names of kept words start.
WORDS = "words"


#: Bigger pictures of words are not kept (the title's name from 2560x1440 up, 2.8 MB at 3840x2160, and its two
#: copies): a screen opened before the file is written would hold their copies until then (+5.5 MiB at the 4K
#: R&D's peak), for a few milliseconds of a 4K start.
WORDS_MAX = 1536 * 1024

#: Whether the words drawn now are recorded for the kept looks' file (as long as the looks are, and only
#: through the app's first frame, ``stop_recording_words``).
_RECORDING_WORDS = [True]


def stop_recording_words() -> None:
    """Record no more words this run: the first frame's are kept; a screen opened in the next frames (before the
    file is written) would otherwise hold copies of all of its words until then (R&D's at 3840x2160: 5 MiB)."""
    _RECORDING_WORDS[0] = False


def forget_recorded_words() -> None:
    """Let go of the copies of words recorded for the kept looks' file this run (a screen that leaves for good
    with its words: at 3840x2160 the title's name and its shadow are ~10 MiB, which the next screen would hold
    until the file is written)."""
    kept_looks.forget_recorded(WORDS + " ")


#: Font files as kept names hold them (``kept_looks.file_identity``), by path: a theme opens one file at many sizes.
_FILES: dict[str, Optional[str]] = {}


def _identity(file) -> Optional[str]:
    """The font file ``file`` as kept names hold it; None when it is not a plain file (never kept)."""
    path = os.fspath(file)
    if path not in _FILES:
        try:
            _FILES[path] = kept_looks.file_identity(path) if os.path.isfile(path) else None
        except OSError:
            _FILES[path] = None
    return _FILES[path]


class KeptFont(pygame.font.Font):
    """pygame's font, answering ``render`` and ``size`` from the kept words when it can (the same pixels and
    numbers), and recording them while the app records. A font not opened from a file's path (a file object, the
    default font) is never kept."""

    #: Whether whoever asks this font only reads the pictures ``render`` returns (then a kept one is handed out
    #: as it is, not copied).
    reads_words_only = False

    def __init__(self, file=None, size: int = 20, *args, **kwargs) -> None:
        super().__init__(file, size, *args, **kwargs)
        self._file: Optional[str] = _identity(file) if isinstance(file, (str, os.PathLike)) else None
        self._script: Optional[str] = None  # SDL_ttf's own until set
        self._direction: Optional[int] = None
        self._linesize: Optional[int] = None  # the font's own until set (it spaces wrapped lines)

    def set_script(self, script: str) -> None:
        super().set_script(script)
        self._script = script

    def set_direction(self, direction: int) -> None:
        super().set_direction(direction)
        self._direction = direction

    def set_linesize(self, linesize: int) -> None:
        super().set_linesize(linesize)
        self._linesize = linesize

    def _style(self) -> str:
        """Everything about this font, as it is now, that decides its words' pixels and sizes."""
        return (f"{self._file} {self.point_size} b{int(self.bold)} i{int(self.italic)} u{int(self.underline)} "
                f"s{int(self.strikethrough)} o{self.outline} a{self.align} {self._script} d{self._direction} "
                f"l{self._linesize}")

    def render(self, text, antialias, color, bgcolor=None, wraplength: int = 0) -> pygame.Surface:
        if self._file is None or not kept_looks.in_use():  # past the first frames: pygame's own, at its speed
            return super().render(text, antialias, color, bgcolor, wraplength)
        background = None if bgcolor is None else tuple(pygame.Color(bgcolor))
        name = (f"{WORDS} {self._style()} {text!r} {bool(antialias)} {tuple(pygame.Color(color))} {background} "
                f"w{wraplength}")
        found = kept_looks.kept(name)
        if found is not None:
            return found if self.reads_words_only else found.copy()
        words = super().render(text, antialias, color, bgcolor, wraplength)
        if (_RECORDING_WORDS[0] and kept_looks.recording() and kept_looks.keepable(words)
                and words.get_pitch() * words.get_height() <= WORDS_MAX):
            kept_looks.record(name, words.copy())
        return words

    def size(self, text) -> tuple[int, int]:
        if self._file is None or not kept_looks.in_use():
            return super().size(text)
        name = f"size {self._style()} {text!r}"
        found = kept_looks.kept(name, kind=list)
        if found is not None and len(found) == 2 and all(type(n) is int and n >= 0 for n in found):
            return tuple(found)  # type: ignore[return-value]
        measured = super().size(text)
        if _RECORDING_WORDS[0]:
            kept_looks.record(name, list(measured))
        return measured


class PygameGuiFont(KeptFont):
    """The font pygame_gui's ``GUIFontPygame`` opens: it only reads what ``render`` returns (``get_rect`` measures
    it, ``render_premul`` and ``render_premul_to`` draw a converted copy), so kept words are handed to it as they
    are (the title's buttons: 31 copies fewer)."""

    reads_words_only = True


def let_pygame_gui_keep_words() -> None:
    """Make pygame_gui open its pygame fonts as ``PygameGuiFont`` and record the words drawn from now on through the
    first frame (safe to call again)."""
    from pygame_gui.core import gui_font_pygame

    _RECORDING_WORDS[0] = True
    gui_font_pygame.Font = PygameGuiFont  # type: ignore[attr-defined]
