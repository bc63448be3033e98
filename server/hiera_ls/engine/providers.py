"""The three data providers (global, environment, module) and the lookup_options they hold.

As in Puppet's ``global_data_provider.rb``, ``environment_data_provider.rb``,
``module_data_provider.rb`` and ``configured_data_provider.rb``: each layer's hiera.yaml
gives hierarchy entries, each entry locations, each location a data file whose value for
the root key is interpolated. The lookup_options retrieval and a module's
``default_hierarchy`` follow ``lookup_adapter.rb``. What Puppet keeps for a whole
compilation (resolved hierarchies, lookup_options per module) lives in :class:`Compilation`.
"""

from __future__ import annotations

from collections.abc import Mapping
from contextlib import suppress
from dataclasses import dataclass, field

from hiera_ls.engine.interpolation import interpolate
from hiera_ls.engine.invocation import VALUE, Invocation, Memo, SkippedLevel, lookup_variants
from hiera_ls.engine.locations import ResolvedEntry, ResolvedLocation, resolve_entries
from hiera_ls.engine.merge import MergeStrategy, merge_pair, parse_merge
from hiera_ls.engine.options import CompiledOptions, compile_options, validate_options
from hiera_ls.engine.trace import NO_VALUE, Event, Kind, TraceNode
from hiera_ls.project.backends import EXPAND_PATH, expand_path_file
from hiera_ls.project.model import Environment, Layer, LayerKind
from hiera_ls.puppet.errors import (
    Cause,
    LookupFailure,
    PuppetError,
    TokenFailure,
    UndefinedVariable,
)
from hiera_ls.puppet.message import Text
from hiera_ls.puppet.values import ENCRYPTED_RE, Encrypted
from hiera_ls.source.data_cache import DataCache
from hiera_ls.source.data_file import DataFile
from hiera_ls.source.files import FileAccess
from hiera_ls.source.keys import LOOKUP_OPTIONS, KeySyntaxError, LookupKey, NotFound
from hiera_ls.source.loader_rules import DATA_EMPTY_FILE
from hiera_ls.source.spans import FileSpan

EYAML = "eyaml_lookup_key"  # reads YAML like yaml_data; its ENC[...] strings stay encrypted
ENCRYPTED_NOTE = (
    "Strings holding ENC[...] come from eyaml files and are shown as written: Puppet decrypts "
    "them with the eyaml keys on the server (hiera-ls decrypts only when asked)"
)
NOT_A_HASH = "file does not contain a valid yaml hash"
FIRST = MergeStrategy("first")
HASH = MergeStrategy("hash")
MISSING_PATH = (
    "one of 'path', 'paths' 'glob', 'globs' or 'mapped_paths' must be declared in hiera.yaml "
    "when using this data_hash function"
)

_EntriesKey = tuple[str, str | None, bool]  # layer kind, module, default_hierarchy


@dataclass(slots=True)
class Compilation:
    """What Puppet keeps for one compilation: the environment and what was worked out once.

    A failed lookup forgets the memos: Puppet would remember a half-done lookup_options
    read for the rest of the compilation, but each answer here must be what Puppet gives
    for that key alone.
    """

    env: Environment
    files: FileAccess
    cache: DataCache
    options: dict[str | None, CompiledOptions | None] = field(default_factory=dict)
    global_options: object = NO_VALUE
    env_options: object = NO_VALUE
    default_options: dict[str, CompiledOptions | None] = field(default_factory=dict)
    entries: dict[_EntriesKey, list[ResolvedEntry]] = field(default_factory=dict)
    # nested lookups' values (see hiera_ls.engine.interpolation._global_lookup); only
    # complete answers are kept, so forget() keeps them
    lookups: dict[tuple[str, int], Memo] = field(default_factory=dict)
    # what reading each data file warns (reading_warnings), by the file and how it is read
    reading: dict[tuple[str, str | None, str, str], tuple[DataFile, list[str]]] = field(
        default_factory=dict
    )

    def forget(self) -> None:
        self.options.clear()
        self.global_options = NO_VALUE
        self.env_options = NO_VALUE
        self.default_options.clear()
        self.entries.clear()


