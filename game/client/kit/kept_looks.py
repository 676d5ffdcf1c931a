"""Rounded widgets' looks kept on disk between runs, so a later start copies the title's buttons instead of
drawing them at 4x.

pygame_gui keeps a rounded shape's finished look (all but its words) under an id made of everything that decides
those pixels (size, shadow, borders, colours, corner radii: ``SurfaceCache.build_cache_id``) and copies it for the
next shape with that id, but only within one run. ``KeptLooks`` records the looks drawn while it records, writes
them to ``kept-looks.bin`` in the home folder (``paths.kept_looks_path``), and at the next start answers pygame_gui's own look-up with them.

The file is used only when its header matches this run exactly: our format number, pygame-ce's and pygame_gui's
versions and the theme file's content (its length and CRC-32), and only whole: a missing, short, corrupt,
hand-edited or unreadable file is ignored (one log line) and written anew. A look is read into a surface made the
way pygame_gui makes its looks, byte for byte, so a title drawn from the file is the title drawn fresh.
"""
from __future__ import annotations

import logging
import os
import struct
import threading
import zlib
from pathlib import Path
from typing import Optional

import pygame
import pygame_gui

from game.client.kit.paths import kept_looks_path
from game.client.kit.style import look_found_by_id, look_id
from game.core.atomic import write_atomic_bytes

log = logging.getLogger("whatgoesup")

#: Our own format's number: change it whenever what is written or how it is read changes.
FORMAT = 1
MAGIC = b"What Goes Up kept looks\n"
#: The file holds at most this many bytes of looks (a 4K title's are about four times the 1080p ones).
BUDGET = 16 * 1024 * 1024
_ENTRY = struct.Struct("<IIIIIIIII")  # id length, width, height, pitch, four masks, pixel bytes
_TRAILER = struct.Struct("<II")  # entries, CRC-32 of everything before it

#: The looks pygame_gui's look-up may copy (read from the file), and those drawn this run not among them.
_KEPT: dict[str, pygame.Surface] = {}
_DRAWN: dict[str, pygame.Surface] = {}
_RECORDING = [False]


def pygame_gui_version() -> str:
    """pygame_gui's installed version (its distribution's folder name; pygame_gui has no ``__version__``, and
    ``importlib.metadata`` costs the first frame milliseconds), and the size and time of the module that draws
    rounded shapes, so that a changed copy of pygame_gui draws afresh."""
    import pygame_gui.core.drawable_shapes.rounded_rect_drawable_shape as drawing
    package = Path(pygame_gui.__file__).parent
    found = sorted(entry.name[len("pygame_gui-"):-len(".dist-info")] for entry in os.scandir(package.parent)
                   if entry.name.startswith("pygame_gui-") and entry.name.endswith(".dist-info"))
    stat = os.stat(drawing.__file__)
    return f"{'/'.join(found) or 'unknown'} ({stat.st_size} bytes, {stat.st_mtime_ns})"


def header(theme_bytes: bytes) -> bytes:
    """The line a file must start with (after ``MAGIC``) to be used in this run."""
    return (f"format {FORMAT}; pygame-ce {pygame.version.ver}; pygame_gui {pygame_gui_version()}; "
            f"theme {len(theme_bytes)} {zlib.crc32(theme_bytes):08x}\n").encode("utf-8")


def _surface_like_pygame_guis(size: tuple[int, int]) -> pygame.Surface:
    return pygame.Surface(size, flags=pygame.SRCALPHA, depth=32)


def encode(looks: dict[str, pygame.Surface], theme_bytes: bytes, budget: int = BUDGET) -> list:
    """The file's bytes for ``looks`` (id -> look), as many as fit in ``budget`` bytes of pixels: a list of
    bytes-like pieces, the looks' own pixel buffers among them (not copied: at 4K they are megabytes)."""
    parts: list = [MAGIC, header(theme_bytes)]
    count = used = 0
    for look_id, look in looks.items():
        pixels = memoryview(look.get_buffer())
        if used + pixels.nbytes > budget:
            continue
        used += pixels.nbytes
        name = look_id.encode("utf-8")
        parts += [_ENTRY.pack(len(name), *look.get_size(), look.get_pitch(), *look.get_masks(), pixels.nbytes),
                  name, pixels]
        count += 1
    crc = 0
    for part in parts:
        crc = zlib.crc32(part, crc)
    return parts + [_TRAILER.pack(count, crc)]


def file_bytes(looks: dict[str, pygame.Surface], theme_bytes: bytes, budget: int = BUDGET) -> bytes:
    """``encode``'s pieces joined: the file's whole content."""
    return b"".join(encode(looks, theme_bytes, budget))


def decode(data: bytes, theme_bytes: bytes) -> dict[str, pygame.Surface]:
    """The looks in a file's bytes; ValueError (saying what is wrong) unless the whole file is sound and for this
    run."""
    head = MAGIC + header(theme_bytes)
    if not data.startswith(MAGIC):
        raise ValueError("not a kept-looks file")
    if not data.startswith(head):
        raise ValueError("made by another version or for another theme")
    if len(data) < len(head) + _TRAILER.size:
        raise ValueError("cut short")
    count, crc = _TRAILER.unpack_from(data, len(data) - _TRAILER.size)
    end = len(data) - _TRAILER.size
    if zlib.crc32(memoryview(data)[:end]) != crc:
        raise ValueError("its check sum does not match (cut short or changed)")
    looks: dict[str, pygame.Surface] = {}
    at = len(head)
    for _ in range(count):
        if at + _ENTRY.size > end:
            raise ValueError("cut short")
        name_len, w, h, pitch, *masks, raw_len = _ENTRY.unpack_from(data, at)
        at += _ENTRY.size
        if at + name_len + raw_len > end or w <= 0 or h <= 0:
            raise ValueError("an entry does not fit")
        look_id = data[at:at + name_len].decode("utf-8")
        at += name_len
        look = _surface_like_pygame_guis((w, h))
        if look.get_pitch() != pitch or list(look.get_masks()) != masks or raw_len != pitch * h:
            raise ValueError("its pixels are laid out otherwise")
        buffer = look.get_buffer()
        buffer.write(data[at:at + raw_len], 0)
        del buffer  # unlocks the surface
        at += raw_len
        looks[look_id] = look
    if at != end:
        raise ValueError("bytes left over")
    return looks


