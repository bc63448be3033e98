"""Which keys each data file defines and which keys and variables its interpolations use.

Definition and references need this for every data file of the project, and an edit must
not cost a project-wide re-scan: each file's entry is built from its parsed DataFile and
kept until the file's content stamp changes.

Tokens are found in string values (and hash keys: Puppet interpolates those too).  Their
offsets count inside the string value.  A :data:`TokenSpans` function given by a higher
layer (the server passes the checks' exact scalar replay) maps them to source ranges; without
one, the token's text is searched inside the scalar's source range, which is exact for
plain and quoted scalars without escapes inside the token (nearly all real data).
"""

from __future__ import annotations

import bisect
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field

from hiera_ls.source.data_file import DataFile
from hiera_ls.source.files import FileAccess, Stamp
from hiera_ls.source.interpolation import Token, TokenKind, scan
from hiera_ls.source.keys import LOOKUP_OPTIONS, split_key
from hiera_ls.source.node_table import Nodes, NodeSpans
from hiera_ls.source.spans import Position, Span

MAX_SCANS = 20_000  # distinct token strings whose Tokens are shared (then forgotten)
KEY_METHODS = frozenset({"lookup", "hiera", "alias"})

NodePath = tuple[object, ...]
# Given a file's text and whether it is JSON: a function from (scalar span, style, value,
# start, end) to the source range of value[start:end], or None when it cannot say.
ScalarSpan = Callable[[Span, "str | None", str, int, int], "Span | None"]
TokenSpans = Callable[[str, bool], ScalarSpan]


Marks = tuple[int, int, int, int, int, int, int, int]


@dataclass(frozen=True, slots=True)
class KeyDef:
    """A top-level key of a data file (or an entry of its lookup_options).

    Every key of the project is kept, so the ranges are eight ints (key start line and
    column, key end, value start, value end) rather than two Spans: two objects a key, not seven.
    """

    key: str
    marks: Marks

    @property
    def key_span(self) -> Span:
        m = self.marks
        return Span.of(m[0], m[1], m[2], m[3])

    @property
    def value_span(self) -> Span:
        m = self.marks
        return Span.of(m[4], m[5], m[6], m[7])


@dataclass(frozen=True, slots=True)
class TokenUse:
    """One ``%{...}`` in a data file, with its source range."""

    path: str
    span: Span
    token: Token
    node_path: NodePath  # where the string sits in the file's data
    in_key: bool  # the token is inside a hash key

    @property
    def looked_up_key(self) -> str | None:
        """The key a lookup/hiera/alias token looks up (whole key text, may have sub keys)."""
        if self.token.kind is TokenKind.METHOD and self.token.method in KEY_METHODS:
            return self.token.argument
        return None

    @property
    def looked_up_root(self) -> str | None:
        key = self.looked_up_key
        return root_of(key) if key is not None else None

    @property
    def variable(self) -> str | None:
        """The scope variable a plain or scope('...') token reads."""
        if self.token.kind is TokenKind.VARIABLE:
            return self.token.expression
        if self.token.kind is TokenKind.METHOD and self.token.method == "scope":
            return self.token.argument
        return None


@dataclass(frozen=True, slots=True)
class FileKeys:
    path: str
    keys: Mapping[str, KeyDef]
    options: Mapping[str, KeyDef]  # lookup_options entries by their (pattern or literal) key
    tokens: tuple[TokenUse, ...]


def root_of(key: str) -> str | None:
    segments = split_key(key)
    if not segments:
        return None
    return str(segments[0])


