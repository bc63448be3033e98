"""Hover: what Puppet does with the thing under the cursor, for the active facts profile.

- on a data key: the value the node gets (merged when lookup_options say so), the merge
  strategy and where it was set, and every level that holds the key, marking what won and
  what was overridden; without a profile, every definition in search order;
- on an interpolation token: what it expands to (a fact's value, a looked-up key);
- on a lookup_options key: the data keys it applies to;
- on a hiera.yaml location: the files it reads for the node, or may read for any node.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

from hiera_ls.display_text import md_escape
from hiera_ls.engine.merge import FIRST, MergeStrategy
from hiera_ls.features.eyaml import hover_lines as eyaml_hover_lines
from hiera_ls.features.provenance import (
    Contribution,
    Resolution,
    definitions,
    failed_at,
    keys_matching,
    node_span,
    option_entries,
    resolve,
    resolved_locations,
    shown_path,
)
from hiera_ls.features.puppet_code import (
    asked_by,
    lookup_hover_lines,
    merge_value,
    parameter_hover_lines,
    previewed_merges,
    ready_code_index,
)
from hiera_ls.features.render import (
    code,
    cut_text,
    file_link,
    inline,
    link,
    relative,
    yaml_block,
)
from hiera_ls.features.sessions import scope_for
from hiera_ls.features.spread import kept_texts, spread, spread_lines
from hiera_ls.features.targets import (
    MISSING,
    DataKey,
    KeyCall,
    LocationAt,
    OptionsKey,
    TokenAt,
    target_at,
    value_at,
)
from hiera_ls.features.yaml_aliases import alias_hover
from hiera_ls.project.asked_merges import AskedMerge
from hiera_ls.project.key_index import root_of
from hiera_ls.project.level_files import LevelRef
from hiera_ls.project.scope import NodeScope
from hiera_ls.project.workspace import EnvironmentView, Snapshot
from hiera_ls.puppet.errors import LookupFailure, UndefinedVariable
from hiera_ls.puppet.ruby_text import to_s
from hiera_ls.puppet.value_size import ValueTooLarge
from hiera_ls.source.interpolation import Token, TokenKind
from hiera_ls.source.keys import LookupKey, NotFound, dig, split_key
from hiera_ls.source.spans import FileSpan, Position, Span

MAX_LISTED = 30
BACKENDS_HINT = (
    "Name a reader for a function in the setting `hiera.backends` or in `.hiera-ls.yaml`'s "
    "`backends:`."
)
# while the server's first read of the Puppet code is under way (a big repository takes
# seconds): said instead of the class parameter, so its absence does not read as "none"
READING_CODE = "_Still reading the Puppet code: what it does with this key shows shortly._"


@dataclass(frozen=True, slots=True)
class HoverResult:
    """A hover's Markdown and the range it is about."""

    markdown: str
    span: Span


def hover(snapshot: Snapshot, path: str, pos: Position) -> HoverResult | None:
    aliased = alias_hover(snapshot, path, pos)
    if aliased is not None:
        return HoverResult(*aliased)
    target = target_at(snapshot, path, pos)
    if target is None:
        return None
    view = snapshot.environment_for(path)
    if view is None:
        return None
    text: str | None
    if isinstance(target, DataKey):
        text = key_hover(snapshot, view, target.key_text, target.node_path, here=path)
    elif isinstance(target, KeyCall):
        root = root_of(target.key)
        text = key_hover(snapshot, view, target.key, (root,), here=None) if root else None
    elif isinstance(target, OptionsKey):
        text = options_hover(snapshot, view, target.pattern)
    elif isinstance(target, TokenAt):
        text = token_hover(snapshot, view, target.token, target.level)
    else:
        text = location_hover(snapshot, view, target)
    return HoverResult(text, target.span) if text else None


# ------------------------------------------------------------------ data keys


def _layer_name(title: str) -> str:
    """The layer's title (a module's name is the repository's) as Markdown text."""
    return md_escape(title.replace(" Data Provider", ""))


def _level_label(level: LevelRef) -> str:
    default = " (default_hierarchy)" if level.default_hierarchy else ""
    return f"{_layer_name(level.layer.title)} / {md_escape(level.entry.name)}{default}"


