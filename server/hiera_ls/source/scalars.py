"""Every string of a loaded data file (values and hash keys), with its source range.

Puppet interpolates every string a data file gives, keys included, so the checks look at
all of them.  The walk follows the loader's node table rather than the data: the table is
bounded (alias bombs stay small) and already knows where each scalar sits.  An alias of a
scalar (``*name``) is marked, because its tokens are reported where the anchor is written.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field

from hiera_ls.source.data_file import DataFile
from hiera_ls.source.node_table import Nodes, NodeSpans
from hiera_ls.source.spans import Span
from hiera_ls.source.string_positions import ScalarMap, SourceLines, infer_style, map_scalar

NodePath = tuple[object, ...]
VISIT_BUDGET = 200_000


@dataclass(frozen=True, slots=True)
class StringSite:
    """One string scalar: a value, or a hash key (``in_key``)."""

    node_path: NodePath  # the key path of the value (for a key: of the value it names)
    value: str
    in_key: bool
    scalar: Span  # the scalar's source range
    style: str | None
    alias: bool  # an alias of a scalar written (and reported) elsewhere

    @property
    def root_key(self) -> object:
        return self.node_path[0] if self.node_path else None


def iter_strings(
    data_file: DataFile, lines: SourceLines, only_with: str | None = "%{"
) -> Iterator[StringSite]:
    """String values and keys of the file; with ``only_with``, only those containing it.

    Walks the data (cheap) and asks the node table only for the strings it yields; a visit
    budget keeps alias bombs (a few lines naming millions of nodes) cheap.
    """
    nodes: Mapping[NodePath, NodeSpans] = data_file.nodes
    size = nodes.size_bound() if isinstance(nodes, Nodes) else len(nodes)
    budget = max(VISIT_BUDGET, 4 * size)
    stack: list[tuple[object, NodePath]] = [(data_file.data, ())]
    everything = only_with is None
    needle = only_with or ""
    while stack and budget > 0:
        value, at = stack.pop()
        items: list[tuple[object, object]]
        in_dict = isinstance(value, dict)
        if isinstance(value, dict):
            items = list(value.items())
        elif isinstance(value, list):
            items = list(enumerate(value))
        else:
            continue
        budget -= len(items)
        for key, item in reversed(items):
            if in_dict and isinstance(key, str) and (everything or needle in key):
                spans = nodes.get((*at, key))
                if spans is not None and spans.key is not None:
                    yield StringSite(
                        (*at, key), str(key), True, spans.key, None, _is_alias(lines, spans.key)
                    )
            if isinstance(item, (dict, list)):
                stack.append((item, (*at, key)))
            elif isinstance(item, str) and (everything or needle in item):
                spans = nodes.get((*at, key))
                if spans is not None:
                    yield StringSite(
                        (*at, key),
                        str(item),
                        False,
                        spans.value,
                        spans.style,
                        _is_alias(lines, spans.value),
                    )


def _is_alias(lines: SourceLines, span: Span) -> bool:
    return lines.line(span.start.line)[span.start.column : span.start.column + 1] == "*"


@dataclass(slots=True)
class Locator:
    """Source ranges of value offsets, one document; scalar maps are built once each."""

    lines: SourceLines
    json: bool = False
    may_have_tokens: bool = True  # False: no string of the document can hold a %{
    _maps: dict[tuple[Span, bool], ScalarMap | None] = field(default_factory=dict)

    @staticmethod
    def of(text: str, json: bool = False) -> Locator:
        # An escape (\x25, \u0025) can spell the % of a token without a literal "%{".
        may = "%{" in text or ("\\" in text and "25" in text)
        return Locator(SourceLines(text if may else "", json), json, may)

    def span(self, site: StringSite, start: int, end: int) -> Span:
        """The source range of ``site.value[start:end]``; the whole scalar when unsure."""
        cache_key = (site.scalar, site.in_key)
        if cache_key not in self._maps:
            # Keys carry no recorded style; a plain scalar never starts with a quote or | >.
            style = site.style if site.style is not None else infer_style(self.lines, site.scalar)
            self._maps[cache_key] = map_scalar(
                self.lines, site.scalar, style, site.value, self.json
            )
        found = self._maps[cache_key]
        if found is None or start >= len(site.value):
            return site.scalar
        return found.span(start, end)
