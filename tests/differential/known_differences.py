"""The differences between the reference Puppets that hiera-ls does not model.

hiera-ls follows one Puppet per target (project/targets.py), and the differential tests run
every target's settings on both reference Puppets. Where a Puppet answers otherwise than
its own release line's target would, and the target does not say so, the difference is
listed here and in docs/differences.md (the anchor), with the case that shows it. A lookup
that differs in a listed way is counted as documented, not failed; the counts are printed
with the run's summary, so a listed difference that no longer occurs is seen.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from hiera_ls.project.targets import Target

DOC = "docs/differences.md"

_LOCATION_ERROR = re.compile(r"^Undefined variable '[^']*' \(file: .*hiera\.yaml, line: \d+\)$")
# Ruby's own words inside Puppet's answers that depend on the Ruby running Puppet (Debian 13's
# Puppet 8.10 runs on Ruby 3.3; Debian 12's 7.23 on Ruby 3.1, whose words hiera-ls writes):
# - NoMethodError's receiver: `42:Integer`, `Scope(Class[main]):Puppet::...` (3.1);
#   `an instance of Integer`, `#<Puppet::Parser::Scope:0x...>`, `true` (3.3)
# - the json gem's parse errors: `859: unexpected token at 'x'` (json 2.6: its parser's source
#   line first); `unexpected token at 'x'` (json 2.7 and later)
# - String#inspect of U+0085 (NEL): the character itself (3.1); `\u0085` (3.3)
# - Psych's undefined alias: `Unknown alias: x` (Psych 4); `An alias referenced an unknown
#   anchor: x` (Psych 5, Ruby 3.2 and later)
# - error_highlight's snippet of the failing line (`\n\n    abs ? result.abs ...\n    ^^^^`):
#   in a NoMethodError's message under Ruby 3.1, only in its detailed message from 3.2 on
_RECEIVER = re.compile(
    r"(?<= for )(an instance of [\w:]+|#<[^>]*>|\S+:[A-Z][\w:]*|(?:nil|true|false)\b)"
)
_HIGHLIGHT = re.compile(r"\n\n[^\n]*\n *\^+$")
_JSON_LINE = re.compile(r"(Unable to parse \([^)]*\): )\d+: ")
_JSON_AT = re.compile(r"(unexpected token at ')\s+")
RUBY_3_3 = frozenset({"puppet8"})  # the engines whose Ruby words differ from Ruby 3.1's


def ruby_words(text: str) -> str:
    """``text`` with the words that depend on the Ruby running Puppet made the same."""
    text = _RECEIVER.sub("<receiver>", _HIGHLIGHT.sub("", text))
    text = _JSON_AT.sub(r"\1", _JSON_LINE.sub(r"\1", text))
    text = text.replace("An alias referenced an unknown anchor: ", "Unknown alias: ")
    return text.replace("\\u0085", "\x85")


def comparable(text: str, engine: str) -> str:
    """A text of Puppet's (or hiera-ls') as the tests compare it with that engine's: Ruby's
    version-dependent words made the same where the engine's Ruby is not 3.1."""
    return ruby_words(text) if engine in RUBY_3_3 else text


def _ruby_words_only(target: Target, puppet: Mapping[str, Any], ours: Mapping[str, Any]) -> bool:
    theirs, mine = puppet.get("error"), ours.get("error")
    if not isinstance(theirs, str) or not isinstance(mine, str) or theirs == mine:
        return False
    return ruby_words(theirs) == ruby_words(mine)


@dataclass(frozen=True, slots=True)
class KnownDifference:
    anchor: str  # the section of docs/differences.md that explains it
    engine: str  # the reference Puppet that answers otherwise: puppet7, puppet8
    # (target, Puppet's answer, hiera-ls' answer) -> whether this difference explains them
    applies: Callable[[Target, Mapping[str, Any], Mapping[str, Any]], bool]


KNOWN: tuple[KnownDifference, ...] = (
    # Puppet 7 run with strict = error (what the puppet8 target's settings ask of it) fails
    # a lookup whose hierarchy names an undefined variable in a version 5 location; Puppet 8
    # (PUP-11751), and hiera-ls, warn and read '' there. Every lookup of such an
    # environment fails in Puppet 7, whatever hiera-ls answers.
    KnownDifference(
        "puppet-7-with-strict-error-fails-on-undefined-variables-in-hierarchy-paths",
        "puppet7",
        lambda target, puppet, ours: (
            target.strict_errors and bool(_LOCATION_ERROR.match(str(puppet.get("error", ""))))
        ),
    ),
    # Ruby's own words (see ruby_words) in an error: the outcome is the same
    KnownDifference("ruby-error-texts", "puppet8", _ruby_words_only),
)


def documented(
    engine: str, target: Target, puppet: Mapping[str, Any], ours: Mapping[str, Any]
) -> KnownDifference | None:
    """The listed difference that explains why Puppet and hiera-ls answer otherwise."""
    for known in KNOWN:
        if known.engine == engine and known.applies(target, puppet, ours):
            return known
    return None
