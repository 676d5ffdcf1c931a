"""A pending roll, from the die to its settling.

A roll that is not OK waits for the owner's choices: a derp's Engineering or Piloting (stamina), an
RCS boost, a luck reroll (then keep the old or the new roll), or accepting it. Settling applies the
outcome (the failure table's effects live in ``consequences``) and sends the flight on.
"""
from __future__ import annotations

import dataclasses
from typing import Iterable, Optional

from game.core.interface import IllegalAction
from game.games.whatgoesup.rules.actions import Action, Roll
from game.games.whatgoesup.rules.flight.common import FlightBase, FlightPhase, PendingRoll, _with_flight
from game.games.whatgoesup.rules.flight_actions import AcceptRoll, KeepRoll, UseLuck, UseRcsBoost, UseSkill
from game.games.whatgoesup.rules import skills
from game.games.whatgoesup.rules.odds import HelpPlan
from game.games.whatgoesup.rules.reliability import Outcome
from game.games.whatgoesup.rules.skills import ENGINEERING, PILOTING, Helper
from game.games.whatgoesup.rules.state import (HOME, Derp, Event, GameState, Thing, Upgoer, programs_with, replace_in,
                                               update, with_program)


class RollPart(FlightBase):
    """The choices during a roll, settling it, and where the flight goes after."""

    # ------------------------------------------------------------------ decisions
    def _needs_decision(self, state: GameState, roll: PendingRoll) -> bool:
        if roll.previous is not None:
            return True
        if roll.outcome() is Outcome.OK:
            return False
        # A luck point to reroll is on every such menu and is allowed whenever the owner has one: asked first, it
        # answers without listing the crew's spends (the answer is the same, only found sooner).
        if self._roll_action_ok(state, roll, _LUCK) is None:
            return True
        return self._help_allowed(state, roll)

    def _help_allowed(self, state: GameState, roll: PendingRoll) -> bool:
        """Whether a spend of a skill or an RCS boost is allowed on the rolled, not yet reroll-chosen ``roll``: the
        same answer as ``_roll_action_ok`` gives some UseSkill or UseRcsBoost of ``_roll_candidates``, told from
        the roll's facts without making the candidates (a roll that still needs help asks after every spend)."""
        if not roll.helpable:
            return False  # "nobody can help with this roll"
        facts = self._roll_facts(state, roll)
        for skill in (ENGINEERING, PILOTING):
            if not facts.helpers:
                break
            if skill not in facts.skill_refusals:
                facts.skill_refusals[skill] = skills.refusal(self.table.skills, roll.value, roll.rating, roll.help,
                                                             skill)
            if facts.skill_refusals[skill] is None and any(self._skill_amount(state, derp, skill) >= 1
                                                          for derp in facts.helpers):
                return True
        upgoer = facts.upgoer
        if upgoer is None or facts.outcome(roll) is not Outcome.FAIL:
            return False  # an RCS boost turns only a Fail towards OK
        # The RCS candidates are the working ones aboard with uses left, each allowed then (``_roll_action_ok``).
        return any((i.uses_left or 0) > 0 for i in self._modules(state, upgoer, "rcs"))

    def _helpers(self, state: GameState, roll: PendingRoll) -> list[Derp]:
        """Derps who may spend stamina on this roll: the crew aboard (crews cooperate)."""
        return list(self._roll_facts(state, roll).helpers)

    def _roll_facts(self, state: GameState, roll: PendingRoll) -> "_RollFacts":
        """What every mid-roll choice of ``roll`` in ``state`` is judged against, worked out once for the last
        (state, roll) asked: a listing judges every candidate against the same ones (both are immutable).

        The craft and its helpers read only the state's craft and derps and the roll's craft, help and free
        help, so they are carried to the next state asked while those are the very same values (a die set,
        a spend of luck, the state told more); the outcome and the skills' refusals read only the roll, so
        they are carried while the roll is the same value."""
        kept = self._kept_roll_facts
        if kept is not None and kept[1] is roll and kept[0] is state:
            return kept[2]
        upgoers, derps = state.upgoers, state.derps
        if kept is not None and kept[3] is upgoers and kept[4] is derps and (
                kept[1] is roll or (kept[1].upgoer == roll.upgoer and kept[1].helpable == roll.helpable
                                    and kept[1].free_help == roll.free_help)):
            old = kept[2]
            facts = old if kept[1] is roll else _RollFacts(old.upgoer, old.helpers, old.helper_ids, {})
        else:
            facts = self._fresh_roll_facts(state, roll)
        self._kept_roll_facts = (state, roll, facts, upgoers, derps)
        return facts

    def _fresh_roll_facts(self, state: GameState, roll: PendingRoll) -> "_RollFacts":
        """``_roll_facts`` worked out from ``state`` and ``roll`` alone (nothing carried)."""
        upgoer = state.find("upgoer", roll.upgoer)
        helpers: tuple[Derp, ...] = ()
        if roll.helpable and upgoer is not None:
            helpers = tuple(d for d in self._crew(state, upgoer)
                            if d.awake and (d.current_stamina > 0 or d.id == roll.free_help))
        return _RollFacts(upgoer, helpers, frozenset(d.id for d in helpers), {})

    def _roll_candidates(self, state: GameState, roll: PendingRoll) -> list[Action]:
        if roll.previous is not None:
            return [KeepRoll(True), KeepRoll(False)]
        out: list[Action] = [AcceptRoll()]
        for derp in self._helpers(state, roll):
            out += [UseSkill(derp.id, "engineering"), UseSkill(derp.id, "piloting")]
        upgoer = state.find("upgoer", roll.upgoer)
        if upgoer is not None and roll.helpable:
            out += [UseRcsBoost(i.id) for i in self._modules(state, upgoer, "rcs") if (i.uses_left or 0) > 0]
        out.append(UseLuck())
        return out

    def _roll_action_ok(self, state: GameState, roll: PendingRoll, action: Action) -> Optional[str]:
        """Why a mid-roll choice is not allowed, or None."""
        if roll.previous is not None:
            return None if isinstance(action, KeepRoll) else "first keep the old or the new roll"
        if isinstance(action, KeepRoll):
            return "there is no reroll to choose from"
        if isinstance(action, AcceptRoll):
            return None
        facts = self._roll_facts(state, roll)
        outcome = facts.outcome(roll)
        upgoer = facts.upgoer
        owner = state.programs[upgoer.owner] if upgoer else None
        if isinstance(action, UseLuck):
            if owner is None or owner.luck < 1:
                return "no luck points left"
            if outcome is Outcome.OK:
                return "the roll already worked"
            return None
        if not roll.helpable:
            return "nobody can help with this roll"
        if isinstance(action, UseSkill):
            derp = state.find("derp", action.derp) if action.derp in facts.helper_ids else None
            if derp is None:
                return "only a healthy derp aboard with stamina left can help"
            if action.skill not in (ENGINEERING, PILOTING):
                return "derps help with engineering or piloting"
            if action.skill not in facts.skill_refusals:
                facts.skill_refusals[action.skill] = skills.refusal(self.table.skills, roll.value, roll.rating,
                                                                    roll.help, action.skill)
            why = facts.skill_refusals[action.skill]
            if why is not None:
                return why
            if self._skill_amount(state, derp, action.skill) < 1:
                return f"{derp.name} has no {action.skill.capitalize()}"
            return None
        if isinstance(action, UseRcsBoost):
            item = state.find("item", action.item)
            if item is None or upgoer is None or item.location != upgoer.id or (item.uses_left or 0) < 1 or item.disabled:
                return "that RCS has no use left aboard"
            if outcome is not Outcome.FAIL:
                return "an RCS boost turns a Fail towards OK; this roll is not a Fail"
            return None
        return f"'{action}' cannot be done in the middle of a roll"

    def _check_roll_action(self, state: GameState, roll: PendingRoll, action: Action) -> None:
        """Raise IllegalAction (the reason) when ``action`` is refused during ``roll``: once this passes,
        ``_apply_roll_action`` never refuses it."""
        if roll.value is None:
            if not isinstance(action, Roll):
                raise IllegalAction("the dice must be rolled first")
            if action.value not in self._dice_values(state.setup.dice, roll.dice_sets):
                raise IllegalAction(f"{action.value} cannot come up on this roll")
            return
        why = self._roll_action_ok(state, roll, action)
        if why is not None:
            raise IllegalAction(why)

    def _apply_roll_action(self, state: GameState, action: Action, settle: bool = False) -> GameState:
        """The roll's die or its owner's choice played out in one copy of the state; with ``settle``, a roll that
        is then left with nothing to decide is settled in that same copy (``_drive`` would settle it next)."""
        roll: PendingRoll = state.flight.roll
        self._check_roll_action(state, roll, action)
        if roll.value is None:
            if roll.previous is not None:
                return self._set(state, roll=update(roll, value=action.value))
            roll = update(roll, value=action.value)
            return self._rolled(state, roll, (self._roll_event(state, roll),), None, settle)
        upgoer = state.upgoer(roll.upgoer)
        if isinstance(action, AcceptRoll):
            return self._settle(state)
        if isinstance(action, KeepRoll):
            value = roll.value if action.new else roll.previous
            roll = update(roll, value=value, previous=None)
            moved = f", moved to {roll.judged_value()} by the help already spent" if roll.moved else ""
            said = Event(f"Keeping the {'new' if action.new else 'old'} roll: {value}{moved} "
                         f"({roll.outcome().label}).", upgoer.owner, "roll")
            return self._rolled(state, roll, (said,), None, settle)
        if isinstance(action, UseLuck):
            program = state.programs[upgoer.owner]
            said = Event(f"{program.name} spends a luck point to reroll.", upgoer.owner, "roll")
            return _with_flight(state, {"roll": update(roll, previous=roll.value, value=None)}, (said,), None,
                                {"programs": programs_with(state, update(program, luck=program.luck - 1))})
        if isinstance(action, UseSkill):
            derp = state.derp(action.derp)
            paid = derp.id == roll.free_help  # with the stamina point that worked the payload (2013)
            others = None
            if paid:
                roll = update(roll, free_help=None)
            else:
                others = {"derps": replace_in(state.derps, [update(derp, current_stamina=derp.current_stamina - 1)])}
            amount = self._skill_amount(state, derp, action.skill)  # the same after the spend (stamina only)
            after = self.roll_after_help(roll, action.skill, amount)
            said = Event.told(_skill_words, (derp.name, paid, action.skill, amount, roll, after, self.table.skills),
                              upgoer.owner, "roll")
            return self._rolled(state, after, (said,), others, settle)
        if isinstance(action, UseRcsBoost):
            item = state.item(action.item)
            items = replace_in(state.items, [update(item, uses_left=(item.uses_left or 0) - 1)])
            bonus = self.rules.components.rcs_piloting_bonus
            after = self.roll_after_help(roll, PILOTING, bonus)
            said = Event.told(_rcs_words, (bonus, roll, after, self.table.skills), upgoer.owner, "roll")
            return self._rolled(state, after, (said,), {"items": items}, settle)
        raise IllegalAction(f"'{action}' cannot be done in the middle of a roll")

    def _rolled(self, state: GameState, roll: PendingRoll, said: tuple[Event, ...], others: Optional[dict],
                settle: bool) -> GameState:
        """``state`` with ``roll`` pending, ``said`` told and ``others`` (fields of the state) changed, in one
        copy; with ``settle``, a roll that then needs no decision is settled from that same copy, as ``_drive``
        would settle it next (nothing else stands before it there: no coin, no consequence to choose)."""
        f: FlightPhase = state.flight
        if settle and roll.previous is None and not f.timing_tie and f.choice is None:
            outcome = roll.outcome()
            if outcome is Outcome.OK:
                return self._settle(state, roll, said, others, outcome)
        return _with_flight(state, {"roll": roll}, said, None, others)

    def _skill_amount(self, state: GameState, derp: Derp, skill: str) -> int:
        """The points one stamina point of ``skill`` is worth (Piloting with the Positioning System bonus)."""
        return derp.engineering if skill == ENGINEERING else self.piloting(state, derp)

    def roll_after_help(self, roll: PendingRoll, skill: str, amount: int) -> PendingRoll:
        """The rolled ``roll`` after one spend of ``amount`` points of ``skill`` (``skills.spend``); an RCS
        boost is Piloting. Check ``refusal`` first: this does not judge whether the spend is allowed."""
        help = skills.spend(self.table.skills, roll.value, roll.rating, roll.help, skill, amount)
        return update(roll, moved=help.moved, fail_raise=help.fail_raise, boom_raise=help.boom_raise)

    def help_plan(self, state: GameState, roll: PendingRoll, derps: Optional[Iterable[str]] = None,
                  rcs_boosts: Optional[int] = None, luck: int = 0,
                  stamina: Optional[dict[str, int]] = None) -> HelpPlan:
        """The help this crew can give ``roll``: every stamina point of each helping derp (of ``derps`` if
        given; at most ``stamina[derp]`` points if given) counted once, the RCS uses aboard (or
        ``rcs_boosts``), and ``luck`` rerolls."""
        return self._help_plan(state, roll, derps, rcs_boosts, luck, stamina)[0]

    def _help_plan(self, state: GameState, roll: PendingRoll, derps, rcs_boosts, luck, stamina):
        """The plan, with the derps and the RCS items it stands for."""
        helpers = [d for d in self._helpers(state, roll) if (derps is None or d.id in derps)
                   and (stamina is None or stamina.get(d.id, 0) > 0)]
        # a derp's stamina points, and one more on a payload roll whose use paid for a skill (2013)
        points = {d.id: d.current_stamina + (1 if d.id == roll.free_help else 0) for d in helpers}
        crew = tuple(Helper(d.engineering, self.piloting(state, d),
                            points[d.id] if stamina is None else min(points[d.id], stamina[d.id]))
                     for d in helpers)
        upgoer = state.find("upgoer", roll.upgoer)
        rcs = [i for i in self._modules(state, upgoer, "rcs") if (i.uses_left or 0) > 0 and not i.disabled] \
            if upgoer is not None and roll.helpable else []
        if rcs_boosts is None:
            rcs_boosts = sum(i.uses_left or 0 for i in rcs)
        plan = HelpPlan(crew, rcs_boosts, self.rules.components.rcs_piloting_bonus, luck, self.table.skills)
        return plan, helpers, rcs

    def best_help(self, state: GameState, roll: PendingRoll, stamina: Optional[dict[str, int]] = None,
                  rcs_boosts: Optional[int] = None) -> tuple[Outcome, tuple[Action, ...]]:
        """The best outcome the crew can still make of a rolled ``roll`` and the fewest spends (as actions) that
        reach it (each derp spending at most ``stamina[derp]`` if given), searched over exactly the spends
        ``_roll_action_ok`` allows."""
        plan, helpers, rcs = self._help_plan(state, roll, None, rcs_boosts, 0, stamina)
        help = roll.help
        outcome, spends = skills.best_help(plan.skills, roll.value, roll.rating, plan.crew, plan.rcs_boosts,
                                           plan.rcs_bonus, help, self._help_memo(plan, roll.rating, help))
        puffs = [i.id for i in rcs for _ in range(i.uses_left or 0)]  # one RCS after another, use by use
        actions: list[Action] = []
        for spent in spends:
            actions.append(UseSkill(helpers[spent.helper].id, spent.skill) if spent.helper is not None
                           else UseRcsBoost(puffs.pop(0)))
        return outcome, tuple(actions)

    def _help_memo(self, plan: HelpPlan, rating, help: skills.Help) -> dict:
        """The memo ``skills.best_help`` shares between searches that may share it: the same skills scheme,
        rating, helpers' skills, RCS bonus and raised safeties (its key holds the rest: the value as moved, or
        the value and help, and the stamina and RCS uses left), so a roll's next spend, and the next roll of a
        part with the same crew, start from what earlier searches worked out (the answers are the same)."""
        group = (plan.skills, rating, tuple([(h.engineering, h.piloting) for h in plan.crew]), plan.rcs_bonus,
                 help.fail_raise, help.boom_raise)
        memo = self._kept_help_memos.get(group)
        if memo is None:
            if len(self._kept_help_memos) >= 256:
                self._kept_help_memos.clear()
            memo = self._kept_help_memos[group] = {}
        return memo

    def _roll_event(self, state: GameState, roll: PendingRoll) -> Event:
        """The die's story: its words put together when first read (``Event.told``; a bot game reads none)."""
        upgoer = state.find("upgoer", roll.upgoer)
        aboard = (state.find("item", i) for i in roll.items)
        names = tuple([self._name(state, item) for item in aboard if item is not None])
        return Event.told(_rolled_words, (upgoer.name if upgoer else "?", names, roll), upgoer.owner if upgoer else None,
                          "roll")

    # ------------------------------------------------------------------ settling
    def _settle(self, state: GameState, roll: Optional[PendingRoll] = None, said: tuple[Event, ...] = (),
                others: Optional[dict] = None, outcome: Optional[Outcome] = None) -> GameState:
        """Apply the pending roll's outcome, then move on to the next queued roll or continuation. ``roll``,
        ``said`` and ``others``: the roll as it now stands, what was told and what else changed since ``state``
        (``_rolled``), all put in the one copy that clears the roll; ``outcome``: the roll's, when just judged."""
        if roll is None:
            roll = state.flight.roll
        if outcome is None:
            outcome = roll.outcome()
        flown = self._flown(state, roll, outcome)  # from the state before: no part's blueprint or owner changed since
        if flown:
            others = dict(others, things=replace_in(state.things, flown)) if others else {
                "things": replace_in(state.things, flown)}
        state = _with_flight(state, {"roll": None}, said, None, others)
        flags: set[str] = set()
        state = self._note_attempt(state, roll, outcome)
        if roll.kind in ("jury_rig",):
            state = self._jury_rig_done(state, roll, outcome)
        elif roll.kind == "temple_search":
            state = self._temple_search_done(state, roll, outcome)
        elif outcome is not Outcome.OK:
            consequence = self.table.consequence(roll.kind)
            effects = consequence.fail if outcome is Outcome.FAIL else consequence.boom
            if outcome is Outcome.BOOM and not consequence.no_boom_penalty:
                state = self._boom_penalty(state, roll)
            for effect in effects:
                state, flag = self._effect(state, roll, effect)
                if flag:
                    flags.add(flag)
        state = self._after_roll(state, roll, outcome, flags)
        f = state.flight
        if f.roll is None and f.rolls:
            state = self._set(state, roll=f.rolls[0], rolls=f.rolls[1:])
        return state

    def _note_attempt(self, state: GameState, roll: PendingRoll, outcome: Outcome) -> GameState:
        """What a settled roll leaves on the record when the edition asks: the step now attempted (for
        flight.yaml's first-attempt penalty) and a flight that has seen a Fail or a Boom (for
        prestige.yaml's mission_awards). A lower stage flying itself home is no part of the mission."""
        attempts = self.table.first_attempt_fail_penalty or self.table.first_attempt_boom_penalty
        if not attempts and (outcome is Outcome.OK or not self.rules.prestige.mission_awards):
            return state  # nothing this edition keeps (2014): the craft is not looked up
        upgoer = state.find("upgoer", roll.upgoer)
        if upgoer is None or roll.kind == "stage_recovery":
            return state
        if attempts:
            program = state.programs[upgoer.owner]
            name = self.board.step(roll.step).name
            if name not in program.attempted:
                state = with_program(state, update(program, attempted=program.attempted | {name}))
        if outcome is not Outcome.OK and not upgoer.troubled and self.rules.prestige.mission_awards:
            state = self._replace_upgoer(state, update(upgoer, troubled=True))
        return state

    def _flown(self, state: GameState, roll: PendingRoll, outcome: Outcome) -> list[Thing]:
        """The blueprints of the rolling parts, now flown (and flown successfully when it worked): those of them
        that change, for the copy of the state that settles the roll."""
        things = []
        for item_id in roll.items:
            item = state.find("item", item_id)
            if item is None:
                continue
            thing = state.thing(item.thing_id)
            if thing.owner != item.owner:
                continue
            if thing.flown and (thing.flown_successfully or outcome is not Outcome.OK):
                continue  # nothing to note (told from the two flags, not by comparing every field)
            things.append(update(thing, flown=True,
                                 flown_successfully=thing.flown_successfully or outcome is Outcome.OK))
        return things

    def _after_roll(self, state: GameState, roll: PendingRoll, outcome: Outcome, flags: set[str]) -> GameState:
        """Where the flight goes once a roll is settled."""
        if "destroyed" in flags:
            # A docked partner's rolls may be waiting after the active craft's: a destroyed craft rolls no more.
            state = self._set(state, rolls=tuple(r for r in state.flight.rolls if r.upgoer != roll.upgoer))
            if state.flight.active == roll.upgoer:
                state = self._set(state, active=None, mode="")
            return state
        if "tower" in flags or "bail_out" in flags:
            return state
        then = roll.then
        if then == "launch_done":
            return self._launch_done(state, roll, outcome, flags)
        if then == "insertion_done":
            return self._insertion_done(state, roll, outcome, flags)
        if then == "burn_done":
            return self._burn_done(self._order_done(state, roll, outcome), roll, outcome, flags)
        if then == "power_up":
            return self._power_up_done(state, roll, outcome)
        if then == "descended":
            upgoer = state.find("upgoer", roll.upgoer)
            if upgoer is None or upgoer.status != "flying":
                return self._set(state, active=None, mode="")
            return self._descended(state, roll)
        if then == "tower_done":
            return self._tower_done(state, roll, outcome)
        if then == "stage_home":
            item = state.find("item", roll.items[0])
            if item is not None:
                if outcome is Outcome.OK and not item.reusable_lost:
                    # Home, its flight is over: the flight's damage goes, as for parts landing with their craft.
                    state = self._replace_items(state, [update(item, location=HOME, reentries=item.reentries + 1,
                                                               flight_fail_penalty=0, flight_boom_penalty=0,
                                                               fixed_rating=None if state.thing(item.thing_id).owner == item.owner
                                                               else item.fixed_rating)])
                    state = self._event(state, f"{self._name(state, item)} flies itself home for reuse.",
                                        None, "flight")
                else:
                    state = self._destroy_items(state, [item.id])
            return state
        if then == "activity":
            return self._activity_done(state, roll, outcome, flags)
        if roll.kind == "stage_recovery" and outcome is not Outcome.OK:
            item = state.find("item", roll.items[0])
            if item is not None:
                state = self._replace_items(state, [update(item, reusable_lost=True)])
        return state


