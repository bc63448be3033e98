"""Rename a key everywhere at once: its definitions, literal lookup_options entries and the
``%{lookup('k')}`` / ``%{alias('k')}`` / ``%{hiera('k')}`` references (a sub-key reference
``lookup('k.sub')`` has its ``k`` part renamed).

Where: every data file of the environment the edited file belongs to (the global layer's
files included: they are read by it too), and the data of the key's own module (a module's
data holds only its own namespace; Puppet drops its other keys, so they are left alone).
Other environments are other branches of the code, renamed from their own files.
Puppet code's literal ``lookup('k')`` / ``hiera('k')`` calls (manifests, templates, Ruby
functions: the environment's code index) are renamed too: the key's characters in the string.

Every edit replaces the name's own characters (a quoted key stays quoted with its quote):
nothing is re-dumped.  Refused with a message: a new name that is no valid key, that an
environment file or the module already defines, that leaves the module's namespace, or that
a regex lookup_options pattern matches differently from the old one (its merge would change);
a key that sets a class parameter (renaming the data alone would stop Puppet from setting the
parameter: rename the parameter in the code, then the key); a key that a lookup with a key
built at run time may read and the new name would not match.
"""

from __future__ import annotations

import itertools
import os
import re
from collections.abc import Iterator
from dataclasses import dataclass

from hiera_ls.features.provenance import module_of, pattern_matches
from hiera_ls.features.puppet_code import code_index, key_text_span
from hiera_ls.features.targets import DataKey, KeyCall, OptionsKey, TokenAt, target_at
from hiera_ls.features.yaml_aliases import AliasRenameRefused, alias_rename, alias_rename_target
from hiera_ls.project.code_index import CodeIndex
from hiera_ls.project.key_index import KEY_METHODS, LARGE_FILE_CHARS, FileKeys, root_of
from hiera_ls.project.model import LayerKind
from hiera_ls.project.workspace import DataFileInfo, EnvironmentView, Snapshot
from hiera_ls.source.interpolation import TokenKind
from hiera_ls.source.keys import LOOKUP_OPTIONS
from hiera_ls.source.line_map import LineMap
from hiera_ls.source.spans import Position, Span

# letters, digits, '_' and '-', with '::' between namespaces: what a key can be written as
# everywhere (plain in YAML, unquoted inside lookup('...'), as a class parameter's name)
VALID_KEY = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_-]*(?:::[A-Za-z0-9_][A-Za-z0-9_-]*)*")
# plain YAML 1.1 scalars that would not be strings (Psych): such a name is written quoted
_NOT_A_STRING = re.compile(
    r"(?i:y|n|yes|no|true|false|on|off|null)|[-+]?[0-9][0-9_]*(?:\.[0-9_]*)?(?:e[-+]?[0-9]+)?"
    r"|0x[0-9a-fA-F_]+|0b[01_]+|[0-9]+(?::[0-5]?[0-9])+(?:\.[0-9_]*)?|[0-9]{4}-[0-9]{1,2}-.*"
)


class RenameRefused(Exception):
    """Why this rename is not done (shown to the user as the error's message)."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


@dataclass(frozen=True, slots=True)
class RenameTarget:
    """The key under the cursor: its name and the range of the name's characters."""

    key: str
    span: Span


@dataclass(frozen=True, slots=True)
class FileEdit:
    """The edits a rename makes in one file."""

    path: str
    edits: tuple[tuple[Span, str], ...]  # in document order, never overlapping


# ------------------------------------------------------------------ what the cursor is on


