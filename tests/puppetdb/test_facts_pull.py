"""``hiera-ls facts pull`` against a real PuppetDB 7.12.1: over HTTP and TLS, queries, re-runs
that rewrite only the changed nodes, pruning, and the failures a real PuppetDB produces."""

from __future__ import annotations

import json
import os
import shutil
import zlib
from pathlib import Path

import pytest

from hiera_ls.cli import main
from hiera_ls.project.facts import load_facts, node_scope
from hiera_ls.project.fleet_profiles import file_name
from tests.puppetdb.conftest import base_fleet
from tests.puppetdb.fleet import Node, changed, fleet
from tests.puppetdb.service import PuppetDB, free_port
from tests.puppetdb.tls import make_ca

EXAMPLE = Path(__file__).parents[2] / "examples" / "control-repo"
BASE_ONLY = 'certname ~ "\\\\.example\\\\.com$"'  # PQL: the session's fleet, not a test's nodes


def pull(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["facts", "pull", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def suite_nodes(suite: str, count: int) -> list[Node]:
    """Nodes of one test only, told apart by their certname and a ``suite`` fact."""
    out = []
    for i, n in enumerate(fleet(count, seed=zlib.crc32(suite.encode()) % 1000, start=50_000)):
        values = {**n.values, "suite": suite}
        certname = f"{suite}-{i:02d}.suite.test"
        values["trusted"] = {**n.values["trusted"], "certname": certname}  # type: ignore[dict-item]
        out.append(Node(certname, n.role, n.datacenter, n.family, values))
    return out


def files_of(directory: Path) -> dict[str, Path]:
    return {p.name: p for p in directory.iterdir()}


def stamps(directory: Path) -> dict[str, tuple[int, int]]:
    return {p.name: (p.stat().st_ino, p.stat().st_mtime_ns) for p in directory.iterdir()}


def test_every_node_becomes_a_profile_with_its_facts_and_trusted_data(
    puppetdb: PuppetDB, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out_dir = tmp_path / "facts"
    code, out, err = pull(capsys, "--puppetdb", puppetdb.http_url, "--output", str(out_dir))
    assert (code, err) == (0, "")
    base = {n.certname: n for n in base_fleet()}
    pulled = files_of(out_dir)
    assert {file_name(c) for c in base} <= set(pulled)
    assert all(
        name.endswith(".suite.test.json") for name in set(pulled) - {file_name(c) for c in base}
    )
    assert out.startswith(f"Pulled {len(pulled)} nodes from {puppetdb.http_url} into ")
    node = next(n for n in base.values() if n.family == "RedHat" and n.role == "db")
    path = pulled[file_name(node.certname)]
    data = json.loads(path.read_text())
    assert data["certname"] == node.certname and data["environment"] == "production"
    assert data["values"] == node.values  # the facts, trusted among them, as sent
    profile = load_facts(str(path), path.read_text())
    assert (profile.error, profile.name) == (None, node.certname)
    scope = node_scope(profile.facts, profile.name, "production")
    assert scope.variables["trusted"] == node.values["trusted"]  # $trusted as the agent had it


def test_a_pulled_profile_answers_lookups_as_that_node(
    puppetdb: PuppetDB,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    repo = tmp_path / "repo"
    shutil.copytree(EXAMPLE, repo)
    monkeypatch.chdir(repo)
    node = next(n for n in base_fleet() if n.family == "RedHat" and n.role == "db")
    query = f'inventory[certname] {{ certname = "{node.certname}" }}'
    code, out, _ = pull(capsys, "--puppetdb", puppetdb.http_url, "--query", query)
    assert code == 0 and "1 new" in out
    profile = repo / ".hiera-ls" / "facts" / "puppetdb" / file_name(node.certname)
    assert main(["lookup", "--facts", str(profile), "profile::postgresql::max_connections"]) == 0
    assert main(["lookup", "--facts", str(profile), "ntp::service_name"]) == 0
    assert main(["lookup", "--facts", str(profile), "profile::motd::location"]) == 0
    out, _ = capsys.readouterr()
    release = node.values["os"]["release"]["full"]  # type: ignore[index]
    assert out.splitlines() == ["--- 200", "--- chronyd", f"--- Rocky {release}"]


def test_a_rerun_rewrites_only_the_nodes_whose_facts_changed(
    puppetdb: PuppetDB, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    nodes = suite_nodes("rerun", 20)
    puppetdb.replace_facts((n.certname, n.values) for n in nodes)
    out_dir = tmp_path / "facts"
    args = (
        "--puppetdb",
        puppetdb.http_url,
        "--output",
        str(out_dir),
        "--query",
        '["=", "facts.suite", "rerun"]',
    )
    assert pull(capsys, *args)[:2] == (
        0,
        "Pulled 20 nodes from "
        f"{puppetdb.http_url} into {out_dir}: 20 new, 0 changed, 0 unchanged.\n"
        "  new: " + ", ".join(n.certname for n in nodes) + "\n",
    )
    before = stamps(out_dir)
    directory_inode = out_dir.stat().st_ino

    code, out, _ = pull(capsys, *args)  # nothing changed: nothing is touched
    assert code == 0 and "0 new, 0 changed, 20 unchanged." in out
    assert "Nothing changed: the directory was not touched." in out
    assert (stamps(out_dir), out_dir.stat().st_ino) == (before, directory_inode)

    updated = [changed(n) for n in nodes[3:8]]
    puppetdb.replace_facts((n.certname, n.values) for n in updated)
    code, out, _ = pull(capsys, *args)
    assert code == 0
    assert "0 new, 5 changed, 15 unchanged." in out
    assert "  changed: " + ", ".join(n.certname for n in updated) in out
    after = stamps(out_dir)
    names = {file_name(n.certname) for n in updated}
    assert {k: v for k, v in after.items() if k not in names} == {
        k: v for k, v in before.items() if k not in names
    }  # the same files (inode) with their modification times
    for n in updated:
        assert after[file_name(n.certname)] != before[file_name(n.certname)]
        text = (out_dir / file_name(n.certname)).read_text()
        assert json.loads(text)["values"]["patch_generation"] == 1


def test_tls_with_a_client_certificate_gives_what_http_gives(
    puppetdb: PuppetDB,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    assert puppetdb.ca is not None and puppetdb.client is not None
    query = f'inventory[certname] {{ facts.role = "lb" and {BASE_ONLY} }}'
    plain, tls = tmp_path / "http", tmp_path / "tls"
    assert (
        pull(capsys, "--puppetdb", puppetdb.http_url, "--query", query, "--output", str(plain))[0]
        == 0
    )
    monkeypatch.setattr("hiera_ls.fleet.pull.PAGE_SIZE", 7)  # many pages over one connection
    code, _, err = pull(
        capsys,
        "--puppetdb",
        puppetdb.https_url,
        "--query",
        query,
        "--output",
        str(tls),
        "--cacert",
        puppetdb.ca.ca,
        "--cert",
        puppetdb.client.cert,
        "--key",
        puppetdb.client.key,
    )
    assert (code, err) == (0, "")
    expected = {file_name(n.certname) for n in base_fleet() if n.role == "lb"}
    assert set(files_of(tls)) == expected == set(files_of(plain))
    for name in expected:
        assert (tls / name).read_bytes() == (plain / name).read_bytes()


@pytest.mark.parametrize(
    ("query", "selects"),
    [
        (
            f'inventory[certname] {{ facts.os.family = "RedHat" and {BASE_ONLY} }}',
            lambda n: n.family == "RedHat",
        ),
        (
            f'facts[certname] {{ name = "role" and value = "db" and {BASE_ONLY} }}',
            lambda n: n.role == "db",
        ),
        (f'nodes {{ facts {{ name = "datacenters" }} and {BASE_ONLY} }}', lambda n: True),
        (
            '["and", ["=", "facts.os.family", "Suse"], ["~", "certname", "example\\\\.com$"]]',
            lambda n: n.family == "Suse",
        ),
        (
            '["from", "inventory", ["and", ["=", "trusted.extensions.pp_datacenter", "sfo3"],'
            ' ["~", "certname", "example\\\\.com$"]]]',
            lambda n: n.datacenter == "sfo3",
        ),
    ],
    ids=["pql-inventory", "pql-facts", "pql-nodes-subquery", "ast-filter", "ast-from"],
)
def test_a_query_pulls_the_nodes_it_selects(
    puppetdb: PuppetDB,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    query: str,
    selects: object,
) -> None:
    code, _, err = pull(
        capsys, "--puppetdb", puppetdb.http_url, "--query", query, "--output", str(tmp_path / "out")
    )
    assert (code, err) == (0, "")
    expected = {file_name(n.certname) for n in base_fleet() if selects(n)}  # type: ignore[operator]
    assert expected and set(files_of(tmp_path / "out")) == expected


def test_nodes_gone_from_puppetdb_stay_until_pruned(
    puppetdb: PuppetDB, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    nodes = suite_nodes("prune", 6)
    puppetdb.replace_facts((n.certname, n.values) for n in nodes)
    out_dir = tmp_path / "facts"
    (out_dir).mkdir()
    (out_dir / "README").write_text("kept: not a node's profile\n")
    args = (
        "--puppetdb",
        puppetdb.http_url,
        "--output",
        str(out_dir),
        "--query",
        'inventory[certname] { facts.suite = "prune" }',
    )
    assert pull(capsys, *args)[0] == 0
    puppetdb.deactivate([nodes[1].certname, nodes[4].certname])
    code, out, _ = pull(capsys, *args)
    assert code == 0 and "Kept 2 nodes this pull did not list (--prune removes them)." in out
    assert len(files_of(out_dir)) == 7
    code, out, _ = pull(capsys, *args, "--prune")
    assert code == 0 and "Removed 2 nodes this pull did not list." in out
    assert f"  removed: {nodes[1].certname}, {nodes[4].certname}" in out
    assert set(files_of(out_dir)) == {"README"} | {
        file_name(n.certname) for i, n in enumerate(nodes) if i not in (1, 4)
    }


def _fault_args(puppetdb: PuppetDB, case: str, tmp_path: Path) -> list[str]:
    assert puppetdb.ca is not None and puppetdb.client is not None
    assert puppetdb.stranger is not None
    http_port = puppetdb.http_url.rsplit(":", 1)[1]
    tls_port = puppetdb.https_url.rsplit(":", 1)[1]
    client = ["--cert", puppetdb.client.cert, "--key", puppetdb.client.key]
    if case == "no client certificate":
        return ["--puppetdb", puppetdb.https_url, "--cacert", puppetdb.ca.ca]
    if case == "another CA":
        other = make_ca(str(tmp_path / "other-ca"), "some other CA")
        return ["--puppetdb", puppetdb.https_url, "--cacert", other.ca, *client]
    if case == "not on the allowlist":
        stranger = ["--cert", puppetdb.stranger.cert, "--key", puppetdb.stranger.key]
        return ["--puppetdb", puppetdb.https_url, "--cacert", puppetdb.ca.ca, *stranger]
    if case == "TLS to the HTTP port":
        return ["--puppetdb", f"https://127.0.0.1:{http_port}", "--cacert", puppetdb.ca.ca]
    if case == "HTTP to the TLS port":
        return ["--puppetdb", f"http://127.0.0.1:{tls_port}"]
    if case == "PuppetDB down":
        return ["--puppetdb", f"http://127.0.0.1:{free_port()}"]
    assert case == "a PQL syntax error"
    return ["--puppetdb", puppetdb.http_url, "--query", "inventory[certname] { facts.os = }"]


FAULTS = {
    "no client certificate": "PuppetDB asks for a client certificate and none was given",
    "another CA": "PuppetDB's certificate is not trusted: unable to get local issuer",
    "not on the allowlist": "answered 403 Forbidden",
    "TLS to the HTTP port": "does not speak TLS (is this PuppetDB's HTTP port?",
    "HTTP to the TLS port": "is this PuppetDB's TLS port? Use https://",
    "PuppetDB down": "connection refused (is PuppetDB running there?)",
    "a PQL syntax error": "refused the query: answered 400 Bad Request:\n"
    "    PQL parse error at line 1, column 34:",
}


@pytest.mark.parametrize("case", list(FAULTS))
def test_a_failure_names_the_url_and_the_cause_and_changes_nothing(
    puppetdb: PuppetDB, tmp_path: Path, capsys: pytest.CaptureFixture[str], case: str
) -> None:
    out_dir = tmp_path / "facts"
    out_dir.mkdir()
    (out_dir / "web01.example.com.json").write_text('{"role": "web"}\n')
    before = stamps(out_dir)
    args = _fault_args(puppetdb, case, tmp_path)
    code, out, err = pull(capsys, *args, "--output", str(out_dir), "--timeout", "20")
    assert (code, out) == (2, "")
    assert err.startswith(f"hiera-ls facts pull: error: {args[1]}/pdb/query/v4")
    assert FAULTS[case] in err
    assert err.endswith("hiera-ls facts pull: nothing was changed on disk\n")
    assert stamps(out_dir) == before
    made = ["facts", "other-ca"] if case == "another CA" else ["facts"]
    assert sorted(os.listdir(tmp_path)) == made  # no temporary directory left beside it
