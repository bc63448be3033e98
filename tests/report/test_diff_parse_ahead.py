"""``hiera-ls diff`` with ``--jobs``: the data files are parsed over the workers before the
lookups (report/twin_cache.py ``clean_values`` and ``TwinCache.seed``).  Only a file that
loads cleanly comes back as its values; one Puppet refuses, or one with anything to say
(a duplicate key, a YAML 1.1 boolean key, a Symbol, an empty file), is parsed where it is
read, so its answers (an error, a warning) are those of a run without workers."""

from __future__ import annotations

from pathlib import Path

import pytest

from hiera_ls.report import twin_cache, workers
from hiera_ls.report.diff import run_diff
from hiera_ls.report.twin_cache import TwinCache
from tests.report.test_diff_unchanged import HIERA, _committed, _no_sharing, _write

NODES = ("n1", "n2", "n3", "n4", "n5", "n6", "n7")
# each node's own file: clean, or with something to say (never taken from a worker)
OWN = {
    "n1": '"app::k": {"own": "%{facts.role}"}\n"app::j": [1, 2]\n',
    "n2": "app::k: 1\napp::k: 2\n",  # a duplicate key: the last one, and a warning
    "n3": "app::k: [unclosed\n",  # refused: every lookup reading it fails
    "n4": "yes: 1\napp::k: {own: 4}\n",  # a YAML 1.1 boolean key
    "n5": "app::k: :sym\n",  # a Symbol: the key's lookup fails
    "n6": "",  # empty: Puppet warns that it is not a hash
    "n7": "app::k: 2020-01-01\n",  # a Date: Psych refuses the file
}


def _repo(root: Path) -> None:
    files: dict[str, object] = {
        "hiera.yaml": HIERA,
        "data/common.yaml": {"app::k": {"common": 1}, "app::j": [3], "lookup_options": {}},
        "data/roles/web.yaml": {"app::k": {"role": "%{trusted.certname}"}},
    }
    for name in NODES:
        files[f".hiera-ls/facts/{name}.example.com.json"] = {"role": "web"}
        files[f"data/nodes/{name}.example.com.yaml"] = OWN[name]
    _committed(root, files)
    # common.yaml changes (and with it every node's merged answer); n1's own file too
    options = {"app::k": {"merge": "hash"}, "app::j": {"merge": "unique"}}
    common = {"app::k": {"common": 2}, "app::j": [4], "lookup_options": options}
    _write(root, "data/common.yaml", common)
    _write(root, "data/nodes/n1.example.com.yaml", OWN["n1"].replace("[1, 2]", "[1, 5]"))


def test_files_parsed_by_the_workers_give_the_report_of_one_process(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = tmp_path / "repo"
    _repo(root)
    monkeypatch.chdir(root)
    alone = run_diff(str(root))
    seeded: list[str] = []
    real = TwinCache.seed

    def seed(self: TwinCache, path: str, text: str, values: object) -> None:
        seeded.append(Path(path).name)
        real(self, path, text, values)  # type: ignore[arg-type]

    with monkeypatch.context() as m:
        m.setattr(workers, "MIN_SPREAD_S", 0.0)  # workers for any work, however small
        m.setattr(twin_cache.TwinCache, "seed", seed)
        spread = run_diff(str(root), jobs=2)
    with monkeypatch.context() as m:
        _no_sharing(m)
        every = run_diff(str(root))
    assert spread == alone == every
    # the clean files came from the workers; the others were parsed here
    assert sorted(seeded) == ["common.yaml", "n1.example.com.yaml", "web.yaml"]
    changed = {g for c in alone.changes for group in c.groups for g in group.profiles}
    # n3's and n7's files are refused at both revisions: their lookups fail alike (a file
    # taken as clean, without its failure, would give them common.yaml's changed values)
    assert changed == {f"{n}.example.com" for n in ("n1", "n2", "n4", "n5", "n6")}
