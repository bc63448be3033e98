"""eyaml in the editor: encrypt a value, decrypt one on request, edit a file's secrets.

- :func:`code_actions`: "Encrypt value" for the string under the cursor or selection, with
  the public key of the eyaml level that reads the file (no private key needed), written in
  the block form ``eyaml encrypt -o block`` writes; "Decrypt to a read-only view" for a
  value holding ``ENC[...]``, which only names the command (:data:`DECRYPT_COMMAND`): nothing
  is decrypted until the user runs it.
- :func:`decrypt_at`: the plaintext of the value under the cursor, for that command.
- :func:`edit_text` and :func:`reencrypt`: ``eyaml edit``'s flow, the file with
  ``DEC(n)::PKCS7[plaintext]!`` markers, and back: only changed values are encrypted again,
  every other byte (unchanged values' ciphertext included) stays as it is.
- :func:`hover_lines`: which level's key a hovered value is encrypted with, and the
  decrypted preview when the user enabled ``hiera.eyaml.decryptInHover``.

Plaintext leaves these functions only in their results, which the client asked for; it is
never put in a log line, a diagnostic or a message.
"""

from __future__ import annotations

import difflib
import os
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from lsprotocol import types

from hiera_ls.checks.cross_file import role_of
from hiera_ls.features.eyaml_kinds import DECRYPT_KIND, ENCRYPT_KIND
from hiera_ls.features.lsp_ranges import Converter
from hiera_ls.features.render import code, yaml_block
from hiera_ls.features.targets import key_text, node_at, value_at
from hiera_ls.project.eyaml_keys import (
    LevelKeys,
    eyaml_levels,
    is_eyaml_level,
    key_pair,
    level_keys,
    public_certificate,
)
from hiera_ls.project.model import Environment
from hiera_ls.project.workspace import Snapshot
from hiera_ls.puppet.values import Encrypted
from hiera_ls.source.eyaml import (
    block_form,
    block_indentation,
    dec_marker,
    dec_markers,
    enc_blocks,
    file_tokens,
)
from hiera_ls.source.eyaml_crypto import (
    DecryptError,
    EyamlKeyError,
    KeyPair,
    decrypt_body,
    decrypt_value,
    encrypt,
)
from hiera_ls.source.spans import Position, Span

DECRYPT_COMMAND = "hiera.eyamlDecrypt"  # lsp/protocol.py CMD_EYAML_DECRYPT
INDENT = "  "


@dataclass(frozen=True, slots=True)
class EyamlLevel:
    """The eyaml level that reads a file, and the keys it names."""

    name: str
    keys: LevelKeys


def level_of(snapshot: Snapshot, path: str) -> EyamlLevel | None:
    """The highest-priority eyaml level whose locations can name ``path``."""
    view = snapshot.environment_for(path)
    if view is None:
        return None
    for ref in role_of(view.env, {}, path).templates:
        if is_eyaml_level(ref.entry):
            return EyamlLevel(ref.entry.name, level_keys(ref.layer, ref.entry))
    return None


@dataclass(frozen=True, slots=True)
class StringAt:
    """A string value of a data file, where it is written."""

    node_path: tuple[object, ...]
    value: str
    span: Span


def string_at(snapshot: Snapshot, path: str, pos: Position) -> StringAt | None:
    """The string value under ``pos`` (on its key too)."""
    df = snapshot.data_file(path)
    if df is None:
        return None
    hit = node_at(df.nodes, pos)
    if hit is None:
        return None
    node_path = hit[0]
    spans = df.nodes.get(node_path)
    value = value_at(df.data, node_path)
    if spans is None or not isinstance(value, str):
        return None
    return StringAt(node_path, str(value), spans.value)


# ---------------------------------------------------------------------- code actions


def code_actions(
    snapshot: Snapshot, path: str, uri: str, span: Span, conv: Converter
) -> list[types.CodeAction]:
    """The eyaml actions for the value at the start of ``span`` (a cursor or a selection)."""
    found = string_at(snapshot, path, span.start)
    if found is None:
        return []
    level = level_of(snapshot, path)
    if level is None:
        return []
    if "ENC[" in found.value:
        return [_decrypt_action(level, uri, conv.to_lsp(span.start), found)]
    return [_encrypt_action(snapshot, path, uri, conv, level, found)]


def _decrypt_action(
    level: EyamlLevel, uri: str, position: types.Position, found: StringAt
) -> types.CodeAction:
    why = _private_key_problem(level.keys)
    return types.CodeAction(
        title=f"Decrypt to a read-only view (key of level '{level.name}')",
        kind=DECRYPT_KIND,
        command=types.Command(
            title="Decrypt to a read-only view",
            command=DECRYPT_COMMAND,
            arguments=[
                {"uri": uri, "position": {"line": position.line, "character": position.character}}
            ],
        ),
        disabled=types.CodeActionDisabled(reason=why) if why else None,
    )


