"""What the server writes to stderr, which editors show in their output channel."""

from __future__ import annotations

import io
import logging
import os
import subprocess
import sys

import pytest

from hiera_ls.lsp.rename import RenameFailed
from hiera_ls.lsp.serve import filter_pygls_records, log_level
from tests.hang_guard import HUNG_S


def logged(level: int, error: Exception) -> str:
    """What pygls' record for a failed request becomes, with the server's filters."""
    out = io.StringIO()
    logger = logging.Logger("pygls.protocol.json_rpc", level)
    handler = logging.StreamHandler(out)
    handler.setFormatter(logging.Formatter("%(levelname)s %(message)s"))
    logger.addHandler(handler)
    filter_pygls_records(logger)
    try:
        raise error
    except Exception:
        logger.exception('Exception occurred for message "%s"', 7)
    return out.getvalue()


def test_a_refused_rename_is_one_line_not_a_traceback() -> None:
    refusal = RenameFailed("'b' is already a key in data/common.yaml")
    assert logged(logging.WARNING, refusal) == ""
    assert logged(logging.INFO, refusal) == (
        "INFO Refused a request: 'b' is already a key in data/common.yaml\n"
    )


def test_a_real_failure_keeps_its_traceback() -> None:
    text = logged(logging.WARNING, ValueError("bug"))
    assert text.startswith('ERROR Exception occurred for message "7"')
    assert "Traceback" in text and "ValueError: bug" in text


def test_hiera_ls_log_takes_a_level_in_any_case() -> None:
    """``HIERA_LS_LOG=debug`` (lower case) stopped the server at start: logging wants
    ``DEBUG``."""
    assert log_level("debug") == (logging.DEBUG, "")
    assert log_level("Info") == (logging.INFO, "")
    assert log_level("") == (logging.WARNING, "")
    assert log_level("15") == (15, "")
    assert log_level("loud") == (logging.WARNING, "loud")


@pytest.mark.slow
def test_the_server_starts_with_a_lower_case_log_level() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "hiera_ls", "serve"],
        input=b"",
        capture_output=True,
        env={**os.environ, "HIERA_LS_LOG": "debug"},
        timeout=HUNG_S,
        check=False,
    )
    assert b"Traceback" not in done.stderr, done.stderr
    assert b"ValueError" not in done.stderr
