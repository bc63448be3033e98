"""Puppet's interpolation of ``%{...}`` in data values, hiera.yaml paths and options.

As in ``pops/lookup/interpolation.rb``: a bare expression reads a scope variable (dotted
segments dig into it); ``lookup``/``hiera`` run a full lookup, ``alias`` too but keeps the
value's type and must be the whole string, ``literal`` is its argument, ``scope`` is the
bare form; method syntax is refused where Puppet refuses it (hiera.yaml). Each result is
interpolated again under the recursion guard, so ``a: '%{lookup("a")}'`` is caught.
"""

from __future__ import annotations

from dataclasses import replace

from hiera_ls.engine.invocation import (
    MAX_NESTING,
    MAX_TRACED_LOOKUPS,
    Invocation,
    StackTooDeep,
    TraceTooLarge,
)
from hiera_ls.engine.trace import Event, Kind
from hiera_ls.puppet.errors import LookupFailure, TokenFailure, UndefinedVariable
from hiera_ls.puppet.message import Text, as_value
from hiera_ls.puppet.ruby_text import to_s
from hiera_ls.puppet.value_size import check_text_size
from hiera_ls.puppet.values import Encrypted
from hiera_ls.source.interpolation import TOKEN_RE, TokenKind, token_of
from hiera_ls.source.keys import LookupKey, NotFound, Segment, dig, split_key


def interpolate(
    value: object, inv: Invocation, allow_methods: bool, undefined_as_empty: bool = False
) -> object:
    """``value`` with every string in it interpolated (hash keys too); eyaml strings stay.

    ``undefined_as_empty`` is Puppet 8's rule for locations: an undefined variable warns and
    expands to ''.

    A collection holding no token is returned as it is, not copied (values are never changed
    in place: the merges copy what they change), and a collection met again (a YAML alias)
    is interpolated once: the value of nine levels of nine aliases is walked in as many steps
    as it has written nodes, not the 387 million it holds once expanded.
    """
    if isinstance(value, str):
        if "%{" not in value or isinstance(value, Encrypted):
            return value
        return _interpolate_string(value, inv, allow_methods, undefined_as_empty)
    if not isinstance(value, list | dict):
        return value
    done: dict[int, object] = {}  # id of a collection met -> its interpolated value

    def walk(v: object) -> object:
        if isinstance(v, str):
            if "%{" not in v or isinstance(v, Encrypted):
                return v
            return _interpolate_string(v, inv, allow_methods, undefined_as_empty)
        if not isinstance(v, list | dict):
            return v
        found = done.get(id(v))
        if found is not None:
            return found
        out: object
        if isinstance(v, list):
            items = [walk(e) for e in v]
            out = v if all(a is b for a, b in zip(items, v, strict=True)) else items
        else:
            pairs = [(walk(k), walk(e)) for k, e in v.items()]
            olds = v.items()
            same = all(k2 is k and e2 is e for (k2, e2), (k, e) in zip(pairs, olds, strict=True))
            out = v if same else dict(pairs)
        done[id(v)] = out
        return out

    return walk(value)


def _interpolate_string(
    subject: str, inv: Invocation, allow_methods: bool, undefined_as_empty: bool
) -> object:
    trace = inv.trace
    # A token met again in the same string has the same text: it is resolved (and traced)
    # once. 100,000 ``%{facts.hostname}`` in one value: one variable lookup, not 100,000.
    done: dict[str, str] = {}  # a token's text -> what it expands to
    with trace.branch(Kind.INTERPOLATE, subject):
        parts: list[str] = []
        pos = 0
        for m in TOKEN_RE.finditer(subject):
            parts.append(subject[pos : m.start()])
            pos = m.end()
            known = done.get(m.group(0))
            if known is not None:
                parts.append(known)
                continue
            tok = token_of(m)
            if tok.kind is TokenKind.EMPTY:
                continue
            if tok.kind is TokenKind.METHOD:
                if not allow_methods:
                    raise LookupFailure(
                        "Interpolation using method syntax is not allowed in this context",
                        issue_code="HIERA_INTERPOLATION_METHOD_SYNTAX_NOT_ALLOWED",
                    )
                method, arg = tok.method or "", tok.argument or ""
            else:
                method, arg = "scope", tok.expression
            if method == "alias" and subject != tok.text:
                raise TokenFailure(
                    "'alias' interpolation is only permitted if the expression is equal to the "
                    "entire string",
                    issue_code="HIERA_INTERPOLATION_ALIAS_NOT_ENTIRE_STRING",
                )
            if method in ("lookup", "hiera", "alias"):
                value = _global_lookup(inv, arg)
                if method == "alias":
                    return value
            elif method == "scope":
                try:
                    value = scope_lookup(inv, arg, subject)
                except UndefinedVariable:
                    if not undefined_as_empty:
                        raise
                    trace.text(f"Warning: Undefined variable '{arg}'; expanded to ''")
                    value = None
                # it becomes text: refuse a fact that is an alias bomb before walking it
                check_text_size(value, f"the variable '{arg}' (interpolated in {tok.text})")
            elif method == "literal":
                value = arg
            else:
                raise TokenFailure(
                    f"Unknown interpolation method '{method}'",
                    issue_code="HIERA_INTERPOLATION_UNKNOWN_INTERPOLATION_METHOD",
                )
            # Puppet interpolates the result again, under the recursion guard.
            guard = f"scope:{arg}" if method == "scope" else arg
            value = inv.check(
                guard,
                lambda found=value: interpolate(found, inv, allow_methods, undefined_as_empty),  # type: ignore[misc]
            )
            part = "" if value is None else (value if isinstance(value, str) else to_s(value))
            done[tok.text] = part
            parts.append(part)
        parts.append(subject[pos:])
        result = "".join(parts)
        trace.result(result)
        return result


