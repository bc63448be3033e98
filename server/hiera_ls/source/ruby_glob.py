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

Callers may put *holes* in a pattern (:data:`WORD_HOLE`, :data:`TEXT_HOLE`): single
characters that stand for any text without ``/`` or any text at all (an interpolation whose
value is not known).  A hole may start with ``.``.

Matching never backtracks (see :class:`Matcher`), so its time is polynomial in the pattern
and the name; braces are expanded up front only up to :data:`MAX_EXPANSIONS` patterns (Ruby
expands them all, so ``{a,b}`` twenty times is a million patterns), beyond that a name is
matched against the braces lazily.
"""

from __future__ import annotations

import itertools
import os
import re
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import cast

# Braces are expanded up front (as Ruby does) up to this many patterns; beyond, a name is
# matched against the braces lazily, within MAX_BRACE_WORK steps (a step: one matcher
# state carried over one character of the name, or one character of a partial expansion).
MAX_EXPANSIONS = 1024
MAX_BRACE_WORK = 2_000_000
WORD_HOLE = "\x00"  # stands for text without '/'
TEXT_HOLE = "\x01"  # stands for any text
# A lazily matched glob looks at this many entries at most, this many directories deep.
MAX_WALK = 20_000
MAX_WALK_DEPTH = 32


def has_magic(component: str) -> bool:
    """Whether a name needs matching (else Ruby just checks that the unescaped name exists)."""
    return any(ch in component for ch in "*?[")


def unescape(component: str) -> str:
    return re.sub(r"\\(.?)", r"\1", component, flags=re.DOTALL)


# ------------------------------------------------------------------ matching without backtracking
#
# A brace-free pattern becomes a list of steps; a name is matched by carrying the set of
# steps it may have reached, one character at a time (a Thompson-style simulation), so the
# time is at most the name's length times the pattern's, whatever the pattern.  A regular
# expression would backtrack: ``*a*a*a*a*a*a*a*a*a*a*a*a*c.yaml`` against a long name of
# ``a`` takes exponential time.

_CHAR, _ONE, _CLASS, _STAR, _WORD, _TEXT, _NODOT, _DIRS, _FAIL = range(9)
Step = tuple[int, object]


def _class_step(component: str, start: int) -> tuple[Step, int]:
    """The class opening at ``start`` and the index after its ``]``; a class that never
    closes fails the match (Ruby's ``bracket`` gives up)."""
    p = start + 1
    negate = p < len(component) and component[p] in "!^"
    if negate:
        p += 1
    ranges: list[tuple[str, str]] = []
    while True:
        if p >= len(component):
            return (_FAIL, None), len(component)
        if component[p] == "]":
            break
        if component[p] == "\\" and p + 1 < len(component):
            p += 1
        first = component[p]
        p += 1
        if p >= len(component):
            return (_FAIL, None), len(component)
        if component[p] == "-" and p + 1 < len(component) and component[p + 1] != "]":
            p += 1
            if component[p] == "\\" and p + 1 < len(component):
                p += 1
            last = component[p]
            p += 1
            if first <= last:
                ranges.append((first, last))
            else:  # Ruby still matches the two ends
                ranges += [(first, first), (last, last)]
        else:
            ranges.append((first, first))
    if not ranges and not negate:
        return (_FAIL, None), p + 1
    return (_CLASS, (negate, tuple(ranges))), p + 1


def _component_steps(component: str, holes: bool, out: list[Step]) -> None:
    if component[:1] in ("*", "?", "["):
        out.append((_NODOT, None))  # a wildcard never matches a leading period
    i = 0
    while i < len(component):
        c = component[i]
        if holes and c == WORD_HOLE:
            out.append((_WORD, None))
        elif holes and c == TEXT_HOLE:
            out.append((_TEXT, None))
        elif c == "*":
            if not out or out[-1][0] != _STAR:  # '**' inside a name is '*'
                out.append((_STAR, None))
        elif c == "?":
            out.append((_ONE, None))
        elif c == "[":
            step, i = _class_step(component, i)
            out.append(step)
            continue
        elif c == "\\":
            i += 1
            if i < len(component):  # a trailing backslash stands for nothing
                out.append((_CHAR, component[i]))
        else:
            out.append((_CHAR, c))
        i += 1


@lru_cache(maxsize=1024)
def _steps(pattern: str, holes: bool) -> tuple[Step, ...]:
    """One brace-free pattern (``/`` allowed) as matching steps."""
    parts = pattern.split("/")
    out: list[Step] = []
    for n, part in enumerate(parts):
        last = n == len(parts) - 1
        if part == "**" and not last:
            out.append((_DIRS, None))  # zero or more directories not starting with '.'
            continue
        _component_steps("*" if part == "**" else part, holes, out)
        if not last:
            out.append((_CHAR, "/"))
    return tuple(out)


def _class_has(arg: object, ch: str) -> bool:
    negate, ranges = cast("tuple[bool, tuple[tuple[str, str], ...]]", arg)
    if ch == "/":
        return False
    inside = any(lo <= ch <= hi for lo, hi in ranges)
    return inside != negate


def _closure(steps: Sequence[Step], states: Iterable[tuple[int, bool]], nxt: str) -> set[int]:
    """States reachable without reading a character; ``nxt`` is the character ahead ('' at
    the end).  A state is a step index; ``-1 - i`` is step ``i`` (``**/``) inside a name."""
    out: set[int] = set()
    todo = [i for i, _inside in states]
    while todo:
        i = todo.pop()
        if i in out:
            continue
        out.add(i)
        if i < 0 or i >= len(steps):
            continue
        op = steps[i][0]
        if op in (_STAR, _WORD, _TEXT, _DIRS):
            todo.append(i + 1)  # zero characters
        elif op == _NODOT and nxt != ".":
            todo.append(i + 1)
    return out


def _advance(steps: Sequence[Step], states: set[int], ch: str, following: str) -> set[int]:
    """The states after reading ``ch`` (``following`` is the character after it)."""
    end = len(steps)
    moved: list[tuple[int, bool]] = []
    for i in states:
        if i < 0:  # inside a directory name of '**/'
            if ch == "/":
                moved.append((-1 - i, False))
            else:
                moved.append((i, True))
            continue
        if i >= end:
            continue
        op, arg = steps[i]
        if op == _CHAR:
            if ch == arg:
                moved.append((i + 1, False))
        elif op == _ONE:
            if ch != "/":
                moved.append((i + 1, False))
        elif op == _CLASS:
            if _class_has(arg, ch):
                moved.append((i + 1, False))
        elif op in (_STAR, _WORD):
            if ch != "/":
                moved.append((i, False))
        elif op == _TEXT:
            moved.append((i, False))
        elif op == _DIRS and ch not in "./":
            moved.append((-1 - i, True))
    return _closure(steps, moved, following) if moved else set()


def _steps_match(
    steps: Sequence[Step], name: str, work: list[int] | None = None, start: int = 0
) -> bool:
    """``work``, when given, is charged one unit per state carried over a character.
    ``start``: the step to begin at (the steps before it were matched by the caller)."""
    states = _closure(steps, [(start, False)], name[:1])
    for pos, ch in enumerate(name):
        if work is not None:
            work[0] += len(states)
        states = _advance(steps, states, ch, name[pos + 1 : pos + 2])
        if not states:
            return False
    return len(steps) in states


MAX_REGEX_STARS = 2  # a regular expression backtracks in time n ** stars: few stay fast


@lru_cache(maxsize=4096)
def _component_matcher(component: str) -> Callable[[str], bool]:
    """How one name is matched against a brace-free component: a regular expression when it
    cannot backtrack far (at most two ``*``: time at most the square of a name's length, in
    C), else the step simulation. 500 ``**/*N*.yaml`` levels over 5,000 files spent most of
    their time simulating in Python."""
    steps = _steps(component, False)
    pattern = _as_regex(steps)
    if pattern is None:
        return lambda name: _steps_match(steps, name)
    return re.compile(pattern, re.DOTALL).fullmatch  # type: ignore[return-value]


def _as_regex(steps: Sequence[Step]) -> str | None:
    if sum(1 for op, _ in steps if op == _STAR) > MAX_REGEX_STARS:
        return None
    out: list[str] = []
    for op, arg in steps:
        if op == _CHAR:
            out.append(re.escape(str(arg)))
        elif op == _ONE:
            out.append("[^/]")
        elif op == _STAR:
            out.append("[^/]*")
        elif op == _NODOT:
            out.append(r"(?!\.)")
        elif op == _FAIL:
            out.append("(?!)")
        elif op == _CLASS:
            negate, ranges = cast("tuple[bool, tuple[tuple[str, str], ...]]", arg)
            body = "".join(
                re.escape(lo) if lo == hi else f"{re.escape(lo)}-{re.escape(hi)}"
                for lo, hi in ranges
            )
            out.append(f"[^/{body}]" if negate else f"(?!/)[{body}]")
        else:
            return None
    return "".join(out)


# ------------------------------------------------------------------ braces


def _first_group(pattern: str) -> tuple[int, int]:
    """The first top-level ``{...}``: (start, end); (-1, -1) without one, (start, -1) when it
    never closes."""
    lbrace = -1
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
                return lbrace, i
        elif c == "\\":
            i += 1
        i += 1
    return lbrace, -1


def _alternatives(pattern: str, lbrace: int, rbrace: int) -> Iterator[str]:
    start = lbrace + 1
    nest = 0
    i = start
    while i <= rbrace:
        c = pattern[i]
        if i == rbrace or (c == "," and nest == 0):
            yield pattern[start:i]
            start = i + 1
        elif c == "{":
            nest += 1
        elif c == "}":
            nest -= 1
        elif c == "\\" and i + 1 < rbrace:
            i += 1
        i += 1


def iter_braces(pattern: str) -> Iterator[str]:
    """Ruby's ``{a,b}`` alternation (nested allowed), expanded left to right, one at a time.

    Nothing when a ``{`` has no closing ``}``: Ruby then globs nothing at all.  Escapes are
    kept in the expansions (the matcher reads them).
    """
    lbrace, rbrace = _first_group(pattern)
    if lbrace < 0:
        yield pattern
        return
    if rbrace < 0:
        return
    head, tail = pattern[:lbrace], pattern[rbrace + 1 :]
    for alt in _alternatives(pattern, lbrace, rbrace):
        yield from iter_braces(head + alt + tail)


def expand_braces(pattern: str) -> list[str]:
    """All of :func:`iter_braces` (callers bound the count with :func:`few_expansions`)."""
    return list(iter_braces(pattern))


def few_expansions(pattern: str) -> list[str] | None:
    """The expansions when there are at most :data:`MAX_EXPANSIONS`, else None."""
    out = list(itertools.islice(iter_braces(pattern), MAX_EXPANSIONS + 1))
    return out if len(out) <= MAX_EXPANSIONS else None


class GlobTooComplex(Exception):
    """Matching a name against a pattern of many braces ran out of its step budget."""

    def __init__(self, pattern: str) -> None:
        self.pattern = pattern
        self.message = (
            f"hiera-ls: the glob '{pattern}' has too many brace alternatives to match "
            f"(more than {MAX_BRACE_WORK} steps to match one name)"
        )
        super().__init__(self.message)

    def __str__(self) -> str:
        return self.message


def _steps_match_prefix(steps: Sequence[Step], name: str, work: list[int]) -> bool:
    """Whether the steps match some beginning of ``name`` (all of it included)."""
    end = len(steps)
    states = _closure(steps, [(0, False)], name[:1])
    for pos, ch in enumerate(name):
        if end in states:
            return True
        work[0] += len(states)
        states = _advance(steps, states, ch, name[pos + 1 : pos + 2])
        if not states:
            return False
    return end in states


def _head_may_match(head: str, name: str, holes: bool, work: list[int]) -> bool:
    """False only when no text starting with ``head`` can match ``name``.

    ``head`` (the text before a brace) is matched on its own when what follows cannot change
    its meaning: not when it ends in an escape, an open class, or a name of only stars
    (which the text after it may turn into ``**/``)."""
    last = head[head.rfind("/") + 1 :]
    if head.endswith("\\") or "[" in last or (last and not last.strip("*")):
        return True
    return _steps_match_prefix(_steps(head, holes), name, work)


def _lazy_match(pattern: str, name: str, holes: bool) -> bool:
    """Whether some expansion of ``pattern`` matches ``name``, expanding only the
    alternatives that ``name`` can still match, each distinct text once, within
    MAX_BRACE_WORK steps."""
    seen: set[str] = set()
    work = [0]

    def visit(text: str) -> bool:
        if text in seen:
            return False
        seen.add(text)
        work[0] += len(text)
        if work[0] > MAX_BRACE_WORK:
            raise GlobTooComplex(pattern)
        lbrace, rbrace = _first_group(text)
        if lbrace < 0:
            return _steps_match(_steps(text, holes), name, work)
        if rbrace < 0:
            return False
        head = text[:lbrace]
        if not _head_may_match(head, name, holes, work):
            return False
        tail = text[rbrace + 1 :]
        return any(visit(head + alt + tail) for alt in _alternatives(text, lbrace, rbrace))

    return visit(pattern)


@dataclass(frozen=True, slots=True)
class Matcher:
    """A whole pattern (braces included) ready to match names or paths in polynomial time.

    ``holes``: :data:`WORD_HOLE` and :data:`TEXT_HOLE` stand for any text without ``/`` and
    for any text (interpolations whose value is not known); they may start with ``.``.
    """

    pattern: str
    holes: bool = False
    expansions: tuple[tuple[Step, ...], ...] | None = None  # None: too many, matched lazily
    # per expansion, the literal text its steps begin and end with: a name that does not
    # start and end so is rejected without a simulation, and one that does is simulated
    # from the first step after the prefix (a level template is mostly a literal datadir)
    literals: tuple[tuple[str, str], ...] = ()
    # per expansion, when all between those ends is one wildcard (optionally after the rule
    # that a name's first character is not '.'): (no leading period, crosses '/'); else None
    middles: tuple[tuple[bool, bool] | None, ...] = ()

    @staticmethod
    def of(pattern: str, holes: bool = False) -> Matcher:
        few = few_expansions(pattern)
        if few is None:
            return Matcher(pattern, holes, None)
        expansions = tuple(_steps(p, holes) for p in few)
        literals = tuple(_literal_ends(e) for e in expansions)
        middles = tuple(
            _one_wildcard(e, ends) for e, ends in zip(expansions, literals, strict=True)
        )
        return Matcher(pattern, holes, expansions, literals, middles)

    def match(self, name: str) -> bool:
        """Raises GlobTooComplex when a pattern of too many braces runs out of budget."""
        if self.expansions is None:
            return _lazy_match(self.pattern, name, self.holes)
        ends = zip(self.expansions, self.literals, self.middles, strict=True)
        for steps, (prefix, suffix), middle in ends:
            if not (name.startswith(prefix) and name.endswith(suffix)):
                continue
            if len(prefix) == len(steps):  # all literal
                if len(name) == len(prefix):
                    return True
                continue
            if middle is not None:
                if len(name) < len(prefix) + len(suffix):
                    continue
                text = name[len(prefix) : len(name) - len(suffix)]
                no_dot, crosses = middle
                if (crosses or "/" not in text) and not (no_dot and (text or suffix)[:1] == "."):
                    return True
                continue
            if _steps_match(steps, name[len(prefix) :], start=len(prefix)):
                return True
        return False


def _one_wildcard(steps: Sequence[Step], ends: tuple[str, str]) -> tuple[bool, bool] | None:
    """See :attr:`Matcher.middles`."""
    middle = steps[len(ends[0]) : len(steps) - len(ends[1])]
    no_dot = bool(middle) and middle[0][0] == _NODOT
    if no_dot:
        middle = middle[1:]
    if len(middle) != 1 or middle[0][0] not in (_STAR, _WORD, _TEXT):
        return None
    return no_dot, middle[0][0] == _TEXT


def _literal_ends(steps: Sequence[Step]) -> tuple[str, str]:
    """The text of the leading and of the trailing ``_CHAR`` steps (each exactly one
    character, with no step that reads nothing among them)."""
    head: list[str] = []
    for op, arg in steps:
        if op != _CHAR:
            break
        head.append(str(arg))
    if len(head) == len(steps):
        return "".join(head), ""
    tail: list[str] = []
    for op, arg in reversed(steps):
        if op != _CHAR:
            break
        tail.append(str(arg))
    return "".join(head), "".join(reversed(tail))


@lru_cache(maxsize=512)
def _matcher(pattern: str) -> Matcher:
    return Matcher.of(pattern)


def glob_match(pattern: str, path: str) -> bool:
    """Whether ``path`` is a name ``pattern`` can produce (for files not on disk)."""
    return _matcher(pattern).match(path)


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
MAX_GLOB_DEPTH = 200  # directories below '/'; deeper trees are not data
MAX_GLOB_SECONDS = 5.0  # a slow network disk


class GlobTooLarge(Exception):
    """A glob's walk went past one of its bounds; the message says which and where."""


@dataclass(slots=True)
class _Budget:
    """What a glob may still walk before it is cut off."""

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
    budget = _Budget(pattern, time.monotonic() + MAX_GLOB_SECONDS)
    expansions = few_expansions(pattern)
    if expansions is None:
        return _glob_lazily(pattern, listdir, is_dir, budget)
    out: list[str] = []
    for expansion in expansions:
        found: list[str] = []
        parts = _collapse([p for p in expansion.split("/") if p])
        trailing = expansion.endswith("/") and bool(parts)
        _walk("/", parts, found, listdir, exists, is_dir, budget)
        if trailing:
            found = [p + "/" for p in found if is_dir(p)]
        out.extend(sorted(found, key=lambda p: p.split("/")))
    return out


def _glob_lazily(pattern: str, listdir: ListDir, is_dir: IsDir, bounds: _Budget) -> list[str]:
    """A pattern of more than MAX_EXPANSIONS brace expansions: every entry below the plain
    part of the pattern (at most MAX_WALK entries, MAX_WALK_DEPTH deep) matched against the
    braces lazily, each match once, sorted (Ruby lists them per expansion)."""
    plain = re.split(r"[*?\[{\\]", pattern, maxsplit=1)[0]
    root = plain[: plain.rfind("/") + 1] or "/"
    matcher = Matcher(pattern)
    found: list[str] = []
    budget = MAX_WALK
    todo = [(root.rstrip("/") or "/", 0)]
    while todo and budget > 0:
        directory, depth = todo.pop()
        names = sorted(set(listdir(directory)))
        bounds.listed(directory, len(names))
        for name in names:
            budget -= 1
            if budget < 0:
                break
            full = os.path.join(directory, name)
            folder = is_dir(full)
            if matcher.match(full):
                found.append(full)
            elif folder and matcher.match(full + "/"):
                found.append(full + "/")
            if folder and depth < MAX_WALK_DEPTH:
                todo.append((full, depth + 1))
    return sorted(found, key=lambda p: p.split("/"))


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
    matches = _component_matcher(head)
    names = sorted(set(listdir(base)))
    budget.listed(base, len(names))
    for name in names:
        if matches(name):
            _walk(os.path.join(base, name), rest, out, listdir, exists, is_dir, budget)
