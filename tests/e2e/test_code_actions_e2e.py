"""Quick fixes over LSP: each fix is asked for with the diagnostic the server published,
applied to the text as a client applies it, sent back with didChange and re-checked.

Each case is a data file with the problem (and usually a second, unrelated problem): after
the fix the diagnostic is gone, every other diagnostic is still there, and the text differs
only on the lines of the edit.
"""

from __future__ import annotations

import textwrap
from dataclasses import dataclass
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import LanguageClient, client_capabilities

from tests.e2e.conftest import (
    CONFIG,
    READY,
    init_params,
    open_document,
    uri,
    wait_for_diagnostics,
    wait_for_log,
)

HIERA = """\
version: 5
defaults:
  datadir: data
  data_hash: yaml_data
hierarchy:
  - name: cases
    glob: "cases/*.yaml"
  - name: json cases
    glob: "cases/*.json"
    data_hash: json_data
"""
MODULE_HIERA = """\
version: 5
hierarchy:
  - name: common
    path: common.yaml
"""


@dataclass(frozen=True)
class Case:
    name: str
    text: str
    code: str
    title: str  # the start of the action's title
    fixed: str  # the text after the fix
    preferred: bool = True
    path: str = ""  # default: data/cases/<name>.yaml
    disable: bool = True  # "Disable CODE on this line" is offered (not in JSON)
    also_gone: tuple[str, ...] = ()  # codes the same mistake caused, gone with it

    def rel(self) -> str:
        return self.path or f"data/cases/{self.name}.yaml"


def case(name: str, text: str, code: str, title: str, fixed: str, **kw: object) -> Case:
    return Case(name, textwrap.dedent(text), code, title, textwrap.dedent(fixed), **kw)  # type: ignore[arg-type]