class LineMap:
    """Code-point offsets <-> (line, column) for one text; lines end at \\n, \\r\\n or \\r."""

    __slots__ = ("_starts", "text")

    def __init__(self, text: str) -> None:
        self.text = text
        starts = [0]
        i = 0
        n = len(text)
        find = text.find
        while True:
            j = find("\n", i)
            if j < 0:
                break
            starts.append(j + 1)
            i = j + 1
        if "\r" in text:
            starts = _with_lone_cr(text, n)
        self._starts = starts

    def offset(self, pos: Position) -> int:
        if pos.line >= len(self._starts):
            return len(self.text)
        return min(self._starts[pos.line] + pos.column, len(self.text))

    def position(self, offset: int) -> Position:
        line = bisect.bisect_right(self._starts, offset) - 1
        return Position(line, offset - self._starts[line])

    def line_text(self, line: int) -> str:
        if line >= len(self._starts):
            return ""
        start = self._starts[line]
        end = self._starts[line + 1] if line + 1 < len(self._starts) else len(self.text)
        return self.text[start:end].rstrip("\r\n")


def _with_lone_cr(text: str, n: int) -> list[int]:
    starts = [0]
    i = 0
    while i < n:
        c = text[i]
        if c == "\r":
            if i + 1 < n and text[i + 1] == "\n":
                i += 1
            starts.append(i + 1)
        elif c == "\n":
            starts.append(i + 1)
        i += 1
    return starts


def _key_marks(nodes: Mapping[NodePath, NodeSpans], path: NodePath) -> Marks | None:
    """The key's and the value's range (the value's twice when the node has no key)."""
    if isinstance(nodes, Nodes):
        r = nodes.raw(path)
        if r is None:
            return None
        if r[0] < 0:
            return (r[4], r[5], r[6], r[7], r[4], r[5], r[6], r[7])
        return (r[0], r[1], r[2], r[3], r[4], r[5], r[6], r[7])
    spans = nodes.get(path)
    if spans is None:
        return None
    k = spans.key or spans.value
    v = spans.value
    return (
        k.start.line,
        k.start.column,
        k.end.line,
        k.end.column,
        v.start.line,
        v.start.column,
        v.end.line,
        v.end.column,
    )


def index_file(
    df: DataFile,
    text: str,
    token_spans: TokenSpans | None = None,
    scans: dict[str, tuple[Token, ...]] | None = None,
) -> FileKeys:
    """Keys, lookup_options entries and tokens of one loaded data file.

    ``scans``: tokens of strings already scanned (shared by equal strings, which data
    repeats a lot; a Token's offsets are in its string, so sharing is exact).
    """
    keys: dict[str, KeyDef] = {}
    options: dict[str, KeyDef] = {}
    nodes = df.nodes
    for key, value in df.data.items():
        if not isinstance(key, str):
            continue
        marks = _key_marks(nodes, (key,))
        if marks is None:
            continue
        keys[key] = KeyDef(key, marks)
        if key == LOOKUP_OPTIONS and isinstance(value, dict):
            for opt_key in value:
                if isinstance(opt_key, str):
                    sub = _key_marks(nodes, (key, opt_key))
                    if sub is not None:
                        options[opt_key] = KeyDef(opt_key, sub)
    tokens: list[TokenUse] = []
    memo = scans if scans is not None else {}
    if "%{" in text:
        lines = LineMap(text)
        exact = token_spans(text, df.path.endswith(".json")) if token_spans is not None else None
        for node_path, string, in_key in _strings(df.data, ()):
            spans = nodes.get(node_path)
            if spans is None:
                continue
            span = (spans.key or spans.value) if in_key else spans.value
            style = None if in_key else spans.style
            scanned = memo.get(string)
            if scanned is None:
                scanned = memo[string] = tuple(scan(string))
            if exact is not None:
                tokens.extend(
                    _exact_tokens(df.path, exact, span, style, string, node_path, in_key, scanned)
                )
            else:
                tokens.extend(
                    locate_tokens(df.path, lines, span, string, node_path, in_key, scanned)
                )
    return FileKeys(df.path, keys, options, tuple(tokens))


