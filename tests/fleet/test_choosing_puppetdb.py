"""Which PuppetDB, which nodes, which files: queries as PuppetDB gets them, the agent's own
certificate found without running Puppet, and a repository's URL used only when allowed."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from hiera_ls.fleet.config import FleetConfigError, resolve
from hiera_ls.fleet.query import QueryError, facts_batch, parse_query
from hiera_ls.fleet.tls import TLSFiles, with_puppet_defaults
from hiera_ls.project.puppetdb_settings import PuppetDBSettings
from hiera_ls.project.repo_config import load_repo_config
from hiera_ls.project.settings import parse_settings

INVENTORY, ROOT = "/pdb/query/v4/inventory", "/pdb/query/v4"
EVERY = '["extract",["certname"]]'


def ast(value: object) -> str:
    return json.dumps(value, separators=(",", ":"))


@pytest.mark.parametrize(
    ("given", "path", "query"),
    [
        (None, INVENTORY, EVERY),
        ("  ", INVENTORY, EVERY),
        (
            'inventory[certname] { facts.os.family = "Debian" }',
            ROOT,
            'inventory[certname] { facts.os.family = "Debian" }',
        ),
        (
            'nodes { facts_environment = "staging" }',
            ROOT,
            'nodes[certname] { facts_environment = "staging" }',
        ),
        (
            'inventory[facts.os] { certname ~ "^web" } limit 5',
            ROOT,
            'inventory[certname] { certname ~ "^web" } limit 5',
        ),
        (
            '["=", "facts.os.family", "Debian"]',
            INVENTORY,
            ast(["extract", ["certname"], ["=", "facts.os.family", "Debian"]]),
        ),
        (
            '["from", "nodes", ["=", "facts_environment", "staging"], ["limit", 5]]',
            ROOT,
            ast(
                [
                    "from",
                    "nodes",
                    ["extract", ["certname"], ["=", "facts_environment", "staging"]],
                    ["limit", 5],
                ]
            ),
        ),
        (
            '["from", "facts", ["extract", ["certname", "value"], ["=", "name", "role"]]]',
            ROOT,
            ast(["from", "facts", ["extract", ["certname"], ["=", "name", "role"]]]),
        ),
    ],
)
def test_a_query_becomes_the_request_for_the_certnames_it_selects(
    given: str | None, path: str, query: str
) -> None:
    parsed = parse_query(given)
    assert (parsed.path, parsed.names_params()) == (path, [("query", query)])


def test_their_facts_are_asked_for_by_name_in_certname_order() -> None:
    assert facts_batch(["a.example.com", "b.example.com"]) == {
        "query": ["in", "certname", ["array", ["a.example.com", "b.example.com"]]],
        "order_by": [{"field": "certname", "order": "asc"}],
    }


@pytest.mark.parametrize(
    ("given", "said"),
    [
        ("[1,", "not JSON"),
        ("[]", "an AST --query is a JSON list"),
        ("{x}", "neither PQL"),
        ('["from", 3]', "names its entity"),
    ],
)
def test_a_query_that_is_neither_pql_nor_ast_is_refused_before_asking(
    given: str, said: str
) -> None:
    with pytest.raises(QueryError, match=said):
        parse_query(given)


def agent(tmp_path: Path, ssldir: str, certname: str) -> Path:
    root = tmp_path / ssldir.strip("/")
    (root / "certs").mkdir(parents=True)
    (root / "private_keys").mkdir()
    for path in (
        root / "certs" / f"{certname}.pem",
        root / "certs" / "ca.pem",
        root / "private_keys" / f"{certname}.pem",
    ):
        path.write_text("PEM\n")
    return root


def test_the_agents_certificate_is_found_by_puppet_conf_then_by_host_name(tmp_path: Path) -> None:
    ssl = agent(tmp_path, "/etc/puppetlabs/puppet/ssl", "agent01.example.com")
    conf = tmp_path / "puppet.conf"
    conf.write_text(f"[main]\nssldir = {ssl}\n[agent]\ncertname = agent01.example.com\n")
    found = with_puppet_defaults(TLSFiles(), confs=[str(conf)], ssl_dirs=[], fqdn="other")
    assert found == TLSFiles(
        f"{ssl}/certs/agent01.example.com.pem",
        f"{ssl}/private_keys/agent01.example.com.pem",
        f"{ssl}/certs/ca.pem",
        (
            f"{ssl}/certs/agent01.example.com.pem",
            f"{ssl}/private_keys/agent01.example.com.pem",
            f"{ssl}/certs/ca.pem",
        ),
    )
    by_fqdn = with_puppet_defaults(
        TLSFiles(), confs=[], ssl_dirs=[str(ssl)], fqdn="agent01.example.com"
    )
    assert by_fqdn == found
    # the one certificate with its key, when the host name is not the certname
    lone = with_puppet_defaults(TLSFiles(), confs=[], ssl_dirs=[str(ssl)], fqdn="renamed")
    assert lone == found


def test_the_users_own_files_win_and_nothing_is_guessed_without_puppet(tmp_path: Path) -> None:
    ssl = agent(tmp_path, "ssl", "agent01.example.com")
    mine = TLSFiles(cert="/mine/cert.pem", key="/mine/key.pem")
    assert with_puppet_defaults(mine, confs=[], ssl_dirs=[str(ssl)], fqdn="x") == TLSFiles(
        "/mine/cert.pem", "/mine/key.pem", f"{ssl}/certs/ca.pem", (f"{ssl}/certs/ca.pem",)
    )
    assert (
        with_puppet_defaults(TLSFiles(), confs=[], ssl_dirs=[str(tmp_path / "no")], fqdn="x")
        == TLSFiles()
    )


REPO = PuppetDBSettings(
    url="https://pdb.repo.example:8081",
    query="nodes {}",
    token="/repo/token",
    cert="/repo/cert.pem",
    key="/repo/key.pem",
)


def test_a_repositorys_url_is_used_only_when_the_user_allows_it() -> None:
    none = resolve(PuppetDBSettings(), REPO, puppet_defaults=False)
    assert none.config is None
    assert none.notes == (
        ".hiera-ls.yaml names PuppetDB at https://pdb.repo.example:8081; hiera-ls connects "
        "to a URL a repository names only when you allow it (hiera.puppetdb.allowedUrls, or "
        "--puppetdb on the command line)",
    )
    for allowed in (
        resolve(PuppetDBSettings(), REPO, use_repository_url=True, puppet_defaults=False),
        resolve(
            PuppetDBSettings(),
            REPO,
            allowed_urls=["https://pdb.repo.example:8081/"],
            puppet_defaults=False,
        ),
    ):
        config = allowed.config
        assert config is not None
        assert (config.url, config.query, config.token_file) == (
            "https://pdb.repo.example:8081",
            "nodes {}",
            "/repo/token",
        )
        assert (config.tls.cert, config.tls.key) == ("/repo/cert.pem", "/repo/key.pem")


def test_the_users_url_never_gets_the_repositorys_credentials() -> None:
    user = PuppetDBSettings(url="https://pdb.mine.example:8081", timeout=5)
    config = resolve(user, REPO, puppet_defaults=False).config
    assert config is not None
    assert (config.url, config.query, config.timeout) == (
        "https://pdb.mine.example:8081",
        "nodes {}",
        5,
    )
    assert (config.token_file, config.tls.cert, config.tls.key) == (None, None, None)
    # the same URL as the repository's: its files are for that PuppetDB
    same = resolve(
        PuppetDBSettings(url="https://pdb.repo.example:8081"), REPO, puppet_defaults=False
    ).config
    assert same is not None and same.token_file == "/repo/token"


def test_hiera_ls_yaml_puppetdb_settings_are_read_and_their_mistakes_placed() -> None:
    text = (
        "puppetdb:\n"
        "  url: https://puppetdb.example.com:8081\n"
        "  query: 'inventory[certname] { facts.os.family = \"Debian\" }'\n"
        "  cacert: ssl/ca.pem\n"
        "  token: ~/.puppetlabs/token\n"
        "  timeout: 12\n"
    )
    config = load_repo_config("/repo/.hiera-ls.yaml", text)
    assert config.problems == ()
    settings = config.puppetdb
    assert settings.url == "https://puppetdb.example.com:8081"
    assert settings.query == 'inventory[certname] { facts.os.family = "Debian" }'
    assert settings.cacert == "/repo/ssl/ca.pem"
    assert settings.token is not None and settings.token.endswith("/.puppetlabs/token")
    assert settings.timeout == 12.0
    bad = load_repo_config(
        "/repo/.hiera-ls.yaml",
        "puppetdb:\n  url: puppetdb:8081\n  timeout: -1\n  cert: 3\n  port: 8081\n",
    )
    assert [(p.code, p.where.span.start.line, p.message) for p in bad.problems] == [
        (
            "config-bad-value",
            1,
            "puppetdb: url must be an http:// or https:// URL with a host, not 'puppetdb:8081'",
        ),
        ("config-bad-value", 2, "puppetdb: timeout must be more than 0 and at most 3600 seconds"),
        ("config-bad-value", 3, "puppetdb: cert must be a file path"),
        (
            "config-unknown-setting",
            4,
            "Unknown setting puppetdb: port: hiera-ls reads url, "
            "query, cert, key, cacert, token, timeout",
        ),
    ]
    assert bad.puppetdb == PuppetDBSettings()


def test_the_editors_puppetdb_settings_are_read_nested_or_dotted_and_checked() -> None:
    nested = parse_settings(
        {
            "hiera": {
                "puppetdb": {
                    "url": "https://pdb:8081",
                    "timeout": 5,
                    "query": "nodes {}",
                    "token": "~/.puppetlabs/token",
                    "allowedUrls": ["http://a:8080/"],
                }
            }
        }
    )
    assert nested.messages == ()
    assert nested.settings.puppetdb == PuppetDBSettings(
        url="https://pdb:8081", query="nodes {}", token="~/.puppetlabs/token", timeout=5.0
    )
    assert nested.settings.puppetdb_allowed == ("http://a:8080",)
    dotted = parse_settings({"hiera.puppetdb.url": "http://pdb:8080"}, nested.settings)
    assert dotted.settings.puppetdb.url == "http://pdb:8080"
    assert dotted.settings.puppetdb.timeout == 5.0  # the rest stays
    cleared = parse_settings({"hiera": {"puppetdb": {"url": "", "query": None}}}, nested.settings)
    assert (cleared.settings.puppetdb.url, cleared.settings.puppetdb.query) == (None, "nodes {}")
    wrong = parse_settings(
        {"hiera": {"puppetdb": {"url": "pdb", "timeout": "5", "allowedUrls": "ftp://x"}}}
    )
    assert wrong.messages == (
        "hiera.puppetdb.allowedUrls must be a list of http(s) URLs; ignored",
        "hiera.puppetdb.url: url must be an http:// or https:// URL with a host, not 'pdb'; "
        "ignored",
        "hiera.puppetdb.timeout: timeout must be a number of seconds; ignored",
    )
    assert wrong.settings.puppetdb == PuppetDBSettings()


@pytest.mark.parametrize(
    "content", ["", "two words\n", "line one\nline two\n", "A" * 4097, "nul\x00byte"]
)
def test_a_file_that_holds_no_token_is_never_sent(content: str, tmp_path: Path) -> None:
    token = tmp_path / "token"
    token.write_text(content)
    config = resolve(
        PuppetDBSettings(url="http://pdb:8080", token=str(token)), PuppetDBSettings()
    ).config
    assert config is not None
    with pytest.raises(FleetConfigError, match="holds no token"):
        config.token()
    token.write_text("0VZZ9Fz7Q4ec6wDa-Tok.en_/+=\n")
    assert config.token() == "0VZZ9Fz7Q4ec6wDa-Tok.en_/+="
