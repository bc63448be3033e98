"""Clean, realistic control repositories produce no error and no warning, with or without profiles.

A false positive costs as much trust as a miss: these repositories use the idioms real
ones do (facts and trusted variables, node/role/OS/datacenter levels, mapped_paths, globs,
eyaml, module data with default_hierarchy, knockouts, anchors and merge keys, aliases,
escapes) and must come out quiet.
"""

from __future__ import annotations

import glob
import os
import shutil
from pathlib import Path

from hiera_ls.checks.cross_file import discover_sources
from hiera_ls.checks.registry import (
    ProfileLookup,
    build_index,
    check_data_file,
    check_hiera_config,
    check_workspace,
)
from hiera_ls.engine.lookup import LookupSession
from hiera_ls.project.environments import ModuleDirs, environment_at
from hiera_ls.project.facts import load_facts, node_scope
from hiera_ls.source.data_cache import DataCache
from hiera_ls.source.files import FileAccess
from hiera_ls.source.spans import Problem, Severity
from tests.checks.support import make_workspace

FIXTURE = Path(__file__).resolve().parents[2] / "examples" / "control-repo"
SERIOUS = (Severity.ERROR, Severity.WARNING)


def everything(root: Path, profiles: list[ProfileLookup | None]) -> list[Problem]:
    files = FileAccess()
    env = environment_at(str(root), "production", None, files, module_dirs=ModuleDirs.MODULEPATH)
    sources = discover_sources(env, files)
    assert sources, "the repository has data"
    index = build_index(env, [s.file_keys() for s in sources], files)
    found: list[Problem] = []
    for profile in profiles:
        for source in sources:
            found.extend(check_data_file(index, source, profile))
    for layer in env.layers:
        if layer.config is not None and layer.config.path is not None:
            found.extend(
                check_hiera_config(layer, Path(layer.config.path).read_text(), files, index)
            )
    for problems in check_workspace(index).values():
        found.extend(problems)
    return found


def fixture_profiles(root: Path) -> list[ProfileLookup | None]:
    files = FileAccess()
    env = environment_at(str(root), "production", None, files, module_dirs=ModuleDirs.MODULEPATH)
    out: list[ProfileLookup | None] = [None]
    for path in sorted(glob.glob(str(root / ".hiera-ls" / "facts" / "*"))):
        profile = load_facts(path, Path(path).read_text())
        session = LookupSession(
            env, node_scope(profile.facts, profile.name, "production"), files, DataCache()
        )
        out.append(ProfileLookup(profile.name, lambda key, s=session: s.lookup(key)))  # type: ignore[misc]
    assert len(out) == 3
    return out


def test_the_fixture_control_repository_is_clean(tmp_path: Path) -> None:
    root = tmp_path / "control-repo"
    shutil.copytree(FIXTURE, root)
    assert everything(root, fixture_profiles(root)) == []


