"""Nova 34.0.0's refusals when a server is resized or rebuilt, as rules.

Each rule is one refusal that ``nova/compute/api.py`` (``API.resize``, ``API.rebuild`` and the
decorators on them), the conductor (``ComputeTaskManager._validate_image_traits_for_rebuild``)
or the libvirt driver (``migrate_disk_and_power_off``) makes from the two flavors or the two
images alone, in the words of :mod:`onespec.definitions.flavor_change_vocabulary`. The new pair
is also checked as a server create checks it (the create-time rules of
:mod:`onespec.definitions.flavor_rule_catalogue`): Nova does so on both operations, so those
rules are not repeated here.

Left out, because they depend on what only a running cloud knows: the project's quota for an
upsize, the minimum nova-compute version (a server with an accelerator may be rebuilt once every
compute host is new enough), shares and ports with accelerators attached, and whether the host a
rebuilt server stays on has the traits a new image requires (a warning says when it must).

The differential test (``tests/validators_runtime/flavors/test_change_against_nova.py``) runs
Nova's own ``resize``, ``rebuild`` and the functions above on every example and on generated
changes, and holds these rules to them.

Standard library only, like the vocabulary.
"""

from __future__ import annotations

from onespec.definitions.flavor_change_vocabulary import (
    AllOf,
    AnyOf,
    Below,
    ChangeExample,
    ChangeFact,
    ChangeRule,
    Equal,
    In,
    New,
    Not,
    Old,
    Outside,
    Overlaps,
    Present,
    Server,
    Truthy,
    side,
)
from onespec.definitions.flavor_rules import Field, Spec

_IMAGE_BACKED = Not(Truthy(Server("volume_backed")))
_IMAGE_CHANGES = Truthy(Server("image_changes"))
_ACCELERATOR = Spec("accel:device_profile")
_SECURITY = ChangeFact("tpm_secret_security")


def _resize(
    old: dict | None = None, new: dict | None = None, volume_backed: bool = False
) -> ChangeExample:
    """A resize example: ``old`` and ``new`` are each side's flavor settings (``specs`` and
    fields); the image is the same."""
    old, new = dict(old or {}), dict(new or {})
    new.setdefault("flavor_id", "f-new")
    return ChangeExample(
        side(old.pop("specs", None), **old), side(new.pop("specs", None), **new), volume_backed
    )


def _rebuild(
    specs: dict | None = None, old: dict | None = None, new: dict | None = None
) -> ChangeExample:
    """A rebuild example: one flavor's ``specs``, the old and the new image's properties."""
    return ChangeExample(side(specs, old), side(specs, new, image_id="i-new"))


#: The resize refusals, in the order Nova makes them.
RESIZE_RULES: tuple[ChangeRule, ...] = (
    ChangeRule(
        "resize-from-accelerator-flavor",
        "resize",
        "ForbiddenWithAccelerators",
        "api",
        "nova.compute.api.block_accelerators, on API.resize",
        "A server whose flavor has accel:device_profile cannot be resized: create a new server "
        "with the new flavor instead.",
        refused_when=Present(Old(_ACCELERATOR)),
        example=_resize({"specs": {"accel:device_profile": "gpu"}}),
    ),
    ChangeRule(
        "resize-to-accelerator-flavor",
        "resize",
        "ForbiddenWithAccelerators",
        "api",
        "nova.compute.api.API.resize",
        "Choose a new flavor without accel:device_profile, or create a new server with it.",
        refused_when=Present(New(_ACCELERATOR)),
        example=_resize(new={"specs": {"accel:device_profile": "gpu"}}),
    ),
    ChangeRule(
        "resize-to-zero-disk",
        "resize",
        "CannotResizeDisk",
        "api",
        "nova.compute.api.API.resize",
        "Choose a new flavor with a root disk: a flavor with disk 0 suits only servers that "
        "boot from a volume.",
        refused_when=AllOf(
            (Equal(New(Field("disk")), 0), Not(Equal(Old(Field("disk")), 0)), _IMAGE_BACKED)
        ),
        example=_resize({"disk": 1}, {"disk": 0}),
    ),
    ChangeRule(
        "resize-to-disabled-flavor",
        "resize",
        "FlavorNotFound",
        "api",
        "nova.compute.api.API.resize",
        "Choose a flavor that is not disabled (OS-FLV-DISABLED:disabled), or enable it.",
        refused_when=AllOf(
            (Truthy(New(Field("disabled"))), Not(Equal(Old(Field("id")), New(Field("id")))))
        ),
        example=_resize(new={"disabled": True}),
    ),
    ChangeRule(
        "resize-to-same-flavor",
        "resize",
        "CannotResizeToSameFlavor",
        "api",
        "nova.compute.api.API.resize",
        "Choose a flavor other than the server's own (to move it, migrate it instead).",
        refused_when=AllOf((Present(New(Field("id"))), Equal(Old(Field("id")), New(Field("id"))))),
        example=_resize(new={"flavor_id": "f-old"}),
    ),
    ChangeRule(
        "resize-tpm-secret-security-change",
        "resize",
        "OperationNotSupportedForVTPM",
        "api",
        "nova.compute.api.API._validate_vtpm_secret_security",
        "Keep hw:tpm_secret_security as it is when either flavor's is 'deployment': Nova does "
        "not move a vTPM secret between the user and its own service user.",
        refused_when=AllOf(
            (
                Truthy(Old(ChangeFact("vtpm"))),
                Truthy(New(ChangeFact("vtpm"))),
                Not(Equal(Old(_SECURITY), New(_SECURITY))),
                AnyOf((In(Old(_SECURITY), ("deployment",)), In(New(_SECURITY), ("deployment",)))),
            )
        ),
        example=_resize(
            {"specs": {"hw:tpm_version": "2.0", "hw:tpm_secret_security": "deployment"}},
            {"specs": {"hw:tpm_version": "2.0"}},
        ),
    ),
    ChangeRule(
        "resize-root-disk-down",
        "resize",
        "ResizeError",
        "compute",
        "nova.virt.libvirt.driver.LibvirtDriver.migrate_disk_and_power_off",
        "Choose a new flavor whose root disk is at least the old one's: the libvirt driver "
        "does not shrink disks (the resize fails on the host and is rolled back).",
        refused_when=AllOf(
            (
                Below(New(Field("disk")), Old(Field("disk"))),
                Not(Equal(New(Field("disk")), 0)),
                _IMAGE_BACKED,
            )
        ),
        example=_resize({"disk": 20}, {"disk": 10}),
    ),
    ChangeRule(
        "resize-ephemeral-disk-down",
        "resize",
        "ResizeError",
        "compute",
        "nova.virt.libvirt.driver.LibvirtDriver.migrate_disk_and_power_off",
        "Choose a new flavor whose ephemeral disk is at least the old one's: the libvirt "
        "driver does not shrink disks (the resize fails on the host and is rolled back).",
        refused_when=Below(New(Field("ephemeral")), Old(Field("ephemeral"))),
        example=_resize({"ephemeral": 10}, {"ephemeral": 5}),
    ),
)

