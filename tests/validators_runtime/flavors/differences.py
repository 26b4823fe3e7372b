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
        validate(case["flavor"].get("extra_specs", {}))
    except ExtraSpecValidationError:
        return True
    return False


#: Difference name -> whether a pair is one it covers.
COVERS: dict[str, Callable[[Case], bool]] = {
    "invalid-extra-spec-refused-when-written": _has_invalid_extra_spec,
}


def covers(difference: FlavorDifference, case: Case) -> bool:
    return COVERS[difference.name](case)
