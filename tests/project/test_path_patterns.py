"""``.hiera-ls.yaml``'s ``exclude`` and ``per-path`` patterns: gitignore's meaning, without
backtracking (project/path_patterns.py).

Before, pathspec's regular expressions backtracked on ``*a*a*...b``: 32.6 s for three files,
and the server answered a hover after 22.9 s.
"""

from __future__ import annotations

import itertools
import signal
from collections.abc import Iterator
from types import FrameType

import pathspec
import pytest

from hiera_ls.project.path_patterns import GitIgnore
from hiera_ls.project.repo_config import load_repo_config

PATTERNS = [
    "*.json", "vendor/", "hieradata/legacy/**", "/top.yaml", "a/**/b.yaml", "**/nodes",
    "!keep.json", "data/*.yaml", "**/x/*.yaml", "[ab]*.yaml", "?.yaml", "foo/", "*",
    "nodes/web*", "\\#hash", "a/b/", "**/c/**", "x[a-c]y", "  # c", "trail  ", "a/**", "**",
    "!a/**/b.yaml", "/data/", "d*/",
]  # fmt: skip
PATHS = [
    "a.json", "keep.json", "vendor/x.yaml", "sub/vendor/x.yaml", "hieradata/legacy/a/b.yaml",
    "hieradata/legacy", "top.yaml", "sub/top.yaml", "a/b.yaml", "a/x/y/b.yaml", "nodes/w.yaml",
    "q/nodes/w.yaml", "data/c.yaml", "data/sub/c.yaml", "p/x/c.yaml", "a1.yaml", "b.yaml",
    "c.yaml", "z.yaml", "foo/bar", "foo", "nodes/web01.yaml", "#hash", "a/b/c", "c/d",
    "e/c/f/g", "xby", "xay", "trail", ".hidden/x.yaml", "d1/x",
]  # fmt: skip


@pytest.mark.slow
def test_patterns_mean_what_gitignore_means() -> None:
    """Every combination of up to three patterns against pathspec's GitIgnoreSpec (git's
    meaning, but for a class matching ``/``, which git's wildmatch never does)."""
    compared = 0
    for n in range(1, 4):
        for combo in itertools.combinations(PATTERNS, n):
            spec = pathspec.GitIgnoreSpec.from_lines(combo)
            ours = GitIgnore(combo)
            for path in PATHS:
                assert ours.match_file(path) == bool(spec.match_file(path)), (combo, path)
                compared += 1
    assert compared > 80_000
    assert not GitIgnore(["x[!a]y"]).match_file("a/x/y/b.yaml")  # a class never matches '/'


@pytest.fixture
def alarm() -> Iterator[None]:
    def fail(signum: int, frame: FrameType | None) -> None:
        raise TimeoutError("a pattern match backtracked")

    previous = signal.signal(signal.SIGALRM, fail)
    signal.alarm(20)
    yield
    signal.alarm(0)
    signal.signal(signal.SIGALRM, previous)


def test_a_pattern_with_many_stars_matches_in_linear_time(alarm: None) -> None:
    pattern = "*a" * 30 + "b"
    config = load_repo_config("/repo/.hiera-ls.yaml", f"exclude: ['{pattern}']\n")
    rule = config.rules[0]
    for length in (40, 400, 4000):
        assert not rule.matches("a" * length)  # before: exponential in the stars
        assert rule.matches("a" * length + "b")
