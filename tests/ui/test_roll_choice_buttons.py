"""A roll card's choices share its row among themselves: one skill and Accept take half the width each, so
the skill's button says 'Piloting' whole (it read 'Clover: Pil. to 1 (OK)' in the training's skill lesson,
three columns kept for two buttons); the buttons stay inside the card and apart."""
import itertools

import pytest

from ui_sizes import SIZES


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


@pytest.mark.parametrize("shot", ["field_roll_boom_help", "field_roll_moved"])
@pytest.mark.parametrize("size", SIZES)
def test_three_and_more_choices_name_their_skill_whole(make_app, size, shot):
    """A Boom with two derps' Engineering, luck and Accept (and, moved to a Fail, two Pilotings and an RCS puff
    too): the buttons read 'Pip: Engineering 17 to 15 (Fail)', where three columns made it 'Pip: Eng. to 15'
    at 1280x720; the rows the choices need fit the card, under the prompt, and every label fits its button."""
    from game.tools import field_shots

    app = make_app(size)
    getattr(field_shots, f"shot_{shot}")(app)
    field = app.stack.top
    panel = field.roll_panel
    card = panel.card_rect(field.session.state)
    buttons = list(panel.buttons)
    assert len(buttons) >= 4
    skills = [b.text for b in buttons if b.text.split(": ")[0] not in ("Luck", "Accept") and b.text != "Accept"]
    assert len(skills) >= 2
    for text in skills:
        assert ("Engineering" in text or "Piloting" in text) and "Eng." not in text and "Pil." not in text, text
    rects = [b.rect for b in buttons]
    assert all(card.contains(r) for r in rects)
    assert not any(a.colliderect(b) for a, b in itertools.combinations(rects, 2))
    for button in buttons:
        assert button.font.size(button.text)[0] <= button.rect.w - 4, button.text
    rows = sorted({r.top for r in rects})
    assert len(rows) == panel.help_rows
    assert abs(card.bottom - max(r.bottom for r in rects) - app.context.layout.px(18)) <= 2  # the card's margin


def test_a_fails_choices_say_what_they_cost_in_the_rules_numbers(make_app):
    """The training's capsule Fail, accepted: 'Damage every part' said 'loses 1/1 reliability', written by hand;
    now each choice's words come from the choice's own effect (flight.yaml's fail, boom and units)."""
    from game.client.whatgoesup.flightpanel import describe_action
    from game.games.whatgoesup.rules.flight_actions import AcceptRoll, ChooseConsequence
    from game.tools.tutorial_shots import shot_key_lesson

    app = make_app()
    shot_key_lesson(app, "fail_choice")
    session = app.stack.top.session
    session.apply(AcceptRoll())
    effect = session.state.flight.choice.effect
    words = {a.option: describe_action(session.engine, session.state, a)
             for a in session.legal_actions() if isinstance(a, ChooseConsequence)}
    assert {"lose_rations", "degrade_all_parts"} <= set(words)  # (no payload aboard to lose)
    assert words["degrade_all_parts"] == ("Damage every part", f"Every part aboard loses {effect.fail} from its Fail "
                                          f"safety and {effect.boom} from its Boom safety for the rest of this flight.")
    assert words["lose_rations"][1] == f"Every derp aboard loses {effect.units} derp-turn of rations." \
        if effect.units == 1 else f"Every derp aboard loses {effect.units} derp-turns of rations."
    assert not any("/" in why for _label, why in words.values())