CASES = [
    case(
        "boolean",
        """\
        a: no  # keep this comment
        b: on
        """,
        "yaml11-boolean",
        'Quote "no"',
        """\
        a: "no"  # keep this comment
        b: on
        """,
    ),
    case("octal", "mode: 0644\nb: off\n", "yaml11-octal", 'Quote "0644"', 'mode: "0644"\nb: off\n'),
    case("binary", "flags: 0b101\n", "yaml11-binary", "Quote", 'flags: "0b101"\n'),
    case("base60", "at: 12:30\n", "yaml11-sexagesimal", "Quote", 'at: "12:30"\n'),
    case("separator", "limit: 1,000\n", "yaml11-number-separator", "Quote", 'limit: "1,000"\n'),
    case(
        "exponent",
        "timeout: 1e3\n",
        "yaml11-exponent-string",
        "Write 1.0e+3",
        "timeout: 1.0e+3\n",
        preferred=False,
    ),
    case(
        "date",
        "expires: 2025-01-31 # UTC\nport: 22\n",
        "yaml-date-rejected",
        'Quote "2025-01-31"',
        'expires: "2025-01-31" # UTC\nport: 22\n',
    ),
    case(
        "symbol_value",
        "ensure: :present\n",
        "yaml-symbol-value",
        "Drop the colon",
        "ensure: present\n",
        preferred=False,
    ),
    case(
        "symbol_quote", "ensure: :present\n", "yaml-symbol-value", "Quote", 'ensure: ":present"\n'
    ),
    case(
        "symbol_key",
        ":backends: [yaml]\n",
        "yaml-symbol-key",
        "Drop the colon",
        "backends: [yaml]\n",
    ),
    case(
        "duplicate",
        """\
        ssh:
          port: 22   # the old port
          # the port we use now
          port: 2222
        motd: yes
        """,
        "yaml-duplicate-key",
        "Keep 'port' once",  # where Psych keeps it: first written, with the last value
        """\
        ssh:
          port: 2222
          # the port we use now
        motd: yes
        """,
    ),
    case(
        "merge_override",
        """\
        defaults: &defaults
          shell: /bin/bash
          home: /home
        user:
            shell: /bin/zsh   # this one
            <<: *defaults     # /bin/bash wins
        """,
        "yaml-merge-override",
        "Move << first",
        """\
        defaults: &defaults
          shell: /bin/bash
          home: /home
        user:
            <<: *defaults     # /bin/bash wins
            shell: /bin/zsh   # this one
        """,
    ),
    case("unreachable", "6: six\n", "data-unreachable-key", 'Quote "6"', '"6": six\n'),
    case(
        "unquoted_token",
        "fqdn: %{facts.networking.fqdn}  # the name\n",
        "interpolation-unquoted",
        "Quote the value",
        'fqdn: "%{facts.networking.fqdn}"  # the name\n',
    ),
    case(
        "unknown_method",
        """\
        motd: "😀 %{Lookup('cases::a')} 😀 %{lookup('cases::missing')}"
        cases::a: x
        """,
        "interpolation-unknown-method",
        "Write lookup",
        """\
        motd: "😀 %{lookup('cases::a')} 😀 %{lookup('cases::missing')}"
        cases::a: x
        """,
    ),
    case(
        "undefined_key",
        "motd: \"%{lookup('motd_titel')} %{lookup('nothing_like_it')}\"\nmotd_title: x\n",
        "reference-undefined-key",
        "Write 'motd_title'",
        "motd: \"%{lookup('motd_title')} %{lookup('nothing_like_it')}\"\nmotd_title: x\n",
    ),
    case(
        "alias_not_whole",
        "x: \"servers: %{alias('cases::k')}\"\ncases::k: v\n",
        "interpolation-alias-not-whole",
        "Embed the value as text",
        "x: \"servers: %{lookup('cases::k')}\"\ncases::k: v\n",
    ),
    case(
        "literal_argument",
        "a: 'x %{literal(''abc'')}'\n",
        "interpolation-literal-argument",
        "Write the text directly",
        "a: 'x abc'\n",
    ),
    case(
        "unquoted_argument",
        'a: "%{lookup(cases::k)}"\ncases::k: v\n',
        "interpolation-unquoted-argument",
        "Quote the argument",
        "a: \"%{lookup('cases::k')}\"\ncases::k: v\n",
    ),
    case(
        "spaced_call",
        "a: \"%{lookup( 'cases::k' )}\"\ncases::k: v\n",
        "interpolation-syntax-error",
        "Write %{lookup('cases::k')}",
        "a: \"%{lookup('cases::k')}\"\ncases::k: v\n",
    ),
    case(
        "not_a_variable",
        'index: "filebeat-%{[beat.version]}"\n',
        "interpolation-not-a-variable",
        "Keep the text as written",
        "index: \"filebeat-%{literal('%')}{[beat.version]}\"\n",
    ),
    case(
        "unterminated",
        "motd: 'Welcome to %{facts.fqdn'\n",
        "interpolation-unterminated",
        "Keep the text as written",
        "motd: 'Welcome to %{literal(\"%\")}{facts.fqdn'\n",
    ),
    case(
        "top_scope",
        'path: "role/%{role}"\n',
        "interpolation-top-scope-variable",
        "Read the fact",
        'path: "role/%{facts.role}"\n',
    ),
    case(
        "legacy_fact",
        'path: "os/%{::osfamily}"\n',
        "legacy-fact",
        "Read the structured fact",
        'path: "os/%{facts.os.family}"\n',
    ),
    case(
        "entry_ignored",
        "lookup_options:\n  cases::users: unique\ncases::users: []\n",
        "lookup-options-entry-ignored",
        "Write {merge: unique}",
        "lookup_options:\n  cases::users: {merge: unique}\ncases::users: []\n",
    ),
    case(
        "entry_not_hash",
        "lookup_options:\n  cases::users: [deep]\ncases::users: {}\n",
        "lookup-options-entry-not-hash",
        "Write {merge: deep}",
        "lookup_options:\n  cases::users: {merge: deep}\ncases::users: {}\n",
    ),
    case(
        "unknown_option",
        "lookup_options:\n  cases::users: {marge: unique}\n",
        "lookup-options-unknown-option",
        "Write merge",
        "lookup_options:\n  cases::users: {merge: unique}\n",
    ),
    case(
        "unknown_merge",
        "lookup_options:\n  cases::users:\n    merge: deeep\n",
        "lookup-options-unknown-merge",
        "Write deep",
        "lookup_options:\n  cases::users:\n    merge: deep\n",
    ),
    case(
        "literal_pattern",
        'lookup_options:\n  "profile::.*::packages": {merge: unique}\nprofile::web::packages: []\n',
        "lookup-options-literal-pattern",
        "Make it a pattern",
        'lookup_options:\n  "^profile::.*::packages$": {merge: unique}\n'
        "profile::web::packages: []\n",
    ),
    case(
        "json_duplicate",
        '{\n  "cases::port": 22,\n  "cases::port": 2222,\n  "cases::x": "%{Lookup(\'k\')}"\n}\n',
        "json-duplicate-key",
        "Keep 'cases::port' once",
        '{\n  "cases::port": 2222,\n  "cases::x": "%{Lookup(\'k\')}"\n}\n',
        path="data/cases/json_duplicate.json",
        disable=False,
    ),
    case(
        "hiera_typo",
        "version: 5\nhierarchy:\n  - name: common\n    pth: common.yaml\n",
        "hiera-config-wrong-type",
        "Write path",
        "version: 5\nhierarchy:\n  - name: common\n    path: common.yaml\n",
        path="modules/typo/hiera.yaml",
        also_gone=("hiera-config-missing-location",),
    ),
    case(
        "hiera_options",
        """\
        version: 5
        hierarchy:
          - name: common
            path: common.yaml
            options:
              x: 1
          - name: other
            path: other.yaml
        """,
        "hiera-config-options-refused",
        "Remove the options",
        """\
        version: 5
        hierarchy:
          - name: common
            path: common.yaml
          - name: other
            path: other.yaml
        """,
        path="modules/opts/hiera.yaml",
    ),
    case(
        "hiera3_backend",
        "version: 5\nhierarchy:\n  - name: common\n    hiera3_backend: json\n    path: c.json\n",
        "hiera-config-hiera3-backend-replaced",
        "Write data_hash: json_data",
        "version: 5\nhierarchy:\n  - name: common\n    data_hash: json_data\n    path: c.json\n",
        path="modules/legacy/hiera.yaml",
        also_gone=("hiera-config-hiera3-backend-not-global",),
    ),
    case(
        "module_key",
        "servers: [a]\nntp::peers: []\n",
        "module-data-unqualified-key",
        "Qualify the key: ntp::servers",
        "ntp::servers: [a]\nntp::peers: []\n",
        path="modules/ntp/data/common.yaml",
    ),
]


