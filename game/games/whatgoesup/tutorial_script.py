"""The guided first mission's lessons: what each step says, where it points, and when it is done.

Pure data and small predicates over the session (no pygame): ``game/client/whatgoesup/tutorial.py`` shows
them. The tutorial is a normal one-program game under the shipped rules, with the Simplified Stack option
(one lower stage does both launch and orbital insertion, which keeps a first orbit affordable) and a turn
limit; no head start. It teaches a whole mission, launch to landing:

- turn 1: invent, research and build a lower stage and a capsule, hire a derp and train its Piloting, and
  fly an uncrewed suborbital test hop;
- turn 2: a bigger stage and a thruster, fuel and rations, and a crewed flight to orbit, where the orbital
  insertion Fails (Piloting saves it) and the night's capsule check Fails (the player chooses what it costs);
- turn 3: the way home: move on, plan the route, drag the marker onto Reentry, burn, reenter and land;
  the end-of-turn report shows the luck point the crew earned;
- turn 4: one more hop to spend it: the launch Fails and the player rerolls it with the luck point.

The dice stay loaded (``TutorialDice``) until the training is over (a crewed capsule is home and the next
craft has flown, or the turn after the landing is over: ``dice_loaded``): every roll is one of the engine's own chance outcomes, chosen to work, or
to Fail (never Boom) where a lesson needs a Fail. The values rolled are recorded as a ``ScriptedDice`` script,
so a save of the tutorial is a normal save that any loader replays exactly; after the training the dice are
the seeded ones.

Texts are formatted with ``numbers(rules)``, so the costs they quote are the loaded tables'.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Callable, Optional, Sequence, Union

from game.core.dice_rng import DiceRoller, ScriptedDice
from game.games.whatgoesup.rules import formulas
from game.games.whatgoesup.rules.actions import Roll
from game.games.whatgoesup.rules.state import PlayerSetup, Setup

SEED = 20140501
PROGRAM = 0
#: The rolls that come up Fail on the first crewed flight (each once, and only when the lesson can handle
#: it): the orbital insertion (a derp aboard with Piloting saves it) and the first night's capsule check.
FAIL_ON = ("orbital_insertion", "duration_capsule")


def tutorial_setup() -> Setup:
    return Setup(players=(PlayerSetup("Training Program", "rabitians"),), dice="d20",
                 options=frozenset({"simplified_stack"}), turn_limit=8)


# ------------------------------------------------------------------ the loaded dice
class TutorialDice(ScriptedDice):
    """Loaded dice for the training mission: each roll is one of ``engine.chance_outcomes``, chosen to work
    (or to Fail where a lesson needs it), while ``dice_loaded``; then seeded.

    Every roll made while loaded is appended to ``values``, so ``describe()`` is a plain ``ScriptedDice``
    script that replays this game exactly (a save of it loads and continues anywhere, like any other)."""

    def __init__(self, seed: int, values: Sequence[int] = ()) -> None:
        super().__init__(list(values), seed)

    def roll(self, engine, state):
        seeded = DiceRoller.roll(self, engine, state)  # the stream moves on whether or not the dice are loaded
        index, self.position = self.position, self.position + 1
        outcomes = [roll for roll, _ in engine.chance_outcomes(state)]
        if index < len(self.values):  # a resumed game: the script already says
            return next((r for r in outcomes if r.value == self.values[index]), seeded)
        if index > len(self.values) or not dice_loaded(state):  # past the loading: the seeded dice
            return seeded
        chosen = loaded_roll(state, outcomes) or seeded
        self.values.append(chosen.value)
        return chosen


def loaded_roll(state, outcomes: list) -> Optional[Roll]:
    """The lowest outcome with the wanted result: OK, or Fail for a lesson's Fail; never Boom if avoidable."""
    if not outcomes:
        return None
    pending = state.flight.roll if getattr(state, "flight", None) is not None else None
    if pending is None:
        return min(outcomes, key=lambda r: r.value)

    def result(roll) -> str:
        return dataclasses.replace(pending, value=roll.value).outcome().name.lower()

    for wanted in (("fail", "ok") if _lesson_fail(state, pending) else ("ok", "fail")):
        hits = [r for r in outcomes if result(r) == wanted]
        if hits:
            return min(hits, key=lambda r: r.value)
    return min(outcomes, key=lambda r: r.value)


