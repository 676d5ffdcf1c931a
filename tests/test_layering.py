"""Layering: every game's rules package (game/games/<game>/rules) is pure Python plus PyYAML. It never imports pygame, and never calls ``random``
(the app owns the only seeded RNG; the rules only give exact odds).

(a) a static scan of every module's imports with ``ast``; (b) a fresh interpreter that imports the
package and every submodule with an import hook that refuses pygame and random.
"""
from __future__ import annotations

import ast
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
#: Every game's pure rules package (What Goes Up's, Cosmoforce's, and any game added later).
RULES_PACKAGES = sorted(p for p in (ROOT / "game" / "games").glob("*/rules") if p.is_dir())
FORBIDDEN = {"pygame", "pygame_gui", "random"}
ALLOWED_THIRD_PARTY = {"yaml"}


def rules_modules() -> list[Path]:
    """Every module of every rules package, subpackages (What Goes Up's flight/) included."""
    return sorted(path for package in RULES_PACKAGES for path in package.rglob("*.py"))


def imported_top_names(tree: ast.AST) -> list[tuple[str, int]]:
    """Top-level module names of every absolute import, with line numbers (relative imports skipped)."""
    names = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names += [(alias.name.split(".")[0], node.lineno) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level == 0 and node.module:
                names.append((node.module.split(".")[0], node.lineno))
        elif isinstance(node, ast.Call) and getattr(node.func, "id", getattr(node.func, "attr", None)) in (
                "__import__", "import_module"):
            if node.args and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str):
                names.append((node.args[0].value.split(".")[0], node.lineno))
    return names


def test_there_are_rules_modules_to_check():
    """The scan really looks at the rules packages, the flight parts included."""
    names = {p.relative_to(ROOT / "game" / "games").as_posix() for p in rules_modules()}
    assert {"whatgoesup/rules/engine.py", "whatgoesup/rules/dice.py", "whatgoesup/rules/reliability.py",
            "whatgoesup/rules/formulas.py", "whatgoesup/rules/flight/launch.py"} <= names


@pytest.mark.parametrize("path", rules_modules(), ids=lambda p: p.relative_to(ROOT / "game" / "games").as_posix())
def test_rules_module_imports_only_stdlib_and_yaml(path):
    """Each game/rules module imports only the standard library (never ``random``), PyYAML, and the game
    package itself; never pygame or pygame_gui."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    bad = []
    for name, line in imported_top_names(tree):
        if name in FORBIDDEN:
            bad.append(f"{path.name}:{line}: imports {name}")
        elif name == "game" or name in ALLOWED_THIRD_PARTY or name in sys.stdlib_module_names:
            continue
        else:
            bad.append(f"{path.name}:{line}: imports {name}, which is neither the standard library nor PyYAML")
    assert bad == []


def test_scanner_catches_forbidden_imports():
    """The scanner itself sees plain, dotted, from- and dynamic imports."""
    tree = ast.parse("import random\nfrom pygame import display\nimport pygame_gui.core\n"
                     "import importlib\nimportlib.import_module('random')\nfrom . import dice\n")
    names = [n for n, _ in imported_top_names(tree)]
    assert names.count("random") == 2 and "pygame" in names and "pygame_gui" in names
    assert "dice" not in names


IMPORT_EVERYTHING = textwrap.dedent("""
    import importlib, pkgutil, sys

    class Refuse:
        def find_spec(self, name, path=None, target=None):
            top = name.split(".")[0]
            if top in ("pygame", "pygame_gui", "random"):
                raise ImportError(f"game.rules must not import {name}")
            return None

    for mod in ("random", "pygame", "pygame_gui"):
        sys.modules.pop(mod, None)
    sys.meta_path.insert(0, Refuse())

    import game.games
    names = []
    for game_info in pkgutil.iter_modules(game.games.__path__, "game.games."):
        package = importlib.import_module(game_info.name + ".rules")
        names.append(package.__name__)
        for info in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
            importlib.import_module(info.name)
            names.append(info.name)
    leaked = sorted(m for m in sys.modules if m.split(".")[0] in ("pygame", "pygame_gui", "random"))
    assert not leaked, leaked
    # The rules work without them: load the tables and start a game.
    from game.games.whatgoesup.rules.tables import load_rules
    from game.games.whatgoesup.rules.engine import Engine
    from game.games.whatgoesup.rules.state import PlayerSetup, Setup
    engine = Engine(load_rules())
    state = engine.new_game(Setup(players=(PlayerSetup("A", "rabitians"),)))
    assert engine.legal_actions(state)
    print("OK", len(names))
""")


def test_rules_import_without_pygame_or_random():
    """In a fresh interpreter that refuses pygame and random, every game's rules package and all its submodules
    import, and a What Goes Up game can be started."""
    result = subprocess.run([sys.executable, "-c", IMPORT_EVERYTHING], cwd=ROOT, capture_output=True, text=True,
                            timeout=60)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("OK")
