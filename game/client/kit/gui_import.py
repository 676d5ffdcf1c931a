"""pygame_gui imported without PyYAML, which nothing before the rules load needs."""
from __future__ import annotations

import sys
from contextlib import contextmanager


@contextmanager
def yaml_left_for_the_rules():
    """While inside, an import of PyYAML fails, so pygame_gui's first import (inside) leaves it for the rules.

    pygame_gui translates its words through python-i18n, whose import tries PyYAML to offer YAML translation
    files; pygame_gui reads only its own JSON ones (its UIManager sets i18n's file format to json), so i18n
    without PyYAML behaves the same for it. Importing PyYAML costs the title's first frame ~16 ms of CPU; the
    game imports it when it loads the rules, as before. Does nothing when PyYAML or pygame_gui is already
    imported (tests, tools): an import of PyYAML inside then works as usual.
    """
    if "yaml" in sys.modules or "pygame_gui" in sys.modules:
        yield
        return
    sys.modules["yaml"] = None  # type: ignore[assignment]  # `import yaml` raises ImportError
    try:
        yield
    finally:
        if sys.modules.get("yaml", 0) is None:
            del sys.modules["yaml"]
