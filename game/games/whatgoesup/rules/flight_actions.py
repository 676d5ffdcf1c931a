"""Actions of the flight phase: launch decisions, movement, mid-roll choices and activities."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from game.games.whatgoesup.rules.actions import ACTIONS, Action, register
from game.games.whatgoesup.rules.limits import UPGOER_NAME_MAX


@register
@dataclass(frozen=True)
class Launch(Action):
    upgoer: str

    def __str__(self) -> str:
        return f"launch {self.upgoer}"


@register
@dataclass(frozen=True)
class Hold(Action):
    """Keep an Upgoer on the pad this turn."""

    upgoer: str

    def __str__(self) -> str:
        return f"keep {self.upgoer} on the pad"


@register
@dataclass(frozen=True)
class Wait(Action):
    """Let the others go first (timing rules)."""

    upgoer: str

    def __str__(self) -> str:
        return f"{self.upgoer} waits for the others"


@register
@dataclass(frozen=True)
class Move(Action):
    """Finish the activities before moving and set off along the rail."""

    upgoer: str

    def __str__(self) -> str:
        return f"{self.upgoer} moves on"


@register
@dataclass(frozen=True)
class Burn(Action):
    """Burn at the current junction onto the rail leading to ``to`` (with RCS if ``rcs``)."""

    to: str
    rcs: bool = False

    def __str__(self) -> str:
        return f"burn to {self.to}{' with RCS' if self.rcs else ''}"


@register
@dataclass(frozen=True)
class Coast(Action):
    """Do not burn here; keep following the rail."""

    def __str__(self) -> str:
        return "coast on"


@register
@dataclass(frozen=True)
class UseSkill(Action):
    """Spend a point of a derp's stamina: Engineering moves a Boom toward Fail, Piloting a Fail toward OK."""

    derp: str
    skill: str

    def __str__(self) -> str:
        return f"{self.derp} uses {self.skill}"


@register
@dataclass(frozen=True)
class UseRcsBoost(Action):
    """Spend one use of an RCS for a Piloting bonus on this roll."""

    item: str

    def __str__(self) -> str:
        return f"RCS {self.item} steadies the roll"


@register
@dataclass(frozen=True)
class UseLuck(Action):
    def __str__(self) -> str:
        return "spend a luck point to reroll"


@register
@dataclass(frozen=True)
class KeepRoll(Action):
    """After a luck reroll: keep the new result or the old one."""

    new: bool = True

    def __str__(self) -> str:
        return "keep the new roll" if self.new else "keep the old roll"


@register
@dataclass(frozen=True)
class AcceptRoll(Action):
    def __str__(self) -> str:
        return "accept the result"


@register
@dataclass(frozen=True)
class ChooseConsequence(Action):
    option: str

    def __str__(self) -> str:
        return f"choose: {self.option.replace('_', ' ')}"


@register
@dataclass(frozen=True)
class EndActivities(Action):
    upgoer: str

    def __str__(self) -> str:
        return f"{self.upgoer} is done for this turn"


@register
@dataclass(frozen=True)
class Dock(Action):
    target: str
    derp: str
    method: str = "rcs"  # rcs or winch

    def __str__(self) -> str:
        return f"{self.derp} docks with {self.target} ({self.method})"


@register
@dataclass(frozen=True)
class Undock(Action):
    target: str

    def __str__(self) -> str:
        return f"undock from {self.target}"


@register
@dataclass(frozen=True)
class Transfer(Action):
    """Move crew, parts, fuel or rations between two docked craft."""

    source: str
    target: str
    derps: tuple[str, ...] = ()
    items: tuple[str, ...] = ()
    fuel: int = 0
    rations: int = 0

    def __str__(self) -> str:
        return f"transfer from {self.source} to {self.target}"


@register
@dataclass(frozen=True)
class Eva(Action):
    """A derp goes outside to another craft at the same step, carrying up to one mass.

    With ``carry_derp`` the healthy ``derp`` instead helps an injured comrade (aboard this craft or
    ``target``) across to the other craft in an EVA suit; the helper stays where they are.
    """

    derp: str
    target: str
    carry_item: Optional[str] = None
    carry_rations: int = 0
    come_back: bool = False
    carry_derp: Optional[str] = None

    def __str__(self) -> str:
        if self.carry_derp:
            return f"{self.derp} helps {self.carry_derp} across to or from {self.target} on EVA"
        return f"{self.derp} goes on EVA to {self.target}"


@register
@dataclass(frozen=True)
class JuryRig(Action):
    derp: str
    item: str

    def __str__(self) -> str:
        return f"{self.derp} jury-rigs {self.item}"


@register
@dataclass(frozen=True)
class UsePayload(Action):
    derp: str
    item: str

    def __str__(self) -> str:
        return f"{self.derp} operates {self.item}"


