"""``hiera-ls diff`` does not look a key up for a node whose lookup stops, at both
revisions, at the same definition in a file both hold alike (report/stopped_lookups.py):
its node file's, say, while common.yaml's changes.  The report is the one every lookup
gives (the random repositories of test_diff_unchanged.py compare it with the long way);
here, each thing that could make the two answers differ is seen to be looked up."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from hiera_ls.engine.lookup import LookupSession
from hiera_ls.report import diff
from hiera_ls.report.diff import run_diff
from hiera_ls.report.diff_result import DiffResult
from tests.report.test_diff_unchanged import HIERA, _committed, _no_sharing, _write

NODES = ("n1.example.com", "n2.example.com", "n3.example.com")
N1 = "data/nodes/n1.example.com.yaml"
F1 = ".hiera-ls/facts/n1.example.com.json"
C = "data/common.yaml"


def _fleet(extra: dict[str, object] | None = None) -> dict[str, object]:
    files: dict[str, object] = {"hiera.yaml": HIERA}
    for name in NODES:
        files[f".hiera-ls/facts/{name}.json"] = {"role": "web", "where": "dc1"}
    return {**files, **(extra or {})}


def _lookups(root: Path, stopping: bool = True) -> tuple[DiffResult, Counter[str]]:
    asked: Counter[str] = Counter()
    real = LookupSession.lookup

    def counted(self: LookupSession, names: object, *args: object, **kwargs: object) -> object:
        asked[str(names)] += 1
        return real(self, names, *args, **kwargs)  # type: ignore[arg-type]

    with pytest.MonkeyPatch.context() as m:
        m.setattr(LookupSession, "lookup", counted)
        if not stopping:
            m.setattr(diff, "stopped_alike", lambda base, head, nodes, keys: {})
        return run_diff(str(root)), asked


def _diff(root: Path) -> tuple[DiffResult, int, int]:
    """The diff, its lookups of ``app::k``, and theirs when every node is looked up; and
    the same diff made the long way (every lookup, no sharing)."""
    result, asked = _lookups(root)
    _, every = _lookups(root, stopping=False)
    with pytest.MonkeyPatch.context() as m:
        _no_sharing(m)
        assert run_diff(str(root)) == result
    return result, asked["app::k"], every["app::k"]


def _changed_for(result: DiffResult, key: str) -> set[str]:
    return {p for c in result.changes if c.key == key for g in c.groups for p in g.profiles}


def test_a_node_whose_own_file_defines_the_key_is_not_looked_up(tmp_path: Path) -> None:
    root = tmp_path / "repo"
    node = {"app::k": {"own": "%{facts.role}-%{trusted.certname}"}}
    _committed(
        root,
        _fleet(
            {
                "data/common.yaml": {"app::k": {"common": 1}},
                "data/nodes/n1.example.com.yaml": node,
                "data/nodes/n2.example.com.yaml": node,
            }
        ),
    )
    _write(root, "data/common.yaml", {"app::k": {"common": 2}})
    result, asked, every = _diff(root)
    assert _changed_for(result, "app::k") == {"n3.example.com"}
    assert (asked, every) == (2, 6)  # n3 at each revision; n1 and n2 not at all


@pytest.mark.parametrize(
    ("why", "files"),
    [
        (
            "the merge strategy is not first-found",
            {"data/common.yaml": {"lookup_options": {"^app::": {"merge": "hash"}}}},
        ),
        ("a literal lookup_options entry", {C: {"lookup_options": {"app::k": {}}}}),
        ("the definition looks another key up", {N1: {"app::k": "%{lookup('app::j')}"}}),
        ("the definition is an alias", {N1: {"app::k": "%{alias('app::j')}"}}),
        ("the variable's value holds a token", {F1: {"role": "web", "where": "%{hiera('j')}"}}),
        ("a file the nodes read fails to load", {"data/roles/web.yaml": "a: [\n"}),
    ],
)  # fmt: skip
def test_what_could_make_the_answers_differ_is_looked_up(
    tmp_path: Path, why: str, files: dict[str, object]
) -> None:
    root = tmp_path / "repo"
    base = {
        "data/common.yaml": {"app::k": {"common": 1}, "app::j": "old"},
        "data/nodes/n1.example.com.yaml": {"app::k": "%{facts.where}"},
    }
    for rel, data in files.items():
        old = base.get(rel)
        base[rel] = {**old, **data} if isinstance(old, dict) and isinstance(data, dict) else data
    _committed(root, _fleet(base))
    common = base["data/common.yaml"]
    assert isinstance(common, dict)
    _write(root, "data/common.yaml", {**common, "app::k": {"common": 2}, "app::j": "new"})
    _, asked, every = _diff(root)
    assert asked == every, why


def test_a_node_file_that_changes_is_looked_up(tmp_path: Path) -> None:
    root = tmp_path / "repo"
    _committed(
        root,
        _fleet(
            {
                "data/common.yaml": {"app::k": 1},
                "data/nodes/n1.example.com.yaml": {"app::k": 5, "app::other": 1},
            }
        ),
    )
    _write(root, "data/common.yaml", {"app::k": 2})
    _write(root, "data/nodes/n1.example.com.yaml", {"app::k": 6, "app::other": 1})
    result, asked, every = _diff(root)
    assert _changed_for(result, "app::k") == set(NODES)
    assert asked == every


def test_the_same_definition_in_a_file_that_changes_elsewhere_is_not_looked_up(
    tmp_path: Path,
) -> None:
    root = tmp_path / "repo"
    _committed(
        root,
        _fleet({"data/common.yaml": {"app::k": 1}, N1: {"app::k": 5, "app::other": 1}}),
    )
    _write(root, "data/common.yaml", {"app::k": 2})
    _write(root, N1, {"app::other": 2, "app::k": 5})
    result, asked, every = _diff(root)
    assert _changed_for(result, "app::k") == {"n2.example.com", "n3.example.com"}
    assert asked < every
