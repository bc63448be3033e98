"""The YAML loader: values as Puppet sees them, the range of every node, and its problems."""

from __future__ import annotations

import math
import random

import pytest

from hiera_ls.checks.rules import RULES as CODES
from hiera_ls.puppet.values import RubySymbol
from hiera_ls.source.libyaml import backends
from hiera_ls.source.node_table import NodeSpans
from hiera_ls.source.spans import Position, Severity, Span
from hiera_ls.source.yaml_document import YamlDocument, psych_error_text
from hiera_ls.source.yaml_loader import _load, load_yaml


def load(text: str) -> YamlDocument:
    return load_yaml("/env/data/common.yaml", text)


def codes(doc: YamlDocument) -> list[str]:
    return [p.code for p in doc.problems]


# --------------------------------------------------------------------------- values


@pytest.mark.parametrize(
    ("scalar", "expected"),
    [
        ("yes", True),
        ("Yes", True),
        ("yEs", True),
        ("ON", True),
        ("oN", True),
        ("true", True),
        ("no", False),
        ("NO", False),
        ("off", False),
        ("False", False),
        ("y", "y"),
        ("n", "n"),
        ("~", None),
        ("null", None),
        ("NuLL", None),
        ("", None),
        ("0755", 493),
        ("-0755", -493),
        ("0x1F", 31),
        ("0b101", 5),
        ("1_000", 1000),
        ("1,000", 1000),
        ("08", "08"),
        ("0o17", "0o17"),
        ("1__000", "1__000"),
        ("1:30", 5400),
        ("12:30:00", 45000),
        ("-1:30", -1800),
        ("1:30.5", 5430.0),
        ("1.5", 1.5),
        (".5", 0.5),
        ("1.", 1.0),
        ("1_000.5", 1000.5),
        ("1.0e+3", 1000.0),
        ("1e3", "1e3"),
        ("1.5e3", "1.5e3"),
        (".", "."),
        (":sym", RubySymbol("sym")),
        (':"a b"', RubySymbol("a b")),
        (":'x'y", RubySymbol("x")),
        ("12345678901234567890123", 12345678901234567890123),
    ],
)
def test_plain_scalars_take_psych_types(scalar: str, expected: object) -> None:
    doc = load(f"k: {scalar}\n")
    assert doc.fatal is None
    value = doc.value["k"]  # type: ignore[index]
    assert value == expected and type(value) is type(expected)


def test_special_floats() -> None:
    doc = load("a: .inf\nb: -.Inf\nc: .NaN\nd: +.INF\n")
    v = doc.value
    assert isinstance(v, dict)
    assert v["a"] == math.inf and v["b"] == -math.inf and math.isnan(v["c"]) and v["d"] == math.inf


def test_quoted_and_block_scalars_stay_strings() -> None:
    doc = load("a: 'yes'\nb: \"0755\"\nc: |\n  1.5\nd: >\n  on\n")
    assert doc.value == {"a": "yes", "b": "0755", "c": "1.5\n", "d": "on\n"}


def test_explicit_tags_follow_psych() -> None:
    doc = load(
        "a: !!str 123\nb: !!int '12'\nc: ! '3'\nd: !!float 5\ne: !ruby/sym foo\nf: !!binary aGk=\n"
    )
    assert doc.value == {"a": "123", "b": 12, "c": 3, "d": 5.0, "e": RubySymbol("foo"), "f": "hi"}


def test_first_document_only() -> None:
    doc = load("a: 1\n---\n: broken: [\n")
    assert doc.fatal is None and doc.value == {"a": 1}


def test_empty_and_comment_only_files_have_no_value() -> None:
    for text in ("", "# nothing\n", "---\n", "~\n"):
        doc = load(text)
        assert doc.fatal is None and doc.value is None


# --------------------------------------------------------------------------- refusals


def test_unquoted_date_refuses_the_file_with_puppets_message() -> None:
    doc = load("a: 1\nwhen: 2024-01-31\n")
    assert doc.value is None and doc.fatal is not None
    assert (
        doc.fatal.message
        == "Unable to parse (/env/data/common.yaml): Tried to load unspecified class: Date"
    )
    assert doc.fatal.code == "yaml-date-rejected"
    assert doc.fatal.where.span == Span.of(1, 6, 1, 16)
    assert psych_error_text(doc) == "(/env/data/common.yaml): Tried to load unspecified class: Date"


