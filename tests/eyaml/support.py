"""Key pairs and a repository with eyaml levels, for the eyaml tests.

Keys are made at test time, never committed: :func:`make_keys` as ``eyaml createkeys``
makes them (RSA 2048, a self-signed certificate with an empty subject, serial 1), and
:func:`eyaml_createkeys` by running the real hiera-eyaml. An RSA key takes a tenth of a second
to make, so :func:`make_keys` hands out a few made once, in turn: the pairs one test makes
differ, as long as it makes no more than ``KEY_POOL`` of them.
"""

from __future__ import annotations

import datetime
import functools
import itertools
import os
import shutil
import subprocess
import textwrap
from pathlib import Path

import pytest
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import rsa

PRIVATE = "private_key.pkcs7.pem"
PUBLIC = "public_key.pkcs7.pem"

HIERA = """\
version: 5
defaults:
  datadir: data
  data_hash: yaml_data
hierarchy:
  - name: Secrets
    lookup_key: eyaml_lookup_key
    path: secrets.eyaml
    options:
      pkcs7_private_key: keys/private_key.pkcs7.pem
      pkcs7_public_key: keys/public_key.pkcs7.pem
  - name: Team secrets
    lookup_key: eyaml_lookup_key
    path: team.eyaml
    options:
      pkcs7_private_key: team-keys/private_key.pkcs7.pem
      pkcs7_public_key: team-keys/public_key.pkcs7.pem
  - name: Common
    path: common.yaml
"""


KEY_POOL = 4
_TURN = itertools.count()


@functools.cache
def _pooled_key(index: int) -> rsa.RSAPrivateKey:
    return rsa.generate_private_key(public_exponent=65537, key_size=2048)


def make_keys(directory: Path) -> tuple[Path, Path]:
    """(private, public) key files in ``directory``, as ``eyaml createkeys`` writes them."""
    directory.mkdir(parents=True, exist_ok=True)
    key = _pooled_key(next(_TURN) % KEY_POOL)
    name = x509.Name([])
    now = datetime.datetime.now(datetime.UTC)
    cert = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(1)
        .not_valid_before(now)
        .not_valid_after(now + datetime.timedelta(days=3650))
        .sign(key, hashes.SHA256())
    )
    private, public = directory / PRIVATE, directory / PUBLIC
    private.write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.TraditionalOpenSSL,
            serialization.NoEncryption(),
        )
    )
    private.chmod(0o600)
    public.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    return private, public


def eyaml_available() -> bool:
    return shutil.which("eyaml") is not None


def require_eyaml() -> str:
    """The ``eyaml`` command; skipped when absent, except on CI, which installs it."""
    found = shutil.which("eyaml")
    if found is None:
        if os.environ.get("CI") == "true":
            pytest.fail(
                "CI=true but `eyaml` (Debian's hiera-eyaml) is not installed", pytrace=False
            )
        pytest.skip("`eyaml` (hiera-eyaml) is not installed")
    return found


def eyaml(directory: Path, *args: str, stdin: str | None = None) -> str:
    """Run the real hiera-eyaml in ``directory`` (its keys in ``keys/``); its stdout."""
    done = subprocess.run(
        [require_eyaml(), *args],
        cwd=directory,
        input=stdin,
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def eyaml_createkeys(directory: Path) -> tuple[Path, Path]:
    """Keys made by ``eyaml createkeys`` in ``directory/keys``."""
    eyaml(directory, "createkeys")
    return directory / "keys" / PRIVATE, directory / "keys" / PUBLIC


def write_repo(root: Path, files: dict[str, str], keys: bool = True) -> Path:
    """An environment with two eyaml levels (two key pairs) laid out under ``root``."""
    files = {"hiera.yaml": HIERA, **files}
    for rel, text in files.items():
        target = root / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(textwrap.dedent(text))
    if keys:
        make_keys(root / "keys")
        make_keys(root / "team-keys")
    return root
