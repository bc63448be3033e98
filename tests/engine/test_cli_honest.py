"""What ``hiera-ls lookup`` prints beside the answer: Puppet's warnings in Puppet's words, one
line for levels it could not read, a word when the environment has no hiera.yaml, each
once. Puppet's texts were taken from ``puppet lookup`` 7.23 with ``--strict warning``.
"""

from __future__ import annotations

import io
import json
import os
from pathlib import Path

import pytest

from hiera_ls.cli import build_parser
from hiera_ls.cli.lookup import run as run_lookup
from tests.engine.test_custom_backends import KEY, WMF_FILES


def _write(root: Path, files: dict[str, str]) -> Path:
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return root


def _run(root: Path, *argv: str, stdin: str = "") -> tuple[int, str, str]:
    args = build_parser().parse_args(["lookup", *argv])
    out, err = io.StringIO(), io.StringIO()
    cwd = os.getcwd()
    os.chdir(root)
    try:
        code = run_lookup(args, io.StringIO(stdin), out, err)
    finally:
        os.chdir(cwd)
    return code, out.getvalue(), err.getvalue()


WARN_FILES = {
    "hiera.yaml": (
        "version: 5\nhierarchy:\n  - name: a\n    path: a.yaml\n"
        "  - name: c\n    path: common.yaml\n"
    ),
    "data/a.yaml": "- 1\n- 2\n",
    "data/common.yaml": 'k: "x%{nosuch}y"\n',
}


def test_puppet_7_warnings_are_printed_as_puppet_prints_them(tmp_path: Path) -> None:
    root = _write(tmp_path, WARN_FILES)
    code, out, err = _run(root, "--target", "puppet7", "k")
    assert (code, out) == (0, "--- xy\n")
    assert err == (
        f"Warning: {root}/data/a.yaml: file does not contain a valid yaml hash\n"
        "Warning: Undefined variable 'nosuch'; \n   (file & line not available)\n"
    )


def test_the_deprecated_strict_variables_flags_still_choose_the_target_with_a_note(
    tmp_path: Path,
) -> None:
    root = _write(tmp_path, WARN_FILES)
    code, out, err = _run(root, "--no-strict-variables", "k")
    notice, rest = err.split("\n", 1)
    assert notice == (
        "Notice: --no-strict-variables is deprecated and will be removed in a later release: "
        "use --target puppet7 (what it means now), or name the target once in .hiera-ls.yaml "
        "(target: puppet7 | puppet8 | openvox8 | openvox9)"
    )
    assert (code, out, rest) == _run(root, "--target", "puppet7", "k")
    code, out, err = _run(root, "--strict-variables", "k")
    assert code == 1 and "use --target puppet8" in err
    code, out, err = _run(root, "--target", "puppet7", "--strict-variables", "k")
    assert code == 0 and err.startswith(
        "Notice: --strict-variables is deprecated and ignored: --target puppet7 is given\n"
    )


def test_the_target_comes_from_the_flag_then_the_repository_then_puppet8(tmp_path: Path) -> None:
    root = _write(tmp_path, WARN_FILES)
    assert _run(root, "k")[0] == 1  # puppet8: the non-hash file fails the lookup
    (root / ".hiera-ls.yaml").write_text("target: puppet7\n")
    assert _run(root, "k")[:2] == (0, "--- xy\n")
    assert _run(root, "--target", "openvox9", "k")[0] == 1


def test_a_missing_hiera_yaml_is_named(tmp_path: Path) -> None:
    code, out, err = _run(tmp_path, "k")
    assert (code, out) == (1, "")
    assert err.startswith(f"Warning: {tmp_path}/hiera.yaml does not exist: the environment")


def test_a_key_not_found_prints_nothing_as_puppet_lookup(tmp_path: Path) -> None:
    root = _write(tmp_path, WARN_FILES)
    assert _run(root, "--target", "puppet7", "nosuchkey") == (
        1,
        "",
        f"Warning: {root}/data/a.yaml: file does not contain a valid yaml hash\n",
    )


def test_skipped_levels_are_one_warning_line_and_a_batch_field(tmp_path: Path) -> None:
    root = _write(tmp_path, {**WMF_FILES, "facts.yaml": "role: web\nsite: eqiad\n"})
    code, out, err = _run(root, "--facts", "facts.yaml", KEY)
    assert code == 0  # the value found is printed; the warning says what may differ
    assert err.count("\n") == 1 and err.startswith("Warning: The merge strategy may differ")
    assert "--backend FUNCTION=READER" in err
    code, out, err = _run(root, "--facts", "facts.yaml", "--batch", stdin=json.dumps({"key": KEY}))
    answer = json.loads(out)
    assert answer["incomplete"]["may_differ"] == ["lookup_options"]
    assert [lv["level"] for lv in answer["incomplete"]["levels"]] == ["expand_path site", "common"]
    _code, out, _err = _run(root, "--batch", stdin=json.dumps({"key": "plain"}))
    missed = json.loads(out)  # not found: the skipped levels may hold it
    assert missed["found"] is False and "value" in missed["incomplete"]["may_differ"]


def test_the_backend_flag_reads_expand_path_levels(tmp_path: Path) -> None:
    root = _write(tmp_path, {**WMF_FILES, "facts.yaml": "role: web\nsite: eqiad\n"})
    flags = ("--facts", "facts.yaml", "--backend", "wmflib::expand_path=expand_path")
    code, out, err = _run(root, *flags, "--render-as", "json", KEY)
    assert (code, err) == (0, "")
    assert json.loads(out) == {"bacula-fd": ["*"], "nginx": ["libtiff"], "qemu": ["*"]}


@pytest.mark.parametrize("flag", ["nonsense", "f=toml_data"])
def test_a_bad_backend_flag_is_refused(tmp_path: Path, flag: str) -> None:
    from hiera_ls.cli import UsageError

    with pytest.raises(UsageError):
        _run(tmp_path, "--backend", flag, "k")


def test_explain_prints_each_notice_once(tmp_path: Path) -> None:
    root = _write(
        tmp_path,
        {
            "hiera.yaml": "version: 5\n",
            "GLOBAL/hiera.yaml": ":backends: [yaml]\n:hierarchy: [common]\n",
            "data/common.yaml": "k: 1\n",
        },
    )
    code, out, err = _run(root, "--hiera-config", "GLOBAL/hiera.yaml", "--explain", "k")
    assert code == 0 and "Found key" in out
    notices = [line.removeprefix("Notice: ") for line in err.splitlines()]
    assert not [n for n in notices if n in out]  # in the tree, not a second time on stderr