# ---------------------------------------------------------------------------- the layers


def lookup_global(
    comp: Compilation, inv: Invocation, lk: LookupKey, strategy: MergeStrategy
) -> object:
    """The global layer: a failure without an issue code is reworded as Puppet does."""
    try:
        return _provider_lookup(comp, inv, comp.env.global_layer, lk, strategy)
    except LookupFailure as e:
        if e.issue_code is not None:
            raise
        wrapped = Text.of(f"Lookup of key '{inv.top_key}' failed: ", e.text)
        raise PuppetError(wrapped, e.cause) from e


def lookup_in_environment(
    comp: Compilation, inv: Invocation, lk: LookupKey, strategy: MergeStrategy
) -> object:
    layer = comp.env.environment_layer
    if layer.config is None:
        raise NotFound
    return _provider_lookup(comp, inv, layer, lk, strategy)


def lookup_in_module(
    comp: Compilation, inv: Invocation, lk: LookupKey, strategy: MergeStrategy
) -> object:
    """The module layer of the invocation's module (the key's own, ``mod::key``)."""
    module_name = inv.module_name
    if module_name is None:
        raise NotFound
    layer = _module_layer(comp, module_name)
    if layer is None or layer.config is None:
        kind = Kind.MODULE_NOT_FOUND if layer is None else Kind.MODULE_PROVIDER_NOT_FOUND
        inv.trace.add(TraceNode(kind, label=module_name, module=module_name))
        raise NotFound
    return _provider_lookup(comp, inv, layer, lk, strategy)


def _module_layer(comp: Compilation, module_name: str | None) -> Layer | None:
    if module_name is None:
        return None
    return comp.env.modules.get(module_name)


def _provider_lookup(
    comp: Compilation,
    inv: Invocation,
    layer: Layer,
    lk: LookupKey,
    strategy: MergeStrategy,
    default_hierarchy: bool = False,
) -> object:
    def body() -> object:
        cfg = layer.config
        with inv.trace.branch(
            Kind.DATA_PROVIDER,
            layer.title,
            layer=layer.kind.value,
            module=layer.module_name,
            version=cfg.version if cfg else 5,
            config_path=cfg.path if cfg else None,
        ):
            entries = _resolved_entries(comp, inv, layer, default_hierarchy)
            if not entries:
                inv.trace.event(Event.NOT_FOUND, lk.text)
                raise NotFound
            return lookup_variants(
                inv, strategy, entries, lambda e: _entry_lookup(comp, inv, e, lk, strategy)
            )

    return inv.check(lk.text, body)


def _resolved_entries(
    comp: Compilation, inv: Invocation, layer: Layer, default_hierarchy: bool
) -> list[ResolvedEntry]:
    """The layer's hierarchy for this node, worked out once per compilation."""
    cache_key = (layer.kind.value, layer.module_name, default_hierarchy)
    if cache_key in comp.entries:
        return comp.entries[cache_key]
    cfg = layer.config
    if cfg is None:
        return []
    if (
        cfg.version == 3
        and layer.kind is not LayerKind.GLOBAL
        and not inv.scope.target.strict_errors
    ):
        inv.trace.text(f"Warning: {cfg.path}: hiera.yaml version 3 found and ignored")
        comp.entries[cache_key] = []
        return []
    if cfg.error is not None:
        raise LookupFailure(cfg.error, issue_code="HIERA_CONFIG", cause=_config_cause(layer))
    entries = cfg.default_hierarchy if default_hierarchy else cfg.hierarchy
    resolved = resolve_entries(inv.untraced(), comp.files, layer, entries)
    comp.entries[cache_key] = resolved
    return resolved


@dataclass(frozen=True, slots=True)
class LayerHierarchy:
    """One layer's hierarchy resolved for a node, or why it cannot be (the error a lookup
    reading it reports)."""

    layer: Layer
    entries: tuple[ResolvedEntry, ...]
    error: str | None = None
    default_hierarchy: bool = False


