"""eyaml: encrypted blocks that no key can open, and key files a level cannot use.

Both need no key: a block is checked for its closing ``]``, its base64 and its PKCS#7
structure (:mod:`hiera_ls.source.eyaml`); a key file for its existence and readability (and
a certificate for being one), when the file is inside the layer's directory.  The
private key is never read here.
"""

from __future__ import annotations

import os

from hiera_ls.project.eyaml_keys import (
    PRIVATE_OPTION,
    PUBLIC_OPTION,
    eyaml_levels,
    key_file_problem,
)
from hiera_ls.project.model import Layer
from hiera_ls.source.data_file import DataFile
from hiera_ls.source.eyaml import MALFORMED, UNKNOWN_SCHEME, block_problem, enc_blocks
from hiera_ls.source.files import FileAccess
from hiera_ls.source.rules import Rule, table
from hiera_ls.source.scalars import Locator, iter_strings
from hiera_ls.source.spans import Details, Problem, Severity, Span
from hiera_ls.source.string_positions import SourceLines

NO_SPAN = Span.of(0, 0, 0, 0)

BLOCK_MALFORMED = Rule(
    MALFORMED,
    Severity.ERROR,
    "An ENC[...] block no key can decrypt: truncated, not base64, or not a PKCS#7 envelope",
)
BLOCK_UNKNOWN_SCHEME = Rule(
    UNKNOWN_SCHEME,
    Severity.WARNING,
    "An ENC[...] block of an encryption scheme other than PKCS7 or GPG",
)
PUBLIC_KEY_MISSING = Rule(
    "eyaml-public-key-missing",
    Severity.WARNING,
    "An eyaml level's pkcs7_public_key file is missing, unreadable or not a certificate",
)
PRIVATE_KEY_MISSING = Rule(
    "eyaml-private-key-missing",
    Severity.INFORMATION,
    "An eyaml level's pkcs7_private_key file is missing or unreadable on this machine",
)
RULES = (BLOCK_MALFORMED, BLOCK_UNKNOWN_SCHEME, PUBLIC_KEY_MISSING, PRIVATE_KEY_MISSING)
_BLOCK_RULES = table((BLOCK_MALFORMED, BLOCK_UNKNOWN_SCHEME))


def check_encrypted_blocks(path: str, data: DataFile, text: str) -> list[Problem]:
    """Each malformed ``ENC[`` block of the file's values, at the block's range."""
    if "ENC[" not in text:
        return []
    lines = SourceLines(text, False)
    locator = Locator(lines, False, True)
    out: list[Problem] = []
    for site in iter_strings(data, lines, only_with="ENC["):
        if site.in_key or site.alias:
            continue
        for block in enc_blocks(site.value):
            found = block_problem(block)
            if found is not None:
                code_id, message = found
                span = locator.span(site, block.start, block.end)
                out.append(_BLOCK_RULES[code_id].at(message, path, span))
    return out


def _inside(layer: Layer, path: str) -> bool:
    """Keys outside the layer's directory (``/etc/puppetlabs/puppet/eyaml/...``) live on the
    Puppet server: their absence from a workstation says nothing."""
    return path.startswith(layer.root.rstrip(os.sep) + os.sep)


def check_eyaml_keys(layer: Layer, files: FileAccess) -> list[Problem]:
    """Key files of the layer's eyaml levels that are missing or unusable, once per option."""
    config = layer.config
    if config is None or config.path is None:
        return []
    out: list[Problem] = []
    seen: set[tuple[str, Span]] = set()
    for entry, keys in eyaml_levels(layer):
        for option in (keys.public, keys.private):
            if option is None or option.path is None or not _inside(layer, option.path):
                continue
            span = option.span if option.span not in (None, NO_SPAN) else entry.name_span
            assert span is not None
            if (option.option, span) in seen:
                continue  # levels sharing defaults' options: said once
            seen.add((option.option, span))
            why = key_file_problem(files, option)
            if why is None:
                continue
            if option.option == PUBLIC_OPTION:
                message = (
                    f"{PUBLIC_OPTION} '{option.written}' ({option.path}) {why}: values of "
                    f"hierarchy level '{entry.name}' cannot be encrypted"
                )
                rule = PUBLIC_KEY_MISSING
            else:
                message = (
                    f"{PRIVATE_OPTION} '{option.written}' ({option.path}) {why} on this "
                    f"machine: hiera-ls cannot decrypt values of hierarchy level '{entry.name}' "
                    "(the Puppet server needs it too)"
                )
                rule = PRIVATE_KEY_MISSING
            details = Details(level=entry.name, option=option.option, file=option.path)
            out.append(rule.at(message, config.path, span, details))
    return out
