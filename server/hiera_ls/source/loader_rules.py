"""The rules of the loaders: YAML as Puppet's Psych loads it (``yaml_loader.py``), data files as
``yaml_data``/``json_data``/``hocon_data`` hand them to a lookup (``data_file.py``,
``json_loader.py``, ``hocon_data.py``), and files as hiera-ls reads them (``files.py``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from hiera_ls.source.rules import FixBuilder, Payload, Rule, table
from hiera_ls.source.spans import Problem, Severity

if TYPE_CHECKING:
    from hiera_ls.source.fix_source import FixSource
    from hiera_ls.source.text_edits import Fix

E, W, INFO = Severity.ERROR, Severity.WARNING, Severity.INFORMATION
VALUES = Payload.VALUES


def _fix(name: str, **options: object) -> FixBuilder:
    """``loader_fixes.<name>`` (a factory, called with ``options``, when they are given),
    imported when a fix is first asked for: every lookup reads these records and none builds
    a fix, and the fixes load the edit helpers and YAML's emitter."""

    def build(problem: Problem, src: FixSource) -> list[Fix]:
        from hiera_ls.source import loader_fixes

        builder = getattr(loader_fixes, name)
        return list(builder(**options)(problem, src) if options else builder(problem, src))

    return build


YAML_SYNTAX = Rule(
    "yaml-syntax",
    E,
    "Psych cannot parse the file; Puppet refuses every lookup that reads it",
    payload=VALUES,
    cause=True,
)
YAML_DATE_REJECTED = Rule(
    "yaml-date-rejected",
    E,
    "An unquoted date or timestamp: Psych refuses to build a Date/Time, so the whole file fails",
    payload=VALUES,
    fix=_fix("quote", safe=True, what="the String Puppet can load"),
    fix_safe=True,
    cause=True,
)
YAML_BAD_TAG = Rule(
    "yaml-bad-tag",
    E,
    "A tag asks for a Ruby class Puppet's safe loader does not permit, so the whole file fails",
    payload=VALUES,
    cause=True,
)
YAML_BAD_NUMBER = Rule(
    "yaml-bad-number",
    E,
    "A scalar that Psych starts to read as a number but cannot convert, so the whole file fails",
    payload=VALUES,
    fix=_fix("quote", what="the String"),
    cause=True,
)
YAML_UNKNOWN_ALIAS = Rule(
    "yaml-unknown-alias",
    E,
    "An alias names no anchor defined before it, so the whole file fails",
    cause=True,
)
YAML_RECURSIVE_ALIAS = Rule(
    "yaml-recursive-alias", E, "An alias refers to the collection that contains it", cause=True
)
YAML_ALIAS_EXPANSION = Rule(
    "yaml-alias-expansion",
    E,
    "A value's YAML aliases expand to more nodes than a lookup may walk (an alias bomb)",
    cause=True,
)
YAML_TOO_DEEP = Rule(
    "yaml-too-deep",
    E,
    "Collections nested deeper than Ruby's stack allows: Puppet refuses the whole file",
    cause=True,
)
YAML_DUPLICATE_KEY = Rule(
    "yaml-duplicate-key",
    W,
    "A key appears twice in one mapping; Psych keeps the last value",
    fix=_fix("duplicate_key"),
    fix_safe=True,
)
YAML_MERGE_OVERRIDE = Rule(
    "yaml-merge-override",
    W,
    "A `<<` merge replaces a key written earlier in the same mapping",
    fix=_fix("merge_override"),
)
YAML_SYMBOL_VALUE = Rule(
    "yaml-symbol-value",
    E,
    "A `:name` scalar is a Ruby Symbol; looking up the key that holds it fails",
    payload=VALUES,
    fix=_fix("symbol_value"),
    cause=True,
)
YAML_BYTE_ORDER_MARK = Rule(
    "yaml-byte-order-mark",
    W,
    "A byte order mark starts the file: Psych then reads only its first entry, and Puppet "
    "ignores the rest",
    fix=_fix("drop_byte_order_mark"),
)
YAML_SYMBOL_KEY = Rule(
    "yaml-symbol-key",
    INFO,
    "A `:name` key is a Ruby Symbol; Puppet turns it into a String",
    fix=_fix("symbol_key"),
)


def _yaml11(code: str, summary: str, what: str) -> Rule:
    return Rule(code, INFO, summary, payload=VALUES, fix=_fix("quote", what=what))


YAML11_BOOLEAN = _yaml11(
    "yaml11-boolean",
    "YAML 1.1 reads yes/no/on/off (any case) as Booleans",
    "the String, not a Boolean",
)
YAML11_OCTAL = _yaml11(
    "yaml11-octal",
    "YAML 1.1 reads a leading 0 as an octal Integer",
    "the String, not an octal Integer",
)
YAML11_BINARY = _yaml11(
    "yaml11-binary",
    "YAML 1.1 reads 0b... as a binary Integer",
    "the String, not a binary Integer",
)
YAML11_SEXAGESIMAL = _yaml11(
    "yaml11-sexagesimal",
    "YAML 1.1 (as Psych implements it) reads 12:30 as a base-60 number",
    "the String, not a base-60 number",
)
YAML11_NUMBER_SEPARATOR = _yaml11(
    "yaml11-number-separator",
    "YAML 1.1 reads 1,000 and 1_000 as numbers, dropping the separators",
    "the String, not a number",
)
YAML11_EXPONENT_STRING = Rule(
    "yaml11-exponent-string",
    INFO,
    "Psych reads 1e3 (no dot, or no exponent sign) as a String, not a number",
    payload=VALUES,
    fix=_fix("exponent"),
)