@register
@dataclass(frozen=True)
class SwitchPayload(Action):
    """A derp goes outside to a Waylight or probe floating by itself (a crewless craft at the same step) and
    switches it on (``on``) or off."""

    derp: str
    item: str
    on: bool = True

    def __str__(self) -> str:
        return f"{self.derp} switches {self.item} {'on' if self.on else 'off'} on an EVA"


@register
@dataclass(frozen=True)
class Shed(Action):
    """Throw parts, fuel or rations overboard to lose mass."""

    items: tuple[str, ...] = ()
    fuel: int = 0
    rations: int = 0

    def __str__(self) -> str:
        return "shed mass"


@register
@dataclass(frozen=True)
class Separate(Action):
    """Split the active craft in two where craft can meet: ``modules`` (with ``crew``, ``fuel`` and ``rations``)
    become a new craft called ``name``, docked to the rest ("launch docked craft and undock them later")."""

    modules: tuple[str, ...]
    crew: tuple[str, ...] = ()
    fuel: int = 0
    rations: int = 0
    name: str = ""

    def __str__(self) -> str:
        return f"separate {', '.join(self.modules)}" + (f" as '{self.name}'" if self.name else "")


ACTIONS.limit(Separate, "name", max_length=UPGOER_NAME_MAX)


@register
@dataclass(frozen=True)
class Recover(Action):
    """A derp goes outside and brings a part floating on a crewless piece of debris at the same step aboard
    (parts shed beside another craft float there, ready to be recovered)."""

    derp: str
    item: str

    def __str__(self) -> str:
        return f"{self.derp} recovers {self.item} on an EVA"


@register
@dataclass(frozen=True)
class WriteOff(Action):
    upgoer: str

    def __str__(self) -> str:
        return f"write off {self.upgoer}"


@register
@dataclass(frozen=True)
class Track(Action):
    """Keep monitoring a piece of debris (during R&D)."""

    upgoer: str

    def __str__(self) -> str:
        return f"track debris {self.upgoer}"


@register
@dataclass(frozen=True)
class CatchUp(Action):
    """Burn to reach another craft's step on the same orbit; docking is possible from next turn."""

    target: str

    def __str__(self) -> str:
        return f"burn to catch up with {self.target}"


@register
@dataclass(frozen=True)
class Rush(Action):
    """During R&D: a derp aboard spends a stamina point so the craft goes earlier in next flights' order.

    It counts only for the timing order, never for the roll itself.
    """

    upgoer: str
    derp: str
    skill: str = "piloting"

    def __str__(self) -> str:
        return f"{self.derp} rushes {self.upgoer} ({self.skill})"


@register
@dataclass(frozen=True)
class Nudge(Action):
    """Stop The Rock: a craft landed on the rock fires a thruster to push it (fuel spent whatever the roll)."""

    upgoer: str

    def __str__(self) -> str:
        return f"{self.upgoer} nudges the rock"


@register
@dataclass(frozen=True)
class WalkOutside(Action):
    """A derp on a surface goes outside with an EVA pack and comes back (One Small Step)."""

    derp: str

    def __str__(self) -> str:
        return f"{self.derp} walks outside"


@register
@dataclass(frozen=True)
class VisitTemple(Action):
    """Final Destination: a derp with full stamina drives the Cart to the Temple a landing found."""

    derp: str

    def __str__(self) -> str:
        return f"{self.derp} drives to the Temple"


@register
@dataclass(frozen=True)
class Deploy(Action):
    """Set an active Waylight loose in orbit as a beacon of its own (All Your Base)."""

    item: str

    def __str__(self) -> str:
        return f"deploy {self.item} as a beacon"


@register
@dataclass(frozen=True)
class Retag(Action):
    """A derp goes outside to re-tag a rival's unguarded Waylight at the same place (All Your Base)."""

    derp: str
    target: str

    def __str__(self) -> str:
        return f"{self.derp} re-tags the Waylight on {self.target}"


# ---------------------------------------------------------------- Space War (the space_war option)
@register
@dataclass(frozen=True)
class RepelDocking(Action):
    """The defender of a docking against its will fires an RCS to push the other craft off."""

    item: str

    def __str__(self) -> str:
        return f"push the docking off with RCS {self.item}"


@register
@dataclass(frozen=True)
class AllowDocking(Action):
    """The defender gives up resisting: the docking stands."""

    def __str__(self) -> str:
        return "let the docking stand"


@register
@dataclass(frozen=True)
class StartFight(Action):
    """The active craft's healthy derps start a brawl with the derps of ``target`` (at the same step)."""

    target: str

    def __str__(self) -> str:
        return f"start a fight with {self.target}"


@register
@dataclass(frozen=True)
class PickEnemy(Action):
    """In a derp fight, ``derp`` picks the enemy derp it goes for (ganging up allowed)."""

    derp: str
    enemy: str

    def __str__(self) -> str:
        return f"{self.derp} goes for {self.enemy}"
