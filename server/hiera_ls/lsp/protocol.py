"""hiera-ls' own messages beside LSP's, for clients that show pickers, panels and a status bar.

One module names them, so the server, the VS Code client (``client-vscode/src/protocol.ts``
mirrors these names) and the README cannot drift apart:

- request ``hiera/listFactsProfiles`` -> ``[FactsProfile]`` (also the command
  ``hiera.listFactsProfiles``);
- request ``hiera/selectFactsProfile`` ``{name}`` -> ``{active, profiles}``; the command
  ``hiera.selectFactsProfile`` takes the name as its argument (null or "" clears it);
- notification ``hiera/activeFactsProfile`` ``{name}`` (name or null) whenever the active
  profile changes, and once after start-up;
- request ``hiera/explain`` ``{uri, position}`` or ``{key[, uri]}`` -> ``ExplainResult`` or
  null (also the command ``hiera.explain`` with that object as its argument);
- request ``hiera/eyamlDecrypt`` ``{uri, position}`` -> ``{key, level, text, error}`` or
  null: the plaintext of the eyaml value there, for a read-only view (also the command
  ``hiera.eyamlDecrypt``, which the "Decrypt to a read-only view" code action names);
- request ``hiera/eyamlEditText`` ``{uri}`` -> ``{text, level, error}``: the file with
  ``DEC(n)::PKCS7[plaintext]!`` markers (eyaml edit's format), for an untitled editor;
- request ``hiera/eyamlReencrypt`` ``{uri, text}`` -> ``{edits, error}``: the TextEdits of
  the document that write such a text back, only changed values encrypted again;
- request ``hiera/compareKey`` ``{uri, key}`` -> ``{key, path, profiles: [{name, before,
  after, changed}], text}`` or null: every facts profile's value of the key from the saved
  file and from the unsaved buffer (also the command ``hiera.compareKey``, which the change
  code lens names; ``text`` is the whole comparison as Markdown);
- request ``hiera/keyView`` ``{uri, position}`` or ``{key[, uri]}`` -> ``{key, environment,
  profile, profiles: [{name, active, found, value, encrypted, error}], hierarchy: [{name,
  layer, module, default_hierarchy, paths: [{path, shown, exists, holds_key, value,
  encrypted, line, error}], skipped}], notes, fleet}`` or null: the side view of the key for
  every facts profile and the active profile's levels (features/key_view.py); ``fleet``
  (null without one): PuppetDB's nodes by answer, ``{source, nodes, grouped, groups: [{nodes,
  examples, active, found, value, encrypted, error}]}``, ``grouped`` false (and no groups)
  while the server groups them.

Results are dataclasses that pygls' converter writes as JSON objects with the same field
names. Parameters are read leniently (``from_json``): pygls hands a custom request's params
over as namedtuples, editors send what their users type, and an argument that does not fit
is treated as absent rather than failing the request.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from lsprotocol import types

# the answers' types are the features' own (their modules load when a handler first runs)
from hiera_ls.features.profiles import ProfileItem

__all__ = [
    "ACTIVE_FACTS_PROFILE",
    "CMD_COMPARE_KEY",
    "CMD_EXPLAIN",
    "CMD_EYAML_DECRYPT",
    "CMD_LIST_FACTS_PROFILES",
    "CMD_SELECT_FACTS_PROFILE",
    "COMPARE_KEY",
    "EXPLAIN",
    "EYAML_DECRYPT",
    "EYAML_EDIT_TEXT",
    "EYAML_REENCRYPT",
    "KEY_VIEW",
    "LIST_FACTS_PROFILES",
    "SELECT_FACTS_PROFILE",
    "ActiveFactsProfileParams",
    "CompareKeyParams",
    "ExplainParams",
    "EyamlParams",
    "EyamlReencryptResult",
    "FactsProfile",
    "KeyViewParams",
    "SelectFactsProfileParams",
    "SelectFactsProfileResult",
    "from_namedtuples",
]

LIST_FACTS_PROFILES = "hiera/listFactsProfiles"
SELECT_FACTS_PROFILE = "hiera/selectFactsProfile"
EXPLAIN = "hiera/explain"
ACTIVE_FACTS_PROFILE = "hiera/activeFactsProfile"
CMD_LIST_FACTS_PROFILES = "hiera.listFactsProfiles"
CMD_SELECT_FACTS_PROFILE = "hiera.selectFactsProfile"
CMD_EXPLAIN = "hiera.explain"
EYAML_DECRYPT = "hiera/eyamlDecrypt"
EYAML_EDIT_TEXT = "hiera/eyamlEditText"
EYAML_REENCRYPT = "hiera/eyamlReencrypt"
# the command the "Decrypt to a read-only view" code action names (features/eyaml.py)
CMD_EYAML_DECRYPT = "hiera.eyamlDecrypt"
COMPARE_KEY = "hiera/compareKey"
# the command the change code lens names (lsp/change_lens.py)
CMD_COMPARE_KEY = "hiera.compareKey"
KEY_VIEW = "hiera/keyView"

FactsProfile = ProfileItem
"""One entry of ``hiera/listFactsProfiles``: ``{name, path, active, error}``."""


@dataclass(frozen=True, slots=True)
class SelectFactsProfileParams:
    """The ``hiera/selectFactsProfile`` request's parameters."""

    name: str | None  # None clears the selection

    @classmethod
    def from_json(cls, data: object) -> SelectFactsProfileParams:
        """``{name}`` from the request, or the bare name a command gets as its argument."""
        data = from_namedtuples(data)
        name = data.get("name") if isinstance(data, dict) else data
        return cls(name if isinstance(name, str) and name else None)