def _strategy_text(strategy: MergeStrategy | None) -> str:
    if strategy is None or strategy.name == "first":
        return "`first` (the first value found wins)"
    options = ", ".join(
        f"{md_escape(str(k))}: {md_escape(inline(v) or '…')}" for k, v in strategy.options.items()
    )
    return code(strategy.name) + (f" ({options})" if options else "")


def _broken_profile(snapshot: Snapshot) -> list[str]:
    """The active profile could not be read as facts: say so, or its node looks factless."""
    active = snapshot.active
    if active is None or active.profile.error is None:
        return []
    return [
        f"**The facts profile {code(active.name)} holds no usable facts:** "
        f"{md_escape(active.profile.error)}. What follows is for a node without facts.",
        "",
    ]


def key_hover(
    snapshot: Snapshot,
    view: EnvironmentView,
    key: str,
    node_path: tuple[object, ...],
    here: str | None,
) -> str:
    if snapshot.active is None:
        return _unresolved_key_hover(snapshot, view, key, node_path)
    root = str(node_path[0])
    asked = previewed_merges(snapshot, view, root)
    primary = merge_value(asked)
    res = resolve(snapshot, view, key, root, primary.argument() if primary else None)
    node = snapshot.active.name
    lines = [f"**{code(key)}** for {code(node)}", "", *_broken_profile(snapshot)]
    outcome = res.outcome
    if outcome.error is not None:
        # hiera-ls' own limits (docs/security.md) say "hiera-ls" and which limit it was:
        # Puppet itself may answer, block, or take minutes there, not fail.
        who = "hiera-ls stops this lookup at a limit" if "hiera-ls" in outcome.error else None
        lines += [f"**{who or 'Puppet fails this lookup'}:** {md_escape(outcome.error)}", ""]
    elif not outcome.found:
        call = f"lookup('{key}')"
        lines += [
            f"**Not found** for {code(node)}: {code(call)} fails unless it has a default.",
            "",
        ]
    else:
        lines += [yaml_block(outcome.value), ""]
        lines += eyaml_hover_lines(
            snapshot, outcome.value, [(c.entry, c.file) for c in res.contributions]
        )
    if len(snapshot.profiles) > 1 or snapshot.fleet:  # what every other node gets, said once
        merged = primary.value if primary is not None else None
        found = spread(snapshot, view, key, merge=merged)
        shown = spread_lines(found, node, kept_texts(snapshot))
        lines += [*shown, ""] if shown else []
    for note in outcome.notes:
        lines += [f"_{md_escape(note)}_", ""]
    off_path = _off_modulepath_note(view, root)
    if off_path is not None:
        lines += [off_path, ""]
    lines += _code_lines(snapshot, view, root)
    lines.append(_merge_line(res, snapshot, view, primary))
    lines.append("")
    lines += _other_merges(snapshot, view, key, root, asked, primary, res.strategy)
    if outcome.incomplete is not None:  # one line, whatever the number of levels
        lines += [f"_{md_escape(outcome.incomplete.message(BACKENDS_HINT))}_", ""]
    lines += _contribution_lines(snapshot, view, res, node_path, here)
    if here is not None and res.candidates and all(c.file != here for c in res.candidates):
        lines += ["", f"_This file is not read for {code(node)}._"]
    return "\n".join(lines).rstrip() + "\n"


def _off_modulepath_note(view: EnvironmentView, root: str) -> str | None:
    """The one line saying this key's module data is read only by the server's generous rule
    (ModuleDirs.CONVENTIONAL in project/environments.py), not by Puppet."""
    module = LookupKey(root, root, ()).module_name
    if module is None or module not in view.env.off_modulepath:
        return None
    layer = view.env.modules[module]
    if layer.config is None:
        return None  # no module data: nothing Puppet would miss
    where = relative(os.path.dirname(layer.root), view.env.root).rstrip(os.sep) + "/"
    return (
        f"_Module {code(module)} was found in {code(where)}, which is not on this "
        "environment's modulepath: Puppet would not read its data. Add it to "
        "environment.conf's modulepath._"
    )


