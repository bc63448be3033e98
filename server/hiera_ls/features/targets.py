"""What the cursor is on: a data key, a lookup_options entry, an interpolation token, a
hiera.yaml location, or a ``lookup('key')`` call in some other file.

Hover, definition, references and explain all start here, so they agree on what a
position means.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass

from hiera_ls.project.key_index import iter_scalar_tokens, locate_tokens
from hiera_ls.project.level_files import LevelRef
from hiera_ls.project.workspace import FileKind, Snapshot
from hiera_ls.source.interpolation import Token, TokenKind
from hiera_ls.source.keys import LOOKUP_OPTIONS
from hiera_ls.source.line_map import LineMap
from hiera_ls.source.node_table import Nodes, NodeSpans
from hiera_ls.source.spans import Position, Span

NodePath = tuple[object, ...]

# lookup('key'), hiera('key'), lookup("key", ...) in manifests, templates, plans.
CALL_RE = re.compile(
    r"\b(lookup|hiera|hiera_array|hiera_hash|hiera_include)\s*\(\s*(['\"])([^'\"\n]+)\2"
)


@dataclass(frozen=True, slots=True)
class DataKey:
    """The cursor on a key (or its value) of a data file."""

    path: str
    node_path: NodePath  # from the file's top level; first element is the root key
    span: Span  # the key (or, when on a value, the value)

    @property
    def root(self) -> str:
        return str(self.node_path[0])

    @property
    def key_text(self) -> str:
        """The lookup key that reaches this node: ``root.sub.'dotted.key'.0``."""
        return key_text(self.node_path)


@dataclass(frozen=True, slots=True)
class OptionsKey:
    """The cursor on a ``lookup_options`` entry's key."""

    path: str
    pattern: str  # the lookup_options key as written (a literal key or a ^regex)
    span: Span


@dataclass(frozen=True, slots=True)
class TokenAt:
    """The cursor on a ``%{...}`` token of a data file or hiera.yaml."""

    path: str
    span: Span
    token: Token
    level: LevelRef | None = None  # set for a token inside a hiera.yaml location


@dataclass(frozen=True, slots=True)
class LocationAt:
    """The cursor on a hierarchy level's location in hiera.yaml."""

    path: str  # the hiera.yaml
    span: Span
    level: LevelRef


@dataclass(frozen=True, slots=True)
class KeyCall:
    """The cursor on a key named in a ``lookup()`` call of Puppet code."""

    path: str
    span: Span
    key: str


Target = DataKey | OptionsKey | TokenAt | LocationAt | KeyCall


def key_text(node_path: NodePath) -> str:
    parts: list[str] = []
    for i, seg in enumerate(node_path):
        if isinstance(seg, int) and not isinstance(seg, bool) and i > 0:
            parts.append(str(seg))
            continue
        text = str(seg)
        if (i == 0 and "." not in text and "'" not in text and '"' not in text) or (
            re.fullmatch(r"[^'\".\s]+", text) and not re.fullmatch(r"[+-]?[0-9]+", text)
        ):
            parts.append(text)
        elif "'" not in text:
            parts.append(f"'{text}'")
        else:
            parts.append(f'"{text}"')
    return ".".join(parts)


def _raw_items(
    nodes: Mapping[NodePath, NodeSpans], line: int | None = None
) -> Iterator[tuple[NodePath, tuple[int, ...]]]:
    """(path, (key start line, col, key end line, col, value start line, col, end line, col)).

    With ``line``, a node table yields only the nodes that span it (the others cannot match).
    """
    if isinstance(nodes, Nodes):
        for path, r in nodes.raw_items() if line is None else nodes.covering(line):
            yield path, (r[0], r[1], r[2], r[3], r[4], r[5], r[6], r[7])
        return
    for path, spans in nodes.items():
        k = spans.key
        v = spans.value
        key = (
            (k.start.line, k.start.column, k.end.line, k.end.column)
            if k is not None
            else (-1, -1, -1, -1)
        )
        yield path, (*key, v.start.line, v.start.column, v.end.line, v.end.column)


def _within(pos: Position, span: Span) -> bool:
    return span.start <= pos <= span.end


def node_at(
    nodes: Mapping[NodePath, NodeSpans], pos: Position
) -> tuple[NodePath, Span, bool] | None:
    """The deepest node under ``pos``: (its path, the span hit, whether the key was hit).

    Works on plain ints: an alias-heavy file can hold 10^5 nodes, and a hover must stay quick.
    """
    here = (pos.line, pos.column)
    line = pos.line
    best_key: tuple[NodePath, tuple[int, ...]] | None = None
    best_value: tuple[NodePath, tuple[int, ...]] | None = None
    for path, r in _raw_items(nodes, line):
        if not path:
            continue
        if r[0] >= 0 and r[0] <= line <= r[2] and (r[0], r[1]) <= here <= (r[2], r[3]):
            if best_key is None or len(path) >= len(best_key[0]):
                best_key = (path, r)
        elif (
            r[4] <= line <= r[6]
            and (r[4], r[5]) <= here <= (r[6], r[7])
            and (best_value is None or len(path) > len(best_value[0]))
        ):
            best_value = (path, r)
    if best_key is not None:
        r = best_key[1]
        return best_key[0], Span.of(r[0], r[1], r[2], r[3]), True
    if best_value is not None:
        r = best_value[1]
        return best_value[0], Span.of(r[4], r[5], r[6], r[7]), False
    return None


