"""Each code's documentation, taken from docs/diagnostics.md, to travel inside a report.

A SARIF viewer (GitHub code scanning, for one) shows a rule's help beside each finding, and
hiera-ls has no documentation site to link to: the help is the reference's own section for
the code (what Puppet does, an example, the fix), so a report read far from the repository
still explains itself.
"""

from __future__ import annotations

import re
from functools import cache

from hiera_ls.schemas_path import shipped

_HEADING = re.compile(r"^### `([a-z0-9-]+)` \(\w+\)\s*$")


@cache
def rule_help() -> dict[str, str]:
    """Code -> the markdown of its section (heading left out)."""
    sections: dict[str, list[str]] = {}
    current: list[str] | None = None
    text = shipped("docs/diagnostics.md").read_text(encoding="utf-8")
    for line in text.splitlines():
        heading = _HEADING.match(line)
        if heading is not None:
            current = sections.setdefault(heading.group(1), [])
        elif line.startswith("#"):
            current = None
        elif current is not None:
            current.append(line)
    return {code: "\n".join(lines).strip() for code, lines in sections.items()}
