"""``hiera-ls serve``: the language server on stdio, what editors start."""

from __future__ import annotations

import argparse
from typing import TextIO


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--stdio",
        action="store_true",
        help="accepted for editors that pass it; stdio is the only transport",
    )


def run(args: argparse.Namespace, stdin: TextIO, stdout: TextIO, stderr: TextIO) -> int:
    from hiera_ls.lsp.serve import serve

    return serve(args.target)  # the editor's hiera.target wins over it
