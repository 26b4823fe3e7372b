"""Which pairs each deliberate difference from Nova covers, as the differential tests check it.

The differences themselves are facts of ``onespec.definitions.flavor_differences`` (a name, why,
where they are seen); telling whether a pair is one of them needs the runtime, which the
definitions do not import, so the check lives here beside the tests that use it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from onespec.definitions.flavor_differences import FlavorDifference
from onespec.validators_runtime.extra_specs import ExtraSpecValidationError, validate

Case = Mapping[str, Any]


def _has_invalid_extra_spec(case: Case) -> bool:
    """Some extra spec is refused on its own (unknown key, value outside its type or enum)."""
    try:
        validate(case["flavor"].get("extra_specs", {}), between_keys=False)
    except ExtraSpecValidationError:
        return True
    return False


def _true(value: object) -> bool:
    return str(value).strip().lower() in ("1", "t", "true", "on", "y", "yes")


def _encrypts_locked_memory(case: Case) -> bool:
    """Locked memory and memory encryption both asked for."""
    specs = case["flavor"].get("extra_specs", {})
    props = (case.get("image") or {}).get("properties", {})
    locked = _true(specs.get("hw:locked_memory", props.get("hw_locked_memory", "")))
    encrypted = _true(specs.get("hw:mem_encryption", "")) or _true(
        props.get("hw_mem_encryption", "")
    )
    return locked and encrypted


def _page_size_int_refuses(case: Case) -> bool:
    """A page size with a digit str.isdigit takes and int() refuses (²)."""
    specs = case["flavor"].get("extra_specs", {})
    props = (case.get("image") or {}).get("properties", {})
    sizes = (specs.get("hw:mem_page_size", ""), props.get("hw_mem_page_size", ""))
    return any(any(c.isdigit() and not c.isdecimal() for c in str(size)) for size in sizes)


#: Difference name -> whether a pair is one it covers.
COVERS: dict[str, Callable[[Case], bool]] = {
    "invalid-extra-spec-refused-when-written": _has_invalid_extra_spec,
    "memory-encryption-after-locked-memory": _encrypts_locked_memory,
    "page-size-digits-int-refuses": _page_size_int_refuses,
}


def covers(difference: FlavorDifference, case: Case) -> bool:
    return COVERS[difference.name](case)
