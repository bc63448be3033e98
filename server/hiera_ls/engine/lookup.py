"""The Hiera 5 lookup: layers, hierarchy entries, locations, lookup_options, interpolation.

The control flow follows Puppet's own (``pops/lookup/lookup_adapter.rb`` and friends) step
by step, because several user-visible quirks fall out of that shape: which errors get
wrapped as ``Lookup of key 'K' failed``, where recursion is detected, when a lower level
is read at all, and in which order lookup_options patterns are tried.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, TypeVar

from hiera_ls.engine.merge import (
    MergeError,
    MergeStrategy,
    convert_first,
    merge_pair,
    merge_single,
    parse_merge,
)
from hiera_ls.engine.options import CompiledOptions, compile_options, validate_options
from hiera_ls.engine.trace import (
    NO_VALUE,
    Event,
    Kind,
    NullBuilder,
    TraceBuilder,
    TraceNode,
)
from hiera_ls.project.model import Environment, Layer, LayerKind
from hiera_ls.project.scope import Scope
from hiera_ls.puppet.errors import LookupError_, PuppetError, RegexpError, UndefinedVariable
from hiera_ls.puppet.ruby_text import to_s
from hiera_ls.puppet.values import ENCRYPTED_RE, Encrypted
from hiera_ls.source.data_cache import DataCache
from hiera_ls.source.files import FileAccess
from hiera_ls.source.interpolation import TokenKind, scan
from hiera_ls.source.keys import LookupKey, NotFound, Segment, dig, ruby_hash_get, split_key
from hiera_ls.source.spans import FileSpan

if TYPE_CHECKING:
    from hiera_ls.project.hiera_config import HierarchyEntry

T = TypeVar("T")

LOOKUP_OPTIONS = "lookup_options"
EYAML = "eyaml_lookup_key"  # reads YAML like yaml_data; its ENC[...] strings stay encrypted
ENCRYPTED_NOTE = (
    "Strings holding ENC[...] come from eyaml files and are shown as written: Puppet decrypts "
    "them with the eyaml keys on the server (hiera-ls never decrypts)"
)
NOT_A_HASH = "file does not contain a valid yaml hash"
FIRST = MergeStrategy("first")
HASH = MergeStrategy("hash")
MISSING_PATH = (
    "one of 'path', 'paths' 'glob', 'globs' or 'mapped_paths' must be declared in hiera.yaml "
    "when using this data_hash function"
)


@dataclass(frozen=True, slots=True)
class ResolvedLocation:
    original: str  # the declared template (or the joined glob)
    path: str  # interpolated absolute path, or the URI
    exists: bool
    is_uri: bool = False


@dataclass(frozen=True, slots=True)
class ResolvedEntry:
    """A hierarchy entry with its locations interpolated for this scope."""

    entry: HierarchyEntry
    layer: Layer
    locations: tuple[ResolvedLocation, ...] | None  # None: the entry has no location key
    options: Mapping[str, object]

    @property
    def supported(self) -> bool:
        return self.entry.read_by_hiera_ls


@dataclass(frozen=True, slots=True)
class LookupOutcome:
    """One answer: a value, not found, or Puppet's error text; with the trace when asked."""

    key: str
    found: bool
    value: object = None
    error: str | None = None
    trace: TraceNode | None = None
    notes: tuple[str, ...] = ()


@dataclass(slots=True)
class _Invocation:
    """Puppet's Invocation: a shared name stack (recursion guard) and the current top key."""

    stack: list[str]
    top_key: str = ""
    module_name: str | None = None


NO_DEFAULT = object()


