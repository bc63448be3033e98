"""Loaded data files keyed by content, so an edit re-parses one file (or part of it), not a
project.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from hiera_ls.source.data_file import (
    DataFile,
    load_custom_yaml_data,
    load_hocon_data,
    load_json_data,
    load_yaml_data,
    load_yaml_values,
    reload_yaml_data,
    unreadable_data,
)
from hiera_ls.source.files import FileAccess, FileText, Stamp
from hiera_ls.source.interpolation import holds_token

CUSTOM_YAML = "custom_yaml"  # a YAML file only custom (unread) backends read

LOADERS = {
    "yaml_data": load_yaml_data,
    "json_data": load_json_data,
    "hocon_data": load_hocon_data,
    CUSTOM_YAML: load_custom_yaml_data,
}
# eyaml files and expand_path's are YAML files: one parse serves them all
SAME_AS = {"eyaml_lookup_key": "yaml_data", "expand_path": "yaml_data"}


@dataclass(slots=True)
class DataCache:
    """path -> (stamp, DataFile); owned by one CLI run or one language-server workspace."""

    _entries: dict[tuple[str, str], tuple[Stamp, DataFile]] = field(default_factory=dict)
    # a HOCON file's includes, each with its stamp when read (None: absent): an edit of an
    # included file changes what the including file holds
    _included: dict[str, tuple[tuple[str, Stamp | None], ...]] = field(default_factory=dict)
    # (path, root key) -> (its value when asked, whether it holds a token): see holds_token
    _tokens: dict[tuple[str, object], tuple[object, bool]] = field(default_factory=dict)
    # False: YAML files that load cleanly are read for their values alone, without their
    # nodes' ranges (``diff``, whose report shows no position in a data file)
    positions: bool = True

    def holds_token(self, path: str, root: object, value: object) -> bool:
        """Whether ``value``, ``root``'s in the file at ``path``, holds an interpolation
        token: worked out once per value, for every node's lookups (a value without one is
        what every node gets, its interpolation walks nothing)."""
        slot = (path, root)
        known = self._tokens.get(slot)
        if known is not None and known[0] is value:
            return known[1]
        found = holds_token(value)
        self._tokens[slot] = (value, found)
        return found

    def get(self, files: FileAccess, path: str, function: str) -> DataFile | None:
        """The file as ``function`` (a reader of project/backends.py) reads it; None when
        absent.
        """
        function = SAME_AS.get(function, function)
        stamp = files.stamp(path)
        if stamp is None:
            return None
        entry = self._entries.get((path, function))
        if entry is not None and entry[0] == stamp and self._includes_same(files, path, function):
            return entry[1]
        found = files.read(path)
        if found is None:
            return None
        text = found.text
        problem = found.problem
        # Psych refuses bytes that are not UTF-8; Ruby's JSON parser reads them as they are.
        if problem is not None and not (
            problem.code == "file-invalid-utf8" and function == "json_data"
        ):
            data = unreadable_data(path, problem)
            self._entries[(path, function)] = (stamp, data)
            return data
        previous_text = entry[0].buffer_text if entry is not None else None
        if entry is not None and previous_text is not None and function == "yaml_data":
            data = reload_yaml_data(
                entry[1], previous_text, text
            )  # an edit: re-parse what it touched
        elif function == "hocon_data":  # its includes are read through the same guards
            data = self._load_hocon(files, path, text)
        elif function == "yaml_data" and not self.positions:
            data = load_yaml_values(path, text)
        else:
            data = LOADERS[function](path, text)
        self._entries[(path, function)] = (stamp, data)
        return data

    def _load_hocon(self, files: FileAccess, path: str, text: str) -> DataFile:
        reader = files.include_reader()
        read: dict[str, None] = {}

        def reading(name: str) -> FileText | None:
            read[name] = None
            return reader.read(name)

        data = load_hocon_data(path, text, replace(reader, read=reading))
        self._included[path] = tuple((name, files.stamp(name)) for name in read)
        return data

    def _includes_same(self, files: FileAccess, path: str, function: str) -> bool:
        if function != "hocon_data":
            return True
        return all(files.stamp(name) == was for name, was in self._included.get(path, ()))

    def forget(self, path: str) -> None:
        for key in [k for k in self._entries if k[0] == path]:
            del self._entries[key]
        self._included.pop(path, None)
