"""Hierarchy levels that read only files a level above them already reads, for every node.

Two levels written differently can name the same file for every node the repository is
checked for (``nodes/%{trusted.certname}.yaml`` and ``nodes/%{facts.networking.fqdn}.yaml``
where every certname is the node's fqdn; one file written twice). Puppet searches the levels
in order and a first-found lookup stops at the first file holding the key, so the lower
level can never give a value: whatever it would find, the level above found first. The
facts profiles say which files each level names (the locations of a lookup's explained
trace, found or not, as ``puppet lookup --explain`` lists them); without any profile which
nodes exist is unknown, and nothing is said.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from hiera_ls.engine.trace import Kind, TraceNode
from hiera_ls.project.hiera_config_model import HierarchyEntry
from hiera_ls.project.model import Environment
from hiera_ls.source.rules import Needs, Rule
from hiera_ls.source.spans import Details, Problem, Severity

LEVEL_SAME_FILE = Rule(
    "profile-level-same-file",
    Severity.INFORMATION,
    "A hierarchy level that reads only files a level above it reads, for every facts profile: "
    "it can never win a first-found lookup",
    needs=Needs.INDEX | Needs.PROFILE,
)
RULES = (LEVEL_SAME_FILE,)

SHOWN = 3  # profiles named before "and N more"


@dataclass(frozen=True, slots=True)
class LevelLocations:
    """The files one level names for one node, in its hierarchy's order."""

    config: str  # the hiera.yaml (absolute)
    level: str  # the level's name
    locations: frozenset[str]  # absolute, normalized


def level_locations(trace: TraceNode) -> list[LevelLocations]:
    """Every level of every hierarchy a lookup's explained trace searched, with the file
    locations it named (not those of lookup_options' search, nor of nested lookups)."""
    out: list[LevelLocations] = []

    def walk(node: TraceNode, config: str | None) -> None:
        for child in node.children:
            if child.kind in (Kind.META, Kind.INTERPOLATE):
                continue
            if child.kind is Kind.DATA_PROVIDER:
                walk(child, child.config_path)
            elif child.kind is Kind.HIERARCHY_ENTRY and config is not None:
                found = frozenset(
                    os.path.normpath(n.label)
                    for n in _locations(child)
                    if n.kind is Kind.PATH and n.label
                )
                out.append(LevelLocations(os.path.normpath(config), child.label, found))
            else:
                walk(child, config)

    walk(trace, None)
    return out


def _locations(entry: TraceNode) -> list[TraceNode]:
    out: list[TraceNode] = []
    for child in entry.children:
        if child.kind in (Kind.META, Kind.INTERPOLATE):
            continue
        out.append(child)
        out.extend(_locations(child))
    return out


def check_same_file_levels(
    env: Environment, by_profile: Mapping[str, Sequence[LevelLocations]]
) -> dict[str, list[Problem]]:
    """Findings by hiera.yaml: a level whose every location, for every profile, is one a
    level above it in the same hierarchy names too (a level naming no file is not judged).
    Both read by a built-in function (or the reader the user mapped a custom one to): a
    custom function may return keys its files do not hold, or not all those they do."""
    entries = _entries(env)
    covered: dict[tuple[str, str], set[str] | None] = {}  # level -> the levels above it
    order: dict[tuple[str, str], int] = {}
    for levels in by_profile.values():
        seen: dict[str, list[LevelLocations]] = {}
        for here in levels:
            above = seen.setdefault(here.config, [])
            ident = (here.config, here.level)
            order.setdefault(ident, len(order))
            if any(a.level == here.level for a in above):
                continue  # the same hierarchy searched again (another module's probe)
            above.append(here)
            if ident not in entries or covered.get(ident, set()) is None:
                covered[ident] = None
                continue
            readers = [a for a in above[:-1] if (a.config, a.level) in entries]
            union: set[str] = set().union(*(a.locations for a in readers))
            if here.locations and here.locations <= union:
                names = {a.level for a in readers if a.locations & here.locations}
                covered[ident] = (covered.get(ident) or set()) | names
            else:
                covered[ident] = None
    out: dict[str, list[Problem]] = {}
    count = len(by_profile)
    for ident, above_it in sorted(covered.items(), key=lambda item: order[item[0]]):
        if not above_it:
            continue
        config_path = ident[0]
        problem = _finding(config_path, entries[ident], sorted(above_it), count)
        out.setdefault(config_path, []).append(problem)
    return out


def _entries(env: Environment) -> dict[tuple[str, str], HierarchyEntry]:
    """The levels of every hierarchy (not a module's default_hierarchy) whose files hiera-ls
    reads, by hiera.yaml and name."""
    return {
        (os.path.normpath(layer.config.path), e.name): e
        for layer in env.layers
        if layer.config is not None and layer.config.path is not None
        for e in layer.config.hierarchy
        if e.read_by_hiera_ls
    }


def _finding(config_path: str, entry: HierarchyEntry, readers: list[str], profiles: int) -> Problem:
    level = entry.name
    above = ", ".join(f"'{name}'" for name in readers)
    which = "level" if len(readers) == 1 else "levels"
    verb = "reads" if len(readers) == 1 else "read"
    every = "the only facts profile" if profiles == 1 else f"every facts profile ({profiles})"
    return LEVEL_SAME_FILE.at(
        f"Hierarchy level '{level}' reads only files that {which} {above} above it {verb} "
        f"too, for {every}: it can never win a first-found lookup (a merge reads those "
        "files twice). Remove it, or make its path name other files",
        config_path,
        entry.name_span,
        Details(level=level),
    )
