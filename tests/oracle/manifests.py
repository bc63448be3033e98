"""Python side of the manifest oracle: Puppet's own parser reads .pp files in one Ruby process.

``manifest_oracle.rb`` (next to this file; its header documents each answer's fields) parses
each file with ``Puppet::Pops::Parser`` and reports definitions, parameters (with exact type
and default text), explicit lookups and class inclusions.  It evaluates nothing.  Paths go in
on stdin and answers come back one JSON line per file, in order, so thousands of files cost
one Puppet start-up (about a second) and a few milliseconds each.
"""

from __future__ import annotations

import json
import os
import subprocess
import tempfile
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from tests.oracle.engines import PUPPET7, PuppetEngine

MANIFEST_ORACLE_SCRIPT = Path(__file__).with_name("manifest_oracle.rb")
DEFAULT_TIMEOUT = 1800.0


class ManifestOracleError(RuntimeError):
    """The oracle process failed as a whole (not: Puppet could not parse a file)."""


def puppet_parse(
    paths: Sequence[str], engine: PuppetEngine = PUPPET7, timeout: float = DEFAULT_TIMEOUT
) -> tuple[str, list[dict[str, Any]]]:
    """Puppet's version and one answer per path, in the order given.

    An answer is ``{"path", "ok": True, "validation", "definitions", "lookups",
    "inclusions"}`` or ``{"path", "ok": False, "error", "line", "col"}`` (see the Ruby file).
    """
    if any("\n" in p for p in paths):
        raise ValueError("a path with a newline cannot be passed to the oracle")
    env = dict(os.environ, LANG="C.UTF-8", LC_ALL="C.UTF-8")
    with tempfile.TemporaryFile() as err:
        proc = subprocess.run(
            engine.command(["ruby", str(MANIFEST_ORACLE_SCRIPT)]),
            input="".join(p + "\n" for p in paths).encode("utf-8"),
            stdout=subprocess.PIPE,
            stderr=err,
            env=env,
            timeout=timeout,
            check=False,
        )
        err.seek(0)
        stderr = err.read().decode("utf-8", "replace")
    lines = proc.stdout.decode("utf-8").splitlines()
    if proc.returncode != 0 or not lines:
        raise ManifestOracleError(
            f"the manifest oracle exited with {proc.returncode}: {stderr[-2000:]}"
        )
    ready = json.loads(lines[0])
    answers = [json.loads(line) for line in lines[1:]]
    if not ready.get("ready") or len(answers) != len(paths):
        raise ManifestOracleError(
            f"the manifest oracle answered {len(answers)} of {len(paths)} files: {stderr[-2000:]}"
        )
    return str(ready.get("puppet", "")), answers


def manifest_files(roots: Sequence[str], suffixes: tuple[str, ...] = (".pp",)) -> Iterator[str]:
    """Every ``.pp`` file (or other suffix) under the given directories (and the given files),
    sorted, hidden directories skipped, absolute."""
    for root in roots:
        path = Path(root).resolve()
        if path.is_file():
            yield str(path)
            continue
        found: list[str] = []
        for directory, dirs, files in os.walk(path):
            dirs[:] = sorted(d for d in dirs if not d.startswith("."))
            found.extend(os.path.join(directory, f) for f in files if f.endswith(suffixes))
        yield from sorted(found)
