"""Document links in hiera.yaml: each location (``path``, ``paths``, ``glob``, ``globs``,
``mapped_paths``) links to the data files it reads.

With a facts profile, the files the engine reads for that node (the location interpolated
with the profile's scope, as Puppet does); without one, every file the level can read for
some node (``project/level_files.py``). A link has one target: the first file, the
tooltip says how many files the location reads and names them (up to :data:`NAMED`).
A location that reads no existing file has no link.
"""

from __future__ import annotations

from dataclasses import dataclass

from hiera_ls.features.definition import location_files
from hiera_ls.features.provenance import shown_path
from hiera_ls.project.workspace import FileKind, Snapshot
from hiera_ls.source.spans import Span

NAMED = 5


@dataclass(frozen=True, slots=True)
class Link:
    """A hiera.yaml location linked to the first data file it reads."""

    span: Span  # the location's string in hiera.yaml
    target: str  # the first file it reads
    tooltip: str


def document_links(snapshot: Snapshot, path: str) -> list[Link]:
    if snapshot.kind_of(path) is not FileKind.HIERA_CONFIG:
        return []
    view = snapshot.environment_for(path)
    if view is None:
        return []
    layer = view.configs.get(path)
    out: list[Link] = []
    seen: set[Span] = set()
    profile = snapshot.active.name if snapshot.active is not None else None
    for level in view.levels:
        if level.layer is not layer or level.template_span is None or not level.names_files:
            continue
        if level.template_span in seen:
            continue
        seen.add(level.template_span)
        targets = [fs.path for fs in location_files(snapshot, view, level)]
        if not targets:
            continue
        shown = [shown_path(p, snapshot, view) for p in targets]
        who = f"for profile {profile}" if profile else "for some node (no facts profile)"
        if len(targets) == 1:
            tooltip = f"Reads {shown[0]} {who}"
        else:
            named = ", ".join(shown[:NAMED]) + (", ..." if len(shown) > NAMED else "")
            tooltip = f"Reads {len(targets)} files {who} (link: the first): {named}"
        out.append(Link(level.template_span, targets[0], tooltip))
    return out
