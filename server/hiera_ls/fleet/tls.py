"""TLS for PuppetDB: the files the user named, else the agent's own certificate.

A Puppet agent already holds what PuppetDB trusts: its certificate and key, signed by the
Puppet CA, and that CA's certificate. They are found where Puppet keeps them, without
running Puppet: the ``ssldir`` and ``certname`` of ``puppet.conf`` (``[main]`` or
``[agent]``) when it names them, else the conventional ssl directories
(``/etc/puppetlabs/puppet/ssl`` for Puppet's own packages, ``/var/lib/puppet/ssl`` for
Debian's, ``~/.puppetlabs/etc/puppet/ssl`` for a user who is not root) and the host's
fully qualified name. Each file is used only when it exists.
"""

from __future__ import annotations

import configparser
import os
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

PUPPET_CONFS = ("/etc/puppetlabs/puppet/puppet.conf", "/etc/puppet/puppet.conf")
PUPPET_SSL_DIRS = ("/etc/puppetlabs/puppet/ssl", "/var/lib/puppet/ssl")
if TYPE_CHECKING:
    import ssl

USER_SSL_DIR = os.path.join("~", ".puppetlabs", "etc", "puppet", "ssl")


class TLSFileError(Exception):
    """A certificate, key or CA file that cannot be used, and why."""


@dataclass(frozen=True, slots=True)
class TLSFiles:
    """The certificate files a PuppetDB connection presents and checks against."""

    cert: str | None = None
    key: str | None = None
    cacert: str | None = None
    from_puppet: tuple[str, ...] = ()  # which of them came from Puppet's ssl directory


def with_puppet_defaults(
    files: TLSFiles,
    confs: Sequence[str] = PUPPET_CONFS,
    ssl_dirs: Sequence[str] | None = None,
    fqdn: str | None = None,
) -> TLSFiles:
    """``files`` with what the user left out taken from Puppet's ssl directory: the client
    certificate and key together (both or neither), the CA alone."""
    if files.cert and files.key and files.cacert:
        return files
    found = _puppet_files(confs, ssl_dirs, fqdn)
    if found is None:
        return files
    cert, key, cacert = files.cert, files.key, files.cacert
    taken: list[str] = []
    if not cert and not key and found.cert and found.key:
        cert, key = found.cert, found.key
        taken += [cert, key]
    if not cacert and found.cacert:
        cacert = found.cacert
        taken.append(cacert)
    return TLSFiles(cert, key, cacert, tuple(taken))


def _puppet_files(
    confs: Sequence[str], ssl_dirs: Sequence[str] | None, fqdn: str | None
) -> TLSFiles | None:
    certname, ssldir = _puppet_conf(confs)
    dirs = [ssldir] if ssldir else []
    dirs += list(ssl_dirs) if ssl_dirs is not None else _conventional_dirs()
    for directory in dirs:
        certs = os.path.join(directory, "certs")
        if not os.path.isdir(certs):
            continue
        cacert = os.path.join(certs, "ca.pem")
        names = [certname] if certname else []
        if fqdn is None:
            import socket

            fqdn = socket.getfqdn()
        names.append(fqdn.lower())
        names += _lone_certname(directory)
        for name in names:
            cert = os.path.join(certs, f"{name}.pem")
            key = os.path.join(directory, "private_keys", f"{name}.pem")
            if name != "ca" and os.path.isfile(cert) and os.path.exists(key):
                return TLSFiles(cert, key, cacert if os.path.isfile(cacert) else None)
        if os.path.isfile(cacert):
            return TLSFiles(cacert=cacert)
    return None


def _conventional_dirs() -> list[str]:
    dirs = list(PUPPET_SSL_DIRS)
    if os.geteuid() != 0:
        dirs.insert(0, os.path.expanduser(USER_SSL_DIR))
    return dirs


def _lone_certname(directory: str) -> list[str]:
    """The one certificate of the directory that has its key (an agent has exactly one)."""
    try:
        names = [n[:-4] for n in os.listdir(os.path.join(directory, "certs")) if n.endswith(".pem")]
    except OSError:
        return []
    names = [n for n in names if n != "ca"]
    return names if len(names) == 1 else []


def _puppet_conf(confs: Sequence[str]) -> tuple[str | None, str | None]:
    """``certname`` and ``ssldir`` from the first puppet.conf that exists (``[agent]`` over
    ``[main]``); a value that uses Puppet's ``$variables`` is not guessed at."""
    for path in confs:
        parser = configparser.ConfigParser(interpolation=None, strict=False)
        try:
            with open(path, encoding="utf-8") as f:
                parser.read_file(f)
        except (OSError, UnicodeDecodeError, configparser.Error):
            continue
        values: dict[str, str] = {}
        for section in ("main", "agent"):
            if parser.has_section(section):
                values.update(
                    {k: v.strip() for k, v in parser.items(section) if k in ("certname", "ssldir")}
                )
        certname = values.get("certname")
        ssldir = values.get("ssldir")
        return (
            certname if certname and "$" not in certname else None,
            ssldir if ssldir and "$" not in ssldir and os.path.isabs(ssldir) else None,
        )
    return None, None


def client_context(files: TLSFiles) -> ssl.SSLContext:
    """A context that checks PuppetDB's certificate (against ``cacert``, else the system's
    CAs) and shows ours when there is one; TLSFileError names the file that failed."""
    import ssl  # when a PuppetDB is asked: a check without one never loads it

    if files.cacert:
        _readable(files.cacert, "the CA certificate (cacert)")
    try:
        context = ssl.create_default_context(cafile=files.cacert or None)
    except ssl.SSLError as e:
        raise TLSFileError(f"{files.cacert} is not a PEM CA certificate: {_reason(e)}") from None
    if files.cert or files.key:
        if not (files.cert and files.key):
            missing = "key" if files.cert else "cert"
            raise TLSFileError(f"a client certificate needs cert and key; {missing} is missing")
        _readable(files.cert, "the client certificate (cert)")
        _readable(files.key, "the client key (key)")
        try:
            context.load_cert_chain(files.cert, files.key)
        except ssl.SSLError as e:
            raise TLSFileError(
                f"{files.cert} and {files.key} are not a PEM certificate and its key: {_reason(e)}"
            ) from None
    return context


def _readable(path: str, what: str) -> None:
    try:
        with open(path, "rb"):
            pass
    except FileNotFoundError:
        raise TLSFileError(f"{what} {path} does not exist") from None
    except PermissionError:
        raise TLSFileError(f"{what} {path} cannot be read: permission denied") from None
    except OSError as e:
        raise TLSFileError(f"{what} {path} cannot be read: {e.strerror}") from None


def _reason(error: ssl.SSLError) -> str:
    return str(error.reason or error.strerror or error).replace("_", " ").lower()
