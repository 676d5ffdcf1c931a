"""What the title's first frame draws, kept on disk between runs, so a later start copies it instead of drawing
it: the rounded widgets' looks (drawn at 4x), the words (``kit/kept_fonts.py``) and the backdrop's unchanging
layer (``kit/backdrop.py``).

pygame_gui keeps a rounded shape's finished look (all but its words) under an id made of everything that decides
those pixels (size, shadow, borders, colours, corner radii: ``SurfaceCache.build_cache_id``) and copies it for the
next shape with that id, but only within one run. ``KeptLooks`` records what is drawn while it records (looks
under pygame_gui's id, words and layers under names that hold everything their pixels are made from), writes it
to ``kept-looks.bin`` in the home folder (``paths.kept_looks_path``), and at the next start answers the look-ups
with it (pygame_gui's own for the looks, ``kept`` for the rest).

The file is used only when its header matches this run exactly: our format number, the versions of pygame-ce,
SDL_ttf, FreeType and pygame_gui, pygame's smooth-scale filter and the theme file's content (its length and
CRC-32), and only whole: a missing, short, corrupt, hand-edited or unreadable file is ignored (one log line) and
written anew. A picture is read into a surface made the way the original was (its size, pixel format and
per-pixel alpha), byte for byte, so a title drawn from the file is the title drawn fresh.
"""
from __future__ import annotations

import io
import json
import logging
import os
import struct
import threading
import zlib
from pathlib import Path
from typing import Any, BinaryIO, Optional

import pygame
import pygame_gui

from game.client.kit.paths import kept_looks_path
from game.core.atomic import write_atomic_bytes

log = logging.getLogger("whatgoesup")

#: Our own format's number: change it whenever what is written or how it is read changes.
FORMAT = 2
MAGIC = b"What Goes Up kept looks\n"
#: The file holds at most this many bytes, the smallest items first (at 1920x1080 the title's are 12.4 MB: the
#: backdrop's layer 8.3 MB, the words 3.3 MB, the buttons' looks 0.8 MB).
BUDGET = 24 * 1024 * 1024
#: A bigger picture is not kept (the backdrop's layer above 1920x1080-odd sizes: 15 MB at 2560x1440, 33 MB at
#: 3840x2160, is drawn each start): reading it would cost about what drawing it does, and the disk as much.
PICTURE_MAX = 12 * 1024 * 1024
# an entry: name length, kind, width, height, pitch, bits a pixel, four masks, payload bytes
_ENTRY = struct.Struct("<IIIIIIIIIII")
_TRAILER = struct.Struct("<II")  # entries, CRC-32 of everything before it
_PICTURE, _ALPHA_PICTURE, _VALUE = 0, 1, 2  # entry kinds: a surface, one with per-pixel alpha, a small JSON value

#: What the look-ups may copy (read from the file), what of it was used, and what was drawn this run not among it:
#: name -> a surface or a small value (numbers, lists of numbers).
_KEPT: dict[str, Any] = {}
_USED: set[str] = set()
_DRAWN: dict[str, Any] = {}
#: The names of the pictures recorded as they are, still drawn from (not copies): copied for the file's writing.
_SHARED: set[str] = set()
_RECORDING = [False]


def pygame_gui_version() -> str:
    """pygame_gui's installed version (its distribution's folder name; pygame_gui has no ``__version__``, and
    ``importlib.metadata`` costs the first frame milliseconds), and the size and time of the module that draws
    rounded shapes, so that a changed copy of pygame_gui draws afresh."""
    import pygame_gui.core.drawable_shapes.rounded_rect_drawable_shape as drawing
    package = Path(pygame_gui.__file__).parent
    found = sorted(entry.name[len("pygame_gui-"):-len(".dist-info")] for entry in os.scandir(package.parent)
                   if entry.name.startswith("pygame_gui-") and entry.name.endswith(".dist-info"))
    return f"{'/'.join(found) or 'unknown'} ({file_identity(drawing.__file__)})"


def file_identity(path) -> str:
    """A file as a kept name holds it: its path, size and modification time (a changed file is another)."""
    stat = os.stat(path)
    return f"{os.fspath(path)} {stat.st_size} {stat.st_mtime_ns}"


def header(theme_bytes: bytes) -> bytes:
    """The line a file must start with (after ``MAGIC``) to be used in this run."""
    import pygame.freetype

    ttf = ".".join(map(str, pygame.font.get_sdl_ttf_version(linked=True)))
    freetype = ".".join(map(str, pygame.freetype.get_version(linked=True)))
    return (f"format {FORMAT}; pygame-ce {pygame.version.ver}; SDL_ttf {ttf}; FreeType {freetype}; "
            f"smoothscale {pygame.transform.get_smoothscale_backend()}; pygame_gui {pygame_gui_version()}; "
            f"theme {len(theme_bytes)} {zlib.crc32(theme_bytes):08x}\n").encode("utf-8")


