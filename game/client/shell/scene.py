"""A small explicit scene stack (after Tuxemon): the top scene gets input; overlays let the
scenes below them show through.

A scene builds its pygame_gui elements in ``build_ui`` inside ``self.root`` and loses them in
``clear_ui``. The stack rebuilds them when the window changes size and when a covering scene
is popped, so a scene only has to know how to lay itself out for the current ``Layout``.
"""
from __future__ import annotations

import pygame
import pygame_gui


class Scene:
    """Base scene: override ``build_ui``, ``handle_event``, ``update`` and ``draw`` as needed."""

    #: An overlay is drawn over the scene below it (which keeps drawing, but not its widgets).
    is_overlay = False
    name = "scene"
    #: Frames a second the app's loop runs at while this scene is on top: a scene whose only motion is
    #: decoration (the title's stars and rocket) asks for fewer, so the app idles there.
    frame_rate = 60

    def __init__(self, context) -> None:
        """``context`` is the app's ``AppContext`` (game.client.shell.app): manager, layout, settings, stack."""
        self.context = context
        self.root: pygame_gui.core.UIContainer | None = None

    # -- life cycle (called by the stack)
    def enter(self) -> None:
        self._make_root()
        self.build_ui()

    def exit(self) -> None:
        self.clear_ui()

    def cover(self) -> None:
        """Another scene went on top: drop our widgets so they neither draw nor take clicks."""
        self.clear_ui()

    def uncover(self) -> None:
        self._make_root()
        self.build_ui()

    def relayout(self) -> None:
        """The window size or UI scale changed: rebuild widgets for the new layout."""
        self.clear_ui()
        self._make_root()
        self.build_ui()

    def _make_root(self) -> None:
        layout = self.context.layout
        self.root = pygame_gui.core.UIContainer(pygame.Rect((0, 0), layout.size), self.context.manager,
                                                object_id=f"#{self.name}_root")

    def clear_ui(self) -> None:
        if self.root is not None:
            self.root.kill()
            self.root = None

    # -- per frame
    def build_ui(self) -> None:
        """Create this scene's pygame_gui elements inside ``self.root``."""

    def handle_event(self, event: pygame.event.Event) -> bool:
        """React to one event; return True if it was consumed."""
        return False

    def update(self, dt: float) -> None:
        """Advance animations by ``dt`` seconds."""

    def draw(self, surface: pygame.Surface) -> None:
        """Draw everything that is not a pygame_gui element (those are drawn after, on top)."""

    def draw_changes(self, surface: pygame.Surface, widgets: list[pygame.Rect]) -> bool:
        """Bring ``surface``, which holds this scene's last frame (drawn by ``draw`` or by this), up to date by
        redrawing only what changed, and under ``widgets`` (where pygame_gui draws next, and drew last
        frame), so that the result is what ``draw`` would give there. False (the default): this scene cannot,
        and the app calls ``draw``. Only the top scene, drawn alone, is asked."""
        return False

    def redraw_changes(self, surface: pygame.Surface, widgets: list[pygame.Rect]) -> list[pygame.Rect] | None:
        """Like ``draw_changes``, with pygame_gui's widgets kept on ``surface`` where they did not change:
        ``widgets`` are only the places of the widgets that changed since last frame (``shell/kept_widgets.py``
        says when one counts as changed). Redraw what changed and what lies under ``widgets``, as ``draw`` would
        give it, and return every place redrawn, no two sharing a pixel: the app then blits the widgets there
        alone. None (the default): this scene cannot, and the app asks ``draw_changes``. Only the top scene,
        drawn alone, is asked; its widgets must be ones pygame_gui never clips to their container."""
        return None


class SceneStack:
    """push / pop / replace, with enter/exit and cover/uncover calls in the right order."""

    def __init__(self) -> None:
        self._scenes: list[Scene] = []

    def __len__(self) -> int:
        return len(self._scenes)

    def __iter__(self):
        return iter(list(self._scenes))

    @property
    def top(self) -> Scene | None:
        return self._scenes[-1] if self._scenes else None

    def push(self, scene: Scene) -> Scene:
        if self._scenes:
            self._scenes[-1].cover()
        self._scenes.append(scene)
        scene.enter()
        return scene

    def pop(self) -> Scene | None:
        if not self._scenes:
            return None
        scene = self._scenes.pop()
        scene.exit()
        if self._scenes:
            self._scenes[-1].uncover()
        return scene

    def replace(self, scene: Scene) -> Scene:
        if self._scenes:
            self._scenes.pop().exit()
        self._scenes.append(scene)
        scene.enter()
        return scene

    def clear(self) -> None:
        while self._scenes:
            scene = self._scenes.pop()
            try:
                scene.exit()
            except Exception:  # a broken scene must not stop us from getting rid of it
                pass

    def visible(self) -> list[Scene]:
        """Scenes to draw, bottom first: the top scene and everything down to the first non-overlay."""
        out: list[Scene] = []
        for scene in reversed(self._scenes):
            out.append(scene)
            if not scene.is_overlay:
                break
        return list(reversed(out))

    def relayout(self) -> None:
        if self._scenes:
            self._scenes[-1].relayout()

    def handle_event(self, event: pygame.event.Event) -> bool:
        top = self.top
        return bool(top and top.handle_event(event))

    def update(self, dt: float) -> None:
        for scene in self.visible():
            scene.update(dt)

    def draw(self, surface: pygame.Surface) -> None:
        for scene in self.visible():
            scene.draw(surface)
