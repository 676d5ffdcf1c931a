"""The Field's story strip (under the board) tells the last thing that happened whole: a line too long for one
line of the strip goes on two or three, inside the strip, rather than losing its end to an ellipsis."""

import pytest

from ui_sizes import SIZES


def _assert_inside_the_strip(app, scene, lines, font):
    layout = scene.context.layout
    strip = scene.story_rect()
    assert 1 <= len(lines) <= 3
    assert all(font.size(line)[0] <= strip.w - layout.px(32) for line in lines), lines
    assert len(lines) * font.get_linesize() <= strip.h
    assert font.get_height() >= layout.px(13) - 1  # never smaller than the one-line strip's smallest words
    assert not scene.board_rect.colliderect(strip)  # the board ends where the strip begins
    assert app.surface.get_rect().contains(strip)


@pytest.mark.parametrize("size", SIZES)
def test_a_hostile_docking_and_its_answer_are_told_whole_on_two_lines(make_app, size):
    """Real play: Otter-1 docks with Frog-1 against its will (war_shots' boarding), and the strip tells the roll,
    the latching on and Frog-1's two answers; the old strip cut it at 'or l…' at every size."""
    from game.tools.war_shots import shot_war_boarding

    app = make_app(size)
    shot_war_boarding(app)
    scene = app.stack.top
    told = scene.story[-1]
    assert "push it off with an RCS burn" in told and told.endswith("let the docking stand.")
    lines, font = scene.story_lines()
    assert len(lines) == 2
    assert " ".join(lines) == told
    _assert_inside_the_strip(app, scene, lines, font)


@pytest.mark.parametrize("size", SIZES)
def test_a_short_line_stays_one_line_and_a_flood_of_words_ends_in_an_ellipsis_inside_the_strip(make_app, size):
    from game.tools.war_shots import shot_war_boarding

    app = make_app(size)
    shot_war_boarding(app)
    scene = app.stack.top
    scene.story = ["Otter-1 burns 2 fuel: Polar plane change."]
    lines, font = scene.story_lines()
    assert lines == ["Otter-1 burns 2 fuel: Polar plane change."]
    assert font.get_height() >= scene.context.layout.px(17) - 1
    scene.story = [" ".join(["Frog-1 may push it off with an RCS burn, or let the docking stand."] * 12)]
    lines, font = scene.story_lines()
    assert len(lines) == 3 and lines[2].endswith("…")
    _assert_inside_the_strip(app, scene, lines, font)
    app.step(1 / 30, [])  # and it draws


@pytest.mark.parametrize("size", SIZES)
def test_a_ship_fights_opening_is_told_whole(make_app, size):
    """Real play: Otter opens fire on Frog (ship_fight_shots' weapons): the secret war it starts, both craft and
    who acts first; two lines cut it at '(a tie goes to the craft th…' at 1280x720 and '(…' at 1920x1080."""
    from game.tools.ship_fight_shots import shot_ship_fight_weapons

    app = make_app(size)
    shot_ship_fight_weapons(app)
    scene = app.stack.top
    told = scene.story[-1]
    assert "a secret war between" in told and told.endswith("opened fire: Otter acts first.")
    lines, font = scene.story_lines()
    assert " ".join(lines) == told and not any(line.endswith("…") for line in lines)
    _assert_inside_the_strip(app, scene, lines, font)
