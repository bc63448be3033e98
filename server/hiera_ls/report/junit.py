"""JUnit XML, the test report CI systems (GitLab, Jenkins, Azure) show in a tests tab.

As ESLint's JUnit reporter does: a test suite per checked file, a test case per finding,
and one passing case for a file without findings.  Findings below ``--fail-on`` are
passing cases (listed, not failing the tab, as they do not fail the run).
"""

from __future__ import annotations

from xml.etree import ElementTree as ET

from hiera_ls.display_text import visible
from hiera_ls.report.formats import Report, position
from hiera_ls.report.run import Finding, fails


def junit(report: Report) -> str:
    by_file: dict[str, list[Finding]] = {path: [] for path in report.result.files}
    for finding in report.result.findings:
        by_file.setdefault(finding.path, []).append(finding)
    root = ET.Element("testsuites", name="hiera-ls check")
    total = failures = 0
    for path, findings in by_file.items():
        name = visible(report.relative(path))  # XML 1.0 cannot hold control characters
        suite = ET.SubElement(root, "testsuite", name=name)
        suite_failures = 0
        if not findings:
            ET.SubElement(suite, "testcase", name="hiera-ls check", classname=name)
        for finding in findings:
            line, column, _, _ = position(finding)
            case = ET.SubElement(
                suite,
                "testcase",
                name=f"{finding.code} at {line}:{column}",
                classname=name,
            )
            if fails(finding, report.fail_on):
                suite_failures += 1
                message = visible(finding.message)
                failure = ET.SubElement(
                    case, "failure", message=message, type=finding.severity.value
                )
                failure.text = f"{name}:{line}:{column}: {finding.code} {message}" + "".join(
                    f"\n  {visible(report.relative(c.where.path))}:{c.where.span.start.human()}: "
                    f"looking up '{visible(c.key)}' fails"
                    for c in finding.consequences
                )
            else:
                out = ET.SubElement(case, "system-out")
                out.text = f"{finding.severity.value}: {visible(finding.message)}"
        cases = max(len(findings), 1)
        suite.set("tests", str(cases))
        suite.set("failures", str(suite_failures))
        suite.set("errors", "0")
        total += cases
        failures += suite_failures
    root.set("tests", str(total))
    root.set("failures", str(failures))
    root.set("errors", "0")
    ET.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"
