"""Anchors and aliases of a YAML file as libyaml reads them: which anchor an alias names
(the nearest before it), never a ``&``/``*`` inside a scalar, what comes before an error."""

from __future__ import annotations

from hiera_ls.source.spans import Position, Span
from hiera_ls.source.yaml_anchors import anchors_in, may_be_on_anchor

TEXT = """\
a: &x {k: 1}
b: *x
c: 'not *x nor &x'
d: plain *x
e: !!str &y text
f: [*x, *y]
a2: &x 2
g: *x
"""


def test_each_alias_names_the_nearest_anchor_before_it() -> None:
    anchors = anchors_in(TEXT)
    written = [(m.name, m.alias, m.span.start.line, m.span.start.column) for m in anchors.marks]
    assert written == [
        ("x", False, 0, 3),
        ("x", True, 1, 3),
        ("y", False, 4, 9),  # after its tag
        ("x", True, 5, 4),
        ("y", True, 5, 8),
        ("x", False, 6, 4),
        ("x", True, 7, 3),
    ]
    first, second = anchors.marks[0], anchors.marks[5]
    assert [m.span.start.line for m in anchors.aliases_of(first)] == [1, 5]
    assert [m.span.start.line for m in anchors.aliases_of(second)] == [7]
    assert anchors.anchor_of(anchors.marks[6]) is second
    assert anchors.at(Position(1, 4)) is anchors.marks[1]
    assert anchors.marks[1].name_span == Span.of(1, 4, 1, 5)


def test_a_syntax_error_keeps_what_came_before_it() -> None:
    anchors = anchors_in("a: &x 1\nb: *x\nc: [\n")
    assert [m.name for m in anchors.marks] == ["x", "x"]
    assert anchors_in("a: *nope\n").marks == ()


def test_the_cheap_guess_before_reading_the_file() -> None:
    assert may_be_on_anchor("b: *x", 4)
    assert not may_be_on_anchor("b: x", 3)
