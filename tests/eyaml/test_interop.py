"""Interoperability with the real hiera-eyaml (Debian's ``hiera-eyaml``), both ways.

Keys are made by ``eyaml createkeys`` in a temporary directory.  What ``eyaml encrypt``
writes (string and block forms) hiera-ls decrypts; what hiera-ls encrypts (string and
block forms) ``eyaml decrypt`` reads.  Skipped when ``eyaml`` is absent, except on CI.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from hiera_ls.features.eyaml import marked_text, reencrypted_text
from hiera_ls.source.eyaml import block_form, block_problem, enc_blocks
from hiera_ls.source.eyaml_crypto import (
    KeyPair,
    decrypt_value,
    encrypt,
    load_certificate,
    load_private_key,
)
from hiera_ls.source.yaml_loader import load_yaml
from tests.eyaml.support import eyaml, eyaml_createkeys, require_eyaml

pytestmark = pytest.mark.puppet  # Debian's hiera-eyaml is Ruby

PLAINTEXTS = [
    "s3cret",
    "pässwörd ✓ with spaces",
    "line one\nline two\n",
    "x" * 1000,
]


@pytest.fixture(scope="module")
def keydir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    require_eyaml()
    directory = tmp_path_factory.mktemp("eyaml")
    eyaml_createkeys(directory)
    return directory


def _pair(directory: Path) -> KeyPair:
    keys = directory / "keys"
    return KeyPair(
        load_certificate((keys / "public_key.pkcs7.pem").read_bytes()),
        load_private_key((keys / "private_key.pkcs7.pem").read_bytes()),
    )


@pytest.mark.parametrize("plaintext", PLAINTEXTS)
def test_what_eyaml_encrypts_hiera_ls_decrypts(keydir: Path, plaintext: str) -> None:
    token = eyaml(keydir, "encrypt", "--stdin", "-o", "string", stdin=plaintext).strip()
    assert token.startswith("ENC[PKCS7,")
    assert [block_problem(b) for b in enc_blocks(token)] == [None]
    # as Puppet's eyaml_lookup_key: one line ending is chomped
    assert decrypt_value(token, [_pair(keydir)]) == plaintext.removesuffix("\n")


def test_eyamls_block_form_in_a_file_is_read_and_decrypted(keydir: Path) -> None:
    block = eyaml(keydir, "encrypt", "-s", "blocky", "-l", "password", "-o", "block")
    text = block.strip() + "\n"
    assert text.startswith("password: >\n    ENC[PKCS7,") or text.startswith("password: >\n")
    value = load_yaml("/x.eyaml", text).value
    assert isinstance(value, dict)
    assert decrypt_value(value["password"], [_pair(keydir)]).strip() == "blocky"


@pytest.mark.parametrize("plaintext", PLAINTEXTS)
def test_what_hiera_ls_encrypts_eyaml_decrypts(keydir: Path, plaintext: str) -> None:
    token = encrypt(plaintext, _pair(keydir).certificate)
    out = eyaml(keydir, "decrypt", "-s", token)
    assert out == (plaintext if plaintext.endswith("\n") else plaintext + "\n")  # Ruby's puts


def test_hiera_ls_block_form_in_a_file_is_what_eyaml_decrypts(keydir: Path) -> None:
    token = encrypt("from hiera-ls", _pair(keydir).certificate)
    path = keydir / "secrets.eyaml"
    path.write_text(f"---\npassword: >\n    {block_form(token, '    ')}\nplain: {token}\n")
    out = eyaml(keydir, "decrypt", "-e", str(path))
    assert "DEC::PKCS7[from hiera-ls]!" in out
    assert out.count("DEC::PKCS7[from hiera-ls]!") == 2


def test_hiera_ls_edit_markers_are_what_eyaml_encrypts_back(keydir: Path) -> None:
    """The marked text (``DEC(n)::PKCS7[...]!``) is eyaml edit's format: eyaml encrypts it."""
    pair = _pair(keydir)
    original = (
        f"---\nblock: >\n    {block_form(encrypt('one', pair.certificate), '    ')}\n"
        f"line: {encrypt('two', pair.certificate)}\nplain: three\n"
    )
    marked = marked_text(original, pair)
    assert (
        marked
        == "---\nblock: >\n    DEC(1)::PKCS7[one]!\nline: DEC(2)::PKCS7[two]!\nplain: three\n"
    )
    path = keydir / "marked.eyaml"
    path.write_text(marked)
    encrypted = eyaml(keydir, "encrypt", "-e", str(path))
    assert "DEC" not in encrypted and encrypted.count("ENC[PKCS7,") == 2
    value = load_yaml("/x.eyaml", encrypted).value
    assert isinstance(value, dict)
    assert decrypt_value(value["block"], [pair]).strip() == "one"
    assert decrypt_value(value["line"], [pair]) == "two"


def test_eyamls_decrypted_markers_are_encrypted_back_by_hiera_ls(keydir: Path) -> None:
    """``eyaml decrypt -e`` writes ``DEC::PKCS7[...]!`` markers; hiera-ls encrypts them back,
    changed values only (here all: eyaml's markers carry no numbers), and eyaml reads it."""
    pair = _pair(keydir)
    path = keydir / "edited.eyaml"
    path.write_text(f"---\nkeep: {encrypt('kept', pair.certificate)}\nplain: text\n")
    original = path.read_text()
    decrypted = eyaml(keydir, "decrypt", "-e", str(path))
    assert "DEC::PKCS7[kept]!" in decrypted
    edited = decrypted.replace("DEC::PKCS7[kept]!", "DEC::PKCS7[changed]!")
    path.write_text(reencrypted_text(original, edited, pair))
    again = eyaml(keydir, "decrypt", "-e", str(path))
    assert "DEC::PKCS7[changed]!" in again and "plain: text" in again
    # numbered markers whose plaintext did not change keep their exact ciphertext
    assert reencrypted_text(original, marked_text(original, pair), pair) == original
