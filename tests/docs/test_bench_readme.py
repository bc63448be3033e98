"""Every bench has a short run in bench/run_all.py (which CI runs) and a row in bench/README.md.

A bench left out of the runner would rot unseen: nothing else runs it. The short runs
themselves are CI's (.ci/run runs ``bench/run_all.py --short --puppetdb``): minutes, not
for the quick loop.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[2]
BENCH = ROOT / "bench"
HELPERS = {"run_all.py", "gen_repo.py", "puppet_bench.rb"}  # no figures of their own


def _runner() -> ModuleType:
    spec = importlib.util.spec_from_file_location("run_all", BENCH / "run_all.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["run_all"] = module  # its dataclasses look their module up while it loads
    sys.path.insert(0, str(BENCH))
    try:
        spec.loader.exec_module(module)
    finally:
        sys.path.remove(str(BENCH))
        del sys.modules["run_all"]
    return module


def test_every_bench_script_has_a_short_run_in_the_runner() -> None:
    runner = _runner()
    scripts = {b.script for b in runner.BENCHES.values()}
    found = {p.name for p in BENCH.iterdir() if p.suffix in (".py", ".rb")} - HELPERS
    assert sorted(found) == sorted(scripts)
    for name, bench in runner.BENCHES.items():
        assert bench.figures, name
        args = bench.short(Path("/repo"))
        assert all(isinstance(a, str) for a in args), name


def test_the_bench_readme_names_every_bench_and_its_short_figures() -> None:
    runner = _runner()
    readme = (BENCH / "README.md").read_text(encoding="utf-8")
    for name in [*runner.BENCHES, *(Path(h).stem for h in HELPERS)]:
        assert f"`{name}" in readme, name
    assert "python3 bench/run_all.py --short" in readme
