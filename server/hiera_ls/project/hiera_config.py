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
:mod:`hiera_ls.project.schema_validation`), the same file editors use.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Literal

from hiera_ls.project.hiera_config_rules import BY_CODE, HIERA_KEYS
from hiera_ls.project.legacy_schemas import V3_DEFAULTS, V4_SCHEMA, v3_schema
from hiera_ls.project.schema_validation import Finding, SchemaReader
from hiera_ls.puppet.ruby_text import inspect, ruby_class, symkeys_to_string
from hiera_ls.puppet.type_mismatch import Mismatch, describe_mismatch, render
from hiera_ls.puppet.values import RubySymbol
from hiera_ls.schemas_path import HIERA_V5, load_schema
from hiera_ls.source.files import ReadProblem
from hiera_ls.source.interpolation import TokenKind, scan
from hiera_ls.source.loader_rules import BY_CODE as LOADER_RULES
from hiera_ls.source.spans import NO_DETAILS, Details, Problem, Span
from hiera_ls.source.yaml_document import YamlDocument, psych_error_text
from hiera_ls.source.yaml_edits import nearest
from hiera_ls.source.yaml_loader import load_yaml

LayerName = Literal["global", "environment", "module"]
LocationKind = Literal["path", "paths", "glob", "globs", "uri", "uris", "mapped_paths"]

FUNCTION_KEYS = ("data_hash", "lookup_key", "data_dig", "hiera3_backend")
ALL_FUNCTION_KEYS = (*FUNCTION_KEYS, "v4_data_hash")
LOCATION_KEYS: tuple[LocationKind, ...] = (
    "path",
    "paths",
    "glob",
    "globs",
    "uri",
    "uris",
    "mapped_paths",
)
# Functions Puppet ships whose dispatch needs options {'path' => String} and nothing else.
PATH_ONLY_DATA_HASH = frozenset({"yaml_data", "json_data", "hocon_data"})
V4_BACKENDS = {
    "yaml": ("yaml_data", ".yaml"),
    "json": ("json_data", ".json"),
    "hocon": ("hocon_data", ".conf"),
}
NO_SPAN = Span.of(0, 0, 0, 0)
# Hiera 3 backends Puppet reads with its own functions; any other is a custom Hiera 3 backend
V3_BACKENDS = {
    "yaml": ("data_hash", "yaml_data"),
    "json": ("data_hash", "json_data"),
    "hocon": ("data_hash", "hocon_data"),
    "eyaml": ("lookup_key", "eyaml_lookup_key"),
}
# Puppet's default for a backend without :datadir: (its default codedir, as root)
V3_DATADIR = "/etc/puppetlabs/code/environments/%{::environment}/hieradata"


@dataclass(frozen=True, slots=True)
class LocationSpec:
    """The level's location key as written (before interpolation)."""

    kind: LocationKind | None
    values: tuple[str, ...]  # path/glob/uri: one string; mapped_paths: the three strings
    spans: tuple[Span, ...]  # where each string is in hiera.yaml


@dataclass(frozen=True, slots=True)
class HierarchyEntry:
    name: str
    name_span: Span
    span: Span  # the whole level
    function_kind: str  # data_hash | lookup_key | data_dig | hiera3_backend | v4_data_hash
    function_name: str  # e.g. yaml_data
    location: LocationSpec
    datadir: str  # as written: the level's, else defaults', else "data"
    datadir_span: Span | None
    options: Mapping[str, object] | None  # the level's options, else defaults' (never merged)
    # How hiera-ls reads a custom function's level, as the user said (project/backends.py)
    custom_reader: str | None = None

    @property
    def reader(self) -> str | None:
        """How hiera-ls reads the level's files: a built-in function reads its own, a custom
        one the reader the user mapped it to; None: user code, which hiera-ls never runs."""
        if (self.function_kind, self.function_name) in READ_FUNCTIONS:
            return self.function_name
        return self.custom_reader

    # version 3: added to each path (once interpolated) that does not already end with it
    extension: str | None = None
    # where each string option's value is written (the level's, else defaults')
    option_spans: tuple[tuple[str, Span], ...] = ()

    @property
    def read_by_hiera_ls(self) -> bool:
        return self.reader is not None


# (function kind, function name) of the levels whose data files hiera-ls reads
READ_FUNCTIONS = frozenset(
    {
        ("data_hash", "yaml_data"),
        ("data_hash", "json_data"),
        ("data_hash", "hocon_data"),
        ("lookup_key", "eyaml_lookup_key"),
    }
)


