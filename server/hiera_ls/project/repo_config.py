"""``.hiera-ls.yaml``: one repository's choices, read the same by ``hiera-ls check`` and the server.

The file sits at the repository root. Which file applies is found by walking up from the
directory a run starts in (the server: each workspace folder; the CLI: the PATH it checks),
stopping at the first ``.hiera-ls.yaml`` or after the first directory holding ``.git`` (the
repository root), so a folder opened inside a control repository still gets its settings.
Paths and patterns in it are relative to the directory holding it. Nested files deeper in the
tree are not read: one repository, one set of rules.

It is loaded with the project's own YAML loader, so every unknown setting, wrong type and
bad value is reported on the file with its line and column (``config-*`` codes), and the rest
of the file still applies. Applying it to problems is ``hiera_ls.checks.policy``'s job.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, ClassVar

from hiera_ls.project.backends import READERS
from hiera_ls.project.puppetdb_settings import FIELDS as PUPPETDB_FIELDS
from hiera_ls.project.puppetdb_settings import (
    FILE_FIELDS,
    PuppetDBSettings,
    expand_path,
    timeout_problem,
    url_problem,
)
from hiera_ls.project.targets import TARGET_NAMES
from hiera_ls.source.files import FileAccess
from hiera_ls.source.node_table import Path
from hiera_ls.source.rules import Rule
from hiera_ls.source.spans import Problem, Severity, Span
from hiera_ls.source.yaml_loader import load_yaml

if TYPE_CHECKING:  # (read with the first path rule: a lookup has none)
    from hiera_ls.project.path_patterns import GitIgnore

CONFIG_NAME = ".hiera-ls.yaml"
CONFIG_SCHEMA = "hiera-ls.schema.json"

# The readers hiera-ls has, which a custom backend function may be declared to behave like.
SEVERITY_NAMES: Mapping[str, Severity | None] = {
    "error": Severity.ERROR,
    "warning": Severity.WARNING,
    "info": Severity.INFORMATION,
    "information": Severity.INFORMATION,
    "hint": Severity.HINT,
    "off": None,
}
SETTINGS = (
    "target",
    "facts",
    "select",
    "ignore",
    "severity",
    "exclude",
    "per-path",
    "backends",
    "puppetdb",
)


CONFIG_UNKNOWN_SETTING = Rule(
    "config-unknown-setting",
    Severity.WARNING,
    "A setting .hiera-ls.yaml does not have (a typo?): it is ignored",
)
CONFIG_BAD_VALUE = Rule(
    "config-bad-value",
    Severity.ERROR,
    "A setting of .hiera-ls.yaml with a wrong type or value: that setting is ignored",
)
RULES = (CONFIG_UNKNOWN_SETTING, CONFIG_BAD_VALUE)


@dataclass(frozen=True, slots=True)
class PathRule:
    """Files matching ``patterns`` (gitignore syntax) get none of ``codes`` (empty: none at all)."""

    patterns: tuple[str, ...]
    codes: tuple[str, ...]
    spec: GitIgnore = field(compare=False, repr=False)

    @staticmethod
    def of(patterns: tuple[str, ...], codes: tuple[str, ...]) -> PathRule:
        from hiera_ls.project.path_patterns import GitIgnore

        return PathRule(patterns, codes, GitIgnore(patterns))

    def matches(self, relative: str) -> bool:
        return bool(self.spec.match_file(relative))


@dataclass(frozen=True, slots=True)
class RepoConfig:
    """A repository's settings; :attr:`EMPTY` (no file) changes nothing."""

    root: str  # the directory patterns and paths are relative to ("" when there is no file)
    path: str | None = None  # the .hiera-ls.yaml read, None when there is none
    target: str | None = None  # the Puppet the repository runs (project/targets.py)
    facts: tuple[str, ...] = ()  # absolute files or directories of facts profiles
    select: tuple[str, ...] = ()  # codes or globs; empty: every code
    ignore: tuple[str, ...] = ()
    severity: tuple[tuple[str, Severity | None], ...] = ()  # pattern -> severity (None: off)
    rules: tuple[PathRule, ...] = ()  # exclude (all codes) and per-path rules
    backends: tuple[tuple[str, str], ...] = ()  # custom function name -> reader it behaves like
    # where the team's PuppetDB is (used only as the user allows: hiera_ls.fleet.config)
    puppetdb: PuppetDBSettings = field(default_factory=PuppetDBSettings)
    problems: tuple[Problem, ...] = ()  # about the file itself
    # every code or glob written (select, ignore, severity, per-path) and where: the checks
    # judge which name no code (they know the codes; this layer does not)
    code_places: tuple[tuple[str, Span], ...] = ()
    text: str | None = field(default=None, compare=False, repr=False)

    EMPTY: ClassVar[RepoConfig]

    @property
    def has_rules(self) -> bool:
        return bool(self.select or self.ignore or self.severity or self.rules)

    def relative(self, path: str) -> str | None:
        """``path`` relative to the config's directory, None when it lies outside it."""
        if not self.root:
            return None
        rel = os.path.relpath(path, self.root)
        if rel == os.curdir or rel.startswith(os.pardir + os.sep) or rel == os.pardir:
            return None
        return rel.replace(os.sep, "/")

    def backend_reader(self, function: str) -> str | None:
        return dict(self.backends).get(function)