_LUCK = UseLuck()  # the luck reroll asked about first (``_needs_decision``)


def _help_done(before: PendingRoll, after: PendingRoll, scheme: str, skill: str, amount: int) -> str:
    """What one spend of help did to a roll, in words (flight.yaml's skills scheme ``scheme``)."""
    if scheme == skills.MOVE_ROLL:
        return (f"the roll moves from {before.judged_value()} to {after.judged_value()}, "
                f"{after.outcome().label} against {after.effective()}")
    safety = "Boom" if skill == ENGINEERING else "Fail"
    return (f"the {safety} safety rises by {amount}: now {after.effective()}, "
            f"the {after.value} is {after.outcome().label}")


def _skill_words(derp: str, paid: bool, skill: str, amount: int, before: PendingRoll, after: PendingRoll,
                 scheme: str) -> str:
    """A derp's spend of a skill on a roll (``RollPart._apply_roll_action``): put together when first read
    (``Event.told``; a bot game reads none)."""
    spent = ("adds " + skill.capitalize() + " with the stamina point that worked the payload" if paid
             else f"spends a stamina point of {skill.capitalize()}")
    return f"{derp} {spent}: {_help_done(before, after, scheme, skill, amount)}."


def _rcs_words(bonus: int, before: PendingRoll, after: PendingRoll, scheme: str) -> str:
    """An RCS puff on a roll (``RollPart._apply_roll_action``), put together when first read."""
    return f"An RCS puff adds {bonus} Piloting: {_help_done(before, after, scheme, PILOTING, bonus)}."


