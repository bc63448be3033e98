"""Which keys each data file defines and which keys and variables its interpolations use.

One index serves the features (definition, references, hover) and the checks (undefined
keys, cycles, unused lookup_options patterns): every data file is walked once, and its
entry is kept until the file's content stamp changes, so an edit costs a re-scan of one
file, not of the project.  The entry keeps no text (a large repository's texts are
megabytes).  What the whole environment defines and references is built from these entries
by :mod:`hiera_ls.project.environment_keys`.

Tokens are found in string values (and hash keys: Puppet interpolates those too).  Their
offsets count inside the string value; libyaml's scanning of the scalar is replayed
(:mod:`hiera_ls.source.string_positions`) to map them to source ranges, and a token whose
place cannot be replayed gets the scalar's whole range.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field

from hiera_ls.source.data_file import DataFile
from hiera_ls.source.files import FileAccess, Stamp
from hiera_ls.source.interpolation import TOKEN_RE, Token, TokenKind, scan, token_of
from hiera_ls.source.keys import LOOKUP_OPTIONS, split_key
from hiera_ls.source.line_map import LineMap
from hiera_ls.source.node_table import Nodes, NodeSpans
from hiera_ls.source.scalars import Locator, iter_strings
from hiera_ls.source.spans import Position, Span
from hiera_ls.source.string_positions import SourceLines, infer_style, map_scalar

MAX_SCANS = 20_000  # distinct token strings whose Tokens are shared (then forgotten)
# Characters above which a data file's strings are not scanned for tokens and references
# (the ``data-large-file`` note says so once): scanning costs about 0.2 ms a key, so 2 MB
# (some 35,000 keys) take seconds.  Lookups and hovers still read the whole file.
LARGE_FILE_CHARS = 2_000_000
KEY_METHODS = frozenset({"lookup", "hiera", "alias"})
_NOT_MERGING = (None, "first", "default")

NodePath = tuple[object, ...]

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
class Reference:
    """A token in file ``path``, inside root key ``source``, that looks up ``key_text``."""

    path: str
    source: str
    target: str  # root of key_text
    key_text: str
    method: str
    span: Span
    whole: bool  # the token is the whole string


@dataclass(frozen=True, slots=True)
class FileKeys:
    """What one data file defines and references, kept per content stamp."""

    path: str
    keys: Mapping[str, KeyDef]
    options: Mapping[str, KeyDef]  # lookup_options entries by their (pattern or literal) key
    tokens: tuple[TokenUse, ...]
    # lookup/hiera/alias tokens under a string root key (one per key, target and range, but
    # every alias of a scalar: each is a lookup of its own)
    references: tuple[Reference, ...]
    merging_options: tuple[str, ...]  # lookup_options entries that set a merge strategy
    first_line: int  # length of the first line: the range of a finding about the whole file
    # Puppet cannot read the file (a syntax error, a date, bytes that are not UTF-8): the keys
    # it would define are unknown, so no finding may say a key is defined nowhere
    unread: bool = False

    def kept_keys(self, module_name: str | None) -> list[str]:
        """The root keys a lookup can find in the file (a module's data: only its own keys;
        Puppet drops the others, module_data_provider.rb)."""
        keys = [k for k in self.keys if k != LOOKUP_OPTIONS]
        if module_name is None:
            return keys
        prefix = f"{module_name}::"
        return [k for k in keys if k.startswith(prefix)]

    def kept_references(self, module_name: str | None) -> tuple[Reference, ...]:
        """The references of the file (a module's data: only in keys Puppet keeps)."""
        if module_name is None:
            return self.references
        prefix = f"{module_name}::"
        return tuple(
            r for r in self.references if r.source == LOOKUP_OPTIONS or r.source.startswith(prefix)
        )


def root_of(key: str) -> str | None:
    segments = split_key(key)
    if not segments:
        return None
    return str(segments[0])


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
    df: DataFile, text: str, scans: dict[str, tuple[Token, ...]] | None = None
) -> FileKeys:
    """Keys, lookup_options entries, tokens and references of one loaded data file.

    ``scans``: tokens of strings already scanned (shared by equal strings, which data
    repeats a lot; a Token's offsets are in its string, so sharing is exact).
    """
    unread = df.failure is not None and not df.data
    if df.readable is not None:  # refused for a date or a tag: the rest of it is known
        df, unread = df.readable, False
    keys: dict[str, KeyDef] = {}
    options: dict[str, KeyDef] = {}
    merging: list[str] = []
    nodes = df.nodes
    for key, value in df.data.items():
        if not isinstance(key, str):
            continue
        if key == LOOKUP_OPTIONS and isinstance(value, dict):
            merging.extend(
                k
                for k, entry in value.items()
                if isinstance(k, str)
                and isinstance(entry, dict)
                and entry.get("merge") not in _NOT_MERGING
            )
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
    tokens: tuple[TokenUse, ...] = ()
    references: tuple[Reference, ...] = ()
    if len(text) <= LARGE_FILE_CHARS:
        tokens, references = _tokens(df, text, scans if scans is not None else {})
    end = text.find("\n")
    first_line = text[: end if end >= 0 else len(text)].rstrip("\r")
    return FileKeys(
        df.path,
        keys,
        options,
        tokens,
        references,
        tuple(merging) if merging else (),
        len(first_line),
        unread,
    )