REALISTIC = {
    "environment.conf": "modulepath = site-modules:modules:$basemodulepath\n",
    "hiera.yaml": """\
        ---
        version: 5
        defaults:
          datadir: data
          data_hash: yaml_data
        hierarchy:
          - name: "Secrets"
            lookup_key: eyaml_lookup_key
            paths:
              - "secrets/nodes/%{trusted.certname}.eyaml"
              - "secrets/common.eyaml"
            options:
              pkcs7_private_key: /etc/puppetlabs/puppet/eyaml/private_key.pkcs7.pem
              pkcs7_public_key: /etc/puppetlabs/puppet/eyaml/public_key.pkcs7.pem
          - name: "Per-node data"
            path: "nodes/%{::trusted.certname}.yaml"
          - name: "Per-role data"
            path: "roles/%{facts.role}.yaml"
          - name: "Datacenters"
            mapped_paths: [facts.datacenters, dc, "datacenter/%{dc}.yaml"]
          - name: "Per-OS"
            paths:
              - "os/%{facts.os.family}/%{facts.os.release.major}.yaml"
              - "os/%{facts.os.family}.yaml"
          - name: "Teams"
            glob: "teams/*.yaml"
          - name: "JSON overrides"
            data_hash: json_data
            path: "overrides.json"
          - name: "Common"
            path: "common.yaml"
        """,
    "data/secrets/common.eyaml": """\
        ---
        profile::db::password: >
            ENC[PKCS7,MIIBiQYJKoZIhvcNAQcDoIIBejCCAXYCAQAxggEhMIIBHQIBAD
            AFMAACAQEwDQYJKoZIhvcNAQEBBQAEggEAImKRUU+uLAG1O60v56jcy9fvv+
            jSL8R6swnd1SvIltaeooK1GjwMWW/QqDx3g/h0FHGkf4x6WBx63t16xJjM+2
            DO+hRwZoJfkZbFGslfKPKFXV8fyoaWW0Cpcoznn4SobSNOJxIWv83dmCMmj6
            TDemLFyemeiuS8V6VLH2v7jFKEz+WnthG5FYKf6D4/DRzwbZIS5xPt2bEvpL
            dWgbQBZ67rHMi1PSfsHYgZ6zKCk4AbIMJLJNUUVYDJAz535sOW/Om/5rsYUb
            IDV31MvuZbfEfRyiw/JZShG6TSceej3yW61oQc2UfVbd4frZHI4qPDNPLW8t
            RTjmA+c5rDMONhbDBMBgkqhkiG9w0BBwEwHQYJYIZIAWUDBAEqBBCdBNIPa0
            IgLi+74KvBLVvLgCAiW/yZALhmxAwTyQLmWWZbfs5UWdgVeObqo9LSv323CA
            ==]
        """,
    "data/secrets/nodes/web01.example.com.eyaml": (
        "---\nprofile::web::api_token: "
        "ENC[PKCS7,MIIBiQYJKoZIhvcNAQcDoIIBejCCAXYCAQAxggEhMIIBHQIBAD"
        "AFMAACAQEwDQYJKoZIhvcNAQEBBQAEggEAGHhRbAeR411WYw6MbQUmMl4ZxQX3oxfhgM6ozfWVOMBA/P"
        "Na7AgsCMNvkK74cKlFdlo2xtS6gJjGeFl9TnrFe8MYoLdQAuXcq3sc5MBiECv08tZ7/cAVtBy8Xu0u63"
        "yPLQV1oMWTijB2IvhjA3jOPvZ5v9lM7CCLIbG3mbkQxp4JeeKgXwYAJQkPr2JrfcaOtfxd2TUGuWFhYb"
        "zccRls6KakAMOM8VD2YGKWYniR0KXoK0grGVLcs1NLYbkxZiMRLe2NBeMfL6+b9d4o2oaWvYFcQWRUQ8"
        "0GK4zcA0J6vwxofxavcjuGMUHk4v7fJNo8LbeI4r3cw7Hy6WfI5PbACzBMBgkqhkiG9w0BBwEwHQYJYI"
        "ZIAWUDBAEqBBCfJ1hnnC1sWW67Mfml4brlgCAGoEbCxfBRs2iAlHyHKFKfN5JVudHCcwCTgjImO/4NiQ"
        "==]"
        "\n"
    ),
    "data/common.yaml": """\
        ---
        lookup_options:
          "^profile::.*::packages$":
            merge: unique
          profile::base::users:
            merge:
              strategy: deep
              knockout_prefix: "--"
              merge_hash_arrays: true
          profile::base::sysctl:
            merge: deep
          classes:
            merge:
              strategy: unique
          profile::base::limits:
            convert_to: Hash

        classes:
          - profile::base

        defaults: &defaults
          shell: /bin/bash
          managehome: true

        profile::base::domain: example.com
        profile::base::fqdn: "%{facts.networking.fqdn}"
        profile::base::admin: "root@%{lookup('profile::base::domain')}"
        profile::base::motd: |
          Welcome to %{::trusted.certname} (%{facts.os.name} %{facts.os.release.full}).
          Managed by Puppet in %{environment}; 100%{literal('%')} automated.
        profile::base::banner: >
          This host is part of the
          %{lookup('profile::base::domain')} estate.
        profile::base::users:
          alice:
            <<: *defaults
            uid: 1001
          bob:
            <<: *defaults
            uid: 1002
        profile::base::packages:
          - vim
          - curl
        profile::base::sysctl:
          net.ipv4.ip_forward: 0
        profile::base::limits: {}
        profile::base::printf_format: "%%{}{user} logged in"
        profile::base::hosts:
          "%{facts.networking.hostname}.example.com": "%{facts.networking.ip}"
        profile::base::ntp_servers: "%{alias('ntp::servers')}"
        profile::base::greeting: 'Hello, %{trusted.certname}'
        profile::base::port: 22
        profile::base::enabled: true
        ntp::servers:
          - 0.pool.ntp.org
          - 1.pool.ntp.org
        """,
    "data/overrides.json": (
        '{"profile::base::timeout": 30, "profile::base::label": '
        '"\\u00e9t\\u00e9 %{facts.os.family}"}\n'
    ),
    "data/nodes/web01.example.com.yaml": """\
        ---
        profile::base::users:
          bob: "--"
          carol:
            uid: 1003
        profile::web::vhost: "www.%{lookup('profile::base::domain')}"
        """,
    "data/roles/web.yaml": """\
        ---
        classes:
          - role::web
        profile::web::packages:
          - nginx
        """,
    "data/datacenter/ams1.yaml": "---\nprofile::base::dns: [10.1.0.53]\n",
    "data/os/Debian.yaml": "---\nprofile::base::packages: [apt-transport-https]\n",
    "data/os/Debian/12.yaml": "---\nntp::service_name: ntpsec\n",
    "data/teams/ops.yaml": "---\nprofile::base::oncall: ops@example.com\n",
    "site-modules/profile/hiera.yaml": """\
        ---
        version: 5
        defaults:
          datadir: data
          data_hash: yaml_data
        hierarchy:
          - name: "OS family"
            path: "os/%{facts.os.family}.yaml"
          - name: "Common"
            path: "common.yaml"
        default_hierarchy:
          - name: "Defaults"
            path: "defaults.yaml"
        """,
    "site-modules/profile/data/common.yaml": """\
        ---
        lookup_options:
          "^profile::base::":
            merge: first
        profile::base::timezone: UTC
        """,
    "site-modules/profile/data/os/Debian.yaml": "---\nprofile::base::pkg_provider: apt\n",
    "site-modules/profile/data/defaults.yaml": "---\nprofile::web::port: 80\n",
    "modules/ntp/hiera.yaml": """\
        ---
        version: 5
        hierarchy:
          - name: "common"
            path: "common.yaml"
        """,
    "modules/ntp/data/common.yaml": (
        "---\nntp::servers: [2.pool.ntp.org]\nntp::service_name: ntpd\n"
    ),
}


