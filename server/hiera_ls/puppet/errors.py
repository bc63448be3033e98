"""Errors the engine raises, carrying Puppet's message text."""

from __future__ import annotations


class LookupFailure(Exception):
    """A failed lookup, as Puppet::DataBinding::LookupError: ``str(e)`` is Puppet's text.

    ``issue_code`` mirrors Puppet: errors without one that escape the global layer get
    wrapped as ``Lookup of key 'K' failed: ...``.
    """

    def __init__(self, message: str, issue_code: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.issue_code = issue_code

    def __str__(self) -> str:
        return self.message


class PuppetError(Exception):
    """Puppet::Error and other non-lookup errors (e.g. the global-layer wrapping)."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message

    def __str__(self) -> str:
        return self.message


class RegexpError(PuppetError):
    """A Ruby error (RegexpError, NoMethodError): not a Puppet::Error, so Puppet never
    wraps it or turns it into a lookup error."""

    puppet_error = False


class UndefinedVariable(Exception):
    """Undefined variable under strict_variables (an ArgumentError in Puppet)."""

    def __init__(self, name: str) -> None:
        super().__init__(f"Undefined variable '{name}'; ")
        self.name = name
        self.message = f"Undefined variable '{name}'; "

    def __str__(self) -> str:
        return self.message


class MergeError(Exception):
    """A failed merge or a bad merge specification; ``str(e)`` is Puppet's message.

    ``puppet_error`` is False for Ruby's own errors (ArgumentError, TypeError,
    RegexpError): Puppet's recursion guard converts only Puppet::Error into a lookup
    error, so only those get the ``Lookup of key ... failed`` wrapper.
    """

    puppet_error = True

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message

    def __str__(self) -> str:
        return self.message


class RubyError(MergeError):
    """A Ruby error raised while merging (not a Puppet::Error)."""

    puppet_error = False
