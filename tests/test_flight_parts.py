"""The flight rules are one class composed of parts (rules/flight/*.py): every part is in it, and every
method lives in exactly one part, so no part silently replaces another's method through the MRO. The
parts the engine binds (flight, rock, victory) never import the engine: it passes itself in."""
from __future__ import annotations

import ast
import importlib
import inspect
import pkgutil
from pathlib import Path

from game.games.whatgoesup.rules import flight
from game.games.whatgoesup.rules.flight import FlightRules
from game.games.whatgoesup.rules.flight.common import FlightBase


def part_classes() -> list[type]:
    """Every FlightBase subclass defined in a module of the flight package, except FlightRules itself."""
    parts = []
    for info in pkgutil.iter_modules(flight.__path__):
        module = importlib.import_module(f"{flight.__name__}.{info.name}")
        for _, cls in inspect.getmembers(module, inspect.isclass):
            if issubclass(cls, FlightBase) and cls.__module__ == module.__name__ and cls is not FlightRules:
                parts.append(cls)
    return parts


def test_every_part_is_composed_into_flight_rules():
    parts = part_classes()
    assert len(parts) >= 10
    assert set(parts) <= set(FlightRules.__mro__)


def test_each_method_lives_in_exactly_one_part():
    owners: dict[str, list[str]] = {}
    for cls in part_classes():
        for name, value in vars(cls).items():
            if callable(value) or isinstance(value, (staticmethod, classmethod)):
                owners.setdefault(name, []).append(cls.__name__)
    twice = {name: classes for name, classes in owners.items() if len(classes) > 1}
    assert twice == {}
    assert {"apply", "legal_actions", "_launch", "_burn", "_settle", "_effect", "_dock", "_land_home"} <= set(owners)


def test_the_parts_the_engine_binds_never_import_it():
    rules = Path(flight.__file__).parents[1]
    paths = sorted((rules / "flight").glob("*.py")) + [rules / "rock.py", rules / "victory.py", rules / "shared.py"]
    importers = []
    for path in paths:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and (node.module or "").endswith("rules.engine"):
                importers.append(f"{path.name}:{node.lineno}")
    assert len(paths) >= 15
    assert importers == []
