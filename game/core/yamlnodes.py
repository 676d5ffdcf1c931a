"""Safe YAML loading that remembers where every value came from.

Rules files are untrusted, hand-edited input, so every problem must be reported as
``rules/file.yaml:LINE: what is wrong``. PyYAML's composer gives nodes with marks; we
turn them into small ``Node`` values that keep the line, using only the safe loader.
"""
from __future__ import annotations

import difflib
import re
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


# Limits that keep a hostile or mistaken file from exhausting memory, time or the stack. The shipped
# tables nest at most 5 levels and hold under 2,000 values each; docs/modding.md states these limits.
MAX_FILE_BYTES = 1_000_000
MAX_DEPTH = 50
MAX_VALUES = 50_000  # counted with every alias expanded, so "billion laughs" files stop early

# The fast C parser when PyYAML was built with libyaml; its syntax errors are worded differently, so a file
# it refuses is parsed again with the pure-Python parser, whose wording _SYNTAX_HINTS translates.
FAST_LOADER: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
PURE_LOADER: Any = yaml.SafeLoader

_resolver = yaml.resolver.Resolver()
_COLLECTION_TAGS = {"tag:yaml.org,2002:seq", "tag:yaml.org,2002:map"}


def _short_tag(tag: str) -> str:
    return "!!" + tag[len("tag:yaml.org,2002:"):] if tag.startswith("tag:yaml.org,2002:") else tag


def _tag_refused(tag: str) -> str:
    return (f"the tag '{_short_tag(tag)}' is not allowed in rules files; "
            "remove it (put the value in quotes if it starts with '!')")


class _LimitExceeded(Exception):
    """The file breaks a limit; the problem is recorded and the file is not read further."""


@dataclass
class _Open:
    """A list or group of keys whose items are still being read."""

    kind: type
    line: int
    anchor: str | None
    items: list = field(default_factory=list)  # (node, raw key text or None, key line)
    size: int = 1