def keepable(picture: pygame.Surface) -> bool:
    """Whether ``picture`` can be kept and read back the same: 24 or 32 bits a pixel, no colour key, no alpha for
    the whole surface (per-pixel alpha is kept)."""
    return (picture.get_bitsize() in (24, 32) and picture.get_colorkey() is None
            and picture.get_alpha() in (None, 255) and not picture.get_locked())


def encode(items: dict[str, Any], theme_bytes: bytes, budget: int = BUDGET) -> list:
    """The file's bytes for ``items`` (name -> a surface or a small value), as many as fit in ``budget`` bytes: a
    list of bytes-like pieces, the surfaces' own pixel buffers among them (not copied: at 4K they are megabytes)."""
    parts: list = [MAGIC, header(theme_bytes)]
    count = used = 0
    for name, item in sorted(items.items(), key=lambda entry: _bytes_of(entry[1])):
        name_bytes = name.encode("utf-8")
        if isinstance(item, pygame.Surface):
            payload = memoryview(item.get_buffer())
            kind = _ALPHA_PICTURE if item.get_flags() & pygame.SRCALPHA else _PICTURE
            fields = (kind, *item.get_size(), item.get_pitch(), item.get_bitsize(), *item.get_masks())
        else:
            payload = json.dumps(item).encode("utf-8")
            fields = (_VALUE, 0, 0, 0, 0, 0, 0, 0, 0)
        size = len(name_bytes) + memoryview(payload).nbytes
        if used + size > budget:
            continue
        used += size
        parts += [_ENTRY.pack(len(name_bytes), *fields, memoryview(payload).nbytes), name_bytes, payload]
        count += 1
    crc = 0
    for part in parts:
        crc = zlib.crc32(part, crc)
    return parts + [_TRAILER.pack(count, crc)]


def _bytes_of(item: Any) -> int:
    return item.get_pitch() * item.get_height() if isinstance(item, pygame.Surface) else 0


def file_bytes(items: dict[str, Any], theme_bytes: bytes, budget: int = BUDGET) -> bytes:
    """``encode``'s pieces joined: the file's whole content."""
    return b"".join(encode(items, theme_bytes, budget))


def decode(data: bytes, theme_bytes: bytes) -> dict[str, Any]:
    """The items in a file's bytes; ValueError (saying what is wrong) unless the whole file is sound and for this
    run."""
    return read(io.BytesIO(data), len(data), theme_bytes)


