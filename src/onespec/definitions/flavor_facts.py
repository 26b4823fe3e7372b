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
        spoken="the CPU policy asked for (hw:cpu_policy or hw_cpu_policy)",
    ),
    FactDefinition(
        "cpu_policy",
        "The CPU policy in force: 'dedicated' when resources:PCPU is requested, 'shared' when "
        "resources:VCPU is, else the one asked for.",
        ("hw:cpu_policy", "hw_cpu_policy", "resources:PCPU", "resources:VCPU"),
        spoken="the CPU policy (hw:cpu_policy or hw_cpu_policy, or resources:PCPU)",
    ),
    FactDefinition(
        "requested_cpu_thread_policy",
        "The CPU thread policy asked for: the flavor's, unless it is unset or 'prefer', in "
        "which case the image's (if any).",
        ("hw:cpu_thread_policy", "hw_cpu_thread_policy"),
        spoken="the CPU thread policy asked for (hw:cpu_thread_policy or hw_cpu_thread_policy)",
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
        spoken=(
            "the CPU thread policy (hw:cpu_thread_policy or hw_cpu_thread_policy, or "
            "trait:HW_CPU_HYPERTHREADING)"
        ),
    ),
    FactDefinition(
        "hyperthreading_trait",
        "The value of the first trait[N]:HW_CPU_HYPERTHREADING extra spec, else 'required' "
        "when the image requires the trait.",
        ("trait:HW_CPU_HYPERTHREADING", "traits_required"),
        spoken="trait:HW_CPU_HYPERTHREADING",
    ),
    FactDefinition(
        "realtime_cpus",
        "With hw:cpu_realtime on: the vCPUs of the real-time mask (the image's mask before "
        "the flavor's; a mask starting with '^' excludes from all vCPUs), or every vCPU.",
        ("hw:cpu_realtime", "hw:cpu_realtime_mask", "hw_cpu_realtime_mask", "vcpus"),
        spoken="the real-time vCPUs (hw:cpu_realtime_mask)",
        holds="hw:cpu_realtime is on",
        fails="hw:cpu_realtime is off",
    ),
    FactDefinition(
        "dedicated_cpus",
        "The vCPUs of hw:cpu_dedicated_mask (a mask starting with '^' excludes from all).",
        ("hw:cpu_dedicated_mask", "vcpus"),
        spoken="the dedicated vCPUs (hw:cpu_dedicated_mask)",
        holds="hw:cpu_dedicated_mask is set",
        fails="hw:cpu_dedicated_mask is unset",
    ),
    FactDefinition(
        "requested_vcpu",
        "The sum of every resources[N]:VCPU.",
        ("resources:VCPU",),
        blank=0,
        spoken="resources:VCPU",
        holds="resources:VCPU is requested",
        fails="resources:VCPU is not requested",
    ),
    FactDefinition(
        "requested_pcpu",
        "The sum of every resources[N]:PCPU.",
        ("resources:PCPU",),
        blank=0,
        spoken="resources:PCPU",
        holds="resources:PCPU is requested",
        fails="resources:PCPU is not requested",
    ),
    FactDefinition(
        "expected_pcpu",
        "The PCPUs a flavor must request: its vCPUs, plus one when the emulator threads are "
        "isolated.",
        ("vcpus", "hw:emulator_threads_policy"),
        blank=Blank.FROM_SIZES,
        spoken=(
            "the PCPUs the flavor must request (its vcpus, one more with "
            "hw:emulator_threads_policy=isolate)"
        ),
    ),
    FactDefinition(
        "several_vcpus",
        "The flavor has two vCPUs or more (multiqueue is ignored below that).",
        ("vcpus",),
        blank=Blank.FROM_SIZES,
        spoken="the flavor's vcpus",
        holds="the flavor has two vCPUs or more",
        fails="the flavor has one vCPU",
    ),
    FactDefinition(
        "numa_nodes",
        "The guest NUMA node count asked for: the flavor's, else the image's.",
        ("hw:numa_nodes", "hw_numa_nodes"),
        spoken="the NUMA node count (hw:numa_nodes or hw_numa_nodes)",
    ),
    FactDefinition(
        "numa_topology",
        "Whether Nova builds a guest NUMA topology: NUMA nodes, a page size, persistent "
        "memory or pinned CPUs ask for one.",
        _NUMA_TOPOLOGY_READS,
        blank=False,
        spoken="the guest NUMA topology",
        holds=(
            "Nova builds a guest NUMA topology (hw:numa_nodes, hw:mem_page_size, hw:pmem or "
            "a pinned CPU policy)"
        ),
        fails="Nova builds no guest NUMA topology",
    ),
    FactDefinition(
        "numa_cpus",
        "The per-node CPU lists: hw:numa_cpus.0, .1, ... up to the first missing, else the "
        "image's hw_numa_cpus.N.",
        ("hw:numa_cpus.N", "hw_numa_cpus.N"),
        spoken="the per-node CPU lists (hw:numa_cpus.N or hw_numa_cpus.N)",
    ),
    FactDefinition(
        "numa_mem",
        "The per-node memory in MiB: hw:numa_mem.0, .1, ... up to the first missing, else the "
        "image's hw_numa_mem.N.",
        ("hw:numa_mem.N", "hw_numa_mem.N"),
        spoken="the per-node memory (hw:numa_mem.N or hw_numa_mem.N)",
    ),
    FactDefinition(
        "flavor_numa_cpus",
        "The flavor's own per-node CPU lists (hw:numa_cpus.0, .1, ...).",
        ("hw:numa_cpus.N",),
        spoken="the flavor's per-node CPU lists (hw:numa_cpus.N)",
    ),
    FactDefinition(
        "flavor_numa_mem",
        "The flavor's own per-node memory (hw:numa_mem.0, .1, ...).",
        ("hw:numa_mem.N",),
        spoken="the flavor's per-node memory (hw:numa_mem.N)",
    ),
    FactDefinition(
        "numa_node_count",
        "The node count of the topology Nova builds: the NUMA nodes asked for, else 1.",
        ("hw:numa_nodes", "hw_numa_nodes"),
        blank=1,
        spoken="the NUMA node count (hw:numa_nodes or hw_numa_nodes, else 1)",
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
        spoken="the NUMA split",
        holds=(
            "Nova splits vCPUs and memory over the NUMA nodes itself (no hw:numa_cpus.N or "
            "hw:numa_mem.N)"
        ),
        fails="the NUMA nodes are not split by Nova itself",
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
        spoken="the per-node lists",
        holds="per-node lists are given (hw:numa_cpus.N and hw:numa_mem.N)",
        fails="no per-node lists are given",
    ),
    FactDefinition(
        "locked_memory",
        "Whether guest memory is locked: the flavor's hw:locked_memory, else the image's.",
        ("hw:locked_memory", "hw_locked_memory"),
        spoken="locked memory (hw:locked_memory or hw_locked_memory)",
        holds="memory is locked (hw:locked_memory or hw_locked_memory)",
        fails="memory is not locked",
    ),
    FactDefinition(
        "mem_encryption",
        "Whether memory encryption is asked for by the flavor or the image.",
        ("hw:mem_encryption", "hw_mem_encryption"),
        blank=False,
        spoken="memory encryption (hw:mem_encryption or hw_mem_encryption)",
        holds="memory encryption is asked for (hw:mem_encryption or hw_mem_encryption)",
        fails="memory encryption is not asked for",
    ),
    FactDefinition(
        "mem_encryption_model",
        "The memory encryption model: the image's, else the flavor's, else 'amd-sev'.",
        ("hw:mem_encryption_model", "hw_mem_encryption_model"),
        blank="amd-sev",
        spoken="the memory encryption model (hw:mem_encryption_model or hw_mem_encryption_model)",
    ),
    FactDefinition(
        "stateless_firmware",
        "The image asks for stateless UEFI firmware (hw_firmware_stateless, honoured only with "
        "hw_firmware_type=uefi).",
        ("hw_firmware_stateless", "hw_firmware_type"),
        spoken="stateless firmware (hw_firmware_stateless)",
        holds=(
            "the image asks for stateless firmware (hw_firmware_stateless with "
            "hw_firmware_type=uefi)"
        ),
        fails="the image does not ask for stateless firmware",
    ),
    FactDefinition(
        "max_sockets",
        "The socket limit: the image's, else the flavor's, else 65536.",
        ("hw:cpu_max_sockets", "hw_cpu_max_sockets"),
        blank=65536,
        spoken="the socket limit (hw:cpu_max_sockets or hw_cpu_max_sockets)",
    ),
    FactDefinition(
        "max_cores",
        "The core limit: the image's, else the flavor's, else 65536.",
        ("hw:cpu_max_cores", "hw_cpu_max_cores"),
        blank=65536,
        spoken="the core limit (hw:cpu_max_cores or hw_cpu_max_cores)",
    ),
    FactDefinition(
        "max_threads",
        "The thread limit: the image's, else the flavor's, else 65536.",
        ("hw:cpu_max_threads", "hw_cpu_max_threads"),
        blank=65536,
        spoken="the thread limit (hw:cpu_max_threads or hw_cpu_max_threads)",
    ),
    FactDefinition(
        "ephemeral_encryption",
        "Whether ephemeral storage encryption is asked for by the flavor or the image.",
        ("hw:ephemeral_encryption", "hw_ephemeral_encryption"),
        blank=False,
        spoken="ephemeral encryption (hw:ephemeral_encryption or hw_ephemeral_encryption)",
        holds=(
            "ephemeral encryption is asked for (hw:ephemeral_encryption or hw_ephemeral_encryption)"
        ),
        fails="ephemeral encryption is not asked for",
    ),
    FactDefinition(
        "video_ram_max_mb",
        "The most video memory an image may ask for: hw_video:ram_max_mb, else 0 (none).",
        ("hw_video:ram_max_mb",),
        blank=0,
        spoken="the video RAM limit (hw_video:ram_max_mb)",
    ),
    FactDefinition(
        "tpm_version",
        "The vTPM version: the flavor's, else the image's.",
        ("hw:tpm_version", "hw_tpm_version"),
        spoken="the vTPM version (hw:tpm_version or hw_tpm_version)",
    ),
    FactDefinition(
        "tpm_model",
        "The vTPM model: the flavor's, else the image's, else 'tpm-tis'.",
        ("hw:tpm_model", "hw_tpm_model"),
        blank="tpm-tis",
        spoken="the vTPM model (hw:tpm_model or hw_tpm_model)",
    ),
)

#: Facts by name, for the runtime and the reference.
FACTS_BY_NAME = {fact.name: fact for fact in FACTS}
