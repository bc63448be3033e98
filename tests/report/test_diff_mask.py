"""What ``hiera-ls diff`` masks of a value when no eyaml level and no level outside the
repository defines anything: an ``ENC[...]`` string wherever it sits, and nothing else."""

from __future__ import annotations

from hypothesis import given, settings

from hiera_ls.engine.explain import plain_data
from hiera_ls.puppet.values import Encrypted, strings_in
from hiera_ls.report.diff_mask import MASKED, Masker
from tests.report.test_diff_sameness import VALUES

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


def test_keys_that_are_written_alike_are_masked_as_one() -> None:
    # None and '' are both written '': the later entry is shown (it crashed the report)
    value = {None: "ENC[PKCS7,MIIB]", "": ["x", "ENC[PKCS7,MIIC]"], 1: "a", "1": "b"}
    assert NOTHING.shown(value) == {"": ["x", MASKED], "1": "b"}


def _typed(value: object) -> object:
    """``value`` with each part's exact class, keys in their order."""
    if isinstance(value, dict):
        return ("hash", [(_typed(k), _typed(v)) for k, v in value.items()])
    if isinstance(value, list | tuple):
        return (type(value).__name__, [_typed(v) for v in value])
    return (type(value).__name__, repr(value))


@settings(max_examples=300, deadline=None)
@given(VALUES)
def test_a_value_with_nothing_to_mask_is_shown_as_plain_data_makes_it(value: object) -> None:
    """Plain data is shown as it is, not copied: the same text as plain_data()'s copy,
    whatever classes it holds (eyaml strings, non-String keys, tuples, Symbols)."""
    encrypted = any(isinstance(s, Encrypted) or "ENC[" in s for s in strings_in(value))
    before = NOTHING._walk(value, plain_data(value), None, None) if encrypted else plain_data(value)
    assert _typed(NOTHING.shown(value)) == _typed(before)
