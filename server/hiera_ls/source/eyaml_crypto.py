"""eyaml's PKCS7 scheme with ``cryptography``: what ``eyaml encrypt`` writes, read back.

hiera-eyaml (``encryptors/pkcs7.rb``) encrypts with ``OpenSSL::PKCS7.encrypt`` for the one
certificate in ``pkcs7_public_key``, AES-256-CBC, binary content, DER, strict base64; it
decrypts with the RSA key in ``pkcs7_private_key`` and that certificate (which names the
recipient).  The same envelope is built and opened here by ``cryptography``'s PKCS7
support; no cryptography is written by hand.

Key material stays in these objects: nothing here logs, and the callers never put a key or
a plaintext in a message, a diagnostic or a log line.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from hiera_ls.source.eyaml import DEFAULT_SCHEME, HIERA_TOKEN_RE, decode_body, token_text

if TYPE_CHECKING:  # cryptography itself is imported by what uses it: a cold start without
    # an eyaml key or value to read never pays for it (a tenth of the server's start)
    from cryptography import x509
    from cryptography.hazmat.primitives.asymmetric import rsa


class EyamlKeyError(Exception):
    """A key file that is not what eyaml needs (the message never holds the file's bytes)."""


class DecryptError(Exception):
    """A block that these keys cannot open (the message never holds key or plaintext)."""


def load_certificate(pem: bytes) -> x509.Certificate:
    """``pkcs7_public_key``: an X.509 certificate in PEM, as ``eyaml createkeys`` writes."""
    from cryptography import x509

    try:
        return x509.load_pem_x509_certificate(pem)
    except ValueError:
        raise EyamlKeyError("not a PEM X.509 certificate (eyaml's public key)") from None


def load_private_key(pem: bytes, password: bytes | None = None) -> rsa.RSAPrivateKey:
    """``pkcs7_private_key``: an RSA private key in PEM (password-protected keys need it)."""
    from cryptography.exceptions import UnsupportedAlgorithm
    from cryptography.hazmat.primitives.asymmetric import rsa
    from cryptography.hazmat.primitives.serialization import load_pem_private_key

    try:
        key = load_pem_private_key(pem, password)
    except TypeError:
        raise EyamlKeyError("the private key is protected by a password") from None
    except (ValueError, UnsupportedAlgorithm):
        raise EyamlKeyError("not a PEM RSA private key (eyaml's private key)") from None
    if not isinstance(key, rsa.RSAPrivateKey):
        raise EyamlKeyError("not an RSA private key (eyaml's PKCS7 needs RSA)")
    return key


def encrypt(plaintext: str, certificate: x509.Certificate) -> str:
    """``ENC[PKCS7,...]`` for ``plaintext`` (UTF-8), readable by ``eyaml decrypt``."""
    from cryptography.hazmat.primitives.ciphers import algorithms
    from cryptography.hazmat.primitives.serialization import Encoding, pkcs7

    envelope = (
        pkcs7.PKCS7EnvelopeBuilder()
        .set_data(plaintext.encode("utf-8"))
        .add_recipient(certificate)
        .set_content_encryption_algorithm(algorithms.AES256)
        .encrypt(Encoding.DER, [pkcs7.PKCS7Options.Binary])
    )
    return token_text("PKCS7", envelope)


@dataclass(frozen=True, slots=True, repr=False)
class KeyPair:
    """One level's keys; ``repr`` is hidden so that no traceback or log line shows them."""

    certificate: x509.Certificate
    private_key: rsa.RSAPrivateKey


def decrypt_body(body: str, keys: KeyPair) -> str:
    """The plaintext of one PKCS7 block's base64 (whitespace allowed)."""
    from cryptography.hazmat.primitives.serialization import pkcs7

    der = decode_body(body)
    if der is None:
        raise DecryptError("the ciphertext is not base64")
    try:
        data = pkcs7.pkcs7_decrypt_der(der, keys.certificate, keys.private_key, [])
        # A wrong key makes OpenSSL go on with a random content key, and one try in 256
        # passes the padding check with random bytes: eyaml's values are text, so bytes that
        # are not UTF-8 are that, not the secret.
        return data.decode("utf-8")
    except Exception:
        # eyaml's certificates all name the same recipient (empty subject, serial 1), so a
        # block made for another pair fails like a damaged one: the message says both.
        raise DecryptError(
            "it cannot be opened with this key pair (made for another key, or damaged)"
        ) from None


def decrypt_value(value: str, pairs: Sequence[KeyPair]) -> str:
    """``value`` with each ``ENC[...]`` replaced by its plaintext, as Puppet's
    eyaml_lookup_key does (then chomped); each block is opened by the first pair it was
    encrypted for."""

    def plain(m: re.Match[str]) -> str:
        scheme = (m.group(1) or f"{DEFAULT_SCHEME},")[:-1]
        if scheme != "PKCS7":
            raise DecryptError(f"hiera-ls decrypts PKCS7 blocks only, not {scheme}")
        failure = DecryptError("no key pair given")
        for pair in pairs:
            try:
                return decrypt_body(m.group(2), pair)
            except DecryptError as e:
                failure = e
        raise failure

    return _chomp(HIERA_TOKEN_RE.sub(plain, value))


def _chomp(text: str) -> str:
    """Ruby's ``String#chomp``: Puppet's eyaml_lookup_key drops one line ending from the
    decrypted value (so a folded ``>`` block gives no trailing newline)."""
    for ending in ("\r\n", "\n", "\r"):
        if text.endswith(ending):
            return text[: -len(ending)]
    return text
