"""Interpolation-token rules: exact ranges and the messages a user sees.

Each Puppet behaviour quoted in a message is checked against Puppet itself in
tests/differential/test_claims_vs_puppet.py.
"""

from __future__ import annotations

from pathlib import Path

from hiera_ls.checks.interpolation import token_problems
from hiera_ls.source.spans import Severity, Span
from tests.checks.support import brief, make_workspace, only

PATH = "/env/data/common.yaml"


def identity(start: int, end: int) -> Span:
    """Offsets as columns of line 0: enough to test the rules without a file."""
    return Span.of(0, start, 0, end)


def check(value: str, **kw: object) -> list[tuple[str, str]]:
    return [(p.code, p.message) for p in token_problems(value, identity, PATH, **kw)]  # type: ignore[arg-type]


def test_spaces_inside_the_parentheses_are_a_syntax_error() -> None:
    [(code, message)] = check("%{lookup( 'a' )}")
    assert code == "interpolation-syntax-error"
    assert message == (
        "Puppet fails the lookup with: Syntax error in string: %{lookup( 'a' )}. "
        "A call takes one quoted argument with no spaces inside the parentheses: %{lookup('a')}"
    )


def test_two_arguments_and_an_empty_argument_are_syntax_errors() -> None:
    assert check("%{lookup('a','b')}")[0][0] == "interpolation-syntax-error"
    assert check("%{lookup('')}")[0][0] == "interpolation-syntax-error"
    assert "exactly one non-empty quoted argument" in check("%{lookup('a','b')}")[0][1]


def test_brackets_are_not_a_variable_path() -> None:
    [(code, message)] = check("%{facts['os']}")
    assert code == "interpolation-syntax-error"
    assert message.endswith("Dig into a variable with dots, not brackets: e.g. %{facts.os.family}")


def test_a_bad_key_in_a_lookup_is_a_syntax_error_in_key() -> None:
    assert check("%{lookup('a..b')}") == [
        ("interpolation-syntax-error", "Puppet fails the lookup with: Syntax error in key: 'a..b'")
    ]


def test_unknown_method_and_case() -> None:
    [(code, message)] = check("%{nosuch('x')}")
    assert code == "interpolation-unknown-method"
    assert message == (
        "Puppet fails the lookup with: Unknown interpolation method 'nosuch' "
        "(the methods are alias, hiera, literal, lookup and scope)"
    )
    assert check("%{Lookup('a')}")[0][1].endswith("method names are case-sensitive: write lookup")


def test_alias_must_be_the_whole_string() -> None:
    [(code, message)] = check("x%{alias('a')}")
    assert code == "interpolation-alias-not-whole"
    assert message.startswith(
        "Puppet fails the lookup with: 'alias' interpolation is only permitted if the expression "
        "is equal to the entire string."
    )
    assert check("%{alias('a')}") == []
    assert check("%{ alias('a') }") == []  # spaces inside the braces are fine


def test_unterminated_token_is_kept_literally() -> None:
    problems = token_problems("ok %{a} then %{b", identity, PATH)
    [unterminated] = only(problems, "interpolation-unterminated")
    assert unterminated.where.span == Span.of(0, 13, 0, 16)
    assert unterminated.severity is Severity.WARNING
    assert "Puppet does not interpolate it and keeps the text as it is" in unterminated.message


def test_literal_with_another_argument_than_percent() -> None:
    assert check("%{literal('%')}{x}") == []
    [(code, message)] = check("%{literal('ab')}")
    assert code == "interpolation-literal-argument"
    assert message.startswith("%{literal('ab')} is just the text 'ab'")


def test_unquoted_argument_reads_a_variable() -> None:
    [(code, message)] = check("%{lookup(a)}")
    assert code == "interpolation-unquoted-argument"
    assert message == (
        "Puppet reads `lookup(a)` as the name of a variable, not as a call of lookup(): with "
        "strict_variables the lookup fails with Undefined variable 'lookup(a)', otherwise it gives "
        "''. Quote the argument: %{lookup('a')}"
    )


def test_another_tools_syntax_is_no_variable_and_is_not_told_to_use_top_scope() -> None:
    # Logstash/Filebeat settings kept in Hiera (seen in example42/psick's data)
    [(code, message)] = check("filebeat-%{[beat.version]}-%{+yyyy.MM.dd}")[:1]
    assert code == "interpolation-not-a-variable"
    assert "Undefined variable '[beat'" in message and "%{literal('%')}{[beat.version]}" in message
    assert [c for c, _ in check("%{+yyyy.MM.dd}")] == ["interpolation-not-a-variable"]
    assert [c for c, _ in check("%{my-fact}")] == [
        "interpolation-top-scope-variable"
    ]  # facts may hold '-'


def test_bare_top_scope_variables() -> None:
    [(code, message)] = check("%{osfamily}")
    assert code == "interpolation-top-scope-variable"
    assert (
        "write %{::osfamily} for the top-scope variable, or %{facts.os.family} for the fact"
        in message
    )
    assert check("%{os.family}")[0][1].endswith("%{facts.os.family} for the fact")
    assert check("%{role}")[0][1].endswith("%{facts.role} for the fact")
    assert check("%{scope('osfamily')}")[0][0] == "interpolation-top-scope-variable"
    for fine in (
        "%{::osfamily}",
        "%{facts.os.family}",
        "%{trusted.certname}",
        "%{::trusted.certname}",
        "%{server_facts.serverversion}",
        "%{environment}",
        "%{module_name}",
        "%{}",
        "%%{}{x}",
        "%{lookup('a')}",
        "%{scope('::x')}",
    ):
        assert check(fine) == [], fine
    assert [code for code, _ in check("%{hiera('a')}")] == ["hiera-function"]  # a hint only