@dataclass(frozen=True, slots=True)
class SelectFactsProfileResult:
    """The ``hiera/selectFactsProfile`` answer: the active profile and the list."""

    active: str | None
    profiles: list[FactsProfile]


@dataclass(frozen=True, slots=True)
class ActiveFactsProfileParams:
    """The ``hiera/activeFactsProfile`` notification's parameters."""

    name: str | None


@dataclass(frozen=True, slots=True)
class ExplainParams:
    """The key under ``position`` in ``uri``, or the ``key`` named (in ``uri``'s environment)."""

    uri: str | None = None
    position: types.Position | None = None
    key: str | None = None

    @classmethod
    def from_json(cls, data: object) -> ExplainParams | None:
        data = from_namedtuples(data)
        if not isinstance(data, dict):
            return None
        uri = data.get("uri")
        key = data.get("key")
        position = data.get("position")
        return cls(
            uri=uri if isinstance(uri, str) else None,
            position=_position(position),
            key=key if isinstance(key, str) and key else None,
        )


KeyViewParams = ExplainParams
"""``hiera/keyView`` names its key as ``hiera/explain`` does: under the cursor, or by name."""


@dataclass(frozen=True, slots=True)
class EyamlParams:
    """A document, with the position of a value or the edited text of the whole file."""

    uri: str
    position: types.Position | None = None
    text: str | None = None

    @classmethod
    def from_json(cls, data: object) -> EyamlParams | None:
        data = from_namedtuples(data)
        if isinstance(data, list) and data:  # a command's first argument
            data = data[0]
        if not isinstance(data, dict) or not isinstance(data.get("uri"), str):
            return None
        text = data.get("text")
        return cls(
            uri=data["uri"],
            position=_position(data.get("position")),
            text=text if isinstance(text, str) else None,
        )


@dataclass(frozen=True, slots=True)
class CompareKeyParams:
    """A data file and a root key of it."""

    uri: str
    key: str

    @classmethod
    def from_json(cls, data: object) -> CompareKeyParams | None:
        data = from_namedtuples(data)
        if isinstance(data, list) and data:  # a command's first argument
            data = data[0]
        if not isinstance(data, dict):
            return None
        uri, key = data.get("uri"), data.get("key")
        if not isinstance(uri, str) or not isinstance(key, str) or not key:
            return None
        return cls(uri, key)


@dataclass(frozen=True, slots=True)
class EyamlReencryptResult:
    """The edits of the document (its own uri) that write the edited secrets back."""

    edits: list[types.TextEdit] | None
    error: str | None


def _position(data: object) -> types.Position | None:
    """An LSP position, or None when ``data`` is not one (LSP numbers are below 2^31)."""
    if not isinstance(data, dict):
        return None
    line = data.get("line", 0)
    character = data.get("character", 0)
    fits = all(
        isinstance(n, int) and not isinstance(n, bool) and 0 <= n < 2**31 for n in (line, character)
    )
    return types.Position(line=line, character=character) if fits else None


def from_namedtuples(value: object) -> object:
    """pygls hands unknown JSON objects over as namedtuples; features want dicts."""
    if hasattr(value, "_asdict"):
        return {k: from_namedtuples(v) for k, v in value._asdict().items()}
    if isinstance(value, Mapping):
        return {str(k): from_namedtuples(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [from_namedtuples(v) for v in value]
    return value
