"""Which key files an ``eyaml_lookup_key`` level names, and reading them on request.

A level's ``options`` (else the defaults' options, never merged) name the key pair:
``pkcs7_public_key`` (a certificate, enough to encrypt) and ``pkcs7_private_key`` (needed
to decrypt).  Several levels may name different pairs.  hiera-eyaml opens the paths as
given, relative to the Puppet server's working directory; in a repository checked out on a
workstation the only sensible base is the directory of the hiera.yaml that names them, so
relative paths are read from there.  Paths holding ``%{...}`` depend on the node and are
not resolved.

The private key is read only when a user asks for a decryption (code action, hover with
``hiera.eyaml.decryptInHover``, ``hiera-ls lookup --decrypt``); checks only ask whether the
file is there and readable.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import TYPE_CHECKING

from hiera_ls.project.hiera_config_model import HierarchyEntry
from hiera_ls.project.model import Layer
from hiera_ls.source.eyaml_crypto import (
    EyamlKeyError,
    KeyPair,
    load_certificate,
    load_private_key,
)
from hiera_ls.source.files import FileAccess, read_disk
from hiera_ls.source.spans import Span

if TYPE_CHECKING:
    from cryptography import x509

EYAML_FUNCTION = "eyaml_lookup_key"
PUBLIC_OPTION = "pkcs7_public_key"
PRIVATE_OPTION = "pkcs7_private_key"
MAX_KEY_BYTES = 1 << 20  # a PEM key or certificate is a few kilobytes


@dataclass(frozen=True, slots=True)
class KeyOption:
    """One key path option of a level: as written, where, and the file it names."""

    option: str  # pkcs7_public_key | pkcs7_private_key
    written: str
    span: Span | None
    path: str | None  # absolute; None when the path depends on the node (%{...})


@dataclass(frozen=True, slots=True)
class LevelKeys:
    """The key options of one eyaml level."""

    level: str
    public: KeyOption | None
    private: KeyOption | None


def is_eyaml_level(entry: HierarchyEntry) -> bool:
    return entry.function_kind == "lookup_key" and entry.function_name == EYAML_FUNCTION


def level_keys(layer: Layer, entry: HierarchyEntry) -> LevelKeys:
    options = entry.options or {}
    spans = dict(entry.option_spans)

    def option(name: str) -> KeyOption | None:
        written = options.get(name)
        if not isinstance(written, str) or not written:
            return None
        path = None if "%{" in written else os.path.normpath(os.path.join(layer.root, written))
        return KeyOption(name, written, spans.get(name), path)

    return LevelKeys(entry.name, option(PUBLIC_OPTION), option(PRIVATE_OPTION))


def eyaml_levels(layer: Layer) -> list[tuple[HierarchyEntry, LevelKeys]]:
    """The layer's eyaml levels (hierarchy, then default_hierarchy) with their keys."""
    config = layer.config
    if config is None:
        return []
    return [
        (entry, level_keys(layer, entry))
        for entry in (*config.hierarchy, *config.default_hierarchy)
        if is_eyaml_level(entry)
    ]


def key_file_problem(files: FileAccess, option: KeyOption) -> str | None:
    """Why a key file cannot be used (never its content); None when it can."""
    if option.path is None:
        return None
    if not os.path.lexists(option.path):
        return "does not exist"
    if not files.is_file(option.path):
        return "is not a regular file"
    if not os.access(option.path, os.R_OK):
        return "is not readable by hiera-ls"
    if option.option == PUBLIC_OPTION:
        try:
            load_certificate(_read(option.path))
        except EyamlKeyError as e:
            return str(e)
    return None


def _read(path: str) -> bytes:
    """A key file's bytes, bounded; never a device or FIFO (see source/files.py)."""
    found = read_disk(path)
    if found is None or found.problem is not None or len(found.text) > MAX_KEY_BYTES:
        raise EyamlKeyError("cannot be read")
    return found.text.encode("utf-8")


def public_certificate(keys: LevelKeys) -> x509.Certificate:
    """The level's certificate (enough to encrypt); raises EyamlKeyError."""
    if keys.public is None or keys.public.path is None:
        raise EyamlKeyError(f"hierarchy level '{keys.level}' names no usable {PUBLIC_OPTION}")
    try:
        return load_certificate(_read(keys.public.path))
    except EyamlKeyError as e:
        raise EyamlKeyError(f"{PUBLIC_OPTION} of level '{keys.level}': {e}") from None


def key_pair(keys: LevelKeys) -> KeyPair:
    """The level's certificate and private key, read now (a user asked to decrypt)."""
    certificate = public_certificate(keys)
    if keys.private is None or keys.private.path is None:
        raise EyamlKeyError(f"hierarchy level '{keys.level}' names no usable {PRIVATE_OPTION}")
    try:
        private = load_private_key(_read(keys.private.path))
    except EyamlKeyError as e:
        raise EyamlKeyError(f"{PRIVATE_OPTION} of level '{keys.level}': {e}") from None
    return KeyPair(certificate, private)