def layer_hierarchies(
    comp: Compilation, inv: Invocation, module_name: str | None
) -> list[LayerHierarchy]:
    """The hierarchies a lookup of a key of ``module_name`` may read, in lookup order: the
    global and environment layers, the module's, then the module's default_hierarchy.

    Every level is listed whatever a merge would stop at, for views that show the whole
    search; layers without a hiera.yaml are left out, as lookups read nothing there.
    """
    layers: list[tuple[Layer, bool]] = [(comp.env.global_layer, False)]
    layers.append((comp.env.environment_layer, False))
    module = _module_layer(comp, module_name)
    if module is not None and module.config is not None:
        layers.append((module, False))
        if module.config.default_hierarchy:
            layers.append((module, True))
    out: list[LayerHierarchy] = []
    for layer, default in layers:
        if layer.config is None:
            continue
        try:
            entries = _resolved_entries(comp, inv.untraced(), layer, default)
        except (LookupFailure, PuppetError, UndefinedVariable) as e:
            out.append(LayerHierarchy(layer, (), str(e), default))
            continue
        out.append(LayerHierarchy(layer, tuple(entries), None, default))
    return out


def _entry_lookup(
    comp: Compilation,
    inv: Invocation,
    rentry: ResolvedEntry,
    lk: LookupKey,
    strategy: MergeStrategy,
) -> object:
    with inv.trace.branch(Kind.HIERARCHY_ENTRY, rentry.entry.name):
        entry = rentry.entry
        if not rentry.supported:
            inv.trace.text(
                f"hiera-ls does not run the {entry.function_kind} function "
                f"'{entry.function_name}': this level was skipped"
            )
            if inv.top_key != LOOKUP_OPTIONS:  # those are counted once: options_skipped()
                inv.skip(skipped_level(rentry), VALUE)
            raise NotFound
        if rentry.locations is None or any(loc.is_uri for loc in rentry.locations):
            raise LookupFailure(
                f"'{entry.function_name}' {MISSING_PATH}", cause=_config_cause(rentry.layer)
            )
        return lookup_variants(
            inv,
            strategy,
            rentry.locations,
            lambda loc: _location_lookup(comp, inv, rentry, loc, lk),
        )


def _config_cause(layer: Layer) -> Cause | None:
    """The layer's hiera.yaml, the cause of a failure its levels make."""
    return Cause(layer.config.path) if layer.config is not None else None


def _location_lookup(
    comp: Compilation, inv: Invocation, rentry: ResolvedEntry, loc: ResolvedLocation, lk: LookupKey
) -> object:
    trace = inv.trace
    reader = rentry.entry.reader or rentry.entry.function_name
    path = loc.path
    if reader == EXPAND_PATH and loc.exists:
        path = expand_path_file(loc.path, lk.root)  # a directory per key prefix
    with trace.branch(Kind.PATH, path, original=loc.original, exists=loc.exists):
        if not loc.exists:
            trace.event(Event.LOCATION_NOT_FOUND, lk.root)
            raise NotFound
        df = comp.cache.get(comp.files, path, reader)
        if df is None and reader == EXPAND_PATH:
            trace.event(Event.NOT_FOUND, lk.root)  # expand_path: a missing file holds nothing
            raise NotFound
        if df is None:
            trace.event(Event.LOCATION_NOT_FOUND, lk.root)
            raise NotFound
        if df.failure is not None:
            if inv.scope.target.strict_errors or not df.failure.plain.endswith(NOT_A_HASH):
                raise LookupFailure(df.failure, cause=Cause(path))
            inv.warn(df.failure.plain)
        if path not in inv.warned_files:  # a module's file: a scan of its keys, once
            entry, layer = rentry.entry, rentry.layer
            slot = (path, layer.module_name, entry.function_kind, entry.function_name)
            known = comp.reading.get(slot)
            if known is None or known[0] is not df:
                known = comp.reading[slot] = (df, reading_warnings(rentry, path, df))
            inv.warn_reading(path, known[1])
        root = lk.root
        if root not in df.data:
            trace.event(Event.NOT_FOUND, root)
            raise NotFound
        if root in df.key_errors:
            raise PuppetError(df.key_errors[root], Cause(path, root))
        raw = df.data[root]
        spans = df.nodes.get((root,))
        where = FileSpan(path, spans.value) if spans is not None else None
        if reader == EYAML:
            raw, encrypted = mark_encrypted(raw)
            if encrypted:
                inv.notes.append(ENCRYPTED_NOTE)
        try:
            value = interpolate(raw, inv, allow_methods=True)
        except (TokenFailure, KeySyntaxError) as e:
            if e.cause is None:  # a token of this value: the file's problem, at this key
                e.cause = Cause(path, root if isinstance(root, str) else None)
            raise
        trace.event(Event.FOUND, root, value, where)
        return value


