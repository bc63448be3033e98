"""YAML text -> the value Puppet's ``yaml_data`` sees, with the source range of every node.

Puppet loads YAML with Ruby's Psych (``safe_load``, Symbol permitted, aliases on), which is
libyaml 0.2.5 underneath plus Psych's own YAML 1.1 scalar typing.  We drive libyaml's event
stream from Python and build values ourselves, because the composed-node APIs lose what we
must keep: where each alias sits, anchors redefined later in the file (Psych allows it), and
Psych's order of failure (a syntax error anywhere in the first document beats a refused
value earlier in it).

The parser is libyaml, through PyYAML's C extension (``libyaml.py`` says which, and how the
loader keeps to libyaml 0.2.5's answers whichever libyaml the wheel bundles).

Positions are ruamel/libyaml marks: 0-based line and column, counted in code points.
Spans are kept as plain int tuples while loading and become :class:`NodeSpans` only when
asked for, since creating a frozen dataclass per node would cost more than the parse.
"""

from __future__ import annotations

import math
import re
import sys
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from hiera_ls.puppet.value_size import MAX_EXPANDED, expanded_size
from hiera_ls.puppet.values import CompositeKey, RubySymbol
from hiera_ls.source.libyaml import (
    ALIAS,
    DEFAULT_BACKEND,
    DOC_END,
    DOC_START,
    MAP_END,
    MAP_START,
    MAX_DEPTH,
    NESTING_BOUND_ERROR,
    SCALAR,
    SEQ_END,
    SEQ_START,
    Backend,
)
from hiera_ls.source.node_table import EMPTY_NODES, Nodes, NodeSpans, NodeTable, Path
from hiera_ls.source.node_table import Raw as _Raw
from hiera_ls.source.psych_scalars import (
    Refusal,
    RubyObject,
    allocate,
    disallowed,
    resolve_class,
    tagged_scalar,
    tokenize,
)
from hiera_ls.source.spans import FileSpan, Problem, Severity, Span

__all__ = [
    "EMPTY_NODES",
    "NodeSpans",
    "NodeTable",
    "Nodes",
    "Outline",
    "Path",
    "RubyObject",
    "YamlDocument",
    "load_yaml",
    "psych_error_text",
]


@dataclass(frozen=True, slots=True)
class Outline:
    """Where each top-level entry of a block-mapping document starts, in file order.

    Only for documents whose top-level entries stand alone (no anchors, aliases, top-level
    ``<<`` or duplicate keys, no Symbols or odd keys, each entry on lines of its own): an
    edit inside one entry can then be re-parsed without the others (``yaml_reparse``).
    """

    lines: tuple[int, ...]  # the line of each entry's key (column 0), ascending
    keys: tuple[object, ...]


@dataclass(frozen=True, slots=True)
class YamlDocument:
    path: str
    value: object  # what Psych gives; None if empty or fatal
    nodes: Mapping[Path, NodeSpans]  # key path from root -> spans; () is the root
    problems: tuple[Problem, ...]
    fatal: Problem | None  # Psych/Puppet refuses the whole file; message as Puppet prints it
    outline: Outline | None = None  # set when an edit may re-parse single entries
    # top-level key -> why no lookup may walk its value (its aliases expand too far)
    too_large: Mapping[object, str] = field(default_factory=dict)


LOAD_ERROR_PREFIX = "Unable to parse "


def psych_error_text(doc: YamlDocument) -> str | None:
    """The message of Puppet::Util::Yaml's YamlLoadError (what hiera.yaml loading raises).

    ``doc.fatal`` carries the yaml_data text, which is this with ``Unable to parse`` before it.
    """
    if doc.fatal is None:
        return None
    return doc.fatal.message.removeprefix(LOAD_ERROR_PREFIX)


# Python frames the walks of a value MAX_DEPTH levels deep need (interpolation, merges, Ruby
# text, YAML and JSON output recurse up to about eight a level). Since Python 3.11 a call from
# Python to Python takes no C stack, so the entry point raises the limit this far safely.
VALUE_RECURSION_LIMIT = 12 * MAX_DEPTH + 2_000


# --------------------------------------------------------------------------- loading


def load_yaml(path: str, text: str) -> YamlDocument:
    """The file as Puppet's yaml_data loads it; never raises on any text."""
    return _load(path, text, DEFAULT_BACKEND)


# Refusals of a class Psych would build if permitted (dates, ``!ruby/regexp``, objects)
LENIENT_CODES = frozenset({"yaml-date-rejected", "yaml-bad-tag"})


def load_yaml_leniently(path: str, text: str) -> YamlDocument:
    """The file read past the classes Psych refuses (each such scalar kept as its text, and
    reported as a problem of its own): what the rest of a refused file holds, for its other
    diagnostics, and what a custom backend that permits those classes reads."""
    return _load(path, text, DEFAULT_BACKEND, lenient=True)


