"""Facts profiles as a client's picker shows them: name, file, and which one is active."""

from __future__ import annotations

from dataclasses import dataclass

from hiera_ls.project.workspace import Snapshot


@dataclass(frozen=True, slots=True)
class ProfileItem:
    name: str
    path: str
    active: bool
    error: str | None = None  # the file could not be read as facts


def list_profiles(snapshot: Snapshot) -> list[ProfileItem]:
    active = snapshot.active
    return [
        ProfileItem(e.name, e.profile.path, active is not None and e is active, e.profile.error)
        for e in snapshot.profiles
    ]
