"""Source ranges shared by every layer.

Lines and columns are 0-based and count Unicode code points, as ruamel's marks do;
the language server converts to the client's UTF-16 units at the edge.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum


@dataclass(frozen=True, slots=True, order=True)
class Position:
    line: int
    column: int

    def human(self) -> str:
        """1-based ``line:column`` as people and Puppet messages count."""
        return f"{self.line + 1}:{self.column + 1}"


@dataclass(frozen=True, slots=True)
class Span:
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
class Problem:
    """Something wrong (or surprising) in a file, found without running a lookup.

    ``code`` is a stable diagnostic code (see docs/diagnostics.md); ``message`` says what
    Puppet will do, in Puppet's own words where Puppet has any.
    """

    code: str
    message: str
    severity: Severity
    where: FileSpan
