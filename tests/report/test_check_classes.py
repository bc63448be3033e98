"""`hiera-ls check` over many profiles checks each class of profiles once: its report must be
the one a pass per profile gives (the way it was done before, kept here as the oracle), on
random repositories and fleets: node files for some nodes, facts missing for others, data
interpolating facts and the certname, failing lookups, values of the wrong type for class
parameters, required parameters no data gives, suppressions, files Puppet refuses."""

from __future__ import annotations

import json
import os
import random
from dataclasses import dataclass
from pathlib import Path

import pytest

from hiera_ls.checks.causes import with_words
from hiera_ls.checks.cross_file import DataSource
from hiera_ls.checks.profile import profile_label
from hiera_ls.features import class_checks
from hiera_ls.features.class_checks import profile_classes
from hiera_ls.features.diagnostics import Diagnostics, project_paths
from hiera_ls.features.profile_signature import ProfileSignatures
from hiera_ls.project.facts import node_scope
from hiera_ls.project.workspace import Workspace
from hiera_ls.puppet.message import Text
from hiera_ls.report.formats import Report, formatters
from hiera_ls.report.run import CheckResult, Finding, run_check
from hiera_ls.source.data_file import DataFile
from hiera_ls.source.spans import Consequence, Problem

HIERA = """\
---
version: 5
defaults:
  datadir: data
  data_hash: yaml_data
hierarchy:
  - name: nodes
    path: "nodes/%{trusted.certname}.yaml"
  - name: regex
    lookup_key: site::regex_data
    path: regex.yaml
    options:
      node: "%{trusted.certname}"
  - name: role and dc
    path: "roles/%{facts.role}/%{facts.dc}.yaml"
  - name: role
    path: "roles/%{facts.role}.yaml"
  - name: os
    path: "os/%{facts.os.family}.yaml"
  - name: dc, a file per key's module
    lookup_key: site::expand_path
    path: "expanded/%{facts.dc}"
  - name: common
    path: common.yaml
"""

MODULE_HIERA = """\
---
version: 5
hierarchy:
  - name: os
    path: "os/%{facts.os.family}.yaml"
  - name: common
    path: common.yaml
"""

BACKENDS = "backends:\n  site::regex_data: yaml_data\n  site::expand_path: expand_path\n"

MANIFEST = """\
class app (
  Integer[1, 65535] $port,
  Array[String] $servers = [],
  Hash $settings = {},
  String $motd = 'x',
  Enum['on', 'off'] $mode = 'on',
) {}
class app::db (
  String $password,
  Integer $size = 1,
) {}
class role::web { include app }
class role::db { include app::db }
"""


def _write(root: Path, rel: str, text: str) -> None:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)


def _repository(root: Path, rng: random.Random, nodes: list[str]) -> None:
    _write(root, "hiera.yaml", HIERA)
    _write(root, "manifests/site.pp", "node default { lookup('classes', Array, 'unique').include }")
    _write(root, "modules/app/manifests/init.pp", MANIFEST)
    common = {
        "lookup_options": {
            "app::settings": {"merge": "deep"},
            "classes": {"merge": "unique"},
            # its keys are interpolated too: for a node without a role, with '' (a value
            # that read it is not judged, and no later lookup may forget it)
            "%{facts.role}::extra": {"merge": "unique"},
        },
        "classes": ["role::%{facts.role}"] if rng.random() < 0.5 else [],
        "app::port": rng.choice([80, "eighty", "%{facts.port}"]),
        "app::servers": rng.choice([["a"], "a", ["%{trusted.certname}"]]),
        "app::settings": {"dc": "%{facts.dc}", "size": rng.choice([1, "one"])},
        "app::motd": rng.choice(["hello %{trusted.certname}", "%{lookup('app::servers')}"]),
        "app::mode": rng.choice(["on", "off", "%{facts.mode}"]),
        "app::db::size": rng.choice([1, "big"]),
        "app::zone": "%{facts.dc}-%{facts.os.family}",
    }
    _write(root, "data/common.yaml", json.dumps(common))
    for role in ("web", "db"):
        data: dict[str, object] = {"classes": [f"role::{role}"]}
        if rng.random() < 0.6:
            data["app::port"] = rng.choice([8080, "web", 0])
        if rng.random() < 0.5:
            data["app::settings"] = rng.choice([{"tier": role}, "flat"])
        _write(root, f"data/roles/{role}.yaml", json.dumps(data))
        for dc in ("fra", "ams"):
            if rng.random() < 0.6:
                value = rng.choice([{"dc": dc}, ["x"], "%{lookup('app::zone')}"])
                text = json.dumps({"app::settings": value, "app::mode": rng.choice(["on", "no"])})
                if rng.random() < 0.3:
                    text = "---\napp::mode: 'no' # hiera-ls: disable-line\n"
                _write(root, f"data/roles/{role}/{dc}.yaml", text)
    _write(root, "data/regex.yaml", json.dumps({"app::motd": "by regex"}))
    # the regex level takes the node's name as an option, which changes no answer
    _write(root, ".hiera-ls.yaml", BACKENDS)
    for dc in ("fra", "ams"):  # what only a directory's files interpolate splits nodes too
        data = {"app::mode": "%{facts.mode}"} if rng.random() < 0.7 else {}
        _write(root, f"data/expanded/{dc}/app.yaml", json.dumps(data))
    _write(root, "data/os/Debian.yaml", json.dumps({"app::servers": ["deb"], "app::db::size": 2}))
    for name in rng.sample(nodes, 4):
        data = {"app::port": rng.choice([22, "ssh", 70000]), "app::motd": f"I am {name}"}
        text = json.dumps(data) if rng.random() < 0.8 else "app::port: [unclosed\n"
        _write(root, f"data/nodes/{name}.yaml", text)
    # module data: a lookup of a module's key reads that module's hiera.yaml and data (which
    # interpolate facts), and no other module's
    _write(root, "modules/app/hiera.yaml", MODULE_HIERA)
    app = {"app::db::size": rng.choice([3, "%{facts.port}"]), "app::motd": "%{facts.mode}"}
    _write(root, "modules/app/data/common.yaml", json.dumps(app))
    _write(root, "modules/app/data/os/RedHat.yaml", json.dumps({"app::port": "%{facts.dc}"}))
    _write(root, "modules/web/manifests/init.pp", "class web (Integer $port = 1) {}\n")
    _write(root, "modules/web/hiera.yaml", MODULE_HIERA)
    web = {"web::port": rng.choice(["%{facts.port}", "%{facts.role}", 8]), "app::port": 1}
    _write(root, "modules/web/data/common.yaml", json.dumps(web))