def _lesson_fail(state, pending) -> bool:
    """Whether this roll is one of the lessons' Fails (never a reroll): on the first crewed flight the
    insertion and the first night, once each; once the crew is home, the next launch while a luck point is
    left to reroll it (the luck lesson)."""
    if pending.previous is not None:
        return False
    upgoer = state.find("upgoer", pending.upgoer)
    if upgoer is None or upgoer.owner != PROGRAM:
        return False
    if pending.kind == "launch":
        return luck_turn(state) and state.programs[PROGRAM].luck >= 1
    if pending.kind not in FAIL_ON or not upgoer.crew:
        return False
    if pending.kind == "orbital_insertion":  # only when a derp aboard can save it with Piloting
        crew = [state.find("derp", d) for d in upgoer.crew]
        return any(d is not None and d.piloting >= 1 and d.current_stamina > 0 and not d.injured for d in crew)
    return upgoer.launched_turn == state.turn  # the first night only


def crew_home(state) -> bool:
    """A crewed craft of the training program has landed home."""
    return any(u.crew and u.status == "landed" for u in state.upgoers_of(PROGRAM))


#: The training's flights: the uncrewed hop, the crewed orbiter and the hop that spends the luck point.
TRAINING_FLIGHTS = 3


def flights_over(state) -> int:
    """How many of the program's craft have flown and are done (landed, lost or gone)."""
    return sum(1 for u in state.upgoers_of(PROGRAM) if u.status not in ("pad", "flying"))


def _landing_turn(state) -> Optional[int]:
    """The turn the first crewed craft of the program landed home (None before)."""
    landed = [u.launched_turn + u.turns_in_space for u in state.upgoers_of(PROGRAM)
              if u.crew and u.status == "landed" and u.launched_turn is not None]
    return min(landed) if landed else None


def luck_turn(state) -> bool:
    """The crew came home last turn: the turn of the luck lesson's hop."""
    landed = _landing_turn(state)
    return landed is not None and state.turn == landed + 1


def dice_loaded(state) -> bool:
    """The training is still on: the crew is not home yet, or the luck lesson's hop has not finished flying and
    the turn after the landing is not over (a player who skips the hop, or turns the luck down, has the seeded
    dice from the turn after)."""
    landed = _landing_turn(state)
    return landed is None or (flights_over(state) < TRAINING_FLIGHTS and state.turn <= landed + 1)


# ------------------------------------------------------------------ lessons
#: (session, the scene on top or None) -> the step is done
Done = Callable[[object, object], bool]
#: What a lesson points at on one scene: a spec string, or a function of the session giving one.
Target = Union[str, Callable[[object], str]]


@dataclass(frozen=True)
class Lesson:
    """One step of the tutorial.

    ``targets`` maps a scene name to what to spotlight there and ``reads`` to what the card asks the player
    to read there (spec strings resolved by the client: ``chips``, ``tab:research`` (the tab, or its form
    once open), ``button:KEY``, ``field:panel``, ``field:action:KIND`` (the panel's button for that kind of
    action, else the panel), ``field:roll``, ``field:board``, ``field:marker`` (the craft
    in hand), ``field:step:ID``, ``field:planner``, ``assembly:parts``, ``assembly:report``,
    ``assembly:picture``, ``report``; several read-targets are joined with ``|``). The card never covers
    either. ``done`` is None for a step the player reads and closes with Next."""

    id: str
    title: str
    text: str
    targets: dict = field(default_factory=dict)
    done: Optional[Done] = None
    reads: dict = field(default_factory=dict)


def scene_name(scene) -> str:
    return getattr(scene, "name", "") if scene is not None else ""


def target_spec(lesson: Lesson, scene: str, session) -> Optional[str]:
    spec = lesson.targets.get(scene)
    return spec(session) if callable(spec) else spec


