"""The tutorial teaches the mass rule where a newcomer meets it: the orbiter's lessons add up what the stage must
lift (capsule, thruster, derp, fuel, a container of rations) to the very number the design report then shows,
and doing exactly what the assembly card says (one press of + for Fuel and one for Rations) makes an orbiter
that can roll out. Before, the lesson said 'the craft weighs about 7' and '1 fuel and 1 rations with the
steppers', while one press of Rations loads a container of 2 and the report shows 'Spacecraft mass 7'."""

import pytest

pygame = pytest.importorskip("pygame")

from ui_sizes import SIZES


def _click(app, button, settle=2):
    """Press ``button`` as pygame_gui reports a click (other tests move the real mouse, which pygame_gui's
    hovering reads, so a click made of mouse events depends on the tests run before)."""
    import pygame_gui

    assert button.visible and button.is_enabled, getattr(button, "text", button)
    app.step(1 / 30, [pygame.event.Event(pygame_gui.UI_BUTTON_PRESSED, {"ui_element": button, "ui_object_id": ""})])
    for _ in range(settle):
        app.step(1 / 30, [])


@pytest.mark.parametrize("size", SIZES)
def test_doing_what_the_orbiter_card_says_gives_the_mass_it_quotes(make_app, size):
    from game.tools.tutorial_shots import _open_assembly, _shot_tutorial, _turn_two_parts

    app = make_app(size)
    guide = _shot_tutorial(app, "orbit_assemble", _turn_two_parts, _open_assembly)
    scene = app.stack.top
    assert scene.name == "assembly" and guide.lesson.id == "orbit_assemble"
    state = scene.state
    roles = {"stage": "lower_stage", "aboard": ("capsule", "thruster")}
    for key in [k for k in scene.buttons if k.startswith("pick:")]:
        choice, _, some_id = key.partition(":")[2].partition(":")
        if choice == "crew":
            _click(app, scene.buttons[key])
            continue
        thing = state.thing(state.item(some_id).thing_id)
        role = scene.engine.rules.components.kind(thing.kind).role
        if (choice == "stage" and role == "lower_stage" and thing.base_mass == 7) or \
                (choice == "aboard" and role in roles["aboard"]):
            _click(app, scene.buttons[key])
    _click(app, scene.buttons["step:fuel:1"])  # "press + once for Fuel and once for Rations"
    _click(app, scene.buttons["step:rations:1"])
    report = scene.report()
    assert report.problems == () and scene.buttons["rollout"].is_enabled, scene.report_lines()
    mass = report.stages[0].carries
    assert mass == report.spacecraft_mass == report.stages[0].lift
    card_text = guide._texts()[0]
    assert f"The report adds up the spacecraft: mass {mass}, all the stage lifts." in card_text
    assert any(text.startswith(f"Spacecraft mass {mass} ") for text, _, _ in scene.report_lines())
    assert "press + once for Fuel and once for Rations" in card_text
    card = guide.card_rect()
    for rect in guide.keep_clear():  # the storage pointed at and the report's words stay in sight
        assert not card.colliderect(rect)


def test_the_orbit_parts_lesson_adds_up_the_stage_the_report_then_asks_for():
    """The sum in the lesson is the design report's: each term and the total."""
    from pathlib import Path
    import tempfile

    from game.client.whatgoesup.shipped import shipped_engine
    from game.core.session import GameSession
    from game.games.whatgoesup.rules.state import UpgoerDesign
    from game.games.whatgoesup.tutorial_script import LESSONS, lesson_text, tutorial_setup
    from game.tools.tutorial_shots import _free_items, _turn_two_parts

    engine = shipped_engine()
    with tempfile.TemporaryDirectory() as saves:
        session = GameSession.new(engine, tutorial_setup(), 1, saves_dir=Path(saves))
        _turn_two_parts(session)
        items = _free_items(session)
        derp = session.state.derps_of(0)[0]
        container = engine.rules.components.rations_derp_turns_per_container
        design = UpgoerDesign("Orbiter", stages=((items["Big Hopper"][0],),),
                              modules=(items["Burrow Pod"][0], items["Puffer"][0]), crew=(derp.id,), fuel=1,
                              rations=container)
        report = engine.check_design(session.state, 0, design)
    assert report.problems == ()
    text = lesson_text(next(lesson for lesson in LESSONS if lesson.id == "orbit_parts"), engine.rules)
    derp_mass = engine.rules.economy.derps.mass
    rations = report.spacecraft_mass - 3 - 1 - derp_mass - 1
    assert f"capsule 3 + thruster 1 + derp {derp_mass} + fuel 1 + a container of rations {rations} = " \
           f"{report.stages[0].carries}." in text
    assert f"invent a Lower stage of Mass {report.stages[0].carries} and a Thruster of Mass 1" in text
    assert "about" not in text