def test_a_realistic_repository_is_clean_with_and_without_a_profile(tmp_path: Path) -> None:
    ws = make_workspace(tmp_path, REALISTIC)
    facts: dict[str, object] = {
        "role": "web",
        "datacenters": ["ams1"],
        "os": {"family": "Debian", "name": "Debian", "release": {"major": "12", "full": "12.5"}},
        "networking": {"fqdn": "web01.example.com", "hostname": "web01", "ip": "10.1.2.11"},
    }
    found = everything(ws.root, [None, ws.profile(facts)])
    assert [p for p in found if p.severity in SERIOUS] == []
    # Hints are allowed, but this repository has nothing worth one either.
    assert found == []


def test_the_checks_never_write_user_files(tmp_path: Path) -> None:
    ws = make_workspace(tmp_path, REALISTIC)
    before = {p: os.path.getmtime(p) for p in glob.glob(str(ws.root / "**" / "*"), recursive=True)}
    everything(ws.root, [None])
    after = {p: os.path.getmtime(p) for p in glob.glob(str(ws.root / "**" / "*"), recursive=True)}
    assert before == after


# ---------------------------------------------------------------- layouts of real repositories

DATA_MODULE_LAYOUT = {
    # A control repository whose data lives in a module r10k deploys (example42's psick does
    # this): the environment's datadir points into the module, and the module ships a copy of
    # the same hiera.yaml, whose datadir is then relative to the module and names nothing.
    "hiera.yaml": """\
        version: 5
        defaults:
          datadir: modules/sitedata/data
          data_hash: yaml_data
        hierarchy:
          - name: "Site data"
            paths:
              - "nodes/%{trusted.certname}.yaml"
              - "common.yaml"
        """,
    "modules/sitedata/hiera.yaml": """\
        version: 5
        defaults:
          datadir: modules/sitedata/data
          data_hash: yaml_data
        hierarchy:
          - name: "Site data"
            paths:
              - "nodes/%{trusted.certname}.yaml"
              - "common.yaml"
        """,
    "modules/sitedata/data/common.yaml": """\
        lookup_options:
          profile::base::packages:
            merge: unique
        profile::base::timezone: Europe/Rome
        profile::base::domain: example.org
        profile::base::admin: "root@%{lookup('profile::base::domain')}"
        profile::base::packages: [vim]
        """,
    "modules/sitedata/data/nodes/web01.example.com.yaml": (
        "profile::base::timezone: UTC\nprofile::base::packages: [nginx]\n"
    ),
}


