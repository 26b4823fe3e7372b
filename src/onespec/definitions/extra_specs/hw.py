"""Extra specs of the ``hw`` namespace: guest virtual hardware (CPU, NUMA, memory, devices)."""

from onespec.definitions.model import (
    EnumMember,
    ExtraSpec,
    Namespace,
    Parameter,
    Status,
    Support,
    Value,
)

NAMESPACE = Namespace(
    name="hw",
    title="Virtual hardware",
    description=(
        "Specs in the ``hw`` namespace shape the virtual machine a flavor produces: how guest CPUs "
        "are pinned to host CPUs and arranged into sockets, cores and threads, how guest memory "
        "and CPUs are split across virtual NUMA nodes, which page size backs guest memory, and "
        "which emulated devices (TPM, watchdog, IOMMU, sound, USB) the guest sees. Most of them "
        "have an image property counterpart spelled with ``hw_`` instead of ``hw:``; where both "
        "are set, the flavor usually wins or the two must agree. Nearly all of them are only "
        "acted on by the libvirt driver."
    ),
)

_LIBVIRT = ("libvirt",)
# The VMware driver builds its cores-per-socket layout from the same topology code, but never
# with more than one thread per core.
_LIBVIRT_VMWARE = ("libvirt", "vmware")

# A guest CPU list: numbers and ranges separated by commas, where a leading ``^`` excludes.
# It accepts exactly what Nova's ``\^?\d+((-\d+)?(,\^?\d+(-\d+)?)?)*`` accepts, written so that
# matching takes linear time: Nova's nested optional groups backtrack exponentially, and a value
# such as "0-0," repeated twenty times hangs the validator.
_CPU_LIST = r"\^?\d+(?:-\d+|,\^?\d+)*"