def target_at(snapshot: Snapshot, path: str, pos: Position) -> Target | None:
    kind = snapshot.kind_of(path)
    if kind is FileKind.DATA:
        return _data_target(snapshot, path, pos)
    if kind is FileKind.HIERA_CONFIG:
        return _config_target(snapshot, path, pos)
    if kind is FileKind.FACTS:
        return None
    return _call_target(snapshot, path, pos)


MISSING = object()


def value_at(data: object, node_path: NodePath) -> object:
    """The value at a node path, or :data:`MISSING`."""
    current = data
    for step in node_path:
        if isinstance(current, dict):
            if step not in current:
                return MISSING
            current = current[step]
        elif isinstance(current, list) and isinstance(step, int) and 0 <= step < len(current):
            current = current[step]
        else:
            return MISSING
    return current


def _token_under(
    snapshot: Snapshot,
    path: str,
    df_data: Mapping[object, object],
    nodes: Mapping[NodePath, NodeSpans],
    node_path: NodePath,
    on_key: bool,
    pos: Position,
) -> TokenAt | None:
    """A token of the scalar under the cursor (only that scalar is scanned)."""
    string = node_path[-1] if on_key else value_at(df_data, node_path)
    spans = nodes.get(node_path)
    text = snapshot.text(path)
    if not isinstance(string, str) or "%{" not in string or spans is None or text is None:
        return None
    span = (spans.key or spans.value) if on_key else spans.value
    style = None if on_key else spans.style
    for use in iter_scalar_tokens(path, text, span, style, string, node_path, on_key):
        if use.span == span:
            continue  # a token that could not be placed
        if _within(pos, use.span):
            return TokenAt(path, use.span, use.token)
        if pos < use.span.start:
            break  # tokens come in order: the cursor is between two of them
    return None


def _data_target(snapshot: Snapshot, path: str, pos: Position) -> Target | None:
    df = snapshot.data_file(path)
    if df is None:
        return None
    hit = node_at(df.nodes, pos)
    if hit is None:
        return None
    node_path, span, on_key = hit
    token = _token_under(snapshot, path, df.data, df.nodes, node_path, on_key, pos)
    if token is not None:
        return token
    if node_path[0] == LOOKUP_OPTIONS:
        if len(node_path) >= 2 and isinstance(node_path[1], str) and (on_key or len(node_path) > 2):
            spans = df.nodes.get(node_path[:2])
            key_span = spans.key if spans is not None and spans.key is not None else span
            return OptionsKey(path, node_path[1], key_span)
        return None
    if not on_key:
        while len(node_path) > 1 and isinstance(node_path[-1], int):
            node_path = node_path[:-1]
    if not isinstance(node_path[0], str):
        return None
    return DataKey(path, node_path, span)


def _config_target(snapshot: Snapshot, path: str, pos: Position) -> Target | None:
    view = snapshot.environment_for(path)
    text = snapshot.text(path)
    if view is None or text is None:
        return None
    layer = view.configs.get(path)
    lines: LineMap | None = None
    for level in view.levels:
        if level.layer is not layer or level.template_span is None:
            continue
        spec = level.entry.location
        if spec.kind == "mapped_paths" and len(spec.spans) == 3 and _within(pos, spec.spans[0]):
            expression = spec.values[0]
            token = Token(0, len(expression), expression, expression, TokenKind.VARIABLE)
            return TokenAt(path, spec.spans[0], token, level)
        if not _within(pos, level.template_span):
            continue
        lines = lines or LineMap(text)
        for use in locate_tokens(path, lines, level.template_span, level.template, (), False):
            if _within(pos, use.span) and use.span != level.template_span:
                return TokenAt(path, use.span, use.token, level)
        return LocationAt(path, level.template_span, level)
    return None


def _call_target(snapshot: Snapshot, path: str, pos: Position) -> Target | None:
    text = snapshot.text(path)
    if text is None:
        return None
    line = LineMap(text).line_text(pos.line)
    for m in CALL_RE.finditer(line):
        start, end = m.start(3) - 1, m.end(3) + 1  # the quoted string
        if start <= pos.column <= end:
            return KeyCall(path, Span.of(pos.line, start, pos.line, end), m.group(3))
    return None
