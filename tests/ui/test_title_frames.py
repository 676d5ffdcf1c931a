"""The title's backdrop redrawn by its changes: the rects it copies back cover all that moved."""
import pygame
import pytest


@pytest.mark.parametrize("size", [(1280, 720), (3840, 2160)])
def test_the_backdrop_redrawn_by_its_changes_equals_it_drawn_whole_through_a_whole_hop(size):
    """Frame after frame, ten a second, through the rocket's whole hop (up with its smoke, and back down): the
    sky copied back under ``moving_rects`` (with last frame's rocket) and ``draw_moving`` give the very pixels
    of a whole ``draw``."""
    from game.client.kit.backdrop import ROCKET_PERIOD, Backdrop

    pygame.display.init()
    pygame.display.set_mode((64, 64))
    kept, whole = pygame.Surface(size), pygame.Surface(size)
    backdrop = Backdrop()
    backdrop.draw(kept)
    moved = [backdrop.rocket_rect(size)]
    frames = round(ROCKET_PERIOD * 10) + 2 if size[0] < 2000 else 16  # 4K: the steepest part, with its trail
    start = 0.0 if size[0] < 2000 else 1.0
    for frame in range(1, frames):
        backdrop.time = start + frame / 10
        dirty = backdrop.moving_rects(size, also=moved)
        backdrop.restore(kept, dirty)
        backdrop.draw_moving(kept)
        moved = [backdrop.rocket_rect(size)]
        backdrop.draw(whole)
        assert pygame.image.tobytes(kept, "RGB") == pygame.image.tobytes(whole, "RGB"), frame
