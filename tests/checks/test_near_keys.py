""" "Did you mean": the same suggestion as difflib's scan over every defined key, found fast."""

from __future__ import annotations

import difflib
import random

from hiera_ls.checks.near_keys import NearKeys
from hiera_ls.checks.references import check_references
from hiera_ls.project.key_index import Reference
from hiera_ls.source.spans import Span


def _scan(key: str, defined: list[str]) -> str | None:
    """What the check suggested before: difflib over the keys within two characters."""
    candidates = [k for k in defined if abs(len(k) - len(key)) <= 2]
    found = difflib.get_close_matches(key, candidates, n=1, cutoff=0.85)
    return found[0] if found else None


def _typo(rng: random.Random, key: str) -> str:
    chars = list(key)
    for _ in range(rng.randint(1, 3)):
        at = rng.randrange(len(chars))
        what = rng.choice("swap delete insert replace")
        if what == "delete" and len(chars) > 1:
            del chars[at]
        elif what == "insert":
            chars.insert(at, rng.choice("abcdefghijklmnopqrstuvwxyz_:0123456789é"))
        elif what == "swap" and at + 1 < len(chars):
            chars[at], chars[at + 1] = chars[at + 1], chars[at]
        else:
            chars[at] = rng.choice("abcdefghijklmnopqrstuvwxyz_:0123456789")
    return "".join(chars)


def test_the_suggestions_are_difflibs_over_every_defined_key() -> None:
    rng = random.Random(24)
    words = ["profile", "base", "ssh", "port", "ntp", "servers", "apache", "vhosts", "db", "x"]
    defined = sorted(
        {
            "::".join(rng.choice(words) + str(rng.randint(0, 30)) for _ in range(rng.randint(1, 3)))
            for _ in range(1_500)
        }
        | {"a", "ab", "", "profile::ssh::port", "profile::ssh::ports", "profile::ssh::prot"}
    )
    asked = [_typo(rng, rng.choice(defined) or "k") for _ in range(600)]
    asked += ["profile::ssh::prt", "profile::sh::port", "b", "", "zzzzzzzzzzzzzz", "Profile::SSH"]
    near = NearKeys(frozenset(defined))
    answers = [near.closest(key) for key in asked]
    assert answers == [_scan(key, defined) for key in asked]
    assert sum(a is not None for a in answers) > 300  # most typos have a suggestion
    assert [near.closest(key) for key in asked] == answers  # remembered, unchanged


def test_each_undefined_reference_says_the_key_it_likely_means() -> None:
    span = Span.of(0, 20, 0, 38)
    ref = Reference(
        "/d/c.yaml", "k", "profile::ssh::prot", "profile::ssh::prot", "lookup", span, False
    )
    defined = frozenset({"profile::ssh::port", "profile::ntp::servers"})
    found = check_references("/d/c.yaml", [ref, ref], defined_keys=defined)
    assert [p.details.suggestions for p in found] == [("profile::ssh::port",)] * 2
    assert "Did you mean 'profile::ssh::port'?" in str(found[0].message)
