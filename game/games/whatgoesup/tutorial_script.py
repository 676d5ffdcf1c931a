"""The guided first mission's lessons: what each step says, where it points, and when it is done.

Pure data and small predicates over the session (no pygame): ``game/ui/tutorial.py`` shows them. The
tutorial is a normal one-program game under the shipped rules, with the Simplified Stack option (one
lower stage does both launch and orbital insertion, which keeps a first orbit affordable) and a turn
limit; no head start. Turn 1: invent, research and build a lower stage and a capsule, hire a derp, and
fly an uncrewed suborbital hop. Turn 2: a bigger stage and a thruster, and a crewed flight to orbit.
The first ``len(SCRIPTED_ROLLS)`` rolls are scripted to the lowest die value (a part with a Fail
safety of 2 or more works on it), and the lessons say so; every later roll is the seeded dice.

Texts are formatted with ``numbers(rules)``, so the costs they quote are the loaded tables'.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Optional

from game.games.whatgoesup.rules.actions import Roll
from game.games.whatgoesup.rules.state import PlayerSetup, Setup

SEED = 20140501
PROGRAM = 0
#: Rolls of the hop (launch, reentry, landing) and the orbit (launch, insertion, capsule check).
SCRIPTED_ROLLS = (1, 1, 1, 1, 1, 1)


def tutorial_setup() -> Setup:
    return Setup(players=(PlayerSetup("Training Program", "rabitians"),), dice="d20",
                 options=frozenset({"simplified_stack"}), turn_limit=8)


Done = Callable[[object, str], bool]  # (session, name of the scene on top) -> the step is done


@dataclass(frozen=True)
class Lesson:
    """One step of the tutorial.

    ``targets`` maps a scene name to what to spotlight there (resolved by the UI: ``chips``,
    ``tab:research`` (the tab, or its form once open), ``button:KEY``, ``field:panel``, ``field:roll``,
    ``field:board``, ``assembly:parts``, ``report``). ``done`` is None for a step the player reads and
    closes with Next."""

    id: str
    title: str
    text: str
    targets: dict = field(default_factory=dict)
    done: Optional[Done] = None


# ------------------------------------------------------------------ predicates
def _things(session, role: str, min_mass: int = 0):
    rules = session.engine.rules
    return [t for t in session.state.things_of(PROGRAM)
            if rules.components.kind(t.kind).role == role and t.base_mass >= min_mass]


def _has_item_of(session, things) -> bool:
    ids = {t.id for t in things}
    return any(i.thing_id in ids for i in session.state.items_of(PROGRAM))


def _upgoers(session, crewed: Optional[bool] = None):
    return [u for u in session.state.upgoers_of(PROGRAM)
            if crewed is None or bool(u.crew) == crewed]


def _rolls(session) -> int:
    return sum(1 for a in session.actions if isinstance(a, Roll))


def _researched(session) -> bool:
    stages, capsules = _things(session, "lower_stage", 4), _things(session, "capsule", 3)
    return (any(t.rating.fail >= 2 for t in stages) and any(t.rating.fail >= 3 for t in capsules))


def _built(session) -> bool:
    return bool(_upgoers(session)) or (_has_item_of(session, _things(session, "lower_stage", 4))
                                       and _has_item_of(session, _things(session, "capsule", 3)))


def _hop_ready(session) -> bool:
    return bool(_upgoers(session, False))


def _orbit_parts(session) -> bool:
    return bool(_things(session, "lower_stage", 7)) and bool(_things(session, "thruster"))


def _orbit_built(session) -> bool:
    p = session.state.programs[PROGRAM]
    return bool(_upgoers(session, True)) or (
        _has_item_of(session, _things(session, "lower_stage", 7)) and _has_item_of(session, _things(session, "thruster"))
        and _has_item_of(session, _things(session, "capsule", 3)) and p.fuel_stock >= 1 and p.rations_stock >= 1)


def _in_orbit(session) -> bool:
    board = session.engine.rules.board
    state = session.state
    if state.phase == "flight" and state.flight is not None and (state.flight.roll is not None
                                                                 or state.flight.choice is not None):
        return False
    for u in _upgoers(session, True):
        if u.status == "flying" and u.location:
            try:
                if board.step(u.location).kind == "orbit":
                    return True
            except KeyError:
                pass
    return False


def numbers(rules) -> dict:
    """The numbers the lessons quote, from the loaded tables."""
    eco = rules.economy
    return {"dots": eco.budget.start_dots, "per_dot": eco.budget.points_per_dot,
            "invent": eco.costs.invent_per_mass, "research": eco.costs.research_per_mass,
            "build": eco.costs.build_per_mass, "hire": eco.costs.hire_derp,
            "container": eco.costs.consumable_per_container, "start": eco.research.new_thing_rating,
            "start_boom": eco.research.new_thing_rating.boom,
            "new_step": eco.dots.per_new_step, "min_dots": eco.budget.min_dots, "max_dots": eco.budget.max_dots}


RND_FORM = {"rnd": "tab:invent"}

LESSONS: tuple[Lesson, ...] = (
    Lesson("welcome", "Your space program",
           "Welcome, Chief Engineer! Each turn your budget dots turn into points ({per_dot} per dot; you start with "
           "{dots}). Everything in R&D costs points, and points you keep are saved for next turn. In this training "
           "mission the first few dice are loaded in your favour, so you can learn without explosions. Press Next.",
           {"rnd": "chips"}),
    Lesson("invent_stage", "Invent a lower stage",
           "A lower stage lifts everything above it. This game uses Simplified Stack: one stage does both the "
           "launch and the orbital insertion. Kind: Lower stage. Mass: 4 (press + twice). Then Invent. "
           "Inventing costs {invent} points per mass.",
           RND_FORM, lambda s, top: bool(_things(s, "lower_stage", 4))),
    Lesson("invent_capsule", "Invent a capsule",
           "A capsule carries derps, payloads and rations, steers, and rolls for reentry, landing and duration "
           "steps. Pick Capsule in Kind, set Mass 3 (it carries 2), and Invent.",
           RND_FORM, lambda s, top: bool(_things(s, "capsule", 3))),
    Lesson("research", "Research: make them safer",
           "New things start at {start}: on a D20, {start_boom} or more goes Boom and anything lower Fails, so "
           "nothing works yet. Research moves one "
           "safety one step for {research} point per mass. Open Research and improve 'Fail to OK': the capsule 2 "
           "steps, the lower stage 1 step. The preview shows the new rating before you pay.",
           {"rnd": "tab:research"}, lambda s, top: _researched(s)),
    Lesson("build", "Build the parts",
           "A blueprint is not a rocket yet. Open Build and build one lower stage and one capsule "
           "({build} point per mass each). Built copies keep improving with research until they launch.",
           {"rnd": "tab:build"}, lambda s, top: _built(s)),
    Lesson("hire", "Hire a spacederp",
           "Derps fly your craft and help with rolls. Open Derps and press Hire ({hire} point). A new derp has "
           "0 Piloting, 0 Engineering and 2 Stamina, and could fly today.",
           {"rnd": "tab:derps"}, lambda s, top: bool(s.state.derps_of(PROGRAM))),
    Lesson("assemble_hop", "Assemble a test hop",
           "First flights are tests. Press 'Assemble an Upgoer'. Put the lower stage in as Stage and the capsule "
           "Aboard, and leave your derp at home: without crew an Upgoer only flies suborbital, up and down. "
           "The report on the right checks the design. Then Roll out to the pad.",
           {"rnd": "button:assemble", "assembly": "assembly:parts"}, lambda s, top: _hop_ready(s)),
    Lesson("finish_rnd", "Finish R&D",
           "Your Upgoer waits on the pad. Press Finish R&D (or Enter twice) to go to the flights.",
           {"rnd": "button:finish", "assembly": "button:back"}, lambda s, top: s.state.phase == "flight"),
    Lesson("launch", "Launch!",
           "This is The Field, where craft fly along rails. Press Launch (or U) in the panel on the right.",
           {"field": "field:panel"}, lambda s, top: s.waiting_for_dice or _rolls(s) > 0),
    Lesson("roll", "Read the odds, then roll",
           "Before every roll the card shows the bands: which values are OK, Fail and Boom, with the exact odds. "
           "The odds are honest, and poor: only this lesson's loaded dice save the flight, so research more in a "
           "real game. Press Roll (Space); when the dice land, the card says which rule applied and why.",
           {"field": "field:roll"}, lambda s, top: _rolls(s) > 0),
    Lesson("hop_home", "Up, over and home",
           "A suborbital hop falls back at once: the capsule rolls for reentry and then for landing. Keep "
           "going (Space, or the buttons on the right) until the turn ends.",
           {"field": "field:panel"}, lambda s, top: s.state.turn >= 2),
    Lesson("report", "The end of the turn",
           "Your budget changes: +{new_step} dot for every mission step you reached first time, and prestige "
           "dots for firsts. It never goes below {min_dots} or above {max_dots}. Read it, then continue.",
           {"turn_report": "report"}, lambda s, top: top == "rnd" and s.state.turn >= 2),
    Lesson("orbit_parts", "Parts for orbit",
           "Now a crew to orbit! It needs a thruster and fuel to come home, and rations for the night. That craft "
           "weighs about 7, so invent a Lower stage of Mass 7 and a Thruster of Mass 1. Your hop flew, so the "
           "new stage starts better (technology transfer).",
           RND_FORM, lambda s, top: _orbit_parts(s)),
    Lesson("orbit_build", "Research, build and buy",
           "Research the thruster 'Fail to OK' a step or two if you like. Build one new stage, one capsule and "
           "one thruster, and on the Supplies tab buy 1 fuel and 1 rations ({container} point each).",
           {"rnd": "tab:build"}, lambda s, top: _orbit_built(s)),
    Lesson("orbit_assemble", "Assemble the orbiter",
           "Assemble: the big stage as Stage; capsule and thruster Aboard; your derp as Crew; 1 fuel and 1 "
           "rations with the steppers. 'Start from a suggestion' can help. Roll out when the report is happy.",
           {"rnd": "button:assemble", "assembly": "assembly:parts"}, lambda s, top: bool(_upgoers(s, True))),
    Lesson("orbit_fly", "To orbit!",
           "Finish R&D and launch. The one stage rolls twice: launch, then orbital insertion. In orbit the "
           "capsule rolls its duration check. Watch each card say what happened.",
           {"rnd": "button:finish", "field": "field:panel"}, lambda s, top: _in_orbit(s)),
    Lesson("done", "You made orbit!",
           "Your derp is circling the world. Next turn, burn for home with the thruster. From here the dice "
           "are real: research before you fly. Press F2 any time for the rules reference. Keep playing this "
           "game, or go back to the title.",
           {"field": "field:board"}),
)


def lesson_index(lesson_id: str) -> int:
    for n, lesson in enumerate(LESSONS):
        if lesson.id == lesson_id:
            return n
    raise KeyError(lesson_id)


def lesson_text(lesson: Lesson, rules) -> str:
    return lesson.text.format(**numbers(rules))


def hint(session, lesson: Lesson) -> str:
    """A nudge when the player went off the lesson's path (empty when all is well)."""
    if lesson.id in ("assemble_hop", "finish_rnd") and _upgoers(session, True) and not _upgoers(session, False):
        return ("That Upgoer has crew aboard, and a crew cannot eat without rations: take it apart on the "
                "Other tab and roll it out again without the derp.")
    if lesson.id == "research":
        stages, capsules = _things(session, "lower_stage", 4), _things(session, "capsule", 3)
        if not stages or not capsules:
            return "Invent a lower stage of mass 4 and a capsule of mass 3 first (Invent tab)."
    return ""