def _strings(value: object, path: NodePath) -> Iterator[tuple[NodePath, str, bool]]:
    """Every string holding ``%{`` with its node path; seen containers are skipped (aliases)."""
    stack: list[tuple[object, NodePath]] = [(value, path)]
    seen: set[int] = set()
    while stack:
        current, at = stack.pop()
        if isinstance(current, dict):
            if id(current) in seen:
                continue
            seen.add(id(current))
            for k, v in reversed(list(current.items())):
                child = (*at, k)
                stack.append((v, child))
                if isinstance(k, str) and "%{" in k:
                    yield child, k, True
        elif isinstance(current, list):
            if id(current) in seen:
                continue
            seen.add(id(current))
            for i in range(len(current) - 1, -1, -1):
                stack.append((current[i], (*at, i)))
        elif isinstance(current, str) and "%{" in current:
            yield at, current, False


def scalar_tokens(
    path: str,
    text: str,
    span: Span,
    style: str | None,
    string: str,
    node_path: NodePath,
    in_key: bool,
    token_spans: TokenSpans | None = None,
) -> list[TokenUse]:
    """The tokens of one scalar."""
    return list(iter_scalar_tokens(path, text, span, style, string, node_path, in_key, token_spans))


def iter_scalar_tokens(
    path: str,
    text: str,
    span: Span,
    style: str | None,
    string: str,
    node_path: NodePath,
    in_key: bool,
    token_spans: TokenSpans | None = None,
) -> Iterator[TokenUse]:
    """The tokens of one scalar in order, each placed only when asked for: a hover stops at
    the one under the cursor instead of placing 100,000 tokens of a long string."""
    if token_spans is not None:
        exact = token_spans(text, path.endswith(".json"))
        return _exact_tokens(path, exact, span, style, string, node_path, in_key)
    return locate_tokens(path, LineMap(text), span, string, node_path, in_key)


def _exact_tokens(
    path: str,
    exact: ScalarSpan,
    span: Span,
    style: str | None,
    string: str,
    node_path: NodePath,
    in_key: bool,
    scanned: Sequence[Token] | None = None,
) -> Iterator[TokenUse]:
    for token in scan(string) if scanned is None else scanned:
        found = exact(span, style, string, token.start, token.end)
        yield TokenUse(path, found if found is not None else span, token, node_path, in_key)


def locate_tokens(
    path: str,
    lines: LineMap,
    span: Span,
    string: str,
    node_path: NodePath,
    in_key: bool,
    scanned: Sequence[Token] | None = None,
) -> Iterator[TokenUse]:
    start = lines.offset(span.start)
    end = lines.offset(span.end)
    source = lines.text[start:end]
    cursor = 0
    for token in scan(string) if scanned is None else scanned:
        i = source.find(token.text, cursor)
        if i < 0:
            yield TokenUse(path, span, token, node_path, in_key)
            continue
        cursor = i + len(token.text)
        token_span = Span(lines.position(start + i), lines.position(start + cursor))
        yield TokenUse(path, token_span, token, node_path, in_key)


@dataclass(slots=True)
class KeyIndex:
    """path -> FileKeys, rebuilt per file when its content stamp changes."""

    token_spans: TokenSpans | None = None
    _entries: dict[str, tuple[Stamp, FileKeys]] = field(default_factory=dict)
    _scans: dict[str, tuple[Token, ...]] = field(default_factory=dict)  # see index_file

    def get(self, files: FileAccess, df: DataFile) -> FileKeys | None:
        stamp = files.stamp(df.path)
        if stamp is None:
            return None
        cached = self._entries.get(df.path)
        if cached is not None and cached[0] == stamp:
            return cached[1]
        text = files.read_text(df.path)
        if text is None:
            return None
        if len(self._scans) > MAX_SCANS:
            self._scans = {}
        entry = index_file(df, text, self.token_spans, self._scans)
        self._entries[df.path] = (stamp, entry)
        return entry

    def forget(self, path: str) -> None:
        self._entries.pop(path, None)
