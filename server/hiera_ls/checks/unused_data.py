"""Data nothing reads: a key no class parameter, no lookup in code and no data reference uses.

A key is read by Puppet in three ways: automatic parameter lookup (``a::b::c`` sets parameter
``c`` of class ``a::b``), an explicit ``lookup('k')`` / ``hiera('k')`` / ``hiera_include('k')``
in manifests, templates or Ruby functions (the code index), and ``%{lookup('k')}`` /
``%{alias('k')}`` / ``%{hiera('k')}`` in data.  A key none of them reaches is dead weight
(``key-unused``, a hint editors grey out).  A lookup whose key is built at run time
(``lookup("${x}::port")``) makes every key it could read "possibly used": never reported.

Only keys hiera-ls can judge are reported: a namespaced key whose module is on the
environment's modulepath (a module outside it, deployed from a Puppetfile, may read its own
keys in code hiera-ls cannot see), or a key without a namespace when the environment has
code at all.  Never reported: ``classes`` and ``*::classes`` (read by an ENC or by
convention), lookup_options, keys of a file no hierarchy level reads (that file is
``hiera-data-file-unused`` already), and keys whose name the code writes out anywhere (a bare
word argument, a template's ``call_function('lookup', ...)``: possibly read).
"""

from __future__ import annotations

from collections.abc import Callable, Collection

from hiera_ls.checks.cross_file import CrossFileIndex
from hiera_ls.checks.problems import problem
from hiera_ls.project.code_index import CodeIndex
from hiera_ls.source.manifest_model import DefinitionKind
from hiera_ls.source.spans import Problem

CODE = "key-unused"
CONVENTIONAL = ("classes",)  # keys read by convention (site.pp, an ENC), often outside code


def read_by_data(index: CrossFileIndex) -> frozenset[str]:
    """Root keys some ``%{lookup()}`` / ``%{alias()}`` / ``%{hiera()}`` in the data reads."""
    out: set[str] = set()
    for path, keys in index.files.items():
        module = index.role(path).module_name
        out.update(r.target for r in keys.kept_references(module))
    return frozenset(out)


def judged(key: str, code: CodeIndex) -> bool:
    """Whether hiera-ls can tell that nothing reads ``key`` (see the module's docstring)."""
    last = key.rpartition("::")[2]
    if last in CONVENTIONAL:
        return False
    module, sep, _ = key.partition("::")
    if not sep:
        return bool(code.files)
    return module in code.modules


def is_used(key: str, code: CodeIndex, data_reads: frozenset[str]) -> bool:
    return (
        key in data_reads
        or code.parameter_for_key(key) is not None
        or bool(code.lookups_of(key))
        or bool(code.possible_lookups_of(key))
    )


def unused_message(key: str, code: CodeIndex) -> str:
    namespace = key.rpartition("::")[0]
    d = code.definition(namespace) if namespace else None
    why = ""
    if d is not None and d.kind is DefinitionKind.DEFINE:
        why = (
            f" ({namespace} is a defined type: automatic parameter lookup sets class "
            "parameters only)"
        )
    elif d is not None and d.kind is DefinitionKind.CLASS:
        why = f" (class {namespace} has no parameter '{key.rpartition('::')[2]}')"
    elif namespace:
        why = f" (no class {namespace} in the code)"
    return (
        f"Nothing reads '{key}': no class parameter, no lookup() in the code and no "
        f"%{{lookup()}} or %{{alias()}} in the data{why}"
    )


def check_unused_keys(
    index: CrossFileIndex,
    code: CodeIndex,
    unread: Collection[str] = (),
    mentioned: Callable[[Collection[str]], Collection[str]] | None = None,
) -> dict[str, list[Problem]]:
    """``key-unused`` hints, by the data file they are in.

    ``unread``: the files no level reads (``hiera-data-file-unused`` says so once, for the
    whole file). ``mentioned``: which of the given keys the code writes out somewhere
    (:mod:`hiera_ls.project.code_mentions`): those are possibly read, never reported.
    """
    data_reads = read_by_data(index)
    verdicts: dict[str, bool] = {}
    places: list[tuple[str, str]] = []
    for path, keys in index.files.items():
        if path in unread:
            continue
        role = index.role(path)
        for key in keys.kept_keys(role.module_name):
            unused = verdicts.get(key)
            if unused is None:
                unused = judged(key, code) and not is_used(key, code, data_reads)
                verdicts[key] = unused
            if unused:
                places.append((path, key))
    if not places:
        return {}
    written = mentioned({key for _, key in places}) if mentioned is not None else ()
    out: dict[str, list[Problem]] = {}
    for path, key in places:
        if key in written:
            continue
        span = index.files[path].keys[key].key_span
        out.setdefault(path, []).append(problem(CODE, unused_message(key, code), path, span))
    return out
