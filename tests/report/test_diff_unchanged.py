"""``hiera-ls diff`` looks up only the keys whose definitions differ between the revisions
(report/unchanged_keys.py), parses a file both revisions hold once
(report/twin_cache.py), and gives a class of profiles the answer of another whose key
signature is the same (features/profile_signature.py): on random repositories whose change
is read by only some profiles (a node file, a role's file, a value another key looks up, a
lookup_options entry or pattern, a type, a key order, a file that no longer parses, a
module's data), the report is the one every key looked up gives, and each profile's part
of it the one a run of that profile alone gives."""

from __future__ import annotations

import gc
import json
import random
from collections.abc import Callable
from pathlib import Path

import pytest

from hiera_ls.report import collector, diff, workers
from hiera_ls.report.diff import run_diff
from hiera_ls.report.diff_result import DiffResult
from hiera_ls.report.run import CheckError
from hiera_ls.source.data_cache import DataCache
from tests.report.diff_fixture import git

HIERA = """\
---
version: 5
defaults:
  datadir: data
  data_hash: yaml_data
hierarchy:
  - name: nodes
    path: "nodes/%{trusted.certname}.yaml"
  - name: roles
    path: "roles/%{facts.role}.yaml"
  - name: common
    path: common.yaml
"""
MODULE_HIERA = """\
---
version: 5
hierarchy:
  - name: module common
    path: common.yaml
"""
KEYS = [f"app::k{i}" for i in range(8)]
MODULE_KEYS = ["mod::a", "mod::b"]
ROLES = ("web", "db", "app")
NODES = [f"n{i}.example.com" for i in range(6)]


def _value(rng: random.Random, depth: int = 0) -> object:
    pick = rng.randrange(9 if depth < 2 else 6)
    if pick == 0:
        return rng.randint(0, 3)
    if pick == 1:
        return rng.choice(["x", "y", 1.0, True])
    if pick == 2:
        return f"v-%{{facts.role}}-{rng.randint(0, 2)}"
    if pick == 3:
        fn = rng.choice(["lookup", "alias", "hiera"])
        target = rng.choice(KEYS + MODULE_KEYS)
        return f"%{{{fn}('{target}')}}" if fn == "alias" else f"<%{{{fn}('{target}')}}>"
    if pick == 4:
        return f"%{{trusted.certname}}-{rng.randint(0, 1)}"
    if pick == 5:
        return f"%{{scope('role')}}/%{{facts.missing}}{rng.randint(0, 1)}"
    if pick in (6, 7):
        return {f"h{i}": _value(rng, depth + 1) for i in rng.sample(range(4), rng.randint(1, 3))}
    return [_value(rng, depth + 1) for _ in range(rng.randint(1, 3))]


def _data(rng: random.Random, keys: list[str], count: int) -> dict[str, object]:
    return {key: _value(rng) for key in rng.sample(keys, count)}


def _options(rng: random.Random) -> dict[str, object]:
    merges = ["first", "unique", "hash", "deep"]
    return {
        rng.choice(KEYS): {"merge": rng.choice(merges)},
        "^app::k[0-3]$": {"merge": rng.choice(merges)},
        "^app::k[2-5]$": {"merge": rng.choice(merges)},
    }


def _write(root: Path, rel: str, data: object) -> None:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(data if isinstance(data, str) else json.dumps(data))


def _repository(root: Path, rng: random.Random) -> None:
    _write(root, "hiera.yaml", HIERA)
    common = _data(rng, KEYS, 6)
    common["lookup_options"] = _options(rng)
    _write(root, "data/common.yaml", common)
    for role in ROLES:
        _write(root, f"data/roles/{role}.yaml", _data(rng, KEYS, 3))
    for name in rng.sample(NODES, 3):
        _write(root, f"data/nodes/{name}.yaml", _data(rng, KEYS, 2))
    _write(root, "modules/mod/hiera.yaml", MODULE_HIERA)
    _write(root, "modules/mod/data/common.yaml", _data(rng, MODULE_KEYS, 2))
    for i, name in enumerate(NODES):
        facts = {"role": ROLES[i % len(ROLES)] if i < 5 else rng.choice(ROLES)}
        _write(root, f".hiera-ls/facts/{name}.json", facts)


