"""Where a hierarchy entry reads its data, for one node: Puppet's location resolver.

As in ``pops/lookup/location_resolver.rb`` and the configured data provider: the datadir
and the declared ``path``/``paths``/``glob``/``globs``/``mapped_paths``/``uri``/``uris``
are interpolated in the node's scope (method syntax refused), joined as Ruby's
``Pathname#+`` joins them, and checked on disk. An undefined variable in a version 5
location expands to '' with a warning (Puppet 8); in the datadir, the entry's options or a
version 3 or 4 hierarchy (which Puppet 8 interpolates without its leniency) it fails with
the line of hiera.yaml that names it.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from hiera_ls.engine.interpolation import interpolate, scope_lookup
from hiera_ls.engine.invocation import Invocation
from hiera_ls.project.model import Layer
from hiera_ls.puppet.errors import LookupFailure, UndefinedVariable
from hiera_ls.puppet.ruby_text import to_s
from hiera_ls.source.files import FileAccess

if TYPE_CHECKING:
    from hiera_ls.project.hiera_config_model import HierarchyEntry


@dataclass(frozen=True, slots=True)
class ResolvedLocation:
    """One location of a level for one node: the path it names, and whether it is there."""

    original: str  # the declared template (or the joined glob)
    path: str  # interpolated absolute path, or the URI
    exists: bool
    is_uri: bool = False


@dataclass(frozen=True, slots=True)
class ResolvedEntry:
    """A hierarchy entry with its locations interpolated for this scope."""

    entry: HierarchyEntry
    layer: Layer
    locations: tuple[ResolvedLocation, ...] | None  # None: the entry has no location key
    options: Mapping[str, object]

    @property
    def supported(self) -> bool:
        return self.entry.read_by_hiera_ls


def resolve_entries(
    inv: Invocation, files: FileAccess, layer: Layer, entries: Sequence[HierarchyEntry]
) -> list[ResolvedEntry]:
    """The layer's entries with datadir, locations and options interpolated.

    In the built-in default config (no hiera.yaml) missing paths are dropped, and an entry
    left with none is dropped too.
    """
    cfg = layer.config
    assert cfg is not None
    resolved: list[ResolvedEntry] = []
    for he in entries:
        datadir = _interpolate_required(inv, files, pathname_join(layer.root, he.datadir), cfg.path)
        locations = resolve_locations(
            inv, files, he, str(datadir), cfg.path is None, None if cfg.version == 5 else cfg.path
        )
        if cfg.path is None and locations is not None and not locations:
            continue
        options: Mapping[str, object] = {}
        if he.options is not None:
            interpolated = _interpolate_required(inv, files, dict(he.options), cfg.path)
            assert isinstance(interpolated, dict)
            options = interpolated
        resolved.append(ResolvedEntry(he, layer, locations, options))
    return resolved


def resolve_locations(
    inv: Invocation,
    files: FileAccess,
    he: HierarchyEntry,
    datadir: str,
    default_config: bool,
    strict_in: str | None = None,
) -> tuple[ResolvedLocation, ...] | None:
    """Puppet's location resolver; the built-in default config drops missing paths.

    ``strict_in``: the version 3 or 4 hiera.yaml whose hierarchy this is; an undefined
    variable in it fails as in a datadir (Puppet 8 is lenient with version 5 locations only).
    """
    spec = he.location
    kind = spec.kind
    if kind is None:
        return None
    out: list[ResolvedLocation] = []
    if kind in ("path", "paths"):
        for declared in spec.values:
            if strict_in is not None:
                path = to_s(_interpolate_required(inv, files, declared, strict_in))
            else:
                path = _location_interpolate(inv, declared)
            if he.extension is not None and not path.endswith(he.extension):
                path += he.extension  # version 3
            p = pathname_join(datadir, path)
            exists = files.exists(p)
            if default_config and not exists:
                continue
            out.append(ResolvedLocation(declared, p, exists))
    elif kind in ("glob", "globs"):
        from hiera_ls.source.ruby_glob import GlobTooComplex, GlobTooLarge  # rare levels

        for declared in spec.values:
            pattern = pathname_join(datadir, _location_interpolate(inv, declared))
            try:
                matches = files.glob(pattern)
            except (GlobTooComplex, GlobTooLarge) as e:
                raise LookupFailure(str(e)) from e
            for match in matches:
                if not files.is_dir(match):
                    out.append(ResolvedLocation(pattern, match, True))
    elif kind in ("uri", "uris"):
        for declared in spec.values:
            out.append(ResolvedLocation(declared, _location_interpolate(inv, declared), True, True))
    elif kind == "mapped_paths":
        var_expr, var_name, template = spec.values
        try:
            mapped = scope_lookup(inv, var_expr, "mapped_path[0]")
        except UndefinedVariable as e:
            inv.trace.text(f"Warning: {e.message.rstrip('; ')} in mapped_paths")
            mapped = None
        if mapped is None or (isinstance(mapped, (str, list, dict)) and not mapped):
            return ()
        items: list[object]
        if isinstance(mapped, str):
            items = [mapped]
        elif isinstance(mapped, dict):
            items = [[k, v] for k, v in mapped.items()]
        elif isinstance(mapped, list):
            items = list(mapped)
        else:
            items = [mapped]
        for item in items:
            p = pathname_join(
                datadir, _location_interpolate(inv.with_local(var_name, item), template)
            )
            out.append(ResolvedLocation(template, p, files.exists(p)))
    return tuple(out)


def _location_interpolate(inv: Invocation, template: str) -> str:
    """Locations follow Puppet 8: an undefined variable warns and expands to ''."""
    value = interpolate(template, inv, allow_methods=False, undefined_as_empty=True)
    return to_s(value) if not isinstance(value, str) else value


def _interpolate_required(
    inv: Invocation, files: FileAccess, value: object, config_path: str | None
) -> object:
    """The datadir or options of an entry: an undefined variable fails the lookup."""
    try:
        return interpolate(value, inv, allow_methods=False)
    except UndefinedVariable as e:
        line = _find_line(files, config_path, e.name) if config_path else None
        where = (
            f" (file: {config_path}, line: {line})"
            if line
            else (f" (file: {config_path})" if config_path else "")
        )
        raise LookupFailure(
            f"Undefined variable '{e.name}'{where}", issue_code="HIERA_UNDEFINED_VARIABLE"
        ) from e


def pathname_join(base: str, path: str) -> str:
    """Ruby ``Pathname#+``: an absolute right side wins; '..' and '.' are resolved."""
    joined = os.path.join(base, path)
    cleaned = os.path.normpath(joined)
    if joined.endswith("/") and not cleaned.endswith("/"):
        cleaned += "/"
    return cleaned


def _find_line(files: FileAccess, config_path: str, var: str) -> int | None:
    """Puppet's find_line_matching for ``%{var}``: comments stripped, quotes respected."""
    text = files.read_text(config_path)
    if text is None:
        return None
    pattern = re.compile(r"%\{['\"]?" + re.escape(var) + r"['\"]?\}")
    for number, line in enumerate(text.splitlines(), start=1):
        quote: str | None = None
        stripped = []
        for ch in line:
            if ch in "\"'":
                if quote == ch:
                    quote = None
                elif quote is None:
                    quote = ch
            elif ch == "#":
                break
            stripped.append(ch)
        if pattern.search("".join(stripped)):
            return number
    return None