def _load(path: str, text: str, backend: Backend, lenient: bool = False) -> YamlDocument:
    try:
        data = text.encode("utf-8")
    except UnicodeEncodeError:  # lone surrogates: give libyaml the bytes they stand for
        try:
            data = text.encode("utf-8", "surrogateescape")
        except UnicodeEncodeError:
            data = text.encode("utf-8", "surrogatepass")
    try:
        try:
            return _Builder(path, backend, text, lenient).run(data)
        except _Departure:
            assert backend.fallback is not None
            return _Builder(path, backend.fallback, text, lenient).run(data)
    except RecursionError:
        return _fatal_doc(
            path, "yaml-syntax", f"({path}): stack level too deep", Span.of(0, 0, 0, 0)
        )


class _Departure(Exception):
    """This libyaml reads the file unlike Psych's 0.2.5: read it with the backend's fallback."""


# After ``?`` in a flow sequence, what libyaml's scanner skips before the next token: blanks,
# line breaks, a byte order mark and ``#`` comments.
_BARE_KEY_CLOSED = re.compile(r"\?(?:[ \t\r\n\x85\u2028\u2029\ufeff]|#[^\r\n\x85\u2028\u2029]*)*\]")


class _Frame:
    """An open collection while its events arrive."""

    __slots__ = (
        "anchor",
        "big",
        "block",
        "end_col",
        "end_line",
        "has_key",
        "is_map",
        "key",
        "key_raw",
        "key_tag",
        "merged",
        "obj",
        "own",
        "path",
        "runs",
        "runs_to",
        "size",
        "start_col",
        "start_line",
        "tag",
    )

    def __init__(
        self,
        is_map: bool,
        obj: Any,
        path: Path | None,
        own: int,
        tag: str | None,
        anchor: str | None,
        block: bool,
        line: int,
        col: int,
    ) -> None:
        self.is_map = is_map
        self.obj = obj
        self.path = path
        self.own = own  # index of this collection's own entry, -1 when not recorded
        self.tag = tag
        self.anchor = anchor
        self.block = block
        self.start_line = line
        self.start_col = col
        self.end_line = line
        self.end_col = col
        self.has_key = False
        self.key: object = None
        self.key_raw: tuple[int, int, int, int] = (-1, -1, -1, -1)
        self.key_tag: str | None = None
        self.merged: set[object] | None = None  # keys whose value came from a ``<<`` merge
        self.size = 1  # nodes of this collection once aliases are expanded (capped)
        self.big: tuple[int, str] | None = None  # the largest alias inside: (its size, name)
        # where each key's entries lie (see _Builder._runs); made on the first duplicate key
        self.runs: dict[object, list[tuple[int, int]]] | None = None
        self.runs_to = 0  # entries before this index are in ``runs``


_NO_KEY = object()  # before the first key of a run

_HARMLESS_SYMBOLS = frozenset(
    (RubySymbol("default"), RubySymbol("undef"))
)  # Default and Undef to Puppet
_MERGE_KEY = "<<"
_LETTER = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
_WORD_START = _LETTER - frozenset("ytonfYTONF")  # short words that cannot be yes/true/on/null...
_STR_TAG = "tag:yaml.org,2002:str"
# Node positions copied for aliases and merges (so a hover under ``b: *a`` finds a's lines);
# past this the aliased insides keep only the alias's own range (20,000 copies: 0.06 s).
_COPY_BUDGET = 20_000


_ONE: tuple[int, tuple[int, str] | None] = (1, None)
_SIZE_CAP = 10**18


