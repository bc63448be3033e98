"""Ruby's glob patterns, as Puppet's ``Pathname.glob`` reads them: one translator for the
engine (which files a glob location reads) and for the level model (which files a location
template can ever read).

What Ruby 3.1's ``Dir.glob`` does (default flags, so ``FNM_PATHNAME`` and brace expansion
on, ``FNM_DOTMATCH`` off), checked against ``ruby -e`` and pinned in
``tests/source/test_ruby_glob.py``:

- ``{a,b}`` expands first, left to right, nested groups too; a ``{`` without its ``}``
  makes the whole pattern match nothing.  Results come per expansion, in that order, each
  expansion's own matches sorted (a file two expansions match is listed twice).
- ``*`` and ``?`` never cross ``/`` and never match a leading ``.`` of a name; ``**/`` is
  zero or more directories that do not start with ``.``; a ``**`` not followed by ``/``
  is ``*``.
- ``[...]``: the class ends at the first ``]`` after ``[`` (or ``[!``/``[^``), so ``[]``
  is an empty class (matches nothing) and ``[!]`` matches any character; ``\\`` escapes;
  a range whose ends are reversed matches its two ends only; a ``[`` without ``]`` makes
  the name match nothing.  A class never matches a leading ``.``.
- ``\\x`` is a literal ``x`` everywhere.

Callers may put *holes* in a pattern: single characters that stand for a regular
expression (an interpolation whose value is not known).  A hole may start with ``.``.
"""

from __future__ import annotations

import os
import re
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from functools import lru_cache

NEVER = "(?!)"
_NO_HOLES: Mapping[str, str] = {}


def expand_braces(pattern: str) -> list[str]:
    """Ruby's ``{a,b}`` alternation (nested allowed), expanded left to right.

    Empty when a ``{`` has no closing ``}``: Ruby then globs nothing at all.  Escapes are
    kept in the expansions (the matcher reads them).
    """
    lbrace = rbrace = -1
    nest = 0
    i = 0
    while i < len(pattern):
        c = pattern[i]
        if c == "{":
            if nest == 0:
                lbrace = i
            nest += 1
        elif c == "}" and lbrace >= 0:
            nest -= 1
            if nest == 0:
                rbrace = i
                break
        elif c == "\\":
            i += 1
        i += 1
    if lbrace < 0:
        return [pattern]
    if rbrace < 0:
        return []
    head, tail = pattern[:lbrace], pattern[rbrace + 1 :]
    out: list[str] = []
    start = lbrace + 1
    nest = 0
    i = start
    while i <= rbrace:
        c = pattern[i]
        if i == rbrace or (c == "," and nest == 0):
            out.extend(expand_braces(head + pattern[start:i] + tail))
            start = i + 1
        elif c == "{":
            nest += 1
        elif c == "}":
            nest -= 1
        elif c == "\\" and i + 1 < rbrace:
            i += 1
        i += 1
    return out


def has_magic(component: str) -> bool:
    """Whether a name needs matching (else Ruby just checks that the unescaped name exists)."""
    return any(ch in component for ch in "*?[")


def unescape(component: str) -> str:
    return re.sub(r"\\(.?)", r"\1", component, flags=re.DOTALL)


def _bracket(component: str, start: int) -> tuple[str, int]:
    """The class opening at ``start`` as a regular expression, and the index after its ``]``;
    ``(NEVER, len)`` when it never closes (Ruby's ``bracket`` then fails the match)."""
    p = start + 1
    negate = p < len(component) and component[p] in "!^"
    if negate:
        p += 1
    parts: list[str] = []
    while True:
        if p >= len(component):
            return NEVER, len(component)
        if component[p] == "]":
            break
        if component[p] == "\\" and p + 1 < len(component):
            p += 1
        first = component[p]
        p += 1
        if p >= len(component):
            return NEVER, len(component)
        if component[p] == "-" and p + 1 < len(component) and component[p + 1] != "]":
            p += 1
            if component[p] == "\\" and p + 1 < len(component):
                p += 1
            last = component[p]
            p += 1
            if first <= last:
                parts.append(f"{re.escape(first)}-{re.escape(last)}")
            else:  # Ruby still matches the two ends
                parts.append(re.escape(first) + re.escape(last))
        else:
            parts.append(re.escape(first))
    body = "".join(parts)
    if negate:
        return f"[^/{body}]", p + 1
    return (f"[{body}]" if body else NEVER), p + 1


def component_regex(component: str, holes: Mapping[str, str] = _NO_HOLES) -> str:
    """One path component of a pattern (no ``/`` in it) as a regular expression."""
    out: list[str] = []
    if component[:1] in ("*", "?", "["):
        out.append(r"(?!\.)")  # a wildcard never matches a leading period
    i = 0
    while i < len(component):
        c = component[i]
        if c in holes:
            out.append(holes[c])
        elif c == "*":
            out.append("[^/]*")
        elif c == "?":
            out.append("[^/]")
        elif c == "[":
            regex, i = _bracket(component, i)
            out.append(regex)
            continue
        elif c == "\\":
            i += 1
            if i < len(component):  # a trailing backslash stands for nothing
                out.append(re.escape(component[i]))
        else:
            out.append(re.escape(c))
        i += 1
    return "".join(out)


_ANY_DIRS = r"(?:(?!\.)[^/]+/)*"


