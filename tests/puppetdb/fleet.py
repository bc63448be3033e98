"""A fleet of nodes with facts shaped and sized like real ``facter -j`` output.

Each node is drawn, reproducibly from its index, from a few OS families and releases
(Debian 12 and 11, Ubuntu 22.04, Rocky 9 and 8, SLES 15), roles, datacenters and sizes: a
virtual machine's facts are about 8 KB of JSON, a physical server's 20 to 40 KB (a CPU
model per logical processor, dozens of partitions and mountpoints, bonded interfaces), as
Facter 4 reports them. The custom facts (``role``, ``datacenters``) and the trusted
extensions are the ones examples/control-repo's hierarchy reads.
"""

from __future__ import annotations

import base64
import hashlib
import random
from collections.abc import Iterator
from dataclasses import dataclass

ROLES = (
    ("web", 30),
    ("app", 20),
    ("db", 10),
    ("cache", 10),
    ("lb", 5),
    ("monitoring", 5),
    ("build", 10),
    ("mail", 5),
    ("dns", 5),
)
DATACENTERS = ("ams1", "fra2", "iad1", "sfo3")
# (family, name, id, release full, codename, kernel, weight)
SYSTEMS = (
    ("Debian", "Debian", "Debian", "12.5", "bookworm", "6.1.0-18-amd64", 35),
    ("Debian", "Debian", "Debian", "11.9", "bullseye", "5.10.0-28-amd64", 15),
    ("Debian", "Ubuntu", "Ubuntu", "22.04", "jammy", "5.15.0-101-generic", 15),
    ("RedHat", "Rocky", "Rocky", "9.3", "Blue Onyx", "5.14.0-362.18.1.el9_3.x86_64", 20),
    ("RedHat", "Rocky", "Rocky", "8.9", "Green Obsidian", "4.18.0-513.11.1.el8_9.x86_64", 10),
    ("Suse", "SLES", "SUSE", "15.5", "n/a", "5.14.21-150500.55.49-default", 5),
)
CPU_MODELS = (
    "Intel(R) Xeon(R) Gold 6338 CPU @ 2.00GHz",
    "AMD EPYC 7543 32-Core Processor",
    "Intel(R) Xeon(R) Silver 4214R CPU @ 2.40GHz",
)


@dataclass(frozen=True, slots=True)
class Node:
    certname: str
    role: str
    datacenter: str
    family: str
    values: dict[str, object]  # the facts, with ``trusted`` as PuppetDB stores it


def fleet(count: int, seed: int = 1, start: int = 0) -> Iterator[Node]:
    for index in range(start, start + count):
        yield node(index, seed)


def node(index: int, seed: int = 1) -> Node:
    rng = random.Random(seed * 1_000_003 + index)
    role = _weighted(rng, ROLES)
    dc = rng.choice(DATACENTERS)
    family, name, distro_id, full, codename, kernel, _ = _weighted_system(rng)
    hostname = f"{role}{index:05d}"
    domain = f"{dc}.example.com"
    certname = f"{hostname}.{domain}"
    physical = rng.random() < 0.3
    major, _, minor = full.partition(".")
    values: dict[str, object] = {
        "aio_agent_version": "7.28.0",
        "augeas": {"version": "1.14.1"},
        "facterversion": "4.5.1",
        "fips_enabled": False,
        "identity": {"gid": 0, "group": "root", "privileged": True, "uid": 0, "user": "root"},
        "is_virtual": not physical,
        "virtual": "physical" if physical else "kvm",
        "kernel": "Linux",
        "kernelmajversion": ".".join(kernel.split(".")[:2]),
        "kernelrelease": kernel,
        "kernelversion": kernel.split("-")[0],
        "load_averages": {
            "15m": round(rng.random(), 2),
            "1m": round(rng.random() * 2, 2),
            "5m": round(rng.random(), 2),
        },
        "os": {
            "architecture": "amd64" if family == "Debian" else "x86_64",
            "distro": {
                "codename": codename,
                "description": f"{name} {full}",
                "id": distro_id,
                "release": {"full": full, "major": major, "minor": minor},
            },
            "family": family,
            "hardware": "x86_64",
            "name": name,
            "release": {"full": full, "major": major, "minor": minor},
            "selinux": {"enabled": family == "RedHat"},
        },
        "path": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
        "ruby": {
            "platform": "x86_64-linux",
            "sitedir": "/opt/puppetlabs/puppet/lib/ruby/site_ruby/2.7.0",
            "version": "2.7.8",
        },
        "system_uptime": _uptime(rng),
        "timezone": "UTC",
        "role": role,
        "datacenters": [dc],
        "team": rng.choice(("platform", "payments", "search", "data", "edge")),
        "tier": "production" if rng.random() < 0.85 else "staging",
    }
    values.update(_hardware(rng, physical, certname))
    values["networking"] = _networking(rng, physical, hostname, domain, index)
    values["ssh"] = _ssh(rng)
    values["trusted"] = {
        "authenticated": "remote",
        "certname": certname,
        "domain": domain,
        "extensions": {"pp_role": role, "pp_datacenter": dc, "pp_zone": f"zone-{index % 7}"},
        "external": {},
        "hostname": hostname,
    }
    return Node(certname, role, dc, family, values)


