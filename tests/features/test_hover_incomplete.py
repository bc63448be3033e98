"""The hover of an answer that skipped custom-backend levels: one line, only where it matters.

The shape is Wikimedia's: the common data and its lookup_options are read by
``lookup_key: wmflib::expand_path``; a role level above holds one entry of the key.
"""

from __future__ import annotations

from pathlib import Path

from hiera_ls.features.hover import key_hover
from hiera_ls.project.settings import Settings, parse_settings
from hiera_ls.project.workspace import Workspace
from tests.engine.test_custom_backends import KEY, WMF_FILES


def _repo(tmp_path: Path) -> Path:
    root = tmp_path / "production"
    files = {**WMF_FILES, ".hiera-ls/facts/web01.yaml": "clientcert: web01\nrole: web\nsite: x\n"}
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return root


def test_skipped_levels_are_one_line_naming_the_merge_strategy(tmp_path: Path) -> None:
    root = _repo(tmp_path)
    snap = Workspace([str(root)], Settings(facts_profile="web01")).snapshot()
    text = key_hover(snap, snap.environments[0], KEY, (KEY,), here=None)
    lines = [line for line in text.splitlines() if "hiera-ls skipped" in line]
    assert len(lines) == 1, text
    assert lines[0].startswith("_The merge strategy may differ from Puppet's")
    assert '"common"' in lines[0] and "hiera.backends" in lines[0]
    assert not text.startswith("_")  # not at the top of the hover


def test_the_backends_setting_reads_the_levels(tmp_path: Path) -> None:
    root = _repo(tmp_path)
    raw = {"hiera": {"factsProfile": "web01", "backends": {"wmflib::expand_path": "expand_path"}}}
    settings = parse_settings(raw).settings
    snap = Workspace([str(root)], settings).snapshot()
    text = key_hover(snap, snap.environments[0], KEY, (KEY,), here=None)
    assert "hiera-ls skipped" not in text
    assert "**Merge:** `hash`" in text
    assert "bacula-fd" in text and "qemu" in text
    # the level reads <path>.yaml and <path>/**/*.yaml: its files are data files of the level
    client = str(root / "data/common/profile/debdeploy/client.yaml")
    levels = [lv.entry.name for lv in snap.data_files[client].levels]
    assert levels == ["expand_path site", "common"]  # a site named `common` reads it too


def test_a_reader_that_does_not_exist_is_refused_with_a_message() -> None:
    parsed = parse_settings({"hiera": {"backends": {"f": "toml"}}})
    assert parsed.settings.backends == ()
    assert "must map to one of" in parsed.messages[0]


def test_a_key_whose_interpolation_fails_says_where_the_lookup_stopped(tmp_path: Path) -> None:
    root = tmp_path / "production"
    for rel, text in {
        "hiera.yaml": "version: 5\n",
        "data/common.yaml": "a: 1\nbroken: '%{facts.nosuch.x}%{nosuch}'\n",
        ".hiera-ls/facts/web01.yaml": "clientcert: web01\n",
    }.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    snap = Workspace([str(root)], Settings(facts_profile="web01")).snapshot()
    here = str(root / "data/common.yaml")
    text = key_hover(snap, snap.environments[0], "broken", ("broken",), here=here)
    assert "**Puppet fails this lookup:** Undefined variable 'nosuch'" in text
    assert "No level holds this key" not in text
    assert "The lookup stops at Environment / Common — [data/common.yaml:2]" in text
    assert "(this file)" in text