def prepare_rename(snapshot: Snapshot, path: str, pos: Position) -> RenameTarget:
    """The key a rename at ``pos`` renames, or :class:`RenameRefused` saying why not."""
    target = target_at(snapshot, path, pos)
    text = snapshot.text(path)
    if target is None or text is None:
        raise RenameRefused("Rename works on a data key, a lookup_options entry or a lookup token")
    lines = LineMap(text)
    if isinstance(target, DataKey):
        df = snapshot.data_file(path)
        spans = df.nodes.get(target.node_path) if df is not None else None
        if spans is None or spans.key is None or spans.key != target.span:
            raise RenameRefused("The cursor is on a value: rename the key it belongs to")
        if len(target.node_path) > 1:
            raise RenameRefused(
                f"'{target.key_text}' is a key inside the value of '{target.root}': "
                "only top-level keys (what a lookup names) are renamed"
            )
        return RenameTarget(target.root, _inner(lines, target.span))
    if isinstance(target, OptionsKey):
        if not target.span.contains(pos):
            raise RenameRefused(
                f"The cursor is in the lookup_options entry of '{target.pattern}': "
                "rename from its key"
            )
        if target.pattern.startswith("^"):
            raise RenameRefused(
                f"'{target.pattern}' is a regex lookup_options pattern, not a key: edit it by hand"
            )
        return RenameTarget(target.pattern, _inner(lines, target.span))
    if isinstance(target, TokenAt):
        token = target.token
        if token.kind is TokenKind.METHOD and token.method in KEY_METHODS:
            root = root_of(token.argument or "")
            span = _root_in_token(lines, target.span, token.argument or "", root)
            if root is None or span is None:
                raise RenameRefused("This lookup's key cannot be placed in the text")
            return RenameTarget(root, span)
        raise RenameRefused("Only keys are renamed; this token reads a variable or a fact")
    if isinstance(target, KeyCall):
        root = root_of(target.key)
        if root is None or target.span.end.column - target.span.start.column < 2:
            raise RenameRefused("This lookup's key cannot be renamed")
        inner = Span.of(
            target.span.start.line,
            target.span.start.column + 1,
            target.span.end.line,
            target.span.start.column + 1 + len(root),
        )
        return RenameTarget(root, inner)
    raise RenameRefused("Rename works on a data key, a lookup_options entry or a lookup token")


def _refuse_lookup_options(snapshot: Snapshot, path: str, pos: Position) -> None:
    df = snapshot.data_file(path)
    if df is None:
        return
    spans = df.nodes.get((LOOKUP_OPTIONS,))
    if spans is not None and spans.key is not None and spans.key.contains(pos):
        raise RenameRefused("lookup_options is Hiera's own key: it cannot be renamed")


def prepare(snapshot: Snapshot, path: str, pos: Position) -> RenameTarget:
    """:func:`prepare_rename`, with the lookup_options key itself refused by name; on a
    YAML anchor or alias, the anchor's name."""
    try:
        anchored = alias_rename_target(snapshot, path, pos)
    except AliasRenameRefused as refused:
        raise RenameRefused(refused.message) from None
    if anchored is not None:
        return RenameTarget(*anchored)
    _refuse_lookup_options(snapshot, path, pos)
    return prepare_rename(snapshot, path, pos)


def _inner(lines: LineMap, span: Span) -> Span:
    """The key's characters without its quotes."""
    source = _source(lines, span)
    if len(source) >= 2 and source[0] in "'\"" and source[-1] == source[0]:
        start = span.start
        end = span.end
        if start.line == end.line:
            return Span.of(start.line, start.column + 1, end.line, end.column - 1)
    return span


def _source(lines: LineMap, span: Span) -> str:
    return lines.text[lines.offset(span.start) : lines.offset(span.end)]


def _root_in_token(lines: LineMap, span: Span, argument: str, root: str | None) -> Span | None:
    """Where the root key's characters are inside a ``%{lookup('...')}`` token's source."""
    if root is None:
        return None
    start = lines.offset(span.start)
    source = lines.text[start : lines.offset(span.end)]
    for quote in ("'", '"'):
        i = source.find(quote + argument + quote)
        if i < 0:
            continue
        i += 1
        if argument.startswith(root):
            j = i
        elif argument[:1] in "'\"" and argument[1 : 1 + len(root)] == root:
            j = i + 1
        else:
            return None
        return Span(lines.position(start + j), lines.position(start + j + len(root)))
    return None


# ------------------------------------------------------------------ the edit


def _module_of_file(view: EnvironmentView, info: DataFileInfo) -> str | None:
    for level in info.levels:
        return level.layer.module_name
    best: tuple[int, str | None] = (-1, None)
    for layer in view.env.layers:
        root = layer.root.rstrip(os.sep) + os.sep
        if info.path.startswith(root) and len(root) > best[0]:
            best = (len(root), layer.module_name)
    return best[1]


def _is_global(info: DataFileInfo) -> bool:
    return any(level.layer.kind is LayerKind.GLOBAL for level in info.levels)


