"""Dice animation: lands exactly on the decided faces and shows the given odds."""
import os
from fractions import Fraction

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame  # noqa: E402
import pytest  # noqa: E402
from hypothesis import given, settings as hsettings, strategies as st  # noqa: E402

from game.client.scenes.dice import DiceAnimation, DiceRoll, percent_text  # noqa: E402

D20 = DiceRoll(1, 20, 0, (14,), 10, 15, Fraction(9, 20), Fraction(5, 20), Fraction(6, 20))
BELL = DiceRoll(4, 6, -4, (4, 6, 3, 5), 9, 16, Fraction(145, 432), Fraction(791, 1296), Fraction(35, 648))


def test_odds_text_is_exact():
    assert D20.odds_text() == "OK 45%  Fail 25%  Boom 30%"
    assert BELL.odds_text() == "OK 33.6%  Fail 61.0%  Boom 5.4%"
    assert percent_text(Fraction(1, 1296)) == "<0.1%"
    assert percent_text(Fraction(1295, 1296)) == ">99.9%"


def test_bands_and_outcome():
    assert D20.band_ranges() == [("ok", 1, 9), ("fail", 10, 14), ("boom", 15, 20)]
    assert (D20.total, D20.outcome) == (14, "fail")
    assert (BELL.total, BELL.outcome, BELL.sum_text()) == (14, "fail", "4 + 6 + 3 + 5 − 4 = 14")
    assert BELL.scheme_text() == "4D6−4"


@pytest.mark.parametrize("bad", [
    dict(faces=(14, 2)), dict(faces=(21,)), dict(fail_safety=15, boom_safety=15),
    dict(odds_ok=Fraction(1, 2)),
])
def test_bad_rolls_are_refused(bad):
    fields = dict(dice=1, sides=20, offset=0, faces=(14,), fail_safety=10, boom_safety=15,
                  odds_ok=Fraction(9, 20), odds_fail=Fraction(5, 20), odds_boom=Fraction(6, 20))
    fields.update(bad)
    with pytest.raises(ValueError):
        DiceRoll(**fields)


@hsettings(max_examples=60, deadline=None)
@given(st.data())
def test_animation_always_lands_on_the_decided_faces(data):
    dice = data.draw(st.integers(1, 6))
    sides = data.draw(st.sampled_from([4, 6, 8, 10, 12, 20]))
    faces = tuple(data.draw(st.lists(st.integers(1, sides), min_size=dice, max_size=dice)))
    factor = data.draw(st.sampled_from([1.0, 0.4, 0.0]))
    roll = DiceRoll(dice, sides, 0, faces, 2, 3, Fraction(1, 3), Fraction(1, 3), Fraction(1, 3))
    anim = DiceAnimation(roll, factor)
    steps = data.draw(st.lists(st.floats(0.001, 0.2), min_size=1, max_size=40))
    for dt in steps:
        anim.update(dt)
        assert all(1 <= anim.face(i) <= sides for i in range(dice))
    anim.update(10.0)
    assert anim.done
    assert tuple(anim.face(i) for i in range(dice)) == faces
    assert all(anim.spin(i) == 0 and anim.hop(i) == 0 for i in range(dice))


def test_skip_speed_is_immediate():
    anim = DiceAnimation(BELL, 0.0)
    assert anim.done and tuple(anim.face(i) for i in range(4)) == BELL.faces


def test_dice_scene_plays_then_reports(make_app):
    app = make_app()
    app.start("title")
    done = []
    scene = app.context.open("dice", roll=D20, caption="Orbital Insertion burn", on_done=lambda: done.append(1))
    assert not scene.animation.done and not scene.continue_button.is_enabled
    for _ in range(200):
        app.step(1 / 60, [])
        if scene.animation.done:
            break
    assert scene.animation.done and scene.animation.face(0) == 14
    app.step(1 / 60, [])
    assert scene.continue_button.is_enabled
    app.step(0.0, [pygame.event.Event(pygame.KEYDOWN, {"key": pygame.K_SPACE, "unicode": " ", "mod": 0})])
    assert done == [1] and app.stack.top.name == "title"


def test_space_skips_then_continues(make_app):
    app = make_app()
    app.start("title")
    done = []
    scene = app.context.open("dice", roll=BELL, on_done=lambda: done.append(1))
    space = pygame.event.Event(pygame.KEYDOWN, {"key": pygame.K_SPACE, "unicode": " ", "mod": 0})
    app.step(0.0, [space])
    assert scene.animation.done and done == []
    app.step(0.0, [space])
    assert done == [1]


def test_dice_odds_come_from_the_rules_engine():
    """The odds the UI shows for a scheme equal the engine's exact ones (one formula, one place)."""
    from game.games.whatgoesup.rules.dice import DiceScheme
    from game.games.whatgoesup.rules.reliability import Outcome, Rating, outcome_odds

    odds = outcome_odds(DiceScheme("x", "x", dice=4, sides=6, offset=-4).distribution(), Rating(9, 16))
    assert (odds[Outcome.OK], odds[Outcome.FAIL], odds[Outcome.BOOM]) == BELL.odds()


def test_clatter_sound_builds_or_stays_silent():
    from game.client.shell.sound import Sounds, clatter_samples

    samples = clatter_samples(22050, 2)
    assert len(samples) == 2 * int(22050 * 0.42) and max(abs(s) for s in samples) > 1000
    Sounds(0.5).play_clatter()  # never raises, with or without a mixer
