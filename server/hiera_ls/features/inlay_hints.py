"""Inlay hints: what the active facts profile makes of a data file, written into its text.

- after each interpolation token, the text it expands to for the node (``%{facts.hostname}``
  gives ``web01``; a ``lookup()`` token the looked-up value, shortened); a token Puppet
  fails on gets a short marker, the error itself only in the tooltip;
- after a key whose value in this file is not what the node finally gets, the value it
  gets (short) and where from: the file that wins, or ``merged`` when a merge adds to it.

Only with a profile, and only in files some level reads for it. The answers are kept for
the snapshot (per token text, per key), so scrolling asks the engine only for what is new.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from hiera_ls.engine.lookup import LookupSession
from hiera_ls.engine.trace import Kind, TraceNode
from hiera_ls.features.hover import variable_value
from hiera_ls.features.provenance import PROBE_KEY, winning_files
from hiera_ls.features.puppet_code import (
    asked_by,
    merge_value,
    previewed_merges,
    ready_code_index,
)
from hiera_ls.features.render import REDACTED, displayable, relative, shrink
from hiera_ls.features.sessions import scope_for, shared_session
from hiera_ls.features.targets import value_at
from hiera_ls.project.asked_merges import AskedMerge
from hiera_ls.project.key_index import root_of
from hiera_ls.project.workspace import EnvironmentView, FileKind, Snapshot
from hiera_ls.puppet.ruby_text import inspect, to_s
from hiera_ls.puppet.value_size import ValueTooLarge
from hiera_ls.puppet.values import Sensitive
from hiera_ls.source.interpolation import Token, TokenKind, scan
from hiera_ls.source.keys import LOOKUP_OPTIONS
from hiera_ls.source.node_table import Nodes, NodeSpans, Raw
from hiera_ls.source.node_table import Path as NodePath
from hiera_ls.source.spans import Position, Span
from hiera_ls.source.string_positions import SourceLines, infer_style, map_scalar

MAX_LABEL = 40  # characters of a value shown in a hint; the rest is cut with "…"
# after a key, fewer: what follows ("merged", "from FILE") must stay within what editors
# show of a hint (VS Code: 43 characters, editor.inlayHints.maximumLength); all in the tooltip
MAX_KEY_VALUE = 20
FAILS = "⚠ fails"
UNDEFINED = "⚠ undefined"
# a key no level holds: Puppet's interpolation looks it up with the default '' (it never fails
# on a missing key), so the text gets '' -- said apart from a key found with an empty value
NOT_FOUND = "'' (not found)"


@dataclass(frozen=True, slots=True)
class InlayHint:
    """A value shown beside the text (a key's merged value, an interpolation's result)."""

    position: Position  # code points, where the hint is drawn (before the character there)
    label: str
    tooltip: str | None = None


def inlay_hints(snapshot: Snapshot, path: str, first_line: int, last_line: int) -> list[InlayHint]:
    """The hints on lines ``first_line`` to ``last_line`` (inclusive), in file order.

    Only the nodes on those lines are visited (not the file's key index, which a 10,000-line
    file takes 150 ms to rebuild after each edit)."""
    if snapshot.active is None or snapshot.kind_of(path) is not FileKind.DATA:
        return []
    view = snapshot.environment_for(path)
    info = snapshot.data_files.get(path)
    df = snapshot.data_file(path)
    text = snapshot.text(path)
    if view is None or info is None or df is None or text is None:
        return []
    modules = {level.layer.module_name for level in info.levels}
    if not any(path in files_read(snapshot, view, module) for module in modules):
        return []
    module = next(iter(modules)) if len(modules) == 1 else None
    prefix = f"{module}::" if module else ""
    lines = _source_lines(snapshot, path, text)
    out: list[InlayHint] = []
    seen: set[NodePath] = set()
    for line in range(max(0, first_line), min(last_line, len(lines) - 1) + 1):
        for node_path, raw in _covering(df.nodes, line):
            if not node_path or node_path in seen or node_path[0] == LOOKUP_OPTIONS:
                continue
            seen.add(node_path)
            if raw[0] >= 0 and isinstance(node_path[-1], str) and "%{" in node_path[-1]:
                key_span = Span.of(raw[0], raw[1], raw[2], raw[3])
                out += _tokens(snapshot, view, path, lines, key_span, None, node_path[-1])
            value = value_at(df.data, node_path)
            if isinstance(value, str) and "%{" in value:
                value_span = Span.of(raw[4], raw[5], raw[6], raw[7])
                out += _tokens(snapshot, view, path, lines, value_span, raw[8], value)
            key = node_path[0]
            if (
                len(node_path) == 1
                and isinstance(key, str)
                and raw[0] == line
                and key.startswith(prefix)
            ):
                hint = _key_hint(snapshot, view, path, key, raw, lines)
                if hint is not None:
                    out.append(hint)
    out = [h for h in out if first_line <= h.position.line <= last_line]
    out.sort(key=lambda h: (h.position.line, h.position.column))
    return out


def _covering(nodes: Mapping[NodePath, NodeSpans], line: int) -> Iterable[tuple[NodePath, Raw]]:
    if isinstance(nodes, Nodes):
        return nodes.covering(line)
    out: list[tuple[NodePath, Raw]] = []
    for node_path, spans in nodes.items():  # a table some other reader made: every node
        k, v = spans.key, spans.value
        key = (k.start.line, k.start.column, k.end.line, k.end.column) if k else (-1, -1, -1, -1)
        raw = (*key, v.start.line, v.start.column, v.end.line, v.end.column, spans.style)
        if key[0] <= line <= key[2] or v.start.line <= line <= v.end.line:
            out.append((node_path, raw))
    return out


def _source_lines(snapshot: Snapshot, path: str, text: str) -> SourceLines:
    memo_key = ("inlay-lines", path)
    cached = snapshot.memo.get(memo_key)
    if isinstance(cached, SourceLines):
        return cached
    made = SourceLines(text, path.endswith(".json"))
    snapshot.memo[memo_key] = made
    return made


def _tokens(
    snapshot: Snapshot,
    view: EnvironmentView,
    path: str,
    lines: SourceLines,
    span: Span,
    style: str | None,
    string: str,
) -> list[InlayHint]:
    """A hint after each token of one scalar (a token that cannot be placed gets none)."""
    json = path.endswith(".json")
    mapped = map_scalar(
        lines, span, style if style is not None else infer_style(lines, span), string, json
    )
    if mapped is None:
        return []
    out: list[InlayHint] = []
    for token in scan(string):
        if token.start >= len(string):
            continue
        label = _token_label_for(snapshot, view, token)
        if label is not None:
            out.append(InlayHint(mapped.span(token.start, token.end).end, *label))
    return out


# ------------------------------------------------------------------ which files are read


def files_read(snapshot: Snapshot, view: EnvironmentView, module: str | None) -> frozenset[str]:
    """The data files the node's lookups read (that exist), for keys of ``module`` (None:
    unqualified keys); from the engine's trace of a lookup of a key no file defines."""
    memo_key = ("inlay-files", view.env.root, module)
    cached = snapshot.memo.get(memo_key)
    if isinstance(cached, frozenset):
        return cached
    key = f"{module}::{PROBE_KEY}" if module else PROBE_KEY
    trace = shared_session(snapshot, view).lookup(key, None, explain=True).trace
    found: set[str] = set()
    if trace is not None:
        _paths(trace, found)
    result = frozenset(found)
    snapshot.memo[memo_key] = result
    return result


