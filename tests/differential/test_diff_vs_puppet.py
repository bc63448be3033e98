"""``hiera-ls diff`` reports exactly the (key, profile) pairs whose answer Puppet changes
between the two revisions of the planted repository, with Puppet's values before and after.

Each revision is exported (``git archive``) as an environment and every key is looked up by
Puppet for every profile at both; the diff's JSON, flattened to (key, profile), must equal
the pairs Puppet answers differently.
"""

from __future__ import annotations

import io
import json
import subprocess
import tarfile
from pathlib import Path
from typing import Any

import pytest

from hiera_ls.cli import main
from tests.differential.harness import outcome, same_value
from tests.oracle.puppet import PuppetOracle
from tests.report.diff_fixture import KEYS, PROFILES, planted_repo

pytestmark = pytest.mark.puppet


def export(repo: Path, commit: str, base: Path) -> Path:
    """``commit``'s files as environment ``production`` under ``base``."""
    env = base / "production"
    env.mkdir(parents=True)
    archive = subprocess.run(["git", "archive", commit], cwd=repo, capture_output=True, check=True)
    with tarfile.open(fileobj=io.BytesIO(archive.stdout)) as tar:
        if hasattr(tarfile, "data_filter"):
            tar.extractall(env, filter="data")
        else:  # Python before 3.11.4 (Debian 12's 3.11.2): the test's own git archive
            tar.extractall(env)
    return base


def puppet_answers(
    oracle: PuppetOracle, environmentpath: Path
) -> dict[tuple[str, str], dict[str, Any]]:
    out: dict[tuple[str, str], dict[str, Any]] = {}
    for name, facts in PROFILES.items():
        answers = oracle.lookup_batch(
            {
                "environmentpath": str(environmentpath),
                "environment": "production",
                "node": name,
                "facts": {"clientcert": name, **facts},
                "hiera_config": None,
                "strict_variables": True,
                "lookups": [{"key": k, "merge": None} for k in KEYS],
            }
        )
        out.update({(key, name): a for key, a in zip(KEYS, answers, strict=True)})
    return out


def same(a: dict[str, Any], b: dict[str, Any]) -> bool:
    if outcome(a) != outcome(b):
        return False
    return outcome(a) != "found" or same_value(a["value"], b["value"])


def test_diff_reports_what_puppet_answers_differently(
    tmp_path: Path,
    puppet_oracle: PuppetOracle,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    repo = tmp_path / "repo"
    before, after = planted_repo(repo)
    old = puppet_answers(puppet_oracle, export(repo, before, tmp_path / "before"))
    new = puppet_answers(puppet_oracle, export(repo, after, tmp_path / "after"))
    expected = {pair: (old[pair], new[pair]) for pair in old if not same(old[pair], new[pair])}
    # every planted change shows: the value, the new level, the merge strategy, the moved file
    assert {key for key, _ in expected} == {"app::port", "ntp::servers", "app::settings"}
    assert ("app::port", "web02.example.com") in expected  # its node file moved away

    monkeypatch.chdir(repo)
    code = main(["diff", "--base", before, "--head", after, "--format", "json"])
    report = json.loads(capsys.readouterr().out)
    assert code == 1
    assert report["keys"] == len(KEYS)
    assert set(report["profiles"]) == set(PROFILES)
    got = {
        (change["key"], name): (group["before"], group["after"])
        for change in report["changes"]
        for group in change["groups"]
        for name in group["profiles"]
    }
    assert set(got) == set(expected)
    for pair, (theirs_before, theirs_after) in expected.items():
        ours_before, ours_after = got[pair]
        assert same(ours_before, theirs_before), pair
        assert same(ours_after, theirs_after), pair
