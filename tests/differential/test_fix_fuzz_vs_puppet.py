"""``--fix`` fuzzed against Psych and Ruby's JSON themselves: for every generated file the
fixes change, what Puppet's yaml_data or json_data reads is the same before and after (value
and key order), or, for a file they refused, is read once fixed."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings

from tests.oracle.puppet import PuppetOracle
from tests.oracle.values import canonical
from tests.robustness.test_fix_fuzz import fix_inputs, fixed_by_check

pytestmark = pytest.mark.puppet
EXAMPLES = 400


def test_a_safe_fix_keeps_what_psych_and_rubys_json_read(puppet_oracle: PuppetOracle) -> None:
    fixed_files = 0

    @settings(
        max_examples=EXAMPLES,
        derandomize=True,
        database=None,
        deadline=timedelta(seconds=10),
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )
    @given(fix_inputs)
    def run(case: Any) -> None:
        nonlocal fixed_files
        name, text = case
        fixed, edits = fixed_by_check(f"/fuzz/data/{name}", text)
        if not edits:
            return
        fixed_files += 1
        load = puppet_oracle.load_json if name.endswith(".json") else puppet_oracle.load_yaml
        before, after = load([text, fixed])
        assert "ok" in after, (text, fixed, after)
        if "ok" in before:
            assert canonical(after["ok"]) == canonical(before["ok"]), (text, fixed)

    run()
    assert fixed_files >= EXAMPLES // 4
