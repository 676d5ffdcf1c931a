"""A scene's still picture: everything it draws that does not move, painted once per change and blitted.

A panel-heavy scene (R&D, assembly, the rules reference) draws dozens of cards, shadows and lines of text, and
almost none of it changes from one frame to the next. ``StillFrame`` keeps one full-screen picture of it (the one
full-screen layer such a scene holds) and paints it again only when the scene's *key* changes: a value the scene
builds each frame from everything its picture depends on (the game state, the form, the toast, the window size).
Over a star backdrop, the stars that show (not under a card, its shadow or a veil) still twinkle: each frame
redraws just their small spots. Stars behind something keep the look they had when the picture was painted.

``draw`` gives the whole frame; ``draw_changes`` (for ``Scene.draw_changes``) brings last frame's up to date by
copying the picture back under the widgets and redrawing the twinkling stars, and says False when the picture
must be painted again.
"""
from __future__ import annotations

from typing import Callable, Hashable, Optional

import pygame

from game.client.kit.style import disjoint_rects

Painter = Callable[[pygame.Surface], None]


class StillFrame:
    """One scene's still picture: ``draw(surface, key, background, content, backdrop)``."""

    def __init__(self) -> None:
        self._layer: Optional[pygame.Surface] = None
        self._key: Optional[Hashable] = None
        self._stars: list[int] = []  # the backdrop's stars that show round the content (star_rects numbers)
        self._star_rects: list[pygame.Rect] = []
        self._touched: list[pygame.Rect] = []  # repainted parts not yet on screen
        #: How many times the picture was painted (tests read it to check that nothing repaints every frame).
        self.paints = 0

    def forget(self) -> None:
        """Drop the picture (the scene is covered or gone): its memory comes back and the next draw paints."""
        self._layer, self._key, self._stars, self._star_rects, self._touched = None, None, [], [], []

    def touch(self, rect: pygame.Rect, painter: Painter) -> bool:
        """Paint one part of the picture again (a list scrolled): ``painter`` paints onto the picture, within
        ``rect``; the next frame shows it. False when there is no picture (the next draw paints it whole)."""
        if self._layer is None:
            return False
        painter(self._layer)
        self._touched.append(pygame.Rect(rect))
        return True

    def draw(self, surface: pygame.Surface, key: Hashable, background: Painter, content: Painter,
             backdrop=None) -> bool:
        """Blit the picture of ``background`` then ``content`` (each painting onto the surface it is given);
        ``backdrop`` (a ``kit.backdrop.Backdrop`` that ``background`` paints) keeps its uncovered stars
        twinkling. Paints the picture again first when ``key`` or the window's size changed; returns whether
        it did."""
        size = surface.get_size()
        full_key = (size, key)
        painted = self._layer is None or self._key != full_key
        if painted:
            if self._layer is None or self._layer.get_size() != size:
                self._layer = None  # the old picture goes before the new one is made (peak memory)
                self._layer = pygame.Surface(size, 0, surface)  # made in the screen's format: no converted copy
            layer = self._layer
            background(layer)
            rects = backdrop.star_rects(size) if backdrop is not None else []
            rects = [rect.clip(layer.get_rect()) for rect in rects]
            bare = [pygame.image.tobytes(layer.subsurface(rect), "RGBX") for rect in rects]
            content(layer)
            self._stars = _uncovered(layer, rects, bare)
            self._star_rects = [rects[i] for i in self._stars]
            self._key = full_key
            self.paints += 1
        self._touched = []
        surface.blit(self._layer, (0, 0))
        self._twinkle(surface, backdrop)
        return painted

    def draw_changes(self, surface: pygame.Surface, key: Hashable, widgets: list[pygame.Rect], backdrop=None) -> bool:
        """``surface`` holds last frame: when the picture still stands for ``key``, copy it back under
        ``widgets`` (pygame_gui blends its see-through widgets anew each frame) and redraw the twinkling stars;
        False when the picture must be painted again (the caller then draws the whole frame)."""
        if self._layer is None or self._key != (surface.get_size(), key):
            return False
        rects = disjoint_rects([*widgets, *self._touched])
        self._touched = []
        if 3 * sum(rect.w * rect.h for rect in rects) > surface.get_width() * surface.get_height():
            surface.blit(self._layer, (0, 0))  # widgets over a third of the screen: one whole copy costs less
        else:
            surface.blits([(self._layer, rect, rect) for rect in rects], doreturn=False)
        self._twinkle(surface, backdrop)
        return True

    def _twinkle(self, surface: pygame.Surface, backdrop) -> None:
        if self._stars:
            backdrop.restore(surface, self._star_rects)
            backdrop.draw_moving(surface, self._stars)


def _uncovered(layer: pygame.Surface, rects: list[pygame.Rect], bare: list[bytes]) -> list[int]:
    """The stars whose rects the content left as the backdrop painted them and that touch no star left alone:
    a star left alone keeps its look, so no neighbour may paint the sky back over a part of it."""
    clear = [pygame.image.tobytes(layer.subsurface(rect), "RGBX") == was for rect, was in zip(rects, bare)]
    while True:
        kept = [rect for rect, ok in zip(rects, clear) if not ok]
        again = [ok and rect.collidelist(kept) < 0 for rect, ok in zip(rects, clear)]
        if again == clear:
            return [i for i, ok in enumerate(clear) if ok]
        clear = again


class Same:
    """A part of a key that matches only the very same object (a game state, a widget container): comparing
    two states field by field would cost more than painting, and an ``id`` alone can be reused once the
    object is gone (the key keeps it alive)."""

    __slots__ = ("thing",)

    def __init__(self, thing: object) -> None:
        self.thing = thing

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Same) and other.thing is self.thing

    def __hash__(self) -> int:
        return id(self.thing)