def reading_warnings(rentry: ResolvedEntry, path: str, df: DataFile) -> list[str]:
    """Puppet's warnings on reading the file: a file without a hash (empty, ``~``: Puppet
    reads ``{}`` even under strict=error), and a module's keys outside its namespace (one
    warning per key, in Puppet 7's words, which do not name it)."""
    out: list[str] = []
    if df.failure is None and any(p.code == DATA_EMPTY_FILE.code for p in df.problems):
        out.append(f"{path}: {NOT_A_HASH}")
    layer = rentry.layer
    if layer.kind is LayerKind.MODULE and rentry.entry.function_kind == "data_hash":
        prefix = f"{layer.module_name}::"
        out.extend(
            f"Module '{layer.module_name}': Value returned from data_hash function "
            f"'{rentry.entry.function_name}', when using location '{path}', must use keys "
            "qualified with the name of the module"
            for key in df.data
            if key != LOOKUP_OPTIONS and not (isinstance(key, str) and key.startswith(prefix))
        )
    return out


def skipped_level(rentry: ResolvedEntry) -> SkippedLevel:
    layer = rentry.layer
    return SkippedLevel(
        layer.module_name or layer.kind.value,
        rentry.entry.name,
        rentry.entry.function_kind,
        rentry.entry.function_name,
    )


def options_skipped(
    comp: Compilation, inv: Invocation, module_name: str | None
) -> list[SkippedLevel]:
    """The levels the lookup_options read for a key of ``module_name`` could not read.

    That read is a hash merge, so it visits every level of the global and environment layers
    and of the key's module: each level hiera-ls skips may hold options for any key.
    """
    layers = [comp.env.global_layer, comp.env.environment_layer]
    module = _module_layer(comp, module_name)
    if module is not None:
        layers.append(module)
    found: list[SkippedLevel] = []
    for layer in layers:
        if layer.config is None:
            continue
        # resolved once per compilation: asked of every lookup, before an untraced copy of
        # the invocation is made to resolve it
        entries = comp.entries.get((layer.kind.value, layer.module_name, False))
        try:
            if entries is None:
                entries = _resolved_entries(comp, inv.untraced(), layer, False)
        except (LookupFailure, PuppetError):
            continue  # the lookup reports that failure itself
        found.extend(skipped_level(e) for e in entries if not e.supported)
    return found


def mark_encrypted(value: object) -> tuple[object, bool]:
    """``value`` with its eyaml-encrypted strings as :class:`Encrypted`; whether there were any.

    Hash keys are interpolated but never decrypted by eyaml_lookup_key, so only values change.
    """
    if isinstance(value, str):
        return (Encrypted(value), True) if ENCRYPTED_RE.search(value) else (value, False)
    if isinstance(value, list):
        items = [mark_encrypted(v) for v in value]
        return [v for v, _ in items], any(found for _, found in items)
    if isinstance(value, dict):
        pairs = {k: mark_encrypted(v) for k, v in value.items()}
        return {k: v for k, (v, _) in pairs.items()}, any(found for _, found in pairs.values())
    return value, False


# ------------------------------------------------------------ a module's default_hierarchy


