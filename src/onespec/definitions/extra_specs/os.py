"""Extra specs of the ``os`` namespace: how the guest operating system is booted."""

from onespec.definitions.model import EnumMember, ExtraSpec, Namespace, Status, Support, Value

NAMESPACE = Namespace(
    name="os",
    title="Guest boot",
    description=(
        "Settings for how the guest operating system is started. Only ``os:secure_boot`` is "
        "left in this namespace: the Hyper-V keys that used to live here (``os:resolution``, "
        "``os:monitors`` and ``os:vram``) were deleted together with that driver, and setting "
        "them now fails validation."
    ),
)

EXTRA_SPECS: tuple[ExtraSpec, ...] = (
    ExtraSpec(
        name="os:secure_boot",
        description=(
            "Turns UEFI Secure Boot on or off for instances of this flavor; with it on, the "
            "guest firmware only runs boot loaders and kernels signed with trusted keys. The "
            "guest has to boot through UEFI firmware (for example from an image with "
            "``hw_firmware_type=uefi``), and only hosts reporting the "
            "``COMPUTE_SECURITY_UEFI_SECURE_BOOT`` trait can provide it. The libvirt driver "
            "honours it since 23.0.0 (Wallaby)."
        ),
        value=Value(
            type=str,
            description="Whether the guest must boot with Secure Boot enforced.",
            enum=(
                EnumMember(
                    "disabled",
                    "Boot without Secure Boot; this is also what happens when the key is unset.",
                ),
                EnumMember(
                    "required",
                    "Boot with Secure Boot enforced; the instance is not created where that is "
                    "impossible.",
                ),
            ),
        ),
        virt_drivers=("libvirt",),
        status=Status(Support.SUPPORTED, since="14.0.0"),
    ),
)
