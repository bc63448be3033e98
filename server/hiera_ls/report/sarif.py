"""SARIF 2.1.0: what GitHub code scanning and other security dashboards import.

Every registered code is a rule with its summary and, as its help, its section of
docs/diagnostics.md (report/rule_help.py: there is no documentation site to link to); a
finding refers to its rule by index.  Columns count Unicode code
points (``columnKind``), as hiera-ls' positions do.
"""

from __future__ import annotations

import json

from hiera_ls import __version__
from hiera_ls.codes import CODES, Code
from hiera_ls.display_text import json_text
from hiera_ls.report.formats import Report, position
from hiera_ls.report.rule_help import rule_help
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


def _rule(entry: Code) -> dict[str, object]:
    rule: dict[str, object] = {
        "id": entry.id,
        "name": rule_name(entry.id),
        "shortDescription": {"text": entry.summary},
        "defaultConfiguration": {"level": _LEVEL[entry.severity]},
    }
    documented = rule_help().get(entry.id)
    if documented:
        rule["help"] = {"text": documented, "markdown": documented}
    return rule


def sarif(report: Report) -> str:
    codes = list(CODES)
    extra = sorted({f.code for f in report.result.findings} - set(codes))
    rules = [_rule(CODES[c]) for c in codes] + [
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