def lookup_default_in_module(comp: Compilation, inv: Invocation, lk: LookupKey) -> object:
    """The last resort: the module's ``default_hierarchy``, with its own lookup_options."""
    module_name = inv.module_name
    layer = _module_layer(comp, module_name)
    if module_name is None or layer is None or layer.config is None:
        raise NotFound
    if not layer.config.default_hierarchy:
        raise NotFound
    with inv.trace.branch(Kind.SCOPE, f'Searching default_hierarchy of module "{module_name}"'):
        if module_name not in comp.default_options:
            opts: CompiledOptions | None = None
            try:
                raw = _provider_lookup(
                    comp,
                    inv.for_key(LOOKUP_OPTIONS, module_name),
                    layer,
                    LookupKey.parse(LOOKUP_OPTIONS),
                    HASH,
                    True,
                )
                opts = compile_options(validate_options(raw, module_name))
            except NotFound:
                opts = None
            comp.default_options[module_name] = opts
        options = comp.default_options[module_name]
        found = options.for_key(lk.root) if options is not None else None
        merge = found.get("merge") if isinstance(found, Mapping) else None
        strategy = parse_merge(merge) if merge is not None else None
        with inv.trace.branch(Kind.SCOPE, f'Searching for "{lk.text}"'):
            return _provider_lookup(comp, inv, layer, lk, strategy or FIRST, True)


# ---------------------------------------------------------------------------- lookup_options


def lookup_options_for(
    comp: Compilation, inv: Invocation, lk: LookupKey
) -> Mapping[str, object] | None:
    """The lookup_options entry that applies to the key's root (literal keys before patterns)."""
    module_name = lk.module_name
    if module_name not in comp.options:
        comp.options[module_name] = _retrieve_options(comp, inv, module_name)
    compiled = comp.options[module_name]
    if compiled is None:
        return None
    found = compiled.for_key(lk.root)
    if found is None:
        return None
    if isinstance(found, Mapping):
        return found
    return {}  # Puppet tolerates a String here: "first"['merge'] is nil


def lookup_options_key(comp: Compilation, lk: LookupKey) -> str | None:
    """The lookup_options key whose entry applies to ``lk`` (once its options are known)."""
    compiled = comp.options.get(lk.module_name)
    return compiled.matching(lk.root) if compiled is not None else None


def _retrieve_options(
    comp: Compilation, inv: Invocation, module_name: str | None
) -> CompiledOptions | None:
    """Global and environment lookup_options hash-merged, then the module's on top."""
    outer_module = inv.module_name
    key = LookupKey.parse(LOOKUP_OPTIONS)
    inv = inv.for_key(LOOKUP_OPTIONS, outer_module)
    with inv.trace.branch(Kind.META, LOOKUP_OPTIONS):
        opts = _env_lookup_options(comp, inv, key)
        if module_name is not None:
            if None not in comp.options:
                comp.options[None] = compile_options(opts)
            module_opts: object
            try:
                module_opts = validate_options(lookup_in_module(comp, inv, key, HASH), module_name)
            except NotFound:
                module_opts = NO_VALUE
            if isinstance(module_opts, dict) or module_opts is None:
                if opts is None:
                    opts = module_opts
                elif module_opts is not None:
                    branches: list[tuple[str, object]] = [
                        ("Global and Environment", opts),
                        (f"Module {outer_module}", module_opts),
                    ]

                    def one(branch: tuple[str, object]) -> object:
                        with inv.trace.branch(Kind.SCOPE, branch[0]):
                            inv.trace.event(Event.FOUND, LOOKUP_OPTIONS, branch[1])
                            return branch[1]

                    opts = lookup_variants(inv, HASH, branches, one)  # type: ignore[assignment]
        return compile_options(opts)


def _global_lookup_options(
    comp: Compilation, inv: Invocation, key: LookupKey
) -> Mapping[str, object] | None:
    if comp.global_options is NO_VALUE:
        comp.global_options = None
        with suppress(NotFound):
            comp.global_options = validate_options(lookup_global(comp, inv, key, HASH), None)
    return comp.global_options  # type: ignore[return-value]


def _env_lookup_options(
    comp: Compilation, inv: Invocation, key: LookupKey
) -> Mapping[str, object] | None:
    if comp.env_options is NO_VALUE:
        global_options = _global_lookup_options(comp, inv, key)
        env_only: Mapping[str, object] | None = None
        with suppress(NotFound):
            env_only = validate_options(lookup_in_environment(comp, inv, key, HASH), None)
        if global_options is None:
            comp.env_options = env_only
        elif env_only is None:
            comp.env_options = global_options
        else:
            comp.env_options = merge_pair(HASH, global_options, env_only)
    return comp.env_options  # type: ignore[return-value]
