"""``hiera.eyaml.decryptInHover``: off unless the user turns it on, in any shape editors send."""

from __future__ import annotations

from hiera_ls.project.settings import Settings, parse_settings


def test_decrypt_in_hover_is_off_by_default_and_read_from_each_shape() -> None:
    assert Settings().eyaml_decrypt_in_hover is False
    nested = parse_settings({"hiera": {"eyaml": {"decryptInHover": True}}}).settings
    assert nested.eyaml_decrypt_in_hover is True
    section = parse_settings({"eyaml": {"decryptInHover": True}}).settings
    assert section.eyaml_decrypt_in_hover is True  # VS Code's workspace/configuration answer
    flat = parse_settings({"hiera.eyaml.decryptInHover": True}).settings
    assert flat.eyaml_decrypt_in_hover is True


def test_a_value_that_is_not_a_boolean_is_ignored_with_a_message() -> None:
    parsed = parse_settings({"hiera": {"eyaml": {"decryptInHover": "yes"}}})
    assert parsed.settings.eyaml_decrypt_in_hover is False
    assert parsed.messages == ("hiera.eyaml.decryptInHover must be true or false; ignored",)