def test_data_of_a_module_that_only_the_environment_reads_is_environment_data(
    tmp_path: Path,
) -> None:
    # Puppet 7.23 (--explain): the environment provider reads modules/sitedata/data/*.yaml and
    # returns 'UTC' and 'root@example.org' without a warning; the module provider looks in
    # modules/sitedata/modules/sitedata/data and finds nothing.  The keys are not module data.
    ws = make_workspace(tmp_path, DATA_MODULE_LAYOUT)
    found = everything(ws.root, [None, ws.profile({})])
    assert [p.code for p in found if p.severity in SERIOUS] == ["hiera-datadir-missing"]
    assert found[0].where.path == str(
        ws.root / "modules/sitedata/hiera.yaml"
    )  # true: that datadir is absent


CODE_BACKED_LAYOUT = {
    # magic_castle's shape: a data_hash function of the repository's own builds keys (here
    # 'cloud') from a file generated at deploy time, and common data interpolates them.
    "hiera.yaml": """\
        version: 5
        defaults:
          datadir: data
          data_hash: yaml_data
        hierarchy:
          - name: "Generated by the provisioner"
            data_hash: site_generated
            path: "generated.yaml"
          - name: "Secrets"
            lookup_key: eyaml_lookup_key
            path: "secrets.eyaml"
            options:
              pkcs7_private_key: /etc/puppetlabs/puppet/eyaml/private_key.pkcs7.pem
          - name: "Common"
            path: "common.yaml"
        """,
    "data/common.yaml": """\
        profile::base::region: "%{lookup('cloud.region')}"
        profile::base::nodes: "%{alias('cloud.nodes')}"
        profile::base::domain: "%{hiera('cloud.domain')}"
        """,
}


def test_keys_a_function_of_the_repository_may_build_are_not_called_undefined(
    tmp_path: Path,
) -> None:
    # Puppet 7.23: with generated.yaml present, lookup('profile::base::region') gives what the
    # function returns ('r1'), not ''.  hiera-ls cannot run the function, so it cannot know.
    ws = make_workspace(tmp_path, CODE_BACKED_LAYOUT)
    found = everything(ws.root, [None, ws.profile({})])
    assert [p for p in found if p.severity in SERIOUS] == []


def test_a_module_with_a_custom_backend_only_hides_its_own_keys(tmp_path: Path) -> None:
    ws = make_workspace(
        tmp_path,
        {
            "modules/vault/hiera.yaml": """\
                version: 5
                hierarchy:
                  - name: "Vault"
                    lookup_key: vault_lookup
                    uri: "https://vault.example.com:8200"
                  - name: "Common"
                    path: common.yaml
                """,
            "modules/vault/data/common.yaml": "vault::addr: https://vault.example.com:8200\n",
            "data/common.yaml": "a: \"%{lookup('vault::token')}\"\nb: \"%{lookup('nosuch')}\"\n",
        },
    )
    found = [p for p in ws.data_problems("data/common.yaml") if p.severity in SERIOUS]
    assert [(p.code, p.where.span.start.line) for p in found] == [("reference-undefined-key", 1)]


def test_a_file_no_level_reads_takes_no_blame_for_a_failing_lookup(tmp_path: Path) -> None:
    # A leftover from an older hierarchy (a data/classes.yaml no level names) repeats a key
    # whose lookup fails for the profile because of another file; Puppet never opens the
    # leftover, so the failure is reported where it comes from, and the leftover gets its hint.
    ws = make_workspace(
        tmp_path,
        {
            "data/common.yaml": 'motd: "Managed host %{::datacentre}"\n',
            "data/nodes/web01.example.com.yaml": "ntp::servers: [ntp1.example.com]\n",
            "data/classes.yaml": "motd: Managed host\nclasses: [role::base]\n",
        },
    )
    found = everything(ws.root, [None, ws.profile({})])
    assert sorted((p.code, Path(p.where.path).name) for p in found) == [
        ("hiera-data-file-unused", "classes.yaml"),
        ("lookup-fails-for-profile", "common.yaml"),
    ]
