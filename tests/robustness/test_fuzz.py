"""Fuzzing: whatever text a user (or a hostile repository) hands over, every layer answers.

Each target takes a generated input and asserts what a user relies on: no exception other
than the layer's own failure types, an answer within the time bound, and for the loaders a
problem whose position lies inside the text whenever the file is refused. The inputs mix
YAML/JSON/interpolation fragments, structured data dumped as YAML and then mutated, and
plain random text.

CI runs each target on a seeded, derandomized handful of examples (the whole file takes a
few seconds); bench/fuzz.py runs the same targets on a million inputs.
"""

from __future__ import annotations

import contextlib
import json
import re
import signal
import tempfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path
from types import FrameType
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from lsprotocol import types

from hiera_ls.engine.lookup import LookupSession
from hiera_ls.features.definition import definition
from hiera_ls.features.diagnostics import Diagnostics
from hiera_ls.features.explain import key_at
from hiera_ls.features.hover import hover
from hiera_ls.features.lsp_ranges import Converter
from hiera_ls.features.references import references
from hiera_ls.project.environments import ModuleDirs, environment_at
from hiera_ls.project.facts import node_scope
from hiera_ls.project.hiera_config import load_hiera_config
from hiera_ls.project.workspace import Workspace
from hiera_ls.source.data_file import DataFile, load_json_data, load_yaml_data, reload_yaml_data
from hiera_ls.source.files import FileAccess
from hiera_ls.source.interpolation import scan, unterminated_at
from hiera_ls.source.spans import Position, Problem, Span

pytestmark = pytest.mark.slow  # thousands of random inputs per test

TIME_BOUND_S = 2.0  # the target: every input answers within 2 s
HANG_S = 10.0  # an input still running after this is a hang (stopped by an alarm)
INTERNAL_ERROR = "hiera-ls internal error"

# --------------------------------------------------------------------------- inputs

YAML_FRAGMENTS = (
    "a",
    "key",
    "m::x",
    ": ",
    ":",
    "- ",
    "-",
    "\n",
    "\n  ",
    "  ",
    "\t",
    "&x ",
    "*x",
    "&y ",
    "*y",
    "<<: ",
    "<<",
    "? ",
    "!ruby/sym ",
    "!ruby/symbol ",
    "!ruby/object:Foo ",
    "!ruby/hash:Foo ",
    "!!str ",
    "!!int ",
    "!!float ",
    "!!binary ",
    "!!set ",
    "!!omap ",
    "!!map ",
    "!!seq ",
    "!!timestamp ",
    "!foo ",
    "!",
    "{",
    "}",
    "[",
    "]",
    ", ",
    "'",
    '"',
    "''",
    '"\\u0041"',
    '"\\x"',
    "\\",
    "# c",
    "---\n",
    "...\n",
    "--- ",
    "%YAML 1.1\n",
    "%TAG ! tag:x:\n",
    "|\n  ",
    ">-\n  ",
    "|2\n",
    "~",
    "null",
    "true",
    "no",
    "y",
    "1",
    "-0",
    "0x1F",
    "0b101",
    "0o17",
    "017",
    "1_000",
    "1e3",
    "1.5e-3",
    ".inf",
    ".NaN",
    "1:20:30",
    "2001-12-14",
    "2001-12-14t21:59:43.10-05:00",
    ":sym",
    "=",
    "%{",
    "}",
    "%{lookup('a')}",
    "%{alias('a')}",
    "%{facts.os.family}",
    "%{::role}",
    "%%{}",
    "é",
    "\u2028",
    "\x85",
    "\r",
    "\r\n",
    "\ufeff",
    "\x00",
    "\x07",
    "\U0001f600",
    "\ud800",
)

