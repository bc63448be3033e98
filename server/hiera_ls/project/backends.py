"""How to read a level whose backend is a custom function: the user's mapping function -> reader.

hiera-ls never runs user code, so a level whose ``data_hash``/``lookup_key``/``data_dig``
function is not Puppet's own is skipped (and every answer it could change says so). Most
such functions read ordinary files in a known layout; the user names the layout:

- ``yaml_data``, ``json_data``, ``hocon_data``: the location is one file, read as Puppet's
  built-in function of that name reads it;
- ``eyaml_lookup_key``: YAML whose ``ENC[...]`` strings are shown as written;
- ``expand_path``: a directory per key prefix, as Wikimedia's ``wmflib::expand_path``
  (``modules/wmflib/lib/puppet/functions/wmflib/expand_path.rb``): the key ``a::b::c`` is
  read from ``<path>/a/b.yaml``, a key without ``::`` from ``<path>.yaml``; a missing file
  holds nothing, and the value is interpolated.

The mapping comes from the server setting ``hiera.backends``, the CLI's
``--backend FUNCTION=READER`` and ``.hiera-ls.yaml``'s ``backends:``; the environment
builder takes it as a plain ``Mapping[str, str]``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from hiera_ls.project.hiera_config_model import HieraConfig, HierarchyEntry

READERS = ("yaml_data", "json_data", "hocon_data", "eyaml_lookup_key", "expand_path")
EXPAND_PATH = "expand_path"


def invalid_backends(backends: Mapping[str, object]) -> list[str]:
    """Why entries of a user's mapping are refused (empty when all are usable)."""
    problems: list[str] = []
    choices = ", ".join(READERS)
    for function, reader in backends.items():
        if not isinstance(function, str) or not function:
            problems.append(f"backend function names must be non-empty strings: {function!r}")
        elif not isinstance(reader, str) or reader not in READERS:
            problems.append(f"backend '{function}' must map to one of {choices}, got {reader!r}")
    return problems


def usable_backends(backends: Mapping[str, object]) -> dict[str, str]:
    """The entries of a user's mapping that name a reader hiera-ls has."""
    return {
        f: r
        for f, r in backends.items()
        if isinstance(f, str) and f and isinstance(r, str) and r in READERS
    }


def with_backends(config: HieraConfig | None, backends: Mapping[str, str]) -> HieraConfig | None:
    """``config`` whose custom-function levels carry the reader the user mapped them to."""
    if config is None or not backends:
        return config

    def mapped(entry: HierarchyEntry) -> HierarchyEntry:
        if entry.reader is not None:  # Puppet's own functions are read as Puppet reads them
            return entry
        reader = backends.get(entry.function_name)
        return entry if reader is None else replace(entry, custom_reader=reader)

    hierarchy = tuple(mapped(e) for e in config.hierarchy)
    default_hierarchy = tuple(mapped(e) for e in config.default_hierarchy)
    if hierarchy == config.hierarchy and default_hierarchy == config.default_hierarchy:
        return config
    return replace(config, hierarchy=hierarchy, default_hierarchy=default_hierarchy)


def expand_path_file(base: str, key: str) -> str:
    """The file ``wmflib::expand_path`` reads for ``key``: ``<base>/a/b.yaml`` for ``a::b::c``.

    As its Ruby source: a leading ``::`` is dropped, the key is split on ``::``, the last
    part is dropped, and the rest are joined under ``base`` (``<base>.yaml`` when none).
    """
    namespace = key.removeprefix("::").split("::")
    while namespace and namespace[-1] == "":  # Ruby's split drops trailing empty parts
        namespace.pop()
    if namespace:
        namespace.pop()
    if not namespace:
        return f"{base}.yaml"
    return "/".join([base.rstrip("/"), *namespace]) + ".yaml"