class KeptLooks:
    """The looks kept in ``home``'s file for the theme file ``theme_path``: loaded by ``load`` (before the first
    widgets are made), recorded while drawn, written by ``save`` (after the first frames)."""

    def __init__(self, home: Path, theme_path: Path) -> None:
        self.path = kept_looks_path(home)
        self.theme_path = theme_path
        self.theme_bytes = b""
        self.file_sound = False
        self.written = False
        self._writing: Optional[threading.Thread] = None

    def load(self) -> int:
        """Offer the file's looks to pygame_gui's look-up and record the looks drawn from now on; how many were
        read. Never raises: a file that cannot be used is noted in the log and written anew by ``save``."""
        install()
        _KEPT.clear()
        _DRAWN.clear()
        _RECORDING[0] = True
        try:
            self.theme_bytes = self.theme_path.read_bytes()
            data = self.path.read_bytes()
            _KEPT.update(decode(data, self.theme_bytes))
            self.file_sound = True
        except FileNotFoundError:
            log.info("kept looks: none yet in %s; the title's buttons are drawn and kept", self.path)
        except (OSError, ValueError, UnicodeDecodeError, struct.error, pygame.error) as exc:
            log.warning("kept looks: %s not used (%s); the buttons are drawn and it is written anew", self.path, exc)
        return len(_KEPT)

    def stop_recording(self) -> None:
        """Record no more looks; when nothing new was drawn and the file was sound, let go of the looks read
        (``save`` will have nothing to write)."""
        _RECORDING[0] = False
        if not _DRAWN and self.file_sound:
            _KEPT.clear()

    def save(self) -> bool:
        """Stop recording; when something new was drawn or the file could not be used, start writing it
        (atomically, within ``BUDGET``, on a thread of its own: a 4K title's looks are megabytes to sync to disk),
        and let go of the looks read. Whether a write was started (``wait`` for it). Never raises: a full disk or
        a read-only home leaves the old file (or none) and a log line."""
        _RECORDING[0] = False
        try:
            if not (_DRAWN or not self.file_sound):
                return False
            try:
                pieces = encode({**_KEPT, **_DRAWN}, self.theme_bytes)
            except pygame.error as exc:
                log.warning("kept looks: could not keep the looks (%s)", exc)
                return False
        finally:
            _KEPT.clear()
            _DRAWN.clear()
        self._writing = threading.Thread(target=self._write, args=(pieces,), name="kept looks")
        self._writing.start()
        return True

    def _write(self, pieces: list) -> None:
        try:
            write_atomic_bytes(self.path, pieces)
            self.written = True
        except OSError as exc:
            log.warning("kept looks: could not write %s (%s); the next start draws the buttons again", self.path, exc)
        finally:
            pieces.clear()  # the looks' buffers go with them

    def wait(self) -> bool:
        """Wait for a write ``save`` started; whether the file was written."""
        if self._writing is not None:
            self._writing.join()
        return self.written


def kept_look(look_id: str) -> Optional[pygame.Surface]:
    return _KEPT.get(look_id)


def install() -> None:
    """Let pygame_gui's shape look-up find the kept looks, and record the rounded looks drawn (safe to call
    again)."""
    from pygame_gui.core.drawable_shapes.rounded_rect_drawable_shape import RoundedRectangleShape
    from pygame_gui.core.surface_cache import SurfaceCache

    find = SurfaceCache.find_surface_in_cache
    if getattr(find, "_finds_kept_looks", False):
        return

    def find_surface_in_cache(cache, lookup_id: str):
        found = find(cache, lookup_id)
        return _KEPT.get(lookup_id) if found is None else found

    finalise = RoundedRectangleShape.finalise_images_and_text

    def finalise_images_and_text(shape, image_state_str, state_str, *args, **kwargs):
        if _RECORDING[0]:
            _record(shape, state_str)
        return finalise(shape, image_state_str, state_str, *args, **kwargs)

    find_surface_in_cache._finds_kept_looks = True  # type: ignore[attr-defined]
    SurfaceCache.find_surface_in_cache = find_surface_in_cache  # type: ignore[method-assign]
    RoundedRectangleShape.finalise_images_and_text = finalise_images_and_text  # type: ignore[method-assign]


def _record(shape, state_str: str) -> None:
    """Note ``shape``'s look ``state_str`` as just drawn (its words not on it yet), when it is one pygame_gui
    would look up by its id: not a bar, not a stand-in drawn while resizing, not resized."""
    look = shape.states[state_str].surface
    if not look_found_by_id(shape, state_str) or look.get_bitsize() != 32:
        return
    found_as = look_id(shape, state_str)
    if found_as not in _KEPT and found_as not in _DRAWN:
        _DRAWN[found_as] = look.copy()
