"""PuppetDB's failures, apart from the client: ``check`` and ``diff`` name them in their error
handling, and load the HTTP client (``connection.py``) only when a PuppetDB is asked."""

from __future__ import annotations


class PuppetDBError(Exception):
    """What went wrong, with the URL it went wrong at."""

    def __init__(self, url: str, cause: str, status: int | None = None) -> None:
        super().__init__(f"{url}: {cause}")
        self.url = url
        self.cause = cause
        self.status = status  # the HTTP status PuppetDB answered with, if it answered
