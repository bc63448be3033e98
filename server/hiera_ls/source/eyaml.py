"""eyaml's ``ENC[...]`` blocks: where they are, whether they are well formed, and the
``DEC::PKCS7[...]!`` markers of ``eyaml edit``.

hiera-eyaml (Debian's ``hiera-eyaml`` 3.3, ``lib/hiera/backend/eyaml/parser``) decrypts a
value by scanning it for ``ENC[SCHEME,base64]``, the scheme optional (PKCS7 by default), the
base64 allowed to hold spaces and newlines (a folded ``>`` block joins its lines with
spaces).  What its pattern does not match stays literal text; what it matches but cannot
decrypt fails the lookup.  Nothing here needs a key: the crypto is in
:mod:`hiera_ls.source.eyaml_crypto`.
"""

from __future__ import annotations

import base64
import binascii
import re
from dataclasses import dataclass
from functools import lru_cache

SCHEMES = ("PKCS7", "GPG")
DEFAULT_SCHEME = "PKCS7"
# What hiera-eyaml's Hiera backend matches (EncHieraTokenType): base64, spaces and newlines.
HIERA_TOKEN_RE = re.compile(r"ENC\[(\w+,)?([a-zA-Z0-9+/ =\n]+?)\]")
# An ENC[ that opens a block, for diagnostics: everything up to the next ] (or the end).
OPEN_RE = re.compile(r"ENC\[(?:(\w+),)?([^\]]*)(\]?)")
# In a file's text (eyaml edit's encrypted parser): a block's base64 may span indented lines.
FILE_TOKEN_RE = re.compile(r"ENC\[(?:(\w+),)?([a-zA-Z0-9+/=\s]+?)\]")
DEC_RE = re.compile(r"DEC(?:\((\d+)\))?::(\w+)\[(.+?)\]!", re.DOTALL)
MALFORMED = "eyaml-malformed"
UNKNOWN_SCHEME = "eyaml-unknown-scheme"
BLOCK_WIDTH = 60  # eyaml -o block cuts "ENC[PKCS7,..." into lines of 60 characters
# ContentInfo's contentType for PKCS#7 envelopedData (1.2.840.113549.1.7.3), DER-encoded
_ENVELOPED_OID = bytes.fromhex("06092a864886f70d010703")


@dataclass(frozen=True, slots=True)
class EncBlock:
    """One ``ENC[`` in a string: ``start``/``end`` are offsets of the whole block."""

    start: int
    end: int
    scheme: str  # as written; PKCS7 when omitted
    body: str  # the base64 text as written (whitespace included)
    closed: bool  # a ``]`` ends it


def enc_blocks(value: str) -> list[EncBlock]:
    """Every ``ENC[`` of a string value, well formed or not, in order."""
    out: list[EncBlock] = []
    for m in OPEN_RE.finditer(value):
        out.append(
            EncBlock(
                m.start(), m.end(), m.group(1) or DEFAULT_SCHEME, m.group(2), m.group(3) == "]"
            )
        )
    return out


def _compact(text: str) -> str:
    return "".join(text.split())


def decode_body(body: str) -> bytes | None:
    """The bytes of a block's base64 (whitespace dropped); None when it is not base64."""
    try:
        return base64.b64decode(_compact(body), validate=True)
    except (binascii.Error, ValueError):
        return None


def block_problem(block: EncBlock) -> tuple[str, str] | None:
    """(code, message): why hiera-eyaml cannot decrypt this block whatever the key.

    The answer depends on the block's text only; it is kept for the blocks seen last, so a
    keystroke in a file of many secrets re-reads only the block it changed.
    """
    return _block_problem(block.scheme, block.body, block.closed)