DATA_NOT_A_HASH = Rule(
    "data-not-a-hash",
    E,
    "The file's top level is not a hash; with strict=error the lookup fails",
)
DATA_LARGE_FILE = Rule(
    "data-large-file",
    INFO,
    "A data file too big for hiera-ls' per-string and facts-profile checks, which it skips",
)
DATA_EMPTY_FILE = Rule(
    "data-empty-file",
    W,
    "The file holds no hash (empty, comments only, ~ or false); Puppet warns and reads {}",
)
DATA_BAD_KEY_TYPE = Rule(
    "data-bad-key-type",
    E,
    "A hash key is a Boolean, null or collection; looking up the key that holds it fails",
    fix=_fix("quote", what="a String key"),
    cause=True,
)
DATA_UNREACHABLE_KEY = Rule(
    "data-unreachable-key",
    W,
    "A top-level key that is not a String (true, 6, null): no lookup can find it",
    fix=_fix("quote", what="a String key"),
)
JSON_SYNTAX = Rule(
    "json-syntax",
    E,
    "Ruby's JSON parser cannot parse the file; Puppet refuses every lookup that reads it",
    payload=VALUES,
    cause=True,
)
JSON_DUPLICATE_KEY = Rule(
    "json-duplicate-key",
    W,
    "A key appears twice in one JSON object; the last value wins",
    fix=_fix("json_duplicate_key"),
    fix_safe=True,
)
HOCON_SYNTAX = Rule(
    "hocon-syntax",
    E,
    "The hocon gem cannot parse the file; Puppet refuses every lookup that reads it",
    payload=VALUES,
    cause=True,
)
HOCON_INCLUDE = Rule(
    "hocon-include",
    E,
    "An include Puppet fails on (url(), classpath(), an http URL) or that hiera-ls does not "
    "follow (a file outside the workspace, not a regular file); lookups of the file fail",
    payload=VALUES,
    cause=True,
)

FILE_INVALID_UTF8 = Rule(
    "file-invalid-utf8",
    E,
    "The file holds bytes that are not UTF-8; Psych refuses the whole YAML file",
    cause=True,
)
FILE_NOT_REGULAR = Rule(
    "file-not-regular",
    E,
    "A device, FIFO or socket (often through a symlink): hiera-ls never reads it, and every "
    "lookup that would read it fails",
    cause=True,
)
FILE_TOO_LARGE = Rule(
    "file-too-large",
    E,
    "The file is larger than the 256 MiB hiera-ls reads; every lookup reading it fails",
    cause=True,
)
FILE_UNREADABLE = Rule(
    "file-unreadable",
    W,
    "The file cannot be read (a symlink loop, a dangling symlink, a directory, no permission); "
    "the message is Ruby's",
    cause=True,
)
WALK_LIMIT = Rule(
    "walk-limit",
    E,
    "hiera-ls stopped listing the workspace's files at a limit: files beyond it were not "
    "checked (raise it with check --max-files or the hiera.maxFiles setting)",
)


def walk_cut(root: str, why: str, limit: int, raise_with: str) -> str:
    """What a listing cut short says: the files past it were not checked, which neither CI
    nor the editor may let pass for "no findings" (an error in node file 20,003 of 50,000
    went unseen)."""
    return (
        f"hiera-ls stopped listing files under {root}: {why}; the files beyond were not "
        f"checked. Raise the limit (now {limit:,} files) with {raise_with}"
    )


RULES = (
    YAML_SYNTAX,
    YAML_DATE_REJECTED,
    YAML_BAD_TAG,
    YAML_BAD_NUMBER,
    YAML_UNKNOWN_ALIAS,
    YAML_RECURSIVE_ALIAS,
    YAML_ALIAS_EXPANSION,
    YAML_TOO_DEEP,
    YAML_DUPLICATE_KEY,
    YAML_MERGE_OVERRIDE,
    YAML_SYMBOL_VALUE,
    YAML_BYTE_ORDER_MARK,
    YAML_SYMBOL_KEY,
    YAML11_BOOLEAN,
    YAML11_OCTAL,
    YAML11_BINARY,
    YAML11_SEXAGESIMAL,
    YAML11_NUMBER_SEPARATOR,
    YAML11_EXPONENT_STRING,
    DATA_NOT_A_HASH,
    DATA_LARGE_FILE,
    DATA_EMPTY_FILE,
    DATA_BAD_KEY_TYPE,
    DATA_UNREACHABLE_KEY,
    JSON_SYNTAX,
    JSON_DUPLICATE_KEY,
    HOCON_SYNTAX,
    HOCON_INCLUDE,
    FILE_INVALID_UTF8,
    FILE_NOT_REGULAR,
    FILE_TOO_LARGE,
    FILE_UNREADABLE,
    WALK_LIMIT,
)
BY_CODE = table(RULES)  # the loaders name some codes as data (a Refusal's, a ReadProblem's)
