"""Screenshots of the guided first mission and the rules reference (registered in ``shots.py``)."""
from __future__ import annotations

from game.client.whatgoesup.tutorial import TutorialGuide, open_tutorial
from game.core import saves
from game.games.whatgoesup.tutorial_script import lesson_index


# ------------------------------------------------------------------ screenshots (shots.SHOTS)
def _shot_tutorial(app, lesson: str, actions=()) -> TutorialGuide:
    """The tutorial at ``lesson`` after ``actions`` (functions of the session), its files in the shot's home."""
    import os

    old = os.environ.get(saves.HOME_ENV)
    os.environ[saves.HOME_ENV] = str(app.home / "saves")
    try:
        app.start("title")
        guide = open_tutorial(app.context, restart=True)
        for act in actions:
            act(guide.session)
        guide.flow.show()
        guide.index = lesson_index(lesson)
        for _ in range(12):
            app.step(1 / 30, [])
        guide.time = 0.4  # the outline mid-pulse
        app.step(0.0, [])
        return guide
    finally:
        if old is None:
            os.environ.pop(saves.HOME_ENV, None)
        else:
            os.environ[saves.HOME_ENV] = old


def _turn_one(session, through: str = "rnd") -> None:
    from game.games.whatgoesup.rules.actions import Assemble, Build, EndRnD, Hire, Invent, Research
    from game.games.whatgoesup.rules.state import UpgoerDesign

    session.apply(Invent("lower_stage", 4, "Hopper"))
    session.apply(Invent("capsule", 3, "Burrow Pod"))
    if through == "research":
        return
    ids = {t.name: t.id for t in session.state.things}
    for action in (Research(ids["Hopper"], "fail", 1), Research(ids["Burrow Pod"], "fail", 2), Build(ids["Hopper"]),
                   Build(ids["Burrow Pod"]), Hire("Clover")):
        session.apply(action)
    items = {session.state.thing(i.thing_id).name: i.id for i in session.state.items_of(0)}
    session.apply(Assemble(UpgoerDesign("Carrot 1", stages=((items["Hopper"],),), modules=(items["Burrow Pod"],))))
    session.apply(EndRnD())
    launch = next(a for a in session.legal_actions() if type(a).__name__ == "Launch")
    session.apply(launch)


def shot_tutorial_welcome(app) -> None:
    _shot_tutorial(app, "welcome")


def shot_tutorial_research(app) -> None:
    guide = _shot_tutorial(app, "research", [lambda s: _turn_one(s, "research")])
    scene = guide.context.stack.top
    scene.on_button("tab:research")
    for _ in range(3):
        app.step(1 / 30, [])


def shot_tutorial_roll(app) -> None:
    _shot_tutorial(app, "roll", [_turn_one])


def shot_rules_reference(app) -> None:
    app.start("title")
    scene = app.context.open("rules_reference")
    scene.show_section("failures")
    for _ in range(3):
        app.step(1 / 30, [])


TUTORIAL_SHOTS = [
    ("tutorial_welcome", shot_tutorial_welcome),
    ("tutorial_research", shot_tutorial_research),
    ("tutorial_roll", shot_tutorial_roll),
    ("rules_reference", shot_rules_reference),
]
