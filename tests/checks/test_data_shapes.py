"""Keys and values Puppet reads otherwise than meant: a single colon in a namespaced key,
null spelt undef/nil/None, and list items written without the space after the dash."""

from __future__ import annotations

from pathlib import Path

from hiera_ls.checks.fixes import fixes_for
from hiera_ls.checks.registry import check_data_file
from hiera_ls.project.code_index import CodeIndex
from hiera_ls.source.manifest_model import LookupCall, LookupFunction
from hiera_ls.source.spans import Problem, Span
from hiera_ls.source.text_edits import apply_edits
from hiera_ls.source.yaml_loader import load_yaml
from tests.checks.support import Workspace, make_workspace, only
from tests.checks.test_class_parameters import AT, define, index, param


def found(
    tmp_path: Path, text: str, rule: str, code: CodeIndex | None = None
) -> tuple[Workspace, list[Problem]]:
    ws = make_workspace(tmp_path, {"data/common.yaml": text})
    problems = check_data_file(ws.index, ws.source("data/common.yaml"), None, ws.env, code)
    return ws, only(problems, rule)


def fixed(problem: Problem, text: str) -> str | None:
    fixes = [f for f in fixes_for(problem, text) if not f.title.startswith("Disable")]
    return apply_edits(text, fixes[0].edits) if fixes else None


# ------------------------------------------------------------------ data-key-single-colon


def test_a_single_colon_in_a_namespaced_key_is_flagged_without_its_module(tmp_path: Path) -> None:
    text = "profile::base:ntp_servers: [a]\n'ntp::servers:': [b]\nplain:key: 1\nntp::ok: 2\n"
    _, problems = found(tmp_path, text, "data-key-single-colon")
    assert [p.details.key for p in problems] == ["profile::base:ntp_servers", "ntp::servers:"]
    first, second = problems
    assert first.where.span == Span.of(0, 0, 0, 25)
    assert "automatic parameter lookup" in first.message
    assert "Did you mean 'profile::base::ntp_servers'?" in first.message
    assert fixed(first, text) == text.replace("base:ntp", "base::ntp")
    assert fixed(second, text) == text.replace("'ntp::servers:'", "'ntp::servers'")


def test_a_key_code_or_data_looks_up_as_written_is_reachable(tmp_path: Path) -> None:
    text = "a::b:c: 1\nd::e:f: 2\nuses: \"%{lookup('d::e:f')}\"\n"
    call = LookupCall(LookupFunction.LOOKUP, "/code/site.pp", AT, "a::b:c")
    _, problems = found(tmp_path, text, "data-key-single-colon", code=index(lookups=(call,)))
    assert problems == []


# ---------------------------------------------------------------------- data-undef-string


def test_undef_nil_and_none_as_plain_values_are_strings(tmp_path: Path) -> None:
    text = (
        "profile::user::home: undef\n"
        "list:\n"
        "  - nil\n"
        "  - None\n"
        "  - 'undef'\n"  # quoted: the String is meant
        "  - none\n"  # a common word, not a null of any language
        "  - ~\n"
        "undef: key\n"  # a key is a name, not a value
        "nested: {a: None}\n"
    )
    _, problems = found(tmp_path, text, "data-undef-string")
    assert [(p.where.span.start.line, p.details.key) for p in problems] == [
        (0, "profile::user::home"),
        (2, "list"),
        (3, "list"),
        (8, "nested"),
    ]
    assert problems[0].message.startswith("'undef' is not YAML's null: Puppet reads the String")
    assert fixed(problems[0], text) == text.replace("home: undef", "home: ~")
    assert fixed(problems[1], text) == text.replace("- nil", "- ~")
    assert load_yaml("t.yaml", fixed(problems[3], text) or "").value["nested"] == {"a": None}


def test_a_word_the_parameters_enum_lists_is_meant(tmp_path: Path) -> None:
    code = index(define("profile::auth", param("mode", "Enum['None', 'Basic']", "'Basic'")))
    text = "profile::auth::mode: None\nprofile::auth::other: None\n"
    _, problems = found(tmp_path, text, "data-undef-string", code=code)
    assert [p.details.key for p in problems] == ["profile::auth::other"]


# ----------------------------------------------------------------- data-dash-without-space

DASHES = """\
p1:
  -vim
  -git
p2:
  -vim
  - git
p3:
  - vim
    -git
java_opts: -Xmx2g
items:
  - -x
  - --long
users:
  alice:
    groups:
      - wheel
  bob:
    groups: -wheel
"""


def test_a_dash_without_its_space_reads_a_string(tmp_path: Path) -> None:
    _, problems = found(tmp_path, DASHES, "data-dash-without-space")
    shown = [(p.where.span.start.line, p.details.place, p.message) for p in problems]
    assert shown == [
        (
            1,
            ("p1",),
            "Puppet reads the String '-vim -git': YAML starts a list item only at a dash "
            "followed by a space ('- item')",
        ),
        (
            4,
            ("p2",),
            "Puppet reads the String '-vim - git': YAML starts a list item only at a dash "
            "followed by a space ('- item')",
        ),
        (
            7,
            ("p3", 0),
            "Puppet reads the String 'vim -git': a line of it starts with a dash and no space, "
            "so YAML joined that line to the text above it instead of starting a list item",
        ),
        (
            18,
            ("users", "bob", "groups"),
            "Puppet reads the String '-wheel': YAML starts a list item only at a dash followed "
            "by a space ('- item'); the same key holds a list in 1 neighbouring entry",
        ),
    ]
    p1, p2, p3, bob = problems
    for problem in (p1, p2):
        result = fixed(problem, DASHES)
        assert result is not None
        assert load_yaml("t.yaml", result).value[problem.details.key] == ["vim", "git"]
    # no fix where a space would not make the list: the joined line, a value on its key's line
    assert fixed(p3, DASHES) is None
    assert fixed(bob, DASHES) is None


def test_dash_values_of_json_files_are_not_judged(tmp_path: Path) -> None:
    ws = make_workspace(tmp_path, {"data/common.json": '{"p": "-vim -git", "q": "undef"}'})
    problems = check_data_file(ws.index, ws.source("data/common.json"), None, ws.env)
    assert [p.code for p in problems if p.code.startswith("data-")] == []
