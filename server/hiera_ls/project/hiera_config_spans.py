"""Where a hiera.yaml finding goes: the range of a value or key by its path in Puppet's
string-keyed view of the file, Puppet's own line search for the line it names, and the
problems found so far with the first of them that makes Puppet raise."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

from hiera_ls.project.hiera_config_model import NO_SPAN, LayerName
from hiera_ls.project.hiera_config_rules import BY_CODE
from hiera_ls.puppet.values import RubySymbol
from hiera_ls.source.spans import NO_DETAILS, Details, Problem, Span
from hiera_ls.source.yaml_document import YamlDocument

if TYPE_CHECKING:
    from hiera_ls.puppet.type_mismatch import Mismatch

_LINE_RE = re.compile(r"[^\n]*\n|[^\n]+\Z")


class LocatedReader:
    """State for reading one file: the problems found so far and the first error."""

    def __init__(self, path: str, text: str, layer: LayerName, doc: YamlDocument) -> None:
        self.path = path
        self.text = text
        self.layer = layer
        self.doc = doc
        self.problems: list[Problem] = []
        self.error: str | None = None
        self.raw: object = None  # the loaded value (original keys), for ranges

    def _problem(
        self, code_id: str, message: str, span: Span, details: Details = NO_DETAILS
    ) -> Problem:
        problem = BY_CODE[code_id].at(message, self.path, span, details)
        self.problems.append(problem)
        return problem

    def _fail(
        self,
        code_id: str,
        text: str,
        span: Span,
        line: int | None = None,
        suffix: bool = True,
        details: Details = NO_DETAILS,
    ) -> None:
        """A finding that makes Puppet raise; the first one becomes the layer's error."""
        if suffix:
            where = f"file: {self.path}, line: {line}" if line is not None else f"file: {self.path}"
            text = f"{text} ({where})"
        self._problem(code_id, text, span, details)
        if self.error is None:
            self.error = text

    def find_line(self, pattern: str, start: int = 1) -> int | None:
        """Puppet's line search: the first line (from ``start``, 1-based) whose text before
        the first ``#`` matches ``pattern``.  Puppet cuts at any ``#``, quoted or not."""
        try:
            rx = re.compile(pattern, re.ASCII)
        except (re.error, ValueError):  # valid for Ruby, not for Python: no line
            return None
        for number, line in enumerate(_LINE_RE.findall(self.text), start=1):
            if number >= start and rx.search(line.split("#", 1)[0]):
                return number
        return None

    def _original_path(self, path: Sequence[object]) -> tuple[object, ...]:
        """The key path in the loaded document for a path in Puppet's (string-keyed) view."""
        node = self.raw
        out: list[object] = []
        for step in path:
            if isinstance(node, dict):
                match = None
                for k in node:
                    if k == step or (isinstance(k, RubySymbol) and k.name == step):
                        match = k
                if match is None:
                    break
                out.append(match)
                node = node[match]
            elif isinstance(node, list) and isinstance(step, int) and 0 <= step < len(node):
                out.append(step)
                node = node[step]
            else:
                break
        return tuple(out)

    def _span(self, path: Sequence[object], key: bool = False) -> Span:
        """The range of the value (or key) at ``path``, else of its nearest ancestor."""
        found = self._existing_span(path, key)
        return found if found is not None else NO_SPAN

    def _here(self, path: Sequence[object]) -> Span:
        """The value's own range; NO_SPAN for a value Puppet filled in (not in the file)."""
        original = self._original_path(path)
        spans = self.doc.nodes.get(original) if len(original) == len(path) else None
        return spans.value if spans is not None else NO_SPAN

    def _existing_span(self, path: Sequence[object], key: bool = False) -> Span | None:
        original = self._original_path(path)
        nodes = self.doc.nodes
        exact = len(original) == len(path)
        while True:
            spans = nodes.get(original)
            if spans is not None:
                return spans.key if key and exact and spans.key is not None else spans.value
            if not original:
                return None
            original = original[:-1]
            exact = False

    def _mismatch_span(self, m: Mismatch) -> Span:
        path = m.value_path()
        if m.kind == "missing-key":
            return self._first_line(path)
        return self._span(path, key=m.points_at_key)

    def _first_line(self, path: Sequence[object]) -> Span:
        """A mapping's first line: where to say that it lacks a key."""
        span = self._span(path)
        if span.end.line == span.start.line:
            return span
        lines = re.split("\r\n|\r|\n", self.text)  # a lone \r ends a line too
        end = len(lines[span.start.line]) if span.start.line < len(lines) else span.start.column
        return Span.of(
            span.start.line, span.start.column, span.start.line, max(end, span.start.column)
        )

    def _second_key_span(self, path: tuple[object, ...], keys: Sequence[str]) -> Span:
        """The key that makes a set of exclusive keys more than one (in file order)."""
        owner = self._original_path(path)
        present: list[tuple[Span, object]] = []
        for k in keys:
            spans = self.doc.nodes.get((*owner, original_key(self.raw, owner, k)))
            if spans is not None and spans.key is not None:
                present.append((spans.key, k))
        present.sort(key=lambda p: (p[0].start.line, p[0].start.column))
        return present[1][0] if len(present) > 1 else self._span(path)


def original_key(raw: object, owner: tuple[object, ...], key: str) -> object:
    node = raw
    for step in owner:
        if isinstance(node, dict):
            node = node.get(step)
        elif isinstance(node, list) and isinstance(step, int) and 0 <= step < len(node):
            node = node[step]
    if isinstance(node, dict):
        for k in node:
            if isinstance(k, RubySymbol) and k.name == key:
                return k
    return key
