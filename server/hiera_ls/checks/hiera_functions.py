"""The ``hiera()`` family: deprecated in Puppet code, an old name in data; ``lookup()`` instead.

In Puppet code, ``hiera``, ``hiera_array``, ``hiera_hash`` and ``hiera_include`` are
deprecated: every Puppet the targets name (7, 8, OpenVox 8 and 9) logs "The function
'hiera' is deprecated in favor of using 'lookup'" once for each of them a compilation calls
(unless ``strict`` is off). OpenVox 9 keeps them; it removes only the Puppet 3 parser-function
shims, which already failed (OpenVoxProject/openvox#331, #383). In data, ``%{hiera('k')}`` is
an alias of ``%{lookup('k')}`` (``Interpolation#interpolate_method``), of which Puppet
says nothing.

Each call's hint offers the ``lookup()`` that gives the same value, as Puppet's sources
(``Hiera::PuppetFunction``) make it, checked by
tests/differential/test_hiera_functions_vs_puppet_apply.py:

- the function passes its merge (``first``, ``unique``, ``hash``), so the key's
  lookup_options merge does not apply (their ``convert_to`` does, as in ``lookup()``):
  ``hiera('k')`` is ``lookup('k')`` unless lookup_options give ``k`` a merge, then
  ``lookup('k', {'merge' => 'first'})``;
- the merge and a default go in ``lookup``'s options hash (its positional form takes no
  ``undef`` for the type before a merge); a lambda stays as it is (``lookup`` takes one);
- ``hiera_include('k')`` is ``lookup('k', {'merge' => 'unique'}).include`` (after its
  lambda, if it has one).

There is none where ``lookup()`` cannot say the same: an override (a data source searched
before the hierarchy), the arguments given as one array;
and where the two read other data: an environment without a version 5 hiera.yaml of its
own makes the functions read the global layer only (``set_global_only``), where
``lookup()`` also reads the key's module; a version 3 global hiera.yaml gives
``hiera_hash`` its ``:merge_behavior``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from hiera_ls.project.key_index import root_of
from hiera_ls.project.model import Environment
from hiera_ls.project.targets import Target
from hiera_ls.source.fix_source import FixSource
from hiera_ls.source.manifest_model import HieraCall, LookupFunction
from hiera_ls.source.rules import Rule
from hiera_ls.source.spans import Details, Problem, Severity, Span
from hiera_ls.source.text_edits import Fix, edit


def replace_with_lookup(problem: Problem, src: FixSource) -> list[Fix]:
    """The ``lookup()`` the hint names: a data token's method renamed; a call in code
    replaced by the details' suggestion, while the text there is still a hiera*() call."""
    span = problem.where.span
    written = src.at(span)
    token = _DATA_CALL.match(written)
    if token is not None:
        new = f"%{{{token.group(1)}lookup({written[token.end() :]}"
        return [Fix("Write %{lookup(...)}", edit(span, new), preferred=True)]
    suggestions = problem.details.suggestions
    if not suggestions or _CALLED.search(written) is None:
        return []
    return [Fix(f"Replace with {suggestions[0]}", edit(span, suggestions[0]), preferred=True)]


_DATA_CALL = re.compile(r"%\{(\s*)hiera\(")
PUPPET_CODE = (".pp", ".epp")  # the code files whose hiera*() calls get a hint
_CALLED = re.compile(r"\bhiera(?:_array|_hash|_include)?\b")

HIERA_FUNCTION = Rule(
    "hiera-function",
    Severity.HINT,
    "hiera(), hiera_array(), hiera_hash(), hiera_include() in Puppet code (deprecated: Puppet "
    "warns of each) and %{hiera('k')} in data: lookup() gives the same value",
    fix=replace_with_lookup,
)
RULES = (HIERA_FUNCTION,)

_MERGES = {
    LookupFunction.HIERA: None,
    LookupFunction.HIERA_ARRAY: "unique",
    LookupFunction.HIERA_HASH: "hash",
    LookupFunction.HIERA_INCLUDE: "unique",
}
_NO_OVERRIDE = frozenset({"undef", "[]"})  # what Hiera::PuppetFunction takes for none


def data_token_message(token: str) -> str:
    """The hint for a ``%{hiera('k')}`` token of data, as written."""
    same = _DATA_CALL.sub(r"%{\1lookup(", token, count=1)
    return (
        f"{token} is {same} under an old name: in data, Puppet reads hiera as an alias of "
        "lookup (and does not warn of it); lookup is the name Puppet's documentation uses, as "
        "in code, where hiera() is deprecated"
    )


