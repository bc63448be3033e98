"""An unused-key hint gives way to a reported warning or error on the same key: the quick
ways (a few hints compared with the findings on their lines, many by bisection) say what
comparing every hint with every finding says."""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hiera_ls.checks.unused_data import KEY_UNUSED
from hiera_ls.features import said_once
from hiera_ls.puppet.message import Text
from hiera_ls.source.spans import FileSpan, Problem, Severity, Span

CODES = [KEY_UNUSED.code, "class-not-found", "class-parameter-unknown"]


def _problem(
    code: str, severity: Severity, line: int, column: int, lines: int, end: int
) -> Problem:
    return Problem(
        code, Text.of("m"), severity, FileSpan("f.yaml", Span.of(line, column, line + lines, end))
    )


_PROBLEMS = st.lists(
    st.builds(
        _problem,
        st.sampled_from(CODES),
        st.sampled_from(list(Severity)),
        st.integers(0, 8),
        st.integers(0, 5),
        st.integers(0, 2),
        st.integers(0, 6),
    ),
    max_size=30,
)


def _by_every_pair(found: list[Problem], reported: list[Problem]) -> list[Problem]:
    strong = {
        (p.code, p.where.span)
        for p in found
        if p.code != KEY_UNUSED.code and p.severity in (Severity.ERROR, Severity.WARNING)
    }
    marks = [m.where.span for m in reported if (m.code, m.where.span) in strong]
    return [
        p
        for p in reported
        if p.code != KEY_UNUSED.code
        or not any(m.start <= p.where.span.end and m.end >= p.where.span.start for m in marks)
    ]


@pytest.mark.parametrize("few", [said_once.FEW_HINTS, 0])
def test_hints_give_way_as_comparing_every_pair_says(
    few: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(said_once, "FEW_HINTS", few)
    _agrees()


@settings(max_examples=150, deadline=None)
@given(found=_PROBLEMS, policy=st.lists(st.sampled_from(["keep", "drop", "warn", "hint"])))
def _agrees(found: list[Problem], policy: list[str]) -> None:
    severities = {"warn": Severity.WARNING, "hint": Severity.HINT}
    reported = list(found)  # the policy changed nothing: the same objects
    if policy:  # a policy that drops findings or changes their severity
        reported = []
        for p, what in zip(found, policy * len(found), strict=False):
            if what in severities:
                reported.append(dataclasses.replace(p, severity=severities[what]))
            elif what == "keep":
                reported.append(p)
    assert said_once.without_said(found, list(reported)) == _by_every_pair(found, reported)


def test_a_new_run_of_the_checks_is_given_the_last_passes_findings(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The background run's findings equal to those of the file's last publish are those
    objects (so the pass after it, the conversion and the next edit compare identities), in
    slices with a pause between; the others are kept as found, and the order as it was."""
    monkeypatch.setattr(said_once, "REUSE_SLICE", 2)
    said = said_once.SaidOnce()
    last = [_problem(KEY_UNUSED.code, Severity.HINT, n, 0, 0, 3) for n in range(5)]
    said.without_said("f.yaml", last)
    again = [dataclasses.replace(p) for p in last[1:]]
    new = _problem("class-not-found", Severity.WARNING, 9, 0, 0, 1)
    found = [again[0], new, *again[1:]]
    pauses: list[int] = []
    got = said.reuse("f.yaml", found, lambda: pauses.append(len(pauses)))
    assert got == found
    assert [id(p) for p in got] == [id(last[1]), id(new), *(id(p) for p in last[2:])]
    assert len(pauses) == 2  # between the three slices
    assert said_once.SaidOnce().reuse("f.yaml", found) is found  # no last pass: as found
