"""pygame_gui's widgets kept on screen between frames, for a scene that redraws only what changed.

pygame_gui draws every visible widget over the scene every frame (``UIManager.draw_ui``: one ``blits`` of its
sprite group's ``visible`` list). Where neither the scene under a widget nor the widget changed, the pixels that
draw gives are the ones already on screen. So a frame may copy back and redraw only the scene's changed places
and the places of the widgets that changed, and then blit the widgets through those places alone: each pixel
there gets the same blends, in the same order, as in a whole frame, and every other pixel is last frame's.

A widget counts as unchanged while its image is the very same surface, at the same place, with the same blend:
pygame_gui gives a widget a new image whenever its look changes (``UIElement._set_image`` copies; a hover, a
press, a fading transition, new words, a state drawn late all come that way). The one look pygame_gui changes in
place is an image clipped by its container (``_set_image_clip``), which only happens with a new clip, i.e. a
widget that moved against its container; a scene whose widgets might do that keeps ``Scene.redraw_changes``'s
default (None), and is drawn as before.
"""
from __future__ import annotations

from typing import Optional, Sequence

import pygame

#: One widget as pygame_gui draws it: (its image, where it lands on screen, the blend flags).
WidgetBlit = tuple[pygame.Surface, pygame.Rect, int]


def widget_blits(visible: Sequence) -> Optional[list[WidgetBlit]]:
    """pygame_gui's ``visible`` blit list (``[image, rect, area, blend]`` items) as ``WidgetBlit``s, in its
    drawing order, leaving out the items that draw nothing (an empty source area: the glossary's hover spots);
    None when an item is one these helpers do not redraw in parts (any other source area, a place given
    otherwise than as a whole-pixel ``pygame.Rect``), so that the caller draws the widgets whole."""
    blits = []
    for image, place, area, flags in visible:
        if area is not None:
            area = pygame.Rect(area)
            if area.w and area.h:
                return None
            continue
        if type(place) is not pygame.Rect:
            return None
        blits.append((image, image.get_rect(topleft=place.topleft), flags))
    return blits


def changed_widget_rects(before: list[WidgetBlit], now: list[WidgetBlit]) -> list[pygame.Rect]:
    """The screen places of the widgets drawn in one frame and not the same way in the other (both places of
    one that moved; a new image; one come or gone); every widget's place when their drawing order changed."""
    if len(before) == len(now) and all(a[0] is b[0] and a[1] == b[1] and a[2] == b[2]
                                       for a, b in zip(before, now)):
        return []  # the idle frame's answer, found without building keys
    old = {(id(image), tuple(rect), flags) for image, rect, flags in before}
    new = {(id(image), tuple(rect), flags) for image, rect, flags in now}
    kept_before = [key for key in ((id(i), tuple(r), f) for i, r, f in before) if key in new]
    kept_now = [key for key in ((id(i), tuple(r), f) for i, r, f in now) if key in old]
    # ids are safe to compare: ``before`` holds its images alive, so no image of ``now`` can reuse one's id
    if kept_before != kept_now:
        return [rect.copy() for _, rect, _ in (*before, *now)]
    return [pygame.Rect(key[1]) for key in old ^ new]


def draw_widgets_within(surface: pygame.Surface, blits: list[WidgetBlit], places: list[pygame.Rect]) -> None:
    """Blit ``blits`` onto ``surface`` in their order, each only where it meets ``places``: the same pixels
    there as pygame_gui's whole ``draw_ui``, for blending is pixel by pixel."""
    parts = []
    for image, rect, flags in blits:
        for i in rect.collidelistall(places):
            part = places[i].clip(rect)
            parts.append((image, part, part.move(-rect.x, -rect.y), flags))
    if parts:
        surface.blits(parts, doreturn=False)
