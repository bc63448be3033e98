"""Every safe fix (what ``hiera-ls check --fix`` applies unasked) against Puppet 7.23 itself.

A fix that keeps a value keeps it as Puppet reads it: the file's value and its key order
(Psych and Ruby's JSON keep a repeated key where it is first written, with the value written
last), and every key's looked-up value, with ``strict_variables`` (Puppet 8's default, through
the oracle) and without (Puppet 7's default, through ``puppet lookup`` itself: the oracle's
setting does not reach interpolation). A fix that repairs what Puppet refuses (a date, an
unquoted ``%{``, a token Puppet cannot read) turns the refusal into the evident value and leaves
every other key as it was. ``test_every_safe_fix_has_cases_here`` makes a new safe fix bring
its cases.
"""

from __future__ import annotations

import json
import subprocess
import tempfile
from pathlib import Path
from typing import Any

import pytest

from hiera_ls.checks.fixes import fixed_text, safe_codes
from tests.checks.support import make_workspace
from tests.oracle.puppet import PuppetOracle
from tests.oracle.values import canonical

pytestmark = pytest.mark.puppet

# code -> (file, text): the file's value, its key order and every lookup stay as they were
KEEPS_THE_FILE: dict[str, list[tuple[str, str]]] = {
    "yaml-duplicate-key": [
        ("c.yaml", "b: 1\na: 2\nb: 3\n"),
        ("c.yaml", "k: 1\nk: 2\nother: x\nk: 3\n"),
        ("c.yaml", "top:\n  b: [1,\n    2]\n  a: {x: 1}\n  b:\n    - 3\n  c: z\nafter: 1\n"),
        ("c.yaml", "# head\nport: 22  # old\n# note\nport: 2222\nmotd: hi\n"),
        ("c.yaml", "\ufeffa:\n  b: 1\n  c: 2\n  b: 3\n"),
        ("c.yaml", "b: 1\r\na: 2\r\nb: 3\r\n"),
        ("c.yaml", "yes: 1\nz: 2\ntrue: 3\n"),
        ("c.yaml", "b: 1\na: 2\nb: |\n  block\n  text\n"),
        ("c.yaml", "b: 1\na: 2\nb: 3"),
        ("c.yaml", "a: &x {k: 1}\nb: 1\nc: *x\nb: 2\n"),
    ],
    "json-duplicate-key": [
        ("c.json", '{"b": 1, "a": 2, "b": 3}'),
        ("c.json", '{\n  "b": {"x": [1, 2]},\n  "a": 2,\n  "b": [3]\n}\n'),
        ("c.json", '{"b":1,"b":2,"a":0,"b":3}'),
        ("c.json", '{"o": {"b": 1, "a": 2, "b": 3}, "z": 1}'),
    ],
}
# the file's text changes, every looked-up value stays
KEEPS_THE_LOOKUPS: dict[str, list[tuple[str, str]]] = {
    "interpolation-literal-argument": [
        ("c.yaml", "x: \"a %{literal('b')} c\"\ny: 1\n"),
        ("c.yaml", "x: 'a %{literal(''b'')}'\n"),
    ],
}
# (file, text, the repaired keys' values): Puppet refused the whole file
REPAIRS_THE_FILE: dict[str, list[tuple[str, str, dict[str, object]]]] = {
    "yaml-date-rejected": [
        ("c.yaml", "a: 1\nwhen: 2024-01-15\nb: 2\n", {"when": "2024-01-15"}),
        ("c.yaml", "\ufeffwhen: 2024-01-15 10:00:00\n", {"when": "2024-01-15 10:00:00"}),
        ("c.yaml", "\ufeffwhen: 2024-01-15\nother: 1\n", {"when": "2024-01-15"}),
    ],
    "interpolation-unquoted": [
        ("c.yaml", "a: 1\nfqdn: %{facts.role}  # name\n", {"fqdn": "web"}),
        ("c.yaml", "x: {a: %{facts.role}}\n", {"x": {"a": "web"}}),
        ("c.yaml", "x: [%{facts.role}, b]\n", {"x": ["web", "b"]}),
    ],
}
# (file, text, the repaired keys' values): the lookup of the key holding the token failed
REPAIRS_THE_TOKEN: dict[str, list[tuple[str, str, dict[str, object]]]] = {
    "interpolation-syntax-error": [
        ("c.yaml", "b: v\nx: \"%{lookup( 'b' )}\"\n", {"x": "v"}),
    ],
    "interpolation-unknown-method": [
        ("c.yaml", "b: v\nx: \"%{Lookup('b')}\"\n", {"x": "v"}),
    ],
}
HIERA = "version: 5\nhierarchy:\n  - name: c\n    path: {file}\n    data_hash: {function}\n"
FACTS = {"role": "web"}