RepoConfig.EMPTY = RepoConfig("")


def find_config_file(start: str, files: FileAccess) -> str | None:
    """The ``.hiera-ls.yaml`` that applies to a run started in ``start`` (see module doc)."""
    current = os.path.abspath(start)
    if not files.is_dir(current):
        current = os.path.dirname(current)
    while True:
        candidate = os.path.join(current, CONFIG_NAME)
        if files.is_file(candidate):
            return candidate
        parent = os.path.dirname(current)
        if parent == current or os.path.exists(os.path.join(current, ".git")):
            return None
        current = parent


def find_repo_config(start: str, files: FileAccess) -> RepoConfig:
    """The configuration for a run started in ``start``; EMPTY when no file applies."""
    path = find_config_file(start, files)
    if path is None:
        return RepoConfig.EMPTY
    text = files.read_text(path)
    if text is None:
        return RepoConfig.EMPTY
    return load_repo_config(path, text)


def load_repo_config(path: str, text: str) -> RepoConfig:
    """The file's settings; what cannot be used is reported and left out, never raised."""
    return _Reader(path, text).read()


class _Reader:
    def __init__(self, path: str, text: str) -> None:
        self.path = path
        self.root = os.path.dirname(os.path.abspath(path))
        self.text = text
        self.doc = load_yaml(path, text)
        self.problems: list[Problem] = []
        self.code_places: list[tuple[str, Span]] = []

    def read(self) -> RepoConfig:
        doc = self.doc
        # the loader's own refusals and warnings (a syntax error, a duplicate key); its
        # YAML 1.1 notes do not apply: `off` read as false is accepted as off
        self.problems.extend(
            p for p in doc.problems if p.severity in (Severity.ERROR, Severity.WARNING)
        )
        if doc.fatal is not None and doc.fatal not in self.problems:
            self.problems.append(doc.fatal)
        value = doc.value
        if doc.fatal is not None or value is None:
            return self._done({})
        if not isinstance(value, dict):
            self._report(CONFIG_BAD_VALUE, (), "The file must hold a mapping of settings")
            return self._done({})
        found: dict[str, object] = {}
        for key in value:
            if not isinstance(key, str) or key not in SETTINGS:
                known = ", ".join(SETTINGS)
                self._report(
                    CONFIG_UNKNOWN_SETTING,
                    (key,),
                    f"Unknown setting {key!s}: hiera-ls reads {known}",
                    on_key=True,
                )
                continue
            found[key] = value[key]
        return self._done(found)

    def _done(self, found: dict[str, object]) -> RepoConfig:
        target = self._target(found)
        facts = self._paths(found)
        select = self._codes(found, "select")
        ignore = self._codes(found, "ignore")
        severity = self._severity(found)
        rules = self._rules(found)
        backends = self._backends(found)
        puppetdb = self._puppetdb(found)
        return RepoConfig(
            root=self.root,
            path=self.path,
            target=target,
            facts=facts,
            select=select,
            ignore=ignore,
            severity=severity,
            rules=rules,
            backends=backends,
            puppetdb=puppetdb,
            problems=tuple(sorted(self.problems, key=_order)),
            code_places=tuple(self.code_places),
            text=self.text,
        )

    # ------------------------------------------------------------------ settings

    def _strings(self, found: dict[str, object], name: str, what: str) -> list[tuple[str, Path]]:
        """A list of strings (one string is a list of one), with each item's node path."""
        if name not in found or found[name] is None:
            return []
        value = found[name]
        if isinstance(value, str):
            return [(value, (name,))]
        if not isinstance(value, list):
            self._report(CONFIG_BAD_VALUE, (name,), f"{name} must be a list of {what}")
            return []
        out: list[tuple[str, Path]] = []
        for i, item in enumerate(value):
            if isinstance(item, str) and item:
                out.append((item, (name, i)))
            else:
                self._report(CONFIG_BAD_VALUE, (name, i), f"{name}: each entry must be {what}")
        return out

    def _target(self, found: dict[str, object]) -> str | None:
        value = found.get("target")
        if value is None:
            return None
        if isinstance(value, str) and value in TARGET_NAMES:
            return value
        names = " | ".join(TARGET_NAMES)
        self._report(CONFIG_BAD_VALUE, ("target",), f"target must be one of {names}")
        return None

    def _paths(self, found: dict[str, object]) -> tuple[str, ...]:
        """Facts paths inside the repository: a repository must not make the user's own
        files (``~/.ssh``, ``/proc/self/environ``) into facts profiles that hovers show, nor
        walk the whole disk (``facts: ["/"]``). Those need the user's own setting."""
        out: list[str] = []
        real_root = os.path.realpath(self.root)
        for entry, where in self._strings(found, "facts", "file or directory paths"):
            full = os.path.normpath(os.path.join(self.root, entry))
            real = os.path.realpath(full)
            if entry.startswith("~") or not (
                real == real_root or real.startswith(real_root.rstrip(os.sep) + os.sep)
            ):
                self._report(
                    CONFIG_BAD_VALUE,
                    where,
                    f"facts: {entry} lies outside the repository ({self.root}); a "
                    "repository names facts only inside itself. To read facts from there, "
                    "name the path yourself: the editor's hiera.factsPaths setting, or "
                    "hiera-ls check --facts-path",
                )
                continue
            if full not in out:
                out.append(full)
        return tuple(out)

    def _code(self, pattern: str, where: Path, on_key: bool = False) -> bool:
        self.code_places.append((pattern, self._span(where, on_key)))
        return True

    def _codes(self, found: dict[str, object], name: str) -> tuple[str, ...]:
        out: list[str] = []
        for pattern, where in self._strings(found, name, "codes or globs such as yaml11-*"):
            if self._code(pattern, where) and pattern not in out:
                out.append(pattern)
        return tuple(out)

    def _mapping(self, found: dict[str, object], name: str, what: str) -> dict[object, object]:
        value = found.get(name)
        if value is None:
            return {}
        if not isinstance(value, dict):
            self._report(CONFIG_BAD_VALUE, (name,), f"{name} must be a mapping of {what}")
            return {}
        return value

    def _severity(self, found: dict[str, object]) -> tuple[tuple[str, Severity | None], ...]:
        out: list[tuple[str, Severity | None]] = []
        choices = "error, warning, info, hint or off"
        for key, value in self._mapping(found, "severity", "codes to severities").items():
            if not isinstance(key, str):
                self._report(CONFIG_BAD_VALUE, ("severity", key), "A code must be a string")
                continue
            if not self._code(key, ("severity", key), on_key=True):
                continue
            if value is False:  # `off` unquoted: YAML 1.1 reads it as false
                out.append((key, None))
            elif isinstance(value, str) and value in SEVERITY_NAMES:
                out.append((key, SEVERITY_NAMES[value]))
            else:
                message = f"The severity of {key} must be {choices}"
                self._report(CONFIG_BAD_VALUE, ("severity", key), message)
        return tuple(out)

    def _rules(self, found: dict[str, object]) -> tuple[PathRule, ...]:
        rules: list[PathRule] = []
        excludes = [p for p, _ in self._strings(found, "exclude", "gitignore-style patterns")]
        if excludes:
            rules.append(PathRule.of(tuple(excludes), ()))
        per_path = self._mapping(found, "per-path", "path patterns to lists of codes")
        for key, value in per_path.items():
            if not isinstance(key, str) or not key:
                self._report(CONFIG_BAD_VALUE, ("per-path", key), "A path pattern is a string")
                continue
            items = value if isinstance(value, list) else [value]
            codes: list[str] = []
            for i, item in enumerate(items):
                where: Path = ("per-path", key, i) if isinstance(value, list) else ("per-path", key)
                if not isinstance(item, str) or not item:
                    self._report(
                        CONFIG_BAD_VALUE,
                        where,
                        f"per-path: {key} takes a list of codes or globs",
                    )
                elif self._code(item, where):
                    codes.append(item)
            if codes:
                rules.append(PathRule.of((key,), tuple(codes)))
        return tuple(rules)

    def _backends(self, found: dict[str, object]) -> tuple[tuple[str, str], ...]:
        out: list[tuple[str, str]] = []
        readers = ", ".join(READERS)
        for key, value in self._mapping(found, "backends", "function names to readers").items():
            if not isinstance(key, str) or not key:
                self._report(CONFIG_BAD_VALUE, ("backends", key), "A function name is a string")
            elif not isinstance(value, str) or value not in READERS:
                self._report(
                    CONFIG_BAD_VALUE,
                    ("backends", key),
                    f"backends: {key} must name one of hiera-ls' readers: {readers}",
                )
            else:
                out.append((key, value))
        return tuple(out)

    def _puppetdb(self, found: dict[str, object]) -> PuppetDBSettings:
        given: dict[str, object] = {}
        for key, value in self._mapping(found, "puppetdb", "PuppetDB settings").items():
            where: Path = ("puppetdb", key)
            if not isinstance(key, str) or key not in PUPPETDB_FIELDS:
                known = ", ".join(PUPPETDB_FIELDS)
                message = f"Unknown setting puppetdb: {key!s}: hiera-ls reads {known}"
                self._report(CONFIG_UNKNOWN_SETTING, where, message, on_key=True)
            elif value is None:
                continue
            elif (problem := _puppetdb_problem(key, value)) is not None:
                self._report(CONFIG_BAD_VALUE, where, f"puppetdb: {problem}")
            elif key in ("query", *FILE_FIELDS) and (not isinstance(value, str) or not value):
                what = "a query (PQL or JSON AST)" if key == "query" else "a file path"
                self._report(CONFIG_BAD_VALUE, where, f"puppetdb: {key} must be {what}")
            elif key in FILE_FIELDS:
                assert isinstance(value, str)
                given[key] = expand_path(value, self.root)
            else:
                given[key] = float(value) if key == "timeout" else value  # type: ignore[arg-type]
        return PuppetDBSettings(**given)  # type: ignore[arg-type]

    # ------------------------------------------------------------------ reporting

    def _report(self, rule: Rule, where: Path, message: str, on_key: bool = False) -> None:
        self.problems.append(rule.at(message, self.path, self._span(where, on_key)))

    def _span(self, where: Path, on_key: bool) -> Span:
        spans = self.doc.nodes.get(where)
        if spans is None:
            return Span.of(0, 0, 0, 0)
        if on_key and spans.key is not None:
            return spans.key
        return spans.value


def _puppetdb_problem(key: str, value: object) -> str | None:
    if key == "url":
        return url_problem(value)
    if key == "timeout":
        return timeout_problem(value)
    return None


def _order(p: Problem) -> tuple[object, ...]:
    return (p.where.span.start, p.where.span.end, p.code)
