"""Extra specs of the ``pci_passthrough`` namespace: host PCI devices given to the guest."""

from onespec.definitions.model import ExtraSpec, Namespace, Value

NAMESPACE = Namespace(
    name="pci_passthrough",
    title="PCI passthrough",
    description=(
        "Requests for host PCI devices (GPUs, network cards, accelerators) that are handed "
        "directly to the guest. Devices are asked for by alias: the operator describes each "
        "class of device once, under a name, in the ``[pci] alias`` option of nova.conf, and "
        "flavors refer to that name."
    ),
)

EXTRA_SPECS: tuple[ExtraSpec, ...] = (
    ExtraSpec(
        name="pci_passthrough:alias",
        description=(
            "The PCI devices to attach to each instance of this flavor, as ``alias:count`` "
            "pairs: ``count`` devices matching the alias ``alias`` configured in ``[pci] alias`` "
            "(which must be defined identically wherever nova-api and nova-compute run). Join "
            "several pairs with commas, e.g. ``gpu:1,fast-nic:2``. How strictly the devices "
            "must share a NUMA node with the guest is set by ``hw:pci_numa_affinity_policy``."
        ),
        value=Value(
            type=str,
            description="One or more comma-separated ``alias:count`` pairs.",
            # Nova's "[^:]+:\d+(?:\s*,\s*[^:]+:\d+)*" accepts the same strings, but the
            # second \s* overlaps [^:]+ and backtracks exponentially on a long value.
            pattern=r"[^:]+:\d+(?:\s*,[^:]+:\d+)*",
            pattern_hint="a comma-separated list of alias:count pairs",
        ),
        virt_drivers=("libvirt",),
    ),
)
