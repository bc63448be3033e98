"""Fuzzing ``hiera-ls check --fix``: whatever the file, a safe fix keeps what Puppet reads.

Generated YAML and JSON files full of what the safe fixes touch (keys written twice at any
depth, unquoted dates, unquoted ``%{`` in block and flow collections, comments, a byte order
mark, CRLF line ends, no final newline), run through the checks and ``--fix``'s edits:

- the bytes outside the edited ranges are the file's own, through the write to disk;
- a file that loads keeps its value and its key order (the loader is Psych's model, checked
  against Psych in tests/differential; test_fix_fuzz_vs_puppet.py asks Psych itself);
- a file refused for a date or an unquoted ``%{`` loads once fixed, each date kept as its text.

CI runs a seeded handful; bench/fuzz.py --targets fix runs many more.
"""

from __future__ import annotations

import tempfile
from datetime import timedelta
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hiera_ls.checks.fixes import fixed_text
from hiera_ls.checks.registry import DataSource, check_data_file
from hiera_ls.project.settings import Settings
from hiera_ls.report.fix import fix_files
from hiera_ls.source.data_file import DataFile, load_json_data, load_yaml_data
from hiera_ls.source.line_map import LineMap
from tests.examples import examples
from tests.robustness.test_fuzz import Target

KEYS = ("a", "b", "c", "yes", "true", "k::x", "'b'", '"a"')
SCALARS = ("1", "x", "yes", "0644", "'q'", '"d"', "~", "2024-01-15", "2024-01-15 10:00:00")
TOKENS = ("%{facts.role}", "%{facts.role} tail", '"%{facts.role}"')


@st.composite
def _block(draw: st.DrawFn, indent: int, depth: int) -> list[str]:
    """Lines of a block mapping at ``indent``, keys drawn from a small pool (so repeated)."""
    lines: list[str] = []
    for _ in range(draw(st.integers(1, 5))):
        key = draw(st.sampled_from(KEYS))
        pad = " " * indent
        kind = draw(st.integers(0, 9))
        if kind == 0 and depth < 2:
            lines.append(f"{pad}{key}:")
            lines.extend(draw(_block(indent + 2, depth + 1)))
        elif kind == 1:
            items = draw(st.lists(st.sampled_from(SCALARS[:3]), min_size=1, max_size=3))
            lines.append(f"{pad}{key}: [{', '.join(items)}]")
        elif kind == 2:
            inner = draw(st.sampled_from(KEYS[:3]))
            item = draw(st.sampled_from(TOKENS[:1] + SCALARS[:2]))
            lines.append(f"{pad}{key}: {{{inner}: {item}}}")
        elif kind == 3:
            lines.append(f"{pad}{key}: {draw(st.sampled_from(TOKENS))}")
        elif kind == 4:
            lines.append(f"{pad}{key}: |\n{pad}  block text\n{pad}  more")
        else:
            lines.append(f"{pad}{key}: {draw(st.sampled_from(SCALARS))}")
        if draw(st.integers(0, 5)) == 0:
            lines.append(f"{pad}# a comment")
    return lines


@st.composite
def yaml_files(draw: st.DrawFn) -> str:
    text = "\n".join(draw(_block(0, 0)))
    if draw(st.booleans()):
        text += "\n"
    if draw(st.integers(0, 4)) == 0:
        text = text.replace("\n", "\r\n")
    if draw(st.integers(0, 5)) == 0:
        text = "\ufeff" + text
    return text


@st.composite
def json_files(draw: st.DrawFn) -> str:
    def value(depth: int) -> str:
        if depth < 2 and draw(st.integers(0, 3)) == 0:
            return obj(depth + 1)
        return draw(st.sampled_from(("1", '"x"', "[1, 2]", "true", "null", '"%{facts.role}"')))

    def obj(depth: int) -> str:
        members = [
            f'"{draw(st.sampled_from(("a", "b", "c")))}": {value(depth)}'
            for _ in range(draw(st.integers(1, 5)))
        ]
        sep = draw(st.sampled_from((", ", ",\n  ", ",")))
        return "{" + sep.join(members) + "}"

    return obj(0) + draw(st.sampled_from(("", "\n")))


def ordered(value: object) -> object:
    """A form in which ``==`` compares values and the order of every hash's keys."""
    if isinstance(value, dict):
        return ("hash", tuple((repr(k), ordered(v)) for k, v in value.items()))
    if isinstance(value, list):
        return ("list", tuple(ordered(v) for v in value))
    return (type(value).__name__, repr(value))


def load(path: str, text: str) -> DataFile:
    return load_json_data(path, text) if path.endswith(".json") else load_yaml_data(path, text)


