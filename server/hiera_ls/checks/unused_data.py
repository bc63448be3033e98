"""Data nothing reads: a key no class parameter, no lookup in code and no data reference uses.

A key is read by Puppet in three ways: automatic parameter lookup (``a::b::c`` sets parameter
``c`` of class ``a::b``), an explicit ``lookup('k')`` / ``hiera('k')`` / ``hiera_include('k')``
in manifests, templates or Ruby functions (the code index), and ``%{lookup('k')}`` /
``%{alias('k')}`` / ``%{hiera('k')}`` in data.  A key none of them reaches is dead weight
(``key-unused``, a hint editors grey out).  A lookup whose key is built at run time
(``lookup("${x}::port")``) makes every key it could read "possibly used": never reported.

Only keys hiera-ls can judge are reported: a namespaced key whose module is on the
environment's modulepath and has code there (a module outside it, deployed from a Puppetfile,
or a module directory with data only, may be read by code hiera-ls cannot see), or a key
without a namespace when the environment has code at all.  Never reported: ``classes`` and
``*::classes`` (read by an ENC or by convention), lookup_options, keys of a file no hierarchy
level reads (that file is ``hiera-data-file-unused`` already) or only a custom backend reads,
and keys whose name the code writes out anywhere (a bare word argument, a template's
``call_function('lookup', ...)``: possibly read).
"""

from __future__ import annotations

from collections.abc import Callable, Collection

from hiera_ls.checks.cross_file import CrossFileIndex
from hiera_ls.project.code_index import CodeIndex
from hiera_ls.project.key_index import FileKeys
from hiera_ls.source.manifest_model import DefinitionKind
from hiera_ls.source.rules import Needs, Rule
from hiera_ls.source.spans import Details, Problem, Severity

KEY_UNUSED = Rule(
    "key-unused",
    Severity.HINT,
    "A key no class parameter, no lookup() in the code and no %{lookup()}/alias() in the data "
    "reads",
    needs=Needs.INDEX | Needs.CODE,
    unnecessary=True,
)
RULES = (KEY_UNUSED,)
PAUSE_KEYS = 256  # keys judged between two pauses (unused_in_file)
CONVENTIONAL = ("classes",)  # keys read by convention (site.pp, an ENC), often outside code


def read_by_data(index: CrossFileIndex) -> frozenset[str]:
    """Root keys some ``%{lookup()}`` / ``%{alias()}`` / ``%{hiera()}`` in the data reads."""
    out: set[str] = set()
    for path, keys in index.files.items():
        module = index.role(path).module_name
        out.update(r.target for r in keys.kept_references(module))
    return frozenset(out)


def modules_with_code(code: CodeIndex) -> frozenset[str]:
    """The modules some class, defined type or function of the code index belongs to."""
    return frozenset(d.name.partition("::")[0] for d in code.definitions())


def judged(key: str, code: CodeIndex, coded: Collection[str]) -> bool:
    """Whether hiera-ls can tell that nothing reads ``key`` (see the module's docstring):
    ``coded`` names the modules whose code hiera-ls has (:func:`modules_with_code`)."""
    last = key.rpartition("::")[2]
    if last in CONVENTIONAL:
        return False
    module, sep, _ = key.partition("::")
    if not sep:
        return bool(code.files)
    if module not in code.modules or module not in coded:
        return False
    # the reader could not read the class's parameter list, or the file that should declare
    # it: what the code does with the key is unknown (the class checks keep quiet too)
    namespace = key.rpartition("::")[0]
    definition = code.definition(namespace)
    if definition is not None:
        return code.header_read(definition)
    return not code.autoload_file_known(namespace)


def is_used(key: str, code: CodeIndex, data_reads: Collection[str]) -> bool:
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


def unused_in_file(
    path: str,
    keys: FileKeys,
    module: str | None,
    code: CodeIndex,
    data_reads: Collection[str],
    written: Collection[str] = frozenset(),
    coded: Collection[str] | None = None,
    pause: Callable[[], None] | None = None,
) -> list[Problem]:
    """``key-unused`` hints of one data file (``module``: the module whose data it is).

    ``data_reads``: the keys the data looks up (:func:`read_by_data`); ``written``: names the
    code writes out somewhere (:mod:`hiera_ls.project.code_mentions`): possibly read, never
    reported. ``pause``: called every :data:`PAUSE_KEYS` keys (the server's background run
    gives way there, or gives up: 2,371 hints of a 10,000-line file took 20-45 ms).
    """
    if coded is None:
        coded = modules_with_code(code)
    out: list[Problem] = []
    for n, key in enumerate(keys.kept_keys(module)):
        if pause is not None and n and not n % PAUSE_KEYS:
            pause()
        if not judged(key, code, coded) or is_used(key, code, data_reads) or key in written:
            continue
        span = keys.keys[key].key_span
        out.append(KEY_UNUSED.at(unused_message(key, code), path, span, Details(key=key)))
    return out
