"""Only real YAML comments are comments: not a '#' in a quoted string or a block scalar."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from hiera_ls.source.yaml_comments import Comment, yaml_comments
from tests.examples import examples

TEXT = """\
# a comment on its own line
a: "x # in a double-quoted string"  # after a value
b: 'it''s # in a single-quoted string' # after a quoted value
c: |
  # a line of a block scalar
  text # still the block scalar
d: >-
  folded # text
# after the block scalar
e: a#b
f: |  # on the block scalar's header
  x
g: [1, "# in a flow sequence"] # after a flow sequence
h:
  - x   # in a sequence
"""


def test_comments_are_found_where_the_scanner_skips_them_and_nowhere_else() -> None:
    found = [(c.line, c.text.strip(), c.own_line) for c in yaml_comments(TEXT)]
    assert found == [
        (0, "a comment on its own line", True),
        (1, "after a value", False),
        (2, "after a quoted value", False),
        (8, "after the block scalar", True),
        (10, "on the block scalar's header", False),
        (12, "after a flow sequence", False),
        (14, "in a sequence", False),
    ]


def test_the_column_is_the_hash_sign_in_code_points() -> None:
    (comment,) = yaml_comments('k: "é" # c\n')
    assert comment == Comment(0, 7, " c", False)


def test_a_tab_before_the_comment_is_accepted_as_libyaml_does() -> None:
    assert [c.text for c in yaml_comments("k: v\t# c\n")] == [" c"]


def test_after_a_syntax_error_lines_are_read_one_by_one() -> None:
    text = 'a: [1, 2\nb: "# not" # yes\n  - : : bad\nc: 1 # later\n'
    found = [(c.line, c.text.strip()) for c in yaml_comments(text)]
    assert (3, "later") in found
    assert all(t != "not" for _, t in found)


def test_no_text_makes_it_raise() -> None:
    for text in ["", "\ufeff# bom\n", "%YAML 1.1 # directive\n---\na: 1\n", "\x00", "a: *x # c"]:
        yaml_comments(text)


def test_the_scan_may_stop_at_a_line() -> None:
    text = "a: 1 # x\nb: |\n  # no\nc: 2 # y\n"
    assert [c.line for c in yaml_comments(text, 2)] == [0]
    assert [c.line for c in yaml_comments(text, 3)] == [0, 3]


@settings(max_examples=examples(300), deadline=None)
@given(st.text(alphabet="ab #:'\"|>-[]{},\n\t", max_size=80))
def test_any_text_every_comment_is_a_hash_sign_where_it_says(text: str) -> None:
    lines = text.split("\n")
    for c in yaml_comments(text):
        assert lines[c.line][c.column] == "#"
        assert lines[c.line][c.column + 1 :] == c.text
        assert c.own_line == (not lines[c.line][: c.column].strip())
