"""Required parameters no data gives: each class a node includes through a data file's
``classes`` entries (and what those include in turn) whose required parameter gets no value
for the profile fails the catalog compile (``Class[A]: expects a value for parameter 'p'``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Mapping

from hiera_ls.checks.class_parameters import (
    CLASSES_KEY,
    PARAMETER_MISSING,
    CodeContext,
    class_title,
)
from hiera_ls.checks.profile import ProfileLookup
from hiera_ls.project.code_index import CodeIndex
from hiera_ls.source.data_file import DataFile
from hiera_ls.source.manifest_model import Definition, DefinitionKind
from hiera_ls.source.spans import Details, Problem


def classes_named(value: object) -> list[str]:
    """Class names a ``classes`` key's value lists: an Array of names, or a Hash whose values
    are names (an empty name switches an entry off, as psick's ``*_classes`` hashes do)."""
    items: list[object] = []
    if isinstance(value, list):
        items = list(value)
    elif isinstance(value, Mapping):
        items = list(value.values())
    return [
        item.lower().removeprefix("::")
        for item in items
        if isinstance(item, str) and item.strip() and "%{" not in item
    ]


def _entries(value: object) -> list[tuple[object, object]]:
    """(node path step, entry) of a ``classes`` value: list indexes, or hash keys."""
    if isinstance(value, list):
        return list(enumerate(value))
    if isinstance(value, Mapping):
        return list(value.items())
    return []


def included_classes(code: CodeIndex, start: str) -> list[Definition]:
    """``start`` and every class its manifests include, transitively (each once)."""
    by_file: dict[str, list[str]] = {}
    for inclusion in code.inclusions():
        by_file.setdefault(inclusion.path, []).append(inclusion.name)
    out: list[Definition] = []
    seen: set[str] = set()
    pending = [start]
    while pending:
        name = pending.pop()
        if name in seen:
            continue
        seen.add(name)
        definition = code.definition(name)
        if definition is None or definition.kind is not DefinitionKind.CLASS:
            continue
        out.append(definition)
        pending.extend(reversed(by_file.get(definition.path, [])))
    return out


# text before a class's name that makes its inclusion a resource-like declaration
_RESOURCE_LIKE = re.compile(r"\bclass\s*\{\s*\[?\s*['\"]?\s*\Z")


def declared_with_parameters(
    code: CodeIndex, read_text: Callable[[str], str | None]
) -> frozenset[str]:
    """Classes some manifest declares resource-like (``class { 'x': p => v }``), which may
    give parameters in code: their required parameters are not judged. ``read_text`` gives a
    code file's text (the index keeps positions, not text)."""
    out: set[str] = set()
    for path, facts in code.files.items():
        if not facts.inclusions:
            continue
        text = read_text(path)
        if text is None:
            continue
        lines = text.split("\n")
        for inclusion in facts.inclusions:
            start = inclusion.span.start
            if start.line >= len(lines):
                continue
            before = "\n".join(lines[max(0, start.line - 3) : start.line])
            before += "\n" + lines[start.line][: start.column]
            if _RESOURCE_LIKE.search(before):
                out.add(inclusion.name)
    return frozenset(out)


def check_required_parameters(
    profile: ProfileLookup,
    path: str,
    data_file: DataFile,
    context: CodeContext,
    declared_with_parameters: Callable[[], Collection[str]] = frozenset,
    *,
    module_name: str | None = None,
) -> list[Problem]:
    """Each class the node includes through this file's ``classes`` entries (and what those
    include in turn) whose required parameter gets no value for the profile: said once, on
    the first entry that includes the class."""
    code = context.code
    out: list[Problem] = []
    said: set[tuple[str, str]] = set()
    prefix = f"{module_name}::" if module_name is not None else None
    for key, value in data_file.data.items():
        if not isinstance(key, str) or not CLASSES_KEY.fullmatch(key):
            continue
        if prefix is not None and not key.startswith(prefix):
            continue
        if not (code.lookups_of(key) or code.parameter_for_key(key)):
            continue  # no code includes what this key names
        outcome = profile.lookup(key)
        if not outcome.found or outcome.error is not None:
            continue
        included = set(classes_named(outcome.value))
        for node_key, entry in _entries(value):
            if not isinstance(entry, str):
                continue
            name = entry.lower().removeprefix("::")
            if name not in included:
                continue  # a higher level replaced this file's list for this node
            spans = data_file.nodes.get((key, node_key))
            if spans is None:
                continue
            for definition in included_classes(code, name):
                if definition.name in declared_with_parameters():
                    continue  # `class { 'x': p => ... }` may give the value in code
                for parameter in definition.params:
                    if parameter.default_text is not None:
                        continue
                    slot = (definition.name, parameter.name)
                    if slot in said:
                        continue
                    wanted = f"{definition.name}::{parameter.name}"
                    got = profile.lookup(wanted)
                    if got.found or got.error is not None or got.incomplete is not None:
                        continue
                    said.add(slot)
                    through = "" if definition.name == name else f" (included by '{name}')"
                    out.append(
                        PARAMETER_MISSING.at(
                            f"[{profile.name}] Class '{definition.name}'{through} has no "
                            f"default for parameter '{parameter.name}' and no data gives "
                            f"'{wanted}' for this node: Puppet fails with "
                            f'"{class_title(definition.name)}: expects a value for '
                            f"parameter '{parameter.name}'\"",
                            path,
                            spans.value,
                            Details(key=wanted),
                        )
                    )
    return out
