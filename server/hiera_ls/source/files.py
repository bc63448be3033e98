"""File access for the engine: the disk, with open editor buffers laid over it.

The engine never opens files itself, so the language server can answer from unsaved
buffers and tests can answer from memory.  Globs follow Ruby's ``Pathname.glob``
(braces, ``**/``, no match of dot files by wildcards, sorted, directories included).
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import lru_cache


@dataclass(frozen=True, slots=True)
class Stamp:
    """What identifies one version of a file's content without reading it twice."""

    key: object

    @property
    def buffer_text(self) -> str | None:
        """An editor buffer's stamp is its text: what an edit is compared against."""
        key = self.key
        if isinstance(key, tuple) and key[0] == "buffer" and isinstance(key[1], str):
            return key[1]
        return None


@dataclass(slots=True)
class FileAccess:
    """Reads files; ``overlay`` (path -> text) wins over the disk, as editors expect."""

    overlay: Mapping[str, str] = field(default_factory=dict)

    def read_text(self, path: str) -> str | None:
        if path in self.overlay:
            return self.overlay[path]
        try:
            with open(path, "rb") as fh:
                raw = fh.read()
        except OSError:
            return None
        return raw.decode("utf-8", errors="replace")

    def stamp(self, path: str) -> Stamp | None:
        """Changes whenever the content may have changed; None when the file is absent."""
        if path in self.overlay:
            return Stamp(("buffer", self.overlay[path]))
        try:
            st = os.stat(path)
        except OSError:
            return None
        return Stamp(("disk", st.st_mtime_ns, st.st_size, st.st_ino))

    def is_file(self, path: str) -> bool:
        return path in self.overlay or os.path.isfile(path)

    def exists(self, path: str) -> bool:
        return path in self.overlay or os.path.exists(path)

    def is_dir(self, path: str) -> bool:
        return os.path.isdir(path)

    def glob(self, pattern: str) -> list[str]:
        found = set(ruby_glob(pattern))
        for p in self.overlay:
            if glob_match(pattern, p):
                found.add(p)
        return sorted(found, key=lambda p: p.split("/"))


def expand_braces(pattern: str) -> list[str]:
    """Ruby's ``{a,b}`` alternation (nested allowed), expanded left to right."""
    depth = 0
    start = -1
    for i, ch in enumerate(pattern):
        if ch == "\\":
            continue
        if ch == "{":
            if depth == 0:
                start = i
            depth += 1
        elif ch == "}" and depth > 0:
            depth -= 1
            if depth == 0:
                inner = pattern[start + 1 : i]
                alts: list[str] = []
                d = 0
                cur = ""
                for c in inner:
                    if c == "{":
                        d += 1
                    elif c == "}":
                        d -= 1
                    if c == "," and d == 0:
                        alts.append(cur)
                        cur = ""
                    else:
                        cur += c
                alts.append(cur)
                head, tail = pattern[:start], pattern[i + 1 :]
                out: list[str] = []
                for alt in alts:
                    out.extend(expand_braces(head + alt + tail))
                return out
    return [pattern]


@lru_cache(maxsize=512)
def _component_regex(component: str) -> re.Pattern[str]:
    out = []
    i = 0
    while i < len(component):
        c = component[i]
        if c == "*":
            out.append("[^/]*")
        elif c == "?":
            out.append("[^/]")
        elif c == "[":
            j = component.find("]", i + 1)
            if j < 0:
                out.append(re.escape(c))
            else:
                body = component[i + 1 : j]
                if body.startswith("^") or body.startswith("!"):
                    body = "^" + body[1:]
                out.append("[" + body.replace("\\", "\\\\") + "]")
                i = j
        elif c == "\\" and i + 1 < len(component):
            i += 1
            out.append(re.escape(component[i]))
        else:
            out.append(re.escape(c))
        i += 1
    return re.compile("".join(out) + r"\Z")


def _has_magic(component: str) -> bool:
    return any(ch in component for ch in "*?[")


def _match_component(component: str, name: str) -> bool:
    if name.startswith(".") and not component.startswith("."):
        return False
    return _component_regex(component).match(name) is not None


def ruby_glob(pattern: str) -> list[str]:
    results: list[str] = []
    for pat in expand_braces(pattern):
        absolute = pat.startswith("/")
        parts = [p for p in pat.split("/") if p != ""]
        _walk("/" if absolute else ".", parts, results, absolute)
    return results


def _walk(base: str, parts: list[str], out: list[str], absolute: bool) -> None:
    if not parts:
        if os.path.exists(base):
            out.append(base if absolute else os.path.relpath(base))
        return
    head, rest = parts[0], parts[1:]
    if head == "**":
        # Zero or more directories (Ruby: '**/' does not descend into dot directories).
        _walk(base, rest, out, absolute)
        try:
            entries = sorted(os.listdir(base))
        except OSError:
            return
        for name in entries:
            full = os.path.join(base, name)
            if not name.startswith(".") and os.path.isdir(full) and not os.path.islink(full):
                _walk(full, parts, out, absolute)
        return
    if not _has_magic(head):
        _walk(os.path.join(base, head), rest, out, absolute)
        return
    try:
        entries = sorted(os.listdir(base))
    except OSError:
        return
    for name in entries:
        if _match_component(head, name):
            _walk(os.path.join(base, name), rest, out, absolute)


def glob_match(pattern: str, path: str) -> bool:
    """Whether ``path`` matches the Ruby glob ``pattern`` (for buffers not on disk)."""
    return any(_match_parts(pat.split("/"), path.split("/")) for pat in expand_braces(pattern))


def _match_parts(pp: list[str], parts: list[str]) -> bool:
    if not pp:
        return not parts
    if pp[0] == "**":
        return any(
            _match_parts(pp[1:], parts[i:])
            for i in range(len(parts) + 1)
            if all(not p.startswith(".") for p in parts[:i])
        )
    if not parts:
        return False
    ok = _match_component(pp[0], parts[0]) if _has_magic(pp[0]) else pp[0] == parts[0]
    return ok and _match_parts(pp[1:], parts[1:])
