"""Regenerate every golden file on purpose, then say what changed. The tests never write them.

    python -m tests.golden.regenerate

runs the three generators (make_story.py: story.json, make_rock_win.py: rock_win.json,
make_rnd_game.py: rnd_game.txt) and reports, for each save, whether its actions are byte-identical
to the ones it replaces and which other fields changed; then `git diff --stat tests/golden`. Read the
diff before committing: after a change that only touches the rules' fingerprint (or the save format),
the actions must not move. Exit status 1 when a save's actions changed, so a script notices too.
"""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(ROOT))

import make_rnd_game  # noqa: E402
import make_rock_win  # noqa: E402
import make_story  # noqa: E402

SAVES = {"story.json": lambda: make_story.main(), "rock_win.json": lambda: make_rock_win.main([])}


def _read(path: Path) -> dict | None:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


def _actions_text(document: dict | None) -> str:
    """The actions exactly as the file writes them (indent 1, as the generators write)."""
    return json.dumps((document or {}).get("actions"), indent=1, ensure_ascii=False)


def main() -> int:
    moved = []
    for name, generate in SAVES.items():
        path = HERE / name
        before = _read(path)
        generate()
        after = _read(path)
        changed = sorted(k for k in set(before or {}) | set(after or {})
                         if k != "actions" and (before or {}).get(k) != (after or {}).get(k))
        same = _actions_text(before) == _actions_text(after)
        count = len((after or {}).get("actions") or [])
        print(f"{name}: {count} actions, {'unchanged' if same else 'CHANGED'}; "
              f"other fields changed: {', '.join(changed) or 'none'}")
        if not same:
            moved.append(name)
    make_rnd_game.main()
    diff = subprocess.run(["git", "diff", "--stat", "--", str(HERE)], cwd=ROOT, capture_output=True, text=True)
    print(diff.stdout.rstrip() or "git diff: no golden file changed")
    if moved:
        print(f"the actions of {', '.join(moved)} changed: read the diff and the story before committing")
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
