"""Value offsets -> source positions, for every scalar style Puppet data uses.

The loader gives each scalar's range and style; tokens are found in the value.  These tests
load real YAML with the project's loader (libyaml, as Puppet's Psych) and check that the
range computed for a token covers exactly the token's source text, through escapes, quotes,
folded lines, block scalars and non-ASCII text before the token.
"""

from __future__ import annotations

import itertools
import random

import pytest

from hiera_ls.source.data_file import load_json_data
from hiera_ls.source.spans import Span
from hiera_ls.source.string_positions import ScalarMap, SourceLines, infer_style, map_scalar
from hiera_ls.source.yaml_loader import load_yaml


def scalar_map(
    text: str, path: tuple[object, ...], key: bool = False
) -> tuple[str, ScalarMap | None]:
    doc = load_yaml("t.yaml", text)
    assert doc.fatal is None, doc.fatal
    spans = doc.nodes[path]
    lines = SourceLines(text)
    if key:
        value = path[-1]
        assert isinstance(value, str) and spans.key is not None
        return value, map_scalar(lines, spans.key, infer_style(lines, spans.key), value)
    value = doc.value
    for step in path:
        value = value[step]  # type: ignore[index]
    assert isinstance(value, str)
    return value, map_scalar(lines, spans.value, spans.style, value)


def token_span(
    text: str, path: tuple[object, ...], token: str, key: bool = False, nth: int = 0
) -> Span:
    value, mapped = scalar_map(text, path, key)
    assert mapped is not None, f"no map for {value!r}"
    start = -1
    for _ in range(nth + 1):
        start = value.index(token, start + 1)
    return mapped.span(start, start + len(token))


def source_of(text: str, span: Span) -> str:
    lines = SourceLines(text)
    if span.start.line == span.end.line:
        return lines.line(span.start.line)[span.start.column : span.end.column]
    parts = [lines.line(span.start.line)[span.start.column :]]
    parts += [lines.line(n) for n in range(span.start.line + 1, span.end.line)]
    parts.append(lines.line(span.end.line)[: span.end.column])
    return "\n".join(parts)


# --------------------------------------------------------------------------- each style


def test_plain_scalar() -> None:
    text = "a: plain %{x} text\n"
    assert token_span(text, ("a",), "%{x}") == Span.of(0, 9, 0, 13)


def test_plain_scalar_folded_over_lines() -> None:
    text = "a: first\n  second %{x}\n\n  third %{y}\n"
    assert token_span(text, ("a",), "%{x}") == Span.of(1, 9, 1, 13)
    assert token_span(text, ("a",), "%{y}") == Span.of(3, 8, 3, 12)


def test_single_quoted_with_doubled_quote() -> None:
    text = "a: 'it''s %{x}'\n"
    assert token_span(text, ("a",), "%{x}") == Span.of(0, 10, 0, 14)


def test_double_quoted_escapes_before_the_token() -> None:
    text = 'a: "\\" \\\\ \\u00e9 \\x41 \\t %{lookup(\'k\')}"\n'
    span = token_span(text, ("a",), "%{lookup('k')}")
    assert source_of(text, span) == "%{lookup('k')}"
    assert span == Span.of(0, 25, 0, 39)


def test_double_quoted_escape_inside_the_token() -> None:
    # \u0078 is 'x': the value holds %{x}, the source six characters more.
    text = 'a: "é %{\\u0078}"\n'
    span = token_span(text, ("a",), "%{x}")
    assert span == Span.of(0, 6, 0, 15)
    assert source_of(text, span) == "%{\\u0078}"


def test_double_quoted_eight_digit_escape() -> None:
    text = 'a: "\\U0001F600 %{x}"\n'
    assert token_span(text, ("a",), "%{x}") == Span.of(0, 15, 0, 19)


