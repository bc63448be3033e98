"""Navigation over YAML's own names in one file: definition on ``*name`` is its ``&name``,
references of an anchor (or of one of its aliases) are its aliases, rename renames the
anchor and the aliases that read it, hover on an alias shows the value it stands for.

Each feature asks here first; a cursor not on an anchor or alias gets None and the feature
goes on with keys. The file is read for its anchors only when the text under the cursor is
written like one (and once per text: snapshots share the answer while the text is the same).
"""

from __future__ import annotations

from hiera_ls.features.render import yaml_block
from hiera_ls.project.workspace import FileKind, Snapshot
from hiera_ls.source.spans import FileSpan, Position, Span
from hiera_ls.source.yaml_anchors import (
    ANCHOR_NAME,
    NO_ANCHORS,
    AnchorMark,
    Anchors,
    anchors_in,
    may_be_on_anchor,
)

_YAML_KINDS = (FileKind.DATA, FileKind.HIERA_CONFIG, FileKind.FACTS, FileKind.REPO_CONFIG)


class AliasRenameRefused(Exception):
    """Why an anchor is not renamed (the rename's error message)."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def mark_at(snapshot: Snapshot, path: str, pos: Position) -> tuple[Anchors, AnchorMark] | None:
    """The anchor or alias under the cursor, with the file's anchors; None when not on one."""
    if path.endswith(".json") or snapshot.kind_of(path) not in _YAML_KINDS:
        return None
    text = snapshot.text(path)
    if text is None:
        return None
    line = _line(snapshot, path, text, pos.line)
    if line is None or not may_be_on_anchor(line, pos.column):
        return None
    anchors = _anchors(snapshot, path, text)
    mark = anchors.at(pos)
    return (anchors, mark) if mark is not None else None


def _line(snapshot: Snapshot, path: str, text: str, n: int) -> str | None:
    """Line ``n`` of ``text`` (lines end at \\n), None past its end. Where each line starts is
    worked out once per text: every hover and definition asks here first, and splitting a
    10,000-line file each time was a third of a hover's time."""
    slot = ("line-starts", path)
    known = snapshot.memo.get(slot)
    if isinstance(known, tuple) and known[0] is text:
        starts: list[int] = known[1]
    else:
        starts = [0]
        at = text.find("\n")
        while at >= 0:
            starts.append(at + 1)
            at = text.find("\n", at + 1)
        snapshot.memo[slot] = (text, starts)
    if n >= len(starts):
        return None
    end = starts[n + 1] - 1 if n + 1 < len(starts) else len(text)
    return text[starts[n] : end]


def _anchors(snapshot: Snapshot, path: str, text: str) -> Anchors:
    slot = ("yaml-anchors", path)
    known = snapshot.memo.get(slot)
    if isinstance(known, tuple) and known[0] is text:
        found = known[1]
        return found if isinstance(found, Anchors) else NO_ANCHORS
    found = anchors_in(text)
    snapshot.memo[slot] = (text, found)
    return found


def alias_definition(snapshot: Snapshot, path: str, pos: Position) -> list[FileSpan] | None:
    """Where the alias under the cursor was anchored (an anchor: itself)."""
    found = mark_at(snapshot, path, pos)
    if found is None:
        return None
    anchors, mark = found
    anchor = anchors.anchor_of(mark)
    return [FileSpan(path, anchor.span)] if anchor is not None else []


def alias_references(
    snapshot: Snapshot, path: str, pos: Position, include_declaration: bool
) -> list[FileSpan] | None:
    """The aliases reading the anchor under the cursor (or the one the alias reads)."""
    found = mark_at(snapshot, path, pos)
    if found is None:
        return None
    anchors, mark = found
    anchor = anchors.anchor_of(mark)
    if anchor is None:
        return []
    marks = ([anchor] if include_declaration else []) + anchors.aliases_of(anchor)
    return [FileSpan(path, m.span) for m in marks]


def _to_rename(
    snapshot: Snapshot, path: str, pos: Position
) -> tuple[Anchors, AnchorMark, AnchorMark] | None:
    """The file's anchors, the mark under the cursor and the anchor a rename renames; None
    when the cursor is on no mark; refused for an alias no anchor comes before."""
    found = mark_at(snapshot, path, pos)
    if found is None:
        return None
    anchors, mark = found
    anchor = anchors.anchor_of(mark)
    if anchor is None:
        raise AliasRenameRefused(f"No anchor &{mark.name} comes before this alias")
    return anchors, mark, anchor


def alias_rename_target(snapshot: Snapshot, path: str, pos: Position) -> tuple[str, Span] | None:
    """The anchor's name and the range of the name under the cursor, when on one."""
    found = _to_rename(snapshot, path, pos)
    if found is None:
        return None
    _, mark, _ = found
    return mark.name, mark.name_span


def alias_rename(
    snapshot: Snapshot, path: str, pos: Position, new: str
) -> list[tuple[Span, str]] | None:
    """The edits renaming the anchor under the cursor (or read by the alias under it) and
    the aliases that read it; None when the cursor is on neither."""
    found = _to_rename(snapshot, path, pos)
    if found is None:
        return None
    anchors, _, anchor = found
    if not ANCHOR_NAME.fullmatch(new):
        raise AliasRenameRefused(
            f"'{new}' is not a name libyaml reads as an anchor: use letters, digits, '_' and '-'"
        )
    if new == anchor.name:
        raise AliasRenameRefused(f"'{new}' is the anchor's name already")
    if new in anchors.names():
        raise AliasRenameRefused(
            f"This file has an anchor or alias named '{new}' already: an alias would then "
            "read another value"
        )
    return [(m.name_span, new) for m in (anchor, *anchors.aliases_of(anchor))]


def alias_hover(snapshot: Snapshot, path: str, pos: Position) -> tuple[str, Span] | None:
    """What the alias under the cursor stands for: the anchored value, as Puppet reads it."""
    found = mark_at(snapshot, path, pos)
    if found is None or not found[1].alias:
        return None
    anchors, mark = found
    anchor = anchors.anchor_of(mark)
    if anchor is None:
        return f"**YAML alias** `*{mark.name}`: no anchor `&{mark.name}` comes before it", mark.span
    line = anchor.span.start.line + 1
    lines = [f"**YAML alias** `*{mark.name}` of the value anchored at line {line}", ""]
    value = _anchored_value(snapshot, path, anchor)
    if value is not _UNKNOWN:
        lines.append(yaml_block(value))
    return "\n".join(lines), mark.span


_UNKNOWN = object()


def _anchored_value(snapshot: Snapshot, path: str, anchor: AnchorMark) -> object:
    """The value of the node the anchor is on (its range starts at the anchor)."""
    df = snapshot.data_file(path)
    if df is None:
        return _UNKNOWN
    for node_path in df.nodes:
        spans = df.nodes.get(node_path)
        if spans is None or spans.value.start != anchor.span.start:
            continue
        value: object = df.data
        try:
            for step in node_path:
                value = value[step]  # type: ignore[index]
        except (KeyError, IndexError, TypeError):
            return _UNKNOWN
        return value
    return _UNKNOWN
