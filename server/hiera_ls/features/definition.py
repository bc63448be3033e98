"""Go to definition: from a use of a key, variable or location to where it is defined.

- ``lookup('k')`` / ``hiera('k')`` / ``%{alias('k')}``: every definition of ``k``, the
  value that wins for the active profile first, then the others in search order;
- ``%{facts.x}``: the fact in the active profile's file (every profile's without one);
- a hiera.yaml location: the data files it reads for the node (or may read for any node);
- a data key: the class parameter it sets (automatic parameter lookup), then the same key in
  the other levels;
- a lookup_options key: the keys it applies to;
- a YAML alias (``*name``): its anchor (features/yaml_aliases.py).
"""

from __future__ import annotations

from hiera_ls.features.hover import fact_location, fact_path
from hiera_ls.features.provenance import (
    definitions,
    distinct,
    keys_matching,
    node_span,
    resolve,
    resolved_locations,
)
from hiera_ls.features.puppet_code import parameter_of, parameter_place
from hiera_ls.features.targets import DataKey, KeyCall, LocationAt, OptionsKey, TokenAt, target_at
from hiera_ls.features.yaml_aliases import alias_definition
from hiera_ls.project.key_index import KEY_METHODS, root_of
from hiera_ls.project.level_files import LevelRef
from hiera_ls.project.workspace import EnvironmentView, Snapshot
from hiera_ls.source.interpolation import TokenKind
from hiera_ls.source.keys import split_key
from hiera_ls.source.spans import FileSpan, Position, Span

FILE_START = Span.of(0, 0, 0, 0)


def definition(snapshot: Snapshot, path: str, pos: Position) -> list[FileSpan]:
    anchored = alias_definition(snapshot, path, pos)
    if anchored is not None:
        return anchored
    target = target_at(snapshot, path, pos)
    view = snapshot.environment_for(path)
    if target is None or view is None:
        return []
    if isinstance(target, DataKey):
        found = key_definitions(snapshot, view, target.key_text, target.node_path)
        ref = parameter_of(snapshot, view, target.root)
        code = [parameter_place(ref)] if ref is not None else []
        return code + [d for d in found if d.path != path]
    if isinstance(target, KeyCall):
        return _key_use(snapshot, view, target.key)
    if isinstance(target, OptionsKey):
        out: list[FileSpan] = []
        for _key, defs in sorted(keys_matching(snapshot, view, target.pattern).items()):
            out.extend(defs)
        return distinct(out)
    if isinstance(target, TokenAt):
        token = target.token
        if token.kind is TokenKind.METHOD and token.method in KEY_METHODS:
            return _key_use(snapshot, view, token.argument or "")
        if token.kind is TokenKind.EMPTY or (
            token.kind is TokenKind.METHOD and token.method != "scope"
        ):
            return []
        expression = (token.argument if token.kind is TokenKind.METHOD else token.expression) or ""
        level = target.level
        if (
            level is not None
            and level.entry.location.kind == "mapped_paths"
            and len(level.entry.location.values) == 3
        ):
            var_expr, var_name, _ = level.entry.location.values
            if str((split_key(expression) or [""])[0]) == var_name:
                expression = var_expr
        return variable_definitions(snapshot, expression)
    assert isinstance(target, LocationAt)
    return location_files(snapshot, view, target.level)


def _key_use(snapshot: Snapshot, view: EnvironmentView, key: str) -> list[FileSpan]:
    root = root_of(key)
    if root is None:
        return []
    segments = split_key(key) or [root]
    node_path = tuple(segments)
    found = key_definitions(snapshot, view, key, node_path)
    if not found and len(node_path) > 1:
        found = key_definitions(snapshot, view, root, (root,))
    return found


def key_definitions(
    snapshot: Snapshot, view: EnvironmentView, key: str, node_path: tuple[object, ...]
) -> list[FileSpan]:
    """Definitions in search order; with a profile, the ones the node's value comes from first."""
    defs = [d.where for d in definitions(snapshot, view, node_path)]
    if snapshot.active is None or not defs:
        return distinct(defs)
    root = str(node_path[0])
    res = resolve(snapshot, view, key, root)
    first: list[FileSpan] = []
    for c in res.contributions:
        span = node_span(snapshot, c.file, node_path) or node_span(snapshot, c.file, (root,))
        if span is not None:
            first.append(FileSpan(c.file, span))
    return distinct(first + defs)


def variable_definitions(snapshot: Snapshot, expression: str) -> list[FileSpan]:
    if snapshot.active is not None:
        where = fact_location(snapshot, expression)
        return [where] if where is not None else []
    out: list[FileSpan] = []
    for entry in snapshot.profiles:
        profile = entry.profile
        segments = split_key(expression)
        if not segments:
            continue
        first = str(segments[0]).removeprefix("::")
        path = tuple(segments[1:]) if first == "facts" else (first, *segments[1:])
        for n in range(len(path), 0, -1):
            spans = profile.source.nodes.get((*profile.key_prefix, *path[:n]))
            if spans is not None:
                out.append(FileSpan(profile.path, spans.key or spans.value))
                break
    return out


def location_files(snapshot: Snapshot, view: EnvironmentView, level: LevelRef) -> list[FileSpan]:
    if snapshot.active is not None:
        resolved = [p for p, exists in resolved_locations(snapshot, view, level) if exists]
        return [FileSpan(p, FILE_START) for p in resolved]
    return [FileSpan(p, FILE_START) for p in snapshot.level_files(level)]


__all__ = ["definition", "fact_path", "key_definitions", "location_files", "variable_definitions"]
