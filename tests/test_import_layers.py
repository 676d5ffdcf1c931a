"""The layers of ``game/`` and their one-way arrows (docs/architecture.md).

Every import of every module counts, at module level or inside a function (a lazy import is still an
arrow). From the bottom up:

    game.core                      shared by every game: the engine interface, dice, sessions, saves, tables
    game.games.<g>.rules           one game's pure rules engine
    game.games.<g>                 that game's players and harnesses (bots, plans, simulate)
    game.client.kit                drawing kit: text, cards, markers, colours, theme
    game.client.shell              the app: window, scene stack, settings, sound
    game.client.scenes             scenes every game shares (title, settings, saves, story, dice, pass the device)
    game.client.<g>                one game's scenes
    game.client.launch             the client's top: the scene table and the hosted games
    game.tools                     screenshots and benchmarks, which the game never imports
    game.cli                       the command line

A module may import its own layer or any layer below it, never one above; the shared layers (core, kit,
shell, scenes) import no game; one game never imports another; and there are no circles at all.
"""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
GAME = ROOT / "game"
SHARED_CLIENT = ("kit", "shell", "scenes")


def module_files() -> dict[str, Path]:
    mods = {}
    for path in GAME.rglob("*.py"):
        parts = list(path.relative_to(ROOT).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        mods[".".join(parts)] = path
    return mods


MODULES = module_files()


def imports_of(name: str, tree: ast.AST) -> set[str]:
    """The game modules ``name`` imports (relative imports resolved; ``from pkg import mod`` counts as mod)."""
    package = name if MODULES[name].name == "__init__.py" else name.rsplit(".", 1)[0]
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.module == "__future__":
                continue
            if node.level:
                base = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                prefix = ".".join(base + ([node.module] if node.module else []))
            else:
                prefix = node.module or ""
            targets = [prefix] + [f"{prefix}.{alias.name}" for alias in node.names]
        else:
            continue
        for target in targets:
            while target and target not in MODULES:
                target = target.rsplit(".", 1)[0] if "." in target else ""
            if target and target != name and MODULES[target].name != "__init__.py":
                found.add(target)
    return found


GRAPH = {name: imports_of(name, ast.parse(path.read_text(encoding="utf-8"))) for name, path in MODULES.items()}


def layer(name: str) -> tuple[int, str | None]:
    """(rank from the bottom, the game it belongs to or None for shared code)."""
    parts = name.split(".")
    if parts[:2] == ["game", "core"]:
        return 0, None
    if parts[:2] == ["game", "games"] and len(parts) >= 3:
        return (1 if len(parts) >= 4 and parts[3] == "rules" else 2), parts[2]
    if parts[:2] == ["game", "client"] and len(parts) >= 3:
        if parts[2] in SHARED_CLIENT:
            return 3 + SHARED_CLIENT.index(parts[2]), None
        if parts[2] == "launch":
            return 7, None
        return 6, parts[2]
    if parts[:2] == ["game", "tools"]:
        return 8, None
    if name == "game.cli":
        return 9, None
    raise AssertionError(f"{name} is in no layer: put it in one (and in docs/architecture.md)")


def arrow_problem(source: str, target: str) -> str | None:
    (low, own), (high, theirs) = layer(source), layer(target)
    if high > low:
        return f"{source} imports {target}, a layer above it"
    if theirs is not None and own is None and low in (0, 3, 4, 5):
        return f"{source} is shared by every game but imports {target}, which belongs to {theirs}"
    if own is not None and theirs is not None and own != theirs:
        return f"{source} (game {own}) imports {target} (game {theirs}): games never import each other"
    return None


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = [0]

    def visit(v: str) -> None:
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on_stack.add(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_every_layer_has_modules():
    """The scan sees the whole tree (a typo in a path would make every other test pass vacuously)."""
    ranks = {layer(name)[0] for name in GRAPH if MODULES[name].name != "__init__.py"}
    assert ranks == set(range(10)), sorted(ranks)
    assert sum(len(targets) for targets in GRAPH.values()) > 200


def test_no_import_circles():
    assert circles(GRAPH) == []


def test_arrows_point_down():
    problems = sorted(filter(None, (arrow_problem(s, t) for s, targets in GRAPH.items() for t in targets)))
    assert problems == []


def test_the_game_never_imports_the_tools():
    """Screenshot and benchmark code is only reached from the command line (``main.py shots``/``bench``)."""
    users = sorted(s for s, targets in GRAPH.items() for t in targets
                   if t.startswith("game.tools") and not (s.startswith("game.tools") or s == "game.cli"))
    assert users == []


@pytest.mark.parametrize("source,target,why", [
    ("game.core.saves", "game.games.whatgoesup.rules.engine", "a layer above"),
    ("game.client.scenes.saveload", "game.games.whatgoesup.rules.engine", "shared by every game"),
    ("game.games.whatgoesup.rules.engine", "game.games.whatgoesup.bots", "a layer above"),
    ("game.client.kit.draw", "game.client.scenes.title", "a layer above"),
    ("game.client.scenes.logview", "game.client.whatgoesup.explain", "a layer above"),
    ("game.client.whatgoesup.field", "game.client.launch", "a layer above"),
    ("game.client.cosmoforce.board", "game.client.whatgoesup.field", "games never import each other"),
    ("game.games.whatgoesup.rules.engine", "game.client.kit.draw", "a layer above"),
])
def test_the_checks_catch_wrong_arrows(source, target, why):
    """Each kind of wrong arrow is reported (the checks themselves can fail)."""
    problem = arrow_problem(source, target)
    assert problem is not None and why in problem


def test_the_circle_finder_finds_circles():
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
