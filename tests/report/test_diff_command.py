"""``hiera-ls diff`` as CI and users run it: what changes, formats, exit status, secrets, and
the user's checkout left as it was."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from hiera_ls.cli import main
from tests.report.diff_fixture import Planted, copy_planted, git, write


def diff(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["diff", *argv])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def planted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, planted_template: Planted
) -> tuple[Path, str, str]:
    root = tmp_path / "repo"
    before, after = copy_planted(planted_template, root)
    monkeypatch.chdir(root)
    return root, before, after


def test_text_groups_each_changed_key_by_profiles(
    planted: tuple[Path, str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    _, before, after = planted
    code, out, err = diff(capsys, "--base", before, "--head", after)
    assert out == (
        "app::port\n"
        "  web01.example.com: 80 -> 443\n"
        "  web02.example.com: 8081 -> 443\n"
        "\n"
        "app::settings\n"
        '  db01.example.com: {"timeout": 10, "retries": 5} -> {"retries": 5}\n'
        '  web01.example.com, web02.example.com: {"timeout": 30, "retries": 3} -> '
        '{"timeout": 30}\n'
        "\n"
        "ntp::servers\n"
        '  db01.example.com: ["0.pool.ntp.org", "1.pool.ntp.org"] -> ["rh.pool.ntp.org"]\n'
        "\n"
        f"3 of 6 keys change for 4 profiles ({before} -> {after})\n"
    )
    assert (code, err) == (1, "")


def test_json_names_every_profile_with_both_answers(
    planted: tuple[Path, str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    _, before, _ = planted
    code, out, _ = diff(capsys, "--base", before, "--format", "json", "--keys", "app::port")
    data = json.loads(out)
    assert code == 1
    assert (data["base"], data["head"], data["keys"]) == (before, "working tree", 1)
    assert data["changes"] == [
        {
            "environment": ".",
            "key": "app::port",
            "groups": [
                {
                    "profiles": ["web01.example.com"],
                    "shared": {},
                    "before": {"found": True, "value": 80},
                    "after": {"found": True, "value": 443},
                },
                {
                    "profiles": ["web02.example.com"],
                    "shared": {},
                    "before": {"found": True, "value": 8081},
                    "after": {"found": True, "value": 443},
                },
            ],
        }
    ]


def test_markdown_has_a_table_per_changed_key(
    planted: tuple[Path, str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    _, before, _ = planted
    code, out, _ = diff(capsys, "--base", before, "--format", "markdown", "--keys", "ntp::*")
    assert code == 1
    assert out == (
        f"### hiera-ls diff: `{before}` → the working tree\n"
        "\n"
        f"1 of 1 key changes for 4 profiles ({before} -> working tree).\n"
        "\n"
        "#### `ntp::servers`: 1 of 4 profiles\n"
        "\n"
        "| Profiles | They share | Before | After |\n"
        "| --- | --- | --- | --- |\n"
        '| db01.example.com |  | `["0.pool.ntp.org", "1.pool.ntp.org"]` | `["rh.pool.ntp.org"]` |\n'
    )


def test_no_change_exits_0(
    planted: tuple[Path, str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = diff(capsys)  # HEAD against the working tree: the same files
    assert (code, out) == (
        0,
        "No changes: 0 of 6 keys change for 4 profiles (HEAD -> working tree)\n",
    )
    code, out, _ = diff(capsys, "--format", "markdown")
    assert code == 0 and "No changes" in out


def test_an_unsaved_edit_is_compared_and_the_checkout_is_left_alone(
    planted: tuple[Path, str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    root, before, _ = planted
    write(root, "data/roles/app.yaml", "---\napp::port: 9000\n")  # untracked
    (root / "data" / "os" / "RedHat.yaml").unlink()  # deleted, not staged
    git(root, "add", "data/roles/app.yaml")
    status = git(root, "status", "--porcelain=v2", "--branch")
    head = git(root, "rev-parse", "HEAD")
    worktrees = git(root, "worktree", "list", "--porcelain")
    stash = git(root, "stash", "list")
    code, out, _ = diff(capsys, "--keys", "app::port", "ntp::servers")
    assert code == 1
    assert "  app01.example.com: 8080 -> 9000\n" in out
    assert (
        '  db01.example.com: ["rh.pool.ntp.org"] -> ["0.pool.ntp.org", "1.pool.ntp.org"]\n' in out
    )
    code, _, _ = diff(capsys, "--base", before, "--head", "HEAD")
    assert code == 1
    assert git(root, "status", "--porcelain=v2", "--branch") == status
    assert git(root, "rev-parse", "HEAD") == head
    assert git(root, "worktree", "list", "--porcelain") == worktrees
    assert git(root, "stash", "list") == stash
    assert not list(root.glob(".hiera-ls-diff*"))


def test_profiles_narrow_the_comparison(
    planted: tuple[Path, str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    _, before, _ = planted
    code, out, _ = diff(capsys, "--base", before, "--profiles", "app01.example.com")
    assert (code, out) == (
        0,
        f"No changes: 0 of 5 keys change for 1 profile ({before} -> working tree)\n",
    )  # db::size: only the db role's file defines it, which app01 never reads
    code, out, _ = diff(
        capsys, "--base", before, "--profiles", "db01.example.com,app01.example.com"
    )
    assert code == 1
    assert "web01" not in out


def test_usage_errors_exit_2_with_a_clear_message(
    planted: tuple[Path, str, str],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    code, out, err = diff(capsys, "--base", "no-such-branch")
    assert (code, out) == (2, "")
    assert err.startswith("hiera-ls diff: error: unknown revision 'no-such-branch'")
    code, _, err = diff(capsys, "--base=--upload-pack=x")
    assert code == 2 and "unknown revision" in err
    code, _, err = diff(capsys, "--profiles", "nobody")
    assert code == 2 and "no facts profile named 'nobody'" in err
    outside = tmp_path / "not-a-repo"
    outside.mkdir()
    monkeypatch.chdir(outside)
    code, _, err = diff(capsys)
    assert code == 2
    assert err == (
        f"hiera-ls diff: error: {outside.resolve()} is not inside a git work tree "
        "(hiera-ls diff compares revisions)\n"
    )


SECRETS_LEVEL = """\
  - name: secrets
    lookup_key: eyaml_lookup_key
    path: secrets.eyaml
    options:
      pkcs7_private_key: keys/private_key.pkcs7.pem
      pkcs7_public_key: keys/public_key.pkcs7.pem
