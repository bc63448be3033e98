"""SARIF 2.1.0: what GitHub code scanning and other security dashboards import.

Every rule's record is a SARIF rule with its summary and, as its help, its section of
docs/diagnostics.md (report/rule_help.py: there is no documentation site to link to); a
finding refers to its rule by index.  Columns count Unicode code
points (``columnKind``), as hiera-ls' positions do.
"""

from __future__ import annotations

import json

from hiera_ls import __version__
from hiera_ls.checks.rules import RULES
from hiera_ls.display_text import json_text
from hiera_ls.report.formats import Report, position
from hiera_ls.report.rule_help import rule_help
from hiera_ls.source.rules import Rule
from hiera_ls.source.spans import Severity

SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"

_LEVEL = {
    Severity.ERROR: "error",
    Severity.WARNING: "warning",
    Severity.INFORMATION: "note",
    Severity.HINT: "note",
}


def rule_name(code_id: str) -> str:
    return "".join(part.capitalize() for part in code_id.split("-"))


def _rule(entry: Rule) -> dict[str, object]:
    rule: dict[str, object] = {
        "id": entry.code,
        "name": rule_name(entry.code),
        "shortDescription": {"text": entry.summary},
        "defaultConfiguration": {"level": _LEVEL[entry.severity]},
        "properties": {
            "documentation": f"docs/diagnostics.md#{entry.anchor}",
            "payload": entry.payload.value,
            "safeFix": entry.fix_safe,
        },
    }
    documented = rule_help().get(entry.code)
    if documented:
        rule["help"] = {"text": documented, "markdown": documented}
    return rule


def sarif(report: Report) -> str:
    codes = list(RULES)
    extra = sorted({f.code for f in report.result.findings} - set(codes))
    rules = [_rule(RULES[c]) for c in codes] + [
        {"id": c, "name": rule_name(c), "shortDescription": {"text": c}} for c in extra
    ]
    index = {c: i for i, c in enumerate([*codes, *extra])}
    results = []
    for finding in report.result.findings:
        line, column, end_line, end_column = position(finding)
        result: dict[str, object] = {
            "ruleId": finding.code,
            "ruleIndex": index[finding.code],
            "level": _LEVEL[finding.severity],
            "message": {"text": finding.message},
            "locations": [
                {
                    "physicalLocation": {
                        "artifactLocation": {
                            "uri": report.relative(finding.path),
                            "uriBaseId": "%SRCROOT%",
                        },
                        "region": {
                            "startLine": line,
                            "startColumn": column,
                            "endLine": end_line,
                            "endColumn": end_column,
                        },
                    }
                }
            ],
        }
        if finding.consequences:
            result["relatedLocations"] = [
                {
                    "id": i,
                    "physicalLocation": {
                        "artifactLocation": {
                            "uri": report.relative(c.where.path),
                            "uriBaseId": "%SRCROOT%",
                        },
                        "region": {
                            "startLine": c.where.span.start.line + 1,
                            "startColumn": c.where.span.start.column + 1,
                            "endLine": c.where.span.end.line + 1,
                            "endColumn": c.where.span.end.column + 1,
                        },
                    },
                    "message": {"text": f"Looking up '{c.key}' fails (this finding's cause)"},
                }
                for i, c in enumerate(finding.consequences, start=1)
            ]
        if finding.profiles:
            result["properties"] = {"profiles": list(finding.profiles)}
        results.append(result)
    log = {
        "$schema": SCHEMA,
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "hiera-ls",
                        "version": __version__,
                        "rules": rules,
                    }
                },
                "columnKind": "unicodeCodePoints",
                "results": results,
            }
        ],
    }
    return json_text(json.dumps(log, indent=2, ensure_ascii=False)) + "\n"
