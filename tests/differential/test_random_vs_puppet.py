"""hiera-ls answers every lookup of a random environment exactly as Puppet does.

Each seed generates one environment (tests/differential/generator.py), asks Puppet's engine
(one oracle request) and ``hiera-ls lookup --batch`` (one process), and compares the answers
one by one.  Seeds: ``HIERA_LS_DIFF_SEEDS`` (``150`` = seeds 0..149, ``10-19``, ``3,8,40-45``);
the strict_variables=false variant runs on every tenth of them, or on
``HIERA_LS_DIFF_NONSTRICT_SEEDS``.  A failure prints the differing answers and a minimised
file set (``HIERA_LS_DIFF_MINIMISE`` = how many seeds per run get minimised, default 3).
"""

from __future__ import annotations

import os
import warnings
from pathlib import Path

import pytest

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
NONSTRICT_SEEDS = (
    parse_seeds(os.environ["HIERA_LS_DIFF_NONSTRICT_SEEDS"])
    if "HIERA_LS_DIFF_NONSTRICT_SEEDS" in os.environ
    else [s for s in SEEDS if s % 10 == 7]
)


class DifferentialMessageWarning(UserWarning):
    """hiera-ls and Puppet both failed, with different messages (not fatal under 'report')."""


def _check(
    seed: int, base: Path, oracle: PuppetOracle, stats: DiffStats, strict_variables: bool
) -> None:
    env = generate(seed, base, GenOptions(strict_sensitive=strict_variables))
    result = run_both(env, oracle, strict_variables)
    stats.record(result)
    policy = message_policy()
    bad = failing(result.mismatches, policy)
    only_reported = [m for m in result.mismatches if m not in bad]
    if only_reported:
        warnings.warn(
            DifferentialMessageWarning(
                f"seed {seed}: {len(only_reported)} error messages differ\n"
                + "\n".join(m.describe(env.base) for m in only_reported[:3])
            ),
            stacklevel=1,
        )
    if bad:
        files = minimise(env, bad[0], oracle, strict_variables) if stats.may_minimise() else None
        pytest.fail(reproduction(result, bad, files), pytrace=False)


@pytest.mark.puppet
@pytest.mark.parametrize("seed", SEEDS)
def test_random_environment_matches_puppet(
    seed: int, tmp_path: Path, puppet_oracle: PuppetOracle, diff_stats: DiffStats
) -> None:
    _check(seed, tmp_path / "env", puppet_oracle, diff_stats, strict_variables=True)


@pytest.mark.puppet
@pytest.mark.parametrize("seed", NONSTRICT_SEEDS)
def test_random_environment_matches_puppet_without_strict_variables(
    seed: int, tmp_path: Path, puppet_oracle: PuppetOracle, diff_stats: DiffStats
) -> None:
    _check(seed, tmp_path / "env", puppet_oracle, diff_stats, strict_variables=False)