def _facts(rng: random.Random, name: str) -> dict[str, object]:
    facts: dict[str, object] = {"clientcert": name, "uptime": rng.random()}
    if rng.random() < 0.85:
        facts["role"] = rng.choice(["web", "db", "mail"])
    if rng.random() < 0.85:
        facts["dc"] = rng.choice(["fra", "ams"])
    if rng.random() < 0.8:
        facts["os"] = {"family": rng.choice(["Debian", "RedHat"])}
    if rng.random() < 0.3:
        facts["port"] = rng.choice([443, "https"])
    if rng.random() < 0.3:
        facts["mode"] = rng.choice(["on", "auto"])
    return facts


def _fleet(root: Path, seed: int, count: int) -> list[str]:
    rng = random.Random(seed)
    nodes = [f"n{i:02d}.example.com" for i in range(count)]
    _repository(root, rng, nodes)
    for name in nodes:
        _write(root, f".hiera-ls/facts/{name}.json", json.dumps(_facts(rng, name)))
    return nodes


# ------------------------------------------------------------- the oracle: a pass per profile


@dataclass
class _Seen:
    problem: Problem
    text: Text
    profiles: list[str]
    tagged: bool


def _per_profile(paths: list[str]) -> CheckResult:
    """``run_check`` as it was: every check for every profile, one pass each, merged."""
    workspace = Workspace(paths)
    first = workspace.snapshot()
    names = [entry.name for entry in first.profiles]
    files = project_paths(first)
    diagnostics = Diagnostics(every_profile=False)
    diagnostics.rebuild_stale(first, diagnostics.changes)
    seen: dict[tuple[object, ...], _Seen] = {}
    for name in names:
        workspace.select_profile(name)
        snapshot = workspace.snapshot()
        for path in files:
            for found in diagnostics.file_problems(snapshot, path):
                prefix = f"[{name}] "
                tagged = found.text.startswith(prefix)
                text = found.text.without_prefix(prefix) if tagged else found.text
                key = (found.where.path, found.code, found.where.span, text, found.severity)
                entry = seen.setdefault(key, _Seen(found, text, [], tagged))
                entry.tagged = entry.tagged or tagged
                if name not in entry.profiles:
                    entry.profiles.append(name)
    findings = []
    for entry in seen.values():
        some = entry.tagged or 0 < len(entry.profiles) < len(names)
        if entry.problem.code == "suppression-unused" and some:
            continue
        message = entry.text.replace(os.getcwd().rstrip(os.sep) + os.sep, "").plain
        profiles = tuple(entry.profiles) if some else ()
        if profiles:
            message = f"[{profile_label(profiles, len(names))}] {message}"
        found = entry.problem
        items: tuple[Consequence, ...] = ()
        stem = message
        if found.consequences is not None:
            items = found.consequences.items
            message = with_words(message, found.consequences)
        where = found.where
        findings.append(
            Finding(
                where.path,
                found.code,
                found.severity,
                message,
                where.span,
                profiles,
                found.details,
                items,
                stem,
            )
        )
    findings.sort(key=lambda f: (f.path, f.span.start, f.span.end, f.code, f.message))
    return CheckResult(tuple(findings), tuple(files), tuple(names), first.messages)