class _Builder:
    __slots__ = (
        "anchor_lines",
        "anchor_sizes",
        "anchors",
        "backend",
        "budget",
        "entries",
        "lenient",
        "open_ids",
        "origin",
        "oversized",
        "path",
        "pending",
        "problems",
        "refusal",
        "root_plain",
        "suspect",
        "symbol_keys",
        "tangled",
        "text",
    )

    def __init__(self, path: str, backend: Backend, text: str, lenient: bool = False) -> None:
        self.path = path
        self.backend = backend
        self.text = text
        self.lenient = lenient
        self.entries: list[tuple[Path, _Raw] | None] = []
        self.anchors: dict[str, object] = {}
        self.anchor_sizes: dict[str, int] = {}  # expanded nodes of each anchored value
        self.anchor_lines: dict[str, int] = {}
        # top-level key -> (expanded size, the key's marks, largest alias inside)
        self.oversized: dict[
            object, tuple[int, tuple[int, int, int, int], tuple[int, str] | None]
        ] = {}
        self.pending: tuple[int, tuple[int, str] | None] = (
            1,
            None,
        )  # size of the node attached next
        # id(collection) -> (collection, its recorded path, first entry, end entry)
        self.origin: dict[int, tuple[object, Path, int, int]] = {}
        self.open_ids: set[int] = set()
        self.problems: list[Problem] = []
        self.refusal: tuple[Refusal, tuple[int, int, int, int]] | None = None
        self.symbol_keys = False
        self.suspect = False
        self.budget = _COPY_BUDGET
        self.root_plain = False  # the root is a block mapping without a tag
        self.tangled = False  # a top-level ``<<`` or duplicate key ties entries together

    # ------------------------------------------------------------------ driver

    def run(self, data: bytes) -> YamlDocument:
        path = self.path
        parser = self.backend.parser(data)
        try:
            value, found = self._document(parser)
        except self.backend.errors as exc:
            if self.backend.fallback is not None and NESTING_BOUND_ERROR.search(str(exc)):
                raise _Departure from exc
            return _syntax_doc(path, exc, data)
        except _Departure:
            raise
        except Exception as exc:  # a bug of ours must not take the language server down
            message = f"({path}): hiera-ls could not load this file ({type(exc).__name__}: {exc})"
            return _fatal_doc(path, "yaml-syntax", message, Span.of(0, 0, 0, 0))
        if self.refusal is not None:
            refusal, (sl, sc, el, ec) = self.refusal
            prefix = f"({path}): " if refusal.disallowed else ""
            return _fatal_doc(path, refusal.code, prefix + refusal.message, Span.of(sl, sc, el, ec))
        if not found:
            return YamlDocument(path, None, EMPTY_NODES, (), None)
        raw: dict[Path, _Raw] = {}
        for entry in self.entries:
            if entry is not None:
                raw[entry[0]] = entry[1]
        self.entries = []
        too_large = self._too_large(value) if self.oversized else {}
        nodes = NodeTable(raw, self.symbol_keys, self.suspect)
        outline = None
        if (
            isinstance(value, dict)
            and self.root_plain
            and not (self.anchors or self.tangled or self.symbol_keys or self.suspect)
        ):
            outline = outline_of(value, nodes)
        return YamlDocument(path, value, nodes, tuple(self.problems), None, outline, too_large)

    def _too_large(self, value: object) -> dict[object, str]:
        """The top-level keys whose values expand past MAX_EXPANDED, each with a problem."""
        out: dict[object, str] = {}
        for key, (size, key_marks, big) in self.oversized.items():
            if not isinstance(value, dict) or key not in value:
                continue
            alias = ""
            if big is not None:
                line = self.anchor_lines.get(big[1], -1) + 1
                alias = (
                    f" (the alias *{big[1]} of the value anchored at line {line} stands for "
                    f"{_count(big[0])} of them)"
                )
            holds = f"holds {_count(size)} values once its YAML aliases are expanded{alias}"
            out[key] = (
                f"hiera-ls: the value of {_show_key(key)} in {self.path} {holds}, more than the "
                f"{MAX_EXPANDED:,} a lookup may walk"
            )
            self.problems.append(
                self._problem(
                    "yaml-alias-expansion",
                    f"{_show_key(key)} {holds}: Psych shares aliases, but Puppet copies them all "
                    "out when it loads this file and runs out of time and memory. hiera-ls fails "
                    f"lookups of values above {MAX_EXPANDED:,} nodes",
                    key_marks,
                )
            )
        return out

    def _document(self, parser: Any) -> tuple[object, bool]:
        """Events of the first document -> its value; Psych never reads past that document."""
        kinds = self.backend.kinds
        get = parser.get_event
        kind = kinds[get().__class__]  # stream start
        ev = get()
        kind = kinds[ev.__class__]
        if kind != DOC_START:
            return None, False
        stack: list[_Frame] = []
        root: list[object] = []
        entries = self.entries
        anchors = self.anchors
        problems = self.problems
        intern = sys.intern
        while True:
            ev = get()
            kind = kinds[ev.__class__]
            if kind == SCALAR:
                sm = ev.start_mark
                em = ev.end_mark
                raw_marks = (sm.line, sm.column, em.line, em.column)
                value: object
                tag = ev.tag
                # one copy of each distinct scalar: keys and values repeat across thousands
                # of files (measured: 80 MiB of 2,042 files' data)
                text = intern(ev.value)
                if self.refusal is not None:
                    value = None
                elif tag is None:
                    if ev.implicit[1]:
                        value = text
                    elif text and (text[0] in _WORD_START if len(text) < 6 else text[0] in _LETTER):
                        value = text  # starts like a word and cannot be a YAML 1.1 keyword
                    elif (
                        text.isdigit()
                        and text.isascii()
                        and (text[0] != "0" or len(text) == 1)
                        and len(text) < 4000
                    ):
                        value = int(text)
                    else:
                        value = self._plain_scalar(text, raw_marks)
                else:
                    value = self._tagged(tag, text, raw_marks)
                if ev.anchor is not None:
                    anchors[ev.anchor] = value
                    self.anchor_sizes[ev.anchor] = 1
                    self.anchor_lines[ev.anchor] = sm.line
                style = ev.style or None
                top = stack[-1] if stack else None
                if (
                    top is not None
                    and top.is_map
                    and top.path is not None
                    and value.__class__ is not RubySymbol
                ):
                    # the common cases, inline: a key, or a value under a new key
                    if not top.has_key:
                        if value is None or value.__class__ is bool:
                            self.suspect = True
                        top.has_key = True
                        top.key = value
                        top.key_raw = raw_marks
                        top.key_tag = tag
                        top.end_line = raw_marks[2]
                        top.end_col = raw_marks[3]
                        continue
                    key = top.key
                    if key not in top.obj and key != _MERGE_KEY:
                        top.has_key = False
                        top.obj[key] = value
                        top.size += 1
                        k = top.key_raw
                        entries.append(
                            (
                                (*top.path, key),
                                (
                                    k[0],
                                    k[1],
                                    k[2],
                                    k[3],
                                    raw_marks[0],
                                    raw_marks[1],
                                    raw_marks[2],
                                    raw_marks[3],
                                    style,
                                ),
                            )
                        )
                        top.end_line = raw_marks[2]
                        top.end_col = raw_marks[3]
                        continue
                self._attach(stack, root, value, raw_marks, style, -1, tag)
            elif kind in (MAP_START, SEQ_START):
                sm = ev.start_mark
                is_map = kind == MAP_START
                tag = ev.tag
                if tag is not None and self.refusal is None:
                    self._check_collection_tag(
                        tag, is_map, (sm.line, sm.column, ev.end_mark.line, ev.end_mark.column)
                    )
                if (
                    is_map
                    and self.backend.ends_bare_key
                    and self.backend.fallback is not None
                    and stack
                    and not stack[-1].is_map
                    and not stack[-1].block
                    and _BARE_KEY_CLOSED.match(self.text, sm.index)
                ):
                    raise _Departure  # 0.2.5 refuses ``[ ? ]``; 0.2.6 reads an empty pair
                obj: Any = {} if is_map else []
                child_path = self._child_path(stack, root)
                if len(stack) >= MAX_DEPTH:
                    child_path = None  # no positions below: the file is refused anyway
                    if self.refusal is None:
                        marks = (sm.line, sm.column, ev.end_mark.line, ev.end_mark.column)
                        message = (
                            "stack level too deep (collections nested more than "
                            f"{MAX_DEPTH:,} levels: Psych runs out of Ruby stack)"
                        )
                        self._refuse(Refusal(message, "yaml-too-deep", disallowed=True), marks)
                    # libyaml's time grows with the square of the depth: read no further
                    return None, True
                own = -1
                if child_path is not None:
                    own = len(entries)
                    entries.append(None)
                if ev.anchor is not None:
                    anchors[ev.anchor] = obj
                    self.anchor_lines[ev.anchor] = sm.line
                self.open_ids.add(id(obj))
                stack.append(
                    _Frame(
                        is_map,
                        obj,
                        child_path,
                        own,
                        tag,
                        ev.anchor,
                        not ev.flow_style,
                        sm.line,
                        sm.column,
                    )
                )
            elif kind in (MAP_END, SEQ_END):
                frame = stack.pop()
                self.open_ids.discard(id(frame.obj))
                if not stack:
                    self.root_plain = frame.is_map and frame.block and frame.tag is None
                if frame.block:
                    end = (frame.end_line, frame.end_col)
                else:
                    em = ev.end_mark
                    end = (em.line, em.column)
                raw_marks = (frame.start_line, frame.start_col, end[0], end[1])
                value = frame.obj
                if frame.tag is not None and self.refusal is None:
                    value = self._finish_tagged(frame, raw_marks)
                    if frame.anchor is not None:
                        anchors[frame.anchor] = value
                if frame.own >= 0 and frame.path is not None:
                    self.origin[id(value)] = (value, frame.path, frame.own, len(entries))
                if frame.anchor is not None:
                    self.anchor_sizes[frame.anchor] = frame.size
                self.pending = (frame.size, frame.big)
                self._attach(stack, root, value, raw_marks, None, frame.own, frame.tag)
            elif kind == ALIAS:
                sm = ev.start_mark
                em = ev.end_mark
                raw_marks = (sm.line, sm.column, em.line, em.column)
                name = ev.anchor
                value = None
                if name not in anchors:
                    self._refuse(Refusal(f"Unknown alias: {name}", "yaml-unknown-alias"), raw_marks)
                else:
                    value = anchors[name]
                    if id(value) in self.open_ids:
                        problems.append(
                            self._problem(
                                "yaml-recursive-alias",
                                f"The alias *{name} refers to a collection that contains it; Psych "
                                "builds a self-referencing value that no lookup can use (hiera-ls "
                                "reads it as null)",
                                raw_marks,
                            )
                        )
                        value = None
                    else:
                        size = self.anchor_sizes.get(name, 1)
                        self.pending = (size, (size, name) if size > 1 else None)
                self._attach_alias(stack, root, value, raw_marks)
            elif kind == DOC_END:
                return (root[0] if root else None), True
            else:  # stream events cannot occur inside a document
                return (root[0] if root else None), True

    # ------------------------------------------------------------------ scalars

    def _plain_scalar(self, text: str, marks: tuple[int, int, int, int]) -> object:
        try:
            value = tokenize(text)
        except Refusal as refusal:
            self._refuse(refusal, marks)
            return text if self.refusal is None else None
        if value.__class__ is RubySymbol and value not in _HARMLESS_SYMBOLS:
            self.suspect = True
        if value.__class__ is not str or (text[:1].isdigit() or text[:1] in "+-."):
            note = _surprise(text, value)
            if note is not None:
                self.problems.append(self._problem(note[0], note[1], marks))
        return value

    def _tagged(self, tag: str, text: str, marks: tuple[int, int, int, int]) -> object:
        try:
            value = tagged_scalar(tag, text)
        except Refusal as refusal:
            self._refuse(refusal, marks)
            return text if self.refusal is None else None
        if value.__class__ is RubyObject or (
            value.__class__ is RubySymbol and value not in _HARMLESS_SYMBOLS
        ):
            self.suspect = True
        return value

    def _refuse(self, refusal: Refusal, marks: tuple[int, int, int, int]) -> None:
        """Remember the first refusal; the rest of the document is still parsed, because a
        syntax error anywhere in it is what Psych reports first."""
        if self.lenient and refusal.disallowed and refusal.code in LENIENT_CODES:
            # read on, the scalar as its text: every such scalar is a finding of its own
            message = f"{LOAD_ERROR_PREFIX}({self.path}): {refusal.message}"
            self.problems.append(
                Problem(refusal.code, message, Severity.ERROR, FileSpan(self.path, Span.of(*marks)))
            )
            return
        if self.refusal is None:
            self.refusal = (refusal, marks)

    # ------------------------------------------------------------------ tagged collections

    def _check_collection_tag(
        self, tag: str, is_map: bool, marks: tuple[int, int, int, int]
    ) -> None:
        """Tags Psych refuses before it visits the collection's children."""
        try:
            if is_map:
                _check_mapping_tag(tag)
            else:
                _check_sequence_tag(tag)
        except Refusal as refusal:
            self._refuse(refusal, marks)

    def _finish_tagged(self, frame: _Frame, marks: tuple[int, int, int, int]) -> object:
        tag = frame.tag
        obj = frame.obj
        if frame.is_map:
            if tag == _STR_TAG or (tag is not None and tag.startswith(("!str", "!ruby/string"))):
                return obj.get("str")
            if tag is not None and tag.startswith("!ruby/hash-with-ivars"):
                elements = obj.get("elements")
                return elements if isinstance(elements, dict) else {}
            return obj
        if tag in ("!omap", "tag:yaml.org,2002:omap"):
            ordered: dict[object, object] = {}
            for item in obj:
                if not isinstance(item, dict) or not item:
                    self._refuse(
                        Refusal("undefined method `children' for a Psych node", "yaml-bad-tag"),
                        marks,
                    )
                    return None
                keys = list(item)
                ordered[keys[0]] = item[keys[-1]]
            return ordered
        return obj

    # ------------------------------------------------------------------ attaching nodes

    @staticmethod
    def _child_path(stack: list[_Frame], root: list[object]) -> Path | None:
        if not stack:
            return ()
        top = stack[-1]
        if top.path is None:
            return None
        if top.is_map:
            if not top.has_key:
                return None  # a collection used as a key: its insides have no lookup path
            return (*top.path, top.key)
        return (*top.path, len(top.obj))

    def _attach(
        self,
        stack: list[_Frame],
        root: list[object],
        value: object,
        marks: tuple[int, int, int, int],
        style: str | None,
        own: int,
        tag: str | None,
    ) -> bool:
        """Put a finished node into its parent; False when it was a ``<<`` merge source."""
        entries = self.entries
        size, big = self.pending
        self.pending = _ONE
        if not stack:
            root.append(value)
            data: _Raw = (-1, -1, -1, -1, marks[0], marks[1], marks[2], marks[3], style)
            if own >= 0:
                entries[own] = ((), data)
            else:
                entries.append(((), data))
            return True
        top = stack[-1]
        top.end_line = marks[2]
        top.end_col = marks[3]
        if top.has_key or not top.is_map:
            top.size = min(top.size + size, _SIZE_CAP)
            if big is not None and (top.big is None or big[0] > top.big[0]):
                top.big = big
            if size > MAX_EXPANDED and len(stack) == 1 and top.is_map:
                self.oversized[top.key] = (size, top.key_raw, big)
        if not top.is_map:
            index = len(top.obj)
            top.obj.append(value)
            if top.path is not None:
                data = (-1, -1, -1, -1, marks[0], marks[1], marks[2], marks[3], style)
                if own >= 0:
                    entries[own] = ((*top.path, index), data)
                else:
                    entries.append(((*top.path, index), data))
            return True
        if not top.has_key:
            top.has_key = True
            top.key = _hashable(value)
            top.key_raw = marks
            top.key_tag = tag
            if value.__class__ is RubySymbol:
                self.symbol_keys = True
            elif value is None or value.__class__ in (bool, dict, list, RubyObject):
                self.suspect = True
            return True
        top.has_key = False
        key = top.key
        k = top.key_raw
        first = own if own >= 0 else len(entries)
        if top.path is not None:
            data = (k[0], k[1], k[2], k[3], marks[0], marks[1], marks[2], marks[3], style)
            if own >= 0:
                entries[own] = ((*top.path, key), data)
            else:
                entries.append(((*top.path, key), data))
        if (
            key == _MERGE_KEY
            and key.__class__ is str
            and top.key_tag != _STR_TAG
            and self._merge(top, value, first)
        ):
            return False
        self._store(top, key, value, first)
        return True

    def _attach_alias(
        self,
        stack: list[_Frame],
        root: list[object],
        value: object,
        marks: tuple[int, int, int, int],
    ) -> None:
        """An alias is the anchored object itself; its insides get the anchor's ranges."""
        path = self._child_path(stack, root)
        if not self._attach(stack, root, value, marks, None, -1, None) or path is None:
            return
        if isinstance(value, (dict, list)):
            self._copy_subtree(value, path, skip_own=True)

    def _copy_subtree(self, value: object, new_path: Path, skip_own: bool) -> None:
        """Record ``value``'s insides again under ``new_path`` (for aliases and merges)."""
        found = self.origin.get(id(value))
        if found is None or found[0] is not value:
            return
        _, old_path, first, end = found
        entries = self.entries
        cut = len(old_path)
        start = first + 1 if skip_own else first
        if end - start > self.budget:
            return
        self.budget -= end - start
        for i in range(start, end):
            entry = entries[i]
            if entry is None:
                continue
            entries.append(((*new_path, *entry[0][cut:]), entry[1]))

    def _store(self, top: _Frame, key: object, value: object, first: int) -> None:
        obj = top.obj
        merged = top.merged is not None and key in top.merged
        if key in obj:
            self._drop_key(top, key, first)
            if top.path == ():
                self.tangled = True
            if not merged:
                self.problems.append(
                    self._problem(
                        "yaml-duplicate-key",
                        f"Duplicate key {_show_key(key)} in this mapping: Psych keeps the value "
                        "given last",
                        top.key_raw,
                    )
                )
        obj[key] = value
        if merged and top.merged is not None:
            top.merged.discard(key)

    def _drop_key(self, top: _Frame, key: object, before: int) -> None:
        """Forget the ranges of ``key``'s previous value (recorded before index ``before``).

        Only the runs of entries under ``key`` are visited (:meth:`_runs`), each once: a
        mapping of 20,000 repeated keys was a scan of all its entries per repeat (minutes).
        """
        if top.path is None or top.own < 0:
            return
        runs = self._runs(top, before).pop(key, None)
        if runs is None:
            return
        prefix = (*top.path, key)
        cut = len(prefix)
        entries = self.entries
        for start, end in runs:
            for i in range(start, end):
                entry = entries[i]
                if entry is not None and entry[0][:cut] == prefix:
                    entries[i] = None

    def _runs(self, top: _Frame, before: int) -> dict[object, list[tuple[int, int]]]:
        """The mapping's entries up to ``before`` grouped by the key they lie under, as runs
        of indices; extended from where the last call stopped, so each entry is looked at
        once over the mapping's life (a merge's copies lie apart from the key's own)."""
        runs = top.runs
        if runs is None:
            runs = top.runs = {}
            top.runs_to = top.own + 1
        assert top.path is not None
        depth = len(top.path)
        entries = self.entries
        start = top.runs_to
        current: object = _NO_KEY
        for i in range(top.runs_to, before):
            entry = entries[i]
            if entry is None or len(entry[0]) <= depth:
                continue
            key = entry[0][depth]
            if current is _NO_KEY or key != current or key.__class__ is not current.__class__:
                if current is not _NO_KEY:
                    runs.setdefault(current, []).append((start, i))
                current, start = key, i
        if current is not _NO_KEY:
            runs.setdefault(current, []).append((start, before))
        top.runs_to = max(top.runs_to, before)
        return runs

    def _drop(self, span: tuple[int, int]) -> None:
        entries = self.entries
        for i in range(span[0], span[1]):
            entries[i] = None

    def _merge(self, top: _Frame, value: object, first: int) -> bool:
        """Psych's ``<<``: a hash (anchored or inline) or a list of hashes is merged in order,
        overwriting keys written before it; anything else stays a plain ``<<`` key."""
        sources: list[dict[Any, Any]]
        if isinstance(value, dict):
            sources = [value]
        elif isinstance(value, list) and all(isinstance(item, dict) for item in value):
            sources = list(value)
        else:
            return False
        merged: dict[object, object] = {}
        giver: dict[object, dict[Any, Any]] = {}
        for source in reversed(sources):
            merged.update(source)
            for key in source:
                giver[key] = source
        # The ``<<`` value's own entries describe a key that will not exist: dropped below,
        # after the merged keys have copied the ranges they need from them.
        merge_entries = (first, len(self.entries))
        obj = top.obj
        if top.path == ():
            self.tangled = True
        if top.merged is None:
            top.merged = set()
        for key, item in merged.items():
            if key in obj:
                self._drop_key(top, key, first)
                if key not in top.merged:
                    self.problems.append(
                        self._problem(
                            "yaml-merge-override",
                            f"The merge key `<<` replaces {_show_key(key)}, written earlier in "
                            "this mapping: Psych merges in document order, so keys written after "
                            "`<<` win and keys before it lose",
                            top.key_raw,
                        )
                    )
            obj[key] = item
            top.merged.add(key)
            if top.path is not None:
                self._copy_entry(giver[key], key, (*top.path, key))
        self._drop(merge_entries)
        return True

    def _copy_entry(self, source: dict[Any, Any], key: object, new_path: Path) -> None:
        """Record the ranges of ``source[key]`` (and its insides) again under ``new_path``."""
        found = self.origin.get(id(source))
        if found is None or found[0] is not source:
            return
        _, old_path, first, end = found
        prefix = (*old_path, key)
        cut = len(prefix)
        entries = self.entries
        for i in range(first + 1, end):
            entry = entries[i]
            if entry is None or entry[0][:cut] != prefix:
                continue
            if self.budget <= 0:
                return
            self.budget -= 1
            entries.append(((*new_path, *entry[0][cut:]), entry[1]))

    def _problem(self, code_id: str, message: str, marks: tuple[int, int, int, int]) -> Problem:
        severity = _SEVERITY.get(code_id, Severity.INFORMATION)
        return Problem(code_id, message, severity, FileSpan(self.path, Span.of(*marks)))