def _files(root: Path) -> list[Path]:
    return [*sorted((root / "data").rglob("*.yaml")), root / "modules/mod/data/common.yaml"]


def _change(root: Path, rng: random.Random) -> None:
    """One change in the working tree, read by some profiles or none."""
    path = rng.choice(_files(root))
    try:
        data = json.loads(path.read_text()) if path.exists() else {}
    except json.JSONDecodeError:  # made unparseable by an earlier change
        data = {}
    keys = MODULE_KEYS if "modules" in str(path) else KEYS
    kind = rng.randrange(9)
    if kind == 0 and data:  # a value
        data[rng.choice(sorted(data))] = _value(rng)
    elif kind == 1:  # a key more, or one less
        if data and rng.random() < 0.5:
            del data[rng.choice(sorted(data))]
        else:
            data[rng.choice(keys)] = _value(rng)
    elif kind == 2:  # lookup_options: an entry, or a pattern
        path = root / "data/common.yaml"
        try:
            data = json.loads(path.read_text())
        except (OSError, json.JSONDecodeError):  # gone or unparseable after an earlier change
            data = {}
        options = data.setdefault("lookup_options", {})
        name = rng.choice([*KEYS, "^app::k[0-3]$", "^app::k[2-5]$", "^app::k7"])
        options[name] = {"merge": rng.choice(["first", "unique", "hash", "deep"])}
    elif kind == 3 and data:  # the same entries in another order
        data = dict(reversed(list(data.items())))
    elif kind == 4 and data:  # the same value as another type
        key = rng.choice(sorted(data))
        value = data[key]
        data[key] = float(value) if isinstance(value, int) else str(value)
    elif kind == 5:  # a file that no longer parses
        path.write_text("key: [unclosed\n")
        return
    elif kind == 6 and path.exists():  # the file gone
        path.unlink()
        return
    elif kind == 7:  # a node file for a node that had none
        node = rng.choice(NODES)
        path = root / f"data/nodes/{node}.yaml"
        data = _data(rng, KEYS, 2)
    else:  # the same bytes, written again
        pass
    _write(root, str(path.relative_to(root)), data)


