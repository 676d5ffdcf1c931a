"""The flight rules are one class composed of parts (rules/flight/*.py): every part is in it, and every
method lives in exactly one part, so no part silently replaces another's method through the MRO."""
from __future__ import annotations

import importlib
import inspect
import pkgutil

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
