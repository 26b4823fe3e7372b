"""Extra specs of the ``hw_rng`` namespace: the guest's random number generator device."""

from onespec.definitions.model import ExtraSpec, Namespace, Value

NAMESPACE = Namespace(
    name="hw_rng",
    title="Random number generator",
    description=(
        "Controls for the paravirtualised random number generator (``virtio-rng``) that the "
        "libvirt driver can attach to a guest, so the guest can draw entropy from the host. "
        "The device itself is requested by the image, through its ``hw_rng_model`` property; "
        "the flavor decides whether that request is honoured and how quickly the guest may "
        "consume host entropy, which keeps one busy guest from draining the host's supply."
    ),
)

EXTRA_SPECS: tuple[ExtraSpec, ...] = (
    ExtraSpec(
        name="hw_rng:allowed",
        description=(
            "Whether instances of this flavor may get the random number generator device that "
            "their image asks for with ``hw_rng_model``. Since 21.0.0 (Ussuri) the device is "
            "permitted unless this is set to false; in older releases it was refused unless this "
            "was set to true, so flavors written for those releases often still carry it."
        ),
        value=Value(
            type=bool,
            description=(
                "``false`` refuses the device even when the image requests it; ``true`` lets the "
                "image's request through."
            ),
            default=True,
        ),
        virt_drivers=("libvirt",),
    ),
    ExtraSpec(
        name="hw_rng:rate_bytes",
        description=(
            "Caps how many bytes of host entropy the guest's random number generator may read "
            "in each period set by ``hw_rng:rate_period``. The limit only applies when both "
            "keys are set to non-zero values; otherwise the device is not rate limited."
        ),
        value=Value(
            type=int,
            description="Bytes the guest may read per period; ``0`` means no limit.",
            min=0,
        ),
        virt_drivers=("libvirt",),
    ),
    ExtraSpec(
        name="hw_rng:rate_period",
        description=(
            "The length of the period over which ``hw_rng:rate_bytes`` is counted. Nova hands "
            "the number to libvirt as the device's rate period, which libvirt reads as "
            "milliseconds (older Nova guides said seconds). Like ``hw_rng:rate_bytes``, it only "
            "has an effect when both keys are set to non-zero values."
        ),
        value=Value(
            type=int,
            description="Length of one rate-limiting period, in milliseconds.",
            min=0,
        ),
        virt_drivers=("libvirt",),
    ),
)
