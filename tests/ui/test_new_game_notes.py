"""New game: the victory's or the difficulty's explanation stays inside the right card, off its border, at
every window size (its last line sat on the border at 1280x720 and crossed it at 3840x2160)."""

import pytest

from ui_sizes import SIZES


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("mode", ["race", "stop_the_rock"])
def test_the_goal_notes_words_end_inside_the_card_clear_of_its_border(make_app, size, mode):
    from game.client.kit.widgets import status_lines

    app = make_app(size)
    app.start("title")
    scene = app.context.open("new_game")
    if mode == "stop_the_rock":
        scene.on_button("mode:stop_the_rock")
        scene = app.stack.top
    app.step(1 / 30, [])
    layout = app.layout
    inside = scene.right_card_rect().inflate(-2 * (max(2, layout.px(3)) + layout.px(4)),
                                             -2 * (max(2, layout.px(3)) + layout.px(4)))
    box = scene.note_rect()
    notes = ([scene.difficulty_explanation(scene.scenario(), level) for level in scene.scenario().difficulties]
             if mode == "stop_the_rock" else [scene.victory_explanation()])
    for words in notes:  # measured as draw_whole lays them out
        font, lines = status_lines(words, box.w, box.h, layout.px(14), layout.px(10), False)
        assert len(lines) * font.get_linesize() <= box.h, words
        assert font.get_height() >= layout.px(12), words  # still a size to read
        drawn = box.copy()
        drawn.h = len(lines) * font.get_linesize()
        assert inside.contains(drawn), (words, drawn, inside)
