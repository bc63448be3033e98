"""Data Puppet never reads or cannot read, through `hiera-ls check`'s whole run: a module's
data without hiera.yaml (module-data-not-read) and a level whose function exists nowhere
(hiera-function-unknown). tests/differential/test_unread_data_vs_puppet.py asks Puppet."""

from __future__ import annotations

import json
from pathlib import Path

from hiera_ls.checks.fixes import fixes_for
from hiera_ls.report.run import Finding, run_check
from hiera_ls.source.text_edits import apply_edits

ENV_HIERA = "version: 5\nhierarchy:\n  - name: Common\n    path: common.yaml\n"


def tree(root: Path, files: dict[str, str]) -> Path:
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return root


def found(root: Path, code: str) -> list[Finding]:
    return [f for f in run_check([str(root)], profiles=[]).findings if f.code == code]


def relative(root: Path, findings: list[Finding]) -> list[str]:
    return sorted(str(Path(f.path).relative_to(root)) for f in findings)


def test_each_data_file_of_a_module_without_hiera_yaml_is_said_unread(tmp_path: Path) -> None:
    root = tree(
        tmp_path / "production",
        {
            "hiera.yaml": ENV_HIERA,
            "data/common.yaml": "k: 1\n",
            "modules/ntp/manifests/init.pp": "class ntp (Array $servers = []) {}\n",
            "modules/ntp/data/common.yaml": "ntp::servers: [a]\nunqualified: 1\n",
            "modules/ntp/data/os/Debian.yaml": "ntp::servers: [\n",
            "modules/fine/hiera.yaml": ENV_HIERA,
            "modules/fine/data/common.yaml": "fine::a: 1\n",
            "modules/legacy/metadata.json": json.dumps({"data_provider": "hiera"}),
            "modules/legacy/data/common.yaml": "legacy::a: 1\n",
        },
    )
    unread = found(root, "module-data-not-read")
    assert relative(root, unread) == [
        "modules/ntp/data/common.yaml",
        "modules/ntp/data/os/Debian.yaml",
    ]
    assert unread[0].message.startswith(
        "Module 'ntp' has no hiera.yaml, so Puppet never reads this file"
    )
    assert 'Module data provider for module "ntp" not found' in unread[0].message
    # the parse error the file hid is shown; nothing claims Puppet reads or warns of its keys
    assert relative(root, found(root, "yaml-syntax")) == ["modules/ntp/data/os/Debian.yaml"]
    for code in ("module-data-unqualified-key", "key-unused", "class-parameter-unknown"):
        assert [f for f in found(root, code) if "/modules/ntp/" in f.path] == [], code


def test_a_hieradata_module_the_environment_reads_is_environment_data(tmp_path: Path) -> None:
    hiera = ENV_HIERA + "defaults:\n  datadir: modules/hieradata/data\n"
    root = tree(
        tmp_path / "production",
        {"hiera.yaml": hiera, "modules/hieradata/data/common.yaml": "k: 1\n"},
    )
    assert found(root, "module-data-not-read") == []


def level(function: str) -> str:
    return (
        "version: 5\nhierarchy:\n"
        f"  - name: Custom\n    data_hash: {function}\n    path: custom.yaml\n"
        "  - name: Common\n    path: common.yaml\n"
    )


def test_a_level_function_defined_nowhere_is_an_error(tmp_path: Path) -> None:
    root = tree(tmp_path / "production", {"hiera.yaml": level("yml_data")})
    [finding] = found(root, "hiera-function-unknown")
    assert finding.message == (
        "Puppet has no function 'yml_data' for hierarchy level 'Custom': every lookup that "
        "reaches the level fails with: Unable to find 'data_hash' function named 'yml_data' "
        f"(file: {root}/hiera.yaml). Did you mean 'yaml_data'?"
    )
    assert (finding.span.start.line, finding.span.start.column) == (3, 15)
    text = (root / "hiera.yaml").read_text()
    problem = next(p for p in _problems(root) if p.code == "hiera-function-unknown")
    fix = fixes_for(problem, text)[0]
    assert apply_edits(text, fix.edits) == level("yaml_data")


def _problems(root: Path) -> list:  # type: ignore[type-arg]
    from hiera_ls.features.diagnostics import Diagnostics
    from hiera_ls.project.workspace import Workspace

    workspace = Workspace([str(root)])
    snapshot = workspace.snapshot()
    return Diagnostics().file_problems(snapshot, str(root / "hiera.yaml"))


def test_functions_the_environment_defines_or_may_deploy_are_not_judged(tmp_path: Path) -> None:
    ruby = "Puppet::Functions.create_function(:'mymod::ruby_data') do\nend\n"
    cases = {
        "mymod::ruby_data": {"modules/mymod/lib/puppet/functions/mymod/ruby_data.rb": ruby},
        "global_data": {"modules/mymod/lib/puppet/functions/global_data.rb": ruby},
        "mymod::pp_data": {
            "modules/mymod/functions/pp_data.pp": "function mymod::pp_data($o, $c) { {} }\n"
        },
        "hocon_data": {},
        # a module this checkout lacks: r10k deploys it from the Puppetfile
        "vault::data": {},
        "vault_data": {"Puppetfile": "mod 'example/vault', '1.0.0'\n"},
        # an empty module directory: a git submodule not checked out
        "sub_data": {"modules/sub/.keep": ""},
    }
    for number, (function, files) in enumerate(cases.items()):
        files = {"hiera.yaml": level(function), "modules/mymod/manifests/init.pp": "", **files}
        if function == "sub_data":
            files.pop("modules/sub/.keep")
            (tmp_path / f"e{number}" / "modules" / "sub").mkdir(parents=True)
        root = tree(tmp_path / f"e{number}", files)
        assert found(root, "hiera-function-unknown") == [], function
    # and a misspelt known one is still reported where modules may be missing
    root = tree(
        tmp_path / "misspelt",
        {"hiera.yaml": level("jsn_data"), "Puppetfile": "mod 'example/vault', '1.0.0'\n"},
    )
    assert [f.message.rsplit(". ", 1)[-1] for f in found(root, "hiera-function-unknown")] == [
        "Did you mean 'json_data'?"
    ]
