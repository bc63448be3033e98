"""The quick fixes of a file whose tokens are kept between code actions (the server keeps a
``FixSource`` per open file) are those of its text read afresh: after edits that open a
quote, a flow collection or a block scalar above the line, that delete or add lines, and in
texts with line breaks our line table does not count (NEL), where nothing is reused."""

from __future__ import annotations

from hiera_ls.checks.fixes import fixes_for
from hiera_ls.checks.rules import RULES
from hiera_ls.features.code_actions import FixSources
from hiera_ls.source.spans import Span

PATH = "/repo/data/common.yaml"


def _text(lines: int) -> str:
    out = []
    for n in range(lines):
        if n % 7 == 0:
            out.append(f"key{n}: |\n  block {n} # not a comment\n  more")
        elif n % 5 == 0:
            out.append(f"list{n}: [a, 'b c',\n  d]")
        else:
            out.append(f"key{n}: value {n}  # note")
    return "\n".join(out) + "\n"


def _all_fixes(text: str, source: object) -> list[object]:
    found = []
    for line, written in enumerate(text.splitlines()):
        span = Span.of(line, max(0, len(written) - 2), line, len(written))
        problem = RULES["yaml11-boolean"].at("x", PATH, span)
        found.append(fixes_for(problem, source))  # type: ignore[arg-type]
    return found


EDITS = [
    ("key22: value", 'key22: "value'),  # an open quote swallows the lines below
    ("key23: value", "key23: [value"),  # an open flow sequence
    ("key24: value 24", "key24: |\n  value"),  # a block scalar
    ("key26: value 26  # note\n", ""),  # a line deleted
    ("key27: value", "new: 1\nkey27: value"),  # a line added
    ("key31: value", "key31: value\u0085x"),  # NEL: a line break to libyaml only
    ("key8: value 8", "key8: value 8\n  continued"),  # a plain scalar continued
]


def test_fixes_after_edits_are_those_of_the_new_text() -> None:
    sources = FixSources()
    base = _text(60)
    afresh = _all_fixes(base, base)  # each line's fixes from a source made for it alone
    assert _all_fixes(base, sources.of(PATH, base)) == afresh
    for old, new in EDITS:
        assert old in base
        edited = base.replace(old, new, 1)
        assert _all_fixes(edited, sources.of(PATH, edited)) == _all_fixes(edited, edited), new
        assert _all_fixes(base, sources.of(PATH, base)) == afresh, new
