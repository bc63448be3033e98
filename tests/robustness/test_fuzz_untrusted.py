"""Fuzzing what a hostile repository writes (docs/security.md, "How the defences are tested"):
HOCON data with includes of every kind, ``.hiera-ls.yaml``, and text put into Markdown.

Same harness as tests/robustness/test_fuzz.py (each target also runs in bench/fuzz.py's long
run). Properties:

- HOCON: no exception but the loader's own failures, no socket or URL ever opened, no file
  opened but through the data files' reader, only files inside the allowed roots read, and a
  refused include's problem on a line of the text;
- ``.hiera-ls.yaml``: no exception, every problem on a line of the text, every facts path
  inside the repository, and exclude patterns matched within the time bound;
- Markdown: the helpers' output is read by a CommonMark parser as the text itself: no link,
  image, HTML, emphasis or block comes of it, code spans hold the text whole, a table cell
  ends only at its own ``|``.
"""

from __future__ import annotations

import builtins
import codecs
import contextlib
import os
import socket
import tempfile
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import strategies as st
from markdown_it import MarkdownIt

from hiera_ls.display_text import md_cell, md_code, md_escape, md_fence, visible
from hiera_ls.project.repo_config import load_repo_config
from hiera_ls.source.data_file import load_hocon_data
from hiera_ls.source.files import FileAccess
from tests.robustness.test_fuzz import Target, _ci_test, assert_inside

pytestmark = pytest.mark.slow  # thousands of random inputs per test

# --------------------------------------------------------------------------- HOCON

_NAMES = st.sampled_from(
    [
        "inc.conf",
        "inc",
        "sub/inc.conf",
        "../outside.conf",
        "{root}/data/inc.conf",
        "{root}/data/loop.conf",
        "{root}/data/fifo.conf",
        "{root}/data/zero.conf",
        "/dev/zero",
        "/dev/stdin",
        "/etc/passwd",
        "http://127.0.0.1:9/x.conf",
        "https://example.invalid/",
        "file:///etc/passwd",
        "*.conf",
        "",
    ]
)
_DIRECTIVES = st.one_of(
    st.builds(lambda n: f'include "{n}"', _NAMES),
    st.builds(
        lambda f, n: f'include {f}("{n}")',
        st.sampled_from(["file", "url", "classpath", "package", "required", "File"]),
        _NAMES,
    ),
    st.builds(lambda n: f'include required(file("{n}"))', _NAMES),
    st.builds(lambda n: f'include file ("{n}")', _NAMES),
    st.builds(lambda n: f'a = include "{n}"', _NAMES),
    st.builds(lambda n: f'b = [include file("{n}"), 1]', _NAMES),
    st.sampled_from(["include = 5", "Include file(x)", "include", "include\n", 'include "']),
)
_HOCON_LINES = st.one_of(
    _DIRECTIVES,
    st.sampled_from(
        ["a = 1", "b { c = 2 }", "c = ${a}", "d = [1, 2]", '"q" = "x"', "# comment", "}", "{"]
    ),
    st.text(alphabet='include(file)"{}[],=:# \n/.', max_size=30),
)
hocon_texts = st.lists(_HOCON_LINES, max_size=8).map("\n".join)


@contextlib.contextmanager
def _no_network_no_open(allowed: Callable[[str], bool]) -> Iterator[list[str]]:
    """Every socket connection, URL and ``open()`` fails the input; what the reader opens
    through ``os.open`` is recorded (checked against the roots by the caller)."""
    opened: list[str] = []
    real_os_open = os.open

    def refuse(*args: object, **kwargs: object) -> Any:
        raise AssertionError(f"opened {args[:1]} outside the data files' reader")

    def tracked(path: Any, *args: Any, **kwargs: Any) -> int:
        if isinstance(path, str):
            opened.append(path)
            assert allowed(path), f"read {path}, outside the allowed roots"
        return real_os_open(path, *args, **kwargs)

    saved = (socket.socket.connect, urllib.request.urlopen, builtins.open, codecs.open, os.open)
    socket.socket.connect = refuse  # type: ignore[method-assign,assignment]
    urllib.request.urlopen = refuse
    builtins.open = refuse
    codecs.open = refuse
    os.open = tracked  # type: ignore[assignment]
    try:
        yield opened
    finally:
        (
            socket.socket.connect,
            urllib.request.urlopen,
            builtins.open,
            codecs.open,
            os.open,
        ) = saved  # type: ignore[method-assign,assignment]


def hocon_target(text: str) -> None:
    with tempfile.TemporaryDirectory(prefix="hiera-ls-fuzz-") as tmp:
        root = Path(tmp) / "repo"
        (root / "data" / "sub").mkdir(parents=True)
        (root / "data" / "inc.conf").write_text('x = 1\ninclude "sub/inc.conf"\n')
        (root / "data" / "inc.json").write_text('{"j": 2}\n')
        (root / "data" / "sub" / "inc.conf").write_text("y = 2\n")
        (root / "data" / "loop.conf").write_text(f'include file("{root}/data/loop.conf")\n')
        os.mkfifo(root / "data" / "fifo.conf")
        (root / "data" / "zero.conf").symlink_to("/dev/zero")
        (Path(tmp) / "outside.conf").write_text("secret = 1\n")
        text = text.replace("{root}", str(root))
        path = str(root / "data" / "common.conf")
        real_root = os.path.realpath(root)

        def allowed(opened: str) -> bool:
            return os.path.realpath(opened).startswith(real_root + os.sep)

        files = FileAccess(roots=(str(root),))
        with _no_network_no_open(allowed):
            data = load_hocon_data(path, text, files.include_reader())
        assert "secret" not in data.data
        for problem in data.problems:
            assert_inside(problem, text)
        if data.error is not None:
            assert data.problems, data.error


