"""GitLab Code Quality: a JSON array of issues the merge request widget shows.

The fingerprint must stay the same while the finding stays (GitLab compares the branch's
report with the target's): it is built from the file, the code, the message (which names
the key; without the count of lookups it makes fail, which changes as other files do) and
the finding's rank among identical ones, never from the line number, so moving a key does
not make its finding look new.
"""

from __future__ import annotations

import hashlib
import json

from hiera_ls.display_text import json_text
from hiera_ls.report.formats import Report
from hiera_ls.source.spans import Severity

_SEVERITY = {
    Severity.ERROR: "major",
    Severity.WARNING: "minor",
    Severity.INFORMATION: "info",
    Severity.HINT: "info",
}


def fingerprint(path: str, code: str, message: str, rank: int) -> str:
    text = "\x00".join((path, code, message, str(rank)))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def gitlab(report: Report) -> str:
    issues = []
    ranks: dict[tuple[str, str, str], int] = {}
    for finding in report.result.findings:
        path = report.relative(finding.path)
        same = (path, finding.code, finding.stem)
        rank = ranks.get(same, 0)
        ranks[same] = rank + 1
        issues.append(
            {
                "type": "issue",
                "description": finding.message,
                "check_name": finding.code,
                "fingerprint": fingerprint(path, finding.code, finding.stem, rank),
                "severity": _SEVERITY[finding.severity],
                "location": {
                    "path": path,
                    "lines": {"begin": finding.span.start.line + 1},
                },
            }
        )
    return json_text(json.dumps(issues, indent=2, ensure_ascii=False)) + "\n"