def test_timestamp_and_ruby_object_tags_refuse_the_file() -> None:
    assert load("a: 2001-12-14 21:59:43.10 -5\n").fatal.message.endswith("class: Time")  # type: ignore[union-attr]
    doc = load("a: !ruby/object:Foo {x: 1}\n")
    assert doc.fatal is not None and doc.fatal.code == "yaml-bad-tag"
    assert doc.fatal.message.endswith("Tried to load unspecified class: Foo")


def test_syntax_error_is_worded_as_psych_and_points_at_the_problem() -> None:
    doc = load("a: 1\nb:\n  - x\n - y\n")
    assert doc.fatal is not None and doc.fatal.code == "yaml-syntax"
    assert doc.fatal.message == (
        "Unable to parse (/env/data/common.yaml): did not find expected key while parsing a block "
        "mapping at line 1 column 1"
    )
    assert doc.fatal.where.span.start == Position(3, 1)
    assert doc.fatal.severity is Severity.ERROR


def test_a_syntax_error_later_in_the_document_wins_over_an_earlier_refusal() -> None:
    doc = load("a: 2020-01-01\nb: c: d\n")
    assert doc.fatal is not None and doc.fatal.code == "yaml-syntax"


def test_unknown_alias_and_bad_numbers() -> None:
    assert load("a: *nope\n").fatal.message == "Unable to parse Unknown alias: nope"  # type: ignore[union-attr]
    bad = load("a: 0x_\n").fatal
    assert bad is not None and bad.message == 'Unable to parse invalid value for Integer(): "0x"'


# --------------------------------------------------------------------------- spans


def test_every_node_has_its_range() -> None:
    doc = load("a: 1\nb:\n  - x\n  - {c: 'q'}\n")
    nodes = doc.nodes
    assert nodes[("a",)] == NodeSpans(Span.of(0, 0, 0, 1), Span.of(0, 3, 0, 4), None)
    assert nodes[("b", 0)] == NodeSpans(None, Span.of(2, 4, 2, 5), None)
    assert nodes[("b", 1, "c")] == NodeSpans(Span.of(3, 5, 3, 6), Span.of(3, 8, 3, 11), "'")
    assert nodes[("b",)].value == Span.of(2, 2, 3, 12)  # a block collection ends at its last node
    assert nodes[()].key is None
    assert set(nodes) == {(), ("a",), ("b",), ("b", 0), ("b", 1), ("b", 1, "c")}


def test_columns_count_code_points_after_non_ascii_text() -> None:
    doc = load('é: "😀x"\nclé: été # é\nk: [é, 😀, z]\n')
    nodes = doc.nodes
    assert nodes[("é",)] == NodeSpans(Span.of(0, 0, 0, 1), Span.of(0, 3, 0, 7), '"')
    assert nodes[("clé",)].value == Span.of(1, 5, 1, 8)
    assert nodes[("k", 1)].value == Span.of(2, 7, 2, 8)
    assert nodes[("k", 2)].value == Span.of(2, 10, 2, 11)


def test_aliases_and_merges_point_at_where_values_are_written() -> None:
    doc = load("base: &b\n  x: 1\n  y: 2\nuse: *b\nnode:\n  <<: *b\n  y: 3\n")
    assert doc.value == {
        "base": {"x": 1, "y": 2},
        "use": {"x": 1, "y": 2},
        "node": {"x": 1, "y": 3},
    }
    nodes = doc.nodes
    assert nodes[("use",)].value == Span.of(3, 5, 3, 7)  # the alias itself
    assert nodes[("use", "x")].value == Span.of(1, 5, 1, 6)  # inside: the anchored definition
    assert nodes[("node", "x")].value == Span.of(1, 5, 1, 6)
    assert nodes[("node", "y")].value == Span.of(6, 5, 6, 6)
    assert ("node", "<<") not in nodes
    assert codes(doc) == []


def test_merge_lists_and_psych_order() -> None:
    doc = load("a: &a {x: 1}\nd: {x: 0, <<: [*a, {x: 9, z: 1}]}\ne: {<<: [*a, 1]}\nq: {'<<': *a}\n")
    assert doc.value == {
        "a": {"x": 1},
        "d": {"x": 1, "z": 1},
        "e": {"<<": [{"x": 1}, 1]},
        "q": {"x": 1},
    }
    assert codes(doc) == ["yaml-merge-override"]


def test_duplicate_keys_keep_the_last_value_and_are_reported() -> None:
    doc = load("a: {old: 1}\nb: 2\na: {new: 3}\n")
    assert doc.value == {"a": {"new": 3}, "b": 2}
    assert list(doc.value) == ["a", "b"]
    assert codes(doc) == ["yaml-duplicate-key"]
    assert doc.problems[0].where.span == Span.of(2, 0, 2, 1)
    assert ("a", "old") not in doc.nodes and ("a", "new") in doc.nodes


