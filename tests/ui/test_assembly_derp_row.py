"""The assembly's storage row of a derp says its skills in words ('Piloting 1 · Engineering 0 · Stamina 2'), as
R&D's list heads them, where it read 'derp · skills 1/0/2' with nothing on the screen to say which number is
which; the words fit the row at every window size, even for a derp who trained this turn."""

import pytest

from ui_sizes import SIZES


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("lesson", ["assemble_hop", "orbit_assemble"])
def test_a_derps_row_names_its_skills_and_fits(make_app, size, lesson):
    from game.client.kit.style import fit_font
    from game.tools.tutorial_shots import _built, _open_assembly, _shot_tutorial, _turn_two_parts
    from game.games.whatgoesup.rules.actions import Hire, Train

    def trained(session):  # turn 1: the derp hired and training, so it stays home ('why' on its row)
        _built(session)
        session.apply(Hire("Clover"))
        session.apply(Train(session.state.derps_of(0)[0].id, "piloting", 1))

    app = make_app(size)
    _shot_tutorial(app, lesson, trained if lesson == "assemble_hop" else _turn_two_parts, _open_assembly)
    scene = app.stack.top
    assert scene.name == "assembly"
    (derp,) = scene.state.derps_of(0)
    (row,) = [r for r in scene.part_rows() if r[0] == "crew"]
    details = row[4]
    assert details.startswith(f"Piloting {derp.piloting} · Engineering {derp.engineering} · Stamina {derp.stamina}")
    assert "/" not in details
    layout = scene.context.layout
    image = scene.row_images[derp.id][1]
    room = image.rect.w - layout.px(34) - layout.px(6)
    font = fit_font(details, room, layout.px(14), min_size=layout.px(10))
    assert font.size(details)[0] <= room, (details, font.size(details), room)