@dataclass(frozen=True, slots=True)
class HieraConfig:
    path: str | None  # None for Puppet's built-in default config
    version: int
    hierarchy: tuple[HierarchyEntry, ...]
    default_hierarchy: tuple[HierarchyEntry, ...]
    problems: tuple[Problem, ...]
    # What Puppet raises for every lookup in this layer, in its words (file/line suffix
    # included); None when the configuration is usable.
    error: str | None


def builtin_default_config() -> HieraConfig:
    """The config Puppet uses when the global hiera.yaml does not exist (Puppet's default
    HieraConfig).

    Its datadir is ``data`` next to where hiera.yaml would be; missing files are dropped.
    """
    common = HierarchyEntry(
        name="Common",
        name_span=NO_SPAN,
        span=NO_SPAN,
        function_kind="data_hash",
        function_name="yaml_data",
        location=LocationSpec("path", ("common.yaml",), (NO_SPAN,)),
        datadir="data",
        datadir_span=None,
        options=None,
    )
    return HieraConfig(None, 5, (common,), (), (), None)


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
_LINE_RE = re.compile(r"[^\n]*\n|[^\n]+\Z")
_MISSING_PATH = (
    "one of 'path', 'paths' 'glob', 'globs' or 'mapped_paths' must be declared in hiera.yaml"
)


def version_number(value: object) -> int | str:
    """Puppet's ``version.to_i``: an int, or the text of the Ruby exception it raises."""
    if isinstance(value, bool):
        return "undefined method `to_i' for true:TrueClass"  # false never gets here (|| fallback)
    if isinstance(value, int):
        return value
    if isinstance(value, float):
        if value != value:
            return "NaN"
        if value in (float("inf"), float("-inf")):
            return "Infinity" if value > 0 else "-Infinity"
        return int(value)
    if isinstance(value, str):
        m = re.match(r"[ \t\n\v\f\r]*([+-]?)([0-9]+(?:_[0-9]+)*)", value)
        if m is None:
            return 0
        number = int(m.group(2).replace("_", ""))
        return -number if m.group(1) == "-" else number
    # Ruby 3.1's NoMethodError text (Puppet then adds Ruby's error_highlight lines).
    return f"undefined method `to_i' for {inspect(value)}:{ruby_class(value)}"


