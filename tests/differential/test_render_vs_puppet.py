"""`hiera-ls lookup --render-as yaml|json|s` prints what `puppet lookup` prints, value by value.

The scalars are every one a YAML 1.1 reader treats specially (booleans and nulls in every
casing, numbers in every base and shape, timestamps, symbols, merge keys, indicators, leading
and trailing spaces, line breaks, long lines): Puppet's YAML quotes each string a reader
would take for something else, and hiera-ls must quote exactly the same ones the same way.
"""

from __future__ import annotations

from typing import Any

import pytest

from hiera_ls.cli.lookup import _render
from tests.differential.known_differences import comparable
from tests.oracle.puppet import PuppetOracle
from tests.source.psych_cases import collections, scalars

pytestmark = pytest.mark.puppet


@pytest.mark.parametrize("render_as", ["yaml", "json", "s"])
def test_rendering_is_puppets(puppet_oracle: PuppetOracle, render_as: str) -> None:
    values = scalars()
    values += collections(values)
    answers = puppet_oracle.render(values)
    differ: list[str] = []
    agree = 0
    for value, answer in zip(values, answers, strict=True):
        theirs: Any = answer["ok"][render_as]
        if isinstance(theirs, dict):  # Puppet cannot render it (JSON has no Infinity)
            continue
        ours = _render(value, None if render_as == "yaml" else render_as)
        engine = puppet_oracle.engine.name  # docs/differences.md#ruby-error-texts
        if comparable(ours, engine) == comparable(theirs, engine):
            agree += 1
        else:
            differ.append(f"{value!r:.60}\n  puppet  : {theirs!r:.200}\n  hiera-ls: {ours!r:.200}")
    assert not differ, f"{len(differ)} of {len(differ) + agree} differ:\n" + "\n".join(differ[:20])
    assert agree > 300
