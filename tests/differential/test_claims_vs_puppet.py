"""What the diagnostics say Puppet will do, checked against Puppet itself.

Each case lays out an environment, runs the checks, and asks Puppet 7.23 (with Puppet 8's
strict settings) to look the affected key up: the error text a message quotes must be the
one Puppet raises, a value said to be ignored or literal must come back so, and keys said
to be dropped from module data must be missing, with Puppet's warning.
"""

from __future__ import annotations

import re
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from hiera_ls.source.spans import Problem
from tests.checks.support import MODULE_HIERA, make_workspace, only
from tests.checks.test_clean_data import REALISTIC
from tests.oracle.puppet import PuppetOracle

pytestmark = pytest.mark.puppet

NODE = "web01.example.com"
# The oracle's scope has no trusted.certname: a static level stands in for the node level.
TWO_LEVELS = (
    "version: 5\nhierarchy:\n  - name: First\n    path: first.yaml\n  - name: Common\n"
    "    path: common.yaml\n"
)
FACTS: dict[str, object] = {"osfamily": "Debian", "os": {"family": "Debian"}, "role": "web"}


@pytest.fixture(scope="module")
def oracle(puppet_oracle: PuppetOracle) -> Iterator[PuppetOracle]:
    yield puppet_oracle


def puppet(
    oracle: PuppetOracle, root: Path, keys: list[str], facts: dict[str, object] | None = None
) -> list[dict[str, Any]]:
    answer = oracle.request(
        {
            "environmentpath": str(root.parent),
            "environment": root.name,
            "node": NODE,
            "facts": facts if facts is not None else FACTS,
            "lookups": [{"key": k, "merge": None} for k in keys],
        }
    )
    results = answer["results"]
    for r in results:
        r["warnings"] = answer.get("warnings", [])
    return results  # type: ignore[no-any-return]


def quoted(problem: Problem, after: str) -> str:
    """The Puppet text a message quotes after ``after`` (up to the hint sentence, if any)."""
    text = problem.message.split(after, 1)[1]
    return text


def test_interpolation_errors_are_the_errors_puppet_raises(
    oracle: PuppetOracle, tmp_path: Path
) -> None:
    values = {
        "s1": "%{lookup( 'a' )}",
        "s2": "%{lookup('a','b')}",
        "s3": "%{facts['os']}",
        "s4": "é %{nosuch('x')}",
        "s5": "x%{alias('a')}",
        "s6": "%{lookup('a..b')}",
        "s7": "%{Lookup('a')}",
        "s8": "%{lookup('')}",
    }
    text = "a: A\n" + "".join(f'{k}: "{v}"\n' for k, v in values.items())
    ws = make_workspace(tmp_path, {"data/common.yaml": text})
    problems = [
        p for p in ws.data_problems("data/common.yaml") if p.code.startswith("interpolation-")
    ]
    by_line = {p.where.span.start.line: p for p in problems}
    results = puppet(oracle, ws.root, list(values))
    for line, (key, result) in enumerate(zip(values, results, strict=True), start=1):
        found = by_line[line]
        assert found.severity.value == "error", key
        said = quoted(found, "Puppet fails the lookup with: ")
        assert "error" in result, (key, result)
        # our message quotes Puppet's text, then may add a hint after ". "
        assert said.startswith(result["error"].rstrip()), (key, said, result["error"])


def test_warned_tokens_do_what_the_message_says(oracle: PuppetOracle, tmp_path: Path) -> None:
    ws = make_workspace(
        tmp_path,
        {
            "data/common.yaml": """\
            a: A
            unterminated: "keep %{this"
            literal: "%{literal('ab')}"
            unquoted: "%{lookup(a)}"
            bare: "%{osfamily}"
            top: "%{::osfamily}"
            fact: "%{facts.osfamily}"
            """
        },
    )
    problems = ws.data_problems("data/common.yaml")
    assert {p.code for p in problems} == {
        "interpolation-unterminated",
        "interpolation-literal-argument",
        "interpolation-unquoted-argument",
        "interpolation-top-scope-variable",
    }
    unterminated, literal, unquoted, bare, top, fact = puppet(
        oracle, ws.root, ["unterminated", "literal", "unquoted", "bare", "top", "fact"]
    )
    assert unterminated["value"] == "keep %{this"  # kept literally
    assert literal["value"] == "ab"  # just the text
    assert unquoted["error"] == "Undefined variable 'lookup(a)'; "  # the message quotes this
    assert (
        bare["value"] == top["value"] == fact["value"] == "Debian"
    )  # the spellings the message offers
    message = only(problems, "interpolation-unquoted-argument")[0].message
    assert "Undefined variable 'lookup(a)'" in message


