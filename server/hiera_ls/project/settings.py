"""The user's settings for one workspace, from whatever shape the editor sends them in.

Editors disagree on the shape: VS Code sends the ``hiera`` section as a nested object
(``{"factsProfile": ...}``), some clients send the whole configuration
(``{"hiera": {...}}``) or flat dotted names (``{"hiera.factsProfile": ...}``).  All three
are accepted; a value of the wrong type is dropped with a message rather than trusted.

``moduleDirs`` is the one setting where the server may read a repository differently from
Puppet: ``"conventional"`` (the default) also reads modules in ``site-modules/``, ``site/``
and ``modules/`` that the modulepath lacks, ``"modulepath"`` reads Puppet's modulepath only
(:class:`ModuleDirs` in project/environments.py, docs/differences.md).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace

from hiera_ls.project.backends import invalid_backends, usable_backends
from hiera_ls.project.environments import ModuleDirs
from hiera_ls.project.puppetdb_settings import FIELDS as PUPPETDB_FIELDS
from hiera_ls.project.puppetdb_settings import (
    PuppetDBSettings,
    normal_url,
    timeout_problem,
    url_problem,
)
from hiera_ls.project.targets import TARGET_NAMES

SECTION = "hiera"
_FIELDS = {
    "factsProfile": "facts_profile",
    "factsPaths": "facts_paths",
    "hieraConfig": "hiera_config",
    "environmentPath": "environment_path",
    "environment": "environment",
    "target": "target",
    "strictVariables": "strict_variables",
    "moduleDirs": "module_dirs",
    "backends": "backends",
    "eyaml.decryptInHover": "eyaml_decrypt_in_hover",
    "inlayHints.enabled": "inlay_hints",
    "maxFiles": "max_files",
    "puppetdb.allowedUrls": "puppetdb_allowed",
    **{f"puppetdb.{name}": "puppetdb" for name in PUPPETDB_FIELDS},
}
_NESTED = ("eyaml", "inlayHints", "puppetdb")  # groups of dotted names
_MODULE_DIRS = {m.value: m for m in ModuleDirs}


@dataclass(frozen=True, slots=True)
class Settings:
    """What the user set for the server (or the CLI's flags): one immutable value."""

    facts_profile: str | None = None  # profile name (certname) whose node hovers describe
    facts_paths: tuple[str, ...] = ()  # extra files or directories of facts profiles
    hiera_config: str | None = None  # the global layer's hiera.yaml
    environment_path: str | None = None  # a directory of environments (Puppet's environmentpath)
    environment: str | None = None  # environment name for a workspace that is one environment
    # the Puppet the workspace is checked for (project/targets.py); None: .hiera-ls.yaml's
    # target, else puppet8
    target: str | None = None
    strict_variables: bool | None = None  # deprecated: picks puppet8 (true) or puppet7 (false)
    # Which directories hold modules; the CLI's default is MODULEPATH (Puppet's answer).
    module_dirs: ModuleDirs = ModuleDirs.CONVENTIONAL
    # custom backend function -> the reader hiera-ls reads its levels with (project/backends.py)
    # (pairs, so settings stay hashable)
    backends: tuple[tuple[str, str], ...] = ()
    # hover shows eyaml plaintext (only the user can turn this on; never by default)
    eyaml_decrypt_in_hover: bool = False
    # inlay hints (values for the active profile written into data files)
    inlay_hints: bool = True
    # files one listing of the workspace holds (FileAccess.max_files); a cut is reported
    max_files: int = 20_000
    # the user's PuppetDB, whose nodes the picker lists (hiera_ls.fleet); VS Code takes
    # these from the user's settings only, never a workspace's (machine scope)
    puppetdb: PuppetDBSettings = field(default_factory=PuppetDBSettings)
    # PuppetDB URLs a repository's .hiera-ls.yaml may name (hiera_ls.fleet.config)
    puppetdb_allowed: tuple[str, ...] = ()
    given: frozenset[str] = field(default_factory=frozenset)  # which fields the user set


@dataclass(frozen=True, slots=True)
class ParsedSettings:
    """The settings read from the client, with the values that were ignored."""

    settings: Settings
    messages: tuple[str, ...]  # values that were ignored, and why


def _section(raw: object) -> dict[str, object]:
    """The ``hiera`` section's fields, from any of the accepted shapes."""
    if not isinstance(raw, Mapping):
        return {}
    out: dict[str, object] = {}
    nested = raw.get(SECTION)
    if isinstance(nested, Mapping):
        out.update({str(k): v for k, v in nested.items()})
    for k, v in raw.items():
        key = str(k)
        if key.startswith(SECTION + "."):
            out[key[len(SECTION) + 1 :]] = v
        elif key in _FIELDS or key in _NESTED:
            out[key] = v
    for group in _NESTED:
        nested_group = out.pop(group, None)
        if isinstance(nested_group, Mapping):  # VS Code nests dotted names: {"eyaml": {...}}
            out.update(
                {f"{group}.{k}": v for k, v in nested_group.items() if f"{group}.{k}" not in out}
            )
    return out


def parse_settings(raw: object, base: Settings | None = None) -> ParsedSettings:
    """Lay ``raw`` over ``base``; null and absent values keep the base value."""
    current = base or Settings()
    values = _section(raw)
    messages: list[str] = []
    changes: dict[str, object] = {}
    puppetdb: dict[str, object] = {}
    for name, attr in _FIELDS.items():
        if name not in values or values[name] is None:
            continue
        value = values[name]
        if attr == "puppetdb":
            field_name = name.split(".", 1)[1]
            problem = _puppetdb_problem(field_name, value)
            if value == "":
                puppetdb[field_name] = None  # cleared
            elif problem is not None:
                messages.append(f"hiera.{name}: {problem}; ignored")
            else:
                puppetdb[field_name] = float(value) if field_name == "timeout" else value  # type: ignore[arg-type]
            continue
        if attr == "puppetdb_allowed":
            if isinstance(value, str):
                value = [value]
            if not isinstance(value, list) or any(url_problem(u) for u in value):
                messages.append(f"hiera.{name} must be a list of http(s) URLs; ignored")
                continue
            changes[attr] = tuple(normal_url(u) for u in value)
            continue
        if attr == "facts_paths":
            if isinstance(value, str):
                value = [value]
            if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
                messages.append(f"hiera.{name} must be a list of paths; ignored")
                continue
            changes[attr] = tuple(v for v in value if v)
        elif attr in ("strict_variables", "eyaml_decrypt_in_hover", "inlay_hints"):
            if not isinstance(value, bool):
                messages.append(f"hiera.{name} must be true or false; ignored")
                continue
            changes[attr] = value
        elif attr == "backends":
            if not isinstance(value, Mapping):
                messages.append(f"hiera.{name} must map function names to readers; ignored")
                continue
            messages.extend(f"hiera.{name}: {m}; ignored" for m in invalid_backends(value))
            changes[attr] = tuple(sorted(usable_backends(value).items()))
        elif attr == "target":
            if not isinstance(value, str) or value not in TARGET_NAMES:
                choices = ", ".join(f'"{v}"' for v in TARGET_NAMES)
                messages.append(f"hiera.{name} must be one of {choices}; ignored")
                continue
            changes[attr] = value
        elif attr == "max_files":
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                messages.append(f"hiera.{name} must be a positive number of files; ignored")
                continue
            changes[attr] = value
        elif attr == "module_dirs":
            if not isinstance(value, str) or value not in _MODULE_DIRS:
                choices = " or ".join(f'"{v}"' for v in _MODULE_DIRS)
                messages.append(f"hiera.{name} must be {choices}; ignored")
                continue
            changes[attr] = _MODULE_DIRS[value]
        else:
            if not isinstance(value, str):
                messages.append(f"hiera.{name} must be a string; ignored")
                continue
            changes[attr] = value or None
    if puppetdb:
        changes["puppetdb"] = replace(current.puppetdb, **puppetdb)  # type: ignore[arg-type]
    if not changes:
        return ParsedSettings(current, tuple(messages))
    given = current.given | frozenset(changes)
    return ParsedSettings(replace(current, **changes, given=given), tuple(messages))  # type: ignore[arg-type]


def _puppetdb_problem(name: str, value: object) -> str | None:
    if name == "url":
        return url_problem(value)
    if name == "timeout":
        return timeout_problem(value)
    if not isinstance(value, str):
        return "must be a string"
    return None