FIX_ALL_TEXT = "port: 22\nport: 2222  # kept\nm: \"%{Lookup('port')}\"\nflag: no\n"


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("fixes") / "production"
    files = {"hiera.yaml": HIERA, "modules/ntp/hiera.yaml": MODULE_HIERA}
    files |= {c.rel(): c.text for c in CASES}
    files |= {
        "modules/typo/data/common.yaml": "typo::x: 1\n",
        "modules/opts/data/common.yaml": "opts::x: 1\n",
        "modules/opts/data/other.yaml": "opts::y: 1\n",
        "modules/legacy/data/c.json": '{"legacy::x": 1}\n',
    }
    files["data/cases/fix_all.yaml"] = FIX_ALL_TEXT
    files["data/cases/disable.yaml"] = (
        "a: no\r\nb: 0644  # hiera-ls: disable-line=yaml11-boolean\r\n"
    )
    for rel, text in files.items():
        target = root / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(text.encode("utf-8"))
    return root


@pytest_lsp.fixture(config=CONFIG, scope="module")
async def client(lsp_client: LanguageClient, repo: Path):
    await lsp_client.initialize_session(
        init_params(repo, client_capabilities("visual_studio_code"))
    )
    await wait_for_log(lsp_client, READY)
    yield
    await lsp_client.shutdown_session()


