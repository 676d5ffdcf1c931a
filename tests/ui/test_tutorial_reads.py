"""The tutorial's veil darkens the screen around its spotlight, but never what the lesson asks the player to
read: 'See the Luck chip at the top?' showed the chip dimmed."""
import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame  # noqa: E402
import pytest  # noqa: E402

SIZES = [(1280, 720), (1920, 1080), (3840, 2160)]


@pytest.mark.parametrize("size", SIZES)
def test_the_luck_lessons_chips_are_shown_undimmed_beside_the_spotlight(make_app, size):
    from game.tools.tutorial_shots import shot_key_lesson

    app = make_app(size)
    guide = shot_key_lesson(app, "luck_hop")
    assert guide.lesson.id == "luck_hop" and "Luck chip" in guide._texts()[0]
    (chips,) = guide.read_rects()
    target = guide.target_rect()
    assert target is not None and not chips.colliderect(target)  # the spotlight is on the Build tab
    spots = [(x, chips.centery) for x in range(chips.left + 4, chips.right - 4, max(1, chips.w // 40))]
    veiled = [tuple(app.surface.get_at(p)) for p in spots]
    guide.finished = True  # the same screen without the guide
    app.step(0.0, [])
    clear = [tuple(app.surface.get_at(p)) for p in spots]
    assert veiled == clear
    assert pygame.Rect((0, 0), size).contains(chips)
