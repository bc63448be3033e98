"""lookup_options rules: exact ranges and messages.

Puppet's texts are verified in tests/differential/test_claims_vs_puppet.py.
"""

from __future__ import annotations

from pathlib import Path

from hiera_ls.checks.lookup_options import check_lookup_options
from hiera_ls.source.data_file import load_yaml_data
from hiera_ls.source.spans import Span
from tests.checks.support import MODULE_HIERA, brief, make_workspace

PATH = "/env/data/common.yaml"


def run(text: str, **kw: object) -> list[tuple[str, Span, str]]:
    problems = check_lookup_options(PATH, load_yaml_data(PATH, text), **kw)  # type: ignore[arg-type]
    return [(p.code, p.where.span, p.message) for p in problems]


def test_not_a_hash() -> None:
    assert run("lookup_options: [a]\n") == [
        (
            "lookup-options-not-hash",
            Span.of(0, 16, 0, 19),
            "Puppet fails every lookup that reads this file's lookup_options with: value of "
            "lookup_options must be a hash",
        )
    ]
    assert run("lookup_options:\n") == []  # null alone is fine


def test_entries_that_are_not_hashes() -> None:
    found = run(
        "lookup_options:\n"
        "  a1: deep\n"
        "  a2: [deep]\n"
        "  a3: 5\n"
        "  a4: true\n"
        "  a5: 'merge it'\n"
        "  a6: ~\n"
    )
    assert [(c, s) for c, s, _ in found] == [
        ("lookup-options-entry-ignored", Span.of(1, 6, 1, 10)),
        ("lookup-options-entry-not-hash", Span.of(2, 6, 2, 12)),
        ("lookup-options-entry-not-hash", Span.of(3, 6, 3, 7)),
        ("lookup-options-entry-not-hash", Span.of(4, 6, 4, 10)),
        ("lookup-options-entry-not-hash", Span.of(5, 6, 5, 16)),
    ]
    messages = [m for _, _, m in found]
    assert messages[0] == (
        "Puppet ignores the String 'deep' here: the options for 'a1' must be a hash, e.g. "
        "{merge: deep}"
    )
    assert messages[1].endswith("fails with: no implicit conversion of String into Integer")
    assert messages[2].endswith("fails with: no implicit conversion of String into Integer")
    assert messages[3].endswith("fails with: undefined method `[]' for true:TrueClass")
    assert messages[4].endswith("lookups of the key fail with: Unknown merge strategy: 'merge'")


def test_unknown_option_names_point_at_the_option() -> None:
    assert run("lookup_options:\n  a:\n    marge: deep\n    convert_to: Array\n") == [
        (
            "lookup-options-unknown-option",
            Span.of(2, 4, 2, 9),
            "Puppet ignores the option 'marge': lookup_options entries know only merge and "
            "convert_to",
        )
    ]


def test_unknown_merge_strategy() -> None:
    assert run("lookup_options:\n  a: {merge: bogus}\n") == [
        (
            "lookup-options-unknown-merge",
            Span.of(1, 13, 1, 18),
            "Every lookup of 'a' fails with: Unknown merge strategy: 'bogus' (the strategies are "
            "first, unique, hash and deep)",
        )
    ]
    [(code, span, message)] = run("lookup_options:\n  a:\n    merge:\n      knockout_prefix: x\n")
    assert code == "lookup-options-unknown-merge"
    assert span == Span.of(3, 6, 3, 24)
    assert (
        "The hash given as 'merge' must contain the name of a strategy in string form for the key "
        "'strategy'" in message
    )


def test_deep_options_with_wrong_types_or_on_other_strategies() -> None:
    found = run(
        "lookup_options:\n"
        "  a: {merge: {strategy: hash, knockout_prefix: '--'}}\n"
        "  b: {merge: {strategy: deep, knockout_prefix: 5}}\n"
        "  c: {merge: {strategy: deep, sort_merged_arrays: 'yes'}}\n"
        "  d: {merge: {strategy: deep, merge_hash_arrays: true, merge_debug: false}}\n"
    )
    assert found == [
        (
            "lookup-options-merge-options",
            Span.of(1, 30, 1, 45),
            "Every lookup of 'a' fails with: The merge options has wrong type, unrecognized key "
            "'knockout_prefix' (knockout_prefix, sort_merged_arrays, merge_hash_arrays and "
            "merge_debug are options of the deep strategy only, not of hash)",
        ),
        (
            "lookup-options-merge-options",
            Span.of(2, 47, 2, 48),
            "Every lookup of 'b' fails with: The merge options has wrong type, entry "
            "'knockout_prefix' expects a value of type Undef or String, got Integer",
        ),
        (
            "lookup-options-merge-options",
            Span.of(3, 50, 3, 55),
            "Every lookup of 'c' fails with: The merge options has wrong type, entry "
            "'sort_merged_arrays' expects a value of type Undef or Boolean, got String",
        ),
    ]