def _offset(text: str, pos: types.Position) -> int:
    """A UTF-16 position -> a code-point offset (lines end at \\n, \\r\\n or \\r)."""
    starts = [0]
    i = 0
    while i < len(text):
        if text[i] == "\r" and text[i + 1 : i + 2] == "\n":
            i += 1
        if text[i] in "\r\n":
            starts.append(i + 1)
        i += 1
    start = starts[pos.line] if pos.line < len(starts) else len(text)
    units = 0
    j = start
    while units < pos.character and j < len(text) and text[j] not in "\r\n":
        units += 2 if ord(text[j]) > 0xFFFF else 1
        j += 1
    return j


def apply(text: str, edits: list[types.TextEdit]) -> str:
    located = sorted(
        ((_offset(text, e.range.start), _offset(text, e.range.end), e.new_text) for e in edits),
        reverse=True,
    )
    for start, end, new in located:
        text = text[:start] + new + text[end:]
    return text


async def actions_for(
    client: LanguageClient, doc: str, diagnostic: types.Diagnostic
) -> list[types.CodeAction]:
    result = await client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=types.TextDocumentIdentifier(uri=doc),
            range=diagnostic.range,
            context=types.CodeActionContext(diagnostics=[diagnostic]),
        )
    )
    assert result is not None
    return [a for a in result if isinstance(a, types.CodeAction)]


def edits_of(action: types.CodeAction, doc: str) -> list[types.TextEdit]:
    assert action.edit is not None and action.edit.changes is not None
    assert set(action.edit.changes) == {doc}
    return [e for e in action.edit.changes[doc] if isinstance(e, types.TextEdit)]


def brief(diagnostics: list[types.Diagnostic]) -> list[tuple[str, str]]:
    return sorted((str(d.code), d.message) for d in diagnostics)


def _lines_outside(text: str, first: int, last: int) -> tuple[list[str], list[str]]:
    lines = text.splitlines()
    return lines[:first], lines[last + 1 :]


@pytest.mark.asyncio(loop_scope="module")
@pytest.mark.parametrize("fix", CASES, ids=[c.name for c in CASES])
async def test_fix_removes_the_diagnostic_and_nothing_else(
    client: LanguageClient, repo: Path, fix: Case
) -> None:
    path = repo / fix.rel()
    doc = open_document(client, path)
    before = await wait_for_diagnostics(client, doc, version=1)
    targets = [d for d in before if d.code == fix.code]
    assert targets, f"no {fix.code} in {brief(before)}"
    target = targets[0]
    assert set(fix.also_gone) <= {d.code for d in before}

    actions = await actions_for(client, doc, target)
    chosen = [a for a in actions if a.title.startswith(fix.title)]
    assert chosen, [a.title for a in actions]
    action = chosen[0]
    assert action.kind == types.CodeActionKind.QuickFix
    assert list(action.diagnostics or ()) == [target]
    assert bool(action.is_preferred) is fix.preferred
    assert (actions[-1].title == f"Disable {fix.code} on this line") is fix.disable

    edits = edits_of(action, doc)
    fixed = apply(fix.text, edits)
    assert fixed == fix.fixed
    first = min(e.range.start.line for e in edits)
    last = max(e.range.end.line for e in edits)
    old_before, old_after = _lines_outside(fix.text, first, last)
    new_lines = fixed.splitlines()
    assert new_lines[:first] == old_before
    assert new_lines[len(new_lines) - len(old_after) :] == old_after

    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=doc, version=2),
            content_changes=[types.TextDocumentContentChangeWholeDocument(text=fixed)],
        )
    )
    after = await wait_for_diagnostics(client, doc, version=2)
    expected = [d for d in before if d is not target and d.code not in fix.also_gone]
    assert brief(after) == brief(expected)


