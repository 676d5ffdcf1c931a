"""Screenshots of the guided first mission and the rules reference (registered in ``shots.py``).

Each tutorial shot plays the training mission through the engine (the same choices the lessons ask for, with
the tutorial's loaded dice) up to the moment of one lesson, shows the scene the flow would show, and lets the
guide place its card: at 1280x720 (``TUTORIAL_SHOTS``), 1920x1080 and 3840x2160 (``TUTORIAL_SIZED_SHOTS``)."""
from __future__ import annotations

import os
from typing import Callable

from game.client.whatgoesup.tutorial import TutorialGuide, open_tutorial
from game.core import saves
from game.games.whatgoesup.rules.actions import Assemble, BuyConsumables, Build, EndRnD, Hire, Invent, Research, Train
from game.games.whatgoesup.rules.state import UpgoerDesign
from game.games.whatgoesup.tutorial_script import LESSONS, lesson_index


# ------------------------------------------------------------------ the mission, played through the engine
def _ids(session) -> dict:
    return {t.name: t.id for t in session.state.things_of(0)}


def _free_items(session) -> dict:
    """Thing name -> items of it in storage."""
    out: dict = {}
    for item in session.state.items_of(0):
        if item.location is None:
            out.setdefault(session.state.thing(item.thing_id).name, []).append(item.id)
    return out


def _turn_one_rnd(session) -> None:
    session.apply(Invent("lower_stage", 4, "Hopper"))
    session.apply(Invent("capsule", 3, "Burrow Pod"))
    ids = _ids(session)
    for action in (Research(ids["Hopper"], "fail", 1), Research(ids["Burrow Pod"], "fail", 1), Build(ids["Hopper"]),
                   Build(ids["Burrow Pod"]), Hire("Clover")):
        session.apply(action)
    session.apply(Train(session.state.derps_of(0)[0].id, "piloting", 1))
    items = _free_items(session)
    session.apply(Assemble(UpgoerDesign("Carrot 1", stages=((items["Hopper"][0],),), modules=(items["Burrow Pod"][0],))))
    session.apply(EndRnD())


def _turn_two_rnd(session) -> None:
    session.apply(Invent("lower_stage", 7, "Big Hopper"))
    session.apply(Invent("thruster", 1, "Puffer"))
    ids = _ids(session)
    for action in (Research(ids["Puffer"], "fail", 2), Research(ids["Burrow Pod"], "fail", 1), Build(ids["Big Hopper"]),
                   Build(ids["Burrow Pod"]), Build(ids["Puffer"]), BuyConsumables("fuel", 1),
                   BuyConsumables("rations", 1)):
        session.apply(action)
    items = _free_items(session)
    derp = session.state.derps_of(0)[0].id
    session.apply(Assemble(UpgoerDesign("Carrot 2", stages=((items["Big Hopper"][0],),),
                                        modules=(items["Burrow Pod"][0], items["Puffer"][0]), crew=(derp,),
                                        fuel=1, rations=2)))
    session.apply(EndRnD())


def _turn_four_rnd(session) -> None:
    """The luck lesson's hop: one more stage and capsule, assembled without crew."""
    ids = _ids(session)
    session.apply(Build(ids["Hopper"]))
    session.apply(Build(ids["Burrow Pod"]))
    items = _free_items(session)
    session.apply(Assemble(UpgoerDesign("Carrot 3", stages=((items["Hopper"][0],),), modules=(items["Burrow Pod"][0],))))
    session.apply(EndRnD())


FLIGHT_CHOICES = ("Launch", "UseSkill", "UseLuck", "KeepRoll", "AcceptRoll", "ChooseConsequence", "Move", "Burn",
                  "EndActivities")


def _flight_choice(session):
    """The lessons' choice: launch, Piloting on the insertion's Fail, degrade all parts, burn for Reentry, a
    luck point on the last hop's launch and the new roll kept."""
    state = session.state
    legal = session.legal_actions()
    roll = state.flight.roll if state.flight is not None else None

    def fits(action) -> bool:
        kind = type(action).__name__
        if kind == "UseSkill":
            return action.skill == "piloting" and roll is not None and roll.kind == "orbital_insertion"
        if kind == "ChooseConsequence":
            return action.option == "degrade_all_parts"
        if kind == "Burn":
            return action.to == "reentry"
        if kind == "UseLuck":
            return roll is not None and roll.kind == "launch"
        if kind == "KeepRoll":
            return action.new
        return kind in FLIGHT_CHOICES
    choices = [a for a in legal if fits(a)]
    if not choices:
        raise RuntimeError(f"no lesson choice among {[str(a) for a in legal]} (phase {state.phase}, turn {state.turn})")
    return min(choices, key=lambda a: FLIGHT_CHOICES.index(type(a).__name__))


def play_until(session, done: Callable[[object], bool], limit: int = 400) -> None:
    """Play the training mission as the lessons ask until ``done(session)``."""
    for _ in range(limit):
        if done(session):
            return
        state = session.state
        if session.waiting_for_dice:
            session.roll()
        elif state.phase == "rnd":
            {1: _turn_one_rnd, 2: _turn_two_rnd, 4: _turn_four_rnd}.get(state.turn, lambda s: s.apply(EndRnD()))(
                session)
        else:
            session.apply(_flight_choice(session))
    raise RuntimeError("the training mission did not get there")


def _pending(session):
    flight = session.state.flight if session.state.phase == "flight" else None
    return flight.roll if flight is not None else None


