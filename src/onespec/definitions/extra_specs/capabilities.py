"""Extra specs of the ``capabilities`` namespace: host properties checked by a scheduler filter."""

from onespec.definitions.model import ExtraSpec, Namespace, Parameter, UnlistedKeyHint, Value

#: How a requirement is written, shared with the ``aggregate_instance_extra_specs`` namespace,
#: whose filter reads values the same way.
OPERATOR_SYNTAX = """\
The value is a requirement, split into words at whitespace. If the first word is one of the
operators below, it says how the words after it are compared with the host's value; otherwise
the whole value must be exactly equal, as text, to the host's value.

* ``= N``: the host's value, read as a number, is at least ``N`` (a minimum, as for vCPUs).
* ``== N``, ``!= N``, ``>= N``, ``<= N``: the host's value, read as a number, is equal to,
  different from, at least or at most ``N``.
* ``s== S``, ``s!= S``, ``s>= S``, ``s> S``, ``s<= S``, ``s< S``: the same kinds of comparison
  made on text, character by character, so ``s< 9`` holds for ``10``.
* ``<in> S``: ``S`` appears somewhere inside the host's value.
* ``<all-in> A B ...``: every one of the listed words appears inside the host's value.
* ``<or> A <or> B ...``: the host's value is exactly one of the listed words.

Apart from ``<all-in>`` and ``<or>``, only the first word after the operator is used; every
operator needs at least one operand. Examples: ``>= 4``, ``s== 2.1.0``, ``<in> avx2``,
``<all-in> aes sse4_2``, ``<or> x86_64 <or> aarch64``.
"""

#: Why ``capabilities:boot_option`` is refused, and what to write instead.
UNLISTED_KEYS = """\
Keys this namespace does not list, such as ``capabilities:boot_option=local``,
``capabilities:profile=compute`` or ``capabilities:boot_mode=uefi`` (as Ironic and TripleO
documents write them), are refused: by Nova's validator from microversion 2.86 on, and by
onespec. Write them under ``stats`` instead: ``capabilities:stats:boot_option=local``. The
filter reads both spellings the same way (a name the host does not have as an attribute is
looked up in the host's ``stats``, where the Ironic driver puts a node's capabilities), so the
flavor selects the same hosts, and both validators accept it. A finding about such a key
suggests the ``stats`` spelling.
"""

NAMESPACE = Namespace(
    name="capabilities",
    title="Host capabilities (ComputeCapabilitiesFilter)",
    description=(
        "Requirements on what a compute host reports about itself, enforced by the "
        "``ComputeCapabilitiesFilter`` scheduler filter, which must be enabled in "
        "``[filter_scheduler] enabled_filters`` for these keys to have any effect. Each key "
        "names one property of the host as the scheduler sees it; hosts whose property is "
        "missing or does not satisfy the value are not considered. Properties that hold "
        "structured data (such as ``cpu_info``) can be followed deeper with further "
        "``:name`` steps, e.g. ``capabilities:cpu_info:arch``. Where a trait or a placement "
        "resource can express the same need, prefer it: placement filters hosts far more "
        "cheaply.\n\n" + OPERATOR_SYNTAX + "\n" + UNLISTED_KEYS
    ),
    unlisted_key_hint=UnlistedKeyHint(
        template="capabilities:stats:{name}",
        reason=(
            "Nova refuses it from microversion 2.86 on; ComputeCapabilitiesFilter reads the "
            "same value from the host's stats under the key below, which both accept."
        ),
    ),
)

_VALUE = Value(
    type=str,
    description=(
        "A requirement: a literal value, or an operator followed by its operands (see the "
        "namespace description)."
    ),
)

_FILTER_DESCRIPTION = (
    "An optional path into the structured value: each ``:name`` step (letters, digits and "
    "underscores) selects a key or attribute one level deeper. Leave it empty to compare the "
    "whole value."
)

