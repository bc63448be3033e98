"""``hiera.inlayHints.enabled``: on unless the user turns it off, in any shape editors send."""

from __future__ import annotations

from hiera_ls.project.settings import Settings, parse_settings


def test_inlay_hints_are_on_by_default_and_read_from_each_shape() -> None:
    assert Settings().inlay_hints is True
    for raw in (
        {"hiera": {"inlayHints": {"enabled": False}}},
        {"inlayHints": {"enabled": False}},  # VS Code's workspace/configuration answer
        {"hiera.inlayHints.enabled": False},
        {"inlayHints.enabled": False},
    ):
        assert parse_settings(raw).settings.inlay_hints is False, raw


def test_a_value_that_is_not_a_boolean_is_ignored_with_a_message() -> None:
    parsed = parse_settings({"hiera": {"inlayHints": {"enabled": "no"}}})
    assert parsed.settings.inlay_hints is True
    assert parsed.messages == ("hiera.inlayHints.enabled must be true or false; ignored",)