def test_unquoted_token_message_quotes_puppets_parse_error(
    oracle: PuppetOracle, tmp_path: Path
) -> None:
    ws = make_workspace(tmp_path, {"data/common.yaml": "a: 1\nkey: %{facts.os.family}\n"})
    [found] = ws.data_problems("data/common.yaml")
    [result] = puppet(oracle, ws.root, ["a"])
    assert found.message.endswith(f"Puppet cannot load this file: {result['error']}")


def test_module_keys_outside_the_namespace_are_dropped_with_this_warning(
    oracle: PuppetOracle, tmp_path: Path
) -> None:
    ws = make_workspace(
        tmp_path,
        {
            "modules/mymod/hiera.yaml": MODULE_HIERA,
            "modules/mymod/data/common.yaml": "mymod::x: 1\nstray: 2\nother::y: 3\n",
        },
    )
    problems = ws.data_problems("modules/mymod/data/common.yaml")
    assert [p.code for p in problems] == ["module-data-unqualified-key"] * 2
    x, stray, other = puppet(oracle, ws.root, ["mymod::x", "stray", "other::y"])
    assert x["value"] == 1
    assert stray.get("found") is False
    assert other.get("found") is False
    warning = problems[0].message.split("Puppet warns: ", 1)[1]
    assert warning.endswith("; got stray")  # Puppet 8's words; Puppet 7's end before "; got"
    if oracle.engine.name == "puppet7":
        warning = warning.removesuffix("; got stray")
    assert any(w.endswith(warning) for w in x["warnings"]), x["warnings"]


def test_lookup_options_messages_quote_puppet(oracle: PuppetOracle, tmp_path: Path) -> None:
    cases = {
        "a2": ("{a2: [deep]}", "[1]"),
        "a3": ("{a3: 5}", "[1]"),
        "a4": ("{a4: true}", "[1]"),
        "a5": ("{a5: 'merge it'}", "[1]"),
        "a6": ("{a6: {merge: bogus}}", "[1]"),
        "a7": ("{a7: {merge: {strategy: hash, knockout_prefix: '--'}}}", "{x: 1}"),
        "a8": ("{a8: {merge: {strategy: deep, knockout_prefix: 5}}}", "{x: 1}"),
        "a9": ("{a9: {merge: {strategy: deep, sort_merged_arrays: 'yes'}}}", "{x: 1}"),
        "a10": ("{a10: {merge: {knockout_prefix: x}}}", "{x: 1}"),
    }
    for key, (option, value) in cases.items():
        root = tmp_path / key
        ws = make_workspace(
            root, {"data/common.yaml": f"lookup_options: {option}\n{key}: {value}\n"}
        )
        problems = [
            p for p in ws.data_problems("data/common.yaml") if p.code.startswith("lookup-options-")
        ]
        assert len(problems) == 1, (key, problems)
        [result] = puppet(oracle, ws.root, [key])
        assert "error" in result, (key, result)
        first_line = result["error"].split("\n", 1)[
            0
        ]  # Ruby 3.1 appends a code excerpt to NoMethodError
        assert first_line in problems[0].message, (key, result["error"], problems[0].message)


def test_ignored_lookup_options_are_ignored(oracle: PuppetOracle, tmp_path: Path) -> None:
    ws = make_workspace(
        tmp_path,
        {
            "data/common.yaml": """\
            lookup_options:
              a1: unique
              a2: {marge: unique}
              "profile::.*": {merge: unique}
            a1: [1]
            a2: [1]
            profile::x: [1]
            """,
            "hiera.yaml": TWO_LEVELS,
            "data/first.yaml": "a1: [2]\na2: [2]\nprofile::x: [2]\n",
        },
    )
    problems = ws.data_problems("data/common.yaml")
    assert [p.code for p in problems] == [
        "lookup-options-entry-ignored",
        "lookup-options-unknown-option",
        "lookup-options-literal-pattern",
    ]
    results = puppet(oracle, ws.root, ["a1", "a2", "profile::x"])
    assert [r["value"] for r in results] == [[2], [2], [2]]  # first found: nothing merged


