"""Where onespec's whole-flavor verdict deliberately differs from Nova 34.0.0's own code.

Each difference says which pairs it covers and why onespec differs (``why``), and in which
inputs of the differential test it shows (``seen_in``: ``generated`` pairs, ``nova-unit-tests``
cases): a listed difference the test no longer sees there fails it, so this list cannot outlive
the behaviour it describes. The guide renders it.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class FlavorDifference:
    """A deliberate difference: its name, why it is one, and which inputs it was seen in.

    Which pairs it concerns is said in ``why``; the differential tests that meet it hold the
    same circumstance as a check of their own, so this module stays a statement of facts that
    imports nothing of the runtime.
    """

    name: str
    why: str
    seen_in: tuple[str, ...]


DIFFERENCES: tuple[FlavorDifference, ...] = (
    FlavorDifference(
        "invalid-extra-spec-refused-when-written",
        "A flavor with an extra spec that is invalid on its own (hw:cpu_policy=foo, "
        "hw:numa_nodes=0, an unknown hw: key) cannot be written through Nova's API from "
        "microversion 2.86: onespec reports that refusal (ValidationError, phase api). Nova's "
        "boot-time functions, which its unit tests call directly, raise their own exception "
        "for some of these (InvalidCPUAllocationPolicy, InvalidNUMANodesNumber, "
        "InvalidRequest...), raise only when scheduling (an unknown TPM version), or ignore "
        "the key (a misspelt one).",
        ("nova-unit-tests",),
    ),
    FlavorDifference(
        "memory-encryption-after-locked-memory",
        "Nova checks memory encryption while it reads locked memory in numa_get_constraints, "
        "unless locked memory is on (hw:locked_memory or hw_locked_memory true): then only "
        "_validate_flavor_image_numa_pci checks it, after the PCI NUMA policy, the ephemeral "
        "encryption and the image's state and sizes. onespec keeps one place for the "
        "memory-encryption rules, so with locked memory on, a memory-encryption refusal may "
        "come before one of those in its findings (both are reported).",
        ("generated",),
    ),
    FlavorDifference(
        "page-size-digits-int-refuses",
        "A page size of digits that str.isdigit takes and int() refuses (hw_mem_page_size=²) "
        "makes Nova fail with a ValueError, an HTTP 500; onespec refuses it as Nova refuses "
        "any unreadable page size (MemoryPageSizeInvalid).",
        ("create-order",),
    ),
)
