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

from collections.abc import Iterable
from dataclasses import dataclass

from hiera_ls.engine.convert import Sensitive
from hiera_ls.engine.lookup import LookupSession
from hiera_ls.engine.trace import Kind, TraceNode
from hiera_ls.features.hover import variable_value
from hiera_ls.features.provenance import PROBE_KEY, winning_files
from hiera_ls.features.render import REDACTED, displayable, relative, shrink
from hiera_ls.features.sessions import scope_for, shared_session
from hiera_ls.project.key_index import TokenUse, root_of
from hiera_ls.project.workspace import EnvironmentView, FileKind, Snapshot
from hiera_ls.puppet.ruby_text import inspect, to_s
from hiera_ls.puppet.value_size import ValueTooLarge
from hiera_ls.source.interpolation import TokenKind
from hiera_ls.source.keys import LOOKUP_OPTIONS
from hiera_ls.source.spans import Position

MAX_LABEL = 40  # characters of a value shown in a hint; the rest is cut with "…"
FAILS = "⚠ fails"
UNDEFINED = "⚠ undefined"


@dataclass(frozen=True, slots=True)
class InlayHint:
    position: Position  # code points, where the hint is drawn (before the character there)
    label: str
    tooltip: str | None = None


def inlay_hints(snapshot: Snapshot, path: str, first_line: int, last_line: int) -> list[InlayHint]:
    """The hints on lines ``first_line`` to ``last_line`` (inclusive), in file order."""
    if snapshot.active is None or snapshot.kind_of(path) is not FileKind.DATA:
        return []
    view = snapshot.environment_for(path)
    info = snapshot.data_files.get(path)
    keys = snapshot.file_keys(path)
    if view is None or info is None or keys is None:
        return []
    modules = {level.layer.module_name for level in info.levels}
    if not any(path in files_read(snapshot, view, module) for module in modules):
        return []
    module = next(iter(modules)) if len(modules) == 1 else None
    out: list[InlayHint] = []
    for use in keys.tokens:
        line = use.span.end.line
        if first_line <= line <= last_line and use.node_path[:1] != (LOOKUP_OPTIONS,):
            hint = _token_hint(snapshot, view, use)
            if hint is not None:
                out.append(hint)
    text_lines: list[str] | None = None
    for key in keys.kept_keys(module):
        marks = keys.keys[key].marks
        if not first_line <= marks[0] <= last_line:
            continue
        found = _key_hint(snapshot, view, path, key)
        if found is None:
            continue
        label, tooltip = found
        if marks[4] == marks[0] and marks[6] == marks[0]:  # a value on the key's line
            at = Position(marks[6], marks[7])
        else:
            if text_lines is None:
                text_lines = (snapshot.text(path) or "").splitlines()
            line_text = text_lines[marks[0]] if marks[0] < len(text_lines) else ""
            at = Position(marks[0], len(line_text.rstrip()))
        out.append(InlayHint(at, label, tooltip))
    out.sort(key=lambda h: (h.position.line, h.position.column))
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


def _token_hint(snapshot: Snapshot, view: EnvironmentView, use: TokenUse) -> InlayHint | None:
    token = use.token
    memo_key = ("inlay-token", view.env.root, token.kind, token.expression)
    cached = snapshot.memo.get(memo_key)
    if cached is None:
        cached = snapshot.memo[memo_key] = _token_label(snapshot, view, use)
    if not isinstance(cached, tuple):
        return None
    label, tooltip = cached
    return InlayHint(use.span.end, label, tooltip)


def _token_label(
    snapshot: Snapshot, view: EnvironmentView, use: TokenUse
) -> tuple[str, str | None] | bool:
    """(label, tooltip), or False for a token whose text says it all (``literal``, ``%{}``)."""
    token = use.token
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
        return UNDEFINED, (
            f"Undefined variable '{expression}': with strict_variables every lookup that "
            "reads this value fails"
        )
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
        return "''", f"'{key}' is not found for this node: it expands to ''"
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


def _cut(text: str) -> str:
    text = text.replace("\n", "⏎")
    return text if len(text) <= MAX_LABEL else text[: MAX_LABEL - 1] + "…"


def short(value: object) -> str:
    """A value in one short line: Ruby's inspect text, as a hover shows values inline
    (features/render.py), cut after :data:`MAX_LABEL` characters."""
    if isinstance(value, Sensitive):
        return REDACTED
    try:
        return _cut(inspect(displayable(shrink(value, MAX_LABEL))))
    except ValueTooLarge:
        return "…"


# ------------------------------------------------------------------ keys


def _key_hint(
    snapshot: Snapshot, view: EnvironmentView, path: str, key: str
) -> tuple[str, str | None] | None:
    memo_key = ("inlay-key", path, key)
    if memo_key in snapshot.memo:
        cached = snapshot.memo[memo_key]
        return cached if isinstance(cached, tuple) else None
    found = _key_label(snapshot, view, path, key)
    snapshot.memo[memo_key] = found
    return found


def _key_label(
    snapshot: Snapshot, view: EnvironmentView, path: str, key: str
) -> tuple[str, str | None] | None:
    session: LookupSession = shared_session(snapshot, view)
    outcome = session.lookup(key, None, explain=True)
    if outcome.error is not None or not outcome.found:
        return None  # the diagnostics and the hover say why
    merged, files = winning_files(outcome, key)
    if not files or files == (path,):
        return None
    base = view.env.root
    value = short(outcome.value)
    if merged and len(files) > 1:
        shown = ", ".join(relative(f, base) for f in _distinct(files))
        return f"= {value} merged", f"Merged from {shown}"
    if files[0] == path:
        return None
    where = relative(files[0], base)
    return f"= {value} from {where}", None


def _distinct(items: Iterable[str]) -> list[str]:
    return list(dict.fromkeys(items))