def test_every_safe_fix_has_cases_here() -> None:
    cases = {*KEEPS_THE_FILE, *KEEPS_THE_LOOKUPS, *REPAIRS_THE_FILE, *REPAIRS_THE_TOKEN}
    assert sorted(safe_codes()) == sorted(cases)


def _fixed(tmp_path: Path, name: str, text: str, code: str) -> str:
    ws = make_workspace(tmp_path / "check", {f"data/{name}": text})
    problems = [p for p in ws.data_problems(f"data/{name}") if p.code == code]
    assert problems, (code, text)
    fixed, fixes, _ = fixed_text(ws.path(f"data/{name}"), text, problems)
    assert fixes and fixed != text, (code, text)
    return fixed


def _loaded(oracle: PuppetOracle, name: str, texts: list[str]) -> list[dict[str, Any]]:
    return oracle.load_json(texts) if name.endswith(".json") else oracle.load_yaml(texts)


def _environment(base: Path, name: str, text: str) -> Path:
    env = base / "envs" / "production"
    (env / "data").mkdir(parents=True, exist_ok=True)
    function = "json_data" if name.endswith(".json") else "yaml_data"
    (env / "hiera.yaml").write_text(HIERA.format(file=name, function=function))
    (env / "data" / name).write_text(text, encoding="utf-8", newline="")
    return base / "envs"


def _strict(oracle: PuppetOracle, base: Path, name: str, text: str, keys: list[str]) -> list[Any]:
    """Each key's lookup with strict_variables (Puppet 8): its JSON, in order, or an error."""
    answers = oracle.lookup_batch(
        {
            "environmentpath": str(_environment(base, name, text)),
            "environment": "production",
            "node": "n.example.com",
            "facts": FACTS,
            "hiera_config": None,
            "strict_variables": True,
            "lookups": [{"key": k, "merge": None} for k in keys],
        }
    )
    return [
        ("error",) if "error" in a else json.dumps(a["value"]) if a.get("found") else ("missing",)
        for a in answers
    ]


def _puppet7(base: Path, name: str, text: str, key: str) -> Any:
    """The key's value as ``puppet lookup`` gives it with Puppet 7's defaults."""
    envs = _environment(base, name, text)
    (base / "facts.json").write_text(json.dumps(FACTS))
    for d in ("conf", "code", "empty"):
        (base / d).mkdir(exist_ok=True)
    cmd = [
        "puppet", "lookup", key, "--confdir", str(base / "conf"), "--codedir", str(base / "code"),
        "--vardir", tempfile.mkdtemp(dir=base), "--hiera_config", str(base / "empty" / "h.yaml"),
        "--environmentpath", str(envs), "--environment", "production", "--node", "n.example.com",
        "--facts", str(base / "facts.json"), "--render-as", "json", "--color", "false",
    ]  # fmt: skip
    run = subprocess.run(cmd, capture_output=True, text=True, timeout=120, cwd=base)
    # (Facter's complaint about /proc/1/environ in a container is no error of the lookup)
    errors = [x for x in run.stderr.splitlines() if x.startswith("Error: ") and "Facter" not in x]
    if errors:
        return ("error",)
    return json.dumps(json.loads(run.stdout)) if run.returncode == 0 else ("missing",)


def _keys(answer: dict[str, Any]) -> list[str]:
    return [k for k, _ in answer["ok"]["hash"] if isinstance(k, str)]


