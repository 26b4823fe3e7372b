"""Extra specs of the ``hw_video`` namespace: the guest's emulated video device."""

from onespec.definitions.model import ExtraSpec, Namespace, Value

NAMESPACE = Namespace(
    name="hw_video",
    title="Video device",
    description=(
        "Limits on the emulated video card of a guest. The image chooses the video memory it "
        "wants through its ``hw_video_ram`` property; the flavor sets the ceiling that request "
        "must stay under."
    ),
)

EXTRA_SPECS: tuple[ExtraSpec, ...] = (
    ExtraSpec(
        name="hw_video:ram_max_mb",
        description=(
            "The most video memory, in MiB, that an image may request with its ``hw_video_ram`` "
            "property; a larger request makes the build fail. When it is unset (or ``0``) images "
            "cannot ask for extra video memory at all. It does not apply to virtual GPUs."
        ),
        value=Value(
            type=int,
            description="Upper bound on the image's video memory request, in MiB.",
            min=0,
        ),
        virt_drivers=("libvirt", "vmware"),
    ),
)
