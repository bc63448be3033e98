"""hiera-ls answers every lookup of a random environment exactly as Puppet does.

Each seed generates one environment (tests/differential/generator.py), asks Puppet's engine
(one oracle request) and ``hiera-ls lookup --batch`` (one process), and compares the answers
one by one, on each reference Puppet (tests/oracle/engines.py).  Seeds:
``HIERA_LS_DIFF_SEEDS`` (``150`` = seeds 0..149, ``10-19``, ``3,8,40-45``), each Puppet with
its own release's defaults and hiera-ls with that target (Puppet 7.23: ``--target
puppet7``; Puppet 8.10: ``--target puppet8``); the other target's settings run on every
tenth seed, or on ``HIERA_LS_DIFF_OTHER_TARGET_SEEDS`` (Puppet 7.23 with Puppet 8's
settings differs where docs/differences.md says, known_differences.py).  A failure prints
the differing answers and a minimised file set (``HIERA_LS_DIFF_MINIMISE`` = how many seeds
per run get minimised, default 3).
"""

from __future__ import annotations

import os
import warnings
from pathlib import Path

import pytest

from hiera_ls.project.targets import TARGETS, Target
from tests.differential.generator import GenOptions, generate
from tests.differential.harness import (
    DEFAULT_SEEDS,
    DiffStats,
    failing,
    message_policy,
    minimise,
    parse_seeds,
    reproduction,
    run_both,
)
from tests.oracle.puppet import PuppetOracle

SEEDS = parse_seeds(os.environ.get("HIERA_LS_DIFF_SEEDS", DEFAULT_SEEDS))
OTHER_TARGET_SEEDS = (
    parse_seeds(os.environ["HIERA_LS_DIFF_OTHER_TARGET_SEEDS"])
    if "HIERA_LS_DIFF_OTHER_TARGET_SEEDS" in os.environ
    else [s for s in SEEDS if s % 10 == 7]
)
OTHER_TARGET = {"puppet7": TARGETS["puppet8"], "puppet8": TARGETS["puppet7"]}


class DifferentialMessageWarning(UserWarning):
    """hiera-ls and Puppet both failed, with different messages (not fatal under 'report')."""


def _check(seed: int, base: Path, oracle: PuppetOracle, stats: DiffStats, target: Target) -> None:
    env = generate(seed, base, GenOptions(strict_sensitive=target.strict_errors))
    result = run_both(env, oracle, target)
    stats.record(result)
    policy = message_policy()
    bad = failing(result.mismatches, policy)
    only_reported = [m for m in result.mismatches if m not in bad and m.documented is None]
    if only_reported:
        warnings.warn(
            DifferentialMessageWarning(
                f"seed {seed}: {len(only_reported)} error messages differ\n"
                + "\n".join(m.describe(env.base) for m in only_reported[:3])
            ),
            stacklevel=1,
        )
    if bad:
        files = minimise(env, bad[0], oracle, target) if stats.may_minimise() else None
        pytest.fail(reproduction(result, bad, files), pytrace=False)


@pytest.mark.puppet
@pytest.mark.parametrize("seed", SEEDS)
def test_random_environment_matches_puppet(
    seed: int, tmp_path: Path, puppet_oracle: PuppetOracle, diff_stats: DiffStats
) -> None:
    _check(seed, tmp_path / "env", puppet_oracle, diff_stats, puppet_oracle.engine.target)


@pytest.mark.puppet
@pytest.mark.parametrize("seed", OTHER_TARGET_SEEDS)
def test_random_environment_matches_puppet_with_the_other_targets_settings(
    seed: int, tmp_path: Path, puppet_oracle: PuppetOracle, diff_stats: DiffStats
) -> None:
    target = OTHER_TARGET[puppet_oracle.engine.name]
    _check(seed, tmp_path / "env", puppet_oracle, diff_stats, target)
