"""Safe YAML loading that remembers where every value came from.

Rules files are untrusted, hand-edited input, so every problem must be reported as
``rules/file.yaml:LINE: what is wrong``. PyYAML's composer gives nodes with marks; we
turn them into small ``Node`` values that keep the line, using only the safe loader.
"""
from __future__ import annotations

import difflib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable

import yaml


@dataclass(frozen=True, order=True)
class Problem:
    """One thing wrong with a rules file, at a line (1-based; 0 when the file is missing)."""

    file: str
    line: int
    message: str

    def __str__(self) -> str:
        return f"{self.file}:{self.line}: {self.message}" if self.line else f"{self.file}: {self.message}"


class RulesError(ValueError):
    """The rules could not be loaded; ``problems`` lists every problem found."""

    def __init__(self, problems: Iterable[Problem]):
        self.problems = sorted(set(problems))
        super().__init__("\n".join(str(p) for p in self.problems))


@dataclass
class Problems:
    """Collects problems so that all of them are reported together."""

    items: list[Problem] = field(default_factory=list)

    def add(self, node: "Node | None", message: str, file: str = "") -> None:
        if node is not None:
            self.items.append(Problem(node.file, node.line, message))
        else:
            self.items.append(Problem(file, 0, message))

    def raise_if_any(self) -> None:
        if self.items:
            raise RulesError(self.items)

    def __bool__(self) -> bool:
        return bool(self.items)


@dataclass(frozen=True)
class Node:
    """A YAML value with its source file and line."""

    file: str
    line: int


@dataclass(frozen=True)
class Scalar(Node):
    value: Any


@dataclass(frozen=True)
class Seq(Node):
    items: tuple[Node, ...]


@dataclass(frozen=True)
class Map(Node):
    # (key, key line, value node) in file order; duplicates are reported by the loader.
    entries: tuple[tuple[str, int, Node], ...]

    def get(self, key: str) -> Node | None:
        for k, _, v in self.entries:
            if k == key:
                return v
        return None

    def keys(self) -> list[str]:
        return [k for k, _, _ in self.entries]


def nearest(name: str, choices: Iterable[str]) -> str:
    """' (did you mean X?)' for the closest valid name, or '' when nothing is close."""
    found = difflib.get_close_matches(str(name), [str(c) for c in choices], n=1, cutoff=0.6)
    return f" (did you mean '{found[0]}'?)" if found else ""


_constructor = yaml.SafeLoader(stream="")


def _convert(node: yaml.Node, file: str, problems: Problems) -> Node:
    line = node.start_mark.line + 1
    if isinstance(node, yaml.ScalarNode):
        try:
            value = _constructor.construct_object(node, deep=True)
        except yaml.YAMLError as exc:
            problems.items.append(Problem(file, line, f"cannot read this value: {exc}"))
            value = None
        return Scalar(file, line, value)
    if isinstance(node, yaml.SequenceNode):
        return Seq(file, line, tuple(_convert(child, file, problems) for child in node.value))
    if isinstance(node, yaml.MappingNode):
        entries: list[tuple[str, int, Node]] = []
        seen: dict[str, int] = {}
        for key_node, value_node in node.value:
            key_line = key_node.start_mark.line + 1
            if not isinstance(key_node, yaml.ScalarNode):
                problems.items.append(Problem(file, key_line, "a key must be a plain name"))
                continue
            key = str(key_node.value)
            if key == "<<":
                problems.items.append(Problem(file, key_line, "merge keys ('<<') are not supported"))
                continue
            if key in seen:
                problems.items.append(
                    Problem(file, key_line, f"duplicate key '{key}' (first given at line {seen[key]})"))
                continue
            seen[key] = key_line
            entries.append((key, key_line, _convert(value_node, file, problems)))
        return Map(file, line, tuple(entries))
    problems.items.append(Problem(file, line, "unsupported YAML node"))
    return Scalar(file, line, None)


def parse_yaml(text: str, file: str, problems: Problems) -> Node | None:
    """Parse YAML text safely into located nodes; syntax errors are added to ``problems``."""
    try:
        root = yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark else 1
        what = exc.problem or str(exc)
        problems.items.append(Problem(file, line, f"YAML syntax error: {what}"))
        return None
    except yaml.YAMLError as exc:
        problems.items.append(Problem(file, 1, f"YAML syntax error: {exc}"))
        return None
    if root is None:
        problems.items.append(Problem(file, 1, "the file is empty"))
        return None
    return _convert(root, file, problems)


def load_yaml_file(path: Path, display: str, problems: Problems) -> Node | None:
    """Read and parse one rules file; a missing or unreadable file is a problem, not a crash."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        problems.items.append(Problem(display, 0, "file is missing"))
        return None
    except (OSError, UnicodeDecodeError) as exc:
        problems.items.append(Problem(display, 0, f"cannot be read: {exc}"))
        return None
    return parse_yaml(text, display, problems)
