"""The tutorial's guide card on the assembly screen keeps off the rocket being built where it can: the card
stays clear of the storage it points at and the design report's words, and of everything else it goes as
high as it may, so the stages, thruster and fuel the newcomer drops onto the picture stay in sight."""

import pytest

from ui_sizes import SIZES


@pytest.mark.parametrize("size", SIZES)
def test_the_orbiter_lessons_card_leaves_the_rocket_in_sight(make_app, size):
    from game.tools.tutorial_shots import _open_assembly, _shot_tutorial, _turn_two_parts

    app = make_app(size)
    guide = _shot_tutorial(app, "orbit_assemble", _turn_two_parts, _open_assembly)
    scene = app.stack.top
    assert scene.name == "assembly" and guide.lesson.id == "orbit_assemble"
    scene.on_button("suggest")  # the orbiter the lesson asks for, as 'Start from a suggestion' lays it out
    for _ in range(5):
        app.step(1 / 30, [])
    assert scene.report_lines()[-1][0] == "Ready to roll out to the pad!"
    card = guide.card_rect()
    for rect in guide.keep_clear():  # the storage and the report's words, as before
        assert not card.colliderect(rect)
    picture = scene.picture()
    in_sight = [p for p in picture.pieces if p.role in ("lower_stage", "thruster") or p.kind == "fuel"]
    assert {p.role for p in in_sight} >= {"lower_stage", "thruster"} and any(p.kind == "fuel" for p in in_sight)
    for piece in in_sight:
        assert not card.colliderect(piece.rect), (piece.name, piece.rect, card)
    for callout in picture.callouts:
        if callout.about != "capsule":
            assert not card.colliderect(callout.rect), (callout.about, callout.rect, card)
