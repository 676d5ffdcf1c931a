"""Screens whose drawing changes only with the game and their widgets keep a still picture of themselves: What Goes
Up's panel screens (R&D, assembly, trading, the turn report) and the shared story log.

``StillScene`` goes before ``GameScene`` in such a scene's bases: its ``draw`` and ``draw_changes`` show the
scene through a ``kit.still.StillFrame`` painted with the scene's own ``draw_background``, ``draw_content`` and
``draw_toast`` whenever ``frame_key`` changes. The key always holds the game state, the widgets as laid out,
the window's layout and the message shown; a scene adds what else its picture depends on in ``still_key``.
The picture is dropped when the scene is covered or left (one full-screen picture at a time).
"""
from __future__ import annotations

import pygame

from game.client.kit.still import Same, StillFrame


class StillScene:
    """Mix into a ``GameScene`` subclass (listed first) whose drawing changes only with ``frame_key``."""

    def still_key(self) -> tuple:
        """What this scene's picture depends on beyond the state, the widgets, the layout and the toast."""
        return ()

    @property
    def still(self) -> StillFrame:
        frame = self.__dict__.get("_still_frame")
        if frame is None:
            frame = self.__dict__["_still_frame"] = StillFrame()
        return frame

    def frame_key(self) -> tuple:
        toast = (self.toast_text, self.toast_kind) if self.toast_time > 0 else None
        return (Same(self.flow.session.state), Same(self.root), self.context.layout, toast, self.still_key())

    def _paint_content(self, layer: pygame.Surface) -> None:
        self.draw_content(layer)
        self.draw_toast(layer)

    def draw(self, surface: pygame.Surface) -> None:
        """The still picture, painted again only when ``frame_key`` changes; the stars around it twinkle."""
        self.still.draw(surface, self.frame_key(), self.draw_background, self._paint_content, self.backdrop)

    def draw_changes(self, surface: pygame.Surface, widgets: list[pygame.Rect]) -> bool:
        """Last frame still stands unless ``frame_key`` changed: the picture goes back under the widgets and
        the stars twinkle."""
        return self.still.draw_changes(surface, self.frame_key(), widgets, self.backdrop)

    def cover(self) -> None:
        self.still.forget()  # under another screen: the picture's memory comes back
        super().cover()

    def exit(self) -> None:
        self.still.forget()
        super().exit()
