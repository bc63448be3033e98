"""The ``hiera-ls`` command: ``lookup`` (puppet lookup's flags and meaning), and the server.

Every failure a user can cause ends as one line on stderr and exit status 1; a Python
traceback here is a bug.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence
from typing import TextIO

from hiera_ls import __version__
from hiera_ls.engine.explain import plain_data, render_text, render_value, to_data
from hiera_ls.engine.lookup import NO_DEFAULT, LookupOutcome, LookupSession
from hiera_ls.project.environments import ModuleDirs, environment_at
from hiera_ls.project.facts import FactsProfile, load_facts, node_scope
from hiera_ls.source.files import UNREAD_CODES, FileAccess
from hiera_ls.source.yaml_loader import LOAD_ERROR_PREFIX, VALUE_RECURSION_LIMIT

STRATEGIES = ("first", "unique", "hash", "deep")


class UsageError(Exception):
    pass


def _lookup_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "lookup",
        help="look up keys as `puppet lookup` does",
        description="Look up Hiera keys for a node, as `puppet lookup` does (Puppet 8 semantics).",
    )
    p.add_argument(
        "keys", nargs="*", metavar="KEY", help="keys to look up; the first one found wins"
    )
    p.add_argument(
        "--environmentpath",
        help="directory of environments (default: the current directory is the environment)",
    )
    p.add_argument(
        "--environment", default="production", help="environment name (default: production)"
    )
    p.add_argument(
        "--modulepath-conventional",
        "--modulepath_conventional",
        dest="modulepath_conventional",
        action="store_true",
        help="also read modules in site-modules, site and modules when the modulepath lacks "
        "them, as the language server does (default: the modulepath only, as Puppet does)",
    )
    p.add_argument("--node", help="the node's certname (sets trusted.certname)")
    p.add_argument("--facts", help="YAML or JSON file of facts (plain hash or a factset export)")
    p.add_argument(
        "--hiera-config", "--hiera_config", dest="hiera_config", help="global layer hiera.yaml"
    )
    p.add_argument("--merge", help="first, unique, hash or deep")
    p.add_argument(
        "--knock-out-prefix",
        "--knock_out_prefix",
        dest="knockout_prefix",
        help="deep merge knockout prefix",
    )
    p.add_argument(
        "--sort-merged-arrays",
        "--sort_merged_arrays",
        action="store_true",
        dest="sort_merged_arrays",
    )
    p.add_argument(
        "--merge-hash-arrays", "--merge_hash_arrays", action="store_true", dest="merge_hash_arrays"
    )
    p.add_argument("--default", dest="default", help="value when nothing is found")
    p.add_argument("--explain", action="store_true", help="print how the value was found")
    p.add_argument("--render-as", "--render_as", dest="render_as", choices=("s", "json", "yaml"))
    p.add_argument(
        "--batch",
        action="store_true",
        help="read JSON lines {key, merge} on stdin; answer JSON lines",
    )
    strict = p.add_mutually_exclusive_group()
    strict.add_argument(
        "--strict-variables",
        "--strict_variables",
        dest="strict_variables",
        action="store_true",
        default=True,
        help="an undefined variable in data is an error (Puppet 8, the default)",
    )
    strict.add_argument(
        "--no-strict-variables",
        "--no-strict_variables",
        dest="strict_variables",
        action="store_false",
        help="an undefined variable interpolates as '' (Puppet 7's default)",
    )


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="hiera-ls", description="Hiera 5 language server and lookup tool"
    )
    parser.add_argument("--version", action="version", version=f"hiera-ls {__version__}")
    sub = parser.add_subparsers(dest="command")
    _lookup_parser(sub)
    serve = sub.add_parser("serve", help="run the language server on stdio (what editors start)")
    serve.add_argument(
        "--stdio",
        action="store_true",
        help="accepted for editors that pass it; stdio is the only transport",
    )
    return parser


def _merge_from_args(args: argparse.Namespace) -> object:
    deep_only = args.sort_merged_arrays or args.merge_hash_arrays or args.knockout_prefix
    if deep_only and args.merge != "deep":
        raise UsageError(
            "The options --knock-out-prefix, --sort-merged-arrays, and --merge-hash-arrays "
            "are only available with '--merge deep'"
        )
    if args.merge is None:
        return None
    if args.merge not in STRATEGIES:
        raise UsageError("The --merge option only accepts 'first', 'hash', 'unique', or 'deep'")
    if args.merge != "deep":
        return {"strategy": args.merge}
    merge: dict[str, object] = {
        "strategy": "deep",
        "sort_merged_arrays": bool(args.sort_merged_arrays),
        "merge_hash_arrays": bool(args.merge_hash_arrays),
    }
    if args.knockout_prefix:
        merge["knockout_prefix"] = args.knockout_prefix
    return merge


def _session(args: argparse.Namespace) -> LookupSession:
    files = FileAccess()
    if args.environmentpath:
        env_root = os.path.join(args.environmentpath, args.environment)
        if not os.path.isdir(env_root):
            raise UsageError(
                f"Could not find a directory environment named '{args.environment}' anywhere in "
                f"the path: {args.environmentpath}"
            )
    else:
        env_root = os.getcwd()
    facts: dict[str, object] = {}
    certname = args.node
    if args.facts:
        found = files.read(os.path.abspath(args.facts))
        if found is None:
            raise UsageError(f"Could not read facts file {args.facts}")
        profile = load_facts(os.path.abspath(args.facts), found.text, found.problem)
        if profile.error:
            raise UsageError(_facts_error(args.facts, profile))
        facts = dict(profile.facts)
    which = ModuleDirs.CONVENTIONAL if args.modulepath_conventional else ModuleDirs.MODULEPATH
    env = environment_at(env_root, args.environment, args.hiera_config, files, module_dirs=which)
    scope = node_scope(facts, certname, args.environment, args.strict_variables)
    return LookupSession(env, scope, files)


def _facts_error(given: str, profile: FactsProfile) -> str:
    """Puppet's words for a --facts file it refuses: Psych's error as ``(file): why``, else
    the file is not a hash of facts; ours for a file never read (a device, too large)."""
    error = profile.error or ""
    if error.startswith(LOAD_ERROR_PREFIX):
        return error.removeprefix(LOAD_ERROR_PREFIX)
    if any(p.code in UNREAD_CODES for p in profile.problems):
        return error
    return (
        f"Incorrectly formatted data in {given} given via the --facts flag "
        "(only accepts yaml and json files)"
    )


JSON_MAX_NESTING = 100  # Ruby's JSON.generate default, which `puppet lookup` keeps


def _render(value: object, render_as: str | None) -> str:
    if render_as == "json":
        data = plain_data(value)
        if _nested_deeper_than(data, JSON_MAX_NESTING):
            # Puppet 7.23's words and exit code for a value of 101 nested collections
            raise UsageError(f"Could not run: nesting of {JSON_MAX_NESTING} is too deep")
        return json.dumps(data, ensure_ascii=False)
    if render_as == "s":
        return value if isinstance(value, str) else render_value(value)
    return _yaml(value)


def _nested_deeper_than(data: object, limit: int) -> bool:
    """Whether collections nest more than ``limit`` deep (a walk without recursion)."""
    stack: list[tuple[object, int]] = [(data, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            item = list(item.values())
        if isinstance(item, list):
            if depth > limit:
                return True
            stack.extend((child, depth + 1) for child in item if isinstance(child, list | dict))
    return False


def _yaml(value: object) -> str:
    """Through libyaml's emitter when PyYAML has it (same text; PyYAML's own emitter took
    35 s to print a 16 MB value, libyaml's a second)."""
    import yaml

    text = yaml.dump(
        plain_data(value),
        Dumper=getattr(yaml, "CSafeDumper", yaml.SafeDumper),
        explicit_start=True,
        sort_keys=False,
        allow_unicode=True,
        default_flow_style=False,
    )
    return text.removesuffix("\n...\n").rstrip("\n")