def read(stream: BinaryIO, size: int, theme_bytes: bytes) -> dict[str, Any]:
    """The items in the ``size`` bytes of ``stream``, each picture read straight into its surface (no copy of the
    file in memory: at 4K it is megabytes); ValueError (saying what is wrong) unless the whole file is sound and for
    this run."""
    head = MAGIC + header(theme_bytes)
    start = stream.read(len(head))
    if not start.startswith(MAGIC):
        raise ValueError("not a kept-looks file")
    if start != head:
        raise ValueError("made by another version or for another theme")
    end = size - _TRAILER.size
    if end < len(head):
        raise ValueError("cut short")
    crc, at = zlib.crc32(head), len(head)

    def take(count: int) -> bytes:
        nonlocal crc, at
        if at + count > end:
            raise ValueError("cut short")
        piece = stream.read(count)
        if len(piece) != count:
            raise ValueError("cut short")
        crc, at = zlib.crc32(piece, crc), at + count
        return piece

    items: dict[str, Any] = {}
    while at < end:
        name_len, kind, w, h, pitch, bits, *masks, payload = _ENTRY.unpack(take(_ENTRY.size))
        name = take(name_len).decode("utf-8")
        if kind == _VALUE:
            items[name] = json.loads(take(payload).decode("utf-8"))
            continue
        if kind not in (_PICTURE, _ALPHA_PICTURE) or w <= 0 or h <= 0 or bits not in (24, 32):
            raise ValueError("an entry is not a picture it could hold")
        if at + payload > end or payload != pitch * h or pitch < w * bits // 8:
            raise ValueError("an entry does not fit")
        picture = pygame.Surface((w, h), pygame.SRCALPHA if kind == _ALPHA_PICTURE else 0, bits, masks)
        if picture.get_pitch() != pitch or list(picture.get_masks()) != masks or payload != pitch * h:
            raise ValueError("its pixels are laid out otherwise")
        pixels = memoryview(picture.get_buffer())
        if stream.readinto(pixels) != payload:
            raise ValueError("cut short")
        crc, at = zlib.crc32(pixels, crc), at + payload
        del pixels  # unlocks the surface
        items[name] = picture
    count, stored_crc = _TRAILER.unpack(stream.read(_TRAILER.size) or b"\0" * _TRAILER.size)
    if stored_crc != crc:
        raise ValueError("its check sum does not match (cut short or changed)")
    if count != len(items):
        raise ValueError("its count of entries does not match")
    return items


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
        """Offer the file's looks to pygame_gui's look-up and record the looks drawn from now on; how many items
        were read. Never raises: a file that cannot be used is noted in the log and written anew by ``save``."""
        install()
        _KEPT.clear()
        _USED.clear()
        _DRAWN.clear()
        _SHARED.clear()
        _RECORDING[0] = True
        try:
            self.theme_bytes = self.theme_path.read_bytes()
            with open(self.path, "rb") as stream:
                _KEPT.update(read(stream, os.fstat(stream.fileno()).st_size, self.theme_bytes))
            self.file_sound = True
        except FileNotFoundError:
            log.info("kept looks: none yet in %s; the title is drawn and kept", self.path)
        except (OSError, ValueError, UnicodeDecodeError, struct.error, pygame.error) as exc:
            log.warning("kept looks: %s not used (%s); the title is drawn and it is written anew", self.path, exc)
        return len(_KEPT)

    def stop_recording(self) -> None:
        """Record no more looks; when nothing new was drawn and the file was sound, let go of the looks read
        (``save`` will have nothing to write)."""
        _RECORDING[0] = False
        if not _DRAWN and self.file_sound:
            _KEPT.clear()

    def save(self) -> bool:
        """Stop recording; when something new was drawn or the file could not be used, start writing what this
        run used from the file and what it drew (atomically, within ``BUDGET``, on a thread of its own: a 4K
        title's looks are megabytes to check and sync to disk), and let go of the looks read. Whether a write was
        started (``wait`` for it). Never raises: a full disk or a read-only home leaves the old file (or none)
        and a log line."""
        _RECORDING[0] = False
        try:
            if not (_DRAWN or not self.file_sound):
                return False
            items = {name: item for name, item in _KEPT.items() if name in _USED}
            items.update(_DRAWN)
            for name in _SHARED.intersection(items):  # the writing locks its pictures: a blit from one would fail
                items[name] = items[name].copy()
        finally:
            _KEPT.clear()
            _USED.clear()
            _DRAWN.clear()
            _SHARED.clear()
        self._writing = threading.Thread(target=self._write, args=(items,), name="kept looks")
        self._writing.start()
        return True

    def _write(self, items: dict[str, Any]) -> None:
        try:
            write_atomic_bytes(self.path, encode(items, self.theme_bytes))
            self.written = True
        except pygame.error as exc:
            log.warning("kept looks: could not keep the looks (%s)", exc)
        except OSError as exc:
            log.warning("kept looks: could not write %s (%s); the next start draws the title again", self.path, exc)
        finally:
            items.clear()  # the pictures go with them

    def wait(self) -> bool:
        """Wait for a write ``save`` started; whether the file was written."""
        if self._writing is not None:
            self._writing.join()
        return self.written


def kept(name: str, shared: bool = False, kind: type = pygame.Surface) -> Any:
    """The item of type ``kind`` kept under ``name`` (None if none, or if the file holds something else there: a
    file edited by hand and its check sum made anew must not crash the app): the caller must not change it (copy a
    surface to draw on); ``shared``: the caller goes on drawing from it (it is copied if the file is written
    anew)."""
    found = _KEPT.get(name)
    if found is not None and not isinstance(found, kind):
        return None
    if found is not None:
        _USED.add(name)
        if shared:
            _SHARED.add(name)
    return found


def in_use() -> bool:
    """Whether anything is kept to be found or recorded now (the app's first frames): after them, nobody need
    ask."""
    return bool(_KEPT) or _RECORDING[0]


def recording() -> bool:
    """Whether what is drawn now is recorded (the app's first frames)."""
    return _RECORDING[0]


def record(name: str, item: Any, shared: bool = False) -> None:
    """Note ``item`` as just drawn under ``name`` while recording. A surface is kept as it is: hand a copy unless
    nothing draws on it again; ``shared``: it is still drawn from (it is copied when the file is written)."""
    if _RECORDING[0] and name not in _KEPT and name not in _DRAWN and _bytes_of(item) <= PICTURE_MAX:
        _DRAWN[name] = item
        if shared:
            _SHARED.add(name)


def forget(name: str) -> None:
    """Let go of whatever is kept or recorded under ``name`` (its owner let go of it: it is not held for the
    file)."""
    _KEPT.pop(name, None)
    _DRAWN.pop(name, None)
    _USED.discard(name)
    _SHARED.discard(name)