@pytest.mark.asyncio(loop_scope="module")
async def test_disable_line_appends_to_the_line_or_its_directive_with_crlf(
    client: LanguageClient, repo: Path
) -> None:
    path = repo / "data/cases/disable.yaml"
    doc = open_document(client, path, text=path.read_bytes().decode("utf-8"))
    found = {str(d.code): d for d in await wait_for_diagnostics(client, doc, version=1)}
    text = path.read_bytes().decode("utf-8")

    boolean = await actions_for(client, doc, found["yaml11-boolean"])
    assert [a.title for a in boolean] == [
        'Quote "no" (the String, not a Boolean)',
        "Disable yaml11-boolean on this line",
    ]
    assert boolean[-1].is_preferred is None
    disabled = apply(text, edits_of(boolean[-1], doc))
    assert disabled == (
        "a: no  # hiera-ls: disable-line=yaml11-boolean\r\n"
        "b: 0644  # hiera-ls: disable-line=yaml11-boolean\r\n"
    )

    octal = await actions_for(client, doc, found["yaml11-octal"])
    assert apply(text, edits_of(octal[-1], doc)) == (
        "a: no\r\nb: 0644  # hiera-ls: disable-line=yaml11-boolean,yaml11-octal\r\n"
    )


@pytest.mark.asyncio(loop_scope="module")
async def test_stale_diagnostic_gets_only_the_disable_action(
    client: LanguageClient, repo: Path
) -> None:
    """A diagnostic whose range no longer holds what the check saw gets no fix."""
    path = repo / "data/cases/boolean.yaml"
    doc = uri(path)
    stale = types.Diagnostic(
        range=types.Range(
            start=types.Position(line=0, character=0), end=types.Position(line=0, character=1)
        ),
        message="Puppet reads `no` as the Boolean false",
        code="yaml11-boolean",
        source="hiera-ls",
    )
    actions = await actions_for(client, doc, stale)
    assert [a.title for a in actions] == ["Disable yaml11-boolean on this line"]
    other = types.Diagnostic(range=stale.range, message="x", code="key-ordering", source="YAML")
    assert await actions_for(client, doc, other) == []


@pytest.mark.asyncio(loop_scope="module")
async def test_fix_all_applies_every_safe_fix_when_the_client_asks(
    client: LanguageClient, repo: Path
) -> None:
    path = repo / "data/cases/fix_all.yaml"
    doc = open_document(client, path)
    before = await wait_for_diagnostics(client, doc, version=1)
    assert sorted(str(d.code) for d in before) == [
        "interpolation-unknown-method",
        "yaml-duplicate-key",
        "yaml11-boolean",
    ]
    result = await client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=types.TextDocumentIdentifier(uri=doc),
            range=rng0(),
            context=types.CodeActionContext(
                diagnostics=[], only=[types.CodeActionKind.SourceFixAll]
            ),
        )
    )
    assert result is not None
    (action,) = [a for a in result if isinstance(a, types.CodeAction)]
    assert action.kind == "source.fixAll.hiera-ls"
    fixed = apply(FIX_ALL_TEXT, edits_of(action, doc))
    assert fixed == "port: 2222  # kept\nm: \"%{lookup('port')}\"\nflag: no\n"
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=doc, version=2),
            content_changes=[types.TextDocumentContentChangeWholeDocument(text=fixed)],
        )
    )
    after = await wait_for_diagnostics(client, doc, version=2)
    assert [str(d.code) for d in after] == ["yaml11-boolean"]


def rng0() -> types.Range:
    return types.Range(
        start=types.Position(line=0, character=0), end=types.Position(line=0, character=0)
    )
