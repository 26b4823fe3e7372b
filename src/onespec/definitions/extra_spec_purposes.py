"""What each extra spec is for, as operators look for it: the groups of the by-purpose index.

The catalogue is organised by namespace, which is how Nova parses keys; an operator asks another
question first -- "how do I ask Placement for this?", "which scheduler filter reads this?",
"what does the virt driver do with this?". Each namespace (and each key without a namespace)
belongs to exactly one purpose; the reference renders the purposes in this order.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Purpose:
    """One group of the by-purpose index."""

    name: str
    title: str
    description: str
    #: Namespaces whose every key serves this purpose.
    namespaces: tuple[str, ...] = ()
    #: Keys without a namespace that serve it.
    keys: tuple[str, ...] = ()


PURPOSES: tuple[Purpose, ...] = (
    Purpose(
        name="placement",
        title="Placement: resources and traits",
        description=(
            "What the scheduler asks Placement for: amounts of resource classes, required or "
            "forbidden traits, accelerator device profiles (resolved into resource requests), "
            "and how granular request groups may share providers."
        ),
        namespaces=("resources", "trait", "accel"),
        keys=("group_policy",),
    ),
    Purpose(
        name="scheduler",
        title="Scheduler filters",
        description=(
            "Keys that a scheduler filter compares with what it knows about each host: the "
            "compute node's capabilities, the host aggregate's metadata, the PCI devices "
            "available."
        ),
        namespaces=("capabilities", "aggregate_instance_extra_specs", "pci_passthrough"),
    ),
    Purpose(
        name="virt",
        title="Virt driver features",
        description=(
            "How the virt driver builds the guest: CPU pinning and topology, NUMA, memory "
            "pages, devices, firmware, and the hypervisor-specific settings of VMware."
        ),
        namespaces=("hw", "hw_rng", "hw_video", "os", "vmware"),
        keys=("hide_hypervisor_id",),
    ),
    Purpose(
        name="quota",
        title="Resource limits and shares",
        description=(
            "Limits and shares of CPU, disk I/O, network bandwidth and memory that the "
            "hypervisor enforces for each guest."
        ),
        namespaces=("quota",),
    ),
)