JSON_FRAGMENTS = (
    "{",
    "}",
    "[",
    "]",
    ",",
    ":",
    '"a"',
    '"m::x"',
    '"',
    "\\",
    '"\\u00e9"',
    '"\\ud800"',
    '"\\uZZZZ"',
    "1",
    "-0",
    "1e400",
    "-1e400",
    "0.5",
    "01",
    "NaN",
    "Infinity",
    "true",
    "false",
    "null",
    " ",
    "\n",
    "\t",
    "/* c */",
    "// c\n",
    "\"%{lookup('a')}\"",
    "\ufeff",
    "\x00",
    "é",
)

INTERPOLATION_FRAGMENTS = (
    "%{",
    "}",
    "%",
    "{",
    "%%{}",
    "%{}",
    "%{::}",
    "%{''}",
    '%{""}',
    "lookup",
    "alias",
    "literal",
    "hiera",
    "scope",
    "(",
    ")",
    "('a')",
    '("a")',
    "('')",
    "'",
    '"',
    "facts",
    ".",
    "::",
    "os",
    "0",
    "-1",
    " ",
    "a",
    "é",
    "\n",
    "%{lookup('a')}",
    "%{facts.os.family}",
    "%{alias('b')}",
    "%{literal('%')}",
)

KEY_NAMES = ("a", "b", "c", "m::x", "m::y", "lookup_options", "a.b", "'q.u'", "")

INTERPOLATIONS = (
    "%{lookup('a')}",
    "%{lookup('b')}",
    "%{hiera('c')}",
    "%{alias('a')}",
    "%{alias('m::x')}",
    "%{alias('')}",
    "%{literal('%')}",
    "%{facts.role}",
    "%{::role}",
    "%{facts.os.family}",
    "%{facts.os}",
    "%{facts.nope.deeper}",
    "%{trusted.certname}",
    "%{scope('facts.role')}",
    "%{lookup('m::x.0')}",
    "%{lookup('a.b')}",
    '%{lookup("c")}',
    "%{lookup('a'}",
    "%{x",
    "%{}",
    "%{lookup('a', 'b')}",
    "%{lookup(a)}",
    "%{calling_module}",
    "%{environment}",
)

LOCATIONS = (
    "common.yaml",
    "common.json",
    "nodes/%{trusted.certname}.yaml",
    "os/%{facts.os.family}.yaml",
    "%{facts.role}.yaml",
    "%{facts.nope}.yaml",
    "%{lookup('a')}.yaml",
    "*.yaml",
    "**/*.yaml",
    "{common,other}.yaml",
    "[co]ommon.yaml",
    "../outside.yaml",
    "/nonexistent/abs.yaml",
    "",
)

DATA_FILES = (
    "data/common.yaml",
    "data/other.yaml",
    "data/common.json",
    "data/nodes/web01.example.com.yaml",
    "data/os/Debian.yaml",
    "data/web.yaml",
)

MERGES: tuple[object, ...] = (
    None,
    "first",
    "unique",
    "hash",
    "deep",
    {"strategy": "deep", "knockout_prefix": "--", "merge_hash_arrays": True},
    {"strategy": "deep", "sort_merged_arrays": True},
    {"strategy": "hash"},
    {"strategy": "bogus"},
    "bogus",
    {},
)


def _joined(fragments: tuple[str, ...], max_size: int) -> st.SearchStrategy[str]:
    return st.lists(st.sampled_from(fragments), max_size=max_size).map("".join)


def _mutated(base: st.SearchStrategy[str], fragments: tuple[str, ...]) -> st.SearchStrategy[str]:
    """A well-formed text with fragments inserted and spans cut out: near-miss inputs."""

    def apply(args: tuple[str, list[tuple[int, int, str]]]) -> str:
        text, edits = args
        for at, cut, fragment in edits:
            i = at % (len(text) + 1)
            text = text[:i] + fragment + text[i + cut :]
        return text

    edits = st.lists(
        st.tuples(st.integers(0, 10_000), st.integers(0, 3), st.sampled_from(fragments)),
        min_size=1,
        max_size=4,
    )
    return st.tuples(base, edits).map(apply)


scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(2**70), 2**70),
    st.floats(allow_nan=True),
    st.text(max_size=12),
    _joined((*INTERPOLATIONS, "x", " ", "-"), 4),
)
values = st.recursive(
    scalars,
    lambda children: st.one_of(
        st.lists(children, max_size=4),
        st.dictionaries(st.sampled_from(KEY_NAMES) | st.text(max_size=6), children, max_size=4),
    ),
    max_leaves=12,
)
data_hashes = st.dictionaries(st.sampled_from(KEY_NAMES) | st.text(max_size=8), values, max_size=6)


def _yaml_dump(data: object) -> str:
    return yaml.safe_dump(data, allow_unicode=True, default_flow_style=None)


structured_yaml = data_hashes.map(_yaml_dump)
yaml_texts = st.one_of(
    _joined(YAML_FRAGMENTS, 40),
    st.text(max_size=120),
    structured_yaml,
    _mutated(structured_yaml, YAML_FRAGMENTS),
)
structured_json = data_hashes.map(lambda d: json.dumps(d, ensure_ascii=False))
json_texts = st.one_of(
    _joined(JSON_FRAGMENTS, 40),
    st.text(max_size=80),
    structured_json,
    _mutated(structured_json, JSON_FRAGMENTS),
)
interpolation_texts = st.one_of(_joined(INTERPOLATION_FRAGMENTS, 30), st.text(max_size=60))

location_values = st.one_of(
    st.sampled_from(LOCATIONS), st.lists(st.sampled_from(LOCATIONS), max_size=3)
)
levels = st.fixed_dictionaries(
    {"name": st.sampled_from(("L1", "L2", "L3", "", "L1"))},
    optional={
        "path": st.sampled_from(LOCATIONS),
        "paths": st.lists(st.sampled_from(LOCATIONS), max_size=3),
        "glob": st.sampled_from(LOCATIONS),
        "globs": st.lists(st.sampled_from(LOCATIONS), max_size=3),
        "uri": st.sampled_from(("http://x", "file:///etc", "")),
        "mapped_paths": st.lists(st.sampled_from(("facts.list", "x", "%{x}.yaml")), max_size=4),
        "data_hash": st.sampled_from(("yaml_data", "json_data", "hocon_data", "custom")),
        "lookup_key": st.sampled_from(("eyaml_lookup_key", "custom")),
        "datadir": st.sampled_from(("data", "other", "/", "../data", "")),
        "options": st.dictionaries(st.sampled_from(("a", "path")), scalars, max_size=2),
        "extra": scalars,
    },
)
hiera_dicts = st.fixed_dictionaries(
    {"version": st.sampled_from((5, 5, 5, 4, 3, "5", None))},
    optional={
        "defaults": st.fixed_dictionaries(
            {},
            optional={
                "datadir": st.sampled_from(("data", "other", "")),
                "data_hash": st.sampled_from(("yaml_data", "json_data", "bogus")),
                "options": st.dictionaries(st.text(max_size=3), scalars, max_size=2),
            },
        ),
        "hierarchy": st.lists(levels, max_size=4) | scalars,
        "default_hierarchy": st.lists(levels, max_size=2),
        "plan_b": scalars,
    },
)
HIERA_FRAGMENTS = (
    "version: 5\n",
    "hierarchy:\n",
    "  - name: x\n",
    "    path: a.yaml\n",
    "    glob: '*'\n",
    "    mapped_paths: [a, b, c]\n",
    "defaults:\n",
    "  datadir: data\n",
    "  data_hash: json_data\n",
    "    options: {}\n",
    "    uris: []\n",
)
hiera_texts = st.one_of(
    hiera_dicts.map(_yaml_dump),
    _mutated(hiera_dicts.map(_yaml_dump), YAML_FRAGMENTS + HIERA_FRAGMENTS),
    _joined(HIERA_FRAGMENTS + YAML_FRAGMENTS, 30),
)


def _valid_hiera(levels: list[tuple[str, object, str]]) -> str:
    hierarchy = [
        {"name": f"L{i}", kind: location, "data_hash": function}
        for i, (kind, location, function) in enumerate(levels)
    ]
    return _yaml_dump({"version": 5, "defaults": {"datadir": "data"}, "hierarchy": hierarchy})