def boom_told(event: Event) -> Optional[bool]:
    """Whether ``event``, a die's story (``RollPart._roll_event``) not yet read, tells a Boom: asked of the roll it
    tells of, without putting its words together (they end ": Boom." exactly then); None for any other event, or a
    story already read (then its words tell)."""
    parts = event.told_by(_rolled_words)
    return None if parts is None else parts[2].outcome() is Outcome.BOOM


def _rolled_words(craft: str, names: tuple[str, ...], roll: PendingRoll) -> str:
    """A die's story (``RollPart._roll_event``): the rolled ``roll`` against its rating as it then stood."""
    rating = roll.effective()
    return (f"{craft}: {roll.kind.replace('_', ' ')} roll for {', '.join(names)} - rolled {roll.value} against "
            f"Fail {rating.fail} / Boom {rating.boom}: {roll.outcome().label}.")


@dataclasses.dataclass
class _RollFacts:
    """The craft rolling, the derps who may help (and their ids), and each skill's refusal, for one rolled roll."""

    upgoer: Optional[Upgoer]
    helpers: tuple[Derp, ...]
    helper_ids: frozenset[str]
    skill_refusals: dict[str, Optional[str]]
    _outcome: Optional[Outcome] = None

    def outcome(self, roll: PendingRoll) -> Outcome:
        if self._outcome is None:
            self._outcome = roll.outcome()
        return self._outcome
