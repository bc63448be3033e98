"""Values as `hiera-ls lookup --render-as json|yaml` and `--explain --render-as json` write them."""

from __future__ import annotations

import json

import yaml

from hiera_ls.engine.explain import plain_data
from hiera_ls.puppet.values import Encrypted, Sensitive


def test_secrets_are_redacted_and_keys_written_as_ruby_writes_them() -> None:
    value = {
        "password": Sensitive("hunter2"),
        True: [1, None],
        None: "nil key",
        "token": Encrypted("ENC[PKCS7,MIIB...]"),
    }
    data = plain_data(value)
    assert data == {
        "password": "Sensitive [value redacted]",
        "true": [1, None],
        "": "nil key",
        "token": "ENC[PKCS7,MIIB...]",
    }
    # both dumpers take it (an Encrypted str subclass would stop PyYAML's safe dumper)
    assert json.loads(json.dumps(data)) == data
    assert yaml.safe_load(yaml.safe_dump(data)) == data