#: The rebuild refusals, in the order Nova makes them.
REBUILD_RULES: tuple[ChangeRule, ...] = (
    ChangeRule(
        "rebuild-vtpm-server",
        "rebuild",
        "OperationNotSupportedForVTPM",
        "api",
        "nova.compute.api.reject_vtpm_instances, on API.rebuild",
        "A server with a vTPM cannot be rebuilt: create a new server from the new image.",
        refused_when=Truthy(Old(ChangeFact("vtpm"))),
        example=_rebuild({"hw:tpm_version": "2.0"}),
    ),
    ChangeRule(
        "rebuild-image-architecture-unknown",
        "rebuild",
        "InvalidArchitectureName",
        "api",
        "nova.compute.api.API._check_image_arch",
        "Set the new image's hw_architecture to an architecture Nova knows (x86_64, aarch64, "
        "ppc64le, s390x...), or drop it.",
        refused_when=Present(New(ChangeFact("unknown_architecture"))),
        example=_rebuild(new={"hw_architecture": "x86-65"}),
    ),
    ChangeRule(
        "rebuild-numa-constraints-change",
        "rebuild",
        "ImageNUMATopologyRebuildConflict",
        "api",
        "nova.compute.api.API._validate_numa_rebuild",
        "Rebuild with an image that asks for the same guest NUMA topology as the old one (the "
        "same hw_numa_*, hw_cpu_policy, hw_cpu_thread_policy, hw_mem_page_size...), or resize "
        "to a flavor that sets it: a rebuild keeps the server's place on its host.",
        refused_when=AllOf(
            (
                _IMAGE_CHANGES,
                Not(
                    Equal(Old(ChangeFact("numa_constraints")), New(ChangeFact("numa_constraints")))
                ),
            )
        ),
        example=_rebuild(new={"hw_cpu_policy": "dedicated"}),
    ),
    ChangeRule(
        "rebuild-image-requires-forbidden-trait",
        "rebuild",
        "NoValidHost",
        "conductor",
        "nova.conductor.manager.ComputeTaskManager._validate_image_traits_for_rebuild",
        "Rebuild with an image that requires none of the traits the flavor forbids, or create "
        "a new server with a flavor that allows them.",
        refused_when=AllOf(
            (
                _IMAGE_CHANGES,
                Overlaps(New(ChangeFact("required_traits")), New(ChangeFact("forbidden_traits"))),
            )
        ),
        example=_rebuild(
            {"trait:HW_CPU_X86_AVX512F": "forbidden"}, new={"trait:HW_CPU_X86_AVX512F": "required"}
        ),
    ),
    ChangeRule(
        "rebuild-image-requires-new-trait",
        "rebuild",
        None,
        "conductor",
        "nova.conductor.manager.ComputeTaskManager._validate_image_traits_for_rebuild",
        "Make sure the server's host has the traits the new image requires (the conductor "
        "refuses the rebuild with NoValidHost otherwise), or require them in the flavor.",
        refused_when=AllOf(
            (
                _IMAGE_CHANGES,
                Outside(
                    New(ChangeFact("required_traits")),
                    (Old(ChangeFact("required_traits")), Old(ChangeFact("flavor_required_traits"))),
                ),
            )
        ),
        example=_rebuild(new={"trait:HW_CPU_X86_AVX2": "required"}),
        severity="warning",
    ),
)

#: Every change rule: resize's, then rebuild's.
CHANGE_RULES: tuple[ChangeRule, ...] = (*RESIZE_RULES, *REBUILD_RULES)
