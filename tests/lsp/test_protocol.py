"""hiera-ls' own requests: what clients may send, and the JSON they get back."""

from __future__ import annotations

from collections import namedtuple

from lsprotocol import types
from pygls.protocol import default_converter

from hiera_ls.features.explain import ExplainResult
from hiera_ls.lsp.protocol import (
    ExplainParams,
    FactsProfile,
    SelectFactsProfileParams,
    SelectFactsProfileResult,
)


def test_explain_params_as_pygls_hands_them_over() -> None:
    # pygls turns a custom request's JSON objects into namedtuples
    position = namedtuple("Object", ["line", "character"])(3, 7)
    params = namedtuple("Object", ["uri", "position"])("file:///d/common.yaml", position)
    assert ExplainParams.from_json(params) == ExplainParams(
        uri="file:///d/common.yaml", position=types.Position(line=3, character=7)
    )
    assert ExplainParams.from_json({"key": "ntp::servers"}) == ExplainParams(key="ntp::servers")


def test_explain_params_that_do_not_fit_are_treated_as_absent() -> None:
    assert ExplainParams.from_json(None) is None
    assert ExplainParams.from_json(["ntp::servers"]) is None
    assert ExplainParams.from_json({"key": "", "uri": 5, "position": "top"}) == ExplainParams()
    # positions LSP cannot express (it counts below 2^31) are absent, not a failed request
    for position in ({"line": 2**31, "character": 0}, {"line": -1}, {"line": "3"}):
        assert ExplainParams.from_json({"position": position}) == ExplainParams()


def test_a_profile_is_selected_by_request_object_or_by_bare_command_argument() -> None:
    assert SelectFactsProfileParams.from_json({"name": "db01"}).name == "db01"
    assert SelectFactsProfileParams.from_json("db01").name == "db01"
    for clearing in (None, "", {"name": None}, {}):
        assert SelectFactsProfileParams.from_json(clearing).name is None


def test_results_are_written_with_their_field_names() -> None:
    converter = default_converter()
    profile = FactsProfile("db01.example.com", "/r/.hiera-ls/facts/db01.json", True)
    assert converter.unstructure(SelectFactsProfileResult("db01.example.com", [profile])) == {
        "active": "db01.example.com",
        "profiles": [
            {
                "name": "db01.example.com",
                "path": "/r/.hiera-ls/facts/db01.json",
                "active": True,
                "error": None,
            }
        ],
    }
    explained = ExplainResult("ntp::servers", None, "production", False, None, "Searching ...")
    assert converter.unstructure(explained) == {
        "key": "ntp::servers",
        "profile": None,
        "environment": "production",
        "found": False,
        "error": None,
        "text": "Searching ...",
    }


def test_the_decrypt_code_action_names_the_command_the_server_registers() -> None:
    from hiera_ls.features.eyaml import DECRYPT_COMMAND
    from hiera_ls.lsp.protocol import CMD_EYAML_DECRYPT, EyamlParams

    assert DECRYPT_COMMAND == CMD_EYAML_DECRYPT
    # a command's arguments arrive as a list; its first is the request's object
    args = [{"uri": "file:///d/s.eyaml", "position": {"line": 1, "character": 2}}]
    assert EyamlParams.from_json(args) == EyamlParams(
        "file:///d/s.eyaml", types.Position(line=1, character=2)
    )
    assert EyamlParams.from_json({"uri": 3}) is None