EXTRA_SPECS: tuple[ExtraSpec, ...] = (
    ExtraSpec(
        name="capabilities:id",
        description=(
            "The compute node's internal database ID. It differs between deployments and cells, "
            "so it is rarely a sensible thing to match on."
        ),
        value=_VALUE,
    ),
    ExtraSpec(
        name="capabilities:uuid",
        description=(
            "The compute node's UUID, which is also the UUID of its resource provider in placement."
        ),
        value=_VALUE,
    ),
    ExtraSpec(
        name="capabilities:service_id",
        description="The database ID of the ``nova-compute`` service that manages the node.",
        value=_VALUE,
    ),
    ExtraSpec(
        name="capabilities:host",
        description=(
            "The name of the host that runs the node's ``nova-compute`` service, as listed by "
            "``openstack compute service list``."
        ),
        value=_VALUE,
    ),
    ExtraSpec(
        name="capabilities:vcpus",
        description="The number of CPUs the node reports, before any allocation ratio is applied.",
        value=_VALUE,
    ),
    ExtraSpec(
        name="capabilities:memory_mb",
        description="The node's total memory, in MiB.",
        value=_VALUE,
    ),
    ExtraSpec(
        name="capabilities:local_gb",
        description="The node's total local disk, in GiB.",
        value=_VALUE,
    ),
    ExtraSpec(
        name="capabilities:vcpus_used",
        description="The number of vCPUs that the instances on the node use.",
        value=_VALUE,
    ),
    ExtraSpec(
        name="capabilities:memory_mb_used",
        description="The memory, in MiB, that the instances on the node use.",
        value=_VALUE,
    ),
    ExtraSpec(
        name="capabilities:local_gb_used",
        description="The local disk, in GiB, that the instances on the node use.",
        value=_VALUE,
    ),
    ExtraSpec(
        name="capabilities:hypervisor_type",
        description=(
            "The kind of hypervisor the node runs, as the driver names it, such as ``QEMU`` for "
            "libvirt with KVM or QEMU, or ``VMware vCenter Server``."
        ),
        value=_VALUE,
    ),
    ExtraSpec(
        name="capabilities:hypervisor_version",
        description=(
            "The hypervisor's version encoded as one integer (the libvirt driver turns 8.0.0 into "
            "``8000000``), so the numeric operators compare versions, e.g. ``>= 8000000``."
        ),
        value=_VALUE,
    ),
    ExtraSpec(
        name="capabilities:hypervisor_hostname",
        description=(
            "The name the hypervisor gives the node: usually the host's own name, but the node "
            "UUID with Ironic and an identifier of the vCenter cluster with VMware."
        ),
        value=_VALUE,
    ),
    ExtraSpec(
        name="capabilities:free_ram_mb",
        description=(
            "The node's memory, in MiB, not yet claimed by instances; it can be negative when "
            "memory is overcommitted."
        ),
        value=_VALUE,
    ),
    ExtraSpec(
        name="capabilities:free_disk_gb",
        description=(
            "The node's local disk, in GiB, not yet claimed by instances; it can be negative when "
            "disk is overcommitted."
        ),
        value=_VALUE,
    ),
    ExtraSpec(
        name="capabilities:current_workload",
        description=(
            "The number of instances on the node that are in the middle of a task, such as "
            "building, resizing, migrating or snapshotting."
        ),
        value=_VALUE,
    ),
    ExtraSpec(
        name="capabilities:running_vms",
        description="The number of instances on the node.",
        value=_VALUE,
    ),
    ExtraSpec(
        name="capabilities:disk_available_least",
        description=(
            "The driver's estimate, in GiB, of the disk that would remain free if every thinly "
            "provisioned disk on the node grew to its full size."
        ),
        value=_VALUE,
    ),
    ExtraSpec(
        name="capabilities:host_ip",
        description=(
            "The node's management IP address, taken from the ``my_ip`` option of its "
            "``nova-compute``."
        ),
        value=_VALUE,
    ),
    ExtraSpec(
        name="capabilities:mapped",
        description=(
            "Whether the node has been mapped into a cell, for example by ``nova-manage cell_v2 "
            "discover_hosts``: ``1`` once mapped, ``0`` before."
        ),
        value=_VALUE,
    ),
    ExtraSpec(
        name="capabilities:cpu_allocation_ratio",
        description="The CPU overcommit ratio the node applies.",
        value=_VALUE,
    ),
    ExtraSpec(
        name="capabilities:ram_allocation_ratio",
        description="The memory overcommit ratio the node applies.",
        value=_VALUE,
    ),
    ExtraSpec(
        name="capabilities:disk_allocation_ratio",
        description="The disk overcommit ratio the node applies.",
        value=_VALUE,
    ),
    ExtraSpec(
        name="capabilities:total_usable_ram_mb",
        description="The memory, in MiB, that the scheduler counts as usable on the host.",
        value=_VALUE,
    ),
    ExtraSpec(
        name="capabilities:total_usable_disk_gb",
        description="The local disk, in GiB, that the scheduler counts as usable on the host.",
        value=_VALUE,
    ),
    ExtraSpec(
        name="capabilities:disk_mb_used",
        description="The local disk, in MiB, that the scheduler counts as used on the host.",
        value=_VALUE,
    ),
    ExtraSpec(
        name="capabilities:free_disk_mb",
        description="The local disk, in MiB, that the scheduler counts as free on the host.",
        value=_VALUE,
    ),
    ExtraSpec(
        name="capabilities:vcpus_total",
        description="The total number of vCPUs that the scheduler counts as available on the host.",
        value=_VALUE,
    ),
    ExtraSpec(
        name="capabilities:num_instances",
        description="The number of instances the scheduler believes are on the host.",
        value=_VALUE,
    ),
    ExtraSpec(
        name="capabilities:num_io_ops",
        description=(
            "The number of instances on the host busy with I/O-heavy tasks such as builds, "
            "resizes, migrations or snapshots."
        ),
        value=_VALUE,
    ),
    ExtraSpec(
        name="capabilities:failed_builds",
        description=(
            "The number of recent consecutive build failures on the host; a successful build "
            "resets it."
        ),
        value=_VALUE,
    ),
    ExtraSpec(
        name="capabilities:aggregates",
        description=(
            "The host aggregates the host belongs to. Their text form is awkward to match; "
            "``aggregate_instance_extra_specs`` keys are the better tool for aggregate metadata."
        ),
        value=_VALUE,
    ),
    ExtraSpec(
        name="capabilities:cell_uuid",
        description="The UUID of the cell the host belongs to.",
        value=_VALUE,
    ),
    ExtraSpec(
        name="capabilities:updated",
        description="When the scheduler last refreshed its view of the host (a timestamp).",
        value=_VALUE,
    ),
    ExtraSpec(
        name="capabilities:cpu_info{filter}",
        description=(
            "The description of the host CPU that the driver reports: ``arch``, ``model``, "
            "``vendor``, ``topology`` (``sockets``, ``cores``, ``threads``) and ``features``. "
            "Reach one field with the filter, e.g. ``capabilities:cpu_info:arch`` with ``s== "
            "x86_64`` or ``capabilities:cpu_info:features`` with ``<all-in> avx2 aes``."
        ),
        value=_VALUE,
        parameters=(Parameter("filter", str, _FILTER_DESCRIPTION, pattern=r"(:\w+)*"),),
    ),
    ExtraSpec(
        name="capabilities:metrics{filter}",
        description=(
            "The measurements collected by the compute monitors that the ``[DEFAULT] "
            "compute_monitors`` option enables, such as CPU frequency and utilisation."
        ),
        value=_VALUE,
        parameters=(Parameter("filter", str, _FILTER_DESCRIPTION, pattern=r"(:\w+)*"),),
    ),
    ExtraSpec(
        name="capabilities:stats{filter}",
        description=(
            "The free-form statistics the compute service reports, such as ``num_instances`` or "
            "``io_workload``; ``capabilities:stats:NAME`` compares one entry."
        ),
        value=_VALUE,
        parameters=(Parameter("filter", str, _FILTER_DESCRIPTION, pattern=r"(:\w+)*"),),
    ),
    ExtraSpec(
        name="capabilities:numa_topology{filter}",
        description=(
            "The host's NUMA topology as the driver reports it: its cells with their CPUs, memory "
            "and page sizes."
        ),
        value=_VALUE,
        parameters=(Parameter("filter", str, _FILTER_DESCRIPTION, pattern=r"(:\w+)*"),),
    ),
    ExtraSpec(
        name="capabilities:supported_hv_specs{filter}",
        description=(
            "The combinations of CPU architecture, hypervisor type and virtual machine mode that "
            "the node can run."
        ),
        value=_VALUE,
        parameters=(Parameter("filter", str, _FILTER_DESCRIPTION, pattern=r"(:\w+)*"),),
    ),
    ExtraSpec(
        name="capabilities:pci_device_pools{filter}",
        description=(
            "The node's PCI devices available for passthrough, summarised in pools by vendor, "
            "product, NUMA node and tags."
        ),
        value=_VALUE,
        parameters=(Parameter("filter", str, _FILTER_DESCRIPTION, pattern=r"(:\w+)*"),),
    ),
    ExtraSpec(
        name="capabilities:nodename{filter}",
        description=(
            "The name of the node the scheduler's host entry describes; for most drivers the same "
            "as ``capabilities:hypervisor_hostname``."
        ),
        value=_VALUE,
        parameters=(Parameter("filter", str, _FILTER_DESCRIPTION, pattern=r"(:\w+)*"),),
    ),
    ExtraSpec(
        name="capabilities:pci_stats{filter}",
        description=(
            "The scheduler's own accounting of the host's PCI device pools, including how many "
            "devices in each are free."
        ),
        value=_VALUE,
        parameters=(Parameter("filter", str, _FILTER_DESCRIPTION, pattern=r"(:\w+)*"),),
    ),
    ExtraSpec(
        name="capabilities:supported_instances{filter}",
        description=(
            "The list of (architecture, hypervisor type, virtual machine mode) triples the host "
            "can run."
        ),
        value=_VALUE,
        parameters=(Parameter("filter", str, _FILTER_DESCRIPTION, pattern=r"(:\w+)*"),),
    ),
    ExtraSpec(
        name="capabilities:limits{filter}",
        description=(
            "The resource limits that filters which ran earlier in the same scheduling pass "
            "recorded for the host, such as its NUMA limits."
        ),
        value=_VALUE,
        parameters=(Parameter("filter", str, _FILTER_DESCRIPTION, pattern=r"(:\w+)*"),),
    ),
    ExtraSpec(
        name="capabilities:instances{filter}",
        description="The instances the scheduler knows on the host, keyed by instance UUID.",
        value=_VALUE,
        parameters=(Parameter("filter", str, _FILTER_DESCRIPTION, pattern=r"(:\w+)*"),),
    ),
)
