"""Nova 34.0.0's checks of a whole flavor, and of a flavor with its image, as rules.

Each rule below is one refusal that ``nova/virt/hardware.py`` or ``nova/compute/api.py`` makes
from the flavor and the image alone (no host, no configuration), in the vocabulary of
:mod:`onespec.definitions.flavor_rules`. The order follows the order in which Nova checks them
(for ``api``, the order of ``API._create_instance``: the flavor and the NUMA constraints while
it builds the base options, then the image's state, then ``_validate_flavor_image``), so the
first finding of a phase is the exception Nova raises in that phase. ``api`` rules are
what server create refuses with HTTP 400; ``scheduler`` rules fail the instance while the
scheduler builds its request; ``spawn`` rules fail it on the compute host. The differential
test (``tests/validators_runtime/flavors/test_against_nova.py``) runs Nova's own functions on
the same inputs and holds these rules to them.

Standard library only, like the vocabulary: the runtime imports it.
"""

from __future__ import annotations

from onespec.definitions.flavor_rules import (
    AllOf,
    AnyOf,
    AtMost,
    ClashPolicy,
    Condition,
    Conflicts,
    Contains,
    CpuListsPartition,
    Divides,
    Example,
    Fact,
    Field,
    In,
    MaskWithinVcpus,
    MatchesCount,
    Not,
    PerNodeComplete,
    Present,
    Prop,
    Readable,
    Requires,
    Spec,
    SumsTo,
    TopologyAdmits,
    Truthy,
    TwinClash,
)

PINNED = ("dedicated", "mixed")

#: The policy of Nova's API that keeps non-admin users from booting an image on a flavor whose
#: root disk is 0 (rule ``os_compute_api:servers:create:zero_disk_flavor``, admin only).
ZERO_DISK_POLICY = "os_compute_api:servers:create:zero_disk_flavor"


_MEM_ENC = Truthy(Fact("mem_encryption"))
_MANUAL = Truthy(Fact("manual_numa"))
_NUMA_LISTS = (Spec("hw:numa_cpus.N"), Spec("hw:numa_mem.N"), Prop("hw_numa_cpus.N"))


def _topology_rules() -> tuple:
    limits = []
    preferred = []
    for part in ("sockets", "cores", "threads"):
        limits.append(
            TwinClash(
                f"image-{part}-limit-above-flavor",
                "ImageVCPULimitsRangeExceeded",
                "api",
                f"Lower the image's hw_cpu_max_{part} to at most the flavor's "
                f"hw:cpu_max_{part}, or raise the flavor's limit.",
                spec=f"hw:cpu_max_{part}",
                prop=f"hw_cpu_max_{part}",
                policy=ClashPolicy.FLAVOR_LIMITS,
                kind="int",
                example=Example.of({f"hw:cpu_max_{part}": "1"}, {f"hw_cpu_max_{part}": "2"}),
            )
        )
        preferred.append(
            AtMost(
                f"image-{part}-above-limit",
                "ImageVCPUTopologyRangeExceeded",
                "api",
                f"Lower the image's hw_cpu_{part} to at most the {part} limit "
                f"(hw_cpu_max_{part}, else hw:cpu_max_{part}).",
                value=Prop(f"hw_cpu_{part}"),
                limit=Fact(f"max_{part}"),
                example=Example.of(properties={f"hw_cpu_max_{part}": "1", f"hw_cpu_{part}": "2"}),
            )
        )
    return (*limits, *preferred)


def _numa_twin(name: str, spec_fact: str, prop: str, example: Example) -> Conflicts:
    return Conflicts(
        f"numa-{name}-on-both-sides",
        "ImageNUMATopologyForbidden",
        "api",
        f"Set the per-node {name} in the flavor (hw:numa_{name}.N) or the image ({prop}.N), "
        "not both.",
        first=Present(Fact(spec_fact)),
        second=Present(Prop(prop)),
        when=Truthy(Fact("numa_topology")),
        example=example,
    )


