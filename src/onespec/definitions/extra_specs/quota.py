"""Extra specs of the ``quota`` namespace: hypervisor-enforced limits on an instance's resources."""

from onespec.definitions.model import EnumMember, ExtraSpec, Namespace, Status, Support, Value

NAMESPACE = Namespace(
    name="quota",
    title="Resource limits",
    description=(
        "Limits that the hypervisor enforces on what one instance may consume: CPU time, "
        "memory, disk I/O and network bandwidth. They are unrelated to the API's project "
        "quotas. Which keys mean anything depends on the virt driver: the libvirt driver reads "
        "``quota:cpu_shares``, ``quota:cpu_period``, ``quota:cpu_quota``, the "
        "``quota:disk_*_sec`` keys and the ``quota:vif_inbound_*`` / ``quota:vif_outbound_*`` "
        "keys, while the VMware driver reads the ``*_limit``, ``*_reservation``, "
        "``*_shares_level`` and ``*_shares_share`` keys for CPU, memory, disk I/O and network. "
        "Nova warns that this feature gets little testing; where it fits, the QoS policies of "
        "Cinder and Neutron are the better-maintained choice."
    ),
)


def _shares_levels(resource: str) -> tuple[EnumMember, ...]:
    """The four vSphere allocation levels, described for one resource."""
    return (
        EnumMember(
            "custom",
            f"Use the number of shares given in ``quota:{resource}_shares_share``.",
        ),
        EnumMember("high", "vSphere's largest preset: twice ``normal`` and four times ``low``."),
        EnumMember("normal", "vSphere's middle preset, and its default."),
        EnumMember("low", "vSphere's smallest preset: half of ``normal``."),
    )


_VMWARE = ("vmware",)
_LIBVIRT = ("libvirt",)
_MITAKA = Status(Support.SUPPORTED, since="13.0.0")

