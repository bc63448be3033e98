"""``hiera-ls serve``: the language server on stdio, what editors start."""

from __future__ import annotations

import argparse
import gc
from typing import TextIO


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--stdio",
        action="store_true",
        help="accepted for editors that pass it; stdio is the only transport",
    )


def run(args: argparse.Namespace, stdin: TextIO, stdout: TextIO, stderr: TextIO) -> int:
    # lsprotocol's thousand classes and the server's modules live as long as the process:
    # collecting cycles among them while they load only delays the first diagnostics, and
    # so does collecting their garbage before those are out (lsp/serve.py turns the
    # collector on after them: collect_after_start)
    gc.disable()
    from hiera_ls.lsp.serve import serve

    return serve(args.target)  # the editor's hiera.target wins over it