def _tokens(
    df: DataFile, text: str, memo: dict[str, tuple[Token, ...]]
) -> tuple[tuple[TokenUse, ...], tuple[Reference, ...]]:
    """Every token of the file's strings (in document order), and the references among them
    (in the walk's order, which the cycle search follows).

    A token in an alias of a scalar (``*name``) is placed on the alias: that is where this
    value is written.
    """
    locator = Locator.of(text, df.path.endswith(".json"))
    if not locator.may_have_tokens:
        return (), ()
    path = df.path
    tokens: list[TokenUse] = []
    references: list[Reference] = []
    seen: set[tuple[str, str, Span]] = set()
    for site in iter_strings(df, locator.lines):
        string = site.value
        scanned = memo.get(string)
        if scanned is None:
            scanned = memo[string] = tuple(scan(string))
        source = site.root_key
        for token in scanned:
            span = site.scalar if site.alias else locator.span(site, token.start, token.end)
            tokens.append(TokenUse(path, span, token, site.node_path, site.in_key))
            if (
                token.kind is not TokenKind.METHOD
                or token.method not in KEY_METHODS
                or not isinstance(source, str)
            ):
                continue
            argument = token.argument or ""
            target = root_of(argument)
            if target is None:
                continue
            mark = (source, target, span)
            if mark in seen and not site.alias:
                continue
            seen.add(mark)
            references.append(
                Reference(
                    path, source, target, argument, token.method or "", span, token.text == string
                )
            )
    tokens.sort(key=_start)  # the walk goes by the node table; readers want document order
    return tuple(tokens), tuple(references)


def _start(use: TokenUse) -> Position:
    return use.span.start


def iter_scalar_tokens(
    path: str,
    text: str,
    span: Span,
    style: str | None,
    string: str,
    node_path: NodePath,
    in_key: bool,
) -> Iterator[TokenUse]:
    """The tokens of one scalar in order, each placed only when asked for: a hover stops at
    the one under the cursor instead of placing 100,000 tokens of a long string."""
    lines = SourceLines(text, path.endswith(".json"))
    mapped = map_scalar(
        lines,
        span,
        style if style is not None else infer_style(lines, span),
        string,
        path.endswith(".json"),
    )
    for match in TOKEN_RE.finditer(string):
        token = token_of(match)
        found = (
            mapped.span(token.start, token.end)
            if mapped is not None and token.start < len(string)
            else span
        )
        yield TokenUse(path, found, token, node_path, in_key)


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

    _entries: dict[str, tuple[Stamp, FileKeys]] = field(default_factory=dict)
    _scans: dict[str, tuple[Token, ...]] = field(default_factory=dict)  # see index_file

    def get(self, files: FileAccess, df: DataFile, text: str | None = None) -> FileKeys | None:
        """``text``: the file's text at its current stamp, if the caller has read it."""
        stamp = files.stamp(df.path)
        if stamp is None:
            return None
        cached = self._entries.get(df.path)
        if cached is not None and cached[0] == stamp:
            return cached[1]
        if text is None:
            text = files.read_text(df.path)
        if text is None:
            return None
        if len(self._scans) > MAX_SCANS:
            self._scans = {}
        entry = index_file(df, text, self._scans)
        self._entries[df.path] = (stamp, entry)
        return entry

    def peek(self, path: str) -> FileKeys | None:
        """The entry last built for ``path``, without checking that the file is unchanged
        (no disk access): for answers that may lag one change behind, such as completion
        lists gathered from thousands of files at every keystroke."""
        cached = self._entries.get(path)
        return cached[1] if cached is not None else None

    def forget(self, path: str) -> None:
        self._entries.pop(path, None)
