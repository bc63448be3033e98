"""YAML text -> the value Puppet's ``yaml_data`` sees, with the source range of every node.

Puppet loads YAML with Ruby's Psych (``safe_load``, Symbol permitted, aliases on), which is
libyaml 0.2.5 underneath plus Psych's own YAML 1.1 scalar typing.  We drive libyaml's event
stream from Python and build values ourselves, because the composed-node APIs lose what we
must keep: where each alias sits, anchors redefined later in the file (Psych allows it), and
Psych's order of failure (a syntax error anywhere in the first document beats a refused
value earlier in it). ``yaml_builder.py`` builds the values from the events; what each node
becomes: ``yaml_nodes.py``; the document and Psych's error words: ``yaml_document.py``.

The parser is libyaml, through PyYAML's C extension (``libyaml.py`` says which, and how the
loader keeps to libyaml 0.2.5's answers whichever libyaml the wheel bundles).

Positions are ruamel/libyaml marks: 0-based line and column, counted in code points.
Spans are kept as plain int tuples while loading and become :class:`NodeSpans` only when
asked for, since creating a frozen dataclass per node would cost more than the parse.
"""

from __future__ import annotations

from dataclasses import replace

from hiera_ls.source.libyaml import DEFAULT_BACKEND, Backend
from hiera_ls.source.loader_rules import BY_CODE
from hiera_ls.source.spans import Span
from hiera_ls.source.yaml_builder import LENIENT_CODES, Builder, Departure
from hiera_ls.source.yaml_document import YamlDocument, fatal_doc

__all__ = ["LENIENT_CODES", "load_yaml", "load_yaml_leniently"]


def load_yaml(path: str, text: str, positions: bool = True) -> YamlDocument:
    """The file as Puppet's yaml_data loads it; never raises on any text.  ``positions``
    False: the same value and problems, but no node's range (its ``nodes`` hold the root's
    at most) and no outline, for a reader that never shows where a value is (a quarter of
    the parse is recording them)."""
    return _load(path, text, DEFAULT_BACKEND, positions=positions)


def load_yaml_leniently(path: str, text: str) -> YamlDocument:
    """The file read past the classes Psych refuses (each such scalar kept as its text, and
    reported as a problem of its own): what the rest of a refused file holds, for its other
    diagnostics, and what a custom backend that permits those classes reads."""
    return _load(path, text, DEFAULT_BACKEND, lenient=True)


def _load(
    path: str, text: str, backend: Backend, lenient: bool = False, positions: bool = True
) -> YamlDocument:
    bom = text.startswith(BOM)
    if bom:
        # Psych hands libyaml a string, not bytes: libyaml skips the mark as a column of the
        # first line, so the first entry is indented and a block mapping ends after it (and
        # Psych, reading the first document lazily, never meets what follows)
        text = " " + text[1:]
    doc = _run(path, text, backend, lenient, positions)
    if bom and doc.fatal is None:
        whole = _run(path, text[1:], backend, lenient, positions)
        lost = _entries(whole.value) - _entries(doc.value)
        if whole.fatal is None and lost > 0:
            problem = BY_CODE["yaml-byte-order-mark"].at(
                "The file starts with a byte order mark (U+FEFF): Psych then reads the first "
                f"entry only, and Puppet ignores every entry after it ({lost:,} more "
                f"key{'s' * (lost != 1)}). Save the file as UTF-8 without a byte order mark",
                path,
                Span.of(0, 0, 0, 1),
            )
            doc = replace(doc, problems=(*doc.problems, problem))
    return doc


BOM = "\ufeff"


def _entries(value: object) -> int:
    return len(value) if isinstance(value, (dict, list)) else 0


def _run(path: str, text: str, backend: Backend, lenient: bool, positions: bool) -> YamlDocument:
    try:
        data = text.encode("utf-8")
    except UnicodeEncodeError:  # lone surrogates: give libyaml the bytes they stand for
        try:
            data = text.encode("utf-8", "surrogateescape")
        except UnicodeEncodeError:
            data = text.encode("utf-8", "surrogatepass")
    try:
        try:
            return Builder(path, backend, text, lenient, positions).run(data)
        except Departure:
            assert backend.fallback is not None
            return Builder(path, backend.fallback(), text, lenient, positions).run(data)
    except RecursionError:
        return fatal_doc(
            path, "yaml-syntax", f"({path}): stack level too deep", Span.of(0, 0, 0, 0)
        )