def read_specs(lesson: Lesson, scene: str) -> list[str]:
    spec = lesson.reads.get(scene)
    return [s for s in spec.split("|") if s] if spec else []


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
    return any(t.rating.fail >= 2 for t in stages) and any(t.rating.fail >= 2 for t in capsules)


def _built(session) -> bool:
    return bool(_upgoers(session)) or (_has_item_of(session, _things(session, "lower_stage", 4))
                                       and _has_item_of(session, _things(session, "capsule", 3)))


def _trained(session) -> bool:
    return any(d.piloting >= 1 for d in session.state.derps_of(PROGRAM))


def _hop_ready(session) -> bool:
    return bool(_upgoers(session, False))


def _orbit_parts(session) -> bool:
    return bool(_things(session, "lower_stage", 7)) and bool(_things(session, "thruster"))


def _orbit_researched(session) -> bool:
    return any(t.rating.fail >= 3 for t in _things(session, "thruster")) and \
        any(t.rating.fail >= 3 for t in _things(session, "capsule", 3))


def _orbit_parts_built(session) -> bool:
    return bool(_upgoers(session, True)) or (
        _has_item_of(session, _things(session, "lower_stage", 7)) and _has_item_of(session, _things(session, "thruster"))
        and _has_item_of(session, _things(session, "capsule", 3)))


def _orbit_built(session) -> bool:
    p = session.state.programs[PROGRAM]
    return bool(_upgoers(session, True)) or (_orbit_parts_built(session) and p.fuel_stock >= 1 and p.rations_stock >= 1)


def _pending(session):
    state = session.state
    flight = state.flight if state.phase == "flight" else None
    return (flight.roll, flight.choice) if flight is not None else (None, None)


def _crewed_flown(session) -> list:
    return [u for u in _upgoers(session, True) if u.status != "pad"]


def _insertion_rolled(session) -> bool:
    """The crewed craft's insertion roll has come up (or the flight is past it)."""
    roll, _ = _pending(session)
    if roll is not None and roll.kind == "orbital_insertion":
        return roll.value is not None
    return _past_insertion(session)


def _past_insertion(session) -> bool:
    roll, _ = _pending(session)
    if roll is not None and roll.kind in ("launch", "orbital_insertion"):
        return False
    return any(u.status != "flying" or _step_kind(session, u.location) == "orbit" for u in _crewed_flown(session))


def _step_kind(session, step: Optional[str]) -> str:
    try:
        return session.engine.rules.board.step(step).kind if step else ""
    except KeyError:
        return ""


def _settled_in_orbit(session) -> bool:
    """The first night's roll and its choice are behind the crew (in orbit, or the flight ended)."""
    roll, choice = _pending(session)
    if roll is not None or choice is not None:
        return False
    return _past_insertion(session)


def _burn_offered(session) -> bool:
    return any(type(a).__name__ == "Burn" for a in session.legal_actions()) if session.current_player == PROGRAM \
        else False


ORBIT_KINDS = ("orbit", "burn")  # circling: on an orbit's steps or at its burn junctions


def _left_orbit(session) -> bool:
    """The crew is on the way home: the burn is made (or the flight is over)."""
    return session.state.turn >= 3 and any(
        u.status != "flying" or _step_kind(session, u.location) not in ORBIT_KINDS for u in _crewed_flown(session))


def _burn_chosen(session) -> bool:
    """The burn for home is chosen: its roll is up (or the craft has already left orbit)."""
    roll, _ = _pending(session)
    return _left_orbit(session) or (session.state.turn >= 3 and roll is not None)


def _route_planned(session, scene) -> bool:
    return getattr(scene, "route_report", None) is not None or _left_orbit(session)


def _home(session) -> bool:
    return any(u.status == "landed" for u in _crewed_flown(session)) or not _crewed_flown(session) or \
        all(u.status not in ("flying", "pad") for u in _crewed_flown(session))


def _storage_has(session, role: str, min_mass: int) -> bool:
    ids = {t.id for t in _things(session, role, min_mass)}
    return any(i.thing_id in ids and i.location is None for i in session.state.items_of(PROGRAM))