EXTRA_SPECS: tuple[ExtraSpec, ...] = (
    # --- Real time --------------------------------------------------------------------------------
    ExtraSpec(
        name="hw:cpu_realtime",
        description=(
            "Turns the guest's CPUs into real-time vCPUs, scheduled on the host with a real-time "
            "priority, for latency-sensitive workloads such as NFV. Real-time guests always get "
            "pinned CPUs, and the host needs a real-time kernel and matching tuning. Say which "
            "vCPUs are real-time with ``hw:cpu_realtime_mask``, or move the emulator's overhead "
            "elsewhere with ``hw:emulator_threads_policy`` so that every vCPU can be real-time."
        ),
        value=Value(type=bool, description="Whether the guest gets real-time vCPUs."),
        virt_drivers=_LIBVIRT,
        status=Status(Support.SUPPORTED, since="13.0.0"),
    ),
    ExtraSpec(
        name="hw:cpu_realtime_mask",
        description=(
            "Chooses which guest CPUs run with real-time priority when ``hw:cpu_realtime`` is "
            "enabled; the vCPUs left out stay ordinary and absorb the guest's housekeeping work. "
            "Either list the real-time vCPUs (``2-7``) or exclude the ordinary ones with a caret "
            "(``^0-1``). With the ``mixed`` ``hw:cpu_policy`` the real-time vCPUs are the pinned "
            "ones and the rest float."
        ),
        value=Value(
            type=str,
            description="The guest CPUs to run in real time; ``^`` excludes a CPU or range.",
            # Nova registers "(\^)?..." here: the same language as the other CPU lists.
            pattern=_CPU_LIST,
            pattern_hint="a guest CPU list such as 2-7 or ^0-1",
        ),
        virt_drivers=_LIBVIRT,
        status=Status(Support.SUPPORTED, since="13.0.0"),
    ),
    ExtraSpec(
        name="hw:hide_hypervisor_id",
        description=(
            "Hides the signature that tells the guest it runs under KVM. Some guest software, "
            "notably certain GPU drivers used with PCI passthrough, refuses to work when it "
            "detects a hypervisor. This spec replaces the deprecated unnamespaced "
            "``hide_hypervisor_id``."
        ),
        value=Value(type=bool, description="Whether to hide the hypervisor signature."),
        virt_drivers=_LIBVIRT,
    ),
    # --- CPU pinning --------------------------------------------------------------------------------
    ExtraSpec(
        name="hw:cpu_policy",
        description=(
            "Decides whether the guest's vCPUs get host CPUs of their own. Pinned (``dedicated``) "
            "vCPUs consume ``PCPU`` inventory and are never overcommitted, which suits "
            "latency-sensitive workloads; floating (``shared``) vCPUs consume ``VCPU`` inventory. "
            "Pinning gives the guest a NUMA topology, and the host must list the CPUs meant for "
            "pinning in ``[compute] cpu_dedicated_set``."
        ),
        value=Value(
            type=str,
            description="The CPU pinning policy.",
            enum=(
                EnumMember(
                    "dedicated",
                    "Every vCPU is pinned to a host CPU that no other pinned vCPU uses.",
                ),
                EnumMember(
                    "shared",
                    "vCPUs float over the host's shared CPUs and may be overcommitted.",
                ),
                EnumMember(
                    "mixed",
                    "Some vCPUs are pinned and the others float; choose the pinned ones with "
                    "``hw:cpu_dedicated_mask`` (or ``hw:cpu_realtime_mask`` for real-time "
                    "guests). Available since 22.0.0 (Victoria).",
                ),
            ),
            default="shared",
        ),
        virt_drivers=_LIBVIRT,
        # Introduced in Kilo (2015.1), before the releases numbered here.
    ),
    ExtraSpec(
        name="hw:cpu_thread_policy",
        description=(
            "For pinned guests, says how the host's SMT (hyper-threading) sibling threads may be "
            "used. Thread siblings share execution units, which helps some workloads and hurts "
            "others. Only meaningful with a ``dedicated`` ``hw:cpu_policy``."
        ),
        value=Value(
            type=str,
            description="The CPU thread pinning policy.",
            enum=(
                EnumMember(
                    "prefer",
                    "Use sibling threads where the host has them, and plain cores otherwise.",
                ),
                EnumMember(
                    "isolate",
                    "Schedule only to hosts without SMT (hosts lacking the "
                    "``HW_CPU_HYPERTHREADING`` trait).",
                ),
                EnumMember(
                    "require",
                    "Schedule only to hosts with SMT and place vCPUs on sibling threads.",
                ),
            ),
            default="prefer",
        ),
        virt_drivers=_LIBVIRT,
        status=Status(Support.SUPPORTED, since="13.0.0"),
    ),
    ExtraSpec(
        name="hw:emulator_threads_policy",
        description=(
            "Moves the hypervisor's emulator threads (the overhead QEMU runs beside the vCPUs) "
            "off the pinned vCPUs of the guest, so they cannot steal time from the workload. "
            "Unset, they run on the guest's own pinned host CPUs. Needs pinned CPUs "
            "(``hw:cpu_policy``); often used with ``hw:cpu_realtime``."
        ),
        value=Value(
            type=str,
            description="Where the emulator threads run.",
            enum=(
                EnumMember(
                    "isolate",
                    "Reserve one extra host CPU from ``[compute] cpu_dedicated_set`` for the "
                    "emulator threads of this guest alone.",
                ),
                EnumMember(
                    "share",
                    "Run the emulator threads on the host's ``[compute] cpu_shared_set`` when "
                    "it is set, and otherwise on the guest's own pinned CPUs.",
                ),
            ),
        ),
        virt_drivers=_LIBVIRT,
        status=Status(Support.SUPPORTED, since="16.0.0"),
    ),
    ExtraSpec(
        name="hw:cpu_dedicated_mask",
        description=(
            "Under the ``mixed`` ``hw:cpu_policy``, lists the guest CPUs that are pinned to host "
            "CPUs of their own; all other vCPUs float over the shared host CPUs. List the pinned "
            "vCPUs (``0-1``) or exclude the floating ones with a caret."
        ),
        value=Value(
            type=str,
            description="The guest CPUs to pin; ``^`` excludes a CPU or range.",
            pattern=_CPU_LIST,
            pattern_hint="a guest CPU list such as 0-1 or 0-3,^2",
        ),
        virt_drivers=_LIBVIRT,
        status=Status(Support.SUPPORTED, since="22.0.0"),
    ),
    # --- Memory -------------------------------------------------------------------------------------
    ExtraSpec(
        name="hw:mem_page_size",
        description=(
            "Chooses the page size that backs guest memory, typically to put the guest on "
            "pre-allocated huge pages for fewer TLB misses. Setting it gives the guest a NUMA "
            "topology, and memory is then accounted per host NUMA node with no overcommit. An "
            "image may ask for its own page size only when the flavor says ``large`` or ``any``."
        ),
        value=Value(
            type=str,
            description=(
                "``small``, ``large``, ``any``, or an explicit page size; a bare number is in KiB."
            ),
            pattern=r"(large|small|any|\d+([kKMGT]i?)?(b|bit|B)?)",
            pattern_hint="small, large, any, or a size such as 2048, 2MB or 1GiB",
        ),
        virt_drivers=_LIBVIRT,
        # Introduced in Kilo (2015.1), before the releases numbered here.
    ),
    ExtraSpec(
        name="hw:locked_memory",
        description=(
            "Locks guest memory in host RAM so it is never swapped out or moved, as some DMA and "
            "real-time workloads need. Because locked memory cannot be overcommitted, Nova only "
            "accepts it together with ``hw:mem_page_size``, which makes the scheduler account "
            "for memory per NUMA node."
        ),
        value=Value(type=bool, description="Whether to lock guest memory."),
        virt_drivers=_LIBVIRT,
        status=Status(Support.SUPPORTED, since="26.0.0"),
    ),
    # --- NUMA ---------------------------------------------------------------------------------------
    ExtraSpec(
        name="hw:numa_nodes",
        description=(
            "Gives the guest this many virtual NUMA nodes, each placed on a different host NUMA "
            "node. Use ``1`` to keep a guest within one host node, or more to spread a large, "
            "memory-bandwidth-hungry guest. vCPUs and memory are split evenly unless "
            "``hw:numa_cpus.{id}`` and ``hw:numa_mem.{id}`` say otherwise."
        ),
        value=Value(type=int, description="The number of guest NUMA nodes.", min=1),
        virt_drivers=_LIBVIRT,
    ),
    ExtraSpec(
        name="hw:numa_cpus.{id}",
        description=(
            "Assigns guest CPUs to guest NUMA node ``{id}``, for an uneven split or when the "
            "vCPU count does not divide by ``hw:numa_nodes``. The numbers are guest CPUs and "
            "guest nodes, not host ones. Every node needs both this and ``hw:numa_mem.{id}``, "
            "and together the lists must cover each vCPU exactly once."
        ),
        parameters=(Parameter("id", int, "The guest NUMA node number, counted from 0.", min=0),),
        value=Value(
            type=str,
            description="The guest CPUs of this node; ``^`` excludes a CPU or range.",
            pattern=_CPU_LIST,
            pattern_hint="a guest CPU list such as 0-3,^2,8",
        ),
        virt_drivers=_LIBVIRT,
    ),
    ExtraSpec(
        name="hw:numa_mem.{id}",
        description=(
            "Assigns an amount of guest memory to guest NUMA node ``{id}``, for an uneven split "
            "or when the flavor's RAM does not divide by ``hw:numa_nodes``. Every node needs both "
            "this and ``hw:numa_cpus.{id}``, and the amounts must add up to the flavor's RAM."
        ),
        parameters=(Parameter("id", int, "The guest NUMA node number, counted from 0.", min=0),),
        value=Value(type=int, description="The memory of this node, in MiB.", min=1),
        virt_drivers=_LIBVIRT,
    ),
    ExtraSpec(
        name="hw:pci_numa_affinity_policy",
        description=(
            "Sets how strictly PCI passthrough devices and SR-IOV ports must share a NUMA node "
            "with the guest. Strict affinity gives the best I/O latency but can make a guest "
            "unschedulable when devices and CPUs sit on different nodes."
        ),
        value=Value(
            type=str,
            description="The PCI NUMA affinity policy.",
            enum=(
                EnumMember(
                    "required",
                    "Every device must be on a NUMA node the guest uses.",
                ),
                EnumMember(
                    "preferred",
                    "Prefer devices on the guest's NUMA nodes, but accept any device.",
                ),
                EnumMember(
                    "legacy",
                    "Require affinity for devices that report a NUMA node and accept devices "
                    "that report none.",
                ),
                EnumMember(
                    "socket",
                    "Every device must be in the same host socket as at least one of the "
                    "guest's NUMA nodes. Available since 23.0.0 (Wallaby).",
                ),
            ),
            default="legacy",
        ),
        virt_drivers=_LIBVIRT,
        status=Status(Support.SUPPORTED, since="21.0.0"),
    ),
    # --- CPU topology -------------------------------------------------------------------------------
    ExtraSpec(
        name="hw:cpu_sockets",
        description=(
            "Fixes the number of CPU sockets the guest sees, for example to satisfy per-socket "
            "software licences. It must divide the vCPU count, and when ``hw:cpu_cores`` and "
            "``hw:cpu_threads`` are set too, the three must multiply to it."
        ),
        value=Value(type=int, description="The number of guest sockets.", min=1),
        virt_drivers=_LIBVIRT_VMWARE,
    ),
    ExtraSpec(
        name="hw:cpu_cores",
        description=(
            "Fixes the number of cores per socket the guest sees. It must divide the vCPU count; "
            "see ``hw:cpu_sockets``."
        ),
        value=Value(type=int, description="The number of cores per guest socket.", min=1),
        virt_drivers=_LIBVIRT_VMWARE,
    ),
    ExtraSpec(
        name="hw:cpu_threads",
        description=(
            "Fixes the number of threads per core the guest sees. It must divide the vCPU count; "
            "see ``hw:cpu_sockets``. It describes the guest's view only; use "
            "``hw:cpu_thread_policy`` to control placement on host threads."
        ),
        value=Value(type=int, description="The number of threads per guest core.", min=1),
        virt_drivers=_LIBVIRT,
    ),
    ExtraSpec(
        name="hw:cpu_max_sockets",
        description=(
            "Caps the number of sockets in the guest topology. Nova picks a topology within the "
            "caps, and an image's ``hw_cpu_sockets`` or ``hw_cpu_max_sockets`` may not exceed it."
        ),
        value=Value(type=int, description="The most sockets the guest may have.", min=1),
        virt_drivers=_LIBVIRT_VMWARE,
    ),
    ExtraSpec(
        name="hw:cpu_max_cores",
        description=(
            "Caps the number of cores per socket in the guest topology; an image's "
            "``hw_cpu_cores`` or ``hw_cpu_max_cores`` may not exceed it."
        ),
        value=Value(type=int, description="The most cores per socket the guest may have.", min=1),
        virt_drivers=_LIBVIRT_VMWARE,
    ),
    ExtraSpec(
        name="hw:cpu_max_threads",
        description=(
            "Caps the number of threads per core in the guest topology; an image's "
            "``hw_cpu_threads`` or ``hw_cpu_max_threads`` may not exceed it. ``1`` hides SMT "
            "from the guest."
        ),
        value=Value(type=int, description="The most threads per core the guest may have.", min=1),
        virt_drivers=_LIBVIRT,
    ),
    # --- Devices and features -------------------------------------------------------------------------
    ExtraSpec(
        name="hw:boot_menu",
        description=(
            "Shows the firmware's interactive boot menu while the guest starts, so a console "
            "user can pick a boot device."
        ),
        value=Value(type=bool, description="Whether to show the boot menu."),
        virt_drivers=_LIBVIRT,
    ),
    ExtraSpec(
        name="hw:vif_multiqueue_enabled",
        description=(
            "Gives each virtio network interface several queue pairs, up to one per vCPU, so "
            "packet processing scales across guest CPUs. The guest must enable the extra queues "
            "itself (for example with ``ethtool -L``)."
        ),
        value=Value(type=bool, description="Whether to enable virtio-net multiqueue."),
        virt_drivers=_LIBVIRT,
    ),
    ExtraSpec(
        name="hw:mem_encryption",
        description=(
            "Encrypts guest memory with a key only the guest holds, using AMD SEV, so neither "
            "the host nor other guests can read it. It needs SEV-capable hosts, a UEFI image and "
            "the ``q35`` machine type, and it locks guest memory. Pick the SEV flavour with "
            "``hw:mem_encryption_model``."
        ),
        value=Value(type=bool, description="Whether to encrypt guest memory."),
        virt_drivers=_LIBVIRT,
        status=Status(Support.SUPPORTED, since="20.0.0"),
    ),
    ExtraSpec(
        name="hw:mem_encryption_model",
        description=(
            "Chooses the memory-encryption technology used when ``hw:mem_encryption`` is "
            "enabled: one of AMD's SEV family, or Intel's TDX. The newer models also protect CPU "
            "register state and memory integrity, and need hosts that support them."
        ),
        value=Value(
            type=str,
            description="The memory encryption technology.",
            enum=(
                EnumMember("amd-sev", "AMD SEV: guest memory is encrypted."),
                EnumMember(
                    "amd-sev-es",
                    "AMD SEV-ES: guest CPU register state is encrypted as well.",
                ),
                EnumMember(
                    "amd-sev-snp",
                    "AMD SEV-SNP: adds integrity protection against the host remapping or "
                    "replaying guest memory.",
                ),
                EnumMember(
                    "intel-tdx",
                    "Intel TDX (from Nova 34.0.0): the guest runs in a trust domain whose memory "
                    "and CPU state the host cannot read or alter.",
                ),
            ),
            default="amd-sev",
        ),
        virt_drivers=_LIBVIRT,
    ),
    ExtraSpec(
        name="hw:pmem",
        description=(
            "Attaches virtual persistent memory devices, one per listed label; the labels name "
            "the namespaces the operator set up in ``[libvirt] pmem_namespaces``. Repeat a label "
            "to get several devices of that kind."
        ),
        value=Value(
            type=str,
            description="A comma-separated list of persistent memory namespace labels.",
            # Nova's "([a-zA-Z0-9_]+(,)?)+" accepts the same strings in exponential time.
            pattern=r"[a-zA-Z0-9_]+(?:,[a-zA-Z0-9_]+)*,?",
            pattern_hint="a comma-separated list of labels such as 6GB,LARGE",
        ),
        virt_drivers=_LIBVIRT,
        status=Status(Support.SUPPORTED, since="20.0.0"),
    ),
    ExtraSpec(
        name="hw:pmu",
        description=(
            "Turns the guest's virtual performance monitoring unit on or off; unset, the "
            "hypervisor's default applies. Profilers in the guest need it, while real-time "
            "guests often disable it to avoid its overhead."
        ),
        value=Value(type=bool, description="Whether the guest has a vPMU."),
        virt_drivers=_LIBVIRT,
    ),
    ExtraSpec(
        name="hw:serial_port_count",
        description=(
            "Sets how many serial ports the guest gets. When an image asks for a count through "
            "``hw_serial_port_count``, it may not exceed this value."
        ),
        value=Value(type=int, description="The number of serial ports.", min=0),
        virt_drivers=_LIBVIRT,
    ),
    ExtraSpec(
        name="hw:tpm_model",
        description=(
            "Chooses the interface of the emulated TPM device (vTPM). The vTPM itself is "
            "requested with ``hw:tpm_version``; hosts need swtpm and a key manager."
        ),
        value=Value(
            type=str,
            description="The vTPM device model.",
            enum=(
                EnumMember("tpm-tis", "The TPM Interface Specification (TIS) device."),
                EnumMember(
                    "tpm-crb",
                    "The Command-Response Buffer (CRB) device; TPM 2.0 only.",
                ),
            ),
            default="tpm-tis",
        ),
        virt_drivers=_LIBVIRT,
        status=Status(Support.SUPPORTED, since="22.0.0"),
    ),
    ExtraSpec(
        name="hw:tpm_version",
        description=(
            "Requests an emulated TPM device (vTPM) implementing this TPM version. Its state is "
            "stored encrypted, with the passphrase in the key manager; see "
            "``hw:tpm_secret_security`` for who owns that secret."
        ),
        value=Value(
            type=str,
            description="The TPM version.",
            enum=(
                EnumMember("1.2", "TPM 1.2; only the ``tpm-tis`` model."),
                EnumMember("2.0", "TPM 2.0; either model."),
            ),
        ),
        virt_drivers=_LIBVIRT,
        status=Status(Support.SUPPORTED, since="22.0.0"),
    ),
    ExtraSpec(
        name="hw:tpm_secret_security",
        description=(
            "Chooses who owns and can read the secret that unlocks the guest's vTPM state, "
            "which trades protection against what operators can do with the guest, such as "
            "live migration."
        ),
        value=Value(
            type=str,
            description="The vTPM secret security mode.",
            enum=(
                EnumMember(
                    "user",
                    "The secret belongs to the server's owner and is kept only in memory on the "
                    "host; the guest cannot be live migrated.",
                ),
                EnumMember(
                    "host",
                    "The secret is kept on the compute host, so the guest can be live migrated "
                    "and restarted without the owner's credentials.",
                ),
                EnumMember(
                    "deployment",
                    "The secret belongs to Nova's service user: the most flexible and the least "
                    "protected mode.",
                ),
            ),
            default="user",
        ),
        virt_drivers=_LIBVIRT,
        status=Status(Support.SUPPORTED, since="33.0.0"),
    ),
    ExtraSpec(
        name="hw:watchdog_action",
        description=(
            "Gives the guest a virtual watchdog device and sets what the hypervisor does when "
            "the guest stops resetting it, so a hung guest can be recovered automatically."
        ),
        value=Value(
            type=str,
            description="What to do when the watchdog fires.",
            enum=(
                EnumMember("none", "Add the watchdog, but do nothing when it fires."),
                EnumMember("pause", "Pause the guest."),
                EnumMember("poweroff", "Power the guest off."),
                EnumMember("reset", "Reset (hard reboot) the guest."),
                EnumMember("disabled", "Add no watchdog device."),
            ),
            default="disabled",
        ),
        virt_drivers=_LIBVIRT,
    ),
    ExtraSpec(
        name="hw:viommu_model",
        description=(
            "Adds a virtual IOMMU so the guest can isolate the DMA of its devices, for example "
            "to run DPDK with vfio in the guest. It needs the ``q35`` machine type on x86 or an "
            "AArch64 guest, and can cost noticeable I/O performance."
        ),
        value=Value(
            type=str,
            description="The virtual IOMMU model.",
            enum=(
                EnumMember("intel", "The emulated Intel VT-d IOMMU (x86)."),
                EnumMember("smmuv3", "The emulated Arm SMMUv3 (AArch64)."),
                EnumMember("virtio", "The paravirtual virtio-iommu."),
                EnumMember(
                    "auto",
                    "``virtio`` where libvirt supports it, otherwise the architecture's own model.",
                ),
            ),
        ),
        virt_drivers=_LIBVIRT,
        status=Status(Support.SUPPORTED, since="26.0.0"),
    ),
    ExtraSpec(
        name="hw:virtio_packed_ring",
        description=(
            "Offers the guest's virtio devices the packed virtqueue layout, which can speed up "
            "virtio networking. Scheduling then requires hosts with the "
            "``COMPUTE_NET_VIRTIO_PACKED`` trait; the guest driver still decides whether to use it."
        ),
        value=Value(type=bool, description="Whether to offer packed virtqueues."),
        virt_drivers=_LIBVIRT,
    ),
    ExtraSpec(
        name="hw:sound_model",
        description=(
            "Adds an emulated sound device of this model to the guest, mainly for virtual "
            "desktops reached through SPICE consoles. Pick a model the guest OS has a driver for."
        ),
        value=Value(
            type=str,
            description="The sound device model.",
            enum=(
                EnumMember("sb16", "A Creative Sound Blaster 16 (ISA)."),
                EnumMember("es1370", "An Ensoniq AudioPCI ES1370 (PCI)."),
                EnumMember("pcspk", "The PC speaker."),
                EnumMember("ac97", "An Intel AC'97 audio controller."),
                EnumMember("ich6", "An Intel HD Audio (ICH6) controller."),
                EnumMember("ich9", "An Intel HD Audio (ICH9) controller."),
                EnumMember("usb", "A USB audio device."),
                EnumMember("virtio", "A paravirtual virtio sound device."),
            ),
        ),
        virt_drivers=_LIBVIRT,
    ),
    ExtraSpec(
        name="hw:usb_model",
        description=(
            "Chooses the USB controller of the guest. A controller is needed for USB redirection "
            "(``hw:redirected_usb_ports``)."
        ),
        value=Value(
            type=str,
            description="The USB controller model.",
            enum=(
                EnumMember("none", "No USB controller."),
                EnumMember("nec-xhci", "An emulated NEC USB 3 (xHCI) controller."),
                EnumMember("qemu-xhci", "QEMU's generic USB 3 (xHCI) controller."),
            ),
        ),
        virt_drivers=_LIBVIRT,
    ),
    ExtraSpec(
        name="hw:redirected_usb_ports",
        description=(
            "Creates this many USB redirection channels, through which a SPICE client can pass "
            "its local USB devices into the guest. Needs a USB controller from "
            "``hw:usb_model``."
        ),
        value=Value(type=int, description="The number of USB redirection ports.", min=0, max=15),
        virt_drivers=_LIBVIRT,
    ),
    ExtraSpec(
        name="hw:ephemeral_encryption",
        description=(
            "Encrypts the guest's local disks that Nova manages (root, ephemeral and swap) at "
            "rest, with passphrases kept in the key manager. Choose the format with "
            "``hw:ephemeral_encryption_format``; unset, the compute host's default applies."
        ),
        value=Value(type=bool, description="Whether to encrypt local disks."),
        virt_drivers=_LIBVIRT,
    ),
    ExtraSpec(
        name="hw:ephemeral_encryption_format",
        description=(
            "Chooses the on-disk encryption format for local disks when "
            "``hw:ephemeral_encryption`` is enabled; hosts are scheduled by the formats they "
            "support."
        ),
        value=Value(
            type=str,
            description="The disk encryption format.",
            enum=(
                EnumMember("plain", "dm-crypt in plain mode, without a header."),
                EnumMember("luks", "LUKS version 1."),
                EnumMember("luksv2", "LUKS version 2."),
            ),
        ),
        virt_drivers=_LIBVIRT,
    ),
    # --- Read by Nova but never registered there -----------------------------------------------------
    ExtraSpec(
        name="hw:maxphysaddr_mode",
        description=(
            "Sets how many physical address bits the guest CPU reports, which limits how much "
            "memory a large guest can address. Scheduling only picks hosts that support the "
            "chosen mode. Nova's API does not register this key, so Nova itself rejects it from "
            "microversion 2.86 on."
        ),
        value=Value(
            type=str,
            description="How the guest's physical address width is chosen.",
            enum=(
                EnumMember(
                    "passthrough",
                    "Report the host's own width; needs the ``host-passthrough`` CPU mode.",
                ),
                EnumMember(
                    "emulate",
                    "Report the width given in ``hw:maxphysaddr_bits``; works with other CPU "
                    "modes and suits clouds that live-migrate between different CPUs.",
                ),
            ),
        ),
        virt_drivers=_LIBVIRT,
        status=Status(Support.SUPPORTED, since="29.0.0"),
    ),
    ExtraSpec(
        name="hw:maxphysaddr_bits",
        description=(
            "The number of physical address bits the guest CPU reports when "
            "``hw:maxphysaddr_mode`` is ``emulate``. Only hosts whose CPUs support at least this "
            "many bits are chosen. Like the mode, Nova's own API rejects it from microversion 2.86 "
            "on."
        ),
        # No upper bound: Nova documents none (it compares with each host's own limit).
        value=Value(type=int, description="The guest's physical address width, in bits.", min=1),
        virt_drivers=_LIBVIRT,
        status=Status(Support.SUPPORTED, since="29.0.0"),
    ),
)
