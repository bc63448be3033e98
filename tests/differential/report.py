"""Look at what the generator makes and what Puppet answers, outside pytest.

python -m tests.differential.report --write SEED DIR [--target T] [--engine E]
    lay out one seed's environment in DIR and print how to query it
python -m tests.differential.report --coverage [--seeds 150]
    feature counts over the seeds (what the differential test exercises)
python -m tests.differential.report --outcomes [--seeds 150]
    also ask Puppet: found / not found / error, the commonest errors, oracle throughput
"""

from __future__ import annotations

import argparse
import json
import re
import shlex
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

from hiera_ls.project.targets import DEFAULT_TARGET, TARGET_NAMES, TARGETS, Target
from tests.differential.generator import GenOptions, generate
from tests.differential.harness import (
    DEFAULT_SEEDS,
    hiera_ls_command,
    normalise_paths,
    outcome,
    parse_seeds,
)
from tests.oracle.engines import ENGINES, PuppetEngine
from tests.oracle.puppet import PuppetOracle


def _write(seed: int, directory: Path, target: Target, engine: PuppetEngine) -> int:
    if directory.exists() and any(directory.iterdir()):
        print(f"{directory} is not empty", file=sys.stderr)
        return 2
    env = generate(seed, directory, GenOptions(strict_sensitive=target.strict_errors))
    print(f"seed {seed}: {len(env.files)} files under {env.base}")
    print("batch input (one JSON line per lookup):")
    print(env.batch_input(), end="")
    print("hiera-ls:")
    print("  " + shlex.join([*hiera_ls_command(), *env.cli_args(target)]) + " < lookups.jsonl")
    (env.base / "lookups.jsonl").write_text(env.batch_input(), encoding="utf-8")
    (env.base / "oracle-request.json").write_text(
        json.dumps(env.oracle_request(target)) + "\n", encoding="utf-8"
    )
    print(f"{engine.title}'s oracle:")
    oracle = shlex.join(engine.shown(["ruby", "tests/oracle/puppet_oracle.rb"]))
    print(f"  {oracle} < {env.base / 'oracle-request.json'}")
    return 0


def _family(message: str) -> str:
    """An error message with its variable parts blurred, to count kinds of errors."""
    message = message.split("\n", 1)[0]
    message = re.sub(r"'[^']*'", "'…'", message)
    message = re.sub(r"\([^)]*\)", "(…)", message)
    message = re.sub(r"\[[^\]]*\]", "[…]", message)
    return message[:100]


def _coverage(seeds: list[int], outcomes: bool, engine: PuppetEngine) -> int:
    features: Counter[str] = Counter()
    results: Counter[str] = Counter()
    families: Counter[str] = Counter()
    envs_with = Counter[str]()
    lookups = 0
    oracle_seconds = 0.0
    oracle = PuppetOracle(engine) if outcomes else None
    try:
        if oracle is not None:
            oracle.start()
        with tempfile.TemporaryDirectory(prefix="hiera-ls-report-") as tmp:
            for seed in seeds:
                env = generate(seed, Path(tmp) / str(seed))
                features.update(env.features)
                envs_with.update(set(env.features))
                lookups += len(env.lookups)
                if oracle is not None:
                    started = time.perf_counter()
                    answers = oracle.lookup_batch(env.oracle_request())
                    oracle_seconds += time.perf_counter() - started
                    for answer in answers:
                        kind = outcome(answer)
                        results[kind] += 1
                        if kind == "error":
                            families[_family(normalise_paths(str(answer["error"]), env.base))] += 1
    finally:
        if oracle is not None:
            oracle.close()
    print(f"{len(seeds)} environments, {lookups} lookups")
    print(f"{'feature':48} {'count':>7} {'envs':>5}")
    for name in sorted(features):
        print(f"{name:48} {features[name]:7} {envs_with[name]:5}")
    if oracle is not None:
        total = sum(results.values()) or 1
        print()
        print(
            "Puppet's answers: "
            + ", ".join(f"{k} {v} ({100 * v / total:.1f}%)" for k, v in results.most_common())
        )
        print(
            f"oracle: {oracle_seconds:.1f}s for {len(seeds)} requests = "
            f"{lookups / oracle_seconds:.0f} lookups/s, {len(seeds) / oracle_seconds:.1f} "
            "environments/s"
        )
        print("commonest errors:")
        for family, count in families.most_common(40):
            print(f"  {count:5}  {family}")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.differential.report")
    parser.add_argument("--write", nargs=2, metavar=("SEED", "DIR"))
    parser.add_argument("--target", choices=TARGET_NAMES, default=DEFAULT_TARGET.name)
    parser.add_argument("--engine", choices=tuple(ENGINES), default="puppet7")
    parser.add_argument("--coverage", action="store_true")
    parser.add_argument("--outcomes", action="store_true")
    parser.add_argument("--seeds", default=DEFAULT_SEEDS)
    args = parser.parse_args(argv)
    if args.write:
        target, engine = TARGETS[args.target], ENGINES[args.engine]
        return _write(int(args.write[0]), Path(args.write[1]), target, engine)
    if args.coverage or args.outcomes:
        return _coverage(parse_seeds(args.seeds), args.outcomes, ENGINES[args.engine])
    parser.print_help()
    return 2


if __name__ == "__main__":
    raise SystemExit(main())