def test_recursive_alias_is_reported_and_broken() -> None:
    doc = load("a: &x {b: *x}\n")
    assert doc.value == {"a": {"b": None}}
    assert codes(doc) == ["yaml-recursive-alias"]


def test_yaml11_surprises_are_information() -> None:
    doc = load("a: yes\nb: 0755\nc: 12:30\nd: 1e3\ne: 1,000\nf: 0b11\ng: true\nh: 10\n")
    assert codes(doc) == [
        "yaml11-boolean",
        "yaml11-octal",
        "yaml11-sexagesimal",
        "yaml11-exponent-string",
        "yaml11-number-separator",
        "yaml11-binary",
    ]
    assert all(p.severity is Severity.INFORMATION for p in doc.problems)
    assert doc.problems[0].message == "Puppet reads `yes` as the Boolean true"
    assert doc.problems[1].message == "Puppet reads `0755` as the octal Integer 493"


def test_every_emitted_code_is_registered() -> None:
    texts = [
        "a: yes\na: 0755\nb: &x {c: *x}\nd: {x: 1, <<: {x: 2}}\n",
        "a: 2020-01-01\n",
        "a: [\n",
        "a: !!set {}\n",
    ]
    for text in texts:
        doc = load(text)
        for problem in (*doc.problems, *([doc.fatal] if doc.fatal else [])):
            assert problem.code in CODES
            assert problem.severity is CODES[problem.code].severity


# --------------------------------------------------------------------------- robustness


def _garbage(rng: random.Random) -> str:
    pieces = [
        "a",
        ":",
        " ",
        "\n",
        "-",
        "[",
        "]",
        "{",
        "}",
        "&x",
        "*x",
        "!!",
        "!",
        "'",
        '"',
        "|",
        ">",
        "?",
        "#",
        ",",
        "<<",
        "é",
        "😀",
        "\t",
        "\x00",
        "\x85",
        "\ufeff",
        "0x",
        "1",
        ".",
        "~",
        "%YAML 1.1",
        "---",
        "...",
        "\\",
        "\ud800",
    ]
    return "".join(rng.choice(pieces) for _ in range(rng.randint(0, 40)))


@pytest.mark.parametrize("backend", sorted(backends()))
def test_garbage_never_raises(backend: str) -> None:
    rng = random.Random(20240601)
    for _ in range(1500):
        text = _garbage(rng)
        doc = _load("g.yaml", text, backends()[backend])
        assert isinstance(doc, YamlDocument)
        if doc.fatal is not None:
            assert "hiera-ls could not load" not in doc.fatal.message, (text, doc.fatal.message)
        else:
            for path in doc.nodes:
                assert isinstance(doc.nodes[path], NodeSpans)


def test_random_bytes_never_raise() -> None:
    rng = random.Random(7)
    for _ in range(300):
        raw = bytes(rng.randrange(256) for _ in range(rng.randint(0, 60)))
        for text in (
            raw.decode("utf-8", "replace"),
            raw.decode("utf-8", "surrogateescape"),
            raw.decode("latin-1"),
        ):
            doc = load(text)
            assert isinstance(doc, YamlDocument)
            assert doc.fatal is None or "hiera-ls could not load" not in doc.fatal.message


def test_deep_nesting_and_alias_bombs_stay_bounded() -> None:
    deep = load("[" * 5000 + "]" * 5000)
    assert isinstance(deep, YamlDocument)
    lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
    lines += [f"a{i}: &a{i} [{', '.join(f'*a{i - 1}' for _ in range(10))}]" for i in range(1, 9)]
    bomb = load("\n".join(lines) + "\n")
    assert bomb.fatal is None
    assert len(bomb.nodes) < 1_000_000


def test_a_byte_order_mark_makes_psych_read_the_first_entry_only() -> None:
    """Psych hands libyaml a string: the mark is a column of the first line, so a block
    mapping ends with its first entry (Puppet 7.23: `puppet lookup a` finds nothing)."""
    doc = load_yaml("/x/c.yaml", "\ufeffb: 1\na: 2\nb: 3\n")
    assert doc.value == {"b": 1}
    (problem,) = doc.problems
    assert (
        problem.code == "yaml-byte-order-mark"
        and "every entry after it (1 more key)" in problem.message
    )
    flow = load_yaml("/x/c.yaml", "\ufeff{b: 1, a: 2}\n")
    assert flow.value == {"b": 1, "a": 2} and flow.problems == ()