def changed(n: Node, generation: int = 1) -> Node:
    """The node after a change of the kind a fleet sees every day: a kernel update."""
    values = dict(n.values)
    values["kernelrelease"] = f"{values['kernelrelease']}+upd{generation}"
    values["patch_generation"] = generation
    return Node(n.certname, n.role, n.datacenter, n.family, values)


def _weighted(rng: random.Random, choices: tuple[tuple[str, int], ...]) -> str:
    return rng.choices([c for c, _ in choices], [w for _, w in choices])[0]


def _weighted_system(rng: random.Random) -> tuple[str, str, str, str, str, str, int]:
    return rng.choices(SYSTEMS, [s[-1] for s in SYSTEMS])[0]


def _size(n: float) -> str:
    for unit in ("bytes", "KiB", "MiB", "GiB", "TiB"):
        if n < 1024:
            return f"{n:.2f} {unit}"
        n /= 1024
    return f"{n:.2f} PiB"


def _uptime(rng: random.Random) -> dict[str, object]:
    seconds = rng.randrange(3600, 400 * 86400)
    days = seconds // 86400
    return {"days": days, "hours": seconds // 3600, "seconds": seconds, "uptime": f"{days} days"}


def _hardware(rng: random.Random, physical: bool, certname: str) -> dict[str, object]:
    cpus = rng.choice((32, 48, 64, 96)) if physical else rng.choice((2, 4, 8))
    model = rng.choice(CPU_MODELS) if physical else "QEMU Virtual CPU version 2.5+"
    memory = (rng.choice((128, 256, 512)) if physical else rng.choice((4, 8, 16))) * 1024**3
    used = int(memory * rng.uniform(0.2, 0.8))
    disks = [f"sd{chr(97 + i)}" for i in range(rng.randrange(4, 12))] if physical else ["vda"]
    uuid = hashlib.md5(certname.encode()).hexdigest()
    facts: dict[str, object] = {
        "processors": {
            "count": cpus,
            "isa": "x86_64",
            "models": [model] * cpus,
            "physicalcount": 2 if physical else 1,
            "speed": "2.00 GHz",
        },
        "memory": {
            "swap": {
                "available": _size(2 * 1024**3),
                "available_bytes": 2 * 1024**3,
                "capacity": "0%",
                "total": _size(2 * 1024**3),
                "total_bytes": 2 * 1024**3,
                "used": "0 bytes",
                "used_bytes": 0,
            },
            "system": {
                "available": _size(memory - used),
                "available_bytes": memory - used,
                "capacity": f"{100 * used / memory:.2f}%",
                "total": _size(memory),
                "total_bytes": memory,
                "used": _size(used),
                "used_bytes": used,
            },
        },
        "disks": {
            d: {
                "model": "PERC H740P Mini" if physical else "QEMU HARDDISK",
                "size": _size(960 * 1024**3),
                "size_bytes": 960 * 1024**3,
                "serial": uuid[:12] + d,
                "type": "ssd",
                "vendor": "DELL" if physical else "QEMU",
            }
            for d in disks
        },
        "dmi": {
            "bios": {
                "release_date": "04/15/2023",
                "vendor": "Dell Inc." if physical else "SeaBIOS",
                "version": "2.18.1",
            },
            "board": {"manufacturer": "Dell Inc.", "product": "0PJ75V", "serial_number": uuid[:10]},
            "chassis": {"asset_tag": "", "type": "Rack Mount Chassis" if physical else "Other"},
            "manufacturer": "Dell Inc." if physical else "QEMU",
            "product": {
                "name": "PowerEdge R750" if physical else "Standard PC (Q35 + ICH9, 2009)",
                "serial_number": uuid[:7].upper(),
                "uuid": uuid,
            },
        },
        "hypervisors": {} if physical else {"kvm": {}},
    }
    partitions: dict[str, object] = {}
    mountpoints: dict[str, object] = {}
    mounts = ["/", "/boot", "/var", "/var/log", "/tmp", "/home"]
    if physical:
        mounts += [f"/srv/data{i:02d}" for i in range(len(disks) * 2)]
    for i, mount in enumerate(mounts):
        disk = disks[i % len(disks)]
        device = f"/dev/{disk}{i + 1}"
        size = rng.randrange(1, 900) * 1024**3
        used_bytes = int(size * rng.uniform(0.05, 0.9))
        partitions[device] = {
            "filesystem": "xfs" if i else "ext4",
            "mount": mount,
            "partuuid": f"{uuid[:8]}-{i:02d}",
            "size": _size(size),
            "size_bytes": size,
            "uuid": f"{uuid[:8]}-{uuid[8:12]}-{i:04d}",
        }
        mountpoints[mount] = {
            "available": _size(size - used_bytes),
            "available_bytes": size - used_bytes,
            "capacity": f"{100 * used_bytes / size:.2f}%",
            "device": device,
            "filesystem": "xfs" if i else "ext4",
            "options": [
                "rw",
                "relatime",
                "attr2",
                "inode64",
                "logbufs=8",
                "logbsize=32k",
                "noquota",
            ],
            "size": _size(size),
            "size_bytes": size,
            "used": _size(used_bytes),
            "used_bytes": used_bytes,
        }
    facts["partitions"] = partitions
    facts["mountpoints"] = mountpoints
    facts["filesystems"] = "ext2,ext3,ext4,xfs"
    return facts


def _networking(
    rng: random.Random, physical: bool, hostname: str, domain: str, index: int
) -> dict[str, object]:
    names = (
        ["eno1", "eno2", "ens1f0", "ens1f1", "bond0", "bond0.100", "bond0.200"]
        if physical
        else ["eth0"]
    )
    interfaces: dict[str, object] = {"lo": {"ip": "127.0.0.1", "mtu": 65536}}
    ip = f"10.{index // 65536 % 256}.{index // 256 % 256}.{index % 256}"
    for i, name in enumerate(names):
        mac = ":".join(f"{rng.randrange(256):02x}" for _ in range(6))
        address = ip if i == 0 else f"172.{16 + i}.{index // 256 % 256}.{index % 256}"
        interfaces[name] = {
            "bindings": [{"address": address, "netmask": "255.255.0.0", "network": "10.0.0.0"}],
            "bindings6": [
                {
                    "address": f"fe80::{mac.replace(':', '')[:4]}:{i}",
                    "netmask": "ffff:ffff:ffff:ffff::",
                    "network": "fe80::",
                }
            ],
            "ip": address,
            "ip6": f"fe80::{mac.replace(':', '')[:4]}:{i}",
            "mac": mac,
            "mtu": 9000 if physical else 1500,
            "netmask": "255.255.0.0",
            "netmask6": "ffff:ffff:ffff:ffff::",
            "network": "10.0.0.0",
            "network6": "fe80::",
            "scope6": "link",
        }
    return {
        "domain": domain,
        "fqdn": f"{hostname}.{domain}",
        "hostname": hostname,
        "interfaces": interfaces,
        "ip": ip,
        "mac": "52:54:00:12:34:56",
        "mtu": 1500,
        "netmask": "255.255.0.0",
        "network": "10.0.0.0",
        "primary": names[0],
    }


def _ssh(rng: random.Random) -> dict[str, object]:
    out: dict[str, object] = {}
    for kind, size, prefix in (
        ("rsa", 279, "ssh-rsa"),
        ("ecdsa", 104, "ecdsa-sha2-nistp256"),
        ("ed25519", 51, "ssh-ed25519"),
    ):
        raw = rng.randbytes(size)
        key = base64.b64encode(raw).decode()
        sha1 = hashlib.sha1(raw).hexdigest()
        sha256 = base64.b64encode(hashlib.sha256(raw).digest()).decode().rstrip("=")
        out[kind] = {
            "fingerprints": {"sha1": f"SSHFP 1 1 {sha1}", "sha256": f"SSHFP 1 2 {sha256}"},
            "key": key,
            "type": prefix,
        }
    return out