@dataclass(slots=True)
class LookupSession:
    """One compilation's worth of lookups for one node (Puppet caches per compilation)."""

    env: Environment
    scope: Scope
    files: FileAccess = field(default_factory=FileAccess)
    cache: DataCache = field(default_factory=DataCache)
    trace: TraceBuilder = field(default_factory=NullBuilder)
    notes: list[str] = field(default_factory=list)
    _options: dict[str | None, CompiledOptions | None] = field(default_factory=dict)
    _global_options: object = NO_VALUE
    _env_options: object = NO_VALUE
    _default_options: dict[str, CompiledOptions | None] = field(default_factory=dict)
    _entries: dict[tuple[str, str | None, bool], list[ResolvedEntry]] = field(default_factory=dict)
    _inv: _Invocation = field(default_factory=lambda: _Invocation([]))

    # ------------------------------------------------------------------ public API

    def lookup(
        self,
        names: str | Sequence[str],
        merge: object = None,
        default: object = NO_DEFAULT,
        *,
        explain: bool = False,
        override: Mapping[str, object] | None = None,
        default_values: Mapping[str, object] | None = None,
    ) -> LookupOutcome:
        """Puppet's ``lookup()``: never raises for user data; errors come back as text."""
        name_list = [names] if isinstance(names, str) else list(names)
        self.trace = TraceBuilder() if explain else NullBuilder()
        self.notes = []
        self._inv = _Invocation([])
        override = override or {}
        default_values = default_values or {}
        key = name_list[0] if name_list else ""
        if self.scope.error is not None:
            return self._outcome(key, False, None, error=self.scope.error)
        try:
            strategy = parse_merge(merge) if merge is not None else None
            for name in name_list:
                if name in override:
                    self.trace.event(Event.FOUND_IN_OVERRIDES, name, override[name])
                    return self._outcome(name, True, override[name])
                try:
                    value = self._search_and_merge(name, strategy)
                except NotFound:
                    continue
                return self._outcome(name, True, value)
            for name in name_list:
                if name in default_values:
                    self.trace.event(Event.FOUND_IN_DEFAULTS, name, default_values[name])
                    return self._outcome(name, True, default_values[name])
            if default is not NO_DEFAULT:
                return self._outcome(key, True, default)
            if len(name_list) == 1:
                msg = f"Function lookup() did not find a value for the name '{key}'"
            else:
                joined = ", ".join(f"'{n}'" for n in name_list)
                msg = f"Function lookup() did not find a value for any of the names [{joined}]"
            return self._outcome(key, False, None, not_found_message=msg)
        except (LookupError_, PuppetError, MergeError, UndefinedVariable) as e:
            # Puppet would remember a half-done lookup_options read for the rest of the
            # compilation; each answer here must be what Puppet gives for that key alone.
            self._forget_compilation()
            return self._outcome(key, False, None, error=str(e))
        except RecursionError:
            self._forget_compilation()
            return self._outcome(key, False, None, error="hiera-ls: lookup nested too deeply")
        except Exception as e:
            self._forget_compilation()
            return self._outcome(
                key, False, None, error=f"hiera-ls internal error ({type(e).__name__}: {e})"
            )

    def _forget_compilation(self) -> None:
        self._options.clear()
        self._global_options = NO_VALUE
        self._env_options = NO_VALUE
        self._default_options.clear()
        self._entries.clear()

    def _outcome(
        self,
        key: str,
        found: bool,
        value: object,
        error: str | None = None,
        not_found_message: str | None = None,
    ) -> LookupOutcome:
        trace = self.trace.root if not isinstance(self.trace, NullBuilder) else None
        if not_found_message is not None and trace is not None:
            trace.children.append(TraceNode(Kind.TEXT, label=not_found_message))
        if error is not None and trace is not None:
            trace.children.append(TraceNode(Kind.TEXT, label=error))
        return LookupOutcome(key, found, value, error, trace, tuple(dict.fromkeys(self.notes)))

    # ------------------------------------------------------------ the adapter level

    def _search_and_merge(self, name: str, merge: MergeStrategy | None) -> object:
        if name == LOOKUP_OPTIONS or name.startswith(LOOKUP_OPTIONS + "."):
            with self.trace.branch(Kind.INVALID_KEY, LOOKUP_OPTIONS):
                raise NotFound
        lk = LookupKey.parse(name)
        with self._invocation(lk.text, lk.module_name):
            options = self._lookup_options_for(lk) or {}
            strategy: MergeStrategy | None = merge
            if strategy is None and "merge" in options and options["merge"] is not None:
                strategy = parse_merge(options["merge"])
                self.trace.add(TraceNode(Kind.MERGE_SOURCE, label=LOOKUP_OPTIONS))
            with self.trace.branch(Kind.ROOT, lk.text):
                try:
                    value = self._do_lookup(lk, strategy or FIRST)
                except NotFound:
                    value = self._dig(lk, self._lookup_default_in_module(lk))
            return self._convert(lk, options, value)

    @contextmanager
    def _invocation(self, top_key: str, module_name: str | None) -> Iterator[None]:
        saved = self._inv
        self._inv = _Invocation(saved.stack, top_key, module_name)
        try:
            yield
        finally:
            self._inv = saved

    def _convert(self, lk: LookupKey, options: Mapping[str, object], value: object) -> object:
        spec = options.get("convert_to")
        if spec is None:
            return value
        from hiera_ls.engine import convert  # rare: most keys have no convert_to

        result = convert.convert_to(lk.text, spec, value)
        if result.note:
            self.notes.append(result.note)
        self.trace.text(result.explain)
        return result.value

    def _do_lookup(self, lk: LookupKey, strategy: MergeStrategy) -> object:
        layers: list[Callable[[], object]] = [
            lambda: self._lookup_global(lk, strategy),
            lambda: self._lookup_in_environment(lk, strategy),
            lambda: self._lookup_in_module(lk, strategy),
        ]
        value = self._run(strategy, layers, lambda f: f())
        return self._dig(lk, value)

    def _dig(self, lk: LookupKey, value: object) -> object:
        if not lk.segments:
            return value
        with self.trace.branch(Kind.SUB_KEY, ".".join(str(s) for s in lk.segments)):
            try:
                result = dig(lk.text, value, lk.segments)
            except NotFound:
                self.trace.event(Event.NOT_FOUND, lk.segments[-1])
                raise
            self.trace.event(Event.FOUND, lk.segments[-1], result)
            return result

    # ------------------------------------------------------------------ merging

    def _run(
        self, strategy: MergeStrategy, variants: Sequence[T], fn: Callable[[T], object]
    ) -> object:
        """Puppet's MergeStrategy#lookup over one level's variants."""
        if strategy.name == "first":
            for v in variants:
                try:
                    return fn(v)
                except NotFound:
                    continue
            raise NotFound
        if not variants:
            raise NotFound
        if len(variants) == 1:
            return merge_single(strategy, fn(variants[0]))
        with self.trace.branch(Kind.MERGE, strategy.name, merge=strategy):
            memo: object = NO_VALUE
            for v in variants:
                try:
                    value = fn(v)
                except NotFound:
                    continue
                memo = (
                    convert_first(strategy, value)
                    if memo is NO_VALUE
                    else merge_pair(strategy, memo, value)
                )
            if memo is NO_VALUE:
                raise NotFound
            self.trace.result(memo)
            return memo

    def _check(self, name: str, fn: Callable[[], T]) -> T:
        """Puppet's Invocation#check: the recursion guard around every provider lookup."""
        stack = self._inv.stack
        if name in stack:
            raise LookupError_(f"Recursive lookup detected in [{', '.join(stack)}]")
        stack.append(name)
        try:
            return fn()
        except LookupError_:
            raise
        except MergeError as e:
            if not e.puppet_error:
                raise
            raise LookupError_(str(e)) from e
        except PuppetError as e:
            if isinstance(e, RegexpError):
                raise
            raise LookupError_(str(e)) from e
        finally:
            stack.pop()

    # ------------------------------------------------------------------ layers

    def _lookup_global(self, lk: LookupKey, strategy: MergeStrategy) -> object:
        try:
            return self._provider_lookup(self.env.global_layer, lk, strategy)
        except LookupError_ as e:
            if e.issue_code is not None:
                raise
            raise PuppetError(f"Lookup of key '{self._inv.top_key}' failed: {e.message}") from e

    def _lookup_in_environment(self, lk: LookupKey, strategy: MergeStrategy) -> object:
        layer = self.env.environment_layer
        if layer.config is None:
            raise NotFound
        return self._provider_lookup(layer, lk, strategy)

    def _module_layer(self, module_name: str | None) -> Layer | None:
        if module_name is None:
            return None
        return self.env.modules.get(module_name)

    def _lookup_in_module(self, lk: LookupKey, strategy: MergeStrategy) -> object:
        module_name = self._inv.module_name
        if module_name is None:
            raise NotFound
        layer = self._module_layer(module_name)
        if layer is None or layer.config is None:
            kind = Kind.MODULE_NOT_FOUND if layer is None else Kind.MODULE_PROVIDER_NOT_FOUND
            self.trace.add(TraceNode(kind, label=module_name, module=module_name))
            raise NotFound
        return self._provider_lookup(layer, lk, strategy)

    def _provider_lookup(
        self, layer: Layer, lk: LookupKey, strategy: MergeStrategy, default_hierarchy: bool = False
    ) -> object:
        def body() -> object:
            cfg = layer.config
            with self.trace.branch(
                Kind.DATA_PROVIDER,
                layer.title,
                layer=layer.kind.value,
                module=layer.module_name,
                version=cfg.version if cfg else 5,
                config_path=cfg.path if cfg else None,
            ):
                entries = self._resolved_entries(layer, default_hierarchy)
                if not entries:
                    self.trace.event(Event.NOT_FOUND, lk.text)
                    raise NotFound
                return self._run(strategy, entries, lambda e: self._entry_lookup(e, lk, strategy))

        return self._check(lk.text, body)

    def _entry_lookup(
        self, rentry: ResolvedEntry, lk: LookupKey, strategy: MergeStrategy
    ) -> object:
        with self.trace.branch(Kind.HIERARCHY_ENTRY, rentry.entry.name):
            entry = rentry.entry
            if not rentry.supported:
                note = (
                    f"hiera-ls does not run the {entry.function_kind} function "
                    f"'{entry.function_name}': hierarchy level \"{entry.name}\" was skipped"
                )
                self.notes.append(note)
                self.trace.text(note)
                raise NotFound
            if rentry.locations is None or any(loc.is_uri for loc in rentry.locations):
                raise LookupError_(f"'{entry.function_name}' {MISSING_PATH}")
            return self._run(
                strategy, rentry.locations, lambda loc: self._location_lookup(rentry, loc, lk)
            )

    def _location_lookup(
        self, rentry: ResolvedEntry, loc: ResolvedLocation, lk: LookupKey
    ) -> object:
        with self.trace.branch(Kind.PATH, loc.path, original=loc.original, exists=loc.exists):
            if not loc.exists:
                self.trace.event(Event.LOCATION_NOT_FOUND, lk.root)
                raise NotFound
            function = rentry.entry.function_name
            df = self.cache.get(self.files, loc.path, function)
            if df is None:
                self.trace.event(Event.LOCATION_NOT_FOUND, lk.root)
                raise NotFound
            if df.error is not None:
                if not (self.scope.strict_variables is False and df.error.endswith(NOT_A_HASH)):
                    raise LookupError_(df.error)
                self.trace.text(f"Warning: {df.error}")
            root = lk.root
            if root not in df.data:
                self.trace.event(Event.NOT_FOUND, root)
                raise NotFound
            if root in df.key_errors:
                raise PuppetError(df.key_errors[root])
            raw = df.data[root]
            spans = df.nodes.get((root,))
            where = FileSpan(loc.path, spans.value) if spans is not None else None
            if function == EYAML:
                raw, encrypted = mark_encrypted(raw)
                if encrypted:
                    self.notes.append(ENCRYPTED_NOTE)
            value = self._interpolate(raw, allow_methods=True)
            self.trace.event(Event.FOUND, root, value, where)
            return value

    # --------------------------------------------------------- module default_hierarchy

    def _lookup_default_in_module(self, lk: LookupKey) -> object:
        module_name = self._inv.module_name
        layer = self._module_layer(module_name)
        if module_name is None or layer is None or layer.config is None:
            raise NotFound
        if not layer.config.default_hierarchy:
            raise NotFound
        with self.trace.branch(
            Kind.SCOPE, f'Searching default_hierarchy of module "{module_name}"'
        ):
            if module_name not in self._default_options:
                opts: CompiledOptions | None = None
                with self._invocation(LOOKUP_OPTIONS, module_name):
                    try:
                        raw = self._provider_lookup(
                            layer, LookupKey.parse(LOOKUP_OPTIONS), HASH, True
                        )
                        opts = compile_options(validate_options(raw, module_name))
                    except NotFound:
                        opts = None
                self._default_options[module_name] = opts
            options = self._default_options[module_name]
            found = options.for_key(lk.root) if options is not None else None
            merge = found.get("merge") if isinstance(found, Mapping) else None
            strategy = parse_merge(merge) if merge is not None else None
            with self.trace.branch(Kind.SCOPE, f'Searching for "{lk.text}"'):
                return self._provider_lookup(layer, lk, strategy or FIRST, True)

    # ------------------------------------------------------------------ lookup_options

    def _lookup_options_for(self, lk: LookupKey) -> Mapping[str, object] | None:
        module_name = lk.module_name
        if module_name not in self._options:
            self._options[module_name] = self._retrieve_options(module_name)
        compiled = self._options[module_name]
        if compiled is None:
            return None
        found = compiled.for_key(lk.root)
        if found is None:
            return None
        if isinstance(found, Mapping):
            return found
        return {}  # Puppet tolerates a String here: "first"['merge'] is nil

    def _retrieve_options(self, module_name: str | None) -> CompiledOptions | None:
        outer_module = self._inv.module_name
        key = LookupKey.parse(LOOKUP_OPTIONS)
        with (
            self._invocation(LOOKUP_OPTIONS, outer_module),
            self.trace.branch(Kind.META, LOOKUP_OPTIONS),
        ):
            opts = self._env_lookup_options(key)
            if module_name is not None:
                if None not in self._options:
                    self._options[None] = compile_options(opts)
                module_opts: object
                try:
                    module_opts = validate_options(self._lookup_in_module(key, HASH), module_name)
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
                            with self.trace.branch(Kind.SCOPE, branch[0]):
                                self.trace.event(Event.FOUND, LOOKUP_OPTIONS, branch[1])
                                return branch[1]

                        opts = self._run(HASH, branches, one)  # type: ignore[assignment]
            return compile_options(opts)

    def _global_lookup_options(self, key: LookupKey) -> Mapping[str, object] | None:
        if self._global_options is NO_VALUE:
            self._global_options = None
            with suppress(NotFound):
                self._global_options = validate_options(self._lookup_global(key, HASH), None)
        return self._global_options  # type: ignore[return-value]

    def _env_lookup_options(self, key: LookupKey) -> Mapping[str, object] | None:
        if self._env_options is NO_VALUE:
            global_options = self._global_lookup_options(key)
            env_only: Mapping[str, object] | None = None
            with suppress(NotFound):
                env_only = validate_options(self._lookup_in_environment(key, HASH), None)
            if global_options is None:
                self._env_options = env_only
            elif env_only is None:
                self._env_options = global_options
            else:
                self._env_options = merge_pair(HASH, global_options, env_only)
        return self._env_options  # type: ignore[return-value]

    # ------------------------------------------------------------------ locations

    def _resolved_entries(self, layer: Layer, default_hierarchy: bool) -> list[ResolvedEntry]:
        cache_key = (layer.kind.value, layer.module_name, default_hierarchy)
        if cache_key in self._entries:
            return self._entries[cache_key]
        cfg = layer.config
        if cfg is None:
            return []
        if (
            cfg.version == 3
            and layer.kind is not LayerKind.GLOBAL
            and not self.scope.strict_variables
        ):
            self.trace.text(f"Warning: {cfg.path}: hiera.yaml version 3 found and ignored")
            self._entries[cache_key] = []
            return []
        if cfg.error is not None:
            raise LookupError_(cfg.error, issue_code="HIERA_CONFIG")
        if cfg.version == 3:
            note = f"{cfg.path}: hiera.yaml version 3 is not evaluated by hiera-ls"
            self.notes.append(note)
            self.trace.text(note)
            self._entries[cache_key] = []
            return []
        entries = cfg.default_hierarchy if default_hierarchy else cfg.hierarchy
        with self._untraced():
            resolved = self._resolve_entries(layer, entries)
        self._entries[cache_key] = resolved
        return resolved

    @contextmanager
    def _untraced(self) -> Iterator[None]:
        """Puppet's explain output does not show how hiera.yaml itself was interpolated."""
        saved = self.trace
        self.trace = NullBuilder()
        try:
            yield
        finally:
            self.trace = saved

    def _resolve_entries(
        self, layer: Layer, entries: Sequence[HierarchyEntry]
    ) -> list[ResolvedEntry]:
        cfg = layer.config
        assert cfg is not None
        resolved: list[ResolvedEntry] = []
        for he in entries:
            datadir = self._config_interpolate_required(
                _pathname_join(layer.root, he.datadir), cfg.path
            )
            locations = self._resolve_locations(he, str(datadir), cfg.path is None)
            if cfg.path is None and locations is not None and not locations:
                continue
            options: Mapping[str, object] = {}
            if he.options is not None:
                interpolated = self._config_interpolate_required(dict(he.options), cfg.path)
                assert isinstance(interpolated, dict)
                options = interpolated
            resolved.append(ResolvedEntry(he, layer, locations, options))
        return resolved

    def _resolve_locations(
        self, he: HierarchyEntry, datadir: str, default_config: bool
    ) -> tuple[ResolvedLocation, ...] | None:
        """Puppet's location resolver; the built-in default config drops missing paths."""
        spec = he.location
        kind = spec.kind
        if kind is None:
            return None
        out: list[ResolvedLocation] = []
        if kind in ("path", "paths"):
            for declared in spec.values:
                p = _pathname_join(datadir, self._location_interpolate(declared))
                exists = self.files.exists(p)
                if default_config and not exists:
                    continue
                out.append(ResolvedLocation(declared, p, exists))
        elif kind in ("glob", "globs"):
            for declared in spec.values:
                pattern = _pathname_join(datadir, self._location_interpolate(declared))
                for match in self.files.glob(pattern):
                    if not self.files.is_dir(match):
                        out.append(ResolvedLocation(pattern, match, True))
        elif kind in ("uri", "uris"):
            for declared in spec.values:
                out.append(
                    ResolvedLocation(declared, self._location_interpolate(declared), True, True)
                )
        elif kind == "mapped_paths":
            var_expr, var_name, template = spec.values
            try:
                mapped = self._scope_lookup(var_expr, "mapped_path[0]")
            except UndefinedVariable as e:
                self.trace.text(f"Warning: {e.message.rstrip('; ')} in mapped_paths")
                mapped = None
            if mapped is None or (isinstance(mapped, (str, list, dict)) and not mapped):
                return ()
            items: list[object]
            if isinstance(mapped, str):
                items = [mapped]
            elif isinstance(mapped, dict):
                items = [[k, v] for k, v in mapped.items()]
            elif isinstance(mapped, list):
                items = list(mapped)
            else:
                items = [mapped]
            saved = self.scope
            try:
                for item in items:
                    self.scope = saved.with_local(var_name, item)
                    p = _pathname_join(datadir, self._location_interpolate(template))
                    out.append(ResolvedLocation(template, p, self.files.exists(p)))
            finally:
                self.scope = saved
        return tuple(out)

    def _location_interpolate(self, template: str) -> str:
        """Locations follow Puppet 8: an undefined variable warns and expands to ''."""
        value = self._interpolate(template, allow_methods=False, undefined_as_empty=True)
        return to_s(value) if not isinstance(value, str) else value

    def _config_interpolate_required(self, value: object, config_path: str | None) -> object:
        try:
            return self._interpolate(value, allow_methods=False)
        except UndefinedVariable as e:
            line = _find_line(self.files, config_path, e.name) if config_path else None
            where = (
                f" (file: {config_path}, line: {line})"
                if line
                else (f" (file: {config_path})" if config_path else "")
            )
            raise LookupError_(
                f"Undefined variable '{e.name}'{where}", issue_code="HIERA_UNDEFINED_VARIABLE"
            ) from e

    # ------------------------------------------------------------------ interpolation

    def _interpolate(
        self, value: object, allow_methods: bool, undefined_as_empty: bool = False
    ) -> object:
        if isinstance(value, str):
            if "%{" not in value or isinstance(value, Encrypted):
                return value
            return self._interpolate_string(value, allow_methods, undefined_as_empty)
        if isinstance(value, list):
            return [self._interpolate(v, allow_methods, undefined_as_empty) for v in value]
        if isinstance(value, dict):
            return {
                self._interpolate(k, allow_methods, undefined_as_empty): self._interpolate(
                    v, allow_methods, undefined_as_empty
                )
                for k, v in value.items()
            }
        return value

    def _interpolate_string(
        self, subject: str, allow_methods: bool, undefined_as_empty: bool
    ) -> object:
        with self.trace.branch(Kind.INTERPOLATE, subject):
            parts: list[str] = []
            pos = 0
            for tok in scan(subject):
                parts.append(subject[pos : tok.start])
                pos = tok.end
                if tok.kind is TokenKind.EMPTY:
                    continue
                if tok.kind is TokenKind.METHOD:
                    if not allow_methods:
                        raise LookupError_(
                            "Interpolation using method syntax is not allowed in this context",
                            issue_code="HIERA_INTERPOLATION_METHOD_SYNTAX_NOT_ALLOWED",
                        )
                    method, arg = tok.method or "", tok.argument or ""
                else:
                    method, arg = "scope", tok.expression
                if method == "alias" and subject != tok.text:
                    raise LookupError_(
                        "'alias' interpolation is only permitted if the expression is equal to the entire string",
                        issue_code="HIERA_INTERPOLATION_ALIAS_NOT_ENTIRE_STRING",
                    )
                if method in ("lookup", "hiera", "alias"):
                    value = self._global_lookup_method(arg)
                    if method == "alias":
                        return value
                elif method == "scope":
                    try:
                        value = self._scope_lookup(arg, subject)
                    except UndefinedVariable:
                        if not undefined_as_empty:
                            raise
                        self.trace.text(f"Warning: Undefined variable '{arg}'; expanded to ''")
                        value = None
                elif method == "literal":
                    value = arg
                else:
                    raise LookupError_(
                        f"Unknown interpolation method '{method}'",
                        issue_code="HIERA_INTERPOLATION_UNKNOWN_INTERPOLATION_METHOD",
                    )
                # Puppet interpolates the result again, under the recursion guard.
                guard = f"scope:{arg}" if method == "scope" else arg
                value = self._check(
                    guard,
                    lambda found=value: self._interpolate(found, allow_methods, undefined_as_empty),  # type: ignore[misc]
                )
                parts.append(
                    "" if value is None else (value if isinstance(value, str) else to_s(value))
                )
            parts.append(subject[pos:])
            result = "".join(parts)
            self.trace.result(result)
            return result

    def _global_lookup_method(self, key: str) -> object:
        """``%{lookup('k')}``: a full lookup with default '' (a missing key gives '')."""
        lk = LookupKey.parse(key)
        try:
            return self._search_and_merge(lk.text, None)
        except NotFound:
            return ""

    def _scope_lookup(self, key: str, subject: str) -> object:
        segments = split_key(key)
        if segments is None:
            raise LookupError_(f"Syntax error in string: {subject}")
        root = str(segments[0])
        with self.trace.branch(Kind.SCOPE, "Global Scope"):
            if self.scope.is_defined(root):
                value = self.scope.value(root)
                self.trace.event(Event.FOUND, root, value)
            else:
                value = self.scope.value(root)  # raises under strict_variables
        rest: tuple[Segment, ...] = tuple(segments[1:])
        if value is not None and rest:
            try:
                value = dig(key, value, rest)
            except NotFound:
                value = None
        return value


def _pathname_join(base: str, path: str) -> str:
    """Ruby ``Pathname#+``: an absolute right side wins; '..' and '.' are resolved."""
    joined = os.path.join(base, path)
    cleaned = os.path.normpath(joined)
    if joined.endswith("/") and not cleaned.endswith("/"):
        cleaned += "/"
    return cleaned


def _find_line(files: FileAccess, config_path: str, var: str) -> int | None:
    """Puppet's find_line_matching for ``%{var}``: comments stripped, quotes respected."""
    import re

    text = files.read_text(config_path)
    if text is None:
        return None
    pattern = re.compile(r"%\{['\"]?" + re.escape(var) + r"['\"]?\}")
    for number, line in enumerate(text.splitlines(), start=1):
        quote: str | None = None
        stripped = []
        for ch in line:
            if ch in "\"'":
                if quote == ch:
                    quote = None
                elif quote is None:
                    quote = ch
            elif ch == "#":
                break
            stripped.append(ch)
        if pattern.search("".join(stripped)):
            return number
    return None


__all__ = [
    "NO_DEFAULT",
    "LookupOutcome",
    "LookupSession",
    "ResolvedEntry",
    "ResolvedLocation",
    "ruby_hash_get",
]


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
