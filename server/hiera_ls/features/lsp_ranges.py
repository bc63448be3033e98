"""The edge where our ranges (code points) become LSP's (UTF-16 units by default) and back.

Everything below this module counts code points, as ruamel/libyaml marks do.  The client
negotiates the unit (``general.positionEncodings``); without that, LSP says UTF-16, where
an emoji counts two.  Converting needs the text of the file, which may be another file
than the one being edited (definitions, references), so texts come from the snapshot.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from urllib.parse import unquote, urlparse

from lsprotocol import types

from hiera_ls.checks.causes import with_words
from hiera_ls.checks.problems import on_lines
from hiera_ls.checks.rules import RULES
from hiera_ls.features.render import file_uri
from hiera_ls.source.line_map import LineMap
from hiera_ls.source.spans import FileSpan, Position, Problem, Severity, Span
from hiera_ls.source.text_diff import common_ends
from hiera_ls.source.yaml_reparse import changed_lines

UTF8 = types.PositionEncodingKind.Utf8.value
UTF16 = types.PositionEncodingKind.Utf16.value
UTF32 = types.PositionEncodingKind.Utf32.value
SEVERITY = {
    Severity.ERROR: types.DiagnosticSeverity.Error,
    Severity.WARNING: types.DiagnosticSeverity.Warning,
    Severity.INFORMATION: types.DiagnosticSeverity.Information,
    Severity.HINT: types.DiagnosticSeverity.Hint,
}
SOURCE = "hiera-ls"
MAX_RELATED = 100  # a cause's consequences listed with it (its message counts them all)


def encoding_name(encoding: object) -> str:
    """'utf-8', 'utf-16' or 'utf-32' from whatever pygls negotiated (an enum or a string)."""
    value = getattr(encoding, "value", encoding)
    return value if value in (UTF8, UTF16, UTF32) else UTF16


def _units(text: str, encoding: str) -> int:
    if encoding == UTF32:
        return len(text)
    if encoding == UTF8:
        return len(text.encode("utf-8", "surrogatepass"))
    return len(text) + sum(1 for ch in text if ord(ch) > 0xFFFF)


def _code_points(line: str, units: int, encoding: str) -> int:
    if encoding == UTF32:
        return min(units, len(line))
    count = 0
    for i, ch in enumerate(line):
        if count >= units:
            return i
        if encoding == UTF8:
            count += len(ch.encode("utf-8", "surrogatepass"))
        else:
            count += 2 if ord(ch) > 0xFFFF else 1
    return len(line)


class Converter:
    """Positions of one text in one encoding (a file's lines are split once)."""

    def __init__(self, text: str, encoding: str = UTF16, previous: LineMap | None = None) -> None:
        """``previous``: the lines of a text ``text`` is an edit of (its table moved)."""
        self.lines = LineMap(text) if previous is None else LineMap.after_edit(previous, text)
        self.encoding = encoding_name(encoding)

    def to_lsp(self, pos: Position) -> types.Position:
        line = self.lines.line_text(pos.line)
        column = min(pos.column, len(line))
        if line.isascii():  # one unit per code point in every encoding (outlines: 40,000 calls)
            return types.Position(line=pos.line, character=column)
        return types.Position(line=pos.line, character=_units(line[:column], self.encoding))

    def to_lsp_range(self, span: Span) -> types.Range:
        return types.Range(start=self.to_lsp(span.start), end=self.to_lsp(span.end))

    def from_lsp(self, pos: types.Position) -> Position:
        line = self.lines.line_text(pos.line)
        return Position(pos.line, _code_points(line, pos.character, self.encoding))


def path_of(uri: str) -> str | None:
    parsed = urlparse(uri)
    if parsed.scheme != "file":
        return None
    return unquote(parsed.path)


def uri_of(path: str) -> str:
    return file_uri(path)


def diagnostic(
    problem: Problem, conv: Converter, converter_of: Callable[[str], Converter] | None = None
) -> types.Diagnostic:
    """The problem for the editor; its details travel as the diagnostic's ``data``, which the
    client hands back with a code action request (the fixes read them, not the message). A
    cause lists the lookups it makes fail as related information (``converter_of(path)``: the
    positions of another file's text)."""
    rule = RULES.get(problem.code)
    details = problem.details.as_data()
    related = None
    if problem.consequences is not None and converter_of is not None:
        related = [
            types.DiagnosticRelatedInformation(
                location=types.Location(
                    uri=uri_of(c.where.path),
                    range=converter_of(c.where.path).to_lsp_range(c.where.span),
                ),
                message=f"Looking up '{c.key}' fails because of this",
            )
            for c in problem.consequences.items[:MAX_RELATED]
        ]
    return types.Diagnostic(
        range=conv.to_lsp_range(problem.where.span),
        message=with_words(problem.message, problem.consequences),
        severity=SEVERITY[problem.severity],
        code=problem.code,
        source=SOURCE,
        tags=[types.DiagnosticTag.Unnecessary] if rule is not None and rule.unnecessary else None,
        data=details or None,
        related_information=related,
    )


class ConvertedDiagnostics:
    """Each file's problems as the editor's diagnostics, kept from one publish to the next.

    An edit publishes the file's every finding again (2,371 on a 10,000-line file), nearly
    all unchanged: a problem's diagnostic is reused while the lines its range starts and
    ends on read the same (a diagnostic depends on nothing else of the text). A cause's,
    whose related information ranges over other files, is made anew each time. After an
    edit that added or removed no line, the findings it left alike at either end of the
    list (``common_ends``) and away from its lines are taken from the last publish by
    slices, the others looked at one by one.
    """

    def __init__(self) -> None:
        self._kept: dict[str, _Published] = {}

    def diagnostics(
        self,
        path: str,
        problems: Sequence[Problem],
        conv: Converter,
        converter_of: Callable[[str], Converter] | None = None,
    ) -> list[types.Diagnostic]:
        last = self._kept.get(path)
        if last is not None and last.conv.encoding != conv.encoding:
            last = None
        problems = list(problems)
        done = _after_edit(last, problems, conv, converter_of) if last is not None else None
        if done is None:
            done = _each(last, problems, conv, converter_of)
        self._kept[path] = done
        return done.out

    def forget(self, path: str) -> None:
        self._kept.pop(path, None)

    def copy(self) -> ConvertedDiagnostics:
        """For a background run: its conversions are adopted file by file (``adopt``)."""
        copied = ConvertedDiagnostics()
        copied._kept = dict(self._kept)
        return copied

    def adopt(self, other: ConvertedDiagnostics, path: str) -> None:
        kept = other._kept.get(path)
        if kept is not None:
            self._kept[path] = kept


_Made = tuple[str, str, types.Diagnostic] | None  # None: a cause's, made anew each time


@dataclass(frozen=True, slots=True)
class _Published:
    """One publish of a file: its problems, each one's diagnostic with the texts before its
    start and its end on their lines (what it was made from), and the lines each starts and
    ends on."""

    conv: Converter
    problems: list[Problem]
    made: list[_Made]
    out: list[types.Diagnostic]
    starts: list[int]
    ends: list[int]
    causes: list[int]  # where the causes are (their diagnostics are made anew)


def _one(
    p: Problem,
    made: _Made,
    conv: Converter,
    converter_of: Callable[[str], Converter] | None,
    same: bool,
) -> _Made:
    """``p``'s diagnostic: ``made`` (the last one of an equal problem) while it holds."""
    if p.consequences is not None:
        return None
    if made is not None and same:
        return made
    # its range is made from the text before its start and before its end on their lines: an
    # edit after its end on its line (a value typed after a key's finding) leaves it as it is
    span = p.where.span
    lines = conv.lines
    text = lines.line_text(span.start.line)
    start = text[: span.start.column]
    if span.end.line != span.start.line:
        text = lines.line_text(span.end.line)
    end = text[: span.end.column]
    if made is None or made[0] != start or made[1] != end:
        made = (start, end, diagnostic(p, conv, converter_of))
    return made


def _each(
    last: _Published | None,
    problems: list[Problem],
    conv: Converter,
    converter_of: Callable[[str], Converter] | None,
) -> _Published:
    """Every problem looked at (its last diagnostic found by value)."""
    same = last is not None and last.conv is conv  # (one text, one encoding): all hold
    before = dict(zip(last.problems, last.made, strict=True)) if last is not None else {}
    made = [_one(p, before.get(p), conv, converter_of, same) for p in problems]
    out = [
        m[2] if m is not None else diagnostic(p, conv, converter_of)
        for p, m in zip(problems, made, strict=True)
    ]
    spans = [p.where.span for p in problems]
    starts, ends = [s.start.line for s in spans], [s.end.line for s in spans]
    causes = [i for i, m in enumerate(made) if m is None]
    return _Published(conv, problems, made, out, starts, ends, causes)


def _after_edit(
    last: _Published,
    problems: list[Problem],
    conv: Converter,
    converter_of: Callable[[str], Converter] | None,
) -> _Published | None:
    """The publish after an edit that added or removed no line, from the last one by slices;
    None when that does not apply (lines added, line ends with \r, findings not in file
    order)."""
    old_lines, lines = last.conv.lines, conv.lines
    if last.conv is conv or old_lines.has_cr or lines.has_cr:
        return None
    first, old_end, new_end = changed_lines(old_lines.text, lines.text)
    if old_end != new_end:
        return None
    head, tail = common_ends(last.problems, problems)
    n, old_n = len(problems), len(last.problems)
    middle = problems[head : n - tail]
    spans = [p.where.span for p in middle]
    starts = [*last.starts[:head], *(s.start.line for s in spans), *last.starts[old_n - tail :]]
    ends = [*last.ends[:head], *(s.end.line for s in spans), *last.ends[old_n - tail :]]
    near = on_lines(starts, ends)
    if near is None:
        return None
    # those before ``lo`` end before the edited lines, those from ``hi`` on start after them
    edited = near(first, old_end - 1)
    lo, hi = edited.start, edited.stop
    shift = n - old_n
    before = dict(
        zip(last.problems[head : old_n - tail], last.made[head : old_n - tail], strict=True)
    )
    made: list[_Made] = []
    out: list[types.Diagnostic] = []
    looked: list[int] = []  # looked at one by one
    # the findings the edit left alike at the start (where they were) and at the end (moved
    # by the findings it added), kept as they were unless they touch the edited lines
    for start, stop, moved in ((0, head, 0), (head, n - tail, None), (n - tail, n, shift)):
        a = b = stop  # [start, a) and [b, stop) kept, [a, b) looked at
        if moved is None:
            a = start
        else:
            a = min(max(lo, start), stop)
            b = max(min(hi, stop), a)
            made.extend(last.made[start - moved : a - moved])
            out.extend(last.out[start - moved : a - moved])
        for i in range(a, b):
            p = problems[i]
            was = before.get(p) if moved is None else last.made[i - moved]
            m = _one(p, was, conv, converter_of, False)
            made.append(m)
            out.append(m[2] if m is not None else diagnostic(p, conv, converter_of))
            looked.append(i)
        if moved is not None:
            made.extend(last.made[b - moved : stop - moved])
            out.extend(last.out[b - moved : stop - moved])
    seen = set(looked)
    kept = {i for i in last.causes if i < head} | {
        i + shift for i in last.causes if i >= old_n - tail
    }
    for i in kept - seen:  # a cause's related information ranges over other files
        out[i] = diagnostic(problems[i], conv, converter_of)
    causes = sorted(kept - seen | {i for i in looked if made[i] is None})
    return _Published(conv, problems, made, out, starts, ends, causes)


def locations(
    spans: Sequence[FileSpan], converter_of: Callable[[str], Converter]
) -> list[types.Location]:
    """``converter_of(path)``: the positions of that file's text (the server keeps them)."""
    return [
        types.Location(uri=uri_of(fs.path), range=converter_of(fs.path).to_lsp_range(fs.span))
        for fs in spans
    ]