#: Every rule, in the order Nova checks them within each phase.
RULES: tuple = (
    # --- api: API._validate_and_build_base_options ------------------------------------------
    Requires(
        "flavor-disabled",
        "FlavorNotFound",
        "api",
        "Boot from a flavor that is not disabled (OS-FLV-DISABLED:disabled), or enable this one: "
        "server create answers as if the flavor did not exist (HTTP 400).",
        needs=Not(Truthy(Field("disabled"))),
        example=Example.of(disabled=True),
    ),
    # --- api: _validate_and_build_base_options -> numa_get_constraints ---------------------
    Conflicts(
        "image-pins-shared-flavor",
        "ImageCPUPinningForbidden",
        "api",
        "Drop the image's hw_cpu_policy, or give the flavor a pinned hw:cpu_policy.",
        first=In(Spec("hw:cpu_policy"), ("shared",)),
        second=In(Prop("hw_cpu_policy"), PINNED),
        example=Example.of({"hw:cpu_policy": "shared"}, {"hw_cpu_policy": "dedicated"}),
    ),
    Conflicts(
        "image-dedicates-mixed-flavor",
        "ImageCPUPinningForbidden",
        "api",
        "Drop the image's hw_cpu_policy=dedicated: the flavor's policy is 'mixed'.",
        first=In(Spec("hw:cpu_policy"), ("mixed",)),
        second=In(Prop("hw_cpu_policy"), ("dedicated",)),
        example=Example.of({"hw:cpu_policy": "mixed"}, {"hw_cpu_policy": "dedicated"}),
    ),
    TwinClash(
        "thread-policy-flavor-image-differ",
        "ImageCPUThreadPolicyForbidden",
        "api",
        "Drop the image's hw_cpu_thread_policy or make it equal to the flavor's.",
        spec="hw:cpu_thread_policy",
        prop="hw_cpu_thread_policy",
        policy=ClashPolicy.EQUAL,
        when=In(Spec("hw:cpu_thread_policy"), ("isolate", "require")),
        example=Example.of(
            {"hw:cpu_thread_policy": "isolate"}, {"hw_cpu_thread_policy": "require"}
        ),
    ),
    MaskWithinVcpus(
        "realtime-mask-invalid",
        "RealtimeMaskNotFoundOrInvalid",
        "api",
        "Give hw:cpu_realtime_mask (or the image's hw_cpu_realtime_mask) a non-empty set of "
        "vCPUs below the flavor's vcpus that leaves at least one vCPU out (for example "
        "'^0'), or set hw:emulator_threads_policy.",
        mask=Fact("realtime_cpus"),
        written_as=(Spec("hw:cpu_realtime_mask"), Prop("hw_cpu_realtime_mask")),
        all_allowed_when=Present(Spec("hw:emulator_threads_policy")),
        when=Truthy(Spec("hw:cpu_realtime")),
        example=Example.of({"hw:cpu_realtime": "yes"}),
    ),
    MaskWithinVcpus(
        "dedicated-mask-invalid",
        "InvalidMixedInstanceDedicatedMask",
        "api",
        "Give hw:cpu_dedicated_mask a non-empty set of vCPUs below the flavor's vcpus that "
        "leaves at least one shared vCPU (for example '^0').",
        mask=Fact("dedicated_cpus"),
        written_as=(Spec("hw:cpu_dedicated_mask"),),
        when=Present(Spec("hw:cpu_dedicated_mask")),
        example=Example.of({"hw:cpu_dedicated_mask": "0"}),
    ),
    Conflicts(
        "cpu-resources-with-cpu-policy",
        "InvalidRequest",
        "api",
        "Use either resources:VCPU/resources:PCPU or hw:cpu_policy (hw_cpu_policy), not both.",
        first=Present(Fact("requested_cpu_policy")),
        second=AnyOf((Truthy(Fact("requested_vcpu")), Truthy(Fact("requested_pcpu")))),
        example=Example.of({"hw:cpu_policy": "dedicated", "resources:PCPU": "1"}),
    ),
    Conflicts(
        "vcpu-and-pcpu-resources",
        "InvalidRequest",
        "api",
        "Request either resources:VCPU or resources:PCPU, not both.",
        first=Truthy(Fact("requested_vcpu")),
        second=Truthy(Fact("requested_pcpu")),
        example=Example.of({"resources:VCPU": "1", "resources:PCPU": "1"}, vcpus=2),
    ),
    MatchesCount(
        "pcpu-resources-not-vcpus",
        "InvalidRequest",
        "api",
        "Request exactly the flavor's vcpus as resources:PCPU (one more with "
        "hw:emulator_threads_policy=isolate).",
        value=Fact("requested_pcpu"),
        expected=Fact("expected_pcpu"),
        written_as=(Spec("resources:PCPU"), Field("vcpus"), Spec("hw:emulator_threads_policy")),
        when=Truthy(Fact("requested_pcpu")),
        example=Example.of({"resources:PCPU": "2"}),
    ),
    Conflicts(
        "thread-policy-with-hyperthreading-trait",
        "InvalidRequest",
        "api",
        "Use either trait:HW_CPU_HYPERTHREADING or hw:cpu_thread_policy "
        "(hw_cpu_thread_policy), not both.",
        first=Present(Fact("requested_cpu_thread_policy")),
        second=Present(Fact("hyperthreading_trait")),
        example=Example.of(
            {"hw:cpu_thread_policy": "isolate", "trait:HW_CPU_HYPERTHREADING": "forbidden"}
        ),
    ),
    Requires(
        "thread-policy-needs-pinning",
        "CPUThreadPolicyConfigurationInvalid",
        "api",
        "Set hw:cpu_policy=dedicated (or mixed), or drop the CPU thread policy.",
        when=Present(Fact("cpu_thread_policy")),
        needs=In(Fact("cpu_policy"), PINNED),
        example=Example.of({"hw:cpu_thread_policy": "prefer"}),
    ),
    Requires(
        "isolated-emulator-needs-pinning",
        "BadRequirementEmulatorThreadsPolicy",
        "api",
        "Set hw:cpu_policy=dedicated (or mixed), or drop hw:emulator_threads_policy=isolate.",
        when=In(Spec("hw:emulator_threads_policy"), ("isolate",)),
        needs=In(Fact("cpu_policy"), PINNED),
        example=Example.of({"hw:emulator_threads_policy": "isolate"}),
    ),
    Requires(
        "dedicated-mask-needs-mixed",
        "RequiredMixedInstancePolicy",
        "api",
        "Set hw:cpu_policy=mixed, or drop hw:cpu_dedicated_mask.",
        when=Truthy(Fact("dedicated_cpus")),
        needs=In(Fact("cpu_policy"), ("mixed",)),
        example=Example.of({"hw:cpu_dedicated_mask": "^0"}, vcpus=2),
    ),
    Requires(
        "realtime-needs-pinning",
        "RealtimeConfigurationInvalid",
        "api",
        "Set hw:cpu_policy=dedicated (or mixed), or drop hw:cpu_realtime.",
        when=Truthy(Fact("realtime_cpus")),
        needs=In(Fact("cpu_policy"), PINNED),
        example=Example.of({"hw:cpu_realtime": "yes", "hw:cpu_realtime_mask": "^0"}, vcpus=2),
    ),
    Conflicts(
        "mixed-with-two-masks",
        "RequiredMixedOrRealtimeCPUMask",
        "api",
        "Give a 'mixed' flavor hw:cpu_dedicated_mask or a real-time mask, not both.",
        first=Truthy(Fact("realtime_cpus")),
        second=Truthy(Fact("dedicated_cpus")),
        when=In(Fact("cpu_policy"), ("mixed",)),
        example=Example.of(
            {
                "hw:cpu_policy": "mixed",
                "hw:cpu_realtime": "yes",
                "hw:cpu_realtime_mask": "^0",
                "hw:cpu_dedicated_mask": "^0",
            },
            vcpus=2,
        ),
    ),
    Requires(
        "mixed-needs-a-mask",
        "RequiredMixedOrRealtimeCPUMask",
        "api",
        "Give a 'mixed' flavor hw:cpu_dedicated_mask (or hw:cpu_realtime with a mask).",
        when=In(Fact("cpu_policy"), ("mixed",)),
        needs=AnyOf((Truthy(Fact("realtime_cpus")), Truthy(Fact("dedicated_cpus")))),
        example=Example.of({"hw:cpu_policy": "mixed"}),
    ),
    TwinClash(
        "numa-nodes-on-both-sides",
        "ImageNUMATopologyForbidden",
        "api",
        "Set the NUMA node count in the flavor (hw:numa_nodes) or the image (hw_numa_nodes), "
        "not both.",
        spec="hw:numa_nodes",
        prop="hw_numa_nodes",
        policy=ClashPolicy.ONE_SIDE,
        kind="int",
        example=Example.of({"hw:numa_nodes": "1"}, {"hw_numa_nodes": "1"}),
    ),
    Readable(
        "numa-nodes-unreadable",
        "InvalidNUMANodesNumber",
        "api",
        "Write the NUMA node count as a plain number of 1 or more (hw:numa_nodes=2, not '02' "
        "or ' 2'; the image's hw_numa_nodes at least 1).",
        values=(Spec("hw:numa_nodes"), Prop("hw_numa_nodes")),
        reader="numa-nodes",
        example=Example.of(properties={"hw_numa_nodes": "0"}),
    ),
    Readable(
        "page-size-unreadable",
        "MemoryPageSizeInvalid",
        "api",
        "Write the page size as small, large, any, a number of KiB or a size ending in B "
        "(2048, 2MB, 1GiB; not 1G). A number Nova's isdigit() takes but int() refuses (²) "
        "makes Nova fail with an HTTP 500 instead.",
        values=(Spec("hw:mem_page_size"), Prop("hw_mem_page_size")),
        reader="page-sizes",
        example=Example.of({"hw:mem_page_size": "any"}, {"hw_mem_page_size": "foo"}),
    ),
    TwinClash(
        "image-page-size-not-allowed",
        "MemoryPageSizeForbidden",
        "api",
        "Set the flavor's hw:mem_page_size to 'large' or 'any' so the image may choose, or drop "
        "the image's hw_mem_page_size.",
        spec="hw:mem_page_size",
        prop="hw_mem_page_size",
        policy=ClashPolicy.FLAVOR_LIMITS,
        flavor_allows=("any", "large"),
        example=Example.of({"hw:mem_page_size": "small"}, {"hw_mem_page_size": "large"}),
    ),
    TwinClash(
        "locked-memory-flavor-image-differ",
        "FlavorImageLockedMemoryConflict",
        "api",
        "Set hw:locked_memory and the image's hw_locked_memory alike, or drop one.",
        spec="hw:locked_memory",
        prop="hw_locked_memory",
        policy=ClashPolicy.EQUAL,
        kind="bool",
        example=Example.of({"hw:locked_memory": "true"}, {"hw_locked_memory": "false"}),
    ),
    Requires(
        "locked-memory-needs-page-size",
        "LockMemoryForbidden",
        "api",
        "Set hw:mem_page_size (or the image's hw_mem_page_size), or drop locked memory.",
        when=Truthy(Fact("locked_memory")),
        needs=AnyOf((Present(Spec("hw:mem_page_size")), Present(Prop("hw_mem_page_size")))),
        example=Example.of({"hw:locked_memory": "true"}),
    ),
    # get_locked_memory_constraint checks memory encryption here unless locked memory is on
    # (then _validate_flavor_image_numa_pci does, after the image's state and sizes).
    TwinClash(
        "mem-encryption-flavor-image-differ",
        "FlavorImageConflict",
        "api",
        "Set hw:mem_encryption and the image's hw_mem_encryption alike, or drop one.",
        spec="hw:mem_encryption",
        prop="hw_mem_encryption",
        policy=ClashPolicy.EQUAL,
        kind="bool",
        example=Example.of({"hw:mem_encryption": "true"}, {"hw_mem_encryption": "false"}),
    ),
    TwinClash(
        "mem-encryption-model-flavor-image-differ",
        "FlavorImageConflict",
        "api",
        "Set hw:mem_encryption_model and hw_mem_encryption_model alike, or drop one.",
        spec="hw:mem_encryption_model",
        prop="hw_mem_encryption_model",
        policy=ClashPolicy.EQUAL,
        when=_MEM_ENC,
        example=Example.of(
            {"hw:mem_encryption": "true", "hw:mem_encryption_model": "amd-sev"},
            {"hw_mem_encryption_model": "amd-sev-snp"},
        ),
    ),
    Requires(
        "mem-encryption-needs-uefi",
        "FlavorImageConflict",
        "api",
        "Boot an image with hw_firmware_type=uefi, or drop memory encryption.",
        when=_MEM_ENC,
        needs=In(Prop("hw_firmware_type"), ("uefi",)),
        example=Example.of({"hw:mem_encryption": "true"}, {"hw_firmware_type": "bios"}),
    ),
    Requires(
        "mem-encryption-needs-q35",
        "InvalidMachineType",
        "api",
        "Set the image's hw_machine_type to a q35 machine type, or drop it.",
        when=AllOf((_MEM_ENC, Present(Prop("hw_machine_type")))),
        needs=Contains(Prop("hw_machine_type"), "q35"),
        example=Example.of(
            {"hw:mem_encryption": "true"},
            {"hw_firmware_type": "uefi", "hw_machine_type": "pc-i440fx"},
        ),
    ),
    Requires(
        "mem-encryption-needs-stateless-firmware",
        "StatelessFirmwareRequired",
        "api",
        "Set the image's hw_firmware_stateless=true (with hw_firmware_type=uefi) for this "
        "memory encryption model.",
        when=AllOf((_MEM_ENC, In(Fact("mem_encryption_model"), ("amd-sev-snp", "intel-tdx")))),
        needs=Truthy(Fact("stateless_firmware")),
        example=Example.of(
            {"hw:mem_encryption": "true", "hw:mem_encryption_model": "amd-sev-snp"},
            {"hw_firmware_type": "uefi"},
        ),
    ),
    Requires(
        "mem-encryption-tdx-forbids-video",
        "InvalidVideoMode",
        "api",
        "Set the image's hw_video_model=none: intel-tdx cannot have a video device.",
        when=AllOf((_MEM_ENC, In(Fact("mem_encryption_model"), ("intel-tdx",)))),
        needs=In(Prop("hw_video_model"), ("none",)),
        example=Example.of(
            {"hw:mem_encryption": "true", "hw:mem_encryption_model": "intel-tdx"},
            {"hw_firmware_type": "uefi", "hw_firmware_stateless": "true"},
        ),
    ),
    _numa_twin(
        "cpus",
        "flavor_numa_cpus",
        "hw_numa_cpus",
        Example.of({"hw:numa_nodes": "1", "hw:numa_cpus.0": "0"}, {"hw_numa_cpus.0": "0"}),
    ),
    _numa_twin(
        "mem",
        "flavor_numa_mem",
        "hw_numa_mem",
        Example.of({"hw:numa_nodes": "1", "hw:numa_mem.0": "1024"}, {"hw_numa_mem.0": "1024"}),
    ),
    Divides(
        "numa-nodes-split-unevenly",
        "ImageNUMATopologyAsymmetric",
        "api",
        "Choose a NUMA node count that divides both the vCPUs and the RAM, or give per-node "
        "hw:numa_cpus.N and hw:numa_mem.N.",
        count=Fact("numa_node_count"),
        totals=(Field("vcpus"), Field("ram")),
        written_as=(Spec("hw:numa_nodes"), Prop("hw_numa_nodes")),
        when=Truthy(Fact("automatic_numa")),
        example=Example.of({"hw:numa_nodes": "2"}, vcpus=3),
    ),
    PerNodeComplete(
        "numa-lists-incomplete",
        "ImageNUMATopologyIncomplete",
        "api",
        "Give hw:numa_cpus.N and hw:numa_mem.N for every node from 0 to hw:numa_nodes - 1.",
        lists=(Fact("numa_cpus"), Fact("numa_mem")),
        count=Fact("numa_node_count"),
        written_as=(*_NUMA_LISTS, Spec("hw:numa_nodes")),
        when=AllOf((Truthy(Fact("numa_topology")), Not(Truthy(Fact("automatic_numa"))))),
        example=Example.of({"hw:numa_nodes": "1", "hw:numa_cpus.0": "0"}),
    ),
    CpuListsPartition(
        "numa-cpu-out-of-range",
        "ImageNUMATopologyCPUOutOfRange",
        "api",
        "List only vCPUs below the flavor's vcpus in hw:numa_cpus.N.",
        lists=Fact("numa_cpus"),
        aspect="within",
        written_as=(Spec("hw:numa_cpus.N"), Prop("hw_numa_cpus.N"), Field("vcpus")),
        when=_MANUAL,
        example=Example.of(
            {"hw:numa_nodes": "1", "hw:numa_cpus.0": "0-1", "hw:numa_mem.0": "1024"}
        ),
    ),
    CpuListsPartition(
        "numa-cpu-duplicated",
        "ImageNUMATopologyCPUDuplicates",
        "api",
        "List each vCPU in one hw:numa_cpus.N only.",
        lists=Fact("numa_cpus"),
        aspect="disjoint",
        written_as=(Spec("hw:numa_cpus.N"), Prop("hw_numa_cpus.N")),
        when=_MANUAL,
        example=Example.of(
            {
                "hw:numa_nodes": "2",
                "hw:numa_cpus.0": "0-1",
                "hw:numa_cpus.1": "1",
                "hw:numa_mem.0": "512",
                "hw:numa_mem.1": "512",
            },
            vcpus=2,
        ),
    ),
    CpuListsPartition(
        "numa-cpu-unassigned",
        "ImageNUMATopologyCPUsUnassigned",
        "api",
        "Assign every vCPU from 0 to vcpus - 1 to one hw:numa_cpus.N.",
        lists=Fact("numa_cpus"),
        aspect="cover",
        written_as=(Spec("hw:numa_cpus.N"), Prop("hw_numa_cpus.N"), Field("vcpus")),
        when=_MANUAL,
        example=Example.of(
            {"hw:numa_nodes": "1", "hw:numa_cpus.0": "0", "hw:numa_mem.0": "1024"}, vcpus=2
        ),
    ),
    SumsTo(
        "numa-memory-not-ram",
        "ImageNUMATopologyMemoryOutOfRange",
        "api",
        "Make the hw:numa_mem.N add up to the flavor's RAM.",
        parts=Fact("numa_mem"),
        total=Field("ram"),
        written_as=(Spec("hw:numa_mem.N"), Prop("hw_numa_mem.N")),
        when=_MANUAL,
        example=Example.of({"hw:numa_nodes": "1", "hw:numa_cpus.0": "0", "hw:numa_mem.0": "512"}),
    ),
    # --- api: _validate_and_build_base_options -> get_pci_numa_policy_constraint -----------
    TwinClash(
        "pci-numa-policy-flavor-image-differ",
        "ImagePCINUMAPolicyForbidden",
        "api",
        "Set hw:pci_numa_affinity_policy and hw_pci_numa_affinity_policy alike, or drop one.",
        spec="hw:pci_numa_affinity_policy",
        prop="hw_pci_numa_affinity_policy",
        policy=ClashPolicy.EQUAL,
        example=Example.of(
            {"hw:pci_numa_affinity_policy": "required"},
            {"hw_pci_numa_affinity_policy": "preferred"},
        ),
    ),
    # --- api: _update_ephemeral_encryption_bdms ---------------------------------------------
    TwinClash(
        "ephemeral-encryption-flavor-image-differ",
        "FlavorImageConflict",
        "api",
        "Set hw:ephemeral_encryption and the image's hw_ephemeral_encryption alike, or drop one.",
        spec="hw:ephemeral_encryption",
        prop="hw_ephemeral_encryption",
        policy=ClashPolicy.EQUAL,
        kind="bool",
        example=Example.of(
            {"hw:ephemeral_encryption": "true"}, {"hw_ephemeral_encryption": "false"}
        ),
    ),
    TwinClash(
        "ephemeral-encryption-format-flavor-image-differ",
        "FlavorImageConflict",
        "api",
        "Set hw:ephemeral_encryption_format and hw_ephemeral_encryption_format alike, or drop one.",
        spec="hw:ephemeral_encryption_format",
        prop="hw_ephemeral_encryption_format",
        policy=ClashPolicy.EQUAL,
        when=Truthy(Fact("ephemeral_encryption")),
        example=Example.of(
            {"hw:ephemeral_encryption": "true", "hw:ephemeral_encryption_format": "luks"},
            {"hw_ephemeral_encryption_format": "plain"},
        ),
    ),
    # --- api: _checks_for_create_and_rebuild: the image, then _validate_flavor_image --------
    Requires(
        "image-from-encrypted-volume",
        "ImageUnacceptable",
        "api",
        "Boot from a volume created from this image instead: Nova does not boot an image "
        "uploaded from an encrypted volume (it has cinder_encryption_key_id) directly.",
        needs=Not(Present(Field("image.cinder_encryption_key_id"))),
        example=Example.of(encryption_key="0b3fe6a4-8c29-4a6e-9f06-2f3c0c6e7d11"),
    ),
    Requires(
        "image-not-active",
        "ImageNotActive",
        "api",
        "Boot from an image whose Glance status is 'active' (wait for its upload or import to "
        "finish, or reactivate it).",
        when=Present(Field("image.status")),
        needs=In(Field("image.status"), ("active",)),
        example=Example.of(status="queued"),
    ),
    # --- api: _validate_flavor_image_nostatus ----------------------------------------------
    # (An unknown img_config_drive, which _validate_flavor_image refuses with
    # InvalidImageConfigDrive, never gets there on server create: typing the image's properties
    # in _validate_and_build_base_options refuses it first, InvalidRequest.)
    AtMost(
        "flavor-ram-below-image-min-ram",
        "FlavorMemoryTooSmall",
        "api",
        "Give the flavor at least the image's min_ram of RAM, or lower the image's min_ram.",
        value=Field("image.min_ram"),
        limit=Field("ram"),
        example=Example.of(ram=1024, min_ram=2048),
    ),
    TwinClash(
        "packed-ring-flavor-image-differ",
        "FlavorImageConflict",
        "api",
        "Set hw:virtio_packed_ring and the image's hw_virtio_packed_ring alike, or drop one.",
        spec="hw:virtio_packed_ring",
        prop="hw_virtio_packed_ring",
        policy=ClashPolicy.EQUAL,
        kind="bool",
        example=Example.of({"hw:virtio_packed_ring": "true"}, {"hw_virtio_packed_ring": "false"}),
    ),
    AtMost(
        "flavor-disk-below-image-size",
        "FlavorDiskSmallerThanImage",
        "api",
        "Give the flavor a root disk at least as large as the image (or boot from a volume).",
        value=Field("image.size"),
        limit=Field("disk"),
        scale=1024**3,
        when=Truthy(Field("disk")),
        example=Example.of(disk=1, size=2 * 1024**3),
    ),
    AtMost(
        "flavor-disk-below-image-min-disk",
        "FlavorDiskSmallerThanMinDisk",
        "api",
        "Give the flavor a root disk of at least the image's min_disk GiB, or lower min_disk.",
        value=Field("image.min_disk"),
        limit=Field("disk"),
        when=Truthy(Field("disk")),
        example=Example.of(disk=1, min_disk=2),
    ),
    Requires(
        "zero-disk-needs-volume",
        "BootFromVolumeRequiredForZeroDiskFlavor",
        "api",
        "Give the flavor a root disk, or boot from a volume: by default only an admin may boot "
        "an image on a flavor whose root disk is 0.",
        needs=Truthy(Field("disk")),
        by_policy=ZERO_DISK_POLICY,
        example=Example.of(disk=0, size=1),
    ),
    # --- api: _validate_flavor_image_numa_pci (validate_numa=False: checked above) ---------
    TwinClash(
        "pmu-flavor-image-differ",
        "FlavorImageConflict",
        "api",
        "Set hw:pmu and the image's hw_pmu alike, or drop one.",
        spec="hw:pmu",
        prop="hw_pmu",
        policy=ClashPolicy.EQUAL,
        kind="bool",
        example=Example.of({"hw:pmu": "true"}, {"hw_pmu": "false"}),
    ),
    TwinClash(
        "image-serial-ports-above-flavor",
        "ImageSerialPortNumberExceedFlavorValue",
        "api",
        "Lower the image's hw_serial_port_count to at most the flavor's hw:serial_port_count.",
        spec="hw:serial_port_count",
        prop="hw_serial_port_count",
        policy=ClashPolicy.FLAVOR_LIMITS,
        kind="int",
        example=Example.of({"hw:serial_port_count": "1"}, {"hw_serial_port_count": "2"}),
    ),
    *_topology_rules(),
    TwinClash(
        "multiqueue-flavor-image-differ",
        "FlavorImageConflict",
        "api",
        "Set hw:vif_multiqueue_enabled and the image's hw_vif_multiqueue_enabled alike, or "
        "drop one.",
        spec="hw:vif_multiqueue_enabled",
        prop="hw_vif_multiqueue_enabled",
        policy=ClashPolicy.EQUAL,
        kind="bool",
        when=Truthy(Fact("several_vcpus")),
        example=Example.of(
            {"hw:vif_multiqueue_enabled": "true"}, {"hw_vif_multiqueue_enabled": "false"}, vcpus=2
        ),
    ),
    # --- api: _checks_for_create_and_rebuild -> get_sound_model -----------------------------
    TwinClash(
        "sound-model-flavor-image-differ",
        "FlavorImageConflict",
        "api",
        "Set hw:sound_model and the image's hw_sound_model alike, or drop one.",
        spec="hw:sound_model",
        prop="hw_sound_model",
        policy=ClashPolicy.EQUAL,
        example=Example.of({"hw:sound_model": "ich9"}, {"hw_sound_model": "virtio"}),
    ),
    # --- scheduler: nova.scheduler.utils.ResourceRequest (vTPM, secure boot) -----------------
    TwinClash(
        "tpm-version-flavor-image-differ",
        "FlavorImageConflict",
        "scheduler",
        "Set hw:tpm_version and the image's hw_tpm_version alike, or drop one.",
        spec="hw:tpm_version",
        prop="hw_tpm_version",
        policy=ClashPolicy.EQUAL,
        example=Example.of({"hw:tpm_version": "2.0"}, {"hw_tpm_version": "1.2"}),
    ),
    TwinClash(
        "tpm-model-flavor-image-differ",
        "FlavorImageConflict",
        "scheduler",
        "Set hw:tpm_model and the image's hw_tpm_model alike, or drop one.",
        spec="hw:tpm_model",
        prop="hw_tpm_model",
        policy=ClashPolicy.EQUAL,
        when=Present(Fact("tpm_version")),
        example=Example.of(
            {"hw:tpm_version": "2.0", "hw:tpm_model": "tpm-tis"}, {"hw_tpm_model": "tpm-crb"}
        ),
    ),
    Requires(
        "tpm-crb-needs-version-2",
        "Invalid",
        "scheduler",
        "Use the tpm-crb model only with TPM version 2.0 (or choose tpm-tis).",
        when=AllOf((Present(Fact("tpm_version")), In(Fact("tpm_model"), ("tpm-crb",)))),
        needs=In(Fact("tpm_version"), ("2.0",)),
        example=Example.of({"hw:tpm_version": "1.2", "hw:tpm_model": "tpm-crb"}),
    ),
    TwinClash(
        "secure-boot-flavor-image-differ",
        "FlavorImageConflict",
        "scheduler",
        "Set os:secure_boot and the image's os_secure_boot alike, or drop one.",
        spec="os:secure_boot",
        prop="os_secure_boot",
        policy=ClashPolicy.EQUAL,
        example=Example.of({"os:secure_boot": "required"}, {"os_secure_boot": "disabled"}),
    ),
    TwinClash(
        "maxphysaddr-mode-flavor-image-differ",
        "FlavorImageConflict",
        "scheduler",
        "Set hw:maxphysaddr_mode and the image's hw_maxphysaddr_mode alike, or drop one.",
        spec="hw:maxphysaddr_mode",
        prop="hw_maxphysaddr_mode",
        policy=ClashPolicy.EQUAL,
        example=Example.of(
            {"hw:maxphysaddr_mode": "passthrough"}, {"hw_maxphysaddr_mode": "emulate"}
        ),
    ),
    # --- spawn: the libvirt driver on the compute host ----------------------------------------
    TopologyAdmits(
        "topology-limits-exclude-vcpus",
        "ImageVCPULimitsRangeImpossible",
        "spawn",
        "Raise hw:cpu_max_sockets, hw:cpu_max_cores or hw:cpu_max_threads (or the image's) "
        "so that sockets x cores x threads can equal the flavor's vcpus.",
        written_as=(
            Spec("hw:cpu_max_sockets"),
            Spec("hw:cpu_max_cores"),
            Spec("hw:cpu_max_threads"),
            Prop("hw_cpu_max_sockets"),
            Prop("hw_cpu_max_cores"),
            Prop("hw_cpu_max_threads"),
        ),
        example=Example.of(
            {"hw:cpu_max_sockets": "1", "hw:cpu_max_cores": "1", "hw:cpu_max_threads": "1"}, vcpus=2
        ),
    ),
    AtMost(
        "image-video-ram-above-flavor",
        "RequestedVRamTooHigh",
        "spawn",
        "Lower the image's hw_video_ram to at most the flavor's hw_video:ram_max_mb, or set "
        "hw_video:ram_max_mb: without it no video memory may be asked for.",
        value=Prop("hw_video_ram"),
        limit=Fact("video_ram_max_mb"),
        example=Example.of({"hw_video:ram_max_mb": "8"}, {"hw_video_ram": "16"}),
    ),
    TwinClash(
        "usb-model-flavor-image-differ",
        "FlavorImageConflict",
        "spawn",
        "Set hw:usb_model and the image's hw_usb_model alike, or drop one.",
        spec="hw:usb_model",
        prop="hw_usb_model",
        policy=ClashPolicy.EQUAL,
        example=Example.of({"hw:usb_model": "none"}, {"hw_usb_model": "qemu-xhci"}),
    ),
    TwinClash(
        "redirected-usb-ports-on-both-sides",
        "FlavorImageConflict",
        "spawn",
        "Set the USB redirection port count in the flavor or the image, not both: Nova "
        "compares the flavor's string with the image's integer, so even equal counts clash.",
        spec="hw:redirected_usb_ports",
        prop="hw_redirected_usb_ports",
        policy=ClashPolicy.ONE_SIDE,
        kind="int",
        example=Example.of({"hw:redirected_usb_ports": "2"}, {"hw_redirected_usb_ports": "2"}),
    ),
)