def _paths(node: TraceNode, found: set[str]) -> None:
    for child in node.children:
        if child.kind in (Kind.META, Kind.INTERPOLATE):
            continue
        if child.kind is Kind.PATH:
            if child.exists:
                found.add(child.label)
        else:
            _paths(child, found)


# ------------------------------------------------------------------ tokens


def _token_label_for(
    snapshot: Snapshot, view: EnvironmentView, token: Token
) -> tuple[str, str | None] | None:
    memo_key = ("inlay-token", view.env.root, token.kind, token.expression)
    cached = snapshot.memo.get(memo_key)
    if cached is None:
        cached = snapshot.memo[memo_key] = _token_label(snapshot, view, token)
    return cached if isinstance(cached, tuple) else None


def _token_label(
    snapshot: Snapshot, view: EnvironmentView, token: Token
) -> tuple[str, str | None] | bool:
    """(label, tooltip), or False for a token whose text says it all (``literal``, ``%{}``)."""
    if token.kind is TokenKind.EMPTY:
        return False
    if token.kind is TokenKind.METHOD:
        method = token.method or ""
        if method == "literal":
            return False
        if method in ("lookup", "hiera", "alias"):
            return _lookup_label(snapshot, view, token.argument or "", method == "alias")
        if method != "scope":
            return FAILS, f"Puppet fails: Unknown interpolation method '{method}'"
    expression = (token.argument if token.kind is TokenKind.METHOD else token.expression) or ""
    found = variable_value(scope_for(snapshot, view), expression)
    if found.error is not None:
        return FAILS, f"Puppet fails: {found.error}"
    if not found.defined:
        return UNDEFINED, f"Undefined variable '{expression}': {snapshot.target.undefined_variable}"
    return _text_label(found.value), None


