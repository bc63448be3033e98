"""libyaml's events -> the values Psych builds, with the range of every node (the work of
``yaml_loader.py``, which reads a file with it: see there).

Each collection is a :class:`Frame` while its events arrive (``yaml_nodes.py``); each node's
ranges are recorded as flat entries, re-used when an alias or a ``<<`` merge copies it and
dropped when a repeated key replaces it; Psych's refusals are kept in its order of failure.
"""

from __future__ import annotations

import re
import sys
from typing import Any

from hiera_ls.puppet.message import Text, as_path, as_value
from hiera_ls.puppet.value_size import MAX_EXPANDED
from hiera_ls.puppet.values import RubySymbol
from hiera_ls.source.libyaml import (
    ALIAS,
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
from hiera_ls.source.loader_rules import BY_CODE
from hiera_ls.source.node_table import EMPTY_NODES, NodeTable, Path
from hiera_ls.source.node_table import Raw as _Raw
from hiera_ls.source.psych_scalars import (
    Refusal,
    RubyObject,
    tagged_scalar,
    tokenize,
)
from hiera_ls.source.spans import Problem, Span
from hiera_ls.source.yaml_document import (
    LOAD_ERROR_PREFIX,
    YamlDocument,
    fatal_doc,
    outline_of,
    syntax_doc,
)
from hiera_ls.source.yaml_nodes import (
    COPY_BUDGET,
    HARMLESS_SYMBOLS,
    LETTER,
    MERGE_KEY,
    ONE,
    SIZE_CAP,
    STR_TAG,
    WORD_START,
    Frame,
    Oversized,
    check_collection_tag,
    hashable,
    show_key,
    surprise,
    tagged_collection,
    too_large_values,
)

# Refusals of a class Psych would build if permitted (dates, ``!ruby/regexp``, objects)
LENIENT_CODES = frozenset({"yaml-date-rejected", "yaml-bad-tag"})


class Departure(Exception):
    """This libyaml reads the file unlike Psych's 0.2.5: read it with the backend's fallback."""


# After ``?`` in a flow sequence, what libyaml's scanner skips before the next token: blanks,
# line breaks, a byte order mark and ``#`` comments.
_BARE_KEY_CLOSED = re.compile(r"\?(?:[ \t\r\n\x85\u2028\u2029\ufeff]|#[^\r\n\x85\u2028\u2029]*)*\]")


class Builder:
    __slots__ = (
        "anchor_defs",
        "anchor_lines",
        "anchor_sizes",
        "anchors",
        "backend",
        "budget",
        "entries",
        "lenient",
        "links",
        "open_ids",
        "origin",
        "oversized",
        "path",
        "pending",
        "positions",
        "problems",
        "refusal",
        "root_plain",
        "spent",
        "starved",
        "suspect",
        "symbol_keys",
        "tangled",
        "text",
    )

    def __init__(
        self,
        path: str,
        backend: Backend,
        text: str,
        lenient: bool = False,
        positions: bool = True,
    ) -> None:
        self.path = path
        # False: the values alone, no node's range recorded (the root collection gets no
        # path, as one beyond MAX_DEPTH gets none: nothing inside it is recorded)
        self.positions = positions
        self.backend = backend
        self.text = text
        self.lenient = lenient
        self.entries: list[tuple[Path, _Raw] | None] = []
        self.anchors: dict[str, object] = {}
        self.anchor_sizes: dict[str, int] = {}  # expanded nodes of each anchored value
        self.anchor_lines: dict[str, int] = {}
        # top-level key -> (expanded size, the key's marks, largest alias inside)
        self.oversized: Oversized = {}
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
        self.budget = COPY_BUDGET
        # what ties top-level entries together for a re-parse of some (yaml_reparse): each
        # alias's line with its anchor's, the copy budget each top-level key spent, and
        # whether a copy went over the budget (which depends on every entry before it)
        self.links: list[tuple[int, int]] = []
        self.anchor_defs: list[int] = []  # the line of every anchor
        self.spent: dict[object, int] = {}
        self.starved = False
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
                raise Departure from exc
            return syntax_doc(path, exc, data)
        except Departure:
            raise
        except Exception as exc:  # a bug of ours must not take the language server down
            message = Text.of(
                "(",
                as_path(path),
                f"): hiera-ls could not load this file ({type(exc).__name__}: ",
                as_value(str(exc)),
                ")",
            )
            return fatal_doc(path, "yaml-syntax", message, Span.of(0, 0, 0, 0))
        if self.refusal is not None:
            refusal, (sl, sc, el, ec) = self.refusal
            prefix = Text.of("(", as_path(path), "): ") if refusal.disallowed else Text()
            return fatal_doc(path, refusal.code, prefix + refusal.text, Span.of(sl, sc, el, ec))
        if not found:
            return YamlDocument(path, None, EMPTY_NODES, (), None)
        raw: dict[Path, _Raw] = {}
        for entry in self.entries:
            if entry is not None:
                raw[entry[0]] = entry[1]
        self.entries = []
        too_large: dict[object, Text] = {}
        if self.oversized:
            too_large = too_large_values(
                self.path, self.oversized, self.anchor_lines, value, self.problems
            )
        nodes = NodeTable(raw, self.symbol_keys, self.suspect)
        outline = None
        if (
            self.positions
            and isinstance(value, dict)
            and self.root_plain
            and not (self.starved or self.tangled or self.symbol_keys or self.suspect)
        ):
            outline = outline_of(value, nodes, self.links, self.spent, self.anchor_defs)
        return YamlDocument(path, value, nodes, tuple(self.problems), None, outline, too_large)

    def _document(self, parser: Any) -> tuple[object, bool]:
        """Events of the first document -> its value; Psych never reads past that document."""
        kinds = self.backend.kinds
        get = parser.get_event
        kind = kinds[get().__class__]  # stream start
        ev = get()
        kind = kinds[ev.__class__]
        if kind != DOC_START:
            return None, False
        stack: list[Frame] = []
        root: list[object] = []
        entries = self.entries
        anchors = self.anchors
        problems = self.problems
        intern = sys.intern
        positions = self.positions
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
                    elif text and (text[0] in WORD_START if len(text) < 6 else text[0] in LETTER):
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
                    self.anchor_defs.append(sm.line)
                style = ev.style or None
                top = stack[-1] if stack else None
                if (
                    top is not None
                    and top.is_map
                    and (top.path is not None or not positions)
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
                    if key not in top.obj and key != MERGE_KEY:
                        top.has_key = False
                        top.obj[key] = value
                        top.size += 1
                        k = top.key_raw
                        if top.path is not None:
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
                    try:  # tags Psych refuses before it visits the collection's children
                        check_collection_tag(tag, is_map)
                    except Refusal as refusal:
                        marks = (sm.line, sm.column, ev.end_mark.line, ev.end_mark.column)
                        self._refuse(refusal, marks)
                if (
                    is_map
                    and self.backend.ends_bare_key
                    and self.backend.fallback is not None
                    and stack
                    and not stack[-1].is_map
                    and not stack[-1].block
                    and _BARE_KEY_CLOSED.match(self.text, sm.index)
                ):
                    raise Departure  # 0.2.5 refuses ``[ ? ]``; 0.2.6 reads an empty pair
                obj: Any = {} if is_map else []
                child_path = self._child_path(stack, root) if positions else None
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
                    self.anchor_defs.append(sm.line)
                self.open_ids.add(id(obj))
                stack.append(
                    Frame(
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
                    self.root_plain = (
                        frame.is_map
                        and frame.block
                        and frame.tag is None
                        and frame.anchor is None  # (its range starts at the anchor)
                    )
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
                    self.links.append((sm.line, self.anchor_lines[name]))
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
        if value.__class__ is RubySymbol and value not in HARMLESS_SYMBOLS:
            self.suspect = True
        if value.__class__ is not str or (text[:1].isdigit() or text[:1] in "+-."):
            note = surprise(text, value)
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
            value.__class__ is RubySymbol and value not in HARMLESS_SYMBOLS
        ):
            self.suspect = True
        return value

    def _refuse(self, refusal: Refusal, marks: tuple[int, int, int, int]) -> None:
        """Remember the first refusal; the rest of the document is still parsed, because a
        syntax error anywhere in it is what Psych reports first."""
        if self.lenient and refusal.disallowed and refusal.code in LENIENT_CODES:
            # read on, the scalar as its text: every such scalar is a finding of its own
            message = Text.of(LOAD_ERROR_PREFIX, "(", as_path(self.path), "): ", refusal.text)
            self.problems.append(BY_CODE[refusal.code].at(message, self.path, Span.of(*marks)))
            return
        if self.refusal is None:
            self.refusal = (refusal, marks)

    # ------------------------------------------------------------------ tagged collections

    def _finish_tagged(self, frame: Frame, marks: tuple[int, int, int, int]) -> object:
        try:
            return tagged_collection(frame)
        except Refusal as refusal:
            self._refuse(refusal, marks)
            return None

    # ------------------------------------------------------------------ attaching nodes

    @staticmethod
    def _child_path(stack: list[Frame], root: list[object]) -> Path | None:
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
        stack: list[Frame],
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
        self.pending = ONE
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
            top.size = min(top.size + size, SIZE_CAP)
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
            top.key = hashable(value)
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
        if key == MERGE_KEY and key.__class__ is str and top.key_tag != STR_TAG:
            budget = self.budget
            if self._merge(top, value, first):
                self._spend(stack, budget)
                return False
        self._store(top, key, value, first)
        return True

    def _attach_alias(
        self,
        stack: list[Frame],
        root: list[object],
        value: object,
        marks: tuple[int, int, int, int],
    ) -> None:
        """An alias is the anchored object itself; its insides get the anchor's ranges."""
        path = self._child_path(stack, root)
        if not self._attach(stack, root, value, marks, None, -1, None) or path is None:
            return
        if isinstance(value, (dict, list)):
            budget = self.budget
            self._copy_subtree(value, path, skip_own=True)
            self._spend(stack, budget)

    def _spend(self, stack: list[Frame], budget: int) -> None:
        """Count the copies made since the budget was ``budget`` against the top-level key
        being read (an edit that re-parses some entries must know what the others spent)."""
        used = budget - self.budget
        if used and stack and stack[0].path == ():
            key = stack[0].key
            self.spent[key] = self.spent.get(key, 0) + used

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
            self.starved = True
            return
        self.budget -= end - start
        for i in range(start, end):
            entry = entries[i]
            if entry is None:
                continue
            entries.append(((*new_path, *entry[0][cut:]), entry[1]))

    def _store(self, top: Frame, key: object, value: object, first: int) -> None:
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
                        f"Duplicate key {show_key(key)} in this mapping: Psych keeps the value "
                        "given last",
                        top.key_raw,
                    )
                )
        obj[key] = value
        if top.path is not None:  # where this value's ranges are: a later duplicate drops them
            top.ranges[key] = (first, len(self.entries))
        if merged and top.merged is not None:
            top.merged.discard(key)

    def _drop_key(self, top: Frame, key: object, before: int) -> None:
        """Forget the ranges of ``key``'s previous value (recorded before index ``before``):
        those its entry recorded, else (a value a ``<<`` merge gave) a search of the
        mapping's."""
        if top.path is None or top.own < 0:
            return
        prefix = (*top.path, key)
        cut = len(prefix)
        entries = self.entries
        start, end = top.ranges.pop(key, (top.own + 1, before))
        for i in range(start, min(end, before)):
            entry = entries[i]
            if entry is not None and entry[0][:cut] == prefix:
                entries[i] = None

    def _drop(self, span: tuple[int, int]) -> None:
        entries = self.entries
        for i in range(span[0], span[1]):
            entries[i] = None

    def _merge(self, top: Frame, value: object, first: int) -> bool:
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
                            f"The merge key `<<` replaces {show_key(key)}, written earlier in "
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
                self.starved = True
                return
            self.budget -= 1
            entries.append(((*new_path, *entry[0][cut:]), entry[1]))

    def _problem(
        self, code_id: str, message: str | Text, marks: tuple[int, int, int, int]
    ) -> Problem:
        return BY_CODE[code_id].at(message, self.path, Span.of(*marks))
