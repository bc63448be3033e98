"""The edge where our ranges (code points) become LSP's (UTF-16 units by default) and back.

Everything below this module counts code points, as ruamel/libyaml marks do.  The client
negotiates the unit (``general.positionEncodings``); without that, LSP says UTF-16, where
an emoji counts two.  Converting needs the text of the file, which may be another file
than the one being edited (definitions, references), so texts come from the snapshot.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from urllib.parse import unquote, urlparse

from lsprotocol import types

from hiera_ls.checks.causes import with_words
from hiera_ls.checks.rules import RULES
from hiera_ls.features.render import file_uri
from hiera_ls.source.line_map import LineMap
from hiera_ls.source.spans import FileSpan, Position, Problem, Severity, Span
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
    whose related information ranges over other files, is made anew each time.
    """

    def __init__(self) -> None:
        # path -> the converter last used, and problem -> (start line, end line, diagnostic)
        self._kept: dict[str, tuple[Converter, dict[Problem, _Made]]] = {}

    def diagnostics(
        self,
        path: str,
        problems: Sequence[Problem],
        conv: Converter,
        converter_of: Callable[[str], Converter] | None = None,
    ) -> list[types.Diagnostic]:
        last_conv, last = self._kept.get(path, (None, {}))
        same = last_conv is conv  # (one text, one encoding): every kept diagnostic holds
        if last_conv is not None and last_conv.encoding != conv.encoding:
            last = {}
        kept: dict[Problem, _Made] = {}
        out: list[types.Diagnostic] = []
        lines = conv.lines
        # after an edit that added or removed no line, the lines outside it read the same
        # (the text of each is not compared: 2,371 slices of a 10,000-line file)
        same_before, same_from = 0, -1
        if not same and last and last_conv is not None and not last_conv.lines.has_cr:
            first, old_end, new_end = changed_lines(last_conv.lines.text, lines.text)
            if old_end == new_end and not lines.has_cr:
                same_before, same_from = first, old_end
        for p in problems:
            if p.consequences is not None:
                out.append(diagnostic(p, conv, converter_of))
                continue
            made = last.get(p)
            if made is not None and not same and same_from >= 0:
                span = p.where.span
                if span.end.line < same_before or span.start.line >= same_from:
                    kept[p] = made
                    out.append(made[2])
                    continue
            if made is None or not same:
                span = p.where.span
                start = lines.line_text(span.start.line)
                end = start if span.end.line == span.start.line else lines.line_text(span.end.line)
                if made is None or made[0] != start or made[1] != end:
                    made = (start, end, diagnostic(p, conv, converter_of))
            kept[p] = made
            out.append(made[2])
        self._kept[path] = (conv, kept)
        return out

    def forget(self, path: str) -> None:
        self._kept.pop(path, None)


_Made = tuple[str, str, types.Diagnostic]


def locations(
    spans: Sequence[FileSpan], converter_of: Callable[[str], Converter]
) -> list[types.Location]:
    """``converter_of(path)``: the positions of that file's text (the server keeps them)."""
    return [
        types.Location(uri=uri_of(fs.path), range=converter_of(fs.path).to_lsp_range(fs.span))
        for fs in spans
    ]