def test_module_namespace_and_bad_regex_fail_as_said(oracle: PuppetOracle, tmp_path: Path) -> None:
    ws = make_workspace(
        tmp_path,
        {
            "modules/m1/hiera.yaml": MODULE_HIERA,
            "modules/m1/data/common.yaml": (
                "lookup_options:\n  other::x: {merge: unique}\nm1::x: 1\n"
            ),
            "modules/m2/hiera.yaml": MODULE_HIERA,
            "modules/m2/data/common.yaml": (
                "lookup_options:\n  '^(m2::x|m2::y)': {merge: unique}\nm2::x: 1\n"
            ),
        },
    )
    m1 = ws.data_problems("modules/m1/data/common.yaml")
    m2 = ws.data_problems("modules/m2/data/common.yaml")
    r1, r2 = puppet(oracle, ws.root, ["m1::x", "m2::x"])
    assert r1["error"] in m1[0].message
    assert r2["error"] in m2[0].message
    bad = make_workspace(
        tmp_path / "bad", {"data/common.yaml": "lookup_options:\n  '^a(': {merge: unique}\nx: 1\n"}
    )
    [found] = bad.data_problems("data/common.yaml")
    [result] = puppet(oracle, bad.root, ["x"])  # an unrelated key fails too
    assert found.message.endswith(result["error"])


def test_cycle_message_is_puppets(oracle: PuppetOracle, tmp_path: Path) -> None:
    ws = make_workspace(
        tmp_path,
        {
            "data/common.yaml": (
                "x: \"%{lookup('y')}\"\nz: \"%{alias('x')}\"\nw: \"%{alias('w')}\"\n"
            ),
            "hiera.yaml": TWO_LEVELS,
            "data/first.yaml": "y: \"pre %{lookup('z')}\"\n",
        },
    )
    cycles = only(ws.data_problems("data/common.yaml"), "reference-cycle")
    x, z, w = puppet(oracle, ws.root, ["x", "z", "w"])
    assert cycles[0].message.endswith(x["error"])
    assert cycles[1].message.endswith(z["error"])
    assert cycles[2].message.endswith(w["error"])


def test_undefined_references_give_empty_strings(oracle: PuppetOracle, tmp_path: Path) -> None:
    ws = make_workspace(
        tmp_path, {"data/common.yaml": "a: \"<%{lookup('nosuch')}>\"\nb: \"%{alias('gone')}\"\n"}
    )
    assert [p.code for p in ws.data_problems("data/common.yaml")] == ["reference-undefined-key"] * 2
    a, b = puppet(oracle, ws.root, ["a", "b"])
    assert a["value"] == "<>"
    assert b["value"] == ""


def test_profile_errors_are_puppets_errors(oracle: PuppetOracle, tmp_path: Path) -> None:
    ws = make_workspace(
        tmp_path,
        {
            "data/common.yaml": """\
            lookup_options:
              h: {merge: hash}
            h: {x: 1}
            undefined_var: "%{::nosuchvar}"
            a: "%{lookup('b')}"
            b: "%{lookup('a')}"
            """,
            "hiera.yaml": TWO_LEVELS,
            "data/first.yaml": "h: not a hash\n",
        },
    )
    problems = only(
        ws.data_problems("data/common.yaml", ws.profile(dict(FACTS), NODE)),
        "lookup-fails-for-profile",
    )
    keys = ["h", "undefined_var", "a", "b"]
    results = puppet(oracle, ws.root, keys)
    prefix = re.compile(r"^\[[^]]+\] Looking up '[^']+' fails: ")
    assert [prefix.sub("", p.message) for p in problems] == [r["error"] for r in results]


def test_the_realistic_repository_has_no_error_in_puppet(
    oracle: PuppetOracle, tmp_path: Path
) -> None:
    files = dict(REALISTIC)
    # Debian's Puppet has no hiera-eyaml: drop that level for Puppet, keep everything else.
    files["hiera.yaml"] = re.sub(
        r"  - name: \"Secrets\".*?(?=  - name: \"Per-node data\")",
        "",
        files["hiera.yaml"],
        flags=re.S,
    )
    ws = make_workspace(tmp_path, files)
    keys = sorted(
        {
            str(k)
            for rel, text in files.items()
            if rel.endswith(".yaml") and "/data/" in f"/{rel}"
            for k in _root_keys(ws, rel)
        }
    )
    facts: dict[str, object] = {
        "role": "web",
        "datacenters": ["ams1"],
        "os": {"family": "Debian", "name": "Debian", "release": {"major": "12", "full": "12.5"}},
        "networking": {"fqdn": NODE, "hostname": "web01", "ip": "10.1.2.11"},
    }
    results = puppet(oracle, ws.root, keys, facts)
    errors = {k: r["error"] for k, r in zip(keys, results, strict=True) if "error" in r}
    assert errors == {}
    shutil.rmtree(tmp_path, ignore_errors=True)


def _root_keys(ws: Any, rel: str) -> list[object]:
    return [k for k in ws.source(rel).data.data if k != "lookup_options"]
