"""What ``hiera-ls diff`` masks of a value when no eyaml level and no level outside the
repository defines anything: an ``ENC[...]`` string wherever it sits, and nothing else."""

from __future__ import annotations

from hiera_ls.engine.explain import plain_data
from hiera_ls.puppet.values import Encrypted
from hiera_ls.report.diff_mask import MASKED, Masker

NOTHING = Masker(frozenset(), frozenset())


def test_a_value_holding_no_encrypted_string_is_shown_as_it_is() -> None:
    value = {"a": [1, "x", {"b": None, 2: 1.5}], True: "ENC", "c": ("t", "u")}
    assert (
        NOTHING.shown(value)
        == plain_data(value)
        == {
            "a": [1, "x", {"b": None, "2": 1.5}],
            "true": "ENC",
            "c": ("t", "u"),
        }
    )


def test_encrypted_strings_are_masked_however_deep() -> None:
    value = {
        "a": ["x", "ENC[PKCS7,MIIB]"],
        "b": {"c": {"d": "user:ENC[PKCS7,MIIC]"}},
        "e": Encrypted("ENC[PKCS7,MIID]"),
        "ENC[PKCS7,KEY]": "kept",
    }
    assert NOTHING.shown(value) == {
        "a": ["x", MASKED],
        "b": {"c": {"d": MASKED}},
        "e": MASKED,
        "ENC[PKCS7,KEY]": "kept",  # a hash key is shown as written
    }
    assert NOTHING.shown("ENC[PKCS7,MIIE]") == MASKED
    assert NOTHING.shown(["plain"]) == ["plain"]
