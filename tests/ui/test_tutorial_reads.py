"""The tutorial's veil darkens the screen around its spotlight, but never what the lesson asks the player to
read: 'See the Luck chip at the top?' showed the chip dimmed."""

import pygame
import pytest

from ui_sizes import SIZES


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


def test_the_fail_choice_lesson_names_the_choices_as_their_buttons_read():
    """The lesson asked for 'degrade all parts' where the button reads 'Damage every part'."""
    from game.client.whatgoesup.flightpanel import CHOICE_WORDS
    from game.games.whatgoesup.tutorial_script import LESSONS

    (lesson,) = [lesson for lesson in LESSONS if lesson.id == "fail_choice"]
    for option in ("lose_rations", "degrade_all_parts"):
        assert f"'{CHOICE_WORDS[option][0]}'" in lesson.text
    assert "degrade" not in lesson.text


def test_the_flight_lessons_name_the_panels_buttons_as_they_read():
    """'press 'done for this turn'' and 'Press 'moves on'' named buttons that read 'Done' and 'Move on'."""
    from game.client.whatgoesup.flightpanel import describe_action
    from game.client.whatgoesup.shipped import shipped_engine
    from game.games.whatgoesup.rules.flight_actions import EndActivities, Move
    from game.games.whatgoesup.tutorial_script import LESSONS
    from game.tools.field_shots import build_demo_state

    engine = shipped_engine()
    state = build_demo_state(engine)
    texts = {lesson.id: lesson.text for lesson in LESSONS}
    done, _ = describe_action(engine, state, EndActivities(state.flight.active))
    move, _ = describe_action(engine, state, Move(state.flight.active))
    assert f"press '{done}' on the right" in texts["orbit_done"]
    assert f"Press '{move}' in the panel" in texts["move_on"]
