"""The values Nova derives from a flavor and an image (the facts the rules name), computed once.

Each fact of :data:`onespec.definitions.flavor_facts.FACTS` has one method here, named
after it and marked :class:`fact`, and is read as an attribute of the view
(``view.cpu_policy``): the first read computes it and stores it on the view, so later reads are
plain attribute look-ups and a rule that reads the CPU policy in force does not recompute it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Set
from typing import Any

from onespec.validators_runtime.flavor_parts.cpusets import (
    CpuSet,
    CpuSpecError,
    page_size,
    parse_cpu_spec,
    vcpu_mask,
)
from onespec.validators_runtime.flavor_parts.image_props import NUMA_NODES_MAX, flexible_bool
from onespec.validators_runtime.flavor_parts.inputs import Flavor, Image

# Found as nova/virt/hardware.py finds them: ``re.match`` with no end anchor and numbered groups
# only, so ``resources:PCPUX`` counts as PCPU there and ``resources_a:PCPU`` does not. Such keys
# are refused on their own (unknown resource class or trait); the whole-flavor check still
# reads them as Nova's boot-time code does, so that its verdict stays Nova's.
_VCPU = re.compile(r"resources([1-9][0-9]*)?:VCPU")
_PCPU = re.compile(r"resources([1-9][0-9]*)?:PCPU")
_HT_TRAIT = re.compile(r"trait([1-9][0-9]*)?:HW_CPU_HYPERTHREADING")
#: Each pattern above with the name the rules give the keys it finds.
_CPU_REQUEST_NAMES = (
    (_VCPU, "resources:VCPU"),
    (_PCPU, "resources:PCPU"),
    (_HT_TRAIT, "trait:HW_CPU_HYPERTHREADING"),
)
#: The names the rules give the keys above.
_CPU_REQUEST_NAMES_SET = frozenset(name for _, name in _CPU_REQUEST_NAMES)
_NO_LIMIT = 65536
#: Each topology limit, with the image property and the extra spec that set it.
_LIMITS = tuple(
    (f"max_{part}", f"hw_cpu_max_{part}", f"hw:cpu_max_{part}")
    for part in ("sockets", "cores", "threads")
)
#: How the keys of numbered request groups start (``resources1:``, ``trait2:``).
_GROUPED_HEADS = ("resou", "trait")
#: The thread policy the hyperthreading trait imposes.
#: Keyed by the trait's value, which is None when no trait is asked for (no policy then).
_THREAD_POLICY_OF_TRAIT: dict[str | None, str] = {"forbidden": "isolate", "required": "require"}


def _int(value: Any, default: int = 0) -> int:
    if value is None or value == "":
        return default
    if type(value) is int:
        return value
    try:
        return int(value)
    except (TypeError, ValueError):
        return default


def _mask(mask: str, vcpus: int) -> CpuSet:
    try:
        return vcpu_mask(mask, vcpus)
    except CpuSpecError:
        return CpuSet()


def _flavor_lists(specs: Mapping[str, str], prefix: str, read: Any) -> list | None:
    """Per-node values ``prefix.0``, ``prefix.1``, ... up to the first missing."""
    found = []
    for node in range(NUMA_NODES_MAX):
        value = specs.get(f"{prefix}.{node}")
        if value is None:
            break
        try:
            found.append(read(value))
        except (ValueError, CpuSpecError):
            found.append(CpuSet() if read is not int else 0)
    return found or None


def may_request_cpus(key: str) -> bool:
    """Whether ``key`` holds what every key the patterns above find holds: a cheap test before
    :func:`cpu_request_name`."""
    return ":VCPU" in key or ":PCPU" in key or "HYPERTHREADING" in key


def cpu_request_name(key: str) -> str | None:
    """The name the rules give ``key`` when Nova reads it as part of the CPU request
    (``resources:PCPU`` for ``resources2:PCPU``), else None: the keys that make the facts
    below are the keys that wake the rules reading them."""
    for pattern, name in _CPU_REQUEST_NAMES:
        if pattern.match(key):
            return name
    return None


class fact:
    """A fact of :class:`View`: computed on its first read, then stored on the view, where it
    shadows this descriptor (it defines no ``__set__``), so later reads are plain attribute
    look-ups. Like ``functools.cached_property`` without the lock it takes before Python 3.12:
    a view belongs to one check in one thread."""

    def __init__(self, compute: Callable[[View], Any]) -> None:
        self.compute = compute
        self.name = compute.__name__
        self.__doc__ = compute.__doc__

    def __get__(self, view: View | None, owner: type | None = None) -> Any:
        if view is None:
            return self
        found = view.__dict__[self.name] = self.compute(view)
        return found


class grouped:
    """A fact of :class:`View` computed with others by one method (``compute``), which stores
    them all on the view: facts read from the same keys are worked out in one pass, and the
    first read of any of them leaves every one a plain attribute."""

    def __init__(self, compute: Callable[[View], None]) -> None:
        self.compute = compute
        self.name = ""

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    def __get__(self, view: View | None, owner: type | None = None) -> Any:
        if view is None:
            return self
        self.compute(view)
        return view.__dict__[self.name]


class View:
    """A flavor, its image's typed properties and the facts derived from them."""

    def __init__(
        self,
        flavor: Flavor,
        image: Image | None,
        props: Mapping[str, Any],
        names: Set[str] | None = None,
    ) -> None:
        self.flavor = flavor
        self.image = image
        self.specs = flavor.extra_specs
        self.props = props
        self.vcpus = flavor.vcpus
        #: The names present as the rules spell them, when known: a fact whose keys are all
        #: absent is then settled without reading them.
        self.names = names

    # --- reading sources ----------------------------------------------------------------

    def field(self, name: str) -> Any:
        """A flavor field (``ram``) or an image's (``image.min_ram``; None without an image)."""
        if name.startswith("image."):
            return None if self.image is None else getattr(self.image, name[6:])
        return getattr(self.flavor, name)

    # --- CPU policy -----------------------------------------------------------------------

    def _cpu(self) -> None:
        """The CPU request, read together: the policy asked for, the VCPU and PCPU resources,
        the hyperthreading trait, the thread policy asked for, and what is in force."""
        specs, props = self.specs, self.props
        vcpu = pcpu = 0
        trait = None
        names = self.names
        requests = names is None or not names.isdisjoint(_CPU_REQUEST_NAMES_SET)
        for key in [key for key in specs if key[:5] in _GROUPED_HEADS] if requests else ():
            if key[:9] == "resources":
                if _VCPU.match(key):
                    vcpu += _int(specs[key])
                elif _PCPU.match(key):
                    pcpu += _int(specs[key])
            elif trait is None and _HT_TRAIT.match(key):
                trait = specs[key]
        if trait is None and "HW_CPU_HYPERTHREADING" in props.get("traits_required", ()):
            trait = "required"
        requested = specs.get("hw:cpu_policy") or props.get("hw_cpu_policy") or None
        thread = specs.get("hw:cpu_thread_policy")
        if thread in (None, "prefer"):
            thread = thread or props.get("hw_cpu_thread_policy")
        found = self.__dict__
        found["requested_vcpu"] = vcpu
        found["requested_pcpu"] = pcpu
        found["requested_cpu_policy"] = requested
        found["cpu_policy"] = "shared" if vcpu else "dedicated" if pcpu else requested
        found["hyperthreading_trait"] = trait
        found["requested_cpu_thread_policy"] = thread
        found["cpu_thread_policy"] = _THREAD_POLICY_OF_TRAIT.get(trait, thread)

    requested_cpu_policy = grouped(_cpu)
    cpu_policy = grouped(_cpu)
    requested_vcpu = grouped(_cpu)
    requested_pcpu = grouped(_cpu)
    requested_cpu_thread_policy = grouped(_cpu)
    hyperthreading_trait = grouped(_cpu)
    cpu_thread_policy = grouped(_cpu)

    @fact
    def expected_pcpu(self) -> int:
        isolated = self.specs.get("hw:emulator_threads_policy") == "isolate"
        return self.vcpus + (1 if isolated else 0)

    @fact
    def realtime_cpus(self) -> CpuSet | None:
        if not flexible_bool(self.specs.get("hw:cpu_realtime", "")):
            return None
        mask = self.props.get("hw_cpu_realtime_mask") or self.specs.get("hw:cpu_realtime_mask")
        return _mask(mask, self.vcpus) if mask else CpuSet.below(self.vcpus)

    @fact
    def dedicated_cpus(self) -> CpuSet | None:
        mask = self.specs.get("hw:cpu_dedicated_mask")
        return _mask(mask, self.vcpus) if mask else None

    @fact
    def several_vcpus(self) -> bool:
        return self.vcpus >= 2

    # --- NUMA -------------------------------------------------------------------------------

    def _numa(self) -> None:
        """The guest NUMA topology, read together: the node count, the page size, whether Nova
        builds a topology, the per-node lists and whether Nova or the lists split the guest."""
        specs, props = self.specs, self.props
        nodes = specs.get("hw:numa_nodes") or props.get("hw_numa_nodes")
        nodes = _int(nodes) if nodes else None
        size = None
        request = specs.get("hw:mem_page_size")
        if request:
            size = page_size(request)
            image = props.get("hw_mem_page_size")
            if image and size in (-3, -2):
                size = page_size(image)
        pmem = specs.get("hw:pmem")
        topology = bool(
            nodes
            or size
            or (pmem and any(label.strip() for label in pmem.split(",")))
            or self.cpu_policy in ("dedicated", "mixed")
        )
        flavor_cpus = flavor_mem = None
        if "hw:numa_cpus.0" in specs:
            flavor_cpus = _flavor_lists(specs, "hw:numa_cpus", parse_cpu_spec)
        if "hw:numa_mem.0" in specs:
            flavor_mem = _flavor_lists(specs, "hw:numa_mem", int)
        cpus = flavor_cpus if flavor_cpus is not None else props.get("hw_numa_cpus")
        mem = flavor_mem if flavor_mem is not None else props.get("hw_numa_mem")
        count = nodes or 1
        found = self.__dict__
        found["numa_nodes"] = nodes
        found["page_size"] = size
        found["numa_topology"] = topology
        found["flavor_numa_cpus"] = flavor_cpus
        found["flavor_numa_mem"] = flavor_mem
        found["numa_cpus"] = cpus
        found["numa_mem"] = mem
        found["numa_node_count"] = count
        found["automatic_numa"] = topology and cpus is None and mem is None
        found["manual_numa"] = bool(
            topology
            and cpus is not None
            and mem is not None
            and len(cpus) == count
            and len(mem) == count
        )

    numa_nodes = grouped(_numa)
    page_size = grouped(_numa)
    numa_topology = grouped(_numa)
    flavor_numa_cpus = grouped(_numa)
    flavor_numa_mem = grouped(_numa)
    numa_cpus = grouped(_numa)
    numa_mem = grouped(_numa)
    numa_node_count = grouped(_numa)
    automatic_numa = grouped(_numa)
    manual_numa = grouped(_numa)

    # --- memory -----------------------------------------------------------------------------

    @fact
    def locked_memory(self) -> bool | None:
        flavor = self.specs.get("hw:locked_memory")
        if flavor is not None:
            return flexible_bool(flavor)
        return self.props.get("hw_locked_memory")

    @fact
    def mem_encryption(self) -> bool:
        flavor = self.specs.get("hw:mem_encryption")
        return bool(flexible_bool(flavor or "") or self.props.get("hw_mem_encryption"))

    @fact
    def mem_encryption_model(self) -> str:
        return (
            self.props.get("hw_mem_encryption_model")
            or self.specs.get("hw:mem_encryption_model")
            or "amd-sev"
        )

    @fact
    def stateless_firmware(self) -> bool | None:
        if self.props.get("hw_firmware_type") != "uefi":
            return None
        return self.props.get("hw_firmware_stateless")

    # --- topology, vTPM ----------------------------------------------------------------------

    def _limits(self) -> None:
        """The topology limits: each the image's, else the flavor's, else none."""
        props, specs = self.props, self.specs
        found = self.__dict__
        for limit, prop, spec in _LIMITS:
            value = props.get(prop)
            if not value:
                value = specs.get(spec)
                value = (_int(value) if value else 0) or _NO_LIMIT
            found[limit] = value

    max_sockets = grouped(_limits)
    max_cores = grouped(_limits)
    max_threads = grouped(_limits)

    @fact
    def ephemeral_encryption(self) -> bool:
        flavor = self.specs.get("hw:ephemeral_encryption")
        return bool(flexible_bool(flavor or "") or self.props.get("hw_ephemeral_encryption"))

    @fact
    def video_ram_max_mb(self) -> int:
        return _int(self.specs.get("hw_video:ram_max_mb"))

    @fact
    def tpm_version(self) -> str | None:
        return self.specs.get("hw:tpm_version") or self.props.get("hw_tpm_version")

    @fact
    def tpm_model(self) -> str:
        return self.specs.get("hw:tpm_model") or self.props.get("hw_tpm_model") or "tpm-tis"