def _code_lines(snapshot: Snapshot, view: EnvironmentView, root: str) -> list[str]:
    """What the Puppet code does with the key, said once: the class parameter it sets, and
    the code that looks it up explicitly."""
    index = ready_code_index(snapshot, view)
    if index is None:  # the server is reading the code (start-up, a new modulepath)
        return [READING_CODE, ""]
    lines: list[str] = []
    ref = index.parameter_for_key(root)
    if ref is not None:
        lines += [*parameter_hover_lines(ref, view.env.root), ""]
    looked_up = lookup_hover_lines(index, root, view.env.root, ref)
    if looked_up:
        lines += [*looked_up, ""]
    return lines


def _merge_line(
    res: Resolution, snapshot: Snapshot, view: EnvironmentView, asked: AskedMerge | None = None
) -> str:
    return f"**Merge:** {_merge_text(res, view, asked)}"


def _merge_text(res: Resolution, view: EnvironmentView, asked: AskedMerge | None) -> str:
    """The merge the lookup ran, and who chose it: the code that asks for it (``asked``),
    else the lookup_options entry, else Puppet's default."""
    text = _strategy_text(res.strategy)
    if asked is not None and asked.value is not None:
        return f"{text}, asked by {asked_by(asked, view.env.root)}"
    src = res.option_source
    if src is not None:
        where = f" in {link(src.where, view.env.root)}" if src.where is not None else ""
        text += f", set by lookup_options {code(src.pattern)}{where}"
    elif res.strategy is not None and res.strategy.name != "first":
        text += ", as requested"
    if asked is not None:  # the readers that pass no merge
        text += f"; so read by {asked_by(asked, view.env.root)}"
    return text


def _other_merges(
    snapshot: Snapshot,
    view: EnvironmentView,
    key: str,
    root: str,
    asked: tuple[AskedMerge, ...],
    shown: AskedMerge | None,
    strategy: MergeStrategy | None,
) -> list[str]:
    """Where code reads the key with another merge than the one shown (``strategy``): what
    that merge gives this node, and who asks for it (calls that disagree are each shown); a
    reader whose merge comes to the same (``hiera()`` asking for ``first`` of a key without
    lookup_options) is named in one line."""
    out: list[str] = []
    for other in asked:
        if other is shown:
            continue
        if not other.known:
            out += [
                f"_Also read by {asked_by(other, view.env.root)} with a merge the code "
                "computes at run time: not previewed._",
                "",
            ]
            continue
        res = resolve(snapshot, view, key, root, other.argument())
        if (res.strategy or FIRST) == (strategy or FIRST):
            out += [f"_Also read with this merge by {asked_by(other, view.env.root)}._", ""]
            continue
        outcome = res.outcome
        if outcome.error is not None:
            value = f"Puppet fails: {md_escape(outcome.error)}"
        elif not outcome.found:
            value = "not found"
        else:
            value = yaml_block(outcome.value)
        out += [
            f"**Also read with another merge:** {_merge_text(res, view, other)}",
            "",
            value,
            "",
        ]
    return out


def _key_where(
    snapshot: Snapshot, c: Contribution, node_path: tuple[object, ...]
) -> FileSpan | None:
    span = node_span(snapshot, c.file, node_path) or node_span(snapshot, c.file, node_path[:1])
    if span is not None:
        return FileSpan(c.file, span)
    return c.where


