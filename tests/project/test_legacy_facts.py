"""Facter's legacy facts: the table, checked against Facter's own fact classes, and what a
target's Puppet makes of a facts profile that still has them."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from hiera_ls.project.facts import as_target_reads, left_out_note, load_facts
from hiera_ls.project.legacy_facts import facter_legacy_facts, legacy_fact
from hiera_ls.project.targets import TARGETS
from tests.oracle.engines import PuppetEngine


@pytest.mark.parametrize(
    ("legacy", "modern"),
    [
        ("osfamily", "os.family"),
        ("::operatingsystem", "os.name"),
        ("operatingsystemmajrelease", "os.release.major"),
        ("operatingsystemrelease", "os.release.full"),
        ("lsbmajdistrelease", "os.distro.release.major"),
        ("fqdn", "networking.fqdn"),
        ("ipaddress_eth0", "networking.interfaces.eth0.ip"),
        ("ipaddress6_ens3", "networking.interfaces.ens3.ip6"),
        ("macaddress_eth0.100", "networking.interfaces.eth0.100.mac"),
        ("network_br_ex", "networking.interfaces.br_ex.network"),
        ("mtu_lo", "networking.interfaces.lo.mtu"),
        ("blockdevice_sda_size", "disks.sda.size_bytes"),
        ("processor3", "processors.models.3"),
        ("sshed25519key", "ssh.ed25519.key"),
        ("zone_global_status", "solaris_zones.zones.global.status"),
        ("sp_cpu_type", "system_profiler.processor_name"),
        ("ldom_domainrole_io", "ldom.domainrole.io"),
    ],
)
def test_a_legacy_fact_names_the_structured_fact_that_holds_its_value(
    legacy: str, modern: str
) -> None:
    found = legacy_fact(legacy)
    assert found is not None and found.modern == modern and found.exact


def test_where_the_structured_fact_holds_another_form_the_table_says_how() -> None:
    mib = legacy_fact("memoryfree_mb")
    assert mib is not None and mib.modern == "memory.system.available_bytes" and not mib.exact
    assert "MiB" in mib.differs
    fingerprints = legacy_fact("sshfp_rsa")
    assert fingerprints is not None and fingerprints.modern == "ssh.rsa.fingerprints"
    assert not fingerprints.exact
    assert legacy_fact("role") is None and legacy_fact("os") is None
    assert legacy_fact("kernel") is None  # a core fact, not a legacy one


OLD_FACTER = """\
clientcert: web01.example.com
osfamily: Debian
operatingsystem: Debian
os: {family: Debian, name: Debian}
ipaddress_eth0: 10.0.0.1
network_zone: dmz
networking:
  interfaces: {eth0: {ip: 10.0.0.1}}
role: web
"""


def test_a_puppet_8_target_reads_an_old_profile_without_its_legacy_facts(tmp_path: Path) -> None:
    profile = load_facts(str(tmp_path / "web.yaml"), OLD_FACTER)
    # network_zone would be the network of an interface 'zone', which this node lacks: a
    # custom fact, kept
    assert facter_legacy_facts(profile.facts) == ["osfamily", "operatingsystem", "ipaddress_eth0"]
    for name in ("puppet8", "openvox8", "openvox9"):
        read = as_target_reads(profile, TARGETS[name])
        assert read.left_out == ("osfamily", "operatingsystem", "ipaddress_eth0")
        assert set(read.facts) == {"clientcert", "os", "network_zone", "networking", "role"}
        assert read.source is profile.source  # positions still point into the file
    assert as_target_reads(profile, TARGETS["puppet7"]) is profile
    note = left_out_note([as_target_reads(profile, TARGETS["puppet8"])], TARGETS["puppet8"])
    assert note is not None
    assert note.startswith(
        "Puppet 8 agents do not send Facter's legacy facts, so 1 facts profile is read without "
        "osfamily, operatingsystem, ipaddress_eth0 (osfamily is os.family now): web.yaml."
    )
    assert "osfamily is os.family now" in note
    assert left_out_note([profile], TARGETS["puppet7"]) is None


# ----------------------------------------------------------------------------------------------
# The table against Facter's sources (Facter 4.3 beside Puppet 7.23, Facter 4.10 beside 8.10)

_FACT_NAME = re.compile(r"FACT_NAME\s*=\s*'([^']+)'")
_ALIASES = re.compile(r"ALIASES\s*=\s*(%w\[[^\]]*\]|'[^']*')", re.S)
_DYNAMIC = re.compile(r"ResolvedFact\.new\(\s*[\"']([^\"']+)[\"'][^)]*:legacy")
_SAMPLES = {  # a concrete name for each of Facter's patterns (the first that applies)
    r"^processor\.\*$": "processor0",
    r"^ssh\.\*key$": "sshrsakey",
    r"^sshfp_\.\*$": "sshfp_rsa",
    r"\.\*": "eth0",
    r"#\{interface_name\}": "eth0",
    r"#\{disk_name\}": "sda",
    r"#\{index\}": "0",
    r"#\{iterator\}": "0",
    r"#\{ssh\.name\.to_sym\}": "rsa",
    r"#\{zone\[:name\]\}_#\{key\}": "z1_status",
}


def _concrete(name: str) -> str:
    for pattern, sample in _SAMPLES.items():
        name = re.sub(pattern, sample, name)
    return name


def facter_declared(root: Path) -> set[tuple[str, str | None]]:
    """(legacy name, the structured fact it is an alias of or None) for every legacy fact
    Facter's fact classes declare."""
    found: set[tuple[str, str | None]] = set()
    for source in sorted(root.rglob("*.rb")):
        text = source.read_text(encoding="utf-8")
        name = _FACT_NAME.search(text)
        aliases = _ALIASES.search(text)
        if name and aliases:
            raw = aliases.group(1)
            names = raw[3:-1].split() if raw.startswith("%w") else [raw.strip("'")]
            found |= {(_concrete(a), name.group(1)) for a in names}
        if name and re.search(r"TYPE\s*=\s*:legacy", text):
            found.add((_concrete(name.group(1)), None))
        found |= {(_concrete(n), None) for n in _DYNAMIC.findall(text)}
    return found


@pytest.mark.puppet
def test_the_table_has_every_legacy_fact_facter_declares(puppet_engine: PuppetEngine) -> None:
    root = Path(puppet_engine.root or "/") / "usr/lib/ruby/vendor_ruby/facter/facts"
    if not root.is_dir():
        pytest.skip(f"no Facter sources in {root}")
    declared = facter_declared(root)
    assert len(declared) > 100  # the extraction itself works (Facter 4.3: 150, 4.10: 151)
    missing = sorted(name for name, _ in declared if legacy_fact(name) is None)
    assert not missing, f"legacy facts Facter declares that the table lacks: {missing}"
    wrong = sorted(
        (name, structured, legacy_fact(name).modern)  # type: ignore[union-attr]
        for name, structured in declared
        if structured is not None
        and structured not in ("lsbdistrelease",)  # a legacy fact aliasing a legacy fact
        and not (legacy_fact(name).modern + ".").startswith(structured + ".")  # type: ignore[union-attr]
    )
    assert not wrong, f"legacy facts the table maps elsewhere than Facter: {wrong}"