# --------------------------------------------------------------------------- helpers


def outline_of(value: dict[object, object], nodes: Nodes) -> Outline | None:
    """The outline when every top-level key starts a line of its own at column 0.

    A block scalar ends at column 0 of the line after it, which it does not occupy.
    """
    lines: list[int] = []
    last_end = (-1, 0)
    for key in value:
        r = nodes.raw((key,))
        if r is None or r[1] != 0 or r[0] != r[2] or (r[0], 0) < last_end:
            return None
        lines.append(r[0])
        last_end = (r[6], r[7])
    return Outline(tuple(lines), tuple(value))


def _count(size: int) -> str:
    return f"{size:,}" if size < _SIZE_CAP else f"more than {_SIZE_CAP:,}"


_SEVERITY = {
    "yaml-alias-expansion": Severity.ERROR,
    "yaml-duplicate-key": Severity.WARNING,
    "yaml-merge-override": Severity.WARNING,
    "yaml-recursive-alias": Severity.ERROR,
}


def _check_mapping_tag(tag: str) -> None:
    if tag.startswith("!ruby/struct"):
        name = tag[len("!ruby/struct") :].removeprefix(":")
        resolve_class(name)
        raise disallowed("Struct") if not name else allocate(name)
    if tag.startswith("!ruby/object"):
        name = tag[len("!ruby/object") :].removeprefix(":")
        if name in ("Complex", "Rational"):
            raise disallowed(name)
        if name == "Hash":
            return
        if not name:
            raise disallowed("Object")
        raise allocate(name)
    if tag.startswith(("!str:", "!ruby/string:")):
        resolve_class(tag.split(":", 1)[1])
        return
    if tag.startswith("!ruby/array:"):
        raise allocate(tag.split(":", 1)[1])
    if tag == "!ruby/range":
        raise disallowed("Range")
    if tag.startswith("!ruby/exception"):
        name = tag[len("!ruby/exception") :].removeprefix(":")
        raise disallowed(name or "Exception")
    if tag in ("!set", "tag:yaml.org,2002:set"):
        raise disallowed("Psych::Set")
    if tag.startswith("!ruby/hash-with-ivars:"):
        raise allocate(tag.split(":", 1)[1])
    if tag.startswith(("!map:", "!ruby/hash:")):
        raise allocate(tag.split(":", 1)[1])
    if tag in ("!omap", "tag:yaml.org,2002:omap"):
        raise disallowed("Psych::Omap")
    if tag.startswith("!ruby/marshalable:"):
        raise allocate(tag.split(":", 1)[1])