def _luck_build_target(session) -> str:
    """Build a stage and a capsule, then assemble them."""
    built = _storage_has(session, "lower_stage", 4) and _storage_has(session, "capsule", 3)
    return "button:assemble" if built else "tab:build"


def _luck_hop_ready(session) -> bool:
    """Once the crew is home, the next craft is on the pad (or has flown)."""
    state = session.state
    return crew_home(state) and (any(u.status in ("pad", "flying") for u in state.upgoers_of(PROGRAM))
                                 or flights_over(state) >= TRAINING_FLIGHTS)


def _luck_spent(session) -> bool:
    return any(type(a).__name__ == "UseLuck" for a in session.actions)


def _luck_roll(session):
    """The luck hop's launch roll, while it is pending."""
    roll, _ = _pending(session)
    return roll if roll is not None and roll.kind == "launch" and crew_home(session.state) else None


def _luck_rolled(session) -> bool:
    """The luck hop's launch roll has come up (or the lesson is behind)."""
    roll = _luck_roll(session)
    return (roll is not None and roll.value is not None) or _luck_spent(session) or \
        flights_over(session.state) >= TRAINING_FLIGHTS


def _luck_used(session) -> bool:
    """The luck point rerolled the launch and the better roll is kept (or the turn is over without it)."""
    roll = _luck_roll(session)
    return (_luck_spent(session) and (roll is None or roll.previous is None)) or session.state.turn >= 5


def _report_read(turn: int) -> Done:
    return lambda s, top: scene_name(top) == "rnd" and s.state.turn >= turn


def _supplies_or_build(session) -> str:
    return "tab:supplies" if _orbit_parts_built(session) else "tab:build"


def numbers(rules) -> dict:
    """The numbers the lessons quote, from the loaded tables."""
    eco = rules.economy
    return {"dots": eco.budget.start_dots, "per_dot": eco.budget.points_per_dot,
            "invent": eco.costs.invent_per_mass, "research": eco.costs.research_per_mass,
            "build": eco.costs.build_per_mass, "hire": eco.costs.hire_derp, "train": eco.costs.train_per_point,
            "container": eco.costs.consumable_per_container, "start": eco.research.new_thing_rating,
            "start_boom": eco.research.new_thing_rating.boom, "luck": eco.luck.per_healthy_derp_back_from_new_step,
            "new_step": eco.dots.per_new_step, "min_dots": eco.budget.min_dots, "max_dots": eco.budget.max_dots,
            **orbiter_masses(rules), **crew_in_space(rules)}


#: The orbiter the lessons build: a mass-3 capsule, a mass-1 thruster, one derp, one fuel, one container of rations.
ORBITER_CAPSULE, ORBITER_THRUSTER, ORBITER_FUEL = 3, 1, 1


def orbiter_masses(rules) -> dict:
    """The sum the lessons show for the orbiter's stage: what each thing aboard masses and the total the stage
    must lift, by the same formula as ``check_design``."""
    comps, derp_mass = rules.components, rules.economy.derps.mass
    container = comps.rations_derp_turns_per_container
    total = formulas.spacecraft_mass(ORBITER_CAPSULE + ORBITER_THRUSTER, 1, container, ORBITER_FUEL, derp_mass, comps)
    return {"derp_mass": derp_mass, "container": container,
            "container_mass": _number(formulas.rations_mass(container, comps)), "orbiter": _number(total)}


def crew_in_space(rules) -> dict:
    """The standing bonus for the biggest crew in space, as the report names it (empty words when none)."""
    held = [s for s in rules.prestige.standing if s.kind == "largest_crew_in_space"]
    return {"space_party": held[0].name if held else "", "space_party_dots": held[0].dots if held else 0}


def _number(value) -> str:
    return str(int(value)) if value == int(value) else str(value)


RND_FORM = {"rnd": "tab:invent"}
ROLL = {"field": "field:roll"}
READ_ROLL = {"field": "field:roll"}
PANEL = {"field": "field:panel"}  # the panel around a button the lesson points at: read, not covered