# A hierarchy Puppet accepts, so that lookups reach the data (most generated ones do not).
valid_hiera_texts = st.lists(
    st.one_of(
        st.tuples(st.sampled_from(("path", "glob")), st.sampled_from(LOCATIONS[:11])),
        st.tuples(
            st.sampled_from(("paths", "globs")),
            st.lists(st.sampled_from(LOCATIONS[:11]), min_size=1, max_size=3),
        ),
    ).flatmap(
        lambda t: st.tuples(
            st.just(t[0]),
            st.just(t[1]),
            st.sampled_from(("yaml_data", "json_data"))
            if "json" in str(t[1])
            else st.just("yaml_data"),
        )
    ),
    min_size=1,
    max_size=4,
).map(_valid_hiera)

# A small environment: hiera.yaml, data files, a few lookup_options, and keys to look up.
# Most data files hold the keys the lookups ask for (with values that interpolate each
# other), so that lookups reach merging and interpolation; some are junk.
ENGINE_KEYS = ("a", "b", "c", "m::x", "m::y")
options = st.dictionaries(
    st.sampled_from((*ENGINE_KEYS, "^m::.*", "[")),
    st.fixed_dictionaries(
        {},
        optional={
            "merge": st.sampled_from(MERGES),
            "convert_to": st.sampled_from(("Array", "Sensitive", "Foo", 1)),
        },
    ),
    max_size=3,
)
engine_data = st.tuples(
    st.dictionaries(st.sampled_from(ENGINE_KEYS), values, min_size=1, max_size=5), options
).map(lambda t: {**t[0], "lookup_options": t[1]} if t[1] else t[0])


def _data_file(rel: str) -> st.SearchStrategy[str]:
    if rel.endswith(".json"):
        return st.one_of(engine_data.map(json.dumps), engine_data.map(json.dumps), json_texts)
    return st.one_of(engine_data.map(_yaml_dump), engine_data.map(_yaml_dump), yaml_texts)


environment_files = st.fixed_dictionaries(
    {
        "hiera.yaml": st.one_of(valid_hiera_texts, valid_hiera_texts, hiera_dicts.map(_yaml_dump)),
        "data/common.yaml": _data_file("data/common.yaml"),
    },
    optional={rel: _data_file(rel) for rel in DATA_FILES[1:]},
)
lookups = st.lists(
    st.tuples(
        st.sampled_from(ENGINE_KEYS + KEY_NAMES) | st.lists(st.sampled_from(KEY_NAMES), max_size=3),
        st.none() | st.sampled_from(MERGES),
    ),
    min_size=1,
    max_size=4,
)
FACTS: dict[str, object] = {
    "os": {"family": "Debian", "name": "Debian"},
    "role": "web",
    "list": ["a", "b"],
}

# --------------------------------------------------------------------------- properties


class Hang(Exception):
    """An input ran longer than HANG_S (raised by the alarm)."""


@contextlib.contextmanager
def bounded(seconds: float) -> Iterator[None]:
    """Stop the input with Hang after ``seconds`` (main thread only; a C loop holding the
    GIL ends the wait only when it returns)."""

    def ring(signum: int, frame: FrameType | None) -> None:
        raise Hang(f"still running after {seconds:g} s")

    previous = signal.signal(signal.SIGALRM, ring)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


# What an editor (and the LSP) counts as line breaks, and what YAML counts: the loaders'
# positions follow YAML's marks (NEL, LS and PS break lines there), which is still a place
# in the text; that the two disagree on such files is a known gap (docs/security.md).
EDITOR_LINES = re.compile("\r\n|\r|\n")
YAML_LINES = re.compile("\r\n|\r|\n|\x85|\u2028|\u2029")