# --------------------------------------------------------------------------- .hiera-ls.yaml

_PATTERNS = st.one_of(
    st.text(alphabet="*a?b/[]!.", max_size=40),
    st.builds(lambda n: "*a" * n + "b", st.integers(1, 40)),
    st.sampled_from(["vendor/", "**/nodes", "!keep.yaml", "/top.yaml", "a/**/b", "[", "\\"]),
)
_FACTS = st.sampled_from(
    ["/", "~", "~/.ssh", "/proc/self/environ", "..", "../x", "spec/factsets", "ci/facts", ""]
)
_SEVERITY = st.sampled_from(["error", "warning", "info", "hint", "off", "loud", "1"])


def _config_text(
    facts: list[str], excludes: list[str], severity: str, junk: str, codes: list[str]
) -> str:
    quote = lambda s: "'" + s.replace("'", "''") + "'"  # noqa: E731
    return (
        f"facts: [{', '.join(quote(f) for f in facts)}]\n"
        f"exclude: [{', '.join(quote(p) for p in excludes)}]\n"
        f"per-path:\n  {quote(excludes[0] if excludes else 'x')}: [{', '.join(codes)}]\n"
        f"severity:\n  yaml11-*: {severity}\n"
        f"{junk}\n"
    )


repo_config_texts = st.one_of(
    st.builds(
        _config_text,
        st.lists(_FACTS, max_size=4),
        st.lists(_PATTERNS, max_size=3),
        _SEVERITY,
        st.sampled_from(["", "backends: {f: yaml_data}", "unknown: 1", "select: 5", ":"]),
        st.lists(st.sampled_from(["yaml11-*", "nosuch", "key-unused", "*"]), max_size=3),
    ),
    st.text(max_size=80),
)
_PATHS = [
    "a" * 40,
    "a" * 200 + "b",
    "data/nodes/web01.yaml",
    "vendor/x.yaml",
    "keep.yaml",
    "top.yaml",
]


def repo_config_target(text: str) -> None:
    with tempfile.TemporaryDirectory(prefix="hiera-ls-fuzz-") as tmp:
        root = os.path.realpath(tmp)
        path = os.path.join(root, ".hiera-ls.yaml")
        config = load_repo_config(path, text)
        for problem in config.problems:
            assert_inside(problem, text)
        for facts in config.facts:
            real = os.path.realpath(facts)
            assert real == root or real.startswith(root + os.sep), facts
        for rule in config.rules:
            for rel in _PATHS:
                rule.matches(rel)


# --------------------------------------------------------------------------- Markdown

markdown_texts = st.one_of(
    st.text(alphabet="`*_[]()!<>|~#&\\-+=.1 \nab:/\x1b\x00\x85", max_size=40),
    st.text(max_size=40),
)
_PARSER = MarkdownIt("commonmark").enable("table")
_FORBIDDEN = {"link_open", "image", "html_inline", "html_block", "em_open", "strong_open"}


def _types(tokens: list[Any]) -> set[str]:
    out: set[str] = set()
    for token in tokens:
        out.add(token.type)
        out |= _types(token.children or [])
    return out


def markdown_target(text: str) -> None:
    escaped = _PARSER.parse(md_escape(text))
    found = _types(escaped)
    assert not found & _FORBIDDEN, found
    blocks = {t.type for t in escaped if t.level == 0}
    assert blocks <= {"paragraph_open", "paragraph_close", "inline"}, blocks
    shown = visible(text, one_line=True)
    if shown.strip(" "):
        spans = [
            c
            for c in (_PARSER.parseInline(md_code(text))[0].children or [])
            if c.type == "code_inline"
        ]
        assert [s.content for s in spans] == [shown], (spans, shown)
    fence = _PARSER.parse(md_fence(text, "yaml"))
    assert [t.type for t in fence] == ["fence"] and fence[0].content == visible(text) + "\n"
    table = _PARSER.render(f"| a | b |\n| --- | --- |\n| {md_cell(text)} | end |\n")
    assert table.count("<td>") == 2 and "<td>end</td>" in table


TARGETS = (
    Target("hocon", hocon_texts, hocon_target, 10, 120, 5.0),
    Target(".hiera-ls.yaml", repo_config_texts, repo_config_target, 10, 120),
    Target("markdown", markdown_texts, markdown_target, 20, 400),
)

test_hocon_includes = _ci_test(TARGETS[0])
test_repo_config = _ci_test(TARGETS[1])
test_markdown = _ci_test(TARGETS[2])