def code_problems(
    calls: Sequence[HieraCall],
    env: Environment,
    target: Target,
    merged: Callable[[str], bool],
    any_merged: bool,
) -> list[Problem]:
    """The hint for each hiera*() call of one code file. ``merged(key)``: lookup_options give
    ``key`` a merge; ``any_merged``: they give some key one (for a key built at run time)."""
    out: list[Problem] = []
    for call in calls:
        name = call.function.value
        warned = f"{name}() is deprecated ({target.title} logs a deprecation warning for it)"
        replacement, why = _equivalent(call, env, merged, any_merged)
        if replacement is None:
            message = f"{warned}, and lookup() has no exact equivalent here: {why}"
            details = Details(key=call.key)
        else:
            message = f"{warned}: {replacement} gives the same value{why}"
            details = Details(key=call.key, suggestions=(replacement,))
        span = call.span
        if replacement is not None and call.lambda_text and replacement.endswith(".include"):
            span = Span(span.start, call.lambda_end or span.end)  # the lambda is rewritten too
        out.append(HIERA_FUNCTION.at(message, call.path, span, details))
    return out


def _equivalent(
    call: HieraCall, env: Environment, merged: Callable[[str], bool], any_merged: bool
) -> tuple[str | None, str]:
    """The ``lookup()`` that gives the call's value, with a note; or None and why none."""
    name = call.function.value
    args = list(call.args)
    if not args:
        return None, f"{name}() needs a key"
    if len(args) == 1 and args[0].startswith("[") and not call.block:
        return None, (
            "its one argument is an array holding the arguments (key, default, override), "
            "where lookup() reads an array as keys to try in turn: write the arguments out"
        )
    override_at = 1 if call.block else 2
    if len(args) > override_at:
        override = args[override_at]
        if "".join(override.split()) not in _NO_OVERRIDE:
            return None, (
                f"its override ({override}) names a data source searched before the "
                "hierarchy, which lookup() cannot: move that data into a hierarchy level"
            )
        del args[override_at:]
    if call.block and call.function is LookupFunction.HIERA_INCLUDE and not call.lambda_end:
        return None, (
            "its lambda gives the classes when no data has the key: look them up with "
            "lookup() and that lambda, then include the result"
        )
    reads_other = _reads_other_data(call, env)
    if reads_other:
        return None, reads_other
    merge = _MERGES[call.function]
    note = ""
    root = root_of(call.key) if call.key is not None else None  # its lookup_options' key
    if call.function is LookupFunction.HIERA and (merged(root) if root else any_merged):
        merge = "first"
        whose = f"'{root}'" if root else "some keys"
        note = (
            f" (lookup_options give {whose} a merge, which hiera() ignores and lookup() "
            "without a merge argument would use)"
        )
    options = [f"'merge' => '{merge}'"] if merge else []
    if len(args) > 1:
        options.append(f"'default_value' => {args[1]}")
    text = f"lookup({args[0]}, {{{', '.join(options)}}})" if options else f"lookup({args[0]})"
    if call.function is LookupFunction.HIERA_INCLUDE:
        text += f"{call.lambda_text}.include"  # after the lambda, which the hint then covers
    return text, note


def _reads_other_data(call: HieraCall, env: Environment) -> str:
    """Why the call reads other data than ``lookup()`` would ('' when it reads the same)."""
    name = call.function.value
    config = env.global_layer.config
    if call.function is LookupFunction.HIERA_HASH and config is not None and config.version == 3:
        return (
            "the global hiera.yaml is version 3, whose :merge_behavior hiera_hash() follows "
            "and lookup() does not"
        )
    own = env.environment_layer.config
    if own is not None and own.version >= 5:  # Puppet's has_environment_data_provider?
        return ""
    with_data = [m for m, layer in env.modules.items() if layer.config is not None]
    root = root_of(call.key) if call.key is not None else None
    key = root.removeprefix("::") if root else None
    module = key.partition("::")[0] if key and "::" in key else None
    if (module in with_data) if key else bool(with_data):
        which = f"module {module}'s data" if module else "the data of the module a key names"
        return (
            f"this environment has no version 5 hiera.yaml, so {name}() reads only the "
            f"global hiera.yaml, where lookup() also reads {which}"
        )
    return ""
