"""Diagnostics over LSP: pushed on open and on every change, pulled when the client pulls.

The clean control repository must show no error or warning for any profile; the broken
repository shows each problem with its stable code, Puppet's words and an exact range in
the client's units (UTF-16 here, with an emoji before the token).
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from lsprotocol import types
from pytest_lsp import LanguageClient, client_capabilities

from tests.e2e.conftest import (
    BROKEN_REPO,
    CONTROL_REPO,
    READY,
    copy_repo,
    execute,
    hover_text,
    init_params,
    line_of,
    mark,
    open_document,
    position_of,
    uri,
    wait_for_diagnostics,
    wait_for_log,
    wait_for_matching,
)

SERIOUS = (types.DiagnosticSeverity.Error, types.DiagnosticSeverity.Warning)


def project_files(root: Path) -> list[Path]:
    """Every YAML/JSON file of the repository: data, hiera.yaml of every layer, facts."""
    return sorted(
        p for p in root.rglob("*") if p.is_file() and p.suffix in (".yaml", ".yml", ".json")
    )


async def start(
    client: LanguageClient,
    root: Path,
    profile: str | None = None,
    capabilities: str = "visual_studio_code",
) -> None:
    options = {"hiera": {"factsProfile": profile}} if profile else {}
    await client.initialize_session(init_params(root, client_capabilities(capabilities), options))
    await wait_for_log(client, READY)


def by_code(diagnostics: list[types.Diagnostic]) -> dict[str, types.Diagnostic]:
    return {str(d.code): d for d in diagnostics}


@pytest.mark.asyncio
@pytest.mark.parametrize(
    "profile", [None, "web01.example.com", "db01.example.com", "debian11.example.com"]
)
async def test_clean_control_repository_has_no_errors_or_warnings(
    fresh_client: LanguageClient, profile: str | None
) -> None:
    client = fresh_client
    await start(client, CONTROL_REPO, profile)
    files = project_files(CONTROL_REPO)
    assert len(files) >= 20
    for path in files:
        doc = open_document(client, path)
        diagnostics = await wait_for_diagnostics(client, doc, version=1)
        serious = [(d.code, d.message) for d in diagnostics if d.severity in SERIOUS]
        assert serious == [], f"{path}: {serious}"


@pytest.mark.asyncio
async def test_broken_file_shows_codes_puppet_messages_and_utf16_ranges(
    fresh_client: LanguageClient,
) -> None:
    client = fresh_client
    await start(client, BROKEN_REPO)
    common = BROKEN_REPO / "data" / "common.yaml"
    found = by_code(await wait_for_diagnostics(client, open_document(client, common), version=1))
    assert set(found) == {
        "reference-undefined-key",
        "interpolation-unknown-method",
        "yaml11-boolean",
        "yaml-duplicate-key",
    }

    unknown = found["interpolation-unknown-method"]
    token = "%{looKup('motd_title')}"
    start_at = position_of(common, token)
    line = common.read_text(encoding="utf-8").splitlines()[start_at.line]
    assert (
        start_at.character == line.index(token) + 2
    )  # two emoji before it: two extra UTF-16 units
    assert unknown.range == types.Range(
        start=start_at,
        end=types.Position(line=start_at.line, character=start_at.character + len(token)),
    )
    assert unknown.severity == types.DiagnosticSeverity.Error
    assert "Unknown interpolation method 'looKup'" in unknown.message
    assert unknown.source == "hiera-ls"

    undefined = found["reference-undefined-key"]
    assert undefined.range.start == position_of(common, "%{lookup('motd_titel')}")
    assert undefined.severity == types.DiagnosticSeverity.Warning
    assert "Puppet's lookup('motd_titel') gives ''" in undefined.message

    duplicate = found["yaml-duplicate-key"]
    assert duplicate.range.start == types.Position(
        line=line_of(common, "ssh::port: 2222"), character=0
    )
    assert found["yaml11-boolean"].severity == types.DiagnosticSeverity.Information

    node = BROKEN_REPO / "data" / "nodes" / "web01.example.com.yaml"
    (date,) = await wait_for_diagnostics(client, open_document(client, node), version=1)
    assert date.code == "yaml-date-rejected"
    assert date.severity == types.DiagnosticSeverity.Error
    # (and, once the every-profile lookups ran, the lookups this makes fail)
    assert "Tried to load unspecified class: Date" in date.message
    assert date.range.start == position_of(node, "2021-01-01")


def change(
    client: LanguageClient,
    doc: str,
    version: int,
    start: tuple[int, int],
    end: tuple[int, int],
    text: str,
) -> None:
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=doc, version=version),
            content_changes=[
                types.TextDocumentContentChangePartial(
                    range=types.Range(
                        start=types.Position(line=start[0], character=start[1]),
                        end=types.Position(line=end[0], character=end[1]),
                    ),
                    text=text,
                )
            ],
        )
    )


@pytest.mark.asyncio
async def test_every_edit_is_rediagnosed(fresh_client: LanguageClient, tmp_path: Path) -> None:
    client = fresh_client
    repo = copy_repo(BROKEN_REPO, tmp_path)
    await start(client, repo)
    common = repo / "data" / "common.yaml"
    doc = open_document(client, common)
    assert "yaml-duplicate-key" in by_code(await wait_for_diagnostics(client, doc, version=1))
    dup = line_of(common, "ssh::port: 2222")
    change(client, doc, 2, (dup, 0), (dup + 1, 0), "")  # delete the duplicate line
    assert "yaml-duplicate-key" not in by_code(await wait_for_diagnostics(client, doc, version=2))
    change(
        client, doc, 3, (dup - 1, 0), (dup - 1, 0), "ssh::ciphers: [aes256\n"
    )  # unclosed flow sequence
    after = by_code(await wait_for_diagnostics(client, doc, version=3))
    assert after["yaml-syntax"].severity == types.DiagnosticSeverity.Error
    assert after["yaml-syntax"].message.startswith(
        f"Unable to parse ({common}): did not find expected ',' or ']'"
    )


@pytest.mark.asyncio
async def test_edits_in_a_big_file_keep_every_range_right(
    fresh_client: LanguageClient, tmp_path: Path
) -> None:
    # 600 entries: edits re-parse only the entries they touch, so the problems after an
    # edit must move with their lines, and a syntax error must still be the whole file's
    client = fresh_client
    repo = copy_repo(BROKEN_REPO, tmp_path)
    await start(client, repo)
    big = repo / "data" / "common.yaml"
    big.write_text(
        "".join(
            f"profile::app{i}::settings:\n  port: {8000 + i}\n  mode: '0644'\n" for i in range(600)
        )
        + "profile::app::enabled: yes\n",
        encoding="utf-8",
    )
    doc = open_document(client, big)
    yes_line = line_of(big, "enabled: yes")
    (surprise,) = await wait_for_diagnostics(client, doc, version=1)
    assert (surprise.code, surprise.range.start.line) == ("yaml11-boolean", yes_line)
    change(
        client, doc, 2, (300, 0), (300, 0), "profile::new::key: 1\nprofile::other: 2\n"
    )  # two lines added
    (moved,) = await wait_for_diagnostics(client, doc, version=2)
    assert (moved.code, moved.range.start.line) == ("yaml11-boolean", yes_line + 2)
    change(client, doc, 3, (600, 6), (600, 7), "")  # "  port: 8199" loses its colon
    broken = by_code(await wait_for_diagnostics(client, doc, version=3))
    # the plain scalar runs on into the next line, where Psych finds the ':' it refuses
    assert broken["yaml-syntax"].range.start == types.Position(line=601, character=6)
    assert broken["yaml-syntax"].message.endswith(
        "mapping values are not allowed in this context at line 602 column 7"
    )
    change(client, doc, 4, (600, 6), (600, 6), ":")  # fixed again
    (back,) = await wait_for_diagnostics(client, doc, version=4)
    assert (back.code, back.range.start.line) == ("yaml11-boolean", yes_line + 2)


def failing_for_the_node(tmp_path: Path) -> Path:
    """The broken repository, its node file loadable, and a key whose lookup fails for the
    node itself (an undefined variable): a finding that depends on the active profile."""
    repo = copy_repo(BROKEN_REPO, tmp_path)
    node = repo / "data" / "nodes" / "web01.example.com.yaml"
    node.write_text(node.read_text().replace("2021-01-01", '"2021-01-01"'))
    common = repo / "data" / "common.yaml"
    common.write_text(common.read_text() + 'motd::owner: "%{::nosuch_variable}"\n')
    return repo


@pytest.mark.asyncio
async def test_profile_switch_updates_diagnostics(
    fresh_client: LanguageClient, tmp_path: Path
) -> None:
    client = fresh_client
    repo = failing_for_the_node(tmp_path)
    await start(client, repo, "web01.example.com")
    common = repo / "data" / "common.yaml"
    doc = open_document(client, common)
    failing = by_code(await wait_for_diagnostics(client, doc, version=1))[
        "lookup-fails-for-profile"
    ]
    assert failing.message.startswith(
        "[web01.example.com] Looking up 'motd::owner' fails: Undefined variable"
    )
    since = mark(client)
    await execute(client, "hiera.selectFactsProfile", None)
    while "lookup-fails-for-profile" in by_code(  # the quick publish may come first
        await wait_for_diagnostics(client, doc, after=since)
    ):
        since += 1


@pytest.mark.asyncio
async def test_removing_a_key_flags_the_interpolations_in_other_files(
    fresh_client: LanguageClient, tmp_path: Path
) -> None:
    client = fresh_client
    repo = copy_repo(CONTROL_REPO, tmp_path)
    await start(client, repo, "web01.example.com")
    role = repo / "data" / "roles" / "web.yaml"
    common = repo / "data" / "common.yaml"
    role_doc = open_document(client, role)
    assert await wait_for_diagnostics(client, role_doc, version=1) == []
    common_doc = open_document(client, common)
    await wait_for_diagnostics(client, common_doc, version=1)
    since = mark(client)
    line = line_of(common, "profile::base::domain: example.com")
    change(
        client,
        common_doc,
        2,
        (line, 0),
        (line, len("profile::base::domain")),
        "profile::base::dns_domain",
    )
    problems = await wait_for_diagnostics(client, role_doc, after=since)
    assert [d.code for d in problems] == ["reference-undefined-key"]
    assert problems[0].range.start == position_of(role, "%{lookup('profile::base::domain')}")


@pytest.mark.asyncio
async def test_files_changed_on_disk_are_reread(
    fresh_client: LanguageClient, tmp_path: Path
) -> None:
    client = fresh_client
    repo = copy_repo(CONTROL_REPO, tmp_path)
    await start(client, repo, "db01.example.com")
    role = repo / "data" / "roles" / "web.yaml"
    role_doc = open_document(client, role)
    assert await wait_for_diagnostics(client, role_doc, version=1) == []
    common = repo / "data" / "common.yaml"
    assert "```yaml\n22\n```" in await hover_text(client, common, "profile::ssh::port:")
    text = common.read_text(encoding="utf-8")
    common.write_text(
        text.replace("profile::ssh::port: 22", "profile::ssh::port: 2200").replace(
            "profile::base::domain:", "profile::base::dns_domain:"
        ),
        encoding="utf-8",
    )
    since = mark(client)
    client.workspace_did_change_watched_files(
        types.DidChangeWatchedFilesParams(
            changes=[types.FileEvent(uri=uri(common), type=types.FileChangeType.Changed)]
        )
    )
    assert [d.code for d in await wait_for_diagnostics(client, role_doc, after=since)] == [
        "reference-undefined-key"
    ]
    assert "```yaml\n2200\n```" in await hover_text(client, common, "profile::ssh::port:")


@pytest.mark.asyncio
async def test_open_buffer_wins_over_the_disk(fresh_client: LanguageClient) -> None:
    client = fresh_client
    await start(client, CONTROL_REPO, "db01.example.com")
    common = CONTROL_REPO / "data" / "common.yaml"
    edited = common.read_text(encoding="utf-8").replace(
        "profile::ssh::port: 22", "profile::ssh::port: 2022"
    )
    doc = open_document(client, common, text=edited)
    await wait_for_diagnostics(client, doc, version=1)
    assert "```yaml\n2022\n```" in await hover_text(client, common, "profile::ssh::port:")
    assert "profile::ssh::port: 22\n" in common.read_text(encoding="utf-8")  # never written


@pytest.mark.asyncio
async def test_pull_diagnostics_when_the_client_pulls(fresh_client: LanguageClient) -> None:
    client = fresh_client
    await start(client, BROKEN_REPO, capabilities="neovim")  # Neovim 0.11 pulls, and counts UTF-8
    common = BROKEN_REPO / "data" / "common.yaml"
    doc = open_document(client, common)
    report = await client.text_document_diagnostic_async(
        types.DocumentDiagnosticParams(text_document=types.TextDocumentIdentifier(uri=doc))
    )
    assert isinstance(
        report, types.RelatedFullDocumentDiagnosticReport | types.FullDocumentDiagnosticReport
    )
    found = by_code(list(report.items))
    assert "interpolation-unknown-method" in found
    token = "%{looKup('motd_title')}"
    line = common.read_text(encoding="utf-8").splitlines()[
        found["interpolation-unknown-method"].range.start.line
    ]
    assert found["interpolation-unknown-method"].range.start.character == len(
        line[: line.index(token)].encode("utf-8")
    )
    again = await client.text_document_diagnostic_async(
        types.DocumentDiagnosticParams(
            text_document=types.TextDocumentIdentifier(uri=doc), previous_result_id=report.result_id
        )
    )
    assert isinstance(
        again,
        types.RelatedUnchangedDocumentDiagnosticReport | types.UnchangedDocumentDiagnosticReport,
    )
    node = open_document(client, BROKEN_REPO / "data" / "nodes" / "web01.example.com.yaml")
    report = await client.text_document_diagnostic_async(
        types.DocumentDiagnosticParams(text_document=types.TextDocumentIdentifier(uri=node))
    )
    assert [d.code for d in report.items] == ["yaml-date-rejected"]
    assert client.published == []  # type: ignore[attr-defined]  # nothing pushed to a pulling client


@pytest.mark.asyncio
async def test_pulling_client_is_asked_to_re_pull_after_a_profile_switch(
    fresh_client: LanguageClient, tmp_path: Path
) -> None:
    client = fresh_client
    repo = failing_for_the_node(tmp_path)
    capabilities = client_capabilities("neovim")
    assert capabilities.workspace is not None
    capabilities.workspace.diagnostics = types.DiagnosticWorkspaceClientCapabilities(
        refresh_support=True
    )
    await client.initialize_session(
        init_params(repo, capabilities, {"hiera": {"factsProfile": "web01.example.com"}})
    )
    await wait_for_log(client, READY)
    doc = open_document(client, repo / "data" / "common.yaml")
    params = types.DocumentDiagnosticParams(text_document=types.TextDocumentIdentifier(uri=doc))
    before = await client.text_document_diagnostic_async(params)
    assert "lookup-fails-for-profile" in {d.code for d in before.items}
    refreshes = client.diagnostic_refresh_count
    await execute(client, "hiera.selectFactsProfile", "")
    assert client.diagnostic_refresh_count > refreshes
    after = await client.text_document_diagnostic_async(params)
    assert "lookup-fails-for-profile" not in {d.code for d in after.items}


@pytest.mark.asyncio
async def test_editing_hiera_yaml_changes_the_levels_at_once(
    fresh_client: LanguageClient, tmp_path: Path
) -> None:
    client = fresh_client
    repo = copy_repo(CONTROL_REPO, tmp_path)
    await start(client, repo, "web01.example.com")
    node = repo / "data" / "nodes" / "web01.example.com.yaml"
    assert "```yaml\n2222\n```" in await hover_text(client, node, "profile::ssh::port")
    hiera = repo / "hiera.yaml"
    doc = open_document(client, hiera)
    assert await wait_for_diagnostics(client, doc, version=1) == []
    first = line_of(hiera, '- name: "Per-node data"')
    change(client, doc, 2, (first, 0), (first + 3, 0), "")  # drop the node level, unsaved
    assert await wait_for_diagnostics(client, doc, version=2) == []
    text = await hover_text(client, node, "profile::ssh::port")
    assert "```yaml\n22\n```" in text
    assert "_This file is not read for `web01.example.com`._" in text
    change(client, doc, 3, (1, 0), (1, len("version: 5")), "version: 4")
    problems = await wait_for_diagnostics(client, doc, version=3)
    assert problems, "version 4 with v5 keys is not what Puppet accepts"
    assert all(str(p.code).startswith("hiera-config") for p in problems)
    assert any(p.severity == types.DiagnosticSeverity.Error for p in problems)


@pytest.mark.asyncio
async def test_big_environment_gets_its_cross_file_checks_in_the_background(
    fresh_client: LanguageClient, tmp_path: Path
) -> None:
    client = fresh_client
    repo = copy_repo(CONTROL_REPO, tmp_path)
    nodes = repo / "data" / "nodes"
    for n in range(400):  # more files than the server indexes before answering
        (nodes / f"node{n:03d}.example.com.yaml").write_text(
            f"profile::ssh::port: {2000 + n}\n", encoding="utf-8"
        )
    role = repo / "data" / "roles" / "web.yaml"
    role.write_text(
        role.read_text(encoding="utf-8")
        + "site::profile_web::alias: \"%{lookup('profile::web::nosuch')}\"\n",
        encoding="utf-8",
    )
    await start(client, repo, "web01.example.com")
    doc = open_document(client, role)
    # the first answer may come before the index is built; a later publish completes it
    await wait_for_matching(
        client,
        doc,
        lambda found: (
            [d.code for d in found if d.code != "key-unused"] == ["reference-undefined-key"]
        ),
    )
    assert "```yaml\n2222\n```" in await hover_text(
        client, nodes / "web01.example.com.yaml", "profile::ssh::port"
    )


@pytest.mark.asyncio
async def test_each_version_is_published_at_once_then_completed(
    fresh_client: LanguageClient, tmp_path: Path
) -> None:
    """A burst of edits gets one publish of its newest version at once (the file's own
    checks), and at most one more, complete, once the cross-file checks have run; the
    order of the two (own checks first) is tests/lsp/test_edit_publish.py's."""
    client = fresh_client
    repo = copy_repo(CONTROL_REPO, tmp_path)
    await start(client, repo, "web01.example.com")
    role = repo / "data" / "roles" / "web.yaml"
    doc = open_document(client, role)
    assert await wait_for_diagnostics(client, doc, version=1) == []
    since = mark(client)
    change(client, doc, 2, (0, 0), (0, 0), "broken::ref: \"%{lookup('profile::base::nosuch')}\"\n")
    change(client, doc, 3, (0, 0), (0, 0), "# a comment\n")
    await wait_for_diagnostics(client, doc, version=3, after=since)
    change(client, doc, 4, (0, 0), (1, 0), "")  # a later version: earlier ones are all in
    mine: list[types.PublishDiagnosticsParams] = []
    for _ in range(1000):  # until the newest version's complete publish (a safety net)
        published = client.published[since:]  # type: ignore[attr-defined]
        mine = [p for p in published if p.uri == doc]
        if mine and mine[-1].version == 4 and mine[-1].diagnostics:
            break
        await asyncio.sleep(0.01)
    assert [d.code for d in mine[-1].diagnostics] == ["reference-undefined-key"], mine
    assert mine[-1].version == 4, [(p.version, list(p.diagnostics)) for p in mine]
    for version in (2, 3, 4):
        assert sum(p.version == version for p in mine) <= 2, mine