def _check_sequence_tag(tag: str) -> None:
    if tag.startswith(("!seq:", "!ruby/array:")):
        raise allocate(tag.split(":", 1)[1])


_KEY_TEXT_NODES = 100_000  # a collection used as a key bigger than this is told apart by identity


def _hashable(value: object) -> object:
    if isinstance(value, (dict, list)):
        size = expanded_size(value)
        if size > _KEY_TEXT_NODES:  # an alias bomb as a key: never spell it out
            return CompositeKey(f"<a collection of {size} nodes #{id(value)}>", value)
        return CompositeKey(_key_text(value), value)
    return value


def _key_text(value: object) -> str:
    if isinstance(value, dict):
        return "{" + ", ".join(f"{_key_text(k)}=>{_key_text(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(_key_text(v) for v in value) + "]"
    if isinstance(value, CompositeKey):
        return value.text
    return f"{type(value).__name__}:{value!r}"


def _show_key(key: object) -> str:
    if isinstance(key, str):
        return f"'{key}'"
    if isinstance(key, RubySymbol):
        return f":{key.name}"
    if isinstance(key, CompositeKey):
        return "(a collection)"
    if key is None:
        return "null"
    if isinstance(key, bool):
        return "true" if key else "false"
    return repr(key)


_BOOLEAN_SPELLINGS = frozenset(("true", "True", "TRUE", "false", "False", "FALSE"))


