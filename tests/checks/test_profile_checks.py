"""Lookups run for the active facts profile, reported on the keys of the checked file."""

from __future__ import annotations

from pathlib import Path

from hiera_ls.checks.profile import key_text
from hiera_ls.source.spans import Span
from tests.checks.support import brief, make_workspace, only

FACTS: dict[str, object] = {"os": {"family": "Debian"}, "role": "web"}


def test_failing_lookups_are_reported_on_the_key_with_the_profile_name(tmp_path: Path) -> None:
    ws = make_workspace(
        tmp_path,
        {
            "data/common.yaml": """\
            lookup_options:
              h: {merge: hash}
            h: {x: 1}
            missing_alias: "%{alias('nowhere')}"
            missing_subkey: "%{facts.os.nosuch}"
            undefined_var: "%{::nosuchvar}"
            fine: "%{facts.os.family}"
            """,
            "data/nodes/web01.example.com.yaml": "h: not a hash\n",
        },
    )
    problems = only(
        ws.data_problems("data/common.yaml", ws.profile(FACTS)), "lookup-fails-for-profile"
    )
    assert brief(problems) == [
        ("lookup-fails-for-profile", Span.of(2, 0, 2, 1)),
        ("lookup-fails-for-profile", Span.of(5, 0, 5, 13)),
    ]
    assert problems[0].message == (
        "[web01.example.com] Looking up 'h' fails: The first element of the merge has wrong type, "
        "expects a Hash value, got String"
    )
    assert problems[1].message == (
        "[web01.example.com] Looking up 'undefined_var' fails: Undefined variable '::nosuchvar'; "
    )


def test_recursion_for_the_profile(tmp_path: Path) -> None:
    ws = make_workspace(
        tmp_path, {"data/common.yaml": "a: \"%{lookup('b')}\"\nb: \"%{lookup('a')}\"\n"}
    )
    problems = only(
        ws.data_problems("data/common.yaml", ws.profile(FACTS)), "lookup-fails-for-profile"
    )
    assert [p.message for p in problems] == [
        "[web01.example.com] Looking up 'a' fails: Lookup of key 'a' failed: Recursive lookup "
        "detected in [a, b]",
        "[web01.example.com] Looking up 'b' fails: Lookup of key 'b' failed: Recursive lookup "
        "detected in [b, a]",
    ]


def test_one_error_shared_by_many_keys_is_reported_once(tmp_path: Path) -> None:
    ws = make_workspace(
        tmp_path,
        {
            "data/common.yaml": "broken: [\n",
            "data/nodes/web01.example.com.yaml": "a: 1\nb: 2\nc: 3\n",
        },
    )
    problems = only(
        ws.data_problems("data/nodes/web01.example.com.yaml", ws.profile(FACTS)),
        "lookup-fails-for-profile",
    )
    assert len(problems) == 1
    assert problems[0].where.span == Span.of(0, 0, 0, 1)
    assert problems[0].message.startswith(
        "[web01.example.com] Looking up 'a' fails: Unable to parse ("
    )
    assert problems[0].message.endswith("(the same error for 2 more keys of this file)")


def test_collections_interpolated_into_strings(tmp_path: Path) -> None:
    ws = make_workspace(
        tmp_path,
        {
            "data/common.yaml": """\
            servers: [a, b]
            whole: "%{lookup('servers')}"
            inside: "ntp: %{hiera('servers')}"
            kept: "%{alias('servers')}"
            """,
        },
    )
    problems = only(
        ws.data_problems("data/common.yaml", ws.profile(FACTS)),
        "interpolation-collection-in-string",
    )
    assert brief(problems) == [
        ("interpolation-collection-in-string", Span.of(1, 8, 1, 28)),
        ("interpolation-collection-in-string", Span.of(2, 14, 2, 33)),
    ]
    assert problems[0].message == (
        '[web01.example.com] \'servers\' is an Array: Puppet puts Ruby\'s text of it (["a", "b"]) '
        "into this "
        "string; make the whole value \"%{alias('servers')}\" to keep the Array"
    )


def test_without_a_profile_no_lookup_runs(tmp_path: Path) -> None:
    ws = make_workspace(
        tmp_path, {"data/common.yaml": "a: \"%{lookup('b')}\"\nb: \"%{lookup('a')}\"\n"}
    )
    assert {p.code for p in ws.data_problems("data/common.yaml")} == {"reference-cycle"}


def test_key_text_quotes_keys_with_dots() -> None:
    assert key_text("profile::a") == "profile::a"
    assert key_text("a.b") == '"a.b"'
    assert key_text('a."b') == "'a.\"b'"
    assert key_text("a.\"b'") is None