def forget_recorded(prefix: str) -> None:
    """Let go of what was recorded this run under names starting with ``prefix`` (its owner let go of the
    originals: their copies are not held for the file, which keeps what it kept before)."""
    for name in [name for name in _DRAWN if name.startswith(prefix)]:
        forget(name)


def kept_look(look_id: str) -> Optional[pygame.Surface]:
    return kept(look_id)


def install() -> None:
    """Let pygame_gui's shape look-up find the kept looks and record the rounded looks drawn (safe to call
    again)."""
    hook_looks(finder=_kept_for_lookup, finisher=_record_if_recording)


def _kept_for_lookup(cache, lookup_id: str):
    return kept(lookup_id)


def _record_if_recording(shape, state_str: str) -> None:
    if _RECORDING[0]:
        _record(shape, state_str)


#: What pygame_gui's rounded looks pass through once ``hook_looks`` has wrapped them: the finders are asked in
#: turn for a look pygame_gui's own shape cache does not hold; the finishers see each look as it is finished,
#: before its words go on.
_FINDERS: list = []
_FINISHERS: list = []


def hook_looks(finder=None, finisher=None) -> None:
    """Add ``finder`` (``(cache, lookup_id) -> look or None``) and ``finisher`` (``(shape, state_str)``) to what
    pygame_gui's rounded looks pass through, each once however often this is called. pygame_gui's look-up, its
    finishing of a look and its resizing are wrapped here once, for every layer that keeps looks (kept on disk
    here, shared at any size in ``kit/style.keep_big_looks``): layers wrapping them in turn would wrap each
    other's wrappers again at each app start in one process. While a shape's size changes, pygame_gui draws
    stand-in looks, which the shape marks ``resizing_quickly`` (no layer keeps them)."""
    if finder is not None and finder not in _FINDERS:
        _FINDERS.append(finder)
    if finisher is not None and finisher not in _FINISHERS:
        _FINISHERS.append(finisher)
    from pygame_gui.core.drawable_shapes.rounded_rect_drawable_shape import RoundedRectangleShape
    from pygame_gui.core.surface_cache import SurfaceCache

    find = SurfaceCache.find_surface_in_cache
    if getattr(find, "_hooked", False):
        return
    finalise = RoundedRectangleShape.finalise_images_and_text
    resize = RoundedRectangleShape.set_dimensions

    def find_surface_in_cache(cache, lookup_id: str):
        found = find(cache, lookup_id)
        for finder in _FINDERS:
            if found is not None:
                break
            found = finder(cache, lookup_id)
        return found

    def finalise_images_and_text(shape, image_state_str, state_str, *args, **kwargs):
        for finisher in _FINISHERS:
            finisher(shape, state_str)
        return finalise(shape, image_state_str, state_str, *args, **kwargs)

    def set_dimensions(shape, dimensions):
        shape.resizing_quickly = True
        try:
            return resize(shape, dimensions)
        finally:
            shape.resizing_quickly = False

    find_surface_in_cache._hooked = True  # type: ignore[attr-defined]
    SurfaceCache.find_surface_in_cache = find_surface_in_cache  # type: ignore[method-assign]
    RoundedRectangleShape.finalise_images_and_text = finalise_images_and_text  # type: ignore[method-assign]
    RoundedRectangleShape.set_dimensions = set_dimensions  # type: ignore[method-assign]


def look_found_by_id(shape, state_str: str) -> bool:
    """Whether ``shape``'s look ``state_str`` as just drawn (its words not on it yet) is one pygame_gui's shape
    look-up would find by ``look_id``: not a bar, not a stand-in drawn while resizing, not resized, the shape's
    own size."""
    theming = shape.theming
    return not (shape.__dict__.get("resizing_quickly") or shape.has_been_resized or "filled_bar" in theming
                or "filled_bar_width_percentage" in theming
                or shape.states[state_str].surface.get_size() != tuple(shape.containing_rect.size))


def look_id(shape, state_str: str) -> str:
    """pygame_gui's shape-cache id of a rounded ``shape``'s look ``state_str``: everything that decides its
    pixels but the words."""
    return shape.shape_cache.build_cache_id("rounded_rectangle", shape.containing_rect.size, shape.shadow_width,
                                            shape.border_widths, shape.theming[f"{state_str}_border"],
                                            shape.theming[f"{state_str}_bg"], shape.shape_corner_radius)


def _record(shape, state_str: str) -> None:
    """Note ``shape``'s look ``state_str`` as just drawn (its words not on it yet), when it is one pygame_gui
    would look up by its id: not a bar, not a stand-in drawn while resizing, not resized."""
    look = shape.states[state_str].surface
    if not look_found_by_id(shape, state_str) or look.get_bitsize() != 32:
        return
    found_as = look_id(shape, state_str)
    if found_as not in _KEPT and found_as not in _DRAWN:
        _DRAWN[found_as] = look.copy()
