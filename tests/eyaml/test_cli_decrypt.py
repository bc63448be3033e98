"""``hiera-ls lookup --decrypt``: plaintext only with the flag, never with --explain."""

from __future__ import annotations

from pathlib import Path

import pytest

from hiera_ls.cli import main
from hiera_ls.source.eyaml_crypto import encrypt, load_certificate
from tests.eyaml.support import PRIVATE, PUBLIC, write_repo

SECRET = "cli-sécret"
TEAM = "team-cli-secret"


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = write_repo(tmp_path / "production", {})
    cert = load_certificate((root / "keys" / PUBLIC).read_bytes())
    team = load_certificate((root / "team-keys" / PUBLIC).read_bytes())
    token = encrypt(SECRET, cert)
    (root / "data").mkdir()
    (root / "data" / "secrets.eyaml").write_text(f"password: {token}\nlist: ['{token}', plain]\n")
    (root / "data" / "team.eyaml").write_text(f"team: {encrypt(TEAM, team)}\n")
    monkeypatch.chdir(root)
    return root


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["lookup", *args])
    out, err = capsys.readouterr()
    return code, out, err


def test_without_decrypt_the_ciphertext_is_printed(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(capsys, "password")
    assert code == 0 and out.startswith("--- ENC[PKCS7,") and SECRET not in out + err
    assert "decrypts only when asked" in err


def test_decrypt_prints_the_plaintext_of_each_levels_values(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(capsys, "password", "--decrypt", "--render-as", "s") == (0, SECRET + "\n", "")
    code, out, _ = run(capsys, "list", "--decrypt", "--render-as", "json")
    assert (code, out) == (0, f'["{SECRET}","plain"]\n')
    assert run(capsys, "team", "--decrypt", "--render-as", "s")[:2] == (0, TEAM + "\n")


def test_explain_never_prints_plaintext(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "password", "--decrypt", "--explain")
    assert code == 0 and SECRET not in out + err


def test_without_the_private_key_decrypt_fails_with_a_reason(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (repo / "keys" / PRIVATE).unlink()
    code, out, err = run(capsys, "password", "--decrypt")
    assert code == 1 and out == "" and SECRET not in err
    assert err.startswith("Error: Could not decrypt the eyaml value: ")
    assert "pkcs7_private_key of level 'Secrets'" in err
