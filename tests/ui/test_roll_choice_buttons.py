"""A roll card's choices share its row among themselves: one skill and Accept take half the width each, so
the skill's button says 'Piloting' whole (it read 'Clover: Pil. to 1 (OK)' in the training's skill lesson,
three columns kept for two buttons); the buttons stay inside the card and apart."""
import itertools
import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pytest  # noqa: E402

SIZES = [(1280, 720), (1920, 1080), (3840, 2160)]


@pytest.mark.parametrize("size", SIZES)
def test_the_skill_lessons_buttons_say_the_skill_whole_inside_the_card(make_app, size):
    from game.tools.tutorial_shots import shot_key_lesson

    app = make_app(size)
    shot_key_lesson(app, "skill")
    field = app.stack.top
    panel = field.roll_panel
    card = panel.card_rect(field.session.state)
    labels = sorted(b.text for b in panel.buttons)
    assert len(labels) == 2 and "Accept" in labels
    skill = next(t for t in labels if t != "Accept")
    assert "Piloting" in skill and "Pil." not in skill and skill.endswith("(OK)"), skill
    rects = [b.rect for b in panel.buttons]
    assert all(card.contains(r) for r in rects)
    assert not any(a.colliderect(b) for a, b in itertools.combinations(rects, 2))
    for button in panel.buttons:  # the words fit their button
        assert button.font.size(button.text)[0] <= button.rect.w - 4, button.text
