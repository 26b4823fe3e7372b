"""The values Nova derives from several keys of a flavor and its image, named once.

A rule of :mod:`onespec.definitions.flavor_rule_catalogue` reads a fact (``Fact("cpu_policy")``)
where Nova reads a value it computed from several keys -- the CPU policy in force, the guest's
NUMA topology, the real-time mask -- so that the rule states Nova's condition and not the
arithmetic behind it. Each fact says which keys and fields it reads; the runtime computes
each once (:mod:`onespec.validators_runtime.flavor_parts.facts`, one function per name), and a
test varies what a fact does not list to prove it does not read it.

Standard library only, like the vocabulary: the runtime imports it.
"""

from __future__ import annotations

from onespec.definitions.flavor_rules import Blank, FactDefinition

#: What makes Nova build a guest NUMA topology.
_NUMA_TOPOLOGY_READS = (
    "hw:numa_nodes",
    "hw_numa_nodes",
    "hw:mem_page_size",
    "hw:pmem",
    "hw:cpu_policy",
    "hw_cpu_policy",
    "resources:PCPU",
    "resources:VCPU",
)

#: The values Nova derives from several keys; the runtime computes each (one function per name).
FACTS: tuple[FactDefinition, ...] = (
    FactDefinition(
        "requested_cpu_policy",
        "The CPU policy asked for: the flavor's, else the image's.",
        ("hw:cpu_policy", "hw_cpu_policy"),
    ),
    FactDefinition(
        "cpu_policy",
        "The CPU policy in force: 'dedicated' when resources:PCPU is requested, 'shared' when "
        "resources:VCPU is, else the one asked for.",
        ("hw:cpu_policy", "hw_cpu_policy", "resources:PCPU", "resources:VCPU"),
    ),
    FactDefinition(
        "requested_cpu_thread_policy",
        "The CPU thread policy asked for: the flavor's, unless it is unset or 'prefer', in "
        "which case the image's (if any).",
        ("hw:cpu_thread_policy", "hw_cpu_thread_policy"),
    ),
    FactDefinition(
        "cpu_thread_policy",
        "The thread policy in force: 'isolate' when trait:HW_CPU_HYPERTHREADING is forbidden, "
        "'require' when it is required, else the one asked for.",
        (
            "hw:cpu_thread_policy",
            "hw_cpu_thread_policy",
            "trait:HW_CPU_HYPERTHREADING",
            "traits_required",
        ),
    ),
    FactDefinition(
        "hyperthreading_trait",
        "The value of the first trait[N]:HW_CPU_HYPERTHREADING extra spec, else 'required' "
        "when the image requires the trait.",
        ("trait:HW_CPU_HYPERTHREADING", "traits_required"),
    ),
    FactDefinition(
        "realtime_cpus",
        "With hw:cpu_realtime on: the vCPUs of the real-time mask (the image's mask before "
        "the flavor's; a mask starting with '^' excludes from all vCPUs), or every vCPU.",
        ("hw:cpu_realtime", "hw:cpu_realtime_mask", "hw_cpu_realtime_mask", "vcpus"),
    ),
    FactDefinition(
        "dedicated_cpus",
        "The vCPUs of hw:cpu_dedicated_mask (a mask starting with '^' excludes from all).",
        ("hw:cpu_dedicated_mask", "vcpus"),
    ),
    FactDefinition(
        "requested_vcpu",
        "The sum of every resources[N]:VCPU.",
        ("resources:VCPU",),
        blank=0,
    ),
    FactDefinition(
        "requested_pcpu",
        "The sum of every resources[N]:PCPU.",
        ("resources:PCPU",),
        blank=0,
    ),
    FactDefinition(
        "expected_pcpu",
        "The PCPUs a flavor must request: its vCPUs, plus one when the emulator threads are "
        "isolated.",
        ("vcpus", "hw:emulator_threads_policy"),
        blank=Blank.FROM_SIZES,
    ),
    FactDefinition(
        "several_vcpus",
        "The flavor has two vCPUs or more (multiqueue is ignored below that).",
        ("vcpus",),
        blank=Blank.FROM_SIZES,
    ),
    FactDefinition(
        "numa_nodes",
        "The guest NUMA node count asked for: the flavor's, else the image's.",
        ("hw:numa_nodes", "hw_numa_nodes"),
    ),
    FactDefinition(
        "numa_topology",
        "Whether Nova builds a guest NUMA topology: NUMA nodes, a page size, persistent "
        "memory or pinned CPUs ask for one.",
        _NUMA_TOPOLOGY_READS,
        blank=False,
    ),
    FactDefinition(
        "numa_cpus",
        "The per-node CPU lists: hw:numa_cpus.0, .1, ... up to the first missing, else the "
        "image's hw_numa_cpus.N.",
        ("hw:numa_cpus.N", "hw_numa_cpus.N"),
    ),
    FactDefinition(
        "numa_mem",
        "The per-node memory in MiB: hw:numa_mem.0, .1, ... up to the first missing, else the "
        "image's hw_numa_mem.N.",
        ("hw:numa_mem.N", "hw_numa_mem.N"),
    ),
    FactDefinition(
        "flavor_numa_cpus",
        "The flavor's own per-node CPU lists (hw:numa_cpus.0, .1, ...).",
        ("hw:numa_cpus.N",),
    ),
    FactDefinition(
        "flavor_numa_mem",
        "The flavor's own per-node memory (hw:numa_mem.0, .1, ...).",
        ("hw:numa_mem.N",),
    ),
    FactDefinition(
        "numa_node_count",
        "The node count of the topology Nova builds: the NUMA nodes asked for, else 1.",
        ("hw:numa_nodes", "hw_numa_nodes"),
        blank=1,
    ),
    FactDefinition(
        "automatic_numa",
        "Nova builds the NUMA topology and splits vCPUs and memory evenly itself (no per-node "
        "lists).",
        (
            "hw:numa_cpus.N",
            "hw:numa_mem.N",
            "hw_numa_cpus.N",
            "hw_numa_mem.N",
            *_NUMA_TOPOLOGY_READS,
        ),
        blank=False,
    ),
    FactDefinition(
        "manual_numa",
        "Nova builds the NUMA topology from per-node lists given for every node.",
        (
            "hw:numa_cpus.N",
            "hw:numa_mem.N",
            "hw_numa_cpus.N",
            "hw_numa_mem.N",
            *_NUMA_TOPOLOGY_READS,
        ),
        blank=False,
    ),
    FactDefinition(
        "locked_memory",
        "Whether guest memory is locked: the flavor's hw:locked_memory, else the image's.",
        ("hw:locked_memory", "hw_locked_memory"),
    ),
    FactDefinition(
        "mem_encryption",
        "Whether memory encryption is asked for by the flavor or the image.",
        ("hw:mem_encryption", "hw_mem_encryption"),
        blank=False,
    ),
    FactDefinition(
        "mem_encryption_model",
        "The memory encryption model: the image's, else the flavor's, else 'amd-sev'.",
        ("hw:mem_encryption_model", "hw_mem_encryption_model"),
        blank="amd-sev",
    ),
    FactDefinition(
        "stateless_firmware",
        "The image asks for stateless UEFI firmware (hw_firmware_stateless, honoured only with "
        "hw_firmware_type=uefi).",
        ("hw_firmware_stateless", "hw_firmware_type"),
    ),
    FactDefinition(
        "max_sockets",
        "The socket limit: the image's, else the flavor's, else 65536.",
        ("hw:cpu_max_sockets", "hw_cpu_max_sockets"),
        blank=65536,
    ),
    FactDefinition(
        "max_cores",
        "The core limit: the image's, else the flavor's, else 65536.",
        ("hw:cpu_max_cores", "hw_cpu_max_cores"),
        blank=65536,
    ),
    FactDefinition(
        "max_threads",
        "The thread limit: the image's, else the flavor's, else 65536.",
        ("hw:cpu_max_threads", "hw_cpu_max_threads"),
        blank=65536,
    ),
    FactDefinition(
        "ephemeral_encryption",
        "Whether ephemeral storage encryption is asked for by the flavor or the image.",
        ("hw:ephemeral_encryption", "hw_ephemeral_encryption"),
        blank=False,
    ),
    FactDefinition(
        "video_ram_max_mb",
        "The most video memory an image may ask for: hw_video:ram_max_mb, else 0 (none).",
        ("hw_video:ram_max_mb",),
        blank=0,
    ),
    FactDefinition(
        "tpm_version",
        "The vTPM version: the flavor's, else the image's.",
        ("hw:tpm_version", "hw_tpm_version"),
    ),
    FactDefinition(
        "tpm_model",
        "The vTPM model: the flavor's, else the image's, else 'tpm-tis'.",
        ("hw:tpm_model", "hw_tpm_model"),
        blank="tpm-tis",
    ),
)

#: Facts by name, for the runtime and the reference.
FACTS_BY_NAME = {fact.name: fact for fact in FACTS}
