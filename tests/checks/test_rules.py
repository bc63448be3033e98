"""One record per rule: every code a check can emit has its record in the catalog, made
problems only through it, and a documentation section under the record's anchor."""

from __future__ import annotations

import ast
import importlib
import pkgutil
from pathlib import Path

import hiera_ls
from hiera_ls.checks.rules import RULES
from hiera_ls.puppet.message import Kind
from hiera_ls.source.rules import Payload, Rule, heading_anchor
from tests.checks.test_codes_documented import DOC, entries

PACKAGE = Path(hiera_ls.__file__).resolve().parent
# The only places a Problem is built from its parts: the record itself, and the class.
MAKERS = {"source/rules.py", "source/spans.py"}


def _modules() -> list[str]:
    return [
        m.name
        for m in pkgutil.walk_packages([str(PACKAGE)], "hiera_ls.")
        if not m.name.startswith(("hiera_ls.lsp", "hiera_ls.cli", "hiera_ls.__main__"))
    ]


def test_every_record_any_module_declares_is_in_the_catalog() -> None:
    declared: dict[str, str] = {}
    for name in _modules():
        module = importlib.import_module(name)
        for value in vars(module).values():
            found = [value] if isinstance(value, Rule) else []
            if isinstance(value, tuple):
                found = [v for v in value if isinstance(v, Rule)]
            for rule in found:
                assert RULES.get(rule.code) is rule, f"{rule.code} ({name}) is not in the catalog"
                declared[rule.code] = name
    assert sorted(declared) == sorted(RULES)


def test_no_module_builds_a_problem_but_through_a_record() -> None:
    """A code can only be emitted by ``Rule.at``: a ``Problem(...)`` built anywhere else
    could carry a code that has no record."""
    offenders = []
    for path in PACKAGE.rglob("*.py"):
        relative = path.relative_to(PACKAGE).as_posix()
        text = path.read_text(encoding="utf-8")
        if relative in MAKERS or "Problem" not in text:  # no call of it without its name
            continue
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.Call):
                func = node.func
                name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)
                if name == "Problem":
                    offenders.append(f"{relative}:{node.lineno}")
    assert offenders == []


def test_every_record_has_its_documentation_section_under_its_anchor() -> None:
    text = DOC.read_text(encoding="utf-8")
    anchors = {
        heading_anchor(line.removeprefix("### ").strip())
        for line in text.splitlines()
        if line.startswith("### ")
    }
    documented = entries()
    for code, rule in RULES.items():
        assert code in documented, f"{code}: no section in docs/diagnostics.md"
        assert rule.anchor in anchors, f"{code}: no heading with the anchor {rule.anchor}"
        assert documented[code][0] == rule.severity.value, code


def test_heading_anchors_are_githubs() -> None:
    assert heading_anchor("`yaml-syntax` (error)") == "yaml-syntax-error"
    assert RULES["key-unused"].anchor == "key-unused-hint"


def test_a_safe_fix_is_a_fix_and_causes_are_errors_or_warnings() -> None:
    for code, rule in RULES.items():
        assert rule.fix is not None or not rule.fix_safe, code
        assert not rule.cause or rule.severity.value in ("error", "warning"), code


def test_only_rules_whose_messages_quote_values_say_so_and_emit_value_parts(
    tmp_path: Path,
) -> None:
    """Every problem the checks give on a corpus of bad data: its code has a record, and a
    message with data-value parts comes from a rule whose record says its payload has them."""
    from tests.checks.support import make_workspace

    files = {
        "data/common.yaml": (
            "lookup_options:\n  a::b:\n    merge: uniq\n"
            "flag: yes\nmode: 0644\nwhen: 12:30\nbig: 1_000\nexp: 1e3\n"
            "sym: :name\nlit: \"%{literal('x')}\"\nbad: \"%{lookup( 'x' )}\"\n"
            "dup: 1\ndup: 2\n"
        ),
        "data/broken.json": '{"a": 1, "secret": "\\ud800 x"}',
        "data/date.yaml": "d: 2024-01-15\n",
        "data/num.yaml": "n: !!float .x\n",
    }
    ws = make_workspace(tmp_path, files)
    seen = set()
    for rel in files:
        for problem in ws.data_problems(rel):
            rule = RULES.get(problem.code)
            assert rule is not None, problem.code
            seen.add(problem.code)
            if any(p.kind is Kind.VALUE for p in problem.text.parts):
                assert rule.payload is Payload.VALUES, problem.code
    assert {"yaml11-boolean", "json-syntax", "yaml-date-rejected", "yaml-duplicate-key"} <= seen
