"""The values Nova derives from a flavor and an image (the facts the rules name), computed once.

Each fact of :data:`onespec.definitions.flavor_rule_catalogue.FACTS` has one method here, named
after it; :meth:`View.fact` computes it on first use and keeps it, so a rule that reads the CPU
policy in force does not recompute it.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from onespec.definitions.flavor_rules import Fact, Field, Prop, Spec
from onespec.validators_runtime.flavors.cpusets import (
    CpuSpecError,
    page_size,
    parse_cpu_spec,
    vcpu_mask,
)
from onespec.validators_runtime.flavors.image_props import NUMA_NODES_MAX, flexible_bool
from onespec.validators_runtime.flavors.inputs import Flavor, Image

_VCPU = re.compile(r"resources([1-9][0-9]*)?:VCPU")
_PCPU = re.compile(r"resources([1-9][0-9]*)?:PCPU")
_HT_TRAIT = re.compile(r"trait([1-9][0-9]*)?:HW_CPU_HYPERTHREADING")
_NO_LIMIT = 65536


def _int(value: Any, default: int = 0) -> int:
    if value is None or value == "":
        return default
    try:
        return int(value)
    except (TypeError, ValueError):
        return default


class View:
    """A flavor, its image's typed properties and the facts derived from them."""

    def __init__(self, flavor: Flavor, image: Image | None, props: Mapping[str, Any]) -> None:
        self.flavor = flavor
        self.image = image
        self.specs = flavor.extra_specs
        self.props = props
        self._facts: dict[str, Any] = {}

    # --- reading sources ----------------------------------------------------------------

    def value(self, source: Any) -> Any:
        if isinstance(source, Spec):
            return self.specs.get(source.key)
        if isinstance(source, Prop):
            return self.props.get(source.name)
        if isinstance(source, Fact):
            return self.fact(source.name)
        if isinstance(source, Field):
            return self.field(source.name)
        raise TypeError(f"not a source: {source!r}")

    def field(self, name: str) -> Any:
        if name.startswith("image."):
            return None if self.image is None else getattr(self.image, name[6:])
        return getattr(self.flavor, name)

    def fact(self, name: str) -> Any:
        facts = self._facts
        if name in facts:
            return facts[name]
        found = facts[name] = _COMPUTE[name](self)
        return found

    # --- CPU policy -----------------------------------------------------------------------

    def _requested_cpu_policy(self) -> str | None:
        return self.specs.get("hw:cpu_policy") or self.props.get("hw_cpu_policy") or None

    def _cpu_policy(self) -> str | None:
        if self.fact("requested_vcpu"):
            return "shared"
        if self.fact("requested_pcpu"):
            return "dedicated"
        return self.fact("requested_cpu_policy")

    def _resource_sum(self, pattern: re.Pattern[str]) -> int:
        return sum(
            _int(v) for k, v in self.specs.items() if k[:9] == "resources" and pattern.match(k)
        )

    def _requested_vcpu(self) -> int:
        return self._resource_sum(_VCPU)

    def _requested_pcpu(self) -> int:
        return self._resource_sum(_PCPU)

    def _expected_pcpu(self) -> int:
        isolated = self.specs.get("hw:emulator_threads_policy") == "isolate"
        return self.flavor.vcpus + (1 if isolated else 0)

    def _requested_cpu_thread_policy(self) -> str | None:
        flavor = self.specs.get("hw:cpu_thread_policy")
        if flavor in (None, "prefer"):
            return flavor or self.props.get("hw_cpu_thread_policy")
        return flavor

    def _hyperthreading_trait(self) -> str | None:
        for key, value in self.specs.items():
            if key[:5] == "trait" and _HT_TRAIT.match(key):
                return value
        if "HW_CPU_HYPERTHREADING" in self.props.get("traits_required", ()):
            return "required"
        return None

    def _cpu_thread_policy(self) -> str | None:
        trait = self.fact("hyperthreading_trait")
        if trait == "forbidden":
            return "isolate"
        if trait == "required":
            return "require"
        return self.fact("requested_cpu_thread_policy")

    def _mask(self, mask: str) -> set[int]:
        try:
            return vcpu_mask(mask, self.flavor.vcpus)
        except CpuSpecError:
            return set()

    def _realtime_cpus(self) -> set[int] | None:
        if not flexible_bool(self.specs.get("hw:cpu_realtime", "")):
            return None
        mask = self.props.get("hw_cpu_realtime_mask") or self.specs.get("hw:cpu_realtime_mask")
        return self._mask(mask) if mask else set(range(self.flavor.vcpus))

    def _dedicated_cpus(self) -> set[int] | None:
        mask = self.specs.get("hw:cpu_dedicated_mask")
        return self._mask(mask) if mask else None

    def _several_vcpus(self) -> bool:
        return self.flavor.vcpus >= 2

    # --- NUMA -------------------------------------------------------------------------------

    def _numa_nodes(self) -> int | None:
        nodes = self.specs.get("hw:numa_nodes") or self.props.get("hw_numa_nodes")
        return _int(nodes) if nodes else None

    def _page_size(self) -> float | None:
        request = self.specs.get("hw:mem_page_size")
        if not request:
            return None
        size = page_size(request)
        image = self.props.get("hw_mem_page_size")
        if image and size in (-3, -2):
            return page_size(image)
        return size

    def _numa_topology(self) -> bool:
        pmem = self.specs.get("hw:pmem") or ""
        return bool(
            self.fact("numa_nodes")
            or self.fact("page_size")
            or any(label.strip() for label in pmem.split(","))
            or self.fact("cpu_policy") in ("dedicated", "mixed")
        )

    def _flavor_lists(self, prefix: str, read: Any) -> list | None:
        found = []
        for node in range(NUMA_NODES_MAX):
            value = self.specs.get(f"{prefix}.{node}")
            if value is None:
                break
            try:
                found.append(read(value))
            except (ValueError, CpuSpecError):
                found.append(set() if read is not int else 0)
        return found or None

    def _flavor_numa_cpus(self) -> list[set[int]] | None:
        return self._flavor_lists("hw:numa_cpus", parse_cpu_spec)

    def _flavor_numa_mem(self) -> list[int] | None:
        return self._flavor_lists("hw:numa_mem", int)

    def _numa_cpus(self) -> list[set[int]] | None:
        flavor = self.fact("flavor_numa_cpus")
        return flavor if flavor is not None else self.props.get("hw_numa_cpus")

    def _numa_mem(self) -> list[int] | None:
        flavor = self.fact("flavor_numa_mem")
        return flavor if flavor is not None else self.props.get("hw_numa_mem")

    def _numa_node_count(self) -> int:
        return self.fact("numa_nodes") or 1

    def _automatic_numa(self) -> bool:
        return (
            self.fact("numa_topology")
            and self.fact("numa_cpus") is None
            and self.fact("numa_mem") is None
        )

    def _manual_numa(self) -> bool:
        cpus, mem, count = (
            self.fact("numa_cpus"),
            self.fact("numa_mem"),
            self.fact("numa_node_count"),
        )
        return bool(
            self.fact("numa_topology")
            and cpus is not None
            and mem is not None
            and len(cpus) == count
            and len(mem) == count
        )

    # --- memory -----------------------------------------------------------------------------

    def _locked_memory(self) -> bool | None:
        flavor = self.specs.get("hw:locked_memory")
        if flavor is not None:
            return flexible_bool(flavor)
        return self.props.get("hw_locked_memory")

    def _mem_encryption(self) -> bool:
        flavor = self.specs.get("hw:mem_encryption")
        return bool(flexible_bool(flavor or "") or self.props.get("hw_mem_encryption"))

    def _mem_encryption_model(self) -> str:
        return (
            self.props.get("hw_mem_encryption_model")
            or self.specs.get("hw:mem_encryption_model")
            or "amd-sev"
        )

    def _stateless_firmware(self) -> bool | None:
        if self.props.get("hw_firmware_type") != "uefi":
            return None
        return self.props.get("hw_firmware_stateless")

    # --- topology, vTPM ----------------------------------------------------------------------

    def _limit(self, part: str) -> int:
        image = self.props.get(f"hw_cpu_max_{part}") or 0
        return image or _int(self.specs.get(f"hw:cpu_max_{part}")) or _NO_LIMIT

    def _max_sockets(self) -> int:
        return self._limit("sockets")

    def _max_cores(self) -> int:
        return self._limit("cores")

    def _max_threads(self) -> int:
        return self._limit("threads")

    def _ephemeral_encryption(self) -> bool:
        flavor = self.specs.get("hw:ephemeral_encryption")
        return bool(flexible_bool(flavor or "") or self.props.get("hw_ephemeral_encryption"))

    def _tpm_version(self) -> str | None:
        return self.specs.get("hw:tpm_version") or self.props.get("hw_tpm_version")

    def _tpm_model(self) -> str:
        return self.specs.get("hw:tpm_model") or self.props.get("hw_tpm_model") or "tpm-tis"


#: Each fact's method, looked up once.
_COMPUTE = {
    name[1:]: method
    for name, method in vars(View).items()
    if name.startswith("_") and not name.startswith("__") and callable(method)
}
