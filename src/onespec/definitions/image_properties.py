"""Every field of Nova 34.0.0's ``ImageMetaProps``: the image properties Nova reads.

An image's properties are free-form in Glance, but Nova reads 86 of them, each with a type
(a boolean read as Nova's ``FlexibleBoolean``, an integer, an enumeration, a CPU list...). This
module defines each one once: its name, how Nova reads it, the values it may take and what it
means. Which flavor extra spec is its twin, and how Nova settles a clash between the two, comes
from the rules (:mod:`onespec.definitions.flavor_rule_catalogue`) through :func:`twins`, so
a twin is declared in one place.

Standard library only: the runtime reads the kinds to type an image's properties as Nova does.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from onespec.definitions.flavor_rule_catalogue import RULES, SILENT_TWINS
from onespec.definitions.flavor_rules import ClashPolicy, TwinClash

PropertyKind = Literal[
    "bool",
    "int",
    "str",
    "enum",
    "uuid",
    "cpu-lists",
    "int-list",
    "str-list",
    "dict-list",
    "version-predicate",
]


@dataclass(frozen=True)
class ImageProperty:
    """One image property Nova reads: ``kind`` says how (see :data:`PropertyKind`), ``enum``
    the values an ``enum`` may take."""

    name: str
    kind: PropertyKind
    description: str
    enum: tuple[str, ...] = ()


def _p(
    name: str, kind: PropertyKind, description: str, enum: tuple[str, ...] = ()
) -> ImageProperty:
    return ImageProperty(name, kind, description, enum)


#: The architectures Nova knows (``ArchitectureField``), for the guest and its emulation.
ARCHITECTURES: tuple[str, ...] = (
    "alpha",
    "armv6",
    "armv7l",
    "armv7b",
    "aarch64",
    "cris",
    "i686",
    "ia64",
    "lm32",
    "m68k",
    "microblaze",
    "microblazeel",
    "mips",
    "mipsel",
    "mips64",
    "mips64el",
    "openrisc",
    "parisc",
    "parisc64",
    "ppc",
    "ppcle",
    "ppc64",
    "ppc64le",
    "ppcemb",
    "s390",
    "s390x",
    "sh4",
    "sh4eb",
    "sparc",
    "sparc64",
    "unicore32",
    "x86_64",
    "xtensa",
    "xtensaeb",
)
#: The buses a disk, CD-ROM, floppy or rescue disk may hang on (``DiskBusField``).
DISK_BUSES: tuple[str, ...] = ("fdc", "ide", "sata", "scsi", "usb", "virtio", "xen", "lxc", "uml")


#: The 86 fields of ``nova.objects.image_meta.ImageMetaProps``, in Nova's order.
IMAGE_PROPERTIES: tuple[ImageProperty, ...] = (
    _p(
        "hw_architecture",
        "enum",
        "The CPU architecture the image needs; it is placed on hosts of that architecture.",
        ARCHITECTURES,
    ),
    _p(
        "hw_emulation_architecture",
        "enum",
        "The architecture to emulate for the guest, when it differs from the host's.",
        ARCHITECTURES,
    ),
    _p(
        "hw_auto_disk_config",
        "str",
        "Whether the root partition is resized to fill the disk ('True', 'False' or 'Disabled').",
    ),
    _p(
        "hw_boot_menu",
        "bool",
        "Show the BIOS boot menu at boot.",
    ),
    _p(
        "hw_cdrom_bus",
        "enum",
        "The bus CD-ROM devices are attached to.",
        DISK_BUSES,
    ),
    _p(
        "hw_cpu_cores",
        "int",
        "The preferred number of cores per socket.",
    ),
    _p(
        "hw_cpu_sockets",
        "int",
        "The preferred number of sockets.",
    ),
    _p(
        "hw_cpu_max_cores",
        "int",
        "The most cores per socket the guest may have.",
    ),
    _p(
        "hw_cpu_max_sockets",
        "int",
        "The most sockets the guest may have.",
    ),
    _p(
        "hw_cpu_max_threads",
        "int",
        "The most threads per core the guest may have.",
    ),
    _p(
        "hw_cpu_policy",
        "enum",
        "The CPU pinning policy: shared, dedicated (pinned) or mixed.",
        ("dedicated", "shared", "mixed"),
    ),
    _p(
        "hw_cpu_thread_policy",
        "enum",
        "How pinned vCPUs are placed on host hyper-threads.",
        ("prefer", "isolate", "require"),
    ),
    _p(
        "hw_cpu_realtime_mask",
        "str",
        "Which vCPUs are real-time (a CPU mask, '^' excludes).",
    ),
    _p(
        "hw_cpu_threads",
        "int",
        "The preferred number of threads per core.",
    ),
    _p(
        "hw_device_id",
        "int",
        "The hypervisor device id (Hyper-V).",
    ),
    _p(
        "hw_disk_bus",
        "enum",
        "The bus disks are attached to.",
        DISK_BUSES,
    ),
    _p(
        "hw_disk_type",
        "str",
        "The disk provisioning type (VMware).",
    ),
    _p(
        "hw_floppy_bus",
        "enum",
        "The bus floppy devices are attached to.",
        DISK_BUSES,
    ),
    _p(
        "hw_firmware_type",
        "enum",
        "The guest firmware: BIOS or UEFI.",
        ("uefi", "bios"),
    ),
    _p(
        "hw_firmware_stateless",
        "bool",
        "Use stateless UEFI firmware (honoured only with UEFI).",
    ),
    _p(
        "hw_input_bus",
        "enum",
        "The bus of input devices (keyboard, tablet).",
        ("usb", "virtio"),
    ),
    _p(
        "hw_ipxe_boot",
        "bool",
        "Boot the guest over the network with iPXE.",
    ),
    _p(
        "hw_locked_memory",
        "bool",
        "Lock the guest's memory so that it is never swapped.",
    ),
    _p(
        "hw_machine_type",
        "str",
        "The machine type the guest emulates (for example q35).",
    ),
    _p(
        "hw_mem_encryption",
        "bool",
        "Encrypt the guest's memory (AMD SEV, Intel TDX).",
    ),
    _p(
        "hw_mem_encryption_model",
        "enum",
        "Which memory encryption technology to use.",
        ("amd-sev", "amd-sev-es", "amd-sev-snp", "intel-tdx"),
    ),
    _p(
        "hw_mem_page_size",
        "str",
        "The page size backing guest memory: small, large, any, or a size.",
    ),
    _p(
        "hw_numa_nodes",
        "int",
        "The number of guest NUMA nodes.",
    ),
    _p(
        "hw_numa_cpus",
        "cpu-lists",
        "The vCPUs of each guest NUMA node (written hw_numa_cpus.0, .1, ...).",
    ),
    _p(
        "hw_numa_mem",
        "int-list",
        "The memory in MiB of each guest NUMA node (written hw_numa_mem.0, .1, ...).",
    ),
    _p(
        "hw_pci_numa_affinity_policy",
        "enum",
        "How strictly PCI devices must share the guest's NUMA node.",
        ("required", "preferred", "legacy", "socket"),
    ),
    _p(
        "hw_pointer_model",
        "enum",
        "The pointer device model (usbtablet for an absolute pointer).",
        ("usbtablet",),
    ),
    _p(
        "hw_pmu",
        "bool",
        "Expose a virtual performance monitoring unit.",
    ),
    _p(
        "hw_qemu_guest_agent",
        "bool",
        "The image runs the QEMU guest agent.",
    ),
    _p(
        "hw_rescue_bus",
        "enum",
        "The bus of the rescue disk.",
        DISK_BUSES,
    ),
    _p(
        "hw_rescue_device",
        "enum",
        "The device type of the rescue disk.",
        ("cdrom", "disk", "floppy", "fs", "lun"),
    ),
    _p(
        "hw_rng_model",
        "enum",
        "The random number generator device model.",
        ("virtio",),
    ),
    _p(
        "hw_time_hpet",
        "bool",
        "Give the guest a high-precision event timer.",
    ),
    _p(
        "hw_serial_port_count",
        "int",
        "The number of serial ports.",
    ),
    _p(
        "hw_scsi_model",
        "enum",
        "The SCSI controller model.",
        ("buslogic", "ibmvscsi", "lsilogic", "lsisas1068", "lsisas1078", "virtio-scsi", "vmpvscsi"),
    ),
    _p(
        "hw_video_model",
        "enum",
        "The video device model ('none' for no video device).",
        ("cirrus", "qxl", "vga", "vmvga", "xen", "virtio", "gop", "none", "bochs"),
    ),
    _p(
        "hw_video_ram",
        "int",
        "The video memory in MiB (bounded by the flavor's hw_video:ram_max_mb).",
    ),
    _p(
        "hw_vif_model",
        "enum",
        "The network interface model.",
        (
            "virtio",
            "ne2k_pci",
            "pcnet",
            "rtl8139",
            "e1000",
            "e1000e",
            "netfront",
            "spapr-vlan",
            "lan9118",
            "sriov",
            "vmxnet",
            "vmxnet3",
            "igb",
        ),
    ),
    _p(
        "hw_viommu_model",
        "enum",
        "The virtual IOMMU model.",
        ("intel", "smmuv3", "virtio", "auto"),
    ),
    _p(
        "hw_vm_mode",
        "enum",
        "The virtual machine mode (hvm, xen, uml, exe).",
        ("hvm", "xen", "uml", "exe"),
    ),
    _p(
        "hw_watchdog_action",
        "enum",
        "What the watchdog does when the guest hangs.",
        ("none", "pause", "poweroff", "reset", "disabled"),
    ),
    _p(
        "hw_vif_multiqueue_enabled",
        "bool",
        "Give network interfaces one queue per vCPU.",
    ),
    _p(
        "hw_tpm_model",
        "enum",
        "The virtual TPM model.",
        ("tpm-tis", "tpm-crb"),
    ),
    _p(
        "hw_tpm_version",
        "enum",
        "The virtual TPM version.",
        ("1.2", "2.0"),
    ),
    _p(
        "hw_ephemeral_encryption",
        "bool",
        "Encrypt the ephemeral disks.",
    ),
    _p(
        "hw_ephemeral_encryption_format",
        "enum",
        "The encryption format of the ephemeral disks.",
        ("plain", "luks", "luksv2"),
    ),
    _p(
        "hw_ephemeral_encryption_secret_uuid",
        "uuid",
        "The secret that encrypts the ephemeral disks.",
    ),
    _p(
        "hw_virtio_packed_ring",
        "bool",
        "Use packed virtqueues for virtio devices.",
    ),
    _p(
        "hw_maxphysaddr_mode",
        "enum",
        "How the guest's physical address width is chosen.",
        ("passthrough", "emulate"),
    ),
    _p(
        "hw_maxphysaddr_bits",
        "int",
        "The guest's physical address width in bits (with emulate).",
    ),
    _p(
        "hw_sound_model",
        "enum",
        "The sound device model.",
        ("sb16", "es1370", "pcspk", "ac97", "ich6", "ich9", "usb", "virtio"),
    ),
    _p(
        "hw_usb_model",
        "enum",
        "The USB controller model.",
        ("none", "nec-xhci", "qemu-xhci"),
    ),
    _p(
        "hw_redirected_usb_ports",
        "int",
        "The number of USB redirection ports (SPICE).",
    ),
    _p(
        "img_bittorrent",
        "bool",
        "Download the image over BitTorrent (obsolete).",
    ),
    _p(
        "img_bdm_v2",
        "bool",
        "The image's block device mappings use the version 2 format.",
    ),
    _p(
        "img_block_device_mapping",
        "dict-list",
        "The block device mappings the image brings (written block_device_mapping).",
    ),
    _p(
        "img_cache_in_nova",
        "bool",
        "Cache the image on the compute host.",
    ),
    _p(
        "img_compression_level",
        "int",
        "The compression level of the image (PowerVM).",
    ),
    _p(
        "img_hv_requested_version",
        "version-predicate",
        "The hypervisor versions the image runs on (a version predicate).",
    ),
    _p(
        "img_hv_type",
        "enum",
        "The hypervisor type the image runs on.",
        (
            "baremetal",
            "bhyve",
            "docker",
            "fake",
            "hyperv",
            "ironic",
            "kqemu",
            "kvm",
            "lxc",
            "lxd",
            "openvz",
            "parallels",
            "phyp",
            "qemu",
            "test",
            "uml",
            "vbox",
            "vz",
            "vmware",
            "xen",
            "zvm",
            "prsm",
        ),
    ),
    _p(
        "img_config_drive",
        "enum",
        "Whether a config drive is mandatory or optional.",
        ("optional", "mandatory"),
    ),
    _p(
        "img_linked_clone",
        "bool",
        "Boot from a linked clone (VMware).",
    ),
    _p(
        "img_mappings",
        "dict-list",
        "Legacy device mappings (written mappings).",
    ),
    _p(
        "img_owner_id",
        "str",
        "The project that owns the image (written owner_id).",
    ),
    _p(
        "img_root_device_name",
        "str",
        "The guest's root device (written root_device_name).",
    ),
    _p(
        "img_use_agent",
        "bool",
        "The guest runs the hypervisor's agent.",
    ),
    _p(
        "img_version",
        "int",
        "The image's version.",
    ),
    _p(
        "img_signature",
        "str",
        "The image's signature (written img_signature).",
    ),
    _p(
        "img_signature_hash_method",
        "enum",
        "The hash of the signature.",
        ("SHA-224", "SHA-256", "SHA-384", "SHA-512"),
    ),
    _p(
        "img_signature_certificate_uuid",
        "uuid",
        "The certificate that verifies the signature.",
    ),
    _p(
        "img_signature_key_type",
        "enum",
        "The key type of the signature.",
        (
            "DSA",
            "ECC_SECP384R1",
            "ECC_SECP521R1",
            "ECC_SECT409K1",
            "ECC_SECT409R1",
            "ECC_SECT571K1",
            "ECC_SECT571R1",
            "RSA-PSS",
        ),
    ),
    _p(
        "img_hide_hypervisor_id",
        "bool",
        "Hide the hypervisor signature from the guest.",
    ),
    _p(
        "os_admin_user",
        "str",
        "The guest's administrator account.",
    ),
    _p(
        "os_command_line",
        "str",
        "The kernel command line.",
    ),
    _p(
        "os_distro",
        "str",
        "The operating system distribution.",
    ),
    _p(
        "os_require_quiesce",
        "bool",
        "Snapshots must quiesce the guest file systems.",
    ),
    _p(
        "os_secure_boot",
        "enum",
        "Secure Boot: required, disabled or optional.",
        ("required", "disabled", "optional"),
    ),
    _p(
        "os_skip_agent_inject_files_at_boot",
        "bool",
        "Do not inject files through the agent at boot.",
    ),
    _p(
        "os_skip_agent_inject_ssh",
        "bool",
        "Do not inject the SSH key through the agent.",
    ),
    _p(
        "os_type",
        "enum",
        "The operating system type.",
        ("linux", "windows"),
    ),
    _p(
        "traits_required",
        "str-list",
        "Placement traits the host must have (written trait:NAME=required).",
    ),
)

BY_NAME: dict[str, ImageProperty] = {prop.name: prop for prop in IMAGE_PROPERTIES}

#: The older names ``ImageMetaProps.from_dict`` still reads, each with the property it sets
#: (Nova's ``_legacy_property_map``). Nova reads the older name first and the current one
#: over it, so a value it cannot read under the older name is refused even beside the
#: current one.
LEGACY_NAMES: dict[str, str] = {
    "architecture": "hw_architecture",
    "owner_id": "img_owner_id",
    "vmware_disktype": "hw_disk_type",
    "vmware_image_version": "img_version",
    "vmware_ostype": "os_distro",
    "auto_disk_config": "hw_auto_disk_config",
    "ipxe_boot": "hw_ipxe_boot",
    "xenapi_device_id": "hw_device_id",
    "xenapi_image_compression_level": "img_compression_level",
    "vmware_linked_clone": "img_linked_clone",
    "xenapi_use_agent": "img_use_agent",
    "xenapi_skip_agent_inject_ssh": "os_skip_agent_inject_ssh",
    "xenapi_skip_agent_inject_files_at_boot": "os_skip_agent_inject_files_at_boot",
    "cache_in_nova": "img_cache_in_nova",
    "vm_mode": "hw_vm_mode",
    "bittorrent": "img_bittorrent",
    "mappings": "img_mappings",
    "block_device_mapping": "img_block_device_mapping",
    "bdm_v2": "img_bdm_v2",
    "root_device_name": "img_root_device_name",
    "hypervisor_version_requires": "img_hv_requested_version",
    "hypervisor_type": "img_hv_type",
}

_ARCHITECTURE_ALIASES = {
    **dict.fromkeys(("i386", "i486", "i586", "x86_32", "x86_32p"), "i686"),
    "amd64": "x86_64",
}

#: The enumerations Nova canonicalizes before it checks a value (their field's ``coerce``):
#: each is lower-cased, then an older spelling becomes the one it stands for
#: (``hw_architecture=i386`` is ``i686``, ``hw_vif_model=VirtIO`` is ``virtio``).
CANONICAL_SPELLINGS: dict[str, dict[str, str]] = {
    "hw_architecture": _ARCHITECTURE_ALIASES,
    "hw_emulation_architecture": _ARCHITECTURE_ALIASES,
    "img_hv_type": {"xapi": "xen"},
    "hw_vm_mode": {"pv": "xen", "hv": "hvm", "baremetal": "hvm"},
    "hw_vif_model": {
        "virtuale1000": "e1000",
        "virtuale1000e": "e1000e",
        "virtualpcnet32": "pcnet",
        "virtualsriovethernetcard": "sriov",
        "virtualvmxnet": "vmxnet",
        "virtualvmxnet3": "vmxnet3",
    },
    "hw_scsi_model": {"lsilogicsas": "lsisas1068", "paravirtual": "vmpvscsi"},
    "os_type": {},
}


@dataclass(frozen=True)
class Twin:
    """A flavor extra spec and the image property of the same meaning, and how a clash between
    them is settled (the first rule that compares them names Nova's exception)."""

    spec: str
    prop: str
    policy: ClashPolicy
    rule: str | None = None


def twins() -> tuple[Twin, ...]:
    """Every flavor/image twin: those the rules compare, then those settled silently."""
    found: dict[str, Twin] = {}
    for rule in RULES:
        if isinstance(rule, TwinClash) and rule.prop not in found:
            found[rule.prop] = Twin(rule.spec, rule.prop, rule.policy, rule.name)
    for spec, prop, policy in SILENT_TWINS:
        found.setdefault(prop, Twin(spec, prop, policy))
    return tuple(found.values())


#: What Glance itself keeps on every image, beside the properties a user sets (the image
#: schema's own fields, Glance 33.0.0): the client prints some of them among an image's
#: properties (``os_hash_algo``, ``os_hash_value``, ``os_hidden``, ``stores``). Nova reads none
#: of them as a property, and none is a user's mistake to warn about.
GLANCE_IMAGE_FIELDS: tuple[str, ...] = (
    "checksum",
    "container_format",
    "created_at",
    "direct_url",
    "disk_format",
    "file",
    "id",
    "locations",
    "min_disk",
    "min_ram",
    "name",
    "os_hash_algo",
    "os_hash_value",
    "os_hidden",
    "owner",
    "protected",
    "schema",
    "self",
    "size",
    "status",
    "stores",
    "tags",
    "updated_at",
    "virtual_size",
    "visibility",
)

#: The prefix of the properties Glance reserves for itself (``os_glance_importing_to_stores``,
#: ``os_glance_failed_import``...): set by Glance, never by a user.
GLANCE_RESERVED_PREFIX = "os_glance_"
