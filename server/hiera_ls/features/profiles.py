"""Facts profiles as a client's picker shows them: name, file, and which one is active."""

from __future__ import annotations

from dataclasses import dataclass

from hiera_ls.project.workspace import Snapshot


@dataclass(frozen=True, slots=True)
class ProfileItem:
    """A facts profile as the picker lists it."""

    name: str
    path: str
    active: bool
    error: str | None = None  # the file could not be read as facts


def list_profiles(snapshot: Snapshot) -> list[ProfileItem]:
    """The workspace's profiles, then the fleet's nodes (PuppetDB), each by name; a node's
    facts are not read to list it."""
    active = snapshot.active
    items = [
        ProfileItem(e.name, e.profile.path, active is not None and e is active, e.profile.error)
        for e in snapshot.profiles
    ]
    fleet = snapshot.fleet
    if fleet is not None:
        local = any(e is active for e in snapshot.profiles)
        chosen = active.name if active is not None and not local else None
        items.extend(
            ProfileItem(name, fleet.path(name) or "", name == chosen)
            for name in snapshot.fleet_names()
        )
    return items