def expansion_regex(pattern: str, holes: Mapping[str, str] = _NO_HOLES) -> str:
    """One brace-free pattern as a regular expression over whole paths."""
    parts = pattern.split("/")
    out: list[str] = []
    for n, part in enumerate(parts):
        last = n == len(parts) - 1
        if part == "**" and not last:
            out.append(_ANY_DIRS)
            continue
        out.append(component_regex("*" if part == "**" else part, holes))
        if not last:
            out.append("/")
    return "".join(out)


def pattern_regex(pattern: str, holes: Mapping[str, str] = _NO_HOLES) -> str:
    """The whole pattern (braces included) as a regular expression over whole paths."""
    expansions = expand_braces(pattern)
    if not expansions:
        return NEVER
    return "|".join(f"(?:{expansion_regex(p, holes)})" for p in expansions)


@lru_cache(maxsize=512)
def _compiled(pattern: str) -> re.Pattern[str]:
    return re.compile(f"(?:{pattern_regex(pattern)})\\Z", re.DOTALL)


def glob_match(pattern: str, path: str) -> bool:
    """Whether ``path`` is a name ``pattern`` can produce (for files not on disk)."""
    return _compiled(pattern).match(path) is not None


@lru_cache(maxsize=512)
def _component(component: str) -> re.Pattern[str]:
    return re.compile(component_regex(component) + r"\Z", re.DOTALL)


def _collapse(parts: list[str]) -> list[str]:
    """``**/**/`` walks once, as Ruby merges consecutive recursive components."""
    out: list[str] = []
    for n, part in enumerate(parts):
        if part == "**" and out and out[-1] == "**" and n < len(parts) - 1:
            continue
        out.append(part)
    return out


ListDir = Callable[[str], Iterable[str]]
IsDir = Callable[[str], bool]

# Bounds of one glob's walk (docs/security.md, "Files and file access"): ``**/*`` under
# ``datadir: /`` would list /proc and /sys for half a minute.  100,000 names is fifty times
# the files of the 2,000-file benchmark repository and lists in about a second here.
MAX_GLOB_ENTRIES = 100_000
MAX_GLOB_DEPTH = (
    200  # directories below '/'; deeper trees are not data (and would exhaust the stack)
)
MAX_GLOB_SECONDS = 5.0  # a slow network disk


class GlobTooLarge(Exception):
    """A glob's walk went past one of its bounds; the message says which and where."""


@dataclass(slots=True)
class _Budget:
    pattern: str
    deadline: float
    entries: int = 0

    def listed(self, directory: str, count: int) -> None:
        self.entries += count
        if self.entries > MAX_GLOB_ENTRIES:
            raise GlobTooLarge(
                f"The glob {self.pattern} lists more than {MAX_GLOB_ENTRIES} directory entries "
                f"(reached {directory}): hiera-ls stops there"
            )
        if time.monotonic() > self.deadline:
            raise GlobTooLarge(
                f"The glob {self.pattern} walked for more than {MAX_GLOB_SECONDS:g} seconds "
                f"(reached {directory}): hiera-ls stops there"
            )

    def descend(self, directory: str) -> None:
        if directory.count("/") > MAX_GLOB_DEPTH:
            raise GlobTooLarge(
                f"The glob {self.pattern} goes more than {MAX_GLOB_DEPTH} directories deep "
                f"(reached {directory}): hiera-ls stops there"
            )


def disk_listdir(directory: str) -> list[str]:
    try:
        return os.listdir(directory)
    except OSError:
        return []


def glob(
    pattern: str,
    listdir: ListDir = disk_listdir,
    exists: Callable[[str], bool] = os.path.exists,
    is_dir: IsDir = os.path.isdir,
) -> list[str]:
    """``Pathname.glob(pattern)`` for an absolute pattern, in Ruby's order.

    ``listdir``/``exists``/``is_dir`` default to the disk; a caller lays editor buffers over
    it by passing its own.  Directories are included, as Ruby includes them.  Raises
    :class:`GlobTooLarge` past the bounds above.
    """
    out: list[str] = []
    budget = _Budget(pattern, time.monotonic() + MAX_GLOB_SECONDS)
    for expansion in expand_braces(pattern):
        found: list[str] = []
        parts = _collapse([p for p in expansion.split("/") if p])
        trailing = expansion.endswith("/") and bool(parts)
        _walk("/", parts, found, listdir, exists, is_dir, budget)
        if trailing:
            found = [p + "/" for p in found if is_dir(p)]
        out.extend(sorted(found, key=lambda p: p.split("/")))
    return out


def _walk(
    base: str,
    parts: list[str],
    out: list[str],
    listdir: ListDir,
    exists: Callable[[str], bool],
    is_dir: IsDir,
    budget: _Budget,
) -> None:
    if not parts:
        if exists(base):
            out.append(base)
        return
    budget.descend(base)
    head, rest = parts[0], parts[1:]
    if head == "**" and rest:
        _walk(base, rest, out, listdir, exists, is_dir, budget)  # zero directories
        names = sorted(set(listdir(base)))
        budget.listed(base, len(names))
        for name in names:
            full = os.path.join(base, name)
            if not name.startswith(".") and is_dir(full) and not os.path.islink(full):
                _walk(full, parts, out, listdir, exists, is_dir, budget)
        return
    if head == "**":
        head = "*"
    if not has_magic(head):
        _walk(os.path.join(base, unescape(head)), rest, out, listdir, exists, is_dir, budget)
        return
    regex = _component(head)
    names = sorted(set(listdir(base)))
    budget.listed(base, len(names))
    for name in names:
        if regex.match(name) is not None:
            _walk(os.path.join(base, name), rest, out, listdir, exists, is_dir, budget)