# ------------------------------------------------------------------ screenshots
def _shot_tutorial(app, lesson: str, prepare: Callable[[object], None], then=None) -> TutorialGuide:
    """The tutorial at ``lesson`` after ``prepare(session)``; ``then(scene)`` sets up the scene shown. At a
    turn's start the flow shows that turn's report first (``lesson`` over ``turn_report``) unless the lesson
    is over R&D."""
    old = os.environ.get(saves.HOME_ENV)
    os.environ[saves.HOME_ENV] = str(app.home / "saves")
    try:
        app.start("title")
        guide = open_tutorial(app.context, restart=True)
        prepare(guide.session)
        reads_report = "turn_report" in LESSONS[lesson_index(lesson)].reads
        guide.flow.reported_turn = guide.session.state.turn - (1 if reads_report else 0)
        guide.flow.show()
        guide.index = lesson_index(lesson)
        for _ in range(3):
            app.step(1 / 30, [])
        if then is not None:
            then(app.context.stack.top)
        for _ in range(20):
            app.step(1 / 30, [])
        guide.index = lesson_index(lesson)  # the shot is of this lesson, even where it is already done
        guide.time = 0.4  # the outline mid-pulse
        app.step(0.0, [])
        return guide
    finally:
        if old is None:
            os.environ.pop(saves.HOME_ENV, None)
        else:
            os.environ[saves.HOME_ENV] = old


def _until(done: Callable[[object], bool]) -> Callable[[object], None]:
    return lambda session: play_until(session, done)


def _invented(session) -> None:
    session.apply(Invent("lower_stage", 4, "Hopper"))
    session.apply(Invent("capsule", 3, "Burrow Pod"))


def _built(session) -> None:
    _invented(session)
    ids = _ids(session)
    for action in (Research(ids["Hopper"], "fail", 1), Research(ids["Burrow Pod"], "fail", 1), Build(ids["Hopper"]),
                   Build(ids["Burrow Pod"])):
        session.apply(action)


def _turn_two_parts(session) -> None:
    """Turn 2's parts invented, researched, built and bought, not yet assembled."""
    play_until(session, lambda s: s.state.turn == 2 and s.state.phase == "rnd")
    session.apply(Invent("lower_stage", 7, "Big Hopper"))
    session.apply(Invent("thruster", 1, "Puffer"))
    ids = _ids(session)
    for action in (Research(ids["Puffer"], "fail", 2), Research(ids["Burrow Pod"], "fail", 1), Build(ids["Big Hopper"]),
                   Build(ids["Burrow Pod"]), Build(ids["Puffer"]), BuyConsumables("fuel", 1),
                   BuyConsumables("rations", 1)):
        session.apply(action)


def _rolled(kind: str) -> Callable[[object], bool]:
    def done(session) -> bool:
        roll = _pending(session)
        return roll is not None and roll.kind == kind and roll.value is not None
    return done


def _at_junction(session) -> bool:
    return session.state.turn == 3 and any(type(a).__name__ == "Burn" for a in session.legal_actions())


def _at_turn(turn: int) -> Callable[[object], bool]:
    return lambda session: session.state.turn == turn and session.state.phase == "rnd"


def _open_tab(tab: str):
    return lambda scene: scene.on_button(f"tab:{tab}")


def _open_assembly(scene) -> None:
    scene.on_button("assemble")


#: (lesson, how far the mission has gone, what to do on the scene shown)
KEY_LESSONS = (
    ("welcome", lambda s: None, None),
    ("research", _invented, _open_tab("research")),
    ("crew", _built, _open_tab("derps")),
    ("roll", _until(lambda s: s.state.turn == 1 and s.waiting_for_dice), None),
    ("report", _until(_at_turn(2)), None),
    ("orbit_assemble", _turn_two_parts, _open_assembly),
    ("skill", _until(_rolled("orbital_insertion")), None),
    ("fail_choice", _until(_rolled("duration_capsule")), None),
    ("route", _until(_at_junction), None),
    ("drag", _until(_at_junction), None),
    ("landing", _until(lambda s: s.state.turn == 3 and _pending(s) is not None and _pending(s).kind == "reentry"),
     None),
    ("report_home", _until(_at_turn(4)), None),
    ("luck_hop", _until(_at_turn(4)), None),
    ("luck", _until(lambda s: s.state.turn == 4 and _rolled("launch")(s)), None),
    ("done", _until(_at_turn(5)), None),
)


def _builder(lesson: str, prepare, then):
    return lambda app: _shot_tutorial(app, lesson, prepare, then)


def shot_rules_reference(app) -> None:
    app.start("title")
    scene = app.context.open("rules_reference")
    scene.show_section("failures")
    for _ in range(3):
        app.step(1 / 30, [])


def shot_key_lesson(app, lesson: str) -> TutorialGuide:
    """The tutorial at one of ``KEY_LESSONS``, set up as its shot is."""
    _, prepare, then = next(k for k in KEY_LESSONS if k[0] == lesson)
    return _shot_tutorial(app, lesson, prepare, then)


TUTORIAL_SHOTS = [(f"tutorial_{lesson}", _builder(lesson, prepare, then)) for lesson, prepare, then in KEY_LESSONS] + [
    ("rules_reference", shot_rules_reference),
]
#: The same lessons at 1920x1080 and 3840x2160 (taken once each, see ``shots.SIZED_SHOTS``).
TUTORIAL_SIZED_SHOTS = [(f"tutorial_{lesson}_{w}", (w, h), _builder(lesson, prepare, then))
                        for w, h in ((1920, 1080), (3840, 2160)) for lesson, prepare, then in KEY_LESSONS]