def scope_files(
    snapshot: Snapshot, view: EnvironmentView, modules: set[str | None]
) -> Iterator[tuple[FileKeys, str | None]]:
    """The files that can hold keys of ``modules``' namespaces, each with its module (None:
    not a module's data): the environment's and the global layer's, and those modules'."""
    for path, info in snapshot.data_files.items():
        if info.view is not view and not _is_global(info):
            continue
        owner = _module_of_file(view, info) if info.view is view else None
        if owner is not None and owner not in modules:
            continue
        keys = snapshot.file_keys(path)
        if keys is not None:
            yield keys, owner


def check_name(old: str, new: str) -> None:
    if new == old:
        raise RenameRefused(f"'{new}' is the key's name already")
    if new == LOOKUP_OPTIONS:
        raise RenameRefused("lookup_options is Hiera's own key: no data key can take its name")
    if not VALID_KEY.fullmatch(new):
        raise RenameRefused(
            f"'{new}' is not a valid key: use letters, digits, '_' and '-', "
            "with '::' between namespaces"
        )


def rename(snapshot: Snapshot, path: str, pos: Position, new: str) -> list[FileEdit]:
    """The edits renaming the key at ``pos`` to ``new``, file by file (files in path order);
    at a YAML anchor or alias, the anchor and its aliases in this file."""
    try:
        anchored = alias_rename(snapshot, path, pos, new)
    except AliasRenameRefused as refused:
        raise RenameRefused(refused.message) from None
    if anchored is not None:
        return [FileEdit(path, tuple(anchored))]
    target = prepare(snapshot, path, pos)
    view = snapshot.environment_for(path)
    if view is None:
        raise RenameRefused("This file belongs to no environment")
    info = snapshot.data_files.get(path)
    owner = _module_of_file(view, info) if info is not None and info.view is view else None
    if owner is not None and module_of(target.key) != owner:
        raise RenameRefused(
            f"'{target.key}' is outside module {owner}'s namespace: Puppet never reads it from "
            "this file (module-data-unqualified-key); qualify it or move it first"
        )
    return rename_key(snapshot, view, target.key, new)


def rename_key(snapshot: Snapshot, view: EnvironmentView, old: str, new: str) -> list[FileEdit]:
    check_name(old, new)
    old_module = module_of(old)
    files = list(scope_files(snapshot, view, {old_module, module_of(new)}))
    _check_conflicts(snapshot, files, old, new)
    index = code_index(snapshot, view)
    if index is not None:
        _check_code(snapshot, index, old, new)
    out: list[FileEdit] = []
    for keys, owner in files:
        if owner is not None and owner != old_module:
            continue
        edits = _file_edits(snapshot, keys, old, new)
        if edits:
            out.append(FileEdit(keys.path, tuple(edits)))
    if index is not None:
        out.extend(_code_edits(snapshot, index, old, new))
    return sorted(out, key=lambda e: e.path)


def _check_code(snapshot: Snapshot, index: CodeIndex, old: str, new: str) -> None:
    """Refuse what the Puppet code would make of the rename: a key that sets a class
    parameter, or one a lookup of a key built at run time may read (and the new name not)."""
    ref = index.parameter_for_key(old)
    if ref is not None:
        line = ref.parameter.span.start.line + 1
        raise RenameRefused(
            f"'{old}' sets parameter ${ref.parameter.name} of class {ref.definition.name} "
            f"({_shown(snapshot, ref.definition.path)} line {line}) by automatic parameter "
            "lookup: renaming the data key alone would stop Puppet from setting it. Rename the "
            "parameter in the code first"
        )
    for call in index.possible_lookups_of(old):
        if call.pattern is not None and re.fullmatch(call.pattern, new) is None:
            raise RenameRefused(
                f"{call.function.value}() in {_shown(snapshot, call.path)} line "
                f"{call.span.start.line + 1} builds its key at run time and may read '{old}', "
                f"not '{new}': rename by hand"
            )