def _inside(problem: Problem, lines: list[str]) -> bool:
    """On a line of the text, or at the end of input as libyaml marks it: a line after the
    last when the text has no final line break (an editor shows it at the end)."""
    span = problem.where.span
    return span.start <= span.end and all(
        (0 <= pos.line < len(lines) and 0 <= pos.column <= len(lines[pos.line]))
        or (pos.line == len(lines) and pos.column == 0)
        for pos in (span.start, span.end)
    )


def assert_inside(problem: Problem, text: str) -> None:
    """The problem points at a place in the text (a line that exists, a column on it)."""
    assert any(_inside(problem, rx.split(text)) for rx in (EDITOR_LINES, YAML_LINES)), problem


def check_loaded(data: DataFile, path: str, text: str) -> None:
    for problem in data.problems:
        if problem.where.path == path:
            assert_inside(problem, text)
    if data.error is not None:  # a refused file says where
        assert any(p.where.path == path for p in data.problems), data.error


def yaml_target(text: str) -> None:
    check_loaded(load_yaml_data("/w/data.yaml", text), "/w/data.yaml", text)


def yaml_edit_target(args: tuple[str, str]) -> None:
    """An edit re-parses only what it touched, with the same answer as a full load."""
    before, after = args
    path = "/w/data.yaml"
    previous = load_yaml_data(path, before)
    edited = reload_yaml_data(previous, before, after)
    full = load_yaml_data(path, after)
    check_loaded(edited, path, after)
    assert (edited.error, edited.data) == (full.error, full.data) or _nan_in(full.data)


def _nan_in(value: object) -> bool:
    if isinstance(value, float):
        return value != value
    if isinstance(value, dict):
        return any(_nan_in(k) or _nan_in(v) for k, v in value.items())
    if isinstance(value, (list, tuple)):
        return any(_nan_in(v) for v in value)
    return False


def json_target(text: str) -> None:
    check_loaded(load_json_data("/w/data.json", text), "/w/data.json", text)


def interpolation_target(text: str) -> None:
    tokens = scan(text)
    end = 0
    for token in tokens:
        assert end <= token.start < token.end <= len(text)
        assert text[token.start : token.end] == token.text
        end = token.end
    at = unterminated_at(text)
    assert at is None or text.startswith("%{", at)


def hiera_config_target(text: str) -> None:
    path = "/w/hiera.yaml"
    for layer in ("environment", "global", "module"):
        config = load_hiera_config(path, text, layer)  # type: ignore[arg-type]
        for problem in config.problems:
            if problem.where.path == path:
                assert_inside(problem, text)
        if config.error is not None:
            assert config.problems, config.error


def _write(root: Path, files: dict[str, str]) -> None:
    for rel, text in files.items():
        target = root / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8", errors="surrogatepass")


def engine_target(args: tuple[dict[str, str], list[tuple[object, object]]]) -> None:
    files, wanted = args
    with tempfile.TemporaryDirectory(prefix="hiera-ls-fuzz-") as tmp:
        root = Path(tmp) / "production"
        _write(root, files)
        access = FileAccess()
        env = environment_at(
            str(root), "production", None, access, module_dirs=ModuleDirs.MODULEPATH
        )
        scope = node_scope(FACTS, "web01.example.com", "production")
        session = LookupSession(env, scope, access)
        for names, merge in wanted:
            for explain in (False, True):
                out = session.lookup(names, merge, explain=explain)  # type: ignore[arg-type]
                assert out.error is None or not out.error.startswith(INTERNAL_ERROR), out.error


def lsp_target(args: tuple[dict[str, str], str, str, list[tuple[int, int]]]) -> None:
    """The features behind hover, definition, references, explain and diagnostics, on a
    generated document opened in an editor, at generated positions (some past the end)."""
    files, rel, text, positions = args
    with tempfile.TemporaryDirectory(prefix="hiera-ls-fuzz-") as tmp:
        root = Path(tmp) / "production"
        _write(root, files)
        path = str(root / rel)
        workspace = Workspace([str(root)])
        workspace.open_buffer(path, text)
        snapshot = workspace.snapshot()
        converter = Converter(text)
        Diagnostics().file_problems(snapshot, path)
        for line, character in positions:
            pos = converter.from_lsp(types.Position(line=line, character=character))
            hover(snapshot, path, pos)
            definition(snapshot, path, pos)
            references(snapshot, path, pos, True)
            key_at(snapshot, path, pos)