def test_double_quoted_folded_and_escaped_line_breaks() -> None:
    text = 'a: "one  \n    two %{x}\\\n    three %{y}"\n'
    value, _ = scalar_map(text, ("a",))
    assert value == "one two %{x}three %{y}"
    assert token_span(text, ("a",), "%{x}") == Span.of(1, 8, 1, 12)
    assert token_span(text, ("a",), "%{y}") == Span.of(2, 10, 2, 14)


def test_quoted_scalar_with_empty_lines_keeps_newlines() -> None:
    text = "a: 'one\n\n\n  two %{x}'\n"
    value, _ = scalar_map(text, ("a",))
    assert value == "one\n\ntwo %{x}"
    assert token_span(text, ("a",), "%{x}") == Span.of(3, 6, 3, 10)


def test_literal_block_scalar() -> None:
    text = "a: |\n  line %{x}\n    deeper %{y}\n"
    assert token_span(text, ("a",), "%{x}") == Span.of(1, 7, 1, 11)
    assert token_span(text, ("a",), "%{y}") == Span.of(2, 11, 2, 15)


def test_folded_block_scalar_with_paragraphs_and_more_indented_lines() -> None:
    text = "a: >\n  one %{x}\n  two\n\n  para %{y}\n    code %{z}\n  back\n"
    value, _ = scalar_map(text, ("a",))
    assert value == "one %{x} two\npara %{y}\n  code %{z}\nback\n"
    assert token_span(text, ("a",), "%{x}") == Span.of(1, 6, 1, 10)
    assert token_span(text, ("a",), "%{y}") == Span.of(4, 7, 4, 11)
    assert token_span(text, ("a",), "%{z}") == Span.of(5, 9, 5, 13)


@pytest.mark.parametrize("header", ["|-", "|+", ">-", ">+", "|2", ">2-", "|+2"])
def test_block_scalar_headers(header: str) -> None:
    text = f"k:\n  a: {header}\n    x %{{v}}\n\n  b: 1\n"
    assert token_span(text, ("k", "a"), "%{v}") == Span.of(2, 6, 2, 10)


def test_hash_keys_in_every_quoting() -> None:
    text = "\"%{a}\": 1\n'%{b}''s': 2\nk%{c}: 3\n"
    assert token_span(text, ("%{a}",), "%{a}", key=True) == Span.of(0, 1, 0, 5)
    assert token_span(text, ("%{b}'s",), "%{b}", key=True) == Span.of(1, 1, 1, 5)
    assert token_span(text, ("k%{c}",), "%{c}", key=True) == Span.of(2, 1, 2, 5)


def test_non_ascii_prefix_counts_code_points() -> None:
    # Columns count code points: 'é' and '🖥' are one column each (the server converts to UTF-16).
    text = 'motd: "Bienvenue sur l\'hôte 🖥 %{facts.hostname}"\n'
    assert token_span(text, ("motd",), "%{facts.hostname}") == Span.of(0, 30, 0, 47)


def test_anchor_and_tag_before_the_scalar() -> None:
    text = 'a: &anc !!str "x %{y}"\nb: &other\n  "z %{w}"\n'
    assert token_span(text, ("a",), "%{y}") == Span.of(0, 17, 0, 21)
    assert token_span(text, ("b",), "%{w}") == Span.of(2, 5, 2, 9)


def test_second_occurrence_and_crlf_and_bom() -> None:
    text = '\ufeffa: "x %{y}\r\n  and %{y}"\r\n'
    assert token_span(text, ("a",), "%{y}", nth=1) == Span.of(1, 6, 1, 10)


def test_sequence_items_in_flow_style() -> None:
    text = "a: [\"x %{y}\", 'q %{z}']\n"
    assert token_span(text, ("a", 0), "%{y}") == Span.of(0, 7, 0, 11)
    assert token_span(text, ("a", 1), "%{z}") == Span.of(0, 17, 0, 21)


