"""``.hiera-ls.yaml``'s ``exclude`` and ``per-path`` patterns: gitignore's syntax, matched
without backtracking.

The patterns come from a repository, and they are matched against every file of it on every
check. Compiled to regular expressions (as pathspec does), ``*a*a*a*a*a*a*a*a*a*a*b``
backtracks: three files took 32.6 s, and the server answered a hover after 22.9 s. Here a
pattern is a list of steps and a path is matched by carrying the set of steps it may have
reached, one character at a time (as source/ruby_glob.py matches hierarchy globs), so the
time is at most the path's length times the pattern's.

gitignore's rules, as git applies them to a file's path relative to the file's directory:
blank lines and ``#`` comments are no patterns, ``\\`` escapes, trailing spaces go unless
escaped; ``!`` re-includes what an earlier pattern matched (the last matching pattern
decides); a trailing ``/`` matches directories only (so the files under them); a pattern with
a ``/`` before its end is anchored at the root, one without matches a name at any depth;
``**/`` is any number of directories, ``/**`` everything inside, another ``**`` is ``*``;
``*`` and ``?`` never match ``/``; ``[...]`` is a class (``[!...]`` negated). A pattern that
matches a directory matches every file under it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import cast

_CHAR, _ONE, _CLASS, _STAR, _DIRS, _ANY = range(6)
Step = tuple[int, object]


@dataclass(frozen=True, slots=True)
class _Pattern:
    """One gitignore-style pattern of ``.hiera-ls.yaml``, split into steps."""

    steps: tuple[Step, ...]
    negated: bool
    anchored: bool  # matched against whole paths from the root, else against names
    dir_only: bool


def _class(pattern: str, start: int) -> tuple[Step, int] | None:
    """The class opening at ``start`` and the index after it; None when it never closes."""
    i = start + 1
    negate = i < len(pattern) and pattern[i] in "!^"
    if negate:
        i += 1
    members: list[tuple[str, str]] = []
    first = True
    while i < len(pattern) and (pattern[i] != "]" or first):
        first = False
        c = pattern[i]
        if c == "\\" and i + 1 < len(pattern):
            i += 1
            c = pattern[i]
        if i + 2 < len(pattern) and pattern[i + 1] == "-" and pattern[i + 2] != "]":
            members.append((c, pattern[i + 2]))
            i += 3
        else:
            members.append((c, c))
            i += 1
    if i >= len(pattern):
        return None
    return (_CLASS, (negate, tuple(members))), i + 1


def _steps(body: str) -> tuple[Step, ...]:
    out: list[Step] = []
    i = 0
    n = len(body)
    while i < n:
        c = body[i]
        if c == "*":
            j = i
            while j < n and body[j] == "*":
                j += 1
            double = j - i >= 2
            at_start = i == 0 or body[i - 1] == "/"
            if double and at_start and j < n and body[j] == "/":
                out.append((_DIRS, None))  # **/ : zero or more directories
                i = j + 1
                continue
            if double and at_start and j == n:
                out.append((_ANY, None))  # /** : everything inside
                i = j
                continue
            out.append((_STAR, None))
            i = j
            continue
        if c == "?":
            out.append((_ONE, None))
        elif c == "[":
            found = _class(body, i)
            if found is not None:
                out.append(found[0])
                i = found[1]
                continue
            out.append((_CHAR, c))
        elif c == "\\" and i + 1 < n:
            i += 1
            out.append((_CHAR, body[i]))
        else:
            out.append((_CHAR, c))
        i += 1
    return tuple(out)


def parse(line: str) -> _Pattern | None:
    """One line of gitignore; None for a blank line or a comment."""
    text = line.rstrip("\n\r")
    while text.endswith(" ") and not text.endswith("\\ "):
        text = text[:-1]
    if not text or text.startswith("#"):
        return None
    negated = text.startswith("!")
    if negated or text.startswith("\\!") or text.startswith("\\#"):
        text = text[1:]
    dir_only = text.endswith("/")
    text = text.rstrip("/")
    if not text:
        return None
    anchored = "/" in text
    text = text.lstrip("/")
    if text.startswith("**/"):  # any depth: the same as an unanchored name when it is one
        rest = text[3:]
        if "/" not in rest.rstrip("/") and rest:
            text, anchored = rest, False
    return _Pattern(_steps(text), negated, anchored, dir_only)


def _in_class(arg: object, c: str) -> bool:
    negate, members = cast(tuple[bool, tuple[tuple[str, str], ...]], arg)
    inside = any(lo <= c <= hi for lo, hi in members)
    return inside != negate and c != "/"


def _closure(steps: Sequence[Step], states: set[int]) -> set[int]:
    out = set(states)
    todo = list(states)
    while todo:
        i = todo.pop()
        if i < len(steps) and steps[i][0] in (_STAR, _DIRS, _ANY) and i + 1 not in out:
            out.add(i + 1)
            todo.append(i + 1)
    return out


def _matches(steps: Sequence[Step], text: str) -> bool:
    states = _closure(steps, {0})
    for c in text:
        following: set[int] = set()
        for i in states:
            if i >= len(steps):
                continue
            kind, arg = steps[i]
            if kind == _CHAR:
                if arg == c:
                    following.add(i + 1)
            elif kind == _ONE:
                if c != "/":
                    following.add(i + 1)
            elif kind == _CLASS:
                if _in_class(arg, c):
                    following.add(i + 1)
            elif kind == _STAR:
                if c != "/":
                    following.add(i)
            elif kind == _DIRS:
                following.add(i)
                if c == "/":
                    following.add(i + 1)
            else:  # _ANY
                following.add(i)
        if not following:
            return False
        states = _closure(steps, following)
    return len(steps) in states


class GitIgnore:
    """Patterns in gitignore's syntax, for files' paths relative to one directory."""

    def __init__(self, lines: Sequence[str]) -> None:
        self.patterns = tuple(p for p in map(parse, lines) if p is not None)

    def match_file(self, relative: str) -> bool:
        """Whether the file at ``relative`` ('/'-separated) is matched (the last pattern that
        matches it, or a directory above it, decides)."""
        parts = relative.strip("/").split("/")
        result = False
        for pattern in self.patterns:
            if _pattern_matches(pattern, parts):
                result = not pattern.negated
        return result


def _pattern_matches(pattern: _Pattern, parts: Sequence[str]) -> bool:
    last = len(parts) - 1
    for depth, name in enumerate(parts):
        if pattern.dir_only and depth == last:
            break  # the file itself is not a directory
        subject = "/".join(parts[: depth + 1]) if pattern.anchored else name
        if _matches(pattern.steps, subject):
            return True
    return False
