"""``hiera-ls facts pull`` when PuppetDB misbehaves in ways a real one cannot be made to on
demand (a fake on loopback): every failure names the URL and the cause, exits 2 and leaves
the last good profiles as they were; a node with broken facts is skipped, the rest kept."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from hiera_ls.cli import main
from tests.fleet.fake_puppetdb import (
    FakePuppetDB,
    body,
    drop,
    good_row,
    hang,
    inventory_row,
    on_request,
    serving,
    status,
    trickle,
)

INVENTORY = "/pdb/query/v4/inventory"


def pull(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["facts", "pull", *argv])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def last_good(tmp_path: Path) -> Path:
    """A profile directory from an earlier pull, which no failure may touch."""
    directory = tmp_path / "facts"
    directory.mkdir()
    (directory / "old01.example.com.json").write_text('{"values": {"role": "db"}}\n')
    return directory


def stamps(directory: Path) -> dict[str, tuple[int, int, bytes]]:
    return {
        p.name: (p.stat().st_ino, p.stat().st_mtime_ns, p.read_bytes()) for p in directory.iterdir()
    }


FAULTS = {
    "401": (
        status(401, "Unauthorized"),
        "answered 401 Unauthorized: Unauthorized (PuppetDB "
        "wants credentials: a token with --token, or --cert)",
    ),
    "403": (
        status(403, "Permission denied: rbac token lacks puppetdb:query"),
        "answered 403 Forbidden: Permission denied: rbac token lacks puppetdb:query "
        "(PuppetDB refused this client",
    ),
    "500": (
        status(500, "Internal Server Error: org.postgresql.util.PSQLException"),
        "answered 500 Internal Server Error: Internal Server Error: "
        "org.postgresql.util.PSQLException",
    ),
    "garbage": (
        body(b"<html><body>Bad gateway</body></html>"),
        "answered something that is not JSON (text/html): Expecting value: line 1 "
        "column 1 (char 0); it begins '<html><body>Bad gateway</body></html>'",
    ),
    "cut JSON": (
        body(b'[{"certname": "web01", "facts": {"os"', "application/json"),
        "answered something that is not JSON (application/json): Expecting",
    ),
    "an object": (
        body(b'{"error": "no"}', "application/json"),
        "answered a JSON object where a list of nodes belongs",
    ),
    "a hang": (hang(3), "no complete answer within 0.5 s (the timeout; --timeout sets it)"),
    "a trickle": (trickle(0.1, 40), "no complete answer within 0.5 s (the timeout"),
    "a dropped connection": (drop(), "closed the connection without an answer"),
    "a failure on batch 3": (
        on_request(3, status(503, "Service Unavailable")),
        "answered 503 Service Unavailable: Service Unavailable",
    ),
}


TIMED = {"a hang", "a trickle"}  # each waits out the timeout: with the slow tests


@pytest.mark.parametrize(
    "case", [pytest.param(c, marks=pytest.mark.slow) if c in TIMED else c for c in FAULTS]
)
def test_a_failure_names_the_url_and_cause_and_keeps_the_last_good_profiles(
    case: str,
    last_good: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr("hiera_ls.fleet.pull.PAGE_SIZE", 10)
    fault, said = FAULTS[case]
    fake = FakePuppetDB([good_row(f"web{i:02d}.example.com") for i in range(25)], fault)
    before = stamps(last_good)
    with serving(fake):
        code, out, err = pull(
            capsys, "--puppetdb", fake.url, "--output", str(last_good), "--timeout", "0.5"
        )
    assert (code, out) == (2, "")
    assert err.startswith(f"hiera-ls facts pull: error: {fake.url}{INVENTORY}: ")
    assert said in err
    assert err.endswith("hiera-ls facts pull: nothing was changed on disk\n")
    assert stamps(last_good) == before
    assert os.listdir(last_good.parent) == ["facts"]  # no half-written directory beside it


def test_the_names_come_first_then_their_facts_in_batches_in_certname_order(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("hiera_ls.fleet.pull.PAGE_SIZE", 10)
    names = [f"n{i:03d}.example.com" for i in range(23)]
    fake = FakePuppetDB([good_row(n) for n in reversed(names)], gzip=True)
    with serving(fake):
        code, out, _ = pull(capsys, "--puppetdb", fake.url, "--output", str(tmp_path / "f"))
    assert code == 0 and "Pulled 23 nodes" in out and len(os.listdir(tmp_path / "f")) == 23
    order = [{"field": "certname", "order": "asc"}]
    assert [(r.method, r.path, r.params, r.body) for r in fake.requests] == [
        ("GET", INVENTORY, {"query": '["extract",["certname"]]'}, None),
        *(
            (
                "POST",
                INVENTORY,
                {},
                {"query": ["in", "certname", ["array", batch]], "order_by": order},
            )
            for batch in (names[0:10], names[10:20], names[20:23])
        ),
    ]
    assert all(r.headers.get("Accept-Encoding") == "gzip" for r in fake.requests)


def test_nodes_with_broken_facts_are_skipped_with_a_line_each_and_the_rest_written(
    last_good: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (last_good / "bad4.example.com.json").write_text('{"values": {"role": "last good"}}\n')
    rows = [
        good_row("web01.example.com"),
        "not a node",
        inventory_row("", {"role": "web"}),
        inventory_row("a/b.example.com", {"role": "web"}),
        inventory_row("bad1.example.com", ["role", "web"]),
        inventory_row("bad2.example.com", {"role": "web", "name": "x"}),
        inventory_row("bad3.example.com", {"role": "web"}, "remote"),
        inventory_row("bad4.example.com", {"title": "x"}),
        good_row("web02.example.com"),
    ]
    with serving(FakePuppetDB(rows)) as fake:
        code, out, err = pull(capsys, "--puppetdb", fake.url, "--output", str(last_good))
    assert code == 1
    assert err.splitlines() == [
        "hiera-ls facts pull: skipped a/b.example.com: a certname holds no '/' (Puppet "
        "refuses such a name)",
        "hiera-ls facts pull: skipped bad1.example.com: its facts are a list, not a hash of facts",
        "hiera-ls facts pull: skipped bad2.example.com: it has a fact 'name', which Puppet "
        "refuses: Cannot reassign variable '$name'",
        "hiera-ls facts pull: skipped bad3.example.com: its trusted data is the string "
        '"remote", not a hash',
        "hiera-ls facts pull: skipped bad4.example.com: it has a fact 'title', which Puppet "
        "refuses: Cannot reassign variable '$title'",
        'hiera-ls facts pull: skipped a node: the answer holds the string "not a node" where '
        "a node was expected",
        'hiera-ls facts pull: skipped a node: a node\'s certname is the string "", not a name',
    ]
    assert out.splitlines()[:3] == [
        f"Pulled 2 nodes from {fake.url} into {last_good}: 2 new, 0 changed, 0 unchanged.",
        "Kept 1 node this pull did not list (--prune removes them).",
        "Skipped 7 nodes (said above); kept the last good profile of 1.",
    ]
    assert sorted(os.listdir(last_good)) == [
        "bad4.example.com.json",
        "old01.example.com.json",
        "web01.example.com.json",
        "web02.example.com.json",
    ]
    assert "last good" in (last_good / "bad4.example.com.json").read_text()


def test_the_token_is_sent_as_x_authentication_and_a_missing_token_file_stops_first(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    token = tmp_path / "token"
    token.write_text("0VZZ9Fz7Q4ec6wDa\n")
    with serving(FakePuppetDB([good_row("web01.example.com")])) as fake:
        code, _, _ = pull(
            capsys, "--puppetdb", fake.url, "--token", str(token), "--output", str(tmp_path / "f")
        )
        assert code == 0
        assert fake.requests[0].headers["X-Authentication"] == "0VZZ9Fz7Q4ec6wDa"
        fake.requests.clear()
        code, _, err = pull(
            capsys,
            "--puppetdb",
            fake.url,
            "--token",
            str(tmp_path / "nope"),
            "--output",
            str(tmp_path / "f"),
        )
        assert fake.requests == []
    assert code == 2 and f"the token file {tmp_path / 'nope'} does not exist" in err


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        ([], "name PuppetDB: --puppetdb URL, or --puppetdb alone for the URL .hiera-ls.yaml names"),
        (
            ["--puppetdb", "puppetdb.example.com"],
            "--puppetdb: must be an http:// or https:// "
            "URL with a host, not 'puppetdb.example.com'",
        ),
        (["--puppetdb", "http://h:8080", "--timeout", "0"], "--timeout must be more than 0"),
        (
            ["--puppetdb", "http://h:8080", "--query", '["=", '],
            "--query starts with '[' but is not JSON (an AST query)",
        ),
        (
            [
                "--puppetdb",
                "https://h:8081",
                "--cert",
                "/nonexistent/c.pem",
                "--key",
                "/nonexistent/k.pem",
            ],
            "the client certificate (cert) /nonexistent/c.pem does not exist",
        ),
        (
            ["--puppetdb"],
            "--puppetdb without a URL uses the repository's; .hiera-ls.yaml "
            "names none (puppetdb: url:)",
        ),
    ],
)
def test_what_cannot_be_used_is_said_before_any_request(
    argv: list[str],
    said: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / ".git").mkdir()  # no .hiera-ls.yaml above this repository
    code, out, err = pull(capsys, *argv)
    assert (code, out) == (2, "")
    assert err.startswith(f"hiera-ls facts pull: error: {said}")


def test_puppetdb_alone_takes_the_repository_url_and_its_files(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "token").write_text("team-token\n")
    with serving(FakePuppetDB([good_row("web01.example.com")])) as fake:
        (tmp_path / ".hiera-ls.yaml").write_text(
            f"puppetdb:\n  url: {fake.url}/\n  token: token\n"
            '  query: \'["=", "facts.role", "web"]\'\n'
        )
        monkeypatch.chdir(tmp_path)
        code, out, err = pull(capsys, "--puppetdb")
    assert (code, err) == (0, "")
    assert out.startswith(f"Pulled 1 node from {fake.url} into .hiera-ls/facts/puppetdb: 1 new")
    assert fake.requests[0].headers["X-Authentication"] == "team-token"
    assert fake.requests[0].params["query"] == '["extract",["certname"],["=","facts.role","web"]]'
    assert os.listdir(tmp_path / ".hiera-ls" / "facts" / "puppetdb") == ["web01.example.com.json"]


def test_the_default_directory_is_in_the_repository_even_from_a_subdirectory(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / ".git").mkdir()
    (tmp_path / "data" / "roles").mkdir(parents=True)
    monkeypatch.chdir(tmp_path / "data" / "roles")
    with serving(FakePuppetDB([good_row("web01.example.com")])) as fake:
        code, out, _ = pull(capsys, "--puppetdb", fake.url)
    assert code == 0
    assert f"into {tmp_path}/.hiera-ls/facts/puppetdb:" in out  # outside the cwd: absolute
    assert os.listdir(tmp_path / ".hiera-ls" / "facts" / "puppetdb") == ["web01.example.com.json"]