@dataclass(frozen=True, slots=True)
class Target:
    name: str
    strategy: st.SearchStrategy[Any]
    check: Callable[[Any], None]
    weight: int  # inputs per thousand of the long run (bench/fuzz.py)
    ci_examples: int
    # per-example deadline: an example of the engine or the features runs several lookups
    # (each bounded by TIME_BOUND_S) on a freshly written environment
    deadline_s: float = TIME_BOUND_S


lsp_inputs = st.tuples(
    environment_files,
    st.sampled_from(("data/common.yaml", "data/nodes/web01.example.com.yaml", "hiera.yaml")),
    st.one_of(yaml_texts, hiera_texts),
    st.lists(
        st.tuples(
            st.integers(0, 40) | st.just(2**31 - 1),  # the largest line the LSP allows
            st.integers(0, 200) | st.just(2**31 - 1),
        ),
        min_size=1,
        max_size=4,
    ),
)

TARGETS = (
    Target("interpolation", interpolation_texts, interpolation_target, 650, 200),
    Target("yaml", yaml_texts, yaml_target, 150, 200),
    Target("yaml-edit", st.tuples(yaml_texts, yaml_texts), yaml_edit_target, 60, 60),
    Target("json", json_texts, json_target, 90, 100),
    Target("hiera.yaml", hiera_texts, hiera_config_target, 25, 80),
    Target("engine", st.tuples(environment_files, lookups), engine_target, 15, 25, 5.0),
    Target("lsp", lsp_inputs, lsp_target, 10, 15, 5.0),
)

# --------------------------------------------------------------------------- CI run


def _ci_test(target: Target) -> Callable[[], None]:
    @settings(
        max_examples=target.ci_examples,
        derandomize=True,
        database=None,
        deadline=timedelta(seconds=target.deadline_s),
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
        print_blob=True,
    )
    @given(target.strategy)
    def run(value: Any) -> None:
        with bounded(HANG_S):
            target.check(value)

    return run  # type: ignore[no-any-return]


test_interpolation = _ci_test(TARGETS[0])
test_yaml_loader = _ci_test(TARGETS[1])
test_yaml_edit_matches_full_load = _ci_test(TARGETS[2])
test_json_loader = _ci_test(TARGETS[3])
test_hiera_config = _ci_test(TARGETS[4])
test_engine = _ci_test(TARGETS[5])
test_lsp_features = _ci_test(TARGETS[6])


# --------------------------------------------------------------------------- found by fuzzing


def test_syntax_error_at_the_end_of_input_points_at_the_last_line() -> None:
    """libyaml's mark lay on a third line of a two-line file, where an editor shows nothing."""
    data = load_yaml_data("/w/data.yaml", "0:\n0")
    assert [p.where.span for p in data.problems] == [Span.of(1, 1, 1, 1)]


def test_bad_character_after_a_carriage_return_is_on_the_next_line() -> None:
    """Only \\n counted as a line break, so the mark sat on the line before the character."""
    data = load_yaml_data("/w/data.yaml", "\r\x00")
    assert [p.where.span for p in data.problems] == [Span.of(1, 0, 1, 1)]


def test_json_error_after_a_carriage_return_is_on_the_next_line() -> None:
    data = load_json_data("/w/data.json", "\r!")
    assert [p.where.span.start for p in data.problems] == [Position(1, 0)]


def test_hiera_yaml_problem_on_a_first_line_ended_by_a_carriage_return_stays_on_it() -> None:
    config = load_hiera_config("/w/hiera.yaml", "é\r  a# c", "environment")
    assert {p.where.span for p in config.problems} == {Span.of(0, 0, 0, 1)}