def _no_sharing(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every key looked up at both revisions and for every profile (none left out for
    stopping at the same definition at both), every file parsed at each, with its ranges,
    and every class of profiles for itself (no answer given to another class by its key
    signature)."""
    monkeypatch.setattr(diff, "unchanged_keys", lambda base, head, keys: frozenset())
    monkeypatch.setattr(diff, "stopped_alike", lambda base, head, nodes, keys: {})
    monkeypatch.setattr(diff, "TwinCache", lambda twins, positions: DataCache())
    monkeypatch.setattr(diff.ProfileSignatures, "keys", lambda *_, **__: None)


def _by_profile(result: DiffResult, profile: str) -> dict[str, tuple[object, object]]:
    return {
        change.key: (group.before, group.after)
        for change in result.changes
        for group in change.groups
        if profile in group.profiles
    }


def _random_diff(tmp_path: Path, seed: int) -> tuple[Path, Callable[..., DiffResult]]:
    rng = random.Random(seed)
    root = tmp_path / "repo"
    _repository(root, rng)
    git(root, "init", "-q")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "base")
    for _ in range(rng.randint(1, 3)):
        _change(root, rng)
    return root, lambda **kw: run_diff(str(root), **kw)


# one seed in the quick loop, the others with the slow tests
SEEDS = [0, *(pytest.param(s, marks=pytest.mark.slow) for s in range(1, 60))]


@pytest.mark.parametrize("seed", SEEDS)
def test_keys_left_unlooked_up_change_nothing_in_the_report(
    tmp_path: Path, seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    _, diff_of = _random_diff(tmp_path, seed)
    shared = diff_of()
    every = diff_of(keys=[*KEYS, *MODULE_KEYS])  # a run of one profile compares the same keys
    with monkeypatch.context() as m:
        m.setattr(workers, "MIN_SPREAD_S", 0.0)  # files parsed and keys looked up by workers
        assert diff_of(jobs=2) == shared
    with monkeypatch.context() as m:
        _no_sharing(m)
        assert diff_of() == shared
        for profile in NODES:
            alone = diff_of(profiles=[profile], keys=[*KEYS, *MODULE_KEYS])
            assert _by_profile(alone, profile) == _by_profile(every, profile), profile


def test_a_change_another_key_looks_up_is_seen_through_it(tmp_path: Path) -> None:
    root = tmp_path / "repo"
    _write(root, "hiera.yaml", HIERA)
    _write(root, "data/common.yaml", {"app::k0": 1, "app::k1": "%{lookup('app::k0')}"})
    _write(root, "data/roles/web.yaml", {"app::k2": "%{alias('app::k1')}"})
    _write(root, ".hiera-ls/facts/n1.example.com.json", {"role": "web"})
    git(root, "init", "-q")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "base")
    _write(root, "data/common.yaml", {"app::k0": 2, "app::k1": "%{lookup('app::k0')}"})
    result = run_diff(str(root))
    assert [c.key for c in result.changes] == ["app::k0", "app::k1", "app::k2"]
    assert result.keys == 3


def _committed(root: Path, files: dict[str, object]) -> None:
    for rel, data in files.items():
        _write(root, rel, data)
    git(root, "init", "-q")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "base")


def test_a_pattern_of_lookup_options_changes_every_key_it_matches(tmp_path: Path) -> None:
    root = tmp_path / "repo"
    options = {"^app::k[01]$": {"merge": "first"}}
    _committed(
        root,
        {
            "hiera.yaml": HIERA,
            "data/common.yaml": {"lookup_options": options, "app::k0": {"a": 1}, "app::k2": 1},
            "data/roles/web.yaml": {"app::k0": {"b": 2}, "app::k1": [1]},
            ".hiera-ls/facts/n1.example.com.json": {"role": "web"},
        },
    )
    options["^app::k[01]$"] = {"merge": "hash"}
    _write(root, "data/common.yaml", {"lookup_options": options, "app::k0": {"a": 1}, "app::k2": 1})
    result = run_diff(str(root))
    assert [c.key for c in result.changes] == ["app::k0"]
    assert result.changes[0].groups[0].after.shown == {"b": 2, "a": 1}


def test_a_value_of_another_type_is_a_change(tmp_path: Path) -> None:
    root = tmp_path / "repo"
    _committed(
        root,
        {
            "hiera.yaml": HIERA,
            "data/common.yaml": {"app::k0": 1, "app::k1": {"a": 1, "b": 2}},
            ".hiera-ls/facts/n1.example.com.json": {"role": "web"},
        },
    )
    _write(root, "data/common.yaml", {"app::k0": 1.0, "app::k1": {"b": 2, "a": 1}})
    result = run_diff(str(root))
    assert [c.key for c in result.changes] == ["app::k0"]


def test_a_type_alias_that_comes_with_the_change_is_read_by_convert_to(tmp_path: Path) -> None:
    root = tmp_path / "repo"
    options = {"app::k0": {"convert_to": "Mytype"}}
    _committed(
        root,
        {
            "hiera.yaml": HIERA,
            "data/common.yaml": {"lookup_options": options, "app::k0": "x"},
            ".hiera-ls/facts/n1.example.com.json": {"role": "web"},
        },
    )
    _write(root, "types/mytype.pp", "type Mytype = String\n")
    with pytest.MonkeyPatch.context() as m:
        _no_sharing(m)
        expected = run_diff(str(root))
    assert [c.key for c in expected.changes] == ["app::k0"]
    assert run_diff(str(root)) == expected


def test_the_garbage_collector_is_as_it_was_after_a_diff(tmp_path: Path) -> None:
    """A diff puts off the collector's full passes while it runs (a library caller's
    process gets its own settings back, whether the diff succeeds or fails)."""
    before = gc.get_threshold()
    root, diff_of = _random_diff(tmp_path, 0)
    seen: list[tuple[int, int, int]] = []
    real = diff._compare

    def compare(*args: object, **kwargs: object) -> DiffResult:
        seen.append(gc.get_threshold())
        return real(*args, **kwargs)  # type: ignore[arg-type]

    with pytest.MonkeyPatch.context() as m:
        m.setattr(diff, "_compare", compare)
        diff_of()
    assert seen == [(before[0], before[1], collector.FULL_PASS_AFTER)]
    assert gc.get_threshold() == before
    with pytest.raises(CheckError):
        run_diff(str(root / "nowhere"))
    assert gc.get_threshold() == before
