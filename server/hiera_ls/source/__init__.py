"""Text of files turned into values exactly as Puppet loads them, each with its source range.

Before any module here imports PyYAML: PyYAML's pure-Python reader compiles, when the
package loads, its class of printable characters, whose ranges (every code point up to
U+FFFD) ``re`` walks one by one in Python: 5-10 ms, the dearest import of a cold ``hiera-ls
lookup``, though its C parser never runs that reader. ``re``'s cache is given the pattern
beforehand, compiled from the same set written as its complement (the non-printable
characters: a few thousand, half a millisecond), so the reader's ``check_printable`` (which
``yaml_comments`` runs) finds the same characters (``tests/source/test_pyyaml_reader.py``
compares the two over every code point). Where ``re`` keeps no such cache, PyYAML compiles
its own, as before.
"""

import re

_PYYAML_PRINTABLE_COMPLEMENT = (
    "[^\x09\x0a\x0d\x20-\x7e\x85\xa0-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]"
)
_NON_PRINTABLE = "[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x84\x86-\x9f\ud800-\udfff\ufffe\uffff]"


def _seed_pyyaml_reader_pattern() -> None:
    cache = getattr(re, "_cache", None)
    key = (str, _PYYAML_PRINTABLE_COMPLEMENT, 0)
    if isinstance(cache, dict) and key not in cache:
        cache[key] = re.compile(_NON_PRINTABLE)


_seed_pyyaml_reader_pattern()
