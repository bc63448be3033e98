"""Find references: every interpolation in the data that uses a key or a variable.

A key is used by ``%{lookup('k')}``, ``%{hiera('k')}`` and ``%{alias('k')}`` (also with
sub keys, ``%{lookup('k.sub')}``) and by Puppet code's ``lookup('k')`` / ``hiera('k')`` calls
(manifests, templates, Ruby functions: the code index); a variable by ``%{x}`` /
``%{scope('x')}``, where ``::x`` and ``x`` name the same top-scope variable; a YAML anchor by
its aliases (features/yaml_aliases.py).
"""

from __future__ import annotations

from hiera_ls.features.definition import key_definitions, variable_definitions
from hiera_ls.features.provenance import distinct
from hiera_ls.features.puppet_code import code_index, lookup_places
from hiera_ls.features.targets import DataKey, KeyCall, OptionsKey, TokenAt, target_at
from hiera_ls.features.yaml_aliases import alias_references
from hiera_ls.project.key_index import KEY_METHODS, TokenUse, root_of
from hiera_ls.project.workspace import EnvironmentView, Snapshot
from hiera_ls.source.interpolation import TokenKind
from hiera_ls.source.spans import FileSpan, Position


def references(
    snapshot: Snapshot, path: str, pos: Position, include_declaration: bool
) -> list[FileSpan]:
    aliases = alias_references(snapshot, path, pos, include_declaration)
    if aliases is not None:
        return aliases
    target = target_at(snapshot, path, pos)
    view = snapshot.environment_for(path)
    if target is None or view is None:
        return []
    root: str | None = None
    if isinstance(target, DataKey):
        root = target.root
    elif isinstance(target, KeyCall):
        root = root_of(target.key)
    elif isinstance(target, OptionsKey):
        root = None if target.pattern.startswith("^") else target.pattern
    elif isinstance(target, TokenAt):
        token = target.token
        if token.kind is TokenKind.METHOD and token.method in KEY_METHODS:
            root = root_of(token.argument or "")
        elif token.kind is TokenKind.VARIABLE or (
            token.kind is TokenKind.METHOD and token.method == "scope"
        ):
            expression = (
                token.argument if token.kind is TokenKind.METHOD else token.expression
            ) or ""
            return variable_references(snapshot, view, expression, include_declaration)
    if root is None:
        return []
    return key_references(snapshot, view, root, include_declaration)


def key_references(
    snapshot: Snapshot, view: EnvironmentView, root: str, include_declaration: bool
) -> list[FileSpan]:
    found: list[FileSpan] = []
    if include_declaration:
        found.extend(key_definitions(snapshot, view, root, (root,)))
    found.extend(FileSpan(u.path, u.span) for u in key_uses(snapshot, view, root))
    index = code_index(snapshot, view)
    if index is not None:
        found.extend(lookup_places(snapshot, index, root))
    return distinct(found)


def key_uses(snapshot: Snapshot, view: EnvironmentView, root: str) -> list[TokenUse]:
    out: list[TokenUse] = []
    for keys in snapshot.all_file_keys(view):
        out.extend(u for u in keys.tokens if u.looked_up_root == root)
    return out


def normalized(variable: str) -> str:
    return variable.removeprefix("::")


def variable_references(
    snapshot: Snapshot, view: EnvironmentView, expression: str, include_declaration: bool
) -> list[FileSpan]:
    wanted = normalized(expression)
    found: list[FileSpan] = []
    if include_declaration:
        found.extend(variable_definitions(snapshot, expression))
    for keys in snapshot.all_file_keys(view):
        for u in keys.tokens:
            var = u.variable
            if var is not None and normalized(var) == wanted:
                found.append(FileSpan(u.path, u.span))
    return distinct(found)
