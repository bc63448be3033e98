"""The long fuzzing run: the targets of tests/robustness/test_fuzz.py on many inputs.

Not a test: run it by hand (it takes hours for a million inputs on a busy machine).

    python bench/fuzz.py [--inputs 1000000] [--targets yaml,json,...] [--seed 1]

The inputs are shared out between the targets by their weights (the cheap parsers get
most); --targets runs some of them, each with its share of --inputs, so runs of disjoint
groups in parallel add up to --inputs. Hypothesis generates them in chunks of --chunk
examples, each chunk with its own seed, so its memory of what it has tried stays small; an
example of a cheap target is a batch of inputs, which spreads Hypothesis's own cost.
Unlike the CI run, a failing input does not stop the run: each failure is recorded under
its exception type and the place it was raised, with the shortest input seen for it, and
inputs slower than 2 s are counted. At the end (and every --report-every seconds) it prints
per target: inputs, crashes, slow inputs, the slowest time, and each distinct failure with
its shortest example.
"""

from __future__ import annotations

import argparse
import sys
import time
import traceback
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, Phase, given, seed, settings
from hypothesis import strategies as st

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the tests package
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "server"))

from tests.robustness.test_fix_fuzz import FIX_TARGET
from tests.robustness.test_fuzz import HANG_S, TIME_BOUND_S, Target, bounded
from tests.robustness.test_fuzz import TARGETS as CORE_TARGETS
from tests.robustness.test_fuzz_untrusted import TARGETS as UNTRUSTED_TARGETS

TARGETS = (*CORE_TARGETS, *UNTRUSTED_TARGETS, FIX_TARGET)


@dataclass(slots=True)
class Failure:
    count: int
    example: str
    message: str


@dataclass(slots=True)
class Tally:
    inputs: int = 0
    crashes: int = 0
    slow: int = 0
    slowest_s: float = 0.0
    slowest_example: str = ""
    failures: dict[str, Failure] = field(default_factory=dict)


def where(exc: BaseException) -> str:
    """The exception's type and the innermost frame of the project (or of the test)."""
    frames = traceback.extract_tb(exc.__traceback__)
    ours = [f for f in frames if "hiera_ls" in f.filename or "test_fuzz" in f.filename]
    frame = (ours or frames)[-1] if frames else None
    place = f"{Path(frame.filename).name}:{frame.lineno} ({frame.name})" if frame else "?"
    return f"{type(exc).__name__} at {place}"


# inputs per Hypothesis example, for targets whose check costs less than the generation
BATCH = {"interpolation": 10, "yaml": 5, "yaml-edit": 5, "json": 10, "hiera.yaml": 2}


def run_target(target: Target, count: int, chunk: int, base_seed: int, tally: Tally) -> None:
    batch = BATCH.get(target.name, 1)
    strategy = st.lists(target.strategy, min_size=batch, max_size=batch)

    def check_batch(values: list[Any]) -> None:
        for value in values:
            check(value)

    def check(value: Any) -> None:
        tally.inputs += 1
        start = time.perf_counter()
        try:
            with bounded(HANG_S):
                target.check(value)
        except Exception as exc:  # every failure is recorded, none stops the run
            tally.crashes += 1
            key = where(exc)
            text = repr(value)
            known = tally.failures.get(key)
            message = str(exc).splitlines()[0][:300] if str(exc) else ""
            if known is None:
                tally.failures[key] = Failure(1, text, message)
            else:
                known.count += 1
                if len(text) < len(known.example):
                    known.example, known.message = text, message
        took = time.perf_counter() - start
        if took > TIME_BOUND_S:
            tally.slow += 1
        if took > tally.slowest_s:
            tally.slowest_s, tally.slowest_example = took, repr(value)[:300]

    done = 0
    n = 0
    while done < count:
        size = max(1, min(chunk, count - done) // batch)
        runner = seed(base_seed * 1_000_003 + n)(
            settings(
                max_examples=size,
                database=None,
                deadline=None,
                phases=[Phase.generate],
                suppress_health_check=list(HealthCheck),
            )(given(strategy)(check_batch))
        )
        before = tally.inputs
        runner()
        # a strategy with few distinct inputs may end a chunk early: count what ran
        done += max(tally.inputs - before, 1)
        n += 1


def report(tallies: dict[str, Tally], elapsed: float) -> None:
    total = sum(t.inputs for t in tallies.values())
    print(f"\n== {total} inputs in {elapsed:.0f} s", flush=True)
    print(f"{'target':<14} {'inputs':>9} {'crashes':>8} {'slow>2s':>8} {'slowest s':>10}")
    for name, t in tallies.items():
        print(f"{name:<14} {t.inputs:>9} {t.crashes:>8} {t.slow:>8} {t.slowest_s:>10.3f}")
    for name, t in tallies.items():
        if t.slowest_s > TIME_BOUND_S:
            print(f"  {name}: slowest input ({t.slowest_s:.2f} s): {t.slowest_example}")
        for key, failure in t.failures.items():
            print(f"  {name}: {key}: {failure.count} inputs; {failure.message}")
            print(f"    shortest: {failure.example[:500]}")
    sys.stdout.flush()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--inputs", type=int, default=1_000_000)
    parser.add_argument("--targets", default=",".join(t.name for t in TARGETS))
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--chunk", type=int, default=2000)
    parser.add_argument("--report-every", type=float, default=300.0)
    args = parser.parse_args()
    chosen = [t for t in TARGETS if t.name in args.targets.split(",")]
    weights = sum(t.weight for t in TARGETS)
    tallies = {t.name: Tally() for t in chosen}
    start = last = time.perf_counter()
    for target in chosen:
        share = args.inputs * target.weight // weights
        print(f"{target.name}: {share} inputs", flush=True)
        done = 0
        while done < share:
            step = min(share - done, args.chunk * 5)
            run_target(target, step, args.chunk, args.seed + done, tallies[target.name])
            done += step
            if time.perf_counter() - last > args.report_every:
                last = time.perf_counter()
                report(tallies, last - start)
        t = tallies[target.name]
        print(
            f"{target.name} done: {t.inputs} inputs, {t.crashes} crashes, {t.slow} slow, "
            f"in {time.perf_counter() - start:.0f} s",
            flush=True,
        )
    report(tallies, time.perf_counter() - start)
    # a crash is a bug, whatever the run was for (bench/run_all.py fails on it)
    sys.exit(1 if any(t.crashes for t in tallies.values()) else 0)


if __name__ == "__main__":
    main()
