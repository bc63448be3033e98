"""Source ranges shared by every layer.

Lines and columns are 0-based and count Unicode code points, as ruamel's marks do;
the language server converts to the client's UTF-16 units at the edge.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from enum import Enum

from hiera_ls.puppet.message import Text


@dataclass(frozen=True, slots=True, order=True)
class Position:
    """A place in a text: a 0-based line and a column in code points."""

    line: int
    column: int

    def human(self) -> str:
        """1-based ``line:column`` as people and Puppet messages count."""
        return f"{self.line + 1}:{self.column + 1}"


@dataclass(frozen=True, slots=True)
class Span:
    """A range of a text, start included, end excluded."""

    start: Position
    end: Position

    @staticmethod
    def of(line: int, column: int, end_line: int, end_column: int) -> Span:
        return Span(Position(line, column), Position(end_line, end_column))

    def contains(self, pos: Position) -> bool:
        return self.start <= pos <= self.end


@dataclass(frozen=True, slots=True)
class FileSpan:
    """A range inside a named file: what provenance and messages point at."""

    path: str
    span: Span

    def human(self) -> str:
        return f"{self.path}:{self.span.start.human()}"


class Severity(Enum):
    ERROR = "error"
    WARNING = "warning"
    INFORMATION = "information"
    HINT = "hint"


@dataclass(frozen=True, slots=True)
class Details:
    """What a problem is about, as data: what fixes, reports and the editor read (never the
    message's words). Each field is empty when the rule has nothing of that kind to say."""

    key: str | None = None  # the key (a root key, a lookup_options key, a dotted lookup key)
    file: str | None = None  # another file it names (the file a level reads, a key file)
    level: str | None = None  # a hierarchy level's name
    option: str | None = None  # a lookup_options option, a hiera.yaml or .hiera-ls.yaml field
    type: str | None = None  # a Puppet type
    place: tuple[str | int, ...] = ()  # the value's place in the data: keys and indexes
    module: str | None = None  # the module a key must belong to
    suggestions: tuple[str, ...] = ()  # what to write instead, best first

    def as_data(self) -> dict[str, object]:
        """The fields that are set, as JSON data (the editor keeps them with the diagnostic)."""
        out: dict[str, object] = {}
        for name in _DETAIL_FIELDS:
            value = getattr(self, name)
            if value is not None and value != ():
                out[name] = list(value) if isinstance(value, tuple) else value
        return out

    @staticmethod
    def from_data(data: object) -> Details:
        """Details back from :meth:`as_data` (what a client returns); wrong fields dropped."""
        if not isinstance(data, dict):
            return NO_DETAILS
        fields: dict[str, object] = {}
        for name in _DETAIL_FIELDS:
            value = data.get(name)
            if name == "place" and isinstance(value, list):
                if all(isinstance(v, (str, int)) and not isinstance(v, bool) for v in value):
                    fields[name] = tuple(value)
            elif name == "suggestions" and isinstance(value, list):
                if all(isinstance(v, str) for v in value):
                    fields[name] = tuple(value)
            elif isinstance(value, str):
                fields[name] = value
        return Details(**fields)  # type: ignore[arg-type]


NO_DETAILS = Details()
_DETAIL_FIELDS = tuple(f.name for f in fields(Details))


@dataclass(frozen=True, slots=True)
class Consequence:
    """A lookup a problem elsewhere makes fail: the key, where a file defines it, and the
    facts profiles whose lookup fails."""

    key: str
    where: FileSpan
    profiles: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Consequences:
    """What a problem makes fail elsewhere, reported with it instead of beside it."""

    items: tuple[Consequence, ...]
    profiles: int  # the facts profiles looked up (each item names those it fails for)

    @property
    def files(self) -> int:
        return len({c.where.path for c in self.items})


@dataclass(frozen=True, slots=True)
class Problem:
    """Something wrong (or surprising) in a file.

    ``code`` is a stable diagnostic code (its record: ``source/rules.py``); ``text`` says what
    Puppet will do, in Puppet's own words where Puppet has any, as parts (the data values it
    quotes marked); ``details`` carries what it is about as data.
    """

    code: str
    text: Text
    severity: Severity
    where: FileSpan
    details: Details = NO_DETAILS
    consequences: Consequences | None = None  # the lookups it makes fail (a cause's)
    # The hash, computed on first use: a file's findings are kept from edit to edit and put
    # in sets on each publish (2,371 of them, each a tree of values, hashed anew took most of
    # an edit's time). Never pickled: a string's hash differs from process to process.
    _hash: int | None = field(default=None, init=False, repr=False, compare=False)

    def __hash__(self) -> int:
        found = self._hash
        if found is None:
            found = hash(
                (self.code, self.text, self.severity, self.where, self.details, self.consequences)
            )
            object.__setattr__(self, "_hash", found)
        return found

    def __reduce__(self) -> tuple[type[Problem], tuple[object, ...]]:
        # pickled as its fields, so the hash is computed anew where it is loaded (Python
        # before 3.11.4 replaces a frozen slotted dataclass's own __getstate__/__setstate__)
        return (
            Problem,
            (self.code, self.text, self.severity, self.where, self.details, self.consequences),
        )

    @property
    def message(self) -> str:
        return self.text.plain