#: Twins whose clash Nova settles silently (one side's value is simply used): no finding, but
#: the reference says which side wins.
SILENT_TWINS: tuple[tuple[str, str, ClashPolicy], ...] = (
    # get_realtime_cpu_constraint: "image masks are used ahead of flavor masks".
    ("hw:cpu_realtime_mask", "hw_cpu_realtime_mask", ClashPolicy.IMAGE_WINS),
    # get_cpu_topology_constraints: any preferred count on the image replaces all the flavor's.
    ("hw:cpu_sockets", "hw_cpu_sockets", ClashPolicy.IMAGE_WINS),
    ("hw:cpu_cores", "hw_cpu_cores", ClashPolicy.IMAGE_WINS),
    ("hw:cpu_threads", "hw_cpu_threads", ClashPolicy.IMAGE_WINS),
    # get_cpu_policy_constraint: a flavor's 'dedicated' is used whatever the image says (the
    # narrowing cases are the two ImageCPUPinningForbidden rules).
    ("hw:cpu_policy", "hw_cpu_policy", ClashPolicy.FLAVOR_WINS),
    # The libvirt driver: the image's boot menu and watchdog action are used when set...
    ("hw:boot_menu", "hw_boot_menu", ClashPolicy.IMAGE_WINS),
    ("hw:watchdog_action", "hw_watchdog_action", ClashPolicy.IMAGE_WINS),
    # ...and the flavor's vIOMMU model and physical address bits.
    ("hw:viommu_model", "hw_viommu_model", ClashPolicy.FLAVOR_WINS),
    ("hw:maxphysaddr_bits", "hw_maxphysaddr_bits", ClashPolicy.FLAVOR_WINS),
)