@lru_cache(maxsize=4096)
def _block_problem(scheme: str, body: str, closed: bool) -> tuple[str, str] | None:
    block = EncBlock(0, 0, scheme, body, closed)
    if not block.closed:
        text = "This ENC[ block has no closing `]`: it is truncated, and eyaml keeps it as text"
        return MALFORMED, text
    if block.scheme not in SCHEMES:
        return UNKNOWN_SCHEME, (
            f"Unknown eyaml encryption scheme '{block.scheme}': hiera-eyaml needs a plugin "
            f"for it (known: {', '.join(SCHEMES)})"
        )
    if not _compact(block.body):
        return MALFORMED, "This ENC[ block holds no ciphertext"
    der = decode_body(block.body)
    if der is None:
        return MALFORMED, (
            "The ciphertext of this ENC[ block is not valid base64 (a character was changed "
            "or lost): it cannot be decrypted"
        )
    found = envelope_problem(der) if block.scheme == "PKCS7" else None
    return (MALFORMED, found) if found is not None else None


def envelope_problem(der: bytes) -> str | None:
    """Whether DER bytes are a whole PKCS#7 envelopedData, as hiera-eyaml's PKCS7 writes.

    The structure is parsed by ``cryptography`` (OpenSSL's PKCS#7 reader, no key needed):
    it refuses truncated or damaged DER, and reports the content type of a well-formed one.
    Imported here: a file without an ``ENC[PKCS7`` block never loads cryptography.
    """
    from cryptography.exceptions import UnsupportedAlgorithm
    from cryptography.hazmat.primitives.serialization import pkcs7

    try:
        pkcs7.load_der_pkcs7_certificates(der)
    except UnsupportedAlgorithm:  # well formed, but not signed data: the type is checked below
        pass
    except ValueError:
        return (
            "The ciphertext of this ENC[PKCS7 block is not a complete PKCS#7 structure "
            "(truncated or damaged): it cannot be decrypted"
        )
    else:
        return "This ENC[PKCS7 block holds signed data, not an encrypted envelope"
    if _ENVELOPED_OID not in der[:16]:
        return "This ENC[PKCS7 block is not a PKCS#7 encrypted envelope (envelopedData)"
    return None


def block_form(token: str, indentation: str) -> str:
    """``eyaml encrypt -o block``: the token cut into lines of 60 characters, each after the
    first on its own line with ``indentation`` (the text after ``>`` and a newline)."""
    compact = _compact(token)
    lines = [compact[i : i + BLOCK_WIDTH] for i in range(0, len(compact), BLOCK_WIDTH)]
    return ("\n" + indentation).join(lines)


def token_text(scheme: str, ciphertext: bytes) -> str:
    """``ENC[PKCS7,base64]`` (strict base64, one line), as ``eyaml encrypt -o string``."""
    return f"ENC[{scheme},{base64.b64encode(ciphertext).decode('ascii')}]"


@dataclass(frozen=True, slots=True)
class FileToken:
    """One ``ENC[...]`` of a file's text, as eyaml edit finds it."""

    start: int
    end: int
    scheme: str
    body: str


def file_tokens(text: str) -> list[FileToken]:
    return [
        FileToken(m.start(), m.end(), m.group(1) or DEFAULT_SCHEME, m.group(2))
        for m in FILE_TOKEN_RE.finditer(text)
    ]


@dataclass(frozen=True, slots=True)
class DecMarker:
    """One ``DEC(n)::SCHEME[plaintext]!`` of an edited text."""

    start: int
    end: int
    number: int | None
    scheme: str
    plaintext: str


def dec_markers(text: str) -> list[DecMarker]:
    return [
        DecMarker(
            m.start(),
            m.end(),
            int(m.group(1)) if m.group(1) is not None else None,
            m.group(2),
            m.group(3),
        )
        for m in DEC_RE.finditer(text)
    ]


def dec_marker(number: int | None, scheme: str, plaintext: str) -> str:
    label = f"({number})" if number is not None else ""
    return f"DEC{label}::{scheme}[{plaintext}]!"


def block_indentation(text: str, start: int) -> str | None:
    """The indentation of a block token starting at ``start``: the whitespace after a
    ``>`` that ends the previous line (None when the token is not a folded block)."""
    line_start = text.rfind("\n", 0, start) + 1
    indent = text[line_start:start]
    if indent.strip() or line_start == 0:
        return None
    previous = text[: line_start - 1].rstrip("\r")
    return indent if previous.rstrip().endswith(">") else None
