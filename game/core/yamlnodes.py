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
    """A single value. ``text`` is the unquoted source text of a plain value (so that a text
    field can take ``No`` or ``2014-05-01`` as written); ``comment`` is a comment that follows an
    empty value on its line (``colour: #f2a7c3`` is an empty value and a comment); ``readable``
    is False when the value could not be read at all (that problem is already reported)."""

    value: Any
    text: str = ""
    comment: str = ""
    readable: bool = True


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


def closest(name: str, choices: Iterable[str]) -> str | None:
    """The valid name closest to ``name`` (ignoring case), or None when nothing is close."""
    options = [str(c) for c in choices]
    by_lower = {c.lower(): c for c in reversed(options)}
    if str(name).lower() in by_lower:
        return by_lower[str(name).lower()]
    found = difflib.get_close_matches(str(name).lower(), list(by_lower), n=1, cutoff=0.6)
    return by_lower[found[0]] if found else None


def nearest(name: str, choices: Iterable[str]) -> str:
    """' (did you mean 'X'?)' for the closest valid name, or '' when nothing is close."""
    found = closest(name, choices)
    return f" (did you mean '{found}'?)" if found is not None and found != str(name) else ""


_constructor = yaml.SafeLoader(stream="")


def _short_tag(tag: str) -> str:
    return "!!" + tag[len("tag:yaml.org,2002:"):] if tag.startswith("tag:yaml.org,2002:") else tag


def _comment_after(node: yaml.Node) -> str:
    """The comment right after an empty value on the same line, if any."""
    mark = node.start_mark
    buffer = getattr(mark, "buffer", None)
    if not isinstance(buffer, str):
        return ""
    rest = buffer[mark.pointer:].split("\n", 1)[0].strip()
    return rest if rest.startswith("#") else ""


def _convert(node: yaml.Node, file: str, problems: Problems) -> Node:
    line = node.start_mark.line + 1
    if isinstance(node, yaml.ScalarNode):
        plain = node.style is None
        text = node.value if plain else ""
        comment = _comment_after(node) if plain and not node.value else ""
        try:
            value = _constructor.construct_object(node, deep=True)
        except Exception as exc:  # PyYAML raises ValueError and friends for bad dates, !!int abc, ...
            mark = node.start_mark
            written_tag = isinstance(mark.buffer, str) and mark.buffer[mark.pointer:mark.pointer + 1] == "!"
            if plain and not written_tag:
                # An implicit type that failed (2014-13-45 looks like a date): keep it as text.
                return Scalar(file, line, node.value, text=text)
            if isinstance(exc, yaml.constructor.ConstructorError) and "could not determine a constructor" in str(exc):
                message = (f"the tag '{_short_tag(node.tag)}' is not allowed in rules files; "
                           "remove it (put the value in quotes if it starts with '!')")
            else:
                message = f"'{node.value}' cannot be read as {_short_tag(node.tag)}"
            problems.items.append(Problem(file, line, message))
            return Scalar(file, line, None, text=text, readable=False)
        return Scalar(file, line, value, text=text, comment=comment)
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


# PyYAML's wording -> what a person editing the file should look for. The first match wins;
# "context" means the line where the construct began (an unclosed bracket or quote).
_SYNTAX_HINTS: tuple[tuple[str, str, str], ...] = (
    ("while parsing a flow sequence", "context",
     "a list opened with '[' on this line is not closed with ']' (or a comma is missing)"),
    ("while parsing a flow mapping", "context",
     "a '{' on this line is not closed with '}' (or a comma is missing)"),
    ("while scanning a quoted scalar", "context",
     "a quoted value starts on this line but its closing quote is missing"),
    ("expected a single document", "problem",
     "a second document starts here ('---'); a rules file holds only one"),
    ("could not find expected ':'", "context",
     "this line has no ':' (write 'key: value', or '- item' inside a list)"),
    ("found character '\\t'", "problem",
     "a tab character; indent with spaces only"),
    ("that cannot start any token", "problem",
     "a value cannot start with this character; put the value in quotes"),
    ("mapping values are not allowed here", "problem",
     "unexpected ':' (put a value that contains ': ' in quotes, or check the indentation)"),
    ("found undefined alias", "problem",
     "a value starting with '*' must be put in quotes"),
    ("expected <block end>, but found '<scalar>'", "problem",
     "unexpected text (check the indentation, and any quote inside a quoted value)"),
    ("expected <block end>", "problem",
     "this line's indentation does not match the lines above it"),
    ("expected <block mapping start>", "problem",
     "this line's indentation does not match the lines above it"),
)


def _syntax_problem(exc: yaml.MarkedYAMLError, file: str) -> Problem:
    raw = f"{exc.context or ''} {exc.problem or ''}"
    for needle, where, hint in _SYNTAX_HINTS:
        if needle in raw:
            mark = exc.context_mark if where == "context" and exc.context_mark else exc.problem_mark
            mark = mark or exc.problem_mark or exc.context_mark
            return Problem(file, mark.line + 1 if mark else 1, f"YAML syntax error: {hint}")
    mark = exc.problem_mark or exc.context_mark
    return Problem(file, mark.line + 1 if mark else 1, f"YAML syntax error: {exc.problem or exc.context}")


def parse_yaml(text: str, file: str, problems: Problems) -> Node | None:
    """Parse YAML text safely into located nodes; syntax errors are added to ``problems``."""
    try:
        root = yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.MarkedYAMLError as exc:
        problems.items.append(_syntax_problem(exc, file))
        return None
    except yaml.YAMLError as exc:
        problems.items.append(Problem(file, 1, f"YAML syntax error: {exc}"))
        return None
    if root is None:
        problems.items.append(Problem(file, 1, "the file is empty (it holds no keys, only blank lines or comments)"))
        return None
    return _convert(root, file, problems)


def load_yaml_file(path: Path, display: str, problems: Problems) -> Node | None:
    """Read and parse one rules file; a missing or unreadable file is a problem, not a crash."""
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        problems.items.append(Problem(display, 0, "the file is missing"))
        return None
    except IsADirectoryError:
        problems.items.append(Problem(display, 0, "is a folder, not a file"))
        return None
    except OSError as exc:
        problems.items.append(Problem(display, 0, f"cannot be read: {exc.strerror or exc}"))
        return None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[:exc.start].count(b"\n") + 1
        problems.items.append(Problem(display, line, "this line is not UTF-8 text; save the file as UTF-8"))
        return None
    return parse_yaml(text, display, problems)