def test_bad_regex_in_rubys_words() -> None:
    assert run('lookup_options:\n  "^a(": {merge: unique}\n  "^[": {merge: unique}\n') == [
        (
            "lookup-options-bad-regex",
            Span.of(1, 2, 1, 7),
            "Puppet cannot compile this pattern, so every lookup fails with: end pattern with "
            "unmatched parenthesis: /^a(/",
        ),
        (
            "lookup-options-bad-regex",
            Span.of(2, 2, 2, 6),
            "Puppet cannot compile this pattern, so every lookup fails with: premature end of "
            "char-class: /^[/",
        ),
    ]


def test_ruby_only_constructs_are_not_reported() -> None:
    # Onigmo accepts these; the regex module does not: no false error.
    for pattern in (r"^(?<n>a)\k<n>", r"^\e", r"^\cA", r"^(?~abc)", r"^\Q.\E"):
        assert run(f"lookup_options:\n  '{pattern}': {{merge: unique}}\n") == [], pattern


def test_keys_that_look_like_patterns_without_the_caret() -> None:
    found = run(
        "lookup_options:\n  'profile::.*': {merge: deep}\n  'a|b': {merge: deep}\n"
        "  profile::base::users: {merge: deep}\n"
    )
    assert [(c, s) for c, s, _ in found] == [
        ("lookup-options-literal-pattern", Span.of(1, 2, 1, 15)),
        ("lookup-options-literal-pattern", Span.of(2, 2, 2, 7)),
    ]
    assert found[0][2] == (
        "'profile::.*' looks like a regular expression, but Puppet compares it with key names as "
        "plain text (only keys that start with ^ are patterns): write '^profile::.*' if you mean a "
        "pattern"
    )


def test_module_namespace() -> None:
    text = (
        'lookup_options:\n  other::x: {merge: unique}\n  "^other::": {merge: unique}\n'
        '  "^(mymod::a|mymod::b)": {}\n  mymod::x: {merge: unique}\n  "^mymod::": {merge: unique}\n'
    )
    found = run(text, module_name="mymod")
    assert [(c, s) for c, s, _ in found] == [
        ("lookup-options-module-namespace", Span.of(1, 2, 1, 10)),
        ("lookup-options-module-namespace", Span.of(2, 2, 2, 12)),
        ("lookup-options-module-namespace", Span.of(3, 2, 3, 24)),
    ]
    assert found[0][2].startswith(
        "Puppet fails every lookup of this module's keys with: all lookup_options keys must start "
        "with module name 'mymod'"
    )
    assert found[1][2].startswith(
        "Puppet fails every lookup of this module's keys with: all lookup_options patterns must "
        "match a key starting with module name 'mymod'"
    )


def test_unused_pattern_needs_the_set_of_keys() -> None:
    text = 'lookup_options:\n  "^profile::": {merge: deep}\n  "^nothing::": {merge: deep}\n'
    assert run(text) == []
    assert run(text, all_keys={"profile::a", "b"}) == [
        (
            "lookup-options-unused-pattern",
            Span.of(2, 2, 2, 14),
            "The pattern ^nothing:: matches no key of the data this environment can load, so these "
            "options apply to nothing",
        )
    ]


def test_in_a_workspace_module_rules_apply_only_to_module_data(tmp_path: Path) -> None:
    ws = make_workspace(
        tmp_path,
        {
            "data/common.yaml": "lookup_options:\n  other::x: {merge: unique}\nother::x: [1]\n",
            "modules/mymod/hiera.yaml": MODULE_HIERA,
            "modules/mymod/data/common.yaml": (
                "lookup_options:\n  other::x: {merge: unique}\nmymod::x: 1\n"
            ),
        },
    )
    assert ws.data_problems("data/common.yaml") == []
    assert brief(ws.data_problems("modules/mymod/data/common.yaml")) == [
        ("lookup-options-module-namespace", Span.of(1, 2, 1, 10))
    ]
