"""The tutorial's guide card keeps off the header bar (the title, the turn, the goal's status) where it can:
over the end-of-turn report that welcomes the derp home it sat on "Turn 4 of 8" at 1280x720."""

import pytest

from ui_sizes import SIZES


@pytest.mark.parametrize("size", SIZES)
def test_the_home_reports_card_leaves_the_header_and_the_report_in_sight(make_app, size):
    from game.client.kit.style import HEADER_H
    from game.tools.tutorial_shots import _at_turn, _shot_tutorial, _until

    app = make_app(size)
    guide = _shot_tutorial(app, "report_home", _until(_at_turn(4)), None)
    assert guide.top_name() == "turn_report" and guide.lesson.id == "report_home" and guide.visible()
    layout = app.context.layout
    card = guide.card_rect()
    header = app.surface.get_rect()
    header.h = layout.px(HEADER_H)
    assert not card.colliderect(header), (card, header)
    for rect in guide.keep_clear():  # the report's first section, which the lesson asks the player to read
        assert not card.colliderect(rect)
    for rect in guide.keep_clear_if_room():  # and the rest of the report: its flights, firsts and losses
        assert not card.colliderect(rect), (card, rect)
    assert app.surface.get_rect().contains(card)