def fixed_by_check(path: str, text: str) -> tuple[str, list[tuple[int, int, str]]]:
    """``--fix``'s result for the file alone, and its edits as offsets of ``text``."""
    problems = check_data_file(None, DataSource(path, text, load(path, text)))
    fixed, fixes, _ = fixed_text(path, text, problems)
    lines = LineMap(text)
    edits = [
        (lines.offset(e.span.start), lines.offset(e.span.end), e.new_text)
        for f in fixes
        for e in f.edits
    ]
    return fixed, sorted(edits)


def outside_edits_unchanged(text: str, fixed: str, edits: list[tuple[int, int, str]]) -> None:
    at_old = at_new = 0
    for start, end, new in edits:
        kept = text[at_old:start]
        assert fixed[at_new : at_new + len(kept)] == kept
        at_new += len(kept)
        assert fixed[at_new : at_new + len(new)] == new
        at_new += len(new)
        at_old = end
    assert fixed[at_new:] == text[at_old:]


def fix_target(case: tuple[str, str]) -> bool:
    """The properties for one file (``name``, ``text``); whether a fix was applied."""
    name, text = case
    path = f"/fuzz/data/{name}"
    fixed, edits = fixed_by_check(path, text)
    if not edits:
        return False
    outside_edits_unchanged(text, fixed, edits)
    before, after = load(path, text), load(path, fixed)
    assert after.error is None, (text, fixed, after.error)
    if before.error is None:
        assert ordered(after.data) == ordered(before.data), (text, fixed)
    elif before.readable is not None and "%{" not in text:
        # refused for its dates only: each is now its text, everything else as it was
        assert ordered(after.data) == ordered(before.readable.data), (text, fixed)
    return True


def written_by_fix(case: tuple[str, str]) -> None:
    """The same through ``check --fix``'s write: the file's bytes are the text its rounds of
    fixes give (a fix may reveal another: a file that parses again shows its dates)."""
    name, text = case
    expected = text
    for _ in range(5):
        again, _ = fixed_by_check(f"/fuzz/data/{name}", expected)
        if again == expected:
            break
        expected = again
    with tempfile.TemporaryDirectory(prefix="hiera-ls-fix-fuzz-") as tmp:
        root = Path(tmp)
        (root / "data").mkdir()
        function = "json_data" if name.endswith(".json") else "yaml_data"
        (root / "hiera.yaml").write_text(
            f"version: 5\nhierarchy:\n  - name: c\n    path: {name}\n    data_hash: {function}\n"
        )
        target = root / "data" / name
        target.write_bytes(text.encode("utf-8"))
        fix_files([str(root)], [str(target)], Settings())
        assert target.read_bytes() == expected.encode("utf-8"), (text, expected)


fix_inputs = st.one_of(
    st.tuples(st.just("c.yaml"), yaml_files()), st.tuples(st.just("c.json"), json_files())
)
# for bench/fuzz.py's long run (its share of the inputs: 10 per thousand)
FIX_TARGET = Target("fix", fix_inputs, fix_target, 10, 300, 5.0)


@settings(
    max_examples=examples(300),
    derandomize=True,
    database=None,
    deadline=timedelta(seconds=5),
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    print_blob=True,
)
@given(fix_inputs)
def test_a_safe_fix_keeps_what_puppet_reads_and_every_other_byte(case: Any) -> None:
    fix_target(case)


@settings(
    max_examples=40,
    derandomize=True,
    database=None,
    deadline=timedelta(seconds=10),
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(fix_inputs)
def test_check_fix_writes_the_fixed_text_byte_for_byte(case: Any) -> None:
    written_by_fix(case)


def test_the_generator_makes_files_the_fixes_change() -> None:
    """The fuzzer is worth its run only if most of its files get a fix."""
    fixed = 0

    @settings(max_examples=100, derandomize=True, database=None, deadline=None)
    @given(fix_inputs)
    def count(case: Any) -> None:
        nonlocal fixed
        fixed += fix_target(case)

    count()
    assert fixed >= 30


def test_comments_of_a_value_go_with_it_not_into_a_block_scalar() -> None:
    """Found by the long run (bench/fuzz.py --targets fix): an indented comment left behind
    when an entry moved or went followed a ``|`` block scalar, and became its text."""
    for text in (
        "a:\n  c:\n    x: 1\n    # a comment\na: |\n  block text\n  more\nb: 1\n",
        "yes: 1\r\n'b': |\r\n  block\r\nyes:\r\n  c: {c: x}\r\n  # a comment\r\n",
    ):
        assert fix_target(("c.yaml", text)), text
