"""hiera.yaml as Puppet reads it: version, structure, semantic rules, and the hierarchy.

Puppet builds a layer's configuration in a fixed order and stops at the first failure:
parse the YAML (a non-hash falls back to the Hiera 3 default config), pick the version
from ``version`` (``to_i``; absent means 3), fill the defaults, check the structure
against the version's type, run the semantic rules, check that the layer accepts the
version, then create one data provider per hierarchy level (duplicate names and
method-syntax interpolation fail there).  ``HieraConfig.error`` is that first failure, in
Puppet's words, because every lookup in the layer raises it; ``problems`` holds every
finding, each at the range in the file that causes it, so an editor can show them all.

The structure check is driven by ``schemas/hiera.v5.schema.json`` (see
:mod:`hiera_ls.project.schema_validation`), the same file editors use. The model is in
``hiera_config_model.py``, where each finding goes in ``hiera_config_spans.py``, the rules and
their fixes in ``hiera_config_rules.py``.
"""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from functools import cache

from hiera_ls.project.hiera_config_model import (
    ALL_FUNCTION_KEYS,
    FUNCTION_KEYS,
    LOCATION_KEYS,
    NO_SPAN,
    PATH_ONLY_DATA_HASH,
    V3_BACKENDS,
    V3_DATADIR,
    V4_BACKENDS,
    HieraConfig,
    HierarchyEntry,
    LayerName,
    LocationKind,
    LocationSpec,
    version_number,
)
from hiera_ls.project.hiera_config_rules import HIERA_KEYS
from hiera_ls.project.hiera_config_spans import LocatedReader
from hiera_ls.project.legacy_schemas import V3_DEFAULTS, V4_SCHEMA, v3_schema
from hiera_ls.project.schema_validation import Finding, SchemaReader
from hiera_ls.puppet.regexp import ruby_regexp_error
from hiera_ls.puppet.ruby_text import symkeys_to_string
from hiera_ls.puppet.values import RubySymbol, value_at
from hiera_ls.schemas_path import HIERA_V5, load_schema
from hiera_ls.source.files import ReadProblem
from hiera_ls.source.interpolation import TokenKind, scan
from hiera_ls.source.loader_rules import BY_CODE as LOADER_RULES
from hiera_ls.source.spans import NO_DETAILS, Details, Span
from hiera_ls.source.yaml_document import psych_error_text
from hiera_ls.source.yaml_loader import load_yaml


def unreadable_config(path: str, problem: ReadProblem) -> HieraConfig:
    """A hiera.yaml that exists but cannot be read (a directory, a device, bytes that are not
    UTF-8): Puppet fails every lookup of the layer (``Is a directory @ io_fread - ...``)."""
    span = Span.of(problem.line, problem.column, problem.line, problem.column + 1)
    error = shown = problem.message
    if problem.code == "file-invalid-utf8":
        # Psych refuses the file; its reader errors carry no position (always line 1 column 1).
        error = f"({path}): {problem.message} at line 1 column 1"
        shown = (
            f"{problem.message} (line {problem.line + 1}, column {problem.column + 1}): "
            f"Puppet refuses the whole file: {error}"
        )
    found = LOADER_RULES[problem.code].at(shown, path, span)
    return HieraConfig(path, 5, (), (), (found,), error)


def load_hiera_config(path: str, text: str, layer: LayerName) -> HieraConfig:
    """Read one hiera.yaml of the given layer; never raises on bad content."""
    return _ConfigReader(path, text, layer, load_yaml(path, text)).read()


@cache
def _v5_reader() -> SchemaReader:
    return SchemaReader(load_schema(HIERA_V5))


