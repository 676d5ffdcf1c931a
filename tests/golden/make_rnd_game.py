"""Builds tests/golden/rnd_game.txt: a seeded random-bot game (seed 7, 2 players, 3 turns) as text.

Each line is an action's text form, followed by the texts of the events it produced, so any change in
what the engine offers, decides or says shows up in a diff. tests/test_sim.py compares a fresh
transcript with the file and never writes it. Regenerate after a deliberate rules change, and read the
diff:  python -m tests.golden.regenerate
"""
from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from game.games.whatgoesup.rules.engine import Engine  # noqa: E402
from game.games.whatgoesup.rules.tables import load_rules  # noqa: E402
from game.games.whatgoesup.sim import default_setup, play_game  # noqa: E402

OUT = Path(__file__).with_name("rnd_game.txt")


def transcript(engine, seed: int = 7, players: int = 2, turns: int = 3) -> str:
    """The seeded game's transcript; AssertionError if an invariant breaks along the way."""
    setup = default_setup(engine, players=players, turns=turns)
    lines = [f"# seed {seed}, {players} players, {turns} turns, rules {engine.rules.edition.id}"]
    lines += [f"    {e.text}" for e in engine.new_game(setup).events]

    count = 0

    def record(before, action, after) -> None:
        nonlocal count
        count += 1
        lines.append(f"{count}: {action}")
        lines.extend(f"    {e.text}" for e in after.events)

    result = play_game(engine, setup, seed, max_turns=turns, on_action=record)
    assert result.failure is None, str(result.failure)
    return "\n".join(lines) + "\n"


def main() -> int:
    OUT.write_text(transcript(Engine(load_rules())), encoding="utf-8")
    print(f"wrote {OUT}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
