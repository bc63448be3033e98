"""The rules about suppression comments and the codes ``.hiera-ls.yaml`` names, and the one
fix every problem has: ``# hiera-ls: disable-line=CODE`` where a YAML comment can hold it."""

from __future__ import annotations

import re

from hiera_ls.source.fix_source import FixSource
from hiera_ls.source.rules import Rule
from hiera_ls.source.spans import Position, Problem, Severity, Span
from hiera_ls.source.text_edits import Fix, edit

DISABLE_PREFIX = "# hiera-ls: disable-line="
DISABLE_NEXT_PREFIX = "# hiera-ls: disable-next-line="

SUPPRESSION_UNUSED = Rule(
    "suppression-unused",
    Severity.WARNING,
    "A suppression comment that suppresses nothing: the problem it was for is gone",
)
SUPPRESSION_UNKNOWN_CODE = Rule(
    "suppression-unknown-code",
    Severity.WARNING,
    "A suppression comment names a code or glob that matches no diagnostic code",
)
SUPPRESSION_MALFORMED = Rule(
    "suppression-malformed",
    Severity.WARNING,
    "A `# hiera-ls:` comment that is not disable-line, disable-next-line or disable-file",
)
CONFIG_UNKNOWN_CODE = Rule(  # .hiera-ls.yaml is read below the checks, which know the codes
    "config-unknown-code",
    Severity.WARNING,
    "A code or glob in .hiera-ls.yaml that names no diagnostic code: it changes nothing",
)
RULES = (SUPPRESSION_UNUSED, SUPPRESSION_UNKNOWN_CODE, SUPPRESSION_MALFORMED, CONFIG_UNKNOWN_CODE)


def disable_line(problem: Problem, src: FixSource) -> Fix | None:
    """``# hiera-ls: disable-line=CODE`` at the end of the problem's first line; when the
    line has another comment or ends inside a scalar, ``# hiera-ls: disable-next-line=CODE``
    on a line of its own above it. An existing list gets the code added. JSON has no
    comments."""
    line_no = problem.where.span.start.line
    if src.json or line_no >= src.line_count:
        return None
    code = problem.code
    title = f"Disable {code} on this line"
    line = src.line(line_no)
    end = Position(line_no, len(line))
    comment = src.comment_start(line_no)
    if comment is not None and comment >= 0:
        listed = _directive(line, line_no, comment, "disable-line")
        if listed is not None:
            return _with_code(listed, code, title)
    elif comment is None and not src.inside_scalar(end):
        gap = "" if line.endswith((" ", "\t")) else "  "
        return Fix(title, edit(Span(end, end), f"{gap}{DISABLE_PREFIX}{code}"))
    start = Position(line_no, 0)
    if line_no > 0:
        above = src.line(line_no - 1)
        column = len(above) - len(above.lstrip())
        listed = _directive(above, line_no - 1, column, "disable-next-line")
        if listed is not None:
            return _with_code(listed, code, title)
    if src.inside_scalar(start) or (
        line_no > 0 and src.inside_scalar(Position(line_no - 1, len(src.line(line_no - 1))))
    ):
        return None
    indent = line[: len(line) - len(line.lstrip())]
    new = f"{indent}{DISABLE_NEXT_PREFIX}{code}{src.newline}"
    return Fix(title, edit(Span(start, start), new))


def _directive(
    line: str, line_no: int, column: int, kind: str
) -> tuple[list[str], Position] | None:
    """The codes of a ``# hiera-ls: <kind>=A,B`` comment at ``column``, and where the list ends."""
    m = re.match(rf"#\s*hiera-ls:\s*{kind}=([\w,-]*)", line[column:])
    if m is None:
        return None
    return [c for c in m.group(1).split(",") if c], Position(line_no, column + m.end(1))


def _with_code(listed: tuple[list[str], Position], code: str, title: str) -> Fix | None:
    codes, at = listed
    if code in codes:
        return None  # already disabled there
    return Fix(title, edit(Span(at, at), f",{code}" if codes else code))
