"""Which PuppetDB to ask, with which files: the user's choice first, a repository's only
when the user allows it.

A repository is code someone else may have written. Its ``.hiera-ls.yaml`` may say where
the team's PuppetDB is, but hiera-ls connects to a URL only when the user chose it (docs/
security.md): the user names it (``--puppetdb URL``, the ``hiera.puppetdb.url`` setting),
or lets the repository name it (``--puppetdb`` alone on a command line, or the repository's
URL listed in the ``hiera.puppetdb.allowedUrls`` setting). A repository's files (client
certificate, key, CA, token) are read and sent only to the repository's own URL, once it is
allowed; its query and timeout apply to whatever URL is used. A user's setting wins over the
repository's field by field.
"""

from __future__ import annotations

import hashlib
import os
import re
from collections.abc import Sequence
from dataclasses import dataclass

from hiera_ls.fleet.tls import TLSFiles, with_puppet_defaults
from hiera_ls.project.puppetdb_settings import DEFAULT_TIMEOUT, PuppetDBSettings, normal_url

MAX_TOKEN = 4096
_TOKEN = re.compile(rf"[\x21-\x7e]{{1,{MAX_TOKEN}}}")  # what an RBAC token is made of


class FleetConfigError(Exception):
    """A PuppetDB setting that cannot be used (a token file that is not there ...)."""


@dataclass(frozen=True, slots=True)
class PuppetDBConfig:
    """A PuppetDB to connect to, resolved: the URL, the query and the files to use."""

    url: str
    query: str | None
    tls: TLSFiles
    token_file: str | None
    timeout: float
    source: str  # who chose the URL, for messages ("--puppetdb", ".hiera-ls.yaml" ...)

    def token(self) -> str | None:
        """The token file's content (one line); FleetConfigError when it cannot be read."""
        if self.token_file is None:
            return None
        try:
            with open(self.token_file, encoding="utf-8") as f:
                token = f.read().strip()
        except FileNotFoundError:
            raise FleetConfigError(f"the token file {self.token_file} does not exist") from None
        except (OSError, UnicodeDecodeError) as e:
            why = e.strerror if isinstance(e, OSError) else "it is not UTF-8 text"
            raise FleetConfigError(f"cannot read the token file {self.token_file}: {why}") from None
        if not _TOKEN.fullmatch(token):
            # never sent: a file named by mistake (or by a repository) is not a token
            raise FleetConfigError(
                f"the token file {self.token_file} holds no token (one line of printable "
                f"characters, at most {MAX_TOKEN} of them)"
            )
        return token

    def cache_key(self) -> str:
        """Names this PuppetDB and query's profile cache (hiera_ls.fleet.source)."""
        text = f"{self.url}\n{self.query or ''}"
        return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


@dataclass(frozen=True, slots=True)
class Choice:
    """The resolved PuppetDB (None: none to use) and what the user should know about it."""

    config: PuppetDBConfig | None
    notes: tuple[str, ...] = ()  # a repository's URL not used, and why


def resolve(
    user: PuppetDBSettings,
    repository: PuppetDBSettings,
    *,
    use_repository_url: bool = False,
    allowed_urls: Sequence[str] = (),
    user_source: str = "your settings",
    repository_file: str = ".hiera-ls.yaml",
    puppet_defaults: bool = True,
) -> Choice:
    """The PuppetDB the user chose (see the module docstring).

    ``use_repository_url``: the user asked for the repository's URL (``--puppetdb`` alone).
    ``allowed_urls``: repository URLs the user's settings allow.
    """
    notes: list[str] = []
    repo_url = normal_url(repository.url) if repository.url else None
    if user.url:
        url = normal_url(user.url)
        same = repo_url == url
        merged = user.over(repository if same else repository.without_credentials())
        return Choice(_config(merged, url, user_source, puppet_defaults), ())
    if repo_url is None:
        if use_repository_url:
            raise FleetConfigError(
                f"--puppetdb without a URL uses the repository's; {repository_file} names none "
                "(puppetdb: url:)"
            )
        return Choice(None, ())
    allowed = {normal_url(u) for u in allowed_urls}
    if use_repository_url or repo_url in allowed:
        merged = user.over(repository)
        return Choice(_config(merged, repo_url, repository_file, puppet_defaults), ())
    notes.append(
        f"{repository_file} names PuppetDB at {repo_url}; hiera-ls connects to a URL a "
        "repository names only when you allow it (hiera.puppetdb.allowedUrls, or "
        "--puppetdb on the command line)"
    )
    return Choice(None, tuple(notes))


def _config(
    merged: PuppetDBSettings, url: str, source: str, puppet_defaults: bool
) -> PuppetDBConfig:
    tls = TLSFiles(merged.cert, merged.key, merged.cacert)
    if url.startswith("https://") and puppet_defaults:
        tls = with_puppet_defaults(tls)
    return PuppetDBConfig(
        url=url,
        query=merged.query,
        tls=tls,
        token_file=merged.token,
        timeout=merged.timeout if merged.timeout is not None else DEFAULT_TIMEOUT,
        source=source,
    )


def cache_root() -> str:
    """Where live PuppetDB profiles are kept between runs: the user's cache, never the
    repository (``$XDG_CACHE_HOME/hiera-ls/puppetdb``, else ``~/.cache/...``)."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "hiera-ls", "puppetdb")