# Puppet's order of the semantic rules: defaults first, then each level of hierarchy,
# plan_hierarchy and default_hierarchy; within a level, this order.
_ISSUE_RANK = {
    "HIERA_MULTIPLE_DATA_PROVIDER_FUNCTIONS_IN_DEFAULT": 0,
    "HIERA_DEFAULT_OPTION_RESERVED_BY_PUPPET": 1,
    "HIERA_MISSING_DATA_PROVIDER_FUNCTION": 2,
    "HIERA_MULTIPLE_DATA_PROVIDER_FUNCTIONS": 3,
    "HIERA_V3_BACKEND_NOT_GLOBAL": 4,
    "HIERA_V3_BACKEND_REPLACED_BY_DATA_HASH": 5,
    "HIERA_MULTIPLE_LOCATION_SPECS": 6,
    "HIERA_OPTION_RESERVED_BY_PUPPET": 7,
    "HIERA_DEFAULT_HIERARCHY_NOT_IN_MODULE": 8,
}
_SECTION_RANK = {"defaults": 0, "hierarchy": 1, "plan_hierarchy": 2, "default_hierarchy": 3}
_ISSUE_CODE = {
    "HIERA_MULTIPLE_DATA_PROVIDER_FUNCTIONS_IN_DEFAULT": "hiera-config-multiple-functions",
    "HIERA_DEFAULT_OPTION_RESERVED_BY_PUPPET": "hiera-config-reserved-option",
    "HIERA_MISSING_DATA_PROVIDER_FUNCTION": "hiera-config-missing-function",
    "HIERA_MULTIPLE_DATA_PROVIDER_FUNCTIONS": "hiera-config-multiple-functions",
    "HIERA_V3_BACKEND_NOT_GLOBAL": "hiera-config-hiera3-backend-not-global",
    "HIERA_V3_BACKEND_REPLACED_BY_DATA_HASH": "hiera-config-hiera3-backend-replaced",
    "HIERA_MULTIPLE_LOCATION_SPECS": "hiera-config-multiple-locations",
    "HIERA_OPTION_RESERVED_BY_PUPPET": "hiera-config-reserved-option",
    "HIERA_DEFAULT_HIERARCHY_NOT_IN_MODULE": "hiera-config-default-hierarchy-not-in-module",
}
_FUNCTIONS_TEXT = "data_hash, lookup_key, data_dig, or hiera3_backend"
_LOCATIONS_TEXT = "path, paths, glob, globs, uri, uris, or mapped_paths"
_QUOTE = "['\"]?"  # Puppet's optional quote, as its pattern source spells it
_MISSING_PATH = (
    "one of 'path', 'paths' 'glob', 'globs' or 'mapped_paths' must be declared in hiera.yaml"
)


