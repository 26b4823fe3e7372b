"""Where onespec's verdict on an extra spec deliberately differs from Nova's own validators.

onespec defines the same keys and rules as Nova's ``nova/api/validation/extra_specs``, and the
tests run the shared case file through Nova's code to prove it. Each verdict on which the two
part ways is one of the differences below, each with its reason and the cases that show it; the
tests fail on any other disagreement, and the validating guide lists these from this module.
"""

from __future__ import annotations

from dataclasses import dataclass

#: The release of Nova these differences were checked against.
NOVA_VERSION = "34.0.0"

#: Over this many characters, Nova's API refuses a value before its validators see it.
_LONG = 256


@dataclass(frozen=True)
class NovaDifference:
    """One deliberate difference: what Nova says, what onespec says, and why."""

    title: str
    nova: str
    onespec: str
    why: str
    #: ``(key, value)`` cases of the shared case file that show the difference.
    cases: tuple[tuple[str, str], ...]


DIFFERENCES: tuple[NovaDifference, ...] = (
    NovaDifference(
        title="Over-long request group suffixes",
        nova="accepts a ``resources`` or ``trait`` key whose group suffix is longer than 64 "
        "characters, as a key of a namespace it does not know",
        onespec="reports it as an unknown key of the namespace",
        why="Placement's group suffixes are at most 64 characters; a longer one is a typo in "
        "a key that would otherwise be silently ignored.",
        cases=(("resources" + "A" * 65 + ":VCPU", "1"),),
    ),
    NovaDifference(
        title="The empty key",
        nova="accepts it in its validators (its API's request schema refuses it earlier)",
        onespec="refuses it as an invalid key, wherever ``validate`` is called from",
        why="onespec's runtime is also used without Nova's request schema in front of it.",
        cases=(("", "x"),),
    ),
    NovaDifference(
        title="Values longer than 255 characters",
        nova="accepts any length in its validators (its API's request schema refuses values "
        "over 255 characters earlier)",
        onespec="refuses them as invalid values",
        why="Nova stores at most 255 characters; the runtime says so itself, for callers "
        "without Nova's request schema.",
        cases=(
            ("hw:numa_nodes", "1" * _LONG),
            ("hw:numa_cpus.0", "0," * 127 + "10"),
            ("hw:pmem", "a" * _LONG),
            ("quota:cpu_shares", "1" * _LONG),
            ("accel:device_profile", "x" * _LONG),
            ("vmware:hw_version", "x" * _LONG),
            ("capabilities:host", "x" * _LONG),
            ("aggregate_instance_extra_specs:x", "x" * _LONG),
        ),
    ),
    NovaDifference(
        title="hw:maxphysaddr_mode and hw:maxphysaddr_bits",
        nova="refuses both as unknown keys: the libvirt driver reads them, but no validator "
        "was ever registered for them",
        onespec="defines both, with their allowed values",
        why="A key the service reads must be one its validation accepts, or the feature "
        "cannot be used from microversion 2.86 on.",
        cases=(
            ("hw:maxphysaddr_mode", "passthrough"),
            ("hw:maxphysaddr_mode", "emulate"),
            ("hw:maxphysaddr_mode", "Passthrough"),
            ("hw:maxphysaddr_mode", "emulated"),
            ("hw:maxphysaddr_bits", "0"),
            ("hw:maxphysaddr_bits", "1"),
            ("hw:maxphysaddr_bits", "52"),
            ("hw:maxphysaddr_bits", "1000"),
            ("hw:maxphysaddr_bits", "46bits"),
            ("hw:maxphysaddr_bits", "46"),
        ),
    ),
    NovaDifference(
        title="The dot in numbered keys",
        nova="accepts ``hw:numa_cpus_0`` or ``hw:numa_mem-1``: its key patterns read the "
        "``.`` of ``hw:numa_cpus.{id}`` as any character",
        onespec="requires the dot, and reports such keys as unknown",
        why="The libvirt driver reads only ``hw:numa_cpus.N``; a key spelt otherwise is "
        "accepted by Nova and then ignored.",
        cases=(
            ("hw:numa_cpus_0", "0-1"),
            ("hw:numa_cpusX0", "0-1"),
            ("hw:numa_mem-1", "1024"),
        ),
    ),
)


def covered_cases() -> dict[tuple[str, str], NovaDifference]:
    """Every case a difference explains, with the difference that explains it."""
    return {case: difference for difference in DIFFERENCES for case in difference.cases}