@pytest.mark.parametrize("size", [(1280, 720), (3840, 2160)])
def test_the_home_report_lesson_names_the_line_that_cost_dots(make_app, size):
    """The report at home says '-2 Space Party lost'; the card says what that is, by the report's own words."""
    from game.tools.tutorial_shots import shot_key_lesson

    app = make_app(size)
    guide = shot_key_lesson(app, "report_home")
    scene = app.stack.top
    assert scene.name == "turn_report"
    losses = [reason for reason, dots in scene.reports[0].changes if dots < 0]
    assert losses, scene.reports[0].changes
    card_text = guide._texts()[0]
    for reason in losses:
        assert f"'{reason}'" in card_text
    card = guide.card_rect()
    for rect in guide.keep_clear():
        assert not card.colliderect(rect)


@pytest.mark.parametrize("size", SIZES)
def test_the_research_lesson_reads_a_rating_as_the_engine_judges_it(make_app, size):
    """'1/5' was never explained as a pair of safeties: the lesson now says which rolls work, Fail and go Boom,
    and that is the engine's judgement of every D20 value; the card keeps off the Research form it points at."""
    from game.games.whatgoesup.rules.reliability import Outcome, judge
    from game.tools.tutorial_shots import shot_key_lesson

    app = make_app(size)
    guide = shot_key_lesson(app, "research")
    text = guide._texts()[0]
    assert ("A rating is two safeties, Fail/Boom: roll below the first and the part works (OK), at or above the "
            "second it goes Boom, in between it Fails.") in text
    start = guide.session.engine.rules.economy.research.new_thing_rating
    assert f"New things start at {start}: on a D20 nothing works yet." in text
    said = {v: Outcome.OK if v < start.fail else Outcome.BOOM if v >= start.boom else Outcome.FAIL
            for v in range(1, 21)}
    assert said == {v: judge(v, start) for v in range(1, 21)}
    assert Outcome.OK not in said.values()  # 'nothing works yet'
    card = guide.card_rect()
    assert guide.keep_clear() and not any(card.colliderect(rect) for rect in guide.keep_clear())
    assert pygame.Rect((0, 0), size).contains(card)


@pytest.mark.parametrize("size", SIZES)
def test_the_drag_lesson_names_the_burn_button_as_the_panel_reads_it(make_app, size):
    """The drag lesson spoke only of the lit Reentry step while the panel's button reads 'Burn: Deorbit burn
    (1 fuel)': the lesson names that button too, and its card keeps off the marker and the step."""
    from game.client.whatgoesup.flightpanel import describe_action
    from game.tools.tutorial_shots import shot_key_lesson

    app = make_app(size)
    guide = shot_key_lesson(app, "drag")
    session = guide.session
    (burn,) = [a for a in session.legal_actions() if type(a).__name__ == "Burn" and a.to == "reentry"]
    words, _ = describe_action(session.engine, session.state, burn)
    named = guide._texts()[0].split("(or press '")[1].split("'")[0]
    assert words.startswith(named + " (") and named.startswith("Burn: ")
    card = guide.card_rect()
    assert len(guide.keep_clear()) == 2 and not any(card.colliderect(rect) for rect in guide.keep_clear())


@pytest.mark.parametrize("size", SIZES)
def test_the_fail_choice_lesson_says_which_of_the_cards_buttons_to_press(make_app, size):
    """The night's Fail comes with two buttons, the derp's Piloting (just taught) and Accept; the lesson said
    'Accept the roll' only, so a newcomer who had just learned to spend Stamina pressed the other and never saw
    the choice. It names Accept as the card's button reads and says to keep the Stamina."""
    from game.tools.tutorial_shots import shot_key_lesson

    app = make_app(size)
    guide = shot_key_lesson(app, "fail_choice")
    scene = app.stack.top
    labels = [b.text for b in scene.roll_panel.buttons if b.visible]
    assert "Accept" in labels and any("Piloting" in label for label in labels), labels
    text = guide._texts()[0]
    assert "Keep your derp's Stamina for later: press Accept, then choose" in text
    card = guide.card_rect()
    assert not any(card.colliderect(rect) for rect in guide.keep_clear())