@pytest.mark.asyncio
async def test_every_profiles_findings_come_from_the_background_and_follow_edits(
    fresh_client: LanguageClient, tmp_path: Path
) -> None:
    client = fresh_client
    repo = copy_repo(CONTROL_REPO, tmp_path)
    node = repo / "data" / "nodes" / "db01.example.com.yaml"
    node.write_text(
        node.read_text(encoding="utf-8") + "profile::base::domain: example.com\n",
        encoding="utf-8",
    )
    await start(client, repo, "web01.example.com")  # not the active profile: every profile
    doc = open_document(client, node)
    found = await wait_for_matching(
        client, doc, lambda ds: [d.code for d in ds] == ["profile-redundant-override"]
    )
    assert found[0].range.start == position_of(node, "profile::base::domain")
    assert "(data/common.yaml for db01.example.com)" in found[0].message
    line = line_of(node, "profile::base::domain: example.com")
    start_col = len("profile::base::domain: ")
    change(client, doc, 2, (line, start_col), (line, start_col + len("example.com")), "db.example")
    await wait_for_matching(client, doc, lambda ds: ds == [])
    since = mark(client)
    change(client, doc, 3, (line, start_col), (line, start_col + len("db.example")), "example.com")
    # the quick answer may come without it (it was not there at the last background run);
    # a later publish brings it back
    while True:
        again = await wait_for_diagnostics(client, doc, after=since)
        if again:
            break
        since = next(
            i + 1
            for i in range(len(client.published) - 1, since - 1, -1)  # type: ignore[attr-defined]
            if client.published[i].uri == doc  # type: ignore[attr-defined]
        )
    assert [d.code for d in again] == ["profile-redundant-override"]
