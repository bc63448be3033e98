"""``hiera-ls check``: a key-unused hint gives way to a class-parameter finding on the same key
only where that finding is reported; a repository that ignores the finding keeps the hint."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from hiera_ls.cli import main

HIERA = "version: 5\nhierarchy:\n  - name: common\n    path: common.yaml\n"
COMMON = "profile::web::port: 80\nprofile::web::prot: 80\n"
WEB = "class profile::web (Integer $port = 80) {}\n"


def check(capsys: pytest.CaptureFixture[str], root: Path, config: str | None) -> list[str]:
    (root / "data").mkdir()
    (root / "hiera.yaml").write_text(HIERA, encoding="utf-8")
    (root / "data" / "common.yaml").write_text(COMMON, encoding="utf-8")
    manifest = root / "modules" / "profile" / "manifests" / "web.pp"
    manifest.parent.mkdir(parents=True)
    manifest.write_text(WEB, encoding="utf-8")
    if config is not None:
        (root / ".hiera-ls.yaml").write_text(config, encoding="utf-8")
    main(["check", "--format", "json", str(root)])
    report = json.loads(capsys.readouterr().out)
    return sorted(f"{p['line']}:{p['code']}" for p in report["findings"])


def test_the_hint_gives_way_to_a_reported_warning(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    assert check(capsys, tmp_path, None) == ["2:class-parameter-unknown"]


def test_the_hint_stays_when_the_repository_ignores_the_warning(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    found = check(capsys, tmp_path, "ignore: [class-parameter-unknown]\n")
    assert found == ["2:key-unused"]
