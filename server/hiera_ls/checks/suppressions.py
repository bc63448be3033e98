"""Inline suppressions: ``# hiera-ls: disable-line=CODE`` and its two siblings, read from YAML
comments (docs/diagnostics.md, "Suppressing a diagnostic").

- ``# hiera-ls: disable-line=CODE[,CODE...]`` after a value silences those codes on its own
  line; alone on a line, it silences them on the line below (where a fix inserts it).
- ``# hiera-ls: disable-next-line=CODE`` silences the line below, wherever it is written.
- ``# hiera-ls: disable-file=CODE`` silences the codes in the whole file.

Without ``=CODE`` a suppression silences every code (as ``# eslint-disable-line`` and
``# noqa`` do). A code may be a glob (``yaml11-*``), and a reason may follow `` -- ``. The
directive may come after another comment on the same line (``# why # hiera-ls: ...``).
Only real comments count: a ``#`` inside a quoted string or a block scalar is text
(``source/yaml_comments.py``). A problem is on the line where its range starts.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import Enum

from hiera_ls.checks.rules import known_pattern
from hiera_ls.checks.suppression_rules import SUPPRESSION_MALFORMED, SUPPRESSION_UNKNOWN_CODE
from hiera_ls.source.spans import Problem, Span
from hiera_ls.source.yaml_comments import Comment, yaml_comments

MARK = "hiera-ls:"
_DIRECTIVE = re.compile(r"(disable-line|disable-next-line|disable-file)\b\s*(?:=\s*(.*))?$")
_CODE = re.compile(r"[A-Za-z0-9*?\[\]_-]+")
_BREAK = re.compile("\r\n|[\r\n\x85\u2028\u2029]")  # line breaks as the YAML scanner counts them


class Scope(Enum):
    LINE = "disable-line"
    NEXT_LINE = "disable-next-line"
    FILE = "disable-file"


@dataclass(frozen=True, slots=True)
class Suppression:
    """One suppression comment: the codes it silences, on one line or in the whole file."""

    scope: Scope
    codes: tuple[str, ...]  # codes or globs; empty: every code
    line: int | None  # the line it silences; None: the whole file
    span: Span  # the comment, where an unused suppression is reported


@dataclass(frozen=True, slots=True)
class Suppressions:
    """A file's suppression comments, and what is wrong with the malformed ones."""

    found: tuple[Suppression, ...]
    problems: tuple[Problem, ...]  # malformed comments and unknown codes


NONE = Suppressions((), ())


def may_hold_suppressions(path: str, text: str | None) -> bool:
    """Cheap test first: only YAML texts naming the mark are scanned for comments."""
    return text is not None and MARK in text and not path.endswith(".json")


def find_suppressions(path: str, text: str) -> Suppressions:
    if not may_hold_suppressions(path, text):
        return NONE
    found: list[Suppression] = []
    problems: list[Problem] = []
    last = len(_BREAK.findall(text, 0, text.rindex(MARK)))  # no suppression below this line
    for comment in yaml_comments(text, last):
        # the directive may follow another comment on the line (`# why # hiera-ls: ...`), as
        # when a fix appends it, and another `#` ends it
        body = next((p.strip() for p in comment.text.split("#") if p.strip().startswith(MARK)), "")
        if not body:
            continue
        span = Span.of(
            comment.line, comment.column, comment.line, comment.column + 1 + len(comment.text)
        )
        parsed = _parse(body[len(MARK) :].strip(), comment, span)
        if isinstance(parsed, str):
            problems.append(SUPPRESSION_MALFORMED.at(parsed, path, span))
            continue
        unknown = [c for c in parsed.codes if not known_pattern(c)]
        for code_id in unknown:
            problems.append(
                SUPPRESSION_UNKNOWN_CODE.at(
                    f"{code_id} names no hiera-ls diagnostic code: this suppression silences "
                    "nothing for it (docs/diagnostics.md lists the codes)",
                    path,
                    span,
                )
            )
        if unknown and len(unknown) == len(parsed.codes):
            continue
        known = tuple(c for c in parsed.codes if c not in unknown)
        found.append(Suppression(parsed.scope, known, parsed.line, span))
    return Suppressions(tuple(found), tuple(problems))


def _parse(rest: str, comment: Comment, span: Span) -> Suppression | str:
    """The suppression a comment holds, or why it holds none."""
    rest = re.split(r"\s--(?:\s|$)", rest, maxsplit=1)[0].strip()  # drop the reason
    match = _DIRECTIVE.fullmatch(rest)
    if match is None:
        return (
            "Not a hiera-ls suppression: write `# hiera-ls: disable-line=CODE`, "
            "`disable-next-line=CODE` or `disable-file=CODE`"
        )
    scope = Scope(match.group(1))
    codes: tuple[str, ...] = ()
    if match.group(2) is not None:
        items = [c.strip() for c in match.group(2).split(",")]
        if not all(items) or not all(_CODE.fullmatch(c) for c in items):
            return (
                f"`{scope.value}=` takes codes separated by commas, such as "
                f"`# hiera-ls: {scope.value}=yaml11-boolean,yaml11-octal`"
            )
        codes = tuple(dict.fromkeys(items))
    if scope is Scope.FILE:
        line = None
    elif scope is Scope.NEXT_LINE or comment.own_line:
        line = comment.line + 1
    else:
        line = comment.line
    return Suppression(scope, codes, line, span)
