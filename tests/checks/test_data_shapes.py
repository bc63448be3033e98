"""Keys and values Puppet reads otherwise than meant: a single colon in a namespaced key,
null spelt undef/nil/None, and list items written without the space after the dash."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from hiera_ls.checks import data_shapes
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


def _null_word_texts(seed: int, count: int) -> list[str]:
    """Small files with the null words everywhere a scalar can stand, and inside longer
    words, names, quotes, comments, keys, tags, anchors and flow collections."""
    rng = random.Random(seed)
    words = [
        "undef",
        "nil",
        "None",
        "Sunil",
        "nilsson",
        "Undefined",
        "None2",
        "xnil",
        "nil.",
        "\ufeffnil",
    ]
    sep = [" ", "  ", "\t", ""]

    def scalar() -> str:
        w = rng.choice(words)
        return rng.choice(
            [
                w,
                w,
                f"'{w}'",
                f'"{w}"',
                f"&a{rng.randint(0, 9)} {w}",
                f"!!str {w}",
                f"{w} x",
                f"a {w}",
                f"{w} # c",
                f"{w}#c",
                f"[{w}]",
                f"{{a: {w}}}",
                f'{{"a":{w}}}',
                f"[x,{w}]",
                f"[{w} ,x]",
                f"{{{w}: 1}}",
            ]
        )

    texts = []
    for _ in range(count):
        lines = []
        for i in range(rng.randint(1, 6)):
            kind = rng.randrange(4)
            key = rng.choice([f"k{i}", rng.choice(words)])
            if kind == 0:
                lines.append(f"{key}:{rng.choice(sep) or ' '}{scalar()}")
            elif kind == 1:
                lines.append(f"{key}:")
                lines.extend(f"  -{rng.choice(sep) or ' '}{scalar()}" for _ in range(2))
            elif kind == 2:
                lines.append(f"{key}:\n  {scalar()}")
            else:
                lines.append(f"{key}: {scalar()}\r")
        texts.append("\n".join(lines) + rng.choice(["\n", ""]))
    return texts


@pytest.mark.parametrize("seed", [0, pytest.param(1, marks=pytest.mark.slow)])
def test_null_words_found_without_walking_files_whose_words_are_inside_others(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, seed: int
) -> None:
    """The text's test of where a word can stand alone finds every file the walk would
    report on (random files), and spares the walk of one whose words are only parts."""
    count = 25 if seed == 0 else 400
    for n, text in enumerate(_null_word_texts(seed, count)):
        _, with_test = found(tmp_path / f"a{n}", text, "data-undef-string")
        with monkeypatch.context() as m:
            m.setattr(data_shapes, "_stands_alone", lambda word, text: word in text)
            _, walked = found(tmp_path / f"b{n}", text, "data-undef-string")
        assert [(p.where.span, p.message) for p in with_test] == [
            (p.where.span, p.message) for p in walked
        ], text

    def no_walk(*args: object, **kwargs: object) -> object:
        raise AssertionError("walked")

    monkeypatch.setattr(data_shapes, "iter_strings", no_walk)
    text = "users:\n  sunil:\n    realname: Sunil Nilsson\n    name: nilsson\n"
    assert found(tmp_path / "c", text, "data-undef-string")[1] == []
