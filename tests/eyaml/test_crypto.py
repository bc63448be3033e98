"""PKCS7 encrypt and decrypt with cryptography, and what they refuse (no eyaml needed)."""

from __future__ import annotations

from pathlib import Path

import pytest
from cryptography.hazmat.primitives import serialization

from hiera_ls.source.eyaml import block_form, block_problem, enc_blocks
from hiera_ls.source.eyaml_crypto import (
    DecryptError,
    EyamlKeyError,
    KeyPair,
    decrypt_value,
    encrypt,
    load_certificate,
    load_private_key,
)
from tests.eyaml.support import make_keys


def _pair(directory: Path) -> KeyPair:
    private, public = make_keys(directory)
    return KeyPair(load_certificate(public.read_bytes()), load_private_key(private.read_bytes()))


def test_round_trip_in_string_and_folded_block_forms(tmp_path: Path) -> None:
    pair = _pair(tmp_path / "a")
    token = encrypt("pässwörd\nsecond line", pair.certificate)
    assert [block_problem(b) for b in enc_blocks(token)] == [None]
    assert decrypt_value(token, [pair]) == "pässwörd\nsecond line"
    block = block_form(token, "  ")
    assert all(len(line.strip()) <= 60 for line in block.splitlines())
    folded = block.replace("\n  ", " ")  # what YAML's > makes of it
    assert decrypt_value(f"x {folded} y", [pair]) == "x pässwörd\nsecond line y"


def test_each_block_is_opened_by_the_pair_it_was_made_for(tmp_path: Path) -> None:
    one, two = _pair(tmp_path / "one"), _pair(tmp_path / "two")
    value = encrypt("a", one.certificate) + "-" + encrypt("b", two.certificate)
    assert decrypt_value(value, [one, two]) == "a-b"
    with pytest.raises(DecryptError, match="another key"):
        decrypt_value(value, [one])


def test_gpg_blocks_are_not_decrypted(tmp_path: Path) -> None:
    with pytest.raises(DecryptError, match="PKCS7 blocks only"):
        decrypt_value("ENC[GPG,hQEMA2VjcmV0]", [_pair(tmp_path)])


def test_key_errors_never_show_the_key(tmp_path: Path) -> None:
    private, _ = make_keys(tmp_path)
    key = serialization.load_pem_private_key(private.read_bytes(), None)
    locked = key.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.BestAvailableEncryption(b"pw"),
    )
    with pytest.raises(EyamlKeyError, match="password") as e:
        load_private_key(locked)
    assert "BEGIN" not in str(e.value)
    with pytest.raises(EyamlKeyError, match="certificate"):
        load_certificate(private.read_bytes())
    pair = _pair(tmp_path / "b")
    assert "BEGIN" not in repr(pair) and "RSA" not in repr(pair)


@pytest.mark.slow  # 3,000 tries, for the one in 256 that opens: with the whole suite
def test_a_block_for_another_key_never_opens_as_garbage(tmp_path: Path) -> None:
    """When RSA refuses the wrong key, OpenSSL's PKCS7 goes on with a random content key (so
    that timing tells an attacker nothing), and about one try in 256 then 'opens' the block
    as random bytes. Such bytes must be refused like any wrong key (the next pair tried), not
    shown or re-encrypted as the secret."""
    one, two = _pair(tmp_path / "one"), _pair(tmp_path / "two")
    block = encrypt("secret", two.certificate)
    for _ in range(3000):
        with pytest.raises(DecryptError, match="another key"):
            decrypt_value(block, [one])
    assert decrypt_value(block, [one, two]) == "secret"
