"""Hover shows the value Puppet gives: every key of the control repository, every profile.

Puppet 7.23's own engine (the oracle) looks each key up for each facts profile of the
fixture; the value the hover renders must be Puppet's, and a lookup that Puppet fails must
show Puppet's error.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from hiera_ls.features.hover import key_hover
from hiera_ls.features.provenance import resolve
from hiera_ls.features.render import yaml_block
from hiera_ls.project.settings import Settings
from hiera_ls.project.workspace import Workspace
from tests.oracle.puppet import PuppetOracle

CONTROL_REPO = Path(__file__).resolve().parents[2] / "examples" / "control-repo"
PROFILES = ("web01.example.com", "db01.example.com", "debian11.example.com")


def _keys(ws: Workspace) -> list[str]:
    snapshot = ws.snapshot()
    keys: set[str] = set()
    for fk in snapshot.all_file_keys():
        keys.update(k for k in fk.keys if k != "lookup_options")
    return sorted(keys)


@pytest.mark.puppet
@pytest.mark.parametrize("profile", PROFILES)
def test_hover_value_is_puppets_for_every_key(
    profile: str, puppet_oracle: PuppetOracle, tmp_path: Path
) -> None:
    ws = Workspace([str(CONTROL_REPO)], Settings(facts_profile=profile))
    snapshot = ws.snapshot()
    assert snapshot.active is not None and snapshot.active.name == profile
    view = snapshot.environments[0]
    envs = tmp_path / "environments"
    envs.mkdir()
    (envs / "production").symlink_to(CONTROL_REPO)
    keys = _keys(ws)
    assert len(keys) >= 15
    answers = puppet_oracle.lookup_batch(
        {
            "environmentpath": str(envs),
            "environment": "production",
            "node": profile,
            "facts": dict(snapshot.active.profile.facts),
            "lookups": [{"key": k, "merge": None} for k in keys],
        }
    )
    for key, answer in zip(keys, answers, strict=True):
        ours = resolve(snapshot, view, key, key).outcome
        text = key_hover(snapshot, view, key, (key,), here=None)
        if "error" in answer:
            assert ours.error is not None, (
                f"{key}: Puppet fails ({answer['error']}), we found {ours.value!r}"
            )
            assert "**Puppet fails this lookup:**" in text
        elif answer["found"]:
            assert ours.error is None and ours.found, f"{key}: {ours.error}"
            assert ours.value == answer["value"], key
            assert yaml_block(answer["value"]) in text, key
        else:
            assert not ours.found, key
            assert "**Not found**" in text
