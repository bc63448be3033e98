"""Report messages keep keys, names and positions, and lose every data value."""

from __future__ import annotations

from hiera_ls.codes import CODES
from hiera_ls.report.redact import SAFE, report_message, string_values
from hiera_ls.source.spans import FileSpan, Problem, Severity, Span


def _problem(code: str, message: str) -> Problem:
    return Problem(
        code, message, Severity.ERROR, FileSpan("/r/data/common.yaml", Span.of(0, 0, 0, 1))
    )


def test_a_lookup_failure_keeps_the_key_and_variable_names_and_masks_values() -> None:
    message = (
        "Looking up 'db::port' fails: The convert_to lookup_option for key 'db::port' raised "
        "error: The string 'hunter2-secret' cannot be converted to Integer"
    )
    assert report_message(_problem("lookup-fails-for-profile", message)) == (
        "Looking up 'db::port' fails: The convert_to lookup_option for key 'db::port' raised "
        "error: The string '…' cannot be converted to Integer"
    )
    undefined = "Looking up 'a::url' fails: Undefined variable '::app_host'; "
    assert report_message(_problem("lookup-fails-for-profile", undefined)) == undefined


def test_ruby_json_errors_lose_the_rest_of_the_file_quotes_and_all() -> None:
    message = 'Unable to parse (x.json): 859: unexpected token at \'"pw": "it\'s-secret"}\''
    assert report_message(_problem("json-syntax", message)) == (
        "Unable to parse (x.json): 859: unexpected token at '…'"
    )
    inside = f"Looking up 'k' fails: {message} (the same error for 2 more keys of this file)"
    assert report_message(_problem("lookup-fails-for-profile", inside)) == (
        "Looking up 'k' fails: Unable to parse (x.json): 859: unexpected token at '…' (the same "
        "error for 2 more keys of this file)"
    )


def test_ruby_text_of_a_collection_is_left_out() -> None:
    message = (
        '\'db::creds\' is an Array: Puppet puts Ruby\'s text of it (["pw (1)", "x"]) into this '
        "string; interpolate a single element or value instead"
    )
    assert report_message(_problem("interpolation-collection-in-string", message)) == (
        "'db::creds' is an Array: Puppet puts Ruby's text of it into this string; interpolate "
        "a single element or value instead"
    )


def test_scalar_notes_show_their_summary_only() -> None:
    message = "Puppet reads `0644-secret` as the octal Integer 420"
    assert report_message(_problem("yaml11-octal", message)) == CODES["yaml11-octal"].summary


def test_a_code_nobody_classified_shows_its_summary_never_its_message() -> None:
    assert "hunter2" not in report_message(_problem("yaml-unknown-alias-x", "hunter2"))
    assert report_message(_problem("yaml-unknown-alias-x", "hunter2")) == (
        "yaml-unknown-alias-x (message withheld)"
    )


def test_the_last_guard_masks_a_value_of_the_file_left_in_a_message() -> None:
    values = string_values({"db::password": "correct-horse-battery", "a": ["x", "short"]})
    assert values == {"correct-horse-battery"}
    message = "(x.yaml): found correct-horse-battery while scanning"
    assert report_message(_problem("yaml-syntax", message), values) == (
        "(x.yaml): found … while scanning"
    )


def test_safe_codes_are_registered_codes() -> None:
    assert set(CODES) >= SAFE


def test_a_value_that_is_part_of_a_key_does_not_mask_the_key() -> None:
    # Wikimedia: a value 'openstack_designate' hid part of a duplicate key's name
    message = "Duplicate key 'profile::openstack_designate::user' in this mapping"
    problem = _problem("yaml-duplicate-key", message)
    assert report_message(problem, {"openstack_designate"}) == message
