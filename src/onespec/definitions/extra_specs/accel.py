"""Extra specs of the ``accel`` namespace: accelerators managed by the Cyborg service."""

from onespec.definitions.model import ExtraSpec, Namespace, Status, Support, Value

NAMESPACE = Namespace(
    name="accel",
    title="Accelerators",
    description=(
        "Requests for accelerators (FPGAs, GPUs, SmartNICs and the like) that the Cyborg "
        "service manages. Cyborg groups what to ask for into named device profiles; the flavor "
        "only names the profile."
    ),
)

EXTRA_SPECS: tuple[ExtraSpec, ...] = (
    ExtraSpec(
        name="accel:device_profile",
        description=(
            "The Cyborg device profile whose accelerators every instance of this flavor gets. "
            "The profile lists the accelerator resources and traits wanted; Nova adds them to "
            "its placement request as extra request groups and has Cyborg bind the chosen "
            "devices before the instance starts. The profile must already exist in Cyborg."
        ),
        value=Value(type=str, description="The name of a Cyborg device profile."),
        virt_drivers=("libvirt",),
        status=Status(Support.SUPPORTED, since="21.0.0"),
    ),
)