def _contribution_lines(
    snapshot: Snapshot,
    view: EnvironmentView,
    res: Resolution,
    node_path: tuple[object, ...],
    here: str | None,
) -> list[str]:
    if not res.candidates:
        failed = failed_at(res)
        if failed is None:
            return ["No level holds this key for this node."]
        where = _key_where(snapshot, failed, node_path)
        place = (
            link(where, view.env.root)
            if where is not None
            else code(shown_path(failed.file, snapshot, view))
        )
        this = " (this file)" if here is not None and failed.file == here else ""
        return [
            f"The lookup stops at {_layer_name(failed.layer)} / {md_escape(failed.entry)} — "
            f"{place}{this}: "
            "the key is there, and interpolating its value fails as above."
        ]
    used = {(c.file, c.entry, c.layer) for c in res.contributions}
    first = res.strategy is None or res.strategy.name == "first"
    out = ["**Found at** (highest priority first):", ""]
    higher_keys: set[object] = set()
    winner_seen = False
    for i, c in enumerate(res.candidates, start=1):
        where = _key_where(snapshot, c, node_path)
        place = (
            link(where, view.env.root)
            if where is not None
            else code(shown_path(c.file, snapshot, view))
        )
        label = f"{_layer_name(c.layer)} / {md_escape(c.entry)}"
        mark = ""
        if first:
            if (c.file, c.entry, c.layer) in used and not winner_seen:
                mark = " — **wins**"
                winner_seen = True
            else:
                shown = inline(c.value)
                mark = " — overridden" + (f": {code(shown)}" if shown else "")
        elif res.strategy is not None and res.strategy.name == "hash" and isinstance(c.value, dict):
            hidden = [k for k in c.value if k in higher_keys]
            higher_keys.update(c.value)
            if hidden:
                mark = " — overridden keys: " + ", ".join(code(to_s(k)) for k in hidden)
            else:
                mark = " — merged"
        else:
            mark = " — merged"
        this = " (this file)" if here is not None and c.file == here else ""
        out.append(f"{i}. {label} — {place}{this}{mark}")
    return out


def _unresolved_key_hover(
    snapshot: Snapshot, view: EnvironmentView, key: str, node_path: tuple[object, ...]
) -> str:
    root = str(node_path[0])
    lines = [
        f"**{code(key)}**",
        "",
        "_No facts profile selected: every definition, in the order Puppet searches them._",
        "",
    ]
    off_path = _off_modulepath_note(view, root)
    if off_path is not None:
        lines += [off_path, ""]
    lines += _code_lines(snapshot, view, root)
    for entry in option_entries(snapshot, view, root):
        lines.append(
            f"**lookup_options** {code(entry.pattern)}: {code(inline(entry.value) or '…')} in "
            f"{link(entry.where, view.env.root)}"
        )
    defs = definitions(snapshot, view, node_path)
    if not defs:
        lines += ["", "No data file defines this key."]
        return "\n".join(lines) + "\n"
    lines.append("")
    number = 0
    current: LevelRef | None = None
    for d in defs:
        if d.level is not current:
            current = d.level
            number += 1
            lines.append(f"{number}. {_level_label(d.level)} {code(d.level.template)}")
        df = snapshot.data_file(d.where.path)
        value = value_at(df.data if df is not None else {}, node_path)
        shown = inline(value) if value is not MISSING else ""
        lines.append(
            f"    - {link(d.where, view.env.root)}" + (f": {code(shown)}" if shown else "")
        )
    return "\n".join(lines) + "\n"


# ------------------------------------------------------------------ lookup_options


def options_hover(snapshot: Snapshot, view: EnvironmentView, pattern: str) -> str:
    matched = keys_matching(snapshot, view, pattern)
    kind = (
        "Ruby regular expression, searched in each root key"
        if pattern.startswith("^")
        else "literal key"
    )
    lines = [f"**lookup_options** {code(pattern)} ({kind})", ""]
    if not matched:
        lines.append("Applies to no key defined in this environment's data.")
        return "\n".join(lines) + "\n"
    lines.append(f"Applies to {len(matched)} key{'s' if len(matched) != 1 else ''}:")
    lines.append("")
    for key in sorted(matched)[:MAX_LISTED]:
        lines.append(f"- {code(key)}")
    if len(matched) > MAX_LISTED:
        lines.append(f"- … and {len(matched) - MAX_LISTED} more")
    return "\n".join(lines) + "\n"


# ------------------------------------------------------------------ interpolation tokens


@dataclass(frozen=True, slots=True)
class VariableValue:
    """A scope variable's value for the active profile, or why there is none."""

    defined: bool
    value: object = None
    error: str | None = None


