"""Globs as Puppet's ``Pathname.glob`` reads them, pinned case by case and compared to Ruby.

The pinned answers were taken from Ruby 3.1 (``ruby -e 'p File.fnmatch(...)'`` and
``Pathname.glob``); the comparisons run Ruby itself when it is installed.
"""

from __future__ import annotations

import json
import random
import shutil
import subprocess
import time
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hiera_ls.source.files import FileAccess
from hiera_ls.source.ruby_glob import Matcher, expand_braces, glob_match
from tests.examples import examples
from tests.hang_guard import HUNG_S

RUBY = shutil.which("ruby")
needs_ruby = pytest.mark.skipif(RUBY is None, reason="ruby is not installed")

# (pattern, name, File.fnmatch(pattern, name, FNM_PATHNAME | FNM_EXTGLOB))
FNMATCH = [
    ("[]a]", "]", False),  # the class closes at the ']' right after '[': empty, never matches
    ("[]a]", "a", False),
    ("[]a]", "[]a]", False),
    ("[]]", "]", False),
    ("[!]a]", "b", False),
    ("[!]", "!", True),  # an empty negated class: any one character
    ("[!]", "]", True),
    ("[^a]", "a", False),
    ("[^a]", "b", True),
    ("[a-]", "-", True),
    ("[\\]]", "]", True),
    ("[a\\-z]", "-", True),
    ("[a\\-z]", "b", False),
    ("[c-a]", "c", True),  # reversed range: its two ends only
    ("[c-a]", "b", False),
    ("[", "[", False),  # a class that never closes matches nothing
    ("a[b", "a[b", False),
    ("a[/]b", "a/b", False),
    ("[.]x", ".x", False),  # wildcards never match a leading period
    ("*x", ".x", False),
    ("?x", ".x", False),
    ("\\.x", ".x", True),
    ("a/*", "a/.x", False),
    ("{a,b", "{a,b", False),  # an unclosed brace: nothing
    ("{a,b}", "a", True),
    ("{a,{b,c}}", "c", True),
    ("\\{a,b}", "{a,b}", True),
    ("{a,b\\,c}", "b,c", True),
    ("{a,}x", "x", True),
    ("{}x", "x", True),
    ("a\\*", "a*", True),
    ("a\\*", "ab", False),
    ("**/x.yaml", "x.yaml", True),
    ("**/x.yaml", "a/b/x.yaml", True),
    ("**/x.yaml", "a/.h/x.yaml", False),
    ("a**/x", "ab/x", True),
    ("a**/x", "ab/c/x", False),
]


@pytest.mark.parametrize(("pattern", "name", "expected"), FNMATCH)
def test_names_match_as_ruby_matches_them(pattern: str, name: str, expected: bool) -> None:
    assert glob_match(pattern, name) is expected


def test_braces_expand_in_order_and_an_unclosed_one_expands_to_nothing() -> None:
    assert expand_braces("{b,a}.yaml") == ["b.yaml", "a.yaml"]
    assert expand_braces("x/{a,{b,c}d}") == ["x/a", "x/bd", "x/cd"]
    assert expand_braces("{a\\,b,c}") == ["a\\,b", "c"]
    assert expand_braces("}{a,b}") == ["}a", "}b"]
    assert expand_braces("{a,b") == []
    assert expand_braces("{a,b\\}") == []


TREE = [
    "a.yaml",
    "b.yaml",
    ".c.yaml",
    "{a,b",
    "a[b",
    "]a]",
    "x]",
    "a*",
    "a,b",
    "}a",
    "c",
    "sub/s.yaml",
    "sub/deep/t.yaml",
    ".h/h.yaml",
    ".h/x/y.yaml",
    "ab/z.yaml",
]
PATTERNS = [
    "*",
    "*.yaml",
    "{b,a}.yaml",
    "{a,a}.yaml",
    "{sub/*,*}.yaml",
    "{a,b",
    "[",
    "a[b",
    "[]a]*",
    "]a]",
    "[!]*",
    "[\\]]*",
    "[c-a]*",
    "**/*.yaml",
    "**/**/t.yaml",
    "**/.h/*.yaml",
    ".h/**/*.yaml",
    "a**/*.yaml",
    "sub/**",
    "**",
    "{,a}.yaml",
    "{a\\,b,x}",
    "a\\*",
    "\\.c.yaml",
    "[.]c.yaml",
    ".?.yaml",
    "x]",
    "}{a,b}",
]
# Pathname.glob's answers for the tree above (Ruby 3.1)
EXPECTED = {
    "{b,a}.yaml": ["b.yaml", "a.yaml"],
    "{a,a}.yaml": ["a.yaml", "a.yaml"],
    "{sub/*,*}.yaml": ["sub/s.yaml", "a.yaml", "b.yaml"],
    "{a,b": [],
    "[": [],
    "a[b": [],
    "[]a]*": [],
    "[\\]]*": ["]a]"],
    "[c-a]*": ["a*", "a,b", "a.yaml", "a[b", "ab", "c"],
    "**/*.yaml": ["a.yaml", "ab/z.yaml", "b.yaml", "sub/deep/t.yaml", "sub/s.yaml"],
    "**/**/t.yaml": ["sub/deep/t.yaml"],
    "**/.h/*.yaml": [".h/h.yaml"],
    ".h/**/*.yaml": [".h/h.yaml", ".h/x/y.yaml"],
    "\\.c.yaml": [".c.yaml"],
    "[.]c.yaml": [],
}


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    for rel in TREE:
        target = tmp_path / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text("")
    return tmp_path


