"""docs/diagnostics.md and the code registry stay equal: every code documented, none stale.

Each entry is a heading ``### `code` (severity)`` followed by a failing example and a fix.
"""

from __future__ import annotations

import re
from pathlib import Path

from hiera_ls.checks.rules import RULES as CODES

DOC = Path(__file__).resolve().parents[2] / "docs" / "diagnostics.md"
HEADING = re.compile(r"^### `([a-z0-9-]+)` \((error|warning|information|hint)\)$", re.MULTILINE)


def entries() -> dict[str, tuple[str, str]]:
    text = DOC.read_text(encoding="utf-8")
    found: dict[str, tuple[str, str]] = {}
    matches = list(HEADING.finditer(text))
    for i, m in enumerate(matches):
        end = matches[i + 1].start() if i + 1 < len(matches) else len(text)
        body = text[m.end() : end].split("\n## ", 1)[0]
        assert m.group(1) not in found, f"{m.group(1)} is documented twice"
        found[m.group(1)] = (m.group(2), body)
    return found


def test_every_code_is_documented_and_no_entry_is_stale() -> None:
    documented = set(entries())
    assert sorted(set(CODES) - documented) == [], "codes missing from docs/diagnostics.md"
    assert sorted(documented - set(CODES)) == [], (
        "docs/diagnostics.md documents codes that do not exist"
    )


def test_documented_severity_is_the_registered_one() -> None:
    for code_id, (severity, _) in entries().items():
        if code_id in CODES:
            assert CODES[code_id].severity.value == severity, code_id


def test_every_entry_has_a_failing_example_and_a_fix() -> None:
    for code_id, (_, body) in entries().items():
        assert "```" in body, f"{code_id}: no example"
        assert "\nFix: " in body, f"{code_id}: no fix"


# Codes that a data file's example shows by itself (the others need a module, the whole
# environment, hiera.yaml or a facts profile).
NEEDS_CONTEXT = frozenset(
    {
        "interpolation-collection-in-string",
        "interpolation-unknown-fact",
        "lookup-options-module-namespace",
        "lookup-options-unused-pattern",
        "module-data-unqualified-key",
        "reference-undefined-key",
        "reference-cycle",
        "lookup-fails-for-profile",
        "data-large-file",  # 2 MB do not fit an example either
        "yaml-too-deep",  # 1,500 levels do not fit an example (tests/robustness covers it)
        "yaml-byte-order-mark",  # the mark is invisible in an example (tests/source covers it)
    }
)
FILE_FAMILIES = ("yaml", "data-", "json-", "interpolation-", "lookup-options-")


def test_examples_of_file_level_codes_produce_their_code() -> None:
    from hiera_ls.checks.registry import DataSource, check_data_file
    from hiera_ls.source.data_file import load_json_data, load_yaml_data

    for code_id, (_, body) in entries().items():
        if not code_id.startswith(FILE_FAMILIES) or code_id in NEEDS_CONTEXT:
            continue
        example = re.search(r"```(\w+)\n(.*?)```", body, re.DOTALL)
        assert example is not None, code_id
        language, text = example.group(1), example.group(2)
        path = "/env/data/example." + ("json" if language == "json" else "yaml")
        data = load_json_data(path, text) if language == "json" else load_yaml_data(path, text)
        found = [p.code for p in check_data_file(None, DataSource(path, text, data))]
        assert code_id in found, (code_id, found)
