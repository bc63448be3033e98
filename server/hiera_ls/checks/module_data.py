"""A module's data that Puppet never reads: keys that do not belong to the module, and the
data directory of a module without hiera.yaml.

A module data provider keeps only ``lookup_options`` and keys that start with
``<module>::``; every other key is removed with a warning each time the file is read
(module_data_provider.rb, validate_data_hash; verified on Puppet 7.23 and 8.10). The
message quotes Puppet 8's warning, which names the key; Puppet 7's ends before "; got".
A module without a hiera.yaml has no data provider at all (unless its metadata.json names a
deprecated ``data_provider``): ``--explain`` says ``Module data provider for module "m" not
found``, and its ``data/`` files are never opened (lookup_adapter.rb,
initialize_module_provider).
"""

from __future__ import annotations

import os

from hiera_ls.checks.cross_file import CrossFileIndex
from hiera_ls.source.data_file import DataFile
from hiera_ls.source.fix_source import FixSource
from hiera_ls.source.keys import LOOKUP_OPTIONS
from hiera_ls.source.rules import Needs, Rule
from hiera_ls.source.spans import Details, Problem, Severity, Span
from hiera_ls.source.text_edits import Fix, edit
from hiera_ls.source.yaml_edits import word_in_span


def _qualify(problem: Problem, src: FixSource) -> list[Fix]:
    """The key with the module's name in front."""
    module = problem.details.module
    span, word, quote = word_in_span(problem, src)
    if module is None or not word or word.startswith(f"{module}::"):
        return []
    new = f"{quote}{module}::{word}{quote}"
    return [Fix(f"Qualify the key: {module}::{word}", edit(span, new), preferred=True)]


UNQUALIFIED_KEY = Rule(
    "module-data-unqualified-key",
    Severity.WARNING,
    "A module data key not prefixed with the module's name: Puppet ignores it, with a warning",
    fix=_qualify,
)
NOT_READ = Rule(
    "module-data-not-read",
    Severity.WARNING,
    "A data file of a module that has no hiera.yaml: Puppet never reads it, so none of its "
    "keys is ever used",
    needs=Needs.INDEX,
)
RULES = (UNQUALIFIED_KEY, NOT_READ)


def check_module_keys(
    path: str, data_file: DataFile, module_name: str, function_name: str = "yaml_data"
) -> list[Problem]:
    prefix = f"{module_name}::"
    out: list[Problem] = []
    for key in data_file.data:
        if not isinstance(key, str) or key == LOOKUP_OPTIONS or key.startswith(prefix):
            continue
        spans = data_file.nodes.get((key,))
        if spans is None:
            continue
        out.append(
            UNQUALIFIED_KEY.at(
                f"Puppet ignores '{key}': module data keys must start with '{prefix}'. Puppet "
                f"warns: Module '{module_name}': Value returned from data_hash function "
                f"'{function_name}', when using location '{path}', must use keys qualified with "
                f"the name of the module; got {key}",
                path,
                spans.key or spans.value,
                Details(key=key, module=module_name),
            )
        )
    return out


def check_unread_module_data(index: CrossFileIndex) -> list[Problem]:
    """Each data file in the ``data`` directory of a module without hiera.yaml that no other
    layer's level reads (a ``hieradata`` module the environment's hiera.yaml points into is
    read as environment data)."""
    out: list[Problem] = []
    for path, entry in sorted(index.files.items()):
        layer = index.role(path).layer
        datadir = layer.unread_datadir if layer is not None else None
        if layer is None or datadir is None or not path.startswith(datadir + os.sep):
            continue
        module = layer.module_name
        hiera = os.path.join(layer.root, "hiera.yaml")
        out.append(
            NOT_READ.at(
                f"Module '{module}' has no hiera.yaml, so Puppet never reads this file: none of "
                f"its keys is ever looked up (puppet lookup --explain: Module data provider for "
                f'module "{module}" not found). Add {hiera} (version 5, with a level reading '
                "this file), or move the keys to the environment's data",
                path,
                Span.of(0, 0, 0, entry.first_line),
                Details(module=module, file=hiera),
            )
        )
    return out
