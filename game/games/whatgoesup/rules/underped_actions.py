"""Actions of the optional underped (robotic) rules: programming a system at home, and in flight powering it
down or up, a derp handing it stamina, self-destructing a craft whose systems are spent, and the clockwork
orders an underped craft follows."""
from __future__ import annotations

from dataclasses import dataclass

from game.games.whatgoesup.rules.actions import Action, register


@register
@dataclass(frozen=True)
class Program(Action):
    """R&D: program an underped system, +1 stamina per resource point (allowed while it waits on the pad)."""

    derp: str
    points: int = 1

    def __str__(self) -> str:
        return f"program {self.derp} +{self.points} stamina"


@register
@dataclass(frozen=True)
class PowerDown(Action):
    """A system powers itself down (in a stable orbit its craft then skips its duration rolls)."""

    derp: str

    def __str__(self) -> str:
        return f"power {self.derp} down"


@register
@dataclass(frozen=True)
class PowerUp(Action):
    """A powered-down system with stamina left spends it and makes a reliability check to power up."""

    derp: str

    def __str__(self) -> str:
        return f"power {self.derp} up"


@register
@dataclass(frozen=True)
class GiveStamina(Action):
    """A derp hands a system aboard (or aboard a docked craft) some of their stamina."""

    derp: str
    system: str

    def __str__(self) -> str:
        return f"{self.derp} gives {self.system} stamina"


@register
@dataclass(frozen=True)
class SelfDestruct(Action):
    """An underped craft whose systems can no longer act destroys itself rather than drift stranded."""

    upgoer: str

    def __str__(self) -> str:
        return f"self-destruct {self.upgoer}"


@register
@dataclass(frozen=True)
class WriteOrders(Action):
    """Clockwork: the burns (their destinations, in order) an underped craft on the pad, or recharged in flight,
    will make."""

    upgoer: str
    burns: tuple[str, ...] = ()

    def __str__(self) -> str:
        return f"write orders for {self.upgoer}: {', '.join(self.burns) or 'none'}"


@register
@dataclass(frozen=True)
class AbortOrders(Action):
    """Clockwork: after a failed burn, give up the rest of the written orders (the craft coasts on)."""

    upgoer: str

    def __str__(self) -> str:
        return f"{self.upgoer} aborts its orders"
