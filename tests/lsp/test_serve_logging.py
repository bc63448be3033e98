"""What the server writes to stderr, which editors show in their output channel."""

from __future__ import annotations

import io
import logging

from hiera_ls.lsp.rename import RenameFailed
from hiera_ls.lsp.serve import filter_pygls_records


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
