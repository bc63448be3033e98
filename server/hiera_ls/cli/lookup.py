"""``hiera-ls lookup``: Hiera keys for a node, with ``puppet lookup``'s flags and meaning.

Every failure a user can cause ends as one line on stderr and exit status 1, as ``puppet
lookup``'s do. Only what a lookup uses is imported (no language server, no reports; eyaml's
cryptography only with ``--decrypt``).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, TextIO

from hiera_ls.cli.usage import UsageError
from hiera_ls.engine.explain import plain_data, render_text, to_data
from hiera_ls.engine.lookup import NO_DEFAULT, LookupOutcome, LookupSession
from hiera_ls.engine.providers import ENCRYPTED_NOTE
from hiera_ls.engine.trace import Kind, TraceNode
from hiera_ls.project.backends import invalid_backends
from hiera_ls.project.environments import ModuleDirs, environment_at
from hiera_ls.project.facts import (
    FactsProfile,
    as_target_reads,
    left_out_note,
    load_facts,
    node_scope,
)
from hiera_ls.project.repo_config import find_repo_config
from hiera_ls.project.targets import choose_target
from hiera_ls.puppet.ruby_text import float_to_s, to_s
from hiera_ls.source.files import UNREAD_CODES, FileAccess
from hiera_ls.source.psych_dump import psych_dump
from hiera_ls.source.yaml_document import LOAD_ERROR_PREFIX

if TYPE_CHECKING:
    from hiera_ls.puppet.types import PType

STRATEGIES = ("first", "unique", "hash", "deep")
BACKEND_HINT = "Name a reader for a function with --backend FUNCTION=READER."


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.description = (
        "Look up Hiera keys for a node, as `puppet lookup` does (with --target's Puppet's "
        "defaults: Puppet 8's unless told otherwise)."
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
    p.add_argument(
        "--backend",
        action="append",
        default=[],
        metavar="FUNCTION=READER",
        help="read the levels of a custom backend function with one of hiera-ls' readers: "
        "yaml_data, json_data, hocon_data, eyaml_lookup_key, expand_path (repeatable)",
    )
    p.add_argument("--default", dest="default", help="value when nothing is found")
    p.add_argument("--explain", action="store_true", help="print how the value was found")
    p.add_argument(
        "--explain-options",
        "--explain_options",
        dest="explain_options",
        action="store_true",
        help="print how the key's lookup_options were found (alone: only that)",
    )
    p.add_argument(
        "--type",
        dest="value_type",
        metavar="TYPE",
        help="the Puppet type the value must have (`Array[String]`), as puppet lookup checks it",
    )
    p.add_argument(
        "--decrypt",
        action="store_true",
        help="decrypt eyaml values with the keys the hierarchy's eyaml levels name (only "
        "with this flag is plaintext ever printed)",
    )
    p.add_argument("--render-as", "--render_as", dest="render_as", choices=("s", "json", "yaml"))
    p.add_argument(
        "--batch",
        action="store_true",
        help="read JSON lines {key, merge} on stdin; answer JSON lines",
    )
    strict = p.add_mutually_exclusive_group()
    strict.add_argument(  # deprecated: --target names the Puppet (project/targets.py)
        "--strict-variables",
        "--strict_variables",
        dest="strict_variables",
        action="store_true",
        default=None,
        help="deprecated: --target puppet8",
    )
    strict.add_argument(
        "--no-strict-variables",
        "--no-strict_variables",
        dest="strict_variables",
        action="store_false",
        help="deprecated: --target puppet7",
    )


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


def _session(args: argparse.Namespace) -> tuple[LookupSession, list[str]]:
    """The session ``puppet lookup`` would run, and the notes to print once before it."""
    if args.environmentpath:
        env_root = os.path.join(args.environmentpath, args.environment)
        if not os.path.isdir(env_root):
            raise UsageError(
                f"Could not find a directory environment named '{args.environment}' anywhere in "
                f"the path: {args.environmentpath}"
            )
    else:
        env_root = os.getcwd()
    files = FileAccess(roots=(env_root,))
    repo = find_repo_config(env_root, files)  # the repository's answers, the flags over them
    flag = "--strict-variables" if args.strict_variables else "--no-strict-variables"
    choice = choose_target(args.target, repo.target, args.strict_variables, deprecated_as=flag)
    target = choice.target
    notes = list(choice.notes)
    facts: dict[str, object] = {}
    certname = args.node
    if args.facts:
        found = files.read(os.path.abspath(args.facts))
        if found is None:
            raise UsageError(f"Could not read facts file {args.facts}")
        profile = load_facts(os.path.abspath(args.facts), found.text, found.problem)
        if profile.error:
            raise UsageError(_facts_error(args.facts, profile))
        profile = as_target_reads(profile, target)
        facts = dict(profile.facts)
        note = left_out_note([profile], target)
        if note is not None:
            notes.append(note)
    which = ModuleDirs.CONVENTIONAL if args.modulepath_conventional else ModuleDirs.MODULEPATH
    backends = {**dict(repo.backends), **_backends(args.backend)}
    env = environment_at(
        env_root,
        args.environment,
        args.hiera_config,
        files,
        module_dirs=which,
        backends=backends,
        target=target,
    )
    scope = node_scope(facts, certname, args.environment, target)
    return LookupSession(env, scope, files), notes


def _backends(given: Sequence[str]) -> dict[str, str]:
    """``--backend FUNCTION=READER`` flags as the mapping project/backends.py reads."""
    backends: dict[str, str] = {}
    for flag in given:
        function, sep, reader = flag.rpartition("=")
        if not sep or not function:
            raise UsageError(f"--backend expects FUNCTION=READER, got '{flag}'")
        backends[function] = reader
    problems = invalid_backends(backends)
    if problems:
        raise UsageError(problems[0])
    return backends


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
    """The text `puppet lookup --render-as FORMAT` prints (before ``puts``): Ruby's compact
    JSON, ``to_s``, or Psych's YAML (which quotes every string a YAML 1.1 reader would take
    for another type: ``--- "n"``)."""
    shown = _shown(value)
    if render_as == "json":
        if _nested_deeper_than(shown, JSON_MAX_NESTING):
            # Puppet 7.23's words and exit code for a value of 101 nested collections
            raise UsageError(f"Could not run: nesting of {JSON_MAX_NESTING} is too deep")
        return _ruby_json(shown)
    if render_as == "s":
        return to_s(shown)
    return psych_dump(shown)


def _shown(value: object) -> object:
    """Secrets redacted, hash keys kept as they are (``1`` and ``'1'`` are two keys)."""
    if isinstance(value, dict):
        return {k: _shown(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_shown(v) for v in value]
    return plain_data(value)


def _ruby_json(value: object) -> str:
    """``JSON.generate``: no spaces, keys as ``to_s``, floats as Ruby writes them."""
    if isinstance(value, float) and math.isfinite(value):
        return float_to_s(value)
    if isinstance(value, dict):
        pairs = (
            f"{_ruby_json(k if isinstance(k, str) else to_s(k))}:{_ruby_json(v)}"
            for k, v in value.items()
        )
        return "{" + ",".join(pairs) + "}"
    if isinstance(value, list):
        return "[" + ",".join(_ruby_json(v) for v in value) + "]"
    return json.dumps(value, ensure_ascii=False)


class _NoSuchType(Exception):
    pass


def _no_aliases(name: str) -> str | None:
    raise _NoSuchType(name)


def _value_type(text: str) -> PType:
    """``--type``: Puppet's own types only (type aliases need the environment's code, which
    `puppet lookup` cannot load either); Puppet's words for what it refuses. Puppet's type
    system is imported here, for the lookups that name a type."""
    from hiera_ls.puppet.type_parser import TypeExpressionError, parse_type

    try:
        return parse_type(text, _no_aliases)
    except _NoSuchType:
        # what `puppet lookup` 7 answers for any name that is not one of its types
        raise UsageError(
            "private method `load' called for Scope(Class[main]):Puppet::Parser::Scope"
        ) from None
    except TypeExpressionError as e:
        raise UsageError(_type_syntax_error(text, str(e))) from None


def _type_syntax_error(text: str, detail: str) -> str:
    if not text.strip():
        return f"The expression <{text}> is not a valid type specification."
    if "found end of text" in detail:
        return "Syntax error at end of input"
    offset = re.search(r"\(at offset (\d+)\)", detail)
    column = int(offset.group(1)) + 1 if offset else 1
    at = text[column - 1] if 0 < column <= len(text) else ""
    return f"Syntax error at '{at}' (line: 1, column: {column})"


def _puts(out: TextIO, text: str) -> None:
    out.write(text if text.endswith("\n") else text + "\n")


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
    answer: dict[str, object]
    if outcome.error is not None:
        answer = {"error": outcome.error}
    elif not outcome.found:
        answer = {"found": False}
    else:
        answer = {"found": True, "value": plain_data(outcome.value)}
        if outcome.notes:
            answer["notes"] = list(outcome.notes)
    if outcome.incomplete is not None:  # a miss can be as incomplete as a value
        answer["incomplete"] = outcome.incomplete.as_data()
    return answer


def run(args: argparse.Namespace, stdin: TextIO, stdout: TextIO, stderr: TextIO) -> int:
    merge = _merge_from_args(args)
    session, notes = _session(args)
    for note in notes:
        stderr.write(f"Notice: {note}\n")
    if args.batch:
        return _batch(session, stdin, stdout)
    only_options = args.explain_options and not args.explain
    if not args.keys and not only_options:
        raise UsageError("No keys were given to lookup.")
    value_type = _value_type(args.value_type) if args.value_type is not None else None
    if only_options:
        outcome = session.explain_options(args.keys[0] if args.keys else None)
    else:
        default: object = args.default if args.default is not None else NO_DEFAULT
        outcome = session.lookup(args.keys, merge, default, explain=args.explain)
    for warning in outcome.warnings:
        stderr.write(f"Warning: {warning}\n")
    explained = args.explain or only_options
    value = outcome.value
    decrypting = args.decrypt and not explained and outcome.found and outcome.error is None
    if decrypting:
        value = _decrypted(session, value)
    shown = _trace_texts(outcome.trace) if explained and outcome.trace else set()
    if decrypting:
        shown.add(ENCRYPTED_NOTE)
    for note in outcome.notes:
        if note not in shown:  # --explain prints it in the tree already: once is enough
            stderr.write(f"Notice: {note}\n")
    if outcome.incomplete is not None:
        # still exit 0 on a found value: see README "Levels hiera-ls cannot read"
        stderr.write(f"Warning: {outcome.incomplete.message(BACKEND_HINT)}\n")
    if value_type is not None and not only_options and outcome.found:
        from_default = args.default is not None and not session.lookup(args.keys, merge).found
        subject = "Default value" if from_default else "Found value"
        from hiera_ls.puppet.type_mismatch import describe_mismatch, render

        mismatches = describe_mismatch(f"{subject} has wrong type,", value_type, outcome.value)
        if mismatches:
            raise UsageError(render(mismatches))
    if only_options and outcome.error is not None:
        # `puppet lookup --explain-options` stops with the error alone
        stderr.write(f"Error: {outcome.error}\n")
        return 1
    if explained:
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
        missing = _missing_environment_config(session)
        if missing is not None:  # Puppet says nothing; the user wonders why
            stderr.write(f"Warning: {missing}\n")
        return 1  # as `puppet lookup`: nothing on stdout or stderr for a key not found
    _puts(stdout, _render(value, args.render_as))
    return 0


def _missing_environment_config(session: LookupSession) -> str | None:
    """What to say when the environment has no hiera.yaml (so no data at all)."""
    layer = session.env.environment_layer
    if layer.config is not None:
        return None
    path = os.path.join(layer.root, "hiera.yaml")
    return (
        f"{path} does not exist: the environment '{session.env.name}' has no Hiera data "
        "(Puppet reads none either). Run hiera-ls in a control repository, or name one with "
        "--environmentpath DIR --environment NAME."
    )


def _trace_texts(node: TraceNode) -> set[str]:
    texts = {node.label} if node.kind is Kind.TEXT and node.label else set()
    for child in node.children:
        texts |= _trace_texts(child)
    return texts


# `puppet lookup` (Ruby's OptionParser) takes the word after an option that needs a value as
# that value, even `--` or `-x`: `--knock-out-prefix -- KEY` is the prefix `--` (the prefix
# Puppet's docs use).  argparse reads `--` as the end of options (and drops it even from
# `--opt=--`), so these options are taken out before it runs.
_VALUE_OPTIONS = {
    "--knock-out-prefix": "knockout_prefix",
    "--knock_out_prefix": "knockout_prefix",
    "--default": "default",
}


def take_values(argv: Sequence[str]) -> tuple[list[str], dict[str, str]]:
    rest: list[str] = []
    taken: dict[str, str] = {}
    words = list(argv)
    i = 0
    while i < len(words):
        name, equals, value = words[i].partition("=")
        if words[i] == "--":
            rest.extend(words[i:])
            break
        if name in _VALUE_OPTIONS and (equals or i + 1 < len(words)):
            if not equals:
                i += 1
                value = words[i]
            taken[_VALUE_OPTIONS[name]] = value
        else:
            rest.append(words[i])  # (a last option without its value: argparse says so)
        i += 1
    return rest, taken


def _decrypted(session: LookupSession, value: object) -> object:
    """``--decrypt``: the value with its eyaml strings decrypted, or a UsageError saying why
    not (the reason names keys and levels, never a key's content or a plaintext). Its
    cryptography is imported here, for the lookups that decrypt."""
    from hiera_ls.features.eyaml import decrypt_tree, environment_pairs
    from hiera_ls.source.eyaml_crypto import DecryptError

    pairs, problems = environment_pairs(session.env)
    try:
        return decrypt_tree(value, pairs)
    except DecryptError as e:
        why = f"; {'; '.join(problems)}" if problems else ""
        raise UsageError(f"Could not decrypt the eyaml value: {e}{why}") from None
