"""publishDiagnostics is written from each diagnostic's JSON kept since the last publish of
the document: the text must be what pygls writes, and only what changed is encoded again."""

from __future__ import annotations

import json
from typing import Any

from lsprotocol import types
from pygls.protocol import LanguageServerProtocol

from hiera_ls.lsp.serve import create_server
from hiera_ls.lsp.transport import MessageProtocol


class _Writer:
    def __init__(self) -> None:
        self.messages: list[bytes] = []

    def write(self, data: bytes) -> None:
        self.messages.append(data)

    def close(self) -> None:
        pass


def _diagnostic(line: int, message: str, **more: Any) -> types.Diagnostic:
    position = types.Position(line=line, character=2)
    return types.Diagnostic(
        range=types.Range(start=position, end=types.Position(line=line, character=9)),
        message=message,
        severity=types.DiagnosticSeverity.Warning,
        code="class-not-found",
        source="hiera-ls",
        **more,
    )


def _body(message: bytes) -> Any:
    head, _, body = message.partition(b"\r\n\r\n")
    assert int(head.split(b"Content-Length: ")[1].split(b"\r\n")[0]) == len(body)
    return json.loads(body)


def test_published_diagnostics_read_as_pygls_writes_them() -> None:
    server = create_server()
    protocol = server.protocol
    assert isinstance(protocol, MessageProtocol)
    writer = _Writer()
    protocol.set_writer(writer)
    related = types.DiagnosticRelatedInformation(
        location=types.Location(
            uri="file:///r/data/b.yaml",
            range=types.Range(
                start=types.Position(line=1, character=0), end=types.Position(line=1, character=3)
            ),
        ),
        message="Looking up 'k' fails because of this",
    )
    first = [
        _diagnostic(0, "Bienvenue sur l'hôte 🖥", data={"key": "a::b", "place": ["x", 1]}),
        _diagnostic(3, "plain", tags=[types.DiagnosticTag.Unnecessary]),
        _diagnostic(4, "a cause", related_information=[related]),
    ]
    uri = "file:///r/data/common%20file.yaml"
    try:
        for version, diagnostics in (
            (None, first),
            (7, first),
            (8, [*first[:2], first[0]]),
            (9, []),
        ):
            params = types.PublishDiagnosticsParams(
                uri=uri, version=version, diagnostics=diagnostics
            )
            server.text_document_publish_diagnostics(params)
            notification = types.PublishDiagnosticsNotification(
                method=types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS, params=params
            )
            pygls_writes = json.dumps(notification, default=protocol._serialize_message)
            assert _body(writer.messages[-1]) == json.loads(pygls_writes)
        assert writer.messages[0].split(b"\r\n\r\n")[1].isascii()  # as pygls: JSON's escapes
    finally:
        LanguageServerProtocol.get_message_type.cache_clear()
        LanguageServerProtocol.get_result_type.cache_clear()