@pytest.mark.parametrize(
    ("code", "name", "text"), [(c, n, t) for c, cases in KEEPS_THE_FILE.items() for n, t in cases]
)
def test_a_fix_that_keeps_keeps_the_value_and_the_key_order_puppet_reads(
    tmp_path: Path, puppet_oracle: PuppetOracle, code: str, name: str, text: str
) -> None:
    fixed = _fixed(tmp_path, name, text, code)
    before, after = _loaded(puppet_oracle, name, [text, fixed])
    assert "ok" in before and "ok" in after, (before, after)
    assert canonical(after["ok"]) == canonical(before["ok"]), (text, fixed)
    keys = _keys(before)
    assert _strict(puppet_oracle, tmp_path / "b", name, text, keys) == _strict(
        puppet_oracle, tmp_path / "a", name, fixed, keys
    ), (text, fixed)


@pytest.mark.parametrize(
    ("code", "name", "text"),
    [(c, n, t) for c, cases in KEEPS_THE_LOOKUPS.items() for n, t in cases],
)
def test_a_token_fix_that_keeps_keeps_every_looked_up_value_in_puppet_7_and_8(
    tmp_path: Path, puppet_oracle: PuppetOracle, code: str, name: str, text: str
) -> None:
    fixed = _fixed(tmp_path, name, text, code)
    (before,) = _loaded(puppet_oracle, name, [text])
    keys = _keys(before)
    assert _strict(puppet_oracle, tmp_path / "b", name, text, keys) == _strict(
        puppet_oracle, tmp_path / "a", name, fixed, keys
    ), (text, fixed)
    for key in keys:
        was = _puppet7(tmp_path / f"b7{key}", name, text, key)
        assert was == _puppet7(tmp_path / f"a7{key}", name, fixed, key), (key, text, fixed)


@pytest.mark.parametrize(
    ("code", "name", "text", "repaired"),
    [(c, n, t, r) for c, cases in REPAIRS_THE_FILE.items() for n, t, r in cases],
)
def test_a_file_puppet_refused_is_read_with_the_evident_value(
    tmp_path: Path,
    puppet_oracle: PuppetOracle,
    code: str,
    name: str,
    text: str,
    repaired: dict[str, object],
) -> None:
    fixed = _fixed(tmp_path, name, text, code)
    before, after = _loaded(puppet_oracle, name, [text, fixed])
    assert "error" in before and "ok" in after, (before, after, fixed)
    keys = _keys(after)
    now = _strict(puppet_oracle, tmp_path / "a", name, fixed, keys)
    for key, value in zip(keys, now, strict=True):
        if key in repaired:
            assert value == json.dumps(repaired[key]), (key, fixed)
        else:
            assert value != ("error",), (key, fixed)


@pytest.mark.parametrize(
    ("code", "name", "text", "repaired"),
    [(c, n, t, r) for c, cases in REPAIRS_THE_TOKEN.items() for n, t, r in cases],
)
def test_a_token_puppet_refused_gives_the_evident_value_and_nothing_else_changes(
    tmp_path: Path,
    puppet_oracle: PuppetOracle,
    code: str,
    name: str,
    text: str,
    repaired: dict[str, object],
) -> None:
    fixed = _fixed(tmp_path, name, text, code)
    (loaded,) = _loaded(puppet_oracle, name, [fixed])
    keys = _keys(loaded)
    was = _strict(puppet_oracle, tmp_path / "b", name, text, keys)
    now = _strict(puppet_oracle, tmp_path / "a", name, fixed, keys)
    for key, old, new in zip(keys, was, now, strict=True):
        if key in repaired:
            assert old == ("error",) and new == json.dumps(repaired[key]), (key, fixed)
            # Puppet 7's defaults refuse the token as well (`puppet lookup` exits 1 and says
            # nothing): the repair is no change of meaning
            assert _puppet7(tmp_path / "b7", name, text, key) in (("error",), ("missing",))
        else:
            assert new == old, (key, text, fixed)


def test_quoting_an_unquoted_argument_is_not_safe_under_puppet_7s_defaults(
    tmp_path: Path,
) -> None:
    """``%{lookup(b)}`` reads a variable named 'lookup(b)': '' with Puppet 7's defaults (a
    warning), the key's value once quoted. So ``--fix`` never applies that fix."""
    text = 'b: v\nx: "%{lookup(b)}"\n'
    fixed = "b: v\nx: \"%{lookup('b')}\"\n"
    assert _puppet7(tmp_path / "b", "c.yaml", text, "x") == '""'
    assert _puppet7(tmp_path / "a", "c.yaml", fixed, "x") == '"v"'
    assert "interpolation-unquoted-argument" not in safe_codes()