def _code_edits(snapshot: Snapshot, index: CodeIndex, old: str, new: str) -> list[FileEdit]:
    by_file: dict[str, dict[Span, str]] = {}
    for call in index.lookups_of(old):
        span = key_text_span(snapshot, call)
        if span is None:
            raise RenameRefused(
                f"The lookup of '{old}' in {_shown(snapshot, call.path)} line "
                f"{call.span.start.line + 1} is written with escapes: rename it by hand first"
            )
        by_file.setdefault(call.path, {})[span] = new
    return [
        FileEdit(path, tuple(sorted(edits.items(), key=lambda e: (e[0].start, e[0].end))))
        for path, edits in sorted(by_file.items())
    ]


def _line(keys: FileKeys, key: str, options: bool = False) -> int:
    kd = (keys.options if options else keys.keys)[key]
    return kd.key_span.start.line + 1


def _check_conflicts(
    snapshot: Snapshot,
    files: list[tuple[FileKeys, str | None]],
    old: str,
    new: str,
) -> None:
    new_module = module_of(new)
    for keys, owner in files:
        shown = _shown(snapshot, keys.path)
        if new in keys.keys:
            raise RenameRefused(
                f"'{new}' is already a key in {shown} line {_line(keys, new)}: "
                "renaming would merge two keys"
            )
        if new in keys.options:
            raise RenameRefused(
                f"lookup_options in {shown} line {_line(keys, new, True)} already has an entry "
                f"for '{new}'"
            )
        if owner is not None and (old in keys.keys or old in keys.options) and new_module != owner:
            raise RenameRefused(
                f"'{old}' is defined in module {owner}'s data ({shown}): a new name outside "
                f"'{owner}::' would not be read by Puppet there"
            )
        for pattern in keys.options:
            if not pattern.startswith("^"):
                continue
            before = pattern_matches(pattern, old)
            after = pattern_matches(pattern, new)
            if before != after:
                which = f"matches '{old}' but not '{new}'" if before else f"matches '{new}'"
                which += "" if before else f" but not '{old}'"
                raise RenameRefused(
                    f"The lookup_options pattern '{pattern}' in {shown} line "
                    f"{_line(keys, pattern, True)} {which}: the key's lookup options would "
                    "change"
                )


def _shown(snapshot: Snapshot, path: str) -> str:
    for root in snapshot.roots:
        prefix = root.rstrip(os.sep) + os.sep
        if path.startswith(prefix):
            return path[len(prefix) :]
    return path


def _file_edits(snapshot: Snapshot, keys: FileKeys, old: str, new: str) -> list[tuple[Span, str]]:
    text = snapshot.text(keys.path)
    if text is None:
        return []
    lines = LineMap(text)
    edits: dict[Span, str] = {}
    json = keys.path.endswith(".json")
    kd = keys.keys.get(old)
    if kd is not None:
        edits[kd.key_span] = _written(_source(lines, kd.key_span), new, json)
    entry = keys.options.get(old)
    if entry is not None:
        edits[entry.key_span] = _written(_source(lines, entry.key_span), new, json)
    if len(text) > LARGE_FILE_CHARS and (f"('{old}" in text or f'("{old}' in text):
        raise RenameRefused(
            f"{_shown(snapshot, keys.path)} is too large to be scanned for references "
            f"(over {LARGE_FILE_CHARS:,} characters): rename by hand"
        )
    for use in keys.tokens:
        if use.looked_up_root != old:
            continue
        source = _source(lines, use.span)
        if source.startswith("*"):
            continue  # an alias of a scalar: the anchored string itself is renamed
        span = _root_in_token(lines, use.span, use.looked_up_key or "", old)
        if span is None:
            raise RenameRefused(
                f"A reference to '{old}' in {_shown(snapshot, keys.path)} line "
                f"{use.span.start.line + 1} is written with escapes: rename it by hand first"
            )
        edits[span] = new
    ordered = sorted(edits.items(), key=lambda item: (item[0].start, item[0].end))
    for (a, _), (b, _) in itertools.pairwise(ordered):
        if b.start < a.end:
            raise RenameRefused(
                f"Two uses of '{old}' overlap in {_shown(snapshot, keys.path)} line "
                f"{b.start.line + 1}: rename by hand"
            )
    return ordered


def _written(source: str, new: str, json: bool) -> str:
    """``new`` written as the old key was: same quote, or plain when that stays a string."""
    quote = source[:1]
    if json or quote == '"':
        return f'"{new}"'
    if quote == "'":
        return f"'{new}'"
    if _NOT_A_STRING.fullmatch(new):
        return f"'{new}'"
    return new
