"""A fight as plain data and as text, for ``replay --game cosmoforce`` and anyone else who reports on one."""
from __future__ import annotations

from game.games.cosmoforce.rules.engine import Engine
from game.games.cosmoforce.rules.state import GameState


def state_summary(engine: Engine, state: GameState) -> dict:
    ships = []
    for s in state.ships:
        ships.append({
            "index": s.index, "name": s.name, "owner": s.owner, "class": s.ship_class, "mass": s.mass,
            "speed": s.speed_text, "heat": s.heat, "crew_ready": s.crew_ready, "crew_hurt": s.crew_hurt,
            "eliminated": s.eliminated,
            "systems": [{"kind": x.kind, "damage": x.damage, "destroyed": x.destroyed, "spent": x.spent}
                        for x in s.systems],
        })
    summary = {"game": "cosmoforce", "round": state.turn, "phase": state.phase,
               "players": [{"index": p.index, "name": p.name, "team": p.team} for p in state.players],
               "ships": ships}
    outcome = engine.outcome(state)
    if outcome is not None:
        summary["outcome"] = {"winners": list(outcome.winners), "reason": outcome.reason}
    return summary


def _system_text(system: dict) -> str:
    mark = " (destroyed)" if system["destroyed"] else f" ({system['damage']} damage)" if system["damage"] else ""
    return system["kind"] + (" (spent)" if system["spent"] else "") + mark


def summary_text(summary: dict) -> str:
    lines = [f"Round {summary['round']}, phase {summary['phase']}"]
    owners = {p["index"]: p["name"] for p in summary["players"]}
    for s in summary["ships"]:
        status = "out of the fight" if s["eliminated"] else f"speed {s['speed']}, heat {s['heat']}"
        lines.append(f"{s['name']} ({s['class']}, mass {s['mass']}, {owners[s['owner']]}): {status}; crew "
                     f"{s['crew_ready']} ready, {s['crew_hurt']} hurt")
        lines.append("  " + ", ".join(_system_text(x) for x in s["systems"]))
    if "outcome" in summary:
        lines.append(f"Fight over: {summary['outcome']['reason']}")
    return "\n".join(lines)