class _Composer:
    """Builds located nodes from parser events without recursion, enforcing the limits above.

    An alias shares the node of its anchor (so reading is linear), but counts as every value it
    repeats, because everything after reading walks the expanded tree."""

    def __init__(self, text: str, file: str, problems: list[Problem]):
        self.file = file
        self.problems = problems
        self.lines = re.split("\r\n|[\r\n\x85\u2028\u2029]", text[1:] if text.startswith("\ufeff") else text)
        self.constructor = yaml.constructor.SafeConstructor()
        self.anchors: dict[str, tuple[Node, int, int]] = {}  # name -> (node, expanded size, line)
        self.open_anchors: dict[str, int] = {}  # name -> line, for anchors whose value is still open
        self.stack: list[_Open] = []
        self.total = 0
        self.root: Node | None = None
        self.documents = 0

    def refuse(self, line: int, message: str) -> None:
        self.problems.append(Problem(self.file, line, message))
        raise _LimitExceeded()

    def compose(self, events: Iterable[yaml.Event]) -> Node | None:
        for event in events:
            line = event.start_mark.line + 1 if event.start_mark is not None else 1
            if isinstance(event, yaml.DocumentStartEvent):
                self.documents += 1
                if self.documents > 1:
                    raise yaml.composer.ComposerError("expected a single document in the stream", None,
                                                      "but found another document", event.start_mark)
            elif isinstance(event, yaml.ScalarEvent):
                self.add(self.scalar(event, line), event.value, line, 1, event.anchor)
            elif isinstance(event, yaml.AliasEvent):
                self.alias(event, line)
            elif isinstance(event, (yaml.SequenceStartEvent, yaml.MappingStartEvent)):
                self.start(event, line)
            elif isinstance(event, (yaml.SequenceEndEvent, yaml.MappingEndEvent)):
                self.end()
        return self.root

    def count(self, size: int, line: int, alias: str | None = None) -> None:
        self.total += size
        if self.total <= MAX_VALUES:
            return
        if alias is None:
            self.refuse(line, f"this file holds more than {MAX_VALUES:,} values; a rules file needs far fewer")
        anchor_line = self.anchors[alias][2]
        self.refuse(line, f"the alias '*{alias}' repeats '&{alias}' (line {anchor_line}) so often that this file "
                          f"would hold more than {MAX_VALUES:,} values; write the values out or use fewer aliases")

    def scalar(self, event: yaml.ScalarEvent, line: int) -> Scalar:
        plain = event.style in (None, "") and event.tag in (None, "!")
        explicit = event.tag not in (None, "!")
        tag = event.tag if explicit else _resolver.resolve(yaml.ScalarNode, event.value, event.implicit)
        text = event.value if plain else ""
        comment = self.comment_after(event) if plain and not event.value else ""
        node = yaml.ScalarNode(tag, event.value, event.start_mark, event.end_mark, event.style)
        try:
            value = self.constructor.construct_object(node, deep=True)
        except Exception as exc:  # PyYAML raises ValueError and friends for bad dates, !!int abc, ...
            if plain:
                # An implicit type that failed (2014-13-45 looks like a date): keep it as text.
                return Scalar(self.file, line, event.value, text=text)
            if isinstance(exc, yaml.constructor.ConstructorError) and "could not determine a constructor" in str(exc):
                message = _tag_refused(tag)
            else:
                message = f"'{clip(event.value)}' cannot be read as {_short_tag(tag)}"
            self.problems.append(Problem(self.file, line, message))
            return Scalar(self.file, line, None, text=text, readable=False)
        return Scalar(self.file, line, value, text=text, comment=comment)

    def comment_after(self, event: yaml.ScalarEvent) -> str:
        """The comment right after an empty value on the same line, if any."""
        mark = event.start_mark
        if mark is None or mark.line >= len(self.lines):
            return ""
        rest = self.lines[mark.line][mark.column:].strip()
        return rest if rest.startswith("#") else ""

    def alias(self, event: yaml.AliasEvent, line: int) -> None:
        name = event.anchor
        if name in self.open_anchors:
            self.refuse(line, f"the alias '*{name}' is inside the value that '&{name}' (line "
                              f"{self.open_anchors[name]}) names, so it would repeat itself forever")
        if name not in self.anchors:
            raise yaml.composer.ComposerError(None, None, f"found undefined alias {name!r}", event.start_mark)
        node, size, _ = self.anchors[name]
        self.count(size, line, alias=name)
        self.attach(node, None, line, size)

    def start(self, event: yaml.CollectionStartEvent, line: int) -> None:
        if len(self.stack) >= MAX_DEPTH:
            self.refuse(line, f"lists and groups of keys are nested more than {MAX_DEPTH} deep here; "
                              "rules never need more than a few levels")
        if event.tag not in (None, "!") and event.tag not in _COLLECTION_TAGS:
            self.problems.append(Problem(self.file, line, _tag_refused(event.tag)))
        self.count(1, line)
        if event.anchor is not None:
            self.open_anchors[event.anchor] = line
        kind = Seq if isinstance(event, yaml.SequenceStartEvent) else Map
        self.stack.append(_Open(kind, line, event.anchor))

    def end(self) -> None:
        frame = self.stack.pop()
        if frame.kind is Seq:
            node: Node = Seq(self.file, frame.line, tuple(item for item, _, _ in frame.items))
        else:
            node = Map(self.file, frame.line, self.entries(frame.items))
        if frame.anchor is not None:
            self.open_anchors.pop(frame.anchor, None)
        self.attach(node, None, frame.line, frame.size, frame.anchor)

    def entries(self, items: list) -> tuple[tuple[str, int, Node], ...]:
        entries: list[tuple[str, int, Node]] = []
        seen: dict[str, int] = {}
        for (key_node, raw_key, key_line), (value_node, _, _) in zip(items[0::2], items[1::2]):
            if not isinstance(key_node, Scalar) or raw_key is None:
                self.problems.append(Problem(self.file, key_line, "a key must be a plain name"))
                continue
            key = str(raw_key)
            if key == "<<":
                self.problems.append(Problem(self.file, key_line, "merge keys ('<<') are not supported"))
                continue
            if key in seen:
                self.problems.append(Problem(self.file, key_line,
                                             f"duplicate key '{clip(key)}' (first given at line {seen[key]})"))
                continue
            seen[key] = key_line
            entries.append((key, key_line, value_node))
        return tuple(entries)

    def add(self, node: Node, raw: str | None, line: int, size: int, anchor: str | None) -> None:
        self.count(size, line)
        self.attach(node, raw, line, size, anchor)

    def attach(self, node: Node, raw: str | None, line: int, size: int, anchor: str | None = None) -> None:
        if anchor is not None:
            self.anchors[anchor] = (node, size, line)
        if self.stack:
            parent = self.stack[-1]
            parent.items.append((node, raw, line))
            parent.size += size
        else:
            self.root = node


def clip(text: str, limit: int = 40) -> str:
    """``text`` shortened for a message (a problem line must stay readable)."""
    text = str(text)
    return text if len(text) <= limit else text[:limit - 3] + "..."


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


def parse_yaml(text: str, file: str, problems: Problems, loader: Any = None) -> Node | None:
    """Parse YAML text safely into located nodes; syntax errors and broken limits are added to ``problems``.

    ``loader`` is the PyYAML loader whose parser reads the events (default: the C one when available).
    """
    loader = loader or FAST_LOADER
    found: list[Problem] = []
    try:
        root = _Composer(text, file, found).compose(yaml.parse(text, Loader=loader))
    except _LimitExceeded:
        problems.items.extend(found)
        return None
    except yaml.MarkedYAMLError as exc:
        if loader is not PURE_LOADER:
            return parse_yaml(text, file, problems, PURE_LOADER)  # for the pure parser's wording
        problems.items.append(_syntax_problem(exc, file))
        return None
    except yaml.YAMLError as exc:
        if loader is not PURE_LOADER:
            return parse_yaml(text, file, problems, PURE_LOADER)
        problems.items.append(Problem(file, 1, f"YAML syntax error: {exc}"))
        return None
    problems.items.extend(found)
    if root is None:
        problems.items.append(Problem(file, 1, "the file is empty (it holds no keys, only blank lines or comments)"))
        return None
    return root


def load_yaml_file(path: Path, display: str, problems: Problems) -> Node | None:
    """Read and parse one rules file; a missing or unreadable file is a problem, not a crash."""
    try:
        size = path.stat().st_size
        if size > MAX_FILE_BYTES:
            problems.items.append(Problem(display, 0, f"the file is {size:,} bytes; a rules file may hold at most "
                                                      f"{MAX_FILE_BYTES:,} bytes"))
            return None
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
