"""Cosmoforce's rules are pure: its rules package never imports pygame or ``random`` (the app rolls the dice).

Checked twice: a scan of every import in the package's source, and a fresh interpreter that refuses those
modules, imports the whole package and plays a fight's first moves.
"""
from __future__ import annotations

import ast
import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "game" / "games" / "cosmoforce" / "rules"
FORBIDDEN = {"pygame", "pygame_gui", "random"}


def test_no_rules_module_names_pygame_or_random():
    modules = sorted(PACKAGE.glob("*.py")) + [ROOT / "game" / "core" / "effective_dice.py"]  # its dice live in core
    assert {"engine.py", "effective_dice.py", "tables.py", "state.py", "actions.py"} <= {p.name for p in modules}
    bad = []
    for path in modules:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else \
                [node.module or ""] if isinstance(node, ast.ImportFrom) and node.level == 0 else []
            bad += [f"{path.name}:{node.lineno}: {name}" for name in names if name.split(".")[0] in FORBIDDEN]
    assert bad == []


FRESH = textwrap.dedent("""
    import importlib, pkgutil, sys

    class Refuse:
        def find_spec(self, name, path=None, target=None):
            if name.split(".")[0] in ("pygame", "pygame_gui", "random"):
                raise ImportError(f"the Cosmoforce rules must not import {name}")
            return None

    for mod in ("random", "pygame", "pygame_gui"):
        sys.modules.pop(mod, None)
    sys.meta_path.insert(0, Refuse())
    import game.games.cosmoforce.rules as package
    for info in pkgutil.walk_packages(package.__path__, "game.games.cosmoforce.rules."):
        importlib.import_module(info.name)
    from game.games.cosmoforce.rules.engine import Engine
    from game.games.cosmoforce.rules.tables import load_rules
    from game.games.cosmoforce.rules.state import PlayerSetup, Setup
    engine = Engine(load_rules())
    ships = engine.rules.ships.ships
    state = engine.new_game(Setup((PlayerSetup("A", (ships[0].design(),)), PlayerSetup("B", (ships[2].design(),)))))
    state = engine.apply(state, engine.legal_actions(state)[0])
    leaked = sorted(m for m in sys.modules if m.split(".")[0] in ("pygame", "pygame_gui", "random"))
    assert not leaked, leaked
    print("OK")
""")


def test_the_rules_import_and_play_without_pygame_or_random():
    result = subprocess.run([sys.executable, "-c", FRESH], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "OK"