def test_json_strings_with_escapes_and_surrogate_pairs() -> None:
    text = '{"k": "\\ud83d\\ude00 \\"q\\" \\u00e9 %{x}", "\\u0025{y}": 1}'
    data = load_json_data("t.json", text)
    lines = SourceLines(text, json=True)
    spans = data.nodes[("k",)]
    value = data.data["k"]
    assert isinstance(value, str)
    mapped = map_scalar(lines, spans.value, spans.style, value, json=True)
    assert mapped is not None
    start = value.index("%{x}")
    assert mapped.span(start, start + 4) == Span.of(0, 33, 0, 37)
    key_spans = data.nodes[("%{y}",)]
    assert key_spans.key is not None
    key_map = map_scalar(lines, key_spans.key, '"', "%{y}", json=True)
    assert key_map is not None
    assert key_map.span(0, 4) == Span.of(0, 41, 0, 50)


def test_a_replay_that_disagrees_with_the_value_gives_no_map() -> None:
    text = 'a: "x %{y}"\n'
    doc = load_yaml("t.yaml", text)
    spans = doc.nodes[("a",)]
    assert map_scalar(SourceLines(text), spans.value, spans.style, "something else") is None


# --------------------------------------------------------------------------- generated


ALPHABET = ["a", "é", "🖥", " ", "'", '"', "\\", "%{x}", "%{lookup('k')}", ":", "#", "\t", "-", "}"]


def _double(value: str, rng: random.Random) -> str:
    out = []
    for ch in value:
        if ch == '"':
            out.append('\\"')
        elif ch == "\\":
            out.append("\\\\")
        elif ch == "\t":
            out.append("\\t")
        elif ch == "é":
            out.append(rng.choice(["é", "\\u00e9", "\\xe9", "\\U000000e9"]))
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


def _single(value: str) -> str:
    return "'" + value.replace("'", "''") + "'"


def _folded_lines(words: list[str]) -> str:
    return "\n    ".join(words)


@pytest.mark.parametrize("seed", range(40))
def test_generated_scalars_map_every_character_to_its_source(seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(25):
        value = "".join(rng.choice(ALPHABET) for _ in range(rng.randint(1, 12))).strip(" \t")
        if not value or ("\t" in value and rng.random() < 0.5):
            continue
        for emitted in (_double(value, rng), _single(value.replace("\t", " "))):
            text = f"key: {emitted}\n"
            doc = load_yaml("t.yaml", text)
            if doc.fatal is not None:
                continue
            loaded = doc.value["key"]  # type: ignore[index]
            if not isinstance(loaded, str) or not loaded:
                continue
            _assert_maps_back(text, ("key",), loaded)
        words = [w for w in value.replace("\t", " ").split(" ") if w]
        if len(words) > 1:
            folded = (
                "key: "
                + _double(" ".join(words[:1]), rng)[:-1]
                + "\n    "
                + _folded_lines(words[1:])
                + '"\n'
            )
            doc = load_yaml("t.yaml", folded)
            if doc.fatal is None and isinstance(doc.value["key"], str):  # type: ignore[index]
                _assert_maps_back(folded, ("key",), doc.value["key"])  # type: ignore[index]
        block = "key: |\n" + "".join(f"  {line}\n" for line in value.replace("\t", " ").split("}"))
        doc = load_yaml("t.yaml", block)
        if doc.fatal is None and isinstance(doc.value["key"], str) and doc.value["key"]:  # type: ignore[index]
            _assert_maps_back(block, ("key",), doc.value["key"])  # type: ignore[index]


def _assert_maps_back(text: str, path: tuple[object, ...], value: str) -> None:
    doc = load_yaml("t.yaml", text)
    spans = doc.nodes[path]
    lines = SourceLines(text)
    mapped = map_scalar(lines, spans.value, spans.style, value)
    assert mapped is not None, (text, value)
    for i, ch in enumerate(value):
        start, end = mapped.start(i), mapped.end(i)
        if start.line == end.line and end.column == start.column + 1:
            # a character copied as is: it is the source character at that position
            assert lines.line(start.line)[start.column] == ch, (text, i)
    for i, j in itertools.pairwise(range(len(value))):
        assert mapped.start(i) <= mapped.start(j), (text, i)