def _private_key_problem(keys: LevelKeys) -> str | None:
    option = keys.private
    if option is None or option.path is None:
        return f"hierarchy level '{keys.level}' names no usable pkcs7_private_key"
    if not os.access(option.path, os.R_OK):
        return f"the private key of level '{keys.level}' is not readable here"
    return None


def _encrypt_action(
    snapshot: Snapshot,
    path: str,
    uri: str,
    conv: Converter,
    level: EyamlLevel,
    found: StringAt,
) -> types.CodeAction:
    title = f"Encrypt value with eyaml (public key of level '{level.name}')"
    text = snapshot.text(path) or ""
    try:
        certificate = public_certificate(level.keys)
    except EyamlKeyError as e:
        return types.CodeAction(
            title=title,
            kind=ENCRYPT_KIND,
            disabled=types.CodeActionDisabled(reason=str(e)),
        )
    token = encrypt(found.value, certificate)
    new_text = _written(text, found.span, token)
    edit = types.TextEdit(range=conv.to_lsp_range(found.span), new_text=new_text)
    return types.CodeAction(
        title=title,
        kind=ENCRYPT_KIND,
        edit=types.WorkspaceEdit(changes={uri: [edit]}),
    )


def _written(text: str, span: Span, token: str) -> str:
    """The token as ``eyaml encrypt -o block`` writes it (``>`` then indented lines), or on
    one line, quoted, where a block scalar cannot stand (inside ``[...]`` or ``{...}``, where
    the token's own brackets would end the collection)."""
    lines = text.split("\n")
    line = lines[span.start.line] if span.start.line < len(lines) else ""
    before = line[: span.start.column]
    if (
        "[" in before
        or "{" in before
        or (before.strip() and not before.rstrip().endswith((":", "-")))
    ):
        return f'"{token}"'  # base64 holds no quote or backslash
    indent = line[: len(line) - len(line.lstrip(" "))] + INDENT
    return ">\n" + indent + block_form(token, indent)


# ---------------------------------------------------------------------- decrypt on request


@dataclass(frozen=True, slots=True)
class DecryptResult:
    """The plaintext of a value, for a read-only view; ``error`` says why there is none."""

    key: str
    level: str
    text: str | None
    error: str | None


def decrypt_at(snapshot: Snapshot, path: str, pos: Position) -> DecryptResult | None:
    found = string_at(snapshot, path, pos)
    if found is None or "ENC[" not in found.value:
        return None
    key = key_text(found.node_path)
    level = level_of(snapshot, path)
    if level is None:
        return DecryptResult(key, "", None, "no eyaml_lookup_key level reads this file")
    try:
        plain = decrypt_value(found.value, [key_pair(level.keys)])
    except (EyamlKeyError, DecryptError) as e:
        return DecryptResult(key, level.name, None, str(e))
    return DecryptResult(key, level.name, plain, None)


# ---------------------------------------------------------------------- edit in place


@dataclass(frozen=True, slots=True)
class EditText:
    """The file with ``DEC(n)::PKCS7[...]!`` markers, for an untitled editor."""

    text: str | None
    level: str
    error: str | None


def edit_text(snapshot: Snapshot, path: str) -> EditText:
    text = snapshot.text(path)
    level = level_of(snapshot, path)
    if text is None or level is None:
        return EditText(None, "", "no eyaml_lookup_key level reads this file")
    try:
        return EditText(marked_text(text, key_pair(level.keys)), level.name, None)
    except (EyamlKeyError, DecryptError) as e:
        return EditText(None, level.name, str(e))


def marked_text(text: str, pair: KeyPair) -> str:
    """``text`` with each PKCS7 ``ENC[...]`` replaced by ``DEC(n)::PKCS7[plaintext]!``."""
    out: list[str] = []
    at = 0
    for number, (start, end), plain in _decrypted_tokens(text, pair):
        out.append(text[at:start])
        out.append(dec_marker(number, "PKCS7", plain) if plain is not None else text[start:end])
        at = end
    out.append(text[at:])
    return "".join(out)


def _decrypted_tokens(
    text: str, pair: KeyPair
) -> Iterator[tuple[int, tuple[int, int], str | None]]:
    """(number, (start, end), plaintext) of each ENC token of the file; GPG's stay closed."""
    for number, token in enumerate(file_tokens(text), start=1):
        plain = decrypt_body(token.body, pair) if token.scheme == "PKCS7" else None
        yield number, (token.start, token.end), plain


@dataclass(frozen=True, slots=True)
class Reencrypted:
    """Edits of the file (original ranges, new text) that write the edited secrets back."""

    edits: list[tuple[Span, str]]
    error: str | None


def reencrypt(snapshot: Snapshot, path: str, edited: str) -> Reencrypted:
    original = snapshot.text(path)
    level = level_of(snapshot, path)
    if original is None or level is None:
        return Reencrypted([], "no eyaml_lookup_key level reads this file")
    try:
        new_text = reencrypted_text(original, edited, key_pair(level.keys))
    except (EyamlKeyError, DecryptError) as e:
        return Reencrypted([], str(e))
    return Reencrypted(_line_edits(original, new_text), None)


