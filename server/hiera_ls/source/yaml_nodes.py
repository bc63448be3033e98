"""What one node of a YAML document becomes: the open collections while their events arrive,
keys as Psych compares and names them, the tags Puppet's safe loader refuses, and the YAML 1.1
readings of a scalar worth a note."""

from __future__ import annotations

import math
from typing import Any

from hiera_ls.puppet.message import Text, as_path, as_value
from hiera_ls.puppet.value_size import MAX_EXPANDED, expanded_size
from hiera_ls.puppet.values import CompositeKey, RubySymbol
from hiera_ls.source.libyaml import MAX_DEPTH
from hiera_ls.source.loader_rules import YAML_ALIAS_EXPANSION
from hiera_ls.source.node_table import Path
from hiera_ls.source.psych_scalars import Refusal, allocate, disallowed, resolve_class
from hiera_ls.source.spans import Problem, Span


class Frame:
    """An open collection while its events arrive."""

    __slots__ = (
        "anchor",
        "big",
        "block",
        "end_col",
        "end_line",
        "has_key",
        "is_map",
        "key",
        "key_raw",
        "key_tag",
        "merged",
        "obj",
        "own",
        "path",
        "ranges",
        "size",
        "start_col",
        "start_line",
        "tag",
    )

    def __init__(
        self,
        is_map: bool,
        obj: Any,
        path: Path | None,
        own: int,
        tag: str | None,
        anchor: str | None,
        block: bool,
        line: int,
        col: int,
    ) -> None:
        self.is_map = is_map
        self.obj = obj
        self.path = path
        self.own = own  # index of this collection's own entry, -1 when not recorded
        self.tag = tag
        self.anchor = anchor
        self.block = block
        self.start_line = line
        self.start_col = col
        self.end_line = line
        self.end_col = col
        self.has_key = False
        self.key: object = None
        self.key_raw: tuple[int, int, int, int] = (-1, -1, -1, -1)
        self.key_tag: str | None = None
        self.merged: set[object] | None = None  # keys whose value came from a ``<<`` merge
        # each key's entries (first, end): a duplicate forgets its earlier value's ranges
        self.ranges: dict[object, tuple[int, int]] = {}
        self.size = 1  # nodes of this collection once aliases are expanded (capped)
        self.big: tuple[int, str] | None = None  # the largest alias inside: (its size, name)


HARMLESS_SYMBOLS = frozenset(
    (RubySymbol("default"), RubySymbol("undef"))
)  # Default and Undef to Puppet
MERGE_KEY = "<<"
LETTER = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
WORD_START = LETTER - frozenset("ytonfYTONF")  # short words that cannot be yes/true/on/null...
STR_TAG = "tag:yaml.org,2002:str"
# Node positions copied for aliases and merges (so a hover under ``b: *a`` finds a's lines);
# past this the aliased insides keep only the alias's own range (20,000 copies: 0.06 s).
COPY_BUDGET = 20_000
# Python frames the walks of a value MAX_DEPTH levels deep need (interpolation, merges, Ruby
# text, YAML and JSON output recurse up to about eight a level). Since Python 3.11 a call from
# Python to Python takes no C stack, so the entry point raises the limit this far safely.
VALUE_RECURSION_LIMIT = 12 * MAX_DEPTH + 2_000


ONE: tuple[int, tuple[int, str] | None] = (1, None)
SIZE_CAP = 10**18


def count_text(size: int) -> str:
    return f"{size:,}" if size < SIZE_CAP else f"more than {SIZE_CAP:,}"


def check_mapping_tag(tag: str) -> None:
    if tag.startswith("!ruby/struct"):
        name = tag[len("!ruby/struct") :].removeprefix(":")
        resolve_class(name)
        raise disallowed("Struct") if not name else allocate(name)
    if tag.startswith("!ruby/object"):
        name = tag[len("!ruby/object") :].removeprefix(":")
        if name in ("Complex", "Rational"):
            raise disallowed(name)
        if name == "Hash":
            return
        if not name:
            raise disallowed("Object")
        raise allocate(name)
    if tag.startswith(("!str:", "!ruby/string:")):
        resolve_class(tag.split(":", 1)[1])
        return
    if tag.startswith("!ruby/array:"):
        raise allocate(tag.split(":", 1)[1])
    if tag == "!ruby/range":
        raise disallowed("Range")
    if tag.startswith("!ruby/exception"):
        name = tag[len("!ruby/exception") :].removeprefix(":")
        raise disallowed(name or "Exception")
    if tag in ("!set", "tag:yaml.org,2002:set"):
        raise disallowed("Psych::Set")
    if tag.startswith("!ruby/hash-with-ivars:"):
        raise allocate(tag.split(":", 1)[1])
    if tag.startswith(("!map:", "!ruby/hash:")):
        raise allocate(tag.split(":", 1)[1])
    if tag in ("!omap", "tag:yaml.org,2002:omap"):
        raise disallowed("Psych::Omap")
    if tag.startswith("!ruby/marshalable:"):
        raise allocate(tag.split(":", 1)[1])


def check_collection_tag(tag: str, is_map: bool) -> None:
    """Raise the :class:`Refusal` Psych raises for a collection's tag, before its children."""
    if is_map:
        check_mapping_tag(tag)
    else:
        check_sequence_tag(tag)


def check_sequence_tag(tag: str) -> None:
    if tag.startswith(("!seq:", "!ruby/array:")):
        raise allocate(tag.split(":", 1)[1])


_KEY_TEXT_NODES = 100_000  # a collection used as a key bigger than this is told apart by identity


