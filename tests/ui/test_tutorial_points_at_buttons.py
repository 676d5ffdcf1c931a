"""The Field's lessons that ask for one button point at that very button: 'Press Launch', 'press Done', 'Press
Move on' lit the whole panel before (its header, its route planner and every other button); now the spotlight
is the button's own rect, at every window size, and the card keeps off it and the panel around it."""

import pytest

pygame = pytest.importorskip("pygame")

from ui_sizes import SIZES


def _moments():
    from game.games.whatgoesup import tutorial_script as ts

    return {
        "launch": (lambda s: s.state.turn == 1 and s.state.phase == "flight", "Launch", "Launch"),
        "orbit_done": (lambda s: s.state.turn == 2 and ts._settled_in_orbit(s) and not s.waiting_for_dice
                       and ts._pending(s)[0] is None, "EndActivities", "Done"),
        "move_on": (lambda s: s.state.turn == 3 and s.state.phase == "flight", "Move", "Move on"),
    }


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("lesson", ["launch", "orbit_done", "move_on"])
def test_the_spotlight_is_the_button_the_lesson_names(make_app, size, lesson):
    from game.tools.tutorial_shots import _shot_tutorial, _until

    done, kind, words = _moments()[lesson]
    app = make_app(size)
    guide = _shot_tutorial(app, lesson, _until(done), None)
    scene = app.stack.top
    assert scene.name == "field" and guide.lesson.id == lesson
    (button,) = [b for b, a in scene.flight_panel.buttons.items() if type(a).__name__ == kind]
    assert button.visible and button.text.startswith(words)
    assert f"{words}" in guide._texts()[0]
    assert guide.target_rect() == button.rect
    card = guide.card_rect()
    assert not any(card.colliderect(rect) for rect in guide.keep_clear())
    assert not card.colliderect(scene.panel_rect())  # the panel around the button stays readable
    assert pygame.Rect((0, 0), size).contains(card)
