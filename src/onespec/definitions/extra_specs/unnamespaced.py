"""Extra specs without a namespace: keys that have no ``prefix:`` part."""

from onespec.definitions.model import EnumMember, ExtraSpec, Namespace, Status, Support, Value

NAMESPACE = Namespace(
    name="",
    title="Keys without a namespace",
    description=(
        "Keys with no colon in them. Only the two below are checked; any other key without a "
        "colon is accepted unchecked. Be careful with bare keys: the "
        "``AggregateInstanceExtraSpecsFilter`` and ``ComputeCapabilitiesFilter`` scheduler "
        "filters still read them in their old, pre-namespace form, as requirements on aggregate "
        "metadata and on host properties, so a bare key meant for something else can make "
        "those filters reject every host."
    ),
)

EXTRA_SPECS: tuple[ExtraSpec, ...] = (
    ExtraSpec(
        name="hide_hypervisor_id",
        description=(
            "The original spelling of ``hw:hide_hypervisor_id``: when true, the guest is not "
            "told which hypervisor it runs on, which some guest drivers (notably for consumer "
            "GPUs passed through to the guest) need before they will load. Having no namespace, "
            "it was also taken as aggregate metadata by the "
            "``AggregateInstanceExtraSpecsFilter``, which then rejected hosts; set "
            "``hw:hide_hypervisor_id`` instead."
        ),
        value=Value(
            type=bool,
            description="Whether to hide the hypervisor's signature from the guest.",
        ),
        virt_drivers=("libvirt",),
        status=Status(
            Support.DEPRECATED,
            since="21.0.0",
            replacement="hw:hide_hypervisor_id",
        ),
    ),
    ExtraSpec(
        name="group_policy",
        description=(
            "How placement may spread the numbered request groups of a granular request (keys "
            "such as ``resources1:SRIOV_NET_VF`` or ``trait2:CUSTOM_PHYSNET_A``) over resource "
            "providers. It is needed whenever a request has more than one numbered group; when "
            "the flavor defines no groups itself but they come from elsewhere (for example "
            "Neutron ports with a minimum-bandwidth QoS policy), Nova assumes ``none``."
        ),
        value=Value(
            type=str,
            description="The policy placement applies across numbered request groups.",
            enum=(
                EnumMember(
                    "isolate",
                    "Every numbered group must be satisfied by a different resource provider, "
                    "e.g. two virtual functions on two distinct network cards.",
                ),
                EnumMember(
                    "none",
                    "Numbered groups may be satisfied by the same resource provider or by "
                    "different ones.",
                ),
            ),
        ),
        status=Status(Support.SUPPORTED, since="18.0.0"),
    ),
)
