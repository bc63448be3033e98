"""The report formats: one function per ``--format``, each writing the whole report text.

Paths are relative to the current directory (where CI runs), lines and columns 1-based;
messages are already without data values (``redact.py``).
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from dataclasses import dataclass

from hiera_ls import __version__
from hiera_ls.display_text import json_text, visible
from hiera_ls.report.run import CheckResult, Finding, fails
from hiera_ls.source.spans import Consequence, Severity


@dataclass(frozen=True, slots=True)
class Report:
    """A check's result as every report format reads it."""

    result: CheckResult
    fail_on: str  # error, warning or info
    cwd: str

    def relative(self, path: str) -> str:
        return os.path.relpath(path, self.cwd).replace(os.sep, "/")

    @property
    def failing(self) -> list[Finding]:
        return [f for f in self.result.findings if fails(f, self.fail_on)]


def position(finding: Finding) -> tuple[int, int, int, int]:
    """1-based line, column, end line, end column (an empty range ends where it starts)."""
    span = finding.span
    return (span.start.line + 1, span.start.column + 1, span.end.line + 1, span.end.column + 1)


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


SEVERITY_WORD = {
    Severity.ERROR: "error",
    Severity.WARNING: "warning",
    Severity.INFORMATION: "info",
    Severity.HINT: "hint",
}


def summary(report: Report) -> str:
    """One line: what was checked, what was found."""
    result = report.result
    checked = _plural(len(result.files), "file")
    if result.profiles:
        checked += f", {_plural(len(result.profiles), 'facts profile')}"
    if not result.findings:
        return f"All checks passed ({checked})."
    counts: dict[str, int] = {}
    for finding in result.findings:
        word = SEVERITY_WORD[finding.severity]
        counts[word] = counts.get(word, 0) + 1
    parts = ", ".join(
        _plural(counts[w], w) for w in ("error", "warning", "info", "hint") if w in counts
    )
    return f"Found {_plural(len(result.findings), 'problem')} ({parts}) in {checked}."


def causes_first(findings: tuple[Finding, ...]) -> list[Finding]:
    """The findings that make lookups fail elsewhere first: fixing one fixes its
    consequences, which are counted in it."""
    return sorted(findings, key=lambda f: not f.consequences)


def consequence_data(report: Report, item: Consequence) -> dict[str, object]:
    start = item.where.span.start
    return {
        "path": report.relative(item.where.path),
        "line": start.line + 1,
        "column": start.column + 1,
        "key": item.key,
        "profiles": list(item.profiles),
    }


def text(report: Report) -> str:
    """``path:line:col: code message`` lines, as ruff and compilers print them; the causes
    first."""
    lines = []
    for finding in causes_first(report.result.findings):
        line, column, _, _ = position(finding)
        where = visible(report.relative(finding.path), one_line=True)
        lines.append(f"{where}:{line}:{column}: {finding.code} {visible(finding.message, True)}")
    lines.append(summary(report))
    return "\n".join(lines) + "\n"


def json_report(report: Report) -> str:
    result = report.result
    findings = []
    for finding in result.findings:
        line, column, end_line, end_column = position(finding)
        findings.append(
            {
                "path": report.relative(finding.path),
                "line": line,
                "column": column,
                "end_line": end_line,
                "end_column": end_column,
                "code": finding.code,
                "severity": finding.severity.value,
                "message": finding.message,
                "profiles": list(finding.profiles),
                "consequences": [consequence_data(report, c) for c in finding.consequences],
            }
        )
    data = {
        "tool": "hiera-ls",
        "version": __version__,
        "files": len(result.files),
        "profiles": list(result.profiles),
        "findings": findings,
        "failed": bool(report.failing),
    }
    return json_text(json.dumps(data, indent=2, ensure_ascii=False)) + "\n"


_GITHUB_LEVEL = {
    Severity.ERROR: "error",
    Severity.WARNING: "warning",
    Severity.INFORMATION: "notice",
    Severity.HINT: "notice",
}


def _github_data(text: str) -> str:
    return visible(text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A"))


def _github_property(text: str) -> str:
    return _github_data(text).replace(":", "%3A").replace(",", "%2C")


def github(report: Report) -> str:
    """GitHub Actions workflow commands: each finding an annotation on its line in the PR."""
    lines = []
    for finding in report.result.findings:
        line, column, end_line, end_column = position(finding)
        props = [
            f"file={_github_property(report.relative(finding.path))}",
            f"line={line}",
            f"col={column}",
            f"endLine={end_line}",
            f"endColumn={end_column}",
            f"title={_github_property(finding.code)}",
        ]
        level = _GITHUB_LEVEL[finding.severity]
        lines.append(f"::{level} {','.join(props)}::{_github_data(finding.message)}")
    lines.append(summary(report))
    return "\n".join(lines) + "\n"


def formatters() -> dict[str, Callable[[Report], str]]:
    return {name: formatter(name) for name in FORMATS}


def formatter(name: str) -> Callable[[Report], str]:
    """The writer of one format (SARIF's, GitLab's and JUnit's imported only when chosen)."""
    if name == "sarif":
        from hiera_ls.report.sarif import sarif

        return sarif
    if name == "gitlab":
        from hiera_ls.report.gitlab import gitlab

        return gitlab
    if name == "junit":
        from hiera_ls.report.junit import junit

        return junit
    return {"text": text, "json": json_report, "github": github}[name]


FORMATS = ("text", "json", "sarif", "github", "gitlab", "junit")