def _surprise(text: str, value: object) -> tuple[str, str] | None:
    """YAML 1.1 readings a YAML 1.2 reader (and most people) would not expect."""
    if isinstance(value, bool):
        if text in _BOOLEAN_SPELLINGS:
            return None
        word = "true" if value else "false"
        return "yaml11-boolean", f"Puppet reads `{text}` as the Boolean {word}"
    if isinstance(value, int):
        body = text.lstrip("+-")
        if ":" in text:
            return (
                "yaml11-sexagesimal",
                f"Puppet reads `{text}` as the Integer {value} (Psych's base 60)",
            )
        if body.startswith("0b"):
            return "yaml11-binary", f"Puppet reads `{text}` as the binary Integer {value}"
        if len(body) > 1 and body[0] == "0" and body[1] != "x":
            return "yaml11-octal", f"Puppet reads `{text}` as the octal Integer {value}"
        if "," in text or "_" in text:
            return "yaml11-number-separator", f"Puppet reads `{text}` as the Integer {value}"
        return None
    if isinstance(value, float):
        if ":" in text:
            return (
                "yaml11-sexagesimal",
                f"Puppet reads `{text}` as the Float {_float_text(value)} (Psych's base 60)",
            )
        if "," in text or "_" in text:
            return (
                "yaml11-number-separator",
                f"Puppet reads `{text}` as the Float {_float_text(value)}",
            )
        return None
    if isinstance(value, str) and _looks_exponent(text):
        return (
            "yaml11-exponent-string",
            f"Puppet reads `{text}` as the String '{text}', not a number",
        )
    return None


