"""Cosmoforce's values: the setup, the ships as they fight, what is pending, and the game state.

Everything is frozen. A ship is named by its index in ``GameState.ships`` and a system by its slot on
that ship's roster, so actions stay small (``FireWeapons("laser", 2, target=3)``).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional, Union

#: Longest names the new-game screen accepts (saves are checked against them too).
PLAYER_NAME_MAX = 24
SHIP_NAME_MAX = 24
MAX_PLAYERS = 6
MAX_SHIPS_PER_PLAYER = 4


# ---------------------------------------------------------------- setup
@dataclass(frozen=True)
class ShipDesign:
    """A ship as built on its roster: a class and up to ten system slots (system ids, in slot order)."""

    name: str
    ship_class: str
    systems: tuple[str, ...]


@dataclass(frozen=True)
class PlayerSetup:
    name: str
    ships: tuple[ShipDesign, ...]
    human: bool = True
    colour: str = "#f2a7c3"
    team: int = 0  # only read in a team game

    def __post_init__(self) -> None:
        if not isinstance(self.ships, tuple):
            raise TypeError("ships must be a tuple of ShipDesign")


@dataclass(frozen=True)
class Setup:
    """Who fights with which ships; a team game when ``teams`` (else every player for themselves).

    ``round_limit``: after that many rounds the ships disengage and nobody wins (None: fight on).
    """

    players: tuple[PlayerSetup, ...]
    teams: bool = False
    round_limit: Optional[int] = 20

    @property
    def turn_limit(self) -> Optional[int]:
        """The shared game header calls a game's rounds turns."""
        return self.round_limit


# ---------------------------------------------------------------- the fight
@dataclass(frozen=True)
class Player:
    """A seat at the table as the shared scenes see it (they call seats programs)."""

    index: int
    name: str
    colour: str
    human: bool
    team: int


@dataclass(frozen=True)
class SystemState:
    """One slot of a roster: which system, its damage marks, and whether it is destroyed or spent."""

    kind: str
    damage: int = 0
    destroyed: bool = False
    spent: bool = False  # a missile rack that has fired

    @property
    def damaged(self) -> bool:
        return self.damage > 0 or self.destroyed

    @property
    def working(self) -> bool:
        """Usable for actions: undamaged (and a weapon not spent)."""
        return not self.damaged and not self.spent


@dataclass(frozen=True)
class ShipState:
    index: int
    owner: int
    side: int  # the owner in a free-for-all, the team in a team game
    name: str
    ship_class: str
    mass: int
    crew_max: int
    systems: tuple[SystemState, ...]
    crew_ready: int
    crew_hurt: int
    speed: int
    heat: int
    edge: int = 0  # hundredths of speed won in tie-breaks
    eliminated: bool = False

    @property
    def crew(self) -> int:
        return self.crew_ready + self.crew_hurt

    @property
    def standing(self) -> bool:
        return not self.eliminated

    @property
    def speed_hundredths(self) -> int:
        """The ship's speed number (speed plus 0.01 per tie-break die) in hundredths: what orders turns."""
        return self.speed * 100 + self.edge

    @property
    def speed_text(self) -> str:
        return f"{self.speed}.{self.edge:02d}" if self.edge else str(self.speed)

    def working_count(self, kinds: tuple[str, ...]) -> int:
        return sum(1 for s in self.systems if s.kind in kinds and s.working)

    def mounted_count(self, kinds: tuple[str, ...]) -> int:
        """Systems of ``kinds`` still mounted (damaged or not, but not destroyed)."""
        return sum(1 for s in self.systems if s.kind in kinds and not s.destroyed)


# ---------------------------------------------------------------- what is pending
@dataclass(frozen=True)
class PendingRoll:
    """Dice to roll before play goes on. ``mass`` is set for a shooting roll (the kept dice must fit in it)."""

    purpose: str  # tie_break, afterburner, strafe, fire, precision, heal, repair, heat
    ship: int
    dice: int
    target: Optional[int] = None
    system: Optional[int] = None
    mass: Optional[int] = None
    weapon: str = ""


@dataclass(frozen=True)
class PendingDamage:
    """``hits`` hits on ``ship``, which its owner places one by one on systems not destroyed."""

    ship: int
    hits: int
    source: int


@dataclass(frozen=True)
class PendingTrim:
    """An afterburner roll gave ``moves`` extra speed changes of +1 or -1 for ``ship`` to choose."""

    ship: int
    moves: int


@dataclass(frozen=True)
class PendingRepair:
    """A repair roll gave ``marks`` damage marks for ``ship``'s crew to remove, one at a time."""

    ship: int
    marks: int


Step = Union[PendingRoll, PendingDamage, PendingTrim, PendingRepair]


@dataclass(frozen=True)
class Event:
    """A line of the story: what happened, whose it was (a player's index) and what kind of line it is."""

    text: str
    program: Optional[int] = None
    kind: str = "info"  # turn, roll, damage, death, heat, ceasefire, over, info


@dataclass(frozen=True)
class Outcome:
    """How a fight ended: the winning players (none after a ceasefire or at the round limit) and why."""

    winners: tuple[int, ...]
    reason: str
    side: Optional[int] = None


@dataclass(frozen=True)
class GameState:
    """A fight between ``ships``. ``turn`` counts rounds; ``phase`` is tie_break (ordering the ships at the
    start of a round), execution (each ship's turn in ``order``), aftermath, or over.

    ``steps`` are what must be settled before play goes on (a roll, hits to place, ...), first one first.
    """

    setup: Setup
    players: tuple[Player, ...]
    ships: tuple[ShipState, ...]
    turn: int = 1
    phase: str = "tie_break"
    order: tuple[int, ...] = ()
    position: int = 0  # whose turn in ``order`` (execution) or whose aftermath (aftermath)
    actions_left: int = 0
    fired: bool = False
    strafed: bool = False
    steps: tuple[Step, ...] = ()
    ceasefire: frozenset[int] = frozenset()  # players who offered a ceasefire this round
    events: tuple[Event, ...] = ()
    result: Optional[Outcome] = None

    @property
    def programs(self) -> tuple[Player, ...]:
        """The shared scenes (save, story, pass the device) call the seats programs."""
        return self.players

    @property
    def acting_ship(self) -> Optional[ShipState]:
        """The ship whose turn it is (execution phase only)."""
        if self.phase != "execution" or self.position >= len(self.order):
            return None
        return self.ships[self.order[self.position]]

    @property
    def step(self) -> Optional[Step]:
        return self.steps[0] if self.steps else None

    def ships_of(self, player: int) -> tuple[ShipState, ...]:
        return tuple(s for s in self.ships if s.owner == player)

    def enemies_of(self, ship: ShipState) -> tuple[ShipState, ...]:
        """Ships still fighting on another side."""
        return tuple(s for s in self.ships if s.standing and s.side != ship.side)

    def sides_standing(self) -> tuple[int, ...]:
        return tuple(sorted({s.side for s in self.ships if s.standing}))
