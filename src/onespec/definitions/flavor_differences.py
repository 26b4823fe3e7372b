"""Where onespec's whole-flavor verdict deliberately differs from Nova 34.0.0's own code.

Each difference says which inputs it covers (``applies``), why onespec differs, and in which
inputs of the differential test it shows (``seen_in``: ``generated`` pairs, ``nova-unit-tests``
cases): a listed difference the test no longer sees there fails it, so this list cannot outlive
the behaviour it describes. The guide renders it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

Case = Mapping[str, Any]


@dataclass(frozen=True)
class FlavorDifference:
    name: str
    why: str
    applies: Callable[[Case], bool]
    seen_in: tuple[str, ...]


def _has_invalid_extra_spec(case: Case) -> bool:
    """Some extra spec is refused on its own (unknown key, value outside its type or enum)."""
    from onespec.validators_runtime.extra_specs import ExtraSpecValidationError, validate

    try:
        validate(case["flavor"].get("extra_specs", {}))
    except ExtraSpecValidationError:
        return True
    return False


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
        _has_invalid_extra_spec,
        ("nova-unit-tests",),
    ),
)