def variable_value(scope: NodeScope, expression: str) -> VariableValue:
    """A scope variable as interpolation reads it (engine/interpolation.py)."""
    segments = split_key(expression)
    if segments is None:
        return VariableValue(False, error=f"Syntax error in string: %{{{expression}}}")
    root = str(segments[0])
    if not scope.is_defined(root):
        return VariableValue(False)
    try:
        value = scope.value(root)
    except UndefinedVariable:
        return VariableValue(False)
    rest = tuple(segments[1:])
    if value is not None and rest:
        try:
            value = dig(expression, value, rest)
        except NotFound:
            value = None
        except LookupFailure as e:
            return VariableValue(True, error=str(e))
    return VariableValue(True, value)


def fact_path(snapshot: Snapshot, expression: str) -> tuple[object, ...] | None:
    """The path of a fact inside the active profile's facts, for ``facts.x.y`` or ``::x.y``."""
    if snapshot.active is None:
        return None
    segments = split_key(expression)
    if not segments:
        return None
    facts = snapshot.active.profile.facts
    first = str(segments[0])
    if first.startswith("::"):
        first = first[2:]
    if first == "facts" and len(segments) > 1:
        path = tuple(segments[1:])
    elif first in facts and first not in ("trusted", "facts"):
        path = (first, *segments[1:])
    else:
        return None
    return path


def fact_location(snapshot: Snapshot, expression: str) -> FileSpan | None:
    path = fact_path(snapshot, expression)
    if path is None or snapshot.active is None:
        return None
    profile = snapshot.active.profile
    nodes = profile.source.nodes
    for n in range(len(path), 0, -1):
        spans = nodes.get((*profile.key_prefix, *path[:n]))
        if spans is not None:
            return FileSpan(profile.path, spans.key or spans.value)
    return None


def token_hover(
    snapshot: Snapshot, view: EnvironmentView, token: Token, level: LevelRef | None
) -> str:
    head = f"{code(token.text)}"
    if token.kind is TokenKind.EMPTY:
        return (
            f"{head} expands to an empty string (the escape idiom `%%{{}}{{x}}` gives a literal "
            "`%{x}`).\n"
        )
    if token.kind is TokenKind.METHOD:
        method = token.method or ""
        if method == "literal":
            return f"{head} expands to the text {code(token.argument or '')}.\n"
        if method in ("lookup", "hiera", "alias"):
            return _lookup_token_hover(snapshot, view, token)
        if method != "scope":
            failure = f"Unknown interpolation method '{method}'"
            return f"{head}: Puppet fails with {code(failure)}.\n"
    expression = (token.argument if token.kind is TokenKind.METHOD else token.expression) or ""
    if (
        level is not None
        and level.entry.location.kind == "mapped_paths"
        and len(level.entry.location.values) == 3
    ):
        var_expr, var_name, _template = level.entry.location.values
        segments = split_key(expression) or []
        if segments and str(segments[0]) == var_name:
            return _mapped_hover(snapshot, view, head, var_expr, var_name)
    if snapshot.active is None:
        return (
            f"{head}: the variable {code(expression)}.\n\n_Select a facts profile to see its "
            "value._\n"
        )
    found = variable_value(scope_for(snapshot, view), expression)
    node = snapshot.active.name
    lines = [f"{head} for {code(node)}", "", *_broken_profile(snapshot)]
    if found.error is not None:
        lines.append(f"**Puppet fails:** {md_escape(found.error)}")
    elif not found.defined:
        if level is not None:
            lines.append(
                f"Undefined variable {code(expression)}: Puppet warns and the location gets `''` "
                "here."
            )
        else:
            lines.append(
                f"**Undefined variable** {code(expression)}: {snapshot.target.undefined_variable}."
            )
    else:
        lines.append(yaml_block(found.value))
        if found.value is None:
            lines += ["", "Expands to `''` (nothing there)."]
        elif isinstance(found.value, (dict, list)):
            lines += [
                "",
                f"Expands to Ruby's text for it: {code(_ruby_text(found.value))}; interpolating a "
                "collection is rarely meant.",
            ]
    where = fact_location(snapshot, expression)
    if where is not None:
        lines += ["", f"Fact in {link(where, snapshot.roots[0] if snapshot.roots else None)}"]
    return "\n".join(lines) + "\n"


