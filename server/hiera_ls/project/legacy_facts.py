"""Facter's legacy facts and the structured facts that replaced them.

Taken from Facter 4.10's fact classes (``lib/facter/facts/<os>/...``): a legacy fact is one
Facter resolves with type ``:legacy``, either an alias of a structured fact (``ALIASES``)
or a fact of its own built from one (``TYPE = :legacy``: ``ipaddress_eth0``,
``blockdevices``). Puppet 8 agents do not send them (``include_legacy_facts = false``), so
a hierarchy level or an interpolation that names one sees nothing
(tests/project/test_legacy_facts.py checks this table against Facter's own sources).

Each entry says where the same value lives now (``os.family`` for ``osfamily``) or, where no
structured fact holds exactly that value, the nearest one and how the values differ
(``memoryfree_mb`` is ``memory.system.available_bytes`` in MiB).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class LegacyFact:
    """One legacy fact: its name, and the structured fact that holds its value now."""

    name: str  # the legacy fact as a node has it: ipaddress_eth0
    modern: str  # dotted path of the structured fact: networking.interfaces.eth0.ip
    differs: str = ""  # how the value differs, when the modern fact is only the nearest one
    per_instance: bool = False  # one of a kind Facter makes per interface, disk, zone ...

    @property
    def exact(self) -> bool:
        """The modern fact holds the very value the legacy one had."""
        return not self.differs


# legacy name -> structured fact (the same value, unless _DIFFERS says otherwise)
_ALIASES: Mapping[str, str] = {
    "architecture": "os.architecture",
    "augeasversion": "augeas.version",
    "bios_release_date": "dmi.bios.release_date",
    "bios_vendor": "dmi.bios.vendor",
    "bios_version": "dmi.bios.version",
    "blockdevices": "disks",
    "boardassettag": "dmi.board.asset_tag",
    "boardmanufacturer": "dmi.board.manufacturer",
    "boardproductname": "dmi.board.product",
    "boardserialnumber": "dmi.board.serial_number",
    "chassisassettag": "dmi.chassis.asset_tag",
    "chassistype": "dmi.chassis.type",
    "dhcp_servers": "networking.dhcp",
    "domain": "networking.domain",
    "fqdn": "networking.fqdn",
    "gid": "identity.group",
    "hardwareisa": "processors.isa",
    "hardwaremodel": "os.hardware",
    "hostname": "networking.hostname",
    "id": "identity.user",
    "interfaces": "networking.interfaces",
    "ipaddress": "networking.ip",
    "ipaddress6": "networking.ip6",
    "ldom_domainchassis": "ldom.domainchassis",
    "ldom_domaincontrol": "ldom.domaincontrol",
    "ldom_domainname": "ldom.domainname",
    "ldom_domainrole_control": "ldom.domainrole.control",
    "ldom_domainrole_impl": "ldom.domainrole.impl",
    "ldom_domainrole_io": "ldom.domainrole.io",
    "ldom_domainrole_root": "ldom.domainrole.root",
    "ldom_domainrole_service": "ldom.domainrole.service",
    "ldom_domainuuid": "ldom.domainuuid",
    "lsbdistcodename": "os.distro.codename",
    "lsbdistdescription": "os.distro.description",
    "lsbdistid": "os.distro.id",
    "lsbdistrelease": "os.distro.release.full",
    "lsbmajdistrelease": "os.distro.release.major",
    "lsbminordistrelease": "os.distro.release.minor",
    "lsbrelease": "os.distro.specification",
    "macaddress": "networking.mac",
    "macosx_buildversion": "os.macosx.build",
    "macosx_productname": "os.macosx.product",
    "macosx_productversion": "os.macosx.version.full",
    "macosx_productversion_major": "os.macosx.version.major",
    "macosx_productversion_minor": "os.macosx.version.minor",
    "macosx_productversion_patch": "os.macosx.version.patch",
    "manufacturer": "dmi.manufacturer",
    "memoryfree": "memory.system.available",
    "memoryfree_mb": "memory.system.available_bytes",
    "memorysize": "memory.system.total",
    "memorysize_mb": "memory.system.total_bytes",
    "netmask": "networking.netmask",
    "netmask6": "networking.netmask6",
    "network": "networking.network",
    "network6": "networking.network6",
    "operatingsystem": "os.name",
    "operatingsystemmajrelease": "os.release.major",
    "operatingsystemrelease": "os.release.full",
    "osfamily": "os.family",
    "physicalprocessorcount": "processors.physicalcount",
    "processorcount": "processors.count",
    "productname": "dmi.product.name",
    "productversion": "dmi.product.version",
    "rubyplatform": "ruby.platform",
    "rubysitedir": "ruby.sitedir",
    "rubyversion": "ruby.version",
    "scope6": "networking.scope6",
    "selinux": "os.selinux.enabled",
    "selinux_config_mode": "os.selinux.config_mode",
    "selinux_config_policy": "os.selinux.config_policy",
    "selinux_current_mode": "os.selinux.current_mode",
    "selinux_enforced": "os.selinux.enforced",
    "selinux_policyversion": "os.selinux.policy_version",
    "serialnumber": "dmi.product.serial_number",
    "sp_boot_mode": "system_profiler.boot_mode",
    "sp_boot_rom_version": "system_profiler.boot_rom_version",
    "sp_boot_volume": "system_profiler.boot_volume",
    "sp_cpu_type": "system_profiler.processor_name",
    "sp_current_processor_speed": "system_profiler.processor_speed",
    "sp_kernel_version": "system_profiler.kernel_version",
    "sp_l2_cache_core": "system_profiler.l2_cache_per_core",
    "sp_l3_cache": "system_profiler.l3_cache",
    "sp_local_host_name": "system_profiler.computer_name",
    "sp_machine_model": "system_profiler.model_identifier",
    "sp_machine_name": "system_profiler.model_name",
    "sp_number_processors": "system_profiler.cores",
    "sp_os_version": "system_profiler.system_version",
    "sp_packages": "system_profiler.processors",
    "sp_physical_memory": "system_profiler.memory",
    "sp_platform_uuid": "system_profiler.hardware_uuid",
    "sp_secure_vm": "system_profiler.secure_virtual_memory",
    "sp_serial_number": "system_profiler.serial_number",
    "sp_smc_version_system": "system_profiler.smc_version",
    "sp_uptime": "system_profiler.uptime",
    "sp_user_name": "system_profiler.username",
    "swapencrypted": "memory.swap.encrypted",
    "swapfree": "memory.swap.available",
    "swapfree_mb": "memory.swap.available_bytes",
    "swapsize": "memory.swap.total",
    "swapsize_mb": "memory.swap.total_bytes",
    "system32": "os.windows.system32",
    "uptime": "system_uptime.uptime",
    "uptime_days": "system_uptime.days",
    "uptime_hours": "system_uptime.hours",
    "uptime_seconds": "system_uptime.seconds",
    "uuid": "dmi.product.uuid",
    "windows_display_version": "os.windows.display_version",
    "windows_edition_id": "os.windows.edition_id",
    "windows_installation_type": "os.windows.installation_type",
    "windows_product_name": "os.windows.product_name",
    "windows_release_id": "os.windows.release_id",
    "xendomains": "xen.domains",
    "zonename": "solaris_zones.current",
    "zones": "solaris_zones.zones",
}

_MIB = "the structured fact is in bytes; the legacy one was in MiB (a float)"
_DIFFERS: Mapping[str, str] = {
    "blockdevices": "the legacy fact was the names of the disks joined by commas",
    "dhcp_servers": (
        "the legacy fact was a hash of `system` (networking.dhcp) and each interface's "
        "networking.interfaces.NAME.dhcp"
    ),
    "interfaces": "the legacy fact was the names of the interfaces, sorted, joined by commas",
    "memoryfree_mb": _MIB,
    "memorysize_mb": _MIB,
    "swapfree_mb": _MIB,
    "swapsize_mb": _MIB,
    "xendomains": "the legacy fact was the domains joined by commas",
    "zones": "the legacy fact was the number of zones",
}

# Facts Facter makes one of per interface, disk, processor, key or zone: (pattern, modern
# path with the pattern's groups, how the values differ).
_INTERFACE = r"(?P<interface>.+)"
_PATTERNS: tuple[tuple[re.Pattern[str], str, str], ...] = tuple(
    (re.compile(pattern), modern, differs)
    for pattern, modern, differs in (
        (f"ipaddress_{_INTERFACE}", "networking.interfaces.{interface}.ip", ""),
        (f"ipaddress6_{_INTERFACE}", "networking.interfaces.{interface}.ip6", ""),
        (f"macaddress_{_INTERFACE}", "networking.interfaces.{interface}.mac", ""),
        (f"mtu_{_INTERFACE}", "networking.interfaces.{interface}.mtu", ""),
        (f"netmask_{_INTERFACE}", "networking.interfaces.{interface}.netmask", ""),
        (f"netmask6_{_INTERFACE}", "networking.interfaces.{interface}.netmask6", ""),
        (f"network_{_INTERFACE}", "networking.interfaces.{interface}.network", ""),
        (f"network6_{_INTERFACE}", "networking.interfaces.{interface}.network6", ""),
        (f"scope6_{_INTERFACE}", "networking.interfaces.{interface}.scope6", ""),
        (r"blockdevice_(?P<disk>.+)_model", "disks.{disk}.model", ""),
        (r"blockdevice_(?P<disk>.+)_size", "disks.{disk}.size_bytes", ""),
        (r"blockdevice_(?P<disk>.+)_vendor", "disks.{disk}.vendor", ""),
        (r"processor(?P<index>[0-9]+)", "processors.models.{index}", ""),
        (r"ssh(?P<algorithm>dsa|ecdsa|ed25519|rsa)key", "ssh.{algorithm}.key", ""),
        (
            r"sshfp_(?P<algorithm>dsa|ecdsa|ed25519|rsa)",
            "ssh.{algorithm}.fingerprints",
            "the legacy fact was the SHA1 and the SHA256 fingerprint on two lines",
        ),
        (
            r"zone_(?P<zone>.+)_(?P<attribute>brand|id|iptype|name|path|status|uuid)",
            "solaris_zones.zones.{zone}.{attribute}",
            "",
        ),
    )
)
# The structured fact that lists the instances a pattern's name part must be one of for a
# fact of that name to be Facter's (a custom fact may well be called network_zone).
_INSTANCES = {
    "interface": "networking.interfaces",
    "disk": "disks",
    "zone": "solaris_zones.zones",
}


def legacy_fact(name: str) -> LegacyFact | None:
    """The legacy fact ``name`` is (``::osfamily`` and ``osfamily`` alike), None when it is
    none of Facter's."""
    name = name.removeprefix("::")
    modern = _ALIASES.get(name)
    if modern is not None:
        return LegacyFact(name, modern, _DIFFERS.get(name, ""))
    for pattern, template, differs in _PATTERNS:
        m = pattern.fullmatch(name)
        if m is not None:
            return LegacyFact(name, template.format(**m.groupdict()), differs, per_instance=True)
    return None


def facter_legacy_facts(facts: Mapping[str, object]) -> list[str]:
    """The names in a fact set that Facter itself resolved as legacy facts: every name of
    the table, and a per-interface (disk, zone) name only when the fact set's structured
    facts have that interface, so a custom fact of such a name is never taken for one."""
    found: list[str] = []
    for name in facts:
        if name in _ALIASES:
            found.append(name)
            continue
        for pattern, _template, _differs in _PATTERNS:
            m = pattern.fullmatch(name)
            if m is not None and _instances_known(facts, m.groupdict()):
                found.append(name)
                break
    return found


def _instances_known(facts: Mapping[str, object], groups: Mapping[str, str]) -> bool:
    for group, where in _INSTANCES.items():
        if group in groups:
            container = _dig(facts, where)
            if not isinstance(container, Mapping) or groups[group] not in container:
                return False
    return True


def _dig(facts: Mapping[str, object], dotted: str) -> object:
    value: object = facts
    for part in dotted.split("."):
        if not isinstance(value, Mapping):
            return None
        value = value.get(part)
    return value
