"""Errors the engine raises, carrying Puppet's message text.

Each carries its message as parts (``text``: the data values it quotes marked, for reports)
and, when a problem elsewhere made it (a data file Puppet cannot parse, a hiera.yaml it
refuses, a bad lookup_options entry), that problem's place (``cause``): the checks report
such a failure once, at its cause, rather than at every key it breaks.
"""

from __future__ import annotations

from dataclasses import dataclass

from hiera_ls.puppet.message import Text


@dataclass(frozen=True, slots=True)
class Cause:
    """Where the problem that made a lookup fail is: a file (``path``), or the
    ``lookup_options`` entry ``key`` (in whichever data file holds it)."""

    path: str | None = None
    key: str | None = None


@dataclass(frozen=True, slots=True)
class Failure:
    """A failed lookup as the checks read it: Puppet's words as parts, and their cause."""

    text: Text
    cause: Cause | None = None


class _Worded(Exception):
    """An error with Puppet's words: ``str(e)`` is the plain text, ``text`` its parts."""

    def __init__(self, message: str | Text, cause: Cause | None = None) -> None:
        self.text = Text.of(message)
        super().__init__(self.text.plain)
        self.message = self.text.plain
        self.cause = cause

    def __str__(self) -> str:
        return self.message

    @property
    def failure(self) -> Failure:
        return Failure(self.text, self.cause)


class LookupFailure(_Worded):
    """A failed lookup, as Puppet::DataBinding::LookupError: ``str(e)`` is Puppet's text.

    ``issue_code`` mirrors Puppet: errors without one that escape the global layer get
    wrapped as ``Lookup of key 'K' failed: ...``.
    """

    def __init__(
        self, message: str | Text, issue_code: str | None = None, cause: Cause | None = None
    ) -> None:
        super().__init__(message, cause)
        self.issue_code = issue_code


class TokenFailure(LookupFailure):
    """A ``%{...}`` token Puppet cannot read (an unknown method, a misplaced alias, a syntax
    error): the data file's problem, at the key whose value holds it."""


class PuppetError(_Worded):
    """Puppet::Error and other non-lookup errors (e.g. the global-layer wrapping)."""


class RegexpError(PuppetError):
    """A Ruby error (RegexpError, NoMethodError): not a Puppet::Error, so Puppet never
    wraps it or turns it into a lookup error."""

    puppet_error = False


class UndefinedVariable(_Worded):
    """Undefined variable under strict_variables (an ArgumentError in Puppet)."""

    def __init__(self, name: str) -> None:
        super().__init__(f"Undefined variable '{name}'; ")
        self.name = name


class MergeError(_Worded):
    """A failed merge or a bad merge specification; ``str(e)`` is Puppet's message.

    ``puppet_error`` is False for Ruby's own errors (ArgumentError, TypeError,
    RegexpError): Puppet's recursion guard converts only Puppet::Error into a lookup
    error, so only those get the ``Lookup of key ... failed`` wrapper.
    """

    puppet_error = True


class RubyError(MergeError):
    """A Ruby error raised while merging (not a Puppet::Error)."""

    puppet_error = False