def _global_lookup(inv: Invocation, key: str) -> object:
    """``%{lookup('k')}``: a full lookup with default '' (a missing key gives '').

    Its answer does not depend on what is being looked up around it (a lookup that
    succeeds once never meets the recursion guard), so an untraced lookup keeps it for the
    compilation: a key that interpolates the next one twice, 25 keys deep, makes 25
    lookups, not 2**25.  Of errors only ``stack level too deep`` is kept (with the depth
    it was met at), so the keys of a long chain fail at once after the first.
    """
    lk = LookupKey.parse(key)
    nested = inv.nested()
    memo = inv.memo
    if memo is None:
        inv.nested_count[0] += 1
        if inv.nested_count[0] > MAX_TRACED_LOOKUPS:
            raise TraceTooLarge
        try:
            return inv.search_and_merge(nested, lk.text)
        except NotFound:
            return ""
    # A kept value remembers how deep its own lookups went, so the nesting limit holds
    # whichever key was looked up first.
    reached = inv.reached
    known = memo.get((lk.text, id(inv.scope)))
    if known is not None:
        value, _scope, height, skipped = known
        if value is not _TOO_DEEP:
            if nested.depth + height > MAX_NESTING:
                raise StackTooDeep
            reached[0] = max(reached[0], nested.depth + height)
            for level, effect in skipped:  # what it skipped, this answer skipped too
                inv.skip(level, effect)
            return "" if value is _MISSING else value
        if nested.depth >= height:
            raise StackTooDeep
    outer = reached[0]
    reached[0] = nested.depth
    own = replace(nested, skipped=[])  # what this key skips, kept with its value
    try:
        try:
            value = inv.search_and_merge(own, lk.text)
        except NotFound:
            value = _MISSING
        except StackTooDeep:
            # too deep from here is too deep from any deeper place
            memo[(lk.text, id(inv.scope))] = (_TOO_DEEP, inv.scope, nested.depth, ())
            raise
        height = reached[0] - nested.depth
        memo[(lk.text, id(inv.scope))] = (value, inv.scope, height, tuple(own.skipped))
    finally:
        reached[0] = max(outer, reached[0])
        for level, effect in own.skipped:
            inv.skip(level, effect)
    return "" if value is _MISSING else value


_MISSING = object()
_TOO_DEEP = object()  # its height is then the shallowest depth known to be too deep


def scope_lookup(inv: Invocation, key: str, subject: str) -> object:
    """A variable of the node scope, dug into by the key's other segments (missing: None).

    ``subject`` is the whole string, for Puppet's ``Syntax error in string`` message.
    """
    segments = split_key(key)
    if segments is None:
        raise TokenFailure(Text.of("Syntax error in string: ", as_value(subject)))
    root = str(segments[0])
    scope = inv.scope
    with inv.trace.branch(Kind.SCOPE, "Global Scope"):
        if scope.is_defined(root):
            value = scope.value(root)
            inv.trace.event(Event.FOUND, root, value)
        else:
            value = scope.value(root)  # raises under strict_variables
            if scope.undefined(root):  # Puppet 7's default: a warning, and ''
                text = f"Undefined variable '{root}'; \n   (file & line not available)"
                inv.warn(text, traced=False)
    rest: tuple[Segment, ...] = tuple(segments[1:])
    if value is not None and rest:
        with inv.trace.branch(Kind.SUB_KEY, ".".join(str(s) for s in rest)):
            try:
                value = dig(key, value, rest)
            except NotFound:
                inv.trace.event(Event.NOT_FOUND, rest[-1])
                value = None
            else:
                inv.trace.event(Event.FOUND, rest[-1], value)
    return value
