"""One handler list: every handler the lsp modules define is registered, each once, and no
LSP method or command has two."""

from __future__ import annotations

import importlib
import pkgutil

import hiera_ls.lsp
from hiera_ls.lsp.serve import HANDLERS, create_server
from hiera_ls.lsp.server import Registration, registration


def test_every_handler_of_the_modules_is_in_the_one_list_once() -> None:
    defined = set()
    for info in pkgutil.iter_modules(hiera_ls.lsp.__path__, "hiera_ls.lsp."):
        module = importlib.import_module(info.name)
        for value in vars(module).values():
            if callable(value) and isinstance(
                getattr(value, "hiera_ls_registration", None), Registration
            ):
                defined.add(value)
    assert len(HANDLERS) == len(set(HANDLERS))
    assert set(HANDLERS) == defined
    methods = [(registration(h).method, registration(h).command) for h in HANDLERS]
    assert len(methods) == len(set(methods))


def test_the_server_is_built_with_them() -> None:
    assert create_server() is not None
