"""``hiera-ls check`` as CI and users run it: output, exit status, profiles, secrets."""

from __future__ import annotations

import gc
import io
import json
import os
from pathlib import Path
from typing import Any

import pytest

from hiera_ls.cli import main
from hiera_ls.features.diagnostics import Diagnostics, project_paths
from hiera_ls.project.workspace import Workspace
from hiera_ls.report import collector, formats, run
from hiera_ls.report.progress import ProgressBar
from tests.report.conftest import SECRETS


def check(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["check", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_text_lists_findings_like_ruff_with_a_summary(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = check(capsys)
    lines = out.splitlines()
    assert (
        "data/common.yaml:12:1: yaml-duplicate-key Duplicate key 'app::dup' in this mapping: "
        "Psych keeps the value given last" in lines
    )
    # the value is masked, and only the value
    assert "data/common.yaml:10:15: yaml11-boolean Puppet reads `…` as the Boolean true" in lines
    assert lines[-1] == (
        "Found 9 problems (4 errors, 2 warnings, 1 info, 2 hints) in 11 files, 6 facts profiles."
    )
    assert code == 1  # errors, and --fail-on is error by default
    assert err == ""  # no progress bar: stderr is not a terminal


def test_a_clean_repository_passes(clean_repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = check(capsys)
    assert (code, out) == (0, "All checks passed (2 files).\n")
    # without a facts profile, it says once what did not run and how to add one
    assert err.count("\n") == 1
    assert err.startswith("hiera-ls check: note: no facts profile found, so ")
    assert " checks that look keys up for a node did not run (" in err
    assert "lookup-fails-for-profile" in err and "profile-unread-data-file" in err
    assert "`puppet facts show --render-as json > NODE.json`" in err
    assert "`facter -j > NODE.json`" in err
    assert "`hiera-ls facts pull --puppetdb URL`" in err
    # a run that asked for none of them has nothing to be told
    assert check(capsys, "--select", "yaml-*")[2] == ""


def test_a_run_with_profiles_is_not_told_to_add_one(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert check(capsys, "--profiles", "n6")[2] == ""


def test_the_target_decides_what_fails(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Under Puppet 7's defaults an undefined variable is '' (with a warning), no failure."""
    _, out, _ = check(capsys, "--select", "lookup-fails-for-profile", "--target", "puppet7")
    assert "app::url" not in out and "app::port" in out
    (repo / ".hiera-ls.yaml").write_text("target: puppet7\n")
    _, out, _ = check(capsys, "--select", "lookup-fails-for-profile")
    assert "app::url" not in out
    _, out, _ = check(capsys, "--select", "lookup-fails-for-profile", "--target", "puppet8")
    assert "Undefined variable '::app_host'" in out


def test_a_per_profile_failure_is_reported_once_naming_its_profiles(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _, out, _ = check(capsys, "--select", "lookup-fails-for-profile")
    failing = [line for line in out.splitlines() if "lookup-fails-for-profile" in line]
    assert failing == [
        "data/common.yaml:5:1: lookup-fails-for-profile [n1, n2, n3 and 2 more profiles] "
        "Looking up 'app::url' fails: Undefined variable '::app_host'; ",
        "data/common.yaml:6:1: lookup-fails-for-profile [all 6 profiles] Looking up 'app::port' "
        "fails: The convert_to lookup_option for key 'app::port' raised error: 'new' "
        "The string '…' cannot be converted to Integer",
    ]
    _, out, _ = check(capsys, "--select", "lookup-fails-for-profile", "--format", "json")
    first = json.loads(out)["findings"][0]
    assert first["profiles"] == ["n1", "n2", "n3", "n4", "n5"]


def test_profiles_can_be_chosen_by_name(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = check(capsys, "--profiles", "n6", "--select", "lookup-fails-for-profile")
    assert "app::url" not in out  # n6 has the fact
    assert "[n6] Looking up 'app::port' fails" in out
    assert out.splitlines()[-1].endswith("in 11 files, 1 facts profile.")


def test_reports_never_show_data_values(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # the server's own messages do quote them: that is what the reports must hide
    workspace = Workspace([str(repo)])
    workspace.select_profile("n1")
    snapshot = workspace.snapshot()
    diagnostics = Diagnostics()
    diagnostics.rebuild_stale(snapshot, 0)
    raw = " ".join(
        p.message
        for path in project_paths(snapshot)
        for p in diagnostics.file_problems(snapshot, path)
    )
    assert all(secret in raw for secret in SECRETS)
    for fmt in ("text", "json", "sarif", "github", "gitlab", "junit"):
        _, out, _ = check(capsys, "--format", fmt)
        leaked = [secret for secret in SECRETS if secret in out]
        assert leaked == [], fmt


def test_fail_on_sets_the_exit_status(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert check(capsys, "--select", "yaml11-*")[0] == 0  # an info does not fail by default
    assert check(capsys, "--select", "yaml11-*", "--fail-on", "info")[0] == 1
    assert check(capsys, "--select", "yaml-duplicate-key")[0] == 0
    assert check(capsys, "--select", "yaml-duplicate-key", "--fail-on", "warning")[0] == 1


def test_select_and_ignore_take_codes_and_globs(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _, out, _ = check(capsys, "--select", "yaml-*,json-syntax", "--ignore", "yaml-bad-number")
    codes = {line.split()[1] for line in out.splitlines()[:-1]}
    assert codes == {"yaml-duplicate-key", "json-syntax"}


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["no/such/dir"], "no/such/dir: no such file or directory"),
        (["--select", "yaml-dupe-key"], "unknown diagnostic code 'yaml-dupe-key'"),
        (["--ignore", "nothing-*"], "unknown diagnostic code 'nothing-*'"),
        (["--profiles", "nobody"], "no facts profile named 'nobody'"),
        (["--output", "no/such/dir/report.txt"], "cannot write no/such/dir/report.txt"),
        (["--hiera-config", "missing.yaml"], "--hiera-config missing.yaml: no such file"),
    ],
)
def test_usage_and_configuration_errors_exit_2(
    repo: Path, capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    code, out, err = check(capsys, *argv)
    assert code == 2
    assert out == ""
    assert err.startswith("hiera-ls check: error: ") and message in err
    assert len(err.splitlines()) == 1


def test_bad_flags_exit_2(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["check", "--format", "xml"])
    assert exit_.value.code == 2


def test_output_writes_the_report_to_a_file(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = check(capsys, "--format", "json", "--output", "report.json")
    assert (code, out) == (1, "")
    assert len(json.loads((repo / "report.json").read_text())["findings"]) == 9


def test_github_format_is_chosen_in_github_actions(
    repo: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GITHUB_ACTIONS", "true")
    _, out, _ = check(capsys)
    assert out.startswith("::error file=data/common.yaml,line=5,col=1,")
    _, out, _ = check(capsys, "--format", "text")
    assert out.startswith("data/common.yaml:5:1: ")


def test_a_file_argument_narrows_the_report_to_it(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _, out, _ = check(capsys, "data/extra.json")
    assert {line.split(":")[0] for line in out.splitlines()[:-1]} == {"data/extra.json"}


def test_the_shipped_example_is_clean(capsys: pytest.CaptureFixture[str]) -> None:
    example = Path(__file__).resolve().parents[2] / "examples" / "control-repo"
    code, out, _ = check(capsys, str(example))
    assert (code, out) == (0, "All checks passed (20 files, 3 facts profiles).\n")


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_the_progress_bar_shows_on_a_terminal_after_a_second_only() -> None:
    now = [0.0]
    terminal = _Terminal()
    bar = ProgressBar(terminal, clock=lambda: now[0])
    bar(1, 10)
    assert terminal.getvalue() == ""  # a short run shows nothing
    now[0] = 1.5
    bar(5, 10)
    assert terminal.getvalue() == "\r[###############---------------] 5/10 files"
    bar.close()
    assert terminal.getvalue().endswith("\r")
    piped = io.StringIO()
    piped_bar = ProgressBar(piped, clock=lambda: now[0] + 10)
    piped_bar(5, 10)
    piped_bar.close()
    assert piped.getvalue() == ""


@pytest.mark.slow
def test_no_progress_bytes_when_stderr_is_not_a_terminal(repo: Path) -> None:
    import subprocess
    import sys

    run = subprocess.run(
        [sys.executable, "-m", "hiera_ls", "check"],
        capture_output=True,
        env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)},
        check=False,
    )
    assert run.returncode == 1
    assert run.stderr == b""


def test_profiles_take_comma_separated_and_repeated_names(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _, out, _ = check(
        capsys, "--profiles", "n1,n6", "--profiles", "n2", ".", "--select", "lookup-*"
    )
    assert "[n1, n2] Looking up 'app::url' fails" in out
    assert out.splitlines()[-1].endswith("in 11 files, 3 facts profiles.")


def test_a_file_is_checked_in_its_environment_from_any_directory(
    repo: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(repo.parent)
    code, out, _ = check(capsys, "repo/data/common.yaml", "--select", "yaml-duplicate-key")
    assert code == 0
    assert out.splitlines() == [
        "repo/data/common.yaml:12:1: yaml-duplicate-key Duplicate key 'app::dup' in this "
        "mapping: Psych keeps the value given last",
        "Found 1 problem (1 warning) in 1 file, 6 facts profiles.",
    ]


def test_a_directory_without_hiera_data_is_a_configuration_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    code, out, err = check(capsys)
    assert (code, out) == (2, "")
    assert err == (
        "hiera-ls check: error: no Hiera data under .: no hiera.yaml, data file or facts file "
        "was found\n"
    )


def test_the_repository_configuration_and_suppressions_apply_to_check(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``.hiera-ls.yaml`` and suppression comments mean the same in CI as in the editor; a
    suppression that silences some profiles' failure is in use, not reported as unused."""
    (repo / ".hiera-ls.yaml").write_text(
        "ignore: [yaml11-*]\nseverity:\n  yaml-duplicate-key: off\n"
    )
    common = repo / "data" / "common.yaml"
    common.write_text(
        common.read_text().replace(
            'app::url: "http://%{::app_host}/"',
            'app::url: "http://%{::app_host}/"  # hiera-ls: disable-line=lookup-fails-for-profile',
        )
    )
    _, out, _ = check(capsys)
    assert "yaml11-boolean" not in out and "yaml-duplicate-key" not in out
    assert "'app::url' fails" not in out
    assert "suppression-unused" not in out
    _, out, _ = check(capsys, "--profiles", "n6")  # n6 has the fact: nothing to silence
    assert "data/common.yaml:5:" in out and "suppression-unused" in out


def test_fix_applies_the_safe_quick_fixes_and_reports_what_is_left(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The duplicate key is written once, its last value where it first was (as Psych reads
    it); `yes` is an intent fix, never applied unasked; comments and the rest of the text
    stay byte for byte."""
    common = repo / "data" / "common.yaml"
    before = common.read_text().replace("app::dup: 1\n", "app::dup: 1  # old\n# keep me\n")
    common.write_text(before)
    code, out, err = check(capsys, "--fix")
    after = common.read_text()
    assert "yaml-duplicate-key" not in out and "yaml11-boolean" in out
    assert err == "Fixed 1 problem in 1 file.\n"
    assert after == before.replace(
        "app::dup: 1  # old\n# keep me\napp::dup: 2\n", "app::dup: 2\n# keep me\n"
    )
    assert code == 1  # errors remain (profile lookups)
    assert check(capsys, "--fix")[2] == ""  # nothing left to fix: nothing written
    assert common.read_text() == after


def test_a_check_puts_off_the_collectors_full_passes_while_it_runs(
    repo: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """What a check makes lives to its end: full passes walk it all for almost nothing, so
    they wait for the report; a library caller's process gets its own settings back,
    whether the check succeeds or fails."""
    before = gc.get_threshold()
    seen: list[tuple[int, int, int]] = []
    real_classes, real_format = run.profile_classes, formats.text

    def classes(*args: Any) -> list[tuple[str, ...]]:
        seen.append(gc.get_threshold())
        return real_classes(*args)

    def text(*args: Any) -> str:
        seen.append(gc.get_threshold())
        return real_format(*args)

    monkeypatch.setattr(run, "profile_classes", classes)
    monkeypatch.setattr(formats, "text", text)
    assert check(capsys, "--format", "text")[0] == 1
    put_off = (before[0], before[1], collector.FULL_PASS_AFTER)
    assert seen == [put_off, put_off]
    assert gc.get_threshold() == before
    with pytest.raises(run.CheckError):
        run.run_check([str(repo / "nowhere")])
    assert gc.get_threshold() == before


def test_a_variable_a_node_definition_sets_is_not_sent_to_top_scope(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """%{role} reads the node definition's $role (checked on Puppet 7.23 and 8.10 by
    tests/differential/test_node_scope_vs_puppet_apply.py): no finding tells the user to
    write %{::role}, which would read nothing; %{datacenter}, which no node sets, is told."""
    (tmp_path / "data").mkdir()
    (tmp_path / "manifests").mkdir()
    (tmp_path / "hiera.yaml").write_text(
        "version: 5\nhierarchy:\n  - name: role\n    path: 'role/%{role}.yaml'\n"
        "  - name: dc\n    path: 'dc/%{datacenter}.yaml'\n  - name: common\n"
        "    path: common.yaml\n"
    )
    (tmp_path / "data" / "common.yaml").write_text("motd: 'a %{role} node'\n")
    (tmp_path / "manifests" / "site.pp").write_text(
        "node default {\n  $role = $facts['role']\n  notice(lookup('motd'))\n}\n"
    )
    monkeypatch.chdir(tmp_path)
    _, out, err = check(capsys, "--select", "interpolation-*")
    assert [line.split(" ")[:2] for line in out.splitlines() if ": interpolation" in line] == [
        ["hiera.yaml:6:15:", "interpolation-top-scope-variable"]
    ]
    assert "node definitions set" not in err  # no profile: nothing is previewed
    # with a profile, the run says once where its previews read the variable from
    (tmp_path / ".hiera-ls" / "facts").mkdir(parents=True)
    (tmp_path / ".hiera-ls" / "facts" / "n1.json").write_text('{"role": "web"}')
    _, _, err = check(capsys, "--select", "interpolation-*")
    assert err.count("node definitions set") == 1
    assert (
        "hiera-ls check: note: the hierarchy of production reads %{role}, which node "
        "definitions set: Puppet takes it from the node's code, these lookups from each facts "
        "profile's fact 'role' (give a profile that fact to preview such a node)\n"
    ) in err
