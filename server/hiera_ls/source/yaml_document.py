"""A YAML document as the loader gives it, and Puppet's words when Psych refuses one."""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from hiera_ls.puppet.message import Text, as_path
from hiera_ls.source.loader_rules import BY_CODE
from hiera_ls.source.node_table import EMPTY_NODES, Nodes, NodeSpans, Path
from hiera_ls.source.spans import Problem, Span


@dataclass(frozen=True, slots=True)
class Outline:
    """Where each top-level entry of a block-mapping document starts, in file order.

    Only for documents whose top-level entries stand on their own lines (no top-level ``<<``
    or duplicate keys, no Symbols or odd keys, no alias copies cut short by the budget): an
    edit inside one entry can then be re-parsed without the others (``yaml_reparse``),
    unless an alias ties it to an entry it leaves in place (``links``).
    """

    lines: tuple[int, ...]  # the line of each entry's key (column 0), ascending
    keys: tuple[object, ...]
    # (key of an entry using an alias, key of the entry holding its anchor), once each, for
    # aliases whose anchor is in another entry; in file order of the entry using it
    links: tuple[tuple[object, object], ...] = ()
    # (key, node copies its aliases and merges made) for the keys that made any, in file
    # order: the copy budget is the whole document's
    spent: tuple[tuple[object, int], ...] = ()
    # the keys whose entries hold an anchor or an alias, in file order
    anchored: tuple[object, ...] = ()
    column: int = 0  # of every key (a document re-parsed inside an entry: its indentation)


@dataclass(frozen=True, slots=True)
class YamlDocument:
    """A YAML file as Psych loads it, with every node's range and its problems."""

    path: str
    value: object  # what Psych gives; None if empty or fatal
    nodes: Mapping[Path, NodeSpans]  # key path from root -> spans; () is the root
    problems: tuple[Problem, ...]
    fatal: Problem | None  # Psych/Puppet refuses the whole file; message as Puppet prints it
    outline: Outline | None = None  # set when an edit may re-parse single entries
    # top-level key -> why no lookup may walk its value (its aliases expand too far)
    too_large: Mapping[object, Text] = field(default_factory=dict)


LOAD_ERROR_PREFIX = "Unable to parse "


def psych_error_text(doc: YamlDocument) -> str | None:
    """The message of Puppet::Util::Yaml's YamlLoadError (what hiera.yaml loading raises).

    ``doc.fatal`` carries the yaml_data text, which is this with ``Unable to parse`` before it.
    """
    if doc.fatal is None:
        return None
    return doc.fatal.message.removeprefix(LOAD_ERROR_PREFIX)


def outline_of(
    value: dict[object, object],
    nodes: Nodes,
    links: Sequence[tuple[int, int]] = (),
    spent: Mapping[object, int] | None = None,
    anchor_lines: Sequence[int] = (),
) -> Outline | None:
    """The outline when every top-level key starts a line of its own at one column.

    A block scalar ends at column 0 of the line after it, which it does not occupy.
    ``links``: the line of each alias and of its anchor; ``spent``: the copies each
    top-level key made; ``anchor_lines``: the line of each anchor.
    """
    lines: list[int] = []
    last_end = (-1, 0)
    column = -1
    for key in value:
        r = nodes.raw((key,))
        if r is None or r[0] != r[2] or (r[0], 0) < last_end:
            return None
        if r[1] != column:
            if column >= 0:
                return None
            column = r[1]
        lines.append(r[0])
        last_end = (r[6], r[7])
    keys = tuple(value)
    tied: dict[tuple[object, object], None] = {}
    for alias_line, anchor_line in links:
        user = bisect_right(lines, alias_line) - 1
        holder = bisect_right(lines, anchor_line) - 1
        if user != holder:
            tied[(keys[user], keys[holder])] = None
    copies = tuple((k, spent[k]) for k in keys if k in spent) if spent else ()
    holding = {bisect_right(lines, line) - 1 for line in (*anchor_lines, *(a for a, _ in links))}
    anchored = tuple(keys[i] for i in sorted(holding) if i >= 0)
    return Outline(tuple(lines), keys, tuple(tied), copies, anchored, max(column, 0))


def fatal_doc(path: str, code_id: str, message: str | Text, span: Span) -> YamlDocument:
    problem = BY_CODE[code_id].at(Text.of(LOAD_ERROR_PREFIX, message), path, span)
    return YamlDocument(path, None, EMPTY_NODES, (), problem)


def syntax_doc(path: str, exc: BaseException, data: bytes) -> YamlDocument:
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
        message = Text.of("(", as_path(path), f"): {problem} at line 1 column 1")
        return fatal_doc(path, "yaml-syntax", message, Span.of(line, col, line, col + 1))
    if problem_mark is None:
        message = Text.of("(", as_path(path), f"): {exc} at line 1 column 1")
        return fatal_doc(path, "yaml-syntax", message, Span.of(0, 0, 0, 0))
    if context_mark is not None:
        shown = (context_mark.line + 1, context_mark.column + 1)
    elif type(exc).__name__ == "ScannerError":
        shown = (problem_mark.line + 1, problem_mark.column + 1)
    else:
        shown = (1, 1)
    words = " ".join(part for part in (problem, context) if part)
    message = Text.of("(", as_path(path), f"): {words} at line {shown[0]} column {shown[1]}")
    line, col = _inside(data, problem_mark.line, problem_mark.column)
    return fatal_doc(path, "yaml-syntax", message, Span.of(line, col, line, col))


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