def _lookup_label(
    snapshot: Snapshot, view: EnvironmentView, key: str, keeps_type: bool
) -> tuple[str, str | None]:
    if root_of(key) is None:
        return FAILS, f"Puppet fails: Syntax error in key: '{key}'"
    outcome = shared_session(snapshot, view).lookup(key)
    if outcome.error is not None:
        return FAILS, f"Puppet fails: {outcome.error}"
    if not outcome.found:
        return NOT_FOUND, (
            f"'{key}' is not found for this node: Puppet writes '' here (a lookup inside "
            "interpolation defaults to '' instead of failing)"
        )
    if keeps_type:
        return short(outcome.value), None
    return _text_label(outcome.value), None


def _text_label(value: object) -> str:
    """What interpolation writes into the string: the text itself, Ruby's text of others."""
    if isinstance(value, Sensitive):
        return REDACTED
    if value is None:
        return "''"
    if isinstance(value, str):
        return _cut(value) if value else "''"
    if isinstance(value, (dict, list)):
        return short(value)
    try:
        return _cut(to_s(value))
    except ValueTooLarge:
        return "…"


def _cut(text: str, limit: int = MAX_LABEL) -> str:
    text = text.replace("\n", "⏎")
    return text if len(text) <= limit else text[: limit - 1] + "…"


def short(value: object, limit: int = MAX_LABEL) -> str:
    """A value in one short line: Ruby's inspect text, as a hover shows values inline
    (features/render.py), cut after :data:`MAX_LABEL` characters."""
    if isinstance(value, Sensitive):
        return REDACTED
    try:
        return _cut(inspect(displayable(shrink(value, limit))), limit)
    except ValueTooLarge:
        return "…"


# ------------------------------------------------------------------ keys


def _key_hint(
    snapshot: Snapshot,
    view: EnvironmentView,
    path: str,
    key: str,
    raw: Raw,
    lines: SourceLines,
) -> InlayHint | None:
    memo_key = ("inlay-key", path, key)
    if memo_key in snapshot.memo:
        found = snapshot.memo[memo_key]
    else:
        found = _key_label(snapshot, view, path, key)
        if ready_code_index(snapshot, view) is not None:  # else the code's merges may come
            snapshot.memo[memo_key] = found
    if not isinstance(found, tuple):
        return None
    if raw[4] == raw[0] and raw[6] == raw[0]:  # a value on the key's line: after it
        at = Position(raw[6], raw[7])
    else:  # a block below the key: at the end of the key's line
        at = Position(raw[0], len(lines.line(raw[0]).rstrip()))
    return InlayHint(at, *found)


def _key_label(
    snapshot: Snapshot, view: EnvironmentView, path: str, key: str
) -> tuple[str, str | None] | None:
    """What the node gets for ``key`` when it is not this file's value, with the merge the
    code reads it with (the first one; the tooltip names the others and their values)."""
    session: LookupSession = shared_session(snapshot, view)
    asked = previewed_merges(snapshot, view, key)
    primary = merge_value(asked)
    outcome = session.lookup(key, primary.argument() if primary else None, explain=True)
    if outcome.error is not None or not outcome.found:
        return None  # the diagnostics and the hover say why
    merged, files = winning_files(outcome, key)
    if not files or files == (path,):
        return None
    base = view.env.root
    value = short(outcome.value, MAX_KEY_VALUE)
    asking = f" (merge asked by {asked_by(primary, base, markdown=False)})" if primary else ""
    others = "".join(
        f"\nRead by {asked_by(m, base, markdown=False)}: {_other_value(session, key, m)}"
        for m in asked
        if m is not primary and m.known
    )
    if merged and len(files) > 1:
        shown = ", ".join(relative(f, base) for f in _distinct(files))
        return f"= {value} merged", f"Merged from {shown}{asking}: {short(outcome.value)}{others}"
    if files[0] == path:
        return None
    where = relative(files[0], base)
    return f"= {value} from {where}", f"From {where}{asking}: {short(outcome.value)}{others}"


def _other_value(session: LookupSession, key: str, asked: AskedMerge) -> str:
    outcome = session.lookup(key, asked.argument())
    if outcome.error is not None:
        return f"fails: {outcome.error}"
    return short(outcome.value) if outcome.found else "not found"


def _distinct(items: Iterable[str]) -> list[str]:
    return list(dict.fromkeys(items))