def _json(result: CheckResult) -> str:
    return formatters()["json"](Report(result, "error", os.getcwd()))


_NO_DATA = DataFile("", {}, None, {}, {}, ())

# one seed in the quick loop, the other seven with the slow tests
SEEDS = [0, *(pytest.param(s, marks=pytest.mark.slow) for s in range(1, 8))]


@pytest.mark.parametrize("seed", SEEDS)
def test_classes_report_what_a_pass_per_profile_reports(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, seed: int
) -> None:
    nodes = _fleet(tmp_path, seed, 24)
    monkeypatch.chdir(tmp_path)
    new = run_check([str(tmp_path)], show_values=True)
    old = _per_profile([str(tmp_path)])
    assert _json(new) == _json(old)
    assert any(f.profiles and len(f.profiles) < len(nodes) for f in new.findings)
    classes = profile_classes(Workspace([str(tmp_path)]).snapshot(), nodes)
    if "trusted.certname" not in (tmp_path / "data" / "common.yaml").read_text():
        assert len(classes) < len(nodes)  # some profiles did share their lookups


def test_profiles_that_read_the_same_are_one_class_and_their_findings_name_each(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _write(tmp_path, "hiera.yaml", HIERA)
    _write(tmp_path, ".hiera-ls.yaml", BACKENDS)
    _write(tmp_path, "modules/app/manifests/init.pp", MANIFEST)
    _write(tmp_path, "manifests/site.pp", "node default { lookup('classes', Array).include }")
    _write(
        tmp_path,
        "data/common.yaml",
        "classes: [role::db]\napp::port: 80\napp::motd: '%{facts.dc}'\n",
    )
    _write(tmp_path, "data/nodes/c.example.com.yaml", "app::db::password: secret\n")
    for name, dc in (("a", "fra"), ("b", "fra"), ("c", "fra"), ("d", "ams"), ("e", None)):
        facts = {"clientcert": f"{name}.example.com", "role": "web", "dc": dc}
        _write(tmp_path, f".hiera-ls/facts/{name}.json", json.dumps(facts))
    snapshot = Workspace([str(tmp_path)]).snapshot()
    names = [e.name for e in snapshot.profiles]
    # c has its own node file; d another datacenter, which the data reads; e none at all
    assert profile_classes(snapshot, names) == [
        ("a.example.com", "b.example.com"),
        ("c.example.com",),
        ("d.example.com",),
        ("e.example.com",),
    ]
    monkeypatch.chdir(tmp_path)
    messages = [f.message for f in run_check(["."]).findings if f.code.startswith("class-")]
    assert messages == [
        "[a.example.com, b.example.com, d.example.com and 1 more profiles] Class 'app::db' "
        "(included by 'role::db') has no default for parameter 'password' and no data gives "
        "'app::db::password' for this node: Puppet fails with \"Class[App::Db]: expects a "
        "value for parameter 'password'\""
    ]


def test_a_key_is_split_only_by_what_its_own_module_interpolates(tmp_path: Path) -> None:
    _write(tmp_path, "hiera.yaml", HIERA)
    _write(tmp_path, "data/common.yaml", "app::motd: hello\nclasses: []\n")
    _write(tmp_path, "modules/web/hiera.yaml", MODULE_HIERA)
    _write(tmp_path, "modules/web/data/common.yaml", "web::port: '%{facts.port}'\n")
    for name, port in (("a", 1), ("b", 2)):
        facts = {"clientcert": f"{name}.example.com", "port": port}
        _write(tmp_path, f".hiera-ls/facts/{name}.json", json.dumps(facts))
    snapshot = Workspace([str(tmp_path)]).snapshot()
    view = snapshot.environments[0]
    signatures = ProfileSignatures(snapshot)
    keys = []
    for entry in snapshot.profiles:
        scope = node_scope(entry.profile.facts, entry.profile.name, view.env.name)
        found = signatures.keys(view, scope)
        assert found is not None
        keys.append(found)
    a, b = keys
    # the web module's data reads the port, and no lookup of another key reaches it
    assert a.of("app::motd") == b.of("app::motd")
    assert a.of("classes") == b.of("classes")
    assert a.of("web::port") != b.of("web::port")


def test_a_file_checked_for_one_class_serves_a_later_class_that_reads_it_alike(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """b's node file makes it a class of its own, but defines nothing common.yaml's keys
    read: common.yaml's lookups are checked once for a and b, and its findings name both."""
    _write(tmp_path, "hiera.yaml", HIERA)
    _write(tmp_path, ".hiera-ls.yaml", BACKENDS)
    _write(tmp_path, "modules/app/manifests/init.pp", MANIFEST)
    _write(tmp_path, "data/common.yaml", "app::mode: '%{facts.mode}'\n")
    _write(tmp_path, "data/nodes/b.example.com.yaml", "app::servers: [b]\n")
    for name, mode in (("a", "auto"), ("b", "auto"), ("c", "on")):
        facts = {"clientcert": f"{name}.example.com", "mode": mode}
        _write(tmp_path, f".hiera-ls/facts/{name}.json", json.dumps(facts))
    checked: list[str] = []
    real = class_checks.check_data_file_lookups

    def counted(index: object, source: DataSource, *rest: object) -> list[Problem]:
        checked.append(os.path.basename(source.path))
        return real(index, source, *rest)  # type: ignore[arg-type]

    monkeypatch.setattr(class_checks, "check_data_file_lookups", counted)
    monkeypatch.chdir(tmp_path)
    result = run_check(["."], show_values=True)
    assert [len(c) for c in profile_classes(Workspace(["."]).snapshot(), result.profiles)] == [
        1,
        1,
        1,
    ]
    # a and b read common.yaml alike; c's mode gives app::mode another value
    # a checks both files; b its own node file (which defines what it asks), and takes a's
    # findings in common.yaml; c gets another app::mode there, and a's in b's node file
    assert checked == ["common.yaml", "b.example.com.yaml", "b.example.com.yaml", "common.yaml"]
    found = [(f.profiles, f.message) for f in result.findings if f.profiles]
    assert found == [
        (
            ("a.example.com", "b.example.com"),
            "[a.example.com, b.example.com] Class[App]: parameter 'mode' expects a match for "
            "Enum['off', 'on'], got 'auto' (the value this node gets from this file)",
        )
    ]
    assert _json(result) == _json(_per_profile(["."]))


def test_key_signatures_that_skip_levels_not_defining_the_key_are_the_full_ones(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A level whose files do not define a key is not asked about it: the signatures are
    those asking every level (on a random fleet, every key of every file): the same pairs
    of a profile and a key share one (a signature is a number, given in the order met)."""
    _fleet(tmp_path, 3, 16)
    snapshot = Workspace([str(tmp_path)]).snapshot()
    view = snapshot.environments[0]
    keys = {
        key
        for path in snapshot.data_files
        for key in (snapshot.data_file(path) or _NO_DATA).data
        if isinstance(key, str)
    }
    keys.add("nowhere::defined")
    assert len(keys) > 8

    def signatures() -> list[object]:
        owner = ProfileSignatures(snapshot)
        out: list[object] = []
        for entry in snapshot.profiles:
            scope = node_scope(entry.profile.facts, entry.profile.name, view.env.name)
            found = owner.keys(view, scope)
            out.append(None if found is None else [found.of(key) for key in sorted(keys)])
        order: dict[object, int] = {}  # each signature by when it was first met
        return [
            None if row is None else [order.setdefault(x, len(order)) for x in row] for row in out
        ]

    quick = signatures()
    monkeypatch.setattr(ProfileSignatures, "plain_part", lambda *_: None)
    assert signatures() == quick


@pytest.mark.parametrize("seed", [3, pytest.param(4, marks=pytest.mark.slow)])
def test_one_signature_of_many_keys_is_equal_exactly_when_each_keys_is(
    tmp_path: Path, seed: int
) -> None:
    """What lets a file's findings for one profile serve another (features/class_checks.py):
    the signature of the keys its checks asked, taken together."""
    _fleet(tmp_path, seed, 16)
    snapshot = Workspace([str(tmp_path)]).snapshot()
    view = snapshot.environments[0]
    keys = sorted(
        {
            key
            for path in snapshot.data_files
            for key in (snapshot.data_file(path) or _NO_DATA).data
            if isinstance(key, str)
        }
        | {"nowhere::defined", "a..b"}
    )
    rng = random.Random(seed)
    groups = [tuple(rng.sample(keys, rng.randint(1, 4))) for _ in range(40)]
    owner = ProfileSignatures(snapshot)
    signed = []
    for entry in snapshot.profiles:
        scope = node_scope(entry.profile.facts, entry.profile.name, view.env.name)
        found = owner.keys(view, scope)
        assert found is not None
        signed.append(found)
    together = 0
    for group in groups:
        for a in signed:
            for b in signed:
                each = [a.of(k) for k in group], [b.of(k) for k in group]
                alike = None not in each[0] and each[0] == each[1]
                assert (a.of_keys(group) is not None) == (None not in each[0])
                assert (alike and a.of_keys(group) == b.of_keys(group)) or (
                    not alike and (a.of_keys(group) is None or a.of_keys(group) != b.of_keys(group))
                )
                together += alike and a is not b
    assert together  # some profiles did sign some groups alike