def _ours(root: Path, pattern: str, files: FileAccess) -> list[str]:
    prefix = f"{root}/"
    return [p.removeprefix(prefix) for p in files.glob(prefix + pattern)]


@pytest.mark.parametrize("pattern", sorted(EXPECTED))
def test_globs_find_what_pathname_glob_finds(tree: Path, pattern: str) -> None:
    assert _ours(tree, pattern, FileAccess()) == EXPECTED[pattern]


def test_buffers_not_on_disk_are_found_in_their_place(tree: Path) -> None:
    files = FileAccess({str(tree / "aa.yaml"): "", str(tree / "new/n.yaml"): ""})
    assert _ours(tree, "*.yaml", files) == ["a.yaml", "aa.yaml", "b.yaml"]
    assert _ours(tree, "**/n.yaml", files) == ["new/n.yaml"]


@needs_ruby
def test_every_pattern_globs_as_ruby_globs(tree: Path) -> None:
    script = (
        "require 'pathname'; require 'json'; "
        "puts JSON.generate(JSON.parse(STDIN.read).map { |p| Pathname.glob(p).map(&:to_s) })"
    )
    prefix = f"{tree}/"
    assert RUBY is not None
    ruby = subprocess.run(
        [RUBY, "-e", script],
        input=json.dumps([prefix + p for p in PATTERNS]),
        capture_output=True,
        text=True,
        check=True,
    )
    expected = {
        p: [r.removeprefix(prefix) for r in found]
        for p, found in zip(PATTERNS, json.loads(ruby.stdout), strict=True)
    }
    assert {p: _ours(tree, p, FileAccess()) for p in PATTERNS} == expected


@needs_ruby
def test_random_names_match_as_ruby_fnmatch_says() -> None:
    """One path component at a time (Dir.glob splits a pattern at '/' before matching)."""
    rng = random.Random(20251123)
    cases: list[tuple[str, str]] = []
    for _ in range(4000):
        pattern = "".join(rng.choice("ab.*?[]!^-\\{},") for _ in range(rng.randint(1, 9)))
        name = "".join(rng.choice("ab.-][!^{},\\") for _ in range(rng.randint(1, 5)))
        literal = "".join(c if c not in "*?[]{}\\" else rng.choice("ab.") for c in pattern)
        cases += [(pattern, name), (pattern, literal)]
    script = (
        "require 'json'; f = File::FNM_PATHNAME | File::FNM_EXTGLOB; "
        "puts JSON.generate(JSON.parse(STDIN.read).map { |p, n| File.fnmatch(p, n, f) })"
    )
    assert RUBY is not None
    ruby = subprocess.run(
        [RUBY, "-e", script], input=json.dumps(cases), capture_output=True, text=True, check=True
    )
    wrong = [
        (p, n, e)
        for (p, n), e in zip(cases, json.loads(ruby.stdout), strict=True)
        if glob_match(p, n) is not e
    ]
    assert wrong == []


def test_braces_matched_lazily_agree_with_their_expansions() -> None:
    """Past MAX_EXPANSIONS a name is matched against the braces without expanding them."""
    rng = random.Random(9)
    for _ in range(3000):
        pattern = "".join(rng.choice("ab.*?[]{},\\/") for _ in range(rng.randint(1, 10)))
        name = "".join(rng.choice("ab./{},") for _ in range(rng.randint(0, 6)))
        assert Matcher(pattern).match(name) is Matcher.of(pattern).match(name), (pattern, name)


def test_a_backtracking_pattern_and_a_brace_bomb_match_at_once() -> None:
    start = time.monotonic()
    assert not glob_match("*a" * 12 + "c.yaml", "a" * 195 + ".yaml")
    assert glob_match("{a,b}" * 20 + ".yaml", "ab" * 10 + ".yaml")
    assert not glob_match("{a,b}" * 20 + ".yaml", "ab" * 9 + "ac.yaml")
    assert time.monotonic() - start < HUNG_S


def test_the_literal_ends_shortcut_answers_as_the_full_simulation() -> None:
    """Matcher skips a pattern's literal prefix and settles ``prefix*suffix`` shapes without
    simulating; on random patterns (holes included) and names it must answer as the plain
    step-by-step simulation does."""
    from hiera_ls.source.ruby_glob import TEXT_HOLE, WORD_HOLE, _steps, _steps_match

    rng = random.Random(7)
    pieces = ["a", "b", ".", "/", "*", "?", "[ab]", "x/", "/.", WORD_HOLE, TEXT_HOLE, "yaml"]
    letters = "ab./xy"
    for _ in range(4000):
        pattern = "/d/" + "".join(rng.choice(pieces) for _ in range(rng.randint(0, 5)))
        name = "/d/" + "".join(rng.choice(letters) for _ in range(rng.randint(0, 8)))
        slow = _steps_match(_steps(pattern, True), name)
        assert Matcher.of(pattern, holes=True).match(name) == slow, (pattern, name)


@settings(max_examples=examples(400), deadline=None, derandomize=True, database=None)
@given(
    component=st.text(alphabet="ab.*?[]!-\\", min_size=1, max_size=8),
    name=st.text(alphabet="ab.-[]*", max_size=12),
)
def test_a_component_matched_by_a_regex_agrees_with_the_simulation(
    component: str, name: str
) -> None:
    """Components of at most two stars are matched by a regular expression (fast, in C);
    every answer is the step simulation's (Ruby's, pinned by the tests above)."""
    from hiera_ls.source.ruby_glob import _component_matcher, _steps, _steps_match

    assert bool(_component_matcher(component)(name)) == _steps_match(_steps(component, False), name)
