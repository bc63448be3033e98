"""The key index: token ranges in the source whatever the scalar style, references, keys."""

from __future__ import annotations

from pathlib import Path

from hiera_ls.features.references import key_references
from hiera_ls.project.workspace import Workspace
from hiera_ls.source.spans import Span

HIERA = "version: 5\nhierarchy:\n  - name: Common\n    path: common.yaml\n"
COMMON = (
    "a: \"\\x25{facts.x} and %{lookup('b')}\"\n"  # an escape spells the first token's %
    "c: >\n"
    "  folded text\n"
    "  %{lookup('b')}\n"
    "b: 1\n"
)


def test_tokens_behind_escapes_and_in_folded_scalars(tmp_path: Path) -> None:
    (tmp_path / "data").mkdir()
    (tmp_path / "hiera.yaml").write_text(HIERA)
    (tmp_path / "data/common.yaml").write_text(COMMON)
    snap = Workspace([str(tmp_path)]).snapshot()
    keys = snap.file_keys(str(tmp_path / "data/common.yaml"))
    assert keys is not None
    spans = [(t.token.text, t.span) for t in keys.tokens]
    line0 = COMMON.splitlines()[0]
    assert spans == [
        ("%{facts.x}", Span.of(0, line0.index("\\x25"), 0, line0.index(" and"))),
        ("%{lookup('b')}", Span.of(0, line0.index("%{lookup"), 0, line0.index("%{lookup") + 14)),
        ("%{lookup('b')}", Span.of(3, 2, 3, 16)),
    ]
    found = key_references(snap, snap.environments[0], "b", include_declaration=False)
    assert [f.span.start.line for f in found] == [0, 3]


def test_a_token_whose_percent_is_an_escape_is_a_reference(tmp_path: Path) -> None:
    """No literal ``%{`` in the file: the index still replays the escape, as Puppet reads it."""
    (tmp_path / "data").mkdir()
    (tmp_path / "hiera.yaml").write_text(HIERA)
    line = "a: \"\\x25{lookup('b')}\""
    (tmp_path / "data/common.yaml").write_text(line + "\nb: 1\n")
    snap = Workspace([str(tmp_path)]).snapshot()
    found = key_references(snap, snap.environments[0], "b", include_declaration=False)
    assert [(Path(f.path).name, f.span) for f in found] == [
        ("common.yaml", Span.of(0, line.index("\\x25"), 0, len(line) - 1))
    ]