class _ConfigReader(LocatedReader):
    """Puppet's reading of one hiera.yaml, version by version."""

    # ------------------------------------------------------------------ entry point

    def read(self) -> HieraConfig:
        doc = self.doc
        self.problems.extend(doc.problems)
        if doc.fatal is not None:
            if doc.fatal not in self.problems:
                self.problems.append(doc.fatal)
            self.error = self._uncoded(psych_error_text(doc) or doc.fatal.message)
            return self._result(5)
        raw: object = doc.value
        self.raw = raw
        if not isinstance(raw, dict):
            self._problem(
                "hiera-config-not-a-hash",
                f"{self.path}: File exists but does not contain a valid YAML hash. "
                "Falling back to Hiera version 3 default config",
                self._first_line(()),
            )
            self.raw = None
        loaded: dict[object, object] = {}
        loaded.update(raw if isinstance(raw, dict) else V3_DEFAULTS)
        declared = loaded.get("version")
        if declared is None or declared is False:
            declared = loaded.get(RubySymbol("version"))
        version = 3 if declared is None else version_number(declared)
        config = symkeys_to_string(loaded)
        assert isinstance(config, dict)
        if isinstance(version, str):
            self._fail("hiera-config-bad-version", version, self._version_span(), suffix=False)
            return self._result(5)
        if version == 5:
            return self._read_v5(config)
        if version == 4:
            return self._read_v4(config)
        if version == 3:
            return self._read_v3(config)
        self._fail(
            "hiera-config-unsupported-version",
            f"This runtime does not support hiera.yaml version {version}",
            self._version_span(),
        )
        return self._result(version)

    def _uncoded(self, message: str) -> str:
        """Errors without a Puppet issue code (type and YAML errors) are re-raised by the
        global layer with the key being looked up, which is always lookup_options first."""
        if self.layer == "global":
            return f"Lookup of key 'lookup_options' failed: {message}"
        return message

    def _version_span(self) -> Span:
        """Where file-wide findings go: the version value, else the file's first line."""
        here = self._here(("version",))
        return here if here != NO_SPAN else self._first_line(())

    def _result(
        self,
        version: int,
        hierarchy: Sequence[HierarchyEntry] = (),
        default_hierarchy: Sequence[HierarchyEntry] = (),
        plan_hierarchy: Sequence[HierarchyEntry] = (),
    ) -> HieraConfig:
        return HieraConfig(
            self.path,
            version,
            tuple(hierarchy),
            tuple(default_hierarchy),
            tuple(self.problems),
            self.error,
            tuple(plan_hierarchy),
        )

    # ------------------------------------------------------------------ version 5

    def _read_v5(self, config: dict[object, object]) -> HieraConfig:
        reader = _v5_reader()
        filled = reader.fill_defaults(config)
        self._type_check(reader, filled)
        for finding in sorted(reader.findings(filled, self.layer), key=_finding_order):
            self._semantic(finding, filled)
        found = filled.get("defaults")
        defaults: dict[object, object] = found if isinstance(found, dict) else {}
        hierarchy = self._entries(filled, "hierarchy", defaults)
        default_hierarchy = (
            self._entries(filled, "default_hierarchy", defaults) if self.layer == "module" else []
        )
        self._creation_checks(filled, "hierarchy")
        if self.layer == "module" and "default_hierarchy" in filled:
            self._creation_checks(filled, "default_hierarchy")
        for section, entries in (
            ("hierarchy", hierarchy),
            ("default_hierarchy", default_hierarchy),
        ):
            for entry, index in entries:
                self._function_arguments(
                    entry, (section, index), value_at(filled, (section, index))
                )
        plan = [e for e, _ in self._entries(filled, "plan_hierarchy", defaults)]
        return self._result(5, [e for e, _ in hierarchy], [e for e, _ in default_hierarchy], plan)

    def _type_check(self, reader: SchemaReader, config: dict[object, object]) -> None:
        if reader.plainly_accepts(config):
            return  # most files: decided without loading Puppet's type system
        from hiera_ls.puppet.type_mismatch import describe_mismatch, render
        from hiera_ls.source.yaml_edits import nearest

        subject = f"The Lookup Configuration at '{self.path}' has wrong type,"
        mismatches = describe_mismatch(subject, reader.puppet_type(), config)
        if not mismatches:
            return
        for m in mismatches:
            details = NO_DETAILS
            if m.kind == "unknown-key" and m.key is not None:
                best = nearest(m.key, HIERA_KEYS)
                suggested = (best,) if best is not None and best != m.key else ()
                details = Details(option=m.key, suggestions=suggested)
            message = m.message().strip()
            self._problem("hiera-config-wrong-type", message, self._mismatch_span(m), details)
        if self.error is None:
            self.error = self._uncoded(render(mismatches))

    def _semantic(self, finding: Finding, config: dict[object, object]) -> None:
        issue, path = finding.issue, finding.path
        owner = value_at(config, path)
        name = owner.get("name") if isinstance(owner, dict) else None
        line: int | None = None
        details = Details(level=str(name)) if name is not None else NO_DETAILS
        span = self._span(path)
        if issue == "HIERA_MULTIPLE_DATA_PROVIDER_FUNCTIONS_IN_DEFAULT":
            text = f"Only one of {_FUNCTIONS_TEXT} can be defined in defaults"
            span = self._second_key_span(path, FUNCTION_KEYS)
        elif issue == "HIERA_DEFAULT_OPTION_RESERVED_BY_PUPPET":
            key = str(finding.args.get("key"))
            text = f"Option key '{key}' used in defaults is reserved by Puppet"
            span = self._span((*path, "options", key), key=True)
        elif issue == "HIERA_MISSING_DATA_PROVIDER_FUNCTION":
            text = f"One of {_FUNCTIONS_TEXT} must be defined in hierarchy '{name}'"
            # A level Puppet filled in (no hierarchy in the file) fails because of defaults.
            span = self._here((*path, "name"))
            if span == NO_SPAN:
                span = self._span(("defaults",), key=True)
        elif issue == "HIERA_MULTIPLE_DATA_PROVIDER_FUNCTIONS":
            text = f"Only one of {_FUNCTIONS_TEXT} can be defined in hierarchy '{name}'"
            span = self._second_key_span(path, ALL_FUNCTION_KEYS)
        elif issue == "HIERA_V3_BACKEND_NOT_GLOBAL":
            text = "'hiera3_backend' is only allowed in the global layer"
            line = self.find_line(r"\s+hiera3_backend:")
            span = self._span(path, key=True)
        elif issue == "HIERA_V3_BACKEND_REPLACED_BY_DATA_HASH":
            backend = owner.get("hiera3_backend") if isinstance(owner, dict) else ""
            text = f'Use "data_hash: {backend}_data" instead of "hiera3_backend: {backend}"'
            details = Details(option="hiera3_backend", suggestions=(f"data_hash: {backend}_data",))
            span = self._span((*path, "hiera3_backend"))
            found = self._line(
                r"\s+hiera3_backend:\s*" + _QUOTE + str(backend) + r"(?:[^\w]|$)",
                _ISSUE_CODE[issue],
                span,
            )
            if found is False:
                return
            line = found if isinstance(found, int) and not isinstance(found, bool) else None
        elif issue == "HIERA_MULTIPLE_LOCATION_SPECS":
            text = f"Only one of {_LOCATIONS_TEXT} can be defined in hierarchy '{name}'"
            span = self._second_key_span(path, LOCATION_KEYS)
        elif issue == "HIERA_OPTION_RESERVED_BY_PUPPET":
            key = str(finding.args.get("key"))
            text = f"Option key '{key}' used in hierarchy '{name}' is reserved by Puppet"
            span = self._span((*path, "options", key), key=True)
        elif issue == "HIERA_DEFAULT_HIERARCHY_NOT_IN_MODULE":
            text = "'default_hierarchy' is only allowed in the module layer"
            line = self.find_line(r"(?:^|\s+)default_hierarchy:")
            span = self._span(path, key=True)
        else:  # a rule the schema names but this module does not know: still report it
            text = issue
        code_id = _ISSUE_CODE.get(issue, "hiera-config-wrong-type")
        self._fail(code_id, text, span, line=line, details=details)

    def _line(self, pattern: str, code_id: str, span: Span, start: int = 1) -> int | bool | None:
        """``find_line``, or False after reporting the RegexpError Ruby would raise (names
        are put into Puppet's search patterns unescaped)."""
        broken = ruby_regexp_error(pattern)
        if broken is not None:
            self._fail(code_id, f"{broken}: /{pattern}/", span, suffix=False)
            return False
        return self.find_line(pattern, start)

    def _creation_checks(self, config: dict[object, object], section: str) -> None:
        """What fails while Puppet creates the data providers, level by level."""
        entries = config.get(section)
        if not isinstance(entries, list):
            return
        defaults = config.get("defaults")
        seen: set[str] = set()
        for index, he in enumerate(entries):
            if not isinstance(he, dict) or not isinstance(he.get("name"), str):
                continue
            name = str(he["name"])
            if name in seen:
                self._duplicate(name, (section, index, "name"))
            seen.add(name)
            self._method_syntax(
                he, (section, index), defaults if isinstance(defaults, dict) else {}
            )

    def _duplicate(self, name: str, path: tuple[object, ...]) -> None:
        pattern = r"\s+name:\s+" + _QUOTE + name + r"(?:[^\w]|$)"
        if self._line(pattern, "hiera-config-duplicate-name", self._span(path)) is False:
            return
        first = self.find_line(pattern)
        line = self.find_line(pattern, first + 1) if first is not None else None
        if line is None:
            line, first = first, None
        text = f"Hierarchy name '{name}' defined more than once."
        if first is not None:
            text += f" First defined at (line: {first})"
        self._fail("hiera-config-duplicate-name", text, self._span(path), line=line)

    def _method_syntax(
        self, he: dict[object, object], path: tuple[object, ...], defaults: dict[object, object]
    ) -> None:
        """Interpolation in datadir, locations and options may not call methods; Puppet
        interpolates them (in that order) when it creates the level's provider."""
        places: list[tuple[tuple[object, ...], object]] = []
        if "datadir" in he:
            places.append(((*path, "datadir"), he["datadir"]))
        elif "datadir" in defaults:
            places.append((("defaults", "datadir"), defaults["datadir"]))
        for key in LOCATION_KEYS[:-1]:  # mapped_paths templates depend on the scope
            if key in he:
                places.append(((*path, key), he[key]))
                break
        if he.get("options") not in (None, False):
            places.append(((*path, "options"), he["options"]))
        elif defaults.get("options") not in (None, False):
            places.append((("defaults", "options"), defaults["options"]))
        for where, value in places:
            for sub, text in _strings(value, where):
                if any(t.kind is TokenKind.METHOD for t in scan(text)):
                    span = self._span(sub)
                    if any(
                        p.code == "hiera-config-method-interpolation" and p.where.span == span
                        for p in self.problems
                    ):
                        continue
                    self._fail(
                        "hiera-config-method-interpolation",
                        "Interpolation using method syntax is not allowed in this context",
                        span,
                    )

    def _function_arguments(
        self, entry: HierarchyEntry, path: tuple[object, ...], he: object
    ) -> None:
        """Built-in functions that the level's location or options will make fail."""
        name = entry.function_name
        builtin = (entry.function_kind == "data_hash" and name in PATH_ONLY_DATA_HASH) or (
            entry.function_kind == "lookup_key" and name == "eyaml_lookup_key"
        )
        if not builtin:
            return
        kind = entry.location.kind
        if name == "eyaml_lookup_key":
            text = f"'eyaml_lookup_key': {_MISSING_PATH} when using this lookup_key function"
        else:
            text = f"'{name}' {_MISSING_PATH} when using this data_hash function"
        if kind is None or kind in ("uri", "uris"):
            span = entry.location.spans[0] if entry.location.spans else entry.name_span
            self._problem("hiera-config-missing-location", text, span)
        elif name != "eyaml_lookup_key" and entry.options:
            own = isinstance(he, dict) and he.get("options") not in (None, False)
            where = (*path, "options") if own else ("defaults", "options")
            self._problem(
                "hiera-config-options-refused",
                text,
                self._span(where, key=True),
                Details(option="options", level=entry.name),
            )

    # ------------------------------------------------------------------ versions 3 and 4

    def _read_v4(self, config: dict[object, object]) -> HieraConfig:
        self._problem(
            "hiera-config-deprecated-version",
            f"{self.path}: Use of 'hiera.yaml' version 4 is deprecated. It should be converted to "
            "version 5",
            self._version_span(),
        )
        reader = SchemaReader(V4_SCHEMA)
        filled = reader.fill_defaults(config)
        self._type_check(reader, filled)
        if self.layer == "global":
            self._fail(
                "hiera-config-v4-in-global",
                "hiera.yaml version 4 cannot be used in the global layer",
                self._version_span(),
            )
        entries = filled.get("hierarchy")
        hierarchy: list[HierarchyEntry] = []
        if not isinstance(entries, list):
            return self._result(4)
        seen: set[str] = set()
        datadir = filled.get("datadir")
        for index, he in enumerate(entries):
            if not isinstance(he, dict) or not isinstance(he.get("name"), str):
                continue
            name = str(he["name"])
            if name in seen:
                self._duplicate(name, ("hierarchy", index, "name"))
            seen.add(name)
            backend = he.get("backend")
            if not isinstance(backend, str) or backend not in V4_BACKENDS:
                span = self._span(("hierarchy", index, "backend"))
                found = self._line(
                    r"[^\w]" + str(backend) + r"(?:[^\w]|$)", "hiera-config-unknown-backend", span
                )
                if found is False:
                    continue
                line = found if isinstance(found, int) and not isinstance(found, bool) else None
                self._fail(
                    "hiera-config-unknown-backend",
                    f"No data provider is registered for backend '{backend}'",
                    self._span(("hierarchy", index, "backend")),
                    line=line,
                )
                continue
            entry = self._v4_entry(he, index, str(backend), datadir)
            if entry is not None:
                hierarchy.append(entry)
        return self._result(4, hierarchy)

    def _v4_entry(
        self, he: dict[object, object], index: int, backend: str, datadir: object
    ) -> HierarchyEntry | None:
        base = ("hierarchy", index)
        function_name, extension = V4_BACKENDS[backend]
        kind: LocationKind
        declared: list[tuple[object, tuple[object, ...]]]
        paths = he.get("paths")
        if isinstance(paths, list):
            kind, declared = "paths", [(p, (*base, "paths", i)) for i, p in enumerate(paths)]
        elif isinstance(he.get("path"), str):
            kind, declared = "path", [(he["path"], (*base, "path"))]
        else:
            kind, declared = "path", [(he["name"], (*base, "name"))]
        if not all(isinstance(p, str) for p, _ in declared):
            return None
        # Puppet appends the backend's extension after interpolation, unless already there.
        values = tuple(
            str(p) if str(p).endswith(extension) else f"{p}{extension}" for p, _ in declared
        )
        own = he.get("datadir")
        dir_value = own if isinstance(own, str) else datadir if isinstance(datadir, str) else "data"
        dir_path: tuple[object, ...] = (*base, "datadir") if isinstance(own, str) else ("datadir",)
        return HierarchyEntry(
            name=str(he["name"]),
            name_span=self._here((*base, "name")),
            span=self._here(base),
            function_kind="data_hash",
            function_name=function_name,
            location=LocationSpec(kind, values, tuple(self._here(p) for _, p in declared)),
            datadir=dir_value,
            datadir_span=self._existing_span(dir_path),
            options=None,
        )

    def _read_v3(self, config: dict[object, object]) -> HieraConfig:
        self._problem(
            "hiera-config-deprecated-version",
            f"{self.path}: Use of 'hiera.yaml' version 3 is deprecated. It should be converted to "
            "version 5",
            self._version_span(),
        )
        backends = config.get("backends")
        if backends is None or backends is False:
            backends = V3_DEFAULTS["backends"]
        names = _flatten([backends])
        if not all(isinstance(b, str) for b in names):
            # Puppet makes each backend name a key of its type and crashes on a non-String.
            self._fail(
                "hiera-config-wrong-type",
                "undefined method `string' for #<Puppet::Pops::Types::TypeCalculator>",
                self._span(("backends",)),
                suffix=False,
            )
        reader = SchemaReader(v3_schema(names))
        filled = reader.fill_defaults(config)
        self._type_check(reader, filled)
        if self.layer == "global":
            return self._result(3, self._v3_entries(filled, names))
        where = "an environment" if self.layer == "environment" else "a module"
        self._fail(
            "hiera-config-v3-not-allowed",
            f"hiera.yaml version 3 cannot be used in {where}",
            self._version_span(),
        )
        return self._result(3)

    def _v3_entries(
        self, config: dict[object, object], backends: list[object]
    ) -> list[HierarchyEntry]:
        """Puppet 7's reading of a version 3 global hiera.yaml (HieraConfigV3): one level per
        backend, in ``:backends:`` order, named after it, each reading every ``:hierarchy:``
        path under the backend's ``:datadir:`` with its extension added."""
        if self.error is not None:
            return []
        declared = _flatten([config.get("hierarchy")])
        paths = tuple(p for p in declared if isinstance(p, str))
        spans = tuple(
            self._here(
                ("hierarchy", i) if isinstance(config.get("hierarchy"), list) else ("hierarchy",)
            )
            for i in range(len(paths))
        )
        entries: list[HierarchyEntry] = []
        for backend in backends:
            assert isinstance(backend, str)
            if any(e.name == backend for e in entries):
                self._v3_duplicate_backend(backend)
                return []
            found = config.get(backend)
            settings: dict[object, object] = found if isinstance(found, dict) else {}
            kind, function = V3_BACKENDS.get(backend, ("hiera3_backend", backend))
            extension = settings.get("extension")
            datadir = settings.get("datadir")
            entries.append(
                HierarchyEntry(
                    name=backend,
                    name_span=self._here(("backends",)),
                    span=self._here(("backends",)),
                    function_kind=kind,
                    function_name=function,
                    location=LocationSpec("paths", paths, spans),
                    # Pathname(datadir): a relative one is relative to the working directory
                    datadir=os.path.abspath(datadir) if isinstance(datadir, str) else V3_DATADIR,
                    datadir_span=self._here((backend, "datadir"))
                    if "datadir" in settings
                    else None,
                    options={str(k): v for k, v in settings.items() if k != "datadir"}
                    if kind == "lookup_key"
                    else None,
                    extension=f".{extension}"
                    if extension is not None
                    else (".conf" if backend == "hocon" else f".{backend}"),
                )
            )
            if kind == "hiera3_backend":
                self._problem(
                    "hiera-config-v3-not-evaluated",
                    f"{self.path}: the Hiera 3 backend '{backend}' is custom code, which hiera-ls "
                    "does not run: its data is skipped",
                    self._here(("backends",)),
                )
        return entries

    def _v3_duplicate_backend(self, backend: str) -> None:
        pattern = rf"[^\w]{re.escape(backend)}(?:[^\w]|$)"
        first = self.find_line(pattern)
        line = self.find_line(pattern, first + 1) if first else None
        if line is None:
            line, first = first, None
        text = f"Backend '{backend}' is defined more than once."
        if first:
            text += f" First defined at (line: {first})"
        self._fail("hiera-config-duplicate-name", text, self._here(("backends",)), line=line)

    # ------------------------------------------------------------------ hierarchy levels

    def _entries(
        self, config: dict[object, object], section: str, defaults: dict[object, object]
    ) -> list[tuple[HierarchyEntry, int]]:
        """The levels that have a name (all of them when the file is valid), with indexes."""
        levels = config.get(section)
        if not isinstance(levels, list):
            return []
        out: list[tuple[HierarchyEntry, int]] = []
        for index, he in enumerate(levels):
            if isinstance(he, dict) and isinstance(he.get("name"), str):
                out.append((self._entry(he, (section, index), defaults), index))
        return out

    def _entry(
        self, he: dict[object, object], base: tuple[object, ...], defaults: dict[object, object]
    ) -> HierarchyEntry:
        function_kind = next((k for k in ALL_FUNCTION_KEYS if k in he), None)
        if function_kind is not None:
            function_name = he[function_kind]
        else:
            function_kind = next((k for k in FUNCTION_KEYS if k in defaults), "data_hash")
            function_name = defaults.get(function_kind, "")
        location = self._location(he, base)
        if isinstance(he.get("datadir"), str):
            datadir, datadir_span = str(he["datadir"]), self._existing_span((*base, "datadir"))
        elif isinstance(defaults.get("datadir"), str):
            datadir, datadir_span = (
                str(defaults["datadir"]),
                self._existing_span(("defaults", "datadir")),
            )
        else:
            datadir, datadir_span = "data", None
        options = he.get("options")
        options_path: tuple[object, ...] = (*base, "options")
        if options is None or options is False:  # Ruby's ||: {} is kept
            options = defaults.get("options")
            options_path = ("defaults", "options")
        return HierarchyEntry(
            name=str(he["name"]),
            name_span=self._here((*base, "name")),
            span=self._here(base),
            function_kind=function_kind,
            function_name=function_name if isinstance(function_name, str) else "",
            location=location,
            datadir=datadir,
            datadir_span=datadir_span,
            options=options if isinstance(options, dict) else None,
            option_spans=tuple(
                (str(k), self._here((*options_path, k)))
                for k, v in (options.items() if isinstance(options, dict) else ())
                if isinstance(k, str) and isinstance(v, str)
            ),
        )

    def _location(self, he: dict[object, object], base: tuple[object, ...]) -> LocationSpec:
        kind = next((k for k in LOCATION_KEYS if k in he), None)
        if kind is None:
            return LocationSpec(None, (), ())
        value = he[kind]
        if kind in ("path", "glob", "uri"):
            if not isinstance(value, str):
                return LocationSpec(kind, (), ())
            return LocationSpec(kind, (value,), (self._here((*base, kind)),))
        if not isinstance(value, list):
            return LocationSpec(kind, (), ())
        strings = [(i, v) for i, v in enumerate(value) if isinstance(v, str)]
        return LocationSpec(
            kind,
            tuple(v for _, v in strings),
            tuple(self._here((*base, kind, i)) for i, _ in strings),
        )


def _finding_order(f: Finding) -> tuple[int, int, int]:
    section = str(f.path[0]) if f.path else ""
    index = f.path[1] if len(f.path) > 1 and isinstance(f.path[1], int) else -1
    if f.issue == "HIERA_DEFAULT_HIERARCHY_NOT_IN_MODULE":
        index = -1
    return (_SECTION_RANK.get(section, 9), index, _ISSUE_RANK.get(f.issue, 99))


def _flatten(values: list[object]) -> list[object]:
    out: list[object] = []
    for v in values:
        out.extend(_flatten(v) if isinstance(v, list) else [v])
    return out


def _strings(value: object, path: tuple[object, ...]) -> list[tuple[tuple[object, ...], str]]:
    """Every string in a value (hash keys too), with its path, in Puppet's visiting order."""
    if isinstance(value, str):
        return [(path, value)]
    out: list[tuple[tuple[object, ...], str]] = []
    if isinstance(value, list):
        for i, v in enumerate(value):
            out.extend(_strings(v, (*path, i)))
    elif isinstance(value, dict):
        for k, v in value.items():
            if isinstance(k, str):
                out.append(((*path, k), k))
            out.extend(_strings(v, (*path, k)))
    return out
