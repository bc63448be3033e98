"""Malformed ENC blocks and unusable key files are diagnostics at their positions."""

from __future__ import annotations

import base64
from pathlib import Path

from cryptography.hazmat.primitives.serialization import Encoding, pkcs7

from hiera_ls.source.eyaml_crypto import encrypt, load_certificate
from hiera_ls.source.spans import Severity, Span
from tests.checks.support import brief, make_workspace
from tests.eyaml.support import HIERA, PUBLIC, make_keys


def _good(root: Path) -> str:
    _, public = make_keys(root / "production" / "keys")
    make_keys(root / "production" / "team-keys")
    return encrypt("s3cret", load_certificate(public.read_bytes()))


def _block(token: str, indent: str = "  ") -> str:
    return "\n".join(indent + token[i : i + 60] for i in range(0, len(token), 60))


def test_well_formed_blocks_single_line_and_folded_are_clean(tmp_path: Path) -> None:
    token = _good(tmp_path)
    ws = make_workspace(
        tmp_path,
        {
            "hiera.yaml": HIERA,
            "data/secrets.eyaml": f"a: {token}\nb: >\n{_block(token)}\nc: 'x {token} y'\n",
        },
    )
    assert ws.data_problems("data/secrets.eyaml") == []
    assert [p for p in ws.config_problems() if p.code.startswith("eyaml-")] == []


def test_malformed_blocks_are_reported_where_they_are(tmp_path: Path) -> None:
    token = _good(tmp_path)
    truncated_der = token[: len("ENC[PKCS7,") + 120] + "]"
    certificate = load_certificate((tmp_path / "production/keys" / PUBLIC).read_bytes())
    signed = pkcs7.serialize_certificates([certificate], Encoding.DER)
    not_envelope = "ENC[PKCS7," + base64.b64encode(signed).decode() + "]"
    text = (
        f"truncated: {truncated_der}\n"  # line 0: base64 of half a structure
        "bad_base64: ENC[PKCS7,MIIB$$eQYJ]\n"  # line 1
        "unclosed: ENC[PKCS7,MIIBeQYJKoZIhvcNAQcDoIIBajCC\n"  # line 2
        f"wrong: {not_envelope}\n"  # line 3
        "scheme: ENC[KMS,AQICAHh4]\n"  # line 4
        "gpg: ENC[GPG,hQEMA2VjcmV0]\n"  # line 5: GPG is known; base64 fine
        "folded: >\n"  # line 6
        f"{_block(token[:-30] + '!!' + token[-28:])}\n"
    )
    ws = make_workspace(tmp_path, {"hiera.yaml": HIERA, "data/secrets.eyaml": text})
    found = ws.data_problems("data/secrets.eyaml")
    assert [(p.code, p.where.span.start.line) for p in found] == [
        ("eyaml-malformed", 0),
        ("eyaml-malformed", 1),
        ("eyaml-malformed", 2),
        ("eyaml-malformed", 3),
        ("eyaml-unknown-scheme", 4),
        ("eyaml-malformed", 7),
    ]
    assert found[0].where.span == Span.of(0, 11, 0, 11 + len(truncated_der))
    assert "not a complete PKCS#7 structure" in found[0].message
    assert "not valid base64" in found[1].message
    assert "no closing `]`" in found[2].message
    assert "signed data, not an encrypted envelope" in found[3].message
    assert found[0].severity is Severity.ERROR
    # the folded block's problem covers the block's lines
    assert found[5].where.span.start.line == 7 and found[5].where.span.end.line > 7


def test_plain_yaml_files_are_not_read_as_eyaml(tmp_path: Path) -> None:
    _good(tmp_path)
    ws = make_workspace(tmp_path, {"hiera.yaml": HIERA, "data/common.yaml": "a: ENC[PKCS7,$$]\n"})
    assert ws.data_problems("data/common.yaml") == []


def test_missing_and_unusable_key_files_are_reported_on_their_option(tmp_path: Path) -> None:
    root = tmp_path / "production"
    make_keys(root / "keys")
    (root / "team-keys").mkdir(parents=True)
    (root / "team-keys" / "public_key.pkcs7.pem").write_text("not a certificate\n")
    ws = make_workspace(tmp_path, {"hiera.yaml": HIERA, "data/secrets.eyaml": "a: 1\n"})
    found = [p for p in ws.config_problems() if p.code.startswith("eyaml-")]
    assert brief(found) == [
        ("eyaml-private-key-missing", Span.of(15, 25, 15, 56)),
        ("eyaml-public-key-missing", Span.of(16, 24, 16, 54)),
    ]
    assert found[0].severity is Severity.INFORMATION
    assert "does not exist" in found[0].message and "'Team secrets'" in found[0].message
    assert "not a PEM X.509 certificate" in found[1].message
    assert "CERTIFICATE" not in found[1].message  # never the file's content


def test_levels_sharing_default_options_are_told_once(tmp_path: Path) -> None:
    hiera = """\
version: 5
defaults:
  datadir: data
  lookup_key: eyaml_lookup_key
  options:
    pkcs7_private_key: private.pem
    pkcs7_public_key: "%{facts.keydir}/public.pem"
hierarchy:
  - name: One
    path: one.eyaml
  - name: Two
    path: two.eyaml
"""
    ws = make_workspace(tmp_path, {"hiera.yaml": hiera})
    assert brief([p for p in ws.config_problems() if p.code.startswith("eyaml-")]) == [
        ("eyaml-private-key-missing", Span.of(5, 23, 5, 34)),
    ]


def test_key_files_outside_the_repository_are_the_servers(tmp_path: Path) -> None:
    hiera = HIERA.replace("team-keys/", "/etc/puppetlabs/puppet/eyaml/")
    make_keys(tmp_path / "production" / "keys")
    ws = make_workspace(tmp_path, {"hiera.yaml": hiera})
    assert [p for p in ws.config_problems() if p.code.startswith("eyaml-")] == []