def _mapped_hover(
    snapshot: Snapshot, view: EnvironmentView, head: str, var_expr: str, var_name: str
) -> str:
    lines = [f"{head}: bound by `mapped_paths` to each element of {code(var_expr)}", ""]
    if snapshot.active is not None:
        found = variable_value(scope_for(snapshot, view), var_expr)
        if found.defined and found.error is None:
            lines += [f"For {code(snapshot.active.name)}:", "", yaml_block(found.value)]
        else:
            lines.append(
                f"{code(var_expr)} is not set for {code(snapshot.active.name)}: this level reads "
                "no file."
            )
    return "\n".join(lines) + "\n"


def _lookup_token_hover(snapshot: Snapshot, view: EnvironmentView, token: Token) -> str:
    key = token.argument or ""
    root = root_of(key)
    head = code(token.text)
    if root is None:
        failure = f"Syntax error in key: '{key}'"
        return f"{head}: Puppet fails with {code(failure)}.\n"
    if snapshot.active is None:
        defs = definitions(snapshot, view, (root,))
        lines = [
            f"{head} looks up {code(key)}",
            "",
            "_Select a facts profile to see its value._",
            "",
        ]
        if not defs:
            lines.append("No data file defines this key: it expands to `''`.")
        for d in defs[:MAX_LISTED]:
            lines.append(f"- {_level_label(d.level)}: {link(d.where, view.env.root)}")
        return "\n".join(lines) + "\n"
    res = resolve(snapshot, view, key, root)
    out = res.outcome
    lines = [f"{head} for {code(snapshot.active.name)}", "", *_broken_profile(snapshot)]
    if out.error is not None:
        lines.append(f"**Puppet fails:** {md_escape(out.error)}")
    elif not out.found:
        lines.append(f"{code(key)} is not found: it expands to `''`.")
    else:
        lines.append(yaml_block(out.value))
        if token.method == "alias":
            lines += ["", "`alias` keeps the value's type."]
        elif isinstance(out.value, (dict, list)):
            lines += [
                "",
                f"Expands to Ruby's text for it: {code(_ruby_text(out.value))}; "
                "use `alias` to keep the type.",
            ]
    if res.contributions:
        lines.append("")
        if res.strategy is not None and res.strategy.name != "first":
            lines += [_merge_line(res, snapshot, view), ""]
        for c in res.contributions[:MAX_LISTED]:
            where = _key_where(snapshot, c, (root,))
            place = link(where, view.env.root) if where else code(c.file)
            lines.append(f"- {_layer_name(c.layer)} / {md_escape(c.entry)}: {place}")
    return "\n".join(lines) + "\n"


def _ruby_text(value: object) -> str:
    """Ruby's text of a collection, cut for a hover; a value too large to write out says so."""
    try:
        text = to_s(value)
    except ValueTooLarge as e:
        return str(e)
    return cut_text(text)


# ------------------------------------------------------------------ hiera.yaml locations


def location_hover(snapshot: Snapshot, view: EnvironmentView, target: LocationAt) -> str:
    level = target.level
    lines = [f"**{_level_label(level)}** reads {code(level.template)}", ""]
    if level.entry.function_kind != "data_hash" or level.entry.function_name not in (
        "yaml_data",
        "json_data",
    ):
        lines.append(
            f"_hiera-ls does not run the {level.entry.function_kind} function "
            f"{code(level.entry.function_name)}: lookups skip this level._"
        )
        return "\n".join(lines) + "\n"
    if snapshot.active is not None:
        lines.append(f"For {code(snapshot.active.name)}:")
        lines.append("")
        found = resolved_locations(snapshot, view, level)
        if not found:
            lines.append("- no file (the variable it maps is empty or unset)")
        for path, exists in found:
            shown = (
                file_link(path, view.env.root) if exists else code(shown_path(path, snapshot, view))
            )
            lines.append(f"- {shown}" + ("" if exists else " — does not exist (Puppet skips it)"))
        lines.append("")
    files = snapshot.level_files(level)
    lines.append(f"Files this level can read for some node: {len(files)}")
    lines.append("")
    for path in files[:MAX_LISTED]:
        lines.append(f"- {file_link(path, view.env.root)}")
    if len(files) > MAX_LISTED:
        lines.append(f"- … and {len(files) - MAX_LISTED} more")
    return "\n".join(lines) + "\n"
