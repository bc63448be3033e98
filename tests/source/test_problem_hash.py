"""A problem's hash is computed once and kept (findings are put in sets on every publish),
but never carried to another process, where a string's hash differs (``check --jobs``)."""

from __future__ import annotations

import base64
import os
import pickle
import subprocess
import sys

from hiera_ls.puppet.message import Text
from hiera_ls.source.spans import Details, FileSpan, Problem, Severity, Span

MAKE = (
    "from hiera_ls.puppet.message import Text\n"
    "from hiera_ls.source.spans import Details, FileSpan, Problem, Severity, Span\n"
    "import base64, pickle, sys\n"
    "p = Problem('key-unused', Text.of('No class reads a::b'), Severity.HINT,\n"
    "            FileSpan('/r/data/common.yaml', Span.of(3, 0, 3, 4)), Details(key='a::b'))\n"
    "hash(p)\n"
    "sys.stdout.write(base64.b64encode(pickle.dumps(p)).decode())\n"
)


def _problem() -> Problem:
    return Problem(
        "key-unused",
        Text.of("No class reads a::b"),
        Severity.HINT,
        FileSpan("/r/data/common.yaml", Span.of(3, 0, 3, 4)),
        Details(key="a::b"),
    )


def test_a_problem_from_another_process_hashes_as_here() -> None:
    env = {**os.environ, "PYTHONHASHSEED": "1"}
    done = subprocess.run(
        [sys.executable, "-c", MAKE], capture_output=True, text=True, env=env, check=True
    )
    theirs = pickle.loads(base64.b64decode(done.stdout))
    ours = _problem()
    assert theirs == ours
    assert hash(theirs) == hash(ours)
    assert theirs in {ours}


def test_the_hash_is_the_values_hash() -> None:
    p = _problem()
    assert hash(p) == hash(p) == hash(_problem())
    assert p != Problem("key-unused", p.text, Severity.HINT, p.where)
