"""The installed libyaml gives Puppet's answers: a guard against a PyYAML that parts from Psych.

hiera-ls reads and writes YAML through the libyaml bundled in the PyYAML wheel, so a new
PyYAML release can change what a user sees without a line of ours changing (6.0.4's libyaml
0.2.6 read ``[ ? ]`` and refused 1,000 nested lists, where Puppet's 0.2.5 does neither).
These tests compare the loader and the YAML writer with Puppet's recorded answers
(``psych_answers.json``, kept true by ``tests/differential/test_psych_vs_puppet.py``); a
failure names the PyYAML and libyaml versions installed.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from dataclasses import replace
from typing import Any

import pytest
import yaml

try:
    import yaml._yaml as yaml_extension
except ImportError:  # a PyYAML built without libyaml
    yaml_extension = None

from hiera_ls.source.libyaml import DEFAULT_BACKEND, MAX_DEPTH, Backend, backends
from hiera_ls.source.psych_dump import psych_dump
from hiera_ls.source.yaml_loader import _load
from tests.oracle.values import canonical, decode, encode
from tests.source.psych_cases import ANSWERS

RECORD: dict[str, Any] = json.loads(ANSWERS.read_text(encoding="utf-8"))


def installed() -> str:
    fallback = DEFAULT_BACKEND.fallback
    parts = f" ({fallback().name} where it parts from 0.2.5)" if fallback else ""
    return (
        f"PyYAML {yaml.__version__}, parsing with {DEFAULT_BACKEND.name}{parts}, "
        f"against Puppet {RECORD['puppet']}'s recorded answers"
    )


def answer(text: str, backend: Backend = DEFAULT_BACKEND) -> dict[str, object]:
    doc = _load("f.yaml", text, backend)
    if doc.fatal is not None:
        return {"error": doc.fatal.message}
    return {"ok": canonical(encode(doc.value))}


def expected(recorded: dict[str, object]) -> dict[str, object]:
    return {"ok": canonical(recorded["ok"])} if "ok" in recorded else recorded


def test_the_loader_reads_every_recorded_text_as_puppet_does() -> None:
    differ = [
        f"{text!r}\n  puppet  : {theirs}\n  hiera-ls: {ours}"
        for text, theirs in RECORD["load_yaml"]
        if (ours := answer(text)) != expected(theirs)
    ]
    assert len(RECORD["load_yaml"]) > 400
    assert not differ, f"{installed()}: {len(differ)} differ\n" + "\n".join(differ[:20])


def test_the_yaml_writer_writes_every_recorded_value_as_puppet_does() -> None:
    differ = [
        f"{value!r:.60}\n  puppet  : {theirs!r:.200}\n  hiera-ls: {ours!r:.200}"
        for value, theirs in ((decode(v), t) for v, t in RECORD["to_yaml"])
        if (ours := psych_dump(value)) != theirs
    ]
    assert len(RECORD["to_yaml"]) > 300
    assert not differ, f"{installed()}: {len(differ)} differ\n" + "\n".join(differ[:20])


def test_a_libyaml_that_reads_bare_keys_hands_the_file_to_one_that_reads_them_as_puppet() -> None:
    """0.2.6 reads ``[ ? ]`` as a list holding an empty pair; 0.2.5 refuses it. The loader
    sees the two tokens itself, whichever libyaml PyYAML bundles, so force that path here."""
    found = backends()
    pyyaml = found.get("pyyaml", found["ruamel"])
    forced = replace(pyyaml, ends_bare_key=True, fallback=lambda: found["ruamel"])
    cases = [(t, expected(a)) for t, a in RECORD["load_yaml"] if "?" in t and "]" in t]
    assert len(cases) > 15
    assert [text for text, theirs in cases if answer(text, forced) != theirs] == []


@pytest.mark.slow
@pytest.mark.skipif(
    not hasattr(yaml_extension, "_set_max_nest_level"),
    reason="this PyYAML's libyaml has no nesting bound to keep",
)
def test_a_libyaml_whose_nesting_bound_stays_hands_deep_files_to_one_without() -> None:
    """PyYAML 6.0.4 on lets the loader lift libyaml 0.2.6's bound of 1,000 nested collections;
    a build that does not (a distribution's PyYAML on its own libyaml) must still read what
    Puppet reads: the loader sees the bound's error and reads the file with the other libyaml."""
    probe = textwrap.dedent(
        f"""\
        import yaml._yaml
        yaml._yaml._set_max_nest_level = None  # as a PyYAML that cannot lift the bound
        from hiera_ls.source.libyaml import DEFAULT_BACKEND
        from hiera_ls.source.yaml_loader import load_yaml
        assert DEFAULT_BACKEND.fallback is not None
        for n in (1_200, {MAX_DEPTH}):
            doc = load_yaml("f.yaml", "k: " + "[" * n + "]" * n + "\\n")
            print(doc.fatal.code if doc.fatal else len(doc.nodes))
            doc = load_yaml("f.yaml", "k:\\n" + "- " * n + "x\\n")
            print(doc.fatal.code if doc.fatal else len(doc.nodes))
        """
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True, timeout=60
    )
    # the root, k and 1,200 lists; the block form also holds the scalar x
    assert done.stdout.split() == ["1201", "1202", "yaml-too-deep", "yaml-too-deep"]
