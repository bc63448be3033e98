"""HOCON ``include`` as Puppet 7.23's hocon gem (1.3.1) reads it, with hiera-ls' file guards.

pyhocon follows includes itself: ``include url(...)`` made an HTTP request (a server that
never answered hung the CLI and the language server), ``include file("/dev/zero")`` read
gigabytes, a FIFO or ``/dev/stdin`` blocked (the server read its own protocol stream),
``include package(...)`` imports Python packages to find a file. Here every directive is
found by a scan of the text first, decided as Puppet decides it, and only files read through
the same reader as data files (regular files only, the size limit, never blocking) and lying
inside the allowed roots reach pyhocon, which is handed them by name
(:mod:`hiera_ls.source.hocon_data`) and never opens a file or a URL itself.

What Puppet 7.23 does (``hocon_data`` parses the file's text with ``Hocon.parse``; checked
with ``puppet lookup``, tests/differential/test_hocon_vs_puppet.py):

- ``include url("...")`` and ``include classpath("...")`` fail every lookup of the file
  (``undefined method `include_url'``, ``include_resources``); so does a quoted include that
  is an http(s) URL (``include_url_without_fallback``);
- ``include "name"`` in the data file itself includes nothing (a string has no directory to
  be relative to); in a file it includes, ``"name"`` is that file's sibling;
- ``include file("name")``: the file, relative to Puppet's working directory (here: the
  process's); a missing file or a directory includes nothing;
- a name without ``.conf``, ``.json`` or ``.properties`` reads ``name.conf`` and
  ``name.json``;
- ``include required(...)``, ``include package(...)``, a space before the parenthesis and a
  keyword other than lowercase ``include`` at the start of an entry are syntax errors, or
  plain text (``a = include "x"`` is the string ``include x``);
- includes nest at most 50 deep (a cycle fails).

hiera-ls refuses, with a problem at the directive, what Puppet would read but it does not:
a file outside the allowed roots (the workspace, and the data file's own directory) and one
that is not a regular file. It never reads a URL.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from dataclasses import dataclass, field

from hiera_ls.source.files import FileText

MAX_INCLUDE_DEPTH = 50  # the hocon gem's Parseable::MAX_INCLUDE_DEPTH
MAX_INCLUDED_FILES = 1_000  # per data file: includes that fan out stay bounded
_IDENT = re.compile(r"[A-Za-z0-9_$]")  # pyparsing's keyword characters
_UNQUOTED_END = set(' \t\r\n$"{}[]:=,+#`^?!@*&\\')  # what ends the gem's unquoted text
_FUNCTIONS = ("url", "file", "classpath")
_PYHOCON_AFTER = re.compile(r'[ \t]*(?:"|(?:url|file|package|required)[ \t]*\()')
_HTTP_URL = re.compile(r"(?i)https?:[^\s<>\"{}|\\^`]*")


@dataclass(frozen=True, slots=True)
class IncludeReader:
    """How included files are read: ``read`` is the data files' reader (FileAccess.read),
    ``roots`` the directories (symlinks resolved) an included file must lie in, ``cwd``
    where ``file("relative")`` starts (Puppet's working directory)."""

    read: Callable[[str], FileText | None]
    roots: tuple[str, ...]
    cwd: str


@dataclass(frozen=True, slots=True)
class IncludeFailure:
    """Why the file cannot be read as Puppet reads it, at a directive (0-based)."""

    message: str
    line: int
    column: int
    end_column: int


@dataclass(slots=True)
class Prepared:
    """A text for pyhocon: directives that include nothing blanked out, text Puppet reads as
    plain words quoted, and ``files``: what each remaining directive names, prepared."""

    text: str
    files: dict[str, list[Prepared]] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class _Directive:
    """One ``include`` of a HOCON file, as written."""

    start: int
    end: int
    line: int
    column: int
    kind: str  # "quoted", "url", "file", "classpath"; "" for a syntax error
    name: str  # the quoted name, as pyhocon unescapes it
    error: str = ""


class _Refused(Exception):
    def __init__(self, failure: IncludeFailure) -> None:
        super().__init__(failure.message)
        self.failure = failure


@dataclass(slots=True)
class _Budget:
    """How many more files a HOCON file's includes may read."""

    files: int = MAX_INCLUDED_FILES


def prepare(path: str, text: str, reader: IncludeReader | None) -> Prepared | IncludeFailure:
    """``text`` of the data file ``path`` ready for pyhocon, or why Puppet's answer cannot be
    had (a position in ``text``)."""
    roots = tuple(reader.roots) if reader is not None else ()
    roots = (*roots, os.path.realpath(os.path.dirname(path)))
    try:
        return _prepare(path, text, reader, roots, 0, _Budget(), top=True)
    except _Refused as e:
        return e.failure


def _prepare(
    path: str,
    text: str,
    reader: IncludeReader | None,
    roots: tuple[str, ...],
    depth: int,
    budget: _Budget,
    top: bool = False,
) -> Prepared:
    directives, quoted_words = _scan(text)
    out = Prepared(text)
    edits: list[tuple[int, int, str]] = [(s, e, f'"{text[s:e]}"') for s, e in quoted_words]
    for d in directives:
        line_end = text.find("\n", d.start)
        end = min(d.end, len(text) if line_end < 0 else line_end)  # the problem's one line
        where = (d.line, d.column, d.column + max(end - d.start, 0))
        if d.error:
            raise _Refused(IncludeFailure(f"String: {d.line + 1}: {d.error}", *where))
        names = _targets(d, path, reader, top, where)
        included = []
        for name in names:
            found = _include(name, reader, roots, depth, budget, where)
            if found is not None:
                included.append(found)
        if included:
            out.files[d.name] = included
        else:
            edits.append((d.start, d.end, _blank(text[d.start : d.end])))
    if edits:
        out.text = _edited(text, edits)
    return out


def _targets(
    d: _Directive,
    path: str,
    reader: IncludeReader | None,
    top: bool,
    where: tuple[int, int, int],
) -> list[str]:
    """The files a directive reads, as Puppet resolves its name."""
    shown = f"include {d.kind}({d.name!r})" if d.kind != "quoted" else f'include "{d.name}"'
    if d.kind == "url" or (d.kind == "quoted" and _HTTP_URL.fullmatch(d.name)):
        method = "include_url" if d.kind == "url" else "include_url_without_fallback"
        raise _Refused(
            IncludeFailure(
                f"{shown}: Puppet's hocon library cannot include a URL (lookups fail with "
                f"undefined method `{method}'), and hiera-ls never reads the network",
                *where,
            )
        )
    if d.kind == "classpath":
        raise _Refused(
            IncludeFailure(
                f"{shown}: Puppet's hocon library cannot include from a classpath (lookups "
                "fail with undefined method `include_resources')",
                *where,
            )
        )
    if d.kind == "quoted":
        if top or not d.name:
            return []  # parsed from a string: nothing to be relative to
        base = os.path.dirname(path)
    else:
        if not d.name:
            return []
        base = reader.cwd if reader is not None else os.getcwd()
    full = os.path.normpath(os.path.join(base, d.name))
    if d.name.endswith((".conf", ".json", ".properties")):
        return [full]
    return [full + ".json", full + ".conf"]  # .conf wins over .json


def _include(
    name: str,
    reader: IncludeReader | None,
    roots: tuple[str, ...],
    depth: int,
    budget: _Budget,
    where: tuple[int, int, int],
) -> Prepared | None:
    real = os.path.realpath(name)
    if reader is None or not any(real == r or real.startswith(r + os.sep) for r in roots):
        shown = name if real == name else f"{name} (really {real})"
        raise _Refused(
            IncludeFailure(
                f"hiera-ls does not read {shown}, which this include names: it lies outside "
                f"the workspace ({', '.join(roots)})",
                *where,
            )
        )
    if depth + 1 > MAX_INCLUDE_DEPTH:
        raise _Refused(
            IncludeFailure(
                f"include statements nested more than {MAX_INCLUDE_DEPTH} times, you probably "
                "have a cycle in your includes",
                *where,
            )
        )
    budget.files -= 1
    if budget.files < 0:
        raise _Refused(
            IncludeFailure(
                f"hiera-ls reads at most {MAX_INCLUDED_FILES} included files for one data file",
                *where,
            )
        )
    found = reader.read(name)
    if found is None:
        return None  # as Puppet: a missing file includes nothing
    problem = found.problem
    if problem is not None:
        if problem.message.startswith("Is a directory"):
            return None  # Puppet includes nothing from a directory
        raise _Refused(IncludeFailure(problem.message, *where))
    try:
        return _prepare(name, found.text, reader, roots, depth + 1, budget)
    except _Refused as e:
        inner = e.failure
        raise _Refused(
            IncludeFailure(f"{name}:{inner.line + 1}:{inner.column + 1}: {inner.message}", *where)
        ) from None


def _blank(part: str) -> str:
    return "".join(c if c in "\r\n" else " " for c in part)


def _edited(text: str, edits: list[tuple[int, int, str]]) -> str:
    parts: list[str] = []
    at = 0
    for start, end, new in sorted(edits):
        parts += (text[at:start], new)
        at = end
    parts.append(text[at:])
    return "".join(parts)


# ------------------------------------------------------------------------------ the scan


def _scan(text: str) -> tuple[list[_Directive], list[tuple[int, int]]]:
    """The gem's include directives, and the other words ``include`` that pyhocon would take
    for one (to be quoted: Puppet reads them as text)."""
    directives: list[_Directive] = []
    words: list[tuple[int, int]] = []
    n = len(text)
    i = 0
    line = 0
    line_start = 0
    stack: list[str] = []
    entry = True  # at the start of an object entry: where an include directive may stand
    value = False  # after `=` or `:`, before the value
    while i < n:
        c = text[i]
        if c == "\n":
            line += 1
            line_start = i + 1
            entry = (not stack or stack[-1] == "{") and not value
            i += 1
            continue
        if c in " \t\r\ufeff":
            i += 1
            continue
        if c == "#" or text.startswith("//", i):
            end = text.find("\n", i)
            i = n if end < 0 else end
            continue
        if text.startswith('"""', i):
            end = text.find('"""', i + 3)
            end = n if end < 0 else end + 3
            while end < n and text[end] == '"':
                end += 1
            line += text.count("\n", i, end)
            if "\n" in text[i:end]:
                line_start = text.rindex("\n", i, end) + 1
            i, entry, value = end, False, False
            continue
        if c == '"':
            i, entry, value = _quoted_end(text, i), False, False
            continue
        if c in "{[":
            stack.append(c)
            i += 1
            entry, value = c == "{", False
            continue
        if c in "}]":
            if stack:
                stack.pop()
            i += 1
            entry, value = False, False
            continue
        if c == ",":
            i += 1
            entry, value = not stack or stack[-1] == "{", False
            continue
        if c in "=:" or text.startswith("+=", i):
            i += 2 if c == "+" else 1
            entry, value = False, True
            continue
        word = text[i : i + 7]
        boundary = (i == 0 or not _IDENT.match(text[i - 1])) and not (
            i + 7 < n and _IDENT.match(text[i + 7])
        )
        if word.lower() == "include" and boundary:
            ends_token = i + 7 >= n or text[i + 7] in _UNQUOTED_END
            if entry and word == "include" and ends_token:
                d = _directive(text, i, line, i - line_start)
                directives.append(d)
                line += text.count("\n", i, d.end)
                i, entry, value = d.end, False, False
                continue
            if _PYHOCON_AFTER.match(text, i + 7):
                words.append((i, i + 7))
        i += 1
        entry, value = False, False
    return directives, words


def _quoted_end(text: str, start: int) -> int:
    """The index after a one-line quoted string starting at ``start`` (its end of line when
    it never closes: a syntax error pyhocon reports)."""
    i = start + 1
    n = len(text)
    while i < n:
        c = text[i]
        if c == "\\":
            i += 2
            continue
        if c == '"':
            return i + 1
        if c == "\n":
            return i
        i += 1
    return n


def _unescape(raw: str) -> str:
    """A quoted string's text as pyhocon's ``norm_string`` makes it (the name it passes on)."""
    from pyhocon.config_parser import ConfigParser

    replacements: dict[str, str] = ConfigParser.REPLACEMENTS
    return re.sub(r"\\.", lambda m: replacements.get(m.group(0), m.group(0)), raw)


def _directive(text: str, start: int, line: int, column: int) -> _Directive:
    """The directive whose ``include`` starts at ``start``, as the gem parses it."""
    n = len(text)
    i = start + 7
    while i < n and text[i] in " \t":
        i += 1

    def failed(message: str, end: int) -> _Directive:
        return _Directive(start, max(end, start + 7), line, column, "", "", message)

    if text.startswith('"', i) and not text.startswith('"""', i):
        end = _quoted_end(text, i)
        if not text.startswith('"', end - 1) or end - 1 == i:
            return failed("unterminated quoted string after include", end)
        return _Directive(start, end, line, column, "quoted", _unescape(text[i + 1 : end - 1]))
    m = re.match(r"[A-Za-z]+", text[i:])
    following = m.group(0) if m is not None else text[i : i + 1]
    if m is not None and following in _FUNCTIONS and text.startswith("(", i + len(following)):
        j = i + len(following) + 1
        while j < n and text[j] in " \t":
            j += 1
        if text.startswith('"', j) and not text.startswith('"""', j):
            end = _quoted_end(text, j)
            k = end
            while k < n and text[k] in " \t":
                k += 1
            if text.startswith('"', end - 1) and end - 1 > j and text.startswith(")", k):
                name = _unescape(text[j + 1 : end - 1])
                return _Directive(start, k + 1, line, column, following, name)
        return failed(f"expecting a quoted string inside {following}()", j + 1)
    if m is not None and (following in _FUNCTIONS or following in ("required", "package")):
        shown = following + ("(" if text.startswith("(", i + len(following)) else "")
        return failed(
            "expecting include parameter to be quoted filename, file(), classpath(), or url(). "
            f"No spaces are allowed before the open paren. Not expecting: '{shown}'",
            i + len(shown),
        )
    shown = following if following not in ("\n", "") else "newline"
    return failed(f"include keyword is not followed by a quoted string, but by: '{shown}'", i + 1)