def test_mapped_paths_local_variable_is_not_a_top_scope_variable() -> None:
    assert check("dc/%{dc}.yaml", config=True, local_variable="dc") == []
    assert check("dc/%{dc}.yaml", config=True)[0][0] == "interpolation-top-scope-variable"


def test_method_calls_in_hiera_yaml_are_left_to_hiera_config() -> None:
    assert check("%{lookup('a')}", config=True) == []
    assert check("%{nosuch('a')}", config=True) == []


def test_ranges_in_a_data_file_with_a_non_ascii_prefix(tmp_path: Path) -> None:
    ws = make_workspace(
        tmp_path,
        {
            "data/common.yaml": """\
            motd: "Bienvenue sur l'hôte 🖥 %{lookup( 'a' )} — %{osfamily}"
            "%{nosuch('k')}": 1
            single: 'ça %{x'
            block: |
              été %{Lookup('a')}
            a: A
            """,
        },
    )
    problems = ws.data_problems("data/common.yaml")
    assert brief(problems) == [
        ("interpolation-syntax-error", Span.of(0, 30, 0, 46)),
        ("interpolation-top-scope-variable", Span.of(0, 49, 0, 60)),
        ("interpolation-unknown-method", Span.of(1, 1, 1, 15)),
        ("interpolation-unterminated", Span.of(2, 12, 2, 15)),
        ("interpolation-unknown-method", Span.of(4, 6, 4, 20)),
    ]
    assert problems[0].message.startswith(
        "Puppet fails the lookup with: Syntax error in string: Bienvenue sur l'hôte 🖥 %{lookup( "
        "'a' )} — %{osfamily}."
    )


def test_alias_of_a_scalar_reports_once_at_the_anchor(tmp_path: Path) -> None:
    ws = make_workspace(tmp_path, {"data/common.yaml": 'a: &x "%{osfamily}"\nb: *x\n'})
    assert brief(ws.data_problems("data/common.yaml")) == [
        ("interpolation-top-scope-variable", Span.of(0, 7, 0, 18))
    ]


def test_unquoted_token_in_a_plain_value_explains_the_yaml_error(tmp_path: Path) -> None:
    ws = make_workspace(tmp_path, {"data/common.yaml": "a: 1\nkey: %{facts.os.family}\n"})
    [found] = ws.data_problems("data/common.yaml")
    assert found.code == "interpolation-unquoted"
    assert found.where.span == Span.of(1, 5, 1, 23)
    assert found.message == (
        'A plain YAML value cannot start with `%`: put the whole value in quotes (key: "%{...}"). '
        f"Puppet cannot load this file: Unable to parse ({ws.path('data/common.yaml')}): found "
        "character "
        "that cannot start any token while scanning for the next token at line 2 column 6"
    )


def test_unquoted_token_in_sequences_flow_and_keys(tmp_path: Path) -> None:
    cases = {
        "data/a.yaml": ("a:\n  - %{x}\n", Span.of(1, 4, 1, 8)),
        "data/b.yaml": ("a: [%{x}]\n", Span.of(0, 4, 0, 8)),
        "data/c.yaml": ("%{x}: 1\n", Span.of(0, 0, 0, 4)),
        "data/d.yaml": ("a:\n  b: 1\n  %{x}: 2\n", Span.of(2, 2, 2, 6)),
    }
    ws = make_workspace(tmp_path, {rel: text for rel, (text, _) in cases.items()})
    for rel, (_, span) in cases.items():
        [found] = ws.data_problems(rel)
        assert (found.code, found.where.span) == ("interpolation-unquoted", span), rel


def test_other_yaml_errors_are_left_alone(tmp_path: Path) -> None:
    ws = make_workspace(
        tmp_path, {"data/common.yaml": "a: 1\n  %{x}: 2\n", "data/b.yaml": 'a: "%{x}" y\n'}
    )
    assert [p.code for p in ws.data_problems("data/common.yaml")] == ["yaml-syntax"]
    assert [p.code for p in ws.data_problems("data/b.yaml")] == ["yaml-syntax"]


def test_json_data_tokens(tmp_path: Path) -> None:
    hiera = "version: 5\nhierarchy:\n  - name: c\n    data_hash: json_data\n    path: common.json\n"
    ws = make_workspace(
        tmp_path, {"hiera.yaml": hiera, "data/common.json": '{"a": "\\u00e9 %{osfamily}"}'}
    )
    assert brief(ws.data_problems("data/common.json")) == [
        ("interpolation-top-scope-variable", Span.of(0, 14, 0, 25))
    ]


def test_qualified_class_variables_are_not_top_scope_variables() -> None:
    """Wikimedia's data reads class variables by their full name (``$passwords::...``): no
    local variable can hide them, and ``%{facts.passwords::...}`` would be wrong advice."""
    assert check("%{passwords::cassandra::super_password}") == []
    assert check("%{scope('passwords::cassandra::super_password')}") == []


def test_a_variable_a_node_definition_sets_is_read_from_node_scope() -> None:
    # node default { $role = ... } (tvories/control-repo's site.pp): %{role} reads it there;
    # %{::role} (top scope) and %{facts.role} would not, so neither is offered
    assert check("role/%{role}.yaml", config=True, node_scope=frozenset({"role"})) == []
    assert check("%{role}", node_scope=frozenset({"role"})) == []
    assert check("%{osfamily}", node_scope=frozenset({"osfamily"})) == []
    assert [c for c, _ in check("dc/%{dc}.yaml", config=True, node_scope=frozenset({"role"}))] == [
        "interpolation-top-scope-variable"
    ]