def hashable(value: object) -> object:
    if isinstance(value, (dict, list)):
        size = expanded_size(value)
        if size > _KEY_TEXT_NODES:  # an alias bomb as a key: never spell it out
            return CompositeKey(f"<a collection of {size} nodes #{id(value)}>", value)
        return CompositeKey(key_text(value), value)
    return value


def key_text(value: object) -> str:
    if isinstance(value, dict):
        return "{" + ", ".join(f"{key_text(k)}=>{key_text(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(key_text(v) for v in value) + "]"
    if isinstance(value, CompositeKey):
        return value.text
    return f"{type(value).__name__}:{value!r}"


def show_key(key: object) -> str:
    if isinstance(key, str):
        return f"'{key}'"
    if isinstance(key, RubySymbol):
        return f":{key.name}"
    if isinstance(key, CompositeKey):
        return "(a collection)"
    if key is None:
        return "null"
    if isinstance(key, bool):
        return "true" if key else "false"
    return repr(key)


_BOOLEAN_SPELLINGS = frozenset(("true", "True", "TRUE", "false", "False", "FALSE"))


def surprise(text: str, value: object) -> tuple[str, Text] | None:
    """YAML 1.1 readings a YAML 1.2 reader (and most people) would not expect."""
    written = ("Puppet reads `", as_value(text), "` as the ")
    if isinstance(value, bool):
        if text in _BOOLEAN_SPELLINGS:
            return None
        word = "true" if value else "false"
        return "yaml11-boolean", Text.of(*written, f"Boolean {word}")
    if isinstance(value, int):
        body = text.lstrip("+-")
        number = as_value(str(value))
        if ":" in text:
            return "yaml11-sexagesimal", Text.of(*written, "Integer ", number, " (Psych's base 60)")
        if body.startswith("0b"):
            return "yaml11-binary", Text.of(*written, "binary Integer ", number)
        if len(body) > 1 and body[0] == "0" and body[1] != "x":
            return "yaml11-octal", Text.of(*written, "octal Integer ", number)
        if "," in text or "_" in text:
            return "yaml11-number-separator", Text.of(*written, "Integer ", number)
        return None
    if isinstance(value, float):
        number = as_value(_float_text(value))
        if ":" in text:
            return "yaml11-sexagesimal", Text.of(*written, "Float ", number, " (Psych's base 60)")
        if "," in text or "_" in text:
            return "yaml11-number-separator", Text.of(*written, "Float ", number)
        return None
    if isinstance(value, str) and _looks_exponent(text):
        return (
            "yaml11-exponent-string",
            Text.of(*written, "String '", as_value(text), "', not a number"),
        )
    return None


def _looks_exponent(text: str) -> bool:
    body = text.lstrip("+-")
    mantissa, sep, exponent = body.replace("E", "e").partition("e")
    if not sep or not exponent.lstrip("+-").isdigit():
        return False
    return mantissa.replace(".", "", 1).isdigit()


def _float_text(value: float) -> str:
    if math.isinf(value):
        return "Infinity" if value > 0 else "-Infinity"
    return repr(value)


Oversized = dict[object, tuple[int, tuple[int, int, int, int], tuple[int, str] | None]]


def too_large_values(
    path: str,
    oversized: Oversized,
    anchor_lines: dict[str, int],
    value: object,
    problems: list[Problem],
) -> dict[object, Text]:
    """The top-level keys whose values expand past MAX_EXPANDED, each with why no lookup may
    walk them; a problem for each goes to ``problems``. ``oversized``: each such key's size,
    its marks and the largest alias inside it (its size and name)."""
    out: dict[object, Text] = {}
    for key, (size, key_marks, big) in oversized.items():
        if not isinstance(value, dict) or key not in value:
            continue
        alias = ""
        if big is not None:
            line = anchor_lines.get(big[1], -1) + 1
            alias = (
                f" (the alias *{big[1]} of the value anchored at line {line} stands for "
                f"{count_text(big[0])} of them)"
            )
        holds = f"holds {count_text(size)} values once its YAML aliases are expanded{alias}"
        out[key] = Text.of(
            f"hiera-ls: the value of {show_key(key)} in ",
            as_path(path),
            f" {holds}, more than the {MAX_EXPANDED:,} a lookup may walk",
        )
        problems.append(
            YAML_ALIAS_EXPANSION.at(
                f"{show_key(key)} {holds}: Psych shares aliases, but Puppet copies them all "
                "out when it loads this file and runs out of time and memory. hiera-ls fails "
                f"lookups of values above {MAX_EXPANDED:,} nodes",
                path,
                Span.of(*key_marks),
            )
        )
    return out


def tagged_collection(frame: Frame) -> object:
    """What a tagged collection becomes once its children are read (a :class:`Refusal`
    raised where Psych raises)."""
    tag = frame.tag
    obj = frame.obj
    if frame.is_map:
        if tag == STR_TAG or (tag is not None and tag.startswith(("!str", "!ruby/string"))):
            return obj.get("str")
        if tag is not None and tag.startswith("!ruby/hash-with-ivars"):
            elements = obj.get("elements")
            return elements if isinstance(elements, dict) else {}
        return obj
    if tag in ("!omap", "tag:yaml.org,2002:omap"):
        ordered: dict[object, object] = {}
        for item in obj:
            if not isinstance(item, dict) or not item:
                raise Refusal("undefined method `children' for a Psych node", "yaml-bad-tag")
            keys = list(item)
            ordered[keys[0]] = item[keys[-1]]
        return ordered
    return obj