def reencrypted_text(original: str, edited: str, pair: KeyPair) -> str:
    """``edited`` with its ``DEC::PKCS7[...]!`` markers encrypted again: a numbered marker
    whose plaintext is unchanged gets the original's ciphertext back, exactly as written;
    a changed or new one is encrypted, in block form after ``>`` (eyaml edit's rule)."""
    tokens = {n: (span, plain) for n, span, plain in _decrypted_tokens(original, pair)}
    out: list[str] = []
    at = 0
    for marker in dec_markers(edited):
        out.append(edited[at : marker.start])
        at = marker.end
        old = tokens.get(marker.number) if marker.number is not None else None
        if old is not None and old[1] == marker.plaintext:
            out.append(original[old[0][0] : old[0][1]])  # unchanged: same ciphertext
            continue
        if marker.scheme != "PKCS7":
            raise DecryptError(f"hiera-ls encrypts PKCS7 only, not {marker.scheme}")
        token = encrypt(marker.plaintext, pair.certificate)
        indent = block_indentation(edited, marker.start)
        out.append(block_form(token, indent) if indent is not None else token)
    out.append(edited[at:])
    return "".join(out)


def _line_edits(old: str, new: str) -> list[tuple[Span, str]]:
    """The smallest whole-line replacements turning ``old`` into ``new``."""
    a = old.splitlines(keepends=True)
    b = new.splitlines(keepends=True)
    out: list[tuple[Span, str]] = []
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if tag == "equal":
            continue
        out.append((Span.of(*_line_start(a, i1), *_line_start(a, i2)), "".join(b[j1:j2])))
    return out


def _line_start(lines: list[str], index: int) -> tuple[int, int]:
    """Where line ``index`` starts; past a last line without newline, that line's end."""
    if index < len(lines) or not lines or lines[-1].endswith(("\n", "\r")):
        return index, 0
    return len(lines) - 1, len(lines[-1])


# ---------------------------------------------------------------------- hover


def hover_lines(snapshot: Snapshot, value: object, files: list[tuple[str, str]]) -> list[str]:
    """What the hover says of an encrypted merged value: the levels whose keys it needs and,
    with ``hiera.eyaml.decryptInHover`` on and the private keys readable, the plaintext.

    ``files``: (level name, file) of each contribution to the value.
    """
    if not has_encrypted(value):
        return []
    levels: list[EyamlLevel] = []
    for name, file in files:
        level = level_of(snapshot, file)
        if level is not None and level.name == name and level not in levels:
            levels.append(level)
    names = ", ".join(code(level.name) for level in levels) or "unknown"
    schemes = ", ".join(sorted({b.scheme for s in _strings(value) for b in enc_blocks(s)}))
    lines = [f"_encrypted ({schemes or 'PKCS7'}, key of level {names})_", ""]
    if not snapshot.settings.eyaml_decrypt_in_hover:
        return lines
    try:
        pairs = [key_pair(level.keys) for level in levels]
        plain = decrypt_tree(value, pairs)
    except (EyamlKeyError, DecryptError) as e:
        return [*lines, f"_Not decrypted: {e}_", ""]
    return [
        *lines,
        "**Decrypted** (shown because `hiera.eyaml.decryptInHover` is on):",
        "",
        yaml_block(plain),
        "",
    ]


def _strings(value: object) -> Iterator[str]:
    if isinstance(value, Encrypted):
        yield str(value)
    elif isinstance(value, dict):
        for v in value.values():
            yield from _strings(v)
    elif isinstance(value, list):
        for v in value:
            yield from _strings(v)


def has_encrypted(value: object) -> bool:
    if isinstance(value, Encrypted):
        return True
    if isinstance(value, dict):
        return any(has_encrypted(v) for v in value.values())
    if isinstance(value, list):
        return any(has_encrypted(v) for v in value)
    return False


def decrypt_tree(value: object, pairs: Sequence[KeyPair]) -> object:
    """``value`` with each eyaml string decrypted (hash keys are never encrypted)."""
    if isinstance(value, Encrypted):
        return decrypt_value(str(value), pairs)
    if isinstance(value, dict):
        return {k: decrypt_tree(v, pairs) for k, v in value.items()}
    if isinstance(value, list):
        return [decrypt_tree(v, pairs) for v in value]
    return value


def environment_pairs(env: Environment) -> tuple[list[KeyPair], list[str]]:
    """The key pairs of every eyaml level of the environment that can be read, each pair
    once; and why the others cannot (never a key's content)."""
    pairs: list[KeyPair] = []
    problems: list[str] = []
    seen: set[tuple[str | None, str | None]] = set()
    for layer in env.layers:
        for _, keys in eyaml_levels(layer):
            names = (
                keys.public.path if keys.public else None,
                keys.private.path if keys.private else None,
            )
            if names in seen:
                continue
            seen.add(names)
            try:
                pairs.append(key_pair(keys))
            except EyamlKeyError as e:
                problems.append(str(e))
    return pairs, problems
