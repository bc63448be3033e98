"""Which modules an environment has: Puppet's modulepath for the CLI, more for the server
unless its setting ``hiera.moduleDirs`` is ``"modulepath"``.

A control repository with ``site-modules/profile`` and no environment.conf: Puppet's
modulepath is ``modules:$basemodulepath``, so ``puppet lookup profile::x`` finds nothing and
``hiera-ls lookup`` must agree. The language server still reads the module (so its data is
checked and hovered) and its hover says Puppet would not; set to ``"modulepath"`` it answers
as Puppet does. With ``modulepath =
site-modules:modules`` in environment.conf everyone reads the module and no note is shown.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from hiera_ls.cli import main
from hiera_ls.features.hover import hover, key_hover
from hiera_ls.project.environments import ModuleDirs, environment_at
from hiera_ls.project.settings import Settings
from hiera_ls.project.workspace import Workspace
from hiera_ls.source.files import FileAccess
from hiera_ls.source.spans import Position
from tests.oracle.puppet import PuppetOracle

HIERA = """\
version: 5
hierarchy:
  - name: Common
    path: common.yaml
"""
NOTE = (
    "_Module `profile` was found in `site-modules/`, which is not on this environment's "
    "modulepath: Puppet would not read its data. Add it to environment.conf's modulepath._"
)
MODULEPATH_CONF = "modulepath = site-modules:modules:$basemodulepath\n"


def _repo(tmp_path: Path, environment_conf: str | None) -> Path:
    root = tmp_path / "environments" / "production"
    files = {
        "hiera.yaml": HIERA,
        "data/common.yaml": "env_key: 1\n",
        "site-modules/profile/hiera.yaml": HIERA,
        "site-modules/profile/data/common.yaml": "profile::x: from site-modules\n",
        ".hiera-ls/facts/web01.yaml": "clientcert: web01\n",
    }
    if environment_conf is not None:
        files["environment.conf"] = environment_conf
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text), encoding="utf-8")
    return root


def _cli(root: Path, capsys: pytest.CaptureFixture[str], *flags: str) -> tuple[int, str]:
    code = main(
        ["lookup", "--environmentpath", str(root.parent), *flags, "--node", "web01", "profile::x"]
    )
    return code, capsys.readouterr().out


def _module_data(root: Path) -> str:
    return str(root / "site-modules" / "profile" / "data" / "common.yaml")


# ------------------------------------------------------------------ no environment.conf


def test_cli_reads_puppets_modulepath_so_site_modules_is_not_searched(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = _repo(tmp_path, None)
    assert _cli(root, capsys) == (1, "")  # not found, as `puppet lookup` answers


def test_cli_flag_opts_into_the_conventional_directories(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = _repo(tmp_path, None)
    code, out = _cli(root, capsys, "--modulepath-conventional")
    assert code == 0 and out == "--- from site-modules\n"


def test_the_builder_records_modules_found_off_the_modulepath(tmp_path: Path) -> None:
    root = str(_repo(tmp_path, None))
    puppets = environment_at(
        root, "production", None, FileAccess(), module_dirs=ModuleDirs.MODULEPATH
    )
    assert dict(puppets.modules) == {} and puppets.off_modulepath == frozenset()
    generous = environment_at(
        root, "production", None, FileAccess(), module_dirs=ModuleDirs.CONVENTIONAL
    )
    assert list(generous.modules) == ["profile"] and generous.off_modulepath == {"profile"}


def test_server_finds_the_value_and_the_hover_says_puppet_would_not(tmp_path: Path) -> None:
    root = _repo(tmp_path, None)
    snap = Workspace([str(root)], Settings(facts_profile="web01")).snapshot()
    result = hover(snap, _module_data(root), Position(0, 3))
    assert result is not None
    assert "```yaml\nfrom site-modules\n```" in result.markdown
    assert result.markdown.count(NOTE) == 1
    view = snap.environments[0]
    unresolved = Workspace([str(root)]).snapshot()
    text = key_hover(unresolved, unresolved.environments[0], "profile::x", ("profile::x",), None)
    assert text.count(NOTE) == 1 and view.env.off_modulepath == {"profile"}


def test_server_set_to_the_modulepath_answers_as_puppet_without_a_note(tmp_path: Path) -> None:
    root = _repo(tmp_path, None)
    puppets = Settings(facts_profile="web01", module_dirs=ModuleDirs.MODULEPATH)
    ws = Workspace([str(root)], puppets)
    snap = ws.snapshot()
    view = snap.environments[0]
    text = key_hover(snap, view, "profile::x", ("profile::x",), None)
    assert "**Not found** for `web01`" in text and "modulepath" not in text
    assert hover(snap, _module_data(root), Position(0, 3)) is None  # no level reads the file
    assert dict(view.env.modules) == {} and view.env.off_modulepath == frozenset()
    # changing the setting rebuilds the environments, both ways
    ws.set_settings(Settings(facts_profile="web01"))
    result = hover(ws.snapshot(), _module_data(root), Position(0, 3))
    assert result is not None and result.markdown.count(NOTE) == 1
    assert "```yaml\nfrom site-modules\n```" in result.markdown
    ws.set_settings(puppets)
    assert hover(ws.snapshot(), _module_data(root), Position(0, 3)) is None


@pytest.mark.puppet
def test_puppet_does_not_search_site_modules_without_environment_conf(
    tmp_path: Path, puppet_oracle: PuppetOracle
) -> None:
    root = _repo(tmp_path, None)
    assert _puppet(puppet_oracle, root) == {"found": False}


# ------------------------------------------------------------------ environment.conf names it


def test_with_site_modules_on_the_modulepath_cli_and_server_agree_without_a_note(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = _repo(tmp_path, MODULEPATH_CONF)
    assert _cli(root, capsys) == (0, "--- from site-modules\n")
    snap = Workspace([str(root)], Settings(facts_profile="web01")).snapshot()
    assert snap.environments[0].env.off_modulepath == frozenset()
    result = hover(snap, _module_data(root), Position(0, 3))
    assert result is not None
    assert "```yaml\nfrom site-modules\n```" in result.markdown
    assert "modulepath" not in result.markdown


@pytest.mark.puppet
def test_puppet_reads_site_modules_when_environment_conf_names_it(
    tmp_path: Path, puppet_oracle: PuppetOracle
) -> None:
    root = _repo(tmp_path, MODULEPATH_CONF)
    assert _puppet(puppet_oracle, root) == {"found": True, "value": "from site-modules"}


def _puppet(oracle: PuppetOracle, root: Path) -> dict[str, object]:
    (answer,) = oracle.lookup_batch(
        {
            "environmentpath": str(root.parent),
            "environment": "production",
            "node": "web01",
            "facts": {"clientcert": "web01"},
            "lookups": [{"key": "profile::x", "merge": None}],
        }
    )
    return {k: v for k, v in answer.items() if k in ("found", "value", "error")}