"""


def test_eyaml_values_are_masked_in_every_format(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    root = tmp_path / "secrets"
    root.mkdir()
    git(root, "init", "-q")
    hiera = "---\nversion: 5\ndefaults:\n  datadir: data\nhierarchy:\n" + SECRETS_LEVEL
    write(
        root,
        "hiera.yaml",
        hiera + "  - name: common\n    data_hash: yaml_data\n    path: common.yaml\n",
    )
    write(
        root,
        "data/secrets.eyaml",
        "---\ndb::password: ENC[PKCS7,MIIBOLDCIPHER]\ndb::user: plainuser-old\n",
    )
    write(
        root,
        "data/common.yaml",
        "---\ndb::url: \"db://%{lookup('db::user')}\"\ndb::list:\n  - ENC[PKCS7,MIIBLISTOLD]\n",
    )
    write(root, ".hiera-ls/facts/n1.yaml", "clientcert: n1.example.com\n")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "one")
    write(
        root,
        "data/secrets.eyaml",
        "---\ndb::password: ENC[PKCS7,MIIBNEWCIPHER]\ndb::user: plainuser-new\n",
    )
    write(
        root,
        "data/common.yaml",
        "---\ndb::url: \"db://%{lookup('db::user')}\"\ndb::list:\n  - ENC[PKCS7,MIIBLISTNEW]\n",
    )
    monkeypatch.chdir(root)
    for form in ("text", "json", "markdown"):
        code, out, _ = diff(capsys, "--format", form)
        assert code == 1
        for secret in ("MIIB", "plainuser", "CIPHER"):
            assert secret not in out, (form, secret)
        for key in ("db::password", "db::user", "db::list"):
            assert key in out, (form, key)
    code, out, _ = diff(capsys, "--keys", "db::password")
    assert out.splitlines()[1] == '  n1.example.com: "<eyaml value>" -> "<eyaml value>"'


def test_a_hierarchy_that_breaks_fails_every_key_for_every_profile(
    planted: tuple[Path, str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    root, _, _ = planted
    text = (root / "hiera.yaml").read_text()
    (root / "hiera.yaml").write_text(text.replace("  data_hash: yaml_data\n", ""))
    code, out, _ = diff(capsys, "--format", "json")
    data = json.loads(out)
    assert code == 1
    assert data["keys"] == 6  # db::size too: with no hierarchy to follow, every file counts
    assert [c["key"] for c in data["changes"]] == [
        "app::name", "app::port", "app::settings", "db::size", "ntp::servers", "unchanged::key",
    ]  # fmt: skip
    groups = [g for c in data["changes"] for g in c["groups"]]
    assert all(set(g["after"]) == {"error"} for g in groups)
    assert all("data_hash" in g["after"]["error"] for g in groups)
