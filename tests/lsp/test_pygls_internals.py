"""The pygls members ``lsp/transport.py`` relies on that pygls does not promise to keep, one by
one, on the pygls minor version pyproject pins: a new minor fails here, member by member,
before it fails on a user's editor.

transport.py overrides ``_send_data`` (a large answer written in parts) and
``_execute_handler`` (done futures forgotten), reads ``_include_headers``, ``_shutdown``,
``_request_futures``, ``_result_types`` and ``_converter``, and registers its own ``didChange``
with ``lsp_method`` (besides ``fm.features`` and ``get_message_type``).
"""

from __future__ import annotations

import inspect
from importlib.metadata import version
from pathlib import Path

import cattrs
import pytest
from pygls.protocol import LanguageServerProtocol
from pygls.protocol.language_server import lsp_method

from hiera_ls.lsp.serve import create_server
from hiera_ls.lsp.transport import MessageProtocol

PINNED_MINOR = "2.1"  # the pygls these members were read in (pyproject: pygls>=2.1,<2.2)
PYPROJECT = Path(__file__).resolve().parents[2] / "pyproject.toml"


@pytest.fixture
def protocol() -> MessageProtocol:
    made = create_server().protocol
    assert isinstance(made, MessageProtocol)
    return made


def test_the_installed_pygls_is_the_pinned_minor() -> None:
    assert version("pygls").startswith(PINNED_MINOR + "."), (
        "a new pygls minor: check each member below against its source, then move the pin"
    )
    assert f'"pygls>={PINNED_MINOR},<' in PYPROJECT.read_text(encoding="utf-8")


def test_send_data_takes_the_message_and_is_what_we_override() -> None:
    params = list(inspect.signature(LanguageServerProtocol._send_data).parameters)
    assert params == ["self", "data"]
    assert MessageProtocol._send_data is not LanguageServerProtocol._send_data


def test_execute_handler_takes_id_handler_callback_args_kwargs() -> None:
    params = list(inspect.signature(LanguageServerProtocol._execute_handler).parameters)
    assert params == ["self", "msg_id", "handler", "callback", "args", "kwargs"]


def test_include_headers_is_a_flag(protocol: MessageProtocol) -> None:
    assert isinstance(protocol._include_headers, bool)


def test_shutdown_is_a_flag_set_by_shutdown(protocol: MessageProtocol) -> None:
    assert protocol._shutdown is False
    assert protocol.shutting_down is False


def test_request_futures_is_a_map_of_id_to_future(protocol: MessageProtocol) -> None:
    assert isinstance(protocol._request_futures, dict)


def test_result_types_is_a_map_of_id_to_type(protocol: MessageProtocol) -> None:
    assert isinstance(protocol._result_types, dict)


def test_converter_is_cattrs(protocol: MessageProtocol) -> None:
    assert isinstance(protocol._converter, cattrs.Converter)


def test_lsp_method_marks_a_protocol_method_and_features_hold_the_handlers(
    protocol: MessageProtocol,
) -> None:
    def probe(self: object, params: object) -> None:
        return None

    marked = lsp_method("textDocument/didChange")(probe)
    assert getattr(marked, "method_name", None) == "textDocument/didChange"
    assert isinstance(protocol.fm.features, dict)
    assert "textDocument/didChange" in protocol.fm.features
    assert protocol.get_message_type("textDocument/hover") is not None
