"""Values and places as a person reads them in a hover: YAML, short inline values, links.

Values are dumped as YAML 1.1 so strings that Puppet would read as something else
(``'no'``, ``'0755'``, ``'12:30'``) stay visibly quoted, exactly as they would need to be
written in data.
"""

from __future__ import annotations

import io
import os
import re
import textwrap
from urllib.parse import quote

from hiera_ls.display_text import md_code, md_escape, md_fence
from hiera_ls.puppet.ruby_text import inspect
from hiera_ls.puppet.values import ENCRYPTED_RE, Encrypted, RubySymbol, Sensitive
from hiera_ls.source.spans import FileSpan

REDACTED = "Sensitive [value redacted]"
MAX_INLINE = 60
MAX_NODES = 500  # values bigger than this (aliases can multiply a file) are shown cut
MAX_STRING = 1_000  # characters of one string shown; the rest is counted, not shown


class _Budget:
    __slots__ = ("left",)

    def __init__(self, left: int) -> None:
        self.left = left


def shrink(value: object, budget: int = MAX_NODES) -> object:
    """The value with collections cut once ``budget`` nodes were shown ('… N more'), and
    strings past :data:`MAX_STRING` characters cut ('… N more characters')."""
    return _shrink(value, _Budget(budget), set())


def _shrink(value: object, budget: _Budget, active: set[int]) -> object:
    budget.left -= 1
    if isinstance(value, (dict, list)):
        if id(value) in active:
            return "… (recursive)"
        active.add(id(value))
        try:
            if isinstance(value, dict):
                out: dict[object, object] = {}
                for i, (k, v) in enumerate(value.items()):
                    if budget.left <= 0:
                        out["…"] = f"{len(value) - i} more"
                        break
                    out[k] = _shrink(v, budget, active)
                return out
            items: list[object] = []
            for i, v in enumerate(value):
                if budget.left <= 0:
                    items.append(f"… {len(value) - i} more")
                    break
                items.append(_shrink(v, budget, active))
            return items
        finally:
            active.discard(id(value))
    if isinstance(value, str) and len(value) > MAX_STRING and not isinstance(value, Encrypted):
        return cut_text(value)
    return value


def cut_text(text: str) -> str:
    """``text`` cut at :data:`MAX_STRING` characters, saying how many were left out: the one
    style of every cut text in a hover."""
    if len(text) <= MAX_STRING:
        return text
    return f"{text[:MAX_STRING]}… ({len(text) - MAX_STRING:,} more characters)"


def displayable(value: object) -> object:
    """Only what a YAML dumper knows: Sensitive is redacted, symbols become ':name'."""
    if isinstance(value, Sensitive):
        return REDACTED
    if isinstance(value, RubySymbol):
        return f":{value.name}"
    if isinstance(value, Encrypted):  # ciphertext is hundreds of characters nobody reads
        return ENCRYPTED_RE.sub(
            lambda m: m.group(0)[:20] + "…]" if len(m.group(0)) > 22 else m.group(0), str(value)
        )
    if isinstance(value, dict):
        return {_displayable_key(k): displayable(v) for k, v in value.items()}
    if isinstance(value, list):
        return [displayable(v) for v in value]
    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    return str(value)


def _displayable_key(key: object) -> object:
    if key is None or isinstance(key, (str, int, float, bool)):
        return key
    return str(displayable(key))


def to_yaml(value: object) -> str:
    from ruamel.yaml import YAML  # a hover's value: not needed until the first one

    dumper = YAML(typ="safe", pure=True)
    dumper.default_flow_style = False
    dumper.version = (1, 1)
    dumper.width = 4096
    dumper.indent(mapping=2, sequence=4, offset=2)
    # hashes in Puppet's order (the merge's), never sorted; the representer is made (from the
    # settings above) on first access, so this comes last
    dumper.representer.sort_base_mapping_type_on_output = False
    buf = io.StringIO()
    try:
        dumper.dump(displayable(shrink(value)), buf)
    except Exception:  # a value no dumper can show must not break the hover
        return inspect(value)
    lines = buf.getvalue().splitlines()
    while lines and lines[0].startswith("%YAML"):
        lines.pop(0)
    if lines and lines[0] == "---":
        lines.pop(0)
    if lines and lines[0].startswith("--- "):
        lines[0] = lines[0][4:]
    while lines and lines[-1] in ("...", ""):
        lines.pop()
    return textwrap.dedent("\n".join(lines))


def yaml_block(value: object) -> str:
    return md_fence(to_yaml(value), "yaml")


def inline(value: object) -> str:
    """A short one-line rendering, or '' when the value is too long to show inline."""
    text = (
        inspect(displayable(shrink(value, MAX_INLINE)))
        if not isinstance(value, Sensitive)
        else REDACTED
    )
    return text if len(text) <= MAX_INLINE and "\n" not in text else ""


def short(value: object) -> str:
    """One line for any value: :func:`inline`'s text, or the start of a long one, cut ('…')."""
    text = inline(value)
    if text:
        return text
    if isinstance(value, Sensitive):
        return REDACTED
    text = " ".join(inspect(displayable(shrink(value, MAX_INLINE))).split())
    return text if len(text) <= MAX_INLINE else text[: MAX_INLINE - 1] + "…"


def file_uri(path: str) -> str:
    return "file://" + quote(path)


def link(where: FileSpan, base: str | None = None) -> str:
    """``[data/common.yaml:12](file:///…/data/common.yaml#L12)``: the place people click."""
    line = where.span.start.line + 1
    shown = md_escape(relative(where.path, base))
    return f"[{shown}:{line}]({file_uri(where.path)}#L{line})"


def file_link(path: str, base: str | None = None) -> str:
    return f"[{md_escape(relative(path, base))}]({file_uri(path)})"


def relative(path: str, base: str | None) -> str:
    if base:
        try:
            rel = os.path.relpath(path, base)
        except ValueError:
            return path
        if not rel.startswith(".."):
            return rel
    return path


def code(text: str) -> str:
    """Inline code that survives backticks inside (display_text.md_code)."""
    return md_code(text)


_LINK = re.compile(r"\[((?:[^\]\\]|\\.)*)\]\([^)\s]*\)")
_INLINE_CODE = re.compile(r"(?<![\\`])(`+) ?(.*?) ?(?<!`)\1(?!`)")
_ESCAPED = re.compile(r"\\([!-/:-@\[-`{-~])")


def _plain_part(text: str) -> str:
    """Markdown text outside code spans as it reads: links their label, no bold, escapes
    and the character references display_text writes undone."""
    text = _LINK.sub(r"\1", text).replace("**", "")
    return _ESCAPED.sub(r"\1", text.replace("&#32;", " ").replace("&#9;", "\t"))


def plain_text(markdown: str) -> str:
    """Our hover Markdown for a client that shows only plain text (eglot without
    markdown-mode): fences become an indented block, links their label, and emphasis,
    escapes and code marks go."""
    out: list[str] = []
    fence = ""
    for line in markdown.split("\n"):
        run = len(line) - len(line.lstrip("`"))
        if not fence and run >= 3:
            fence = "`" * run
            continue
        if fence:
            if line.strip() and set(line.strip()) == {"`"} and len(line.strip()) >= len(fence):
                fence = ""
            else:
                out.append("    " + line)
            continue
        parts = _INLINE_CODE.split(line)
        # split keeps (fence, body) pairs: text, fence, code, text, fence, code, ...
        shown = [
            _plain_part(part) if i % 3 == 0 else part for i, part in enumerate(parts) if i % 3 != 1
        ]
        out.append("".join(shown))
    return "\n".join(out)