LESSONS: tuple[Lesson, ...] = (
    # ---------------------------------------------------------------- turn 1: R&D
    Lesson("welcome", "Your space program",
           "Welcome, Chief Engineer! This training mission flies a derp to orbit and home again. Each turn your "
           "budget dots turn into points ({per_dot} per dot; you start with {dots}). Everything in R&D costs "
           "points, and points you keep are saved for next turn. The dice are loaded in your favour until your "
           "training is over, so you can learn without explosions. Press Next.",
           {"rnd": "chips"}),
    Lesson("invent_stage", "Invent a lower stage",
           "A lower stage lifts everything above it, up to its own mass. This game uses Simplified Stack: one "
           "stage does both the launch and the orbital insertion. Kind: Lower stage. Mass: 4, room for the "
           "mass-3 capsule you invent next. Then Invent ({invent} points per mass).",
           RND_FORM, lambda s, top: bool(_things(s, "lower_stage", 4))),
    Lesson("invent_capsule", "Invent a capsule",
           "A capsule carries derps, payloads and rations, steers, and rolls for reentry, landing and each night "
           "in space. Pick Capsule in Kind, set Mass 3 (it carries 2), and Invent.",
           RND_FORM, lambda s, top: bool(_things(s, "capsule", 3))),
    Lesson("research", "Research: make them safer",
           "A rating is two safeties, Fail/Boom: roll below the first and the part works (OK), at or above the "
           "second it goes Boom, in between it Fails. New things start at {start}: on a D20 nothing works yet. "
           "Research moves one safety one step for {research} point per mass. Open Research and improve 'Fail "
           "to OK' by 1 step on the lower stage and 1 on the capsule; the preview shows the new rating.",
           {"rnd": "tab:research"}, lambda s, top: _researched(s)),
    Lesson("build", "Build the parts",
           "A blueprint is not a rocket yet. Open Build and build one lower stage and one capsule "
           "({build} point per mass each). Built copies keep improving with research until they launch.",
           {"rnd": "tab:build"}, lambda s, top: _built(s)),
    Lesson("crew", "Hire and train a derp",
           "Derps fly your craft and help with rolls. Open Derps, press Hire ({hire} point), then Train your derp "
           "+1 in Piloting ({train} point). A derp who trains stays home this turn, so today's hop flies "
           "without crew; next turn your pilot flies to orbit.",
           {"rnd": "tab:derps"}, lambda s, top: _trained(s)),
    Lesson("assemble_hop", "Assemble a test hop",
           "First flights are tests. Press 'Assemble an Upgoer'. Put the lower stage in as Stage and the capsule "
           "Aboard (press the buttons, or drag a part onto the rocket picture); leave the derp at home: without "
           "crew an Upgoer only flies suborbital, up and down. The design report checks the design as you go. "
           "Then Roll out to the pad.",
           {"rnd": "button:assemble", "assembly": "assembly:parts"}, lambda s, top: _hop_ready(s),
           {"assembly": "assembly:report"}),
    Lesson("finish_rnd", "Finish R&D",
           "Your Upgoer waits on the pad. Press Finish R&D (or Enter twice) to go to the flights.",
           {"rnd": "button:finish", "assembly": "button:back"}, lambda s, top: s.state.phase == "flight"),
    # ---------------------------------------------------------------- turn 1: the hop
    Lesson("launch", "Launch!",
           "This is The Field, where craft fly along rails from the World outwards. Press Launch (or U) in the "
           "panel on the right.",
           {"field": "field:action:Launch"}, lambda s, top: s.waiting_for_dice or _rolls(s) > 0, PANEL),
    Lesson("roll", "Read the odds, then roll",
           "Before every roll the card shows the bands: which values are OK, Fail and Boom, with the exact odds. "
           "The odds are honest, and poor: only the loaded dice save this flight, so research more in a real "
           "game. Press Roll (Space). When the dice land, the card says which rule applied; Space or a click "
           "goes on.",
           ROLL, lambda s, top: _rolls(s) > 0),
    Lesson("hop_home", "Up, over and home",
           "A suborbital hop falls back at once: the capsule rolls for reentry and then for landing. Roll each "
           "one and read its card, then finish the turn with the buttons on the right.",
           {"field": "field:panel"}, lambda s, top: s.state.turn >= 2, READ_ROLL),
    Lesson("report", "The end of the turn",
           "The report says how your budget moved: +{new_step} dot for every mission step you reached the first "
           "time, and prestige dots for firsts. It never goes below {min_dots} or above {max_dots}. Read it, "
           "then Continue.",
           {}, _report_read(2), {"turn_report": "report"}),
    # ---------------------------------------------------------------- turn 2: R&D for orbit
    Lesson("orbit_parts", "Parts for orbit",
           "Now a crew to orbit! That needs a thruster, with fuel, to come home, and rations for the night. A "
           "stage must mass as much as all it lifts: capsule 3 + thruster 1 + derp {derp_mass} + fuel 1 + a "
           "container of rations {container_mass} = {orbiter}. So invent a Lower stage of Mass {orbiter} and a "
           "Thruster of Mass 1. Your hop flew, so the new stage starts better (technology transfer).",
           RND_FORM, lambda s, top: _orbit_parts(s)),
    Lesson("orbit_research", "Research for the way home",
           "The thruster will burn for home and the capsule must still land after a long flight. Open Research "
           "and improve 'Fail to OK' by 2 steps on the thruster and 1 more step on the capsule.",
           {"rnd": "tab:research"}, lambda s, top: _orbit_researched(s)),
    Lesson("orbit_build", "Build and buy supplies",
           "Build one new stage, one capsule and one thruster, then on the Supplies tab buy 1 fuel and 1 "
           "rations ({container} point each).",
           {"rnd": _supplies_or_build}, lambda s, top: _orbit_built(s)),
    Lesson("orbit_assemble", "Assemble the orbiter",
           "The big stage as Stage; capsule and thruster Aboard; your derp as Crew; press + once for Fuel and "
           "once for Rations. The report adds up the spacecraft: mass {orbiter}, all the stage lifts. Roll out "
           "when it is happy.",
           {"rnd": "button:assemble", "assembly": "assembly:parts"}, lambda s, top: bool(_upgoers(s, True)),
           {"assembly": "assembly:report"}),
    Lesson("orbit_launch", "To orbit!",
           "Finish R&D and launch. The one stage rolls twice: launch, then orbital insertion. Roll, and read "
           "each card.",
           {"rnd": "button:finish", "field": "field:panel"}, lambda s, top: _insertion_rolled(s), READ_ROLL),
    Lesson("skill", "A Fail: spend a skill",
           "The insertion Failed! Before you accept a roll, a derp aboard may spend a point of Stamina to move "
           "it: Piloting moves a Fail towards OK by the derp's Piloting, Engineering moves a Boom towards Fail by "
           "their Engineering, as often as their Stamina lasts. Your pilot trained Piloting: press the button "
           "with their name on the card. (A luck point, earned when a crew comes home from somewhere new, "
           "rerolls the dice instead.)",
           ROLL, lambda s, top: _past_insertion(s), READ_ROLL),
    Lesson("fail_choice", "A Fail: choose what it costs",
           "In orbit the capsule rolls for the night, and this time it Fails. Some Fails let you choose what "
           "they cost. Keep your derp's Stamina for later: press Accept, then choose: 'Lose rations' would "
           "leave your derp hungry far from home; "
           "'Damage every part' only makes every part aboard a little less safe. Choose it.",
           ROLL, lambda s, top: _settled_in_orbit(s), READ_ROLL),
    Lesson("orbit_done", "In orbit",
           "Your derp is circling the World. A craft moves once a turn: press 'Done' on the right "
           "and read the report.",
           {"field": "field:action:EndActivities"}, lambda s, top: s.state.turn >= 3,
           {"field": "field:roll|field:panel"}),
    Lesson("report_orbit", "Another report",
           "Orbit, the insertion and the night were new steps, so they earned dots. Continue to the next R&D.",
           {}, _report_read(3), {"turn_report": "report"}),
    # ---------------------------------------------------------------- turn 3: the way home
    Lesson("home_rnd", "Nothing to build",
           "The crew is up there and everything they need is aboard. Press Finish R&D to go to the flights.",
           {"rnd": "button:finish"}, lambda s, top: s.state.phase == "flight" and s.state.turn >= 3),
    Lesson("move_on", "Move on",
           "Press 'Move on' in the panel: the craft follows its rail round the orbit to the next junction, "
           "where it may burn.",
           {"field": "field:action:Move"}, lambda s, top: _burn_offered(s) or _left_orbit(s), PANEL),
    Lesson("route", "Plan the way home",
           "The lit steps are where a burn can take you. Click the Reentry step on the board: the route planner "
           "on the right shows the fuel it needs and the exact chance of getting there. That chance is honest, and "
           "poor: parts this new rarely make it, and only the loaded dice bring this crew home.",
           {"field": "field:step:reentry"}, _route_planned, {"field": "field:planner|field:marker"}),
    Lesson("drag", "Drag the marker home",
           "Now drag the glowing marker (your craft) onto the lit Reentry step to burn for home (or press "
           "'Burn: Deorbit burn' on the right). The thruster rolls for the burn.",
           {"field": "field:marker"}, lambda s, top: _burn_chosen(s), {"field": "field:step:reentry"}),
    Lesson("landing", "Reentry and landing",
           "Roll the burn, then reentry (the capsule's heat shield) and landing (its parachutes). Read each "
           "card, then finish the turn on the right.",
           ROLL, lambda s, top: _home(s) and s.state.turn >= 4, READ_ROLL),
    Lesson("report_home", "Home!",
           "Your derp is home. A healthy derp back from somewhere new earns {luck} luck point: spend it on a "
           "roll card to reroll a Fail or a Boom, then keep the better roll. The report's '{space_party} lost' was the "
           "prestige for the biggest crew in space, held only while it is up there. Read it, then Continue.",
           {}, _report_read(4), {"turn_report": "report"}),
    # ---------------------------------------------------------------- turn 4: luck
    Lesson("luck_hop", "One more hop, for luck",
           "See the Luck chip at the top? That point is yours to spend. Let's fly one more test hop and watch it "
           "work. On the Build tab build a lower stage of mass 4 and a capsule of mass 3, then assemble them as "
           "on the first day (your derp can stay home and rest) and roll out to the pad.",
           {"rnd": _luck_build_target, "assembly": "assembly:parts"}, lambda s, top: _luck_hop_ready(s),
           {"rnd": "chips", "assembly": "assembly:report"}),
    Lesson("luck_launch", "Launch the hop",
           "Finish R&D, launch the hop and roll.",
           {"rnd": "button:finish", "field": "field:panel"}, lambda s, top: _luck_rolled(s), READ_ROLL),
    Lesson("luck", "A Fail: spend your luck",
           "Oh dear, the stage Failed: the hop would stay on the ground and the stage would be lost. Your luck "
           "point can fix that. "
           "Press 'Luck: reroll' on the card and the dice roll again. Then choose which roll to keep, the new one "
           "or the old: take the better one.",
           ROLL, lambda s, top: _luck_used(s), READ_ROLL),
    Lesson("luck_home", "Up, over and home again",
           "Luck well spent! The hop falls back like the first one: roll its reentry and landing, finish the "
           "turn on the right and read the report.",
           {"field": "field:panel"}, _report_read(5), {"field": "field:roll", "turn_report": "report"}),
    Lesson("done", "Mission complete",
           "Launch to landing, and a little luck: you have flown a whole mission. From here the dice are real: "
           "research before you fly. Press F2 any time for the rules reference. Keep playing this game (Continue "
           "on the title resumes it), or go back to the title.",
           {"rnd": "chips"}),
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
        return ("Your derp is training this turn and cannot fly: take that Upgoer apart on the Other tab and "
                "roll it out again without the derp.")
    if lesson.id == "research":
        stages, capsules = _things(session, "lower_stage", 4), _things(session, "capsule", 3)
        if not stages or not capsules:
            return "Invent a lower stage of mass 4 and a capsule of mass 3 first (Invent tab)."
    return ""
