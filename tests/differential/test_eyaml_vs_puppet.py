"""Puppet's own eyaml_lookup_key (with Debian's hiera-eyaml) reads what hiera-ls encrypts, and
``hiera-ls lookup --decrypt`` gives what ``puppet lookup`` gives, for the block and the
one-line forms (Puppet chomps the decrypted text: a folded block has no trailing newline).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from hiera_ls.source.eyaml import block_form
from hiera_ls.source.eyaml_crypto import encrypt, load_certificate
from tests.eyaml.support import make_keys, require_eyaml
from tests.oracle.engines import PuppetEngine

pytestmark = pytest.mark.puppet

VALUES = {"block": "from hiera-ls", "line": "pässwörd ✓", "mixed": "user:"}


def test_puppet_lookup_decrypts_what_hiera_ls_encrypts_as_hiera_ls_does(
    tmp_path: Path, puppet_engine: PuppetEngine
) -> None:
    if puppet_engine.root is None:
        require_eyaml()  # Puppet's eyaml_lookup_key needs the hiera-eyaml gem (in Puppet 8's tree)
    root = tmp_path / "production"
    private, public = make_keys(root / "keys")
    (root / "hiera.yaml").write_text(
        "version: 5\nhierarchy:\n  - name: Secrets\n    lookup_key: eyaml_lookup_key\n"
        f"    path: secrets.eyaml\n    options:\n      pkcs7_private_key: {private}\n"
        f"      pkcs7_public_key: {public}\n"
    )
    cert = load_certificate(public.read_bytes())
    block = encrypt(VALUES["block"], cert)
    (root / "data").mkdir()
    (root / "data" / "secrets.eyaml").write_text(
        f"block: >\n  {block_form(block, '  ')}\n"
        f"line: {encrypt(VALUES['line'], cert)}\n"
        f"mixed: 'user:{encrypt('', cert)}'\n"
    )
    for key, expected in VALUES.items():
        puppet = subprocess.run(
            puppet_engine.command(
                ["puppet", "lookup", "--environmentpath", str(tmp_path), "--environment",
                 "production", "--render-as", "json", key]
            ),
            capture_output=True, text=True, timeout=300, check=False,
        )  # fmt: skip
        assert puppet.returncode == 0, puppet.stderr[-2000:]
        ours = subprocess.run(
            [sys.executable, "-m", "hiera_ls", "lookup", "--render-as", "json", "--decrypt", key],
            cwd=root, capture_output=True, text=True, timeout=120, check=False,
        )  # fmt: skip
        assert ours.returncode == 0, ours.stderr
        assert json.loads(ours.stdout) == json.loads(puppet.stdout) == expected, key
