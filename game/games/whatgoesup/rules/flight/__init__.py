"""Flights on the Field: launch, insertion, movement along the rails, rolls and their consequences.

The flight phase of a turn runs in three stages (launches, orbital insertions, flight steps), each
taking its Upgoers in timing order. Every roll is a ``PendingRoll`` answered by a chance action
(``Roll``); a roll that is not OK waits for the owner's choices (skills, RCS, luck, accept).
What a Fail or a Boom does comes from the flight table's effects; where the craft goes comes from
the board. No step or part is named here.

``FlightRules`` is the one object the engine uses. It is composed of parts, one module each, all built
on ``common.FlightBase`` (the tables, and the small queries and state updates every part shares):

- ``phase``: the engine's questions during flights, and driving the phase through its stages;
- ``launch``: launches, orbital insertions, spent stages, the designs suggested for the pad;
- ``movement``: steps along the rails, burns, coasting, arriving at a duration step;
- ``rolls``: the choices during a roll (skills, RCS, luck), settling it, where the flight goes next;
- ``consequences``: the failure table's effects, the escape tower, injuries and losses;
- ``activities``: the activity menu, jury-rigging, payloads, shedding mass;
- ``rendezvous``: docking, catch-up burns, transfers, EVAs and rescues;
- ``goals``: the activities a scenario or victory offers (nudges, walks, the Temple, Waylights);
- ``landing``: reentry, landing at home, escape, write-off and destruction;
- ``ship_combat``: space war's ship-to-ship fights (one Cosmoforce combat round, parts mapped by YAML);
- ``records``: what flying earns (new steps, prestige firsts, maps);
- ``turn_end``: the end of the flight phase (debris, rations, rest, maps, standing bonuses);
- ``hostilities``: Space War (an option): hostile programs, docking against a craft's will, derp fights, wars.
- ``underped``: the optional robotic crews (systems powering up and down, their stamina, clockwork orders).

The parts call one another through ``self``; each method lives in exactly one part.
"""
from __future__ import annotations

from game.games.whatgoesup.rules.flight.activities import ActivityPart
from game.games.whatgoesup.rules.flight.common import NEVER, FlightBase, FlightPhase, PendingChoice, PendingRoll
from game.games.whatgoesup.rules.flight.consequences import ConsequencePart
from game.games.whatgoesup.rules.flight.goals import GoalPart
from game.games.whatgoesup.rules.flight.hostilities import HostilityPart
from game.games.whatgoesup.rules.flight.landing import LandingPart
from game.games.whatgoesup.rules.flight.launch import LaunchPart
from game.games.whatgoesup.rules.flight.movement import MovementPart
from game.games.whatgoesup.rules.flight.phase import PhasePart
from game.games.whatgoesup.rules.flight.records import RecordsPart
from game.games.whatgoesup.rules.flight.rendezvous import RendezvousPart
from game.games.whatgoesup.rules.flight.rolls import RollPart
from game.games.whatgoesup.rules.flight.ship_combat import ShipCombatPart
from game.games.whatgoesup.rules.flight.turn_end import TurnEndPart
from game.games.whatgoesup.rules.flight.underped import UnderpedPart

__all__ = ["FlightRules", "FlightPhase", "PendingRoll", "PendingChoice", "NEVER"]


class FlightRules(PhasePart, LaunchPart, MovementPart, RollPart, ConsequencePart, ActivityPart, RendezvousPart,
                  GoalPart, LandingPart, RecordsPart, TurnEndPart, HostilityPart, ShipCombatPart, UnderpedPart,
                  FlightBase):
    """The flight phase, plugged into the Engine's questions."""
