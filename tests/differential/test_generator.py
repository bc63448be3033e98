"""The environment generator is reproducible and exercises what the differential test claims."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from tests.differential.generator import generate
from tests.differential.harness import DEFAULT_SEEDS, parse_seeds

# Every one of these must occur somewhere in the default seeds, or the differential test
# silently stops covering it.
REQUIRED_FEATURES = [
    "loc.path", "loc.paths", "loc.glob", "loc.globs", "loc.mapped_paths", "loc.missing_file",
    "loc.no_extension", "loc.glob_matches_directory", "hiera.datadir_override", "hiera.defaults",
    "json_data", "data.env.json", "module", "module.default_hierarchy",
    "module.stray_unqualified_key", "global_layer", "lookup_options.literal",
    "lookup_options.regex", "lookup_options.knockout_prefix", "lookup_options.sort_merged_arrays",
    "lookup_options.merge_hash_arrays", "lookup_options.convert_to",
    "lookup_options.interpolated_key", "interp.facts", "interp.topscope", "interp.bare_variable",
    "interp.trusted", "interp.lookup", "interp.hiera", "interp.alias", "interp.literal",
    "interp.scope_method", "interp.missing_subkey", "interp.recursion", "interp.syntax_error",
    "interp.undefined_variable", "value.interpolated_key", "yaml11.octal", "yaml11.hex",
    "yaml11.sexagesimal", "yaml11.bool", "yaml11.null", "yaml11.quoted", "yaml11.exp_string",
    "yaml.anchor_merge_key", "yaml.duplicate_key", "yaml.symbol_value", "broken.yaml_syntax",
    "broken.yaml_date", "broken.json", "broken.yaml.top_level_list", "broken.bad_regex",
    "lookup.dotted", "lookup.quoted_segment", "lookup.module_key", "lookup.missing",
    "lookup.odd_key", "facts.file_json", "facts.file_yaml",
]  # fmt: skip


def test_same_seed_same_environment(tmp_path: Path) -> None:
    one = generate(42, tmp_path / "one")
    two = generate(42, tmp_path / "two")
    assert one.files == two.files
    assert one.lookups == two.lookups
    assert one.facts == two.facts


@pytest.mark.slow  # generates every default seed's environment: seconds
def test_default_seeds_cover_every_feature(tmp_path: Path) -> None:
    features: Counter[str] = Counter()
    lookups = 0
    for seed in parse_seeds(DEFAULT_SEEDS):
        env = generate(seed, tmp_path / str(seed))
        features.update(env.features)
        lookups += len(env.lookups)
    assert lookups >= 5000
    assert [f for f in REQUIRED_FEATURES if not features[f]] == []
