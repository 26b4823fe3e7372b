"""Extra specs of the ``vmware`` namespace: options of the VMware vCenter driver."""

from onespec.definitions.model import ExtraSpec, Namespace, Value

NAMESPACE = Namespace(
    name="vmware",
    title="VMware",
    description=(
        "Options read only by the VMware vCenter virt driver; other drivers ignore them. The "
        "VMware driver's resource limits are in the ``quota`` namespace."
    ),
)

EXTRA_SPECS: tuple[ExtraSpec, ...] = (
    ExtraSpec(
        name="vmware:hw_version",
        description=(
            "The virtual hardware version that new instances of this flavor are created with, "
            "instead of the one vSphere would choose by default. Pinning an older version keeps "
            "instances runnable on older ESXi hosts, which matters in clusters that mix host "
            "versions."
        ),
        value=Value(
            type=str,
            description="A vSphere virtual hardware version identifier, such as ``vmx-13``.",
        ),
        virt_drivers=("vmware",),
    ),
    ExtraSpec(
        name="vmware:storage_policy",
        description=(
            "The vSphere storage policy that decides where the disks of new instances of this "
            "flavor are placed, overriding the driver's ``[vmware] pbm_default_policy``. It is "
            "ignored unless Storage Policy Based Management is enabled with "
            "``[vmware] pbm_enabled``."
        ),
        value=Value(type=str, description="The name of a vSphere storage policy."),
        virt_drivers=("vmware",),
    ),
)
