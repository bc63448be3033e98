"""How Puppet's string formatter quotes strings (type descriptions, String.new)."""

from __future__ import annotations


def puppet_quote(text: str) -> str:
    """StringConverter#puppet_quote: single quotes unless control characters force double."""
    if any(ord(c) < 0x20 for c in text):
        return _puppet_double_quote(text)
    out = ["'"]
    escaped = False
    for c in text:
        if escaped:
            out.append("\\" + c)
            escaped = False
        elif c == "'":
            out.append("\\'")
        elif c == "\\":
            escaped = True
        else:
            out.append(c)
    if escaped:
        out.append("\\")
    out.append("'")
    return "".join(out)


def _puppet_double_quote(text: str) -> str:
    table = {"\t": "\\t", "\n": "\\n", "\r": "\\r", '"': '\\"', "$": "\\$", "\\": "\\\\"}
    out = ['"']
    for c in text:
        if c in table:
            out.append(table[c])
        elif ord(c) < 0x20:
            out.append(f"\\u{{{ord(c):X}}}")
        else:
            out.append(c)
    out.append('"')
    return "".join(out)