def _looks_exponent(text: str) -> bool:
    body = text.lstrip("+-")
    mantissa, sep, exponent = body.replace("E", "e").partition("e")
    if not sep or not exponent.lstrip("+-").isdigit():
        return False
    return mantissa.replace(".", "", 1).isdigit()


def _float_text(value: float) -> str:
    if math.isinf(value):
        return "Infinity" if value > 0 else "-Infinity"
    return repr(value)


def _fatal_doc(path: str, code_id: str, message: str, span: Span) -> YamlDocument:
    problem = Problem(code_id, LOAD_ERROR_PREFIX + message, Severity.ERROR, FileSpan(path, span))
    return YamlDocument(path, None, EMPTY_NODES, (), problem)


def _syntax_doc(path: str, exc: BaseException, data: bytes) -> YamlDocument:
    """A libyaml error, worded as Psych::SyntaxError words it.

    Psych prints the *context* mark (``while parsing a block mapping at line 1 column 1``)
    when libyaml has one; a scanner error without context uses the problem mark; a parser
    or reader error without context prints line 1 column 1 (libyaml leaves the mark zeroed).
    The diagnostic range points at the problem itself, which is more useful in an editor.
    """
    problem_mark = getattr(exc, "problem_mark", None)
    context_mark = getattr(exc, "context_mark", None)
    problem = getattr(exc, "problem", None)
    context = getattr(exc, "context", None)
    if problem_mark is None and hasattr(exc, "reason"):  # a ReaderError
        problem = str(getattr(exc, "reason", "invalid input"))
        offset = int(getattr(exc, "position", 0) or 0)
        line, col = _position_of_byte(data, offset)
        message = f"({path}): {problem} at line 1 column 1"
        return _fatal_doc(path, "yaml-syntax", message, Span.of(line, col, line, col + 1))
    if problem_mark is None:
        message = f"({path}): {exc} at line 1 column 1"
        return _fatal_doc(path, "yaml-syntax", message, Span.of(0, 0, 0, 0))
    if context_mark is not None:
        shown = (context_mark.line + 1, context_mark.column + 1)
    elif type(exc).__name__ == "ScannerError":
        shown = (problem_mark.line + 1, problem_mark.column + 1)
    else:
        shown = (1, 1)
    words = " ".join(part for part in (problem, context) if part)
    message = f"({path}): {words} at line {shown[0]} column {shown[1]}"
    line, col = _inside(data, problem_mark.line, problem_mark.column)
    return _fatal_doc(path, "yaml-syntax", message, Span.of(line, col, line, col))


def _inside(data: bytes, line: int, col: int) -> tuple[int, int]:
    """libyaml's mark moved onto the text: at the end of input it may point at a line past
    the last one, where an editor can show nothing."""
    lines = re.split("\r\n|\r|\n", data.decode("utf-8", "replace"))
    if line >= len(lines):
        return len(lines) - 1, len(lines[-1])
    return line, min(col, len(lines[line]))


def _position_of_byte(data: bytes, offset: int) -> tuple[int, int]:
    lines = re.split("\r\n|\r|\n", data[:offset].decode("utf-8", "replace"))
    return len(lines) - 1, len(lines[-1])
