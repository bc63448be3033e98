"""Exact source ranges of interpolation tokens, for the key index (references, hover).

The checks replay libyaml's scanning of every scalar style (quotes, escapes, folding,
block scalars, JSON strings); the project layer cannot import them, so the server hands
this function to the workspace's key index.
"""

from __future__ import annotations

from hiera_ls.project.key_index import ScalarSpan
from hiera_ls.source.spans import Span
from hiera_ls.source.string_positions import ScalarMap, SourceLines, infer_style, map_scalar


def exact_token_spans(text: str, is_json: bool) -> ScalarSpan:
    lines = SourceLines(text, is_json)
    maps: dict[tuple[Span, str], ScalarMap | None] = {}

    def span_of(scalar: Span, style: str | None, value: str, start: int, end: int) -> Span | None:
        key = (scalar, value)
        if key not in maps:
            known = style if style is not None else infer_style(lines, scalar)
            maps[key] = map_scalar(lines, scalar, known, value, is_json)
        found = maps[key]
        if found is None or start >= len(value):
            return None
        return found.span(start, end)

    return span_of
