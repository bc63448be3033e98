"""eyaml: the read-only decrypted view and the edit-in-place flow (``hiera/eyamlEditText``,
``hiera/eyamlReencrypt``); its encrypt and decrypt code actions are offered by
lsp/code_actions.py, the one codeAction handler.

Nothing here decrypts unless a request or command asks for it, and no plaintext or key is
logged: a failure is logged by the guard with its traceback, whose messages never hold them
(see source/eyaml_crypto.py).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from lsprotocol import types

from hiera_ls.features import lsp_ranges
from hiera_ls.lsp import protocol
from hiera_ls.lsp.protocol import EyamlParams, EyamlReencryptResult
from hiera_ls.lsp.server import HieraLanguageServer, handler, none

if TYPE_CHECKING:  # (the feature loads with the first request: not at start)
    from hiera_ls.features.eyaml import DecryptResult, EditText


def _decrypt(ls: HieraLanguageServer, params: EyamlParams | None) -> DecryptResult | None:
    from hiera_ls.features.eyaml import decrypt_at

    if params is None or params.position is None:
        return None
    at = ls.position(params.uri, params.position)
    if at is None:
        return None
    path, pos = at
    return decrypt_at(ls.snapshot(), path, pos)


@handler(protocol.EYAML_DECRYPT, none)
async def eyaml_decrypt(ls: HieraLanguageServer, params: Any) -> DecryptResult | None:
    return _decrypt(ls, EyamlParams.from_json(params))


@handler(protocol.CMD_EYAML_DECRYPT, none, command=True)
async def command_eyaml_decrypt(ls: HieraLanguageServer, *args: Any) -> DecryptResult | None:
    return _decrypt(ls, EyamlParams.from_json(args[0] if args else None))


@handler(protocol.EYAML_EDIT_TEXT, none)
async def eyaml_edit_text(ls: HieraLanguageServer, params: Any) -> EditText | None:
    found = EyamlParams.from_json(params)
    path = lsp_ranges.path_of(found.uri) if found is not None else None
    if path is None:
        return None
    from hiera_ls.features.eyaml import edit_text

    return edit_text(ls.snapshot(), path)


@handler(protocol.EYAML_REENCRYPT, none)
async def eyaml_reencrypt(ls: HieraLanguageServer, params: Any) -> EyamlReencryptResult | None:
    found = EyamlParams.from_json(params)
    path = lsp_ranges.path_of(found.uri) if found is not None else None
    if found is None or path is None or found.text is None:
        return None
    from hiera_ls.features.eyaml import reencrypt

    result = reencrypt(ls.snapshot(), path, found.text)
    if result.error is not None:
        return EyamlReencryptResult(None, result.error)
    conv = ls.converter(path)
    edits = [types.TextEdit(range=conv.to_lsp_range(s), new_text=t) for s, t in result.edits]
    return EyamlReencryptResult(edits, None)