EXTRA_SPECS: tuple[ExtraSpec, ...] = (
    # --- VMware: CPU --------------------------------------------------------------------------
    ExtraSpec(
        name="quota:cpu_limit",
        description=(
            "A hard ceiling, in MHz, on the CPU the instance may use: vSphere never gives it "
            "more, even when the host is idle. Useful to keep an instance's performance "
            "predictable whatever the load around it."
        ),
        value=Value(type=int, description="Maximum CPU, in MHz.", min=0),
        virt_drivers=_VMWARE,
    ),
    ExtraSpec(
        name="quota:cpu_reservation",
        description=(
            "CPU, in MHz, that vSphere guarantees to the instance: it always gets at least this "
            "much when it asks for it, whatever else runs on the host. It must not exceed "
            "``quota:cpu_limit`` when that is set."
        ),
        value=Value(type=int, description="Guaranteed CPU, in MHz."),
        virt_drivers=_VMWARE,
    ),
    ExtraSpec(
        name="quota:cpu_shares_level",
        description=(
            "The instance's share of CPU relative to other virtual machines when the host is "
            "contended, as one of vSphere's allocation levels. With ``custom`` the number of "
            "shares comes from ``quota:cpu_shares_share``."
        ),
        value=Value(
            type=str, description="A vSphere allocation level.", enum=_shares_levels("cpu")
        ),
        virt_drivers=_VMWARE,
    ),
    ExtraSpec(
        name="quota:cpu_shares_share",
        description=(
            "The number of CPU shares the instance gets when ``quota:cpu_shares_level`` is "
            "``custom``. Shares have no unit; they only count relative to the shares of the "
            "other virtual machines on the host."
        ),
        value=Value(type=int, description="A relative number of CPU shares.", min=0),
        virt_drivers=_VMWARE,
    ),
    # --- VMware: memory ----------------------------------------------------------------------
    ExtraSpec(
        name="quota:memory_limit",
        description=(
            "A hard ceiling, in MB, on the host memory the instance may use, even when more is "
            "free on the host."
        ),
        value=Value(type=int, description="Maximum memory, in MB.", min=0),
        virt_drivers=_VMWARE,
        status=_MITAKA,
    ),
    ExtraSpec(
        name="quota:memory_reservation",
        description=(
            "Host memory, in MB, that vSphere guarantees to the instance and will not reclaim "
            "from it. It must not exceed ``quota:memory_limit`` when that is set."
        ),
        value=Value(type=int, description="Guaranteed memory, in MB."),
        virt_drivers=_VMWARE,
        status=_MITAKA,
    ),
    ExtraSpec(
        name="quota:memory_shares_level",
        description=(
            "The instance's share of memory relative to other virtual machines when the host is "
            "short of memory, as one of vSphere's allocation levels. With ``custom`` the number "
            "of shares comes from ``quota:memory_shares_share``."
        ),
        value=Value(
            type=str, description="A vSphere allocation level.", enum=_shares_levels("memory")
        ),
        virt_drivers=_VMWARE,
        status=_MITAKA,
    ),
    ExtraSpec(
        name="quota:memory_shares_share",
        description=(
            "The number of memory shares the instance gets when ``quota:memory_shares_level`` "
            "is ``custom``; like all shares, it only counts relative to other virtual machines."
        ),
        value=Value(type=int, description="A relative number of memory shares.", min=0),
        virt_drivers=_VMWARE,
        status=_MITAKA,
    ),
    # --- VMware: disk I/O --------------------------------------------------------------------
    ExtraSpec(
        name="quota:disk_io_limit",
        description=(
            "A hard ceiling on the disk I/O operations per second the instance may perform, "
            "even when the datastore has capacity to spare."
        ),
        value=Value(type=int, description="Maximum I/O operations per second.", min=0),
        virt_drivers=_VMWARE,
        status=_MITAKA,
    ),
    ExtraSpec(
        name="quota:disk_io_reservation",
        description=(
            "Disk I/O operations per second that vSphere guarantees to the instance. It must not "
            "exceed ``quota:disk_io_limit`` when that is set."
        ),
        value=Value(type=int, description="Guaranteed I/O operations per second."),
        virt_drivers=_VMWARE,
        status=_MITAKA,
    ),
    ExtraSpec(
        name="quota:disk_io_shares_level",
        description=(
            "The instance's share of disk I/O relative to other virtual machines when storage "
            "is contended, as one of vSphere's allocation levels. With ``custom`` the number of "
            "shares comes from ``quota:disk_io_shares_share``."
        ),
        value=Value(
            type=str, description="A vSphere allocation level.", enum=_shares_levels("disk_io")
        ),
        virt_drivers=_VMWARE,
        status=_MITAKA,
    ),
    ExtraSpec(
        name="quota:disk_io_shares_share",
        description=(
            "The number of disk I/O shares the instance gets when "
            "``quota:disk_io_shares_level`` is ``custom``; it only counts relative to other "
            "virtual machines."
        ),
        value=Value(type=int, description="A relative number of disk I/O shares.", min=0),
        virt_drivers=_VMWARE,
        status=_MITAKA,
    ),
    # --- VMware: network ---------------------------------------------------------------------
    ExtraSpec(
        name="quota:vif_limit",
        description=(
            "A hard ceiling, in Mbit/s, on the network bandwidth of each of the instance's "
            "virtual interfaces."
        ),
        value=Value(type=int, description="Maximum bandwidth, in Mbit/s.", min=0),
        virt_drivers=_VMWARE,
        status=_MITAKA,
    ),
    ExtraSpec(
        name="quota:vif_reservation",
        description=(
            "Network bandwidth, in Mbit/s, that vSphere guarantees to each of the instance's "
            "virtual interfaces. It must not exceed ``quota:vif_limit`` when that is set."
        ),
        value=Value(type=int, description="Guaranteed bandwidth, in Mbit/s."),
        virt_drivers=_VMWARE,
        status=_MITAKA,
    ),
    ExtraSpec(
        name="quota:vif_shares_level",
        description=(
            "The instance's share of network bandwidth relative to other virtual machines when "
            "the uplink is contended, as one of vSphere's allocation levels. With ``custom`` "
            "the number of shares comes from ``quota:vif_shares_share``."
        ),
        value=Value(
            type=str, description="A vSphere allocation level.", enum=_shares_levels("vif")
        ),
        virt_drivers=_VMWARE,
        status=_MITAKA,
    ),
    ExtraSpec(
        name="quota:vif_shares_share",
        description=(
            "The number of network shares the instance gets when ``quota:vif_shares_level`` is "
            "``custom``; it only counts relative to other virtual machines."
        ),
        value=Value(type=int, description="A relative number of network shares.", min=0),
        virt_drivers=_VMWARE,
        status=_MITAKA,
    ),
    # --- libvirt: CPU ------------------------------------------------------------------------
    ExtraSpec(
        name="quota:cpu_shares",
        description=(
            "The instance's weight when host CPUs are busy: CPU time is divided in proportion "
            "to the weights of the competing instances, so ``2048`` gets twice the time of "
            "``1024``. It has no unit and limits nothing while CPUs are idle. Enforced through "
            "the host's cgroup CPU controller."
        ),
        value=Value(type=int, description="A relative CPU weight.", min=0),
        virt_drivers=_LIBVIRT,
    ),
    ExtraSpec(
        name="quota:cpu_period",
        description=(
            "The enforcement window, in microseconds, for ``quota:cpu_quota``: in every window "
            "each vCPU may run for at most the quota. Hosts accept ``1000`` to ``1000000`` (1 ms "
            "to 1 s), or ``0`` for no setting. Shorter windows smooth latency at the cost of "
            "burst capacity."
        ),
        value=Value(
            type=int,
            description="Window length in microseconds, 1000 to 1000000, or 0 for none.",
            min=0,
        ),
        virt_drivers=_LIBVIRT,
    ),
    ExtraSpec(
        name="quota:cpu_quota",
        description=(
            "The CPU time, in microseconds, that each vCPU may use within one "
            "``quota:cpu_period``. A quota above the period lets a vCPU use more than one host "
            "CPU's worth of time; e.g. a period of ``1000`` and a quota of ``500`` caps each "
            "vCPU at half a host CPU. Meaningful values start at ``1000``; ``0`` sets nothing "
            "and a negative value removes the limit."
        ),
        value=Value(
            type=int,
            description="Microseconds of CPU time per period; negative means unlimited.",
        ),
        virt_drivers=_LIBVIRT,
    ),
    # --- libvirt: disk I/O -------------------------------------------------------------------
    ExtraSpec(
        name="quota:disk_read_bytes_sec",
        description=(
            "Caps the read throughput, in bytes per second, of each of the instance's local "
            "disks. Cannot be combined with ``quota:disk_total_bytes_sec``."
        ),
        value=Value(type=int, description="Bytes per second.", min=0),
        virt_drivers=_LIBVIRT,
    ),
    ExtraSpec(
        name="quota:disk_read_iops_sec",
        description=(
            "Caps the read operations per second of each of the instance's local disks. Cannot "
            "be combined with ``quota:disk_total_iops_sec``."
        ),
        value=Value(type=int, description="Read operations per second.", min=0),
        virt_drivers=_LIBVIRT,
    ),
    ExtraSpec(
        name="quota:disk_write_bytes_sec",
        description=(
            "Caps the write throughput, in bytes per second, of each of the instance's local "
            "disks; ``10485760`` allows 10 MiB/s. Cannot be combined with "
            "``quota:disk_total_bytes_sec``."
        ),
        value=Value(type=int, description="Bytes per second.", min=0),
        virt_drivers=_LIBVIRT,
    ),
    ExtraSpec(
        name="quota:disk_write_iops_sec",
        description=(
            "Caps the write operations per second of each of the instance's local disks. Cannot "
            "be combined with ``quota:disk_total_iops_sec``."
        ),
        value=Value(type=int, description="Write operations per second.", min=0),
        virt_drivers=_LIBVIRT,
    ),
    ExtraSpec(
        name="quota:disk_total_bytes_sec",
        description=(
            "Caps the combined read and write throughput, in bytes per second, of each of the "
            "instance's local disks. Use it instead of, not together with, "
            "``quota:disk_read_bytes_sec`` and ``quota:disk_write_bytes_sec``."
        ),
        value=Value(type=int, description="Bytes per second.", min=0),
        virt_drivers=_LIBVIRT,
    ),
    ExtraSpec(
        name="quota:disk_total_iops_sec",
        description=(
            "Caps the combined read and write operations per second of each of the instance's "
            "local disks. Use it instead of, not together with, ``quota:disk_read_iops_sec`` "
            "and ``quota:disk_write_iops_sec``."
        ),
        value=Value(type=int, description="Operations per second.", min=0),
        virt_drivers=_LIBVIRT,
    ),
    # --- libvirt: network --------------------------------------------------------------------
    ExtraSpec(
        name="quota:vif_inbound_average",
        description=(
            "The average rate, in kilobytes per second, that traffic into each of the "
            "instance's interfaces is shaped to. Only interfaces plugged through a tap device "
            "are shaped (not SR-IOV ones); Neutron QoS policies are usually preferable."
        ),
        value=Value(type=int, description="Kilobytes per second.", min=0),
        virt_drivers=_LIBVIRT,
    ),
    ExtraSpec(
        name="quota:vif_inbound_peak",
        description=(
            "The highest rate, in kilobytes per second, at which traffic into each interface "
            "may flow during a burst above ``quota:vif_inbound_average``."
        ),
        value=Value(type=int, description="Kilobytes per second.", min=0),
        virt_drivers=_LIBVIRT,
    ),
    ExtraSpec(
        name="quota:vif_inbound_burst",
        description=(
            "How much incoming data, in kilobytes, each interface may receive at the peak rate "
            "before it is held back to ``quota:vif_inbound_average`` again."
        ),
        value=Value(type=int, description="Kilobytes.", min=0),
        virt_drivers=_LIBVIRT,
    ),
    ExtraSpec(
        name="quota:vif_outbound_average",
        description=(
            "The average rate, in kilobytes per second, that traffic out of each of the "
            "instance's interfaces is shaped to; ``32768`` is about 262 Mbit/s. Only interfaces "
            "plugged through a tap device are shaped (not SR-IOV ones)."
        ),
        value=Value(type=int, description="Kilobytes per second.", min=0),
        virt_drivers=_LIBVIRT,
    ),
    ExtraSpec(
        name="quota:vif_outbound_peak",
        description=(
            "The highest rate, in kilobytes per second, at which traffic out of each interface "
            "may flow during a burst above ``quota:vif_outbound_average``."
        ),
        value=Value(type=int, description="Kilobytes per second.", min=0),
        virt_drivers=_LIBVIRT,
    ),
    ExtraSpec(
        name="quota:vif_outbound_burst",
        description=(
            "How much outgoing data, in kilobytes, each interface may send at the peak rate "
            "before it is held back to ``quota:vif_outbound_average`` again."
        ),
        value=Value(type=int, description="Kilobytes.", min=0),
        virt_drivers=_LIBVIRT,
    ),
)