def _takes_effect_with(
    name: str, key: str, needs: Condition, fix: str, value: str, vcpus: int = 1
) -> Requires:
    """A warning for ``key`` set without what it takes effect with; its example sets ``key`` to
    ``value`` alone."""
    return Requires(
        name,
        None,
        None,
        fix,
        when=Present(Spec(key)),
        needs=needs,
        severity="warning",
        example=Example.of({key: value}, vcpus=vcpus),
    )


def _needs_key(name: str, key: str, other: str, value: str) -> Requires:
    return _takes_effect_with(
        name, key, Present(Spec(other)), f"{key} is read with {other}: set both, or neither.", value
    )


def _not_with(name: str, key: str, other: str, value: str) -> Conflicts:
    """A warning for ``key`` set with ``other``; its example sets both to ``value``."""
    return Conflicts(
        name,
        None,
        None,
        f"Set either {other} or {key}: libvirt does not take a total limit with a read or "
        "write limit of the same kind, and the guest fails to start on the host.",
        first=Present(Spec(key)),
        second=Present(Spec(other)),
        severity="warning",
        example=Example.of({key: value, other: value}),
    )


#: Keys that take effect only together, or not at all together, without a refusal Nova's own
#: checks make: warnings. (Where Nova does refuse -- a thread policy without pinned CPUs, locked
#: memory without a page size, per-node lists without each other -- the rule is in RULES.)
WARNINGS: tuple = (
    _takes_effect_with(
        "realtime-mask-without-realtime",
        "hw:cpu_realtime_mask",
        Truthy(Spec("hw:cpu_realtime")),
        "Set hw:cpu_realtime=yes, or drop hw:cpu_realtime_mask: alone it is ignored.",
        "^0",
        vcpus=2,
    ),
    _takes_effect_with(
        "mem-encryption-model-without-encryption",
        "hw:mem_encryption_model",
        _MEM_ENC,
        "Turn memory encryption on (hw:mem_encryption or the image's hw_mem_encryption), or "
        "drop hw:mem_encryption_model: alone it is ignored.",
        "amd-sev",
    ),
    *(
        _takes_effect_with(
            f"{name.replace('_', '-')}-without-version",
            f"hw:{name}",
            Present(Fact("tpm_version")),
            f"Set hw:tpm_version (or the image's hw_tpm_version), or drop hw:{name}: alone it "
            "is ignored.",
            value,
        )
        for name, value in (("tpm_model", "tpm-tis"), ("tpm_secret_security", "user"))
    ),
    _needs_key(
        "redirected-usb-ports-without-usb-model", "hw:redirected_usb_ports", "hw:usb_model", "2"
    ),
    _takes_effect_with(
        "ephemeral-encryption-format-without-encryption",
        "hw:ephemeral_encryption_format",
        Truthy(Fact("ephemeral_encryption")),
        "Turn ephemeral encryption on (hw:ephemeral_encryption or the image's "
        "hw_ephemeral_encryption), or drop hw:ephemeral_encryption_format: alone it is ignored.",
        "luks",
    ),
    _needs_key("maxphysaddr-bits-without-mode", "hw:maxphysaddr_bits", "hw:maxphysaddr_mode", "42"),
    _needs_key("rng-rate-bytes-without-period", "hw_rng:rate_bytes", "hw_rng:rate_period", "1024"),
    _needs_key("rng-rate-period-without-bytes", "hw_rng:rate_period", "hw_rng:rate_bytes", "1000"),
    *(
        _needs_key(
            f"{kind.replace('_', '-')}-shares-share-without-level",
            f"quota:{kind}_shares_share",
            f"quota:{kind}_shares_level",
            "100",
        )
        for kind in ("cpu", "memory", "disk_io", "vif")
    ),
    _needs_key("cpu-quota-without-period", "quota:cpu_quota", "quota:cpu_period", "10000"),
    *(
        _needs_key(
            f"vif-{direction}-{limit}-without-average",
            f"quota:vif_{direction}_{limit}",
            f"quota:vif_{direction}_average",
            "100",
        )
        for direction in ("inbound", "outbound")
        for limit in ("peak", "burst")
    ),
    *(
        _not_with(
            f"disk-{side}-{unit}-with-total",
            f"quota:disk_{side}_{unit}_sec",
            f"quota:disk_total_{unit}_sec",
            "1000",
        )
        for unit in ("bytes", "iops")
        for side in ("read", "write")
    ),
)
