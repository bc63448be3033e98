"""The ``hiera-ls`` command: one module per subcommand, imported only when it runs.

``lookup`` (puppet lookup's flags and meaning), ``check`` (the server's diagnostics over a
repository, for CI), ``diff`` (what a change does to every key for every facts profile),
``facts pull`` (the fleet's facts profiles from PuppetDB) and ``serve`` (the language
server). Each module has ``add_arguments`` and ``run``; only the
command named on the command line is imported, so a plain lookup loads no language server,
no reports and no cryptography.

Every failure a user can cause ends as one line on stderr and exit status 1 (``check`` and
``diff``: 2, as 1 means findings or changes); a Python traceback here is a bug.
"""

from __future__ import annotations

import gc
import importlib
import sys
from collections.abc import Sequence

from hiera_ls import __version__
from hiera_ls.cli.usage import UsageError

TYPE_CHECKING = False  # typing, too, loads with the command (its import is not free)

__all__ = ["UsageError", "build_parser", "main"]

# name -> (one line of help, the module that adds its arguments and runs it)
COMMANDS = {
    "lookup": ("look up keys as `puppet lookup` does", "hiera_ls.cli.lookup"),
    "check": (
        "report every problem the language server finds, for CI and pre-commit",
        "hiera_ls.cli.check",
    ),
    "diff": (
        "what a change of the data does to every key for every facts profile",
        "hiera_ls.cli.diff",
    ),
    "facts": ("facts profiles from PuppetDB (facts pull)", "hiera_ls.cli.facts"),
    "serve": ("run the language server on stdio (what editors start)", "hiera_ls.cli.serve"),
}


if TYPE_CHECKING:  # argparse and typing load with the command, the collector paused
    import argparse
    from typing import Protocol, TextIO

    class Command(Protocol):
        def add_arguments(self, p: argparse.ArgumentParser) -> None: ...

        def run(
            self, args: argparse.Namespace, stdin: TextIO, stdout: TextIO, stderr: TextIO
        ) -> int: ...


def _command(name: str) -> Command:
    module: Command = importlib.import_module(COMMANDS[name][1])
    return module


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The parser; ``only``: the command whose arguments are needed (the others list their
    help line only, and their modules are not imported)."""
    import argparse

    from hiera_ls.cli.help_format import HelpFormatter

    parser = argparse.ArgumentParser(
        prog="hiera-ls",
        description="Hiera 5 language server and lookup tool",
        formatter_class=HelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"hiera-ls {__version__}")
    sub = parser.add_subparsers(dest="command")
    for name, (help_line, _) in COMMANDS.items():
        p = sub.add_parser(name, help=help_line, formatter_class=HelpFormatter)
        if only is None or only == name:
            from hiera_ls.cli.target import add_target_option

            _command(name).add_arguments(p)
            add_target_option(p)
    return parser


def _named(words: Sequence[str]) -> str | None:
    """The command the words name (the first word that is not an option)."""
    return next((w for w in words if not w.startswith("-")), None)


def main(argv: Sequence[str] | None = None) -> int:
    words = list(sys.argv[1:] if argv is None else argv)
    # The command's modules make tens of thousands of objects that live as long as the
    # process: collecting cycles among them while they load only slows a cold start, and so
    # does walking them in every later collection (the first after this walked them all: 8
    # ms of a 100 ms lookup) and at exit. When this process is the command (no words given),
    # they are moved where the collector does not look; a caller that runs main() in its own
    # process (tests) keeps its collector as it was.
    collecting = gc.isenabled()
    gc.disable()
    try:
        parser, args = _parse(words)
    finally:
        if argv is None:
            gc.freeze()
        if collecting:
            gc.enable()
    try:
        if args.command is None:
            parser.print_help()
            return 2
        return _command(args.command).run(args, sys.stdin, sys.stdout, sys.stderr)
    except UsageError as e:
        sys.stderr.write(f"Error: {e}\n")
        return 1
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 1


def _parse(words: list[str]) -> tuple[argparse.ArgumentParser, argparse.Namespace]:
    """The parser (the command's module imported) and the words read with it."""
    name = _named(words)
    command = name if name in COMMANDS else None
    taken: dict[str, str] = {}
    if command == "lookup":
        from hiera_ls.cli.lookup import take_values

        words, taken = take_values(words)
    parser = build_parser(command or "")
    args = parser.parse_args(words)
    for dest, value in taken.items():
        setattr(args, dest, value)
    # values nest up to MAX_DEPTH levels and every walk of them recurses a few frames a level
    from hiera_ls.source.yaml_nodes import VALUE_RECURSION_LIMIT

    sys.setrecursionlimit(max(sys.getrecursionlimit(), VALUE_RECURSION_LIMIT))
    return parser, args


if __name__ == "__main__":
    raise SystemExit(main())
