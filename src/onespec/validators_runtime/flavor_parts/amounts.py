"""Negative ``resources`` amounts: taken by Nova's API, skipped by its scheduler.

Nova's extra-spec validators read a resource amount as any integer, so ``resources:VCPU=-1``
is stored. When a server is scheduled, the request group skips a negative amount (with a line
in the scheduler's log) and nothing else is said: the flavor's own ``vcpus``, ``ram`` or
``disk`` is asked for in its place (unless another key replaces it), and nothing at all for
a class the flavor has no field for. The flavor boots, just not as written; each such key
is a warning saying what is asked for instead.
"""

from __future__ import annotations

import re
from typing import Any

from onespec.validators_runtime.flavor_parts.findings import FlavorFinding
from onespec.validators_runtime.flavor_parts.inputs import Flavor
from onespec.validators_runtime.problems import Location

#: A resource amount's key, as Nova's scheduler reads it: ``resources``, an optional group
#: suffix, and the class.
_RESOURCE_KEY = re.compile(r"resources([a-zA-Z0-9_-]{0,64}):([A-Z0-9_]+)")

#: The classes a flavor asks for from its own fields when no amount replaces them.
_FROM_FIELDS = {"VCPU": "vcpus", "MEMORY_MB": "ram", "DISK_GB": "disk"}

#: The longest amount read: longer text is not a negative number Nova could store.
_MAX_DIGITS = 255


def negative_amounts(flavor: Flavor) -> list[FlavorFinding]:
    """A warning for each ``resources`` key whose amount is a negative integer."""
    findings = []
    for key, value in flavor.extra_specs.items():
        if not isinstance(key, str) or not key.startswith("resources"):
            continue
        match = _RESOURCE_KEY.fullmatch(key)
        amount = _negative(value)
        if match is None or amount is None:
            continue
        resource_class = match.group(2)
        field = _FROM_FIELDS.get(resource_class)
        if field is not None:
            instead = (
                f": the flavor's {field} ({getattr(flavor, field)}) is asked for, unless another "
                "resources key replaces it"
            )
        else:
            instead = f": no {resource_class} is asked for"
        findings.append(
            FlavorFinding(
                code="negative-resource-amount",
                severity="warning",
                message=f"Extra spec {key!r} asks for {amount} {resource_class}: Nova stores it, "
                "but its scheduler skips a negative amount, as if the key were not there"
                f"{instead}. Set the amount wanted, 0 to ask for none, or drop {key!r}.",
                location=Location(path=key),
                keys=(key,),
                value=value,
                phase="scheduler",
            )
        )
    return findings


def _negative(value: Any) -> int | None:
    """The amount when ``value`` is a negative integer as ``int()`` reads it, else None."""
    if not isinstance(value, str) or len(value) > _MAX_DIGITS or "-" not in value:
        return None
    try:
        amount = int(value)
    except ValueError:
        return None
    return amount if amount < 0 else None


__all__ = ["negative_amounts"]