def _batch(session: LookupSession, stdin: TextIO, stdout: TextIO) -> int:
    for number, line in enumerate(stdin, start=1):
        if not line.strip():
            continue
        try:
            request = json.loads(line)
            if not isinstance(request, dict) or not isinstance(request.get("key"), str):
                raise ValueError('expected {"key": "...", "merge": ...}')
            merge = request.get("merge")
        except ValueError as e:
            stdout.write(json.dumps({"error": f"stdin line {number}: {e}"}) + "\n")
            stdout.flush()
            continue
        outcome = session.lookup(request["key"], merge)
        stdout.write(json.dumps(_batch_answer(outcome), ensure_ascii=False) + "\n")
        stdout.flush()
    return 0


def _batch_answer(outcome: LookupOutcome) -> dict[str, object]:
    if outcome.error is not None:
        return {"error": outcome.error}
    if not outcome.found:
        return {"found": False}
    answer: dict[str, object] = {"found": True, "value": plain_data(outcome.value)}
    if outcome.notes:
        answer["notes"] = list(outcome.notes)
    return answer


def run_lookup(args: argparse.Namespace, stdin: TextIO, stdout: TextIO, stderr: TextIO) -> int:
    merge = _merge_from_args(args)
    session = _session(args)
    if args.batch:
        return _batch(session, stdin, stdout)
    if not args.keys:
        raise UsageError("No keys were given to lookup.")
    default: object = args.default if args.default is not None else NO_DEFAULT
    outcome = session.lookup(args.keys, merge, default, explain=args.explain)
    for note in outcome.notes:
        stderr.write(f"Notice: {note}\n")
    if args.explain:
        assert outcome.trace is not None
        if args.render_as == "json":
            stdout.write(json.dumps(to_data(outcome.trace), indent=2, ensure_ascii=False) + "\n")
        else:
            stdout.write(render_text(outcome.trace))
        return 0
    if outcome.error is not None:
        stderr.write(f"Error: {outcome.error}\n")
        return 1
    if not outcome.found:
        return 1
    stdout.write(_render(outcome.value, args.render_as) + "\n")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    # values nest up to MAX_DEPTH levels and every walk of them recurses a few frames a level
    sys.setrecursionlimit(max(sys.getrecursionlimit(), VALUE_RECURSION_LIMIT))
    try:
        if args.command == "lookup":
            return run_lookup(args, sys.stdin, sys.stdout, sys.stderr)
        if args.command == "serve":
            from hiera_ls.lsp.serve import serve

            return serve()
        parser.print_help()
        return 2
    except UsageError as e:
        sys.stderr.write(f"Error: {e}\n")
        return 1
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 1


if __name__ == "__main__":
    raise SystemExit(main())
