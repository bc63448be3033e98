"""What a user or a repository says about PuppetDB: where it is, which nodes, which files.

Two places say it: the user (``--puppetdb URL`` and the other flags, the editor's
``hiera.puppetdb`` settings) and a repository's ``.hiera-ls.yaml`` ``puppetdb:``. Which of
them is used, and when a repository's URL may be connected to at all, is
``hiera_ls.fleet.config``'s decision (docs/security.md); here is only the value, and the
check of each field that both places share. Nothing in this module touches the network.
"""

from __future__ import annotations

import math
import os
from dataclasses import dataclass, fields, replace

FILE_FIELDS = ("cert", "key", "cacert", "token")
FIELDS = ("url", "query", *FILE_FIELDS, "timeout")
DEFAULT_TIMEOUT = 30.0  # seconds one request may take, connection to last byte
MAX_TIMEOUT = 3600.0


@dataclass(frozen=True, slots=True)
class PuppetDBSettings:
    """Every field optional: what one place says (None: it says nothing of it)."""

    url: str | None = None
    query: str | None = None  # PQL or a JSON AST query (hiera_ls.fleet.query)
    cert: str | None = None  # the client certificate (PEM)
    key: str | None = None  # its private key (PEM)
    cacert: str | None = None  # the CA that signed PuppetDB's certificate
    token: str | None = None  # a file holding an RBAC token (sent as X-Authentication)
    timeout: float | None = None  # seconds

    def over(self, base: PuppetDBSettings) -> PuppetDBSettings:
        """These settings laid over ``base``: a field set here wins."""
        given = {f.name: getattr(self, f.name) for f in fields(self)}
        return replace(base, **{k: v for k, v in given.items() if v is not None})

    @property
    def empty(self) -> bool:
        return all(getattr(self, f.name) is None for f in fields(self))

    def credentials(self) -> PuppetDBSettings:
        """Only the files that prove who the user is, and the CA they trust."""
        return PuppetDBSettings(cert=self.cert, key=self.key, cacert=self.cacert, token=self.token)

    def without_credentials(self) -> PuppetDBSettings:
        return replace(self, cert=None, key=None, cacert=None, token=None)


def url_problem(value: object) -> str | None:
    """Why ``value`` is not a PuppetDB URL hiera-ls can use (None: it is)."""
    from urllib.parse import urlsplit  # with ipaddress: 2 ms of a cold lookup

    if not isinstance(value, str) or not value.strip():
        return "url must be an http:// or https:// URL, such as https://puppetdb.example.com:8081"
    parts = urlsplit(value.strip())
    if parts.scheme not in ("http", "https") or not parts.hostname:
        return f"url must be an http:// or https:// URL with a host, not '{value}'"
    if parts.query or parts.fragment:
        return f"url must not hold a query or fragment: '{value}'"
    try:
        parts.port  # noqa: B018 (raises on a port that is not a number)
    except ValueError:
        return f"url has a port that is not a number: '{value}'"
    return None


def timeout_problem(value: object) -> str | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return "timeout must be a number of seconds"
    if not math.isfinite(value) or not 0 < value <= MAX_TIMEOUT:
        return f"timeout must be more than 0 and at most {MAX_TIMEOUT:g} seconds"
    return None


def normal_url(url: str) -> str:
    """The URL as compared and shown: no surrounding blanks, no trailing slash."""
    return url.strip().rstrip("/")


def expand_path(path: str, base: str) -> str:
    """A file named in settings: ``~`` expanded, relative to ``base``."""
    return os.path.normpath(os.path.join(base, os.path.expanduser(path)))
