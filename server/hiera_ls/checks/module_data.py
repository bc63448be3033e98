"""Keys of a module's data files that Puppet drops because they do not belong to the module.

A module data provider keeps only ``lookup_options`` and keys that start with
``<module>::``; every other key is removed with a warning each time the file is read
(module_data_provider.rb, validate_data_hash; verified on Puppet 7.23 and 8.10). The
message quotes Puppet 8's warning, which names the key; Puppet 7's ends before "; got".
"""

from __future__ import annotations

from hiera_ls.source.data_file import DataFile
from hiera_ls.source.fix_source import FixSource
from hiera_ls.source.keys import LOOKUP_OPTIONS
from hiera_ls.source.rules import Rule
from hiera_ls.source.spans import Details, Problem, Severity
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
RULES = (UNQUALIFIED_KEY,)


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