class _ConfigReader:
    """State for reading one file: the problems found so far and the first error."""

    def __init__(self, path: str, text: str, layer: LayerName, doc: YamlDocument) -> None:
        self.path = path
        self.text = text
        self.layer = layer
        self.doc = doc
        self.problems: list[Problem] = []
        self.error: str | None = None
        self.raw: object = None  # the loaded value (original keys), for ranges

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
    ) -> HieraConfig:
        return HieraConfig(
            self.path,
            version,
            tuple(hierarchy),
            tuple(default_hierarchy),
            tuple(self.problems),
            self.error,
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
                self._function_arguments(entry, (section, index), _get(filled, (section, index)))
        return self._result(5, [e for e, _ in hierarchy], [e for e, _ in default_hierarchy])

    def _type_check(self, reader: SchemaReader, config: dict[object, object]) -> None:
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
        owner = _get(config, path)
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

    # ------------------------------------------------------------------ reporting

    def _problem(
        self, code_id: str, message: str, span: Span, details: Details = NO_DETAILS
    ) -> Problem:
        problem = BY_CODE[code_id].at(message, self.path, span, details)
        self.problems.append(problem)
        return problem

    def _fail(
        self,
        code_id: str,
        text: str,
        span: Span,
        line: int | None = None,
        suffix: bool = True,
        details: Details = NO_DETAILS,
    ) -> None:
        """A finding that makes Puppet raise; the first one becomes the layer's error."""
        if suffix:
            where = f"file: {self.path}, line: {line}" if line is not None else f"file: {self.path}"
            text = f"{text} ({where})"
        self._problem(code_id, text, span, details)
        if self.error is None:
            self.error = text

    def find_line(self, pattern: str, start: int = 1) -> int | None:
        """Puppet's line search: the first line (from ``start``, 1-based) whose text before
        the first ``#`` matches ``pattern``.  Puppet cuts at any ``#``, quoted or not."""
        try:
            rx = re.compile(pattern, re.ASCII)
        except (re.error, ValueError):  # valid for Ruby, not for Python: no line
            return None
        for number, line in enumerate(_LINE_RE.findall(self.text), start=1):
            if number >= start and rx.search(line.split("#", 1)[0]):
                return number
        return None

    def _original_path(self, path: Sequence[object]) -> tuple[object, ...]:
        """The key path in the loaded document for a path in Puppet's (string-keyed) view."""
        node = self.raw
        out: list[object] = []
        for step in path:
            if isinstance(node, dict):
                match = None
                for k in node:
                    if k == step or (isinstance(k, RubySymbol) and k.name == step):
                        match = k
                if match is None:
                    break
                out.append(match)
                node = node[match]
            elif isinstance(node, list) and isinstance(step, int) and 0 <= step < len(node):
                out.append(step)
                node = node[step]
            else:
                break
        return tuple(out)

    def _span(self, path: Sequence[object], key: bool = False) -> Span:
        """The range of the value (or key) at ``path``, else of its nearest ancestor."""
        found = self._existing_span(path, key)
        return found if found is not None else NO_SPAN

    def _here(self, path: Sequence[object]) -> Span:
        """The value's own range; NO_SPAN for a value Puppet filled in (not in the file)."""
        original = self._original_path(path)
        spans = self.doc.nodes.get(original) if len(original) == len(path) else None
        return spans.value if spans is not None else NO_SPAN

    def _existing_span(self, path: Sequence[object], key: bool = False) -> Span | None:
        original = self._original_path(path)
        nodes = self.doc.nodes
        exact = len(original) == len(path)
        while True:
            spans = nodes.get(original)
            if spans is not None:
                return spans.key if key and exact and spans.key is not None else spans.value
            if not original:
                return None
            original = original[:-1]
            exact = False

    def _mismatch_span(self, m: Mismatch) -> Span:
        path = m.value_path()
        if m.kind == "missing-key":
            return self._first_line(path)
        return self._span(path, key=m.points_at_key)

    def _first_line(self, path: Sequence[object]) -> Span:
        """A mapping's first line: where to say that it lacks a key."""
        span = self._span(path)
        if span.end.line == span.start.line:
            return span
        lines = re.split("\r\n|\r|\n", self.text)  # a lone \r ends a line too
        end = len(lines[span.start.line]) if span.start.line < len(lines) else span.start.column
        return Span.of(
            span.start.line, span.start.column, span.start.line, max(end, span.start.column)
        )

    def _second_key_span(self, path: tuple[object, ...], keys: Sequence[str]) -> Span:
        """The key that makes a set of exclusive keys more than one (in file order)."""
        owner = self._original_path(path)
        present: list[tuple[Span, object]] = []
        for k in keys:
            spans = self.doc.nodes.get((*owner, _original_key(self.raw, owner, k)))
            if spans is not None and spans.key is not None:
                present.append((spans.key, k))
        present.sort(key=lambda p: (p[0].start.line, p[0].start.column))
        return present[1][0] if len(present) > 1 else self._span(path)


def ruby_regexp_error(pattern: str) -> str | None:
    """The message of the RegexpError Ruby raises for the commonest broken patterns."""
    depth = 0
    in_class = 0
    i = 0
    while i < len(pattern):
        c = pattern[i]
        if c == "\\":
            if i + 1 >= len(pattern):
                return "too short escape sequence"
            i += 2
            continue
        if in_class:
            if c == "[":
                in_class += 1
            elif c == "]":
                in_class -= 1
        elif c == "[":
            in_class = 1
        elif c == "(":
            depth += 1
        elif c == ")":
            if depth == 0:
                return "unmatched close parenthesis"
            depth -= 1
        i += 1
    if in_class:
        return "premature end of char-class"
    if depth:
        return "end pattern with unmatched parenthesis"
    return None


def _original_key(raw: object, owner: tuple[object, ...], key: str) -> object:
    node = raw
    for step in owner:
        if isinstance(node, dict):
            node = node.get(step)
        elif isinstance(node, list) and isinstance(step, int) and 0 <= step < len(node):
            node = node[step]
    if isinstance(node, dict):
        for k in node:
            if isinstance(k, RubySymbol) and k.name == key:
                return k
    return key


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


def _get(value: object, path: Sequence[object]) -> object:
    for step in path:
        if isinstance(value, dict):
            value = value.get(step)
        elif isinstance(value, list) and isinstance(step, int) and 0 <= step < len(value):
            value = value[step]
        else:
            return None
    return value


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
