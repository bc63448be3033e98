"""Reports mask exactly the data's values: keys, hiera.yaml fields, paths, strategies, types
and class names are always shown; ``--show-values`` quotes the values at a terminal only."""

from __future__ import annotations

from pathlib import Path

import pytest

from hiera_ls.cli import main
from hiera_ls.report.formats import FORMATS

HIERA = """\
version: 5
defaults:
  datadir: data
  data_hash: yaml_data
hierarchy:
  - name: common
    path: common.yaml
  - name: json
    path: extra.json
    data_hash: json_data
"""
SECRET = "hunter2-rest-of-file"


def _check(capsys: pytest.CaptureFixture[str], root: Path, *argv: str) -> tuple[int, str]:
    code = main(["check", str(root), *argv])
    out, _ = capsys.readouterr()
    return code, out


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.delenv("GITHUB_ACTIONS", raising=False)
    monkeypatch.chdir(tmp_path)
    (tmp_path / "data").mkdir()
    (tmp_path / "hiera.yaml").write_text(HIERA)
    (tmp_path / "data" / "common.yaml").write_text(
        "lookup_options:\n"
        "  profile::base::packages:\n"
        "    merge: uniq\n"
        "profile::base::packages: [nginx]\n"
        "app::enabled: yes\n"
    )
    # Ruby's JSON parser quotes the rest of the file after an incomplete surrogate pair
    (tmp_path / "data" / "extra.json").write_text(
        '{"a": "\\ud800", "db::password": "' + SECRET + '"}'
    )
    return tmp_path


@pytest.mark.parametrize("fmt", FORMATS)
def test_no_format_carries_a_value_and_every_format_keeps_keys_and_strategies(
    repo: Path, capsys: pytest.CaptureFixture[str], fmt: str
) -> None:
    _, out = _check(capsys, repo, "--format", fmt)
    assert SECRET not in out  # the JSON error's quotation of the rest of the file
    assert "nginx" not in out
    assert "profile::base::packages" in out  # a key is not a secret
    assert "uniq" in out  # nor a merge strategy's name
    assert "…::" not in out  # no key cut in two by a value's mask


def test_show_values_quotes_them_in_text_only(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _, masked = _check(capsys, repo)
    assert "Puppet reads `…` as the Boolean true" in masked
    _, shown = _check(capsys, repo, "--show-values")
    assert "Puppet reads `yes` as the Boolean true" in shown
    assert SECRET in shown
    code = main(["check", str(repo), "--show-values", "--format", "json"])
    _, err = capsys.readouterr()
    assert code == 2 and "--show-values is for the text format only" in err


def test_a_type_mismatch_keeps_the_declared_type_and_the_got_types_name() -> None:
    from hiera_ls.puppet.type_mismatch import describe_mismatch, render_text
    from hiera_ls.puppet.type_parser import parse_type

    text = render_text(describe_mismatch("x", parse_type("Sensitive[String]"), 70000))
    assert text.shown() == "x expects a Sensitive[String] value, got Integer"
    text = render_text(describe_mismatch("x", parse_type("Integer[1, 65535]"), 70000))
    assert text.plain == "x expects an Integer[1, 65535] value, got Integer[70000, 70000]"
    assert text.shown() == "x expects an Integer[1, 65535] value, got Integer"
    text = render_text(describe_mismatch("x", parse_type("Enum['a', 'b']"), "hunter2"))
    assert "hunter2" not in text.shown() and "Enum['a', 'b']" in text.shown()
